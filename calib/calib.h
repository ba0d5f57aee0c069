/*
 * calib.h - measuring this machine and fitting the compute model.
 *
 * A calibration times the GEMMs of one transformer layer (QKV, output
 * projection, FFN up and down: 24*b*s*h^2 FLOPs) over a grid of hidden
 * sizes, batches and sequence lengths (the seed's grid on a GPU, a scaled
 * down one on the CPU), decode-shaped GEMMs (1..256 tokens), a large copy
 * for memory bandwidth, and, where possible, communication between two
 * workers.  Three models are then fitted:
 *   1. the seed's power law   T = a * (h^2 * b * s)^beta   (log-space least
 *      squares over the prefill grid);
 *   2. the roofline           T = F / (peak * eta_c) + B / (bw * eta_m)
 *                                 + overhead   (every GEMM point; the
 *      engine's form, engine_roofline_s; the classic max() form is fitted
 *      too, for comparison);
 *   3. alpha-beta for comm    T = alpha + bytes / bandwidth (the
 *      all-reduce or loopback series, and NCCL send/recv when measured).
 * The result can be saved as JSON under
 * $XDG_CONFIG_HOME/shardscope/calibration/<device>.json (atomically) and is
 * loaded back into an engine_calib for the GPU preset it was matched to.
 *
 * Backends: "cuda" (cuBLAS and the CUDA runtime, loaded with dlopen when a
 * calibration starts: the binary does not link CUDA) and "cpu" (OpenBLAS,
 * loaded the same way).  Nothing here prints, exits or uses
 * global mutable state (the CUDA libraries are loaded once and kept):
 * errors come back as a calib_status and an engine_error sentence,
 * progress through a callback, cancellation through a flag.
 *
 * Units: SI (seconds, bytes, FLOP, FLOP/s, bytes/s).  MAPE is a fraction.
 *
 * Files (each calls only those below it; no two call each other):
 *   job.c          the worker thread (the explorer's `c`)
 *   plan.c         a run's phases, counts and predicted time, before it runs
 *   run.c          one run: backend, measure, roofs, comm, fit
 *   store.c        paths, the atomic save, which file applies
 *   result_json.c  to and from JSON, one key table both ways
 *   backend/       cuda.c (dlopen'd CUDA + cuBLAS; nocuda.c with
 *                  USE_CUDA=no), cpu.c, comm.c (sweep loop, loopback)
 *   grid.c         what a run measures: grids, sizes, repeats (backends, plan)
 *   match.c        device name -> GPU preset
 *   plot.c         the measured-vs-fitted view's rows and curves
 *   result.c       the result container and calib_result_fit
 *   fit.c          the three fits; opts.c, clock.c: leaves
 */
#ifndef SHARDSCOPE_CALIB_H
#define SHARDSCOPE_CALIB_H

#include <stdatomic.h>
#include <stddef.h>

#include "engine.h"

/* --- status and time ------------------------------------------------ */

/* What a measurement step returns (calib_run, the backends, the comm
 * sweeps, a job's final status).  Negative apart from OK, so that no value
 * reads as a CLI exit status or CLI_HELP. */
typedef enum calib_status {
    CALIB_OK = 0,
    CALIB_ERR = -1,       /* a failure while measuring or fitting: err says what */
    CALIB_NO_GPU = -2,    /* the cuda backend cannot run here (no library, no
                             driver, no device, cuBLAS failing to start): err is
                             the one-line reason */
    CALIB_CANCELLED = -3  /* the cancel flag was set */
} calib_status;

/* Seconds on CLOCK_MONOTONIC (the one monotonic clock of the program:
 * calib, the explorer and the CLI time with it). */
double calib_now_s(void);

/* --- measurements --------------------------------------------------- */

typedef enum calib_backend {
    CALIB_BACKEND_AUTO = 0, /* cuda when a GPU is usable, else cpu */
    CALIB_BACKEND_CUDA,
    CALIB_BACKEND_CPU
} calib_backend;

typedef enum calib_point_kind {
    CALIB_POINT_PREFILL = 0, /* one layer's GEMMs, batch b x seq s tokens */
    CALIB_POINT_DECODE,      /* one layer's GEMMs for `batch` tokens, seq 1 */
    CALIB_POINT_COPY         /* a device (or host) memory copy; flops 0 */
} calib_point_kind;

/* One timed measurement (the median of the repeats). */
typedef struct calib_point {
    calib_point_kind kind;
    int hidden;     /* h (0 for a copy) */
    int batch;      /* b (decode: the number of tokens) */
    int seq;        /* s (decode: 1) */
    double flops;   /* FLOPs of the measured work */
    double bytes;   /* minimum bytes moved (operands read + result written;
                       a copy counts read + write) */
    double time_s;  /* median seconds */
} calib_point;

/* One communication measurement: `bytes` sent one way, median seconds. */
typedef struct calib_comm_point {
    double bytes;
    double time_s;
} calib_comm_point;

/* What the backend reports about the device. */
typedef struct calib_device {
    char backend[16];          /* "cuda" or "cpu" */
    char name[ENGINE_NAME_MAX];/* as the driver (or /proc/cpuinfo) names it */
    int index;                 /* CUDA device index; 0 for cpu */
    int count;                 /* GPUs visible (cpu: 0) */
    int sm_count;              /* multiprocessors (cpu: threads used) */
    int cc_major, cc_minor;    /* compute capability */
    int clock_khz;             /* peak SM clock */
    int mem_clock_khz;
    int bus_width_bits;
    int driver_version;        /* e.g. 12040 */
    int runtime_version;
    double memory_bytes;       /* device memory */
    char dtype[8];             /* GEMM element type: "fp16", "bf16", "fp32" */
} calib_device;

/* --- per-kernel measurements (schema 2) ------------------------------ */

/* What a kernel point measured. */
typedef enum calib_kclass {
    CALIB_K_GEMM = 0, /* a model-shaped GEMM (op: qkv, out, gate_up, down,
                         expert_gate_up, expert_down; grouped_gate_up and
                         grouped_down: batch experts in one grouped call) */
    CALIB_K_GEMV,     /* one token through a weight of n x k (4 MB .. 1 GB) */
    CALIB_K_COPY,     /* a device-to-device (CPU: memcpy) copy; bytes read + written */
    CALIB_K_ATTN,     /* the attention proxy: batched GEMMs QK^T and PV */
    CALIB_K_LAUNCH,   /* a tiny kernel launched eagerly: the host's launch cost */
    CALIB_K_GRAPH,    /* the same kernels replayed in a CUDA graph: the GPU's floor */
    CALIB_K_COUNT
} calib_kclass;

/* One timed kernel (median of its repeats).  GEMMs are row-major
 * C[m x n] = A[m x k] W[k x n], `batch` of them in one call (attention;
 * 1 otherwise); launch points time `batch` kernels and time_s is per kernel. */
