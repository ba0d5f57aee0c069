/*
 * eval.c - one plan under one scenario: validity, memory per GPU under the
 * framework's budgeting rule, and the prefill and decode steps as the sum
 * of the kernels each GPU runs (kernels.c) plus the communication of each
 * form of parallelism, the framework's fixed costs and the pipeline
 * schedule; then efficiency against one ideal GPU, regime, cost and the
 * error bands.  Formulas: README.md, "The model: assumptions and units".
 *
 * Placement: inside a replica, GPUs are numbered tp-fastest then by
 * pipeline stage, so a TP group fills a node before spilling over and
 * stage boundaries cross nodes once tp*pp exceeds the node size.  Layers
 * are split over stages as evenly as possible (the first L mod pp stages
 * take one more); the embedding lives on the first stage, the final norm,
 * LM head and sampling on the last.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "internal.h"

/* The kernels of one step by name (engine_explain_plan): NULL on the
 * normal path, where evaluation records nothing. */
typedef struct xt_entry {
    const char *name;
    engine_kclass cls;
    double count, flops, bytes, time;
    double bt[ENGINE_BOUND_COUNT]; /* time by the bound that set it */
} xt_entry;

typedef struct xtrace {
    int n;
    xt_entry e[ENGINE_EXPLAIN_MAX];
} xtrace;

/* Costs of one step on one GPU, by kind; seconds. */
typedef struct step_acc {
    double gemm, attn, small, launch, tp, ep, pp;
    double gemm_c, gemm_m; /* GEMM compute and memory time (regime) */
    double kernels;
    double host; /* host cost of one kernel launch (eager) or graph node */
    double split_host; /* piecewise prefill graphs: the host cost of a kernel
                        * outside the pieces (kernel_split); 0: host */
    double coll_extra; /* extra cost of each collective launched eagerly */
    xtrace *xt;        /* kernels by name (explain), or NULL */
    double tbo_hidden; /* EP all-to-all hidden by two-batch overlap (out of ep) */
    double ar_saved;   /* norm kernels fused into the TP all-reduces (not in small) */
} step_acc;

static xt_entry *xt_find(xtrace *x, const char *name, engine_kclass cls)
{
    for (int i = 0; i < x->n; i++)
        if (strcmp(x->e[i].name, name) == 0)
            return &x->e[i];
    if (x->n >= ENGINE_EXPLAIN_MAX)
        return NULL;
    xt_entry *e = &x->e[x->n++];
    memset(e, 0, sizeof *e);
    e->name = name;
    e->cls = cls;
    return e;
}

static void xt_rec(xtrace *x, const char *name, engine_kclass cls, double flops, double bytes,
                   double t, engine_bound b)
{
    xt_entry *e = xt_find(x, name, cls);
    if (!e)
        return;
    e->count += 1;
    e->flops += flops;
    e->bytes += bytes;
    e->time += t;
    e->bt[b] += t;
}

/* dst += f * src, entry by entry. */
static void xt_add(xtrace *dst, const xtrace *src, double f)
{
    for (int i = 0; f != 0 && i < src->n; i++) {
        const xt_entry *se = &src->e[i];
        xt_entry *e = xt_find(dst, se->name, se->cls);
        if (!e)
            continue;
        e->count += f * se->count;
        e->flops += f * se->flops;
        e->bytes += f * se->bytes;
        e->time += f * se->time;
        for (int b = 0; b < ENGINE_BOUND_COUNT; b++)
            e->bt[b] += f * se->bt[b];
    }
}

/* A collective of GPU time t (0: none), with its eager launch cost. */
static double coll(const step_acc *a, double t)
{
    return t > 0 ? t + a->coll_extra : 0.0;
}

static double acc_total(const step_acc *a)
{
    return a->gemm + a->attn + a->small + a->launch + a->tp + a->ep + a->pp;
}

static double acc_comm(const step_acc *a)
{
    return a->tp + a->ep + a->pp;
}

static void acc_add(step_acc *dst, const step_acc *src, double f)
{
    dst->gemm += f * src->gemm;
    dst->attn += f * src->attn;
    dst->small += f * src->small;
    dst->launch += f * src->launch;
    dst->tp += f * src->tp;
    dst->ep += f * src->ep;
    dst->pp += f * src->pp;
    dst->gemm_c += f * src->gemm_c;
    dst->gemm_m += f * src->gemm_m;
    dst->kernels += f * src->kernels;
    dst->tbo_hidden += f * src->tbo_hidden;
    dst->ar_saved += f * src->ar_saved;
}

/* An empty accumulator with the launch settings of `like` (its host costs
 * and explain trace), the costs zero. */
static void acc_start(step_acc *a, const step_acc *like)
{
    step_acc z;
    memset(&z, 0, sizeof z);
    z.host = like->host;
    z.split_host = like->split_host;
    z.coll_extra = like->coll_extra;
    z.xt = like->xt;
    *a = z;
}

static void acc_scale(step_acc *a, double f)
{
    step_acc z;
    acc_start(&z, a);
    acc_add(&z, a, f);
    *a = z;
}

/* A kernel of GPU time t in `bucket`: when the host needs longer to launch
 * it than the GPU to run it, the GPU waits for the difference. */
static void kernel(step_acc *a, double t, double *bucket)
{
    *bucket += t;
    if (a->host > t) {
        a->launch += a->host - t;
        if (a->xt)
            xt_rec(a->xt, "launch floor", ENGINE_KC_LAUNCH, 0, 0, a->host - t,
                   ENGINE_BOUND_LAUNCH);
    }
    a->kernels += 1;
}

/* A kernel that runs outside the graph pieces of a piecewise-graph prefill
 * step (attention with its KV write, the LM head, the sampler): the eager
 * host cost; elsewhere the same as kernel(). */
static double split_enter(step_acc *a)
{
    double h = a->host;
    if (a->split_host > 0)
        a->host = a->split_host;
    return h;
}

static void kernel_split(step_acc *a, double t, double *bucket)
{
    double h = split_enter(a);
    kernel(a, t, bucket);
    a->host = h;
}

/* A GEMM named `name` (explain) of m x n x kk, `groups` of them grouped. */
static void gemm(step_acc *a, const kconst *k, const char *name, double m, double n, double kk,
                 double groups, double wb, double ab)
{
    if (!(m > 0) || !(n > 0) || !(kk > 0))
        return;
    gemm_cost c = kc_gemm(k, m, n, kk, groups, wb, ab);
    a->gemm_c += c.compute;
    a->gemm_m += c.memory;
    kernel(a, c.time, &a->gemm);
    if (a->xt)
        xt_rec(a->xt, name, ENGINE_KC_GEMM, 2.0 * m * n * kk * (groups >= 1 ? groups : 1),
               c.memory * k->bw, c.time, kc_gemm_bound(k, &c));
}

/* An element-wise kernel moving `bytes`. */
static void small(step_acc *a, const kconst *k, const char *name, double bytes)
{
    double t = kc_small(k, bytes);
    kernel(a, t, &a->small);
    if (a->xt)
        xt_rec(a->xt, name, ENGINE_KC_SMALL, 0, bytes, t,
               bytes / k->bw_small >= t ? ENGINE_BOUND_MEMORY : ENGINE_BOUND_FLOOR);
}

/* Everything a plan's timing needs, derived once. */
typedef struct plan_ctx {
    const engine_scenario *s;
    const engine_model *m;
    const engine_framework *fw;
    engine_plan p;
    model_shape sh;
    kconst kc;
    kconst kc16;   /* 16-bit GEMMs: the LM head and router of a quantized model */
    engine_dtype wdt;
    double w_b;    /* bytes per weight of the transformer blocks (scales included) */
    double edge_b; /* embedding, LM head and router: unquantized */
    int attn16;    /* the attention projections in 16 bits (engine_model.attn_16bit,
                    * attn_16bit_fp4 under FP4 weights) */
    int attn16_out; /* ... the output projection too (not under attn_out_fp4) */
    int deepgemm;   /* block-scaled FP8 GEMMs on DeepGEMM: the framework's deepgemm on a GPU
                     * that runs it (engine_gpu.deepgemm) */
    int fp8_blk;    /* the GPU's block-scaled FP8 constants apply: a block-scaled
                     * scenario (engine_scenario_fp8_block) not on DeepGEMM */
    double kv_b, a_b;
    int per_node;  /* 0: unlimited */
    int tp_hier;   /* TP group spans nodes */
    int pp_cross;  /* some stage boundary crosses nodes */
    int ep_per_node;
    int ep_cross;
    struct xsink *xs; /* explain: where the kernels of a step go; NULL normally */
    /* MoE as deployed (README "The model"): */
    double slots;     /* physical expert slots: experts + redundant ones (EP plans) */
    double imbalance; /* busiest expert group's routed tokens over the mean */
    double rr_hit, rr_pairs; /* engine_moe_layer_routed_s: this GPU's experts hit and
                              * pairs under a given routing (0: random routing) */
    int fuse_ar_norm; /* the norm after each TP all-reduce runs inside it */
    int one_ar;       /* one TP all-reduce a layer (engine_scenario_one_allreduce) */
    int tbo;          /* two-batch overlap of the EP all-to-all */
    int prefill_graphs; /* prefill steps replay piecewise graphs (prefill_graphed) */
} plan_ctx;

/* A collective named `name` (explain) of `bytes` over n GPUs: the
 * framework's all-reduce for ENGINE_OP_ALLREDUCE, else engine_comm_time;
 * with its eager launch cost. */
static double comm(const plan_ctx *c, step_acc *a, const char *name, engine_collective op, int n,
                   int per_node, double bytes)
{
    const engine_scenario *s = c->s;
    double t = op == ENGINE_OP_ALLREDUCE
                   ? engine_allreduce_s(s, c->fw, n, per_node, bytes)
                   : engine_comm_time(op, s->intra, s->inter, n, per_node, bytes);
    double tc = coll(a, t);
    if (a->xt && tc > 0) {
        double lat = op == ENGINE_OP_ALLREDUCE
                         ? engine_allreduce_s(s, c->fw, n, per_node, 0)
                         : engine_comm_time(op, s->intra, s->inter, n, per_node, 0);
        lat += a->coll_extra;
        xt_rec(a->xt, name, ENGINE_KC_COMM, 0, bytes, tc,
               2.0 * lat >= tc ? ENGINE_BOUND_LATENCY : ENGINE_BOUND_BANDWIDTH);
    }
    return tc;
}

