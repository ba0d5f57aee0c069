/*
 * recommend.c - `shardscope recommend`: seed 004's decision procedure
 * printed step by step with its numbers, the engine's plan search that
 * confirms or corrects it, the chosen plan with why, and the next two
 * alternatives with their trade-offs.  All arithmetic is in
 * engine/recommend.c; this file parses flags and turns numbers into words
 * (text) or JSON.  An impossible request is an answer (exit 0, verdict
 * "infeasible", with the nearest feasible option); 2 means bad usage.
 */
#include <stdlib.h>
#include <string.h>

#include "recommend.h"
#include "cli.h"
#include "cli_common.h"
#include "json.h"
#include "launch.h"
#include "fleet.h"
#include "recommend_fleet.h"

#define CMD "recommend"
/* GPUs per node assumed when --gpus-per-node is not given. */
#define REC_DEFAULT_PER_NODE 8

static const char *objective_name(int i) { return engine_objective_name((engine_objective)i); }
static const cli_enum REC_OBJECTIVES = {objective_name, ENGINE_OBJ_COUNT};
static const char *disagg_name(int i) { return engine_fleet_disagg_name((engine_fleet_disagg)i); }
static const cli_enum REC_DISAGG = {disagg_name, ENGINE_FLEET_DISAGG_COUNT};

static const cli_opt RECOMMEND_OPTS[] = {
    {.name = "--gpus-max", .kind = CLI_OPT_INT, .arg = "N", .off = CLI_AT(gpus_max), .min = 1,
     .max = ENGINE_MAX_GPUS,
     .help = "GPUs available; replicas fill them (default: one replica);\n"
             "--gpus N means the same here"},
    {.name = "--gpus-per-node", .kind = CLI_OPT_INT, .arg = "K", .off = CLI_AT(gpus_per_node),
     .min = 1, .max = ENGINE_MAX_GPUS,
     .help = "GPUs per node (default 8); TP groups stay inside a node"},
    {.name = "--itl-ms", .kind = CLI_OPT_DOUBLE, .arg = "X", .off = CLI_AT(itl_ms), .min = 1e-6,
     .max = 1e9, .help = "target inter-token latency, ms"},
    {.name = "--ttft-ms", .kind = CLI_OPT_DOUBLE, .arg = "Y", .off = CLI_AT(ttft_ms),
     .min = 1e-6, .max = 1e9, .help = "target time to first token, ms"},
    {.name = "--concurrency", .kind = CLI_OPT_INT, .arg = "C", .off = CLI_AT(concurrency),
     .min = 1, .max = ENGINE_MAX_BATCH,
     .help = "concurrent sequences per replica (same as --batch)"},
    {.name = "--objective", .kind = CLI_OPT_ENUM, .arg = "O", .off = CLI_AT(objective),
     .choices = &REC_OBJECTIVES,
     .help = ": ranks feasible plans (default throughput:\n"
             "tokens/s of the GPUs allowed, or per GPU; latency:\n"
             "end-to-end; cost)"},
    {.name = "--allow-quant", .kind = CLI_OPT_STRING, .arg = "LIST", .off = CLI_AT(allow_quant),
     .help = "weight dtypes you accept besides --dtype (fp8,int8,int4)"},
    {.name = "--allow-spec", .kind = CLI_OPT_STRING, .arg = "LIST", .off = CLI_AT(allow_spec),
     .help = "speculative decoding it may choose besides --spec-method\n"
             "(eagle,mtp; each at its default k and acceptance)"},
    {.name = "--rate", .kind = CLI_OPT_STRING, .arg = "R", .off = CLI_AT(load_rate),
     .section = "fleet sizing:",
     .help = "requests/s (Poisson) to serve: the cheapest plan and GPU\n"
             "count meeting --ttft-ms and --itl-ms (each request's TPOT)\n"
             "at --slo-percentile, confirmed by the load simulation"},
    {.name = "--slo-percentile", .kind = CLI_OPT_DOUBLE, .arg = "P", .min = 1e-6, .max = 100,
     .off = CLI_AT(slo_percentile), .help = "percentile the targets hold at (default 99)"},
    {.name = "--disagg", .kind = CLI_OPT_ENUM, .arg = "MODE", .off = CLI_AT(disagg),
     .choices = &REC_DISAGG,
     .help = ": auto (default: aggregated and xPyD prefill/decode\n"
             "pools), off (aggregated only), only (xPyD only)"},
    {.name = "--requests", .kind = CLI_OPT_INT, .arg = "N", .min = 1, .max = ENGINE_MAX_SAMPLES,
     .off = CLI_AT(requests), .help = "requests per simulation (default 2000)"},
    {.name = NULL},
};

const cli_options cli_recommend_options = {
    .tables = {RECOMMEND_OPTS, cli_scenario_opts},
    .about = "Walks the decision procedure of \"Why distribute (and when not to)\": fit on one\n"
             "GPU with room for the KV cache of C concurrent sequences, decode floor against\n"
             "the ITL target, GPUs needed to fit, GPUs needed for latency, rounding to a TP\n"
             "degree the heads allow, the interconnect/topology check, replicas, and\n"
             "quantization instead of more GPUs or nodes.  Then checks the answer against\n"
             "the engine's full plan search (every replica size, every allowed dtype) and\n"
             "prints the chosen plan, why, a launch line for it for vLLM, SGLang and\n"
             "TensorRT-LLM, and the next two alternatives.\n",
    .footer = "Exit status: 0 with an answer, including \"infeasible\" (then the nearest\n"
              "feasible option is printed); 2 bad usage or input.\n"
              "Examples:\n"
              "  shardscope recommend --model llama-3-8b --gpu h100-sxm --itl-ms 40\n"
              "  shardscope recommend --model llama-3-70b --gpu h100-sxm --itl-ms 30\n"
              "  shardscope recommend --model llama-3.1-405b --gpu h100-sxm --allow-quant fp8\n",
};

/* The bits of a comma-separated list ("none" adds nothing): bit(name, ctx)
 * gives a name's bit index, or -1 after printing why it is refused (then
 * -1 here).  *mask is reset first. */
static int parse_mask(const char *list, int (*bit)(const char *name, const void *ctx),
                      const void *ctx, unsigned *mask)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", list);
    *mask = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (!strcmp(tok, "none"))
            continue;
        int b = bit(tok, ctx);
        if (b < 0)
            return -1;
        *mask |= 1u << b;
    }
    return 0;
}

