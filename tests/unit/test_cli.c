/*
 * test_cli.c - the command line's pure helpers: size and number parsing
 * and close-name suggestions.  Exact values; no presets, no engine
 * arithmetic.  (The unit formatters and the JSON writer are tested in
 * test_out.c.)
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli_common.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_size_units),
        cmocka_unit_test(test_parse_size_rejects_junk),
        cmocka_unit_test(test_parse_int_and_double),
        cmocka_unit_test(test_close_names),
        cmocka_unit_test(test_engine_util),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
