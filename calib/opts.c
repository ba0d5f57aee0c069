/*
 * opts.c - calib_opts: the defaults, and the two questions every
 * measuring loop asks of them (stop now? how far along?).
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
