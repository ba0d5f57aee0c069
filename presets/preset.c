/*
 * preset.c - the presets database: loads the shipped JSON (compiled in by
 * mk/embed.sh) and then the user's JSON files, validates every entry
 * strictly (types, ranges, unknown keys, duplicates, consistency) and turns
 * the human units of the files (GB, GB/s, TFLOPS, microseconds) into the
 * SI units of the engine structs.  A bad entry is skipped with one line
 * naming file, entry and field; the other entries still load.
 */
#include "preset.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "embedded.h"
#include "list_form.h"
#include "preset_util.h"

/* Defaults for optional GPU fields (assumptions, see README). */
#define DEFAULT_ETA_COMPUTE 0.75
#define DEFAULT_ETA_MEMORY 0.8

/* --- field tables ---------------------------------------------------- */

typedef enum field_kind {
    FK_INT,    /* JSON integer -> int */
    FK_NUM,    /* JSON number * scale -> double */
    FK_BOOL,   /* true/false -> int 0/1 */
    FK_STR,    /* string copied into char[cap] */
    FK_MLP,    /* "swiglu"|"geglu" -> 1, "gelu"|"relu" -> 0 (int) */
    FK_NOTE,   /* free text, checked to be a string, not stored */
    FK_OBJ,    /* nested object with its own table */
    FK_ENUM,   /* one of `choices` (nsub of them) -> int index */
    FK_CURVES  /* a link's measured curves (engine_curve[ENGINE_OP_COUNT]) */
} field_kind;

typedef enum field_range {
    FR_POS,    /* > 0 (integers: >= 1) */
    FR_NONNEG, /* >= 0 */
    FR_FRAC    /* in (0, 1] */
} field_range;

typedef struct field_spec {
    const char *key;
    field_kind kind;
    int required;
    field_range range;
    double hi;     /* inclusive upper bound, in the file's units */
    double scale;  /* file units -> SI */
    size_t off;    /* offset of the target in the struct */
    size_t cap;    /* FK_STR: capacity of the char array */
    const struct field_spec *sub; /* FK_OBJ */
    int nsub;                     /* FK_OBJ: entries of sub; FK_ENUM: of choices */
    const char *const *choices;   /* FK_ENUM */
} field_spec;

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MI(k, req, rng, hi, member) \
    { k, FK_INT, req, rng, hi, 1, offsetof(engine_model, member), 0, NULL, 0, NULL }
#define MN(k, req, rng, hi, member) \
    { k, FK_NUM, req, rng, hi, 1, offsetof(engine_model, member), 0, NULL, 0, NULL }
#define MB(k, member) \
    { k, FK_BOOL, 0, FR_NONNEG, 0, 1, offsetof(engine_model, member), 0, NULL, 0, NULL }
#define STR(T, k, req, member) \
    { k, FK_STR, req, FR_NONNEG, 0, 1, offsetof(T, member), sizeof(((T *)0)->member), NULL, 0, NULL }
#define NOTE { "notes", FK_NOTE, 0, FR_NONNEG, 0, 1, 0, 0, NULL, 0, NULL }
#define ENUM(T, k, req, member, names, n) \
    { k, FK_ENUM, req, FR_NONNEG, 0, 1, offsetof(T, member), 0, NULL, n, names }

static const char *const DTYPE_CHOICES[] = {"fp16", "bf16", "fp8", "int8", "int4", "fp4"};
static const char *const LINK_KIND_CHOICES[] = {"other", "nvlink", "xgmi", "pcie", "net"};
static const char *const MEM_RULE_CHOICES[] = {"total", "free"};
static const char *const KV_ALLOC_CHOICES[] = {"reserve", "on-demand", "estimate"}; /* engine_sim_kv */

static const field_spec moe_fields[] = {
    MI("experts", 1, FR_POS, 100000, experts),
    MI("top_k", 1, FR_POS, 100000, top_k),
    MI("shared_experts", 0, FR_NONNEG, 100000, shared_experts),
    MI("moe_ffn", 0, FR_NONNEG, 10000000, moe_ffn),
    MI("dense_layers", 0, FR_NONNEG, 100000, dense_layers),
    MI("every", 0, FR_NONNEG, 100000, moe_every),
    MI("n_group", 0, FR_NONNEG, 100000, n_group),
    MI("topk_group", 0, FR_NONNEG, 100000, topk_group),
};

static const field_spec window_fields[] = {
    MI("size", 1, FR_POS, 1000000000, window),
    MI("global_every", 0, FR_NONNEG, 100000, global_every),
    MB("chunked", window_chunked),
};

static const field_spec mla_fields[] = {
    MI("q_lora_rank", 0, FR_NONNEG, 1000000, q_lora_rank),
    MI("kv_lora_rank", 1, FR_POS, 1000000, kv_lora_rank),
    MI("qk_nope_dim", 1, FR_POS, 1000000, qk_nope_dim),
    MI("qk_rope_dim", 1, FR_NONNEG, 1000000, qk_rope_dim),
    MI("v_head_dim", 1, FR_POS, 1000000, v_head_dim),
};

static const field_spec model_fields[] = {
    STR(engine_model, "display", 0, display),
    STR(engine_model, "source", 1, source),
    STR(engine_model, "hf_id", 0, hf_id),
    NOTE,
    MI("layers", 1, FR_POS, 100000, layers),
    MI("hidden", 1, FR_POS, 1000000, hidden),
    MI("heads", 1, FR_POS, 100000, heads),
    MI("kv_heads", 0, FR_POS, 100000, kv_heads),
    MI("head_dim", 0, FR_POS, 100000, head_dim),
    MI("ffn", 1, FR_POS, 10000000, ffn),
    MI("vocab", 1, FR_POS, 10000000, vocab),
    MI("context", 1, FR_POS, 1000000000, context),
    { "mlp", FK_MLP, 1, FR_NONNEG, 0, 1, offsetof(engine_model, gated_mlp), 0, NULL, 0, NULL },
    MB("tied_embeddings", tied_embeddings),
    MB("learned_pos", learned_pos),
    MB("qkv_bias", qkv_bias),
    MB("qk_norm", qk_norm),
    MB("parallel_ar_once", parallel_ar_once),
    { "window", FK_OBJ, 0, FR_NONNEG, 0, 1, 0, 0, window_fields, N_OF(window_fields), NULL },
    { "moe", FK_OBJ, 0, FR_NONNEG, 0, 1, 0, 0, moe_fields, N_OF(moe_fields), NULL },
    { "mla", FK_OBJ, 0, FR_NONNEG, 0, 1, 0, 0, mla_fields, N_OF(mla_fields), NULL },
    MN("params_published", 0, FR_NONNEG, 1e15, params_published),
    MN("active_params_published", 0, FR_NONNEG, 1e15, active_params_published),
    ENUM(engine_model, "weights", 0, weight_dtype, DTYPE_CHOICES, N_OF(DTYPE_CHOICES)),
    MI("quant_group", 0, FR_POS, 1048576, quant_group),
    MI("weight_block", 0, FR_POS, 1048576, weight_block),
    MB("attn_16bit", attn_16bit),
    MB("attn_16bit_fp4", attn_16bit_fp4),
    MB("attn_out_fp4", attn_out_fp4),
    MI("num_nextn_predict_layers", 0, FR_NONNEG, 100, mtp_layers),
};

#define GT(k, req, rng, dt) \
    { k, FK_NUM, req, rng, 1e6, 1e12, \
      offsetof(engine_gpu, peak_flops) + (dt) * sizeof(double), 0, NULL, 0, NULL }
static const field_spec tflops_fields[] = {
    GT("fp16", 1, FR_POS, ENGINE_FP16),
    GT("bf16", 0, FR_NONNEG, ENGINE_BF16),
    GT("fp8", 0, FR_NONNEG, ENGINE_FP8),
    GT("int8", 0, FR_NONNEG, ENGINE_INT8),
    GT("int4", 0, FR_NONNEG, ENGINE_INT4),
    GT("fp4", 0, FR_NONNEG, ENGINE_FP4),
};

#define GN(k, req, rng, hi, scale, member) \
    { k, FK_NUM, req, rng, hi, scale, offsetof(engine_gpu, member), 0, NULL, 0, NULL }
