/*
 * recommend.h - "how should I split this model?" as model arithmetic.
 *
 * recommend_run() walks the decision procedure of seed 004 ("Why
 * distribute, and when not to") step by step - fit on one GPU with room for
 * the KV cache, decode floor against the ITL target, GPUs needed to fit,
 * GPUs needed for latency, rounding to a TP degree the heads allow, the
 * interconnect/topology check, replicas, quantization - and then checks the
 * procedure's answer against the engine's full plan search (engine_rank over
 * candidate GPU counts and weight dtypes).  The chosen plan, the next
 * alternatives and, for an impossible request, the nearest feasible option
 * all carry engine numbers; nothing is invented.
 *
 * Pure C: no I/O, no allocation, no globals.  Every step is a verdict,
 * flags and typed numbers in SI units (recommend_fit ... recommend_search),
 * also listed by name for the JSON output (the key says the unit:
 * *_bytes, *_s, *_bytes_per_s; counts and fractions are bare); the front
 * end turns them into sentences.  The result struct is large (it holds the
 * search's scratch space): allocate it on the heap.
 */
#ifndef SHARDSCOPE_RECOMMEND_H
#define SHARDSCOPE_RECOMMEND_H

#include "engine.h"

#define RECOMMEND_KEY_MAX 40
#define RECOMMEND_MAX_NUMBERS 20
#define RECOMMEND_MAX_ALTS 2
/* Largest replica searched when no --gpus-max is given (and how far the
 * search looks beyond a limit to name the nearest feasible option). */
#define RECOMMEND_MAX_UNIT 64
#define RECOMMEND_SCRATCH 1024
#define RECOMMEND_MAX_CANDS 4096

typedef enum recommend_unit {
    REC_UNIT_COUNT = 0, /* GPUs, heads, plans, 0/1 flags */
    REC_UNIT_BYTES,
    REC_UNIT_SECONDS,
    REC_UNIT_BYTES_PER_S,
    REC_UNIT_FRACTION, /* 0..1 */
    REC_UNIT_TOKENS_PER_S
} recommend_unit;

typedef enum recommend_step_id {
    REC_STEP_FIT = 0,   /* does it fit on one GPU with the KV of the concurrency */
    REC_STEP_FLOOR,     /* decode floor (weights / peak HBM) vs the ITL target */
    REC_STEP_N_FIT,     /* GPUs needed just to fit */
    REC_STEP_N_LATENCY, /* GPUs needed for the ITL target */
    REC_STEP_TP,        /* max of the two, rounded to a TP degree (x PP) */
    REC_STEP_TOPOLOGY,  /* interconnect and node check of that unit */
    REC_STEP_REPLICAS,  /* data-parallel replicas of the unit */
    REC_STEP_QUANT,     /* quantization instead of more GPUs / nodes */
    REC_STEP_ENGINE,    /* cross-check against the engine's plan search */
    REC_STEP_COUNT
} recommend_step_id;

typedef enum recommend_verdict {
    REC_PASS = 0,
    REC_FAIL,
    REC_WARN,
    REC_INFO
} recommend_verdict;

/* Flags of REC_STEP_TP. */
enum {
    REC_TP_ROUNDED = 1 << 0,       /* tp above the GPUs needed (head divisibility) */
    REC_TP_KV_REPLICATED = 1 << 1, /* tp > KV heads: KV heads replicate */
    REC_TP_NODE_LIMITED = 1 << 2,  /* needs more than one node's worth: PP across nodes */
    REC_TP_OVER_LIMIT = 1 << 3,    /* the unit exceeds gpus_max */
    REC_TP_LATENCY_CAPPED = 1 << 4 /* n_latency above the largest TP in a node */
};
/* Flags of REC_STEP_TOPOLOGY. */
enum {
    REC_TOPO_NO_TP = 1 << 0,     /* tp == 1: no all-reduce traffic */
    REC_TOPO_SLOW_TP = 1 << 1,   /* TP communication is a large share of a step */
    REC_TOPO_PP_CROSS = 1 << 2,  /* pipeline stages span nodes */
    REC_TOPO_NOT_FIT = 1 << 3,   /* the engine says the unit does not fit */
    REC_TOPO_SAME_INTER = 1 << 4 /* no inter-node link given: same as intra */
};
/* Flags of REC_STEP_QUANT. */
enum {
    REC_QUANT_WOULD_HELP = 1 << 0 /* a dtype not allowed yet would save GPUs or nodes */
};
/* Flags of REC_STEP_ENGINE. */
enum {
    REC_ENG_AGREES = 1 << 0,
    REC_ENG_TARGET_MISSED = 1 << 1, /* procedure's plan misses a target in the engine */
    REC_ENG_NOT_FIT = 1 << 2,       /* procedure's plan does not fit in the engine */
    REC_ENG_BETTER = 1 << 3,        /* the search found a better plan by the objective */
    REC_ENG_TOPO_EXCLUDED = 1 << 4  /* the unconstrained best runs TP across nodes */
};

