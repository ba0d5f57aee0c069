/*
 * json.c - builds the JSON objects the front ends print (see json.h): one
 * evaluated plan and the scenario echo, the schema stamp and the printer.
 * It only copies and labels engine results; it computes nothing.
 */
#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "sim.h"

cJSON *cli_json_add_number(cJSON *obj, const char *name, double v)
{
    if (!isfinite(v))
        return cJSON_AddNullToObject(obj, name);
    return cJSON_AddNumberToObject(obj, name, v);
}

cJSON *out_sim_pct_json(const engine_sim_pct *p)
{
    cJSON *o = cJSON_CreateObject();
    cli_json_add_number(o, "p50", p->p50);
    cli_json_add_number(o, "p90", p->p90);
    cli_json_add_number(o, "p99", p->p99);
    cli_json_add_number(o, "mean", p->mean);
    return o;
}

void out_json_add_seed(cJSON *o, const char *name, unsigned long long seed)
{
    if (seed <= (1ULL << 53)) {
        cJSON_AddNumberToObject(o, name, (double)seed);
    } else {
        char digits[32];
        snprintf(digits, sizeof digits, "%llu", seed);
        cJSON_AddStringToObject(o, name, digits);
    }
}

cJSON *out_json_add_positive(cJSON *obj, const char *name, double v)
{
    if (v > 0)
        return cli_json_add_number(obj, name, v);
    return cJSON_AddNullToObject(obj, name);
}

/* Number when `ok`, else null. */
static void add_opt(cJSON *obj, const char *name, double v, int ok)
{
    if (ok)
        cli_json_add_number(obj, name, v);
    else
        cJSON_AddNullToObject(obj, name);
}

/* A run of numbers, each a number when `ok`, else null. */
typedef struct named_num {
    const char *key;
    double v;
} named_num;

static void add_opts(cJSON *obj, const named_num *f, size_t n, int ok)
{
    for (size_t i = 0; i < n; i++)
        add_opt(obj, f[i].key, f[i].v, ok);
}

static void add_string_or_null(cJSON *obj, const char *name, const char *v)
{
    if (v && *v)
        cJSON_AddStringToObject(obj, name, v);
    else
        cJSON_AddNullToObject(obj, name);
}

cJSON *out_plan_json(const engine_plan *p)
{
    cJSON *o = cJSON_CreateObject();
    if (o) {
        cJSON_AddNumberToObject(o, "tp", p->tp);
        cJSON_AddNumberToObject(o, "pp", p->pp);
        cJSON_AddNumberToObject(o, "dp", p->dp);
        cJSON_AddNumberToObject(o, "ep", p->ep);
    }
    return o;
}

static void add_plan(cJSON *o, const engine_scenario *s, const engine_result *r)
{
    cJSON_AddItemToObject(o, "plan", out_plan_json(&r->plan));
    double gpus = s ? (double)s->gpus : (double)r->plan.tp * r->plan.pp * r->plan.dp;
    cJSON_AddNumberToObject(o, "gpus", gpus);
    cJSON_AddBoolToObject(o, "valid", r->valid != 0);
    cJSON_AddBoolToObject(o, "fits", r->valid && r->fits);
    add_string_or_null(o, "reason", r->reason);
    /* the load it was evaluated at, and what its KV cache holds */
    int v = r->valid != 0;
    add_opt(o, "batch", r->batch, v);
    add_opt(o, "concurrency", (double)r->concurrency, v);
    add_opt(o, "max_concurrency", r->max_concurrency, v);
    add_opt(o, "kv_capacity_tokens", r->kv_capacity_tokens, v);
    /* the cap on a replica's running sequences, what set batch, the rest queued */
    add_opt(o, "max_num_seqs", r->max_num_seqs, v);
    add_string_or_null(o, "batch_bound", v ? engine_batch_bound_name(r->batch_bound) : NULL);
    add_opt(o, "queued", (double)r->queued, v);
}

