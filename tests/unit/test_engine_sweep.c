/*
 * test_engine_sweep.c - every shipped preset through the engine at the slider
 * extremes (1 and 1024 GPUs, batch 1 and 4096, sequence 1 and 1,000,000,
 * VRAM 1 and 1024 GB, every dtype and schedule): no NaN, no infinity, no
 * negative time, efficiency in (0, 1], P99 >= P50, and no crash.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "engine.h"
#include "preset.h"

#define CAP 8192

static engine_result results[CAP];

static int result_ok(const engine_result *r, char *why, size_t len)
{
    const double v[] = {r->ttft_s, r->itl_s, r->e2e_s, r->tokens_per_s, r->speedup,
                        r->efficiency, r->compute_comm_ratio, r->cost_per_mtok_usd,
                        r->p50_s, r->p99_s, r->bubble_fraction, r->mem.weights_bytes,
                        r->mem.kv_bytes, r->mem.activation_bytes, r->mem.per_gpu_bytes,
                        r->compute_s, r->comm_s};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i]) || v[i] < 0) {
            snprintf(why, len, "value #%zu is %g", i, v[i]);
            return 0;
        }
    if (!(r->efficiency > 0 && r->efficiency <= 1 + 1e-9)) {
        snprintf(why, len, "efficiency %g", r->efficiency);
        return 0;
    }
    if (r->p99_s < r->p50_s) {
        snprintf(why, len, "P99 %g < P50 %g", r->p99_s, r->p50_s);
        return 0;
    }
    if (!(r->e2e_s > 0)) {
        snprintf(why, len, "zero latency");
        return 0;
    }
    return 1;
}

static void test_every_preset_at_the_extremes(void **state)
{
    (void)state;
    preset_db *db = NULL;
    engine_error err;
    assert_int_equal(preset_db_load("", &db, &err), 0);
    assert_int_equal(db->n_errors, 0);
    assert_true(db->n_models >= 14 && db->n_gpus >= 13 && db->n_links >= 11);
    const int gpus[] = {1, 1024};
    const int batch[] = {1, 4096};
    const int seq[] = {1, 1000000};
    const double vram[] = {1e9, 1024e9};
    long checked = 0;
    for (int i = 0; i < db->n_models; i++) {
        for (int j = 0; j < db->n_gpus; j++) {
            for (int corner = 0; corner < 16; corner++) {
                engine_scenario s;
                engine_scenario_defaults(&s);
                s.model = &db->models[i];
                s.gpu = &db->gpus[j];
                /* every link appears as intra- and inter-node link */
                s.intra = &db->links[(i + j + corner) % db->n_links];
                s.inter = &db->links[(i * 3 + j + corner) % db->n_links];
                s.gpus_per_node = 8;
                s.gpus = gpus[corner & 1];
                s.batch = batch[(corner >> 1) & 1];
                s.prompt = seq[(corner >> 2) & 1];
                s.gen = seq[1 - ((corner >> 2) & 1)];
                s.vram_bytes = vram[(corner >> 3) & 1];
                s.weight_dtype = (engine_dtype)((i + corner) % ENGINE_DTYPE_COUNT);
                s.kv_dtype = (engine_dtype)((j + corner) % ENGINE_DTYPE_COUNT);
                s.schedule = (engine_schedule)(corner % ENGINE_SCHED_COUNT);
                s.microbatches = corner % 5;
                s.mc_samples = 200;
                assert_true(engine_plan_count(&s) <= CAP);
                int n = engine_rank(&s, results, CAP, 2, &err);
                if (n <= 0)
                    fail_msg("%s on %s: rank failed: %s", s.model->name, s.gpu->name, err.msg);
                for (int k = 0; k < n; k++) {
                    char why[128];
                    if (results[k].valid && !result_ok(&results[k], why, sizeof why))
                        fail_msg("%s on %d x %s, batch %d, prompt %d, gen %d, plan %dx%dx%d ep%d: %s",
                                 s.model->name, s.gpus, s.gpu->name, s.batch, s.prompt, s.gen,
                                 results[k].plan.tp, results[k].plan.pp, results[k].plan.dp,
                                 results[k].plan.ep, why);
                    checked++;
                }
            }
        }
    }
    assert_true(checked > 100000);
    preset_db_free(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_preset_at_the_extremes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
