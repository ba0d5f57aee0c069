/*
 * validation_disagg.c - published disaggregated prefill/decode pools
 * (validation.h, "disaggregated pools") and their prediction through
 * engine_disagg_evaluate.  Only models and GPUs with presets; sources are
 * quoted in /work/valdata/serving.md's table (rows SG3-1, SG3-2, SG3-3,
 * SG5-1).
 */
#include <stdio.h>
#include <string.h>

#include "disagg.h"
#include "preset.h"
#include "validation.h"

#define SG3 "lm-sys/lm-sys.github.io@2db4e40:blog/2025-05-05-large-scale-ep.md"
#define SG5 "lm-sys/lm-sys.github.io:blog/2025-09-25-gb200-part-2.md, intro"

const val_disagg_case val_disagg_cases[] = {
    {"sg3-dsv3-h100-prefill-ep32-2k", SG3 ", Performance Analysis of Prefill and Decode Phases",
     "SGLang May 2025, PD disaggregation, DP attention + EP32, DeepEP, TBO; '54,543 tokens per "
     "second' per node at 2K prompts",
     "deepseek-v3", "h100-sxm", "sglang", VAL_POOL_PREFILL, 32, 1, 32, 0, 4, 2048, 1, ENGINE_FP8,
     ENGINE_FP16, 1, ENGINE_A2A_DEEPEP, 54543.0 / 8, 0.15,
     "DeepEP's normal kernels send a token once per node (22/7 of 4 nodes under DeepSeek-V3's "
     "4-of-8-group routing) with the node's imbalance on RDMA (1.35, the GPU's 2.56 on the "
     "NVLink fan-out): the all-to-all of a 8192-token step is 1.0 s, under two-batch overlap "
     "behind 1.2 s of compute, which sets the rate (ratio 0.25 when every top-8 copy crossed "
     "IB with the GPU's imbalance)"},
    {"sg3-dsv3-h100-prefill-ep32-4k", SG3 ", Overall Throughput, prefill table",
     "SGLang May 2025, EP32 + DP attention, 16,384 tokens per device, SGLang (Default) column "
     "'50,302' per node at 4,096 prompts",
     "deepseek-v3", "h100-sxm", "sglang", VAL_POOL_PREFILL, 32, 1, 32, 0, 4, 4096, 1, ENGINE_FP8,
     ENGINE_FP16, 1, ENGINE_A2A_DEEPEP, 50302.0 / 8, 0.15,
     "as sg3-dsv3-h100-prefill-ep32-2k (ratio 0.27 when the dispatch was counted per expert "
     "copy)"},
    {"sg3-dsv3-h100-decode-ep72-b256", SG3 ", Overall Throughput, decode table",
     "SGLang May 2025, DP attention + EP72 (256 experts + 32 EPLB slots), DeepEP low-latency, "
     "TBO, batch 256 a device, KV length 2,000: '22,282 tokens per second per node'",
     "deepseek-v3", "h100-sxm", "sglang", VAL_POOL_DECODE, 72, 1, 72, 32, 256, 1900, 200,
     ENGINE_FP8, ENGINE_FP16, 1, ENGINE_A2A_DEEPEP_LL, 22282.0 / 8, 0.15, NULL},
    {"sg5-dsr1-gb200-decode-ep48-b1408", SG5,
     "SGLang Sep 2025, decode EP48 + DP attention, NVFP4 MoE, FP8 KV, batch 1408 (KV roughly "
     "full), 2000-token inputs: 13,386 output tokens/s per GPU",
     "deepseek-r1", "gb200", "sglang", VAL_POOL_DECODE, 48, 1, 48, 32, 1408, 1900, 200,
     ENGINE_FP4, ENGINE_FP8, 1, ENGINE_A2A_DEEPEP_LL, 13386.0, 0.15,
     "NVFP4 for the experts only and FP8 attention in the run; the row runs its dense layers and "
     "shared experts in fp4 and its attention BF16 (models.json deepseek-r1 attn_16bit_fp4, "
     "NVIDIA's NVFP4 checkpoint; the engine has no FP8-attention-in-FP4 checkpoint)"},
};
const int val_disagg_case_count = (int)(sizeof val_disagg_cases / sizeof val_disagg_cases[0]);

void val_disagg_run_case(const preset_db *db, int i, val_disagg_result *out)
{
    const val_disagg_case *d = &val_disagg_cases[i];
    memset(out, 0, sizeof *out);
    out->c = d;
    val_case c;
    memset(&c, 0, sizeof c);
    c.id = d->id;
    c.model = d->model;
    c.gpu = d->gpu;
    c.framework = d->framework;
    c.gpus = d->gpus;
    c.tp = d->tp;
    c.pp = 1;
    c.ep = d->ep;
    c.batch = d->batch;
    c.prompt = d->prompt;
    c.gen = d->gen;
    c.weights = d->weights;
    c.kv = d->kv;
    engine_scenario s;
    engine_plan p;
    engine_error err = {{0}};
    if (val_scenario(db, &c, &s, &p, &err) != 0) {
        snprintf(out->error, sizeof out->error, "%s", err.msg);
        return;
    }
    s.tbo = d->tbo ? ENGINE_GRAPHS_ON : ENGINE_GRAPHS_OFF;
    s.a2a = d->a2a;
    s.redundant_experts = d->redundant_experts;
    /* Every pool here ran SGLang before 0.5.3 (May and September 2025), whose
     * default memory fraction is not the memory_reserve rule of sglang#10975
     * (under attention data-parallel at EP 32-72 that rule reserves more than
     * the GPU): the fraction these rows were first evaluated at, the SGLang
     * profile's earlier constant, keeps them where they were. */
    s.usable_fraction = 0.874;
    engine_framework fw = *s.framework; /* a prefill step batches the row's prompts */
    if (d->pool == VAL_POOL_PREFILL) {
        fw.max_num_tokens = d->batch * d->prompt;
        s.framework = &fw;
    }
    engine_disagg_result r;
    engine_disagg_plan dp = {p, p};
    if (engine_disagg_evaluate(&s, dp, &r, &err) != 0 || !r.valid || !r.fits) {
        snprintf(out->error, sizeof out->error, "disagg case %.40s: %.300s", d->id,
                 err.msg[0] ? err.msg : r.reason);
        return;
    }
    out->ok = 1;
    out->predicted = d->pool == VAL_POOL_PREFILL ? r.prefill_rate * d->prompt / d->gpus
                                                 : r.decode_rate * (d->gen - 1) / d->gpus;
    out->ratio = out->predicted / d->measured;
}
