/*
 * kernels.c - the per-kernel calibration (schema 2): the model-shaped GEMM
 * plan, the sweep over the kernel classes a backend times (model GEMMs,
 * GEMV, copy, attention proxy, launches), the one combined fit of the
 * engine's per-kernel form, and the measured GEMM tables handed to the
 * engine.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "internal.h"

const char *calib_kclass_name(calib_kclass c)
{
    static const char *const N[CALIB_K_COUNT] = {"gemm", "gemv", "copy", "attention",
                                                 "launch", "graph_launch"};
    return (unsigned)c < CALIB_K_COUNT ? N[c] : "?";
}

void calib_kpoint_cost(calib_kpoint *p, double elem)
{
    double b = p->batch > 0 ? p->batch : 1, m = p->m, n = p->n, k = p->k;
    p->flops = 2.0 * b * m * n * k;
    p->bytes = b * (n * k + m * k + m * n) * elem;
}

double calib_kpoint_flops(const calib_per_kernel *pk, const calib_kpoint *p)
{
    double u = pk ? pk->unroll_n : 0, m = p->m;
    if (!(u > 1) || !(m > 0) || m * p->n * (double)p->k < CALIB_SGEMM_DIRECT_MNK)
        return p->flops;
    return p->flops * ceil(m / u) * u / m;
}

int calib_result_add_kpoint(calib_result *r, const calib_kpoint *p)
{
    int n = r->n_kpoints;
    if (n == 0 || (n >= 16 && (n & (n - 1)) == 0)) {
        size_t cap = n == 0 ? 16 : (size_t)n * 2;
        void *np = realloc(r->kpoints, cap * sizeof *r->kpoints);
        if (!np)
            return -1;
        r->kpoints = np;
    }
    r->kpoints[r->n_kpoints++] = *p;
    return 0;
}

/* --- the plan ----------------------------------------------------------- */

static int add_plan(calib_kpoint *out, int cap, int n, const char *op, const char *dtype,
                    double elem, int tp, int m, int nn, int k)
{
    if (n < cap && m > 0 && nn > 0 && k > 0) {
        calib_kpoint *p = &out[n];
        memset(p, 0, sizeof *p);
        p->cls = CALIB_K_GEMM;
        snprintf(p->op, sizeof p->op, "%s", op);
        snprintf(p->dtype, sizeof p->dtype, "%s", dtype);
        p->tp = tp;
        p->m = m;
        p->n = nn;
        p->k = k;
        p->batch = 1;
        calib_kpoint_cost(p, elem);
    }
    return m > 0 && nn > 0 && k > 0 ? n + 1 : n;
}

/* The grouped expert GEMMs of a step of t tokens at TP degree tp (ep 1,
 * every expert sharded over the TP group, as moe_routed in engine/eval.c
 * times them): G experts, the expected number a step touches when each
 * token picks top_k of E uniformly, E (1 - (1 - top_k / E)^t) rounded
 * (1..E), each at ceil(t top_k / G) tokens: one point of `batch` G GEMMs
 * of one shape per (G, tokens) pair, once each.  16-bit only (cuBLAS's
 * grouped GEMM; fp8 has no grouped cublasLt call here). */
static int plan_grouped(const engine_model *m, int tp, const int *tokens, int nt, const char *dt,
                        double elem, calib_kpoint *out, int cap, int n)
{
    int g = m->gated_mlp ? 2 : 1, fe = m->moe_ffn > 0 ? m->moe_ffn : m->ffn, d = m->hidden;
    double E = m->experts, K = m->top_k < m->experts ? m->top_k : m->experts;
    int last_g = 0, last_m = 0;
    for (int i = 0; i < nt; i++) {
        double hit = K < E ? E * (1.0 - pow(1.0 - K / E, tokens[i])) : E;
        int G = (int)lround(hit);
        G = G < 1 ? 1 : G > m->experts ? m->experts : G;
        long long me = ((long long)tokens[i] * m->top_k + G - 1) / G;
        if (me < 1)
            me = 1;
        if ((G == last_g && me == last_m) || me > (1 << 30))
            continue;
        last_g = G;
        last_m = (int)me;
        int n0 = n;
        n = add_plan(out, cap, n, "grouped_gate_up", dt, elem, tp, last_m, g * (fe / tp), d);
        n = add_plan(out, cap, n, "grouped_down", dt, elem, tp, last_m, d, fe / tp);
        for (int j = n0; j < n && j < cap; j++) {
            out[j].batch = G;
            calib_kpoint_cost(&out[j], elem);
        }
    }
    return n;
}

