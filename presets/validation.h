/*
 * validation.h - the project's table of published measurements and what
 * the engine predicts for each.
 *
 * Every case rebuilds one published benchmark (model, GPUs, plan,
 * framework, batch or load, lengths, precision) from the shipped presets
 * and names one measured figure.  The table is compiled into the binary:
 * `shardscope validate` prints it per category, tests/test_validation.c
 * asserts each case within its band, and the error bands of every
 * prediction (engine_bands_build) are computed from it at start-up, so
 * they always describe the model that is running.
 *
 * Units: SI (seconds, tokens/s).  Ratios are predicted / measured for times
 * and rates alike (> 1: a slower time or a higher rate than measured).
 */
#ifndef SHARDSCOPE_VALIDATION_H
#define SHARDSCOPE_VALIDATION_H

#include "engine.h"
#include "preset.h"
#include "sim.h"

typedef enum val_metric {
    VAL_TTFT = 0,   /* time to first token of the batch, s */
    VAL_ITL,        /* time per output token (TPOT / ITL), s */
    VAL_E2E,        /* end-to-end latency of the batch, s */
    VAL_TPS,        /* output tokens/s, all GPUs of the deployment */
    VAL_TPS_GPU,    /* output tokens/s per GPU */
    VAL_TPS_USER,   /* output tokens/s of one sequence (1 / ITL) */
    VAL_SPEEDUP,    /* speculative decoding's speed-up: spec_base without over with
                     * (a time) or with over without (a rate); dimensionless */
    VAL_METRIC_COUNT
} val_metric;

/* The benchmark harness of a run, where it decides something the run
 * does not state (trtllm-bench picks its own max batch size). */
typedef enum val_harness {
    VAL_HARNESS_OTHER = 0,
    VAL_HARNESS_TRTLLM_BENCH, /* TensorRT-LLM's trtllm-bench (setup names it) */
    VAL_HARNESS_FT,           /* FasterTransformer's multi-GPU GPT: its own
                               * pipeline micro-batches (val_ft_microbatches) */
} val_harness;

