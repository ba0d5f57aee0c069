/*
 * plots.c - line charts and a heatmap as SVG, and the report's six figures
 * built from report_tables (tp_scaling_efficiency, regime_heatmap,
 * tp_vs_pp, pipeline_bubble, cost_efficiency, vram_frontier).  Layout is
 * fixed (720 x 460 px, legend on the right); axes are linear, log2 for GPU
 * and micro-batch counts, or log10 for values spanning decades.
 */
#include "plots.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "svg.h"

#define W 760.0
#define H 460.0
#define ML 80.0  /* margins: left, right (legend), top, bottom */
#define MR 200.0
#define MT 50.0
#define MB 60.0

/* Series: the Okabe-Ito colour-blind safe set (then two greys). */
static const char *const COLORS[] = {"#0072b2", "#e69f00", "#009e73", "#d55e00", "#cc79a7",
                                     "#56b4e9", "#f0e442", "#000000", "#999999", "#555555"};
#define N_COLORS ((int)(sizeof COLORS / sizeof COLORS[0]))

typedef struct axis {
    double lo, hi; /* in transformed units */
    int log;       /* 0 linear, 2 log2, 10 log10 */
} axis;

static double tr(const axis *a, double v)
{
    if (a->log == 2)
        return v > 0 ? log2(v) : NAN;
    if (a->log == 10)
        return v > 0 ? log10(v) : NAN;
    return v;
}

static double untr(const axis *a, double t)
{
    if (a->log == 2)
        return exp2(t);
    if (a->log == 10)
        return pow(10, t);
    return t;
}

static void fmt_tick(double v, char *buf, size_t len)
{
    double a = fabs(v);
    if (a == 0)
        snprintf(buf, len, "0");
    else if (a >= 1e5 || a < 1e-3)
        snprintf(buf, len, "%.0e", v);
    else if (a >= 100 || fabs(v - round(v)) < 1e-9)
        snprintf(buf, len, "%.0f", v);
    else if (a >= 1)
        snprintf(buf, len, "%.1f", v);
    else
        snprintf(buf, len, "%.3g", v);
}

/* Range of the finite values, padded; log axes snap to whole powers. */
static void axis_fit(axis *a, double lo, double hi, int from_zero)
{
    if (!(lo <= hi)) {
        lo = 0;
        hi = 1;
    }
    if (a->log) {
        a->lo = floor(tr(a, lo));
        a->hi = ceil(tr(a, hi));
        if (a->hi <= a->lo)
            a->hi = a->lo + 1;
        return;
    }
    if (from_zero && lo > 0)
        lo = 0;
    if (hi <= lo)
        hi = lo + 1;
    double pad = (hi - lo) * 0.05;
    a->lo = from_zero && lo == 0 ? 0 : lo - pad;
    a->hi = hi + pad;
}

/* Tick values in data units (at most 12). */
static int axis_ticks(const axis *a, double *ticks)
{
    int n = 0;
    if (a->log) {
        int step = (int)ceil((a->hi - a->lo) / 10.0);
        if (step < 1)
            step = 1;
        for (double t = a->lo; t <= a->hi + 1e-9 && n < 12; t += step)
            ticks[n++] = untr(a, t);
        return n;
    }
    double span = a->hi - a->lo, raw = span / 6, mag = pow(10, floor(log10(raw)));
    double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag
                                                                                     : 10 * mag;
    for (double t = ceil(a->lo / step) * step; t <= a->hi + 1e-9 && n < 12; t += step)
        ticks[n++] = fabs(t) < step * 1e-9 ? 0 : t;
    return n;
}

static double px_x(const axis *a, double v)
{
    return ML + (tr(a, v) - a->lo) / (a->hi - a->lo) * (W - ML - MR);
}

static double px_y(const axis *a, double v)
{
    return H - MB - (tr(a, v) - a->lo) / (a->hi - a->lo) * (H - MT - MB);
}

