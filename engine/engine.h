/*
 * engine.h - the performance model of shardscope.
 *
 * Pure C (libc + libm): given a scenario (model, GPU, cluster, workload,
 * calibration) and a plan (tp x pp x dp, ep for experts) the engine computes
 * memory per GPU, prefill/decode times, communication, pipeline bubble,
 * efficiency, cost and Monte Carlo tail latency, and ranks every plan for a
 * GPU count.  It never allocates behind the caller's back, never prints and
 * keeps no global state; every result lands in a caller-owned struct.
 *
 * Units: SI everywhere (bytes, seconds, FLOP/s, bytes/s, USD).  GB = 1e9
 * bytes and GiB = 2^30 bytes exist only in formatting code, never here.
 */
#ifndef SHARDSCOPE_ENGINE_H
#define SHARDSCOPE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#define ENGINE_NAME_MAX 64
#define ENGINE_SOURCE_MAX 1024
#define ENGINE_REASON_MAX 128
#define ENGINE_ERROR_MAX 384
#define ENGINE_HF_ID_MAX 128

/* A human sentence naming the file, entry and field that went wrong. */
typedef struct engine_error {
    char msg[ENGINE_ERROR_MAX];
} engine_error;

typedef enum engine_dtype {
    ENGINE_FP16 = 0,
    ENGINE_BF16,
    ENGINE_FP8,
    ENGINE_INT8,
    ENGINE_INT4,
    ENGINE_FP4,        /* NVFP4: 4-bit values in blocks of 16 with an FP8 scale */
    ENGINE_DTYPE_COUNT
} engine_dtype;

/* How a serving framework budgets GPU memory (engine_framework). */
typedef enum engine_mem_rule {
    ENGINE_MEM_TOTAL = 0, /* fraction of the total (vLLM gpu_memory_utilization) */
    ENGINE_MEM_FREE,      /* KV gets a fraction of what is free after the weights
                           * (TensorRT-LLM kv_cache_free_gpu_mem_fraction) */
    ENGINE_MEM_RULE_COUNT
} engine_mem_rule;

/* CUDA graphs for decode steps. */
typedef enum engine_graphs {
    ENGINE_GRAPHS_DEFAULT = 0, /* as the framework profile says */
    ENGINE_GRAPHS_ON,
    ENGINE_GRAPHS_OFF,
    ENGINE_GRAPHS_COUNT
} engine_graphs;

/* How FP8 weights are scaled: as the checkpoint says (model weight_block),
 * one scale per tensor, or one per 128x128 weight block (DeepSeek-V3). */
typedef enum engine_fp8_scaling {
    ENGINE_FP8_SCALE_AUTO = 0,
    ENGINE_FP8_SCALE_TENSOR,
    ENGINE_FP8_SCALE_BLOCK,
    ENGINE_FP8_SCALE_COUNT
} engine_fp8_scaling;

/* How an MoE layer's tokens reach their experts across an EP group
 * (engine_scenario.a2a; README "The model", MoE as deployed). */
typedef enum engine_a2a {
    ENGINE_A2A_NCCL = 0,  /* NCCL all-to-all, dispatch and combine alike */
    ENGINE_A2A_DEEPEP,    /* DeepEP normal kernels (NVLink + RDMA forwarding) */
    ENGINE_A2A_DEEPEP_LL, /* DeepEP low-latency kernels (pure RDMA) where a rank
                           * dispatches at most ENGINE_DEEPEP_LL_TOKENS tokens,
                           * else the normal ones */
    ENGINE_A2A_COUNT
} engine_a2a;
#define ENGINE_DEEPEP_LL_TOKENS 256

/* Which kernel runs FP4 weights on 16-bit math (W4A16: MXFP4 on Hopper;
 * engine_scenario.w4a16_kernel): the Triton MoE (TensorRT-LLM's Triton
 * backend, vLLM's triton_kernels, the default) the GPU's eta_compute_w4a16
 * was measured on, or Marlin (vLLM VLLM_MXFP4_USE_MARLIN=1, SGLang's
 * marlin backend): issue-bound at its own compute ceiling
 * (eta_compute_w4a16_marlin), its weight stream at the GPU's eta_memory. */
typedef enum engine_w4a16 {
    ENGINE_W4A16_TRITON = 0,
    ENGINE_W4A16_MARLIN,
    ENGINE_W4A16_COUNT
} engine_w4a16;

/* What the sampler does with each step's logits (engine_scenario.sampling;
 * README "The model", framework profiles). */
typedef enum engine_sampling {
    ENGINE_SAMPLING_PLAIN = 0, /* temperature sampling, top-p 1, no top-k, no
                                * penalties (the benchmark scripts' default) */
    ENGINE_SAMPLING_TOP_P,     /* plus top-p / top-k truncation: the profile's
                                * top-p kernels run too */
    ENGINE_SAMPLING_FULL,      /* plus repetition, frequency and presence
                                * penalties: its penalty kernels as well */
    ENGINE_SAMPLING_COUNT
} engine_sampling;

/* A framework's engine generation, choosing its host loop cost per step
 * (engine_scenario.framework_version; presets/frameworks.json host_loop;
 * README "The model", vLLM's host cost per step). */
typedef enum engine_fw_version {
    ENGINE_FWV_DEFAULT = 0, /* the profile's step_us / seq_step_us (vLLM: its
                             * newest engine, V1) */
    ENGINE_FWV_V0,          /* vLLM <= 0.5 (and 0.6-0.7 eager): output
                             * processing on the critical path */
    ENGINE_FWV_V06,         /* vLLM 0.6-0.7 V0 engine with CUDA graphs: the async
                             * output processor (vllm#7049) overlaps it */
    ENGINE_FWV_V1,          /* vLLM >= 0.8 V1 engine */
    ENGINE_FWV_COUNT
} engine_fw_version;

/* SGLang's default mem_fraction_static (server_args.py
 * _handle_gpu_memory_settings, from sgl-project/sglang#10975, SGLang >=
 * 0.5.3): (M - R) / M of the GPU's memory M in MiB, rounded to 3 places,
 * where R = base_mib + chunk_token_mib x max(chunked_prefill_size, 2048) +
 * graph_seq_mib x cuda_graph_max_bs + group_mib x tp x pp / 8
 * [+ dp_attn_mib x cuda_graph_max_bs x dp, + dp_attn_big_mib x the same
 * above 300 captured sequences, under attention data-parallel]
 * [+ piecewise_mib a captured prefill size, with prefill graphs], at least
 * floor_mib on a GPU above floor_above_gib, then + eagle_mib (EAGLE, MTP)
 * or draft_mib (a separate draft model) with speculative decoding
 * (engine_plan_usable_fraction).  base_mib 0: no such rule (mem_fraction). */
/* A framework's serving defaults by GPU memory (vLLM's arg_utils.py
 * get_batch_defaults, SGLang's server_args.py _handle_gpu_memory_settings):
 * the first tier whose below_gib bound is above the GPU's memory (the VRAM
 * override if set) applies, else the last tier if it has no bound (0: every
 * larger GPU); a GPU whose preset name holds the profile's tier_exclude
 * takes the first tier.  In a tier, max_num_tokens is the token budget a
 * step (chunked_prefill_size, max_num_batched_tokens), max_num_seqs the
 * running requests, graph_bs the largest captured decode batch below TP 4
 * and graph_bs_tp4 from TP 4 (cuda_graph_max_bs); 0 keeps the profile's
 * value (graph_bs_tp4 0: graph_bs from TP 4 too).  They apply to the default generation and ENGINE_FWV_V1
 * (engine_scenario_max_num_tokens, engine_max_num_seqs, engine_decode_graphs
 * and SGLang's reserve in engine_plan_usable_fraction). */
#define ENGINE_FW_TIERS 6
typedef struct engine_fw_tier {
    double below_gib;
    int max_num_tokens, max_num_seqs, graph_bs, graph_bs_tp4;
} engine_fw_tier;

typedef struct engine_mem_reserve {
    double base_mib, chunk_token_mib, graph_seq_mib, group_mib;
    double dp_attn_mib, dp_attn_big_mib, piecewise_mib;
    double floor_mib, floor_above_gib, eagle_mib, draft_mib;
} engine_mem_reserve;

/* One generation's host work per step (engine_framework.host_loop). */
typedef struct engine_host_loop {
    int set;                  /* 1: the profile states it; 0: its step_s/seq_step_s */
    double step_s;            /* per engine step */
    double seq_step_s;        /* per running sequence per step */
    char source[ENGINE_SOURCE_MAX]; /* the entry's own source ("": the profile's) */
    int xgmi_no_custom_ar;    /* 1: that generation's build runs no custom
                               * all-reduce on AMD GPUs: every all-reduce over an
                               * xGMI link is RCCL's (frameworks.json
                               * custom_allreduce_off_xgmi); 0: the profile's rule */
    int overlap;              /* 1: that generation's scheduler overlaps the host
                               * with the GPU and forms batches a step ahead
                               * (vLLM's async scheduling); 0: it runs them in
                               * turn (engine_scenario_host_overlap, _admit_lag) */
    int graph_capture_max;    /* that generation's largest captured decode
                               * batch (engine_decode_graphs); 0: the profile's */
    double graph_capture_seqs; /* and its limit in max_num_seqs; 0: the profile's */
} engine_host_loop;
#define ENGINE_MAX_IMBALANCE 64.0 /* --moe-imbalance */

/* Kinds of interconnect, for what a framework can do on them (a custom
 * all-reduce needs peer-to-peer loads and stores: NVLink or xGMI). */
typedef enum engine_link_kind {
    ENGINE_LINK_OTHER = 0,
    ENGINE_LINK_NVLINK,
    ENGINE_LINK_XGMI,
    ENGINE_LINK_PCIE,
    ENGINE_LINK_NET,
    ENGINE_LINK_KIND_COUNT
} engine_link_kind;

/* Warnings attached to an evaluated plan (engine_result.warnings). */
enum {
    ENGINE_WARN_TP_CROSS_NODE = 1 << 0, /* a TP group spans NVLink domains */
    ENGINE_WARN_EP_CROSS_NODE = 1 << 1, /* an EP group spans NVLink domains */
    ENGINE_WARN_QUEUED = 1 << 2         /* total_concurrency over dp replicas is more
                                         * than max_num_seqs each: the rest queue */
};
#define ENGINE_WARN_COUNT 3

/* What set the batch a plan is timed at (engine_result.batch_bound). */
typedef enum engine_batch_bound {
    ENGINE_BATCH_GIVEN = 0,     /* the scenario's batch, as given */
    ENGINE_BATCH_CAPACITY,      /* batch_max: the most sequences the KV cache holds */
    ENGINE_BATCH_MAX_NUM_SEQS,  /* the framework's (or the scenario's) max_num_seqs */
    ENGINE_BATCH_CONCURRENCY,   /* total_concurrency: ceil(C / dp) */
    ENGINE_BATCH_BOUND_COUNT
} engine_batch_bound;

typedef enum engine_schedule {
    ENGINE_SCHED_GPIPE = 0,
    ENGINE_SCHED_1F1B,
    ENGINE_SCHED_INTERLEAVED,
    ENGINE_SCHED_COUNT
} engine_schedule;

typedef enum engine_objective {
    ENGINE_OBJ_LATENCY = 0,
    ENGINE_OBJ_THROUGHPUT,
    ENGINE_OBJ_COST,
    ENGINE_OBJ_COUNT
} engine_objective;

typedef enum engine_collective {
    ENGINE_OP_ALLREDUCE = 0,
    ENGINE_OP_ALLGATHER,
    ENGINE_OP_REDUCESCATTER,
    ENGINE_OP_ALLTOALL,
    ENGINE_OP_P2P,
    ENGINE_OP_COUNT
} engine_collective;

