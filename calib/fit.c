/*
 * fit.c - the three fits of a calibration, pure arithmetic: the seed's
 * power law in log space, the roofline with fitted efficiencies and a fixed
 * overhead, and alpha-beta for communication.  Each validates its input and
 * refuses degenerate data (too few points, zeros, NaN, a single size) with
 * a sentence instead of returning a meaningless fit.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"

static void set_err(engine_error *err, const char *fmt, const char *what,
                    int i, double v)
{
    if (err)
        snprintf(err->msg, sizeof err->msg, fmt, what, i, v);
}

static const char *kind_name(calib_point_kind k)
{
    switch (k) {
    case CALIB_POINT_PREFILL: return "prefill";
    case CALIB_POINT_DECODE: return "decode";
    case CALIB_POINT_COPY: return "copy";
    }
    return "?";
}

void calib_layer_cost(int hidden, int tokens, double elem, double *flops,
                      double *bytes)
{
    double h = hidden, t = tokens;
    /* (in, out) of QKV, output projection, FFN up, FFN down. */
    static const double shape[4][2] = {{1, 3}, {1, 1}, {1, 4}, {4, 1}};
    double f = 0, b = 0;
    for (int i = 0; i < 4; i++) {
        double in = shape[i][0] * h, out = shape[i][1] * h;
        f += 2.0 * t * in * out;
        b += elem * (t * in + in * out + t * out);
    }
    if (flops)
        *flops = f;
    if (bytes)
        *bytes = b;
}

/* --- power law ------------------------------------------------------ */

double calib_power_law_predict(const calib_power_law *f, double x)
{
    return f->a * pow(x, f->beta);
}

int calib_fit_power_law(const calib_point *pts, int n, calib_power_law *out,
                        engine_error *err)
{
    memset(out, 0, sizeof *out);
    if (!pts || n <= 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "power law: no measurements to fit (got %d points)",
                     n < 0 ? 0 : n);
        return -1;
    }
    int used = 0;
    double sx = 0, sy = 0, sxx = 0, sxy = 0, xmin = DBL_MAX, xmax = 0;
    for (int i = 0; i < n; i++) {
        const calib_point *p = &pts[i];
        if (p->kind != CALIB_POINT_PREFILL)
            continue;
        double x = (double)p->hidden * p->hidden * p->batch * p->seq;
        if (!(p->hidden > 0 && p->batch > 0 && p->seq > 0)) {
            set_err(err, "%s: point %d: hidden, batch and seq must be "
                    "positive (h^2*b*s = %g)", "power law", i, x);
            return -1;
        }
        if (!isfinite(p->time_s) || p->time_s <= 0) {
            set_err(err, "%s: point %d: time must be a positive finite "
                    "number of seconds, got %g", "power law", i, p->time_s);
            return -1;
        }
        double lx = log(x), ly = log(p->time_s);
        sx += lx; sy += ly; sxx += lx * lx; sxy += lx * ly;
        if (x < xmin) xmin = x;
        if (x > xmax) xmax = x;
        used++;
    }
    if (used < 2) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "power law: need at least 2 prefill points, got %d", used);
        return -1;
    }
    if (xmax <= xmin * (1 + 1e-12)) {
        set_err(err, "%s: all %d points have the same size h^2*b*s = %g; "
                "need at least two sizes", "power law", used, xmin);
        return -1;
    }
    double m = used;
    double den = m * sxx - sx * sx;
    double beta = (m * sxy - sx * sy) / den;
    double la = (sy - beta * sx) / m;
    out->a = exp(la);
    out->beta = beta;
    out->n = used;
    double mean_ly = sy / m, ss_res = 0, ss_tot = 0, ape = 0;
    for (int i = 0; i < n; i++) {
        const calib_point *p = &pts[i];
        if (p->kind != CALIB_POINT_PREFILL)
            continue;
        double x = (double)p->hidden * p->hidden * p->batch * p->seq;
        double pred = calib_power_law_predict(out, x);
        double ly = log(p->time_s);
        ss_res += (log(pred) - ly) * (log(pred) - ly);
        ss_tot += (ly - mean_ly) * (ly - mean_ly);
        ape += fabs(pred - p->time_s) / p->time_s;
    }
    out->mape = ape / m;
    out->r2 = ss_tot > 0 ? 1.0 - ss_res / ss_tot : 1.0;
    return 0;
}

/* --- roofline ------------------------------------------------------- */

double calib_roofline_predict(const calib_roofline *f, double flops,
                              double bytes)
{
    double tc = flops / (f->peak_flops * f->eta_compute);
    double tm = bytes / (f->bandwidth * f->eta_memory);
    return (tc > tm ? tc : tm) + f->overhead_s;
}

