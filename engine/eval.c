/*
 * eval.c - one plan under one scenario: validity, memory per GPU, prefill
 * and decode times (compute time + memory time at achievable rates), the
 * communication of each form of parallelism, efficiency against one ideal
 * GPU, regime and cost.  Formulas: DESIGN.md, "The model".
 *
 * Placement: inside a replica, GPUs are numbered tp-fastest then by
 * pipeline stage, so a TP group fills a node before spilling over and
 * stage boundaries cross nodes once tp*pp exceeds the node size.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "internal.h"

/* Achievable-efficiency constants in use (calibration or GPU defaults). */
typedef struct perf_consts {
    double flops;    /* achievable FLOP/s for the weight dtype */
    double bw;       /* achievable bytes/s */
    double overhead; /* seconds per layer per step */
} perf_consts;

/* Time of one pipeline-stage step, split into its parts. */
typedef struct stage_time {
    double compute; /* compute + memory time + per-layer overhead */
    double comm;    /* TP all-reduces, EP all-to-alls, p2p to the next stage */
} stage_time;

/* Everything a plan's timing needs, derived once. */
typedef struct plan_ctx {
    const engine_scenario *s;
    const engine_model *m;
    engine_plan p;
    model_shape sh;
    perf_consts pc;
    int per_node;        /* 0: unlimited */
    double stage_layers; /* layers in the largest stage */
    double stage_frac;   /* stage_layers / L */
    double w_b, kv_b, a_b;
    double head_params_gpu; /* output head held by the last stage's GPU */
    int tp_hier;            /* TP group spans nodes */
    int pp_cross;           /* some stage boundary crosses nodes */
    int ep_per_node;        /* node size seen by the EP group */
} plan_ctx;

double engine_roofline_s(double compute_s, double memory_s)
{
    return compute_s + memory_s;
}

void engine_scenario_defaults(engine_scenario *s)
{
    memset(s, 0, sizeof *s);
    s->gpus = 1;
    s->usable_fraction = 0.9;         /* vLLM's default gpu_memory_utilization */
    s->runtime_overhead_bytes = 2e9;  /* seed 004, step 1: "+ 2 GB overhead" */
    s->batch = 1;
    s->prompt = 1024;
    s->gen = 256;
    s->weight_dtype = ENGINE_FP16;
    s->kv_dtype = ENGINE_FP16;
    s->act_dtype = ENGINE_FP16;
    s->schedule = ENGINE_SCHED_GPIPE;
    s->interleave = 2;
    s->objective = ENGINE_OBJ_LATENCY;
    s->jitter_sigma = 0.12; /* seed 000's Monte Carlo */
    s->straggler_prob = 0.002;
    s->straggler_slowdown = 1.5;
    s->mc_samples = 1000;
    s->seed = 42;
}

static int fail(engine_error *err, const char *field, const char *why)
{
    if (err)
        snprintf(err->msg, sizeof err->msg, "scenario: %s: %s", field, why);
    return -1;
}

static int finite_pos(double x)
{
    return isfinite(x) && x > 0;
}

