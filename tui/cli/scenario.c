/*
 * scenario.c - the shared scenario flags: their option table and the load
 * step from parsed options to an engine_scenario (see scenario.h).
 */
#include "scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "calib.h"
#include "lookup.h"
#include "validation.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* --- the option table -------------------------------------------------- */

static const char *dtype_name(int i) { return engine_dtype_name((engine_dtype)i); }
static const char *schedule_name(int i) { return engine_schedule_name((engine_schedule)i); }
static const char *objective_name(int i) { return engine_objective_name((engine_objective)i); }
static const char *graphs_name(int i) { return engine_graphs_name((engine_graphs)i); }
static const char *spec_name(int i) { return engine_spec_method_name((engine_spec_method)i); }

static const cli_enum DTYPES = {dtype_name, ENGINE_DTYPE_COUNT};
/* Activations and communication: the float formats only (fp16, bf16,
 * fp8 are engine_dtype 0..2, so the index is the dtype). */
static const cli_enum ACT_DTYPES = {dtype_name, ENGINE_FP8 + 1};
static const cli_enum SCHEDULES = {schedule_name, ENGINE_SCHED_COUNT};
static const cli_enum OBJECTIVES = {objective_name, ENGINE_OBJ_COUNT};
static const cli_enum GRAPHS = {graphs_name, ENGINE_GRAPHS_COUNT};
static const cli_enum SPECS = {spec_name, ENGINE_SPEC_COUNT};
static const char *a2a_name(int i) { return engine_a2a_name((engine_a2a)i); }
static const cli_enum A2AS = {a2a_name, ENGINE_A2A_COUNT};
static const char *w4a16_name(int i) { return engine_w4a16_name((engine_w4a16)i); }
static const cli_enum W4A16S = {w4a16_name, ENGINE_W4A16_COUNT};
static const char *sampling_name(int i) { return engine_sampling_name((engine_sampling)i); }
static const cli_enum SAMPLINGS = {sampling_name, ENGINE_SAMPLING_COUNT};
static const char *fwv_name(int i) { return engine_fw_version_name((engine_fw_version)i); }
static const cli_enum FW_VERSIONS = {fwv_name, ENGINE_FWV_COUNT};
static const char *fp8s_name(int i) { return engine_fp8_scaling_name((engine_fp8_scaling)i); }
static const cli_enum FP8S = {fp8s_name, ENGINE_FP8_SCALE_COUNT};

#define INT_OPT(nm, a, field, lo, hi, text) \
    {.name = nm, .kind = CLI_OPT_INT, .arg = a, .help = text, .off = CLI_AT(field), .min = lo, .max = hi}
#define NUM_OPT(nm, a, field, lo, hi, text) \
    {.name = nm, .kind = CLI_OPT_DOUBLE, .arg = a, .help = text, .off = CLI_AT(field), .min = lo, .max = hi}
#define STR_OPT(nm, a, field, text) \
    {.name = nm, .kind = CLI_OPT_STRING, .arg = a, .help = text, .off = CLI_AT(field)}
#define ENUM_OPT(nm, a, field, e, text) \
    {.name = nm, .kind = CLI_OPT_ENUM, .arg = a, .help = text, .off = CLI_AT(field), .choices = &e}

