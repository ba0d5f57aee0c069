/*
 * test_engine.c - the engine against hand-worked numbers: the seeds'
 * worked examples (with the seed's slips corrected and explained), the
 * published parameter counts, KV bytes per token, the alpha-beta formulas,
 * the bubble table, and invariants over plans and slider extremes.
 */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "support_asserts.h"
#include "support_models.h"

#define GIB (1024.0 * 1024.0 * 1024.0)
#define MIB (1024.0 * 1024.0)

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
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_70b(), 4);
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
 * they are GiB (the seed mixes GiB and GB). */
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
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama31_405b(), 8);
    engine_result r = eval_plan(&s, 8, 1, 1, 1);
    /* (the norms' weights, 2 per layer and the final one, 253 x 16384, are
     * replicated on every TP rank, not sharded) */
    const double norms = 253 * 16384.0;
    assert_near(r.mem.weights_bytes, (405853388800.0 - norms) * 2 / 8 + norms * 2, 1e-12);
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
    /* 101.47 GB of weights (norms replicated) + 2 GB runtime + workspace */
    assert_string_equal(r.reason, "needs 103.7 GB per GPU, capacity 72.0 GB");
    /* FP8: 50.73 GB if every weight were FP8; the checkpoints keep the
     * embedding and the LM head (and norms) in 16 bits (Meta's
     * Llama-3.1-405B-Instruct-FP8 quantizes the blocks' linear layers only):
     * + 2 x 128256 x 16384 x 1 B / 8 = 0.53 GB */
    s.weight_dtype = ENGINE_FP8;
    r = eval_plan(&s, 8, 1, 1, 1);
    const double e405 = 128256.0 * 16384, n405 = 253 * 16384.0;
    assert_near(r.mem.weights_bytes,
                (405853388800.0 - 2 * e405 - n405) / 8 + n405 * 2 + 2 * e405 * 2 / 8, 1e-12);
    assert_near(r.mem.weights_bytes, 51.26e9, 0.001);
    assert_true(r.fits);
    /* ... or TP=8 x PP=2 at FP16 across two nodes: 50.7 GB + embeddings */
    s.weight_dtype = ENGINE_FP16;
    s.gpus = 16;
    r = eval_plan(&s, 8, 2, 1, 1);
    assert_true(r.fits);
    /* the last stage: 63 layers' linear weights / 8, their 126 norms and the
     * final one replicated, the LM head / 8 */
    const double emb = e405, lin = 405853388800.0 - 2 * emb - n405;
    assert_near(r.mem.weights_bytes, (63.0 / 126 * lin / 8 + 127 * 16384.0 + emb / 8) * 2, 1e-9);
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
    /* the seed counts memory only: GPT-2's 1024-token context is no limit */
    s.max_model_len = s.prompt + s.gen;
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
     * crosses the inter-node link, both at once on their own links (NCCL
     * posts every peer's send together), so the slower part sets the time;
     * allgather: M/8 per rail across, then M in the node */
    assert_near(engine_comm_time(ENGINE_OP_ALLTOALL, &nv, &ib, 16, 8, M),
                fmax(7.0 / 16 * M / 600e9, 8.0 / 16 * M / 50e9), 1e-12);
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

/* The kernels of a step, added up here from the public per-kernel costs
 * (tests/unit/test_kernels.c checks those against measured kernels and by
 * hand): a dense GQA model with a gated MLP under the generic framework,
 * whose attention kernel fuses rotary and the KV write.  `host` is the
 * host's cost per kernel launch (eager prefill: 5 us; a CUDA graph: 0): a
 * kernel shorter than its launch leaves the GPU waiting, so each costs
 * max(GPU time, host). */
typedef struct hand_step {
    const engine_model *m;
    const engine_gpu *g;
    engine_dtype w;      /* weights */
    int tp;
    double seqs, t, past; /* t new tokens per sequence after past cached */
    int decode;
    double host;
} hand_step;

static double kern(double t, double host)
{
    return t > host ? t : host;
}

static double h_gemm(const hand_step *h, double m, double n, double k, double wb)
{
    return kern(engine_gemm_s(h->g, NULL, h->w, m, n, k, wb, 2), h->host);
}

static double h_small(const hand_step *h, double bytes)
{
    return kern(engine_small_kernel_s(h->g, bytes), h->host);
}

/* One layer's kernels, communication excluded. */
static double hand_layer(const hand_step *h)
{
    const engine_model *m = h->m;
    double T = h->seqs * h->t, d = m->hidden, dh = m->head_dim;
    double heads = (double)m->heads / h->tp;
    double kvh = m->kv_heads >= h->tp ? (double)m->kv_heads / h->tp : 1;
    double f = (double)m->ffn / h->tp, wb = engine_dtype_bytes(h->w);
    double t = h_small(h, 4 * T * d * 2);             /* residual add + norm */
    t += h_gemm(h, T, (heads + 2 * kvh) * dh, d, wb);  /* QKV */
    if (h->decode) {
        double ctx = h->past + h->t; /* K and V of kvh heads, 2 B each (read once) */
        t += kern(engine_attn_decode_s(h->g, h->seqs * ctx * 2 * kvh * dh * 2, h->seqs * heads),
                  h->host);
    } else {
        t += kern(engine_attn_prefill_s(h->g, h->seqs, h->t, h->past, heads, kvh, dh, dh, 2),
                  h->host);
    }
    t += h_gemm(h, T, d, heads * dh, wb);              /* output projection */
    t += h_small(h, 4 * T * d * 2);                    /* residual add + norm */
    t += h_gemm(h, T, 2 * f, d, wb);                   /* gate + up */
    t += h_small(h, 3 * T * f * 2);                    /* SiLU x up */
    t += h_gemm(h, T, d, f, wb);                       /* down */
    return t;
}

/* The embedding lookup on the first stage; final norm, LM head (16-bit),
 * sampling over fp32 logits on the last. */
static double hand_first(const hand_step *h)
{
    return h_small(h, 2 * h->seqs * h->t * h->m->hidden * 2);
}

static double hand_last(const hand_step *h)
{
    const engine_model *m = h->m;
    double V = m->vocab;
    double rows = h->decode ? h->seqs * h->t : h->seqs; /* verification: every token */
    return h_small(h, 2 * h->seqs * h->t * m->hidden * 2) +
           kern(engine_gemm_s(h->g, NULL, ENGINE_FP16, rows, V / h->tp, m->hidden, 2, 2),
                h->host) +
           h_small(h, 3 * rows * V * 4);
}

static double hand_all(const hand_step *h, int layers)
{
    return layers * hand_layer(h) + hand_first(h) + hand_last(h);
}

/* One H100, Llama-3-8B, batch 1, prompt 1024, gen 256.  The decode step at
 * mid-generation (1024 + 128 tokens cached) replays a CUDA graph: the sum
 * of its kernels; the generic framework's 15 us host step overlaps it.  The
 * prefill runs eager (5 us per launch) and pays the 15 us step. */
static void test_decode_step_hand(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 1);
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    hand_step dc = {&f.m, &f.g, ENGINE_FP16, 1, 1, 1, 1152, 1, 0};
    double itl = hand_all(&dc, 32);
    assert_near(r.itl_s, itl, 1e-9);
    /* the weights over 80 % of 3350 GB/s, 16.06 GB / 2680 GB/s = 5.99 ms,
     * plus 260 kernels' fixed costs (3-10 us each) */
    assert_near(r.itl_s, 6.764e-3, 0.001);
    assert_true(r.itl_s > 16.06e9 / (3350e9 * 0.8));
    hand_step pf = {&f.m, &f.g, ENGINE_FP16, 1, 1, 1024, 0, 0, 5e-6};
    double ttft = hand_all(&pf, 32) + 15e-6;
    assert_near(r.ttft_s, ttft, 1e-9);
    /* 2 x 7.5e9 FLOP per token x 1024 at 85 % of 989 TFLOPS: 18.3 ms + the rest */
    assert_near(r.ttft_s, 22.5e-3, 0.02);
    /* the first token comes from the prefill */
    assert_near(r.e2e_s, r.ttft_s + 255 * r.itl_s, 1e-12);
    assert_near(r.tokens_per_s, 256 / r.e2e_s, 1e-12);
    /* $3.99 per GPU-hour: cost per 1M tokens = 3.99 / (tok/s x 3600) x 1e6 */
    assert_near(r.cost_per_mtok_usd, 3.99 / (r.tokens_per_s * 3600) * 1e6, 1e-12);
    /* one GPU has no communication: efficiency 1, no regime */
    assert_near(r.efficiency, 1.0, 1e-12);
    assert_int_equal(r.regime, '-');
    /* the breakdown adds up to the step */
    const engine_breakdown *b = &r.decode;
    assert_near(b->gemm_s + b->attn_s + b->small_s + b->launch_s + b->step_s + b->tp_s +
                    b->ep_s + b->pp_s + b->bubble_s,
                r.itl_s, 1e-12);
    /* 32 layers x 8 kernels + embedding + norm, head, sampling */
    assert_int_equal(b->kernels, 32 * 8 + 4);
    b = &r.prefill;
    assert_near(b->gemm_s + b->attn_s + b->small_s + b->launch_s + b->step_s + b->tp_s +
                    b->ep_s + b->pp_s + b->bubble_s,
                r.ttft_s, 1e-12);
    assert_true(r.compute_bound_prefill && !r.compute_bound_decode);

    /* Without CUDA graphs every decode kernel is launched eagerly: a
     * kernel shorter than its 5 us launch costs the launch. */
    s.cuda_graphs = ENGINE_GRAPHS_OFF;
    engine_result e = eval_plan(&s, 1, 1, 1, 1);
    dc.host = 5e-6;
    assert_near(e.itl_s, hand_all(&dc, 32), 1e-9);
    assert_true(e.itl_s > r.itl_s);
}

/* FP8 weights: half the bytes, FP8 peak (1979 TFLOPS) at its own achievable
 * fraction and fixed cost; the embedding and LM head stay 16-bit. */
static void test_fp8_prefill_hand(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 1);
    s.weight_dtype = ENGINE_FP8;
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    hand_step pf = {&f.m, &f.g, ENGINE_FP8, 1, 1, 1024, 0, 0, 5e-6};
    assert_near(r.ttft_s, hand_all(&pf, 32) + 15e-6, 1e-9);
    hand_step dc = {&f.m, &f.g, ENGINE_FP8, 1, 1, 1, 1152, 1, 0};
    assert_near(r.itl_s, hand_all(&dc, 32), 1e-9);
    /* one 4096 x 14336 x 2 FP8 GEMM of 1024 tokens: 2 m n k / (1979e12 x
     * 0.70 x wave efficiency) + 5.5 us */
    double eta = engine_gemm_shape_eta(132, 1024, 2 * 14336, 4096, 1);
    assert_near(engine_gemm_s(&f.g, NULL, ENGINE_FP8, 1024, 2 * 14336, 4096, 1, 2),
                2.0 * 1024 * 2 * 14336 * 4096 / (1979e12 * 0.70 * eta) + 5.5e-6, 1e-12);
    /* weights: the blocks' linear layers at 1 B; embedding, head and the
     * norms at 2 B */
    double emb = 128256.0 * 4096;
    double norms = (2 * 32 + 1) * 4096.0;
    double blocks = 8030261248.0 - 2 * emb - norms;
    assert_near(r.mem.weights_bytes, blocks * 1 + norms * 2 + 2 * emb * 2, 1e-12);
}

/* TP=2 on a 0-latency 300 GB/s link: each decode step adds 2 x 32 layer
 * all-reduces and the embedding's of 4096 x 2 B (2 (n-1)/n M / BW), and
 * the all-gather of the fp32 logits ((n-1)/n M / BW). */