int plot_chart_write(const char *path, const plot_chart *c)
{
    axis ax = {0, 1, c->xlog}, ay = {0, 1, c->ylog};
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (int i = 0; i < c->n_series; i++)
        for (int k = 0; k < c->series[i].n; k++) {
            double x = c->series[i].x[k], y = c->series[i].y[k];
            if (!isfinite(x) || !isfinite(y) || (c->ylog && y <= 0) || (c->xlog && x <= 0))
                continue;
            xlo = fmin(xlo, x);
            xhi = fmax(xhi, x);
            ylo = fmin(ylo, y);
            yhi = fmax(yhi, y);
        }
    for (int i = 0; i < c->n_hlines; i++) {
        ylo = fmin(ylo, c->hlines[i].y);
        yhi = fmax(yhi, c->hlines[i].y);
    }
    axis_fit(&ax, xlo, xhi, 0);
    axis_fit(&ay, ylo, yhi, !c->ylog);

    svg s;
    if (svg_open(&s, path, W, H, c->title) != 0)
        return -1;
    svg_text(&s, W / 2, 28, 16, "middle", 0, "#000000", c->title);
    double ticks[12];
    char buf[32];
    int nt = axis_ticks(&ay, ticks);
    for (int i = 0; i < nt; i++) {
        double y = px_y(&ay, ticks[i]);
        svg_line(&s, ML, y, W - MR, y, "#dddddd", 1, NULL);
        fmt_tick(ticks[i], buf, sizeof buf);
        svg_text(&s, ML - 6, y + 4, 11, "end", 0, "#333333", buf);
    }
    nt = axis_ticks(&ax, ticks);
    for (int i = 0; i < nt; i++) {
        double x = px_x(&ax, ticks[i]);
        svg_line(&s, x, MT, x, H - MB, "#eeeeee", 1, NULL);
        fmt_tick(ticks[i], buf, sizeof buf);
        svg_text(&s, x, H - MB + 16, 11, "middle", 0, "#333333", buf);
    }
    svg_line(&s, ML, H - MB, W - MR, H - MB, "#000000", 1.2, NULL);
    svg_line(&s, ML, MT, ML, H - MB, "#000000", 1.2, NULL);
    svg_text(&s, (ML + W - MR) / 2, H - 18, 13, "middle", 0, "#000000", c->xlabel);
    svg_text(&s, 20, (MT + H - MB) / 2, 13, "middle", -90, "#000000", c->ylabel);

    for (int i = 0; i < c->n_hlines; i++) {
        double y = px_y(&ay, c->hlines[i].y);
        svg_group_begin(&s, c->hlines[i].name);
        svg_line(&s, ML, y, W - MR, y, "#555555", 1, "6,4");
        svg_text(&s, ML + 4, y - 4, 10, "start", 0, "#555555", c->hlines[i].name);
        svg_group_end(&s);
    }
    for (int i = 0; i < c->n_series; i++) {
        const plot_series *ps = &c->series[i];
        const char *col = COLORS[i % N_COLORS];
        double px[32], py[32];
        for (int k = 0; k < ps->n && k < 32; k++) {
            int ok = isfinite(ps->x[k]) && isfinite(ps->y[k]) && !(c->ylog && ps->y[k] <= 0);
            px[k] = ok ? px_x(&ax, ps->x[k]) : NAN;
            py[k] = ok ? px_y(&ay, ps->y[k]) : NAN;
        }
        svg_group_begin(&s, ps->name);
        svg_polyline(&s, px, py, ps->n, col, 2, i >= N_COLORS ? "5,3" : NULL);
        for (int k = 0; k < ps->n; k++)
            if (isfinite(px[k]) && isfinite(py[k]))
                svg_circle(&s, px[k], py[k], 3, col);
        /* legend entry */
        double ly = MT + 10 + i * 20;
        svg_line(&s, W - MR + 15, ly, W - MR + 40, ly, col, 2, NULL);
        svg_text(&s, W - MR + 46, ly + 4, 12, "start", 0, "#000000", ps->name);
        svg_group_end(&s);
    }
    return svg_close(&s);
}