const cli_opt cli_scenario_opts[] = {
    {.name = "--model", .kind = CLI_OPT_STRING, .arg = "M", .off = CLI_AT(model),
     .section = "scenario:",
     .help = "preset name (shardscope list models) or a path to a\nHugging Face config.json"},
    STR_OPT("--gpu", "G", gpu, "GPU preset (shardscope list gpus)"),
    INT_OPT("--gpus", "N", gpus, 1, ENGINE_MAX_GPUS, "number of GPUs, 1.." STR(ENGINE_MAX_GPUS)),
    INT_OPT("--tp", "T", tp, 1, ENGINE_MAX_GPUS,
            "tensor-parallel degree; any of --tp --pp --dp --ep gives\n"
            "an explicit plan (missing ones: 1; dp = N/(tp*pp))"),
    INT_OPT("--pp", "P", pp, 1, ENGINE_MAX_GPUS, "pipeline-parallel degree (stages)"),
    INT_OPT("--dp", "D", dp, 1, ENGINE_MAX_GPUS, "data-parallel degree (replicas)"),
    INT_OPT("--ep", "E", ep, 1, ENGINE_MAX_GPUS, "expert-parallel degree (MoE models)"),
    STR_OPT("--link", "L", link,
            "interconnect inside an NVLink domain or node (default:\n"
            "the GPU's usual one: nvlink3/4/5 for A100/H100/B200\n"
            "SXM, xgmi for MI300X, PCIe for PCIe cards)"),
    STR_OPT("--inter-link", "L", inter_link,
            "scale-out link between domains (default: the GPU's,\n"
            "ib-ndr for H100/H200/B200, ib-hdr for A100)"),
    INT_OPT("--gpus-per-node", "K", gpus_per_node, 1, ENGINE_MAX_GPUS,
            "GPUs on the intra link (default: the GPU's NVLink\n"
            "domain, 8 for HGX, 72 for GB200 NVL72; PCIe cards 8)"),
    NUM_OPT("--vram-gb", "X", vram_gb, ENGINE_MIN_VRAM_GB, ENGINE_MAX_VRAM_GB,
            "memory per GPU in GB (1e9 bytes; default: the GPU's)"),
    STR_OPT("--framework", "F", framework,
            "vllm|sglang|trt-llm|generic (default generic): launch,\n"
            "step and request costs, custom all-reduce, memory rule"),
    ENUM_OPT("--framework-version", "V", framework_version, FW_VERSIONS,
             ": the engine generation,\n"
             "its host cost per step (vLLM only; default: the\n"
             "profile's, its newest): v0 vLLM <= 0.5 (0.6-0.7 eager)\n"
             "1167 us + 100.4 us a sequence, v0.6 (0.6-0.7, async\n"
             "output processor) 1040 + 38.2 us, v1 (>= 0.8) 540 +\n"
             "12.7 us, unsourced"),
    ENUM_OPT("--cuda-graphs", "on|off", cuda_graphs, GRAPHS,
             "decode steps replay a CUDA graph or launch every kernel\n"
             "eagerly (default: the framework's; vLLM --enforce-eager\n"
             "is off)"),
    STR_OPT("--cuda-graph-sizes", "LIST", cuda_graph_sizes,
            "captured decode graph batch sizes, at most 64,\n"
            "ascending, comma-separated (TensorRT-LLM\n"
            "cuda_graph_config batch_sizes with enable_padding): a\n"
            "decode batch runs as the next size up, the rest dummy\n"
            "requests; trtllm-perf: the 1.x\n"
            "perf-overview's 1,2,4,...,128,256,384,512,1024,...,8192;\n"
            "none (default): no padding"),
    ENUM_OPT("--tbo", "on|off", tbo, GRAPHS,
             "two-batch overlap of the EP all-to-all: one half of\n"
             "the batch's dispatch/combine under the other's compute\n"
             "(default: the framework's, off everywhere)"),
    ENUM_OPT("--fuse-ar-norm", "on|off", fuse_ar_norm, GRAPHS,
             "fuse each TP all-reduce with the residual add + norm\n"
             "after it (TensorRT-LLM's PyTorch backend; default: the\n"
             "framework's, off everywhere)"),
    ENUM_OPT("--prefill-graphs", "on|off", prefill_graphs, GRAPHS,
             "prefill steps replay piecewise CUDA graphs: every kernel\n"
             "but attention (with the KV write), the TP all-reduces,\n"
             "the LM head and sampler, which stay eager; a step above\n"
             "the largest captured size (SGLang: chunked_prefill_size,\n"
             "2048 tokens for MLA) runs eagerly (default: the\n"
             "framework's, off everywhere: SGLang <= 0.5.9; on for\n"
             "SGLang from sglang#16331)"),
    ENUM_OPT("--flash-attn", "on|off", flash_attn, GRAPHS,
             "prefill attention as FlashAttention (on, default) or\n"
             "with every score written to memory as FP32 and the\n"
             "causal half computed and masked (off: llama.cpp -fa off,\n"
             "llama-bench's default before llama.cpp PR 23714)"),
    ENUM_OPT("--local-kv-full", "on|off", local_kv_full, GRAPHS,
             "local-attention layers (sliding window, chunk) take KV\n"
             "blocks for the whole sequence like global ones: one\n"
             "attention window for every layer (default: the\n"
             "framework's: on for trt-llm, whose KV cache manager does\n"
             "so unless kv_cache_config lists max_attention_window;\n"
             "off elsewhere: at most the window)"),
    ENUM_OPT("--a2a", "nccl|deepep|deepep-ll", a2a, A2AS,
             "EP dispatch/combine: NCCL all-to-all (default), DeepEP\n"
             "normal kernels, or DeepEP low-latency kernels where a\n"
             "rank sends at most " STR(ENGINE_DEEPEP_LL_TOKENS) " tokens"),
    ENUM_OPT("--w4a16-kernel", "triton|marlin", w4a16_kernel, W4A16S,
             "the kernel of FP4 weights on 16-bit math (MXFP4 on\n"
             "Hopper): triton (default: the Triton MoE the GPU's W4A16\n"
             "rates were measured on; vLLM's triton_kernels, TensorRT-\n"
             "LLM's Triton backend) or marlin (vLLM\n"
             "VLLM_MXFP4_USE_MARLIN=1, SGLang's marlin backend): issue-\n"
             "bound at its own compute rate (H100/H200 25.7 % of the\n"
             "BF16 peak, sglang#38884), its weights streamed at a\n"
             "16-bit GEMM's rate"),
    INT_OPT("--redundant-experts", "N", redundant_experts, 0, ENGINE_MAX_GPUS,
            "extra expert slots of an EP plan (EPLB replicas, e.g.\n"
            "32: DeepSeek's 256 experts on 288 slots; default 0)"),
    NUM_OPT("--moe-imbalance", "F", moe_imbalance, 1, ENGINE_MAX_IMBALANCE,
            "busiest expert group's routed tokens over the mean, >= 1\n"
            "(default: 1 + c sqrt(2 ln ep) / sqrt(slots/ep), c from\n"
            "measured DeepSeek-R1 routing: 1.68, with EPLB 0.12)"),
    NUM_OPT("--mem-fraction", "X", mem_fraction, 0.01, 1,
            "memory fraction of the framework's rule, 0..1 (vLLM\n"
            "gpu_memory_utilization: of the total; TensorRT-LLM:\n"
            "of what is free after the weights; default: its own)"),
    INT_OPT("--max-model-len", "N", max_model_len, 1, ENGINE_MAX_CONTEXT,
            "context limit in tokens (default: the model's\n"
            "max_position_embeddings x rope_scaling factor)"),
    ENUM_OPT("--sampling", "plain|top-p|full", sampling, SAMPLINGS,
             "the sampler's kernels per step: plain temperature\n"
             "sampling (default), top-p adds top-p/top-k truncation,\n"
             "full also repetition, frequency and presence penalties"),
    {.name = "--batch", .kind = CLI_OPT_INT, .arg = "B", .off = CLI_AT(batch), .min = 1,
     .max = ENGINE_MAX_BATCH, .section = "workload:", .takes_max = 1,
     .help = "concurrent sequences per replica, 1.." STR(ENGINE_MAX_BATCH) ", or max:\n"
             "the most whose KV cache fits (default 1; eval ranking\n"
             "by throughput or cost: each plan's max)"},
    INT_OPT("--max-num-seqs", "N", max_num_seqs, 1, ENGINE_MAX_BATCH,
            "running requests per replica (vLLM --max-num-seqs, SGLang\n"
            "--max-running-requests, TensorRT-LLM max_batch_size;\n"
            "default: the framework's: vLLM 256, 1024 on GPUs of\n"
            "70 GiB or more but A100s (vllm serve's V1 default),\n"
            "SGLang its request pool, 2048-4096 by its KV cache,\n"
            "TensorRT-LLM 2048, generic 256); caps\n"
            "--batch max, the rankings' largest batch and\n"
            "--total-concurrency per replica (the rest queue), never\n"
            "a given --batch"),
    INT_OPT("--prompt", "S", prompt, 1, ENGINE_MAX_TOKENS,
            "prompt tokens, 1.." STR(ENGINE_MAX_TOKENS) " (default 1024)"),
    INT_OPT("--gen", "G", gen, 1, ENGINE_MAX_TOKENS,
            "generated tokens, 1.." STR(ENGINE_MAX_TOKENS) " (default 256)"),
    ENUM_OPT("--dtype", "D", dtype, DTYPES,
             ": weights (default: the\ncheckpoint's quantization_config, else fp16)"),
    INT_OPT("--quant-group", "N", quant_group, 1, ENGINE_MAX_QUANT_GROUP,
            "weights per int4/fp4 scale (default: the checkpoint's,\n"
            "else 128 for int4, 16 for fp4)"),
    ENUM_OPT("--fp8-scaling", "auto|tensor|block", fp8_scaling, FP8S,
             "FP8 weights' scales: the checkpoint's (auto, default:\n"
             "block-scaled for DeepSeek-V3/R1), per-tensor, or 128x128\n"
             "blocks (their own GEMM efficiency)"),
    ENUM_OPT("--kv-dtype", "D", kv_dtype, DTYPES, ": KV cache (default fp16)"),
    ENUM_OPT("--act-dtype", "D", act_dtype, ACT_DTYPES,
             ": activations and\ncommunication (default fp16)"),
    INT_OPT("--microbatches", "M", microbatches, 1, ENGINE_MAX_MICROBATCHES,
            "prefill micro-batches (default: min(pp, batch), whole\n"
            "sequences; more than the batch splits sequences)"),
    INT_OPT("--decode-microbatches", "M", decode_microbatches, 1, ENGINE_MAX_BATCH,
            "decode groups in flight in the pipeline (default:\n"
            "min(pp, batch); 1: the batch crosses the stages in turn)"),
    ENUM_OPT("--schedule", "S", schedule, SCHEDULES, "(default gpipe)"),
    INT_OPT("--interleave", "V", interleave, 1, ENGINE_MAX_INTERLEAVE,
            "chunks per stage for the interleaved schedule, 1.." STR(ENGINE_MAX_INTERLEAVE)
            " (2)"),
    ENUM_OPT("--objective", "O", objective, OBJECTIVES, "(ranking; default latency)"),
    {.name = "--spec-method", .kind = CLI_OPT_ENUM, .arg = "M", .off = CLI_AT(spec_method),
     .choices = &SPECS, .section = "speculative decoding:",
     .help = ": drafts verified by one\ntarget step (default none; mtp: DeepSeek-V3/R1's own MTP\n"
             "module; eagle: an EAGLE head; draft: --spec-draft)"},
    INT_OPT("--spec-k", "K", spec_k, 0, ENGINE_MAX_SPEC_K,
            "drafted tokens per target step, 0.." STR(ENGINE_MAX_SPEC_K) " (default: the\n"
            "method's: draft 4, eagle 3, mtp 1)"),
    NUM_OPT("--spec-accept", "P", spec_accept, 0, 1,
            "per-token acceptance rate, 0..1 (default: the method's\n"
            "published one: draft 0.70, eagle 0.75, mtp 0.875)"),
    STR_OPT("--spec-draft", "MODEL", spec_draft,
            "the draft model of --spec-method draft: a preset name or\n"
            "a Hugging Face config.json (same vocabulary as --model)"),
    {.name = "--jitter", .kind = CLI_OPT_DOUBLE, .arg = "SIGMA", .off = CLI_AT(jitter), .min = 0,
     .max = ENGINE_MAX_JITTER, .section = "tails (Monte Carlo):",
     .help = "log-normal sigma of per-GPU compute, 0..3 (default 0.12)"},
    NUM_OPT("--straggler-prob", "P", straggler_prob, 0, 1,
            "chance a GPU straggles in a request (default 0.002)"),
    NUM_OPT("--straggler-slowdown", "X", straggler_slowdown, 1, ENGINE_MAX_SLOWDOWN,
            "a straggler's compute multiplier, 1..100 (default 1.5)"),
    INT_OPT("--samples", "K", samples, 0, ENGINE_MAX_SAMPLES,
            "Monte Carlo samples, 0.." STR(ENGINE_MAX_SAMPLES) " (default 1000)"),
    {.name = "--seed", .kind = CLI_OPT_U64, .arg = "N", .off = CLI_AT(seed),
     .help = "generator seed (default 42): same inputs, same numbers"},
    {.name = "--calib", .kind = CLI_OPT_STRING, .arg = "FILE", .off = CLI_AT(calib),
     .section = "calibration:", .help = "use this saved calibration (shardscope calibrate)"},
    {.name = "--no-calib", .kind = CLI_OPT_FLAG, .off = CLI_AT(no_calib),
     .help = "datasheet defaults, ignoring saved calibrations\n"
             "(default: the calibration saved for --gpu, if any)"},
    {.name = "--json", .kind = CLI_OPT_FLAG, .off = CLI_AT(json), .section = "output:",
     .help = "one JSON object on stdout"},
    {.name = NULL},
};