/* --allow-quant: fp8, int8, int4. */
static int quant_bit(const char *tok, const void *ctx)
{
    (void)ctx;
    engine_dtype d;
    if (engine_dtype_parse(tok, &d) != 0 || (d != ENGINE_FP8 && d != ENGINE_INT8 &&
                                             d != ENGINE_INT4)) {
        fprintf(stderr,
                "shardscope " CMD ": --allow-quant: expected a comma-separated list of "
                "fp8, int8, int4, got '%s'\n",
                tok);
        return -1;
    }
    return (int)d;
}

/* --allow-spec: eagle and mtp (mtp only on a model with MTP layers; ctx is
 * the model, or NULL). */
static int spec_bit(const char *tok, const void *ctx)
{
    const engine_model *m = ctx;
    engine_spec_method s;
    if (engine_spec_method_parse(tok, &s) != 0 || s == ENGINE_SPEC_NONE) {
        fprintf(stderr, "shardscope " CMD ": --allow-spec: expected a comma-separated list of "
                        "eagle, mtp, got '%s'\n", tok);
        return -1;
    }
    if (s == ENGINE_SPEC_DRAFT) {
        fprintf(stderr, "shardscope " CMD ": --allow-spec: draft needs a draft model: give "
                        "--spec-method draft --spec-draft MODEL instead\n");
        return -1;
    }
    if (s == ENGINE_SPEC_MTP && m && m->mtp_layers < 1) {
        fprintf(stderr, "shardscope " CMD ": --allow-spec: mtp: %s has no MTP layers "
                        "(num_nextn_predict_layers 0)\n", m->name);
        return -1;
    }
    return (int)s;
}

/* --- formatting helpers ---------------------------------------------------- */

/* " + MTP speculation (k 1)" for an option that speculates, else "". */
static const char *spec_suffix(engine_spec_method m, char *buf, size_t n)
{
    if (m == ENGINE_SPEC_NONE)
        return "";
    snprintf(buf, n, ", %s speculation", engine_spec_method_name(m));
    return buf;
}

static char *fb(double v, char *buf, size_t n)
{
    return fmt_bytes(v, buf, n);
}

static char *fs(double v, char *buf, size_t n)
{
    return fmt_seconds(v, NULL, buf, n);
}

static char *plan_str(const engine_plan *p, engine_dtype d, char *buf, size_t n)
{
    int k = snprintf(buf, n, "TP=%d x PP=%d x DP=%d", p->tp, p->pp, p->dp);
    if (p->ep > 1 && k > 0 && (size_t)k < n)
        k += snprintf(buf + k, n - (size_t)k, " (EP=%d)", p->ep);
    if (k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, ", %s", engine_dtype_name(d));
    return buf;
}

static const char *verdict_word(recommend_verdict v)
{
    switch (v) {
    case REC_PASS: return "PASS";
    case REC_FAIL: return "FAIL";
    case REC_WARN: return "WARN";
    default: return "INFO";
    }
}

static void step_head(int i, const char *title, recommend_verdict v)
{
    printf("%2d. ", i);
    out_put_col(stdout, title, 30);
    printf("%s\n", verdict_word(v));
}

/* --- text ------------------------------------------------------------------ */

/* One printer per procedure step: the lines under its "N. title VERDICT"
 * head, from the step's typed numbers. */
typedef void (*step_printer)(const recommend_request *q, const recommend_result *r,
                             const recommend_step *st);

static void print_fit(const recommend_request *q, const recommend_result *r,
                      const recommend_step *st)
{
    (void)q;
    (void)r;
    const recommend_fit *f = &st->fit;
    char a1[32], a2[32], a3[32], a4[32];
    printf("    weights %s + KV %s (%d seq x %.0f tokens)\n"
           "    + activations %s + runtime %s\n",
           fb(f->weights_bytes, a1, sizeof a1), fb(f->kv_bytes, a2, sizeof a2), f->concurrency,
           f->context_tokens, fb(f->activation_bytes, a3, sizeof a3),
           fb(f->overhead_bytes, a4, sizeof a4));
    printf("    = %s %s %s usable (%s x %s)\n", fb(f->per_gpu_bytes, a1, sizeof a1),
           st->verdict == REC_PASS ? "<=" : ">", fb(f->capacity_bytes, a2, sizeof a2),
           fb(f->vram_bytes, a3, sizeof a3), fmt_fraction(f->usable_fraction, a4, sizeof a4));
    if (st->verdict == REC_PASS)
        printf("    room for the KV cache: %s (more concurrent sequences)\n",
               fb(f->kv_room_bytes, a1, sizeof a1));
    printf("    KV capacity: %.0f tokens in blocks of %d = %d sequence%s of %.0f tokens at most\n",
           f->kv_capacity_tokens, ENGINE_KV_BLOCK, f->max_concurrency,
           f->max_concurrency == 1 ? "" : "s", f->context_tokens);
    if (f->max_concurrency > f->max_num_seqs)
        printf("    a replica runs at most %d of them at once (max_num_seqs)\n", f->max_num_seqs);
}

static void print_floor(const recommend_request *q, const recommend_result *r,
                        const recommend_step *st)
{
    const recommend_floor *f = &st->floor;
    char a1[32], a2[32], a3[32], a4[32];
    int moe = q->base.model->experts > 0;
    printf("    floor = %s / peak HBM = %s / %s = %s", moe ? "W_active" : "W",
           fb(f->weights_bytes, a1, sizeof a1), fmt_rate(f->hbm_bytes_per_s, "B/s", a2, sizeof a2),
           fs(f->floor_s, a3, sizeof a3));
    if (q->itl_target_s > 0)
        printf(" %s target %s\n", st->verdict == REC_PASS ? "<=" : ">",
               fs(q->itl_target_s, a4, sizeof a4));
    else
        printf(" (no --itl-ms target)\n");
    if (moe)
        printf("    W_active: the weights one token reads (%d of %d experts a MoE layer)\n",
               q->base.model->top_k, q->base.model->experts);
    printf("    engine ITL on one GPU: %s (achievable bandwidth, KV reads, overhead)\n",
           fs(f->engine_itl_s, a1, sizeof a1));
    if (r->step[REC_STEP_FIT].verdict == REC_PASS && st->verdict != REC_FAIL)
        printf("    -> one GPU is enough: scale throughput with replicas (steps 2-5 confirm)\n");
}

