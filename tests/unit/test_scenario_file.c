/*
 * test_scenario_file.c - scenario files (tui/cli/scenario_file.h): save ->
 * load gives the identical scenario and plan (and saves the same file
 * again); the command line overrides the file; bad files fail naming the
 * file and the field (wrong type, unknown preset, bad number, not JSON,
 * wrong kind); unknown fields are a note; the save is atomic (no
 * temporary left behind) and an unwritable path is named.
 */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "calib.h"
#include "calib_fixture.h"
#include "cli.h"
#include "cli_common.h"
#include "scenario_file.h"
#include "support_files.h"

static preset_db *g_db;
static char g_dir[256];
static const cli_command EVAL = {"eval", "s", "eval ...", &cli_eval_options, cli_eval_run};

static int setup(void **state)
{
    (void)state;
    engine_error err = {{0}};
    setenv("XDG_CONFIG_HOME", "/nonexistent/shardscope-test", 1);
    snprintf(g_dir, sizeof g_dir, "/tmp/shardscope-scenario-XXXXXX");
    if (!mkdtemp(g_dir) || preset_db_load("", &g_db, &err) != 0)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    preset_db_free(g_db);
    DIR *d = opendir(g_dir);
    struct dirent *e;
    char p[600];
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(p, sizeof p, "%s/%s", g_dir, e->d_name);
            unlink(p);
        }
    if (d)
        closedir(d);
    rmdir(g_dir);
    return 0;
}

/* Parse a NULL-ended argument list (argv[0] "eval"). */
static void parse(cli_opts *o, ...)
{
    static char *argv[96];
    int argc = 0;
    va_list ap;
    va_start(ap, o);
    for (char *a; argc < 95 && (a = va_arg(ap, char *));)
        argv[argc++] = a;
    va_end(ap);
    engine_error err = {{0}};
    if (cli_opts_parse(&EVAL, argc, argv, o, &err) != CLI_OK)
        fail_msg("parse: %s", err.msg);
}

static char *path_of(const char *name)
{
    static char p[4][600];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", g_dir, name);
    return p[k];
}

static char *read_all(const char *path)
{
    static char buf[2][8192];
    static int k;
    k = !k;
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf[k], 1, sizeof buf[k] - 1, f);
    buf[k][n] = '\0';
    fclose(f);
    return buf[k];
}

/* Merge path into *o and load; returns the load status, err filled. */
static int load_with_file(cli_opts *o, const char *path, cli_scenario *cs, char *note,
                          engine_error *err)
{
    cli_scenario_file sf;
    if (cli_scenario_file_merge(path, o, &sf, err) != 0)
        return -1;
    if (note)
        snprintf(note, 512, "%s", sf.note);
    int rc = cli_scenario_load(o, g_db, CLI_NEED_ALL | CLI_ALLOW_LOAD, "eval", cs, err);
    if (rc != 0)
        cli_scenario_file_blame(&sf, err);
    cli_scenario_file_free(&sf);
    return rc;
}

/* The two scenarios are the same, byte for byte, once the pointers into
 * each cli_scenario's own storage (bands, calibration) are set aside. */
static void assert_same(const cli_scenario *a, const cli_scenario *b)
{
    engine_scenario x = a->scenario, y = b->scenario;
    assert_int_equal(x.bands != NULL, y.bands != NULL);
    assert_int_equal(x.calib != NULL, y.calib != NULL);
    x.bands = y.bands = NULL;
    x.calib = y.calib = NULL;
    assert_ptr_equal(x.model, y.model);
    assert_ptr_equal(x.gpu, y.gpu);
    assert_ptr_equal(x.intra, y.intra);
    assert_ptr_equal(x.inter, y.inter);
    assert_ptr_equal(x.framework, y.framework);
    assert_int_equal(memcmp(&x, &y, sizeof x), 0);
    assert_int_equal(a->has_plan, b->has_plan);
    assert_memory_equal(&a->plan, &b->plan, sizeof a->plan);
}

