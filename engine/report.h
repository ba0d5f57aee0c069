/*
 * report.h - the tables of the seed scaling study (000), and the sweeps
 * behind its figures, computed by this engine.
 *
 * report_compute() fills one caller-owned report_tables from engine calls
 * only: the top-ranked configuration per model, TP at 8 GPUs per
 * interconnect (efficiency, compute/communication ratio and regime), TP vs
 * PP(m) vs hybrid for one model, the minimum GPU count by GPU memory, the
 * cheapest configurations per 1M tokens, tail latency by interconnect, and
 * for the plots: TP scaling per interconnect, TP/PP/hybrid scaling, bubble
 * against micro-batches, cost against GPU count and the VRAM frontier.
 *
 * Pure C: no I/O, no allocation, no globals.  Numbers are SI; results are
 * engine_result structs so every figure keeps its formula's inputs.  The
 * struct is large: allocate it on the heap.
 */
#ifndef SHARDSCOPE_REPORT_H
#define SHARDSCOPE_REPORT_H

#include "engine.h"
#include "pareto.h"

#define REPORT_MAX_MODELS 16
#define REPORT_MAX_LINKS 8
#define REPORT_MAX_COUNTS 8
#define REPORT_N_VRAM 4
#define REPORT_MAX_SPLITS 8
#define REPORT_MAX_CHEAP 6
#define REPORT_N_PP 4
#define REPORT_N_M 7
#define REPORT_SCRATCH 512
#define REPORT_MAX_PARETO 1024 /* plan-and-batch points of the Pareto figure */
#define REPORT_PARETO_GPUS 8

typedef struct report_inputs {
    /* GPU, calibration, workload, dtypes, jitter, seed, gpus_per_node.
     * model, intra, gpus, microbatches and objective are set per cell. */
    engine_scenario base;
    const engine_model *models[REPORT_MAX_MODELS];
    int n_models;
    const engine_link *links[REPORT_MAX_LINKS]; /* interconnect columns */
    int n_links;
    const engine_link *ref_link; /* per-model tables (seed: NVLink v3) */
    int focus;                   /* index in models[]: TP vs PP, cost, tails */
    int counts[REPORT_MAX_COUNTS]; /* GPU counts swept, ascending (1 2 4 8 16) */
    int n_counts;
    double vram_bytes[REPORT_N_VRAM]; /* GPU memory sizes of the min-GPU table */
    int min_gpus_max;                 /* largest count tried there (power of 2) */
} report_inputs;

/* Fill `in` with the seed's setting for the given GPU: counts 1 2 4 8 16,
 * memory 8/24/40/80 GB, up to 64 GPUs, workload defaults.  Models, links,
 * ref_link and focus are left for the caller. */
void report_inputs_defaults(report_inputs *in, const engine_gpu *gpu);

/* One row of the TP vs PP(m) vs hybrid table. */
typedef struct report_split {
    engine_plan plan;
    int microbatches;
    engine_result r;
    double vs_tp; /* e2e / e2e of the TP reference (first row) */
} report_split;

typedef struct report_cheap {
    int link; /* index into links[]; -1 for one GPU (no interconnect) */
    engine_result r;
} report_cheap;

typedef struct report_tables {
    /* Top-ranked configuration per model with >= 2 GPUs (dp = 1; highest
     * efficiency among the plans that fit, ties by latency), on ref_link. */
    int top_found[REPORT_MAX_MODELS];
    engine_result top[REPORT_MAX_MODELS];
    /* TP over 8 GPUs per model and interconnect (tails not computed). */
    engine_result tp8[REPORT_MAX_MODELS][REPORT_MAX_LINKS];
    /* Focus model on ref_link: TP reference and PP / hybrid rows. */
    int n_splits;
    report_split splits[REPORT_MAX_SPLITS];
    /* Smallest power-of-two GPU count that fits (0: none up to max). */
    int min_gpus[REPORT_MAX_MODELS][REPORT_N_VRAM];
    /* Focus model: cheapest plans by USD per 1M tokens, ascending. */
    int n_cheap;
    report_cheap cheap[REPORT_MAX_CHEAP];
    /* Focus model, TP over 8 GPUs, with Monte Carlo tails, per link. */
    engine_result tails[REPORT_MAX_LINKS];
    /* Plots. Focus model. */
    engine_result tp_scaling[REPORT_MAX_LINKS][REPORT_MAX_COUNTS]; /* TP = count */
    engine_result pp_scaling[REPORT_MAX_COUNTS];     /* PP = count, m = 4 (ref_link) */
    engine_result hybrid_scaling[REPORT_MAX_COUNTS]; /* TP = count/2 x PP = 2, m = 4 */
    double bubble[REPORT_N_PP][REPORT_N_M];          /* GPipe bubble fraction */
    int bubble_pp[REPORT_N_PP];
    int bubble_m[REPORT_N_M];
    engine_result cost_by_count[REPORT_MAX_LINKS][REPORT_MAX_COUNTS]; /* cheapest dp = 1 */
    /* Least memory per GPU over the plans with dp = 1 (bytes; 0: none). */
    double vram_frontier[REPORT_MAX_MODELS][REPORT_MAX_COUNTS];
    engine_result scratch[REPORT_SCRATCH];
    /* Focus model on REPORT_PARETO_GPUS GPUs over ref_link: every plan at
     * every batch (engine_pareto_points: marked, sorted from the per-user
     * end); 0 points when nothing fits there. */
    int n_pareto;
    engine_pareto_point pareto[REPORT_MAX_PARETO];
} report_tables;

/* Compute every table.  0 ok; -1 with err when an input is unusable. */
int report_compute(const report_inputs *in, report_tables *out, engine_error *err);

/* "TP", "PP", "TPxPP", "DP", "TP+EP" ...: the strategy of a plan. */
const char *report_strategy(const engine_plan *p);

#endif /* SHARDSCOPE_REPORT_H */
