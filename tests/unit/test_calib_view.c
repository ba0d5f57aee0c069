/*
 * test_calib_view.c - the calibration view without a terminal: the log-log
 * scale and cell mapping, the raster (continuous lines, points over lines,
 * both fits in one cell, a new curve starts a new line, values off the
 * plot), tick labels; the calib/ helpers that sample the fitted curves
 * (the roofline interpolated along each hidden size equals the prediction
 * at the measured points); the view built from a result; and a saved file
 * read back as a calib_result (points and fits as stored, the file the
 * explorer would apply chosen).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calib.h"
#include "explorer_calib.h"
#include "explorer_calview.h"

static explorer_calib_view g_v;

static void add_pt(explorer_calib_view_point *arr, int *n, int kind, double x, double t)
{
    arr[*n].kind = kind;
    arr[*n].x = x;
    arr[*n].time_s = t;
    (*n)++;
}

/* --- scale ------------------------------------------------------------------ */

static void test_scale_fit_and_mapping(void **state)
{
    (void)state;
    memset(&g_v, 0, sizeof g_v);
    add_pt(g_v.points, &g_v.n_points, 0, 1e6, 1e-4);
    add_pt(g_v.points, &g_v.n_points, 0, 1e9, 1e-1);
    calview_scale s;
    assert_int_equal(calview_scale_fit(&g_v, 60, 20, &s), 0);
    /* 3 decades plus a 4% margin each side. */
    assert_true(fabs(s.x_lo - (6 - 0.12)) < 1e-9);
    assert_true(fabs(s.x_hi - (9 + 0.12)) < 1e-9);
    assert_true(fabs(s.t_lo - (-4 - 0.12)) < 1e-9);
    assert_true(fabs(s.t_hi - (-1 + 0.12)) < 1e-9);
    int lo, hi;
    calview_x_decades(&s, &lo, &hi);
    assert_int_equal(lo, 6);
    assert_int_equal(hi, 9);
    calview_t_decades(&s, &lo, &hi);
    assert_int_equal(lo, -4);
    assert_int_equal(hi, -1);
    /* Edges, monotonicity, outside and bad values. */
    assert_int_equal(calview_col(&s, pow(10, s.x_lo)), 0);
    assert_int_equal(calview_col(&s, pow(10, s.x_hi)), 59);
    assert_int_equal(calview_row(&s, pow(10, s.t_hi)), 0);
    assert_int_equal(calview_row(&s, pow(10, s.t_lo)), 19);
    int prev = -1;
    for (double x = 1e6; x <= 1e9; x *= 1.1) {
        int c = calview_col(&s, x);
        assert_true(c >= prev);
        prev = c;
    }
    prev = 100;
    for (double t = 1e-4; t <= 1e-1; t *= 1.1) {
        int r = calview_row(&s, t);
        assert_true(r <= prev);
        prev = r;
    }
    assert_int_equal(calview_col(&s, 1e3), -1);
    assert_int_equal(calview_col(&s, 1e12), -1);
    assert_int_equal(calview_col(&s, 0), -1);
    assert_int_equal(calview_col(&s, -5), -1);
    assert_int_equal(calview_col(&s, NAN), -1);
    assert_int_equal(calview_col(&s, INFINITY), -1);
    assert_int_equal(calview_row(&s, 1.0), -1);
    /* Decades are equally wide: 1e7 and 1e8 sit a third apart. */
    int c7 = calview_col(&s, 1e7), c8 = calview_col(&s, 1e8);
    assert_true(fabs((c8 - c7) - 60 / 3.24) <= 1);
}

