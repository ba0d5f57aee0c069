/*
 * test_validation.c - the engine's predictions against published
 * measurements.  Each case rebuilds a published benchmark as a scenario
 * (shipped presets, preset_db_load with no user directory; two models the
 * presets lack, FasterTransformer's GPT-20B and GPT-J 6B, are built here
 * from the shapes their sources state), evaluates the plan the source used
 * and compares one figure: time to first token (TTFT), end-to-end latency,
 * decode tokens/s or static-batch throughput.
 *
 * Two kinds of assertion:
 *  - BAND: |predicted - measured| <= 35 % of measured.  48 of the 49 rows:
 *    long and short FP16 prefill, batch-1 decode with and without tensor
 *    parallelism, static batches, FP8 prefill and batches.  Four groups
 *    were outliers of the first engine (pure max() roofline, no fixed cost
 *    per collective, one compute fraction for every dtype); their comments
 *    keep the old ratios next to what changed.
 *  - OPTIMISTIC: the one known outlier left (a 128-token FP8 prefill on
 *    H100, where TensorRT-LLM 0.8 was not FP8 end to end): it must predict
 *    a shorter time than was measured, within 4x, so its size stays
 *    visible.
 *
 * Ratios are predicted / measured, for times and rates alike; each case
 * prints one line (measured, predicted, ratio) under `make test`.
 * Sources (public, read through the project's reference tools):
 *  TRT-0.8  NVIDIA/TensorRT-LLM docs/source/performance.md, version with
 *           "All data was generated using version 0.8.0": gptSessionBenchmark
 *           with static batches (throughput = B x output / total time, the
 *           engine's tokens_per_s); "1st token latency" at batch 1 is the
 *           context step alone (GptSession::generate runs only step 0 for
 *           one output token).  A100 = A100-SXM4-80GB FP16; H100, H200 and
 *           L40S rows are FP8 weights with an FP8 KV cache.
 *  TRT-0.5  the same file @ 138f96d ("updated for v0.6.1"; its low-latency
 *           tables are v0.5; TRT-0.6 marks its throughput table).
 *  FT       NVIDIA/FasterTransformer docs/gpt_guide.md, section Performance:
 *           8x A100-80GB SXM (mclk 1593 MHz, pclk 1410 MHz), FP16, top_p 0.9.
 *  MLC      mlc-ai/llm-perf-bench README.md @ 0274600 (q4f16_1 int4 weights,
 *           fp16 compute, batch 1, 256 decoded tokens, prompt "What is the
 *           meaning of life?"); blog.mlc.ai 2023-10-19 "Scalable Language
 *           Model Inference on Multiple NVIDIA and AMD GPUs" (Llama2-70B
 *           int4 on two RTX 4090: 34.5 tok/s).
 * "LLaMA 7B" and "LLaMA 70B" in TRT-LLM's tables are Llama-2: the llama-7b
 * preset has Llama-2-7B's shape (L 32, d 4096, 32 heads, f 11008, V 32000).
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

#include "../engine/engine.h"
#include "../presets/preset.h"
#include "support_presets.h"

typedef enum metric {
    M_TTFT,       /* ttft_s, seconds */
    M_E2E,        /* e2e_s, seconds */
    M_DECODE_TPS, /* 1 / itl_s: decode tokens/s of one sequence */
    M_TPS         /* tokens_per_s: generated tokens/s, all sequences */
} metric;

typedef struct vcase {
    const char *name;           /* printed */
    const char *model;          /* preset name; NULL: custom */
    const engine_model *custom;
    const char *gpu, *link;     /* presets */
    int gpus, tp, batch, prompt, gen;
    engine_dtype weights, kv;
    metric what;
    double measured;            /* SI: seconds or tokens/s */
    int may_not_fit;            /* measured, but the presets say no fit */
} vcase;

#define BAND 0.35  /* allowed relative error of an in-scope case */
#define FLOOR 0.25 /* an outlier's ratio stays within 4x */

static void scenario_for(const vcase *c, engine_scenario *s)
{
    engine_scenario_defaults(s);
    s->model = c->custom ? c->custom : preset_find_model(ts_db, c->model);
    s->gpu = preset_find_gpu(ts_db, c->gpu);
    s->intra = preset_find_link(ts_db, c->link);
    assert_non_null(s->model);
    assert_non_null(s->gpu);
    assert_non_null(s->intra);
    s->gpus = c->gpus;
    s->batch = c->batch;
    s->prompt = c->prompt;
    s->gen = c->gen;
    s->weight_dtype = c->weights;
    s->kv_dtype = c->kv;
    s->mc_samples = 0;
}

