/*
 * internal.h - what the calib/ sources share beyond the public API: the
 * progress and cancellation checks and the progress slice (opts.c), the
 * UTC date (clock.c), a point's x (result.c), the JSON reader behind the
 * store (result_json.c) and the NCCL sweeps (backend/cuda.c).
 */
#ifndef SHARDSCOPE_CALIB_INTERNAL_H
#define SHARDSCOPE_CALIB_INTERNAL_H

#include "calib.h"

/* Nonzero when the caller asked to stop. */
int calib_cancelled(const calib_opts *o);
/* Forward progress (0..1) and a step label to o->progress, if any. */
void calib_report(const calib_opts *o, double fraction, const char *step);

/* A step's progress (0..1) mapped into [lo, hi] of the outer options'. */
typedef struct calib_progress_slice {
    const calib_opts *outer;
    double lo, hi;
} calib_progress_slice;
/* *inner = *outer, but reporting through s as the slice [lo, hi] of outer's
 * progress; s (lo and hi may be moved later) and outer must outlive inner. */
void calib_opts_slice(const calib_opts *outer, calib_progress_slice *s, double lo, double hi,
                      calib_opts *inner);
/* The current UTC time as ISO 8601 ("2026-11-29T09:00:00Z"). */
void calib_now_iso(char *buf, size_t len);

/* x = h^2 * b * s of a point (the power law's variable). */
double calib_point_x(const calib_point *p);

/* A calibration file's text (path names it in errors) into *out (free
 * with calib_result_free; emptied on failure).  The header the engine
 * relies on is checked (backend "cuda" or "cpu", device, date, preset a
 * string when present, roofline.eta_compute / eta_memory in [1e-6, 2],
 * overhead_s in [0, 1]); full: the points too, each checked.  0, or -1
 * with err naming the file and field. */
int calib_json_read(const char *text, const char *path, int full, calib_result *out,
                    engine_error *err);
/* The "preset" string of a JSON text, even a broken file's ("" none). */
void calib_json_preset(const char *text, char *buf, size_t len);

/* NCCL sweeps over the visible GPUs (>= 2 GPUs and libnccl loadable):
 * AllReduce into r->comm / r->comm_label, then send/recv from GPU 0 to
 * GPU 1 into the p2p series (a send/recv failure keeps the all-reduce
 * result and leaves a note).  CALIB_OK when the all-reduce sweep ran,
 * CALIB_ERR with err when NCCL cannot be used (the caller falls back to
 * the loopback), CALIB_CANCELLED. */
calib_status calib_cuda_comm(const calib_opts *o, calib_result *r,
                             engine_error *err);

/* The per-kernel fit and GEMM tables of r into out (kernels.c; called by
 * calib_result_to_engine). */
void calib_per_kernel_to_engine(const calib_result *r, engine_calib *out);

/* A backend's timer for the per-kernel sweep (ksweep.c drives it). */
typedef struct calib_kexec {
    void *ctx;
    const char *tag;      /* progress prefix: "cpu", "cuda" */
    int gpu;              /* 1: GPU token ranges and sizes */
    int has_graph;        /* 1: CALIB_K_GRAPH can be timed */
    int has_attn;         /* 1: CALIB_K_ATTN (batched GEMMs) can be timed */
    int has_launch;       /* 1: CALIB_K_LAUNCH can be timed */
    int has_fp8;          /* 1: fp8 model GEMMs (dtype "fp8", 1 byte) can be timed */
    int has_bf16;         /* 1: bf16 model GEMMs (dtype "bf16", 2 bytes), dense and
                             grouped MoE, can be timed */
    const char *dtype;    /* the GEMM element type */
    double elem;          /* its bytes */
    double prior_flops;   /* rough rates for the planned budget */
    double prior_bw;
    double prior_call_s;  /* fixed seconds per timed call (sync, launch) */
    /* Median seconds of `reps` runs of point p (after `warm` untimed ones)
     * into *t (launch points: per kernel); sets p->calls when the point
     * took more than one library call.  0, or -1 with err. */
    int (*time)(void *ctx, calib_kpoint *p, int warm, int reps, double *t, engine_error *err);
} calib_kexec;

/* The per-kernel sweep of o->model on x: model GEMMs, GEMV, copy,
 * attention proxy, launches (eager, and in a graph where x has one), into
 * r->kpoints, then calib_fit_per_kernel.  Sets r->model, r->planned_s and
 * r->kernel_note; progress through o.  CALIB_OK, CALIB_ERR with err,
 * CALIB_CANCELLED. */
calib_status calib_ksweep(const calib_opts *o, const calib_kexec *x, calib_result *r,
                          engine_error *err);

/* The CPU's kexec on OpenBLAS (backend/blas.c): CALIB_OK with *x ready
 * (free with calib_blas_kexec_free), or CALIB_ERR with err naming the
 * package. */
calib_status calib_blas_kexec(const calib_opts *o, calib_kexec *x, char *library, size_t len,
                              engine_error *err);
void calib_blas_kexec_free(calib_kexec *x);

