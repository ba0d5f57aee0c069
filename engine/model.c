/*
 * model.c - architecture arithmetic: parameter counts (total and active per
 * token), weight bytes, KV-cache bytes per token, the names and sizes of the
 * data types, and the seed's decode floor.  Everything here follows the
 * "Parameters per layer" and "KV cache per token" formulas of README.md, "The model".
 */
#include <string.h>
#include <strings.h>

#include "engine.h"
#include "internal.h"

static const char *const DTYPE_NAMES[ENGINE_DTYPE_COUNT] = {"fp16", "bf16", "fp8", "int8",
                                                            "int4", "fp4"};
static const double DTYPE_BYTES[ENGINE_DTYPE_COUNT] = {2.0, 2.0, 1.0, 1.0, 0.5, 0.5};
static const char *const LINK_KIND_NAMES[ENGINE_LINK_KIND_COUNT] = {"other", "nvlink", "xgmi",
                                                                    "pcie", "net"};
static const char *const PHASE_NAMES[ENGINE_PHASE_COUNT] = {"prefill", "decode", "request"};
static const char *const SCHED_NAMES[ENGINE_SCHED_COUNT] = {"gpipe", "1f1b", "interleaved"};
static const char *const OBJ_NAMES[ENGINE_OBJ_COUNT] = {"latency", "throughput", "cost"};
static const char *const OP_NAMES[ENGINE_OP_COUNT] = {"allreduce", "allgather", "reducescatter",
                                                      "alltoall", "p2p"};

static int parse_name(const char *s, const char *const *names, int n)
{
    if (!s)
        return -1;
    for (int i = 0; i < n; i++)
        if (!strcasecmp(s, names[i]))
            return i;
    return -1;
}

/* engine_<fn>_name (its name, "?" out of range) and engine_<fn>_parse (0,
 * or -1 for a name not in the table, case-insensitive) of an enum named by
 * a table. */
#define NAMED_ENUM(fn, type, names, count)                                                  \
    const char *engine_##fn##_name(type v)                                                   \
    {                                                                                         \
        return (unsigned)v < (count) ? names[v] : "?";                                        \
    }                                                                                         \
    int engine_##fn##_parse(const char *s, type *out)                                         \
    {                                                                                         \
        int i = parse_name(s, names, (count));                                                \
        if (i < 0)                                                                            \
            return -1;                                                                        \
        *out = (type)i;                                                                       \
        return 0;                                                                             \
    }

NAMED_ENUM(dtype, engine_dtype, DTYPE_NAMES, ENGINE_DTYPE_COUNT)

double engine_dtype_bytes(engine_dtype d)
{
    return (unsigned)d < ENGINE_DTYPE_COUNT ? DTYPE_BYTES[d] : 2.0;
}

NAMED_ENUM(schedule, engine_schedule, SCHED_NAMES, ENGINE_SCHED_COUNT)

NAMED_ENUM(objective, engine_objective, OBJ_NAMES, ENGINE_OBJ_COUNT)

NAMED_ENUM(collective, engine_collective, OP_NAMES, ENGINE_OP_COUNT)

static const char *const W4A16_NAMES[ENGINE_W4A16_COUNT] = {"triton", "marlin"};

NAMED_ENUM(w4a16, engine_w4a16, W4A16_NAMES, ENGINE_W4A16_COUNT)

static const char *const A2A_NAMES[ENGINE_A2A_COUNT] = {"nccl", "deepep", "deepep-ll"};

NAMED_ENUM(a2a, engine_a2a, A2A_NAMES, ENGINE_A2A_COUNT)

static const char *const SAMPLING_NAMES[ENGINE_SAMPLING_COUNT] = {"plain", "top-p", "full"};

NAMED_ENUM(sampling, engine_sampling, SAMPLING_NAMES, ENGINE_SAMPLING_COUNT)

NAMED_ENUM(link_kind, engine_link_kind, LINK_KIND_NAMES, ENGINE_LINK_KIND_COUNT)

