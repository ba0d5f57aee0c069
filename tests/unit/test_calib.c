/*
 * test_calib.c - the calibration module: the three fits recover known
 * parameters from synthetic data (exact and noisy) and refuse degenerate
 * data with exact messages; our SGEMM against a naive product; the store
 * (atomic save, a crash between write and rename, CPU results never
 * applied to a GPU type, the newest file wins); the device-name heuristic;
 * the no-GPU, no-cuBLAS and out-of-memory paths of the cuda backend through
 * its function table; the NCCL sweeps' size loop with a fake timing op
 * (sizes, warm-up, median, the fit, failures) and the send/recv series in
 * the result and its JSON; the loopback; the worker thread and its cancel.
 * Timings are never asserted.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "calib.h"
#include "calib_fake_cuda.h"
#include "preset.h"

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

/* --- power law ---------------------------------------------------------- */

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

/* --- roofline ------------------------------------------------------------ */

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

/* --- alpha-beta ------------------------------------------------------------ */

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

/* --- SGEMM ------------------------------------------------------------------ */

static void test_sgemm(void **state)
{
    (void)state;
    static const int dims[][3] = {{1, 17, 5},   {3, 130, 300}, {7, 16, 1},
                                  {13, 33, 257}, {37, 130, 64}, {100, 2100, 20},
                                  {200, 48, 513}};
    for (size_t t = 0; t < sizeof dims / sizeof dims[0]; t++) {
        int m = dims[t][0], n = dims[t][1], k = dims[t][2];
        float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n);
        float *c = malloc(sizeof(float) * m * n);
        assert_non_null(a);
        assert_non_null(b);
        assert_non_null(c);
        unsigned st = 1;
        for (int i = 0; i < m * k; i++)
            a[i] = (float)(noise(&st, 1.0) - 1.0);
        for (int i = 0; i < k * n; i++)
            b[i] = (float)(noise(&st, 1.0) - 1.0);
        for (int i = 0; i < m * n; i++)
            c[i] = 1e30f; /* must be overwritten */
        assert_int_equal(calib_sgemm(m, n, k, a, b, c), 0);
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int p = 0; p < k; p++)
                    s += (double)a[i * k + p] * b[p * n + j];
                assert_true(fabs(s - c[i * n + j]) < 1e-4 * (1 + sqrt((double)k)));
            }
        free(a);
        free(b);
        free(c);
    }
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

/* --- preset matching and file names --------------------------------------- */

static engine_gpu mkgpu(const char *name, const char *display, double mem)
{
    engine_gpu g;
    memset(&g, 0, sizeof g);
    snprintf(g.name, sizeof g.name, "%s", name);
    snprintf(g.display, sizeof g.display, "%s", display);
    g.memory_bytes = mem;
    g.peak_flops[ENGINE_FP16] = 1e14;
    g.hbm_bytes_per_s = 1e12;
    return g;
}

