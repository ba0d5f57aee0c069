/*
 * recommend.c - seed 004's decision procedure, step by step with its
 * numbers, then the engine's plan search over replica sizes and weight
 * dtypes to confirm (or correct) it and to name the alternatives.
 *
 * The procedure is the seed's closed-form arithmetic on the engine's own
 * terms (weights, KV of the requested concurrency, activation workspace,
 * runtime overhead, usable memory); the search is engine_rank() for every
 * replica size 1..16 and then every multiple of 8 (and of the node size) up
 * to the limit, keeping the one-replica plans (dp = 1) that fit.  Replicas
 * then fill the GPUs allowed.  TP groups stay inside a node (seed 004 §8:
 * "keep TP groups within an NVLink domain"); the unconstrained best is
 * reported when it would break that rule.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "recommend.h"

/* A step's TP traffic above this share of a prefill or decode step, or a
 * link below this bandwidth, makes the topology check warn. */
#define REC_COMM_WARN 0.30
#define REC_NVLINK_CLASS_BPS 100e9
/* The largest replica ever searched. */
#define REC_SEARCH_CAP 512

static const char *const STEP_NAMES[REC_STEP_COUNT] = {
    "fit_one_gpu", "decode_floor", "n_fit", "n_latency", "tp_degree",
    "topology", "replicas", "quantization", "engine_search",
};

const char *recommend_step_name(recommend_step_id id)
{
    return (unsigned)id < REC_STEP_COUNT ? STEP_NAMES[id] : "?";
}

const char *recommend_verdict_name(recommend_verdict v)
{
    switch (v) {
    case REC_PASS: return "pass";
    case REC_FAIL: return "fail";
    case REC_WARN: return "warn";
    default: return "info";
    }
}

const char *recommend_status_name(recommend_status s)
{
    switch (s) {
    case REC_FEASIBLE: return "feasible";
    case REC_INFEASIBLE_FIT: return "infeasible";
    case REC_INFEASIBLE_ITL: return "infeasible";
    default: return "infeasible";
    }
}

static void put(recommend_step *st, const char *key, double v, recommend_unit u)
{
    if (st->n >= RECOMMEND_MAX_NUMBERS)
        return;
    recommend_number *n = &st->num[st->n++];
    snprintf(n->key, sizeof n->key, "%s", key);
    n->value = v;
    n->unit = u;
}

double recommend_get(const recommend_step *st, const char *key, double fallback)
{
    for (int i = 0; i < st->n; i++)
        if (!strcmp(st->num[i].key, key))
            return st->num[i].value;
    return fallback;
}

int recommend_has(const recommend_step *st, const char *key)
{
    for (int i = 0; i < st->n; i++)
        if (!strcmp(st->num[i].key, key))
            return 1;
    return 0;
}

/* Same rule as the engine's plan validity: heads split evenly, and KV
 * heads either split evenly or replicate whole. */
static int tp_valid(const engine_model *m, int t)
{
    if (t < 1 || m->heads % t)
        return 0;
    return m->mla || m->kv_heads % t == 0 || t % m->kv_heads == 0;
}

int recommend_round_tp(const engine_model *m, int n, int max_tp)
{
    for (int t = n < 1 ? 1 : n; t <= max_tp; t++)
        if (tp_valid(m, t))
            return t;
    return 0;
}

static int largest_tp(const engine_model *m, int max_tp)
{
    for (int t = max_tp; t > 1; t--)
        if (tp_valid(m, t))
            return t;
    return 1;
}

static int ceil_div_int(double a, double b)
{
    double q = ceil(a / b - 1e-9);
    if (!(q < 1 << 30))
        return 1 << 30;
    return q < 1 ? 1 : (int)q;
}

static int nodes_of(int unit, int per_node)
{
    return per_node > 0 ? (int)(((long long)unit + per_node - 1) / per_node) : 1;
}

/* The procedure's arithmetic for one weight dtype. */
typedef struct proc {
    engine_dtype dtype;
    double weights, floor1;
    int n_fit, n_lat, tp_max, tp, pp, unit, nodes;
    int fit_impossible, lat_impossible;
} proc;

static void procedure(const recommend_request *q, engine_dtype d, double kv, double budget,
                      int max_tp, proc *p)
{
    const engine_model *m = q->base.model;
    memset(p, 0, sizeof *p);
    p->dtype = d;
    p->weights = engine_weight_bytes(m, d);
    p->floor1 = engine_decode_floor_s(m, d, q->base.gpu, 1);
    p->tp_max = largest_tp(m, max_tp);
    p->n_fit = budget > 0 ? ceil_div_int(p->weights + kv, budget) : 0;
    p->n_lat = q->itl_target_s > 0 ? ceil_div_int(p->floor1, q->itl_target_s) : 1;
    p->lat_impossible = p->n_lat > p->tp_max;
    if (!p->n_fit) {
        p->fit_impossible = 1;
        p->tp = p->tp_max;
        p->pp = 1;
    } else {
        int need = p->n_fit > p->n_lat ? p->n_fit : p->n_lat;
        int t = need <= p->tp_max ? recommend_round_tp(m, need, max_tp) : 0;
        if (t) {
            p->tp = t;
            p->pp = 1;
        } else {
            /* More than a node's TP: fill the node with TP, pipeline the rest. */
            p->tp = p->tp_max;
            p->pp = ceil_div_int(p->n_fit, p->tp);
            if (p->pp > m->layers)
                p->fit_impossible = 1;
        }
    }
    long long unit = (long long)p->tp * p->pp; /* ~n_fit <= 2^30, but never wraps */
    p->unit = unit > INT_MAX ? INT_MAX : (int)unit;
    p->nodes = nodes_of(p->unit, q->base.gpus_per_node);
}