/* Transformer architecture.  Counts are plain integers from the config. */
typedef struct engine_model {
    char name[ENGINE_NAME_MAX];    /* preset key, e.g. "llama-3-70b" */
    char display[ENGINE_NAME_MAX]; /* e.g. "Llama-3-70B" */
    char source[ENGINE_SOURCE_MAX];
    int layers;        /* L */
    int hidden;        /* d */
    int heads;         /* h */
    int kv_heads;      /* g (== h for MHA) */
    int head_dim;      /* d_h */
    int ffn;           /* f: dense MLP width */
    int vocab;         /* V */
    int context;       /* max context (tokens) */
    int gated_mlp;     /* 1: SwiGLU (3 matrices), 0: GELU (2 matrices) */
    int tied_embeddings;
    int learned_pos;   /* 1: learned position embeddings (GPT-2/3): context*d */
    int qkv_bias;      /* 1: biases on Q, K, V (Qwen2) */
    int parallel_ar_once; /* 1: parallel attention + MLP whose model code adds
                        * the two TP-partial outputs before ONE all-reduce a
                        * layer (Falcon's new decoder architecture) in the
                        * frameworks that say so (engine_framework.
                        * parallel_ar_once); 0: two all-reduces a layer */
    /* Mixture of experts; experts == 0 means dense. */
    int experts;       /* E routed experts per MoE layer */
    int top_k;         /* k experts per token */
    int shared_experts;
    int moe_ffn;       /* width of one expert's MLP (0: same as ffn) */
    int dense_layers;  /* leading layers with a dense MLP (DeepSeek-V3: 3) */
    int moe_every;     /* after those, every Nth layer is MoE (layers N-1, 2N-1, ...;
                        * Llama 4 Maverick: 2); 0 or 1: every layer */
    int qk_norm;       /* 1: per-head RMSNorm of q and k (Qwen3, Gemma 3): 2 x d_h a layer */
    /* Local attention; window == 0 means every layer attends to the whole context. */
    int window;        /* tokens a local layer attends to (sliding window or chunk) */
    int global_every;  /* every Nth layer (N-1, 2N-1, ...) is global; 0: all layers local */
    int window_chunked; /* 1: chunked local attention (Llama 4), 0: sliding window */
    /* Multi-head latent attention (DeepSeek); mla == 0 means GQA/MHA. */
    int mla;
    int q_lora_rank;   /* 0: full-rank query projection */
    int kv_lora_rank;
    int qk_nope_dim;
    int qk_rope_dim;
    int v_head_dim;
    double params_published;        /* 0 if unknown */
    double active_params_published; /* MoE only; 0 if unknown */
    /* The checkpoint's own weight format (a Hugging Face quantization_config):
     * has_weight_dtype 0 means unquantized (the scenario's dtype is used). */
    int has_weight_dtype;
    engine_dtype weight_dtype;
    int quant_group;   /* weights per scale (int4: 128 for GPTQ/AWQ); 0: the dtype's default */
    int weight_block;  /* FP8 block-scaled checkpoint: the side of its square weight
                        * scale blocks (HF quantization_config.weight_block_size
                        * [128, 128]: DeepSeek-V3/R1); 0: per-tensor FP8 scales */
    int attn_16bit;    /* 1: a quantized checkpoint keeps the attention projections in
                        * 16 bits (gpt-oss's MXFP4 covers the experts only) */
    int attn_16bit_fp4; /* 1: its NVFP4 checkpoints keep the attention projections in
                        * 16 bits (NVIDIA's DeepSeek-R1-FP4: MoE and dense FFN
                        * in NVFP4, attention BF16); its own checkpoint need not */
    int attn_out_fp4;  /* 1: ... all but the output projection (o_proj, DeepSeek's
                        * wo), which its NVFP4 checkpoint quantizes too
                        * (nvidia/DeepSeek-R1-0528-NVFP4-v2) */
    int mtp_layers;    /* multi-token-prediction modules shipped with the checkpoint
                        * (DeepSeek-V3/R1 num_nextn_predict_layers: 1); 0: none */
    char hf_id[ENGINE_HF_ID_MAX]; /* Hugging Face repo "owner/name" for launch
                                   * lines; "" unknown (the preset name is used) */
    /* Group-limited MoE routing (HF n_group / topk_group; DeepSeek-V3: 8 and
     * 4): the experts fall in n_group equal groups and a token's top_k lie
     * in at most topk_group of them.  0 (or n_group <= 1): unlimited. */
    int n_group;
    int topk_group;
} engine_model;

/* Speculative decoding (engine_scenario.spec_*).  A target step verifies
 * k drafted tokens plus one of its own for every sequence; with i.i.d.
 * acceptance P it yields E = (1 - P^(k+1)) / (1 - P) tokens (Leviathan et
 * al. 2023, eq. 1).  The drafts come from a small model (DRAFT), an EAGLE
 * head (one decoder layer + the LM head, EAGLE paper) or DeepSeek's MTP
 * module (one transformer block + the shared head, DeepSeek-V3 report
 * 2.2). */
typedef enum engine_spec_method {
    ENGINE_SPEC_NONE = 0,
    ENGINE_SPEC_DRAFT,
    ENGINE_SPEC_EAGLE,
    ENGINE_SPEC_MTP,
    ENGINE_SPEC_COUNT
} engine_spec_method;

#define ENGINE_MAX_SPEC_K 64 /* drafted tokens per step */

/* One GPU type.  Peaks are dense (no sparsity); 0 means "no native support":
 * the engine then computes at the FP16 rate (weight-only quantization).
 * The per-kernel constants (README, "The model") come from measured kernel
 * data; each has a default in the preset loader. */
/* The largest engine_gpu.gemm_min_m: the most token rows a tile of the
 * GEMM model's tile table computes (kernels.c TILES), so at least one tile
 * is always left to pick. */
#define ENGINE_GEMM_MIN_M_MAX 256

typedef struct engine_gpu {
    char name[ENGINE_NAME_MAX];
    char display[ENGINE_NAME_MAX];
    char source[ENGINE_SOURCE_MAX];
    double memory_bytes;                   /* capacity, bytes */
    double hbm_bytes_per_s;                /* peak memory bandwidth */
    double peak_flops[ENGINE_DTYPE_COUNT]; /* dense FLOP/s per dtype */
    double eta_compute;                    /* achievable fraction of peak FLOP/s */
    double eta_compute_fp8;                /* the same for FP8 math; 0 = eta_compute */
    double eta_compute_fp4;                /* the same for FP4 math; 0 = eta_compute_fp8 */
    double eta_compute_w4a16;              /* FP4 weights dequantized to 16-bit math (no FP4
                                            * tensor cores: MXFP4 MoE on Hopper); 0 = eta_compute */
    double eta_memory_w4a16;               /* the same for their weight stream; 0 = eta_memory */
    double eta_compute_w4a16_marlin;       /* the same on Marlin (engine_w4a16); its weight
                                            * stream at eta_memory; 0 = eta_compute_w4a16 */
    double eta_memory;                     /* achievable fraction of HBM bandwidth
                                            * (weights streamed by a GEMM) */
    double eta_kv;                         /* the same for the KV cache read by decode
                                            * attention; 0 = eta_memory */
    double eta_small;                      /* the same for element-wise kernels (norms,
                                            * rotary, activation, residual); 0 = 0.6 */
    double eta_attn;                       /* prefill attention: fraction of the FP16 peak
                                            * at long sequences (FlashAttention class) */
    double eta_attn_io;                    /* its per-token part (Q, K, V read, O
                                            * written) as a fraction of HBM bandwidth */
    double eta_attn_prefill;               /* prefill attention's dot products alone
                                            * (with attn_score_s, its softmax, beside
                                            * them); 0 = eta_attn.  Decode attention's
                                            * compute keeps eta_attn */
    int sm_count;                          /* streaming multiprocessors (compute units) */
    double gemm_min_m;                     /* the fewest token rows a tensor-core GEMM tile of
                                            * this GPU's dense kernels computes (Hopper
                                            * warpgroup MMA: m64nNk16 / m64nNk32, PTX ISA
                                            * wgmma.mma_async shapes); tiles of fewer rows
                                            * (the 16-row GEMV class) are not picked; 0: any;
                                            * at most ENGINE_GEMM_MIN_M_MAX */
    double gemm_t0_s;                      /* fixed cost of one 16-bit GEMM */
    double gemm_t0_fp8_s;                  /* the same for low-precision weights: FP8
                                            * (block scales) or weight-only int4/int8
                                            * (dequantization); 0 = gemm_t0_s */
    double gemm_t0_fp4_s;                  /* the same for FP4 math; 0 = gemm_t0_fp8_s */
    double eta_compute_fp8_block;          /* FP8 math with block-scaled weights (128x128
                                            * weight blocks, 1x128 activation groups:
                                            * DeepSeek-V3's format); 0 = eta_compute_fp8 */
    double gemm_t0_fp8_block_s;            /* its fixed cost; 0 = gemm_t0_fp8_s */
    /* Block-scaled FP8 dense GEMMs take (compute^p + weight stream^p)^(1/p)
     * + t0, not the larger of the two, where the GPU's kernels do not hide
     * the one under the other (MI300X's AITER CK blockscale GEMMs: kernels.c
     * kconst_init_q; README "The model", block-scaled FP8).  0: the max;
     * else in [1, 16]. */
    double gemm_roof_p_fp8_block;
    double eta_moe;                        /* grouped MoE expert GEMMs, 16-bit math: fraction
                                            * of peak; 0 = eta_compute (the dense one) */
    double eta_moe_fp8;                    /* the same, per-tensor FP8; 0 = eta_compute_fp8 */
    double eta_moe_fp8_block;              /* the same, block-scaled FP8;
                                            * 0 = eta_compute_fp8_block */
    double eta_moe_fp4;                    /* the same, FP4 math; 0 = eta_compute_fp4 */
    double attn_t0_s;                      /* fixed cost of one prefill attention call */
    double decode_attn_t0_s;               /* the same for decode attention */
    double decode_attn_seq_s;              /* decode attention per sequence x query head
                                            * (one thread block each), per SM */
    double kernel_floor_s;                 /* shortest kernel: launch to completion */
    double layer_overhead_s;               /* extra fixed cost per layer per step (0) */
    double price_per_hour;                 /* USD per GPU-hour; 0 = unknown */
    char price_date[32];                   /* "2026-03" etc. */
    /* Usual topology: presets name the links; the front ends resolve them. */
    char link[ENGINE_NAME_MAX];            /* link inside the NVLink domain / node */
    char scale_out[ENGINE_NAME_MAX];       /* link between domains / nodes */
    int nvlink_domain;                     /* GPUs on one NVLink (xGMI) fabric; 0: none */
    int deepgemm;                          /* 1: runs DeepGEMM (CUDA, SM 90 / SM 100: Hopper,
                                            * datacenter Blackwell); a framework's deepgemm
                                            * applies on such a GPU only */
    int node_gpus;                         /* GPUs per node (a PCIe server); 0: 8 */
    /* The MXFP4 MoE on a GPU without FP4 tensor cores (W4A16: the Triton MoE
     * on Hopper) beyond its GEMMs and permutes: a cost per token routed on
     * the GPU (the pooled tokens of its EP group), whatever the number of
     * local experts; 0: none.  Its fixed cost per layer is the framework's
     * (engine_framework.moe_w4a16_fixed_s). */
    double moe_w4a16_token_s;
    /* Prefill attention's cost per thread block (128 queries of one head):
     * loading its queries, the softmax's final rescale and its output,
     * paid on one SM whatever the keys; 0: none. */
    double attn_cta_s;
    /* Decode attention by thread block (kc_attn_decode_gqa; all 0: the
     * per-(sequence, query head) form of decode_attn_seq_s).  A GQA block
     * is one (sequence, KV head[, KV split]) and costs decode_attn_cta_s on
     * one SM with a 16-bit cache, decode_attn_cta_fp8_s with an 8-bit one,
     * plus decode_attn_head_s per query head of its group; an MHA block
     * (one query head per KV head) decode_attn_mha_s.  eta_attn_decode: its
     * dot products' fraction of the FP16 peak (0: eta_attn).  The form has
     * its own fixed cost and KV rate, fit with it on the same tables:
     * decode_attn_cta_t0_s (0: decode_attn_t0_s) and eta_kv_cta (0: eta_kv);
     * the per-(sequence, head) form, masked MHA and MLA keep theirs. */
    double decode_attn_cta_s, decode_attn_cta_fp8_s, decode_attn_mha_s, decode_attn_head_s;
    double eta_attn_decode, decode_attn_cta_t0_s, eta_kv_cta;
    /* Prefill attention's softmax per score (one query-key pair of one
     * head: its exponential on the special-function units, its max and
     * rescale), the part not hidden under the tensor cores' dot products,
     * seconds per score over the whole GPU; 0: none (the dot products'
     * rate alone). */
    double attn_score_s;
    /* Prefill attention's exponential per score on the special-function
     * units where the kernel overlaps it with the dot products (Blackwell:
     * separate softmax warps), seconds per score over the whole GPU: the
     * dot products and it take the longer of the two; 0: none. */
    double attn_exp_s;
    /* CUDA-core (non-tensor) FP32 FMA peak, FLOP/s: the compute bound of a
     * decode attention kernel that does its dot products on CUDA cores
     * (TensorRT-LLM's masked MHA, engine_framework.decode_attn_xqa); 0:
     * unknown, no such bound. */
    double fp32_flops;
    /* L2-to-SM read bandwidth, bytes/s, of data many thread blocks re-read
     * from L2 (a measured plateau for working sets within the L2): the
     * bound of masked-MHA decode attention, whose blocks each read their
     * KV head, so a group of query heads per KV head reads it group times
     * from L2 though once from HBM; 0: unknown, no such bound. */
    double l2_bytes_per_s;
    /* The dense FP16 tensor-core peak with FP16 accumulation, FLOP/s, where
     * it differs from the FP32-accumulate peak peak_flops[FP16] carries
     * (GeForce Ampere / Ada: twice it, RTX 4090 330.3 against 165.2 TFLOPS);
     * taken for the 16-bit GEMMs of a run whose kernels accumulate in FP16
     * (engine_scenario.gemm_acc16); 0: no such split (data-centre parts). */
    double fp16_acc16_flops;
    /* The MXFP4 x MXFP8 (W4A8) grouped MoE on FP4 tensor cores (eval.c
     * mx_math, TensorRT-LLM's moe_torch_flow w4a8_mxfp4_mxfp8): its expert
     * GEMMs' fraction of the FP8 peak (0: the dense FP8 rate) and its own
     * cost per pooled token of the GPU's EP group, whatever its experts
     * (0: none). */
    double eta_moe_w4a8;
    double moe_w4a8_token_s;
    /* The grouped MoE expert GEMMs' time in TensorRT-LLM's CUTLASS fused MoE,
     * (compute^p + weight stream^p)^(1/p) + t0, not their max: where the two
     * take about as long the measured layer is slower than the max
     * (kernels.c kconst_experts; README "The model", grouped MoE expert
     * GEMMs).  0: the max; else in [1, 16]. */
    double moe_roof_p;
    /* The row kernels of TensorRT-LLM's CUTLASS fused MoE (routing, sort,
     * expand, finalize: one thread block per row) as a fraction of HBM
     * (eval.c moe_serial; README "The model", the fused MoE's row
     * kernels).  0 = eta_small. */
    double eta_moe_rows;
} engine_gpu;

