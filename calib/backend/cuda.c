/*
 * backend_cuda.c - the GPU calibration backend, plain C over the CUDA
 * runtime and cuBLAS C APIs (no nvcc).  It checks for a device first
 * (cudaGetDeviceCount: no GPU or no driver is a clean error), reads the
 * device's name, SM count, clocks and driver/runtime versions, allocates
 * every buffer once, creates the cuBLAS handle, then times with CUDA
 * events - one warm-up, median of the repeats - the four GEMMs of one
 * transformer layer (fp16 on tensor cores, FP32 accumulation) over the
 * seed's grid (hidden 768..8192, batch 1..8, sequence 512 and 2048),
 * decode-shaped GEMMs of 1..256 tokens, and a device-to-device copy for
 * HBM bandwidth.  With two or more GPUs, NCCL sweeps (NCCL is loaded with
 * dlopen, so the binary never depends on it): AllReduce over every GPU,
 * then send/recv from GPU 0 to GPU 1, both through calib_comm_sweep
 * (comm.c: sizes, warm-up, median) with a timing callback each.
 *
 * The calls that can fail on a machine without a usable GPU go through a
 * calib_cuda_api table whose NULL members mean the real functions, so tests
 * reach the failure paths with fakes and no GPU.  This is the only file
 * that includes CUDA headers.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "calib.h"
#include "internal.h"

/* --- the real calls behind the table ---------------------------------- */

static int real_get_device_count(int *count)
{
    return (int)cudaGetDeviceCount(count);
}

static int real_set_device(int device)
{
    return (int)cudaSetDevice(device);
}

static int real_device_info(int device, calib_device *d)
{
    struct cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, device);
    if (e != cudaSuccess)
        return (int)e;
    size_t n = strnlen(p.name, sizeof p.name);
    if (n >= sizeof d->name)
        n = sizeof d->name - 1;
    memcpy(d->name, p.name, n);
    d->name[n] = '\0';
    d->sm_count = p.multiProcessorCount;
    d->cc_major = p.major;
    d->cc_minor = p.minor;
    d->memory_bytes = (double)p.totalGlobalMem;
    d->bus_width_bits = p.memoryBusWidth;
    int v = 0;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, device) == cudaSuccess)
        d->clock_khz = v;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, device) == cudaSuccess)
        d->mem_clock_khz = v;
    if (cudaDriverGetVersion(&v) == cudaSuccess)
        d->driver_version = v;
    if (cudaRuntimeGetVersion(&v) == cudaSuccess)
        d->runtime_version = v;
    return 0;
}

static int real_mem_alloc(void **p, size_t n)
{
    return (int)cudaMalloc(p, n);
}

static int real_mem_free(void *p)
{
    return (int)cudaFree(p);
}

static int real_blas_create(void **h)
{
    cublasHandle_t handle = NULL;
    cublasStatus_t s = cublasCreate(&handle);
    *h = handle;
    return (int)s;
}

static int real_blas_destroy(void *h)
{
    return (int)cublasDestroy((cublasHandle_t)h);
}

/* The table with every NULL member replaced by the real call. */
static calib_cuda_api resolve(const calib_cuda_api *in)
{
    calib_cuda_api a;
    if (in)
        a = *in;
    else
        memset(&a, 0, sizeof a);
    if (!a.get_device_count) a.get_device_count = real_get_device_count;
    if (!a.set_device) a.set_device = real_set_device;
    if (!a.device_info) a.device_info = real_device_info;
    if (!a.mem_alloc) a.mem_alloc = real_mem_alloc;
    if (!a.mem_free) a.mem_free = real_mem_free;
    if (!a.blas_create) a.blas_create = real_blas_create;
    if (!a.blas_destroy) a.blas_destroy = real_blas_destroy;
    return a;
}

static const char *cuda_msg(int code)
{
    return cudaGetErrorString((cudaError_t)code);
}

static const char *cuda_name(int code)
{
    return cudaGetErrorName((cudaError_t)code);
}

