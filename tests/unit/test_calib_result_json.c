/*
 * test_calib_result_json.c - calib/result_json.c: the keys --json promises,
 * one key table both ways (a result written and read back gives the same
 * keys and values, and the text is a fixed point from then on), and the
 * checked fields' messages.
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

/* The JSON carries what --json promises. */
static void test_json_keys(void **state)
{
    (void)state;
    calib_result r;
    assert_int_equal(ts_calib_fixture(&r), 0);
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

    calib_result_free(&r);
}

/* The same tree: keys in the same order, equal strings and booleans,
 * numbers within 1e-12 relative. */
static int json_same(const cJSON *a, const cJSON *b)
{
    if (!a || !b || (a->type & 0xff) != (b->type & 0xff))
        return 0;
    if ((a->string || b->string) && (!a->string || !b->string || strcmp(a->string, b->string)))
        return 0;
    if (cJSON_IsNumber(a))
        return a->valuedouble == b->valuedouble ||
               fabs(a->valuedouble - b->valuedouble) <= 1e-12 * fabs(a->valuedouble);
    if (cJSON_IsString(a))
        return !strcmp(a->valuestring, b->valuestring);
    const cJSON *x = a->child, *y = b->child;
    for (; x && y; x = x->next, y = y->next)
        if (!json_same(x, y))
            return 0;
    return !x && !y;
}

/* One key table both ways: the text read back and written again is the
 * same text, every field the writer knows included. */
static void test_json_round_trip(void **state)
{
    (void)state;
    calib_result r, back;
    assert_int_equal(ts_calib_fixture(&r), 0);
    r.dev.index = 1;
    r.dev.count = 2;
    r.dev.sm_count = 132;
    r.dev.cc_major = 9;
    r.dev.clock_khz = 1980000;
    r.dev.mem_clock_khz = 2619000;
    r.dev.bus_width_bits = 5120;
    r.dev.driver_version = 13000;
    r.dev.runtime_version = 13000;
    r.dev.memory_bytes = 85e9;
    snprintf(r.notes, sizeof r.notes, "auto: a note");
    snprintf(r.peak_source, sizeof r.peak_source, "preset h100-sxm: datasheet");
    r.best_gemm_flops = 7e14;
    r.copy_bandwidth = 2.9e12;
    r.roofline.eta_memory_bound_only = 1;
    r.roofline.eta_compute_clamped = 1;
    r.roofline.eta_compute_free = 1.04;
    r.roofline.n_memory_excluded = 3;
    r.cpu_cache_bytes = 1 << 25;
    snprintf(r.cpu_cache_name, sizeof r.cpu_cache_name, "L3");
    snprintf(r.roofline_note, sizeof r.roofline_note, "a note on the fit");
    r.roofline_max = r.roofline;
    r.roofline_max.form = CALIB_ROOFLINE_MAX;
    r.roofline_max.mape = 0.12;
    r.has_roofline_max = 1;
    for (double b = 1024; b <= 1048576; b *= 4)
        assert_int_equal(calib_result_add_p2p(&r, b, 6e-6 + b / 150e9), 0);
    snprintf(r.p2p_label, sizeof r.p2p_label, "NCCL send/recv (GPU 0 -> GPU 1)");
    r.p2p_fit = (calib_alpha_beta){6e-6, 150e9, 1.0, 0.0, 6};
    r.has_p2p_fit = 1;
    snprintf(r.comm_error, sizeof r.comm_error, "a comm note");
    char *text = calib_result_to_json(&r);
    assert_non_null(text);
    engine_error err = {{0}};
    assert_int_equal(calib_result_from_json(text, "x.json", &back, &err), 0);
    char *again = calib_result_to_json(&back);
    assert_non_null(again);
    /* cJSON prints 15 significant digits where they read back within an
     * epsilon, so the first pass may move a last bit: the same keys and
     * values within 1e-12, and from then on the very same text. */
    cJSON *ja = cJSON_Parse(text), *jb = cJSON_Parse(again);
    assert_true(json_same(ja, jb));
    cJSON_Delete(ja);
    cJSON_Delete(jb);
    calib_result third;
    assert_int_equal(calib_result_from_json(again, "x.json", &third, &err), 0);
    char *fixed = calib_result_to_json(&third);
    assert_string_equal(fixed, again);
    free(fixed);
    calib_result_free(&third);
    assert_int_equal(back.n_points, r.n_points);
    assert_int_equal(back.n_comm, r.n_comm);
    assert_int_equal(back.n_p2p, 6);
    assert_true(back.has_power_law && back.has_roofline_max && back.has_p2p_fit);
    assert_int_equal(back.dev.cc_major, 9);
    assert_int_equal(back.roofline.form, CALIB_ROOFLINE_ENGINE);
    free(again);
    calib_result_free(&back);

    /* Without a power law: null and the reason. */
    r.has_power_law = 0;
    snprintf(r.power_law_error, sizeof r.power_law_error, "power law: too few points");
    free(text);
    text = calib_result_to_json(&r);
    cJSON *j = cJSON_Parse(text);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "power_law")));
    assert_string_equal(cJSON_GetObjectItem(j, "power_law_error")->valuestring,
                        "power law: too few points");
    cJSON_Delete(j);
    assert_int_equal(calib_result_from_json(text, NULL, &back, &err), 0);
    assert_false(back.has_power_law);
    assert_string_equal(back.power_law_error, "power law: too few points");
    calib_result_free(&back);
    free(text);
    calib_result_free(&r);
}