static void test_match_preset(void **state)
{
    (void)state;
    engine_gpu g[9];
    g[0] = mkgpu("a100-40gb", "A100 SXM4 40GB", 40e9);
    g[1] = mkgpu("a100-80gb", "A100 SXM4 80GB", 80e9);
    g[2] = mkgpu("h100-pcie", "H100 PCIe 80GB", 80e9);
    g[3] = mkgpu("h100-sxm", "H100 SXM5 80GB", 80e9);
    g[4] = mkgpu("h200", "H200 SXM 141GB", 141e9);
    g[5] = mkgpu("l40s", "L40S 48GB", 48e9);
    g[6] = mkgpu("rtx-4090", "GeForce RTX 4090", 24e9);
    g[7] = mkgpu("rtx-2070", "GeForce RTX 2070", 8e9);
    g[8] = mkgpu("b200", "B200 180GB", 180e9);
    struct { const char *dev; double mem; const char *want; } cases[] = {
        {"NVIDIA H100 80GB HBM3", 85.0e9, "h100-sxm"},
        {"NVIDIA H100 PCIe", 85.0e9, "h100-pcie"},
        {"NVIDIA A100-SXM4-80GB", 85.1e9, "a100-80gb"},
        {"NVIDIA A100-SXM4-40GB", 42.4e9, "a100-40gb"},
        {"NVIDIA A100-PCIE-40GB", 42.4e9, "a100-40gb"},
        {"NVIDIA H200", 150e9, "h200"},
        {"NVIDIA L40S", 48.3e9, "l40s"},
        {"NVIDIA GeForce RTX 4090", 25.3e9, "rtx-4090"},
        {"NVIDIA GeForce RTX 2070", 8.4e9, "rtx-2070"},
        {"NVIDIA B200", 191e9, "b200"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int k = calib_match_gpu_preset(cases[i].dev, cases[i].mem, g, 9);
        assert_true(k >= 0);
        if (strcmp(g[k].name, cases[i].want) != 0)
            fail_msg("%s -> %s, want %s", cases[i].dev, g[k].name, cases[i].want);
    }
    assert_int_equal(calib_match_gpu_preset("NVIDIA L40", 48e9, g, 9), -1);
    assert_int_equal(calib_match_gpu_preset("NVIDIA Tesla T4", 16e9, g, 9), -1);
    assert_int_equal(calib_match_gpu_preset("CPU Intel(R) Xeon(R)", 0, g, 9), -1);
    assert_int_equal(calib_match_gpu_preset(NULL, 0, g, 9), -1);

    char buf[128];
    calib_store_file_name("NVIDIA H100 80GB HBM3", buf, sizeof buf);
    assert_string_equal(buf, "nvidia-h100-80gb-hbm3.json");
    calib_store_file_name("CPU Intel(R) Xeon(R) Processor", buf, sizeof buf);
    assert_string_equal(buf, "cpu-intel-r-xeon-r-processor.json");
    calib_store_file_name("../..//", buf, sizeof buf);
    assert_string_equal(buf, "device.json");
}

/* The heuristic against the shipped presets, with the names drivers
 * report. */
static void test_match_shipped_presets(void **state)
{
    (void)state;
    preset_db *db = NULL;
    engine_error err = {{0}};
    assert_int_equal(preset_db_load("", &db, &err), 0);
    struct { const char *dev; double mem; const char *want; } cases[] = {
        {"NVIDIA H100 80GB HBM3", 85.0e9, "h100-sxm"},
        {"NVIDIA H100 PCIe", 85.0e9, "h100-pcie"},
        {"NVIDIA A100-SXM4-80GB", 85.1e9, "a100-80gb"},
        {"NVIDIA A100-SXM4-40GB", 42.4e9, "a100-40gb"},
        {"NVIDIA H200", 150e9, "h200"},
        {"NVIDIA L40S", 48.3e9, "l40s"},
        {"NVIDIA L4", 23.8e9, "l4"},
        {"NVIDIA A10G", 23.8e9, "a10g"},
        {"NVIDIA GeForce RTX 2070", 8.4e9, "rtx-2070"},
        {"NVIDIA GeForce RTX 4090", 25.3e9, "rtx-4090"},
        {"NVIDIA B200", 191e9, "b200"},
        {"NVIDIA GeForce RTX 2070 SUPER", 8.4e9, NULL},
        {"NVIDIA H100 NVL", 100e9, NULL},
        {"Tesla T4", 16e9, NULL},
        {"NVIDIA L40", 48e9, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int k = calib_match_gpu_preset(cases[i].dev, cases[i].mem, db->gpus, db->n_gpus);
        const char *got = k >= 0 ? db->gpus[k].name : NULL;
        if (cases[i].want ? !got || strcmp(got, cases[i].want) : got != NULL)
            fail_msg("%s -> %s, want %s", cases[i].dev, got ? got : "(none)",
                     cases[i].want ? cases[i].want : "(none)");
    }
    preset_db_free(db);
}

/* --- store ------------------------------------------------------------------ */

static char tmpdir[256];

static int setup_tmp(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/shardscope-test-calib-XXXXXX");
    if (!mkdtemp(tmpdir))
        return -1;
    return 0;
}

static int teardown_tmp(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A small, complete result as calib_run would produce. */
static void fake_result(calib_result *r, const char *backend, const char *device,
                        const char *preset, const char *date, double eta_c)
{
    memset(r, 0, sizeof *r);
    snprintf(r->dev.backend, sizeof r->dev.backend, "%s", backend);
    snprintf(r->dev.name, sizeof r->dev.name, "%s", device);
    snprintf(r->dev.dtype, sizeof r->dev.dtype, "fp16");
    snprintf(r->preset, sizeof r->preset, "%s", preset);
    snprintf(r->date, sizeof r->date, "%s", date);
    calib_point p[80];
    int n = roofline_data_form(p, 80, CALIB_ROOFLINE_ENGINE, 989e12, 3.35e12, eta_c, 0.8,
                               5e-6);
    for (int i = 0; i < n; i++)
        assert_int_equal(calib_result_add_point(r, &p[i]), 0);
    for (double b = 1024; b <= (1u << 20); b *= 4)
        assert_int_equal(calib_result_add_comm(r, b, 1e-5 + b / 5e9), 0);
    snprintf(r->comm_label, sizeof r->comm_label, "loopback (2 local processes)");
    r->roofline.peak_flops = 989e12;
    r->roofline.bandwidth = 3.35e12;
    assert_int_equal(calib_result_fit(r, NULL), 0);
}

static void test_store_roundtrip(void **state)
{
    (void)state;
    calib_result r;
    fake_result(&r, "cuda", "NVIDIA H100 80GB HBM3", "h100-sxm", "2026-11-29T09:00:00Z", 0.7);
    char path[700];
    snprintf(path, sizeof path, "%s/a/b/nvidia-h100-80gb-hbm3.json", tmpdir);
    engine_error err = {{0}};
    assert_int_equal(calib_store_save(&r, path, CALIB_STORE_NORMAL, &err), 0);
    engine_calib c;
    char preset[64];
    assert_int_equal(calib_store_load_file(path, &c, preset, sizeof preset, &err), 0);
    assert_int_equal(c.measured, 1);
    assert_string_equal(c.backend, "cuda");
    assert_string_equal(c.device, "NVIDIA H100 80GB HBM3");
    assert_string_equal(c.date, "2026-11-29T09:00:00Z");
    assert_string_equal(preset, "h100-sxm");
    assert_true(REL(c.eta_compute, 0.7) < 1e-6);
    assert_true(REL(c.eta_memory, 0.8) < 1e-6);
    assert_true(REL(c.layer_overhead_s, 5e-6) < 1e-6);

    /* The JSON carries what --json promises. */
    char *text = calib_result_to_json(&r);
    assert_non_null(text);
    cJSON *j = cJSON_Parse(text);
    assert_non_null(j);
    assert_string_equal(cJSON_GetObjectItem(j, "backend")->valuestring, "cuda");
    assert_true(cJSON_IsArray(cJSON_GetObjectItem(j, "points")));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "points")), r.n_points);
    const char *keys[][2] = {{"power_law", "a"},       {"power_law", "beta"},
                             {"power_law", "mape"},    {"power_law", "r2"},
                             {"roofline", "eta_compute"}, {"roofline", "eta_memory"},
                             {"roofline", "overhead_s"}, {"roofline", "mape"},
                             {"roofline", "r2"},       {"comm", "alpha_s"},
                             {"comm", "bandwidth_bytes_per_s"}, {"comm", "r2"}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        cJSON *o = cJSON_GetObjectItem(j, keys[i][0]);
        assert_non_null(o);
        assert_true(cJSON_IsNumber(cJSON_GetObjectItem(o, keys[i][1])));
    }
    cJSON_Delete(j);
    free(text);

    calib_plot_row rows[128];
    int nr = calib_result_plot_rows(&r, rows, 128);
    assert_int_equal(nr, r.n_points - 1); /* every point but the copy */
    assert_true(REL(rows[0].roofline_s, rows[0].measured_s) < 1e-6);
    assert_true(rows[0].power_law_s > 0);
    calib_result_free(&r);
    calib_result_free(&r); /* twice is safe */
}

