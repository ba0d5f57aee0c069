/*
 * test_engine.c - the engine against hand-worked numbers: the seeds'
 * worked examples (with the seed's slips corrected and explained), the
 * published parameter counts, KV bytes per token, the alpha-beta formulas,
 * the bubble table, and invariants over plans and slider extremes.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../engine/engine.h"
#include "support_models.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
#define MIB (1024.0 * 1024.0)

static void assert_near(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want))) {
        print_error("got %.9g, want %.9g (rel tol %g)\n", got, want, rel);
        fail();
    }
}

static engine_result eval_plan(const engine_scenario *s, int tp, int pp, int dp, int ep)
{
    engine_result r;
    engine_plan p = {tp, pp, dp, ep};
    engine_error err;
    assert_int_equal(engine_evaluate(s, p, &r, &err), 0);
    return r;
}

/* --- parameter counts ------------------------------------------------ */

/* Exact counts from the configs: attention 2*d*h*dh + 2*d*g*dh, SwiGLU
 * 3*d*f, two norms per layer, untied embeddings, final norm. */
static void test_params_exact(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    /* 32 * (41943040 + 8192 + 176160768) + 2 * 128256 * 4096 + 4096 */
    assert_true(engine_model_params(&m) == 8030261248.0);
    m = tm_llama3_70b();
    assert_true(engine_model_params(&m) == 70553706496.0);
    m = tm_llama31_405b();
    assert_true(engine_model_params(&m) == 405853388800.0);
    m = tm_llama_7b();
    assert_true(engine_model_params(&m) == 6738415616.0);
}

/* Published counts (model cards) within 1.5 %. */
static void test_params_published(void **state)
{
    (void)state;
    struct {
        engine_model m;
        double total, active;
    } cases[] = {
        {tm_gpt2(), 124e6, 0},           {tm_llama_7b(), 6.7e9, 0},
        {tm_llama_13b(), 13.0e9, 0},     {tm_llama2_70b(), 69.0e9, 0},
        {tm_llama3_8b(), 8.03e9, 0},     {tm_llama3_70b(), 70.6e9, 0},
        {tm_llama31_405b(), 405e9, 0},   {tm_falcon_180b(), 180e9, 0},
        {tm_gpt3(), 175e9, 0},           {tm_mixtral_8x7b(), 46.7e9, 12.9e9},
        {tm_deepseek_v3(), 671e9, 37e9},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_near(engine_model_params(&cases[i].m), cases[i].total, 0.015);
        if (cases[i].active > 0)
            assert_near(engine_model_active_params(&cases[i].m), cases[i].active, 0.015);
    }
}

static void test_kv_bytes_per_token(void **state)
{
    (void)state;
    engine_model m = tm_llama3_70b(); /* GQA: 2 * 80 * 8 * 128 * 2 B */
    assert_true(engine_kv_bytes_per_token(&m, ENGINE_FP16) == 327680.0);
    assert_true(engine_kv_bytes_per_token(&m, ENGINE_FP8) == 163840.0);
    m = tm_llama3_8b();
    assert_true(engine_kv_bytes_per_token(&m, ENGINE_FP16) == 131072.0);
    m = tm_llama_7b(); /* MHA: 2 * 32 * 32 * 128 * 2 B = 512 KiB */
    assert_true(engine_kv_bytes_per_token(&m, ENGINE_FP16) == 524288.0);
    m = tm_gpt3();
    assert_true(engine_kv_bytes_per_token(&m, ENGINE_FP16) == 4718592.0);
    m = tm_deepseek_v3(); /* MLA latent: 61 * (512 + 64) * 2 B = 68.6 KiB */
    assert_true(engine_kv_bytes_per_token(&m, ENGINE_FP16) == 70272.0);
}

/* KV shards over tp up to g = 8 ways, then replicates. */
static void test_kv_sharding(void **state)
{
    (void)state;
    engine_model m = tm_llama3_70b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0, 300);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 4);
    s.prompt = 1000;
    s.gen = 24;
    /* tp=4: 2 heads * 128 * 2 (K,V) * 2 B = 1024 B per token-layer; 80
     * layers, 1024 tokens. */
    engine_result r = eval_plan(&s, 4, 1, 1, 1);
    assert_true(r.mem.kv_bytes == 1024.0 * 80 * 1024);
    s.gpus = 16;
    r = eval_plan(&s, 16, 1, 1, 1); /* replicated: still one head per GPU */
    assert_true(r.mem.kv_bytes == 512.0 * 80 * 1024);
    s.gpus = 8;
    r = eval_plan(&s, 8, 1, 1, 1);
    assert_true(r.mem.kv_bytes == 512.0 * 80 * 1024);
    /* pp splits layers: 80 / 2 = 40 per stage */
    r = eval_plan(&s, 4, 2, 1, 1);
    assert_true(r.mem.kv_bytes == 1024.0 * 40 * 1024);
}

/* --- seed 002: memory per GPU in GiB ----------------------------------- */