static const char *blas_name(int s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    default: return "unknown cuBLAS status";
    }
}

int calib_cuda_probe(const calib_cuda_api *api, int *count, engine_error *err)
{
    calib_cuda_api a = resolve(api);
    *count = 0;
    int n = 0, e = a.get_device_count(&n);
    if (e != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "no usable GPU: cudaGetDeviceCount failed: %s (%s)",
                     cuda_msg(e), cuda_name(e));
        return -1;
    }
    if (n <= 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "no usable GPU: the CUDA driver reports no device");
        return -1;
    }
    *count = n;
    return 0;
}

/* --- the sweep ---------------------------------------------------------- */

typedef struct gpu_ctx {
    calib_cuda_api api;
    cublasHandle_t blas;
    void *w, *x, *q, *y, *z;   /* weights (12 h^2), activations */
    size_t wbytes, xbytes, qbytes, ybytes;
    cudaEvent_t e0, e1;
    int events;
    cudaDataType_t dt;
} gpu_ctx;

static void gpu_release(gpu_ctx *g)
{
    if (g->events) {
        cudaEventDestroy(g->e0);
        cudaEventDestroy(g->e1);
        g->events = 0;
    }
    if (g->blas)
        g->api.blas_destroy(g->blas);
    g->blas = NULL;
    void **bufs[] = {&g->w, &g->x, &g->q, &g->y, &g->z};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
        if (*bufs[i])
            g->api.mem_free(*bufs[i]);
        *bufs[i] = NULL;
    }
}

/* Row-major C[t x n] = X[t x k] W[k x n] is column-major
 * C^T[n x t] = W^T[n x k] X^T[k x t]. */
static int gemm(gpu_ctx *g, int t, int n, int k, const void *x, const void *w,
                void *c)
{
    const float one = 1.0f, zero = 0.0f;
    cublasStatus_t s = cublasGemmEx(g->blas, CUBLAS_OP_N, CUBLAS_OP_N, n, t, k,
                                    &one, w, g->dt, n, x, g->dt, k, &zero, c,
                                    g->dt, n, CUBLAS_COMPUTE_32F,
                                    CUBLAS_GEMM_DEFAULT);
    return (int)s;
}

/* The four GEMMs of a layer with hidden h over t tokens; weights laid out
 * back to back in g->w (h x 3h, h x h, h x 4h, 4h x h). */
static int layer(gpu_ctx *g, int h, int t)
{
    size_t e = 2, hh = (size_t)h * h;
    char *w = g->w;
    int s = 0;
    s |= gemm(g, t, 3 * h, h, g->x, w, g->q);
    s |= gemm(g, t, h, h, g->x, w + 3 * hh * e, g->z);
    s |= gemm(g, t, 4 * h, h, g->x, w + 4 * hh * e, g->y);
    s |= gemm(g, t, h, 4 * h, g->y, w + 8 * hh * e, g->z);
    return s;
}

static int time_layer(gpu_ctx *g, int h, int t, int reps, double *median,
                      engine_error *err)
{
    double v[16];
    if (reps > 16)
        reps = 16;
    for (int r = -1; r < reps; r++) { /* r == -1: warm-up */
        cudaEventRecord(g->e0, 0);
        int s = layer(g, h, t);
        cudaEventRecord(g->e1, 0);
        cudaError_t ce = cudaEventSynchronize(g->e1);
        if (s != 0 || ce != cudaSuccess) {
            if (err)
                snprintf(err->msg, sizeof err->msg,
                         "cuda backend: GEMM h=%d tokens=%d failed: %s", h, t,
                         s != 0 ? "cublasGemmEx error" : cuda_msg((int)ce));
            return -1;
        }
        float ms = 0;
        cudaEventElapsedTime(&ms, g->e0, g->e1);
        if (r >= 0)
            v[r] = ms * 1e-3;
    }
    qsort(v, (size_t)reps, sizeof v[0], engine_cmp_double);
    *median = reps % 2 ? v[reps / 2] : 0.5 * (v[reps / 2 - 1] + v[reps / 2]);
    return 0;
}