int engine_scenario_check(const engine_scenario *s, engine_error *err)
{
    if (!s)
        return fail(err, "scenario", "missing");
    if (!s->model)
        return fail(err, "model", "no model selected");
    if (!s->gpu)
        return fail(err, "gpu", "no GPU selected");
    if (!s->intra)
        return fail(err, "link", "no interconnect selected");
    const engine_model *m = s->model;
    if (m->layers < 1 || m->hidden < 1 || m->heads < 1 || m->kv_heads < 1 || m->vocab < 1 ||
        (!m->mla && m->head_dim < 1) || m->ffn < 0 || (m->experts > 0 && m->top_k < 1))
        return fail(err, "model", "architecture has a zero or negative dimension");
    const engine_gpu *g = s->gpu;
    if (!finite_pos(g->memory_bytes) || !finite_pos(g->hbm_bytes_per_s) ||
        !finite_pos(g->peak_flops[ENGINE_FP16]))
        return fail(err, "gpu", "memory, bandwidth and FP16 peak must be positive");
    if (!(g->eta_compute > 0 && g->eta_compute <= 1) || !(g->eta_memory > 0 && g->eta_memory <= 1) ||
        !(g->eta_compute_fp8 >= 0 && g->eta_compute_fp8 <= 1))
        return fail(err, "gpu", "achievable fractions must be in (0, 1]");
    if (!finite_pos(s->intra->bytes_per_s) || !(s->intra->alpha_s >= 0) ||
        !(s->intra->base_s >= 0) ||
        (s->inter && (!finite_pos(s->inter->bytes_per_s) || !(s->inter->alpha_s >= 0) ||
                      !(s->inter->base_s >= 0))))
        return fail(err, "link", "bandwidth must be positive and latencies non-negative");
    if (s->gpus < 1 || s->gpus > (1 << 20))
        return fail(err, "gpus", "must be 1..1048576");
    if (s->gpus_per_node < 0)
        return fail(err, "gpus_per_node", "must be >= 0");
    if (!(s->vram_bytes >= 0) || !isfinite(s->vram_bytes))
        return fail(err, "vram", "must be a finite non-negative size");
    if (!(s->usable_fraction > 0 && s->usable_fraction <= 1))
        return fail(err, "usable_fraction", "must be in (0, 1]");
    if (!(s->runtime_overhead_bytes >= 0) || !isfinite(s->runtime_overhead_bytes))
        return fail(err, "runtime_overhead", "must be a finite non-negative size");
    if (s->batch < 1 || s->batch > (1 << 24))
        return fail(err, "batch", "must be 1..16777216");
    if (s->prompt < 1 || s->prompt > 100000000)
        return fail(err, "prompt", "must be 1..100000000 tokens");
    if (s->gen < 1 || s->gen > 100000000)
        return fail(err, "gen", "must be 1..100000000 tokens");
    if ((unsigned)s->weight_dtype >= ENGINE_DTYPE_COUNT ||
        (unsigned)s->kv_dtype >= ENGINE_DTYPE_COUNT || (unsigned)s->act_dtype >= ENGINE_DTYPE_COUNT)
        return fail(err, "dtype", "unknown data type");
    if (s->microbatches < 0 || s->microbatches > (1 << 20))
        return fail(err, "microbatches", "must be 0..1048576 (0 = one per stage)");
    if ((unsigned)s->schedule >= ENGINE_SCHED_COUNT)
        return fail(err, "schedule", "unknown pipeline schedule");
    if (s->interleave < 1 || s->interleave > 64)
        return fail(err, "interleave", "must be 1..64");
    if ((unsigned)s->objective >= ENGINE_OBJ_COUNT)
        return fail(err, "objective", "unknown objective");
    if (!(s->jitter_sigma >= 0 && s->jitter_sigma <= 3))
        return fail(err, "jitter", "sigma must be in [0, 3]");
    if (!(s->straggler_prob >= 0 && s->straggler_prob <= 1) ||
        !(s->straggler_slowdown >= 1 && s->straggler_slowdown <= 100))
        return fail(err, "straggler", "probability in [0, 1], slowdown in [1, 100]");
    if (s->mc_samples < 0 || s->mc_samples > 1000000)
        return fail(err, "samples", "must be 0..1000000");
    return 0;
}