/* --- the load step ----------------------------------------------------- */

/* Model, GPU, links (the GPU's usual topology by default) and framework. */
static int load_presets(const cli_opts *o, const preset_db *db, unsigned need,
                        cli_scenario *out, engine_error *err)
{
    engine_scenario *s = &out->scenario;
    if (o->v.model) {
        s->model = cli_find_model(db, "--model", o->v.model, &out->hf_model,
                                  &out->model_from_file, err);
        if (!s->model)
            return -1;
    } else if (need & CLI_NEED_MODEL) {
        return engine_errorf(err, "--model: required (a preset name or a config.json path)");
    }
    if (o->v.gpu) {
        if (!(s->gpu = cli_find_gpu(db, "--gpu", o->v.gpu, err)))
            return -1;
    } else if (need & CLI_NEED_GPU) {
        return engine_errorf(err, "--gpu: required (see 'shardscope list gpus')");
    }
    const engine_link *usual_intra = NULL, *usual_inter = NULL;
    int usual_per_node = 0;
    preset_gpu_topology(db, s->gpu, &usual_intra, &usual_inter, &usual_per_node);
    s->intra = usual_intra ? usual_intra : cli_default_link_for(db, s->gpu);
    if (o->v.link && !(s->intra = cli_find_link(db, "--link", o->v.link, err)))
        return -1;
    s->inter = usual_inter;
    if (o->v.inter_link && !(s->inter = cli_find_link(db, "--inter-link", o->v.inter_link, err)))
        return -1;
    s->gpus_per_node = CLI_SEEN(o, gpus_per_node) ? o->v.gpus_per_node : usual_per_node;
    /* The presets used by default are used too: warn about them as well. */
    if (!o->v.link && s->intra)
        cli_warn_rejected(db, "links", "the default --link", s->intra->name);
    if (!o->v.inter_link && s->inter)
        cli_warn_rejected(db, "links", "the default --inter-link", s->inter->name);
    if (!o->v.framework)
        cli_warn_rejected(db, "frameworks", "the default --framework", "generic");
    s->framework = preset_find_framework(db, "generic");
    if (o->v.framework &&
        !(s->framework = cli_find_framework(db, "--framework", o->v.framework, err)))
        return -1;
    return 0;
}