static void evaluate(const vcase *c, engine_result *r)
{
    engine_scenario s;
    scenario_for(c, &s);
    engine_plan p = {c->tp, 1, c->gpus / c->tp, 1};
    engine_error err = {{0}};
    assert_int_equal(engine_evaluate(&s, p, r, &err), 0);
    assert_true(r->valid);
}

/* The predicted figure of a case; *fits gets the engine's verdict (times
 * are computed whether or not the plan fits). */
static double predict(const vcase *c, int *fits)
{
    engine_result r;
    evaluate(c, &r);
    *fits = r.fits;
    switch (c->what) {
    case M_TTFT:
        return r.ttft_s;
    case M_E2E:
        return r.e2e_s;
    case M_DECODE_TPS:
        return 1.0 / r.itl_s;
    case M_TPS:
        return r.tokens_per_s;
    }
    return NAN;
}

static int is_rate(metric m)
{
    return m == M_DECODE_TPS || m == M_TPS;
}

static double shown(double x, metric m)
{
    return is_rate(m) ? x : x * 1e3; /* times in ms */
}

static double report(const vcase *c, double pred, const char *tag)
{
    double ratio = pred / c->measured;
    print_message("  %-46s measured %8.1f predicted %8.1f %-5s ratio %.2f%s\n", c->name,
                  shown(c->measured, c->what), shown(pred, c->what),
                  is_rate(c->what) ? "tok/s" : "ms", ratio, tag);
    return ratio;
}

/* In scope: within BAND, and fitting in memory as the measured run did
 * (except the runs test_capacity_measured_runs is about). */
static void check_band(const vcase *c)
{
    int fits = 0;
    double pred = predict(c, &fits);
    double ratio = report(c, pred, "");
    assert_true(isfinite(pred) && pred > 0);
    if (!c->may_not_fit)
        assert_true(fits);
    assert_true(fabs(ratio - 1.0) <= BAND);
}

/* Known outlier: optimistic (a shorter time or a higher rate than was
 * measured) but within 4x. */
static void check_optimistic(const vcase *c)
{
    int fits = 0;
    double pred = predict(c, &fits);
    double ratio = report(c, pred, "  (outlier)");
    assert_true(isfinite(pred) && pred > 0);
    if (is_rate(c->what)) {
        assert_true(ratio > 1.0);
        assert_true(ratio < 1.0 / FLOOR);
    } else {
        assert_true(ratio < 1.0);
        assert_true(ratio > FLOOR);
    }
}

#define RUN(check, cases)                                                  \
    do {                                                                   \
        for (size_t i_ = 0; i_ < sizeof(cases) / sizeof((cases)[0]); i_++) \
            check(&(cases)[i_]);                                           \
    } while (0)

/* FasterTransformer's GPT-20B (gpt_guide.md: head_num 48, size_per_head
 * 128, num_layers 44, vocab_size 51200, FP16), a Megatron GPT: GELU MLP of
 * 4d, learned positions, tied embeddings; 20.2 B parameters. */
static engine_model ft_gpt20b(void)
{
    engine_model m;
    memset(&m, 0, sizeof m);
    snprintf(m.name, sizeof m.name, "ft-gpt-20b");
    snprintf(m.display, sizeof m.display, "GPT-20B (FasterTransformer)");
    m.layers = 44;
    m.hidden = 6144;
    m.heads = 48;
    m.kv_heads = 48;
    m.head_dim = 128;
    m.ffn = 4 * 6144;
    m.vocab = 51200;
    m.context = 2048;
    m.tied_embeddings = 1;
    m.learned_pos = 1;
    return m;
}

/* GPT-J 6B (TRT-LLM's build command: n_layer 28, n_head 16, n_embd 4096,
 * n_positions 2048, gelu; head size 256, MLP 4d, vocabulary 50400 and an
 * untied output head as in EleutherAI's config; rotary positions, so no
 * position table); 6.05 B parameters. */
static engine_model gptj_6b(void)
{
    engine_model m;
    memset(&m, 0, sizeof m);
    snprintf(m.name, sizeof m.name, "gpt-j-6b");
    snprintf(m.display, sizeof m.display, "GPT-J 6B");
    m.layers = 28;
    m.hidden = 4096;
    m.heads = 16;
    m.kv_heads = 16;
    m.head_dim = 256;
    m.ffn = 4 * 4096;
    m.vocab = 50400;
    m.context = 2048;
    return m;
}

#define F16 ENGINE_FP16
#define F8 ENGINE_FP8
#define I4 ENGINE_INT4

/* --- in scope: long FP16 prefill (compute-bound) ---------------------- */

