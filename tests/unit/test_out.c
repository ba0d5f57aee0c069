/*
 * test_out.c - tui/out, the writers every front end shares: the unit
 * formatters (fmt.h), the text-table helpers (table.h), CSV (csv.h) and
 * the JSON objects (json.h).  Hand-worked values: each expected string is
 * what the rule in fmt.h gives, worked out by hand, boundaries included.
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

#include "explain.h"
#include "json.h"
#include "csv.h"
#include "fmt.h"
#include "table.h"

#define S(call, want) assert_string_equal((call), (want))

static void test_seconds(void **state)
{
    (void)state;
    char b[64];
    S(fmt_seconds(1.25, NULL, b, sizeof b), "1.25 s");
    S(fmt_seconds(13.2, NULL, b, sizeof b), "13.2 s");
    S(fmt_seconds(2.4, NULL, b, sizeof b), "2.40 s");
    S(fmt_seconds(1234.4, NULL, b, sizeof b), "1234 s");
    S(fmt_seconds(0.01234, NULL, b, sizeof b), "12.3 ms");    /* 12.34 ms: 3 digits */
    S(fmt_seconds(0.0371, NULL, b, sizeof b), "37.1 ms");
    S(fmt_seconds(0.00794, NULL, b, sizeof b), "7.94 ms");
    S(fmt_seconds(0.101, NULL, b, sizeof b), "101 ms");
    S(fmt_seconds(48.9e-6, NULL, b, sizeof b), "48.9 \xc2\xb5s");
    S(fmt_seconds(48.9e-6, "u", b, sizeof b), "48.9 us");     /* ASCII terminals */
    S(fmt_seconds(120e-9, NULL, b, sizeof b), "120 ns");
    S(fmt_seconds(5e-7, NULL, b, sizeof b), "500 ns");
    S(fmt_seconds(0, NULL, b, sizeof b), "0 s");
}

static void test_seconds_boundaries(void **state)
{
    (void)state;
    char b[64];
    /* 999.9 ms rounds to 1000 ms at three digits: it reads 1.00 s. */
    S(fmt_seconds(0.9999, NULL, b, sizeof b), "1.00 s");
    S(fmt_seconds(0.99951, NULL, b, sizeof b), "1.00 s");
    S(fmt_seconds(0.99949, NULL, b, sizeof b), "999 ms");
    S(fmt_seconds(0.9994, NULL, b, sizeof b), "999 ms");
    S(fmt_seconds(0.0009996, NULL, b, sizeof b), "1.00 ms");  /* not 1000 µs */
    S(fmt_seconds(9.996e-3, NULL, b, sizeof b), "10.0 ms");   /* not 10.00 */
    S(fmt_seconds(99.96e-3, NULL, b, sizeof b), "100 ms");    /* not 100.0 */
    S(fmt_seconds(9.994e-3, NULL, b, sizeof b), "9.99 ms");
    /* Negative, NaN and infinity have no time: "-". */
    S(fmt_seconds(-1, NULL, b, sizeof b), "-");
    S(fmt_seconds(-1e-9, NULL, b, sizeof b), "-");
    S(fmt_seconds(NAN, NULL, b, sizeof b), "-");
    S(fmt_seconds(INFINITY, NULL, b, sizeof b), "-");
    S(fmt_seconds(-INFINITY, NULL, b, sizeof b), "-");
}

/* A time and its band: the band in parentheses only when cases stand
 * behind it (n > 0), with the caller's dash and micro sign. */
static void test_seconds_band(void **state)
{
    (void)state;
    char b[64];
    engine_band band = {.lo = 0.0119, .hi = 0.0132, .n = 5, .level = 0};
    S(fmt_seconds_band(0.01234, &band, NULL, "-", b, sizeof b), "12.3 ms (11.9 ms-13.2 ms)");
    band = (engine_band){.lo = 40e-6, .hi = 55.5e-6, .n = 1, .level = 2};
    S(fmt_seconds_band(48.9e-6, &band, "u", "\xe2\x80\x93", b, sizeof b),
      "48.9 us (40.0 us\xe2\x80\x93" "55.5 us)");
    band.n = 0;
    S(fmt_seconds_band(48.9e-6, &band, "u", "-", b, sizeof b), "48.9 us");
}

