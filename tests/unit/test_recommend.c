/*
 * test_recommend.c - the decision procedure (engine/recommend.c) against
 * the seeds' worked examples: seed 004 examples A, B and C and seed 002's
 * five recommendation scenarios, plus the impossible requests (no fit, ITL
 * below the physical floor) and the TP rounding rule.  The shipped presets
 * are loaded (preset_db_load with no user directory).  Where our numbers
 * differ from a seed's, the comment next to the assertion says why.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "recommend.h"
#include "preset.h"
#include "support_presets.h"
#include "support_models.h"

#define REL(a, b) (fabs((a) - (b)) / fabs(b))

typedef struct ask {
    const char *model, *gpu, *link, *inter;
    int per_node, gpus_max, concurrency;
    double itl_ms;
    unsigned quant;
} ask;

/* Run recommend for a request named by presets, with the memory per GPU
 * set to vram_bytes (0: the preset's, the driver-reported total); the
 * result is the caller's to free. */
static recommend_result *run_vram(const ask *a, double vram_bytes)
{
    recommend_request q;
    memset(&q, 0, sizeof q);
    engine_scenario_defaults(&q.base);
    q.base.model = preset_find_model(ts_db, a->model);
    q.base.gpu = preset_find_gpu(ts_db, a->gpu);
    q.base.intra = preset_find_link(ts_db, a->link);
    q.base.inter = a->inter ? preset_find_link(ts_db, a->inter) : NULL;
    assert_non_null(q.base.model);
    assert_non_null(q.base.gpu);
    assert_non_null(q.base.intra);
    q.base.gpus_per_node = a->per_node ? a->per_node : 8;
    q.base.batch = a->concurrency ? a->concurrency : 1;
    q.base.vram_bytes = vram_bytes;
    q.base.objective = ENGINE_OBJ_THROUGHPUT; /* the command's default */
    q.gpus_max = a->gpus_max;
    q.itl_target_s = a->itl_ms / 1e3;
    q.allow_quant = a->quant;
    recommend_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    engine_error err = {{0}};
    assert_int_equal(recommend_run(&q, r, &err), 0);
    return r;
}

static recommend_result *run(const ask *a)
{
    return run_vram(a, 0);
}

static double num(const recommend_result *r, recommend_step_id id, const char *key)
{
    assert_true(recommend_has(&r->step[id], key));
    return recommend_get(&r->step[id], key, NAN);
}

static void assert_plan(const recommend_result *r, int tp, int pp, int dp, engine_dtype d)
{
    assert_int_equal(r->status, REC_FEASIBLE);
    assert_true(r->have_choice);
    assert_int_equal(r->chosen.plan.tp, tp);
    assert_int_equal(r->chosen.plan.pp, pp);
    assert_int_equal(r->chosen.plan.dp, dp);
    assert_int_equal(r->chosen.dtype, d);
    assert_int_equal(r->chosen.gpus, tp * pp * dp);
    /* The deployment's engine figures are the chosen plan's. */
    assert_int_equal(r->chosen_result.plan.tp, tp);
    assert_int_equal(r->chosen_result.plan.dp, dp);
    assert_true(r->chosen_result.valid && r->chosen_result.fits);
    assert_true(r->chosen_result.p99_s >= r->chosen_result.p50_s);
}

/* Index of an alternative with this shape and dtype, -1 if none. */
static int find_alt(const recommend_result *r, int tp, int pp, engine_dtype d)
{
    for (int i = 0; i < r->n_alts; i++)
        if (r->alt[i].plan.tp == tp && r->alt[i].plan.pp == pp && r->alt[i].dtype == d)
            return i;
    return -1;
}

/* --- seed 004 ------------------------------------------------------------ */