unsigned plot_heat_rgb(double v)
{
    if (!isfinite(v) || v <= 0)
        return 0xeeeeee;
    double t = log10(v) / 2; /* +-2 decades saturate */
    t = t > 1 ? 1 : t < -1 ? -1 : t;
    /* white at 1, towards #005faf (compute-bound) or #d75f00 (comm-bound):
     * the explorer's 256-colour heat ramp ends (tui/term/theme.c) */
    static const int C_END[3] = {0x00, 0x5f, 0xaf}, M_END[3] = {0xd7, 0x5f, 0x00};
    const int *end = t >= 0 ? C_END : M_END;
    double a = t >= 0 ? t : -t;
    unsigned rgb = 0;
    for (int k = 0; k < 3; k++)
        rgb = rgb << 8 | (unsigned)(255 + (end[k] - 255) * a + 0.5);
    return rgb;
}

/* The SVG colour of a ratio: plot_heat_rgb as "#rrggbb". */
static void heat_color(double v, char *buf, size_t len)
{
    snprintf(buf, len, "#%06x", plot_heat_rgb(v));
}

int plot_heatmap_write(const char *path, const plot_heatmap *h)
{
    svg s;
    double hh = MT + MB + 40 + 34.0 * h->rows;
    if (svg_open(&s, path, W, hh, h->title) != 0)
        return -1;
    svg_text(&s, W / 2, 28, 16, "middle", 0, "#000000", h->title);
    double left = 170, cw = h->cols ? (W - left - 40) / h->cols : 1, ch = 34;
    double top = MT + 20;
    char col[16];
    for (int j = 0; j < h->cols; j++)
        svg_text(&s, left + (j + 0.5) * cw, top - 8, 12, "middle", 0, "#000000", h->col_names[j]);
    for (int i = 0; i < h->rows; i++) {
        svg_group_begin(&s, h->row_names[i]);
        svg_text(&s, left - 8, top + (i + 0.6) * ch, 12, "end", 0, "#000000", h->row_names[i]);
        for (int j = 0; j < h->cols; j++) {
            heat_color(h->value[i][j], col, sizeof col);
            svg_rect(&s, left + j * cw, top + i * ch, cw - 2, ch - 2, col, "#ffffff");
            svg_text(&s, left + (j + 0.5) * cw, top + (i + 0.6) * ch, 12, "middle", 0, "#000000",
                     h->label[i][j]);
        }
        svg_group_end(&s);
    }
    double by = top + h->rows * ch + 22;
    svg_text(&s, left + h->cols * cw / 2, by, 13, "middle", 0, "#000000", h->xlabel);
    svg_text(&s, 20, top + h->rows * ch / 2, 13, "middle", -90, "#000000", h->ylabel);
    heat_color(10, col, sizeof col);
    svg_rect(&s, left, by + 12, 14, 14, col, "#999999");
    svg_text(&s, left + 20, by + 24, 12, "start", 0, "#000000", h->legend[0]);
    heat_color(0.1, col, sizeof col);
    svg_rect(&s, left + 300, by + 12, 14, 14, col, "#999999");
    svg_text(&s, left + 320, by + 24, 12, "start", 0, "#000000", h->legend[1]);
    return svg_close(&s);
}

/* --- the report's figures ---------------------------------------------- */

static void series_init(plot_series *ps, const char *name)
{
    memset(ps, 0, sizeof *ps);
    snprintf(ps->name, sizeof ps->name, "%s", name);
}

static void series_add(plot_series *ps, double x, double y)
{
    if (ps->n < 32) {
        ps->x[ps->n] = x;
        ps->y[ps->n] = y;
        ps->n++;
    }
}

/* Efficiency in percent of a result that is valid and fits; NaN else. */
static double eff_pct(const engine_result *r)
{
    return r->valid && r->fits ? 100 * r->efficiency : NAN;
}

static int write_one(const char *dir, const char *file, const plot_chart *c,
                     const plot_heatmap *h, char *failed, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int rc = c ? plot_chart_write(path, c) : plot_heatmap_write(path, h);
    if (rc != 0)
        snprintf(failed, len, "%s", path);
    return rc;
}

/* The figures of the report: each builder fills a zeroed chart or heatmap
 * from the report's inputs and tables. */
typedef struct fig_ctx {
    const report_inputs *in;
    const report_tables *t;
    const engine_model *focus;
    const char *gpu;
} fig_ctx;