/* Memory (kept for a plan that does not fit: it says why) and warnings. */
static void add_memory(cJSON *o, const engine_result *r)
{
    int mem_ok = r->valid != 0;
    cJSON *mem = cJSON_AddObjectToObject(o, "memory");
    if (mem) {
        add_opt(mem, "weights_bytes", r->mem.weights_bytes, mem_ok);
        add_opt(mem, "kv_bytes", r->mem.kv_bytes, mem_ok);
        add_opt(mem, "kv_local_bytes", r->mem.kv_local_bytes, mem_ok);
        add_opt(mem, "activation_bytes", r->mem.activation_bytes, mem_ok);
        add_opt(mem, "overhead_bytes", r->mem.overhead_bytes, mem_ok);
        add_opt(mem, "per_gpu_bytes", r->mem.per_gpu_bytes, mem_ok);
        add_opt(mem, "usable_fraction", r->mem.usable_fraction, mem_ok);
        add_opt(mem, "capacity_bytes", r->mem.capacity_bytes, mem_ok);
        add_opt(mem, "kv_capacity_bytes", r->mem.kv_capacity_bytes, mem_ok);
        if (r->spec.on) { /* only with speculation: the JSON without stays as it was */
            add_opt(mem, "spec_weights_bytes", r->mem.spec_weights_bytes, mem_ok);
            add_opt(mem, "spec_kv_bytes", r->mem.spec_kv_bytes, mem_ok);
        }
    }
    cJSON *warn = cJSON_AddArrayToObject(o, "warnings");
    for (unsigned bit = 1; warn && bit < (1u << ENGINE_WARN_COUNT); bit <<= 1)
        if (r->valid && (r->warnings & bit))
            cJSON_AddItemToArray(warn, cJSON_CreateString(engine_warning_text(bit)));
}

/* Times, rates, ratio, cost and tails: null unless ok (valid and fits). */
static void add_performance(cJSON *o, const engine_result *r, int ok)
{
    const named_num perf[] = {
        {"ttft_s", r->ttft_s},
        {"itl_s", r->itl_s},
        {"e2e_s", r->e2e_s},
        {"tokens_per_s", r->tokens_per_s},
        {"speedup", r->speedup},
        {"efficiency", r->efficiency},
    };
    add_opts(o, perf, sizeof perf / sizeof perf[0], ok);
    int has_regime = ok && (r->regime == 'C' || r->regime == 'M');
    add_opt(o, "compute_comm_ratio", r->compute_comm_ratio, has_regime);
    if (has_regime)
        cJSON_AddStringToObject(o, "regime", r->regime == 'C' ? "C" : "M");
    else
        cJSON_AddNullToObject(o, "regime");
    add_opt(o, "bubble_fraction", r->bubble_fraction, ok);
    add_opt(o, "cost_per_mtok_usd", r->cost_per_mtok_usd, ok && r->cost_per_mtok_usd > 0);
    int tails = ok && r->p50_s > 0 && r->p99_s > 0;
    add_opt(o, "p50_s", r->p50_s, tails);
    add_opt(o, "p99_s", r->p99_s, tails);
}

/* Error bands: [lo, hi] from the validation cases of the same category. */
static void add_bands(cJSON *o, const engine_result *r, int ok)
{
    const struct {
        const char *key;
        const engine_band *b;
    } bands[] = {
        {"ttft_s", &r->ttft_band},
        {"itl_s", &r->itl_band},
        {"e2e_s", &r->e2e_band},
        {"tokens_per_s", &r->tps_band},
    };
    if (!ok || r->ttft_band.n <= 0) {
        cJSON_AddNullToObject(o, "bands");
        return;
    }
    cJSON *bo = cJSON_AddObjectToObject(o, "bands");
    for (size_t i = 0; bo && i < sizeof bands / sizeof bands[0]; i++) {
        cJSON *pair = cJSON_AddArrayToObject(bo, bands[i].key);
        if (!pair)
            continue;
        cJSON_AddItemToArray(pair, cJSON_CreateNumber(bands[i].b->lo));
        cJSON_AddItemToArray(pair, cJSON_CreateNumber(bands[i].b->hi));
    }
    if (bo)
        cJSON_AddNumberToObject(bo, "cases", r->ttft_band.n);
}