/* Example A: Llama-3-8B, ITL 40 ms, H100 -> one GPU, scale with replicas. */
static void test_seed004_a_one_gpu(void **state)
{
    (void)state;
    ask a = {"llama-3-8b", "h100-sxm", "nvlink4", NULL, 0, 0, 0, 40, 0};
    recommend_result *r = run(&a);
    /* "weights FP16 = 16.1 GB" */
    assert_true(REL(num(r, REC_STEP_FIT, "weights_bytes"), 16.06e9) < 0.005);
    assert_int_equal(r->step[REC_STEP_FIT].verdict, REC_PASS);
    /* "fits with 60 GB for KV" (80 - 16.1 - 4): ours is 58.8 GB, because
     * only 90% of the card is usable (76.97 GB of the 85.52 GB the driver
     * reports) and the runtime's 2 GB and the prefill workspace come off
     * too. */
    double room = num(r, REC_STEP_FIT, "kv_room_bytes");
    assert_true(room > 50e9 && room < 60e9);
    assert_true(REL(room, 58.8e9) < 0.005);
    /* "decode floor = 16.1/3350 = 4.8 ms << 40 ms" */
    assert_true(REL(num(r, REC_STEP_FLOOR, "floor_s"), 4.8e-3) < 0.01);
    assert_int_equal(r->step[REC_STEP_FLOOR].verdict, REC_PASS);
    assert_int_equal((int)num(r, REC_STEP_N_FIT, "n_fit"), 1);
    assert_int_equal((int)num(r, REC_STEP_N_LATENCY, "n_latency"), 1);
    assert_true(r->step[REC_STEP_TOPOLOGY].flags & REC_TOPO_NO_TP);
    assert_true(r->step[REC_STEP_ENGINE].flags & REC_ENG_AGREES);
    assert_plan(r, 1, 1, 1, ENGINE_FP16);
    /* "TP=2 would halve the ITL ... add ~15% overhead ... strictly worse":
     * the runner-up is TP=2 with fewer tokens/s per GPU.  Only the GEMMs
     * halve (5.99 -> 3.19 ms); the 260 kernels' fixed costs, the norms and
     * the embedding do not, and 65 all-reduces of 8 KB add 6.9 us each
     * (NCCL's measured 8-GPU curve rescaled to 2 GPUs): 4.38 / 6.76 ms =
     * 0.65x the ITL, not 0.5x. */
    int i = find_alt(r, 2, 1, ENGINE_FP16);
    assert_true(i >= 0);
    double itl_ratio = r->alt[i].unit.itl_s / r->chosen.unit.itl_s;
    assert_true(itl_ratio > 0.62 && itl_ratio < 0.68);
    assert_true(r->alt[i].unit.tokens_per_s / 2 < r->chosen.unit.tokens_per_s);
    free(r);
}

/* Example B: Llama-3-70B, ITL 30 ms, H100 -> n_fit 3, n_latency 2, TP=4.
 * The seed's H100 has 80 GB ("n_fit = ceil(141 / (80 - 4 - 10)) = 3");
 * the preset now holds what the driver reports, 81559 MiB = 85.52 GB, on
 * which the answer changes (see test_seed004_b_real_capacity), so the
 * seed's scenario is run with its 80 GB given explicitly (--vram-gb 80). */
static void test_seed004_b_tp4(void **state)
{
    (void)state;
    ask a = {"llama-3-70b", "h100-sxm", "nvlink4", NULL, 0, 0, 0, 30, 0};
    recommend_result *r = run_vram(&a, 80e9);
    assert_true(REL(num(r, REC_STEP_N_FIT, "weights_bytes"), 141e9) < 0.005);
    /* The seed budgets 80 - 4 - 10 = 66 GB per GPU; ours is 72 GB usable
     * - 2 GB runtime - 0.17 GB workspace = 69.8 GB, with the KV of one
     * sequence (0.42 GB) added to the weights: ceil(141.5 / 69.8) = 3 -
     * the same n_fit as the seed's ceil(141 / 66). */
    assert_true(REL(num(r, REC_STEP_N_FIT, "budget_per_gpu_bytes"), 69.8e9) < 0.01);
    assert_int_equal((int)num(r, REC_STEP_N_FIT, "n_fit"), 3);
    /* ceil(141e9 / (3.35e12 x 0.030)) = ceil(1.40) = 2 */
    assert_int_equal((int)num(r, REC_STEP_N_LATENCY, "n_latency"), 2);
    assert_int_equal((int)num(r, REC_STEP_TP, "tp"), 4);
    assert_true(r->step[REC_STEP_TP].flags & REC_TP_ROUNDED);
    assert_int_equal(r->step[REC_STEP_TOPOLOGY].verdict, REC_PASS);
    assert_plan(r, 4, 1, 1, ENGINE_FP16);
    /* "ITL ~ 141/4/3350 = 10.5 ms + comms ~ 14 ms": the engine says 17.4 ms:
     * 13.9 ms of GEMMs (35.3 GB per GPU over 80 % of 3.35 TB/s = 13.2 ms,
     * plus their fixed costs), 1.8 ms of attention and small kernels, and
     * 1.7 ms for 161 all-reduces of ~10 us (NCCL's measured curve). */
    assert_true(r->chosen.unit.itl_s > 15.5e-3 && r->chosen.unit.itl_s < 17.5e-3);
    assert_true(r->step[REC_STEP_ENGINE].flags & REC_ENG_AGREES);
    free(r);
}

