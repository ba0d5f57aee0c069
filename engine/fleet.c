/*
 * fleet.c - fleet sizing (fleet.h): an analytic screen of every replica
 * unit (and prefill/decode pair) at the rate, then the load simulation of
 * the cheapest candidates to confirm them.  Contract and model: fleet.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "disagg.h"
#include "engine.h"
#include "fleet.h"
#include "sim.h"

#define FLEET_SUSTAIN_REQUESTS 50000
#define FLEET_MAX_REPLICAS 4096
/* Replica units of one variant (dtype x speculation) the screen holds:
 * every tp inside a node, every whole number of nodes up to the GPU limit,
 * pp 1 up to the layers, and the ep degrees of unit_eps.  DeepSeek-V3
 * (256 expert slots, 61 layers, 8 GPUs a node) has 447 within 64 GPUs and
 * 882 within 128; with 288 slots (32 redundant) 621 and 1280.  Past it the
 * units are counted (units_dropped) and not screened. */
#define FLEET_MAX_UNITS 2048

const char *engine_fleet_disagg_name(engine_fleet_disagg d)
{
    static const char *const n[] = {"auto", "off", "only"};
    return (unsigned)d < ENGINE_FLEET_DISAGG_COUNT ? n[d] : "?";
}

const char *engine_fleet_status_name(engine_fleet_status s)
{
    static const char *const n[] = {"feasible", "needs_more_gpus", "unreachable"};
    return (unsigned)s <= ENGINE_FLEET_UNREACHABLE ? n[s] : "?";
}

int engine_fleet_check(const engine_fleet_request *q, engine_error *err)
{
    if (!q)
        return engine_errorf(err, "fleet: no request");
    if (!(isfinite(q->rate) && q->rate > 0))
        return engine_errorf(err, "fleet: rate: must be a finite number of requests/s above 0");
    if (!(isfinite(q->ttft_slo_s) && q->ttft_slo_s > 0) ||
        !(isfinite(q->tpot_slo_s) && q->tpot_slo_s > 0))
        return engine_errorf(err, "fleet: a rate needs both targets, TTFT and TPOT, above 0");
    if (!(q->slo_percentile >= 0 && q->slo_percentile <= 100))
        return engine_errorf(err, "fleet: slo_percentile: must be in (0, 100]");
    if (q->gpus_max < 0 || q->gpus_max > ENGINE_MAX_GPUS)
        return engine_errorf(err, "fleet: gpus_max: must be 1..%d", ENGINE_MAX_GPUS);
    if ((unsigned)q->disagg >= ENGINE_FLEET_DISAGG_COUNT)
        return engine_errorf(err, "fleet: disagg: unknown mode");
    if (q->max_sims < 0)
        return engine_errorf(err, "fleet: max_sims: must be 0 (the default) or above");
    if (q->requests < 0 || q->requests > ENGINE_MAX_SAMPLES)
        return engine_errorf(err, "fleet: requests: must be 1..%d", ENGINE_MAX_SAMPLES);
    engine_scenario s = q->base;
    s.gpus = 1;
    return engine_scenario_check(&s, err);
}

static int req_n(const engine_fleet_request *q)
{
    return q->requests > 0 ? q->requests : FLEET_DEFAULT_REQUESTS;
}

static int gmax(const engine_fleet_request *q)
{
    return q->gpus_max > 0 ? q->gpus_max : FLEET_DEFAULT_GPUS_MAX;
}

static int per_node(const engine_fleet_request *q)
{
    return q->base.gpus_per_node > 0 ? q->base.gpus_per_node : 8;
}

static size_t screen_bytes(void);

size_t engine_fleet_workspace_bytes(const engine_fleet_request *q)
{
    if (engine_fleet_check(q, NULL) != 0)
        return 0;
    engine_sim_config c;
    engine_sim_defaults(&c, NULL);
    c.requests = req_n(q) > FLEET_SUSTAIN_REQUESTS ? req_n(q) : FLEET_SUSTAIN_REQUESTS;
    c.max_num_seqs = c.requests;
    c.prompt = q->base.prompt;
    c.gen = q->base.gen;
    size_t sim = engine_sim_disagg_workspace_bytes(NULL, NULL, &c);
    size_t scr = screen_bytes(); /* the screen's unit tables, before any simulation */
    return sim > scr ? sim : scr;
}

void engine_fleet_scenario(const engine_fleet_request *q, const engine_fleet_option *o,
                           engine_plan p, engine_scenario *s)
{
    engine_fleet_pool_scenario(q, o, 0, p, s);
}

void engine_fleet_pool_scenario(const engine_fleet_request *q, const engine_fleet_option *o,
                                int prefill, engine_plan p, engine_scenario *s)
{
    *s = q->base;
    s->weight_dtype = prefill && o->disagg ? o->prefill_dtype : o->dtype;
    if (o->spec != q->base.spec_method) { /* an allowed one, at its defaults */
        s->spec_method = o->spec;
        engine_spec_default(o->spec, &s->spec_k, &s->spec_accept);
    }
    s->gpus = p.tp * p.pp * p.dp;
    s->batch = 1;
    s->batch_max = 0;
    s->total_concurrency = 0;
    if (s->gpus_per_node <= 0)
        s->gpus_per_node = per_node(q);
}