/* Batch 1, 2048 prompt tokens, A100 FP16: far above the A100 ridge (~150
 * FLOP/byte), so this checks peak x eta_c (312 TFLOPS x 0.869) plus the
 * attention FLOPs and, with TP, the all-reduces.  The engine is 3-25 %
 * fast: attention, norms and RoPE run below the GEMM MAMF, and the weights
 * are read once more than max(compute, memory) admits. */
static void test_prefill_long_fp16(void **state)
{
    (void)state;
    engine_model gj = gptj_6b();
    const vcase cs[] = {
        /* 102.8 ms measured, 89.0 predicted, ratio 0.87 */
        {"TRT-0.8 GPT-J-6B 1xA100 S=2048 TTFT", NULL, &gj, "a100-80gb", "nvlink3", 1, 1, 1, 2048,
         1, F16, F16, M_TTFT, 102.8e-3, 0},
        /* 120.5 ms measured, 102.2 predicted, ratio 0.85 */
        {"TRT-0.8 Llama-2-7B 1xA100 S=2048 TTFT", "llama-7b", NULL, "a100-80gb", "nvlink3", 1, 1,
         1, 2048, 1, F16, F16, M_TTFT, 120.5e-3, 0},
        /* 133 ms measured, 102.2 predicted, ratio 0.77 */
        {"TRT-0.5 Llama-2-7B 1xA100 S=2048 TTFT", "llama-7b", NULL, "a100-80gb", "nvlink3", 1, 1,
         1, 2048, 1, F16, F16, M_TTFT, 133e-3, 0},
        /* 128.7 ms measured, 109.8 predicted, ratio 0.85 (2048 tokens:
         * inside Mistral's 4096-token sliding window) */
        {"TRT-0.8 Mistral-7B 1xA100 S=2048 TTFT", "mistral-7b", NULL, "a100-80gb", "nvlink3", 1,
         1, 1, 2048, 1, F16, F16, M_TTFT, 128.7e-3, 0},
        /* 235.1 ms measured, 175.4 predicted (42.8 of it all-reduces),
         * ratio 0.75 */
        {"TRT-0.8 Llama-2-70B 8xA100 TP8 S=2048 TTFT", "llama-2-70b", NULL, "a100-80gb",
         "nvlink3", 8, 8, 1, 2048, 1, F16, F16, M_TTFT, 235.1e-3, 0},
        /* 377 ms measured, 300.1 predicted, ratio 0.80 */
        {"TRT-0.5 Llama-2-70B 4xA100 TP4 S=2048 TTFT", "llama-2-70b", NULL, "a100-80gb",
         "nvlink3", 4, 4, 1, 2048, 1, F16, F16, M_TTFT, 377e-3, 0},
        /* 463.0 ms measured, 416.5 predicted, ratio 0.90 */
        {"TRT-0.8 Falcon-180B 8xA100 TP8 S=2048 TTFT", "falcon-180b", NULL, "a100-80gb",
         "nvlink3", 8, 8, 1, 2048, 1, F16, F16, M_TTFT, 463.0e-3, 0},
        /* 509 ms measured, 416.5 predicted, ratio 0.82 */
        {"TRT-0.5 Falcon-180B 8xA100 TP8 S=2048 TTFT", "falcon-180b", NULL, "a100-80gb",
         "nvlink3", 8, 8, 1, 2048, 1, F16, F16, M_TTFT, 509e-3, 0},
    };
    RUN(check_band, cs);
}

/* --- in scope: batch-1 decode on one GPU (memory-bound) --------------- */

/* One GPU, no communication: HBM x eta_m and the per-layer overhead.
 * FT GPT-20B on an A100-80GB (FP16, end-to-end latency, dominated by
 * decode), and MLC's int4 decode rate on an RTX 4090 (prefill not counted,
 * so compared with 1 / ITL).  The engine's int4 is 0.5 byte per weight;
 * q4f16_1 also stores an fp16 scale per 32 weights (4.5 bits, +12.5 %
 * bytes), part of why the MLC rows are a little fast. */
