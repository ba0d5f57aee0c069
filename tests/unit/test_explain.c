/*
 * test_explain.c - engine_explain_plan: the kernels of one prefill and one
 * decode step add up to engine_evaluate's TTFT and ITL, hand-worked GEMM
 * entries (FLOPs 2 m n k, bytes n k wb + (m k + m n) ab) for Llama-3-8B,
 * the bound of each, the collectives that appear only with TP, and the
 * constants with where each came from.
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
#include "validation.h"
#include "support_asserts.h"
#include "support_files.h"
#include "support_models.h"
#include "support_presets.h"

static engine_explain X; /* large: off the stack */

static void explain(const engine_scenario *s, int tp, int pp, int dp, int ep,
                    engine_result *r)
{
    engine_plan p = {tp, pp, dp, ep};
    engine_error err;
    assert_int_equal(engine_evaluate(s, p, r, &err), 0);
    assert_true(r->valid);
    assert_int_equal(engine_explain_plan(s, p, &X, &err), 0);
}

static double step_sum(const engine_explain_step *st)
{
    double t = 0;
    for (int i = 0; i < st->n; i++)
        t += st->item[i].time_s;
    return t;
}

static const engine_explain_item *item(const engine_explain_step *st, const char *name)
{
    for (int i = 0; i < st->n; i++)
        if (strcmp(st->item[i].name, name) == 0)
            return &st->item[i];
    return NULL;
}

static int has_class(const engine_explain_step *st, engine_kclass c)
{
    for (int i = 0; i < st->n; i++)
        if (st->item[i].cls == c)
            return 1;
    return 0;
}

static const engine_explain_const *constant(const char *name)
{
    for (int i = 0; i < X.n_const; i++)
        if (strcmp(X.constant[i].name, name) == 0)
            return &X.constant[i];
    return NULL;
}

/* The items of each step sum to engine_evaluate's TTFT and ITL, on plans
 * with TP, PP (bubble and send/recv), EP, MLA, batch_max and local attention. */
static void test_explain_sums(void **state)
{
    (void)state;
    engine_model models[3] = {tm_llama3_8b(), tm_mixtral_8x7b(), tm_deepseek_v3()};
    engine_gpu g = tg_with_memory(1000);
    engine_link l = tl_link(2e-6, 300);
    struct {
        int tp, pp, dp, ep, batch_max;
    } plans[] = {{1, 1, 1, 1, 0}, {2, 1, 1, 1, 0}, {2, 2, 2, 1, 0}, {1, 4, 2, 1, 0},
                 {2, 1, 4, 8, 0}, {4, 2, 1, 1, 1}};
    for (int mi = 0; mi < 3; mi++) {
        for (size_t pi = 0; pi < sizeof plans / sizeof plans[0]; pi++) {
            if (plans[pi].ep > 1 && models[mi].experts == 0)
                continue;
            engine_scenario s;
            ts_scenario(&s, &models[mi], &g, &l,
                        plans[pi].tp * plans[pi].pp * plans[pi].dp);
            s.batch = 8;
            s.batch_max = plans[pi].batch_max;
            if (mi == 0 && pi == 3) { /* a sliding window on every other layer */
                models[mi].window = 512;
                models[mi].global_every = 2;
            }
            engine_result r;
            explain(&s, plans[pi].tp, plans[pi].pp, plans[pi].dp, plans[pi].ep, &r);
            assert_near(step_sum(&X.prefill), r.ttft_s, 1e-9);
            assert_near(step_sum(&X.decode), r.itl_s, 1e-9);
            assert_near(X.prefill.total_s, r.ttft_s, 1e-12);
            assert_near(X.decode.total_s, r.itl_s, 1e-12);
            assert_int_equal(X.batch, r.batch);
            if (plans[pi].pp > 1) {
                /* prefill waits (pp - 1) stage steps; decode fills the pipe */
                assert_non_null(item(&X.prefill, "pipeline bubble"));
                assert_true(item(&X.prefill, "pp send/recv") ||
                            X.prefill.stage == plans[pi].pp - 1);
            }
            if (plans[pi].ep > 1) {
                assert_non_null(item(&X.decode, "ep dispatch"));
                assert_non_null(item(&X.decode, "ep combine"));
            }
            models[mi].window = 0;
            models[mi].global_every = 0;
        }
    }
}

/* Llama-3-8B on one H100, a 1024-token prompt: the fused QKV projection is
 * 32 GEMMs of m = 1024 tokens, n = (32 + 2 x 8) x 128 = 6144, k = 4096. */
static void test_explain_gemm_hand(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 1);
    engine_result r;
    explain(&s, 1, 1, 1, 1, &r);
    const engine_explain_item *q = item(&X.prefill, "qkv");
    assert_non_null(q);
    assert_int_equal(q->cls, ENGINE_KC_GEMM);
    assert_near(q->count, 32, 0);
    assert_near(q->flops, 32 * 2.0 * 1024 * 6144 * 4096, 1e-12);
    assert_near(q->bytes, 32 * (6144.0 * 4096 * 2 + (1024.0 * 4096 + 1024.0 * 6144) * 2), 1e-12);
    assert_near(q->time_s,
                32 * engine_gemm_s(&f.g, NULL, ENGINE_FP16, 1024, 6144, 4096, 2, 2), 1e-12);
    /* down: n = 4096, k = 14336 */
    const engine_explain_item *d = item(&X.prefill, "down");
    assert_non_null(d);
    assert_near(d->flops, 32 * 2.0 * 1024 * 4096 * 14336, 1e-12);
    /* the LM head runs on the last token only: m = 1, n = 128256 */
    const engine_explain_item *h = item(&X.prefill, "lm_head");
    assert_non_null(h);
    assert_near(h->count, 1, 0);
    assert_near(h->flops, 2.0 * 128256 * 4096, 1e-12);
    /* decode: one token, the same weights */
    q = item(&X.decode, "qkv");
    assert_non_null(q);
    assert_near(q->flops, 32 * 2.0 * 6144 * 4096, 1e-12);
    assert_near(q->bytes, 32 * (6144.0 * 4096 * 2 + (4096.0 + 6144) * 2), 1e-12);
    /* decode kernels: 32 layers x 8 + embedding, final norm, head, sampling */
    double kernels = 0;
    for (int i = 0; i < X.decode.n; i++)
        if (X.decode.item[i].cls <= ENGINE_KC_SMALL)
            kernels += X.decode.item[i].count;
    assert_near(kernels, r.decode.kernels, 0);
    assert_near(kernels, 32 * 8 + 4, 0);
    /* the prefill's host cost is the generic framework's 15 us step */
    const engine_explain_item *hs = item(&X.prefill, "host per step");
    assert_non_null(hs);
    assert_near(hs->time_s, 15e-6, 1e-12);
    /* prefill launches eagerly (5 us): kernels shorter than that wait for it */
    assert_non_null(item(&X.prefill, "launch floor"));
}

/* Batch-1 decode streams the weights (memory-bound); a 4096-token prefill
 * runs the projections at the FLOP rate (compute-bound). */