#define ENGINE_CURVE_MAX 24


/* A measured time-vs-size curve of one collective on `gpus` GPUs (nccl-tests
 * conventions: bytes is the buffer per GPU).  n == 0: none measured. */
typedef struct engine_curve {
    int n;
    int gpus;
    double bytes[ENGINE_CURVE_MAX]; /* ascending */
    double time_s[ENGINE_CURVE_MAX];
} engine_curve;

/* One interconnect.  Without a measured curve a collective costs base +
 * steps * alpha + bytes on the wire / bandwidth (alpha-beta); with one, the
 * measured time at that size (linear between measured sizes), rescaled to the group
 * size: the latency part by the ring steps, the bandwidth part by the bytes
 * on the wire.  A point-to-point message costs base + alpha + bytes /
 * bandwidth. */
typedef struct engine_link {
    char name[ENGINE_NAME_MAX];
    char display[ENGINE_NAME_MAX];
    char source[ENGINE_SOURCE_MAX];
    double alpha_s;          /* latency per message (per ring step), s */
    double base_s;           /* fixed cost per collective (launch, sync), s */
    double bytes_per_s;      /* achievable bandwidth per direction, B/s */
    double eager_s;          /* extra fixed cost of a collective launched eagerly
                              * (outside a CUDA graph): host enqueue and launch */
    engine_link_kind kind;
    int mesh_links;          /* a fully connected mesh of this many links per GPU
                              * (xGMI: 7): a group of n GPUs drives n-1 of them;
                              * 0: a switched fabric (every GPU at full rate) */
    engine_curve curve[ENGINE_OP_COUNT];
    int socket_gpus;         /* PCIe hosts: GPUs behind one CPU socket; a ring over
                              * more of them crosses the socket-to-socket link;
                              * 0: no such limit (switched or meshed fabrics) */
    double cross_socket;     /* the bandwidth a ring keeps once it crosses that
                              * link, as a fraction of its in-socket rate (0..1];
                              * 0: 1 (no penalty) */
} engine_link;

/* A serving framework's costs and memory rule (presets/frameworks.json). */
typedef struct engine_framework {
    char name[ENGINE_NAME_MAX];
    char display[ENGINE_NAME_MAX];
    char source[ENGINE_SOURCE_MAX];
    int cuda_graphs;          /* 1: decode steps replay a captured graph */
    int overlap;              /* 1: the host prepares step n+1 while the GPU runs
                               * step n (a step costs the longer of the two);
                               * 0: host work adds to every step */
    int attn_fused;           /* 1: rotary and the KV-cache write run inside the
                               * attention kernel (TensorRT-LLM); 0: their own */
    double launch_s;          /* host cost of one kernel launch when eager */
    double prefill_launch_s;  /* host cost of one kernel a prefill (extend) step
                               * dispatches eagerly: the framework's Python and
                               * PyTorch dispatch per kernel where decode replays
                               * a graph and prefill does not (SGLang <= 0.5.9);
                               * 0: launch_s.  Decode steps never use it. */
    double graph_kernel_s;    /* cost per kernel inside a graph */
    int prefill_graphs;       /* 1: a prefill (extend) step of at most
                               * prefill_graph_tokens tokens replays piecewise
                               * CUDA graphs: its kernels cost graph_kernel_s
                               * but those outside the pieces (attention with
                               * the KV write, the TP all-reduces, the LM head
                               * and sampler), which keep the eager prefill
                               * cost (SGLang --enable-piecewise-cuda-graph,
                               * the default after sglang#16331) */
    int prefill_graph_tokens; /* largest captured prefill step in tokens;
                               * 0: max_num_tokens (none: unlimited) */
    int prefill_graph_mla_tokens; /* the same for MLA models; 0: as above */
    double step_s;            /* per engine step: scheduling, the sampler's host side,
                               * host sync (its GPU kernels: sampler_kernels) */
    double seq_step_s;        /* per running sequence per step (scheduler loops) */
    double request_s;         /* per request, inside TTFT: admission, tokenizer */
    int max_num_tokens;       /* tokens one step takes: prefill beyond it runs in
                               * chunks and the activation workspace is sized for
                               * it (vLLM max_num_batched_tokens, TensorRT-LLM
                               * max_num_tokens); 0: the whole batch at once */
    double custom_ar_max_bytes; /* all-reduces up to this size use the framework's
                                 * own kernel inside an NVLink domain; 0: never */
    double custom_ar_s;       /* that kernel's fixed cost */
    int tbo;                  /* 1: two-batch overlap of the EP all-to-all (the
                               * step split into two micro-batches, one's
                               * dispatch/combine under the other's compute) */
    int fuse_ar_norm;         /* 1: each TP all-reduce runs fused with the
                               * residual add + RMSNorm after it (one kernel) */
    engine_mem_rule mem_rule;
    double mem_fraction;      /* of the total (TOTAL) or of the free memory (FREE) */
    engine_mem_reserve reserve; /* a fraction by plan instead (SGLang) */
    engine_fw_tier tier[ENGINE_FW_TIERS]; /* serving defaults by GPU memory, ascending */
    char tier_exclude[ENGINE_NAME_MAX]; /* a preset-name substring sent to tier 0 */
    double runtime_bytes;     /* CUDA context, NCCL and library workspaces */
    /* Serving limits of the load simulation (sim.h). */
    int max_num_seqs;         /* running requests a replica batches (vLLM
                               * max_num_seqs, SGLang max_running_requests,
                               * TensorRT-LLM max_batch_size); 0: 256 */
    int req_pool_per_context; /* > 0: without an explicit max_num_seqs, a
                               * replica's request pool holds its KV tokens x
                               * this / the context limit, at least
                               * req_pool_min and at most max_num_seqs
                               * (SGLang's max_num_reqs: 512, 2048, 4096) */
    int req_pool_min;
    int chunked_prefill;      /* 1: its scheduler chunks prefills into the
                               * max_num_tokens budget beside the decodes;
                               * 0: prefill first (decodes pause) */
    int admit_lag;            /* 1: its scheduler forms step n + 1's batch when
                               * step n starts (SGLang's overlap scheduler):
                               * a request arriving during a step waits for
                               * the one after next (load) */
    /* The largest decode batch its CUDA graphs capture: min(graph_capture_max,
     * graph_capture_seqs x max_num_seqs x the tokens a sequence runs a step,
     * max_num_tokens) tokens; a larger decode step runs without graphs
     * (vLLM's max_cudagraph_capture_size; engine_decode_graphs).  0: no limit. */
    int graph_capture_max;
    double graph_capture_seqs;
    int kv_alloc;             /* how its KV cache is given out, as
                               * engine_sim_kv (load): 0 reserved whole at
                               * admission, 1 on demand with the newest
                               * request preempted by recompute (vLLM), 2 on
                               * demand behind SGLang's estimate with
                               * retraction */
    int dp_attn_split_chunk;  /* 1: under attention data-parallel (EP above TP)
                               * each rank's step takes the token budget over
                               * the ranks (SGLang divides chunked_prefill_size
                               * by dp_size); 0: each rank the whole budget */
    int prefill_alone;        /* with chunked_prefill: 1: a prefill step runs
                               * alone while the decodes wait (SGLang without
                               * --enable-mixed-chunk); 0: beside them */
    double moe_w4a16_fixed_s; /* its W4A16 (MXFP4 on Hopper) MoE's fixed cost per
                               * layer beyond the kernels eval.c counts; 0: none */
    /* The sampler after the LM head, run outside the captured graph: its
     * kernels each cost at least the GPU's kernel floor, and its passes
     * read or write the step's fp32 logits (rows x vocab x 4 bytes). */
    int sampler_kernels;      /* kernels of plain sampling; 0: one */
    double sampler_passes;    /* passes over the fp32 logits; 0: three */
    int top_p_kernels;        /* extra kernels of top-p / top-k truncation
                               * (ENGINE_SAMPLING_TOP_P and FULL); 0: none counted */
    double top_p_passes;      /* their passes over the fp32 logits */
    int penalty_kernels;      /* extra kernels of the penalties (ENGINE_SAMPLING_FULL) */
    double penalty_passes;    /* their passes over the fp32 logits */
    engine_host_loop host_loop[ENGINE_FWV_COUNT]; /* by engine generation
                               * ([ENGINE_FWV_DEFAULT] unused: step_s, seq_step_s) */
    int deepgemm;             /* 1: block-scaled FP8 GEMMs run on DeepGEMM, at
                               * the per-tensor FP8 rate (SGLang on Hopper and
                               * Blackwell); 0: the GPU's block-scaled constants
                               * (TensorRT-LLM's kernels, eta_compute_fp8_block) */
    int decode_attn_xqa;      /* 1: decode attention picks TensorRT-LLM's XQA
                               * kernel (tensor cores) for the query-head group
                               * sizes it has (engine_xqa_group_ok, by
                               * engine_scenario.xqa_precompiled) and its
                               * masked MHA otherwise: one thread block per
                               * query head, dot products in FP32 on CUDA
                               * cores (engine_gpu.fp32_flops); 0: one kernel
                               * for every shape (tensor-core rate) */
    int moe_expand;           /* 1: its fused MoE copies each routed (token, expert)
                               * pair's row before the grouped GEMMs and reduces
                               * the pairs back over the op's rows (TensorRT-LLM's
                               * CUTLASS MoE: eval.c moe_serial); 0: the per-token
                               * permute / unpermute estimate */
    int parallel_ar_once;     /* 1: its model code reduces a parallel_ar_once
                               * model's attention and MLP with one TP
                               * all-reduce a layer (vLLM falcon.py; TensorRT-
                               * LLM falcon/model.py from 0.6.1) unless the
                               * scenario's parallel_ar_split; 0: two */
    int local_kv_full;        /* 1: its KV cache gives a local-attention layer
                               * (sliding window or chunk) blocks for the whole
                               * sequence, as for a global one: one attention
                               * window for every layer unless the run lists
                               * them (TensorRT-LLM's KVCacheManager:
                               * max_attention_window_vec = [max_seq_len]);
                               * 0: a local layer keeps at most its window */
} engine_framework;

/* How many gpu_tiers a profile has: its bounded ones, then an unbounded
 * last one where it sets any value. */
int engine_framework_tiers(const engine_framework *fw);

/* A calibration's measured GEMM tables (schema 2): at most this many
 * (n, k, dtype class) shapes, each timed at up to this many token counts
 * (an MoE model with dense layers has 8 shapes a TP degree: 4 TP degrees
 * in fp16, fp8 and bf16 take 88). */
#define ENGINE_CALIB_SHAPES 128
#define ENGINE_CALIB_TOKENS 16

/* One measured GEMM shape: C[m x n] = A[m x k] W[k x n] took t_s[i]
 * seconds at m = m[i] tokens (m increasing, count of them).  dclass 0:
 * 16-bit math (fp16/bf16/fp32 on a CPU), 1: 8-bit (fp8/int8).  grouped 1:
 * the MoE experts' grouped GEMM (one call over several experts of this
 * shape, m[i] tokens each): t_s[i] is the call's time per expert.  bf16
 * 1: timed in bf16 (dclass 0 only): a bf16 scenario reads it first, then
 * the fp16 table of the shape (bf16 0: fp16 on a GPU, fp32 on a CPU), then
 * the fit; an fp16 scenario reads only bf16 0 tables. */
typedef struct engine_calib_gemm {
    int n, k;
    int dclass;
    int count;
    int grouped;
    double m[ENGINE_CALIB_TOKENS];
    double t_s[ENGINE_CALIB_TOKENS];
    int bf16;
} engine_calib_gemm;

/* Per kernel class, where the engine's constants came from
 * (engine_calib_source). */
typedef enum engine_calib_kind {
    ENGINE_CALIB_K_GEMM = 0,  /* the model's GEMMs */
    ENGINE_CALIB_K_MEMORY,    /* weight streaming bandwidth (GEMV) */
    ENGINE_CALIB_K_SMALL,     /* element-wise kernels' floor */
    ENGINE_CALIB_K_LAUNCH,    /* host launch cost */
    ENGINE_CALIB_K_ATTENTION,
    ENGINE_CALIB_K_COUNT
} engine_calib_kind;

