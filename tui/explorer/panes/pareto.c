/*
 * pareto.c - the frontier pane's Pareto view (`o`): output tokens/s per GPU
 * (up) against tokens/s per user = 1 / ITL (right) for every plan at every
 * batch per replica at the current GPU count, drawn in cells: the other
 * points `.`, the selected plan's batches `+`, the frontier `*` and the
 * selected plan at the explorer's own batch `@` (glyphs, so it reads
 * without colours).  Beside the plot, when the pane is wide enough, the
 * frontier as a table from its per-user end.  Draws from the update step's
 * points (r->pareto); computes nothing.
 */
#include "explorer_int.h"

#include <stdio.h>
#include <string.h>

#define AXIS_W 7
#define TABLE_W 31

/* A plot position; 0 when off the plot. */
typedef struct plot {
    int x0, w, h;
    double xmax, ymax;
} plot;

static int plot_cell(const plot *p, double ux, double gy, int *row, int *col)
{
    if (!(p->xmax > 0) || !(p->ymax > 0) || !(ux >= 0) || !(gy >= 0))
        return 0;
    int c = (int)(ux / p->xmax * (p->w - 1) + 0.5);
    int r = p->h - 1 - (int)(gy / p->ymax * (p->h - 1) + 0.5);
    if (c < 0 || c >= p->w || r < 0 || r >= p->h)
        return 0;
    *row = r;
    *col = c;
    return 1;
}

static void mark(WINDOW *w, const plot *p, double ux, double gy, theme_role role, const char *g)
{
    int r, c;
    if (plot_cell(p, ux, gy, &r, &c))
        pane_put(w, 1 + r, p->x0 + c, 1, role, g);
}

/* The selected plan, when it runs: its place at the explorer's batch. */
static int selected_point(const exp_view *v, double *ux, double *gy)
{
    const engine_result *s = v->selected;
    if (!s || !s->valid || !s->fits || !(s->itl_s > 0))
        return 0;
    *ux = 1.0 / s->itl_s;
    *gy = s->tokens_per_s / v->r->sc.gpus;
    return 1;
}

static int same_plan(const engine_plan *a, const engine_plan *b)
{
    return a->tp == b->tp && a->pp == b->pp && a->dp == b->dp && a->ep == b->ep;
}

/* "670" / "1.2k": an axis label of a rate in tokens/s. */
static char *rate_label(double v, char *buf, size_t len)
{
    if (v >= 10000)
        snprintf(buf, len, "%.0fk", v / 1000);
    else if (v >= 1000)
        snprintf(buf, len, "%.1fk", v / 1000);
    else if (v >= 10)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.1f", v);
    return buf;
}

static void draw_axes(const exp_view *v, WINDOW *w, const plot *p)
{
    char a[16];
    (void)v;
    pane_putf(w, 1, 1, AXIS_W - 1, ROLE_LABEL, "%*s", AXIS_W - 1,
              rate_label(p->ymax, a, sizeof a));
    pane_putf(w, 1 + p->h / 2, 1, AXIS_W - 1, ROLE_LABEL, "%*s", AXIS_W - 1,
              rate_label(p->ymax * (p->h - 1 - p->h / 2) / (p->h > 1 ? p->h - 1 : 1), a,
                         sizeof a));
    pane_putf(w, p->h, 1, AXIS_W - 1, ROLE_LABEL, "%*s", AXIS_W - 1, "0");
    int y = 1 + p->h;
    pane_put(w, y, 1, AXIS_W - 1, ROLE_LABEL, "/user");
    pane_put(w, y, p->x0, 2, ROLE_LABEL, "0");
    rate_label(p->xmax / 2, a, sizeof a);
    pane_put(w, y, p->x0 + (p->w - 1) / 2 - (int)strlen(a) / 2, (int)strlen(a), ROLE_LABEL, a);
    rate_label(p->xmax, a, sizeof a);
    pane_put(w, y, p->x0 + p->w - (int)strlen(a), (int)strlen(a), ROLE_LABEL, a);
}