static void test_explain_bounds(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 1);
    s.prompt = 4096;
    engine_result r;
    explain(&s, 1, 1, 1, 1, &r);
    const char *gemms[] = {"qkv", "attn out", "gate_up", "down"};
    for (int i = 0; i < 4; i++) {
        const engine_explain_item *p = item(&X.prefill, gemms[i]);
        const engine_explain_item *d = item(&X.decode, gemms[i]);
        assert_non_null(p);
        assert_non_null(d);
        assert_int_equal(p->bound, ENGINE_BOUND_COMPUTE);
        assert_int_equal(d->bound, ENGINE_BOUND_MEMORY);
    }
    assert_int_equal(item(&X.decode, "lm_head")->bound, ENGINE_BOUND_MEMORY);
    assert_int_equal(item(&X.decode, "attn decode")->cls, ENGINE_KC_ATTN);
    assert_non_null(item(&X.prefill, "attn prefill"));
    assert_string_equal(engine_bound_name(ENGINE_BOUND_MEMORY), "memory");
    assert_string_equal(engine_kclass_name(ENGINE_KC_COMM), "collective");
}

/* No collective on one GPU; at TP 2 the 2 x 32 layer all-reduces and the
 * embedding's (65 of 4096 x 2 B each: 2 (n-1)/n M / BW on a 0-latency
 * 300 GB/s link) and the logits' all-gather. */
static void test_explain_collectives(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 1);
    engine_result r;
    explain(&s, 1, 1, 1, 1, &r);
    assert_false(has_class(&X.prefill, ENGINE_KC_COMM));
    assert_false(has_class(&X.decode, ENGINE_KC_COMM));
    assert_false(has_class(&X.decode, ENGINE_KC_BUBBLE));
    ts_scenario(&s, &f.m, &f.g, &f.l, 2);
    explain(&s, 2, 1, 1, 1, &r);
    const engine_explain_item *ar = item(&X.decode, "tp all-reduce");
    assert_non_null(ar);
    assert_near(ar->count, 65, 0);
    assert_near(ar->bytes, 65 * 8192.0, 1e-12);
    assert_near(ar->time_s, 65 * 8192.0 / 300e9, 1e-9);
    assert_int_equal(ar->bound, ENGINE_BOUND_BANDWIDTH);
    const engine_explain_item *ag = item(&X.decode, "tp all-gather (logits)");
    assert_non_null(ag);
    assert_near(ag->time_s, 0.5 * 128256.0 * 4 / 300e9, 1e-9);
    assert_near(ar->time_s + ag->time_s, r.decode_comm_s, 1e-9);
    /* a 20 us latency per ring step makes the small decode all-reduce latency-bound */
    f.l = tl_link(20e-6, 300);
    explain(&s, 2, 1, 1, 1, &r);
    assert_int_equal(item(&X.decode, "tp all-reduce")->bound, ENGINE_BOUND_LATENCY);
}

/* The constants with their origin: the GPU preset's fields, the engine's
 * defaults where the preset leaves one out, a calibration's fit. */
static void test_explain_constants(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    engine_gpu g = tg_h100();
    strcpy(g.source, "test H100 datasheet");
    engine_link l = tl_link(0, 300);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 1);
    engine_result r;
    explain(&s, 1, 1, 1, 1, &r);
    const engine_explain_const *c = constant("gemm_rate");
    assert_non_null(c);
    assert_near(c->value, 989e12 * 0.85, 1e-12);
    assert_string_equal(c->unit, "FLOP/s");
    assert_string_equal(c->origin, "gpu preset");
    assert_string_equal(c->source, "test H100 datasheet");
    c = constant("small_kernel_bandwidth"); /* tg_h100 leaves eta_small out */
    assert_non_null(c);
    assert_near(c->value, 3350e9 * 0.6, 1e-12);
    assert_string_equal(c->origin, "engine default");
    c = constant("launch_eager");
    assert_non_null(c);
    assert_near(c->value, 5e-6, 1e-12);
    assert_string_equal(c->origin, "framework profile");
    assert_non_null(constant("link_bandwidth"));
    assert_null(constant("inter_link_bandwidth"));
    assert_null(constant("link_socket_gpus")); /* a switched link has no socket limit */
    l.socket_gpus = 4; /* a PCIe host: a TP ring within one socket does not use it */
    l.cross_socket = 0.8;
    explain(&s, 1, 1, 1, 1, &r);
    assert_null(constant("link_cross_socket"));
    s.gpus = 8; /* a TP8 ring crosses it: listed with the link's source */
    explain(&s, 8, 1, 1, 1, &r);
    s.gpus = 1;
    c = constant("link_cross_socket");
    assert_non_null(c);
    assert_near(c->value, 0.8, 1e-12);
    assert_string_equal(c->origin, "link preset");
    assert_near(constant("link_socket_gpus")->value, 4, 0);
    l.socket_gpus = 0;
    l.cross_socket = 0;
    /* a calibration replaces the 16-bit compute fraction and the GEMM t0 */
    engine_calib cal;
    memset(&cal, 0, sizeof cal);
    cal.measured = 1;
    strcpy(cal.device, "NVIDIA H100 80GB HBM3");
    cal.eta_compute = 0.7;
    cal.layer_overhead_s = 16e-6;
    s.calib = &cal;
    explain(&s, 1, 1, 1, 1, &r);
    c = constant("gemm_rate");
    assert_near(c->value, 989e12 * 0.7, 1e-12);
    assert_string_equal(c->origin, "calibration");
    assert_string_equal(c->source, "NVIDIA H100 80GB HBM3");
    c = constant("gemm_t0");
    assert_near(c->value, 4e-6, 1e-12);
    assert_string_equal(c->origin, "calibration");
    assert_string_equal(constant("gemm_bandwidth")->origin, "gpu preset");
}

/* Speculative decoding: the decode step is the verification of k + 1
 * tokens and the k draft steps over E expected tokens (ITL), a draft
 * model's prefill joins the prefill (TTFT); the draft's kernels are marked. */
