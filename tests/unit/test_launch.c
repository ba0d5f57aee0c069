/*
 * test_launch.c - the launch lines of launch.h against lines checked by
 * hand: Llama-3-70B TP4 on 4 x H100 (80 GB) at fp8, a Mixtral EP plan with
 * DP attention and one whose EP group spans two of four replicas, the
 * framework memory rules, the KV dtype, a pre-quantized checkpoint, a model
 * without a Hugging Face id, refusals, and the xPyD pools' disaggregation
 * flags and notes.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "launch.h"
#include "support_models.h"

static engine_result eval_at(const engine_scenario *s, int tp, int pp, int dp, int ep)
{
    engine_result r;
    engine_plan p = {tp, pp, dp, ep};
    assert_int_equal(engine_evaluate(s, p, &r, NULL), 0);
    assert_true(r.valid && r.fits);
    return r;
}

static void assert_line(engine_launch_fw fw, const engine_scenario *s, const engine_result *r,
                        const char *want)
{
    char buf[ENGINE_LAUNCH_MAX];
    assert_int_equal(engine_launch_line(fw, s, r, buf, sizeof buf), 0);
    assert_string_equal(buf, want);
}

/* 4 x H100 (80e9 bytes), TP4, fp8 weights, batch 8, 1024 + 256 tokens,
 * the generic profile (0.9 of the total).  Per GPU: weights 18.17 GB,
 * activations 0.55 GB, runtime 2 GB, KV room 72 - 20.71 = 51.29 GB.
 *   vLLM: 72 / 80 = 0.90;
 *   SGLang: (18.17 + 51.29) / 80 = 0.868 -> 0.86;
 *   TensorRT-LLM: 51.29 / (80 - 20.71) = 0.865 -> 0.86;
 * 8 sequences (room for 299), max length 1280; fp8 quantized on the fly
 * (vLLM, SGLang) or from an FP8 checkpoint (TensorRT-LLM). */
static void test_llama70b_tp4_fp8(void **state)
{
    (void)state;
    engine_model m = tm_llama3_70b();
    snprintf(m.hf_id, sizeof m.hf_id, "meta-llama/Meta-Llama-3-70B-Instruct");
    engine_gpu g = tg_h100();
    engine_link l = tl_link(3e-6, 367);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 4);
    s.weight_dtype = ENGINE_FP8;
    s.batch = 8;
    engine_result r = eval_at(&s, 4, 1, 1, 1);
    assert_true(fabs(r.mem.weights_bytes - 18.17e9) < 0.01e9);
    assert_true(fabs(r.mem.kv_capacity_bytes - 51.29e9) < 0.01e9);
    assert_int_equal(r.max_concurrency, 299);
    assert_true(engine_launch_mem_fraction(ENGINE_LAUNCH_VLLM, &s, &r) == 0.90);
    assert_true(engine_launch_mem_fraction(ENGINE_LAUNCH_SGLANG, &s, &r) == 0.86);
    assert_true(engine_launch_mem_fraction(ENGINE_LAUNCH_TRTLLM, &s, &r) == 0.86);
    assert_line(ENGINE_LAUNCH_VLLM, &s, &r,
                "vllm serve meta-llama/Meta-Llama-3-70B-Instruct --tensor-parallel-size 4 "
                "--pipeline-parallel-size 1 --data-parallel-size 1 --gpu-memory-utilization 0.90 "
                "--max-num-seqs 8 --max-model-len 1280 --quantization fp8");
    assert_line(ENGINE_LAUNCH_SGLANG, &s, &r,
                "python -m sglang.launch_server --model-path meta-llama/Meta-Llama-3-70B-Instruct "
                "--tp-size 4 --pp-size 1 --dp-size 1 --mem-fraction-static 0.86 "
                "--max-running-requests 8 --context-length 1280 --quantization fp8");
    assert_line(ENGINE_LAUNCH_TRTLLM, &s, &r,
                "trtllm-serve meta-llama/Meta-Llama-3-70B-Instruct --backend pytorch --tp_size 4 "
                "--pp_size 1 --max_batch_size 8 --max_seq_len 1280 "
                "--kv_cache_free_gpu_memory_fraction 0.86  # fp8 weights: serve an FP8 checkpoint "
                "(e.g. NVIDIA Model Optimizer)");
    /* an explicit context limit is the max length; the batch is capped by
     * the KV cache */
    s.max_model_len = 4096;
    assert_int_equal(engine_launch_max_len(&s), 4096);
    r.batch = 1000;
    assert_int_equal(engine_launch_max_seqs(&r), 299);
}