static void test_round_trip(void **state)
{
    (void)state;
    static cli_opts o1, o2;
    static cli_scenario c1, c2;
    engine_error err = {{0}};
    parse(&o1, "eval", "--model", "llama-3-70b", "--gpu", "h100-sxm", "--tp", "4", "--pp", "2",
          "--link", "nvlink4", "--inter-link", "ib-hdr", "--gpus-per-node", "4", "--vram-gb",
          "70.5", "--framework", "vllm", "--cuda-graphs", "off", "--mem-fraction", "0.85",
          "--max-model-len", "8192", "--batch", "3", "--prompt", "2000", "--gen", "300",
          "--dtype", "fp8", "--kv-dtype", "fp8", "--act-dtype", "bf16", "--microbatches", "4",
          "--decode-microbatches", "1", "--schedule", "interleaved", "--interleave", "3", "--objective", "throughput",
          "--jitter", "0.2", "--straggler-prob", "0.01", "--straggler-slowdown", "2",
          "--samples", "50", "--seed", "18446744073709551615", "--no-calib", NULL);
    assert_int_equal(cli_scenario_load(&o1, g_db, CLI_NEED_ALL | CLI_ALLOW_LOAD, "eval", &c1,
                                       &err), 0);
    const char *f1 = path_of("one.json");
    assert_int_equal(cli_scenario_file_save(f1, &o1, &c1, &err), 0);
    parse(&o2, "eval", "--scenario", f1, NULL);
    char note[512];
    assert_int_equal(load_with_file(&o2, f1, &c2, note, &err), 0);
    assert_string_equal(note, "");
    assert_same(&c1, &c2);
    assert_true(c2.scenario.vram_bytes == 70.5e9);
    assert_true(c2.scenario.seed == UINT64_MAX);
    assert_int_equal(c2.scenario.decode_microbatches, 1);
    /* saved again from what was loaded: the same file */
    const char *f2 = path_of("two.json");
    assert_int_equal(cli_scenario_file_save(f2, &o2, &c2, &err), 0);
    assert_string_equal(read_all(f1), read_all(f2));
    assert_non_null(strstr(read_all(f1), "\"kind\":\t\"shardscope scenario\""));
    assert_non_null(strstr(read_all(f1), "\"seed\":\t\"18446744073709551615\""));
    /* batch max, a ranking (no plan) and the GPU's usual topology */
    static cli_opts o3, o4;
    static cli_scenario c3, c4;
    parse(&o3, "eval", "--model", "llama-3-8b", "--gpu", "a100-80gb", "--gpus", "4", "--batch",
          "max", NULL);
    assert_int_equal(cli_scenario_load(&o3, g_db, CLI_NEED_ALL | CLI_ALLOW_LOAD, "eval", &c3,
                                       &err), 0);
    assert_int_equal(cli_scenario_file_save(f1, &o3, &c3, &err), 0);
    assert_non_null(strstr(read_all(f1), "\"batch\":\t\"max\""));
    parse(&o4, "eval", NULL);
    assert_int_equal(load_with_file(&o4, f1, &c4, NULL, &err), 0);
    assert_same(&c3, &c4);
    assert_false(c4.has_plan);
}

/* Flags on the command line override the file's fields. */
static void test_command_line_wins(void **state)
{
    (void)state;
    const char *f = path_of("wins.json");
    ts_write_file(f, "{\"model\": \"llama-3-8b\", \"gpu\": \"h100-sxm\", \"gpus\": 2, "
                  "\"batch\": 4, \"prompt\": 512}");
    static cli_opts o;
    static cli_scenario cs;
    engine_error err = {{0}};
    parse(&o, "eval", "--batch", "8", "--gpus", "4", NULL);
    assert_int_equal(load_with_file(&o, f, &cs, NULL, &err), 0);
    assert_int_equal(cs.scenario.batch, 8);
    assert_int_equal(cs.scenario.gpus, 4);
    assert_int_equal(cs.scenario.prompt, 512);
    assert_string_equal(cs.scenario.model->name, "llama-3-8b");
}