static void test_explain_speculation(void **state)
{
    (void)state;
    engine_model m70 = tm_llama3_70b(), m8 = tm_llama3_8b(), ds = tm_deepseek_v3();
    ds.mtp_layers = 1;
    engine_gpu g = tg_with_memory(1000);
    engine_link l = tl_link(2e-6, 300);
    struct {
        engine_model *m;
        engine_spec_method method;
        int tp;
    } cases[] = {{&m70, ENGINE_SPEC_EAGLE, 4}, {&m70, ENGINE_SPEC_DRAFT, 4},
                 {&ds, ENGINE_SPEC_MTP, 8}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_scenario s;
        ts_scenario(&s, cases[i].m, &g, &l, cases[i].tp);
        s.batch = 4;
        s.spec_method = cases[i].method;
        engine_spec_default(s.spec_method, &s.spec_k, &s.spec_accept);
        s.spec_draft = cases[i].method == ENGINE_SPEC_DRAFT ? &m8 : NULL;
        engine_result r;
        explain(&s, cases[i].tp, 1, 1, 1, &r);
        assert_true(r.spec.on);
        assert_near(step_sum(&X.decode), r.itl_s, 1e-9);
        assert_near(step_sum(&X.prefill), r.ttft_s, 1e-9);
        assert_near(X.decode.total_s, r.itl_s, 1e-12);
        assert_near(X.spec_tokens_per_step, r.spec.tokens_per_step, 1e-12);
        assert_int_equal(X.spec_k, s.spec_k);
        /* the draft's kernels sum to draft_s / E, the target's to verify_s / E */
        double draft = 0, target = 0;
        for (int j = 0; j < X.decode.n; j++)
            *(X.decode.item[j].draft ? &draft : &target) += X.decode.item[j].time_s;
        assert_near(draft, r.spec.draft_s / r.spec.tokens_per_step, 1e-9);
        assert_near(target, r.spec.verify_s / r.spec.tokens_per_step, 1e-9);
        /* verification: the output projection runs on B (k + 1) rows per layer
         * (Llama-3-70B at TP 4: n = 8192, k = 64 / 4 x 128), over E */
        const engine_explain_item *q = item(&X.decode, "attn out");
        assert_non_null(q);
        assert_false(q->draft);
        if (i == 0)
            assert_near(q->flops, 80 * 2.0 * 4 * (s.spec_k + 1) * 8192 * 2048 /
                                      r.spec.tokens_per_step, 1e-12);
        int prefill_draft = 0;
        for (int j = 0; j < X.prefill.n; j++)
            prefill_draft |= X.prefill.item[j].draft;
        assert_int_equal(prefill_draft, cases[i].method == ENGINE_SPEC_DRAFT);
    }
    /* without speculation nothing is marked */
    engine_scenario s;
    ts_scenario(&s, &m8, &g, &l, 1);
    engine_result r;
    explain(&s, 1, 1, 1, 1, &r);
    assert_int_equal(X.spec_k, 0);
    for (int j = 0; j < X.decode.n; j++)
        assert_false(X.decode.item[j].draft);
}

static void test_explain_invalid_plan(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 3);
    engine_plan p = {3, 1, 1, 1};
    engine_error err;
    assert_int_equal(engine_explain_plan(&s, p, &X, &err), -1);
    assert_non_null(strstr(err.msg, "tp=3 does not divide 32 attention heads"));
}

/* B200-class constants as the shipped preset has them (presets/gpus.json). */
static engine_gpu tg_b200_like(void)
{
    engine_gpu g = tg_h100();
    g.hbm_bytes_per_s = 8000e9;
    g.peak_flops[ENGINE_FP16] = g.peak_flops[ENGINE_BF16] = 2250e12;
    g.peak_flops[ENGINE_FP8] = g.peak_flops[ENGINE_INT8] = 4500e12;
    g.peak_flops[ENGINE_FP4] = 9000e12;
    g.eta_compute = 0.75;
    g.eta_compute_fp8 = 0.6;
    g.eta_memory = 0.75;
    g.sm_count = 148;
    g.gemm_t0_s = 3e-6;
    g.gemm_t0_fp8_s = 6.5e-6;
    g.gemm_t0_fp4_s = 12e-6;
    g.memory_bytes = 192e9;
    return g;
}

static double experts_up_s(const engine_model *m, const engine_gpu *g, engine_dtype w, int group)
{
    engine_link l = tl_link(2e-6, 300);
    engine_scenario s;
    ts_scenario(&s, m, g, &l, 1);
    s.batch = 1;
    s.prompt = 4096;
    s.gen = 16;
    s.weight_dtype = w;
    s.quant_group = group;
    engine_result r;
    explain(&s, 1, 1, 1, 1, &r);
    const engine_explain_item *it = item(&X.prefill, "experts gate_up");
    assert_non_null(it);
    assert_int_equal(it->bound, ENGINE_BOUND_COMPUTE);
    return it->time_s;
}

/* MXFP4 weights (group 32) on a GPU with FP4 tensor cores run against MXFP8
 * activations at the FP8 rate (the mixed FP4 x FP8 MMA); NVFP4 (group 16)
 * runs at the FP4 rate; without FP4 tensor cores MXFP4 dequantizes to 16-bit
 * math.  The reference point: aiconfigurator-core 0.12.0 perf data, b200_sxm
 * moe.csv, w4a8_mxfp4_mxfp8, gpt-oss-20b's layer (32 experts, 2880 x 2880,
 * top 4, balanced) at 16384 tokens: 1.6112 ms.  Its two grouped GEMMs (2048
 * tokens on each of the 32 experts), its permutes and its activation at the
 * FP8 rate are within 10 % of it (1.03x), at the FP4 rate 0.66x. */
static void test_explain_mxfp4_math(void **state)
{
    (void)state;
    engine_model m = tm_mixtral_8x7b();
    engine_gpu b = tg_b200_like();
    double mx = experts_up_s(&m, &b, ENGINE_FP4, 32);
    double f8 = experts_up_s(&m, &b, ENGINE_FP8, 0);
    double nv = experts_up_s(&m, &b, ENGINE_FP4, 16);
    assert_near(mx, f8, 1e-9);
    assert_true(nv < 0.75 * mx);
    engine_gpu h = tg_h100(); /* no FP4 tensor cores: 16-bit math */
    double h_mx = experts_up_s(&m, &h, ENGINE_FP4, 32);
    double h_16 = experts_up_s(&m, &h, ENGINE_FP16, 0);
    /* the same 16-bit math: only the low-precision fixed cost (5.5 vs 3 us
     * a call) differs, under 0.2 % of this 4096-token prefill */
    assert_true(h_mx > h_16);
    assert_near(h_mx, h_16, 2e-3);
    assert_true(h_mx > 1.5 * mx);

    double wb = engine_weight_elem_bytes(ENGINE_FP4, 32);
    double up8 = engine_grouped_gemm_s(&b, NULL, ENGINE_FP8, 2048, 5760, 2880, 32, wb, 2);
    double dn8 = engine_grouped_gemm_s(&b, NULL, ENGINE_FP8, 2048, 2880, 2880, 32, wb, 2);
    double up4 = engine_grouped_gemm_s(&b, NULL, ENGINE_FP4, 2048, 5760, 2880, 32, wb, 2);
    double dn4 = engine_grouped_gemm_s(&b, NULL, ENGINE_FP4, 2048, 2880, 2880, 32, wb, 2);
    /* the layer as eval.c's moe_mlp runs it: permute and unpermute of
     * (16384 + 65536) rows of 2880 x 2 B, the SwiGLU over 65536 x 2880 */
    double sm = 2 * engine_small_kernel_s(&b, (16384.0 + 65536.0) * 2880 * 2) +
                engine_small_kernel_s(&b, 3.0 * 65536 * 2880 * 2);
    assert_true(fabs((up8 + dn8 + sm) / 1.6112e-3 - 1) < 0.10);
    assert_true((up4 + dn4 + sm) / 1.6112e-3 < 0.70);
}

/* gpt-oss-20b's MoE layer (32 experts of 2880 x 2880, top 4) as eval.c's
 * moe_mlp runs it, on one GPU at T tokens: two grouped GEMMs over the hit
 * experts, the permutes and the SwiGLU. */