/* Example B on the H100 as its driver reports it (85.52 GB, 76.97 GB
 * usable, 74.80 GB per GPU after the runtime and the workspace): with one
 * sequence, n_fit = ceil(141.53 / 74.80) = 2 = n_latency, so TP=2 - the
 * seed's TP=4 needs its 80 GB or its 10 GB KV reserve.  Reserve those
 * 10 GB as the seed does (24 sequences x 1280 tokens x 320 KiB of KV per
 * token = 10.07 GB) and its answer returns on the real card: n_fit 3,
 * TP=4. */
static void test_seed004_b_real_capacity(void **state)
{
    (void)state;
    ask a = {"llama-3-70b", "h100-sxm", "nvlink4", NULL, 0, 0, 0, 30, 0};
    recommend_result *r = run(&a);
    assert_true(REL(num(r, REC_STEP_N_FIT, "budget_per_gpu_bytes"), 74.80e9) < 0.005);
    assert_int_equal((int)num(r, REC_STEP_N_FIT, "n_fit"), 2);
    assert_int_equal((int)num(r, REC_STEP_N_LATENCY, "n_latency"), 2);
    assert_int_equal((int)num(r, REC_STEP_TP, "tp"), 2);
    assert_plan(r, 2, 1, 1, ENGINE_FP16);
    assert_true(r->chosen.unit.itl_s < 30e-3);
    assert_true(r->step[REC_STEP_ENGINE].flags & REC_ENG_AGREES);
    free(r);

    a.concurrency = 24;
    r = run(&a);
    assert_true(REL(num(r, REC_STEP_N_FIT, "kv_bytes"), 10.07e9) < 0.005);
    assert_int_equal((int)num(r, REC_STEP_N_FIT, "n_fit"), 3);
    assert_int_equal((int)num(r, REC_STEP_TP, "tp"), 4);
    assert_plan(r, 4, 1, 1, ENGINE_FP16);
    assert_true(r->chosen.unit.itl_s < 30e-3);
    free(r);
}

/* Example C: Llama-3.1-405B on 80 GB GPUs, FP8 allowed -> TP=8 FP8 on one
 * node; the FP16 answer (TP=8 x PP=2 on two nodes) is the alternative. */
static void test_seed004_c_fp8(void **state)
{
    (void)state;
    ask a = {"llama-3.1-405b", "h100-sxm", "nvlink4", NULL, 0, 0, 0, 0,
             1u << ENGINE_FP8};
    recommend_result *r = run(&a);
    /* "weights FP16 = 810 GB", "n_fit = ceil(810 / 66) = 13": ours is
     * ceil(812.4 / 74.6) = 11 on the 85.52 GB the driver reports (larger
     * usable budget, see example B), 12 on the seed's 80 GB; all exceed
     * one node's TP=8, and the answer is the same on either card. */
    assert_true(REL(num(r, REC_STEP_FIT, "weights_bytes"), 811.7e9) < 0.005);
    assert_int_equal((int)num(r, REC_STEP_N_FIT, "n_fit"), 11);
    assert_int_equal((int)num(r, REC_STEP_TP, "tp"), 8);
    assert_int_equal((int)num(r, REC_STEP_TP, "pp"), 2);
    assert_int_equal(r->step[REC_STEP_QUANT].verdict, REC_PASS);
    assert_plan(r, 8, 1, 1, ENGINE_FP8);
    assert_int_equal(r->chosen.nodes, 1);
    /* "TP=8 with FP8: 50.6 GB/GPU. Fits." (ours: 51.26 GB: 405.85e9 / 8 =
     * 50.73 GB if every weight were FP8, + 0.53 GB because the FP8
     * checkpoint keeps its embedding and LM head in 16 bits) */
    assert_true(REL(r->chosen.unit.mem.weights_bytes, 51.26e9) < 0.005);
    assert_true(r->chosen.unit.fits);
    assert_true(r->step[REC_STEP_ENGINE].flags & REC_ENG_AGREES);
    int i = find_alt(r, 8, 2, ENGINE_FP16);
    assert_true(i >= 0);
    assert_int_equal(r->alt[i].nodes, 2);
    free(r);
    /* On the seed's 80 GB: ceil(812.4 / 69.7) = 12, the same answer. */
    r = run_vram(&a, 80e9);
    assert_int_equal((int)num(r, REC_STEP_N_FIT, "n_fit"), 12);
    assert_int_equal((int)num(r, REC_STEP_TP, "pp"), 2);
    assert_plan(r, 8, 1, 1, ENGINE_FP8);
    free(r);
}