/* One published measurement.  Pointers are static strings. */
typedef struct val_case {
    const char *id;        /* unique, short: "trt08-l2-7b-a100-b32" */
    const char *source;    /* where: repo@commit:path and table, or URL and section */
    const char *setup;     /* framework version, tool and the flags that matter */
    const char *model;     /* preset names */
    const char *gpu;
    const char *link;      /* intra link; NULL: the GPU's usual one */
    const char *inter;     /* scale-out link; NULL: the GPU's usual one */
    const char *framework; /* profile; NULL: generic */
    int gpus, tp, pp, ep;  /* dp = gpus / (tp * pp); ep 0 or 1: none */
    int batch;             /* sequences per replica; 0: the most that fit
                            * (an offline max-throughput run), up to max_batch,
                            * or, for harness VAL_HARNESS_TRTLLM_BENCH with
                            * max_batch 0, to trtllm-bench's own cap
                            * (val_trtllm_bench_batch) */
    int max_batch;         /* the run's max batch size for batch 0; 0: none */
    int prompt, gen;       /* tokens */
    engine_dtype weights, kv;
    double mem_fraction;   /* the run's memory fraction; 0: the framework's */
    int max_model_len;     /* 0: the model's context */
    val_metric metric;
    double measured;       /* SI */
    double band;           /* asserted: |predicted / measured - 1| <= band */
    const char *note;      /* why an outlier is off, or NULL */
    int eager;             /* 1: the run launched decode eagerly (no CUDA graphs) */
    int microbatches;      /* prefill micro-batches (chunked pipeline); 0: default */
    int out_of_scope;      /* 1: run on software the engine does not model (Hugging
                            * Face transformers' eager generate loop): reported
                            * apart, left out of the statistics and the bands */
    /* Speculative decoding (the "speculative decoding" category: counted
     * there only, left out of the overall statistics and the error bands,
     * which describe plain decoding). */
    engine_spec_method spec_method; /* NONE: the run did not speculate */
    int spec_k;            /* drafted tokens per step; 0: the method's default */
    double spec_accept;    /* acceptance rate; 0: from spec_length, else the method's */
    double spec_length;    /* the measured acceptance length (tokens per target
                            * step) where the source states it; 0: unstated */
    const char *spec_draft; /* DRAFT: the draft model's preset */
    val_metric spec_base;  /* VAL_SPEEDUP: the metric whose ratio the speed-up is */
    int fuse_ar_norm;      /* 1: the run fused each TP all-reduce with the norm
                            * after it (stated by the source); 0: the profile's */
    val_harness harness;   /* the benchmark tool, where it sets the batch cap */
    int attn_dp;           /* 1: attention data parallel (TensorRT-LLM's
                            * enable_attention_dp): every rank of the TP group
                            * schedules its own batch */
    engine_sampling sampling; /* the run's sampling parameters (stated by the
                            * source or its published script); 0: plain */
    int async_sched;       /* 1: the run's vLLM scheduled asynchronously (V1
                            * --async-scheduling, on by default in the 2026
                            * releases: vllm-project/vllm#27614, vllm-ascend
                            * #9567): host work per step hidden under the GPU
                            * step (engine_scenario.host_overlap); 0: the profile's */
    engine_w4a16 w4a16_kernel; /* the run's W4A16 kernel (vLLM
                            * VLLM_MXFP4_USE_MARLIN=1: Marlin); 0: Triton */
    engine_fw_version fw_version; /* the run's vLLM engine generation, from the
                            * source's stated version (engine_scenario.
                            * framework_version: its host loop); DEFAULT where
                            * the version is unstated (the row says so) */
    int graph_pad;         /* 1: the run padded each decode batch to the next
                            * captured CUDA graph size of the TensorRT-LLM
                            * perf-overview llm_options.yml of v0.21, 1.0 and
                            * 1.x (cuda_graph_config enable_padding, the same
                            * batch_sizes 1 ... 8192:
                            * val_trtllm_perf_graph_sizes); 0: no padding */
    int parallel_ar_split; /* 1: the run's release reduces a parallel_ar_once
                            * model's attention and MLP separately
                            * (engine_scenario.parallel_ar_split: TensorRT-LLM
                            * 0.5); 0: its framework's rule */
    int xqa_precompiled;   /* 1: a TensorRT-LLM of the precompiled XQA kernels
                            * (engine_scenario.xqa_precompiled: XQA for 1, 8, 16
                            * query heads per KV head); 0: today's JIT rule */
    int xqa_legacy;        /* 1: a TensorRT-LLM release before 0.13 (the row's
                            * stated version): decode attention in the
                            * per-(sequence, head) form, not the GPU's block
                            * form (engine_scenario.xqa_legacy); 0: the GPU's */
    int gemm_acc16;        /* 1: the run's kernels accumulate its 16-bit GEMMs in
                            * FP16 (engine_scenario.gemm_acc16: TinyChat's W4A16
                            * GEMM); 0: FP32 accumulate (PyTorch, cuBLAS defaults) */
    int attn_scores;       /* 1 (2: the softmax writes FP16, FasterTransformer):
                            * the run's prefill attention is not FlashAttention
                            * (a llama.cpp of -fa off, stated or the tool's
                            * default at the row's build): its scores go to
                            * memory (engine_scenario.attn_scores); 0: fused */
    int requests;          /* an offline run of batch 0 and a rate metric: the
                            * requests of its dataset, every one issued at
                            * t = 0 (trtllm-bench's $num_requests): the rate is
                            * that run's, output tokens over first start to last
                            * end, ramp and drain included (trtllm-bench's
                            * reporting.py), from the load simulation
                            * (val_offline_rate); 0: the static view's steady
                            * batch */
} val_case;

/* The shipped table (validation_cases.c). */
extern const val_case val_cases[];
extern const int val_case_count;

/* Categories of the validation report; a case may be in several. */
typedef enum val_category {
    VAL_CAT_BATCH1 = 0,  /* batch-1 decode (ITL, decode rate, e2e at batch 1) */
    VAL_CAT_HIGH_BATCH,  /* throughput at batch >= 16 or the most that fit */
    VAL_CAT_PREFILL,     /* TTFT */
    VAL_CAT_TP8,         /* tp == 8 */
    VAL_CAT_PP,          /* pp > 1 */
    VAL_CAT_MOE_TP,      /* MoE without expert parallelism */
    VAL_CAT_MOE_EP,      /* MoE with ep > 1 */
    VAL_CAT_QUANT,       /* fp8, int8, int4 or fp4 weights */
    VAL_CAT_HOPPER_PLUS, /* H100, H200, B200, GB200, MI300X class */
    VAL_CAT_MULTINODE,   /* more GPUs than one NVLink domain / node */
    VAL_CAT_SMALL,       /* models below 3 B parameters */
    VAL_CAT_LONG,        /* prompt + gen >= 32768 tokens */
    VAL_CAT_SPEC,        /* speculative decoding (its cases count here only) */
    VAL_CAT_SERVING,     /* the serving rows under load (validation_serving.c),
                          * through the load simulation; no static case */
    VAL_CAT_MOE_EP_TP,   /* MoE with 1 < ep < tp: expert groups inside the TP group */
    VAL_CAT_SLIDING,     /* models with local attention (sliding window or chunks) */
    VAL_CAT_COUNT
} val_category;

