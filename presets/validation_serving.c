/*
 * validation_serving.c - published serving runs under a stated load, the
 * cases of the "serving" category of `shardscope validate`.  Each row
 * rebuilds one run from the shipped presets (model, GPU type and count,
 * TP/PP/EP plan, framework profile, precision) and its load: the arrivals
 * (a closed loop of C requests in flight, Poisson arrivals at R requests/s,
 * or every request at t = 0), the request count, the prompt and output
 * lengths and the engine limits the run set.  It carries up to three
 * measured figures, copied from the source in SI units: TTFT and TPOT (mean
 * or median over requests, as the source prints them; TPOT per request as
 * (e2e - TTFT) / (G - 1), which is NIM's and AIPerf's "ITL") and the output
 * tokens/s of the whole deployment.  The load simulation runs each row and
 * the test holds every published figure to its band.
 *
 * Selection: complete setups only (model, GPU, plan, precision, lengths,
 * load, framework named); every row of a chosen table, none left out for
 * being off; no speculative decoding, prefix-cache hits, prefill/decode
 * disaggregation, production averages, bounds or plot reads; ShareGPT and
 * other dataset-length runs are left out until a length trace of the run is
 * at hand (their lengths are not published).  KV dtype: FP8 where the
 * source states it or where the published load proves it, else the
 * checkpoint's 16-bit dtype (the rule of validation_cases.c): the NIM FP8
 * engines' cache is 8-bit, since its 8B table serves 150 concurrent requests
 * of 5500 tokens on one 80 GB H100 (1.08 s TTFT, throughput still rising),
 * whose 16-bit cache would be 150 x 5500 x 128 KiB = 108 GB.  Bands: the
 * table was evaluated once with VAL_SERVING_BAND (0.30) for every figure; a
 * figure beyond it carries ceil((|ratio - 1| + 0.05) x 20) / 20 and its
 * row's note says why.  Requests simulated: the run's count, else 8 per
 * request in flight and at least 400 (VAL_SERVING_PER_SLOT, _MIN_REQUESTS),
 * seed 42; the framework profile's max_num_seqs, max_num_tokens and
 * scheduler.  Saturation is a
 * property of the published numbers (val_serving_saturated): a row whose
 * throughput is within 10 % of its sweep's highest is past the knee; the
 * headline error of `validate` counts TTFT and TPOT below it.
 *
 * Source tags:
 *  NIM     https://docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance.md,
 *          "Llama-3.1-8b-instruct Results" and "Llama-3.3-70b-instruct
 *          Results", Version 1.8.0 (the page's tables: Concurrency, TTFT (ms),
 *          ITL (ms), Throughput(Tokens/s)); the 1.8.0 tables with their
 *          headings (GPU count, precision, TP, lengths) as transcribed in
 *          zivbeker42/llm-guesstimator@9fa7c3b7aa790c7530c1eec64f37bf2a03d7a865:
 *          tested_benchmarks/nim_llama3.1_8b_v1.8.0_1xH100_80GB.csv and
 *          @cf11e664a85abf1f5cb811e7c7798581aadb1290:
 *          tested_benchmarks/nim_llama33_70b_v1.8.0_2xH100_fp8TP2.csv (the
 *          70B 5000/500 rows are also on the page's own excerpt: "| 1 |
 *          406.77 | 18.58 | 51.67 |" ... "| 250 | 88605.32 | 93.2 | 920.12 |").
 *          AIPerf closed loop at each concurrency, synthetic fixed lengths;
 *          NIM 1.8.0's TensorRT-LLM engines (profile not printed); "H100 80G":
 *          SXM presumed; the tables' statistic is not printed: AIPerf's
 *          average presumed (mean); request count unstated.
 *  VB3     vllm-project/vllm-project.github.io@c3a01c4a5807c8d900ae468897e45263373e534e:
 *          _posts/2026-04-22-fp8-kvcache.md, "Throughput under Load", Tables 4
 *          and 5: "150 requests at concurrency 8, each with ~20k input tokens
 *          and ~2k output tokens (+-15% variance)", one H100 ("All Hopper
 *          experiments run on a single H100 GPU using FlashAttention-3"),
 *          vllm bench serve; medians of TTFT and ITL (vLLM's ITL: the gaps
 *          between tokens; its median equals the median TPOT when decode
 *          steps are even), output tok/s.  The FP8 skip-SW row of Table 5
 *          (FP8 KV on the global layers only) is left out: one KV dtype per
 *          model is all the presets express.
 *  GH20469 https://github.com/vllm-project/vllm/issues/20469 (a user report,
 *          vLLM v0.9.1, Qwen/Qwen3-14B-AWQ on one A100 80GB, --enforce-eager):
 *          the concurrency-1 block only (the higher concurrencies are in an
 *          image: "~12" and "~3" tokens/s).
 *
 * Left out (notes in /work/valdata/serving.md and the report of this
 * table): the SGLang v0.3 / vLLM v0.6 online runs at 4 and 8 requests/s
 * (sgl-project/sglang benchmark/benchmark_vllm_060/README.md: ShareGPT
 * lengths, unpublished), the vLLM nightly ShareGPT QPS runs (Buildkite), the
 * Lambda vLLM ShareGPT sweeps, the DeepSeek-V3 MI300X MTP tables (lengths
 * presumed) and every disaggregated or speculative run.
 */
