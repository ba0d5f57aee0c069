/*
 * sim.c - the load simulation of sim.h: requests generated from the
 * configuration (or a trace), dispatched round-robin to the replicas, each
 * replica simulated step by step under continuous batching with a paged KV
 * cache (reserved, on demand with preemption, or behind SGLang's estimate
 * with retraction), each step timed by engine_step_s; then the per-request
 * figures (TTFT, TPOT, e2e), throughput, goodput, batch and KV use, the
 * queue over time and the overload test.  Contract and model: sim.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "internal.h"
#include "disagg.h"
#include "sim.h"

/* One request: its lengths and what happened to it (seconds; -1: not yet). */
typedef struct sreq {
    double arrival, admit, first, done;
    double ready; /* past the front end: the engine sees it (>= arrival) */
    double t0; /* disaggregated: the arrival at the prefill pool */
    int prompt, gen;
    int win;   /* a STEADY closed loop: in its replica's measured window */
    int kept;  /* on-demand KV: output tokens made before its last preemption
                * (recomputed with the prompt when it runs again) */
} sreq;

/* A running request of a replica: prompt tokens computed, output tokens
 * produced, and the chunk planned for the step being built. */
typedef struct srun {
    int req;
    int pre_done, gen_done, plan;
    int rgen;        /* on-demand KV: output tokens recomputed with the prompt
                      * (a preempted request's; 0: a fresh one) */
    double gen_frac; /* speculative decoding: expected tokens not yet whole */
} srun;

/* The workspace, carved. */
typedef struct sim_ws {
    sreq *req;
    int *queue;
    srun *run;
    engine_step_chunk *chunk;
    double *sort;
    int n, run_cap;
} sim_ws;

/* Accumulators over the replicas. */
typedef struct sim_acc {
    long long steps, blocks_peak, preemptions;
    double busy, batch_time, kv_time, sys_time;
    int max_batch, rejected;
    /* a STEADY closed loop's windows, summed over the replicas: completed
     * output tokens and requests a second, requests in the system */
    double win_tps, win_rps, win_sys;
    int win_replicas; /* replicas with a window of at least one request */
} sim_acc;

/* One replica's state. */
typedef struct replica {
    const engine_stepper *st;
    const engine_sim_config *cfg;
    sim_ws *w;
    sim_acc *acc;
    int r, dp, n_r;     /* replica index, replicas, its requests */
    int issued;         /* closed loop: requests issued so far */
    int clients;        /* closed loop: its clients (requests in flight) */
    int starts;         /* STEADY: clients started so far */
    double cycle;       /* STEADY: the cycle the starts are spread over, s */
    double t_stop;      /* closed loop: the first completion that issued
                         * nothing (INFINITY until then) */
    int next;           /* next local request to arrive */
    int qh, qt;         /* queue ring [qh, qt) over local indices (qslot) */
    double ntr;         /* ESTIMATE: SGLang's new_token_ratio */
    double est_off;     /* ESTIMATE: the tokens the admission estimate holds
                         * back this round beyond the blocks granted */
    double est_undo;    /* ESTIMATE: the last admission's share of est_off */
    int nrun;
    long long blocks, cap; /* blocks held (reserve: reserved), capacity */
    long long grow;        /* on-demand KV: blocks granted for the step being
                            * built, beyond those held */
    int preempted;         /* on-demand KV: this round preempted (vLLM then
                            * admits no new request) */
    double admit_undo;     /* the last admitted request's admit time before
                            * (restored when it waits after all) */
    int finished;
    int prefilled;      /* disaggregated decode pool: prompts arrive cached */
    double fe_free;     /* the front end is free from this time */
    double fe_open, fe_end; /* frontend_batch_s: the open batch's first take
                             * and its window's end (fe_n 0: none open) */
    int fe_n;
    sreq *fe_batch[ENGINE_SIM_FE_BATCH_MAX]; /* its requests, in order */
    double t;
    double formed;      /* admit_lag: when the batch of the step starting at t
                         * was formed (the start of the step before it);
                         * -1: no step ran before (formed at t) */
    long recv_c;        /* recv_interval: the receive counter */
    double recv_cut;    /* recv_interval: arrivals up to this time were taken
                         * in at a take-in inside a run of decode steps */
} replica;

#define SIM_ALIGN 16
#define SIM_MAX_SUSTAIN 50000

/* The KV blocks of `tokens` tokens. */
static long long blocks_for(long long tokens)
{
    return (tokens + ENGINE_KV_BLOCK - 1) / ENGINE_KV_BLOCK;
}

static size_t align_up(size_t n)
{
    return (n + SIM_ALIGN - 1) / SIM_ALIGN * SIM_ALIGN;
}

void engine_sim_defaults(engine_sim_config *cfg, const engine_stepper *st)
{
    memset(cfg, 0, sizeof *cfg);
    const engine_framework *fw =
        st && st->s.framework ? st->s.framework : engine_framework_generic_ref();
    cfg->arrival = ENGINE_SIM_POISSON;
    cfg->rate = 1.0;
    cfg->requests = 1000;
    cfg->prompt = st ? st->s.prompt : 1024;
    cfg->gen = st ? st->s.gen : 256;
    cfg->max_num_seqs = st ? engine_kv_max_num_seqs(&st->s, st->kv_capacity_tokens)
                           : engine_max_num_seqs(NULL);
    cfg->max_batched_tokens = engine_scenario_max_num_tokens(st ? &st->s : NULL);
    cfg->sched = !fw->chunked_prefill ? ENGINE_SIM_PREFILL_FIRST
                 : fw->prefill_alone  ? ENGINE_SIM_CHUNKED_PREFILL_FIRST
                                      : ENGINE_SIM_CHUNKED;
    cfg->kv_alloc = (unsigned)fw->kv_alloc < ENGINE_SIM_KV_COUNT ? (engine_sim_kv)fw->kv_alloc
                                                                 : ENGINE_SIM_KV_RESERVE;
    cfg->seed = 42;
    cfg->slo_percentile = 99;
    cfg->admit_lag = st ? engine_scenario_admit_lag(&st->s) : 0;
}

static int dist_ok(const engine_sim_dist *d)
{
    if (d->kind == ENGINE_SIM_UNIFORM)
        return d->lo >= 1 && d->hi >= d->lo && d->hi <= ENGINE_MAX_TOKENS;
    if (d->kind == ENGINE_SIM_LOGNORMAL)
        return isfinite(d->sigma) && d->sigma > 0 && d->sigma <= 10;
    return d->kind == ENGINE_SIM_FIXED;
}

int engine_sim_check(const engine_sim_config *c, engine_error *err)
{
    if (!c)
        return engine_errorf(err, "load: no configuration");
    if ((unsigned)c->arrival >= ENGINE_SIM_ARRIVAL_COUNT)
        return engine_errorf(err, "load: arrival: unknown process");
    if (c->arrival == ENGINE_SIM_POISSON && !(isfinite(c->rate) && c->rate > 0))
        return engine_errorf(err, "load: rate: must be a finite number of requests/s above 0");
    if (c->arrival == ENGINE_SIM_CLOSED && (c->concurrency < 1 || c->concurrency > ENGINE_MAX_BATCH))
        return engine_errorf(err, "load: concurrency: must be 1..%d", ENGINE_MAX_BATCH);
    if (c->arrival == ENGINE_SIM_TRACE && (!c->trace || c->n_trace < 1))
        return engine_errorf(err, "load: trace: no requests");
    if (c->trace) {
        for (int i = 0; i < c->n_trace; i++) {
            const engine_sim_request *q = &c->trace[i];
            if (!(isfinite(q->arrival_s) && q->arrival_s >= 0) || q->prompt < 1 || q->gen < 1 ||
                q->prompt > ENGINE_MAX_TOKENS || q->gen > ENGINE_MAX_TOKENS ||
                (i > 0 && q->arrival_s < c->trace[i - 1].arrival_s))
                return engine_errorf(err, "load: trace: request %d: arrival must be finite, "
                                     "non-negative and non-decreasing, lengths 1..%d", i + 1,
                                     ENGINE_MAX_TOKENS);
        }
    } else if (c->requests < 1 || c->requests > ENGINE_MAX_SAMPLES) {
        return engine_errorf(err, "load: requests: must be 1..%d", ENGINE_MAX_SAMPLES);
    }
    if (c->prompt < 1 || c->prompt > ENGINE_MAX_TOKENS || c->gen < 1 || c->gen > ENGINE_MAX_TOKENS)
        return engine_errorf(err, "load: prompt, gen: must be 1..%d tokens", ENGINE_MAX_TOKENS);
    if (!dist_ok(&c->prompt_dist) || !dist_ok(&c->gen_dist))
        return engine_errorf(err, "load: length distribution: uniform needs 1 <= LO <= HI, "
                             "lognormal a sigma in (0, 10]");
    if (c->recv_interval < 0 || c->recv_interval > ENGINE_SIM_MAX_RECV_INTERVAL)
        return engine_errorf(err, "load: recv_interval: must be 0..%d", ENGINE_SIM_MAX_RECV_INTERVAL);
    if (c->max_num_seqs < 1 || c->max_num_seqs > ENGINE_MAX_BATCH)
        return engine_errorf(err, "load: max_num_seqs: must be 1..%d", ENGINE_MAX_BATCH);
    if (c->max_batched_tokens < 1 || c->max_batched_tokens > ENGINE_MAX_TOKENS)
        return engine_errorf(err, "load: max_batched_tokens: must be 1..%d", ENGINE_MAX_TOKENS);
    if ((unsigned)c->sched >= ENGINE_SIM_SCHED_COUNT)
        return engine_errorf(err, "load: scheduler: unknown");
    if ((unsigned)c->kv_alloc >= ENGINE_SIM_KV_COUNT)
        return engine_errorf(err, "load: kv_alloc: unknown (reserve, on-demand or estimate)");
    if ((unsigned)c->closed_start >= ENGINE_SIM_START_COUNT)
        return engine_errorf(err, "load: closed_start: unknown (burst or steady)");
    if (!(c->ttft_slo_s >= 0 && isfinite(c->ttft_slo_s)) ||
        !(c->tpot_slo_s >= 0 && isfinite(c->tpot_slo_s)))
        return engine_errorf(err, "load: SLO: must be finite and non-negative");
    if (!(c->measure_s >= 0) || !isfinite(c->measure_s))
        return engine_errorf(err, "load: measure_s: must be a finite number of seconds >= 0");
    if (!(c->frontend_s >= 0 && c->frontend_s <= 1e3) ||
        !(c->frontend_token_s >= 0 && c->frontend_token_s <= 1))
        return engine_errorf(err, "load: front end: frontend_s must be 0..1000 s, "
                             "frontend_token_s 0..1 s a token");
    if (!(c->frontend_batch_s >= 0 && c->frontend_batch_s <= 1e3) || c->frontend_batch_max < 0 ||
        c->frontend_batch_max > ENGINE_SIM_FE_BATCH_MAX)
        return engine_errorf(err, "load: front end: frontend_batch_s must be 0..1000 s, "
                             "frontend_batch_max 0..%d", ENGINE_SIM_FE_BATCH_MAX);
    if (c->one_of < 0 || c->one_of > ENGINE_MAX_GPUS || c->warmup < 0)
        return engine_errorf(err, "load: one_of: must be 0..%d, warmup >= 0", ENGINE_MAX_GPUS);
    if (!(c->slo_percentile > 0 && c->slo_percentile <= 100))
        return engine_errorf(err, "load: slo_percentile: must be in (0, 100]");
    return 0;
}

