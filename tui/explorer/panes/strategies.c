/*
 * strategies.c - the ranked plans for the current GPU count, in the list's
 * sort order (plans.c): plan, efficiency, tokens/s and batch (ranked by
 * throughput or cost), TTFT, ITL, E2E (ranked by latency), P50/P99, VRAM
 * per GPU against capacity (a bar) and $ per 1M tokens.  Plans that are
 * invalid or do not fit are dimmed and show the engine's reason instead.
 */
#include "explorer_int.h"

#include <stdio.h>
#include <string.h>

int pane_strategies_first_row(void)
{
    return 1; /* one header row above the plans */
}

/* The columns, in screen order.  E2E is shown when ranking by latency,
 * tokens/s and the batch evaluated (sequences per replica x replicas) when
 * ranking by throughput or cost (or sorting by that column). */
typedef enum col_kind {
    C_RANK = 0, C_PLAN, C_EFF, C_TPS, C_BATCH, C_TTFT, C_ITL, C_E2E, C_P50, C_P99, C_BAR,
    C_VRAM, C_USD, C_COUNT
} col_kind;

static const struct {
    const char *title;
    int w, right;
} COLDEF[C_COUNT] = {
    [C_RANK] = {"#", 3, 1},      [C_PLAN] = {"plan", 13, 0},  [C_EFF] = {"eff", 6, 1},
    [C_TPS] = {"tok/s", 7, 1},   [C_BATCH] = {"batch", 5, 1}, [C_TTFT] = {"TTFT", 7, 1},
    [C_ITL] = {"ITL", 7, 1},     [C_E2E] = {"E2E", 7, 1},     [C_P50] = {"P50", 7, 1},
    [C_P99] = {"P99", 7, 1},     [C_BAR] = {"", 0, 0},        [C_VRAM] = {"VRAM/GPU", 7, 1},
    [C_USD] = {"$/1M", 6, 1},
};

typedef struct cols {
    int w[C_COUNT]; /* 0: not shown */
} cols;

static int cols_used(const cols *c)
{
    int n = 0;
    for (int k = 0; k < C_COUNT; k++)
        if (c->w[k] && k != C_BAR)
            n += c->w[k] + 1;
    return n;
}

static void layout_cols(const exp_view *v, int inner, int plan_w, cols *c)
{
    int obj = v->ctl->s[CTL_OBJECTIVE].value, sort = v->view->sort;
    int rate = obj == ENGINE_OBJ_THROUGHPUT || obj == ENGINE_OBJ_COST || sort == EXP_SORT_TPS;
    for (int k = 0; k < C_COUNT; k++)
        c->w[k] = COLDEF[k].w;
    c->w[C_PLAN] = plan_w > 13 ? plan_w : 13;
    c->w[C_E2E] = obj == ENGINE_OBJ_LATENCY || sort == EXP_SORT_E2E ? COLDEF[C_E2E].w : 0;
    c->w[C_TPS] = rate ? COLDEF[C_TPS].w : 0;
    c->w[C_BATCH] = rate ? COLDEF[C_BATCH].w : 0;
    /* Narrow: the median goes first, then the bar, the P99, the efficiency. */
    static const col_kind DROP[] = {C_P50, C_P99, C_EFF};
    if (inner - cols_used(c) - 1 < 3) /* the bar and its gap */
        c->w[C_P50] = 0;
    int rest = inner - cols_used(c) - 1;
    c->w[C_BAR] = rest >= 3 ? (rest > 24 ? 24 : rest) : 0;
    for (size_t i = 1; i < sizeof DROP / sizeof DROP[0] && inner - cols_used(c) < 0; i++)
        c->w[DROP[i]] = 0;
}

static int put_col(WINDOW *w, int y, int x, int width, theme_role r, const char *s,
                   int right)
{
    if (width <= 0)
        return x;
    char buf[160];
    /* pad by display columns: "1×4" is 3 columns in 4 bytes */
    int pad = width - out_display_width(s);
    pad = pad < 0 ? 0 : pad > 64 ? 64 : pad;
    if (right)
        snprintf(buf, sizeof buf, "%*s%s", pad, "", s);
    else
        snprintf(buf, sizeof buf, "%s%*s", s, pad, "");
    pane_put(w, y, x, width, r, buf);
    return x + width + 1;
}

static char *short_rate(double v, char *b, size_t len)
{
    snprintf(b, len, v < 999.95 ? "%.1f" : v < 99999.5 ? "%.0f" : "%.0fk",
             v < 99999.5 ? v : v / 1e3);
    return b;
}

/* The text of column k for a usable plan (row idx of the results). */
static const char *cell_text(const exp_view *v, const engine_result *p, int idx, col_kind k,
                             char *b, size_t len)
{
    int tails = v->r->tails_done[idx];
    switch (k) {
    case C_EFF: return fmt_percent(p->efficiency, b, len);
    case C_TPS: return short_rate(p->tokens_per_s, b, len);
    case C_BATCH:
        if (p->plan.dp > 1)
            snprintf(b, len, "%d%s%d", v->r->sc.batch, v->g->times, p->plan.dp);
        else
            snprintf(b, len, "%d", v->r->sc.batch);
        return b;
    case C_TTFT: return fmt_seconds(p->ttft_s, v->g->micro, b, len);
    case C_ITL: return fmt_seconds(p->itl_s, v->g->micro, b, len);
    case C_E2E: return fmt_seconds(p->e2e_s, v->g->micro, b, len);
    case C_P50: return tails ? fmt_seconds(p->p50_s, v->g->micro, b, len) : "";
    case C_P99: return tails ? fmt_seconds(p->p99_s, v->g->micro, b, len) : "";
    case C_VRAM: return fmt_gb(p->mem.per_gpu_bytes, b, len);
    case C_USD: return fmt_usd(p->cost_per_mtok_usd, b, len);
    default: return "";
    }
}

