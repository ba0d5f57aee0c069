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
 * HBM bandwidth.  With two or more GPUs, an NCCL AllReduce sweep (NCCL is
 * loaded with dlopen, so the binary never depends on it).
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
#include <time.h>

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

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

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
    qsort(v, (size_t)reps, sizeof v[0], cmp_double);
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

int calib_cuda_measure(const calib_opts *o, calib_result *r, engine_error *err)
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
        return 2;
    if (o->device < 0 || o->device >= count) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "no CUDA device %d (%d device%s visible)", o->device, count,
                     count == 1 ? "" : "s");
        return 2;
    }
    int e = g.api.set_device(o->device);
    if (e != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "cannot use GPU %d: cudaSetDevice: %s", o->device, cuda_msg(e));
        return 2;
    }
    calib_device *d = &r->dev;
    memset(d, 0, sizeof *d);
    e = g.api.device_info(o->device, d);
    if (e != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "cannot read GPU %d's properties: %s", o->device, cuda_msg(e));
        return 2;
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
            return -1;
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
        return 2;
    }
    g.blas = handle;
    if (cudaEventCreate(&g.e0) != cudaSuccess) {
        gpu_release(&g);
        if (err)
            snprintf(err->msg, sizeof err->msg, "cuda backend: cudaEventCreate failed");
        return -1;
    }
    if (cudaEventCreate(&g.e1) != cudaSuccess) {
        cudaEventDestroy(g.e0);
        gpu_release(&g);
        if (err)
            snprintf(err->msg, sizeof err->msg, "cuda backend: cudaEventCreate failed");
        return -1;
    }
    g.events = 1;
    if (fill_device(g.w, g.wbytes) != 0 || fill_device(g.x, g.xbytes) != 0 ||
        fill_device(g.y, g.ybytes) != 0) {
        gpu_release(&g);
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "cuda backend: cannot initialise the GPU buffers");
        return -1;
    }

    int total = nh * nb * ns + nd * ndh + 1, done = 0, rc = 0;
    for (int ih = 0; ih < nh && rc == 0; ih++) {
        for (int ib = 0; ib < nb && rc == 0; ib++) {
            for (int is = 0; is < ns && rc == 0; is++) {
                if (calib_cancelled(o)) {
                    rc = 3;
                    break;
                }
                calib_report(o, (double)done / total, "cuda: layer GEMMs");
                calib_point p = {CALIB_POINT_PREFILL, hid[ih], bat[ib], seq[is], 0, 0, 0};
                calib_layer_cost(p.hidden, bat[ib] * seq[is], 2.0, &p.flops, &p.bytes);
                if (time_layer(&g, hid[ih], bat[ib] * seq[is], reps, &p.time_s, err) != 0)
                    rc = -1;
                else if (calib_result_add_point(r, &p) != 0)
                    rc = -2;
                done++;
            }
        }
    }
    for (int ih = 0; ih < ndh && rc == 0; ih++) {
        for (int it = 0; it < nd && rc == 0; it++) {
            if (calib_cancelled(o)) {
                rc = 3;
                break;
            }
            calib_report(o, (double)done / total, "cuda: decode GEMMs");
            calib_point p = {CALIB_POINT_DECODE, dec_hid[ih], dec[it], 1, 0, 0, 0};
            calib_layer_cost(p.hidden, dec[it], 2.0, &p.flops, &p.bytes);
            if (time_layer(&g, dec_hid[ih], dec[it], reps, &p.time_s, err) != 0)
                rc = -1;
            else if (calib_result_add_point(r, &p) != 0)
                rc = -2;
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
                rc = -1;
                break;
            }
            float ms = 0;
            cudaEventElapsedTime(&ms, g.e0, g.e1);
            if (i >= 0)
                v[i] = ms * 1e-3;
        }
        if (rc == 0) {
            qsort(v, (size_t)reps, sizeof v[0], cmp_double);
            calib_point p = {CALIB_POINT_COPY, 0, 0, 0, 0, 2.0 * (double)n, v[reps / 2]};
            if (calib_result_add_point(r, &p) != 0)
                rc = -2;
        }
    } else if (rc == 0) {
        rc = 3;
    }
    gpu_release(&g);
    if (rc == -2) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "cuda backend: out of host memory");
        rc = -1;
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
typedef int (*nccl_group_fn)(void);
typedef int (*nccl_destroy_fn)(nccl_comm_t comm);

#define NCCL_MAX_DEV 8

