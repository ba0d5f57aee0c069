/*
 * hf_config.c - read a Hugging Face config.json into an engine_model, so
 * any model can be explored without writing a preset.  Each supported
 * model_type maps its own key names (and their historical variants, e.g.
 * Falcon's n_layer / num_hidden_layers) onto the engine's fields; JSON null
 * counts as absent, as in transformers.  Errors name the file and the
 * config key: "path: num_hidden_layers: missing required field".
 */
#include "preset.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "preset_util.h"

#define HF_SUPPORTED \
    "llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, phi3, gemma2, gemma3, " \
    "gemma3_text, llama4, llama4_text, gpt_oss, falcon, gpt2, gpt_neox, deepseek_v2, " \
    "deepseek_v3"

typedef struct hf_ctx {
    const cJSON *root;
    const char *path;
    engine_error *err;
} hf_ctx;

/* The first of keys (NULL-terminated) present with a non-null value. */
static const cJSON *hf_find(const hf_ctx *h, const char *const *keys,
                            const char **which)
{
    for (int i = 0; keys[i]; i++) {
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(h->root, keys[i]);
        if (it && !cJSON_IsNull(it)) {
            *which = keys[i];
            return it;
        }
    }
    *which = keys[0];
    return NULL;
}

/* An integer under one of keys; when absent: dflt if has_dflt, else an
 * error.  lo is 0 or 1. */
static int hf_int_keys(const hf_ctx *h, const char *const *keys, int has_dflt,
                       int dflt, double lo, double hi, int *out)
{
    const char *which;
    const cJSON *it = hf_find(h, keys, &which);
    if (!it) {
        if (has_dflt) {
            *out = dflt;
            return 0;
        }
        engine_errorf(h->err, "%s: %s: missing required field", h->path, which);
        return -1;
    }
    char why[160];
    if (preset_util_check_int(it, lo, hi, out, why, sizeof why) != 0) {
        engine_errorf(h->err, "%s: %s: %s", h->path, which, why);
        return -1;
    }
    return 0;
}

#define KEYS(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define REQ(key, hi, out) hf_int_keys(h, KEYS(key), 0, 0, 1, hi, out)

static int hf_bool(const hf_ctx *h, const char *key, int dflt, int *out)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(h->root, key);
    if (!it || cJSON_IsNull(it)) {
        *out = dflt;
        return 0;
    }
    if (!cJSON_IsBool(it)) {
        engine_errorf(h->err, "%s: %s: expected true or false, got %s", h->path,
                      key, preset_util_type_name(it));
        return -1;
    }
    *out = cJSON_IsTrue(it) ? 1 : 0;
    return 0;
}

/* head_dim when the config gives none: hidden / heads, exactly. */
static int hf_head_dim(const hf_ctx *h, engine_model *m)
{
    int hd = 0;
    if (hf_int_keys(h, KEYS("head_dim"), 1, 0, 0, 100000, &hd))
        return -1;
    if (hd == 0) {
        if (m->hidden % m->heads != 0) {
            engine_errorf(h->err,
                          "%s: head_dim: missing, and hidden_size (%d) is not divisible by num_attention_heads (%d)",
                          h->path, m->hidden, m->heads);
            return -1;
        }
        hd = m->hidden / m->heads;
    }
    m->head_dim = hd;
    return 0;
}

/* local[i] for each of L layers as the engine's window pattern: every
 * layer local (global_every 0), or every Nth one global.  -1 with err set
 * for another pattern; key names the config field for the message. */
static int hf_pattern(const hf_ctx *h, const char *key, const int *local, int L, int size,
                      engine_model *m)
{
    int first_global = -1, n_local = 0;
    for (int i = 0; i < L; i++) {
        n_local += local[i];
        if (!local[i] && first_global < 0)
            first_global = i;
    }
    if (n_local == 0 || size <= 0)
        return 0; /* all global: no window */
    int every = first_global < 0 ? 0 : first_global + 1;
    for (int i = 0; i < L; i++)
        if (local[i] != (every == 0 || (i + 1) % every != 0)) {
            engine_errorf(h->err,
                          "%s: %s: only every layer local or every Nth layer global is supported",
                          h->path, key);
            return -1;
        }
    m->window = size;
    m->global_every = every;
    return 0;
}

/* layer_types ("sliding_attention" / "full_attention" / "chunked_attention"
 * per layer) when present: 1 and the pattern set, 0 when absent, -1 on error. */
static int hf_layer_types(const hf_ctx *h, int size, engine_model *m)
{
    const cJSON *lt = cJSON_GetObjectItemCaseSensitive(h->root, "layer_types");
    if (!lt || cJSON_IsNull(lt))
        return 0;
    if (!cJSON_IsArray(lt) || cJSON_GetArraySize(lt) != m->layers) {
        engine_errorf(h->err, "%s: layer_types: expected an array of num_hidden_layers (%d) names",
                      h->path, m->layers);
        return -1;
    }
    int *local = calloc((size_t)m->layers, sizeof *local);
    if (!local) {
        engine_errorf(h->err, "%s: out of memory", h->path);
        return -1;
    }
    int i = 0, rc = 0;
    for (const cJSON *x = lt->child; x; x = x->next, i++) {
        const char *t = cJSON_IsString(x) ? x->valuestring : "";
        if (!strcmp(t, "sliding_attention") || !strcmp(t, "chunked_attention"))
            local[i] = 1;
        else if (strcmp(t, "full_attention")) {
            engine_errorf(h->err, "%s: layer_types[%d]: unknown layer type '%.40s'", h->path,
                          i, t);
            rc = -1;
            break;
        }
    }
    if (rc == 0)
        rc = hf_pattern(h, "layer_types", local, m->layers, size, m);
    free(local);
    return rc < 0 ? -1 : 1;
}