void engine_scenario_defaults(engine_scenario *s)
{
    memset(s, 0, sizeof *s);
    s->gpus = 1;
    s->usable_fraction = 0;          /* the framework's (generic: 0.9) */
    s->runtime_overhead_bytes = -1;  /* the framework's (generic: 2 GB, seed 004) */
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

/* fail() with a formatted reason (the limits are ENGINE_MAX_*). */
static int failf(engine_error *err, const char *field, const char *fmt, ...)
{
    char why[ENGINE_ERROR_MAX / 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return fail(err, field, why);
}

static int finite_pos(double x)
{
    return isfinite(x) && x > 0;
}

static int fw_check(const engine_framework *f)
{
    return f->launch_s >= 0 && f->prefill_launch_s >= 0 && isfinite(f->prefill_launch_s) &&
           f->graph_kernel_s >= 0 && f->step_s >= 0 && f->request_s >= 0 &&
           f->seq_step_s >= 0 && isfinite(f->seq_step_s) && f->moe_w4a16_fixed_s >= 0 &&
           isfinite(f->moe_w4a16_fixed_s) &&
           f->custom_ar_max_bytes >= 0 && f->custom_ar_s >= 0 &&
           (unsigned)f->mem_rule < ENGINE_MEM_RULE_COUNT && f->mem_fraction > 0 &&
           f->mem_fraction <= 1 && f->runtime_bytes >= 0 && isfinite(f->launch_s + f->step_s +
           f->request_s + f->custom_ar_max_bytes + f->custom_ar_s + f->runtime_bytes +
           f->graph_kernel_s) &&
           f->sampler_kernels >= 0 && f->top_p_kernels >= 0 && f->penalty_kernels >= 0 &&
           f->sampler_passes >= 0 && f->top_p_passes >= 0 && f->penalty_passes >= 0 &&
           isfinite(f->sampler_passes + f->top_p_passes + f->penalty_passes);
}

/* Speculative decoding: a known method, k and P in range, a draft model
 * for DRAFT, MTP layers in the model for MTP. */
static int check_spec(const engine_scenario *s, engine_error *err)
{
    if ((unsigned)s->spec_method >= ENGINE_SPEC_COUNT)
        return fail(err, "spec_method", "must be none, draft, eagle or mtp");
    if (s->spec_method == ENGINE_SPEC_NONE)
        return 0;
    if (s->spec_k < 0 || s->spec_k > ENGINE_MAX_SPEC_K)
        return failf(err, "spec_k", "must be 0..%d drafted tokens", ENGINE_MAX_SPEC_K);
    if (!(s->spec_accept >= 0 && s->spec_accept <= 1))
        return fail(err, "spec_accept", "must be in [0, 1]");
    const engine_model *d = s->spec_draft;
    if (s->spec_method == ENGINE_SPEC_DRAFT &&
        (!d || d->layers < 1 || d->hidden < 1 || d->heads < 1 || d->kv_heads < 1 ||
         d->vocab < 1 || (!d->mla && d->head_dim < 1) || d->ffn < 0))
        return fail(err, "spec_draft", "the draft method needs a usable draft model");
    if (s->spec_method == ENGINE_SPEC_MTP && s->model && s->model->mtp_layers < 1)
        return failf(err, "spec_method", "mtp needs a model with MTP layers "
                     "(num_nextn_predict_layers); %.64s has none", s->model->name);
    return 0;
}

/* CUDA graph sizes: at most ENGINE_GRAPH_SIZES_MAX, each 1..ENGINE_MAX_BATCH,
 * strictly ascending. */
static int check_graph_sizes(const engine_scenario *s, engine_error *err)
{
    if (s->n_graph_sizes < 0 || s->n_graph_sizes > ENGINE_GRAPH_SIZES_MAX)
        return failf(err, "graph_sizes", "at most %d sizes", ENGINE_GRAPH_SIZES_MAX);
    for (int i = 0; i < s->n_graph_sizes; i++) {
        int g = s->graph_sizes[i];
        if (g < 1 || g > ENGINE_MAX_BATCH)
            return failf(err, "graph_sizes", "size %d must be 1..%d", g, ENGINE_MAX_BATCH);
        if (i > 0 && g <= s->graph_sizes[i - 1])
            return failf(err, "graph_sizes", "sizes must ascend (%d after %d)", g,
                         s->graph_sizes[i - 1]);
    }
    return 0;
}

/* The scenario's switches and engine choices: each a known value, and a
 * framework_version the framework profile has. */
static int check_modes(const engine_scenario *s, engine_error *err)
{
    if ((unsigned)s->cuda_graphs >= ENGINE_GRAPHS_COUNT)
        return fail(err, "cuda_graphs", "must be default, on or off");
    if ((unsigned)s->tbo >= ENGINE_GRAPHS_COUNT)
        return fail(err, "tbo", "must be default, on or off");
    if ((unsigned)s->fuse_ar_norm >= ENGINE_GRAPHS_COUNT)
        return fail(err, "fuse_ar_norm", "must be default, on or off");
    if ((unsigned)s->prefill_graphs >= ENGINE_GRAPHS_COUNT)
        return fail(err, "prefill_graphs", "must be default, on or off");
    if ((unsigned)s->local_kv_full >= ENGINE_GRAPHS_COUNT)
        return fail(err, "local_kv_full", "must be default, on or off");
    if ((unsigned)s->a2a >= ENGINE_A2A_COUNT)
        return fail(err, "a2a", "must be nccl, deepep or deepep-ll");
    if ((unsigned)s->w4a16_kernel >= ENGINE_W4A16_COUNT)
        return fail(err, "w4a16_kernel", "must be triton or marlin");
    if ((unsigned)s->sampling >= ENGINE_SAMPLING_COUNT)
        return fail(err, "sampling", "must be plain, top-p or full");
    if ((unsigned)s->framework_version >= ENGINE_FWV_COUNT)
        return fail(err, "framework_version", "must be default, v0, v0.6 or v1");
    if (s->framework_version != ENGINE_FWV_DEFAULT) {
        const engine_framework *hf = s->framework ? s->framework : engine_framework_generic_ref();
        if (!hf->host_loop[s->framework_version].set)
            return failf(err, "framework_version", "the %s profile has no host_loop \"%s\" "
                         "(frameworks.json)", hf->name, engine_fw_version_name(s->framework_version));
    }
    return 0;
}

/* The numbers of a scenario against ENGINE_MAX_* (the command line's
 * flags take their ranges from the same constants), its modes
 * (check_modes), graph sizes and speculation, in that order. */
static int check_numbers(const engine_scenario *s, engine_error *err)
{
    if (s->gpus < 1 || s->gpus > ENGINE_MAX_GPUS)
        return failf(err, "gpus", "must be 1..%d", ENGINE_MAX_GPUS);
    if (s->gpus_per_node < 0 || s->gpus_per_node > ENGINE_MAX_GPUS)
        return failf(err, "gpus_per_node", "must be 0..%d", ENGINE_MAX_GPUS);
    if (!(s->vram_bytes >= 0) || !isfinite(s->vram_bytes))
        return fail(err, "vram", "must be a finite non-negative size");
    if (!(s->usable_fraction >= 0 && s->usable_fraction <= 1))
        return fail(err, "usable_fraction", "must be in (0, 1] (0: the framework's)");
    if (!isfinite(s->runtime_overhead_bytes))
        return fail(err, "runtime_overhead", "must be a finite size (negative: the framework's)");
    if (check_modes(s, err) != 0)
        return -1;
    if (s->redundant_experts < 0 || s->redundant_experts > ENGINE_MAX_GPUS)
        return failf(err, "redundant_experts", "must be 0..%d", ENGINE_MAX_GPUS);
    if (!(s->moe_imbalance == 0 ||
          (s->moe_imbalance >= 1 && s->moe_imbalance <= ENGINE_MAX_IMBALANCE)))
        return failf(err, "moe_imbalance", "must be in [1, %g] (0: the default rule)",
                     ENGINE_MAX_IMBALANCE);
    if (s->max_model_len < 0 || s->max_model_len > ENGINE_MAX_CONTEXT)
        return failf(err, "max_model_len", "must be 0..%d (0: the model's context)",
                     ENGINE_MAX_CONTEXT);
    if ((unsigned)s->fp8_scaling >= ENGINE_FP8_SCALE_COUNT)
        return fail(err, "fp8_scaling", "must be auto, tensor or block");
    if (s->quant_group < 0 || s->quant_group > ENGINE_MAX_QUANT_GROUP)
        return failf(err, "quant_group", "must be 0..%d (0: the checkpoint's or the dtype's)",
                     ENGINE_MAX_QUANT_GROUP);
    if (s->batch < 1 || s->batch > ENGINE_MAX_BATCH)
        return failf(err, "batch", "must be 1..%d", ENGINE_MAX_BATCH);
    if (s->total_concurrency < 0 || s->total_concurrency > ENGINE_MAX_BATCH)
        return failf(err, "total_concurrency", "must be 0..%d (0: batch per replica)",
                     ENGINE_MAX_BATCH);
    if (s->max_num_seqs < 0 || s->max_num_seqs > ENGINE_MAX_BATCH)
        return failf(err, "max_num_seqs", "must be 0..%d (0: the framework's)",
                     ENGINE_MAX_BATCH);
    if (s->prompt < 1 || s->prompt > ENGINE_MAX_TOKENS)
        return failf(err, "prompt", "must be 1..%d tokens", ENGINE_MAX_TOKENS);
    if (s->gen < 1 || s->gen > ENGINE_MAX_TOKENS)
        return failf(err, "gen", "must be 1..%d tokens", ENGINE_MAX_TOKENS);
    if ((unsigned)s->weight_dtype >= ENGINE_DTYPE_COUNT ||
        (unsigned)s->kv_dtype >= ENGINE_DTYPE_COUNT || (unsigned)s->act_dtype >= ENGINE_DTYPE_COUNT)
        return fail(err, "dtype", "unknown data type");
    if (s->microbatches < 0 || s->microbatches > ENGINE_MAX_MICROBATCHES)
        return failf(err, "microbatches", "must be 0..%d (0 = whole sequences, up to pp)",
                     ENGINE_MAX_MICROBATCHES);
    if (s->decode_microbatches < 0 || s->decode_microbatches > ENGINE_MAX_BATCH)
        return failf(err, "decode_microbatches", "must be 0..%d (0 = min(pp, batch))",
                     ENGINE_MAX_BATCH);
    if ((unsigned)s->schedule >= ENGINE_SCHED_COUNT)
        return fail(err, "schedule", "unknown pipeline schedule");
    if (s->interleave < 1 || s->interleave > ENGINE_MAX_INTERLEAVE)
        return failf(err, "interleave", "must be 1..%d", ENGINE_MAX_INTERLEAVE);
    if ((unsigned)s->objective >= ENGINE_OBJ_COUNT)
        return fail(err, "objective", "unknown objective");
    if (!(s->jitter_sigma >= 0 && s->jitter_sigma <= ENGINE_MAX_JITTER))
        return failf(err, "jitter", "sigma must be in [0, %g]", ENGINE_MAX_JITTER);
    if (!(s->straggler_prob >= 0 && s->straggler_prob <= 1) ||
        !(s->straggler_slowdown >= 1 && s->straggler_slowdown <= ENGINE_MAX_SLOWDOWN))
        return failf(err, "straggler", "probability in [0, 1], slowdown in [1, %g]",
                     ENGINE_MAX_SLOWDOWN);
    if (s->mc_samples < 0 || s->mc_samples > ENGINE_MAX_SAMPLES)
        return failf(err, "samples", "must be 0..%d", ENGINE_MAX_SAMPLES);
    if (check_graph_sizes(s, err) != 0)
        return -1;
    return check_spec(s, err);
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
        !(g->eta_compute_fp8 >= 0 && g->eta_compute_fp8 <= 1) ||
        !(g->eta_compute_fp4 >= 0 && g->eta_compute_fp4 <= 1) ||
        !(g->eta_compute_w4a16 >= 0 && g->eta_compute_w4a16 <= 1) ||
        !(g->eta_memory_w4a16 >= 0 && g->eta_memory_w4a16 <= 1) ||
        !(g->eta_moe >= 0 && g->eta_moe <= 1) || !(g->eta_moe_fp8 >= 0 && g->eta_moe_fp8 <= 1) ||
        !(g->eta_moe_fp8_block >= 0 && g->eta_moe_fp8_block <= 1) ||
        !(g->eta_moe_fp4 >= 0 && g->eta_moe_fp4 <= 1) ||
        !(g->eta_moe_w4a8 >= 0 && g->eta_moe_w4a8 <= 1) ||
        !(g->eta_kv >= 0 && g->eta_kv <= 1) || !(g->eta_small >= 0 && g->eta_small <= 1) ||
        !(g->eta_attn >= 0 && g->eta_attn <= 1) || !(g->eta_attn_io >= 0 && g->eta_attn_io <= 1) ||
        !(g->eta_attn_decode >= 0 && g->eta_attn_decode <= 1) ||
        !(g->eta_attn_prefill >= 0 && g->eta_attn_prefill <= 1) ||
        !(g->eta_kv_cta >= 0 && g->eta_kv_cta <= 1))
        return fail(err, "gpu", "achievable fractions must be in (0, 1]");
    const double t0s[] = {g->gemm_t0_s,        g->gemm_t0_fp8_s,    g->gemm_t0_fp4_s,
                          g->attn_t0_s,        g->decode_attn_t0_s, g->decode_attn_seq_s,
                          g->kernel_floor_s,   g->layer_overhead_s, g->moe_w4a16_token_s,
                          g->attn_cta_s,       g->moe_w4a8_token_s, g->decode_attn_cta_s,
                          g->decode_attn_cta_fp8_s, g->decode_attn_mha_s, g->decode_attn_head_s,
                          g->attn_score_s,     g->attn_exp_s,       g->decode_attn_cta_t0_s};
    int t0_ok = g->sm_count >= 0;
    for (size_t i = 0; i < sizeof t0s / sizeof t0s[0]; i++)
        t0_ok = t0_ok && t0s[i] >= 0 && isfinite(t0s[i]);
    if (!t0_ok)
        return fail(err, "gpu", "kernel fixed costs must be finite and non-negative");
    if (!(g->gemm_min_m >= 0 && g->gemm_min_m <= ENGINE_GEMM_MIN_M_MAX))
        return fail(err, "gpu", "gemm_min_m must be in [0, 256] token rows");
    if (!(g->moe_roof_p == 0 || (g->moe_roof_p >= 1 && g->moe_roof_p <= 16)))
        return fail(err, "gpu", "moe_roof_p must be 0 (the max) or in [1, 16]");
    if (!(g->gemm_roof_p_fp8_block == 0 ||
          (g->gemm_roof_p_fp8_block >= 1 && g->gemm_roof_p_fp8_block <= 16)))
        return fail(err, "gpu", "gemm_roof_p_fp8_block must be 0 (the max) or in [1, 16]");
    if (!finite_pos(s->intra->bytes_per_s) || !(s->intra->alpha_s >= 0) ||
        !(s->intra->base_s >= 0) ||
        (s->inter && (!finite_pos(s->inter->bytes_per_s) || !(s->inter->alpha_s >= 0) ||
                      !(s->inter->base_s >= 0))))
        return fail(err, "link", "bandwidth must be positive and latencies non-negative");
    if (s->framework && !fw_check(s->framework))
        return fail(err, "framework",
                    "costs must be finite and non-negative, memory fraction in (0, 1]");
    return check_numbers(s, err);
}

int engine_context_limit(const engine_scenario *s)
{
    if (s->max_model_len > 0)
        return s->max_model_len;
    return s->model ? s->model->context : 0;
}

double engine_scenario_vram(const engine_scenario *s)
{
    return s->vram_bytes > 0 ? s->vram_bytes : (s->gpu ? s->gpu->memory_bytes : 0);
}

int engine_framework_tiers(const engine_framework *fw)
{
    int n = 0;
    while (n < ENGINE_FW_TIERS && fw->tier[n].below_gib > 0)
        n++;
    if (n > 0 && n < ENGINE_FW_TIERS) {
        const engine_fw_tier *top = &fw->tier[n];
        n += top->max_num_tokens || top->max_num_seqs || top->graph_bs || top->graph_bs_tp4;
    }
    return n;
}

/* The framework's serving tier for the scenario's GPU (engine_fw_tier), or
 * NULL: no tiers, a generation other than the default and v1, or a GPU
 * above every bounded tier without an unbounded last one. */
static const engine_fw_tier *framework_tier(const engine_scenario *s, const engine_framework *fw)
{
    int n = engine_framework_tiers(fw);
    if (!n || !s || !s->framework || !s->gpu ||
        (s->framework_version != ENGINE_FWV_DEFAULT && s->framework_version != ENGINE_FWV_V1))
        return NULL;
    if (fw->tier_exclude[0] && strstr(s->gpu->name, fw->tier_exclude))
        return &fw->tier[0];
    double vram = engine_scenario_vram(s);
    for (int t = 0; t < n; t++)
        if (!(fw->tier[t].below_gib > 0) || vram < fw->tier[t].below_gib * 1073741824.0)
            return &fw->tier[t];
    return NULL;
}

double engine_scenario_usable_fraction(const engine_scenario *s)
{
    return engine_plan_usable_fraction(s, (engine_plan){1, 1, 1, 1});
}

static double graph_capture_cap(const engine_scenario *s, const engine_framework *fw, int tp,
                                double *per);

/* Piecewise prefill graph sizes up to `max` tokens (SGLang's
 * _generate_piecewise_cuda_graph_tokens: 4..32 by 4, 48..256 by 16,
 * 288..512 by 32, 576..1024 by 64, 1280..4096 by 256, then by 512). */
static int piecewise_sizes(int max)
{
    static const int from[] = {4, 48, 288, 576, 1280, 4608}, to[] = {32, 256, 512, 1024, 4096, 1 << 30},
                     by[] = {4, 16, 32, 64, 256, 512};
    int n = 0;
    for (int i = 0; i < 6; i++)
        for (int v = from[i]; v <= to[i] && v <= max; v += by[i])
            n++;
    return n;
}

double engine_plan_usable_fraction(const engine_scenario *s, engine_plan p)
{
    if (s->usable_fraction > 0)
        return s->usable_fraction;
    const engine_framework *fw = s->framework ? s->framework : engine_framework_generic_ref();
    const engine_mem_reserve *r = &fw->reserve;
    double vram = engine_scenario_vram(s);
    if (!(r->base_mib > 0) || !(vram > 0))
        return fw->mem_fraction;
    double m = vram / 1048576.0;
    /* SGLang's tp_size: the EP group under attention data-parallel */
    int moe = s->model && s->model->experts > 0;
    int dp_attn = moe && p.ep > p.tp && p.tp > 0;
    int tp = dp_attn ? p.ep : p.tp;
    double per;
    double bs = graph_capture_cap(s, fw, tp, &per);
    int chunk = engine_scenario_max_num_tokens(s);
    double res = r->base_mib + r->chunk_token_mib * (chunk > 2048 ? chunk : 2048) +
                 r->graph_seq_mib * bs + r->group_mib * tp * (p.pp > 0 ? p.pp : 1) / 8.0;
    if (dp_attn) {
        double dp = (double)p.ep / p.tp;
        res += r->dp_attn_mib * bs * dp + (bs > 300 ? r->dp_attn_big_mib * bs * dp : 0);
    }
    if (engine_scenario_prefill_graphs(s))
        res += r->piecewise_mib * piecewise_sizes(engine_prefill_graph_tokens(fw, s->model));
    if (m > r->floor_above_gib * 1024 && res < r->floor_mib)
        res = r->floor_mib;
    if (s->spec_method == ENGINE_SPEC_DRAFT)
        res += r->draft_mib;
    else if (s->spec_method != ENGINE_SPEC_NONE)
        res += r->eagle_mib;
    double f = round((m - res) / m * 1000) / 1000;
    return f > 0.01 ? (f < 1 ? f : 1) : 0.01;
}

/* A scenario's on/off override (ENGINE_GRAPHS_ON / _OFF), else the
 * framework's own setting. */
static int override_or(int v, int framework_value)
{
    if (v == ENGINE_GRAPHS_ON)
        return 1;
    if (v == ENGINE_GRAPHS_OFF)
        return 0;
    return framework_value != 0;
}

int engine_scenario_cuda_graphs(const engine_scenario *s)
{
    return override_or(s->cuda_graphs,
                       (s->framework ? s->framework : engine_framework_generic_ref())->cuda_graphs);
}

/* The profile's largest captured decode batch for a plan of TP tp (the
 * generation's when --framework-version states one), before the limits by
 * max_num_seqs and max_num_tokens; *per: its graph_capture_seqs; 0: no
 * limit. */
static double graph_capture_cap(const engine_scenario *s, const engine_framework *fw, int tp,
                                double *per)
{
    unsigned v = (unsigned)s->framework_version;
    int gen = v > ENGINE_FWV_DEFAULT && v < ENGINE_FWV_COUNT && fw->host_loop[v].set &&
              fw->host_loop[v].graph_capture_max > 0;
    double cap = gen ? fw->host_loop[v].graph_capture_max : fw->graph_capture_max;
    *per = gen ? fw->host_loop[v].graph_capture_seqs : fw->graph_capture_seqs;
    const engine_fw_tier *tr = gen ? NULL : framework_tier(s, fw);
    int bs = tr ? (tp < 4 || !tr->graph_bs_tp4 ? tr->graph_bs : tr->graph_bs_tp4) : 0;
    if (cap > 0 && bs > 0) /* its tier's cuda_graph_max_bs (SGLang) */
        cap = bs;
    return cap > 0 ? cap : 0;
}

int engine_decode_graphs(const engine_scenario *s, engine_plan p, double seqs, double t)
{
    int tp = p.tp;
    if (p.ep > p.tp && p.tp > 0) { /* attention data-parallel: each rank's own batch */
        seqs /= (double)p.ep / p.tp;
        tp = p.ep; /* SGLang's tp_size (--tp) is then the EP group */
    }
    if (!engine_scenario_cuda_graphs(s))
        return 0;
    const engine_framework *fw = s->framework ? s->framework : engine_framework_generic_ref();
    double per, cap = graph_capture_cap(s, fw, tp, &per);
    if (!(cap > 0))
        return 1; /* no limit stated: a graph for every batch */
    if (per > 0 && per * engine_max_num_seqs(s) * t < cap)
        cap = per * engine_max_num_seqs(s) * t;
    if (engine_scenario_max_num_tokens(s) < cap)
        cap = engine_scenario_max_num_tokens(s);
    return seqs * t <= cap + 1e-9;
}

double engine_graph_padded_seqs(const engine_scenario *s, double seqs, double mb)
{
    if (s->n_graph_sizes <= 0 || !engine_scenario_cuda_graphs(s) ||
        s->spec_method != ENGINE_SPEC_NONE)
        return seqs;
    for (int i = 0; i < s->n_graph_sizes && i < ENGINE_GRAPH_SIZES_MAX; i++) {
        double g = s->graph_sizes[i];
        if (g >= seqs) /* the smallest captured size that holds the batch */
            return g <= engine_max_num_seqs(s) / (mb > 1 ? mb : 1) ? g : seqs;
    }
    return seqs; /* above the largest graph: not padded */
}

/* The --framework-version generation the profile states (ENGINE_FWV_DEFAULT:
 * none stated or asked). */
static unsigned host_generation(const engine_scenario *s, const engine_framework *fw)
{
    unsigned v = (unsigned)s->framework_version;
    return v > ENGINE_FWV_DEFAULT && v < ENGINE_FWV_COUNT && fw->host_loop[v].set
               ? v
               : ENGINE_FWV_DEFAULT;
}

int engine_scenario_host_overlap(const engine_scenario *s)
{
    const engine_framework *fw = s->framework ? s->framework : engine_framework_generic_ref();
    unsigned v = host_generation(s, fw);
    return override_or(s->host_overlap, v ? fw->host_loop[v].overlap : fw->overlap);
}

int engine_scenario_admit_lag(const engine_scenario *s)
{
    const engine_framework *fw = s->framework ? s->framework : engine_framework_generic_ref();
    unsigned v = host_generation(s, fw);
    return override_or(s->host_overlap, v ? fw->host_loop[v].overlap : fw->admit_lag);
}

void engine_scenario_host_loop(const engine_scenario *s, double *step_s, double *seq_step_s)
{
    const engine_framework *fw = s->framework ? s->framework : engine_framework_generic_ref();
    unsigned v = (unsigned)s->framework_version;
    if (v > ENGINE_FWV_DEFAULT && v < ENGINE_FWV_COUNT && fw->host_loop[v].set) {
        *step_s = fw->host_loop[v].step_s;
        *seq_step_s = fw->host_loop[v].seq_step_s;
        return;
    }
    *step_s = fw->step_s;
    *seq_step_s = fw->seq_step_s;
}

double eval_host_step_s(const engine_scenario *s, double seqs)
{
    double hl_step, hl_seq;
    engine_scenario_host_loop(s, &hl_step, &hl_seq);
    return hl_step + hl_seq * seqs;
}

double eval_host_exposed_s(const engine_scenario *s, double seqs, double work_s)
{
    double host = eval_host_step_s(s, seqs);
    if (engine_scenario_host_overlap(s))
        return host > work_s ? host - work_s : 0.0;
    return host;
}

static const char *const FWV_NAMES[ENGINE_FWV_COUNT] = {"default", "v0", "v0.6", "v1"};

const char *engine_fw_version_name(engine_fw_version v)
{
    return (unsigned)v < ENGINE_FWV_COUNT ? FWV_NAMES[v] : "?";
}

int engine_fw_version_parse(const char *name)
{
    for (int i = 0; i < ENGINE_FWV_COUNT; i++)
        if (!strcmp(name, FWV_NAMES[i]))
            return i;
    if (!strcmp(name, "0.4") || !strcmp(name, "0.5"))
        return ENGINE_FWV_V0;
    if (!strcmp(name, "0.6") || !strcmp(name, "0.7"))
        return ENGINE_FWV_V06;
    return -1;
}

static int switch_of(engine_graphs v, int fw_default)
{
    return v == ENGINE_GRAPHS_ON ? 1 : v == ENGINE_GRAPHS_OFF ? 0 : fw_default != 0;
}

int engine_scenario_tbo(const engine_scenario *s)
{
    return switch_of(s->tbo, (s->framework ? s->framework : engine_framework_generic_ref())->tbo);
}

int engine_sampler_kernels(const engine_framework *fw, engine_sampling sampling, double *passes)
{
    int n = fw->sampler_kernels > 0 ? fw->sampler_kernels : 1;
    double p = fw->sampler_kernels > 0 ? fw->sampler_passes : 3.0;
    if (sampling == ENGINE_SAMPLING_TOP_P || sampling == ENGINE_SAMPLING_FULL) {
        n += fw->top_p_kernels;
        p += fw->top_p_passes;
    }
    if (sampling == ENGINE_SAMPLING_FULL) {
        n += fw->penalty_kernels;
        p += fw->penalty_passes;
    }
    if (passes)
        *passes = p;
    return n;
}

int engine_scenario_fuse_ar_norm(const engine_scenario *s)
{
    return switch_of(s->fuse_ar_norm,
                     (s->framework ? s->framework : engine_framework_generic_ref())->fuse_ar_norm);
}

int engine_scenario_prefill_graphs(const engine_scenario *s)
{
    return switch_of(s->prefill_graphs,
                     (s->framework ? s->framework : engine_framework_generic_ref())->prefill_graphs);
}

int engine_prefill_graph_tokens(const engine_framework *fw, const engine_model *m)
{
    if (m && m->mla && fw->prefill_graph_mla_tokens > 0)
        return fw->prefill_graph_mla_tokens;
    return fw->prefill_graph_tokens > 0 ? fw->prefill_graph_tokens : fw->max_num_tokens;
}

int engine_scenario_one_allreduce(const engine_scenario *s)
{
    const engine_framework *f = s->framework ? s->framework : engine_framework_generic_ref();
    return s->model && s->model->parallel_ar_once && f->parallel_ar_once && !s->parallel_ar_split;
}

int engine_scenario_local_kv_full(const engine_scenario *s)
{
    return switch_of(s->local_kv_full,
                     (s->framework ? s->framework : engine_framework_generic_ref())->local_kv_full);
}

/* Per-expert coefficients of variation of the routed load (engine.h). */
#define MOE_CV_PLAIN 1.680 /* DeepSeek-R1, no redundant experts (TensorRT-LLM EP32) */
#define MOE_CV_EPLB 0.1215 /* the same with EPLB over 288 slots (EP36) */

double engine_moe_imbalance_default(int groups, int slots, int redundant)
{
    if (groups <= 1 || slots < groups)
        return 1.0;
    double cv = redundant > 0 ? MOE_CV_EPLB : MOE_CV_PLAIN;
    return 1.0 + cv * sqrt(2.0 * log((double)groups)) / sqrt((double)slots / groups);
}

double engine_scenario_moe_imbalance(const engine_scenario *s, int groups, int slots)
{
    if (groups <= 1)
        return 1.0;
    if (s->moe_imbalance > 0)
        return s->moe_imbalance;
    return engine_moe_imbalance_default(groups, slots, s->redundant_experts);
}

engine_dtype engine_scenario_weight_dtype(const engine_scenario *s)
{
    if (s->model && s->model->has_weight_dtype && s->weight_dtype == ENGINE_FP16 &&
        !s->weight_dtype_set)
        return s->model->weight_dtype;
    return s->weight_dtype;
}

int engine_scenario_fp8_block(const engine_scenario *s)
{
    if (engine_scenario_weight_dtype(s) != ENGINE_FP8)
        return 0;
    if (s->fp8_scaling == ENGINE_FP8_SCALE_BLOCK)
        return 1;
    return s->fp8_scaling == ENGINE_FP8_SCALE_AUTO && s->model && s->model->weight_block > 0;
}

int engine_scenario_quant_group(const engine_scenario *s)
{
    if (s->quant_group > 0)
        return s->quant_group;
    if (s->model && s->model->has_weight_dtype && s->model->quant_group > 0 &&
        engine_scenario_weight_dtype(s) == s->model->weight_dtype)
        return s->model->quant_group;
    return 0;
}

/* Which plans are possible at all; reason filled when not. */
static int plan_valid(const engine_scenario *s, engine_plan p, char *reason, size_t len)
{
    const engine_model *m = s->model;
    if (p.tp < 1 || p.pp < 1 || p.dp < 1 || p.ep < 1) {
        snprintf(reason, len, "degrees must be >= 1");
        return 0;
    }
    /* Each degree at most 2^20, so every product below fits in 64 bits. */
    if (p.tp > ENGINE_MAX_GPUS || p.pp > ENGINE_MAX_GPUS || p.dp > ENGINE_MAX_GPUS ||
        p.ep > ENGINE_MAX_GPUS) {
        snprintf(reason, len, "degrees must be at most %d", ENGINE_MAX_GPUS);
        return 0;
    }
    long long prod = (long long)p.tp * p.pp * p.dp;
    if (prod != s->gpus) {
        snprintf(reason, len, "tp*pp*dp = %lld, not the %d GPUs", prod, s->gpus);
        return 0;
    }
    int limit = engine_context_limit(s);
    if (limit > 0 && (long long)s->prompt + s->gen > limit) {
        snprintf(reason, len, "prompt + gen = %lld tokens exceeds the context of %d",
                 (long long)s->prompt + s->gen, limit);
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
        long long slots = (long long)m->experts + s->redundant_experts;
        if (slots % p.ep) {
            if (s->redundant_experts > 0)
                snprintf(reason, len, "ep=%d does not divide %d experts + %d redundant = %lld",
                         p.ep, m->experts, s->redundant_experts, slots);
            else
                snprintf(reason, len, "ep=%d does not divide %d experts", p.ep, m->experts);
            return 0;
        }
        /* ep < tp: expert groups inside the TP group; ep >= tp: whole
         * experts per GPU over ep/tp replicas. */
        if (p.ep < p.tp ? p.tp % p.ep != 0
                        : (p.ep % p.tp || ((long long)p.tp * p.dp) % p.ep)) {
            snprintf(reason, len,
                     "ep=%d must divide tp=%d, or be a multiple of it dividing tp*dp=%lld", p.ep,
                     p.tp, (long long)p.tp * p.dp);
            return 0;
        }
    }
    reason[0] = '\0';
    return 1;
}

/* The math of the quantized GEMMs.  MXFP4 weights (FP4 in blocks of 32,
 * gpt-oss) on a GPU with FP4 tensor cores multiply against MXFP8
 * activations: the mixed FP4 x FP8 MMA (tcgen05 kind::f8f6f4) runs at the
 * FP8 rate, FP4's double rate needs FP4 on both sides (NVFP4 W4A4).  The
 * kernel TensorRT-LLM runs on B200 is w4a8_mxfp4_mxfp8 (aiconfigurator-core
 * 0.12.0 perf data, b200_sxm moe.csv, gpt-oss-20b's 32 x 2880 x 2880 top-4
 * layer): it takes 1.61 ms at 16384 tokens, 0.95-1.03x the FP8-rate model
 * from 16 to 16384 tokens (0.88x at 512) where the FP4-rate one gave 0.66x
 * (tests/unit/test_engine.c test_mxfp4_blackwell_math).  Without FP4 tensor
 * cores MXFP4 dequantizes to 16-bit math (W4A16, kconst_init). */
static engine_dtype mx_math(const engine_scenario *s, engine_dtype w)
{
    if (w == ENGINE_FP4 && engine_scenario_quant_group(s) == 32 &&
        s->gpu->peak_flops[ENGINE_FP4] > 0 && s->gpu->peak_flops[ENGINE_FP8] > 0)
        return ENGINE_FP8;
    return w;
}

static void ctx_init(plan_ctx *c, const engine_scenario *s, engine_plan p)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->m = s->model;
    c->p = p;
    c->fw = s->framework ? s->framework : engine_framework_generic_ref();
    model_shape_compute(s->model, &c->sh);
    c->wdt = engine_scenario_weight_dtype(s);
    /* Block-scaled FP8 (DeepSeek-V3's checkpoints) at the GPU's block-scaled
     * rate, unless the framework runs it on DeepGEMM (per-tensor rate), which
     * exists on CUDA's SM 90 / SM 100 only (SGLang's _compute_enable_deep_gemm). */
    c->deepgemm = c->fw->deepgemm && s->gpu->deepgemm && engine_scenario_fp8_block(s);
    c->fp8_blk = engine_scenario_fp8_block(s) && !c->deepgemm;
    kconst_init_q(&c->kc, s->gpu, s->calib, mx_math(s, c->wdt), c->fp8_blk);
    /* MXFP4 weights on FP8 math (W4A8) run another grouped kernel than the
     * CUTLASS FP8 one eta_moe_fp8 was measured on (aiconfigurator's
     * moe_torch_flow w4a8_mxfp4_mxfp8): its own rate and per-token cost */
    if (c->wdt == ENGINE_FP4 && c->kc.math == ENGINE_FP8)
        kconst_w4a8_moe(&c->kc, s->gpu);
    if (c->kc.w4a16 && s->w4a16_kernel == ENGINE_W4A16_MARLIN)
        kconst_marlin(&c->kc, s->gpu);
    kconst_init(&c->kc16, s->gpu, s->calib, ENGINE_FP16);
    if (s->xqa_legacy && c->fw->decode_attn_xqa)
        c->kc.decode_cta = 0; /* an older TensorRT-LLM: the per-(sequence, head) form */
    if (s->gemm_acc16)
        kconst_acc16(&c->kc, s->gpu, s->calib); /* the block GEMMs; the LM head (kc16) stays FP32 */
    c->kc.attn_scores = s->attn_scores; /* no FlashAttention: the scores go to memory */
    c->per_node = s->gpus_per_node > 0 ? s->gpus_per_node : 0;
    c->w_b = engine_weight_elem_bytes(c->wdt, engine_scenario_quant_group(s));
    /* Quantized checkpoints keep the embedding, LM head and router in 16
     * bits (GPTQ/AWQ leave them out; Meta's and NVIDIA's FP8 checkpoints
     * quantize only the linear layers of the blocks). */
    double b16 = engine_dtype_bytes(ENGINE_FP16);
    c->edge_b = c->w_b < b16 ? b16 : c->w_b;
    c->attn16 = c->m->attn_16bit || (c->m->attn_16bit_fp4 && c->wdt == ENGINE_FP4);
    c->attn16_out = c->m->attn_16bit || (c->attn16 && !c->m->attn_out_fp4);
    c->kv_b = engine_dtype_bytes(s->kv_dtype);
    c->a_b = engine_dtype_bytes(s->act_dtype);
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
    c->ep_cross = p.ep > 1 && k > 0 && span > k;
    c->ep_per_node = (inter && c->ep_cross) ? (k / p.pp > 0 ? k / p.pp : 1) : 0;
    /* Redundant experts are extra slots of an EP plan; without EP every GPU
     * holds a slice of every expert and they mean nothing. */
    int groups = p.ep > 1 ? p.ep : 1;
    c->slots = (double)c->m->experts + (groups > 1 ? s->redundant_experts : 0);
    c->imbalance = c->m->experts > 0
                       ? engine_scenario_moe_imbalance(s, groups, (int)c->slots)
                       : 1.0;
    c->fuse_ar_norm = p.tp > 1 && engine_scenario_fuse_ar_norm(s);
    c->prefill_graphs = engine_scenario_prefill_graphs(s);
    c->one_ar = engine_scenario_one_allreduce(s);
    c->tbo = c->m->experts > 0 && p.ep > 1 && p.ep >= p.tp && engine_scenario_tbo(s);
}