static double goss_moe_s(const engine_gpu *g, double T)
{
    double E = 32, K = 4, d = 2880, f = 2880, ab = 2;
    double wb = engine_weight_elem_bytes(ENGINE_FP4, 32);
    double hit = E * (1 - pow(1 - K / E, T)), busy = T * K, me = busy / hit;
    return engine_grouped_gemm_s(g, NULL, ENGINE_FP4, me, 2 * f, d, hit, wb, ab) +
           engine_grouped_gemm_s(g, NULL, ENGINE_FP4, me, d, f, hit, wb, ab) +
           2 * engine_small_kernel_s(g, (T + busy) * d * ab) +
           engine_small_kernel_s(g, 3 * busy * f * ab);
}

/* FP4 weights on Hopper (no FP4 tensor cores) dequantize to bf16 math: a
 * GPU's eta_compute_w4a16 / eta_memory_w4a16 replace the 16-bit 0.85 / 0.80;
 * here 0.46 / 0.61, the fit to the TP1 EP1 rows alone (the presets now carry
 * 0.50 / 0.61 with a per-token cost fitted over every EP: test_moe.c
 * test_w4a16_token_cost).  Reference points, aiconfigurator-core 0.12.0 perf
 * data, h100_sxm moe.csv, w4a16_mxfp4 (TensorRT-LLM 1.3's Triton MoE),
 * gpt-oss-20b's layer, TP1 EP1: 0.2209 ms at 16 tokens, 0.3135 ms at 512,
 * 1.1399 ms at 2048, 8.5768 ms at 16384; within 15 % each (the 16-bit
 * fractions gave 0.56-0.74x). */
static void test_w4a16_dequant_rates(void **state)
{
    (void)state;
    engine_gpu h = tg_h100();
    const double T[4] = {16, 512, 2048, 16384};
    const double meas[4] = {0.2209e-3, 0.3135e-3, 1.1399e-3, 8.5768e-3};
    for (int i = 0; i < 4; i++)
        assert_true(goss_moe_s(&h, T[i]) < 0.80 * meas[i]);
    h.eta_compute_w4a16 = 0.46;
    h.eta_memory_w4a16 = 0.61;
    for (int i = 0; i < 4; i++)
        assert_true(fabs(goss_moe_s(&h, T[i]) / meas[i] - 1) < 0.15);
    /* compute-bound: the rate is 0.46 of the 16-bit peak, by hand */
    double wb = engine_weight_elem_bytes(ENGINE_FP4, 32);
    double t4 = engine_grouped_gemm_s(&h, NULL, ENGINE_FP4, 2048, 5760, 2880, 32, wb, 2);
    double shape = engine_gemm_shape_eta(132, 2048, 5760, 2880, 32);
    assert_near(t4, 2.0 * 2048 * 5760 * 2880 * 32 / (989e12 * 0.46 * shape) + 5.5e-6, 1e-9);
    /* 16-bit weights keep the 16-bit fractions */
    double t16 = engine_grouped_gemm_s(&h, NULL, ENGINE_FP16, 2048, 5760, 2880, 32, 2, 2);
    assert_near(t16, 2.0 * 2048 * 5760 * 2880 * 32 / (989e12 * 0.85 * shape) + 3e-6, 1e-9);
}


/* W4A16 on Marlin (engine_w4a16, kconst_marlin), by hand on an H100 with
 * eta_compute_w4a16_marlin 0.257 (sgl-project/sglang#38884: Marlin's MoE
 * GEMM at 254 TFLOPS, 25.7 % of the BF16 peak, nsys in 16384-token prefill
 * chunks), gpt-oss's gate_up (5760 x 2880, MXFP4 in groups of 32: 0.53125
 * B a weight) over 32 experts:
 * - 2048 rows an expert: the tiles, compute-bound at Marlin's rate,
 *   2 x 2048 x 5760 x 2880 x 32 / (989e12 x 0.257 x shape) + 5.5 us;
 * - up to 16 rows (decode): no tile padding, so the weight stream at the
 *   16-bit eta_memory 0.80 sets it, 32 x (5760 x 2880 x 0.53125 + (16 x
 *   2880 + 16 x 5760) x 2) / (3350e9 x 0.80) + 5.5 us = 114.0 us, below
 *   the Triton kernel's at eta_memory_w4a16 0.61;
 * - 17 rows: tiled again, compute-bound: more than twice the 16 rows'.
 * A GPU without the measured fraction keeps the Triton compute rate. */
static void test_w4a16_marlin(void **state)
{
    (void)state;
    engine_gpu h = tg_h100();
    h.eta_compute_w4a16 = 0.50;
    h.eta_memory_w4a16 = 0.61;
    h.eta_compute_w4a16_marlin = 0.257;
    double wb = engine_weight_elem_bytes(ENGINE_FP4, 32);
    assert_near(wb, 0.53125, 1e-12);
    double shape = engine_gemm_shape_eta(132, 2048, 5760, 2880, 32);
    assert_near(engine_marlin_gemm_s(&h, 2048, 5760, 2880, 32, wb, 2),
                2.0 * 2048 * 5760 * 2880 * 32 / (989e12 * 0.257 * shape) + 5.5e-6, 1e-9);
    double t16 = engine_marlin_gemm_s(&h, 16, 5760, 2880, 32, wb, 2);
    double stream = 32 * (5760.0 * 2880 * wb + (16.0 * 2880 + 16.0 * 5760) * 2);
    assert_near(t16, stream / (3350e9 * 0.80) + 5.5e-6, 1e-9);
    assert_near(t16, 114.0e-6, 1e-3);
    assert_true(t16 < engine_grouped_gemm_s(&h, NULL, ENGINE_FP4, 16, 5760, 2880, 32, wb, 2));
    assert_true(engine_marlin_gemm_s(&h, 17, 5760, 2880, 32, wb, 2) > 2 * t16);
    /* no measured Marlin fraction: the Triton compute rate, Marlin's stream */
    h.eta_compute_w4a16_marlin = 0;
    assert_near(engine_marlin_gemm_s(&h, 2048, 5760, 2880, 32, wb, 2),
                2.0 * 2048 * 5760 * 2880 * 32 / (989e12 * 0.50 * shape) + 5.5e-6, 1e-9);
}

/* The sampler after the LM head is the profile's kernels sharing its
 * passes over the fp32 logits (README "The model", framework profiles).
 * Llama-3-8B (vocabulary 128256) on one H100 with vLLM's counts from its
 * V0 sampler code: plain 11 kernels of 14.5 passes, top-p adds 17 of 41,
 * full also the penalties' 15 of 21.25.  At batch 1 every kernel is
 * floor-bound (14.5 x 128256 x 4 B / 11 = 676 kB each), so the row costs
 * kernels x floor; at batch 64 the passes are bandwidth-bound (43.3 MB a
 * kernel): bytes / small-kernel bandwidth.  A profile without counts keeps
 * one kernel of three passes. */