static int sim_requests(const engine_sim_config *c)
{
    return c->arrival == ENGINE_SIM_TRACE ? c->n_trace : c->requests;
}

static size_t ws_bytes(int n, int mns)
{
    int rc = mns < n ? mns : n;
    return align_up(sizeof(sreq) * (size_t)n) + align_up(sizeof(int) * (size_t)n) +
           align_up(sizeof(srun) * (size_t)rc) + align_up(sizeof(engine_step_chunk) * (size_t)rc) +
           align_up(sizeof(double) * (size_t)n) + SIM_ALIGN;
}

/* Requests of the sustainable-rate run, on one replica (the replicas of a
 * closed loop are independent and alike): its share of the run's, at
 * least three rounds of the batch (warm-up, steady window, drain), in
 * whole rounds. */
static int sustain_requests_at(const engine_stepper *st, const engine_sim_config *c,
                               long long conc)
{
    long long n = sim_requests(c) / st->plan.dp;
    if (n < 3 * conc)
        n = 3 * conc;
    /* whole rounds: the window's ends then fall at the same phase of them */
    n = (n + conc - 1) / conc * conc;
    if (n > SIM_MAX_SUSTAIN)
        n = SIM_MAX_SUSTAIN > 3 * conc ? SIM_MAX_SUSTAIN / conc * conc : 3 * conc;
    return n < 1 ? 1 : (int)n;
}

/* The sustainable rate's second closed loop under a cache given out on
 * demand (sim.h): a closed loop's requests are spread over their lives. */
int engine_sim_on_demand_batch(const engine_stepper *st, const engine_sim_config *c)
{
    if (c->kv_alloc == ENGINE_SIM_KV_RESERVE || !st)
        return 0;
    long long per = blocks_for((long long)c->prompt + c->gen / 2);
    long long b = per > 0 ? st->kv_blocks / per : 0;
    if (b > c->max_num_seqs)
        b = c->max_num_seqs;
    return b > engine_sim_max_batch(st, c) ? (int)b : 0;
}

static int sustain_requests(const engine_stepper *st, const engine_sim_config *c)
{
    int a = sustain_requests_at(st, c, engine_sim_max_batch(st, c));
    int b = engine_sim_on_demand_batch(st, c);
    b = b > 0 ? sustain_requests_at(st, c, b) : 0;
    return a > b ? a : b;
}

size_t engine_sim_workspace_bytes(const engine_stepper *st, const engine_sim_config *cfg)
{
    if (engine_sim_check(cfg, NULL) != 0)
        return 0;
    int n = sim_requests(cfg);
    if (st && st->valid) {
        int ns = sustain_requests(st, cfg);
        if (ns > n)
            n = ns;
    }
    return ws_bytes(n, cfg->max_num_seqs);
}

static int ws_carve(void *work, size_t bytes, int n, int mns, sim_ws *w)
{
    if (!work || bytes < ws_bytes(n, mns))
        return -1;
    unsigned char *p = work;
    size_t mis = (uintptr_t)p % SIM_ALIGN;
    if (mis)
        p += SIM_ALIGN - mis;
    w->n = n;
    w->run_cap = mns < n ? mns : n;
    w->req = (sreq *)(void *)p;
    p += align_up(sizeof(sreq) * (size_t)n);
    w->queue = (int *)(void *)p;
    p += align_up(sizeof(int) * (size_t)n);
    w->run = (srun *)(void *)p;
    p += align_up(sizeof(srun) * (size_t)w->run_cap);
    w->chunk = (engine_step_chunk *)(void *)p;
    p += align_up(sizeof(engine_step_chunk) * (size_t)w->run_cap);
    w->sort = (double *)(void *)p;
    return 0;
}

/* --- requests ------------------------------------------------------------ */

static int draw_len(engine_rng *g, int mean, const engine_sim_dist *d)
{
    double u = rng_uniform(g);
    double x = mean;
    if (d->kind == ENGINE_SIM_UNIFORM) {
        x = d->lo + floor(u * (d->hi - d->lo + 1.0));
        if (x > d->hi)
            x = d->hi;
    } else if (d->kind == ENGINE_SIM_LOGNORMAL) {
        x = floor(mean * exp(d->sigma * normal_quantile(u) - d->sigma * d->sigma / 2) + 0.5);
    }
    if (x < 1)
        x = 1;
    if (x > ENGINE_MAX_TOKENS)
        x = ENGINE_MAX_TOKENS;
    return (int)x;
}

/* Fill n requests: lengths from the trace or the distributions, arrivals
 * by the process (closed: issued later, -1 here). */
static void requests_make(const engine_sim_config *c, int n, engine_sim_arrival arrival,
                          sim_ws *w)
{
    engine_rng g = {c->seed ^ 0x6c6f6164ull}; /* "load" */
    double t = 0;
    for (int i = 0; i < n; i++) {
        sreq *q = &w->req[i];
        double u = rng_uniform(&g); /* drawn for every process: same lengths */
        if (c->trace) {
            const engine_sim_request *tr = &c->trace[i % c->n_trace];
            q->prompt = tr->prompt;
            q->gen = tr->gen;
        } else {
            q->prompt = draw_len(&g, c->prompt, &c->prompt_dist);
            q->gen = draw_len(&g, c->gen, &c->gen_dist);
        }
        if (arrival == ENGINE_SIM_POISSON) {
            t += -log(u) / c->rate;
            for (int k = 1; k < c->one_of; k++) /* the arrivals of the other replicas */
                t += -log(rng_uniform(&g)) / c->rate;
            q->arrival = t;
        } else if (arrival == ENGINE_SIM_TRACE) {
            q->arrival = c->trace[i].arrival_s;
        } else {
            q->arrival = arrival == ENGINE_SIM_OFFLINE ? 0.0 : -1.0;
        }
        q->admit = q->first = q->done = -1;
        q->ready = q->arrival;
        q->win = 0;
        q->kept = 0;
    }
}

/* --- one replica ----------------------------------------------------------- */

static sreq *rq(const replica *p, int local)
{
    return &p->w->req[p->r + (long long)local * p->dp];
}

/* Queue position i (a ring over the workspace's n slots: a replica's
 * queue never holds more than its own requests). */
static int *qslot(const replica *p, long long i)
{
    return &p->w->queue[i % p->w->n];
}

static long long blocks_of(const sreq *q)
{
    return blocks_for((long long)q->prompt + q->gen);
}

/* On-demand KV allocation (a disaggregated decode pool, whose prompts
 * arrive cached, keeps the reservation: it runs no recompute prefill). */
static int on_demand(const replica *p)
{
    return p->cfg->kv_alloc != ENGINE_SIM_KV_RESERVE && !p->prefilled;
}