static void print_n_fit(const recommend_request *q, const recommend_result *r,
                        const recommend_step *st)
{
    (void)q;
    (void)r;
    const recommend_n_fit *f = &st->n_fit;
    char a1[32], a2[32], a3[32], a4[32], a5[32], a6[32], a7[32];
    if (st->verdict == REC_FAIL) {
        printf("    usable %s - runtime %s - activations %s leaves nothing for weights: no "
               "number of GPUs fits\n",
               fb(f->capacity_bytes, a1, sizeof a1), fb(f->overhead_bytes, a2, sizeof a2),
               fb(f->activation_bytes, a3, sizeof a3));
        return;
    }
    printf("    n_fit = ceil((weights + KV) / (usable - runtime - activations))\n"
           "          = ceil((%s + %s) / (%s - %s - %s))\n"
           "          = ceil(%s / %s) = %d\n",
           fb(f->weights_bytes, a1, sizeof a1), fb(f->kv_bytes, a2, sizeof a2),
           fb(f->capacity_bytes, a3, sizeof a3), fb(f->overhead_bytes, a4, sizeof a4),
           fb(f->activation_bytes, a5, sizeof a5), fb(f->weights_bytes + f->kv_bytes, a6, sizeof a6),
           fb(f->budget_per_gpu_bytes, a7, sizeof a7), f->n_fit);
}

static void print_n_latency(const recommend_request *q, const recommend_result *r,
                            const recommend_step *st)
{
    (void)r;
    const recommend_n_latency *f = &st->n_latency;
    char a1[32], a2[32];
    if (q->itl_target_s <= 0) {
        printf("    no --itl-ms target: n_latency = 1\n");
        return;
    }
    printf("    n_latency = ceil(floor / ITL target) = ceil(%s / %s) = %d\n",
           fs(f->floor_s, a1, sizeof a1), fs(q->itl_target_s, a2, sizeof a2), f->n_latency);
    if (st->verdict == REC_FAIL)
        printf("    TP is capped at %d here (node size, heads): floor there %s > target;\n"
               "    PP does not cut per-token latency\n",
               f->tp_max, fs(f->floor_at_tp_max_s, a1, sizeof a1));
}

static void print_tp(const recommend_request *q, const recommend_result *r,
                     const recommend_step *st)
{
    const recommend_tp *f = &st->tp;
    const engine_scenario *b = &q->base;
    printf("    n = max(n_fit, n_latency) = %d -> TP=%d", f->n_needed, f->tp);
    if (f->pp > 1)
        printf(" x PP=%d", f->pp);
    printf(" (%d GPU%s)\n", f->unit_gpus, f->unit_gpus == 1 ? "" : "s");
    if (st->flags & REC_TP_ROUNDED)
        printf("    rounded up: TP must divide the %d attention heads and the %d KV heads\n",
               b->model->heads, b->model->kv_heads);
    if (st->flags & REC_TP_KV_REPLICATED)
        printf("    TP above the %d KV heads: each KV head is replicated (memory wasted)\n",
               b->model->kv_heads);
    if (st->flags & REC_TP_NODE_LIMITED)
        printf("    more than one node can hold with TP (%d GPU%s per node, TP <= %d):\n"
               "    TP inside the node, PP across nodes\n",
               b->gpus_per_node, b->gpus_per_node == 1 ? "" : "s", f->tp);
    if (st->flags & REC_TP_LATENCY_CAPPED)
        printf("    capped at TP=%d, the largest inside a node: TP alone cannot reach the ITL\n"
               "    target (step 4)\n",
               f->tp);
    if (st->flags & REC_TP_OVER_LIMIT)
        printf("    needs %d GPUs, more than --gpus-max %d\n", f->unit_gpus, q->gpus_max);
    if (r->step[REC_STEP_N_FIT].verdict == REC_FAIL)
        printf("    nothing fits at %s: see step 8 and the answer\n",
               engine_dtype_name(b->weight_dtype));
}

static void print_topology(const recommend_request *q, const recommend_result *r,
                           const recommend_step *st)
{
    (void)r;
    const recommend_topology *f = &st->topology;
    const engine_scenario *b = &q->base;
    char a1[32], a2[32], a3[32];
    if (st->flags & REC_TOPO_NO_TP)
        printf("    TP=1: no all-reduce traffic\n");
    else if (f->tp > 1)
        printf("    TP=%d over %s (%s): all-reduce %s of decode, %s of prefill\n", f->tp,
               b->intra->name, fmt_rate(f->link_bytes_per_s, "B/s", a1, sizeof a1),
               fmt_percent(f->decode_comm_fraction, a2, sizeof a2),
               fmt_percent(f->prefill_comm_fraction, a3, sizeof a3));
    if (st->flags & REC_TOPO_SLOW_TP)
        printf("    not NVLink-class or communication-heavy: a smaller TP degree plus replicas,\n"
               "    or quantization, is often better (seed 004 step 5)\n");
    if (st->flags & REC_TOPO_PP_CROSS)
        printf("    PP stages span %d nodes over %s: only activations cross (p2p)\n", f->nodes,
               b->inter ? b->inter->name : b->intra->name);
    if (st->flags & REC_TOPO_SAME_INTER)
        printf("    no --inter-link: nodes assumed joined by %s too\n", b->intra->name);
    if (st->flags & REC_TOPO_NOT_FIT)
        printf("    the engine's memory model says this unit does not fit (it counts the\n"
               "    largest stage's embeddings/head too): see step 9\n");
    if (!(st->flags & (REC_TOPO_NO_TP | REC_TOPO_SLOW_TP | REC_TOPO_NOT_FIT)) && f->tp > 1)
        printf("    TP group inside one node on a fast link: good\n");
}

static void print_replicas(const recommend_request *q, const recommend_result *r,
                           const recommend_step *st)
{
    (void)r;
    const recommend_replicas *f = &st->replicas;
    if (q->gpus_max > 0 && f->dp >= 1)
        printf("    %.0f GPUs allowed / %d per replica = DP=%d: %.1f tok/s each, %.1f tok/s "
               "in all\n",
               (double)q->gpus_max, f->unit_gpus, f->dp, f->tokens_per_s_replica,
               f->tokens_per_s_total);
    else if (q->gpus_max > 0)
        printf("    a replica needs %d GPUs, more than the %d allowed\n", f->unit_gpus,
               q->gpus_max);
    else
        printf("    add replicas of this %d-GPU unit for throughput (%.1f tok/s each, no\n"
               "    communication between them); --gpus-max N sizes them\n",
               f->unit_gpus, f->tokens_per_s_replica);
}