#include "validation.h"

#include <string.h>

#define B16 ENGINE_BF16
#define F8 ENGINE_FP8

#define SRC_NIM_8B                                                                                 \
    "https://docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance.md, Llama-3.1-8b-instruct "   \
    "Results, Version 1.8.0, 1 x H100 80G, fp8 TP1 (transcribed: zivbeker42/llm-guesstimator@"    \
    "9fa7c3b7aa790c7530c1eec64f37bf2a03d7a865:tested_benchmarks/nim_llama3.1_8b_v1.8.0_1xH100_80GB.csv)"
#define SRC_NIM_70B                                                                                \
    "https://docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance.md, Llama-3.3-70b-instruct "  \
    "Results, Version 1.8.0, 2 x H100 80G, fp8 TP2 (transcribed: zivbeker42/llm-guesstimator@"    \
    "cf11e664a85abf1f5cb811e7c7798581aadb1290:tested_benchmarks/nim_llama33_70b_v1.8.0_2xH100_fp8TP2.csv)"
#define SETUP_NIM                                                                                  \
    "NIM 1.8.0 (TensorRT-LLM engine), AIPerf closed loop at the row's concurrency, fixed "         \
    "synthetic lengths, mean TTFT and ITL presumed, output tokens/s"

/* One NIM sweep's common part (a row adds id, sweep, load, lengths, figures). */
#define NIM_L31_8B                                                                                 \
    .source = SRC_NIM_8B, .setup = SETUP_NIM, .model = "llama-3.1-8b", .gpu = "h100-sxm",         \
    .framework = "trt-llm", .gpus = 1, .tp = 1, .pp = 1, .ep = 1,                                   \
    .arrival = VAL_ARRIVAL_CLOSED, .weights = F8, .kv = F8, .stat = VAL_STAT_MEAN
#define NIM_L33_70B                                                                                \
    .source = SRC_NIM_70B, .setup = SETUP_NIM, .model = "llama-3.1-70b", .gpu = "h100-sxm",       \
    .framework = "trt-llm", .gpus = 2, .tp = 2, .pp = 1, .ep = 1,                                   \
    .arrival = VAL_ARRIVAL_CLOSED, .weights = F8, .kv = F8, .stat = VAL_STAT_MEAN

#define SRC_VB3_T4                                                                                 \
    "vllm-project/vllm-project.github.io@c3a01c4a5807c8d900ae468897e45263373e534e:"               \
    "_posts/2026-04-22-fp8-kvcache.md, Throughput under Load, Table 4"
#define SRC_VB3_T5                                                                                 \
    "vllm-project/vllm-project.github.io@c3a01c4a5807c8d900ae468897e45263373e534e:"               \
    "_posts/2026-04-22-fp8-kvcache.md, Throughput under Load, Table 5"
#define SRC_GH20469                                                                                \
    "https://github.com/vllm-project/vllm/issues/20469, the first benchmark block "               \
    "('Mean TTFT (ms): 3345.37', 'Mean TPOT (ms): 20.63', 'Output token throughput (tok/s): 26.84')"
#define VB3_RUN                                                                                    \
    .gpu = "h100-sxm", .framework = "vllm", .gpus = 1, .tp = 1, .pp = 1, .ep = 1,                  \
    .arrival = VAL_ARRIVAL_CLOSED, .load = 8, .requests = 150, .prompt = 20000, .gen = 2000,       \
    .spread = 0.15, .weights = B16, .stat = VAL_STAT_P50

/* Why a figure is off (the rows' notes; the README's serving paragraph). */
#define N_LOCK                                                                                     \
    "closed loop below the knee: the simulated loop of fixed lengths stays in step (a wave of "   \
    "completions re-enters together and every request waits for the wave's prefill: each TTFT "  \
    "of the 70B at 25 x 200 tokens is the 0.35 s step of 25 prompts); the published means are "   \
    "0.3-0.7x of that, their requests spread over the steps"
#define N_SPREAD                                                                                   \
    "closed loop below the knee: the published TTFT grows with every request added (8B "        \
    "1000/1000: 56 ms at 5, 268 ms at 25), the simulated chunked prefill (8192 tokens a step) "  \
    "takes the new prompts within a chunk or two; NIM's TensorRT-LLM scheduler settings "        \
    "(max_num_tokens, context chunking, capacity policy) are not published"
#define N_REQ                                                                                      \
    "one short prompt: the published TTFT is 4.5 ms above the modelled prefill (8B, 200 tokens: " \
    "10.3 ms against 5.7 ms), a per-request cost (HTTP, tokenizer, scheduling) the TensorRT-LLM " \
    "profile does not carry (request_us 0)"
