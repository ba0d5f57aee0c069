/*
 * cpu.c - the CPU calibration backend: our own cache-blocked,
 * register-tiled SGEMM (GotoBLAS layout: B packed in KC x NC panels of
 * NR-wide slivers, A in MC x KC blocks of MR-tall slivers, an MR x NR
 * micro-kernel written so the compiler vectorises it), and the sweep that
 * times the GEMMs of one transformer layer on a scaled-down version of the
 * seed's grid, decode-shaped GEMMs and a memcpy for bandwidth.  Single
 * threaded and labelled as CPU: its figures describe this machine, never a
 * GPU type.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calib.h"
#include "internal.h"

#define MR 6
#define NR 16
#define KC 256
#define MC 96
#define NC 2048
#define CPU_MAX_PASSES 8

/* x86-64 with GCC or clang: an AVX2 + FMA micro-kernel, chosen at run
 * time when the CPU has those instructions.  (ISO C mode turns off FMA
 * contraction and -O2 keeps the accumulators in memory, so the portable
 * kernel below runs at a fraction of the machine's speed.) */
#if defined(__x86_64__) && defined(__GNUC__)
#define CALIB_X86 1
#include <immintrin.h>
#endif

static void pack_a(int mc, int kc, const float *a, int lda, float *pa)
{
    for (int i0 = 0; i0 < mc; i0 += MR) {
        int mr = mc - i0 < MR ? mc - i0 : MR;
        for (int p = 0; p < kc; p++) {
            for (int i = 0; i < mr; i++)
                pa[i] = a[(size_t)(i0 + i) * lda + p];
            for (int i = mr; i < MR; i++)
                pa[i] = 0.0f;
            pa += MR;
        }
    }
}

/* Rows of B are read front to back (p outer) so a B larger than the
 * caches streams from memory instead of striding across pages. */
static void pack_b(int kc, int nc, const float *b, int ldb, float *pb)
{
    int panels = (nc + NR - 1) / NR;
    for (int p = 0; p < kc; p++) {
        const float *src = b + (size_t)p * ldb;
        for (int q = 0; q < panels; q++) {
            float *dst = pb + ((size_t)q * kc + p) * NR;
            int j0 = q * NR, nr = nc - j0 < NR ? nc - j0 : NR;
            if (nr == NR) {
                memcpy(dst, src + j0, NR * sizeof *dst);
            } else {
                for (int j = 0; j < nr; j++)
                    dst[j] = src[j0 + j];
                for (int j = nr; j < NR; j++)
                    dst[j] = 0.0f;
            }
        }
    }
}

/* A few rows (decode): stream B once, row by row, keeping the m rows of C
 * in cache. */
static void gemm_small_m_generic(int m, int n, int k, const float *restrict a,
                                 const float *restrict b, float *restrict c)
{
    for (int p = 0; p < k; p++) {
        const float *bp = b + (size_t)p * n;
        for (int i = 0; i < m; i++) {
            float ai = a[(size_t)i * k + p];
            float *ci = c + (size_t)i * n;
            for (int j = 0; j < n; j++)
                ci[j] += ai * bp[j];
        }
    }
}

static void kernel_generic(int kc, const float *restrict pa,
                           const float *restrict pb, int ldb, float *restrict c,
                           int ldc, int mr, int nr)
{
    float acc[MR][NR];
    for (int i = 0; i < MR; i++)
        for (int j = 0; j < NR; j++)
            acc[i][j] = 0.0f;
    for (int p = 0; p < kc; p++) {
        const float *bp = pb + (size_t)p * ldb;
        const float *ap = pa + (size_t)p * MR;
        for (int i = 0; i < MR; i++) {
            float ai = ap[i];
            for (int j = 0; j < NR; j++)
                acc[i][j] += ai * bp[j];
        }
    }
    if (mr == MR && nr == NR) {
        for (int i = 0; i < MR; i++)
            for (int j = 0; j < NR; j++)
                c[(size_t)i * ldc + j] += acc[i][j];
    } else {
        for (int i = 0; i < mr; i++)
            for (int j = 0; j < nr; j++)
                c[(size_t)i * ldc + j] += acc[i][j];
    }
}