static void print_quant(const recommend_request *q, const recommend_result *r,
                        const recommend_step *st)
{
    (void)q;
    const recommend_quant *f = &st->quant;
    char a1[32];
    for (int i = 0; i < f->n; i++) {
        const char *dn = engine_dtype_name(f->q[i].dtype);
        int u = f->q[i].unit_gpus;
        if (u > 0)
            printf("    %-4s weights %s -> %d GPU%s%s\n", dn,
                   fb(f->q[i].weights_bytes, a1, sizeof a1), u, u == 1 ? "" : "s",
                   f->q[i].allowed ? " (allowed)" : "");
        else
            printf("    %-4s weights %s -> does not fit either%s\n", dn,
                   fb(f->q[i].weights_bytes, a1, sizeof a1), f->q[i].allowed ? " (allowed)" : "");
    }
    if (st->verdict == REC_PASS)
        printf("    -> quantizing to %s saves GPUs or nodes: the procedure uses it\n",
               engine_dtype_name(r->procedure_dtype));
    else if (st->flags & REC_QUANT_WOULD_HELP)
        printf("    -> quantization would save GPUs or nodes: accept it with --allow-quant\n");
    if (f->procedure_ok)
        printf("    procedure's answer: TP=%d x PP=%d, %s, %d GPU%s per replica\n",
               r->procedure_tp, r->procedure_pp, engine_dtype_name(r->procedure_dtype),
               r->procedure_tp * r->procedure_pp,
               r->procedure_tp * r->procedure_pp == 1 ? "" : "s");
    else
        printf("    the procedure finds no plan within the limits\n");
}

/* Why the search moved away from the procedure's plan. */
static void print_search_differs(const recommend_request *q, const recommend_result *r,
                                 const recommend_step *st)
{
    const recommend_search *f = &st->search;
    char a1[32], a2[32];
    printf("    differs from the procedure: the search picks TP=%d x PP=%d, %s\n", f->tp, f->pp,
           engine_dtype_name(r->chosen.dtype));
    if (st->flags & REC_ENG_NOT_FIT)
        printf("    because the procedure's plan does not fit in the engine's memory "
               "model\n    (per-stage weights incl. embeddings/head, sharded KV, "
               "workspace)\n");
    if (st->flags & REC_ENG_TARGET_MISSED)
        printf("    because the procedure's plan misses a target in the engine: ITL %s, "
               "TTFT %s\n    (the floor ignores achievable bandwidth, KV reads, "
               "per-layer overhead and communication)\n",
               fs(f->procedure_itl_s, a1, sizeof a1), fs(f->procedure_ttft_s, a2, sizeof a2));
    if (st->flags & REC_ENG_BETTER)
        printf("    because it scores better for --objective %s (procedure's plan: ITL %s,"
               " %.1f tok/s per replica)\n",
               engine_objective_name(q->base.objective), fs(f->procedure_itl_s, a1, sizeof a1),
               f->procedure_tokens_per_s);
}

static void print_search(const recommend_request *q, const recommend_result *r,
                         const recommend_step *st)
{
    const recommend_search *f = &st->search;
    char a1[32], a2[32];
    printf("    %d plans evaluated (replicas of up to %d GPUs, %s and smaller dtypes);\n"
           "    %d fit and meet every constraint\n",
           f->plans_evaluated, q->gpus_max > RECOMMEND_MAX_UNIT ? q->gpus_max : RECOMMEND_MAX_UNIT,
           engine_dtype_name(q->base.weight_dtype), f->plans_feasible);
    if (!r->have_choice)
        return;
    if (st->flags & REC_ENG_AGREES)
        printf("    agrees with the procedure: TP=%d x PP=%d, %s (ITL %s, TTFT %s)\n", f->tp,
               f->pp, engine_dtype_name(r->chosen.dtype), fs(f->itl_s, a1, sizeof a1),
               fs(f->ttft_s, a2, sizeof a2));
    else
        print_search_differs(q, r, st);
    if (st->flags & REC_ENG_TOPO_EXCLUDED)
        printf("    set aside: TP=%d x PP=%d with TP across nodes (keep TP groups within a "
               "node)\n",
               r->unconstrained.plan.tp, r->unconstrained.plan.pp);
}

static const struct {
    recommend_step_id id;
    const char *title;
    step_printer print;
} STEP_PRINTERS[] = {
    {REC_STEP_FIT, "fits on one GPU?", print_fit},
    {REC_STEP_FLOOR, "decode floor vs ITL target", print_floor},
    {REC_STEP_N_FIT, "GPUs needed to fit (n_fit)", print_n_fit},
    {REC_STEP_N_LATENCY, "GPUs needed for latency", print_n_latency},
    {REC_STEP_TP, "round to a TP degree", print_tp},
    {REC_STEP_TOPOLOGY, "interconnect and topology", print_topology},
    {REC_STEP_REPLICAS, "replicas for throughput", print_replicas},
    {REC_STEP_QUANT, "quantization instead?", print_quant},
    {REC_STEP_ENGINE, "engine plan search", print_search},
};

static void print_steps(const recommend_request *q, const recommend_result *r)
{
    for (size_t i = 0; i < sizeof STEP_PRINTERS / sizeof STEP_PRINTERS[0]; i++) {
        const recommend_step *st = &r->step[STEP_PRINTERS[i].id];
        step_head((int)i + 1, STEP_PRINTERS[i].title, st->verdict);
        STEP_PRINTERS[i].print(q, r, st);
    }
}

static void option_figures(const recommend_option *o, const char *indent)
{
    char a1[32], a2[32], a3[32], a4[32];
    const engine_result *u = &o->unit;
    printf("%sITL %s, TTFT %s, %.1f tok/s per replica\n", indent, fs(u->itl_s, a1, sizeof a1),
           fs(u->ttft_s, a2, sizeof a2), u->tokens_per_s);
    printf("%s%s per GPU of %s usable", indent, fb(u->mem.per_gpu_bytes, a3, sizeof a3),
           fb(u->mem.capacity_bytes, a4, sizeof a4));
    if (u->cost_per_mtok_usd > 0)
        printf(", %s per 1M tokens", fmt_usd(u->cost_per_mtok_usd, a1, sizeof a1));
    printf("\n");
}

static double ratio(double a, double b)
{
    return b > 0 ? a / b : 0;
}

