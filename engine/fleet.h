/*
 * fleet.h - fleet sizing: the cheapest plan and GPU count that serves a
 * request rate within TTFT and TPOT targets at a percentile (recommend
 * --rate R --ttft-ms X --itl-ms Y).
 *
 * The search (README, "Fleet sizing"):
 *  1. Screen, analytically.  For every weight dtype and speculation method
 *     allowed (a speculating unit's decode step is per token gained:
 *     engine_step_s / engine_step_tokens), every replica
 *     unit (tp any degree inside a node that the heads allow, and with a
 *     scale-out link a whole number of nodes, 2, 3, ... x gpus_per_node:
 *     a TP group across nodes, its all-reduces priced over the inter
 *     link as eval prices them; pp 1 up to the layers; each within
 *     gpus_max;
 *     on an MoE model every ep dividing the expert slots among 1, the
 *     divisors of tp, and tp * g for g = 2, 3, ... replicas: DP-attention
 *     EP, a unit of g replicas, the fleet a whole number of such EP
 *     groups) and, with disaggregation, every pair of a prefill unit and
 *     a decode unit (any of those: PP and DP-attention EP too), each pool
 *     in any allowed dtype, both with the same speculation, less the
 *     units another dominates as a pool (no slower, no more GPUs at the
 *     rate or at the floor, at least the room: fleet.c pool_dominates;
 *     a dominated unit's pairs come later in the search order and are no
 *     cheaper): the unit's step model
 *     (engine_stepper) gives P, the prefill of one prompt, and the largest
 *     batch B whose decode step (at mid-generation) is within the TPOT
 *     target and whose KV the cache holds (the concurrency searched: the
 *     simulation's max_num_seqs).  An aggregated replica then serves
 *     mu = 1 / (P + (G - 1) ITL(B) / B) requests/s (its GPU time per
 *     request: a prefill alone, and its share of the decode steps); a
 *     disaggregated plan needs x = ceil(R P_b / U) prefill replicas (P_b a
 *     prompt's share of a batched prefill step) and y = ceil(R / (U mu_d))
 *     decode replicas with mu_d = B / ((G - 1) ITL(B)).  U = 0.9, the
 *     utilisation the screen plans for (queues grow without bound at 1).
 *     A unit whose P (plus the exposed KV transfer) already misses the
 *     TTFT target, or whose batch-1 decode step misses the TPOT target,
 *     is out.  The GPUs are replicas x unit; the cost their price.
 *  2. Confirm, by simulation.  In order of GPUs (then aggregated first,
 *     then TP inside a node first: the tie rule, a cross-node TP group
 *     never comes before an in-node plan on as many GPUs, whatever the
 *     screen's rates; then the screen's rate, higher first, the dtype,
 *     the speculation and plan order), each candidate is simulated at the rate
 *     (Poisson, `requests` requests, the seed): it meets the targets when
 *     neither percentile is over its target and the run is not
 *     overloaded.  A miss adds a replica (an EP group; disaggregated: to
 *     the pool whose figure missed: prefill for TTFT, decode for TPOT), at
 *     most FLEET_BUMPS times.  A first-time meet is trimmed: the fewest
 *     replicas (decode pool, then prefill pool) that still meet, by
 *     bisection down to the floor, the replicas that decode steps alone
 *     need at utilisation 1 (floor_gpus).  The search stops when three
 *     candidates are confirmed and no unconfirmed one's floor is below the
 *     third's GPUs, or after max_sims runs (FLEET_MAX_SIMS), which the
 *     result reports (sims_capped, and unsearched: the candidates it left
 *     untried or untrimmed that could need fewer GPUs; when > 0 a cheaper
 *     answer may exist, the cap only ever costs GPUs).  The rule this keeps: no
 *     plan on fewer GPUs than the answer meets the targets in the load
 *     simulation (tests/unit/test_fleet.c test_no_cheaper_plan_meets).
 *  3. The cheapest confirmed option within gpus_max is the answer, the next
 *     two the alternatives (on equal GPUs: aggregated, then in-node TP, then
 *     search order).  Nothing within the limit: the closest is the
 *     cheapest confirmed one beyond it (needs more GPUs), or, when no plan
 *     meets the targets at any size, the simulated one nearest to them
 *     (the smallest worst ratio of percentile to target).
 *  Each reported option carries its simulated sustainable rate and the
 *  cross-node warnings eval gives its plan (warnings, prefill_warnings).
 *
 * Pure C: no I/O, no allocation; the caller gives a workspace of
 * engine_fleet_workspace_bytes() bytes.
 */
