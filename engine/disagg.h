/*
 * disagg.h - disaggregated prefill/decode ("xPyD"): x prefill replicas and
 * y decode replicas on the scenario's GPUs, each pool with its own
 * parallel plan, the KV cache of every request moving from the prefill to
 * the decode pool over the inter-replica link.
 *
 * Representation: a separate engine_disagg_plan (two engine_plans) beside
 * engine_plan, so no user of engine_plan changes.  Each pool's plan has its
 * own tp/pp/ep and dp = its replicas (x or y, counted in tp*pp groups, as
 * engine_plan counts them; ep within tp*dp as the engine allows).  A pool
 * runs x (or y) * tp * pp GPUs; the plan runs both pools' GPUs.
 *
 * The model (README, "The model: disaggregated prefill/decode"):
 *  - a prefill replica computes one request's prompt and its first token
 *    (engine_evaluate at batch 1, the plan's TTFT); it batches
 *    max(1, max_num_tokens / prompt) prompts per step for throughput;
 *  - the request's KV cache, engine_kv_bytes(model, kv dtype, prompt)
 *    bytes, moves as point-to-point messages (engine_comm_time
 *    ENGINE_OP_P2P: the link's measured curve when it has one) in parallel
 *    streams, one per KV shard both sides hold: min over the two pools of
 *    min(tp, KV heads) * pp (MLA: 1 * pp, its latent is replicated over
 *    TP); over NVLink when one prefill and one decode replica fit in one
 *    NVLink domain / node (prefill GPUs + decode GPUs <= gpus_per_node, or
 *    a single domain), else over the scale-out link;
 *  - layer-wise transfer: layer i's KV is sent when layer i's prefill ends
 *    (Splitwise, Patel et al., ISCA 2024, section IV-C; Mooncake's
 *    layer-wise prefill, Qin et al., FAST 2025), a two-stage pipeline of L
 *    equal layers, so the transfer adds max(T / L, T - P (L - 1) / L) to
 *    TTFT (T the transfer, P the prefill);
 *  - a decode replica runs the scenario's batch (batch_max: its largest)
 *    with every prompt already cached: its ITL is engine_evaluate's;
 *  - rate matching: the prefill pool serves x * B_p / TTFT(B_p)
 *    requests/s, the decode pool y * B_d / ((G - 1) ITL(B_d)) (G = 1: no
 *    decode work), and the plan the smaller of the two.
 *
 * Pure C: no I/O, no allocation.
 */
#ifndef SHARDSCOPE_DISAGG_H
#define SHARDSCOPE_DISAGG_H

#include "engine.h"
#include "sim.h"

typedef struct engine_disagg_plan {
    engine_plan prefill; /* dp = x prefill replicas */
    engine_plan decode;  /* dp = y decode replicas */
} engine_disagg_plan;

typedef struct engine_disagg_result {
    engine_disagg_plan plan;
    int valid;                      /* 0: see reason */
    int fits;                       /* both pools fit in memory */
    char reason[ENGINE_REASON_MAX]; /* "prefill pool: ..." / "decode pool: ..." */
    int gpus;                       /* both pools */
    engine_result prefill;          /* the prefill pool at batch 1 (its ttft_s) */
    engine_result decode;           /* the decode pool at the scenario's batch */
    int prefill_batch;              /* prompts a prefill step batches, B_p */
    double prefill_batch_ttft_s;    /* TTFT(B_p) */
    double kv_bytes;                /* one request's KV cache (prompt tokens) */
    int streams;                    /* parallel transfer streams */
    int cross_node;                 /* 1: over the scale-out link */
    double transfer_s;              /* the whole transfer, T */
    double transfer_exposed_s;      /* what it adds to TTFT */
    double ttft_s, itl_s, e2e_s;    /* a request's: prefill + exposed transfer; decode */
    double prefill_rate, decode_rate; /* requests/s each pool sustains */
    double sustainable_rate;        /* the smaller */
    double tokens_per_s;            /* sustainable_rate * gen */
    double cost_per_mtok_usd;       /* gpus * price / tokens; 0 without a price */
} engine_disagg_result;

/* GPUs a disaggregated plan runs: both pools' tp * pp * dp. */
int engine_disagg_gpus(engine_disagg_plan p);

/* The KV transfer of `prompt` tokens between one prefill and one decode
 * replica of p under s: seconds (T), with *streams and *cross_node set when
 * not NULL.  s checked. */
double engine_disagg_transfer_s(const engine_scenario *s, engine_disagg_plan p, int prompt,
                                int *streams, int *cross_node);

/* What layer-wise transfer adds to TTFT: max(T / L, T - P (L - 1) / L),
 * 0 when T is 0; L >= 1. */
double engine_disagg_exposed_s(double transfer_s, double prefill_s, int layers);

/* Evaluate p under s (s->gpus is ignored: the plan brings its own).
 * Returns 0 (out filled; the plan may be invalid or not fit), -1 with err
 * when the scenario is unusable. */
int engine_disagg_evaluate(const engine_scenario *s, engine_disagg_plan p,
                           engine_disagg_result *out, engine_error *err);

/* The load simulation's transfer line for p under s: the line through
 * the transfer of s->prompt and 2 * s->prompt tokens (exact for an
 * alpha-beta link), and the model's layers. */
void engine_disagg_sim_transfer(const engine_scenario *s, engine_disagg_plan p,
                                engine_sim_transfer *x);

/* Compare two results under an objective, qsort-style: valid and fitting
 * first; throughput: tokens_per_s descending; latency: e2e_s ascending;
 * cost: cost_per_mtok_usd ascending (unknown last); ties by GPUs of the
 * prefill pool, then the plans' order. */
int engine_disagg_compare(const engine_disagg_result *a, const engine_disagg_result *b,
                          engine_objective o);

/* Upper bound of the xPyD splits engine_disagg_rank enumerates for s. */
#define ENGINE_DISAGG_RANK_MAX 512

/* Every split of s->gpus into x prefill replicas of tp_p GPUs and y decode
 * replicas of tp_d GPUs (tp_p, tp_d powers of two up to the node's GPUs,
 * s->gpus_per_node, 8 when 0; pp 1, ep 1; x, y >= 1; x tp_p + y tp_d =
 * gpus), evaluated into out[0..n-1] in enumeration order, and order[0..n-1]
 * the indices best first by s->objective (engine_disagg_compare; stable).
 * At most cap results; returns n, or -1 with err. */
int engine_disagg_rank(const engine_scenario *s, engine_disagg_result *out, int *order,
                       int cap, engine_error *err);

/* "2P1D tp2/tp4" style name of a plan, into buf (always terminated). */
void engine_disagg_name(engine_disagg_plan p, char *buf, size_t len);

/* One pool's replica, "TP4", "TP1 PP2", "TP1 EP8" (pp and ep shown when
 * above 1), into buf (len bytes, truncated). */
void engine_disagg_pool_name(engine_plan p, char *buf, size_t len);

#endif /* SHARDSCOPE_DISAGG_H */