static int estimate(const replica *p)
{
    return p->cfg->kv_alloc == ENGINE_SIM_KV_ESTIMATE && !p->prefilled;
}

/* ESTIMATE: output tokens still to come of request q having made `made`,
 * clipped as SGLang's estimate clips them (CLIP_MAX_NEW_TOKENS). */
static long long clip_new(const sreq *q, int made)
{
    long long n = (long long)q->gen - made;
    return n < 0 ? 0 : n < ENGINE_SIM_SGL_CLIP_NEW ? n : ENGINE_SIM_SGL_CLIP_NEW;
}

/* Prompt tokens (and, resumed after a preemption, recomputed output
 * tokens) entry s has still to compute before it decodes. */
static int prefill_left(const replica *p, const srun *s)
{
    return rq(p, s->req)->prompt + s->rgen - s->pre_done;
}

/* On-demand KV: the tokens whose KV entry s holds: what its prefill has
 * computed, or decoding, the prompt and every output token but the last
 * (whose KV the next step writes). */
static long long held_tokens(const replica *p, const srun *s)
{
    if (prefill_left(p, s) > 0)
        return s->pre_done;
    return (long long)rq(p, s->req)->prompt + s->gen_done - 1;
}

/* On-demand KV: recount the blocks the running entries hold (after a step). */
static void kv_recount(replica *p)
{
    long long b = 0;
    for (int i = 0; i < p->nrun; i++)
        b += blocks_for(held_tokens(p, &p->w->run[i]));
    p->blocks = b;
    p->grow = 0;
    if (b > p->acc->blocks_peak)
        p->acc->blocks_peak = b;
}

/* Requests that may have arrived: all of them, or those issued (closed). */
static int arrived_limit(const replica *p)
{
    return p->cfg->arrival == ENGINE_SIM_CLOSED ? p->issued : p->n_r;
}

static int steady(const replica *p)
{
    return p->cfg->arrival == ENGINE_SIM_CLOSED && p->cfg->closed_start == ENGINE_SIM_START_STEADY;
}

/* A request's tokenizing in the front end: frontend_s + frontend_token_s x
 * its prompt. */
static double frontend_cost(const replica *p, const sreq *q)
{
    return p->cfg->frontend_s + p->cfg->frontend_token_s * q->prompt;
}

/* The open tokenizer batch leaves at `at`: each of its requests once the
 * ones before it and itself are tokenized; the front end is free after the
 * last. */
static void frontend_release(replica *p, double at)
{
    double t = at;
    for (int i = 0; i < p->fe_n; i++) {
        t += frontend_cost(p, p->fe_batch[i]);
        p->fe_batch[i]->ready = t;
    }
    p->fe_free = t;
}

/* With frontend_batch_s: q joins the open batch when it arrives within its
 * window and the batch has room, else opens the next one at max(its
 * arrival, the front end free); a batch leaves at its window's end, or at
 * the arrival that fills it.  Requests come here in arrival order, so a
 * request's ready time is final once a later one arrives past its window. */
static void pass_frontend_batched(replica *p, sreq *q)
{
    const engine_sim_config *c = p->cfg;
    int cap = c->frontend_batch_max > 0 ? c->frontend_batch_max : ENGINE_SIM_FE_BATCH_DEFAULT;
    if (!(p->fe_n > 0 && q->arrival <= p->fe_end)) { /* the open batch, if any, has left */
        p->fe_n = 0;
        p->fe_open = q->arrival > p->fe_free ? q->arrival : p->fe_free;
        p->fe_end = p->fe_open + c->frontend_batch_s;
    }
    p->fe_batch[p->fe_n++] = q;
    if (p->fe_n < cap) {
        frontend_release(p, p->fe_end);
        return;
    }
    /* full: the batcher stops waiting */
    frontend_release(p, q->arrival > p->fe_open ? q->arrival : p->fe_open);
    p->fe_n = 0;
}

/* Request q, arrived, through the replica's front end: one request at a
 * time in arrival order, frontend_s + frontend_token_s x its prompt each;
 * q->ready is when the engine's scheduler sees it (a disaggregated decode
 * pool's requests come from the prefill pool: no front end); with
 * frontend_batch_s, through the tokenizer batch (pass_frontend_batched). */
static void pass_frontend(replica *p, sreq *q)
{
    const engine_sim_config *c = p->cfg;
    q->ready = q->arrival;
    if (p->prefilled)
        return;
    if (c->frontend_batch_s > 0) {
        pass_frontend_batched(p, q);
        return;
    }
    double cost = frontend_cost(p, q);
    if (!(cost > 0))
        return;
    q->ready = (q->arrival > p->fe_free ? q->arrival : p->fe_free) + cost;
    p->fe_free = q->ready;
}

/* A closed loop's next request issued at `at`. */
static void issue_at(replica *p, double at)
{
    sreq *q = rq(p, p->issued++);
    q->arrival = at;
    pass_frontend(p, q);
}

/* STEADY: the next client's start (INFINITY once all have started or
 * nothing is left to issue). */
static double start_time(const replica *p)
{
    if (p->starts >= p->clients || p->issued >= p->n_r)
        return INFINITY;
    return p->cycle * p->starts / p->clients;
}

/* STEADY: the first request of every client starting at or before t, in
 * start order (local indices stay in arrival order). */
static void start_clients(replica *p, double t)
{
    for (double at; (at = start_time(p)) <= t; p->starts++)
        issue_at(p, at);
}

/* The earliest arrival not yet in the queue: an issued request's, or
 * (STEADY) the next client's start; INFINITY when none. */
static double next_arrival(const replica *p)
{
    double a = p->next < arrived_limit(p) ? rq(p, p->next)->ready : INFINITY;
    if (steady(p) && start_time(p) < a)
        a = start_time(p);
    return a;
}

/* A closed loop's completion at t issues the client's next request: at t
 * (BURST), or just after t (STEADY: the round trip in the limit -> 0, so
 * the step starting at t runs without it).  The first completion with
 * nothing left to issue ends the steady window (t_stop). */
static void issue_next(replica *p, double t)
{
    if (p->cfg->arrival != ENGINE_SIM_CLOSED)
        return;
    double at = steady(p) ? nextafter(t, INFINITY) : t;
    if (steady(p))
        start_clients(p, at);
    if (p->issued < p->n_r)
        issue_at(p, at);
    else if (p->t_stop == INFINITY)
        p->t_stop = t;
}

static void finish(replica *p, sreq *q, double t, int rejected)
{
    q->done = t;
    if (rejected) {
        q->admit = t;
        p->acc->rejected++;
    } else if (!on_demand(p)) {
        p->blocks -= blocks_of(q);
    }
    p->finished++;
    issue_next(p, t);
}

/* 1 when scheduler c cuts prompts to the step's budget (chunked prefill) */
static int sched_chunks(const engine_sim_config *c)
{
    return c->sched == ENGINE_SIM_CHUNKED || c->sched == ENGINE_SIM_CHUNKED_PREFILL_FIRST;
}

/* 1 when scheduler c's prefill steps run alone while the decodes wait */
static int sched_pauses(const engine_sim_config *c)
{
    return c->sched == ENGINE_SIM_PREFILL_FIRST || c->sched == ENGINE_SIM_CHUNKED_PREFILL_FIRST;
}

/* The blocks request q takes at admission: reserved, its whole length;
 * on demand, those of its first chunk (`budget`: the step's tokens left;
 * a prompt cut to it when the scheduler chunks), or a disaggregated decode
 * pool's, its cached prompt. */
static long long admit_need(const replica *p, const sreq *q, long long budget)
{
    if (!on_demand(p))
        return blocks_of(q);
    long long left = (long long)q->prompt + q->kept;
    if (!p->prefilled && sched_chunks(p->cfg) && budget > 0 && left > budget)
        left = budget;
    return blocks_for(left);
}

/* The head of the queue admitted when it fits (1), refused for good (-1:
 * larger than the cache), or left waiting (0); budget: admit_need's. */
static int admit_head(replica *p, long long budget)
{
    while (p->qh < p->qt) {
        sreq *q = rq(p, *qslot(p, p->qh));
        if (blocks_of(q) > p->cap) {
            p->qh++;
            finish(p, q, p->t, 1);
            continue;
        }
        long long need = admit_need(p, q, budget);
        if (p->nrun >= p->cfg->max_num_seqs || p->nrun >= p->w->run_cap ||
            p->blocks + p->grow + need > p->cap)
            return 0;
        if (estimate(p)) { /* PrefillAdder.add_one_req: NO_TOKEN */
            double rem = (double)(p->cap - p->blocks - p->grow) * ENGINE_KV_BLOCK - p->est_off;
            if ((double)q->prompt + q->kept + clip_new(q, q->kept) >= rem)
                return 0;
            /* a whole prompt holds back its clipped output too, a chunk none */
            p->est_undo = need * ENGINE_KV_BLOCK >= (long long)q->prompt + q->kept
                              ? (double)clip_new(q, q->kept) : 0;
            p->est_off += p->est_undo;
        }
        srun *s = &p->w->run[p->nrun++];
        s->req = *qslot(p, p->qh++);
        s->pre_done = s->plan = 0;
        s->gen_done = s->rgen = q->kept;
        s->gen_frac = 0;
        if (on_demand(p))
            p->grow += need;
        else
            p->blocks += need;
        p->admit_undo = q->admit;
        if (q->admit < 0) /* a resumed request keeps its first admission */
            q->admit = p->t;
        if (p->prefilled) { /* its KV is here and its first token made */
            s->pre_done = q->prompt;
            s->gen_done = 1;
            q->first = p->t;
            if (q->gen <= 1)
                q->done = p->t;
        }
        return 1;
    }
    return 0;
}