#ifndef SHARDSCOPE_FLEET_H
#define SHARDSCOPE_FLEET_H

#include "disagg.h"
#include "engine.h"
#include "sim.h"

#define FLEET_MAX_CANDS 8192
#define FLEET_MAX_SIMS 256
#define FLEET_BUMPS 4
#define FLEET_UTILISATION 0.9
#define FLEET_DEFAULT_REQUESTS 2000
#define FLEET_DEFAULT_GPUS_MAX 64
#define FLEET_ALTS 2

typedef enum engine_fleet_disagg {
    ENGINE_FLEET_DISAGG_AUTO = 0, /* aggregated and xPyD candidates */
    ENGINE_FLEET_DISAGG_OFF,      /* aggregated only */
    ENGINE_FLEET_DISAGG_ONLY,     /* xPyD only */
    ENGINE_FLEET_DISAGG_COUNT
} engine_fleet_disagg;

typedef struct engine_fleet_request {
    /* Model, GPU, links, framework, calibration, gpus_per_node (0: 8; TP
     * spans nodes only in whole nodes and only with an inter link),
     * prompt, gen, weight (base) and KV dtypes.
     * gpus, batch and the plan fields are ignored. */
    engine_scenario base;
    double rate;           /* requests/s, > 0 */
    double ttft_slo_s;     /* > 0 */
    double tpot_slo_s;     /* > 0 */
    double slo_percentile; /* (0, 100]; 0: 99 */
    int gpus_max;          /* 0: FLEET_DEFAULT_GPUS_MAX */
    unsigned allow_quant;  /* bit (1u << dtype) per weight dtype besides the base */
    unsigned allow_spec;   /* bit (1u << method) per speculation method besides the
                            * base's spec_method, each at engine_spec_default's k
                            * and acceptance (draft needs base.spec_draft) */
    engine_fleet_disagg disagg;
    int requests;          /* simulated per run; 0: FLEET_DEFAULT_REQUESTS */
    uint64_t seed;         /* of every simulation */
    int max_sims;          /* simulation runs the search may make; 0: FLEET_MAX_SIMS */
} engine_fleet_request;

typedef struct engine_fleet_option {
    int disagg;               /* 0: aggregated (plan), 1: xPyD (dplan) */
    engine_dtype dtype;       /* weights (xPyD: the decode pool's) */
    engine_dtype prefill_dtype; /* xPyD: the prefill pool's weights (= dtype aggregated) */
    engine_spec_method spec;  /* speculation (the base's, or an allowed one) */
    engine_plan plan;         /* dp = replicas */
    engine_disagg_plan dplan;
    int max_num_seqs;         /* the concurrency per (decode) replica */
    int gpus;
    double cost_per_hour_usd; /* gpus x price; 0 without a price */
    /* The screen. */
    double prefill_s;         /* P: one prompt alone */
    double itl_s;             /* the decode step at max_num_seqs */
    double screen_rate;       /* requests/s the screen expects the GPUs to serve */
    double transfer_s;         /* xPyD: the whole KV transfer of one prompt */
    double transfer_exposed_s; /* xPyD: what the KV transfer adds to TTFT */
    int screen_gpus;          /* GPUs before any bump */
    int floor_gpus;           /* GPUs of the screen's floor: decode steps alone
                               * at utilisation 1 (the fewest a trim tries) */
    int floor_dp, floor_prefill_dp; /* its (decode pool's) and prefill pool's replicas */
    /* The simulation at the rate (simulated == 1). */
    int simulated;
    int bumps;                /* replicas added after a miss */
    int trimmed;              /* replicas (EP groups) taken away after a meet */
    int trim_cut;             /* the simulation cap stopped its trim early */
    int meets;                /* both percentiles within target, not overloaded */
    int within_limit;         /* gpus <= gpus_max */
    int tp_cross;             /* a TP group (xPyD: either pool's) spans nodes: tp above
                               * gpus_per_node with a scale-out link (the search's tie
                               * rule puts it after in-node TP on the same GPUs) */
    unsigned warnings;        /* reported options: eval's ENGINE_WARN_TP_CROSS_NODE and
                               * ENGINE_WARN_EP_CROSS_NODE for the plan (xPyD: the
                               * decode pool) */
    unsigned prefill_warnings; /* xPyD: the same for the prefill pool */
    engine_sim_result sim;
    double sustainable_rate;  /* requests/s (reported options only) */
    double prefill_rate, decode_rate; /* xPyD: each pool's */
} engine_fleet_option;