/* --- the search ---------------------------------------------------------- */

enum {
    NEED_ALLOWED = 1 << 0,
    NEED_WITHIN = 1 << 1,
    NEED_TOPO = 1 << 2,
    NEED_ITL = 1 << 3,
    NEED_TTFT = 1 << 4,
    NOT_ALLOWED = 1 << 5, /* the dtype must be one the user did not allow */
    NEED_ALL = NEED_ALLOWED | NEED_WITHIN | NEED_TOPO | NEED_ITL | NEED_TTFT
};

typedef enum order { ORDER_OBJECTIVE, ORDER_FEWEST, ORDER_ITL, ORDER_TTFT } order;

static int cand_pass(const recommend_cand *c, unsigned need)
{
    if ((need & NEED_ALLOWED) && !c->allowed)
        return 0;
    if ((need & NOT_ALLOWED) && c->allowed)
        return 0;
    if ((need & NEED_WITHIN) && !c->within)
        return 0;
    if ((need & NEED_TOPO) && !c->topo)
        return 0;
    if ((need & NEED_ITL) && !c->itl_ok)
        return 0;
    if ((need & NEED_TTFT) && !c->ttft_ok)
        return 0;
    return 1;
}

/* Higher is better.  Throughput with a GPU limit counts what the replicas
 * that fit in the limit deliver; without one, tokens/s per GPU (replicas
 * scale it linearly).  Cost falls back to throughput without a price. */
static double cand_score(const recommend_request *q, const recommend_cand *c)
{
    switch (q->base.objective) {
    case ENGINE_OBJ_LATENCY:
        return -c->e2e_s;
    case ENGINE_OBJ_COST:
        if (c->cost > 0)
            return -c->cost;
        /* fall through */
    default:
        if (q->gpus_max > 0 && c->unit <= q->gpus_max)
            return (double)(q->gpus_max / c->unit) * c->tokens_per_s; /* unit tok/s x units */
        return c->tokens_per_s / c->unit;
    }
}

/* qsort-style: < 0 when a is the better candidate. */
static int cand_cmp(const recommend_request *q, const recommend_cand *a, const recommend_cand *b,
                    order o)
{
    int c = 0;
    switch (o) {
    case ORDER_FEWEST:
        c = a->unit - b->unit;
        if (!c)
            c = engine_cmp(cand_score(q, b), cand_score(q, a));
        break;
    case ORDER_ITL:
        c = engine_cmp(a->itl_s, b->itl_s);
        break;
    case ORDER_TTFT:
        c = engine_cmp(a->ttft_s, b->ttft_s);
        break;
    default:
        c = engine_cmp(cand_score(q, b), cand_score(q, a));
        break;
    }
    if (!c)
        c = a->unit - b->unit;
    if (!c) /* the unquantized dtype first, then the wider quantized one */
        c = engine_cmp(engine_dtype_bytes(b->dtype), engine_dtype_bytes(a->dtype));
    if (!c) /* the requested speculation before one it was allowed to add */
        c = (a->spec != q->base.spec_method) - (b->spec != q->base.spec_method);
    if (!c)
        c = engine_plan_order(a->plan, b->plan);
    return c;
}

static int same_cand(const recommend_cand *a, const recommend_cand *b)
{
    return a->dtype == b->dtype && a->spec == b->spec && a->plan.tp == b->plan.tp &&
           a->plan.pp == b->plan.pp &&
           a->plan.ep == b->plan.ep;
}

/* Index of the best candidate passing `need`, skipping `skip` (n_skip
 * entries); -1 when none. */
static int best_cand(const recommend_request *q, const recommend_result *out, unsigned need,
                     order o, const int *skip, int n_skip)
{
    int best = -1;
    for (int i = 0; i < out->n_cands; i++) {
        const recommend_cand *c = &out->cands[i];
        if (!cand_pass(c, need))
            continue;
        int skipped = 0;
        for (int j = 0; j < n_skip && !skipped; j++)
            skipped = skip[j] >= 0 && same_cand(c, &out->cands[skip[j]]);
        if (skipped)
            continue;
        if (best < 0 || cand_cmp(q, c, &out->cands[best], o) < 0)
            best = i;
    }
    return best;
}

static int unit_sizes(int per_node, int max_u, int *sizes, int cap)
{
    int n = 0;
    for (int u = 1; u <= max_u && n < cap; u++)
        if (u <= 16 || u % 8 == 0 || (per_node > 0 && u % per_node == 0))
            sizes[n++] = u;
    return n;
}

static const engine_dtype QUANT[] = {ENGINE_FP8, ENGINE_INT8, ENGINE_INT4};
#define N_QUANT ((int)(sizeof QUANT / sizeof QUANT[0]))

static int dtype_allowed(const recommend_request *q, engine_dtype d)
{
    return d == q->base.weight_dtype || (q->allow_quant & (1u << d));
}

/* Speculation m in s: the request's own k and P for its method, another
 * allowed method's defaults. */
static void spec_set(const recommend_request *q, engine_spec_method m, engine_scenario *s)
{
    if (m == q->base.spec_method)
        return;
    s->spec_method = m;
    engine_spec_default(m, &s->spec_k, &s->spec_accept);
}

/* The speculation methods to search: the request's, then the allowed ones
 * the model can run. */
