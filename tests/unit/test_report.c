/*
 * test_report.c - the seed scaling study's tables (engine/report.c) and
 * their CSV files (shardscope report --out): every table has its columns
 * (units in the names) and one row per model / interconnect / plan; the
 * numbers the seed can check are checked (bubble fractions, minimum GPU
 * counts, the PCIe 3/4 regime crossover of the 70B model), and the rest
 * obey the invariants (efficiency in (0, 1], P99 >= P50, PP slower than TP).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "report.h"
#include "fmt.h"
#include "plots.h"
#include "preset.h"
#include "support_presets.h"
#include "support_files.h"
#include "cli.h"

static const char *const MODELS[] = {"gpt2-124m", "llama-7b", "llama-13b", "llama-2-70b",
                                     "falcon-180b"};
static const char *const LINKS[] = {"pcie3", "pcie4", "nvlink3", "nvlink4"};
enum { N_MODELS = 5, N_LINKS = 4 };

static report_tables *compute(report_inputs *in)
{
    report_inputs_defaults(in, preset_find_gpu(ts_db, "a100-80gb"));
    assert_non_null(in->base.gpu);
    for (int i = 0; i < N_MODELS; i++) {
        in->models[i] = preset_find_model(ts_db, MODELS[i]);
        assert_non_null(in->models[i]);
    }
    in->n_models = N_MODELS;
    for (int i = 0; i < N_LINKS; i++) {
        in->links[i] = preset_find_link(ts_db, LINKS[i]);
        assert_non_null(in->links[i]);
    }
    in->n_links = N_LINKS;
    in->ref_link = in->links[2];
    in->focus = 1;
    report_tables *t = calloc(1, sizeof *t);
    assert_non_null(t);
    engine_error err = {{0}};
    assert_int_equal(report_compute(in, t, &err), 0);
    return t;
}

/* The top plan per model and TP 8 on every link, with the seed's regimes. */
static void check_top_and_tp8(const report_tables *t)
{
    for (int m = 0; m < N_MODELS; m++) {
        assert_true(t->top_found[m]);
        const engine_result *r = &t->top[m];
        assert_true(r->plan.tp * r->plan.pp >= 2);
        assert_int_equal(r->plan.dp, 1);
        assert_true(r->efficiency > 0 && r->efficiency <= 1);
        assert_true(r->p99_s >= r->p50_s && r->p50_s > 0);
        assert_true(r->fits);
    }
    /* Falcon-180B needs 8 x 80 GB (seed: "TP 8 ... 54.97 GB"). */
    assert_int_equal(t->top[4].plan.tp * t->top[4].plan.pp, 8);

    /* GPT-2 has 12 heads: TP=8 is not a plan (the seed shows numbers). */
    assert_false(t->tp8[0][0].valid);
    for (int m = 1; m < N_MODELS; m++)
        for (int l = 0; l < N_LINKS; l++) {
            const engine_result *r = &t->tp8[m][l];
            assert_true(r->valid);
            assert_true(r->efficiency > 0 && r->efficiency <= 1);
            if (l > 0) /* a faster link is never less efficient */
                assert_true(r->efficiency >= t->tp8[m][l - 1].efficiency);
        }
    /* Seed: "LLaMA-70B ... 1.66 on PCIe 4.0 (C) ... 0.80 on PCIe 3.0 (M)":
     * the same crossover here (0.87 M on PCIe 3.0, 1.24 C on PCIe 4.0).
     * The all-reduces pay a fixed cost per call, but the compute side also
     * carries each kernel's fixed cost (the per-kernel model), so the ratio
     * lands near the seed's. */
    assert_int_equal(t->tp8[3][0].regime, 'M');
    assert_int_equal(t->tp8[3][1].regime, 'C');
    assert_int_equal(t->tp8[3][2].regime, 'C');
    /* The seed's LLaMA-7B on NVLink 4 is 10.02 (C); ours 2.4 (C): the
     * measured NCCL all-reduce of a few KB costs ~15 us, not the seed's
     * alpha-beta ~1 us; on PCIe 3.0 the 7B model is communication-bound
     * (seed 0.29 M, ours 0.38 M). */
    assert_int_equal(t->tp8[1][3].regime, 'C');
    assert_int_equal(t->tp8[1][0].regime, 'M');
    assert_int_equal(t->tp8[2][3].regime, 'C');
}