static perf_consts perf_for(const engine_scenario *s)
{
    const engine_gpu *g = s->gpu;
    double eta_c = g->eta_compute, eta_m = g->eta_memory, ovh = g->layer_overhead_s;
    if (s->calib && s->calib->measured) {
        eta_c = s->calib->eta_compute;
        eta_m = s->calib->eta_memory;
        ovh = s->calib->layer_overhead_s;
    }
    /* FP8 GEMMs reach a lower fraction of their (doubled) peak: MAMF 70.9 %
     * on H100 against 80.3 % for BF16.  A calibration measures FP16 only,
     * so the preset's FP8 fraction stays. */
    if (s->weight_dtype == ENGINE_FP8 && g->eta_compute_fp8 > 0 &&
        g->peak_flops[ENGINE_FP8] > 0)
        eta_c = g->eta_compute_fp8;
    /* No native support for the dtype: weight-only quantization, FP16 math. */
    double peak = g->peak_flops[s->weight_dtype];
    if (!(peak > 0))
        peak = g->peak_flops[ENGINE_FP16];
    perf_consts pc = {peak * eta_c, g->hbm_bytes_per_s * eta_m, ovh > 0 ? ovh : 0.0};
    return pc;
}

/* Which plans are possible at all; reason filled when not. */
static int plan_valid(const engine_scenario *s, engine_plan p, char *reason, size_t len)
{
    const engine_model *m = s->model;
    if (p.tp < 1 || p.pp < 1 || p.dp < 1 || p.ep < 1) {
        snprintf(reason, len, "degrees must be >= 1");
        return 0;
    }
    if ((long long)p.tp * p.pp * p.dp != s->gpus) {
        snprintf(reason, len, "tp*pp*dp = %lld, not the %d GPUs", (long long)p.tp * p.pp * p.dp,
                 s->gpus);
        return 0;
    }
    if (m->heads % p.tp) {
        snprintf(reason, len, "tp=%d does not divide %d attention heads", p.tp, m->heads);
        return 0;
    }
    if (!m->mla && m->kv_heads % p.tp && p.tp % m->kv_heads) {
        snprintf(reason, len, "tp=%d neither divides nor is a multiple of %d KV heads", p.tp,
                 m->kv_heads);
        return 0;
    }
    if (p.pp > m->layers) {
        snprintf(reason, len, "pp=%d exceeds %d layers", p.pp, m->layers);
        return 0;
    }
    if (p.ep > 1) {
        if (m->experts <= 0) {
            snprintf(reason, len, "ep=%d needs a mixture-of-experts model", p.ep);
            return 0;
        }
        if (m->experts % p.ep) {
            snprintf(reason, len, "ep=%d does not divide %d experts", p.ep, m->experts);
            return 0;
        }
        if (p.ep % p.tp || (p.tp * p.dp) % p.ep) {
            snprintf(reason, len, "ep=%d must be a multiple of tp=%d dividing tp*dp=%d", p.ep, p.tp,
                     p.tp * p.dp);
            return 0;
        }
    }
    reason[0] = '\0';
    return 1;
}

static void ctx_init(plan_ctx *c, const engine_scenario *s, engine_plan p)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->m = s->model;
    c->p = p;
    model_shape_compute(s->model, &c->sh);
    c->pc = perf_for(s);
    c->per_node = s->gpus_per_node > 0 ? s->gpus_per_node : 0;
    c->stage_layers = ceil((double)c->m->layers / p.pp);
    c->stage_frac = c->stage_layers / c->m->layers;
    c->w_b = engine_dtype_bytes(s->weight_dtype);
    c->kv_b = engine_dtype_bytes(s->kv_dtype);
    c->a_b = engine_dtype_bytes(s->act_dtype);
    /* With pp > 1 the last stage holds the head even when it is tied. */
    double head = c->sh.head > 0 || p.pp > 1 ? (double)c->m->vocab * c->m->hidden : 0.0;
    c->head_params_gpu = head / p.tp;
    const engine_link *inter = s->inter;
    int k = c->per_node;
    c->tp_hier = inter && k > 0 && p.tp > k;
    c->pp_cross = 0;
    if (inter && k > 0 && p.pp > 1) {
        for (int j = 1; j < p.pp && !c->pp_cross; j++)
            if (((long long)j * p.tp - 1) / k != ((long long)j * p.tp) / k)
                c->pp_cross = 1;
    }
    /* The EP group takes ep/tp replicas' worth of one stage. */
    long long span = (long long)(p.ep / p.tp) * p.tp * p.pp;
    c->ep_per_node = (inter && k > 0 && span > k) ? (k / p.pp > 0 ? k / p.pp : 1) : 0;
}

