/*
 * cuda.c - the GPU calibration backend, plain C over the CUDA runtime and
 * cuBLAS C APIs, both loaded with dlopen when a calibration starts (the
 * nvtop way: this file declares the few values it uses instead of
 * including the toolkit's headers, so it always builds and the binary
 * never depends on a CUDA library).  Every CUDA and cuBLAS call goes
 * through a calib_cuda_api table: the real one, filled here from one
 * symbol table, or a test's fake.
 *
 * It checks for a device first (cudaGetDeviceCount: no library, no GPU or
 * no driver is a clean one-line error), reads the device's name, SM count,
 * clocks and driver/runtime versions, allocates every buffer once, creates
 * the cuBLAS handle, then times with CUDA events - one warm-up, median of
 * the repeats - the four GEMMs of one transformer layer (fp16 on tensor
 * cores, FP32 accumulation) over the seed's grid (hidden 768..8192, batch
 * 1..8, sequence 512 and 2048), decode-shaped GEMMs of 1..256 tokens, and
 * a device-to-device copy for HBM bandwidth.  With two or more GPUs, NCCL
 * sweeps (NCCL is loaded with dlopen too): AllReduce over every GPU, then
 * send/recv from GPU 0 to GPU 1, both through calib_comm_sweep (comm.c:
 * sizes, warm-up, median) with a timing callback each.
 */
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "internal.h"

/* cuBLAS and library_types.h values (stable across CUDA 11..13). */
#define CUBLAS_OP_N 0
#define CUDA_R_16F 2
#define CUBLAS_COMPUTE_32F 68
#define CUBLAS_GEMM_DEFAULT (-1)
#define CUBLAS_OP_T 1
#define CUDA_R_32F 0
#define CUDA_R_16BF 14
#define CUDA_R_8F_E4M3 28
/* cublasLtMatmulDescAttributes_t (cublasLt.h, CUDA 12/13) */
#define LT_DESC_TRANSA 3
#define LT_DESC_TRANSB 4
#define LT_DESC_A_SCALE_POINTER 17
#define LT_DESC_B_SCALE_POINTER 18
#define LT_WORKSPACE_BYTES (32u << 20) /* cuBLAS's recommendation for Hopper */

/* --- the real table: one symbol list for loading and for checking ------ */

enum { LIB_CUDART = 0, LIB_CUBLAS = 1, LIB_CUBLASLT = 2, N_LIBS = 3 };

typedef struct cuda_sym {
    size_t off;        /* of the member in calib_cuda_api */
    int lib;
    const char *name;  /* the C symbol */
    const char *alt;   /* tried first when set (a versioned symbol) */
    int optional;
} cuda_sym;

#define SYM(member, lib, name, alt, opt) {offsetof(calib_cuda_api, member), lib, name, alt, opt}
static const cuda_sym SYMS[] = {
    SYM(get_device_count, LIB_CUDART, "cudaGetDeviceCount", NULL, 0),
    SYM(set_device, LIB_CUDART, "cudaSetDevice", NULL, 0),
    SYM(get_device_properties, LIB_CUDART, "cudaGetDeviceProperties",
        "cudaGetDeviceProperties_v2", 0),
    SYM(device_get_attribute, LIB_CUDART, "cudaDeviceGetAttribute", NULL, 0),
    SYM(mem_get_info, LIB_CUDART, "cudaMemGetInfo", NULL, 0),
    SYM(driver_get_version, LIB_CUDART, "cudaDriverGetVersion", NULL, 0),
    SYM(runtime_get_version, LIB_CUDART, "cudaRuntimeGetVersion", NULL, 0),
    SYM(mem_alloc, LIB_CUDART, "cudaMalloc", NULL, 0),
    SYM(mem_free, LIB_CUDART, "cudaFree", NULL, 0),
    SYM(mem_copy, LIB_CUDART, "cudaMemcpy", NULL, 0),
    SYM(mem_copy_async, LIB_CUDART, "cudaMemcpyAsync", NULL, 0),
    SYM(mem_set, LIB_CUDART, "cudaMemset", NULL, 0),
    SYM(event_create, LIB_CUDART, "cudaEventCreate", NULL, 0),
    SYM(event_destroy, LIB_CUDART, "cudaEventDestroy", NULL, 0),
    SYM(event_record, LIB_CUDART, "cudaEventRecord", NULL, 0),
    SYM(event_synchronize, LIB_CUDART, "cudaEventSynchronize", NULL, 0),
    SYM(event_elapsed_ms, LIB_CUDART, "cudaEventElapsedTime", NULL, 0),
    SYM(stream_create, LIB_CUDART, "cudaStreamCreate", NULL, 0),
    SYM(stream_destroy, LIB_CUDART, "cudaStreamDestroy", NULL, 0),
    SYM(stream_synchronize, LIB_CUDART, "cudaStreamSynchronize", NULL, 0),
    SYM(error_string, LIB_CUDART, "cudaGetErrorString", NULL, 1),
    SYM(error_name, LIB_CUDART, "cudaGetErrorName", NULL, 1),
    SYM(blas_create, LIB_CUBLAS, "cublasCreate_v2", NULL, 0),
    SYM(blas_destroy, LIB_CUBLAS, "cublasDestroy_v2", NULL, 0),
    SYM(blas_gemm_ex, LIB_CUBLAS, "cublasGemmEx", NULL, 0),
    SYM(blas_gemm_strided_batched_ex, LIB_CUBLAS, "cublasGemmStridedBatchedEx", NULL, 1),
    SYM(blas_gemm_grouped_batched_ex, LIB_CUBLAS, "cublasGemmGroupedBatchedEx", NULL, 1),
    SYM(mem_set_async, LIB_CUDART, "cudaMemsetAsync", NULL, 1),
    SYM(stream_begin_capture, LIB_CUDART, "cudaStreamBeginCapture", NULL, 1),
    SYM(stream_end_capture, LIB_CUDART, "cudaStreamEndCapture", NULL, 1),
    SYM(graph_instantiate, LIB_CUDART, "cudaGraphInstantiateWithFlags", NULL, 1),
    SYM(graph_launch, LIB_CUDART, "cudaGraphLaunch", NULL, 1),
    SYM(graph_exec_destroy, LIB_CUDART, "cudaGraphExecDestroy", NULL, 1),
    SYM(graph_destroy, LIB_CUDART, "cudaGraphDestroy", NULL, 1),
    SYM(lt_create, LIB_CUBLASLT, "cublasLtCreate", NULL, 1),
    SYM(lt_destroy, LIB_CUBLASLT, "cublasLtDestroy", NULL, 1),
    SYM(lt_desc_create, LIB_CUBLASLT, "cublasLtMatmulDescCreate", NULL, 1),
    SYM(lt_desc_destroy, LIB_CUBLASLT, "cublasLtMatmulDescDestroy", NULL, 1),
    SYM(lt_desc_set, LIB_CUBLASLT, "cublasLtMatmulDescSetAttribute", NULL, 1),
    SYM(lt_layout_create, LIB_CUBLASLT, "cublasLtMatrixLayoutCreate", NULL, 1),
    SYM(lt_layout_destroy, LIB_CUBLASLT, "cublasLtMatrixLayoutDestroy", NULL, 1),
    SYM(lt_matmul, LIB_CUBLASLT, "cublasLtMatmul", NULL, 1),
};
#define N_SYMS (sizeof SYMS / sizeof SYMS[0])

/* Library names, newest first after the unversioned development link;
 * libcudart.so.11.0 is CUDA 11's soname.  cuBLAS of the runtime's major
 * version is tried before the list (libcublas loads its own cublasLt). */
static const char *const LIB_NAMES[N_LIBS][6] = {
    {"libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0",
     "libcudart.so.11", NULL},
    {"libcublas.so", "libcublas.so.13", "libcublas.so.12", "libcublas.so.11", NULL, NULL},
    {"libcublasLt.so", "libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so.11", NULL,
     NULL}};
static const char *const LIB_WHAT[N_LIBS] = {"the CUDA runtime", "cuBLAS", "cublasLt"};

static void *member(const calib_cuda_api *a, const cuda_sym *s)
{
    void *p;
    memcpy(&p, (const char *)a + s->off, sizeof p);
    return p;
}

/* Loaded once per process and never unloaded (the CUDA runtime does not
 * survive dlclose well); immutable after the once-call. */
static struct {
    calib_cuda_api api;
    int ok[N_LIBS];
    char why[N_LIBS][200];
} g_cuda;
static pthread_once_t g_cuda_once = PTHREAD_ONCE_INIT;