typedef struct recommend_number {
    char key[RECOMMEND_KEY_MAX]; /* e.g. "weights_bytes", "n_fit" */
    double value;                /* SI */
    recommend_unit unit;
} recommend_number;

/* The typed numbers of each step (SI units; 0 when a number does not
 * apply).  The same numbers, named, are in recommend_step.num for the
 * JSON output (a key per field, e.g. "weights_bytes"; conditional keys
 * only when they apply). */
typedef struct recommend_fit {        /* REC_STEP_FIT */
    double weights_bytes, kv_bytes, activation_bytes, overhead_bytes, per_gpu_bytes;
    double vram_bytes, usable_fraction, capacity_bytes, kv_room_bytes;
    int concurrency;
    double context_tokens;            /* prompt + gen */
    double kv_capacity_tokens;        /* engine_result's, on one GPU */
    int max_concurrency;              /* sequences of context_tokens that fit */
    int max_num_seqs;                 /* the most a replica runs at once
                                       * (engine_max_num_seqs) */
} recommend_fit;

typedef struct recommend_floor {      /* REC_STEP_FLOOR */
    double weights_bytes;             /* read a step of one sequence: a MoE
                                       * model's active weights
                                       * (engine_decode_floor_bytes) */
    double hbm_bytes_per_s, floor_s;
    double itl_target_s;              /* 0: none (no key) */
    double engine_itl_s;
} recommend_floor;

typedef struct recommend_n_fit {      /* REC_STEP_N_FIT */
    double weights_bytes, kv_bytes, capacity_bytes, overhead_bytes, activation_bytes;
    double budget_per_gpu_bytes;
    int n_fit;
} recommend_n_fit;

typedef struct recommend_n_latency {  /* REC_STEP_N_LATENCY */
    double floor_s;
    double itl_target_s;              /* 0: none (no key) */
    int n_latency, tp_max;
    double floor_at_tp_max_s;
} recommend_n_latency;

typedef struct recommend_tp {         /* REC_STEP_TP */
    int n_needed, heads, kv_heads, gpus_per_node, tp, pp, unit_gpus, nodes;
    int gpus_max;                     /* 0: no limit (no key) */
} recommend_tp;

typedef struct recommend_topology {   /* REC_STEP_TOPOLOGY */
    int tp, pp;
    double link_bytes_per_s;
    double inter_link_bytes_per_s;    /* 0: no inter-node link (no key) */
    int nodes;
    double itl_s, decode_comm_s, decode_comm_fraction, ttft_s, prefill_comm_fraction;
    int fits;
} recommend_topology;

typedef struct recommend_replicas {   /* REC_STEP_REPLICAS */
    int unit_gpus, dp;
    double gpus_used;
    int gpus_max;                     /* 0: no limit (no key) */
    double tokens_per_s_replica, tokens_per_s_total;
} recommend_replicas;

#define RECOMMEND_N_QUANT 3           /* fp8, int8, int4 */
typedef struct recommend_quant {      /* REC_STEP_QUANT */
    int n;                            /* dtypes lighter than the base one */
    struct {
        engine_dtype dtype;           /* keys "<dtype>_weights_bytes", ... */
        double weights_bytes;
        int unit_gpus;                /* 0: does not fit either */
        int allowed;
    } q[RECOMMEND_N_QUANT];
    int procedure_tp, procedure_pp, procedure_unit_gpus, procedure_ok;
} recommend_quant;

typedef struct recommend_search {     /* REC_STEP_ENGINE */
    int plans_evaluated, plans_feasible;
    int has_procedure_figures;        /* the procedure's plan, in the engine: */
    double procedure_itl_s, procedure_ttft_s, procedure_tokens_per_s;
    int agrees;
    /* The chosen plan (when the result has one). */
    int tp, pp, dp, unit_gpus;
    double itl_s, ttft_s, tokens_per_s_replica;
    int search_max_gpus;              /* when nothing is feasible */
} recommend_search;

typedef struct recommend_step {
    recommend_step_id id;
    recommend_verdict verdict;
    unsigned flags;
    union { /* the member named after id */
        recommend_fit fit;
        recommend_floor floor;
        recommend_n_fit n_fit;
        recommend_n_latency n_latency;
        recommend_tp tp;
        recommend_topology topology;
        recommend_replicas replicas;
        recommend_quant quant;
        recommend_search search;
    };
    int n;
    recommend_number num[RECOMMEND_MAX_NUMBERS];
} recommend_step;

typedef struct recommend_request {
    /* Model, GPU, links, calibration, gpus_per_node (0: one node), batch
     * (= the target concurrency per replica), prompt, gen, dtypes (the
     * weight dtype is the unquantized one), objective.  gpus is ignored. */
    engine_scenario base;
    int gpus_max;          /* 0: no limit given: recommend one replica unit */
    double itl_target_s;   /* 0: none */
    double ttft_target_s;  /* 0: none */
    unsigned allow_quant;  /* bit (1u << dtype) per weight dtype accepted besides base */
    unsigned allow_spec;   /* bit (1u << engine_spec_method) per speculative-decoding
                            * method the search may choose besides base.spec_method,
                            * at that method's default k and P (mtp only on a model
                            * with MTP layers, draft only with base.spec_draft) */
} recommend_request;

