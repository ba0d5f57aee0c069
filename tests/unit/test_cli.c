/*
 * test_cli.c - the command line's pure helpers: size and number parsing,
 * unit formatting, close-name suggestions and the JSON writer's null
 * handling.  Exact values; no presets, no engine arithmetic.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli_common.h"
#include "cli_json.h"

static void assert_size(const char *text, double want)
{
    double got = -1;
    if (cli_parse_size(text, &got) != 0)
        fail_msg("cli_parse_size(\"%s\") rejected, want %.17g", text, want);
    if (got != want)
        fail_msg("cli_parse_size(\"%s\") = %.17g, want %.17g", text, got, want);
}

static void assert_size_bad(const char *text)
{
    double got = -1;
    if (cli_parse_size(text, &got) == 0)
        fail_msg("cli_parse_size(\"%s\") accepted as %.17g, want rejected", text, got);
}

static void test_parse_size_units(void **state)
{
    (void)state;
    assert_size("1024", 1024);
    assert_size("0", 0);
    assert_size("4KiB", 4096);
    assert_size("16MiB", 16777216);
    assert_size("1GiB", 1073741824);
    assert_size("1TiB", 1099511627776.0);
    assert_size("1GB", 1e9);
    assert_size("1.5GB", 1.5e9);
    assert_size("2kB", 2000);
    assert_size("2KB", 2000);
    assert_size("3MB", 3e6);
    assert_size("1TB", 1e12);
    assert_size("512B", 512);
    assert_size("16mib", 16777216);
    assert_size("8M", 8388608);   /* nccl-tests: single letters are binary */
    assert_size("4K", 4096);
    assert_size("1G", 1073741824);
    assert_size("0.5KiB", 512);
    assert_size("2.5KB", 2500);
}