/* What the engine relies on is checked, with the file and field named. */
static void test_json_errors(void **state)
{
    (void)state;
    calib_result back;
    engine_error err = {{0}};
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"{not json", "f.json: not a calibration file (invalid JSON near byte "},
        {"[1]", "f.json: not a calibration file (invalid JSON near byte "},
        {"{\"device\":\"x\",\"date\":\"d\"}", "f.json: backend: expected a string"},
        {"{\"backend\":\"cuda\",\"device\":\"x\",\"date\":\"d\",\"preset\":3}",
         "f.json: preset: expected a string"},
        {"{\"backend\":\"tpu\",\"device\":\"x\",\"date\":\"d\"}",
         "f.json: backend: expected \"cuda\" or \"cpu\", got \"tpu\""},
        {"{\"backend\":\"cpu\",\"device\":\"x\",\"date\":\"d\"}",
         "f.json: roofline: expected an object"},
        {"{\"backend\":\"cpu\",\"device\":\"x\",\"date\":\"d\",\"roofline\":{"
         "\"eta_compute\":0.5,\"eta_memory\":0.5,\"overhead_s\":2}}",
         "f.json: roofline.overhead_s: expected a number in [0, 1], got 2"},
        {"{\"backend\":\"cpu\",\"device\":\"x\",\"date\":\"d\",\"roofline\":{"
         "\"eta_compute\":0.5,\"eta_memory\":0.5,\"overhead_s\":0},"
         "\"points\":[{\"kind\":\"gemm\"}]}",
         "f.json: points[0].kind: expected \"prefill\", \"decode\" or \"copy\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        err.msg[0] = '\0';
        assert_int_equal(calib_result_from_json(cases[i].text, "f.json", &back, &err), -1);
        if (strncmp(err.msg, cases[i].msg, strlen(cases[i].msg)) != 0 ||
            (!strstr(cases[i].msg, "near byte") && strlen(err.msg) != strlen(cases[i].msg)))
            fail_msg("%s: got '%s', want '%s'", cases[i].text, err.msg, cases[i].msg);
        assert_int_equal(back.n_points, 0);
    }
}

/* Issue 13: every integer field (device_info's counts and versions, the
 * fits' point counts, the points' sizes) is a whole number in range, or
 * the file is refused naming the field: 1e10, -1, 2.5 and infinity
 * (1e999) were cast to int (undefined behaviour) or clamped.  JSON has no
 * NaN: the token is refused as invalid JSON.  Whole numbers read exactly. */