/* Example C at FP16 only: TP=8 does not fit (101 GB/GPU > 80 GB), so
 * TP=8 x PP=2 across two nodes; FP8 on one node is named as the
 * alternative that needs --allow-quant. */
static void test_seed004_c_fp16(void **state)
{
    (void)state;
    ask a = {"llama-3.1-405b", "h100-sxm", "nvlink4", "ib-ndr", 0, 0, 0, 0, 0};
    recommend_result *r = run(&a);
    assert_plan(r, 8, 2, 1, ENGINE_FP16);
    assert_int_equal(r->chosen.nodes, 2);
    assert_true(r->step[REC_STEP_TOPOLOGY].flags & REC_TOPO_PP_CROSS);
    int i = find_alt(r, 8, 1, ENGINE_FP8);
    assert_true(i >= 0);
    assert_false(r->alt[i].allowed);
    /* TP=8 at FP16: "101 GB/GPU. Doesn't fit in 80 GB." */
    engine_scenario s;
    engine_scenario_defaults(&s);
    s.model = preset_find_model(ts_db, "llama-3.1-405b");
    s.gpu = preset_find_gpu(ts_db, "h100-sxm");
    s.intra = preset_find_link(ts_db, "nvlink4");
    s.gpus = 8;
    engine_result e;
    assert_int_equal(engine_evaluate(&s, (engine_plan){8, 1, 1, 1}, &e, NULL), 0);
    assert_true(REL(e.mem.weights_bytes, 101e9) < 0.01);
    assert_false(e.fits);
    /* TP across nodes may rank well in the engine but is set aside. */
    if (r->have_unconstrained)
        assert_true(r->unconstrained.plan.tp > 8);
    free(r);
}

/* --- seed 002's five scenarios -------------------------------------------- */

/* 7B on DGX-A100 (8x80GB NVLink) -> data parallel. */
static void test_seed002_7b_dgx_replicas(void **state)
{
    (void)state;
    ask a = {"llama-7b", "a100-80gb", "nvlink3", NULL, 8, 8, 1, 0, 0};
    recommend_result *r = run(&a);
    assert_plan(r, 1, 1, 8, ENGINE_FP16);
    assert_int_equal(r->step[REC_STEP_FIT].verdict, REC_PASS);
    free(r);
}

/* 70B on DGX-A100 -> tensor parallel.  The seed's "70B (140 GB FP16)" is
 * Llama-3-70B's 141 GB; its 85% headroom on "8x80GB" gives 3+ GPUs, our
 * budget on 80 GB gives n_fit 3 as well -> TP=4, two replicas on the 8
 * GPUs.  (Llama-2-70B is 138 GB and fits TP=2 with 0.7 GB to spare at one
 * sequence.)  The preset now holds the driver's 81920 MiB = 85.90 GB, on
 * which n_fit is 2, so the seed's 80 GB is given explicitly; the real card
 * is checked after it. */
static void test_seed002_70b_dgx_tp(void **state)
{
    (void)state;
    ask a = {"llama-3-70b", "a100-80gb", "nvlink3", NULL, 8, 8, 1, 0, 0};
    recommend_result *r = run_vram(&a, 80e9);
    assert_int_equal((int)num(r, REC_STEP_N_FIT, "n_fit"), 3);
    assert_plan(r, 4, 1, 2, ENGINE_FP16);
    assert_int_equal(r->step[REC_STEP_TOPOLOGY].verdict, REC_PASS);
    free(r);
    /* 85.90 GB: ceil(141.53 / 75.14) = 2 -> TP=2, four replicas; still
     * tensor parallel, as the seed says. */
    r = run(&a);
    assert_int_equal((int)num(r, REC_STEP_N_FIT, "n_fit"), 2);
    assert_plan(r, 2, 1, 4, ENGINE_FP16);
    assert_int_equal(r->step[REC_STEP_TOPOLOGY].verdict, REC_PASS);
    free(r);
}

/* 7B on a workstation (4x RTX 3090, PCIe) -> data parallel. */
static void test_seed002_7b_3090_replicas(void **state)
{
    (void)state;
    ask a = {"llama-7b", "rtx-3090", "pcie4", NULL, 4, 4, 1, 0, 0};
    recommend_result *r = run(&a);
    assert_plan(r, 1, 1, 4, ENGINE_FP16);
    /* TP over PCIe loses throughput per GPU. */
    int i = find_alt(r, 2, 1, ENGINE_FP16);
    if (i >= 0)
        assert_true(r->alt[i].unit.tokens_per_s / 2 < r->chosen.unit.tokens_per_s);
    free(r);
}