#ifdef CALIB_X86
__attribute__((target("avx2,fma")))
static void kernel_avx2(int kc, const float *restrict pa, const float *restrict pb,
                        int ldb, float *restrict c, int ldc, int mr, int nr)
{
    __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps();
    __m256 c10 = _mm256_setzero_ps(), c11 = _mm256_setzero_ps();
    __m256 c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps();
    __m256 c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps();
    __m256 c40 = _mm256_setzero_ps(), c41 = _mm256_setzero_ps();
    __m256 c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();
    for (int p = 0; p < kc; p++) {
        __m256 b0 = _mm256_loadu_ps(pb), b1 = _mm256_loadu_ps(pb + 8), a;
        a = _mm256_broadcast_ss(pa + 0);
        c00 = _mm256_fmadd_ps(a, b0, c00); c01 = _mm256_fmadd_ps(a, b1, c01);
        a = _mm256_broadcast_ss(pa + 1);
        c10 = _mm256_fmadd_ps(a, b0, c10); c11 = _mm256_fmadd_ps(a, b1, c11);
        a = _mm256_broadcast_ss(pa + 2);
        c20 = _mm256_fmadd_ps(a, b0, c20); c21 = _mm256_fmadd_ps(a, b1, c21);
        a = _mm256_broadcast_ss(pa + 3);
        c30 = _mm256_fmadd_ps(a, b0, c30); c31 = _mm256_fmadd_ps(a, b1, c31);
        a = _mm256_broadcast_ss(pa + 4);
        c40 = _mm256_fmadd_ps(a, b0, c40); c41 = _mm256_fmadd_ps(a, b1, c41);
        a = _mm256_broadcast_ss(pa + 5);
        c50 = _mm256_fmadd_ps(a, b0, c50); c51 = _mm256_fmadd_ps(a, b1, c51);
        pa += MR;
        pb += ldb;
    }
    if (mr == MR && nr == NR) {
        __m256 acc[MR][2] = {{c00, c01}, {c10, c11}, {c20, c21},
                             {c30, c31}, {c40, c41}, {c50, c51}};
        for (int i = 0; i < MR; i++) {
            float *ci = c + (size_t)i * ldc;
            _mm256_storeu_ps(ci, _mm256_add_ps(_mm256_loadu_ps(ci), acc[i][0]));
            _mm256_storeu_ps(ci + 8, _mm256_add_ps(_mm256_loadu_ps(ci + 8), acc[i][1]));
        }
        return;
    }
    float t[MR][NR];
    _mm256_storeu_ps(t[0], c00); _mm256_storeu_ps(t[0] + 8, c01);
    _mm256_storeu_ps(t[1], c10); _mm256_storeu_ps(t[1] + 8, c11);
    _mm256_storeu_ps(t[2], c20); _mm256_storeu_ps(t[2] + 8, c21);
    _mm256_storeu_ps(t[3], c30); _mm256_storeu_ps(t[3] + 8, c31);
    _mm256_storeu_ps(t[4], c40); _mm256_storeu_ps(t[4] + 8, c41);
    _mm256_storeu_ps(t[5], c50); _mm256_storeu_ps(t[5] + 8, c51);
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < nr; j++)
            c[(size_t)i * ldc + j] += t[i][j];
}