/* The frontier from its per-user end, the selected plan's rows valued. */
static void draw_table(const exp_view *v, WINDOW *w, int y0, int x0, int rows)
{
    const exp_results *r = v->r;
    pane_putf(w, y0, x0, TABLE_W, ROLE_TITLE, "%-13s %4s %6s %5s", "frontier", "B", "/GPU",
              "/user");
    int front = 0, shown = 0;
    for (int i = 0; i < r->n_pareto; i++)
        front += r->pareto[i].frontier;
    int avail = rows - 1; /* below the header; one more line says what is left */
    if (front > avail)
        avail--;
    for (int i = 0; i < r->n_pareto && shown < avail; i++) {
        const engine_pareto_point *q = &r->pareto[i];
        if (!q->frontier)
            continue;
        char plan[48], g[16], u[16];
        fmt_plan(q->plan, v->g->times, plan, sizeof plan);
        /* pad to 13 cells (a UTF-8 "x" is one cell, several bytes) */
        for (int k = out_display_width(plan); k < 13 && strlen(plan) + 1 < sizeof plan; k++)
            strcat(plan, " ");
        int sel = v->selected && same_plan(&q->plan, &v->selected->plan);
        pane_putf(w, y0 + 1 + shown, x0, TABLE_W, sel ? ROLE_VALUE : ROLE_NORMAL,
                  "%s %4d %6s %5s", plan, q->batch, rate_label(q->tokens_per_s_per_gpu, g,
                                                               sizeof g),
                  rate_label(q->tokens_per_s_per_user, u, sizeof u));
        shown++;
    }
    if (front > shown && avail >= 0)
        pane_putf(w, y0 + 1 + shown, x0, TABLE_W, ROLE_DIM, "+%d more", front - shown);
}

static void draw_legend(const exp_view *v, WINDOW *w, int y, int width)
{
    char plan[32], leg[192];
    if (v->selected && v->selected->valid && v->selected->fits) {
        fmt_plan(v->selected->plan, v->g->times, plan, sizeof plan);
        snprintf(leg, sizeof leg, "* frontier  + %s  @ B=%d  %s other", plan,
                 v->selected->batch, v->g->dot);
    } else {
        snprintf(leg, sizeof leg, "* frontier  %s other  (selected plan: no point)", v->g->dot);
    }
    pane_put(w, y, 1, width, ROLE_LABEL, leg);
}

/* The points in layers: the others, the selected plan's sweep, the
 * frontier, then the selected plan at the current batch on top. */
static void draw_points(const exp_view *v, WINDOW *w, const plot *p)
{
    const exp_results *r = v->r;
    const engine_plan *sel = v->selected ? &v->selected->plan : NULL;
    for (int layer = 0; layer < 3; layer++)
        for (int i = 0; i < r->n_pareto; i++) {
            const engine_pareto_point *q = &r->pareto[i];
            int mine = sel && same_plan(&q->plan, sel);
            if (layer == 0 && !mine && !q->frontier)
                mark(w, p, q->tokens_per_s_per_user, q->tokens_per_s_per_gpu, ROLE_DIM,
                     v->g->dot);
            else if (layer == 1 && mine && !q->frontier)
                mark(w, p, q->tokens_per_s_per_user, q->tokens_per_s_per_gpu, ROLE_GOOD, "+");
            else if (layer == 2 && q->frontier)
                mark(w, p, q->tokens_per_s_per_user, q->tokens_per_s_per_gpu,
                     mine ? ROLE_GOOD : ROLE_VALUE, "*");
        }
    double ux, gy;
    if (selected_point(v, &ux, &gy))
        mark(w, p, ux, gy, ROLE_TITLE_FOCUS, "@");
}

void pane_pareto_draw(const exp_view *v, WINDOW *w)
{
    theme_window(w);
    const exp_results *r = v->r;
    int h = getmaxy(w), ww = getmaxx(w);
    int inner_w = ww - 2, inner_h = h - 2;
    char title[128];
    snprintf(title, sizeof title, "Pareto frontier: output tok/s per GPU vs tok/s per user, "
             "%d GPUs (o)", r->sc.gpus);
    pane_frame(v, w, PANE_FRONTIER, title);
    if (r->pending[EXP_PART_PARETO]) {
        pane_putf(w, 1, 1, inner_w, ROLE_DIM, "updating (after the keys stop)");
        return;
    }
    if (r->n_pareto < 1) {
        pane_putf(w, 1, 1, inner_w, ROLE_DIM, "no plan fits on %d GPUs", r->sc.gpus);
        return;
    }
    int table = inner_w >= 60 ? TABLE_W + 2 : 0;
    plot p = {1 + AXIS_W, inner_w - table - AXIS_W, inner_h - 2, 0, 0};
    if (p.w < 8 || p.h < 3)
        return;
    for (int i = 0; i < r->n_pareto; i++) {
        if (r->pareto[i].tokens_per_s_per_user > p.xmax)
            p.xmax = r->pareto[i].tokens_per_s_per_user;
        if (r->pareto[i].tokens_per_s_per_gpu > p.ymax)
            p.ymax = r->pareto[i].tokens_per_s_per_gpu;
    }
    double ux, gy;
    if (selected_point(v, &ux, &gy)) {
        p.xmax = ux > p.xmax ? ux : p.xmax;
        p.ymax = gy > p.ymax ? gy : p.ymax;
    }
    draw_axes(v, w, &p);
    draw_points(v, w, &p);
    draw_legend(v, w, 2 + p.h, inner_w - table);
    if (table)
        draw_table(v, w, 1, ww - 1 - TABLE_W, inner_h);
}