static const field_spec gpu_fields[] = {
    STR(engine_gpu, "display", 0, display),
    STR(engine_gpu, "source", 1, source),
    NOTE,
    GN("memory_gb", 1, FR_POS, 100000, 1e9, memory_bytes),
    GN("hbm_gbs", 1, FR_POS, 1000000, 1e9, hbm_bytes_per_s),
    { "tflops", FK_OBJ, 1, FR_NONNEG, 0, 1, 0, 0, tflops_fields, N_OF(tflops_fields), NULL },
    GN("eta_compute", 0, FR_FRAC, 1, 1, eta_compute),
    GN("eta_compute_fp8", 0, FR_FRAC, 1, 1, eta_compute_fp8),
    GN("eta_compute_fp4", 0, FR_FRAC, 1, 1, eta_compute_fp4),
    GN("eta_compute_w4a16", 0, FR_FRAC, 1, 1, eta_compute_w4a16),
    GN("eta_memory_w4a16", 0, FR_FRAC, 1, 1, eta_memory_w4a16),
    GN("eta_compute_w4a16_marlin", 0, FR_FRAC, 1, 1, eta_compute_w4a16_marlin),
    GN("moe_w4a16_token_ns", 0, FR_NONNEG, 1000000, 1e-9, moe_w4a16_token_s),
    GN("eta_memory", 0, FR_FRAC, 1, 1, eta_memory),
    GN("eta_kv", 0, FR_FRAC, 1, 1, eta_kv),
    GN("eta_small", 0, FR_FRAC, 1, 1, eta_small),
    GN("eta_attn", 0, FR_FRAC, 1, 1, eta_attn),
    GN("eta_attn_prefill", 0, FR_FRAC, 1, 1, eta_attn_prefill),
    GN("eta_attn_io", 0, FR_FRAC, 1, 1, eta_attn_io),
    GN("fp32_tflops", 0, FR_NONNEG, 1000000, 1e12, fp32_flops),
    GN("l2_gbs", 0, FR_NONNEG, 1000000, 1e9, l2_bytes_per_s),
    GN("fp16_acc16_tflops", 0, FR_NONNEG, 1000000, 1e12, fp16_acc16_flops),
    { "sm_count", FK_INT, 0, FR_POS, 100000, 1, offsetof(engine_gpu, sm_count), 0, NULL, 0, NULL },
    GN("gemm_min_m", 0, FR_NONNEG, ENGINE_GEMM_MIN_M_MAX, 1, gemm_min_m),
    GN("gemm_t0_us", 0, FR_NONNEG, 1000000, 1e-6, gemm_t0_s),
    GN("gemm_t0_fp8_us", 0, FR_NONNEG, 1000000, 1e-6, gemm_t0_fp8_s),
    GN("gemm_t0_fp4_us", 0, FR_NONNEG, 1000000, 1e-6, gemm_t0_fp4_s),
    GN("eta_compute_fp8_block", 0, FR_FRAC, 1, 1, eta_compute_fp8_block),
    GN("gemm_t0_fp8_block_us", 0, FR_NONNEG, 1000000, 1e-6, gemm_t0_fp8_block_s),
    GN("gemm_roof_p_fp8_block", 0, FR_NONNEG, 16, 1, gemm_roof_p_fp8_block),
    GN("eta_moe", 0, FR_FRAC, 1, 1, eta_moe),
    GN("eta_moe_fp8", 0, FR_FRAC, 1, 1, eta_moe_fp8),
    GN("eta_moe_fp8_block", 0, FR_FRAC, 1, 1, eta_moe_fp8_block),
    GN("eta_moe_fp4", 0, FR_FRAC, 1, 1, eta_moe_fp4),
    GN("eta_moe_w4a8", 0, FR_FRAC, 1, 1, eta_moe_w4a8),
    GN("moe_w4a8_token_ns", 0, FR_NONNEG, 1000000, 1e-9, moe_w4a8_token_s),
    GN("moe_roof_p", 0, FR_NONNEG, 16, 1, moe_roof_p),
    GN("eta_moe_rows", 0, FR_FRAC, 1, 1, eta_moe_rows),
    GN("attn_t0_us", 0, FR_NONNEG, 1000000, 1e-6, attn_t0_s),
    GN("attn_cta_us", 0, FR_NONNEG, 1000000, 1e-6, attn_cta_s),
    GN("attn_score_ps", 0, FR_NONNEG, 1000000, 1e-12, attn_score_s),
    GN("attn_exp_ps", 0, FR_NONNEG, 1000000, 1e-12, attn_exp_s),
    GN("decode_attn_t0_us", 0, FR_NONNEG, 1000000, 1e-6, decode_attn_t0_s),
    GN("decode_attn_seq_us", 0, FR_NONNEG, 1000000, 1e-6, decode_attn_seq_s),
    GN("decode_attn_cta_us", 0, FR_NONNEG, 1000000, 1e-6, decode_attn_cta_s),
    GN("decode_attn_cta_fp8_us", 0, FR_NONNEG, 1000000, 1e-6, decode_attn_cta_fp8_s),
    GN("decode_attn_mha_us", 0, FR_NONNEG, 1000000, 1e-6, decode_attn_mha_s),
    GN("decode_attn_head_ns", 0, FR_NONNEG, 1000000, 1e-9, decode_attn_head_s),
    GN("eta_attn_decode", 0, FR_FRAC, 1, 1, eta_attn_decode),
    GN("decode_attn_cta_t0_us", 0, FR_NONNEG, 1000000, 1e-6, decode_attn_cta_t0_s),
    GN("eta_kv_cta", 0, FR_FRAC, 1, 1, eta_kv_cta),
    GN("kernel_floor_us", 0, FR_NONNEG, 1000000, 1e-6, kernel_floor_s),
    GN("layer_overhead_us", 0, FR_NONNEG, 1000000, 1e-6, layer_overhead_s),
    GN("price_usd_per_hour", 0, FR_NONNEG, 10000, 1, price_per_hour),
    STR(engine_gpu, "price_date", 0, price_date),
    STR(engine_gpu, "link", 0, link),
    STR(engine_gpu, "scale_out", 0, scale_out),
    { "nvlink_domain", FK_INT, 0, FR_NONNEG, 1000000, 1, offsetof(engine_gpu, nvlink_domain), 0, NULL, 0, NULL },
    { "node_gpus", FK_INT, 0, FR_POS, 1000000, 1, offsetof(engine_gpu, node_gpus), 0, NULL, 0, NULL },
    { "deepgemm", FK_BOOL, 0, FR_NONNEG, 0, 1, offsetof(engine_gpu, deepgemm), 0, NULL, 0, NULL },
};

#define LN(k, req, rng, hi, scale, member) \
    { k, FK_NUM, req, rng, hi, scale, offsetof(engine_link, member), 0, NULL, 0, NULL }
static const field_spec link_fields[] = {
    STR(engine_link, "display", 0, display),
    STR(engine_link, "source", 1, source),
    NOTE,
    LN("alpha_us", 1, FR_NONNEG, 10000000, 1e-6, alpha_s),
    LN("base_us", 0, FR_NONNEG, 10000000, 1e-6, base_s),
    LN("gbs", 1, FR_POS, 100000, 1e9, bytes_per_s),
    LN("eager_us", 0, FR_NONNEG, 10000000, 1e-6, eager_s),
    ENUM(engine_link, "kind", 0, kind, LINK_KIND_CHOICES, N_OF(LINK_KIND_CHOICES)),
    { "mesh_links", FK_INT, 0, FR_NONNEG, 1000, 1, offsetof(engine_link, mesh_links), 0, NULL, 0, NULL },
    { "curves", FK_CURVES, 0, FR_NONNEG, 0, 1, offsetof(engine_link, curve), 0, NULL, 0, NULL },
    { "socket_gpus", FK_INT, 0, FR_NONNEG, 1000000, 1, offsetof(engine_link, socket_gpus), 0, NULL, 0, NULL },
    LN("cross_socket", 0, FR_NONNEG, 1, 1, cross_socket),
};

#define FN(k, req, rng, hi, scale, member) \
    { k, FK_NUM, req, rng, hi, scale, offsetof(engine_framework, member), 0, NULL, 0, NULL }
/* host_loop.<generation>: its step and per-sequence costs and their source
 * (stored: explain names it beside the generation's costs). */
#define HOST_LOOP_FIELDS(g) \
    FN("step_us", 1, FR_NONNEG, 1e9, 1e-6, host_loop[g].step_s), \
    FN("seq_step_us", 1, FR_NONNEG, 1e9, 1e-6, host_loop[g].seq_step_s), \
    { "custom_allreduce_off_xgmi", FK_BOOL, 0, FR_NONNEG, 0, 1, \
      offsetof(engine_framework, host_loop[g].xgmi_no_custom_ar), 0, NULL, 0, NULL }, \
    { "overlap", FK_BOOL, 0, FR_NONNEG, 0, 1, \
      offsetof(engine_framework, host_loop[g].overlap), 0, NULL, 0, NULL }, \
    { "graph_capture_max", FK_INT, 0, FR_NONNEG, 16777216, 1, \
      offsetof(engine_framework, host_loop[g].graph_capture_max), 0, NULL, 0, NULL }, \
    FN("graph_capture_seqs", 0, FR_NONNEG, 1000, 1, host_loop[g].graph_capture_seqs), \
    STR(engine_framework, "source", 1, host_loop[g].source)
