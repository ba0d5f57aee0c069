/*
 * test_moe.c - MoE as it is deployed and the overlap techniques (issue 11
 * sections 2 and 3) against hand-worked numbers: EP smaller than TP
 * (expert groups inside the TP group), redundant expert slots, the routing
 * imbalance, DeepEP's dispatch/combine at its published table points,
 * two-batch overlap and the fused all-reduce + norm.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "recommend.h"
#include "support_asserts.h"
#include "support_models.h"

/* An MoE layer's grouped expert GEMM (its compute / weight-stream blend:
 * engine_moe_gemm_s). */
static double gg(const engine_gpu *g, double m, double n, double k, double groups)
{
    return engine_moe_gemm_s(g, NULL, ENGINE_FP16, m, n, k, groups, 2, 2);
}

static double sk(const engine_gpu *g, double bytes)
{
    return engine_small_kernel_s(g, bytes);
}

/* Mixtral-8x7B (8 experts, top-2, f = 14336, d = 4096) on TP8 with EP2:
 * two groups of 4 experts, each expert split over 4 GPUs (f/4 = 3584).
 * Every TP rank holds the token, so a GPU runs its group's share: at batch
 * 1, 2 x 1/2 = 1 token-expert pair, 4 (1 - 6/8) = 1 expert hit, one token
 * each; TP8 alone (EP1) runs 2 pairs on 8 (1 - 6/8) = 2 experts of f/8 =
 * 1792.  The rest of the layer (attention, all-reduces) is the same, so
 * the decode steps differ by 32 x the difference of the expert kernels.
 * No all-to-all: the MLP all-reduce combines.  Memory: 4 experts x 1/4 =
 * one expert's worth per GPU, as TP8. */
static void test_ep_below_tp(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_mixtral_8x7b(), 8);
    s.moe_imbalance = 1;
    engine_result ep2 = eval_plan(&s, 8, 1, 1, 2);
    engine_result ep1 = eval_plan(&s, 8, 1, 1, 1);
    assert_true(ep2.valid && ep1.valid);
    assert_string_equal(ep2.reason, "");
    double d = 4096;
    double e2 = sk(&f.g, (1 + 1) * d * 2) * 2 + gg(&f.g, 1, 2 * 3584, d, 1) +
                sk(&f.g, 3 * 1 * 3584 * 2) + gg(&f.g, 1, d, 3584, 1);
    double e1 = sk(&f.g, (1 + 2) * d * 2) * 2 + gg(&f.g, 1, 2 * 1792, d, 2) +
                sk(&f.g, 3 * 2 * 1792 * 2) + gg(&f.g, 1, d, 1792, 2);
    assert_near(ep2.itl_s - ep1.itl_s, 32 * (e2 - e1), 1e-6);
    assert_true(ep2.decode.ep_s == 0);
    assert_near(ep2.decode.tp_s, ep1.decode.tp_s, 1e-12);
    double experts = 32.0 * 8 * 3 * 4096 * 14336;
    assert_near(ep2.mem.weights_bytes, ep1.mem.weights_bytes, 1e-12);
    engine_result ep8 = eval_plan(&s, 8, 1, 1, 8); /* one whole expert per GPU */
    assert_near(ep8.mem.weights_bytes - ep2.mem.weights_bytes, 0, 1);
    (void)experts;
    /* EP4 under TP8 (2 experts each over 2 GPUs) is valid; EP3 is not */
    assert_true(eval_plan(&s, 8, 1, 1, 4).valid);
    engine_result bad = eval_plan(&s, 8, 1, 1, 3);
    assert_false(bad.valid);
    assert_string_equal(bad.reason, "ep=3 does not divide 8 experts");
    s.gpus = 4;
    bad = eval_plan(&s, 4, 1, 1, 8);
    assert_false(bad.valid);
    assert_string_equal(bad.reason,
                        "ep=8 must divide tp=4, or be a multiple of it dividing tp*dp=4");
}

/* The ranking enumerates EP below TP: Mixtral-8x7B (8 experts) on 8 GPUs.
 * The (tp, pp, dp) with tp*pp*dp = 8 are 10; EP as a multiple of tp
 * dividing tp*dp and 8 adds 10 (tp1: ep 2,4,8 at dp8, 2,4 at dp4, 2 at
 * dp2; tp2: 4,8 at dp4, 4 at dp2; tp4: 8 at dp2): 20 plans before.  EP
 * dividing tp (1 < ep < tp) adds TP8xEP2, TP8xEP4, TP4xPP1xDP2xEP2 and
 * TP4xPP2xEP2: 24.  The EP-below-TP plans hold TP8's memory per GPU
 * (test_ep_below_tp) and carry engine_evaluate's times; the list stays
 * sorted by E2E (latency objective). */
/* A buffer smaller than the plan count keeps the best plans, in order:
 * for each objective, a ranking into 5 (or 1, or 23) slots is the full
 * ranking's first 5 (1, 23), plan for plan and number for number.  Before,
 * it kept the first plans enumerated (TP1 ones), whatever their rank. */
static void test_rank_cut_keeps_the_best(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_mixtral_8x7b(), 8);
    static const engine_objective OBJ[] = {ENGINE_OBJ_LATENCY, ENGINE_OBJ_THROUGHPUT,
                                           ENGINE_OBJ_COST};
    static const int CAP[] = {1, 5, 23};
    engine_result all[64], cut[64];
    for (int o = 0; o < 3; o++) {
        s.objective = OBJ[o];
        int n = engine_rank(&s, all, 64, 0, NULL);
        assert_int_equal(n, 24);
        for (int c = 0; c < 3; c++) {
            assert_int_equal(engine_rank(&s, cut, CAP[c], 0, NULL), CAP[c]);
            for (int i = 0; i < CAP[c]; i++) {
                assert_memory_equal(&cut[i].plan, &all[i].plan, sizeof all[i].plan);
                assert_true(cut[i].e2e_s == all[i].e2e_s);
                assert_true(cut[i].tokens_per_s == all[i].tokens_per_s);
            }
        }
    }
    /* the best latency plan is not among the first five enumerated */
    s.objective = ENGINE_OBJ_LATENCY;
    engine_rank(&s, all, 64, 0, NULL);
    assert_true(all[0].plan.tp > 1);
}