const char *engine_phase_name(engine_phase p)
{
    return (unsigned)p < ENGINE_PHASE_COUNT ? PHASE_NAMES[p] : "?";
}

const char *engine_warning_text(unsigned bit)
{
    switch (bit) {
    case ENGINE_WARN_TP_CROSS_NODE:
        return "a TP group spans NVLink domains: its all-reduces cross the scale-out link";
    case ENGINE_WARN_EP_CROSS_NODE:
        return "an EP group spans NVLink domains: its all-to-alls cross the scale-out link";
    case ENGINE_WARN_QUEUED:
        return "the concurrency is more than max_num_seqs a replica: each replica runs "
               "max_num_seqs sequences, the rest queue (their wait is not in TTFT)";
    default:
        return "";
    }
}

engine_dclass engine_dtype_class(engine_dtype d)
{
    switch (d) {
    case ENGINE_FP8:
    case ENGINE_INT8:
        return ENGINE_DCLASS_FP8;
    case ENGINE_INT4:
    case ENGINE_FP4:
        return ENGINE_DCLASS_4;
    default:
        return ENGINE_DCLASS_16;
    }
}

double engine_weight_elem_bytes(engine_dtype d, int group)
{
    if (d == ENGINE_INT4) {
        /* an fp16 scale and a 4-bit zero point per group (GPTQ, AWQ) */
        double gsz = group > 0 ? group : 128;
        return 0.5 + (2.0 + 0.5) / gsz;
    }
    if (d == ENGINE_FP4) {
        /* NVFP4: an E4M3 scale per 16 values (the per-tensor FP32 scale is noise) */
        double gsz = group > 0 ? group : 16;
        return 0.5 + 1.0 / gsz;
    }
    return engine_dtype_bytes(d);
}

/* Layers of [start, start + n) that the predicate counts: after `lead`
 * leading layers, every `every`-th one (every <= 1: all of them). */
static int count_periodic(int start, int n, int lead, int every)
{
    int c = 0;
    for (int i = start; i < start + n; i++)
        if (i >= lead && (every <= 1 || (i - lead + 1) % every == 0))
            c++;
    return c;
}

int model_moe_layers_in(const engine_model *m, int start, int n)
{
    if (m->experts <= 0)
        return 0;
    return count_periodic(start, n, m->dense_layers, m->moe_every);
}

int model_local_layers_in(const engine_model *m, int start, int n)
{
    if (m->window <= 0)
        return 0;
    return n - (m->global_every > 0 ? count_periodic(start, n, 0, m->global_every) : 0);
}

double model_kv_tokens(const engine_model *m, int local, double ctx)
{
    return local && m->window > 0 && ctx > m->window ? (double)m->window : ctx;
}

/* Width of one expert's MLP. */
static double expert_ffn(const engine_model *m)
{
    return m->moe_ffn > 0 ? m->moe_ffn : m->ffn;
}

static double mlp_params(const engine_model *m, double width)
{
    return (m->gated_mlp ? 3.0 : 2.0) * m->hidden * width;
}