/* Non-trivial fp16 data (zeros would flatter the clocks): small values of
 * both signs, copied chunk by chunk. */
static int fill_device(void *dst, size_t bytes)
{
    enum { CHUNK = 8u << 20 };
    uint16_t *h = malloc(CHUNK);
    if (!h)
        return -1;
    uint32_t st = 2463534242u;
    for (size_t i = 0; i < CHUNK / 2; i++) {
        st ^= st << 13; st ^= st >> 17; st ^= st << 5;
        /* Exponent 0x0c..0x0e (1/8 .. 1/2), random mantissa and sign:
         * valid in fp16 and, read as bf16, tiny but normal. */
        h[i] = (uint16_t)((st & 0x8000u) | (0x0cu + (st >> 20) % 3u) << 10 |
                          (st & 0x3ffu));
    }
    int rc = 0;
    for (size_t off = 0; off < bytes && rc == 0; off += CHUNK) {
        size_t n = bytes - off < CHUNK ? bytes - off : CHUNK;
        if (cudaMemcpy((char *)dst + off, h, n, cudaMemcpyHostToDevice) != cudaSuccess)
            rc = -1;
    }
    free(h);
    return rc;
}

calib_status calib_cuda_measure(const calib_opts *o, calib_result *r, engine_error *err)
{
    static const int hid_f[] = {768, 1024, 2048, 4096, 5120, 8192};
    static const int hid_q[] = {768, 2048, 4096};
    static const int bat_f[] = {1, 2, 4, 8};
    static const int bat_q[] = {1, 4};
    static const int seq[] = {512, 2048};
    static const int dec_f[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    static const int dec_q[] = {1, 16, 256};
    static const int dec_hid[] = {4096, 8192};
    const int *hid = o->quick ? hid_q : hid_f;
    const int *bat = o->quick ? bat_q : bat_f;
    const int *dec = o->quick ? dec_q : dec_f;
    int nh = o->quick ? 3 : 6, nb = o->quick ? 2 : 4, ns = 2;
    int nd = o->quick ? 3 : 9, ndh = o->quick ? 1 : 2;
    int reps = o->quick ? 3 : 5;

    gpu_ctx g;
    memset(&g, 0, sizeof g);
    g.api = resolve(o->cuda);
    g.dt = CUDA_R_16F;

    int count = 0;
    if (calib_cuda_probe(o->cuda, &count, err) != 0)
        return CALIB_NO_GPU;
    if (o->device < 0 || o->device >= count) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "no CUDA device %d (%d device%s visible)", o->device, count,
                     count == 1 ? "" : "s");
        return CALIB_NO_GPU;
    }
    int e = g.api.set_device(o->device);
    if (e != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "cannot use GPU %d: cudaSetDevice: %s", o->device, cuda_msg(e));
        return CALIB_NO_GPU;
    }
    calib_device *d = &r->dev;
    memset(d, 0, sizeof *d);
    e = g.api.device_info(o->device, d);
    if (e != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "cannot read GPU %d's properties: %s", o->device, cuda_msg(e));
        return CALIB_NO_GPU;
    }
    snprintf(d->backend, sizeof d->backend, "cuda");
    snprintf(d->dtype, sizeof d->dtype, "fp16");
    d->index = o->device;
    d->count = count;

    int hmax = hid[nh - 1] > dec_hid[ndh - 1] ? hid[nh - 1] : dec_hid[ndh - 1];
    size_t tmax = (size_t)bat[nb - 1] * seq[ns - 1];
    if ((size_t)dec[nd - 1] > tmax)
        tmax = (size_t)dec[nd - 1];
    g.wbytes = 12 * (size_t)hmax * hmax * 2;
    g.xbytes = tmax * hmax * 2;
    g.qbytes = 3 * g.xbytes;
    g.ybytes = 4 * g.xbytes;
    struct { void **p; size_t n; const char *what; } bufs[] = {
        {&g.w, g.wbytes, "the layer weights"}, {&g.x, g.xbytes, "the input"},
        {&g.q, g.qbytes, "the QKV output"}, {&g.y, g.ybytes, "the FFN activations"},
        {&g.z, g.xbytes, "the layer output"}};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
        e = g.api.mem_alloc(bufs[i].p, bufs[i].n);
        if (e != 0) {
            *bufs[i].p = NULL;
            if (err)
                snprintf(err->msg, sizeof err->msg,
                         "out of GPU memory: cudaMalloc of %.1f MiB for %s "
                         "failed (%s); try --quick", bufs[i].n / 1048576.0,
                         bufs[i].what, cuda_msg(e));
            gpu_release(&g);
            return CALIB_ERR;
        }
    }
    void *handle = NULL;
    e = g.api.blas_create(&handle);
    if (e != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "cuBLAS cannot start on GPU %d: cublasCreate returned %s",
                     o->device, blas_name(e));
        gpu_release(&g);
        return CALIB_NO_GPU;
    }
    g.blas = handle;
    if (cudaEventCreate(&g.e0) != cudaSuccess) {
        gpu_release(&g);
        if (err)
            snprintf(err->msg, sizeof err->msg, "cuda backend: cudaEventCreate failed");
        return CALIB_ERR;
    }
    if (cudaEventCreate(&g.e1) != cudaSuccess) {
        cudaEventDestroy(g.e0);
        gpu_release(&g);
        if (err)
            snprintf(err->msg, sizeof err->msg, "cuda backend: cudaEventCreate failed");
        return CALIB_ERR;
    }
    g.events = 1;
    if (fill_device(g.w, g.wbytes) != 0 || fill_device(g.x, g.xbytes) != 0 ||
        fill_device(g.y, g.ybytes) != 0) {
        gpu_release(&g);
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "cuda backend: cannot initialise the GPU buffers");
        return CALIB_ERR;
    }

    int total = nh * nb * ns + nd * ndh + 1, done = 0, rc = 0;
    for (int ih = 0; ih < nh && rc == 0; ih++) {
        for (int ib = 0; ib < nb && rc == 0; ib++) {
            for (int is = 0; is < ns && rc == 0; is++) {
                if (calib_cancelled(o)) {
                    rc = CALIB_CANCELLED;
                    break;
                }
                calib_report(o, (double)done / total, "cuda: layer GEMMs");
                calib_point p = {CALIB_POINT_PREFILL, hid[ih], bat[ib], seq[is], 0, 0, 0};
                calib_layer_cost(p.hidden, bat[ib] * seq[is], 2.0, &p.flops, &p.bytes);
                if (time_layer(&g, hid[ih], bat[ib] * seq[is], reps, &p.time_s, err) != 0)
                    rc = CALIB_ERR;
                else if (calib_result_add_point(r, &p) != 0)
                    rc = -100;
                done++;
            }
        }
    }
    for (int ih = 0; ih < ndh && rc == 0; ih++) {
        for (int it = 0; it < nd && rc == 0; it++) {
            if (calib_cancelled(o)) {
                rc = CALIB_CANCELLED;
                break;
            }
            calib_report(o, (double)done / total, "cuda: decode GEMMs");
            calib_point p = {CALIB_POINT_DECODE, dec_hid[ih], dec[it], 1, 0, 0, 0};
            calib_layer_cost(p.hidden, dec[it], 2.0, &p.flops, &p.bytes);
            if (time_layer(&g, dec_hid[ih], dec[it], reps, &p.time_s, err) != 0)
                rc = CALIB_ERR;
            else if (calib_result_add_point(r, &p) != 0)
                rc = -100;
            done++;
        }
    }
    if (rc == 0 && !calib_cancelled(o)) {
        /* HBM bandwidth: copy the weights into the activation buffer (both
         * far larger than L2); read + write counted. */
        calib_report(o, (double)done / total, "cuda: memory copy");
        size_t n = g.wbytes < g.ybytes ? g.wbytes : g.ybytes;
        double v[16];
        for (int i = -1; i < reps && rc == 0; i++) {
            cudaEventRecord(g.e0, 0);
            cudaError_t ce = cudaMemcpyAsync(g.y, g.w, n, cudaMemcpyDeviceToDevice, 0);
            cudaEventRecord(g.e1, 0);
            if (ce != cudaSuccess || cudaEventSynchronize(g.e1) != cudaSuccess) {
                if (err)
                    snprintf(err->msg, sizeof err->msg,
                             "cuda backend: device-to-device copy failed");
                rc = CALIB_ERR;
                break;
            }
            float ms = 0;
            cudaEventElapsedTime(&ms, g.e0, g.e1);
            if (i >= 0)
                v[i] = ms * 1e-3;
        }
        if (rc == 0) {
            qsort(v, (size_t)reps, sizeof v[0], engine_cmp_double);
            calib_point p = {CALIB_POINT_COPY, 0, 0, 0, 0, 2.0 * (double)n, v[reps / 2]};
            if (calib_result_add_point(r, &p) != 0)
                rc = -100;
        }
    } else if (rc == 0) {
        rc = CALIB_CANCELLED;
    }
    gpu_release(&g);
    if (rc == -100) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "cuda backend: out of host memory");
        rc = CALIB_ERR;
    }
    if (rc == 0)
        calib_report(o, 1.0, "cuda: done");
    return rc;
}