static void test_rank_ep_below_tp(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_mixtral_8x7b(), 8);
    assert_int_equal(engine_plan_count(&s), 24);
    engine_result r[64];
    int n = engine_rank(&s, r, 64, 0, NULL);
    assert_int_equal(n, 24);
    engine_result tp8 = eval_plan(&s, 8, 1, 1, 1);
    int found = 0, below = 0;
    for (int i = 0; i < n; i++) {
        engine_plan p = r[i].plan;
        if (i > 0 && r[i].valid && r[i].fits && r[i - 1].valid && r[i - 1].fits)
            assert_true(r[i - 1].e2e_s <= r[i].e2e_s);
        if (p.ep > 1 && p.ep < p.tp) {
            below++;
            assert_true(r[i].valid);
            engine_result e = eval_plan(&s, p.tp, p.pp, p.dp, p.ep);
            assert_near(r[i].e2e_s, e.e2e_s, 1e-12);
            assert_near(r[i].itl_s, e.itl_s, 1e-12);
            assert_near(r[i].ttft_s, e.ttft_s, 1e-12);
        }
        if (p.tp == 8 && (p.ep == 2 || p.ep == 4)) {
            found++;
            assert_near(r[i].mem.per_gpu_bytes, tp8.mem.per_gpu_bytes, 1e-12);
        }
    }
    assert_int_equal(below, 4);
    assert_int_equal(found, 2);
    /* The slots decide: 8 experts + 4 redundant = 12 slots drop EP8 (12 %
     * 8 != 0) at tp1/dp8, tp2/dp4 and tp4/dp2; EP2 and EP4 under TP8 stay. */
    s.redundant_experts = 4;
    assert_int_equal(engine_plan_count(&s), 21);
    /* The count stays under the callers' buffers (RECOMMEND_SCRATCH and the
     * explorer's EXP_MAX_PLANS, 1024 each) for DeepSeek's 256 experts at the
     * explorer's largest count, 1024 (258 before EP below TP), at
     * recommend's worst unit size, 480 (329 before), and at 960 (476
     * before); counts from the same rule enumerated independently. */
    s.redundant_experts = 0;
    f.m.experts = 256;
    s.gpus = 1024;
    assert_int_equal(engine_plan_count(&s), 422);
    s.gpus = 480;
    assert_int_equal(engine_plan_count(&s), 584);
    s.gpus = 960;
    assert_int_equal(engine_plan_count(&s), 896);
    assert_true(896 <= RECOMMEND_SCRATCH);
    s.gpus = 8;
    /* A dense model gets no EP plans: 10 */
    engine_model d = tm_llama3_70b();
    s.model = &d;
    assert_int_equal(engine_plan_count(&s), 10);
}

/* Redundant slots: Mixtral's 8 experts + 8 replicas on EP8 (DP8): 2 slots
 * per GPU, so its expert memory doubles (2 x 1/8 of the experts); the load
 * spreads over the 16 physical slots (2 per GPU, each token picks 2 of 16
 * slots).  12 slots do not split over 8 GPUs. */
static void test_redundant_experts(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_scenario s = ts_on_h100(&fx, tm_mixtral_8x7b(), 8);
    s.moe_imbalance = 1;
    engine_result plain = eval_plan(&s, 1, 1, 8, 8);
    s.redundant_experts = 8;
    engine_result red = eval_plan(&s, 1, 1, 8, 8);
    assert_true(red.valid);
    assert_int_equal(red.expert_slots, 16);
    assert_int_equal(plain.expert_slots, 8);
    double experts = 32.0 * 8 * 3 * 4096 * 14336;
    assert_near(red.mem.weights_bytes - plain.mem.weights_bytes, experts / 8 * 2, 1e-9);
    /* decode batch 1: 8 pooled tokens pick 2 of 16 slots; this GPU's 2
     * slots are hit 2 (1 - (14/16)^8) times, 16 x 2 / 8 = 2 pairs */
    double hit = 2 * (1 - pow(14.0 / 16, 8));
    double hit_plain = 1 * (1 - pow(6.0 / 8, 8));
    double d = 4096, f = 14336;
    double dr = gg(&fx.g, 2 / hit, 2 * f, d, hit) + gg(&fx.g, 2 / hit, d, f, hit);
    double dp = gg(&fx.g, 2 / hit_plain, 2 * f, d, hit_plain) +
                gg(&fx.g, 2 / hit_plain, d, f, hit_plain);
    assert_near(red.itl_s - plain.itl_s, 32 * (dr - dp), 1e-6);
    s.redundant_experts = 4;
    engine_result bad = eval_plan(&s, 1, 1, 8, 8);
    assert_false(bad.valid);
    assert_string_equal(bad.reason, "ep=8 does not divide 8 experts + 4 redundant = 12");
    /* without EP the replicas mean nothing: ignored */
    s.gpus = 1;
    engine_result one = eval_plan(&s, 1, 1, 1, 1);
    assert_true(one.valid);
    assert_int_equal(one.expert_slots, 8);
}

/* The default imbalance reproduces the two measurements it comes from:
 * TensorRT-LLM's DeepSeek-R1 routing, (max - mean) / mean = 1.564 at EP32
 * over 256 experts and 0.115 with EPLB at EP36 over 288 slots
 * (examples/wide_ep/ep_load_balancer/README.md); one group: 1. */
static void test_imbalance_default(void **state)
{
    (void)state;
    assert_near(engine_moe_imbalance_default(32, 256, 0), 2.564, 0.002);
    assert_near(engine_moe_imbalance_default(36, 288, 32), 1.115, 0.002);
    assert_true(engine_moe_imbalance_default(1, 256, 0) == 1.0);
    assert_true(engine_moe_imbalance_default(8, 256, 0) < engine_moe_imbalance_default(32, 256, 0));
    engine_scenario s;
    engine_scenario_defaults(&s);
    assert_near(engine_scenario_moe_imbalance(&s, 32, 256), 2.564, 0.002);
    s.moe_imbalance = 1.5;
    assert_true(engine_scenario_moe_imbalance(&s, 32, 256) == 1.5);
    assert_true(engine_scenario_moe_imbalance(&s, 1, 256) == 1.0);
}

/* Imbalance 2 on a compute-bound prefill (Mixtral EP8 over 8 replicas,
 * 4096-token prompts: 32768 pooled tokens, 8192 pairs on each GPU's
 * expert, 16384 on the busiest): its expert GEMMs run twice the tokens
 * (about twice the time) and its all-to-all moves twice the bytes.
 * Imbalance 1 is the uniform model: the hand-worked EP numbers. */
static void test_imbalance_stretches(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_scenario s = ts_on_h100(&fx, tm_mixtral_8x7b(), 8);
    s.prompt = 4096;
    s.gen = 2;
    s.moe_imbalance = 1;
    engine_result r1 = eval_plan(&s, 1, 1, 8, 8);
    s.moe_imbalance = 2;
    engine_result r2 = eval_plan(&s, 1, 1, 8, 8);
    double d = 4096, f = 14336;
    double g1 = gg(&fx.g, 8192, 2 * f, d, 1) + gg(&fx.g, 8192, d, f, 1);
    double g2 = gg(&fx.g, 16384, 2 * f, d, 1) + gg(&fx.g, 16384, d, f, 1);
    assert_near(g2 / g1, 2.0, 0.02);
    assert_near(r2.prefill.gemm_s - r1.prefill.gemm_s, 32 * (g2 - g1), 1e-6);
    assert_near(r2.prefill.ep_s, 2 * r1.prefill.ep_s, 1e-9);
    /* uniform decode all-to-all: 2 x 32 x 7/8 x 8 pooled... one token of
     * 2 x 4096 x 2 B per GPU over 300 GB/s */
    s.prompt = 1024;
    s.gen = 256;
    s.moe_imbalance = 1;
    engine_result u = eval_plan(&s, 1, 1, 8, 8);
    assert_near(u.decode_comm_s, 64 * (7.0 / 8 * 2 * 4096 * 2 / 300e9), 1e-9);
    /* the busiest GPU cannot get more than every pooled token on its one
     * expert: 8 pairs, 4 x the mean, whatever the factor */
    s.moe_imbalance = 10;
    engine_result cap = eval_plan(&s, 1, 1, 8, 8);
    assert_near(cap.decode_comm_s, 4 * u.decode_comm_s, 1e-9);
    assert_near(cap.moe_imbalance, 10, 0);
}