static void test_decode_batch1_one_gpu(void **state)
{
    (void)state;
    engine_model m = ft_gpt20b();
    const vcase cs[] = {
        /* input 80, output 200: 5609 ms measured, 5087 predicted (ITL 25.3
         * ms: 40.5 GB of weights at 1.61 TB/s), ratio 0.91 */
        {"FT GPT-20B 1xA100 B=1 80/200 latency", NULL, &m, "a100-80gb", "nvlink3", 1, 1, 1, 80,
         200, F16, F16, M_E2E, 5609e-3, 0},
        /* input 20, output 8: 225 ms measured, 226.8 predicted, ratio 1.01 */
        {"FT GPT-20B 1xA100 B=1 20/8 latency", NULL, &m, "a100-80gb", "nvlink3", 1, 1, 1, 20, 8,
         F16, F16, M_E2E, 225e-3, 0},
        /* 204.8 tok/s measured, 221.2 predicted, ratio 1.08 */
        {"MLC Llama-2-7B int4 1xRTX4090 decode", "llama-7b", NULL, "rtx-4090", "pcie4", 1, 1, 1,
         32, 256, I4, F16, M_DECODE_TPS, 204.8, 0},
        /* 113.5 tok/s measured, 117.2 predicted, ratio 1.03 */
        {"MLC Llama-2-13B int4 1xRTX4090 decode", "llama-13b", NULL, "rtx-4090", "pcie4", 1, 1, 1,
         32, 256, I4, F16, M_DECODE_TPS, 113.5, 0},
    };
    RUN(check_band, cs);
}

/* --- in scope: static batches with memory-bound decode ---------------- */

/* gptSessionBenchmark static batches, "Throughput (out tok/s/GPU)", one
 * GPU, MHA models; the engine's decode step is memory-bound (its compute
 * time is 2-10 % of its memory time), so these check the KV-cache term
 * (up to 36 GB read per step) and TTFT + G x ITL at mid-generation. */
static void test_static_batch_memory_bound(void **state)
{
    (void)state;
    engine_model gj = gptj_6b();
    const vcase cs[] = {
        /* 1518 tok/s measured, 1551 predicted (ITL 20.5 ms), ratio 1.02 */
        {"TRT-0.8 Llama-2-7B 1xA100 B=32 128/2048", "llama-7b", NULL, "a100-80gb", "nvlink3", 1,
         1, 32, 128, 2048, F16, F16, M_TPS, 1518, 0},
        /* 613 tok/s measured, 632 predicted (TTFT 1.63 s, ITL 24.5 ms),
         * ratio 1.03 */
        {"TRT-0.8 Llama-2-7B 1xA100 B=16 2048/2048", "llama-7b", NULL, "a100-80gb", "nvlink3", 1,
         1, 16, 2048, 2048, F16, F16, M_TPS, 613, 0},
        /* 547 tok/s measured, 571 predicted (the 65536-token prefill is
         * 3.26 s of 7.2), ratio 1.04 */
        {"TRT-0.8 Llama-2-7B 1xA100 B=32 2048/128", "llama-7b", NULL, "a100-80gb", "nvlink3", 1,
         1, 32, 2048, 128, F16, F16, M_TPS, 547, 0},
        /* TRT-0.6: 1928 tok/s measured, 1922 predicted, ratio 1.00; the
         * presets say it does not fit (test_capacity_measured_runs) */
        {"TRT-0.6 Llama-2-7B 1xA100 B=60 128/2048", "llama-7b", NULL, "a100-80gb", "nvlink3", 1,
         1, 60, 128, 2048, F16, F16, M_TPS, 1928, 1},
        /* 692 tok/s measured, 720 predicted, ratio 1.04 */
        {"TRT-0.8 GPT-J-6B 1xA100 B=16 2048/2048", NULL, &gj, "a100-80gb", "nvlink3", 1, 1, 16,
         2048, 2048, F16, F16, M_TPS, 692, 0},
        /* 1658 tok/s measured, 1765 predicted, ratio 1.06 */
        {"TRT-0.8 GPT-J-6B 1xA100 B=32 128/2048", NULL, &gj, "a100-80gb", "nvlink3", 1, 1, 32,
         128, 2048, F16, F16, M_TPS, 1658, 0},
        /* 631 tok/s measured, 653 predicted, ratio 1.04 */
        {"TRT-0.8 GPT-J-6B 1xA100 B=32 2048/128", NULL, &gj, "a100-80gb", "nvlink3", 1, 1, 32,
         2048, 128, F16, F16, M_TPS, 631, 0},
        /* 542 tok/s measured, 553 predicted, ratio 1.02 */
        {"TRT-0.8 Llama-2-7B 1xL40S FP8 B=16 2048/2048", "llama-7b", NULL, "l40s", "pcie4", 1, 1,
         16, 2048, 2048, F8, F8, M_TPS, 542, 0},
        /* 1654 tok/s measured, 1686 predicted, ratio 1.02; no fit per the
         * presets */
        {"TRT-0.8 Llama-2-7B 1xL40S FP8 B=64 128/2048", "llama-7b", NULL, "l40s", "pcie4", 1, 1,
         64, 128, 2048, F8, F8, M_TPS, 1654, 1},
        /* 2816 tok/s measured, 3007 predicted, ratio 1.07; no fit per the
         * presets */
        {"TRT-0.8 Llama-2-7B 1xH100 FP8 B=56 2048/2048", "llama-7b", NULL, "h100-sxm", "nvlink4",
         1, 1, 56, 2048, 2048, F8, F8, M_TPS, 2816, 1},
        /* 6922 tok/s measured, 7915 predicted, ratio 1.14; no fit per the
         * presets */
        {"TRT-0.8 Llama-2-7B 1xH100 FP8 B=120 128/2048", "llama-7b", NULL, "h100-sxm", "nvlink4",
         1, 1, 120, 128, 2048, F8, F8, M_TPS, 6922, 1},
        /* 3530 tok/s measured, 4079 predicted, ratio 1.16 */
        {"TRT-0.8 Llama-2-7B 1xH200 FP8 B=56 2048/2048", "llama-7b", NULL, "h200", "nvlink4", 1,
         1, 56, 2048, 2048, F8, F8, M_TPS, 3530, 0},
        /* 8343 tok/s measured, 10806 predicted, ratio 1.30: the widest of
         * this group; compute is 10 % of memory time per step here, the
         * edge of the memory-bound regime (compute + memory: 1.18) */
        {"TRT-0.8 Llama-2-7B 1xH200 FP8 B=120 128/2048", "llama-7b", NULL, "h200", "nvlink4", 1,
         1, 120, 128, 2048, F8, F8, M_TPS, 8343, 0},
    };
    RUN(check_band, cs);
}