static void test_json_int_fields(void **state)
{
    (void)state;
    static const struct {
        const char *obj, *key;
    } ints[] = {
        {"device_info", "index"},        {"device_info", "count"},
        {"device_info", "sm_count"},     {"device_info", "clock_khz"},
        {"device_info", "memory_clock_khz"}, {"device_info", "bus_width_bits"},
        {"device_info", "driver_version"},   {"device_info", "runtime_version"},
        {"power_law", "n"},              {"roofline", "n"},
        {"roofline", "n_compute_bound"}, {"roofline", "n_memory_excluded"},
        {"points", "hidden"},            {"points", "batch"},
        {"points", "seq"},
    };
    static const struct {
        const char *json, *shown;
    } bad[] = {{"1e10", "10000000000"}, {"-1", "-1"}, {"2.5", "2.5"}, {"1e999", "inf"}};
    const char *roof = "\"eta_compute\":0.5,\"eta_memory\":0.5,\"overhead_s\":0";
    char text[1024], want[300];
    calib_result back;
    engine_error err = {{0}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        int point = !strcmp(ints[i].obj, "points");
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            const char *val = bad[b].json;
            if (point) /* the field under test once, the other two valid */
                snprintf(text, sizeof text,
                         "{\"backend\":\"cpu\",\"device\":\"x\",\"date\":\"d\",\"roofline\":{%s},"
                         "\"points\":[{\"kind\":\"decode\",\"%s\":%s,\"%s\":1,\"%s\":8,"
                         "\"flops\":1,\"bytes\":1,\"time_s\":1}]}",
                         roof, ints[i].key, val, strcmp(ints[i].key, "batch") ? "batch" : "hidden",
                         strcmp(ints[i].key, "seq") ? "seq" : "hidden");
            else if (!strcmp(ints[i].obj, "roofline"))
                snprintf(text, sizeof text,
                         "{\"backend\":\"cpu\",\"device\":\"x\",\"date\":\"d\","
                         "\"roofline\":{%s,\"%s\":%s}}", roof, ints[i].key, val);
            else
                snprintf(text, sizeof text,
                         "{\"backend\":\"cpu\",\"device\":\"x\",\"date\":\"d\",\"roofline\":{%s},"
                         "\"%s\":{\"a\":1,\"%s\":%s}}", roof, ints[i].obj, ints[i].key, val);
            if (point)
                snprintf(want, sizeof want, "f.json: points[0].%s: expected a whole number in "
                         "[0, %s], got %s", ints[i].key,
                         strcmp(ints[i].key, "hidden") ? "1e+09" : "1e+07", bad[b].shown);
            else
                snprintf(want, sizeof want, "f.json: %s.%s: expected a whole number in "
                         "[0, 2147483647], got %s", ints[i].obj, ints[i].key, bad[b].shown);
            err.msg[0] = '\0';
            assert_int_equal(calib_result_from_json(text, "f.json", &back, &err), -1);
            if (strcmp(err.msg, want) != 0)
                fail_msg("%s: got '%s', want '%s'", text, err.msg, want);
        }
        /* NaN is not JSON */
        snprintf(text, sizeof text,
                 "{\"backend\":\"cpu\",\"device\":\"x\",\"date\":\"d\",\"roofline\":{%s,"
                 "\"%s\":NaN}}", roof, ints[i].key);
        assert_int_equal(calib_result_from_json(text, "f.json", &back, &err), -1);
        assert_non_null(strstr(err.msg, "f.json: not a calibration file (invalid JSON"));
    }
    /* A string where a count belongs is named too. */
    assert_int_equal(calib_result_from_json(
                         "{\"backend\":\"cpu\",\"device\":\"x\",\"date\":\"d\",\"roofline\":{"
                         "\"eta_compute\":0.5,\"eta_memory\":0.5,\"overhead_s\":0,\"n\":\"7\"}}",
                         "f.json", &back, &err), -1);
    assert_string_equal(err.msg, "f.json: roofline.n: expected a whole number in [0, 2147483647], "
                                 "got a string");
    /* In range: read exactly, up to INT_MAX. */
    snprintf(text, sizeof text,
             "{\"backend\":\"cuda\",\"device\":\"x\",\"date\":\"d\",\"roofline\":{%s,\"n\":12},"
             "\"device_info\":{\"index\":0,\"sm_count\":132,\"driver_version\":2147483647},"
             "\"points\":[{\"kind\":\"prefill\",\"hidden\":4096,\"batch\":2,\"seq\":1000000000,"
             "\"flops\":1,\"bytes\":1,\"time_s\":1}]}", roof);
    assert_int_equal(calib_result_from_json(text, "f.json", &back, &err), 0);
    assert_int_equal(back.roofline.n, 12);
    assert_int_equal(back.dev.sm_count, 132);
    assert_int_equal(back.dev.driver_version, 2147483647);
    assert_int_equal(back.n_points, 1);
    assert_int_equal(back.points[0].hidden, 4096);
    assert_int_equal(back.points[0].seq, 1000000000);
    calib_result_free(&back);
}