/* Solve the k x k system a x = b (k <= 3) by Gaussian elimination with
 * partial pivoting.  0 ok, -1 singular. */
static int solve(int k, double a[3][3], double b[3], double x[3])
{
    for (int c = 0; c < k; c++) {
        int piv = c;
        for (int r = c + 1; r < k; r++)
            if (fabs(a[r][c]) > fabs(a[piv][c]))
                piv = r;
        if (!(fabs(a[piv][c]) > 1e-12))
            return -1;
        if (piv != c) {
            for (int j = 0; j < k; j++) {
                double t = a[c][j]; a[c][j] = a[piv][j]; a[piv][j] = t;
            }
            double t = b[c]; b[c] = b[piv]; b[piv] = t;
        }
        for (int r = c + 1; r < k; r++) {
            double f = a[r][c] / a[c][c];
            for (int j = c; j < k; j++)
                a[r][j] -= f * a[c][j];
            b[r] -= f * b[c];
        }
    }
    for (int r = k - 1; r >= 0; r--) {
        double s = b[r];
        for (int j = r + 1; j < k; j++)
            s -= a[r][j] * x[j];
        x[r] = s / a[r][r];
    }
    return 0;
}

typedef struct rf_pt {
    double c, m, t; /* compute seconds at eta 1, memory seconds at eta 1, T */
    double ratio;   /* c / m (inf when m == 0) */
} rf_pt;

static int cmp_ratio(const void *a, const void *b)
{
    double x = ((const rf_pt *)a)->ratio, y = ((const rf_pt *)b)->ratio;
    return (x > y) - (x < y);
}

/* Sum of squared relative errors of the max model with u = 1/eta_c,
 * v = 1/eta_m, overhead o. */
static double rf_cost(const rf_pt *p, int n, double u, double v, double o)
{
    double s = 0;
    for (int i = 0; i < n; i++) {
        double a = u * p[i].c, b = v * p[i].m;
        double e = ((a > b ? a : b) + o - p[i].t) / p[i].t;
        s += e * e;
    }
    return s;
}

/* Weighted least squares of the linear model for one split: points [0, k)
 * memory-bound (T = v*m + o), [k, n) compute-bound (T = u*c + o), weights
 * 1/T^2.  Parameters whose regime is empty are left at 0 (unknown).
 * with_o: include the overhead column.  0 ok, -1 singular or non-positive
 * rate. */
static int rf_solve_split(const rf_pt *p, int n, int k, int with_o,
                          double *u, double *v, double *o)
{
    /* Columns: 0 = u (compute), 1 = v (memory), 2 = o. */
    int use[3] = {k < n, k > 0, with_o};
    int idx[3], nc = 0;
    for (int j = 0; j < 3; j++)
        if (use[j])
            idx[nc++] = j;
    if (nc == 0)
        return -1;
    /* Scale each column by a typical size so the normal equations stay well
     * conditioned (c and m are 1e-9..1 s). */
    double scale[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        double w = 1.0 / p[i].t;
        double row[3] = {i >= k ? p[i].c * w : 0, i < k ? p[i].m * w : 0, w};
        for (int j = 0; j < 3; j++)
            if (fabs(row[j]) > scale[j])
                scale[j] = fabs(row[j]);
    }
    for (int j = 0; j < nc; j++)
        if (!(scale[idx[j]] > 0))
            return -1;
    double ata[3][3] = {{0}}, atb[3] = {0}, x[3] = {0};
    for (int i = 0; i < n; i++) {
        double w = 1.0 / p[i].t;
        double row[3] = {i >= k ? p[i].c * w : 0, i < k ? p[i].m * w : 0, w};
        double r[3];
        for (int j = 0; j < nc; j++)
            r[j] = row[idx[j]] / scale[idx[j]];
        for (int a = 0; a < nc; a++) {
            for (int b = 0; b < nc; b++)
                ata[a][b] += r[a] * r[b];
            atb[a] += r[a] * 1.0; /* target T * w = 1 */
        }
    }
    if (solve(nc, ata, atb, x) != 0)
        return -1;
    double par[3] = {0, 0, 0};
    for (int j = 0; j < nc; j++)
        par[idx[j]] = x[j] / scale[idx[j]];
    if ((use[0] && !(par[0] > 0)) || (use[1] && !(par[1] > 0)))
        return -1;
    *u = par[0];
    *v = par[1];
    *o = par[2];
    return 0;
}