/* DeepEP at its published points (docs/legacy.md, H800): on the links it
 * ran on (CX7 400G = the ib-ndr preset's 42.4 GB/s; NVLink ~160 GB/s) the
 * bandwidths are the table's; low-latency EP8 dispatch of 128 tokens x 8
 * x 7168 FP8 bytes and combine in BF16 come within 10 % of the published
 * 77 and 114 us (the model adds two 4 us network latencies). */
static void test_deepep_table(void **state)
{
    (void)state;
    engine_link nvl = tl_link(0, 160);
    nvl.base_s = 5e-6;
    engine_link ib = tl_link(4e-6, 42.4);
    ib.base_s = 19e-6;
    assert_near(engine_deepep_s(&nvl, &ib, 8, 0, 0, 0, 1e9), 5e-6 + 1e9 / 153e9, 1e-12);
    assert_near(engine_deepep_s(&nvl, &ib, 8, 0, 0, 1, 1e9), 5e-6 + 1e9 / 158e9, 1e-12);
    assert_near(engine_deepep_s(&nvl, &ib, 16, 1, 0, 0, 1e9), 19e-6 + 1e9 / 43e9, 1e-12);
    assert_near(engine_deepep_s(&nvl, &ib, 64, 1, 0, 1, 1e9), 19e-6 + 1e9 / 50e9, 1e-12);
    /* EP24: between EP16 (43) and EP32 (58) at log2(24) - 4 */
    double bw24 = 43e9 + 15e9 * (log2(24.0) - 4);
    assert_near(engine_deepep_s(&nvl, &ib, 24, 1, 0, 0, 1e9), 19e-6 + 1e9 / bw24, 1e-12);
    double disp = 128.0 * 8 * 7168, comb = 2 * disp;
    double ll_d = engine_deepep_s(&nvl, &ib, 8, 1, 1, 0, disp);
    double ll_c = engine_deepep_s(&nvl, &ib, 8, 1, 1, 1, comb);
    assert_near(ll_d, 8e-6 + disp / 98e9, 1e-12);
    assert_near(ll_c, 8e-6 + comb / 127e9, 1e-12);
    assert_near(ll_d, 77e-6, 0.10);
    assert_near(ll_c, 114e-6, 0.10);
    assert_near(engine_deepep_s(&nvl, &ib, 256, 1, 1, 1, comb), 8e-6 + comb / 40e9, 1e-12);
    assert_true(engine_deepep_s(&nvl, &ib, 1, 0, 0, 0, 1e9) == 0);
    /* in an evaluation: --a2a deepep replaces NCCL's two all-to-alls by a
     * dispatch and a combine per MoE layer (decode batch 1: one token of
     * 2 x 4096 x 2 B per GPU) */
    engine_model m = tm_mixtral_8x7b();
    engine_gpu g = tg_h100();
    engine_scenario s;
    ts_scenario(&s, &m, &g, &nvl, 8);
    s.moe_imbalance = 1;
    s.a2a = ENGINE_A2A_DEEPEP;
    engine_result r = eval_plan(&s, 1, 1, 8, 8);
    double b = 2 * 4096 * 2;
    assert_near(r.decode.ep_s,
                32 * (engine_deepep_s(&nvl, NULL, 8, 0, 0, 0, b) +
                      engine_deepep_s(&nvl, NULL, 8, 0, 0, 1, b)),
                1e-9);
    s.a2a = ENGINE_A2A_DEEPEP_LL; /* 1 token per rank: the low-latency kernels */
    r = eval_plan(&s, 1, 1, 8, 8);
    assert_near(r.decode.ep_s,
                32 * (engine_deepep_s(&nvl, NULL, 8, 0, 1, 0, b) +
                      engine_deepep_s(&nvl, NULL, 8, 0, 1, 1, b)),
                1e-9);
    /* 1024-token prefills exceed the low-latency bound: the normal kernels */
    assert_near(r.prefill.ep_s,
                32 * (engine_deepep_s(&nvl, NULL, 8, 0, 0, 0, 1024 * b) +
                      engine_deepep_s(&nvl, NULL, 8, 0, 0, 1, 1024 * b)),
                1e-9);
    assert_string_equal(engine_a2a_name(ENGINE_A2A_DEEPEP_LL), "deepep-ll");
    engine_a2a a;
    assert_int_equal(engine_a2a_parse("DeepEP", &a), 0);
    assert_int_equal(a, ENGINE_A2A_DEEPEP);
    assert_int_equal(engine_a2a_parse("mpi", &a), -1);
}

/* Distinct EP ranks / nodes of one token's top-k (engine_ep_distinct),
 * worked by hand.  Unlimited, DeepSeek's 256 experts top-8 on 4 nodes:
 * 4 (1 - C(192,8)/C(256,8)) = 4 (1 - 0.0964464) = 3.6142 (with
 * replacement 4 (1 - (3/4)^8) = 3.60); 2.71 of them remote from a
 * uniformly placed source (x 3/4).  Group-limited, 4 of 8 groups, 2
 * groups a node: 4 (1 - C(6,4)/C(8,4)) = 4 (1 - 15/70) = 22/7 = 3.1429;
 * 1 group a node (8 nodes): 8 (1 - 35/70) = 4, the limit itself; 2 nodes:
 * 2 (1 - 1/70).  32 ranks of 8 experts (a quarter of a group each):
 * 32 (1 - [1/2 + 1/2 x 3/4 x C(120,4)/C(128,4)]) = 32 (1/2 - 0.375 x
 * 0.7700197) = 6.7598.  A Monte Carlo of DeepSeek-V3's gate (model.py:
 * group score the sum of its top-2, top-4 groups, then top-8; 20000
 * tokens of i.i.d. Gaussian scores) gave 3.125 nodes of 4, 3.97 of 8 and
 * 6.84 ranks of 32 against 3.143, 4 and 6.76 here.  Mixtral (8 experts,
 * top-2) on 8 ranks: 8 (1 - C(7,2)/C(8,2)) = 2 = k, one expert a rank. */
static void test_ep_distinct_hand(void **state)
{
    (void)state;
    assert_near(engine_ep_distinct(256, 8, 0, 0, 4), 4 * (1 - 0.0964464236), 1e-9);
    assert_near(engine_ep_distinct(256, 8, 8, 8, 4), 3.6142143056, 1e-9); /* 8 of 8: no limit */
    assert_near(engine_ep_distinct(256, 8, 8, 4, 4), 22.0 / 7, 1e-12);
    assert_near(engine_ep_distinct(256, 8, 8, 4, 8), 4, 1e-12);
    assert_near(engine_ep_distinct(256, 8, 8, 4, 2), 2 * (1 - 1.0 / 70), 1e-12);
    assert_near(engine_ep_distinct(256, 8, 8, 4, 32), 32 * (0.5 - 0.375 * 0.7700196850), 1e-8);
    assert_near(engine_ep_distinct(8, 2, 0, 0, 8), 2, 1e-12);
    assert_near(engine_ep_distinct(256, 1, 0, 0, 32), 1, 1e-12); /* top-1: one rank */
    assert_near(engine_ep_distinct(256, 8, 8, 4, 1), 1, 0);
    assert_true(engine_ep_distinct(0, 8, 0, 0, 4) == 0 && engine_ep_distinct(256, 8, 0, 0, 0) == 0);
    /* a group limit the layout cannot use (7 does not divide 256): unlimited */
    assert_near(engine_ep_distinct(256, 8, 7, 4, 4), 3.6142143056, 1e-9);
}

