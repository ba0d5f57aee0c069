/*
 * calib_fake_cuda.c - the fake CUDA runtime and cuBLAS behind
 * calib_fake_cuda.h.
 */
#include "calib_fake_cuda.h"

#include <stdio.h>
#include <string.h>

ts_fake_cuda ts_fake;

static char fake_heap[16][16];
static int fake_handles[4];
/* Events: the modelled clock when recorded (roofline mode). */
static double fake_clock;
static double fake_events[8];
static int fake_n_events;
static int fake_graph_kernels;

static void fake_work(double flops, double bytes, int m, int n, int k, int batch)
{
    if (!ts_fake.roofline)
        return;
    double c = flops / (ts_fake.peak * ts_fake.eff * engine_gemm_shape_eta(10, m, n, k, batch));
    double b = bytes / ts_fake.bw;
    fake_clock += (c > b ? c : b) + ts_fake.t0;
}

static int f_count(int *n)
{
    *n = ts_fake.count_rc ? 0 : ts_fake.count;
    return ts_fake.count_rc;
}
static int f_set_device(int d)
{
    return d >= 0 && d < ts_fake.count ? 0 : 101; /* cudaErrorInvalidDevice */
}
static int f_props(void *prop, int d)
{
    (void)d;
    snprintf(prop, 256, "Fake GPU");
    return 0;
}
static int f_attr(int *v, int attr, int d)
{
    (void)d;
    switch (attr) {
    case CALIB_CUDA_ATTR_SM_COUNT: *v = 10; return 0;
    case CALIB_CUDA_ATTR_CC_MAJOR: *v = ts_fake.cc_major ? ts_fake.cc_major : 9; return 0;
    case CALIB_CUDA_ATTR_CC_MINOR: *v = ts_fake.cc_major ? ts_fake.cc_minor : 0; return 0;
    case CALIB_CUDA_ATTR_CLOCK_KHZ: *v = 1000000; return 0;
    default: return 1; /* cudaErrorInvalidValue */
    }
}
static int f_mem_info(size_t *fr, size_t *total)
{
    *fr = *total = (size_t)80 << 30;
    return 0;
}
static int f_version(int *v)
{
    *v = 13000;
    return 0;
}
static int f_alloc(void **p, size_t n)
{
    (void)n;
    int k = ts_fake.allocs + 1;
    if (k == ts_fake.fail_alloc_at || ts_fake.allocs >= 16) {
        *p = NULL;
        return 2; /* cudaErrorMemoryAllocation */
    }
    *p = fake_heap[ts_fake.allocs++];
    return 0;
}
static int f_free(void *p)
{
    (void)p;
    ts_fake.frees++;
    return 0;
}
static int f_copy(void *dst, const void *src, size_t n, int kind)
{
    (void)dst, (void)src, (void)n, (void)kind;
    return 0;
}
static int f_copy_async(void *dst, const void *src, size_t n, int kind, void *st)
{
    (void)st;
    if (ts_fake.roofline)
        fake_clock += 2.0 * (double)n / ts_fake.copy_bw;
    return f_copy(dst, src, n, kind);
}
static int f_set_async(void *p, int v, size_t n, void *st)
{
    (void)p, (void)v, (void)n;
    ts_fake.memsets++;
    if (st && st == &fake_handles[2]) { /* being captured into the graph */
        fake_graph_kernels++;
        return 0;
    }
    fake_clock += ts_fake.launch_s;
    return 0;
}
static int f_stream_create(void **st)
{
    *st = &fake_handles[2];
    return 0;
}
static int f_begin_capture(void *st, int mode)
{
    (void)st, (void)mode;
    fake_graph_kernels = 0;
    return 0;
}
static int f_end_capture(void *st, void **graph)
{
    (void)st;
    *graph = &fake_handles[3];
    return 0;
}
static int f_instantiate(void **exec, void *graph, unsigned long long flags)
{
    (void)flags;
    *exec = graph;
    return 0;
}
static int f_graph_launch(void *exec, void *st)
{
    (void)exec, (void)st;
    ts_fake.graphs++;
    fake_clock += fake_graph_kernels * ts_fake.graph_s;
    return 0;
}
static int f_event_create(void **e)
{
    *e = &fake_events[fake_n_events++ % 8];
    return 0;
}
static int f_set(void *p, int v, size_t n)
{
    (void)p, (void)v, (void)n;
    return 0;
}
static int f_create(void **h)
{
    *h = &fake_handles[0];
    return 0;
}
static int f_destroy(void *h)
{
    (void)h;
    return 0;
}
static int f_record(void *ev, void *st)
{
    (void)st;
    if (ev >= (void *)&fake_events[0] && ev < (void *)&fake_events[8])
        *(double *)ev = fake_clock;
    return 0;
}
static int f_elapsed(float *ms, void *a, void *b)
{
    int ours = a >= (void *)&fake_events[0] && a < (void *)&fake_events[8] &&
               b >= (void *)&fake_events[0] && b < (void *)&fake_events[8];
    *ms = ts_fake.roofline && ours ? (float)((*(double *)b - *(double *)a) * 1e3) : 1.0f;
    return 0;
}
static const char *f_error_string(int code)
{
    return code == 100 ? "no CUDA-capable device is detected"
           : code == 2 ? "out of memory"
                       : "fake error";
}
static const char *f_error_name(int code)
{
    return code == 100 ? "cudaErrorNoDevice" : code == 2 ? "cudaErrorMemoryAllocation"
                                                         : "cudaErrorFake";
}
static int f_blas_create(void **h)
{
    *h = ts_fake.blas_create_rc ? NULL : &fake_handles[1];
    return ts_fake.blas_create_rc;
}
/* A GEMM call's operand types a, b, c: counts a mix of them and a bf16
 * call (in *bf16_calls), and runs bf16 at eff_bf16 where it is set;
 * returns the efficiency to put back after the call. */