static const field_spec host_loop_v0[] = {HOST_LOOP_FIELDS(ENGINE_FWV_V0)};
static const field_spec host_loop_v06[] = {HOST_LOOP_FIELDS(ENGINE_FWV_V06)};
static const field_spec host_loop_v1[] = {HOST_LOOP_FIELDS(ENGINE_FWV_V1)};
static const field_spec host_loop_fields[] = {
    { "v0", FK_OBJ, 0, FR_NONNEG, 0, 1, 0, 0, host_loop_v0, N_OF(host_loop_v0), NULL },
    { "v0.6", FK_OBJ, 0, FR_NONNEG, 0, 1, 0, 0, host_loop_v06, N_OF(host_loop_v06), NULL },
    { "v1", FK_OBJ, 0, FR_NONNEG, 0, 1, 0, 0, host_loop_v1, N_OF(host_loop_v1), NULL },
};
/* memory_reserve: SGLang's mem_fraction_static rule (engine_mem_reserve). */
static const field_spec reserve_fields[] = {
    FN("base_mib", 1, FR_POS, 1e7, 1, reserve.base_mib),
    FN("chunk_token_mib", 1, FR_NONNEG, 1e3, 1, reserve.chunk_token_mib),
    FN("graph_seq_mib", 1, FR_NONNEG, 1e3, 1, reserve.graph_seq_mib),
    FN("group_mib", 1, FR_NONNEG, 1e7, 1, reserve.group_mib),
    FN("dp_attn_mib", 0, FR_NONNEG, 1e3, 1, reserve.dp_attn_mib),
    FN("dp_attn_big_mib", 0, FR_NONNEG, 1e3, 1, reserve.dp_attn_big_mib),
    FN("piecewise_mib", 0, FR_NONNEG, 1e4, 1, reserve.piecewise_mib),
    FN("floor_mib", 0, FR_NONNEG, 1e7, 1, reserve.floor_mib),
    FN("floor_above_gib", 0, FR_NONNEG, 1e6, 1, reserve.floor_above_gib),
    FN("eagle_mib", 0, FR_NONNEG, 1e7, 1, reserve.eagle_mib),
    FN("draft_mib", 0, FR_NONNEG, 1e7, 1, reserve.draft_mib),
};
/* gpu_tiers.t0..t5: serving defaults by GPU memory (engine_fw_tier). */
#define TIER_INT(key, max, member, t) \
    { key, FK_INT, 0, FR_NONNEG, max, 1, offsetof(engine_framework, tier[t].member), 0, NULL, 0, NULL }
#define TIER_FIELDS(t) \
    FN("below_gib", 0, FR_NONNEG, 1e6, 1, tier[t].below_gib), \
    TIER_INT("max_num_tokens", 100000000, max_num_tokens, t), \
    TIER_INT("max_num_seqs", 16777216, max_num_seqs, t), \
    TIER_INT("graph_bs", 16777216, graph_bs, t), \
    TIER_INT("graph_bs_tp4", 16777216, graph_bs_tp4, t)
static const field_spec tier0_fields[] = {TIER_FIELDS(0)};
static const field_spec tier1_fields[] = {TIER_FIELDS(1)};
static const field_spec tier2_fields[] = {TIER_FIELDS(2)};
static const field_spec tier3_fields[] = {TIER_FIELDS(3)};
static const field_spec tier4_fields[] = {TIER_FIELDS(4)};
static const field_spec tier5_fields[] = {TIER_FIELDS(5)};
#define TIER(name, f) { name, FK_OBJ, 0, FR_NONNEG, 0, 1, 0, 0, f, N_OF(f), NULL }
static const field_spec tier_fields[] = {
    TIER("t0", tier0_fields), TIER("t1", tier1_fields), TIER("t2", tier2_fields),
    TIER("t3", tier3_fields), TIER("t4", tier4_fields), TIER("t5", tier5_fields),
};
static const field_spec framework_fields[] = {
    STR(engine_framework, "display", 0, display),
    STR(engine_framework, "source", 1, source),
    NOTE,
    { "cuda_graphs", FK_BOOL, 1, FR_NONNEG, 0, 1, offsetof(engine_framework, cuda_graphs), 0, NULL, 0, NULL },
    { "overlap", FK_BOOL, 1, FR_NONNEG, 0, 1, offsetof(engine_framework, overlap), 0, NULL, 0, NULL },
    { "attn_fused", FK_BOOL, 1, FR_NONNEG, 0, 1, offsetof(engine_framework, attn_fused), 0, NULL, 0, NULL },
    FN("launch_us", 1, FR_NONNEG, 1000000, 1e-6, launch_s),
    FN("prefill_launch_us", 0, FR_NONNEG, 1000000, 1e-6, prefill_launch_s),
    FN("graph_kernel_us", 0, FR_NONNEG, 1000000, 1e-6, graph_kernel_s),
    { "prefill_graphs", FK_BOOL, 0, FR_NONNEG, 0, 1, offsetof(engine_framework, prefill_graphs), 0, NULL, 0, NULL },
    { "prefill_graph_tokens", FK_INT, 0, FR_NONNEG, 100000000, 1, offsetof(engine_framework, prefill_graph_tokens), 0, NULL, 0, NULL },
    { "prefill_graph_mla_tokens", FK_INT, 0, FR_NONNEG, 100000000, 1, offsetof(engine_framework, prefill_graph_mla_tokens), 0, NULL, 0, NULL },
    FN("step_us", 1, FR_NONNEG, 1e9, 1e-6, step_s),
    FN("seq_step_us", 0, FR_NONNEG, 1e9, 1e-6, seq_step_s),
    FN("request_us", 0, FR_NONNEG, 1e9, 1e-6, request_s),
    { "max_num_tokens", FK_INT, 0, FR_NONNEG, 100000000, 1, offsetof(engine_framework, max_num_tokens), 0, NULL, 0, NULL },
    FN("custom_allreduce_max_bytes", 0, FR_NONNEG, 1e12, 1, custom_ar_max_bytes),
    FN("custom_allreduce_us", 0, FR_NONNEG, 1000000, 1e-6, custom_ar_s),
    { "two_batch_overlap", FK_BOOL, 0, FR_NONNEG, 0, 1, offsetof(engine_framework, tbo), 0, NULL, 0, NULL },
    { "fuse_allreduce_norm", FK_BOOL, 0, FR_NONNEG, 0, 1, offsetof(engine_framework, fuse_ar_norm), 0, NULL, 0, NULL },
    ENUM(engine_framework, "memory_rule", 1, mem_rule, MEM_RULE_CHOICES, N_OF(MEM_RULE_CHOICES)),
    FN("memory_fraction", 1, FR_FRAC, 1, 1, mem_fraction),
    FN("runtime_gb", 1, FR_NONNEG, 100000, 1e9, runtime_bytes),
    { "memory_reserve", FK_OBJ, 0, FR_NONNEG, 0, 1, 0, 0, reserve_fields, N_OF(reserve_fields), NULL },
    { "gpu_tiers", FK_OBJ, 0, FR_NONNEG, 0, 1, 0, 0, tier_fields, N_OF(tier_fields), NULL },
    STR(engine_framework, "gpu_tier_exclude", 0, tier_exclude),
    { "max_num_seqs", FK_INT, 0, FR_NONNEG, 16777216, 1, offsetof(engine_framework, max_num_seqs), 0, NULL, 0, NULL },
    { "req_pool_per_context", FK_INT, 0, FR_NONNEG, 16777216, 1, offsetof(engine_framework, req_pool_per_context), 0, NULL, 0, NULL },
    { "req_pool_min", FK_INT, 0, FR_NONNEG, 16777216, 1, offsetof(engine_framework, req_pool_min), 0, NULL, 0, NULL },
    { "chunked_prefill", FK_BOOL, 0, FR_NONNEG, 0, 1, offsetof(engine_framework, chunked_prefill), 0, NULL, 0, NULL },
    { "admit_lag", FK_BOOL, 0, FR_NONNEG, 0, 1, offsetof(engine_framework, admit_lag), 0, NULL, 0, NULL },
    ENUM(engine_framework, "kv_alloc", 0, kv_alloc, KV_ALLOC_CHOICES, N_OF(KV_ALLOC_CHOICES)),
    { "graph_capture_max", FK_INT, 0, FR_NONNEG, 16777216, 1, offsetof(engine_framework, graph_capture_max), 0, NULL, 0, NULL },
    FN("graph_capture_seqs", 0, FR_NONNEG, 1000, 1, graph_capture_seqs),
    { "prefill_alone", FK_BOOL, 0, FR_NONNEG, 0, 1, offsetof(engine_framework, prefill_alone), 0, NULL, 0, NULL },
    { "dp_attention_split_chunk", FK_BOOL, 0, FR_NONNEG, 0, 1, offsetof(engine_framework, dp_attn_split_chunk), 0, NULL, 0, NULL },
    FN("moe_w4a16_fixed_us", 0, FR_NONNEG, 1000000, 1e-6, moe_w4a16_fixed_s),
    { "sampler_kernels", FK_INT, 0, FR_NONNEG, 10000, 1, offsetof(engine_framework, sampler_kernels), 0, NULL, 0, NULL },
    FN("sampler_passes", 0, FR_NONNEG, 10000, 1, sampler_passes),
    { "top_p_kernels", FK_INT, 0, FR_NONNEG, 10000, 1, offsetof(engine_framework, top_p_kernels), 0, NULL, 0, NULL },
    FN("top_p_passes", 0, FR_NONNEG, 10000, 1, top_p_passes),
    { "penalty_kernels", FK_INT, 0, FR_NONNEG, 10000, 1, offsetof(engine_framework, penalty_kernels), 0, NULL, 0, NULL },
    FN("penalty_passes", 0, FR_NONNEG, 10000, 1, penalty_passes),
    { "host_loop", FK_OBJ, 0, FR_NONNEG, 0, 1, 0, 0, host_loop_fields, N_OF(host_loop_fields), NULL },
    { "deepgemm", FK_BOOL, 0, FR_NONNEG, 0, 1, offsetof(engine_framework, deepgemm), 0, NULL, 0, NULL },
    { "decode_attn_xqa", FK_BOOL, 0, FR_NONNEG, 0, 1, offsetof(engine_framework, decode_attn_xqa), 0, NULL, 0, NULL },
    { "moe_expand", FK_BOOL, 0, FR_NONNEG, 0, 1, offsetof(engine_framework, moe_expand), 0, NULL, 0, NULL },
    { "local_kv_full", FK_BOOL, 0, FR_NONNEG, 0, 1, offsetof(engine_framework, local_kv_full), 0, NULL, 0, NULL },
    { "parallel_ar_once", FK_BOOL, 0, FR_NONNEG, 0, 1, offsetof(engine_framework, parallel_ar_once), 0, NULL, 0, NULL },
};

