/*
 * test_validation.c - the engine against the shipped table of published
 * measurements (presets/validation_cases.c: sources, setups and the
 * reasons for every outlier are there).
 *
 * Assertions:
 *  - every case builds from the shipped presets and evaluates;
 *  - every in-scope case predicts within its own stated band:
 *    |predicted / measured - 1| <= band (0.30 for most; a wider band comes
 *    with its note);
 *  - no in-scope measured run is refused as "does not fit";
 *  - the table is broad: at least 100 in-scope cases and at least 8 per
 *    category (the error bands fall back below 8);
 *  - the error bands built from it contain every value and are not empty.
 * Each case prints one line (measured, predicted, ratio); `make validate`
 * prints the per-category table.  Ratios are predicted / measured for
 * times and rates alike.
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

#include "engine.h"
#include "preset.h"
#include "validation.h"
#include "support_presets.h"

static val_result *results;

static int setup(void **state)
{
    if (ts_presets_setup(state) != 0)
        return -1;
    results = calloc((size_t)val_case_count, sizeof *results);
    if (!results)
        return -1;
    val_run_all(ts_db, results, NULL);
    return 0;
}

static int teardown(void **state)
{
    free(results);
    results = NULL;
    return ts_presets_teardown(state);
}

static void test_every_case_in_its_band(void **state)
{
    (void)state;
    int checked = 0;
    for (int i = 0; i < val_case_count; i++) {
        const val_result *r = &results[i];
        const val_case *c = &val_cases[i];
        if (!r->ok)
            print_message("  %s: %s\n", c->id, r->error);
        assert_true(r->ok);
        print_message("  %-44s %-10s measured %12.5g predicted %12.5g ratio %5.2f%s\n", c->id,
                      val_metric_name(c->metric), c->measured, r->predicted, r->ratio,
                      c->out_of_scope ? "  (out of scope)" : "");
        assert_true(isfinite(r->predicted) && r->predicted > 0);
        assert_true(c->band > 0 && c->source && c->source[0] && c->setup && c->setup[0]);
        if (!(fabs(r->ratio - 1.0) <= c->band))
            print_message("  %s: ratio %.3f outside its band %.2f\n", c->id, r->ratio, c->band);
        assert_true(fabs(r->ratio - 1.0) <= c->band);
        /* a band wider than 0.35 has to say why */
        if (c->band > 0.35 + 1e-9)
            assert_true(c->note && c->note[0]);
        checked++;
    }
    assert_int_equal(checked, val_case_count);
}

static void test_no_measured_run_refused(void **state)
{
    (void)state;
    for (int i = 0; i < val_case_count; i++) {
        if (val_cases[i].out_of_scope)
            continue;
        if (!results[i].fits)
            print_message("  %s: refused as does not fit\n", val_cases[i].id);
        assert_true(results[i].fits);
    }
}

static void test_table_is_broad(void **state)
{
    (void)state;
    int in_scope = 0;
    int per_cat[VAL_CAT_COUNT] = {0};
    for (int i = 0; i < val_case_count; i++) {
        if (val_cases[i].out_of_scope)
            continue;
        in_scope++;
        for (int c = 0; c < VAL_CAT_COUNT; c++)
            if (results[i].categories & (1u << c))
                per_cat[c]++;
    }
    print_message("  %d cases in scope\n", in_scope);
    assert_true(in_scope >= 100);
    for (int c = 0; c < VAL_CAT_COUNT; c++) {
        print_message("  %-24s %3d\n", val_category_name((val_category)c), per_cat[c]);
        assert_true(per_cat[c] >= ENGINE_BAND_MIN_CASES);
    }
    /* ids are unique */
    for (int i = 0; i < val_case_count; i++)
        for (int j = i + 1; j < val_case_count; j++)
            assert_true(strcmp(val_cases[i].id, val_cases[j].id) != 0);
}