/* 1. TP scaling efficiency against GPU count, one series per link. */
static void fig_tp_scaling(const fig_ctx *f, plot_chart *cp)
{
    const report_inputs *in = f->in;
    snprintf(cp->title, sizeof cp->title, "TP scaling efficiency: %s on %s",
             fmt_model_name(f->focus), f->gpu);
    snprintf(cp->xlabel, sizeof cp->xlabel, "GPUs (tensor-parallel degree)");
    snprintf(cp->ylabel, sizeof cp->ylabel, "efficiency (%%)");
    cp->xlog = 2;
    for (int li = 0; li < in->n_links && cp->n_series < PLOT_MAX_SERIES; li++) {
        plot_series *ps = &cp->series[cp->n_series++];
        series_init(ps, in->links[li]->name);
        for (int ci = 0; ci < in->n_counts; ci++)
            series_add(ps, in->counts[ci], eff_pct(&f->t->tp_scaling[li][ci]));
    }
}

/* 2. Regime heatmap: compute/communication ratio at TP = 8. */
static void fig_regime(const fig_ctx *f, plot_heatmap *hp)
{
    const report_inputs *in = f->in;
    snprintf(hp->title, sizeof hp->title, "Compute/communication ratio at TP=8 on %s", f->gpu);
    snprintf(hp->xlabel, sizeof hp->xlabel, "interconnect");
    snprintf(hp->ylabel, sizeof hp->ylabel, "model");
    snprintf(hp->legend[0], sizeof hp->legend[0], "C: compute-bound (ratio >= 1)");
    snprintf(hp->legend[1], sizeof hp->legend[1], "M: communication-bound (ratio < 1)");
    hp->rows = in->n_models < PLOT_MAX_ROWS ? in->n_models : PLOT_MAX_ROWS;
    hp->cols = in->n_links < PLOT_MAX_COLS ? in->n_links : PLOT_MAX_COLS;
    for (int j = 0; j < hp->cols; j++)
        snprintf(hp->col_names[j], sizeof hp->col_names[j], "%s", in->links[j]->name);
    for (int i = 0; i < hp->rows; i++) {
        snprintf(hp->row_names[i], sizeof hp->row_names[i], "%s", in->models[i]->name);
        for (int j = 0; j < hp->cols; j++) {
            const engine_result *r = &f->t->tp8[i][j];
            if (r->valid && r->regime != '-') {
                hp->value[i][j] = r->compute_comm_ratio;
                snprintf(hp->label[i][j], sizeof hp->label[i][j], "%.2f %c", r->compute_comm_ratio,
                         r->regime);
            } else {
                hp->value[i][j] = NAN;
                snprintf(hp->label[i][j], sizeof hp->label[i][j], "n/a");
            }
        }
    }
}

/* 3. TP vs PP vs hybrid efficiency against GPU count. */
static void fig_tp_vs_pp(const fig_ctx *f, plot_chart *cp)
{
    const report_inputs *in = f->in;
    snprintf(cp->title, sizeof cp->title, "TP vs PP vs hybrid: %s on %s, %s",
             fmt_model_name(f->focus), f->gpu, in->ref_link->name);
    snprintf(cp->xlabel, sizeof cp->xlabel, "GPUs");
    snprintf(cp->ylabel, sizeof cp->ylabel, "efficiency (%%)");
    cp->xlog = 2;
    cp->n_series = 3;
    series_init(&cp->series[0], "TP");
    series_init(&cp->series[1], "PP (m=4)");
    series_init(&cp->series[2], "TP x PP=2 (m=4)");
    int ref = 0;
    for (int li = 0; li < in->n_links; li++)
        if (in->links[li] == in->ref_link)
            ref = li;
    for (int ci = 0; ci < in->n_counts; ci++) {
        double n = in->counts[ci];
        int ref_ok = in->links[ref] == in->ref_link;
        series_add(&cp->series[0], n, ref_ok ? eff_pct(&f->t->tp_scaling[ref][ci]) : NAN);
        series_add(&cp->series[1], n, eff_pct(&f->t->pp_scaling[ci]));
        series_add(&cp->series[2], n, eff_pct(&f->t->hybrid_scaling[ci]));
    }
}

