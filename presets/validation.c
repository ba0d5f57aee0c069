/*
 * validation.c - turns each published measurement of validation_cases.c
 * into a scenario from the presets, evaluates it with the engine, and
 * derives what the report and the error bands need: the predicted figure,
 * its ratio to the measured one, the case's categories and its band key.
 */
#include "validation.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static const char *const CAT_NAMES[VAL_CAT_COUNT] = {
    "batch-1 decode", "high-batch throughput", "prefill/TTFT", "TP=8",
    "PP and TPxPP",   "MoE with TP",           "MoE with EP",  "FP8/int4/FP4",
    "H100/H200/B200/MI300X", "multi-node",     "small (<3B)",  "long context (>=32k)",
    "speculative decoding",
    "serving (simulated)",
    "MoE with EP < TP",
    "sliding-window models",
};

static const char *const METRIC_NAMES[VAL_METRIC_COUNT] = {
    "TTFT", "ITL", "E2E", "tok/s", "tok/s/GPU", "tok/s/user", "speedup",
};

const char *val_category_name(val_category c)
{
    return (unsigned)c < VAL_CAT_COUNT ? CAT_NAMES[c] : "all";
}

const char *val_metric_name(val_metric m)
{
    return (unsigned)m < VAL_METRIC_COUNT ? METRIC_NAMES[m] : "?";
}

static int is_rate(val_metric m)
{
    return m == VAL_TPS || m == VAL_TPS_GPU || m == VAL_TPS_USER || m == VAL_SPEEDUP;
}

/* The case's speculation into s: k from the case or the method, P from
 * the case, its measured acceptance length, or the method. */
static int val_spec(const preset_db *db, const val_case *c, engine_scenario *s, engine_error *err)
{
    if (c->spec_method == ENGINE_SPEC_NONE)
        return 0;
    s->spec_method = c->spec_method;
    engine_spec_default(c->spec_method, &s->spec_k, &s->spec_accept);
    if (c->spec_k > 0)
        s->spec_k = c->spec_k;
    if (c->spec_accept > 0)
        s->spec_accept = c->spec_accept;
    else if (c->spec_length > 0)
        s->spec_accept = engine_spec_accept_for_length(s->spec_k, c->spec_length);
    if (c->spec_draft && !(s->spec_draft = preset_find_model(db, c->spec_draft))) {
        snprintf(err->msg, sizeof err->msg, "validation case %s: unknown draft preset '%s'",
                 c->id, c->spec_draft);
        return -1;
    }
    return 0;
}

int val_trtllm_perf_graph_sizes(int *out)
{
    static const int SIZES[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 384, 512, 1024, 2048, 4096, 8192};
    int n = (int)(sizeof SIZES / sizeof SIZES[0]);
    for (int i = 0; i < n && i < ENGINE_GRAPH_SIZES_MAX; i++)
        out[i] = SIZES[i];
    return n < ENGINE_GRAPH_SIZES_MAX ? n : ENGINE_GRAPH_SIZES_MAX;
}

int val_scenario(const preset_db *db, const val_case *c, engine_scenario *s, engine_plan *plan,
                 engine_error *err)
{
    engine_scenario_defaults(s);
    s->model = preset_find_model(db, c->model);
    s->gpu = preset_find_gpu(db, c->gpu);
    const char *missing = !s->model ? c->model : !s->gpu ? c->gpu : NULL;
    if (missing) {
        snprintf(err->msg, sizeof err->msg, "validation case %s: unknown preset '%s'", c->id,
                 missing);
        return -1;
    }
    const engine_link *intra = NULL, *inter = NULL;
    int per_node = 0;
    preset_gpu_topology(db, s->gpu, &intra, &inter, &per_node);
    if (c->link)
        intra = preset_find_link(db, c->link);
    if (c->inter)
        inter = preset_find_link(db, c->inter);
    if (!intra || (c->inter && !inter)) {
        snprintf(err->msg, sizeof err->msg, "validation case %s: unknown link '%s'", c->id,
                 !intra ? (c->link ? c->link : s->gpu->link) : c->inter);
        return -1;
    }
    s->intra = intra;
    s->inter = inter;
    s->gpus_per_node = per_node;
    if (c->framework) {
        s->framework = preset_find_framework(db, c->framework);
        if (!s->framework) {
            snprintf(err->msg, sizeof err->msg, "validation case %s: unknown framework '%s'",
                     c->id, c->framework);
            return -1;
        }
    }
    s->gpus = c->gpus;
    s->batch = c->batch > 0 ? c->batch : 1;
    s->prompt = c->prompt;
    s->gen = c->gen;
    s->weight_dtype = c->weights;
    s->kv_dtype = c->kv;
    s->usable_fraction = c->mem_fraction;
    s->max_model_len = c->max_model_len;
    s->cuda_graphs = c->eager ? ENGINE_GRAPHS_OFF : ENGINE_GRAPHS_DEFAULT;
    s->host_overlap = c->async_sched ? ENGINE_GRAPHS_ON : ENGINE_GRAPHS_DEFAULT;
    s->framework_version = c->fw_version;
    s->w4a16_kernel = c->w4a16_kernel;
    s->xqa_precompiled = c->xqa_precompiled;
    s->xqa_legacy = c->xqa_legacy;
    s->parallel_ar_split = c->parallel_ar_split;
    s->gemm_acc16 = c->gemm_acc16;
    s->attn_scores = c->attn_scores;
    s->fuse_ar_norm = c->fuse_ar_norm ? ENGINE_GRAPHS_ON : ENGINE_GRAPHS_DEFAULT;
    s->sampling = c->sampling;
    s->microbatches = c->microbatches;
    if (c->harness == VAL_HARNESS_FT && c->pp > 1) {
        s->microbatches = val_ft_microbatches(s->batch, c->prompt, c->pp);
        s->decode_microbatches = val_ft_microbatches(s->batch, 1, c->pp);
    }
    s->mc_samples = 0;
    if (c->graph_pad)
        s->n_graph_sizes = val_trtllm_perf_graph_sizes(s->graph_sizes);
    int unit = c->tp * c->pp;
    plan->tp = c->tp;
    plan->pp = c->pp;
    plan->dp = unit > 0 ? c->gpus / unit : 0;
    plan->ep = c->ep > 1 ? c->ep : 1;
    if (unit < 1 || c->gpus % unit) {
        snprintf(err->msg, sizeof err->msg, "validation case %s: gpus %d is not a multiple of tp*pp",
                 c->id, c->gpus);
        return -1;
    }
    return val_spec(db, c, s, err);
}

