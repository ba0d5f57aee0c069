/*
 * test_grid.c - the shared sweeps (engine/grid.c): a grid cell is exactly
 * the engine call for its plan; the axes put in what they say (link
 * everywhere or intra only); the hybrid is the best TP x PP split; the
 * least-memory cell is no larger than any one-replica plan; min GPUs in
 * powers of two is a power of two and never below the any-count answer,
 * which fits while no smaller count does.
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

#include "grid.h"
#include "preset.h"
#include "support_presets.h"

static engine_scenario base_of(const char *model, const char *gpu, const char *link)
{
    engine_scenario s = ts_preset_scenario(ts_db, model, gpu, link, NULL);
    s.gpus = 8;
    s.prompt = 512; /* with 256 generated tokens inside GPT-2's 1024 */
    return s;
}

static void assert_same_result(const engine_result *a, const engine_result *b)
{
    assert_int_equal(a->valid, b->valid);
    assert_int_equal(a->fits, b->fits);
    assert_memory_equal(&a->plan, &b->plan, sizeof a->plan);
    assert_true(a->e2e_s == b->e2e_s);
    assert_true(a->itl_s == b->itl_s);
    assert_true(a->efficiency == b->efficiency);
    assert_true(a->compute_comm_ratio == b->compute_comm_ratio);
    assert_int_equal(a->regime, b->regime);
    assert_true(a->mem.per_gpu_bytes == b->mem.per_gpu_bytes);
}

static void test_axes_layout(void **state)
{
    (void)state;
    static const int counts[3] = {2, 4, 8};
    const engine_link *links[2] = {preset_find_link(ts_db, "pcie4"),
                                   preset_find_link(ts_db, "nvlink4")};
    engine_grid_axes none = {0};
    assert_int_equal(engine_grid_cells(&none), 1);
    assert_int_equal(engine_grid_index(&none, 0, 0, 0), 0);
    engine_grid_axes ax = {NULL, 0, links, 2, counts, 3, 0};
    assert_int_equal(engine_grid_cells(&ax), 6);
    assert_int_equal(engine_grid_index(&ax, 0, 1, 2), 5);
    assert_int_equal(engine_grid_index(&ax, 0, 1, 0), 3);

    engine_scenario b = base_of("llama-3-70b", "h100-sxm", "nvlink4");
    b.inter = preset_find_link(ts_db, "ib-ndr");
    b.gpus_per_node = 8;
    engine_scenario s = engine_grid_scenario(&b, &ax, 0, 0, 1);
    assert_ptr_equal(s.intra, links[0]);
    assert_ptr_equal(s.inter, b.inter); /* intra only: the base's inter stays */
    assert_int_equal(s.gpus_per_node, 8);
    assert_int_equal(s.gpus, 4);
    ax.link_everywhere = 1;
    s = engine_grid_scenario(&b, &ax, 0, 1, 2);
    assert_ptr_equal(s.intra, links[1]);
    assert_ptr_equal(s.inter, links[1]);
    assert_int_equal(s.gpus_per_node, 0);
    assert_int_equal(s.gpus, 8);
    assert_ptr_equal(s.model, b.model); /* no model axis: the base's */
}

/* Every cell equals engine_evaluate of {n, 1, 1, 1} on its scenario. */
static void test_tp_cell_is_evaluate(void **state)
{
    (void)state;
    const engine_model *models[2] = {preset_find_model(ts_db, "gpt2-124m"),
                                     preset_find_model(ts_db, "llama-3-70b")};
    const engine_link *links[3] = {preset_find_link(ts_db, "pcie3"),
                                   preset_find_link(ts_db, "nvlink3"),
                                   preset_find_link(ts_db, "nvlink4")};
    static const int counts[4] = {1, 2, 4, 8};
    engine_scenario b = base_of("llama-3-70b", "h100-sxm", "nvlink4");
    for (int everywhere = 0; everywhere < 2; everywhere++) {
        engine_grid_axes ax = {models, 2, links, 3, counts, 4, everywhere};
        engine_result out[2 * 3 * 4];
        engine_error err = {{0}};
        assert_int_equal(engine_grid_tp(&b, &ax, out, &err), 0);
        for (int mi = 0; mi < 2; mi++)
            for (int li = 0; li < 3; li++)
                for (int ci = 0; ci < 4; ci++) {
                    engine_scenario s = engine_grid_scenario(&b, &ax, mi, li, ci);
                    engine_result want;
                    assert_int_equal(engine_evaluate(&s, (engine_plan){counts[ci], 1, 1, 1},
                                                     &want, NULL), 0);
                    assert_same_result(&out[engine_grid_index(&ax, mi, li, ci)], &want);
                }
        /* GPT-2 has 12 heads: TP = 8 is no plan. */
        assert_false(out[engine_grid_index(&ax, 0, 0, 3)].valid);
        assert_true(out[engine_grid_index(&ax, 0, 0, 2)].valid);
        assert_int_equal(out[engine_grid_index(&ax, 1, 2, 3)].plan.tp, 8);
    }
}

