/*
 * internal.h - helpers shared by the engine's own files; not part of the
 * public contract (engine.h).
 */
#ifndef SHARDSCOPE_ENGINE_INTERNAL_H
#define SHARDSCOPE_ENGINE_INTERNAL_H

#include "engine.h"

/* Parameter counts of a model split by how each part is sharded. */
typedef struct model_shape {
    double attn;        /* attention parameters of one layer */
    double norms;       /* norm weights of one layer */
    double attn_all;    /* (attn + norms) * layers */
    double dense_mlp;   /* all dense MLPs */
    double experts;     /* all routed experts of all MoE layers */
    double expert_one;  /* one expert's MLP */
    double shared;      /* all shared experts */
    double router;      /* all routers */
    double embed_in;    /* token (+ learned position) embeddings */
    double head;        /* untied output head (0 if tied) */
    double final_norm;
    double attn_rep;    /* attention parameters of one layer replicated on every TP
                         * rank (MLA's down-projections) */
    double attn_out;    /* the output projection's share of attn (split over TP) */
    double attn_qk_dim; /* per-head query/key width used by attention FLOPs */
    double attn_v_dim;  /* per-head value width */
    int moe_layers;
} model_shape;

void model_shape_compute(const engine_model *m, model_shape *sh);
/* KV bytes of one token in one layer held by one GPU of a tp group. */
double model_kv_bytes_per_token_layer(const engine_model *m, engine_dtype kv, int tp);
/* MoE layers, and local-attention layers, among layers [start, start + n). */
int model_moe_layers_in(const engine_model *m, int start, int n);
int model_local_layers_in(const engine_model *m, int start, int n);
/* Tokens of a ctx-token sequence a layer keeps in its KV cache (and attends
 * to): the window for a local layer, else ctx. */
double model_kv_tokens(const engine_model *m, int local, double ctx);


/* Per-kernel constants resolved for one GPU, calibration and weight dtype
 * (kernels.c). */
typedef struct kconst {
    engine_dtype math;  /* the GEMM math dtype */
    double flops;       /* GEMM FLOP/s: peak of the math dtype x eta_c */
    double flops16;     /* the 16-bit peak (attention) */
    double bw;          /* GEMM weight streaming: HBM x eta_m */
    double bw_kv;       /* decode attention: HBM x eta_kv */
    double bw_small;    /* element-wise kernels: HBM x eta_small */
    double bw_rows;     /* the CUTLASS fused MoE's row kernels: HBM x eta_moe_rows */
    double bw_attn_io;  /* prefill attention per-token traffic */
    double eta_attn;
    double eta_attn_pre; /* prefill attention's dot products (eta_attn_prefill or eta_attn) */
    double fp32;        /* CUDA-core FP32 FLOP/s (masked-MHA decode); 0: none */
    double l2bw;        /* L2-to-SM re-read bytes/s (masked-MHA decode); 0: none */
    double acc16;       /* the FP16-accumulate peak the GEMM rate was scaled to
                         * (kconst_acc16), FLOP/s; 0: not applied */
    double gemm_t0, attn_t0, decode_attn_t0, decode_seq, floor, layer_extra;
    /* decode attention by thread block (kc_attn_decode_gqa; cta 0: none):
     * a GQA block's cost on one SM with a 16-bit / 8-bit cache, an MHA
     * block's, per query head of a block, and the dot products' FLOP/s */
    double decode_cta, decode_cta8, decode_mha, decode_head, decode_rate;
    double decode_cta_t0, bw_kv_cta; /* its fixed cost and KV rate (HBM x eta_kv_cta) */
    double launch_min;  /* a calibration's measured host launch cost (0: none) */
    int w4a16;          /* FP4 weights on 16-bit math (the W4A16 MoE) */
    int marlin;         /* ... on Marlin (kconst_marlin) */
    double bw_dense;    /* the 16-bit GEMMs' weight stream (B/s) before the
                         * W4A16 fraction replaced bw */
    double moe_token;   /* W4A16 / W4A8 MoE: per pooled token (0: none) */
    int w4a8;           /* MXFP4 weights on FP8 math (the W4A8 MoE) */
    int grouped;        /* the MoE's grouped expert GEMMs (kconst_experts), even
                         * with one expert hit: never the dense GEMV path */
    double moe_scale;   /* grouped expert GEMMs' FLOP rate over `flops` (eta_moe*
                         * over the dense fraction of the math; 1: the same) */
    double roof_p;      /* > 0: a GEMM takes (compute^p + memory^p)^(1/p) + t0, the
                         * grouped expert GEMMs' blend (kconst_experts); 0: the max */
    double moe_roof_p;  /* the GPU's p for its expert GEMMs (engine_gpu.moe_roof_p) */
    double attn_cta;    /* prefill attention per thread block, on one SM (0: none) */
    double attn_score;  /* prefill attention's softmax per score, whole GPU (0: none) */
    double attn_exp;    /* its exponential, overlapped with the dot products (0: none) */
    int attn_scores;    /* 1: prefill attention materialises its scores (no
                         * FlashAttention: engine_scenario.attn_scores) */
    double min_tm;      /* tiles of fewer token rows are not picked (engine_gpu.gemm_min_m; 0: any) */
    int sm;             /* SMs for wave quantization; 0: the calibration's device
                         * has none (a CPU): no tile, wave or per-block terms */
    double pack_bw;     /* a CPU calibration's weight packing rate (0: none) */
    double pack_l2;     /* its L2: weights within half of it stream at bw (0: none) */
    double pack_unroll; /* its SGEMM micro-kernel's token width (engine_calib.unroll_n; 0: none) */
    int dclass;         /* the math's class for table lookups (0 16-bit, 1 8-bit, 2 other) */
    const engine_calib *tab; /* measured GEMM tables (NULL: none) */
    int bf16;           /* bf16 math: the bf16 tables first, then the fp16 ones */
} kconst;