__attribute__((target("avx2,fma")))
static void gemm_small_m_avx2(int m, int n, int k, const float *restrict a,
                              const float *restrict b, float *restrict c)
{
    for (int p = 0; p < k; p++) {
        const float *bp = b + (size_t)p * n;
        for (int i = 0; i < m; i++) {
            float ai = a[(size_t)i * k + p];
            __m256 av = _mm256_set1_ps(ai);
            float *ci = c + (size_t)i * n;
            int j = 0;
            for (; j + 16 <= n; j += 16) {
                __m256 c0 = _mm256_loadu_ps(ci + j), c1 = _mm256_loadu_ps(ci + j + 8);
                c0 = _mm256_fmadd_ps(av, _mm256_loadu_ps(bp + j), c0);
                c1 = _mm256_fmadd_ps(av, _mm256_loadu_ps(bp + j + 8), c1);
                _mm256_storeu_ps(ci + j, c0);
                _mm256_storeu_ps(ci + j + 8, c1);
            }
            for (; j < n; j++)
                ci[j] += ai * bp[j];
        }
    }
}

static int use_avx2(void)
{
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#endif

static void kernel(int kc, const float *pa, const float *pb, int ldb, float *c,
                   int ldc, int mr, int nr, int fast)
{
#ifdef CALIB_X86
    if (fast) {
        kernel_avx2(kc, pa, pb, ldb, c, ldc, mr, nr);
        return;
    }
#endif
    (void)fast;
    kernel_generic(kc, pa, pb, ldb, c, ldc, mr, nr);
}

static void gemm_small_m(int m, int n, int k, const float *a, const float *b,
                         float *c, int fast)
{
#ifdef CALIB_X86
    if (fast) {
        gemm_small_m_avx2(m, n, k, a, b, c);
        return;
    }
#endif
    (void)fast;
    gemm_small_m_generic(m, n, k, a, b, c);
}

int calib_sgemm(int m, int n, int k, const float *a, const float *b, float *c)
{
    if (m <= 0 || n <= 0)
        return 0;
    memset(c, 0, (size_t)m * n * sizeof *c);
    if (k <= 0)
        return 0;
#ifdef CALIB_X86
    int fast = use_avx2();
#else
    int fast = 0;
#endif
    /* Decode shapes: B (the weights) is read once at memory speed; packing
     * it would read it, write it and read it again. */
    if (m <= 8) {
        gemm_small_m(m, n, k, a, b, c, fast);
        return 0;
    }
    float *pb = malloc((size_t)KC * (NC + NR) * sizeof *pb);
    float *pa = malloc((size_t)(MC + MR) * KC * sizeof *pa);
    if (!pa || !pb) {
        free(pa);
        free(pb);
        return -1;
    }
    for (int jc = 0; jc < n; jc += NC) {
        int nc = n - jc < NC ? n - jc : NC;
        for (int pc = 0; pc < k; pc += KC) {
            int kc = k - pc < KC ? k - pc : KC;
            pack_b(kc, nc, b + (size_t)pc * n + jc, n, pb);
            for (int ic = 0; ic < m; ic += MC) {
                int mc = m - ic < MC ? m - ic : MC;
                pack_a(mc, kc, a + (size_t)ic * k + pc, k, pa);
                for (int jr = 0; jr < nc; jr += NR) {
                    int nr = nc - jr < NR ? nc - jr : NR;
                    const float *bp = pb + (size_t)jr * kc;
                    for (int ir = 0; ir < mc; ir += MR) {
                        int mr = mc - ir < MR ? mc - ir : MR;
                        kernel(kc, pa + (size_t)ir * kc, bp, NR,
                               c + (size_t)(ic + ir) * n + jc + jr, n, mr, nr,
                               fast);
                    }
                }
            }
        }
    }
    free(pa);
    free(pb);
    return 0;
}

/* --- the CPU sweep ---------------------------------------------------- */

/* The measuring thread's CPU time: on a shared machine another process's
 * time slice does not count against the GEMM (wall time would). */
static double thread_cpu_s(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return calib_now_s();
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void fill(float *x, size_t n, unsigned *state)
{
    for (size_t i = 0; i < n; i++) {
        *state = *state * 1664525u + 1013904223u;
        x[i] = (float)((*state >> 9) & 0xffff) / 65536.0f - 0.5f;
    }
}

typedef struct cpu_layer {
    int h, max_tokens;
    float *wqkv, *wo, *wup, *wdown; /* h x 3h, h x h, h x 4h, 4h x h */
    float *x, *q, *y, *z; /* tokens x h, x 3h, x 4h, x h */
} cpu_layer;

static void layer_free(cpu_layer *l)
{
    free(l->wqkv); free(l->wo); free(l->wup); free(l->wdown);
    free(l->x); free(l->q); free(l->y); free(l->z);
    memset(l, 0, sizeof *l);
}

static int layer_alloc(cpu_layer *l, int h, int max_tokens)
{
    memset(l, 0, sizeof *l);
    l->h = h;
    l->max_tokens = max_tokens;
    size_t hh = (size_t)h * h, th = (size_t)max_tokens * h;
    l->wqkv = malloc(3 * hh * sizeof(float));
    l->wo = malloc(hh * sizeof(float));
    l->wup = malloc(4 * hh * sizeof(float));
    l->wdown = malloc(4 * hh * sizeof(float));
    l->x = malloc(th * sizeof(float));
    l->q = malloc(3 * th * sizeof(float));
    l->y = malloc(4 * th * sizeof(float));
    l->z = malloc(th * sizeof(float));
    if (!l->wqkv || !l->wo || !l->wup || !l->wdown || !l->x || !l->q ||
        !l->y || !l->z) {
        layer_free(l);
        return -1;
    }
    unsigned st = 12345u + (unsigned)h;
    fill(l->wqkv, 3 * hh, &st);
    fill(l->wo, hh, &st);
    fill(l->wup, 4 * hh, &st);
    fill(l->wdown, 4 * hh, &st);
    fill(l->x, th, &st);
    return 0;
}

/* One layer's four GEMMs over t tokens. */
static int layer_run(cpu_layer *l, int t)
{
    int h = l->h, rc = 0;
    /* The input x stands in for the attention output and for the residual
     * stream (same shapes, same cost); nothing feeds back into x, so the
     * values stay bounded and never become denormals across repeats. */
    rc |= calib_sgemm(t, 3 * h, h, l->x, l->wqkv, l->q);
    rc |= calib_sgemm(t, h, h, l->x, l->wo, l->z);
    rc |= calib_sgemm(t, 4 * h, h, l->x, l->wup, l->y);
    rc |= calib_sgemm(t, h, 4 * h, l->y, l->wdown, l->z);
    return rc;
}

static calib_status oom(engine_error *err, const char *what)
{
    if (err)
        snprintf(err->msg, sizeof err->msg,
                 "cpu backend: out of memory allocating %s", what);
    return CALIB_ERR;
}

/* The model name from /proc/cpuinfo, else "CPU". */
static void cpu_name(char *buf, size_t len)
{
    snprintf(buf, len, "CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0)
            continue;
        char *colon = strchr(line, ':');
        if (!colon)
            break;
        colon++;
        while (*colon == ' ' || *colon == '\t')
            colon++;
        colon[strcspn(colon, "\n")] = '\0';
        if (*colon)
            snprintf(buf, len, "CPU %s", colon);
        break;
    }
    fclose(f);
}

/* One point of the sweep while it is being measured. */
typedef struct cpu_spec {
    calib_point p;
    int layer;     /* index into the layers */
    int tokens;
    int inner;     /* runs per timing (short points are timed in groups) */
    double v[CPU_MAX_PASSES];
} cpu_spec;

/* The grid of one run: every prefill shape, and decode shapes on the two
 * largest hidden sizes, into spec (returns how many); the hidden sizes
 * (one layer each) and the most tokens any point runs. */
static int cpu_grid(int quick, cpu_spec *spec, int hid_out[4], int *max_tokens)
{
    static const int hid_q[] = {128, 256, 384, 512};
    static const int hid_f[] = {256, 512, 768, 1024};
    static const int bat_q[] = {1, 2, 4};
    static const int bat_f[] = {1, 2, 4, 8};
    /* Token counts are multiples of the micro-kernel's MR = 6 rows, so the
     * sweep measures the GEMM rather than its ragged-edge handling (a GPU
     * has the same effect with its tile sizes; there it stays in the data). */
    static const int seq[] = {48, 192};
    static const int dec_tok[] = {1, 6, 24, 96, 240};
    const int *hid = quick ? hid_q : hid_f;
    const int *bat = quick ? bat_q : bat_f;
    int nh = 4, nb = quick ? 3 : 4, ns = 2, ndec = quick ? 4 : 5;
    *max_tokens = bat[nb - 1] * seq[ns - 1];
    if (dec_tok[ndec - 1] > *max_tokens)
        *max_tokens = dec_tok[ndec - 1];
    int n = 0;
    for (int ih = 0; ih < nh; ih++) {
        hid_out[ih] = hid[ih];
        for (int k = 0; k < nb * ns; k++) {
            cpu_spec *c = &spec[n++];
            memset(c, 0, sizeof *c);
            c->p = (calib_point){CALIB_POINT_PREFILL, hid[ih], bat[k / ns], seq[k % ns], 0, 0, 0};
            c->layer = ih;
            c->tokens = bat[k / ns] * seq[k % ns];
        }
        for (int it = 0; ih >= nh - 2 && it < ndec; it++) {
            cpu_spec *c = &spec[n++];
            memset(c, 0, sizeof *c);
            c->p = (calib_point){CALIB_POINT_DECODE, hid[ih], dec_tok[it], 1, 0, 0, 0};
            c->layer = ih;
            c->tokens = dec_tok[it];
        }
    }
    return n;
}

/* This CPU as a calib_device: its name, one thread, fp32, the RAM. */
static void cpu_device(calib_device *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->backend, sizeof d->backend, "cpu");
    cpu_name(d->name, sizeof d->name);
    d->sm_count = 1; /* one thread */
    snprintf(d->dtype, sizeof d->dtype, "fp32");
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psz > 0)
        d->memory_bytes = (double)pages * (double)psz;
}