static int count_tmp_files(const char *dir)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -c '\\.tmp\\.'", dir);
    FILE *f = popen(cmd, "r");
    int n = -1;
    if (f) {
        if (fscanf(f, "%d", &n) != 1)
            n = -1;
        pclose(f);
    }
    return n;
}

static void test_store_crash_between_write_and_rename(void **state)
{
    (void)state;
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/crash", tmpdir);
    snprintf(path, sizeof path, "%s/nvidia-h100-80gb-hbm3.json", dir);
    calib_result old, neu;
    fake_result(&old, "cuda", "NVIDIA H100 80GB HBM3", "h100-sxm", "2026-11-01T00:00:00Z", 0.5);
    fake_result(&neu, "cuda", "NVIDIA H100 80GB HBM3", "h100-sxm", "2026-11-29T00:00:00Z", 0.75);
    engine_error err = {{0}};
    assert_int_equal(calib_store_save(&old, path, CALIB_STORE_NORMAL, &err), 0);
    /* The new calibration is written and synced, then the process "dies"
     * before the rename. */
    assert_int_equal(calib_store_save(&neu, path, CALIB_STORE_STOP_AFTER_WRITE, &err), 0);
    assert_int_equal(count_tmp_files(dir), 1);
    engine_calib c;
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), 0);
    assert_true(REL(c.eta_compute, 0.5) < 1e-6);
    assert_string_equal(c.date, "2026-11-01T00:00:00Z");
    /* The loader ignores the orphaned temporary file. */
    assert_int_equal(calib_store_load_for_gpu_in(dir, "h100-sxm", &c, &err), 1);
    assert_true(REL(c.eta_compute, 0.5) < 1e-6);
    /* A completed save replaces it. */
    assert_int_equal(calib_store_save(&neu, path, CALIB_STORE_NORMAL, &err), 0);
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), 0);
    assert_true(REL(c.eta_compute, 0.75) < 1e-6);
    calib_result_free(&old);
    calib_result_free(&neu);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_store_for_gpu(void **state)
{
    (void)state;
    char dir[512], path[600];
    snprintf(dir, sizeof dir, "%s/forgpu", tmpdir);
    engine_error err = {{0}};
    engine_calib c;
    /* No directory yet: none, not an error. */
    assert_int_equal(calib_store_load_for_gpu_in(dir, "h100-sxm", &c, &err), 0);
    assert_int_equal(c.measured, 0);

    calib_result r;
    /* A CPU result, even one claiming a GPU preset, is never applied. */
    fake_result(&r, "cpu", "CPU Xeon", "h100-sxm", "2026-11-29T10:00:00Z", 0.9);
    snprintf(path, sizeof path, "%s/cpu-xeon.json", dir);
    assert_int_equal(calib_store_save(&r, path, CALIB_STORE_NORMAL, &err), 0);
    calib_result_free(&r);
    assert_int_equal(calib_store_load_for_gpu_in(dir, "h100-sxm", &c, &err), 0);
    /* ... but loads when named explicitly. */
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), 0);
    assert_string_equal(c.backend, "cpu");

    fake_result(&r, "cuda", "NVIDIA H100 80GB HBM3", "h100-sxm", "2026-11-02T00:00:00Z", 0.6);
    snprintf(path, sizeof path, "%s/one.json", dir);
    assert_int_equal(calib_store_save(&r, path, CALIB_STORE_NORMAL, &err), 0);
    calib_result_free(&r);
    fake_result(&r, "cuda", "NVIDIA H100 80GB HBM3", "h100-sxm", "2026-11-20T00:00:00Z", 0.65);
    snprintf(path, sizeof path, "%s/two.json", dir);
    assert_int_equal(calib_store_save(&r, path, CALIB_STORE_NORMAL, &err), 0);
    calib_result_free(&r);
    assert_int_equal(calib_store_load_for_gpu_in(dir, "H100-SXM", &c, &err), 1);
    assert_true(REL(c.eta_compute, 0.65) < 1e-6); /* the newest */
    assert_int_equal(calib_store_load_for_gpu_in(dir, "a100-80gb", &c, &err), 0);

    /* Broken files: garbage is skipped; a file for this preset with a bad
     * field is reported, naming the field. */
    snprintf(path, sizeof path, "%s/garbage.json", dir);
    write_text(path, "{not json");
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), -1);
    assert_non_null(strstr(err.msg, "garbage.json: not a calibration file (invalid JSON"));
    snprintf(path, sizeof path, "%s/bad.json", dir);
    write_text(path, "{\"backend\":\"cuda\",\"device\":\"NVIDIA A100-SXM4-80GB\","
                     "\"date\":\"2026-11-29T00:00:00Z\",\"preset\":\"a100-80gb\","
                     "\"roofline\":{\"eta_compute\":-1,\"eta_memory\":0.8,\"overhead_s\":0}}");
    assert_int_equal(calib_store_load_for_gpu_in(dir, "a100-80gb", &c, &err), -1);
    char want[700];
    snprintf(want, sizeof want, "%s: roofline.eta_compute: expected a number in "
             "[1e-06, 2], got -1", path);
    assert_string_equal(err.msg, want);
    assert_int_equal(c.measured, 0);
    write_text(path, "{\"backend\":\"cuda\",\"device\":\"x\",\"date\":\"d\","
                     "\"roofline\":{\"eta_compute\":0.5,\"overhead_s\":0}}");
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), -1);
    snprintf(want, sizeof want, "%s: roofline.eta_memory: expected a number in "
             "[1e-06, 2], missing", path);
    assert_string_equal(err.msg, want);
    write_text(path, "{\"backend\":\"tpu\",\"device\":\"x\",\"date\":\"d\"}");
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), -1);
    snprintf(want, sizeof want, "%s: backend: expected \"cuda\" or \"cpu\", got \"tpu\"",
             path);
    assert_string_equal(err.msg, want);
    /* Still found for h100-sxm despite the broken neighbours. */
    assert_int_equal(calib_store_load_for_gpu_in(dir, "h100-sxm", &c, &err), 1);

    /* The default directory follows XDG_CONFIG_HOME. */
    char buf[600];
    setenv("XDG_CONFIG_HOME", tmpdir, 1);
    assert_non_null(calib_store_dir(buf, sizeof buf));
    snprintf(want, sizeof want, "%s/shardscope/calibration", tmpdir);
    assert_string_equal(buf, want);
    assert_int_equal(calib_store_load_for_gpu("h100-sxm", &c), 0);
    unsetenv("XDG_CONFIG_HOME");
}