/* --- NCCL (dlopen) -------------------------------------------------------- */

/* The few NCCL declarations used, by ABI (nccl.h is not part of the CUDA
 * toolkit, so it is not required to build): results are ints, 0 success;
 * ncclFloat32 = 7, ncclSum = 0. */
typedef struct nccl_comm *nccl_comm_t;
typedef int (*nccl_init_all_fn)(nccl_comm_t *comms, int ndev, const int *devs);
typedef int (*nccl_all_reduce_fn)(const void *send, void *recv, size_t count,
                                  int dtype, int op, nccl_comm_t comm,
                                  cudaStream_t stream);
typedef int (*nccl_send_fn)(const void *send, size_t count, int dtype, int peer,
                            nccl_comm_t comm, cudaStream_t stream);
typedef int (*nccl_recv_fn)(void *recv, size_t count, int dtype, int peer,
                            nccl_comm_t comm, cudaStream_t stream);
typedef int (*nccl_group_fn)(void);
typedef int (*nccl_destroy_fn)(nccl_comm_t comm);
typedef const char *(*nccl_error_string_fn)(int result);

#define NCCL_MAX_DEV 8
#define NCCL_FLOAT32 7
#define NCCL_SUM 0

/* What the timing callbacks of calib_comm_sweep need: the loaded entry
 * points, one communicator, stream and pair of buffers per GPU, and, for
 * send/recv, a pair of events on the two GPUs involved.  `why` keeps the
 * last failure's details (the sweep itself only sees a code). */