typedef struct calib_kpoint {
    calib_kclass cls;
    char op[16];
    char dtype[8];   /* "fp16", "bf16", "fp8", "fp32" */
    int tp;          /* the TP degree whose shard this is (0: not a model shape) */
    int m, n, k, batch;
    int calls;       /* library calls the point made: 1, or batch where the
                        library has no batched GEMM (the CPU); each pays t0 */
    double flops;    /* of the whole call */
    double bytes;    /* minimum bytes moved */
    double time_s;
} calib_kpoint;

/* The per-kernel fit: every GEMM, GEMV and attention point with the
 * engine's form t = max(F / (peak * eff * eta_shape) + W / pack_bw, B / bw)
 * + t0 * calls (eta_shape: engine_gemm_shape_eta on `sm` multiprocessors; 1
 * on a CPU; W: a GEMM's weight bytes, which a CPU's level-3 BLAS packs
 * before its kernel runs - OpenBLAS driver/level3/level3.c - so the two
 * add; 0 for a GEMV and on a GPU, where pack_bw is not fitted),
 * the small-kernel floor and launch cost as the medians of their points;
 * mape over all of them (one combined fit). */
typedef struct calib_per_kernel {
    double peak_flops;       /* the roof eff is relative to */
    double gemm_efficiency;
    double bw_bytes_per_s;
    double t0_s;
    double small_kernel_s;
    double launch_s;
    double copy_bytes_per_s; /* the copy plateau (read + write), not in the fit */
    double mape;
    int points;
    int sm;
    double peak_flops_fp8;   /* input: the roof of fp8 points (0: 2 x peak_flops) */
    double gemm_efficiency_fp8; /* fp8 points' own efficiency (0: none measured) */
    double mape_fp8;         /* over the fp8 points */
    int fp8_points;
    double mape_bf16;        /* the bf16 points against the (fp16) fit; not in it */
    int bf16_points;
    int packs;               /* input: 1 when GEMM points pack their weights
                                first (a CPU's level-3 BLAS): pack_bytes_per_s
                                is fitted; 0 (GPU): it stays 0 */
    double pack_bytes_per_s; /* the packing rate (B/s); 0: no packing term */
    /* CPU: the last-level cache (bytes; 0 none).  A point whose bytes per
     * call fit in it streams from the cache, faster than any bandwidth the
     * weights stream at: it is left out of the fit (still in every MAPE). */
    double cache_bytes;
    int n_cache_excluded;
    /* CPU: one core's L2 (bytes; 0 none).  A level-3 BLAS call whose
     * weights per GEMM (n x k of one batch entry or expert) fit in half of
     * it - the share the Goto blocking gives its packed block (Goto and
     * van de Geijn, "Anatomy of High-Performance Matrix Multiplication",
     * ACM TOMS 34(3), 2008, sect. 6) - reads them once at the streaming
     * rate: W / bw replaces W / pack_bytes_per_s for those points. */
    double l2_bytes;
    /* CPU: the SGEMM micro-kernel's register-tile width on the token side
     * (input; 0: none).  A row-major C[m x n] = A[m x k] W[k x n] is the
     * column-major W^T A^T, so the m tokens are the kernel's N side, padded
     * up to whole tiles: a level-3 call (m n k >= CALIB_SGEMM_DIRECT_MNK)
     * counts ceil(m / unroll_n) * unroll_n tokens of FLOPs
     * (calib_kpoint_flops).  Set by calib_blas_unroll_n. */
    double unroll_n;
    double class_mape[CALIB_K_COUNT];
    int class_n[CALIB_K_COUNT];
} calib_per_kernel;

/* Fit pk from the points (pk->peak_flops, pk->sm and pk->packs set by the caller;
 * peak 0: the best measured GEMM rate).  At least 3 GEMM/GEMV points.
 * 0, or -1 with err ("per-kernel fit: ..."). */
int calib_fit_per_kernel(const calib_kpoint *pts, int n, calib_per_kernel *pk,
                         engine_error *err);
/* The fit's prediction for one point (launch/graph: the constant; copy:
 * bytes / copy_bytes_per_s). */
double calib_per_kernel_predict(const calib_per_kernel *pk, const calib_kpoint *p);
/* The point of class cls among pts[0..n) with the largest relative error
 * of the fit (|predicted / measured - 1|): its index, the signed error into
 * *err (may be NULL); -1 when the class has no timed point. */
int calib_per_kernel_worst(const calib_per_kernel *pk, const calib_kpoint *pts, int n,
                           calib_kclass cls, double *err);
/* FLOPs and minimum bytes of a GEMM point (elem bytes per element). */
void calib_kpoint_cost(calib_kpoint *p, double elem);
/* OpenBLAS 0.3.21 (Debian bookworm's libopenblas0) interface/gemm.c hands
 * a row-major, untransposed, alpha 1, beta 0 sgemm on an AVX-512 core to
 * its direct kernel - no packing, no register tiles - when
 * kernel/x86_64/sgemm_direct_performant.c allows it: m n k under
 * 28 x 512 x 512 (engine.h).  Larger calls take the level-3 path. */
#define CALIB_SGEMM_DIRECT_MNK ENGINE_SGEMM_DIRECT_MNK
/* The FLOPs p's kernel computes under pk: p->flops, or with pk->unroll_n >
 * 1 and a level-3 call (one GEMM's m n k >= CALIB_SGEMM_DIRECT_MNK) its
 * tokens rounded up to whole multiples of unroll_n. */
double calib_kpoint_flops(const calib_per_kernel *pk, const calib_kpoint *p);
const char *calib_kclass_name(calib_kclass c);
/* 1 when p is a grouped expert GEMM (op "grouped_gate_up" / "grouped_down":
 * `batch` experts of one shape, m tokens each, in one grouped call - or
 * `calls` GEMMs where the library has none). */
int calib_kpoint_grouped(const calib_kpoint *p);

/* The model-shaped sweep plan: the GEMM shapes of m at each TP degree
 * 1, 2, 4, 8 up to max_tp that divides its heads, at each token count of
 * tokens[] (MoE experts at the per-expert counts tokens * top_k / experts,
 * at least 1, one expert a GEMM; then, 16-bit only, the grouped expert
 * GEMMs of each step: batch = the experts it touches, m = tokens each), in
 * dtype.  Writes up to cap points (time 0), returns how
 * many the plan has (may exceed cap). */
int calib_plan_gemms(const engine_model *m, int max_tp, const int *tokens, int n_tokens,
                     const char *dtype, double elem, calib_kpoint *out, int cap);

/* The BLAS the CPU backend times (OpenBLAS, loaded with dlopen: the binary
 * never links it).  Row-major cblas calls; enums as int (CblasRowMajor 101,
 * CblasNoTrans 111). */