/* DeepSeek-V3 prefill on EP32 = 4 nodes of 8 over IB with DeepEP's normal
 * kernels, on the links of DeepEP's own table (NVLink 160 GB/s, CX7 =
 * ib-ndr 42.4 GB/s): 1024 tokens per GPU of 7168 x 2 B, imbalance 1.  A
 * token crosses IB once per destination node: 22/7 of them with the group
 * limit, 3.614 without, where the per-copy count was 8, so the 58 MoE
 * layers' dispatch + combine are 58 x (2 x 19 us + tok x 22/7 / 58 and
 * / 57 GB/s).  The NVLink fan-out (6.76 ranks / 153 GB/s) is the faster
 * leg.  explain reports the dispatch's bytes in that unit. */
static void test_deepep_node_dedup(void **state)
{
    (void)state;
    engine_model m = tm_deepseek_v3();
    engine_gpu g = tg_h100();
    engine_link nvl = tl_link(0, 160), ib = tl_link(4e-6, 42.4);
    nvl.base_s = 5e-6;
    ib.base_s = 19e-6;
    engine_scenario s;
    ts_scenario(&s, &m, &g, &nvl, 32);
    s.inter = &ib;
    s.gpus_per_node = 8;
    s.weight_dtype = ENGINE_FP8;
    s.moe_imbalance = 1;
    s.a2a = ENGINE_A2A_DEEPEP;
    s.batch = 1;
    s.prompt = 1024;
    s.gen = 2;
    double tok = 1024.0 * 7168 * 2;
    double want = 58 * (2 * 19e-6 + tok * (22.0 / 7) / 58e9 + tok * (22.0 / 7) / 57e9);
    engine_result r = eval_plan(&s, 1, 1, 32, 32);
    assert_true(r.valid);
    assert_near(r.prefill.ep_s, want, 1e-9);
    double nvl_leg = 58 * (2 * 5e-6 + tok * 6.7597637795 / 153e9 + tok * 6.7597637795 / 158e9);
    assert_true(nvl_leg < 0.85 * want);
    /* the bytes on IB dropped by (22/7) / 8 from the per-copy count */
    double per_copy = 58 * (2 * 19e-6 + tok * 8 / 58e9 + tok * 8 / 57e9);
    assert_near((r.prefill.ep_s - 58 * 2 * 19e-6) / (per_copy - 58 * 2 * 19e-6), 22.0 / 56, 1e-9);
    engine_explain X;
    engine_error err = {{0}};
    assert_int_equal(engine_explain_plan(&s, (engine_plan){1, 1, 32, 32}, &X, &err), 0);
    int found = 0;
    for (int i = 0; i < X.prefill.n; i++)
        if (strcmp(X.prefill.item[i].name, "ep dispatch (deepep)") == 0) {
            assert_near(X.prefill.item[i].bytes, 58 * tok * 22.0 / 7, 1e-9);
            found = 1;
        }
    assert_true(found);
    /* without the group limit: 3.614 nodes a token */
    m.n_group = m.topk_group = 0;
    r = eval_plan(&s, 1, 1, 32, 32);
    assert_near(r.prefill.ep_s, 58 * (2 * 19e-6 + tok * 3.6142143056 * (1 / 58e9 + 1 / 57e9)),
                1e-9);
}

/* DeepEP's internode table labels every point "(RDMA)", the bottleneck:
 * in the test's own setting (tests/legacy/test_internode.py: 256 experts,
 * top-8, one group a node, top min(nodes, 4) groups; H800 NVLink 160 GB/s,
 * CX7 42.4) the RDMA leg, t x distinct nodes / 43, 58, 51 GB/s, must be the
 * slower one against the NVLink fan-out, t x distinct ranks / 153 GB/s, at
 * EP16, 32 and 64 (1.993 nodes and 6.52 ranks; 3.614 and 7.21; 4 and 7.38),
 * so the model returns the table's figure there. */
static void test_deepep_table_bottleneck(void **state)
{
    (void)state;
    engine_link nvl = tl_link(0, 160), ib = tl_link(4e-6, 42.4);
    static const int eps[] = {16, 32, 64};
    static const double rdma_bw[] = {43e9, 58e9, 51e9};
    for (int i = 0; i < 3; i++) {
        int nodes = eps[i] / 8, top = nodes < 4 ? nodes : 4;
        double dn = engine_ep_distinct(256, 8, nodes, top, nodes);
        double dr = engine_ep_distinct(256, 8, nodes, top, eps[i]);
        double t = 4096.0 * 7168;
        double got = engine_deepep_normal_s(&nvl, &ib, eps[i], 1, 0, t * dr, t * dn);
        assert_near(got, t * dn / rdma_bw[i], 1e-12);
        assert_true(t * dr / 153e9 < got);
    }
    assert_near(engine_ep_distinct(256, 8, 2, 2, 2), 2 * (1 - 0.0034899), 1e-6);
    assert_near(engine_ep_distinct(256, 8, 8, 4, 64), 64 * (0.5 - 0.4375 * 0.8793824), 1e-6);
}

/* The routing imbalance on DeepEP's two legs (the default rule, c = 1.68):
 * a GPU's RDMA traffic is its node's (a token enters a node through the
 * GPU of the sender's in-node index), so the RDMA leg carries the busiest
 * of 4 nodes of 64 experts, 1 + 1.68 sqrt(2 ln 4) / 8 = 1.3497, and the
 * NVLink fan-out the busiest of 32 GPUs of 8, 1 + 1.68 sqrt(2 ln 32) /
 * sqrt(8) = 2.5637.  On H100's NVLink (450 GB/s: 153 x 450/160 = 430 GB/s
 * in DeepEP's unit) RDMA is the slower leg; on the 160 GB/s of DeepEP's
 * H800 the fan-out of the busiest GPU is (2.5637 x 6.76 / 153 against
 * 1.3497 x 22/7 / 58 per byte of tokens). */