/* --calib FILE, else the calibration saved for the GPU (GPU backends
 * only), else datasheet defaults. */
static int load_calib(const cli_opts *o, const char *cmd, cli_scenario *out, engine_error *err)
{
    engine_scenario *s = &out->scenario;
    if (o->v.calib && o->v.no_calib)
        return engine_errorf(err, "--calib: cannot be combined with --no-calib");
    if (o->v.calib) {
        engine_error e = {{0}};
        char preset[ENGINE_NAME_MAX] = "";
        if (calib_store_load_file(o->v.calib, &out->calib, preset, sizeof preset, &e) != 0)
            return engine_errorf(err, "--calib: %s",
                                 e.msg[0] ? e.msg : "cannot read the calibration");
        if (s->gpu && preset[0] && strcasecmp(preset, s->gpu->name) != 0)
            fprintf(stderr, "shardscope %s: --calib: note: %s was measured for %s, applied to %s\n",
                    cmd, o->v.calib, preset, s->gpu->name);
        else if (s->gpu && !preset[0])
            fprintf(stderr, "shardscope %s: --calib: note: %s was measured on %s (%s), applied "
                            "to %s: its rates replace the %s's\n",
                    cmd, o->v.calib, out->calib.device, out->calib.backend, s->gpu->name,
                    s->gpu->name);
        if (out->calib.schema < 2)
            fprintf(stderr, "shardscope %s: --calib: note: %s is a schema %d file: no "
                            "per-kernel fit; the engine uses its layer roofline (recalibrate "
                            "for the per-kernel model)\n",
                    cmd, o->v.calib, out->calib.schema > 0 ? out->calib.schema : 1);
        s->calib = &out->calib;
    } else if (!o->v.no_calib && s->gpu && calib_store_load_for_gpu(s->gpu->name, &out->calib) == 1 &&
               out->calib.measured) {
        s->calib = &out->calib;
    }
    /* The calibration's NCCL tables time the collectives on the link inside
     * the node (where they were measured). */
    if (s->calib && s->intra && engine_calib_link(s->calib, s->intra, &out->calib_link) > 0) {
        s->intra = &out->calib_link;
        if (o->v.calib)
            fprintf(stderr, "shardscope %s: --calib: note: its NCCL tables (%d GPUs) time the "
                            "collectives on %s\n",
                    cmd, out->calib.comm[ENGINE_OP_ALLREDUCE].gpus, out->calib_link.name);
    }
    return 0;
}