typedef struct calib_blas_api {
    void (*sgemm)(int order, int ta, int tb, int m, int n, int k, float alpha,
                  const float *a, int lda, const float *b, int ldb, float beta, float *c,
                  int ldc);                               /* cblas_sgemm */
    void (*sgemv)(int order, int ta, int m, int n, float alpha, const float *a, int lda,
                  const float *x, int incx, float beta, float *y, int incy); /* cblas_sgemv */
    char *(*get_config)(void);                            /* openblas_get_config, optional */
    void (*set_num_threads)(int n);                       /* openblas_set_num_threads, optional */
    char *(*get_corename)(void);                          /* openblas_get_corename, optional */
} calib_blas_api;

/* The OpenBLAS table, loaded once (libopenblas.so.0, or the file named by
 * $SHARDSCOPE_OPENBLAS when set): NULL with err saying how to install it
 * ("... apt-get install libopenblas0 ..."). */
const calib_blas_api *calib_blas_load(engine_error *err);
/* The library's name and version ("OpenBLAS 0.3.21") into buf. */
void calib_blas_version(const calib_blas_api *b, char *buf, size_t len);
/* The SGEMM micro-kernel's N (token) width of the core b runs on
 * (openblas_get_corename): SGEMM_DEFAULT_UNROLL_N = 4 for x86-64 Haswell,
 * Zen, SkylakeX, Cooperlake and SapphireRapids (OpenBLAS param.h @v0.3.21);
 * 0 for any other core, an unknown name or b NULL (no padding modelled). */
int calib_blas_unroll_n(const calib_blas_api *b);

/* --- fits ------------------------------------------------------------ */

typedef struct calib_power_law {
    double a;       /* seconds */
    double beta;
    double mape;    /* mean |pred - T| / T, a fraction */
    double r2;      /* of ln T (log space) */
    int n;          /* points used */
} calib_power_law;

/* How compute and memory time combine in one point. */
typedef enum calib_roofline_form {
    CALIB_ROOFLINE_MAX = 0,  /* max(compute, memory): the classic roofline */
    CALIB_ROOFLINE_ENGINE    /* engine_roofline_s(compute, memory): what the
                                engine uses (compute + memory: the kernels of
                                a layer do not hide each other) */
} calib_roofline_form;

typedef struct calib_roofline {
    calib_roofline_form form; /* what calib_roofline_predict evaluates */
    double peak_flops;     /* the peak eta_compute is relative to */
    double bandwidth;      /* the bandwidth eta_memory is relative to, B/s */
    double eta_compute;
    double eta_memory;
    double overhead_s;     /* fixed seconds per point (one layer) */
    double mape;           /* fraction, over the points used */
    double r2;             /* of ln T (log space) */
    int n;
    int n_compute_bound;   /* points the fit puts on the compute roof */
    int eta_memory_bound_only; /* 1: no point was memory-bound: eta_memory
                                  is only a lower bound */
    int eta_compute_bound_only;
    /* The fit without the eta <= 1 constraint (equal to the above unless
     * a *_clamped flag is set). */
    double eta_compute_free;
    double eta_memory_free;
    double overhead_free_s;
    int eta_compute_clamped;   /* 1: the free fit had eta_compute > 1 */
    int eta_memory_clamped;    /* 1: the free fit had eta_memory > 1 */
    int n_memory_excluded;     /* points kept out of the eta_memory fit
                                  (calib_roofline_opts.memory_excluded);
                                  still in mape and r2 */
} calib_roofline;

/* Options of calib_fit_roofline_ex (NULL: none excluded, eta <= 1). */
typedef struct calib_roofline_opts {
    /* n flags, may be NULL: 1 = this point's bytes came from a cache faster
     * than the bandwidth roof (a CPU's weights resident in a cache level the
     * reference copy does not fit in).  Such points are left out of the
     * fit when at least 3 points of different work remain, else fitted as
     * compute + overhead only (their bytes ignored); either way mape and r2
     * still include them, predicted with their real bytes as the engine
     * would. */
    const unsigned char *memory_excluded;
    int allow_eta_above_one; /* 1: store the free fit even when eta > 1 */
    calib_roofline_form form; /* default CALIB_ROOFLINE_MAX */
} calib_roofline_opts;

typedef struct calib_alpha_beta {
    double alpha_s;
    double bandwidth;  /* bytes/s */
    double r2;         /* of T (linear space, as the seed reports it) */
    double mape;
    int n;
} calib_alpha_beta;

/* Power law over the points whose kind is PREFILL (x = h^2*b*s).  At least
 * two points with distinct x, every x and T positive and finite.
 * 0 ok, -1 with err ("power law: ..."). */
int calib_fit_power_law(const calib_point *pts, int n, calib_power_law *out,
                        engine_error *err);
double calib_power_law_predict(const calib_power_law *f, double x);

/* Roofline over every point (flops >= 0, bytes >= 0, not both 0; T > 0,
 * finite; at least 3 points).  peak_flops and bandwidth > 0.  This call
 * fits the classic max() form; calib_fit_roofline_ex with
 * CALIB_ROOFLINE_ENGINE fits the engine's (calib_result_fit does; its
 * least-squares start is then the additive solve).  The fit
 * minimises the mean absolute relative error (the reported mape): every
 * split of the points into compute- and memory-bound (by their F/B ratio)
 * is solved as a weighted linear least squares problem in relative error
 * (eta > 0, overhead >= 0; exact data is recovered exactly), the best split
 * is polished on the max model, then the MAPE itself is minimised from
 * there (Nelder-Mead and a coordinate search in log-parameter space).
 * The stored etas are constrained to (0, 1]: when the free fit exceeds 1
 * the constrained optimum is stored, the free one kept in eta_*_free with
 * eta_*_clamped set.  The overhead is per point, i.e. per layer: every
 * point is one layer of 4 GEMMs, so a per-GEMM launch overhead is
 * overhead_s / 4 (the same fit).  0 ok, -1 with err ("roofline: ..."). */
int calib_fit_roofline(const calib_point *pts, int n, double peak_flops,
                       double bandwidth, calib_roofline *out,
                       engine_error *err);
/* The same with options (opts may be NULL). */
int calib_fit_roofline_ex(const calib_point *pts, int n, double peak_flops,
                          double bandwidth, const calib_roofline_opts *opts,
                          calib_roofline *out, engine_error *err);
double calib_roofline_predict(const calib_roofline *f, double flops,
                              double bytes);

/* Alpha-beta (weighted by 1/T^2 so small messages fix alpha): at least two
 * distinct sizes, sizes and times positive and finite.  0 / -1 with err. */
int calib_fit_alpha_beta(const calib_comm_point *pts, int n,
                         calib_alpha_beta *out, engine_error *err);

/* The layer GEMMs of the sweep: FLOPs and minimum bytes of one layer with
 * hidden h over `tokens` rows, elements of `elem` bytes (QKV h->3h, out
 * h->h, up h->4h, down 4h->h: 24*tokens*h^2 FLOPs). */