static void test_deepep_leg_imbalance(void **state)
{
    (void)state;
    engine_model m = tm_deepseek_v3();
    engine_gpu g = tg_h100();
    engine_link nvl = tl_link(0, 450), ib = tl_link(4e-6, 42.4);
    nvl.base_s = 5e-6;
    ib.base_s = 19e-6;
    engine_scenario s;
    ts_scenario(&s, &m, &g, &nvl, 32);
    s.inter = &ib;
    s.gpus_per_node = 8;
    s.weight_dtype = ENGINE_FP8;
    s.a2a = ENGINE_A2A_DEEPEP;
    s.batch = 1;
    s.prompt = 1024;
    s.gen = 2;
    double tok = 1024.0 * 7168 * 2;
    double node_f = 1 + 1.68 * sqrt(2 * log(4.0)) / 8;
    double gpu_f = 1 + 1.68 * sqrt(2 * log(32.0)) / sqrt(8.0);
    double ranks = 6.7597637795, nodes = 22.0 / 7;
    engine_result r = eval_plan(&s, 1, 1, 32, 32);
    assert_near(r.moe_imbalance, gpu_f, 1e-9);
    assert_near(r.prefill.ep_s, 58 * (2 * 19e-6 + tok * node_f * nodes * (1 / 58e9 + 1 / 57e9)),
                1e-9);
    nvl.bytes_per_s = 160e9;
    r = eval_plan(&s, 1, 1, 32, 32);
    assert_near(r.prefill.ep_s, 58 * (2 * 5e-6 + tok * gpu_f * ranks * (1 / 153e9 + 1 / 158e9)),
                1e-9);
    /* an explicit --moe-imbalance is the busiest GPU's and node's alike */
    s.moe_imbalance = 1.5;
    nvl.bytes_per_s = 450e9;
    r = eval_plan(&s, 1, 1, 32, 32);
    assert_near(r.prefill.ep_s, 58 * (2 * 19e-6 + tok * 1.5 * nodes * (1 / 58e9 + 1 / 57e9)),
                1e-9);
}

/* NCCL's all-to-all and DeepEP's low-latency kernels still send every
 * top-k copy: the same EP32 prefill over NCCL is 58 x 2 all-to-alls of
 * tok x 8 bytes (the hierarchical form over 8 GPUs a node), and a decode
 * step of 1 token per rank with deepep-ll 58 x the table's EP32 figures
 * on 8 x 7168 x 2 B (two 4 us network latencies each). */
static void test_ep_per_copy_kept(void **state)
{
    (void)state;
    engine_model m = tm_deepseek_v3();
    engine_gpu g = tg_h100();
    engine_link nvl = tl_link(0, 160), ib = tl_link(4e-6, 42.4);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &nvl, 32);
    s.inter = &ib;
    s.gpus_per_node = 8;
    s.weight_dtype = ENGINE_FP8;
    s.moe_imbalance = 1;
    s.batch = 1;
    s.prompt = 1024;
    s.gen = 2;
    double tok = 1024.0 * 7168 * 2;
    engine_result r = eval_plan(&s, 1, 1, 32, 32);
    assert_near(r.prefill.ep_s,
                58 * 2 * engine_comm_time(ENGINE_OP_ALLTOALL, &nvl, &ib, 32, 8, tok * 8), 1e-9);
    s.a2a = ENGINE_A2A_DEEPEP_LL;
    r = eval_plan(&s, 1, 1, 32, 32);
    double b = 8.0 * 7168 * 2;
    assert_near(r.decode.ep_s, 58 * (2 * 8e-6 + b / 48e9 + b / 53e9), 1e-9);
}

/* Two-batch overlap on a slow link (1 GB/s: comm-bound), decode batch 64: the step becomes
 * max(2 x half compute, 2 x half all-to-all); the halves are the same
 * scenario at half the batch.  What it hides is the compute (the smaller
 * part) minus its overhead, the all-to-all latency paid twice. */
static void test_tbo_hand(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_scenario s = ts_on_h100_over(&fx, tm_mixtral_8x7b(), tl_link(1e-6, 1), 8);
    s.moe_imbalance = 1;
    s.batch = 64;
    engine_result off = eval_plan(&s, 1, 1, 8, 8);
    s.batch = 32;
    engine_result half = eval_plan(&s, 1, 1, 8, 8);
    s.batch = 64;
    s.tbo = ENGINE_GRAPHS_ON;
    engine_result on = eval_plan(&s, 1, 1, 8, 8);
    const engine_breakdown *f = &off.decode, *h = &half.decode;
    double C = f->gemm_s + f->attn_s + f->small_s + f->launch_s;
    double M = f->ep_s;
    double Ch = h->gemm_s + h->attn_s + h->small_s + h->launch_s;
    double Mh = h->ep_s;
    assert_true(M > C && 2 * Mh > 2 * Ch); /* comm-bound */
    double hidden = C - (2 * Mh - M);      /* min(C, M) minus the overhead */
    assert_true(hidden > 0 && 2 * Mh - M > 0);
    assert_near(on.decode.tbo_hidden_s, hidden, 1e-9);
    assert_near(on.decode.ep_s, M - hidden, 1e-9);
    assert_near(off.itl_s - on.itl_s, hidden, 1e-9);
    assert_true(off.decode.tbo_hidden_s == 0);
    /* off by default (no framework enables it), and without EP a no-op */
    s.tbo = ENGINE_GRAPHS_DEFAULT;
    assert_int_equal(engine_scenario_tbo(&s), 0);
    s.tbo = ENGINE_GRAPHS_ON;
    s.gpus = 1;
    engine_result one = eval_plan(&s, 1, 1, 1, 1);
    assert_true(one.decode.tbo_hidden_s == 0 && one.prefill.tbo_hidden_s == 0);
}

/* Fused all-reduce + norm (Llama-3-8B, TP2, decode batch 1): each of the
 * 2 x 32 + 1 all-reduces (the embedding's and two a layer) takes the norm
 * after it into its own kernel: 65 kernels fewer, and the step saves
 * those norms (64 residual add + norms of 4 d 2 B, the final norm of
 * 2 d 2 B), nothing else. */
static void test_fused_ar_norm(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 2);
    engine_result off = eval_plan(&s, 2, 1, 1, 1);
    s.fuse_ar_norm = ENGINE_GRAPHS_ON;
    engine_result on = eval_plan(&s, 2, 1, 1, 1);
    assert_int_equal(off.decode.kernels - on.decode.kernels, 65);
    assert_int_equal(off.prefill.kernels - on.prefill.kernels, 65);
    double saved = 64 * sk(&f.g, 4 * 4096 * 2) + sk(&f.g, 2 * 4096 * 2);
    assert_near(on.decode.ar_norm_saved_s, saved, 1e-9);
    assert_near(off.itl_s - on.itl_s, saved, 1e-9);
    assert_near(on.decode.tp_s, off.decode.tp_s, 1e-12);
    assert_true(off.decode.ar_norm_saved_s == 0);
    /* nothing to fuse without TP */
    s.gpus = 1;
    engine_result one = eval_plan(&s, 1, 1, 1, 1);
    assert_true(one.decode.ar_norm_saved_s == 0);
    /* pipeline stages: a stage's first norm follows a receive, so each
     * stage fuses one norm per all-reduce it runs after its first layer */
    s.gpus = 4;
    s.fuse_ar_norm = ENGINE_GRAPHS_OFF;
    engine_result pp_off = eval_plan(&s, 2, 2, 1, 1);
    s.fuse_ar_norm = ENGINE_GRAPHS_ON;
    engine_result pp_on = eval_plan(&s, 2, 2, 1, 1);
    /* the slowest (last) stage: 16 layers' 32 all-reduces, 31 layer norms
     * and the final norm fused */
    assert_int_equal(pp_off.decode.kernels - pp_on.decode.kernels, 32);
}