/* --- stages ------------------------------------------------------------- */

/* The first layer of stage i and how many it has. */
static int stage_span(const plan_ctx *c, int i, int *n)
{
    int L = c->m->layers, pp = c->p.pp;
    int base = L / pp, extra = L % pp;
    *n = base + (i < extra ? 1 : 0);
    return i * base + (i < extra ? i : extra);
}

/* Layers of stage i, and how many of them have a dense MLP. */
static void stage_layers(const plan_ctx *c, int i, int *n, int *dense)
{
    int start = stage_span(c, i, n);
    *dense = *n - model_moe_layers_in(c->m, start, *n);
}

/* Layers of stage i by [MoE][local attention]. */
static void stage_kinds(const plan_ctx *c, int i, int cnt[2][2])
{
    int n, start = stage_span(c, i, &n);
    memset(cnt, 0, 4 * sizeof cnt[0][0]);
    for (int j = start; j < start + n; j++)
        cnt[model_moe_layers_in(c->m, j, 1)][model_local_layers_in(c->m, j, 1)]++;
}

/* KV bytes of stage i's layers for the batch at ctx tokens, and the part
 * held by local-attention layers (*local). */
static double stage_kv_bytes(const plan_ctx *c, int i, double ctx, double *local)
{
    const engine_model *m = c->m;
    int n, start = stage_span(c, i, &n);
    double per = (double)c->s->batch * model_kv_bytes_per_token_layer(m, c->s->kv_dtype, c->p.tp);
    int nl = model_local_layers_in(m, start, n);
    *local = per * nl * model_kv_tokens(m, !engine_scenario_local_kv_full(c->s), ctx);
    return per * (n - nl) * ctx + *local;
}

/* Prefill micro-batches: whole sequences by default (at most pp of them,
 * one without a pipeline); an explicit count above the batch splits
 * sequences into chunks, at most one token each. */
static double prefill_microbatches(const plan_ctx *c)
{
    const engine_scenario *s = c->s;
    /* one stage: the prompt in one go, unless the run chunks it (an explicit
     * m above the batch: llama.cpp's ubatches, each after the last) */
    if (c->p.pp <= 1 && !(s->microbatches > s->batch))
        return 1;
    double m = s->microbatches > 0 ? s->microbatches : (s->batch < c->p.pp ? s->batch : c->p.pp);
    double cap = (double)s->batch * s->prompt;
    return m > cap ? cap : m;
}

/* `count` micro-batches (0: pp) of `seqs` sequences: at most one a
 * sequence, at least one. */
static double microbatches_of(int count, int pp, double seqs)
{
    double m = count > 0 ? count : pp;
    if (m > seqs)
        m = seqs;
    return m < 1 ? 1 : m;
}

/* Prefill micro-batches of a load-simulation step of `seqs` sequences on
 * pp stages: the scenario's count, at most one a sequence (a step's chunks
 * are its scheduler's: no token split), else min(seqs, pp); one on one
 * stage.  Equal to prefill_microbatches wherever the count is at most the
 * batch. */
double eval_step_prefill_microbatches(const engine_scenario *s, int pp, double seqs)
{
    return pp <= 1 ? 1 : microbatches_of(s->microbatches, pp, seqs);
}

/* Decode groups in flight for `seqs` sequences on pp stages: the scenario's
 * count, at most one a sequence, else min(seqs, pp). */
double eval_decode_microbatches(const engine_scenario *s, int pp, double seqs)
{
    return microbatches_of(s->decode_microbatches, pp, seqs);
}

/* --- memory ------------------------------------------------------------- */

static int spec_on(const engine_scenario *s)
{
    return s->spec_method != ENGINE_SPEC_NONE;
}
static double spec_memory(const plan_ctx *c, double *kv_tok);

/* Weight bytes held by one GPU of stage i. */
static double stage_weight_bytes(const plan_ctx *c, int i)
{
    const model_shape *sh = &c->sh;
    const engine_plan p = c->p;
    int n, dense;
    stage_layers(c, i, &n, &dense);
    int moe = n - dense;
    double attn = (sh->attn - sh->attn_rep) / p.tp + sh->attn_rep;
    double mlp_one = (c->m->gated_mlp ? 3.0 : 2.0) * c->m->hidden * (double)c->m->ffn;
    double per_dense = attn + mlp_one / p.tp;
    double per_moe = 0;
    if (sh->moe_layers > 0) {
        /* ep >= tp > ...: slots/ep whole experts; ep < tp: slots/ep experts
         * split tp/ep ways, i.e. slots/tp experts' worth (ep 1 included) */
        double replicas = c->m->experts > 0 ? c->slots / c->m->experts : 1.0;
        double experts = sh->experts * replicas / sh->moe_layers / (p.ep >= p.tp && p.ep > 1 ? p.ep : p.tp);
        double shared = sh->shared / sh->moe_layers / p.tp;
        per_moe = attn + experts + shared;
    }
    /* norms are replicated and stay 16-bit in quantized checkpoints */
    double body = (dense * per_dense + moe * per_moe) * c->w_b + n * sh->norms * c->edge_b;
    if (c->attn16) /* the checkpoint keeps attention in 16 bits (o_proj: attn16_out) */
        body += n * (attn - (c->attn16_out ? 0 : sh->attn_out / p.tp)) * (c->edge_b - c->w_b);
    double router = moe > 0 ? moe * sh->router / sh->moe_layers * c->edge_b : 0;
    double edges = 0;
    if (i == 0)
        edges += sh->embed_in / p.tp * c->edge_b;
    if (i == p.pp - 1) {
        edges += sh->final_norm * c->edge_b;
        /* Tied: one stage holds the shared matrix; with pp > 1 the last
         * stage keeps its own copy. */
        if (sh->head > 0 || p.pp > 1)
            edges += (double)c->m->vocab * c->m->hidden / p.tp * c->edge_b;
    }
    return body + router + edges;
}

