/*
 * pareto.h - the throughput/interactivity frontier of a scenario.
 *
 * Across every plan engine_rank enumerates for s->gpus (TP/PP/EP with
 * replicas) and across batch sizes per replica (1, 2, 4, ... below the
 * plan's largest batch that fits, and that largest batch), each point is
 * (output tokens/s per GPU, tokens/s per user = 1 / ITL).  A point is on the
 * frontier when no other point has at least as much of both and more of one
 * (of exact duplicates the first in the sort order below stays).
 *
 * Pure C: no I/O, no allocation; the caller owns every buffer.
 */
#ifndef SHARDSCOPE_PARETO_H
#define SHARDSCOPE_PARETO_H

#include "engine.h"

/* Batches tried per plan at most: the powers of two up to ENGINE_MAX_BATCH
 * (2^0 ... 2^24) and the plan's largest batch. */
#define ENGINE_PARETO_BATCHES 26

typedef struct engine_pareto_point {
    engine_plan plan;
    int batch;                   /* sequences per replica */
    int max_batch;               /* the plan's largest batch that fits */
    int frontier;                /* 1: no other point dominates it */
    double tokens_per_s_per_gpu; /* generated tokens/s, all replicas / GPUs */
    double tokens_per_s_per_user; /* 1 / itl_s */
    double tokens_per_s;         /* all replicas */
    double itl_s;                /* one decode step */
    double ttft_s;               /* prefill of the batch */
    double e2e_s;
    double per_gpu_bytes;        /* memory per GPU at this batch */
} engine_pareto_point;

/* Upper bound of the points engine_pareto_points writes for s (the plan
 * count times ENGINE_PARETO_BATCHES); 0 for an unusable scenario. */
int engine_pareto_capacity(const engine_scenario *s);

/* Evaluate every valid plan that fits at batch 1 at each of its batches
 * (the scenario's batch, batch_max and total_concurrency are ignored;
 * everything else is kept) into out (at most cap points), mark the frontier
 * and sort: by tokens/s per user, descending, then per GPU, descending, then
 * plan order and batch.  Returns the number of points, or -1 with err when
 * the scenario is unusable. */
int engine_pareto_points(const engine_scenario *s, engine_pareto_point *out, int cap,
                         engine_error *err);

/* Mark the frontier of n points (any set: the caller may build one by
 * hand) and sort them as engine_pareto_points does.  Returns the number of
 * frontier points; along them, in that order, tokens/s per user falls and
 * tokens/s per GPU rises strictly. */
int engine_pareto_mark(engine_pareto_point *pts, int n);

/* Copy the frontier points of a marked, sorted set into out (at most cap),
 * in order: the per-user end (fastest) first.  Returns how many. */
int engine_pareto_frontier(const engine_pareto_point *pts, int n, engine_pareto_point *out,
                           int cap);

#endif /* SHARDSCOPE_PARETO_H */
