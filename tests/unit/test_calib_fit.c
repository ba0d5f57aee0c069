/*
 * test_calib_fit.c - calib/fit.c: the three fits recover known parameters
 * from synthetic data (exact and noisy, the seed's GPU grid and the CPU
 * sweep's), the roofline's bounds (eta clamped to 1, cache-resident points
 * kept out of eta_memory, through calib_result_fit which sets them, and
 * their JSON), degenerate data refused with exact messages, and the layer
 * cost of the sweep.
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
#include <cjson/cJSON.h>
#include "calib.h"

#define REL(a, b) (fabs((a) - (b)) / fabs(b))

/* Deterministic multiplicative noise in [1 - amp, 1 + amp]. */
static double noise(unsigned *st, double amp)
{
    *st = *st * 1103515245u + 12345u;
    double u = ((*st >> 8) & 0xffff) / 65535.0;
    return 1.0 + amp * (2.0 * u - 1.0);
}

/* The seed's grid: hidden 768..8192, batch 1..8, seq 512 and 2048. */
static int seed_grid(calib_point *p, int cap)
{
    static const int hid[] = {768, 1024, 2048, 4096, 8192};
    static const int bat[] = {1, 2, 4, 8};
    static const int seq[] = {512, 2048};
    int n = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 2 && n < cap; k++) {
                memset(&p[n], 0, sizeof p[n]);
                p[n].kind = CALIB_POINT_PREFILL;
                p[n].hidden = hid[i];
                p[n].batch = bat[j];
                p[n].seq = seq[k];
                calib_layer_cost(hid[i], bat[j] * seq[k], 2.0, &p[n].flops, &p[n].bytes);
                n++;
            }
    return n;
}

static void test_power_law_exact(void **state)
{
    (void)state;
    calib_point p[64];
    int n = seed_grid(p, 64);
    for (int i = 0; i < n; i++) {
        double x = (double)p[i].hidden * p[i].hidden * p[i].batch * p[i].seq;
        p[i].time_s = 3.1e-12 * pow(x, 0.7232);
    }
    calib_power_law f;
    engine_error err = {{0}};
    assert_int_equal(calib_fit_power_law(p, n, &f, &err), 0);
    assert_true(REL(f.a, 3.1e-12) < 0.01);
    assert_true(REL(f.beta, 0.7232) < 0.01);
    assert_true(f.mape < 1e-9);
    assert_true(f.r2 > 0.999999);
    assert_int_equal(f.n, n);
}

static void test_power_law_noisy(void **state)
{
    (void)state;
    calib_point p[64];
    int n = seed_grid(p, 64);
    unsigned st = 7;
    for (int i = 0; i < n; i++) {
        double x = (double)p[i].hidden * p[i].hidden * p[i].batch * p[i].seq;
        p[i].time_s = 2e-12 * pow(x, 0.9) * noise(&st, 0.05);
    }
    calib_power_law f;
    assert_int_equal(calib_fit_power_law(p, n, &f, NULL), 0);
    assert_true(REL(f.beta, 0.9) < 0.02);
    assert_true(f.mape > 0.005 && f.mape < 0.05);
    assert_true(f.r2 > 0.99 && f.r2 < 1.0);
}

