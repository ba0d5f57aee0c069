/*
 * fit.c - the three fits of a calibration, pure arithmetic: the seed's
 * power law in log space, the roofline with fitted efficiencies and a fixed
 * overhead (in the engine's form or the classic max() form; least squares
 * for a start, then the MAPE itself minimised, efficiencies kept in
 * (0, 1]), and alpha-beta for communication.  Each validates its input and
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
    if (f->form == CALIB_ROOFLINE_ENGINE)
        return engine_roofline_s(tc, tm) + f->overhead_s;
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
    return engine_cmp(((const rf_pt *)a)->ratio, ((const rf_pt *)b)->ratio);
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
    /* Columns: 0 = u (compute), 1 = v (memory), 2 = o.  k < 0: no split,
     * every point pays both (T = u*c + v*m + o, the additive form). */
    int sum = k < 0;
    int any_m = 0;
    for (int i = 0; i < n; i++)
        if (p[i].m > 0)
            any_m = 1;
    int use[3] = {sum || k < n, sum ? any_m : k > 0, with_o};
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
        double row[3] = {sum || i >= k ? p[i].c * w : 0,
                         sum || i < k ? p[i].m * w : 0, w};
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
        double row[3] = {sum || i >= k ? p[i].c * w : 0,
                         sum || i < k ? p[i].m * w : 0, w};
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

/* Mean absolute relative error (the MAPE the fit reports) of the max
 * model on the fitting points. */
static double rf_model(int form, double a, double b)
{
    return form == CALIB_ROOFLINE_ENGINE ? engine_roofline_s(a, b)
                                         : (a > b ? a : b);
}

static double rf_mape(const rf_pt *p, int n, int form, double u, double v,
                      double o)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += fabs(rf_model(form, u * p[i].c, v * p[i].m) + o - p[i].t) / p[i].t;
    return s / n;
}

/* The search space of the MAPE stage: x = (ln u, ln v, o / tmin), projected
 * onto the box u, v >= lo (lo = 1 keeps eta <= 1) and o >= 0. */
typedef struct rf_search {
    const rf_pt *p;
    int n;
    int form;
    double lo_ln; /* ln of the smallest u and v allowed (-inf: none) */
    double tmin;
} rf_search;

static void rf_unpack(const rf_search *s, const double x[3], double *u,
                      double *v, double *o)
{
    *u = exp(x[0] > s->lo_ln ? x[0] : s->lo_ln);
    *v = exp(x[1] > s->lo_ln ? x[1] : s->lo_ln);
    *o = x[2] > 0 ? x[2] * s->tmin : 0;
}

static double rf_search_cost(const rf_search *s, const double x[3])
{
    double u, v, o;
    rf_unpack(s, x, &u, &v, &o);
    return rf_mape(s->p, s->n, s->form, u, v, o);
}

/* Nelder-Mead on rf_search_cost from x (updated in place to the best
 * vertex); returns its cost.  The MAPE is piecewise linear, so the simplex
 * is restarted around its best vertex until a restart gains nothing. */
static double rf_nelder_mead(const rf_search *s, double x[3], double step)
{
    double best = rf_search_cost(s, x);
    for (int restart = 0; restart < 8; restart++) {
        double v[4][3], f[4];
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 3; j++)
                v[i][j] = x[j] + (i == j + 1 ? step : 0);
            f[i] = rf_search_cost(s, v[i]);
        }
        for (int it = 0; it < 400; it++) {
            /* Order: v[0] best .. v[3] worst. */
            for (int i = 1; i < 4; i++)
                for (int k = i; k > 0 && f[k] < f[k - 1]; k--) {
                    double tf = f[k]; f[k] = f[k - 1]; f[k - 1] = tf;
                    for (int j = 0; j < 3; j++) {
                        double t = v[k][j]; v[k][j] = v[k - 1][j]; v[k - 1][j] = t;
                    }
                }
            if (f[3] - f[0] <= 1e-13 * (f[0] + 1e-300))
                break;
            double c[3], xr[3], xe[3], xc[3];
            for (int j = 0; j < 3; j++) {
                c[j] = (v[0][j] + v[1][j] + v[2][j]) / 3.0;
                xr[j] = c[j] + (c[j] - v[3][j]);
            }
            double fr = rf_search_cost(s, xr);
            if (fr < f[0]) {
                for (int j = 0; j < 3; j++)
                    xe[j] = c[j] + 2.0 * (c[j] - v[3][j]);
                double fe = rf_search_cost(s, xe);
                const double *w = fe < fr ? xe : xr;
                for (int j = 0; j < 3; j++)
                    v[3][j] = w[j];
                f[3] = fe < fr ? fe : fr;
            } else if (fr < f[2]) {
                for (int j = 0; j < 3; j++)
                    v[3][j] = xr[j];
                f[3] = fr;
            } else {
                for (int j = 0; j < 3; j++)
                    xc[j] = c[j] + 0.5 * (v[3][j] - c[j]);
                double fc = rf_search_cost(s, xc);
                if (fc < f[3]) {
                    for (int j = 0; j < 3; j++)
                        v[3][j] = xc[j];
                    f[3] = fc;
                } else {
                    for (int i = 1; i < 4; i++) {
                        for (int j = 0; j < 3; j++)
                            v[i][j] = v[0][j] + 0.5 * (v[i][j] - v[0][j]);
                        f[i] = rf_search_cost(s, v[i]);
                    }
                }
            }
        }
        int bi = 0;
        for (int i = 1; i < 4; i++)
            if (f[i] < f[bi])
                bi = i;
        int gained = f[bi] < best * (1 - 1e-9);
        if (f[bi] < best) {
            best = f[bi];
            for (int j = 0; j < 3; j++)
                x[j] = v[bi][j];
        }
        if (!gained)
            break;
        step *= 0.5;
    }
    return best;
}