static void test_tp_comm_hand(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 2);
    engine_result r = eval_plan(&s, 2, 1, 1, 1);
    double logits = 128256.0 * 4;
    assert_near(r.decode_comm_s, 65 * (8192.0 / 300e9) + 0.5 * logits / 300e9, 1e-9);
    assert_near(r.prefill_comm_s, 65 * (1024 * 8192.0 / 300e9) + 0.5 * logits / 300e9, 1e-9);
    hand_step dc = {&f.m, &f.g, ENGINE_FP16, 2, 1, 1, 1152, 1, 0};
    assert_near(r.itl_s, hand_all(&dc, 32) + r.decode_comm_s, 1e-9);
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

/* A parallel attention + MLP block whose framework adds the two partial
 * outputs before one TP all-reduce (Falcon: vLLM falcon.py, TensorRT-LLM
 * >= 0.6.1): test_tp_comm_hand's 65 decode all-reduces (2 a layer over 32
 * layers plus the embedding's) become 33; the model, the framework and
 * the release (parallel_ar_split: TensorRT-LLM 0.5) must all say so. */
static void test_parallel_ar_once(void **state)
{
    (void)state;
    ts_fixture f;
    engine_model m = tm_llama3_8b();
    m.parallel_ar_once = 1;
    engine_scenario s = ts_on_h100(&f, m, 2);
    engine_framework fw = *engine_framework_generic_ref();
    double logits = 128256.0 * 4;
    assert_int_equal(engine_scenario_one_allreduce(&s), 0); /* generic: two */
    engine_result two = eval_plan(&s, 2, 1, 1, 1);
    assert_near(two.decode_comm_s, 65 * (8192.0 / 300e9) + 0.5 * logits / 300e9, 1e-9);
    fw.parallel_ar_once = 1;
    s.framework = &fw;
    assert_int_equal(engine_scenario_one_allreduce(&s), 1);
    engine_result one = eval_plan(&s, 2, 1, 1, 1);
    assert_near(one.decode_comm_s, 33 * (8192.0 / 300e9) + 0.5 * logits / 300e9, 1e-9);
    assert_near(one.prefill_comm_s, 33 * (1024 * 8192.0 / 300e9) + 0.5 * logits / 300e9, 1e-9);
    assert_near(two.itl_s - one.itl_s, 32 * (8192.0 / 300e9), 1e-9);
    s.parallel_ar_split = 1; /* a release that reduced them separately */
    assert_int_equal(engine_scenario_one_allreduce(&s), 0);
    engine_result split = eval_plan(&s, 2, 1, 1, 1);
    assert_near(split.itl_s, two.itl_s, 1e-12);
    s.parallel_ar_split = 0;
    f.m.parallel_ar_once = 0; /* a sequential block: two whatever the framework */
    assert_int_equal(engine_scenario_one_allreduce(&s), 0);
}

/* The prefill workspace of one micro-batch: residual + norm output (2 d),
 * QKV ((h + 2 g) dh) and the gated MLP's two intermediates (2 f), at 2 B,
 * plus FP32 logits of the last token: Llama-3-8B, 1024 tokens. */
static void test_activation_workspace_hand(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 1);
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    double per_token = 2 * 4096 + (32 + 2 * 8) * 128 + 2 * 14336; /* 43008 */
    assert_true(r.mem.activation_bytes == 1024 * per_token * 2 + 128256.0 * 4);
    assert_true(r.mem.activation_bytes == 88593408.0);
    assert_true(r.mem.overhead_bytes == 2e9);
    assert_true(r.mem.capacity_bytes == 80e9 * 0.9);
    assert_true(r.mem.per_gpu_bytes == r.mem.weights_bytes + r.mem.kv_bytes +
                                           r.mem.activation_bytes + r.mem.overhead_bytes);
}

/* A pipeline boundary is one p2p of the stage's activations (alpha + T d
 * 2 B / BW).  At batch 1 one micro-batch crosses both stages in turn, so
 * TTFT and ITL are the one-stage times plus that send: PP does not make a
 * single sequence faster. */
static void test_pp_p2p_hand(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100_over(&f, tm_llama3_8b(), tl_link(1e-6, 100), 2);
    engine_result r = eval_plan(&s, 1, 2, 1, 1);
    s.gpus = 1;
    engine_result one = eval_plan(&s, 1, 1, 1, 1);
    double p2p_pf = 1e-6 + 1024 * 4096 * 2 / 100e9, p2p_dc = 1e-6 + 4096 * 2 / 100e9;
    assert_near(r.ttft_s, one.ttft_s + p2p_pf, 1e-9);
    assert_near(r.itl_s, one.itl_s + p2p_dc, 1e-9);
    /* The last stage (16 layers, the LM head) is the slower one; the first
     * (16 layers, the embedding, the send) is its bubble. */
    hand_step dc = {&f.m, &f.g, ENGINE_FP16, 1, 1, 1, 1152, 1, 0};
    assert_near(r.decode_bubble_s, 16 * hand_layer(&dc) + hand_first(&dc) + p2p_dc, 1e-9);
    assert_near(r.decode_compute_s, 16 * hand_layer(&dc) + hand_last(&dc), 1e-9);
    assert_near(r.decode_comm_s, 0, 0);
    assert_near(r.bubble_fraction, 0.5, 1e-12);
}

/* Mixtral-8x7B at batch 1 routes its token to 2 of 8 experts: the grouped
 * expert GEMMs (engine_moe_gemm_s: compute and weight stream blended) run
 * 2 groups of one token; at batch 2 the pair touches
 * 8 (1 - (6/8)^2) = 3.5 experts in expectation, 4/3.5 tokens each. */
static double hand_moe_layer(const hand_step *h, double hit, double assign)
{
    const engine_model *m = h->m;
    double T = h->seqs, d = m->hidden, dh = m->head_dim, f = m->ffn;
    double t = h_small(h, 4 * T * d * 2);
    t += h_gemm(h, T, (32 + 2 * 8) * dh, d, 2);
    t += engine_attn_decode_s(h->g, T * (h->past + 1) * 2 * 8 * dh * 2, T * 32);
    t += h_gemm(h, T, d, 32 * dh, 2);
    t += h_small(h, 4 * T * d * 2);
    t += h_gemm(h, T, 8, d, 2);                /* router */
    t += h_small(h, T * 8 * 4 * 2);            /* softmax + top-k */
    t += h_small(h, (T + assign) * d * 2);     /* permute */
    t += engine_moe_gemm_s(h->g, NULL, ENGINE_FP16, assign / hit, 2 * f, d, hit, 2, 2);
    t += h_small(h, 3 * assign * f * 2);
    t += engine_moe_gemm_s(h->g, NULL, ENGINE_FP16, assign / hit, d, f, hit, 2, 2);
    t += h_small(h, (T + assign) * d * 2);     /* unpermute, combine */
    return t;
}

static void test_moe_decode_hand(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_mixtral_8x7b(), 1);
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    hand_step dc = {&f.m, &f.g, ENGINE_FP16, 1, 1, 1, 1152, 1, 0};
    double itl = 32 * hand_moe_layer(&dc, 2, 2) + hand_first(&dc) + hand_last(&dc);
    assert_near(r.itl_s, itl, 1e-9);
    /* about the active weights (12.9 B x 2 B) over 80 % of the bandwidth */
    assert_near(r.itl_s, 12.9e9 * 2 / (3350e9 * 0.8), 0.20);
    s.batch = 2;
    r = eval_plan(&s, 1, 1, 1, 1);
    dc.seqs = 2;
    itl = 32 * hand_moe_layer(&dc, 3.5, 4) + hand_first(&dc) + hand_last(&dc);
    assert_near(r.itl_s, itl, 1e-9);
}

/* Issue 11, attention windows.  A local layer keeps and reads at most its
 * window: Llama-3-8B made all-local with a 1024-token window decodes at
 * prompt 8000 exactly as the plain model does at a context of 1024 (its
 * decode step attends past + 1 = S + G/2 + 1 tokens: 1022 + 1 + 1), and
 * its KV cache is 32 layers x 1024 tokens x 128 KiB.  A window no shorter
 * than the sequence changes nothing; a shorter one cuts prefill attention.
 * With every 4th layer global (8 of 32), the global ones hold the whole
 * 8002 tokens. */
static void test_attention_window(void **state)
{
    (void)state;
    engine_model full = tm_llama3_8b(), loc = full;
    loc.window = 1024;
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0, 300);
    engine_scenario s, t;
    ts_scenario(&s, &loc, &g, &l, 1);
    ts_scenario(&t, &full, &g, &l, 1);
    s.prompt = 8000;
    s.gen = 2;
    t.prompt = 1022;
    t.gen = 2;
    engine_result rw = eval_plan(&s, 1, 1, 1, 1), rf = eval_plan(&t, 1, 1, 1, 1);
    assert_near(rw.decode.attn_s, rf.decode.attn_s, 1e-12);
    assert_near(rw.itl_s, rf.itl_s, 1e-12);
    const double tok = 2.0 * 8 * 128 * 2; /* K and V, 8 heads of 128, fp16 */
    assert_near(rw.mem.kv_bytes, 32 * 1024 * tok, 1e-12);
    assert_near(rw.mem.kv_local_bytes, 32 * 1024 * tok, 1e-12);
    /* prefill: the window is inert at 1000 tokens, cuts 8000 */
    t.prompt = 8000;
    rf = eval_plan(&t, 1, 1, 1, 1);
    assert_true(rw.prefill.attn_s < 0.6 * rf.prefill.attn_s);
    assert_near(rw.prefill.gemm_s, rf.prefill.gemm_s, 1e-12);
    s.prompt = t.prompt = 1000;
    rw = eval_plan(&s, 1, 1, 1, 1);
    rf = eval_plan(&t, 1, 1, 1, 1);
    assert_near(rw.ttft_s, rf.ttft_s, 1e-12);
    assert_near(rw.itl_s, rf.itl_s, 1e-12);
    /* every 4th layer global: 8 x 8194 + 24 x 1024 tokens; PP=2 halves it */
    loc.global_every = 4;
    s.prompt = 8000;
    rw = eval_plan(&s, 1, 1, 1, 1);
    assert_near(rw.mem.kv_bytes, (8 * 8002.0 + 24 * 1024.0) * tok, 1e-12);
    assert_near(rw.mem.kv_local_bytes, 24 * 1024 * tok, 1e-12);
    s.gpus = 2;
    rw = eval_plan(&s, 1, 2, 1, 1);
    assert_near(rw.mem.kv_bytes, (4 * 8002.0 + 12 * 1024.0) * tok, 1e-12);
}

/* Chunked local attention (Llama 4): a query sees only its own chunk.  All
 * layers chunked at 1024: decode past the first chunk sees (1024 + 1) / 2
 * keys on average, as the plain model at past + 1 = 512.5 (prompt 510,
 * gen 3); a 4096-token prompt is four independent chunks, so its attention
 * costs what four 1024-token sequences do without a window (same FLOPs,
 * traffic and thread blocks); the cache still holds a whole chunk. */
static void test_chunked_attention(void **state)
{
    (void)state;
    engine_model full = tm_llama3_8b(), ch = full;
    ch.window = 1024;
    ch.window_chunked = 1;
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0, 300);
    engine_scenario s, t;
    ts_scenario(&s, &ch, &g, &l, 1);
    ts_scenario(&t, &full, &g, &l, 1);
    s.prompt = 8000;
    s.gen = 2;
    t.prompt = 510;
    t.gen = 3;
    engine_result rc = eval_plan(&s, 1, 1, 1, 1), rf = eval_plan(&t, 1, 1, 1, 1);
    assert_near(rc.decode.attn_s, rf.decode.attn_s, 1e-12);
    assert_near(rc.mem.kv_bytes, 32 * 1024 * 2.0 * 8 * 128 * 2, 1e-12);
    s.prompt = 4096;
    t.prompt = 1024;
    t.batch = 4;
    rc = eval_plan(&s, 1, 1, 1, 1);
    rf = eval_plan(&t, 1, 1, 1, 1);
    assert_near(rc.prefill.attn_s, rf.prefill.attn_s, 1e-12);
    /* a sliding window of the same size costs more: each query sees 1024 */
    ch.window_chunked = 0;
    engine_result rs = eval_plan(&s, 1, 1, 1, 1);
    assert_true(rs.prefill.attn_s > rc.prefill.attn_s);
}