static void test_power_law_degenerate(void **state)
{
    (void)state;
    calib_point p[3];
    engine_error err = {{0}};
    calib_power_law f;
    seed_grid(p, 3);
    p[0].time_s = 1e-3;
    assert_int_equal(calib_fit_power_law(p, 1, &f, &err), -1);
    assert_string_equal(err.msg, "power law: need at least 2 prefill points, got 1");
    assert_int_equal(calib_fit_power_law(p, 0, &f, &err), -1);
    assert_string_equal(err.msg, "power law: no measurements to fit (got 0 points)");

    /* Same size twice. */
    p[1] = p[0];
    p[1].time_s = 2e-3;
    assert_int_equal(calib_fit_power_law(p, 2, &f, &err), -1);
    assert_string_equal(err.msg, "power law: all 2 points have the same size "
                                 "h^2*b*s = 3.0199e+08; need at least two sizes");
    /* Zero and NaN times. */
    seed_grid(p, 3);
    p[0].time_s = 1e-3;
    p[1].time_s = 0;
    assert_int_equal(calib_fit_power_law(p, 2, &f, &err), -1);
    assert_string_equal(err.msg, "power law: point 1: time must be a positive finite "
                                 "number of seconds, got 0");
    p[1].time_s = NAN;
    assert_int_equal(calib_fit_power_law(p, 2, &f, &err), -1);
    assert_string_equal(err.msg, "power law: point 1: time must be a positive finite "
                                 "number of seconds, got nan");
    /* A zero dimension. */
    p[1].time_s = 1e-3;
    p[1].hidden = 0;
    assert_int_equal(calib_fit_power_law(p, 2, &f, &err), -1);
    assert_string_equal(err.msg, "power law: point 1: hidden, batch and seq must be "
                                 "positive (h^2*b*s = 0)");
}

/* Prefill grid + decode shapes + a copy, timed by an exact roofline of
 * the given form (max for the classic fit, the engine's for calib_result_fit). */