typedef struct nccl_ctx {
    nccl_init_all_fn init_all;
    nccl_all_reduce_fn all_reduce;
    nccl_send_fn send_fn;     /* NULL: NCCL older than 2.7 */
    nccl_recv_fn recv_fn;
    nccl_group_fn group_start, group_end;
    nccl_destroy_fn destroy;
    nccl_error_string_fn error_string; /* may be NULL */
    int ndev;
    void *send[NCCL_MAX_DEV], *recv[NCCL_MAX_DEV];
    cudaStream_t st[NCCL_MAX_DEV];
    nccl_comm_t comms[NCCL_MAX_DEV];
    int src, dst;             /* send/recv: rank src sends to rank dst */
    cudaEvent_t ev0[2], ev1[2]; /* on GPUs src and dst */
    int events;
    char why[160];
} nccl_ctx;

/* Operations per timed call: enough to amortise the host's launch and
 * synchronisation for small messages, few for the large ones. */
static int nccl_iters(size_t bytes)
{
    return bytes <= (1u << 20) ? 20 : bytes <= (64u << 20) ? 5 : 2;
}

static int nccl_fail(nccl_ctx *c, const char *what, int code)
{
    const char *s = c->error_string ? c->error_string(code) : NULL;
    snprintf(c->why, sizeof c->why, "%s returned %d%s%.100s%s", what, code,
             s ? " (" : "", s ? s : "", s ? ")" : "");
    return code ? code : -1;
}

