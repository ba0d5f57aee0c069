/*
 * blas.c - the CPU backend's per-kernel timer on OpenBLAS (Debian's
 * libopenblas0), loaded with dlopen like CUDA so the binary never links a
 * BLAS: cblas_sgemm for the model's GEMMs and the attention proxy (one
 * call per batch entry), cblas_sgemv for the GEMV sweep, memcpy for the
 * copy and a 1 x 1 x 1 sgemm for the per-call floor.  One thread
 * (openblas_set_num_threads(1), like the old backend): on a shared machine
 * a BLAS thread waiting at a barrier for a core another process holds
 * makes every multi-threaded time a measure of the neighbours; one thread
 * describes one core of this machine, timed on the measuring thread's CPU
 * clock (another process's time slice does not count against a point).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "calib.h"
#include "internal.h"

#define CBLAS_ROW_MAJOR 101
#define CBLAS_NO_TRANS 111

static struct {
    calib_blas_api api;
    int ok;
    char why[ENGINE_ERROR_MAX];
    char name[256];
} g_blas;
static pthread_mutex_t g_blas_lock = PTHREAD_MUTEX_INITIALIZER;

#define INSTALL "install it with: sudo apt-get install libopenblas0 (Debian/Ubuntu; mk/deps.sh does)"

static void load_blas(const char *name)
{
    memset(&g_blas.api, 0, sizeof g_blas.api);
    g_blas.ok = 0;
    snprintf(g_blas.name, sizeof g_blas.name, "%s", name);
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(g_blas.why, sizeof g_blas.why,
                 "cpu backend: OpenBLAS not found (%.200s); " INSTALL, name);
        return;
    }
    void *s = dlsym(h, "cblas_sgemm"), *v = dlsym(h, "cblas_sgemv");
    if (!s || !v) {
        snprintf(g_blas.why, sizeof g_blas.why,
                 "cpu backend: %.200s has no cblas_sgemm / cblas_sgemv; " INSTALL, name);
        dlclose(h);
        return;
    }
    memcpy(&g_blas.api.sgemm, &s, sizeof s);
    memcpy(&g_blas.api.sgemv, &v, sizeof v);
    void *c = dlsym(h, "openblas_get_config"), *t = dlsym(h, "openblas_set_num_threads");
    memcpy(&g_blas.api.get_config, &c, sizeof c);
    memcpy(&g_blas.api.set_num_threads, &t, sizeof t);
    void *cn = dlsym(h, "openblas_get_corename");
    memcpy(&g_blas.api.get_corename, &cn, sizeof cn);
    if (g_blas.api.set_num_threads)
        g_blas.api.set_num_threads(1); /* see the top of this file */
    g_blas.ok = 1; /* kept open for the process's life */
}

const calib_blas_api *calib_blas_load(engine_error *err)
{
    const char *env = getenv("SHARDSCOPE_OPENBLAS");
    const char *name = env && env[0] ? env : "libopenblas.so.0";
    pthread_mutex_lock(&g_blas_lock);
    /* Reloaded when the name changes (a test points it elsewhere). */
    if (strcmp(g_blas.name, name) != 0)
        load_blas(name);
    int ok = g_blas.ok;
    if (!ok && err)
        snprintf(err->msg, sizeof err->msg, "%s", g_blas.why);
    pthread_mutex_unlock(&g_blas_lock);
    return ok ? &g_blas.api : NULL;
}

void calib_blas_version(const calib_blas_api *b, char *buf, size_t len)
{
    const char *cfg = b && b->get_config ? b->get_config() : NULL;
    /* "OpenBLAS 0.3.21 NO_AFFINITY Haswell MAX_THREADS=64" -> the first two words */
    if (cfg && !strncmp(cfg, "OpenBLAS ", 9)) {
        size_t n = 9 + strcspn(cfg + 9, " ");
        snprintf(buf, len, "%.*s", (int)n, cfg);
    } else {
        snprintf(buf, len, "OpenBLAS");
    }
}

int calib_blas_unroll_n(const calib_blas_api *b)
{
    /* param.h @v0.3.21, x86_64 (not ARCH_X86) blocks: SGEMM_DEFAULT_UNROLL_N
     * is 4 for each (the M side: 8 Haswell/Zen, 16 the AVX-512 cores) */
    static const char *const CORES[] = {"Haswell", "Zen", "SkylakeX", "Cooperlake",
                                        "SapphireRapids"};
    const char *c = b && b->get_corename ? b->get_corename() : NULL;
    for (size_t i = 0; c && i < sizeof CORES / sizeof CORES[0]; i++)
        if (!strcasecmp(c, CORES[i]))
            return 4;
    return 0;
}

/* --- the timer ------------------------------------------------------------- */