/* Mixtral-8x7B on 8 x H100, TP1 x DP8 with EP8: one server whose expert
 * group spans all eight replicas.  vLLM: DP 8 with --enable-expert-parallel
 * (EP = TP x DP = 8); SGLang: --tp-size 8 with DP attention (attention 8 / 8
 * = 1 GPU wide) and 8 x 4 = 32 running requests in all; TensorRT-LLM:
 * tp_size 8, ep_size 8, attention DP in the YAML, 32 in its batch. */
static void test_mixtral_ep8(void **state)
{
    (void)state;
    engine_model m = tm_mixtral_8x7b();
    snprintf(m.hf_id, sizeof m.hf_id, "mistralai/Mixtral-8x7B-v0.1");
    engine_gpu g = tg_h100();
    engine_link l = tl_link(3e-6, 367);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 8);
    s.batch = 4;
    engine_result r = eval_at(&s, 1, 1, 8, 8);
    assert_line(ENGINE_LAUNCH_VLLM, &s, &r,
                "vllm serve mistralai/Mixtral-8x7B-v0.1 --tensor-parallel-size 1 "
                "--pipeline-parallel-size 1 --data-parallel-size 8 --enable-expert-parallel "
                "--gpu-memory-utilization 0.90 --max-num-seqs 4 --max-model-len 1280");
    char want[ENGINE_LAUNCH_MAX];
    snprintf(want, sizeof want,
             "python -m sglang.launch_server --model-path mistralai/Mixtral-8x7B-v0.1 "
             "--tp-size 8 --pp-size 1 --dp-size 8 --enable-dp-attention --ep-size 8 "
             "--mem-fraction-static %.2f --max-running-requests 32 --context-length 1280",
             floor((r.mem.weights_bytes + r.mem.kv_capacity_bytes) / 80e9 * 100 + 1e-6) / 100);
    assert_line(ENGINE_LAUNCH_SGLANG, &s, &r, want);
    double free_b = 80e9 - r.mem.weights_bytes - r.mem.activation_bytes - r.mem.overhead_bytes;
    snprintf(want, sizeof want,
             "trtllm-serve mistralai/Mixtral-8x7B-v0.1 --backend pytorch --tp_size 8 --pp_size 1 "
             "--ep_size 8 --max_batch_size 32 --max_seq_len 1280 "
             "--kv_cache_free_gpu_memory_fraction %.2f  # enable_attention_dp: true in --config "
             "(attention on 1 GPU per replica)",
             floor(r.mem.kv_capacity_bytes / free_b * 100 + 1e-6) / 100);
    assert_line(ENGINE_LAUNCH_TRTLLM, &s, &r, want);
    /* the same server on nodes of 4 GPUs spans two of them */
    s.gpus_per_node = 4;
    char buf[ENGINE_LAUNCH_MAX];
    for (int f = 0; f < ENGINE_LAUNCH_COUNT; f++) {
        assert_int_equal(engine_launch_line((engine_launch_fw)f, &s, &r, buf, sizeof buf), 0);
        assert_non_null(strstr(buf, "one server spans 2 nodes of 4 GPUs: start it with the "
                                    "framework's multi-node launch"));
    }
}

/* TP8 with EP2 (two expert groups, each expert over 4 GPUs): TensorRT-LLM
 * and SGLang take --ep_size / --ep-size 2 inside the TP group; vLLM's
 * --enable-expert-parallel would make EP = TP x DP = 8, so its line has no
 * such flag and says it serves ep 1. */