static int cuda_fail(nccl_ctx *c, const char *what, cudaError_t e)
{
    snprintf(c->why, sizeof c->why, "%s: %.100s", what, cudaGetErrorString(e));
    return -1;
}

static int nccl_sync_all(nccl_ctx *c)
{
    int rc = 0;
    for (int i = 0; i < c->ndev; i++) {
        cudaSetDevice(i);
        cudaError_t e = cudaStreamSynchronize(c->st[i]);
        if (e != cudaSuccess && rc == 0)
            rc = cuda_fail(c, "cudaStreamSynchronize", e);
    }
    return rc;
}

/* One timed call of the all-reduce sweep (nccl-tests all_reduce_perf
 * conventions: size = buffer bytes per GPU; wall time per operation over a
 * loop, every stream synchronised before and after). */
static int op_all_reduce(void *vctx, size_t bytes, double *seconds)
{
    nccl_ctx *c = vctx;
    int iters = nccl_iters(bytes);
    if (nccl_sync_all(c) != 0)
        return -1;
    double t0 = calib_now_s();
    for (int it = 0; it < iters; it++) {
        int g = c->group_start();
        if (g != 0)
            return nccl_fail(c, "ncclGroupStart", g);
        int e = 0;
        for (int i = 0; i < c->ndev && e == 0; i++)
            e = c->all_reduce(c->send[i], c->recv[i], bytes / 4, NCCL_FLOAT32,
                              NCCL_SUM, c->comms[i], c->st[i]);
        g = c->group_end();
        if (e != 0)
            return nccl_fail(c, "ncclAllReduce", e);
        if (g != 0)
            return nccl_fail(c, "ncclGroupEnd", g);
    }
    if (nccl_sync_all(c) != 0)
        return -1;
    *seconds = (calib_now_s() - t0) / iters;
    return 0;
}

/* One timed call of the send/recv sweep: rank src sends `bytes` to rank
 * dst, iters times, each pair grouped (ncclGroupStart/End), timed with
 * CUDA events on both GPUs' streams; the slower side's time per transfer
 * (the receiver's, normally: it waits for the data).  nccl-tests
 * sendrecv_perf conventions: algbw = busbw = bytes / time. */
static int op_send_recv(void *vctx, size_t bytes, double *seconds)
{
    nccl_ctx *c = vctx;
    int iters = nccl_iters(bytes), dev[2] = {c->src, c->dst};
    cudaError_t ce;
    for (int j = 0; j < 2; j++) {
        cudaSetDevice(dev[j]);
        if ((ce = cudaEventRecord(c->ev0[j], c->st[dev[j]])) != cudaSuccess)
            return cuda_fail(c, "cudaEventRecord", ce);
    }
    for (int it = 0; it < iters; it++) {
        int g = c->group_start();
        if (g != 0)
            return nccl_fail(c, "ncclGroupStart", g);
        int e = c->send_fn(c->send[c->src], bytes / 4, NCCL_FLOAT32, c->dst,
                           c->comms[c->src], c->st[c->src]);
        const char *what = "ncclSend";
        if (e == 0) {
            e = c->recv_fn(c->recv[c->dst], bytes / 4, NCCL_FLOAT32, c->src,
                           c->comms[c->dst], c->st[c->dst]);
            what = "ncclRecv";
        }
        g = c->group_end();
        if (e != 0)
            return nccl_fail(c, what, e);
        if (g != 0)
            return nccl_fail(c, "ncclGroupEnd", g);
    }
    double worst = 0;
    for (int j = 0; j < 2; j++) {
        cudaSetDevice(dev[j]);
        if ((ce = cudaEventRecord(c->ev1[j], c->st[dev[j]])) != cudaSuccess)
            return cuda_fail(c, "cudaEventRecord", ce);
    }
    for (int j = 0; j < 2; j++) {
        cudaSetDevice(dev[j]);
        float ms = 0;
        if ((ce = cudaEventSynchronize(c->ev1[j])) != cudaSuccess ||
            (ce = cudaEventElapsedTime(&ms, c->ev0[j], c->ev1[j])) != cudaSuccess)
            return cuda_fail(c, "waiting for the transfer", ce);
        if (ms * 1e-3 > worst)
            worst = ms * 1e-3;
    }
    *seconds = worst / iters;
    return 0;
}