/* prefill and decode: their split and where a step goes; request totals. */
static void add_phases(cJSON *o, const engine_scenario *s, const engine_result *r, int ok)
{
    const struct {
        const char *key;
        double compute, comm, bubble;
        const engine_breakdown *b;
    } phases[] = {
        {"prefill", r->prefill_compute_s, r->prefill_comm_s, r->prefill_bubble_s, &r->prefill},
        {"decode", r->decode_compute_s, r->decode_comm_s, r->decode_bubble_s, &r->decode},
    };
    for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++) {
        cJSON *ph = cJSON_AddObjectToObject(o, phases[i].key);
        if (!ph)
            continue;
        const engine_breakdown *b = phases[i].b;
        const named_num f[] = {
            {"compute_s", phases[i].compute},
            {"comm_s", phases[i].comm},
            {"bubble_s", phases[i].bubble},
            {"gemm_s", b->gemm_s},
            {"attention_s", b->attn_s},
            {"small_kernels_s", b->small_s},
            {"launch_s", b->launch_s},
            {"framework_s", b->step_s},
            {"tp_allreduce_s", b->tp_s},
            {"ep_alltoall_s", b->ep_s},
            {"pp_p2p_s", b->pp_s},
            {"kernels", b->kernels},
        };
        add_opts(ph, f, sizeof f / sizeof f[0], ok);
    }
    /* What two-batch overlap and the fused all-reduce + norm took off each
     * step (schema 2 addition). */
    cJSON *ov = cJSON_AddObjectToObject(o, "overlap");
    if (ov) {
        if (s) {
            cJSON_AddBoolToObject(ov, "tbo", engine_scenario_tbo(s));
            cJSON_AddBoolToObject(ov, "fuse_ar_norm", engine_scenario_fuse_ar_norm(s));
        }
        for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++) {
            cJSON *ph = cJSON_AddObjectToObject(ov, phases[i].key);
            if (!ph)
                continue;
            const engine_breakdown *b = phases[i].b;
            double ep_all = b->ep_s + b->tbo_hidden_s;
            const named_num f[] = {
                {"tbo_hidden_s", b->tbo_hidden_s},
                {"tbo_hidden_fraction", ep_all > 0 ? b->tbo_hidden_s / ep_all : 0.0},
                {"fused_ar_norm_saved_s", b->ar_norm_saved_s},
            };
            add_opts(ph, f, sizeof f / sizeof f[0], ok);
        }
    }
    /* MoE as deployed: the slots and the imbalance the plan ran at */
    cJSON *moe = r->expert_slots > 0 ? cJSON_AddObjectToObject(o, "moe") : NULL;
    if (moe) {
        add_opt(moe, "expert_slots", r->expert_slots, r->valid != 0);
        add_opt(moe, "imbalance", r->moe_imbalance, r->valid != 0);
        if (s) {
            cJSON_AddNumberToObject(moe, "redundant_experts", s->redundant_experts);
            cJSON_AddStringToObject(moe, "a2a", engine_a2a_name(s->a2a));
        }
    }
    /* The sampler's path and its kernels a step (schema 2 addition). */
    cJSON *sm = s ? cJSON_AddObjectToObject(o, "sampler") : NULL;
    if (sm) {
        double passes;
        int n = engine_sampler_kernels(s->framework ? s->framework : engine_framework_generic_ref(),
                                       s->sampling, &passes);
        cJSON_AddStringToObject(sm, "path", engine_sampling_name(s->sampling));
        cJSON_AddNumberToObject(sm, "kernels", n);
        cJSON_AddNumberToObject(sm, "logit_passes", passes);
    }
    cJSON *req = cJSON_AddObjectToObject(o, "request");
    if (req) {
        add_opt(req, "compute_s", r->compute_s, ok);
        add_opt(req, "comm_s", r->comm_s, ok);
    }
}

/* Speculative decoding, only when on: method, k, P, E and the step split. */
static void add_spec(cJSON *o, const engine_result *r, int ok)
{
    const engine_spec_result *sp = &r->spec;
    if (!sp->on)
        return;
    cJSON *so = cJSON_AddObjectToObject(o, "spec");
    if (!so)
        return;
    cJSON_AddStringToObject(so, "method", engine_spec_method_name(sp->method));
    cJSON_AddNumberToObject(so, "k", sp->k);
    cli_json_add_number(so, "accept", sp->accept);
    const named_num f[] = {
        {"expected_tokens_per_step", sp->tokens_per_step},
        {"draft_s", sp->draft_s},
        {"verify_s", sp->verify_s},
        {"draft_prefill_s", sp->draft_prefill_s},
    };
    add_opts(so, f, sizeof f / sizeof f[0], ok);
    add_opt(so, "draft_tp", sp->draft_tp, ok && sp->method == ENGINE_SPEC_DRAFT);
}

cJSON *cli_result_json(const engine_scenario *s, const engine_result *r)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    int ok = r->valid && r->fits;
    add_plan(o, s, r);
    add_memory(o, r);
    add_performance(o, r, ok);
    add_bands(o, r, ok);
    add_phases(o, s, r, ok);
    add_spec(o, r, ok);
    return o;
}