/* One line naming the file and the field; unknown fields are a note. */
static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"{\"model\": \"llama-3-8b\", \"gpu\": \"h100-sxm\", \"gpus\": \"2\"}",
         ": gpus: expected an integer 1..1048576, got \"2\""},
        {"{\"model\": \"llama-3-8b\", \"gpu\": \"h100-sxx\", \"gpus\": 2}",
         ": gpu: unknown gpu 'h100-sxx'"},
        {"{\"model\": \"llama-3-8b\", \"gpu\": \"h100-sxm\", \"gpus\": 2, \"prompt\": 1.5}",
         ": prompt: expected an integer 1..100000000, got 1.5"},
        {"{\"model\": \"llama-3-8b\", \"gpu\": \"h100-sxm\", \"gpus\": 2, \"jitter\": 9}",
         ": jitter: expected a number 0..3, got 9"},
        {"{\"model\": \"llama-3-8b\", \"gpu\": \"h100-sxm\", \"gpus\": 2, \"dtype\": \"fp7\"}",
         ": dtype: expected one of fp16|bf16|fp8|int8|int4|fp4, got \"fp7\""},
        {"{\"model\": \"llama-3-8b\", \"gpu\": \"h100-sxm\", \"gpus\": 2, \"no_calib\": 1}",
         ": no_calib: expected true or false, got 1"},
        {"{\"model\": \"llama-3-8b\",\n \"gpus\": 2,,}", ": not JSON (line 2)"},
        {"[1, 2]", ": expected a JSON object of scenario fields"},
        {"{\"kind\": \"calibration\"}", ": kind: expected \"shardscope scenario\", got "
                                        "\"calibration\""},
        {"{\"model\": \"llama-3-8b\", \"gpu\": \"h100-sxm\", \"gpus\": 2, \"prompt\": 9000}",
         ": prompt/gen: prompt + gen = 9256 tokens exceeds the context of 8192"},
    };
    const char *f = path_of("bad.json");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ts_write_file(f, cases[i].text);
        static cli_opts o;
        static cli_scenario cs;
        engine_error err = {{0}};
        parse(&o, "eval", NULL);
        assert_int_equal(load_with_file(&o, f, &cs, NULL, &err), -1);
        char want[600];
        snprintf(want, sizeof want, "%s%s", f, cases[i].want);
        if (strncmp(err.msg, want, strlen(want)) != 0)
            fail_msg("case %zu: got '%s', want '%s...'", i, err.msg, want);
        assert_null(strchr(err.msg, '\n'));
    }
    /* a flag of the command line is still named as a flag */
    ts_write_file(f, "{\"model\": \"llama-3-8b\", \"gpus\": 2}");
    static cli_opts o;
    static cli_scenario cs;
    engine_error err = {{0}};
    parse(&o, "eval", "--gpu", "h100-sxx", NULL);
    assert_int_equal(load_with_file(&o, f, &cs, NULL, &err), -1);
    assert_int_equal(strncmp(err.msg, "--gpu: unknown gpu 'h100-sxx'", 29), 0);
    /* missing file */
    parse(&o, "eval", NULL);
    assert_int_equal(load_with_file(&o, path_of("none.json"), &cs, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "none.json: cannot read: No such file or directory"));
    /* unknown fields: a note, and it still loads */
    ts_write_file(f, "{\"model\": \"llama-3-8b\", \"gpu\": \"h100-sxm\", \"gpus\": 2, "
                  "\"colour\": \"blue\", \"owner\": 1}");
    char note[512];
    parse(&o, "eval", NULL);
    assert_int_equal(load_with_file(&o, f, &cs, note, &err), 0);
    assert_string_equal(note, "colour, owner");
    assert_int_equal(cs.scenario.gpus, 2);
}

