/*
 * explain.h - the per-kernel breakdown of engine_explain_plan as text rows
 * (eval --explain, the explorer's details page 2) and as JSON (eval --json's
 * "explain" object).  One formatter for every front end.
 */
#ifndef SHARDSCOPE_OUT_EXPLAIN_H
#define SHARDSCOPE_OUT_EXPLAIN_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "engine.h"

/* An item's name as shown: the speculation's draft kernels read "draft
 * qkv" (names that say "draft" already stay).  Returns buf. */
char *out_explain_name(const engine_explain_item *it, char *buf, size_t len);

/* An item's work as shown: its FLOPs into fl (fmt_rate "FLOP") and its
 * bytes into by (fmt_bytes), "-" for either that is not positive. */
void out_explain_work(const engine_explain_item *it, char *fl, size_t fl_len, char *by,
                      size_t by_len);

/* An item's time: fmt_seconds, with a minus sign for a negative one (time
 * an overlap hid, so the rows still add up to the step). */
char *out_explain_time(double t, const char *micro, char *buf, size_t len);

/* Column header of out_explain_row (no trailing newline). */
const char *out_explain_header(void);

/* One item as a row of the text table: name, class, count, FLOPs, bytes,
 * time, share of step_s, bound ("qkv  gemm  32  1.65 TFLOP  1.6 GB  1.9 ms
 * 8.4%  compute").  Writes into buf (truncated as snprintf), returns buf. */
char *out_explain_row(const engine_explain_item *it, double step_s, char *buf, size_t len);

/* "prefill (TTFT): 22.5 ms = stage 1 of 1 (slowest) x 1 micro-batch step +
 * host + bubble": the line above a step's table (decode: "x m micro-batches",
 * "x 1 micro-batch"; with speculation, "(verification of k+1 tokens ... + k
 * draft steps) / E"). */
char *out_explain_title(const engine_explain *x, int decode, char *buf, size_t len);

/* A constant's value with its unit ("5.00 µs", "2.68 TB/s", "132"); micro as
 * fmt_seconds (NULL: UTF-8 "µ"). */
char *out_explain_value(const engine_explain_const *c, const char *micro, char *buf,
                        size_t len);

/* What set the batch a plan was timed at, as a phrase: "max_num_seqs 256
 * (the KV cache holds 319)", "the KV cache's 319 sequences (max_num_seqs
 * 4096)", "ceil(C / dp) of the total concurrency (max_num_seqs 256)", "as
 * given".  mc: the sequences the KV cache holds, mns: the cap that applied.
 * Writes into buf (truncated as snprintf), returns buf. */
char *out_batch_bound_text(engine_batch_bound b, int mc, int mns, char *buf, size_t len);

/* Both steps' tables and the constants, with units, on f. */
void out_explain_print(FILE *f, const engine_explain *x);

/* {plan, batch, prefill: {total_s, stage, repeat, items: [...]}, ...}: see
 * README ("JSON schema").  The arrays `prefill` and `decode` hold {name,
 * class, count, flops, bytes, time_s, bound, draft}; `constants` {name, value,
 * unit, origin, source}.  New object owned by the caller; NULL when out of
 * memory. */
cJSON *out_explain_json(const engine_explain *x);

#endif /* SHARDSCOPE_OUT_EXPLAIN_H */