/* Data types, schedule, objective and the plain numbers. */
static void load_workload(const cli_opts *o, engine_scenario *s)
{
    const cli_values *v = &o->v;
    /* The weights are settled here, so fp16 means fp16 from now on
     * (weight_dtype_set): the user's --dtype, else the checkpoint's own
     * format (its quantization_config), else fp16. */
    s->weight_dtype_set = 1;
    if (CLI_SEEN(o, dtype)) {
        s->weight_dtype = (engine_dtype)v->dtype;
    } else if (s->model && s->model->has_weight_dtype) {
        s->weight_dtype = s->model->weight_dtype;
        s->quant_group = s->model->quant_group;
    }
    if (CLI_SEEN(o, quant_group))
        s->quant_group = v->quant_group;
    if (CLI_SEEN(o, fp8_scaling))
        s->fp8_scaling = (engine_fp8_scaling)v->fp8_scaling;
    if (CLI_SEEN(o, kv_dtype))
        s->kv_dtype = (engine_dtype)v->kv_dtype;
    if (CLI_SEEN(o, act_dtype))
        s->act_dtype = (engine_dtype)v->act_dtype;
    if (CLI_SEEN(o, schedule))
        s->schedule = (engine_schedule)v->schedule;
    if (CLI_SEEN(o, objective))
        s->objective = (engine_objective)v->objective;
    if (CLI_SEEN(o, cuda_graphs))
        s->cuda_graphs = (engine_graphs)v->cuda_graphs;
    if (CLI_SEEN(o, tbo))
        s->tbo = (engine_graphs)v->tbo;
    if (CLI_SEEN(o, fuse_ar_norm))
        s->fuse_ar_norm = (engine_graphs)v->fuse_ar_norm;
    if (CLI_SEEN(o, local_kv_full))
        s->local_kv_full = (engine_graphs)v->local_kv_full;
    if (CLI_SEEN(o, prefill_graphs))
        s->prefill_graphs = (engine_graphs)v->prefill_graphs;
    if (CLI_SEEN(o, flash_attn))
        s->attn_scores = v->flash_attn == ENGINE_GRAPHS_OFF;
    if (CLI_SEEN(o, a2a))
        s->a2a = (engine_a2a)v->a2a;
    if (CLI_SEEN(o, w4a16_kernel))
        s->w4a16_kernel = (engine_w4a16)v->w4a16_kernel;
    if (CLI_SEEN(o, sampling))
        s->sampling = (engine_sampling)v->sampling;
    if (CLI_SEEN(o, framework_version))
        s->framework_version = (engine_fw_version)v->framework_version;
    if (CLI_SEEN(o, interleave))
        s->interleave = v->interleave;
    if (CLI_SEEN(o, max_model_len))
        s->max_model_len = v->max_model_len;
    if (CLI_SEEN(o, mem_fraction))
        s->usable_fraction = v->mem_fraction;
    if (CLI_SEEN(o, vram_gb))
        s->vram_bytes = v->vram_gb * 1e9;
#define TAKE(field, flag) \
    if (CLI_SEEN(o, flag)) \
        s->field = v->flag
    TAKE(batch, batch);
    if (CLI_SEEN(o, batch) && v->batch == 0) { /* --batch max */
        s->batch = 1;
        s->batch_max = 1;
    }
    TAKE(total_concurrency, total_concurrency);
    TAKE(max_num_seqs, max_num_seqs);
    TAKE(prompt, prompt);
    TAKE(gen, gen);
    TAKE(microbatches, microbatches);
    TAKE(decode_microbatches, decode_microbatches);
    TAKE(jitter_sigma, jitter);
    TAKE(straggler_prob, straggler_prob);
    TAKE(straggler_slowdown, straggler_slowdown);
    TAKE(mc_samples, samples);
    TAKE(seed, seed);
    TAKE(redundant_experts, redundant_experts);
    TAKE(moe_imbalance, moe_imbalance);
#undef TAKE
}