/* 1 when a new prompt of `left` tokens joins this step whole or chunked
 * (budget: what is left of max_batched_tokens; nch: chunks planned so far);
 * 0 when it waits for a later step.  Prefill first: whole prompts within
 * the budget, the first always.  In flight (TensorRT-LLM without context
 * chunking): whole prompts within what the decodes and the earlier prompts
 * leave, the first that does not fit stops admission; a prompt longer than
 * the whole budget runs alone in a step beside the decodes (TensorRT-LLM
 * sizes max_num_tokens to max_input_len when chunking is off).  Chunked:
 * any prompt, cut to the budget. */
static int prompt_joins(const engine_sim_config *c, int nch, int left, long long budget)
{
    if (left <= budget || sched_chunks(c))
        return 1;
    if (c->sched == ENGINE_SIM_PREFILL_FIRST)
        return nch == 0;
    return nch == 0 && left > c->max_batched_tokens;
}

/* Build the step's prefill part into w->chunk (plans on the running
 * entries); returns the chunk count.  Chunked: partial prefills then new
 * admissions in what the decodes leave of the budget; in flight: new whole
 * prompts in what the decodes leave; prefill first: new whole prompts
 * only, when any can be admitted (prompt_joins). */
static int plan_prefill(replica *p, int decodes)
{
    const engine_sim_config *c = p->cfg;
    long long budget = c->max_batched_tokens;
    int nch = 0;
    if (!sched_pauses(c))
        budget -= decodes;
    if (sched_chunks(c)) {
        for (int i = 0; i < p->nrun; i++) {
            srun *s = &p->w->run[i];
            int left = prefill_left(p, s);
            if (left <= 0)
                continue;
            int grant = on_demand(p) ? s->plan : left; /* kv_make_room's */
            s->plan = 0;
            if (budget <= 0)
                continue;
            s->plan = left < budget ? left : (int)budget;
            if (s->plan > grant)
                s->plan = grant;
            if (s->plan <= 0)
                continue;
            budget -= s->plan;
            p->w->chunk[nch++] = (engine_step_chunk){1, s->plan, s->pre_done};
        }
    }
    if (p->preempted)
        return nch; /* vLLM admits no new request in a round that preempted */
    while ((budget > 0 || (c->sched == ENGINE_SIM_INFLIGHT && nch == 0)) &&
           admit_head(p, budget)) {
        srun *s = &p->w->run[p->nrun - 1];
        int left = prefill_left(p, s);
        if (!prompt_joins(c, nch, left, budget)) {
            sreq *q = rq(p, s->req);
            p->nrun--; /* it waits at the head of the queue */
            p->qh--;
            if (on_demand(p))
                p->grow -= admit_need(p, q, budget);
            else
                p->blocks -= blocks_of(q);
            if (estimate(p))
                p->est_off -= p->est_undo;
            q->admit = p->admit_undo;
            break;
        }
        s->plan = sched_chunks(c) && left > budget ? (int)budget : left;
        budget -= s->plan;
        p->w->chunk[nch++] = (engine_step_chunk){1, s->plan, 0};
    }
    return nch;
}

/* On-demand KV: the newest running request (the last) preempted by
 * recompute: its blocks freed, it goes back to the head of the queue and,
 * admitted again, computes its prompt and the output tokens it has made
 * before it decodes on (its first token's time stands). */
static void preempt_newest(replica *p)
{
    srun *s = &p->w->run[--p->nrun];
    rq(p, s->req)->kept = s->gen_done;
    s->plan = 0;
    *qslot(p, --p->qh) = s->req; /* it left the queue once: qh >= 1 */
    p->preempted = 1;
    p->acc->preemptions++;
}

/* ESTIMATE: the blocks decoding entry s takes for its next token. */
static long long next_token_blocks(const replica *p, const srun *s)
{
    long long h = held_tokens(p, s);
    return blocks_for(h + 1) - blocks_for(h);
}

/* ESTIMATE (SGLang's update_running_batch, check_decode_mem and
 * retract_decode): when the decoding requests' next tokens do not fit, the
 * one with the fewest output tokens (then the longest prompt, then the
 * newest) is retracted, again until they fit, at least one and never the
 * last: its blocks freed, it goes to the back of the queue (recomputed
 * when it runs again), and new_token_ratio becomes (output made + 20 a
 * request) / (their output lengths + 1) over those left, at most 1. */
static void kv_retract(replica *p)
{
    long long free = p->cap - p->blocks, need = 0;
    int dec = 0;
    for (int i = 0; i < p->nrun; i++)
        if (prefill_left(p, &p->w->run[i]) <= 0) {
            need += next_token_blocks(p, &p->w->run[i]);
            dec++;
        }
    if (need <= free)
        return;
    int n = 0;
    for (; (need > free || n == 0) && dec > 1; n++, dec--) {
        int v = -1;
        for (int i = 0; i < p->nrun; i++) {
            const srun *s = &p->w->run[i];
            if (prefill_left(p, s) > 0)
                continue;
            const srun *b = v >= 0 ? &p->w->run[v] : NULL;
            if (!b || s->gen_done < b->gen_done ||
                (s->gen_done == b->gen_done && rq(p, s->req)->prompt >= rq(p, b->req)->prompt))
                v = i;
        }
        srun victim = p->w->run[v];
        long long vb = blocks_for(held_tokens(p, &victim));
        free += vb;
        p->blocks -= vb;
        need -= next_token_blocks(p, &victim);
        rq(p, victim.req)->kept = victim.gen_done;
        memmove(&p->w->run[v], &p->w->run[v + 1], sizeof victim * (size_t)(p->nrun - v - 1));
        p->nrun--;
        *qslot(p, p->qt++) = victim.req;
        p->acc->preemptions++;
    }
    if (n == 0)
        return; /* one decode left: nothing to retract (kv_make_room's rule) */
    double made = 0, out = 0;
    int left = 0;
    for (int i = 0; i < p->nrun; i++) {
        const srun *s = &p->w->run[i];
        if (prefill_left(p, s) > 0)
            continue;
        made += s->gen_done;
        out += rq(p, s->req)->gen;
        left++;
    }
    p->ntr = fmin(1.0, (made + ENGINE_SIM_SGL_RETRACT_STEPS * left) / (out + 1));
}

/* ESTIMATE: the tokens the running requests hold back from admission (the
 * PrefillAdder's rem_total_token_offset over the running batch): each
 * decoding request its clipped output still to come x new_token_ratio, a
 * prefill finishing in this step its clipped output whole. */
static void est_hold_back(replica *p)
{
    p->est_off = 0;
    for (int i = 0; i < p->nrun; i++) {
        const srun *s = &p->w->run[i];
        const sreq *q = rq(p, s->req);
        int left = prefill_left(p, s);
        if (left <= 0)
            p->est_off += clip_new(q, s->gen_done) * p->ntr;
        else if (s->plan >= left)
            p->est_off += clip_new(q, s->gen_done);
    }
}

/* ESTIMATE: n decode steps without a retraction lower new_token_ratio by
 * its decay each, to its floor. */
static void ntr_decay(replica *p, int n)
{
    const double lo = ENGINE_SIM_SGL_INIT_RATIO * ENGINE_SIM_SGL_MIN_RATIO_FACTOR;
    p->ntr = fmax(lo, p->ntr - n * (ENGINE_SIM_SGL_INIT_RATIO - lo) / ENGINE_SIM_SGL_DECAY_STEPS);
}

/* On-demand KV (vLLM V1's scheduler, vllm/v1/core/sched/scheduler.py
 * schedule()): the running requests, in admission order, each get blocks
 * for what the step computes for them (a decode its one token, a partial
 * prefill its chunk of the budget, granted in s->plan); when one does not
 * fit, the newest running request is preempted, until it fits or is the
 * one preempted.  p->grow: the blocks granted beyond those held. */
static void kv_make_room(replica *p)
{
    const engine_sim_config *c = p->cfg;
    if (estimate(p))
        kv_retract(p);
    long long free = p->cap - p->blocks, budget = c->max_batched_tokens;
    if (!sched_pauses(c))
        for (int i = 0; i < p->nrun; i++)
            budget -= prefill_left(p, &p->w->run[i]) <= 0;
    p->grow = 0;
    for (int i = 0; i < p->nrun; i++) {
        srun *s = &p->w->run[i];
        int left = prefill_left(p, s);
        long long want = 1;
        if (left > 0) {
            want = !sched_chunks(c) || left <= budget ? left : budget > 0 ? budget : 0;
            budget -= want;
        }
        long long h = held_tokens(p, s), extra = blocks_for(h + want) - blocks_for(h);
        while (extra > free && i < p->nrun) {
            long long vb = blocks_for(held_tokens(p, &p->w->run[p->nrun - 1]));
            free += vb;
            p->blocks -= vb;
            preempt_newest(p);
        }
        if (i >= p->nrun)
            break; /* it was the newest left: preempted itself */
        free -= extra;
        p->grow += extra;
        s->plan = left > 0 ? (int)want : 0;
    }
}