/* The memory bar of a plan at xx, c->w[C_BAR] wide. */
static void draw_bar(const exp_view *v, WINDOW *w, int y, int xx, int width,
                     const engine_result *p)
{
    int fill = 0;
    if (p->mem.capacity_bytes > 0) {
        double f = p->mem.per_gpu_bytes / p->mem.capacity_bytes;
        fill = (int)(f * width + 0.5);
        if (fill < 1 && p->mem.per_gpu_bytes > 0)
            fill = 1;
    }
    pane_hbar(v, w, y, xx, width, fill, ROLE_FILL);
}

/* One row at y: the plan at row `row` of the list (rank, plan, then the
 * numbers, or why it is not a usable plan). */
static void draw_plan(const exp_view *v, WINDOW *w, const cols *c, int y, int row)
{
    const exp_results *r = v->r;
    int inner = getmaxx(w) - 2, xx = 1;
    int idx = r->order[row];
    const engine_result *p = &r->plans[idx];
    int sel = row == v->view->plans.sel;
    int usable = p->valid && p->fits;
    theme_role base = sel ? (v->focus == PANE_STRATEGIES ? ROLE_SELECTED
                                                          : ROLE_SELECTED_DIM)
                          : usable ? ROLE_NORMAL : ROLE_DIM;
    if (sel)
        pane_fill(w, y, 1, inner, base);
    char b[96];
    snprintf(b, sizeof b, "%d", idx + 1);
    xx = put_col(w, y, xx, c->w[C_RANK], base, b, 1);
    xx = put_col(w, y, xx, c->w[C_PLAN], base, fmt_plan(p->plan, v->g->times, b, sizeof b), 0);
    if (!usable) {
        char why[200];
        snprintf(why, sizeof why, "%s %s", p->valid ? "does not fit:" : "invalid:",
                 p->reason[0] ? p->reason : "-");
        pane_put(w, y, xx, inner + 1 - xx, base, why);
        return;
    }
    for (int k = C_EFF; k < C_COUNT; k++) {
        if (!c->w[k])
            continue;
        if (k == C_BAR) {
            draw_bar(v, w, y, xx, c->w[k], p);
            xx += c->w[k] + 1;
            continue;
        }
        xx = put_col(w, y, xx, c->w[k], base, cell_text(v, p, idx, (col_kind)k, b, sizeof b),
                     COLDEF[k].right);
    }
}

/* The header row: each shown column's title (VRAM/GPU over the bar too). */
static void draw_header(WINDOW *w, const cols *c)
{
    int xx = 1;
    for (int k = 0; k < C_COUNT; k++) {
        if (k == C_BAR || !c->w[k])
            continue;
        int width = c->w[k];
        if (k == C_VRAM && c->w[C_BAR])
            width += c->w[C_BAR] + 1;
        int bar = k == C_VRAM && c->w[C_BAR]; /* "VRAM/GPU" over the bar and the figure */
        xx = put_col(w, 1, xx, width, ROLE_TITLE, k == C_VRAM && !bar ? "VRAM" : COLDEF[k].title,
                     bar ? 0 : COLDEF[k].right);
    }
}

void pane_strategies_draw(const exp_view *v, WINDOW *w)
{
    theme_window(w);
    const exp_results *r = v->r;
    char title[128];
    int n = snprintf(title, sizeof title, "Strategies: %d GPUs, %d plans, by %s",
                     v->ctl->s[CTL_GPUS].value, r->n_plans,
                     engine_objective_name((engine_objective)v->ctl->s[CTL_OBJECTIVE].value));
    if (r->n_plans_all > r->n_plans && n > 0 && n < (int)sizeof title)
        n += snprintf(title + n, sizeof title - (size_t)n, " (the best of %d)", r->n_plans_all);
    if (v->view->sort != EXP_SORT_RANK && n > 0 && n < (int)sizeof title)
        n += snprintf(title + n, sizeof title - (size_t)n, ", sorted by %s",
                      exp_sort_name(v->view->sort));
    if (v->view->fits_only && n > 0 && n < (int)sizeof title)
        snprintf(title + n, sizeof title - (size_t)n, ", fits only (%d)", r->n_shown);
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
    for (int i = 0; i < rows && v->view->plans.top + i < r->n_shown; i++) {
        char b[64];
        int pw = out_display_width(fmt_plan(r->plans[r->order[v->view->plans.top + i]].plan,
                                            v->g->times, b, sizeof b));
        if (pw > plan_w)
            plan_w = pw;
    }
    cols c;
    layout_cols(v, inner, plan_w, &c);
    draw_header(w, &c);
    if (r->n_shown == 0) {
        pane_put(w, 2, 2, inner - 2, ROLE_DIM, r->n_plans ? "no plan fits (f shows every plan)"
                                                          : "no plans for this GPU count");
        return;
    }
    for (int i = 0; i < rows && v->view->plans.top + i < r->n_shown; i++)
        draw_plan(v, w, &c, 2 + i, v->view->plans.top + i);
    if (v->view->plans.top > 0)
        pane_put(w, 1, ww - 2, 1, ROLE_TITLE, v->g->up);
    if (v->view->plans.top + rows < r->n_shown)
        pane_put(w, h - 1, ww - 3, 1, ROLE_TITLE, v->g->down);
}