static int roofline_data_form(calib_point *p, int cap, calib_roofline_form form,
                              double peak, double bw, double ec, double em, double o)
{
    int n = seed_grid(p, cap);
    static const int tok[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    for (int h = 4096; h <= 8192; h *= 2)
        for (int i = 0; i < 9 && n < cap; i++) {
            memset(&p[n], 0, sizeof p[n]);
            p[n].kind = CALIB_POINT_DECODE;
            p[n].hidden = h;
            p[n].batch = tok[i];
            p[n].seq = 1;
            calib_layer_cost(h, tok[i], 2.0, &p[n].flops, &p[n].bytes);
            n++;
        }
    memset(&p[n], 0, sizeof p[n]);
    p[n].kind = CALIB_POINT_COPY;
    p[n].bytes = 2.0 * (1u << 30);
    n++;
    for (int i = 0; i < n; i++) {
        double tc = p[i].flops / (peak * ec), tm = p[i].bytes / (bw * em);
        p[i].time_s = (form == CALIB_ROOFLINE_ENGINE ? engine_roofline_s(tc, tm)
                                                     : (tc > tm ? tc : tm)) + o;
    }
    return n;
}

static int roofline_data(calib_point *p, int cap, double peak, double bw, double ec,
                         double em, double o)
{
    return roofline_data_form(p, cap, CALIB_ROOFLINE_MAX, peak, bw, ec, em, o);
}

static void test_roofline_exact(void **state)
{
    (void)state;
    calib_point p[80];
    int n = roofline_data(p, 80, 989e12, 3.35e12, 0.72, 0.86, 6e-6);
    calib_roofline f;
    engine_error err = {{0}};
    assert_int_equal(calib_fit_roofline(p, n, 989e12, 3.35e12, &f, &err), 0);
    assert_true(REL(f.eta_compute, 0.72) < 0.01);
    assert_true(REL(f.eta_memory, 0.86) < 0.01);
    assert_true(REL(f.overhead_s, 6e-6) < 0.01);
    assert_true(f.mape < 1e-6);
    assert_true(f.r2 > 0.999999);
    assert_false(f.eta_memory_bound_only);
    assert_false(f.eta_compute_bound_only);
    /* Every prefill point of this grid is compute-bound on an H100. */
    assert_true(f.n_compute_bound >= 40);
    for (int i = 0; i < n; i++)
        assert_true(REL(calib_roofline_predict(&f, p[i].flops, p[i].bytes), p[i].time_s) <
                    1e-6);
}

static void test_roofline_noisy(void **state)
{
    (void)state;
    calib_point p[80];
    int n = roofline_data(p, 80, 312e12, 2.0e12, 0.6, 0.8, 1e-5);
    unsigned st = 99;
    for (int i = 0; i < n; i++)
        p[i].time_s *= noise(&st, 0.04);
    calib_roofline f;
    assert_int_equal(calib_fit_roofline(p, n, 312e12, 2.0e12, &f, NULL), 0);
    assert_true(REL(f.eta_compute, 0.6) < 0.03);
    assert_true(REL(f.eta_memory, 0.8) < 0.03);
    assert_true(f.mape < 0.05);
    assert_true(f.r2 > 0.99);
}

static void test_roofline_compute_only(void **state)
{
    (void)state;
    /* No point on the memory roof: eta_memory is only a lower bound. */
    calib_point p[64];
    int n = seed_grid(p, 64);
    for (int i = 0; i < n; i++)
        p[i].time_s = p[i].flops / (100e12 * 0.5) + 2e-6;
    calib_roofline f;
    assert_int_equal(calib_fit_roofline(p, n, 100e12, 1e12, &f, NULL), 0);
    assert_true(REL(f.eta_compute, 0.5) < 0.01);
    assert_true(f.eta_memory_bound_only);
    assert_true(f.mape < 1e-6);
}

static void test_roofline_degenerate(void **state)
{
    (void)state;
    calib_point p[4];
    calib_roofline f;
    engine_error err = {{0}};
    seed_grid(p, 4);
    for (int i = 0; i < 4; i++)
        p[i].time_s = 1e-3 * (i + 1);
    assert_int_equal(calib_fit_roofline(p, 2, 1e12, 1e11, &f, &err), -1);
    assert_string_equal(err.msg, "roofline: need at least 3 points, got 2");
    assert_int_equal(calib_fit_roofline(p, 4, 0, 1e11, &f, &err), -1);
    assert_string_equal(err.msg, "roofline: peak FLOP/s and bandwidth must be positive, "
                                 "got 0 and 1e+11");
    p[2].time_s = NAN;
    assert_int_equal(calib_fit_roofline(p, 4, 1e12, 1e11, &f, &err), -1);
    assert_string_equal(err.msg, "roofline: point 2 (prefill): time must be a positive "
                                 "finite number of seconds, got nan");
    p[2].time_s = 1e-3;
    p[3].flops = 0;
    p[3].bytes = 0;
    assert_int_equal(calib_fit_roofline(p, 4, 1e12, 1e11, &f, &err), -1);
    assert_string_equal(err.msg, "roofline: point 3 (prefill): no work (0 FLOPs and 0 bytes)");
    /* The same shape measured four times. */
    calib_point same[4];
    for (int i = 0; i < 4; i++) {
        same[i] = p[0];
        same[i].time_s = 1e-3 * (1 + 0.01 * i);
    }
    assert_int_equal(calib_fit_roofline(same, 4, 1e12, 1e11, &f, &err), -1);
    assert_string_equal(err.msg, "roofline: all 4 points have the same work (7.24776e+09 "
                                 "FLOPs, 2.67387e+07 bytes); need at least two sizes");
    p[3].flops = -1;
    assert_int_equal(calib_fit_roofline(p, 4, 1e12, 1e11, &f, &err), -1);
    assert_string_equal(err.msg, "roofline: point 3 (prefill): flops and bytes must be "
                                 "finite and >= 0, got -1 and 0");
    /* Times that shrink as the work grows: no positive efficiency fits. */
    seed_grid(p, 4);
    for (int i = 0; i < 4; i++)
        p[i].time_s = 1e-3 / (i + 1);
    p[0].flops = p[1].flops = p[2].flops = p[3].flops = 1e9;
    p[0].bytes = 1e3;
    p[1].bytes = 1e4;
    p[2].bytes = 1e5;
    p[3].bytes = 1e6;
    int rc = calib_fit_roofline(p, 4, 1e12, 1e11, &f, &err);
    if (rc == 0) /* a fit is allowed, but then it must be a poor one */
        assert_true(f.mape > 0.1);
}

/* The CPU backend's --quick grid (hidden 128..512 x batch 1, 2, 4 x seq 48
 * and 192, decode 1..96 tokens at the two largest hidden sizes, fp32) timed
 * by an exact roofline of the given form. */
static int cpu_grid(calib_point *p, int cap, calib_roofline_form form, double peak,
                    double bw, double ec, double em, double o)
{
    static const int hid[] = {128, 256, 384, 512}, bat[] = {1, 2, 4}, seq[] = {48, 192},
                     dec[] = {1, 6, 24, 96};
    int n = 0;
    for (int ih = 0; ih < 4; ih++) {
        for (int ib = 0; ib < 3; ib++)
            for (int is = 0; is < 2 && n < cap; is++) {
                memset(&p[n], 0, sizeof p[n]);
                p[n].kind = CALIB_POINT_PREFILL;
                p[n].hidden = hid[ih];
                p[n].batch = bat[ib];
                p[n].seq = seq[is];
                calib_layer_cost(hid[ih], bat[ib] * seq[is], 4.0, &p[n].flops, &p[n].bytes);
                n++;
            }
        for (int it = 0; ih >= 2 && it < 4 && n < cap; it++) {
            memset(&p[n], 0, sizeof p[n]);
            p[n].kind = CALIB_POINT_DECODE;
            p[n].hidden = hid[ih];
            p[n].batch = dec[it];
            p[n].seq = 1;
            calib_layer_cost(hid[ih], dec[it], 4.0, &p[n].flops, &p[n].bytes);
            n++;
        }
    }
    for (int i = 0; i < n; i++) {
        double tc = p[i].flops / (peak * ec), tm = p[i].bytes / (bw * em);
        p[i].time_s = (form == CALIB_ROOFLINE_ENGINE ? engine_roofline_s(tc, tm)
                                                     : (tc > tm ? tc : tm)) + o;
    }
    return n;
}

/* Both forms recover known parameters exactly on the CPU sweep's grid, and
 * the engine's form predicts what the engine computes. */
static void test_roofline_cpu_grid_exact(void **state)
{
    (void)state;
    for (int form = CALIB_ROOFLINE_MAX; form <= CALIB_ROOFLINE_ENGINE; form++) {
        calib_point p[40];
        int n = cpu_grid(p, 40, form, 75e9, 13e9, 0.9, 0.8, 20e-6);
        assert_int_equal(n, 32);
        calib_roofline_opts o = {NULL, 0, form};
        calib_roofline f;
        engine_error err = {{0}};
        assert_int_equal(calib_fit_roofline_ex(p, n, 75e9, 13e9, &o, &f, &err), 0);
        assert_int_equal(f.form, form);
        assert_true(REL(f.eta_compute, 0.9) < 0.01);
        assert_true(REL(f.eta_memory, 0.8) < 0.01);
        assert_true(REL(f.overhead_s, 20e-6) < 0.01);
        assert_true(f.mape < 1e-6);
        assert_false(f.eta_compute_clamped);
        assert_false(f.eta_memory_clamped);
        assert_int_equal(f.n_memory_excluded, 0);
        for (int i = 0; i < n; i++) {
            double tc = p[i].flops / (75e9 * f.eta_compute);
            double tm = p[i].bytes / (13e9 * f.eta_memory);
            double want = (form == CALIB_ROOFLINE_ENGINE ? engine_roofline_s(tc, tm)
                                                         : fmax(tc, tm)) + f.overhead_s;
            assert_true(REL(calib_roofline_predict(&f, p[i].flops, p[i].bytes), want) < 1e-12);
        }
    }
}

/* 3 % multiplicative noise: the parameters within a few per cent, and the
 * MAPE the fit reports is the noise level (no better than the true
 * parameters give, since the fit minimises it; not far below either: 3
 * parameters cannot absorb 32 independent errors). */
static void test_roofline_cpu_grid_noisy(void **state)
{
    (void)state;
    for (int form = CALIB_ROOFLINE_MAX; form <= CALIB_ROOFLINE_ENGINE; form++) {
        calib_point p[40];
        int n = cpu_grid(p, 40, form, 75e9, 13e9, 0.9, 0.8, 20e-6);
        unsigned st = 7 + (unsigned)form;
        double true_ape = 0;
        for (int i = 0; i < n; i++) {
            double t = p[i].time_s;
            p[i].time_s *= noise(&st, 0.03);
            true_ape += fabs(t - p[i].time_s) / p[i].time_s;
        }
        true_ape /= n;
        calib_roofline_opts o = {NULL, 0, form};
        calib_roofline f;
        assert_int_equal(calib_fit_roofline_ex(p, n, 75e9, 13e9, &o, &f, NULL), 0);
        assert_true(REL(f.eta_compute, 0.9) < 0.03);
        assert_true(REL(f.eta_memory, 0.8) < 0.05);
        assert_true(f.mape <= true_ape + 1e-9);
        assert_true(f.mape > 0.6 * true_ape);
        assert_true(true_ape > 0.01 && true_ape < 0.02); /* uniform +-3 %: mean 1.5 % */
        assert_true(f.r2 > 0.99);
    }
}

/* A memory roof faster than the bandwidth it is relative to (a CPU cache
 * outrunning the memcpy): the free fit says so, the stored eta is 1 and
 * the MAPE is that of the stored (constrained) model. */
static void test_roofline_eta_clamped(void **state)
{
    (void)state;
    calib_point p[40];
    int n = cpu_grid(p, 40, CALIB_ROOFLINE_ENGINE, 75e9, 13e9, 0.9, 1.25, 20e-6);
    calib_roofline_opts o = {NULL, 0, CALIB_ROOFLINE_ENGINE};
    calib_roofline f;
    assert_int_equal(calib_fit_roofline_ex(p, n, 75e9, 13e9, &o, &f, NULL), 0);
    assert_true(f.eta_memory_clamped);
    assert_false(f.eta_compute_clamped);
    assert_true(f.eta_memory == 1.0);
    assert_true(f.eta_compute > 0 && f.eta_compute <= 1.0);
    assert_true(REL(f.eta_memory_free, 1.25) < 0.01);
    assert_true(REL(f.eta_compute_free, 0.9) < 0.01);
    assert_true(f.mape > 1e-3); /* the bound costs accuracy, and says so */
    double ape = 0;
    for (int i = 0; i < n; i++)
        ape += fabs(calib_roofline_predict(&f, p[i].flops, p[i].bytes) - p[i].time_s) /
               p[i].time_s;
    assert_true(REL(f.mape, ape / n) < 1e-9);
    /* Asked for, the free fit is stored as it is. */
    o.allow_eta_above_one = 1;
    assert_int_equal(calib_fit_roofline_ex(p, n, 75e9, 13e9, &o, &f, NULL), 0);
    assert_true(REL(f.eta_memory, 1.25) < 0.01);
    assert_false(f.eta_memory_clamped);
    assert_true(f.mape < 1e-6);
    /* The plain call never stores an eta above 1 either (max form). */
    int m = cpu_grid(p, 40, CALIB_ROOFLINE_MAX, 75e9, 13e9, 0.9, 1.25, 20e-6);
    assert_int_equal(calib_fit_roofline(p, m, 75e9, 13e9, &f, NULL), 0);
    assert_true(f.eta_memory <= 1.0 && f.eta_compute <= 1.0);
    assert_true(f.eta_memory_clamped);
    assert_true(REL(f.eta_memory_free, 1.25) < 0.01);
}

/* CPU, the reference copy larger than the last-level cache: GEMM points
 * whose bytes fit in that cache stream faster than the roof.  They are kept
 * out of the eta_memory fit (which then recovers the memory-fed points'
 * eta), counted and explained, and still count in every MAPE. */
static void test_roofline_cache_resident(void **state)
{
    (void)state;
    calib_point p[40];
    int n = cpu_grid(p, 40, CALIB_ROOFLINE_ENGINE, 75e9, 13e9, 0.9, 0.8, 20e-6);
    const double cache = 3e6;
    int resident = 0;
    for (int i = 0; i < n; i++)
        if (p[i].bytes <= cache) {
            /* Fed by the cache at 4x the memory rate. */
            double tc = p[i].flops / (75e9 * 0.9), tm = p[i].bytes / (13e9 * 0.8 * 4);
            p[i].time_s = engine_roofline_s(tc, tm) + 20e-6;
            resident++;
        }
    assert_true(resident >= 3 && resident < n / 2);
    for (int pass = 0; pass < 2; pass++) {
        calib_result r;
        memset(&r, 0, sizeof r);
        snprintf(r.dev.backend, sizeof r.dev.backend, "cpu");
        snprintf(r.dev.name, sizeof r.dev.name, "CPU test");
        for (int i = 0; i < n; i++)
            assert_int_equal(calib_result_add_point(&r, &p[i]), 0);
        calib_point copy = {CALIB_POINT_COPY, 0, 0, 0, 0, 2.0 * (256u << 20),
                            2.0 * (256u << 20) / 13e9};
        assert_int_equal(calib_result_add_point(&r, &copy), 0);
        r.roofline.peak_flops = 75e9;
        r.roofline.bandwidth = 13e9;
        if (pass == 1) {
            r.cpu_cache_bytes = cache;
            snprintf(r.cpu_cache_name, sizeof r.cpu_cache_name, "L3");
        }
        assert_int_equal(calib_result_fit(&r, NULL), 0);
        assert_int_equal(r.roofline.form, CALIB_ROOFLINE_ENGINE);
        assert_true(r.roofline.eta_memory > 0 && r.roofline.eta_memory <= 1.0);
        /* The MAPE is over every GEMM point, resident ones included. */
        assert_int_equal(r.roofline.n, n);
        double ape = 0;
        for (int i = 0; i < n; i++)
            ape += fabs(calib_roofline_predict(&r.roofline, p[i].flops, p[i].bytes) -
                        p[i].time_s) / p[i].time_s;
        assert_true(REL(r.roofline.mape, ape / n) < 1e-9);
        char *text = calib_result_to_json(&r);
        assert_non_null(text);
        cJSON *j = cJSON_Parse(text);
        cJSON *rf = cJSON_GetObjectItem(j, "roofline");
        assert_int_equal(cJSON_GetObjectItem(rf, "n_memory_excluded")->valueint,
                         pass ? resident : 0);
        assert_string_equal(cJSON_GetObjectItem(rf, "form")->valuestring,
                            "compute + memory + overhead (the engine's)");
        assert_true(REL(cJSON_GetObjectItem(rf, "overhead_per_gemm_s")->valuedouble,
                        r.roofline.overhead_s / 4) < 1e-12 || r.roofline.overhead_s == 0);
        assert_non_null(cJSON_GetObjectItem(j, "roofline_max"));
        if (pass == 1) {
            assert_int_equal(r.roofline.n_memory_excluded, resident);
            assert_true(REL(r.roofline.eta_memory, 0.8) < 0.01);
            assert_true(REL(r.roofline.eta_compute, 0.9) < 0.01);
            assert_true(REL(r.roofline.overhead_s, 20e-6) < 0.01);
            assert_true(r.roofline.mape > 0); /* the engine's formula misses them */
            char want[64];
            snprintf(want, sizeof want, "%d of %d points fit in the", resident, n);
            assert_non_null(strstr(r.roofline_note, want));
            assert_non_null(strstr(cJSON_GetObjectItem(rf, "note")->valuestring, "L3 cache"));
        } else {
            assert_int_equal(r.roofline.n_memory_excluded, 0);
        }
        cJSON_Delete(j);
        free(text);
        calib_result_free(&r);
    }
    /* Every point resident (the full CPU grid against a large L3): nothing
     * measures the memory roof; eta_memory is a bound, taken from the copy
     * (1 against its own bandwidth), and the fit still succeeds. */
    calib_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.dev.backend, sizeof r.dev.backend, "cpu");
    for (int i = 0; i < n; i++)
        assert_int_equal(calib_result_add_point(&r, &p[i]), 0);
    calib_point copy = {CALIB_POINT_COPY, 0, 0, 0, 0, 2.0 * (256u << 20),
                        2.0 * (256u << 20) / 13e9};
    assert_int_equal(calib_result_add_point(&r, &copy), 0);
    r.roofline.peak_flops = 75e9;
    r.roofline.bandwidth = 13e9;
    r.cpu_cache_bytes = 1e9;
    assert_int_equal(calib_result_fit(&r, NULL), 0);
    assert_int_equal(r.roofline.n_memory_excluded, n);
    assert_true(r.roofline.eta_memory_bound_only);
    assert_true(REL(r.roofline.eta_memory, 1.0) < 1e-9);
    assert_true(r.roofline.eta_compute > 0 && r.roofline.eta_compute <= 1.0);
    assert_int_equal(r.roofline.n, n);
    calib_result_free(&r);
}