/* --- the cuda backend without a GPU: the fake table ------------------------ */

static void test_cuda_no_gpu(void **state)
{
    (void)state;
    calib_cuda_api api = ts_fake_cuda_reset();
    api.error_string = NULL; /* the backend's own texts: the runtime's words */
    api.error_name = NULL;
    ts_fake.count_rc = 100; /* cudaErrorNoDevice */
    calib_opts o;
    calib_opts_defaults(&o);
    o.backend = CALIB_BACKEND_CUDA;
    o.cuda = &api;
    o.quick = 1;
    calib_result r;
    engine_error err = {{0}};
    assert_int_equal(calib_run(&o, &r, &err), CALIB_NO_GPU);
    assert_int_equal(r.n_points, 0);
#ifdef SHARDSCOPE_HAVE_CUDA
    assert_string_equal(err.msg, "no usable GPU: cudaGetDeviceCount failed: no CUDA-capable "
                                 "device is detected (cudaErrorNoDevice)");
    ts_fake.count_rc = 35;
    assert_int_equal(calib_run(&o, &r, &err), CALIB_NO_GPU);
    assert_string_equal(err.msg, "no usable GPU: cudaGetDeviceCount failed: CUDA driver "
                                 "version is insufficient for CUDA runtime version "
                                 "(cudaErrorInsufficientDriver)");
    ts_fake.count_rc = 0;
    ts_fake.count = 0;
    assert_int_equal(calib_run(&o, &r, &err), CALIB_NO_GPU);
    assert_string_equal(err.msg, "no usable GPU: the CUDA driver reports no device");
    ts_fake.count = 1;
    o.device = 3;
    assert_int_equal(calib_run(&o, &r, &err), CALIB_NO_GPU);
    assert_string_equal(err.msg, "no CUDA device 3 (1 device visible)");
    /* A table without one of the calls is refused by name, not called. */
    o.device = 0;
    api.mem_copy = NULL;
    assert_int_equal(calib_run(&o, &r, &err), CALIB_NO_GPU);
    assert_string_equal(err.msg, "no usable GPU: the CUDA table has no cudaMemcpy");
#else
    assert_non_null(strstr(err.msg, "this build has no CUDA support"));
#endif
    assert_null(strchr(err.msg, '\n'));
    calib_result_free(&r);
}

static void test_cuda_blas_create_fails(void **state)
{
    (void)state;
#ifdef SHARDSCOPE_HAVE_CUDA
    calib_cuda_api api = ts_fake_cuda_reset();
    ts_fake.blas_create_rc = 1; /* CUBLAS_STATUS_NOT_INITIALIZED */
    calib_opts o;
    calib_opts_defaults(&o);
    o.backend = CALIB_BACKEND_CUDA;
    o.cuda = &api;
    calib_result r;
    engine_error err = {{0}};
    assert_int_equal(calib_run(&o, &r, &err), CALIB_NO_GPU);
    assert_string_equal(err.msg, "cuBLAS cannot start on GPU 0: cublasCreate returned "
                                 "CUBLAS_STATUS_NOT_INITIALIZED");
    assert_int_equal(ts_fake.allocs, 5);
    assert_int_equal(ts_fake.frees, 5); /* nothing leaked on the way out */
    calib_result_free(&r);

    /* Out of device memory on the third buffer: a runtime failure. */
    api = ts_fake_cuda_reset();
    ts_fake.fail_alloc_at = 3;
    assert_int_equal(calib_run(&o, &r, &err), CALIB_ERR);
    assert_non_null(strstr(err.msg, "out of GPU memory: cudaMalloc of "));
    assert_non_null(strstr(err.msg, "for the QKV output failed (out of memory); try --quick"));
    assert_int_equal(ts_fake.allocs, 2);
    assert_int_equal(ts_fake.frees, 2);
    calib_result_free(&r);
#else
    skip();
#endif
}