/* A sliding window of sliding_window tokens on every layer (Mistral v0.1,
 * Phi-3; Qwen only with use_sliding_window), unless layer_types says which. */
static int hf_sliding_all(const hf_ctx *h, int enabled, engine_model *m)
{
    int size = 0;
    if (!enabled)
        return 0;
    if (hf_int_keys(h, KEYS("sliding_window"), 1, 0, 0, 1000000000, &size))
        return -1;
    int rc = hf_layer_types(h, size, m);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    if (size > 0 && size < m->context) {
        m->window = size;
        m->global_every = 0;
    }
    return 0;
}

/* The attention shape most families spell alike: layers, hidden size,
 * heads, KV heads (default: the heads) and the head size. */
static int hf_attention_keys(const hf_ctx *h, engine_model *m)
{
    if (REQ("num_hidden_layers", 100000, &m->layers) ||
        REQ("hidden_size", 1000000, &m->hidden) ||
        REQ("num_attention_heads", 100000, &m->heads) ||
        hf_int_keys(h, KEYS("num_key_value_heads"), 1, m->heads, 1, 100000, &m->kv_heads) ||
        hf_head_dim(h, m))
        return -1;
    return 0;
}
/* llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, phi3: the
 * same core keys (Phi-3 fuses qkv and gate_up, the same counts). */
static int hf_llama_like(const hf_ctx *h, const char *type, engine_model *m)
{
    if (hf_attention_keys(h, m) ||
        REQ("intermediate_size", 10000000, &m->ffn) ||
        REQ("vocab_size", 10000000, &m->vocab) ||
        REQ("max_position_embeddings", 1000000000, &m->context) ||
        hf_bool(h, "tie_word_embeddings", 0, &m->tied_embeddings))
        return -1;
    m->gated_mlp = 1;
    int is_qwen = !strncmp(type, "qwen2", 5);
    if (is_qwen)
        m->qkv_bias = 1; /* Qwen2 always has Q/K/V biases */
    else if (hf_bool(h, "attention_bias", 0, &m->qkv_bias))
        return -1;
    m->qk_norm = !strncmp(type, "qwen3", 5); /* Qwen3's per-head q/k RMSNorm */
    int sliding = !strcmp(type, "mistral") || !strcmp(type, "mixtral") || !strcmp(type, "phi3");
    if (!strncmp(type, "qwen", 4) && hf_bool(h, "use_sliding_window", 0, &sliding))
        return -1;
    if (hf_sliding_all(h, sliding, m))
        return -1;
    if (!strcmp(type, "mixtral")) {
        if (REQ("num_local_experts", 100000, &m->experts) ||
            REQ("num_experts_per_tok", 100000, &m->top_k))
            return -1;
    }
    if (!strcmp(type, "qwen2_moe") || !strcmp(type, "qwen3_moe")) {
        int step = 1, shared = 0;
        if (REQ("num_experts", 100000, &m->experts) ||
            REQ("num_experts_per_tok", 100000, &m->top_k) ||
            REQ("moe_intermediate_size", 10000000, &m->moe_ffn) ||
            hf_int_keys(h, KEYS("shared_expert_intermediate_size"), 1, 0, 0, 10000000, &shared) ||
            hf_int_keys(h, KEYS("decoder_sparse_step"), 1, 1, 1, 100000, &step))
            return -1;
        if (step != 1) {
            engine_errorf(h->err, "%s: decoder_sparse_step: only 1 is supported, got %d",
                          h->path, step);
            return -1;
        }
        /* The shared expert is one wide MLP; model it as n experts of
         * moe_intermediate_size (exact in parameters and FLOPs). */
        if (shared % m->moe_ffn != 0) {
            engine_errorf(h->err,
                          "%s: shared_expert_intermediate_size: %d is not a multiple of moe_intermediate_size (%d)",
                          h->path, shared, m->moe_ffn);
            return -1;
        }
        m->shared_experts = shared / m->moe_ffn;
        const cJSON *mlp_only = cJSON_GetObjectItemCaseSensitive(h->root, "mlp_only_layers");
        if (mlp_only && !cJSON_IsNull(mlp_only)) {
            if (!cJSON_IsArray(mlp_only)) {
                engine_errorf(h->err, "%s: mlp_only_layers: expected an array, got %s",
                              h->path, preset_util_type_name(mlp_only));
                return -1;
            }
            int i = 0;
            for (const cJSON *x = mlp_only->child; x; x = x->next, i++)
                if (!cJSON_IsNumber(x) || x->valuedouble != i) {
                    engine_errorf(h->err,
                                  "%s: mlp_only_layers: only leading dense layers (0, 1, ...) are supported",
                                  h->path);
                    return -1;
                }
            m->dense_layers = i;
        }
    }
    return 0;
}

static int hf_gpt2(const hf_ctx *h, engine_model *m)
{
    if (REQ("n_layer", 100000, &m->layers) || REQ("n_embd", 1000000, &m->hidden) ||
        REQ("n_head", 100000, &m->heads) || REQ("vocab_size", 10000000, &m->vocab) ||
        hf_int_keys(h, KEYS("n_inner"), 1, 4 * m->hidden, 1, 10000000, &m->ffn) ||
        hf_int_keys(h, KEYS("n_positions", "n_ctx"), 1, 1024, 1, 1000000000, &m->context) ||
        hf_bool(h, "tie_word_embeddings", 1, &m->tied_embeddings))
        return -1;
    m->kv_heads = m->heads;
    if (m->hidden % m->heads != 0) {
        engine_errorf(h->err, "%s: n_embd: %d is not divisible by n_head (%d)",
                      h->path, m->hidden, m->heads);
        return -1;
    }
    m->head_dim = m->hidden / m->heads;
    m->learned_pos = 1;
    m->qkv_bias = 1;
    m->gated_mlp = 0;
    return 0;
}

