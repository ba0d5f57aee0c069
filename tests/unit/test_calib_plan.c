/*
 * test_calib_plan.c - the calibration's plan (calibrate --plan): the
 * budget of issue 12 as predicted (deterministic, not a timing: the
 * engine's kernel model of the preset): a full calibration of llama-3-8b
 * under 60 s on h100-sxm and h200 and --quick under 15 s, with one GPU and
 * with eight; the plan's kernel counts against what the real sweep
 * measures - the fake cuBLAS backend (every timed point, and the library
 * calls its warm-ups and repeats make) and the CPU backend on OpenBLAS
 * with a tiny model; and hand-worked counts of the layer grid.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "calib.h"
#include "calib_fake_cuda.h"
#include "preset.h"
#include "support_models.h"
#include "support_presets.h"

static calib_plan pl; /* ~10 KB each: static */

static const engine_gpu *gpu(const char *name)
{
    const engine_gpu *g = preset_find_gpu(ts_db, name);
    assert_non_null(g);
    return g;
}

static const engine_link *link_of(const engine_gpu *g)
{
    const engine_link *intra = NULL, *inter = NULL;
    int per_node = 0;
    preset_gpu_topology(ts_db, g, &intra, &inter, &per_node);
    assert_non_null(intra);
    return intra;
}

static void plan_opts(calib_opts *o, const engine_model *m, int quick, int skip_comm)
{
    calib_opts_defaults(o);
    o->model = m;
    o->quick = quick;
    o->skip_comm = skip_comm;
}

/* Kernels, runs and device seconds of the phases counting in `slot`. */
static int slot_sum(const calib_plan *p, const char *slot, int *runs, double *dev_s)
{
    int k = 0;
    *runs = 0;
    *dev_s = 0;
    for (int i = 0; i < p->n_phases; i++)
        if (!strcmp(p->phase[i].slot, slot)) {
            k += p->phase[i].kernels;
            *runs += p->phase[i].runs;
            *dev_s += p->phase[i].device_s;
        }
    return k;
}

static const calib_plan_phase *phase(const calib_plan *p, const char *name)
{
    for (int i = 0; i < p->n_phases; i++)
        if (!strcmp(p->phase[i].name, name))
            return &p->phase[i];
    return NULL;
}

/* Issue 12's budget, predicted: llama-3-8b (the default model) on one
 * H100 SXM / H200, full < 60 s and --quick < 15 s; with 8 GPUs (the NCCL
 * sweeps) too.  The totals are the phases' sums, and every phase that
 * times kernels predicts device time for them. */
static void test_budget_h100_h200(void **state)
{
    (void)state;
    const engine_model *m = preset_find_model(ts_db, "llama-3-8b");
    assert_non_null(m);
    static const char *const G[] = {"h100-sxm", "h200"};
    engine_error err = {{0}};
    for (int i = 0; i < 2; i++)
        for (int quick = 0; quick <= 1; quick++)
            for (int gpus = 1; gpus <= 8; gpus += 7) {
                calib_opts o;
                plan_opts(&o, m, quick, 0);
                const engine_gpu *g = gpu(G[i]);
                assert_int_equal(calib_plan_build(&o, g, link_of(g), gpus, &pl, &err), 0);
                assert_string_equal(pl.backend, "cuda");
                assert_true(pl.total_s > 0);
                assert_true(pl.total_s < (quick ? 15.0 : 60.0));
                double sum = 0;
                for (int k = 0; k < pl.n_phases; k++) {
                    sum += pl.phase[k].total_s;
                    if (pl.phase[k].kernels > 0 && strcmp(pl.phase[k].slot, "collectives"))
                        assert_true(pl.phase[k].device_s > 0);
                }
                assert_true(fabs(sum / pl.total_s - 1) < 1e-12);
                assert_int_equal(phase(&pl, "NCCL all-reduce") != NULL, gpus == 8);
                assert_int_equal(phase(&pl, "loopback (2 processes)") != NULL, gpus == 1);
            }
}

/* The GPU layer grid by hand: --quick is hidden 768, 2048, 4096 x batch 1,
 * 4 x seq 512, 2048 (12 prefill points) and decode 1, 16, 256 tokens at
 * hidden 4096 (3), one warm-up and 3 repeats each; the copy moves the
 * smaller of the weights (12 x 4096^2 x 2 B) and the FFN activations
 * (4 x 8192 tokens x 4096 x 2 B = 268435456 B), read + written.  Full:
 * 6 x 4 x 2 + 9 x 2 = 66 points, 1 + 5 runs. */
static void test_gpu_grid_by_hand(void **state)
{
    (void)state;
    calib_opts o;
    plan_opts(&o, NULL, 1, 1);
    engine_error err = {{0}};
    const engine_gpu *g = gpu("h100-sxm");
    assert_int_equal(calib_plan_build(&o, g, NULL, 1, &pl, &err), 0);
    const calib_plan_phase *l = phase(&pl, "layer grid"), *c = phase(&pl, "layer copy");
    assert_non_null(l);
    assert_non_null(c);
    assert_int_equal(l->kernels, 15);
    assert_int_equal(l->warmup, 1);
    assert_int_equal(l->reps_min, 3);
    assert_int_equal(l->runs, 15 * 4);
    assert_true(fabs(c->device_s / (4 * engine_small_kernel_s(g, 2.0 * 268435456)) - 1) < 1e-12);
    assert_int_equal(pl.kernels, 16); /* no model: no per-kernel sweep; no comm */
    plan_opts(&o, NULL, 0, 1);
    assert_int_equal(calib_plan_build(&o, g, NULL, 1, &pl, &err), 0);
    assert_int_equal(phase(&pl, "layer grid")->kernels, 66);
    assert_int_equal(phase(&pl, "layer grid")->runs, 66 * 6);
}