/* --cuda-graph-sizes: none, trtllm-perf (val_trtllm_perf_graph_sizes) or
 * a comma-separated ascending list of batch sizes. */
static int load_graph_sizes(const cli_opts *o, engine_scenario *s, engine_error *err)
{
    const char *v = o->v.cuda_graph_sizes;
    s->n_graph_sizes = 0;
    if (!v || !strcasecmp(v, "none"))
        return 0;
    if (!strcasecmp(v, "trtllm-perf")) {
        s->n_graph_sizes = val_trtllm_perf_graph_sizes(s->graph_sizes);
        return 0;
    }
    const char *p = v;
    while (*p) {
        char *end;
        long g = strtol(p, &end, 10);
        if (end == p || (*end && *end != ',') || g < 1 || g > ENGINE_MAX_BATCH)
            return engine_errorf(err, "--cuda-graph-sizes: '%.40s' is not a list of batch sizes "
                                      "1..%d (e.g. 1,2,4,8,256,512), trtllm-perf or none", v,
                                 ENGINE_MAX_BATCH);
        if (s->n_graph_sizes >= ENGINE_GRAPH_SIZES_MAX)
            return engine_errorf(err, "--cuda-graph-sizes: at most %d sizes",
                                 ENGINE_GRAPH_SIZES_MAX);
        if (s->n_graph_sizes > 0 && g <= s->graph_sizes[s->n_graph_sizes - 1])
            return engine_errorf(err, "--cuda-graph-sizes: sizes must ascend (%ld after %d)", g,
                                 s->graph_sizes[s->n_graph_sizes - 1]);
        s->graph_sizes[s->n_graph_sizes++] = (int)g;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return engine_errorf(err, "--cuda-graph-sizes: '%.40s' ends with a comma", v);
    }
    return 0;
}