/* cli_scenario_json's hardware: the model, the GPUs, the links, the memory. */
static void scenario_hw_json(cJSON *o, const engine_scenario *s)
{
    add_string_or_null(o, "model", s->model ? s->model->name : NULL);
    add_string_or_null(o, "model_display", s->model ? s->model->display : NULL);
    add_string_or_null(o, "model_source", s->model ? s->model->source : NULL);
    add_string_or_null(o, "gpu", s->gpu ? s->gpu->name : NULL);
    cJSON_AddNumberToObject(o, "gpus", s->gpus);
    out_json_add_positive(o, "gpus_per_node", s->gpus_per_node);
    add_string_or_null(o, "link", s->intra ? s->intra->name : NULL);
    add_string_or_null(o, "inter_link", s->inter ? s->inter->name
                                                 : (s->intra ? s->intra->name : NULL));
    double vram = engine_scenario_vram(s); /* null without a GPU */
    cli_json_add_number(o, "vram_bytes", vram > 0 ? vram : NAN);
}

/* cli_scenario_json's framework: the profile, its graphs, host loop and
 * memory rule. */
static void scenario_fw_json(cJSON *o, const engine_scenario *s)
{
    const engine_framework *fw = s->framework;
    add_string_or_null(o, "framework", fw ? fw->name : "generic");
    cli_json_add_number(o, "usable_fraction", engine_scenario_usable_fraction(s));
    cJSON_AddBoolToObject(o, "cuda_graphs", engine_scenario_cuda_graphs(s));
    cJSON_AddBoolToObject(o, "prefill_graphs", engine_scenario_prefill_graphs(s));
    cJSON_AddStringToObject(o, "w4a16_kernel", engine_w4a16_name(s->w4a16_kernel));
    add_string_or_null(o, "framework_version", engine_fw_version_name(s->framework_version));
    if (s->n_graph_sizes > 0) {
        cJSON *gs = cJSON_AddArrayToObject(o, "cuda_graph_sizes");
        for (int i = 0; gs && i < s->n_graph_sizes && i < ENGINE_GRAPH_SIZES_MAX; i++)
            cJSON_AddItemToArray(gs, cJSON_CreateNumber(s->graph_sizes[i]));
    } else {
        cJSON_AddNullToObject(o, "cuda_graph_sizes");
    }
    double hl_step, hl_seq;
    engine_scenario_host_loop(s, &hl_step, &hl_seq);
    cli_json_add_number(o, "host_step_s", hl_step);
    cli_json_add_number(o, "host_seq_step_s", hl_seq);
    add_string_or_null(o, "memory_rule", engine_mem_rule_name(fw ? fw->mem_rule : ENGINE_MEM_TOTAL));
    cli_json_add_number(o, "runtime_overhead_bytes",
                        s->runtime_overhead_bytes >= 0 ? s->runtime_overhead_bytes
                                                       : fw ? fw->runtime_bytes : 2e9);
}

cJSON *cli_scenario_json(const engine_scenario *s)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    scenario_hw_json(o, s);
    scenario_fw_json(o, s);
    cJSON_AddNumberToObject(o, "max_model_len", engine_context_limit(s));
    cJSON_AddNumberToObject(o, "batch", s->batch);
    cJSON_AddBoolToObject(o, "batch_max", s->batch_max != 0);
    cJSON_AddNumberToObject(o, "max_num_seqs", engine_max_num_seqs(s));
    out_json_add_positive(o, "total_concurrency", s->total_concurrency);
    cJSON_AddNumberToObject(o, "prompt", s->prompt);
    cJSON_AddNumberToObject(o, "gen", s->gen);
    add_string_or_null(o, "dtype", engine_dtype_name(engine_scenario_weight_dtype(s)));
    cJSON_AddNumberToObject(o, "quant_group", engine_scenario_quant_group(s));
    /* schema 2 addition: local layers' KV for the whole sequence
     * (engine_scenario_local_kv_full) */
    cJSON_AddBoolToObject(o, "local_kv_full", engine_scenario_local_kv_full(s) != 0);
    /* schema 2 addition: the FP8 GEMMs are block-scaled (engine_scenario_fp8_block) */
    cJSON_AddBoolToObject(o, "fp8_block", engine_scenario_fp8_block(s) != 0);
    add_string_or_null(o, "kv_dtype", engine_dtype_name(s->kv_dtype));
    add_string_or_null(o, "act_dtype", engine_dtype_name(s->act_dtype));
    out_json_add_positive(o, "microbatches", s->microbatches);
    /* schema 3 addition: null = min(pp, batch) */
    out_json_add_positive(o, "decode_microbatches", s->decode_microbatches);
    add_string_or_null(o, "schedule", engine_schedule_name(s->schedule));
    cJSON_AddNumberToObject(o, "interleave", s->interleave);
    add_string_or_null(o, "objective", engine_objective_name(s->objective));
    cli_json_add_number(o, "jitter_sigma", s->jitter_sigma);
    cli_json_add_number(o, "straggler_prob", s->straggler_prob);
    cli_json_add_number(o, "straggler_slowdown", s->straggler_slowdown);
    cJSON_AddNumberToObject(o, "samples", s->mc_samples);
    out_json_add_seed(o, "seed", (unsigned long long)s->seed);
    char cal[ENGINE_NAME_MAX + 64];
    cJSON_AddStringToObject(o, "calibration", out_calibration_label(s->calib, cal, sizeof cal));
    if (s->spec_method != ENGINE_SPEC_NONE) { /* only with speculation */
        cJSON_AddStringToObject(o, "spec_method", engine_spec_method_name(s->spec_method));
        cJSON_AddNumberToObject(o, "spec_k", s->spec_k);
        cli_json_add_number(o, "spec_accept", s->spec_accept);
        add_string_or_null(o, "spec_draft", s->spec_draft ? s->spec_draft->name : NULL);
    }
    out_json_add_calibration_detail(o, s);
    return o;
}