const char *val_category_name(val_category c);
const char *val_metric_name(val_metric m);

/* What the engine says for one case. */
typedef struct val_result {
    const val_case *c;
    int ok;              /* the scenario was built and evaluated */
    char error[ENGINE_ERROR_MAX]; /* why not, when !ok */
    int fits;            /* the engine's memory verdict */
    int batch;           /* the batch evaluated (resolved for batch 0) */
    double predicted;    /* SI, same metric as measured */
    double ratio;        /* predicted / measured */
    double q;            /* measured / predicted as times (band input) */
    unsigned categories; /* bit (1u << val_category); 0 when out of scope */
    engine_band_case band_case;
} val_result;

/* Build a case's scenario from db into *s (pointers into db and *fw_store);
 * 0 ok, -1 with err naming the case and the missing preset. */
int val_scenario(const preset_db *db, const val_case *c, engine_scenario *s,
                 engine_plan *plan, engine_error *err);

/* The CUDA graph batch sizes of the TensorRT-LLM 1.x perf-overview runs
 * (NVIDIA/TensorRT-LLM@585c756579dc4d01f21fc13c2f604cdb461ac4f0:docs/source/
 * developer-guide/perf-overview.md, every llm_options.yml: cuda_graph_config
 * enable_padding: true, batch_sizes [1, 2, 4, 8, 16, 32, 64, 128, 256, 384,
 * 512, 1024, 2048, 4096, 8192]; the same list in the v0.21 and 1.0 pages,
 * docs/source/performance/perf-overview.md, 1.0 at 00f37686aa85) into out
 * (at most ENGINE_GRAPH_SIZES_MAX); returns how many. */
int val_trtllm_perf_graph_sizes(int *out);

/* Evaluate one case. */
/* trtllm-bench's max batch size for a run that sets none (its tuning.py
 * heuristic, see validation.c): the cap of a batch-0 case whose setup names
 * trtllm-bench, with tp the run's --tp (attention DP x EP: all its GPUs over
 * pp).  0: no cap (an MLA model, or no request fits). */
int val_trtllm_bench_batch(const engine_model *m, const engine_gpu *g, int tp, int pp,
                           int isl, int osl, engine_dtype weights, engine_dtype kv);
/* FasterTransformer's pipeline micro-batches for a step of `batch`
 * sequences of `tokens` new tokens each on pp stages (its getLocalBatchSize,
 * see validation.c): how many groups the batch runs in; 1 with pp 1. */
int val_ft_microbatches(int batch, int tokens, int pp);
/* val_scenario with the batch the case is evaluated at (an offline run's:
 * the most the KV cache holds under the run's batch cap): the scenario
 * val_run_case evaluates, for validate --explain. */
int val_case_scenario(const preset_db *db, const val_case *c, engine_scenario *s,
                      engine_plan *plan, engine_error *err);
/* Evaluate one case. */
void val_run_case(const preset_db *db, const val_case *c, val_result *out);

/* Evaluate every case into out[0..val_case_count-1] and, when bands is
 * not NULL, build the error-band table from them.  Returns the number of
 * cases evaluated (failed ones have ok == 0). */
int val_run_all(const preset_db *db, val_result *out, engine_band_table *bands);

/* Build the band table from the shipped presets alone (user presets never
 * move it): every shipped case evaluated, about 0.5 s.  0 ok, -1 when the
 * shipped presets could not be loaded. */
int val_bands_compute(engine_band_table *out);

/* The same table, computed when the program was built (mk/gen_bands.c
 * writes it from val_bands_compute into the build's gen/bands_shipped.c,
 * remade whenever an object of the library changes): what eval and the
 * explorer read, at no cost at start-up.  test_validation checks it equals
 * val_bands_compute.  0 ok, -1 when the build's computation failed. */
int val_bands_shipped(engine_band_table *out);