/* The compute-model constants in use.  measured == 0: datasheet defaults
 * (the GPU preset's eta_* and overhead are used and this struct's numbers
 * are ignored).  A plain value (no pointers): it may be copied. */
/* OpenBLAS 0.3.21 interface/gemm.c: a row-major, untransposed, alpha 1,
 * beta 0 sgemm on an AVX-512 core runs its direct kernel (no packing, no
 * register tiles) when m n k < 28 x 512 x 512
 * (kernel/x86_64/sgemm_direct_performant.c); larger ones take the level-3
 * path, whose micro-kernel pads the tokens (engine_calib.unroll_n). */
#define ENGINE_SGEMM_DIRECT_MNK (28.0 * 512 * 512)

typedef struct engine_calib {
    int measured;
    char device[ENGINE_NAME_MAX];  /* device name as reported by the driver */
    char date[32];                 /* ISO 8601 date of the measurement */
    char backend[16];              /* "cuda" or "cpu" */
    double eta_compute;
    double eta_memory;
    double layer_overhead_s;       /* fitted over the 4 GEMMs of a layer: the engine
                                    * takes a quarter of it as the GEMM fixed cost */
    /* Schema 2: the per-kernel fit and the measured GEMM tables.  per_kernel
     * 0 (an older file): only the three numbers above are used. */
    int per_kernel;
    int schema;                    /* the file's schema (1 or 2) */
    char model[ENGINE_NAME_MAX];   /* the model whose shapes were measured */
    char library[64];              /* "OpenBLAS 0.3.21", "cuBLAS 13.0" */
    char source[256];              /* the file it was read from ("" unknown) */
    double peak_flops;             /* the roof gemm_efficiency is relative to */
    double gemm_efficiency;        /* per-GEMM max(F/(peak*eff*eta_shape), B/bw) + t0 */
    double bw_bytes_per_s;         /* achieved weight streaming, B/s */
    double t0_s;                   /* fixed cost per GEMM */
    double small_kernel_s;         /* a tiny kernel's GPU time (the floor) */
    double launch_s;               /* a kernel's host launch cost, eager */
    double mape;                   /* of the combined fit, a fraction */
    int sm;                        /* multiprocessors of the measured device
                                    * (the shape model's; 0: none, a CPU) */
    double fp8_flops;              /* the measured fp8 GEMM rate (peak x its own
                                    * efficiency); 0: not measured */
    double pack_bytes_per_s;       /* CPU (level-3 BLAS): the weights are packed
                                    * into the kernel's layout at this rate before
                                    * the kernel runs, one after the other:
                                    * compute + weight bytes / this; 0: none (GPU) */
    double l2_bytes;               /* CPU: one core's L2; a GEMM whose weights fit in
                                    * half of it streams them at bw_bytes_per_s
                                    * instead of packing them (0: always packed) */
    double unroll_n;               /* CPU: the SGEMM micro-kernel's width on the token
                                    * side; a GEMM of m n k >= ENGINE_SGEMM_DIRECT_MNK
                                    * computes ceil(m / unroll_n) * unroll_n tokens
                                    * (0: none; calib_per_kernel.unroll_n) */
    int n_gemm;
    engine_calib_gemm gemm[ENGINE_CALIB_SHAPES];
    /* The NCCL collectives measured on the calibration's machine, by
     * engine_collective (n 0: not measured; never the CPU's loopback):
     * engine_calib_link puts them on the link they were measured over. */
    engine_curve comm[ENGINE_OP_COUNT];
} engine_calib;

/* The measured time of a GEMM (m tokens, k -> n, dtype class dclass) when
 * c's tables cover it: the shape (n, k, dclass) was measured and m lies
 * within its token counts; interpolated log-log between the two nearest.
 * 1 with *t_s set, 0 when not covered (or c NULL / not per-kernel).  Pure,
 * no allocation. */
int engine_calib_gemm_lookup(const engine_calib *c, int dclass, double m, double n, double k,
                             double *t_s);
/* The same for `groups` GEMMs of one shape in one grouped call (an MoE
 * layer's experts, m tokens each): c's grouped table of (n, k, dclass),
 * per expert at m (log-log as above), times groups.  1 with *t_s, 0 when
 * not covered.  Pure. */
int engine_calib_grouped_lookup(const engine_calib *c, int dclass, double m, double n, double k,
                                double groups, double *t_s);
/* Where kernel class cls's constants come from for model m (may be NULL)
 * under calibration c (may be NULL): "measured" (a table of m's shapes),
 * "fitted" (the calibration's fitted constants), "default" (the GPU
 * preset's datasheet constants).  A static string. */
const char *engine_calib_source(const engine_calib *c, const engine_model *m, engine_calib_kind cls);
const char *engine_calib_kind_name(engine_calib_kind cls);
/* *out = *in with each collective c measured (c->comm[op].n > 0) as its
 * curve: the engine then times that collective from the measured table
 * (engine_comm_time: linear between sizes, rescaled to the group size).
 * Returns how many curves were replaced (0: *out is *in).  Pure. */
int engine_calib_link(const engine_calib *c, const engine_link *in, engine_link *out);

/* Error bands from the validation cases (engine_bands_build).  A band key
 * is (phase, MoE, dtype class, regime); a key with too few cases falls back
 * to broader ones, down to all cases. */
typedef enum engine_phase {
    ENGINE_PHASE_PREFILL = 0, /* TTFT */
    ENGINE_PHASE_DECODE,      /* ITL, decode tokens/s */
    ENGINE_PHASE_REQUEST,     /* end-to-end latency and throughput */
    ENGINE_PHASE_COUNT
} engine_phase;

typedef enum engine_dclass {
    ENGINE_DCLASS_16 = 0, /* fp16, bf16 */
    ENGINE_DCLASS_FP8,    /* fp8, int8 */
    ENGINE_DCLASS_4,      /* int4, fp4 */
    ENGINE_DCLASS_COUNT
} engine_dclass;

#define ENGINE_BAND_MIN_CASES 8
#define ENGINE_BAND_KEYS (ENGINE_PHASE_COUNT * 2 * ENGINE_DCLASS_COUNT * 2)

/* One validation ratio: measured / predicted as times (for a rate,
 * predicted / measured), with the case's key. */
typedef struct engine_band_case {
    engine_phase phase;
    int moe;
    engine_dclass dclass;
    int compute_bound; /* the step's GEMM compute time exceeds its memory time */
    double q;
} engine_band_case;

typedef struct engine_band_stat {
    int n;           /* cases behind p10/p90 (after fallback) */
    int level;       /* 0 exact key ... 4 all cases */
    double p10, p90; /* of q */
} engine_band_stat;

typedef struct engine_band_table {
    int n_cases;
    engine_band_stat key[ENGINE_BAND_KEYS];
} engine_band_table;

/* Captured CUDA graph batch sizes a scenario may list (engine_scenario):
 * room for vLLM V1's default capture list up to 512 (1, 2, 4, 8 to 248 by 8,
 * 256 to 512 by 16: 51 sizes; vllm/config/vllm.py _set_cudagraph_sizes)
 * and TensorRT-LLM's padded lists (about 20). */
#define ENGINE_GRAPH_SIZES_MAX 64

typedef struct engine_scenario {
    const engine_model *model;
    const engine_gpu *gpu;
    const engine_link *intra;    /* link inside a node */
    const engine_link *inter;    /* link between nodes; NULL = same as intra */
    const engine_calib *calib;   /* NULL or !measured: GPU preset defaults */
    const engine_framework *framework; /* NULL: the built-in generic profile */
    const engine_band_table *bands; /* NULL: results carry no error bands */
    int gpus;                    /* N */
    int gpus_per_node;           /* K: GPUs on the intra link (an NVLink domain
                                  * or a PCIe node); 0 = all GPUs on it */
    double vram_bytes;           /* per GPU; 0 = the GPU's capacity */
    double usable_fraction;      /* memory fraction; 0 = the framework's */
    double runtime_overhead_bytes; /* CUDA context, workspaces; < 0 = the framework's */
    int max_model_len;           /* context limit in tokens; 0 = the model's */
    int quant_group;             /* weights per int4/fp4 scale; 0 = the model's or
                                  * the dtype's default */
    engine_fp8_scaling fp8_scaling; /* FP8 weights' scales: the model's (AUTO),
                                  * per-tensor or block-scaled */
    engine_graphs cuda_graphs;   /* decode under CUDA graphs: the framework's,
                                  * or forced on / off */
    engine_graphs tbo;           /* two-batch overlap: the framework's, on, off */
    engine_graphs fuse_ar_norm;  /* fused all-reduce + norm: the framework's, on, off */
    engine_graphs prefill_graphs; /* prefill steps under piecewise CUDA graphs:
                                  * the framework's (engine_framework.
                                  * prefill_graphs), on, off */
    engine_graphs local_kv_full; /* local layers' KV for the whole sequence: the
                                  * framework's (engine_framework.local_kv_full),
                                  * on (full), off (the window only) */
    engine_a2a a2a;              /* EP dispatch/combine kernels (default NCCL) */
    engine_w4a16 w4a16_kernel;   /* the W4A16 kernel (default Triton) */
    engine_sampling sampling;    /* the sampler's path (default plain) */
    int redundant_experts;       /* extra physical expert slots of an EP plan
                                  * (EPLB replicas: 256 + 32 = 288); 0: none */
    double moe_imbalance;        /* busiest EP rank's routed tokens over the mean,
                                  * >= 1; 0: the default rule
                                  * (engine_moe_imbalance_default) */
    int batch;                   /* B concurrent sequences per replica */
    int batch_max;               /* 1: each plan runs at its own max_concurrency
                                  * (the most sequences its KV cache holds; at
                                  * least 1); batch is then ignored */
    int total_concurrency;       /* > 0: C sequences in all over the dp replicas
                                  * (batch and batch_max ignored): ceil(C/dp) on
                                  * the first C % dp replicas, floor(C/dp) on the
                                  * rest; the most loaded one sets the latency */
    int max_num_seqs;            /* > 0: running sequences a replica batches,
                                  * overriding the framework's (vLLM
                                  * --max-num-seqs); 0: the framework's
                                  * (engine_max_num_seqs).  Caps the batch that
                                  * comes from capacity (batch_max) or from
                                  * total_concurrency, never a given batch */
    int prompt;                  /* S prompt tokens */
    int gen;                     /* G generated tokens (>= 1) */
    engine_dtype weight_dtype;
    int weight_dtype_set;        /* 1: weight_dtype as given, fp16 included (the
                                  * user chose it); 0: fp16 stands for the
                                  * checkpoint's own format where the model has
                                  * one (engine_scenario_weight_dtype) */
    engine_dtype kv_dtype;
    engine_dtype act_dtype;      /* activations / communication */
    int microbatches;            /* m for prefill; 0 = min(pp, batch): one or more
                                  * whole sequences each; above the batch, chunks
                                  * of sequences (token-split), each attending to
                                  * the chunks before it: with pp 1 too (one after
                                  * another on the stage: llama.cpp's ubatches),
                                  * where m up to the batch changes nothing */
    int decode_microbatches;     /* decode: groups of the batch in flight in the
                                  * pipeline, 1..batch; 0 = min(pp, batch), each
                                  * stage busy (vLLM's virtual engines, TensorRT-
                                  * LLM's and SGLang's pipelined micro-batches);
                                  * 1: the whole batch crosses the stages in turn
                                  * (FasterTransformer when pp does not divide the
                                  * batch: README, The model, pipeline) */
    engine_schedule schedule;
    int interleave;              /* v chunks for the interleaved schedule */
    engine_objective objective;
    double jitter_sigma;         /* log-normal sigma of per-GPU compute */
    double straggler_prob;       /* chance a GPU is a straggler in a request */
    double straggler_slowdown;   /* its mean compute multiplier (e.g. 1.5);
                                  * the severity is 1 + Exp(mean - 1) */
    int mc_samples;              /* Monte Carlo samples (e.g. 1000) */
    uint64_t seed;
    /* Speculative decoding; spec_method NONE leaves every number as without. */
    engine_spec_method spec_method;
    int spec_k;                  /* drafted tokens per target step, 0..ENGINE_MAX_SPEC_K
                                  * (engine_spec_default gives the method's) */
    double spec_accept;          /* per-token acceptance rate P, in [0, 1] */
    const engine_model *spec_draft; /* DRAFT: the draft model (same vocabulary) */
    engine_graphs host_overlap;  /* host work per step hidden under the GPU step
                                  * (vLLM V1 async scheduling): the framework's
                                  * overlap, on, off */
    engine_fw_version framework_version; /* the framework's engine generation:
                                  * its host loop cost (DEFAULT: the profile's
                                  * step_s, seq_step_s) */
    /* CUDA graph padding (TensorRT-LLM cuda_graph_config enable_padding with
     * its batch_sizes): a decode step of b sequences per micro-batch replays
     * the graph of the smallest captured size >= b, the rest dummy
     * generation requests of one cached token, when that size is at most
     * the replica's max_num_seqs (engine_graph_padded_seqs).
     * n_graph_sizes 0: no padding (a graph for every batch, today's rule). */
    int graph_sizes[ENGINE_GRAPH_SIZES_MAX]; /* ascending, each >= 1 */
    int n_graph_sizes;
    int parallel_ar_split;       /* 1: a framework release whose model code
                                  * still reduces a parallel_ar_once model's
                                  * attention and MLP separately (TensorRT-LLM
                                  * 0.5: two all-reduces a layer); 0: the
                                  * framework's parallel_ar_once */
    int xqa_precompiled;         /* 1: a TensorRT-LLM of the precompiled XQA
                                  * kernels (before its JIT XQA): XQA takes 1,
                                  * 8 or 16 query heads per KV head; 0 (today's):
                                  * the JIT rule, up to 32 (engine_xqa_group_ok) */
    int xqa_legacy;              /* 1: a TensorRT-LLM release before the decode
                                  * path of aiconfigurator's tables (before 0.13:
                                  * multi-block XQA off by default, Hopper's FP8
                                  * QGMMA XQA only from 0.11): GQA/MHA decode takes
                                  * the per-(sequence, head) form even where the
                                  * GPU has decode_attn_cta_s; 0: the GPU's form */
    int gemm_acc16;              /* 1: the run's 16-bit-math block GEMMs (FP16
                                  * weights, or weight-only int4/int8 that
                                  * dequantize to FP16) accumulate in FP16
                                  * (TinyChat's W4A16 GEMM: mma ...f16.f16.f16.f16):
                                  * they run at engine_gpu.fp16_acc16_flops
                                  * where the GPU has one; 0: FP32 accumulate */
    int attn_scores;             /* 1: prefill attention without FlashAttention
                                  * (llama.cpp with -fa off, llama-bench's
                                  * default before ggml-org/llama.cpp#23714):
                                  * every query of a chunk scores all the keys
                                  * cached so far (the causal mask is applied in
                                  * the softmax, not skipped), and each score
                                  * crosses memory as FP32 four times: the KQ
                                  * product writes it, the masked softmax reads
                                  * and writes it, the KQV product reads it
                                  * (ENGINE_ATTN_SCORE_BYTES a score: the
                                  * products' at the GEMM streaming rate, the
                                  * softmax's at the element-wise rate);
                                  * ENGINE_ATTN_SCORES_F32_F16 (2): the same
                                  * rectangle with the softmax writing FP16
                                  * (FasterTransformer's GPT context attention:
                                  * ENGINE_ATTN_SCORE_BYTES_F16OUT);
                                  * 0: FlashAttention */
} engine_scenario;

