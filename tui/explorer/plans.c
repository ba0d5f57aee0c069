/*
 * plans.c - the plan list as the strategies pane shows it: the sort column
 * (`s`), "fits only" (`f`) and the pinned plan (`p` / `P`).  The ranked
 * results (r.plans, the objective's order) are never reordered; r.order
 * maps the list's rows to them.
 */
#include "explorer_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const SORT_NAMES[EXP_SORTS] = {"rank", "TTFT", "ITL", "E2E",
                                                  "tokens/s", "VRAM", "cost", "eff"};

const char *exp_sort_name(int sort)
{
    return sort >= 0 && sort < EXP_SORTS ? SORT_NAMES[sort] : "rank";
}

typedef struct keyed {
    double key;
    int idx;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed *p = a, *q = b;
    if (p->key != q->key)
        return p->key < q->key ? -1 : 1;
    return (p->idx > q->idx) - (p->idx < q->idx);
}

/* The sort key of a usable plan (smaller first); the rank for EXP_SORT_RANK
 * and where a column has no value (a GPU without a price). */
static double sort_key(const engine_result *p, int sort, int idx)
{
    switch (sort) {
    case EXP_SORT_TTFT: return p->ttft_s;
    case EXP_SORT_ITL: return p->itl_s;
    case EXP_SORT_E2E: return p->e2e_s;
    case EXP_SORT_TPS: return -p->tokens_per_s;
    case EXP_SORT_VRAM: return p->mem.per_gpu_bytes;
    case EXP_SORT_COST: return p->cost_per_mtok_usd > 0 ? p->cost_per_mtok_usd : HUGE_VAL;
    case EXP_SORT_EFF: return -p->efficiency;
    default: return idx;
    }
}

void exp_plans_order(explorer *x)
{
    exp_results *r = &x->r;
    static keyed k[EXP_MAX_PLANS];
    int n = 0, tail = 0;
    for (int i = 0; i < r->n_plans; i++) {
        const engine_result *p = &r->plans[i];
        if (p->valid && p->fits)
            k[n++] = (keyed){sort_key(p, x->view.sort, i), i};
    }
    qsort(k, (size_t)n, sizeof k[0], keyed_cmp);
    for (int i = 0; i < n; i++)
        r->order[i] = k[i].idx;
    if (!x->view.fits_only)
        for (int i = 0; i < r->n_plans; i++)
            if (!(r->plans[i].valid && r->plans[i].fits))
                r->order[n + tail++] = i;
    r->n_shown = n + tail;
}

/* Recompute the order, keeping the selected plan selected (else the
 * first row). */
static void reorder(explorer *x)
{
    const engine_result *cur = exp_selected_plan(x);
    int was = cur ? (int)(cur - x->r.plans) : -1;
    exp_plans_order(x);
    x->view.plans.sel = x->view.plans.top = 0;
    for (int i = 0; i < x->r.n_shown; i++)
        if (x->r.order[i] == was)
            x->view.plans.sel = i;
}

void exp_plans_sort_next(explorer *x)
{
    x->view.sort = (x->view.sort + 1) % EXP_SORTS;
    reorder(x);
    exp_set_msg(x, "plans sorted by %s%s", exp_sort_name(x->view.sort),
                x->view.sort == EXP_SORT_RANK ? " (the objective's ranking)" : "");
}

void exp_plans_fits_toggle(explorer *x)
{
    x->view.fits_only = !x->view.fits_only;
    reorder(x);
    exp_set_msg(x, "%s", x->view.fits_only ? "fits only: plans that fit in memory"
                                           : "every plan (fits only off)");
}

void exp_plans_pin(explorer *x)
{
    const engine_result *p = exp_selected_plan(x);
    if (!p) {
        exp_set_msg(x, "no plan to pin");
        return;
    }
    exp_pin *pin = &x->view.pin;
    char plan[48];
    pin->res = *p;
    snprintf(pin->label, sizeof pin->label, "%s %s %d%s%s %s %s",
             fmt_plan(p->plan, x->g->times, plan, sizeof plan), exp_model(x)->name,
             x->ctl.s[CTL_GPUS].value, x->g->times, exp_gpu(x)->name,
             engine_dtype_name((engine_dtype)x->ctl.s[CTL_DTYPE].value),
             exp_link(x, CTL_INTRA)->name);
    pin->have = 1;
    exp_set_msg(x, "pinned %s; the details compare with it (P unpins)", pin->label);
}

void exp_plans_unpin(explorer *x)
{
    x->view.pin.have = 0;
    exp_set_msg(x, "pin cleared");
}