/* An unusable scenario zeroes its cell and reports, the rest are filled. */
static void test_tp_unusable_scenario(void **state)
{
    (void)state;
    engine_scenario b = base_of("llama-3-70b", "h100-sxm", "nvlink4");
    b.batch = 0;
    static const int counts[2] = {2, 4};
    engine_grid_axes ax = {NULL, 0, NULL, 0, counts, 2, 0};
    engine_result out[2];
    memset(out, 0x5a, sizeof out);
    engine_error err = {{0}};
    assert_int_equal(engine_grid_tp(&b, &ax, out, &err), -1);
    assert_true(err.msg[0] != '\0');
    assert_false(out[0].valid);
    assert_int_equal(out[1].plan.tp, 4);
}

static void test_splits(void **state)
{
    (void)state;
    engine_scenario b = base_of("llama-3-70b", "h100-sxm", "nvlink4");
    static const int counts[4] = {2, 4, 8, 16};
    engine_grid_split sp[4];
    assert_int_equal(engine_grid_splits(&b, counts, 4, sp, NULL), 0);
    assert_false(sp[0].have_hybrid); /* 2 GPUs: no tp, pp >= 2 */
    for (int c = 0; c < 4; c++) {
        int n = counts[c];
        engine_scenario s = b;
        s.gpus = n;
        engine_result want;
        engine_evaluate(&s, (engine_plan){n, 1, 1, 1}, &want, NULL);
        assert_same_result(&sp[c].tp, &want);
        engine_evaluate(&s, (engine_plan){1, n, 1, 1}, &want, NULL);
        assert_same_result(&sp[c].pp, &want);
        if (c == 0)
            continue;
        assert_true(sp[c].have_hybrid);
        const engine_plan *h = &sp[c].hybrid.plan;
        assert_true(h->tp >= 2 && h->pp >= 2 && h->tp * h->pp == n);
        for (int tp = 2; tp <= n / 2; tp *= 2) {
            engine_evaluate(&s, (engine_plan){tp, n / tp, 1, 1}, &want, NULL);
            if (want.valid)
                assert_true(engine_result_compare(&sp[c].hybrid, &want, s.objective) <= 0);
        }
    }
}

static void test_least_memory(void **state)
{
    (void)state;
    engine_scenario b = base_of("llama-3-70b", "h100-sxm", "nvlink4");
    static const int counts[5] = {1, 2, 4, 8, 12};
    engine_grid_axes ax = {NULL, 0, NULL, 0, counts, 5, 0};
    engine_grid_mem g[5];
    assert_int_equal(engine_grid_least_memory(&b, &ax, g, NULL), 0);
    char why[ENGINE_REASON_MAX];
    for (int c = 0; c < 5; c++) {
        int n = counts[c];
        assert_true(g[c].ok);
        assert_int_equal(g[c].plan.tp * g[c].plan.pp, n);
        assert_int_equal(g[c].plan.dp, 1);
        engine_scenario s = b;
        s.gpus = n;
        engine_memory m;
        assert_int_equal(engine_plan_memory(&s, g[c].plan, &m, why, sizeof why), 1);
        assert_true(m.per_gpu_bytes == g[c].mem.per_gpu_bytes);
        for (int tp = 1; tp <= n; tp++)
            if (n % tp == 0 && engine_plan_memory(&s, (engine_plan){tp, n / tp, 1, 1}, &m, why,
                                                  sizeof why))
                assert_true(g[c].mem.per_gpu_bytes <= m.per_gpu_bytes);
        if (c > 0) /* more GPUs, less memory each */
            assert_true(g[c].mem.per_gpu_bytes < g[c - 1].mem.per_gpu_bytes);
    }
    /* 70B weights in 16 bits: ~141 GB on one GPU, half that per GPU on two. */
    assert_true(g[0].mem.weights_bytes > 135e9 && g[0].mem.weights_bytes < 150e9);
    assert_true(fabs(g[1].mem.weights_bytes - g[0].mem.weights_bytes / 2) <
                0.02 * g[0].mem.weights_bytes);
}

