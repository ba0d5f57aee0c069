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

#endif /* SHARDSCOPE_CALIB_INTERNAL_H */