static void print_alt(const recommend_request *q, const recommend_result *r, int i)
{
    const recommend_option *o = &r->alt[i], *c = &r->chosen;
    char p[96], a1[32];
    char sx[48];
    printf("  %d. %s%s: %d GPU%s per replica", i + 1, plan_str(&o->plan, o->dtype, p, sizeof p),
           spec_suffix(o->spec, sx, sizeof sx), o->unit_gpus, o->unit_gpus == 1 ? "" : "s");
    if (o->nodes > 1)
        printf(" on %d nodes", o->nodes);
    if (!o->allowed)
        printf(" (needs --allow-quant %s)", engine_dtype_name(o->dtype));
    printf("\n");
    option_figures(o, "     ");
    double tpg_o = o->unit.tokens_per_s / o->unit_gpus, tpg_c = c->unit.tokens_per_s / c->unit_gpus;
    printf("     vs chosen: ITL x%.2f, tokens/s per GPU x%.2f", ratio(o->unit.itl_s, c->unit.itl_s),
           ratio(tpg_o, tpg_c));
    if (o->unit.cost_per_mtok_usd > 0 && c->unit.cost_per_mtok_usd > 0)
        printf(", cost per token x%.2f", ratio(o->unit.cost_per_mtok_usd, c->unit.cost_per_mtok_usd));
    printf("\n");
    if (q->gpus_max > 0)
        printf("     on the %d GPUs: DP=%d, %.1f tok/s in all\n", q->gpus_max, o->plan.dp,
               o->unit.tokens_per_s * o->replicas);
    if (o->dtype != c->dtype)
        printf("     %s weights: %s\n", engine_dtype_name(o->dtype),
               engine_dtype_bytes(o->dtype) < engine_dtype_bytes(c->dtype)
                   ? "fewer bytes per token, some accuracy risk"
                   : "no quantization loss, more memory and bandwidth");
    if (o->spec != c->spec)
        printf("     %s\n", o->spec == ENGINE_SPEC_NONE
                                ? "no speculative decoding: one token per target step"
                                : "speculative decoding: more tokens per target step at the "
                                  "acceptance assumed");
    if (o->nodes > c->nodes)
        printf("     spans %d nodes: multi-node operations (seed 004 §8)\n", o->nodes);
    if (o->plan.pp > 1 && c->plan.pp == 1)
        printf("     pipeline: per-token latency is not cut, prefill bubble %s\n",
               fmt_percent(o->unit.bubble_fraction, a1, sizeof a1));
}

static void print_why(const recommend_request *q, const recommend_result *r)
{
    const recommend_option *c = &r->chosen;
    char a1[32];
    printf("  why: ");
    switch (q->base.objective) {
    case ENGINE_OBJ_LATENCY:
        printf("lowest end-to-end latency (%s) of the plans that fit", fs(c->unit.e2e_s, a1, sizeof a1));
        break;
    case ENGINE_OBJ_COST:
        if (c->unit.cost_per_mtok_usd > 0) {
            printf("lowest cost per 1M tokens (%s) of the plans that fit",
                   fmt_usd(c->unit.cost_per_mtok_usd, a1, sizeof a1));
            break;
        }
        /* no price: cost ranks by throughput per GPU */
        /* fall through */
    default:
        if (q->gpus_max > 0)
            printf("most tokens/s on the %d GPUs allowed (%.1f) of the plans that fit", q->gpus_max,
                   c->unit.tokens_per_s * c->replicas);
        else
            printf("most tokens/s per GPU (%.1f) of the plans that fit",
                   c->unit.tokens_per_s / c->unit_gpus);
        break;
    }
    if (q->itl_target_s > 0 || q->ttft_target_s > 0)
        printf(" and meet the targets");
    printf(";\n       ");
    if (c->unit_gpus == 1)
        printf("one GPU per replica: no communication at all");
    else if (r->step[REC_STEP_ENGINE].flags & REC_ENG_AGREES)
        printf("the smallest split the procedure allows (step 5)");
    else
        printf("the search prefers it to the procedure's TP=%d x PP=%d (step 9)", r->procedure_tp,
               r->procedure_pp);
    if (c->replicas > 1) /* only where there are replicas (DP > 1) */
        printf(";\n       replicas add throughput without communication");
    if (c->spec != ENGINE_SPEC_NONE && c->spec != q->base.spec_method) {
        /* the same unit without speculation, for the comparison */
        engine_scenario s;
        engine_result plain;
        recommend_option_scenario(q, c, &s);
        s.spec_method = q->base.spec_method;
        s.spec_k = q->base.spec_k;
        s.spec_accept = q->base.spec_accept;
        engine_plan unit = {c->plan.tp, c->plan.pp, c->plan.dp / c->replicas, c->plan.ep};
        if (engine_evaluate(&s, unit, &plain, NULL) == 0 && plain.valid) {
            char a2[32];
            const engine_spec_result *sp = &c->unit.spec;
            printf(";\n       %s speculative decoding (allowed by --allow-spec): k %d at "
                   "acceptance %.3g, %.2f tokens per target step: ITL %s against %s without",
                   engine_spec_method_name(c->spec), sp->k, sp->accept, sp->tokens_per_step,
                   fs(c->unit.itl_s, a1, sizeof a1), fs(plain.itl_s, a2, sizeof a2));
        }
    }
    printf("\n");
}

/* One launch line per framework for the chosen plan (launch.h). */
static void print_launch(const recommend_result *r)
{
    char line[ENGINE_LAUNCH_MAX];
    printf("launch (flags as documented: vLLM v0.10, SGLang v0.5, TensorRT-LLM 1.x):\n");
    for (int f = 0; f < ENGINE_LAUNCH_COUNT; f++)
        if (engine_launch_line((engine_launch_fw)f, &r->chosen_scenario, &r->chosen_result, line,
                               sizeof line) == 0)
            printf("  %-7s %s\n", engine_launch_name((engine_launch_fw)f), line);
}