/* --- the screen ------------------------------------------------------------ */

/* One replica unit's figures from its step model. */
/* A weight dtype and a speculation method the search tries. */
typedef struct fleet_var {
    engine_dtype dtype;
    engine_spec_method spec;
} fleet_var;

typedef struct unit_fig {
    fleet_var v;       /* its dtype and speculation */
    engine_plan plan;  /* dp = 1 */
    double P;          /* one prompt alone */
    double Pb;         /* a prompt's share of a batched prefill step */
    int B;             /* largest batch within the TPOT target (0: none) */
    double itl, itl1;  /* decode step at B, at 1 */
} unit_fig;

/* The screen's two tables of FLEET_MAX_UNITS units (screen_all), in the
 * workspace (aligned there: screen_tables) before the simulations use it. */
static size_t screen_bytes(void)
{
    return 2 * FLEET_MAX_UNITS * sizeof(unit_fig) + _Alignof(unit_fig);
}

static unit_fig *screen_tables(void *work)
{
    uintptr_t a = (uintptr_t)work, al = _Alignof(unit_fig);
    return (unit_fig *)(void *)((unsigned char *)work + (al - a % al) % al);
}

/* A decode step of b sequences at mid-generation, per token a sequence
 * gains (speculative decoding: the draft and verify step over its
 * expected tokens, engine_step_tokens; else the step). */
static double decode_step(const engine_stepper *st, int b)
{
    engine_step_mix m = {NULL, 0, b, st->s.prompt + st->s.gen / 2.0};
    double e = engine_step_tokens(st, &m);
    return engine_step_s(st, &m) / (e >= 1 ? e : 1);
}

static double prefill_step(const engine_stepper *st, int seqs)
{
    engine_step_chunk ch = {seqs, st->s.prompt, 0};
    engine_step_mix m = {&ch, 1, 0, 0};
    return engine_step_s(st, &m);
}

/* 1 with *f when the unit is valid and one sequence fits. */
static int unit_screen(const engine_fleet_request *q, fleet_var v, engine_plan u,
                       unit_fig *f)
{
    engine_fleet_option o;
    memset(&o, 0, sizeof o);
    o.dtype = v.dtype;
    o.spec = v.spec;
    engine_scenario s;
    engine_fleet_scenario(q, &o, u, &s);
    engine_stepper st;
    if (engine_stepper_init(&st, &s, u, NULL) != 0 || !st.valid || st.max_concurrency < 1)
        return 0;
    memset(f, 0, sizeof *f);
    f->v = v;
    f->plan = u;
    f->P = prefill_step(&st, 1);
    f->itl1 = decode_step(&st, 1);
    int cap = st.max_concurrency;
    int mns = engine_kv_max_num_seqs(&s, st.kv_capacity_tokens);
    if (cap > mns)
        cap = mns;
    engine_sim_config c; /* the simulation's token budget a step (its default) */
    engine_sim_defaults(&c, &st);
    int bp = c.max_batched_tokens / s.prompt;
    bp = bp < 1 ? 1 : bp > cap ? cap : bp;
    f->Pb = prefill_step(&st, bp) / bp;
    if (f->itl1 > q->tpot_slo_s)
        return 1; /* B = 0: no batch meets the target */
    int lo = 1, hi = cap;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (decode_step(&st, mid) <= q->tpot_slo_s)
            lo = mid;
        else
            hi = mid - 1;
    }
    f->B = lo;
    f->itl = decode_step(&st, lo);
    return 1;
}

/* Replicas one EP group spans: ep / tp when the experts are spread over
 * replicas (DP attention: each replica attends its own sequences, the
 * group's experts are split over tp * g GPUs), else 1.  A plan's dp is a
 * multiple of it (ep divides tp * dp). */
static int unit_group(engine_plan p)
{
    return p.ep > p.tp ? p.ep / p.tp : 1;
}

/* The ep degrees of a tp x pp unit on an MoE model, into ep[] (returns
 * how many): 1; every divisor 2..tp of tp dividing the expert slots
 * (expert groups inside the TP group, ep = tp the whole experts per
 * GPU); and tp * g for g = 2, 3, ... replicas while tp * pp * g is within
 * the GPU limit (DP-attention EP: the experts over g replicas), each
 * dividing the slots (E plus redundant experts; 256 experts take only
 * powers of two, DeepSeek's 288 slots with EPLB also 3, 6, 9, ...).  eval
 * ranks all of these (rank.c for_each_plan). */
static int unit_eps(const engine_fleet_request *q, int tp, int pp, int *ep, int cap)
{
    const engine_model *m = q->base.model;
    int n = 0;
    ep[n++] = 1;
    if (m->experts < 1)
        return n;
    long long slots = (long long)m->experts + q->base.redundant_experts;
    for (int e = 2; e <= tp && n < cap; e++)
        if (tp % e == 0 && slots % e == 0)
            ep[n++] = e;
    for (int g = 2; (long long)tp * pp * g <= gmax(q) && n < cap; g++)
        if (slots % ((long long)tp * g) == 0)
            ep[n++] = tp * g;
    return n;
}