/* PP=4 with 4 micro-batches of 2 sequences: GPipe's prefill takes 4 steps
 * of the slowest stage (the last: 8 layers and the LM head) plus one pass
 * of the three others (fill), whose time is the bubble; decode keeps 4
 * micro-batches in flight, so the last stage serves all 4 each step. */
static void test_pipeline_times(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 4);
    s.batch = 8;
    s.microbatches = 4;
    engine_result r = eval_plan(&s, 1, 4, 1, 1);
    assert_near(r.bubble_fraction, 3.0 / 7.0, 1e-12);
    hand_step pf = {&f.m, &f.g, ENGINE_FP16, 1, 2, 1024, 0, 0, 5e-6};
    double L = hand_layer(&pf), p2p = 2 * 1024 * 4096 * 2 / 300e9;
    double last = 8 * L + hand_last(&pf), others = 24 * L + hand_first(&pf) + 3 * p2p;
    assert_near(r.ttft_s, 4 * last + others + 15e-6, 1e-9);
    assert_near(r.prefill_bubble_s, others, 1e-9);
    hand_step dc = {&f.m, &f.g, ENGINE_FP16, 1, 2, 1, 1152, 1, 0};
    assert_near(r.itl_s, 4 * (8 * hand_layer(&dc) + hand_last(&dc)), 1e-9);
    assert_near(r.decode_bubble_s, 0, 1e-15);
    /* decode per sequence is no faster than one GPU's */
    s.gpus = 1;
    engine_result one = eval_plan(&s, 1, 1, 1, 1);
    assert_true(r.itl_s >= one.itl_s * 0.999);
    /* interleaved, v = 2: the fill halves, and each micro-batch makes v - 1
     * extra rounds of pp hops */
    s.gpus = 4;
    s.schedule = ENGINE_SCHED_INTERLEAVED;
    r = eval_plan(&s, 1, 4, 1, 1);
    assert_near(r.bubble_fraction, 1.5 / 5.5, 1e-12);
    assert_near(r.ttft_s, 4 * last + others / 2 + 1 * 4 * p2p + 15e-6, 1e-9);
    /* an explicit micro-batch count above the batch splits sequences into
     * chunks that attend to the ones before them */
    s.schedule = ENGINE_SCHED_GPIPE;
    s.batch = 1;
    s.microbatches = 4;
    r = eval_plan(&s, 1, 4, 1, 1);
    hand_step ch = {&f.m, &f.g, ENGINE_FP16, 1, 1, 256, 384, 0, 5e-6};
    double cl = hand_layer(&ch), cp = 256 * 4096 * 2 / 300e9;
    assert_near(r.ttft_s, 4 * (8 * cl + hand_last(&ch)) + 24 * cl + hand_first(&ch) + 3 * cp + 15e-6,
                1e-9);
}

/* decode_microbatches 1 (FasterTransformer's decode when pp does not
 * divide the batch): the whole batch of 8 crosses the 4 stages in turn, so
 * a step is the sum of the stage times at 8 sequences, not 4 cycles of the
 * slowest stage at 2; 2 groups of 4: the sum at 4, which here exceeds the
 * 2 cycles of the last stage. */
static void test_decode_microbatches(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 4);
    s.batch = 8;
    s.decode_microbatches = 1;
    engine_result r = eval_plan(&s, 1, 4, 1, 1);
    hand_step d8 = {&f.m, &f.g, ENGINE_FP16, 1, 8, 1, 1152, 1, 0};
    double hop8 = 8 * 4096 * 2 / 300e9;
    assert_near(r.itl_s, 32 * hand_layer(&d8) + hand_first(&d8) + hand_last(&d8) + 3 * hop8, 1e-9);
    assert_true(r.decode_bubble_s > 0); /* three stages idle while one works */
    s.decode_microbatches = 2;
    r = eval_plan(&s, 1, 4, 1, 1);
    hand_step d4 = {&f.m, &f.g, ENGINE_FP16, 1, 4, 1, 1152, 1, 0};
    double hop4 = 4 * 4096 * 2 / 300e9, last4 = 8 * hand_layer(&d4) + hand_last(&d4);
    double sum4 = 32 * hand_layer(&d4) + hand_first(&d4) + hand_last(&d4) + 3 * hop4;
    assert_true(sum4 > 2 * last4);
    assert_near(r.itl_s, sum4, 1e-9);
    /* above the batch: one group a sequence; 4 is the default's 4 of 2 */
    s.decode_microbatches = 64;
    engine_result big = eval_plan(&s, 1, 4, 1, 1);
    s.decode_microbatches = 0;
    s.batch = 8;
    engine_result def = eval_plan(&s, 1, 4, 1, 1);
    s.decode_microbatches = 4;
    engine_result four = eval_plan(&s, 1, 4, 1, 1);
    assert_near(four.itl_s, def.itl_s, 1e-15);
    /* 8 groups of 1, each reading the stages' weights again */
    assert_true(big.itl_s > def.itl_s);
    hand_step d1 = {&f.m, &f.g, ENGINE_FP16, 1, 1, 1, 1152, 1, 0};
    assert_near(big.itl_s, 8 * (8 * hand_layer(&d1) + hand_last(&d1)), 1e-9);
    /* prefill is untouched */
    assert_near(big.ttft_s, def.ttft_s, 1e-15);
    engine_error err = {{0}};
    s.decode_microbatches = -1;
    assert_int_equal(engine_scenario_check(&s, &err), -1);
    assert_non_null(strstr(err.msg, "decode_microbatches"));
}

/* The default micro-batch count is min(pp, batch): whole sequences. */
static void test_default_microbatches(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 4);
    s.batch = 2;
    engine_result r = eval_plan(&s, 1, 4, 1, 1);
    assert_near(r.bubble_fraction, 3.0 / 5.0, 1e-12); /* m = 2 */
    s.microbatches = 2;
    engine_result e = eval_plan(&s, 1, 4, 1, 1);
    assert_near(e.ttft_s, r.ttft_s, 1e-12);
    s.batch = 16;
    s.microbatches = 0;
    r = eval_plan(&s, 1, 4, 1, 1);
    assert_near(r.bubble_fraction, 3.0 / 7.0, 1e-12); /* m = 4 */
}

/* Degrees whose products overflow an int (65536*65536) or a 64-bit
 * integer (INT_MAX^3) are an invalid plan with a reason, never a wrapped
 * product, a division by zero or a UBSan report (issue 13). */
static void test_huge_degrees(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_mixtral_8x7b(), 8);
    engine_error err = {{0}};
    assert_int_equal(engine_scenario_check(&s, &err), 0);
    engine_result r = eval_plan(&s, 65536, 65536, 1, 1);
    assert_false(r.valid);
    assert_string_equal(r.reason, "tp*pp*dp = 4294967296, not the 8 GPUs");
    r = eval_plan(&s, INT_MAX, INT_MAX, INT_MAX, INT_MAX);
    assert_false(r.valid);
    assert_string_equal(r.reason, "degrees must be at most 1048576");
    r = eval_plan(&s, 1, 1, 8, INT_MAX);
    assert_false(r.valid);
    assert_string_equal(r.reason, "degrees must be at most 1048576");
    r = eval_plan(&s, 1048576, 1048576, 1048576, 1);
    assert_false(r.valid);
    assert_string_equal(r.reason, "tp*pp*dp = 1152921504606846976, not the 8 GPUs");
    char reason[ENGINE_REASON_MAX];
    engine_memory mem;
    assert_int_equal(engine_plan_memory(&s, (engine_plan){INT_MAX, 2, 2, 1}, &mem, reason,
                                        sizeof reason), 0);
    assert_string_equal(reason, "degrees must be at most 1048576");
    /* The GPU count itself: the scenario check bounds it. */
    s.gpus = INT_MAX;
    assert_int_equal(engine_scenario_check(&s, &err), -1);
    assert_string_equal(err.msg, "scenario: gpus: must be 1..1048576");
    /* The power-of-two search stops at the limit instead of wrapping. */
    s.gpus = 1;
    s.vram_bytes = 1e3;
    assert_int_equal(engine_min_gpus(&s, INT_MAX), 0);
}

static void test_invalid_plans(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_scenario s = ts_on_h100(&fx, tm_llama3_8b(), 3);
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
    /* A kernel constant that is negative or not a number is refused, by name
     * of its group, not turned into a NaN time. */
    s.gen = 256;
    engine_gpu bad = fx.g;
    bad.gemm_t0_fp4_s = -1e-6;
    s.model = &fx.m;
    s.gpus = 1;
    s.gpu = &bad;
    assert_int_equal(engine_evaluate(&s, p, &r, &err), -1);
    assert_string_equal(err.msg, "scenario: gpu: kernel fixed costs must be finite and non-negative");
    bad.gemm_t0_fp4_s = 0;
    bad.attn_t0_s = NAN;
    assert_int_equal(engine_evaluate(&s, p, &r, &err), -1);
    bad.attn_t0_s = 0;
    bad.eta_compute_w4a16 = 1.5; /* the dequantized FP4 fractions too */
    assert_int_equal(engine_evaluate(&s, p, &r, &err), -1);
    assert_string_equal(err.msg, "scenario: gpu: achievable fractions must be in (0, 1]");
    bad.eta_compute_w4a16 = 0;
    bad.eta_memory_w4a16 = NAN;
    assert_int_equal(engine_evaluate(&s, p, &r, &err), -1);
    s.gpu = &fx.g;
    s.quant_group = -1;
    assert_int_equal(engine_evaluate(&s, p, &r, &err), -1);
    assert_string_equal(err.msg, "scenario: quant_group: must be 0..1048576 (0: the checkpoint's or the dtype's)");
    s.quant_group = 0;
    s.max_model_len = -1;
    assert_int_equal(engine_evaluate(&s, p, &r, &err), -1);
    assert_string_equal(err.msg, "scenario: max_model_len: must be 0..1000000000 (0: the model's context)");
}

/* MoE: expert parallel adds two all-to-alls per MoE layer and spreads the
 * experts' memory over ep GPUs. */
static void test_moe_ep(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_mixtral_8x7b(), 8);
    s.moe_imbalance = 1; /* uniform routing; the default rule below */
    engine_result tp8 = eval_plan(&s, 8, 1, 1, 1);
    engine_result ep8 = eval_plan(&s, 1, 1, 8, 8);
    assert_true(tp8.valid && ep8.valid);
    /* experts: 32 layers x 8 x 3 x 4096 x 14336 params; ep=8 holds one each */
    double experts = 32.0 * 8 * 3 * 4096 * 14336;
    double others = engine_model_params(&f.m) - experts;
    assert_near(ep8.mem.weights_bytes, (others + experts / 8) * 2, 1e-6);
    /* decode all-to-all: 2 x 32 layers x (7/8 x 1 token x 2 x 4096 x 2 B / 300 GB/s) */
    assert_near(ep8.decode_comm_s, 64 * (7.0 / 8 * 2 * 4096 * 2 / 300e9), 1e-9);
    /* By default the busiest GPU gets 1 + 1.68 sqrt(2 ln 8) = 4.4 x the
     * mean, capped at every one of the 8 pooled tokens on its one expert:
     * 4 x the uniform all-to-all (test_moe.c works the rule through). */
    s.moe_imbalance = 0;
    engine_result def = eval_plan(&s, 1, 1, 8, 8);
    assert_near(def.decode_comm_s, 4 * ep8.decode_comm_s, 1e-9);
    s.moe_imbalance = 1;
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
    double active = engine_model_active_params(&f.m), total = engine_model_params(&f.m);
    assert_true(one.itl_s > active * 2 / (3350e9 * 0.8));
    assert_true(one.itl_s < 0.5 * total * 2 / (3350e9 * 0.8));
}