/* Seed 002 divides nominal counts (7e9, 70e9, 405e9) x 2 B by 1024^3:
 * 13.0 / 130.4 / 754.4 GiB at TP=1, divided by TP.  It labels these "GB";
 * they are GiB (DESIGN.md: the seed mixes GiB and GB). */
static void test_seed002_fp16_gib(void **state)
{
    (void)state;
    const double nominal[] = {7e9, 70e9, 405e9};
    const double gib[] = {13.0, 130.4, 754.4};
    for (int i = 0; i < 3; i++)
        for (int tp = 1; tp <= 16; tp *= 2)
            assert_near(nominal[i] * engine_dtype_bytes(ENGINE_FP16) / GIB / tp, gib[i] / tp,
                        0.005);
    /* The engine with the real Llama-3.1-405B config, TP=8, 1 stage: total/8. */
    engine_model m = tm_llama31_405b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0, 300);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 8);
    engine_result r = eval_plan(&s, 8, 1, 1, 1);
    /* (the final norm's 16384 weights are replicated, not sharded) */
    assert_near(r.mem.weights_bytes, (405853388800.0 - 16384) * 2 / 8 + 16384 * 2, 1e-12);
}

/* --- seed 004: weights, decode floor, fits ------------------------------ */

static void test_seed004_examples(void **state)
{
    (void)state;
    engine_gpu g = tg_h100();
    /* A: Llama-3-8B FP16 = 16.1 GB; floor 16.06 GB / 3350 GB/s = 4.8 ms */
    engine_model m8 = tm_llama3_8b();
    assert_near(engine_weight_bytes(&m8, ENGINE_FP16), 16.06e9, 0.001);
    assert_near(engine_decode_floor_s(&m8, ENGINE_FP16, &g, 1), 4.794e-3, 0.001);
    /* B: Llama-3-70B FP16 = 141 GB; floor at TP=4 = 141/4/3350 = 10.5 ms */
    engine_model m70 = tm_llama3_70b();
    assert_near(engine_weight_bytes(&m70, ENGINE_FP16), 141.1e9, 0.001);
    assert_near(engine_decode_floor_s(&m70, ENGINE_FP16, &g, 4), 10.53e-3, 0.001);
    /* C: Llama-3.1-405B.  The seed's 810 GB / 101 GB / 50.6 GB use the
     * nominal 405e9 parameters; the config has 405.85e9, so the right
     * numbers are 811.7 GB, 101.46 GB per GPU at TP=8, 50.73 GB at FP8. */
    engine_model m405 = tm_llama31_405b();
    assert_near(engine_weight_bytes(&m405, ENGINE_FP16), 811.7e9, 0.0005);
    engine_link nv = tl_link(1e-6, 300);
    engine_scenario s;
    ts_scenario(&s, &m405, &g, &nv, 8);
    engine_result r = eval_plan(&s, 8, 1, 1, 1);
    assert_near(r.mem.weights_bytes, 101.46e9, 0.001);
    assert_false(r.fits); /* 101 GB > 80 GB x 0.9 usable */
    assert_true(r.valid);
    assert_string_equal(r.reason, "needs 103.6 GB per GPU, capacity 72.0 GB");
    s.weight_dtype = ENGINE_FP8;
    r = eval_plan(&s, 8, 1, 1, 1);
    assert_near(r.mem.weights_bytes, 50.73e9, 0.001);
    assert_true(r.fits);
    /* ... or TP=8 x PP=2 at FP16 across two nodes: 50.7 GB + embeddings */
    s.weight_dtype = ENGINE_FP16;
    s.gpus = 16;
    r = eval_plan(&s, 8, 2, 1, 1);
    assert_true(r.fits);
    assert_near(r.mem.weights_bytes,
                (63.0 / 126 * (405853388800.0 - 2 * 128256.0 * 16384 - 16384) / 8 +
                 128256.0 * 16384 / 8 + 16384) * 2,
                1e-9);
}

/* Seed 000's minimum GPU count (TP up to 8, fp16): LLaMA-7B needs 4 x 8 GB,
 * LLaMA-13B 8 x 8 GB / 2 x 24 GB, LLaMA-70B 8 x 24 GB, 8 x 40 GB, 2 x 80 GB
 * and OOM on 8 GB cards; Falcon-180B 16 x 40 GB and 8 x 80 GB. */
static int min_gpus(engine_model m, double gb, int max)
{
    engine_gpu g = tg_with_memory(gb);
    engine_link l = tl_link(1e-6, 300);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 1);
    return engine_min_gpus(&s, max);
}