/* 4. Pipeline bubble against micro-batches. */
static void fig_bubble(const fig_ctx *f, plot_chart *cp)
{
    const report_tables *t = f->t;
    snprintf(cp->title, sizeof cp->title, "Pipeline bubble (%s): (pp-1)/(m+pp-1)",
             engine_schedule_name(f->in->base.schedule));
    snprintf(cp->xlabel, sizeof cp->xlabel, "micro-batches m");
    snprintf(cp->ylabel, sizeof cp->ylabel, "bubble (%% of prefill)");
    cp->xlog = 2;
    for (int i = 0; i < REPORT_N_PP; i++) {
        plot_series *ps = &cp->series[cp->n_series++];
        char name[32];
        snprintf(name, sizeof name, "pp=%d", t->bubble_pp[i]);
        series_init(ps, name);
        for (int j = 0; j < REPORT_N_M; j++)
            series_add(ps, t->bubble_m[j], 100 * t->bubble[i][j]);
    }
}

/* 5. Cost per 1M tokens against GPU count, one series per link. */
static void fig_cost(const fig_ctx *f, plot_chart *cp)
{
    const report_inputs *in = f->in;
    snprintf(cp->title, sizeof cp->title, "Cheapest plan by GPU count: %s on %s",
             fmt_model_name(f->focus), f->gpu);
    snprintf(cp->xlabel, sizeof cp->xlabel, "GPUs");
    snprintf(cp->ylabel, sizeof cp->ylabel, "cost (USD per 1M tokens)");
    cp->xlog = 2;
    cp->ylog = 10;
    for (int li = 0; li < in->n_links && cp->n_series < PLOT_MAX_SERIES; li++) {
        plot_series *ps = &cp->series[cp->n_series++];
        series_init(ps, in->links[li]->name);
        for (int ci = 0; ci < in->n_counts; ci++) {
            const engine_result *r = &f->t->cost_by_count[li][ci];
            series_add(ps, in->counts[ci], r->cost_per_mtok_usd > 0 ? r->cost_per_mtok_usd : NAN);
        }
    }
}

/* 6. VRAM frontier: least memory per GPU against model size. */
static void fig_vram(const fig_ctx *f, plot_chart *cp)
{
    const report_inputs *in = f->in;
    snprintf(cp->title, sizeof cp->title, "VRAM frontier: memory per GPU by model size");
    snprintf(cp->xlabel, sizeof cp->xlabel, "model parameters (billions)");
    snprintf(cp->ylabel, sizeof cp->ylabel, "memory per GPU (GB)");
    cp->ylog = 10;
    cp->xlog = 10;
    int order[REPORT_MAX_MODELS];
    for (int i = 0; i < in->n_models; i++)
        order[i] = i;
    for (int i = 1; i < in->n_models; i++) /* by size, for a left-to-right line */
        for (int k = i; k > 0 && engine_model_params(in->models[order[k - 1]]) >
                                     engine_model_params(in->models[order[k]]);
             k--) {
            int tmp = order[k];
            order[k] = order[k - 1];
            order[k - 1] = tmp;
        }
    for (int ci = 0; ci < in->n_counts && cp->n_series < PLOT_MAX_SERIES; ci++) {
        plot_series *ps = &cp->series[cp->n_series++];
        char name[32];
        snprintf(name, sizeof name, "%d GPU%s", in->counts[ci], in->counts[ci] == 1 ? "" : "s");
        series_init(ps, name);
        for (int i = 0; i < in->n_models; i++) {
            double v = f->t->vram_frontier[order[i]][ci];
            series_add(ps, engine_model_params(in->models[order[i]]) / 1e9, v > 0 ? v / 1e9 : NAN);
        }
    }
    double usable = engine_scenario_usable_fraction(&in->base);
    for (int vi = 0; vi < REPORT_N_VRAM && cp->n_hlines < PLOT_MAX_HLINES; vi++) {
        plot_hline *hl = &cp->hlines[cp->n_hlines++];
        snprintf(hl->name, sizeof hl->name, "%.0f GB GPU (usable %.0f%%)", in->vram_bytes[vi] / 1e9,
                 100 * usable);
        hl->y = in->vram_bytes[vi] * usable / 1e9;
    }
}