/* The whole GPU sweep through the fake table: the --quick grid, the
 * device as the table describes it, every buffer freed. */
static void test_cuda_measure_fake(void **state)
{
    (void)state;
#ifdef SHARDSCOPE_HAVE_CUDA
    calib_cuda_api api = ts_fake_cuda_reset();
    calib_opts o;
    calib_opts_defaults(&o);
    o.cuda = &api;
    o.quick = 1;
    calib_result r;
    memset(&r, 0, sizeof r);
    engine_error err = {{0}};
    assert_int_equal(calib_cuda_measure(&o, &r, &err), CALIB_OK);
    assert_int_equal(r.n_points, 3 * 2 * 2 + 3 + 1); /* prefill, decode, copy */
    assert_int_equal(r.points[0].kind, CALIB_POINT_PREFILL);
    assert_int_equal(r.points[0].hidden, 768);
    assert_int_equal(r.points[0].batch, 1);
    assert_int_equal(r.points[0].seq, 512);
    assert_int_equal(r.points[11].hidden, 4096);
    assert_int_equal(r.points[11].batch, 4);
    assert_int_equal(r.points[11].seq, 2048);
    assert_int_equal(r.points[12].kind, CALIB_POINT_DECODE);
    assert_int_equal(r.points[14].batch, 256);
    assert_int_equal(r.points[15].kind, CALIB_POINT_COPY);
    for (int i = 0; i < r.n_points; i++)
        assert_true(fabs(r.points[i].time_s - 1e-3) < 1e-12); /* the fake's 1 ms */
    assert_int_equal(ts_fake.gemms, 4 * 4 * 15); /* 4 GEMMs x (warm-up + 3) x 15 */
    assert_string_equal(r.dev.backend, "cuda");
    assert_string_equal(r.dev.name, "Fake GPU");
    assert_int_equal(r.dev.sm_count, 10);
    assert_int_equal(r.dev.cc_major, 9);
    assert_int_equal(r.dev.count, 1);
    assert_int_equal(r.dev.runtime_version, 13000);
    assert_true(r.dev.memory_bytes == (double)((size_t)80 << 30));
    assert_int_equal(ts_fake.allocs, 5);
    assert_int_equal(ts_fake.frees, 5);
    calib_result_free(&r);
#else
    skip();
#endif
}

static void test_cuda_probe_real(void **state)
{
    (void)state;
    /* This machine may or may not have a GPU: either a count or a one-line
     * reason, never a crash. */
    int count = -1;
    engine_error err = {{0}};
    int rc = calib_cuda_probe(NULL, &count, &err);
    if (rc == 0) {
        assert_true(count > 0);
    } else {
        assert_int_equal(count, 0);
        assert_true(strlen(err.msg) > 10);
        assert_null(strchr(err.msg, '\n'));
    }
}

/* --- the NCCL sweeps' size loop, with a fake timing op ---------------------- */

/* T = alpha + bytes / bw, except that the first (warm-up) call of each size
 * is 50x slower and one timed call per size 3x: the median of 5 must not
 * see either.  fail_at: a size whose call number fail_call fails (returns
 * 7); bad_time: a size whose calls report that time instead. */
typedef struct fake_op {
    double alpha, bw;
    size_t last;
    int call;      /* calls of the current size */
    int calls;     /* all calls */
    size_t fail_at;
    int fail_call;
    size_t bad_at;
    double bad_time;
} fake_op;

static int fake_op_fn(void *ctx, size_t bytes, double *seconds)
{
    fake_op *f = ctx;
    if (bytes != f->last) {
        f->last = bytes;
        f->call = 0;
    }
    f->call++;
    f->calls++;
    if (f->fail_at == bytes && f->call == f->fail_call)
        return 7;
    double t = f->alpha + (double)bytes / f->bw;
    if (f->bad_at == bytes)
        t = f->bad_time;
    else if (f->call == 1)
        t *= 50; /* warm-up */
    else if (f->call == 3)
        t *= 3;  /* an outlier among the timed calls */
    *seconds = t;
    return 0;
}

typedef struct progress_log {
    int n;
    double last;
    int monotonic;
    char step[64];
} progress_log;

static void progress_rec(void *ctx, double f, const char *step)
{
    progress_log *p = ctx;
    if (f < p->last || f < 0 || f >= 1)
        p->monotonic = 0;
    p->last = f;
    p->n++;
    snprintf(p->step, sizeof p->step, "%s", step);
}

