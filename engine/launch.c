/*
 * launch.c - launch lines for vLLM, SGLang and TensorRT-LLM from an
 * evaluated plan (launch.h).  A "server" here is what one command starts:
 * the replicas a framework runs in one process group.  Replicas that share
 * an expert-parallel group must be one server; the others may be one server
 * (vLLM's and SGLang's data parallelism) or one each (TensorRT-LLM, which has
 * no data-parallel flag).  A plan with more replicas than one server holds
 * says how many servers to start.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "launch.h"

const char *engine_launch_name(engine_launch_fw fw)
{
    static const char *const N[] = {"vllm", "sglang", "trtllm"};
    return fw >= 0 && fw < ENGINE_LAUNCH_COUNT ? N[fw] : "?";
}

static double vram_of(const engine_scenario *s)
{
    return engine_scenario_vram(s);
}

double engine_launch_mem_fraction(engine_launch_fw fw, const engine_scenario *s,
                                  const engine_result *r)
{
    const engine_memory *m = &r->mem;
    double vram = vram_of(s), f;
    double non_kv = m->weights_bytes + m->activation_bytes + m->overhead_bytes;
    switch (fw) {
    case ENGINE_LAUNCH_SGLANG:
        f = (m->weights_bytes + m->kv_capacity_bytes) / vram;
        break;
    case ENGINE_LAUNCH_TRTLLM:
        f = vram > non_kv ? m->kv_capacity_bytes / (vram - non_kv) : 0;
        break;
    default:
        f = m->capacity_bytes / vram;
        break;
    }
    f = floor(f * 100 + 1e-6) / 100; /* 1e-6: 0.9 computed as 0.8999999... is 0.90 */
    if (!(f >= 0.01))
        f = 0.01;
    return f > 1 ? 1 : f;
}

int engine_launch_max_seqs(const engine_result *r)
{
    int b = r->batch;
    if (r->max_concurrency > 0 && b > r->max_concurrency)
        b = r->max_concurrency;
    return b < 1 ? 1 : b;
}

int engine_launch_max_len(const engine_scenario *s)
{
    return s->max_model_len > 0 ? s->max_model_len : s->prompt + s->gen;
}

/* A line under construction: flags, then the notes after one "#". */
typedef struct line {
    char *buf;
    size_t len, used;
    int over;
    char notes[1280];
    size_t nused;
} line;