/* Round-robin passes over the whole grid, one warm-up pass then `passes`
 * timed ones: a slow drift of the machine (another process, a sibling
 * hyper-thread, the clock) spreads over every point instead of landing on
 * a few.  Short points are timed in groups of up to 64 runs (~group_s).
 * CALIB_OK, CALIB_ERR (out of memory in a GEMM), CALIB_CANCELLED. */
static calib_status cpu_passes(const calib_opts *o, cpu_spec *spec, int n, cpu_layer *layers,
                               int passes, double group_s, int total, int *done)
{
    for (int pass = 0; pass <= passes; pass++) {
        for (int i = 0; i < n; i++, ++*done) {
            cpu_spec *c = &spec[i];
            if (calib_cancelled(o))
                return CALIB_CANCELLED;
            calib_report(o, (double)*done / total,
                         c->p.kind == CALIB_POINT_PREFILL ? "cpu: layer GEMMs"
                                                          : "cpu: decode GEMMs");
            int inner = pass == 0 ? 1 : c->inner;
            double t0 = thread_cpu_s();
            for (int k = 0; k < inner; k++)
                if (layer_run(&layers[c->layer], c->tokens) != 0)
                    return CALIB_ERR;
            double t = (thread_cpu_s() - t0) / inner;
            if (pass == 0) {
                c->inner = t > 0 && t < group_s ? (int)(group_s / t) + 1 : 1;
                if (c->inner > 64)
                    c->inner = 64;
            } else {
                c->v[pass - 1] = t;
            }
        }
    }
    return CALIB_OK;
}