/* 405B on 2x DGX-A100 -> TP inside a node x PP across nodes, or FP8. */
static void test_seed002_405b_two_dgx(void **state)
{
    (void)state;
    ask a = {"llama-3.1-405b", "a100-80gb", "nvlink3", "ib-hdr", 8, 16, 1, 0, 0};
    recommend_result *r = run(&a);
    assert_plan(r, 8, 2, 1, ENGINE_FP16);
    assert_true(r->step[REC_STEP_TP].flags & REC_TP_NODE_LIMITED);
    assert_true(find_alt(r, 8, 1, ENGINE_FP8) >= 0);
    free(r);
    /* With FP8 allowed (weight-only on the A100): TP=8 on one node, two
     * replicas. */
    a.quant = 1u << ENGINE_FP8;
    r = run(&a);
    assert_plan(r, 8, 1, 2, ENGINE_FP8);
    free(r);
}

/* 70B across nodes joined by InfiniBand -> pipeline parallel, or
 * quantize first.  One GPU per node, the seed's serving batch of 32. */
static void test_seed002_70b_infiniband(void **state)
{
    (void)state;
    ask a = {"llama-3-70b", "a100-80gb", "pcie4", "ib-hdr", 1, 8, 32, 0, 0};
    recommend_result *r = run(&a);
    assert_int_equal(r->status, REC_FEASIBLE);
    assert_int_equal(r->chosen.plan.tp, 1);
    assert_true(r->chosen.plan.pp >= 2);
    assert_int_equal(r->chosen.dtype, ENGINE_FP16);
    /* quantization would save GPUs: named, not taken (not allowed) */
    assert_true(r->step[REC_STEP_QUANT].flags & REC_QUANT_WOULD_HELP);
    int quant_alt = 0;
    for (int i = 0; i < r->n_alts; i++)
        quant_alt |= r->alt[i].dtype != ENGINE_FP16 && !r->alt[i].allowed;
    assert_true(quant_alt);
    /* TP across the InfiniBand nodes is never the answer. */
    if (r->have_unconstrained)
        assert_true(r->unconstrained.plan.tp > 1);
    free(r);
}

/* --- impossible requests --------------------------------------------------- */

/* ITL 2 ms for a 70B model: below the decode floor even at TP=8 (5.3 ms). */
static void test_itl_below_floor(void **state)
{
    (void)state;
    ask a = {"llama-3-70b", "h100-sxm", "nvlink4", NULL, 0, 0, 0, 2, 0};
    recommend_result *r = run(&a);
    assert_int_equal(r->status, REC_INFEASIBLE_ITL);
    assert_false(r->have_choice);
    assert_int_equal(r->step[REC_STEP_N_LATENCY].verdict, REC_FAIL);
    assert_true(num(r, REC_STEP_N_LATENCY, "floor_at_tp_max_s") > 2e-3);
    assert_int_equal(r->nearest_kind, REC_NEAR_TARGET);
    /* the nearest option is a real engine result that fits, ITL above 2 ms */
    assert_true(r->nearest.unit.valid && r->nearest.unit.fits);
    assert_true(r->nearest.unit.itl_s > 2e-3);
    assert_int_equal(r->nearest.plan.tp, 8);
    free(r);
}

/* 405B on at most 4 RTX 3090s: nothing fits; the nearest option says how
 * many GPUs it needs. */
static void test_cannot_fit(void **state)
{
    (void)state;
    ask a = {"llama-3.1-405b", "rtx-3090", "pcie4", NULL, 4, 4, 1, 0, 0};
    recommend_result *r = run(&a);
    assert_int_equal(r->status, REC_INFEASIBLE_FIT);
    assert_false(r->have_choice);
    assert_int_equal(r->step[REC_STEP_TP].verdict, REC_FAIL);
    assert_true(r->nearest_kind == REC_NEAR_GPUS || r->nearest_kind == REC_NEAR_BOTH);
    assert_true(r->nearest.unit_gpus > 4);
    assert_true(r->nearest.unit.fits);
    free(r);
}

