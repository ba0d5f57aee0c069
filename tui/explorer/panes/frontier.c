/*
 * frontier.c - the VRAM frontier: memory per GPU against GPU count
 * (the least-memory TP x PP split at each power of two), weights, KV cache
 * and activations stacked, with the usable capacity set by the VRAM slider
 * as a line; beside it the smallest GPU count that fits for common memory
 * sizes.  The bars are rasterised by chart.c; the capacity line's row is
 * labelled with the usable capacity (the title's figure), not a band.
 */
#include "explorer_int.h"

#include <stdio.h>
#include <string.h>

#include "chart.h"

#define TABLE_W 19
#define AXIS_W 8
/* Blank runs up to this long between two cells of one colour are drawn in
 * that colour (longer unchanged runs are skipped by curses anyway). */
#define BRIDGE_MAX 5

/* The style of a plot cell, or -1 for an empty one. */
static int cell_role(const chart_cell *c)
{
    static const theme_role SEG[3] = {ROLE_SEG1, ROLE_SEG2, ROLE_SEG3};
    if (c->cap)
        return ROLE_CAP;
    if (c->series >= 1 && c->series <= 3)
        return SEG[c->series - 1];
    return -1;
}

static void draw_min_table(const exp_view *v, WINDOW *w, int y0, int x0, int rows)
{
    const exp_results *r = v->r;
    pane_put(w, y0, x0, TABLE_W, ROLE_TITLE, "min GPUs to fit");
    for (int i = 0; i < EXP_MEM_SIZES && i + 1 < rows; i++) {
        char n[24];
        if (r->min_gpus[i] > 0)
            snprintf(n, sizeof n, "%d", r->min_gpus[i]);
        else
            snprintf(n, sizeof n, ">%d", EXP_MAX_GPUS);
        pane_putf(w, y0 + 1 + i, x0, TABLE_W, r->min_gpus[i] > 0 ? ROLE_NORMAL : ROLE_DIM,
                  "%4.0f GB GPU %5s", r->mem_sizes_gb[i], n);
    }
}

/* Bars cut at the top of the scale get an arrow; returns how many. */
static int draw_cut_marks(const exp_view *v, WINDOW *w, const double *vals, int nb, int nfit,
                          int bar_w, double top, double ymax)
{
    int x0 = 1 + AXIS_W, ncut = 0;
    for (int c = 0; c < nb && c < nfit && top > 0; c++)
        if (vals[c * 3] + vals[c * 3 + 1] + vals[c * 3 + 2] > ymax) {
            ncut++;
            for (int k = 0; k < bar_w; k++)
                pane_put(w, 1, x0 + c * (bar_w + 1) + k, 1, ROLE_CAP, v->g->up);
        }
    return ncut;
}

/* The rasterised bars, row by row. */
static void draw_bars(const exp_view *v, WINDOW *w, const chart_cell *grid, int plot_w,
                      int plot_h)
{
    int x0 = 1 + AXIS_W;
    for (int yy = 0; yy < plot_h; yy++) {
        const chart_cell *row = &grid[yy * plot_w];
        int prev = -1; /* role of the last cell drawn on this row */
        for (int xx = 0; xx < plot_w; xx++) {
            const chart_cell *cell = &row[xx];
            int role = cell_role(cell);
            if (role < 0) {
                /* The gap between two bars in one colour is a blank in
                 * that colour, so the row stays one colour run. */
                int k = xx;
                while (k < plot_w && k - xx < BRIDGE_MAX && cell_role(&row[k]) < 0)
                    k++;
                if (prev >= 0 && k < plot_w && cell_role(&row[k]) == prev)
                    for (; xx < k; xx++)
                        pane_put(w, 1 + yy, x0 + xx, 1, (theme_role)prev, " ");
                xx = k - 1;
                continue;
            }
            const char *gl = v->g->cap;
            if (cell->series > 0) {
                gl = v->g->seg[cell->series - 1];
                if (cell->eighths < 8)
                    gl = v->g->utf8 ? v->g->eighth[cell->eighths]
                                    : (cell->eighths >= 4 ? gl : "_");
            }
            pane_put(w, 1 + yy, x0 + xx, 1, (theme_role)role, gl);
            prev = role;
        }
    }
}

