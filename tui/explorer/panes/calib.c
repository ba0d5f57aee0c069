/*
 * calib.c - the calibration view (`v`): an overlay showing the
 * calibration in use.  Measured: the device, backend and date, the power
 * law (beta, a, MAPE, R^2), the roofline as the engine uses it (eta_c,
 * eta_m, overhead, MAPE, R^2), communication when measured, and a log-log
 * plot of the measured layer times against h^2*b*s with both fitted curves
 * as lines (rasterised by explorer_calview.c); with a per-kernel fit
 * (schema 2) its constants, each kernel class's error and, instead, the
 * plot of measured against modelled time per kernel class around the
 * diagonal.  Datasheet defaults: says so and how to measure.  Every number
 * comes from the calibration module.
 */
#include "explorer_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explorer_calview.h"

#define GUTTER 8 /* y labels (7) + the axis */

/* Word-wrapped text from row y, at most rows lines; returns lines used. */
static int put_wrapped(WINDOW *w, int y, int xx, int width, int rows, theme_role role,
                       const char *s)
{
    int used = 0;
    while (*s && used < rows && width > 0) {
        int len = (int)strlen(s);
        int take = len;
        if (out_display_width(s) > width) {
            /* Break at the last space within width (bytes ~ cells: the
             * texts wrapped here are ASCII but for a device name). */
            take = width;
            while (take > 0 && s[take] != ' ')
                take--;
            if (take == 0)
                take = width;
        }
        char line[512];
        snprintf(line, sizeof line, "%.*s", take, s);
        pane_put(w, y + used, xx, width, role, line);
        used++;
        s += take;
        while (*s == ' ')
            s++;
    }
    return used;
}

typedef struct cv_glyphs {
    const char *beta, *eta_c, *eta_m, *r2, *xname, *dot, *alpha;
} cv_glyphs;

static cv_glyphs glyphs(const exp_view *v)
{
    if (v->g->utf8)
        return (cv_glyphs){"\xce\xb2", "\xce\xb7_c", "\xce\xb7_m", "R\xc2\xb2",
                           "h\xc2\xb2\xc2\xb7" "b\xc2\xb7s", "\xc2\xb7", "\xce\xb1"};
    return (cv_glyphs){"beta", "eta_c", "eta_m", "R^2", "h^2*b*s", "*", "alpha"};
}

/* How the last run in this session ended, whole (wrapped); after a failure
 * also the command that measures without a GPU.  Returns the rows used. */
static int draw_last_attempt(const exp_view *v, WINDOW *w, int y, int width, int rows)
{
    char buf[EXP_MSG_MAX + 32];
    snprintf(buf, sizeof buf, "Last attempt: %s", v->cal->note);
    int used = put_wrapped(w, y, 2, width, rows, ROLE_MSG, buf);
    int failed = !strncmp(v->cal->note, "failed", 6) || !strncmp(v->cal->note, "could not", 9);
    if (failed && used + 2 <= rows) {
        used += put_wrapped(w, y + used, 2, width, rows - used, ROLE_POPUP,
                            "Without a usable GPU, measure on the CPU instead:");
        pane_put(w, y + used++, 6, width - 4, ROLE_VALUE, "shardscope calibrate --backend cpu");
    }
    return used;
}

static void draw_defaults(const exp_view *v, WINDOW *w, int y, int width, int rows)
{
    char buf[600];
    int y0 = y;
    pane_put(w, y++, 2, width, ROLE_VALUE, "Calibration in use: datasheet defaults");
    y++;
    snprintf(buf, sizeof buf,
             "Nothing has been measured for %s on this machine: the numbers use the GPU "
             "preset's published achievable efficiencies, not a fit.",
             v->gpu->display);
    y += put_wrapped(w, y, 2, width, rows - (y - y0), ROLE_POPUP, buf);
    y++;
    y += put_wrapped(w, y, 2, width, rows - (y - y0), ROLE_POPUP,
                     "To measure this GPU, press c (a quick cuBLAS sweep in the background; "
                     "Esc cancels) or run in a shell:");
    pane_put(w, y++, 6, width - 4, ROLE_VALUE, "shardscope calibrate");
    y += put_wrapped(w, y, 2, width, rows - (y - y0), ROLE_POPUP,
                     "The result is saved under $XDG_CONFIG_HOME/shardscope/calibration/ and "
                     "used from then on; this view then shows the measured points against "
                     "the fitted power law and roofline.");
    if (v->cal->job && y - y0 < rows - 1) {
        y++;
        pane_putf(w, y++, 2, width, ROLE_LABEL, "Measuring now: %.0f%% %s",
                  v->cal->progress * 100, v->cal->step);
    } else if (v->cal->note[0] && y - y0 < rows - 1) {
        y++;
        draw_last_attempt(v, w, y, width, rows - (y - y0));
    }
}