/* Weight parameters held by one GPU of the largest stage (not counting the
 * embedding/head, which are added by the caller where they live). */
static double stage_body_params(const plan_ctx *c)
{
    const model_shape *sh = &c->sh;
    double tp_sharded = sh->attn_all + sh->dense_mlp + sh->shared;
    double experts = sh->experts / (c->p.ep > 1 ? c->p.ep : c->p.tp);
    return c->stage_frac * (tp_sharded / c->p.tp + experts + sh->router) + sh->final_norm;
}

static void memory_compute(const plan_ctx *c, engine_memory *mem)
{
    const engine_scenario *s = c->s;
    const engine_model *m = c->m;
    const engine_plan p = c->p;
    double embed = c->sh.embed_in / p.tp;
    double edges = p.pp > 1 ? fmax(embed, c->head_params_gpu) : embed + c->head_params_gpu;
    mem->weights_bytes = (stage_body_params(c) + edges) * c->w_b;

    double ctx = (double)s->prompt + s->gen;
    mem->kv_bytes = (double)s->batch * ctx * c->stage_layers *
                    model_kv_bytes_per_token_layer(m, s->kv_dtype, p.tp);

    /* Prefill workspace of one micro-batch: residual + norm output, the
     * sharded QKV and MLP intermediates, and FP32 logits of the last tokens.
     * FlashAttention is assumed: no S x S score matrix is materialised. */
    int mb = p.pp > 1 ? (s->microbatches > 0 ? s->microbatches : p.pp) : 1;
    double tokens = (double)s->batch * s->prompt / mb;
    if (tokens < 1)
        tokens = 1;
    double qkv = m->mla ? (double)m->heads * (c->sh.attn_qk_dim * 2 + c->sh.attn_v_dim)
                        : ((double)m->heads + 2.0 * m->kv_heads) * m->head_dim;
    double mlp_w = m->experts > 0 ? fmax((double)m->ffn, (double)m->top_k * (m->moe_ffn > 0 ? m->moe_ffn : m->ffn))
                                  : (double)m->ffn;
    double inter = (m->gated_mlp ? 2.0 : 1.0) * mlp_w;
    double per_token = 2.0 * m->hidden + (qkv + inter) / p.tp;
    double seqs = (double)s->batch / mb;
    if (seqs < 1)
        seqs = 1;
    mem->activation_bytes = tokens * per_token * c->a_b + seqs * (double)m->vocab / p.tp * 4.0;
    mem->overhead_bytes = s->runtime_overhead_bytes;
    mem->per_gpu_bytes =
        mem->weights_bytes + mem->kv_bytes + mem->activation_bytes + mem->overhead_bytes;
    double vram = s->vram_bytes > 0 ? s->vram_bytes : s->gpu->memory_bytes;
    mem->capacity_bytes = vram * s->usable_fraction;
    mem->fits = mem->per_gpu_bytes <= mem->capacity_bytes;
}

/* Expected number of distinct experts hit when t tokens each pick k of E
 * uniformly: E * (1 - (1 - k/E)^t). */
static double experts_touched(double E, double k, double t)
{
    if (E <= 0)
        return 0;
    double miss = 1.0 - k / E;
    if (miss <= 0)
        return E;
    return E * (1.0 - exp(t * log(miss)));
}

/* One stage step for a micro-batch of `seqs` sequences of `t` new tokens
 * each, attending to `ctx` tokens on average, of which `kv_read` are read
 * from the KV cache. */