static void test_parse_size_rejects_junk(void **state)
{
    (void)state;
    const char *bad[] = {"", "abc", "MiB", "-1", "+5", "16 MiB", " 16", "16MiBx", "16XB",
                         "1.2.3", "nan", "inf", "1e3", "0x10", "1.3", "0.1B", "99999999999TB",
                         ".", "16Mib/s", "1Gb/s"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_size_bad(bad[i]);
    double x;
    assert_int_equal(cli_parse_size(NULL, &x), -1);
}

static void test_parse_int_and_double(void **state)
{
    (void)state;
    long v;
    assert_int_equal(cli_parse_int("8", 1, 1048576, &v), 0);
    assert_int_equal(v, 8);
    assert_int_equal(cli_parse_int("abc", 1, 10, &v), -1);
    assert_int_equal(cli_parse_int("0", 1, 10, &v), -1);
    assert_int_equal(cli_parse_int("11", 1, 10, &v), -1);
    assert_int_equal(cli_parse_int("3x", 1, 10, &v), -1);
    assert_int_equal(cli_parse_int("", 1, 10, &v), -1);
    assert_int_equal(cli_parse_int(" 3", 1, 10, &v), -1);
    double d;
    assert_int_equal(cli_parse_double("0.12", 0, 5, &d), 0);
    assert_true(d == 0.12);
    assert_int_equal(cli_parse_double("80", 0.001, 1e6, &d), 0);
    assert_true(d == 80.0);
    assert_int_equal(cli_parse_double("nan", 0, 5, &d), -1);
    assert_int_equal(cli_parse_double("inf", 0, 1e300, &d), -1);
    assert_int_equal(cli_parse_double("0x10", 0, 100, &d), -1);
    assert_int_equal(cli_parse_double("6", 0, 5, &d), -1);
    assert_int_equal(cli_parse_double("1,5", 0, 5, &d), -1);
}

static void test_fmt_bytes(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(cli_fmt_bytes(0, b, sizeof b), "0 B");
    assert_string_equal(cli_fmt_bytes(512, b, sizeof b), "512 B");
    assert_string_equal(cli_fmt_bytes(4096, b, sizeof b), "4.10 kB");
    assert_string_equal(cli_fmt_bytes(16.06e9, b, sizeof b), "16.06 GB");
    assert_string_equal(cli_fmt_bytes(810e9, b, sizeof b), "810.00 GB");
    assert_string_equal(cli_fmt_bytes(1.23e12, b, sizeof b), "1.23 TB");
    assert_string_equal(cli_fmt_bytes(NAN, b, sizeof b), "-");
    assert_string_equal(cli_fmt_bytes_iec(16777216, b, sizeof b), "16.00 MiB");
    assert_string_equal(cli_fmt_bytes_iec(1.5 * 1073741824.0, b, sizeof b), "1.50 GiB");
    assert_string_equal(cli_fmt_bytes_iec(512, b, sizeof b), "512 B");
}

static void test_fmt_seconds(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(cli_fmt_seconds(1.25, b, sizeof b), "1.25 s");
    assert_string_equal(cli_fmt_seconds(0.01234, b, sizeof b), "12.34 ms");
    assert_string_equal(cli_fmt_seconds(48.9e-6, b, sizeof b), "48.90 \xc2\xb5s");
    assert_string_equal(cli_fmt_seconds(120e-9, b, sizeof b), "120 ns");
    assert_string_equal(cli_fmt_seconds(0, b, sizeof b), "0 s");
    assert_string_equal(cli_fmt_seconds(-1, b, sizeof b), "-");
    assert_string_equal(cli_fmt_seconds(INFINITY, b, sizeof b), "-");
    assert_string_equal(cli_fmt_seconds(NAN, b, sizeof b), "-");
}

static void test_fmt_rates_counts(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(cli_fmt_rate(4.5e11, "B/s", b, sizeof b), "450.00 GB/s");
    assert_string_equal(cli_fmt_rate(9.89e14, "FLOP/s", b, sizeof b), "989.00 TFLOP/s");
    assert_string_equal(cli_fmt_rate(12, "tok/s", b, sizeof b), "12 tok/s");
    assert_string_equal(cli_fmt_count(8.03e9, b, sizeof b), "8.03 B");
    assert_string_equal(cli_fmt_count(124e6, b, sizeof b), "124.00 M");
    assert_string_equal(cli_fmt_count(999, b, sizeof b), "999");
    assert_string_equal(cli_fmt_percent(0.636, b, sizeof b), "63.6%");
    assert_string_equal(cli_fmt_percent(1, b, sizeof b), "100.0%");
    assert_string_equal(cli_fmt_usd(0.4234, b, sizeof b), "$0.42");
    assert_string_equal(cli_fmt_usd(12.3, b, sizeof b), "$12.30");
    assert_string_equal(cli_fmt_usd(0.001234, b, sizeof b), "$0.0012");
    assert_string_equal(cli_fmt_usd(0, b, sizeof b), "-");
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

static void test_close_names(void **state)
{
    (void)state;
    const char *names[] = {"llama-3-8b", "llama-3-70b", "mistral-7b", "gpt3-175b",
                           "llama-7b"};
    char buf[256];
    assert_int_equal(engine_edit_distance("kitten", "sitting"), 3);
    assert_int_equal(engine_edit_distance("H100", "h100"), 0);
    int n = cli_close_names("llama3-8b", names, 5, buf, sizeof buf, 3);
    assert_true(n >= 1);
    assert_true(strncmp(buf, "llama-3-8b", 10) == 0);
    n = cli_close_names("mistral", names, 5, buf, sizeof buf, 3);
    assert_int_equal(n, 1);
    assert_string_equal(buf, "mistral-7b");
    n = cli_close_names("zzzzzzzzzz", names, 5, buf, sizeof buf, 3);
    assert_int_equal(n, 0);
    assert_string_equal(buf, "");
}

/* The shared helpers of engine/util.c (one copy for every layer). */
static void test_engine_util(void **state)
{
    (void)state;
    assert_int_equal(engine_edit_distance("", "abc"), 3);
    assert_int_equal(engine_edit_distance("batch", "bach"), 1);
    char longs[200];
    memset(longs, 'a', sizeof longs - 1);
    longs[sizeof longs - 1] = '\0';
    assert_int_equal(engine_edit_distance(longs, "a"), 1000);
    double v[] = {3, -1, 2.5, 0};
    qsort(v, 4, sizeof v[0], engine_cmp_double);
    assert_true(v[0] == -1 && v[1] == 0 && v[2] == 2.5 && v[3] == 3);
    char dir[64];
    assert_int_equal(engine_config_dir("/x/cfg", "/home/u", dir, sizeof dir), 0);
    assert_string_equal(dir, "/x/cfg/shardscope");
    assert_int_equal(engine_config_dir("rel/cfg", "/home/u", dir, sizeof dir), 0);
    assert_string_equal(dir, "/home/u/.config/shardscope");
    assert_int_equal(engine_config_dir(NULL, "/home/u", dir, sizeof dir), 0);
    assert_string_equal(dir, "/home/u/.config/shardscope");
    assert_int_equal(engine_config_dir(NULL, "", dir, sizeof dir), -1);
    assert_string_equal(dir, "");
    assert_int_equal(engine_config_dir("/a/very/long/path", NULL, dir, 8), -1);
    assert_string_equal(dir, "");
    assert_string_equal(engine_graphs_name(ENGINE_GRAPHS_OFF), "off");
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_size_units),
        cmocka_unit_test(test_parse_size_rejects_junk),
        cmocka_unit_test(test_parse_int_and_double),
        cmocka_unit_test(test_fmt_bytes),
        cmocka_unit_test(test_fmt_seconds),
        cmocka_unit_test(test_fmt_rates_counts),
        cmocka_unit_test(test_calibration_label),
        cmocka_unit_test(test_close_names),
        cmocka_unit_test(test_engine_util),
        cmocka_unit_test(test_json_never_nan),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