static int spec_methods(const recommend_request *q, engine_spec_method *ms)
{
    int n = 0;
    ms[n++] = q->base.spec_method;
    for (int m = ENGINE_SPEC_DRAFT; m < ENGINE_SPEC_COUNT; m++) {
        if (m == (int)q->base.spec_method || !(q->allow_spec & (1u << m)))
            continue;
        if ((m == ENGINE_SPEC_MTP && q->base.model->mtp_layers < 1) ||
            (m == ENGINE_SPEC_DRAFT && !q->base.spec_draft))
            continue;
        ms[n++] = (engine_spec_method)m;
    }
    return n;
}

void recommend_option_scenario(const recommend_request *q, const recommend_option *o,
                               engine_scenario *s)
{
    *s = q->base;
    s->gpus = o->unit_gpus;
    s->weight_dtype = o->dtype;
    spec_set(q, o->spec, s);
}

static int search(const recommend_request *q, recommend_result *out, engine_error *err)
{
    const engine_scenario *b = &q->base;
    int max_u = q->gpus_max > RECOMMEND_MAX_UNIT ? q->gpus_max : RECOMMEND_MAX_UNIT;
    if (max_u > REC_SEARCH_CAP)
        max_u = REC_SEARCH_CAP;
    int sizes[REC_SEARCH_CAP];
    int n_sizes = unit_sizes(b->gpus_per_node, max_u, sizes, REC_SEARCH_CAP);

    engine_dtype dts[1 + N_QUANT];
    int n_dt = 0;
    dts[n_dt++] = b->weight_dtype;
    for (int i = 0; i < N_QUANT; i++)
        if (engine_dtype_bytes(QUANT[i]) < engine_dtype_bytes(b->weight_dtype))
            dts[n_dt++] = QUANT[i];

    engine_spec_method ms[ENGINE_SPEC_COUNT];
    int n_ms = spec_methods(q, ms);
    out->n_cands = 0;
    out->plans_evaluated = 0;
    for (int mi = 0; mi < n_ms; mi++)
    for (int di = 0; di < n_dt; di++) {
        for (int si = 0; si < n_sizes; si++) {
            engine_scenario s = *b;
            s.gpus = sizes[si];
            s.weight_dtype = dts[di];
            spec_set(q, ms[mi], &s);
            int n = engine_rank(&s, out->scratch, RECOMMEND_SCRATCH, 0, err);
            if (n < 0)
                return -1;
            out->plans_evaluated += n;
            for (int i = 0; i < n; i++) {
                const engine_result *r = &out->scratch[i];
                /* One replica (dp = 1), or an EP group that couples all the
                 * replicas of this size (ep = tp * dp): every plan the
                 * engine ranks has its unit here. */
                if (!r->valid || !r->fits ||
                    !(r->plan.dp == 1 || (r->plan.ep > r->plan.tp &&
                                          r->plan.ep == r->plan.tp * r->plan.dp)))
                    continue;
                if (out->n_cands >= RECOMMEND_MAX_CANDS)
                    break;
                recommend_cand *c = &out->cands[out->n_cands++];
                c->dtype = dts[di];
                c->spec = ms[mi];
                c->plan = r->plan;
                c->unit = s.gpus;
                c->allowed = (unsigned char)dtype_allowed(q, dts[di]);
                c->within = (unsigned char)(q->gpus_max <= 0 || s.gpus <= q->gpus_max);
                c->topo = (unsigned char)(b->gpus_per_node <= 0 || r->plan.tp <= b->gpus_per_node);
                c->itl_ok = (unsigned char)(q->itl_target_s <= 0 || r->itl_s <= q->itl_target_s);
                c->ttft_ok = (unsigned char)(q->ttft_target_s <= 0 || r->ttft_s <= q->ttft_target_s);
                c->e2e_s = r->e2e_s;
                c->itl_s = r->itl_s;
                c->ttft_s = r->ttft_s;
                c->tokens_per_s = r->tokens_per_s;
                c->cost = r->cost_per_mtok_usd;
            }
        }
    }
    return 0;
}

/* Evaluate a candidate's replica unit and size its replicas. */
static void make_option(const recommend_request *q, const recommend_cand *c, recommend_option *o)
{
    memset(o, 0, sizeof *o);
    engine_scenario s = q->base;
    s.gpus = c->unit;
    s.weight_dtype = c->dtype;
    spec_set(q, c->spec, &s);
    engine_plan p = c->plan; /* the unit: dp 1, or the replicas its EP group couples */
    engine_evaluate(&s, p, &o->unit, NULL);
    int reps = q->gpus_max > 0 ? q->gpus_max / c->unit : 1;
    if (reps < 1)
        reps = 1;
    o->dtype = c->dtype;
    o->spec = c->spec;
    o->plan = p;
    o->plan.dp = p.dp * reps;
    o->replicas = reps;
    o->unit_gpus = c->unit;
    o->gpus = o->unit_gpus * reps;
    o->nodes = nodes_of(c->unit, q->base.gpus_per_node);
    o->allowed = c->allowed;
    o->within_limit = c->within;
    o->topology_ok = c->topo;
    o->meets_itl = c->itl_ok;
    o->meets_ttft = c->ttft_ok;
}

/* --- the steps ------------------------------------------------------------ */

/* What the steps hand each other. */
typedef struct rec_ctx {
    const recommend_request *q;
    recommend_result *out;
    engine_scenario s1;  /* the base scenario on one GPU */
    engine_result r1;    /* ... evaluated at TP=1 */
    double budget;       /* usable - runtime - activations, per GPU */
    int max_tp;          /* TP stays inside a node */
    proc p0;             /* the procedure at the base dtype */
    engine_result ru;    /* its unit in the engine (zero when nothing fits) */
    proc answer;         /* the procedure's answer after step 8 */
    int answer_ok;
} rec_ctx;