static void memory_compute(const plan_ctx *c, engine_memory *mem)
{
    const engine_scenario *s = c->s;
    const engine_model *m = c->m;
    const engine_plan p = c->p;
    double wmax = 0;
    for (int i = 0; i < p.pp; i++) {
        double w = stage_weight_bytes(c, i);
        if (w > wmax)
            wmax = w;
    }
    mem->weights_bytes = wmax;

    int n0, d0;
    stage_layers(c, 0, &n0, &d0); /* the first stages hold the most layers */
    double ctx = (double)s->prompt + s->gen;
    mem->kv_bytes = (double)s->batch * ctx * n0 * model_kv_bytes_per_token_layer(m, s->kv_dtype, p.tp);
    mem->kv_local_bytes = 0;
    if (m->window > 0) { /* local layers keep at most the window: the largest stage */
        mem->kv_bytes = 0;
        for (int i = 0; i < p.pp; i++) {
            double loc, kv = stage_kv_bytes(c, i, ctx, &loc);
            if (kv > mem->kv_bytes) {
                mem->kv_bytes = kv;
                mem->kv_local_bytes = loc;
            }
        }
    }

    /* Prefill workspace of one micro-batch: residual + norm output, the
     * sharded QKV and MLP intermediates, and FP32 logits of the last tokens.
     * FlashAttention is assumed: no S x S score matrix is materialised. */
    double mb = prefill_microbatches(c);
    double tokens = (double)s->batch * s->prompt / mb;
    if (c->fw->max_num_tokens > 0 && tokens > c->fw->max_num_tokens)
        tokens = c->fw->max_num_tokens; /* chunked prefill: one chunk at a time */
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
    mem->overhead_bytes =
        s->runtime_overhead_bytes >= 0 ? s->runtime_overhead_bytes : c->fw->runtime_bytes;
    if (spec_on(s)) { /* counted on the largest stage: an upper bound under pp > 1 */
        double kv_tok;
        mem->spec_weights_bytes = spec_memory(c, &kv_tok);
        mem->spec_kv_bytes = (double)s->batch * ctx * kv_tok;
        mem->weights_bytes += mem->spec_weights_bytes;
        mem->kv_bytes += mem->spec_kv_bytes;
    }
    mem->per_gpu_bytes =
        mem->weights_bytes + mem->kv_bytes + mem->activation_bytes + mem->overhead_bytes;
    double vram = engine_scenario_vram(s);
    double frac = engine_plan_usable_fraction(s, p);
    mem->usable_fraction = frac;
    double fixed = mem->weights_bytes + mem->activation_bytes + mem->overhead_bytes;
    if (c->fw->mem_rule == ENGINE_MEM_FREE) {
        double free_b = vram - fixed;
        mem->kv_capacity_bytes = free_b > 0 ? frac * free_b : 0;
        mem->capacity_bytes = fixed + mem->kv_capacity_bytes;
        mem->fits = free_b > 0 && mem->kv_bytes <= mem->kv_capacity_bytes;
    } else {
        mem->capacity_bytes = vram * frac;
        mem->kv_capacity_bytes = mem->capacity_bytes > fixed ? mem->capacity_bytes - fixed : 0;
        mem->fits = mem->per_gpu_bytes <= mem->capacity_bytes;
    }
}

/* --- kernels of one layer ------------------------------------------------- */

typedef enum layer_kind { LAYER_DENSE, LAYER_MOE } layer_kind;

/* One step's shape: `seqs` sequences of `t` new tokens after `past`
 * cached ones; decode when t == 1 and past > 0 with the KV cache read. */
typedef struct step_shape {
    double seqs, t, past;
    int decode;
    double window; /* a local layer's window (tokens); 0: global attention */
    const step_mix *mix; /* a mixed step (step.c): attention per part; NULL: uniform */
    double pad; /* decode: dummy sequences of CUDA graph padding (one cached
                 * token each) beside the seqs: every token's kernels, no cache */
} step_shape;

/* A dense MLP of T tokens; shared: a MoE layer's shared experts (explain names). */
static void mlp(step_acc *a, const plan_ctx *c, double T, double width, double shard, int shared)
{
    const engine_model *m = c->m;
    double d = m->hidden, ab = c->a_b;
    double f = width / shard;
    const char *up = m->gated_mlp ? (shared ? "shared gate_up" : "gate_up")
                                  : (shared ? "shared up" : "up");
    gemm(a, &c->kc, up, T, (m->gated_mlp ? 2.0 : 1.0) * f, d, 1, c->w_b, ab);
    small(a, &c->kc, shared ? "shared activation" : "activation",
          (m->gated_mlp ? 3.0 : 2.0) * T * f * ab);
    gemm(a, &c->kc, shared ? "shared down" : "down", T, d, f, 1, c->w_b, ab);
}

/* Explain: an attention kernel of the step, named by phase and window. */
static void attn_rec(step_acc *a, const step_shape *sp, const kcost *x)
{
    if (!a->xt)
        return;
    const char *name = sp->decode ? (sp->window > 0 ? "attn decode (local)" : "attn decode")
                                  : (sp->window > 0 ? "attn prefill (local)" : "attn prefill");
    xt_rec(a->xt, name, ENGINE_KC_ATTN, x->flops, x->bytes, x->time, x->bound);
}

/* Decode attention reading kvb bytes of KV cache with fl FLOPs: GQA/MHA
 * by thread block for the shape d (kc_attn_decode_gqa), or, d NULL, over
 * seq_heads (sequence, head) pairs (kc_attn_decode: MLA). */
static void attn_decode(step_acc *a, const kconst *k, const step_shape *sp, const kdecode *d,
                        double kvb, double fl, double seq_heads)
{
    double t = d ? kc_attn_decode_gqa(k, d, kvb, fl) : kc_attn_decode(k, kvb, fl, seq_heads);
    kernel(a, t, &a->attn);
    if (a->xt) {
        kcost x = {t, fl, kvb,
                   d ? kc_attn_decode_gqa_bound(k, d, kvb, fl)
                     : kc_attn_decode_bound(k, kvb, fl, seq_heads)};
        attn_rec(a, sp, &x);
    }
}

/* 1 when GQA decode attention runs TensorRT-LLM's masked MHA: the
 * framework chooses by kernel (decode_attn_xqa) and the per-GPU group of
 * query heads per KV head is outside XQA's of the scenario's generation
 * (engine_xqa_group_ok; xqa_precompiled). */
static int gqa_mmha(const plan_ctx *c, double heads, double kvh)
{
    if (!c->fw->decode_attn_xqa || !(kvh > 0))
        return 0;
    return !engine_xqa_group_ok((int)(heads / kvh + 0.5), c->m->head_dim, c->s->xqa_precompiled);
}

/* GQA decode attention: XQA / fused kernels at the tensor-core rate, masked
 * MHA at the CUDA-core FP32 rate (kc_attn_decode_mmha). */
static double gqa_decode_s(const plan_ctx *c, int mmha, double kvb, double fl, double sh,
                           const kdecode *d)
{
    return mmha ? kc_attn_decode_mmha(&c->kc, kvb, fl, sh, d->group)
                : kc_attn_decode_gqa(&c->kc, d, kvb, fl);
}

/* The attention kernel of a uniform step shape under GQA/MHA. */
static double gqa_attn_s(const plan_ctx *c, const step_shape *sp, double heads, double kvh)
{
    const engine_model *m = c->m;
    const kconst *k = &c->kc;
    double dh = m->head_dim;
    if (sp->decode) {
        double ctx = sp->past + 1;
        /* past the window: a sliding one sees its whole window, a chunked
         * one (Llama 4) half a chunk on average */
        if (sp->window > 0 && ctx > sp->window)
            ctx = m->window_chunked ? (sp->window + 1) / 2.0 : sp->window;
        double kvt = model_kv_bytes_per_token_layer(m, c->s->kv_dtype, c->p.tp);
        double kvb = (sp->seqs * ctx + sp->pad) * kvt; /* a dummy: one cached token */
        double fl = 4.0 * (sp->seqs * ctx + sp->pad) * heads * dh;
        kdecode d = {sp->seqs + sp->pad, ctx, kvh, heads / kvh, c->kv_b};
        return gqa_decode_s(c, gqa_mmha(c, heads, kvh), kvb, fl, (sp->seqs + sp->pad) * heads,
                            &d);
    }
    return kc_attn_prefill_w(k, sp->seqs, sp->t, sp->past, sp->window, m->window_chunked, heads,
                             kvh, dh, dh, c->a_b);
}

/* The attention kernel of a uniform step shape under MLA (absorbed in
 * decode: every head reads the shared latent cache). */
static double mla_attn_s(const plan_ctx *c, const step_shape *sp, double heads, double kvh)
{
    const engine_model *m = c->m;
    (void)kvh;
    double qk = (double)m->qk_nope_dim + m->qk_rope_dim;
    double lat = (double)m->kv_lora_rank + m->qk_rope_dim;
    if (sp->decode) {
        double ctx = sp->past + 1;
        double kvb = (sp->seqs * ctx + sp->pad) * lat * c->kv_b;
        double fl = 2.0 * (sp->seqs * ctx + sp->pad) * heads * (lat + m->kv_lora_rank);
        return kc_attn_decode(&c->kc, kvb, fl, (sp->seqs + sp->pad) * heads);
    }
    return kc_attn_prefill(&c->kc, sp->seqs, sp->t, sp->past, heads, heads, qk, m->v_head_dim,
                           c->a_b);
}

typedef double (*attn_fn)(const plan_ctx *c, const step_shape *sp, double heads, double kvh);

/* The attention kernels of a mixed step (step.c): one varlen prefill kernel over its chunks (each chunk's
 * time, one fixed cost for all) and one decode kernel over its decoding
 * sequences at their mean context. */
static void attn_kernels(const plan_ctx *c, const step_shape *sp, double heads, double kvh,
                         attn_fn fn, step_acc *a)
{
    const step_mix *mx = sp->mix;
    double pre = 0;
    int parts = 0;
    for (int i = 0; i < mx->n_pre; i++) {
        const engine_step_chunk *ch = &mx->pre[i];
        step_shape one = {ch->seqs / mx->mb, ch->tokens, ch->past, 0, sp->window, NULL, 0};
        double t = fn(c, &one, heads, kvh);
        if (t > 0)
            pre += parts++ ? t - c->kc.attn_t0 : t;
    }
    if (parts)
        kernel_split(a, pre, &a->attn);
    if (mx->dec_seqs > 0) {
        step_shape dec = {mx->dec_seqs / mx->mb, 1, mx->dec_past, 1, sp->window, NULL, sp->pad};
        kernel_split(a, fn(c, &dec, heads, kvh), &a->attn);
    }
}

/* The attention output projection of T rows from `width` (heads x value
 * width) to the hidden size: 16-bit where the checkpoint keeps it so
 * (attn16_out), else at the weights' dtype (attn_out_fp4). */
static void attn_out_gemm(const plan_ctx *c, double T, double width, step_acc *a)
{
    const int o16 = c->attn16_out;
    gemm(a, o16 ? &c->kc16 : &c->kc, "attn out", T, c->m->hidden, width, 1,
         o16 ? c->edge_b : c->w_b, c->a_b);
}

/* Multi-head latent attention (DeepSeek): the q and latent KV
 * projections, attention over the latent cache, the output projection. */
static void attn_mla(const plan_ctx *c, const step_shape *sp, double heads, step_acc *a)
{
    const engine_model *m = c->m;
    const int a16 = c->attn16; /* 16-bit attention in a quantized checkpoint */
    const kconst *k = &c->kc, *kg = a16 ? &c->kc16 : k; /* kg: the projections */
    double T = (sp->seqs + sp->pad) * sp->t;
    double d = m->hidden, ab = c->a_b, wb = a16 ? c->edge_b : c->w_b;
    double qk = (double)m->qk_nope_dim + m->qk_rope_dim;
    double lat = (double)m->kv_lora_rank + m->qk_rope_dim;
    if (m->q_lora_rank > 0) {
        gemm(a, kg, "mla q down", T, m->q_lora_rank, d, 1, wb, ab); /* replicated */
        small(a, k, "mla q norm", 2.0 * T * m->q_lora_rank * ab);
        gemm(a, kg, "mla q up", T, heads * qk, m->q_lora_rank, 1, wb, ab);
    } else {
        gemm(a, kg, "mla q", T, heads * qk, d, 1, wb, ab);
    }
    gemm(a, kg, "mla kv down", T, lat, d, 1, wb, ab);
    small(a, k, "mla kv norm", 2.0 * T * m->kv_lora_rank * ab);
    gemm(a, kg, "mla kv up", T, heads * ((double)m->qk_nope_dim + m->v_head_dim),
         m->kv_lora_rank, 1, wb, ab);
    if (sp->mix) {
        attn_kernels(c, sp, heads, heads, mla_attn_s, a);
    } else if (sp->decode) {
        /* Absorbed MLA: every head reads the shared latent cache (once for
         * the t query tokens of a verification step). */
        double ctx = sp->past + sp->t;
        double kvb = (sp->seqs * ctx + sp->pad) * lat * c->kv_b;
        double fl = 2.0 * (sp->seqs * ctx + sp->pad) * heads * (lat + m->kv_lora_rank) * sp->t;
        attn_decode(a, k, sp, NULL, kvb, fl, (sp->seqs + sp->pad) * heads);
    } else {
        kcost x;
        kernel_split(a, kc_attn_prefill_x(k, sp->seqs, sp->t, sp->past, 0, 0, heads, heads, qk,
                                    m->v_head_dim, ab, a->xt ? &x : NULL),
               &a->attn);
        attn_rec(a, sp, &x);
    }
    attn_out_gemm(c, T, heads * m->v_head_dim, a);
}

/* Grouped-query (or multi-head) attention: the fused QKV projection,
 * rotary and the KV-cache write unless fused, attention, the output
 * projection. */
static void attn_gqa(const plan_ctx *c, const step_shape *sp, double heads, step_acc *a)
{
    const engine_model *m = c->m;
    const engine_plan p = c->p;
    const int a16 = c->attn16; /* 16-bit attention in a quantized checkpoint */
    const kconst *k = &c->kc, *kg = a16 ? &c->kc16 : k; /* kg: the projections */
    double T = (sp->seqs + sp->pad) * sp->t;
    double d = m->hidden, ab = c->a_b, wb = a16 ? c->edge_b : c->w_b;
    double kvh = m->kv_heads >= p.tp ? (double)m->kv_heads / p.tp : 1.0;
    double dh = m->head_dim;
    gemm(a, kg, "qkv", T, (heads + 2.0 * kvh) * dh, d, 1, wb, ab);
    if (!c->fw->attn_fused) {
        /* rotary on q and k, then the new K and V into the paged cache */
        small(a, k, "rotary", 2.0 * T * (heads + kvh) * dh * ab);
        double h = split_enter(a); /* inside the attention backend's op */
        small(a, k, "kv write", T * 2.0 * kvh * dh * (ab + c->kv_b));
        a->host = h;
    }
    if (sp->mix) {
        attn_kernels(c, sp, heads, kvh, gqa_attn_s, a);
    } else if (sp->decode) {
        double ctx = sp->past + sp->t; /* t > 1: a verification step, cache read once */
        /* past the window: a sliding one sees its whole window, a chunked
         * one (Llama 4) half a chunk on average */
        if (sp->window > 0 && ctx > sp->window)
            ctx = m->window_chunked ? (sp->window + 1) / 2.0 : sp->window;
        double kvt = model_kv_bytes_per_token_layer(m, c->s->kv_dtype, p.tp);
        double kvb = (sp->seqs * ctx + sp->pad) * kvt; /* a dummy: one cached token */
        double fl = 4.0 * (sp->seqs * ctx + sp->pad) * heads * dh * sp->t;
        double sh = (sp->seqs + sp->pad) * heads;
        if (gqa_mmha(c, heads, kvh)) {
            double t = kc_attn_decode_mmha(k, kvb, fl, sh, heads / kvh);
            kernel(a, t, &a->attn);
            kcost x = {t, fl, kvb, kc_attn_decode_mmha_bound(k, kvb, fl, sh, heads / kvh)};
            attn_rec(a, sp, &x);
        } else {
            kdecode dd = {sp->seqs + sp->pad, ctx, kvh, heads / kvh, c->kv_b};
            attn_decode(a, k, sp, &dd, kvb, fl, sh);
        }
    } else {
        kcost x;
        kernel_split(a, kc_attn_prefill_x(k, sp->seqs, sp->t, sp->past, sp->window, m->window_chunked,
                                    heads, kvh, dh, dh, ab, a->xt ? &x : NULL),
               &a->attn);
        attn_rec(a, sp, &x);
    }
    attn_out_gemm(c, T, heads * dh, a);
}

/* Dispatch + combine of an EP group, `tok` the bytes of the tokens each
 * GPU sends, once each, and `scale` the busiest GPU's routed pairs over the
 * mean (its share sets the step): NCCL's all-to-all twice or DeepEP's
 * low-latency kernels (where a rank dispatches at most
 * ENGINE_DEEPEP_LL_TOKENS tokens) move every top-k copy; DeepEP's normal
 * kernels a token once per destination node over the scale-out link and
 * once per destination rank over NVLink (engine_deepep_normal_s).  A GPU's
 * RDMA traffic is its node's: a token reaches a node through the GPU of
 * the sender's in-node index, so that leg carries the busiest node's
 * imbalance (the default rule over nodes; at most `scale`), the NVLink
 * fan-out the busiest GPU's. */
static double ep_alltoall(const plan_ctx *c, double T, double tok, double scale, step_acc *a)
{
    const engine_scenario *s = c->s;
    const engine_model *m = c->m;
    const engine_plan p = c->p;
    double bytes = tok * scale * m->top_k;
    if (s->a2a == ENGINE_A2A_NCCL) {
        double disp = comm(c, a, "ep dispatch", ENGINE_OP_ALLTOALL, p.ep, c->ep_per_node, bytes);
        return disp + comm(c, a, "ep combine", ENGINE_OP_ALLTOALL, p.ep, c->ep_per_node, bytes);
    }
    int ll = s->a2a == ENGINE_A2A_DEEPEP_LL && T / p.tp <= ENGINE_DEEPEP_LL_TOKENS;
    int cross = c->ep_cross && s->inter;
    int nodes = cross ? (p.ep + c->ep_per_node - 1) / c->ep_per_node : 1;
    double node_scale = fmin(engine_scenario_moe_imbalance(s, nodes, (int)c->slots), scale);
    double rank_b = tok * scale *
                    engine_ep_distinct(m->experts, m->top_k, m->n_group, m->topk_group, p.ep);
    double node_b = tok * fmax(node_scale, 1.0) *
                    engine_ep_distinct(m->experts, m->top_k, m->n_group, m->topk_group, nodes);
    double moved = ll ? bytes : cross ? node_b : rank_b; /* explain: the table's unit */
    double t = 0;
    for (int dir = 0; dir < 2; dir++) {
        double tc = coll(a, ll ? engine_deepep_s(s->intra, s->inter, p.ep, cross, 1, dir, bytes)
                               : engine_deepep_normal_s(s->intra, s->inter, p.ep, cross, dir,
                                                        rank_b, node_b));
        if (a->xt && tc > 0)
            xt_rec(a->xt, dir ? "ep combine (deepep)" : "ep dispatch (deepep)", ENGINE_KC_COMM, 0,
                   moved, tc, ENGINE_BOUND_BANDWIDTH);
        t += tc;
    }
    return t;
}

/* One of the fused MoE's serial kernels (moe_serial): its HBM traffic at
 * bw, at least the kernel floor, and its launch. */