/* The shapes engine/eval.c multiplies at TP degree tp (attn_gqa, mlp,
 * moe_mlp with ep == 1): per token count. */
static int plan_tp(const engine_model *m, int tp, const int *tokens, int nt, const char *dt,
                   double elem, calib_kpoint *out, int cap, int n)
{
    int d = m->hidden, heads = m->heads / tp, dh = m->head_dim;
    int kvh = m->kv_heads >= tp ? m->kv_heads / tp : 1;
    int g = m->gated_mlp ? 2 : 1;
    int dense = m->experts == 0 || m->dense_layers > 0 || m->moe_every > 1;
    int fe = m->moe_ffn > 0 ? m->moe_ffn : m->ffn;
    for (int i = 0; i < nt; i++) {
        int t = tokens[i];
        n = add_plan(out, cap, n, "qkv", dt, elem, tp, t, (heads + 2 * kvh) * dh, d);
        n = add_plan(out, cap, n, "out", dt, elem, tp, t, d, heads * dh);
        if (dense) {
            n = add_plan(out, cap, n, "gate_up", dt, elem, tp, t, g * (m->ffn / tp), d);
            n = add_plan(out, cap, n, "down", dt, elem, tp, t, d, m->ffn / tp);
        }
    }
    if (m->experts > 0 && m->top_k > 0) {
        /* per-expert token counts of a step of t tokens, each distinct once */
        int last = 0;
        for (int i = 0; i < nt; i++) {
            long long me = ((long long)tokens[i] * m->top_k + m->experts - 1) / m->experts;
            if (me < 1)
                me = 1;
            if (me <= last)
                continue;
            last = (int)me;
            n = add_plan(out, cap, n, "expert_gate_up", dt, elem, tp, last, g * (fe / tp), d);
            n = add_plan(out, cap, n, "expert_down", dt, elem, tp, last, d, fe / tp);
        }
    }
    if (m->experts > 0 && m->top_k > 0 && strcmp(dt, "fp8") != 0)
        n = plan_grouped(m, tp, tokens, nt, dt, elem, out, cap, n);
    return n;
}

int calib_plan_gemms(const engine_model *m, int max_tp, const int *tokens, int n_tokens,
                     const char *dtype, double elem, calib_kpoint *out, int cap)
{
    if (!m || m->hidden <= 0 || m->heads <= 0 || m->head_dim <= 0)
        return 0;
    int n = 0;
    for (int tp = 1; tp <= 8 && tp <= max_tp; tp *= 2) {
        if (m->heads % tp != 0)
            continue;
        n = plan_tp(m, tp, tokens, n_tokens, dtype, elem, out, cap, n);
    }
    return n;
}

/* --- the fit ------------------------------------------------------------ */

typedef struct fit_pt {
    double a;   /* FLOPs / (peak * eta_shape): seconds at eff = 1 */
    double b;   /* bytes */
    double w;   /* weight bytes a level-3 BLAS packs first (0: none) */
    double s;   /* weight bytes it streams first instead (within half the L2) */
    double t;   /* measured */
    double c;   /* calls: each pays t0 */
} fit_pt;

static double calls_of(const calib_kpoint *p)
{
    return p->calls > 1 ? p->calls : 1;
}

static int gemm_like(calib_kclass c)
{
    return c == CALIB_K_GEMM || c == CALIB_K_GEMV || c == CALIB_K_ATTN;
}

/* The weight bytes of a GEMM point (its n x k operands, every batch entry)
 * out of its minimum bytes: what a level-3 BLAS packs before its kernel.
 * 0 for a GEMV (level 2: streamed once, never packed). */
static double packed_bytes(const calib_kpoint *p)
{
    if (p->cls != CALIB_K_GEMM && p->cls != CALIB_K_ATTN)
        return 0;
    double m = p->m, n = p->n, k = p->k, all = n * k + m * k + m * n;
    return all > 0 ? p->bytes * (n * k) / all : 0;
}

/* 1 when p's weights per GEMM (one batch entry or expert) fit in half of
 * pk's L2 (calib_per_kernel.l2_bytes): streamed at bw, not packed. */