/* --spec-method and its parameters: the method's defaults for k and P
 * unless given; --spec-draft for draft only; mtp only on a model with MTP
 * layers. */
static int load_spec(const cli_opts *o, const preset_db *db, cli_scenario *out,
                     engine_error *err)
{
    engine_scenario *s = &out->scenario;
    engine_spec_method m = (engine_spec_method)o->v.spec_method;
    if (m == ENGINE_SPEC_NONE) {
        const char *flag = CLI_SEEN(o, spec_k) ? "--spec-k" : CLI_SEEN(o, spec_accept)
                                                                  ? "--spec-accept"
                                                              : o->v.spec_draft ? "--spec-draft"
                                                                                : NULL;
        if (flag)
            return engine_errorf(err, "%s: needs --spec-method draft|eagle|mtp", flag);
        return 0;
    }
    s->spec_method = m;
    engine_spec_default(m, &s->spec_k, &s->spec_accept);
    if (CLI_SEEN(o, spec_k))
        s->spec_k = o->v.spec_k;
    if (CLI_SEEN(o, spec_accept))
        s->spec_accept = o->v.spec_accept;
    if (m != ENGINE_SPEC_DRAFT && o->v.spec_draft)
        return engine_errorf(err, "--spec-draft: only with --spec-method draft (%s drafts with "
                                  "%s)", engine_spec_method_name(m),
                             m == ENGINE_SPEC_MTP ? "the model's own MTP module" : "an EAGLE head");
    if (m == ENGINE_SPEC_DRAFT) {
        if (!o->v.spec_draft)
            return engine_errorf(err, "--spec-draft: required with --spec-method draft (a preset "
                                      "name or a config.json path)");
        s->spec_draft = cli_find_model(db, "--spec-draft", o->v.spec_draft, &out->draft_model,
                                       NULL, err);
        if (!s->spec_draft)
            return -1;
    }
    if (m == ENGINE_SPEC_MTP && s->model && s->model->mtp_layers < 1)
        return engine_errorf(err, "--spec-method mtp: %s has no MTP layers "
                                  "(num_nextn_predict_layers 0); MTP is DeepSeek-V3/R1's, use "
                                  "eagle or draft",
                             s->model->name);
    return 0;
}

/* The GPU count and the explicit plan (--tp --pp --dp --ep).  Degree
 * products are 64-bit: each degree is at most ENGINE_MAX_GPUS (2^20), so
 * tp*pp*dp fits, and it is checked against the limit before any int holds
 * it or divides by it. */