static void *open_lib(int lib, const char *first)
{
    void *h = first ? dlopen(first, RTLD_NOW | RTLD_LOCAL) : NULL;
    for (int i = 0; !h && LIB_NAMES[lib][i]; i++)
        h = dlopen(LIB_NAMES[lib][i], RTLD_NOW | RTLD_LOCAL);
    if (!h)
        snprintf(g_cuda.why[lib], sizeof g_cuda.why[lib],
                 "%s is not installed (tried %s, .13, .12, .11)", LIB_WHAT[lib],
                 LIB_NAMES[lib][0]);
    return h;
}

static int bind_syms(int lib, void *h)
{
    for (size_t i = 0; i < N_SYMS; i++) {
        const cuda_sym *s = &SYMS[i];
        if (s->lib != lib)
            continue;
        void *p = s->alt ? dlsym(h, s->alt) : NULL;
        if (!p)
            p = dlsym(h, s->name);
        if (!p && !s->optional) {
            snprintf(g_cuda.why[lib], sizeof g_cuda.why[lib], "%s has no %s",
                     LIB_WHAT[lib], s->name);
            return -1;
        }
        memcpy((char *)&g_cuda.api + s->off, &p, sizeof p);
    }
    return 0;
}

static void load_real(void)
{
    void *rt = open_lib(LIB_CUDART, NULL);
    g_cuda.ok[LIB_CUDART] = rt && bind_syms(LIB_CUDART, rt) == 0;
    if (!g_cuda.ok[LIB_CUDART])
        return;
    char same[32] = "";
    int v = 0;
    if (g_cuda.api.runtime_get_version(&v) == 0 && v >= 1000)
        snprintf(same, sizeof same, "libcublas.so.%d", v / 1000);
    void *blas = open_lib(LIB_CUBLAS, same[0] ? same : NULL);
    g_cuda.ok[LIB_CUBLAS] = blas && bind_syms(LIB_CUBLAS, blas) == 0;
    if (v >= 1000)
        snprintf(same, sizeof same, "libcublasLt.so.%d", v / 1000);
    void *lt = g_cuda.ok[LIB_CUBLAS] ? open_lib(LIB_CUBLASLT, same[0] ? same : NULL) : NULL;
    g_cuda.ok[LIB_CUBLASLT] = lt && bind_syms(LIB_CUBLASLT, lt) == 0; /* optional: fp8 */
}

/* The table to use: the caller's (checked complete) or the real one.
 * need_blas: the cuBLAS members too.  NULL with err ("no usable GPU: ..."). */
static const calib_cuda_api *api_get(const calib_cuda_api *in, int need_blas,
                                     engine_error *err)
{
    if (!in) {
        pthread_once(&g_cuda_once, load_real);
        for (int lib = 0; lib <= need_blas; lib++)
            if (!g_cuda.ok[lib]) {
                if (err)
                    snprintf(err->msg, sizeof err->msg, "no usable GPU: %s",
                             g_cuda.why[lib]);
                return NULL;
            }
        return &g_cuda.api;
    }
    for (size_t i = 0; i < N_SYMS; i++)
        if (!SYMS[i].optional && SYMS[i].lib <= need_blas && !member(in, &SYMS[i])) {
            if (err)
                snprintf(err->msg, sizeof err->msg,
                         "no usable GPU: the CUDA table has no %s", SYMS[i].name);
            return NULL;
        }
    return in;
}

/* --- error texts ---------------------------------------------------------- */

/* The runtime's texts of the codes met without a GPU, for a table without
 * error_string / error_name (the same words as libcudart's). */
static const struct {
    int code;
    const char *name, *text;
} CUDA_ERRORS[] = {
    {0, "cudaSuccess", "no error"},
    {2, "cudaErrorMemoryAllocation", "out of memory"},
    {3, "cudaErrorInitializationError", "initialization error"},
    {35, "cudaErrorInsufficientDriver",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {100, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {999, "cudaErrorUnknown", "unknown error"},
};

static const char *cuda_text(const calib_cuda_api *a, int code, int name)
{
    const char *s = NULL;
    if (a)
        s = name ? (a->error_name ? a->error_name(code) : NULL)
                 : (a->error_string ? a->error_string(code) : NULL);
    for (size_t i = 0; !s && i < sizeof CUDA_ERRORS / sizeof CUDA_ERRORS[0]; i++)
        if (CUDA_ERRORS[i].code == code)
            s = name ? CUDA_ERRORS[i].name : CUDA_ERRORS[i].text;
    return s ? s : name ? "cudaError" : "unrecognised error code";
}

static const char *cuda_msg(const calib_cuda_api *a, int code)
{
    return cuda_text(a, code, 0);
}

static const char *blas_name(int s)
{
    switch (s) {
    case 0: return "CUBLAS_STATUS_SUCCESS";
    case 1: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case 3: return "CUBLAS_STATUS_ALLOC_FAILED";
    case 7: return "CUBLAS_STATUS_INVALID_VALUE";
    case 8: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case 11: return "CUBLAS_STATUS_MAPPING_ERROR";
    case 13: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case 14: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case 15: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case 16: return "CUBLAS_STATUS_LICENSE_ERROR";
    default: return "unknown cuBLAS status";
    }
}

int calib_cuda_probe(const calib_cuda_api *api, int *count, engine_error *err)
{
    *count = 0;
    const calib_cuda_api *a = api_get(api, 0, err);
    if (!a)
        return -1;
    int n = 0, e = a->get_device_count(&n);
    if (e != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "no usable GPU: cudaGetDeviceCount failed: %s (%s)", cuda_msg(a, e),
                     cuda_text(a, e, 1));
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

/* --- the device ------------------------------------------------------------ */

/* Name, SMs, compute capability, clocks, memory and versions of `device`
 * (the current one).  0, or the failing cudaGetDeviceProperties code. */
static int read_device(const calib_cuda_api *a, int device, calib_device *d)
{
    char *prop = calloc(1, CALIB_CUDA_PROP_BYTES);
    if (!prop)
        return 2; /* cudaErrorMemoryAllocation */
    int e = a->get_device_properties(prop, device);
    if (e == 0) {
        size_t n = strnlen(prop, 256);
        if (n >= sizeof d->name)
            n = sizeof d->name - 1;
        memcpy(d->name, prop, n);
        d->name[n] = '\0';
    }
    free(prop);
    if (e != 0)
        return e;
    static const struct {
        int attr;
        size_t off;
    } attrs[] = {{CALIB_CUDA_ATTR_SM_COUNT, offsetof(calib_device, sm_count)},
                 {CALIB_CUDA_ATTR_CC_MAJOR, offsetof(calib_device, cc_major)},
                 {CALIB_CUDA_ATTR_CC_MINOR, offsetof(calib_device, cc_minor)},
                 {CALIB_CUDA_ATTR_CLOCK_KHZ, offsetof(calib_device, clock_khz)},
                 {CALIB_CUDA_ATTR_MEM_CLOCK_KHZ, offsetof(calib_device, mem_clock_khz)},
                 {CALIB_CUDA_ATTR_BUS_WIDTH, offsetof(calib_device, bus_width_bits)}};
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        int v = 0;
        if (a->device_get_attribute(&v, attrs[i].attr, device) == 0)
            memcpy((char *)d + attrs[i].off, &v, sizeof v);
    }
    size_t free_b = 0, total_b = 0;
    if (a->mem_get_info(&free_b, &total_b) == 0)
        d->memory_bytes = (double)total_b;
    int v = 0;
    if (a->driver_get_version(&v) == 0)
        d->driver_version = v;
    if (a->runtime_get_version(&v) == 0)
        d->runtime_version = v;
    return 0;
}

/* --- the sweep ---------------------------------------------------------- */

typedef struct gpu_ctx {
    const calib_cuda_api *api;
    void *blas;
    void *w, *x, *q, *y, *z;   /* weights (12 h^2), activations */
    size_t wbytes, xbytes, qbytes, ybytes;
    void *e0, *e1;
    int events;
    int dt;
} gpu_ctx;

static void gpu_release(gpu_ctx *g)
{
    if (g->events) {
        g->api->event_destroy(g->e0);
        g->api->event_destroy(g->e1);
        g->events = 0;
    }
    if (g->blas)
        g->api->blas_destroy(g->blas);
    g->blas = NULL;
    void **bufs[] = {&g->w, &g->x, &g->q, &g->y, &g->z};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
        if (*bufs[i])
            g->api->mem_free(*bufs[i]);
        *bufs[i] = NULL;
    }
}

/* Row-major C[t x n] = X[t x k] W[k x n] is column-major
 * C^T[n x t] = W^T[n x k] X^T[k x t]. */
static int gemm(gpu_ctx *g, int t, int n, int k, const void *x, const void *w,
                void *c)
{
    const float one = 1.0f, zero = 0.0f;
    return g->api->blas_gemm_ex(g->blas, CUBLAS_OP_N, CUBLAS_OP_N, n, t, k, &one, w, g->dt,
                                n, x, g->dt, k, &zero, c, g->dt, n, CUBLAS_COMPUTE_32F,
                                CUBLAS_GEMM_DEFAULT);
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

/* Median seconds of `reps` timed runs of a layer (h, t tokens), or of the
 * device-to-device copy of `copy` bytes when h == 0; `warm` warm-ups first.
 * 0, or -1 with err. */
static int time_events(gpu_ctx *g, int h, int t, size_t copy, int warm, int reps, double *median,
                       engine_error *err)
{
    const calib_cuda_api *a = g->api;
    double v[16];
    if (reps > 16)
        reps = 16;
    if (reps < 1) /* the median below needs one timed repeat */
        reps = 1;
    for (int r = -warm; r < reps; r++) { /* r < 0: warm-up */
        a->event_record(g->e0, NULL);
        int s = h ? layer(g, h, t)
                  : a->mem_copy_async(g->y, g->w, copy, CALIB_CUDA_MEMCPY_D2D, NULL);
        a->event_record(g->e1, NULL);
        int ce = a->event_synchronize(g->e1);
        if (s != 0 || ce != 0) {
            if (err && h)
                snprintf(err->msg, sizeof err->msg,
                         "cuda backend: GEMM h=%d tokens=%d failed: %s", h, t,
                         s != 0 ? "cublasGemmEx error" : cuda_msg(a, ce));
            else if (err)
                snprintf(err->msg, sizeof err->msg,
                         "cuda backend: device-to-device copy failed");
            return -1;
        }
        float ms = 0;
        a->event_elapsed_ms(&ms, g->e0, g->e1);
        if (r >= 0)
            v[r] = ms * 1e-3;
    }
    qsort(v, (size_t)reps, sizeof v[0], engine_cmp_double);
    *median = reps % 2 ? v[reps / 2] : 0.5 * (v[reps / 2 - 1] + v[reps / 2]);
    return 0;
}

/* Non-trivial fp16 data (zeros would flatter the clocks): small values of
 * both signs, copied chunk by chunk. */
static int fill_device(const calib_cuda_api *a, void *dst, size_t bytes)
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
        if (a->mem_copy((char *)dst + off, h, n, CALIB_CUDA_MEMCPY_H2D) != 0)
            rc = -1;
    }
    free(h);
    return rc;
}