/* Statistics of the ratios of a set of results. */
typedef struct val_stats {
    int n;
    double median_ape;  /* median |ratio - 1| */
    double p90_ape;
    double worst_ratio; /* the ratio farthest from 1 (in log terms) */
    double speed_bias;  /* geometric mean of predicted / measured speed */
    int refused;        /* cases the engine says do not fit */
} val_stats;

/* Stats over results in category cat (VAL_CAT_COUNT: all). */
void val_stats_of(const val_result *r, int n, int cat, val_stats *out);

/* A case's source document: "owner/repo:path" for "owner/repo@commit:path,
 * table" (one document whatever the commit), else the text before the first
 * ','.  Into buf (truncated to len); returns buf. */
const char *val_source_doc(const char *source, char *buf, size_t len);

/* The document (val_source_doc) holding the most cases of the overall row
 * (first on a tie): its name into doc, its count in *count, and the overall
 * statistics without it in *rest; the guard that no single table carries
 * the overall figure.  0, or -1 when no case is in the overall row. */
int val_largest_doc(const val_result *r, int n, char *doc, size_t len, int *count,
                    val_stats *rest);

/* --- serving under load (validation_serving.c) ------------------------ */

/* How the published run offered its requests. */
typedef enum val_arrival {
    VAL_ARRIVAL_CLOSED = 0, /* a closed loop keeping `load` requests in flight
                             * (a benchmark client's max concurrency) */
    VAL_ARRIVAL_POISSON,    /* Poisson arrivals at `load` requests/s */
    VAL_ARRIVAL_OFFLINE,    /* every request queued at t = 0 (rate inf) */
    VAL_ARRIVAL_COUNT
} val_arrival;

/* The statistic a source prints for its TTFT and TPOT columns. */
typedef enum val_stat {
    VAL_STAT_MEAN = 0, /* mean over requests */
    VAL_STAT_P50,      /* median over requests */
    VAL_STAT_COUNT
} val_stat;

/* The figures one serving row may publish. */
typedef enum val_figure {
    VAL_FIG_TTFT = 0, /* time to first token, s */
    VAL_FIG_TPOT,     /* per request (e2e - TTFT) / (G - 1), s (vLLM's TPOT,
                       * AIPerf's and NIM's ITL) */
    VAL_FIG_TPS,      /* output tokens/s of the deployment */
    VAL_FIG_COUNT
} val_figure;

/* Default |predicted / measured - 1| a serving figure is held to when its
 * row gives none (0). */
#define VAL_SERVING_BAND 0.30

/* One published serving run under a stated load: a plan and a load
 * (arrivals, lengths, engine limits) and up to three measured figures.
 * Pointers are static strings; a figure of 0 was not published. */
/* The benchmark client of a serving row, as its source states it.  Both
 * start a closed loop's C clients at once (a BURST start, the figures of
 * the row); GenAI-Perf measures in windows after the start, which only
 * differs where the lock-step of the start has decayed by then (jitter the
 * simulation does not have), so its closed-loop rows are also simulated at
 * a STEADY start (val_serving_result.ttft_steady): the two bound what
 * windows after the start can see.  GenAI-Perf's windows by its defaults
 * (triton-inference-server/client@d62df10d:src/c++/perf_analyzer/genai-perf/
 * genai_perf/parser.py: --measurement-interval "10000" ms,
 * --stability-percentage 999, so the first three measurements are the
 * stable ones) and perf_analyzer's measurement (@0094d30d:src/c++/
 * perf_analyzer/inference_profiler.cc, Measure: each window sleeps 1.2 x
 * the interval from the previous one's end; ValidLatencyMeasurement: "Only
 * counting requests that end within the time interval") average every
 * request that ends within the first 3.6 intervals of the load, the
 * start's first wave included. */
typedef enum val_client {
    VAL_CLIENT_BENCH_SERVING = 0, /* vLLM's benchmark_serving / `vllm bench serve`:
                                   * --max-concurrency clients start together and
                                   * every request counts */
    VAL_CLIENT_GENAI_PERF,        /* perf_analyzer / GenAI-Perf / AIPerf (NIM's
                                   * guide): concurrency mode keeps C in flight
                                   * from the start ("Burst mode", AIPerf),
                                   * measured in windows (--measurement-interval,
                                   * --stability-percentage) */
    VAL_CLIENT_COUNT
} val_client;