static void test_comm_sweep_fit(void **state)
{
    (void)state;
    fake_op f = {8e-6, 45e9, 0, 0, 0, 0, 0, 0, 0};
    calib_comm_sweep_spec spec = {"fake p2p", 1024, (size_t)1 << 30, 4, 1, 5};
    progress_log pl = {0, 0, 1, ""};
    calib_opts o;
    calib_opts_defaults(&o);
    o.progress = progress_rec;
    o.progress_ctx = &pl;
    calib_comm_point *pts = NULL;
    int n = 0;
    engine_error err = {{0}};
    int rc = calib_comm_sweep(&o, &spec, fake_op_fn, &f, &pts, &n, &err);
    if (rc != 0)
        fail_msg("calib_comm_sweep: %d: %s", rc, err.msg);
    assert_int_equal(n, 11); /* 1 KiB, 4 KiB, ..., 1 GiB */
    assert_int_equal(f.calls, 11 * 6);
    assert_int_equal(pl.n, 11);
    assert_true(pl.monotonic);
    assert_string_equal(pl.step, "fake p2p");
    for (int i = 0; i < n; i++) {
        assert_true(pts[i].bytes == 1024.0 * pow(4, i));
        assert_true(REL(pts[i].time_s, 8e-6 + pts[i].bytes / 45e9) < 1e-12);
    }
    calib_alpha_beta fit;
    assert_int_equal(calib_fit_alpha_beta(pts, n, &fit, &err), 0);
    assert_true(REL(fit.alpha_s, 8e-6) < 0.01);
    assert_true(REL(fit.bandwidth, 45e9) < 0.01);
    assert_true(fit.r2 > 0.999999);

    /* A second sweep appends (past 16 points: the series grows); an even
     * number of repeats takes the mean of the middle two; a factor of 2
     * and a top that is not on the grid. */
    calib_comm_sweep_spec s2 = {"fake", 0, 100000, 2, 0, 4};
    fake_op g = {1e-5, 1e9, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(calib_comm_sweep(NULL, &s2, fake_op_fn, &g, &pts, &n, &err), 0);
    assert_int_equal(n, 11 + 7); /* 1, 2, ..., 64 KiB */
    assert_true(pts[10].bytes == (double)(1u << 30));
    for (int i = 11; i < n; i++) {
        double b = 1024.0 * pow(2, i - 11), t = 1e-5 + b / 1e9;
        assert_true(pts[i].bytes == b);
        /* calls 1..4 timed: t*50, t, t*3, t -> middle two t, t*3 */
        assert_true(REL(pts[i].time_s, 2 * t) < 1e-12);
    }
    free(pts);
}

static void test_comm_sweep_errors(void **state)
{
    (void)state;
    calib_comm_sweep_spec spec = {"fake p2p", 1024, 1u << 20, 4, 1, 3};
    engine_error err = {{0}};
    calib_result r;
    memset(&r, 0, sizeof r);
    assert_int_equal(calib_result_add_p2p(&r, 512, 1e-6), 0);
    assert_int_equal(calib_result_add_p2p(&r, 2048, 2e-6), 0);

    /* The op fails on a timed call: a sentence, the series untouched. */
    fake_op f = {8e-6, 45e9, 0, 0, 0, 65536, 3, 0, 0};
    assert_int_equal(calib_comm_sweep(NULL, &spec, fake_op_fn, &f, &r.p2p, &r.n_p2p, &err), -1);
    assert_string_equal(err.msg, "fake p2p: timed run of 65536 bytes failed (code 7)");
    assert_int_equal(r.n_p2p, 2);
    assert_true(r.p2p[0].bytes == 512 && r.p2p[1].bytes == 2048 && r.p2p[1].time_s == 2e-6);
    /* ... on the warm-up. */
    fake_op w = {8e-6, 45e9, 0, 0, 0, 1024, 1, 0, 0};
    assert_int_equal(calib_comm_sweep(NULL, &spec, fake_op_fn, &w, &r.p2p, &r.n_p2p, &err), -1);
    assert_string_equal(err.msg, "fake p2p: warm-up of 1024 bytes failed (code 7)");
    assert_int_equal(w.calls, 1);
    assert_int_equal(r.n_p2p, 2);
    /* A time that is no time. */
    fake_op z = {8e-6, 45e9, 0, 0, 0, 0, 0, 4096, 0};
    assert_int_equal(calib_comm_sweep(NULL, &spec, fake_op_fn, &z, &r.p2p, &r.n_p2p, &err), -1);
    assert_string_equal(err.msg,
                        "fake p2p: 4096 bytes took 0 s; a time must be positive and finite");
    z.last = 0;
    z.bad_time = NAN;
    assert_int_equal(calib_comm_sweep(NULL, &spec, fake_op_fn, &z, &r.p2p, &r.n_p2p, &err), -1);
    assert_string_equal(err.msg,
                        "fake p2p: 4096 bytes took nan s; a time must be positive and finite");
    assert_int_equal(r.n_p2p, 2);

    /* From an empty series: still nothing allocated after a failure. */
    calib_comm_point *pts = NULL;
    int n = 0;
    f.last = 0;
    f.calls = 0;
    assert_int_equal(calib_comm_sweep(NULL, &spec, fake_op_fn, &f, &pts, &n, &err), -1);
    assert_null(pts);
    assert_int_equal(n, 0);

    /* Cancelled before the first size: 3, the op never called. */
    atomic_int stop = 1;
    calib_opts o;
    calib_opts_defaults(&o);
    o.cancel = &stop;
    f.calls = 0;
    assert_int_equal(calib_comm_sweep(&o, &spec, fake_op_fn, &f, &pts, &n, &err), CALIB_CANCELLED);
    assert_int_equal(f.calls, 0);
    assert_null(pts);
    assert_int_equal(n, 0);

    /* A sweep that cannot be run. */
    calib_comm_sweep_spec bad = spec;
    bad.reps = 0;
    assert_int_equal(calib_comm_sweep(NULL, &bad, fake_op_fn, &f, &pts, &n, &err), -1);
    assert_string_equal(err.msg, "fake p2p: bad sweep (sizes 1024..1048576 bytes, factor 4, "
                                 "1 warm-up, 0 repeats; need 1..64 repeats)");
    bad = spec;
    bad.max_bytes = 512;
    assert_int_equal(calib_comm_sweep(NULL, &bad, fake_op_fn, &f, &pts, &n, &err), -1);
    assert_non_null(strstr(err.msg, "bad sweep (sizes 1024..512 bytes"));
    assert_int_equal(calib_comm_sweep(NULL, &spec, NULL, &f, &pts, &n, &err), -1);
    assert_int_equal(calib_comm_sweep(NULL, NULL, fake_op_fn, &f, &pts, &n, &err), -1);
    assert_string_equal(err.msg, "comm sweep: bad sweep (sizes 1024..0 bytes, factor 4, "
                                 "0 warm-ups, 0 repeats; need 1..64 repeats)");
    assert_null(pts);
    calib_result_free(&r);
}

/* The send/recv series beside the all-reduce one: its own fit, JSON block
 * and note; the comm block as before. */
static void test_comm_p2p_result(void **state)
{
    (void)state;
    calib_result r;
    fake_result(&r, "cuda", "NVIDIA H100 80GB HBM3", "h100-sxm", "2026-11-29T09:00:00Z", 0.7);
    fake_op f = {6e-6, 150e9, 0, 0, 0, 0, 0, 0, 0};
    calib_comm_sweep_spec spec = {"nccl send/recv", 1024, (size_t)1 << 30, 4, 1, 3};
    engine_error err = {{0}};
    assert_int_equal(calib_comm_sweep(NULL, &spec, fake_op_fn, &f, &r.p2p, &r.n_p2p, &err), 0);
    snprintf(r.p2p_label, sizeof r.p2p_label, "NCCL send/recv (GPU 0 -> GPU 1)");
    double comm_alpha = r.comm_fit.alpha_s;
    assert_int_equal(calib_result_fit(&r, &err), 0);
    assert_true(r.has_p2p_fit);
    assert_int_equal(r.p2p_fit.n, 11);
    assert_true(REL(r.p2p_fit.alpha_s, 6e-6) < 0.01);
    assert_true(REL(r.p2p_fit.bandwidth, 150e9) < 0.01);
    assert_true(r.has_comm_fit);
    assert_true(r.comm_fit.alpha_s == comm_alpha);

    char *text = calib_result_to_json(&r);
    assert_non_null(text);
    cJSON *j = cJSON_Parse(text);
    free(text);
    assert_non_null(j);
    cJSON *c = cJSON_GetObjectItem(j, "comm");
    assert_non_null(c);
    assert_string_equal(cJSON_GetObjectItem(c, "label")->valuestring,
                        "loopback (2 local processes)");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(c, "points")), r.n_comm);
    cJSON *p = cJSON_GetObjectItem(j, "comm_p2p");
    assert_non_null(p);
    assert_string_equal(cJSON_GetObjectItem(p, "label")->valuestring,
                        "NCCL send/recv (GPU 0 -> GPU 1)");
    assert_true(REL(cJSON_GetObjectItem(p, "alpha_s")->valuedouble, 6e-6) < 0.01);
    assert_true(REL(cJSON_GetObjectItem(p, "bandwidth_bytes_per_s")->valuedouble, 150e9) <
                0.01);
    assert_true(cJSON_GetObjectItem(p, "r2")->valuedouble > 0.999999);
    assert_true(cJSON_IsNumber(cJSON_GetObjectItem(p, "mape")));
    assert_non_null(strstr(cJSON_GetObjectItem(p, "convention")->valuestring,
                           "algbw = busbw = bytes / time"));
    cJSON *pp = cJSON_GetObjectItem(p, "points");
    assert_int_equal(cJSON_GetArraySize(pp), 11);
    assert_true(cJSON_GetObjectItem(cJSON_GetArrayItem(pp, 10), "bytes")->valuedouble ==
                (double)(1u << 30));
    assert_null(cJSON_GetObjectItem(j, "comm_p2p_note"));
    cJSON_Delete(j);

    /* One size cannot be fitted: a note instead of the block. */
    r.n_p2p = 1;
    assert_int_equal(calib_result_fit(&r, &err), 0);
    assert_false(r.has_p2p_fit);
    assert_string_equal(r.p2p_error, "alpha-beta: need at least 2 message sizes, got 1 point");
    text = calib_result_to_json(&r);
    assert_non_null(text);
    j = cJSON_Parse(text);
    free(text);
    assert_non_null(j);
    assert_null(cJSON_GetObjectItem(j, "comm_p2p"));
    assert_string_equal(cJSON_GetObjectItem(j, "comm_p2p_note")->valuestring, r.p2p_error);
    assert_non_null(cJSON_GetObjectItem(j, "comm"));
    cJSON_Delete(j);
    /* Refitted with every size again: the stale note goes. */
    r.n_p2p = 11;
    assert_int_equal(calib_result_fit(&r, &err), 0);
    assert_true(r.has_p2p_fit);
    assert_string_equal(r.p2p_error, "");
    calib_result_free(&r); /* frees the p2p series too */
}