static stage_time stage_step(const plan_ctx *c, double seqs, double t, double ctx, double kv_read)
{
    const engine_scenario *s = c->s;
    const engine_model *m = c->m;
    const model_shape *sh = &c->sh;
    const engine_plan p = c->p;
    stage_time st = {0, 0};
    double T = seqs * t;
    double L = c->stage_layers;

    /* FLOPs per GPU: 2 x active parameters per token + attention. */
    double dense = c->stage_frac * (sh->attn_all + sh->dense_mlp + sh->shared) / p.tp +
                   c->stage_frac * sh->router + sh->final_norm;
    double experts_active = c->stage_frac * sh->moe_layers * (double)m->top_k * sh->expert_one / p.tp;
    double flops = 2.0 * T * (dense + experts_active);
    flops += 2.0 * seqs * c->head_params_gpu; /* logits of the last token only */
    flops += 2.0 * T * ctx * L * ((double)m->heads / p.tp) * (sh->attn_qk_dim + sh->attn_v_dim);

    /* Bytes per GPU: the stage's weights once per step (only the experts the
     * tokens hit), the KV cache read, the new KV written. */
    double experts_gpu = 0;
    if (sh->moe_layers > 0) {
        double group_tokens = T * (p.ep > 1 ? (double)p.ep / p.tp : 1.0);
        double frac = experts_touched(m->experts, m->top_k, group_tokens) / m->experts;
        experts_gpu = c->stage_frac * sh->experts / (p.ep > 1 ? p.ep : p.tp) * frac;
    }
    double weights = (dense + experts_gpu + c->head_params_gpu) * c->w_b;
    double kv_layer = model_kv_bytes_per_token_layer(m, s->kv_dtype, p.tp);
    double bytes = weights + (seqs * kv_read + T) * kv_layer * L;

    st.compute = engine_roofline_s(flops / c->pc.flops, bytes / c->pc.bw) + L * c->pc.overhead;

    const engine_link *intra = s->intra, *inter = s->inter;
    double act = T * m->hidden * c->a_b;
    if (p.tp > 1) /* two all-reduces per layer (attention out, MLP out) */
        st.comm += 2.0 * L *
                   engine_comm_time(ENGINE_OP_ALLREDUCE, intra, inter, p.tp,
                                    c->tp_hier ? c->per_node : 0, act);
    if (p.ep > 1 && sh->moe_layers > 0) /* dispatch + combine per MoE layer */
        st.comm += 2.0 * c->stage_frac * sh->moe_layers *
                   engine_comm_time(ENGINE_OP_ALLTOALL, intra, inter, p.ep, c->ep_per_node,
                                    act * m->top_k / p.tp);
    if (p.pp > 1) /* each TP rank sends its 1/tp slice to the next stage */
        st.comm += engine_comm_time(ENGINE_OP_P2P, intra, inter, 2, c->pp_cross ? 1 : 0,
                                    act / p.tp);
    return st;
}