/* TP vs PP and the minimum GPU counts by memory. */
static void check_splits_and_memory(const report_tables *t)
{
    /* TP vs PP: the seed's bubbles 20.0%, 42.9%, 46.7%; PP is several
     * times slower than TP 8 (seed 4-6x, ours ~4x). */
    assert_true(t->n_splits >= 4);
    assert_true(fabs(t->splits[1].r.bubble_fraction - 0.200) < 1e-3);
    assert_true(fabs(t->splits[2].r.bubble_fraction - 3.0 / 7.0) < 1e-3);
    assert_true(fabs(t->splits[3].r.bubble_fraction - 7.0 / 15.0) < 1e-3);
    for (int i = 1; i <= 3; i++)
        assert_true(t->splits[i].vs_tp > 2.0);
    assert_true(fabs(t->splits[0].vs_tp - 1.0) < 1e-12);

    /* Minimum GPUs by memory, where the seed's table agrees with ours:
     * LLaMA-7B >= 4 / 1 / 1 / 1, LLaMA-13B 8 / 2 / 1 / 1, LLaMA-70B x / 8 / 8 / 2,
     * Falcon-180B x / x / 16 / 8.  (Seed "OOM" at 8 GB for 70B and at 24 GB
     * for Falcon: we allow pipeline stages too and find 32.) */
    static const int want[N_MODELS][REPORT_N_VRAM] = {
        {1, 1, 1, 1}, {4, 1, 1, 1}, {8, 2, 1, 1}, {32, 8, 8, 2}, {0, 32, 16, 8}};
    for (int m = 0; m < N_MODELS; m++)
        for (int v = 0; v < REPORT_N_VRAM; v++)
            assert_int_equal(t->min_gpus[m][v], want[m][v]);
}

/* The cheapest list, the tails and the figures' sweeps. */
static void check_cheap_tails_sweeps(const report_tables *t, const report_inputs *in)
{
    /* Cheapest: ascending, all priced. */
    assert_true(t->n_cheap >= 3);
    for (int i = 0; i < t->n_cheap; i++) {
        assert_true(t->cheap[i].r.cost_per_mtok_usd > 0);
        if (i)
            assert_true(t->cheap[i].r.cost_per_mtok_usd >= t->cheap[i - 1].r.cost_per_mtok_usd);
    }
    /* Tails: P99 >= P50 on every link; faster links are never slower. */
    for (int l = 0; l < N_LINKS; l++) {
        assert_true(t->tails[l].p99_s >= t->tails[l].p50_s);
        if (l)
            assert_true(t->tails[l].p50_s <= t->tails[l - 1].p50_s);
    }
    /* Figures' sweeps: no NaN, bubble equals the formula. */
    for (int i = 0; i < REPORT_N_PP; i++)
        for (int j = 0; j < REPORT_N_M; j++) {
            double p = t->bubble_pp[i], mm = t->bubble_m[j];
            assert_true(fabs(t->bubble[i][j] - (p - 1) / (mm + p - 1)) < 1e-12);
        }
    for (int m = 0; m < N_MODELS; m++)
        for (int c = 0; c < in->n_counts; c++)
            assert_true(isfinite(t->vram_frontier[m][c]) && t->vram_frontier[m][c] > 0);
}

static void test_tables_numbers(void **state)
{
    (void)state;
    report_inputs in;
    report_tables *t = compute(&in);
    check_top_and_tp8(t);
    check_splits_and_memory(t);
    check_cheap_tails_sweeps(t, &in);
    free(t);
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void check_csv(const char *dir, const char *name, const char *header, int rows)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.csv", dir, name);
    char *s = ts_slurp(path, NULL);
    size_t hl = strlen(header);
    if (strncmp(s, header, hl) != 0 || s[hl] != '\n')
        fail_msg("%s: header is '%.*s', want '%s'", name, (int)strcspn(s, "\n"), s, header);
    if (count_lines(s) != rows + 1)
        fail_msg("%s: %d data rows, want %d", name, count_lines(s) - 1, rows);
    free(s);
}