/* The kernel classes (calib_kclass order), their plot glyphs and legend
 * names. */
static const char *const KNAME[EXPLORER_CALIB_CLASSES] = {"gemm", "gemv", "copy", "attention",
                                                          "launch", "graph"};
static const char *const KGLYPH[EXPLORER_CALIB_CLASSES] = {"G", "V", "C", "A", "L", "g"};

static void fit_lines(const exp_view *v, WINDOW *w, int *y, int width, const explorer_calib_view *cv)
{
    cv_glyphs G = glyphs(v);
    char t1[32], t2[32], p1[16], p2[16], buf[512];
    if (cv->has_power_law) {
        snprintf(buf, sizeof buf,
                 "power law  %s %.4f  a %.3g s  MAPE %s  %s %.4f  (%d pts)  "
                 "T = a%s(%s)^%s",
                 G.beta, cv->pl_beta, cv->pl_a, fmt_percent(cv->pl_mape, p1, sizeof p1), G.r2,
                 cv->pl_r2, cv->pl_n, G.dot, G.xname, G.beta);
    } else {
        snprintf(buf, sizeof buf, "power law  not fitted (too few prefill points)");
    }
    pane_put(w, (*y)++, 2, width, ROLE_POPUP, buf);
    snprintf(buf, sizeof buf,
             "roofline   %s %.3f  %s %.3f  overhead %s  MAPE %s  %s %.4f  (%d pts)  "
             "T = %s+overhead",
             G.eta_c, cv->rf_eta_compute, G.eta_m, cv->rf_eta_memory,
             fmt_seconds(cv->rf_overhead_s, v->g->micro, t1, sizeof t1), fmt_percent(cv->rf_mape, p2,
                 sizeof p2),
             G.r2, cv->rf_r2, cv->rf_n,
             cv->rf_engine_form ? "compute+memory" : "max(compute,memory)");
    pane_put(w, (*y)++, 2, width, ROLE_POPUP, buf);
    if (cv->has_per_kernel) {
        char t3[32], t4[32], p3[16];
        snprintf(buf, sizeof buf,
                 "per kernel eff %.3f of %.4g TFLOP/s  bw %.4g GB/s  t0 %s  floor %s  "
                 "launch %s  MAPE %s (%d pts)",
                 cv->pk_eff, cv->pk_peak_flops / 1e12, cv->pk_bw / 1e9,
                 fmt_seconds(cv->pk_t0_s, v->g->micro, t1, sizeof t1),
                 fmt_seconds(cv->pk_small_s, v->g->micro, t3, sizeof t3),
                 fmt_seconds(cv->pk_launch_s, v->g->micro, t4, sizeof t4),
                 fmt_percent(cv->pk_mape, p3, sizeof p3), cv->pk_points);
        pane_put(w, (*y)++, 2, width, ROLE_POPUP, buf);
        int n = snprintf(buf, sizeof buf, "           %s, %s:", cv->pk_library,
                         cv->pk_model);
        for (int c = 0; c < EXPLORER_CALIB_CLASSES && n > 0 && (size_t)n < sizeof buf; c++)
            if (cv->pk_class_n[c] > 0)
                n += snprintf(buf + n, sizeof buf - (size_t)n, "  %s %s (%d)", KNAME[c],
                              fmt_percent(cv->pk_class_mape[c], p3, sizeof p3),
                              cv->pk_class_n[c]);
        pane_put(w, (*y)++, 2, width, ROLE_POPUP, buf);
    }
    if (cv->has_comm) {
        snprintf(buf, sizeof buf, "comm       %s: %s %s  bandwidth %.4g GB/s  %s %.4f",
                 cv->comm_label, G.alpha, fmt_seconds(cv->comm_alpha_s, v->g->micro, t2, sizeof t2),
                 cv->comm_bandwidth / 1e9, G.r2, cv->comm_r2);
        pane_put(w, (*y)++, 2, width, ROLE_POPUP, buf);
    }
}