/* --- frameworks ---------------------------------------------------------- */

static engine_framework fw_test(void)
{
    engine_framework f;
    engine_framework_generic(&f);
    return f;
}

/* fw_test() with vLLM's memory rule (0.9 of the total memory, 1.5 GB of
 * runtime) and 8192 tokens a step. */
static engine_framework fw_vllm_memory(void)
{
    engine_framework f = fw_test();
    f.mem_rule = ENGINE_MEM_TOTAL;
    f.mem_fraction = 0.9;
    f.runtime_bytes = 1.5e9;
    f.max_num_tokens = 8192;
    return f;
}

/* vLLM budgets gpu_memory_utilization of the TOTAL memory for everything;
 * TensorRT-LLM gives the KV cache a fraction of what is FREE after the
 * weights, workspace and runtime. */
static void test_memory_rules(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_scenario s = ts_on_h100(&fx, tm_llama3_8b(), 1);
    engine_framework f = fw_test();
    f.mem_rule = ENGINE_MEM_TOTAL;
    f.mem_fraction = 0.9;
    f.runtime_bytes = 1.5e9;
    s.framework = &f;
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    double fixed = r.mem.weights_bytes + r.mem.activation_bytes + 1.5e9;
    assert_near(r.mem.overhead_bytes, 1.5e9, 0);
    assert_near(r.mem.capacity_bytes, 0.9 * 80e9, 1e-12);
    assert_near(r.mem.kv_capacity_bytes, 0.9 * 80e9 - fixed, 1e-12);
    f.mem_rule = ENGINE_MEM_FREE;
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_near(r.mem.kv_capacity_bytes, 0.9 * (80e9 - fixed), 1e-12);
    assert_near(r.mem.capacity_bytes, fixed + 0.9 * (80e9 - fixed), 1e-12);
    /* the scenario's own fraction and overhead win over the framework's */
    s.usable_fraction = 0.5;
    s.runtime_overhead_bytes = 0;
    r = eval_plan(&s, 1, 1, 1, 1);
    fixed -= 1.5e9;
    assert_near(r.mem.kv_capacity_bytes, 0.5 * (80e9 - fixed), 1e-12);
    /* the largest batch whose KV fits: 1280 tokens x 128 KiB each */
    int bmax = engine_max_batch(&s, (engine_plan){1, 1, 1, 1}, 100000);
    assert_true(bmax > 1);
    s.batch = bmax;
    assert_true(eval_plan(&s, 1, 1, 1, 1).fits);
    s.batch = bmax + 1;
    assert_false(eval_plan(&s, 1, 1, 1, 1).fits);
}

/* KV capacity with a paged cache (16-token blocks): Llama-3-8B fp16 on one
 * H100 (80 GB), TOTAL rule 0.9, runtime 1.5 GB, 8192-token prefill chunks.
 * KV per token 2*L*g*d_h*2 = 2*32*8*128*2 = 131072 B, a block 2097152 B.
 * Weights 2 * 8030261248 B; workspace 8192 tokens x (2*4096 + 6144 + 28672)
 * x 2 B = 704643072 B plus fp32 logits 128256*4 = 513024 B per sequence.
 * Room: 72e9 - 16060522496 - 1.5e9 - 704643072 = 53734834432 B.
 * 1024+256 = 1280 tokens = 80 blocks: 167772160 + 513024 B a sequence ->
 * 319 sequences; the room beside 319 workspaces, 53571179776 B, is 25544
 * blocks = 408704 tokens (floor(25544/80) = 319).  1000+250 = 1250 tokens
 * take 79 blocks (1264 tokens): 323 sequences, where a contiguous cache of
 * 1250 tokens would take 326. */
static void test_kv_capacity_paged(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_scenario s = ts_on_h100(&fx, tm_llama3_8b(), 1);
    engine_framework f = fw_vllm_memory();
    s.framework = &f;
    assert_near(engine_kv_bytes_per_token(&fx.m, ENGINE_FP16), 131072, 0);
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    assert_near(r.mem.weights_bytes, 2 * 8030261248.0, 0);
    assert_int_equal(r.max_concurrency, 319);
    assert_near(r.kv_capacity_tokens, 408704, 0);
    assert_int_equal(r.batch, 1);
    assert_true(r.concurrency == 1);
    assert_int_equal(engine_max_batch(&s, (engine_plan){1, 1, 1, 1}, 100000), 319);
    assert_int_equal(engine_max_batch(&s, (engine_plan){1, 1, 1, 1}, 100), 100);
    s.prompt = 1000;
    s.gen = 250;
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_int_equal(r.max_concurrency, 323);
    s.batch = 323;
    assert_true(eval_plan(&s, 1, 1, 1, 1).fits);
    s.batch = 324; /* contiguous KV would fit up to 326 */
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_true(r.mem.fits);
    assert_false(r.fits);
    assert_string_equal(r.reason, "324 sequences need 79 KV blocks of 16 tokens each, room for 323");
    /* --batch max: the plan runs at its own max_concurrency (below the
     * framework's max_num_seqs here: test_batch_max_num_seqs has the cap) */
    f.max_num_seqs = 4096;
    s.batch = 1;
    s.batch_max = 1;
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_int_equal(r.batch, 323);
    assert_int_equal(r.batch_bound, ENGINE_BATCH_CAPACITY);
    assert_true(r.fits);
    s.batch = 323;
    s.batch_max = 0;
    engine_result r323 = eval_plan(&s, 1, 1, 1, 1);
    assert_near(r.itl_s, r323.itl_s, 0);
    assert_near(r.tokens_per_s, r323.tokens_per_s, 0);
}

/* Local layers' KV under a framework that allocates whole sequences for
 * them (engine_framework.local_kv_full: TensorRT-LLM's KVCacheManager,
 * max_attention_window_vec = [max_seq_len] unless kv_cache_config lists
 * windows).  Llama-3-8B with a 1024-token window and every 4th layer global
 * (test_attention_window), prompt 8000 + 2: 4096 B a token and layer.  The
 * window only: 8 x 8002 + 24 x 1024 tokens; whole sequences: 32 x 8002,
 * the local part 24 x 8002.  Decode attention still reads the window.  In
 * the paged setup of test_kv_capacity_paged (room 53734834432 B, 513024 B
 * of fp32 logits a sequence, prefill chunks of 8192 tokens at batch >= 2):
 * a sequence takes 8 x 501 + 24 x 64 = 5544 layer-blocks of 65536 B with
 * the window, 147 sequences (53734834432 / 363844608 = 147.7), and
 * 32 x 501 = 16032 without, 51 (53734834432 / 1051186176 = 51.1).  The
 * scenario's switch overrides the profile's both ways. */
static void test_local_kv_full(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_model m = tm_llama3_8b();
    m.window = 1024;
    m.global_every = 4;
    engine_scenario s = ts_on_h100(&fx, m, 1);
    engine_framework f = fw_test();
    f.mem_rule = ENGINE_MEM_TOTAL;
    f.mem_fraction = 0.9;
    f.runtime_bytes = 1.5e9;
    f.max_num_tokens = 8192;
    s.framework = &f;
    s.prompt = 8000;
    s.gen = 2;
    const double tok = 4096;
    assert_int_equal(engine_scenario_local_kv_full(&s), 0);
    engine_result rw = eval_plan(&s, 1, 1, 1, 1);
    assert_near(rw.mem.kv_bytes, (8 * 8002.0 + 24 * 1024.0) * tok, 1e-12);
    assert_near(rw.mem.kv_local_bytes, 24 * 1024.0 * tok, 1e-12);
    assert_int_equal(rw.max_concurrency, 147);
    f.local_kv_full = 1;
    assert_int_equal(engine_scenario_local_kv_full(&s), 1);
    engine_result rf = eval_plan(&s, 1, 1, 1, 1);
    assert_near(rf.mem.kv_bytes, 32 * 8002.0 * tok, 1e-12);
    assert_near(rf.mem.kv_local_bytes, 24 * 8002.0 * tok, 1e-12);
    assert_int_equal(rf.max_concurrency, 51);
    assert_near(rf.decode.attn_s, rw.decode.attn_s, 1e-15);
    assert_near(rf.itl_s, rw.itl_s, 1e-15);
    s.local_kv_full = ENGINE_GRAPHS_OFF; /* the run lists its windows */
    assert_int_equal(eval_plan(&s, 1, 1, 1, 1).max_concurrency, 147);
    f.local_kv_full = 0;
    s.local_kv_full = ENGINE_GRAPHS_ON;
    assert_int_equal(eval_plan(&s, 1, 1, 1, 1).max_concurrency, 51);
    s.local_kv_full = ENGINE_GRAPHS_COUNT;
    engine_result bad;
    engine_error err;
    assert_int_not_equal(engine_evaluate(&s, (engine_plan){1, 1, 1, 1}, &bad, &err), 0);
    assert_string_equal(err.msg, "scenario: local_kv_full: must be default, on or off");
}

/* A replica runs at most max_num_seqs sequences (vLLM max_num_seqs,
 * SGLang max_running_requests, TensorRT-LLM max_batch_size): the plan of
 * test_kv_capacity_paged, whose KV cache holds 319 sequences of 1024 + 256
 * tokens, is timed at 256 under a profile capped at 256 (generic, vLLM)
 * with --batch max, and at its 319 under one capped at 4096 (SGLang).
 * The scenario's max_num_seqs overrides the profile's; a given batch is
 * never capped. */
static void test_batch_max_num_seqs(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_scenario s = ts_on_h100(&fx, tm_llama3_8b(), 1);
    engine_framework f = fw_vllm_memory();
    f.max_num_seqs = 256;
    s.framework = &f;
    assert_int_equal(engine_max_num_seqs(&s), 256);
    assert_int_equal(engine_max_num_seqs(NULL), 256); /* the generic profile's */
    s.batch = 256;
    engine_result r256 = eval_plan(&s, 1, 1, 1, 1);
    assert_int_equal(r256.batch_bound, ENGINE_BATCH_GIVEN);
    s.batch = 319;
    engine_result r319 = eval_plan(&s, 1, 1, 1, 1);
    assert_true(r319.fits && r319.itl_s > r256.itl_s); /* 63 more sequences a step */
    assert_int_equal(r319.batch, 319); /* a given batch is never capped */
    assert_int_equal(r319.batch_bound, ENGINE_BATCH_GIVEN);
    s.batch = 1;
    s.batch_max = 1;
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    assert_int_equal(r.max_concurrency, 319); /* still what the KV cache holds */
    assert_int_equal(r.batch, 256);
    assert_int_equal(r.max_num_seqs, 256);
    assert_int_equal(r.batch_bound, ENGINE_BATCH_MAX_NUM_SEQS);
    assert_true(r.concurrency == 256);
    assert_near(r.tokens_per_s, r256.tokens_per_s, 0);
    assert_near(r.itl_s, r256.itl_s, 0);
    engine_explain x;
    assert_int_equal(engine_explain_plan(&s, (engine_plan){1, 1, 1, 1}, &x, NULL), 0);
    assert_int_equal(x.batch, 256);
    assert_int_equal(x.batch_bound, ENGINE_BATCH_MAX_NUM_SEQS);
    assert_int_equal(x.max_concurrency, 319);
    assert_int_equal(x.max_num_seqs, 256);
    f.max_num_seqs = 4096; /* SGLang's */
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_int_equal(r.batch, 319);
    assert_int_equal(r.batch_bound, ENGINE_BATCH_CAPACITY);
    assert_near(r.tokens_per_s, r319.tokens_per_s, 0);
    assert_int_equal(engine_explain_plan(&s, (engine_plan){1, 1, 1, 1}, &x, NULL), 0);
    assert_int_equal(x.batch, 319);
    assert_int_equal(x.batch_bound, ENGINE_BATCH_CAPACITY);
    /* the scenario's own limit (--max-num-seqs) wins over the profile's */
    s.max_num_seqs = 100;
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_int_equal(r.batch, 100);
    assert_int_equal(r.max_num_seqs, 100);
    assert_int_equal(r.batch_bound, ENGINE_BATCH_MAX_NUM_SEQS);
    f.max_num_seqs = 256;
    s.max_num_seqs = 512;
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_int_equal(r.batch, 319);
    assert_int_equal(r.max_num_seqs, 512);
}

