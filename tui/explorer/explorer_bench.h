/*
 * explorer_bench.h - the scripted explorer run behind `make bench`
 * (`shardscope tui --bench`): the explorer in-process on an
 * xterm-256color screen whose output goes to a temporary file, a fixed
 * sequence of keys (mostly slider steps), and per key the time from
 * dispatch to the end of doupdate() and the bytes written to the terminal.
 * Prints figures; asserts nothing.  explorer_bench_update times the
 * explorer's update step alone.
 */
#ifndef SHARDSCOPE_EXPLORER_BENCH_H
#define SHARDSCOPE_EXPLORER_BENCH_H

#include <stdio.h>

#include "preset.h"

/* Run the script at rows x cols with TERM `term` (NULL: xterm-256color),
 * print the figures on `report`.  0 ok, 1 when the screen or explorer
 * could not be set up. */
int explorer_bench(const preset_db *db, int rows, int cols, const char *term, FILE *report);

/* The explorer's own update step, timed block by block (`shardscope
 * bench`): its default scenario on a rows x cols layout (which decides
 * how many plans get tails), every block recomputed `repeats` times
 * (after one warm-up) exactly as the explorer does when all its inputs
 * change.  No terminal is opened. */
enum {
    EXPLORER_BENCH_RANK = 0, /* ranked plans at the current GPU count */
    EXPLORER_BENCH_EFF,      /* efficiency tables */
    EXPLORER_BENCH_HEAT,     /* regime heatmap */
    EXPLORER_BENCH_FRONT,    /* VRAM frontier and min GPUs */
    EXPLORER_BENCH_TAILS,    /* tails of the plans on screen */
    EXPLORER_BENCH_PARETO,   /* the Pareto view (timed as if on screen) */
    EXPLORER_BENCH_LOAD,     /* the selected plan's load line (a small simulation) */
    EXPLORER_BENCH_PARTS
};
typedef struct explorer_bench_update_result {
    double part_s[EXPLORER_BENCH_PARTS]; /* medians */
    double frame_s;                      /* median of the sums of the blocks a key's
                                          * frame recomputes (all but the deferred) */
    double deferred_s;                   /* median of the sums of the deferred blocks
                                          * (exp_part_deferred: computed after that
                                          * frame, when no key waits) */
    long cells[EXPLORER_BENCH_PARTS];    /* engine cells per block (tails: plans) */
    const char *model, *gpu, *link;      /* the scenario (preset names) */
    int gpus, mc_samples;
} explorer_bench_update_result;

/* 0 ok; 1 with err (may be NULL) filled when the explorer could not be
 * set up (or out of memory).  out's names point into db. */
int explorer_bench_update(const preset_db *db, int rows, int cols, int repeats,
                          explorer_bench_update_result *out, engine_error *err);

#endif /* SHARDSCOPE_EXPLORER_BENCH_H */