static void test_scale_degenerate(void **state)
{
    (void)state;
    calview_scale s;
    memset(&g_v, 0, sizeof g_v);
    assert_int_equal(calview_scale_fit(&g_v, 60, 20, &s), -1); /* nothing */
    assert_int_equal(calview_scale_fit(NULL, 60, 20, &s), -1);
    add_pt(g_v.points, &g_v.n_points, 0, NAN, 1e-3);
    add_pt(g_v.points, &g_v.n_points, 0, 1e6, 0);
    add_pt(g_v.points, &g_v.n_points, 0, -1, 1e-3);
    assert_int_equal(calview_scale_fit(&g_v, 60, 20, &s), -1); /* nothing valid */
    add_pt(g_v.points, &g_v.n_points, 1, 1e6, 1e-3);
    assert_int_equal(calview_scale_fit(&g_v, 1, 20, &s), -1); /* too narrow */
    assert_int_equal(calview_scale_fit(&g_v, 60, 1, &s), -1);
    /* One point: a decade around it, the point in the middle. */
    assert_int_equal(calview_scale_fit(&g_v, 60, 21, &s), 0);
    assert_true(fabs(s.x_hi - s.x_lo - 1) < 1e-9);
    assert_int_equal(calview_col(&s, 1e6), 30);
    assert_int_equal(calview_row(&s, 1e-3), 10);
    static unsigned char grid[60 * 21];
    calview_raster(&g_v, &s, grid);
    int marks = 0;
    for (int i = 0; i < 60 * 21; i++)
        marks += grid[i] != CALVIEW_EMPTY;
    assert_int_equal(marks, 1);
    assert_int_equal(grid[10 * 60 + 30], CALVIEW_DECODE);
}

/* --- raster ------------------------------------------------------------------- */

static void test_raster_lines_points_and_overlap(void **state)
{
    (void)state;
    enum { W = 40, H = 12 };
    static unsigned char grid[W * H];
    memset(&g_v, 0, sizeof g_v);
    /* A power law T = 1e-10 x over 1e5..1e9, sampled sparsely (5 samples):
     * the line must still be continuous. */
    for (int k = 5; k <= 9; k++)
        add_pt(g_v.power_law, &g_v.n_power_law, 0, pow(10, k), 1e-10 * pow(10, k));
    calview_scale s;
    assert_int_equal(calview_scale_fit(&g_v, W, H, &s), 0);
    calview_raster(&g_v, &s, grid);
    int c0 = calview_col(&s, 1e5), c1 = calview_col(&s, 1e9);
    for (int c = c0; c <= c1; c++) {
        int n = 0;
        for (int r = 0; r < H; r++)
            n += grid[r * W + c] == CALVIEW_POWER_LAW;
        assert_true(n >= 1); /* no gap in any column */
    }
    for (int r = calview_row(&s, 1e-1); r <= calview_row(&s, 1e-5); r++) {
        int n = 0;
        for (int c = 0; c < W; c++)
            n += grid[r * W + c] == CALVIEW_POWER_LAW;
        assert_true(n >= 1); /* nor in any row it spans */
    }
    /* The same samples as the roofline: every line cell is both. */
    memcpy(g_v.roofline, g_v.power_law, sizeof g_v.power_law);
    g_v.n_roofline = g_v.n_power_law;
    calview_raster(&g_v, &s, grid);
    for (int i = 0; i < W * H; i++)
        assert_true(grid[i] == CALVIEW_EMPTY || grid[i] == CALVIEW_BOTH);
    /* Points hide the lines; a prefill point wins over a decode one. */
    add_pt(g_v.points, &g_v.n_points, 1, 1e7, 1e-3);
    add_pt(g_v.points, &g_v.n_points, 0, 1e9, 1e-1);
    add_pt(g_v.points, &g_v.n_points, 1, 1e9, 1e-1);
    calview_raster(&g_v, &s, grid);
    assert_int_equal(grid[calview_row(&s, 1e-3) * W + calview_col(&s, 1e7)], CALVIEW_DECODE);
    assert_int_equal(grid[calview_row(&s, 1e-1) * W + calview_col(&s, 1e9)], CALVIEW_PREFILL);
    /* Off-plot points are skipped, not clamped onto the edge. */
    add_pt(g_v.points, &g_v.n_points, 0, 1e12, 1e-1);
    unsigned char before[W * H];
    memcpy(before, grid, sizeof before);
    calview_raster(&g_v, &s, grid);
    assert_memory_equal(before, grid, sizeof before);
}

