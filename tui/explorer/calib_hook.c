/*
 * explorer_calib.c - the weak default of the calibration hook (no
 * calibration in this build; the calibration module overrides
 * explorer_calib_ops_get() with a strong definition), and the conversion
 * of a calibration result into what the calibration view draws.  Every
 * number is copied from the result or predicted by calib/; nothing is
 * computed here.
 */
#include "explorer_calib.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "calib.h"

__attribute__((weak)) const explorer_calib_ops *explorer_calib_ops_get(void)
{
    return NULL;
}

#define CURVE_SAMPLES 64 /* power law */
#define CURVE_PER_HIDDEN 48

void explorer_calib_view_from_result(const calib_result *r, const char *source,
                                     explorer_calib_view *out)
{
    memset(out, 0, sizeof *out);
    if (!r)
        return;
    snprintf(out->source, sizeof out->source, "%s", source ? source : "");
    snprintf(out->device, sizeof out->device, "%s", r->dev.name);
    snprintf(out->backend, sizeof out->backend, "%s", r->dev.backend);
    snprintf(out->dtype, sizeof out->dtype, "%s", r->dev.dtype);
    snprintf(out->date, sizeof out->date, "%s", r->date);
    snprintf(out->preset, sizeof out->preset, "%s", r->preset);
    out->has_power_law = r->has_power_law;
    out->pl_a = r->power_law.a;
    out->pl_beta = r->power_law.beta;
    out->pl_mape = r->power_law.mape;
    out->pl_r2 = r->power_law.r2;
    out->pl_n = r->power_law.n;
    out->rf_engine_form = r->roofline.form == CALIB_ROOFLINE_ENGINE;
    out->rf_eta_compute = r->roofline.eta_compute;
    out->rf_eta_memory = r->roofline.eta_memory;
    out->rf_overhead_s = r->roofline.overhead_s;
    out->rf_mape = r->roofline.mape;
    out->rf_r2 = r->roofline.r2;
    out->rf_peak_flops = r->roofline.peak_flops;
    out->rf_bandwidth = r->roofline.bandwidth;
    out->rf_n = r->roofline.n;
    out->has_comm = r->has_comm_fit;
    if (r->has_comm_fit) {
        snprintf(out->comm_label, sizeof out->comm_label, "%s", r->comm_label);
        out->comm_alpha_s = r->comm_fit.alpha_s;
        out->comm_bandwidth = r->comm_fit.bandwidth;
        out->comm_r2 = r->comm_fit.r2;
    }
    calib_plot_row rows[EXPLORER_CALIB_VIEW_POINTS];
    int n = calib_result_plot_rows(r, rows, EXPLORER_CALIB_VIEW_POINTS);
    double xlo = 0, xhi = 0;
    for (int i = 0; i < n; i++) {
        if (!(rows[i].x > 0) || !(rows[i].measured_s > 0) || !isfinite(rows[i].x) ||
            !isfinite(rows[i].measured_s))
            continue;
        explorer_calib_view_point *p = &out->points[out->n_points++];
        p->kind = rows[i].kind == CALIB_POINT_DECODE;
        p->x = rows[i].x;
        p->time_s = rows[i].measured_s;
        if (xlo == 0 || p->x < xlo)
            xlo = p->x;
        if (p->x > xhi)
            xhi = p->x;
    }
    calib_curve_point c[EXPLORER_CALIB_VIEW_CURVE];
    int m = calib_result_power_law_curve(r, xlo, xhi, CURVE_SAMPLES, c,
                                         EXPLORER_CALIB_VIEW_CURVE);
    for (int i = 0; i < m; i++)
        out->power_law[out->n_power_law++] = (explorer_calib_view_point){c[i].curve, c[i].x,
                                                                         c[i].time_s};
    m = calib_result_roofline_curve(r, CURVE_PER_HIDDEN, c, EXPLORER_CALIB_VIEW_CURVE);
    for (int i = 0; i < m; i++)
        out->roofline[out->n_roofline++] = (explorer_calib_view_point){c[i].curve, c[i].x,
                                                                       c[i].time_s};
}