/* Progress of one of the two sweeps as a slice [lo, hi] of the caller's. */
typedef struct nccl_progress {
    const calib_opts *outer;
    double lo, hi;
} nccl_progress;

static void nccl_progress_cb(void *ctx, double f, const char *step)
{
    nccl_progress *p = ctx;
    calib_report(p->outer, p->lo + (p->hi - p->lo) * f, step);
}

/* Appends the details a timing callback left in c->why to err. */
static void add_why(engine_error *err, const nccl_ctx *c)
{
    if (!err || !c->why[0])
        return;
    char head[ENGINE_ERROR_MAX];
    snprintf(head, sizeof head, "%s", err->msg);
    snprintf(err->msg, sizeof err->msg, "%.200s: %.160s", head, c->why);
}

/* The send/recv sweep from GPU 0 to GPU 1 on the communicators of the
 * all-reduce.  Fills r->p2p and r->p2p_label, or r->p2p_error; 3 when
 * cancelled, else 0 (a failure here keeps the all-reduce). */
static int nccl_p2p_sweep(nccl_ctx *c, const calib_opts *o,
                          const calib_comm_sweep_spec *base, calib_result *r)
{
    r->n_p2p = 0;
    r->p2p_label[0] = '\0';
    if (!c->send_fn || !c->recv_fn) {
        snprintf(r->p2p_error, sizeof r->p2p_error,
                 "nccl send/recv: libnccl has no ncclSend/ncclRecv (NCCL 2.7 "
                 "or later needed)");
        return 0;
    }
    c->src = 0;
    c->dst = 1;
    c->why[0] = '\0';
    int dev[2] = {c->src, c->dst}, ok = 1;
    for (int j = 0; j < 2 && ok; j++) {
        cudaSetDevice(dev[j]);
        if (cudaEventCreate(&c->ev0[j]) != cudaSuccess)
            ok = 0;
        else if (cudaEventCreate(&c->ev1[j]) != cudaSuccess) {
            cudaEventDestroy(c->ev0[j]);
            ok = 0;
        } else {
            c->events = j + 1;
        }
    }
    int rc = 0;
    if (!ok) {
        snprintf(r->p2p_error, sizeof r->p2p_error,
                 "nccl send/recv: cudaEventCreate failed");
    } else {
        calib_comm_sweep_spec spec = *base;
        spec.label = "nccl send/recv";
        engine_error perr = {{0}};
        rc = calib_comm_sweep(o, &spec, op_send_recv, c, &r->p2p, &r->n_p2p, &perr);
        if (rc == 0) {
            snprintf(r->p2p_label, sizeof r->p2p_label,
                     "NCCL send/recv (GPU %d -> GPU %d)", c->src, c->dst);
        } else if (rc != CALIB_CANCELLED) {
            add_why(&perr, c);
            snprintf(r->p2p_error, sizeof r->p2p_error, "%s", perr.msg);
            rc = 0;
        }
    }
    for (int j = 0; j < c->events; j++) {
        cudaSetDevice(dev[j]);
        cudaEventDestroy(c->ev0[j]);
        cudaEventDestroy(c->ev1[j]);
    }
    c->events = 0;
    return rc;
}