/* FasterTransformer's multi-GPU GPT splits a step's batch for its
 * pipeline (src/fastertransformer/utils/nccl_utils.cc, getLocalBatchSize,
 * called with the prompt length by ParallelGptContextDecoder and with 1 by
 * ParallelGpt's decode loop): the batch over pp when pp divides it, then
 * halved while even and its tokens above a threshold; the micro-batches run
 * pipelined through the stages.  The threshold is 2048 tokens through the
 * whole dev/v5.0_beta line (NVIDIA/FasterTransformer@952a1f2449f6 2021-09-30
 * to @ba6960e1c1f1 2022-03-26), the code the Megatron-530B table was measured
 * on: the table first appears in v5.0 (@a44c38134cef, 2022-04-15), whose
 * same function says 8192, and v5.1 (@bc214067d603, 2022-08) says 1024,
 * after the table.  8192 cannot be the one that ran: batch 64 of 128-token
 * prompts would be one micro-batch, the three stages one after another,
 * 3 x 2 x 22.0 G parameters (528.5 G of layers over 24 GPUs) x 8192 tokens
 * = 1.08 PFLOP a GPU in turn, 3.47 s at the A100's full 312 TFLOP/s, above
 * the 3.58 s measured less its 7 decode steps (each at least 3 stages' 44 GB
 * weight read at 2.04 TB/s, 65 ms).  A power-of-two batch on 3 stages is
 * never divided by pp, so FasterTransformer decodes it as one group crossing
 * the stages in turn (decode_microbatches 1). */
#define VAL_FT_LOCAL_TOKENS 2048

int val_ft_microbatches(int batch, int tokens, int pp)
{
    if (batch < 1 || tokens < 1 || pp <= 1)
        return 1;
    long local = batch;
    if (local % pp == 0)
        local /= pp;
    while (local * tokens > VAL_FT_LOCAL_TOKENS && local % 2 == 0)
        local /= 2;
    return (int)(batch / local);
}

#define VAL_TRTLLM_DEFAULT_BATCH 2048

/* trtllm-bench's own max batch size for a run that names none (TensorRT-LLM
 * tensorrt_llm/bench/build/tuning.py, calc_engine_setting + finetune_setting,
 * 0.12 through 1.x; PytMaxThroughputScenario passes it as max_batch_size):
 *   KV bytes/token  = 2 * layers * max(tp, kv_heads) * head_dim * kv bytes
 *                     (every layer full attention: sliding windows ignored)
 *   requests        = 0.95 * (tp*pp * GPU GiB - params * bytes) / (token * (isl+osl))
 *   raw = min(requests, 4096) / pp, rounded UP to 32 (min 64) below 256,
 *   to 128 below 1024, else to 256: each of the pp micro-batches in flight
 *   holds that many, so the replica's batch is pp times it.
 * bytes: 1 for FP8, 0.5 for NVFP4, else 2 (BYTES_PER_ELEM).  A quantization
 * outside TUNED_QUANTS {NVFP4, FP8, FP8_BLOCK_SCALES, none} skips the
 * heuristic for the defaults, max_batch_size 2048 (get_benchmark_engine_settings
 * in tensorrt_llm/bench/build/build.py: "Using default settings because
 * quant_algo not supported"; TorchLlmArgs / BuildConfig max_batch_size 2048):
 * an MXFP4 checkpoint such as gpt-oss (group 32, not NVFP4's 16).  The KV bytes are 1 only
 * when the checkpoint is NVIDIA's quantized one with an FP8 KV cache (the
 * options' kv_cache_config dtype is not what the heuristic reads: it reads
 * kv_cache_dtype, "auto").  Returns 0 (no cap) for MLA models, whose
 * trtllm-bench ModelConfig KV size is unverified here. */
