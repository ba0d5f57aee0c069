/*
 * internal.h - helpers shared by the engine's own files; not part of the
 * public contract (engine.h).
 */
#ifndef SHARDSCOPE_ENGINE_INTERNAL_H
#define SHARDSCOPE_ENGINE_INTERNAL_H

#include "engine.h"

/* Parameter counts of a model split by how each part is sharded. */
typedef struct model_shape {
    double attn;        /* attention parameters of one layer */
    double norms;       /* norm weights of one layer */
    double attn_all;    /* (attn + norms) * layers */
    double dense_mlp;   /* all dense MLPs */
    double experts;     /* all routed experts of all MoE layers */
    double expert_one;  /* one expert's MLP */
    double shared;      /* all shared experts */
    double router;      /* all routers */
    double embed_in;    /* token (+ learned position) embeddings */
    double head;        /* untied output head (0 if tied) */
    double final_norm;
    double attn_qk_dim; /* per-head query/key width used by attention FLOPs */
    double attn_v_dim;  /* per-head value width */
    int moe_layers;
} model_shape;

void model_shape_compute(const engine_model *m, model_shape *sh);
/* KV bytes of one token in one layer held by one GPU of a tp group. */
double model_kv_bytes_per_token_layer(const engine_model *m, engine_dtype kv, int tp);

/* Memory of a plan without timing it; returns 0 (reason filled) when the
 * plan is invalid. */
int engine_plan_memory(const engine_scenario *s, engine_plan plan, engine_memory *mem,
                       char *reason, size_t len);

/* Deterministic generator (splitmix64) and the standard normal quantile. */
typedef struct engine_rng {
    uint64_t state;
} engine_rng;

double rng_uniform(engine_rng *r); /* in (0, 1) */
double normal_quantile(double p);  /* p in (0, 1) */

#endif /* SHARDSCOPE_ENGINE_INTERNAL_H */
