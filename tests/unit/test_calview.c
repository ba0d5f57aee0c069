/*
 * test_calview.c - the calibration view without a terminal: the log-log
 * scale and cell mapping, the raster (continuous lines, points over lines,
 * both fits in one cell, a new curve starts a new line, values off the
 * plot), tick labels (tui/explorer/calview.c); and the view built from a
 * result (tui/explorer/calib_hook.c) on the shared fixture.  The curves it
 * samples are tested in test_calib_plot.c, a saved file read back in
 * test_calib_store.c.
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
#include "calib_fixture.h"
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

/* --- the view of a result ---------------------------------------------------- */

static void test_view_from_result(void **state)
{
    (void)state;
    calib_result r;
    assert_int_equal(ts_calib_fixture(&r), 0);
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
    assert_int_equal(g_v.n_points, 30); /* the copy is not a GEMM point */
    int dec = 0;
    for (int i = 0; i < g_v.n_points; i++)
        dec += g_v.points[i].kind;
    assert_int_equal(dec, 6);
    assert_true(g_v.has_power_law);
    assert_true(g_v.pl_beta == r.power_law.beta && g_v.pl_a == r.power_law.a);
    assert_true(g_v.rf_engine_form);
    assert_true(g_v.rf_eta_compute == 0.7 && g_v.rf_eta_memory == 0.8);
    assert_true(g_v.rf_overhead_s == 8e-6 && g_v.rf_mape == 0.031 && g_v.rf_r2 == 0.9982);
    assert_true(g_v.has_comm && g_v.comm_bandwidth == 150e9);
    assert_string_equal(g_v.comm_label, "NCCL AllReduce (2 GPUs)");
    /* The power law spans the measured x; the roofline one line per h. */
    assert_true(g_v.n_power_law >= 32);
    assert_true(fabs(g_v.power_law[0].x / (4096.0 * 4096) - 1) < 1e-9); /* decode, 1 token */
    assert_true(fabs(g_v.power_law[g_v.n_power_law - 1].x / (4096.0 * 4096 * 16384) - 1) < 1e-9);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scale_fit_and_mapping),
        cmocka_unit_test(test_scale_degenerate),
        cmocka_unit_test(test_raster_lines_points_and_overlap),
        cmocka_unit_test(test_raster_new_curve_starts_new_line),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_view_from_result),
    };
    return cmocka_run_group_tests_name("calib_view", tests, NULL, NULL);
}