/* 70B on one H100: int4 would fit; the answer says to allow it. */
static void test_cannot_fit_quant_would(void **state)
{
    (void)state;
    ask a = {"llama-3-70b", "h100-sxm", "nvlink4", NULL, 0, 1, 1, 0, 0};
    recommend_result *r = run(&a);
    assert_int_equal(r->status, REC_INFEASIBLE_FIT);
    assert_int_equal(r->nearest_kind, REC_NEAR_QUANT);
    assert_int_equal(r->nearest.dtype, ENGINE_INT4);
    assert_int_equal(r->nearest.unit_gpus, 1);
    free(r);
}

/* --- pieces ---------------------------------------------------------------- */

static void test_round_tp(void **state)
{
    (void)state;
    engine_model m = tm_llama3_70b(); /* 64 heads, 8 KV heads */
    assert_int_equal(recommend_round_tp(&m, 3, 8), 4);
    assert_int_equal(recommend_round_tp(&m, 5, 8), 8);
    assert_int_equal(recommend_round_tp(&m, 9, 8), 0);
    assert_int_equal(recommend_round_tp(&m, 9, 64), 16); /* KV heads replicate */
    engine_model g = tm_gpt2();                          /* 12 heads, MHA */
    assert_int_equal(recommend_round_tp(&g, 5, 12), 6);
    assert_int_equal(recommend_round_tp(&g, 8, 12), 12);
}

/* A MoE model's decode floor is the weights one token reads: Mixtral-8x7B
 * "uses only 12.9B parameters per token" of its 46.7B (Mistral AI, "Mixtral
 * of experts", 2023-12-11): 12.9e9 x 2 B / 3.35 TB/s = 7.70 ms on an H100,
 * not the 27.9 ms of all 46.7e9 x 2 B; the fit step still counts them all. */
static void test_moe_floor_active_weights(void **state)
{
    (void)state;
    ask a = {"mixtral-8x7b", "h100-sxm", "nvlink4", NULL, 0, 8, 0, 20, 0};
    recommend_result *r = run(&a);
    assert_true(REL(num(r, REC_STEP_FLOOR, "weights_bytes"), 12.9e9 * 2) < 0.01);
    assert_true(REL(num(r, REC_STEP_FLOOR, "floor_s"), 12.9e9 * 2 / 3.35e12) < 0.01);
    assert_int_equal(r->step[REC_STEP_FLOOR].verdict, REC_PASS);
    assert_true(REL(num(r, REC_STEP_FIT, "weights_bytes"), 46.7e9 * 2) < 0.01);
    assert_int_equal((int)num(r, REC_STEP_N_LATENCY, "n_latency"), 1);
    free(r);
}

/* Without presets: hand-built structs give the same example-A numbers. */
static void test_hand_built_example_a(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0.5e-6, 367e9);
    recommend_request q;
    memset(&q, 0, sizeof q);
    ts_scenario(&q.base, &m, &g, &l, 1);
    q.base.gpus_per_node = 8;
    q.base.objective = ENGINE_OBJ_THROUGHPUT;
    q.itl_target_s = 0.040;
    recommend_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    assert_int_equal(recommend_run(&q, r, NULL), 0);
    assert_true(REL(num(r, REC_STEP_FLOOR, "floor_s"), 16.06e9 / 3.35e12) < 0.005);
    assert_plan(r, 1, 1, 1, ENGINE_FP16);
    free(r);
}

/* recommend searches every plan the engine ranks, EP with replicas
 * included: at the same batch and objective its choice is never beaten by
 * more than 3 % by a fitting plan `eval` ranks (issue 8). */
static void check_against_rank(const char *model, const char *gpu, const char *link, int gpus,
                               int batch, engine_objective obj)
{
    recommend_request q;
    memset(&q, 0, sizeof q);
    engine_scenario_defaults(&q.base);
    q.base.model = preset_find_model(ts_db, model);
    q.base.gpu = preset_find_gpu(ts_db, gpu);
    q.base.intra = preset_find_link(ts_db, link);
    q.base.inter = preset_find_link(ts_db, "ib-ndr");
    assert_non_null(q.base.model);
    assert_non_null(q.base.gpu);
    q.base.gpus_per_node = 8;
    q.base.batch = batch;
    q.base.objective = obj;
    q.gpus_max = gpus;
    recommend_result *r = calloc(1, sizeof *r);
    assert_non_null(r);
    engine_error err = {{0}};
    assert_int_equal(recommend_run(&q, r, &err), 0);
    assert_int_equal(r->status, REC_FEASIBLE);

    engine_scenario s = q.base;
    s.gpus = gpus;
    static engine_result rk[512];
    int n = engine_rank(&s, rk, 512, 0, &err);
    assert_true(n > 0);
    assert_true(rk[0].valid && rk[0].fits);
    const engine_result *c = &r->chosen_result;
    print_message("%-14s %2d GPUs b%-3d %-10s: recommend tp%d pp%d dp%d ep%d %.4g tok/s %.4g s,"
                  " eval best tp%d pp%d dp%d ep%d %.4g tok/s %.4g s\n",
                  model, gpus, batch, obj == ENGINE_OBJ_THROUGHPUT ? "throughput" : "latency",
                  c->plan.tp, c->plan.pp, c->plan.dp, c->plan.ep, c->tokens_per_s, c->e2e_s,
                  rk[0].plan.tp, rk[0].plan.pp, rk[0].plan.dp, rk[0].plan.ep, rk[0].tokens_per_s,
                  rk[0].e2e_s);
    if (obj == ENGINE_OBJ_THROUGHPUT)
        assert_true(c->tokens_per_s >= 0.97 * rk[0].tokens_per_s);
    else
        assert_true(c->e2e_s <= 1.03 * rk[0].e2e_s);
    free(r);
}