/* total_concurrency C on dp 2 of test_batch_max_num_seqs's plan: a replica
 * runs at most max_num_seqs, the rest queue: C = 600 puts 256 on each
 * replica and queues 88 (a warning); C = 500 runs 250 each. */
static void test_batch_max_num_seqs_concurrency(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_scenario s = ts_on_h100(&fx, tm_llama3_8b(), 2);
    engine_framework f = fw_vllm_memory();
    f.max_num_seqs = 256;
    s.framework = &f;
    s.batch = 256;
    engine_result d256 = eval_plan(&s, 1, 1, 2, 1);
    engine_result r;
    s.total_concurrency = 600;
    r = eval_plan(&s, 1, 1, 2, 1);
    assert_int_equal(r.batch, 256);
    assert_int_equal(r.batch_bound, ENGINE_BATCH_MAX_NUM_SEQS);
    assert_true(r.concurrency == 512);
    assert_true(r.queued == 88);
    assert_true(r.warnings & ENGINE_WARN_QUEUED);
    assert_near(r.tokens_per_s, d256.tokens_per_s, 0);
    assert_near(r.ttft_s, d256.ttft_s, 0);
    s.total_concurrency = 500;
    r = eval_plan(&s, 1, 1, 2, 1);
    assert_int_equal(r.batch, 250);
    assert_int_equal(r.batch_bound, ENGINE_BATCH_CONCURRENCY);
    assert_true(r.concurrency == 500 && r.queued == 0);
    assert_false(r.warnings & ENGINE_WARN_QUEUED);
    /* a limit out of range is refused by name */
    engine_error err;
    s.max_num_seqs = -1;
    assert_int_equal(engine_evaluate(&s, (engine_plan){1, 1, 2, 1}, &r, &err), -1);
    assert_non_null(strstr(err.msg, "max_num_seqs"));
}

/* Local-attention layers keep their window's blocks: Llama-3-8B with a
 * 1024-token window on 3 layers of 4, prompt 8000 + gen 256 = 8256 tokens:
 * 8 global layers x 516 blocks + 24 local x 64 blocks, 65536 B a block-layer
 * (16 x 4096 B) = 371195904 B a sequence.  Room as in test_kv_capacity_paged:
 * 53734834432 - 513024 B per sequence -> 144 sequences (49 without the
 * window: 32 x 516 blocks); beside 144 workspaces 25587 blocks of all 32
 * layers = 409392 tokens. */
static void test_kv_capacity_window(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_scenario s = ts_on_h100(&fx, tm_llama3_8b(), 1);
    engine_framework f = fw_vllm_memory();
    s.framework = &f;
    s.prompt = 8000;
    s.gen = 256;
    s.max_model_len = 16384; /* past the model's 8192 */
    assert_int_equal(eval_plan(&s, 1, 1, 1, 1).max_concurrency, 49);
    fx.m.window = 1024;
    fx.m.global_every = 4;
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    assert_int_equal(r.max_concurrency, 144);
    assert_near(r.kv_capacity_tokens, 409392, 0);
    s.batch = 144;
    assert_true(eval_plan(&s, 1, 1, 1, 1).fits);
    s.batch = 145;
    assert_false(eval_plan(&s, 1, 1, 1, 1).fits);
}

/* total_concurrency spreads C sequences over the replicas: C = 5 on dp 2
 * puts 3 on the first and 2 on the second; the most loaded one sets TTFT
 * and ITL, tokens/s is the sum of both replicas' own, cost follows. */
static void test_total_concurrency(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    engine_gpu g = tg_h100();
    g.price_per_hour = 2.0;
    engine_link l = tl_link(0, 300);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 2);
    s.batch = 3;
    engine_result r3 = eval_plan(&s, 1, 1, 2, 1);
    s.batch = 2;
    engine_result r2 = eval_plan(&s, 1, 1, 2, 1);
    s.batch = 1;
    s.total_concurrency = 5;
    engine_result r = eval_plan(&s, 1, 1, 2, 1);
    assert_int_equal(r.batch, 3);
    assert_true(r.concurrency == 5);
    assert_near(r.itl_s, r3.itl_s, 0);
    assert_near(r.ttft_s, r3.ttft_s, 0);
    assert_near(r.e2e_s, r3.e2e_s, 0);
    double tps = (r3.tokens_per_s + r2.tokens_per_s) / 2;
    assert_near(r.tokens_per_s, tps, 1e-12);
    assert_near(r.cost_per_mtok_usd, 2 * 2.0 / (tps * 3600.0) * 1e6, 1e-12);
    assert_near(r.efficiency, r3.efficiency * tps / r3.tokens_per_s, 1e-12);
    /* even: C = 4 is 2 per replica, the same as batch 2 */
    s.total_concurrency = 4;
    r = eval_plan(&s, 1, 1, 2, 1);
    assert_int_equal(r.batch, 2);
    assert_near(r.tokens_per_s, r2.tokens_per_s, 0);
    /* C below dp: one replica idle, half the tokens of batch 1 on both */
    s.batch = 1;
    s.total_concurrency = 0;
    engine_result r1 = eval_plan(&s, 1, 1, 2, 1);
    s.total_concurrency = 1;
    r = eval_plan(&s, 1, 1, 2, 1);
    assert_int_equal(r.batch, 1);
    assert_near(r.tokens_per_s, r1.tokens_per_s / 2, 1e-12);
    /* the one-GPU plan takes all five */
    s.total_concurrency = 5;
    s.gpus = 1;
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_int_equal(r.batch, 5);
    engine_error err;
    s.total_concurrency = -1;
    assert_int_equal(engine_evaluate(&s, (engine_plan){1, 1, 1, 1}, &r, &err), -1);
    assert_non_null(strstr(err.msg, "total_concurrency"));
}

/* A framework whose host loop does not overlap the GPU adds its per-step
 * and per-sequence costs to every decode step; an overlapping one pays only
 * what the GPU cannot hide. */
static void test_host_step(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_scenario s = ts_on_h100(&fx, tm_llama3_8b(), 1);
    s.batch = 4;
    engine_framework f = fw_test();
    f.step_s = 540e-6;
    f.seq_step_s = 12.7e-6;
    f.overlap = 0;
    s.framework = &f;
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    hand_step dc = {&fx.m, &fx.g, ENGINE_FP16, 1, 4, 1, 1152, 1, 0};
    double gpu = hand_all(&dc, 32);
    assert_near(r.itl_s, gpu + 540e-6 + 4 * 12.7e-6, 1e-9);
    assert_near(r.decode.step_s, 540e-6 + 4 * 12.7e-6, 1e-12);
    f.overlap = 1;
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_near(r.itl_s, gpu, 1e-9); /* 591 us of host work hides under ~6.8 ms */
    f.step_s = 10e-3;                 /* a host loop slower than the GPU sets the pace */
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_near(r.itl_s, 10e-3 + 4 * 12.7e-6, 1e-9);
}

/* prefill_launch_s: the host's cost of each kernel a prefill step
 * dispatches eagerly (SGLang's Python + PyTorch dispatch, 54 us in its
 * profile), in place of launch_s; decode keeps launch_s (graphs off) or its
 * graph.  One H100, Llama-3-8B, batch 1, a 1-token prompt: 260 kernels
 * (32 layers x 8 + embedding, final norm, LM head, sampling).  At one token
 * every kernel but the 32 gate_up GEMMs (2 x 14336 x 4096 x 2 B = 235 MB
 * over 2680 GB/s = 87.6 us + t0) and the LM head (4096 x 128256 x 2 B =
 * 1.05 GB, 392 us + t0) runs under 54 us, so the prefill costs
 * 227 x 54 us = 12.258 ms + 32 gate_up + the LM head + the 15 us step. */
static void test_prefill_launch(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_scenario s = ts_on_h100(&fx, tm_llama3_8b(), 1);
    s.prompt = 1;
    engine_framework f = fw_test();
    s.framework = &f;
    engine_result base = eval_plan(&s, 1, 1, 1, 1);
    f.prefill_launch_s = 54e-6;
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    hand_step pf = {&fx.m, &fx.g, ENGINE_FP16, 1, 1, 1, 0, 0, 54e-6};
    assert_near(r.ttft_s, hand_all(&pf, 32) + 15e-6, 1e-9);
    hand_step g0 = pf;
    g0.host = 0;
    double gate_up = h_gemm(&g0, 1, 2.0 * 14336, 4096, 2);
    double head = kern(engine_gemm_s(&fx.g, NULL, ENGINE_FP16, 1, 128256, 4096, 2, 2), 0);
    assert_true(gate_up > 54e-6 && head > 54e-6);
    assert_near(r.ttft_s, 227 * 54e-6 + 32 * gate_up + head + 15e-6, 1e-9);
    assert_near(r.ttft_s, 227 * 54e-6 + 32 * 87.6e-6 + 392e-6 + 15e-6, 0.03);
    assert_int_equal(r.prefill.kernels, 260);
    /* against the 5 us launch: only the 227 short kernels pay more, each at
     * most 54 - 5 = 49 us (less where its GPU time is above 5 us) */
    assert_true(r.ttft_s > base.ttft_s && r.ttft_s < base.ttft_s + 227 * 49e-6 + 1e-9);
    /* decode is untouched, with graphs and without (launch_s there) */
    assert_near(r.itl_s, base.itl_s, 1e-15);
    s.cuda_graphs = ENGINE_GRAPHS_OFF;
    engine_result e = eval_plan(&s, 1, 1, 1, 1);
    f.prefill_launch_s = 0;
    engine_result e0 = eval_plan(&s, 1, 1, 1, 1);
    assert_near(e.itl_s, e0.itl_s, 1e-15);
    assert_near(e0.ttft_s, base.ttft_s, 1e-15);
}

/* Piecewise prefill graphs (SGLang --enable-piecewise-cuda-graph, the
 * default after sglang#16331; engine_scenario.prefill_graphs): the kernels
 * inside the pieces cost graph_kernel_s (0 here), those the graphs split
 * at (attention; the KV write, fused into attention in the generic profile)
 * and those after the captured model (LM head, sampler) keep the eager
 * prefill cost.  test_prefill_launch's step (H100, Llama-3-8B, 1 token,
 * 260 kernels): of its 227 kernels under 54 us only the 32 attention
 * kernels and the sampler still pay 54 us; the LM head (392 us) is above
 * it.  So TTFT = the 260 kernels' GPU time + 32 x (54 us - attn) +
 * (54 us - sampler) + the 15 us step: 6.96 ms + 32 x (54 - 18.0) us +
 * (54 - 4.0) us + 15 us = 8.18 ms, against 15.57 ms eager.  Above the
 * captured sizes (prefill_graph_tokens) the step runs eagerly; decode is
 * untouched. */