static void moe_kernel(step_acc *a, const kconst *k, const char *name, double bytes, double bw)
{
    double tm = bytes / bw;
    double t = tm > k->floor ? tm : k->floor;
    kernel(a, t, &a->small);
    if (a->xt)
        xt_rec(a->xt, name, ENGINE_KC_SMALL, 0, bytes, t,
               tm >= t ? ENGINE_BOUND_MEMORY : ENGINE_BOUND_FLOOR);
}

/* Its contiguous element-wise kernels (the activation, the block-scale
 * quantizations) at the GPU's streaming rate (hbm x eta_memory, as a
 * GEMM's weight stream). */
static void moe_small(step_acc *a, const kconst *k, const char *name, double bytes)
{
    moe_kernel(a, k, name, bytes, k->bw);
}

/* Its row kernels (routing, input quant, sort, expand, finalize; one
 * thread block per row) at the GPU's row rate (hbm x eta_moe_rows, else
 * eta_small). */
static void moe_row(step_acc *a, const kconst *k, const char *name, double bytes)
{
    moe_kernel(a, k, name, bytes, k->bw_rows);
}

/* Bytes per element of the activations the grouped expert GEMMs read:
 * TensorRT-LLM's fused MoE quantizes them to the GEMM's input type (FP8:
 * 1; NVFP4: half a byte and one e4m3 scale per 16 elements); 16-bit math
 * reads the activation dtype. */
static double moe_q_bytes(const kconst *k, double ab)
{
    if (k->math == ENGINE_FP8 || k->math == ENGINE_INT8)
        return 1.0;
    if (k->math == ENGINE_FP4 || k->math == ENGINE_INT4)
        return 0.5 + 1.0 / 16.0;
    return ab;
}

/* The serial work of TensorRT-LLM's fused MoE around its two grouped GEMMs
 * (TensorRT-LLM cpp/tensorrt_llm/kernels/cutlass_kernels/moe_gemm/
 * moe_kernels.cu, CutlassMoeFCRunner::runMoe, gemm1, gemm2; README "The
 * model"), each kernel its HBM traffic at the element-wise rate and its
 * launch: `own` tokens routed (softmax + top-k) and, for FP8 / NVFP4
 * activations, quantized before the op; the routing sort
 * (fusedBuildExpertMapsSortFirstToken: the top-k ids in, the two row maps
 * out); expandInputRowsKernel, which copies each routed pair's source row
 * (read and write `d` per pair, not per token); the gated activation
 * (doActivation: the 16-bit GEMM1 output of 2 f in, f out per pair); the
 * finalize (finalizeMoeRoutingKernel: every pair's GEMM2 row in, the top-k
 * weighted sum out for each of `rows` tokens, the op's num_rows).
 * Block-scaled FP8 (DeepSeek's 128x128 weights) keeps the permuted and
 * activated rows 16-bit: its grouped GEMM runner quantizes each GEMM's
 * input per 1 x 128 first (fp8_blockscale_gemm scale_1x128_kernel, one
 * fp32 scale per 128).  phase 0: before the GEMMs, 1: between, 2: after. */
static void moe_serial(const plan_ctx *c, int phase, double own, double rows, double busy,
                       double f, step_acc *a)
{
    const kconst *k = &c->kc;
    const engine_model *m = c->m;
    double d = m->hidden, ab = c->a_b, K = m->top_k;
    int blk = k->math == ENGINE_FP8 && c->fp8_blk;
    double q = blk ? ab : moe_q_bytes(k, ab);
    double q8 = 1.0 + 4.0 / 128.0; /* fp8 and its fp32 scale per 128 */
    if (phase == 0) {
        moe_row(a, k, "moe routing", own * m->experts * 4.0 * 2.0); /* softmax + top-k */
        if (q < ab)
            moe_row(a, k, "moe input quant", own * d * (ab + q));
        moe_row(a, k, "moe sort", 4.0 * (2.0 * own * K + busy));
        moe_row(a, k, "moe permute", busy * d * 2.0 * q);
        if (blk)
            moe_small(a, k, "experts fc1 quant", busy * d * (ab + q8));
    } else if (phase == 1) {
        moe_small(a, k, "experts activation", busy * f * ((m->gated_mlp ? 2.0 : 1.0) * ab + q));
        if (blk)
            moe_small(a, k, "experts fc2 quant", busy * f * (ab + q8));
    } else {
        moe_row(a, k, "moe unpermute", (busy + rows) * d * ab); /* and combine */
    }
}

/* Whether the plan's MoE layers run TensorRT-LLM's CUTLASS fused MoE
 * (moe_serial): the framework's moe_expand, except MXFP4 weights (W4A16
 * on Hopper, W4A8 on Blackwell: mx_math), which run other MoE kernels
 * (aiconfigurator's moe_torch_flow rows). */
static int moe_expands(const plan_ctx *c)
{
    return c->fw->moe_expand && !(c->wdt == ENGINE_FP4 && c->kc.math != ENGINE_FP4);
}

/* The per-token estimate of a fused MoE's element-wise kernels, for a
 * framework whose MoE is not TensorRT-LLM's CUTLASS one (moe_expand 0:
 * vLLM's and SGLang's Triton fused_moe gather the rows inside the GEMM) and
 * for the W4A16 MoE (Triton, on Hopper; its own per-token and fixed costs,
 * moe_w4a16_*, were fitted with these): permute and unpermute over this
 * GPU's tokens and its pairs, the activation over the pairs. */
static void moe_serial_token(const plan_ctx *c, int phase, double T, double busy, double f,
                             step_acc *a)
{
    const kconst *k = &c->kc;
    double d = c->m->hidden, ab = c->a_b;
    if (phase == 0) {
        small(a, k, "moe routing", T * c->m->experts * 4.0 * 2.0); /* softmax + top-k */
        small(a, k, "moe permute", (T + busy) * d * ab);
    } else if (phase == 1) {
        small(a, k, "experts activation", (c->m->gated_mlp ? 3.0 : 2.0) * busy * f * ab);
    } else {
        small(a, k, "moe unpermute", (T + busy) * d * ab); /* and combine */
    }
}

/* One phase (0 before the grouped GEMMs, 1 between, 2 after) of the fused
 * MoE's element-wise kernels: TensorRT-LLM's (moe_serial) when `expand`,
 * else the per-token estimate (moe_serial_token). */
static void moe_phase(const plan_ctx *c, int expand, int phase, double T, double own,
                      double rows, double busy, double f, step_acc *a)
{
    if (expand)
        moe_serial(c, phase, own, rows, busy, f, a);
    else
        moe_serial_token(c, phase, T, busy, f, a);
}

/* The routed experts of an MoE layer for T tokens of this GPU: routing
 * (softmax + top-k over the router's logits), the shared experts when
 * `shared`, permute, the grouped expert GEMMs, activation, unpermute and
 * combine.  all_rows: every pooled token is a row of this GPU's fused MoE
 * (aiconfigurator's collector, TensorRT-LLM's all-gather EP), else the
 * tokens an all-to-all dispatch brings.  Returns the busiest group's pairs
 * over the mean (the all-to-all's scale). */
static double moe_routed(const plan_ctx *c, double T, int all_rows, int shared, step_acc *a)
{
    const engine_model *m = c->m;
    const engine_plan p = c->p;
    const kconst *k = &c->kc;
    double d = m->hidden, ab = c->a_b, wb = c->w_b;
    double E = m->experts, K = m->top_k;
    double fe = m->moe_ffn > 0 ? m->moe_ffn : m->ffn;
    /* Routed experts over S = c->slots physical slots (E plus redundant
     * replicas): ep == 1 shards every expert over the TP group; 1 < ep < tp
     * splits them into ep groups, each expert sharded over the tp/ep GPUs of
     * its group (every TP rank already holds all the tokens: no all-to-all,
     * the MLP's TP all-reduce combines); ep >= tp gives each GPU S/ep whole
     * experts and pools the tokens of the ep/tp replicas of its EP group. */
    double S = c->slots;
    double shard = p.ep >= p.tp ? 1.0 : (double)p.tp / p.ep;
    double pool = T * (p.ep > p.tp ? (double)p.ep / p.tp : 1.0);
    double local = p.ep > 1 ? S / p.ep : E;
    double assign = pool * K / (p.ep > 1 ? p.ep : 1); /* token-expert pairs here */
    /* Expected slots hit when the pooled tokens each pick K of S
     * uniformly: local * (1 - (1 - K/S)^pool). */
    double hit = K < S ? local * (1.0 - exp(pool * log1p(-K / S))) : local;
    if (hit < 1e-9)
        hit = 1e-9;
    /* The busiest group gets imbalance x the mean of the pairs (at most
     * every pooled token on min(K, local) of its slots): its GEMMs, its
     * permutes and its all-to-all set the step. */
    double busy = fmin(assign * c->imbalance, pool * fmin(K, local));
    if (busy < assign)
        busy = assign;
    if (c->rr_hit > 0) { /* a routing given (engine_moe_layer_routed_s) */
        hit = c->rr_hit;
        busy = c->rr_pairs;
    }
    double me = busy / hit; /* tokens per touched expert */
    double f = fe / shard;
    /* the fused MoE's rows: a dispatch brings the pooled tokens with at
     * least one of the local slots among their K (the busiest GPU's share) */
    double own = all_rows ? pool : T, rows = pool;
    if (!all_rows && p.ep > p.tp && local < S)
        rows = fmin(pool, pool * (1.0 - pow(1.0 - local / S, K)) * c->imbalance);
    int expand = moe_expands(c);
    moe_phase(c, expand, 0, T, own, rows, busy, f, a);
    if (shared && m->shared_experts > 0)
        mlp(a, c, T, m->shared_experts * fe, p.tp, 1);
    /* the grouped expert GEMMs run at the GPU's grouped-kernel rate
     * (eta_moe*: kconst_init), their weight stream as the dense GEMMs',
     * the two blended in TensorRT-LLM's CUTLASS MoE (kconst_experts) */
    kconst ke;
    kconst_experts(&ke, k, expand);
    gemm(a, &ke, m->gated_mlp ? "experts gate_up" : "experts up", me,
         (m->gated_mlp ? 2.0 : 1.0) * f, d, hit, wb, ab);
    moe_phase(c, expand, 1, T, own, rows, busy, f, a);
    gemm(a, &ke, "experts down", me, d, f, hit, wb, ab);
    moe_phase(c, expand, 2, T, own, rows, busy, f, a);
    double fixed = k->w4a16 ? c->fw->moe_w4a16_fixed_s : 0.0;
    if (fixed > 0 || k->moe_token > 0) {
        /* the W4A16 / W4A8 MoE's own cost: the framework's per layer
         * (W4A16), the GPU's over every pooled token (kconst_init,
         * kconst_w4a8_moe) */
        double t = fixed + k->moe_token * pool;
        kernel(a, t, &a->small);
        if (a->xt)
            xt_rec(a->xt, k->w4a8 ? "moe w4a8 overhead" : "moe w4a16 overhead",
                   ENGINE_KC_SMALL, 0, 0, t, ENGINE_BOUND_FLOOR);
    }
    return assign > 0 ? busy / assign : 1.0;
}

/* A mixture-of-experts MLP of T tokens (act: their activation bytes): the
 * router, shared experts, the routed experts' grouped GEMMs between
 * permute and unpermute, and the EP all-to-alls. */
static void moe_mlp(const plan_ctx *c, double T, double act, step_acc *a)
{
    const engine_plan p = c->p;
    gemm(a, &c->kc16, "router", T, c->m->experts, c->m->hidden, 1, c->edge_b,
         c->a_b); /* replicated, 16-bit */
    double scale = moe_routed(c, T, 0, 1, a);
    if (p.ep > 1 && p.ep >= p.tp)
        a->ep += ep_alltoall(c, T, act / p.tp, scale, a);
}

/* The residual add + norm named `name` (explain) after a TP all-reduce
 * (`bytes` moved): its own kernel, or fused into the all-reduce, its time
 * and launch gap saved. */
static void norm_after_ar(step_acc *a, const plan_ctx *c, const char *name, double bytes)
{
    if (!c->fuse_ar_norm) {
        small(a, &c->kc, name, bytes);
        return;
    }
    double t = kc_small(&c->kc, bytes);
    a->ar_saved += t + (a->host > t ? a->host - t : 0.0);
}

/* One transformer layer of kind `kind` for step shape sp, added to a. */
static void layer_cost(const plan_ctx *c, layer_kind kind, const step_shape *sp, step_acc *a)
{
    const engine_model *m = c->m;
    const engine_plan p = c->p;
    const kconst *k = &c->kc;
    double T = (sp->seqs + sp->pad) * sp->t;
    double d = m->hidden, ab = c->a_b;
    double heads = (double)m->heads / p.tp;

    /* Attention block: (residual add +) norm, projections, attention,
     * output projection, TP all-reduce. */
    norm_after_ar(a, c, "residual + norm", 4.0 * T * d * ab);
    if (m->mla)
        attn_mla(c, sp, heads, a);
    else
        attn_gqa(c, sp, heads, a);
    double act = T * d * ab;
    int ar_node = c->tp_hier ? c->per_node : 0;
    /* one all-reduce a layer: the MLP's sums both partial outputs */
    if (p.tp > 1 && !c->one_ar)
        a->tp += comm(c, a, "tp all-reduce", ENGINE_OP_ALLREDUCE, p.tp, ar_node, act);

    /* MLP block (one all-reduce: its norm reads the layer's input, after
     * no all-reduce to fuse into). */
    if (c->one_ar)
        small(a, k, "norm", 4.0 * T * d * ab);
    else
        norm_after_ar(a, c, "residual + norm", 4.0 * T * d * ab);
    if (kind == LAYER_DENSE)
        mlp(a, c, T, m->ffn, p.tp, 0);
    else
        moe_mlp(c, T, act, a);
    if (p.tp > 1)
        a->tp += comm(c, a, "tp all-reduce", ENGINE_OP_ALLREDUCE, p.tp, ar_node, act);
    a->small += k->layer_extra;
    if (a->xt && k->layer_extra > 0)
        xt_rec(a->xt, "layer overhead", ENGINE_KC_SMALL, 0, 0, k->layer_extra,
               ENGINE_BOUND_FLOOR);
}

/* The cost of stage i of the pipeline for one micro-batch; lay[moe][local]
 * are the layer costs for that shape (dense or MoE MLP, global or local
 * attention). */
/* The sampler after the LM head (README "The model", framework
 * profiles): the kernels of the scenario's sampling path sharing their
 * passes over the step's fp32 logits (`logits` bytes), each at least the
 * kernel floor. */
static void sampler(step_acc *a, const plan_ctx *c, double logits)
{
    const engine_framework *fw = c->fw;
    double passes;
    int n = engine_sampler_kernels(fw, c->s->sampling, &passes);
    for (int i = 0; i < n; i++)
        small(a, &c->kc, "sampling", passes * logits / n);
}

static void stage_cost(const plan_ctx *c, int i, const step_shape *sp, step_acc lay[2][2],
                       step_acc *out)
{
    const engine_model *m = c->m;
    const engine_plan p = c->p;
    const kconst *k = &c->kc;
    double T = (sp->seqs + sp->pad) * sp->t, d = m->hidden, ab = c->a_b;
    int n, nd;
    stage_layers(c, i, &n, &nd);
    acc_start(out, out);
    xtrace *xt = out->xt;
    if (m->window > 0) {
        int cnt[2][2];
        stage_kinds(c, i, cnt);
        for (int e = 0; e < 2; e++)
            for (int l = 0; l < 2; l++) {
                acc_add(out, &lay[e][l], cnt[e][l]);
                if (xt)
                    xt_add(xt, lay[e][l].xt, cnt[e][l]);
            }
    } else {
        acc_add(out, &lay[0][0], nd);
        acc_add(out, &lay[1][0], n - nd);
        if (xt) {
            xt_add(xt, lay[0][0].xt, nd);
            xt_add(xt, lay[1][0].xt, n - nd);
        }
    }
    int ar_node = c->tp_hier ? c->per_node : 0;
    if (i > 0 && c->fuse_ar_norm && n > 0) {
        /* the stage's first norm follows a receive, not an all-reduce */
        plan_ctx plain = *c;
        plain.fuse_ar_norm = 0;
        step_acc one = *out;
        one.ar_saved = 0;
        norm_after_ar(&one, c, "residual + norm", 4.0 * T * d * ab);
        out->ar_saved -= one.ar_saved;
        norm_after_ar(out, &plain, "residual + norm", 4.0 * T * d * ab);
    }
    if (i == 0) { /* embedding lookup (vocabulary-parallel: masked, then all-reduced) */
        small(out, k, "embedding", 2.0 * T * d * ab);
        if (p.tp > 1)
            out->tp += comm(c, out, "tp all-reduce", ENGINE_OP_ALLREDUCE, p.tp, ar_node,
                            T * d * ab);
    }
    if (i == p.pp - 1) {
        /* Final norm, logits of the last token of each sequence (a tied
         * head still runs its GEMM), their gather over TP, sampling. */
        norm_after_ar(out, c, "final norm", 2.0 * T * d * ab);
        double rows = sp->decode ? T : sp->seqs + sp->pad; /* a verification step: every token */
        double h = split_enter(out); /* after the captured model forward */
        gemm(out, &c->kc16, "lm_head", rows, (double)m->vocab / p.tp, d, 1, c->edge_b, ab);
        double logits = rows * (double)m->vocab * 4.0;
        if (p.tp > 1)
            out->tp += comm(c, out, "tp all-gather (logits)", ENGINE_OP_ALLGATHER, p.tp, ar_node,
                            logits);
        sampler(out, c, logits);
        out->host = h;
    } else {
        /* each TP rank sends its 1/tp slice of the activations on */
        out->pp += comm(c, out, "pp send/recv", ENGINE_OP_P2P, 2, c->pp_cross ? 1 : 0,
                        T * d * ab / p.tp);
    }
}

/* Stage costs for one step shape: fills the pipeline's sum and its
 * slowest stage. */
typedef struct pipe_cost {
    step_acc sum;   /* all stages */
    step_acc worst; /* the slowest stage */
    double sum_t, worst_t;
} pipe_cost;

/* Explain's sink: one layer of each kind, the stage being costed and the
 * slowest so far, and how many times the step runs that stage. */