int val_trtllm_bench_batch(const engine_model *m, const engine_gpu *g, int tp, int pp,
                           int isl, int osl, engine_dtype weights, engine_dtype kv)
{
    if (!m || !g || m->mla || tp < 1 || pp < 1 || isl + osl < 1)
        return 0;
    int own_mx = m->has_weight_dtype && m->weight_dtype == ENGINE_FP4 && m->quant_group != 16;
    if (own_mx)
        return VAL_TRTLLM_DEFAULT_BATCH * pp;
    double wb = weights == ENGINE_FP8 ? 1.0 : weights == ENGINE_FP4 ? 0.5 : 2.0;
    double kb = (kv == ENGINE_FP8 && !m->has_weight_dtype) ? 1.0 : 2.0;
    double gib = 1024.0 * 1024.0 * 1024.0;
    int kvh = m->kv_heads > tp ? m->kv_heads : tp;
    double tok = 2.0 * m->layers * kvh * m->head_dim * kb / gib;
    double avail = tp * pp * (g->memory_bytes / gib) - engine_model_params(m) * wb / gib;
    double req = 0.95 * avail / (tok * (isl + osl));
    if (req < 1)
        return 0;
    double raw = (req < 4096 ? req : 4096) / pp;
    int q = raw < 256 ? 32 : raw < 1024 ? 128 : 256;
    int bs = q * (int)ceil(raw / q);
    return (raw < 256 && bs < 64 ? 64 : bs) * pp;
}

static int is_decode_metric(val_metric m)
{
    return m == VAL_ITL || m == VAL_TPS_USER;
}

/* The engine's figure for the case's metric, in its SI unit. */
static double val_metric_of(val_metric m, const engine_scenario *s, const engine_result *r)
{
    switch (m) {
    case VAL_TTFT:
        return r->ttft_s;
    case VAL_ITL:
        return r->itl_s;
    case VAL_E2E:
        return r->e2e_s;
    case VAL_TPS:
        return r->tokens_per_s;
    case VAL_TPS_GPU:
        return r->tokens_per_s / s->gpus;
    default:
        return 1.0 / r->itl_s;
    }
}

/* The engine's figure for the case's metric; a speed-up is spec_base with
 * speculation against the same scenario without (*fits: both fit). */
static double val_predicted(const val_case *c, const engine_scenario *s, engine_plan p,
                            const engine_result *r, int *fits)
{
    if (c->metric != VAL_SPEEDUP)
        return val_metric_of(c->metric, s, r);
    engine_scenario plain = *s;
    plain.spec_method = ENGINE_SPEC_NONE;
    engine_result r0;
    engine_error err;
    if (engine_evaluate(&plain, p, &r0, &err) != 0)
        return 0;
    *fits = *fits && r0.fits;
    double with = val_metric_of(c->spec_base, s, r), without = val_metric_of(c->spec_base, &plain, &r0);
    return is_rate(c->spec_base) ? with / without : without / with;
}

/* The GPUs of the H100 generation and later. */
static int is_hopper_plus(const char *gpu)
{
    static const char *const HOPPER[] = {"h100-sxm", "h100-pcie", "h200", "b200", "gb200",
                                         "gh200", "h20", "mi300x", "mi325x"};
    for (size_t i = 0; i < sizeof HOPPER / sizeof HOPPER[0]; i++)
        if (!strcmp(gpu, HOPPER[i]))
            return 1;
    return 0;
}