/* Memory bandwidth: one memcpy of a buffer larger than most caches (one
 * size: several sizes straddling a cache give several bandwidths no single
 * eta_memory can describe), median of 5 after a warm-up. */
static calib_status cpu_copy(size_t bytes, calib_result *r, engine_error *err)
{
    char *src = malloc(bytes), *dst = malloc(bytes);
    if (!src || !dst) {
        free(src);
        free(dst);
        return oom(err, "the copy buffers");
    }
    memset(src, 1, bytes);
    memset(dst, 0, bytes);
    double v[5];
    for (int rep = 0; rep < 6; rep++) {
        double s = thread_cpu_s();
        memcpy(dst, src, bytes);
        double e = thread_cpu_s() - s;
        src[rep] = dst[bytes - 1 - (size_t)rep]; /* keep the copy live */
        if (rep > 0)
            v[rep - 1] = e;
    }
    free(src);
    free(dst);
    qsort(v, 5, sizeof v[0], engine_cmp_double);
    calib_point p = {CALIB_POINT_COPY, 0, 0, 0, 0, 2.0 * (double)bytes, v[2]};
    if (calib_result_add_point(r, &p) != 0)
        return oom(err, "the result");
    return CALIB_OK;
}

/* The per-kernel sweep of o->model on OpenBLAS (calib_ksweep). */
static calib_status cpu_kernels(const calib_opts *o, calib_result *r, engine_error *err)
{
    calib_kexec x;
    calib_status rc = calib_blas_kexec(o, &x, r->library, sizeof r->library, err);
    if (rc != CALIB_OK)
        return rc;
    rc = calib_ksweep(o, &x, r, err);
    calib_blas_kexec_free(&x);
    if (rc == CALIB_OK)
        snprintf(r->kernel_note, sizeof r->kernel_note,
                 "cpu: fp32 only; no graph launch (the floor is one 1x1x1 sgemm call); "
                 "attention proxy: batched sgemm calls (no softmax, no causal mask); "
                 "no collectives (loopback only)");
    return rc;
}