/* Out-of-range settings are refused by name. */
static void test_moe_scenario_errors(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_mixtral_8x7b(), 1);
    engine_error err;
    s.moe_imbalance = 0.5;
    assert_int_equal(engine_scenario_check(&s, &err), -1);
    assert_string_equal(err.msg, "scenario: moe_imbalance: must be in [1, 64] (0: the default rule)");
    s.moe_imbalance = 0;
    s.redundant_experts = -1;
    assert_int_equal(engine_scenario_check(&s, &err), -1);
    assert_string_equal(err.msg, "scenario: redundant_experts: must be 0..1048576");
    s.redundant_experts = 0;
    s.a2a = ENGINE_A2A_COUNT;
    assert_int_equal(engine_scenario_check(&s, &err), -1);
    assert_string_equal(err.msg, "scenario: a2a: must be nccl, deepep or deepep-ll");
    s.a2a = ENGINE_A2A_NCCL;
    s.tbo = ENGINE_GRAPHS_COUNT;
    assert_int_equal(engine_scenario_check(&s, &err), -1);
    assert_string_equal(err.msg, "scenario: tbo: must be default, on or off");
    s.tbo = ENGINE_GRAPHS_DEFAULT;
    s.fuse_ar_norm = ENGINE_GRAPHS_COUNT;
    assert_int_equal(engine_scenario_check(&s, &err), -1);
    assert_string_equal(err.msg, "scenario: fuse_ar_norm: must be default, on or off");
    s.fuse_ar_norm = ENGINE_GRAPHS_DEFAULT;
    /* the expert GEMMs' blend: 0 (the max) or a norm, p >= 1 */
    f.g.moe_roof_p = 0.5;
    assert_int_equal(engine_scenario_check(&s, &err), -1);
    assert_string_equal(err.msg, "scenario: gpu: moe_roof_p must be 0 (the max) or in [1, 16]");
    f.g.moe_roof_p = 2;
    assert_int_equal(engine_scenario_check(&s, &err), 0);
    /* ... and the block-scaled dense GEMMs' */
    f.g.gemm_roof_p_fp8_block = 17;
    assert_int_equal(engine_scenario_check(&s, &err), -1);
    assert_string_equal(err.msg,
                        "scenario: gpu: gemm_roof_p_fp8_block must be 0 (the max) or in [1, 16]");
    f.g.gemm_roof_p_fp8_block = 2;
    assert_int_equal(engine_scenario_check(&s, &err), 0);
    /* the fewest rows a GEMM tile computes: within the tile table */
    f.g.gemm_min_m = ENGINE_GEMM_MIN_M_MAX + 1;
    assert_int_equal(engine_scenario_check(&s, &err), -1);
    assert_string_equal(err.msg, "scenario: gpu: gemm_min_m must be in [0, 256] token rows");
    f.g.gemm_min_m = ENGINE_GEMM_MIN_M_MAX;
    assert_int_equal(engine_scenario_check(&s, &err), 0);
}

/* gpt-oss-20b's MoE layer geometry (HF openai/gpt-oss-20b config.json:
 * hidden 2880, 32 experts of intermediate 2880, top 4, SwiGLU) with MXFP4
 * experts (group 32), on an H100 carrying the preset's Hopper W4A16 fit. */
static engine_scenario goss20b_moe_on_h100(ts_fixture *f, int gpus)
{
    engine_model m = tm_mixtral_8x7b();
    m.hidden = 2880;
    m.heads = 64;
    m.kv_heads = 8;
    m.head_dim = 64;
    m.experts = 32;
    m.top_k = 4;
    m.moe_ffn = 2880;
    m.ffn = 2880;
    engine_scenario s = ts_on_h100(f, m, gpus);
    f->g.eta_compute_w4a16 = 0.46;
    f->g.eta_memory_w4a16 = 0.61;
    s.weight_dtype = ENGINE_FP4;
    s.quant_group = 32;
    s.moe_imbalance = 1;
    s.prompt = 128;
    s.gen = 128;
    return s;
}

/* engine_moe_layer_s is the routed-expert part of the step model's MoE
 * layer (routing, permute, the two grouped GEMMs, SwiGLU, unpermute) at the
 * pooled token count, checked by hand and against the measured layer:
 * aiconfigurator-core 0.12.0 perf data, h100_sxm moe.csv, w4a16_mxfp4
 * (TensorRT-LLM 1.3's Triton MoE), gpt-oss-20b's shape, TP1 EP1, balanced:
 * 8.5768 ms at 16384 tokens, within 10 %.  EP4 over 4 GPUs: each GPU's 8
 * experts see the 4 GPUs' pooled tokens, n x 4 / 4 pairs. */
static void test_moe_layer_s(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = goss20b_moe_on_h100(&f, 1);
    engine_error err = {{0}};
    engine_plan p1 = {1, 1, 1, 1};
    double n = 16384, E = 32, K = 4, d = 2880, fe = 2880;
    double t = engine_moe_layer_s(&s, p1, n, &err);
    double wb = engine_weight_elem_bytes(ENGINE_FP4, 32);
    double hit = E * (1 - pow(1 - K / E, n)), busy = n * K, me = busy / hit;
    double hand = sk(&f.g, n * E * 8) + 2 * sk(&f.g, (n + busy) * d * 2) +
                  sk(&f.g, 3 * busy * fe * 2) +
                  engine_grouped_gemm_s(&f.g, NULL, ENGINE_FP4, me, 2 * fe, d, hit, wb, 2) +
                  engine_grouped_gemm_s(&f.g, NULL, ENGINE_FP4, me, d, fe, hit, wb, 2);
    assert_near(t, hand, 1e-9);
    assert_true(fabs(t / 8.5768e-3 - 1) < 0.10);

    s = goss20b_moe_on_h100(&f, 4);
    engine_plan p4 = {1, 1, 4, 4};
    double t4 = engine_moe_layer_s(&s, p4, 4096, &err);
    double hit4 = 8 * (1 - pow(1 - K / E, 4096)), busy4 = 4096 * K / 4;
    double T4 = 1024; /* this GPU's own tokens */
    double hand4 = sk(&f.g, T4 * E * 8) + 2 * sk(&f.g, (T4 + busy4) * d * 2) +
                   sk(&f.g, 3 * busy4 * fe * 2) +
                   engine_grouped_gemm_s(&f.g, NULL, ENGINE_FP4, busy4 / hit4, 2 * fe, d, hit4,
                                         wb, 2) +
                   engine_grouped_gemm_s(&f.g, NULL, ENGINE_FP4, busy4 / hit4, d, fe, hit4, wb, 2);
    assert_near(t4, hand4, 1e-9);

    /* a dense model, a plan that does not divide, no tokens: -1, a reason */
    assert_true(engine_moe_layer_s(&s, (engine_plan){1, 1, 4, 3}, 64, &err) < 0);
    assert_non_null(strstr(err.msg, "ep=3"));
    assert_true(engine_moe_layer_s(&s, p4, 0, &err) < 0);
    f.m.experts = 0;
    assert_true(engine_moe_layer_s(&s, p1, 64, &err) < 0);
    assert_non_null(strstr(err.msg, "no experts"));
}