static void test_explain_sampler(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 1);
    engine_framework fw;
    engine_framework_generic(&fw);
    s.framework = &fw;
    const double V = 128256, logit = V * 4.0;
    engine_result r;
    explain(&s, 1, 1, 1, 1, &r);
    const engine_explain_item *it = item(&X.decode, "sampling");
    assert_non_null(it);
    assert_near(it->count, 1, 0);
    assert_near(it->bytes, 3 * logit, 1e-12);
    fw.sampler_kernels = 11;
    fw.sampler_passes = 14.5;
    fw.top_p_kernels = 17;
    fw.top_p_passes = 41;
    fw.penalty_kernels = 15;
    fw.penalty_passes = 21.25;
    static const struct {
        engine_sampling path;
        int kernels;
        double passes;
    } want[] = {{ENGINE_SAMPLING_PLAIN, 11, 14.5},
                {ENGINE_SAMPLING_TOP_P, 28, 55.5},
                {ENGINE_SAMPLING_FULL, 43, 76.75}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        s.sampling = want[i].path;
        s.batch = 1;
        explain(&s, 1, 1, 1, 1, &r);
        double floor_s = constant("kernel_floor")->value;
        double bw = constant("small_kernel_bandwidth")->value;
        assert_near(constant("sampler_kernels")->value, want[i].kernels, 0);
        assert_near(constant("sampler_passes")->value, want[i].passes, 0);
        it = item(&X.decode, "sampling");
        assert_near(it->count, want[i].kernels, 0);
        assert_near(it->bytes, want[i].passes * logit, 1e-12);
        assert_true(want[i].passes * logit / want[i].kernels / bw < floor_s);
        assert_near(it->time_s, want[i].kernels * floor_s, 1e-12);
        s.batch = 64;
        explain(&s, 1, 1, 1, 1, &r);
        it = item(&X.decode, "sampling");
        assert_true(want[i].passes * 64 * logit / want[i].kernels / bw > floor_s);
        assert_near(it->time_s, want[i].passes * 64 * logit / bw, 1e-12);
        assert_near(step_sum(&X.decode), r.itl_s, 1e-9);
    }
    /* an unknown path is refused, naming the field */
    s.sampling = ENGINE_SAMPLING_COUNT;
    engine_error err;
    assert_int_equal(engine_evaluate(&s, (engine_plan){1, 1, 1, 1}, &r, &err), -1);
    assert_non_null(strstr(err.msg, "sampling"));
}

/* The constant name of the last explain: present, its value within rel
 * tol of value, and its unit, origin and source these (NULL: unchecked). */
static const engine_explain_const *const_is(const char *name, double value, double tol,
                                            const char *unit, const char *origin,
                                            const char *source)
{
    const engine_explain_const *c = constant(name);
    if (!c)
        fail_msg("explain: no constant %s", name);
    assert_near(c->value, value, tol);
    if (unit)
        assert_string_equal(c->unit, unit);
    if (origin)
        assert_string_equal(c->origin, origin);
    if (source)
        assert_string_equal(c->source, source);
    return c;
}

/* What the quantization / MoE constant tests share: Llama-3-8B and
 * Mixtral 8x7B on an H100 with room for either, the generic framework,
 * every quantized and MoE rate set on the GPU and framework. */
typedef struct qm_fixture {
    engine_model dense, moe;
    engine_gpu g;
    engine_link l;
    engine_framework fw;
    engine_scenario s;
    engine_result r;
} qm_fixture;

/* f's scenario points into f: f must not move while it is used. */
static void qm_setup(qm_fixture *f)
{
    f->dense = tm_llama3_8b();
    f->moe = tm_mixtral_8x7b();
    f->g = tg_h100();
    strcpy(f->g.source, "test H100 datasheet");
    f->g.memory_bytes = 1000e9;
    f->l = tl_link(0, 300);
    engine_framework_generic(&f->fw);
    strcpy(f->fw.source, "test profile");
    ts_scenario(&f->s, &f->dense, &f->g, &f->l, 1);
    f->s.framework = &f->fw;
    f->g.eta_moe = 0.5;
    f->g.eta_moe_fp8 = 0.6;
    f->g.eta_moe_fp8_block = 0.4;
    f->g.eta_moe_fp4 = 0.3;
    f->g.eta_compute_fp8_block = 0.55;
    f->g.gemm_t0_fp8_block_s = 7e-6;
    f->g.moe_w4a16_token_s = 60e-9;
    f->fw.moe_w4a16_fixed_s = 50e-6;
}

/* qm_setup, then where test_explain_quant_moe_constants leaves it: attn_cta
 * set, the framework's moe_expand on, the MoE model. */
static void qm_setup_moe(qm_fixture *f)
{
    qm_setup(f);
    f->g.attn_cta_s = 2e-6;
    f->fw.moe_expand = 1;
    f->s.model = &f->moe;
}

/* The GPU keys of the quantized and MoE kernels are listed exactly when
 * the plan's numbers use them, with their value, unit and source: attn_cta
 * (prefill attention per thread block) when set; eta_compute_fp8_block and
 * gemm_t0_fp8_block only for block-scaled FP8 (not on DeepGEMM: then the
 * framework's deepgemm); the grouped MoE rate of the math (eta_moe,
 * eta_moe_fp8, eta_moe_fp8_block, eta_moe_fp4) only for a MoE model; the
 * W4A16 MoE's per-token (GPU) and per-layer (framework) costs only for FP4
 * MoE weights on 16-bit math; the framework's moe_expand (TensorRT-LLM's
 * fused MoE kernels, eval.c moe_serial) only for a MoE model it applies to
 * (not MXFP4 / W4A16 weights).  Here 16-bit weights; the FP8 and FP4 tests
 * below start where this one ends. */