/* The categories (bits 1u << val_category) of an evaluated case. */
static unsigned val_categories(const val_case *c, const engine_scenario *s, engine_plan p)
{
    const engine_model *m = s->model;
    engine_dtype w = engine_scenario_weight_dtype(s);
    unsigned cat = 0;
    int decode_metric = is_decode_metric(c->metric);
    if (s->batch == 1 && (decode_metric || c->metric == VAL_E2E))
        cat |= 1u << VAL_CAT_BATCH1;
    if ((c->batch <= 0 || s->batch >= 16) && !decode_metric && c->metric != VAL_TTFT)
        cat |= 1u << VAL_CAT_HIGH_BATCH;
    if (c->spec_method != ENGINE_SPEC_NONE)
        return 1u << VAL_CAT_SPEC; /* a category of its own */
    if (c->metric == VAL_TTFT)
        cat |= 1u << VAL_CAT_PREFILL;
    if (p.tp == 8)
        cat |= 1u << VAL_CAT_TP8;
    if (p.pp > 1)
        cat |= 1u << VAL_CAT_PP;
    if (m->experts > 0)
        cat |= 1u << (p.ep > 1 ? VAL_CAT_MOE_EP : VAL_CAT_MOE_TP);
    if (w != ENGINE_FP16 && w != ENGINE_BF16)
        cat |= 1u << VAL_CAT_QUANT;
    if (is_hopper_plus(s->gpu->name))
        cat |= 1u << VAL_CAT_HOPPER_PLUS;
    if (s->gpus_per_node > 0 && (long long)p.tp * p.pp > s->gpus_per_node)
        cat |= 1u << VAL_CAT_MULTINODE;
    if (p.ep > 1 && s->gpus_per_node > 0 && p.ep * p.pp > s->gpus_per_node)
        cat |= 1u << VAL_CAT_MULTINODE;
    if (engine_model_params(m) < 3e9)
        cat |= 1u << VAL_CAT_SMALL;
    if ((long long)c->prompt + c->gen >= 32768)
        cat |= 1u << VAL_CAT_LONG;
    if (m->experts > 0 && p.ep > 1 && p.ep < p.tp)
        cat |= 1u << VAL_CAT_MOE_EP_TP;
    if (m->window > 0)
        cat |= 1u << VAL_CAT_SLIDING;
    return cat;
}

/* The error-band key of an evaluated case (q: its measured / predicted). */
static void val_band_case(const val_case *c, const engine_scenario *s, const engine_result *r,
                          double q, engine_band_case *bc)
{
    bc->q = q;
    bc->moe = s->model->experts > 0;
    bc->dclass = engine_dtype_class(engine_scenario_weight_dtype(s));
    if (c->metric == VAL_TTFT) {
        bc->phase = ENGINE_PHASE_PREFILL;
        bc->compute_bound = r->compute_bound_prefill;
    } else if (is_decode_metric(c->metric)) {
        bc->phase = ENGINE_PHASE_DECODE;
        bc->compute_bound = r->compute_bound_decode;
    } else {
        bc->phase = ENGINE_PHASE_REQUEST;
        bc->compute_bound = r->prefill_compute_s > (s->gen - 1) * r->decode_compute_s
                                ? r->compute_bound_prefill
                                : r->compute_bound_decode;
    }
}

/* Row c's rate from the load simulation of its offline run (c->requests >
 * 0): c->requests requests of c's lengths, all at t = 0, dispatched over the
 * plan's replicas, each admitting up to s's max_num_seqs under its KV cache
 * (the static view's limits) with the framework's scheduler and token
 * budget; the rate is output tokens over the run's whole length, as
 * trtllm-bench reports it (total output tokens / (last request end - first
 * request start), per GPU over the world size: NVIDIA/TensorRT-LLM@
 * 2787769cae353023784dce105d648bcd4d04f4d4:tensorrt_llm/bench/dataclasses/
 * reporting.py).  With fewer requests than a whole number of batches the
 * last ones run at a smaller batch (the drain), and a replica given fewer
 * requests than its batch runs at that many.  0: the simulation failed. */
static double val_offline_rate(const val_case *c, const engine_scenario *s, engine_plan p)
{
    engine_stepper st;
    engine_error err = {{0}};
    if (engine_stepper_init(&st, s, p, &err) != 0 || !st.valid)
        return 0;
    engine_sim_config cfg;
    engine_sim_defaults(&cfg, &st);
    cfg.arrival = ENGINE_SIM_OFFLINE;
    cfg.requests = c->requests;
    cfg.prompt = c->prompt;
    cfg.gen = c->gen;
    cfg.max_num_seqs = engine_max_num_seqs(s);
    cfg.seed = VAL_SERVING_SEED;
    size_t bytes = engine_sim_workspace_bytes(&st, &cfg);
    void *work = bytes ? malloc(bytes) : NULL;
    engine_sim_result r;
    int rc = work ? engine_sim_run(&st, &cfg, work, bytes, &r, &err) : -1;
    free(work);
    if (rc != 0 || r.completed != c->requests)
        return 0;
    return r.output_tokens_per_s / c->gpus;
}