/* --- memory: runs that were measured must fit ------------------------- */

typedef struct mcase {
    vcase c;
    double physical_mib; /* nvidia-smi memory.total of that GPU, MiB */
} mcase;

/* Static batches TRT-LLM ran (so they fitted) that the engine, with the
 * shipped presets, declares too big.  The presets used to take the
 * marketing capacity as decimal GB while "80GB" on an A100 or H100 is
 * 80 GiB; they now hold the total the driver reports (nvidia-smi: 81920 MiB
 * = 85.9e9 bytes on A100-SXM4-80GB, 81559 MiB = 85.5e9 on H100 80GB HBM3,
 * 143771 MiB = 150.8e9 on H200, 46068 MiB = 48.3e9 on L40S), which this
 * test checks too.  What still says "does not fit" is the engine's 0.9
 * usable fraction and 2 GB runtime overhead, which these runs evidently
 * did not need in full.  What must hold whatever the presets say: the engine's own
 * per-GPU total (weights + KV at full context + prefill workspace +
 * overhead) is below the physical memory of the GPU the run used. */
static void test_capacity_measured_runs(void **state)
{
    (void)state;
    static const mcase cs[] = {
        /* needs 84.6 GB; physical 85.9; usable 77.3 */
        {{"TRT-0.6 Llama-2-7B 1xA100 B=60 128/2048", "llama-7b", NULL, "a100-80gb", "nvlink3", 1,
          1, 60, 128, 2048, F16, F16, M_TPS, 1928, 1},
         81920},
        /* needs 78.6 GB; physical 85.5; usable 77.0 */
        {{"TRT-0.8 Llama-2-7B 1xH100 FP8 B=56 2048/2048", "llama-7b", NULL, "h100-sxm", "nvlink4",
          1, 1, 56, 2048, 2048, F8, F8, M_TPS, 2816, 1},
         81559},
        /* needs 78.5 GB; physical 85.5; usable 77.0 */
        {{"TRT-0.8 Llama-2-7B 1xH100 FP8 B=120 128/2048", "llama-7b", NULL, "h100-sxm", "nvlink4",
          1, 1, 120, 128, 2048, F8, F8, M_TPS, 6922, 1},
         81559},
        /* needs 46.0 GB; physical 48.3; usable 43.5 */
        {{"TRT-0.8 Llama-2-7B 1xL40S FP8 B=64 128/2048", "llama-7b", NULL, "l40s", "pcie4", 1, 1,
          64, 128, 2048, F8, F8, M_TPS, 1654, 1},
         46068},
        /* needs 135.9 GB; physical 150.8; usable 135.7 */
        {{"TRT-0.8 Llama-2-70B 1xH200 FP8 B=64 2048/2048", "llama-2-70b", NULL, "h200", "nvlink4",
          1, 1, 64, 2048, 2048, F8, F8, M_TPS, 1461, 1},
         143771},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        engine_result r;
        evaluate(&cs[i].c, &r);
        double physical = cs[i].physical_mib * 1048576.0;
        print_message("  %-46s needs %6.1f GB, physical %6.1f GB, usable %6.1f GB: %s\n",
                      cs[i].c.name, r.mem.per_gpu_bytes / 1e9, physical / 1e9,
                      r.mem.capacity_bytes / 1e9, r.fits ? "fits" : "does not fit");
        assert_true(r.mem.per_gpu_bytes <= physical);
        /* the preset is that physical total, in GB with two decimals */
        const engine_gpu *g = preset_find_gpu(ts_db, cs[i].c.gpu);
        assert_non_null(g);
        assert_true(fabs(g->memory_bytes - physical) <= 0.005e9 + 1);
    }
}

