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

/* The bf16 model GEMMs are timed at the token counts up to this (the decode
 * steps' batches): the --quick budget grows by those memory-bound points
 * only; a larger m in a bf16 scenario reads the fp16 table. */
#define CALIB_BF16_MAX_TOKENS 256

/* A backend's timer for the per-kernel sweep (ksweep.c drives it). */
typedef struct calib_kexec {
    void *ctx;
    const char *tag;      /* progress prefix: "cpu", "cuda" */
    int gpu;              /* 1: GPU token ranges and sizes */
    int has_graph;        /* 1: CALIB_K_GRAPH can be timed */
    int has_attn;         /* 1: CALIB_K_ATTN (batched GEMMs) can be timed */
    int has_launch;       /* 1: CALIB_K_LAUNCH can be timed */
    int has_fp8;          /* 1: fp8 model GEMMs (dtype "fp8", 1 byte) can be timed */
    int has_bf16;         /* 1: bf16 model GEMMs (dtype "bf16", 2 bytes) at the decode
                             token counts (<= CALIB_BF16_MAX_TOKENS) can be timed */
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

#endif /* SHARDSCOPE_CALIB_INTERNAL_H */
