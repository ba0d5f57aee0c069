/*
 * disagg.c - disaggregated prefill/decode plans (disagg.h): each pool
 * through engine_evaluate, the KV transfer between them over the link,
 * layer-wise overlap and rate matching.  Contract and model: disagg.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "disagg.h"
#include "engine.h"

int engine_disagg_gpus(engine_disagg_plan p)
{
    return p.prefill.tp * p.prefill.pp * p.prefill.dp + p.decode.tp * p.decode.pp * p.decode.dp;
}

/* KV shards one replica holds apart: min(tp, KV heads) per stage (MLA's
 * latent is whole on every TP rank), times the stages. */
static int kv_shards(const engine_model *m, engine_plan p)
{
    int g = m->mla ? 1 : m->kv_heads;
    int t = p.tp < g ? p.tp : g;
    return (t < 1 ? 1 : t) * (p.pp < 1 ? 1 : p.pp);
}

double engine_disagg_transfer_s(const engine_scenario *s, engine_disagg_plan p, int prompt,
                                int *streams, int *cross_node)
{
    int a = kv_shards(s->model, p.prefill), b = kv_shards(s->model, p.decode);
    int n = a < b ? a : b;
    int pair = p.prefill.tp * p.prefill.pp + p.decode.tp * p.decode.pp;
    int cross = s->inter && s->gpus_per_node > 0 && pair > s->gpus_per_node;
    if (streams)
        *streams = n;
    if (cross_node)
        *cross_node = cross;
    double bytes = engine_kv_bytes(s->model, s->kv_dtype, prompt) / n;
    /* n > per_node selects the scale-out link for a point-to-point message */
    return engine_comm_time(ENGINE_OP_P2P, s->intra, s->inter, cross ? pair : 2,
                            cross ? s->gpus_per_node : 0, bytes);
}

double engine_disagg_exposed_s(double transfer_s, double prefill_s, int layers)
{
    if (!(transfer_s > 0))
        return 0;
    double l = layers < 1 ? 1 : layers;
    double a = transfer_s / l, b = transfer_s - prefill_s * (l - 1) / l;
    return a > b ? a : b;
}

/* One pool of p under s: gpus set to the pool's, the batch given (0: keep
 * s's load settings). */
static int pool_eval(const engine_scenario *s, engine_plan p, int batch, engine_result *r,
                     engine_error *err)
{
    engine_scenario c = *s;
    c.gpus = p.tp * p.pp * p.dp;
    if (batch > 0) {
        c.batch = batch;
        c.batch_max = 0;
        c.total_concurrency = 0;
    }
    return engine_evaluate(&c, p, r, err);
}

static int pool_ok(engine_disagg_result *o, const engine_result *r, const char *pool)
{
    if (r->valid && r->fits)
        return 1;
    o->valid = r->valid;
    o->fits = 0;
    snprintf(o->reason, sizeof o->reason, "%s pool: %.100s", pool,
             r->reason[0] ? r->reason : "does not fit");
    return 0;
}

/* Prompts one prefill step batches: the framework's token budget over the
 * prompt (one without a budget). */
static int prefill_batch(const engine_scenario *s)
{
    const engine_framework *f = s->framework ? s->framework : engine_framework_generic_ref();
    int b = f->max_num_tokens > 0 ? f->max_num_tokens / s->prompt : 1;
    return b < 1 ? 1 : b;
}

static void rates(const engine_scenario *s, engine_disagg_result *o)
{
    o->prefill_rate = o->plan.prefill.dp * o->prefill_batch / o->prefill_batch_ttft_s;
    double dec = (s->gen - 1) * o->itl_s;
    o->decode_rate = dec > 0 ? o->plan.decode.dp * o->decode.batch / dec : INFINITY;
    o->sustainable_rate = o->prefill_rate < o->decode_rate ? o->prefill_rate : o->decode_rate;
    o->tokens_per_s = o->sustainable_rate * s->gen;
    o->cost_per_mtok_usd = s->gpu->price_per_hour > 0 && o->tokens_per_s > 0
                               ? o->gpus * s->gpu->price_per_hour / (o->tokens_per_s * 3600.0) *
                                     1e6
                               : 0;
}