/* --- error context ---------------------------------------------------- */

typedef struct load_ctx {
    preset_db *db;
    const char *file;
    int errors;   /* lines added for this file */
    int oom;
} load_ctx;

static void db_add_error(preset_db *db, const char *msg)
{
    if (db->n_errors >= PRESET_MAX_ERRORS)
        return;
    if (db->n_errors == PRESET_MAX_ERRORS - 1) {
        snprintf(db->errors[db->n_errors++], ENGINE_ERROR_MAX,
                 "(further errors not shown)");
        return;
    }
    snprintf(db->errors[db->n_errors], ENGINE_ERROR_MAX, "%s", msg);
    preset_util_one_line(db->errors[db->n_errors++]);
}

static void ctx_error(load_ctx *c, const char *msg)
{
    db_add_error(c->db, msg);
    c->errors++;
}

/* --- unknown-key suggestions ----------------------------------------- */

/* The name among n records of `stride` bytes, each starting with its name
 * (a const char *), closest to key within two edits; NULL when none is.  One
 * walk for a plain name table (stride sizeof(char *)) and a field table. */
static const char *suggest_in(const char *key, const void *first, size_t stride, int n)
{
    const char *best = NULL;
    int bd = 3;
    for (int i = 0; i < n; i++) {
        const char *name = *(const char *const *)((const char *)first + (size_t)i * stride);
        int d = engine_edit_distance(key, name);
        if (d < bd) {
            bd = d;
            best = name;
        }
    }
    return best;
}

static const char *suggest(const char *key, const char *const *names, int n)
{
    return suggest_in(key, names, sizeof *names, n);
}

/* Every key of the table is a candidate (the frameworks table has about 50). */
static const char *suggest_field(const char *key, const field_spec *spec, int n)
{
    return suggest_in(key, spec, sizeof *spec, n);
}

/* Keys an earlier release read and this one does not, with what replaced
 * them, so that a user's own preset file of that release is told where its
 * key went rather than only that it is unknown. */
static const struct {
    const char *key, *now;
} RETIRED[] = {
    /* frameworks.json, session 27 (1cd41bb): one gpu_tiers table */
    {"large_gpu_gib", "gpu_tiers (a tier's below_gib)"},
    {"large_gpu_exclude", "gpu_tier_exclude"},
    {"large_max_num_seqs", "gpu_tiers (a tier's max_num_seqs)"},
    {"large_max_num_tokens", "gpu_tiers (a tier's max_num_tokens)"},
    {"serve_max_num_tokens", "gpu_tiers (a tier's max_num_tokens)"},
    {"graph_capture_small_tp", "gpu_tiers (a tier's graph_bs and graph_bs_tp4)"},
    {"small_gpu_tiers", "gpu_tiers"},
};

static const char *retired_key(const char *key)
{
    for (size_t i = 0; i < sizeof RETIRED / sizeof RETIRED[0]; i++)
        if (!strcmp(RETIRED[i].key, key))
            return RETIRED[i].now;
    return NULL;
}

/* --- applying a field table ------------------------------------------ */

/* Check one value against its spec and store it.  On failure writes
 * "field: reason" into why. */
static int apply_value(const cJSON *it, const field_spec *f, const char *path,
                       char *target, char *why, size_t wl);

/* Apply every key of obj to target.  prefix ("", "moe.") names nested keys
 * in messages.  0 ok, -1 with why = "field: reason". */
static int apply_fields(const cJSON *obj, const field_spec *spec, int n,
                        const char *prefix, char *target, char *why, size_t wl)
{
    /* Unknown and duplicate keys first: a typo should be named as such
     * rather than as the missing field it was meant to be. */
    for (const cJSON *it = obj->child; it; it = it->next) {
        const char *key = it->string ? it->string : "";
        int known = 0;
        for (int i = 0; i < n; i++)
            if (!strcmp(spec[i].key, key))
                known = 1;
        if (!known) {
            const char *s = suggest_field(key, spec, n);
            const char *now = retired_key(key);
            if (now)
                snprintf(why, wl, "%s%s: unknown key (retired: now %s)", prefix, key, now);
            else if (s)
                snprintf(why, wl, "%s%s: unknown key (did you mean %s?)", prefix, key, s);
            else
                snprintf(why, wl, "%s%s: unknown key", prefix, key);
            return -1;
        }
        for (const cJSON *p = obj->child; p != it; p = p->next)
            if (p->string && !strcmp(p->string, key)) {
                snprintf(why, wl, "%s%s: duplicate key", prefix, key);
                return -1;
            }
    }
    for (int i = 0; i < n; i++) {
        const field_spec *f = &spec[i];
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, f->key);
        char path[96];
        snprintf(path, sizeof path, "%.40s%.40s", prefix, f->key);
        if (!it) {
            if (f->required) {
                snprintf(why, wl, "%s: missing required field", path);
                return -1;
            }
            continue;
        }
        if (apply_value(it, f, path, target, why, wl) != 0)
            return -1;
    }
    return 0;
}

/* "curves": {"allreduce": {"gpus": 8, "us": [[bytes, us], ...]}, ...}:
 * measured times of one collective at ascending sizes on `gpus` GPUs. */
static int parse_curves(const cJSON *it, const char *path, engine_curve *out, char *why,
                        size_t wl)
{
    if (!cJSON_IsObject(it)) {
        snprintf(why, wl, "%s: expected an object of collectives, got %s", path,
                 preset_util_type_name(it));
        return -1;
    }
    for (const cJSON *c = it->child; c; c = c->next) {
        engine_collective op;
        const char *key = c->string ? c->string : "";
        if (engine_collective_parse(key, &op) != 0) {
            snprintf(why, wl,
                     "%s.%.40s: unknown collective (expected allreduce, allgather, "
                     "reducescatter, alltoall or p2p)",
                     path, key);
            return -1;
        }
        const cJSON *gpus = cJSON_GetObjectItemCaseSensitive(c, "gpus");
        const cJSON *pts = cJSON_GetObjectItemCaseSensitive(c, "us");
        if (!cJSON_IsObject(c) || !cJSON_IsNumber(gpus) || !cJSON_IsArray(pts)) {
            snprintf(why, wl, "%s.%s: expected {\"gpus\": N, \"us\": [[bytes, us], ...]}",
                     path, key);
            return -1;
        }
        for (const cJSON *k = c->child; k; k = k->next)
            if (!k->string || (strcmp(k->string, "gpus") && strcmp(k->string, "us") &&
                               strcmp(k->string, "source"))) {
                snprintf(why, wl, "%s.%s.%.40s: unknown key (expected gpus, us, source)", path,
                         key, k->string ? k->string : "");
                return -1;
            }
        double g = gpus->valuedouble;
        if (!(g >= 2 && g <= 100000) || g != floor(g)) {
            snprintf(why, wl, "%s.%s.gpus: expected an integer 2..100000", path, key);
            return -1;
        }
        engine_curve cv;
        memset(&cv, 0, sizeof cv);
        cv.gpus = (int)g;
        int i = 0;
        for (const cJSON *p = pts->child; p; p = p->next, i++) {
            if (i >= ENGINE_CURVE_MAX) {
                snprintf(why, wl, "%s.%s.us: more than %d points", path, key, ENGINE_CURVE_MAX);
                return -1;
            }
            const cJSON *b = cJSON_GetArrayItem(p, 0), *t = cJSON_GetArrayItem(p, 1);
            if (!cJSON_IsArray(p) || cJSON_GetArraySize(p) != 2 || !cJSON_IsNumber(b) ||
                !cJSON_IsNumber(t) || !(b->valuedouble > 0) || !(t->valuedouble > 0) ||
                !isfinite(b->valuedouble) || !isfinite(t->valuedouble)) {
                snprintf(why, wl, "%s.%s.us[%d]: expected [bytes > 0, microseconds > 0]", path,
                         key, i);
                return -1;
            }
            if (i > 0 && !(b->valuedouble > cv.bytes[i - 1])) {
                snprintf(why, wl, "%s.%s.us[%d]: sizes must ascend", path, key, i);
                return -1;
            }
            cv.bytes[i] = b->valuedouble;
            cv.time_s[i] = t->valuedouble * 1e-6;
        }
        if (i < 2) {
            snprintf(why, wl, "%s.%s.us: expected at least 2 points", path, key);
            return -1;
        }
        cv.n = i;
        out[op] = cv;
    }
    return 0;
}