/* The plot row (0 = top) the capacity line is drawn on, -1: none. */
static int cap_row(const chart_cell *grid, int plot_w, int plot_h)
{
    for (int yy = 0; yy < plot_h; yy++)
        for (int xx = 0; xx < plot_w; xx++)
            if (grid[yy * plot_w + xx].cap)
                return yy;
    return -1;
}

/* Y labels (top, middle, 0; the capacity line's row carries the usable
 * capacity itself, and a band label next to it is left out) and the GPU
 * counts under the bars (the current count highlighted). */
static void draw_axes(const exp_view *v, WINDOW *w, int plot_h, double ymax, int nb, int nfit,
                      int bar_w, int cap_y)
{
    const exp_results *r = v->r;
    int x0 = 1 + AXIS_W;
    char lab[32];
    int mid = plot_h / 2;
#define NEAR_CAP(row) (cap_y >= 0 && (row) - cap_y <= 1 && cap_y - (row) <= 1)
    if (ymax > 0) {
        if (!NEAR_CAP(0))
            pane_putf(w, 1, 1, AXIS_W - 1, ROLE_LABEL, "%*s", AXIS_W - 1,
                      fmt_gb(ymax, lab, sizeof lab));
        if (!NEAR_CAP(mid))
            pane_putf(w, 1 + mid, 1, AXIS_W - 1, ROLE_LABEL, "%*s", AXIS_W - 1,
                      fmt_gb(ymax * (plot_h - mid) / plot_h, lab, sizeof lab));
    }
    if (!NEAR_CAP(plot_h - 1))
        pane_putf(w, plot_h, 1, AXIS_W - 1, ROLE_LABEL, "%*s", AXIS_W - 1, "0");
#undef NEAR_CAP
    if (cap_y >= 0)
        pane_putf(w, 1 + cap_y, 1, AXIS_W - 1, ROLE_CAP, "%*s", AXIS_W - 1,
                  fmt_gb(r->front_capacity, lab, sizeof lab));
    pane_putf(w, 1 + plot_h, 1, AXIS_W - 1, ROLE_LABEL, "%*s", AXIS_W - 1, "GPUs");
    for (int c = 0; c < nb && c < nfit; c++) {
        int bx = x0 + c * (bar_w + 1);
        int cur = r->front_counts[c] == v->ctl->s[CTL_GPUS].value;
        char n[16];
        snprintf(n, sizeof n, "%d", r->front_counts[c]);
        if ((int)strlen(n) > bar_w + 1)
            snprintf(n, sizeof n, "%dk", r->front_counts[c] / 1024);
        pane_put(w, 1 + plot_h, bx, bar_w + 1, cur ? ROLE_TITLE_FOCUS : ROLE_LABEL, n);
    }
}

/* The legend line at ly, its swatches in their colours. */
static void draw_legend(const exp_view *v, WINDOW *w, int ly, int width, int ncut)
{
    char leg[160];
    char cut[32] = "";
    if (ncut > 0)
        snprintf(cut, sizeof cut, "  %s taller", v->g->up);
    snprintf(leg, sizeof leg, "%s weights %s KV cache %s activations %s%s capacity%s",
             v->g->seg[0], v->g->seg[1], v->g->seg[2], v->g->cap, v->g->cap, cut);
    int lx = 1;
    pane_put(w, ly, lx, width, ROLE_LABEL, leg);
    if (ly >= getmaxy(w) - 1)
        return;
    int pos = 0;
    const char *parts[4] = {v->g->seg[0], v->g->seg[1], v->g->seg[2], v->g->cap};
    const char *names[4] = {" weights ", " KV cache ", " activations ", ""};
    static const theme_role R[4] = {ROLE_SEG1, ROLE_SEG2, ROLE_SEG3, ROLE_CAP};
    for (int i = 0; i < 4; i++) {
        pane_put(w, ly, lx + pos, 1, R[i], parts[i]);
        if (i == 3)
            pane_put(w, ly, lx + pos + 1, 1, R[i], parts[i]);
        pos += 1 + out_display_width(names[i]);
    }
}

