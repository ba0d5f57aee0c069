/*
 * calib_fake_cuda.h - a complete fake calib_cuda_api (the same table the
 * cuda backend loads from libcudart and libcublas), so tests reach every
 * path of calib/backend/cuda.c without a GPU or a CUDA library: one device
 * "Fake GPU" (10 SMs, sm_90, 80 GB) whose calls succeed, with knobs to make
 * the device count, an allocation or cuBLAS fail, and counters of what was
 * allocated and freed.  Device memory is never touched (copies are no-ops;
 * every timed interval is 1 ms, or the roofline's time of the work between
 * the events when ts_fake.roofline is set).
 */
#ifndef SHARDSCOPE_TEST_CALIB_FAKE_CUDA_H
#define SHARDSCOPE_TEST_CALIB_FAKE_CUDA_H

#include "calib.h"

typedef struct ts_fake_cuda {
    /* knobs (ts_fake_cuda_reset: 0 / 1 device / 0 / 0) */
    int count_rc;       /* cudaGetDeviceCount's return */
    int count;          /* devices it reports */
    int fail_alloc_at;  /* the n-th cudaMalloc (1-based) fails; 0 none */
    int blas_create_rc; /* cublasCreate's return */
    /* roofline timing (0: every timed interval is 1 ms): the interval
     * between two events is the modelled time of the work recorded between
     * them - a GEMM max(F / (peak * eff * eta_shape(sm 10)), B / bw) + t0,
     * a copy bytes / copy_bw, an eager memset launch_s, a graph of memsets
     * graph_s per kernel */
    int roofline;
    double peak, eff, bw, t0, copy_bw, launch_s, graph_s;
    int no_batched;     /* 1: no cublasGemmStridedBatchedEx in the table */
    int cc_major, cc_minor; /* compute capability reported (0 0: 9.0) */
    double eff_fp8;     /* fp8 GEMMs (cublasLt): at 2 x peak x eff_fp8, 1-byte operands */
    double eff_bf16;    /* bf16 cublasGemmEx and cublasGemmGroupedBatchedEx calls
                           (CUDA_R_16BF): at peak x eff_bf16 (0: eff) */
    int lt_fail_k;      /* cublasLtMatmul fails (CUBLAS_STATUS_NOT_SUPPORTED) at this k */
    int grouped_rc;     /* cublasGemmGroupedBatchedEx's return (0: it works, timed as one
                           grouped kernel: one t0, eta_shape over all its GEMMs) */
    /* counters */
    int allocs, frees, gemms, batched, memsets, graphs, lt_matmuls, lt_live;
    int grouped;        /* cublasGemmGroupedBatchedEx calls */
    int grouped_gemms;  /* the GEMMs they made */
    int gemms_bf16;     /* cublasGemmEx calls with CUDA_R_16BF operands */
    int grouped_bf16;   /* cublasGemmGroupedBatchedEx calls with CUDA_R_16BF operands */
    int mixed_types;    /* cublasGemmEx / grouped calls whose A, B and C types differ */
} ts_fake_cuda;

extern ts_fake_cuda ts_fake;

/* Reset the knobs and counters; returns the complete fake table (every
 * member set, error_string / error_name too: NULL there would select the
 * backend's built-in texts). */
calib_cuda_api ts_fake_cuda_reset(void);
/* The cublasLt members of a fake table (the fp8 GEMMs): a descriptor and
 * layout pool (lt_live counts those not destroyed) and a matmul timed as
 * the roofline of its fp8 work. */
void ts_fake_cuda_lt(calib_cuda_api *a);

#endif