/* 1 when plan p's TP group spans nodes: tp above the GPUs of a node with
 * a scale-out link, eval.c's tp_hier (its all-reduces are priced
 * hierarchically, the part across nodes on q's inter link, and eval warns
 * ENGINE_WARN_TP_CROSS_NODE). */
static int tp_spans_nodes(const engine_fleet_request *q, engine_plan p)
{
    return q->base.inter && p.tp > per_node(q);
}

/* The next tp degree after tp: every degree inside a node (1..per_node),
 * then, with a scale-out link, whole numbers of nodes (2, 3, ... x
 * per_node: a TP group across nodes, as eval ranks it); 0 past the GPU
 * limit. */
static int next_tp(const engine_fleet_request *q, int tp)
{
    int k = per_node(q);
    int t = tp < k ? tp + 1 : q->base.inter ? (tp / k + 1) * k : 0;
    return t > 0 && t <= gmax(q) ? t : 0;
}

/* The units of one dtype: every tp of next_tp (the step model refuses
 * those the heads do not allow), pp 1 up to the model's layers (eval's
 * limit: a stage holds a layer at least), the ep degrees of unit_eps
 * (with an EP group over g replicas the unit is those g replicas: plan dp
 * = g), each within the GPU limit.  Returns how many; the units past cap
 * count in *dropped. */
static int unit_list(const engine_fleet_request *q, fleet_var d, unit_fig *u, int cap,
                     int *dropped)
{
    int n = 0;
    int pp_max = q->base.model->layers;
    for (int tp = 1; tp > 0; tp = next_tp(q, tp))
        for (int pp = 1; pp <= pp_max && (long long)tp * pp <= gmax(q); pp++) {
            int ep[64];
            int ne = unit_eps(q, tp, pp, ep, 64);
            for (int k = 0; k < ne; k++) {
                engine_plan p = {tp, pp, 1, ep[k]};
                p.dp = unit_group(p);
                if (n >= cap) {
                    if (dropped)
                        (*dropped)++;
                    continue;
                }
                if (unit_screen(q, d, p, &u[n]))
                    n++;
            }
        }
    return n;
}

/* Replicas for x requests/s of one replica's worth, a whole number of EP
 * groups. */
static int replicas_for(double x, engine_plan unit);

static int ceil_pos(double x)
{
    if (!(x < FLEET_MAX_REPLICAS))
        return FLEET_MAX_REPLICAS;
    int r = (int)ceil(x - 1e-9);
    return r < 1 ? 1 : r;
}

static int replicas_for(double x, engine_plan unit)
{
    int g = unit_group(unit);
    int r = ceil_pos(x);
    r = (r + g - 1) / g * g;
    return r < FLEET_MAX_REPLICAS ? r : FLEET_MAX_REPLICAS / g * g;
}

static void opt_gpus(const engine_fleet_request *q, engine_fleet_option *o)
{
    o->gpus = o->disagg ? engine_disagg_gpus(o->dplan) : o->plan.tp * o->plan.pp * o->plan.dp;
    o->cost_per_hour_usd = o->gpus * q->base.gpu->price_per_hour;
    o->within_limit = o->gpus <= gmax(q);
    o->tp_cross = o->disagg ? tp_spans_nodes(q, o->dplan.prefill) ||
                                  tp_spans_nodes(q, o->dplan.decode)
                            : tp_spans_nodes(q, o->plan);
}

static void add_cand(engine_fleet_result *r, const engine_fleet_option *o)
{
    if (r->n_cands < FLEET_MAX_CANDS)
        r->cand[r->n_cands++] = *o;
    else
        r->cands_dropped++;
}

static void screen_agg(const engine_fleet_request *q, fleet_var d, const unit_fig *u, int n,
                       engine_fleet_result *r)
{
    for (int i = 0; i < n; i++) {
        if (u[i].B < 1 || u[i].P > q->ttft_slo_s)
            continue;
        double mu = 1.0 / (u[i].P + (q->base.gen - 1) * u[i].itl / u[i].B);
        engine_fleet_option o;
        memset(&o, 0, sizeof o);
        o.dtype = o.prefill_dtype = d.dtype;
        o.spec = d.spec;
        o.plan = u[i].plan;
        /* the floor: decode steps alone at utilisation 1, batch <= B */
        o.plan.dp = replicas_for(q->rate * (q->base.gen - 1) * u[i].itl / u[i].B, u[i].plan);
        opt_gpus(q, &o);
        o.floor_gpus = o.gpus;
        o.floor_dp = o.plan.dp;
        o.plan.dp = replicas_for(q->rate / (FLEET_UTILISATION * mu), u[i].plan);
        o.max_num_seqs = u[i].B;
        o.prefill_s = u[i].P;
        o.itl_s = u[i].itl;
        opt_gpus(q, &o);
        o.screen_gpus = o.gpus;
        o.screen_rate = o.plan.dp * mu;
        add_cand(r, &o);
    }
}