void calib_layer_cost(int hidden, int tokens, double elem, double *flops,
                      double *bytes);

/* --- the whole run ------------------------------------------------------ */

/* Called from the measuring thread with the fraction done (0..1) and a
 * short label of the current step. */
typedef void (*calib_progress_fn)(void *ctx, double fraction,
                                  const char *step);

/* The CUDA runtime and cuBLAS calls of the cuda backend, one member per
 * call (the backend makes no other).  The real table is loaded with dlopen
 * at calibration time (calib/backend/cuda.c: libcudart.so, .so.13, .12,
 * .11.0, .11, then libcublas of the same major first), so the binary
 * never links CUDA; a test passes its own table (calib_opts.cuda) to reach
 * the no-GPU, no-cuBLAS and out-of-memory paths without a GPU.  Every
 * member is required except error_string and error_name (NULL: a built-in
 * text for the common codes).  Returns are the cudaError_t /
 * cublasStatus_t codes as int (0 = success); handles, events and streams
 * are opaque pointers (stream NULL = the default stream); enums are passed
 * as int with the values of the CUDA headers (CALIB_CUDA_*). */
enum {
    CALIB_CUDA_MEMCPY_H2D = 1,      /* cudaMemcpyHostToDevice */
    CALIB_CUDA_MEMCPY_D2D = 3,      /* cudaMemcpyDeviceToDevice */
    CALIB_CUDA_ATTR_CLOCK_KHZ = 13, /* cudaDevAttrClockRate */
    CALIB_CUDA_ATTR_SM_COUNT = 16,  /* cudaDevAttrMultiProcessorCount */
    CALIB_CUDA_ATTR_MEM_CLOCK_KHZ = 36, /* cudaDevAttrMemoryClockRate */
    CALIB_CUDA_ATTR_BUS_WIDTH = 37, /* cudaDevAttrGlobalMemoryBusWidth */
    CALIB_CUDA_ATTR_CC_MAJOR = 75,  /* cudaDevAttrComputeCapabilityMajor */
    CALIB_CUDA_ATTR_CC_MINOR = 76,  /* cudaDevAttrComputeCapabilityMinor */
    /* Bytes of the buffer get_device_properties fills (struct
     * cudaDeviceProp is about 1 KiB; only `name`, its first 256 bytes, is
     * read). */
    CALIB_CUDA_PROP_BYTES = 8192
};

typedef struct calib_cuda_api {
    /* CUDA runtime */
    int (*get_device_count)(int *count);               /* cudaGetDeviceCount */
    int (*set_device)(int device);                     /* cudaSetDevice */
    int (*get_device_properties)(void *prop, int device); /* cudaGetDeviceProperties */
    int (*device_get_attribute)(int *value, int attr, int device); /* cudaDeviceGetAttribute */
    int (*mem_get_info)(size_t *free_bytes, size_t *total_bytes); /* cudaMemGetInfo */
    int (*driver_get_version)(int *version);           /* cudaDriverGetVersion */
    int (*runtime_get_version)(int *version);          /* cudaRuntimeGetVersion */
    int (*mem_alloc)(void **ptr, size_t bytes);        /* cudaMalloc */
    int (*mem_free)(void *ptr);                        /* cudaFree */
    int (*mem_copy)(void *dst, const void *src, size_t bytes, int kind); /* cudaMemcpy */
    int (*mem_copy_async)(void *dst, const void *src, size_t bytes, int kind,
                          void *stream);               /* cudaMemcpyAsync */
    int (*mem_set)(void *ptr, int value, size_t bytes);  /* cudaMemset */
    int (*event_create)(void **event);                 /* cudaEventCreate */
    int (*event_destroy)(void *event);                 /* cudaEventDestroy */
    int (*event_record)(void *event, void *stream);    /* cudaEventRecord */
    int (*event_synchronize)(void *event);             /* cudaEventSynchronize */
    int (*event_elapsed_ms)(float *ms, void *start, void *end); /* cudaEventElapsedTime */
    int (*stream_create)(void **stream);               /* cudaStreamCreate */
    int (*stream_destroy)(void *stream);               /* cudaStreamDestroy */
    int (*stream_synchronize)(void *stream);           /* cudaStreamSynchronize */
    const char *(*error_string)(int code);             /* cudaGetErrorString */
    const char *(*error_name)(int code);               /* cudaGetErrorName */
    /* cuBLAS */
    int (*blas_create)(void **handle);                 /* cublasCreate_v2 */
    int (*blas_destroy)(void *handle);                 /* cublasDestroy_v2 */
    int (*blas_gemm_ex)(void *handle, int transa, int transb, int m, int n, int k,
                        const void *alpha, const void *a, int a_type, int lda,
                        const void *b, int b_type, int ldb, const void *beta, void *c,
                        int c_type, int ldc, int compute_type, int algo); /* cublasGemmEx */
    /* Optional (the per-kernel sweep's attention proxy and launch points;
     * a table without them skips those points with a note). */
    int (*blas_gemm_strided_batched_ex)(void *handle, int transa, int transb, int m, int n,
                                        int k, const void *alpha, const void *a, int a_type,
                                        int lda, long long stride_a, const void *b, int b_type,
                                        int ldb, long long stride_b, const void *beta, void *c,
                                        int c_type, int ldc, long long stride_c, int batch,
                                        int compute_type, int algo); /* cublasGemmStridedBatchedEx */
    int (*mem_set_async)(void *ptr, int value, size_t bytes, void *stream); /* cudaMemsetAsync */
    int (*stream_begin_capture)(void *stream, int mode);  /* cudaStreamBeginCapture */
    int (*stream_end_capture)(void *stream, void **graph); /* cudaStreamEndCapture */
    int (*graph_instantiate)(void **exec, void *graph, unsigned long long flags);
                                                       /* cudaGraphInstantiateWithFlags */
    int (*graph_launch)(void *exec, void *stream);     /* cudaGraphLaunch */
    int (*graph_exec_destroy)(void *exec);             /* cudaGraphExecDestroy */
    int (*graph_destroy)(void *graph);                 /* cudaGraphDestroy */
    /* Optional (cuBLAS 12.5 and later): the MoE experts' grouped GEMMs in
     * one call; transa .. ldc and group_size are host arrays of group_count
     * entries, alpha / beta host floats per group (FP32 compute), a / b / c
     * device arrays of device pointers, one per GEMM of every group.  A
     * table without it times those points as a loop of blas_gemm_ex. */
    int (*blas_gemm_grouped_batched_ex)(void *handle, const int *transa, const int *transb,
                                        const int *m, const int *n, const int *k,
                                        const void *alpha, const void *const *a, int a_type,
                                        const int *lda, const void *const *b, int b_type,
                                        const int *ldb, const void *beta, void *const *c,
                                        int c_type, const int *ldc, int group_count,
                                        const int *group_size, int compute_type);
                                                       /* cublasGemmGroupedBatchedEx */
    /* Optional, cublasLt (libcublasLt): the fp8 GEMMs (E4M3 x E4M3, bf16 out,
     * FP32 accumulation, per-tensor scale pointers), timed where the GPU has
     * FP8 tensor cores (compute capability 8.9 or later); a table without
     * them skips the fp8 points with a note. */
    int (*lt_create)(void **handle);                   /* cublasLtCreate */
    int (*lt_destroy)(void *handle);                   /* cublasLtDestroy */
    int (*lt_desc_create)(void **desc, int compute_type, int scale_type);
                                                       /* cublasLtMatmulDescCreate */
    int (*lt_desc_destroy)(void *desc);                /* cublasLtMatmulDescDestroy */
    int (*lt_desc_set)(void *desc, int attr, const void *buf, size_t bytes);
                                                       /* cublasLtMatmulDescSetAttribute */
    int (*lt_layout_create)(void **layout, int type, unsigned long long rows,
                            unsigned long long cols, long long ld);
                                                       /* cublasLtMatrixLayoutCreate */
    int (*lt_layout_destroy)(void *layout);            /* cublasLtMatrixLayoutDestroy */
    int (*lt_matmul)(void *handle, void *desc, const void *alpha, const void *a, void *adesc,
                     const void *b, void *bdesc, const void *beta, const void *c, void *cdesc,
                     void *d, void *ddesc, const void *algo, void *workspace, size_t ws_bytes,
                     void *stream);                    /* cublasLtMatmul */
} calib_cuda_api;