static double fake_types(int a, int b, int c, int *bf16_calls)
{
    double saved = ts_fake.eff;
    if (a != b || a != c)
        ts_fake.mixed_types++;
    if (a == 14) { /* CUDA_R_16BF */
        (*bf16_calls)++;
        if (ts_fake.eff_bf16 > 0)
            ts_fake.eff = ts_fake.eff_bf16;
    }
    return saved;
}

static int f_gemm(void *h, int ta, int tb, int m, int n, int k, const void *alpha,
                  const void *a, int at, int lda, const void *b, int bt, int ldb,
                  const void *beta, void *c, int ct, int ldc, int compute, int algo)
{
    (void)h, (void)ta, (void)tb, (void)m, (void)n, (void)k, (void)alpha, (void)a;
    (void)lda, (void)b, (void)ldb, (void)beta, (void)c;
    (void)ldc, (void)compute, (void)algo;
    ts_fake.gemms++;
    double saved = fake_types(at, bt, ct, &ts_fake.gemms_bf16);
    /* column-major n x t = (n x k)(k x t): the row-major GEMM of t tokens */
    fake_work(2.0 * m * n * k, ((double)m * k + (double)k * n + (double)m * n) * 2, n, m, k, 1);
    ts_fake.eff = saved;
    return 0;
}
static int f_gemm_batched(void *h, int ta, int tb, int m, int n, int k, const void *alpha,
                          const void *a, int at, int lda, long long sa, const void *b, int bt,
                          int ldb, long long sb, const void *beta, void *c, int ct, int ldc,
                          long long sc, int batch, int compute, int algo)
{
    (void)h, (void)ta, (void)tb, (void)alpha, (void)a, (void)at, (void)lda, (void)sa, (void)b;
    (void)bt, (void)ldb, (void)sb, (void)beta, (void)c, (void)ct, (void)ldc, (void)sc;
    (void)compute, (void)algo;
    ts_fake.batched++;
    fake_work(2.0 * batch * m * n * k,
              batch * ((double)m * k + (double)k * n + (double)m * n) * 2, n, m, k, batch);
    return 0;
}

static int f_gemm_grouped(void *h, const int *ta, const int *tb, const int *m, const int *n,
                          const int *k, const void *alpha, const void *const *a, int at,
                          const int *lda, const void *const *b, int bt, const int *ldb,
                          const void *beta, void *const *c, int ct, const int *ldc, int groups,
                          const int *size, int compute)
{
    (void)h, (void)ta, (void)tb, (void)alpha, (void)a, (void)lda, (void)b;
    (void)ldb, (void)beta, (void)c, (void)ldc, (void)compute;
    ts_fake.grouped++;
    if (ts_fake.grouped_rc)
        return ts_fake.grouped_rc;
    double saved = fake_types(at, bt, ct, &ts_fake.grouped_bf16);
    for (int i = 0; i < groups; i++) {
        ts_fake.grouped_gemms += size[i];
        fake_work(2.0 * size[i] * m[i] * n[i] * k[i],
                  size[i] * ((double)m[i] * k[i] + (double)k[i] * n[i] + (double)m[i] * n[i]) * 2,
                  n[i], m[i], k[i], size[i]);
    }
    ts_fake.eff = saved;
    return 0;
}