/* Every pair of a prefill unit (pre[], pp 1, ep 1 or tp) and a decode
 * unit (dec[]: any, PP and DP-attention EP included; its pool a whole
 * number of EP groups) of the same speculation, each pool in its own
 * weight dtype. */
static void screen_disagg(const engine_fleet_request *q, const unit_fig *pre, int np,
                          const unit_fig *dec, int nd, engine_fleet_result *r)
{
    double gen1 = q->base.gen - 1;
    for (int i = 0; i < np; i++)
        for (int j = 0; j < nd; j++) {
            const unit_fig *p = &pre[i], *dd = &dec[j];
            if (dd->B < 1 || p->P > q->ttft_slo_s)
                continue;
            if (p->v.spec != dd->v.spec)
                continue;
            engine_fleet_option o;
            memset(&o, 0, sizeof o);
            o.disagg = 1;
            o.dtype = dd->v.dtype;
            o.prefill_dtype = p->v.dtype;
            o.spec = dd->v.spec;
            o.dplan.prefill = p->plan;
            o.dplan.decode = dd->plan;
            engine_scenario s;
            engine_fleet_pool_scenario(q, &o, 1, p->plan, &s);
            o.transfer_s = engine_disagg_transfer_s(&s, o.dplan, s.prompt, NULL, NULL);
            o.transfer_exposed_s = engine_disagg_exposed_s(o.transfer_s, p->P, s.model->layers);
            if (p->P + o.transfer_exposed_s > q->ttft_slo_s)
                continue;
            double xd = gen1 > 0 ? q->rate * gen1 * dd->itl / dd->B : 1;
            o.dplan.prefill.dp = replicas_for(q->rate * p->Pb, p->plan);
            o.dplan.decode.dp = replicas_for(xd, dd->plan);
            opt_gpus(q, &o);
            o.floor_gpus = o.gpus; /* both pools at utilisation 1 */
            o.floor_prefill_dp = o.dplan.prefill.dp;
            o.floor_dp = o.dplan.decode.dp;
            o.dplan.prefill.dp = replicas_for(q->rate * p->Pb / FLEET_UTILISATION, p->plan);
            o.dplan.decode.dp =
                replicas_for(gen1 > 0 ? xd / FLEET_UTILISATION : 1, dd->plan);
            o.max_num_seqs = dd->B;
            o.prefill_s = p->P;
            o.itl_s = dd->itl;
            opt_gpus(q, &o);
            o.screen_gpus = o.gpus;
            double rp = o.dplan.prefill.dp / p->Pb;
            double rd = gen1 > 0 ? o.dplan.decode.dp * dd->B / (gen1 * dd->itl) : INFINITY;
            o.screen_rate = rp < rd ? rp : rd;
            add_cand(r, &o);
        }
}

/* The unit nearest the targets when none passes: the smallest worst
 * ratio of its batch-1 prefill and decode step to the targets. */
static void nearest_unit(const engine_fleet_request *q, fleet_var d, const unit_fig *u,
                         int n, double *best, engine_fleet_option *o)
{
    for (int i = 0; i < n; i++) {
        double w = fmax(u[i].P / q->ttft_slo_s, u[i].itl1 / q->tpot_slo_s);
        if (w >= *best)
            continue;
        *best = w;
        memset(o, 0, sizeof *o);
        o->dtype = o->prefill_dtype = d.dtype;
        o->spec = d.spec;
        o->plan = u[i].plan;
        double mu = 1.0 / (u[i].P + (q->base.gen - 1) * u[i].itl1);
        o->plan.dp = replicas_for(q->rate / (FLEET_UTILISATION * mu), u[i].plan);
        o->max_num_seqs = 1;
        o->prefill_s = u[i].P;
        o->itl_s = u[i].itl1;
        opt_gpus(q, o);
        o->screen_gpus = o->floor_gpus = o->gpus;
        o->screen_rate = o->plan.dp * mu;
    }
}

/* --- the simulation -------------------------------------------------------- */

typedef struct fleet_ws {
    void *work;
    size_t bytes;
    int sims;
    int max_sims; /* the request's, else FLEET_MAX_SIMS */
} fleet_ws;

static void sim_config(const engine_fleet_request *q, const engine_stepper *st,
                       const engine_fleet_option *o, engine_sim_config *c)
{
    engine_sim_defaults(c, st);
    c->arrival = ENGINE_SIM_POISSON;
    c->rate = q->rate;
    c->requests = req_n(q);
    c->seed = q->seed;
    c->ttft_slo_s = q->ttft_slo_s;
    c->tpot_slo_s = q->tpot_slo_s;
    c->slo_percentile = q->slo_percentile > 0 ? q->slo_percentile : 99;
    c->max_num_seqs = o->max_num_seqs;
}