static void test_seed000_min_gpus(void **state)
{
    (void)state;
    assert_int_equal(min_gpus(tm_gpt2(), 8, 1024), 1);
    assert_int_equal(min_gpus(tm_llama_7b(), 8, 1024), 4);
    assert_int_equal(min_gpus(tm_llama_7b(), 24, 1024), 1);
    assert_int_equal(min_gpus(tm_llama_13b(), 8, 1024), 8);
    assert_int_equal(min_gpus(tm_llama_13b(), 24, 1024), 2);
    assert_int_equal(min_gpus(tm_llama_13b(), 40, 1024), 1);
    assert_int_equal(min_gpus(tm_llama2_70b(), 24, 1024), 8);
    assert_int_equal(min_gpus(tm_llama2_70b(), 40, 1024), 8);
    assert_int_equal(min_gpus(tm_llama2_70b(), 80, 1024), 2);
    /* The seed stops at 8 GPUs ("OOM"); with pipeline stages 32 x 8 GB fit. */
    assert_int_equal(min_gpus(tm_llama2_70b(), 8, 8), 0);
    assert_int_equal(min_gpus(tm_llama2_70b(), 8, 1024), 32);
    assert_int_equal(min_gpus(tm_falcon_180b(), 40, 1024), 16);
    assert_int_equal(min_gpus(tm_falcon_180b(), 80, 1024), 8);
}

/* --- communication ------------------------------------------------------ */

static void test_ring_allreduce(void **state)
{
    (void)state;
    /* Seed 002: 16 MiB over 8 GPUs at 600 GB/s, zero latency:
     * 2 * 7/8 * 16 MiB / 600 GB/s = 0.0489 ms.  (The seed prints 0.047 ms:
     * it divides 0.016 "GB" -- really GiB -- by 600 GB/s.) */
    engine_link l = tl_link(0, 600);
    double t = engine_comm_time(ENGINE_OP_ALLREDUCE, &l, NULL, 8, 0, 16 * MIB);
    assert_near(t, 4.8932e-5, 1e-4);
    /* with 5 us per step: + 2 (n-1) alpha = 70 us */
    l.alpha_s = 5e-6;
    assert_near(engine_comm_time(ENGINE_OP_ALLREDUCE, &l, NULL, 8, 0, 16 * MIB),
                4.8932e-5 + 70e-6, 1e-4);
    /* a fixed cost per collective (launch, synchronisation): 19 us */
    l.base_s = 19e-6;
    assert_near(engine_comm_time(ENGINE_OP_ALLREDUCE, &l, NULL, 8, 0, 16 * MIB),
                19e-6 + 4.8932e-5 + 70e-6, 1e-4);
    /* nccl-tests' 26 us for an 8-GPU small-message all-reduce on H100 is the
     * nvlink4 preset's 19 us base + 14 steps x 0.5 us */
    engine_link nv4 = tl_link(0.5e-6, 367);
    nv4.base_s = 19e-6;
    assert_near(engine_comm_time(ENGINE_OP_ALLREDUCE, &nv4, NULL, 8, 0, 8), 26e-6, 0.001);
    l.base_s = 0;
    /* one GPU: nothing to reduce */
    assert_true(engine_comm_time(ENGINE_OP_ALLREDUCE, &l, NULL, 1, 0, 16 * MIB) == 0.0);
    /* compute and memory time add */
    assert_true(engine_roofline_s(2e-3, 3e-3) == 5e-3);
    /* allgather / reduce-scatter / all-to-all move (n-1)/n of the buffer */
    l.alpha_s = 0;
    assert_near(engine_comm_time(ENGINE_OP_ALLGATHER, &l, NULL, 4, 0, 1e9), 0.75 / 600, 1e-12);
    assert_near(engine_comm_time(ENGINE_OP_ALLTOALL, &l, NULL, 4, 0, 1e9), 0.75 / 600, 1e-12);
    /* p2p: alpha + M / BW */
    l.alpha_s = 2e-6;
    assert_near(engine_comm_time(ENGINE_OP_P2P, &l, NULL, 2, 0, 6e9), 2e-6 + 0.01, 1e-12);
}

static void test_hierarchical_allreduce(void **state)
{
    (void)state;
    /* 16 GPUs, 8 per node: reduce-scatter in node (7/8 M / 600 GB/s), ring
     * all-reduce of M/8 across 2 nodes (2 * 1/2 * M/8 / 50 GB/s), all-gather
     * in node (7/8 M / 600 GB/s). */
    engine_link nv = tl_link(0, 600), ib = tl_link(0, 50);
    double M = 16 * MIB;
    double want = 2 * (7.0 / 8 * M / 600e9) + (M / 8) / 50e9;
    assert_near(engine_comm_time(ENGINE_OP_ALLREDUCE, &nv, &ib, 16, 8, M), want, 1e-12);
    assert_near(want, 9.0876e-5, 1e-4);
    /* all-to-all across 2 nodes: 7/16 of the buffer stays in the node, 8/16
     * crosses the inter-node link; allgather: M/8 per rail across, then M
     * in the node */
    assert_near(engine_comm_time(ENGINE_OP_ALLTOALL, &nv, &ib, 16, 8, M),
                7.0 / 16 * M / 600e9 + 8.0 / 16 * M / 50e9, 1e-12);
    assert_near(engine_comm_time(ENGINE_OP_ALLGATHER, &nv, &ib, 16, 8, M),
                0.5 * (M / 8) / 50e9 + 7.0 / 8 * M / 600e9, 1e-12);
    /* inside one node the flat ring is used */
    assert_near(engine_comm_time(ENGINE_OP_ALLREDUCE, &nv, &ib, 8, 8, M), 4.8932e-5, 1e-4);
    /* p2p across nodes uses the inter-node link */
    ib.alpha_s = 1e-6;
    assert_near(engine_comm_time(ENGINE_OP_P2P, &nv, &ib, 2, 1, 50e6), 1e-6 + 1e-3, 1e-12);
}