typedef struct gemm_cost {
    double time;    /* max(compute, memory) + t0 (roof_p: their p-norm + t0) */
    double compute; /* FLOPs at the shape's rate */
    double memory;  /* bytes at the streaming rate */
} gemm_cost;

void kconst_init(kconst *k, const engine_gpu *g, const engine_calib *c, engine_dtype w);
/* kconst_init, then, when fp8_block and the math is FP8, the GPU's
 * block-scaled FP8 efficiency and fixed cost (eta_compute_fp8_block,
 * gemm_t0_fp8_block_s; per-tensor FP8's where the preset has none). */
void kconst_init_q(kconst *k, const engine_gpu *g, const engine_calib *c, engine_dtype w,
                   int fp8_block);
/* The MXFP4 x MXFP8 (W4A8) MoE on a kconst_init'ed FP8 kconst: the grouped
 * rate eta_moe_w4a8 as its ratio to the dense FP8 fraction (1: none set)
 * and the per-pooled-token cost moe_w4a8_token_s; marks k->w4a8. */
void kconst_w4a8_moe(kconst *k, const engine_gpu *g);
void kconst_marlin(kconst *k, const engine_gpu *g); /* W4A16 on Marlin */

/* A run whose 16-bit GEMMs accumulate in FP16 (engine_scenario.gemm_acc16)
 * on a kconst_init'ed kconst: when its math is FP16, the GPU has an
 * FP16-accumulate peak (fp16_acc16_flops > 0) and no measured calibration
 * `c` (NULL: none) set the rate, the GEMM rate k->flops is scaled by
 * fp16_acc16_flops / peak_flops[FP16] (its efficiency kept) and k->acc16
 * records the peak; otherwise k is unchanged.  Attention (k->flops16)
 * keeps the FP32-accumulate rate. */
void kconst_acc16(kconst *k, const engine_gpu *g, const engine_calib *c);
/* The kconst of an MoE layer's grouped expert GEMMs from the layer's k:
 * the grouped-kernel rate (moe_scale) and, for TensorRT-LLM's CUTLASS
 * fused MoE (`cutlass`), the GPU's compute / weight-stream blend (roof_p =
 * moe_roof_p), except the MXFP4 MoEs (W4A16, W4A8: their own measured
 * costs, fitted with the max). */
void kconst_experts(kconst *ke, const kconst *k, int cutlass);
/* `groups` GEMMs of the same shape in one (grouped) kernel. */
gemm_cost kc_gemm(const kconst *k, double m, double n, double kk, double groups,
                  double w_bytes, double a_bytes);
double kc_attn_prefill(const kconst *k, double seqs, double t, double past, double heads,
                       double kv_heads, double qk, double v, double a_bytes);
/* The same for a local layer attending to at most `window` keys a query
 * (0: no window): FLOPs over the windowed keys, at most `window` past ones
 * read.  chunked: the keys of the query's own `window`-token chunk only
 * (Llama 4), else the last `window` (sliding). */