calib_status calib_cuda_comm(const calib_opts *o, calib_result *r, engine_error *err)
{
    int ndev = r->dev.count < NCCL_MAX_DEV ? r->dev.count : NCCL_MAX_DEV;
    if (ndev < 2) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "one GPU: no NCCL sweep");
        return -1;
    }
    void *lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        lib = dlopen("libnccl.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "libnccl.so.2 not found");
        return -1;
    }
    nccl_ctx c;
    memset(&c, 0, sizeof c);
    c.ndev = ndev;
    c.init_all = (nccl_init_all_fn)dlsym(lib, "ncclCommInitAll");
    c.all_reduce = (nccl_all_reduce_fn)dlsym(lib, "ncclAllReduce");
    c.group_start = (nccl_group_fn)dlsym(lib, "ncclGroupStart");
    c.group_end = (nccl_group_fn)dlsym(lib, "ncclGroupEnd");
    c.destroy = (nccl_destroy_fn)dlsym(lib, "ncclCommDestroy");
    c.send_fn = (nccl_send_fn)dlsym(lib, "ncclSend");
    c.recv_fn = (nccl_recv_fn)dlsym(lib, "ncclRecv");
    c.error_string = (nccl_error_string_fn)dlsym(lib, "ncclGetErrorString");
    if (!c.init_all || !c.all_reduce || !c.group_start || !c.group_end || !c.destroy) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "libnccl lacks the needed symbols");
        dlclose(lib);
        return -1;
    }
    size_t max_bytes = o->quick ? (64u << 20) : ((size_t)1 << 30);
    int devs[NCCL_MAX_DEV], rc = 0, have_comms = 0;
    for (int i = 0; i < ndev && rc == 0; i++) {
        devs[i] = i;
        if (cudaSetDevice(i) != cudaSuccess || cudaMalloc(&c.send[i], max_bytes) != cudaSuccess ||
            cudaMalloc(&c.recv[i], max_bytes) != cudaSuccess ||
            cudaMemset(c.send[i], 0, max_bytes) != cudaSuccess ||
            cudaStreamCreate(&c.st[i]) != cudaSuccess)
            rc = -1;
    }
    if (rc == 0 && c.init_all(c.comms, ndev, devs) != 0)
        rc = -1;
    else if (rc == 0)
        have_comms = 1;
    if (rc != 0 && err)
        snprintf(err->msg, sizeof err->msg,
                 "NCCL setup failed on %d GPUs (buffers or ncclCommInitAll)", ndev);

    /* 1 KiB .. max in steps of 4x; one warm-up call (NCCL connects lazily:
     * the first operation between two GPUs pays for the setup), median of 3
     * timed calls, each itself an average over nccl_iters operations. */
    calib_comm_sweep_spec spec = {"nccl all-reduce", 1024, max_bytes, 4, 1, 3};
    calib_opts inner = *o;
    nccl_progress np = {o, 0.0, 0.5};
    inner.progress = nccl_progress_cb;
    inner.progress_ctx = &np;
    if (rc == 0) {
        r->n_comm = 0;
        rc = calib_comm_sweep(&inner, &spec, op_all_reduce, &c, &r->comm, &r->n_comm, err);
        if (rc == -1)
            add_why(err, &c);
    }
    if (rc == 0) {
        np.lo = 0.5;
        np.hi = 1.0;
        rc = nccl_p2p_sweep(&c, &inner, &spec, r);
    }
    for (int i = 0; i < ndev; i++) {
        if (have_comms && c.comms[i])
            c.destroy(c.comms[i]);
        cudaSetDevice(i);
        if (c.st[i])
            cudaStreamDestroy(c.st[i]);
        if (c.send[i])
            cudaFree(c.send[i]);
        if (c.recv[i])
            cudaFree(c.recv[i]);
    }
    cudaSetDevice(o->device);
    dlclose(lib);
    if (rc == 0)
        snprintf(r->comm_label, sizeof r->comm_label, "NCCL AllReduce (%d GPUs)", ndev);
    else if (rc != CALIB_CANCELLED)
        r->n_comm = 0;
    return rc;
}