/* 7. The Pareto frontier of the focus model on REPORT_PARETO_GPUS GPUs:
 * output tokens/s per GPU against tokens/s per user, the frontier first,
 * then each plan that has a frontier point as its own batch sweep (batch 1
 * on the right: the most per user). */
static void fig_pareto(const fig_ctx *f, plot_chart *cp)
{
    const report_tables *t = f->t;
    snprintf(cp->title, sizeof cp->title, "Pareto frontier: %s on %d x %s over %s",
             fmt_model_name(f->focus), REPORT_PARETO_GPUS, f->gpu, f->in->ref_link->name);
    snprintf(cp->xlabel, sizeof cp->xlabel, "tokens/s per user (1 / ITL)");
    snprintf(cp->ylabel, sizeof cp->ylabel, "output tokens/s per GPU");
    cp->ylog = 10;
    plot_series *front = &cp->series[cp->n_series++];
    series_init(front, t->n_pareto ? "Pareto frontier" : "Pareto frontier (no plan fits)");
    for (int i = t->n_pareto - 1; i >= 0; i--) /* per user ascending: left to right */
        if (t->pareto[i].frontier)
            series_add(front, t->pareto[i].tokens_per_s_per_user,
                       t->pareto[i].tokens_per_s_per_gpu);
    for (int i = 0; i < t->n_pareto && cp->n_series < PLOT_MAX_SERIES; i++) {
        const engine_pareto_point *p = &t->pareto[i];
        int seen = 0;
        for (int k = 0; k < i && !seen; k++) /* one series per plan on the frontier */
            seen = t->pareto[k].frontier && !memcmp(&t->pareto[k].plan, &p->plan, sizeof p->plan);
        if (!p->frontier || seen)
            continue;
        plot_series *ps = &cp->series[cp->n_series++];
        char name[64];
        fmt_plan(p->plan, "x", name, sizeof name);
        series_init(ps, name);
        for (int k = 0; k < t->n_pareto; k++) /* sorted by per-user rate: one sweep */
            if (!memcmp(&t->pareto[k].plan, &p->plan, sizeof p->plan))
                series_add(ps, t->pareto[k].tokens_per_s_per_user, t->pareto[k].tokens_per_s_per_gpu);
    }
}

int plots_write_report(const char *dir, const report_inputs *in, const report_tables *t,
                       char *failed, size_t len)
{
    static const struct {
        const char *file;
        void (*chart)(const fig_ctx *, plot_chart *);
        void (*heatmap)(const fig_ctx *, plot_heatmap *);
    } FIGS[] = {
        {"tp_scaling_efficiency.svg", fig_tp_scaling, NULL},
        {"regime_heatmap.svg", NULL, fig_regime},
        {"tp_vs_pp.svg", fig_tp_vs_pp, NULL},
        {"pipeline_bubble.svg", fig_bubble, NULL},
        {"cost_efficiency.svg", fig_cost, NULL},
        {"vram_frontier.svg", fig_vram, NULL},
        {"pareto_frontier.svg", fig_pareto, NULL},
    };
    struct figs {
        plot_chart c;
        plot_heatmap h;
    } *fg = malloc(sizeof *fg);
    if (!fg) {
        snprintf(failed, len, "%s (out of memory)", dir);
        return -1;
    }
    const engine_gpu *g = in->base.gpu;
    fig_ctx f = {in, t, in->models[in->focus], fmt_gpu_name(g)};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof FIGS / sizeof FIGS[0]; i++) {
        memset(fg, 0, sizeof *fg);
        if (FIGS[i].chart)
            FIGS[i].chart(&f, &fg->c);
        else
            FIGS[i].heatmap(&f, &fg->h);
        rc = write_one(dir, FIGS[i].file, FIGS[i].chart ? &fg->c : NULL,
                       FIGS[i].heatmap ? &fg->h : NULL, failed, len);
    }
    free(fg);
    return rc ? -1 : 0;
}