double kc_attn_prefill_w(const kconst *k, double seqs, double t, double past, double window,
                         int chunked, double heads, double kv_heads, double qk, double v,
                         double a_bytes);
double kc_attn_decode(const kconst *k, double kv_bytes, double flops, double seq_heads);
/* One GQA/MHA decode attention call by thread block: seqs sequences
 * (padding dummies included) of at most ctx cached tokens, kv_heads KV heads
 * each read by `group` query heads, kv_b bytes per cached element (<= 1:
 * an 8-bit cache). */
typedef struct kdecode {
    double seqs, ctx, kv_heads, group, kv_b;
} kdecode;
/* The KV splits per (sequence, KV head) TensorRT-LLM's XQA multi-block
 * mode takes (computeMultiBlockCount) for `rows` = sequences x KV heads. */
double kc_decode_splits(double ctx, double rows, double seqs, double sm);
/* Decode attention of shape d reading kv_bytes with flops FLOPs: by thread
 * block when the GPU has decode_attn_cta_s (kc_attn_decode otherwise, with
 * seqs x kv_heads x group blocks); and its bound. */
double kc_attn_decode_gqa(const kconst *k, const kdecode *d, double kv_bytes, double flops);
engine_bound kc_attn_decode_gqa_bound(const kconst *k, const kdecode *d, double kv_bytes,
                                      double flops);
/* The same for masked MHA (kernels.c): the compute term at k->fp32, the
 * CUDA-core FP32 rate (kc_attn_decode when k->fp32 is 0), the memory term
 * also at least `group` reads of kv_bytes from L2 at k->l2bw (when set);
 * and its bound. */
double kc_attn_decode_mmha(const kconst *k, double kv_bytes, double flops, double seq_heads,
                           double group);
engine_bound kc_attn_decode_mmha_bound(const kconst *k, double kv_bytes, double flops,
                                       double seq_heads, double group);

/* One kernel's time with its FLOPs, bytes and the term that set it (explain). */
typedef struct kcost {
    double time, flops, bytes;
    engine_bound bound;
} kcost;
/* kc_attn_prefill_w, filling *x when x != NULL. */
double kc_attn_prefill_x(const kconst *k, double seqs, double t, double past, double window,
                         int chunked, double heads, double kv_heads, double qk, double v,
                         double a_bytes, kcost *x);
/* The term that sets kc_attn_decode's / kc_gemm's time. */
engine_bound kc_attn_decode_bound(const kconst *k, double kv_bytes, double flops,
                                  double seq_heads);
engine_bound kc_gemm_bound(const kconst *k, const gemm_cost *c);
/* Appends the per-kernel constants of k (as kconst_init resolved them for
 * g, c and weight dtype w) to x->constant, with where each came from. */
void kc_explain_constants(const kconst *k, const engine_gpu *g, const engine_calib *c,
                          engine_dtype w, engine_explain *x);
/* The GPU's constants of the kernels a plan runs beyond kc_explain_constants'
 * (appended to x, none twice): prefill attention's per-block cost when
 * set, block-scaled FP8's rate and fixed cost when fp8_block and the math
 * is FP8, and with moe (the model has routed experts) the grouped
 * kernel's rate of the math (eta_moe, eta_moe_fp8, eta_moe_fp8_block,
 * eta_moe_fp4) when set, or the W4A16 MoE's per-token cost. */
void kc_explain_quant_moe(const kconst *k, const engine_gpu *g, int fp8_block, int moe,
                          engine_explain *x);
double kc_small(const kconst *k, double bytes);

/* 1 when the scenario's framework generation runs no custom all-reduce over
 * its xGMI intra link (upstream vLLM's V0 engine disabled it on every ROCm GPU:
 * host_loop custom_allreduce_off_xgmi, source in frameworks.json); 0 otherwise,
 * also for a NULL framework or link. */
int engine_custom_ar_off_xgmi(const engine_scenario *s, const engine_framework *fw);
/* All-reduce for a TP group: the framework's custom kernel where it applies
 * (small messages inside an NVLink/xGMI domain, not where
 * engine_custom_ar_off_xgmi), else NCCL (comm.c). */
double engine_allreduce_s(const engine_scenario *s, const engine_framework *fw, int n,
                          int per_node, double bytes);

