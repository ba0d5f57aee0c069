/*
 * cpu.c - the CPU calibration backend's layer sweep: the GEMMs of one
 * transformer layer on a scaled-down version of the seed's grid,
 * decode-shaped GEMMs and a memcpy for bandwidth, timed on OpenBLAS
 * (calib_sgemm: cblas_sgemm, loaded with dlopen by blas.c, one thread),
 * then the per-kernel sweep of the model's shapes (blas.c, ksweep.c).
 * Labelled as CPU: its figures describe this machine, never a GPU type.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calib.h"
#include "internal.h"

#define CPU_MAX_PASSES 8
#define CBLAS_ROW_MAJOR 101
#define CBLAS_NO_TRANS 111

int calib_sgemm(int m, int n, int k, const float *a, const float *b, float *c)
{
    if (m <= 0 || n <= 0)
        return 0;
    if (k <= 0) {
        memset(c, 0, (size_t)m * n * sizeof *c);
        return 0;
    }
    const calib_blas_api *bl = calib_blas_load(NULL);
    if (!bl)
        return -1;
    bl->sgemm(CBLAS_ROW_MAJOR, CBLAS_NO_TRANS, CBLAS_NO_TRANS, m, n, k, 1.0f, a, k, b, n, 0.0f,
              c, n);
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

/* The grid of one run (calib_cpu_grid_for): every prefill shape, and
 * decode shapes on the two largest hidden sizes, into spec (returns how
 * many); the hidden sizes (one layer each) and the most tokens any point
 * runs. */
static int cpu_grid(const calib_cpu_grid *g, cpu_spec *spec, int hid_out[4], int *max_tokens)
{
    *max_tokens = g->bat[g->nb - 1] * g->seq[g->ns - 1];
    if (g->dec[g->nd - 1] > *max_tokens)
        *max_tokens = g->dec[g->nd - 1];
    int n = 0;
    for (int ih = 0; ih < g->nh; ih++) {
        hid_out[ih] = g->hid[ih];
        for (int k = 0; k < g->nb * g->ns; k++) {
            cpu_spec *c = &spec[n++];
            memset(c, 0, sizeof *c);
            c->p = (calib_point){CALIB_POINT_PREFILL, g->hid[ih], g->bat[k / g->ns],
                                 g->seq[k % g->ns], 0, 0, 0};
            c->layer = ih;
            c->tokens = g->bat[k / g->ns] * g->seq[k % g->ns];
        }
        for (int it = 0; ih >= g->nh - 2 && it < g->nd; it++) {
            cpu_spec *c = &spec[n++];
            memset(c, 0, sizeof *c);
            c->p = (calib_point){CALIB_POINT_DECODE, g->hid[ih], g->dec[it], 1, 0, 0, 0};
            c->layer = ih;
            c->tokens = g->dec[it];
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
                               const calib_cpu_grid *g, int total, int *done)
{
    for (int pass = 0; pass <= g->passes; pass++) {
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
                c->inner = calib_cpu_grid_inner(g, t);
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
static calib_status cpu_copy(const calib_cpu_grid *g, calib_result *r, engine_error *err)
{
    size_t bytes = g->copy_bytes;
    char *src = malloc(bytes), *dst = malloc(bytes);
    if (!src || !dst) {
        free(src);
        free(dst);
        return oom(err, "the copy buffers");
    }
    memset(src, 1, bytes);
    memset(dst, 0, bytes);
    double v[CPU_MAX_PASSES];
    int reps = g->copy_reps < CPU_MAX_PASSES ? g->copy_reps : CPU_MAX_PASSES;
    for (int rep = -g->copy_warmup; rep < reps; rep++) {
        double s = thread_cpu_s();
        memcpy(dst, src, bytes);
        double e = thread_cpu_s() - s;
        size_t live = (size_t)(rep + g->copy_warmup);
        src[live] = dst[bytes - 1 - live]; /* keep the copy live */
        if (rep >= 0)
            v[rep] = e;
    }
    free(src);
    free(dst);
    qsort(v, (size_t)reps, sizeof v[0], engine_cmp_double);
    double med = reps % 2 ? v[reps / 2] : 0.5 * (v[reps / 2 - 1] + v[reps / 2]);
    calib_point p = {CALIB_POINT_COPY, 0, 0, 0, 0, 2.0 * (double)bytes, med};
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
                 "no collectives (loopback only)%s",
                 o->model->experts > 0 ? "; grouped MoE: a loop of cblas_sgemm, one per expert "
                                         "(OpenBLAS has no grouped GEMM)"
                                       : "");
    return rc;
}

calib_status calib_cpu_measure(const calib_opts *o, calib_result *r, engine_error *err)
{
    calib_cpu_grid g;
    calib_cpu_grid_for(o->quick, &g);
    const calib_blas_api *bl = calib_blas_load(err); /* says how to install it */
    if (!bl)
        return CALIB_ERR;
    calib_blas_version(bl, r->library, sizeof r->library);
    cpu_spec spec[4 * 4 * 2 + 2 * 5];
    int hid[4], max_tokens;
    int n = cpu_grid(&g, spec, hid, &max_tokens);
    cpu_device(&r->dev);
    cpu_layer layers[4];
    memset(layers, 0, sizeof layers);
    for (int ih = 0; ih < g.nh; ih++) {
        if (layer_alloc(&layers[ih], hid[ih], max_tokens) != 0) {
            for (int j = 0; j < ih; j++)
                layer_free(&layers[j]);
            return oom(err, "the layer weights");
        }
    }
    int passes = g.passes, total = (passes + 1) * n + 1, done = 0;
    calib_status rc = cpu_passes(o, spec, n, layers, &g, total, &done);
    for (int ih = 0; ih < g.nh; ih++)
        layer_free(&layers[ih]);
    if (rc == CALIB_CANCELLED)
        return CALIB_CANCELLED;
    if (rc != CALIB_OK)
        return oom(err, "a GEMM (OpenBLAS)");
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
    if ((rc = cpu_copy(&g, r, err)) != CALIB_OK)
        return rc;
    if (o->model && (rc = cpu_kernels(o, r, err)) != CALIB_OK)
        return rc;
    calib_report(o, 1.0, "cpu: done");
    return CALIB_OK;
}
