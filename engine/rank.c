/*
 * rank.c - every plan for a GPU count, evaluated and ranked by an
 * objective; plans that are invalid or do not fit follow with their
 * reasons.  Also the smallest GPU count on which a model fits.
 */
#include "engine.h"
#include "internal.h"

/* Calls fn for every (tp, pp, dp, ep) with tp*pp*dp == n; ep ranges over 1
 * and, for MoE models, every divisor of tp between 1 and tp (E/ep experts
 * per group, each split over tp/ep GPUs) and every multiple of tp dividing
 * tp*dp, each dividing the expert slots (E plus the redundant experts). */
typedef void (*plan_fn)(engine_plan p, void *arg);

static void for_each_plan(const engine_scenario *s, plan_fn fn, void *arg)
{
    const int n = s->gpus;
    const int experts = s->model->experts;
    for (int tp = 1; tp <= n; tp++) {
        if (n % tp)
            continue;
        for (int pp = 1; pp <= n / tp; pp++) {
            if ((n / tp) % pp)
                continue;
            int dp = n / tp / pp;
            engine_plan p = {tp, pp, dp, 1};
            fn(p, arg);
            if (experts <= 0)
                continue;
            const long long slots = (long long)experts + s->redundant_experts;
            for (int ep = 2; ep < tp; ep++) {
                if (tp % ep || slots % ep)
                    continue;
                p.ep = ep;
                fn(p, arg);
            }
            const long long group = (long long)tp * dp; /* <= n */
            for (int ep = 2 * tp; ep <= group; ep += tp) {
                if (group % ep || slots % ep)
                    continue;
                p.ep = ep;
                fn(p, arg);
            }
        }
    }
}

static void count_one(engine_plan p, void *arg)
{
    (void)p;
    (*(int *)arg)++;
}

int engine_plan_count(const engine_scenario *s)
{
    int n = 0;
    if (!s || !s->model || s->gpus < 1)
        return 0;
    for_each_plan(s, count_one, &n);
    return n;
}

typedef struct rank_acc {
    const engine_scenario *s;
    engine_result *out;
    int cap, n;
    int sorted; /* out[0..n) is in rank order (once the buffer filled) */
    ideal_memo ideal;
} rank_acc;

/* Stable insertion sort of out[0..n) by the objective (qsort has no
 * context argument for it; the engine keeps no globals). */
static void sort_results(engine_result *out, int n, engine_objective o)
{
    for (int i = 1; i < n; i++) {
        engine_result tmp = out[i];
        int j = i - 1;
        while (j >= 0 && engine_result_compare(&out[j], &tmp, o) > 0) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = tmp;
    }
}

/* Evaluate p into the buffer.  Once it is full, it keeps the best cap
 * plans: sorted once, then a plan that beats the last is inserted in
 * order and the last drops (what a full sort truncated to cap gives). */
static void eval_one(engine_plan p, void *arg)
{
    rank_acc *a = arg;
    if (a->n < a->cap) {
        eval_plan_memo(a->s, p, &a->out[a->n], NULL, &a->ideal);
        a->n++;
        return;
    }
    if (a->cap < 1)
        return;
    const engine_objective o = a->s->objective;
    if (!a->sorted) {
        sort_results(a->out, a->n, o);
        a->sorted = 1;
    }
    engine_result tmp;
    eval_plan_memo(a->s, p, &tmp, NULL, &a->ideal);
    int j = a->cap - 1;
    if (engine_result_compare(&tmp, &a->out[j], o) >= 0)
        return;
    while (j > 0 && engine_result_compare(&a->out[j - 1], &tmp, o) > 0) {
        a->out[j] = a->out[j - 1];
        j--;
    }
    a->out[j] = tmp;
}

/* Class of a result for sorting: usable plans, then too big, then invalid. */
static int result_class(const engine_result *r)
{
    return r->valid ? (r->fits ? 0 : 1) : 2;
}

int engine_result_compare(const engine_result *a, const engine_result *b, engine_objective o)
{
    int ca = result_class(a), cb = result_class(b);
    if (ca != cb)
        return ca - cb;
    int c = 0;
    if (ca == 0) {
        switch (o) {
        case ENGINE_OBJ_THROUGHPUT:
            c = engine_cmp(b->tokens_per_s, a->tokens_per_s);
            break;
        case ENGINE_OBJ_COST:
            c = engine_cmp(a->cost_per_mtok_usd, b->cost_per_mtok_usd);
            if (!c)
                c = engine_cmp(b->tokens_per_s, a->tokens_per_s);
            break;
        default:
            c = engine_cmp(a->e2e_s, b->e2e_s);
            break;
        }
        /* Ties: more throughput, then less memory per GPU. */
        if (!c)
            c = engine_cmp(b->tokens_per_s, a->tokens_per_s);
        if (!c)
            c = engine_cmp(a->mem.per_gpu_bytes, b->mem.per_gpu_bytes);
    } else if (ca == 1) {
        c = engine_cmp(a->mem.per_gpu_bytes, b->mem.per_gpu_bytes);
    }
    if (!c)
        c = engine_plan_order(a->plan, b->plan);
    return c;
}

int engine_rank(const engine_scenario *s, engine_result *out, int cap, int tails_for,
                engine_error *err)
{
    if (engine_scenario_check(s, err) != 0)
        return -1;
    rank_acc a = {s, out, cap, 0, 0, {0, {0}, {0}, {0}}};
    for_each_plan(s, eval_one, &a);
    if (!a.sorted)
        sort_results(out, a.n, s->objective);
    for (int i = 0; i < a.n && i < tails_for; i++)
        if (out[i].valid)
            engine_tails(s, &out[i]);
    return a.n;
}

typedef struct fit_acc {
    const engine_scenario *s;
    int fits;
} fit_acc;

static void fit_one(engine_plan p, void *arg)
{
    fit_acc *a = arg;
    engine_memory mem;
    char reason[ENGINE_REASON_MAX];
    if (!a->fits && engine_plan_memory(a->s, p, &mem, reason, sizeof reason) && mem.fits)
        a->fits = 1;
}

int rank_some_plan_fits(const engine_scenario *s)
{
    fit_acc a = {s, 0};
    for_each_plan(s, fit_one, &a);
    return a.fits;
}

int engine_min_gpus(const engine_scenario *s, int max_gpus)
{
    if (engine_scenario_check(s, NULL) != 0)
        return 0;
    engine_scenario t = *s;
    if (max_gpus > ENGINE_MAX_GPUS)
        max_gpus = ENGINE_MAX_GPUS;
    for (long long n = 1; n <= max_gpus; n *= 2) { /* 64-bit: no wrap at INT_MAX */
        t.gpus = (int)n;
        if (rank_some_plan_fits(&t))
            return n;
    }
    return 0;
}

void rank_for_each_plan(const engine_scenario *s, void (*fn)(engine_plan p, void *arg),
                        void *arg)
{
    for_each_plan(s, fn, arg);
}