static void test_prefill_graphs(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_scenario s = ts_on_h100(&fx, tm_llama3_8b(), 1);
    s.prompt = 1;
    engine_framework f = fw_test();
    f.prefill_launch_s = 54e-6;
    f.graph_kernel_s = 0;
    s.framework = &f;
    engine_result eager = eval_plan(&s, 1, 1, 1, 1);
    assert_false(engine_scenario_prefill_graphs(&s));
    s.prefill_graphs = ENGINE_GRAPHS_ON;
    assert_true(engine_scenario_prefill_graphs(&s));
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    hand_step g0 = {&fx.m, &fx.g, ENGINE_FP16, 1, 1, 1, 0, 0, 0};
    double gpu = hand_all(&g0, 32);
    double attn = engine_attn_prefill_s(&fx.g, 1, 1, 0, 32, 8, 128, 128, 2);
    double samp = engine_small_kernel_s(&fx.g, 3.0 * 128256 * 4);
    assert_true(attn < 54e-6 && samp < 54e-6);
    assert_near(r.ttft_s, gpu + 32 * (54e-6 - attn) + (54e-6 - samp) + 15e-6, 1e-9);
    assert_near(r.ttft_s, 8.18e-3, 0.01);
    assert_near(eager.ttft_s, 15.57e-3, 0.01);
    assert_near(gpu, 6.96e-3, 0.01);
    assert_near(attn, 18.0e-6, 0.01);
    assert_int_equal(r.prefill.kernels, 260);
    assert_near(r.prefill.launch_s, 32 * (54e-6 - attn) + (54e-6 - samp), 1e-9);
    assert_near(r.itl_s, eager.itl_s, 1e-15);
    /* the framework's default; OFF over an ON profile */
    s.prefill_graphs = ENGINE_GRAPHS_DEFAULT;
    f.prefill_graphs = 1;
    assert_near(eval_plan(&s, 1, 1, 1, 1).ttft_s, r.ttft_s, 1e-15);
    s.prefill_graphs = ENGINE_GRAPHS_OFF;
    assert_near(eval_plan(&s, 1, 1, 1, 1).ttft_s, eager.ttft_s, 1e-15);
    /* a step above the largest captured size runs eagerly */
    s.prefill_graphs = ENGINE_GRAPHS_ON;
    s.prompt = 1024;
    f.prefill_graph_tokens = 1024;
    engine_result in = eval_plan(&s, 1, 1, 1, 1);
    f.prefill_graph_tokens = 1023;
    engine_result over = eval_plan(&s, 1, 1, 1, 1);
    s.prefill_graphs = ENGINE_GRAPHS_OFF;
    engine_result off = eval_plan(&s, 1, 1, 1, 1);
    assert_near(over.ttft_s, off.ttft_s, 1e-15);
    assert_true(in.ttft_s < off.ttft_s);
    /* the cap: prefill_graph_tokens, else max_num_tokens (SGLang's
     * chunked_prefill_size), MLA models prefill_graph_mla_tokens */
    engine_model mla = fx.m;
    f.prefill_graph_tokens = 0;
    f.max_num_tokens = 8192;
    f.prefill_graph_mla_tokens = 2048;
    assert_int_equal(engine_prefill_graph_tokens(&f, &fx.m), 8192);
    mla.mla = 1; /* the engine's MLA flag, as the loader sets it */
    mla.kv_lora_rank = 512;
    assert_int_equal(engine_prefill_graph_tokens(&f, &mla), 2048);
    f.prefill_graph_mla_tokens = 0;
    assert_int_equal(engine_prefill_graph_tokens(&f, &mla), 8192);
    s.prefill_graphs = ENGINE_GRAPHS_COUNT;
    engine_error err;
    assert_int_equal(engine_scenario_check(&s, &err), -1);
    assert_non_null(strstr(err.msg, "prefill_graphs"));
}

/* engine_scenario.host_overlap overrides the profile's overlap either way
 * (vLLM V1 --async-scheduling on a profile that adds its host work): ON
 * hides the 591 us under the ~6.8 ms GPU step, OFF adds it to an
 * overlapping profile's, DEFAULT follows the profile; the load simulation's
 * step (engine_step_s) obeys it too. */
static void test_host_overlap_override(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_scenario s = ts_on_h100(&fx, tm_llama3_8b(), 1);
    s.batch = 4;
    engine_framework f = fw_test();
    f.step_s = 540e-6;
    f.seq_step_s = 12.7e-6;
    f.overlap = 0;
    s.framework = &f;
    hand_step dc = {&fx.m, &fx.g, ENGINE_FP16, 1, 4, 1, 1152, 1, 0};
    double gpu = hand_all(&dc, 32);
    double host = 540e-6 + 4 * 12.7e-6;
    assert_int_equal(engine_scenario_host_overlap(&s), 0);
    s.host_overlap = ENGINE_GRAPHS_ON;
    assert_int_equal(engine_scenario_host_overlap(&s), 1);
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    assert_near(r.itl_s, gpu, 1e-9);
    assert_near(r.decode.step_s, 0, 1e-15);
    f.overlap = 1;
    s.host_overlap = ENGINE_GRAPHS_OFF;
    assert_int_equal(engine_scenario_host_overlap(&s), 0);
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_near(r.itl_s, gpu + host, 1e-9);
    s.host_overlap = ENGINE_GRAPHS_DEFAULT;
    assert_int_equal(engine_scenario_host_overlap(&s), 1);
    s.framework = NULL; /* the generic profile overlaps */
    assert_int_equal(engine_scenario_host_overlap(&s), 1);
}

/* engine_scenario.framework_version picks the profile's host_loop entry for
 * that engine generation (vLLM V0's measured 1167 us + 100.4 us a sequence,
 * hand-set here) in place of step_s + seq_step_s; DEFAULT and a generation
 * the profile lacks keep step_s, and engine_scenario_check refuses the
 * latter, naming the field (the load simulation's step: test_step.c). */
static void test_framework_version_host_loop(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_scenario s = ts_on_h100(&fx, tm_llama3_8b(), 1);
    s.batch = 4;
    engine_framework f = fw_test();
    f.step_s = 540e-6;
    f.seq_step_s = 12.7e-6;
    f.overlap = 0;
    f.host_loop[ENGINE_FWV_V0] = (engine_host_loop){1, 1167e-6, 100.4e-6, "", 0, 0, 0, 0};
    s.framework = &f;
    hand_step dc = {&fx.m, &fx.g, ENGINE_FP16, 1, 4, 1, 1152, 1, 0};
    double gpu = hand_all(&dc, 32);
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    assert_near(r.itl_s, gpu + 540e-6 + 4 * 12.7e-6, 1e-9); /* 590.8 us of host */
    s.framework_version = ENGINE_FWV_V0;
    double st, sq;
    engine_scenario_host_loop(&s, &st, &sq);
    assert_near(st, 1167e-6, 1e-15);
    assert_near(sq, 100.4e-6, 1e-15);
    engine_error err = {{0}};
    assert_int_equal(engine_scenario_check(&s, &err), 0);
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_near(r.itl_s, gpu + 1167e-6 + 4 * 100.4e-6, 1e-9); /* 1568.6 us */
    s.framework_version = ENGINE_FWV_V06; /* not in this profile: step_s, refused */
    engine_scenario_host_loop(&s, &st, &sq);
    assert_near(st, 540e-6, 1e-15);
    assert_near(sq, 12.7e-6, 1e-15);
    assert_int_equal(engine_scenario_check(&s, &err), -1);
    assert_non_null(strstr(err.msg, "framework_version: the"));
    assert_non_null(strstr(err.msg, "has no host_loop \"v0.6\""));
    assert_string_equal(engine_fw_version_name(ENGINE_FWV_V06), "v0.6");
    assert_int_equal(engine_fw_version_parse("v1"), ENGINE_FWV_V1);
    assert_int_equal(engine_fw_version_parse("0.5"), ENGINE_FWV_V0);
    assert_int_equal(engine_fw_version_parse("v2"), -1);
}

/* A framework's custom all-reduce replaces NCCL for small messages inside
 * one NVLink domain: its fixed cost + 2 (n-1)/n M / BW. */
static void test_custom_allreduce(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0.77e-6, 367);
    l.base_s = 4.9e-6;
    l.kind = ENGINE_LINK_NVLINK;
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 4);
    engine_framework f = fw_test();
    s.framework = &f;
    engine_result nccl = eval_plan(&s, 4, 1, 1, 1);
    double ar_nccl = 4.9e-6 + 6 * 0.77e-6 + 1.5 * 8192 / 367e9;
    double gather = engine_comm_time(ENGINE_OP_ALLGATHER, &l, NULL, 4, 0, 128256.0 * 4);
    assert_near(nccl.decode_comm_s, 65 * ar_nccl + gather, 1e-9);
    f.custom_ar_max_bytes = 8 << 20;
    f.custom_ar_s = 6e-6;
    engine_result cust = eval_plan(&s, 4, 1, 1, 1);
    double ar_c = 6e-6 + 1.5 * 8192 / 367e9;
    assert_near(cust.decode_comm_s, 65 * ar_c + gather, 1e-9);
    /* Prefill is launched eagerly: every collective also pays the link's
     * eager cost (host launch and synchronisation) on top of its time. */
    l.kind = ENGINE_LINK_NVLINK;
    f.custom_ar_max_bytes = 0;
    l.eager_s = 10e-6;
    engine_result eg = eval_plan(&s, 4, 1, 1, 1);
    double ar_pf = 4.9e-6 + 6 * 0.77e-6 + 1.5 * 1024 * 8192 / 367e9;
    assert_near(eg.prefill_comm_s, 65 * (ar_pf + 10e-6) + gather + 10e-6, 1e-9);
    assert_near(eg.decode_comm_s, nccl.decode_comm_s, 1e-12); /* graphs: no eager cost */
    l.eager_s = 0;
    f.custom_ar_max_bytes = 8 << 20;
    /* not over PCIe: NCCL again */
    l.kind = ENGINE_LINK_PCIE;
    engine_result pcie = eval_plan(&s, 4, 1, 1, 1);
    assert_near(pcie.decode_comm_s, nccl.decode_comm_s, 1e-12);
}

/* Upstream vLLM's V0 engine runs no custom all-reduce on ROCm GPUs
 * (host_loop custom_allreduce_off_xgmi): at that generation every TP
 * all-reduce over xGMI is the collective library's; the profile's own
 * generation (default) and NVLink keep the custom kernel. */
static void test_custom_allreduce_xgmi_v0(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0.77e-6, 367);
    l.base_s = 4.9e-6;
    l.kind = ENGINE_LINK_XGMI;
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 4);
    engine_framework f = fw_test();
    f.custom_ar_max_bytes = 8 << 20;
    f.custom_ar_s = 6e-6;
    f.host_loop[ENGINE_FWV_V06] = (engine_host_loop){1, 0, 0, "", 1, 0, 0, 0};
    s.framework = &f;
    double gather = engine_comm_time(ENGINE_OP_ALLGATHER, &l, NULL, 4, 0, 128256.0 * 4);
    double ar_nccl = 4.9e-6 + 6 * 0.77e-6 + 1.5 * 8192 / 367e9; /* 9.52 us */
    double ar_c = 6e-6 + 1.5 * 8192 / 367e9;                     /* 6.03 us */
    engine_result cust = eval_plan(&s, 4, 1, 1, 1);
    assert_near(cust.decode_comm_s, 65 * ar_c + gather, 1e-9);
    s.framework_version = ENGINE_FWV_V06;
    engine_result v06 = eval_plan(&s, 4, 1, 1, 1);
    assert_near(v06.decode_comm_s, 65 * ar_nccl + gather, 1e-9);
    /* the rule is ROCm's: over NVLink the same generation keeps its kernel */
    l.kind = ENGINE_LINK_NVLINK;
    engine_result nv = eval_plan(&s, 4, 1, 1, 1);
    assert_near(nv.decode_comm_s, 65 * ar_c + gather, 1e-9);
}

/* The context limit: prompt + gen beyond the model's context (or the
 * scenario's max_model_len) makes every plan invalid, with the reason. */