static void test_raster_new_curve_starts_new_line(void **state)
{
    (void)state;
    enum { W = 50, H = 10 };
    static unsigned char grid[W * H];
    memset(&g_v, 0, sizeof g_v);
    /* Two flat roofline pieces (hidden 1024 and 8192), far apart. */
    add_pt(g_v.roofline, &g_v.n_roofline, 1024, 1e5, 1e-4);
    add_pt(g_v.roofline, &g_v.n_roofline, 1024, 1e6, 1e-4);
    add_pt(g_v.roofline, &g_v.n_roofline, 8192, 1e8, 1e-2);
    add_pt(g_v.roofline, &g_v.n_roofline, 8192, 1e9, 1e-2);
    calview_scale s;
    assert_int_equal(calview_scale_fit(&g_v, W, H, &s), 0);
    calview_raster(&g_v, &s, grid);
    int ca = calview_col(&s, 1e6), cb = calview_col(&s, 1e8);
    assert_true(cb - ca > 2);
    for (int c = ca + 1; c < cb; c++)
        for (int r = 0; r < H; r++)
            assert_int_equal(grid[r * W + c], CALVIEW_EMPTY);
    int ra = calview_row(&s, 1e-4), rb = calview_row(&s, 1e-2);
    for (int c = calview_col(&s, 1e5); c <= ca; c++)
        assert_int_equal(grid[ra * W + c], CALVIEW_ROOFLINE);
    for (int c = cb; c <= calview_col(&s, 1e9); c++)
        assert_int_equal(grid[rb * W + c], CALVIEW_ROOFLINE);
    /* A sample off the plot breaks the line as well. */
    memset(&g_v, 0, sizeof g_v);
    add_pt(g_v.power_law, &g_v.n_power_law, 0, 1e5, 1e-4);
    add_pt(g_v.power_law, &g_v.n_power_law, 0, NAN, 1e-3);
    add_pt(g_v.power_law, &g_v.n_power_law, 0, 1e9, 1e-2);
    assert_int_equal(calview_scale_fit(&g_v, W, H, &s), 0);
    calview_raster(&g_v, &s, grid);
    int n = 0;
    for (int i = 0; i < W * H; i++)
        n += grid[i] != CALVIEW_EMPTY;
    assert_int_equal(n, 2);
}

static void test_labels(void **state)
{
    (void)state;
    char b[32];
    static const struct {
        int d;
        const char *want;
    } T[] = {{-9, "1 ns"},  {-7, "100 ns"}, {-6, "1 us"}, {-5, "10 us"},   {-4, "100 us"},
             {-3, "1 ms"},  {-1, "100 ms"}, {0, "1 s"},   {2, "100 s"},    {3, "1e3 s"},
             {-10, "1e-10 s"}};
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        calview_time_label(T[i].d, "u", b, sizeof b);
        assert_string_equal(b, T[i].want);
    }
    calview_time_label(-6, "\xc2\xb5", b, sizeof b);
    assert_string_equal(b, "1 \xc2\xb5s");
    calview_x_label(6, b, sizeof b);
    assert_string_equal(b, "1e6");
    calview_x_label(12, b, sizeof b);
    assert_string_equal(b, "1e12");
}

/* --- calib/ curve helpers and the view of a result ------------------------- */

/* A synthetic GPU calibration with known fits: prefill h 1024..4096, decode
 * at h 4096 and 8192, a copy; times from the roofline itself. */
