/*
 * test_calib_result.c - calib/result.c: the container (series growing,
 * freeing twice, the engine's view) and calib_result_fit on the shared
 * fixture with a send/recv series: its own fit, JSON block and note, the
 * all-reduce fit untouched, a stale note cleared on a refit.
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
#include "calib_fixture.h"

#define REL(a, b) (fabs((a) - (b)) / fabs(b))

/* The owned series grow past their first allocation and free (twice is
 * safe); the engine's view of a result is its roofline. */
static void test_result_container(void **state)
{
    (void)state;
    calib_result r;
    memset(&r, 0, sizeof r);
    for (int i = 0; i < 100; i++) {
        calib_point p = {CALIB_POINT_DECODE, 4096, i + 1, 1, i, 2.0 * i, 1e-6 * (i + 1)};
        assert_int_equal(calib_result_add_point(&r, &p), 0);
        assert_int_equal(calib_result_add_comm(&r, 1024.0 * (i + 1), 1e-5), 0);
        assert_int_equal(calib_result_add_p2p(&r, 2048.0 * (i + 1), 2e-5), 0);
    }
    assert_int_equal(r.n_points, 100);
    assert_int_equal(r.n_comm, 100);
    assert_int_equal(r.n_p2p, 100);
    assert_int_equal(r.points[99].batch, 100);
    assert_true(r.comm[99].bytes == 102400.0 && r.p2p[99].bytes == 204800.0);
    calib_result_free(&r);
    assert_null(r.points);
    assert_int_equal(r.n_points, 0);
    calib_result_free(&r);
    calib_result_free(NULL);

    assert_int_equal(ts_calib_fixture(&r), 0);
    engine_calib c;
    calib_result_to_engine(&r, &c);
    assert_int_equal(c.measured, 1);
    assert_string_equal(c.device, "NVIDIA H100 80GB HBM3");
    assert_string_equal(c.backend, "cuda");
    assert_string_equal(c.date, "2026-11-29T09:00:00Z");
    assert_true(c.eta_compute == 0.7 && c.eta_memory == 0.8 && c.layer_overhead_s == 8e-6);
    calib_result_free(&r);
}

/* The send/recv series beside the all-reduce one: its own fit, JSON block
 * and note; the comm block as before (the p2p series does not move it). */
static void test_comm_p2p_result(void **state)
{
    (void)state;
    calib_result r;
    assert_int_equal(ts_calib_fixture(&r), 0);
    snprintf(r.comm_label, sizeof r.comm_label, "loopback (2 local processes)");
    engine_error err = {{0}};
    assert_int_equal(calib_result_fit(&r, &err), 0); /* the all-reduce fitted alone */
    assert_true(r.has_comm_fit);
    double comm_alpha = r.comm_fit.alpha_s;
    assert_true(REL(comm_alpha, 12e-6) < 1e-6);
    /* 1 KiB .. 1 GiB in steps of 4x on T = 6 us + bytes / 150 GB/s. */
    for (double b = 1024; b <= (double)(1u << 30); b *= 4)
        assert_int_equal(calib_result_add_p2p(&r, b, 6e-6 + b / 150e9), 0);
    snprintf(r.p2p_label, sizeof r.p2p_label, "NCCL send/recv (GPU 0 -> GPU 1)");
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

    /* One size cannot be fitted: the note, and the block keeps the
     * measured size without fit fields (the engine interpolates the
     * series, not the fit). */
    r.n_p2p = 1;
    assert_int_equal(calib_result_fit(&r, &err), 0);
    assert_false(r.has_p2p_fit);
    assert_string_equal(r.p2p_error, "alpha-beta: need at least 2 message sizes, got 1 point");
    text = calib_result_to_json(&r);
    assert_non_null(text);
    j = cJSON_Parse(text);
    free(text);
    assert_non_null(j);
    p = cJSON_GetObjectItem(j, "comm_p2p");
    assert_non_null(p);
    assert_string_equal(cJSON_GetObjectItem(p, "label")->valuestring,
                        "NCCL send/recv (GPU 0 -> GPU 1)");
    assert_null(cJSON_GetObjectItem(p, "alpha_s"));
    assert_null(cJSON_GetObjectItem(p, "bandwidth_bytes_per_s"));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(p, "points")), 1);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_result_container),
        cmocka_unit_test(test_comm_p2p_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