static void print_answer(const recommend_request *q, const recommend_result *r)
{
    char p[96], a1[32], a2[32];
    const engine_scenario *b = &q->base;
    printf("\n");
    if (r->have_choice) {
        const recommend_option *c = &r->chosen;
        const engine_result *cr = &r->chosen_result;
        char sx[48];
        printf("answer: %s%s - %d GPU%s", plan_str(&c->plan, c->dtype, p, sizeof p),
               spec_suffix(c->spec, sx, sizeof sx), c->gpus, c->gpus == 1 ? "" : "s");
        if (c->replicas > 1)
            printf(" (%d replicas of %d)", c->replicas, c->unit_gpus);
        if (c->nodes > 1)
            printf(", each replica on %d nodes", c->nodes);
        printf("\n");
        option_figures(c, "  ");
        printf("  P50 %s, P99 %s end to end; %.1f tok/s in all\n", fs(cr->p50_s, a1, sizeof a1),
               fs(cr->p99_s, a2, sizeof a2), cr->tokens_per_s);
        if (q->gpus_max <= 0)
            printf("  scale throughput with replicas of this %d-GPU unit\n", c->unit_gpus);
        print_why(q, r);
        print_launch(r);
        if (r->n_alts) {
            printf("alternatives:\n");
            for (int i = 0; i < r->n_alts; i++)
                print_alt(q, r, i);
        }
        return;
    }
    printf("answer: infeasible - ");
    switch (r->status) {
    case REC_INFEASIBLE_ITL:
        printf("no plan that fits reaches ITL <= %s", fs(q->itl_target_s, a1, sizeof a1));
        if (r->step[REC_STEP_N_LATENCY].verdict == REC_FAIL)
            printf(": the decode floor at the largest TP (%d) is %s",
                   r->step[REC_STEP_N_LATENCY].n_latency.tp_max,
                   fs(r->step[REC_STEP_N_LATENCY].n_latency.floor_at_tp_max_s, a2, sizeof a2));
        printf("\n");
        break;
    case REC_INFEASIBLE_TTFT:
        printf("no plan that fits reaches TTFT <= %s\n", fs(q->ttft_target_s, a1, sizeof a1));
        break;
    default:
        printf("%s does not fit on %s%d x %s at %s with KV for %d sequence%s\n",
               fmt_model_name(b->model), q->gpus_max > 0 ? "" : "up to ",
               q->gpus_max > 0 ? q->gpus_max : RECOMMEND_MAX_UNIT, fmt_gpu_name(b->gpu),
               engine_dtype_name(b->weight_dtype), b->batch, b->batch == 1 ? "" : "s");
        break;
    }
    if (r->nearest_kind == REC_NEAR_NONE) {
        printf("nearest feasible option: none found on up to %d GPUs at any dtype; use GPUs with "
               "more memory or fewer concurrent sequences\n",
               q->gpus_max > RECOMMEND_MAX_UNIT ? q->gpus_max : RECOMMEND_MAX_UNIT);
        return;
    }
    const recommend_option *n = &r->nearest;
    printf("nearest feasible option: %s, %d GPU%s per replica", plan_str(&n->plan, n->dtype, p, sizeof p),
           n->unit_gpus, n->unit_gpus == 1 ? "" : "s");
    switch (r->nearest_kind) {
    case REC_NEAR_TARGET:
        printf(" - the best reachable: relax the target\n");
        break;
    case REC_NEAR_QUANT:
        printf(" - add --allow-quant %s\n", engine_dtype_name(n->dtype));
        break;
    case REC_NEAR_GPUS:
        printf(" - needs %d GPUs\n", n->unit_gpus);
        break;
    default:
        printf(" - needs %d GPUs and --allow-quant %s\n", n->unit_gpus, engine_dtype_name(n->dtype));
        break;
    }
    option_figures(n, "  ");
}

static const char *const NOTES[] = {
    "GB = 1e9 bytes. Seed 002's memory table uses GiB (2^30 bytes): 70B at FP16 is 130.4 GiB = "
    "140 GB, 405B is 754.4 GiB = 810 GB.",
    "Usable memory is VRAM x the framework's usable fraction (0.90 for the generic engine and "
    "vLLM's gpu_memory_utilization, SGLang's by plan, TensorRT-LLM's of what the weights leave "
    "free) minus the runtime overhead (generic 2 GB) and the prefill workspace. Seed 004 counts the whole 80 GB (\"60 GB "
    "for KV\" in example A) and budgets 80 - 4 - 10 = 66 GB per GPU in example B; here the KV "
    "term is that of the requested concurrency (example B gives n_fit = 3 either way).",
    "The decode floor uses peak HBM bandwidth, as seed 004 does; the engine's ITL adds achievable "
    "bandwidth, KV reads, per-layer overhead and communication.",
};
#define N_NOTES ((int)(sizeof NOTES / sizeof NOTES[0]))

/* "  - " then the text wrapped at 78 columns, continuation lines indented. */
static void print_wrapped(const char *text)
{
    const char *p = text;
    int first = 1;
    while (*p) {
        size_t n = strlen(p);
        if (n > 74) {
            n = 74;
            while (n > 0 && p[n] != ' ')
                n--;
            if (n == 0)
                n = 74;
        }
        printf("%s%.*s\n", first ? "  - " : "    ", (int)n, p);
        p += n;
        while (*p == ' ')
            p++;
        first = 0;
    }
}

static void print_text(const recommend_request *q, const recommend_result *r)
{
    const engine_scenario *b = &q->base;
    char a1[32], a2[32];
    printf("%s on %s (%s each)\n", fmt_model_name(b->model), fmt_gpu_name(b->gpu),
           fb(engine_scenario_vram(b), a1, sizeof a1));
    printf("link %s", b->intra->name);
    if (b->gpus_per_node > 0)
        printf(", %d GPU%s per node", b->gpus_per_node, b->gpus_per_node == 1 ? "" : "s");
    if (b->inter)
        printf(", nodes joined by %s", b->inter->name);
    printf("\n");
    printf("targets: ITL %s, TTFT %s; %d concurrent sequence%s per replica,\n"
           "prompt %d + gen %d tokens; ",
           q->itl_target_s > 0 ? fs(q->itl_target_s, a1, sizeof a1) : "none",
           q->ttft_target_s > 0 ? fs(q->ttft_target_s, a2, sizeof a2) : "none", b->batch,
           b->batch == 1 ? "" : "s", b->prompt, b->gen);
    printf("weights %s", engine_dtype_name(b->weight_dtype));
    for (int d = 0; d < ENGINE_DTYPE_COUNT; d++)
        if (q->allow_quant & (1u << d))
            printf(", %s allowed", engine_dtype_name((engine_dtype)d));
    printf("; GPUs %s; objective %s\n\n", q->gpus_max > 0 ? "limited" : "not limited",
           engine_objective_name(b->objective));
    if (q->gpus_max > 0)
        printf("GPUs allowed: %d\n\n", q->gpus_max);
    printf("decision procedure of seed 004, \"Why distribute (and when not to)\" (the study\n"
           "note this project started from: one GPU if it fits and is fast enough, else the\n"
           "smallest TP degree, replicas for throughput, quantization as the alternative):\n");
    print_steps(q, r);
    print_answer(q, r);
    printf("\nnotes:\n");
    for (int i = 0; i < N_NOTES; i++)
        print_wrapped(NOTES[i]);
}