/* The prefill pool of plan p into o: TTFT at batch 1 and the batched
 * step for throughput (when the pool fits). */
static int prefill_part(const engine_scenario *s, engine_plan p, engine_disagg_result *o,
                        engine_error *err)
{
    if (pool_eval(s, p, 1, &o->prefill, err) != 0)
        return -1;
    o->prefill_batch = 1;
    o->prefill_batch_ttft_s = o->prefill.ttft_s;
    int b = prefill_batch(s);
    if (b > 1 && o->prefill.valid && o->prefill.fits) {
        engine_result rb;
        if (pool_eval(s, p, b, &rb, err) != 0)
            return -1;
        if (rb.valid && rb.fits) {
            o->prefill_batch = b;
            o->prefill_batch_ttft_s = rb.ttft_s;
        }
    }
    return 0;
}

/* Validity, the KV transfer, TTFT/ITL and the rates from both pools. */
static void combine(const engine_scenario *s, engine_disagg_result *o)
{
    if (!pool_ok(o, &o->prefill, "prefill") || !pool_ok(o, &o->decode, "decode"))
        return;
    engine_disagg_plan p = o->plan;
    o->valid = o->fits = 1;
    o->kv_bytes = engine_kv_bytes(s->model, s->kv_dtype, s->prompt);
    o->transfer_s = engine_disagg_transfer_s(s, p, s->prompt, &o->streams, &o->cross_node);
    o->transfer_exposed_s =
        engine_disagg_exposed_s(o->transfer_s, o->prefill.ttft_s, s->model->layers);
    o->ttft_s = o->prefill.ttft_s + o->transfer_exposed_s;
    o->itl_s = o->decode.itl_s;
    o->e2e_s = o->ttft_s + (s->gen - 1) * o->itl_s;
    rates(s, o);
}

int engine_disagg_evaluate(const engine_scenario *s, engine_disagg_plan p,
                           engine_disagg_result *o, engine_error *err)
{
    memset(o, 0, sizeof *o);
    o->plan = p;
    o->gpus = engine_disagg_gpus(p);
    engine_scenario c = *s;
    c.gpus = p.prefill.tp * p.prefill.pp * p.prefill.dp;
    if (c.gpus < 1)
        c.gpus = 1;
    if (engine_scenario_check(&c, err) != 0)
        return -1;
    if (prefill_part(s, p.prefill, o, err) != 0 || pool_eval(s, p.decode, 0, &o->decode, err))
        return -1;
    combine(s, o);
    return 0;
}

void engine_disagg_name(engine_disagg_plan p, char *buf, size_t len)
{
    char a[24] = "", b[24] = "";
    if (p.prefill.pp > 1)
        snprintf(a, sizeof a, "pp%d", p.prefill.pp);
    if (p.decode.pp > 1)
        snprintf(b, sizeof b, "pp%d", p.decode.pp);
    snprintf(buf, len, "%dP%dD tp%d%s/tp%d%s", p.prefill.dp, p.decode.dp, p.prefill.tp, a,
             p.decode.tp, b);
}

void engine_disagg_pool_name(engine_plan p, char *buf, size_t len)
{
    char a[16] = "", b[16] = "";
    if (p.pp > 1)
        snprintf(a, sizeof a, " PP%d", p.pp);
    if (p.ep > 1)
        snprintf(b, sizeof b, " EP%d", p.ep);
    snprintf(buf, len, "TP%d%s%s", p.tp, a, b);
}

void engine_disagg_sim_transfer(const engine_scenario *s, engine_disagg_plan p,
                                engine_sim_transfer *x)
{
    int a = s->prompt > 0 ? s->prompt : 1;
    double t1 = engine_disagg_transfer_s(s, p, a, NULL, NULL);
    double t2 = engine_disagg_transfer_s(s, p, 2 * a, NULL, NULL);
    x->per_token_s = (t2 - t1) / a;
    x->base_s = t1 - x->per_token_s * a;
    if (x->base_s < 0)
        x->base_s = 0;
    x->layers = s->model->layers > 0 ? s->model->layers : 1;
}