/* The NCCL calls of the collectives sweep (loaded with dlopen from
 * libnccl.so.2; a test passes its own through calib_opts.nccl).  Results
 * are ncclResult_t as int (0 success), communicators and streams opaque,
 * data types and ops as the nccl.h values (ncclFloat32 7, ncclSum 0).
 * all_gather, send and recv may be NULL (that sweep is skipped, said);
 * error_string may be NULL.  now_s is the host clock the grouped
 * collectives are timed on (nccl-tests times its loop on the host's wall
 * clock after a stream synchronisation): NULL, the loaded library's case,
 * is calib_now_s (CLOCK_MONOTONIC); a test's fake passes a modelled clock
 * so that its times, and the fits over them, do not depend on the load. */
typedef struct calib_nccl_api {
    int (*comm_init_all)(void **comms, int ndev, const int *devs);    /* ncclCommInitAll */
    int (*all_reduce)(const void *send, void *recv, size_t count, int dtype, int op,
                      void *comm, void *stream);                      /* ncclAllReduce */
    int (*all_gather)(const void *send, void *recv, size_t send_count, int dtype, void *comm,
                      void *stream);                                  /* ncclAllGather */
    int (*send)(const void *buf, size_t count, int dtype, int peer, void *comm,
                void *stream);                                        /* ncclSend */
    int (*recv)(void *buf, size_t count, int dtype, int peer, void *comm,
                void *stream);                                        /* ncclRecv */
    int (*group_start)(void);                                         /* ncclGroupStart */
    int (*group_end)(void);                                           /* ncclGroupEnd */
    int (*comm_destroy)(void *comm);                                  /* ncclCommDestroy */
    const char *(*error_string)(int result);                          /* ncclGetErrorString */
    double (*now_s)(void);                                            /* NULL: calib_now_s */
} calib_nccl_api;

typedef struct calib_opts {
    calib_backend backend;
    int device;       /* CUDA device index */
    int quick;        /* smaller grid, fewer repeats */
    int skip_comm;    /* 1: no communication sweep */
    /* GPU presets (borrowed; may be NULL): the device is matched to one by
     * name, and its datasheet peak FP16 FLOP/s and HBM bandwidth are the
     * roofs eta_* are relative to (what the engine multiplies). */
    const engine_gpu *gpus;
    int n_gpus;
    calib_progress_fn progress; /* may be NULL */
    void *progress_ctx;
    const atomic_int *cancel;   /* may be NULL; nonzero: stop soon */
    const calib_cuda_api *cuda; /* NULL: the real table (dlopen'd); else a
                                   complete table (tests' fakes) */
    const calib_nccl_api *nccl; /* NULL: libnccl (dlopen'd); else this table */
    /* The per-kernel sweep (schema 2): the model whose shapes are measured
     * (borrowed; NULL: no per-kernel sweep), the largest TP degree (0: 8,
     * 4 on the CPU under --quick) and the most tokens (0: 16384 on a GPU, 2048 on
     * the CPU; --quick: 4096 / 256). */
    const engine_model *model;
    int max_tp;
    int max_tokens;
} calib_opts;

void calib_opts_defaults(calib_opts *o);

/* The wall time of each phase of calib_run, seconds (0: not run).  The
 * per-kernel classes sum the timed runs of their points, warm-ups
 * included (on the CPU's round-robin passes too); layer_grid is the rest
 * of the backend's measurement: the layer sweep and the device's and
 * library's setup; collectives the NCCL sweeps or the loopback; fit every
 * fit of calib_result_fit. */
typedef struct calib_phase_times {
    double layer_grid_s, gemm_s, gemm_fp8_s, grouped_s, gemv_s, copy_s, attention_s, launch_s,
        collectives_s, fit_s;
} calib_phase_times;

