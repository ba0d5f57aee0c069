/*
 * support_models.c - hand-built engine structs for the tests, with the
 * published configurations copied from shared/reference/hardware-and-
 * models.md, so engine tests do not depend on the preset loader.
 */
#include <stdio.h>
#include <string.h>

#include "support_models.h"

static engine_model dense(const char *name, int L, int d, int h, int g, int dh, int f, int V,
                          int ctx, int gated)
{
    engine_model m;
    memset(&m, 0, sizeof m);
    strncpy(m.name, name, sizeof m.name - 1);
    m.layers = L;
    m.hidden = d;
    m.heads = h;
    m.kv_heads = g;
    m.head_dim = dh;
    m.ffn = f;
    m.vocab = V;
    m.context = ctx;
    m.gated_mlp = gated;
    return m;
}

engine_model tm_llama3_8b(void)
{
    return dense("llama-3-8b", 32, 4096, 32, 8, 128, 14336, 128256, 8192, 1);
}

engine_model tm_llama3_70b(void)
{
    return dense("llama-3-70b", 80, 8192, 64, 8, 128, 28672, 128256, 8192, 1);
}

engine_model tm_llama2_70b(void)
{
    return dense("llama-2-70b", 80, 8192, 64, 8, 128, 28672, 32000, 4096, 1);
}

engine_model tm_llama31_405b(void)
{
    return dense("llama-3.1-405b", 126, 16384, 128, 8, 128, 53248, 128256, 131072, 1);
}

engine_model tm_llama_7b(void)
{
    return dense("llama-7b", 32, 4096, 32, 32, 128, 11008, 32000, 2048, 1);
}

engine_model tm_llama_13b(void)
{
    return dense("llama-13b", 40, 5120, 40, 40, 128, 13824, 32000, 2048, 1);
}

engine_model tm_gpt2(void)
{
    engine_model m = dense("gpt2-124m", 12, 768, 12, 12, 64, 3072, 50257, 1024, 0);
    m.tied_embeddings = 1;
    m.learned_pos = 1;
    return m;
}

engine_model tm_gpt3(void)
{
    engine_model m = dense("gpt3-175b", 96, 12288, 96, 96, 128, 49152, 50257, 2048, 0);
    m.tied_embeddings = 1;
    m.learned_pos = 1;
    return m;
}

engine_model tm_falcon_180b(void)
{
    engine_model m = dense("falcon-180b", 80, 14848, 232, 8, 64, 59392, 65024, 2048, 0);
    m.tied_embeddings = 1;
    return m;
}

engine_model tm_mixtral_8x7b(void)
{
    engine_model m = dense("mixtral-8x7b", 32, 4096, 32, 8, 128, 14336, 32000, 32768, 1);
    m.experts = 8;
    m.top_k = 2;
    return m;
}

engine_model tm_deepseek_v3(void)
{
    engine_model m = dense("deepseek-v3", 61, 7168, 128, 128, 128, 18432, 129280, 163840, 1);
    m.experts = 256;
    m.top_k = 8;
    m.shared_experts = 1;
    m.moe_ffn = 2048;
    m.dense_layers = 3;
    m.n_group = 8; /* HF config.json n_group / topk_group */
    m.topk_group = 4;
    m.mla = 1;
    m.q_lora_rank = 1536;
    m.kv_lora_rank = 512;
    m.qk_nope_dim = 128;
    m.qk_rope_dim = 64;
    m.v_head_dim = 128;
    return m;
}

engine_model tm_tiny(engine_model m, const char *name)
{
    snprintf(m.name, sizeof m.name, "%s", name);
    m.hidden = 256;
    m.heads = 4;
    m.kv_heads = 2;
    m.head_dim = 64;
    m.ffn = 512;
    if (m.experts > 0)
        m.moe_ffn = 512;
    return m;
}

/* H100 SXM: 80 GB, 3350 GB/s, 989 / 1979 TFLOPS dense, 132 SMs, and the
 * per-kernel constants of presets/gpus.json (fits to aiconfigurator's H100
 * kernels: GEMM 85 % of peak bf16, 70 % fp8, 80 % of HBM, 3 us / 5.5 us
 * fixed; attention, decode attention and small-kernel constants). */
engine_gpu tg_h100(void)
{
    engine_gpu g;
    memset(&g, 0, sizeof g);
    strcpy(g.name, "h100-sxm");
    g.memory_bytes = 80e9;
    g.hbm_bytes_per_s = 3350e9;
    g.peak_flops[ENGINE_FP16] = g.peak_flops[ENGINE_BF16] = 989e12;
    g.peak_flops[ENGINE_FP8] = g.peak_flops[ENGINE_INT8] = 1979e12;
    g.eta_compute = 0.85;
    g.eta_compute_fp8 = 0.70;
    g.eta_memory = 0.80;
    g.sm_count = 132;
    g.gemm_t0_s = 3e-6;
    g.gemm_t0_fp8_s = 5.5e-6;
    g.eta_kv = 0.8;
    g.eta_attn = 0.6;
    g.eta_attn_io = 0.35;
    g.attn_t0_s = 18e-6;
    g.decode_attn_t0_s = 10e-6;
    g.decode_attn_seq_s = 0.25e-6;
    g.kernel_floor_s = 4e-6;
    g.price_per_hour = 3.99;
    return g;
}

engine_gpu tg_with_memory(double gb)
{
    engine_gpu g = tg_h100();
    g.memory_bytes = gb * 1e9;
    return g;
}

engine_link tl_link(double alpha_s, double gbs)
{
    engine_link l;
    memset(&l, 0, sizeof l);
    strcpy(l.name, "test-link");
    l.alpha_s = alpha_s;
    l.bytes_per_s = gbs * 1e9;
    return l;
}

void ts_scenario(engine_scenario *s, const engine_model *m, const engine_gpu *g,
                 const engine_link *l, int gpus)
{
    engine_scenario_defaults(s);
    s->model = m;
    s->gpu = g;
    s->intra = l;
    s->gpus = gpus;
}

engine_scenario ts_on_h100_over(ts_fixture *f, engine_model m, engine_link l, int gpus)
{
    f->m = m;
    f->g = tg_h100();
    f->l = l;
    engine_scenario s;
    ts_scenario(&s, &f->m, &f->g, &f->l, gpus);
    return s;
}

engine_scenario ts_on_h100(ts_fixture *f, engine_model m, int gpus)
{
    return ts_on_h100_over(f, m, tl_link(0, 300), gpus);
}