/* Style of a plot mark. */
static const char *mark_glyph(const exp_view *v, int m, theme_role *role)
{
    switch (m) {
    case CALVIEW_PREFILL:
        *role = ROLE_VALUE;
        return "o";
    case CALVIEW_DECODE:
        *role = ROLE_GOOD;
        return "+";
    case CALVIEW_POWER_LAW:
        *role = ROLE_SEG2;
        return v->g->dot;
    case CALVIEW_ROOFLINE:
        *role = ROLE_SEG1;
        return "~";
    case CALVIEW_BOTH:
        *role = ROLE_SEG3;
        return "=";
    case CALVIEW_DIAGONAL:
        *role = ROLE_DIM;
        return v->g->dot;
    default:
        if (m >= CALVIEW_KCLASS && m < CALVIEW_MARKS) {
            static const theme_role R[EXPLORER_CALIB_CLASSES] = {
                ROLE_VALUE, ROLE_GOOD, ROLE_SEG3, ROLE_SEG1, ROLE_SEG2, ROLE_SEG2};
            *role = R[m - CALVIEW_KCLASS];
            return KGLYPH[m - CALVIEW_KCLASS];
        }
        *role = ROLE_POPUP;
        return " ";
    }
}

/* Y: a label at each decade (the top one first; a label needs a row of
 * its own). */
static void draw_y_labels(const exp_view *v, WINDOW *w, int y0, const calview_scale *s)
{
    int px = 2 + GUTTER;
    const char *ytick = v->g->utf8 ? "\xe2\x94\xa4" : "+"; /* left axis */
    char lab[32];
    int prev = -2;
    int d_lo, d_hi;
    calview_t_decades(s, &d_lo, &d_hi);
    for (int d = d_hi; d >= d_lo; d--) {
        int r = calview_row(s, pow(10.0, d));
        if (r < 0 || r <= prev)
            continue;
        calview_time_label(d, v->g->micro, lab, sizeof lab);
        int pad = GUTTER - 2 - out_display_width(lab);
        pane_put(w, y0 + r, 2 + (pad > 0 ? pad : 0), GUTTER - 2, ROLE_LABEL, lab);
        pane_put(w, y0 + r, px - 1, 1, ROLE_LABEL, ytick);
        prev = r;
    }
}

/* X: the axis with a tick per decade, labels under it where they fit,
 * the x title in the gutter of the label row. */
static void draw_x_axis(const exp_view *v, WINDOW *w, int ya, int pw, const calview_scale *s,
                        int kernel)
{
    int px = 2 + GUTTER, d_lo, d_hi;
    char lab[32];
    const char *hbar = v->g->utf8 ? "\xe2\x94\x80" : "-";
    const char *xtick = v->g->utf8 ? "\xe2\x94\xb4" : "+"; /* bottom axis */
    pane_put(w, ya, px - 1, 1, ROLE_LABEL, v->g->utf8 ? "\xe2\x94\x94" : "+");
    for (int c = 0; c < pw; c++)
        pane_put(w, ya, px + c, 1, ROLE_LABEL, hbar);
    int free_from = 0;
    calview_x_decades(s, &d_lo, &d_hi);
    for (int d = d_lo; d <= d_hi; d++) {
        int c = calview_col(s, pow(10.0, d));
        if (c < 0)
            continue;
        pane_put(w, ya, px + c, 1, ROLE_LABEL, xtick);
        if (kernel)
            calview_time_label(d, v->g->micro, lab, sizeof lab);
        else
            calview_x_label(d, lab, sizeof lab);
        int lw = out_display_width(lab);
        int lx = c - lw / 2;
        if (lx + lw > pw)
            lx = pw - lw;
        if (lx < 0)
            lx = 0;
        if (lx < free_from)
            continue;
        pane_put(w, ya + 1, px + lx, lw, ROLE_LABEL, lab);
        free_from = lx + lw + 1;
    }
    /* The x title in the gutter of the label row. */
    cv_glyphs G = glyphs(v);
    const char *xn = kernel ? "model" : G.xname;
    pane_putf(w, ya + 1, 2, GUTTER - 1, ROLE_LABEL, "%*s", GUTTER - 2 +
              (int)strlen(xn) - out_display_width(xn), xn);
}