static void test_csv_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/shardscope-report-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char out[600];
    snprintf(out, sizeof out, "%s/csv", dir);
    char *argv[] = {"report", "--out", out, "--format", "csv", NULL};
    /* The tables also go to stdout; keep the test log short. */
    fflush(stdout);
    FILE *saved = fopen("/dev/null", "w");
    assert_non_null(saved);
    int fd = dup(fileno(stdout));
    dup2(fileno(saved), fileno(stdout));
    int rc = cli_cmd_report(5, argv, ts_db);
    fflush(stdout);
    dup2(fd, fileno(stdout));
    close(fd);
    fclose(saved);
    assert_int_equal(rc, 0);

    check_csv(out, "top_config",
              "model,strategy,tp,pp,gpus,efficiency_pct,p50_ms,p99_ms,vram_per_gpu_gb", 5);
    check_csv(out, "tp_efficiency_8gpu",
              "model,pcie3_efficiency_pct,pcie4_efficiency_pct,nvlink3_efficiency_pct,"
              "nvlink4_efficiency_pct",
              5);
    check_csv(out, "compute_comm_ratio",
              "model,pcie3_ratio,pcie3_regime,pcie4_ratio,pcie4_regime,nvlink3_ratio,"
              "nvlink3_regime,nvlink4_ratio,nvlink4_regime",
              5);
    check_csv(out, "tp_vs_pp",
              "strategy,tp,pp,gpus,microbatches,bubble_pct,efficiency_pct,total_ms,vs_tp", 6);
    check_csv(out, "min_gpus", "model,gpus_8gb,gpus_24gb,gpus_40gb,gpus_80gb", 5);
    check_csv(out, "cheapest", "rank,strategy,tp,pp,gpus,interconnect,usd_per_mtok,efficiency_pct",
              REPORT_MAX_CHEAP);
    check_csv(out, "tail_latency", "interconnect,p50_ms,p99_ms,p99_over_p50", 4);

    /* The rows are the seed's models, in order. */
    char path[700];
    snprintf(path, sizeof path, "%s/top_config.csv", out);
    char *s = ts_slurp(path, NULL);
    const char *p = strchr(s, '\n') + 1;
    for (int i = 0; i < N_MODELS; i++) {
        assert_int_equal(strncmp(p, MODELS[i], strlen(MODELS[i])), 0);
        p = strchr(p, '\n') + 1;
    }
    free(s);

    /* Bad usage is status 2. */
    char *bad[] = {"report", "--format", "xml", NULL};
    fflush(stderr);
    assert_int_equal(cli_cmd_report(3, bad, ts_db), 2);
    char *bad_model[] = {"report", "--model", "no-such-model", NULL};
    assert_int_equal(cli_cmd_report(3, bad_model, ts_db), 2);

    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* The Pareto figure's table: the focus model (LLaMA-7B) on 8 x A100 over
 * the reference link, every plan and batch as engine_pareto_points gives
 * them for that scenario, from batch 1 of the fastest plan; and the SVG
 * names the frontier and each plan on it, with its axes' units. */
static void test_pareto_table_and_figure(void **state)
{
    (void)state;
    report_inputs in;
    report_tables *t = compute(&in);
    assert_true(t->n_pareto > 10);
    engine_scenario s = in.base;
    s.model = in.models[in.focus];
    s.intra = in.ref_link;
    s.gpus = REPORT_PARETO_GPUS;
    static engine_pareto_point want[REPORT_MAX_PARETO];
    assert_int_equal(engine_pareto_points(&s, want, REPORT_MAX_PARETO, NULL), t->n_pareto);
    assert_memory_equal(want, t->pareto, (size_t)t->n_pareto * sizeof want[0]);
    assert_true(t->pareto[0].frontier);
    assert_int_equal(t->pareto[0].batch, 1);
    char dir[] = "/tmp/shardscope-plots-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char failed[256] = "", path[512];
    assert_int_equal(plots_write_report(dir, &in, t, failed, sizeof failed), 0);
    snprintf(path, sizeof path, "%s/pareto_frontier.svg", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char svg[1 << 18];
    size_t n = fread(svg, 1, sizeof svg - 1, f);
    svg[n] = '\0';
    fclose(f);
    assert_non_null(strstr(svg, "data-series=\"Pareto frontier\""));
    assert_non_null(strstr(svg, "tokens/s per user (1 / ITL)"));
    assert_non_null(strstr(svg, "output tokens/s per GPU"));
    assert_non_null(strstr(svg, "Pareto frontier: LLaMA-7B on 8 x "));
    char series[96];
    fmt_plan(t->pareto[0].plan, "x", series, sizeof series);
    char want_s[128];
    snprintf(want_s, sizeof want_s, "data-series=\"%s\"", series);
    assert_non_null(strstr(svg, want_s)); /* the fastest plan's own sweep */
    static const char *const FILES[] = {"tp_scaling_efficiency.svg", "regime_heatmap.svg",
                                        "tp_vs_pp.svg", "pipeline_bubble.svg",
                                        "cost_efficiency.svg", "vram_frontier.svg",
                                        "pareto_frontier.svg"};
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, FILES[i]);
        assert_int_equal(unlink(path), 0);
    }
    assert_int_equal(rmdir(dir), 0);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_numbers),
        cmocka_unit_test(test_csv_files),
        cmocka_unit_test(test_pareto_table_and_figure),
    };
    return cmocka_run_group_tests(tests, ts_presets_setup, ts_presets_teardown);
}