/* A stable scale: twice the usable capacity of the GPU's own memory (or of
 * the VRAM slider when it is set above that).  Model, batch, dtype and
 * GPU-count steps then leave the axis and the capacity line where they
 * are and only the bars that changed are sent to the terminal; the VRAM
 * slider moves the line.  Bars taller than the scale are cut at the top of
 * the plot and marked. */
static double scale_top(const exp_view *v)
{
    const exp_results *r = v->r;
    if (!(r->front_capacity > 0))
        return 0;
    double own = v->gpu->memory_bytes * engine_scenario_usable_fraction(&r->sc);
    return 2 * (own > r->front_capacity ? own : r->front_capacity);
}

void pane_frontier_draw(const exp_view *v, WINDOW *w)
{
    if (v->view->front_view) {
        pane_pareto_draw(v, w);
        return;
    }
    theme_window(w);
    const exp_results *r = v->r;
    int h = getmaxy(w), ww = getmaxx(w);
    int inner_w = ww - 2, inner_h = h - 2;
    char title[96], cap[32];
    snprintf(title, sizeof title, "VRAM frontier: memory per GPU, capacity %s usable",
             fmt_gb(r->front_capacity, cap, sizeof cap));
    pane_frame(v, w, PANE_FRONTIER, title);
    int table = inner_w >= 60 ? TABLE_W + 2 : 0;
    if (table)
        draw_min_table(v, w, 1, ww - 1 - TABLE_W, inner_h);
    int plot_w = inner_w - table - AXIS_W;
    int plot_h = inner_h - 2; /* x labels and legend */
    if (!table && inner_h >= 12)
        plot_h = inner_h - 2 - (EXP_MEM_SIZES + 1);
    if (plot_w < 8 || plot_h < 2 || plot_w * plot_h > EXP_GRID_MAX)
        return;
    double vals[EXP_FRONT_COUNTS * 3];
    int nb = EXP_FRONT_COUNTS;
    for (int c = 0; c < nb; c++) {
        const engine_memory *m = &r->front_mem[c];
        vals[c * 3 + 0] = r->front_ok[c] ? m->weights_bytes : 0;
        vals[c * 3 + 1] = r->front_ok[c] ? m->kv_bytes : 0;
        vals[c * 3 + 2] = r->front_ok[c] ? m->activation_bytes : 0;
    }
    int bar_w = plot_w / EXP_FRONT_COUNTS - 1;
    bar_w = bar_w > 5 ? 5 : bar_w < 1 ? 1 : bar_w;
    double top = scale_top(v);
    chart_spec spec = {nb, 3, vals, top, r->front_capacity, bar_w, 1};
    double ymax = chart_raster(&spec, v->raster, plot_w, plot_h);
    int nfit = chart_bars_fit(plot_w, bar_w, 1);
    draw_axes(v, w, plot_h, ymax, nb, nfit, bar_w, cap_row(v->raster, plot_w, plot_h));
    draw_bars(v, w, v->raster, plot_w, plot_h);
    int ncut = draw_cut_marks(v, w, vals, nb, nfit, bar_w, top, ymax);
    draw_legend(v, w, 2 + plot_h, inner_w - table, ncut);
    if (!table && inner_h >= 12)
        draw_min_table(v, w, 3 + plot_h, 1, inner_h - plot_h - 2);
}