typedef struct xsink {
    xtrace lay[2][2];
    xtrace cur, worst;
    int worst_stage;
    double repeat;
    /* speculation: one draft step of the batch, the draft model's prefill
     * (times draft_chunks) */
    xtrace draft_step, draft_prefill, verify;
    double draft_chunks;
} xsink;

/* The layer costs lay[moe][local] of step shape sp (recorded in xs when
 * given). */
static void layer_costs(const plan_ctx *c, const step_shape *sp, const step_acc *launch,
                        step_acc lay[2][2], xsink *xs)
{
    step_shape loc = *sp;
    loc.window = c->m->window;
    for (int e = 0; e < 2; e++)
        for (int l = 0; l < 2; l++) {
            acc_start(&lay[e][l], launch);
            if (xs) {
                xs->lay[e][l].n = 0;
                lay[e][l].xt = &xs->lay[e][l];
            }
            if ((e == 0 || c->sh.moe_layers > 0) && (l == 0 || loc.window > 0))
                layer_cost(c, e ? LAYER_MOE : LAYER_DENSE, l ? &loc : sp, &lay[e][l]);
        }
}

/* Two-batch overlap (SGLang --enable-two-batch-overlap, DeepSeek's dual
 * micro-batch overlap): the step runs as two halves, one's EP dispatch and
 * combine under the other's compute, so the stage costs its TP and PP
 * communication plus max(2 x half compute, 2 x half all-to-all) instead of
 * compute + all-to-all.  What it hides (never more than the all-to-all;
 * negative when the halves' fixed costs outweigh it) comes out of st->ep. */
static void tbo_apply(step_acc *st, const step_acc *half)
{
    double plain = acc_total(st);
    double hc = acc_total(half) - acc_comm(half);
    double overlapped = st->tp + st->pp + fmax(2.0 * hc, 2.0 * half->ep);
    double hidden = fmin(plain - overlapped, st->ep);
    st->ep -= hidden;
    st->tbo_hidden += hidden;
}

/* The half of a step two-batch overlap runs: half the sequences, else
 * (one prompt) half its tokens; 0 when it cannot be split. */
static int tbo_half(const step_shape *sp, step_shape *half)
{
    *half = *sp;
    if (sp->seqs >= 2) {
        half->seqs = sp->seqs / 2;
        return 1;
    }
    if (!sp->decode && sp->seqs * sp->t >= 2) {
        half->t = sp->t / 2;
        half->past = sp->past + sp->t / 4; /* the two halves' mean */
        return 1;
    }
    return 0;
}

/* The host's cost of one kernel for a step launched as `launch`
 * (EVAL_GRAPH, EVAL_EAGER or EVAL_PREFILL, internal.h): a prefill step of
 * a framework with a prefill_launch_s pays that, any other eager step
 * launch_s, a graph replay graph_kernel_s. */
static double launch_host_s(const engine_framework *fw, int launch)
{
    if (launch == EVAL_PREFILL && fw->prefill_launch_s > 0)
        return fw->prefill_launch_s;
    return launch != EVAL_GRAPH ? fw->launch_s : fw->graph_kernel_s;
}

/* 1 when a prefill step of shape sp replays piecewise graphs: prefill
 * graphs on and its tokens within the largest captured size (above it the
 * step runs eagerly: sgl-project/sglang docs/advanced_features/
 * piecewise_cuda_graph.md, "Shape configuration"). */
static int prefill_graphed(const plan_ctx *c, const step_shape *sp)
{
    if (!c->prefill_graphs)
        return 0;
    int cap = engine_prefill_graph_tokens(c->fw, c->m);
    return cap <= 0 || (sp->seqs + sp->pad) * sp->t <= cap;
}

static void pipe_compute(const plan_ctx *c, const step_shape *sp, int launch, pipe_cost *pc)
{
    xsink *xs = c->xs;
    const engine_framework *fw = c->fw;
    int eager = launch != EVAL_GRAPH;
    double host = launch_host_s(fw, launch);
    if (eager && c->kc.launch_min > host) /* no faster than the measured launch */
        host = c->kc.launch_min;
    step_acc ln; /* the step's launch settings */
    memset(&ln, 0, sizeof ln);
    ln.host = host;
    if (launch == EVAL_PREFILL && prefill_graphed(c, sp)) {
        ln.split_host = host; /* piecewise prefill graphs: the eager kernels' host */
        ln.host = fw->graph_kernel_s;
    }
    /* collectives stay eager (the TP all-reduce is a split op) */
    ln.coll_extra = eager ? c->s->intra->eager_s : 0.0;
    step_acc lay[2][2], lay_h[2][2], st, st_h;
    step_shape half;
    int tbo = c->tbo && tbo_half(sp, &half);
    layer_costs(c, sp, &ln, lay, xs);
    if (tbo)
        layer_costs(c, &half, &ln, lay_h, NULL);
    memset(pc, 0, sizeof *pc);
    for (int i = 0; i < c->p.pp; i++) {
        acc_start(&st, &ln);
        if (xs) {
            xs->cur.n = 0;
            st.xt = &xs->cur;
        }
        stage_cost(c, i, sp, lay, &st);
        if (tbo) {
            acc_start(&st_h, &ln);
            stage_cost(c, i, &half, lay_h, &st_h);
            tbo_apply(&st, &st_h);
            if (st.xt && st.tbo_hidden != 0) /* explain sums to the step */
                xt_rec(st.xt, "tbo hidden (ep)", ENGINE_KC_COMM, 0, 0, -st.tbo_hidden,
                       ENGINE_BOUND_BANDWIDTH);
        }
        double t = acc_total(&st);
        acc_add(&pc->sum, &st, 1.0);
        pc->sum_t += t;
        if (t > pc->worst_t) {
            pc->worst_t = t;
            pc->worst = st;
            if (xs) {
                xs->worst = xs->cur;
                xs->worst_stage = i;
            }
        }
    }
}

static void fill_breakdown(engine_breakdown *b, const step_acc *a, double f)
{
    b->gemm_s = f * a->gemm;
    b->attn_s = f * a->attn;
    b->small_s = f * a->small;
    b->launch_s = f * a->launch;
    b->tp_s = f * a->tp;
    b->ep_s = f * a->ep;
    b->pp_s = f * a->pp;
    b->kernels = (int)(a->kernels + 0.5);
    b->tbo_hidden_s = f * a->tbo_hidden;
    b->ar_norm_saved_s = f * a->ar_saved;
}

/* The prefill micro-batch's shape for m micro-batches: whole sequences by
 * default (at most pp of them); an explicit m above the batch splits
 * sequences into chunks, each attending to the chunks before it.  A
 * framework step takes at most max_num_tokens: a longer micro-batch runs
 * as *chunks steps, whole sequences first, else pieces of sequences that
 * attend to the pieces before them. */
static step_shape prefill_shape(const plan_ctx *c, double m, double *chunks)
{
    const double B = c->s->batch, S = c->s->prompt;
    step_shape pf = {B / m, S, 0, 0, 0, NULL, 0};
    if (m > B) {
        pf.seqs = 1;
        pf.t = S * B / m;
        pf.past = (S - pf.t) / 2.0;
    }
    *chunks = 1;
    int mnt = c->fw->max_num_tokens;
    if (mnt > 0 && pf.seqs * pf.t > mnt) {
        *chunks = ceil(pf.seqs * pf.t / mnt);
        if (*chunks <= pf.seqs) {
            pf.seqs /= *chunks;
        } else {
            double total = pf.seqs * pf.t, len = pf.t + 2 * pf.past;
            pf.seqs = 1;
            pf.t = total / *chunks;
            pf.past = (len - pf.t) / 2.0;
        }
    }
    return pf;
}

/* Prefill times of a plan into r: TTFT, its compute/communication/bubble
 * split, the breakdown and the regime. */
static void prefill_times(const plan_ctx *c, engine_result *r)
{
    const engine_scenario *s = c->s;
    const engine_plan p = c->p;
    const engine_framework *fw = c->fw;
    const double B = s->batch;
    double m = prefill_microbatches(c);
    double chunks;
    step_shape pf = prefill_shape(c, m, &chunks);
    int v = s->schedule == ENGINE_SCHED_INTERLEAVED ? s->interleave : 1;
    pipe_cost pre;
    pipe_compute(c, &pf, EVAL_PREFILL, &pre); /* prefill runs eager */
    if (chunks > 1) {
        acc_scale(&pre.sum, chunks);
        acc_scale(&pre.worst, chunks);
        pre.sum_t *= chunks;
        pre.worst_t *= chunks;
    }
    double pf_fixed = eval_host_step_s(s, B) + fw->request_s;
    double bubble = (pre.sum_t - pre.worst_t) / v;
    if (v > 1 && p.pp > 1) /* v-1 extra stage hops per micro-batch chain */
        bubble += (v - 1) * p.pp *
                  engine_comm_time(ENGINE_OP_P2P, s->intra, s->inter, 2, c->pp_cross ? 1 : 0,
                                   pf.seqs * pf.t * c->m->hidden * c->a_b / p.tp);
    r->prefill_compute_s = m * (pre.worst_t - acc_comm(&pre.worst)) + pf_fixed;
    r->prefill_comm_s = m * acc_comm(&pre.worst);
    r->prefill_bubble_s = bubble;
    r->ttft_s = r->prefill_compute_s + r->prefill_comm_s + r->prefill_bubble_s;
    r->bubble_fraction = engine_bubble_fraction(p.pp, (int)fmin(m, 1e9), s->schedule, v);
    fill_breakdown(&r->prefill, &pre.worst, m);
    r->prefill.step_s = pf_fixed;
    r->prefill.bubble_s = bubble;
    r->compute_bound_prefill = pre.worst.gemm_c > pre.worst.gemm_m;
    if (c->xs)
        c->xs->repeat = m * chunks;
}

/* Decode times of a plan into r at mid-generation: min(B, pp)
 * micro-batches in flight (or the scenario's decode_microbatches); a token
 * crosses every stage in turn (the sum of the stage times), and the slowest
 * stage serves every micro-batch once per step.  t: tokens a sequence runs
 * per step (1; k + 1 when a step verifies k drafted tokens). */
static void decode_times(const plan_ctx *c, double t, engine_result *r)
{
    const engine_scenario *s = c->s;
    const engine_plan p = c->p;
    const double B = s->batch, S = s->prompt, G = s->gen;
    double md = eval_decode_microbatches(s, p.pp, B);
    step_shape dc = {B / md, t, S + G / 2.0, 1, 0, NULL, 0};
    dc.pad = engine_graph_padded_seqs(s, dc.seqs, md) - dc.seqs;
    pipe_cost dec;
    int graphs = engine_decode_graphs(s, p, dc.seqs, t);
    pipe_compute(c, &dc, graphs ? EVAL_GRAPH : EVAL_EAGER, &dec);
    double cycle = md * dec.worst_t;
    double itl_work = dec.sum_t > cycle ? dec.sum_t : cycle;
    /* Host work per step: hidden behind the GPU by an overlapping scheduler
     * (the step costs the longer of the two), else added. */
    double dc_fixed = eval_host_exposed_s(s, B, itl_work);
    /* As for prefill, compute and communication are the slowest stage's
     * (md micro-batches of it), the bubble the rest of the step, when that
     * stage waits for the others. */
    r->decode_compute_s = md * (dec.worst_t - acc_comm(&dec.worst)) + dc_fixed;
    r->decode_comm_s = md * acc_comm(&dec.worst);
    r->decode_bubble_s = itl_work - md * dec.worst_t;
    r->itl_s = r->decode_compute_s + r->decode_comm_s + r->decode_bubble_s;
    fill_breakdown(&r->decode, &dec.worst, md);
    r->decode.step_s = dc_fixed;
    r->decode.bubble_s = r->decode_bubble_s;
    r->compute_bound_decode = dec.sum.gemm_c > dec.sum.gemm_m;
    if (c->xs)
        c->xs->repeat = md;
}

static void spec_apply(const plan_ctx *c, engine_result *r);

/* Times of a plan, filled into r (memory and validity untouched). */
static void times_compute(const plan_ctx *c, engine_result *r)
{
    const double B = c->s->batch, G = c->s->gen;
    prefill_times(c, r);
    if (spec_on(c->s)) {
        decode_times(c, c->s->spec_k + 1.0, r);
        spec_apply(c, r);
    } else {
        decode_times(c, 1, r);
    }
    r->e2e_s = r->ttft_s + (G - 1) * r->itl_s;
    r->tokens_per_s = c->p.dp * B * G / r->e2e_s;
    r->compute_s = r->prefill_compute_s + (G - 1) * r->decode_compute_s;
    r->comm_s = r->prefill_comm_s + (G - 1) * r->decode_comm_s;
}

static void bands_fill(const engine_scenario *s, const plan_ctx *c, engine_result *r)
{
    const engine_band_table *t = s->bands;
    int moe = c->m->experts > 0;
    engine_dclass dc = engine_dtype_class(c->wdt);
    r->ttft_band = engine_band_of(t, ENGINE_PHASE_PREFILL, moe, dc, r->compute_bound_prefill,
                                  r->ttft_s, 0);
    r->itl_band = engine_band_of(t, ENGINE_PHASE_DECODE, moe, dc, r->compute_bound_decode,
                                 r->itl_s, 0);
    int cb = r->prefill_compute_s > (s->gen - 1) * r->decode_compute_s
                 ? r->compute_bound_prefill
                 : r->compute_bound_decode;
    r->e2e_band = engine_band_of(t, ENGINE_PHASE_REQUEST, moe, dc, cb, r->e2e_s, 0);
    r->tps_band = engine_band_of(t, ENGINE_PHASE_REQUEST, moe, dc, cb, r->tokens_per_s, 1);
}

/* Tokens/s of one ideal GPU for a scenario with the batch pooled `pool`
 * times (no communication, no bubble, no capacity). */
static double ideal_tokens_per_s(const engine_scenario *s, int pool)
{
    engine_scenario pooled = *s;
    pooled.batch = s->batch * pool;
    plan_ctx ideal;
    engine_plan one = {1, 1, 1, 1};
    ctx_init(&ideal, &pooled, one);
    engine_result r1;
    memset(&r1, 0, sizeof r1);
    times_compute(&ideal, &r1);
    return r1.tokens_per_s;
}

int engine_evaluate(const engine_scenario *s, engine_plan plan, engine_result *out,
                    engine_error *err)
{
    return eval_plan_memo(s, plan, out, err, NULL);
}

/* --- capacity (paged KV cache) ------------------------------------------- */

/* Memory of c's plan at batch b. */
static void memory_at(const plan_ctx *c, int b, engine_memory *mem)
{
    engine_scenario t = *c->s;
    t.batch = b;
    plan_ctx cb = *c;
    cb.s = &t;
    memory_compute(&cb, mem);
}

/* KV bytes one GPU holds per token (every layer of the first stage), and
 * per sequence in whole blocks: a local-attention layer keeps its window. */
static double kv_token_bytes(const plan_ctx *c, double *seq_bytes)
{
    int n0, d0;
    stage_layers(c, 0, &n0, &d0); /* the first stages hold the most layers */
    double layer = model_kv_bytes_per_token_layer(c->m, c->s->kv_dtype, c->p.tp);
    double ctx = (double)c->s->prompt + c->s->gen;
    int local = model_local_layers_in(c->m, 0, n0);
    double full_blocks = ceil(ctx / ENGINE_KV_BLOCK);
    double local_blocks = ceil(model_kv_tokens(c->m, !engine_scenario_local_kv_full(c->s), ctx) /
                               ENGINE_KV_BLOCK);
    *seq_bytes = ((n0 - local) * full_blocks + local * local_blocks) * ENGINE_KV_BLOCK * layer;
    if (spec_on(c->s)) { /* the draft's (or head's) cache grows with the sequence too */
        double kv_tok;
        spec_memory(c, &kv_tok);
        *seq_bytes += full_blocks * ENGINE_KV_BLOCK * kv_tok;
        return n0 * layer + kv_tok;
    }
    return n0 * layer;
}

/* 1 when b sequences' KV blocks fit in the room the rule leaves at batch b
 * (that room, in *room). */
static int paged_fits(const plan_ctx *c, int b, double seq_bytes, double *room)
{
    engine_memory mem;
    memory_at(c, b, &mem);
    *room = mem.kv_capacity_bytes;
    return (double)b * seq_bytes <= mem.kv_capacity_bytes;
}

/* out->max_concurrency and out->kv_capacity_tokens for c's plan.  The room
 * shrinks as the batch grows (its prefill workspace), so the largest fitting
 * batch lies below what one sequence's room holds.  The room is linear in
 * the batch until the workspace reaches its chunk cap, so the crossing of
 * the line through the rooms at 1 and at that bound is tried first (it is
 * the answer when no cap falls between); a bisection of what is left keeps
 * the answer exact either way.  Runs on every evaluation. */
static void capacity_compute(const plan_ctx *c, engine_result *out)
{
    double seq_b, tok_b = kv_token_bytes(c, &seq_b);
    double room1, room_hi, room_lo = 0, room;
    int fits1 = paged_fits(c, 1, seq_b, &room1);
    double bound = seq_b > 0 ? floor(room1 / seq_b) : ENGINE_MAX_BATCH;
    int lo = 0, hi = bound > ENGINE_MAX_BATCH ? ENGINE_MAX_BATCH : (int)bound;
    if (fits1) {
        lo = 1;
        room_lo = room1;
    }
    if (hi > 1 && paged_fits(c, hi, seq_b, &room_hi)) {
        lo = hi;
        room_lo = room_hi;
    } else if (hi > 1 && fits1) {
        /* b * seq = room1 + (b - 1) * slope, slope = (room_hi - room1) / (hi - 1) */
        double slope = (room_hi - room1) / (hi - 1);
        double g = seq_b > slope ? floor((room1 - slope) / (seq_b - slope)) : lo;
        int guess = !(g >= lo + 1) ? lo + 1 : g > hi - 1 ? hi - 1 : (int)g; /* NaN too */
        for (int k = 0; k < 2 && hi - lo > 1; k++, guess++) { /* guess, then guess + 1 */
            if (guess <= lo || guess >= hi)
                break;
            if (paged_fits(c, guess, seq_b, &room)) {
                lo = guess;
                room_lo = room;
            } else {
                hi = guess;
            }
        }
        while (hi - lo > 1) { /* lo fits, hi does not */
            int mid = lo + (hi - lo) / 2;
            if (paged_fits(c, mid, seq_b, &room)) {
                lo = mid;
                room_lo = room;
            } else {
                hi = mid;
            }
        }
    } else if (hi <= 1) {
        lo = fits1 && hi >= 1 ? 1 : 0;
    }
    out->max_concurrency = lo;
    if (lo < 1)
        room_lo = room1;
    double block_b = tok_b * ENGINE_KV_BLOCK;
    out->kv_capacity_tokens = block_b > 0 ? floor(room_lo / block_b) * ENGINE_KV_BLOCK : 0;
}