/* The typed numbers of every step are the named ones of the JSON output. */
static void test_typed_steps_match_names(void **state)
{
    (void)state;
    ask a = {"llama-3-70b", "h100-sxm", "nvlink4", "ib-ndr", 0, 16, 0, 30, 0};
    recommend_result *r = run_vram(&a, 80e9);
    const recommend_step *st = r->step;
    assert_true(st[REC_STEP_FIT].fit.weights_bytes == num(r, REC_STEP_FIT, "weights_bytes"));
    assert_true(st[REC_STEP_FIT].fit.kv_room_bytes == num(r, REC_STEP_FIT, "kv_room_bytes"));
    assert_true(st[REC_STEP_FIT].fit.concurrency == num(r, REC_STEP_FIT, "concurrency"));
    assert_true(st[REC_STEP_FLOOR].floor.floor_s == num(r, REC_STEP_FLOOR, "floor_s"));
    assert_true(st[REC_STEP_FLOOR].floor.itl_target_s == num(r, REC_STEP_FLOOR, "itl_target_s"));
    assert_true(st[REC_STEP_N_FIT].n_fit.budget_per_gpu_bytes ==
                num(r, REC_STEP_N_FIT, "budget_per_gpu_bytes"));
    assert_int_equal(st[REC_STEP_N_FIT].n_fit.n_fit, 3);
    assert_true(st[REC_STEP_N_LATENCY].n_latency.floor_at_tp_max_s ==
                num(r, REC_STEP_N_LATENCY, "floor_at_tp_max_s"));
    assert_int_equal(st[REC_STEP_TP].tp.tp, 4);
    assert_int_equal(st[REC_STEP_TP].tp.gpus_max, 16);
    assert_true(st[REC_STEP_TP].tp.gpus_max == num(r, REC_STEP_TP, "gpus_max"));
    assert_true(st[REC_STEP_TOPOLOGY].topology.inter_link_bytes_per_s ==
                num(r, REC_STEP_TOPOLOGY, "inter_link_bytes_per_s"));
    assert_true(st[REC_STEP_TOPOLOGY].topology.decode_comm_fraction ==
                num(r, REC_STEP_TOPOLOGY, "decode_comm_fraction"));
    assert_int_equal(st[REC_STEP_REPLICAS].replicas.dp, 4);
    assert_true(st[REC_STEP_REPLICAS].replicas.tokens_per_s_total ==
                num(r, REC_STEP_REPLICAS, "tokens_per_s_total"));
    const recommend_quant *qt = &st[REC_STEP_QUANT].quant;
    assert_int_equal(qt->n, 3);
    assert_int_equal(qt->q[0].dtype, ENGINE_FP8);
    assert_true(qt->q[0].weights_bytes == num(r, REC_STEP_QUANT, "fp8_weights_bytes"));
    assert_true(qt->q[2].unit_gpus == num(r, REC_STEP_QUANT, "int4_unit_gpus"));
    assert_true(qt->procedure_ok == num(r, REC_STEP_QUANT, "procedure_ok"));
    const recommend_search *se = &st[REC_STEP_ENGINE].search;
    assert_true(se->plans_evaluated == num(r, REC_STEP_ENGINE, "plans_evaluated"));
    assert_true(se->plans_feasible == num(r, REC_STEP_ENGINE, "plans_feasible"));
    assert_int_equal(se->tp, r->chosen.plan.tp);
    assert_int_equal(se->dp, r->chosen.plan.dp);
    assert_true(se->itl_s == num(r, REC_STEP_ENGINE, "itl_s"));
    free(r);
}

