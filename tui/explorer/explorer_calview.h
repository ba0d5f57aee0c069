/*
 * explorer_calview.h - the calibration view's plot as pure logic (no
 * curses, so it is unit-tested): log-log scales fitted to whole decades,
 * the mapping of a value to a cell, decade tick labels, and the raster of
 * an explorer_calib_view (the two fitted curves as lines, the measured
 * points over them) into a caller-owned grid.  panes/calib.c draws the
 * grid.
 */
#ifndef SHARDSCOPE_EXPLORER_CALVIEW_H
#define SHARDSCOPE_EXPLORER_CALVIEW_H

#include <stddef.h>

#include "explorer_calib.h"

/* What a cell of the plot shows, by precedence (a point hides a line). */
typedef enum calview_mark {
    CALVIEW_EMPTY = 0,
    CALVIEW_POWER_LAW, /* the fitted power law crosses the cell */
    CALVIEW_ROOFLINE,  /* the fitted roofline crosses the cell */
    CALVIEW_BOTH,      /* both curves cross it */
    CALVIEW_DIAGONAL,  /* per-kernel plot: measured = modelled */
    CALVIEW_DECODE,    /* a measured decode point */
    CALVIEW_PREFILL,   /* a measured prefill point */
    /* per-kernel plot: a point of kernel class k (calib_kclass order) is
     * CALVIEW_KCLASS + k; a later class wins a shared cell */
    CALVIEW_KCLASS,
    CALVIEW_MARKS = CALVIEW_KCLASS + EXPLORER_CALIB_CLASSES
} calview_mark;

/* A plot of w x h cells over [10^x_lo, 10^x_hi] x [10^t_lo, 10^t_hi]. */
typedef struct calview_scale {
    double x_lo, x_hi; /* log10 of x = h^2*b*s, x_hi > x_lo */
    double t_lo, t_hi; /* log10 of seconds, t_hi > t_lo */
    int w, h;
} calview_scale;

/* Fit the scale to every positive, finite point and curve sample of v,
 * with a margin of 4% of the span on each side, and at least one decade
 * wide (so at least one whole decade, a tick, falls inside).  0 ok; -1
 * when there is nothing to plot or the plot is smaller than 2 x 2 cells. */
int calview_scale_fit(const explorer_calib_view *v, int w, int h, calview_scale *s);

/* The column (0 .. w-1, left to right) of x and the row (0 .. h-1, top to
 * bottom) of t; -1 when the value is outside the scale, not positive or
 * not finite.  The upper bound itself maps to the last column / top row. */
int calview_col(const calview_scale *s, double x);
int calview_row(const calview_scale *s, double t);

/* Rasterise v into grid (s->w * s->h marks, row-major, row 0 at the top):
 * each curve as a line joining its consecutive samples of the same curve
 * (kind), then the points.  Values outside the scale are skipped. */
void calview_raster(const explorer_calib_view *v, const calview_scale *s,
                    unsigned char *grid);

/* The per-kernel plot (v->kpoints: x = modelled, t = measured seconds):
 * one scale for both axes (a square in decades, so the diagonal is
 * measured = modelled), fitted like calview_scale_fit.  0 ok, -1 when
 * there is nothing to plot or the plot is smaller than 2 x 2. */
int calview_kernel_scale_fit(const explorer_calib_view *v, int w, int h, calview_scale *s);
/* Rasterise the per-kernel plot: the diagonal, then each point as
 * CALVIEW_KCLASS + its class. */
void calview_kernel_raster(const explorer_calib_view *v, const calview_scale *s,
                           unsigned char *grid);

/* The whole decades inside the scale: [*lo, *hi] (lo <= hi). */
void calview_x_decades(const calview_scale *s, int *lo, int *hi);
void calview_t_decades(const calview_scale *s, int *lo, int *hi);

/* Decade labels: seconds ("1 us" .. "100 s", `micro` is the micro sign to
 * use) and x ("1e6"). */
void calview_time_label(int decade, const char *micro, char *buf, size_t len);
void calview_x_label(int decade, char *buf, size_t len);

#endif /* SHARDSCOPE_EXPLORER_CALVIEW_H */
