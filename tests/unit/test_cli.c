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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
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


/* --- the option parser (opts.h) ------------------------------------------ */

static const cli_command T_EVAL = {"eval", "s", "eval ...", &cli_eval_options, cli_eval_run};
static const cli_command T_REPORT = {"report", "s", "report", &cli_report_options, cli_report_run};
static const cli_command T_LIST = {"list", "s", "list", &cli_list_options, cli_list_run};

/* Parse a NULL-ended argument list (argv[0] is the command name). */
static int parse_args(const cli_command *c, cli_opts *o, engine_error *err, ...)
{
    char *argv[32];
    int argc = 0;
    va_list ap;
    va_start(ap, err);
    for (char *a; argc < 31 && (a = va_arg(ap, char *)); )
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    return cli_opts_parse(c, argc, argv, o, err);
}

static void test_opts_typed_values(void **state)
{
    (void)state;
    cli_opts o;
    engine_error err = {{0}};
    assert_int_equal(parse_args(&T_EVAL, &o, &err, "eval", "--gpus", "8", "--vram-gb=80",
                                "--seed", "18446744073709551615", "--dtype", "FP8", "--json",
                                "--model", "no-such-model", "--jitter", "0", NULL),
                     CLI_OK);
    assert_ptr_equal(o.cmd, &T_EVAL);
    assert_int_equal(o.v.gpus, 8);
    assert_true(CLI_SEEN(&o, gpus));
    assert_true(o.v.vram_gb == 80.0);
    assert_true(o.v.seed == UINT64_MAX);
    assert_int_equal(o.v.dtype, ENGINE_FP8);
    assert_true(CLI_SEEN(&o, dtype));
    assert_int_equal(o.v.json, 1);
    /* Parsing loads nothing: an unknown preset is just a string here. */
    assert_string_equal(o.v.model, "no-such-model");
    /* Given as zero is not the same as not given. */
    assert_true(CLI_SEEN(&o, jitter) && o.v.jitter == 0);
    assert_false(CLI_SEEN(&o, batch));
    assert_int_equal(o.v.batch, 0);
    assert_false(CLI_SEEN(&o, kv_dtype));
    assert_string_equal(err.msg, "");

    /* Repeated list options append; the command's own --model shadows the
     * scenario's. */
    assert_int_equal(parse_args(&T_REPORT, &o, &err, "report", "--model", "a", "--model=b,c",
                                "--format", "csv", NULL),
                     CLI_OK);
    assert_int_equal(o.v.models.n, 2);
    assert_string_equal(o.v.models.item[1], "b,c");
    assert_null(o.v.model);
    assert_int_equal(o.v.format, 1);

    /* Positional arguments, up to the command's max. */
    assert_int_equal(parse_args(&T_LIST, &o, &err, "list", "gpus", "--json", NULL), CLI_OK);
    assert_int_equal(o.n_pos, 1);
    assert_string_equal(o.pos[0], "gpus");
    assert_int_equal(parse_args(&T_LIST, &o, &err, "list", "a", "b", "c", NULL), CLI_USAGE);
    assert_string_equal(err.msg,
                        "shardscope list: unexpected argument 'c' (see 'shardscope list --help')");
}