static int fits_first(const engine_disagg_result *a, const engine_disagg_result *b)
{
    int fa = a->valid && a->fits, fb = b->valid && b->fits;
    return fb - fa;
}

int engine_disagg_compare(const engine_disagg_result *a, const engine_disagg_result *b,
                          engine_objective o)
{
    int c = fits_first(a, b);
    if (c || !(a->valid && a->fits))
        return c ? c : engine_plan_order(a->plan.decode, b->plan.decode);
    if (o == ENGINE_OBJ_THROUGHPUT)
        c = engine_cmp(b->tokens_per_s, a->tokens_per_s);
    else if (o == ENGINE_OBJ_COST) {
        int ua = a->cost_per_mtok_usd > 0, ub = b->cost_per_mtok_usd > 0;
        c = ua != ub ? ub - ua : engine_cmp(a->cost_per_mtok_usd, b->cost_per_mtok_usd);
    } else
        c = engine_cmp(a->e2e_s, b->e2e_s);
    if (c)
        return c;
    int ga = a->plan.prefill.tp * a->plan.prefill.dp, gb = b->plan.prefill.tp * b->plan.prefill.dp;
    if (ga != gb)
        return ga < gb ? -1 : 1;
    c = engine_plan_order(a->plan.decode, b->plan.decode);
    return c ? c : engine_plan_order(a->plan.prefill, b->plan.prefill);
}

static int same_plan(engine_plan a, engine_plan b)
{
    return a.tp == b.tp && a.pp == b.pp && a.dp == b.dp && a.ep == b.ep;
}

/* out[n] for p, each pool evaluated only when no earlier split has it
 * (a pool's figures depend on its own plan alone). */
static int rank_one(const engine_scenario *s, engine_disagg_plan p, engine_disagg_result *out,
                    int n, engine_error *err)
{
    engine_disagg_result *o = &out[n];
    memset(o, 0, sizeof *o);
    o->plan = p;
    o->gpus = engine_disagg_gpus(p);
    int have_p = 0, have_d = 0;
    for (int i = 0; i < n && !(have_p && have_d); i++) {
        if (!have_p && same_plan(out[i].plan.prefill, p.prefill)) {
            o->prefill = out[i].prefill;
            o->prefill_batch = out[i].prefill_batch;
            o->prefill_batch_ttft_s = out[i].prefill_batch_ttft_s;
            have_p = 1;
        }
        if (!have_d && same_plan(out[i].plan.decode, p.decode)) {
            o->decode = out[i].decode;
            have_d = 1;
        }
    }
    if ((!have_p && prefill_part(s, p.prefill, o, err) != 0) ||
        (!have_d && pool_eval(s, p.decode, 0, &o->decode, err) != 0))
        return -1;
    combine(s, o);
    return 0;
}

int engine_disagg_rank(const engine_scenario *s, engine_disagg_result *out, int *order,
                       int cap, engine_error *err)
{
    if (engine_scenario_check(s, err) != 0)
        return -1;
    int node = s->gpus_per_node > 0 ? s->gpus_per_node : 8, n = 0;
    for (int tp = 1; tp <= node && tp < s->gpus; tp *= 2)
        for (int td = 1; td <= node && td < s->gpus; td *= 2)
            for (int x = 1; x * tp < s->gpus && n < cap; x++) {
                int rest = s->gpus - x * tp;
                if (rest % td)
                    continue;
                engine_disagg_plan p = {{tp, 1, x, 1}, {td, 1, rest / td, 1}};
                if (rank_one(s, p, out, n, err) != 0)
                    return -1;
                int k = n++; /* insertion by index: stable, no large moves */
                while (k > 0 &&
                       engine_disagg_compare(&out[order[k - 1]], &out[n - 1], s->objective) > 0) {
                    order[k] = order[k - 1];
                    k--;
                }
                order[k] = n - 1;
            }
    return n;
}