/* Account for dt seconds of steps at the current batch and cache use. */
static void account(replica *p, double dt, long long steps, int batch)
{
    sim_acc *a = p->acc;
    a->steps += steps;
    a->busy += dt;
    a->batch_time += batch * dt;
    a->kv_time += (double)p->blocks / (double)p->cap * dt;
    /* requests in the system over [t, t + dt]: running, queued, and those
     * arrived but not yet enqueued (an arrival joins the queue at the next
     * scheduling round), each from its arrival */
    double t1 = p->t + dt, sys = (double)(p->nrun + p->qt - p->qh) * dt;
    for (int i = p->next; i < arrived_limit(p); i++) {
        double at = rq(p, i)->arrival;
        if (at >= t1)
            break;
        sys += t1 - (at > p->t ? at : p->t);
    }
    a->sys_time += sys;
    if (batch > a->max_batch)
        a->max_batch = batch;
    if (p->blocks + p->grow > a->blocks_peak)
        a->blocks_peak = p->blocks + p->grow;
}

/* Drop finished entries from the running list, keeping admission order. */
static void compact(replica *p)
{
    int k = 0;
    for (int i = 0; i < p->nrun; i++) {
        srun *s = &p->w->run[i];
        sreq *q = rq(p, s->req);
        if (q->done >= 0) {
            finish(p, q, q->done, 0);
            continue;
        }
        p->w->run[k++] = *s;
    }
    p->nrun = k;
}

/* One step with prefill chunks (and, chunked, the decodes beside them). */
static void step_mixed(replica *p, int nch, int decodes, double dec_past)
{
    int pf = sched_pauses(p->cfg);
    engine_step_mix mx = {p->w->chunk, nch, pf ? 0 : decodes, decodes ? dec_past : 0};
    double dt = engine_step_s(p->st, &mx);
    int batch = nch + (int)mx.decode_seqs;
    account(p, dt, 1, batch);
    p->formed = p->t;
    p->recv_c += ENGINE_SIM_RECV_PREFILL_WEIGHT;
    p->t += dt;
    for (int i = 0; i < p->nrun; i++) {
        srun *s = &p->w->run[i];
        sreq *q = rq(p, s->req);
        if (s->plan > 0) {
            s->pre_done += s->plan;
            s->plan = 0;
            if (prefill_left(p, s) <= 0) { /* its first (or, resumed, next) token */
                s->gen_done++;
                if (q->first < 0)
                    q->first = p->t;
            }
        } else if (!pf && prefill_left(p, s) <= 0 && s->gen_done >= 1) {
            s->gen_done++;
        } else {
            continue;
        }
        if (s->gen_done >= q->gen && prefill_left(p, s) <= 0)
            q->done = p->t;
    }
    compact(p);
    if (on_demand(p))
        kv_recount(p);
    if (estimate(p) && !pf && decodes > 0)
        ntr_decay(p, 1);
}

/* On-demand KV: the blocks the decoding entries hold after j more decode
 * steps of e tokens each (the KV of every token fed by then). */
static long long kv_after(const replica *p, int j, double e)
{
    long long tok = e == 1.0 ? j : (long long)ceil(j * e - 1e-9), b = 0;
    for (int i = 0; i < p->nrun; i++) {
        const srun *s = &p->w->run[i];
        b += blocks_for(held_tokens(p, s) + (prefill_left(p, s) > 0 ? 0 : tok));
    }
    return b;
}

/* On-demand KV: the most decode steps, 1..k, whose KV growth fits the
 * cache (the first fits: kv_make_room granted it). */