static void test_mixtral_ep_below_tp(void **state)
{
    (void)state;
    engine_model m = tm_mixtral_8x7b();
    snprintf(m.hf_id, sizeof m.hf_id, "mistralai/Mixtral-8x7B-v0.1");
    engine_gpu g = tg_h100();
    engine_link l = tl_link(3e-6, 367);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 8);
    engine_result r = eval_at(&s, 8, 1, 1, 2);
    assert_line(ENGINE_LAUNCH_VLLM, &s, &r,
                "vllm serve mistralai/Mixtral-8x7B-v0.1 --tensor-parallel-size 8 "
                "--pipeline-parallel-size 1 --data-parallel-size 1 "
                "--gpu-memory-utilization 0.90 --max-num-seqs 1 --max-model-len 1280  "
                "# vLLM has no EP below TP: this serves ep 1 (every expert over the 8 GPUs)");
    char buf[ENGINE_LAUNCH_MAX];
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_SGLANG, &s, &r, buf, sizeof buf), 0);
    assert_non_null(strstr(buf, " --tp-size 8 --pp-size 1 --dp-size 1 --ep-size 2 "));
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_TRTLLM, &s, &r, buf, sizeof buf), 0);
    assert_non_null(strstr(buf, " --tp_size 8 --pp_size 1 --ep_size 2 --max_batch_size 1 "));
}

/* TP2 x DP4 with EP4: an expert group spans two replicas, so each server
 * holds two and two servers run; without a Hugging Face id the preset name
 * stands in and the line says so. */
static void test_mixtral_ep4_two_servers(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100_over(&f, tm_mixtral_8x7b(), tl_link(3e-6, 367), 8);
    s.batch = 4;
    engine_result r = eval_at(&s, 2, 1, 4, 4);
    assert_line(ENGINE_LAUNCH_VLLM, &s, &r,
                "vllm serve mixtral-8x7b --tensor-parallel-size 2 --pipeline-parallel-size 1 "
                "--data-parallel-size 2 --enable-expert-parallel --gpu-memory-utilization 0.90 "
                "--max-num-seqs 4 --max-model-len 1280  # no Hugging Face id for 'mixtral-8x7b': "
                "put its checkpoint in place of the name; start 2 such servers (dp 4 = 2 x 2) "
                "behind a load balancer");
    char buf[ENGINE_LAUNCH_MAX];
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_SGLANG, &s, &r, buf, sizeof buf), 0);
    assert_non_null(strstr(buf, " --tp-size 4 --pp-size 1 --dp-size 2 --enable-dp-attention "
                                "--ep-size 4 "));
    assert_non_null(strstr(buf, " --max-running-requests 8 "));
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_TRTLLM, &s, &r, buf, sizeof buf), 0);
    assert_non_null(strstr(buf, " --tp_size 4 --pp_size 1 --ep_size 4 --max_batch_size 8 "));
    assert_non_null(strstr(buf, "(attention on 2 GPUs per replica); start 2 servers, one per "
                                "replica group (no data-parallel flag)"));
    /* a dense plan with replicas: vLLM and SGLang one server, TensorRT-LLM one each */
    engine_model d = tm_llama3_8b();
    s.model = &d;
    r = eval_at(&s, 2, 1, 4, 1);
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_VLLM, &s, &r, buf, sizeof buf), 0);
    assert_non_null(strstr(buf, " --data-parallel-size 4 --gpu-memory-utilization"));
    assert_null(strstr(buf, "expert"));
    assert_null(strstr(buf, "servers"));
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_SGLANG, &s, &r, buf, sizeof buf), 0);
    assert_non_null(strstr(buf, " --tp-size 2 --pp-size 1 --dp-size 4 --mem-fraction-static"));
    assert_null(strstr(buf, "--ep-size"));
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_TRTLLM, &s, &r, buf, sizeof buf), 0);
    assert_non_null(strstr(buf, " --tp_size 2 --pp_size 1 --max_batch_size 4 "));
    assert_non_null(strstr(buf, "start 4 servers, one per replica (no data-parallel flag)"));
}

/* TensorRT-LLM's own rule (0.85 of what is free after the non-KV terms):
 * its line carries 0.85 exactly; vLLM's is the same budget over the total. */