static void synthetic(calib_result *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->dev.name, sizeof r->dev.name, "NVIDIA H100 80GB HBM3");
    snprintf(r->dev.backend, sizeof r->dev.backend, "cuda");
    snprintf(r->dev.dtype, sizeof r->dev.dtype, "fp16");
    snprintf(r->date, sizeof r->date, "2026-11-29T09:00:00Z");
    snprintf(r->preset, sizeof r->preset, "h100-sxm");
    calib_roofline *f = &r->roofline;
    f->form = CALIB_ROOFLINE_ENGINE;
    f->peak_flops = 989e12;
    f->bandwidth = 3.35e12;
    f->eta_compute = 0.7;
    f->eta_memory = 0.8;
    f->overhead_s = 8e-6;
    f->mape = 0.031;
    f->r2 = 0.998;
    static const int HID[] = {1024, 2048, 4096}, BAT[] = {1, 4}, SEQ[] = {512, 2048};
    for (int h = 0; h < 3; h++)
        for (int b = 0; b < 2; b++)
            for (int s = 0; s < 2; s++) {
                calib_point p = {CALIB_POINT_PREFILL, HID[h], BAT[b], SEQ[s], 0, 0, 0};
                calib_layer_cost(p.hidden, p.batch * p.seq, 2.0, &p.flops, &p.bytes);
                p.time_s = calib_roofline_predict(f, p.flops, p.bytes) * (1.0 + 0.02 * (s - b));
                assert_int_equal(calib_result_add_point(r, &p), 0);
            }
    static const int DH[] = {4096, 8192}, DT[] = {1, 16, 256};
    for (int h = 0; h < 2; h++)
        for (int t = 0; t < 3; t++) {
            calib_point p = {CALIB_POINT_DECODE, DH[h], DT[t], 1, 0, 0, 0};
            calib_layer_cost(p.hidden, p.batch, 2.0, &p.flops, &p.bytes);
            p.time_s = calib_roofline_predict(f, p.flops, p.bytes);
            assert_int_equal(calib_result_add_point(r, &p), 0);
        }
    calib_point c = {CALIB_POINT_COPY, 0, 0, 0, 0, 4e9, 1.5e-3};
    assert_int_equal(calib_result_add_point(r, &c), 0);
    f->n = r->n_points - 1;
    assert_int_equal(calib_fit_power_law(r->points, r->n_points, &r->power_law, NULL), 0);
    r->has_power_law = 1;
}

static void test_roofline_curve_exact_at_measured_points(void **state)
{
    (void)state;
    calib_result r;
    synthetic(&r);
    calib_curve_point c[512];
    int n = calib_result_roofline_curve(&r, 16, c, 512);
    /* Hidden sizes 1024, 2048, 4096, 8192: 16 samples each, in order. */
    assert_int_equal(n, 4 * 16);
    static const int HS[] = {1024, 2048, 4096, 8192};
    for (int i = 0; i < n; i++) {
        assert_int_equal(c[i].curve, HS[i / 16]);
        assert_true(isfinite(c[i].time_s) && c[i].time_s > 0);
        if (i % 16)
            assert_true(c[i].x > c[i - 1].x && c[i].time_s > c[i - 1].time_s);
    }
    /* The ends of each line are the predictions at the measured extremes
     * (4096: decode 1 token .. prefill 8192 tokens). */
    calib_point lo = {CALIB_POINT_DECODE, 4096, 1, 1, 0, 0, 0};
    calib_point hi = {CALIB_POINT_PREFILL, 4096, 4, 2048, 0, 0, 0};
    calib_layer_cost(4096, 1, 2.0, &lo.flops, &lo.bytes);
    calib_layer_cost(4096, 8192, 2.0, &hi.flops, &hi.bytes);
    double want_lo = calib_roofline_predict(&r.roofline, lo.flops, lo.bytes);
    double want_hi = calib_roofline_predict(&r.roofline, hi.flops, hi.bytes);
    assert_true(fabs(c[32].x - 4096.0 * 4096) < 1e-3);
    assert_true(fabs(c[32].time_s / want_lo - 1) < 1e-12);
    assert_true(fabs(c[47].time_s / want_hi - 1) < 1e-9);
    /* In between: the interpolated FLOPs and bytes are the layer's own
     * (affine in tokens), so any sample equals the prediction at its t. */
    for (int i = 33; i < 47; i++) {
        double t = c[i].x / (4096.0 * 4096.0), fl, by;
        /* calib_layer_cost takes whole tokens; compare at the formula. */
        calib_layer_cost(4096, 1, 2.0, &fl, &by);
        double f1, b1;
        calib_layer_cost(4096, 2, 2.0, &f1, &b1);
        double fl_t = fl + (f1 - fl) * (t - 1), by_t = by + (b1 - by) * (t - 1);
        double want = calib_roofline_predict(&r.roofline, fl_t, by_t);
        assert_true(fabs(c[i].time_s / want - 1) < 1e-9);
    }
    /* Capacity and degenerate inputs. */
    assert_int_equal(calib_result_roofline_curve(&r, 16, c, 10), 10);
    assert_int_equal(calib_result_roofline_curve(&r, 0, c, 512), 0);
    r.roofline.eta_compute = 0;
    assert_int_equal(calib_result_roofline_curve(&r, 16, c, 512), 0);
    calib_result_free(&r);
    calib_result empty;
    memset(&empty, 0, sizeof empty);
    assert_int_equal(calib_result_roofline_curve(&empty, 16, c, 512), 0);
}