/* The statistics helper against a hand-made set of three results. */
static void test_stats_hand(void **state)
{
    (void)state;
    static const val_case cs[3] = {
        {.id = "a", .metric = VAL_TTFT, .measured = 1.0},
        {.id = "b", .metric = VAL_TTFT, .measured = 1.0},
        {.id = "c", .metric = VAL_TPS, .measured = 100.0},
    };
    val_result r[3];
    memset(r, 0, sizeof r);
    double ratios[3] = {0.8, 1.1, 1.5}; /* APE 0.2, 0.1, 0.5 */
    for (int i = 0; i < 3; i++) {
        r[i].c = &cs[i];
        r[i].ok = 1;
        r[i].fits = 1;
        r[i].ratio = ratios[i];
        r[i].categories = 1u << VAL_CAT_PREFILL;
    }
    val_stats st;
    val_stats_of(r, 3, VAL_CAT_COUNT, &st);
    assert_int_equal(st.n, 3);
    assert_true(fabs(st.median_ape - 0.2) < 1e-12);
    /* p90 of (0.1, 0.2, 0.5): 0.2 + 0.8 x 0.3 */
    assert_true(fabs(st.p90_ape - 0.44) < 1e-12);
    assert_true(fabs(st.worst_ratio - 1.5) < 1e-12);
    /* speed: 1/0.8, 1/1.1 (times) and 1.5 (a rate): geometric mean */
    double bias = exp((log(1 / 0.8) + log(1 / 1.1) + log(1.5)) / 3);
    assert_true(fabs(st.speed_bias - bias) < 1e-12);
    val_stats_of(r, 3, VAL_CAT_TP8, &st);
    assert_int_equal(st.n, 0);
}

static void test_bands_from_the_table(void **state)
{
    (void)state;
    engine_band_table t;
    assert_int_equal(val_bands_shipped(&t), 0);
    assert_true(t.n_cases >= 100);
    /* Every key resolves to a band built from >= 8 cases (or all). */
    for (int ph = 0; ph < ENGINE_PHASE_COUNT; ph++)
        for (int moe = 0; moe < 2; moe++)
            for (int dc = 0; dc < ENGINE_DCLASS_COUNT; dc++)
                for (int cb = 0; cb < 2; cb++) {
                    engine_band b = engine_band_of(&t, (engine_phase)ph, moe, (engine_dclass)dc,
                                                   cb, 0.01, 0);
                    assert_true(b.n >= ENGINE_BAND_MIN_CASES);
                    assert_true(b.lo <= 0.01 && 0.01 <= b.hi && b.lo < b.hi);
                    b = engine_band_of(&t, (engine_phase)ph, moe, (engine_dclass)dc, cb, 500, 1);
                    assert_true(b.lo <= 500 && 500 <= b.hi && b.lo < b.hi);
                }
    /* A result evaluated with the table carries bands around its numbers. */
    engine_scenario s;
    engine_scenario_defaults(&s);
    s.model = preset_find_model(ts_db, "llama-3-8b");
    s.gpu = preset_find_gpu(ts_db, "h100-sxm");
    s.intra = preset_find_link(ts_db, "nvlink4");
    s.bands = &t;
    s.mc_samples = 0;
    engine_result r;
    assert_int_equal(engine_evaluate(&s, (engine_plan){1, 1, 1, 1}, &r, NULL), 0);
    const engine_band *bs[] = {&r.ttft_band, &r.itl_band, &r.e2e_band, &r.tps_band};
    const double vs[] = {r.ttft_s, r.itl_s, r.e2e_s, r.tokens_per_s};
    for (int i = 0; i < 4; i++) {
        assert_true(bs[i]->n > 0);
        assert_true(bs[i]->lo <= vs[i] && vs[i] <= bs[i]->hi && bs[i]->lo < bs[i]->hi);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_case_in_its_band),
        cmocka_unit_test(test_no_measured_run_refused),
        cmocka_unit_test(test_table_is_broad),
        cmocka_unit_test(test_stats_hand),
        cmocka_unit_test(test_bands_from_the_table),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
