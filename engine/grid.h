/*
 * grid.h - the sweeps behind the explorer's efficiency table, regime
 * heatmap and VRAM frontier, and the report's copies of them: TP over a
 * grid of models x links x GPU counts, TP vs PP vs the best hybrid split,
 * the least memory per GPU at each count, and the fewest GPUs that fit
 * for each memory size.
 *
 * Pure C: no I/O, no allocation, no globals.  Every array is the caller's;
 * each cell is one engine call (engine_evaluate or engine_plan_memory) on
 * the base scenario with the grid's axes substituted, so a cell always
 * equals the direct call for that plan.
 */
#ifndef SHARDSCOPE_ENGINE_GRID_H
#define SHARDSCOPE_ENGINE_GRID_H

#include "engine.h"

/* The axes of a grid.  A missing axis (NULL or 0 entries) is the base
 * scenario's own value taken once: its model, its intra link, its GPU
 * count.  Cells are laid out row-major, models outermost, counts
 * innermost: see engine_grid_index. */
typedef struct engine_grid_axes {
    const engine_model *const *models;
    int n_models;
    const engine_link *const *links;
    int n_links;
    const int *counts;
    int n_counts;
    /* 1: the link is used everywhere (inter = intra = link, no node
     * boundary: gpus_per_node = 0); 0: only intra is replaced, the base's
     * inter link and GPUs per node stay. */
    int link_everywhere;
} engine_grid_axes;

/* Number of cells of a grid (the product of the axes, 1 for a missing one). */
int engine_grid_cells(const engine_grid_axes *ax);

/* Index of cell (model mi, link li, count ci) in the grid's arrays. */
int engine_grid_index(const engine_grid_axes *ax, int mi, int li, int ci);

/* The scenario of cell (mi, li, ci): base with the axes' values put in. */
engine_scenario engine_grid_scenario(const engine_scenario *base, const engine_grid_axes *ax,
                                     int mi, int li, int ci);

/* Tensor parallelism over every GPU of each cell: plan {n, 1, 1, 1} for
 * the cell's count n.  Fills engine_grid_cells(ax) results in out (tails
 * not computed); a cell whose scenario is unusable is zeroed (valid = 0)
 * with its plan set.  Every cell is filled; returns 0, or -1 with err set
 * from the first unusable scenario. */
int engine_grid_tp(const engine_scenario *base, const engine_grid_axes *ax, engine_result *out,
                   engine_error *err);

/* TP vs PP vs the best hybrid in the base scenario's cluster. */
typedef struct engine_grid_split {
    int gpus;
    engine_result tp;     /* {n, 1, 1, 1} */
    engine_result pp;     /* {1, n, 1, 1} */
    int have_hybrid;      /* 1: some tp x pp with tp, pp >= 2 is valid */
    engine_result hybrid; /* the best of them (engine_result_compare under the
                           * base's objective; tp a power of two) */
} engine_grid_split;

/* One row per count in counts[0..n).  Returns 0, or -1 with err set from
 * the first unusable scenario (every row is still filled). */
int engine_grid_splits(const engine_scenario *base, const int *counts, int n,
                       engine_grid_split *out, engine_error *err);

/* The least memory per GPU over the plans with one replica (tp x pp = n,
 * dp = ep = 1) at the cell's count n; ties go to the smaller tp. */
typedef struct engine_grid_mem {
    int ok;             /* 0: no valid plan at this count */
    engine_plan plan;
    engine_memory mem;
} engine_grid_mem;

/* Fills engine_grid_cells(ax) cells (links: the base's unless given).
 * Returns 0, or -1 with err set from the first unusable scenario. */
int engine_grid_least_memory(const engine_scenario *base, const engine_grid_axes *ax,
                             engine_grid_mem *out, engine_error *err);

/* Which GPU counts the min-GPUs search may answer. */
typedef enum engine_grid_count_mode {
    ENGINE_GRID_ANY_COUNT = 0, /* 1, 2, 3, ... max_gpus (the explorer) */
    ENGINE_GRID_POW2 = 1       /* 1, 2, 4, ... up to max_gpus (seed 000's table) */
} engine_grid_count_mode;

/* The fewest GPUs, in the given mode, for which some plan fits in a GPU
 * of vram_bytes[vi] bytes: out[mi * n_sizes + vi] for each model of
 * models[0..n_models) (n_models 0: the base's model only), 0 when none
 * fits up to max_gpus or the scenario is unusable.  The any-count answer
 * is never above the power-of-two one. */
void engine_grid_min_gpus(const engine_scenario *base, const engine_model *const *models,
                          int n_models, const double *vram_bytes, int n_sizes, int max_gpus,
                          engine_grid_count_mode mode, int *out);

#endif /* SHARDSCOPE_ENGINE_GRID_H */