static void test_power_law_curve(void **state)
{
    (void)state;
    calib_result r;
    synthetic(&r);
    calib_curve_point c[64];
    int n = calib_result_power_law_curve(&r, 1e6, 1e12, 13, c, 64);
    assert_int_equal(n, 13);
    assert_true(fabs(c[0].x / 1e6 - 1) < 1e-12);
    assert_true(fabs(c[12].x / 1e12 - 1) < 1e-9);
    assert_true(fabs(c[6].x / 1e9 - 1) < 1e-9); /* log-spaced */
    for (int i = 0; i < n; i++) {
        assert_int_equal(c[i].curve, 0);
        assert_true(fabs(c[i].time_s / calib_power_law_predict(&r.power_law, c[i].x) - 1) <
                    1e-12);
    }
    assert_int_equal(calib_result_power_law_curve(&r, 1e6, 1e12, 13, c, 5), 5);
    assert_int_equal(calib_result_power_law_curve(&r, 1e6, 1e6, 13, c, 64), 0);
    assert_int_equal(calib_result_power_law_curve(&r, 0, 1e6, 13, c, 64), 0);
    assert_int_equal(calib_result_power_law_curve(&r, 1e6, 1e9, 1, c, 64), 0);
    r.has_power_law = 0;
    assert_int_equal(calib_result_power_law_curve(&r, 1e6, 1e12, 13, c, 64), 0);
    calib_result_free(&r);
}

static void test_view_from_result(void **state)
{
    (void)state;
    calib_result r;
    synthetic(&r);
    r.has_comm_fit = 1;
    snprintf(r.comm_label, sizeof r.comm_label, "NCCL AllReduce (2 GPUs)");
    r.comm_fit.alpha_s = 12e-6;
    r.comm_fit.bandwidth = 150e9;
    r.comm_fit.r2 = 0.999;
    explorer_calib_view_from_result(&r, "test", &g_v);
    assert_string_equal(g_v.device, "NVIDIA H100 80GB HBM3");
    assert_string_equal(g_v.backend, "cuda");
    assert_string_equal(g_v.dtype, "fp16");
    assert_string_equal(g_v.date, "2026-11-29T09:00:00Z");
    assert_string_equal(g_v.preset, "h100-sxm");
    assert_string_equal(g_v.source, "test");
    assert_int_equal(g_v.n_points, 18); /* the copy is not a GEMM point */
    int dec = 0;
    for (int i = 0; i < g_v.n_points; i++)
        dec += g_v.points[i].kind;
    assert_int_equal(dec, 6);
    assert_true(g_v.has_power_law);
    assert_true(g_v.pl_beta == r.power_law.beta && g_v.pl_a == r.power_law.a);
    assert_true(g_v.rf_engine_form);
    assert_true(g_v.rf_eta_compute == 0.7 && g_v.rf_eta_memory == 0.8);
    assert_true(g_v.rf_overhead_s == 8e-6 && g_v.rf_mape == 0.031 && g_v.rf_r2 == 0.998);
    assert_true(g_v.has_comm && g_v.comm_bandwidth == 150e9);
    assert_string_equal(g_v.comm_label, "NCCL AllReduce (2 GPUs)");
    /* The power law spans the measured x; the roofline one line per h. */
    assert_true(g_v.n_power_law >= 32);
    assert_true(fabs(g_v.power_law[0].x / (4096.0 * 4096) - 1) < 1e-9); /* decode, 1 token */
    assert_true(fabs(g_v.power_law[g_v.n_power_law - 1].x / (4096.0 * 4096 * 8192) - 1) < 1e-9);
    assert_true(g_v.n_roofline > 4 * 8);
    /* Everything lands on a plot (no value off its own scale). */
    calview_scale s;
    assert_int_equal(calview_scale_fit(&g_v, 70, 14, &s), 0);
    for (int i = 0; i < g_v.n_points; i++) {
        assert_true(calview_col(&s, g_v.points[i].x) >= 0);
        assert_true(calview_row(&s, g_v.points[i].time_s) >= 0);
    }
    /* Without a power law there is no power-law line; NULL gives zeros. */
    r.has_power_law = 0;
    explorer_calib_view_from_result(&r, NULL, &g_v);
    assert_int_equal(g_v.n_power_law, 0);
    assert_string_equal(g_v.source, "");
    explorer_calib_view_from_result(NULL, "x", &g_v);
    assert_int_equal(g_v.n_points, 0);
    calib_result_free(&r);
}