static int l2_streamed(const calib_per_kernel *pk, const calib_kpoint *p)
{
    double entries = p->batch > 1 ? p->batch : 1;
    return pk->l2_bytes > 0 && packed_bytes(p) / entries <= 0.5 * pk->l2_bytes;
}

static int is_fp8(const calib_kpoint *p)
{
    return !strcmp(p->dtype, "fp8");
}

/* bf16 points (the cuBLAS backend's second 16-bit type, compute capability
 * 8.0 and later) are tables of their own: the fit is the fp16 (or the CPU's
 * fp32) points', so adding bf16 leaves it as it was; mape_bf16 says how far
 * the bf16 points lie from it. */
static int is_bf16(const calib_kpoint *p)
{
    return !strcmp(p->dtype, "bf16");
}

static double fp8_peak(const calib_per_kernel *pk)
{
    return pk->peak_flops_fp8 > 0 ? pk->peak_flops_fp8 : 2 * pk->peak_flops;
}

/* A batched or grouped call's tiles fill the GPU together (groups =
 * batch); a loop of calls (calls > 1: the grouped GEMM where cuBLAS has no
 * grouped call) runs each GEMM alone. */
static double shape_eta(const calib_per_kernel *pk, const calib_kpoint *p)
{
    if (pk->sm <= 0)
        return 1.0;
    double groups = p->calls > 1 ? 1 : p->batch > 0 ? p->batch : 1;
    return engine_gemm_shape_eta(pk->sm, p->m, p->n, p->k, groups);
}

/* The search: x = log(eff), log(bw), log(t0) and, with packing (dim 4),
 * log(pack_bw). */
typedef struct fit_space {
    const fit_pt *v;
    int n, dim;
} fit_space;

static double fit_mape(const fit_space *f, const double *x)
{
    double eff = exp(x[0]), bw = exp(x[1]), t0 = exp(x[2]), s = 0;
    double pack = f->dim > 3 ? exp(x[3]) : 0;
    for (int i = 0; i < f->n; i++) {
        const fit_pt *v = &f->v[i];
        double c = v->a / eff + (pack > 0 ? v->w / pack : 0) + v->s / bw, mm = v->b / bw;
        double pr = (c > mm ? c : mm) + t0 * v->c;
        s += fabs(pr - v->t) / v->t;
    }
    return s / f->n;
}

#define FIT_DIM_MAX 4

/* Nelder-Mead on the MAPE in log-parameter space from x (f->dim parameters). */
static void nelder_mead(const fit_space *fs, double *x, double step)
{
    int d = fs->dim;
    double p[FIT_DIM_MAX + 1][FIT_DIM_MAX] = {{0}}, f[FIT_DIM_MAX + 1] = {0};
    for (int i = 0; i <= d; i++) {
        for (int j = 0; j < d; j++)
            p[i][j] = x[j] + (i == j + 1 ? step : 0);
        f[i] = fit_mape(fs, p[i]);
    }
    for (int it = 0; it < 2000; it++) {
        int hi = 0, lo = 0;
        for (int i = 1; i <= d; i++) {
            if (f[i] > f[hi])
                hi = i;
            if (f[i] < f[lo])
                lo = i;
        }
        if (f[hi] - f[lo] < 1e-12 * (1 + f[lo]))
            break;
        double c[FIT_DIM_MAX] = {0}, r[FIT_DIM_MAX], e[FIT_DIM_MAX];
        for (int i = 0; i <= d; i++)
            for (int j = 0; i != hi && j < d; j++)
                c[j] += p[i][j] / d;
        for (int j = 0; j < d; j++)
            r[j] = c[j] + (c[j] - p[hi][j]);
        double fr = fit_mape(fs, r);
        if (fr < f[lo]) {
            for (int j = 0; j < d; j++)
                e[j] = c[j] + 2 * (c[j] - p[hi][j]);
            double fe = fit_mape(fs, e);
            memcpy(p[hi], fe < fr ? e : r, (size_t)d * sizeof r[0]);
            f[hi] = fe < fr ? fe : fr;
            continue;
        }
        int second = lo;
        for (int i = 0; i <= d; i++)
            if (i != hi && f[i] > f[second])
                second = i;
        if (fr < f[second]) {
            memcpy(p[hi], r, (size_t)d * sizeof r[0]);
            f[hi] = fr;
            continue;
        }
        for (int j = 0; j < d; j++)
            r[j] = c[j] + 0.5 * (p[hi][j] - c[j]);
        fr = fit_mape(fs, r);
        if (fr < f[hi]) {
            memcpy(p[hi], r, (size_t)d * sizeof r[0]);
            f[hi] = fr;
            continue;
        }
        for (int i = 0; i <= d; i++) /* shrink towards the best */
            if (i != lo) {
                for (int j = 0; j < d; j++)
                    p[i][j] = p[lo][j] + 0.5 * (p[i][j] - p[lo][j]);
                f[i] = fit_mape(fs, p[i]);
            }
    }
    int lo = 0;
    for (int i = 1; i <= d; i++)
        if (f[i] < f[lo])
            lo = i;
    memcpy(x, p[lo], (size_t)d * sizeof x[0]);
}