typedef struct engine_plan {
    int tp, pp, dp, ep;
} engine_plan;

typedef struct engine_memory {
    double weights_bytes;     /* per GPU (largest pipeline stage) */
    double kv_bytes;          /* per GPU at full context S+G for the batch */
    double kv_local_bytes;    /* the part of kv_bytes held by local-attention
                               * layers (at most their window each); 0: none */
    double activation_bytes;  /* per GPU prefill workspace */
    double overhead_bytes;    /* runtime overhead */
    double per_gpu_bytes;     /* sum of the above */
    double usable_fraction;   /* the memory fraction of the plan (the scenario's,
                               * else the framework's rule) */
    double capacity_bytes;    /* what the framework's rule lets the above use:
                               * TOTAL: vram * fraction; FREE: the non-KV terms
                               * plus fraction * (vram - non-KV terms) */
    double kv_capacity_bytes; /* KV cache the rule leaves room for */
    int fits;
    double spec_weights_bytes; /* part of weights_bytes: the draft model, EAGLE head or
                                * MTP module (speculative decoding); 0: none */
    double spec_kv_bytes;      /* part of kv_bytes: the draft's own KV cache */
} engine_memory;

/* Where the time of one step (prefill or decode) goes on the slowest
 * pipeline stage's GPU, seconds: its own work for all micro-batches, plus
 * bubble_s, the rest of the step, when it waits for the other stages (their
 * work, point-to-point sends included, is in the bubble).  The parts add up
 * to the step. */
typedef struct engine_breakdown {
    double gemm_s;   /* GEMMs: projections, MLP, experts, router, LM head */
    double attn_s;   /* attention kernels */
    double small_s;  /* norms, rotary, activation, residual, routing, KV write */
    double launch_s; /* host launch cost not hidden behind the GPU (eager) */
    double step_s;   /* framework per-step and per-request cost */
    double tp_s;     /* TP all-reduces */
    double ep_s;     /* EP all-to-all dispatch + combine */
    double pp_s;     /* pipeline point-to-point */
    double bubble_s; /* pipeline idle time */
    int kernels;     /* kernels launched per step on one GPU */
    /* What the overlap techniques took off this step (already out of the
     * parts above): the EP all-to-all hidden by two-batch overlap (negative:
     * the split cost more than it hid), and the norm kernels fused into
     * the TP all-reduces. */
    double tbo_hidden_s;
    double ar_norm_saved_s;
} engine_breakdown;

/* An error band [lo, hi] around a value, lo <= value <= hi. */
typedef struct engine_band {
    double lo, hi;
    int n;     /* validation cases behind it; 0 = no band */
    int level; /* fallback level (0 = the exact category) */
} engine_band;

/* What speculation did to a decode step (engine_result.spec).  With it,
 * itl_s = (draft_s + verify_s) / tokens_per_step and the decode breakdown
 * is that of one target step divided by tokens_per_step. */
typedef struct engine_spec_result {
    int on;                  /* 1: the scenario speculates */
    engine_spec_method method;
    int k;                   /* drafted tokens per target step */
    double accept;           /* P */
    double tokens_per_step;  /* E = (1 - P^(k+1)) / (1 - P) */
    double draft_s;          /* k draft steps of the batch, per target step */
    double verify_s;         /* the target's step over k + 1 tokens a sequence,
                              * framework host cost included */
    double draft_prefill_s;  /* part of ttft_s: the draft model's own prefill */
    int draft_tp;            /* GPUs one draft model is sharded over (DRAFT) */
} engine_spec_result;

typedef struct engine_result {
    engine_plan plan;
    int valid;                       /* 0: plan impossible, see reason */
    int fits;                        /* 1: memory fits */
    char reason[ENGINE_REASON_MAX];  /* why invalid or not fitting; "" if ok */
    engine_memory mem;
    /* Times, seconds. */
    double ttft_s;             /* prefill of the batch */
    double itl_s;              /* one decode step at mid-generation */
    double e2e_s;              /* ttft + (gen - 1) * itl: the first token comes
                                * from the prefill */
    double tokens_per_s;       /* generated tokens/s, all replicas */
    double prefill_compute_s;  /* parts of ttft, as engine_breakdown: the
                                * slowest stage's compute and communication,
                                * and the bubble it waits through */
    double prefill_comm_s;
    double prefill_bubble_s;
    double decode_compute_s;   /* parts of itl */
    double decode_comm_s;
    double decode_bubble_s;
    double compute_s;          /* whole request, per GPU critical path */
    double comm_s;
    engine_breakdown prefill, decode; /* where TTFT and ITL go */
    int compute_bound_prefill; /* GEMM compute time above memory time */
    int compute_bound_decode;
    unsigned warnings;         /* ENGINE_WARN_* */
    engine_band ttft_band, itl_band, e2e_band, tps_band;
    /* Derived. */
    double speedup;            /* vs one ideal GPU (no comm, no capacity limit) */
    double efficiency;         /* speedup / N, in (0, 1] */
    double compute_comm_ratio; /* compute_s / comm_s; 0 when comm_s == 0 */
    char regime;               /* 'C' compute-bound, 'M' comm-bound, '-' none */
    double bubble_fraction;    /* prefill pipeline bubble */
    double cost_per_mtok_usd;  /* 0 when the GPU has no price */
    double p50_s, p99_s;       /* end-to-end request latency tails */
    /* Load and capacity (paged KV cache, ENGINE_KV_BLOCK tokens a block). */
    int batch;                 /* sequences per replica evaluated at (the most
                                * loaded replica under total_concurrency) */
    long long concurrency;     /* sequences in all replicas */
    double kv_capacity_tokens; /* KV tokens one GPU holds (whole blocks) beside
                                * the weights, runtime and the workspace of
                                * max_concurrency sequences, by the framework's
                                * memory rule; a replica holds as many */
    int max_concurrency;       /* sequences of prompt+gen tokens, ceil(len/16)
                                * blocks each, that fit per replica; 0: none */
    int max_num_seqs;          /* the cap on a replica's running sequences that
                                * applied (engine_max_num_seqs) */
    engine_batch_bound batch_bound; /* what set batch */
    long long queued;          /* total_concurrency beyond dp x max_num_seqs:
                                * sequences waiting, not running (0: none) */
    engine_spec_result spec;   /* speculative decoding; on == 0 without */
    /* MoE as deployed (0 for a dense model): */
    int expert_slots;          /* physical expert slots (experts + redundant) */
    double moe_imbalance;      /* routing imbalance the busiest group ran at */
} engine_result;

/* --- defaults and validation --------------------------------------- */

/* Limits of a usable scenario: engine_scenario_check() enforces them and
 * the command line's option table takes its ranges from them, so a flag
 * and the check never disagree. */
#define ENGINE_MAX_GPUS 1048576          /* gpus, tp, pp, dp, ep, per node */
#define ENGINE_MAX_BATCH 16777216        /* sequences per replica */
#define ENGINE_MAX_TOKENS 100000000      /* prompt, gen */
#define ENGINE_MAX_CONTEXT 1000000000    /* max_model_len */
#define ENGINE_MAX_MICROBATCHES 1048576
#define ENGINE_MAX_INTERLEAVE 64         /* chunks per pipeline stage */
#define ENGINE_MAX_QUANT_GROUP 1048576   /* weights per int4/fp4 scale */
#define ENGINE_MAX_SAMPLES 1000000       /* Monte Carlo samples */
#define ENGINE_MAX_JITTER 3.0            /* log-normal sigma */
#define ENGINE_MAX_SLOWDOWN 100.0        /* a straggler's multiplier */
#define ENGINE_KV_BLOCK 16              /* tokens per KV block (vLLM's default) */
#define ENGINE_MIN_VRAM_GB 0.001         /* --vram-gb, GB = 1e9 bytes */
#define ENGINE_MAX_VRAM_GB 1e6

/* Fill a scenario with the documented defaults (batch 1, prompt 1024,
 * gen 256, fp16 weights/KV/activations, GPipe, jitter 0.12, 1000 samples,
 * the framework's memory fraction and runtime overhead, seed 42).
 * Pointers are NULL. */
void engine_scenario_defaults(engine_scenario *s);

/* 0 when the scenario is usable; else -1 with err naming the field. */
int engine_scenario_check(const engine_scenario *s, engine_error *err);

const char *engine_dtype_name(engine_dtype d);
int engine_dtype_parse(const char *s, engine_dtype *out); /* 0 ok, -1 bad */
double engine_dtype_bytes(engine_dtype d);                 /* fp16 2, int4 0.5 */
const char *engine_schedule_name(engine_schedule s);
int engine_schedule_parse(const char *s, engine_schedule *out);
const char *engine_objective_name(engine_objective o);
int engine_objective_parse(const char *s, engine_objective *out);
const char *engine_collective_name(engine_collective c);
int engine_collective_parse(const char *s, engine_collective *out);
const char *engine_graphs_name(engine_graphs g); /* "default", "on", "off" */
const char *engine_fp8_scaling_name(engine_fp8_scaling f); /* "auto", "tensor", "block" */
const char *engine_spec_method_name(engine_spec_method m); /* "none", "draft", ... */
int engine_spec_method_parse(const char *s, engine_spec_method *out);
/* A method's documented default speculation length k and acceptance rate
 * P (README, "The model"; sources in engine_spec_default_source); NONE:
 * 0 and 0. */
void engine_spec_default(engine_spec_method m, int *k, double *accept);
const char *engine_spec_default_source(engine_spec_method m);
/* Expected tokens per target step with k drafts accepted i.i.d. with
 * probability P: (1 - P^(k+1)) / (1 - P), k + 1 at P = 1, 1 at k = 0. */
double engine_spec_tokens_per_step(int k, double accept);
/* The acceptance rate P whose expected tokens per step at k drafts is
 * `length` (a measured acceptance length), by bisection; length is
 * clamped to [1, k + 1]. */
double engine_spec_accept_for_length(int k, double length);
const char *engine_a2a_name(engine_a2a a);       /* "nccl", "deepep", "deepep-ll" */
const char *engine_w4a16_name(engine_w4a16 k);   /* "triton", "marlin" */
int engine_w4a16_parse(const char *s, engine_w4a16 *out); /* 0 ok, -1 bad */
int engine_a2a_parse(const char *s, engine_a2a *out); /* 0 ok, -1 bad */
const char *engine_sampling_name(engine_sampling v);  /* "plain", "top-p", "full" */
int engine_sampling_parse(const char *s, engine_sampling *out); /* 0 ok, -1 bad */

/* --- small shared utilities (engine/util.c; pure) -------------------- */

