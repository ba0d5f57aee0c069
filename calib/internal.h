/*
 * internal.h - helpers shared by the calib/ sources (not part of the
 * public API): progress and cancellation checks, and the error-kind codes
 * calib_run returns.
 */
#ifndef SHARDSCOPE_CALIB_INTERNAL_H
#define SHARDSCOPE_CALIB_INTERNAL_H

#include "calib.h"

/* Nonzero when the caller asked to stop. */
int calib_cancelled(const calib_opts *o);
/* Forward progress (0..1) and a step label to o->progress, if any. */
void calib_report(const calib_opts *o, double fraction, const char *step);
/* The current UTC time as ISO 8601 ("2026-11-29T09:00:00Z"). */
void calib_now_iso(char *buf, size_t len);

/* NCCL sweeps over the visible GPUs (cuda builds with >= 2 GPUs and libnccl
 * loadable): AllReduce into r->comm / r->comm_label, then send/recv from GPU
 * 0 to GPU 1 into the p2p series (a send/recv failure keeps the all-reduce
 * result and leaves a note).  CALIB_OK when the all-reduce sweep ran,
 * CALIB_ERR with err when NCCL cannot be used (the caller falls back to
 * the loopback), CALIB_CANCELLED. */
calib_status calib_cuda_comm(const calib_opts *o, calib_result *r,
                             engine_error *err);

#endif /* SHARDSCOPE_CALIB_INTERNAL_H */