static double median_of(double *v, int n)
{
    if (n <= 0)
        return 0;
    qsort(v, (size_t)n, sizeof v[0], engine_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The launch floor and cost (medians) and the copy plateau. */
static void fit_constants(const calib_kpoint *pts, int n, calib_per_kernel *pk, double *tmp)
{
    int nl = 0, ng = 0;
    for (int i = 0; i < n; i++)
        if (pts[i].cls == CALIB_K_LAUNCH)
            tmp[nl++] = pts[i].time_s;
    pk->launch_s = median_of(tmp, nl);
    for (int i = 0; i < n; i++)
        if (pts[i].cls == CALIB_K_GRAPH)
            tmp[ng++] = pts[i].time_s;
    pk->small_kernel_s = ng > 0 ? median_of(tmp, ng) : pk->launch_s;
    pk->copy_bytes_per_s = 0;
    for (int i = 0; i < n; i++)
        if (pts[i].cls == CALIB_K_COPY && pts[i].time_s > 0 &&
            pts[i].bytes / pts[i].time_s > pk->copy_bytes_per_s)
            pk->copy_bytes_per_s = pts[i].bytes / pts[i].time_s;
}

double calib_per_kernel_predict(const calib_per_kernel *pk, const calib_kpoint *p)
{
    switch (p->cls) {
    case CALIB_K_LAUNCH: return pk->launch_s;
    case CALIB_K_GRAPH: return pk->small_kernel_s;
    case CALIB_K_COPY: return pk->copy_bytes_per_s > 0 ? p->bytes / pk->copy_bytes_per_s : 0;
    default: break;
    }
    double rate = pk->peak_flops * pk->gemm_efficiency;
    if (is_fp8(p))
        rate = pk->gemm_efficiency_fp8 > 0 ? fp8_peak(pk) * pk->gemm_efficiency_fp8 : 0;
    double c = rate > 0 ? calib_kpoint_flops(pk, p) / (rate * shape_eta(pk, p)) : 0;
    if (pk->pack_bytes_per_s > 0 && l2_streamed(pk, p))
        c += pk->bw_bytes_per_s > 0 ? packed_bytes(p) / pk->bw_bytes_per_s : 0;
    else if (pk->pack_bytes_per_s > 0)
        c += packed_bytes(p) / pk->pack_bytes_per_s;
    double mm = pk->bw_bytes_per_s > 0 ? p->bytes / pk->bw_bytes_per_s : 0;
    return (c > mm ? c : mm) + pk->t0_s * calls_of(p);
}

int calib_per_kernel_worst(const calib_per_kernel *pk, const calib_kpoint *pts, int n,
                           calib_kclass cls, double *err)
{
    int worst = -1;
    double w = -1;
    for (int i = 0; i < n; i++) {
        const calib_kpoint *p = &pts[i];
        if (p->cls != cls || !(p->time_s > 0))
            continue;
        double e = calib_per_kernel_predict(pk, p) / p->time_s - 1;
        if (fabs(e) > w) {
            w = fabs(e);
            worst = i;
            if (err)
                *err = e;
        }
    }
    return worst;
}

/* Each class's and the combined MAPE (copy excluded: a plateau, not fitted). */
static void fit_errors(const calib_kpoint *pts, int n, calib_per_kernel *pk)
{
    double sum = 0;
    int all = 0;
    memset(pk->class_mape, 0, sizeof pk->class_mape);
    memset(pk->class_n, 0, sizeof pk->class_n);
    for (int i = 0; i < n; i++) {
        const calib_kpoint *p = &pts[i];
        if (!(p->time_s > 0) || (unsigned)p->cls >= CALIB_K_COUNT)
            continue;
        double e = fabs(calib_per_kernel_predict(pk, p) - p->time_s) / p->time_s;
        pk->class_mape[p->cls] += e;
        pk->class_n[p->cls]++;
        if (p->cls != CALIB_K_COPY) {
            sum += e;
            all++;
        }
    }
    for (int c = 0; c < CALIB_K_COUNT; c++)
        if (pk->class_n[c] > 0)
            pk->class_mape[c] /= pk->class_n[c];
    pk->mape = all > 0 ? sum / all : 0;
    pk->points = all;
    pk->mape_bf16 = 0;
    pk->bf16_points = 0;
    for (int i = 0; i < n; i++)
        if (gemm_like(pts[i].cls) && is_bf16(&pts[i]) && pts[i].time_s > 0) {
            pk->mape_bf16 += fabs(calib_per_kernel_predict(pk, &pts[i]) - pts[i].time_s) /
                             pts[i].time_s;
            pk->bf16_points++;
        }
    if (pk->bf16_points > 0)
        pk->mape_bf16 /= pk->bf16_points;
}

/* The fit's points (v) from pts: every GEMM-like point with a time, less
 * the cache-resident ones unless keep_cached; *tmin their shortest time.
 * Returns how many. */
static int collect(const calib_kpoint *pts, int n, calib_per_kernel *pk, int keep_cached,
                   fit_pt *v, double *tmin)
{
    int nv = 0;
    *tmin = INFINITY;
    pk->n_cache_excluded = 0;
    for (int i = 0; i < n && pk->peak_flops > 0; i++) {
        const calib_kpoint *p = &pts[i];
        if (!gemm_like(p->cls) || !(p->time_s > 0) || !(p->flops > 0) || is_fp8(p) || is_bf16(p))
            continue; /* fp8 points: their own efficiency (fit_fp8); bf16: is_bf16 */
        /* a grouped point's experts each have their own weights: all its
         * bytes stream, however small one expert is */
        double resident = calib_kpoint_grouped(p) ? p->bytes : p->bytes / calls_of(p);
        if (!keep_cached && pk->cache_bytes > 0 && resident < pk->cache_bytes) {
            pk->n_cache_excluded++;
            continue;
        }
        double w = pk->packs ? packed_bytes(p) : 0;
        int st = l2_streamed(pk, p);
        v[nv++] = (fit_pt){calib_kpoint_flops(pk, p) / (pk->peak_flops * shape_eta(pk, p)),
                           p->bytes, st ? 0 : w,
                           st ? w : 0, p->time_s, calls_of(p)};
        if (p->time_s < *tmin)
            *tmin = p->time_s;
    }
    return nv;
}

/* Minimise the MAPE over v from sixteen starts - the points' own rates at
 * quantiles (the best rate is often a cache-resident outlier, from which
 * the search can walk off to a bandwidth that never binds); with packing,
 * each also from two packing rates (the median and the 90th percentile of
 * the packed points' weight bytes / time) - then polish the best.
 * tmp: 3 nv doubles.  bx: log(eff), log(bw), log(t0)[, log(pack_bw)]. */
static void search(const fit_space *fs, double tmin, double *tmp, double *bx)
{
    int nv = fs->n, nw = 0;
    double *re = tmp, *rb = tmp + nv, *rw = tmp + 2 * nv;
    for (int i = 0; i < nv; i++) {
        re[i] = fs->v[i].a / fs->v[i].t;
        rb[i] = fs->v[i].b / fs->v[i].t;
        if (fs->v[i].w > 0)
            rw[nw++] = fs->v[i].w / fs->v[i].t;
    }
    qsort(re, (size_t)nv, sizeof re[0], engine_cmp_double);
    qsort(rb, (size_t)nv, sizeof rb[0], engine_cmp_double);
    qsort(rw, (size_t)nw, sizeof rw[0], engine_cmp_double);
    static const double Q[] = {0.1, 0.5, 0.9, 1.0}, QW[] = {0.5, 0.9};
    int npack = fs->dim > 3 && nw > 0 ? 2 : 1;
    double f0 = INFINITY;
    for (int qe = 0; qe < 4; qe++)
        for (int qb = 0; qb < 4; qb++)
            for (int qw = 0; qw < npack; qw++) {
                double x[FIT_DIM_MAX] = {log(re[(int)(Q[qe] * (nv - 1))]),
                                         log(rb[(int)(Q[qb] * (nv - 1))]), log(0.3 * tmin),
                                         fs->dim > 3 && nw > 0 ? log(rw[(int)(QW[qw] * (nw - 1))])
                                                               : 0};
                nelder_mead(fs, x, 0.5);
                double f = fit_mape(fs, x);
                if (f < f0) {
                    f0 = f;
                    memcpy(bx, x, (size_t)fs->dim * sizeof x[0]);
                }
            }
    for (int round = 0; round < 3; round++)
        nelder_mead(fs, bx, 0.05);
}

/* The fp8 points' own efficiency against the fp8 roof, the other
 * constants as fitted: the MAPE over them minimised by golden-section
 * search on log(eff) in [e^-7, e^1] (one parameter, unimodal in practice). */
static void fit_fp8(const calib_kpoint *pts, int n, calib_per_kernel *pk)
{
    pk->gemm_efficiency_fp8 = 0;
    pk->mape_fp8 = 0;
    pk->fp8_points = 0;
    for (int i = 0; i < n; i++)
        pk->fp8_points += gemm_like(pts[i].cls) && is_fp8(&pts[i]) && pts[i].time_s > 0;
    if (pk->fp8_points == 0)
        return;
    double lo = -7, hi = 1, g = 0.5 * (sqrt(5.0) - 1);
    for (int it = 0; it < 80; it++) {
        double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo), f[2];
        for (int j = 0; j < 2; j++) {
            pk->gemm_efficiency_fp8 = exp(j ? x2 : x1);
            f[j] = 0;
            for (int i = 0; i < n; i++)
                if (gemm_like(pts[i].cls) && is_fp8(&pts[i]) && pts[i].time_s > 0)
                    f[j] += fabs(calib_per_kernel_predict(pk, &pts[i]) - pts[i].time_s) /
                            pts[i].time_s;
        }
        if (f[0] < f[1])
            hi = x2;
        else
            lo = x1;
    }
    pk->gemm_efficiency_fp8 = exp(0.5 * (lo + hi));
    for (int i = 0; i < n; i++)
        if (gemm_like(pts[i].cls) && is_fp8(&pts[i]) && pts[i].time_s > 0)
            pk->mape_fp8 += fabs(calib_per_kernel_predict(pk, &pts[i]) - pts[i].time_s) /
                            pts[i].time_s / pk->fp8_points;
}

int calib_fit_per_kernel(const calib_kpoint *pts, int n, calib_per_kernel *pk,
                         engine_error *err)
{
    fit_pt *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    double *tmp = malloc((size_t)(n > 0 ? 3 * n : 1) * sizeof *tmp);
    if (!v || !tmp) {
        free(v);
        free(tmp);
        return engine_errorf(err, "per-kernel fit: out of memory");
    }
    double best = 0;
    for (int i = 0; i < n; i++)
        if (gemm_like(pts[i].cls) && pts[i].time_s > 0 && !is_fp8(&pts[i]) && !is_bf16(&pts[i]) &&
            pts[i].flops / pts[i].time_s / shape_eta(pk, &pts[i]) > best)
            best = pts[i].flops / pts[i].time_s / shape_eta(pk, &pts[i]);
    if (!(pk->peak_flops > 0))
        pk->peak_flops = best;
    double tmin;
    int nv = collect(pts, n, pk, 0, v, &tmin);
    if (nv < 3 && pk->n_cache_excluded > 0) /* everything fits in the cache: fit it as it is */
        nv = collect(pts, n, pk, 1, v, &tmin);
    if (nv < 3) {
        free(v);
        free(tmp);
        return engine_errorf(err, "per-kernel fit: %d GEMM points, at least 3 needed", nv);
    }
    int any_w = 0;
    for (int i = 0; i < nv; i++)
        any_w |= v[i].w > 0;
    fit_space fs = {v, nv, pk->packs && any_w ? 4 : 3};
    double bx[FIT_DIM_MAX] = {0, 0, log(0.3 * tmin), 0};
    search(&fs, tmin, tmp, bx);
    pk->gemm_efficiency = exp(bx[0]);
    pk->bw_bytes_per_s = exp(bx[1]);
    pk->t0_s = exp(bx[2]);
    pk->pack_bytes_per_s = fs.dim > 3 ? exp(bx[3]) : 0;
    /* A packing rate that explains under 1 % of every point's time was not
     * measured (weights resident in a cache pack at no visible cost): none. */
    double share = 0;
    for (int i = 0; i < nv && pk->pack_bytes_per_s > 0; i++)
        if (v[i].w / pk->pack_bytes_per_s / v[i].t > share)
            share = v[i].w / pk->pack_bytes_per_s / v[i].t;
    if (share < 0.01)
        pk->pack_bytes_per_s = 0;
    fit_fp8(pts, n, pk);
    fit_constants(pts, n, pk, tmp);
    fit_errors(pts, n, pk);
    free(v);
    free(tmp);
    return 0;
}

/* --- the engine's tables ------------------------------------------------ */

static int dclass_of(const char *dtype)
{
    return !strcmp(dtype, "fp8") || !strcmp(dtype, "int8") ? 1 : 0;
}

int calib_kpoint_grouped(const calib_kpoint *p)
{
    return p->cls == CALIB_K_GEMM && !strncmp(p->op, "grouped_", 8);
}

/* r's GEMM points as the engine's tables: one per (n, k, dclass, bf16, grouped),
 * token counts in increasing order (a repeated count keeps the first); a
 * grouped point's time per expert (time / batch). */
static void tables_to_engine(const calib_result *r, engine_calib *out)
{
    out->n_gemm = 0;
    for (int i = 0; i < r->n_kpoints; i++) {
        const calib_kpoint *p = &r->kpoints[i];
        int gr = calib_kpoint_grouped(p);
        if (p->cls != CALIB_K_GEMM || (p->batch > 1 && !gr) || !(p->time_s > 0))
            continue;
        int dc = dclass_of(p->dtype), bf = is_bf16(p), s = 0;
        while (s < out->n_gemm && !(out->gemm[s].n == p->n && out->gemm[s].k == p->k &&
                                    out->gemm[s].dclass == dc && out->gemm[s].grouped == gr &&
                                    out->gemm[s].bf16 == bf))
            s++;
        if (s == out->n_gemm) {
            if (s >= ENGINE_CALIB_SHAPES)
                continue;
            memset(&out->gemm[s], 0, sizeof out->gemm[s]);
            out->gemm[s].n = p->n;
            out->gemm[s].k = p->k;
            out->gemm[s].dclass = dc;
            out->gemm[s].grouped = gr;
            out->gemm[s].bf16 = bf;
            out->n_gemm++;
        }
        engine_calib_gemm *g = &out->gemm[s];
        int j = 0;
        while (j < g->count && g->m[j] < p->m)
            j++;
        if (g->count >= ENGINE_CALIB_TOKENS || (j < g->count && g->m[j] == p->m))
            continue;
        memmove(&g->m[j + 1], &g->m[j], (size_t)(g->count - j) * sizeof g->m[0]);
        memmove(&g->t_s[j + 1], &g->t_s[j], (size_t)(g->count - j) * sizeof g->t_s[0]);
        g->m[j] = p->m;
        g->t_s[j] = gr ? p->time_s / (p->batch > 0 ? p->batch : 1) : p->time_s;
        g->count++;
    }
}

void calib_per_kernel_to_engine(const calib_result *r, engine_calib *out)
{
    out->schema = r->schema > 0 ? r->schema : CALIB_SCHEMA;
    snprintf(out->model, sizeof out->model, "%s", r->model);
    snprintf(out->library, sizeof out->library, "%s", r->library);
    if (!r->has_per_kernel)
        return;
    const calib_per_kernel *pk = &r->per_kernel;
    out->per_kernel = 1;
    out->peak_flops = pk->peak_flops;
    out->gemm_efficiency = pk->gemm_efficiency;
    out->bw_bytes_per_s = pk->bw_bytes_per_s;
    out->t0_s = pk->t0_s;
    out->small_kernel_s = pk->small_kernel_s;
    out->launch_s = pk->launch_s;
    out->mape = pk->mape;
    out->sm = pk->sm;
    out->pack_bytes_per_s = pk->pack_bytes_per_s;
    out->l2_bytes = pk->pack_bytes_per_s > 0 ? pk->l2_bytes : 0;
    out->unroll_n = pk->unroll_n > 1 ? pk->unroll_n : 0;
    out->fp8_flops = pk->gemm_efficiency_fp8 > 0 ? fp8_peak(pk) * pk->gemm_efficiency_fp8 : 0;
    tables_to_engine(r, out);
}