static void test_recommend_never_beaten_by_eval(void **state)
{
    (void)state;
    const engine_objective objs[] = {ENGINE_OBJ_THROUGHPUT, ENGINE_OBJ_LATENCY};
    for (int o = 0; o < 2; o++) {
        check_against_rank("mixtral-8x7b", "h100-sxm", "nvlink4", 8, 64, objs[o]);
        check_against_rank("mixtral-8x7b", "h100-sxm", "nvlink4", 8, 1, objs[o]);
        check_against_rank("llama-3-70b", "h100-sxm", "nvlink4", 8, 32, objs[o]);
        check_against_rank("llama-3-8b", "h100-sxm", "nvlink4", 8, 16, objs[o]);
        check_against_rank("deepseek-v3", "h200", "nvlink4", 16, 32, objs[o]);
        check_against_rank("qwen3-30b-a3b", "h100-sxm", "nvlink4", 4, 128, objs[o]);
    }
}


/* --allow-spec: speculation is an option the search may choose.  Llama-3-8B
 * on H100 ranked by latency: allowed EAGLE, the chosen plan speculates (its
 * ITL is the verification and drafts over E, below the plain one); not
 * allowed, it does not; MTP on a model without MTP layers is never tried. */
static void test_allow_spec(void **state)
{
    (void)state;
    recommend_request q;
    memset(&q, 0, sizeof q);
    engine_scenario_defaults(&q.base);
    q.base.model = preset_find_model(ts_db, "llama-3-8b");
    q.base.gpu = preset_find_gpu(ts_db, "h100-sxm");
    q.base.intra = preset_find_link(ts_db, "nvlink4");
    assert_non_null(q.base.model);
    q.base.gpus_per_node = 8;
    q.base.objective = ENGINE_OBJ_LATENCY;
    q.gpus_max = 1;
    recommend_result *plain = calloc(1, sizeof *plain), *r = calloc(1, sizeof *r);
    assert_non_null(plain);
    assert_non_null(r);
    engine_error err = {{0}};
    assert_int_equal(recommend_run(&q, plain, &err), 0);
    assert_true(plain->have_choice);
    assert_int_equal(plain->chosen.spec, ENGINE_SPEC_NONE);
    assert_false(plain->chosen_result.spec.on);
    q.allow_spec = 1u << ENGINE_SPEC_EAGLE | 1u << ENGINE_SPEC_MTP;
    assert_int_equal(recommend_run(&q, r, &err), 0);
    assert_true(r->have_choice);
    assert_int_equal(r->chosen.spec, ENGINE_SPEC_EAGLE);
    assert_true(r->chosen_result.spec.on);
    assert_int_equal(r->chosen_result.spec.k, 3); /* EAGLE's default */
    assert_true(r->chosen_result.itl_s < 0.6 * plain->chosen_result.itl_s);
    for (int i = 0; i < r->n_cands; i++)
        assert_true(r->cands[i].spec != ENGINE_SPEC_MTP);
    engine_scenario s;
    recommend_option_scenario(&q, &r->chosen, &s);
    assert_int_equal(s.spec_method, ENGINE_SPEC_EAGLE);
    free(plain);
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recommend_never_beaten_by_eval),
        cmocka_unit_test(test_typed_steps_match_names),
        cmocka_unit_test(test_seed004_a_one_gpu),
        cmocka_unit_test(test_seed004_b_tp4),
        cmocka_unit_test(test_seed004_b_real_capacity),
        cmocka_unit_test(test_seed004_c_fp8),
        cmocka_unit_test(test_seed004_c_fp16),
        cmocka_unit_test(test_seed002_7b_dgx_replicas),
        cmocka_unit_test(test_seed002_70b_dgx_tp),
        cmocka_unit_test(test_seed002_7b_3090_replicas),
        cmocka_unit_test(test_seed002_405b_two_dgx),
        cmocka_unit_test(test_seed002_70b_infiniband),
        cmocka_unit_test(test_itl_below_floor),
        cmocka_unit_test(test_moe_floor_active_weights),
        cmocka_unit_test(test_cannot_fit),
        cmocka_unit_test(test_cannot_fit_quant_would),
        cmocka_unit_test(test_round_tp),
        cmocka_unit_test(test_hand_built_example_a),
        cmocka_unit_test(test_allow_spec),
    };
    return cmocka_run_group_tests(tests, ts_presets_setup, ts_presets_teardown);
}