typedef struct calib_result {
    calib_device dev;
    char date[32];                 /* ISO 8601 UTC, e.g. 2026-11-29T09:00:00Z */
    char preset[ENGINE_NAME_MAX];  /* matched GPU preset; "" none (cpu) */
    char peak_source[160];         /* where peak_flops/bandwidth came from */
    char notes[256];               /* e.g. "auto: no usable GPU (...), CPU" */
    calib_point *points;           /* owned */
    int n_points;
    double best_gemm_flops;        /* best achieved FLOP/s of any point */
    double peak_flops_fp8;         /* the fp8 roof (preset's FP8 peak, else 2 x
                                      the 16-bit estimate; 0 on a CPU) */
    double copy_bandwidth;         /* measured copy B/s (read + write) */
    calib_power_law power_law;
    int has_power_law;
    char power_law_error[ENGINE_ERROR_MAX];
    calib_roofline roofline;       /* always set when calib_run succeeds */
    double roofline_mape_prefill;  /* roofline MAPE on the prefill points */
    double roofline_mape_decode;   /* roofline MAPE on the decode points */
    /* The classic max() roofline fitted to the same points, for comparison
     * (the engine uses r->roofline). */
    calib_roofline roofline_max;
    int has_roofline_max;
    /* CPU only: the largest data cache the reference copy does not fit in
     * (bytes; 0 unknown or GPU) and its name ("L2").  A GEMM point whose
     * bytes fit in it streams from that cache, faster than the bandwidth
     * roof: it is kept out of the eta_memory fit (still in every MAPE). */
    double cpu_cache_bytes;
    char cpu_cache_name[8];
    double cpu_l2_bytes;           /* CPU: cpu0's L2 (sysfs; 0 unknown or GPU) */
    double cpu_unroll_n;           /* CPU: calib_blas_unroll_n of the BLAS timed (0: none) */
    /* What the fit did beyond the plain least squares, one sentence each
     * (points kept out of eta_memory, an eta clamped to 1); "" none. */
    char roofline_note[512];
    double power_law_mape_all;     /* power law MAPE on prefill + decode */
    /* Communication; comm_label "" when not measured. */
    char comm_label[64];           /* "NCCL AllReduce (2 GPUs)",
                                      "loopback (2 local processes)" */
    calib_comm_point *comm;        /* owned */
    int n_comm;
    calib_alpha_beta comm_fit;
    int has_comm_fit;
    char comm_error[ENGINE_ERROR_MAX];
    /* Point-to-point (NCCL send/recv between two GPUs, nccl-tests
     * sendrecv conventions: bytes = the message, algbw = busbw =
     * bytes / time); p2p_label "" when not measured.  p2p_error says why
     * it was not (or could not be fitted) when the all-reduce was. */
    char p2p_label[64];            /* "NCCL send/recv (GPU 0 -> GPU 1)" */
    calib_comm_point *p2p;         /* owned */
    int n_p2p;
    calib_alpha_beta p2p_fit;
    int has_p2p_fit;
    char p2p_error[ENGINE_ERROR_MAX];
    /* NCCL all-gather and all-to-all over coll_gpus GPUs (nccl-tests
     * conventions: bytes = the buffer per GPU, busbw = bytes / time *
     * (n - 1) / n); empty when not measured (one GPU, no NCCL), coll_note
     * says why a measured run lacks one. */
    calib_comm_point *allgather;   /* owned */
    int n_allgather;
    calib_comm_point *alltoall;    /* owned */
    int n_alltoall;
    int coll_gpus;                 /* GPUs of the NCCL collectives (0: none) */
    char coll_note[256];
    /* Schema 2: the per-kernel sweep (n_kpoints 0 when not run). */
    int schema;                    /* of a loaded file; CALIB_SCHEMA when measured */
    char library[64];              /* what was timed: "OpenBLAS 0.3.21", "cuBLAS 13.0" */
    char model[ENGINE_NAME_MAX];   /* the model whose shapes were measured */
    calib_kpoint *kpoints;         /* owned */
    int n_kpoints;
    calib_per_kernel per_kernel;
    int has_per_kernel;
    char kernel_note[512];         /* what the sweep left out and why */
    char load_note[256];           /* reading an older file: what it lacks */
    double planned_s;              /* the sweep's planned measuring time */
    double wall_s;                 /* the whole run's wall time */
    calib_phase_times phases;      /* where that time went (has_phases) */
    int has_phases;
} calib_result;

/* Timed runs of a CPU per-kernel point whose first run took t seconds
 * (its fastest is kept): 5 under 20 ms, the short, memory-bound points a
 * neighbour's memory traffic disturbs most; 3 under 100 ms; 2 above.  With
 * one run a long point kept its one, loaded, time while the short ones
 * kept their fastest: under load the fit leaned on inflated packing and
 * compute rates and overshot the short points (three pairs of runs at load
 * 4.8-5.8: per_kernel.mape 6.46 / 5.19 / 5.24 % with one run, 5.67 / 4.45 /
 * 4.74 % with two; about 2 s more of a quiet --quick llama-3-8b run). */
int calib_cpu_runs(double t);

/* The calibration file's schema written now; files of schema 1 load with
 * a note (no per-kernel fit), newer ones are refused. */
#define CALIB_SCHEMA 2

/* Append a kernel point (grows the owned array).  0, -1 on OOM. */
int calib_result_add_kpoint(calib_result *r, const calib_kpoint *p);

/* Measure and fit.  On success returns CALIB_OK and fills *out (free with
 * calib_result_free).  Returns CALIB_ERR with err on failure,
 * CALIB_NO_GPU when o->backend == CUDA cannot run here (no CUDA library,
 * no GPU, no driver, cuBLAS failing: err is the one-line reason),
 * CALIB_CANCELLED when cancelled.  With AUTO and no usable GPU, the cpu
 * backend runs and out->notes says why.  *out is always safe to free. */
calib_status calib_run(const calib_opts *o, calib_result *out, engine_error *err);
void calib_result_free(calib_result *r);

/* Fill the fits of r from r->points / r->comm / r->p2p (calib_run does
 * this; exposed for tests and for refitting a loaded file).  0 / -1 with
 * err when the roofline cannot be fitted. */
int calib_result_fit(calib_result *r, engine_error *err);

/* The fitted roofline as the engine wants it (measured = 1), with the
 * per-kernel fit, its GEMM tables and the NCCL collectives' curves. */
void calib_result_to_engine(const calib_result *r, engine_calib *out);
/* r's NCCL series (all-reduce over dev.count GPUs, send/recv, all-gather
 * and all-to-all over coll_gpus) into out->comm as engine curves; nothing
 * for the loopback. */
void calib_comm_to_engine(const calib_result *r, engine_calib *out);

/* --- the plan: what a run measures and how long it takes (plan.c) ------ */

enum { CALIB_PLAN_NAME = 40, CALIB_PLAN_MAX_PHASES = 48 };

/* One phase of a run: its timed kernels (points), their warm-up and repeat
 * counts (warmup -2: it varies; -1: no kernel), the kernel runs (warm-ups +
 * repeats; an NCCL call counts its operations) and the predicted seconds:
 * device (the kernels) and host (per-measurement costs, setup). */
typedef struct calib_plan_phase {
    char name[CALIB_PLAN_NAME];  /* "layer grid", "model GEMMs fp16 TP2", ... */
    char slot[16];               /* the calib_phase_times it counts in, as its
                                    phases_s key: layer_grid, gemm, gemm_fp8,
                                    grouped_moe, gemv, copy, attention, launch,
                                    collectives (the fit is not planned) */
    int kernels, warmup, reps_min, reps_max, runs;
    int m_min, m_max;            /* model GEMMs: the token counts (0: none) */
    double device_s, host_s, total_s;
} calib_plan_phase;

typedef struct calib_plan {
    char backend[8];             /* "cuda" or "cpu" */
    char device[ENGINE_NAME_MAX];/* the GPU preset, or "CPU" */
    char model[ENGINE_NAME_MAX]; /* "" without a per-kernel sweep */
    int quick, max_tp, max_tokens, gpus;
    calib_plan_phase phase[CALIB_PLAN_MAX_PHASES];
    int n_phases;
    int kernels;                 /* timed points in all: what the run measures
                                    (layer points + per-kernel points + comm sizes) */
    double device_s, host_s, total_s;
    char assumptions[1024];
} calib_plan;