typedef enum engine_fleet_status {
    ENGINE_FLEET_FEASIBLE = 0,
    ENGINE_FLEET_MORE_GPUS,   /* only beyond gpus_max (closest: the cheapest) */
    ENGINE_FLEET_UNREACHABLE  /* no plan meets the targets (closest: the nearest) */
} engine_fleet_status;

typedef struct engine_fleet_result {
    engine_fleet_status status;
    int have_choice;
    engine_fleet_option chosen;
    int n_alts;
    engine_fleet_option alt[FLEET_ALTS];
    int have_closest;
    engine_fleet_option closest; /* when not feasible */
    int units;                   /* replica units screened (plan x dtype) */
    int candidates;              /* screened candidates that passed */
    int simulations;             /* simulation runs */
    int disagg_searched;         /* xPyD candidates were in the search */
    /* The cheapest aggregated and xPyD options confirmed within the limit
     * (have_*: 0 when none), for the why-lines. */
    int have_best_agg, have_best_disagg;
    engine_fleet_option best_agg, best_disagg;
    int disagg_screen_gpus;      /* fewest GPUs the screen gave an xPyD candidate (0: none) */
    int n_cands;
    int cands_dropped;           /* screened past FLEET_MAX_CANDS (not searched) */
    int units_dropped;           /* replica units past FLEET_MAX_UNITS (not screened) */
    int sims_capped;             /* the search reached FLEET_MAX_SIMS runs */
    int unsearched;              /* candidates the cap left untried, or whose trim
                                  * it cut, with a floor below the answer's GPUs
                                  * (0: none could be cheaper; > 0: a cheaper
                                  * answer may exist) */
    engine_fleet_option cand[FLEET_MAX_CANDS]; /* scratch */
} engine_fleet_result;

/* 0 when q is usable, else -1 with err naming the field. */
int engine_fleet_check(const engine_fleet_request *q, engine_error *err);

/* Bytes of workspace engine_fleet_run needs (0: q unusable). */
size_t engine_fleet_workspace_bytes(const engine_fleet_request *q);

/* Run the search (fleet.h's top comment).  out is large: allocate it on
 * the heap.  Returns 0 with *out (an infeasible request is an answer:
 * out->status), -1 with err (q unusable, workspace too small). */
int engine_fleet_run(const engine_fleet_request *q, engine_fleet_result *out, void *work,
                     size_t bytes, engine_error *err);

/* The scenario the aggregated plan or the decode pool of o runs under: q's
 * base with o's dtype and speculation and the GPUs of plan p. */
void engine_fleet_scenario(const engine_fleet_request *q, const engine_fleet_option *o,
                           engine_plan p, engine_scenario *s);

/* The same for one pool: prefill 1 (an xPyD option's prefill pool: its
 * prefill_dtype) or 0 (engine_fleet_scenario). */
void engine_fleet_pool_scenario(const engine_fleet_request *q, const engine_fleet_option *o,
                                int prefill, engine_plan p, engine_scenario *s);

const char *engine_fleet_disagg_name(engine_fleet_disagg d); /* "auto", "off", "only" */
const char *engine_fleet_status_name(engine_fleet_status s); /* "feasible", ... */

#endif /* SHARDSCOPE_FLEET_H */