/* --- CPU end to end, loopback, worker thread -------------------------------- */

static void test_loopback(void **state)
{
    (void)state;
    calib_result r;
    memset(&r, 0, sizeof r);
    engine_error err = {{0}};
    /* Up to 4 MiB, as --quick: with 64 KiB at most, a loaded machine's
     * noise could hide the slope and the fit (rightly) refused. */
    int rc = calib_comm_loopback(NULL, 4 * 1024 * 1024, &r, &err);
    if (rc != 0) {
        calib_result_free(&r);
        fail_msg("calib_comm_loopback returned %d: %s", rc, err.msg);
    }
    assert_int_equal(r.n_comm, 7); /* 1, 4, 16, 64, 256 KiB, 1, 4 MiB */
    assert_string_equal(r.comm_label, "loopback (2 local processes)");
    for (int i = 0; i < r.n_comm; i++)
        assert_true(r.comm[i].time_s > 0);
    calib_alpha_beta f;
    rc = calib_fit_alpha_beta(r.comm, r.n_comm, &f, &err);
    calib_result_free(&r);
    if (rc != 0)
        fail_msg("alpha-beta fit: %s", err.msg);
    assert_true(f.bandwidth > 0);
}

static void test_cpu_run_auto(void **state)
{
    (void)state;
    calib_cuda_api api = ts_fake_cuda_reset();
    ts_fake.count_rc = 100;
    calib_opts o;
    calib_opts_defaults(&o);
    o.backend = CALIB_BACKEND_AUTO;
    o.cuda = &api; /* no GPU, whatever this machine has */
    o.quick = 1;
    o.skip_comm = 1;
    calib_result r;
    engine_error err = {{0}};
    assert_int_equal(calib_run(&o, &r, &err), 0);
    assert_string_equal(r.dev.backend, "cpu");
    assert_non_null(strstr(r.notes, "auto: no usable GPU"));
    assert_non_null(strstr(r.notes, "measured the CPU instead"));
    assert_true(r.n_points >= 20);
    assert_true(r.has_power_law);
    assert_true(r.roofline.eta_compute > 0 && r.roofline.eta_compute <= 1.0 + 1e-9);
    assert_true(r.roofline.eta_memory > 0);
    assert_true(r.roofline.overhead_s >= 0);
    assert_string_equal(r.preset, "");
    engine_calib c;
    calib_result_to_engine(&r, &c);
    assert_int_equal(c.measured, 1);
    assert_string_equal(c.backend, "cpu");
    calib_result_free(&r);
}