/* cublasLt: layouts remember rows x cols */
static unsigned long long lt_dims[64][2];
static int lt_next;

static int f_lt_create(void **h)
{
    *h = &fake_handles[1];
    return 0;
}
static int f_lt_desc_create(void **d, int ct, int st)
{
    (void)ct, (void)st;
    *d = &lt_dims[lt_next++ % 64];
    ts_fake.lt_live++;
    return 0;
}
static int f_lt_release(void *d)
{
    (void)d;
    ts_fake.lt_live--;
    return 0;
}
static int f_lt_set(void *d, int attr, const void *buf, size_t n)
{
    (void)d, (void)attr, (void)buf, (void)n;
    return 0;
}
static int f_lt_layout(void **l, int type, unsigned long long rows, unsigned long long cols,
                       long long ld)
{
    (void)type, (void)ld;
    unsigned long long *e = lt_dims[lt_next++ % 64];
    e[0] = rows;
    e[1] = cols;
    *l = e;
    ts_fake.lt_live++;
    return 0;
}
static int f_lt_matmul(void *h, void *desc, const void *alpha, const void *a, void *ad,
                       const void *b, void *bd, const void *beta, const void *c, void *cd,
                       void *d, void *dd, const void *algo, void *ws, size_t wsb, void *st)
{
    (void)h, (void)desc, (void)alpha, (void)a, (void)b, (void)beta, (void)c, (void)cd, (void)d;
    (void)dd, (void)algo, (void)ws, (void)wsb, (void)st;
    ts_fake.lt_matmuls++;
    const unsigned long long *A = ad, *B = bd; /* A: k x n (transposed), B: k x m */
    double k = (double)A[0], n = (double)A[1], m = (double)B[1];
    if (ts_fake.lt_fail_k && k == ts_fake.lt_fail_k)
        return 15; /* CUBLAS_STATUS_NOT_SUPPORTED */
    if (ts_fake.roofline) {
        double cc = 2.0 * m * n * k /
                    (2 * ts_fake.peak * ts_fake.eff_fp8 * engine_gemm_shape_eta(10, m, n, k, 1));
        double bb = (m * k + n * k + 2.0 * m * n) / ts_fake.bw;
        fake_clock += (cc > bb ? cc : bb) + ts_fake.t0;
    }
    return 0;
}

void ts_fake_cuda_lt(calib_cuda_api *a)
{
    a->lt_create = f_lt_create;
    a->lt_destroy = f_destroy;
    a->lt_desc_create = f_lt_desc_create;
    a->lt_desc_destroy = f_lt_release;
    a->lt_desc_set = f_lt_set;
    a->lt_layout_create = f_lt_layout;
    a->lt_layout_destroy = f_lt_release;
    a->lt_matmul = f_lt_matmul;
}

calib_cuda_api ts_fake_cuda_reset(void)
{
    memset(&ts_fake, 0, sizeof ts_fake);
    ts_fake.count = 1;
    fake_clock = 0;
    fake_n_events = 0;
    fake_graph_kernels = 0;
    calib_cuda_api a = {
        .get_device_count = f_count,
        .set_device = f_set_device,
        .get_device_properties = f_props,
        .device_get_attribute = f_attr,
        .mem_get_info = f_mem_info,
        .driver_get_version = f_version,
        .runtime_get_version = f_version,
        .mem_alloc = f_alloc,
        .mem_free = f_free,
        .mem_copy = f_copy,
        .mem_copy_async = f_copy_async,
        .mem_set = f_set,
        .event_create = f_event_create,
        .event_destroy = f_destroy,
        .event_record = f_record,
        .event_synchronize = f_destroy,
        .event_elapsed_ms = f_elapsed,
        .stream_create = f_create,
        .stream_destroy = f_destroy,
        .stream_synchronize = f_destroy,
        .error_string = f_error_string,
        .error_name = f_error_name,
        .blas_create = f_blas_create,
        .blas_destroy = f_destroy,
        .blas_gemm_ex = f_gemm,
        .blas_gemm_strided_batched_ex = f_gemm_batched,
        .blas_gemm_grouped_batched_ex = f_gemm_grouped,
        .mem_set_async = f_set_async,
        .stream_begin_capture = f_begin_capture,
        .stream_end_capture = f_end_capture,
        .graph_instantiate = f_instantiate,
        .graph_launch = f_graph_launch,
        .graph_exec_destroy = f_destroy,
        .graph_destroy = f_destroy,
    };
    a.stream_create = f_stream_create;
    return a;
}