static recommend_step *step_init(recommend_result *out, recommend_step_id id,
                                 recommend_verdict v)
{
    recommend_step *st = &out->step[id];
    memset(st, 0, sizeof *st);
    st->id = id;
    st->verdict = v;
    return st;
}

#define PUT(st, s, field, unit) put(st, #field, (s)->field, unit)

/* Step 1: one GPU, base dtype, the requested concurrency. */
static int step_fit(rec_ctx *c, engine_error *err)
{
    const engine_scenario *b = &c->q->base;
    if (engine_evaluate(&c->s1, (engine_plan){1, 1, 1, 1}, &c->r1, err) != 0)
        return -1;
    const engine_memory *mem = &c->r1.mem;
    recommend_step *st = step_init(c->out, REC_STEP_FIT, c->r1.fits ? REC_PASS : REC_FAIL);
    recommend_fit *f = &st->fit;
    *f = (recommend_fit){
        .weights_bytes = mem->weights_bytes,
        .kv_bytes = mem->kv_bytes,
        .activation_bytes = mem->activation_bytes,
        .overhead_bytes = mem->overhead_bytes,
        .per_gpu_bytes = mem->per_gpu_bytes,
        .vram_bytes = engine_scenario_vram(b),
        .usable_fraction = mem->usable_fraction,
        .capacity_bytes = mem->capacity_bytes,
        .kv_room_bytes = mem->capacity_bytes - mem->weights_bytes - mem->activation_bytes -
                         mem->overhead_bytes,
        .concurrency = b->batch,
        .context_tokens = (double)b->prompt + b->gen,
        .kv_capacity_tokens = c->r1.kv_capacity_tokens,
        .max_concurrency = c->r1.max_concurrency,
        .max_num_seqs = engine_kv_max_num_seqs(b, c->r1.kv_capacity_tokens),
    };
    PUT(st, f, weights_bytes, REC_UNIT_BYTES);
    PUT(st, f, kv_bytes, REC_UNIT_BYTES);
    PUT(st, f, activation_bytes, REC_UNIT_BYTES);
    PUT(st, f, overhead_bytes, REC_UNIT_BYTES);
    PUT(st, f, per_gpu_bytes, REC_UNIT_BYTES);
    PUT(st, f, vram_bytes, REC_UNIT_BYTES);
    PUT(st, f, usable_fraction, REC_UNIT_FRACTION);
    PUT(st, f, capacity_bytes, REC_UNIT_BYTES);
    PUT(st, f, kv_room_bytes, REC_UNIT_BYTES);
    PUT(st, f, concurrency, REC_UNIT_COUNT);
    PUT(st, f, context_tokens, REC_UNIT_COUNT);
    PUT(st, f, kv_capacity_tokens, REC_UNIT_COUNT);
    PUT(st, f, max_concurrency, REC_UNIT_COUNT);
    PUT(st, f, max_num_seqs, REC_UNIT_COUNT);
    c->budget = mem->capacity_bytes - mem->overhead_bytes - mem->activation_bytes;
    procedure(c->q, b->weight_dtype, mem->kv_bytes, c->budget, c->max_tp, &c->p0);
    return 0;
}

/* Step 2: the decode floor (weights / peak HBM) against the ITL target. */
static void step_floor(rec_ctx *c)
{
    const recommend_request *q = c->q;
    recommend_step *st = step_init(
        c->out, REC_STEP_FLOOR,
        q->itl_target_s > 0 ? (c->p0.floor1 <= q->itl_target_s ? REC_PASS : REC_FAIL) : REC_INFO);
    recommend_floor *f = &st->floor;
    *f = (recommend_floor){engine_decode_floor_bytes(q->base.model, c->p0.dtype),
                           q->base.gpu->hbm_bytes_per_s, c->p0.floor1,
                           q->itl_target_s > 0 ? q->itl_target_s : 0, c->r1.itl_s};
    PUT(st, f, weights_bytes, REC_UNIT_BYTES);
    PUT(st, f, hbm_bytes_per_s, REC_UNIT_BYTES_PER_S);
    PUT(st, f, floor_s, REC_UNIT_SECONDS);
    if (f->itl_target_s > 0)
        PUT(st, f, itl_target_s, REC_UNIT_SECONDS);
    PUT(st, f, engine_itl_s, REC_UNIT_SECONDS);
}

/* Step 3: GPUs needed just to fit. */
static void step_n_fit(rec_ctx *c)
{
    const engine_memory *mem = &c->r1.mem;
    recommend_step *st =
        step_init(c->out, REC_STEP_N_FIT,
                  c->p0.fit_impossible ? REC_FAIL : (c->p0.n_fit <= 1 ? REC_PASS : REC_INFO));
    recommend_n_fit *f = &st->n_fit;
    *f = (recommend_n_fit){c->p0.weights,       mem->kv_bytes,          mem->capacity_bytes,
                           mem->overhead_bytes, mem->activation_bytes,  c->budget,
                           c->p0.n_fit};
    PUT(st, f, weights_bytes, REC_UNIT_BYTES);
    PUT(st, f, kv_bytes, REC_UNIT_BYTES);
    PUT(st, f, capacity_bytes, REC_UNIT_BYTES);
    PUT(st, f, overhead_bytes, REC_UNIT_BYTES);
    PUT(st, f, activation_bytes, REC_UNIT_BYTES);
    PUT(st, f, budget_per_gpu_bytes, REC_UNIT_BYTES);
    PUT(st, f, n_fit, REC_UNIT_COUNT);
}