/* --- JSON ------------------------------------------------------------------ */

static void add_flag_names(cJSON *o, const recommend_step *st)
{
    static const struct {
        recommend_step_id id;
        unsigned bit;
        const char *name;
    } F[] = {
        {REC_STEP_TP, REC_TP_ROUNDED, "rounded_to_heads"},
        {REC_STEP_TP, REC_TP_KV_REPLICATED, "kv_heads_replicated"},
        {REC_STEP_TP, REC_TP_NODE_LIMITED, "pp_across_nodes"},
        {REC_STEP_TP, REC_TP_OVER_LIMIT, "over_gpus_max"},
        {REC_STEP_TP, REC_TP_LATENCY_CAPPED, "tp_capped_below_latency_need"},
        {REC_STEP_TOPOLOGY, REC_TOPO_NO_TP, "no_tp_traffic"},
        {REC_STEP_TOPOLOGY, REC_TOPO_SLOW_TP, "tp_on_slow_link"},
        {REC_STEP_TOPOLOGY, REC_TOPO_PP_CROSS, "pp_crosses_nodes"},
        {REC_STEP_TOPOLOGY, REC_TOPO_NOT_FIT, "engine_says_no_fit"},
        {REC_STEP_TOPOLOGY, REC_TOPO_SAME_INTER, "inter_link_assumed_same"},
        {REC_STEP_QUANT, REC_QUANT_WOULD_HELP, "quant_would_help_if_allowed"},
        {REC_STEP_ENGINE, REC_ENG_AGREES, "agrees"},
        {REC_STEP_ENGINE, REC_ENG_TARGET_MISSED, "procedure_misses_target"},
        {REC_STEP_ENGINE, REC_ENG_NOT_FIT, "procedure_does_not_fit"},
        {REC_STEP_ENGINE, REC_ENG_BETTER, "search_found_better"},
        {REC_STEP_ENGINE, REC_ENG_TOPO_EXCLUDED, "cross_node_tp_excluded"},
    };
    cJSON *arr = cJSON_AddArrayToObject(o, "flags");
    for (size_t i = 0; arr && i < sizeof F / sizeof F[0]; i++)
        if (F[i].id == st->id && (st->flags & F[i].bit))
            cJSON_AddItemToArray(arr, cJSON_CreateString(F[i].name));
}

static cJSON *option_json(const recommend_request *q, const recommend_option *o)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddItemToObject(j, "plan", out_plan_json(&o->plan));
    cJSON_AddStringToObject(j, "dtype", engine_dtype_name(o->dtype));
    cJSON_AddStringToObject(j, "spec_method", engine_spec_method_name(o->spec));
    cJSON_AddNumberToObject(j, "gpus", o->gpus);
    cJSON_AddNumberToObject(j, "unit_gpus", o->unit_gpus);
    cJSON_AddNumberToObject(j, "nodes", o->nodes);
    cJSON_AddBoolToObject(j, "allowed", o->allowed);
    cJSON_AddBoolToObject(j, "within_gpus_max", o->within_limit);
    cJSON_AddBoolToObject(j, "meets_itl", o->meets_itl);
    cJSON_AddBoolToObject(j, "meets_ttft", o->meets_ttft);
    engine_scenario s;
    recommend_option_scenario(q, o, &s);
    cJSON_AddItemToObject(j, "replica", cli_result_json(&s, &o->unit));
    return j;
}

/* The request echo: limits, targets, concurrency, dtypes, objective. */
static void add_request(cJSON *root, const recommend_request *q)
{
    cJSON *req = cJSON_AddObjectToObject(root, "request");
    if (q->gpus_max > 0)
        cJSON_AddNumberToObject(req, "gpus_max", q->gpus_max);
    else
        cJSON_AddNullToObject(req, "gpus_max");
    if (q->itl_target_s > 0)
        cJSON_AddNumberToObject(req, "itl_target_s", q->itl_target_s);
    else
        cJSON_AddNullToObject(req, "itl_target_s");
    if (q->ttft_target_s > 0)
        cJSON_AddNumberToObject(req, "ttft_target_s", q->ttft_target_s);
    else
        cJSON_AddNullToObject(req, "ttft_target_s");
    cJSON_AddNumberToObject(req, "concurrency", q->base.batch);
    cJSON *aq = cJSON_AddArrayToObject(req, "allow_quant");
    for (int d = 0; d < ENGINE_DTYPE_COUNT; d++)
        if (q->allow_quant & (1u << d))
            cJSON_AddItemToArray(aq, cJSON_CreateString(engine_dtype_name((engine_dtype)d)));
    cJSON *as = cJSON_AddArrayToObject(req, "allow_spec");
    for (int m = 0; m < ENGINE_SPEC_COUNT; m++)
        if (q->allow_spec & (1u << m))
            cJSON_AddItemToArray(as, cJSON_CreateString(engine_spec_method_name((engine_spec_method)m)));
    cJSON_AddStringToObject(req, "objective", engine_objective_name(q->base.objective));
}