static int hf_gpt_neox(const hf_ctx *h, engine_model *m)
{
    if (REQ("num_hidden_layers", 100000, &m->layers) ||
        REQ("hidden_size", 1000000, &m->hidden) ||
        REQ("num_attention_heads", 100000, &m->heads) ||
        REQ("intermediate_size", 10000000, &m->ffn) ||
        REQ("vocab_size", 10000000, &m->vocab) ||
        hf_int_keys(h, KEYS("max_position_embeddings"), 1, 2048, 1, 1000000000, &m->context) ||
        hf_bool(h, "tie_word_embeddings", 0, &m->tied_embeddings) ||
        hf_bool(h, "attention_bias", 1, &m->qkv_bias))
        return -1;
    m->kv_heads = m->heads;
    if (m->hidden % m->heads != 0) {
        engine_errorf(h->err, "%s: hidden_size: %d is not divisible by num_attention_heads (%d)",
                      h->path, m->hidden, m->heads);
        return -1;
    }
    m->head_dim = m->hidden / m->heads;
    m->gated_mlp = 0;
    return 0;
}

/* Falcon: "falcon" (transformers) and the original "RefinedWeb" (40B/180B
 * layout) / "RefinedWebModel" (7B layout) configs with their n_* keys. */
static int hf_falcon(const hf_ctx *h, const char *type, engine_model *m)
{
    int new_arch = 0, multi_query = 1, bias = 0;
    if (hf_int_keys(h, KEYS("num_hidden_layers", "n_layer"), 0, 0, 1, 100000, &m->layers) ||
        REQ("hidden_size", 1000000, &m->hidden) ||
        hf_int_keys(h, KEYS("num_attention_heads", "n_head"), 0, 0, 1, 100000, &m->heads) ||
        REQ("vocab_size", 10000000, &m->vocab) ||
        hf_bool(h, "new_decoder_architecture", !strcmp(type, "RefinedWeb"), &new_arch) ||
        hf_bool(h, "multi_query", 1, &multi_query) ||
        hf_bool(h, "bias", 0, &bias) ||
        hf_bool(h, "tie_word_embeddings", 1, &m->tied_embeddings) ||
        hf_int_keys(h, KEYS("ffn_hidden_size"), 1, 4 * m->hidden, 1, 10000000, &m->ffn) ||
        hf_int_keys(h, KEYS("max_position_embeddings"), 1, 2048, 1, 1000000000, &m->context))
        return -1;
    /* As transformers' FalconAttention: the KV head count applies to the
     * new decoder architecture or to plain multi-head attention; the old
     * multi-query layout has a single KV head. */
    if (new_arch || !multi_query) {
        if (hf_int_keys(h, KEYS("num_kv_heads", "n_head_kv"), 1, m->heads, 1, 100000,
                        &m->kv_heads))
            return -1;
    } else {
        m->kv_heads = 1;
    }
    if (m->hidden % m->heads != 0) {
        engine_errorf(h->err, "%s: hidden_size: %d is not divisible by num_attention_heads (%d)",
                      h->path, m->hidden, m->heads);
        return -1;
    }
    m->head_dim = m->hidden / m->heads;
    m->qkv_bias = bias;
    m->gated_mlp = 0;
    return 0;
}

static int hf_deepseek(const hf_ctx *h, engine_model *m)
{
    int freq = 1;
    if (REQ("num_hidden_layers", 100000, &m->layers) ||
        REQ("hidden_size", 1000000, &m->hidden) ||
        REQ("num_attention_heads", 100000, &m->heads) ||
        hf_int_keys(h, KEYS("num_key_value_heads"), 1, m->heads, 1, 100000, &m->kv_heads) ||
        REQ("intermediate_size", 10000000, &m->ffn) ||
        REQ("vocab_size", 10000000, &m->vocab) ||
        REQ("max_position_embeddings", 1000000000, &m->context) ||
        hf_bool(h, "tie_word_embeddings", 0, &m->tied_embeddings) ||
        hf_bool(h, "attention_bias", 0, &m->qkv_bias) ||
        hf_int_keys(h, KEYS("q_lora_rank"), 1, 0, 0, 1000000, &m->q_lora_rank) ||
        REQ("kv_lora_rank", 1000000, &m->kv_lora_rank) ||
        REQ("qk_nope_head_dim", 1000000, &m->qk_nope_dim) ||
        hf_int_keys(h, KEYS("qk_rope_head_dim"), 0, 0, 0, 1000000, &m->qk_rope_dim) ||
        REQ("v_head_dim", 1000000, &m->v_head_dim) ||
        hf_int_keys(h, KEYS("n_routed_experts"), 1, 0, 0, 100000, &m->experts) ||
        hf_int_keys(h, KEYS("num_nextn_predict_layers"), 1, 0, 0, 100, &m->mtp_layers))
        return -1;
    m->mla = 1;
    m->gated_mlp = 1;
    m->head_dim = m->qk_nope_dim + m->qk_rope_dim;
    if (m->experts > 0) {
        if (REQ("num_experts_per_tok", 100000, &m->top_k) ||
            REQ("moe_intermediate_size", 10000000, &m->moe_ffn) ||
            hf_int_keys(h, KEYS("n_shared_experts"), 1, 0, 0, 100000, &m->shared_experts) ||
            hf_int_keys(h, KEYS("first_k_dense_replace"), 1, 0, 0, 100000, &m->dense_layers) ||
            hf_int_keys(h, KEYS("moe_layer_freq"), 1, 1, 1, 100000, &freq) ||
            hf_int_keys(h, KEYS("n_group"), 1, 0, 0, 100000, &m->n_group) ||
            hf_int_keys(h, KEYS("topk_group"), 1, 0, 0, 100000, &m->topk_group))
            return -1;
        if (freq != 1) {
            engine_errorf(h->err, "%s: moe_layer_freq: only 1 is supported, got %d",
                          h->path, freq);
            return -1;
        }
    }
    return 0;
}