/* Step 4: GPUs needed for the ITL target. */
static void step_n_latency(rec_ctx *c)
{
    const recommend_request *q = c->q;
    const proc *p = &c->p0;
    recommend_step *st =
        step_init(c->out, REC_STEP_N_LATENCY,
                  q->itl_target_s <= 0 ? REC_INFO : (p->lat_impossible ? REC_FAIL : REC_PASS));
    recommend_n_latency *f = &st->n_latency;
    *f = (recommend_n_latency){p->floor1, q->itl_target_s > 0 ? q->itl_target_s : 0, p->n_lat,
                               p->tp_max, p->floor1 / p->tp_max};
    PUT(st, f, floor_s, REC_UNIT_SECONDS);
    if (f->itl_target_s > 0)
        PUT(st, f, itl_target_s, REC_UNIT_SECONDS);
    PUT(st, f, n_latency, REC_UNIT_COUNT);
    PUT(st, f, tp_max, REC_UNIT_COUNT);
    PUT(st, f, floor_at_tp_max_s, REC_UNIT_SECONDS);
}

/* Step 5: the TP degree (x PP when one node is not enough). */
static void step_tp(rec_ctx *c)
{
    const recommend_request *q = c->q;
    const engine_model *m = q->base.model;
    const proc *p = &c->p0;
    int need = p->n_fit > p->n_lat ? p->n_fit : p->n_lat;
    recommend_step *st = step_init(c->out, REC_STEP_TP, REC_PASS);
    if (p->tp > need && p->pp == 1)
        st->flags |= REC_TP_ROUNDED;
    if (!m->mla && p->tp > m->kv_heads)
        st->flags |= REC_TP_KV_REPLICATED;
    if (p->pp > 1)
        st->flags |= REC_TP_NODE_LIMITED;
    if (p->lat_impossible)
        st->flags |= REC_TP_LATENCY_CAPPED;
    if (q->gpus_max > 0 && p->unit > q->gpus_max)
        st->flags |= REC_TP_OVER_LIMIT;
    if (p->fit_impossible || (st->flags & REC_TP_OVER_LIMIT))
        st->verdict = REC_FAIL;
    else if (st->flags & (REC_TP_NODE_LIMITED | REC_TP_LATENCY_CAPPED))
        st->verdict = REC_WARN;
    recommend_tp *f = &st->tp;
    *f = (recommend_tp){need,  m->heads, m->kv_heads, q->base.gpus_per_node, p->tp,
                        p->pp, p->unit,  p->nodes,    q->gpus_max > 0 ? q->gpus_max : 0};
    PUT(st, f, n_needed, REC_UNIT_COUNT);
    PUT(st, f, heads, REC_UNIT_COUNT);
    PUT(st, f, kv_heads, REC_UNIT_COUNT);
    PUT(st, f, gpus_per_node, REC_UNIT_COUNT);
    PUT(st, f, tp, REC_UNIT_COUNT);
    PUT(st, f, pp, REC_UNIT_COUNT);
    PUT(st, f, unit_gpus, REC_UNIT_COUNT);
    PUT(st, f, nodes, REC_UNIT_COUNT);
    if (f->gpus_max > 0)
        PUT(st, f, gpus_max, REC_UNIT_COUNT);
}

/* Step 6: the interconnect and topology of that unit, in the engine. */
static int step_topology(rec_ctx *c, engine_error *err)
{
    const engine_scenario *b = &c->q->base;
    const proc *p = &c->p0;
    engine_scenario su = *b;
    su.gpus = p->unit;
    memset(&c->ru, 0, sizeof c->ru);
    if (!p->fit_impossible &&
        engine_evaluate(&su, (engine_plan){p->tp, p->pp, 1, 1}, &c->ru, err))
        return -1;
    const engine_result *ru = &c->ru;
    recommend_step *st = step_init(c->out, REC_STEP_TOPOLOGY, REC_PASS);
    double dec_frac = ru->itl_s > 0 ? ru->decode_comm_s / ru->itl_s : 0;
    double pre_frac = ru->ttft_s > 0 ? ru->prefill_comm_s / ru->ttft_s : 0;
    if (p->tp <= 1)
        st->flags |= REC_TOPO_NO_TP;
    else if (b->intra->bytes_per_s < REC_NVLINK_CLASS_BPS || dec_frac > REC_COMM_WARN ||
             pre_frac > REC_COMM_WARN)
        st->flags |= REC_TOPO_SLOW_TP;
    if (p->nodes > 1 && p->pp > 1)
        st->flags |= REC_TOPO_PP_CROSS;
    if (p->nodes > 1 && !b->inter)
        st->flags |= REC_TOPO_SAME_INTER;
    if (!p->fit_impossible && (!ru->valid || !ru->fits))
        st->flags |= REC_TOPO_NOT_FIT;
    if (p->fit_impossible)
        st->verdict = REC_INFO;
    else if (st->flags & (REC_TOPO_SLOW_TP | REC_TOPO_NOT_FIT))
        st->verdict = REC_WARN;
    recommend_topology *f = &st->topology;
    *f = (recommend_topology){p->tp,      p->pp,    b->intra->bytes_per_s,
                              b->inter ? b->inter->bytes_per_s : 0,
                              p->nodes,   ru->itl_s, ru->decode_comm_s,
                              dec_frac,   ru->ttft_s, pre_frac,
                              ru->valid && ru->fits};
    PUT(st, f, tp, REC_UNIT_COUNT);
    PUT(st, f, pp, REC_UNIT_COUNT);
    PUT(st, f, link_bytes_per_s, REC_UNIT_BYTES_PER_S);
    if (b->inter)
        PUT(st, f, inter_link_bytes_per_s, REC_UNIT_BYTES_PER_S);
    PUT(st, f, nodes, REC_UNIT_COUNT);
    PUT(st, f, itl_s, REC_UNIT_SECONDS);
    PUT(st, f, decode_comm_s, REC_UNIT_SECONDS);
    put(st, "decode_comm_fraction", f->decode_comm_fraction, REC_UNIT_FRACTION);
    PUT(st, f, ttft_s, REC_UNIT_SECONDS);
    put(st, "prefill_comm_fraction", f->prefill_comm_fraction, REC_UNIT_FRACTION);
    PUT(st, f, fits, REC_UNIT_COUNT);
    return 0;
}