static void test_opts_errors(void **state)
{
    (void)state;
    cli_opts o;
    engine_error err = {{0}};
    static const struct {
        const char *a, *b, *msg;
    } cases[] = {
        {"--bogus", NULL, "shardscope eval: --bogus: unknown option (see 'shardscope eval --help')"},
        {"--bach", "4",
         "shardscope eval: --bach: unknown option (see 'shardscope eval --help')\n"
         "shardscope eval: did you mean --batch?"},
        {"--gpus", NULL, "shardscope eval: --gpus: missing value"},
        {"--gpus", "--json", "shardscope eval: --gpus: missing value"},
        {"--gpus", "0", "shardscope eval: --gpus: expected an integer 1..1048576, got '0'"},
        {"--gpus", "1048577",
         "shardscope eval: --gpus: expected an integer 1..1048576, got '1048577'"},
        {"--batch", "16777217",
         "shardscope eval: --batch: expected an integer 1..16777216 or max, got '16777217'"},
        {"--batch", "maxx",
         "shardscope eval: --batch: expected an integer 1..16777216 or max, got 'maxx'"},
        {"--jitter", "3.5", "shardscope eval: --jitter: expected a number 0..3, got '3.5'"},
        {"--vram-gb", "inf", "shardscope eval: --vram-gb: expected a number 0.001..1e+06, got 'inf'"},
        {"--seed", "-1",
         "shardscope eval: --seed: expected an integer 0..18446744073709551615, got '-1'"},
        {"--schedule", "zigzag",
         "shardscope eval: --schedule: expected gpipe|1f1b|interleaved, got 'zigzag'"},
        {"--cuda-graphs", "maybe",
         "shardscope eval: --cuda-graphs: expected default|on|off, got 'maybe'"},
        /* Activations are a float format: no int8/int4/fp4 (issue 13). */
        {"--act-dtype", "int4", "shardscope eval: --act-dtype: expected fp16|bf16|fp8, got 'int4'"},
        {"--act-dtype", "int8", "shardscope eval: --act-dtype: expected fp16|bf16|fp8, got 'int8'"},
        {"--model=", NULL, "shardscope eval: --model: expected a value, got ''"},
        {"--json=yes", NULL, "shardscope eval: --json: takes no value, got 'yes'"},
        {"stray", NULL, "shardscope eval: unexpected argument 'stray' (see 'shardscope eval --help')"},
        /* Control characters of argv never split the message (make fuzz). */
        {"--gpus", "\n\n4", "shardscope eval: --gpus: expected an integer 1..1048576, got '??4'"},
        {"--bach\n", "4",
         "shardscope eval: --bach?: unknown option (see 'shardscope eval --help')\n"
         "shardscope eval: did you mean --batch?"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(parse_args(&T_EVAL, &o, &err, "eval", "--gpus", "2", cases[i].a,
                                    cases[i].b, NULL),
                         CLI_USAGE);
        assert_string_equal(err.msg, cases[i].msg);
    }
    /* --help wins unless a mistake came first; err may be NULL. */
    assert_int_equal(parse_args(&T_EVAL, &o, NULL, "eval", "--gpus", "x", "--help", NULL),
                     CLI_USAGE);
    assert_int_equal(parse_args(&T_EVAL, &o, NULL, "eval", "--help", "--gpus", "x", NULL),
                     CLI_HELP);
    assert_int_equal(parse_args(&T_EVAL, &o, NULL, "eval", "-h", NULL), CLI_HELP);
}

/* Every table: well formed, limits from engine.h, help generated with the
 * choices from the engine. */
static void test_opts_tables(void **state)
{
    (void)state;
    const cli_options *all[] = {&cli_tui_options,       &cli_list_options,
                                &cli_eval_options,      &cli_comm_options,
                                &cli_recommend_options, &cli_report_options,
                                &cli_calibrate_options, &cli_validate_options,
                                &cli_bench_options};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        for (int t = 0; t < 3 && all[k]->tables[t]; t++)
            for (const cli_opt *o = all[k]->tables[t]; o->name; o++) {
                assert_true(strncmp(o->name, "--", 2) == 0);
                assert_true(o->off < sizeof(cli_values));
                if (o->kind == CLI_OPT_ENUM)
                    assert_non_null(o->choices);
                if (o->kind == CLI_OPT_INT || o->kind == CLI_OPT_DOUBLE)
                    assert_true(o->min <= o->max);
                if (o->kind != CLI_OPT_FLAG && o->kind != CLI_OPT_ENUM && o->help)
                    assert_non_null(o->arg);
                for (const cli_opt *p = o + 1; p->name; p++)
                    assert_true(strcmp(o->name, p->name) != 0);
            }
    for (const cli_opt *o = cli_scenario_opts; o->name; o++) {
        if (!strcmp(o->name, "--gpus") || !strcmp(o->name, "--tp"))
            assert_true(o->max == ENGINE_MAX_GPUS);
        if (!strcmp(o->name, "--batch"))
            assert_true(o->max == ENGINE_MAX_BATCH);
        if (!strcmp(o->name, "--prompt") || !strcmp(o->name, "--gen"))
            assert_true(o->max == ENGINE_MAX_TOKENS);
        if (!strcmp(o->name, "--samples"))
            assert_true(o->max == ENGINE_MAX_SAMPLES);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    cli_opts_help(&T_EVAL, f);
    fclose(f);
    assert_non_null(strstr(text, "usage: shardscope eval ...\n"));
    assert_non_null(strstr(text, "\n  --framework F        vllm|sglang|trt-llm|generic"));
    assert_non_null(strstr(text, "\n  --dtype D            fp16|bf16|fp8|int8|int4|fp4: weights"));
    assert_non_null(strstr(text, "\n  --gpus N             number of GPUs, 1..1048576\n"));
    assert_non_null(strstr(text, "\n  --act-dtype D        fp16|bf16|fp8: activations"));
    assert_non_null(strstr(text, "\nworkload:\n  --batch B"));
    assert_non_null(strstr(text, "\n  --csv  "));
    free(text);
    /* every command's help keeps within 80 columns (UTF-8 characters):
     * each option's text is one paragraph wrapped from the help column, a
     * name wider than its column on a line of its own */
    static const cli_options *const ALL[] = {&cli_eval_options,     &cli_load_options,
                                             &cli_recommend_options, &cli_report_options,
                                             &cli_list_options,      &cli_comm_options,
                                             &cli_calibrate_options, &cli_tui_options,
                                             &cli_bench_options,     &cli_validate_options};
    for (size_t i = 0; i < sizeof ALL / sizeof ALL[0]; i++) {
        for (int t = 0; t < 3 && ALL[i]->tables[t]; t++)
            for (const cli_opt *o = ALL[i]->tables[t]; o->name; o++)
                if (o->help) /* room for the names of an enumeration too */
                    assert_true(strlen(o->help) + 256 < CLI_HELP_TEXT_MAX);
        cli_command cmd = {"x", "s", "x ...", ALL[i], cli_eval_run};
        text = NULL;
        f = open_memstream(&text, &len);
        assert_non_null(f);
        cli_opts_help(&cmd, f);
        fclose(f);
        int col = 0;
        for (const char *p = text; *p; p++) {
            if (*p == '\n') {
                col = 0;
                continue;
            }
            if (((unsigned char)*p & 0xC0) != 0x80 && ++col > 80)
                fail_msg("help of command %zu: a line passes 80 columns: %.80s", i, p - 80);
        }
        free(text);
    }
    text = NULL;
    f = open_memstream(&text, &len);
    cli_opts_help(&T_EVAL, f);
    fclose(f);
    /* a long name stands alone, its text on the next line at the column */
    assert_non_null(strstr(text, "\n  --a2a nccl|deepep|deepep-ll\n                       EP "));
    free(text);
}


int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_size_units),
        cmocka_unit_test(test_parse_size_rejects_junk),
        cmocka_unit_test(test_parse_int_and_double),
        cmocka_unit_test(test_close_names),
        cmocka_unit_test(test_opts_typed_values),
        cmocka_unit_test(test_opts_errors),
        cmocka_unit_test(test_opts_tables),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