/* Gemma 2 / Gemma 3 text: GeGLU, tied embeddings, explicit head_dim,
 * q/k norms (Gemma 3), and local layers of sliding_window tokens with every
 * sliding_window_pattern-th layer global (Gemma 2: every other; both: the
 * first layer local), or as layer_types says.  Gemma 3's text_config leaves
 * out what equals the Gemma3TextConfig defaults (vocab 262208, context
 * 131072, pattern 6); Gemma 2's the Gemma2Config ones (vocab 256000, 8192). */
static int hf_gemma(const hf_ctx *h, const char *type, engine_model *m)
{
    int g3 = strcmp(type, "gemma2") != 0;
    int size = 0, every = g3 ? 6 : 2;
    if (hf_attention_keys(h, m) ||
        REQ("intermediate_size", 10000000, &m->ffn) ||
        hf_int_keys(h, KEYS("vocab_size"), 1, g3 ? 262208 : 256000, 1, 10000000, &m->vocab) ||
        hf_int_keys(h, KEYS("max_position_embeddings"), 1, g3 ? 131072 : 8192, 1, 1000000000,
                    &m->context) ||
        hf_bool(h, "tie_word_embeddings", 1, &m->tied_embeddings) ||
        hf_bool(h, "attention_bias", 0, &m->qkv_bias) ||
        hf_int_keys(h, KEYS("sliding_window"), 1, 4096, 0, 1000000000, &size) ||
        (g3 && hf_int_keys(h, KEYS("sliding_window_pattern"), 1, 6, 1, 100000, &every)))
        return -1;
    m->gated_mlp = 1;
    m->qk_norm = g3;
    int rc = hf_layer_types(h, size, m);
    if (rc < 0)
        return -1;
    if (rc == 0 && size > 0) {
        m->window = size;
        m->global_every = every;
    }
    return 0;
}

/* Llama 4 text: MoE with one shared expert of the experts' width
 * (intermediate_size) on every interleave_moe_layer_step-th layer, dense
 * layers of intermediate_size_mlp between; chunked local attention of
 * attention_chunk_size tokens on the RoPE layers, global attention on the
 * NoPE ones (no_rope_layers[i] == 0; default every 4th). */
static int hf_llama4(const hf_ctx *h, engine_model *m)
{
    int chunk = 0, step = 1;
    if (hf_attention_keys(h, m) ||
        REQ("intermediate_size", 10000000, &m->moe_ffn) ||
        REQ("intermediate_size_mlp", 10000000, &m->ffn) ||
        REQ("vocab_size", 10000000, &m->vocab) ||
        REQ("max_position_embeddings", 1000000000, &m->context) ||
        hf_bool(h, "tie_word_embeddings", 0, &m->tied_embeddings) ||
        hf_bool(h, "attention_bias", 0, &m->qkv_bias) ||
        REQ("num_local_experts", 100000, &m->experts) ||
        REQ("num_experts_per_tok", 100000, &m->top_k) ||
        hf_int_keys(h, KEYS("interleave_moe_layer_step"), 1, 1, 1, 100000, &step) ||
        hf_int_keys(h, KEYS("attention_chunk_size"), 1, 0, 0, 1000000000, &chunk))
        return -1;
    m->gated_mlp = 1;
    m->shared_experts = 1;
    m->moe_every = step > 1 ? step : 0;
    if (chunk <= 0)
        return 0;
    const cJSON *nr = cJSON_GetObjectItemCaseSensitive(h->root, "no_rope_layers");
    int *local = calloc((size_t)m->layers, sizeof *local);
    if (!local) {
        engine_errorf(h->err, "%s: out of memory", h->path);
        return -1;
    }
    int n = cJSON_IsArray(nr) ? cJSON_GetArraySize(nr) : 0;
    if (n > 0 && n != m->layers) {
        free(local);
        engine_errorf(h->err, "%s: no_rope_layers: expected num_hidden_layers (%d) entries, got %d",
                      h->path, m->layers, n);
        return -1;
    }
    for (int i = 0; i < m->layers; i++) {
        const cJSON *x = n > 0 ? cJSON_GetArrayItem(nr, i) : NULL;
        local[i] = x ? cJSON_IsNumber(x) && x->valuedouble != 0 : (i + 1) % 4 != 0;
    }
    int rc = hf_pattern(h, "no_rope_layers", local, m->layers, chunk, m);
    free(local);
    m->window_chunked = m->window > 0;
    return rc;
}

/* gpt-oss: every layer MoE (num_local_experts, experts_per_token), biased
 * attention with learned sinks (one logit a head: left out, like the
 * experts' biases), sliding-window layers as layer_types says (alternating,
 * the first local).  MXFP4 comes with quantization_config. */
static int hf_gpt_oss(const hf_ctx *h, engine_model *m)
{
    int size = 0;
    if (hf_attention_keys(h, m) ||
        REQ("intermediate_size", 10000000, &m->ffn) ||
        REQ("vocab_size", 10000000, &m->vocab) ||
        REQ("max_position_embeddings", 1000000000, &m->context) ||
        hf_bool(h, "tie_word_embeddings", 0, &m->tied_embeddings) ||
        hf_bool(h, "attention_bias", 1, &m->qkv_bias) ||
        REQ("num_local_experts", 100000, &m->experts) ||
        hf_int_keys(h, KEYS("num_experts_per_tok", "experts_per_token"), 0, 0, 1, 100000,
                    &m->top_k) ||
        hf_int_keys(h, KEYS("sliding_window"), 1, 128, 0, 1000000000, &size))
        return -1;
    m->gated_mlp = 1;
    m->moe_ffn = m->ffn;
    int rc = hf_layer_types(h, size, m);
    if (rc < 0)
        return -1;
    if (rc == 0 && size > 0) {
        m->window = size;
        m->global_every = 2;
    }
    return 0;
}

