/*
 * test_calib_plot.c - calib/plot.c: the rows of the measured-vs-fitted
 * view, and the fitted curves sampled for drawing (the roofline
 * interpolated along each hidden size equals the prediction at the
 * measured points; the power law log-spaced), on the shared fixture.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "calib.h"
#include "calib_fixture.h"

#define REL(a, b) (fabs((a) - (b)) / fabs(b))

/* Every GEMM point with both fits' predictions; the copy is left out. */
static void test_plot_rows(void **state)
{
    (void)state;
    calib_result r;
    assert_int_equal(ts_calib_fixture(&r), 0);
    calib_plot_row rows[128];
    int nr = calib_result_plot_rows(&r, rows, 128);
    assert_int_equal(nr, r.n_points - 1); /* every point but the copy */
    /* The fixture's first point is 1.5 % under its roofline. */
    assert_true(REL(rows[0].measured_s, rows[0].roofline_s * 0.985) < 1e-12);
    assert_true(REL(rows[0].power_law_s,
                    calib_power_law_predict(&r.power_law, rows[0].x)) < 1e-12);
    assert_true(rows[0].x == 1024.0 * 1024 * 512);
    assert_true(rows[0].power_law_s > 0);
    calib_result_free(&r);
    calib_result_free(&r); /* twice is safe */
}

static void test_roofline_curve_exact_at_measured_points(void **state)
{
    (void)state;
    calib_result r;
    assert_int_equal(ts_calib_fixture(&r), 0);
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
     * (4096: decode 1 token .. prefill 16384 tokens). */
    calib_point lo = {CALIB_POINT_DECODE, 4096, 1, 1, 0, 0, 0};
    calib_point hi = {CALIB_POINT_PREFILL, 4096, 8, 2048, 0, 0, 0};
    calib_layer_cost(4096, 1, 2.0, &lo.flops, &lo.bytes);
    calib_layer_cost(4096, 16384, 2.0, &hi.flops, &hi.bytes);
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
    assert_int_equal(ts_calib_fixture(&r), 0);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plot_rows),
        cmocka_unit_test(test_roofline_curve_exact_at_measured_points),
        cmocka_unit_test(test_power_law_curve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