static void put(line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(line *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = l->used < l->len ? l->len - l->used : 0;
    int n = vsnprintf(l->buf + (room ? l->used : 0), room, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= room)
        l->over = 1;
    else
        l->used += (size_t)n;
}

static void note(line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(line *l, const char *fmt, ...)
{
    va_list ap;
    size_t room = sizeof l->notes - l->nused;
    if (l->nused && room > 2) {
        memcpy(l->notes + l->nused, "; ", 3);
        l->nused += 2;
        room -= 2;
    }
    va_start(ap, fmt);
    int n = vsnprintf(l->notes + l->nused, room, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= room)
        l->over = 1;
    else
        l->nused += (size_t)n;
}

static int is_moe(const engine_scenario *s)
{
    return s->model->experts > 0;
}

/* Replicas per server: an EP group spanning replicas (ep > tp) is one
 * server of ep / tp of them; otherwise all of them where the framework has
 * data parallelism, and one where it has not (TensorRT-LLM) or where its
 * expert parallelism would span them (vLLM's spans TP x DP of a server; it
 * has none below TP). */
static int replicas_per_server(engine_launch_fw fw, const engine_scenario *s, engine_plan p)
{
    if (is_moe(s) && p.ep > p.tp)
        return p.ep / p.tp;
    int vllm_ep = fw == ENGINE_LAUNCH_VLLM && is_moe(s) && p.ep > 1 && p.ep >= p.tp;
    if (fw == ENGINE_LAUNCH_TRTLLM || vllm_ep)
        return 1;
    return p.dp;
}

/* Model id, or the preset name with a note. */
static const char *model_id(const engine_scenario *s, line *l)
{
    if (s->model->hf_id[0])
        return s->model->hf_id;
    note(l, "no Hugging Face id for '%s': put its checkpoint in place of the name",
         s->model->name);
    return s->model->name;
}

static engine_dtype weights_of(const engine_scenario *s)
{
    return engine_scenario_weight_dtype(s);
}

/* 1 when the weights come quantized in the checkpoint (its
 * quantization_config): the frameworks read the format from it. */
static int checkpoint_quantized(const engine_scenario *s)
{
    return s->model->has_weight_dtype && weights_of(s) == s->model->weight_dtype;
}

/* The note for weights no flag quantizes on the fly. */
static void checkpoint_note(const engine_scenario *s, line *l)
{
    static const char *const FMT[ENGINE_DTYPE_COUNT] = {
        [ENGINE_FP8] = "fp8 weights: serve an FP8 checkpoint (e.g. NVIDIA Model Optimizer)",
        [ENGINE_INT8] = "int8 weights: serve an int8 (W8A16/W8A8) checkpoint",
        [ENGINE_INT4] = "int4 weights: serve an AWQ or GPTQ checkpoint",
        [ENGINE_FP4] = "fp4 weights: serve an NVFP4 checkpoint",
    };
    engine_dtype w = weights_of(s);
    if (!checkpoint_quantized(s) && FMT[w])
        note(l, "%s", FMT[w]);
}

/* A server larger than a node (gpus_per_node) needs the framework's
 * multi-node launch, which a single command line does not carry. */
static void nodes_note(const engine_scenario *s, engine_plan p, int k, line *l)
{
    long long n = (long long)p.tp * p.pp * k;
    int node = s->gpus_per_node;
    if (node > 0 && n > node)
        note(l, "one server spans %lld nodes of %d GPUs: start it with the framework's "
                "multi-node launch", (n + node - 1) / node, node);
}

static void servers_note(const engine_scenario *s, engine_plan p, int k, line *l)
{
    nodes_note(s, p, k, l);
    if (p.dp > k)
        note(l, "start %d such servers (dp %d = %d x %d) behind a load balancer", p.dp / k, p.dp,
             p.dp / k, k);
}

static int finish(line *l)
{
    if (l->nused)
        put(l, "  # %s", l->notes);
    if (l->over) {
        if (l->len)
            l->buf[0] = '\0';
        return -1;
    }
    return 0;
}

/* vLLM: `vllm serve` engine arguments as in vLLM v0.10 (vllm/engine/
 * arg_utils.py, ParallelConfig/CacheConfig/SchedulerConfig groups;
 * docs.vllm.ai/en/latest/configuration/engine_args.html):
 * --tensor-parallel-size, --pipeline-parallel-size, --data-parallel-size,
 * --enable-expert-parallel (EP over TP x DP of the server; none below TP:
 * without it every expert is split over the TP group, i.e. ep 1),
 * --gpu-memory-utilization (of the total), --max-num-seqs (per engine, i.e.
 * per DP rank), --max-model-len, --quantization fp8 (on-the-fly FP8 of a
 * 16-bit checkpoint), --kv-cache-dtype fp8. */
static void gen_vllm(const engine_scenario *s, const engine_result *r, line *l)
{
    engine_plan p = r->plan;
    int k = replicas_per_server(ENGINE_LAUNCH_VLLM, s, p);
    const char *id = model_id(s, l);
    /* the MXFP4 MoE on Marlin where the GPU has no FP4 math, as modelled
     * (--w4a16-kernel marlin): vLLM's VLLM_MXFP4_USE_MARLIN (vllm/envs.py;
     * InferenceX's gptoss_fp4_h100/h200 scripts set it to 1) */
    if (s->w4a16_kernel == ENGINE_W4A16_MARLIN && weights_of(s) == ENGINE_FP4 &&
        !(s->gpu->peak_flops[ENGINE_FP4] > 0))
        put(l, "VLLM_MXFP4_USE_MARLIN=1 ");
    put(l, "vllm serve %s --tensor-parallel-size %d --pipeline-parallel-size %d "
           "--data-parallel-size %d", id, p.tp, p.pp, k);
    if (is_moe(s) && p.ep > 1 && p.ep >= p.tp)
        put(l, " --enable-expert-parallel");
    put(l, " --gpu-memory-utilization %.2f --max-num-seqs %d --max-model-len %d",
        engine_launch_mem_fraction(ENGINE_LAUNCH_VLLM, s, r), engine_launch_max_seqs(r),
        engine_launch_max_len(s));
    if (weights_of(s) == ENGINE_FP8 && !checkpoint_quantized(s))
        put(l, " --quantization fp8");
    else
        checkpoint_note(s, l);
    if (s->kv_dtype == ENGINE_FP8)
        put(l, " --kv-cache-dtype fp8");
    if (is_moe(s) && p.ep > 1 && p.ep < p.tp)
        note(l, "vLLM has no EP below TP: this serves ep 1 (every expert over the %d GPUs)",
             p.tp);
    servers_note(s, p, k, l);
}

/* SGLang: `python -m sglang.launch_server` server arguments as in SGLang
 * v0.5 (python/sglang/srt/server_args.py; docs.sglang.io/advanced_features/
 * server_arguments.html): --model-path, --tp-size, --pp-size, --dp-size,
 * --ep-size, --enable-dp-attention (attention data-parallel inside an EP
 * group: --tp-size is then the group, attention runs tp-size / dp-size
 * wide), --mem-fraction-static (weights + KV pool of the total),
 * --max-running-requests (of the server: divided over the DP workers under
 * DP attention, each DP worker's own otherwise), --context-length,
 * --quantization fp8, --kv-cache-dtype fp8_e4m3. */
static void gen_sglang(const engine_scenario *s, const engine_result *r, line *l)
{
    engine_plan p = r->plan;
    int k = replicas_per_server(ENGINE_LAUNCH_SGLANG, s, p);
    int dp_attn = is_moe(s) && p.ep > p.tp;
    int seqs = engine_launch_max_seqs(r) * (dp_attn ? k : 1);
    const char *id = model_id(s, l);
    put(l, "python -m sglang.launch_server --model-path %s --tp-size %d --pp-size %d --dp-size %d",
        id, dp_attn ? p.ep : p.tp, p.pp, k);
    if (dp_attn)
        put(l, " --enable-dp-attention");
    if (is_moe(s))
        put(l, " --ep-size %d", p.ep);
    put(l, " --mem-fraction-static %.2f --max-running-requests %d --context-length %d",
        engine_launch_mem_fraction(ENGINE_LAUNCH_SGLANG, s, r), seqs, engine_launch_max_len(s));
    if (weights_of(s) == ENGINE_FP8 && !checkpoint_quantized(s))
        put(l, " --quantization fp8");
    else
        checkpoint_note(s, l);
    if (s->kv_dtype == ENGINE_FP8)
        put(l, " --kv-cache-dtype fp8_e4m3");
    servers_note(s, p, k, l);
}

/* TensorRT-LLM: `trtllm-serve MODEL` options as in TensorRT-LLM 1.x
 * (tensorrt_llm/commands/serve.py; nvidia.github.io/TensorRT-LLM/commands/
 * trtllm-serve): --backend pytorch, --tp_size, --pp_size, --ep_size (MoE
 * expert parallelism inside the TP group), --max_batch_size, --max_seq_len,
 * --kv_cache_free_gpu_memory_fraction (of what weights and buffers leave
 * free); each flag re-checked against the 1.x trtllm-serve reference
 * (the 0.18 page lists the same names, --ep_size aside).  No data-parallel
 * or quantization flag: attention DP (enable_attention_dp) and the
 * KV-cache dtype go in the --config YAML (--config is the newer alias of
 * --extra_llm_api_options, which releases before it take; both are
 * accepted, tests/unittest/llmapi/apps test_config_file_loading), and the
 * weights' format comes from the checkpoint. */
static void gen_trtllm(const engine_scenario *s, const engine_result *r, line *l)
{
    engine_plan p = r->plan;
    int k = replicas_per_server(ENGINE_LAUNCH_TRTLLM, s, p);
    const char *id = model_id(s, l);
    put(l, "trtllm-serve %s --backend pytorch --tp_size %d --pp_size %d", id, p.tp * k, p.pp);
    if (is_moe(s))
        put(l, " --ep_size %d", p.ep > 1 ? p.ep : 1);
    put(l, " --max_batch_size %d --max_seq_len %d --kv_cache_free_gpu_memory_fraction %.2f",
        engine_launch_max_seqs(r) * k, engine_launch_max_len(s),
        engine_launch_mem_fraction(ENGINE_LAUNCH_TRTLLM, s, r));
    if (k > 1)
        note(l, "enable_attention_dp: true in --config (attention on %d GPU%s per replica)", p.tp,
             p.tp == 1 ? "" : "s");
    checkpoint_note(s, l);
    if (s->kv_dtype == ENGINE_FP8)
        note(l, "fp8 KV cache: kv_cache_config.dtype fp8 in --config");
    nodes_note(s, p, k, l);
    if (p.dp > k)
        note(l, "start %d servers, one per replica%s (no data-parallel flag)", p.dp / k,
             k > 1 ? " group" : "");
}

/* Speculative decoding, as a note (the EAGLE head or draft checkpoint is
 * the user's to name): SGLang's --speculative-algorithm NEXTN (the model's
 * MTP module) / EAGLE / STANDALONE (a draft model) with num-steps k, topk 1
 * and k + 1 draft tokens (lm-sys blog 2025-09-02, SGLang speculative
 * decoding docs); vLLM's --speculative-config num_speculative_tokens with
 * method deepseek_mtp or eagle, or the draft's model; TensorRT-LLM's
 * speculative_config in --config (tech blog 2: decoding_type MTP,
 * num_nextn_predict_layers). */
static void spec_note(engine_launch_fw fw, const engine_scenario *s, line *l)
{
    engine_spec_method m = s->spec_method;
    if (m == ENGINE_SPEC_NONE)
        return;
    int k = s->spec_k;
    const char *head = m == ENGINE_SPEC_DRAFT ? "DRAFT_MODEL" : "EAGLE_HEAD";
    if (fw == ENGINE_LAUNCH_SGLANG) {
        note(l, "%s speculation: --speculative-algorithm %s --speculative-num-steps %d "
                "--speculative-eagle-topk 1 --speculative-num-draft-tokens %d%s%s",
             engine_spec_method_name(m), m == ENGINE_SPEC_MTP ? "NEXTN"
                                         : m == ENGINE_SPEC_EAGLE ? "EAGLE" : "STANDALONE",
             k, k + 1, m == ENGINE_SPEC_MTP ? "" : " --speculative-draft-model-path ",
             m == ENGINE_SPEC_MTP ? "" : head);
    } else if (fw == ENGINE_LAUNCH_VLLM) {
        if (m == ENGINE_SPEC_DRAFT)
            note(l, "draft speculation: --speculative-config '{\"model\": \"%s\", "
                    "\"num_speculative_tokens\": %d}'", head, k);
        else
            note(l, "%s speculation: --speculative-config '{\"method\": \"%s\", %s"
                    "\"num_speculative_tokens\": %d}'", engine_spec_method_name(m),
                 m == ENGINE_SPEC_MTP ? "deepseek_mtp" : "eagle",
                 m == ENGINE_SPEC_MTP ? "" : "\"model\": \"EAGLE_HEAD\", ", k);
    } else {
        note(l, "%s speculation: speculative_config in --config (decoding_type %s, %d draft "
                "tokens%s)", engine_spec_method_name(m),
             m == ENGINE_SPEC_MTP ? "MTP" : m == ENGINE_SPEC_EAGLE ? "Eagle" : "DraftTarget", k,
             m == ENGINE_SPEC_MTP ? ": num_nextn_predict_layers" : "");
    }
}

/* The disaggregation form of each framework, for one pool's server:
 *  vLLM (docs.vllm.ai features/nixl_connector_usage, v0.10 and later):
 *    --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'
 *    on both pools' servers, a proxy in front that sends each request to a
 *    prefill server first (vLLM's toy_proxy_server.py --prefiller-hosts /
 *    --decoder-hosts); NVIDIA Dynamo runs the same engine arguments as
 *    `python -m dynamo.vllm --disaggregation-mode prefill|decode` behind
 *    `python -m dynamo.frontend` (ai-dynamo/dynamo@11bc2e86
 *    examples/backends/vllm/launch/disagg.sh);
 *  SGLang (docs.sglang.io advanced_features/pd_disaggregation, v0.5):
 *    --disaggregation-mode prefill|decode (transfer engine Mooncake by
 *    default, --disaggregation-transfer-backend nixl the other), and the
 *    router `python -m sglang_router.launch_router --pd-disaggregation
 *    --prefill URL --decode URL`;
 *  TensorRT-LLM (examples/disaggregated/README.md, 1.x): each server's
 *    --config YAML carries cache_transceiver_config (backend UCX or NIXL),
 *    a context server's disable_overlap_scheduler: true, and
 *    `trtllm-serve disaggregated -c disagg_config.yaml` (context_servers
 *    and generation_servers urls) is the front. */
static void gen_role(engine_launch_fw fw, engine_launch_role role, line *l)
{
    const char *pool = role == ENGINE_LAUNCH_PREFILL ? "prefill" : "decode";
    if (role == ENGINE_LAUNCH_SERVE)
        return;
    switch (fw) {
    case ENGINE_LAUNCH_VLLM:
        put(l, " --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":"
               "\"kv_both\"}'");
        note(l, "xPyD %s server: a proxy sends each request to a prefill server first "
                "(vLLM's toy_proxy_server.py --prefiller-hosts/--decoder-hosts; or NVIDIA "
                "Dynamo: python -m dynamo.vllm --disaggregation-mode %s with these engine "
                "arguments, behind python -m dynamo.frontend)", pool, pool);
        break;
    case ENGINE_LAUNCH_SGLANG:
        put(l, " --disaggregation-mode %s", pool);
        note(l, "xPyD %s server (KV over Mooncake, or --disaggregation-transfer-backend "
                "nixl): front both pools with python -m sglang_router.launch_router "
                "--pd-disaggregation --prefill http://PREFILL:PORT --decode http://DECODE:PORT",
             pool);
        break;
    default:
        note(l, "xPyD %s server: cache_transceiver_config: {backend: UCX}%s in --config; "
                "front both pools with trtllm-serve disaggregated -c disagg_config.yaml "
                "(context_servers and generation_servers urls)",
             role == ENGINE_LAUNCH_PREFILL ? "context" : "generation",
             role == ENGINE_LAUNCH_PREFILL ? " and disable_overlap_scheduler: true" : "");
        break;
    }
}

int engine_launch_line(engine_launch_fw fw, const engine_scenario *s, const engine_result *r,
                       char *buf, size_t len)
{
    return engine_launch_role_line(fw, ENGINE_LAUNCH_SERVE, s, r, buf, len);
}

int engine_launch_role_line(engine_launch_fw fw, engine_launch_role role,
                            const engine_scenario *s, const engine_result *r, char *buf,
                            size_t len)
{
    line l;
    memset(&l, 0, sizeof l);
    l.buf = buf;
    l.len = len;
    if (len)
        buf[0] = '\0';
    if (!s || !s->model || !s->gpu || !r || !r->valid || r->plan.tp < 1 || r->plan.dp < 1)
        return -1;
    switch (fw) {
    case ENGINE_LAUNCH_VLLM:
        gen_vllm(s, r, &l);
        break;
    case ENGINE_LAUNCH_SGLANG:
        gen_sglang(s, r, &l);
        break;
    case ENGINE_LAUNCH_TRTLLM:
        gen_trtllm(s, r, &l);
        break;
    default:
        return -1;
    }
    if ((unsigned)role >= ENGINE_LAUNCH_ROLE_COUNT)
        return -1;
    gen_role(fw, role, &l);
    spec_note(fw, s, &l);
    return finish(&l);
}