/* 0 when it is a JSON string, else -1 with why = "PATH: expected a string, got TYPE". */
static int want_string(const cJSON *it, const char *path, char *why, size_t wl)
{
    if (cJSON_IsString(it))
        return 0;
    snprintf(why, wl, "%s: expected a string, got %s", path, preset_util_type_name(it));
    return -1;
}

static int apply_int(const cJSON *it, const field_spec *f, const char *path, char *target,
                     char *why, size_t wl)
{
    char r[160];
    int v;
    if (preset_util_check_int(it, f->range == FR_POS ? 1 : 0, f->hi, &v, r, sizeof r) != 0) {
        snprintf(why, wl, "%s: %s", path, r);
        return -1;
    }
    memcpy(target + f->off, &v, sizeof v);
    return 0;
}

/* The range check of an FK_NUM value v (num: v as the file wrote it). */
static int check_num_range(const field_spec *f, double v, const char *num, const char *path,
                           char *why, size_t wl)
{
    if (isnan(v)) {
        snprintf(why, wl, "%s: expected a number, got nan", path);
        return -1;
    }
    if (f->range == FR_FRAC && !(v > 0 && v <= 1)) {
        snprintf(why, wl, "%s: expected a number in (0, 1], got %s", path, num);
        return -1;
    }
    if (f->range == FR_POS && !(v > 0)) {
        snprintf(why, wl, "%s: expected a positive number, got %s", path, num);
        return -1;
    }
    if (f->range == FR_NONNEG && !(v >= 0)) {
        snprintf(why, wl, "%s: expected a number >= 0, got %s", path, num);
        return -1;
    }
    if (v > f->hi) {
        char hs[40];
        preset_util_format_number(f->hi, hs, sizeof hs);
        snprintf(why, wl, "%s: expected at most %s, got %s", path, hs, num);
        return -1;
    }
    return 0;
}

static int apply_num(const cJSON *it, const field_spec *f, const char *path, char *target,
                     char *why, size_t wl)
{
    char num[40];
    if (!cJSON_IsNumber(it)) {
        snprintf(why, wl, "%s: expected a number, got %s", path, preset_util_type_name(it));
        return -1;
    }
    double v = it->valuedouble;
    preset_util_format_number(v, num, sizeof num);
    if (check_num_range(f, v, num, path, why, wl) != 0)
        return -1;
    double s = v * f->scale;
    memcpy(target + f->off, &s, sizeof s);
    return 0;
}

static int apply_bool(const cJSON *it, const field_spec *f, const char *path, char *target,
                      char *why, size_t wl)
{
    if (!cJSON_IsBool(it)) {
        snprintf(why, wl, "%s: expected true or false, got %s", path,
                 preset_util_type_name(it));
        return -1;
    }
    int v = cJSON_IsTrue(it) ? 1 : 0;
    memcpy(target + f->off, &v, sizeof v);
    return 0;
}

static int apply_str(const cJSON *it, const field_spec *f, const char *path, char *target,
                     char *why, size_t wl)
{
    if (want_string(it, path, why, wl) != 0)
        return -1;
    size_t len = strlen(it->valuestring);
    if (f->required && len == 0) {
        snprintf(why, wl, "%s: expected a non-empty string", path);
        return -1;
    }
    if (len >= f->cap) {
        snprintf(why, wl, "%s: longer than %zu characters", path, f->cap - 1);
        return -1;
    }
    memcpy(target + f->off, it->valuestring, len + 1);
    return 0;
}

static int apply_mlp(const cJSON *it, const field_spec *f, const char *path, char *target,
                     char *why, size_t wl)
{
    static const char *const gated[] = { "swiglu", "geglu" };
    static const char *const plain[] = { "gelu", "relu" };
    if (want_string(it, path, why, wl) != 0)
        return -1;
    int v = -1;
    for (int i = 0; i < 2; i++) {
        if (!strcmp(it->valuestring, gated[i]))
            v = 1;
        if (!strcmp(it->valuestring, plain[i]))
            v = 0;
    }
    if (v < 0) {
        snprintf(why, wl,
                 "%s: expected \"swiglu\", \"geglu\", \"gelu\" or \"relu\", got \"%.40s\"",
                 path, it->valuestring);
        return -1;
    }
    memcpy(target + f->off, &v, sizeof v);
    return 0;
}

static int apply_enum(const cJSON *it, const field_spec *f, const char *path, char *target,
                      char *why, size_t wl)
{
    if (want_string(it, path, why, wl) != 0)
        return -1;
    for (int i = 0; i < f->nsub; i++)
        if (!strcmp(it->valuestring, f->choices[i])) {
            memcpy(target + f->off, &i, sizeof i);
            return 0;
        }
    char list[160] = "";
    for (int i = 0; i < f->nsub; i++) {
        size_t u = strlen(list);
        const char *sep = i == 0 ? "" : i == f->nsub - 1 ? " or " : ", ";
        snprintf(list + u, sizeof list - u, "%s\"%s\"", sep, f->choices[i]);
    }
    snprintf(why, wl, "%s: expected %s, got \"%.40s\"", path, list, it->valuestring);
    return -1;
}

static int apply_obj(const cJSON *it, const field_spec *f, const char *path, char *target,
                     char *why, size_t wl)
{
    if (!cJSON_IsObject(it)) {
        snprintf(why, wl, "%s: expected an object, got %s", path, preset_util_type_name(it));
        return -1;
    }
    char pre[104];
    snprintf(pre, sizeof pre, "%.80s.", path);
    return apply_fields(it, f->sub, f->nsub, pre, target, why, wl);
}

static int apply_value(const cJSON *it, const field_spec *f, const char *path,
                       char *target, char *why, size_t wl)
{
    switch (f->kind) {
    case FK_INT:
        return apply_int(it, f, path, target, why, wl);
    case FK_NUM:
        return apply_num(it, f, path, target, why, wl);
    case FK_BOOL:
        return apply_bool(it, f, path, target, why, wl);
    case FK_STR:
        return apply_str(it, f, path, target, why, wl);
    case FK_MLP:
        return apply_mlp(it, f, path, target, why, wl);
    case FK_NOTE:
        return want_string(it, path, why, wl);
    case FK_ENUM:
        return apply_enum(it, f, path, target, why, wl);
    case FK_CURVES:
        return parse_curves(it, path, (engine_curve *)(void *)(target + f->off), why, wl);
    case FK_OBJ:
        return apply_obj(it, f, path, target, why, wl);
    }
    return -1;
}

/* --- consistency ------------------------------------------------------ */

/* Ranges and consistency of a filled model; why = "field: reason". */
int preset_moe_groups_check(const engine_model *m, const char *kg, const char *kt, char *why,
                            size_t wl)
{
    if (!m->n_group && !m->topk_group)
        return 0;
    if (m->n_group < 1 || m->experts % m->n_group != 0) {
        snprintf(why, wl, "%s: expected a positive divisor of the experts (%d), got %d", kg,
                 m->experts, m->n_group);
        return -1;
    }
    if (m->topk_group < 1 || m->topk_group > m->n_group) {
        snprintf(why, wl, "%s: expected 1..%s (%d), got %d", kt, kg, m->n_group, m->topk_group);
        return -1;
    }
    if ((long long)m->topk_group * (m->experts / m->n_group) < m->top_k) {
        snprintf(why, wl, "%s: %d groups of %d experts hold fewer than the top-k (%d)", kt,
                 m->topk_group, m->experts / m->n_group, m->top_k);
        return -1;
    }
    return 0;
}

