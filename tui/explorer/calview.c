/*
 * calview.c - scales and raster of the calibration view's log-log
 * plot (see explorer_calview.h).  Only placement: the values come from the
 * calibration module.
 */
#include "explorer_calview.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ok_value(double v)
{
    return isfinite(v) && v > 0;
}

static void extend(double v, double *lo, double *hi)
{
    if (!ok_value(v))
        return;
    if (*lo == 0 || v < *lo)
        *lo = v;
    if (v > *hi)
        *hi = v;
}

static void range(const explorer_calib_view_point *p, int n, double *xlo, double *xhi,
                  double *tlo, double *thi)
{
    for (int i = 0; i < n; i++) {
        if (!ok_value(p[i].x) || !ok_value(p[i].time_s))
            continue;
        extend(p[i].x, xlo, xhi);
        extend(p[i].time_s, tlo, thi);
    }
}

/* log10 bounds around [lo, hi]: a 4% margin, at least one decade. */
static void bounds(double lo, double hi, double *blo, double *bhi)
{
    double a = log10(lo), b = log10(hi);
    double m = (b - a) * 0.04;
    a -= m;
    b += m;
    if (b - a < 1) {
        double c = (a + b) / 2;
        a = c - 0.5;
        b = c + 0.5;
    }
    *blo = a;
    *bhi = b;
}

int calview_scale_fit(const explorer_calib_view *v, int w, int h, calview_scale *s)
{
    memset(s, 0, sizeof *s);
    if (!v || w < 2 || h < 2)
        return -1;
    double xlo = 0, xhi = 0, tlo = 0, thi = 0;
    range(v->points, v->n_points, &xlo, &xhi, &tlo, &thi);
    range(v->power_law, v->n_power_law, &xlo, &xhi, &tlo, &thi);
    range(v->roofline, v->n_roofline, &xlo, &xhi, &tlo, &thi);
    if (!(xlo > 0) || !(tlo > 0))
        return -1;
    bounds(xlo, xhi, &s->x_lo, &s->x_hi);
    bounds(tlo, thi, &s->t_lo, &s->t_hi);
    s->w = w;
    s->h = h;
    return 0;
}

/* Cell index 0 .. n-1 of v on [10^lo, 10^hi], or -1. */
static int cell(double v, double lo, double hi, int n)
{
    if (!ok_value(v) || n <= 0 || hi <= lo)
        return -1;
    double f = (log10(v) - lo) / (hi - lo);
    if (f < -1e-9 || f > 1 + 1e-9)
        return -1;
    int c = (int)floor(f * n);
    if (c < 0)
        c = 0;
    if (c > n - 1)
        c = n - 1;
    return c;
}

int calview_col(const calview_scale *s, double x)
{
    return cell(x, s->x_lo, s->x_hi, s->w);
}

int calview_row(const calview_scale *s, double t)
{
    int r = cell(t, s->t_lo, s->t_hi, s->h);
    return r < 0 ? -1 : s->h - 1 - r;
}

static void mark_line(unsigned char *g, int w, int r, int c, unsigned char m)
{
    unsigned char *cellp = &g[r * w + c];
    if (*cellp == CALVIEW_EMPTY)
        *cellp = m;
    else if ((*cellp == CALVIEW_POWER_LAW && m == CALVIEW_ROOFLINE) ||
             (*cellp == CALVIEW_ROOFLINE && m == CALVIEW_POWER_LAW))
        *cellp = CALVIEW_BOTH;
}

static void draw_curve(const explorer_calib_view_point *p, int n, const calview_scale *s,
                       unsigned char *g, unsigned char m)
{
    int pc = -1, pr = -1, pkind = 0;
    for (int i = 0; i < n; i++) {
        int c = calview_col(s, p[i].x), r = calview_row(s, p[i].time_s);
        if (c < 0 || r < 0) {
            pc = -1; /* off the plot: the line breaks */
            continue;
        }
        if (pc >= 0 && p[i].kind == pkind) {
            /* Join the previous sample: one cell per step along the
             * longer axis. */
            int dc = c - pc, dr = r - pr;
            int steps = abs(dc) > abs(dr) ? abs(dc) : abs(dr);
            for (int k = 1; k < steps; k++) {
                int cc = pc + (int)lround((double)dc * k / steps);
                int rr = pr + (int)lround((double)dr * k / steps);
                mark_line(g, s->w, rr, cc, m);
            }
        }
        mark_line(g, s->w, r, c, m);
        pc = c;
        pr = r;
        pkind = p[i].kind;
    }
}