static int check_point(const calib_point *p, int i, engine_error *err)
{
    if (!isfinite(p->flops) || !isfinite(p->bytes) || p->flops < 0 ||
        p->bytes < 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "roofline: point %d (%s): flops and bytes must be finite "
                     "and >= 0, got %g and %g", i, kind_name(p->kind),
                     p->flops, p->bytes);
        return -1;
    }
    if (p->flops == 0 && p->bytes == 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "roofline: point %d (%s): no work (0 FLOPs and 0 bytes)",
                     i, kind_name(p->kind));
        return -1;
    }
    if (!isfinite(p->time_s) || p->time_s <= 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "roofline: point %d (%s): time must be a positive finite "
                     "number of seconds, got %g", i, kind_name(p->kind),
                     p->time_s);
        return -1;
    }
    return 0;
}

int calib_fit_roofline(const calib_point *pts, int n, double peak_flops,
                       double bandwidth, calib_roofline *out,
                       engine_error *err)
{
    memset(out, 0, sizeof *out);
    if (!(isfinite(peak_flops) && peak_flops > 0 && isfinite(bandwidth) &&
          bandwidth > 0)) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "roofline: peak FLOP/s and bandwidth must be positive, "
                     "got %g and %g", peak_flops, bandwidth);
        return -1;
    }
    if (!pts || n < 3) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "roofline: need at least 3 points, got %d", n < 0 ? 0 : n);
        return -1;
    }
    rf_pt *p = malloc((size_t)n * sizeof *p);
    if (!p) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "roofline: out of memory");
        return -1;
    }
    double tmin = DBL_MAX, tmax = 0;
    for (int i = 0; i < n; i++) {
        if (check_point(&pts[i], i, err) != 0) {
            free(p);
            return -1;
        }
        p[i].c = pts[i].flops / peak_flops;
        p[i].m = pts[i].bytes / bandwidth;
        p[i].t = pts[i].time_s;
        p[i].ratio = p[i].m > 0 ? p[i].c / p[i].m : HUGE_VAL;
        if (p[i].t < tmin) tmin = p[i].t;
        if (p[i].t > tmax) tmax = p[i].t;
    }
    int same = 1;
    for (int i = 1; i < n && same; i++)
        if (pts[i].flops != pts[0].flops || pts[i].bytes != pts[0].bytes)
            same = 0;
    if (same) {
        free(p);
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "roofline: all %d points have the same work (%g FLOPs, %g "
                     "bytes); need at least two sizes", n, pts[0].flops,
                     pts[0].bytes);
        return -1;
    }
    /* Sorted by F/B: a split at k puts the k lowest-intensity points on the
     * memory roof.  Every split is tried, with and without the overhead. */
    qsort(p, (size_t)n, sizeof *p, cmp_ratio);
    double best = HUGE_VAL, bu = 0, bv = 0, bo = 0;
    int bk = -1;
    for (int k = 0; k <= n; k++) {
        /* Equal ratios cannot be split apart. */
        if (k > 0 && k < n && p[k - 1].ratio == p[k].ratio)
            continue;
        for (int wo = 1; wo >= 0; wo--) {
            double u, v, o;
            if (rf_solve_split(p, n, k, wo, &u, &v, &o) != 0)
                continue;
            if (o < 0)
                continue; /* retried without the overhead column */
            /* A rate no point depends on is set to its bound: the largest
             * time per unit that keeps every point on the other roof, so
             * that eta is the smallest the data allows (a lower bound). */
            if (k == 0) {
                v = HUGE_VAL;
                for (int i = 0; i < n; i++)
                    if (p[i].m > 0 && u * p[i].c / p[i].m < v)
                        v = u * p[i].c / p[i].m;
                if (!isfinite(v))
                    v = u; /* no memory traffic at all: irrelevant */
            } else if (k == n) {
                u = HUGE_VAL;
                for (int i = 0; i < n; i++)
                    if (p[i].c > 0 && v * p[i].m / p[i].c < u)
                        u = v * p[i].m / p[i].c;
                if (!isfinite(u))
                    u = v;
            }
            /* Ties (exact data fits several splits) go to the split with
             * fewer memory-bound points: an absolute margin, not a ratio,
             * so rounding noise near a zero cost cannot win. */
            double c = rf_cost(p, n, u, v, o);
            if (bk < 0 || c < best - 1e-12 * n) {
                best = c; bu = u; bv = v; bo = o; bk = k;
            }
            if (wo == 1)
                break; /* the overhead was non-negative: no need to drop it */
        }
    }
    if (bk < 0) {
        free(p);
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "roofline: no fit with positive efficiencies (times "
                     "%g..%g s do not grow with the work)", tmin, tmax);
        return -1;
    }
    /* Polish on the true (max) model: the split solution is exact for its
     * own assignment, but a point near the ridge may prefer the other roof. */
    double step = 0.05;
    for (int it = 0; it < 200 && step > 1e-7; it++) {
        int improved = 0;
        double cand[6][3] = {
            {bu * (1 + step), bv, bo}, {bu / (1 + step), bv, bo},
            {bu, bv * (1 + step), bo}, {bu, bv / (1 + step), bo},
            {bu, bv, bo + step * tmin}, {bu, bv, bo - step * tmin}};
        for (int j = 0; j < 6; j++) {
            if (cand[j][2] < 0)
                cand[j][2] = 0;
            double c = rf_cost(p, n, cand[j][0], cand[j][1], cand[j][2]);
            if (c < best * (1 - 1e-12)) {
                best = c; bu = cand[j][0]; bv = cand[j][1]; bo = cand[j][2];
                improved = 1;
            }
        }
        if (!improved)
            step *= 0.5;
    }
    out->peak_flops = peak_flops;
    out->bandwidth = bandwidth;
    out->eta_compute = 1.0 / bu;
    out->eta_memory = 1.0 / bv;
    out->overhead_s = bo;
    out->n = n;
    double mean = 0, ape = 0, ss_res = 0, ss_tot = 0;
    for (int i = 0; i < n; i++)
        mean += log(p[i].t);
    mean /= n;
    for (int i = 0; i < n; i++) {
        double a = bu * p[i].c, b = bv * p[i].m;
        double pred = (a > b ? a : b) + bo;
        if (a >= b)
            out->n_compute_bound++;
        ape += fabs(pred - p[i].t) / p[i].t;
        ss_res += (log(pred) - log(p[i].t)) * (log(pred) - log(p[i].t));
        ss_tot += (log(p[i].t) - mean) * (log(p[i].t) - mean);
    }
    out->mape = ape / n;
    out->r2 = ss_tot > 0 ? 1.0 - ss_res / ss_tot : 1.0;
    /* A roof no point sits on is not measured, only bounded. */
    out->eta_memory_bound_only = out->n_compute_bound == n;
    out->eta_compute_bound_only = out->n_compute_bound == 0;
    free(p);
    return 0;
}