static void test_busbw_factor(void **state)
{
    (void)state;
    assert_near(engine_busbw_factor(ENGINE_OP_ALLREDUCE, 8), 1.75, 1e-12);
    assert_near(engine_busbw_factor(ENGINE_OP_ALLGATHER, 8), 0.875, 1e-12);
    assert_near(engine_busbw_factor(ENGINE_OP_REDUCESCATTER, 4), 0.75, 1e-12);
    assert_near(engine_busbw_factor(ENGINE_OP_ALLTOALL, 2), 0.5, 1e-12);
    assert_near(engine_busbw_factor(ENGINE_OP_P2P, 2), 1.0, 1e-12);
}

/* --- pipeline ---------------------------------------------------------- */

static void test_bubble_table(void **state)
{
    (void)state;
    /* Seed 002's table: (pp-1)/(m+pp-1). */
    assert_near(engine_bubble_fraction(8, 4, ENGINE_SCHED_GPIPE, 1), 0.636, 0.001);
    assert_near(engine_bubble_fraction(2, 1, ENGINE_SCHED_GPIPE, 1), 0.500, 1e-9);
    assert_near(engine_bubble_fraction(4, 4, ENGINE_SCHED_1F1B, 1), 0.429, 0.001);
    assert_near(engine_bubble_fraction(8, 16, ENGINE_SCHED_GPIPE, 1), 0.3043, 0.001);
    assert_near(engine_bubble_fraction(16, 64, ENGINE_SCHED_GPIPE, 1), 0.190, 0.001);
    assert_near(engine_bubble_fraction(32, 16, ENGINE_SCHED_GPIPE, 1), 0.660, 0.001);
    /* interleaving 2 chunks halves the bubble term: 3.5 / 7.5 */
    assert_near(engine_bubble_fraction(8, 4, ENGINE_SCHED_INTERLEAVED, 2), 0.4667, 0.001);
    assert_true(engine_bubble_fraction(1, 4, ENGINE_SCHED_GPIPE, 1) == 0.0);
}

/* --- timing ------------------------------------------------------------ */

/* One H100, Llama-3-8B, batch 1, prompt 1024, gen 256: the decode step at
 * mid-generation (ctx = 1024 + 128) reads every weight except the input
 * embedding table (only one row is looked up) and 1152 tokens of KV, and
 * writes one: FLOPs / (989 TFLOPS x 0.803) + bytes / (3350 GB/s x 0.866) +
 * 32 layers x 10 us (compute and memory time add: engine_roofline_s).
 * (Seed 004's 4.8 ms floor counts the embedding table too; see
 * test_seed004_examples.) */
static void test_decode_step_hand(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0, 300);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 1);
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    double bytes = (8030261248.0 - 525336576.0) * 2 + (1152.0 + 1) * 131072;
    /* 2 x (all weights but the input embedding) + attention over 1152 tokens:
     * 2 x 1152 x 32 layers x 32 heads x (128 + 128) */
    double dflops = 2 * (8030261248.0 - 525336576.0) + 2.0 * 1152 * 32 * 32 * 256;
    double itl = dflops / (989e12 * 794.5 / 989) + bytes / (3350e9 * 2.90 / 3.35) + 32 * 10e-6;
    assert_near(r.itl_s, itl, 1e-9);
    assert_near(r.itl_s, 5.567e-3, 0.001);
    /* Prefill is compute-bound: 2 x params x 1024 tokens (the head only for
     * the last token) + attention 4 h dh ctx with ctx = (S+1)/2 per token. */
    double body = 8030261248.0 - 2 * 525336576.0; /* without embeddings/head */
    double flops = 2 * 1024 * body + 2 * 525336576.0 + 2.0 * 1024 * 512.5 * 32 * 32 * 256;
    /* it also streams the weights once and writes 1024 tokens of KV */
    double pbytes = (8030261248.0 - 525336576.0) * 2 + 1024.0 * 131072;
    double ttft = flops / (989e12 * 794.5 / 989) + pbytes / (3350e9 * 2.90 / 3.35) + 32 * 10e-6;
    assert_near(r.ttft_s, ttft, 1e-9);
    assert_near(r.e2e_s, r.ttft_s + 256 * r.itl_s, 1e-12);
    assert_near(r.tokens_per_s, 256 / r.e2e_s, 1e-12);
    /* $3.99 per GPU-hour: cost per 1M tokens = 3.99 / (tok/s x 3600) x 1e6 */
    assert_near(r.cost_per_mtok_usd, 3.99 / (r.tokens_per_s * 3600) * 1e6, 1e-12);
    /* one GPU has no communication: efficiency 1, no regime */
    assert_near(r.efficiency, 1.0, 1e-12);
    assert_int_equal(r.regime, '-');
}