/* Select the device and fill r->dev.  CALIB_OK or CALIB_NO_GPU (err). */
static calib_status gpu_open(const calib_opts *o, const calib_cuda_api *a,
                             calib_result *r, engine_error *err)
{
    int count = 0;
    if (calib_cuda_probe(a, &count, err) != 0)
        return CALIB_NO_GPU;
    if (o->device < 0 || o->device >= count) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "no CUDA device %d (%d device%s visible)",
                     o->device, count, count == 1 ? "" : "s");
        return CALIB_NO_GPU;
    }
    int e = a->set_device(o->device);
    if (e != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "cannot use GPU %d: cudaSetDevice: %s",
                     o->device, cuda_msg(a, e));
        return CALIB_NO_GPU;
    }
    calib_device *d = &r->dev;
    memset(d, 0, sizeof *d);
    e = read_device(a, o->device, d);
    if (e != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "cannot read GPU %d's properties: %s",
                     o->device, cuda_msg(a, e));
        return CALIB_NO_GPU;
    }
    snprintf(d->backend, sizeof d->backend, "cuda");
    snprintf(d->dtype, sizeof d->dtype, "fp16");
    d->index = o->device;
    d->count = count;
    return CALIB_OK;
}

int calib_cuda_describe(const calib_opts *o, calib_device *d, engine_error *err)
{
    const calib_cuda_api *a = api_get(o->cuda, 0, err);
    if (!a)
        return -1;
    calib_result *r = calloc(1, sizeof *r);
    if (!r) {
        engine_errorf(err, "cuda backend: out of host memory");
        return -1;
    }
    int rc = gpu_open(o, a, r, err) == CALIB_OK ? 0 : -1;
    if (rc == 0)
        *d = r->dev;
    free(r);
    return rc;
}

/* Buffers for the largest layer of the grid, the cuBLAS handle, the two
 * events and the initial data.  CALIB_OK; else g is released and
 * CALIB_ERR (out of memory, events) or CALIB_NO_GPU (cuBLAS). */
static calib_status gpu_setup(gpu_ctx *g, const calib_gpu_grid *gr, int device,
                              engine_error *err)
{
    const calib_cuda_api *a = g->api;
    calib_gpu_grid_bytes gb;
    calib_gpu_grid_bytes_of(gr, &gb);
    g->wbytes = gb.w;
    g->xbytes = gb.x;
    g->qbytes = gb.q;
    g->ybytes = gb.y;
    struct { void **p; size_t n; const char *what; } bufs[] = {
        {&g->w, g->wbytes, "the layer weights"}, {&g->x, g->xbytes, "the input"},
        {&g->q, g->qbytes, "the QKV output"}, {&g->y, g->ybytes, "the FFN activations"},
        {&g->z, g->xbytes, "the layer output"}};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
        int e = a->mem_alloc(bufs[i].p, bufs[i].n);
        if (e != 0) {
            *bufs[i].p = NULL;
            if (err)
                snprintf(err->msg, sizeof err->msg,
                         "out of GPU memory: cudaMalloc of %.1f MiB for %s "
                         "failed (%s); try --quick", bufs[i].n / 1048576.0,
                         bufs[i].what, cuda_msg(a, e));
            gpu_release(g);
            return CALIB_ERR;
        }
    }
    int e = a->blas_create(&g->blas);
    if (e != 0) {
        g->blas = NULL;
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "cuBLAS cannot start on GPU %d: cublasCreate returned %s", device,
                     blas_name(e));
        gpu_release(g);
        return CALIB_NO_GPU;
    }
    if (a->event_create(&g->e0) != 0) {
        gpu_release(g);
        if (err)
            snprintf(err->msg, sizeof err->msg, "cuda backend: cudaEventCreate failed");
        return CALIB_ERR;
    }
    if (a->event_create(&g->e1) != 0) {
        a->event_destroy(g->e0);
        gpu_release(g);
        if (err)
            snprintf(err->msg, sizeof err->msg, "cuda backend: cudaEventCreate failed");
        return CALIB_ERR;
    }
    g->events = 1;
    if (fill_device(a, g->w, g->wbytes) != 0 || fill_device(a, g->x, g->xbytes) != 0 ||
        fill_device(a, g->y, g->ybytes) != 0) {
        gpu_release(g);
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "cuda backend: cannot initialise the GPU buffers");
        return CALIB_ERR;
    }
    return CALIB_OK;
}

/* Time point p (the layer GEMMs of p->hidden x batch*seq tokens, or a copy
 * of `copy` bytes when copy > 0) and add it to r. */
static calib_status time_and_add(gpu_ctx *g, calib_point *p, size_t copy, int warm, int reps,
                                 calib_result *r, engine_error *err)
{
    if (time_events(g, p->hidden, p->batch * p->seq, copy, warm, reps, &p->time_s, err) != 0)
        return CALIB_ERR;
    if (calib_result_add_point(r, p) != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "cuda backend: out of host memory");
        return CALIB_ERR;
    }
    return CALIB_OK;
}

/* Time one GEMM point (h, batch x seq tokens) into r. */
static calib_status gpu_point(gpu_ctx *g, calib_point p, int warm, int reps, calib_result *r,
                              engine_error *err)
{
    calib_layer_cost(p.hidden, p.batch * p.seq, 2.0, &p.flops, &p.bytes);
    return time_and_add(g, &p, 0, warm, reps, r, err);
}