static void test_bytes(void **state)
{
    (void)state;
    char b[64];
    S(fmt_bytes(0, b, sizeof b), "0 B");
    S(fmt_bytes(512, b, sizeof b), "512 B");
    S(fmt_bytes(4096, b, sizeof b), "4.10 kB");
    S(fmt_bytes(16.06e9, b, sizeof b), "16.1 GB");
    S(fmt_bytes(80e9, b, sizeof b), "80.0 GB");
    S(fmt_bytes(810e9, b, sizeof b), "810 GB");
    S(fmt_bytes(1.23e12, b, sizeof b), "1.23 TB");
    S(fmt_bytes(999.4e6, b, sizeof b), "999 MB");
    S(fmt_bytes(999.6e6, b, sizeof b), "1.00 GB");    /* not 1000 MB */
    S(fmt_bytes(-1.5e9, b, sizeof b), "-1.50 GB");    /* headroom keeps its sign */
    S(fmt_bytes(NAN, b, sizeof b), "-");
    S(fmt_bytes(INFINITY, b, sizeof b), "-");
    S(fmt_bytes_iec(512, b, sizeof b), "512 B");
    S(fmt_bytes_iec(16777216, b, sizeof b), "16.0 MiB");
    S(fmt_bytes_iec(1.5 * 1073741824.0, b, sizeof b), "1.50 GiB");
    S(fmt_bytes_iec(1000 * 1024.0, b, sizeof b), "1000 KiB");  /* < 1024 KiB */
    S(fmt_bytes_iec(1023.6 * 1024.0, b, sizeof b), "1.00 MiB");
    S(fmt_bytes_iec(NAN, b, sizeof b), "-");
    S(fmt_gb(19.7e9, b, sizeof b), "19.7 GB");
    S(fmt_gb(141e9, b, sizeof b), "141 GB");
    S(fmt_gb(80e9, b, sizeof b), "80.0 GB");
    S(fmt_gb(5.5e9, b, sizeof b), "5.50 GB");
    S(fmt_gb(5e7, b, sizeof b), "0.05 GB");
    S(fmt_gb(99.96e9, b, sizeof b), "100 GB");
    S(fmt_gb(NAN, b, sizeof b), "-");
}

/* GB and GiB are never mixed: SI output has no "i", IEC output always
 * has "iB" once past 1024 bytes. */
static void test_bytes_never_mixed(void **state)
{
    (void)state;
    char b[64];
    for (double v = 1; v < 1e18; v *= 3.7) {
        fmt_bytes(v, b, sizeof b);
        assert_null(strchr(b, 'i'));
        fmt_gb(v, b, sizeof b);
        assert_null(strchr(b, 'i'));
        fmt_bytes_iec(v, b, sizeof b);
        if (v >= 1024)
            assert_non_null(strstr(b, "iB"));
        else
            assert_null(strchr(b, 'i'));
    }
}

static void test_rates_counts(void **state)
{
    (void)state;
    char b[64];
    S(fmt_rate(4.5e11, "B/s", b, sizeof b), "450 GB/s");
    S(fmt_rate(9.89e14, "FLOP/s", b, sizeof b), "989 TFLOP/s");
    S(fmt_rate(3.35e12, "B/s", b, sizeof b), "3.35 TB/s");
    S(fmt_rate(12, "tok/s", b, sizeof b), "12 tok/s");
    S(fmt_rate(1234, "", b, sizeof b), "1.23 k");
    S(fmt_rate(NAN, "B/s", b, sizeof b), "-");
    S(fmt_count(8.03e9, b, sizeof b), "8.03 B");  /* billions, short scale */
    S(fmt_count(124e6, b, sizeof b), "124 M");
    S(fmt_count(4096, b, sizeof b), "4.10 k");
    S(fmt_count(999, b, sizeof b), "999");
    S(fmt_count(671e9, b, sizeof b), "671 B");
    S(fmt_tokens_per_s(1234.56, b, sizeof b), "1234.6 tok/s");
    S(fmt_tokens_per_s(0, b, sizeof b), "0.0 tok/s");
    S(fmt_tokens_per_s(-1, b, sizeof b), "-");
    S(fmt_tokens_per_s(NAN, b, sizeof b), "-");
    S(fmt_tokens_per_s(INFINITY, b, sizeof b), "-");
}