/* Coordinate search with shrinking steps on rf_search_cost: the last word
 * after Nelder-Mead (which can stall on the kinks of a piecewise-linear
 * loss).  Updates x, returns its cost. */
static double rf_coordinate(const rf_search *s, double x[3], double step)
{
    double best = rf_search_cost(s, x);
    while (step > 1e-9) {
        int improved = 0;
        for (int j = 0; j < 3; j++)
            for (int sg = -1; sg <= 1; sg += 2) {
                double y[3] = {x[0], x[1], x[2]};
                y[j] += sg * step;
                double c = rf_search_cost(s, y);
                if (c < best * (1 - 1e-12)) {
                    best = c;
                    x[j] = y[j];
                    improved = 1;
                }
            }
        if (!improved)
            step *= 0.5;
    }
    return best;
}

/* A rate no point depends on is set to its bound: the largest time per
 * unit that keeps every point on the other roof, so that its eta is the
 * smallest the data allows (a lower bound).  Points with m == 0 (no memory
 * traffic, or excluded from the memory roof) never bound v. */
static void rf_bound_rates(const rf_pt *p, int n, double *u, double *v)
{
    int on_c = 0, on_m = 0;
    for (int i = 0; i < n; i++) {
        if (*u * p[i].c >= *v * p[i].m)
            on_c++;
        else
            on_m++;
    }
    if (on_m == 0) {
        double b = HUGE_VAL;
        for (int i = 0; i < n; i++)
            if (p[i].m > 0 && *u * p[i].c / p[i].m < b)
                b = *u * p[i].c / p[i].m;
        *v = isfinite(b) ? b : *u; /* no memory traffic at all: irrelevant */
    } else if (on_c == 0) {
        double b = HUGE_VAL;
        for (int i = 0; i < n; i++)
            if (p[i].c > 0 && *v * p[i].m / p[i].c < b)
                b = *v * p[i].m / p[i].c;
        *u = isfinite(b) ? b : *v;
    }
}

/* The max model's least-squares answer on sorted points: every split
 * solved as weighted linear least squares in relative error (exact data is
 * recovered exactly), then polished on the max model, where a point near
 * the ridge may prefer the other roof.  0 ok, -1 no split gave positive
 * rates. */