int val_case_scenario(const preset_db *db, const val_case *c, engine_scenario *s,
                      engine_plan *plan, engine_error *err)
{
    if (val_scenario(db, c, s, plan, err) != 0)
        return -1;
    if (c->batch <= 0) {
        /* One rule with eval --batch max: the most the KV cache holds, at
         * most engine_max_num_seqs.  The run's own max batch size (stated,
         * or trtllm-bench's, which it passes as max_batch_size) replaces
         * the profile's max_num_seqs; under attention DP every rank of the
         * TP group schedules its own batch of that many. */
        int tb = c->max_batch > 0 || c->harness != VAL_HARNESS_TRTLLM_BENCH ? 0
                 : val_trtllm_bench_batch(s->model, s->gpu, c->ep > 1 ? c->gpus / c->pp : c->tp,
                                          c->pp, c->prompt, c->gen,
                                          c->weights, c->kv);
        if (c->max_batch > 0 || tb > 0)
            s->max_num_seqs = c->max_batch > 0 ? c->max_batch : tb;
        else
            s->n_graph_sizes = 0; /* the run's max_batch_size unknown (an MLA
                                   * model's trtllm-bench cap is unverified):
                                   * padding is allowed only up to it
                                   * (_get_padded_batch), so not modelled */
        if (c->max_batch <= 0 && c->tp > 1 && c->attn_dp)
            s->max_num_seqs = engine_max_num_seqs(s) * c->tp;
        int b = engine_max_batch(s, *plan, engine_max_num_seqs(s));
        s->batch = b > 0 ? b : 1;
    }
    return 0;
}

void val_run_case(const preset_db *db, const val_case *c, val_result *out)
{
    memset(out, 0, sizeof *out);
    out->c = c;
    engine_scenario s;
    engine_plan p;
    engine_error err = {{0}};
    if (val_case_scenario(db, c, &s, &p, &err) != 0) {
        snprintf(out->error, sizeof out->error, "%s", err.msg);
        return;
    }
    out->batch = s.batch;
    engine_result r;
    if (engine_evaluate(&s, p, &r, &err) != 0 || !r.valid) {
        snprintf(out->error, sizeof out->error, "validation case %.40s: %.300s", c->id,
                 err.msg[0] ? err.msg : r.reason);
        return;
    }
    out->ok = 1;
    out->fits = r.fits;
    out->predicted = val_predicted(c, &s, p, &r, &out->fits);
    if (c->requests > 0 && c->batch <= 0 && c->metric == VAL_TPS_GPU) {
        double rate = val_offline_rate(c, &s, p);
        if (!(rate > 0)) {
            out->ok = 0;
            snprintf(out->error, sizeof out->error,
                     "validation case %.40s: the offline run of %d requests failed", c->id,
                     c->requests);
            return;
        }
        out->predicted = rate;
    }
    out->ratio = out->predicted / c->measured;
    out->q = is_rate(c->metric) ? out->ratio : 1.0 / out->ratio;
    out->categories = c->out_of_scope ? 0 : val_categories(c, &s, p);
    val_band_case(c, &s, &r, out->q, &out->band_case);
}

#define VAL_MAX_CASES 1024