static void test_memory_rule_free(void **state)
{
    (void)state;
    engine_model m = tm_llama3_8b();
    engine_gpu g = tg_h100();
    engine_link l = tl_link(3e-6, 367);
    engine_framework fw;
    engine_framework_generic(&fw);
    fw.mem_rule = ENGINE_MEM_FREE;
    fw.mem_fraction = 0.85;
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 1);
    s.framework = &fw;
    engine_result r = eval_at(&s, 1, 1, 1, 1);
    assert_true(engine_launch_mem_fraction(ENGINE_LAUNCH_TRTLLM, &s, &r) == 0.85);
    double vllm = floor(r.mem.capacity_bytes / 80e9 * 100 + 1e-6) / 100;
    assert_true(engine_launch_mem_fraction(ENGINE_LAUNCH_VLLM, &s, &r) == vllm);
    assert_true(vllm > 0.85 && vllm < 0.95);
}

/* An fp8 KV cache; a checkpoint that is already FP8 needs no flag; int4
 * needs an AWQ/GPTQ checkpoint. */
static void test_dtypes(void **state)
{
    (void)state;
    ts_fixture fx;
    engine_scenario s = ts_on_h100_over(&fx, tm_llama3_8b(), tl_link(3e-6, 367), 1);
    s.kv_dtype = ENGINE_FP8;
    engine_result r = eval_at(&s, 1, 1, 1, 1);
    char buf[ENGINE_LAUNCH_MAX];
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_VLLM, &s, &r, buf, sizeof buf), 0);
    assert_non_null(strstr(buf, " --kv-cache-dtype fp8"));
    assert_null(strstr(buf, "--quantization"));
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_SGLANG, &s, &r, buf, sizeof buf), 0);
    assert_non_null(strstr(buf, " --kv-cache-dtype fp8_e4m3"));
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_TRTLLM, &s, &r, buf, sizeof buf), 0);
    assert_non_null(strstr(buf, "fp8 KV cache: kv_cache_config.dtype fp8 in --config"));
    s.kv_dtype = ENGINE_FP16;
    snprintf(fx.m.hf_id, sizeof fx.m.hf_id, "meta-llama/Meta-Llama-3-8B");
    fx.m.has_weight_dtype = 1;
    fx.m.weight_dtype = ENGINE_FP8; /* the checkpoint's own format */
    r = eval_at(&s, 1, 1, 1, 1);
    for (int f = 0; f < ENGINE_LAUNCH_COUNT; f++) {
        assert_int_equal(engine_launch_line((engine_launch_fw)f, &s, &r, buf, sizeof buf), 0);
        assert_null(strstr(buf, "--quantization"));
        assert_null(strstr(buf, "checkpoint"));
    }
    fx.m.has_weight_dtype = 0;
    s.weight_dtype = ENGINE_INT4;
    r = eval_at(&s, 1, 1, 1, 1);
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_VLLM, &s, &r, buf, sizeof buf), 0);
    assert_non_null(strstr(buf, "# int4 weights: serve an AWQ or GPTQ checkpoint"));
    /* FP4 weights on an H100 (no FP4 math) on Marlin: vLLM's environment
     * switch before the command; the Triton default, and the other
     * frameworks, carry none */
    s.weight_dtype = ENGINE_FP4;
    r = eval_at(&s, 1, 1, 1, 1);
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_VLLM, &s, &r, buf, sizeof buf), 0);
    assert_null(strstr(buf, "MARLIN"));
    s.w4a16_kernel = ENGINE_W4A16_MARLIN;
    r = eval_at(&s, 1, 1, 1, 1);
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_VLLM, &s, &r, buf, sizeof buf), 0);
    assert_true(strncmp(buf, "VLLM_MXFP4_USE_MARLIN=1 vllm serve ", 35) == 0);
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_SGLANG, &s, &r, buf, sizeof buf), 0);
    assert_null(strstr(buf, "MARLIN"));
}

/* An invalid plan, a buffer too small, an unknown framework: -1 and "". */
static void test_refusals(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100_over(&f, tm_llama3_8b(), tl_link(3e-6, 367), 1);
    engine_result r = eval_at(&s, 1, 1, 1, 1);
    char buf[32] = "x";
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_VLLM, &s, &r, buf, sizeof buf), -1);
    assert_string_equal(buf, "");
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_COUNT, &s, &r, buf, sizeof buf), -1);
    r.valid = 0;
    char big[ENGINE_LAUNCH_MAX];
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_VLLM, &s, &r, big, sizeof big), -1);
    assert_string_equal(big, "");
    assert_string_equal(engine_launch_name(ENGINE_LAUNCH_TRTLLM), "trtllm");
}