static void test_percent_usd(void **state)
{
    (void)state;
    char b[64];
    S(fmt_percent(0.636, b, sizeof b), "63.6%");
    S(fmt_percent(0.766, b, sizeof b), "76.6%");
    S(fmt_percent(1.0, b, sizeof b), "100%");
    /* a memory fraction: two places, three where the rule gives a third
     * (SGLang's (81558 - 13440) / 81558 rounded to 0.835) */
    S(fmt_fraction(0.9, b, sizeof b), "0.90");
    S(fmt_fraction(0.835, b, sizeof b), "0.835");
    S(fmt_fraction(0.01, b, sizeof b), "0.01");
    S(fmt_percent(0.9996, b, sizeof b), "100%");    /* 99.96% rounds to 100.0 */
    S(fmt_percent(0.9994, b, sizeof b), "99.9%");
    S(fmt_percent(1.5, b, sizeof b), "150%");
    S(fmt_percent(-0.05, b, sizeof b), "-5.0%");
    S(fmt_percent(NAN, b, sizeof b), "-");
    /* Dollars and cents; four decimals below a cent; whole from $100. */
    S(fmt_usd(0.4234, b, sizeof b), "$0.42");
    S(fmt_usd(0.092, b, sizeof b), "$0.09");
    S(fmt_usd(12.3, b, sizeof b), "$12.30");
    S(fmt_usd(71.666, b, sizeof b), "$71.67");
    S(fmt_usd(99.994, b, sizeof b), "$99.99");
    S(fmt_usd(99.996, b, sizeof b), "$100");        /* not $100.00 */
    S(fmt_usd(121.2, b, sizeof b), "$121");
    S(fmt_usd(0.00996, b, sizeof b), "$0.01");
    S(fmt_usd(0.00994, b, sizeof b), "$0.0099");
    S(fmt_usd(0.001234, b, sizeof b), "$0.0012");
    S(fmt_usd(0, b, sizeof b), "-");               /* no price */
    S(fmt_usd(-1, b, sizeof b), "-");
    S(fmt_usd(NAN, b, sizeof b), "-");
    S(fmt_usd(INFINITY, b, sizeof b), "-");
}

static void test_plan_and_width(void **state)
{
    (void)state;
    char b[64];
    engine_plan p = {8, 2, 1, 1}, q = {2, 1, 4, 8};
    S(fmt_plan(p, NULL, b, sizeof b), "TP8xPP2xDP1");
    S(fmt_plan(q, NULL, b, sizeof b), "TP2xPP1xDP4xEP8");
    S(fmt_plan(p, "\xc3\x97", b, sizeof b), "TP8\xc3\x97PP2\xc3\x97""DP1");
    assert_int_equal(out_display_width("TP8\xc3\x97PP2"), 7);
    assert_int_equal(out_display_width(""), 0);
    assert_int_equal(out_display_width("48.9 \xc2\xb5s"), 7);
    /* Truncation follows snprintf: NUL-terminated within len. */
    S(fmt_seconds(0.0371, NULL, b, 4), "37.");
}

static void test_put_col(void **state)
{
    (void)state;
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    assert_non_null(f);
    out_put_col(f, "ab", 4);
    fputc('|', f);
    out_put_col(f, "\xc2\xb5s", -4); /* 2 columns, 3 bytes */
    fputc('|', f);
    out_put_col(f, "toolong", 3);
    fclose(f);
    assert_string_equal(text, "ab  |  \xc2\xb5s|toolong");
    free(text);
}

/* Capture what fn writes to a FILE. */
static char *captured(void (*fn)(FILE *, const void *), const void *arg)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    assert_non_null(f);
    fn(f, arg);
    fclose(f);
    return text;
}