/* The prefill grid, the decode series, then the copy. */
static calib_status gpu_sweep(gpu_ctx *g, const calib_gpu_grid *gr, const calib_opts *o,
                              calib_result *r, engine_error *err)
{
    int total = gr->nh * gr->nb * gr->ns + gr->nd * gr->ndh + 1, done = 0;
    calib_status rc = CALIB_OK;
    for (int i = 0; i < gr->nh * gr->nb * gr->ns && rc == CALIB_OK; i++, done++) {
        if (calib_cancelled(o))
            return CALIB_CANCELLED;
        calib_report(o, (double)done / total, "cuda: layer GEMMs");
        int ih = i / (gr->nb * gr->ns), ib = i / gr->ns % gr->nb, is = i % gr->ns;
        calib_point p = {CALIB_POINT_PREFILL, gr->hid[ih], gr->bat[ib], gr->seq[is], 0, 0, 0};
        rc = gpu_point(g, p, gr->warmup, gr->reps, r, err);
    }
    for (int i = 0; i < gr->ndh * gr->nd && rc == CALIB_OK; i++, done++) {
        if (calib_cancelled(o))
            return CALIB_CANCELLED;
        calib_report(o, (double)done / total, "cuda: decode GEMMs");
        calib_point p = {CALIB_POINT_DECODE, gr->dec_hid[i / gr->nd], gr->dec[i % gr->nd], 1,
                         0, 0, 0};
        rc = gpu_point(g, p, gr->warmup, gr->reps, r, err);
    }
    if (rc != CALIB_OK)
        return rc;
    if (calib_cancelled(o))
        return CALIB_CANCELLED;
    /* HBM bandwidth: copy the weights into the activation buffer (both far
     * larger than L2); read + write counted. */
    calib_report(o, (double)done / total, "cuda: memory copy");
    calib_gpu_grid_bytes gb;
    calib_gpu_grid_bytes_of(gr, &gb);
    size_t n = gb.copy;
    calib_point p = {CALIB_POINT_COPY, 0, 0, 0, 0, 2.0 * (double)n, 0};
    return time_and_add(g, &p, n, gr->warmup, gr->reps, r, err);
}

/* --- the per-kernel sweep (calib_ksweep) on cuBLAS ------------------------ */

#define K_LAUNCHES CALIB_K_LAUNCHES
#define CUDA_STREAM_CAPTURE_GLOBAL 0

typedef struct kgpu {
    const calib_cuda_api *api;
    void *blas, *e0, *e1, *stream, *graph, *exec;
    void *w, *x, *y;       /* weights, input, output */
    size_t wb, xb, yb;     /* bytes */
    int dt;
    /* fp8 through cublasLt (lt NULL: not measured) */
    void *lt, *ws, *scale; /* handle, workspace, two device floats of 1.0 */
    void *desc, *la, *lb, *lc; /* the current fp8 point's descriptors */
    /* the grouped expert GEMMs: the device pointer arrays (A, B, C of
     * KGPU_MAX_GROUPS GEMMs each; NULL: none), 1 while
     * cublasGemmGroupedBatchedEx is used, and what was said about it */
    void *ptrs;
    int grouped;
    char grouped_note[200];
} kgpu;

#define KGPU_MAX_GROUPS 1024

/* Expert i's operands of grouped point p: consecutive slices of the
 * weight, input and output buffers, from the start again when one is full
 * (each buffer is 1.1 GB or more: a reused slice is long gone from a 50 MB
 * L2, as a step's distinct experts are). */
static void grouped_slices(const kgpu *g, const calib_kpoint *p, int i, void **w, void **x,
                           void **y)
{
    size_t sw = (size_t)p->n * p->k * 2, sx = (size_t)p->m * p->k * 2;
    size_t sy = (size_t)p->m * p->n * 2;
    *w = (char *)g->w + (size_t)i % (g->wb / sw) * sw;
    *x = (char *)g->x + (size_t)i % (g->xb / sx) * sx;
    *y = (char *)g->y + (size_t)i % (g->yb / sy) * sy;
}

/* The device pointer arrays of grouped point p, uploaded before its timing
 * (host work must not fall between the events).  0, or a CUDA error. */
static int grouped_prepare(kgpu *g, const calib_kpoint *p)
{
    void *host[3 * KGPU_MAX_GROUPS];
    int G = p->batch;
    for (int i = 0; i < G; i++)
        grouped_slices(g, p, i, &host[i], &host[G + i], &host[2 * G + i]);
    return g->api->mem_copy(g->ptrs, host, (size_t)3 * G * sizeof host[0],
                            CALIB_CUDA_MEMCPY_H2D);
}

/* One grouped point: one cublasGemmGroupedBatchedEx call of one group of
 * `batch` GEMMs, or (g->grouped 0) a loop of cublasGemmEx, one per expert;
 * fp16, or bf16 (CUDA_R_16BF A, B and C, compute capability 8.0+) for a
 * bf16 point. */