static int fits_at(const engine_scenario *b, int n)
{
    engine_scenario s = *b;
    s.gpus = n;
    int cap = engine_plan_count(&s);
    engine_result *r = calloc((size_t)cap, sizeof *r);
    assert_non_null(r);
    int k = engine_rank(&s, r, cap, 0, NULL);
    int fits = k > 0 && r[0].valid && r[0].fits; /* fitting plans rank first */
    free(r);
    return fits;
}

static void test_min_gpus_modes(void **state)
{
    (void)state;
    engine_scenario b = base_of("llama-3-70b", "h100-sxm", "nvlink4");
    const engine_model *models[2] = {preset_find_model(ts_db, "llama-7b"),
                                     preset_find_model(ts_db, "llama-3-70b")};
    static const double vram[4] = {8e9, 24e9, 40e9, 80e9};
    int p2[8], any[8];
    engine_grid_min_gpus(&b, models, 2, vram, 4, 1024, ENGINE_GRID_POW2, p2);
    engine_grid_min_gpus(&b, models, 2, vram, 4, 1024, ENGINE_GRID_ANY_COUNT, any);
    /* A 7B model in 16 bits (~13.5 GB) fits one 80 GB GPU and one 40 GB. */
    assert_int_equal(p2[0 * 4 + 3], 1);
    assert_int_equal(any[0 * 4 + 3], 1);
    assert_int_equal(any[0 * 4 + 2], 1);
    for (int i = 0; i < 8; i++) {
        engine_scenario s = b;
        s.model = models[i / 4];
        s.vram_bytes = vram[i % 4];
        assert_true(p2[i] > 0);
        assert_int_equal(p2[i] & (p2[i] - 1), 0); /* a power of two */
        assert_int_equal(p2[i], engine_min_gpus(&s, 1024));
        assert_true(any[i] > 0 && any[i] <= p2[i]);
        assert_true(fits_at(&s, any[i]));
        for (int n = 1; n < any[i]; n++) /* and no smaller count does */
            assert_false(fits_at(&s, n));
    }
    /* 70B in 16 bits: ~141 GB of weights.  On 40 GB GPUs (36 GB usable)
     * that needs at least 4; with KV cache and activations 4 do not fit,
     * so a power of two answers 8 and any count 5 (PP = 5 of 80 layers).
     * On 80 GB GPUs: 4, and 3 by any count. */
    assert_int_equal(p2[1 * 4 + 2], 8);
    assert_int_equal(any[1 * 4 + 2], 5);
    assert_int_equal(p2[1 * 4 + 3], 4);
    assert_int_equal(any[1 * 4 + 3], 3);
    /* Nothing fits in 1 GB per GPU up to 4 GPUs. */
    static const double tiny[1] = {1e9};
    int none[2];
    engine_grid_min_gpus(&b, NULL, 0, tiny, 1, 4, ENGINE_GRID_POW2, &none[0]);
    engine_grid_min_gpus(&b, NULL, 0, tiny, 1, 4, ENGINE_GRID_ANY_COUNT, &none[1]);
    assert_int_equal(none[0], 0);
    assert_int_equal(none[1], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_axes_layout),
        cmocka_unit_test(test_tp_cell_is_evaluate),
        cmocka_unit_test(test_tp_unusable_scenario),
        cmocka_unit_test(test_splits),
        cmocka_unit_test(test_least_memory),
        cmocka_unit_test(test_min_gpus_modes),
    };
    return cmocka_run_group_tests(tests, ts_presets_setup, ts_presets_teardown);
}