static int rf_start_max(const rf_pt *p, int n, double tmin, double *ou,
                        double *ov, double *oo)
{
    double best = HUGE_VAL, bu = 0, bv = 0, bo = 0;
    int bk = -1;
    for (int k = 0; k <= n; k++) {
        /* Equal ratios cannot be split apart; a point without memory
         * traffic (ratio inf, sorted last) is never memory-bound. */
        if (k > 0 && k < n && p[k - 1].ratio == p[k].ratio)
            continue;
        if (k > 0 && !(p[k - 1].m > 0))
            break;
        for (int wo = 1; wo >= 0; wo--) {
            double u, v, o;
            if (rf_solve_split(p, n, k, wo, &u, &v, &o) != 0)
                continue;
            if (o < 0)
                continue; /* retried without the overhead column */
            /* The rate of an empty regime is set to its bound. */
            if (k == 0)
                v = 0;
            else if (k == n)
                u = 0;
            rf_bound_rates(p, n, &u, &v);
            if (!(u > 0 && v > 0))
                continue;
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
    if (bk < 0)
        return -1;
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
    *ou = bu;
    *ov = bv;
    *oo = bo;
    return 0;
}

/* The additive model's least-squares answer (T = u*c + v*m + o, weights
 * 1/T, exact for exact data); a column that comes out negative is dropped
 * (its rate set to a tiny positive value for the search to start from).
 * 0 ok, -1 nothing positive fits. */
static int rf_start_sum(const rf_pt *p, int n, double *ou, double *ov,
                        double *oo)
{
    double u, v, o;
    int any_m = 0;
    for (int i = 0; i < n; i++)
        if (p[i].m > 0)
            any_m = 1;
    if (!any_m) {
        /* No memory traffic to fit (all excluded): v is irrelevant to the
         * fit; it starts equal to u and ends as a bound. */
        if (rf_solve_split(p, n, 0, 1, &u, &v, &o) == 0 && o >= 0) {
            *ou = u; *ov = u; *oo = o;
            return 0;
        }
        if (rf_solve_split(p, n, 0, 0, &u, &v, &o) == 0) {
            *ou = u; *ov = u; *oo = 0;
            return 0;
        }
        return -1;
    }
    if (rf_solve_split(p, n, -1, 1, &u, &v, &o) == 0 && o >= 0 && v > 0) {
        *ou = u; *ov = v; *oo = o;
        return 0;
    }
    if (rf_solve_split(p, n, -1, 0, &u, &v, &o) == 0 && v > 0) {
        *ou = u; *ov = v; *oo = 0;
        return 0;
    }
    /* Memory or compute adds nothing measurable: one roof plus overhead
     * (the max split with every point on that roof). */
    if (rf_solve_split(p, n, 0, 1, &u, &v, &o) == 0 && o >= 0) {
        *ou = u; *ov = 1e-6 * u; *oo = o;
        return 0;
    }
    if (rf_solve_split(p, n, 0, 0, &u, &v, &o) == 0) {
        *ou = u; *ov = 1e-6 * u; *oo = 0;
        return 0;
    }
    return -1;
}

/* The whole fit on sorted points for `form`: least-squares starts (the max
 * model's best split; for the engine's form also the additive solve), then
 * the MAPE itself minimised from each (Nelder-Mead and a coordinate search
 * in log-parameter space) within u, v >= lo (lo = 1: eta <= 1); the lowest
 * MAPE wins.  0 ok, -1 no start had positive rates. */
static int rf_fit(const rf_pt *p, int n, int form, double lo, double tmin,
                  double *ou, double *ov, double *oo)
{
    double st[2][3];
    int ns = 0;
    if (rf_start_max(p, n, tmin, &st[ns][0], &st[ns][1], &st[ns][2]) == 0)
        ns++;
    if (form == CALIB_ROOFLINE_ENGINE &&
        rf_start_sum(p, n, &st[ns][0], &st[ns][1], &st[ns][2]) == 0)
        ns++;
    if (ns == 0)
        return -1;
    /* The reported error is the mean relative error, and squared errors
     * let the few points the model cannot describe pull the rates off the
     * many it can: minimise the MAPE itself, from each least-squares
     * answer (projected into the box). */
    rf_search s = {p, n, form, lo > 0 ? log(lo) : -HUGE_VAL, tmin};
    double best = HUGE_VAL, bu = 0, bv = 0, bo = 0;
    for (int k = 0; k < ns; k++) {
        double x[3] = {log(st[k][0]), log(st[k][1]), st[k][2] / tmin};
        double u, v, o;
        if (st[k][0] >= lo && st[k][1] >= lo && st[k][2] >= 0) {
            /* In the box: keep the exact least-squares values unless the
             * search gains (exact data stays exact to the last bit). */
            u = st[k][0];
            v = st[k][1];
            o = st[k][2];
        } else {
            rf_unpack(&s, x, &u, &v, &o);
        }
        double start = rf_mape(p, n, form, u, v, o);
        double y[3] = {x[0], x[1], x[2]};
        rf_nelder_mead(&s, y, 0.05);
        double c = rf_coordinate(&s, y, 0.01); /* never above start */
        if (c < start - 1e-12)
            rf_unpack(&s, y, &u, &v, &o);
        else
            c = start;
        if (c < best - 1e-12) {
            best = c; bu = u; bv = v; bo = o;
        }
    }
    if (form == CALIB_ROOFLINE_MAX)
        rf_bound_rates(p, n, &bu, &bv);
    if (lo > 0) {
        /* A bound is a lower bound on eta: never push eta above 1 for it. */
        if (bu < lo)
            bu = lo;
        if (bv < lo)
            bv = lo;
    }
    *ou = bu;
    *ov = bv;
    *oo = bo;
    return 0;
}

int calib_fit_roofline(const calib_point *pts, int n, double peak_flops,
                       double bandwidth, calib_roofline *out,
                       engine_error *err)
{
    return calib_fit_roofline_ex(pts, n, peak_flops, bandwidth, NULL, out, err);
}

/* The points as rf_pt (time in units of the roofs), checked: roofs
 * positive, at least 3 valid points of more than one size.  Counts the
 * excluded ones into out->n_memory_excluded; *tmin / *tmax the times.
 * The array (free it), or NULL with err. */
static rf_pt *rf_prepare(const calib_point *pts, int n, double peak_flops, double bandwidth,
                         const unsigned char *excl, calib_roofline *out, double *tmin,
                         double *tmax, engine_error *err)
{
    if (!(isfinite(peak_flops) && peak_flops > 0 && isfinite(bandwidth) && bandwidth > 0)) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "roofline: peak FLOP/s and bandwidth must be positive, "
                     "got %g and %g", peak_flops, bandwidth);
        return NULL;
    }
    if (!pts || n < 3) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "roofline: need at least 3 points, got %d",
                     n < 0 ? 0 : n);
        return NULL;
    }
    rf_pt *p = malloc((size_t)n * sizeof *p);
    if (!p) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "roofline: out of memory");
        return NULL;
    }
    *tmin = DBL_MAX;
    *tmax = 0;
    int same = 1;
    for (int i = 0; i < n; i++) {
        if (check_point(&pts[i], i, err) != 0) {
            free(p);
            return NULL;
        }
        p[i].c = pts[i].flops / peak_flops;
        p[i].m = excl && excl[i] ? 0 : pts[i].bytes / bandwidth;
        p[i].t = pts[i].time_s;
        p[i].ratio = p[i].m > 0 ? p[i].c / p[i].m : HUGE_VAL;
        if (excl && excl[i])
            out->n_memory_excluded++;
        if (p[i].t < *tmin) *tmin = p[i].t;
        if (p[i].t > *tmax) *tmax = p[i].t;
        if (pts[i].flops != pts[0].flops || pts[i].bytes != pts[0].bytes)
            same = 0;
    }
    if (same) {
        free(p);
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "roofline: all %d points have the same work (%g FLOPs, %g "
                     "bytes); need at least two sizes", n, pts[0].flops, pts[0].bytes);
        return NULL;
    }
    return p;
}