/* Step 7: data-parallel replicas of the unit. */
static void step_replicas(rec_ctx *c)
{
    const recommend_request *q = c->q;
    const proc *p = &c->p0;
    int dp0 = q->gpus_max > 0 ? q->gpus_max / p->unit : 1;
    recommend_step *st = step_init(c->out, REC_STEP_REPLICAS,
                                   dp0 >= 1 && !p->fit_impossible ? REC_INFO : REC_FAIL);
    recommend_replicas *f = &st->replicas;
    *f = (recommend_replicas){p->unit, dp0, (double)dp0 * p->unit,
                              q->gpus_max > 0 ? q->gpus_max : 0, c->ru.tokens_per_s,
                              c->ru.tokens_per_s * dp0};
    PUT(st, f, unit_gpus, REC_UNIT_COUNT);
    PUT(st, f, dp, REC_UNIT_COUNT);
    PUT(st, f, gpus_used, REC_UNIT_COUNT);
    if (f->gpus_max > 0)
        PUT(st, f, gpus_max, REC_UNIT_COUNT);
    PUT(st, f, tokens_per_s_replica, REC_UNIT_TOKENS_PER_S);
    PUT(st, f, tokens_per_s_total, REC_UNIT_TOKENS_PER_S);
}

static int proc_ok(const recommend_request *q, const proc *p)
{
    return !p->fit_impossible && !(q->gpus_max > 0 && p->unit > q->gpus_max) &&
           !p->lat_impossible;
}

/* Step 8: quantization instead of more GPUs or nodes; the procedure's
 * answer. */
static void step_quant(rec_ctx *c)
{
    const recommend_request *q = c->q;
    recommend_result *out = c->out;
    recommend_step *st = step_init(out, REC_STEP_QUANT, REC_INFO);
    recommend_quant *f = &st->quant;
    c->answer = c->p0;
    c->answer_ok = proc_ok(q, &c->p0);
    int helps_not_allowed = 0;
    for (int i = 0; i < N_QUANT; i++) {
        engine_dtype d = QUANT[i];
        if (engine_dtype_bytes(d) >= engine_dtype_bytes(q->base.weight_dtype))
            continue;
        proc pq;
        procedure(q, d, c->r1.mem.kv_bytes, c->budget, c->max_tp, &pq);
        char key[RECOMMEND_KEY_MAX];
        const char *dn = engine_dtype_name(d);
        f->q[f->n].dtype = d;
        f->q[f->n].weights_bytes = pq.weights;
        f->q[f->n].unit_gpus = pq.fit_impossible ? 0 : pq.unit;
        f->q[f->n].allowed = dtype_allowed(q, d);
        snprintf(key, sizeof key, "%s_weights_bytes", dn);
        put(st, key, f->q[f->n].weights_bytes, REC_UNIT_BYTES);
        snprintf(key, sizeof key, "%s_unit_gpus", dn);
        put(st, key, f->q[f->n].unit_gpus, REC_UNIT_COUNT);
        snprintf(key, sizeof key, "%s_allowed", dn);
        put(st, key, f->q[f->n].allowed, REC_UNIT_COUNT);
        f->n++;
        int ok = proc_ok(q, &pq);
        if (!(ok && (!c->answer_ok || pq.unit < c->answer.unit || pq.nodes < c->answer.nodes)))
            continue;
        if (dtype_allowed(q, d)) {
            c->answer = pq;
            c->answer_ok = 1;
            st->verdict = REC_PASS;
        } else {
            helps_not_allowed = 1;
        }
    }
    if (st->verdict != REC_PASS && helps_not_allowed)
        st->flags |= REC_QUANT_WOULD_HELP;
    out->procedure_dtype = c->answer.dtype;
    out->procedure_tp = c->answer.tp;
    out->procedure_pp = c->answer.pp;
    out->procedure_dp = q->gpus_max > 0 ? q->gpus_max / c->answer.unit : 1;
    f->procedure_tp = c->answer.tp;
    f->procedure_pp = c->answer.pp;
    f->procedure_unit_gpus = c->answer.unit;
    f->procedure_ok = c->answer_ok;
    PUT(st, f, procedure_tp, REC_UNIT_COUNT);
    PUT(st, f, procedure_pp, REC_UNIT_COUNT);
    PUT(st, f, procedure_unit_gpus, REC_UNIT_COUNT);
    PUT(st, f, procedure_ok, REC_UNIT_COUNT);
}

/* The second alternative: the unquantized plan when the choice is
 * quantized, else a dtype the user has not allowed that saves GPUs or
 * nodes (seed 004: quantize before going multi-node); -1 when none. */