/* engine_moe_layer_routed_s: the same layer under a given routing.
 * aiconfigurator's collector routes "balanced" round-robin
 * (collector/helper.py balanced_logits @095f58a5: stride ceil(E / k) = 8
 * for 32 experts, top 4; below 8 tokens token t picks t x 8 / n + 8 j):
 * 2 tokens pick experts 0, 8, 16, 24 and 4, 12, 20, 28, so EP rank 0's
 * experts [0, 8) get 2 pairs on 2 experts, one token each, where random
 * routing expects 8 x (1 - (1 - 4/32)^2) = 1.875 experts hit. */
static void test_moe_layer_routed_s(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = goss20b_moe_on_h100(&f, 4);
    engine_error err = {{0}};
    engine_plan p4 = {1, 1, 4, 4};
    double E = 32, K = 4, d = 2880, fe = 2880, T = 0.5; /* 2 tokens over EP4 */
    double wb = engine_weight_elem_bytes(ENGINE_FP4, 32);
    double t = engine_moe_layer_routed_s(&s, p4, 2, 2, 2, &err);
    double hand = sk(&f.g, T * E * 8) + 2 * sk(&f.g, (T + 2) * d * 2) + sk(&f.g, 3 * 2 * fe * 2) +
                  engine_grouped_gemm_s(&f.g, NULL, ENGINE_FP4, 1, 2 * fe, d, 2, wb, 2) +
                  engine_grouped_gemm_s(&f.g, NULL, ENGINE_FP4, 1, d, fe, 2, wb, 2);
    assert_near(t, hand, 1e-12);
    /* random routing's hit count and pairs give engine_moe_layer_s */
    double hit = 8 * (1 - pow(1 - K / E, 2));
    assert_near(engine_moe_layer_routed_s(&s, p4, 2, hit, 2, &err),
                engine_moe_layer_s(&s, p4, 2, &err), 1e-15);
    assert_true(engine_moe_layer_routed_s(&s, p4, 2, 0, 0, &err) ==
                engine_moe_layer_s(&s, p4, 2, &err));
    assert_true(fabs(t - engine_moe_layer_s(&s, p4, 2, &err)) > 1e-9);
    /* one of the two given without the other, or negative: -1, a reason */
    assert_true(engine_moe_layer_routed_s(&s, p4, 2, 2, 0, &err) < 0);
    assert_non_null(strstr(err.msg, "experts hit"));
    assert_true(engine_moe_layer_routed_s(&s, p4, 2, -1, -1, &err) < 0);
}

/* TensorRT-LLM's fused MoE (frameworks.json trt-llm moe_expand; eval.c
 * moe_serial, after moe_kernels.cu runMoe): Qwen3-235B's expert geometry
 * (hidden 4096, 128 experts of 1536, top 8) on an H100 fixture, EP8, 16384
 * tokens all rows of the GPU's op (aiconfigurator's collector), balanced:
 * 16 local experts, 16384 x 8 / 8 = 16384 pairs, 1024 a touched expert.
 * By hand: routing 16384 x 128 x 8 B, the sort 4 x (2 x 16384 x 8 + 16384)
 * B, the expand of every pair's row (16384 x 4096 x (2 + 2) B), the two
 * grouped GEMMs, SwiGLU at the streaming rate (16384 x 1536 x (2 x 2 + 2)
 * B at 3350 GB/s x 0.80), the finalize (pairs in, 16384 rows out: (16384 +
 * 16384) x 4096 x 2 B).  FP8 weights add the input's quantization (16384 x
 * 4096 x (2 + 1) B) and the pairs move as 1-byte rows.  Without moe_expand
 * (vLLM's, SGLang's fused_moe) the per-token estimate: permute and
 * unpermute over this GPU's 2048 tokens plus its pairs. */
static double mk(const engine_gpu *g, double bytes)
{
    return fmax(bytes / (g->hbm_bytes_per_s * g->eta_memory), engine_small_kernel_s(g, 0));
}

static void test_moe_expand_serial(void **state)
{
    (void)state;
    ts_fixture f;
    engine_model m = tm_mixtral_8x7b();
    m.experts = 128;
    m.top_k = 8;
    m.moe_ffn = m.ffn = 1536;
    engine_scenario s = ts_on_h100(&f, m, 8);
    engine_framework fw;
    engine_framework_generic(&fw);
    fw.moe_expand = 1;
    s.framework = &fw;
    s.moe_imbalance = 1;
    engine_plan p = {1, 1, 8, 8};
    engine_error err = {{0}};
    double n = 16384, E = 128, K = 8, d = 4096, fe = 1536, busy = n;
    double hit = 16 * (1 - pow(1 - K / E, n)), me = busy / hit;
    double t = engine_moe_layer_s(&s, p, n, &err);
    double gemms = gg(&f.g, me, 2 * fe, d, hit) + gg(&f.g, me, d, fe, hit);
    double hand = sk(&f.g, n * E * 8) + sk(&f.g, 4 * (2 * n * K + busy)) +
                  sk(&f.g, busy * d * 4) + mk(&f.g, busy * fe * 6) +
                  sk(&f.g, (busy + n) * d * 2) + gemms;
    assert_near(t, hand, 1e-9);
    /* FP8 weights: the input quantized once per token, 1-byte pair rows */
    s.weight_dtype = ENGINE_FP8;
    double t8 = engine_moe_layer_s(&s, p, n, &err);
    double g8 = engine_moe_gemm_s(&f.g, NULL, ENGINE_FP8, me, 2 * fe, d, hit, 1, 2) +
                engine_moe_gemm_s(&f.g, NULL, ENGINE_FP8, me, d, fe, hit, 1, 2);
    double hand8 = sk(&f.g, n * E * 8) + sk(&f.g, n * d * 3) + sk(&f.g, 4 * (2 * n * K + busy)) +
                   sk(&f.g, busy * d * 2) + mk(&f.g, busy * fe * 5) +
                   sk(&f.g, (busy + n) * d * 2) + g8;
    assert_near(t8, hand8, 1e-9);
    /* without moe_expand: the per-token estimate over this GPU's 2048 */
    s.weight_dtype = ENGINE_FP16;
    fw.moe_expand = 0;
    double T = 2048;
    double old = sk(&f.g, T * E * 8) + 2 * sk(&f.g, (T + busy) * d * 2) +
                 sk(&f.g, 3 * busy * fe * 2) + gemms;
    assert_near(engine_moe_layer_s(&s, p, n, &err), old, 1e-9);
    assert_true(hand > 1.10 * old); /* the expand and the all-row finalize */
    /* the GPU's eta_moe_rows (0.3 of HBM here) times the row kernels
     * (routing, sort, expand, finalize) instead of eta_small; the
     * activation (streaming rate), the GEMMs and the per-token estimate's
     * kernels keep theirs */
    fw.moe_expand = 1;
    f.g.eta_moe_rows = 0.3;
    double bw3 = f.g.hbm_bytes_per_s * 0.3, fl = engine_small_kernel_s(&f.g, 0);
    double rows3 = fmax(n * E * 8 / bw3, fl) + fmax(4 * (2 * n * K + busy) / bw3, fl) +
                   fmax(busy * d * 4 / bw3, fl) + fmax((busy + n) * d * 2 / bw3, fl);
    assert_near(engine_moe_layer_s(&s, p, n, &err), rows3 + mk(&f.g, busy * fe * 6) + gemms,
                1e-9);
    fw.moe_expand = 0;
    assert_near(engine_moe_layer_s(&s, p, n, &err), old, 1e-9);
}