/* --- alpha-beta -------------------------------------------------------- */

int calib_fit_alpha_beta(const calib_comm_point *pts, int n,
                         calib_alpha_beta *out, engine_error *err)
{
    memset(out, 0, sizeof *out);
    if (!pts || n < 2) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "alpha-beta: need at least 2 message sizes, got %d point%s",
                     n < 0 ? 0 : n, n == 1 ? "" : "s");
        return -1;
    }
    double smin = DBL_MAX, smax = 0;
    for (int i = 0; i < n; i++) {
        if (!isfinite(pts[i].bytes) || pts[i].bytes <= 0 ||
            !isfinite(pts[i].time_s) || pts[i].time_s <= 0) {
            if (err)
                snprintf(err->msg, sizeof err->msg,
                         "alpha-beta: point %d: size and time must be positive "
                         "finite numbers, got %g bytes and %g s", i,
                         pts[i].bytes, pts[i].time_s);
            return -1;
        }
        if (pts[i].bytes < smin) smin = pts[i].bytes;
        if (pts[i].bytes > smax) smax = pts[i].bytes;
    }
    if (smax <= smin) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "alpha-beta: all %d points have the same message size "
                     "(%g bytes); need at least two sizes", n, smin);
        return -1;
    }
    /* Weighted least squares, w = 1/T^2: minimises the relative error, so
     * the small messages determine alpha and the large ones the slope. */
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        double w = 1.0 / (pts[i].time_s * pts[i].time_s);
        double x = pts[i].bytes, y = pts[i].time_s;
        sw += w; sx += w * x; sy += w * y; sxx += w * x * x; sxy += w * x * y;
    }
    double den = sw * sxx - sx * sx;
    double slope = (sw * sxy - sx * sy) / den;
    double alpha = (sy - slope * sx) / sw;
    if (alpha < 0) {
        /* Latency below resolution: fit the slope through the origin. */
        alpha = 0;
        slope = sxy / sxx;
    }
    if (!(slope > 0) || !isfinite(slope)) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "alpha-beta: time does not grow with the message size "
                     "(slope %g s/byte); no bandwidth can be fitted", slope);
        return -1;
    }
    out->alpha_s = alpha;
    out->bandwidth = 1.0 / slope;
    out->n = n;
    double mean = 0, ss_res = 0, ss_tot = 0, ape = 0;
    for (int i = 0; i < n; i++)
        mean += pts[i].time_s;
    mean /= n;
    for (int i = 0; i < n; i++) {
        double pred = alpha + pts[i].bytes * slope;
        ss_res += (pred - pts[i].time_s) * (pred - pts[i].time_s);
        ss_tot += (pts[i].time_s - mean) * (pts[i].time_s - mean);
        ape += fabs(pred - pts[i].time_s) / pts[i].time_s;
    }
    out->r2 = ss_tot > 0 ? 1.0 - ss_res / ss_tot : 1.0;
    out->mape = ape / n;
    return 0;
}