/* Levenshtein distance of two strings, case-insensitive (ASCII); 1000
 * when either is longer than 127 bytes. */
int engine_edit_distance(const char *a, const char *b);
/* -1, 0 or 1 as a < b, a == b, a > b (NaN compares equal to all). */
int engine_cmp(double a, double b);
/* qsort comparator of doubles, ascending: engine_cmp on the pointees. */
int engine_cmp_double(const void *a, const void *b);
/* The k-th smallest of v[0..n) (0-based, 0 <= k < n; no NaN), in O(n) on
 * average: v is reordered so that v[k] holds it, every element before it is
 * <= it and every one after >= it (quickselect, median-of-three pivots);
 * the same value v[k] would hold after sorting. */
double engine_select(double *v, int n, int k);
/* The deterministic last tie-break between plans: smaller tp, then pp,
 * then ep first (< 0 when a comes first). */
int engine_plan_order(engine_plan a, engine_plan b);
/* The shardscope configuration directory: "<xdg>/shardscope" when xdg is
 * an absolute path (the XDG spec ignores relative ones), else
 * "<home>/.config/shardscope" when home is non-empty.  Callers pass
 * getenv("XDG_CONFIG_HOME") and getenv("HOME") (either may be NULL).
 * Returns 0 with buf filled, or -1 with buf "" (neither usable, or the
 * path does not fit in len). */
int engine_config_dir(const char *xdg, const char *home, char *buf, size_t len);
/* Format err->msg (printf-style) on one line: control characters (names
 * and values from files and argv) become '?'.  err may be NULL (nothing is
 * written).  Returns -1, so a loader can `return engine_errorf(err, ...)`.
 * The one error formatter of presets, calib and the front ends. */