static void test_alpha_beta(void **state)
{
    (void)state;
    calib_comm_point c[11];
    int n = 0;
    for (double b = 1024; b <= (1u << 30); b *= 4, n++) {
        c[n].bytes = b;
        c[n].time_s = 269e-6 + b / 1.77e9; /* the seed's Gloo figures */
    }
    calib_alpha_beta f;
    engine_error err = {{0}};
    assert_int_equal(calib_fit_alpha_beta(c, n, &f, &err), 0);
    assert_true(REL(f.alpha_s, 269e-6) < 0.01);
    assert_true(REL(f.bandwidth, 1.77e9) < 0.01);
    assert_true(f.r2 > 0.999999);

    unsigned st = 3;
    for (int i = 0; i < n; i++)
        c[i].time_s *= noise(&st, 0.05);
    assert_int_equal(calib_fit_alpha_beta(c, n, &f, &err), 0);
    assert_true(REL(f.alpha_s, 269e-6) < 0.1);
    assert_true(REL(f.bandwidth, 1.77e9) < 0.1);
    assert_true(f.r2 > 0.99);

    assert_int_equal(calib_fit_alpha_beta(c, 1, &f, &err), -1);
    assert_string_equal(err.msg, "alpha-beta: need at least 2 message sizes, got 1 point");
    c[1].bytes = c[0].bytes;
    assert_int_equal(calib_fit_alpha_beta(c, 2, &f, &err), -1);
    assert_string_equal(err.msg, "alpha-beta: all 2 points have the same message size "
                                 "(1024 bytes); need at least two sizes");
    c[1].bytes = 0;
    c[1].time_s = 1e-3;
    assert_int_equal(calib_fit_alpha_beta(c, 2, &f, &err), -1);
    assert_string_equal(err.msg, "alpha-beta: point 1: size and time must be positive "
                                 "finite numbers, got 0 bytes and 0.001 s");
    c[1].bytes = 4096;
    c[1].time_s = NAN;
    assert_int_equal(calib_fit_alpha_beta(c, 2, &f, &err), -1);
    assert_string_equal(err.msg, "alpha-beta: point 1: size and time must be positive "
                                 "finite numbers, got 4096 bytes and nan s");
}