/* Evaluate c's plan at c->s->batch (capacity fields left alone). */
static void eval_ctx(const plan_ctx *c, engine_result *out, ideal_memo *memo)
{
    const engine_scenario *s = c->s;
    engine_plan plan = c->p;
    memory_compute(c, &out->mem);
    out->fits = out->mem.fits && s->batch <= out->max_concurrency;
    if (!out->mem.fits && !(s->usable_fraction > 0) && c->fw->reserve.base_mib > 0)
        snprintf(out->reason, sizeof out->reason,
                 "needs %.1f GB per GPU, capacity %.1f GB at %.12s's default fraction %.3g "
                 "(--mem-fraction)",
                 out->mem.per_gpu_bytes / 1e9, out->mem.capacity_bytes / 1e9,
                 c->fw->display[0] ? c->fw->display : c->fw->name, out->mem.usable_fraction);
    else if (!out->mem.fits)
        snprintf(out->reason, sizeof out->reason,
                 "needs %.1f GB per GPU, capacity %.1f GB", out->mem.per_gpu_bytes / 1e9,
                 out->mem.capacity_bytes / 1e9);
    else if (!out->fits)
        snprintf(out->reason, sizeof out->reason,
                 "%d sequences need %d KV blocks of %d tokens each, room for %d",
                 s->batch, (int)ceil(((double)s->prompt + s->gen) / ENGINE_KV_BLOCK),
                 ENGINE_KV_BLOCK, out->max_concurrency);
    times_compute(c, out);
    out->expert_slots = (int)c->slots;
    out->moe_imbalance = c->m->experts > 0 ? c->imbalance : 0.0;
    if (c->tp_hier)
        out->warnings |= ENGINE_WARN_TP_CROSS_NODE;
    if (c->ep_cross)
        out->warnings |= ENGINE_WARN_EP_CROSS_NODE;

    /* One ideal GPU: same work, no communication, no bubble, no capacity.
     * An EP group spanning x = ep/tp replicas batches their tokens through
     * shared experts, so the ideal GPU is given the pooled batch x*B too;
     * otherwise pooling would look like a superlinear speedup. */
    int pool = plan.ep > plan.tp ? plan.ep / plan.tp : 1;
    double ideal_tps = 0;
    if (pool == 1 && plan.tp == 1 && plan.pp == 1 && plan.dp == 1) {
        ideal_tps = out->tokens_per_s; /* the plan is the ideal GPU */
    } else {
        int hit = -1;
        for (int i = 0; memo && i < memo->n; i++)
            if (memo->pool[i] == pool && memo->batch[i] == s->batch)
                hit = i;
        if (hit >= 0) {
            ideal_tps = memo->tokens_per_s[hit];
        } else {
            ideal_tps = ideal_tokens_per_s(s, pool);
            if (memo && memo->n < (int)(sizeof memo->pool / sizeof memo->pool[0])) {
                memo->pool[memo->n] = pool;
                memo->batch[memo->n] = s->batch;
                memo->tokens_per_s[memo->n++] = ideal_tps;
            }
        }
    }
    out->speedup = out->tokens_per_s / ideal_tps;
    out->efficiency = out->speedup / s->gpus;

    if (out->comm_s > 0) {
        out->compute_comm_ratio = out->compute_s / out->comm_s;
        out->regime = out->compute_comm_ratio >= 1.0 ? 'C' : 'M';
    }
    if (s->gpu->price_per_hour > 0)
        out->cost_per_mtok_usd =
            s->gpus * s->gpu->price_per_hour / (out->tokens_per_s * 3600.0) * 1e6;
    out->p50_s = out->p99_s = out->e2e_s; /* until engine_tails runs */
    if (s->bands)
        bands_fill(s, c, out);
}

/* Under total_concurrency with a remainder, the dp - n_hi lighter replicas
 * run lo sequences each: their tokens/s (a result at lo) replace their
 * share of out's (at lo + 1), and the figures derived from it follow. */
static void merge_lighter(const engine_scenario *s, engine_result *out, const engine_result *lr,
                          int n_hi)
{
    int dp = out->plan.dp;
    double tps = (out->tokens_per_s * n_hi + (lr ? lr->tokens_per_s : 0) * (dp - n_hi)) / dp;
    double k = out->tokens_per_s > 0 ? tps / out->tokens_per_s : 0;
    out->speedup *= k;
    out->efficiency *= k;
    out->tps_band.lo *= k;
    out->tps_band.hi *= k;
    out->tokens_per_s = tps;
    out->cost_per_mtok_usd = s->gpu->price_per_hour > 0 && tps > 0
                                 ? s->gpus * s->gpu->price_per_hour / (tps * 3600.0) * 1e6
                                 : 0;
}

int engine_max_num_seqs(const engine_scenario *s)
{
    if (s && s->max_num_seqs > 0)
        return s->max_num_seqs;
    const engine_framework *f =
        s && s->framework ? s->framework : engine_framework_generic_ref();
    const engine_fw_tier *tr = framework_tier(s, f);
    if (tr && tr->max_num_seqs > 0)
        return tr->max_num_seqs;
    return f->max_num_seqs > 0 ? f->max_num_seqs : 256;
}

int engine_kv_max_num_seqs(const engine_scenario *s, double kv_tokens)
{
    int mns = engine_max_num_seqs(s);
    const engine_framework *f = s ? s->framework : NULL;
    int ctx = s ? engine_context_limit(s) : 0;
    if (!f || s->max_num_seqs > 0 || f->req_pool_per_context <= 0 || ctx <= 0 ||
        !(kv_tokens > 0))
        return mns;
    double n = floor(kv_tokens * f->req_pool_per_context / ctx);
    if (n < f->req_pool_min)
        n = f->req_pool_min;
    return n < mns ? (int)n : mns;
}

int engine_scenario_max_num_tokens(const engine_scenario *s)
{
    const engine_framework *f =
        s && s->framework ? s->framework : engine_framework_generic_ref();
    const engine_fw_tier *tr = framework_tier(s, f);
    if (tr && tr->max_num_tokens > 0)
        return tr->max_num_tokens;
    return f->max_num_tokens > 0 ? f->max_num_tokens : 8192;
}

const char *engine_batch_bound_name(engine_batch_bound b)
{
    static const char *const names[ENGINE_BATCH_BOUND_COUNT] = {
        "batch", "capacity", "max_num_seqs", "concurrency"};
    return (unsigned)b < ENGINE_BATCH_BOUND_COUNT ? names[b] : "?";
}

/* The batch a plan is timed at (its most loaded replica) and what set it
 * (*bound): the scenario's batch as given; batch_max's capacity max_conc;
 * ceil(C / dp) under total_concurrency C.  The last two never exceed mns,
 * the plan's engine_kv_max_num_seqs: a replica runs no more (the rest of C
 * queue). */
static int plan_batch(const engine_scenario *s, engine_plan plan, int max_conc, int mns,
                      engine_batch_bound *bound)
{
    int b;
    if (s->total_concurrency > 0) {
        b = s->total_concurrency / plan.dp + (s->total_concurrency % plan.dp ? 1 : 0);
        *bound = ENGINE_BATCH_CONCURRENCY;
    } else if (s->batch_max) {
        b = max_conc > 0 ? max_conc : 1;
        *bound = ENGINE_BATCH_CAPACITY;
    } else {
        *bound = ENGINE_BATCH_GIVEN;
        return s->batch;
    }
    if (b > mns) {
        *bound = ENGINE_BATCH_MAX_NUM_SEQS;
        b = mns;
    }
    return b;
}

