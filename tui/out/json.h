/*
 * json.h - the JSON of every front end: the shapes shared by eval,
 * recommend, report and the explorer's export (one evaluated plan, the
 * scenario echo), the schema version every JSON output carries, and the
 * one printer (cJSON).
 *
 * Numbers are SI (bytes, seconds, tokens/s, USD).  A number that is not
 * finite, or that does not apply (no price, no communication, tails not
 * computed, a plan that is invalid or does not fit), is written as null:
 * NaN and infinity never reach the output.
 */
#ifndef SHARDSCOPE_OUT_JSON_H
#define SHARDSCOPE_OUT_JSON_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "engine.h"

/* The version of the JSON shapes, written as "schema_version" (an integer,
 * the first member) at the top of every JSON output: eval, list, comm,
 * recommend, report, validate, calibrate --json, bench --json and the
 * explorer's export.  Raise it when a field is renamed, removed or changes
 * meaning, and list the change in README.md ("JSON schema versions").
 *   1  (implicit: no schema_version member) up to this change;
 *   2  schema_version everywhere; the export's plans are eval's objects;
 *   3  the export drops its schema-1 aliases (strategies, the scenario's
 *      intra_link, prompt_tokens, gen_tokens, weight_dtype); list frameworks
 *      --json's gpu_tiers and gpu_tier_exclude replace graph_capture_small_tp
 *      and small_gpu_tiers. */
#define OUT_SCHEMA_VERSION 3

/* One evaluated plan:
 *   plan {tp,pp,dp,ep}, gpus, valid, fits, reason (string or null),
 *   memory {weights_bytes, kv_bytes, activation_bytes, overhead_bytes,
 *           per_gpu_bytes, capacity_bytes},
 *   ttft_s, itl_s, e2e_s, tokens_per_s, speedup, efficiency,
 *   compute_comm_ratio (null when regime is '-'), regime ("C"|"M"|null),
 *   bubble_fraction, cost_per_mtok_usd (null without a GPU price),
 *   p50_s, p99_s (null when tails were not computed),
 *   prefill {compute_s, comm_s, bubble_s}, decode {compute_s, comm_s,
 *   bubble_s}, request {compute_s, comm_s}.
 * Performance numbers are null when the plan is invalid or does not fit
 * (memory stays: it says why).  s may be NULL (then gpus is tp*pp*dp).
 * Returns a new object owned by the caller (cJSON_Delete), NULL when out of
 * memory. */
cJSON *cli_result_json(const engine_scenario *s, const engine_result *r);

/* A plan's degrees {tp, pp, dp, ep}: the "plan" member of eval's and
 * recommend's objects.  New object owned by the caller, NULL when out of
 * memory. */
cJSON *out_plan_json(const engine_plan *p);

/* The scenario echo: model, model_display, gpu, gpus, gpus_per_node, link,
 * inter_link, vram_bytes, usable_fraction, runtime_overhead_bytes, batch,
 * prompt, gen, dtype, kv_dtype, act_dtype, microbatches, schedule,
 * interleave, objective, jitter_sigma, straggler_prob, straggler_slowdown,
 * samples, seed, calibration ("datasheet defaults" | "measured on DEVICE
 * DATE").  New object owned by the caller. */
cJSON *cli_scenario_json(const engine_scenario *s);

/* o.calibration_used = {file, device, backend, date, schema, library,
 * model, mape, gemm_shapes (per-kernel files), kernels: {gemm, memory,
 * small_kernel, launch, attention: "measured" | "fitted" | "default"},
 * gemm_tables: engine_calib_gemm_tables - "bf16", "bf16+fp16", "fp16", ...
 * or null}
 * (file null and every class "default" without a calibration).  Part of
 * cli_scenario_json's object. */
void out_json_add_calibration_detail(cJSON *o, const engine_scenario *s);

/* Add a number, or null when v is not finite. */
cJSON *cli_json_add_number(cJSON *obj, const char *name, double v);

/* Add v when it is > 0 (and finite), else null: a target, price or cost
 * where 0 means "not given". */
cJSON *out_json_add_positive(cJSON *obj, const char *name, double v);

/* A latency distribution's percentiles {p50, p90, p99} in seconds (null
 * where not finite): the ttft_s / tpot_s / e2e_s objects of load's and
 * recommend --rate's JSON.  New object owned by the caller, NULL when out of
 * memory. */
struct engine_sim_pct;
cJSON *out_sim_pct_json(const struct engine_sim_pct *p);

/* Add a 64-bit seed as o.name: a number while it is exact in a double
 * (<= 2^53), else its decimal digits as a string, so no seed loses bits. */
void out_json_add_seed(cJSON *o, const char *name, unsigned long long seed);

/* Make "schema_version": OUT_SCHEMA_VERSION the first member of root (an
 * object), unless it has one.  Returns 0, or -1 when root is NULL, not an
 * object, or memory ran out (root unchanged). */
int out_json_stamp(cJSON *root);

/* Stamp root (out_json_stamp), write it on f formatted with one trailing
 * newline, and delete it (always, also on failure).  Returns 0, or -1 when
 * root is NULL or not an object, memory ran out, or the write failed. */
int out_json_write(FILE *f, cJSON *root);

/* out_json_write for a command: on failure prints "shardscope CMD: could
 * not write JSON" on stderr and returns 1; 0 on success. */
int cli_json_print(const char *cmd, FILE *f, cJSON *root);

#endif /* SHARDSCOPE_OUT_JSON_H */