/* --- outliers: near the ridge point ----------------------------------- */

/* Short prompts (128 tokens): GEMMs with M = 128 sit at the A100 ridge and
 * run well below both ceilings.  The first engine, max(compute, memory)
 * with no fixed all-reduce cost, predicted about half the measured time
 * (ratios 0.46-0.56, in the row comments); with compute + memory time and
 * the measured per-collective base (commit 26da435) the rows print
 * 0.80-0.96 and are in scope. */
static void test_ridge_prefill(void **state)
{
    (void)state;
    static const vcase cs[] = {
        /* 16.1 ms measured, 8.6 predicted by max() (compute 6.4, memory 8.4), 0.53 */
        {"TRT-0.8 Llama-2-7B 1xA100 S=128 TTFT", "llama-7b", NULL, "a100-80gb", "nvlink3", 1, 1,
         1, 128, 1, F16, F16, M_TTFT, 16.1e-3, 0},
        /* 16.4 ms measured, 9.2 predicted by max(), ratio 0.56 */
        {"TRT-0.8 Mistral-7B 1xA100 S=128 TTFT", "mistral-7b", NULL, "a100-80gb", "nvlink3", 1,
         1, 1, 128, 1, F16, F16, M_TTFT, 16.4e-3, 0},
        /* 35.6 ms measured, 16.2 predicted by max(), ratio 0.46 */
        {"TRT-0.8 Llama-2-70B 8xA100 TP8 S=128 TTFT", "llama-2-70b", NULL, "a100-80gb",
         "nvlink3", 8, 8, 1, 128, 1, F16, F16, M_TTFT, 35.6e-3, 0},
        /* 76.5 ms measured, 35.2 predicted by max(), ratio 0.46 */
        {"TRT-0.8 Falcon-180B 8xA100 TP8 S=128 TTFT", "falcon-180b", NULL, "a100-80gb",
         "nvlink3", 8, 8, 1, 128, 1, F16, F16, M_TTFT, 76.5e-3, 0},
    };
    RUN(check_band, cs);
}

/* Static batches whose decode step is not memory-bound: the engine's
 * compute time is 14-58 % of its memory time (GQA models read 4-8x less
 * KV than MHA at the same batch, so they get there at smaller batches;
 * Llama-2-7B needs B = 256).  max() assumed compute hides entirely under
 * memory and was 1.30-1.59x optimistic (row comments); with compute +
 * memory the rows print 0.96-1.18 and are in scope. */
static void test_ridge_decode(void **state)
{
    (void)state;
    static const vcase cs[] = {
        /* 5353 tok/s measured, 6943 predicted by max(), ratio 1.30 (compute/memory
         * per step 0.52) */
        {"TRT-0.8 Llama-2-7B 1xA100 B=256 128/128", "llama-7b", NULL, "a100-80gb", "nvlink3", 1,
         1, 256, 128, 128, F16, F16, M_TPS, 5353, 0},
        /* 1607 tok/s measured, 2142 predicted by max(), ratio 1.33 (0.14) */
        {"TRT-0.8 Mistral-7B 1xA100 B=56 2048/2048", "mistral-7b", NULL, "a100-80gb", "nvlink3", 1,
         1, 56, 2048, 2048, F16, F16, M_TPS, 1607, 0},
        /* 3812 tok/s measured, 5771 predicted by max(), ratio 1.51 (0.33) */
        {"TRT-0.8 Mistral-7B 1xA100 B=120 128/2048", "mistral-7b", NULL, "a100-80gb", "nvlink3", 1,
         1, 120, 128, 2048, F16, F16, M_TPS, 3812, 0},
        /* 185 tok/s/GPU x 4 = 740 measured, 961 predicted by max(), ratio 1.30 (0.16) */
        {"TRT-0.8 Llama-2-70B 4xA100 TP4 B=32 2048/2048", "llama-2-70b", NULL, "a100-80gb",
         "nvlink3", 4, 4, 32, 2048, 2048, F16, F16, M_TPS, 185 * 4, 0},
        /* 595 x 4 = 2380 measured, 3774 predicted by max(), ratio 1.59 (0.58) */
        {"TRT-0.8 Llama-2-70B 4xA100 TP4 B=128 128/2048", "llama-2-70b", NULL, "a100-80gb",
         "nvlink3", 4, 4, 128, 128, 2048, F16, F16, M_TPS, 595 * 4, 0},
        /* 1461 tok/s measured, 2021 predicted by max(), ratio 1.38 (0.23); no fit
         * per the presets */
        {"TRT-0.8 Llama-2-70B 1xH200 FP8 B=64 2048/2048", "llama-2-70b", NULL, "h200", "nvlink4",
         1, 1, 64, 2048, 2048, F8, F8, M_TPS, 1461, 1},
    };
    RUN(check_band, cs);
}