/* Every step: name, verdict, its named numbers and its flags. */
static void add_steps(cJSON *root, const recommend_result *r)
{
    cJSON *steps = cJSON_AddArrayToObject(root, "steps");
    for (int i = 0; i < REC_STEP_COUNT; i++) {
        const recommend_step *st = &r->step[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", recommend_step_name(st->id));
        cJSON_AddStringToObject(o, "verdict", recommend_verdict_name(st->verdict));
        for (int k = 0; k < st->n; k++)
            cli_json_add_number(o, st->num[k].key, st->num[k].value);
        add_flag_names(o, st);
        cJSON_AddItemToArray(steps, o);
    }
}

/* "launch": {vllm, sglang, trtllm} for the chosen plan; null without one. */
static void add_launch(cJSON *root, const recommend_result *r)
{
    if (!r->have_choice) {
        cJSON_AddNullToObject(root, "launch");
        return;
    }
    cJSON *l = cJSON_AddObjectToObject(root, "launch");
    char line[ENGINE_LAUNCH_MAX];
    for (int f = 0; f < ENGINE_LAUNCH_COUNT && l; f++) {
        const char *name = engine_launch_name((engine_launch_fw)f);
        if (engine_launch_line((engine_launch_fw)f, &r->chosen_scenario, &r->chosen_result, line,
                               sizeof line) == 0)
            cJSON_AddStringToObject(l, name, line);
        else
            cJSON_AddNullToObject(l, name);
    }
}

static int print_json(const recommend_request *q, const recommend_result *r)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return CLI_FAIL;
    cJSON_AddItemToObject(root, "scenario", cli_scenario_json(&q->base));
    add_request(root, q);

    cJSON_AddStringToObject(root, "verdict", recommend_status_name(r->status));
    static const char *const WHY[] = {NULL, "does_not_fit", "itl_target", "ttft_target"};
    if (WHY[r->status])
        cJSON_AddStringToObject(root, "infeasible_because", WHY[r->status]);
    else
        cJSON_AddNullToObject(root, "infeasible_because");
    if (r->have_choice) {
        cJSON_AddItemToObject(root, "plan", out_plan_json(&r->chosen.plan));
        cJSON_AddStringToObject(root, "dtype", engine_dtype_name(r->chosen.dtype));
        cJSON_AddNumberToObject(root, "gpus", r->chosen.gpus);
        cJSON_AddNumberToObject(root, "unit_gpus", r->chosen.unit_gpus);
        cJSON_AddNumberToObject(root, "nodes_per_replica", r->chosen.nodes);
    } else {
        cJSON_AddNullToObject(root, "plan");
        cJSON_AddNullToObject(root, "dtype");
        cJSON_AddNullToObject(root, "gpus");
        cJSON_AddNullToObject(root, "unit_gpus");
        cJSON_AddNullToObject(root, "nodes_per_replica");
    }
    cJSON *proc = cJSON_AddObjectToObject(root, "procedure");
    engine_plan pp = {r->procedure_tp, r->procedure_pp, r->procedure_dp, 1};
    cJSON_AddItemToObject(proc, "plan", out_plan_json(&pp));
    cJSON_AddStringToObject(proc, "dtype", engine_dtype_name(r->procedure_dtype));
    cJSON_AddBoolToObject(proc, "ok", r->step[REC_STEP_QUANT].quant.procedure_ok > 0);
    cJSON_AddBoolToObject(proc, "agrees_with_search", (r->step[REC_STEP_ENGINE].flags & REC_ENG_AGREES) != 0);

    add_steps(root, r);
    cJSON *alts = cJSON_AddArrayToObject(root, "alternatives");
    for (int i = 0; i < r->n_alts; i++)
        cJSON_AddItemToArray(alts, option_json(q, &r->alt[i]));
    if (r->nearest_kind != REC_NEAR_NONE) {
        static const char *const NK[] = {"none", "relax_target", "allow_quant", "more_gpus",
                                         "more_gpus_and_quant"};
        cJSON *n = option_json(q, &r->nearest);
        cJSON_AddStringToObject(n, "needs", NK[r->nearest_kind]);
        cJSON_AddItemToObject(root, "nearest", n);
    } else {
        cJSON_AddNullToObject(root, "nearest");
    }
    if (r->have_choice)
        cJSON_AddItemToObject(root, "result", cli_result_json(&r->chosen_scenario, &r->chosen_result));
    else
        cJSON_AddNullToObject(root, "result");
    add_launch(root, r);
    cJSON *notes = cJSON_AddArrayToObject(root, "notes");
    for (int i = 0; i < N_NOTES; i++)
        cJSON_AddItemToArray(notes, cJSON_CreateString(NOTES[i]));
    return cli_json_print(CMD, stdout, root) ? CLI_FAIL : CLI_OK;
}

/* --- entry ----------------------------------------------------------------- */

int cli_recommend_run(const cli_opts *o, const preset_db *db)
{
    unsigned allow_quant = 0;
    if (o->v.allow_quant && parse_mask(o->v.allow_quant, quant_bit, NULL, &allow_quant) != 0)
        return CLI_USAGE;
    if (CLI_SEEN(o, tp) || CLI_SEEN(o, pp) || CLI_SEEN(o, dp) || CLI_SEEN(o, ep)) {
        fprintf(stderr, "shardscope " CMD ": --tp/--pp/--dp/--ep: recommend chooses the plan; "
                        "use 'shardscope eval' to evaluate one\n");
        return CLI_USAGE;
    }
    if (cli_recommend_fleet_flags(o) != 0)
        return CLI_USAGE;
    cli_scenario *cs = calloc(1, sizeof *cs);
    recommend_result *res = calloc(1, sizeof *res);
    recommend_request *q = calloc(1, sizeof *q);
    int rc = CLI_FAIL;
    engine_error err = {{0}};
    if (!cs || !res || !q) {
        fprintf(stderr, "shardscope " CMD ": out of memory\n");
        goto done;
    }
    if (cli_scenario_load(o, db, CLI_NEED_MODEL | CLI_NEED_GPU, CMD, cs, &err) != 0) {
        rc = cli_fail(CMD, &err);
        goto done;
    }
    q->base = cs->scenario;
    q->allow_quant = allow_quant;
    if (o->v.allow_spec &&
        parse_mask(o->v.allow_spec, spec_bit, q->base.model, &q->allow_spec) != 0) {
        rc = CLI_USAGE;
        goto done;
    }
    if (cli_recommend_is_fleet(o)) {
        rc = cli_recommend_fleet(o, cs, allow_quant, q->allow_spec);
        goto done;
    }
    /* --gpus N reads as the number of GPUs available. */
    q->gpus_max = CLI_SEEN(o, gpus_max) ? o->v.gpus_max
                  : CLI_SEEN(o, gpus)   ? cs->scenario.gpus
                                        : 0;
    if (CLI_SEEN(o, concurrency))
        q->base.batch = o->v.concurrency;
    if (!CLI_SEEN(o, objective))
        q->base.objective = ENGINE_OBJ_THROUGHPUT;
    if (!CLI_SEEN(o, gpus_per_node))
        q->base.gpus_per_node = REC_DEFAULT_PER_NODE;
    q->itl_target_s = o->v.itl_ms / 1e3;
    q->ttft_target_s = o->v.ttft_ms / 1e3;
    if (recommend_run(q, res, &err) != 0) {
        rc = cli_fail(CMD, &err);
        goto done;
    }
    if (o->v.json) {
        rc = print_json(q, res);
    } else {
        print_text(q, res);
        rc = CLI_OK;
    }
done:
    free(q);
    free(res);
    free(cs);
    return rc;
}