typedef struct val_serving_case {
    const char *id;        /* unique, short */
    const char *source;    /* URL or repo@commit:path and the table */
    const char *setup;     /* framework version, client and the flags that matter */
    const char *sweep;     /* rows of one published sweep share it (the
                            * saturation rule, val_serving_saturated); NULL: alone */
    const char *model;     /* preset names */
    const char *gpu;
    const char *framework; /* profile; NULL: generic */
    int gpus, tp, pp, ep;  /* dp = gpus / (tp * pp); ep 0 or 1: none */
    val_arrival arrival;
    double load;           /* CLOSED: requests in flight in all; POISSON:
                            * requests/s; OFFLINE: unused */
    int requests;          /* the run's request count; 0: unstated */
    int prompt, gen;       /* tokens; the means when spread > 0 */
    double spread;         /* lengths uniform within (1 +- spread) x the mean; 0: fixed */
    engine_dtype weights, kv;
    int max_num_seqs;      /* the run's limit; 0: the framework's */
    int max_batched_tokens; /* the run's prefill token budget a step; 0: the framework's */
    double mem_fraction;   /* 0: the framework's */
    int max_model_len;     /* 0: the model's */
    int eager;             /* 1: the run launched decode eagerly (--enforce-eager) */
    val_stat stat;         /* of ttft_s and tpot_s */
    double ttft_s, tpot_s; /* measured, s; 0: not published */
    double tps;            /* measured output tokens/s; 0: not published */
    double band[VAL_FIG_COUNT]; /* asserted |predicted / measured - 1|; 0: VAL_SERVING_BAND */
    const char *note;      /* why a figure is off, or NULL */
    val_client client;     /* the benchmark client (a closed loop's start) */
    int async_sched;       /* 1: the run's vLLM scheduled asynchronously (V1
                            * --async-scheduling, on by default in the 2026
                            * releases: vllm-project/vllm#27614, vllm-ascend
                            * #9567): host work per step hidden under the GPU
                            * step (val_case.async_sched); 0: the profile's */
    engine_fw_version fw_version; /* the run's engine generation (val_case.fw_version) */
    engine_w4a16 w4a16_kernel; /* the run's W4A16 kernel (val_case.w4a16_kernel) */
    int recv_interval;     /* the run's SGLang --scheduler-recv-interval (load's
                            * recv_interval); 0: the default, every step */
    double frontend_batch_s; /* the run's tokenizer batch window (load's
                            * frontend_batch_s): VAL_VLLM_TOKENIZER_BATCH_S for
                            * the vLLM releases that batch; 0: none */
} val_serving_case;

/* The serving statistics count figures (up to VAL_FIG_COUNT a row), not
 * cases: the arrays behind them hold this many, and the shipped table must
 * fit in them (test_validation.c checks it). */
#define VAL_SERVING_MAX_FIGURES 4096

/* vLLM's AsyncMicrobatchTokenizer (vllm-project/vllm#19334, mid-2025, to
 * #45759, 2026-06-16): the API server's tokenizer batcher takes a request
 * and waits batch_wait_timeout_s = 0.002 for others (max_batch_size 32)
 * before it tokenizes them (vllm/utils/async_utils.py; "adds about 2ms of
 * frontend latency", #44172).  The rows of vLLM v0.10.2 to v0.19.1 carry it. */
#define VAL_VLLM_TOKENIZER_BATCH_S 0.002

/* The shipped serving table (validation_serving.c). */
extern const val_serving_case val_serving_cases[];
extern const int val_serving_case_count;

/* The published value of figure f of case c (SI), 0 when not published. */
double val_serving_measured(const val_serving_case *c, val_figure f);

/* The band figure f of case c is held to. */
double val_serving_band(const val_serving_case *c, val_figure f);

/* 1 when case i of the shipped table is past its sweep's knee, by the
 * published numbers alone (never the model's): an offline run (every
 * request at t = 0), or a row whose measured output tokens/s is at least
 * 0.9 of the highest of the rows sharing its sweep.  Any other row outside
 * a sweep, or without a throughput, is below saturation (0). */
int val_serving_saturated(int i);

const char *val_arrival_name(val_arrival a);
const char *val_figure_name(val_figure f);