/* FP8 weights: half the bytes, FP8 peak (1979 TFLOPS) at its own achievable
 * fraction (MAMF 1402.6 / 1979 = 0.709 on H100, against 0.803 for BF16). */
static void test_fp8_prefill_hand(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    engine_gpu g = tg_h100();
    g.eta_compute_fp8 = 1402.6 / 1979;
    engine_link l = tl_link(0, 300);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 1);
    s.weight_dtype = ENGINE_FP8;
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    double body = 8030261248.0 - 2 * 525336576.0;
    double flops = 2 * 1024 * body + 2 * 525336576.0 + 2.0 * 1024 * 512.5 * 32 * 32 * 256;
    double bytes = (8030261248.0 - 525336576.0) * 1 + 1024.0 * 131072;
    double ttft = flops / 1402.6e12 + bytes / 2.90e12 + 32 * 10e-6;
    assert_near(r.ttft_s, ttft, 1e-9);
    /* without an FP8 fraction the BF16 one applies to the FP8 peak */
    g.eta_compute_fp8 = 0;
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_near(r.ttft_s, flops / (1979e12 * 794.5 / 989) + bytes / 2.90e12 + 32 * 10e-6, 1e-9);
}

/* TP=2 on a 0-latency 300 GB/s link: each decode step adds 2 x 32
 * all-reduces of 4096 x 2 B: 64 x (1/2 x 2 x 8192 B / 300 GB/s). */
static void test_tp_comm_hand(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0, 300);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 2);
    engine_result r = eval_plan(&s, 2, 1, 1, 1);
    assert_near(r.decode_comm_s, 64 * (8192.0 / 300e9), 1e-9);
    assert_near(r.prefill_comm_s, 64 * (1024 * 8192.0 / 300e9), 1e-9);
    assert_true(r.efficiency > 0.5 && r.efficiency < 1.0);
    assert_near(r.compute_comm_ratio, r.compute_s / r.comm_s, 1e-12);
    assert_int_equal(r.regime, r.compute_comm_ratio >= 1 ? 'C' : 'M');
    /* dp replicas: throughput x dp, latency unchanged, efficiency 1 */
    engine_result d = eval_plan(&s, 1, 1, 2, 1);
    engine_result one;
    s.gpus = 1;
    one = eval_plan(&s, 1, 1, 1, 1);
    assert_near(d.e2e_s, one.e2e_s, 1e-12);
    assert_near(d.tokens_per_s, 2 * one.tokens_per_s, 1e-12);
    assert_near(d.efficiency, 1.0, 1e-12);
    /* TP=2: speedup = tokens/s against one ideal GPU = e2e(1) / e2e(TP2),
     * efficiency = speedup / 2 */
    assert_near(r.speedup, one.e2e_s / r.e2e_s, 1e-12);
    assert_near(r.efficiency, one.e2e_s / r.e2e_s / 2, 1e-12);
}

/* The prefill workspace of one micro-batch: residual + norm output (2 d),
 * QKV ((h + 2 g) dh) and the gated MLP's two intermediates (2 f), at 2 B,
 * plus FP32 logits of the last token: Llama-3-8B, 1024 tokens. */
static void test_activation_workspace_hand(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0, 300);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 1);
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    double per_token = 2 * 4096 + (32 + 2 * 8) * 128 + 2 * 14336; /* 43008 */
    assert_true(r.mem.activation_bytes == 1024 * per_token * 2 + 128256.0 * 4);
    assert_true(r.mem.activation_bytes == 88593408.0);
    assert_true(r.mem.overhead_bytes == 2e9);
    assert_true(r.mem.capacity_bytes == 80e9 * 0.9);
    assert_true(r.mem.per_gpu_bytes == r.mem.weights_bytes + r.mem.kv_bytes +
                                           r.mem.activation_bytes + r.mem.overhead_bytes);
}

/* A pipeline boundary is one p2p of the stage's activations: alpha + T d
 * b_a / BW.  Prefill with the default m = pp = 2 micro-batches of 512
 * tokens sends two; a decode step of one token sends one. */
static void test_pp_p2p_hand(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(1e-6, 100);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 2);
    engine_result r = eval_plan(&s, 1, 2, 1, 1);
    assert_near(r.prefill_comm_s, 2 * (1e-6 + 512 * 4096 * 2 / 100e9), 1e-12);
    assert_near(r.decode_comm_s, 1e-6 + 4096 * 2 / 100e9, 1e-12);
    /* batch 1 keeps one micro-batch in flight: the other stage idles */
    assert_near(r.decode_bubble_s, r.decode_compute_s + r.decode_comm_s, 1e-12);
}

/* MoE decode reads only the experts the batch routes to: E (1 - (1 -
 * k/E)^T) of them.  Mixtral-8x7B at batch 1 touches 2 of 8 experts. */