static void test_context_limit(void **state)
{
    (void)state;
    engine_model m = tm_gpt2(); /* 1024 tokens */
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0, 300);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 1);
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    assert_false(r.valid);
    assert_string_equal(r.reason, "prompt + gen = 1280 tokens exceeds the context of 1024");
    s.prompt = 768;
    assert_true(eval_plan(&s, 1, 1, 1, 1).valid);
    s.max_model_len = 1000;
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_string_equal(r.reason, "prompt + gen = 1024 tokens exceeds the context of 1000");
    s.max_model_len = 4096; /* a user override above the config */
    s.prompt = 2048;
    assert_true(eval_plan(&s, 1, 1, 1, 1).valid);
    assert_int_equal(engine_context_limit(&s), 4096);
}

/* A tied LM head is the embedding matrix, held once, but its GEMM still
 * runs every step. */
static void test_tied_head(void **state)
{
    (void)state;
    engine_model tied = tm_gpt2(), untied = tm_gpt2();
    untied.tied_embeddings = 0;
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0, 300);
    engine_scenario s;
    ts_scenario(&s, &tied, &g, &l, 1);
    s.prompt = 512;
    engine_result a = eval_plan(&s, 1, 1, 1, 1);
    s.model = &untied;
    engine_result b = eval_plan(&s, 1, 1, 1, 1);
    assert_near(a.itl_s, b.itl_s, 1e-12);
    assert_near(b.mem.weights_bytes - a.mem.weights_bytes, 50257.0 * 768 * 2, 1e-9);
    assert_int_equal(a.decode.kernels, b.decode.kernels);
}

/* Models a and b cost the same in scenario s on TP8 x EP8: the same ITL
 * and weights. */
static void assert_same_cost(engine_scenario *s, const engine_model *a, const engine_model *b)
{
    s->model = a;
    engine_result ra = eval_plan(s, 8, 1, 1, 8);
    s->model = b;
    engine_result rb = eval_plan(s, 8, 1, 1, 8);
    assert_near(ra.itl_s, rb.itl_s, 1e-15);
    assert_near(ra.mem.weights_bytes, rb.mem.weights_bytes, 1e-3);
}

/* DeepSeek-V3 on 8 GPUs of 1000 GB at FP4 weights, 1024 + 128 tokens: the
 * scenario of the checkpoint-precision tests below. */
typedef struct dsv3_fix {
    engine_gpu g;
    engine_link l;
} dsv3_fix;

static void dsv3_fp4_tp8(engine_scenario *s, dsv3_fix *f, const engine_model *m)
{
    f->g = tg_with_memory(1000);
    f->l = tl_link(2e-6, 900);
    ts_scenario(s, m, &f->g, &f->l, 8);
    s->weight_dtype = ENGINE_FP4;
    s->prompt = 1024;
    s->gen = 128;
}

/* attn_16bit_fp4: NVIDIA's NVFP4 DeepSeek-R1 keeps the attention modules in
 * BF16 (TensorRT-LLM blog1 Precision Strategy; NVIDIA/Model-Optimizer#150:
 * "the proj weights in the transformer attention section are stored in
 * BF16").  Under FP4 weights the flag is attn_16bit exactly; under FP8 it
 * changes nothing; the attention weights weigh 2 B a weight, not FP4's
 * 0.5625 (blocks of 16 with an FP8 scale). */
static void test_attn_16bit_fp4(void **state)
{
    (void)state;
    engine_model plain = tm_deepseek_v3(), fp4 = plain, a16 = plain;
    fp4.attn_16bit_fp4 = 1;
    a16.attn_16bit = 1;
    engine_scenario s;
    dsv3_fix f;
    dsv3_fp4_tp8(&s, &f, &plain);
    assert_same_cost(&s, &fp4, &a16);
    s.model = &plain;
    engine_result rp = eval_plan(&s, 8, 1, 1, 8);
    s.model = &fp4;
    engine_result rf = eval_plan(&s, 8, 1, 1, 8);
    /* MLA's projections a layer: the down projections q_a 7168 x 1536 and
     * kv_a 7168 x 576 whole on every rank, q_b 1536 x 128 x 192, kv_b 512 x
     * 128 x 256 and o 128 x 128 x 7168 split 8 ways: 15.14 M + 21.49 M =
     * 36.63 M weights a layer a rank, over 61 layers, 2 - 0.5625 B more each */
    double down = 7168.0 * 1536 + 7168.0 * 576;
    double split = (1536.0 * 128 * 192 + 512.0 * 128 * 256 + 128.0 * 128 * 7168) / 8;
    assert_near(down + split, 36.63e6, 0.01e6);
    double d = rf.mem.weights_bytes - rp.mem.weights_bytes;
    assert_near(d, 61 * (down + split) * (2.0 - engine_weight_elem_bytes(ENGINE_FP4, 0)), 1.0);
    s.weight_dtype = ENGINE_FP8;
    assert_same_cost(&s, &plain, &fp4);
}

/* attn_out_fp4 (NVIDIA's DeepSeek-R1-0528-NVFP4-v2: "additionally quantizes
 * the wo module in attention layers"): under FP4 only the q and kv
 * projections stay BF16; the output projection, 128 x 128 x 7168 split 8
 * ways = 14.68 M weights a layer a rank, weighs FP4's 0.5625 B, and its
 * GEMM runs at the FP4 rate.  Under FP8, or with attn_16bit (every
 * quantized dtype keeps all of attention 16-bit), it changes nothing. */
static const engine_explain_item *step_item(const engine_explain_step *st, const char *name)
{
    for (int i = 0; i < st->n; i++)
        if (!strcmp(st->item[i].name, name))
            return &st->item[i];
    return NULL;
}

static void test_attn_out_fp4(void **state)
{
    (void)state;
    engine_model a16 = tm_deepseek_v3(), v2 = a16;
    a16.attn_16bit_fp4 = 1;
    v2.attn_16bit_fp4 = 1;
    v2.attn_out_fp4 = 1;
    engine_scenario s;
    dsv3_fix f;
    dsv3_fp4_tp8(&s, &f, &a16);
    engine_result r16 = eval_plan(&s, 8, 1, 1, 8);
    s.model = &v2;
    engine_result rv2 = eval_plan(&s, 8, 1, 1, 8);
    double o = 128.0 * 128 * 7168 / 8;
    assert_near(o, 14.68e6, 0.01e6);
    double d = r16.mem.weights_bytes - rv2.mem.weights_bytes;
    assert_near(d, 61 * o * (2.0 - engine_weight_elem_bytes(ENGINE_FP4, 0)), 1.0);
    /* the output projection's own GEMM in the explain: BF16 bytes, then FP4's */
    engine_explain x16, xv2;
    s.model = &a16;
    assert_int_equal(engine_explain_plan(&s, (engine_plan){8, 1, 1, 8}, &x16, NULL), 0);
    s.model = &v2;
    assert_int_equal(engine_explain_plan(&s, (engine_plan){8, 1, 1, 8}, &xv2, NULL), 0);
    const engine_explain_item *o16 = step_item(&x16.decode, "attn out");
    const engine_explain_item *ov2 = step_item(&xv2.decode, "attn out");
    assert_non_null(o16);
    assert_non_null(ov2);
    /* 61 layers x 14.68 M weights: 1.79 GB at 2 B, 0.50 GB at 0.5625 B, plus
     * the same activations either way */
    assert_near(o16->bytes - ov2->bytes, 61 * o * (2.0 - 0.5625), 1e3);
    s.weight_dtype = ENGINE_FP8;
    assert_same_cost(&s, &a16, &v2);
    engine_model all16 = v2;
    all16.attn_16bit = 1;
    engine_model all16_v1 = a16;
    all16_v1.attn_16bit = 1;
    s.weight_dtype = ENGINE_FP4;
    assert_same_cost(&s, &all16, &all16_v1);
}

/* 4-bit weights with group scales: GPTQ g128 stores 0.5 + 2.5/128 B per
 * weight in the blocks; a group of 32 costs more. */
static void test_int4_weights(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 1);
    s.weight_dtype = ENGINE_INT4;
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    const double emb = 128256.0 * 4096, norms = 65 * 4096.0;
    const double lin = 8030261248.0 - 2 * emb - norms;
    assert_near(r.mem.weights_bytes, lin * (0.5 + 2.5 / 128) + (norms + 2 * emb) * 2, 1e-12);
    s.quant_group = 32;
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_near(r.mem.weights_bytes, lin * (0.5 + 2.5 / 32) + (norms + 2 * emb) * 2, 1e-12);
    /* a checkpoint's own format applies when the scenario keeps fp16 */
    engine_model q = f.m;
    q.has_weight_dtype = 1;
    q.weight_dtype = ENGINE_FP8;
    s.model = &q;
    s.weight_dtype = ENGINE_FP16;
    s.quant_group = 0;
    assert_int_equal(engine_scenario_weight_dtype(&s), ENGINE_FP8);
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_near(r.mem.weights_bytes, lin + (norms + 2 * emb) * 2, 1e-12);
    /* ... but fp16 the user chose (--dtype fp16, the explorer's control) is
     * honoured: all 8.03 B weights at 2 bytes */
    s.weight_dtype_set = 1;
    assert_int_equal(engine_scenario_weight_dtype(&s), ENGINE_FP16);
    r = eval_plan(&s, 1, 1, 1, 1);
    assert_near(r.mem.weights_bytes, 8030261248.0 * 2, 1e-12);
}

/* TP beyond the NVLink domain is flagged. */
static void test_cross_node_warnings(void **state)
{
    (void)state;
    engine_model m = tm_llama3_70b();
    engine_gpu g = tg_h100();
    engine_link nv = tl_link(0.77e-6, 367), ib = tl_link(5e-6, 50);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &nv, 16);
    s.inter = &ib;
    s.gpus_per_node = 8;
    engine_result r = eval_plan(&s, 16, 1, 1, 1);
    assert_true(r.warnings & ENGINE_WARN_TP_CROSS_NODE);
    assert_non_null(engine_warning_text(ENGINE_WARN_TP_CROSS_NODE));
    r = eval_plan(&s, 8, 2, 1, 1);
    assert_int_equal(r.warnings, 0);
    engine_model x = tm_mixtral_8x7b();
    s.model = &x;
    r = eval_plan(&s, 1, 1, 16, 8);
    assert_int_equal(r.warnings, 0); /* 8 GPUs: one node */
    s.gpus_per_node = 4;
    r = eval_plan(&s, 1, 1, 16, 8);
    assert_true(r.warnings & ENGINE_WARN_EP_CROSS_NODE);
}

/* --- ranking and tails ------------------------------------------------- */