#define N_KNEE                                                                                     \
    "past the published knee TTFT is mostly queueing, set by how many requests the engine holds " \
    "at once; the published run queues where the simulated one (batch limit 2048, 0.9 of the "   \
    "free memory for the cache) still holds every request, or the other way round: NIM's engine " \
    "limits are not published"
#define N_GPTOSS                                                                                   \
    "gpt-oss-20b (MXFP4 MoE, the preset's dtype; 128-token sliding window on every other layer) " \
    "at 8 x 20k tokens on H100: the modelled decode step is 1.8x the published median ITL and "  \
    "its prefill 0.65x; medians of TTFT and ITL; lengths +-15 % (uniform presumed)"
#define N_BIGB                                                                                     \
    "8B decode at 150-250 sequences of 200-400 tokens: the modelled step is 0.65-0.8x the "       \
    "published TPOT and the throughput 1.3-1.7x (TensorRT-LLM's work per sequence at large "     \
    "batches, not modelled)"

const val_serving_case val_serving_cases[] = {
    /* --- NIM 1.8.0: Llama-3.1-8B-Instruct, 1 x H100, FP8, closed loop 1..250 --- */
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c1-200-200", .sweep = "nim-l31-8b-h100-f8-200-200", .load = 1, .prompt = 200, .gen = 200,
     .ttft_s = 10.26e-3, .tpot_s = 4.63e-3, .tps = 214.56, .band = {0.50, 0, 0}, .note = N_REQ},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c5-200-200", .sweep = "nim-l31-8b-h100-f8-200-200", .load = 5, .prompt = 200, .gen = 200,
     .ttft_s = 16.81e-3, .tpot_s = 4.58e-3, .tps = 1076.88},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c25-200-200", .sweep = "nim-l31-8b-h100-f8-200-200", .load = 25, .prompt = 200, .gen = 200,
     .ttft_s = 36.34e-3, .tpot_s = 5.19e-3, .tps = 4678.88, .band = {1.00, 0, 0}, .note = N_LOCK},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c50-200-200", .sweep = "nim-l31-8b-h100-f8-200-200", .load = 50, .prompt = 200, .gen = 200,
     .ttft_s = 67.41e-3, .tpot_s = 5.91e-3, .tps = 8018.23, .band = {0.50, 0, 0}, .note = N_LOCK},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c100-200-200", .sweep = "nim-l31-8b-h100-f8-200-200", .load = 100, .prompt = 200, .gen = 200,
     .ttft_s = 119.97e-3, .tpot_s = 7.57e-3, .tps = 12214.97},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c150-200-200", .sweep = "nim-l31-8b-h100-f8-200-200", .load = 150, .prompt = 200, .gen = 200,
     .ttft_s = 346.53e-3, .tpot_s = 9.81e-3, .tps = 12988.89, .band = {0.70, 0, 0.40}, .note = N_KNEE "; " N_BIGB},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c200-200-200", .sweep = "nim-l31-8b-h100-f8-200-200", .load = 200, .prompt = 200, .gen = 200,
     .ttft_s = 465.18e-3, .tpot_s = 12.65e-3, .tps = 13348.4, .band = {0.75, 0, 0.60}, .note = N_KNEE "; " N_BIGB},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c250-200-200", .sweep = "nim-l31-8b-h100-f8-200-200", .load = 250, .prompt = 200, .gen = 200,
     .ttft_s = 605.6e-3, .tpot_s = 16.14e-3, .tps = 12964.72, .band = {0.85, 0.40, 0.80}, .note = N_KNEE "; " N_BIGB},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c1-500-2000", .sweep = "nim-l31-8b-h100-f8-500-2000", .load = 1, .prompt = 500, .gen = 2000,
     .ttft_s = 13.84e-3, .tpot_s = 4.56e-3, .tps = 218.86, .band = {0.40, 0, 0}, .note = N_REQ},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c5-500-2000", .sweep = "nim-l31-8b-h100-f8-500-2000", .load = 5, .prompt = 500, .gen = 2000,
     .ttft_s = 30.88e-3, .tpot_s = 4.81e-3, .tps = 1035.85},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c25-500-2000", .sweep = "nim-l31-8b-h100-f8-500-2000", .load = 25, .prompt = 500, .gen = 2000,
     .ttft_s = 97.07e-3, .tpot_s = 5.82e-3, .tps = 4263.49},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c50-500-2000", .sweep = "nim-l31-8b-h100-f8-500-2000", .load = 50, .prompt = 500, .gen = 2000,
     .ttft_s = 135.26e-3, .tpot_s = 7.06e-3, .tps = 7009.01},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c100-500-2000", .sweep = "nim-l31-8b-h100-f8-500-2000", .load = 100, .prompt = 500, .gen = 2000,
     .ttft_s = 239.92e-3, .tpot_s = 9.51e-3, .tps = 10379.22, .band = {0.45, 0, 0}, .note = N_SPREAD},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c150-500-2000", .sweep = "nim-l31-8b-h100-f8-500-2000", .load = 150, .prompt = 500, .gen = 2000,
     .ttft_s = 376.95e-3, .tpot_s = 13.34e-3, .tps = 11053.75, .band = {0.60, 0, 0}, .note = N_SPREAD},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c200-500-2000", .sweep = "nim-l31-8b-h100-f8-500-2000", .load = 200, .prompt = 500, .gen = 2000,
     .ttft_s = 1664.34e-3, .tpot_s = 14.96e-3, .tps = 12549.74, .band = {0.95, 0, 0}, .note = N_KNEE},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c250-500-2000", .sweep = "nim-l31-8b-h100-f8-500-2000", .load = 250, .prompt = 500, .gen = 2000,
     .ttft_s = 6550.46e-3, .tpot_s = 16.97e-3, .tps = 12268.82, .band = {1.05, 0, 0}, .note = N_KNEE},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c1-1000-1000", .sweep = "nim-l31-8b-h100-f8-1000-1000", .load = 1, .prompt = 1000, .gen = 1000,
     .ttft_s = 19.03e-3, .tpot_s = 4.53e-3, .tps = 220.1},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c5-1000-1000", .sweep = "nim-l31-8b-h100-f8-1000-1000", .load = 5, .prompt = 1000, .gen = 1000,
     .ttft_s = 55.87e-3, .tpot_s = 4.8e-3, .tps = 1031.3},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c25-1000-1000", .sweep = "nim-l31-8b-h100-f8-1000-1000", .load = 25, .prompt = 1000, .gen = 1000,
     .ttft_s = 268.42e-3, .tpot_s = 5.84e-3, .tps = 4098.01, .band = {0.65, 0, 0}, .note = N_SPREAD},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c50-1000-1000", .sweep = "nim-l31-8b-h100-f8-1000-1000", .load = 50, .prompt = 1000, .gen = 1000,
     .ttft_s = 414.87e-3, .tpot_s = 7.26e-3, .tps = 6514.66, .band = {0.70, 0, 0}, .note = N_SPREAD},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c100-1000-1000", .sweep = "nim-l31-8b-h100-f8-1000-1000", .load = 100, .prompt = 1000, .gen = 1000,
     .ttft_s = 615.16e-3, .tpot_s = 10.04e-3, .tps = 9392.43, .band = {0.75, 0, 0}, .note = N_SPREAD},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c150-1000-1000", .sweep = "nim-l31-8b-h100-f8-1000-1000", .load = 150, .prompt = 1000, .gen = 1000,
     .ttft_s = 885.53e-3, .tpot_s = 14.14e-3, .tps = 9982.74, .band = {0.80, 0, 0}, .note = N_SPREAD},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c200-1000-1000", .sweep = "nim-l31-8b-h100-f8-1000-1000", .load = 200, .prompt = 1000, .gen = 1000,
     .ttft_s = 1258.79e-3, .tpot_s = 16.02e-3, .tps = 11553.34, .band = {0.85, 0, 0}, .note = N_KNEE},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c250-1000-1000", .sweep = "nim-l31-8b-h100-f8-1000-1000", .load = 250, .prompt = 1000, .gen = 1000,
     .ttft_s = 1885.04e-3, .tpot_s = 19.68e-3, .tps = 11527.61, .band = {0.90, 0, 0}, .note = N_KNEE},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c1-5000-500", .sweep = "nim-l31-8b-h100-f8-5000-500", .load = 1, .prompt = 5000, .gen = 500,
     .ttft_s = 77.45e-3, .tpot_s = 4.62e-3, .tps = 209.96},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c5-5000-500", .sweep = "nim-l31-8b-h100-f8-5000-500", .load = 5, .prompt = 5000, .gen = 500,
     .ttft_s = 279.92e-3, .tpot_s = 5.42e-3, .tps = 838.03, .band = {0.75, 0, 0}, .note = N_SPREAD},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c25-5000-500", .sweep = "nim-l31-8b-h100-f8-5000-500", .load = 25, .prompt = 5000, .gen = 500,
     .ttft_s = 724.14e-3, .tpot_s = 9.67e-3, .tps = 2251.44, .band = {0.80, 0, 0}, .note = N_SPREAD},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c50-5000-500", .sweep = "nim-l31-8b-h100-f8-5000-500", .load = 50, .prompt = 5000, .gen = 500,
     .ttft_s = 817.73e-3, .tpot_s = 16.47e-3, .tps = 2765.71, .band = {0.55, 0, 0}, .note = N_SPREAD},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c100-5000-500", .sweep = "nim-l31-8b-h100-f8-5000-500", .load = 100, .prompt = 5000, .gen = 500,
     .ttft_s = 915.15e-3, .tpot_s = 29.67e-3, .tps = 3180.16},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c150-5000-500", .sweep = "nim-l31-8b-h100-f8-5000-500", .load = 150, .prompt = 5000, .gen = 500,
     .ttft_s = 1080e-3, .tpot_s = 43.35e-3, .tps = 3301.68},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c200-5000-500", .sweep = "nim-l31-8b-h100-f8-5000-500", .load = 200, .prompt = 5000, .gen = 500,
     .ttft_s = 4361.35e-3, .tpot_s = 50.41e-3, .tps = 3378.48},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c250-5000-500", .sweep = "nim-l31-8b-h100-f8-5000-500", .load = 250, .prompt = 5000, .gen = 500,
     .ttft_s = 11717.42e-3, .tpot_s = 50.53e-3, .tps = 3372},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c1-20000-2000", .sweep = "nim-l31-8b-h100-f8-20000-2000", .load = 1, .prompt = 20000, .gen = 2000,
     .ttft_s = 403.2e-3, .tpot_s = 5.06e-3, .tps = 189.96},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c5-20000-2000", .sweep = "nim-l31-8b-h100-f8-20000-2000", .load = 5, .prompt = 20000, .gen = 2000,
     .ttft_s = 1141.22e-3, .tpot_s = 7.39e-3, .tps = 627.76, .band = {0.60, 0, 0}, .note = N_SPREAD},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c25-20000-2000", .sweep = "nim-l31-8b-h100-f8-20000-2000", .load = 25, .prompt = 20000, .gen = 2000,
     .ttft_s = 2371.46e-3, .tpot_s = 19.35e-3, .tps = 1217.04, .band = {0.70, 0, 0}, .note = N_KNEE},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c50-20000-2000", .sweep = "nim-l31-8b-h100-f8-20000-2000", .load = 50, .prompt = 20000, .gen = 2000,
     .ttft_s = 11071.41e-3, .tpot_s = 30.73e-3, .tps = 1330.57},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c100-20000-2000", .sweep = "nim-l31-8b-h100-f8-20000-2000", .load = 100, .prompt = 20000, .gen = 2000,
     .ttft_s = 78187.07e-3, .tpot_s = 31.08e-3, .tps = 1336.09},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c150-20000-2000", .sweep = "nim-l31-8b-h100-f8-20000-2000", .load = 150, .prompt = 20000, .gen = 2000,
     .ttft_s = 145290.54e-3, .tpot_s = 31.31e-3, .tps = 1337},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c200-20000-2000", .sweep = "nim-l31-8b-h100-f8-20000-2000", .load = 200, .prompt = 20000, .gen = 2000,
     .ttft_s = 211735.71e-3, .tpot_s = 31.46e-3, .tps = 1338.24},
    {NIM_L31_8B, .id = "nim-l31-8b-h100-f8-c250-20000-2000", .sweep = "nim-l31-8b-h100-f8-20000-2000", .load = 250, .prompt = 20000, .gen = 2000,
     .ttft_s = 278580.85e-3, .tpot_s = 31.62e-3, .tps = 1337.66},
    /* --- NIM 1.8.0: Llama-3.3-70B-Instruct (llama-3.1-70b shape), 2 x H100, FP8 TP2 --- */
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c1-5000-500", .sweep = "nim-l33-70b-h100-f8-tp2-5000-500", .load = 1, .prompt = 5000, .gen = 500,
     .ttft_s = 406.77e-3, .tpot_s = 18.58e-3, .tps = 51.67},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c5-5000-500", .sweep = "nim-l33-70b-h100-f8-tp2-5000-500", .load = 5, .prompt = 5000, .gen = 500,
     .ttft_s = 546.7e-3, .tpot_s = 21.83e-3, .tps = 218.48},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c25-5000-500", .sweep = "nim-l33-70b-h100-f8-tp2-5000-500", .load = 25, .prompt = 5000, .gen = 500,
     .ttft_s = 688.69e-3, .tpot_s = 38.75e-3, .tps = 623.4, .band = {0.45, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c50-5000-500", .sweep = "nim-l33-70b-h100-f8-tp2-5000-500", .load = 50, .prompt = 5000, .gen = 500,
     .ttft_s = 834.51e-3, .tpot_s = 59.73e-3, .tps = 814.37, .band = {1.40, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c100-5000-500", .sweep = "nim-l33-70b-h100-f8-tp2-5000-500", .load = 100, .prompt = 5000, .gen = 500,
     .ttft_s = 7996.25e-3, .tpot_s = 92.91e-3, .tps = 917.26},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c150-5000-500", .sweep = "nim-l33-70b-h100-f8-tp2-5000-500", .load = 150, .prompt = 5000, .gen = 500,
     .ttft_s = 34794.22e-3, .tpot_s = 92.86e-3, .tps = 920.9},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c200-5000-500", .sweep = "nim-l33-70b-h100-f8-tp2-5000-500", .load = 200, .prompt = 5000, .gen = 500,
     .ttft_s = 61680.22e-3, .tpot_s = 93.06e-3, .tps = 920.54},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c250-5000-500", .sweep = "nim-l33-70b-h100-f8-tp2-5000-500", .load = 250, .prompt = 5000, .gen = 500,
     .ttft_s = 88605.32e-3, .tpot_s = 93.2e-3, .tps = 920.12},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c1-500-2000", .sweep = "nim-l33-70b-h100-f8-tp2-500-2000", .load = 1, .prompt = 500, .gen = 2000,
     .ttft_s = 47.77e-3, .tpot_s = 18.91e-3, .tps = 52.85},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c5-500-2000", .sweep = "nim-l33-70b-h100-f8-tp2-500-2000", .load = 5, .prompt = 500, .gen = 2000,
     .ttft_s = 126.53e-3, .tpot_s = 19.04e-3, .tps = 261.83, .band = {0.50, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c25-500-2000", .sweep = "nim-l33-70b-h100-f8-tp2-500-2000", .load = 25, .prompt = 500, .gen = 2000,
     .ttft_s = 147.63e-3, .tpot_s = 21.69e-3, .tps = 1149.05, .band = {2.35, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c50-500-2000", .sweep = "nim-l33-70b-h100-f8-tp2-500-2000", .load = 50, .prompt = 500, .gen = 2000,
     .ttft_s = 181.64e-3, .tpot_s = 23.97e-3, .tps = 2078.43, .band = {2.45, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c100-500-2000", .sweep = "nim-l33-70b-h100-f8-tp2-500-2000", .load = 100, .prompt = 500, .gen = 2000,
     .ttft_s = 229.77e-3, .tpot_s = 29.98e-3, .tps = 3322.87, .band = {2.25, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c150-500-2000", .sweep = "nim-l33-70b-h100-f8-tp2-500-2000", .load = 150, .prompt = 500, .gen = 2000,
     .ttft_s = 296.74e-3, .tpot_s = 37.85e-3, .tps = 3948.26, .band = {1.90, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c200-500-2000", .sweep = "nim-l33-70b-h100-f8-tp2-500-2000", .load = 200, .prompt = 500, .gen = 2000,
     .ttft_s = 4867.89e-3, .tpot_s = 40.72e-3, .tps = 4624.14, .band = {0.90, 0, 0}, .note = N_KNEE},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c1-200-200", .sweep = "nim-l33-70b-h100-f8-tp2-200-200", .load = 1, .prompt = 200, .gen = 200,
     .ttft_s = 31.22e-3, .tpot_s = 18.8e-3, .tps = 53},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c5-200-200", .sweep = "nim-l33-70b-h100-f8-tp2-200-200", .load = 5, .prompt = 200, .gen = 200,
     .ttft_s = 88.7e-3, .tpot_s = 18.83e-3, .tps = 260.67},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c25-200-200", .sweep = "nim-l33-70b-h100-f8-tp2-200-200", .load = 25, .prompt = 200, .gen = 200,
     .ttft_s = 138.98e-3, .tpot_s = 20.61e-3, .tps = 1178.68, .band = {1.60, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c50-200-200", .sweep = "nim-l33-70b-h100-f8-tp2-200-200", .load = 50, .prompt = 200, .gen = 200,
     .ttft_s = 156.28e-3, .tpot_s = 23.33e-3, .tps = 2081.24, .band = {2.20, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c100-200-200", .sweep = "nim-l33-70b-h100-f8-tp2-200-200", .load = 100, .prompt = 200, .gen = 200,
     .ttft_s = 176.8e-3, .tpot_s = 29.87e-3, .tps = 3263.31, .band = {2.20, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c150-200-200", .sweep = "nim-l33-70b-h100-f8-tp2-200-200", .load = 150, .prompt = 200, .gen = 200,
     .ttft_s = 195.51e-3, .tpot_s = 37.75e-3, .tps = 3883.1, .band = {2.30, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c200-200-200", .sweep = "nim-l33-70b-h100-f8-tp2-200-200", .load = 200, .prompt = 200, .gen = 200,
     .ttft_s = 253.36e-3, .tpot_s = 42.95e-3, .tps = 4534.54, .band = {1.85, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c250-200-200", .sweep = "nim-l33-70b-h100-f8-tp2-200-200", .load = 250, .prompt = 200, .gen = 200,
     .ttft_s = 264.22e-3, .tpot_s = 48.16e-3, .tps = 5067.05, .band = {1.85, 0, 0}, .note = N_KNEE},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c1-1000-1000", .sweep = "nim-l33-70b-h100-f8-tp2-1000-1000", .load = 1, .prompt = 1000, .gen = 1000,
     .ttft_s = 82.46e-3, .tpot_s = 18.67e-3, .tps = 53.37},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c5-1000-1000", .sweep = "nim-l33-70b-h100-f8-tp2-1000-1000", .load = 5, .prompt = 1000, .gen = 1000,
     .ttft_s = 145.62e-3, .tpot_s = 19.07e-3, .tps = 260.48, .band = {1.50, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c25-1000-1000", .sweep = "nim-l33-70b-h100-f8-tp2-1000-1000", .load = 25, .prompt = 1000, .gen = 1000,
     .ttft_s = 250.49e-3, .tpot_s = 22.45e-3, .tps = 1102.23, .band = {1.35, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c50-1000-1000", .sweep = "nim-l33-70b-h100-f8-tp2-1000-1000", .load = 50, .prompt = 1000, .gen = 1000,
     .ttft_s = 278.62e-3, .tpot_s = 25.87e-3, .tps = 1912.93, .band = {1.70, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c100-1000-1000", .sweep = "nim-l33-70b-h100-f8-tp2-1000-1000", .load = 100, .prompt = 1000, .gen = 1000,
     .ttft_s = 334.23e-3, .tpot_s = 34.21e-3, .tps = 2895.49, .band = {1.95, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c150-1000-1000", .sweep = "nim-l33-70b-h100-f8-tp2-1000-1000", .load = 150, .prompt = 1000, .gen = 1000,
     .ttft_s = 428.54e-3, .tpot_s = 44.44e-3, .tps = 3342.67, .band = {1.85, 0, 0}, .note = N_LOCK},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c200-1000-1000", .sweep = "nim-l33-70b-h100-f8-tp2-1000-1000", .load = 200, .prompt = 1000, .gen = 1000,
     .ttft_s = 558.23e-3, .tpot_s = 50.66e-3, .tps = 3901.74, .band = {1.60, 0, 0}, .note = N_KNEE},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c250-1000-1000", .sweep = "nim-l33-70b-h100-f8-tp2-1000-1000", .load = 250, .prompt = 1000, .gen = 1000,
     .ttft_s = 3499.83e-3, .tpot_s = 56.3e-3, .tps = 4167.39, .band = {0.60, 0, 0}, .note = N_KNEE},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c1-20000-2000", .sweep = "nim-l33-70b-h100-f8-tp2-20000-2000", .load = 1, .prompt = 20000, .gen = 2000,
     .ttft_s = 1833.01e-3, .tpot_s = 19.58e-3, .tps = 48.8},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c5-20000-2000", .sweep = "nim-l33-70b-h100-f8-tp2-20000-2000", .load = 5, .prompt = 20000, .gen = 2000,
     .ttft_s = 2910.33e-3, .tpot_s = 25.24e-3, .tps = 186.8},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c25-20000-2000", .sweep = "nim-l33-70b-h100-f8-tp2-20000-2000", .load = 25, .prompt = 20000, .gen = 2000,
     .ttft_s = 18781.26e-3, .tpot_s = 48.26e-3, .tps = 415.33, .band = {0.40, 0, 0}, .note = N_KNEE},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c50-20000-2000", .sweep = "nim-l33-70b-h100-f8-tp2-20000-2000", .load = 50, .prompt = 20000, .gen = 2000,
     .ttft_s = 123969.71e-3, .tpot_s = 49.22e-3, .tps = 418.65},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c100-20000-2000", .sweep = "nim-l33-70b-h100-f8-tp2-20000-2000", .load = 100, .prompt = 20000, .gen = 2000,
     .ttft_s = 333564.85e-3, .tpot_s = 49.81e-3, .tps = 425.1},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c150-20000-2000", .sweep = "nim-l33-70b-h100-f8-tp2-20000-2000", .load = 150, .prompt = 20000, .gen = 2000,
     .ttft_s = 543226.4e-3, .tpot_s = 50.01e-3, .tps = 423.95},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c200-20000-2000", .sweep = "nim-l33-70b-h100-f8-tp2-20000-2000", .load = 200, .prompt = 20000, .gen = 2000,
     .ttft_s = 753417.03e-3, .tpot_s = 50.06e-3, .tps = 425.74},
    {NIM_L33_70B, .id = "nim-l33-70b-h100-f8-tp2-c250-20000-2000", .sweep = "nim-l33-70b-h100-f8-tp2-20000-2000", .load = 250, .prompt = 20000, .gen = 2000,
     .ttft_s = 963222.96e-3, .tpot_s = 50.13e-3, .tps = 427.06},
    /* --- VB3: vLLM FP8 KV-cache post, one H100, 150 requests at concurrency 8 --- */
    {VB3_RUN, .id = "vb3-l31-8b-h100-c8-20k-2k", .source = SRC_VB3_T4,
     .setup = "vLLM (v0.19.1 presumed) vllm bench serve, concurrency 8, 150 requests, FlashAttention-3, BF16 KV",
     .model = "llama-3.1-8b", .kv = B16, .ttft_s = 763.6e-3, .tpot_s = 15.18e-3, .tps = 450.3,
     .note = "medians of TTFT and ITL; lengths +-15 % (uniform presumed); H100 form factor unstated"},
    {VB3_RUN, .id = "vb3-l31-8b-h100-kvf8-c8-20k-2k", .source = SRC_VB3_T4,
     .setup = "vLLM (v0.19.1 presumed) vllm bench serve, concurrency 8, 150 requests, FlashAttention-3, --kv-cache-dtype fp8",
     .model = "llama-3.1-8b", .kv = F8, .ttft_s = 742.8e-3, .tpot_s = 12.93e-3, .tps = 517.5,
     .note = "medians of TTFT and ITL; lengths +-15 % (uniform presumed); H100 form factor unstated"},
    {VB3_RUN, .id = "vb3-gptoss-20b-h100-c8-20k-2k", .source = SRC_VB3_T5,
     .setup = "vLLM (v0.19.1 presumed) vllm bench serve, concurrency 8, 150 requests, FlashAttention-3, BF16 KV",
     .model = "gpt-oss-20b", .kv = B16, .ttft_s = 468.9e-3, .tpot_s = 8.09e-3, .tps = 831.6,
     .band = {0.45, 0.90, 0.45}, .note = N_GPTOSS},
    {VB3_RUN, .id = "vb3-gptoss-20b-h100-kvf8-c8-20k-2k", .source = SRC_VB3_T5,
     .setup = "vLLM (v0.19.1 presumed) vllm bench serve, concurrency 8, 150 requests, FlashAttention-3, --kv-cache-dtype fp8",
     .model = "gpt-oss-20b", .kv = F8, .ttft_s = 451.7e-3, .tpot_s = 7.90e-3, .tps = 853.0,
     .band = {0.40, 0.85, 0.40}, .note = N_GPTOSS},
    /* --- GH20469: a vLLM 0.9.1 user report, Qwen3-14B-AWQ on one A100 80GB, concurrency 1 --- */
    {.id = "gh20469-q3-14b-a100-awq-c1-16000-200", .source = SRC_GH20469,
     .setup = "vLLM v0.9.1 vllm serve --gpu-memory-utilization 0.95 --max-model-len 16384 --enforce-eager "
              "--max-num-seq 30; benchmark_serving.py --dataset-name random --max-concurrency 1 "
              "--num-prompts 30 --request-rate 1 --random-input-len 16000 --random-output-len 200",
     .model = "qwen3-14b", .gpu = "a100-80gb", .framework = "vllm", .gpus = 1, .tp = 1, .pp = 1,
     .ep = 1, .arrival = VAL_ARRIVAL_CLOSED, .load = 1, .requests = 30, .prompt = 16000, .gen = 200,
     .weights = ENGINE_INT4, .kv = B16, .max_num_seqs = 30, .mem_fraction = 0.95,
     .max_model_len = 16384, .eager = 1, .stat = VAL_STAT_MEAN, .ttft_s = 3345.37e-3,
     .tpot_s = 20.63e-3, .tps = 26.84, .band = {0, 0.45, 0.60},
     .note = "at most one request in flight (a new one every 7.4 s against a 1 s rate: the "
             "concurrency cap sets the pace, a closed loop); AWQ int4 (group 128); A100 form "
             "factor unstated (SXM presumed); a user report.  Its eager decode step measures "
             "20.6 ms against 12.4 ms modelled (int4 weights, one launch per kernel), so "
             "TPOT is 0.60x and the throughput 1.54x"},
};