static void field_of(FILE *f, const void *s)
{
    out_csv_field(f, s);
}

static void test_csv_field(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"h100-sxm", "h100-sxm"},            /* plain: as is */
        {"", ""},
        {"a,b", "\"a,b\""},                /* comma: quoted */
        {"say \"hi\"", "\"say \"\"hi\"\"\""}, /* quotes doubled */
        {"two\nlines", "\"two\nlines\""},
        {"cr\r", "\"cr\r\""},
        {"H100 SXM (80.0 GB)", "H100 SXM (80.0 GB)"}, /* spaces need no quotes */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *t = captured(field_of, cases[i][0]);
        assert_string_equal(t, cases[i][1]);
        free(t);
    }
    char *t = captured(field_of, NULL);
    assert_string_equal(t, "");
    free(t);
}

static void row_of(FILE *f, const void *r)
{
    out_csv_result_row(f, r, 1);
}

static void test_csv_result_row(void **state)
{
    (void)state;
    engine_result r;
    memset(&r, 0, sizeof r);
    r.plan = (engine_plan){2, 1, 4, 1};
    r.valid = 1;
    r.fits = 1;
    r.mem.weights_bytes = 8e9;
    r.mem.per_gpu_bytes = 1.5e10;
    r.mem.capacity_bytes = 7.2e10;
    r.ttft_s = 0.25;
    r.itl_s = 0.0125;
    r.e2e_s = NAN;                /* not finite: empty */
    r.tokens_per_s = 320;
    r.speedup = 1.5;
    r.efficiency = 0.75;
    r.regime = 'C';
    r.compute_comm_ratio = 4;
    r.bubble_fraction = 0;
    r.cost_per_mtok_usd = 0;      /* no price: empty */
    r.p50_s = 3;
    r.p99_s = 3.5;
    r.batch = 3;
    r.max_concurrency = 40;
    r.kv_capacity_tokens = 51200;
    char *t = captured(row_of, &r);
    assert_string_equal(t, "2,1,4,1,1,1,,8000000000,0,0,0,15000000000,72000000000,"
                           "0.25,0.012500000000000001,,320,1.5,0.75,4,C,0,,3,3.5,3,40,51200\n");
    free(t);
    /* Does not fit: memory stays, every performance field is empty. */
    r.fits = 0;
    snprintf(r.reason, sizeof r.reason, "needs 90.0 GB, has 72.0 GB");
    t = captured(row_of, &r);
    assert_string_equal(t, "2,1,4,1,1,0,\"needs 90.0 GB, has 72.0 GB\",8000000000,0,0,0,"
                           "15000000000,72000000000,,,,,,,,,,,,,3,40,51200\n");
    free(t);
}

static const char *const TABLE[3][3] = {
    {"plan", "itl", "cost"},
    {"TP8\xc3\x97PP1", "6.76 ms", "$0.42"}, /* the times sign: one column, two bytes */
    {"TP1", "12.3 ms", NULL},                /* NULL prints as "" */
};

static const char *table_cell(const void *ctx, int r, int c, char *buf, size_t len)
{
    (void)ctx;
    (void)buf;
    (void)len;
    return TABLE[r + 1][c];
}

static void print_table(FILE *f, const void *align)
{
    out_table_print(f, 3, 2, align, "  ", table_cell, NULL);
}

static void test_table(void **state)
{
    (void)state;
    assert_int_equal(out_width_max(3, "TP8\xc3\x97PP1"), 7);
    assert_int_equal(out_width_max(9, "ab"), 9);
    /* Widths 7, 7, 5; first column left, the others right. */
    char *t = captured(print_table, NULL);
    assert_string_equal(t, "plan         itl   cost\n"
                           "TP8\xc3\x97PP1  6.76 ms  $0.42\n"
                           "TP1      12.3 ms       \n");
    free(t);
    /* All left: a left last column leaves no trailing blanks. */
    t = captured(print_table, "lll");
    assert_string_equal(t, "plan     itl      cost\n"
                           "TP8\xc3\x97PP1  6.76 ms  $0.42\n"
                           "TP1      12.3 ms  \n");
    free(t);
}