static void test_layer_cost(void **state)
{
    (void)state;
    double f, b;
    calib_layer_cost(4096, 2048, 2.0, &f, &b);
    assert_true(REL(f, 24.0 * 2048 * 4096.0 * 4096.0) < 1e-12);
    /* weights 12 h^2 + inputs (h + h + h + 4h) t + outputs (3h + h + 4h + h) t */
    double want = 2.0 * (12.0 * 4096 * 4096 + 7.0 * 4096 * 2048 + 9.0 * 4096 * 2048);
    assert_true(REL(b, want) < 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_power_law_exact),
        cmocka_unit_test(test_power_law_noisy),
        cmocka_unit_test(test_power_law_degenerate),
        cmocka_unit_test(test_roofline_exact),
        cmocka_unit_test(test_roofline_noisy),
        cmocka_unit_test(test_roofline_compute_only),
        cmocka_unit_test(test_roofline_degenerate),
        cmocka_unit_test(test_roofline_cpu_grid_exact),
        cmocka_unit_test(test_roofline_cpu_grid_noisy),
        cmocka_unit_test(test_roofline_eta_clamped),
        cmocka_unit_test(test_roofline_cache_resident),
        cmocka_unit_test(test_alpha_beta),
        cmocka_unit_test(test_layer_cost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