/* The plan against the fake cuBLAS run (sm_90 with cublasLt: fp16, bf16
 * and fp8; graphs; the strided-batched proxy): the same points in every
 * class, and the library calls the warm-ups and repeats make - 4 cuBLAS
 * GEMMs per layer-grid run, one per model GEMM (fp16, bf16) and GEMV run,
 * one cublasLtMatmul per fp8 run, one batched call per attention run.
 * --quick with the loopback (one GPU) and the full grid without comm. */
static void test_counts_match_fake_cuda(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    const engine_gpu *g = gpu("h100-sxm");
    for (int quick = 1; quick >= 0; quick--) {
        calib_cuda_api api = ts_fake_cuda_reset();
        ts_fake_cuda_lt(&api);
        calib_opts o;
        plan_opts(&o, &m, quick, !quick);
        o.backend = CALIB_BACKEND_CUDA;
        o.cuda = &api;
        calib_result r;
        engine_error err = {{0}};
        assert_int_equal(calib_run(&o, &r, &err), CALIB_OK);
        assert_int_equal(calib_plan_build(&o, g, link_of(g), 1, &pl, &err), 0);
        assert_int_equal(pl.kernels, r.n_points + r.n_kpoints + r.n_comm);
        assert_int_equal(r.n_comm, quick ? 7 : 0); /* 1 KiB .. 4 MiB x4 */
        int counted[CALIB_K_COUNT] = {0}, fp8 = 0, runs, rl, rg, rv;
        for (int i = 0; i < r.n_kpoints; i++) {
            counted[r.kpoints[i].cls]++;
            fp8 += !strcmp(r.kpoints[i].dtype, "fp8");
        }
        double d;
        assert_int_equal(slot_sum(&pl, "layer_grid", &rl, &d), r.n_points);
        assert_int_equal(slot_sum(&pl, "gemm", &rg, &d), counted[CALIB_K_GEMM] - fp8);
        assert_int_equal(slot_sum(&pl, "gemm_fp8", &runs, &d), fp8);
        assert_int_equal(ts_fake.lt_matmuls, runs);
        assert_int_equal(slot_sum(&pl, "gemv", &rv, &d), counted[CALIB_K_GEMV]);
        /* the layer copy is a cudaMemcpyAsync, not a GEMM */
        int copy_runs = phase(&pl, "layer copy")->runs;
        assert_int_equal(ts_fake.gemms, 4 * (rl - copy_runs) + rg + rv);
        assert_int_equal(slot_sum(&pl, "attention", &runs, &d), counted[CALIB_K_ATTN]);
        assert_int_equal(ts_fake.batched, runs);
        assert_int_equal(slot_sum(&pl, "launch", &runs, &d),
                         counted[CALIB_K_LAUNCH] + counted[CALIB_K_GRAPH]);
        calib_result_free(&r);
    }
}

/* The CPU backend on OpenBLAS with a tiny model (TP 1, up to 4 tokens, no
 * comm): the plan's points are the run's (the CPU's repeats follow each
 * point's first run, so only the counts are compared). */
static void test_counts_match_cpu(void **state)
{
    (void)state;
    engine_model m = tm_tiny(tm_llama3_8b(), "tiny");
    calib_opts o;
    plan_opts(&o, &m, 1, 1);
    o.backend = CALIB_BACKEND_CPU;
    o.max_tp = 1;
    o.max_tokens = 4;
    calib_result r;
    engine_error err = {{0}};
    assert_int_equal(calib_run(&o, &r, &err), CALIB_OK);
    assert_int_equal(calib_plan_build(&o, NULL, NULL, 0, &pl, &err), 0);
    assert_string_equal(pl.backend, "cpu");
    /* --quick CPU grid: 4 hidden x 3 batches x 2 seqs + 2 x 4 decode, a
     * copy; TP1 x tokens 1, 4 x 4 GEMMs, 2 GEMVs, a copy, 4 attention, a
     * launch */
    assert_int_equal(r.n_points, 4 * 3 * 2 + 2 * 4 + 1);
    assert_int_equal(r.n_kpoints, 2 * 4 + 2 + 1 + 4 + 1);
    assert_int_equal(pl.kernels, r.n_points + r.n_kpoints);
    /* the layer grid: one warm-up pass, then 3 timed passes under --quick
     * (5 in full), a point of 2 ms or more (group_s) one run a pass */
    const calib_plan_phase *lg = phase(&pl, "layer grid");
    assert_int_equal(lg->kernels, 4 * 3 * 2 + 2 * 4);
    assert_int_equal(lg->warmup, 1);
    assert_int_equal(lg->reps_min, 3);
    int runs;
    double d;
    assert_int_equal(slot_sum(&pl, "gemm", &runs, &d), 8);
    assert_int_equal(pl.max_tp, 1);
    assert_int_equal(pl.max_tokens, 4);
    o.quick = 0; /* the full grid: 4 hidden x 4 batches x 2 seqs + 2 x 5 decode */
    assert_int_equal(calib_plan_build(&o, NULL, NULL, 0, &pl, &err), 0);
    lg = phase(&pl, "layer grid");
    assert_int_equal(lg->kernels, 4 * 4 * 2 + 2 * 5);
    assert_int_equal(lg->reps_min, 5);
    calib_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget_h100_h200),
        cmocka_unit_test(test_gpu_grid_by_hand),
        cmocka_unit_test(test_counts_match_fake_cuda),
        cmocka_unit_test(test_counts_match_cpu),
    };
    return cmocka_run_group_tests(tests, ts_presets_setup, ts_presets_teardown);
}
