/*
 * support_models.h - published model configurations, an H100 and simple
 * links as engine structs, for tests that must not depend on presets.
 */
#ifndef SHARDSCOPE_TEST_SUPPORT_MODELS_H
#define SHARDSCOPE_TEST_SUPPORT_MODELS_H

#include "engine.h"

engine_model tm_llama3_8b(void);
engine_model tm_llama3_70b(void);
engine_model tm_llama2_70b(void);
engine_model tm_llama31_405b(void);
engine_model tm_llama_7b(void);
engine_model tm_llama_13b(void);
engine_model tm_gpt2(void);
engine_model tm_gpt3(void);
engine_model tm_falcon_180b(void);
engine_model tm_mixtral_8x7b(void);
engine_model tm_deepseek_v3(void);
/* m shrunk for a calibration that runs in a test on the CPU, named name:
 * hidden 256, 4 heads of 64, 2 KV heads, FFN 512 (an MoE's experts too);
 * its layers and the rest kept. */
engine_model tm_tiny(engine_model m, const char *name);
engine_gpu tg_h100(void);
engine_gpu tg_with_memory(double gb);
engine_link tl_link(double alpha_s, double gbs);
/* Defaults plus the given model, GPU, intra-node link and GPU count. */
void ts_scenario(engine_scenario *s, const engine_model *m, const engine_gpu *g,
                 const engine_link *l, int gpus);

/* What a scenario of the engine tests points to: a model, an H100, a link. */
typedef struct ts_fixture {
    engine_model m;
    engine_gpu g;
    engine_link l;
} ts_fixture;

/* The engine tests' usual setup: f holds model m, tg_h100() and a
 * 0-latency 300 GB/s link (tl_link(0, 300)); returns ts_scenario's
 * defaults for gpus of them.  The scenario points into *f (changing f->m,
 * f->g or f->l changes it), so f must outlive it. */
engine_scenario ts_on_h100(ts_fixture *f, engine_model m, int gpus);

/* ts_on_h100 over link l instead (f->l = l). */
engine_scenario ts_on_h100_over(ts_fixture *f, engine_model m, engine_link l, int gpus);

#endif