static int kv_steps_fit(const replica *p, int k, double e)
{
    if (kv_after(p, k, e) <= p->cap)
        return k;
    int lo = 1, hi = k; /* fits at lo, not at hi */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (kv_after(p, mid, e) <= p->cap)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Decode-only steps of the `decodes` decoding requests (ctx_sum: their
 * cached tokens) until the first completion, or (nothing waiting) the step
 * boundary at or after the next arrival; one step when some running
 * request still waits for prefill budget. */
static void step_decodes(replica *p, int decodes, double ctx_sum)
{
    /* with speculative decoding a step gains e tokens a sequence on
     * average (engine_step_tokens): k steps until the first completion */
    engine_step_mix mx = {NULL, 0, decodes, ctx_sum / decodes};
    double e = engine_step_tokens(p->st, &mx);
    int k = 1 << 30;
    for (int i = 0; i < p->nrun; i++) {
        srun *s = &p->w->run[i];
        const sreq *q = rq(p, s->req);
        if (prefill_left(p, s) > 0)
            k = 1;
        else if (e == 1.0 && q->gen - s->gen_done < k)
            k = q->gen - s->gen_done;
        else if (e != 1.0 && (q->gen - s->gen_done - s->gen_frac) / e < k)
            k = (int)ceil((q->gen - s->gen_done - s->gen_frac) / e - 1e-9);
    }
    if (k < 1)
        k = 1;
    if (on_demand(p) && k > 1)
        k = kv_steps_fit(p, k, e);
    if (estimate(p) && p->qh < p->qt)
        k = 1; /* the estimate relaxes every step: a waiting request may get in */
    double stop = p->qh == p->qt ? next_arrival(p) : INFINITY;
    double past = ctx_sum / decodes;
    double a = engine_step_s(p->st, &mx), b = 0;
    if (k > 1 && !p->cfg->exact) {
        mx.decode_past = past + (k - 1) * e;
        b = (engine_step_s(p->st, &mx) - a) / (k - 1);
    }
    /* recv_interval: each step adds 1 to the receive counter; the batch
     * formation after a step that brings it to N takes requests in (the
     * run stops there when one has arrived), else none are seen */
    int n_recv = p->cfg->recv_interval;
    double cum = 0;
    int j = 0;
    while (j < k) {
        double dt = a + b * j;
        if (p->cfg->exact && j > 0) {
            mx.decode_past = past + j * e;
            dt = engine_step_s(p->st, &mx);
        }
        cum += dt;
        j++;
        if (n_recv <= 1) {
            if (p->t + cum >= stop)
                break;
        } else if (++p->recv_c >= n_recv) {
            if (p->t + cum >= stop)
                break;
            p->recv_c = 0; /* a take-in: what arrived by then is seen */
            p->recv_cut = p->cfg->admit_lag ? p->t + cum - dt : p->t + cum;
        }
    }
    account(p, cum, j, decodes);
    p->formed = p->t + cum - (a + b * (j - 1)); /* the last step's start */
    p->t += cum;
    for (int i = 0; i < p->nrun; i++) {
        srun *s = &p->w->run[i];
        sreq *q = rq(p, s->req);
        if (prefill_left(p, s) > 0)
            continue;
        if (e == 1.0) {
            s->gen_done += j;
        } else {
            double g = s->gen_frac + j * e;
            int whole = (int)floor(g + 1e-9);
            s->gen_done += whole;
            s->gen_frac = g - whole > 0 ? g - whole : 0;
        }
        if (s->gen_done >= q->gen)
            q->done = p->t;
    }
    compact(p);
    if (on_demand(p))
        kv_recount(p);
    if (estimate(p))
        ntr_decay(p, j);
}

/* One scheduling round: arrivals in, a step out. */
static void replica_round(replica *p)
{
    if (steady(p))
        start_clients(p, p->t);
    /* the step starting now was formed at its predecessor's start when
     * the scheduler overlaps and work was pending; else now */
    int busy = p->nrun > 0 || p->qh < p->qt;
    double cut = p->cfg->admit_lag && busy && p->formed >= 0 ? p->formed : p->t;
    if (p->cfg->recv_interval > 1 && busy && p->recv_c < p->cfg->recv_interval)
        cut = p->recv_cut; /* no take-in at this formation */
    else
        p->recv_c = 0;
    while (p->next < arrived_limit(p) && rq(p, p->next)->ready <= cut)
        *qslot(p, p->qt++) = p->next++;
    if (p->prefilled) { /* no prefill: admit what fits straight to decode */
        while (admit_head(p, 0))
            ;
        compact(p);
    }
    if (p->nrun == 0 && p->qh == p->qt) {
        p->ntr = ENGINE_SIM_SGL_INIT_RATIO; /* SGLang resets it when idle */
        if (next_arrival(p) < INFINITY)
            p->t = next_arrival(p); /* idle until the next arrival */
        return;
    }
    p->preempted = 0;
    if (on_demand(p))
        kv_make_room(p);
    if (estimate(p))
        est_hold_back(p);
    int decodes = 0;
    double ctx = 0;
    for (int i = 0; i < p->nrun; i++) {
        const srun *s = &p->w->run[i];
        const sreq *q = rq(p, s->req);
        if (prefill_left(p, s) <= 0) {
            decodes++;
            ctx += (double)q->prompt + s->gen_done - 1;
        }
    }
    int nch = plan_prefill(p, decodes);
    if (nch > 0)
        step_mixed(p, nch, decodes, decodes ? ctx / decodes : 0);
    else if (decodes > 0)
        step_decodes(p, decodes, ctx);
    else if (p->nrun == 0 && p->qh < p->qt && next_arrival(p) < INFINITY)
        p->t = next_arrival(p); /* the head waits for nothing here */
}

static void replica_run(replica *p)
{
    const engine_sim_config *c = p->cfg;
    p->t_stop = INFINITY;
    if (c->arrival != ENGINE_SIM_CLOSED)
        for (int i = 0; i < p->n_r; i++)
            pass_frontend(p, rq(p, i));
    if (c->arrival == ENGINE_SIM_CLOSED) {
        int conc = c->concurrency / p->dp + (p->r < c->concurrency % p->dp ? 1 : 0);
        p->clients = conc < p->n_r ? conc : p->n_r;
        if (steady(p)) {
            p->cycle = engine_sim_cycle_s(p->st, c, conc);
            start_clients(p, 0.0);
        } else {
            for (int i = 0; i < conc; i++)
                issue_next(p, 0.0);
        }
    }
    while (p->finished < p->n_r) {
        int before = p->finished;
        double t0 = p->t;
        int q0 = p->qh, n0 = p->next, s0 = p->starts;
        replica_round(p);
        if (p->finished == before && p->t == t0 && p->qh == q0 && p->next == n0 &&
            p->starts == s0 && p->nrun == 0)
            break; /* nothing can move (cannot happen with a usable cache) */
    }
}

/* --- figures ------------------------------------------------------------ */

/* numpy's linear percentile of sorted v[0..n-1]. */
static double pct(const double *v, int n, double p)
{
    if (n < 1)
        return 0;
    double x = p / 100.0 * (n - 1);
    int i = (int)floor(x);
    if (i >= n - 1)
        return v[n - 1];
    return v[i] + (x - i) * (v[i + 1] - v[i]);
}

typedef double (*req_metric)(const sreq *q);

static double m_ttft(const sreq *q)
{
    return q->first - q->arrival;
}

static double m_e2e(const sreq *q)
{
    return q->done - q->arrival;
}

static double m_tpot(const sreq *q)
{
    return q->gen > 1 ? (q->done - q->first) / (q->gen - 1) : -1;
}

static int served(const sreq *q)
{
    return q->first >= 0 && q->done >= 0;
}

/* The requests the figures read: served, after the warm-up, and in a
 * STEADY closed loop, in the measured window. */
static int counted(const sim_ws *w, const engine_sim_config *c, int i)
{
    if (c->arrival == ENGINE_SIM_CLOSED && c->closed_start == ENGINE_SIM_START_STEADY &&
        !w->req[i].win)
        return 0;
    if (c->measure_s > 0 && !(w->req[i].done <= c->measure_s))
        return 0;
    return i >= c->warmup && served(&w->req[i]);
}

static engine_sim_pct pct_of(sim_ws *w, const engine_sim_config *c, req_metric f,
                             double *at_slo)
{
    int k = 0;
    for (int i = 0; i < w->n; i++) {
        if (!counted(w, c, i))
            continue;
        double v = f(&w->req[i]);
        if (v >= 0)
            w->sort[k++] = v;
    }
    qsort(w->sort, (size_t)k, sizeof w->sort[0], engine_cmp_double);
    double sum = 0;
    for (int i = 0; i < k; i++)
        sum += w->sort[i];
    engine_sim_pct p = {pct(w->sort, k, 50), pct(w->sort, k, 90), pct(w->sort, k, 99),
                        k > 0 ? sum / k : 0};
    *at_slo = pct(w->sort, k, c->slo_percentile);
    return p;
}

/* Waiting requests at time t: arrived by t, not admitted by t. */
static int queue_at(const sim_ws *w, double t)
{
    int q = 0;
    for (int i = 0; i < w->n; i++) {
        const sreq *r = &w->req[i];
        if (r->arrival >= 0 && r->arrival <= t && !(r->admit >= 0 && r->admit <= t))
            q++;
    }
    return q;
}

/* Overload: the queue grew through the second half of the arrivals by more
 * than 5 % of the requests that arrived then (and at least 2), rising at the
 * three-quarter mark too; an offline run: some request waited. */
static int overloaded(const sim_ws *w, double t0, double t1)
{
    if (!(t1 > t0)) {
        for (int i = 0; i < w->n; i++)
            if (w->req[i].admit > w->req[i].ready)
                return 1;
        return 0;
    }
    double tm = (t0 + t1) / 2, t3 = (tm + t1) / 2;
    int arrived = 0;
    for (int i = 0; i < w->n; i++)
        if (w->req[i].arrival > tm && w->req[i].arrival <= t1)
            arrived++;
    int q1 = queue_at(w, tm), q2 = queue_at(w, t3), q3 = queue_at(w, t1);
    double grow = q3 - q1;
    return grow > 2 && grow > 0.05 * arrived && q2 > q1;
}

/* A time window (measure_s): the rates of the measured requests, over the
 * span from the first arrival to the last of their completions (GenAI-Perf's
 * duration: its records' first request start to last response). */
static void window_rates(const engine_sim_config *c, const sim_ws *w, double t0,
                         engine_sim_result *o)
{
    double last = t0, tokens = 0;
    for (int i = 0; i < w->n; i++) {
        if (!counted(w, c, i))
            continue;
        tokens += w->req[i].gen;
        last = fmax(last, w->req[i].done);
    }
    double d = last > t0 ? last - t0 : 0;
    o->output_tokens_per_s = d > 0 ? tokens / d : 0;
    o->requests_per_s = d > 0 ? o->measured / d : 0;
    o->goodput_requests_per_s = d > 0 ? o->good / d : 0;
}

static void figures(const engine_sim_config *c, sim_ws *w, int dp, engine_sim_result *o)
{
    double t0 = INFINITY, t1 = 0, end = 0, tokens = 0;
    int good = 0;
    for (int i = 0; i < w->n; i++) {
        const sreq *q = &w->req[i];
        t0 = fmin(t0, q->arrival);
        t1 = fmax(t1, q->arrival);
        end = fmax(end, q->done);
        if (!served(q))
            continue;
        o->completed++;
        tokens += q->gen;
        if (!counted(w, c, i))
            continue;
        o->measured++;
        int ok_t = c->ttft_slo_s <= 0 || m_ttft(q) <= c->ttft_slo_s;
        int ok_p = c->tpot_slo_s <= 0 || q->gen <= 1 || m_tpot(q) <= c->tpot_slo_s;
        good += ok_t && ok_p;
    }
    o->duration_s = isfinite(end - t0) && end > t0 ? end - t0 : 0; /* nothing ran: 0 */
    double d = o->duration_s > 0 ? o->duration_s : 1;
    o->output_tokens_per_s = tokens / d;
    o->requests_per_s = o->completed / d;
    o->goodput_requests_per_s = good / d;
    o->good = good;
    if (c->measure_s > 0)
        window_rates(c, w, t0, o);
    o->ttft = pct_of(w, c, m_ttft, &o->ttft_at_slo_s);
    o->tpot = pct_of(w, c, m_tpot, &o->tpot_at_slo_s);
    double e2e_at;
    o->e2e = pct_of(w, c, m_e2e, &e2e_at);
    o->slo_met = (c->ttft_slo_s <= 0 || o->ttft_at_slo_s <= c->ttft_slo_s) &&
                 (c->tpot_slo_s <= 0 || o->tpot_at_slo_s <= c->tpot_slo_s);
    o->overloaded = overloaded(w, t0, t1);
    o->n_series = ENGINE_SIM_SERIES;
    double qsum = 0;
    for (int i = 0; i < ENGINE_SIM_SERIES; i++) {
        double t = t0 + o->duration_s * i / (ENGINE_SIM_SERIES - 1);
        o->series_t[i] = t;
        o->series_queue[i] = queue_at(w, t);
        qsum += o->series_queue[i];
        if (o->series_queue[i] > o->max_queue)
            o->max_queue = o->series_queue[i];
    }
    o->mean_queue = qsum / ENGINE_SIM_SERIES;
    (void)dp;
}

/* STEADY: mark the replica's measured requests, those issued after all its
 * clients have started (the last start, cycle (C_r - 1) / C_r; that start,
 * mid-step, is not measured) and done by t_stop, and add its window's
 * rates to acc; a replica without such a
 * request has every served request measured and no window. */
static void mark_window(replica *p)
{
    double t0 = p->clients > 0 ? p->cycle * (p->clients - 1) / p->clients : 0, t1 = p->t_stop;
    int k = 0, done = 0;
    double tokens = 0, sys = 0;
    for (int i = 0; i < p->n_r; i++) {
        sreq *q = rq(p, i);
        if (!served(q))
            continue;
        q->win = q->arrival > t0 && q->done <= t1;
        k += q->win;
        if (q->done > t0 && q->done <= t1) {
            done++;
            tokens += q->gen;
        }
        double a = q->arrival > t0 ? q->arrival : t0, b = q->done < t1 ? q->done : t1;
        if (b > a)
            sys += b - a;
    }
    if (k > 0 && t1 > t0 && isfinite(t1)) {
        p->acc->win_tps += tokens / (t1 - t0);
        p->acc->win_rps += done / (t1 - t0);
        p->acc->win_sys += sys / (t1 - t0);
        p->acc->win_replicas++;
        return;
    }
    for (int i = 0; i < p->n_r; i++)
        rq(p, i)->win = served(rq(p, i));
}

/* The replicas of one pool over requests w->req[0..n-1] (round-robin). */
int engine_sim_rank_tokens(const engine_stepper *st, int budget)
{
    const engine_framework *fw =
        st && st->s.framework ? st->s.framework : engine_framework_generic_ref();
    if (!st || !fw->dp_attn_split_chunk || !st->s.model || st->s.model->experts <= 0 ||
        st->plan.tp < 1 || st->plan.ep <= st->plan.tp)
        return budget;
    int ranks = st->plan.ep / st->plan.tp;
    return budget / ranks > 0 ? budget / ranks : 1;
}

static void run_pool(const engine_stepper *st, const engine_sim_config *cc, sim_ws *w, int n,
                     int dp, sim_acc *acc, int prefilled)
{
    engine_sim_config pc = *cc; /* a replica's token budget: one attention rank's */
    pc.max_batched_tokens = engine_sim_rank_tokens(st, cc->max_batched_tokens);
    for (int r = 0; r < dp && r < n; r++) {
        replica p;
        memset(&p, 0, sizeof p);
        p.st = st;
        p.cfg = &pc;
        p.w = w;
        p.acc = acc;
        p.r = r;
        p.dp = dp;
        p.n_r = (n - r + dp - 1) / dp;
        p.cap = st->kv_blocks;
        p.prefilled = prefilled;
        p.formed = -1;
        p.recv_cut = -INFINITY;
        p.ntr = ENGINE_SIM_SGL_INIT_RATIO;
        replica_run(&p);
        if (steady(&p))
            mark_window(&p);
    }
}

static void acc_out(const engine_stepper *st, const sim_acc *acc, engine_sim_result *out)
{
    out->steps += acc->steps;
    out->preemptions += acc->preemptions;
    out->mean_batch = acc->busy > 0 ? acc->batch_time / acc->busy : 0;
    out->max_batch = acc->max_batch;
    out->kv_use = acc->busy > 0 ? acc->kv_time / acc->busy : 0;
    out->kv_blocks = st->kv_blocks;
    out->kv_blocks_peak = acc->blocks_peak;
    out->kv_use_max = (double)acc->blocks_peak / (double)st->kv_blocks;
    out->busy_fraction = out->duration_s > 0 ? acc->busy / (out->duration_s * st->plan.dp) : 0;
    out->mean_in_system = out->duration_s > 0 ? acc->sys_time / out->duration_s : 0;
}

static int run_n(const engine_stepper *st, const engine_sim_config *c, int n,
                 engine_sim_arrival arrival, void *work, size_t bytes, engine_sim_result *out,
                 sim_ws *w, int prefilled, engine_error *err)
{
    if (!st || !st->valid)
        return engine_errorf(err, "load: the plan is not valid%s%s", st ? ": " : "",
                             st ? st->reason : "");
    if (st->kv_blocks < 1)
        return engine_errorf(err, "load: the plan leaves no room for a KV cache block");
    if (ws_carve(work, bytes, n, c->max_num_seqs, w) != 0)
        return engine_errorf(err, "load: workspace too small (%zu bytes, needs %zu)", bytes,
                             ws_bytes(n, c->max_num_seqs));
    memset(out, 0, sizeof *out);
    requests_make(c, n, arrival, w);
    engine_sim_config cc = *c;
    cc.arrival = arrival;
    sim_acc acc;
    memset(&acc, 0, sizeof acc);
    int dp = st->plan.dp;
    if (arrival == ENGINE_SIM_CLOSED && c->concurrency < dp)
        dp = c->concurrency; /* replicas without a request in flight get none */
    run_pool(st, &cc, w, n, dp, &acc, prefilled);
    out->requests = n;
    out->rejected = acc.rejected;
    figures(&cc, w, dp, out);
    acc_out(st, &acc, out);
    if (arrival == ENGINE_SIM_CLOSED && cc.closed_start == ENGINE_SIM_START_STEADY &&
        acc.win_replicas == (dp < n ? dp : n)) { /* the rates of the windows */
        double good = out->measured > 0 ? (double)out->good / out->measured : 0;
        out->output_tokens_per_s = acc.win_tps;
        out->requests_per_s = acc.win_rps;
        out->goodput_requests_per_s = acc.win_rps * good;
        out->mean_in_system = acc.win_sys;
    }
    return 0;
}

int engine_sim_run(const engine_stepper *st, const engine_sim_config *cfg, void *work,
                   size_t work_bytes, engine_sim_result *out, engine_error *err)
{
    if (engine_sim_check(cfg, err) != 0)
        return -1;
    sim_ws w;
    return run_n(st, cfg, sim_requests(cfg), cfg->arrival, work, work_bytes, out, &w, 0, err);
}

int engine_sim_max_batch(const engine_stepper *st, const engine_sim_config *cfg)
{
    long long per = blocks_for((long long)cfg->prompt + cfg->gen);
    long long b = st && per > 0 ? st->kv_blocks / per : 1;
    /* at the scenario's own lengths, engine_result's count (the workspace of
     * that many sequences counted too) */
    if (st && cfg->prompt == st->s.prompt && cfg->gen == st->s.gen && st->max_concurrency > 0 &&
        b > st->max_concurrency)
        b = st->max_concurrency;
    if (b > cfg->max_num_seqs)
        b = cfg->max_num_seqs;
    return b < 1 ? 1 : (int)b;
}

/* One replica's closed loop of conc requests in flight, n requests: its
 * completions a second between the first and the last conc of them. */
static double sustain_at(const engine_stepper *one, const engine_sim_config *cfg, int conc, int n,
                         void *work, size_t work_bytes, int prefilled, engine_error *err)
{
    engine_sim_config c = *cfg;
    c.concurrency = conc;
    c.closed_start = ENGINE_SIM_START_BURST; /* its own steady window below */
    c.measure_s = 0;                         /* and no time window */
    sim_ws w;
    engine_sim_result r;
    if (run_n(one, &c, n, ENGINE_SIM_CLOSED, work, work_bytes, &r, &w, prefilled, err) != 0)
        return 0;
    int k = 0;
    for (int i = 0; i < w.n; i++)
        if (served(&w.req[i]))
            w.sort[k++] = w.req[i].done;
    qsort(w.sort, (size_t)k, sizeof w.sort[0], engine_cmp_double);
    double rate = r.requests_per_s;
    if (k > 2 * conc && w.sort[k - conc - 1] > w.sort[conc - 1])
        rate = (k - 2.0 * conc) / (w.sort[k - conc - 1] - w.sort[conc - 1]);
    return rate;
}

static double sustain(const engine_stepper *st, const engine_sim_config *cfg, void *work,
                      size_t work_bytes, int prefilled, engine_error *err)
{
    if (engine_sim_check(cfg, err) != 0)
        return 0;
    if (!st || !st->valid) {
        engine_errorf(err, "load: the plan is not valid");
        return 0;
    }
    /* One replica at its largest batch; dp of them serve dp times as many. */
    engine_stepper one = *st;
    one.plan.dp = 1;
    int conc = engine_sim_max_batch(st, cfg);
    int od = prefilled ? 0 : engine_sim_on_demand_batch(st, cfg);
    double rate = sustain_at(&one, cfg, conc, sustain_requests_at(st, cfg, conc), work,
                             work_bytes, prefilled, err);
    if (od > 0 && rate > 0) { /* on demand: the better of the two loops */
        double r2 = sustain_at(&one, cfg, od, sustain_requests_at(st, cfg, od), work, work_bytes,
                               prefilled, err);
        if (r2 > rate)
            rate = r2;
    }
    return rate * st->plan.dp;
}

double engine_sim_sustainable_rate(const engine_stepper *st, const engine_sim_config *cfg,
                                   void *work, size_t work_bytes, engine_error *err)
{
    return sustain(st, cfg, work, work_bytes, 0, err);
}

/* Names of the enums (tables indexed by value) and their parser. */
static const char *const SCHED_NAMES[ENGINE_SIM_SCHED_COUNT] = {
    [ENGINE_SIM_PREFILL_FIRST] = "prefill-first", [ENGINE_SIM_CHUNKED] = "chunked",
    [ENGINE_SIM_INFLIGHT] = "inflight", [ENGINE_SIM_CHUNKED_PREFILL_FIRST] = "chunked-prefill-first"};
static const char *const KV_NAMES[ENGINE_SIM_KV_COUNT] = {
    [ENGINE_SIM_KV_RESERVE] = "reserve", [ENGINE_SIM_KV_ON_DEMAND] = "on-demand",
    [ENGINE_SIM_KV_ESTIMATE] = "estimate"};
static const char *const START_NAMES[ENGINE_SIM_START_COUNT] = {
    [ENGINE_SIM_START_BURST] = "burst", [ENGINE_SIM_START_STEADY] = "steady"};

static const char *name_of(const char *const *names, int n, int v)
{
    return v >= 0 && v < n ? names[v] : "?";
}

/* The index of name s in names[0..n-1], or -1. */
static int index_of(const char *const *names, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

const char *engine_sim_sched_name(engine_sim_sched s)
{
    return name_of(SCHED_NAMES, ENGINE_SIM_SCHED_COUNT, (int)s);
}

int engine_sim_sched_parse(const char *s, engine_sim_sched *out)
{
    int i = index_of(SCHED_NAMES, ENGINE_SIM_SCHED_COUNT, s);
    if (i >= 0)
        *out = (engine_sim_sched)i;
    return i >= 0 ? 0 : -1;
}

const char *engine_sim_kv_name(engine_sim_kv k)
{
    return name_of(KV_NAMES, ENGINE_SIM_KV_COUNT, (int)k);
}

int engine_sim_kv_parse(const char *s, engine_sim_kv *out)
{
    int i = index_of(KV_NAMES, ENGINE_SIM_KV_COUNT, s);
    if (i >= 0)
        *out = (engine_sim_kv)i;
    return i >= 0 ? 0 : -1;
}

const char *engine_sim_start_name(engine_sim_start s)
{
    return name_of(START_NAMES, ENGINE_SIM_START_COUNT, (int)s);
}

int engine_sim_start_parse(const char *s, engine_sim_start *out)
{
    int i = index_of(START_NAMES, ENGINE_SIM_START_COUNT, s);
    if (i >= 0)
        *out = (engine_sim_start)i;
    return i >= 0 ? 0 : -1;
}

double engine_sim_cycle_s(const engine_stepper *st, const engine_sim_config *cfg, int batch)
{
    if (!st || !st->valid || !cfg || batch < 1 || cfg->prompt < 1 || cfg->gen < 1)
        return 0;
    int budget = cfg->max_batched_tokens > 0 ? engine_sim_rank_tokens(st, cfg->max_batched_tokens)
                                             : cfg->prompt;
    int chunk = cfg->prompt < budget ? cfg->prompt : budget;
    engine_step_chunk ch = {1, chunk, 0};
    engine_step_mix pre = {&ch, 1, 0, 0};
    double t = ceil((double)cfg->prompt / chunk) * engine_step_s(st, &pre);
    if (cfg->gen > 1) {
        engine_step_mix dec = {NULL, 0, batch, cfg->prompt + cfg->gen / 2.0};
        double e = engine_step_tokens(st, &dec);
        t += (cfg->gen - 1) / (e >= 1 ? e : 1) * engine_step_s(st, &dec);
    }
    return t > 0 && isfinite(t) ? t : 0;
}

/* --- disaggregated prefill/decode: two pools ------------------------------ */

static size_t disagg_ws_bytes(int n, int mns)
{
    return ws_bytes(n, mns) + align_up(sizeof(sreq) * (size_t)n) + SIM_ALIGN;
}

size_t engine_sim_disagg_workspace_bytes(const engine_stepper *pre, const engine_stepper *dec,
                                         const engine_sim_config *cfg)
{
    if (engine_sim_check(cfg, NULL) != 0)
        return 0;
    engine_sim_config cp = *cfg; /* the prefill pool's sustainable-rate run: one token */
    cp.gen = 1;
    cp.gen_dist.kind = ENGINE_SIM_FIXED;
    size_t a = disagg_ws_bytes(sim_requests(cfg), cfg->max_num_seqs);
    size_t b = engine_sim_workspace_bytes(pre, &cp), c = engine_sim_workspace_bytes(dec, cfg);
    a = a > b ? a : b;
    return a > c ? a : c;
}

/* Served requests first, by arrival at the decode pool (then the prefill
 * arrival, then the lengths: a total order, so qsort is deterministic). */
static int by_decode_arrival(const void *pa, const void *pb)
{
    const sreq *a = pa, *b = pb;
    int ra = a->first < 0, rb = b->first < 0;
    if (ra != rb)
        return ra - rb;
    int c = engine_cmp(a->arrival, b->arrival);
    if (!c)
        c = engine_cmp(a->t0, b->t0);
    if (!c)
        c = (a->prompt > b->prompt) - (a->prompt < b->prompt);
    if (!c)
        c = (a->gen > b->gen) - (a->gen < b->gen);
    return c;
}

/* After the prefill pool: each request's arrival at the decode pool (its
 * first token plus the exposed transfer), sorted into d; returns how many
 * were served by the prefill pool. */
static int decode_arrivals(const sim_ws *w, sreq *d, const engine_sim_transfer *x,
                           double *in_flight)
{
    int ok = 0;
    *in_flight = 0;
    for (int i = 0; i < w->n; i++) {
        const sreq *q = &w->req[i];
        sreq *r = &d[i];
        *r = *q;
        r->t0 = q->arrival;
        r->admit = r->done = -1;
        if (q->first < 0 || q->done < 0) { /* rejected by a prefill replica */
            r->first = -1;
            r->arrival = r->done = r->admit = q->arrival;
            continue;
        }
        double t = x->base_s + x->per_token_s * q->prompt;
        r->arrival = q->first + engine_disagg_exposed_s(t, q->first - q->admit, x->layers);
        *in_flight += r->arrival - q->first;
        r->first = 0;
        ok++;
    }
    qsort(d, (size_t)w->n, sizeof *d, by_decode_arrival);
    for (int i = 0; i < ok; i++)
        d[i].first = -1; /* set again at admission to a decode replica */
    return ok;
}

int engine_sim_disagg_run(const engine_stepper *pre, const engine_stepper *dec,
                          const engine_sim_config *cfg, const engine_sim_transfer *x, void *work,
                          size_t bytes, engine_sim_result *out, engine_error *err)
{
    if (engine_sim_check(cfg, err) != 0)
        return -1;
    if (cfg->arrival == ENGINE_SIM_CLOSED)
        return engine_errorf(err, "load: disaggregated: a closed loop is not simulated "
                             "(use a rate, an offline run or a trace)");
    int n = sim_requests(cfg);
    sim_ws w;
    if (!pre || !pre->valid || !dec || !dec->valid)
        return engine_errorf(err, "load: disaggregated: a pool's plan is not valid");
    if (pre->kv_blocks < 1 || dec->kv_blocks < 1)
        return engine_errorf(err, "load: disaggregated: a pool leaves no room for a KV block");
    if (!work || bytes < disagg_ws_bytes(n, cfg->max_num_seqs) ||
        ws_carve(work, bytes, n, cfg->max_num_seqs, &w) != 0)
        return engine_errorf(err, "load: workspace too small (%zu bytes, needs %zu)", bytes,
                             disagg_ws_bytes(n, cfg->max_num_seqs));
    sreq *d = (sreq *)(void *)((unsigned char *)w.sort + align_up(sizeof(double) * (size_t)n));
    memset(out, 0, sizeof *out);
    requests_make(cfg, n, cfg->arrival, &w);
    for (int i = 0; i < n; i++) /* the prefill pool makes the first token only */
        w.req[i].t0 = w.req[i].gen, w.req[i].gen = 1;
    sim_acc ap, ad;
    memset(&ap, 0, sizeof ap);
    memset(&ad, 0, sizeof ad);
    run_pool(pre, cfg, &w, n, pre->plan.dp, &ap, 0);
    for (int i = 0; i < n; i++)
        w.req[i].gen = (int)w.req[i].t0;
    double in_flight;
    int ok = decode_arrivals(&w, d, x, &in_flight);
    sreq *keep = w.req;
    w.req = d;
    engine_sim_config cd = *cfg;
    cd.arrival = ENGINE_SIM_TRACE; /* arrivals as given in d */
    run_pool(dec, &cd, &w, ok, dec->plan.dp, &ad, 1);
    for (int i = 0; i < n; i++) { /* the user's view: arrival, first token, done */
        sreq *q = &d[i];
        if (i < ok && q->first >= 0)
            q->first = q->arrival;
        q->arrival = q->t0;
    }
    out->requests = n;
    out->rejected = ap.rejected + ad.rejected;
    figures(cfg, &w, dec->plan.dp, out);
    out->steps = ap.steps;
    out->preemptions = ap.preemptions;
    acc_out(dec, &ad, out);
    /* in the system: in a prefill pool, in transfer, in a decode pool */
    out->mean_in_system =
        out->duration_s > 0 ? (ap.sys_time + in_flight + ad.sys_time) / out->duration_s : 0;
    w.req = keep;
    return 0;
}

double engine_sim_disagg_sustainable_rate(const engine_stepper *pre, const engine_stepper *dec,
                                          const engine_sim_config *cfg, void *work,
                                          size_t bytes, double *prefill_rate,
                                          double *decode_rate, engine_error *err)
{
    engine_sim_config cp = *cfg;
    cp.gen = 1;
    cp.gen_dist.kind = ENGINE_SIM_FIXED;
    double a = sustain(pre, &cp, work, bytes, 0, err);
    double b = cfg->gen > 1 ? sustain(dec, cfg, work, bytes, 1, err) : INFINITY;
    if (prefill_rate)
        *prefill_rate = a;
    if (decode_rate)
        *decode_rate = b;
    return a < b ? a : b;
}