/* A number in an object, or -1 when absent or not a number. */
static double obj_num(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(it) ? it->valuedouble : -1;
}

static const char *obj_str(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(it) ? it->valuestring : NULL;
}

/* rope_scaling stretches the context: with original_max_position_embeddings
 * (YaRN, llama3, longrope) the context is the larger of
 * max_position_embeddings and original x factor (Llama-3.1 already states
 * 131072; Qwen2.5's YaRN recipe keeps 32768 and scales by 4); without it
 * (linear, dynamic), max_position_embeddings x factor. */
static int hf_rope_scaling(const hf_ctx *h, engine_model *m)
{
    const cJSON *rs = cJSON_GetObjectItemCaseSensitive(h->root, "rope_scaling");
    if (!rs || cJSON_IsNull(rs))
        return 0;
    if (!cJSON_IsObject(rs)) {
        engine_errorf(h->err, "%s: rope_scaling: expected an object or null, got %s",
                      h->path, preset_util_type_name(rs));
        return -1;
    }
    double f = obj_num(rs, "factor");
    if (f < 0)
        return 0; /* e.g. {"type": "default"} or mrope sections: no stretch */
    if (!(f >= 1 && f <= 1024)) {
        engine_errorf(h->err, "%s: rope_scaling.factor: expected a number 1..1024, got %g",
                      h->path, f);
        return -1;
    }
    double orig = obj_num(rs, "original_max_position_embeddings");
    double ctx = orig > 0 ? fmax((double)m->context, orig * f) : (double)m->context * f;
    if (ctx > 1e9)
        ctx = 1e9;
    m->context = (int)ctx;
    return 0;
}

/* The weight format of one quant_method family: *d, and *g the weights per
 * scale (0: none).  -1 with err set when the family's fields say a format
 * the engine has not. */

/* gptq, awq, marlin, exl2, aqlm: int4 (the default) or int8 by "bits". */
static int quant_int_bits(const hf_ctx *h, const char *method, double bits, double group,
                          engine_dtype *d, int *g)
{
    if (bits == 8) {
        *d = ENGINE_INT8;
    } else if (bits == 4 || bits < 0) {
        *d = ENGINE_INT4;
        /* -1: one scale per output channel (negligible) */
        *g = group > 0 ? (int)group : group == -1 ? 1048576 : 128;
    } else {
        engine_errorf(h->err, "%s: quantization_config.bits: %s with %g bits is not "
                                  "supported (4 or 8)", h->path, method, bits);
        return -1;
    }
    return 0;
}

static int quant_bitsandbytes(const hf_ctx *h, const cJSON *q, engine_dtype *d, int *g)
{
    const cJSON *l4 = cJSON_GetObjectItemCaseSensitive(q, "load_in_4bit");
    const cJSON *l8 = cJSON_GetObjectItemCaseSensitive(q, "load_in_8bit");
    if (cJSON_IsTrue(l4)) {
        *d = ENGINE_INT4;
        *g = 64; /* bitsandbytes blocksize 64 */
    } else if (cJSON_IsTrue(l8)) {
        *d = ENGINE_INT8;
    } else {
        engine_errorf(h->err, "%s: quantization_config: bitsandbytes without "
                                  "load_in_4bit or load_in_8bit", h->path);
        return -1;
    }
    return 0;
}

/* config_groups.<g>.weights.{num_bits, type} */
static int quant_compressed_tensors(const hf_ctx *h, const cJSON *q, engine_dtype *d, int *g)
{
    const cJSON *cg = cJSON_GetObjectItemCaseSensitive(q, "config_groups");
    const cJSON *w = NULL;
    for (const cJSON *it = cg ? cg->child : NULL; it && !w; it = it->next)
        w = cJSON_GetObjectItemCaseSensitive(it, "weights");
    double nb = w ? obj_num(w, "num_bits") : -1;
    const char *ty = w ? obj_str(w, "type") : NULL;
    double gs = w ? obj_num(w, "group_size") : -1;
    if (nb == 8)
        *d = ty && !strcmp(ty, "float") ? ENGINE_FP8 : ENGINE_INT8;
    else if (nb == 4) {
        *d = ty && !strcmp(ty, "float") ? ENGINE_FP4 : ENGINE_INT4;
        *g = gs > 0 ? (int)gs : (*d == ENGINE_FP4 ? 16 : 128);
    } else {
        engine_errorf(h->err, "%s: quantization_config.config_groups: weights of %g "
                                  "bits are not supported (4 or 8)", h->path, nb);
        return -1;
    }
    return 0;
}

/* quant_method fp8's weight_block_size ([128, 128]: DeepSeek-V3/R1, one
 * scale per 128x128 weight block; absent or null: per-tensor scales):
 * *blk its side, 0 when absent.  Only square blocks of 1..65536 are known. */