static void test_explain_quant_moe_constants(void **state)
{
    (void)state;
    qm_fixture f;
    qm_setup(&f);
    explain(&f.s, 1, 1, 1, 1, &f.r);
    static const char *const keys[] = {"attn_cta", "eta_compute_fp8_block", "gemm_t0_fp8_block",
                                       "eta_moe", "eta_moe_fp8", "eta_moe_fp8_block",
                                       "eta_moe_fp4", "moe_w4a16_token", "moe_w4a16_fixed",
                                       "deepgemm", "moe_expand"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        assert_null(constant(keys[i])); /* a dense 16-bit model without attn_cta */
    f.g.attn_cta_s = 2e-6;
    explain(&f.s, 1, 1, 1, 1, &f.r);
    const_is("attn_cta", 2e-6, 1e-15, "s", "gpu preset", "test H100 datasheet");
    assert_null(constant("eta_moe"));
    /* a 16-bit MoE: its grouped rate; unset, none */
    f.s.model = &f.moe;
    explain(&f.s, 1, 1, 1, 1, &f.r);
    const_is("eta_moe", 0.5, 0, "fraction", NULL, "test H100 datasheet");
    assert_null(constant("eta_moe_fp8"));
    assert_null(constant("moe_w4a16_token"));
    assert_null(constant("moe_expand")); /* generic: the per-token estimate */
    f.fw.moe_expand = 1;
    explain(&f.s, 1, 1, 1, 1, &f.r);
    const_is("moe_expand", 1, 0, NULL, "framework profile", "test profile");
    f.s.model = &f.dense;
    explain(&f.s, 1, 1, 1, 1, &f.r);
    assert_null(constant("moe_expand")); /* no experts */
    f.s.model = &f.moe;
    f.g.eta_moe = 0;
    explain(&f.s, 1, 1, 1, 1, &f.r);
    assert_null(constant("eta_moe"));
}

/* FP8 MoE weights: per-tensor, the per-tensor grouped rate and no block
 * keys; block-scaled, the block rate, fixed cost and grouped rate; on
 * DeepGEMM the per-tensor constants and the framework's deepgemm. */
static void test_explain_quant_moe_fp8_constants(void **state)
{
    (void)state;
    qm_fixture f;
    qm_setup_moe(&f);
    f.g.eta_moe = 0;
    f.s.weight_dtype = ENGINE_FP8;
    explain(&f.s, 1, 1, 1, 1, &f.r);
    assert_near(constant("eta_moe_fp8")->value, 0.6, 0);
    assert_null(constant("eta_moe_fp8_block"));
    assert_null(constant("eta_compute_fp8_block"));
    assert_null(constant("gemm_t0_fp8_block"));
    assert_near(constant("gemm_rate")->value, 1979e12 * 0.70, 1e-3);
    /* block-scaled: its rate, fixed cost (gemm_t0 = 7 us, not 5.5) and grouped rate */
    f.s.fp8_scaling = ENGINE_FP8_SCALE_BLOCK;
    explain(&f.s, 1, 1, 1, 1, &f.r);
    const_is("eta_compute_fp8_block", 0.55, 0, "fraction", NULL, NULL);
    assert_near(constant("gemm_rate")->value, 1979e12 * 0.55, 1e-3);
    const_is("gemm_t0_fp8_block", 7e-6, 1e-15, "s", NULL, NULL);
    assert_near(constant("gemm_t0")->value, 7e-6, 1e-15);
    assert_near(constant("eta_moe_fp8_block")->value, 0.4, 0);
    assert_null(constant("eta_moe_fp8"));
    assert_null(constant("deepgemm"));
    /* the framework's deepgemm on a GPU without DeepGEMM (ROCm, SM < 90):
     * still the block-scaled constants */
    f.fw.deepgemm = 1;
    f.g.deepgemm = 0;
    explain(&f.s, 1, 1, 1, 1, &f.r);
    const_is("eta_compute_fp8_block", 0.55, 0, "fraction", NULL, NULL);
    assert_null(constant("deepgemm"));
    /* on DeepGEMM: the per-tensor constants and the framework's deepgemm */
    f.g.deepgemm = 1;
    explain(&f.s, 1, 1, 1, 1, &f.r);
    assert_null(constant("eta_compute_fp8_block"));
    assert_null(constant("gemm_t0_fp8_block"));
    assert_null(constant("eta_moe_fp8_block"));
    assert_near(constant("eta_moe_fp8")->value, 0.6, 0);
    const_is("deepgemm", 1, 0, NULL, "framework profile", "test profile");
    f.s.fp8_scaling = ENGINE_FP8_SCALE_TENSOR; /* per-tensor: DeepGEMM changes nothing */
    explain(&f.s, 1, 1, 1, 1, &f.r);
    assert_null(constant("deepgemm"));
}

/* FP4 MoE weights: on Hopper (no FP4 tensor cores) W4A16 and its own
 * per-token and per-layer costs; on FP4 tensor cores the FP4 grouped rate;
 * MXFP4 (group 32) there the W4A8 MoE's own keys when set. */
static void test_explain_quant_moe_fp4_constants(void **state)
{
    (void)state;
    qm_fixture f;
    qm_setup_moe(&f);
    f.s.fp8_scaling = ENGINE_FP8_SCALE_AUTO;
    f.s.weight_dtype = ENGINE_FP4;
    explain(&f.s, 1, 1, 1, 1, &f.r);
    assert_null(constant("moe_expand")); /* W4A16: another MoE kernel */
    const_is("moe_w4a16_token", 60e-9, 1e-18, "s", "gpu preset", NULL);
    const_is("moe_w4a16_fixed", 50e-6, 1e-15, NULL, "framework profile", NULL);
    assert_null(constant("eta_moe")); /* W4A16 runs at its own fractions */
    assert_null(constant("eta_moe_fp4"));
    f.s.model = &f.dense; /* the same keys, no MoE: none of them */
    explain(&f.s, 1, 1, 1, 1, &f.r);
    assert_null(constant("moe_w4a16_token"));
    assert_null(constant("moe_w4a16_fixed"));
    /* FP4 math (a GPU with FP4 tensor cores): the FP4 grouped rate */
    engine_gpu b = tg_b200_like();
    b.memory_bytes = 1000e9;
    b.eta_moe_fp4 = 0.27;
    b.moe_w4a16_token_s = 60e-9;
    f.s.gpu = &b;
    f.s.model = &f.moe;
    explain(&f.s, 1, 1, 1, 1, &f.r);
    assert_near(constant("eta_moe_fp4")->value, 0.27, 0);
    assert_null(constant("moe_w4a16_token"));
    assert_null(constant("moe_w4a16_fixed"));
    /* MXFP4 (group 32) on FP4 tensor cores: the W4A8 MoE (FP8 math), its
     * own keys when set (kconst_w4a8_moe), not eta_moe_fp4 / eta_moe_fp8 */
    f.s.quant_group = 32;
    b.eta_moe_fp8 = 0.6;
    explain(&f.s, 1, 1, 1, 1, &f.r);
    assert_null(constant("eta_moe_fp4"));
    assert_null(constant("eta_moe_fp8"));
    assert_null(constant("eta_moe_w4a8"));
    assert_null(constant("moe_w4a8_token"));
    b.eta_moe_w4a8 = 0.5;
    b.moe_w4a8_token_s = 4.9e-9;
    explain(&f.s, 1, 1, 1, 1, &f.r);
    const_is("eta_moe_w4a8", 0.5, 0, "fraction", "gpu preset", NULL);
    const_is("moe_w4a8_token", 4.9e-9, 1e-20, "s", NULL, NULL);
    assert_null(constant("eta_moe_fp8"));
}

/* The host loop's costs name the engine generation a --framework-version
 * chose and that host_loop entry's own source; the default keeps the
 * profile's.  The shipped vllm profile's v0.6 entry: 1040 us + 38.2 us a
 * sequence, its source the vidur medians without process_model_outputs. */
static void test_explain_host_loop_source(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100(&f, tm_llama3_8b(), 1);
    engine_framework fw;
    engine_framework_generic(&fw);
    strcpy(fw.source, "test profile");
    fw.host_loop[ENGINE_FWV_V06] = (engine_host_loop){1, 1040e-6, 38.2e-6, "test v0.6 source", 0, 0, 0, 0};
    s.framework = &fw;
    engine_result r;
    explain(&s, 1, 1, 1, 1, &r);
    const engine_explain_const *c = constant("step_host");
    assert_string_equal(c->origin, "framework profile");
    assert_string_equal(c->source, "test profile");
    s.framework_version = ENGINE_FWV_V06;
    explain(&s, 1, 1, 1, 1, &r);
    c = constant("step_host");
    assert_near(c->value, 1040e-6, 1e-15);
    assert_string_equal(c->origin, "host_loop v0.6");
    assert_string_equal(c->source, "test v0.6 source");
    c = constant("step_host_per_seq");
    assert_near(c->value, 38.2e-6, 1e-15);
    assert_string_equal(c->origin, "host_loop v0.6");
    assert_string_equal(c->source, "test v0.6 source");
    assert_string_equal(constant("request_host")->source, "test profile");
    /* the shipped profile's entries carry their sources */
    const engine_framework *vl = preset_find_framework(ts_db, "vllm");
    assert_non_null(vl);
    s.framework = vl;
    s.framework_version = ENGINE_FWV_V0;
    explain(&s, 1, 1, 1, 1, &r);
    c = constant("step_host");
    assert_near(c->value, 1167e-6, 1e-12);
    assert_string_equal(c->origin, "host_loop v0");
    assert_non_null(strstr(c->source, "vLLM <= 0.5"));
    assert_non_null(strstr(c->source, "cpu_overheads.csv"));
    s.framework_version = ENGINE_FWV_V1;
    explain(&s, 1, 1, 1, 1, &r);
    assert_string_equal(constant("step_host")->origin, "host_loop v1");
    assert_non_null(strstr(constant("step_host")->source, "UNSOURCED"));
}

/* A shipped model on a shipped GPU under the trt-llm profile, FP8 weights. */
static void trt_fp8_scenario(engine_scenario *s, const char *model, const char *gpu)
{
    engine_scenario_defaults(s);
    s->model = preset_find_model(ts_db, model);
    s->gpu = preset_find_gpu(ts_db, gpu);
    s->framework = preset_find_framework(ts_db, "trt-llm");
    assert_non_null(s->model);
    assert_non_null(s->gpu);
    s->weight_dtype = ENGINE_FP8;
}

/* Falcon-180B at TP8 (29 query heads per KV head, head size 64) on
 * TensorRT-LLM's precompiled XQA generation runs masked MHA at the FP32
 * CUDA-core rate: explain lists that rate (67 TFLOP/s, the H100 SXM
 * preset's fp32_tflops) with the GPU preset's source; today's JIT XQA
 * takes the shape, and Llama-3.1-70B (8 per KV head) always does: absent. */
static void test_explain_mmha_fp32(void **state)
{
    (void)state;
    engine_scenario s;
    trt_fp8_scenario(&s, "falcon-180b", "h100-sxm");
    engine_link nv = *preset_find_link(ts_db, "nvlink4");
    s.intra = &nv;
    s.gpus = 8;
    s.batch = 64;
    s.prompt = 128;
    s.gen = 128;
    s.kv_dtype = ENGINE_FP8;
    s.xqa_precompiled = 1;
    engine_result r;
    explain(&s, 8, 1, 1, 1, &r);
    const engine_explain_const *c = constant("fp32_flops");
    assert_non_null(c);
    assert_near(c->value, 67e12, 1e3);
    assert_string_equal(c->unit, "FLOP/s");
    assert_string_equal(c->origin, "gpu preset");
    assert_string_equal(c->source, s.gpu->source);
    /* and its L2 re-read rate (9914 GB/s, gpus.json l2_gbs) */
    c = constant("l2_bytes_per_s");
    assert_non_null(c);
    assert_near(c->value, 9914e9, 1e3);
    assert_string_equal(c->unit, "B/s");
    s.xqa_precompiled = 0;
    explain(&s, 8, 1, 1, 1, &r);
    assert_null(constant("fp32_flops"));
    assert_null(constant("l2_bytes_per_s"));
    s.xqa_precompiled = 1;
    s.model = preset_find_model(ts_db, "llama-3.1-70b");
    explain(&s, 8, 1, 1, 1, &r);
    assert_null(constant("fp32_flops"));
}

/* TinyChat's W4A16 prompt on an RTX 4090 (engine_scenario.gemm_acc16, the
 * awq-l2-7b-4090-i4-s2048-ttft row): explain lists the FP16-accumulate peak
 * its block GEMMs ran at (330.3 TFLOP/s, gpus.json fp16_acc16_tflops) with
 * the GPU preset's source, and the prompt is faster than with FP32
 * accumulation; absent without the property and on a GPU without the
 * split (H100: fp16_acc16_tflops 0), where the TTFT does not move. */
static void test_explain_fp16_accumulate(void **state)
{
    (void)state;
    engine_scenario s;
    engine_scenario_defaults(&s);
    s.model = preset_find_model(ts_db, "llama-2-7b");
    s.gpu = preset_find_gpu(ts_db, "rtx-4090");
    assert_non_null(s.model);
    assert_non_null(s.gpu);
    s.weight_dtype = ENGINE_INT4;
    s.prompt = 2048;
    s.gen = 1;
    engine_link pc = *preset_find_link(ts_db, "pcie4");
    s.intra = &pc;
    engine_result r0, r1;
    explain(&s, 1, 1, 1, 1, &r0);
    assert_null(constant("fp16_acc16_flops"));
    s.gemm_acc16 = 1;
    explain(&s, 1, 1, 1, 1, &r1);
    const engine_explain_const *c = constant("fp16_acc16_flops");
    assert_non_null(c);
    assert_near(c->value, 330.3e12, 1e3);
    assert_string_equal(c->unit, "FLOP/s");
    assert_string_equal(c->origin, "gpu preset");
    assert_string_equal(c->source, s.gpu->source);
    assert_true(r1.ttft_s < 0.7 * r0.ttft_s); /* compute-bound prompt GEMMs at twice the rate */
    s.gpu = preset_find_gpu(ts_db, "h100-sxm");
    s.gemm_acc16 = 0;
    explain(&s, 1, 1, 1, 1, &r0);
    s.gemm_acc16 = 1;
    explain(&s, 1, 1, 1, 1, &r1);
    assert_null(constant("fp16_acc16_flops"));
    assert_true(r1.ttft_s == r0.ttft_s);
}

/* The largest plan's constants all fit: DeepSeek-R1 FP8 (block-scaled)
 * TP8 x DP2 with EP16 on two nodes of H200 under trt-llm, on a PCIe intra link (socket
 * constants), with a per-kernel calibration (its launch, SM count and
 * packing rate and the L2 size below which weights stream unpacked): 44
 * constants (the framework's with moe_expand and launch_eager_prefill, a
 * prefill step's eager launch), the last the scale-out link's eager cost:
 * 14 below ENGINE_EXPLAIN_CONST_MAX. */
static void test_explain_largest_plan(void **state)
{
    (void)state;
    engine_scenario s;
    trt_fp8_scenario(&s, "deepseek-r1", "h200");
    engine_link pcie = *preset_find_link(ts_db, "pcie5");
    pcie.socket_gpus = 4;
    pcie.cross_socket = 0.8;
    s.intra = &pcie;
    s.inter = preset_find_link(ts_db, "ib-ndr");
    s.gpus_per_node = 8;
    s.gpus = 16;
    s.framework_version = ENGINE_FWV_DEFAULT;
    engine_calib cal;
    memset(&cal, 0, sizeof cal);
    cal.measured = 1;
    cal.per_kernel = 1;
    strcpy(cal.device, "test H200");
    cal.peak_flops = 989e12;
    cal.gemm_efficiency = 0.8;
    cal.bw_bytes_per_s = 4.0e12;
    cal.t0_s = 5e-6;
    cal.small_kernel_s = 4e-6;
    cal.launch_s = 3e-6;
    cal.sm = 132;
    cal.pack_bytes_per_s = 1e11;
    s.calib = &cal;
    engine_result r;
    explain(&s, 8, 1, 2, 16, &r);
    assert_null(constant("gemm_pack_l2")); /* no L2 size measured: every GEMM packs */
    cal.l2_bytes = 1048576;
    explain(&s, 8, 1, 2, 16, &r); /* TP8 rings cross the PCIe socket link */
    const engine_explain_const *l2 = constant("gemm_pack_l2");
    assert_non_null(l2);
    assert_near(l2->value, 1048576, 0);
    assert_string_equal(l2->unit, "B");
    assert_string_equal(l2->origin, "calibration");
    assert_non_null(constant("eta_compute_fp8_block"));
    assert_non_null(constant("eta_moe_fp8_block"));
    assert_non_null(constant("attn_cta"));
    assert_non_null(constant("attn_score"));
    assert_non_null(constant("attn_prefill_rate"));
    assert_non_null(constant("link_cross_socket"));
    assert_non_null(constant("gemm_pack_bandwidth"));
    assert_non_null(constant("moe_expand"));
    assert_non_null(constant("moe_roof_p"));
    assert_non_null(constant("eta_moe_rows")); /* H200's 0.44 */
    assert_int_equal(X.n_const, 44);
    assert_true(X.n_const < ENGINE_EXPLAIN_CONST_MAX);
    assert_string_equal(X.constant[X.n_const - 1].name, "inter_link_eager");
}

/* README's "Explain every number" names every constant an explain lists
 * (`name`, in backticks): over every validation case's scenario and plan
 * (dense, MoE, FP8 block, MXFP4, masked MHA, PCIe, multi-node, vLLM host
 * loops ...) and the per-kernel CPU calibration of test_explain_largest_plan
 * with its micro-kernel width.  A constant added to the engine without its
 * README name fails here, naming it and the case. */
static char readme_names[96][40];
static int n_readme_names;

static void check_documented(const char *section, const char *where)
{
    for (int i = 0; i < X.n_const; i++) {
        const char *nm = X.constant[i].name;
        char quoted[48];
        snprintf(quoted, sizeof quoted, "`%s`", nm);
        if (!strstr(section, quoted))
            fail_msg("README.md \"Explain every number\" does not name the constant %s (%s)",
                     quoted, where);
        int seen = 0;
        for (int j = 0; j < n_readme_names; j++)
            seen |= strcmp(readme_names[j], nm) == 0;
        if (!seen && n_readme_names < (int)(sizeof readme_names / sizeof readme_names[0]))
            snprintf(readme_names[n_readme_names++], sizeof readme_names[0], "%s", nm);
    }
}

static void test_explain_constants_in_readme(void **state)
{
    (void)state;
    char *text = ts_slurp("README.md", NULL);
    assert_non_null(text);
    char *start = strstr(text, "#### Explain every number");
    assert_non_null(start);
    char *end = strstr(start, "\n### `load`");
    assert_non_null(end);
    *end = '\0';
    int explained = 0;
    for (int i = 0; i < val_case_count; i++) {
        const val_case *c = &val_cases[i];
        engine_scenario s;
        engine_plan p;
        engine_error err;
        if (val_scenario(ts_db, c, &s, &p, &err) != 0 || s.batch <= 0)
            continue; /* batch 0: resolved by val_run_case; the rest suffice */
        if (engine_explain_plan(&s, p, &X, &err) != 0)
            continue;
        explained++;
        check_documented(start, c->id);
    }
    assert_true(explained > 100);
    engine_scenario s;
    trt_fp8_scenario(&s, "deepseek-r1", "h200");
    s.intra = preset_find_link(ts_db, "nvlink4");
    s.inter = preset_find_link(ts_db, "ib-ndr");
    s.gpus_per_node = 8;
    s.gpus = 16;
    s.framework_version = ENGINE_FWV_DEFAULT;
    engine_calib cal;
    memset(&cal, 0, sizeof cal);
    cal.measured = 1;
    cal.per_kernel = 1;
    strcpy(cal.device, "test CPU");
    cal.peak_flops = 989e12;
    cal.gemm_efficiency = 0.8;
    cal.bw_bytes_per_s = 4.0e12;
    cal.t0_s = 5e-6;
    cal.small_kernel_s = 4e-6;
    cal.launch_s = 3e-6;
    cal.sm = 132;
    cal.pack_bytes_per_s = 1e11;
    cal.l2_bytes = 1048576;
    cal.unroll_n = 4;
    s.calib = &cal;
    engine_result r;
    explain(&s, 8, 1, 2, 16, &r);
    assert_non_null(constant("gemm_unroll_n"));
    assert_non_null(constant("inter_link_eager"));
    check_documented(start, "deepseek-r1 on a per-kernel calibration");
    /* the walk met the kinds the README lists, not only a few */
    static const char *const must[] = {"attn_decode_per_seq_head", "fp32_flops",
                                       "l2_bytes_per_s", "launch_graph_node", "eta_moe_fp8_block",
                                       "gemm_unroll_n", "link_socket_gpus", "step_host_per_seq"};
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) {
        int seen = 0;
        for (int j = 0; j < n_readme_names; j++)
            seen |= strcmp(readme_names[j], must[i]) == 0;
        if (!seen)
            fail_msg("no scenario of the walk lists %s", must[i]);
    }
    assert_true(n_readme_names >= 35);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_explain_sums),
        cmocka_unit_test(test_explain_gemm_hand),
        cmocka_unit_test(test_explain_bounds),
        cmocka_unit_test(test_explain_collectives),
        cmocka_unit_test(test_explain_constants),
        cmocka_unit_test(test_explain_speculation),
        cmocka_unit_test(test_explain_invalid_plan),
        cmocka_unit_test(test_explain_mxfp4_math),
        cmocka_unit_test(test_w4a16_dequant_rates),
        cmocka_unit_test(test_w4a16_marlin),
        cmocka_unit_test(test_explain_sampler),
        cmocka_unit_test(test_explain_quant_moe_constants),
        cmocka_unit_test(test_explain_quant_moe_fp8_constants),
        cmocka_unit_test(test_explain_quant_moe_fp4_constants),
        cmocka_unit_test(test_explain_host_loop_source),
        cmocka_unit_test(test_explain_largest_plan),
        cmocka_unit_test(test_explain_mmha_fp32),
        cmocka_unit_test(test_explain_fp16_accumulate),
        cmocka_unit_test(test_explain_constants_in_readme),
    };
    return cmocka_run_group_tests(tests, ts_presets_setup, ts_presets_teardown);
}