static int kgpu_grouped(kgpu *g, const calib_kpoint *p)
{
    const calib_cuda_api *a = g->api;
    const float one = 1.0f, zero = 0.0f;
    int dt = !strcmp(p->dtype, "bf16") ? CUDA_R_16BF : g->dt;
    if (g->grouped) {
        const int op = CUBLAS_OP_N, gm = p->n, gn = p->m, gk = p->k, G = p->batch;
        void **pa = g->ptrs;
        return a->blas_gemm_grouped_batched_ex(g->blas, &op, &op, &gm, &gn, &gk, &one,
                                               (const void *const *)pa, dt, &gm,
                                               (const void *const *)(pa + G), dt, &gk, &zero,
                                               pa + 2 * G, dt, &gm, 1, &G,
                                               CUBLAS_COMPUTE_32F);
    }
    for (int i = 0; i < p->batch; i++) {
        void *w, *x, *y;
        grouped_slices(g, p, i, &w, &x, &y);
        int s = a->blas_gemm_ex(g->blas, CUBLAS_OP_N, CUBLAS_OP_N, p->n, p->m, p->k, &one, w,
                                dt, p->n, x, dt, p->k, &zero, y, dt, p->n,
                                CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        if (s != 0)
            return s;
    }
    return 0;
}

static int kgpu_time_events(kgpu *g, calib_kpoint *p, int warm, int reps, double *t,
                            engine_error *err);

/* One kernel point on the default stream (a graph launch on g->stream). */
static int kgpu_run(kgpu *g, const calib_kpoint *p)
{
    const calib_cuda_api *a = g->api;
    const float one = 1.0f, zero = 0.0f;
    switch (p->cls) {
    case CALIB_K_COPY:
        return a->mem_copy_async(g->y, g->w, (size_t)(p->bytes / 2), CALIB_CUDA_MEMCPY_D2D,
                                 NULL);
    case CALIB_K_LAUNCH:
        for (int i = 0; i < p->batch; i++)
            if (a->mem_set_async(g->y, 0, 4, NULL) != 0)
                return -1;
        return 0;
    case CALIB_K_GRAPH: return a->graph_launch(g->exec, g->stream);
    case CALIB_K_GEMM:
        if (calib_kpoint_grouped(p))
            return kgpu_grouped(g, p);
        if (!strcmp(p->dtype, "fp8")) /* the descriptors of lt_prepare */
            return a->lt_matmul(g->lt, g->desc, &one, g->w, g->la, g->x, g->lb, &zero, g->y,
                                g->lc, g->y, g->lc, NULL, g->ws, LT_WORKSPACE_BYTES, NULL);
        if (!strcmp(p->dtype, "bf16")) { /* compute capability 8.0+: kgpu_bf16 */
            return a->blas_gemm_ex(g->blas, CUBLAS_OP_N, CUBLAS_OP_N, p->n, p->m, p->k, &one,
                                   g->w, CUDA_R_16BF, p->n, g->x, CUDA_R_16BF, p->k, &zero, g->y,
                                   CUDA_R_16BF, p->n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        }
        return a->blas_gemm_ex(g->blas, CUBLAS_OP_N, CUBLAS_OP_N, p->n, p->m, p->k, &one, g->w,
                               g->dt, p->n, g->x, g->dt, p->k, &zero, g->y, g->dt, p->n,
                               CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    case CALIB_K_ATTN: /* column-major C^T = B^T A^T, one call for the batch */
        return a->blas_gemm_strided_batched_ex(
            g->blas, CUBLAS_OP_N, CUBLAS_OP_N, p->n, p->m, p->k, &one, g->w, g->dt, p->n,
            (long long)p->n * p->k, g->x, g->dt, p->k, (long long)p->m * p->k, &zero, g->y,
            g->dt, p->n, (long long)p->m * p->n, p->batch, CUBLAS_COMPUTE_32F,
            CUBLAS_GEMM_DEFAULT);
    default:
        return a->blas_gemm_ex(g->blas, CUBLAS_OP_N, CUBLAS_OP_N, p->n, p->m, p->k, &one, g->w,
                               g->dt, p->n, g->x, g->dt, p->k, &zero, g->y, g->dt, p->n,
                               CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    }
}

static void lt_release(kgpu *g)
{
    const calib_cuda_api *a = g->api;
    void **l[] = {&g->la, &g->lb, &g->lc};
    for (int i = 0; i < 3; i++)
        if (*l[i]) {
            a->lt_layout_destroy(*l[i]);
            *l[i] = NULL;
        }
    if (g->desc)
        a->lt_desc_destroy(g->desc);
    g->desc = NULL;
}

/* The descriptors of an fp8 point, made before its timing (host work must
 * not fall between the events).  Row-major C[m x n] = X[m x k] W[k x n]
 * is column-major C^T = op(A) B with A the weights stored n rows of k
 * (transposed: the "TN" layout cublasLt's FP8 kernels take), B = X^T
 * (k x m), C bf16 (n x m); per-tensor scales of 1.0 (device pointers), FP32
 * accumulation.  0, or a cuBLAS status. */
static int lt_prepare(kgpu *g, const calib_kpoint *p)
{
    const calib_cuda_api *a = g->api;
    int ta = CUBLAS_OP_T, tb = CUBLAS_OP_N, s;
    const void *sa = g->scale, *sb = (const char *)g->scale + sizeof(float);
    if ((s = a->lt_desc_create(&g->desc, CUBLAS_COMPUTE_32F, CUDA_R_32F)) != 0) {
        g->desc = NULL;
        return s;
    }
    if ((s = a->lt_desc_set(g->desc, LT_DESC_TRANSA, &ta, sizeof ta)) != 0 ||
        (s = a->lt_desc_set(g->desc, LT_DESC_TRANSB, &tb, sizeof tb)) != 0 ||
        (s = a->lt_desc_set(g->desc, LT_DESC_A_SCALE_POINTER, &sa, sizeof sa)) != 0 ||
        (s = a->lt_desc_set(g->desc, LT_DESC_B_SCALE_POINTER, &sb, sizeof sb)) != 0 ||
        (s = a->lt_layout_create(&g->la, CUDA_R_8F_E4M3, (unsigned long long)p->k,
                                 (unsigned long long)p->n, p->k)) != 0 ||
        (s = a->lt_layout_create(&g->lb, CUDA_R_8F_E4M3, (unsigned long long)p->k,
                                 (unsigned long long)p->m, p->k)) != 0 ||
        (s = a->lt_layout_create(&g->lc, CUDA_R_16BF, (unsigned long long)p->n,
                                 (unsigned long long)p->m, p->n)) != 0)
        return s;
    return 0;
}

/* A grouped point: through cublasGemmGroupedBatchedEx while it works (a
 * failing call - an unsupported type or shape - is said once and the loop
 * of cublasGemmEx takes over for the rest of the sweep), else the loop
 * (calls = batch). */
static int kgpu_time_grouped(kgpu *g, calib_kpoint *p, int warm, int reps, double *t,
                             engine_error *err)
{
    if (g->grouped && (p->batch > KGPU_MAX_GROUPS || grouped_prepare(g, p) != 0))
        g->grouped = 0;
    if (g->grouped) {
        engine_error e = {{0}};
        if (kgpu_time_events(g, p, warm, reps, t, &e) == 0) {
            p->calls = 1;
            return 0;
        }
        g->grouped = 0;
        snprintf(g->grouped_note, sizeof g->grouped_note,
                 "; cublasGemmGroupedBatchedEx failed at %s %dx%dx%d x %d (%.60s): grouped MoE "
                 "timed as a loop of cublasGemmEx",
                 p->op, p->m, p->n, p->k, p->batch, e.msg);
    }
    p->calls = p->batch > 0 ? p->batch : 1;
    return kgpu_time_events(g, p, warm, reps, t, err);
}

static int kgpu_time(void *ctx, calib_kpoint *p, int warm, int reps, double *t,
                     engine_error *err)
{
    kgpu *g = ctx;
    int fp8 = p->cls == CALIB_K_GEMM && !strcmp(p->dtype, "fp8");
    if (fp8) {
        int s = lt_prepare(g, p);
        if (s != 0) {
            lt_release(g);
            engine_errorf(err, "cuda backend: cublasLt fp8 %s %dx%dx%d: descriptors: %s", p->op,
                          p->m, p->n, p->k, blas_name(s));
            return -1;
        }
    }
    if (calib_kpoint_grouped(p))
        return kgpu_time_grouped(g, p, warm, reps, t, err);
    int rc = kgpu_time_events(g, p, warm, reps, t, err);
    if (fp8)
        lt_release(g);
    return rc;
}

static int kgpu_time_events(kgpu *g, calib_kpoint *p, int warm, int reps, double *t,
                            engine_error *err)
{
    const calib_cuda_api *a = g->api;
    double v[16];
    reps = reps < 1 ? 1 : reps > 16 ? 16 : reps;
    void *st = p->cls == CALIB_K_GRAPH ? g->stream : NULL;
    for (int r = -warm; r < reps; r++) {
        a->event_record(g->e0, st);
        int s = kgpu_run(g, p);
        a->event_record(g->e1, st);
        int ce = a->event_synchronize(g->e1);
        float ms = 0;
        if (s != 0 || ce != 0 || a->event_elapsed_ms(&ms, g->e0, g->e1) != 0) {
            engine_errorf(err, "cuda backend: %s %dx%dx%d (batch %d) failed: %s", p->op, p->m,
                          p->n, p->k, p->batch, s != 0 ? "cuBLAS / CUDA error" : cuda_msg(a, ce));
            return -1;
        }
        if (r >= 0)
            v[r] = ms * 1e-3;
    }
    qsort(v, (size_t)reps, sizeof v[0], engine_cmp_double);
    *t = reps % 2 ? v[reps / 2] : 0.5 * (v[reps / 2 - 1] + v[reps / 2]);
    if (p->cls == CALIB_K_LAUNCH || p->cls == CALIB_K_GRAPH)
        *t /= p->batch > 0 ? p->batch : 1;
    return 0;
}

static void kgpu_free(kgpu *g)
{
    const calib_cuda_api *a = g->api;
    if (g->exec)
        a->graph_exec_destroy(g->exec);
    if (g->graph)
        a->graph_destroy(g->graph);
    if (g->stream)
        a->stream_destroy(g->stream);
    if (g->e0)
        a->event_destroy(g->e0);
    if (g->e1)
        a->event_destroy(g->e1);
    lt_release(g);
    if (g->lt)
        a->lt_destroy(g->lt);
    void *bufs[] = {g->w, g->x, g->y, g->ws, g->scale, g->ptrs};
    for (int i = 0; i < 6; i++)
        if (bufs[i])
            a->mem_free(bufs[i]);
    memset(g, 0, sizeof *g);
}

/* K_LAUNCHES tiny memsets captured on g->stream into an instantiated
 * graph.  0, or -1 (the graph point is then left out). */
static int kgpu_graph(kgpu *g)
{
    const calib_cuda_api *a = g->api;
    if (!a->stream_begin_capture || !a->stream_end_capture || !a->graph_instantiate ||
        !a->graph_launch || !a->graph_exec_destroy || !a->graph_destroy || !a->mem_set_async)
        return -1;
    if (a->stream_create(&g->stream) != 0) {
        g->stream = NULL;
        return -1;
    }
    if (a->stream_begin_capture(g->stream, CUDA_STREAM_CAPTURE_GLOBAL) != 0)
        return -1;
    int bad = 0;
    for (int i = 0; i < K_LAUNCHES; i++)
        bad |= a->mem_set_async(g->y, 0, 4, g->stream);
    if (a->stream_end_capture(g->stream, &g->graph) != 0 || bad)
        return -1;
    return a->graph_instantiate(&g->exec, g->graph, 0) == 0 ? 0 : -1;
}

/* cublasLt for the fp8 points: on a GPU with FP8 tensor cores (sm_89 and
 * later) whose table has the cublasLt calls, a handle, the workspace and
 * the two scales.  1 ready, 0 not (the reason into why). */
static int kgpu_fp8(kgpu *g, const calib_device *d, char *why, size_t len)
{
    const calib_cuda_api *a = g->api;
    if (d->cc_major * 10 + d->cc_minor < 89) {
        snprintf(why, len, "no fp8 (sm_%d%d has no FP8 tensor cores)", d->cc_major, d->cc_minor);
        return 0;
    }
    if (!a->lt_create || !a->lt_destroy || !a->lt_desc_create || !a->lt_desc_destroy ||
        !a->lt_desc_set || !a->lt_layout_create || !a->lt_layout_destroy || !a->lt_matmul) {
        snprintf(why, len, "no fp8 (cublasLt not loaded)");
        return 0;
    }
    static const float ones[2] = {1.0f, 1.0f};
    if (a->lt_create(&g->lt) != 0) {
        g->lt = NULL;
        snprintf(why, len, "no fp8 (cublasLtCreate failed)");
        return 0;
    }
    if (a->mem_alloc(&g->ws, LT_WORKSPACE_BYTES) != 0 || a->mem_alloc(&g->scale, sizeof ones) != 0 ||
        a->mem_copy(g->scale, ones, sizeof ones, CALIB_CUDA_MEMCPY_H2D) != 0) {
        snprintf(why, len, "no fp8 (out of GPU memory for cublasLt's workspace)");
        return 0;
    }
    return 1;
}

/* The grouped expert GEMMs of an MoE model: cublasGemmGroupedBatchedEx
 * where the table has it (cuBLAS 12.5+) and its pointer arrays could be
 * allocated, else a loop of cublasGemmEx; either way said in
 * g->grouped_note. */
static void kgpu_grouped_setup(kgpu *g, const engine_model *m)
{
    const calib_cuda_api *a = g->api;
    if (m->experts <= 0)
        return;
    if (!a->blas_gemm_grouped_batched_ex) {
        snprintf(g->grouped_note, sizeof g->grouped_note,
                 "; grouped MoE: a loop of cublasGemmEx, one per expert (this cuBLAS has no "
                 "cublasGemmGroupedBatchedEx: 12.5 or later has)");
        return;
    }
    if (a->mem_alloc(&g->ptrs, (size_t)3 * KGPU_MAX_GROUPS * sizeof(void *)) != 0) {
        g->ptrs = NULL;
        snprintf(g->grouped_note, sizeof g->grouped_note,
                 "; grouped MoE: a loop of cublasGemmEx (no GPU memory for the pointer arrays)");
        return;
    }
    g->grouped = 1;
    snprintf(g->grouped_note, sizeof g->grouped_note,
             "; grouped MoE: cublasGemmGroupedBatchedEx, one group of the step's experts");
}

/* Buffers for the largest point of the plan (the weights of 1 GB GEMVs,
 * 16k tokens through the widest layer, the 1 GiB copy), two events. */
static calib_status kgpu_setup(kgpu *g, const calib_opts *o, void *blas, engine_error *err)
{
    const engine_model *m = o->model;
    const calib_cuda_api *a = g->api;
    double wb, xb, yb;
    calib_kgpu_bytes(o, &wb, &xb, &yb);
    g->wb = (size_t)wb;
    g->xb = (size_t)xb;
    g->yb = (size_t)yb;
    g->blas = blas;
    void **p[] = {&g->w, &g->x, &g->y};
    size_t n[] = {g->wb, g->xb, g->yb};
    for (int i = 0; i < 3; i++)
        if (a->mem_alloc(p[i], n[i]) != 0) {
            *p[i] = NULL;
            engine_errorf(err, "out of GPU memory: cudaMalloc of %.1f MiB for the per-kernel "
                          "sweep failed; try --quick or --max-tokens", n[i] / 1048576.0);
            return CALIB_ERR;
        }
    if (a->event_create(&g->e0) != 0 || a->event_create(&g->e1) != 0) {
        engine_errorf(err, "cuda backend: cudaEventCreate failed");
        return CALIB_ERR;
    }
    if (fill_device(a, g->w, g->wb) != 0 || fill_device(a, g->x, g->xb) != 0) {
        engine_errorf(err, "cuda backend: cannot initialise the GPU buffers");
        return CALIB_ERR;
    }
    kgpu_grouped_setup(g, m);
    return CALIB_OK;
}

/* The per-kernel sweep of o->model (calib_ksweep) on the open device. */
static calib_status cuda_kernels(const calib_opts *o, const calib_cuda_api *a, void *blas,
                                 calib_result *r, engine_error *err)
{
    kgpu g;
    memset(&g, 0, sizeof g);
    g.api = a;
    g.dt = CUDA_R_16F;
    calib_status rc = kgpu_setup(&g, o, blas, err);
    int has_graph = rc == CALIB_OK && kgpu_graph(&g) == 0;
    char fp8_why[96] = "";
    int has_fp8 = rc == CALIB_OK && kgpu_fp8(&g, &r->dev, fp8_why, sizeof fp8_why);
    /* bf16 tensor cores: compute capability 8.0 (Ampere) and later (CUDA C++
     * Programming Guide, "Compute Capabilities": __nv_bfloat16 mma from 8.0) */
    int has_bf16 = rc == CALIB_OK && r->dev.cc_major >= 8;
    int v = r->dev.runtime_version;
    snprintf(r->library, sizeof r->library, "cuBLAS (CUDA %d.%d)", v / 1000, v % 1000 / 10);
    snprintf(r->kernel_note, sizeof r->kernel_note,
             "fp16 (cublasGemmEx)%s%s%s%s%s; attention proxy: "
             "batched GEMMs QK^T and PV (no softmax, no causal mask, scores written to "
             "memory); collectives: all-reduce, send/recv, all-gather, all-to-all",
             has_bf16 ? ", bf16 (cublasGemmEx CUDA_R_16BF, every token count, grouped MoE "
                        "too)" : ", no bf16 (compute capability < 8.0)",
             has_fp8 ? " and fp8 (cublasLt E4M3, bf16 out, scales 1.0)" : "; ",
             has_fp8 ? "" : fp8_why,
             a->blas_gemm_strided_batched_ex ? "" : "; no attention proxy (no "
                                                    "cublasGemmStridedBatchedEx)",
             has_graph ? "" : "; no graph launch (CUDA graphs unavailable)");
    calib_kexec x = {.ctx = &g, .tag = "cuda", .gpu = 1, .has_graph = has_graph,
                     .has_fp8 = has_fp8, .has_bf16 = has_bf16,
                     .has_attn = a->blas_gemm_strided_batched_ex != NULL,
                     .has_launch = a->mem_set_async != NULL,
                     .dtype = "fp16", .elem = 2, .prior_flops = CALIB_CUDA_PRIOR_FLOPS,
                     .prior_bw = CALIB_CUDA_PRIOR_BW, .prior_call_s = CALIB_CUDA_PRIOR_CALL_S,
                     .time = kgpu_time};
    calib_opts inner = *o;
    if (rc == CALIB_OK)
        rc = calib_ksweep(&inner, &x, r, err);
    size_t used = strlen(r->kernel_note);
    snprintf(r->kernel_note + used, sizeof r->kernel_note - used, "%s", g.grouped_note);
    kgpu_free(&g);
    return rc;
}

calib_status calib_cuda_measure(const calib_opts *o, calib_result *r, engine_error *err)
{
    const calib_cuda_api *a = api_get(o->cuda, 1, err);
    if (!a)
        return CALIB_NO_GPU;
    calib_gpu_grid gr;
    calib_gpu_grid_for(o->quick, &gr);
    gpu_ctx g;
    memset(&g, 0, sizeof g);
    g.api = a;
    g.dt = CUDA_R_16F;
    calib_status rc = gpu_open(o, a, r, err);
    if (rc == CALIB_OK)
        rc = gpu_setup(&g, &gr, o->device, err);
    if (rc != CALIB_OK)
        return rc;
    rc = gpu_sweep(&g, &gr, o, r, err);
    if (rc == CALIB_OK && o->model) {
        /* the per-kernel sweep reuses the handle; the layer buffers go first */
        void *blas = g.blas;
        g.blas = NULL;
        gpu_release(&g);
        rc = cuda_kernels(o, a, blas, r, err);
        a->blas_destroy(blas);
    }
    gpu_release(&g);
    if (rc == CALIB_OK)
        calib_report(o, 1.0, "cuda: done");
    return rc;
}

/* --- NCCL (dlopen) -------------------------------------------------------- */

#define NCCL_MAX_DEV 8
#define NCCL_FLOAT32 7 /* ncclFloat32 */
#define NCCL_SUM 0     /* ncclSum */

/* What the timing callbacks of calib_comm_sweep need: the loaded entry
 * points, one communicator, stream and pair of buffers per GPU, and, for
 * send/recv, a pair of events on the two GPUs involved.  `why` keeps the
 * last failure's details (the sweep itself only sees a code). */
typedef struct nccl_ctx {
    const calib_cuda_api *a;
    calib_nccl_api n;         /* the loaded (or the caller's) entry points */
    int ndev;
    void *send[NCCL_MAX_DEV], *recv[NCCL_MAX_DEV];
    void *st[NCCL_MAX_DEV];
    void *comms[NCCL_MAX_DEV];
    int src, dst;             /* send/recv: rank src sends to rank dst */
    void *ev0[2], *ev1[2]; /* on GPUs src and dst */
    int events;
    char why[160];
} nccl_ctx;

static int nccl_fail(nccl_ctx *c, const char *what, int code)
{
    const char *s = c->n.error_string ? c->n.error_string(code) : NULL;
    snprintf(c->why, sizeof c->why, "%s returned %d%s%.100s%s", what, code,
             s ? " (" : "", s ? s : "", s ? ")" : "");
    return code ? code : -1;
}

static int cuda_fail(nccl_ctx *c, const char *what, int e)
{
    snprintf(c->why, sizeof c->why, "%s: %.100s", what, cuda_msg(c->a, e));
    return -1;
}

static int nccl_sync_all(nccl_ctx *c)
{
    int rc = 0;
    for (int i = 0; i < c->ndev; i++) {
        c->a->set_device(i);
        int e = c->a->stream_synchronize(c->st[i]);
        if (e != 0 && rc == 0)
            rc = cuda_fail(c, "cudaStreamSynchronize", e);
    }
    return rc;
}

/* One rank's part of a collective, issued inside the caller's group: 0 or
 * NCCL's error code, with *what naming the call that returned it. */
typedef int (*nccl_rank_op)(nccl_ctx *c, int rank, size_t bytes, const char **what);

/* Times a collective as nccl-tests does: a loop of operations, each one
 * group (ncclGroupStart/End) of every rank's part, every stream
 * synchronised before and after; *seconds = wall time per operation. */
static int nccl_time_grouped(nccl_ctx *c, size_t bytes, nccl_rank_op op, double *seconds)
{
    int iters = calib_nccl_iters(bytes);
    if (nccl_sync_all(c) != 0)
        return -1;
    double (*now)(void) = c->n.now_s ? c->n.now_s : calib_now_s;
    double t0 = now();
    for (int it = 0; it < iters; it++) {
        int g = c->n.group_start();
        if (g != 0)
            return nccl_fail(c, "ncclGroupStart", g);
        int e = 0;
        const char *what = "";
        for (int i = 0; i < c->ndev && e == 0; i++)
            e = op(c, i, bytes, &what);
        g = c->n.group_end();
        if (e != 0)
            return nccl_fail(c, what, e);
        if (g != 0)
            return nccl_fail(c, "ncclGroupEnd", g);
    }
    if (nccl_sync_all(c) != 0)
        return -1;
    *seconds = (now() - t0) / iters;
    return 0;
}

/* all_reduce_perf's part of a rank: size = buffer bytes per GPU. */
static int rank_all_reduce(nccl_ctx *c, int i, size_t bytes, const char **what)
{
    *what = "ncclAllReduce";
    return c->n.all_reduce(c->send[i], c->recv[i], bytes / 4, NCCL_FLOAT32, NCCL_SUM,
                           c->comms[i], c->st[i]);
}

/* One timed call of the all-reduce sweep (nccl-tests all_reduce_perf
 * conventions). */
static int op_all_reduce(void *vctx, size_t bytes, double *seconds)
{
    return nccl_time_grouped(vctx, bytes, rank_all_reduce, seconds);
}

/* One timed call of the send/recv sweep: rank src sends `bytes` to rank
 * dst, iters times, each pair grouped (ncclGroupStart/End), timed with
 * CUDA events on both GPUs' streams; the slower side's time per transfer
 * (the receiver's, normally: it waits for the data).  nccl-tests
 * sendrecv_perf conventions: algbw = busbw = bytes / time. */
static int op_send_recv(void *vctx, size_t bytes, double *seconds)
{
    nccl_ctx *c = vctx;
    int iters = calib_nccl_iters(bytes), dev[2] = {c->src, c->dst}, ce;
    for (int j = 0; j < 2; j++) {
        c->a->set_device(dev[j]);
        if ((ce = c->a->event_record(c->ev0[j], c->st[dev[j]])) != 0)
            return cuda_fail(c, "cudaEventRecord", ce);
    }
    for (int it = 0; it < iters; it++) {
        int g = c->n.group_start();
        if (g != 0)
            return nccl_fail(c, "ncclGroupStart", g);
        int e = c->n.send(c->send[c->src], bytes / 4, NCCL_FLOAT32, c->dst,
                           c->comms[c->src], c->st[c->src]);
        const char *what = "ncclSend";
        if (e == 0) {
            e = c->n.recv(c->recv[c->dst], bytes / 4, NCCL_FLOAT32, c->src,
                           c->comms[c->dst], c->st[c->dst]);
            what = "ncclRecv";
        }
        g = c->n.group_end();
        if (e != 0)
            return nccl_fail(c, what, e);
        if (g != 0)
            return nccl_fail(c, "ncclGroupEnd", g);
    }
    double worst = 0;
    for (int j = 0; j < 2; j++) {
        c->a->set_device(dev[j]);
        if ((ce = c->a->event_record(c->ev1[j], c->st[dev[j]])) != 0)
            return cuda_fail(c, "cudaEventRecord", ce);
    }
    for (int j = 0; j < 2; j++) {
        c->a->set_device(dev[j]);
        float ms = 0;
        if ((ce = c->a->event_synchronize(c->ev1[j])) != 0 ||
            (ce = c->a->event_elapsed_ms(&ms, c->ev0[j], c->ev1[j])) != 0)
            return cuda_fail(c, "waiting for the transfer", ce);
        if (ms * 1e-3 > worst)
            worst = ms * 1e-3;
    }
    *seconds = worst / iters;
    return 0;
}

/* all_gather_perf's part of a rank: size = the gathered buffer per GPU,
 * each rank contributing size / n. */
static int rank_all_gather(nccl_ctx *c, int i, size_t bytes, const char **what)
{
    *what = "ncclAllGather";
    return c->n.all_gather(c->send[i], c->recv[i], bytes / 4 / (size_t)c->ndev, NCCL_FLOAT32,
                           c->comms[i], c->st[i]);
}

/* alltoall_perf's part of a rank: it sends chunk j of its buffer (size / n
 * bytes) to rank j and receives rank j's into chunk j (ncclSend /
 * ncclRecv, itself included); size = the buffer per GPU. */
static int rank_all_to_all(nccl_ctx *c, int i, size_t bytes, const char **what)
{
    size_t count = bytes / 4 / (size_t)c->ndev, chunk = count * 4;
    int e = 0;
    for (int j = 0; j < c->ndev && e == 0; j++) {
        *what = "ncclSend";
        e = c->n.send((char *)c->send[i] + (size_t)j * chunk, count, NCCL_FLOAT32, j,
                      c->comms[i], c->st[i]);
        if (e == 0) {
            *what = "ncclRecv";
            e = c->n.recv((char *)c->recv[i] + (size_t)j * chunk, count, NCCL_FLOAT32, j,
                          c->comms[i], c->st[i]);
        }
    }
    return e;
}

/* One timed call of the all-gather sweep (nccl-tests all_gather_perf). */
static int op_all_gather(void *vctx, size_t bytes, double *seconds)
{
    return nccl_time_grouped(vctx, bytes, rank_all_gather, seconds);
}

/* One timed call of the all-to-all sweep, as nccl-tests alltoall_perf runs
 * it: every rank's sends and receives inside one group. */
static int op_all_to_all(void *vctx, size_t bytes, double *seconds)
{
    return nccl_time_grouped(vctx, bytes, rank_all_to_all, seconds);
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
static calib_status nccl_p2p_sweep(nccl_ctx *c, const calib_opts *o,
                          const calib_comm_sweep_spec *base, calib_result *r)
{
    r->n_p2p = 0;
    r->p2p_label[0] = '\0';
    if (!c->n.send || !c->n.recv) {
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
        c->a->set_device(dev[j]);
        if (c->a->event_create(&c->ev0[j]) != 0)
            ok = 0;
        else if (c->a->event_create(&c->ev1[j]) != 0) {
            c->a->event_destroy(c->ev0[j]);
            ok = 0;
        } else {
            c->events = j + 1;
        }
    }
    calib_status rc = CALIB_OK;
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
            rc = CALIB_OK;
        }
    }
    for (int j = 0; j < c->events; j++) {
        c->a->set_device(dev[j]);
        c->a->event_destroy(c->ev0[j]);
        c->a->event_destroy(c->ev1[j]);
    }
    c->events = 0;
    return rc;
}

/* The all-gather and all-to-all sweeps over every GPU on the communicators
 * of the all-reduce, into r->allgather / r->alltoall (each kept only when
 * complete; a failure or a missing call leaves a note in r->coll_note and
 * the rest).  CALIB_CANCELLED, else CALIB_OK. */
static calib_status nccl_gather_a2a(nccl_ctx *c, const calib_opts *o, calib_progress_slice *np,
                                    const calib_comm_sweep_spec *base, calib_result *r)
{
    static const char *const LABEL[2] = {"nccl all-gather", "nccl all-to-all"};
    calib_comm_op_fn ops[2] = {op_all_gather, op_all_to_all};
    int have[2] = {c->n.all_gather != NULL, c->n.send != NULL && c->n.recv != NULL};
    calib_comm_point **pts[2] = {&r->allgather, &r->alltoall};
    int *cnt[2] = {&r->n_allgather, &r->n_alltoall};
    r->coll_gpus = c->ndev;
    for (int w = 0; w < 2; w++) {
        np->lo = 0.5 + 0.25 * w;
        np->hi = np->lo + 0.25;
        *cnt[w] = 0;
        if (!have[w]) {
            snprintf(r->coll_note + strlen(r->coll_note), sizeof r->coll_note - strlen(r->coll_note),
                     "%s%s: libnccl has no %s", r->coll_note[0] ? "; " : "", LABEL[w],
                     w ? "ncclSend/ncclRecv (NCCL 2.7 or later)" : "ncclAllGather");
            continue;
        }
        calib_comm_sweep_spec spec = *base;
        spec.label = LABEL[w];
        c->why[0] = '\0';
        engine_error e = {{0}};
        calib_status rc = calib_comm_sweep(o, &spec, ops[w], c, pts[w], cnt[w], &e);
        if (rc == CALIB_CANCELLED)
            return rc;
        if (rc != CALIB_OK) {
            add_why(&e, c);
            snprintf(r->coll_note + strlen(r->coll_note), sizeof r->coll_note - strlen(r->coll_note),
                     "%s%.200s", r->coll_note[0] ? "; " : "", e.msg);
        }
    }
    return CALIB_OK;
}

/* libnccl's entry points into c->n (the caller's table when o->nccl is
 * set: tests).  The handle (or (void *)1 for a caller's table), or NULL
 * with err. */
static void *nccl_load(nccl_ctx *c, const calib_opts *o, engine_error *err)
{
    if (o->nccl) {
        c->n = *o->nccl;
        if (c->n.comm_init_all && c->n.all_reduce && c->n.group_start && c->n.group_end &&
            c->n.comm_destroy)
            return (void *)1;
        if (err)
            snprintf(err->msg, sizeof err->msg, "the NCCL table lacks the needed calls");
        return NULL;
    }
    void *lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        lib = dlopen("libnccl.so", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "libnccl.so.2 not found");
        return NULL;
    }
    static const struct {
        size_t off;
        const char *name;
    } S[] = {{offsetof(calib_nccl_api, comm_init_all), "ncclCommInitAll"},
             {offsetof(calib_nccl_api, all_reduce), "ncclAllReduce"},
             {offsetof(calib_nccl_api, all_gather), "ncclAllGather"},
             {offsetof(calib_nccl_api, send), "ncclSend"},
             {offsetof(calib_nccl_api, recv), "ncclRecv"},
             {offsetof(calib_nccl_api, group_start), "ncclGroupStart"},
             {offsetof(calib_nccl_api, group_end), "ncclGroupEnd"},
             {offsetof(calib_nccl_api, comm_destroy), "ncclCommDestroy"},
             {offsetof(calib_nccl_api, error_string), "ncclGetErrorString"}};
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++) {
        void *p = dlsym(lib, S[i].name);
        memcpy((char *)&c->n + S[i].off, &p, sizeof p);
    }
    if (!c->n.comm_init_all || !c->n.all_reduce || !c->n.group_start || !c->n.group_end ||
        !c->n.comm_destroy) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "libnccl lacks the needed symbols");
        dlclose(lib);
        return NULL;
    }
    return lib;
}

