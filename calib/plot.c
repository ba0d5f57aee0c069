/*
 * plot.c - the data of the measured-vs-fitted view (the explorer's
 * calibration view): each GEMM point with both fits' predictions, and the
 * fitted curves sampled for drawing: the power law along x = h^2*b*s, and
 * the roofline along each measured hidden size.  Pure:
 * every time comes from calib_power_law_predict / calib_roofline_predict;
 * this file only chooses where to sample.
 */
#include <math.h>
#include <stdlib.h>

#include "calib.h"
#include "internal.h"

int calib_result_plot_rows(const calib_result *r, calib_plot_row *rows, int cap)
{
    int n = 0;
    for (int i = 0; i < r->n_points && n < cap; i++) {
        const calib_point *p = &r->points[i];
        if (p->kind == CALIB_POINT_COPY)
            continue;
        rows[n].kind = p->kind;
        rows[n].x = calib_point_x(p);
        rows[n].measured_s = p->time_s;
        rows[n].power_law_s =
            r->has_power_law ? calib_power_law_predict(&r->power_law, rows[n].x) : 0;
        rows[n].roofline_s =
            r->roofline.eta_compute > 0
                ? calib_roofline_predict(&r->roofline, p->flops, p->bytes)
                : 0;
        n++;
    }
    return n;
}

int calib_result_power_law_curve(const calib_result *r, double x_lo, double x_hi, int n,
                                 calib_curve_point *out, int cap)
{
    if (!r || !out || !r->has_power_law || n < 2 || cap <= 0 || !isfinite(x_lo) ||
        !isfinite(x_hi) || !(x_lo > 0) || !(x_hi > x_lo))
        return 0;
    if (n > cap)
        n = cap;
    double l0 = log(x_lo), l1 = log(x_hi);
    int k = 0;
    for (int i = 0; i < n; i++) {
        double x = exp(l0 + (l1 - l0) * i / (n - 1));
        double t = calib_power_law_predict(&r->power_law, x);
        if (!isfinite(t) || !(t > 0))
            continue;
        out[k].curve = 0;
        out[k].x = x;
        out[k].time_s = t;
        k++;
    }
    return k;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Token count of a GEMM point: batch x seq (a decode point has seq 1). */
static double point_tokens(const calib_point *p)
{
    return (double)p->batch * p->seq;
}

static int usable(const calib_point *p)
{
    return p->kind != CALIB_POINT_COPY && p->hidden > 0 && p->batch > 0 && p->seq > 0 &&
           isfinite(p->flops) && isfinite(p->bytes) && p->flops >= 0 && p->bytes >= 0;
}

int calib_result_roofline_curve(const calib_result *r, int per_hidden, calib_curve_point *out,
                                int cap)
{
    if (!r || !out || cap <= 0 || per_hidden < 1 || r->n_points <= 0 ||
        !(r->roofline.eta_compute > 0) || !(r->roofline.eta_memory > 0) ||
        !(r->roofline.peak_flops > 0) || !(r->roofline.bandwidth > 0))
        return 0;
    int *hid = malloc(sizeof *hid * (size_t)r->n_points);
    if (!hid)
        return 0;
    int nh = 0;
    for (int i = 0; i < r->n_points; i++)
        if (usable(&r->points[i]))
            hid[nh++] = r->points[i].hidden;
    qsort(hid, (size_t)nh, sizeof *hid, cmp_int);
    int k = 0;
    for (int i = 0; i < nh && k < cap; i++) {
        if (i > 0 && hid[i] == hid[i - 1])
            continue;
        int h = hid[i];
        /* The extreme token counts measured at this hidden size. */
        const calib_point *lo = NULL, *hi = NULL;
        for (int j = 0; j < r->n_points; j++) {
            const calib_point *p = &r->points[j];
            if (!usable(p) || p->hidden != h)
                continue;
            if (!lo || point_tokens(p) < point_tokens(lo))
                lo = p;
            if (!hi || point_tokens(p) > point_tokens(hi))
                hi = p;
        }
        if (!lo) /* hid[] holds only hidden sizes of usable points */
            continue;
        double t0 = point_tokens(lo), t1 = point_tokens(hi);
        int n = t1 > t0 ? per_hidden : 1;
        if (n < 2 && t1 > t0)
            n = 2;
        for (int s = 0; s < n && k < cap; s++) {
            /* FLOPs and bytes are affine in the token count at a fixed
             * hidden size (weights once, activations per token). */
            double t = n > 1 ? exp(log(t0) + (log(t1) - log(t0)) * s / (n - 1)) : t0;
            double f = n > 1 ? lo->flops + (hi->flops - lo->flops) * (t - t0) / (t1 - t0)
                             : lo->flops;
            double b = n > 1 ? lo->bytes + (hi->bytes - lo->bytes) * (t - t0) / (t1 - t0)
                             : lo->bytes;
            double y = calib_roofline_predict(&r->roofline, f, b);
            if (!isfinite(y) || !(y > 0))
                continue;
            out[k].curve = h;
            out[k].x = (double)h * h * t;
            out[k].time_s = y;
            k++;
        }
    }
    free(hid);
    return k;
}