/* The steppers of o: the plan (pre), or both pools. */
static int steppers(const engine_fleet_request *q, const engine_fleet_option *o,
                    engine_stepper *pre, engine_stepper *dec)
{
    engine_scenario s;
    engine_plan a = o->disagg ? o->dplan.prefill : o->plan;
    engine_fleet_pool_scenario(q, o, 1, a, &s);
    if (engine_stepper_init(pre, &s, a, NULL) != 0 || !pre->valid || pre->kv_blocks < 1)
        return -1;
    if (!o->disagg)
        return 0;
    engine_fleet_scenario(q, o, o->dplan.decode, &s);
    if (engine_stepper_init(dec, &s, o->dplan.decode, NULL) != 0 || !dec->valid ||
        dec->kv_blocks < 1)
        return -1;
    return 0;
}

/* Simulate o at the rate into o->sim; 0, or -1 when it cannot run. */
static int simulate(const engine_fleet_request *q, engine_fleet_option *o, fleet_ws *w,
                    int sustain)
{
    engine_stepper pre, dec;
    memset(&pre, 0, sizeof pre);
    memset(&dec, 0, sizeof dec);
    if (steppers(q, o, &pre, &dec) != 0)
        return -1;
    engine_sim_config c;
    sim_config(q, o->disagg ? &dec : &pre, o, &c);
    int rc;
    w->sims++;
    if (o->disagg) {
        engine_sim_transfer x;
        engine_scenario s;
        engine_fleet_pool_scenario(q, o, 1, o->dplan.prefill, &s);
        engine_disagg_sim_transfer(&s, o->dplan, &x);
        if (engine_sim_disagg_workspace_bytes(&pre, &dec, &c) > w->bytes)
            return -1;
        rc = engine_sim_disagg_run(&pre, &dec, &c, &x, w->work, w->bytes, &o->sim, NULL);
        if (rc == 0 && sustain)
            o->sustainable_rate = engine_sim_disagg_sustainable_rate(
                &pre, &dec, &c, w->work, w->bytes, &o->prefill_rate, &o->decode_rate, NULL);
    } else {
        if (engine_sim_workspace_bytes(&pre, &c) > w->bytes)
            return -1;
        rc = engine_sim_run(&pre, &c, w->work, w->bytes, &o->sim, NULL);
        if (rc == 0 && sustain)
            o->sustainable_rate = engine_sim_sustainable_rate(&pre, &c, w->work, w->bytes, NULL);
    }
    if (rc != 0)
        return -1;
    o->simulated = 1;
    o->meets = o->sim.slo_met && !o->sim.overloaded && o->sim.rejected == 0 &&
               o->sim.completed > 0;
    return 0;
}

/* One more replica where o missed (fleet.h). */
static void bump(const engine_fleet_request *q, engine_fleet_option *o)
{
    int ttft_miss = o->sim.ttft_at_slo_s > q->ttft_slo_s;
    int tpot_miss = o->sim.tpot_at_slo_s > q->tpot_slo_s;
    if (!o->disagg) {
        o->plan.dp += unit_group(o->plan); /* one more EP group */
        if (tpot_miss && o->max_num_seqs > 1)
            o->max_num_seqs = o->max_num_seqs * 3 / 4 > 0 ? o->max_num_seqs * 3 / 4 : 1;
    } else if (tpot_miss && !ttft_miss) {
        o->dplan.decode.dp += unit_group(o->dplan.decode);
    } else if (ttft_miss && !tpot_miss) {
        o->dplan.prefill.dp += unit_group(o->dplan.prefill);
    } else {
        o->dplan.prefill.dp += unit_group(o->dplan.prefill);
        o->dplan.decode.dp += unit_group(o->dplan.decode);
    }
    o->bumps++;
    opt_gpus(q, o);
}

static engine_plan *pool_plan(engine_fleet_option *o, int pool)
{
    return !o->disagg ? &o->plan : pool == 0 ? &o->dplan.decode : &o->dplan.prefill;
}

/* o met the targets as the screen sized it: the fewest replicas (whole EP
 * groups; xPyD: the decode pool, then the prefill pool) that still meet
 * them, by bisection between the screen's floor (utilisation 1, which
 * nothing below can serve) and what met.  The screen plans for
 * FLEET_UTILISATION and its mu counts each prefill apart from the decode
 * steps (chunked prefill runs it inside them); a fleet that meets the
 * targets on fewer replicas is cheaper, and recommend must not pass over
 * it (fleet.h). */
static void trim(const engine_fleet_request *q, engine_fleet_option *o, fleet_ws *w)
{
    for (int pool = 0; pool < (o->disagg ? 2 : 1); pool++) {
        int g = unit_group(*pool_plan(o, pool));
        int lo = pool == 1 ? o->floor_prefill_dp : o->floor_dp;
        int hi = pool_plan(o, pool)->dp; /* meets */
        lo = lo < g ? g : lo;
        while (lo < hi && w->sims < w->max_sims) {
            int mid = (lo + (hi - lo) / 2) / g * g;
            mid = mid < lo ? lo : mid;
            engine_fleet_option t = *o;
            pool_plan(&t, pool)->dp = mid;
            opt_gpus(q, &t);
            if (simulate(q, &t, w, 0) == 0 && t.meets) {
                t.trimmed += hi - mid;
                *o = t;
                hi = mid;
            } else {
                lo = mid + g;
            }
        }
        if (lo < hi)
            o->trim_cut = 1; /* the cap stopped the bisection */
    }
}

