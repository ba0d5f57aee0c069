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
 * property of the published numbers (val_serving_saturated): an offline row,
 * or a row whose throughput is within 10 % of its sweep's highest, is past
 * the knee; the headline error of `validate` counts TTFT and TPOT below it.
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
 *          NIM 1.8.0's TensorRT-LLM engines (profile not printed: NIM's selection
 *          rules, TensorRT-LLM over vLLM, lower precision first, throughput
 *          profiles on the fewest GPUs, give the FP8 TP1 / TP2 engines of the
 *          headings, https://docs.nvidia.com/nim/large-language-models/latest/
 *          optimization.html; their max_batch_size, max_num_tokens, chunking and
 *          NIM_* defaults are not in the sources at hand, so the rows take the
 *          trt-llm profile's limits, whose GUARANTEED_NO_EVICT admission and
 *          0.9 free-memory cache are TensorRT-LLM's executor defaults: README,
 *          serving); "H100 80G": SXM presumed; the tables' statistic is not
 *          printed: AIPerf's average presumed (mean).  The client run: the
 *          current AIPerf walkthrough sends --request-count 3C from a cold
 *          burst, NVIDIA's GenAI-Perf walkthrough (which says the page's
 *          figures came from GenAI-Perf) 30 s or 100 s measurement windows;
 *          which one made the 1.8.0 tables is unstated, and neither fits both
 *          tables (README, serving, (d)), so the rows keep
 *          VAL_SERVING_PER_SLOT requests a client.
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
 *  GPS     gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/
 *          <model>/<gpu>.md, "Other Benchmark Cases": vllm bench serve offline
 *          (request rate inf, every request at once: "Peak concurrent requests"
 *          equals the count) of the random dataset at 32000/100, 4000/200,
 *          2000/100 and 128/4 tokens (the page's 100, 500, 500 and 1000
 *          prompts), one GPU or the -tp the command gives, mean TTFT, mean
 *          TPOT and output tokens/s; the engine versions the page lists.  Rows:
 *          every baseline run (vllm serve with defaults) of the shipped models
 *          and the optimized runs whose launch the presets express (SGLang,
 *          TensorRT-LLM and vLLM without --async-scheduling or
 *          --enable-dp-attention, which the profiles do not model).  Lengths:
 *          the page's totals over its requests (some outputs stop early:
 *          reasoning models end before max_tokens).
 *  GH20469 https://github.com/vllm-project/vllm/issues/20469 (a user report,
 *          vLLM v0.9.1, Qwen/Qwen3-14B-AWQ on one A100 80GB, --enforce-eager):
 *          the concurrency-1 block only (the higher concurrencies are in an
 *          image: "~12" and "~3" tokens/s).
 *  SGC     sgl-project/sgl-cookbook@7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d:
 *          docs/autoregressive/<family>/<model>.md, "5.1 Speed Benchmark": every
 *          result block of the pages whose model, GPU and launch the presets
 *          express: Llama-3.1-70B (base) on 8 x A100 (SGLang 0.5.6), Qwen3-235B-
 *          A22B-Instruct-2507 on 8 x B200 (0.5.6), DeepSeek-R1-0528 on 8 x B200
 *          (0.5.6.post1), DeepSeek-V3.1 on 8 x MI300X (0.5.7), Llama-4-Maverick on
 *          8 x MI300X (0.5.9), each `--tp 8` and nothing else (Maverick also
 *          --context-length 1000000); bench_serving --dataset-name random at
 *          1000/1000, 1000/8000 and 8000/1000 (as the page has them), 10, 80 and
 *          320-500 prompts at --max-concurrency 1, 16 and 64-100 (request rate
 *          inf: a closed loop); lengths and statistics: the SGC macros below.
 *          The pages' prose names ShareGPT; their commands and totals are the
 *          random dataset's (6101 input tokens over 10 prompts on every page).
 *          A100 memory unstated (80 GB SXM presumed); the checkpoint's dtype
 *          (BF16, DeepSeek FP8), KV cache 16-bit (SGLang's auto).
 *
 * Left out (notes in /work/valdata/serving.md and the report of this
 * table): the SGLang v0.3 / vLLM v0.6 online runs at 4 and 8 requests/s
 * (sgl-project/sglang benchmark/benchmark_vllm_060/README.md: ShareGPT
 * lengths, unpublished), the vLLM nightly ShareGPT QPS runs (Buildkite), the
 * Lambda vLLM ShareGPT sweeps, GPUStack's ShareGPT runs, the DeepSeek-V3
 * MI300X MTP tables (lengths
 * presumed) and every disaggregated or speculative run.  From the SGLang
 * cookbook: the gpt-oss-120b page (bench_serving without --dataset-name:
 * ShareGPT), the DeepSeek-V3 page (EAGLE speculative decoding, DP attention,
 * ShareGPT), the Llama-4-Scout table (its blocks disagree with themselves:
 * the concurrency-16 block's 49668 input / 40805 output tokens against its
 * throughputs x duration, 50880 / 52334, where every other block agrees
 * within 0.01 %), and the pages of models the presets lack (Gemma 4, GLM,
 * Kimi, MiniMax, Qwen3-Next/-Coder/-VL, Nemotron, Ministral, ERNIE, Step).
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
    .arrival = VAL_ARRIVAL_CLOSED, .weights = F8, .kv = F8, .stat = VAL_STAT_MEAN,             \
    .client = VAL_CLIENT_GENAI_PERF
#define NIM_L33_70B                                                                                \
    .source = SRC_NIM_70B, .setup = SETUP_NIM, .model = "llama-3.1-70b", .gpu = "h100-sxm",       \
    .framework = "trt-llm", .gpus = 2, .tp = 2, .pp = 1, .ep = 1,                                   \
    .arrival = VAL_ARRIVAL_CLOSED, .weights = F8, .kv = F8, .stat = VAL_STAT_MEAN,             \
    .client = VAL_CLIENT_GENAI_PERF

#define SRC_VB3_T4                                                                                 \
    "vllm-project/vllm-project.github.io@c3a01c4a5807c8d900ae468897e45263373e534e:"               \
    "_posts/2026-04-22-fp8-kvcache.md, Throughput under Load, Table 4"
#define SRC_VB3_T5                                                                                 \
    "vllm-project/vllm-project.github.io@c3a01c4a5807c8d900ae468897e45263373e534e:"               \
    "_posts/2026-04-22-fp8-kvcache.md, Throughput under Load, Table 5"
#define SRC_GH20469                                                                                \
    "https://github.com/vllm-project/vllm/issues/20469, the first benchmark block "               \
    "('Mean TTFT (ms): 3345.37', 'Mean TPOT (ms): 20.63', 'Output token throughput (tok/s): 26.84')"
#define GPS .pp = 1, .ep = 1, .arrival = VAL_ARRIVAL_OFFLINE, .kv = B16, .stat = VAL_STAT_MEAN
#define N_OFFLINE                                                                                  \
    "an offline run (every request at t = 0: TTFT is the queue, the throughput what the batch "   \
    "limit and the cache allow): the published H100 runs reach 0.35-0.65x the modelled "         \
    "throughput while the same pages' A100 TensorRT-LLM runs are within 15 % and its vLLM runs "  \
    "within 0.7-1.5x; measured H100 over A100 is 1.8x for Qwen3-14B, the model's 2.4x (setups "  \
    "as the pages state them: H100 SXM, vLLM v0.11.0; vllm serve's GPU-dependent defaults, "    \
    "2048 tokens / 256 sequences on A100 and 8192 / 1024 on H100, are not applied: README)"
/* These SGLang offline TPOTs moved out of their bands when SGLang's prefill
 * batches took their own steps (frameworks.json sglang prefill_alone, its
 * scheduler's default without --enable-mixed-chunk), which brought the same
 * page's 128 + 4 TPOT from 0.21 to 0.61 and the cookbook's online TPOTs closer. */
#define N_SGL_ALONE                                                                                \
    "TPOT 0.45-0.60x since SGLang's prefill batches run alone (the decodes wait out every "     \
    "prefill step of the flood, so the TPOT carries the prefill's error on this page, TTFT "     \
    "0.50-0.57x; 0.70-0.81x while the decodes rode in the chunked steps)"
#define N_SHORT                                                                                    \
    "1000 requests of 128 + 4 tokens offline: the published run takes 3-31 s, mostly per-request " \
    "work outside the GPU (API server, tokenizer, detokenizer, scheduling: 3-31 ms a request), "  \
    "which the profiles do not carry (request_us 0)"
/* The 120B's TPOTs on H100 moved out of their bands when the Hopper MXFP4 MoE took
 * aiconfigurator's measured W4A16 rates (gpus.json eta_compute_w4a16), which brought
 * the same pages' 20B TPOTs from 0.38-0.51 to 0.52-0.66 and every throughput closer. */
#define N_GPTOSS_120B_TPOT                                                                         \
    "TPOT 1.9-2.2x since the Hopper MXFP4 MoE takes aiconfigurator's measured W4A16 rates "      \
    "(1.4-1.6x before; the 20B rows of the same pages moved closer, 0.52-0.66)"
#define N_GPTOSS_OFF                                                                               \
    "gpt-oss (MXFP4 MoE) offline: the modelled throughput is 1.5-3.5x the published one and the " \
    "TTFT 0.25-0.7x (its prefill and the MoE decode at large batches are both faster in the "    \
    "model than in vLLM 0.10/0.11)"
/* These TPOTs moved out of their bands when the vllm profile took `vllm serve`'s
 * GPU-dependent V1 defaults (frameworks.json large_gpu_*, serve_max_num_tokens:
 * 2048 tokens a step on A100, 1024 sequences on H100), which brought most of the
 * same pages' offline TPOTs closer (the A100 128 + 4 rows 2.8-3.3x -> 0.94-1.06x)
 * and past the knee from 25.7 to 23.4 %. */
#define N_SERVE_DEFAULTS "; since vllm serve's GPU-dependent defaults apply (README, serving)"
/* Every vLLM row here ran the V1 engine (v0.9.1-v0.19.1; V1 is the default from
 * v0.8): fw_version v1, the profile's host loop for it (unsourced: README). */
#define VB3_RUN                                                                                    \
    .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,       \
    .pp = 1, .ep = 1,                                                                              \
    .arrival = VAL_ARRIVAL_CLOSED, .load = 8, .requests = 150, .prompt = 20000, .gen = 2000,       \
    .spread = 0.15, .stat = VAL_STAT_P50, .async_sched = 1

/* SGC: the SGLang cookbook's speed benchmarks (one page a model, every
 * result block of its random-dataset tables).  bench_serving's random
 * dataset at range ratio 0 (its default) draws each prompt uniformly in
 * [1, L] tokens and each output in [0, G]
 * (sgl-project/sglang@0033168f0f58b2bc05aa0273bd475d9c01bafb1c:
 * python/sglang/bench_serving.py, sample_random_requests and
 * --random-range-ratio default 0.0; seed 1, so the pages' totals repeat:
 * 6101 input tokens over 10 prompts, 39668 over 80): the rows take the
 * published totals' means and spread 0.99 (uniform from 0.01 to 1.99 of the
 * mean).  Medians of TTFT and TPOT (both printed): the samples are small
 * (10 requests at concurrency 1) and the means carry one cold request where
 * the page shows one (Maverick at concurrency 1: mean 4296.56 ms, median
 * 57.45 ms); the one warm-up request replays the first prompt, whose
 * measured copy then hits SGLang's radix cache (on by default), one request
 * of the 10-500. */
#define SRC_SGC(path) "sgl-project/sgl-cookbook@7b5bd9c05e3d86da5161ac2be9b91c19a34bf49d:docs/autoregressive/" path
#define SGC_RUN                                                                                    \
    .framework = "sglang", .pp = 1, .ep = 1, .arrival = VAL_ARRIVAL_CLOSED, .spread = 0.99,       \
    .kv = B16, .stat = VAL_STAT_P50, .client = VAL_CLIENT_BENCH_SERVING

/* Why an SGC figure is off (measured on the rows as first evaluated). */
#define N_SGC_TTFT                                                                                 \
    "SGLang bench_serving TTFT: the published medians barely grow with the prompt (concurrency 1, " \
    "mean prompt 610 -> 4194 tokens: Qwen3-235B B200 92 -> 115 ms, DeepSeek-R1 B200 141 -> 155 "  \
    "ms): SGLang <= 0.5.9 runs prefill (extend) steps eagerly in Python, so a short prefill "      \
    "costs the host's dispatch of its kernels (frameworks.json sglang prefill_launch_us 54, from " \
    "sgl-project/sglang#13094 and #12160's eager-minus-graph times, not from these rows; README, " \
    "SGLang's eager prefill); with it Qwen3-235B is 0.67-0.98x, Llama-4-Maverick 0.52-1.05x, "    \
    "Llama-3.1-70B A100 0.72-1.07x (1.38x at 8000 tokens, one request: the A100 prefill), "       \
    "DeepSeek-R1 0.57-0.80x (about 60 ms a request left, 80 against 141 ms at concurrency 1) and " \
    "DeepSeek-V3.1 on MI300X 0.16-0.56x (its MI300X decode, N_SGC_MI300X); first evaluated "       \
    "without the term: 0.14-0.71x (bands set then, tightened since)"
#define N_SGC_MI300X                                                                               \
    "DeepSeek-V3.1 on 8 x MI300X, SGLang 0.5.7 launched with --tp 8 only: the published decode "  \
    "step at one request in flight is 24 ms against 8 ms modelled (TPOT 0.32-0.53x, tok/s "        \
    "1.9-3.3x); the launch sets no --attention-backend, but SGLang's ROCm image sets "          \
    "SGLANG_USE_AITER=1 (docker/rocm.Dockerfile) and its server arguments take aiter for an MLA " \
    "model with 16 heads a rank on HIP (server_args.py), so this run most likely used AITER's "   \
    "MLA as sg7 (--attention-backend aiter) did; the gap, 16 ms a step, 13.2 us a kernel, is "    \
    "not in AITER's tuned MI300X blockscale GEMMs and fused MoE (their tuning tables are within "  \
    "10 % of the engine: test_kernels.c test_mi300x_aiter_blockscale) nor the GPU's launch "      \
    "floor (Llama-4-Maverick BF16 on the same GPU: 1.8 us); every far "                          \
    "MI300X family is 128x128 block-scaled FP8 (README, 'MI300X decode with block-scaled FP8 "     \
    "under SGLang'); not modelled"
#define N_SGC_COLD                                                                                 \
    "one cold request: mean TTFT 4296.56 ms against a median of 57.45 ms over the 10 requests "   \
    "(one near 42 s), which stretches the run (68 s for 4220 tokens): the throughput is 3.3x, "   \
    "the medians in band"
#define N_SGC_Q3C1                                                                                 \
    "one request in flight: the published step is 10.1-10.3 ms against 7.5 ms modelled (TPOT "   \
    "0.73-0.74x, in band), and the throughput follows (1.37-1.39x)"
#define N_SGC_BIGB                                                                                 \
    "decode at 64-100 requests in flight on 8 x B200 / MI300X: the modelled step is 0.59-0.64x "  \
    "the published TPOT and the throughput 1.5-1.6x (SGLang's work per sequence at large "       \
    "batches, not modelled; the direction of NIM 8B's N_BIGB)"

/* Why a figure is off (the rows' notes; the README's serving paragraph). */
#define N_LOCK                                                                                     \
    "closed loop below the knee: started as its client starts it (all C at once), the simulated " \
    "loop of fixed lengths stays in step (a wave of completions re-enters together and every "   \
    "request waits for the wave's prefill: each TTFT of the 70B at 25 x 200 tokens is the "       \
    "0.35 s step of 25 prompts); with the clients at their own phases (a steady start, "         \
    "validate's ttft_steady) the same rows are 0.3-0.7x of the published means (70B; 8B at "    \
    "200/200: 0.17-0.3x): the published runs lie between the two limits; TensorRT-LLM's "       \
    "no-chunking scheduler (load --scheduler inflight) keeps the lock-step (25 x 200 tokens: one " \
    "5000-token step either way; the 70B at 5000/500, one prompt a step: 1.4-2.4x -> 1.0-1.9x); " \
    "a 2048-token step budget would split the 70B's waves (0.70-2.26x, most 1.0-1.8x) but the "  \
    "8B rows need 8192, and NIM's engine limits are unpublished"
#define N_SPREAD                                                                                   \
    "closed loop below the knee: the published TTFT grows with every request added (8B "        \
    "1000/1000: 56 ms at 5, 268 ms at 25, 886 ms at 150), above both the lock-step of the "      \
    "simulated start (its waves split at the 8192-token chunks and re-enter apart) and a "       \
    "steady start (0.04-0.3x); it is near the mean of the first wave's prefill queue alone "     \
    "(the first C requests: 229-1156 ms, 0.8-1.3x), which the 70B rows are far below (4-12x); " \
    "checked without a fit: TensorRT-LLM's own scheduler without context chunking (its C++ "     \
    "executor's default, load --scheduler inflight) leaves these rows at 0.2-0.6x; a client "     \
    "round trip > 0 (the next request misses the step starting at its predecessor's end, as the " \
    "steady start has it) lifts them to 0.4-1.0x but the 70B's lock-stepped waves to 1.3-5.2x; " \
    "GenAI-Perf's defaults (10 s windows, stability 999) count every request ending in the "     \
    "first 36 s, the start's first wave with them; its 2025 default, max(10, 2C) requests (load "   \
    "--requests 2C), brings these rows to 0.64-1.44x but the 70B's to 0.9-7.2x, and time windows " \
    "(load --measure-window 3.6 I, I = 30 or 100 s) leave them at 0.16-0.68x; NIM's engine limits " \
    "and interval are unpublished"
#define N_REQ                                                                                      \
    "one short prompt: the published TTFT is 4.5 ms above the modelled prefill (8B, 200 tokens: " \
    "10.3 ms against 5.7 ms), a per-request cost (HTTP, tokenizer, scheduling) the TensorRT-LLM " \
    "profile does not carry (request_us 0); part of it is the short-prefill error of the static "  \
    "TensorRT-LLM rows at 128 tokens (no HTTP server: 0.67-0.75x), and no NIM frontend figure is " \
    "published"
#define N_KNEE                                                                                     \
    "past the published knee TTFT is mostly queueing, set by how many requests the engine holds " \
    "at once; the published run queues where the simulated one (batch limit 2048, 0.9 of the "   \
    "free memory for the cache) still holds every request, or the other way round: NIM's engine " \
    "limits are not published"
#define N_VB3_L8B                                                                                  \
    "medians of TTFT and ITL; lengths +-15 % (uniform presumed); H100 form factor unstated;"      \
    " vLLM v0.19.1 schedules asynchronously (async_sched): its host work hides under the GPU "  \
    "step (TPOT 1.19 -> 1.15, FP8 KV 1.07 -> 1.02); the output tok/s above the published (1.12 " \
    "FP8 KV) follows the short modelled TTFT (0.84-0.86)"
#define N_GPTOSS                                                                                   \
    "gpt-oss-20b (MXFP4 MoE, the preset's checkpoint dtype; 128-token sliding window on every "   \
    "other layer) at 8 x 20k tokens on H100: the modelled TTFT is 0.65x the published median "   \
    "(its 20k-token prefill); medians of TTFT and ITL; lengths +-15 % (uniform presumed); async "  \
    "scheduling (vLLM v0.19.1, async_sched) hides the host work: TPOT 1.15 -> 1.07 (FP8 KV 1.08 " \
    "-> 1.00), the output tok/s 1.07-1.14x the published with the short TTFT"
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
     .model = "llama-3.1-8b", .weights = B16, .kv = B16, .ttft_s = 763.6e-3, .tpot_s = 15.18e-3, .tps = 450.3,
     .band = {0, 0.20, 0}, .note = N_VB3_L8B},
    {VB3_RUN, .id = "vb3-l31-8b-h100-kvf8-c8-20k-2k", .source = SRC_VB3_T4,
     .setup = "vLLM (v0.19.1 presumed) vllm bench serve, concurrency 8, 150 requests, FlashAttention-3, --kv-cache-dtype fp8",
     .model = "llama-3.1-8b", .weights = B16, .kv = F8, .ttft_s = 742.8e-3, .tpot_s = 12.93e-3, .tps = 517.5,
     .band = {0, 0.20, 0}, .note = N_VB3_L8B},
    {VB3_RUN, .id = "vb3-gptoss-20b-h100-c8-20k-2k", .source = SRC_VB3_T5,
     .setup = "vLLM (v0.19.1 presumed) vllm bench serve, concurrency 8, 150 requests, FlashAttention-3, BF16 KV",
     .model = "gpt-oss-20b", .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .kv = B16, .ttft_s = 468.9e-3, .tpot_s = 8.09e-3, .tps = 831.6,
     .band = {0.45, 0.20, 0}, .note = N_GPTOSS},
    {VB3_RUN, .id = "vb3-gptoss-20b-h100-kvf8-c8-20k-2k", .source = SRC_VB3_T5,
     .setup = "vLLM (v0.19.1 presumed) vllm bench serve, concurrency 8, 150 requests, FlashAttention-3, --kv-cache-dtype fp8",
     .model = "gpt-oss-20b", .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .kv = F8, .ttft_s = 451.7e-3, .tpot_s = 7.90e-3, .tps = 853.0,
     .band = {0.40, 0.20, 0}, .note = N_GPTOSS},
    /* --- GH20469: a vLLM 0.9.1 user report, Qwen3-14B-AWQ on one A100 80GB, concurrency 1 --- */
    {.id = "gh20469-q3-14b-a100-awq-c1-16000-200", .source = SRC_GH20469,
     .setup = "vLLM v0.9.1 vllm serve --gpu-memory-utilization 0.95 --max-model-len 16384 --enforce-eager "
              "--max-num-seq 30; benchmark_serving.py --dataset-name random --max-concurrency 1 "
              "--num-prompts 30 --request-rate 1 --random-input-len 16000 --random-output-len 200",
     .model = "qwen3-14b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1, .pp = 1,
     .ep = 1, .arrival = VAL_ARRIVAL_CLOSED, .load = 1, .requests = 30, .prompt = 16000, .gen = 200,
     .weights = ENGINE_INT4, .kv = B16, .max_num_seqs = 30, .mem_fraction = 0.95,
     .max_model_len = 16384, .eager = 1, .stat = VAL_STAT_MEAN, .ttft_s = 3345.37e-3,
     .tpot_s = 20.63e-3, .tps = 26.84, .band = {0, 0.45, 0.60},
     .note = "at most one request in flight (a new one every 7.4 s against a 1 s rate: the "
             "concurrency cap sets the pace, a closed loop); AWQ int4 (group 128); A100 form "
             "factor unstated (SXM presumed); a user report.  Its eager decode step measures "
             "20.6 ms against 12.4 ms modelled (int4 weights, one launch per kernel), so "
             "TPOT is 0.60x and the throughput 1.54x"},
    /* --- SGC: SGLang cookbook speed benchmarks, bench_serving closed loops at 1, 16 and 64/100 --- */
    /* DeepSeek-R1-0528, 8 x B200, FP8 TP8, SGLang 0.5.6.post1 */
    {SGC_RUN, .id = "sgc-dsr1-b200-f8-tp8-c1-1000-1000", .sweep = "sgc-dsr1-b200-f8-tp8-1000-1000",
     .source = SRC_SGC("DeepSeek/DeepSeek-R1.md") ", 5.1 Speed Benchmark, random 1000/1000 at --max-concurrency 1 (result block at line 368)",
     .setup = "SGLang 0.5.6.post1 `sglang.launch_server --model-path deepseek-ai/DeepSeek-R1-0528 --tp 8`, 8 x B200; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1 (range ratio 0: lengths uniform in [1, 1000] and [0, 1000]); published totals 6101 input / 4210 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-r1", .gpu = "b200", .gpus = 8, .tp = 8, .weights = F8,
     .load = 1, .requests = 10, .prompt = 610, .gen = 421,
     .ttft_s = 140.76e-3, .tpot_s = 9.15e-3, .tps = 105.24, .band = {0.50, 0.00, 0.00},
     .note = N_SGC_TTFT},
    {SGC_RUN, .id = "sgc-dsr1-b200-f8-tp8-c16-1000-1000", .sweep = "sgc-dsr1-b200-f8-tp8-1000-1000",
     .source = SRC_SGC("DeepSeek/DeepSeek-R1.md") ", 5.1 Speed Benchmark, random 1000/1000 at --max-concurrency 16 (result block at line 421)",
     .setup = "SGLang 0.5.6.post1 `sglang.launch_server --model-path deepseek-ai/DeepSeek-R1-0528 --tp 8`, 8 x B200; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 1000 --num-prompts 80 --max-concurrency 16 (range ratio 0: lengths uniform in [1, 1000] and [0, 1000]); published totals 39668 input / 40725 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-r1", .gpu = "b200", .gpus = 8, .tp = 8, .weights = F8,
     .load = 16, .requests = 80, .prompt = 496, .gen = 509,
     .ttft_s = 131.71e-3, .tpot_s = 17.46e-3, .tps = 795.3, .band = {0.40, 0.00, 0.00},
     .note = N_SGC_TTFT},
    {SGC_RUN, .id = "sgc-dsr1-b200-f8-tp8-c100-1000-1000", .sweep = "sgc-dsr1-b200-f8-tp8-1000-1000",
     .source = SRC_SGC("DeepSeek/DeepSeek-R1.md") ", 5.1 Speed Benchmark, random 1000/1000 at --max-concurrency 100 (result block at line 474)",
     .setup = "SGLang 0.5.6.post1 `sglang.launch_server --model-path deepseek-ai/DeepSeek-R1-0528 --tp 8`, 8 x B200; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 1000 --num-prompts 500 --max-concurrency 100 (range ratio 0: lengths uniform in [1, 1000] and [0, 1000]); published totals 249831 input / 252162 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-r1", .gpu = "b200", .gpus = 8, .tp = 8, .weights = F8,
     .load = 100, .requests = 500, .prompt = 500, .gen = 504,
     .ttft_s = 147.62e-3, .tpot_s = 41.98e-3, .tps = 2282.9, .band = {0.45, 0.00, 0.00},
     .note = N_SGC_TTFT "; " N_SGC_BIGB},
    {SGC_RUN, .id = "sgc-dsr1-b200-f8-tp8-c1-1000-8000", .sweep = "sgc-dsr1-b200-f8-tp8-1000-8000",
     .source = SRC_SGC("DeepSeek/DeepSeek-R1.md") ", 5.1 Speed Benchmark, random 1000/8000 at --max-concurrency 1 (result block at line 529)",
     .setup = "SGLang 0.5.6.post1 `sglang.launch_server --model-path deepseek-ai/DeepSeek-R1-0528 --tp 8`, 8 x B200; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 8000 --num-prompts 10 --max-concurrency 1 (range ratio 0: lengths uniform in [1, 1000] and [0, 8000]); published totals 6101 input / 44452 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-r1", .gpu = "b200", .gpus = 8, .tp = 8, .weights = F8,
     .load = 1, .requests = 10, .prompt = 610, .gen = 4445,
     .ttft_s = 126.19e-3, .tpot_s = 9.2e-3, .tps = 108.07, .band = {0.45, 0.00, 0.00},
     .note = N_SGC_TTFT},
    {SGC_RUN, .id = "sgc-dsr1-b200-f8-tp8-c16-1000-8000", .sweep = "sgc-dsr1-b200-f8-tp8-1000-8000",
     .source = SRC_SGC("DeepSeek/DeepSeek-R1.md") ", 5.1 Speed Benchmark, random 1000/8000 at --max-concurrency 16 (result block at line 582)",
     .setup = "SGLang 0.5.6.post1 `sglang.launch_server --model-path deepseek-ai/DeepSeek-R1-0528 --tp 8`, 8 x B200; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 8000 --num-prompts 80 --max-concurrency 16 (range ratio 0: lengths uniform in [1, 1000] and [0, 8000]); published totals 39668 input / 318226 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-r1", .gpu = "b200", .gpus = 8, .tp = 8, .weights = F8,
     .load = 16, .requests = 80, .prompt = 496, .gen = 3978,
     .ttft_s = 153.75e-3, .tpot_s = 15.59e-3, .tps = 912.02, .band = {0.50, 0.00, 0.00},
     .note = N_SGC_TTFT},
    {SGC_RUN, .id = "sgc-dsr1-b200-f8-tp8-c64-1000-8000", .sweep = "sgc-dsr1-b200-f8-tp8-1000-8000",
     .source = SRC_SGC("DeepSeek/DeepSeek-R1.md") ", 5.1 Speed Benchmark, random 1000/8000 at --max-concurrency 64 (result block at line 635)",
     .setup = "SGLang 0.5.6.post1 `sglang.launch_server --model-path deepseek-ai/DeepSeek-R1-0528 --tp 8`, 8 x B200; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 8000 --num-prompts 320 --max-concurrency 64 (range ratio 0: lengths uniform in [1, 1000] and [0, 8000]); published totals 158939 input / 1300705 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-r1", .gpu = "b200", .gpus = 8, .tp = 8, .weights = F8,
     .load = 64, .requests = 320, .prompt = 497, .gen = 4065,
     .ttft_s = 158.15e-3, .tpot_s = 26.72e-3, .tps = 2207.16, .band = {0.50, 0.00, 0.00},
     .note = N_SGC_TTFT},
    {SGC_RUN, .id = "sgc-dsr1-b200-f8-tp8-c1-8000-1000", .sweep = "sgc-dsr1-b200-f8-tp8-8000-1000",
     .source = SRC_SGC("DeepSeek/DeepSeek-R1.md") ", 5.1 Speed Benchmark, random 8000/1000 at --max-concurrency 1 (result block at line 690)",
     .setup = "SGLang 0.5.6.post1 `sglang.launch_server --model-path deepseek-ai/DeepSeek-R1-0528 --tp 8`, 8 x B200; bench_serving --dataset-name random --random-input-len 8000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1 (range ratio 0: lengths uniform in [1, 8000] and [0, 1000]); published totals 41941 input / 4210 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-r1", .gpu = "b200", .gpus = 8, .tp = 8, .weights = F8,
     .load = 1, .requests = 10, .prompt = 4194, .gen = 421,
     .ttft_s = 154.96e-3, .tpot_s = 9.27e-3, .tps = 103.56, .band = {0.00, 0.00, 0.00},
     .note = N_SGC_TTFT},
    {SGC_RUN, .id = "sgc-dsr1-b200-f8-tp8-c16-8000-1000", .sweep = "sgc-dsr1-b200-f8-tp8-8000-1000",
     .source = SRC_SGC("DeepSeek/DeepSeek-R1.md") ", 5.1 Speed Benchmark, random 8000/1000 at --max-concurrency 16 (result block at line 743)",
     .setup = "SGLang 0.5.6.post1 `sglang.launch_server --model-path deepseek-ai/DeepSeek-R1-0528 --tp 8`, 8 x B200; bench_serving --dataset-name random --random-input-len 8000 --random-output-len 1000 --num-prompts 80 --max-concurrency 16 (range ratio 0: lengths uniform in [1, 8000] and [0, 1000]); published totals 300020 input / 41589 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-r1", .gpu = "b200", .gpus = 8, .tp = 8, .weights = F8,
     .load = 16, .requests = 80, .prompt = 3750, .gen = 520,
     .ttft_s = 189.59e-3, .tpot_s = 19.23e-3, .tps = 733.41, .band = {0.00, 0.00, 0.00},
     .note = N_SGC_TTFT},
    {SGC_RUN, .id = "sgc-dsr1-b200-f8-tp8-c64-8000-1000", .sweep = "sgc-dsr1-b200-f8-tp8-8000-1000",
     .source = SRC_SGC("DeepSeek/DeepSeek-R1.md") ", 5.1 Speed Benchmark, random 8000/1000 at --max-concurrency 64 (result block at line 796)",
     .setup = "SGLang 0.5.6.post1 `sglang.launch_server --model-path deepseek-ai/DeepSeek-R1-0528 --tp 8`, 8 x B200; bench_serving --dataset-name random --random-input-len 8000 --random-output-len 1000 --num-prompts 320 --max-concurrency 64 (range ratio 0: lengths uniform in [1, 8000] and [0, 1000]); published totals 1273893 input / 169680 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-r1", .gpu = "b200", .gpus = 8, .tp = 8, .weights = F8,
     .load = 64, .requests = 320, .prompt = 3981, .gen = 530,
     .ttft_s = 224.92e-3, .tpot_s = 40.99e-3, .tps = 1468.5, .band = {0.40, 0.00, 0.00},
     .note = N_SGC_TTFT},
    /* DeepSeek-V3.1, 8 x MI300X, FP8 TP8, SGLang 0.5.7 */
    {SGC_RUN, .id = "sgc-dsv31-mi300x-f8-tp8-c1-1000-1000", .sweep = "sgc-dsv31-mi300x-f8-tp8-1000-1000",
     .source = SRC_SGC("DeepSeek/DeepSeek-V3_1.md") ", 5.1 Speed Benchmark, random 1000/1000 at --max-concurrency 1 (result block at line 395)",
     .setup = "SGLang 0.5.7 `sglang.launch_server --model-path deepseek-ai/DeepSeek-V3.1 (-Terminus in the environment list) --tp 8`, 8 x AMD MI300X; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1 (range ratio 0: lengths uniform in [1, 1000] and [0, 1000]); published totals 6101 input / 4220 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-v3", .gpu = "mi300x", .gpus = 8, .tp = 8, .weights = F8,
     .load = 1, .requests = 10, .prompt = 610, .gen = 422,
     .ttft_s = 213.58e-3, .tpot_s = 23.9e-3, .tps = 39.72, .band = {0.65, 0.75, 2.20},
     .note = N_SGC_TTFT "; " N_SGC_MI300X},
    {SGC_RUN, .id = "sgc-dsv31-mi300x-f8-tp8-c16-1000-1000", .sweep = "sgc-dsv31-mi300x-f8-tp8-1000-1000",
     .source = SRC_SGC("DeepSeek/DeepSeek-V3_1.md") ", 5.1 Speed Benchmark, random 1000/1000 at --max-concurrency 16 (result block at line 448)",
     .setup = "SGLang 0.5.7 `sglang.launch_server --model-path deepseek-ai/DeepSeek-V3.1 (-Terminus in the environment list) --tp 8`, 8 x AMD MI300X; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 1000 --num-prompts 80 --max-concurrency 16 (range ratio 0: lengths uniform in [1, 1000] and [0, 1000]); published totals 39668 input / 40805 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-v3", .gpu = "mi300x", .gpus = 8, .tp = 8, .weights = F8,
     .load = 16, .requests = 80, .prompt = 496, .gen = 510,
     .ttft_s = 191.32e-3, .tpot_s = 35.99e-3, .tps = 378.84, .band = {0.55, 0.60, 1.25},
     .note = N_SGC_TTFT "; " N_SGC_MI300X},
    {SGC_RUN, .id = "sgc-dsv31-mi300x-f8-tp8-c100-1000-1000", .sweep = "sgc-dsv31-mi300x-f8-tp8-1000-1000",
     .source = SRC_SGC("DeepSeek/DeepSeek-V3_1.md") ", 5.1 Speed Benchmark, random 1000/1000 at --max-concurrency 100 (result block at line 501)",
     .setup = "SGLang 0.5.7 `sglang.launch_server --model-path deepseek-ai/DeepSeek-V3.1 (-Terminus in the environment list) --tp 8`, 8 x AMD MI300X; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 1000 --num-prompts 500 --max-concurrency 100 (range ratio 0: lengths uniform in [1, 1000] and [0, 1000]); published totals 249831 input / 252662 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-v3", .gpu = "mi300x", .gpus = 8, .tp = 8, .weights = F8,
     .load = 100, .requests = 500, .prompt = 500, .gen = 505,
     .ttft_s = 236.88e-3, .tpot_s = 76.35e-3, .tps = 1216.79, .band = {0.65, 0.55, 1.00},
     .note = N_SGC_TTFT "; " N_SGC_MI300X},
    {SGC_RUN, .id = "sgc-dsv31-mi300x-f8-tp8-c1-1000-8000", .sweep = "sgc-dsv31-mi300x-f8-tp8-1000-8000",
     .source = SRC_SGC("DeepSeek/DeepSeek-V3_1.md") ", 5.1 Speed Benchmark, random 1000/8000 at --max-concurrency 1 (result block at line 556)",
     .setup = "SGLang 0.5.7 `sglang.launch_server --model-path deepseek-ai/DeepSeek-V3.1 (-Terminus in the environment list) --tp 8`, 8 x AMD MI300X; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 8000 --num-prompts 10 --max-concurrency 1 (range ratio 0: lengths uniform in [1, 1000] and [0, 8000]); published totals 6101 input / 44462 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-v3", .gpu = "mi300x", .gpus = 8, .tp = 8, .weights = F8,
     .load = 1, .requests = 10, .prompt = 610, .gen = 4446,
     .ttft_s = 156.19e-3, .tpot_s = 24.51e-3, .tps = 40.52, .band = {0.50, 0.75, 2.15},
     .note = N_SGC_TTFT "; " N_SGC_MI300X},
    {SGC_RUN, .id = "sgc-dsv31-mi300x-f8-tp8-c16-1000-8000", .sweep = "sgc-dsv31-mi300x-f8-tp8-1000-8000",
     .source = SRC_SGC("DeepSeek/DeepSeek-V3_1.md") ", 5.1 Speed Benchmark, random 1000/8000 at --max-concurrency 16 (result block at line 609)",
     .setup = "SGLang 0.5.7 `sglang.launch_server --model-path deepseek-ai/DeepSeek-V3.1 (-Terminus in the environment list) --tp 8`, 8 x AMD MI300X; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 8000 --num-prompts 80 --max-concurrency 16 (range ratio 0: lengths uniform in [1, 1000] and [0, 8000]); published totals 39668 input / 318306 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-v3", .gpu = "mi300x", .gpus = 8, .tp = 8, .weights = F8,
     .load = 16, .requests = 80, .prompt = 496, .gen = 3979,
     .ttft_s = 194.12e-3, .tpot_s = 34.0e-3, .tps = 410.7, .band = {0.55, 0.60, 1.20},
     .note = N_SGC_TTFT "; " N_SGC_MI300X},
    {SGC_RUN, .id = "sgc-dsv31-mi300x-f8-tp8-c64-1000-8000", .sweep = "sgc-dsv31-mi300x-f8-tp8-1000-8000",
     .source = SRC_SGC("DeepSeek/DeepSeek-V3_1.md") ", 5.1 Speed Benchmark, random 1000/8000 at --max-concurrency 64 (result block at line 662)",
     .setup = "SGLang 0.5.7 `sglang.launch_server --model-path deepseek-ai/DeepSeek-V3.1 (-Terminus in the environment list) --tp 8`, 8 x AMD MI300X; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 8000 --num-prompts 320 --max-concurrency 64 (range ratio 0: lengths uniform in [1, 1000] and [0, 8000]); published totals 158939 input / 1301025 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-v3", .gpu = "mi300x", .gpus = 8, .tp = 8, .weights = F8,
     .load = 64, .requests = 320, .prompt = 497, .gen = 4066,
     .ttft_s = 235.28e-3, .tpot_s = 55.1e-3, .tps = 1056.05, .band = {0.65, 0.55, 0.95},
     .note = N_SGC_TTFT "; " N_SGC_MI300X},
    {SGC_RUN, .id = "sgc-dsv31-mi300x-f8-tp8-c1-8000-1000", .sweep = "sgc-dsv31-mi300x-f8-tp8-8000-1000",
     .source = SRC_SGC("DeepSeek/DeepSeek-V3_1.md") ", 5.1 Speed Benchmark, random 8000/1000 at --max-concurrency 1 (result block at line 717)",
     .setup = "SGLang 0.5.7 `sglang.launch_server --model-path deepseek-ai/DeepSeek-V3.1 (-Terminus in the environment list) --tp 8`, 8 x AMD MI300X; bench_serving --dataset-name random --random-input-len 8000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1 (range ratio 0: lengths uniform in [1, 8000] and [0, 1000]); published totals 41941 input / 4220 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-v3", .gpu = "mi300x", .gpus = 8, .tp = 8, .weights = F8,
     .load = 1, .requests = 10, .prompt = 4194, .gen = 422,
     .ttft_s = 481.38e-3, .tpot_s = 25.05e-3, .tps = 36.87, .band = {0.75, 0.75, 2.35},
     .note = N_SGC_TTFT "; " N_SGC_MI300X},
    {SGC_RUN, .id = "sgc-dsv31-mi300x-f8-tp8-c16-8000-1000", .sweep = "sgc-dsv31-mi300x-f8-tp8-8000-1000",
     .source = SRC_SGC("DeepSeek/DeepSeek-V3_1.md") ", 5.1 Speed Benchmark, random 8000/1000 at --max-concurrency 16 (result block at line 770)",
     .setup = "SGLang 0.5.7 `sglang.launch_server --model-path deepseek-ai/DeepSeek-V3.1 (-Terminus in the environment list) --tp 8`, 8 x AMD MI300X; bench_serving --dataset-name random --random-input-len 8000 --random-output-len 1000 --num-prompts 80 --max-concurrency 16 (range ratio 0: lengths uniform in [1, 8000] and [0, 1000]); published totals 300020 input / 41669 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-v3", .gpu = "mi300x", .gpus = 8, .tp = 8, .weights = F8,
     .load = 16, .requests = 80, .prompt = 3750, .gen = 521,
     .ttft_s = 1347.21e-3, .tpot_s = 52.09e-3, .tps = 256.7, .band = {0.90, 0.70, 1.80},
     .note = N_SGC_TTFT "; " N_SGC_MI300X},
    {SGC_RUN, .id = "sgc-dsv31-mi300x-f8-tp8-c64-8000-1000", .sweep = "sgc-dsv31-mi300x-f8-tp8-8000-1000",
     .source = SRC_SGC("DeepSeek/DeepSeek-V3_1.md") ", 5.1 Speed Benchmark, random 8000/1000 at --max-concurrency 64 (result block at line 823)",
     .setup = "SGLang 0.5.7 `sglang.launch_server --model-path deepseek-ai/DeepSeek-V3.1 (-Terminus in the environment list) --tp 8`, 8 x AMD MI300X; bench_serving --dataset-name random --random-input-len 8000 --random-output-len 1000 --num-prompts 320 --max-concurrency 64 (range ratio 0: lengths uniform in [1, 8000] and [0, 1000]); published totals 1273893 input / 170000 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "deepseek-v3", .gpu = "mi300x", .gpus = 8, .tp = 8, .weights = F8,
     .load = 64, .requests = 320, .prompt = 3981, .gen = 531,
     .ttft_s = 499.38e-3, .tpot_s = 103.45e-3, .tps = 601.67, .band = {0.65, 0.60, 1.15},
     .note = N_SGC_TTFT "; " N_SGC_MI300X},
    /* Llama-3.1-70B (base), 8 x A100, BF16 TP8, SGLang 0.5.6 */
    {SGC_RUN, .id = "sgc-l31-70b-a100-tp8-c1-1000-1000", .sweep = "sgc-l31-70b-a100-tp8-1000-1000",
     .source = SRC_SGC("Llama/Llama3.1.md") ", 5.1 Speed Benchmark, random 1000/1000 at --max-concurrency 1 (result block at line 307)",
     .setup = "SGLang 0.5.6 `sglang.launch_server --model-path Meta-Llama/Llama-3.1-70B --tp 8`, 8 x NVIDIA A100 (memory unstated: 80 GB SXM presumed); bench_serving --dataset-name random --random-input-len 1000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1 (range ratio 0: lengths uniform in [1, 1000] and [0, 1000]); published totals 6101 input / 4220 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "llama-3.1-70b", .gpu = "a100-80gb", .gpus = 8, .tp = 8, .weights = B16,
     .load = 1, .requests = 10, .prompt = 610, .gen = 422,
     .ttft_s = 131.77e-3, .tpot_s = 18.63e-3, .tps = 52.88, .band = {0.00, 0.00, 0.00},
     .note = N_SGC_TTFT},
    {SGC_RUN, .id = "sgc-l31-70b-a100-tp8-c16-1000-1000", .sweep = "sgc-l31-70b-a100-tp8-1000-1000",
     .source = SRC_SGC("Llama/Llama3.1.md") ", 5.1 Speed Benchmark, random 1000/1000 at --max-concurrency 16 (result block at line 360)",
     .setup = "SGLang 0.5.6 `sglang.launch_server --model-path Meta-Llama/Llama-3.1-70B --tp 8`, 8 x NVIDIA A100 (memory unstated: 80 GB SXM presumed); bench_serving --dataset-name random --random-input-len 1000 --random-output-len 1000 --num-prompts 80 --max-concurrency 16 (range ratio 0: lengths uniform in [1, 1000] and [0, 1000]); published totals 39668 input / 40805 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "llama-3.1-70b", .gpu = "a100-80gb", .gpus = 8, .tp = 8, .weights = B16,
     .load = 16, .requests = 80, .prompt = 496, .gen = 510,
     .ttft_s = 147.02e-3, .tpot_s = 26.08e-3, .tps = 513.48},
    {SGC_RUN, .id = "sgc-l31-70b-a100-tp8-c100-1000-1000", .sweep = "sgc-l31-70b-a100-tp8-1000-1000",
     .source = SRC_SGC("Llama/Llama3.1.md") ", 5.1 Speed Benchmark, random 1000/1000 at --max-concurrency 100 (result block at line 413)",
     .setup = "SGLang 0.5.6 `sglang.launch_server --model-path Meta-Llama/Llama-3.1-70B --tp 8`, 8 x NVIDIA A100 (memory unstated: 80 GB SXM presumed); bench_serving --dataset-name random --random-input-len 1000 --random-output-len 1000 --num-prompts 500 --max-concurrency 100 (range ratio 0: lengths uniform in [1, 1000] and [0, 1000]); published totals 249831 input / 252662 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "llama-3.1-70b", .gpu = "a100-80gb", .gpus = 8, .tp = 8, .weights = B16,
     .load = 100, .requests = 500, .prompt = 500, .gen = 505,
     .ttft_s = 184.22e-3, .tpot_s = 48.67e-3, .tps = 1919.38, .band = {0.00, 0.00, 0.00},
     .note = N_SGC_TTFT},
    {SGC_RUN, .id = "sgc-l31-70b-a100-tp8-c1-8000-1000", .sweep = "sgc-l31-70b-a100-tp8-8000-1000",
     .source = SRC_SGC("Llama/Llama3.1.md") ", 5.1 Speed Benchmark, random 8000/1000 at --max-concurrency 1 (result block at line 465)",
     .setup = "SGLang 0.5.6 `sglang.launch_server --model-path Meta-Llama/Llama-3.1-70B --tp 8`, 8 x NVIDIA A100 (memory unstated: 80 GB SXM presumed); bench_serving --dataset-name random --random-input-len 8000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1 (range ratio 0: lengths uniform in [1, 8000] and [0, 1000]); published totals 41941 input / 4220 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "llama-3.1-70b", .gpu = "a100-80gb", .gpus = 8, .tp = 8, .weights = B16,
     .load = 1, .requests = 10, .prompt = 4194, .gen = 422,
     .ttft_s = 318.02e-3, .tpot_s = 18.81e-3, .tps = 50.69, .band = {0.45, 0.00, 0.00},
     .note = N_SGC_TTFT},
    {SGC_RUN, .id = "sgc-l31-70b-a100-tp8-c16-8000-1000", .sweep = "sgc-l31-70b-a100-tp8-8000-1000",
     .source = SRC_SGC("Llama/Llama3.1.md") ", 5.1 Speed Benchmark, random 8000/1000 at --max-concurrency 16 (result block at line 516)",
     .setup = "SGLang 0.5.6 `sglang.launch_server --model-path Meta-Llama/Llama-3.1-70B --tp 8`, 8 x NVIDIA A100 (memory unstated: 80 GB SXM presumed); bench_serving --dataset-name random --random-input-len 8000 --random-output-len 1000 --num-prompts 80 --max-concurrency 16 (range ratio 0: lengths uniform in [1, 8000] and [0, 1000]); published totals 300020 input / 41669 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "llama-3.1-70b", .gpu = "a100-80gb", .gpus = 8, .tp = 8, .weights = B16,
     .load = 16, .requests = 80, .prompt = 3750, .gen = 521,
     .ttft_s = 531.82e-3, .tpot_s = 36.73e-3, .tps = 389.0},
    {SGC_RUN, .id = "sgc-l31-70b-a100-tp8-c64-8000-1000", .sweep = "sgc-l31-70b-a100-tp8-8000-1000",
     .source = SRC_SGC("Llama/Llama3.1.md") ", 5.1 Speed Benchmark, random 8000/1000 at --max-concurrency 64 (result block at line 567)",
     .setup = "SGLang 0.5.6 `sglang.launch_server --model-path Meta-Llama/Llama-3.1-70B --tp 8`, 8 x NVIDIA A100 (memory unstated: 80 GB SXM presumed); bench_serving --dataset-name random --random-input-len 8000 --random-output-len 1000 --num-prompts 320 --max-concurrency 64 (range ratio 0: lengths uniform in [1, 8000] and [0, 1000]); published totals 1273893 input / 170000 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "llama-3.1-70b", .gpu = "a100-80gb", .gpus = 8, .tp = 8, .weights = B16,
     .load = 64, .requests = 320, .prompt = 3981, .gen = 531,
     .ttft_s = 616.38e-3, .tpot_s = 82.85e-3, .tps = 788.27},
    /* Llama-4-Maverick-17B-128E-Instruct, 8 x MI300X, BF16 TP8, SGLang 0.5.9 */
    {SGC_RUN, .id = "sgc-l4mav-mi300x-tp8-c1-1000-1000", .sweep = "sgc-l4mav-mi300x-tp8-1000-1000",
     .source = SRC_SGC("Llama/Llama4.md") ", 5.1 Speed Benchmark, random 1000/1000 at --max-concurrency 1 (result block at line 312)",
     .setup = "SGLang 0.5.9 `sglang.launch_server --model-path meta-llama/Llama-4-Maverick-17B-128E-Instruct --tp 8`, AMD MI300X, TP 8; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1 (range ratio 0: lengths uniform in [1, 1000] and [0, 1000]); published totals 6101 input / 4220 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "llama-4-maverick", .gpu = "mi300x", .gpus = 8, .tp = 8, .weights = B16, .max_model_len = 1000000,
     .load = 1, .requests = 10, .prompt = 610, .gen = 422,
     .ttft_s = 57.45e-3, .tpot_s = 5.96e-3, .tps = 61.99, .band = {0.00, 0.00, 2.40},
     .note = N_SGC_TTFT "; " N_SGC_COLD},
    {SGC_RUN, .id = "sgc-l4mav-mi300x-tp8-c16-1000-1000", .sweep = "sgc-l4mav-mi300x-tp8-1000-1000",
     .source = SRC_SGC("Llama/Llama4.md") ", 5.1 Speed Benchmark, random 1000/1000 at --max-concurrency 16 (result block at line 364)",
     .setup = "SGLang 0.5.9 `sglang.launch_server --model-path meta-llama/Llama-4-Maverick-17B-128E-Instruct --tp 8`, AMD MI300X, TP 8; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 1000 --num-prompts 80 --max-concurrency 16 (range ratio 0: lengths uniform in [1, 1000] and [0, 1000]); published totals 39668 input / 40805 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "llama-4-maverick", .gpu = "mi300x", .gpus = 8, .tp = 8, .weights = B16, .max_model_len = 1000000,
     .load = 16, .requests = 80, .prompt = 496, .gen = 510,
     .ttft_s = 72.6e-3, .tpot_s = 10.22e-3, .tps = 1328.41, .band = {0.00, 0.00, 0.00},
     .note = N_SGC_TTFT},
    {SGC_RUN, .id = "sgc-l4mav-mi300x-tp8-c100-1000-1000", .sweep = "sgc-l4mav-mi300x-tp8-1000-1000",
     .source = SRC_SGC("Llama/Llama4.md") ", 5.1 Speed Benchmark, random 1000/1000 at --max-concurrency 100 (result block at line 416)",
     .setup = "SGLang 0.5.9 `sglang.launch_server --model-path meta-llama/Llama-4-Maverick-17B-128E-Instruct --tp 8`, AMD MI300X, TP 8; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 1000 --num-prompts 500 --max-concurrency 100 (range ratio 0: lengths uniform in [1, 1000] and [0, 1000]); published totals 249831 input / 252662 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "llama-4-maverick", .gpu = "mi300x", .gpus = 8, .tp = 8, .weights = B16, .max_model_len = 1000000,
     .load = 100, .requests = 500, .prompt = 500, .gen = 505,
     .ttft_s = 128.96e-3, .tpot_s = 35.37e-3, .tps = 2777.9, .band = {0.55, 0.00, 0.40},
     .note = N_SGC_TTFT "; " N_SGC_BIGB},
    /* Qwen3-235B-A22B-Instruct-2507, 8 x B200, BF16 TP8, SGLang 0.5.6 */
    {SGC_RUN, .id = "sgc-q3-235b-b200-tp8-c1-1000-1000", .sweep = "sgc-q3-235b-b200-tp8-1000-1000",
     .source = SRC_SGC("Qwen/Qwen3.md") ", 5.1 Speed Benchmark, random 1000/1000 at --max-concurrency 1 (result block at line 367)",
     .setup = "SGLang 0.5.6 `sglang.launch_server --model-path Qwen/Qwen3-235B-A22B-Instruct-2507 --tp 8`, 8 x NVIDIA B200; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1 (range ratio 0: lengths uniform in [1, 1000] and [0, 1000]); published totals 6101 input / 4210 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "qwen3-235b-a22b", .gpu = "b200", .gpus = 8, .tp = 8, .weights = B16,
     .load = 1, .requests = 10, .prompt = 610, .gen = 421,
     .ttft_s = 92.18e-3, .tpot_s = 10.12e-3, .tps = 96.65, .band = {0.00, 0.00, 0.45},
     .note = N_SGC_TTFT "; " N_SGC_Q3C1},
    {SGC_RUN, .id = "sgc-q3-235b-b200-tp8-c16-1000-1000", .sweep = "sgc-q3-235b-b200-tp8-1000-1000",
     .source = SRC_SGC("Qwen/Qwen3.md") ", 5.1 Speed Benchmark, random 1000/1000 at --max-concurrency 16 (result block at line 423)",
     .setup = "SGLang 0.5.6 `sglang.launch_server --model-path Qwen/Qwen3-235B-A22B-Instruct-2507 --tp 8`, 8 x NVIDIA B200; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 1000 --num-prompts 80 --max-concurrency 16 (range ratio 0: lengths uniform in [1, 1000] and [0, 1000]); published totals 39668 input / 40725 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "qwen3-235b-a22b", .gpu = "b200", .gpus = 8, .tp = 8, .weights = B16,
     .load = 16, .requests = 80, .prompt = 496, .gen = 509,
     .ttft_s = 88.82e-3, .tpot_s = 16.12e-3, .tps = 832.04, .band = {0.00, 0.00, 0.00},
     .note = N_SGC_TTFT},
    {SGC_RUN, .id = "sgc-q3-235b-b200-tp8-c100-1000-1000", .sweep = "sgc-q3-235b-b200-tp8-1000-1000",
     .source = SRC_SGC("Qwen/Qwen3.md") ", 5.1 Speed Benchmark, random 1000/1000 at --max-concurrency 100 (result block at line 479)",
     .setup = "SGLang 0.5.6 `sglang.launch_server --model-path Qwen/Qwen3-235B-A22B-Instruct-2507 --tp 8`, 8 x NVIDIA B200; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 1000 --num-prompts 500 --max-concurrency 100 (range ratio 0: lengths uniform in [1, 1000] and [0, 1000]); published totals 249831 input / 252162 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "qwen3-235b-a22b", .gpu = "b200", .gpus = 8, .tp = 8, .weights = B16,
     .load = 100, .requests = 500, .prompt = 500, .gen = 504,
     .ttft_s = 122.68e-3, .tpot_s = 34.04e-3, .tps = 2738.78, .band = {0.00, 0.00, 0.00},
     .note = N_SGC_TTFT "; " N_SGC_BIGB},
    {SGC_RUN, .id = "sgc-q3-235b-b200-tp8-c1-1000-8000", .sweep = "sgc-q3-235b-b200-tp8-1000-8000",
     .source = SRC_SGC("Qwen/Qwen3.md") ", 5.1 Speed Benchmark, random 1000/8000 at --max-concurrency 1 (result block at line 545)",
     .setup = "SGLang 0.5.6 `sglang.launch_server --model-path Qwen/Qwen3-235B-A22B-Instruct-2507 --tp 8`, 8 x NVIDIA B200; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 8000 --num-prompts 10 --max-concurrency 1 (range ratio 0: lengths uniform in [1, 1000] and [0, 8000]); published totals 6101 input / 44452 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "qwen3-235b-a22b", .gpu = "b200", .gpus = 8, .tp = 8, .weights = B16,
     .load = 1, .requests = 10, .prompt = 610, .gen = 4445,
     .ttft_s = 109.36e-3, .tpot_s = 10.24e-3, .tps = 97.17, .band = {0.00, 0.00, 0.45},
     .note = N_SGC_TTFT "; " N_SGC_Q3C1},
    {SGC_RUN, .id = "sgc-q3-235b-b200-tp8-c16-1000-8000", .sweep = "sgc-q3-235b-b200-tp8-1000-8000",
     .source = SRC_SGC("Qwen/Qwen3.md") ", 5.1 Speed Benchmark, random 1000/8000 at --max-concurrency 16 (result block at line 601)",
     .setup = "SGLang 0.5.6 `sglang.launch_server --model-path Qwen/Qwen3-235B-A22B-Instruct-2507 --tp 8`, 8 x NVIDIA B200; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 8000 --num-prompts 80 --max-concurrency 16 (range ratio 0: lengths uniform in [1, 1000] and [0, 8000]); published totals 39668 input / 318226 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "qwen3-235b-a22b", .gpu = "b200", .gpus = 8, .tp = 8, .weights = B16,
     .load = 16, .requests = 80, .prompt = 496, .gen = 3978,
     .ttft_s = 101.61e-3, .tpot_s = 14.91e-3, .tps = 935.49, .band = {0.00, 0.00, 0.00},
     .note = N_SGC_TTFT},
    {SGC_RUN, .id = "sgc-q3-235b-b200-tp8-c64-1000-8000", .sweep = "sgc-q3-235b-b200-tp8-1000-8000",
     .source = SRC_SGC("Qwen/Qwen3.md") ", 5.1 Speed Benchmark, random 1000/8000 at --max-concurrency 64 (result block at line 657)",
     .setup = "SGLang 0.5.6 `sglang.launch_server --model-path Qwen/Qwen3-235B-A22B-Instruct-2507 --tp 8`, 8 x NVIDIA B200; bench_serving --dataset-name random --random-input-len 1000 --random-output-len 8000 --num-prompts 320 --max-concurrency 64 (range ratio 0: lengths uniform in [1, 1000] and [0, 8000]); published totals 158939 input / 1300705 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "qwen3-235b-a22b", .gpu = "b200", .gpus = 8, .tp = 8, .weights = B16,
     .load = 64, .requests = 320, .prompt = 497, .gen = 4065,
     .ttft_s = 129.11e-3, .tpot_s = 24.07e-3, .tps = 2387.34, .band = {0.40, 0.00, 0.00},
     .note = N_SGC_TTFT},
    {SGC_RUN, .id = "sgc-q3-235b-b200-tp8-c1-8000-1000", .sweep = "sgc-q3-235b-b200-tp8-8000-1000",
     .source = SRC_SGC("Qwen/Qwen3.md") ", 5.1 Speed Benchmark, random 8000/1000 at --max-concurrency 1 (result block at line 715)",
     .setup = "SGLang 0.5.6 `sglang.launch_server --model-path Qwen/Qwen3-235B-A22B-Instruct-2507 --tp 8`, 8 x NVIDIA B200; bench_serving --dataset-name random --random-input-len 8000 --random-output-len 1000 --num-prompts 10 --max-concurrency 1 (range ratio 0: lengths uniform in [1, 8000] and [0, 1000]); published totals 41941 input / 4210 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "qwen3-235b-a22b", .gpu = "b200", .gpus = 8, .tp = 8, .weights = B16,
     .load = 1, .requests = 10, .prompt = 4194, .gen = 421,
     .ttft_s = 114.85e-3, .tpot_s = 10.33e-3, .tps = 93.94, .band = {0.00, 0.00, 0.45},
     .note = N_SGC_Q3C1},
    {SGC_RUN, .id = "sgc-q3-235b-b200-tp8-c16-8000-1000", .sweep = "sgc-q3-235b-b200-tp8-8000-1000",
     .source = SRC_SGC("Qwen/Qwen3.md") ", 5.1 Speed Benchmark, random 8000/1000 at --max-concurrency 16 (result block at line 771)",
     .setup = "SGLang 0.5.6 `sglang.launch_server --model-path Qwen/Qwen3-235B-A22B-Instruct-2507 --tp 8`, 8 x NVIDIA B200; bench_serving --dataset-name random --random-input-len 8000 --random-output-len 1000 --num-prompts 80 --max-concurrency 16 (range ratio 0: lengths uniform in [1, 8000] and [0, 1000]); published totals 300020 input / 41589 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "qwen3-235b-a22b", .gpu = "b200", .gpus = 8, .tp = 8, .weights = B16,
     .load = 16, .requests = 80, .prompt = 3750, .gen = 520,
     .ttft_s = 168.48e-3, .tpot_s = 16.66e-3, .tps = 820.69, .band = {0.00, 0.00, 0.00},
     .note = N_SGC_TTFT},
    {SGC_RUN, .id = "sgc-q3-235b-b200-tp8-c64-8000-1000", .sweep = "sgc-q3-235b-b200-tp8-8000-1000",
     .source = SRC_SGC("Qwen/Qwen3.md") ", 5.1 Speed Benchmark, random 8000/1000 at --max-concurrency 64 (result block at line 827)",
     .setup = "SGLang 0.5.6 `sglang.launch_server --model-path Qwen/Qwen3-235B-A22B-Instruct-2507 --tp 8`, 8 x NVIDIA B200; bench_serving --dataset-name random --random-input-len 8000 --random-output-len 1000 --num-prompts 320 --max-concurrency 64 (range ratio 0: lengths uniform in [1, 8000] and [0, 1000]); published totals 1273893 input / 169680 generated tokens; medians of TTFT and TPOT, output tok/s",
     .model = "qwen3-235b-a22b", .gpu = "b200", .gpus = 8, .tp = 8, .weights = B16,
     .load = 64, .requests = 320, .prompt = 3981, .gen = 530,
     .ttft_s = 203.27e-3, .tpot_s = 34.27e-3, .tps = 1790.43, .band = {0.40, 0.00, 0.00},
     .note = N_SGC_TTFT},
    /* --- GPUStack performance lab: offline runs (request rate inf) of random fixed lengths --- */
    {GPS, .id = "gps-deepseek-r1-h200-vllm-tp8-off-31999-100",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/deepseek-r1/h200.md, Other Benchmark Cases, baseline (random 32K input)",
     .setup = "vLLM v0.11.0 `vllm serve deepseek-ai/DeepSeek-R1-0528 -tp 8`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); 8 x NVIDIA H200 SXM GPUs on a single node",
     .model = "deepseek-r1", .gpu = "h200", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 8, .tp = 8,
     .requests = 100, .prompt = 31999, .gen = 100, .weights = F8,
     .ttft_s = 101351.99e-3, .tpot_s = 365.79e-3, .tps = 48.33},
    {GPS, .id = "gps-deepseek-r1-h200-vllm-tp8-off-3995-200",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/deepseek-r1/h200.md, Other Benchmark Cases, baseline (random 4K input)",
     .setup = "vLLM v0.11.0 `vllm serve deepseek-ai/DeepSeek-R1-0528 -tp 8`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); 8 x NVIDIA H200 SXM GPUs on a single node",
     .model = "deepseek-r1", .gpu = "h200", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 8, .tp = 8,
     .requests = 500, .prompt = 3995, .gen = 200, .weights = F8, .band = {0.45, 0, 0.60}, .note = N_OFFLINE,
     .ttft_s = 63058.71e-3, .tpot_s = 164.23e-3, .tps = 753.67},
    {GPS, .id = "gps-deepseek-r1-h200-vllm-tp8-off-1997-100",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/deepseek-r1/h200.md, Other Benchmark Cases, baseline (random 2K input)",
     .setup = "vLLM v0.11.0 `vllm serve deepseek-ai/DeepSeek-R1-0528 -tp 8`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); 8 x NVIDIA H200 SXM GPUs on a single node",
     .model = "deepseek-r1", .gpu = "h200", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 8, .tp = 8,
     .requests = 500, .prompt = 1997, .gen = 100, .weights = F8, .band = {0.50, 0.45, 0.65}, .note = N_OFFLINE,
     .ttft_s = 28911.9e-3, .tpot_s = 237.02e-3, .tps = 843.71},
    {GPS, .id = "gps-deepseek-r1-h200-vllm-tp8-off-127-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/deepseek-r1/h200.md, Other Benchmark Cases, baseline (random 128 input)",
     .setup = "vLLM v0.11.0 `vllm serve deepseek-ai/DeepSeek-R1-0528 -tp 8`; vllm bench serve --dataset-name random --num-prompts 1000 (request rate inf); 8 x NVIDIA H200 SXM GPUs on a single node",
     .model = "deepseek-r1", .gpu = "h200", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 8, .tp = 8,
     .requests = 1000, .prompt = 127, .gen = 4, .weights = F8, .band = {0.95, 0.45, 4.75}, .note = N_SHORT,
     .ttft_s = 19392.11e-3, .tpot_s = 351.83e-3, .tps = 181.27},
    {GPS, .id = "gps-gpt-oss-120b-a100-vllm-off-32000-100",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-120b/a100.md, Other Benchmark Cases, baseline (random 32K input)",
     .setup = "vLLM v0.11.0 `vllm serve openai/gpt-oss-120b --max-model-len 32768`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); 2 x NVIDIA A100 SXM 80GB GPUs on a single node",
     .model = "gpt-oss-120b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 100, .prompt = 32000, .gen = 100, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .max_model_len = 32768, .band = {0.75, 0, 2.00}, .note = N_GPTOSS_OFF,
     .ttft_s = 368856.64e-3, .tpot_s = 224.58e-3, .tps = 13.5},
    {GPS, .id = "gps-gpt-oss-120b-a100-vllm-off-3998-135",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-120b/a100.md, Other Benchmark Cases, baseline (random 4K input)",
     .setup = "vLLM v0.11.0 `vllm serve openai/gpt-oss-120b --max-model-len 32768`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); 2 x NVIDIA A100 SXM 80GB GPUs on a single node",
     .model = "gpt-oss-120b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 3998, .gen = 135, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .max_model_len = 32768, .band = {0.60, 0, 1.10}, .note = "output 135 tokens, the published total over the requests (max 200: some stop early)" "; " N_GPTOSS_OFF,
     .ttft_s = 133561.13e-3, .tpot_s = 112.18e-3, .tps = 249.67},
    {GPS, .id = "gps-gpt-oss-120b-a100-vllm-off-1998-98",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-120b/a100.md, Other Benchmark Cases, baseline (random 2K input)",
     .setup = "vLLM v0.11.0 `vllm serve openai/gpt-oss-120b --max-model-len 32768`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); 2 x NVIDIA A100 SXM 80GB GPUs on a single node",
     .model = "gpt-oss-120b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 1998, .gen = 98, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .max_model_len = 32768, .band = {0.60, 0, 1.05}, .note = "output 98 tokens, the published total over the requests (max 100: some stop early)" "; " N_GPTOSS_OFF,
     .ttft_s = 61328.02e-3, .tpot_s = 131.94e-3, .tps = 395.21},
    {GPS, .id = "gps-gpt-oss-120b-a100-vllm-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-120b/a100.md, Other Benchmark Cases, baseline (random 128 input)",
     .setup = "vLLM v0.11.0 `vllm serve openai/gpt-oss-120b --max-model-len 32768`; vllm bench serve --dataset-name random --num-prompts 1000 (request rate inf); 2 x NVIDIA A100 SXM 80GB GPUs on a single node",
     .model = "gpt-oss-120b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 1000, .prompt = 128, .gen = 4, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .max_model_len = 32768, .band = {0.70, 0.75, 1.55}, .note = N_SHORT,
     .ttft_s = 7813.18e-3, .tpot_s = 182.75e-3, .tps = 283.95},
    {GPS, .id = "gps-gpt-oss-120b-h100-vllm-off-32000-99",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-120b/h100.md, Other Benchmark Cases, baseline (random 32K input)",
     .setup = "vLLM v0.10.2 `vllm serve openai/gpt-oss-120b --max-model-len 32768`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); 2 x NVIDIA H100 SXM GPUs on a single node",
     .model = "gpt-oss-120b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 100, .prompt = 32000, .gen = 99, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .max_model_len = 32768, .band = {0.60, 2.50, 1.30}, .note = "output 99 tokens, the published total over the requests (max 100: some stop early)" "; " N_GPTOSS_OFF "; TPOT 3.4x since the Hopper MXFP4 MoE takes aiconfigurator's measured W4A16 rates (2.6x before, band 1.70 then): the model is 1.7x optimistic on this run's throughput and 3.4x pessimistic on its TPOT at once, so the two published figures do not fit one step time here",
     .ttft_s = 99444.04e-3, .tpot_s = 23.99e-3, .tps = 49.65},
    {GPS, .id = "gps-gpt-oss-120b-h100-vllm-off-3998-134",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-120b/h100.md, Other Benchmark Cases, baseline (random 4K input)",
     .setup = "vLLM v0.10.2 `vllm serve openai/gpt-oss-120b --max-model-len 32768`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); 2 x NVIDIA H100 SXM GPUs on a single node",
     .model = "gpt-oss-120b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 3998, .gen = 134, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .max_model_len = 32768, .band = {0.70, 1.25, 1.50}, .note = "output 134 tokens, the published total over the requests (max 200: some stop early)" "; " N_GPTOSS_OFF "; " N_GPTOSS_120B_TPOT,
     .ttft_s = 72954.68e-3, .tpot_s = 31.7e-3, .tps = 463.35},
    {GPS, .id = "gps-gpt-oss-120b-h100-vllm-off-1998-98",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-120b/h100.md, Other Benchmark Cases, baseline (random 2K input)",
     .setup = "vLLM v0.10.2 `vllm serve openai/gpt-oss-120b --max-model-len 32768`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); 2 x NVIDIA H100 SXM GPUs on a single node",
     .model = "gpt-oss-120b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 1998, .gen = 98, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .max_model_len = 32768, .band = {0.75, 1.00, 1.65}, .note = "output 98 tokens, the published total over the requests (max 100: some stop early)" "; " N_GPTOSS_OFF "; " N_GPTOSS_120B_TPOT,
     .ttft_s = 36234.76e-3, .tpot_s = 41.35e-3, .tps = 675.11},
    {GPS, .id = "gps-gpt-oss-120b-h100-vllm-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-120b/h100.md, Other Benchmark Cases, baseline (random 128 input)",
     .setup = "vLLM v0.10.2 `vllm serve openai/gpt-oss-120b --max-model-len 32768`; vllm bench serve --dataset-name random --num-prompts 1000 (request rate inf); 2 x NVIDIA H100 SXM GPUs on a single node",
     .model = "gpt-oss-120b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 1000, .prompt = 128, .gen = 4, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .max_model_len = 32768, .band = {0.85, 0.70, 2.55}, .note = N_SHORT,
     .ttft_s = 4850.46e-3, .tpot_s = 304.8e-3, .tps = 517.91},
    {GPS, .id = "gps-gpt-oss-20b-a100-vllm-off-32000-95",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-20b/a100.md, Other Benchmark Cases, baseline (random 32K input)",
     .setup = "vLLM v0.11.0 `vllm serve openai/gpt-oss-20b`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); A single NVIDIA A100 SXM 80GB GPU",
     .model = "gpt-oss-20b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 100, .prompt = 32000, .gen = 95, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .band = {0.70, 0.65, 1.85}, .note = "output 95 tokens, the published total over the requests (max 100: some stop early)" "; " N_GPTOSS_OFF "; TPOT 1.33 -> 0.39x when its 32k prompts took 2048-token chunks beside the decodes (the A100 budget), so each decode step carries a chunk of the prefill the model makes too fast" N_SERVE_DEFAULTS,
     .ttft_s = 219739.77e-3, .tpot_s = 268.03e-3, .tps = 21.62},
    {GPS, .id = "gps-gpt-oss-20b-a100-vllm-off-3998-107",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-20b/a100.md, Other Benchmark Cases, baseline (random 4K input)",
     .setup = "vLLM v0.11.0 `vllm serve openai/gpt-oss-20b`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA A100 SXM 80GB GPU",
     .model = "gpt-oss-20b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 3998, .gen = 107, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .band = {0.55, 0.80, 1.00}, .note = "output 107 tokens, the published total over the requests (max 200: some stop early)" "; " N_GPTOSS_OFF,
     .ttft_s = 62947.13e-3, .tpot_s = 123.35e-3, .tps = 415.64},
    {GPS, .id = "gps-gpt-oss-20b-a100-vllm-off-1998-94",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-20b/a100.md, Other Benchmark Cases, baseline (random 2K input)",
     .setup = "vLLM v0.11.0 `vllm serve openai/gpt-oss-20b`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA A100 SXM 80GB GPU",
     .model = "gpt-oss-20b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 1998, .gen = 94, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .band = {0.60, 0.45, 0.75}, .note = "output 94 tokens, the published total over the requests (max 100: some stop early)" "; " N_GPTOSS_OFF,
     .ttft_s = 31669.55e-3, .tpot_s = 100.32e-3, .tps = 813.35},
    {GPS, .id = "gps-gpt-oss-20b-a100-vllm-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-20b/a100.md, Other Benchmark Cases, baseline (random 128 input)",
     .setup = "vLLM v0.11.0 `vllm serve openai/gpt-oss-20b`; vllm bench serve --dataset-name random --num-prompts 1000 (request rate inf); A single NVIDIA A100 SXM 80GB GPU",
     .model = "gpt-oss-20b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 1000, .prompt = 128, .gen = 4, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .band = {0, 2.40, 0.55}, .note = N_SHORT,
     .ttft_s = 2774.46e-3, .tpot_s = 62.1e-3, .tps = 735.4},
    {GPS, .id = "gps-gpt-oss-20b-h100-vllm-off-32000-94",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-20b/h100.md, Other Benchmark Cases, baseline (random 32K input)",
     .setup = "vLLM v0.11.0 `vllm serve openai/gpt-oss-20b`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "gpt-oss-20b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 100, .prompt = 32000, .gen = 94, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .band = {0.55, 0.55, 1.05}, .note = "output 94 tokens, the published total over the requests (max 100: some stop early)" "; " N_GPTOSS_OFF,
     .ttft_s = 53687.69e-3, .tpot_s = 239.44e-3, .tps = 86.62},
    {GPS, .id = "gps-gpt-oss-20b-h100-vllm-off-3998-105",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-20b/h100.md, Other Benchmark Cases, baseline (random 4K input)",
     .setup = "vLLM v0.11.0 `vllm serve openai/gpt-oss-20b`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "gpt-oss-20b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 3998, .gen = 105, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .band = {0.70, 0.60, 1.40}, .note = "output 105 tokens, the published total over the requests (max 200: some stop early)" "; " N_GPTOSS_OFF,
     .ttft_s = 31245.12e-3, .tpot_s = 184.26e-3, .tps = 847.43},
    {GPS, .id = "gps-gpt-oss-20b-h100-vllm-off-1998-94",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-20b/h100.md, Other Benchmark Cases, baseline (random 2K input)",
     .setup = "vLLM v0.11.0 `vllm serve openai/gpt-oss-20b`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "gpt-oss-20b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 1998, .gen = 94, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .band = {0.70, 0.70, 1.45}, .note = "output 94 tokens, the published total over the requests (max 100: some stop early)" "; " N_GPTOSS_OFF,
     .ttft_s = 16515.86e-3, .tpot_s = 149.76e-3, .tps = 1443.44},
    {GPS, .id = "gps-gpt-oss-20b-h100-vllm-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/gpt-oss-20b/h100.md, Other Benchmark Cases, baseline (random 128 input)",
     .setup = "vLLM v0.11.0 `vllm serve openai/gpt-oss-20b`; vllm bench serve --dataset-name random --num-prompts 1000 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "gpt-oss-20b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 1000, .prompt = 128, .gen = 4, .weights = ENGINE_FP16 /* the checkpoint's MXFP4 */, .band = {0.85, 0.60, 2.25}, .note = N_SHORT,
     .ttft_s = 3174.14e-3, .tpot_s = 178.91e-3, .tps = 851.04},
    {GPS, .id = "gps-qwen3-14b-a100-vllm-off-32000-99",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/a100.md, Other Benchmark Cases, baseline (random 32K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-14B`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); A single NVIDIA A100 SXM GPU",
     .model = "qwen3-14b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 100, .prompt = 32000, .gen = 99, .weights = B16, .note = "output 99 tokens, the published total over the requests (max 100: some stop early)" "; " "A100 SXM memory size unstated (80 GB presumed)",
     .ttft_s = 359648.08e-3, .tpot_s = 445.58e-3, .tps = 13.65},
    {GPS, .id = "gps-qwen3-14b-a100-vllm-off-3996-200",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/a100.md, Other Benchmark Cases, baseline (random 4K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-14B`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA A100 SXM GPU",
     .model = "qwen3-14b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 3996, .gen = 200, .weights = B16, .band = {0, 0, 0.40}, .note = N_OFFLINE "; " "A100 SXM memory size unstated (80 GB presumed)",
     .ttft_s = 197625.03e-3, .tpot_s = 254.61e-3, .tps = 245.13},
    {GPS, .id = "gps-qwen3-14b-a100-vllm-off-1996-100",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/a100.md, Other Benchmark Cases, baseline (random 2K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-14B`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA A100 SXM GPU",
     .model = "qwen3-14b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 1996, .gen = 100, .weights = B16, .band = {0, 0, 0.40}, .note = N_OFFLINE "; " "A100 SXM memory size unstated (80 GB presumed)",
     .ttft_s = 86908.3e-3, .tpot_s = 301.73e-3, .tps = 284.64},
    {GPS, .id = "gps-qwen3-14b-a100-vllm-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/a100.md, Other Benchmark Cases, baseline (random 128 input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-14B`; vllm bench serve --dataset-name random --num-prompts 1000 (request rate inf); A single NVIDIA A100 SXM GPU",
     .model = "qwen3-14b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 1000, .prompt = 128, .gen = 4, .weights = B16, .band = {0.70, 2.35, 1.00}, .note = N_SHORT "; " "A100 SXM memory size unstated (80 GB presumed)",
     .ttft_s = 19451.46e-3, .tpot_s = 233.35e-3, .tps = 149.33},
    {GPS, .id = "gps-qwen3-14b-a100-trt-off-32000-99",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/a100.md, Other Benchmark Cases, optimized (random 32K input)",
     .setup = "TensorRT-LLM v1.2.0rc1 `trtllm-serve Qwen/Qwen3-14B --max_seq_len=40960 --enable_chunked_prefill`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); A single NVIDIA A100 SXM GPU",
     .model = "qwen3-14b", .gpu = "a100-80gb", .framework = "trt-llm", .gpus = 1, .tp = 1,
     .requests = 100, .prompt = 32000, .gen = 99, .weights = B16, .max_model_len = 40960, .note = "output 99 tokens, the published total over the requests (max 100: some stop early)" "; " "A100 SXM memory size unstated (80 GB presumed)",
     .ttft_s = 361107.28e-3, .tpot_s = 493.18e-3, .tps = 13.66},
    {GPS, .id = "gps-qwen3-14b-a100-trt-off-3996-200",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/a100.md, Other Benchmark Cases, optimized (random 4K input)",
     .setup = "TensorRT-LLM v1.2.0rc1 `trtllm-serve Qwen/Qwen3-14B --max_seq_len=40960 --enable_chunked_prefill`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA A100 SXM GPU",
     .model = "qwen3-14b", .gpu = "a100-80gb", .framework = "trt-llm", .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 3996, .gen = 200, .weights = B16, .max_model_len = 40960, .note = "A100 SXM memory size unstated (80 GB presumed)",
     .ttft_s = 155664.65e-3, .tpot_s = 196.1e-3, .tps = 305.25},
    {GPS, .id = "gps-qwen3-14b-a100-trt-off-1996-100",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/a100.md, Other Benchmark Cases, optimized (random 2K input)",
     .setup = "TensorRT-LLM v1.2.0rc1 `trtllm-serve Qwen/Qwen3-14B --max_seq_len=40960 --enable_chunked_prefill`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA A100 SXM GPU",
     .model = "qwen3-14b", .gpu = "a100-80gb", .framework = "trt-llm", .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 1996, .gen = 100, .weights = B16, .max_model_len = 40960, .note = "A100 SXM memory size unstated (80 GB presumed)",
     .ttft_s = 67624.26e-3, .tpot_s = 313.69e-3, .tps = 356.52},
    {GPS, .id = "gps-qwen3-14b-a100-trt-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/a100.md, Other Benchmark Cases, optimized (random 128 input)",
     .setup = "TensorRT-LLM v1.2.0rc1 `trtllm-serve Qwen/Qwen3-14B --max_seq_len=40960 --enable_chunked_prefill`; vllm bench serve --dataset-name random --num-prompts 1000 (request rate inf); A single NVIDIA A100 SXM GPU",
     .model = "qwen3-14b", .gpu = "a100-80gb", .framework = "trt-llm", .gpus = 1, .tp = 1,
     .requests = 1000, .prompt = 128, .gen = 4, .weights = B16, .max_model_len = 40960, .note = "A100 SXM memory size unstated (80 GB presumed)",
     .ttft_s = 8166.48e-3, .tpot_s = 715.19e-3, .tps = 266.13},
    {GPS, .id = "gps-qwen3-14b-h100-vllm-off-32000-99",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/h100.md, Other Benchmark Cases, baseline (random 32K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-14B`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-14b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 100, .prompt = 32000, .gen = 99, .weights = B16, .band = {0.50, 0.50, 0.80}, .note = "output 99 tokens, the published total over the requests (max 100: some stop early)" "; " N_OFFLINE,
     .ttft_s = 191024.43e-3, .tpot_s = 277.44e-3, .tps = 25.48},
    {GPS, .id = "gps-qwen3-14b-h100-vllm-off-3996-200",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/h100.md, Other Benchmark Cases, baseline (random 4K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-14B`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-14b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 3996, .gen = 200, .weights = B16, .band = {0.55, 0.50, 0.90}, .note = N_OFFLINE,
     .ttft_s = 112716.92e-3, .tpot_s = 132.45e-3, .tps = 438.56},
    {GPS, .id = "gps-qwen3-14b-h100-vllm-off-1996-100",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/h100.md, Other Benchmark Cases, baseline (random 2K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-14B`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-14b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 1996, .gen = 100, .weights = B16, .band = {0.60, 0.50, 1.05}, .note = N_OFFLINE,
     .ttft_s = 50716.13e-3, .tpot_s = 206.51e-3, .tps = 505.51},
    {GPS, .id = "gps-qwen3-14b-h100-vllm-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/h100.md, Other Benchmark Cases, baseline (random 128 input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-14B`; vllm bench serve --dataset-name random --num-prompts 1000 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-14b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 1000, .prompt = 128, .gen = 4, .weights = B16, .band = {0.95, 0.55, 3.55}, .note = N_SHORT,
     .ttft_s = 18282.75e-3, .tpot_s = 525.31e-3, .tps = 176.06},
    {GPS, .id = "gps-qwen3-14b-h100-sgl-f8-off-32000-100",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/h100.md, Other Benchmark Cases, optimized (random 32K input)",
     .setup = "SGLang v0.5.5.post1 `python3 -m sglang.launch_server --model-path Qwen/Qwen3-14B-FP8`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-14b", .gpu = "h100-sxm", .framework = "sglang", .gpus = 1, .tp = 1,
     .requests = 100, .prompt = 32000, .gen = 100, .weights = F8, .band = {0.50, 0.60, 0.90}, .note = N_OFFLINE "; " N_SGL_ALONE,
     .ttft_s = 158068.68e-3, .tpot_s = 215.93e-3, .tps = 31.09},
    {GPS, .id = "gps-qwen3-14b-h100-sgl-f8-off-3996-200",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/h100.md, Other Benchmark Cases, optimized (random 4K input)",
     .setup = "SGLang v0.5.5.post1 `python3 -m sglang.launch_server --model-path Qwen/Qwen3-14B-FP8`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-14b", .gpu = "h100-sxm", .framework = "sglang", .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 3996, .gen = 200, .weights = F8, .band = {0.55, 0.45, 0.95}, .note = N_OFFLINE "; " N_SGL_ALONE,
     .ttft_s = 82073.47e-3, .tpot_s = 84.93e-3, .tps = 583.23},
    {GPS, .id = "gps-qwen3-14b-h100-sgl-f8-off-1996-100",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/h100.md, Other Benchmark Cases, optimized (random 2K input)",
     .setup = "SGLang v0.5.5.post1 `python3 -m sglang.launch_server --model-path Qwen/Qwen3-14B-FP8`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-14b", .gpu = "h100-sxm", .framework = "sglang", .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 1996, .gen = 100, .weights = F8, .band = {0.60, 0.55, 1.05}, .note = N_OFFLINE "; " N_SGL_ALONE,
     .ttft_s = 33245.08e-3, .tpot_s = 143.22e-3, .tps = 704.28},
    {GPS, .id = "gps-qwen3-14b-h100-sgl-f8-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-14b/h100.md, Other Benchmark Cases, optimized (random 128 input)",
     .setup = "SGLang v0.5.5.post1 `python3 -m sglang.launch_server --model-path Qwen/Qwen3-14B-FP8`; vllm bench serve --dataset-name random --num-prompts 1000 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-14b", .gpu = "h100-sxm", .framework = "sglang", .gpus = 1, .tp = 1,
     .requests = 1000, .prompt = 128, .gen = 4, .weights = F8, .band = {0.70, 0.85, 1.35}, .note = N_SHORT,
     .ttft_s = 4489.43e-3, .tpot_s = 927.88e-3, .tps = 512.83},
    {GPS, .id = "gps-qwen3-235b-a22b-a100-vllm-tp8-off-32000-82",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/a100.md, Other Benchmark Cases, baseline (random 32K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); 8 x NVIDIA A100 SXM 80GB GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 8, .tp = 8,
     .requests = 100, .prompt = 32000, .gen = 82, .weights = B16, .band = {0, 0, 0.50}, .note = "output 82 tokens, the published total over the requests (max 100: some stop early)" "; " N_OFFLINE,
     .ttft_s = 240229.05e-3, .tpot_s = 298.86e-3, .tps = 17.0},
    {GPS, .id = "gps-qwen3-235b-a22b-a100-vllm-tp8-off-3996-183",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/a100.md, Other Benchmark Cases, baseline (random 4K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); 8 x NVIDIA A100 SXM 80GB GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 8, .tp = 8,
     .requests = 500, .prompt = 3996, .gen = 183, .weights = B16, .band = {0, 0, 0.45}, .note = "output 183 tokens, the published total over the requests (max 200: some stop early)" "; " N_OFFLINE,
     .ttft_s = 122190.64e-3, .tpot_s = 205.64e-3, .tps = 357.26},
    {GPS, .id = "gps-qwen3-235b-a22b-a100-vllm-tp8-off-1996-99",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/a100.md, Other Benchmark Cases, baseline (random 2K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); 8 x NVIDIA A100 SXM 80GB GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 8, .tp = 8,
     .requests = 500, .prompt = 1996, .gen = 99, .weights = B16, .band = {0.45, 0, 0.50}, .note = "output 99 tokens, the published total over the requests (max 100: some stop early)" "; " N_OFFLINE,
     .ttft_s = 54722.5e-3, .tpot_s = 190.79e-3, .tps = 442.54},
    {GPS, .id = "gps-qwen3-235b-a22b-a100-vllm-tp8-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/a100.md, Other Benchmark Cases, baseline (random 128 input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8`; vllm bench serve --dataset-name random --num-prompts 1000 (request rate inf); 8 x NVIDIA A100 SXM 80GB GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 8, .tp = 8,
     .requests = 1000, .prompt = 128, .gen = 4, .weights = B16, .band = {0.75, 1.80, 1.35}, .note = N_SHORT,
     .ttft_s = 12767.63e-3, .tpot_s = 155.16e-3, .tps = 226.26},
    {GPS, .id = "gps-qwen3-235b-a22b-a100-vllm-f8-tp4-off-32000-83",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/a100.md, Other Benchmark Cases, optimized (random 32K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); 8 x NVIDIA A100 SXM 80GB GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 4, .tp = 4,
     .requests = 100, .prompt = 32000, .gen = 83, .weights = F8, .band = {0.40, 0, 0.55}, .note = "output 83 tokens, the published total over the requests (max 100: some stop early)" "; " N_OFFLINE,
     .ttft_s = 387908.55e-3, .tpot_s = 481.71e-3, .tps = 10.69},
    {GPS, .id = "gps-qwen3-235b-a22b-a100-vllm-f8-tp4-off-3996-181",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/a100.md, Other Benchmark Cases, optimized (random 4K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); 8 x NVIDIA A100 SXM 80GB GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 4, .tp = 4,
     .requests = 500, .prompt = 3996, .gen = 181, .weights = F8, .band = {0.55, 0.50, 1.00}, .note = "output 181 tokens, the published total over the requests (max 200: some stop early)" "; " N_OFFLINE,
     .ttft_s = 216485.01e-3, .tpot_s = 347.13e-3, .tps = 200.55},
    {GPS, .id = "gps-qwen3-235b-a22b-a100-vllm-f8-tp4-off-1996-99",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/a100.md, Other Benchmark Cases, optimized (random 2K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); 8 x NVIDIA A100 SXM 80GB GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 4, .tp = 4,
     .requests = 500, .prompt = 1996, .gen = 99, .weights = F8, .band = {0.60, 0.50, 1.05}, .note = "output 99 tokens, the published total over the requests (max 100: some stop early)" "; " N_OFFLINE "; TPOT 0.79 -> 0.56x when the A100 budget of 2048 tokens put one 2k prompt chunk in each decode step: the published step is 1.8x the modelled one (FP8 weights on A100, no FP8 tensor cores; cause not identified)" N_SERVE_DEFAULTS,
     .ttft_s = 95261.76e-3, .tpot_s = 342.39e-3, .tps = 251.99},
    {GPS, .id = "gps-qwen3-235b-a22b-a100-vllm-f8-tp4-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/a100.md, Other Benchmark Cases, optimized (random 128 input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4`; vllm bench serve --dataset-name random --num-prompts 1000 (request rate inf); 8 x NVIDIA A100 SXM 80GB GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 4, .tp = 4,
     .requests = 1000, .prompt = 128, .gen = 4, .weights = F8, .band = {0.75, 1.15, 1.70}, .note = N_SHORT,
     .ttft_s = 17260.17e-3, .tpot_s = 265.87e-3, .tps = 150.7},
    {GPS, .id = "gps-qwen3-235b-a22b-h100-vllm-tp8-off-32000-82",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/h100.md, Other Benchmark Cases, baseline (random 32K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); 8 x NVIDIA H100 SXM GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 8, .tp = 8,
     .requests = 100, .prompt = 32000, .gen = 82, .weights = B16, .note = "output 82 tokens, the published total over the requests (max 100: some stop early)",
     .ttft_s = 70409.55e-3, .tpot_s = 132.1e-3, .tps = 57.85},
    {GPS, .id = "gps-qwen3-235b-a22b-h100-vllm-tp8-off-3996-184",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/h100.md, Other Benchmark Cases, baseline (random 4K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); 8 x NVIDIA H100 SXM GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 8, .tp = 8,
     .requests = 500, .prompt = 3996, .gen = 184, .weights = B16, .note = "output 184 tokens, the published total over the requests (max 200: some stop early)",
     .ttft_s = 47811.58e-3, .tpot_s = 68.94e-3, .tps = 931.21},
    {GPS, .id = "gps-qwen3-235b-a22b-h100-vllm-tp8-off-1996-99",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/h100.md, Other Benchmark Cases, baseline (random 2K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); 8 x NVIDIA H100 SXM GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 8, .tp = 8,
     .requests = 500, .prompt = 1996, .gen = 99, .weights = B16, .note = "output 99 tokens, the published total over the requests (max 100: some stop early)",
     .ttft_s = 21313.79e-3, .tpot_s = 101.08e-3, .tps = 1127.26},
    {GPS, .id = "gps-qwen3-235b-a22b-h100-vllm-tp8-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/h100.md, Other Benchmark Cases, baseline (random 128 input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8`; vllm bench serve --dataset-name random --num-prompts 984 (request rate inf); 8 x NVIDIA H100 SXM GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 8, .tp = 8,
     .requests = 984, .prompt = 128, .gen = 4, .weights = B16, .band = {0.80, 0, 1.25}, .note = N_SHORT,
     .ttft_s = 7042.17e-3, .tpot_s = 212.98e-3, .tps = 445.53},
    {GPS, .id = "gps-qwen3-235b-a22b-h100-vllm-f8-tp4-off-32000-83",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/h100.md, Other Benchmark Cases, optimized (random 32K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4 --max-num-batched-tokens 16384`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); 8 x NVIDIA H100 SXM GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 4, .tp = 4,
     .requests = 100, .prompt = 32000, .gen = 83, .weights = F8, .max_batched_tokens = 16384, .note = "output 83 tokens, the published total over the requests (max 100: some stop early)",
     .ttft_s = 103754.5e-3, .tpot_s = 194.6e-3, .tps = 39.66},
    {GPS, .id = "gps-qwen3-235b-a22b-h100-vllm-f8-tp4-off-3996-182",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/h100.md, Other Benchmark Cases, optimized (random 4K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4 --max-num-batched-tokens 16384`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); 8 x NVIDIA H100 SXM GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 4, .tp = 4,
     .requests = 500, .prompt = 3996, .gen = 182, .weights = F8, .max_batched_tokens = 16384, .note = "output 182 tokens, the published total over the requests (max 200: some stop early)",
     .ttft_s = 60513.14e-3, .tpot_s = 89.52e-3, .tps = 717.6},
    {GPS, .id = "gps-qwen3-235b-a22b-h100-vllm-f8-tp4-off-1996-99",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/h100.md, Other Benchmark Cases, optimized (random 2K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4 --max-num-batched-tokens 16384`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); 8 x NVIDIA H100 SXM GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 4, .tp = 4,
     .requests = 500, .prompt = 1996, .gen = 99, .weights = F8, .max_batched_tokens = 16384, .band = {0.40, 0, 0.40}, .note = "output 99 tokens, the published total over the requests (max 100: some stop early)" "; " N_OFFLINE,
     .ttft_s = 26860.95e-3, .tpot_s = 125.93e-3, .tps = 894.84},
    {GPS, .id = "gps-qwen3-235b-a22b-h100-vllm-f8-tp4-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-235b-a22b/h100.md, Other Benchmark Cases, optimized (random 128 input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4 --max-num-batched-tokens 16384`; vllm bench serve --dataset-name random --num-prompts 984 (request rate inf); 8 x NVIDIA H100 SXM GPUs on a single node",
     .model = "qwen3-235b-a22b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 4, .tp = 4,
     .requests = 984, .prompt = 128, .gen = 4, .weights = F8, .max_batched_tokens = 16384, .band = {0.70, 2.10, 0.60}, .note = N_SHORT "; TPOT 1.40 -> 3.04x when the H100 default of 1024 sequences let the simulation run all 984 requests at once (about 1000 a decode step), where the published engine, fed by that per-request work, never held them together" N_SERVE_DEFAULTS,
     .ttft_s = 5621.51e-3, .tpot_s = 125.18e-3, .tps = 644.28},
    {GPS, .id = "gps-qwen3-32b-a100-vllm-off-32000-77",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/a100.md, Other Benchmark Cases, baseline (random 32K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-32B`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); A single NVIDIA A100 SXM 80GB GPU",
     .model = "qwen3-32b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 100, .prompt = 32000, .gen = 77, .weights = B16, .note = "output 77 tokens, the published total over the requests (max 100: some stop early)",
     .ttft_s = 890711.38e-3, .tpot_s = 67.87e-3, .tps = 4.32},
    {GPS, .id = "gps-qwen3-32b-a100-vllm-off-3996-200",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/a100.md, Other Benchmark Cases, baseline (random 4K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-32B`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA A100 SXM 80GB GPU",
     .model = "qwen3-32b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 3996, .gen = 200, .weights = B16,
     .ttft_s = 566579.7e-3, .tpot_s = 96.19e-3, .tps = 87.48},
    {GPS, .id = "gps-qwen3-32b-a100-vllm-off-1996-100",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/a100.md, Other Benchmark Cases, baseline (random 2K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-32B`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA A100 SXM 80GB GPU",
     .model = "qwen3-32b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 1996, .gen = 100, .weights = B16,
     .ttft_s = 208397.03e-3, .tpot_s = 143.23e-3, .tps = 120.27},
    {GPS, .id = "gps-qwen3-32b-a100-vllm-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/a100.md, Other Benchmark Cases, baseline (random 128 input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-32B`; vllm bench serve --dataset-name random --num-prompts 1000 (request rate inf); A single NVIDIA A100 SXM 80GB GPU",
     .model = "qwen3-32b", .gpu = "a100-80gb", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 1000, .prompt = 128, .gen = 4, .weights = B16, .band = {0.55, 2.25, 0.60}, .note = N_SHORT,
     .ttft_s = 31177.64e-3, .tpot_s = 528.57e-3, .tps = 80.69},
    {GPS, .id = "gps-qwen3-32b-a100-trt-off-32000-79",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/a100.md, Other Benchmark Cases, optimized (random 32K input)",
     .setup = "TensorRT-LLM v1.2.0rc1 `trtllm-serve Qwen/Qwen3-32B --max_seq_len=40960 --enable_chunked_prefill`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); A single NVIDIA A100 SXM 80GB GPU",
     .model = "qwen3-32b", .gpu = "a100-80gb", .framework = "trt-llm", .gpus = 1, .tp = 1,
     .requests = 100, .prompt = 32000, .gen = 79, .weights = B16, .max_model_len = 40960, .note = "output 79 tokens, the published total over the requests (max 100: some stop early)",
     .ttft_s = 1040855.88e-3, .tpot_s = 47.37e-3, .tps = 3.88},
    {GPS, .id = "gps-qwen3-32b-a100-trt-off-3996-200",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/a100.md, Other Benchmark Cases, optimized (random 4K input)",
     .setup = "TensorRT-LLM v1.2.0rc1 `trtllm-serve Qwen/Qwen3-32B --max_seq_len=40960 --enable_chunked_prefill`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA A100 SXM 80GB GPU",
     .model = "qwen3-32b", .gpu = "a100-80gb", .framework = "trt-llm", .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 3996, .gen = 200, .weights = B16, .max_model_len = 40960,
     .ttft_s = 509693.25e-3, .tpot_s = 100.09e-3, .tps = 97.01},
    {GPS, .id = "gps-qwen3-32b-a100-trt-off-1996-100",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/a100.md, Other Benchmark Cases, optimized (random 2K input)",
     .setup = "TensorRT-LLM v1.2.0rc1 `trtllm-serve Qwen/Qwen3-32B --max_seq_len=40960 --enable_chunked_prefill`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA A100 SXM 80GB GPU",
     .model = "qwen3-32b", .gpu = "a100-80gb", .framework = "trt-llm", .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 1996, .gen = 100, .weights = B16, .max_model_len = 40960,
     .ttft_s = 189776.2e-3, .tpot_s = 145.49e-3, .tps = 129.55},
    {GPS, .id = "gps-qwen3-32b-a100-trt-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/a100.md, Other Benchmark Cases, optimized (random 128 input)",
     .setup = "TensorRT-LLM v1.2.0rc1 `trtllm-serve Qwen/Qwen3-32B --max_seq_len=40960 --enable_chunked_prefill`; vllm bench serve --dataset-name random --num-prompts 1000 (request rate inf); A single NVIDIA A100 SXM 80GB GPU",
     .model = "qwen3-32b", .gpu = "a100-80gb", .framework = "trt-llm", .gpus = 1, .tp = 1,
     .requests = 1000, .prompt = 128, .gen = 4, .weights = B16, .max_model_len = 40960,
     .ttft_s = 19761.77e-3, .tpot_s = 1885.18e-3, .tps = 107.38},
    {GPS, .id = "gps-qwen3-32b-h100-vllm-off-32000-77",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/h100.md, Other Benchmark Cases, baseline (random 32K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-32B`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-32b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 100, .prompt = 32000, .gen = 77, .weights = B16, .band = {0.50, 0.40, 0.75}, .note = "output 77 tokens, the published total over the requests (max 100: some stop early)" "; " N_OFFLINE,
     .ttft_s = 585981.22e-3, .tpot_s = 43.42e-3, .tps = 6.64},
    {GPS, .id = "gps-qwen3-32b-h100-vllm-off-3996-200",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/h100.md, Other Benchmark Cases, baseline (random 4K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-32B`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-32b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 3996, .gen = 200, .weights = B16, .band = {0.45, 0.50, 0.65}, .note = N_OFFLINE,
     .ttft_s = 482284.21e-3, .tpot_s = 66.61e-3, .tps = 102.21},
    {GPS, .id = "gps-qwen3-32b-h100-vllm-off-1996-100",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/h100.md, Other Benchmark Cases, baseline (random 2K input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-32B`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-32b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 1996, .gen = 100, .weights = B16, .band = {0.50, 0.50, 0.80}, .note = N_OFFLINE,
     .ttft_s = 163909.4e-3, .tpot_s = 86.62e-3, .tps = 152.42},
    {GPS, .id = "gps-qwen3-32b-h100-vllm-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/h100.md, Other Benchmark Cases, baseline (random 128 input)",
     .setup = "vLLM v0.11.0 `vllm serve Qwen/Qwen3-32B`; vllm bench serve --dataset-name random --num-prompts 1000 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-32b", .gpu = "h100-sxm", .framework = "vllm", .fw_version = ENGINE_FWV_V1, .gpus = 1, .tp = 1,
     .requests = 1000, .prompt = 128, .gen = 4, .weights = B16, .band = {0.80, 0.60, 1.90}, .note = N_SHORT,
     .ttft_s = 21648.67e-3, .tpot_s = 1169.72e-3, .tps = 121.66},
    {GPS, .id = "gps-qwen3-32b-h100-trt-f8-off-32000-78",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/h100.md, Other Benchmark Cases, optimized (random 32K input)",
     .setup = "TensorRT-LLM v1.2.0rc1 `trtllm-serve Qwen/Qwen3-32B-FP8 --max_seq_len=40960 --enable_chunked_prefill`; vllm bench serve --dataset-name random --num-prompts 100 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-32b", .gpu = "h100-sxm", .framework = "trt-llm", .gpus = 1, .tp = 1,
     .requests = 100, .prompt = 32000, .gen = 78, .weights = F8, .max_model_len = 40960, .band = {0.55, 0, 1.00}, .note = "output 78 tokens, the published total over the requests (max 100: some stop early)" "; " N_OFFLINE,
     .ttft_s = 396294.9e-3, .tpot_s = 286.97e-3, .tps = 9.93},
    {GPS, .id = "gps-qwen3-32b-h100-trt-f8-off-3996-200",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/h100.md, Other Benchmark Cases, optimized (random 4K input)",
     .setup = "TensorRT-LLM v1.2.0rc1 `trtllm-serve Qwen/Qwen3-32B-FP8 --max_seq_len=40960 --enable_chunked_prefill`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-32b", .gpu = "h100-sxm", .framework = "trt-llm", .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 3996, .gen = 200, .weights = F8, .max_model_len = 40960, .band = {0.60, 0.55, 1.15}, .note = N_OFFLINE,
     .ttft_s = 208082.2e-3, .tpot_s = 138.75e-3, .tps = 234.7},
    {GPS, .id = "gps-qwen3-32b-h100-trt-f8-off-1996-100",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/h100.md, Other Benchmark Cases, optimized (random 2K input)",
     .setup = "TensorRT-LLM v1.2.0rc1 `trtllm-serve Qwen/Qwen3-32B-FP8 --max_seq_len=40960 --enable_chunked_prefill`; vllm bench serve --dataset-name random --num-prompts 500 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-32b", .gpu = "h100-sxm", .framework = "trt-llm", .gpus = 1, .tp = 1,
     .requests = 500, .prompt = 1996, .gen = 100, .weights = F8, .max_model_len = 40960, .band = {0.65, 0.55, 1.30}, .note = N_OFFLINE,
     .ttft_s = 86596.6e-3, .tpot_s = 223.4e-3, .tps = 281.53},
    {GPS, .id = "gps-qwen3-32b-h100-trt-f8-off-128-4",
     .source = "gpustack/gpustack@47277d79f4a5bae12a2d25e9ecbed2a2177a5f2d:docs/performance-lab/qwen3-32b/h100.md, Other Benchmark Cases, optimized (random 128 input)",
     .setup = "TensorRT-LLM v1.2.0rc1 `trtllm-serve Qwen/Qwen3-32B-FP8 --max_seq_len=40960 --enable_chunked_prefill`; vllm bench serve --dataset-name random --num-prompts 1000 (request rate inf); A single NVIDIA H100 SXM GPU",
     .model = "qwen3-32b", .gpu = "h100-sxm", .framework = "trt-llm", .gpus = 1, .tp = 1,
     .requests = 1000, .prompt = 128, .gen = 4, .weights = F8, .max_model_len = 40960, .band = {0.70, 0.60, 1.65}, .note = N_SHORT,
     .ttft_s = 10718.84e-3, .tpot_s = 890.11e-3, .tps = 207.33},

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
    if (c->arrival == VAL_ARRIVAL_OFFLINE)
        return 1;
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
