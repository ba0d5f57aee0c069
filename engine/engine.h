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
#define ENGINE_SOURCE_MAX 512
#define ENGINE_REASON_MAX 128
#define ENGINE_ERROR_MAX 384

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
    ENGINE_DTYPE_COUNT
} engine_dtype;

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
    /* Mixture of experts; experts == 0 means dense. */
    int experts;       /* E routed experts per MoE layer */
    int top_k;         /* k experts per token */
    int shared_experts;
    int moe_ffn;       /* width of one expert's MLP (0: same as ffn) */
    int dense_layers;  /* leading layers with a dense MLP (DeepSeek-V3: 3) */
    /* Multi-head latent attention (DeepSeek); mla == 0 means GQA/MHA. */
    int mla;
    int q_lora_rank;   /* 0: full-rank query projection */
    int kv_lora_rank;
    int qk_nope_dim;
    int qk_rope_dim;
    int v_head_dim;
    double params_published;        /* 0 if unknown */
    double active_params_published; /* MoE only; 0 if unknown */
} engine_model;

/* One GPU type.  Peaks are dense (no sparsity); 0 means "no native support":
 * the engine then computes at the FP16 rate (weight-only quantization). */
typedef struct engine_gpu {
    char name[ENGINE_NAME_MAX];
    char display[ENGINE_NAME_MAX];
    char source[ENGINE_SOURCE_MAX];
    double memory_bytes;                   /* capacity, bytes */
    double hbm_bytes_per_s;                /* peak memory bandwidth */
    double peak_flops[ENGINE_DTYPE_COUNT]; /* dense FLOP/s per dtype */
    double eta_compute;                    /* achievable fraction of peak FLOP/s */
    double eta_compute_fp8;                /* the same for FP8 math; 0 = eta_compute */
    double eta_memory;                     /* achievable fraction of HBM bandwidth */
    double layer_overhead_s;               /* fixed cost per layer per step */
    double price_per_hour;                 /* USD per GPU-hour; 0 = unknown */
    char price_date[32];                   /* "2026-03" etc. */
} engine_gpu;

/* One interconnect, alpha-beta: a collective costs base + steps * alpha +
 * bytes on the wire / bandwidth; a point-to-point message alpha + bytes /
 * bandwidth. */
typedef struct engine_link {
    char name[ENGINE_NAME_MAX];
    char display[ENGINE_NAME_MAX];
    char source[ENGINE_SOURCE_MAX];
    double alpha_s;          /* latency per message (per ring step), s */
    double base_s;           /* fixed cost per collective (launch, sync), s */
    double bytes_per_s;      /* achievable bandwidth per direction, B/s */
} engine_link;

/* The compute-model constants in use.  measured == 0: datasheet defaults
 * (the GPU preset's eta_* and overhead are used and this struct's numbers
 * are ignored). */
typedef struct engine_calib {
    int measured;
    char device[ENGINE_NAME_MAX];  /* device name as reported by the driver */
    char date[32];                 /* ISO 8601 date of the measurement */
    char backend[16];              /* "cuda" or "cpu" */
    double eta_compute;
    double eta_memory;
    double layer_overhead_s;
} engine_calib;

typedef struct engine_scenario {
    const engine_model *model;
    const engine_gpu *gpu;
    const engine_link *intra;    /* link inside a node */
    const engine_link *inter;    /* link between nodes; NULL = same as intra */
    const engine_calib *calib;   /* NULL or !measured: GPU preset defaults */
    int gpus;                    /* N */
    int gpus_per_node;           /* K; 0 = all GPUs in one node */
    double vram_bytes;           /* per GPU; 0 = the GPU's capacity */
    double usable_fraction;      /* of vram usable by the runtime (0.9) */
    double runtime_overhead_bytes; /* CUDA context, allocator, framework */
    int batch;                   /* B concurrent sequences per replica */
    int prompt;                  /* S prompt tokens */
    int gen;                     /* G generated tokens (>= 1) */
    engine_dtype weight_dtype;
    engine_dtype kv_dtype;
    engine_dtype act_dtype;      /* activations / communication */
    int microbatches;            /* m for prefill; 0 = pp */
    engine_schedule schedule;
    int interleave;              /* v chunks for the interleaved schedule */
    engine_objective objective;
    double jitter_sigma;         /* log-normal sigma of per-GPU compute */
    double straggler_prob;       /* chance a GPU is a straggler in a request */
    double straggler_slowdown;   /* its mean compute multiplier (e.g. 1.5);
                                  * the severity is 1 + Exp(mean - 1) */
    int mc_samples;              /* Monte Carlo samples (e.g. 1000) */
    uint64_t seed;
} engine_scenario;