/* The per-kernel plot's legend: each class measured, the diagonal. */
static void draw_kernel_legend(const exp_view *v, WINDOW *w, int ly, int width,
                               const explorer_calib_view *cv)
{
    int lx = 2;
    for (int c = 0; c < EXPLORER_CALIB_CLASSES; c++) {
        if (cv->pk_class_n[c] <= 0)
            continue;
        theme_role role;
        const char *gl = mark_glyph(v, CALVIEW_KCLASS + c, &role);
        int need = 2 + (int)strlen(KNAME[c]) + 2;
        if (lx + need > 2 + width)
            return;
        pane_put(w, ly, lx, 1, role, gl);
        pane_put(w, ly, lx + 2, width - lx, ROLE_LABEL, KNAME[c]);
        lx += need;
    }
    theme_role role;
    const char *gl = mark_glyph(v, CALVIEW_DIAGONAL, &role);
    const char *txt = "measured = model   y: measured, x: the fit's time";
    if (lx + 2 + (int)strlen(txt) <= 2 + width) {
        pane_put(w, ly, lx, 1, role, gl);
        pane_put(w, ly, lx + 2, width - lx, ROLE_LABEL, txt);
    }
}

/* Legend: each glyph in its colour; long names when they all fit. */
static void draw_plot_legend(const exp_view *v, WINDOW *w, int ly, int width)
{
    static const int ORDER[] = {CALVIEW_PREFILL, CALVIEW_DECODE, CALVIEW_POWER_LAW,
                                CALVIEW_ROOFLINE, CALVIEW_BOTH};
    static const char *const LONG[] = {"prefill (measured)", "decode (measured)",
                                       "power law", "roofline (one line per hidden size)",
                                       "both fits"};
    static const char *const SHORT[] = {"prefill", "decode", "power law", "roofline",
                                        "both"};
    int total = 0;
    for (int i = 0; i < 5; i++)
        total += 2 + out_display_width(LONG[i]) + 2;
    const char *const *names = total + 20 <= width ? LONG : SHORT;
    int lx = 2;
    for (int i = 0; i < 5; i++) {
        theme_role role;
        const char *gl = mark_glyph(v, ORDER[i], &role);
        int need = 2 + out_display_width(names[i]) + 2;
        if (lx + need > 2 + width)
            break;
        pane_put(w, ly, lx, 1, role, gl);
        pane_put(w, ly, lx + 2, width - lx, ROLE_LABEL, names[i]);
        lx += need;
    }
    const char *yt = 2 + width - lx >= 17 ? "y: time per layer" : "y: s per layer";
    if (2 + width - lx >= out_display_width(yt))
        pane_put(w, ly, lx, 2 + width - lx, ROLE_LABEL, yt);
}