typedef struct blas_ctx {
    const calib_blas_api *b;
    float *w, *x, *y;   /* weights (largest n*k), input, output */
    size_t wn, xn, yn;  /* elements */
    char *src, *dst;    /* the copy */
    size_t cn;
} blas_ctx;

/* A batch entry's operands lie apart (each head of each sequence has its
 * own keys and values, as in a KV cache): entry i reads its own slice of
 * the weight buffer, so a batch streams from memory, not from the cache. */
static void run_gemm(blas_ctx *c, const calib_kpoint *p)
{
    int batch = p->batch > 0 ? p->batch : 1;
    size_t wk = (size_t)p->n * p->k;
    for (int i = 0; i < batch; i++)
        c->b->sgemm(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, p->m, p->n, p->k, 1.0f,
                    c->x, p->k, c->w + (size_t)i * wk, p->n, 0.0f, c->y, p->n);
}

/* The grouped expert GEMMs (calib_kpoint_grouped): one sgemm per expert,
 * as OpenBLAS has no grouped call, each on its own weights and its own
 * tokens - consecutive slices of the buffers, from the start again when a
 * buffer is full.  The weight buffer holds at least 128 MB (the GEMV
 * sweep's), so a reused slice was last read 64 MB or more ago: it comes
 * from memory, as a step's distinct experts do, not from a last-level cache
 * of 32 MB. */
static void run_grouped(blas_ctx *c, const calib_kpoint *p)
{
    size_t wk = (size_t)p->n * p->k, xk = (size_t)p->m * p->k;
    size_t fw = c->wn / wk, fx = (c->xn - 1) / xk;
    for (int i = 0; i < p->batch; i++)
        c->b->sgemm(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, p->m, p->n, p->k, 1.0f,
                    c->x + (size_t)i % fx * xk, p->k, c->w + (size_t)i % fw * wk, p->n, 0.0f,
                    c->y, p->n);
}

static void run_one(blas_ctx *c, const calib_kpoint *p)
{
    if (calib_kpoint_grouped(p)) {
        run_grouped(c, p);
        return;
    }
    switch (p->cls) {
    case CALIB_K_GEMV:
        /* y[n] = W^T x as the row-major n x k product W x (k contiguous) */
        c->b->sgemv(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, p->n, p->k, 1.0f, c->w, p->k, c->x, 1,
                    0.0f, c->y, 1);
        break;
    case CALIB_K_COPY:
        memcpy(c->dst, c->src, (size_t)(p->bytes / 2));
        c->src[0] = c->dst[c->cn - 1]; /* keep it live */
        break;
    case CALIB_K_LAUNCH:
    case CALIB_K_GRAPH:
        for (int i = 0; i < p->batch; i++)
            c->b->sgemm(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, 1, 1, 1, 1.0f, c->x,
                        1, c->w, 1, 0.0f, c->y, 1);
        break;
    default: run_gemm(c, p); break;
    }
}