static int load_plan(const cli_opts *o, unsigned need, cli_scenario *out, engine_error *err)
{
    int gpus = o->v.gpus, seen_gpus = CLI_SEEN(o, gpus);
    out->has_plan = CLI_SEEN(o, tp) || CLI_SEEN(o, pp) || CLI_SEEN(o, dp) || CLI_SEEN(o, ep);
    if (out->has_plan) {
        int tp = CLI_SEEN(o, tp) ? o->v.tp : 1, pp = CLI_SEEN(o, pp) ? o->v.pp : 1;
        int ep = CLI_SEEN(o, ep) ? o->v.ep : 1, dp = CLI_SEEN(o, dp) ? o->v.dp : 1;
        long long tpp = (long long)tp * pp, prod = tpp * dp;
        if (prod > ENGINE_MAX_GPUS)
            return engine_errorf(err, "--tp/--pp/--dp: tp*pp*dp = %lld is above %d GPUs", prod,
                                 ENGINE_MAX_GPUS);
        if (!CLI_SEEN(o, dp) && seen_gpus) {
            if (gpus % tpp != 0)
                return engine_errorf(err,
                                     "--gpus: %d is not a multiple of tp*pp = %d*%d; give --dp or "
                                     "change --tp/--pp",
                                     gpus, tp, pp);
            dp = (int)(gpus / tpp);
            prod = tpp * dp;
        }
        if (seen_gpus && prod != gpus)
            return engine_errorf(err, "--gpus: tp*pp*dp = %d*%d*%d = %lld, but --gpus is %d",
                                 tp, pp, dp, prod, gpus);
        gpus = (int)prod;
        seen_gpus = 1;
        out->plan = (engine_plan){tp, pp, dp, ep};
    }
    if (!seen_gpus && (need & CLI_NEED_GPUS))
        return engine_errorf(err, "--gpus: required (an integer 1..%d)", ENGINE_MAX_GPUS);
    out->scenario.gpus = seen_gpus ? gpus : 1;
    return 0;
}

/* The context limit, engine_scenario_check and the error bands. */
static int load_check(const cli_opts *o, unsigned need, cli_scenario *out, engine_error *err)
{
    engine_scenario *s = &out->scenario;
    if (s->model) {
        int limit = engine_context_limit(s);
        long long tokens = (long long)s->prompt + s->gen;
        if (limit > 0 && tokens > limit)
            return engine_errorf(err,
                                 "--prompt/--gen: prompt + gen = %lld tokens exceeds the context of "
                                 "%d tokens (%s; --max-model-len N overrides)",
                                 tokens, limit,
                                 CLI_SEEN(o, max_model_len) ? "--max-model-len" : s->model->name);
    }
    if (s->objective == ENGINE_OBJ_COST && s->gpu && !(s->gpu->price_per_hour > 0))
        return engine_errorf(err,
                             "--objective cost: %s has no price (price_usd_per_hour 0); use "
                             "--objective throughput, or give it a price in a user preset",
                             s->gpu->name);
    if (s->model && s->gpu && s->intra) {
        engine_error e = {{0}};
        if (engine_scenario_check(s, &e) != 0)
            return engine_errorf(err, "%s", e.msg[0] ? e.msg : "the scenario is not usable");
        /* Error bands from the validation cases, on the shipped presets
         * (a user preset cannot move them). */
        if (val_bands_shipped(&out->bands) == 0)
            s->bands = &out->bands;
    } else if (!s->intra && (need & CLI_NEED_GPU)) {
        return engine_errorf(err, "--link: no interconnect presets are loaded");
    }
    return 0;
}

int cli_scenario_load(const cli_opts *o, const preset_db *db, unsigned need, const char *cmd,
                      cli_scenario *out, engine_error *err)
{
    memset(out, 0, sizeof *out);
    if (!(need & CLI_ALLOW_LOAD) && CLI_SEEN(o, batch) && o->v.batch == 0)
        return engine_errorf(err, "--batch max: only eval takes it (%s: give a number)", cmd);
    if (CLI_SEEN(o, total_concurrency) && CLI_SEEN(o, batch))
        return engine_errorf(err, "--total-concurrency: cannot be combined with --batch (--batch "
                                  "is per replica, --total-concurrency over all of them)");
    engine_scenario_defaults(&out->scenario);
    if (load_presets(o, db, need, out, err) != 0 || load_calib(o, cmd, out, err) != 0)
        return -1;
    load_workload(o, &out->scenario);
    if (load_graph_sizes(o, &out->scenario, err) != 0)
        return -1;
    if (load_spec(o, db, out, err) != 0 || load_plan(o, need, out, err) != 0)
        return -1;
    return load_check(o, need, out, err);
}