void out_json_add_calibration_detail(cJSON *o, const engine_scenario *s)
{
    const engine_calib *c = s->calib && s->calib->measured ? s->calib : NULL;
    cJSON *d = cJSON_AddObjectToObject(o, "calibration_used");
    if (!d)
        return;
    if (c) {
        add_string_or_null(d, "file", c->source[0] ? c->source : NULL);
        cJSON_AddStringToObject(d, "device", c->device);
        cJSON_AddStringToObject(d, "backend", c->backend);
        cJSON_AddStringToObject(d, "date", c->date);
        cJSON_AddNumberToObject(d, "schema", c->schema > 0 ? c->schema : 1);
        add_string_or_null(d, "library", c->library[0] ? c->library : NULL);
        add_string_or_null(d, "model", c->model[0] ? c->model : NULL);
        if (c->per_kernel) {
            cJSON_AddNumberToObject(d, "mape", c->mape);
            cJSON_AddNumberToObject(d, "gemm_shapes", c->n_gemm);
        }
    } else {
        cJSON_AddNullToObject(d, "file");
    }
    cJSON *k = cJSON_AddObjectToObject(d, "kernels");
    const char *tables = engine_calib_gemm_tables(s);
    for (int i = 0; k && i < ENGINE_CALIB_K_COUNT; i++) {
        const char *src = engine_calib_source(c, s->model, (engine_calib_kind)i);
        /* tables of the model, none of the scenario's math: the fit times it */
        if (i == ENGINE_CALIB_K_GEMM && !tables && !strcmp(src, "measured"))
            src = "fitted";
        cJSON_AddStringToObject(k, engine_calib_kind_name((engine_calib_kind)i), src);
    }
    add_string_or_null(d, "gemm_tables", tables);
}

int out_json_stamp(cJSON *root)
{
    if (!cJSON_IsObject(root))
        return -1;
    if (cJSON_GetObjectItemCaseSensitive(root, "schema_version"))
        return 0;
    if (!cJSON_AddNumberToObject(root, "schema_version", OUT_SCHEMA_VERSION))
        return -1;
    /* Move it first: a reader sees the version before anything else. */
    cJSON *v = cJSON_DetachItemFromObjectCaseSensitive(root, "schema_version");
    int ok = root->child ? cJSON_InsertItemInArray(root, 0, v)
                         : cJSON_AddItemToObject(root, "schema_version", v);
    if (!ok) {
        cJSON_Delete(v);
        return -1;
    }
    return 0;
}

int out_json_write(FILE *f, cJSON *root)
{
    char *text = out_json_stamp(root) == 0 ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text)
        return -1;
    int bad = fprintf(f, "%s\n", text) < 0;
    cJSON_free(text);
    return bad ? -1 : 0;
}

int cli_json_print(const char *cmd, FILE *f, cJSON *root)
{
    if (out_json_write(f, root) == 0)
        return 0;
    fprintf(stderr, "shardscope %s: could not write JSON (out of memory?)\n", cmd);
    return 1;
}