/* An excluded point's bytes came from a cache faster than the bandwidth
 * roof, at a rate nothing else measured: it is left out of the fit when
 * at least 3 points of different work remain (so the others' etas come out
 * as they are), else the fit sees it as compute plus overhead only (m = 0;
 * eta_memory then rests on the other points, or on none: a bound).
 * Returns how many points of p to fit. */
static int rf_drop_excluded(rf_pt *p, const calib_point *pts, int n,
                            const unsigned char *excl, int n_excluded)
{
    if (n_excluded == 0 || n - n_excluded < 3)
        return n;
    int k = 0, first = -1, differ = 0;
    for (int i = 0; i < n; i++) {
        if (excl[i])
            continue;
        if (first < 0)
            first = i;
        else if (pts[i].flops != pts[first].flops || pts[i].bytes != pts[first].bytes)
            differ = 1;
    }
    if (!differ)
        return n;
    for (int i = 0; i < n; i++)
        if (!excl[i])
            p[k++] = p[i];
    return k;
}

/* Errors of the model as the engine will use it (rates bu, bv in units of
 * the roofs, overhead bo), on every point with its real bytes (excluded
 * ones included), and which roofs are only bounds.  The max form is a
 * comparison only: where its memory roof rests on a bound (no fitted point
 * on it), a cache-resident point's real bytes at that bound would measure
 * the bound, not the fit, so those points count as they were fitted
 * (compute + overhead).  share_c / share_m: the most of any fitted point's
 * time each roof explains. */