/* --- batch-1 decode with tensor parallelism ----------------------------- */

/* FT's GPT-20B rows show a fixed cost of ~100-120 us per layer as soon as
 * TP > 1, nearly independent of the degree: two all-reduces per layer at
 * ~50 us each (kernel launch + NCCL base latency; nccl-tests measure ~44
 * us for a small all-reduce on 8 A100s).  The ring model charges 2(n-1)
 * alpha with alpha = 1 us on NVLink 3: 2 us at TP2, 14 us at TP8.  So TP
 * speedups come out too good (GPT-20B TP8 over TP1: 5.3x predicted, 2.7x
 * measured).  The links now carry a base cost per collective from
 * nccl-tests' small-message all-reduce (30 us on A100-era links, 19 us
 * on H100-era ones): the rows print 0.73-1.02 and are in scope (the row
 * comments keep the max()/no-base model's 0.47-0.74 and 1.25). */
static void test_tp_batch1(void **state)
{
    (void)state;
    engine_model m = ft_gpt20b();
    const vcase cs[] = {
        /* 3532 ms measured, 2624 predicted by max(), ratio 0.74 */
        {"FT GPT-20B 2xA100 TP2 B=1 80/200 latency", NULL, &m, "a100-80gb", "nvlink3", 2, 2, 1,
         80, 200, F16, F16, M_E2E, 3532e-3, 0},
        /* 2438 ms measured, 1446 predicted by max(), ratio 0.59 */
        {"FT GPT-20B 4xA100 TP4 B=1 80/200 latency", NULL, &m, "a100-80gb", "nvlink3", 4, 4, 1,
         80, 200, F16, F16, M_E2E, 2438e-3, 0},
        /* 2053 ms measured, 963 predicted by max(), ratio 0.47 */
        {"FT GPT-20B 8xA100 TP8 B=1 80/200 latency", NULL, &m, "a100-80gb", "nvlink3", 8, 8, 1,
         80, 200, F16, F16, M_E2E, 2053e-3, 0},
        /* 89 ms measured, 43.1 predicted by max(), ratio 0.48 */
        {"FT GPT-20B 8xA100 TP8 B=1 20/8 latency", NULL, &m, "a100-80gb", "nvlink3", 8, 8, 1, 20,
         8, F16, F16, M_E2E, 89e-3, 0},
        /* gpt3-175b preset (FT's vocabulary is 51200, ours 50257): 488.86
         * ms measured, 281.1 predicted, ratio 0.58.  The 128/8 and 512/32
         * rows imply ~48 ms per token against 30.7 predicted (27 of it the
         * 43.7 GB weight shard at 1.61 TB/s). */
        {"FT GPT-175B 8xA100 TP8 B=1 128/8 latency", "gpt3-175b", NULL, "a100-80gb", "nvlink3", 8,
         8, 1, 128, 8, F16, F16, M_E2E, 488.86e-3, 0},
        /* 1719.96 ms measured, 1092 predicted by max(), ratio 0.64 */
        {"FT GPT-175B 8xA100 TP8 B=1 512/32 latency", "gpt3-175b", NULL, "a100-80gb", "nvlink3",
         8, 8, 1, 512, 32, F16, F16, M_E2E, 1719.96e-3, 0},
        /* MLC blog: 34.5 tok/s measured on two RTX 4090 over PCIe 4.0,
         * 43.1 predicted, ratio 1.25 (160 all-reduces per token at 6.6 us
         * modelled; also the 4.5-bit weights) */
        {"MLC Llama-2-70B int4 2xRTX4090 TP2 decode", "llama-2-70b", NULL, "rtx-4090", "pcie4", 2,
         2, 1, 32, 256, I4, F16, M_DECODE_TPS, 34.5, 0},
    };
    RUN(check_band, cs);
}