static int model_check_why(const engine_model *m, char *why, size_t wl)
{
    struct { const char *name; int v; } pos[] = {
        { "layers", m->layers }, { "hidden", m->hidden }, { "heads", m->heads },
        { "kv_heads", m->kv_heads }, { "head_dim", m->head_dim },
        { "ffn", m->ffn }, { "vocab", m->vocab }, { "context", m->context },
    };
    for (int i = 0; i < N_OF(pos); i++)
        if (pos[i].v < 1) {
            snprintf(why, wl, "%s: expected a positive integer, got %d", pos[i].name,
                     pos[i].v);
            return -1;
        }
    if (m->kv_heads > m->heads || m->heads % m->kv_heads != 0) {
        snprintf(why, wl, "kv_heads: %d does not divide heads (%d)", m->kv_heads,
                 m->heads);
        return -1;
    }
    if (m->experts > 0) {
        if (m->top_k < 1) {
            snprintf(why, wl, "moe.top_k: expected a positive integer, got %d", m->top_k);
            return -1;
        }
        if (m->top_k > m->experts) {
            snprintf(why, wl, "moe.top_k: expected at most experts (%d), got %d",
                     m->experts, m->top_k);
            return -1;
        }
        if (m->dense_layers >= m->layers) {
            snprintf(why, wl, "moe.dense_layers: expected fewer than layers (%d), got %d",
                     m->layers, m->dense_layers);
            return -1;
        }
        if (preset_moe_groups_check(m, "moe.n_group", "moe.topk_group", why, wl) != 0)
            return -1;
    } else if (m->experts < 0 || m->top_k || m->shared_experts || m->moe_ffn ||
               m->dense_layers || m->moe_every || m->n_group || m->topk_group) {
        snprintf(why, wl, "moe.experts: expected a positive integer, got %d", m->experts);
        return -1;
    }
    if (m->mla && (m->kv_lora_rank < 1 || m->qk_nope_dim < 1 || m->v_head_dim < 1 ||
                   m->qk_rope_dim < 0 || m->q_lora_rank < 0)) {
        snprintf(why, wl, "mla: kv_lora_rank, qk_nope_dim and v_head_dim must be positive");
        return -1;
    }
    if (!(m->params_published >= 0) || !(m->active_params_published >= 0)) {
        snprintf(why, wl, "params_published: expected a number >= 0");
        return -1;
    }
    if (m->params_published > 0 && m->active_params_published > m->params_published) {
        char a[40], b[40];
        preset_util_format_number(m->params_published, a, sizeof a);
        preset_util_format_number(m->active_params_published, b, sizeof b);
        snprintf(why, wl, "active_params_published: expected at most params_published (%s), got %s",
                 a, b);
        return -1;
    }
    return 0;
}

int preset_model_check(const engine_model *m, const char *where, engine_error *err)
{
    char why[ENGINE_ERROR_MAX];
    if (!m) {
        engine_errorf(err, "%s: no model", where ? where : "model");
        return -1;
    }
    if (model_check_why(m, why, sizeof why) != 0) {
        engine_errorf(err, "%s: %s", where ? where : m->name, why);
        return -1;
    }
    return 0;
}

/* --- one entry per section -------------------------------------------- */

static int parse_model(const cJSON *obj, const char *name, engine_model *m,
                       char *why, size_t wl)
{
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", name);
    if (apply_fields(obj, model_fields, N_OF(model_fields), "", (char *)m, why, wl))
        return -1;
    if (!m->display[0])
        snprintf(m->display, sizeof m->display, "%s", name);
    if (cJSON_GetObjectItemCaseSensitive(obj, "mla"))
        m->mla = 1;
    if (cJSON_GetObjectItemCaseSensitive(obj, "weights"))
        m->has_weight_dtype = 1;
    if (!cJSON_GetObjectItemCaseSensitive(obj, "kv_heads"))
        m->kv_heads = m->heads;
    if (!cJSON_GetObjectItemCaseSensitive(obj, "head_dim")) {
        if (m->hidden % m->heads != 0) {
            snprintf(why, wl, "head_dim: missing, and hidden (%d) is not divisible by heads (%d)",
                     m->hidden, m->heads);
            return -1;
        }
        m->head_dim = m->hidden / m->heads;
    }
    return model_check_why(m, why, wl);
}

static int parse_gpu(const cJSON *obj, const char *name, engine_gpu *g,
                     char *why, size_t wl)
{
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->eta_compute = DEFAULT_ETA_COMPUTE;
    g->eta_memory = DEFAULT_ETA_MEMORY;
    if (apply_fields(obj, gpu_fields, N_OF(gpu_fields), "", (char *)g, why, wl))
        return -1;
    if (!g->display[0])
        snprintf(g->display, sizeof g->display, "%s", name);
    if (g->price_per_hour > 0 && !g->price_date[0]) {
        snprintf(why, wl, "price_date: missing (required when price_usd_per_hour is above 0)");
        return -1;
    }
    /* the p-norm of kconst_experts: below 1 it is no norm (and overflows) */
    if (g->moe_roof_p > 0 && g->moe_roof_p < 1) {
        snprintf(why, wl, "moe_roof_p: expected 0 (the max) or a number in [1, 16], got %g",
                 g->moe_roof_p);
        return -1;
    }
    if (g->gemm_roof_p_fp8_block > 0 && g->gemm_roof_p_fp8_block < 1) {
        snprintf(why, wl,
                 "gemm_roof_p_fp8_block: expected 0 (the max) or a number in [1, 16], got %g",
                 g->gemm_roof_p_fp8_block);
        return -1;
    }
    return 0;
}

static int parse_link(const cJSON *obj, const char *name, engine_link *l,
                      char *why, size_t wl)
{
    memset(l, 0, sizeof *l);
    snprintf(l->name, sizeof l->name, "%s", name);
    if (apply_fields(obj, link_fields, N_OF(link_fields), "", (char *)l, why, wl))
        return -1;
    if (!l->display[0])
        snprintf(l->display, sizeof l->display, "%s", name);
    return 0;
}

/* gpu_tiers: t0, t1, ... without a gap, each bound above the one before;
 * only the last, not t0, may go without one (every larger GPU). */
static int check_tiers(const cJSON *obj, const engine_framework *f, char *why, size_t wl)
{
    const cJSON *tiers = cJSON_GetObjectItemCaseSensitive(obj, "gpu_tiers");
    int last = -1;
    for (int t = 0; tiers && t < ENGINE_FW_TIERS; t++) {
        char key[3] = {'t', (char)('0' + t), 0};
        if (!cJSON_GetObjectItemCaseSensitive(tiers, key))
            continue;
        if (last != t - 1) {
            snprintf(why, wl, "gpu_tiers.t%d: expected t%d before it", t, last + 1);
            return -1;
        }
        last = t;
    }
    for (int t = 0; t <= last; t++) {
        double b = f->tier[t].below_gib, prev = t > 0 ? f->tier[t - 1].below_gib : 0;
        if (!(b > 0) && (t == 0 || t < last)) {
            snprintf(why, wl, "gpu_tiers.t%d.below_gib: expected a bound in GiB (only the last tier may go without)", t);
            return -1;
        }
        if (b > 0 && t > 0 && !(b > prev)) {
            snprintf(why, wl, "gpu_tiers.t%d.below_gib: expected above t%d's (%g), got %g", t, t - 1,
                     prev, b);
            return -1;
        }
    }
    return 0;
}

static int parse_framework(const cJSON *obj, const char *name, engine_framework *f,
                           char *why, size_t wl)
{
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    if (apply_fields(obj, framework_fields, N_OF(framework_fields), "", (char *)f, why, wl))
        return -1;
    const cJSON *hl = cJSON_GetObjectItemCaseSensitive(obj, "host_loop");
    for (int g = ENGINE_FWV_DEFAULT + 1; hl && g < ENGINE_FWV_COUNT; g++)
        f->host_loop[g].set =
            cJSON_GetObjectItemCaseSensitive(hl, engine_fw_version_name((engine_fw_version)g)) != NULL;
    if (check_tiers(obj, f, why, wl))
        return -1;
    if (!f->display[0])
        snprintf(f->display, sizeof f->display, "%s", name);
    return 0;
}

/* --- merging by name -------------------------------------------------- */

/* The kinds, in the order of the sections and of db->alloc and db->names. */
enum { KIND_MODEL, KIND_GPU, KIND_LINK, KIND_FRAMEWORK, N_KINDS };

static const char *model_name(const void *db, int i)
{
    return ((const preset_db *)db)->models[i].name;
}
static const char *gpu_name(const void *db, int i)
{
    return ((const preset_db *)db)->gpus[i].name;
}
static const char *link_name(const void *db, int i)
{
    return ((const preset_db *)db)->links[i].name;
}
static const char *framework_name(const void *db, int i)
{
    return ((const preset_db *)db)->frameworks[i].name;
}
static const preset_index_name_fn NAME_OF[N_KINDS] = {model_name, gpu_name, link_name,
                                                      framework_name};

/* The count of a kind, and the address and size of its entry i. */
static int *kind_count(preset_db *db, int kind)
{
    int *n[N_KINDS] = {&db->n_models, &db->n_gpus, &db->n_links, &db->n_frameworks};
    return n[kind];
}

static char *kind_entry(preset_db *db, int kind, int i, size_t *size)
{
    switch (kind) {
    case KIND_MODEL: *size = sizeof *db->models; return (char *)&db->models[i];
    case KIND_GPU: *size = sizeof *db->gpus; return (char *)&db->gpus[i];
    case KIND_LINK: *size = sizeof *db->links; return (char *)&db->links[i];
    default: *size = sizeof *db->frameworks; return (char *)&db->frameworks[i];
    }
}