static void test_job_cancel_keeps_file(void **state)
{
    (void)state;
    setenv("XDG_CONFIG_HOME", tmpdir, 1);
    /* An existing calibration for this CPU. */
    calib_result old;
    fake_result(&old, "cpu", "placeholder", "", "2026-01-01T00:00:00Z", 0.5);
    calib_result probe;
    calib_opts o;
    calib_opts_defaults(&o);
    o.backend = CALIB_BACKEND_CPU;
    o.quick = 1;
    o.skip_comm = 1;
    /* The CPU's name, as the job will store it. */
    calib_job *job = NULL;
    engine_error err = {{0}};
    assert_int_equal(calib_job_start(&o, 0, &job, &err), 0);
    calib_status status = CALIB_ERR;
    while (!calib_job_poll(job, &status, &probe, &err)) {
        double f = calib_job_progress(job);
        assert_true(f >= 0 && f <= 1);
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    assert_int_equal(status, CALIB_OK);
    snprintf(old.dev.name, sizeof old.dev.name, "%s", probe.dev.name);
    assert_true(probe.n_points > 0);
    calib_result_free(&probe);
    /* A second poll gives an empty result. */
    assert_int_equal(calib_job_poll(job, &status, &probe, &err), 1);
    assert_int_equal(probe.n_points, 0);
    calib_job_free(job);

    char path[600];
    assert_int_equal(calib_store_save_default(&old, path, sizeof path, &err), 0);
    calib_result_free(&old);

    /* Cancel a saving job at once: the stored file is untouched. */
    assert_int_equal(calib_job_start(&o, 1, &job, &err), 0);
    calib_job_cancel(job);
    while (!calib_job_poll(job, &status, &probe, &err)) {
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    assert_int_equal(status, CALIB_CANCELLED);
    assert_int_equal(probe.n_points, 0);
    calib_job_free(job);
    engine_calib c;
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), 0);
    assert_string_equal(c.date, "2026-01-01T00:00:00Z");

    /* Free while running: cancels and joins. */
    assert_int_equal(calib_job_start(&o, 1, &job, &err), 0);
    calib_job_free(job);
    calib_job_free(NULL);
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), 0);
    assert_string_equal(c.date, "2026-01-01T00:00:00Z");

    /* A job with no GPU reports the reason. */
    calib_cuda_api api = ts_fake_cuda_reset();
    ts_fake.count_rc = 100;
    o.backend = CALIB_BACKEND_CUDA;
    o.cuda = &api;
    assert_int_equal(calib_job_start(&o, 1, &job, &err), 0);
    while (!calib_job_poll(job, &status, &probe, &err)) {
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    assert_int_equal(status, CALIB_NO_GPU);
    assert_non_null(strstr(err.msg, "no usable GPU") ? err.msg : strstr(err.msg, "no CUDA"));
    calib_job_free(job);
    unsetenv("XDG_CONFIG_HOME");
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
        cmocka_unit_test(test_sgemm),
        cmocka_unit_test(test_layer_cost),
        cmocka_unit_test(test_match_preset),
        cmocka_unit_test(test_match_shipped_presets),
        cmocka_unit_test(test_store_roundtrip),
        cmocka_unit_test(test_store_crash_between_write_and_rename),
        cmocka_unit_test(test_store_for_gpu),
        cmocka_unit_test(test_cuda_no_gpu),
        cmocka_unit_test(test_cuda_blas_create_fails),
        cmocka_unit_test(test_cuda_measure_fake),
        cmocka_unit_test(test_cuda_probe_real),
        cmocka_unit_test(test_comm_sweep_fit),
        cmocka_unit_test(test_comm_sweep_errors),
        cmocka_unit_test(test_comm_p2p_result),
        cmocka_unit_test(test_loopback),
        cmocka_unit_test(test_cpu_run_auto),
        cmocka_unit_test(test_job_cancel_keeps_file),
    };
    return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