int engine_errorf(engine_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* How many JSON arrays and objects are open at text[off] (brackets inside
 * strings skipped); off is at most the text's length.  The JSON readers
 * (presets, calibration files) compare it with the parser's nesting limit
 * to say "nested deeper than N levels" instead of "malformed". */
size_t engine_json_depth_at(const char *text, size_t off);

/* --- model arithmetic ---------------------------------------------- */

double engine_model_params(const engine_model *m);        /* total */
double engine_model_active_params(const engine_model *m); /* per token */
/* KV cache bytes per token for the whole model (all layers, unsharded). */
double engine_kv_bytes_per_token(const engine_model *m, engine_dtype kv);
/* KV-cache bytes of one ctx-token sequence over all layers (one GPU, no TP):
 * a local-attention layer keeps at most its window. */
double engine_kv_bytes(const engine_model *m, engine_dtype kv, double ctx);
/* Weight bytes of the whole model at a dtype. */
double engine_weight_bytes(const engine_model *m, engine_dtype w);
/* The weight bytes one decode step of one sequence reads: all of them for a
 * dense model; a MoE model's active ones (attention, dense and shared MLPs,
 * router, embedding and head, and top_k experts a MoE layer): DeepSeek-R1
 * reads 37.6 B of its 671 B parameters a token. */
double engine_decode_floor_bytes(const engine_model *m, engine_dtype w);
/* Seed 004's decode floor: the bytes one sequence's step reads
 * (engine_decode_floor_bytes) / peak HBM bandwidth, seconds. */
double engine_decode_floor_s(const engine_model *m, engine_dtype w,
                             const engine_gpu *g, int tp);
/* Bytes per weight element, quantization scales included: int4 carries an
 * fp16 scale and a 4-bit zero point per group of `group` weights (0: 128,
 * as GPTQ and AWQ checkpoints), fp4 (NVFP4) an FP8 scale per 16.  Other
 * dtypes: engine_dtype_bytes (per-channel or per-tensor scales are noise). */
double engine_weight_elem_bytes(engine_dtype d, int group);
/* The weight dtype and group a scenario runs: the checkpoint's own format
 * when the model has one and the scenario keeps fp16 without choosing it
 * (weight_dtype_set 0), else the scenario's. */
engine_dtype engine_scenario_weight_dtype(const engine_scenario *s);
/* Which measured GEMM tables scenario s's model GEMMs read (its weights'
 * math): "bf16" (bf16 math, bf16 tables only), "bf16+fp16" (bf16 tables
 * where they cover the shape and token count, the fp16 ones elsewhere),
 * "fp16", "fp32" (a CPU's; "bf16+fp32" as above), "fp8"; NULL when s's GEMMs are not "measured"
 * (engine_calib_source) or no table has their math.  A static string. */
const char *engine_calib_gemm_tables(const engine_scenario *s);
/* 1 when the scenario's GEMMs run block-scaled FP8: FP8 weights and either
 * fp8_scaling BLOCK or AUTO with a block-scaled checkpoint (model
 * weight_block > 0); else 0 (per-tensor FP8, or other weights). */
int engine_scenario_fp8_block(const engine_scenario *s);
int engine_scenario_quant_group(const engine_scenario *s);
/* The context limit in tokens: max_model_len, else the model's context
 * (which a Hugging Face config already scales by its rope_scaling factor). */
int engine_context_limit(const engine_scenario *s);
/* The memory fraction a scenario runs with: its own, else its framework's
 * (the generic one's 0.9 without a framework). */
/* The memory of one GPU: the scenario's --vram-gb when set, else the
 * GPU's; 0 without a GPU. */
double engine_scenario_vram(const engine_scenario *s);
double engine_scenario_usable_fraction(const engine_scenario *s);
/* The memory fraction a plan runs at: the scenario's when set, else its
 * framework's rule for that plan (SGLang's reserve depends on the plan's
 * TP x PP, attention data-parallel, the GPU's memory and its limits);
 * engine_scenario_usable_fraction is the rule at one GPU. */
double engine_plan_usable_fraction(const engine_scenario *s, engine_plan p);
/* 1 when decode steps replay a CUDA graph: the scenario's choice, else its
 * framework's (the generic one's without a framework). */
int engine_scenario_cuda_graphs(const engine_scenario *s);
/* 1 when a decode step of `seqs` sequences (a micro-batch) running t tokens
 * each, of plan p, replays a CUDA graph: the scenario's CUDA graphs are on
 * and seqs x t (per attention rank: / (ep / tp) when ep > tp) is within the
 * framework's largest captured size (graph_capture_max, _small_tp). */
int engine_decode_graphs(const engine_scenario *s, engine_plan p, double seqs, double t);
/* The sequences one decode micro-batch of `seqs` (one of mb >= 1 the step
 * is split into: pipeline stages) runs as under s's CUDA graph padding: the
 * smallest of s->graph_sizes >= seqs when decode steps replay graphs, the
 * scenario does not speculate and that size is at most a micro-batch's
 * share of engine_max_num_seqs(s) (TensorRT-LLM's _get_padded_batch: no
 * padding past max_batch_size, which holds per scheduled micro-batch; none
 * above the largest graph); else seqs itself. */
double engine_graph_padded_seqs(const engine_scenario *s, double seqs, double mb);
/* 1 when the host's work per step overlaps the GPU's (a step costs the
 * longer of the two): the scenario's host_overlap, else its framework's
 * overlap (the generic one's without a framework). */
int engine_scenario_host_overlap(const engine_scenario *s);

/* 1 when the scenario's scheduler forms step n + 1's batch when step n
 * starts, so a request arriving during a step waits for the one after next
 * (the load simulation's admit_lag): the scenario's host_overlap when set,
 * else the --framework-version generation's overlap when the profile
 * states that generation, else the framework's admit_lag. */
int engine_scenario_admit_lag(const engine_scenario *s);

/* The token budget a step of the load simulation takes by default: the
 * framework's serving default for the scenario's GPU and engine generation
 * (its tier's max_num_tokens), else its max_num_tokens, else 8192. */
int engine_scenario_max_num_tokens(const engine_scenario *s);
/* The host work per engine step of the scenario's framework (the generic
 * one's without one) at its framework_version: that generation's host_loop
 * entry where the profile has one, else the profile's step_s and seq_step_s.
 * Both outputs are required; never fails. */
void engine_scenario_host_loop(const engine_scenario *s, double *step_s, double *seq_step_s);
/* "default", "v0", "v0.6", "v1"; "?" out of range.  engine_fw_version_parse:
 * the version by that name (also "0.4", "0.5" for v0, "0.6", "0.7" for v0.6),
 * -1 if none. */
const char *engine_fw_version_name(engine_fw_version v);
int engine_fw_version_parse(const char *name);
/* 1 when two-batch overlap, or the fused all-reduce + norm, is on: the
 * scenario's choice, else its framework's. */
int engine_scenario_tbo(const engine_scenario *s);
int engine_scenario_fuse_ar_norm(const engine_scenario *s);
/* 1 when s's prefill steps replay piecewise CUDA graphs (its prefill_graphs,
 * else its framework's); engine_prefill_graph_tokens: the largest such step
 * in tokens for model m under framework fw (0: unlimited). */
int engine_scenario_prefill_graphs(const engine_scenario *s);
int engine_prefill_graph_tokens(const engine_framework *fw, const engine_model *m);
/* 1 when s's local-attention layers hold KV for the whole sequence (its
 * local_kv_full, else its framework's); 0: at most their window. */
int engine_scenario_local_kv_full(const engine_scenario *s);
/* 1 when a layer's attention and MLP share one TP all-reduce: the model's
 * parallel_ar_once, its framework's (the generic one's when none) and not
 * the scenario's parallel_ar_split (README "The model"); 0: two. */
int engine_scenario_one_allreduce(const engine_scenario *s);
/* The sampler's kernels per step on `sampling`'s path under profile fw
 * (plain: sampler_kernels, 0 counting as one; top-p adds top_p_kernels;
 * full adds penalty_kernels too); *passes (may be NULL) gets their passes
 * over the step's fp32 logits (0 sampler_kernels: three). */
int engine_sampler_kernels(const engine_framework *fw, engine_sampling sampling, double *passes);
/* The default routing imbalance (max over mean routed tokens of the busiest
 * of `groups` expert groups holding `slots` physical experts; 1 for one
 * group): 1 + c * sqrt(2 ln groups) / sqrt(slots / groups), the expected
 * maximum of `groups` sums of slots/groups expert loads whose per-expert
 * coefficient of variation is c.  c from TensorRT-LLM's measured DeepSeek-R1
 * routing (examples/wide_ep/ep_load_balancer/README.md): imbalance ratio
 * (max - mean) / mean 1.564 at EP32 over 256 experts gives c = 1.680;
 * with redundant experts placed by EPLB (EP36, 288 slots) 0.115 gives
 * c = 0.1215 (redundant != 0). */
double engine_moe_imbalance_default(int groups, int slots, int redundant);
/* The imbalance a scenario runs with for that plan shape: its own, else
 * the default rule. */
double engine_scenario_moe_imbalance(const engine_scenario *s, int groups, int slots);
/* Fill the built-in generic framework profile (CUDA graphs, a small fixed
 * cost per step, NCCL all-reduces, 0.9 of the total memory, 2 GB runtime). */
void engine_framework_generic(engine_framework *f);
const engine_framework *engine_framework_generic_ref(void); /* the same, shared */
const char *engine_mem_rule_name(engine_mem_rule r);    /* "total", "free" */
const char *engine_link_kind_name(engine_link_kind k); /* "nvlink" ... */
int engine_link_kind_parse(const char *s, engine_link_kind *out);
/* One sentence per ENGINE_WARN_* bit, for text and JSON. */
const char *engine_warning_text(unsigned bit);

/* --- kernels (one GPU; the step model of engine_evaluate) ------------ */

/* Achievable shape efficiency of a GEMM (or `groups` equal GEMMs in one
 * grouped kernel) with m x n outputs on `sm` multiprocessors: the best of a
 * few tile shapes (and split-K when the tiles do not fill the GPU) after
 * tile and wave quantization, compute alone.  In (0, 1].  The calibration's
 * fit form; engine_gemm_s picks tile and split by time instead (below). */
double engine_gemm_shape_eta(int sm, double m, double n, double k, double groups);
/* One GEMM C[m x n] = A[m x k] B[k x n] with weights of w_bytes per element
 * and activations of a_bytes: max(FLOPs / (peak * eta_c * eta_shape),
 * bytes / (BW * eta_m)) + t0, with the calibration's constants when measured;
 * tile and split-K count are the fastest, s splits adding s x m x n x 8
 * bytes of fp32 partial sums (written, then read by the reduction) to the
 * streamed bytes. */
double engine_gemm_s(const engine_gpu *g, const engine_calib *c, engine_dtype math,
                     double m, double n, double k, double w_bytes, double a_bytes);
/* engine_gemm_s for a kernel that accumulates in FP16 (engine_scenario.
 * gemm_acc16): FP16 math runs at g->fp16_acc16_flops x eta_compute where
 * the GPU has that peak; otherwise (other math, no peak, a measured
 * calibration) exactly engine_gemm_s. */
double engine_gemm_acc16_s(const engine_gpu *g, const engine_calib *c, engine_dtype math,
                           double m, double n, double k, double w_bytes, double a_bytes);
/* `groups` GEMMs of one shape in one grouped kernel (the experts an MoE
 * layer touches): one fixed cost for all of them. */
double engine_grouped_gemm_s(const engine_gpu *g, const engine_calib *c, engine_dtype math,
                             double m, double n, double k, double groups, double w_bytes,
                             double a_bytes);
/* The same for FP4 weights on Marlin (engine_w4a16; a GPU without 16-bit-only
 * math: its FP4 kernel) with the GPU's preset constants. */
double engine_marlin_gemm_s(const engine_gpu *g, double m, double n, double k, double groups,
                            double w_bytes, double a_bytes);
/* The same for an MoE layer's grouped expert GEMMs in TensorRT-LLM's CUTLASS
 * fused MoE: the GPU's grouped-kernel rate (eta_moe*) and its compute /
 * weight-stream blend (moe_roof_p; kconst_experts; README "The model",
 * grouped MoE expert GEMMs). */
double engine_moe_gemm_s(const engine_gpu *g, const engine_calib *c, engine_dtype math, double m,
                         double n, double k, double groups, double w_bytes, double a_bytes);
/* The same in vLLM's and SGLang's Triton fused_moe: the grouped-kernel
 * rate, the max of compute and weight stream, and tiles of any height (its
 * tuned configs run 16-row tiles at decode sizes even where the GPU's dense
 * GEMMs keep gemm_min_m rows; kconst_experts). */
double engine_fused_moe_gemm_s(const engine_gpu *g, const engine_calib *c, engine_dtype math,
                               double m, double n, double k, double groups, double w_bytes,
                               double a_bytes);
/* One FP8 GEMM with block-scaled weights (128x128 weight blocks, 1x128
 * activation groups): engine_gemm_s with the GPU's eta_compute_fp8_block
 * and gemm_t0_fp8_block_s (per-tensor FP8's where the preset has none). */
double engine_gemm_fp8_block_s(const engine_gpu *g, const engine_calib *c, double m, double n,
                               double k, double w_bytes, double a_bytes);
/* The routed-expert work of one MoE layer on one GPU of `plan` when
 * `tokens` tokens reach that GPU's experts (the pooled tokens of its EP
 * group when ep > tp; every token when ep <= tp), as the step model times
 * it: routing over the router's logits, permute, the grouped expert GEMMs,
 * activation, unpermute + combine, with the scenario's per-kernel launch
 * cost; no router GEMM, shared experts or all-to-all (aiconfigurator's
 * moe.csv convention; make validate-kernels).  The scenario's
 * moe_imbalance applies (1: balanced routing).  Seconds, or -1 with err
 * filled for an invalid scenario, a dense model or an impossible plan. */
double engine_moe_layer_s(const engine_scenario *s, engine_plan plan, double tokens,
                          engine_error *err);
/* The same under a given routing: `hit` of this GPU's experts receive
 * `pairs` token-expert pairs in all (aiconfigurator's collector routes
 * round-robin: make validate-kernels); 0 and 0: random routing, as
 * engine_moe_layer_s.  -1 with err for one of the two 0 or either < 0. */
double engine_moe_layer_routed_s(const engine_scenario *s, engine_plan plan, double tokens,
                                 double hit, double pairs, engine_error *err);
/* Prefill attention over `seqs` sequences of `t` new tokens after `past`
 * cached ones: t0 + (causal FLOPs / (FP16 peak * eta_attn_prefill) +
 * scores * attn_score_s) / wave utilisation + waves * attn_cta_s +
 * per-token traffic / (BW * eta_attn_io). */
double engine_attn_prefill_s(const engine_gpu *g, double seqs, double t, double past,
                             double heads, double kv_heads, double qk_dim, double v_dim,
                             double a_bytes);
/* Bytes a score of a materialised (non-FlashAttention) attention moves
 * (engine_scenario.attn_scores): the FP32 KQ product written, read and
 * written back by the softmax, read by the KQV product. */
#define ENGINE_ATTN_SCORE_BYTES 16.0
/* attn_scores ENGINE_ATTN_SCORES_F32_F16: the KQ product writes FP32 (4 B),
 * the masked softmax reads it and writes FP16 (4 + 2 B), the KQV product
 * reads FP16 (2 B): 6 B at the GEMM rate and 6 B at the element-wise rate.
 * FasterTransformer's GptContextAttentionLayer with is_qk_buf_float
 * (ParallelGpt's const is_context_qk_buf_float_ = true): stridedBatchedGemm
 * into qk_buf_float_ (CUDA_R_32F), invokeMaskedSoftMax(qk_buf_ (T), qk_buf_float_),
 * stridedBatchedGemm from qk_buf_ (NVIDIA/FasterTransformer@952a1f2449f6
 * to @a44c38134cef; fused context MHA for GPT came with v5.2-5.3, 2022-12). */
#define ENGINE_ATTN_SCORES_F32 1
#define ENGINE_ATTN_SCORES_F32_F16 2
#define ENGINE_ATTN_SCORE_BYTES_F16OUT 12.0
/* The same prefill attention without FlashAttention (engine_scenario.
 * attn_scores): t x (past + t) scores a sequence and head, their dot
 * products at the rate above, and the larger of that compute and the
 * scores' traffic (8 B of the two products at HBM x eta_memory, 8 B of the
 * softmax at HBM x eta_small), plus the per-token traffic. */
double engine_attn_prefill_scores_s(const engine_gpu *g, double seqs, double t, double past,
                                    double heads, double kv_heads, double qk_dim, double v_dim,
                                    double a_bytes);
/* The same for a local layer: each query sees at most `window` keys (the
 * last ones when sliding, its own chunk's when chunked, Llama 4); 0: none. */
double engine_attn_prefill_window_s(const engine_gpu *g, double seqs, double t, double past,
                                    double window, int chunked, double heads, double kv_heads,
                                    double qk_dim, double v_dim, double a_bytes);
/* Decode attention reading `kv_bytes` of cache in total for `seq_heads`
 * (sequence, query head) pairs: t0 + bytes / (BW * eta_kv) + seq_heads *
 * decode_attn_seq_s / SMs. */
double engine_attn_decode_s(const engine_gpu *g, double kv_bytes, double seq_heads);
/* GQA/MHA decode attention by thread block (the engine's step model): seqs
 * sequences of ctx cached tokens, heads query and kv_heads KV heads of
 * head_dim, kv_b bytes per cached element (1: FP8); the KV read, 4 x
 * tokens x heads x head_dim FLOPs, XQA's KV splits, the blocks' waves
 * (README "The kernels of one layer").  A GPU without decode_attn_cta_s:
 * engine_attn_decode_s with those bytes and seqs x heads. */
double engine_attn_decode_gqa_s(const engine_gpu *g, double seqs, double ctx, double heads,
                                double kv_heads, double head_dim, double kv_b);
/* 1 when TensorRT-LLM's XQA decode kernel takes `group` query heads per KV
 * head (per GPU) at `head_dim`: precompiled (the cubins of
 * DecoderXQARunner::shouldUse) 1, 8 or 16; JIT (supportConfigHMMA /
 * QGMMA) up to 32 at head sizes 16..256 in steps of 16 (README "The
 * model"); 0: masked MHA. */
int engine_xqa_group_ok(int group, int head_dim, int precompiled);
/* Decode attention on CUDA cores (masked MHA): engine_attn_decode_s with
 * the compute term `flops` / engine_gpu.fp32_flops (the tensor-core rate
 * when fp32_flops is 0) and the memory term the larger of the HBM read
 * and `group` (query heads per KV head) reads of `kv_bytes` from L2 at
 * engine_gpu.l2_bytes_per_s (no L2 term when that is 0). */
double engine_attn_decode_mmha_s(const engine_gpu *g, double kv_bytes, double flops,
                                 double seq_heads, double group);
/* An element-wise kernel moving `bytes`: max(floor, bytes / (BW * eta_small)). */
double engine_small_kernel_s(const engine_gpu *g, double bytes);

/* --- error bands ------------------------------------------------------ */

engine_dclass engine_dtype_class(engine_dtype d);
const char *engine_phase_name(engine_phase p); /* "prefill", "decode", "request" */
/* Build the table from n validation ratios: per key the 10th and 90th
 * percentiles of q, falling back (regime, then dtype class, then MoE, then
 * phase) while fewer than ENGINE_BAND_MIN_CASES cases remain.  0 ok, -1 when
 * n < 1. */
int engine_bands_build(const engine_band_case *cases, int n, engine_band_table *out);
/* The band of a value v (a time, or a rate when is_rate) for a key:
 * [v * min(p10, 1), v * max(p90, 1)] for times, the inverse for rates;
 * lo <= v <= hi and lo < hi.  n == 0 when the table is NULL or empty. */
engine_band engine_band_of(const engine_band_table *t, engine_phase phase, int moe,
                           engine_dclass dc, int compute_bound, double v, int is_rate);

/* --- communication (alpha-beta, nccl-tests conventions) ------------- */

/* Time of one collective of `bytes` (the buffer size per GPU as nccl-tests
 * counts it) over n GPUs.  When n > per_node > 0 and inter != NULL the
 * hierarchical form is used (intra-node phase, inter-node phase on each
 * GPU's own NIC, intra-node phase). */
double engine_comm_time(engine_collective op, const engine_link *intra,
                        const engine_link *inter, int n, int per_node,
                        double bytes);
/* Time of one step of work: compute time plus memory time.  The kernels of
 * a layer run one after another and each is bound by one resource, so the
 * two do not hide each other (validated against published measurements:
 * README, "Validation"); calibration fits the same form. */
double engine_roofline_s(double compute_s, double memory_s);

/* One DeepEP dispatch (combine == 0) or combine (combine == 1) moving
 * `bytes` from each rank in the table's unit (low-latency: tokens x top-k x
 * hidden x bytes, every expert copy; normal intranode: a token once per
 * destination rank; normal internode: once per destination node; see
 * engine_deepep_normal_s) over an EP group
 * of ep GPUs, ll: the low-latency kernels, else the normal ones; cross:
 * the group spans NVLink domains.  Bandwidths are DeepEP's published H800
 * tables (deepseek-ai/DeepEP docs/legacy.md, V1) rescaled to the links:
 * intranode normal 153 / 158 GB/s of H800's ~160 GB/s NVLink; internode
 * normal 43/58/51 (dispatch) and 43/57/50 GB/s (combine) at EP16/32/64
 * and low-latency 98/63/48/43/39/39 and 127/74/53/46/39/40 GB/s at
 * EP8..256 on CX7 400G NICs (the ib-ndr preset's 42.4 GB/s), between EP
 * sizes linear in log2(ep).  Fixed cost: the normal kernels the link's
 * base cost (launch and the CPU wait for the counts), the low-latency ones
 * two network latencies (the data write and its arrival flag). */
double engine_deepep_s(const engine_link *intra, const engine_link *inter, int ep, int cross,
                       int ll, int combine, double bytes);

/* DeepEP's normal kernels over an EP group that spans NVLink domains
 * (cross) or not: rank_bytes is what one rank sends counting a token once
 * per destination rank, node_bytes once per destination node (tokens x
 * hidden x bytes x engine_ep_distinct, each with its imbalance).  The
 * tables' bandwidths are in those units (DeepEP tests/legacy: the RDMA
 * figure counts a token once per destination node, the NVLink one once per
 * destination rank), so intranode: engine_deepep_s of rank_bytes;
 * internode the slower of the RDMA leg (node_bytes at the internode
 * table's bandwidth) and the NVLink fan-out (rank_bytes at the intranode
 * one). */
double engine_deepep_normal_s(const engine_link *intra, const engine_link *inter, int ep,
                              int cross, int combine, double rank_bytes, double node_bytes);

/* Expected number of distinct units (EP ranks, or nodes) among `units`
 * equal contiguous parts of the experts that one token's top_k experts
 * land on.  Unlimited routing (n_group <= 1, topk_group >= n_group, or a
 * layout the groups do not divide): the top_k a uniform subset of the
 * experts, units x (1 - C(E - E/units, k) / C(E, k)).  Group-limited:
 * topk_group of the n_group groups selected uniformly, each holding at
 * least one of the k (the gate ranks groups by their best experts), the
 * other k - topk_group uniform over the selected groups' experts; a unit
 * of g >= 1 whole groups is missed with C(G - g, M) / C(G, M), a part
 * g < 1 of a group with (1 - M/G) + (M/G)(1 - g) C(Me - ge, k - M) /
 * C(Me, k - M) (e experts a group; real g interpolates the products).
 * E.g. DeepSeek-V3 (256 experts, top-8, 4 of 8 groups) on 4 nodes:
 * 4 (1 - C(6,4)/C(8,4)) = 22/7 = 3.14 nodes, against 3.61 unlimited.
 * 0 for a bad argument, 1 for one unit. */
double engine_ep_distinct(int experts, int top_k, int n_group, int topk_group, int units);

/* nccl-tests bus-bandwidth factor: busbw = algbw * factor. */
double engine_busbw_factor(engine_collective op, int n);

/* --- pipeline ------------------------------------------------------- */

/* Idle fraction of a forward pass with pp stages and m micro-batches:
 * (pp-1)/(m+pp-1); interleaved divides the bubble term by v. */
double engine_bubble_fraction(int pp, int m, engine_schedule s, int v);

/* --- evaluation ------------------------------------------------------ */

/* Evaluate one plan.  Returns 0 when evaluated (the plan may still be
 * invalid or not fit: see out->valid / out->fits), -1 when the scenario
 * itself is unusable (err filled). */
int engine_evaluate(const engine_scenario *s, engine_plan plan,
                    engine_result *out, engine_error *err);

/* Fill tails (p50_s, p99_s) for an evaluated, valid result: Monte Carlo
 * with the scenario's jitter and seed.  Deterministic. */
void engine_tails(const engine_scenario *s, engine_result *r);

/* Memory of a plan without timing it (the cheap part of engine_evaluate:
 * the VRAM frontier); returns 0 (reason filled) when the plan is invalid,
 * 1 with mem filled otherwise.  The scenario is assumed checked. */
int engine_plan_memory(const engine_scenario *s, engine_plan plan, engine_memory *mem,
                       char *reason, size_t len);

/* Number of candidate plans for the scenario's GPU count (upper bound for
 * the array given to engine_rank). */
int engine_plan_count(const engine_scenario *s);

/* Evaluate every plan for s->gpus, sort by s->objective (valid and fitting
 * plans first, then the rest with their reasons), fill tails for the first
 * `tails_for` plans.  Writes at most cap results: with more plans than
 * cap (engine_plan_count), the best cap of them in order, as a full
 * ranking cut to cap; returns the number written, or -1 with err on an
 * unusable scenario. */
int engine_rank(const engine_scenario *s, engine_result *out, int cap,
                int tails_for, engine_error *err);

/* Compare two results under an objective, qsort-style. */
int engine_result_compare(const engine_result *a, const engine_result *b,
                          engine_objective o);

/* Smallest N (a power of two up to max_gpus, at most ENGINE_MAX_GPUS) for
 * which some plan fits; 0 if none does. */
int engine_min_gpus(const engine_scenario *s, int max_gpus);

/* The most sequences per replica that fit for a plan (the batch is searched,
 * the rest of the scenario kept; the KV cache counted in whole blocks as
 * engine_result.max_concurrency), at most cap; 0 when not even one fits or
 * the plan is invalid. */
int engine_max_batch(const engine_scenario *s, engine_plan plan, int cap);

/* The most sequences one replica runs at once under s: s->max_num_seqs when
 * set, else the framework's max_num_seqs (vLLM max_num_seqs, SGLang
 * max_running_requests, TensorRT-LLM max_batch_size), else 256 (the
 * generic profile's).  s NULL: the generic profile's.  The one rule behind
 * batch_max, total_concurrency, the load simulation's default and the
 * validation's offline runs. */
int engine_max_num_seqs(const engine_scenario *s);
/* engine_max_num_seqs for a replica whose KV cache holds kv_tokens tokens:
 * where the framework sizes its request pool by the cache
 * (req_pool_per_context) and s sets no max_num_seqs, clamp(floor(kv_tokens
 * x req_pool_per_context / engine_context_limit(s)), req_pool_min,
 * max_num_seqs); else engine_max_num_seqs(s).  What batch_max,
 * total_concurrency and the load simulation's default cap a replica at. */
int engine_kv_max_num_seqs(const engine_scenario *s, double kv_tokens);
const char *engine_batch_bound_name(engine_batch_bound b); /* "batch", "capacity", ... */

/* --- explain: one prefill and one decode step, kernel by kernel ----------- */

typedef enum engine_kclass {
    ENGINE_KC_GEMM = 0, /* projections, MLP, router, experts, LM head */
    ENGINE_KC_ATTN,     /* attention over the new tokens and the KV cache */
    ENGINE_KC_SMALL,    /* norms, rotary, activation, residual, routing, permute */
    ENGINE_KC_LAUNCH,   /* host launch time the GPU waits for (launch floor) */
    ENGINE_KC_HOST,     /* the framework's per-step (and per-request) host cost */
    ENGINE_KC_COMM,     /* a collective: TP all-reduce, PP send/recv, EP all-to-all */
    ENGINE_KC_BUBBLE,   /* pipeline idle time of the slowest stage */
    ENGINE_KC_COUNT
} engine_kclass;

/* Which term set a kernel's time. */
typedef enum engine_bound {
    ENGINE_BOUND_COMPUTE = 0, /* FLOPs at the shape's rate */
    ENGINE_BOUND_MEMORY,      /* bytes at the HBM rate */
    ENGINE_BOUND_FLOOR,       /* the kernel's fixed cost (t0 or the shortest kernel) */
    ENGINE_BOUND_LAUNCH,      /* the host's launch of the kernel */
    ENGINE_BOUND_LATENCY,     /* a collective's latency part (base + ring steps * alpha) */
    ENGINE_BOUND_BANDWIDTH,   /* a collective's bytes on the wire */
    ENGINE_BOUND_HOST,        /* host work (scheduling, sampling) */
    ENGINE_BOUND_IDLE,        /* waiting for the other pipeline stages */
    ENGINE_BOUND_COUNT
} engine_bound;

#define ENGINE_EXPLAIN_MAX 96
#define ENGINE_EXPLAIN_CONST_MAX 58

/* One kernel class of a step: every call of it in the step summed (the
 * layers of the slowest pipeline stage, times its micro-batches / chunks).
 * flops and bytes are per GPU; bytes of a collective is its message (the
 * buffer per GPU, nccl-tests' convention).  bound: the term that set most of
 * time_s. */
typedef struct engine_explain_item {
    const char *name;  /* static string: "qkv", "down", "tp all-reduce", ... */
    engine_kclass cls;
    double count;      /* calls in the step */
    double flops, bytes;
    double time_s;
    engine_bound bound;
    int draft;         /* 1: a kernel of the speculation's draft (draft model, EAGLE
                        * head or MTP module); 0: the target's */
} engine_explain_item;

typedef struct engine_explain_step {
    int n;
    engine_explain_item item[ENGINE_EXPLAIN_MAX];
    int stage;         /* the slowest pipeline stage (0-based) */
    double repeat;     /* times that stage's kernels run in the step (micro-batches x chunks;
                        * with speculation, decode: micro-batches / expected tokens a step) */
    double total_s;    /* the step: TTFT (prefill) or ITL (decode); the items sum to it */
} engine_explain_step;

/* A constant of the model in use and where it came from. */
typedef struct engine_explain_const {
    const char *name;   /* static: "gemm_flops", "hbm_gemm", ... */
    double value;
    const char *unit;   /* static: "FLOP/s", "B/s", "s", "1" */
    const char *origin; /* static: "calibration", "gpu preset", "framework profile",
                         * "link preset", "engine default" */
    const char *source; /* borrowed: the preset's or calibration's source text, or a
                         * static note for engine defaults; valid while the
                         * scenario's presets are */
} engine_explain_const;

typedef struct engine_explain {
    engine_plan plan;
    int batch;                      /* sequences per replica the steps ran at */
    engine_explain_step prefill, decode;
    int spec_k;                     /* speculation: drafted tokens a step; 0: none */
    double spec_tokens_per_step;    /* its expected tokens a target step E; 0: none */
    engine_batch_bound batch_bound; /* what set batch (as engine_result's) */
    int max_concurrency;            /* sequences the KV cache holds per replica */
    int max_num_seqs;               /* the cap that applied (engine_max_num_seqs) */
    int n_const;
    engine_explain_const constant[ENGINE_EXPLAIN_CONST_MAX];
} engine_explain;

/* The prefill step (TTFT) and a decode step (ITL at mid-generation) of a
 * plan, kernel class by kernel class, with the constants behind them.  With
 * speculative decoding the decode step is the target's verification of
 * k + 1 tokens plus the k draft steps, divided by the expected tokens a
 * step (ITL = (verify + draft) / E), and a draft model's prefill joins the
 * prefill (its items have draft = 1).  The
 * steps are those engine_evaluate times (the same batch, including
 * batch_max and total_concurrency's most loaded replica).  Returns 0 with
 * *out filled, -1 with err when the scenario is unusable or the plan
 * invalid.  No allocation; engine_evaluate itself never traces. */
int engine_explain_plan(const engine_scenario *s, engine_plan plan, engine_explain *out,
                        engine_error *err);
const char *engine_kclass_name(engine_kclass c); /* "gemm", "attention", ... */
const char *engine_bound_name(engine_bound b);   /* "compute", "memory", ... */

/* --- one engine step under load (step.c) ------------------------------ */

/* A group of prefill chunks in one step: `seqs` sequences (usually 1) each
 * computing `tokens` new prompt tokens after `past` tokens already in its
 * KV cache (earlier chunks; 0 for a first chunk). */
typedef struct engine_step_chunk {
    double seqs;   /* > 0 */
    double tokens; /* >= 1 */
    double past;   /* >= 0 */
} engine_step_chunk;

/* The exact mix of one iteration of one replica (continuous batching):
 * prefill chunks and decode sequences that run together. */
typedef struct engine_step_mix {
    const engine_step_chunk *prefill; /* n_prefill groups, borrowed; NULL when 0 */
    int n_prefill;
    double decode_seqs; /* sequences generating one token each, >= 0 */
    double decode_past; /* their mean context already cached, tokens (each new
                         * token attends to those and itself) */
} engine_step_mix;

#define ENGINE_STEPPER_PRIV 4096
/* A plan's step model prepared once (engine_stepper_init) and then asked
 * for any number of steps.  Self-contained: it holds a copy of the
 * scenario (whose model, GPU, links, framework and calibration it borrows:
 * they must outlive it) and may be copied with memcpy. */
typedef struct engine_stepper {
    engine_scenario s;        /* the copy every step is timed under */
    engine_plan plan;
    int valid;                /* 0: the plan is impossible (reason) */
    char reason[ENGINE_REASON_MAX];
    /* Capacity of one replica's paged KV cache, as engine_result counts it
     * (the framework's memory rule, the workspace of the largest batch). */
    int max_concurrency;       /* sequences of s.prompt + s.gen tokens that fit */
    double kv_capacity_tokens; /* KV tokens one GPU holds (whole blocks) */
    long long kv_blocks;       /* ENGINE_KV_BLOCK-token blocks of sequences a replica
                                * holds: kv_capacity_tokens / 16, scaled up by the
                                * saving of local-attention layers at s's lengths
                                * (so that kv_blocks / ceil((prompt+gen)/16) is
                                * max_concurrency's count before the workspace) */
    union {
        long double align_ld;
        void *align_p;
        unsigned char bytes[ENGINE_STEPPER_PRIV];
    } priv;                    /* the memoised plan context */
} engine_stepper;

/* Prepare plan's step model under s (checked).  Returns 0 with *st filled
 * (st->valid 0 and the reason when the plan is impossible), -1 with err on
 * an unusable scenario.  s->batch, s->microbatches and s->total_concurrency
 * play no part in step times; s->prompt and s->gen only in the capacity. */
int engine_stepper_init(engine_stepper *st, const engine_scenario *s, engine_plan plan,
                        engine_error *err);

/* Seconds of one iteration of one replica running `mix`, by the per-kernel
 * model of engine_evaluate (same kernels, collectives, framework host costs):
 *  - GEMMs, element-wise kernels and collectives run once over all the
 *    step's tokens (sum of prefill tokens + decode sequences); the LM head
 *    over one row per sequence; prefill attention as one varlen kernel over
 *    the chunks, decode attention as one kernel at the mean context;
 *  - a step with any prefill follows engine_evaluate's prefill rule: eager
 *    launches, host cost step_s + seq_step_s * sequences + request_s added,
 *    m = min(sequences, pp) micro-batches: m * slowest stage + (sum of
 *    stages - slowest) / v (+ the interleaved schedule's hops);
 *  - a decode-only step follows its decode rule: CUDA graphs as the
 *    scenario says, md = min(sequences, pp) micro-batches in flight,
 *    max(sum of stages, md * slowest stage), host cost hidden by an
 *    overlapping scheduler;
 *  - no chunking by max_num_tokens (the caller's scheduler chunks).
 * Hence a pure-decode mix of B sequences at past S + G/2 equals
 * engine_evaluate's itl_s at batch B, and one prefill group of B sequences
 * of S tokens (B*S within max_num_tokens) equals its ttft_s.  An empty mix
 * (or an invalid stepper) costs 0.  Pure (no allocation, no state), about
 * a microsecond. */
double engine_step_s(const engine_stepper *st, const engine_step_mix *mix);

/* Speculative decoding in a step (st->s.spec_method not NONE): a
 * decode-only mix costs the verification of k + 1 tokens a sequence plus
 * the k draft steps (so a pure-decode mix of B sequences at past S + G/2
 * is engine_evaluate's spec.draft_s + spec.verify_s, its itl_s times E),
 * and each decode sequence gains engine_step_tokens() = E tokens on
 * average; a step with prefill runs its decode sequences without
 * speculation (1 token each, the cost above).  Without speculation: 1. */
double engine_step_tokens(const engine_stepper *st, const engine_step_mix *mix);

#endif /* SHARDSCOPE_ENGINE_H */