const int val_serving_case_count = (int)(sizeof val_serving_cases / sizeof val_serving_cases[0]);

static const char *const ARRIVAL_NAMES[VAL_ARRIVAL_COUNT] = {"closed loop", "Poisson", "offline"};
static const char *const FIGURE_NAMES[VAL_FIG_COUNT] = {"TTFT", "TPOT", "tok/s"};

const char *val_arrival_name(val_arrival a)
{
    return (unsigned)a < VAL_ARRIVAL_COUNT ? ARRIVAL_NAMES[a] : "?";
}

const char *val_figure_name(val_figure f)
{
    return (unsigned)f < VAL_FIG_COUNT ? FIGURE_NAMES[f] : "?";
}

double val_serving_measured(const val_serving_case *c, val_figure f)
{
    switch (f) {
    case VAL_FIG_TTFT:
        return c->ttft_s;
    case VAL_FIG_TPOT:
        return c->tpot_s;
    case VAL_FIG_TPS:
        return c->tps;
    default:
        return 0;
    }
}

double val_serving_band(const val_serving_case *c, val_figure f)
{
    return (unsigned)f < VAL_FIG_COUNT && c->band[f] > 0 ? c->band[f] : VAL_SERVING_BAND;
}

int val_serving_saturated(int i)
{
    if (i < 0 || i >= val_serving_case_count)
        return 0;
    const val_serving_case *c = &val_serving_cases[i];
    if (!c->sweep || c->tps <= 0)
        return 0;
    double top = 0;
    for (int j = 0; j < val_serving_case_count; j++) {
        const val_serving_case *o = &val_serving_cases[j];
        if (o->sweep && !strcmp(o->sweep, c->sweep) && o->tps > top)
            top = o->tps;
    }
    return c->tps >= 0.9 * top;
}