static int contrast_alt(const rec_ctx *c, const recommend_cand *chosen)
{
    const recommend_request *q = c->q;
    const recommend_result *out = c->out;
    int per_node = q->base.gpus_per_node, a1 = -1;
    for (int k = chosen->dtype != q->base.weight_dtype ? -1 : 0; k < N_QUANT && a1 < 0; k++) {
        for (int i = 0; i < out->n_cands; i++) {
            const recommend_cand *x = &out->cands[i];
            if (k < 0) { /* the choice is quantized: the base dtype */
                if (x->dtype != q->base.weight_dtype || !cand_pass(x, NEED_ALL))
                    continue;
            } else if (x->dtype != QUANT[k] ||
                       !cand_pass(x, (NEED_ALL & ~NEED_ALLOWED) | NOT_ALLOWED) ||
                       (x->unit >= chosen->unit &&
                        nodes_of(x->unit, per_node) >= nodes_of(chosen->unit, per_node))) {
                continue;
            }
            if (a1 < 0 || cand_cmp(q, x, &out->cands[a1], ORDER_OBJECTIVE) < 0)
                a1 = i;
        }
        if (k < 0)
            break;
    }
    return a1;
}

/* The chosen candidate ci: its deployment with tails, the alternatives and
 * the best plan if TP could span nodes. */
static int choose(rec_ctx *c, int ci, recommend_step *st, engine_error *err)
{
    const recommend_request *q = c->q;
    recommend_result *out = c->out;
    const recommend_cand *cand = &out->cands[ci];
    out->have_choice = 1;
    make_option(q, cand, &out->chosen);
    out->chosen_scenario = q->base;
    out->chosen_scenario.gpus = out->chosen.gpus;
    out->chosen_scenario.weight_dtype = cand->dtype;
    spec_set(q, cand->spec, &out->chosen_scenario);
    if (engine_evaluate(&out->chosen_scenario, out->chosen.plan, &out->chosen_result, err))
        return -1;
    engine_tails(&out->chosen_scenario, &out->chosen_result);

    /* First alternative: the runner-up; second: the contrast that matters,
     * else the third best. */
    int skip[RECOMMEND_MAX_ALTS + 1] = {ci, -1, -1};
    int a0 = best_cand(q, out, NEED_ALL, ORDER_OBJECTIVE, skip, 1);
    if (a0 >= 0) {
        skip[1] = a0;
        make_option(q, &out->cands[a0], &out->alt[out->n_alts++]);
    }
    int a1 = contrast_alt(c, cand);
    if (a1 == a0 || a1 == ci)
        a1 = -1;
    if (a1 < 0)
        a1 = best_cand(q, out, NEED_ALL, ORDER_OBJECTIVE, skip, 2);
    if (a1 >= 0)
        make_option(q, &out->cands[a1], &out->alt[out->n_alts++]);
    int ui = best_cand(q, out, NEED_ALL & ~NEED_TOPO, ORDER_OBJECTIVE, NULL, 0);
    if (ui >= 0 && !out->cands[ui].topo) {
        out->have_unconstrained = 1;
        make_option(q, &out->cands[ui], &out->unconstrained);
        st->flags |= REC_ENG_TOPO_EXCLUDED;
    }
    return 0;
}

/* Whether the search agrees with the procedure, and if not, why it moved
 * away from the procedure's plan. */
static void compare_procedure(const rec_ctx *c, const recommend_cand *cand, recommend_step *st)
{
    const recommend_request *q = c->q;
    const proc *a = &c->answer;
    recommend_search *f = &st->search;
    f->agrees = cand->dtype == a->dtype && cand->plan.tp == a->tp && cand->plan.pp == a->pp;
    if (f->agrees) {
        st->flags |= REC_ENG_AGREES;
        return;
    }
    st->verdict = REC_WARN;
    engine_scenario sp = q->base;
    sp.gpus = a->unit;
    sp.weight_dtype = a->dtype;
    engine_result rp;
    memset(&rp, 0, sizeof rp);
    if (c->answer_ok)
        engine_evaluate(&sp, (engine_plan){a->tp, a->pp, 1, 1}, &rp, NULL);
    if (!c->answer_ok || !rp.valid || !rp.fits)
        st->flags |= REC_ENG_NOT_FIT;
    else if ((q->itl_target_s > 0 && rp.itl_s > q->itl_target_s) ||
             (q->ttft_target_s > 0 && rp.ttft_s > q->ttft_target_s))
        st->flags |= REC_ENG_TARGET_MISSED;
    else
        st->flags |= REC_ENG_BETTER;
    if (c->answer_ok && rp.valid) {
        f->has_procedure_figures = 1;
        f->procedure_itl_s = rp.itl_s;
        f->procedure_ttft_s = rp.ttft_s;
        f->procedure_tokens_per_s = rp.tokens_per_s;
        PUT(st, f, procedure_itl_s, REC_UNIT_SECONDS);
        PUT(st, f, procedure_ttft_s, REC_UNIT_SECONDS);
        PUT(st, f, procedure_tokens_per_s, REC_UNIT_TOKENS_PER_S);
    }
}

/* Nothing feasible: which constraint binds (out->status) and the nearest
 * option that works (out->nearest). */