static int quant_fp8_block(const hf_ctx *h, const cJSON *q, int *blk)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(q, "weight_block_size");
    *blk = 0;
    if (!b || cJSON_IsNull(b))
        return 0;
    const cJSON *r = cJSON_IsArray(b) ? cJSON_GetArrayItem(b, 0) : NULL;
    const cJSON *c = cJSON_IsArray(b) ? cJSON_GetArrayItem(b, 1) : NULL;
    if (cJSON_GetArraySize(b) != 2 || !cJSON_IsNumber(r) || !cJSON_IsNumber(c) ||
        r->valuedouble != c->valuedouble || r->valuedouble < 1 || r->valuedouble > 65536 ||
        r->valuedouble != floor(r->valuedouble)) {
        engine_errorf(h->err, "%s: quantization_config.weight_block_size: expected [N, N] "
                              "with N in 1..65536 (square weight blocks)", h->path);
        return -1;
    }
    *blk = (int)r->valuedouble;
    return 0;
}

/* The weight format that quantization_config's quant_method names. */
static int quant_method_dtype(const hf_ctx *h, const cJSON *q, const char *method,
                              engine_dtype *d, int *g, int *blk)
{
    double bits = obj_num(q, "bits");
    if (bits < 0)
        bits = obj_num(q, "w_bit"); /* older AutoAWQ */
    double group = obj_num(q, "group_size");
    if (group < 0)
        group = obj_num(q, "q_group_size");
    if (!strcmp(method, "gptq") || !strcmp(method, "awq") || !strcmp(method, "marlin") ||
        !strcmp(method, "exl2") || !strcmp(method, "aqlm"))
        return quant_int_bits(h, method, bits, group, d, g);
    if (!strcmp(method, "fp8") || !strcmp(method, "fbgemm_fp8")) {
        *d = ENGINE_FP8;
        return quant_fp8_block(h, q, blk);
    }
    if (!strcmp(method, "bitsandbytes"))
        return quant_bitsandbytes(h, q, d, g);
    if (!strcmp(method, "mxfp4")) {
        *d = ENGINE_FP4;
        *g = 32; /* OCP MX: an E8M0 scale per 32 */
        return 0;
    }
    if (!strcmp(method, "modelopt") || !strcmp(method, "nvfp4")) {
        const char *algo = obj_str(q, "quant_algo");
        if (algo && !strcmp(algo, "FP8")) {
            *d = ENGINE_FP8;
        } else {
            *d = ENGINE_FP4;
            *g = group > 0 ? (int)group : 16;
        }
        return 0;
    }
    if (!strcmp(method, "compressed-tensors"))
        return quant_compressed_tensors(h, q, d, g);
    engine_errorf(h->err,
                  "%s: quantization_config.quant_method: unsupported '%.40s' (supported: "
                  "gptq, awq, fp8, bitsandbytes, mxfp4, modelopt, compressed-tensors)",
                  h->path, method);
    return -1;
}

/* 1 when the modules left unquantized (modules_to_not_convert: transformers'
 * mxfp4, bitsandbytes, fbgemm; ignore: compressed-tensors; exclude_modules:
 * ModelOpt) name the attention ("model.layers.*.self_attn"). */
static int quant_skips_attention(const cJSON *q)
{
    static const char *const lists[] = { "modules_to_not_convert", "ignore", "exclude_modules" };
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        const cJSON *l = cJSON_GetObjectItemCaseSensitive(q, lists[i]);
        for (const cJSON *x = cJSON_IsArray(l) ? l->child : NULL; x; x = x->next)
            if (cJSON_IsString(x) && strstr(x->valuestring, "self_attn"))
                return 1;
    }
    return 0;
}

/* quantization_config names the checkpoint's weight format. */
static int hf_quantization(const hf_ctx *h, engine_model *m)
{
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(h->root, "quantization_config");
    if (!q || cJSON_IsNull(q))
        return 0;
    if (!cJSON_IsObject(q)) {
        engine_errorf(h->err, "%s: quantization_config: expected an object, got %s",
                      h->path, preset_util_type_name(q));
        return -1;
    }
    const char *method = obj_str(q, "quant_method");
    if (!method) {
        engine_errorf(h->err, "%s: quantization_config.quant_method: missing required field",
                      h->path);
        return -1;
    }
    engine_dtype d;
    int g = 0, blk = 0;
    if (quant_method_dtype(h, q, method, &d, &g, &blk) != 0)
        return -1;
    m->has_weight_dtype = 1;
    m->weight_dtype = d;
    m->quant_group = g;
    m->weight_block = blk;
    m->attn_16bit = quant_skips_attention(q);
    return 0;
}

/* The model's name: the last part of "_name_or_path" when it is a hub id,
 * else the directory holding config.json (for the Hugging Face cache,
 * models--org--name/snapshots/<hash>/config.json, the "name" part). */
static void hf_name(const cJSON *root, const char *file, char *out, size_t len)
{
    char buf[1024] = "";
    const cJSON *np = cJSON_GetObjectItemCaseSensitive(root, "_name_or_path");
    if (cJSON_IsString(np) && np->valuestring[0] && np->valuestring[0] != '/' &&
        np->valuestring[0] != '.') {
        const char *s = strrchr(np->valuestring, '/');
        snprintf(buf, sizeof buf, "%s", s ? s + 1 : np->valuestring);
    }
    if (!buf[0]) {
        /* Split the path into its components (the last is config.json). */
        char dir[4096];
        char *comp[64];
        int n = 0;
        snprintf(dir, sizeof dir, "%s", file);
        for (char *tok = strtok(dir, "/"); tok && n < 64; tok = strtok(NULL, "/"))
            comp[n++] = tok;
        const char *pick = n >= 2 ? comp[n - 2] : NULL;
        if (n >= 4 && !strcmp(comp[n - 3], "snapshots") &&
            !strncmp(comp[n - 4], "models--", 8)) {
            const char *s = strstr(comp[n - 4] + 8, "--");
            pick = s ? s + 2 : comp[n - 4] + 8;
        }
        if (pick && pick[0] && strcmp(pick, ".") && strcmp(pick, ".."))
            snprintf(buf, sizeof buf, "%s", pick);
    }
    if (!buf[0])
        snprintf(buf, sizeof buf, "hf-model");
    size_t n = strlen(buf);
    if (n >= len)
        n = len - 1;
    memcpy(out, buf, n);
    out[n] = '\0';
}