int eval_plan_memo(const engine_scenario *s, engine_plan plan, engine_result *out,
                   engine_error *err, ideal_memo *memo)
{
    if (engine_scenario_check(s, err) != 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->plan = plan;
    out->regime = '-';
    out->batch = s->batch;
    out->max_num_seqs = engine_max_num_seqs(s);
    if (!plan_valid(s, plan, out->reason, sizeof out->reason))
        return 0;
    out->valid = 1;

    plan_ctx c;
    ctx_init(&c, s, plan); /* nothing in it depends on the batch */
    capacity_compute(&c, out);
    out->max_num_seqs = engine_kv_max_num_seqs(s, out->kv_capacity_tokens);
    engine_scenario t = *s;
    t.batch = plan_batch(s, plan, out->max_concurrency, out->max_num_seqs, &out->batch_bound);
    int n_hi = plan.dp, lo = 0;
    long long total = (long long)t.batch * plan.dp;
    if (s->total_concurrency > 0 && out->batch_bound == ENGINE_BATCH_MAX_NUM_SEQS) {
        out->queued = s->total_concurrency - total; /* every replica full */
    } else if (s->total_concurrency > 0) { /* the remainder on the first n_hi replicas */
        total = s->total_concurrency;
        lo = s->total_concurrency / plan.dp;
        n_hi = s->total_concurrency % plan.dp;
        if (!n_hi)
            n_hi = plan.dp;
    }
    c.s = &t;
    out->batch = t.batch;
    out->concurrency = total;
    eval_ctx(&c, out, memo);
    if (out->queued > 0)
        out->warnings |= ENGINE_WARN_QUEUED;
    if (n_hi < plan.dp) {
        engine_result lr = *out;
        if (lo > 0) {
            t.batch = lo;
            eval_ctx(&c, &lr, memo);
        }
        merge_lighter(s, out, lo > 0 ? &lr : NULL, n_hi);
    }
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

int engine_max_batch(const engine_scenario *s, engine_plan plan, int cap)
{
    if (engine_scenario_check(s, NULL) != 0 || cap < 1)
        return 0;
    char reason[ENGINE_REASON_MAX];
    if (!plan_valid(s, plan, reason, sizeof reason))
        return 0;
    plan_ctx c;
    ctx_init(&c, s, plan);
    engine_result r;
    memset(&r, 0, sizeof r);
    capacity_compute(&c, &r);
    engine_memory mem;
    memory_at(&c, 1, &mem);
    if (!mem.fits || r.max_concurrency < 1)
        return 0;
    return r.max_concurrency < cap ? r.max_concurrency : cap;
}

/* --- explain ------------------------------------------------------------- */

const char *engine_kclass_name(engine_kclass c)
{
    static const char *const names[ENGINE_KC_COUNT] = {
        "gemm", "attention", "small", "launch", "host", "collective", "bubble"};
    return (unsigned)c < ENGINE_KC_COUNT ? names[c] : "?";
}

const char *engine_bound_name(engine_bound b)
{
    static const char *const names[ENGINE_BOUND_COUNT] = {
        "compute", "memory", "floor", "launch", "latency", "bandwidth", "host", "idle"};
    return (unsigned)b < ENGINE_BOUND_COUNT ? names[b] : "?";
}

static void explain_item(engine_explain_step *st, const char *name, engine_kclass cls,
                         double count, double flops, double bytes, double t, engine_bound b)
{
    if (st->n < ENGINE_EXPLAIN_MAX)
        st->item[st->n++] = (engine_explain_item){name, cls, count, flops, bytes, t, b, 0};
}

/* The entries of t times f as items (draft: the speculation's). */
static void explain_add(engine_explain_step *st, const xtrace *t, double f, int draft)
{
    for (int i = 0; i < t->n; i++) {
        const xt_entry *e = &t->e[i];
        int b = 0;
        for (int j = 1; j < ENGINE_BOUND_COUNT; j++)
            if (e->bt[j] > e->bt[b])
                b = j;
        explain_item(st, e->name, e->cls, f * e->count, f * e->flops, f * e->bytes,
                     f * e->time, (engine_bound)b);
        if (st->n > 0)
            st->item[st->n - 1].draft = draft;
    }
}

/* The slowest stage's kernels times the step's repeat, then the host's
 * per-step cost and the bubble: the items sum to total. */
static void explain_step(engine_explain_step *st, const xsink *xs, double total, double host,
                         double bubble)
{
    st->stage = xs->worst_stage;
    st->repeat = xs->repeat;
    st->total_s = total;
    explain_add(st, &xs->worst, xs->repeat, 0);
    if (host > 0)
        explain_item(st, "host per step", ENGINE_KC_HOST, 1, 0, 0, host, ENGINE_BOUND_HOST);
    if (bubble > 0)
        explain_item(st, "pipeline bubble", ENGINE_KC_BUBBLE, 1, 0, 0, bubble,
                     ENGINE_BOUND_IDLE);
}

static void explain_const(engine_explain *x, const char *name, double v, const char *unit,
                          const char *origin, const char *source)
{
    if (x->n_const < ENGINE_EXPLAIN_CONST_MAX)
        x->constant[x->n_const++] = (engine_explain_const){name, v, unit, origin, source};
}

/* The origin and source of the host loop's costs: the host_loop entry of
 * the scenario's framework_version when the profile states it (origin
 * "host_loop v0" / "v0.6" / "v1", its own source), else the profile's. */
static void explain_host_loop_origin(const engine_scenario *s, const char **origin,
                                     const char **source)
{
    static const char *const nm[ENGINE_FWV_COUNT] = {NULL, "host_loop v0", "host_loop v0.6",
                                                     "host_loop v1"};
    const engine_framework *fw = s->framework ? s->framework : engine_framework_generic_ref();
    unsigned v = (unsigned)s->framework_version;
    if (v > ENGINE_FWV_DEFAULT && v < ENGINE_FWV_COUNT && fw->host_loop[v].set) {
        *origin = nm[v];
        if (fw->host_loop[v].source[0])
            *source = fw->host_loop[v].source;
    }
}

/* GQA decode attention on TensorRT-LLM's masked MHA (gqa_mmha): its FP32
 * CUDA-core rate, when the GPU preset has one (kc_attn_decode_mmha). */
static void explain_mmha(const plan_ctx *c, engine_explain *x)
{
    const engine_model *m = c->m;
    if (m->mla || !(c->kc.fp32 > 0))
        return; /* MLA runs its own kernels; no FP32 rate: the tensor-core form */
    double heads = (double)m->heads / c->p.tp;
    double kvh = m->kv_heads >= c->p.tp ? (double)m->kv_heads / c->p.tp : 1.0;
    if (!gqa_mmha(c, heads, kvh))
        return;
    explain_const(x, "fp32_flops", c->kc.fp32, "FLOP/s", "gpu preset", c->s->gpu->source);
    if (c->kc.l2bw > 0)
        explain_const(x, "l2_bytes_per_s", c->kc.l2bw, "B/s", "gpu preset", c->s->gpu->source);
}

/* The framework's and the links' constants (the kernels' come from kernels.c). */
static void explain_fw_links(const plan_ctx *c, engine_explain *x)
{
    const engine_framework *f = c->fw;
    const char *fo = "framework profile";
    explain_const(x, "launch_eager", f->launch_s, "s", fo, f->source);
    explain_const(x, "launch_eager_prefill", launch_host_s(f, EVAL_PREFILL), "s", fo, f->source);
    explain_const(x, "launch_graph_node", f->graph_kernel_s, "s", fo, f->source);
    double hl_step, hl_seq;
    engine_scenario_host_loop(c->s, &hl_step, &hl_seq);
    const char *ho = fo, *hs = f->source;
    explain_host_loop_origin(c->s, &ho, &hs);
    explain_const(x, "step_host", hl_step, "s", ho, hs);
    explain_const(x, "step_host_per_seq", hl_seq, "s", ho, hs);
    explain_const(x, "request_host", f->request_s, "s", fo, f->source);
    if (engine_custom_ar_off_xgmi(c->s, f)) /* that generation: RCCL only on xGMI */
        explain_const(x, "custom_allreduce_max", 0, "B", ho, hs);
    else
        explain_const(x, "custom_allreduce_max", f->custom_ar_max_bytes, "B", fo, f->source);
    explain_const(x, "custom_allreduce_t0", f->custom_ar_s, "s", fo, f->source);
    explain_const(x, "max_num_tokens", f->max_num_tokens, "tokens", fo, f->source);
    double passes;
    int kernels = engine_sampler_kernels(f, c->s->sampling, &passes);
    explain_const(x, "sampler_kernels", kernels, "kernels", fo, f->source);
    explain_const(x, "sampler_passes", passes, "passes", fo, f->source);
    if (c->m->experts > 0 && c->kc.w4a16 && f->moe_w4a16_fixed_s > 0)
        explain_const(x, "moe_w4a16_fixed", f->moe_w4a16_fixed_s, "s", fo, f->source);
    if (c->deepgemm && c->kc.math == ENGINE_FP8)
        explain_const(x, "deepgemm", 1, "1", fo, f->source); /* per-tensor rate (ctx_init) */
    if (c->m->experts > 0 && moe_expands(c))
        explain_const(x, "moe_expand", 1, "1", fo, f->source); /* moe_serial */
    explain_mmha(c, x);
    if (c->kc.acc16 > 0) /* the block GEMMs at the FP16-accumulate peak (gemm_acc16) */
        explain_const(x, "fp16_acc16_flops", c->kc.acc16, "FLOP/s", "gpu preset", c->s->gpu->source);
    const engine_link *ls[2] = {c->s->intra, c->s->inter};
    static const char *const nm[2][4] = {
        {"link_bandwidth", "link_alpha", "link_base", "link_eager"},
        {"inter_link_bandwidth", "inter_link_alpha", "inter_link_base", "inter_link_eager"}};
    for (int i = 0; i < 2; i++) {
        const engine_link *l = ls[i];
        if (!l)
            continue;
        explain_const(x, nm[i][0], l->bytes_per_s, "B/s", "link preset", l->source);
        explain_const(x, nm[i][1], l->alpha_s, "s", "link preset", l->source);
        explain_const(x, nm[i][2], l->base_s, "s", "link preset", l->source);
        explain_const(x, nm[i][3], l->eager_s, "s", "link preset", l->source);
        if (i == 0 && l->socket_gpus > 0 && c->p.tp > l->socket_gpus) {
            /* PCIe: a TP ring over more than socket_gpus crosses the socket link
             * (socket_share: ring collectives only, so EP and PP never do) */
            explain_const(x, "link_socket_gpus", l->socket_gpus, "GPUs", "link preset", l->source);
            explain_const(x, "link_cross_socket", l->cross_socket, "fraction", "link preset",
                          l->source);
        }
    }
}

/* With speculation: the target's verification step of k + 1 tokens and
 * the k draft steps, over the expected tokens a step E (spec_apply's
 * ITL); a draft model's prefill added to the prefill (out->prefill holds
 * the target's already). */
static void explain_spec(plan_ctx *c, xsink *xs, engine_result *r, engine_explain *out)
{
    decode_times(c, c->s->spec_k + 1.0, r);
    xs->verify = xs->worst; /* the draft's steps reuse the stage traces */
    double rep = xs->repeat, host = r->decode.step_s, bubble = r->decode.bubble_s;
    int stage = xs->worst_stage;
    spec_apply(c, r); /* fills xs->draft_step, xs->draft_prefill */
    double e = r->spec.tokens_per_step;
    out->spec_k = c->s->spec_k;
    out->spec_tokens_per_step = e;
    engine_explain_step *st = &out->decode;
    st->stage = stage;
    st->repeat = rep / e;
    st->total_s = r->itl_s;
    explain_add(st, &xs->verify, rep / e, 0);
    if (host > 0)
        explain_item(st, "host per step", ENGINE_KC_HOST, 1.0 / e, 0, 0, host / e,
                     ENGINE_BOUND_HOST);
    if (bubble > 0)
        explain_item(st, "pipeline bubble", ENGINE_KC_BUBBLE, 1.0 / e, 0, 0, bubble / e,
                     ENGINE_BOUND_IDLE);
    explain_add(st, &xs->draft_step, c->s->spec_k / e, 1);
    if (r->spec.draft_prefill_s > 0) {
        explain_add(&out->prefill, &xs->draft_prefill, xs->draft_chunks, 1);
        out->prefill.total_s = r->ttft_s;
    }
}

int engine_explain_plan(const engine_scenario *s, engine_plan plan, engine_explain *out,
                        engine_error *err)
{
    if (engine_scenario_check(s, err) != 0)
        return -1;
    char reason[ENGINE_REASON_MAX];
    if (!plan_valid(s, plan, reason, sizeof reason))
        return engine_errorf(err, "plan tp=%d pp=%d dp=%d ep=%d: %s", plan.tp, plan.pp, plan.dp,
                             plan.ep, reason);
    memset(out, 0, sizeof *out);
    out->plan = plan;
    plan_ctx c;
    ctx_init(&c, s, plan);
    engine_result r;
    memset(&r, 0, sizeof r);
    capacity_compute(&c, &r);
    out->max_num_seqs = engine_kv_max_num_seqs(s, r.kv_capacity_tokens);
    engine_scenario t = *s;
    t.batch = plan_batch(s, plan, r.max_concurrency, out->max_num_seqs, &out->batch_bound);
    c.s = &t;
    out->batch = t.batch;
    out->max_concurrency = r.max_concurrency;
    xsink xs; /* ~100 KB */
    memset(&xs, 0, sizeof xs);
    c.xs = &xs;
    prefill_times(&c, &r);
    explain_step(&out->prefill, &xs, r.ttft_s, r.prefill.step_s, r.prefill.bubble_s);
    memset(&xs, 0, sizeof xs);
    if (spec_on(s)) {
        explain_spec(&c, &xs, &r, out);
    } else {
        decode_times(&c, 1.0, &r);
        explain_step(&out->decode, &xs, r.itl_s, r.decode.step_s, r.decode.bubble_s);
    }
    kc_explain_constants(&c.kc, s->gpu, s->calib, c.wdt, out);
    kc_explain_quant_moe(&c.kc, s->gpu, c.fp8_blk,
                         s->model->experts > 0, out);
    explain_fw_links(&c, out);
    return 0;
}

double engine_moe_layer_s(const engine_scenario *s, engine_plan plan, double tokens,
                          engine_error *err)
{
    return engine_moe_layer_routed_s(s, plan, tokens, 0, 0, err);
}

double engine_moe_layer_routed_s(const engine_scenario *s, engine_plan plan, double tokens,
                                 double hit, double pairs, engine_error *err)
{
    if (engine_scenario_check(s, err) != 0)
        return -1;
    char reason[ENGINE_REASON_MAX];
    if (s->model->experts < 1)
        return engine_errorf(err, "model %s has no experts", s->model->name);
    if (!plan_valid(s, plan, reason, sizeof reason))
        return engine_errorf(err, "plan tp=%d pp=%d dp=%d ep=%d: %s", plan.tp, plan.pp, plan.dp,
                             plan.ep, reason);
    if (!(tokens > 0))
        return engine_errorf(err, "tokens must be positive");
    if (!(hit >= 0 && pairs >= 0) || (hit > 0) != (pairs > 0))
        return engine_errorf(err, "experts hit and pairs must be both positive or both 0");
    plan_ctx c;
    ctx_init(&c, s, plan);
    c.rr_hit = hit;
    c.rr_pairs = pairs;
    step_acc a;
    memset(&a, 0, sizeof a);
    a.host = engine_scenario_cuda_graphs(s) ? c.fw->graph_kernel_s : c.fw->launch_s;
    double T = plan.ep > plan.tp ? tokens * plan.tp / plan.ep : tokens;
    moe_routed(&c, T, 1, 0, &a);
    return acc_total(&a);
}

/* --- the step model of one mixed step, for step.c (internal.h) ------------ */

size_t eval_ctx_size(void)
{
    return sizeof(plan_ctx);
}

int eval_ctx_init(plan_ctx *c, const engine_scenario *s, engine_plan p, char *reason,
                  size_t len)
{
    if (!plan_valid(s, p, reason, len))
        return 0;
    ctx_init(c, s, p);
    return 1;
}

void eval_ctx_bind(plan_ctx *c, const engine_scenario *s)
{
    c->s = s;
}

void eval_ctx_capacity(const plan_ctx *c, engine_result *out, double *seq_kv_bytes,
                       double *token_kv_bytes)
{
    capacity_compute(c, out);
    *token_kv_bytes = kv_token_bytes(c, seq_kv_bytes);
}

void eval_mix_pipe(const plan_ctx *c, const step_mix *mx, int launch, double *sum_t,
                   double *worst_t)
{
    double seqs = mx->dec_seqs, tokens = mx->dec_seqs;
    for (int i = 0; i < mx->n_pre; i++) {
        seqs += mx->pre[i].seqs;
        tokens += mx->pre[i].seqs * mx->pre[i].tokens;
    }
    /* GEMMs, small kernels and collectives see every token of the step; the
     * LM head one row per sequence; attention its parts (attn_kernels). */
    step_shape sp = {seqs / mx->mb, tokens / seqs, 0, 0, 0, mx, mx->dec_pad / mx->mb};
    if (mx->n_pre == 1 && mx->dec_seqs <= 0)
        sp.t = mx->pre[0].tokens; /* exactly engine_evaluate's prefill shape */
    pipe_cost pc;
    pipe_compute(c, &sp, launch, &pc);
    *sum_t = pc.sum_t;
    *worst_t = pc.worst_t;
}

double eval_hop_s(const plan_ctx *c, double tokens)
{
    const engine_scenario *s = c->s;
    return engine_comm_time(ENGINE_OP_P2P, s->intra, s->inter, 2, c->pp_cross ? 1 : 0,
                            tokens * c->m->hidden * c->a_b / c->p.tp);
}

/* --- speculative decoding ------------------------------------------------ */

/* The GPUs one draft model is sharded over: the target's TP group when the
 * draft's heads allow it (vLLM and SGLang run the draft at the target's
 * TP), else unsharded on each GPU of the group
 * (speculative_draft_tensor_parallel_size 1). */
static int spec_draft_tp(const engine_model *d, int tp)
{
    if (d->heads % tp == 0 && (d->mla || d->kv_heads % tp == 0 || tp % d->kv_heads == 0))
        return tp;
    return 1;
}

/* The draft model's own scenario and plan context: the target's workload
 * and GPUs, its TP group, no pipeline, no experts split. */
static void spec_draft_ctx(const plan_ctx *c, engine_scenario *ds, plan_ctx *dc)
{
    *ds = *c->s;
    ds->model = c->s->spec_draft;
    ds->spec_method = ENGINE_SPEC_NONE;
    ds->spec_draft = NULL;
    engine_plan dp = {spec_draft_tp(ds->model, c->p.tp), 1, 1, 1};
    ctx_init(dc, ds, dp);
}

/* Weight bytes per GPU the speculation adds, and the KV bytes one token
 * of a sequence adds (*kv_tok).  DRAFT: the whole draft model over its TP
 * group.  EAGLE: one decoder layer of the target's shape with a dense MLP
 * and the 2d x d feature projection (EAGLE paper); MTP: one transformer
 * block like the model's MoE layers and the 2d x d projection M
 * (DeepSeek-V3 report 2.2).  Both share the target's embedding and head
 * and keep one layer of KV cache. */
static double spec_memory(const plan_ctx *c, double *kv_tok)
{
    const engine_scenario *s = c->s;
    const engine_model *m = c->m;
    const model_shape *sh = &c->sh;
    const engine_plan p = c->p;
    *kv_tok = 0;
    if (!spec_on(s))
        return 0;
    if (s->spec_method == ENGINE_SPEC_DRAFT) {
        const engine_model *d = s->spec_draft;
        int tpd = spec_draft_tp(d, p.tp);
        engine_dtype w = d->has_weight_dtype && s->weight_dtype == ENGINE_FP16 ? d->weight_dtype
                                                                              : s->weight_dtype;
        *kv_tok = d->layers * model_kv_bytes_per_token_layer(d, s->kv_dtype, tpd);
        return engine_model_params(d) * engine_weight_elem_bytes(w, engine_scenario_quant_group(s)) /
               tpd;
    }
    double d = m->hidden;
    double attn = (sh->attn - sh->attn_rep) / p.tp + sh->attn_rep;
    double mlp = (m->gated_mlp ? 3.0 : 2.0) * d * (double)m->ffn / p.tp, router = 0;
    if (s->spec_method == ENGINE_SPEC_MTP && sh->moe_layers > 0) {
        mlp = sh->experts / sh->moe_layers / (p.ep > 1 ? p.ep : p.tp) +
              sh->shared / sh->moe_layers / p.tp;
        router = sh->router / sh->moe_layers;
    }
    *kv_tok = model_kv_bytes_per_token_layer(m, s->kv_dtype, p.tp);
    return (attn + mlp + 2.0 * d * d / p.tp) * c->w_b + (router + 2.0 * sh->norms) * c->edge_b;
}

/* The LM head of `seqs` rows on the last stage: final norm, logits, their
 * gather over TP, sampling (as stage_cost's last stage). */
static void spec_lm_head(const plan_ctx *c, double seqs, step_acc *a)
{
    const engine_scenario *s = c->s;
    const engine_model *m = c->m;
    const engine_plan p = c->p;
    double d = m->hidden, ab = c->a_b;
    (void)s;
    small(a, &c->kc, "draft final norm", 2.0 * seqs * d * ab);
    gemm(a, &c->kc16, "draft lm_head", seqs, (double)m->vocab / p.tp, d, 1, c->edge_b, ab);
    double logits = seqs * (double)m->vocab * 4.0;
    if (p.tp > 1)
        a->tp += comm(c, a, "draft tp all-gather (logits)", ENGINE_OP_ALLGATHER, p.tp,
                      c->tp_hier ? c->per_node : 0, logits);
    small(a, &c->kc, "draft sampling", 3.0 * logits);
}

/* One draft token of an EAGLE head or MTP module for the batch: the
 * embedding + feature norms, the 2d -> d projection, one layer of the
 * target's shape, the shared LM head. */
static void spec_head_step(const plan_ctx *c, const step_shape *sp, step_acc *a)
{
    const engine_model *m = c->m;
    double T = sp->seqs * sp->t, d = m->hidden, ab = c->a_b;
    small(a, &c->kc, "draft embed norms", 4.0 * T * d * ab);
    gemm(a, &c->kc, "draft projection", T, d / c->p.tp, 2.0 * d, 1, c->w_b, ab);
    int moe = c->s->spec_method == ENGINE_SPEC_MTP && c->sh.moe_layers > 0;
    layer_cost(c, moe ? LAYER_MOE : LAYER_DENSE, sp, a);
    spec_lm_head(c, sp->seqs, a);
}

/* The k draft steps of one target step for `seqs` sequences at `past`
 * cached tokens, into *a; returns their time. */
static double spec_draft_cost_at(const plan_ctx *c, double seqs, double past, step_acc *a)
{
    const engine_scenario *s = c->s;
    int eager = !engine_decode_graphs(s, c->p, seqs, 1);
    memset(a, 0, sizeof *a);
    a->host = eager ? c->fw->launch_s : c->fw->graph_kernel_s;
    a->coll_extra = eager ? s->intra->eager_s : 0.0;
    if (s->spec_k <= 0)
        return 0;
    step_shape sp = {seqs, 1, past, 1, 0, NULL, 0};
    if (s->spec_method == ENGINE_SPEC_DRAFT) {
        engine_scenario ds;
        plan_ctx dc;
        pipe_cost pc;
        spec_draft_ctx(c, &ds, &dc);
        dc.xs = c->xs; /* explain: the draft's one stage */
        pipe_compute(&dc, &sp, eager ? EVAL_EAGER : EVAL_GRAPH, &pc);
        *a = pc.sum;
        if (c->xs)
            c->xs->draft_step = c->xs->worst;
    } else {
        if (c->xs) {
            c->xs->draft_step.n = 0;
            a->xt = &c->xs->draft_step;
        }
        spec_head_step(c, &sp, a);
        a->xt = NULL;
    }
    acc_scale(a, s->spec_k);
    return acc_total(a);
}

/* The drafts of one target step for the replica's batch at mid-generation. */
static double spec_draft_cost(const plan_ctx *c, step_acc *a)
{
    const engine_scenario *s = c->s;
    return spec_draft_cost_at(c, s->batch, s->prompt + s->gen / 2.0, a);
}

double eval_spec_decode_s(const plan_ctx *c, double seqs, double past)
{
    const engine_scenario *s = c->s;
    int pp = c->p.pp;
    double md = eval_decode_microbatches(s, pp, seqs);
    step_shape dc = {seqs / md, s->spec_k + 1.0, past, 1, 0, NULL, 0};
    pipe_cost dec;
    pipe_compute(c, &dc, engine_decode_graphs(s, c->p, dc.seqs, dc.t) ? EVAL_GRAPH : EVAL_EAGER,
                 &dec);
    double cycle = md * dec.worst_t;
    double work = dec.sum_t > cycle ? dec.sum_t : cycle;
    double fixed = eval_host_exposed_s(s, seqs, work);
    step_acc d;
    return work + fixed + spec_draft_cost_at(c, seqs, past, &d);
}

/* The draft model's prefill of the batch (DRAFT only; an EAGLE head or MTP
 * module is left out of TTFT), eager like the target's, into *a. */
static double spec_draft_prefill(const plan_ctx *c, step_acc *a)
{
    memset(a, 0, sizeof *a);
    if (c->s->spec_method != ENGINE_SPEC_DRAFT)
        return 0;
    engine_scenario ds;
    plan_ctx dc;
    pipe_cost pc;
    double chunks;
    spec_draft_ctx(c, &ds, &dc);
    step_shape pf = prefill_shape(&dc, 1, &chunks);
    dc.xs = c->xs; /* explain: the draft's one stage */
    pipe_compute(&dc, &pf, EVAL_PREFILL, &pc);
    *a = pc.sum;
    acc_scale(a, chunks);
    if (c->xs) {
        c->xs->draft_prefill = c->xs->worst;
        c->xs->draft_chunks = chunks;
    }
    return acc_total(a);
}

/* a's kernel times (times f) added to a breakdown. */
static void breakdown_add(engine_breakdown *b, const step_acc *a)
{
    b->gemm_s += a->gemm;
    b->attn_s += a->attn;
    b->small_s += a->small;
    b->launch_s += a->launch;
    b->tp_s += a->tp;
    b->ep_s += a->ep;
    b->pp_s += a->pp;
    b->kernels += (int)(a->kernels + 0.5);
}

static void breakdown_scale(engine_breakdown *b, double f)
{
    b->gemm_s *= f;
    b->attn_s *= f;
    b->small_s *= f;
    b->launch_s *= f;
    b->tp_s *= f;
    b->ep_s *= f;
    b->pp_s *= f;
    b->step_s *= f;
    b->bubble_s *= f;
}

/* r holds the target's verification step of k + 1 tokens a sequence as its
 * decode step: add the k draft steps and divide by the expected tokens per
 * step, so itl_s = (draft_s + verify_s) / E; add the draft model's prefill
 * to TTFT. */
static void spec_apply(const plan_ctx *c, engine_result *r)
{
    const engine_scenario *s = c->s;
    engine_spec_result *sr = &r->spec;
    step_acc d, pf;
    sr->on = 1;
    sr->method = s->spec_method;
    sr->k = s->spec_k;
    sr->accept = s->spec_accept;
    sr->tokens_per_step = engine_spec_tokens_per_step(s->spec_k, s->spec_accept);
    sr->verify_s = r->itl_s;
    sr->draft_s = spec_draft_cost(c, &d);
    sr->draft_tp = s->spec_method == ENGINE_SPEC_DRAFT ? spec_draft_tp(s->spec_draft, c->p.tp) : 0;
    double e = sr->tokens_per_step;
    r->decode_compute_s = (r->decode_compute_s + sr->draft_s - acc_comm(&d)) / e;
    r->decode_comm_s = (r->decode_comm_s + acc_comm(&d)) / e;
    r->decode_bubble_s /= e;
    r->itl_s = r->decode_compute_s + r->decode_comm_s + r->decode_bubble_s;
    breakdown_add(&r->decode, &d);
    breakdown_scale(&r->decode, 1.0 / e);
    sr->draft_prefill_s = spec_draft_prefill(c, &pf);
    if (sr->draft_prefill_s > 0) {
        r->prefill_compute_s += sr->draft_prefill_s - acc_comm(&pf);
        r->prefill_comm_s += acc_comm(&pf);
        r->ttft_s = r->prefill_compute_s + r->prefill_comm_s + r->prefill_bubble_s;
        breakdown_add(&r->prefill, &pf);
    }
}