/* An NCCL all-reduce series whose alpha-beta fit failed (its times fall
 * with size: no positive bandwidth) is still written, label and points,
 * without fit fields; read back, the engine still gets the measured
 * all-reduce and all-gather curves.  Before, the whole comm block was left
 * out: the label was lost and with it every NCCL curve of the file. */
static void test_json_unfitted_comm_kept(void **state)
{
    (void)state;
    calib_result r, back;
    assert_int_equal(ts_calib_fixture(&r), 0);
    free(r.comm);
    r.comm = NULL;
    r.n_comm = 0;
    r.dev.count = 2;
    snprintf(r.comm_label, sizeof r.comm_label, "NCCL AllReduce (2 GPUs)");
    static const double T[3] = {30e-6, 20e-6, 10e-6};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(calib_result_add_comm(&r, 1024.0 * (1 << (2 * i)), T[i]), 0);
        assert_int_equal(calib_comm_append(&r.allgather, &r.n_allgather, 1024.0 * (1 << (2 * i)),
                                           T[i] + 5e-6),
                         0);
    }
    r.coll_gpus = 2;
    engine_error err = {{0}};
    assert_int_equal(calib_result_fit(&r, &err), 0);
    assert_int_equal(r.has_comm_fit, 0); /* no positive slope */
    char *text = calib_result_to_json(&r);
    assert_non_null(text);
    cJSON *j = cJSON_Parse(text);
    const cJSON *c = cJSON_GetObjectItem(j, "comm");
    assert_non_null(c);
    assert_string_equal(cJSON_GetObjectItem(c, "label")->valuestring, "NCCL AllReduce (2 GPUs)");
    assert_null(cJSON_GetObjectItem(c, "bandwidth_bytes_per_s"));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(c, "points")), 3);
    cJSON_Delete(j);
    assert_int_equal(calib_result_from_json(text, "x.json", &back, &err), 0);
    free(text);
    assert_string_equal(back.comm_label, "NCCL AllReduce (2 GPUs)");
    assert_int_equal(back.n_comm, 3);
    assert_int_equal(back.has_comm_fit, 0);
    assert_true(back.comm[2].time_s == 10e-6);
    static engine_calib ec;
    calib_result_to_engine(&back, &ec);
    assert_int_equal(ec.comm[ENGINE_OP_ALLREDUCE].n, 3);
    assert_int_equal(ec.comm[ENGINE_OP_ALLGATHER].n, 3);
    assert_true(ec.comm[ENGINE_OP_ALLGATHER].time_s[1] == 25e-6);
    calib_result_free(&back);
    calib_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_keys),
        cmocka_unit_test(test_json_round_trip),
        cmocka_unit_test(test_json_errors),
        cmocka_unit_test(test_json_int_fields),
        cmocka_unit_test(test_json_unfitted_comm_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