typedef enum recommend_status {
    REC_FEASIBLE = 0,
    REC_INFEASIBLE_FIT,  /* no plan fits on the GPUs allowed at the dtypes allowed */
    REC_INFEASIBLE_ITL,  /* plans fit, none reaches the ITL target */
    REC_INFEASIBLE_TTFT  /* plans fit and reach the ITL target, none the TTFT target */
} recommend_status;

/* Which relaxation the nearest feasible option needs. */
typedef enum recommend_nearest {
    REC_NEAR_NONE = 0,
    REC_NEAR_TARGET,  /* best reachable latency (the target is relaxed) */
    REC_NEAR_QUANT,   /* a dtype not allowed yet (--allow-quant) */
    REC_NEAR_GPUS,    /* more GPUs than allowed */
    REC_NEAR_BOTH     /* more GPUs and a quantized dtype */
} recommend_nearest;

/* One candidate plan: a replica unit evaluated by the engine (dp = 1, or
 * the ep/tp replicas an expert-parallel group couples), and the replicas
 * that fill gpus_max. */
typedef struct recommend_option {
    engine_dtype dtype;
    engine_spec_method spec; /* the speculation it runs (base.spec_method or allowed) */
    engine_plan plan;     /* dp = replicas x the unit's own dp */
    int replicas;         /* units that fill gpus_max (1 without a limit) */
    int unit_gpus;        /* tp * pp (x ep/tp when an EP group spans replicas) */
    int gpus;             /* unit_gpus * dp */
    int nodes;            /* nodes one replica spans (1 when gpus_per_node is 0) */
    int allowed;          /* dtype is the base one or allowed */
    int within_limit;     /* gpus <= gpus_max (or no limit) */
    int topology_ok;      /* TP inside one node */
    int meets_itl, meets_ttft;
    engine_result unit;   /* the engine's result for one replica */
} recommend_option;

/* Compact record of one searched plan (internal to the search). */
typedef struct recommend_cand {
    engine_dtype dtype;
    engine_spec_method spec;
    engine_plan plan; /* dp = 1, or ep/tp when the EP group spans replicas */
    int unit;
    unsigned char allowed, within, topo, itl_ok, ttft_ok;
    double e2e_s, itl_s, ttft_s, tokens_per_s, cost;
} recommend_cand;

typedef struct recommend_result {
    recommend_status status;
    recommend_step step[REC_STEP_COUNT];
    /* The procedure's answer (before the engine check). */
    engine_dtype procedure_dtype;
    int procedure_tp, procedure_pp, procedure_dp;
    /* The chosen plan (status == REC_FEASIBLE). */
    int have_choice;
    recommend_option chosen;
    /* The whole deployment (gpus = unit * dp), with tails: what eval would
     * print for it.  chosen_scenario borrows the request's pointers. */
    engine_scenario chosen_scenario;
    engine_result chosen_result;
    int n_alts;
    recommend_option alt[RECOMMEND_MAX_ALTS];
    /* When infeasible: the closest option that works and what it relaxes. */
    recommend_nearest nearest_kind;
    recommend_option nearest;
    /* The engine's best when TP may span nodes (REC_ENG_TOPO_EXCLUDED). */
    int have_unconstrained;
    recommend_option unconstrained;
    int plans_evaluated;
    /* Scratch for the search (no allocation inside the engine). */
    int n_cands;
    recommend_cand cands[RECOMMEND_MAX_CANDS];
    engine_result scratch[RECOMMEND_SCRATCH];
} recommend_result;

/* Run the procedure and the search.  Returns 0 (out filled; an impossible
 * request is an answer: see out->status), or -1 when the scenario itself is
 * unusable (err filled). */
int recommend_run(const recommend_request *req, recommend_result *out, engine_error *err);

const char *recommend_step_name(recommend_step_id id);  /* "fit_one_gpu" ... */
const char *recommend_verdict_name(recommend_verdict v); /* "pass" ... */
const char *recommend_status_name(recommend_status s);   /* "feasible" ... */

/* The scenario of one replica unit of option o (its GPUs, dtype and
 * speculation) from the request's base, into *s (pointers borrowed). */
void recommend_option_scenario(const recommend_request *q, const recommend_option *o,
                               engine_scenario *s);

/* The number called key in a step's named list; fallback when absent. */
double recommend_get(const recommend_step *st, const char *key, double fallback);
/* 1 when the step has the number. */
int recommend_has(const recommend_step *st, const char *key);

/* The TP degree the procedure uses for "at least n GPUs": the smallest tp
 * >= n that divides the attention heads and divides (or is a multiple of)
 * the KV heads, at most max_tp; 0 when none. */
int recommend_round_tp(const engine_model *m, int n, int max_tp);

#endif /* SHARDSCOPE_RECOMMEND_H */
