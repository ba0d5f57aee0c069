/*
 * pane_frontier.c - the VRAM frontier: memory per GPU against GPU count
 * (the least-memory TP x PP split at each power of two), weights, KV cache
 * and activations stacked, with the usable capacity set by the VRAM slider
 * as a line; beside it the smallest GPU count that fits for common memory
 * sizes.  The bars are rasterised by chart.c.
 */
#include "explorer_int.h"

#include <stdio.h>
#include <string.h>

#include "chart.h"

#define TABLE_W 19
#define AXIS_W 8

static void draw_min_table(explorer *x, WINDOW *w, int y0, int x0, int rows)
{
    const exp_results *r = &x->r;
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

void pane_frontier_draw(explorer *x, WINDOW *w)
{
    theme_window(w);
    chart_cell *grid = x->grid;
    const exp_results *r = &x->r;
    int h = getmaxy(w), ww = getmaxx(w);
    int inner_w = ww - 2, inner_h = h - 2;
    char title[96], cap[32];
    snprintf(title, sizeof title, "VRAM frontier: memory per GPU, capacity %s usable",
             fmt_gb(r->front_capacity, cap, sizeof cap));
    pane_frame(x, w, PANE_FRONTIER, title);
    int table = inner_w >= 60 ? TABLE_W + 2 : 0;
    if (table)
        draw_min_table(x, w, 1, ww - 1 - TABLE_W, inner_h);
    int plot_w = inner_w - table - AXIS_W;
    int plot_h = inner_h - 2; /* x labels and legend */
    if (!table && inner_h >= 12)
        plot_h = inner_h - 2 - (EXP_MEM_SIZES + 1);
    if (plot_w < 8 || plot_h < 2 || plot_w * plot_h > EXP_GRID_MAX)
        return;
    double vals[EXP_FRONT_COUNTS * 3];
    int nb = 0;
    for (int c = 0; c < EXP_FRONT_COUNTS; c++) {
        const engine_memory *m = &r->front_mem[c];
        vals[nb * 3 + 0] = r->front_ok[c] ? m->weights_bytes : 0;
        vals[nb * 3 + 1] = r->front_ok[c] ? m->kv_bytes : 0;
        vals[nb * 3 + 2] = r->front_ok[c] ? m->activation_bytes : 0;
        nb++;
    }
    int bar_w = plot_w / EXP_FRONT_COUNTS - 1;
    if (bar_w > 5)
        bar_w = 5;
    if (bar_w < 1)
        bar_w = 1;
    /* Keep the capacity line in view: bars taller than twice the capacity
     * are cut at the top of the plot and marked. */
    double tallest = 0, top = 0;
    for (int c = 0; c < nb; c++) {
        double t = vals[c * 3] + vals[c * 3 + 1] + vals[c * 3 + 2];
        if (t > tallest)
            tallest = t;
    }
    if (r->front_capacity > 0 && tallest > 2 * r->front_capacity)
        top = 2 * r->front_capacity;
    chart_spec spec = {nb, 3, vals, top, r->front_capacity, bar_w, 1};
    double ymax = chart_raster(&spec, grid, plot_w, plot_h);
    int x0 = 1 + AXIS_W;
    /* Y axis: top and middle values. */
    char lab[32];
    if (ymax > 0) {
        pane_putf(w, 1, 1, AXIS_W - 1, ROLE_LABEL, "%*s", AXIS_W - 1, fmt_gb(ymax, lab, sizeof lab));
        pane_putf(w, 1 + plot_h / 2, 1, AXIS_W - 1, ROLE_LABEL, "%*s", AXIS_W - 1,
                  fmt_gb(ymax * (plot_h - plot_h / 2) / plot_h, lab, sizeof lab));
    }
    pane_putf(w, plot_h, 1, AXIS_W - 1, ROLE_LABEL, "%*s", AXIS_W - 1, "0");
    static const theme_role SEG[3] = {ROLE_SEG1, ROLE_SEG2, ROLE_SEG3};
    for (int yy = 0; yy < plot_h; yy++)
        for (int xx = 0; xx < plot_w; xx++) {
            const chart_cell *cell = &grid[yy * plot_w + xx];
            if (cell->series == 0) {
                if (cell->cap)
                    pane_put(w, 1 + yy, x0 + xx, 1, ROLE_CAP, x->g->cap);
                continue;
            }
            int s = cell->series - 1;
            const char *gl = x->g->seg[s];
            if (cell->eighths < 8)
                gl = x->g->utf8 ? x->g->eighth[cell->eighths] : (cell->eighths >= 4 ? gl : "_");
            pane_put(w, 1 + yy, x0 + xx, 1, cell->cap ? ROLE_CAP : SEG[s], gl);
        }
    int nfit = chart_bars_fit(plot_w, bar_w, 1);
    for (int c = 0; c < nb && c < nfit && top > 0; c++)
        if (vals[c * 3] + vals[c * 3 + 1] + vals[c * 3 + 2] > ymax)
            for (int k = 0; k < bar_w; k++)
                pane_put(w, 1, x0 + c * (bar_w + 1) + k, 1, ROLE_CAP, x->g->up);
    /* X labels: GPU counts under the bars (the current count highlighted). */
    pane_putf(w, 1 + plot_h, 1, AXIS_W - 1, ROLE_LABEL, "%*s", AXIS_W - 1, "GPUs");
    for (int c = 0; c < nb && c < nfit; c++) {
        int bx = x0 + c * (bar_w + 1);
        int cur = r->front_counts[c] == x->ctl[CTL_GPUS].value;
        char n[16];
        snprintf(n, sizeof n, "%d", r->front_counts[c]);
        if ((int)strlen(n) > bar_w + 1)
            snprintf(n, sizeof n, "%dk", r->front_counts[c] / 1024);
        pane_put(w, 1 + plot_h, bx, bar_w + 1, cur ? ROLE_TITLE_FOCUS : ROLE_LABEL, n);
    }
    char leg[160];
    char cut[32] = "";
    if (top > 0)
        snprintf(cut, sizeof cut, "  %s taller", x->g->up);
    snprintf(leg, sizeof leg, "%s weights %s KV cache %s activations %s%s capacity%s",
             x->g->seg[0], x->g->seg[1], x->g->seg[2], x->g->cap, x->g->cap, cut);
    int ly = 2 + plot_h;
    int lx = 1;
    pane_put(w, ly, lx, inner_w - table, ROLE_LABEL, leg);
    /* Colour the legend swatches. */
    if (ly < h - 1) {
        int pos = 0;
        const char *parts[4] = {x->g->seg[0], x->g->seg[1], x->g->seg[2], x->g->cap};
        const char *names[4] = {" weights ", " KV cache ", " activations ", ""};
        static const theme_role R[4] = {ROLE_SEG1, ROLE_SEG2, ROLE_SEG3, ROLE_CAP};
        for (int i = 0; i < 4; i++) {
            pane_put(w, ly, lx + pos, 1, R[i], parts[i]);
            if (i == 3)
                pane_put(w, ly, lx + pos + 1, 1, R[i], parts[i]);
            pos += 1 + fmt_width(names[i]);
        }
    }
    if (!table && inner_h >= 12)
        draw_min_table(x, w, 3 + plot_h, 1, inner_h - plot_h - 2);
}