/* The plan of a calibration run with options o (quick, skip_comm, model,
 * max_tp, max_tokens) on GPU preset g (NULL: the CPU backend) with `gpus`
 * GPUs (>= 2 and a link: the NCCL sweeps at engine_comm_time on it; else
 * the loopback).  The counts are the sweep code's own (grid.c,
 * calib_kplan_build); the times the engine's kernel model of g (the CPU:
 * the backend's rough rates).  0, or -1 with err. */
int calib_plan_build(const calib_opts *o, const engine_gpu *g, const engine_link *link,
                     int gpus, calib_plan *pl, engine_error *err);

/* --- JSON (result_json.c: one key table, both ways) ------------------- */

/* The result as JSON text (malloc'ed, free with free()): schema, backend,
 * device, date, preset, notes, device_info, points, power_law, roofline,
 * roofline_max, comm, comm_p2p and their notes.  NULL when out of
 * memory. */
char *calib_result_to_json(const calib_result *r);
/* The same text back into *out (free with calib_result_free): every field
 * calib_result_to_json writes, the fits as stored (nothing is refitted).
 * backend, device, date, preset and the roofline's etas and overhead are
 * checked as calib_store_load_file checks them, and every point; path
 * (may be NULL) names the text in errors.  0, or -1 with err. */
int calib_result_from_json(const char *text, const char *path, calib_result *out,
                           engine_error *err);

/* --- backends (used by calib_run; exposed for tests) ------------------ */

/* Number of usable CUDA devices through api (NULL: the real table, loaded
 * on first use): 0 with *count set, or -1 with err, one line (no CUDA
 * runtime library, no CUDA in this build, no driver, no GPU). */
int calib_cuda_probe(const calib_cuda_api *api, int *count,
                     engine_error *err);
/* The CUDA device o->device as a calibration would see it (name, SMs,
 * memory, count of visible GPUs), without measuring: 0, or -1 with err (no
 * library, no driver, no such device). */
int calib_cuda_describe(const calib_opts *o, calib_device *d, engine_error *err);
/* Run the GPU sweep; CALIB_OK, CALIB_NO_GPU when the GPU cannot be used at
 * all (no library, no device, no driver, cuBLAS failing to start: err is
 * the reason), CALIB_ERR on a runtime failure (out of device memory, a
 * failing GEMM), CALIB_CANCELLED.  Points are appended to r and r->dev is
 * filled. */
calib_status calib_cuda_measure(const calib_opts *o, calib_result *r,
                                engine_error *err);
/* The CPU sweep: CALIB_OK, CALIB_ERR (out of memory), CALIB_CANCELLED. */
calib_status calib_cpu_measure(const calib_opts *o, calib_result *r,
                               engine_error *err);

/* C = A * B, row-major, A m x k, B k x n, C m x n (overwritten), on
 * OpenBLAS (cblas_sgemm, one thread; calib_blas_load).  0, -1 when
 * OpenBLAS cannot be loaded. */
int calib_sgemm(int m, int n, int k, const float *a, const float *b,
                float *c);

/* Loopback between two local processes over a socketpair (fork): a
 * ping-pong per size, time = half the round trip; sizes 1 KiB .. max_bytes
 * in steps of 4x (at most CALIB_LOOPBACK_SIZES_MAX sizes).  A pass whose
 * times cannot be fitted (they do not grow with the size: a busy machine)
 * is measured again, up to CALIB_LOOPBACK_PASSES in all, each size keeping
 * its shortest time.  Appends to r->comm and sets r->comm_label to
 * "loopback (2 local processes)".  CALIB_OK, CALIB_ERR with err,
 * CALIB_CANCELLED. */
#define CALIB_LOOPBACK_SIZES_MAX 12 /* 1 KiB .. 4 GiB */
#define CALIB_LOOPBACK_PASSES 3
calib_status calib_comm_loopback(const calib_opts *o, size_t max_bytes,
                                 calib_result *r, engine_error *err);
/* Its two steps: best[i] = the shorter of best[i] (0: none yet) and
 * pass[i]; whether the times t[i] of sizes 1 KiB x 4^i fit alpha-beta. */
void calib_loopback_keep_min(double *best, const double *pass, int n);
int calib_loopback_fits(const double *t, int n);

/* Append a point / comm point / p2p point (grows the owned arrays). 0, -1
 * on OOM. */
int calib_result_add_point(calib_result *r, const calib_point *p);
int calib_result_add_comm(calib_result *r, double bytes, double time_s);
int calib_result_add_p2p(calib_result *r, double bytes, double time_s);
/* The same on any comm series (*pts, *n): grown to 16, then doubling. */
int calib_comm_append(calib_comm_point **pts, int *n, double bytes,
                      double time_s);

/* --- a communication sweep over message sizes ------------------------- */

/* One timed measurement of a collective or a transfer of `bytes`: 0 with
 * *seconds (> 0, finite) set, nonzero on failure.  The sweep calls it
 * spec->warmup times (untimed) then spec->reps times per size. */
typedef int (*calib_comm_op_fn)(void *ctx, size_t bytes, double *seconds);

enum { CALIB_COMM_MAX_REPS = 64 };

typedef struct calib_comm_sweep_spec {
    const char *label;  /* progress step and error prefix ("nccl send/recv") */
    size_t min_bytes;   /* first size (0: 1 KiB) */
    size_t max_bytes;   /* largest size, inclusive (>= min_bytes) */
    int factor;         /* each size is the previous times this (0: 4) */
    int warmup;         /* untimed calls per size (>= 0) */
    int reps;           /* timed calls per size, 1..CALIB_COMM_MAX_REPS */
} calib_comm_sweep_spec;

/* The size loop shared by the NCCL sweeps: for each size min, min*factor,
 * ... <= max, `warmup` calls of op, then `reps` timed ones whose median is
 * the size's time; progress to o (may be NULL) as sizes done / sizes,
 * cancellation checked before each size.  Points are appended to the
 * series (*pts, *n) - grown like calib_result's arrays, so r->comm / r->p2p
 * can be passed - only when every size succeeded.  CALIB_OK; CALIB_ERR
 * with err (a bad spec, op failing, a time not positive and finite, out of
 * memory) or CALIB_CANCELLED: then the series is untouched and nothing is
 * kept. */
calib_status calib_comm_sweep(const calib_opts *o,
                              const calib_comm_sweep_spec *spec,
                              calib_comm_op_fn op, void *ctx,
                              calib_comm_point **pts, int *n,
                              engine_error *err);

/* --- device -> preset --------------------------------------------------- */

/* The GPU preset a driver device name refers to ("NVIDIA H100 80GB HBM3"
 * -> "h100-sxm"), by tokens of the name, display name and memory size.
 * Returns the index into gpus, or -1 when nothing matches well enough. */