/* The save goes through a temporary file renamed into place: nothing else
 * is left in the directory; a path in a missing directory is named. */
static void test_save_atomic(void **state)
{
    (void)state;
    static cli_opts o;
    static cli_scenario cs;
    engine_error err = {{0}};
    parse(&o, "eval", "--model", "llama-3-8b", "--gpu", "h100-sxm", "--gpus", "1", NULL);
    assert_int_equal(cli_scenario_load(&o, g_db, CLI_NEED_ALL | CLI_ALLOW_LOAD, "eval", &cs,
                                       &err), 0);
    char sub[400];
    snprintf(sub, sizeof sub, "%s/atomic", g_dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    char path[500];
    snprintf(path, sizeof path, "%s/s.json", sub);
    assert_int_equal(cli_scenario_file_save(path, &o, &cs, &err), 0);
    assert_int_equal(cli_scenario_file_save(path, &o, &cs, &err), 0); /* replaces it */
    DIR *d = opendir(sub);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(n, 1);
    unlink(path);
    rmdir(sub);
    assert_int_equal(cli_scenario_file_save("/nonexistent/dir/s.json", &o, &cs, &err), -1);
    assert_non_null(strstr(err.msg, "/nonexistent/dir/s.json: cannot create a temporary file"));
}

/* --calib FILE with NCCL tables: the link inside the node takes them as
 * its measured curves.  The fixture's all-reduce lies on 12 us + bytes /
 * 150 GB/s at 1 KiB .. 16 MiB on 2 GPUs, so at 3 MB over TP2 the engine's
 * all-reduce is 12 us + 3e6 / 150e9 = 32 us (linear between sizes is exact
 * on it); a file whose comm is the loopback leaves the preset link. */
static void test_calib_nccl_tables_time_the_link(void **state)
{
    (void)state;
    calib_result r;
    assert_int_equal(ts_calib_fixture(&r), 0);
    char *path = path_of("cal.json");
    engine_error err = {{0}};
    assert_int_equal(calib_store_save(&r, path, CALIB_STORE_NORMAL, &err), 0);
    cli_opts o;
    parse(&o, "eval", "--model", "llama-3-8b", "--gpu", "h100-sxm", "--gpus", "2", "--tp", "2",
          "--calib", path, NULL);
    static cli_scenario cs;
    assert_int_equal(cli_scenario_load(&o, g_db, CLI_NEED_ALL, "eval", &cs, &err), 0);
    const engine_link *l = cs.scenario.intra;
    assert_ptr_equal(l, &cs.calib_link);
    assert_string_equal(l->name, "nvlink4");
    assert_int_equal(l->curve[ENGINE_OP_ALLREDUCE].n, 8);
    assert_int_equal(l->curve[ENGINE_OP_ALLREDUCE].gpus, 2);
    double t = engine_comm_time(ENGINE_OP_ALLREDUCE, l, NULL, 2, 0, 3e6);
    assert_true(fabs(t / 32e-6 - 1) < 1e-9);
    calib_result_free(&r);
    assert_int_equal(ts_calib_fixture(&r), 0);
    snprintf(r.comm_label, sizeof r.comm_label, "loopback (2 local processes)");
    assert_int_equal(calib_store_save(&r, path, CALIB_STORE_NORMAL, &err), 0);
    static cli_scenario c2;
    assert_int_equal(cli_scenario_load(&o, g_db, CLI_NEED_ALL, "eval", &c2, &err), 0);
    assert_ptr_not_equal(c2.scenario.intra, &c2.calib_link);
    assert_int_equal(c2.scenario.intra->curve[ENGINE_OP_ALLREDUCE].n == 8, 0);
    calib_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_command_line_wins),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_save_atomic),
        cmocka_unit_test(test_calib_nccl_tables_time_the_link),
    };
    return cmocka_run_group_tests_name("scenario_file", tests, setup, teardown);
}