calib_status calib_cpu_measure(const calib_opts *o, calib_result *r, engine_error *err)
{
    const int passes = 5; /* timed passes after one warm-up pass */
    double group_s = o->quick ? 2e-3 : 5e-3;
    cpu_spec spec[4 * 4 * 2 + 2 * 5];
    int hid[4], max_tokens;
    int n = cpu_grid(o->quick, spec, hid, &max_tokens);
    cpu_device(&r->dev);
    cpu_layer layers[4];
    memset(layers, 0, sizeof layers);
    for (int ih = 0; ih < 4; ih++) {
        if (layer_alloc(&layers[ih], hid[ih], max_tokens) != 0) {
            for (int j = 0; j < ih; j++)
                layer_free(&layers[j]);
            return oom(err, "the layer weights");
        }
    }
    int total = (passes + 1) * n + 1, done = 0;
    calib_status rc = cpu_passes(o, spec, n, layers, passes, group_s, total, &done);
    for (int ih = 0; ih < 4; ih++)
        layer_free(&layers[ih]);
    if (rc == CALIB_CANCELLED)
        return CALIB_CANCELLED;
    if (rc != CALIB_OK)
        return oom(err, "a GEMM packing buffer");
    for (int i = 0; i < n; i++) {
        cpu_spec *c = &spec[i];
        qsort(c->v, (size_t)passes, sizeof c->v[0], engine_cmp_double);
        c->p.time_s = passes % 2 ? c->v[passes / 2]
                                 : 0.5 * (c->v[passes / 2 - 1] + c->v[passes / 2]);
        calib_layer_cost(c->p.hidden, c->tokens, 4.0, &c->p.flops, &c->p.bytes);
        if (calib_result_add_point(r, &c->p) != 0)
            return oom(err, "the result");
    }
    if (calib_cancelled(o))
        return CALIB_CANCELLED;
    calib_report(o, (double)done / total, "cpu: memory copy");
    if ((rc = cpu_copy(o->quick ? (64u << 20) : (256u << 20), r, err)) != CALIB_OK)
        return rc;
    if (o->model && (rc = cpu_kernels(o, r, err)) != CALIB_OK)
        return rc;
    calib_report(o, 1.0, "cpu: done");
    return CALIB_OK;
}