/* --- FP8 prefill ------------------------------------------------------ */

/* The first engine applied one eta_c to every dtype: H100's 0.803 is the BF16
 * MAMF; the FP8 MAMF is 1402.6 TFLOPS = 0.709 of 1979 (0.734 on H200;
 * ml-engineering).  TRT-LLM 0.8 also ran attention, norms and activation
 * quantisation outside the FP8 GEMMs.  With the FP8 fraction in the GPU
 * presets (eta_compute_fp8) and compute + memory time the rows print
 * 0.70-0.77 (times) and 1.12-1.28 (prefill-heavy static batches): in
 * scope, though still optimistic. */
static void test_fp8_prefill(void **state)
{
    (void)state;
    static const vcase cs[] = {
        /* 31.0 ms measured, 17.7 predicted before the FP8 fraction, ratio 0.57 */
        {"TRT-0.8 Llama-2-7B 1xH100 FP8 S=2048 TTFT", "llama-7b", NULL, "h100-sxm", "nvlink4", 1,
         1, 1, 2048, 1, F8, F8, M_TTFT, 31.0e-3, 0},
        /* 84.4 ms measured, 50.0 predicted before the FP8 fraction, ratio 0.59 */
        {"TRT-0.8 Llama-2-70B 8xH100 FP8 TP8 S=2048 TTFT", "llama-2-70b", NULL, "h100-sxm",
         "nvlink4", 8, 8, 1, 2048, 1, F8, F8, M_TTFT, 84.4e-3, 0},
        /* 30.1 ms measured, 17.7 predicted before the FP8 fraction, ratio 0.59 */
        {"TRT-0.8 Llama-2-7B 1xH200 FP8 S=2048 TTFT", "llama-7b", NULL, "h200", "nvlink4", 1, 1,
         1, 2048, 1, F8, F8, M_TTFT, 30.1e-3, 0},
        /* 79.0 ms measured, 50.6 predicted before the FP8 fraction, ratio 0.64 */
        {"TRT-0.8 Llama-2-7B 1xL40S FP8 S=2048 TTFT", "llama-7b", NULL, "l40s", "pcie4", 1, 1, 1,
         2048, 1, F8, F8, M_TTFT, 79.0e-3, 0},
        /* 2429 tok/s measured, 3357 predicted before the FP8 fraction, ratio 1.38 (the prefill of
         * 84 x 2048 tokens is most of the request) */
        {"TRT-0.8 Llama-2-7B 1xH200 FP8 B=84 2048/128", "llama-7b", NULL, "h200", "nvlink4", 1, 1,
         84, 2048, 128, F8, F8, M_TPS, 2429, 0},
        /* 579 tok/s measured, 665 predicted before the FP8 fraction, ratio 1.15 */
        {"TRT-0.8 Llama-2-7B 1xL40S FP8 B=32 2048/128", "llama-7b", NULL, "l40s", "pcie4", 1, 1,
         32, 2048, 128, F8, F8, M_TPS, 579, 0},
    };
    RUN(check_band, cs);
}

/* The one row still outside the band: a 128-token FP8 prefill on H100 is
 * both at the ridge and in FP8; TensorRT-LLM 0.8 ran attention, norms and
 * the activation quantisation outside the FP8 GEMMs, which the engine does
 * not model.  Optimistic (printed ratio 0.59; 0.41 before). */
static void test_outlier_fp8_short_prefill(void **state)
{
    (void)state;
    static const vcase cs[] = {
        /* 6.4 ms measured, 2.6 predicted before the FP8 fraction, ratio 0.41 (also at the ridge) */
        {"TRT-0.8 Llama-2-7B 1xH100 FP8 S=128 TTFT", "llama-7b", NULL, "h100-sxm", "nvlink4", 1,
         1, 1, 128, 1, F8, F8, M_TTFT, 6.4e-3, 0},
    };
    RUN(check_optimistic, cs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefill_long_fp16),
        cmocka_unit_test(test_decode_batch1_one_gpu),
        cmocka_unit_test(test_static_batch_memory_bound),
        cmocka_unit_test(test_capacity_measured_runs),
        cmocka_unit_test(test_ridge_prefill),
        cmocka_unit_test(test_ridge_decode),
        cmocka_unit_test(test_tp_batch1),
        cmocka_unit_test(test_fp8_prefill),
        cmocka_unit_test(test_outlier_fp8_short_prefill),
    };
    return cmocka_run_group_tests(tests, ts_presets_setup, ts_presets_teardown);
}