static void test_moe_decode_hand(void **state)
{
    (void)state;
    engine_model m = tm_mixtral_8x7b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0, 300);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 1);
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    double attn = 32 * (2 * 4096.0 * 4096 + 2 * 4096.0 * 1024 + 8192); /* + norms */
    double dense = attn + 32 * 4096.0 * 8 + 4096;                      /* + routers, final norm */
    double one = 3 * 4096.0 * 14336;
    double head = 32000.0 * 4096;
    double flops = 2 * (dense + 32 * 2 * one) + 2 * head + 2.0 * 1152 * 32 * 32 * 256;
    double bytes = (dense + 0.25 * 32 * 8 * one + head) * 2 + 1153.0 * 131072;
    double itl = flops / 794.5e12 + bytes / 2.90e12 + 32 * 10e-6;
    assert_near(r.itl_s, itl, 1e-9);
    assert_near(r.itl_s, 9.197e-3, 0.001);
    /* batch 2: 8 (1 - 0.75^2) = 3.5 experts */
    s.batch = 2;
    r = eval_plan(&s, 1, 1, 1, 1);
    flops = 2 * 2 * (dense + 32 * 2 * one) + 2 * 2 * head + 2 * 2.0 * 1152 * 32 * 32 * 256;
    bytes = (dense + 3.5 / 8 * 32 * 8 * one + head) * 2 + (2 * 1152.0 + 2) * 131072;
    assert_near(r.itl_s, flops / 794.5e12 + bytes / 2.90e12 + 32 * 10e-6, 1e-9);
}

/* PP: prefill with m micro-batches takes (m + pp - 1) stage steps; the
 * reported bubble matches the formula; decode does not get faster. */
static void test_pipeline_times(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0, 300);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 4);
    s.batch = 8;
    s.microbatches = 4;
    engine_result r = eval_plan(&s, 1, 4, 1, 1);
    assert_near(r.bubble_fraction, 3.0 / 7.0, 1e-12);
    double step = (r.prefill_compute_s + r.prefill_comm_s) / 4;
    assert_near(r.ttft_s, 7 * step, 1e-9);
    assert_near(r.prefill_bubble_s / r.ttft_s, 3.0 / 7.0, 1e-9);
    s.gpus = 1;
    engine_result one = eval_plan(&s, 1, 1, 1, 1);
    assert_true(r.itl_s >= one.itl_s * 0.999);
    /* interleaved v = 2: bubble term halves */
    s.gpus = 4;
    s.schedule = ENGINE_SCHED_INTERLEAVED;
    r = eval_plan(&s, 1, 4, 1, 1);
    assert_near(r.bubble_fraction, 1.5 / 5.5, 1e-12);
    /* its bubble: (pp-1)/v stage steps plus (v-1) pp extra hops, each a p2p of
     * one micro-batch (2 sequences x 1024 tokens x 4096 x 2 B at 300 GB/s) */
    double istep = (r.prefill_compute_s + r.prefill_comm_s) / 4;
    assert_near(r.prefill_bubble_s, 1.5 * istep + 1 * 4 * (2 * 1024 * 4096 * 2 / 300e9), 1e-9);
}

static void test_invalid_plans(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0, 300);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 3);
    engine_result r = eval_plan(&s, 3, 1, 1, 1);
    assert_false(r.valid);
    assert_string_equal(r.reason, "tp=3 does not divide 32 attention heads");
    s.gpus = 64;
    r = eval_plan(&s, 1, 64, 1, 1);
    assert_string_equal(r.reason, "pp=64 exceeds 32 layers");
    s.gpus = 2;
    r = eval_plan(&s, 1, 1, 2, 2);
    assert_string_equal(r.reason, "ep=2 needs a mixture-of-experts model");
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_string_equal(r.reason, "tp*pp*dp = 1, not the 2 GPUs");
    /* Falcon-180B: 232 heads, 8 KV heads -- tp=16 divides neither 8 nor... */
    engine_model f = tm_falcon_180b();
    s.model = &f;
    s.gpus = 16;
    r = eval_plan(&s, 16, 1, 1, 1);
    assert_string_equal(r.reason, "tp=16 does not divide 232 attention heads");
    /* A bad scenario is an error, not a result */
    engine_error err;
    engine_plan p = {1, 1, 1, 1};
    s.gen = 0;
    assert_int_equal(engine_evaluate(&s, p, &r, &err), -1);
    assert_string_equal(err.msg, "scenario: gen: must be 1..100000000 tokens");
}

/* MoE: expert parallel adds two all-to-alls per MoE layer and spreads the
 * experts' memory over ep GPUs. */