static void test_rank_order(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100_over(&f, tm_llama3_70b(), tl_link(3e-6, 367), 8);
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
    ts_fixture f;
    engine_scenario s = ts_on_h100_over(&f, tm_llama3_8b(), tl_link(5e-6, 12), 8);
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
                  (s.gen - 1) * (b.decode_compute_s + b.decode_bubble_s);
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


/* --- speculative decoding ------------------------------------------------ */

/* E = (1 - P^(k+1)) / (1 - P) (Leviathan et al. 2023, eq. 1), by hand. */
static void test_spec_tokens_per_step(void **state)
{
    (void)state;
    /* 1 + 0.75 + 0.5625 + 0.421875 */
    assert_near(engine_spec_tokens_per_step(3, 0.75), 2.734375, 1e-12);
    assert_near(engine_spec_tokens_per_step(1, 0.875), 1.875, 1e-12);
    /* (1 - 0.7^5) / 0.3 = (1 - 0.16807) / 0.3 */
    assert_near(engine_spec_tokens_per_step(4, 0.7), 2.7731, 1e-12);
    assert_true(engine_spec_tokens_per_step(0, 0.9) == 1.0);
    assert_true(engine_spec_tokens_per_step(5, 0.0) == 1.0);
    assert_true(engine_spec_tokens_per_step(3, 1.0) == 4.0);
    /* the inverse: TensorRT-LLM's measured MTP-1 acceptance length 1.92 is P 0.92 */
    assert_near(engine_spec_accept_for_length(1, 1.92), 0.92, 1e-9);
    assert_near(engine_spec_tokens_per_step(3, engine_spec_accept_for_length(3, 2.82)), 2.82,
                1e-9);
    assert_true(engine_spec_accept_for_length(3, 0.5) == 0.0);
    assert_true(engine_spec_accept_for_length(3, 9.0) == 1.0);
    /* every method has a default from its source */
    int k;
    double p;
    engine_spec_default(ENGINE_SPEC_MTP, &k, &p);
    assert_int_equal(k, 1);
    assert_near(p, 0.875, 1e-12);
    engine_spec_default(ENGINE_SPEC_EAGLE, &k, &p);
    assert_int_equal(k, 3);
    assert_near(p, 0.75, 1e-12);
    engine_spec_default(ENGINE_SPEC_DRAFT, &k, &p);
    assert_int_equal(k, 4);
    assert_near(p, 0.70, 1e-12);
    engine_spec_method mm;
    assert_int_equal(engine_spec_method_parse("EAGLE", &mm), 0);
    assert_int_equal(mm, ENGINE_SPEC_EAGLE);
    assert_int_equal(engine_spec_method_parse("medusa", &mm), -1);
    assert_string_equal(engine_spec_method_name(ENGINE_SPEC_MTP), "mtp");
}

/* EAGLE on Llama-3-8B, one H100, batch 1: the verification step runs 4
 * tokens through the model (the cache read once, logits for all 4), each
 * of the 3 drafts one layer of the model's shape after a 2d -> d
 * projection, plus the LM head; ITL = (verify + draft) / E.  k = 0 is the
 * plain decode step; P = 0 pays the drafts and the verification for one
 * token a step. */
static void test_spec_eagle_hand(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 1);
    engine_result plain = eval_plan(&s, 1, 1, 1, 1);
    assert_false(plain.spec.on);
    s.spec_method = ENGINE_SPEC_EAGLE;
    s.spec_k = 3;
    s.spec_accept = 0.75;
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    hand_step vf = {&f.m, &f.g, ENGINE_FP16, 1, 1, 4, 1152, 1, 0};
    double verify = hand_all(&vf, 32);
    hand_step dr = {&f.m, &f.g, ENGINE_FP16, 1, 1, 1, 1152, 1, 0};
    double d = 4096;
    double one = h_small(&dr, 4 * d * 2) + h_gemm(&dr, 1, d, 2 * d, 2) + hand_layer(&dr) +
                 hand_last(&dr);
    assert_true(r.spec.on);
    assert_near(r.spec.verify_s, verify, 1e-9);
    assert_near(r.spec.draft_s, 3 * one, 1e-9);
    assert_near(r.spec.tokens_per_step, 2.734375, 1e-12);
    assert_near(r.itl_s, (verify + 3 * one) / 2.734375, 1e-9);
    /* the verification costs about a plain step (the weights are read once);
     * a draft token is a 1/32 of the layers but the whole 1 GB LM head, so
     * three of them cost a fifth to a third of a step */
    assert_true(r.spec.verify_s < 1.05 * plain.itl_s);
    assert_true(r.spec.draft_s > 0.2 * r.spec.verify_s && r.spec.draft_s < 0.3 * r.spec.verify_s);
    assert_true(r.itl_s < 0.5 * plain.itl_s);
    assert_near(r.e2e_s, r.ttft_s + 255 * r.itl_s, 1e-12);
    assert_near(r.tokens_per_s, 256 / r.e2e_s, 1e-12);
    assert_near(r.ttft_s, plain.ttft_s, 1e-12); /* an EAGLE head adds no prefill */
    const engine_breakdown *b = &r.decode;
    assert_near(b->gemm_s + b->attn_s + b->small_s + b->launch_s + b->step_s + b->tp_s +
                    b->ep_s + b->pp_s + b->bubble_s,
                r.itl_s, 1e-12);
    /* memory: one layer (41943040 + 176160768 params) and the 2d x d projection
     * (33554432) at 2 B, its two norms (2 x 8192 x 2 B); one layer of KV,
     * 2 x 8 x 128 x 2 B a token, for 1280 tokens */
    assert_near(r.mem.spec_weights_bytes, 251658240.0 * 2 + 32768, 1e-12);
    assert_near(r.mem.weights_bytes, plain.mem.weights_bytes + r.mem.spec_weights_bytes, 1e-12);
    assert_near(r.mem.spec_kv_bytes, 4096.0 * 1280, 1e-12);
    assert_near(r.mem.kv_bytes, plain.mem.kv_bytes + 4096.0 * 1280, 1e-12);
    assert_true(r.max_concurrency < plain.max_concurrency);

    /* explained, the decode step is ITL: the verification step's kernels
     * and the draft steps', each over E (test_explain.c has the rest) */
    static engine_explain ex;
    engine_error eerr;
    assert_int_equal(engine_explain_plan(&s, (engine_plan){1, 1, 1, 1}, &ex, &eerr), 0);
    assert_near(ex.decode.total_s, r.itl_s, 1e-12);
    double target_rows = 0;
    for (int i = 0; i < ex.decode.n; i++)
        target_rows += ex.decode.item[i].draft ? 0 : ex.decode.item[i].time_s;
    assert_near(target_rows, r.spec.verify_s / r.spec.tokens_per_step, 1e-9);

    s.spec_k = 0; /* nothing drafted: the plain step */
    engine_result k0 = eval_plan(&s, 1, 1, 1, 1);
    assert_near(k0.itl_s, plain.itl_s, 1e-12);
    assert_true(k0.spec.draft_s == 0 && k0.spec.tokens_per_step == 1.0);
    s.spec_k = 3;
    s.spec_accept = 0; /* every draft rejected: the overhead alone */
    engine_result p0 = eval_plan(&s, 1, 1, 1, 1);
    assert_near(p0.itl_s, verify + 3 * one, 1e-9);
    assert_true(p0.itl_s > plain.itl_s);
}

/* A draft model (a 2-layer Llama-3-8B shape) decodes k = 2 steps of the
 * batch on the target's GPU; its prefill adds to TTFT (eager, without the
 * framework's step cost); its weights and KV cache add to memory. */
static void test_spec_draft_model(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    engine_model dm = tm_llama3_8b();
    dm.layers = 2;
    engine_gpu g = tg_h100();
    engine_link l = tl_link(0, 300);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 1);
    engine_result plain = eval_plan(&s, 1, 1, 1, 1);
    s.spec_method = ENGINE_SPEC_DRAFT;
    s.spec_k = 2;
    s.spec_accept = 0.5;
    engine_error err;
    assert_int_equal(engine_scenario_check(&s, &err), -1); /* no draft model */
    assert_non_null(strstr(err.msg, "spec_draft"));
    s.spec_draft = &dm;
    engine_result r = eval_plan(&s, 1, 1, 1, 1);
    hand_step dd = {&dm, &g, ENGINE_FP16, 1, 1, 1, 1152, 1, 0};
    assert_near(r.spec.draft_s, 2 * hand_all(&dd, 2), 1e-9);
    hand_step vf = {&m, &g, ENGINE_FP16, 1, 1, 3, 1152, 1, 0};
    assert_near(r.spec.verify_s, hand_all(&vf, 32), 1e-9);
    assert_near(r.itl_s, (r.spec.draft_s + r.spec.verify_s) / 1.75, 1e-12);
    hand_step dp = {&dm, &g, ENGINE_FP16, 1, 1, 1024, 0, 0, 5e-6};
    assert_near(r.spec.draft_prefill_s, hand_all(&dp, 2), 1e-9);
    assert_near(r.ttft_s, plain.ttft_s + r.spec.draft_prefill_s, 1e-12);
    assert_int_equal(r.spec.draft_tp, 1);
    assert_near(r.mem.spec_weights_bytes, engine_model_params(&dm) * 2, 1e-12);
    /* 2 layers x 4096 B a token x 1280 tokens */
    assert_near(r.mem.spec_kv_bytes, 2 * 4096.0 * 1280, 1e-12);
}

/* MTP needs the model's own MTP layers (DeepSeek-V3: one); it drafts with
 * one MoE block, so it costs more than EAGLE's dense layer at batch 1 but
 * is far below a target step. */
static void test_spec_mtp(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100_over(&f, tm_llama3_8b(), tl_link(1e-6, 300), 1);
    s.spec_method = ENGINE_SPEC_MTP;
    s.spec_k = 1;
    s.spec_accept = 0.875;
    engine_error err;
    assert_int_equal(engine_scenario_check(&s, &err), -1);
    assert_non_null(strstr(err.msg, "mtp needs a model with MTP layers"));
    engine_model ds = tm_deepseek_v3();
    ds.mtp_layers = 1;
    engine_gpu big = tg_with_memory(2000);
    ts_scenario(&s, &ds, &big, &f.l, 8);
    s.weight_dtype = ENGINE_FP8;
    engine_result plain = eval_plan(&s, 8, 1, 1, 1);
    s.spec_method = ENGINE_SPEC_MTP;
    s.spec_k = 1;
    s.spec_accept = 0.875;
    engine_result r = eval_plan(&s, 8, 1, 1, 1);
    assert_true(r.valid && r.spec.on);
    assert_near(r.spec.tokens_per_step, 1.875, 1e-12);
    assert_true(r.spec.draft_s > 0 && r.spec.draft_s < 0.1 * r.spec.verify_s);
    assert_true(r.itl_s < plain.itl_s);
    assert_true(r.itl_s > plain.itl_s / 1.875);
    /* one MoE block: 256 experts x 3 x 7168 x 2048 weights over 8 GPUs at 1 B */
    assert_true(r.mem.spec_weights_bytes > 256.0 * 3 * 7168 * 2048 / 8);
    assert_true(r.mem.spec_weights_bytes < 1.1 * (256.0 * 3 * 7168 * 2048 / 8) + 0.3e9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params_exact),
        cmocka_unit_test(test_kv_capacity_paged),
        cmocka_unit_test(test_total_concurrency),
        cmocka_unit_test(test_batch_max_num_seqs),
        cmocka_unit_test(test_batch_max_num_seqs_concurrency),
        cmocka_unit_test(test_kv_capacity_window),
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
        cmocka_unit_test(test_parallel_ar_once),
        cmocka_unit_test(test_activation_workspace_hand),
        cmocka_unit_test(test_pp_p2p_hand),
        cmocka_unit_test(test_moe_decode_hand),
        cmocka_unit_test(test_attention_window),
        cmocka_unit_test(test_local_kv_full),
        cmocka_unit_test(test_chunked_attention),
        cmocka_unit_test(test_pipeline_times),
        cmocka_unit_test(test_default_microbatches),
        cmocka_unit_test(test_decode_microbatches),
        cmocka_unit_test(test_invalid_plans),
        cmocka_unit_test(test_huge_degrees),
        cmocka_unit_test(test_moe_ep),
        cmocka_unit_test(test_memory_rules),
        cmocka_unit_test(test_host_step),
        cmocka_unit_test(test_prefill_launch),
        cmocka_unit_test(test_prefill_graphs),
        cmocka_unit_test(test_host_overlap_override),
        cmocka_unit_test(test_framework_version_host_loop),
        cmocka_unit_test(test_custom_allreduce_xgmi_v0),
        cmocka_unit_test(test_custom_allreduce),
        cmocka_unit_test(test_context_limit),
        cmocka_unit_test(test_tied_head),
        cmocka_unit_test(test_attn_16bit_fp4),
        cmocka_unit_test(test_attn_out_fp4),
        cmocka_unit_test(test_int4_weights),
        cmocka_unit_test(test_cross_node_warnings),
        cmocka_unit_test(test_rank_order),
        cmocka_unit_test(test_tails_deterministic),
        cmocka_unit_test(test_more_bandwidth_never_slower),
        cmocka_unit_test(test_slider_extremes),
        cmocka_unit_test(test_spec_tokens_per_step),
        cmocka_unit_test(test_spec_eagle_hand),
        cmocka_unit_test(test_spec_draft_model),
        cmocka_unit_test(test_spec_mtp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