/* The W4A16 MoE's own costs (gpus.json moe_w4a16_token_ns, the trt-llm
 * profile's moe_w4a16_fixed_us): 60 ns per token on the GPU and 50 us per
 * layer beyond the kernels.  Reference points, aiconfigurator-core 0.12.0
 * perf data, h100_sxm moe.csv, w4a16_mxfp4, 128 experts of 2880 x 2880,
 * top 4, EP128 (one local expert, every token on the GPU): 0.367872 ms at
 * 4096 tokens, 1.16708 ms at 16384; within 15 % each, where the kernels
 * alone give 0.14x and 0.10x.  The token cost counts every pooled token
 * (EP128: 128 GPUs' worth), and only FP4 weights on 16-bit math pay it. */
static void test_w4a16_token_cost(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = goss20b_moe_on_h100(&f, 128);
    f.m.experts = 128;
    engine_framework fw;
    engine_framework_generic(&fw);
    s.framework = &fw;
    engine_error err = {{0}};
    engine_plan p = {1, 1, 128, 128};
    const double n[2] = {4096, 16384}, meas[2] = {0.367872e-3, 1.16708e-3};
    double bare[2];
    for (int i = 0; i < 2; i++) {
        bare[i] = engine_moe_layer_s(&s, p, n[i], &err);
        assert_true(bare[i] < 0.2 * meas[i]);
    }
    f.g.moe_w4a16_token_s = 60e-9;
    fw.moe_w4a16_fixed_s = 50e-6;
    for (int i = 0; i < 2; i++) {
        double t = engine_moe_layer_s(&s, p, n[i], &err);
        assert_near(t, bare[i] + 50e-6 + 60e-9 * n[i], 1e-12);
        assert_true(fabs(t / meas[i] - 1) < 0.15);
    }
    /* 16-bit experts keep their kernels only */
    s.weight_dtype = ENGINE_BF16;
    s.quant_group = 0;
    double b16 = engine_moe_layer_s(&s, p, 4096, &err);
    f.g.moe_w4a16_token_s = 0;
    fw.moe_w4a16_fixed_s = 0;
    assert_near(engine_moe_layer_s(&s, p, 4096, &err), b16, 1e-15);
}

/* The grouped expert GEMMs' own rate (gpus.json eta_moe*): Mixtral-8x7B's
 * MoE layer (8 experts of 14336, top 2, d 4096, bf16) on one H100 at 16384
 * tokens (every expert hit, 4096 tokens each).  eta_moe = eta_compute / 2
 * changes only the two expert GEMMs, to their time at half the 16-bit
 * rate; eta_moe = eta_compute changes nothing.  A per-kernel calibration
 * replaces the dense rate and the grouped one keeps its ratio to it: the
 * expert GEMMs at half the calibration's efficiency. */
static void test_moe_grouped_rate(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_mixtral_8x7b(), 1);
    s.moe_imbalance = 1;
    engine_plan p = {1, 1, 1, 1};
    engine_error err = {{0}};
    double n = 16384, me = n * 2 / 8, d = 4096, fe = 14336;
    double dense = engine_moe_layer_s(&s, p, n, &err);
    engine_gpu half = f.g;
    half.eta_compute = f.g.eta_compute / 2;
    double want = dense - gg(&f.g, me, 2 * fe, d, 8) - gg(&f.g, me, d, fe, 8) +
                  gg(&half, me, 2 * fe, d, 8) + gg(&half, me, d, fe, 8);
    f.g.eta_moe = f.g.eta_compute / 2;
    double grouped = engine_moe_layer_s(&s, p, n, &err);
    assert_near(grouped, want, 1e-12);
    assert_true(grouped > 1.5 * dense); /* compute-bound: nearly twice */
    f.g.eta_moe = f.g.eta_compute;
    assert_near(engine_moe_layer_s(&s, p, n, &err), dense, 1e-15);
    /* FP8 weights take eta_moe_fp8, not the 16-bit key */
    s.weight_dtype = ENGINE_FP8;
    f.g.eta_moe = 0.1;
    double f8 = engine_moe_layer_s(&s, p, n, &err);
    f.g.eta_moe = 0;
    assert_near(engine_moe_layer_s(&s, p, n, &err), f8, 1e-15);
    s.weight_dtype = ENGINE_BF16;
    static engine_calib c, c2;
    memset(&c, 0, sizeof c);
    c.measured = 1;
    c.per_kernel = 1;
    c.schema = 2;
    c.peak_flops = 989e12;
    c.gemm_efficiency = 0.5;
    c2 = c;
    c2.gemm_efficiency = 0.25;
    s.calib = &c;
    double cal = engine_moe_layer_s(&s, p, n, &err);
    f.g.eta_moe = f.g.eta_compute / 2;
    double cal_g = engine_moe_layer_s(&s, p, n, &err);
    f.g.eta_moe = 0;
    double want_c = cal - engine_moe_gemm_s(&f.g, &c, ENGINE_FP16, me, 2 * fe, d, 8, 2, 2) -
                    engine_moe_gemm_s(&f.g, &c, ENGINE_FP16, me, d, fe, 8, 2, 2) +
                    engine_moe_gemm_s(&f.g, &c2, ENGINE_FP16, me, 2 * fe, d, 8, 2, 2) +
                    engine_moe_gemm_s(&f.g, &c2, ENGINE_FP16, me, d, fe, 8, 2, 2);
    assert_near(cal_g, want_c, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ep_below_tp),
        cmocka_unit_test(test_rank_ep_below_tp),
        cmocka_unit_test(test_rank_cut_keeps_the_best),
        cmocka_unit_test(test_redundant_experts),
        cmocka_unit_test(test_imbalance_default),
        cmocka_unit_test(test_imbalance_stretches),
        cmocka_unit_test(test_deepep_table),
        cmocka_unit_test(test_ep_distinct_hand),
        cmocka_unit_test(test_deepep_node_dedup),
        cmocka_unit_test(test_deepep_leg_imbalance),
        cmocka_unit_test(test_deepep_table_bottleneck),
        cmocka_unit_test(test_ep_per_copy_kept),
        cmocka_unit_test(test_tbo_hand),
        cmocka_unit_test(test_fused_ar_norm),
        cmocka_unit_test(test_moe_scenario_errors),
        cmocka_unit_test(test_moe_layer_s),
        cmocka_unit_test(test_moe_layer_routed_s),
        cmocka_unit_test(test_moe_expand_serial),
        cmocka_unit_test(test_w4a16_token_cost),
        cmocka_unit_test(test_moe_grouped_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