/* Buffers and a stream per GPU, then the communicators.  0, or -1 with
 * err (what was set up is freed by nccl_teardown). */
static int nccl_setup(nccl_ctx *c, size_t max_bytes, int *have_comms, engine_error *err)
{
    const calib_cuda_api *a = c->a;
    int devs[NCCL_MAX_DEV], rc = 0;
    for (int i = 0; i < c->ndev && rc == 0; i++) {
        devs[i] = i;
        if (a->set_device(i) != 0 || a->mem_alloc(&c->send[i], max_bytes) != 0 ||
            a->mem_alloc(&c->recv[i], max_bytes) != 0 ||
            a->mem_set(c->send[i], 0, max_bytes) != 0 || a->stream_create(&c->st[i]) != 0)
            rc = -1;
    }
    if (rc == 0 && c->n.comm_init_all(c->comms, c->ndev, devs) != 0)
        rc = -1;
    else if (rc == 0)
        *have_comms = 1;
    if (rc != 0 && err)
        snprintf(err->msg, sizeof err->msg,
                 "NCCL setup failed on %d GPUs (buffers or ncclCommInitAll)", c->ndev);
    return rc;
}

static void nccl_teardown(nccl_ctx *c, int have_comms, int device)
{
    const calib_cuda_api *a = c->a;
    for (int i = 0; i < c->ndev; i++) {
        if (have_comms && c->comms[i])
            c->n.comm_destroy(c->comms[i]);
        a->set_device(i);
        if (c->st[i])
            a->stream_destroy(c->st[i]);
        if (c->send[i])
            a->mem_free(c->send[i]);
        if (c->recv[i])
            a->mem_free(c->recv[i]);
    }
    a->set_device(device);
}