/* Times of a plan, filled into r (memory and validity untouched). */
static void times_compute(const plan_ctx *c, engine_result *r)
{
    const engine_scenario *s = c->s;
    const engine_plan p = c->p;
    const double B = s->batch, S = s->prompt, G = s->gen;

    /* Prefill: m micro-batches through pp stages, (m + pp - 1) stage steps
     * (the bubble term divided by v when interleaved). */
    double m = 1;
    if (p.pp > 1) {
        m = s->microbatches > 0 ? s->microbatches : p.pp;
        if (m > B * S)
            m = B * S;
    }
    int v = s->schedule == ENGINE_SCHED_INTERLEAVED ? s->interleave : 1;
    stage_time pf = stage_step(c, B / m, S, (S + 1) / 2, 0);
    double pf_t = pf.compute + pf.comm;
    r->prefill_compute_s = m * pf.compute;
    r->prefill_comm_s = m * pf.comm;
    r->prefill_bubble_s = (p.pp - 1) * pf_t / v;
    if (v > 1 && p.pp > 1) /* v-1 extra stage hops per micro-batch chain */
        r->prefill_bubble_s += (v - 1) * p.pp *
                               engine_comm_time(ENGINE_OP_P2P, s->intra, s->inter, 2,
                                                c->pp_cross ? 1 : 0,
                                                B / m * S * c->m->hidden * c->a_b / p.tp);
    r->ttft_s = r->prefill_compute_s + r->prefill_comm_s + r->prefill_bubble_s;
    r->bubble_fraction = engine_bubble_fraction(p.pp, (int)fmin(m, 1e9), s->schedule, v);

    /* Decode at mid-generation: min(B, pp) micro-batches in flight; every
     * token still crosses every stage, so a step is pp stage steps. */
    double md = B < p.pp ? B : p.pp;
    double ctx = S + G / 2;
    stage_time dc = stage_step(c, B / md, 1, ctx, ctx);
    double dc_t = dc.compute + dc.comm;
    r->decode_compute_s = md * dc.compute;
    r->decode_comm_s = md * dc.comm;
    r->decode_bubble_s = (p.pp - md) * dc_t;
    r->itl_s = r->decode_compute_s + r->decode_comm_s + r->decode_bubble_s;

    r->e2e_s = r->ttft_s + G * r->itl_s;
    r->tokens_per_s = p.dp * B * G / r->e2e_s;
    r->compute_s = r->prefill_compute_s + G * r->decode_compute_s;
    r->comm_s = r->prefill_comm_s + G * r->decode_comm_s;
}

int engine_evaluate(const engine_scenario *s, engine_plan plan, engine_result *out,
                    engine_error *err)
{
    if (engine_scenario_check(s, err) != 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->plan = plan;
    out->regime = '-';
    if (!plan_valid(s, plan, out->reason, sizeof out->reason))
        return 0;
    out->valid = 1;

    plan_ctx c;
    ctx_init(&c, s, plan);
    memory_compute(&c, &out->mem);
    out->fits = out->mem.fits;
    if (!out->fits)
        snprintf(out->reason, sizeof out->reason,
                 "needs %.1f GB per GPU, capacity %.1f GB", out->mem.per_gpu_bytes / 1e9,
                 out->mem.capacity_bytes / 1e9);
    times_compute(&c, out);

    /* One ideal GPU: same work, no communication, no bubble, no capacity.
     * An EP group spanning x = ep/tp replicas batches their tokens through
     * shared experts, so the ideal GPU is given the pooled batch x*B too;
     * otherwise pooling would look like a superlinear speedup. */
    engine_scenario pooled = *s;
    if (plan.ep > plan.tp)
        pooled.batch = s->batch * (plan.ep / plan.tp);
    plan_ctx ideal;
    engine_plan one = {1, 1, 1, 1};
    ctx_init(&ideal, &pooled, one);
    engine_result r1;
    memset(&r1, 0, sizeof r1);
    times_compute(&ideal, &r1);
    out->speedup = out->tokens_per_s / r1.tokens_per_s;
    out->efficiency = out->speedup / s->gpus;

    if (out->comm_s > 0) {
        out->compute_comm_ratio = out->compute_s / out->comm_s;
        out->regime = out->compute_comm_ratio >= 1.0 ? 'C' : 'M';
    }
    if (s->gpu->price_per_hour > 0)
        out->cost_per_mtok_usd =
            s->gpus * s->gpu->price_per_hour / (out->tokens_per_s * 3600.0) * 1e6;
    out->p50_s = out->p99_s = out->e2e_s; /* until engine_tails runs */
    return 0;
}

int engine_plan_memory(const engine_scenario *s, engine_plan plan, engine_memory *mem,
                       char *reason, size_t len)
{
    if (!plan_valid(s, plan, reason, len))
        return 0;
    plan_ctx c;
    ctx_init(&c, s, plan);
    memory_compute(&c, mem);
    return 1;
}