static void test_moe_ep(void **state)
{
    (void)state;
    engine_model m = tm_mixtral_8x7b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0, 300);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 8);
    engine_result tp8 = eval_plan(&s, 8, 1, 1, 1);
    engine_result ep8 = eval_plan(&s, 1, 1, 8, 8);
    assert_true(tp8.valid && ep8.valid);
    /* experts: 32 layers x 8 x 3 x 4096 x 14336 params; ep=8 holds one each */
    double experts = 32.0 * 8 * 3 * 4096 * 14336;
    double others = engine_model_params(&m) - experts;
    assert_near(ep8.mem.weights_bytes, (others + experts / 8) * 2, 1e-6);
    /* decode all-to-all: 2 x 32 layers x (7/8 x 1 token x 2 x 4096 x 2 B / 300 GB/s) */
    assert_near(ep8.decode_comm_s, 64 * (7.0 / 8 * 2 * 4096 * 2 / 300e9), 1e-9);
    /* EP over 8 replicas pools their tokens through shared experts, so its
     * ideal GPU gets the pooled batch: efficiency = e2e_1(8 B) / (8 e2e) */
    engine_scenario pooled = s;
    pooled.gpus = 1;
    pooled.batch = 8;
    engine_result ideal = eval_plan(&pooled, 1, 1, 1, 1);
    assert_near(ep8.efficiency, ideal.e2e_s / (8 * ep8.e2e_s), 1e-12);
    assert_true(ep8.efficiency > 0 && ep8.efficiency <= 1);
    engine_result bad = eval_plan(&s, 1, 1, 8, 3);
    assert_false(bad.valid);
    /* MoE decode at batch 1 reads only the 2 experts it routes to */
    s.gpus = 1;
    engine_result one = eval_plan(&s, 1, 1, 1, 1);
    double active = engine_model_active_params(&m);
    assert_true(one.itl_s < active * 2.2 / (3350e9 * 2.90 / 3.35) + 32 * 10e-6);
}

/* --- ranking and tails ------------------------------------------------- */

static void test_rank_order(void **state)
{
    (void)state;
    engine_model m = tm_llama3_70b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(3e-6, 367);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 8);
    engine_result r[128];
    int n = engine_rank(&s, r, 128, 3, NULL);
    assert_int_equal(n, engine_plan_count(&s));
    assert_int_equal(n, 10); /* (tp, pp, dp) with tp*pp*dp = 8 */
    int seen_unfit = 0;
    for (int i = 0; i < n; i++) {
        if (!r[i].valid || !r[i].fits)
            seen_unfit = 1;
        else
            assert_false(seen_unfit); /* usable plans come first */
        if (i > 0 && r[i].valid && r[i].fits && r[i - 1].fits)
            assert_true(r[i - 1].e2e_s <= r[i].e2e_s);
    }
    /* 141 GB of weights: TP=1 and TP=2 (72.7 GB/GPU) do not fit 80 GB x 0.9 */
    assert_true(r[0].fits);
    assert_true(r[0].plan.tp * r[0].plan.pp >= 4);
    /* throughput objective: replicas of the smallest fitting unit */
    s.objective = ENGINE_OBJ_THROUGHPUT;
    n = engine_rank(&s, r, 128, 0, NULL);
    for (int i = 1; i < n; i++)
        if (r[i].valid && r[i].fits)
            assert_true(r[i - 1].tokens_per_s >= r[i].tokens_per_s);
}

static void test_tails_deterministic(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(5e-6, 12);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 8);
    engine_result a = eval_plan(&s, 8, 1, 1, 1), b = a;
    engine_tails(&s, &a);
    engine_tails(&s, &b);
    assert_true(a.p50_s == b.p50_s && a.p99_s == b.p99_s);
    assert_true(a.p99_s >= a.p50_s);
    assert_true(a.p50_s >= a.e2e_s * 0.99);
    /* no jitter, no stragglers: the tails collapse onto the mean */
    s.jitter_sigma = 0;
    s.straggler_prob = 0;
    engine_tails(&s, &b);
    assert_true(b.p50_s == b.e2e_s && b.p99_s == b.e2e_s);
    /* Stragglers alone (no jitter): 8 GPUs meet one in p_any = 1 - 0.998^8 =
     * 1.59 % of requests, so P50 is the mean and P99 the straggler severity
     * at its 1 - 0.01 / 0.0159 = 37 % quantile: 1 + Exp(mean 0.5) gives
     * 0.5 ln(1 / 0.629) = 0.23 of the compute-proportional time (a constant
     * 1.5x severity would give 0.5: a cliff at the 1 % crossing). */
    s.straggler_prob = 0.002;
    s.straggler_slowdown = 1.5;
    s.mc_samples = 4096; /* the most engine_tails takes: ~65 straggler draws */
    engine_tails(&s, &b);
    double work = b.prefill_compute_s + b.prefill_bubble_s +
                  s.gen * (b.decode_compute_s + b.decode_bubble_s);
    assert_near(b.p50_s, b.e2e_s, 1e-12);
    double sev = (b.p99_s - b.e2e_s) / work;
    assert_true(sev > 0.12 && sev < 0.38); /* seeds 1..12 give 0.15-0.35 */
    /* another seed, other samples */
    s.jitter_sigma = 0.12;
    s.straggler_prob = 0.002;
    s.seed = 7;
    b = eval_plan(&s, 8, 1, 1, 1);
    engine_tails(&s, &b);
    assert_true(b.p50_s != a.p50_s);
}

/* --- invariants -------------------------------------------------------- */