/* --- what a run measures, shared by the backends and the plan (grid.c) --- */

/* The cuda backend's layer grid (the seed's, or the --quick subset): the
 * prefill points hid x bat x seq, then the decode tokens dec at each
 * dec_hid, then one copy; `warmup` untimed and `reps` timed runs each. */
typedef struct calib_gpu_grid {
    const int *hid, *bat, *seq, *dec, *dec_hid;
    int nh, nb, ns, nd, ndh, warmup, reps;
} calib_gpu_grid;
void calib_gpu_grid_for(int quick, calib_gpu_grid *g);
/* The layer sweep's buffers (bytes): weights of the widest layer (12 h^2
 * elements of 2 bytes), its input (most tokens x h), the QKV output (3x)
 * and the FFN activations (4x); the copy moves min(weights, activations). */
typedef struct calib_gpu_grid_bytes {
    size_t w, x, q, y, copy;
} calib_gpu_grid_bytes;
void calib_gpu_grid_bytes_of(const calib_gpu_grid *g, calib_gpu_grid_bytes *b);

/* The CPU backend's layer grid: for each of the nh hidden sizes hid, the
 * prefill points bat x seq, and on the two largest the decode tokens dec;
 * one warm-up pass then `passes` timed passes over all of them, a point
 * run `inner` times per timing where one run is under group_s (inner =
 * group_s / t + 1, at most max_inner); then a memcpy of copy_bytes,
 * copy_warmup + copy_reps runs. */
typedef struct calib_cpu_grid {
    const int *hid, *bat, *seq, *dec;
    int nh, nb, ns, nd, passes, max_inner, copy_warmup, copy_reps;
    double group_s;
    size_t copy_bytes;
} calib_cpu_grid;
void calib_cpu_grid_for(int quick, calib_cpu_grid *g);
/* Runs per timing of a CPU layer point whose first run took t seconds. */
int calib_cpu_grid_inner(const calib_cpu_grid *g, double t);

/* The per-kernel sweep's GPU buffers for o's model (bytes): weights,
 * input, output (each at least 1.1 GB / 1100 MiB: the 1 GB GEMV, the
 * PV proxy at 4096 tokens). */
void calib_kgpu_bytes(const calib_opts *o, double *w, double *x, double *y);

/* The NCCL sweeps' sizes, warm-up and repeats (all four collectives use
 * the same spec; label "nccl all-reduce") and the operations per timed
 * call of `bytes`. */
void calib_nccl_spec(int quick, calib_comm_sweep_spec *spec);
int calib_nccl_iters(size_t bytes);
/* The loopback (one GPU or the CPU): its largest message, and the timed
 * round trips of a size whose warm-up round trip took t seconds. */
size_t calib_loopback_max_bytes(int quick);
int calib_loopback_reps(double t);

/* The cuda backend's rough rates for the sweep's planned budget and the
 * host's fixed cost per timed call (two event records, the launch and
 * cudaEventSynchronize). */
#define CALIB_CUDA_PRIOR_FLOPS 400e12
#define CALIB_CUDA_PRIOR_BW 2e12
#define CALIB_CUDA_PRIOR_CALL_S 30e-6
/* The same for the CPU (one OpenBLAS thread). */
#define CALIB_CPU_PRIOR_FLOPS 50e9
#define CALIB_CPU_PRIOR_BW 8e9
#define CALIB_CPU_PRIOR_CALL_S 2e-7
/* Eager launch points: kernels per timing (K_LAUNCHES). */
#define CALIB_K_LAUNCHES 256

/* The per-kernel sweep's plan (ksweep.c): the points in the order they
 * are timed, each with its warm-up and repeat counts (a CPU point's
 * repeats: calib_cpu_runs of its prior time; the real run decides them
 * from its first run).  2048: an MoE model with dense layers plans
 * ~1,200 points in full, fp16, fp8 and bf16 (DeepSeek-V3 1,220, Llama 4
 * Maverick 1,172). */
#define CALIB_KSWEEP_MAX 2048
typedef struct calib_kplan {
    calib_kpoint gem[CALIB_KSWEEP_MAX]; /* the model GEMMs, before they are added */
    calib_kpoint p[CALIB_KSWEEP_MAX];
    int warm[CALIB_KSWEEP_MAX], reps[CALIB_KSWEEP_MAX];
    int n;
    double planned_s;
    int max_tp, max_tokens; /* what o asked for, defaults applied */
} calib_kplan;
void calib_kplan_build(const calib_opts *o, const calib_kexec *x, calib_kplan *k);
/* The prior time of one point under x's rough rates. */
double calib_kplan_prior_s(const calib_kexec *x, const calib_kpoint *p);
/* A kexec for planning only: the fields calib_ksweep's plan reads, as the
 * CPU backend (gpu 0) or the cuda backend on a device with these
 * capabilities (gpu 1) sets them; no timer, no context. */
void calib_kexec_for_plan(int gpu, int has_fp8, int has_bf16, calib_kexec *x);

#endif /* SHARDSCOPE_CALIB_INTERNAL_H */