typedef struct engine_plan {
    int tp, pp, dp, ep;
} engine_plan;

typedef struct engine_memory {
    double weights_bytes;     /* per GPU (largest pipeline stage) */
    double kv_bytes;          /* per GPU at full context S+G for the batch */
    double activation_bytes;  /* per GPU prefill workspace */
    double overhead_bytes;    /* runtime overhead */
    double per_gpu_bytes;     /* sum of the above */
    double capacity_bytes;    /* vram * usable_fraction */
    int fits;
} engine_memory;

typedef struct engine_result {
    engine_plan plan;
    int valid;                       /* 0: plan impossible, see reason */
    int fits;                        /* 1: memory fits */
    char reason[ENGINE_REASON_MAX];  /* why invalid or not fitting; "" if ok */
    engine_memory mem;
    /* Times, seconds. */
    double ttft_s;             /* prefill of the batch */
    double itl_s;              /* one decode step at mid-generation */
    double e2e_s;              /* ttft + gen * itl */
    double tokens_per_s;       /* generated tokens/s, all replicas */
    double prefill_compute_s;  /* parts of ttft */
    double prefill_comm_s;
    double prefill_bubble_s;
    double decode_compute_s;   /* parts of itl */
    double decode_comm_s;
    double decode_bubble_s;
    double compute_s;          /* whole request, per GPU critical path */
    double comm_s;
    /* Derived. */
    double speedup;            /* vs one ideal GPU (no comm, no capacity limit) */
    double efficiency;         /* speedup / N, in (0, 1] */
    double compute_comm_ratio; /* compute_s / comm_s; 0 when comm_s == 0 */
    char regime;               /* 'C' compute-bound, 'M' comm-bound, '-' none */
    double bubble_fraction;    /* prefill pipeline bubble */
    double cost_per_mtok_usd;  /* 0 when the GPU has no price */
    double p50_s, p99_s;       /* end-to-end request latency tails */
} engine_result;

/* --- defaults and validation --------------------------------------- */

/* Fill a scenario with the documented defaults (batch 1, prompt 1024,
 * gen 256, fp16 weights/KV/activations, GPipe, jitter 0.12, 1000 samples,
 * usable fraction 0.9, 2 GB runtime overhead, seed 42).  Pointers are NULL. */
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

/* --- model arithmetic ---------------------------------------------- */

double engine_model_params(const engine_model *m);        /* total */
double engine_model_active_params(const engine_model *m); /* per token */
/* KV cache bytes per token for the whole model (all layers, unsharded). */
double engine_kv_bytes_per_token(const engine_model *m, engine_dtype kv);
/* Weight bytes of the whole model at a dtype. */
double engine_weight_bytes(const engine_model *m, engine_dtype w);
/* Seed 004's decode floor: weight bytes / peak HBM bandwidth, seconds. */
double engine_decode_floor_s(const engine_model *m, engine_dtype w,
                             const engine_gpu *g, int tp);

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

/* Number of candidate plans for the scenario's GPU count (upper bound for
 * the array given to engine_rank). */
int engine_plan_count(const engine_scenario *s);

/* Evaluate every plan for s->gpus, sort by s->objective (valid and fitting
 * plans first, then the rest with their reasons), fill tails for the first
 * `tails_for` plans.  Writes at most cap results; returns the number
 * written, or -1 with err on an unusable scenario. */
int engine_rank(const engine_scenario *s, engine_result *out, int cap,
                int tails_for, engine_error *err);

/* Compare two results under an objective, qsort-style. */
int engine_result_compare(const engine_result *a, const engine_result *b,
                          engine_objective o);

/* Smallest N (a power of two up to max_gpus) for which some plan fits;
 * 0 if none does. */
int engine_min_gpus(const engine_scenario *s, int max_gpus);

#endif /* SHARDSCOPE_ENGINE_H */