/* What the load simulation says for one serving row. */
typedef struct val_serving_result {
    const val_serving_case *c;
    int ok;                       /* built and simulated */
    char error[ENGINE_ERROR_MAX]; /* why not, when !ok */
    int saturated;                /* val_serving_saturated: the published knee */
    int overloaded;               /* the simulation's verdict */
    int requests;                 /* simulated */
    double predicted[VAL_FIG_COUNT]; /* SI, the row's statistic */
    double ratio[VAL_FIG_COUNT];     /* predicted / measured; 0: not published */
    double mean_batch;            /* running requests a step */
    int max_batch;                /* the most a replica ran (KV cache, max_num_seqs) */
    double ttft_steady;           /* a GenAI-Perf closed loop: the TTFT (the row's
                                   * statistic, s) at a STEADY start; 0: not run */
} val_serving_result;

/* Requests, seed and the simulation's defaults for the rows (validation.c). */
#define VAL_SERVING_MIN_REQUESTS 400 /* at least, when the run's count is unstated */
#define VAL_SERVING_PER_SLOT 8       /* closed loop: requests per one in flight */
#define VAL_SERVING_SEED 42

/* Simulate shipped row i on db's presets into *out. */
void val_serving_run_case(const preset_db *db, int i, val_serving_result *out);

/* Every shipped row into out[0..val_serving_case_count-1]; returns the count. */
int val_serving_run_all(const preset_db *db, val_serving_result *out);

/* Statistics over the published figures of a set of rows: figures mask
 * (bits 1u << val_figure); knee 0: every row, 1: rows below saturation
 * only, 2: rows past it only.  n counts figures; speed_bias over times
 * (TTFT, TPOT) and rates alike; refused: rows that could not be simulated. */
void val_serving_stats_of(const val_serving_result *r, int n, unsigned figures, int knee,
                          val_stats *out);
/* The document (val_source_doc) holding the most of those figures: into doc,
 * their number into *count, the statistics of the others into *rest (the
 * serving headline's guard: InferenceMAX's gpt-oss run, before it NIM
 * 1.8.0's page, holds most TTFTs below saturation).  -1 when no row has
 * one. */
int val_serving_largest_doc(const val_serving_result *r, int n, unsigned figures, int knee,
                            char *doc, size_t len, int *count, val_stats *rest);

/* The GenAI-Perf closed-loop rows below saturation with a published TTFT
 * and more than one client a replica:
 * the statistics of their TTFT at a BURST start (the rows' figures) into
 * *burst and at a STEADY start (ttft_steady) into *steady; returns how many
 * published TTFTs lie between the two predictions (inclusive). */
int val_serving_steady_stats(const val_serving_result *r, int n, val_stats *burst,
                             val_stats *steady);

/* --- disaggregated prefill/decode pools (validation_disagg.c) -------------
 * Published disaggregated deployments measure each pool on its own
 * ("assuming unlimited resources for the non-tested phase", SGLang's
 * large-scale-EP post): a prefill pool's input tokens/s and a decode pool's
 * output tokens/s per GPU.  Each row is one pool, predicted by
 * engine_disagg_evaluate: the prefill pool's rate x prompt (prompts per
 * step: the row's batch), the decode pool's y x B / ITL(B). */
typedef enum val_pool {
    VAL_POOL_PREFILL = 0, /* input tokens/s per GPU of the prefill pool */
    VAL_POOL_DECODE       /* output tokens/s per GPU of the decode pool */
} val_pool;

typedef struct val_disagg_case {
    const char *id, *source, *setup;
    const char *model, *gpu, *framework; /* presets */
    val_pool pool;
    int gpus, tp, ep;          /* the pool measured; dp = gpus / tp */
    int redundant_experts;     /* EPLB slots */
    int batch;                 /* prefill: prompts a replica's step; decode: sequences a replica */
    int prompt, gen;           /* decode: the KV length is prompt + gen / 2 at mid-generation */
    engine_dtype weights, kv;
    int tbo;                   /* 1: two-batch overlap on */
    engine_a2a a2a;
    double measured;           /* tokens/s per GPU of the pool */
    double band;               /* asserted |predicted / measured - 1| */
    const char *note;          /* why a row is off, or NULL */
} val_disagg_case;

extern const val_disagg_case val_disagg_cases[];
extern const int val_disagg_case_count;

typedef struct val_disagg_result {
    const val_disagg_case *c;
    int ok;
    char error[ENGINE_ERROR_MAX];
    double predicted, ratio; /* tokens/s per GPU; predicted / measured */
} val_disagg_result;

/* Evaluate shipped row i on db's presets. */
void val_disagg_run_case(const preset_db *db, int i, val_disagg_result *out);

#endif /* SHARDSCOPE_VALIDATION_H */