/* Simulate o, adding replicas after a miss, or trimming them after a
 * first-time meet; 1 when it meets the targets. */
static int confirm(const engine_fleet_request *q, engine_fleet_option *o, fleet_ws *w)
{
    for (int k = 0; k <= FLEET_BUMPS && w->sims < w->max_sims; k++) {
        if (simulate(q, o, w, 0) != 0)
            return 0;
        if (o->meets) {
            if (k == 0)
                trim(q, o, w);
            return 1;
        }
        if (k < FLEET_BUMPS)
            bump(q, o);
    }
    return 0;
}

static int cand_cmp(const void *pa, const void *pb)
{
    const engine_fleet_option *a = pa, *b = pb;
    if (a->gpus != b->gpus)
        return a->gpus < b->gpus ? -1 : 1;
    if (a->disagg != b->disagg)
        return a->disagg - b->disagg;
    if (a->tp_cross != b->tp_cross) /* the tie rule: in-node TP first (fleet.h) */
        return a->tp_cross - b->tp_cross;
    int c = engine_cmp(b->screen_rate, a->screen_rate);
    if (c)
        return c;
    if (a->dtype != b->dtype)
        return (int)a->dtype - (int)b->dtype; /* the heavier (base) dtype first */
    if (a->spec != b->spec)
        return (int)a->spec - (int)b->spec; /* no speculation first */
    c = engine_plan_order(a->disagg ? a->dplan.decode : a->plan,
                          b->disagg ? b->dplan.decode : b->plan);
    if (c)
        return c;
    return engine_plan_order(a->dplan.prefill, b->dplan.prefill);
}

/* A pool of unit u's replicas at the rate: the GPUs the screen asks for
 * (at FLEET_UTILISATION) and its floor (at utilisation 1); prefill 1: a
 * prefill pool (R P_b replicas' worth), 0: a decode pool. */
static void pool_gpus(const engine_fleet_request *q, const unit_fig *u, int prefill, int *scr,
                      int *flo)
{
    double gen1 = q->base.gen - 1;
    double x = prefill ? q->rate * u->Pb
               : gen1 > 0 && u->B > 0 ? q->rate * gen1 * u->itl / u->B : 1;
    int g = u->plan.tp * u->plan.pp;
    *flo = replicas_for(x, u->plan) * g;
    *scr = replicas_for(prefill || gen1 > 0 ? x / FLEET_UTILISATION : 1, u->plan) * g;
}

/* What a pool of u's replicas on scr GPUs holds: a prefill pool the
 * prompts it computes a second (replicas / P_b), a decode pool the
 * sequences it runs at once (replicas x B). */
static double pool_room(const unit_fig *u, int prefill, int scr)
{
    double reps = (double)scr / (u->plan.tp * u->plan.pp);
    return prefill ? reps / u->Pb : reps * u->B;
}

/* 1 when b is as good a pool unit as a for every xPyD pair (same
 * speculation; prefill: no longer prefill P, decode: no longer step at
 * its batch; no more GPUs at the rate, nor at the floor; at least the
 * room at that size, pool_room) and better in one, or equal in all and
 * earlier (ib < ia); never when b's TP group spans nodes and a's does not
 * (the search's tie rule puts a's pairs first). */
static int pool_dominates(const engine_fleet_request *q, const unit_fig *b, int ib,
                          const unit_fig *a, int ia, int prefill)
{
    if (b->v.spec != a->v.spec)
        return 0;
    /* the tie rule: a's pairs on b's GPUs come first when only b's TP
     * group spans nodes */
    if (tp_spans_nodes(q, b->plan) && !tp_spans_nodes(q, a->plan))
        return 0;
    double tb = prefill ? b->P : b->itl, ta = prefill ? a->P : a->itl;
    int sb, fb, sa, fa;
    pool_gpus(q, b, prefill, &sb, &fb);
    pool_gpus(q, a, prefill, &sa, &fa);
    double rb = pool_room(b, prefill, sb), ra = pool_room(a, prefill, sa);
    if (tb > ta || sb > sa || fb > fa || rb < ra)
        return 0;
    return tb < ta || sb < sa || fb < fa || rb > ra || ib < ia;
}

/* Keep, in order, the units of u[0..n) that pass the pool's screen (a
 * decode unit: a batch within the TPOT target; a prefill unit: P within
 * the TTFT target) and that no other dominates (pool_dominates); returns
 * how many.  The xPyD pairs are the product of the two pools' units: a
 * dominated unit only gives pairs on as many GPUs or more, no faster,
 * after the pair of its dominator in the search order. */
static int pool_prune(const engine_fleet_request *q, unit_fig *u, int n, int prefill)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (prefill ? u[i].P > q->ttft_slo_s : u[i].B < 1)
            continue;
        int dom = 0;
        for (int j = 0; j < n && !dom; j++)
            if (j != i && !(prefill ? u[j].P > q->ttft_slo_s : u[j].B < 1))
                dom = pool_dominates(q, &u[j], j, &u[i], i, prefill);
        if (!dom)
            u[k++] = u[i];
    }
    return k;
}

