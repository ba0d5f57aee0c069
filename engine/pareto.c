/*
 * pareto.c - output tokens/s per GPU against tokens/s per user over every
 * plan and batch of a scenario, and the non-dominated frontier of them.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "pareto.h"

int engine_pareto_capacity(const engine_scenario *s)
{
    if (engine_scenario_check(s, NULL) != 0)
        return 0;
    return engine_plan_count(s) * ENGINE_PARETO_BATCHES;
}

typedef struct pareto_acc {
    engine_scenario t; /* the scenario with the batch being tried */
    engine_pareto_point *out;
    int cap, n;
    ideal_memo memo;
} pareto_acc;

/* Evaluate a's plan at batch b; 1 when it is valid and fits (r filled). */
static int eval_at(pareto_acc *a, engine_plan p, int b, engine_result *r)
{
    a->t.batch = b;
    eval_plan_memo(&a->t, p, r, NULL, &a->memo);
    return r->valid && r->fits;
}

static void add_point(pareto_acc *a, const engine_result *r, int max_batch)
{
    if (a->n >= a->cap || !(r->itl_s > 0))
        return;
    engine_pareto_point *q = &a->out[a->n++];
    memset(q, 0, sizeof *q);
    q->plan = r->plan;
    q->batch = r->batch;
    q->max_batch = max_batch;
    q->tokens_per_s = r->tokens_per_s;
    q->tokens_per_s_per_gpu = r->tokens_per_s / a->t.gpus;
    q->tokens_per_s_per_user = 1.0 / r->itl_s;
    q->itl_s = r->itl_s;
    q->ttft_s = r->ttft_s;
    q->e2e_s = r->e2e_s;
    q->per_gpu_bytes = r->mem.per_gpu_bytes;
}

/* One plan: batch 1, the powers of two below its largest batch, and that. */
static void pareto_plan(engine_plan p, void *arg)
{
    pareto_acc *a = arg;
    engine_result r;
    if (!eval_at(a, p, 1, &r))
        return;
    int max_b = r.max_concurrency;
    add_point(a, &r, max_b);
    for (long long b = 2; b < max_b; b *= 2)
        if (eval_at(a, p, (int)b, &r))
            add_point(a, &r, max_b);
    if (max_b > 1 && eval_at(a, p, max_b, &r))
        add_point(a, &r, max_b);
}

/* Per user descending, per GPU descending, then plan order and batch. */
static int point_cmp(const void *pa, const void *pb)
{
    const engine_pareto_point *a = pa, *b = pb;
    int c = engine_cmp(b->tokens_per_s_per_user, a->tokens_per_s_per_user);
    if (!c)
        c = engine_cmp(b->tokens_per_s_per_gpu, a->tokens_per_s_per_gpu);
    if (!c)
        c = engine_plan_order(a->plan, b->plan);
    if (!c)
        c = (a->batch > b->batch) - (a->batch < b->batch);
    return c;
}

int engine_pareto_mark(engine_pareto_point *pts, int n)
{
    if (!pts || n < 1)
        return 0;
    qsort(pts, (size_t)n, sizeof *pts, point_cmp);
    /* In that order a point is undominated exactly when it has more per GPU
     * than every point before it (those have at least its per-user rate). */
    int front = 0;
    double best = 0;
    for (int i = 0; i < n; i++) {
        pts[i].frontier = i == 0 || pts[i].tokens_per_s_per_gpu > best;
        if (pts[i].frontier) {
            best = pts[i].tokens_per_s_per_gpu;
            front++;
        }
    }
    return front;
}

int engine_pareto_points(const engine_scenario *s, engine_pareto_point *out, int cap,
                         engine_error *err)
{
    if (engine_scenario_check(s, err) != 0)
        return -1;
    pareto_acc a;
    memset(&a, 0, sizeof a);
    a.t = *s;
    a.t.batch_max = 0;
    a.t.total_concurrency = 0;
    a.out = out;
    a.cap = out ? cap : 0;
    rank_for_each_plan(&a.t, pareto_plan, &a);
    engine_pareto_mark(out, a.n);
    return a.n;
}

int engine_pareto_frontier(const engine_pareto_point *pts, int n, engine_pareto_point *out,
                           int cap)
{
    int k = 0;
    for (int i = 0; i < n && k < cap; i++)
        if (pts[i].frontier)
            out[k++] = pts[i];
    return k;
}