int calib_match_gpu_preset(const char *device, double memory_bytes,
                           const engine_gpu *gpus, int n_gpus);

/* --- store ------------------------------------------------------------- */

/* $XDG_CONFIG_HOME/shardscope/calibration (default
 * ~/.config/shardscope/calibration) into buf; NULL when neither
 * XDG_CONFIG_HOME nor HOME is set. */
const char *calib_store_dir(char *buf, size_t len);
/* The file name for a device: lower case, [a-z0-9-] only, ".json". */
void calib_store_file_name(const char *device, char *buf, size_t len);

/* Crash seam for tests: CALIB_STORE_STOP_AFTER_WRITE writes and fsyncs the
 * temporary file and returns before the rename (the old file stays). */
enum { CALIB_STORE_NORMAL = 0, CALIB_STORE_STOP_AFTER_WRITE = 1 };

/* Write r as JSON to `path` atomically: a temporary file in the same
 * directory ("<path>.tmp.<our pid>.XXXXXX"), fsync, rename, fsync of the
 * directory.  Missing directories are created.  Before writing, the
 * temporaries of that pattern in the directory whose PID is no longer
 * alive (kill(pid, 0) fails with ESRCH) are removed; a live writer's stay.
 * 0 / -1 with err naming the path. */
int calib_store_save(const calib_result *r, const char *path, int mode,
                     engine_error *err);
/* Save to calib_store_dir()/<device>.json; the path used goes to
 * path_out (may be NULL). */
int calib_store_save_default(const calib_result *r, char *path_out,
                             size_t path_len, engine_error *err);
/* The writer's PID in one of calib_store_save's temporary file names
 * ("x.json.tmp.<pid>.XXXXXX", no directory); 0 for any other name. */
long calib_store_tmp_pid(const char *name);

/* Read one saved calibration (any backend: this is an explicit request).
 * 0 ok, -1 with err naming the file and field. */
int calib_store_load_file(const char *path, engine_calib *out,
                          char *preset_out, size_t preset_len,
                          engine_error *err);

/* The calibration saved for a GPU preset: the newest file in dir (NULL:
 * calib_store_dir()) whose "preset" equals gpu_preset_name (case
 * insensitive) and whose backend is "cuda".  CPU results are never
 * applied to a GPU type.  Returns 1 when found (out filled), 0 when none
 * (out->measured = 0), -1 when a matching file is broken (err). */
int calib_store_load_for_gpu_in(const char *dir, const char *gpu_preset_name,
                                 engine_calib *out, engine_error *err);
/* Convenience: default dir, errors dropped (a broken file means "none"). */
int calib_store_load_for_gpu(const char *gpu_preset_name, engine_calib *out);

/* A saved calibration back as a calib_result (free with calib_result_free):
 * backend, device, date, preset, dtype, its points, and the fits as stored
 * (power_law, roofline, comm; nothing is refitted).  Points and power_law
 * may be absent (n_points 0, has_power_law 0); the roofline is checked as
 * calib_store_load_file checks it.  0 ok, -1 with err naming the file and
 * field. */
int calib_store_load_result(const char *path, calib_result *out,
                            engine_error *err);
/* The same for the file calib_store_load_for_gpu_in would apply to a GPU
 * preset (the newest "cuda" file naming it) in dir (NULL: the default);
 * its path goes to path_out (may be NULL).  1 found, 0 none, -1 broken
 * (err). */
int calib_store_load_result_for_gpu_in(const char *dir,
                                       const char *gpu_preset_name,
                                       calib_result *out, char *path_out,
                                       size_t path_len, engine_error *err);

/* --- worker thread (the explorer's `c` key) --------------------------- */

typedef struct calib_job calib_job;

/* Start calib_run(opts) in a pthread.  opts is copied (its model too); its
 * gpus array is borrowed and must outlive the job; opts->progress/cancel are replaced by
 * the job's own.  When save is nonzero the result is stored with
 * calib_store_save_default() once complete (a cancelled or failed job never
 * touches the stored file).  0 / -1 with err. */
int calib_job_start(const calib_opts *opts, int save, calib_job **out,
                    engine_error *err);
/* 0..1; safe from any thread. */
double calib_job_progress(calib_job *job);
/* The current step's label (copied into buf). */
void calib_job_step(calib_job *job, char *buf, size_t len);
/* Ask the worker to stop; it returns at the next measurement boundary. */
void calib_job_cancel(calib_job *job);
/* 0: still running.  1: finished: *status is calib_run's return (or
 * CALIB_ERR when saving failed, CALIB_CANCELLED when cancelled after the
 * run) and, when CALIB_OK, *result receives the result
 * (moved: the caller frees it with calib_result_free; later polls give an
 * empty result); err gets the failure sentence.  Non-blocking. */
int calib_job_poll(calib_job *job, calib_status *status, calib_result *result,
                   engine_error *err);
/* Cancel if running, join, free.  NULL is safe. */
void calib_job_free(calib_job *job);

/* --- plotting data -------------------------------------------------------- */

/* For the measured-vs-fitted view: x = h^2*b*s of each non-copy point, its
 * measured time and both predictions.  Writes up to cap rows, returns the
 * number written. */
typedef struct calib_plot_row {
    calib_point_kind kind;
    double x, measured_s, power_law_s, roofline_s;
} calib_plot_row;
int calib_result_plot_rows(const calib_result *r, calib_plot_row *rows,
                           int cap);

/* The fitted curves of that view, sampled for drawing (plot.c); a plot
 * joins consecutive samples of the same curve.  x = h^2*b*s as above. */
typedef struct calib_curve_point {
    int curve;     /* which line: 0 for the power law; for the roofline the
                      hidden size (one line per hidden size) */
    double x;
    double time_s; /* the fit's prediction at x, seconds */
} calib_curve_point;
/* The power law at n >= 2 log-spaced x over [x_lo, x_hi] (0 < x_lo <
 * x_hi), at most cap samples.  Returns the number written: 0 when r has no
 * power law or the range is not valid. */
int calib_result_power_law_curve(const calib_result *r, double x_lo,
                                 double x_hi, int n, calib_curve_point *out,
                                 int cap);
/* The roofline (calib_roofline_predict, the engine's form when fitted so)
 * along each hidden size of r's GEMM points, in increasing order: a layer's
 * FLOPs and bytes are affine in its token count at a fixed hidden size
 * (calib_layer_cost), so between the smallest and largest token count
 * measured there they are interpolated from those two points, and the
 * prediction is sampled at per_hidden log-spaced token counts (one sample
 * where a hidden size has a single token count).  At most cap samples;
 * returns the number written (0 without a fitted roofline). */
int calib_result_roofline_curve(const calib_result *r, int per_hidden,
                                calib_curve_point *out, int cap);

#endif /* SHARDSCOPE_CALIB_H */