static void nearest(rec_ctx *c)
{
    const recommend_request *q = c->q;
    recommend_result *out = c->out;
    const unsigned placed = NEED_ALLOWED | NEED_WITHIN | NEED_TOPO;
    const unsigned targets = NEED_TOPO | NEED_ITL | NEED_TTFT;
    int ni;
    if (best_cand(q, out, placed, ORDER_FEWEST, NULL, 0) >= 0) {
        int itl_miss = q->itl_target_s > 0 &&
                       best_cand(q, out, placed | NEED_ITL, ORDER_FEWEST, NULL, 0) < 0;
        out->status = itl_miss ? REC_INFEASIBLE_ITL : REC_INFEASIBLE_TTFT;
        /* A quantized dtype that meets the targets, else more GPUs than
         * allowed, else the best reachable latency (relax the target). */
        if ((ni = best_cand(q, out, targets | NEED_WITHIN | NOT_ALLOWED, ORDER_FEWEST, NULL, 0)) >= 0)
            out->nearest_kind = REC_NEAR_QUANT;
        else if ((ni = best_cand(q, out, targets | NEED_ALLOWED, ORDER_FEWEST, NULL, 0)) >= 0)
            out->nearest_kind = REC_NEAR_GPUS;
        else {
            ni = itl_miss ? best_cand(q, out, placed, ORDER_ITL, NULL, 0)
                          : best_cand(q, out, placed | NEED_ITL, ORDER_TTFT, NULL, 0);
            out->nearest_kind = REC_NEAR_TARGET;
        }
    } else {
        out->status = REC_INFEASIBLE_FIT;
        if ((ni = best_cand(q, out, targets | NEED_WITHIN | NOT_ALLOWED, ORDER_FEWEST, NULL, 0)) >= 0)
            out->nearest_kind = REC_NEAR_QUANT;
        else if ((ni = best_cand(q, out, targets | NEED_ALLOWED, ORDER_FEWEST, NULL, 0)) >= 0)
            out->nearest_kind = REC_NEAR_GPUS;
        else if ((ni = best_cand(q, out, targets, ORDER_FEWEST, NULL, 0)) >= 0)
            out->nearest_kind = REC_NEAR_BOTH;
        else if ((ni = best_cand(q, out, NEED_TOPO, ORDER_FEWEST, NULL, 0)) >= 0)
            out->nearest_kind = out->cands[ni].allowed ? REC_NEAR_GPUS : REC_NEAR_BOTH;
    }
    if (ni >= 0)
        make_option(q, &out->cands[ni], &out->nearest);
}

/* Step 9: the engine's search, the choice or the nearest option. */
static int step_search(rec_ctx *c, engine_error *err)
{
    const recommend_request *q = c->q;
    recommend_result *out = c->out;
    if (search(q, out, err) != 0)
        return -1;
    int ci = best_cand(q, out, NEED_ALL, ORDER_OBJECTIVE, NULL, 0);
    recommend_step *st = step_init(out, REC_STEP_ENGINE, REC_PASS);
    recommend_search *f = &st->search;
    f->plans_evaluated = out->plans_evaluated;
    for (int i = 0; i < out->n_cands; i++)
        f->plans_feasible += cand_pass(&out->cands[i], NEED_ALL);
    PUT(st, f, plans_evaluated, REC_UNIT_COUNT);
    PUT(st, f, plans_feasible, REC_UNIT_COUNT);
    if (ci < 0) {
        st->verdict = REC_FAIL;
        nearest(c);
        int max_u = q->gpus_max > RECOMMEND_MAX_UNIT ? q->gpus_max : RECOMMEND_MAX_UNIT;
        f->search_max_gpus = max_u > REC_SEARCH_CAP ? REC_SEARCH_CAP : max_u;
        PUT(st, f, agrees, REC_UNIT_COUNT);
        PUT(st, f, search_max_gpus, REC_UNIT_COUNT);
        return 0;
    }
    const recommend_cand *cand = &out->cands[ci];
    if (choose(c, ci, st, err) != 0)
        return -1;
    compare_procedure(c, cand, st);
    *f = (recommend_search){
        .plans_evaluated = f->plans_evaluated,
        .plans_feasible = f->plans_feasible,
        .has_procedure_figures = f->has_procedure_figures,
        .procedure_itl_s = f->procedure_itl_s,
        .procedure_ttft_s = f->procedure_ttft_s,
        .procedure_tokens_per_s = f->procedure_tokens_per_s,
        .agrees = f->agrees,
        .tp = cand->plan.tp,
        .pp = cand->plan.pp,
        .dp = out->chosen.plan.dp,
        .unit_gpus = cand->unit,
        .itl_s = cand->itl_s,
        .ttft_s = cand->ttft_s,
        .tokens_per_s_replica = cand->tokens_per_s,
    };
    PUT(st, f, agrees, REC_UNIT_COUNT);
    PUT(st, f, tp, REC_UNIT_COUNT);
    PUT(st, f, pp, REC_UNIT_COUNT);
    PUT(st, f, dp, REC_UNIT_COUNT);
    PUT(st, f, unit_gpus, REC_UNIT_COUNT);
    PUT(st, f, itl_s, REC_UNIT_SECONDS);
    PUT(st, f, ttft_s, REC_UNIT_SECONDS);
    PUT(st, f, tokens_per_s_replica, REC_UNIT_TOKENS_PER_S);
    return 0;
}

int recommend_run(const recommend_request *q, recommend_result *out, engine_error *err)
{
    rec_ctx c;
    memset(&c, 0, sizeof c);
    c.q = q;
    c.out = out;
    c.s1 = q->base;
    c.s1.gpus = 1;
    if (engine_scenario_check(&c.s1, err) != 0)
        return -1;
    out->status = REC_FEASIBLE;
    out->have_choice = 0;
    out->n_alts = 0;
    out->nearest_kind = REC_NEAR_NONE;
    out->have_unconstrained = 0;
    /* TP stays inside a node; a unit above --gpus-max is reported, not
     * squeezed (step 5 fails with REC_TP_OVER_LIMIT). */
    c.max_tp = q->base.gpus_per_node > 0 ? q->base.gpus_per_node : RECOMMEND_MAX_UNIT;
    if (step_fit(&c, err) != 0)
        return -1;
    step_floor(&c);
    step_n_fit(&c);
    step_n_latency(&c);
    step_tp(&c);
    if (step_topology(&c, err) != 0)
        return -1;
    step_replicas(&c);
    step_quant(&c);
    return step_search(&c, err);
}