int calib_cuda_comm(const calib_opts *o, calib_result *r, engine_error *err)
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
    nccl_init_all_fn init_all = (nccl_init_all_fn)dlsym(lib, "ncclCommInitAll");
    nccl_all_reduce_fn all_reduce = (nccl_all_reduce_fn)dlsym(lib, "ncclAllReduce");
    nccl_group_fn group_start = (nccl_group_fn)dlsym(lib, "ncclGroupStart");
    nccl_group_fn group_end = (nccl_group_fn)dlsym(lib, "ncclGroupEnd");
    nccl_destroy_fn destroy = (nccl_destroy_fn)dlsym(lib, "ncclCommDestroy");
    if (!init_all || !all_reduce || !group_start || !group_end || !destroy) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "libnccl lacks the needed symbols");
        dlclose(lib);
        return -1;
    }
    size_t max_bytes = o->quick ? (64u << 20) : ((size_t)1 << 30);
    void *send[NCCL_MAX_DEV] = {0}, *recv[NCCL_MAX_DEV] = {0};
    cudaStream_t st[NCCL_MAX_DEV] = {0};
    nccl_comm_t comms[NCCL_MAX_DEV] = {0};
    int devs[NCCL_MAX_DEV], rc = 0, have_comms = 0;
    for (int i = 0; i < ndev && rc == 0; i++) {
        devs[i] = i;
        if (cudaSetDevice(i) != cudaSuccess || cudaMalloc(&send[i], max_bytes) != cudaSuccess ||
            cudaMalloc(&recv[i], max_bytes) != cudaSuccess ||
            cudaMemset(send[i], 0, max_bytes) != cudaSuccess ||
            cudaStreamCreate(&st[i]) != cudaSuccess)
            rc = -1;
    }
    if (rc == 0 && init_all(comms, ndev, devs) != 0)
        rc = -1;
    else if (rc == 0)
        have_comms = 1;
    if (rc != 0 && err)
        snprintf(err->msg, sizeof err->msg,
                 "NCCL setup failed on %d GPUs (buffers or ncclCommInitAll)", ndev);
    int nsizes = 0;
    for (size_t n = 1024; n <= max_bytes; n *= 4)
        nsizes++;
    int k = 0;
    for (size_t n = 1024; rc == 0 && n <= max_bytes; n *= 4, k++) {
        if (calib_cancelled(o)) {
            rc = 3;
            break;
        }
        calib_report(o, (double)k / nsizes, "nccl: all-reduce sizes");
        /* nccl-tests conventions: size = buffer bytes per GPU, time per
         * operation averaged over a timed loop after warm-ups. */
        int iters = n <= (1u << 20) ? 20 : 5;
        double t0 = 0;
        for (int it = -3; it < iters && rc == 0; it++) {
            if (it == 0) {
                for (int i = 0; i < ndev; i++) {
                    cudaSetDevice(i);
                    cudaStreamSynchronize(st[i]);
                }
                t0 = now_s();
            }
            if (group_start() != 0)
                rc = -1;
            for (int i = 0; i < ndev && rc == 0; i++)
                if (all_reduce(send[i], recv[i], n / 4, 7, 0, comms[i], st[i]) != 0)
                    rc = -1;
            if (group_end() != 0)
                rc = -1;
        }
        for (int i = 0; i < ndev; i++) {
            cudaSetDevice(i);
            if (cudaStreamSynchronize(st[i]) != cudaSuccess)
                rc = -1;
        }
        if (rc != 0) {
            if (err)
                snprintf(err->msg, sizeof err->msg, "ncclAllReduce of %zu bytes failed", n);
            break;
        }
        if (calib_result_add_comm(r, (double)n, (now_s() - t0) / iters) != 0) {
            rc = -1;
            if (err)
                snprintf(err->msg, sizeof err->msg, "nccl: out of memory");
        }
    }
    for (int i = 0; i < ndev; i++) {
        if (have_comms && comms[i])
            destroy(comms[i]);
        cudaSetDevice(i);
        if (st[i])
            cudaStreamDestroy(st[i]);
        if (send[i])
            cudaFree(send[i]);
        if (recv[i])
            cudaFree(recv[i]);
    }
    cudaSetDevice(o->device);
    dlclose(lib);
    if (rc == 0)
        snprintf(r->comm_label, sizeof r->comm_label, "NCCL AllReduce (%d GPUs)", ndev);
    else if (rc != 3)
        r->n_comm = 0;
    return rc;
}