#define GROW(arr, cap)                                            \
    do {                                                          \
        void *p_ = realloc((arr), sizeof *(arr) * (size_t)(cap)); \
        if (!p_)                                                  \
            return -1;                                            \
        (arr) = p_;                                               \
    } while (0)

/* Double a kind's array (and the GPUs' file names with it): adding n
 * entries copies O(n) bytes, not O(n^2).  0 ok, -1 out of memory. */
static int kind_grow(preset_db *db, int kind)
{
    int cap = db->alloc[kind] ? db->alloc[kind] * 2 : 16;
    if (kind == KIND_MODEL)
        GROW(db->models, cap);
    else if (kind == KIND_GPU) {
        GROW(db->gpus, cap);
        GROW(db->gpu_files, cap);
    } else if (kind == KIND_LINK)
        GROW(db->links, cap);
    else
        GROW(db->frameworks, cap);
    db->alloc[kind] = cap;
    return 0;
}

/* Add item (an engine struct of the kind, named name) or replace the
 * entry of that name (case-insensitive) whole.  file: where a GPU came
 * from.  0 ok, -1 out of memory (the db is unchanged). */
static int db_put(preset_db *db, int kind, const char *name, const void *item, const char *file)
{
    size_t size;
    int *n = kind_count(db, kind);
    int i = preset_index_find(&db->names[kind], name, NAME_OF[kind], db);
    int fresh = i < 0;
    if (fresh) {
        if (*n >= db->alloc[kind] && kind_grow(db, kind) != 0)
            return -1;
        i = *n;
    }
    char *at = kind_entry(db, kind, i, &size);
    memcpy(at, item, size);
    if (fresh) {
        if (preset_index_add(&db->names[kind], i, NAME_OF[kind], db) != 0)
            return -1;
        (*n)++;
    }
    if (kind == KIND_GPU)
        snprintf(db->gpu_files[i], sizeof db->gpu_files[i], "%s", file);
    return 0;
}

/* --- a whole file ------------------------------------------------------- */

static const char *const section_names[] = { "models", "gpus", "links", "frameworks" };
#define N_SECTIONS 4

static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= ENGINE_NAME_MAX)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
                 c == '+';
        if (!ok)
            return 0;
    }
    return 1;
}

/* Record (msg non-NULL) or forget (msg NULL: a later file loaded the name)
 * the rejected override of `name`.  Only names already loaded count: a
 * rejected new name is simply absent. */
static void note_override(preset_db *db, int kind, const char *name, const char *msg)
{
    int i = 0;
    while (i < db->n_rejected && !(!strcmp(db->rejected[i].section, section_names[kind]) &&
                                   !strcasecmp(db->rejected[i].name, name)))
        i++;
    if (!msg) {
        if (i < db->n_rejected)
            db->rejected[i] = db->rejected[--db->n_rejected];
        return;
    }
    if (preset_index_find(&db->names[kind], name, NAME_OF[kind], db) < 0 ||
        (i == db->n_rejected && i >= PRESET_MAX_ERRORS))
        return;
    preset_rejected *r = &db->rejected[i];
    snprintf(r->section, sizeof r->section, "%s", section_names[kind]);
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->msg, sizeof r->msg, "%s", msg);
    preset_util_one_line(r->msg);
    if (i == db->n_rejected)
        db->n_rejected++;
}

const char *preset_rejected_override(const preset_db *db, const char *section,
                                     const char *name)
{
    for (int i = 0; db && section && name && i < db->n_rejected; i++)
        if (!strcmp(db->rejected[i].section, section) && !strcasecmp(db->rejected[i].name, name))
            return db->rejected[i].msg;
    return NULL;
}

/* Parse one entry (an object) of a kind into the db; a rejected entry
 * adds one line naming file, entry and field. */
static void load_entry(load_ctx *c, const cJSON *it, const char *name, int kind)
{
    char msg[ENGINE_ERROR_MAX], why[ENGINE_ERROR_MAX - 64];
    int rc = 0, put = 0;
    if (kind == KIND_MODEL) {
        engine_model m;
        rc = parse_model(it, name, &m, why, sizeof why);
        if (!rc)
            put = db_put(c->db, kind, m.name, &m, c->file);
    } else if (kind == KIND_GPU) {
        engine_gpu g;
        rc = parse_gpu(it, name, &g, why, sizeof why);
        if (!rc)
            put = db_put(c->db, kind, g.name, &g, c->file);
    } else if (kind == KIND_LINK) {
        engine_link l;
        rc = parse_link(it, name, &l, why, sizeof why);
        if (!rc)
            put = db_put(c->db, kind, l.name, &l, c->file);
    } else {
        engine_framework f;
        rc = parse_framework(it, name, &f, why, sizeof why);
        if (!rc)
            put = db_put(c->db, kind, f.name, &f, c->file);
    }
    if (rc) {
        snprintf(msg, sizeof msg, "%s: %s: %s", c->file, name, why);
        note_override(c->db, kind, name, msg);
        ctx_error(c, msg);
    } else if (!put) {
        note_override(c->db, kind, name, NULL);
    } else {
        snprintf(msg, sizeof msg, "%s: %s: out of memory", c->file, name);
        ctx_error(c, msg);
        c->oom = 1;
    }
}

/* The names of one section met so far, indexed: a name defined twice is
 * found in O(1) rather than by a scan of the entries before it. */
typedef struct seen_names {
    const char **name;
    int n;
    preset_index ix;
} seen_names;

static const char *seen_name(const void *ctx, int i)
{
    return ((const seen_names *)ctx)->name[i];
}

static void load_section(load_ctx *c, const cJSON *sec, int kind)
{
    char msg[ENGINE_ERROR_MAX];
    seen_names seen = {calloc((size_t)cJSON_GetArraySize(sec) + 1, sizeof *seen.name), 0, {0}};
    if (!seen.name) {
        snprintf(msg, sizeof msg, "%s: %s: out of memory", c->file, section_names[kind]);
        ctx_error(c, msg);
        c->oom = 1;
        return;
    }
    for (const cJSON *it = sec->child; it && !c->oom; it = it->next) {
        const char *name = it->string ? it->string : "";
        if (!valid_name(name)) {
            snprintf(msg, sizeof msg,
                     "%s: \"%.40s\": invalid name (1 to %d letters, digits, '-', '_', '.', '+')",
                     c->file, name, ENGINE_NAME_MAX - 1);
            ctx_error(c, msg);
            continue;
        }
        if (preset_index_find(&seen.ix, name, seen_name, &seen) >= 0) {
            snprintf(msg, sizeof msg,
                     "%s: %s: duplicate name in \"%s\" (the first definition is kept)",
                     c->file, name, section_names[kind]);
            ctx_error(c, msg);
            continue;
        }
        seen.name[seen.n] = name;
        if (preset_index_add(&seen.ix, seen.n, seen_name, &seen) != 0) {
            snprintf(msg, sizeof msg, "%s: %s: out of memory", c->file, name);
            ctx_error(c, msg);
            c->oom = 1;
            break;
        }
        seen.n++;
        if (!cJSON_IsObject(it)) {
            snprintf(msg, sizeof msg, "%s: %s: expected an object, got %s", c->file,
                     name, preset_util_type_name(it));
            ctx_error(c, msg);
            continue;
        }
        load_entry(c, it, name, kind);
    }
    preset_index_free(&seen.ix);
    free(seen.name);
}

static int section_kind(const char *key)
{
    for (int k = 0; k < N_SECTIONS; k++)
        if (!strcmp(key, section_names[k]))
            return k;
    return -1;
}

/* Entries of the sections that load: known, the first of their name, and
 * objects (what load_sections takes). */
static long entries_of(const cJSON *root)
{
    unsigned seen = 0;
    long n = 0;
    for (const cJSON *sec = root->child; sec; sec = sec->next) {
        int k = section_kind(sec->string ? sec->string : "");
        if (k < 0 || (seen & (1u << k)))
            continue;
        seen |= 1u << k;
        if (cJSON_IsObject(sec) || cJSON_IsArray(sec))
            n += cJSON_GetArraySize(sec);
    }
    return n;
}

/* "links": [...] as `shardscope list links --json` prints it. */
static void load_list_form(load_ctx *c, const cJSON *sec)
{
    char msg[ENGINE_ERROR_MAX], why[ENGINE_ERROR_MAX - 64];
    cJSON *links = preset_list_form_links(sec, why, sizeof why);
    if (!links) {
        snprintf(msg, sizeof msg, "%s: %s", c->file, why);
        ctx_error(c, msg);
        return;
    }
    load_section(c, links, KIND_LINK);
    cJSON_Delete(links);
}