void model_shape_compute(const engine_model *m, model_shape *sh)
{
    const double d = m->hidden, h = m->heads, g = m->kv_heads, dh = m->head_dim;
    memset(sh, 0, sizeof *sh);
    if (m->mla) {
        const double qk = (double)m->qk_nope_dim + m->qk_rope_dim;
        double q = m->q_lora_rank > 0 ? d * m->q_lora_rank + m->q_lora_rank +
                                            (double)m->q_lora_rank * h * qk
                                      : d * h * qk;
        double kv = d * ((double)m->kv_lora_rank + m->qk_rope_dim) + m->kv_lora_rank +
                    (double)m->kv_lora_rank * h * ((double)m->qk_nope_dim + m->v_head_dim);
        sh->attn_out = h * m->v_head_dim * d;
        sh->attn = q + kv + sh->attn_out;
        /* The down-projections (d -> q_lora, d -> kv_lora + rope) and their
         * norms are replicated on every TP rank. */
        sh->attn_rep = d * ((double)m->kv_lora_rank + m->qk_rope_dim) + m->kv_lora_rank +
                       (m->q_lora_rank > 0 ? d * m->q_lora_rank + m->q_lora_rank : 0.0);
        sh->attn_qk_dim = qk;
        sh->attn_v_dim = m->v_head_dim;
    } else {
        sh->attn_out = h * dh * d;
        sh->attn = d * h * dh + 2.0 * d * g * dh + sh->attn_out;
        if (m->qkv_bias)
            sh->attn += (h + 2.0 * g) * dh;
        sh->attn_qk_dim = dh;
        sh->attn_v_dim = dh;
    }
    sh->norms = 2.0 * d; /* two RMS/LayerNorm weight vectors per layer */
    if (m->qk_norm)
        sh->norms += 2.0 * dh;

    int moe_layers = model_moe_layers_in(m, 0, m->layers);
    int dense_layers = m->layers - moe_layers;
    sh->moe_layers = moe_layers;
    sh->dense_mlp = dense_layers * mlp_params(m, m->ffn);
    if (moe_layers > 0) {
        double one = mlp_params(m, expert_ffn(m));
        sh->experts = moe_layers * (double)m->experts * one;
        sh->expert_one = one;
        sh->shared = moe_layers * (double)m->shared_experts * one;
        sh->router = moe_layers * d * m->experts;
    }
    sh->attn_all = m->layers * (sh->attn + sh->norms);
    sh->embed_in = (double)m->vocab * d + (m->learned_pos ? (double)m->context * d : 0.0);
    sh->head = m->tied_embeddings ? 0.0 : (double)m->vocab * d;
    sh->final_norm = d;
}

double engine_model_params(const engine_model *m)
{
    model_shape sh;
    model_shape_compute(m, &sh);
    return sh.attn_all + sh.dense_mlp + sh.experts + sh.shared + sh.router + sh.embed_in +
           sh.head + sh.final_norm;
}

double engine_model_active_params(const engine_model *m)
{
    model_shape sh;
    model_shape_compute(m, &sh);
    double active_experts = sh.moe_layers * (double)m->top_k * sh.expert_one;
    return sh.attn_all + sh.dense_mlp + active_experts + sh.shared + sh.router + sh.embed_in +
           sh.head + sh.final_norm;
}

double model_kv_bytes_per_token_layer(const engine_model *m, engine_dtype kv, int tp)
{
    const double b = engine_dtype_bytes(kv);
    if (m->mla) /* the compressed latent plus the shared rope key, replicated on each TP rank */
        return ((double)m->kv_lora_rank + m->qk_rope_dim) * b;
    /* KV heads shard over tp only up to g ways; beyond that they replicate. */
    double heads_per_gpu = tp <= m->kv_heads ? (double)m->kv_heads / tp : 1.0;
    return 2.0 * heads_per_gpu * m->head_dim * b;
}

double engine_kv_bytes_per_token(const engine_model *m, engine_dtype kv)
{
    return m->layers * model_kv_bytes_per_token_layer(m, kv, 1);
}

double engine_kv_bytes(const engine_model *m, engine_dtype kv, double ctx)
{
    int local = model_local_layers_in(m, 0, m->layers);
    double tokens = (m->layers - local) * ctx + local * model_kv_tokens(m, 1, ctx);
    return tokens * model_kv_bytes_per_token_layer(m, kv, 1);
}

double engine_weight_bytes(const engine_model *m, engine_dtype w)
{
    return engine_model_params(m) * engine_dtype_bytes(w);
}

double engine_decode_floor_bytes(const engine_model *m, engine_dtype w)
{
    if (m->experts > 0) /* one token reads its top_k experts, not all of them */
        return engine_model_active_params(m) * engine_dtype_bytes(w);
    return engine_weight_bytes(m, w);
}

double engine_decode_floor_s(const engine_model *m, engine_dtype w, const engine_gpu *g, int tp)
{
    if (tp < 1)
        tp = 1;
    return engine_decode_floor_bytes(m, w) / tp / g->hbm_bytes_per_s;
}
