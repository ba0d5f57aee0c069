/*
 * strategies.c - the ranked plans for the current GPU count: plan,
 * efficiency, TTFT, ITL, P50/P99, VRAM per GPU against capacity (a bar)
 * and $ per 1M tokens.  Plans that are invalid or do not fit are dimmed
 * and show the engine's reason instead.
 */
#include "explorer_int.h"

#include <stdio.h>
#include <string.h>

int pane_strategies_first_row(void)
{
    return 1; /* one header row above the plans */
}

typedef struct cols {
    int rank, plan, eff, ttft, itl, p50, p99, bar, vram, usd;
} cols;

static void layout_cols(int inner, int plan_w, cols *c)
{
    c->rank = 3;
    c->plan = plan_w > 13 ? plan_w : 13;
    c->eff = 6;
    c->ttft = 7;
    c->itl = 7;
    c->p50 = 7;
    c->p99 = 7;
    c->vram = 7;
    c->usd = 6;
    int fixed = c->rank + c->plan + c->eff + c->ttft + c->itl + c->p50 + c->p99 + c->vram +
                c->usd + 10;
    int rest = inner - fixed;
    if (rest < 3) {
        /* Narrow: the median goes first, the bar last. */
        fixed -= c->p50 + 1;
        c->p50 = 0;
        rest = inner - fixed;
    }
    if (rest >= 3) {
        c->bar = rest > 24 ? 24 : rest;
    } else {
        c->bar = 0;
    }
}

static int put_col(WINDOW *w, int y, int x, int width, theme_role r, const char *s,
                   int right)
{
    if (width <= 0)
        return x;
    char buf[128];
    if (right)
        snprintf(buf, sizeof buf, "%*s", width, s);
    else
        snprintf(buf, sizeof buf, "%-*s", width, s);
    pane_put(w, y, x, width, r, buf);
    return x + width + 1;
}

/* One plan row at y: rank, plan, then the numbers (or why it is not a
 * usable plan). */
static void draw_plan(const exp_view *v, WINDOW *w, const cols *cw, int y, int idx)
{
    const exp_results *r = v->r;
    const cols c = *cw;
    int inner = getmaxx(w) - 2, xx = 1;
    const engine_result *p = &r->plans[idx];
    int sel = idx == v->view->plans.sel;
    int usable = p->valid && p->fits;
    theme_role base = sel ? (v->focus == PANE_STRATEGIES ? ROLE_SELECTED
                                                          : ROLE_SELECTED_DIM)
                          : usable ? ROLE_NORMAL : ROLE_DIM;
    if (sel)
        pane_fill(w, y, 1, inner, base);
    char b[96];
    snprintf(b, sizeof b, "%d", idx + 1);
    xx = put_col(w, y, xx, c.rank, base, b, 1);
    xx = put_col(w, y, xx, c.plan, base, fmt_plan(p->plan, v->g->times, b, sizeof b), 0);
    if (!usable) {
        char why[200];
        snprintf(why, sizeof why, "%s %s", p->valid ? "does not fit:" : "invalid:",
                 p->reason[0] ? p->reason : "-");
        pane_put(w, y, xx, inner + 1 - xx, base, why);
        return;
    }
    xx = put_col(w, y, xx, c.eff, base, fmt_percent(p->efficiency, b, sizeof b), 1);
    xx = put_col(w, y, xx, c.ttft, base, fmt_seconds(p->ttft_s, v->g->micro, b, sizeof b), 1);
    xx = put_col(w, y, xx, c.itl, base, fmt_seconds(p->itl_s, v->g->micro, b, sizeof b), 1);
    int tails = r->tails_done[idx];
    if (c.p50)
        xx = put_col(w, y, xx, c.p50, base,
                     tails ? fmt_seconds(p->p50_s, v->g->micro, b, sizeof b) : "", 1);
    xx = put_col(w, y, xx, c.p99, base,
                 tails ? fmt_seconds(p->p99_s, v->g->micro, b, sizeof b) : "", 1);
    if (c.bar) {
        int fill = 0;
        if (p->mem.capacity_bytes > 0) {
            double f = p->mem.per_gpu_bytes / p->mem.capacity_bytes;
            fill = (int)(f * c.bar + 0.5);
            if (fill < 1 && p->mem.per_gpu_bytes > 0)
                fill = 1;
        }
        pane_hbar(v, w, y, xx, c.bar, fill, ROLE_FILL);
        xx += c.bar + 1;
    }
    xx = put_col(w, y, xx, c.vram, base, fmt_gb(p->mem.per_gpu_bytes, b, sizeof b), 1);
    put_col(w, y, xx, c.usd, base, fmt_usd(p->cost_per_mtok_usd, b, sizeof b), 1);
}

void pane_strategies_draw(const exp_view *v, WINDOW *w)
{
    theme_window(w);
    const exp_results *r = v->r;
    char title[128];
    snprintf(title, sizeof title, "Strategies: %d GPUs, %d plans, by %s",
             v->ctl->s[CTL_GPUS].value, r->n_plans,
             engine_objective_name((engine_objective)v->ctl->s[CTL_OBJECTIVE].value));
    pane_frame(v, w, PANE_STRATEGIES, title);
    int h = getmaxy(w), ww = getmaxx(w), inner = ww - 2;
    if (r->rank_failed) {
        pane_put(w, 1, 2, inner - 2, ROLE_BAD, "cannot evaluate this scenario:");
        pane_put(w, 2, 2, inner - 2, ROLE_BAD, r->rank_err);
        return;
    }
    /* The plan column fits the widest plan on screen (EP plans are longer). */
    int rows = h - 2 - pane_strategies_first_row();
    int plan_w = 0;
    for (int i = 0; i < rows && v->view->plans.top + i < r->n_plans; i++) {
        char b[64];
        int pw = out_display_width(fmt_plan(r->plans[v->view->plans.top + i].plan, v->g->times, b,
            sizeof b));
        if (pw > plan_w)
            plan_w = pw;
    }
    cols c;
    layout_cols(inner, plan_w, &c);
    int y = 1, xx = 1;
    xx = put_col(w, y, xx, c.rank, ROLE_TITLE, "#", 1);
    xx = put_col(w, y, xx, c.plan, ROLE_TITLE, "plan", 0);
    xx = put_col(w, y, xx, c.eff, ROLE_TITLE, "eff", 1);
    xx = put_col(w, y, xx, c.ttft, ROLE_TITLE, "TTFT", 1);
    xx = put_col(w, y, xx, c.itl, ROLE_TITLE, "ITL", 1);
    xx = put_col(w, y, xx, c.p50, ROLE_TITLE, "P50", 1);
    xx = put_col(w, y, xx, c.p99, ROLE_TITLE, "P99", 1);
    xx = put_col(w, y, xx, c.bar + (c.bar ? 1 : 0) + c.vram, ROLE_TITLE, "VRAM/GPU", 0);
    put_col(w, y, xx, c.usd, ROLE_TITLE, "$/1M", 1);
    if (r->n_plans == 0) {
        pane_put(w, 2, 2, inner - 2, ROLE_DIM, "no plans for this GPU count");
        return;
    }
    for (int i = 0; i < rows && v->view->plans.top + i < r->n_plans; i++)
        draw_plan(v, w, &c, 2 + i, v->view->plans.top + i);
    if (v->view->plans.top > 0)
        pane_put(w, 1, ww - 2, 1, ROLE_TITLE, v->g->up);
    if (v->view->plans.top + rows < r->n_plans)
        pane_put(w, h - 1, ww - 3, 1, ROLE_TITLE, v->g->down);
}