static void draw_plot(const exp_view *v, WINDOW *w, int y0, int rows, int width,
                      const explorer_calib_view *cv)
{
    /* Rows: plot, axis line, x labels, legend. */
    int ph = rows - 3, pw = width - GUTTER;
    int px = 2 + GUTTER;
    if (ph < 3 || pw < 10 || pw * ph > EXP_GRID_MAX) {
        pane_put(w, y0, 2, width, ROLE_DIM, "(too small for the plot)");
        return;
    }
    calview_scale s;
    int kernel = cv->has_per_kernel && cv->n_kpoints > 0;
    if ((kernel ? calview_kernel_scale_fit(cv, pw, ph, &s) : calview_scale_fit(cv, pw, ph, &s)) !=
        0) {
        pane_put(w, y0, 2, width, ROLE_DIM, "(no measured points to plot)");
        return;
    }
    unsigned char *g = v->cal_raster;
    if (!g)
        return;
    if (kernel)
        calview_kernel_raster(cv, &s, g);
    else
        calview_raster(cv, &s, g);
    const char *vbar = v->g->utf8 ? "\xe2\x94\x82" : "|";
    for (int r = 0; r < ph; r++) {
        pane_put(w, y0 + r, px - 1, 1, ROLE_LABEL, vbar);
        for (int c = 0; c < pw; c++) {
            int m = g[r * pw + c];
            if (m == CALVIEW_EMPTY)
                continue;
            theme_role role;
            const char *gl = mark_glyph(v, m, &role);
            pane_put(w, y0 + r, px + c, 1, role, gl);
        }
    }
    draw_y_labels(v, w, y0, &s);
    draw_x_axis(v, w, y0 + ph, pw, &s, kernel);
    if (kernel)
        draw_kernel_legend(v, w, y0 + ph + 2, width, cv);
    else
        draw_plot_legend(v, w, y0 + ph + 2, width);
}

void pane_calib_size(const exp_view *v, int *h, int *w)
{
    /* The plot takes what the screen gives; the text alone needs less. */
    int cap_h = v->cal->calib.measured ? 44 : 20, cap_w = v->cal->calib.measured ? 132 : 100;
    int rows = v->lay->rows, cols = v->lay->cols;
    *h = rows - 2 > cap_h ? cap_h : rows - 2;
    *w = cols - 4 > cap_w ? cap_w : cols - 4;
}

void pane_calib_draw(const exp_view *v, WINDOW *w)
{
    pane_popup(v, w);
    int h = getmaxy(w), ww = getmaxx(w);
    pane_put(w, 0, 2, ww - 4, ROLE_TITLE_FOCUS,
             v->cal->calib.measured
                 ? " Calibration in use: measured vs fitted (c measures, any other key closes) "
                 : " Calibration view (c measures, any other key closes) ");
    int width = ww - 4, y = 1, rows = h - 2;
    if (!v->cal->calib.measured) {
        draw_defaults(v, w, y, width, rows);
        return;
    }
    const explorer_calib_view *cv = v->cview;
    cv_glyphs G = glyphs(v);
    char buf[400];
    if (!cv) {
        snprintf(buf, sizeof buf, "measured on %s %s %s %s %s: %s %.3f  %s %.3f",
                 v->cal->calib.device, G.dot, v->cal->calib.backend, G.dot, v->cal->calib.date, G.eta_c,
                 v->cal->calib.eta_compute, G.eta_m, v->cal->calib.eta_memory);
        pane_put(w, y++, 2, width, ROLE_VALUE, buf);
        y++;
        put_wrapped(w, y, 2, width, rows - y, ROLE_POPUP,
                    "The measured points and fits behind this calibration are not available "
                    "(the saved file has no points); run c or `shardscope calibrate` again to "
                    "see them here.");
        return;
    }
    int n = snprintf(buf, sizeof buf, "%s %s %s %s %s %s %s%s%s", cv->device, G.dot,
                     cv->backend, cv->dtype, G.dot, cv->date, cv->preset[0] ? G.dot : "",
                     cv->preset[0] ? " preset " : "", cv->preset);
    if (n > 0 && (size_t)n < sizeof buf && cv->rf_peak_flops > 0)
        snprintf(buf + n, sizeof buf - (size_t)n, " %s roofs %.4g TFLOP/s, %.4g GB/s", G.dot,
                 cv->rf_peak_flops / 1e12, cv->rf_bandwidth / 1e9);
    pane_put(w, y++, 2, width, ROLE_VALUE, buf);
    fit_lines(v, w, &y, width, cv);
    if (v->cal->note[0] && !v->cal->job) /* a later run failed: say so above the plot */
        y += draw_last_attempt(v, w, y, width, 4);
    int foot = h - 2; /* the source line */
    draw_plot(v, w, y, foot - y, width, cv);
    if (cv->source[0]) {
        snprintf(buf, sizeof buf, "source: %s", cv->source);
        pane_put(w, foot, 2, width, ROLE_DIM, buf);
    }
}