int val_run_all(const preset_db *db, val_result *out, engine_band_table *bands)
{
    engine_band_case bc[VAL_MAX_CASES];
    int n = 0;
    for (int i = 0; i < val_case_count; i++) {
        val_run_case(db, &val_cases[i], &out[i]);
        if (out[i].ok && !val_cases[i].out_of_scope &&
            val_cases[i].spec_method == ENGINE_SPEC_NONE && n < VAL_MAX_CASES)
            bc[n++] = out[i].band_case;
    }
    if (bands && engine_bands_build(bc, n, bands) != 0)
        memset(bands, 0, sizeof *bands);
    return val_case_count;
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof v[0], engine_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* out's figures from k APEs (sorted here), the sum of log speed ratios and
 * the worst ratio: n, median and p90 APE (linear between ranks), worst,
 * speed bias (the geometric mean).  k 0: only n. */
static void stats_finish(val_stats *out, double *ape, int k, double logsum, double worst)
{
    out->n = k;
    if (k == 0)
        return;
    out->median_ape = median_of(ape, k); /* sorts ape */
    double pos = 0.9 * (k - 1);
    int j = (int)floor(pos);
    out->p90_ape = j + 1 < k ? ape[j] + (pos - j) * (ape[j + 1] - ape[j]) : ape[k - 1];
    out->worst_ratio = worst;
    out->speed_bias = exp(logsum / k);
}

/* Whether result i counts in category cat's statistics (VAL_CAT_COUNT: the
 * overall row, speculative speed-ups apart). */
static int in_stats(const val_result *ri, int cat)
{
    if (!ri->ok || ri->c->out_of_scope)
        return 0;
    if (cat < VAL_CAT_COUNT)
        return (ri->categories & (1u << cat)) != 0;
    return ri->c->spec_method == ENGINE_SPEC_NONE;
}

/* val_stats_of, leaving out the cases of document skip (NULL: none). */
static void stats_without(const val_result *r, int n, int cat, const char *skip,
                          val_stats *out)
{
    memset(out, 0, sizeof *out);
    double ape[VAL_MAX_CASES];
    double logsum = 0, worst = 0;
    int k = 0;
    char doc[256];
    for (int i = 0; i < n && k < VAL_MAX_CASES; i++) {
        if (!in_stats(&r[i], cat))
            continue;
        if (skip && !strcmp(val_source_doc(r[i].c->source, doc, sizeof doc), skip))
            continue;
        ape[k++] = fabs(r[i].ratio - 1.0);
        double speed = is_rate(r[i].c->metric) ? r[i].ratio : 1.0 / r[i].ratio;
        logsum += log(speed);
        if (fabs(log(r[i].ratio)) > fabs(log(worst > 0 ? worst : 1)))
            worst = r[i].ratio;
        if (!r[i].fits)
            out->refused++;
    }
    stats_finish(out, ape, k, logsum, worst > 0 ? worst : 1.0);
}

void val_stats_of(const val_result *r, int n, int cat, val_stats *out)
{
    stats_without(r, n, cat, NULL, out);
}

const char *val_source_doc(const char *source, char *buf, size_t len)
{
    size_t end = strcspn(source, ",");
    const char *at = memchr(source, '@', end);
    const char *colon = at ? memchr(at, ':', end - (size_t)(at - source)) : NULL;
    int repo = at && colon && strncmp(source, "http", 4) != 0 &&
               memchr(source, '/', (size_t)(at - source)) != NULL;
    if (repo) /* owner/repo, then :path without the commit */
        snprintf(buf, len, "%.*s%.*s", (int)(at - source), source,
                 (int)(end - (size_t)(colon - source)), colon);
    else
        snprintf(buf, len, "%.*s", (int)end, source);
    return buf;
}

/* An item's weight in a largest-document search (0: not counted) and its
 * source string, for a table of n items at ctx. */
typedef int (*doc_weight_fn)(const void *ctx, int i);
typedef const char *(*doc_source_fn)(const void *ctx, int i);

/* The document (val_source_doc) of the largest total weight: its first
 * item (-1: none), its total into *total. */
static int largest_doc(const void *ctx, int n, doc_weight_fn weight, doc_source_fn source,
                       int *total)
{
    int best = -1, best_n = 0;
    char a[256], b[256];
    for (int i = 0; i < n; i++) {
        if (!weight(ctx, i))
            continue;
        val_source_doc(source(ctx, i), a, sizeof a);
        int seen = 0, k = 0;
        for (int j = 0; j < n && !seen; j++) {
            int w = weight(ctx, j);
            if (!w || strcmp(val_source_doc(source(ctx, j), b, sizeof b), a))
                continue;
            seen = j < i; /* counted at its first item */
            k += w;
        }
        if (!seen && k > best_n) {
            best = i;
            best_n = k;
        }
    }
    *total = best_n;
    return best;
}

static int case_weight(const void *ctx, int i)
{
    return in_stats(&((const val_result *)ctx)[i], VAL_CAT_COUNT);
}

static const char *case_source(const void *ctx, int i)
{
    return ((const val_result *)ctx)[i].c->source;
}

int val_largest_doc(const val_result *r, int n, char *doc, size_t len, int *count,
                    val_stats *rest)
{
    int best = largest_doc(r, n, case_weight, case_source, count);
    if (best < 0)
        return -1;
    val_source_doc(r[best].c->source, doc, len);
    stats_without(r, n, VAL_CAT_COUNT, doc, rest);
    return 0;
}

int val_bands_compute(engine_band_table *out)
{
    preset_db *db = NULL;
    engine_error err = {{0}};
    memset(out, 0, sizeof *out);
    if (preset_db_load("", &db, &err) != 0)
        return -1;
    val_result *r = calloc((size_t)(val_case_count > 0 ? val_case_count : 1), sizeof *r);
    if (!r) {
        preset_db_free(db);
        return -1;
    }
    val_run_all(db, r, out);
    free(r);
    preset_db_free(db);
    return out->n_cases > 0 ? 0 : -1;
}

/* --- the serving rows through the load simulation ---------------------- */

/* Requests one row simulates: the run's published count, else enough for
 * stable means of a closed loop (VAL_SERVING_PER_SLOT per request in
 * flight), at least VAL_SERVING_MIN_REQUESTS. */
static int serving_requests(const val_serving_case *c)
{
    if (c->requests > 0)
        return c->requests;
    int n = c->arrival == VAL_ARRIVAL_CLOSED ? VAL_SERVING_PER_SLOT * (int)c->load : 0;
    return n > VAL_SERVING_MIN_REQUESTS ? n : VAL_SERVING_MIN_REQUESTS;
}

static engine_sim_dist serving_dist(int mean, double spread)
{
    engine_sim_dist d = {ENGINE_SIM_FIXED, 0, 0, 0};
    if (spread > 0) {
        d.kind = ENGINE_SIM_UNIFORM;
        d.lo = (int)lround(mean * (1 - spread));
        d.hi = (int)lround(mean * (1 + spread));
        if (d.lo < 1)
            d.lo = 1;
    }
    return d;
}

/* The simulation's configuration for row c on stepper st: the framework's
 * limits and scheduler (engine_sim_defaults), the row's load and lengths. */
static void serving_config(const val_serving_case *c, const engine_stepper *st,
                           engine_sim_config *cfg)
{
    static const engine_sim_arrival ARRIVAL[VAL_ARRIVAL_COUNT] = {
        ENGINE_SIM_CLOSED, ENGINE_SIM_POISSON, ENGINE_SIM_OFFLINE};
    engine_sim_defaults(cfg, st);
    cfg->arrival = ARRIVAL[c->arrival];
    if (c->arrival == VAL_ARRIVAL_CLOSED)
        cfg->concurrency = (int)c->load;
    if (c->arrival == VAL_ARRIVAL_POISSON)
        cfg->rate = c->load;
    cfg->requests = serving_requests(c);
    cfg->prompt = c->prompt;
    cfg->gen = c->gen;
    cfg->prompt_dist = serving_dist(c->prompt, c->spread);
    cfg->gen_dist = serving_dist(c->gen, c->spread);
    if (c->max_num_seqs > 0)
        cfg->max_num_seqs = c->max_num_seqs;
    if (c->max_batched_tokens > 0)
        cfg->max_batched_tokens = c->max_batched_tokens;
    cfg->recv_interval = c->recv_interval;
    cfg->frontend_batch_s = c->frontend_batch_s;
    cfg->seed = VAL_SERVING_SEED;
}

/* Row c's figure f from the simulation, in the row's statistic. */
static double serving_figure(const val_serving_case *c, const engine_sim_result *r, val_figure f)
{
    if (f == VAL_FIG_TPS)
        return r->output_tokens_per_s;
    const engine_sim_pct *p = f == VAL_FIG_TTFT ? &r->ttft : &r->tpot;
    return c->stat == VAL_STAT_MEAN ? p->mean : p->p50;
}

/* Row c's scenario and plan, through the static case builder. */
static int serving_scenario(const preset_db *db, const val_serving_case *c, engine_scenario *s,
                            engine_plan *plan, engine_error *err)
{
    val_case v = {.id = c->id, .source = c->source, .setup = c->setup, .model = c->model,
                  .gpu = c->gpu, .framework = c->framework, .gpus = c->gpus, .tp = c->tp,
                  .pp = c->pp, .ep = c->ep, .batch = 1, .prompt = c->prompt, .gen = c->gen,
                  .weights = c->weights, .kv = c->kv, .mem_fraction = c->mem_fraction,
                  .max_model_len = c->max_model_len, .eager = c->eager,
                  .async_sched = c->async_sched, .fw_version = c->fw_version,
                  .w4a16_kernel = c->w4a16_kernel};
    return val_scenario(db, &v, s, plan, err);
}

static void serving_fail(val_serving_result *out, const char *id, const char *msg)
{
    out->ok = 0;
    snprintf(out->error, sizeof out->error, "serving case %.40s: %.300s", id, msg);
}

void val_serving_run_case(const preset_db *db, int i, val_serving_result *out)
{
    memset(out, 0, sizeof *out);
    if (i < 0 || i >= val_serving_case_count)
        return;
    const val_serving_case *c = &val_serving_cases[i];
    out->c = c;
    out->saturated = val_serving_saturated(i);
    engine_scenario s;
    engine_plan plan;
    engine_error err = {{0}};
    engine_stepper st;
    if (serving_scenario(db, c, &s, &plan, &err) != 0 ||
        engine_stepper_init(&st, &s, plan, &err) != 0)
        return serving_fail(out, c->id, err.msg);
    if (!st.valid)
        return serving_fail(out, c->id, st.reason);
    engine_sim_config cfg;
    serving_config(c, &st, &cfg);
    size_t bytes = engine_sim_workspace_bytes(&st, &cfg);
    void *work = bytes ? malloc(bytes) : NULL;
    engine_sim_result r, rs;
    int rc = work ? engine_sim_run(&st, &cfg, work, bytes, &r, &err) : -1;
    cfg.closed_start = ENGINE_SIM_START_STEADY;
    int steady = rc == 0 && c->client == VAL_CLIENT_GENAI_PERF &&
                 c->arrival == VAL_ARRIVAL_CLOSED &&
                 engine_sim_run(&st, &cfg, work, bytes, &rs, &err) == 0;
    free(work);
    if (rc != 0)
        return serving_fail(out, c->id, work || bytes ? err.msg : "out of memory");
    out->ttft_steady = steady ? serving_figure(c, &rs, VAL_FIG_TTFT) : 0;
    out->ok = 1;
    out->overloaded = r.overloaded;
    out->requests = r.requests;
    out->mean_batch = r.mean_batch;
    out->max_batch = r.max_batch;
    for (int f = 0; f < VAL_FIG_COUNT; f++) {
        double m = val_serving_measured(c, (val_figure)f);
        out->predicted[f] = serving_figure(c, &r, (val_figure)f);
        out->ratio[f] = m > 0 ? out->predicted[f] / m : 0;
    }
}

int val_serving_run_all(const preset_db *db, val_serving_result *out)
{
    for (int i = 0; i < val_serving_case_count; i++)
        val_serving_run_case(db, i, &out[i]);
    return val_serving_case_count;
}

/* A serving row's figures counted under knee (0 all, 1 below, 2 past). */
static int serving_in(const val_serving_result *ri, int knee)
{
    return !((knee == 1 && ri->saturated) || (knee == 2 && !ri->saturated));
}

/* val_serving_stats_of, leaving out the rows of document skip (NULL: none). */
static void serving_stats(const val_serving_result *r, int n, unsigned figures, int knee,
                          const char *skip, val_stats *out)
{
    memset(out, 0, sizeof *out);
    double ape[VAL_SERVING_MAX_FIGURES];
    double logsum = 0, worst = 1;
    int k = 0;
    char doc[256];
    for (int i = 0; i < n; i++) {
        if (!r[i].ok) {
            out->refused++;
            continue;
        }
        if (!serving_in(&r[i], knee))
            continue;
        if (skip && !strcmp(val_source_doc(r[i].c->source, doc, sizeof doc), skip))
            continue;
        for (int f = 0; f < VAL_FIG_COUNT && k < VAL_SERVING_MAX_FIGURES; f++) {
            double q = r[i].ratio[f];
            if (!(figures & (1u << f)) || !(q > 0))
                continue;
            ape[k++] = fabs(q - 1.0);
            logsum += log(f == VAL_FIG_TPS ? q : 1.0 / q);
            if (fabs(log(q)) > fabs(log(worst)))
                worst = q;
        }
    }
    stats_finish(out, ape, k, logsum, worst);
}

void val_serving_stats_of(const val_serving_result *r, int n, unsigned figures, int knee,
                          val_stats *out)
{
    serving_stats(r, n, figures, knee, NULL, out);
}

/* The published figures of row ri that the statistics above would count. */
static int serving_figures(const val_serving_result *ri, unsigned figures, int knee)
{
    int k = 0;
    if (!ri->ok || !serving_in(ri, knee))
        return 0;
    for (int f = 0; f < VAL_FIG_COUNT; f++)
        k += (figures & (1u << f)) && ri->ratio[f] > 0;
    return k;
}

/* The figures a serving largest-document search counts (largest_doc). */
typedef struct serving_doc_ctx {
    const val_serving_result *r;
    unsigned figures;
    int knee;
} serving_doc_ctx;

static int serving_weight(const void *ctx, int i)
{
    const serving_doc_ctx *q = ctx;
    return serving_figures(&q->r[i], q->figures, q->knee);
}

static const char *serving_source(const void *ctx, int i)
{
    return ((const serving_doc_ctx *)ctx)->r[i].c->source;
}

int val_serving_largest_doc(const val_serving_result *r, int n, unsigned figures, int knee,
                            char *doc, size_t len, int *count, val_stats *rest)
{
    serving_doc_ctx q = {r, figures, knee};
    int best = largest_doc(&q, n, serving_weight, serving_source, count);
    if (best < 0)
        return -1;
    val_source_doc(r[best].c->source, doc, len);
    serving_stats(r, n, figures, knee, doc, rest);
    return 0;
}

int val_serving_steady_stats(const val_serving_result *r, int n, val_stats *burst,
                             val_stats *steady)
{
    double ab[VAL_SERVING_MAX_FIGURES], as[VAL_SERVING_MAX_FIGURES];
    double lb = 0, ls = 0, wb = 1, ws = 1;
    int k = 0, between = 0;
    for (int i = 0; i < n && k < VAL_SERVING_MAX_FIGURES; i++) {
        const val_serving_case *c = r[i].c;
        double m = c ? c->ttft_s : 0, qb = r[i].ratio[VAL_FIG_TTFT];
        if (!r[i].ok || r[i].saturated || !(r[i].ttft_steady > 0) || !(m > 0) || !(qb > 0) ||
            c->load <= c->gpus / (c->tp * c->pp)) /* one client a replica: no start to differ */
            continue;
        double qs = r[i].ttft_steady / m;
        ab[k] = fabs(qb - 1);
        as[k++] = fabs(qs - 1);
        lb += log(1 / qb);
        ls += log(1 / qs);
        wb = fabs(log(qb)) > fabs(log(wb)) ? qb : wb;
        ws = fabs(log(qs)) > fabs(log(ws)) ? qs : ws;
        between += (qb - 1) * (qs - 1) <= 0;
    }
    memset(burst, 0, sizeof *burst);
    memset(steady, 0, sizeof *steady);
    stats_finish(burst, ab, k, lb, wb);
    stats_finish(steady, as, k, ls, ws);
    return between;
}
