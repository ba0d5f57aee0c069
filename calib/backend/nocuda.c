/*
 * nocuda.c - the cuda backend of a USE_CUDA=no build:
 * every entry point says so, and calib_run falls back to (auto) or refuses
 * (--backend cuda) accordingly.
 */
#include <stdio.h>

#include "calib.h"
#include "internal.h"

#define NO_CUDA "this build has no CUDA support (built with USE_CUDA=no; " \
                "rebuild without it)"

int calib_cuda_probe(const calib_cuda_api *api, int *count, engine_error *err)
{
    (void)api;
    *count = 0;
    if (err)
        snprintf(err->msg, sizeof err->msg, "%s", NO_CUDA);
    return CALIB_ERR;
}

calib_status calib_cuda_measure(const calib_opts *o, calib_result *r, engine_error *err)
{
    (void)o;
    (void)r;
    if (err)
        snprintf(err->msg, sizeof err->msg, "%s", NO_CUDA);
    return CALIB_NO_GPU;
}

calib_status calib_cuda_comm(const calib_opts *o, calib_result *r, engine_error *err)
{
    (void)o;
    (void)r;
    if (err)
        snprintf(err->msg, sizeof err->msg, "%s", NO_CUDA);
    return CALIB_ERR;
}

int calib_cuda_describe(const calib_opts *o, calib_device *d, engine_error *err)
{
    (void)o;
    (void)d;
    if (err)
        snprintf(err->msg, sizeof err->msg, "%s", NO_CUDA);
    return -1;
}