static void rf_errors(const calib_point *pts, int n, const unsigned char *excl, int form,
                      double bu, double bv, double bo, double share_c, double share_m,
                      calib_roofline *out)
{
    double mean = 0, ape = 0, ss_res = 0, ss_tot = 0;
    int fit_compute = 0;
    for (int i = 0; i < n; i++)
        mean += log(pts[i].time_s);
    mean /= n;
    for (int i = 0; i < n; i++) {
        const calib_point *q = &pts[i];
        int cached = excl && excl[i];
        double a = q->flops / out->peak_flops * bu;
        double b = (form == CALIB_ROOFLINE_MAX && cached) ? 0 : q->bytes / out->bandwidth * bv;
        double pred = rf_model(form, a, b) + bo, lt = log(q->time_s);
        if (a >= b)
            out->n_compute_bound++;
        if (a >= b || cached)
            fit_compute++;
        ape += fabs(pred - q->time_s) / q->time_s;
        ss_res += (log(pred) - lt) * (log(pred) - lt);
        ss_tot += (lt - mean) * (lt - mean);
    }
    out->mape = ape / n;
    out->r2 = ss_tot > 0 ? 1.0 - ss_res / ss_tot : 1.0;
    /* A roof no fitted point sits on is not measured, only bounded. */
    if (form == CALIB_ROOFLINE_MAX) {
        out->eta_memory_bound_only = fit_compute == n;
        out->eta_compute_bound_only = out->n_compute_bound == 0;
    } else {
        out->eta_memory_bound_only = share_m < 0.01;
        out->eta_compute_bound_only = share_c < 0.01;
    }
}

int calib_fit_roofline_ex(const calib_point *pts, int n, double peak_flops,
                          double bandwidth, const calib_roofline_opts *opts,
                          calib_roofline *out, engine_error *err)
{
    memset(out, 0, sizeof *out);
    const unsigned char *excl = opts ? opts->memory_excluded : NULL;
    double tmin, tmax;
    rf_pt *p = rf_prepare(pts, n, peak_flops, bandwidth, excl, out, &tmin, &tmax, err);
    if (!p)
        return -1;
    int nf = rf_drop_excluded(p, pts, n, excl, out->n_memory_excluded);
    /* Sorted by F/B: a split at k puts the k lowest-intensity points on the
     * memory roof.  Every split is tried, with and without the overhead. */
    qsort(p, (size_t)nf, sizeof *p, cmp_ratio);
    int form = opts ? opts->form : CALIB_ROOFLINE_MAX;
    double bu, bv, bo;
    if (rf_fit(p, nf, form, 0, tmin, &bu, &bv, &bo) != 0) {
        free(p);
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "roofline: no fit with positive efficiencies (times "
                     "%g..%g s do not grow with the work)", tmin, tmax);
        return -1;
    }
    int any_m = 0;
    for (int i = 0; i < nf; i++)
        if (p[i].m > 0)
            any_m = 1;
    if (!any_m && form == CALIB_ROOFLINE_ENGINE)
        bv = 1; /* nothing measured the memory roof: eta_memory = 1, a bound */
    out->eta_compute_free = 1.0 / bu;
    out->eta_memory_free = 1.0 / bv;
    out->overhead_free_s = bo;
    if (!(opts && opts->allow_eta_above_one) && (bu < 1 || bv < 1)) {
        /* An efficiency above 1 beats the roof it is relative to (a CPU
         * cache outrunning the copy, a preset below the real part): the
         * engine gets the best fit with eta <= 1, the free one is kept for
         * the record. */
        out->eta_compute_clamped = bu < 1;
        out->eta_memory_clamped = bv < 1;
        rf_fit(p, nf, form, 1.0, tmin, &bu, &bv, &bo);
    }
    /* How much of the time each roof explains at most, over the fitted
     * points: under ~1 % everywhere, that eta is not measured (only
     * bounded). */
    double share_c = 0, share_m = 0;
    for (int i = 0; i < nf; i++) {
        if (bu * p[i].c / p[i].t > share_c)
            share_c = bu * p[i].c / p[i].t;
        if (bv * p[i].m / p[i].t > share_m)
            share_m = bv * p[i].m / p[i].t;
    }
    free(p);
    out->form = form;
    out->peak_flops = peak_flops;
    out->bandwidth = bandwidth;
    out->eta_compute = 1.0 / bu;
    out->eta_memory = 1.0 / bv;
    out->overhead_s = bo;
    out->n = n;
    rf_errors(pts, n, excl, form, bu, bv, bo, share_c, share_m, out);
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