/* Deterministic generator (splitmix64) and the standard normal quantile. */
typedef struct engine_rng {
    uint64_t state;
} engine_rng;

double rng_uniform(engine_rng *r); /* in (0, 1) */
double normal_quantile(double p);  /* p in (0, 1) */

/* The one-ideal-GPU throughput an efficiency divides by depends on the
 * scenario and the EP pooling factor only: engine_rank keeps it per factor
 * across the plans of one scenario. */
typedef struct ideal_memo {
    int n;
    int pool[8];
    int batch[8];
    double tokens_per_s[8];
} ideal_memo;
int eval_plan_memo(const engine_scenario *s, engine_plan plan, engine_result *out,
                   engine_error *err, ideal_memo *memo);

/* 1 when some plan for s->gpus fits in memory (rank.c; the scenario is
 * assumed checked). */
int rank_some_plan_fits(const engine_scenario *s);

/* Calls fn for every plan engine_rank evaluates for s->gpus, in its
 * enumeration order (rank.c; the scenario is assumed checked). */
void rank_for_each_plan(const engine_scenario *s, void (*fn)(engine_plan p, void *arg),
                        void *arg);

/* --- one mixed engine step (eval.c's step model, for step.c) ----------- */

/* A step's mix as the layer model sees it: the public mix divided into mb
 * micro-batches (every count / mb). */
typedef struct step_mix {
    const engine_step_chunk *pre;
    int n_pre;
    double dec_seqs, dec_past;
    double mb; /* micro-batches the step is split into, >= 1 */
    double dec_pad; /* a decode-only step's CUDA graph padding: dummy
                     * sequences beside dec_seqs (engine_graph_padded_seqs) */
} step_mix;

typedef struct plan_ctx plan_ctx;
size_t eval_ctx_size(void);
/* 1 and c filled when the plan is valid for s (borrowed: c keeps s); else
 * 0 with the reason. */
int eval_ctx_init(plan_ctx *c, const engine_scenario *s, engine_plan p, char *reason,
                  size_t len);
void eval_ctx_bind(plan_ctx *c, const engine_scenario *s); /* point c at a copy of its s */
/* engine_result's max_concurrency and kv_capacity_tokens; the KV bytes one
 * GPU holds per sequence of s->prompt + s->gen tokens (whole blocks, local
 * layers at their window) and per token over all its layers. */
void eval_ctx_capacity(const plan_ctx *c, engine_result *out, double *seq_kv_bytes,
                       double *token_kv_bytes);
/* How a step's kernels reach the GPU: replayed from a CUDA graph, launched
 * one by one in a decode step (the framework's launch_s each), or launched
 * one by one in a step with prefill (its prefill_launch_s, else launch_s). */
enum { EVAL_GRAPH = 0, EVAL_EAGER = 1, EVAL_PREFILL = 2 };
/* The pipeline's sum of stage times and its slowest stage for one
 * micro-batch of mx; launch: EVAL_GRAPH, EVAL_EAGER or EVAL_PREFILL. */
void eval_mix_pipe(const plan_ctx *c, const step_mix *mx, int launch, double *sum_t,
                   double *worst_t);
/* One pipeline hop of `tokens` tokens' activations (a TP rank's slice). */
double eval_hop_s(const plan_ctx *c, double tokens);
/* A decode-only step of `seqs` sequences at `past` cached tokens when the
 * scenario speculates: the verification of k + 1 tokens a sequence by
 * decode_times' rule (host cost included) plus the k draft steps. */
double eval_spec_decode_s(const plan_ctx *c, double seqs, double past);
/* Micro-batches of a load-simulation prefill step, and decode groups in
 * flight, for seqs sequences on pp stages (eval.c). */
double eval_step_prefill_microbatches(const engine_scenario *s, int pp, double seqs);
double eval_decode_microbatches(const engine_scenario *s, int pp, double seqs);
/* The framework's host work for one step of seqs sequences
 * (engine_scenario_host_loop: per step + per sequence x seqs). */
double eval_host_step_s(const engine_scenario *s, double seqs);
/* What of it a decode step whose GPU work takes work_s pays: all of it, or
 * under an overlapping scheduler (engine_scenario_host_overlap) only what
 * the GPU work does not hide. */
double eval_host_exposed_s(const engine_scenario *s, double seqs, double work_s);

#endif /* SHARDSCOPE_ENGINE_INTERNAL_H */