/* model_type as a string, or NULL with err set (not an object, absent,
 * not a string). */
static const char *hf_model_type(const cJSON *root, const char *file, engine_error *err)
{
    const cJSON *mt = cJSON_GetObjectItemCaseSensitive(root, "model_type");
    if (!cJSON_IsObject(root)) {
        engine_errorf(err, "%s: expected a JSON object, got %s", file,
                      preset_util_type_name(root));
        return NULL;
    }
    if (!mt || cJSON_IsNull(mt)) {
        engine_errorf(err, "%s: model_type: missing required field", file);
        return NULL;
    }
    if (!cJSON_IsString(mt)) {
        engine_errorf(err, "%s: model_type: expected a string, got %s", file,
                      preset_util_type_name(mt));
        return NULL;
    }
    return mt->valuestring;
}

/* The family reader for model_type; -1 with err set for an unknown one. */
static int hf_family(const hf_ctx *h, const char *type, engine_model *m)
{
    if (!strcmp(type, "llama") || !strcmp(type, "mistral") || !strcmp(type, "mixtral") ||
        !strcmp(type, "qwen2") || !strcmp(type, "qwen2_moe") || !strcmp(type, "qwen3") ||
        !strcmp(type, "qwen3_moe") || !strcmp(type, "phi3"))
        return hf_llama_like(h, type, m);
    if (!strcmp(type, "gemma2") || !strcmp(type, "gemma3") || !strcmp(type, "gemma3_text"))
        return hf_gemma(h, type, m);
    if (!strcmp(type, "llama4") || !strcmp(type, "llama4_text"))
        return hf_llama4(h, m);
    if (!strcmp(type, "gpt_oss"))
        return hf_gpt_oss(h, m);
    if (!strcmp(type, "gpt2"))
        return hf_gpt2(h, m);
    if (!strcmp(type, "gpt_neox"))
        return hf_gpt_neox(h, m);
    if (!strcmp(type, "falcon") || !strcmp(type, "RefinedWeb") ||
        !strcmp(type, "RefinedWebModel"))
        return hf_falcon(h, type, m);
    if (!strcmp(type, "deepseek_v2") || !strcmp(type, "deepseek_v3"))
        return hf_deepseek(h, m);
    engine_errorf(h->err, "%s: model_type: unsupported family '%.60s' (supported: %s)",
                  h->path, type, HF_SUPPORTED);
    return -1;
}