/* Speculative decoding is named in each line's notes with the framework's
 * own option: SGLang NEXTN with k steps and k + 1 draft tokens, vLLM's
 * --speculative-config (deepseek_mtp), TensorRT-LLM's speculative_config. */
static void test_speculation_notes(void **state)
{
    (void)state;
    engine_model m = tm_deepseek_v3();
    m.mtp_layers = 1;
    snprintf(m.hf_id, sizeof m.hf_id, "deepseek-ai/DeepSeek-V3");
    engine_gpu g = tg_with_memory(1000);
    engine_link l = tl_link(3e-6, 367);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 8);
    s.weight_dtype = ENGINE_FP8;
    engine_result plain = eval_at(&s, 8, 1, 1, 1);
    char a[ENGINE_LAUNCH_MAX], b[ENGINE_LAUNCH_MAX];
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_SGLANG, &s, &plain, a, sizeof a), 0);
    assert_null(strstr(a, "speculat"));
    s.spec_method = ENGINE_SPEC_MTP;
    s.spec_k = 2;
    s.spec_accept = 0.8;
    engine_result r = eval_at(&s, 8, 1, 1, 1);
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_SGLANG, &s, &r, b, sizeof b), 0);
    assert_non_null(strstr(b, "mtp speculation: --speculative-algorithm NEXTN "
                              "--speculative-num-steps 2 --speculative-eagle-topk 1 "
                              "--speculative-num-draft-tokens 3"));
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_VLLM, &s, &r, b, sizeof b), 0);
    assert_non_null(strstr(b, "--speculative-config '{\"method\": \"deepseek_mtp\", "
                              "\"num_speculative_tokens\": 2}'"));
    assert_int_equal(engine_launch_line(ENGINE_LAUNCH_TRTLLM, &s, &r, b, sizeof b), 0);
    assert_non_null(strstr(b, "speculative_config in --config (decoding_type MTP, 2 draft "
                              "tokens: num_nextn_predict_layers)"));
}

/* xPyD pools (engine_launch_role_line): the same TP4 fp8 server as
 * test_llama70b_tp4_fp8 with each framework's documented disaggregation
 * form, checked by hand against its documentation: vLLM's NixlConnector
 * kv-transfer-config on both pools (nixl_connector_usage; Dynamo's
 * disagg.sh: --disaggregation-mode prefill|decode behind dynamo.frontend),
 * SGLang's --disaggregation-mode and its PD router (pd_disaggregation),
 * TensorRT-LLM's cache_transceiver_config, a context server's
 * disable_overlap_scheduler and `trtllm-serve disaggregated`
 * (examples/disaggregated).  SERVE is engine_launch_line's line; an
 * unknown role is refused. */
