/*
 * grid.c - the explorer's and the report's sweeps (see grid.h): each cell
 * one engine_evaluate or engine_plan_memory call on the base scenario with
 * the cell's model, link and GPU count put in.
 */
#include <string.h>

#include "grid.h"
#include "internal.h"

static int axis_len(int n)
{
    return n > 0 ? n : 1;
}

int engine_grid_cells(const engine_grid_axes *ax)
{
    return axis_len(ax->n_models) * axis_len(ax->n_links) * axis_len(ax->n_counts);
}

int engine_grid_index(const engine_grid_axes *ax, int mi, int li, int ci)
{
    return (mi * axis_len(ax->n_links) + li) * axis_len(ax->n_counts) + ci;
}

engine_scenario engine_grid_scenario(const engine_scenario *base, const engine_grid_axes *ax,
                                     int mi, int li, int ci)
{
    engine_scenario s = *base;
    if (ax->models && ax->n_models > 0)
        s.model = ax->models[mi];
    if (ax->links && ax->n_links > 0)
        s.intra = ax->links[li];
    if (ax->link_everywhere) {
        s.inter = s.intra;
        s.gpus_per_node = 0;
    }
    if (ax->counts && ax->n_counts > 0)
        s.gpus = ax->counts[ci];
    return s;
}

/* One evaluation; an unusable scenario gives a zeroed (invalid) result
 * and, for the first failure of a grid, the error. */
static int eval_cell(const engine_scenario *s, engine_plan p, engine_result *r, int *failed,
                     engine_error *err)
{
    engine_error e = {{0}};
    if (engine_evaluate(s, p, r, &e) == 0)
        return 0;
    memset(r, 0, sizeof *r);
    r->plan = p;
    r->regime = '-';
    if (!*failed && err)
        *err = e;
    *failed = 1;
    return -1;
}

/* The scenario of the cell at flat index i (engine_grid_index order). */
static engine_scenario scenario_at(const engine_scenario *base, const engine_grid_axes *ax, int i)
{
    int nc = axis_len(ax->n_counts), nl = axis_len(ax->n_links);
    return engine_grid_scenario(base, ax, i / nc / nl, i / nc % nl, i % nc);
}

int engine_grid_tp(const engine_scenario *base, const engine_grid_axes *ax, engine_result *out,
                   engine_error *err)
{
    int failed = 0;
    for (int i = 0; i < engine_grid_cells(ax); i++) {
        engine_scenario s = scenario_at(base, ax, i);
        eval_cell(&s, (engine_plan){s.gpus, 1, 1, 1}, &out[i], &failed, err);
    }
    return failed ? -1 : 0;
}

int engine_grid_splits(const engine_scenario *base, const int *counts, int n,
                       engine_grid_split *out, engine_error *err)
{
    int failed = 0;
    for (int c = 0; c < n; c++) {
        engine_grid_split *g = &out[c];
        int k = counts[c];
        engine_scenario s = *base;
        s.gpus = k;
        g->gpus = k;
        eval_cell(&s, (engine_plan){k, 1, 1, 1}, &g->tp, &failed, err);
        eval_cell(&s, (engine_plan){1, k, 1, 1}, &g->pp, &failed, err);
        memset(&g->hybrid, 0, sizeof g->hybrid);
        g->have_hybrid = 0;
        for (int tp = 2; tp <= k / 2; tp *= 2) {
            engine_result cur;
            if (engine_evaluate(&s, (engine_plan){tp, k / tp, 1, 1}, &cur, NULL) != 0 ||
                !cur.valid)
                continue;
            if (!g->have_hybrid || engine_result_compare(&cur, &g->hybrid, s.objective) < 0) {
                g->hybrid = cur;
                g->have_hybrid = 1;
            }
        }
    }
    return failed ? -1 : 0;
}

static void least_memory(const engine_scenario *s, engine_grid_mem *g)
{
    char reason[ENGINE_REASON_MAX];
    int n = s->gpus;
    memset(g, 0, sizeof *g);
    for (int tp = 1; tp <= n; tp++) {
        engine_memory cur;
        engine_plan p = {tp, n / tp, 1, 1};
        if (n % tp || !engine_plan_memory(s, p, &cur, reason, sizeof reason))
            continue;
        if (!g->ok || cur.per_gpu_bytes < g->mem.per_gpu_bytes) {
            g->ok = 1;
            g->plan = p;
            g->mem = cur;
        }
    }
}

int engine_grid_least_memory(const engine_scenario *base, const engine_grid_axes *ax,
                             engine_grid_mem *out, engine_error *err)
{
    int failed = 0;
    for (int i = 0; i < engine_grid_cells(ax); i++) {
        engine_scenario s = scenario_at(base, ax, i);
        engine_error e = {{0}};
        if (engine_scenario_check(&s, &e) == 0) {
            least_memory(&s, &out[i]);
            continue;
        }
        memset(&out[i], 0, sizeof out[i]);
        if (!failed && err)
            *err = e;
        failed = 1;
    }
    return failed ? -1 : 0;
}

static int is_pow2(int n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

/* The power-of-two answer bounds the any-count one from above, so only
 * the other counts below it are tried. */
static int min_gpus_one(const engine_scenario *s, int max_gpus, engine_grid_count_mode mode)
{
    if (engine_scenario_check(s, NULL) != 0)
        return 0;
    int p2 = engine_min_gpus(s, max_gpus);
    if (mode == ENGINE_GRID_POW2 || p2 == 1)
        return p2;
    int limit = p2 > 0 ? p2 - 1 : max_gpus;
    engine_scenario t = *s;
    for (int n = 3; n <= limit; n++) {
        if (is_pow2(n))
            continue;
        t.gpus = n;
        if (rank_some_plan_fits(&t))
            return n;
    }
    return p2;
}

void engine_grid_min_gpus(const engine_scenario *base, const engine_model *const *models,
                          int n_models, const double *vram_bytes, int n_sizes, int max_gpus,
                          engine_grid_count_mode mode, int *out)
{
    for (int mi = 0; mi < axis_len(n_models); mi++)
        for (int vi = 0; vi < n_sizes; vi++) {
            engine_scenario s = *base;
            if (models && n_models > 0)
                s.model = models[mi];
            s.gpus = 1;
            s.vram_bytes = vram_bytes[vi];
            out[mi * n_sizes + vi] = min_gpus_one(&s, max_gpus, mode);
        }
}