static int all_finite(const engine_result *r)
{
    const double v[] = {r->ttft_s, r->itl_s, r->e2e_s, r->tokens_per_s, r->efficiency,
                        r->compute_comm_ratio, r->cost_per_mtok_usd, r->p50_s, r->p99_s,
                        r->mem.per_gpu_bytes, r->bubble_fraction, r->speedup};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i]) || v[i] < 0)
            return 0;
    return 1;
}

/* More bandwidth never slows a plan; efficiency stays in (0, 1]. */
static void test_more_bandwidth_never_slower(void **state)
{
    (void)state;
    engine_model models[] = {tm_llama3_8b(), tm_llama3_70b(), tm_mixtral_8x7b(),
                             tm_deepseek_v3(), tm_gpt2()};
    engine_gpu g = tg_h100();
    for (size_t k = 0; k < sizeof models / sizeof models[0]; k++) {
        for (int n = 1; n <= 64; n *= 4) {
            engine_link slow = tl_link(5e-6, 12), fast = tl_link(5e-6, 24);
            engine_link ib = tl_link(5e-6, 25), ib2 = tl_link(5e-6, 50);
            engine_scenario a, b;
            ts_scenario(&a, &models[k], &g, &slow, n);
            ts_scenario(&b, &models[k], &g, &fast, n);
            a.inter = &ib;
            b.inter = &ib2;
            a.gpus_per_node = b.gpus_per_node = 8;
            a.batch = b.batch = 16;
            engine_result ra[512], rb[512];
            int na = engine_rank(&a, ra, 512, 0, NULL);
            int nb = engine_rank(&b, rb, 512, 0, NULL);
            assert_int_equal(na, nb);
            for (int i = 0; i < na; i++) {
                if (!ra[i].valid)
                    continue;
                engine_result x = eval_plan(&a, ra[i].plan.tp, ra[i].plan.pp, ra[i].plan.dp,
                                            ra[i].plan.ep);
                engine_result y = eval_plan(&b, ra[i].plan.tp, ra[i].plan.pp, ra[i].plan.dp,
                                            ra[i].plan.ep);
                assert_true(y.e2e_s <= x.e2e_s * (1 + 1e-12));
                assert_true(x.efficiency > 0 && x.efficiency <= 1 + 1e-12);
                assert_true(y.efficiency > 0 && y.efficiency <= 1 + 1e-12);
            }
        }
    }
}

/* The slider extremes never give NaN, infinity, a negative time or a crash. */
static void test_slider_extremes(void **state)
{
    (void)state;
    engine_model models[] = {tm_gpt2(), tm_llama31_405b(), tm_deepseek_v3(),
                             tm_mixtral_8x7b(), tm_falcon_180b()};
    const int gpus[] = {1, 3, 1024};
    const int batch[] = {1, 4096};
    const int seq[] = {1, 1000000};
    const double vram[] = {1e9, 1024e9};
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0.269e-3, 1.77), ib = tl_link(1e-6, 50);
    static engine_result r[4096];
    for (size_t k = 0; k < sizeof models / sizeof models[0]; k++)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 2; b++)
                for (int c = 0; c < 2; c++)
                    for (int v = 0; v < 2; v++) {
                        engine_scenario s;
                        ts_scenario(&s, &models[k], &g, &l, gpus[a]);
                        s.inter = &ib;
                        s.gpus_per_node = 8;
                        s.batch = batch[b];
                        s.prompt = seq[c];
                        s.gen = seq[1 - c];
                        s.vram_bytes = vram[v];
                        s.weight_dtype = (engine_dtype)((a + b + c) % ENGINE_DTYPE_COUNT);
                        s.schedule = (engine_schedule)(v + c);
                        int n = engine_rank(&s, r, 4096, 3, NULL);
                        assert_true(n > 0);
                        for (int i = 0; i < n; i++)
                            if (r[i].valid)
                                assert_true(all_finite(&r[i]));
                    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params_exact),
        cmocka_unit_test(test_params_published),
        cmocka_unit_test(test_kv_bytes_per_token),
        cmocka_unit_test(test_kv_sharding),
        cmocka_unit_test(test_seed002_fp16_gib),
        cmocka_unit_test(test_seed004_examples),
        cmocka_unit_test(test_seed000_min_gpus),
        cmocka_unit_test(test_ring_allreduce),
        cmocka_unit_test(test_hierarchical_allreduce),
        cmocka_unit_test(test_busbw_factor),
        cmocka_unit_test(test_bubble_table),
        cmocka_unit_test(test_decode_step_hand),
        cmocka_unit_test(test_fp8_prefill_hand),
        cmocka_unit_test(test_tp_comm_hand),
        cmocka_unit_test(test_activation_workspace_hand),
        cmocka_unit_test(test_pp_p2p_hand),
        cmocka_unit_test(test_moe_decode_hand),
        cmocka_unit_test(test_pipeline_times),
        cmocka_unit_test(test_invalid_plans),
        cmocka_unit_test(test_moe_ep),
        cmocka_unit_test(test_rank_order),
        cmocka_unit_test(test_tails_deterministic),
        cmocka_unit_test(test_more_bandwidth_never_slower),
        cmocka_unit_test(test_slider_extremes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
