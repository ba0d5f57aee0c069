/*
 * opts.c - calib_opts: the defaults, the two questions every measuring
 * loop asks of them (stop now? how far along?), and a step's progress as
 * a slice of its caller's.
 */
#include <string.h>

#include "calib.h"
#include "internal.h"

void calib_opts_defaults(calib_opts *o)
{
    memset(o, 0, sizeof *o);
    o->backend = CALIB_BACKEND_AUTO;
}

int calib_cancelled(const calib_opts *o)
{
    return o && o->cancel && atomic_load(o->cancel) != 0;
}

void calib_report(const calib_opts *o, double fraction, const char *step)
{
    if (o && o->progress)
        o->progress(o->progress_ctx, fraction < 0 ? 0 : fraction > 1 ? 1 : fraction, step);
}

static void slice_cb(void *ctx, double f, const char *step)
{
    const calib_progress_slice *s = ctx;
    calib_report(s->outer, s->lo + (s->hi - s->lo) * f, step);
}

void calib_opts_slice(const calib_opts *outer, calib_progress_slice *s, double lo, double hi,
                      calib_opts *inner)
{
    s->outer = outer;
    s->lo = lo;
    s->hi = hi;
    *inner = *outer;
    inner->progress = slice_cb;
    inner->progress_ctx = s;
}