/* display (as named), name (lower case) and source of an imported model. */
static void hf_set_names(const cJSON *root, const char *file, const char *type,
                         engine_model *m)
{
    char name[ENGINE_NAME_MAX];
    hf_name(root, file, name, sizeof name);
    snprintf(m->display, sizeof m->display, "%s", name);
    for (char *p = name; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    snprintf(m->name, sizeof m->name, "%s", name);
    snprintf(m->source, sizeof m->source, "Hugging Face config.json (%.400s), model_type %.40s",
             file, type);
}

/* The config's own name for a field: the first of keys present, else keys[0]. */
static const char *hf_key(const hf_ctx *h, const char *const *keys)
{
    const char *which;
    hf_find(h, keys, &which);
    return which;
}

/* preset_model_check's consistency rules, named by the config's keys
 * (num_key_value_heads, num_experts_per_tok, first_k_dense_replace rather
 * than kv_heads, moe.top_k, moe.dense_layers).  0 ok, -1 with err set. */
static int hf_check(const hf_ctx *h, const engine_model *m)
{
    const char *heads = hf_key(h, KEYS("num_attention_heads", "n_head"));
    const char *layers = hf_key(h, KEYS("num_hidden_layers", "n_layer"));
    if (m->kv_heads > m->heads || m->heads % m->kv_heads != 0) {
        engine_errorf(h->err, "%s: %s: %d does not divide %s (%d)", h->path,
                      hf_key(h, KEYS("num_key_value_heads", "num_kv_heads", "n_head_kv")),
                      m->kv_heads, heads, m->heads);
        return -1;
    }
    if (m->experts <= 0)
        return 0;
    if (m->top_k > m->experts) {
        engine_errorf(h->err, "%s: num_experts_per_tok: expected at most %s (%d), got %d",
                      h->path,
                      hf_key(h, KEYS("num_local_experts", "num_experts", "n_routed_experts")),
                      m->experts, m->top_k);
        return -1;
    }
    if (m->dense_layers >= m->layers) {
        engine_errorf(h->err, "%s: %s: expected fewer than %s (%d), got %d", h->path,
                      hf_key(h, KEYS("first_k_dense_replace", "mlp_only_layers")), layers,
                      m->layers, m->dense_layers);
        return -1;
    }
    char why[200];
    if (preset_moe_groups_check(m, "n_group", "topk_group", why, sizeof why) != 0) {
        engine_errorf(h->err, "%s: %s", h->path, why);
        return -1;
    }
    return 0;
}

/* Keys the importer reads, or knows leave the counted shape alone (token
 * ids, norms' epsilon, dropout, rotary bases, routing details, softcaps,
 * multimodal parts).  Any other key is named in the import note. */
static const char *const HF_KNOWN[] = {
    "_attn_implementation_autoset", "_name_or_path", "activation_function", "alibi",
    "apply_residual_connection_post_layernorm", "architectures", "attention_bias",
    "attention_chunk_size", "attention_dropout", "attn_logit_softcapping", "attn_pdrop",
    "attn_scale", "attn_temperature_tuning", "auto_map", "aux_loss_alpha", "bias",
    "boi_token_index", "bos_token_id", "cache_implementation", "decoder_sparse_step",
    "dtype", "embd_pdrop", "eoi_token_index", "eos_token_id", "ep_size",
    "experts_per_token", "ffn_hidden_size", "final_logit_softcapping",
    "first_k_dense_replace", "floor_scale", "for_llm_compressor", "head_dim", "hidden_act",
    "hidden_activation", "hidden_dropout", "hidden_size", "id2label", "image_token_index",
    "initial_context_length", "initializer_range", "interleave_moe_layer_step",
    "intermediate_size", "intermediate_size_mlp", "kv_lora_rank", "label2id",
    "layer_norm_eps", "layer_norm_epsilon", "layer_types", "max_position_embeddings",
    "max_window_layers", "mlp_only_layers", "mm_tokens_per_image", "model_type",
    "moe_intermediate_size", "moe_layer_freq", "moe_layers", "multi_query", "n_ctx",
    "n_embd", "n_group", "n_head", "n_head_kv", "n_inner", "n_layer", "n_positions",
    "n_routed_experts", "n_shared_experts", "new_decoder_architecture", "no_rope_layers",
    "no_rope_layer_interval", "norm_topk_prob", "num_attention_heads", "num_experts",
    "num_experts_per_tok", "num_hidden_layers", "num_key_value_heads", "num_kv_heads",
    "num_local_experts", "num_nextn_predict_layers", "original_max_position_embeddings",
    "output_router_logits", "pad_token_id", "parallel_attn", "partial_rotary_factor",
    "pretraining_tp", "q_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim",
    "quantization_config", "query_pre_attn_scalar", "resid_pdrop", "rms_norm_eps",
    "rope_local_base_freq", "rope_parameters", "rope_scaling", "rope_theta",
    "rotary_emb_base", "rotary_pct", "routed_scaling_factor", "router_aux_loss_coef",
    "router_jitter_noise", "scoring_func", "seq_aux", "shared_expert_intermediate_size",
    "sliding_window", "sliding_window_pattern", "sliding_window_size",
    "summary_activation", "summary_first_dropout", "summary_proj_to_labels",
    "summary_type", "summary_use_proj", "swiglu_limit", "task_specific_params",
    "text_config", "tie_word_embeddings", "tokenizer_class", "topk_group", "topk_method",
    "torch_dtype", "transformers_version", "use_bfloat16", "use_cache",
    "use_parallel_residual", "use_qk_norm", "use_sliding_window", "v_head_dim",
    "vision_config", "vocab_size",
};

static int hf_known(const char *key)
{
    for (size_t i = 0; i < sizeof HF_KNOWN / sizeof HF_KNOWN[0]; i++)
        if (!strcmp(key, HF_KNOWN[i]))
            return 1;
    return 0;
}

/* Appends to m->source the keys of o (and of its text_config) that the
 * importer neither reads nor knows to be harmless: "; not read: a, b". */
static void hf_note_ignored(const cJSON *o, engine_model *m)
{
    char list[512] = "";
    size_t n = 0;
    const cJSON *tc = cJSON_GetObjectItemCaseSensitive(o, "text_config");
    const cJSON *objs[2] = { o, cJSON_IsObject(tc) ? tc : NULL };
    for (int j = 0; j < 2 && objs[j]; j++)
        for (const cJSON *it = objs[j]->child; it; it = it->next)
            if (it->string && !hf_known(it->string) && n + 1 < sizeof list) {
                int w = snprintf(list + n, sizeof list - n, "%s%.60s", n ? ", " : "", it->string);
                n = w > 0 && n + (size_t)w < sizeof list ? n + (size_t)w : sizeof list - 1;
            }
    if (!n)
        return;
    size_t len = strlen(m->source);
    snprintf(m->source + len, sizeof m->source - len, "; %s %s", PRESET_HF_NOT_READ, list);
}

/* The parsed model of one config.json; 0 ok, -1 with err set. */
static int hf_model(const cJSON *root, const char *file, engine_model *m, engine_error *err)
{
    hf_ctx h = { root, file, err };
    memset(m, 0, sizeof *m);
    const char *type = hf_model_type(root, file, err);
    if (!type)
        return -1;
    /* Multimodal configs (Llama 4, Gemma 3) nest the language model under
     * text_config; its keys are read there, quantization_config at the top. */
    hf_ctx text = h;
    const cJSON *tc = cJSON_GetObjectItemCaseSensitive(root, "text_config");
    if (cJSON_IsObject(tc))
        text.root = tc;
    if (hf_family(&text, type, m) != 0 ||
        (strncmp(type, "gemma", 5) && hf_rope_scaling(&text, m) != 0) ||
        hf_quantization(&h, m) != 0)
        return -1;
    hf_set_names(root, file, type, m);
    hf_note_ignored(root, m);
    if (hf_check(&h, m) != 0)
        return -1;
    return preset_model_check(m, file, err);
}

int preset_model_from_hf_config(const char *path, engine_model *out,
                                engine_error *err)
{
    if (!path || !out) {
        engine_errorf(err, "config.json: no path given");
        return -1;
    }
    /* A directory means its config.json. */
    char file[4096];
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(file, sizeof file, "%s/config.json", path);
    else
        snprintf(file, sizeof file, "%s", path);

    char *text;
    size_t len;
    if (preset_util_read_file(file, &text, &len, err) != 0)
        return -1;
    cJSON *root = preset_util_parse(file, text, len, err);
    free(text);
    if (!root)
        return -1;
    engine_model m;
    int rc = hf_model(root, file, &m, err);
    if (rc == 0)
        *out = m;
    cJSON_Delete(root);
    return rc;
}