void calview_raster(const explorer_calib_view *v, const calview_scale *s, unsigned char *grid)
{
    if (!s || s->w <= 0 || s->h <= 0 || !grid)
        return;
    memset(grid, CALVIEW_EMPTY, (size_t)s->w * (size_t)s->h);
    if (!v)
        return;
    draw_curve(v->power_law, v->n_power_law, s, grid, CALVIEW_POWER_LAW);
    draw_curve(v->roofline, v->n_roofline, s, grid, CALVIEW_ROOFLINE);
    for (int i = 0; i < v->n_points; i++) {
        int c = calview_col(s, v->points[i].x), r = calview_row(s, v->points[i].time_s);
        if (c < 0 || r < 0)
            continue;
        unsigned char m = v->points[i].kind ? CALVIEW_DECODE : CALVIEW_PREFILL;
        if (grid[r * s->w + c] < m)
            grid[r * s->w + c] = m;
    }
}

int calview_kernel_scale_fit(const explorer_calib_view *v, int w, int h, calview_scale *s)
{
    memset(s, 0, sizeof *s);
    if (!v || w < 2 || h < 2)
        return -1;
    double lo = 0, hi = 0;
    range(v->kpoints, v->n_kpoints, &lo, &hi, &lo, &hi);
    if (!(lo > 0))
        return -1;
    bounds(lo, hi, &s->x_lo, &s->x_hi);
    s->t_lo = s->x_lo;
    s->t_hi = s->x_hi;
    s->w = w;
    s->h = h;
    return 0;
}

void calview_kernel_raster(const explorer_calib_view *v, const calview_scale *s,
                           unsigned char *grid)
{
    if (!s || s->w <= 0 || s->h <= 0 || !grid)
        return;
    memset(grid, CALVIEW_EMPTY, (size_t)s->w * (size_t)s->h);
    for (int c = 0; c < s->w; c++) {
        /* the diagonal at each column's centre */
        double x = pow(10.0, s->x_lo + (c + 0.5) * (s->x_hi - s->x_lo) / s->w);
        int r = calview_row(s, x);
        if (r >= 0)
            grid[r * s->w + c] = CALVIEW_DIAGONAL;
    }
    if (!v)
        return;
    for (int i = 0; i < v->n_kpoints; i++) {
        const explorer_calib_view_point *p = &v->kpoints[i];
        int c = calview_col(s, p->x), r = calview_row(s, p->time_s);
        if (c < 0 || r < 0 || p->kind < 0 || p->kind >= EXPLORER_CALIB_CLASSES)
            continue;
        unsigned char m = (unsigned char)(CALVIEW_KCLASS + p->kind);
        if (grid[r * s->w + c] < m)
            grid[r * s->w + c] = m;
    }
}

static void decades_in(double lo, double hi, int *dlo, int *dhi)
{
    /* A hair of slack: 1e6 computed as 999999.9999 is still the tick. */
    *dlo = (int)ceil(lo - 1e-9);
    *dhi = (int)floor(hi + 1e-9);
}

void calview_x_decades(const calview_scale *s, int *lo, int *hi)
{
    decades_in(s->x_lo, s->x_hi, lo, hi);
}

void calview_t_decades(const calview_scale *s, int *lo, int *hi)
{
    decades_in(s->t_lo, s->t_hi, lo, hi);
}

void calview_time_label(int decade, const char *micro, char *buf, size_t len)
{
    static const char *const UNIT[] = {"n", "?", "m", ""}; /* ? = micro */
    static const int ONE[] = {1, 10, 100};
    if (decade < -9 || decade > 2) {
        snprintf(buf, len, "1e%d s", decade);
        return;
    }
    int k = decade + 9; /* 0 .. 11 */
    int u = k / 3;
    const char *pre = u == 1 ? (micro ? micro : "u") : UNIT[u];
    snprintf(buf, len, "%d %ss", ONE[k % 3], pre);
}

void calview_x_label(int decade, char *buf, size_t len)
{
    snprintf(buf, len, "1e%d", decade);
}