static double thread_cpu_s(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return calib_now_s();
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int blas_time(void *ctx, calib_kpoint *p, int warm, int reps, double *t,
                     engine_error *err)
{
    blas_ctx *c = ctx;
    /* The attention proxy makes one sgemm per batch entry, timed as one
     * point with one t0 (calls stays 1): a fitted t0 on a CPU holds what a
     * large GEMM costs beyond its FLOPs and bytes (packing), which a
     * 4 x 1024 x 128 entry does not pay 64 times over. */
    size_t need_w = p->cls == CALIB_K_COPY ? 0
                    : (size_t)p->n * p->k * (size_t)(p->cls == CALIB_K_ATTN ? p->batch : 1);
    size_t need_x = (size_t)p->m * p->k + 1, need_y = (size_t)p->m * p->n + (size_t)p->n + 1;
    if (need_w > c->wn || need_x > c->xn || need_y > c->yn ||
        (p->cls == CALIB_K_COPY && (size_t)(p->bytes / 2) > c->cn)) {
        engine_errorf(err, "cpu backend: %s %dx%dx%d exceeds the buffers", p->op, p->m, p->n,
                      p->k);
        return -1;
    }
    double v[16];
    if (reps > 16)
        reps = 16;
    if (reps < 1)
        reps = 1;
    for (int i = 0; i < warm; i++)
        run_one(c, p);
    for (int i = 0; i < reps; i++) {
        double s = thread_cpu_s();
        run_one(c, p);
        v[i] = thread_cpu_s() - s;
    }
    qsort(v, (size_t)reps, sizeof v[0], engine_cmp_double);
    *t = reps % 2 ? v[reps / 2] : 0.5 * (v[reps / 2 - 1] + v[reps / 2]);
    if (p->cls == CALIB_K_LAUNCH || p->cls == CALIB_K_GRAPH)
        *t /= p->batch > 0 ? p->batch : 1;
    if (calib_kpoint_grouped(p)) /* one sgemm per expert, each paying t0 */
        p->calls = p->batch > 0 ? p->batch : 1;
    return 0;
}

/* a[0, n) from its first `period` values repeated (the fills below have
 * that period): doubling copies, a memcpy's speed instead of an integer
 * modulo per element (0.5 s of --quick's setup for Llama-3-8B's 470 MB of
 * weights), the same values. */
static void tile(float *a, size_t n, size_t period)
{
    for (size_t done = period; done < n; done *= 2) {
        size_t len = n - done < done ? n - done : done;
        memcpy(a + done, a, len * sizeof *a);
    }
}

/* Buffers for the largest point the sweep can plan for o's model. */
static int blas_alloc(blas_ctx *c, const calib_opts *o)
{
    const engine_model *m = o->model;
    double d = m->hidden, f = m->ffn > m->moe_ffn ? m->ffn : m->moe_ffn;
    double qkv = ((double)m->heads + 2.0 * m->kv_heads) * m->head_dim;
    double wide = 2.0 * f > qkv ? 2.0 * f : qkv;
    if (d > wide)
        wide = d;
    double tmax = o->max_tokens > 0 ? o->max_tokens : (o->quick ? 256 : 2048);
    double ctx = 4096, gemv = (o->quick ? 128e6 : 256e6) / 4.0;
    c->wn = (size_t)(wide * d); /* every weight is n x k with one side the hidden size */
    if (c->wn < (size_t)gemv + 1)
        c->wn = (size_t)gemv + 1;
    /* the attention proxy: 8 sequences x the KV heads (decode), the heads
     * (prefill), each with its own keys */
    double kvh = m->kv_heads > 0 ? m->kv_heads : m->heads;
    double attn = ctx * m->head_dim * (8 * kvh > m->heads ? 8 * kvh : m->heads);
    if (c->wn < (size_t)attn)
        c->wn = (size_t)attn;
    c->xn = (size_t)(tmax * (f > d ? f : d)) + (size_t)(1024.0 * 1024) + 1;
    c->yn = (size_t)(tmax * wide) + (size_t)(ctx * 1024) + (size_t)gemv + 1;
    c->cn = (size_t)(o->quick ? 64 : 256) << 20;
    c->w = malloc(c->wn * sizeof(float));
    c->x = malloc(c->xn * sizeof(float));
    c->y = malloc(c->yn * sizeof(float));
    c->src = malloc(c->cn);
    c->dst = malloc(c->cn);
    if (!c->w || !c->x || !c->y || !c->src || !c->dst)
        return -1;
    /* touched once, so no page is first faulted in while timed */
    for (size_t i = 0; i < c->wn && i < 1000; i++)
        c->w[i] = (float)((i * 2654435761u) % 1000) * 1e-3f - 0.5f;
    for (size_t i = 0; i < c->xn && i < 7; i++)
        c->x[i] = (float)(i % 7) * 0.1f - 0.3f;
    tile(c->w, c->wn, 1000);
    tile(c->x, c->xn, 7);
    memset(c->y, 0, c->yn * sizeof(float));
    memset(c->src, 1, c->cn);
    memset(c->dst, 0, c->cn);
    return 0;
}

void calib_blas_kexec_free(calib_kexec *x)
{
    blas_ctx *c = x ? x->ctx : NULL;
    if (!c)
        return;
    free(c->w);
    free(c->x);
    free(c->y);
    free(c->src);
    free(c->dst);
    free(c);
    x->ctx = NULL;
}

calib_status calib_blas_kexec(const calib_opts *o, calib_kexec *x, char *library, size_t len,
                              engine_error *err)
{
    memset(x, 0, sizeof *x);
    const calib_blas_api *b = calib_blas_load(err);
    if (!b)
        return CALIB_ERR;
    blas_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        engine_errorf(err, "cpu backend: out of memory");
        return CALIB_ERR;
    }
    c->b = b;
    x->ctx = c;
    if (o->model && blas_alloc(c, o) != 0) {
        calib_blas_kexec_free(x);
        engine_errorf(err, "cpu backend: out of memory allocating the OpenBLAS buffers");
        return CALIB_ERR;
    }
    calib_blas_version(b, library, len);
    x->tag = "cpu";
    x->gpu = 0;
    x->has_graph = 0;
    x->has_attn = 1;
    x->has_launch = 1;
    x->dtype = "fp32";
    x->elem = 4;
    if (b->set_num_threads)
        b->set_num_threads(1);
    x->prior_flops = CALIB_CPU_PRIOR_FLOPS;
    x->prior_bw = CALIB_CPU_PRIOR_BW;
    x->prior_call_s = CALIB_CPU_PRIOR_CALL_S;
    x->time = blas_time;
    return CALIB_OK;
}