/* --- saved files back as results ----------------------------------------- */

static void write_json(const char *path, const calib_result *r)
{
    engine_error err = {{0}};
    assert_int_equal(calib_store_save(r, path, CALIB_STORE_NORMAL, &err), 0);
}

static void test_store_load_result_round_trip(void **state)
{
    (void)state;
    char dir[] = "/tmp/shardscope-cview-XXXXXX";
    assert_non_null(mkdtemp(dir));
    calib_result r, back;
    synthetic(&r);
    r.has_comm_fit = 1;
    snprintf(r.comm_label, sizeof r.comm_label, "loopback (2 local processes)");
    r.comm_fit.alpha_s = 2e-5;
    r.comm_fit.bandwidth = 4e9;
    r.comm_fit.r2 = 0.99;
    assert_int_equal(calib_result_add_comm(&r, 1024, 2.1e-5), 0);
    char path[600];
    snprintf(path, sizeof path, "%s/h100.json", dir);
    write_json(path, &r);
    engine_error err = {{0}};
    assert_int_equal(calib_store_load_result(path, &back, &err), 0);
    assert_string_equal(back.dev.name, r.dev.name);
    assert_string_equal(back.dev.backend, "cuda");
    assert_string_equal(back.dev.dtype, "fp16");
    assert_string_equal(back.date, r.date);
    assert_string_equal(back.preset, "h100-sxm");
    assert_int_equal(back.n_points, r.n_points);
    for (int i = 0; i < r.n_points; i++) {
        assert_int_equal(back.points[i].kind, r.points[i].kind);
        assert_int_equal(back.points[i].hidden, r.points[i].hidden);
        assert_int_equal(back.points[i].batch, r.points[i].batch);
        assert_int_equal(back.points[i].seq, r.points[i].seq);
        assert_true(fabs(back.points[i].time_s / r.points[i].time_s - 1) < 1e-12);
        assert_true(back.points[i].flops == r.points[i].flops);
    }
    assert_true(back.has_power_law);
    assert_true(fabs(back.power_law.beta / r.power_law.beta - 1) < 1e-12);
    assert_true(fabs(back.power_law.a / r.power_law.a - 1) < 1e-12);
    assert_int_equal(back.roofline.form, CALIB_ROOFLINE_ENGINE);
    assert_true(back.roofline.eta_compute == 0.7 && back.roofline.eta_memory == 0.8);
    assert_true(back.roofline.overhead_s == 8e-6 && back.roofline.mape == 0.031);
    assert_true(back.roofline.peak_flops == 989e12 && back.roofline.bandwidth == 3.35e12);
    assert_true(back.has_comm_fit && back.comm_fit.bandwidth == 4e9);
    assert_int_equal(back.n_comm, 1);
    /* Predictions from the loaded file equal those of the original. */
    for (int i = 0; i < r.n_points; i++)
        assert_true(calib_roofline_predict(&back.roofline, back.points[i].flops,
                                           back.points[i].bytes) ==
                    calib_roofline_predict(&r.roofline, r.points[i].flops, r.points[i].bytes));
    calib_result_free(&back);

    /* Which file: the newest cuda one naming the preset; a CPU file and an
     * older one are passed over. */
    calib_result older = r;
    older.points = NULL;
    older.n_points = 0;
    older.comm = NULL;
    older.n_comm = 0;
    snprintf(older.date, sizeof older.date, "2025-01-01T00:00:00Z");
    char p2[600], p3[600], got[4400];
    snprintf(p2, sizeof p2, "%s/older.json", dir);
    write_json(p2, &older);
    calib_result cpu = older;
    snprintf(cpu.dev.backend, sizeof cpu.dev.backend, "cpu");
    snprintf(cpu.date, sizeof cpu.date, "2027-01-01T00:00:00Z");
    snprintf(p3, sizeof p3, "%s/cpu.json", dir);
    write_json(p3, &cpu);
    assert_int_equal(calib_store_load_result_for_gpu_in(dir, "H100-SXM", &back, got,
                                                        sizeof got, &err), 1);
    assert_string_equal(got, path);
    assert_int_equal(back.n_points, r.n_points);
    calib_result_free(&back);
    engine_calib ec;
    assert_int_equal(calib_store_load_for_gpu_in(dir, "h100-sxm", &ec, NULL), 1);
    assert_string_equal(ec.date, r.date); /* the same file the engine applies */
    assert_int_equal(calib_store_load_result_for_gpu_in(dir, "a100-80gb", &back, got,
                                                        sizeof got, &err), 0);
    assert_int_equal(calib_store_load_result_for_gpu_in("/nonexistent/x", "h100-sxm", &back,
                                                        NULL, 0, &err), 0);
    /* The older file alone has no points: a result without points. */
    assert_int_equal(calib_store_load_result(p2, &back, &err), 0);
    assert_int_equal(back.n_points, 0);
    calib_result_free(&back);

    /* A broken point is an error naming the file and the point. */
    char p4[600];
    snprintf(p4, sizeof p4, "%s/broken.json", dir);
    FILE *f = fopen(p4, "w");
    assert_non_null(f);
    fputs("{\"backend\":\"cuda\",\"device\":\"X\",\"date\":\"2026\",\"preset\":\"zz\","
          "\"roofline\":{\"eta_compute\":0.5,\"eta_memory\":0.5,\"overhead_s\":0},"
          "\"points\":[{\"kind\":\"prefill\",\"hidden\":1,\"batch\":1,\"seq\":1,"
          "\"flops\":1,\"bytes\":1,\"time_s\":-1}]}\n", f);
    fclose(f);
    assert_int_equal(calib_store_load_result(p4, &back, &err), -1);
    assert_non_null(strstr(err.msg, "broken.json"));
    assert_non_null(strstr(err.msg, "points[0]"));
    assert_int_equal(back.n_points, 0);
    assert_int_equal(calib_store_load_result("/nonexistent/x.json", &back, &err), -1);

    calib_result_free(&r);
    unlink(path);
    unlink(p2);
    unlink(p3);
    unlink(p4);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scale_fit_and_mapping),
        cmocka_unit_test(test_scale_degenerate),
        cmocka_unit_test(test_raster_lines_points_and_overlap),
        cmocka_unit_test(test_raster_new_curve_starts_new_line),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_roofline_curve_exact_at_measured_points),
        cmocka_unit_test(test_power_law_curve),
        cmocka_unit_test(test_view_from_result),
        cmocka_unit_test(test_store_load_result_round_trip),
    };
    return cmocka_run_group_tests_name("calib_view", tests, NULL, NULL);
}