/* The aggregated candidates of one dtype and speculation method (u:
 * scratch of FLEET_MAX_UNITS), and its prefill units appended to pre[*np]
 * (every unit; pruned to the undominated ones by screen_all). */
static void screen_var(const engine_fleet_request *q, fleet_var v, unit_fig *u, unit_fig *pre,
                       int *np, engine_fleet_result *r, engine_fleet_option *near,
                       double *near_w)
{
    int n = unit_list(q, v, u, FLEET_MAX_UNITS, &r->units_dropped);
    r->units += n;
    if (q->disagg != ENGINE_FLEET_DISAGG_ONLY)
        screen_agg(q, v, u, n, r);
    nearest_unit(q, v, u, n, near_w, near);
    if (q->disagg == ENGINE_FLEET_DISAGG_OFF)
        return;
    n = pool_prune(q, u, n, 1);
    for (int i = 0; i < n; i++) {
        if (*np >= FLEET_MAX_UNITS)
            *np = pool_prune(q, pre, *np, 1);
        if (*np < FLEET_MAX_UNITS)
            pre[(*np)++] = u[i];
        else
            r->units_dropped++;
    }
}

/* The variants searched: the base dtype and those allowed, times the base
 * speculation and those allowed; into v[] (returns how many). */
static int variants(const engine_fleet_request *q, fleet_var *v)
{
    int n = 0;
    engine_dtype base = engine_scenario_weight_dtype(&q->base);
    for (int d = 0; d < ENGINE_DTYPE_COUNT; d++)
        for (int sp = 0; sp < ENGINE_SPEC_COUNT; sp++) {
            if (d != (int)base && !(q->allow_quant & (1u << d)))
                continue;
            if (sp != (int)q->base.spec_method && !(q->allow_spec & (1u << sp)))
                continue;
            v[n++] = (fleet_var){(engine_dtype)d, (engine_spec_method)sp};
        }
    return n;
}

static void screen_all(const engine_fleet_request *q, engine_fleet_result *r,
                       engine_fleet_option *near, double *near_w, void *work)
{
    unit_fig *u = screen_tables(work), *pre = u + FLEET_MAX_UNITS;
    fleet_var v[ENGINE_DTYPE_COUNT * ENGINE_SPEC_COUNT];
    int nv = variants(q, v), np = 0;
    for (int k = 0; k < nv; k++)
        screen_var(q, v[k], u, pre, &np, r, near, near_w);
    if (q->disagg != ENGINE_FLEET_DISAGG_OFF) {
        /* every undominated decode unit of every variant against every
         * undominated prefill unit (any dtype, the same speculation) */
        np = pool_prune(q, pre, np, 1);
        for (int k = 0; k < nv; k++) {
            int n = unit_list(q, v[k], u, FLEET_MAX_UNITS, NULL);
            n = pool_prune(q, u, n, 0);
            screen_disagg(q, pre, np, u, n, r);
        }
        r->disagg_searched = 1;
    }
    r->candidates = r->n_cands;
    qsort(r->cand, (size_t)r->n_cands, sizeof r->cand[0], cand_cmp);
    for (int i = 0; i < r->n_cands && !r->disagg_screen_gpus; i++)
        if (r->cand[i].disagg)
            r->disagg_screen_gpus = r->cand[i].screen_gpus;
}

/* --- the answer ------------------------------------------------------------ */

static double worst_ratio(const engine_fleet_request *q, const engine_fleet_option *o)
{
    double w = fmax(o->sim.ttft_at_slo_s / q->ttft_slo_s, o->sim.tpot_at_slo_s / q->tpot_slo_s);
    return o->sim.overloaded ? w + 1e6 : w;
}

/* conf[0..n-1]: indices of confirmed candidates by GPUs, aggregated first,
 * TP inside a node first (a bump or a trim can bring a cross-node TP
 * candidate to an in-node one's GPUs), then search order; insert i. */
static void conf_insert(const engine_fleet_result *r, int *conf, int *n, int i)
{
    int k = *n;
    while (k > 0) {
        const engine_fleet_option *a = &r->cand[conf[k - 1]], *b = &r->cand[i];
        if (a->gpus != b->gpus ? a->gpus < b->gpus
            : a->disagg != b->disagg ? a->disagg < b->disagg
                                     : a->tp_cross <= b->tp_cross)
            break;
        conf[k] = conf[k - 1];
        k--;
    }
    conf[k] = i;
    (*n)++;
}

/* 1 when candidate i could still give an option cheaper than the third
 * confirmed one (n confirmed so far): its floor is below that one's GPUs. */
static int could_beat(const engine_fleet_result *r, const int *conf, int n, int i)
{
    /* floor_gpus bounds what a trim can reach: no cheaper option there */
    return !(n > FLEET_ALTS && r->cand[i].floor_gpus >= r->cand[conf[FLEET_ALTS]].gpus);
}