static void test_calibration_label(void **state)
{
    (void)state;
    char b[160];
    assert_string_equal(out_calibration_label(NULL, b, sizeof b), "datasheet defaults");
    engine_calib c;
    memset(&c, 0, sizeof c);
    assert_string_equal(out_calibration_label(&c, b, sizeof b), "datasheet defaults");
    c.measured = 1;
    strcpy(c.device, "NVIDIA H200");
    strcpy(c.date, "2026-11-29");
    assert_string_equal(out_calibration_label(&c, b, sizeof b),
                        "measured on NVIDIA H200 2026-11-29");
}

static void test_json_never_nan(void **state)
{
    (void)state;
    engine_result r;
    memset(&r, 0, sizeof r);
    r.plan = (engine_plan){2, 1, 1, 1};
    r.valid = 1;
    r.fits = 1;
    r.ttft_s = NAN;
    r.itl_s = INFINITY;
    r.e2e_s = 1.5;
    r.regime = '-';
    r.compute_comm_ratio = 0;
    r.cost_per_mtok_usd = 0;
    cJSON *o = cli_result_json(NULL, &r);
    assert_non_null(o);
    char *text = cJSON_PrintUnformatted(o);
    assert_non_null(text);
    assert_null(strstr(text, "nan"));
    assert_null(strstr(text, "inf"));
    assert_non_null(strstr(text, "\"ttft_s\":null"));
    assert_non_null(strstr(text, "\"itl_s\":null"));
    assert_non_null(strstr(text, "\"e2e_s\":1.5"));
    assert_non_null(strstr(text, "\"regime\":null"));
    assert_non_null(strstr(text, "\"compute_comm_ratio\":null"));
    assert_non_null(strstr(text, "\"cost_per_mtok_usd\":null"));
    assert_non_null(strstr(text, "\"p50_s\":null"));
    assert_non_null(strstr(text, "\"gpus\":2"));
    assert_non_null(strstr(text, "\"plan\":{\"tp\":2,\"pp\":1,\"dp\":1,\"ep\":1}"));
    cJSON_free(text);
    cJSON_Delete(o);

    /* Not fitting: memory stays, performance numbers become null. */
    memset(&r, 0, sizeof r);
    r.plan = (engine_plan){1, 1, 1, 1};
    r.valid = 1;
    r.fits = 0;
    r.mem.weights_bytes = 810e9;
    r.ttft_s = 3;
    r.regime = 'C';
    r.compute_comm_ratio = 2;
    o = cli_result_json(NULL, &r);
    text = cJSON_PrintUnformatted(o);
    assert_non_null(strstr(text, "\"fits\":false"));
    assert_non_null(strstr(text, "\"weights_bytes\":810000000000"));
    assert_non_null(strstr(text, "\"ttft_s\":null"));
    assert_non_null(strstr(text, "\"regime\":null"));
    cJSON_free(text);
    cJSON_Delete(o);
}

static void test_json_schema_stamp(void **state)
{
    (void)state;
    assert_int_equal(OUT_SCHEMA_VERSION, 3);
    cJSON *o = cJSON_CreateObject();
    assert_int_equal(out_json_stamp(o), 0);
    char *t = cJSON_PrintUnformatted(o);
    assert_string_equal(t, "{\"schema_version\":3}");
    cJSON_free(t);
    cJSON_Delete(o);
    /* Members already there: the version goes first, once. */
    o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "scenario", "x");
    cJSON_AddNumberToObject(o, "plans", 3);
    assert_int_equal(out_json_stamp(o), 0);
    assert_int_equal(out_json_stamp(o), 0);
    t = cJSON_PrintUnformatted(o);
    assert_string_equal(t, "{\"schema_version\":3,\"scenario\":\"x\",\"plans\":3}");
    cJSON_free(t);
    cJSON_Delete(o);
    /* Only objects carry it. */
    cJSON *a = cJSON_CreateArray();
    assert_int_equal(out_json_stamp(a), -1);
    assert_int_equal(out_json_stamp(NULL), -1);
    assert_int_equal(out_json_write(stdout, a), -1); /* deleted all the same */
    /* out_json_write stamps, prints formatted, one newline. */
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    assert_non_null(f);
    o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "fits", 1);
    assert_int_equal(out_json_write(f, o), 0);
    fclose(f);
    assert_string_equal(text, "{\n\t\"schema_version\":\t3,\n\t\"fits\":\ttrue\n}\n");
    free(text);
}