static void test_disagg_roles(void **state)
{
    (void)state;
    engine_model m = tm_llama3_70b();
    snprintf(m.hf_id, sizeof m.hf_id, "meta-llama/Meta-Llama-3-70B-Instruct");
    engine_gpu g = tg_h100();
    engine_link l = tl_link(3e-6, 367);
    engine_scenario s;
    ts_scenario(&s, &m, &g, &l, 4);
    s.weight_dtype = ENGINE_FP8;
    s.batch = 8;
    engine_result r = eval_at(&s, 4, 1, 1, 1);
    char a[ENGINE_LAUNCH_MAX], b[ENGINE_LAUNCH_MAX];
    for (int f = 0; f < ENGINE_LAUNCH_COUNT; f++) {
        assert_int_equal(engine_launch_line((engine_launch_fw)f, &s, &r, a, sizeof a), 0);
        assert_int_equal(engine_launch_role_line((engine_launch_fw)f, ENGINE_LAUNCH_SERVE, &s,
                                                 &r, b, sizeof b), 0);
        assert_string_equal(a, b);
        assert_null(strstr(a, "xPyD"));
        assert_int_equal(engine_launch_role_line((engine_launch_fw)f, ENGINE_LAUNCH_ROLE_COUNT,
                                                 &s, &r, b, sizeof b), -1);
    }
    assert_int_equal(engine_launch_role_line(ENGINE_LAUNCH_VLLM, ENGINE_LAUNCH_PREFILL, &s, &r,
                                             b, sizeof b), 0);
    assert_string_equal(
        b, "vllm serve meta-llama/Meta-Llama-3-70B-Instruct --tensor-parallel-size 4 "
           "--pipeline-parallel-size 1 --data-parallel-size 1 --gpu-memory-utilization 0.90 "
           "--max-num-seqs 8 --max-model-len 1280 --quantization fp8 --kv-transfer-config "
           "'{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'  # xPyD prefill "
           "server: a proxy sends each request to a prefill server first (vLLM's "
           "toy_proxy_server.py --prefiller-hosts/--decoder-hosts; or NVIDIA Dynamo: python -m "
           "dynamo.vllm --disaggregation-mode prefill with these engine arguments, behind "
           "python -m dynamo.frontend)");
    assert_int_equal(engine_launch_role_line(ENGINE_LAUNCH_VLLM, ENGINE_LAUNCH_DECODE, &s, &r,
                                             b, sizeof b), 0);
    assert_non_null(strstr(b, " --kv-transfer-config '{\"kv_connector\":\"NixlConnector\","
                              "\"kv_role\":\"kv_both\"}'  # xPyD decode server"));
    assert_non_null(strstr(b, "--disaggregation-mode decode with these"));
    assert_int_equal(engine_launch_role_line(ENGINE_LAUNCH_SGLANG, ENGINE_LAUNCH_PREFILL, &s,
                                             &r, b, sizeof b), 0);
    assert_string_equal(
        b, "python -m sglang.launch_server --model-path meta-llama/Meta-Llama-3-70B-Instruct "
           "--tp-size 4 --pp-size 1 --dp-size 1 --mem-fraction-static 0.86 "
           "--max-running-requests 8 --context-length 1280 --quantization fp8 "
           "--disaggregation-mode prefill  # xPyD prefill server (KV over Mooncake, or "
           "--disaggregation-transfer-backend nixl): front both pools with python -m "
           "sglang_router.launch_router --pd-disaggregation --prefill http://PREFILL:PORT "
           "--decode http://DECODE:PORT");
    assert_int_equal(engine_launch_role_line(ENGINE_LAUNCH_SGLANG, ENGINE_LAUNCH_DECODE, &s,
                                             &r, b, sizeof b), 0);
    assert_non_null(strstr(b, " --disaggregation-mode decode  # xPyD decode server"));
    assert_int_equal(engine_launch_role_line(ENGINE_LAUNCH_TRTLLM, ENGINE_LAUNCH_PREFILL, &s,
                                             &r, b, sizeof b), 0);
    assert_string_equal(
        b, "trtllm-serve meta-llama/Meta-Llama-3-70B-Instruct --backend pytorch --tp_size 4 "
           "--pp_size 1 --max_batch_size 8 --max_seq_len 1280 "
           "--kv_cache_free_gpu_memory_fraction 0.86  # fp8 weights: serve an FP8 checkpoint "
           "(e.g. NVIDIA Model Optimizer); xPyD context server: cache_transceiver_config: "
           "{backend: UCX} and disable_overlap_scheduler: true in --config; front both pools "
           "with trtllm-serve disaggregated -c disagg_config.yaml (context_servers and "
           "generation_servers urls)");
    assert_int_equal(engine_launch_role_line(ENGINE_LAUNCH_TRTLLM, ENGINE_LAUNCH_DECODE, &s,
                                             &r, b, sizeof b), 0);
    assert_non_null(strstr(b, "xPyD generation server: cache_transceiver_config: {backend: "
                              "UCX} in --config; front"));
    assert_null(strstr(b, "disable_overlap_scheduler"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_speculation_notes),
        cmocka_unit_test(test_llama70b_tp4_fp8),
        cmocka_unit_test(test_mixtral_ep8),
        cmocka_unit_test(test_mixtral_ep_below_tp),
        cmocka_unit_test(test_mixtral_ep4_two_servers),
        cmocka_unit_test(test_memory_rule_free),
        cmocka_unit_test(test_dtypes),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_disagg_roles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