static int search(const engine_fleet_request *q, engine_fleet_result *r, fleet_ws *w, int *conf)
{
    int n = 0, i = 0;
    for (; i < r->n_cands && w->sims < w->max_sims; i++) {
        if (!could_beat(r, conf, n, i))
            continue;
        if (confirm(q, &r->cand[i], w))
            conf_insert(r, conf, &n, i);
    }
    /* Stopped at the cap: the candidates not tried that could still be
     * cheaper than the answer (its floor below the answer's GPUs). */
    int best = -1;
    for (int k = 0; k < n && best < 0; k++)
        if (r->cand[conf[k]].within_limit)
            best = conf[k];
    for (int k = 0; k < r->n_cands; k++) {
        const engine_fleet_option *c = &r->cand[k];
        int open = k >= i ? could_beat(r, conf, n, k) : c->trim_cut;
        if (open && (best < 0 || c->floor_gpus < r->cand[best].gpus))
            r->unsearched++;
    }
    r->sims_capped = w->sims >= w->max_sims;
    return n;
}

/* The cross-node warnings eval gives o's plan (xPyD: its decode pool;
 * prefill 1: its prefill pool), ENGINE_WARN_TP_CROSS_NODE and
 * ENGINE_WARN_EP_CROSS_NODE bits of engine_evaluate. */
static unsigned pool_warnings(const engine_fleet_request *q, const engine_fleet_option *o,
                              int prefill)
{
    engine_plan p = !o->disagg ? o->plan : prefill ? o->dplan.prefill : o->dplan.decode;
    engine_scenario s;
    engine_fleet_pool_scenario(q, o, prefill, p, &s);
    engine_result er;
    if (engine_evaluate(&s, p, &er, NULL) != 0 || !er.valid)
        return 0;
    return er.warnings & (ENGINE_WARN_TP_CROSS_NODE | ENGINE_WARN_EP_CROSS_NODE);
}

/* Simulate a reported option with its sustainable rate and its warnings. */
static void report(const engine_fleet_request *q, engine_fleet_option *o, fleet_ws *w)
{
    simulate(q, o, w, 1);
    o->warnings = pool_warnings(q, o, 0);
    o->prefill_warnings = o->disagg ? pool_warnings(q, o, 1) : 0;
}

static void finish(const engine_fleet_request *q, engine_fleet_result *r, fleet_ws *w,
                   const int *conf, int n, const engine_fleet_option *near, double near_w)
{
    int first = -1;
    for (int k = 0; k < n; k++) {
        const engine_fleet_option *o = &r->cand[conf[k]];
        if (o->within_limit && first < 0)
            first = k;
        if (o->within_limit && !o->disagg && !r->have_best_agg)
            r->best_agg = *o, r->have_best_agg = 1;
        if (o->within_limit && o->disagg && !r->have_best_disagg)
            r->best_disagg = *o, r->have_best_disagg = 1;
    }
    if (first >= 0) {
        r->status = ENGINE_FLEET_FEASIBLE;
        r->have_choice = 1;
        r->chosen = r->cand[conf[first]];
        report(q, &r->chosen, w);
        for (int k = first + 1; k < n && r->n_alts < FLEET_ALTS; k++) {
            r->alt[r->n_alts] = r->cand[conf[k]];
            report(q, &r->alt[r->n_alts++], w);
        }
        return;
    }
    r->have_closest = 1;
    if (n > 0) {
        r->status = ENGINE_FLEET_MORE_GPUS;
        r->closest = r->cand[conf[0]];
    } else {
        r->status = ENGINE_FLEET_UNREACHABLE;
        double best = INFINITY;
        for (int i = 0; i < r->n_cands; i++)
            if (r->cand[i].simulated && worst_ratio(q, &r->cand[i]) < best) {
                best = worst_ratio(q, &r->cand[i]);
                r->closest = r->cand[i];
            }
        if (!(best < INFINITY)) {
            if (!(near_w < INFINITY)) {
                r->have_closest = 0; /* nothing fits at all */
                return;
            }
            r->closest = *near;
        }
    }
    report(q, &r->closest, w);
}

int engine_fleet_run(const engine_fleet_request *q, engine_fleet_result *out, void *work,
                     size_t bytes, engine_error *err)
{
    if (engine_fleet_check(q, err) != 0)
        return -1;
    size_t need = engine_fleet_workspace_bytes(q);
    if (!work || bytes < need)
        return engine_errorf(err, "fleet: workspace too small (%zu bytes, needs %zu)", bytes,
                             need);
    memset(out, 0, sizeof *out);
    fleet_ws w = {work, bytes, 0, q->max_sims > 0 ? q->max_sims : FLEET_MAX_SIMS};
    engine_fleet_option near;
    memset(&near, 0, sizeof near);
    double near_w = INFINITY;
    screen_all(q, out, &near, &near_w, work);
    int conf[FLEET_MAX_CANDS];
    int n = search(q, out, &w, conf);
    finish(q, out, &w, conf, n, &near, near_w);
    out->simulations = w.sims;
    return 0;
}