static void load_sections(load_ctx *c, const cJSON *root)
{
    char msg[ENGINE_ERROR_MAX];
    unsigned seen = 0; /* kinds met: a section named twice is refused */
    for (const cJSON *sec = root->child; sec; sec = sec->next) {
        const char *key = sec->string ? sec->string : "";
        int kind = section_kind(key);
        if (!strcmp(key, "schema_version") && cJSON_IsNumber(sec))
            continue; /* `shardscope list links --json` output */
        if (kind < 0) {
            const char *s = suggest(key, section_names, N_SECTIONS);
            if (s)
                snprintf(msg, sizeof msg, "%s: %s: unknown section (did you mean %s?)",
                         c->file, key, s);
            else
                snprintf(msg, sizeof msg,
                         "%s: %s: unknown section (expected models, gpus, links or frameworks)",
                         c->file, key);
            ctx_error(c, msg);
            continue;
        }
        if (seen & (1u << kind)) {
            snprintf(msg, sizeof msg, "%s: %s: duplicate section", c->file, key);
            ctx_error(c, msg);
            continue;
        }
        seen |= 1u << kind;
        if (kind == KIND_LINK && cJSON_IsArray(sec)) {
            load_list_form(c, sec);
            continue;
        }
        if (!cJSON_IsObject(sec)) {
            snprintf(msg, sizeof msg, "%s: %s: expected an object of named entries, got %s",
                     c->file, key, preset_util_type_name(sec));
            ctx_error(c, msg);
            continue;
        }
        load_section(c, sec, kind);
    }
}

static int add_json(preset_db *db, const char *file, const char *text,
                    size_t len, int *oom)
{
    load_ctx c = { db, file ? file : "(json)", 0, 0 };
    engine_error e;
    char msg[ENGINE_ERROR_MAX];
    cJSON *root = preset_util_parse(c.file, text, len, &e);
    if (!root) {
        ctx_error(&c, e.msg);
        return -1;
    }
    long entries = cJSON_IsObject(root) ? entries_of(root) : 0;
    if (!cJSON_IsObject(root)) {
        snprintf(msg, sizeof msg,
                 "%s: expected an object with \"models\", \"gpus\", \"links\" or \"frameworks\", got %s",
                 c.file, preset_util_type_name(root));
        ctx_error(&c, msg);
    } else if (!root->child) {
        snprintf(msg, sizeof msg, "%s: no \"models\", \"gpus\", \"links\" or \"frameworks\" section",
                 c.file);
        ctx_error(&c, msg);
    } else if (entries > PRESET_MAX_FILE_ENTRIES) {
        snprintf(msg, sizeof msg,
                 "%s: %ld entries, more than the %d one file may hold: split it into several "
                 "files (none of its entries were loaded)",
                 c.file, entries, PRESET_MAX_FILE_ENTRIES);
        ctx_error(&c, msg);
    } else {
        load_sections(&c, root);
    }
    cJSON_Delete(root);
    if (oom)
        *oom = c.oom;
    return c.errors ? -1 : 0;
}

int preset_db_add_json(preset_db *db, const char *file, const char *text,
                       size_t len)
{
    if (!db)
        return -1;
    return add_json(db, file, text, len, NULL);
}

/* --- user directory --------------------------------------------------- */

const char *preset_user_dir(char *buf, size_t len)
{
    if (buf && len > 0)
        engine_config_dir(getenv("XDG_CONFIG_HOME"), getenv("HOME"), buf, len);
    return buf;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int has_json_suffix(const char *s)
{
    size_t n = strlen(s);
    return n > 5 && !strcmp(s + n - 5, ".json");
}

/* Load dir/\*.json in byte order of their names. */
static void load_user_dir(preset_db *db, const char *dir, int *oom)
{
    DIR *d = opendir(dir);
    char msg[ENGINE_ERROR_MAX];
    if (!d) {
        if (errno != ENOENT && errno != ENOTDIR) {
            snprintf(msg, sizeof msg, "%.300s: cannot open directory: %s", dir,
                     strerror(errno));
            db_add_error(db, msg);
        }
        return;
    }
    char **names = NULL;
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' || !has_json_suffix(de->d_name))
            continue;
        char **nn = realloc(names, sizeof *names * (n + 1));
        char *copy = strdup(de->d_name);
        if (!nn || !copy) {
            free(copy);
            if (nn)
                names = nn;
            *oom = 1;
            break;
        }
        names = nn;
        names[n++] = copy;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n && !*oom; i++) {
        size_t pl = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(pl);
        if (!path) {
            *oom = 1;
            break;
        }
        snprintf(path, pl, "%s/%s", dir, names[i]);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            char *text;
            size_t len;
            engine_error e;
            if (preset_util_read_file(path, &text, &len, &e) != 0) {
                db_add_error(db, e.msg);
            } else {
                int o = 0;
                add_json(db, path, text, len, &o);
                if (o)
                    *oom = 1;
                free(text);
            }
        }
        free(path);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* A GPU's link and scale_out name links that may live in another file: check
 * them once all are loaded.  An unknown name is reported and dropped; the GPU
 * stays, with the default links. */
static void check_gpu_links(preset_db *db)
{
    char msg[ENGINE_ERROR_MAX];
    for (int i = 0; i < db->n_gpus; i++) {
        engine_gpu *g = &db->gpus[i];
        char *names[2] = { g->link, g->scale_out };
        const char *keys[2] = { "link", "scale_out" };
        for (int k = 0; k < 2; k++) {
            if (!names[k][0] || preset_find_link(db, names[k]))
                continue;
            snprintf(msg, sizeof msg,
                     "%.200s: %s: %s: unknown link \"%.40s\" (see shardscope list links)",
                     db->gpu_files[i], g->name, keys[k], names[k]);
            db_add_error(db, msg);
            names[k][0] = '\0';
        }
    }
}

int preset_db_load(const char *user_dir, preset_db **out, engine_error *err)
{
    if (!out) {
        engine_errorf(err, "preset_db_load: no output pointer");
        return -1;
    }
    *out = NULL;
    preset_db *db = calloc(1, sizeof *db);
    if (!db) {
        engine_errorf(err, "presets: out of memory");
        return -1;
    }
    int oom = 0;
    for (int i = 0; i < preset_blob_count && !oom; i++) {
        const preset_blob *b = &preset_blobs[i];
        size_t len = b->len ? b->len : strlen(b->text);
        add_json(db, b->file, b->text, len, &oom);
    }
    char dirbuf[4096];
    const char *dir = user_dir ? user_dir : preset_user_dir(dirbuf, sizeof dirbuf);
    if (!oom && dir && dir[0])
        load_user_dir(db, dir, &oom);
    if (!oom)
        check_gpu_links(db);
    if (oom) {
        preset_db_free(db);
        engine_errorf(err, "presets: out of memory");
        return -1;
    }
    *out = db;
    return 0;
}

void preset_db_free(preset_db *db)
{
    if (!db)
        return;
    free(db->models);
    free(db->gpus);
    free(db->gpu_files);
    free(db->links);
    free(db->frameworks);
    for (int k = 0; k < N_KINDS; k++)
        preset_index_free(&db->names[k]);
    free(db);
}

/* --- lookup ------------------------------------------------------------ */

/* By name through the index (a db built by hand, without one, is scanned),
 * then the first entry whose display name matches. */
#define FIND(arr, n, kind)                                                   \
    do {                                                                     \
        if (!db || !name)                                                    \
            return NULL;                                                     \
        int i_ = db->names[kind].cap                                         \
                     ? preset_index_find(&db->names[kind], name, NAME_OF[kind], db) \
                     : -1;                                                   \
        for (int j_ = 0; !db->names[kind].cap && i_ < 0 && j_ < (n); j_++)   \
            if (!strcasecmp((arr)[j_].name, name))                           \
                i_ = j_;                                                     \
        if (i_ >= 0)                                                         \
            return &(arr)[i_];                                               \
        for (int j_ = 0; j_ < (n); j_++)                                     \
            if (!strcasecmp((arr)[j_].display, name))                        \
                return &(arr)[j_];                                           \
        return NULL;                                                         \
    } while (0)

const engine_model *preset_find_model(const preset_db *db, const char *name)
{
    FIND(db->models, db->n_models, KIND_MODEL);
}

const engine_gpu *preset_find_gpu(const preset_db *db, const char *name)
{
    FIND(db->gpus, db->n_gpus, KIND_GPU);
}

const engine_link *preset_find_link(const preset_db *db, const char *name)
{
    FIND(db->links, db->n_links, KIND_LINK);
}

const engine_framework *preset_find_framework(const preset_db *db, const char *name)
{
    FIND(db->frameworks, db->n_frameworks, KIND_FRAMEWORK);
}

void preset_gpu_topology(const preset_db *db, const engine_gpu *g, const engine_link **intra,
                         const engine_link **inter, int *per_node)
{
    const engine_link *li = NULL, *lo = NULL;
    int k = 0;
    if (g) {
        li = g->link[0] ? preset_find_link(db, g->link) : NULL;
        lo = g->scale_out[0] ? preset_find_link(db, g->scale_out) : NULL;
        k = g->nvlink_domain > 0 ? g->nvlink_domain : (g->node_gpus > 0 ? g->node_gpus : 8);
    }
    if (intra)
        *intra = li;
    if (inter)
        *inter = lo;
    if (per_node)
        *per_node = k;
}