/* explain's rows: name, class, count, FLOPs, bytes, time, share, bound with
 * their units; a draft kernel named so; a negative (hidden) time signed;
 * the JSON item's members. */
static void test_explain_rows(void **state)
{
    (void)state;
    char buf[256];
    engine_explain_item q = {"qkv", ENGINE_KC_GEMM, 32, 1.65e12, 2.28e9, 2.34e-3,
                             ENGINE_BOUND_COMPUTE, 0};
    assert_string_equal(out_explain_row(&q, 22.7e-3, buf, sizeof buf),
                        "qkv                     gemm            32  1.65 TFLOP    2.28 GB    "
                        "2.34 ms  10.3%  compute");
    q.draft = 1;
    q.count = 1.5;
    out_explain_row(&q, 22.7e-3, buf, sizeof buf);
    assert_int_equal(strncmp(buf, "draft qkv               gemm          1.50", 42), 0);
    engine_explain_item h = {"tbo hidden (ep)", ENGINE_KC_COMM, 2, 0, 0, -0.301,
                             ENGINE_BOUND_COMPUTE, 0};
    out_explain_row(&h, 0.8, buf, sizeof buf);
    assert_non_null(strstr(buf, "-          -    -301 ms -37.6%  compute"));
    assert_string_equal(out_explain_time(-2.5e-6, "u", buf, sizeof buf), "-2.50 us");
    engine_explain_const c = {"gemm_t0", 3e-6, "s", "gpu preset", "x"};
    assert_string_equal(out_explain_value(&c, "u", buf, sizeof buf), "3.00 us");
    c = (engine_explain_const){"link_bandwidth", 367e9, "B/s", "link preset", "x"};
    assert_string_equal(out_explain_value(&c, NULL, buf, sizeof buf), "367 GB/s");
    static engine_explain x;
    memset(&x, 0, sizeof x);
    x.plan = (engine_plan){2, 1, 1, 1};
    x.decode.n = 1;
    x.decode.item[0] = q;
    x.decode.total_s = 1e-3;
    cJSON *j = out_explain_json(&x);
    const cJSON *it = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "decode"), 0);
    assert_string_equal(cJSON_GetObjectItem(it, "name")->valuestring, "qkv");
    assert_string_equal(cJSON_GetObjectItem(it, "class")->valuestring, "gemm");
    assert_string_equal(cJSON_GetObjectItem(it, "bound")->valuestring, "compute");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(it, "draft")));
    assert_true(cJSON_GetObjectItem(it, "flops")->valuedouble == 1.65e12);
    assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "decode_step"), "total_s")
                    ->valuedouble == 1e-3);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(j, "prefill")), 0);
    cJSON_Delete(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seconds),
        cmocka_unit_test(test_seconds_boundaries),
        cmocka_unit_test(test_seconds_band),
        cmocka_unit_test(test_bytes),
        cmocka_unit_test(test_bytes_never_mixed),
        cmocka_unit_test(test_rates_counts),
        cmocka_unit_test(test_percent_usd),
        cmocka_unit_test(test_plan_and_width),
        cmocka_unit_test(test_put_col),
        cmocka_unit_test(test_csv_field),
        cmocka_unit_test(test_csv_result_row),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_calibration_label),
        cmocka_unit_test(test_json_never_nan),
        cmocka_unit_test(test_json_schema_stamp),
        cmocka_unit_test(test_explain_rows),
    };
    return cmocka_run_group_tests_name("out", tests, NULL, NULL);
}