calib_status calib_cuda_comm(const calib_opts *o, calib_result *r, engine_error *err)
{
    int ndev = r->dev.count < NCCL_MAX_DEV ? r->dev.count : NCCL_MAX_DEV;
    if (ndev < 2) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "one GPU: no NCCL sweep");
        return CALIB_ERR;
    }
    nccl_ctx c;
    memset(&c, 0, sizeof c);
    c.ndev = ndev;
    if (!(c.a = api_get(o->cuda, 0, err)))
        return CALIB_ERR;
    void *lib = nccl_load(&c, o, err);
    if (!lib)
        return CALIB_ERR;
    calib_comm_sweep_spec spec;
    calib_nccl_spec(o->quick, &spec); /* 1 KiB .. 1 GiB (--quick 64 MiB), x4, 1 + 3 calls */
    size_t max_bytes = spec.max_bytes;
    int have_comms = 0;
    calib_status rc = nccl_setup(&c, max_bytes, &have_comms, err) == 0 ? CALIB_OK : CALIB_ERR;
    /* each sweep reports as a slice of the caller's progress */
    calib_opts inner;
    calib_progress_slice np;
    calib_opts_slice(o, &np, 0.0, 0.25, &inner);
    if (rc == CALIB_OK) {
        r->n_comm = 0;
        rc = calib_comm_sweep(&inner, &spec, op_all_reduce, &c, &r->comm, &r->n_comm, err);
        if (rc == CALIB_ERR)
            add_why(err, &c);
    }
    if (rc == CALIB_OK) {
        np.lo = 0.25;
        np.hi = 0.5;
        rc = nccl_p2p_sweep(&c, &inner, &spec, r);
    }
    if (rc == CALIB_OK) {
        np.lo = 0.75;
        rc = nccl_gather_a2a(&c, &inner, &np, &spec, r);
    }
    nccl_teardown(&c, have_comms, o->device);
    if (!o->nccl)
        dlclose(lib);
    if (rc == CALIB_OK)
        snprintf(r->comm_label, sizeof r->comm_label, "NCCL AllReduce (%d GPUs)", ndev);
    else if (rc != CALIB_CANCELLED)
        r->n_comm = 0;
    return rc;
}
