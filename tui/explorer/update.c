/*
 * update.c - the explorer's update step: the controls become one engine
 * scenario, and each block of results (ranked plans, efficiency tables,
 * heatmap, frontier, the tails of the plans on screen) is recomputed from
 * the shared grids (engine/grid.h) only when the inputs it depends on (its
 * cache key) changed.  Every number comes from engine_* calls; this file
 * only chooses which plans to ask about.
 */
#include "explorer_int.h"
#include "grid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double MEM_SIZES_GB[EXP_MEM_SIZES] = {8, 24, 40, 80, 141, 192};


/* --- recomputation ----------------------------------------------------- */

static void build_scenario(explorer *x, engine_scenario *s)
{
    engine_scenario_defaults(s);
    s->model = exp_model(x);
    s->gpu = exp_gpu(x);
    s->intra = exp_link(x, CTL_INTRA);
    s->inter = exp_link(x, CTL_INTER);
    s->calib = x->cal.calib.measured ? &x->cal.calib : NULL;
    /* a calibration's NCCL tables time the collectives on the intra link */
    if (s->calib && s->intra && engine_calib_link(s->calib, s->intra, &x->cal.link) > 0)
        s->intra = &x->cal.link;
    s->framework = exp_framework(x);
    s->bands = x->have_bands ? &x->bands : NULL;
    s->gpus = x->ctl.s[CTL_GPUS].value;
    s->gpus_per_node = x->ctl.s[CTL_PER_NODE].value;
    /* The slider moves in whole GB; at the GPU's own (rounded) capacity the
     * engine gets the exact figure (0 = the GPU's capacity), so 85.52 GB
     * is never rounded up to 86. */
    s->vram_bytes = x->ctl.s[CTL_VRAM].value == exp_gb_of(s->gpu->memory_bytes)
                        ? 0
                        : x->ctl.s[CTL_VRAM].value * 1e9; /* GB -> bytes */
    s->batch = x->ctl.s[CTL_BATCH].value;
    s->prompt = x->ctl.s[CTL_PROMPT].value;
    s->gen = x->ctl.s[CTL_GEN].value;
    s->weight_dtype = (engine_dtype)x->ctl.s[CTL_DTYPE].value;
    s->weight_dtype_set = 1; /* the control shows what runs (fp16 included) */
    s->microbatches = x->ctl.s[CTL_MICRO].value;
    s->schedule = (engine_schedule)x->ctl.s[CTL_SCHED].value;
    s->objective = (engine_objective)x->ctl.s[CTL_OBJECTIVE].value;
    /* speculation (`S`); mtp only where the model has MTP layers */
    if (x->ctl.spec_method != ENGINE_SPEC_NONE &&
        (x->ctl.spec_method != ENGINE_SPEC_MTP || s->model->mtp_layers > 0)) {
        s->spec_method = (engine_spec_method)x->ctl.spec_method;
        s->spec_k = x->ctl.spec_k;
        s->spec_accept = x->ctl.spec_pct / 100.0;
    }
}

/* The small cell a pane draws from an evaluated result. */
static void cell_of(const engine_result *r, exp_cell *c)
{
    memset(c, 0, sizeof *c);
    c->plan = r->plan;
    if (!r->valid)
        return;
    c->ok = 1;
    c->fits = r->fits;
    c->efficiency = r->efficiency;
    c->ratio = r->compute_comm_ratio;
    c->regime = r->regime;
    c->itl_s = r->itl_s;
}

/* The links the tables sweep: every preset link (up to EXP_MAX_LINKS). */
static int sweep_links(const explorer *x, const engine_link **links)
{
    int n = x->ctl.s[CTL_INTRA].max + 1;
    for (int i = 0; i < n; i++)
        links[i] = &x->db->links[i];
    return n;
}

static void compute_rank(explorer *x)
{
    exp_results *r = &x->r;
    engine_error err = {{0}};
    int n = engine_rank(&r->sc, r->plans, EXP_MAX_PLANS, 0, &err);
    memset(r->tails_done, 0, EXP_MAX_PLANS);
    if (n < 0) {
        r->n_plans = 0;
        r->rank_failed = 1;
        snprintf(r->rank_err, sizeof r->rank_err, "%s", err.msg);
    } else {
        r->n_plans = n;
        r->n_plans_all = engine_plan_count(&r->sc);
        r->rank_failed = 0;
        r->rank_err[0] = '\0';
    }
}

static void compute_eff(explorer *x)
{
    exp_results *r = &x->r;
    const engine_link *links[EXP_MAX_LINKS];
    engine_result row[EXP_EFF_COUNTS];
    for (int c = 0; c < EXP_EFF_COUNTS; c++)
        r->eff_counts[c] = 2 << c;
    /* TP over N GPUs per link, the link used everywhere. */
    int n_links = sweep_links(x, links);
    for (int li = 0; li < n_links; li++) {
        engine_grid_axes ax = {NULL, 0, &links[li], 1, r->eff_counts, EXP_EFF_COUNTS, 1};
        engine_grid_tp(&r->sc, &ax, row, NULL);
        for (int c = 0; c < EXP_EFF_COUNTS; c++)
            cell_of(&row[c], &r->eff[li][c]);
    }
    /* TP vs PP vs the best hybrid (tp, pp >= 2) in the current cluster. */
    engine_grid_split sp[EXP_CMP_COUNTS];
    for (int c = 0; c < EXP_CMP_COUNTS; c++)
        r->cmp_counts[c] = 2 << c;
    engine_grid_splits(&r->sc, r->cmp_counts, EXP_CMP_COUNTS, sp, NULL);
    for (int c = 0; c < EXP_CMP_COUNTS; c++) {
        cell_of(&sp[c].tp, &r->cmp[CMP_TP][c]);
        cell_of(&sp[c].pp, &r->cmp[CMP_PP][c]);
        cell_of(&sp[c].hybrid, &r->cmp[CMP_HYBRID][c]);
        if (!sp[c].have_hybrid)
            memset(&r->cmp[CMP_HYBRID][c], 0, sizeof r->cmp[CMP_HYBRID][c]);
    }
}

static void compute_heat(explorer *x)
{
    exp_results *r = &x->r;
    const engine_link *links[EXP_MAX_LINKS];
    engine_result row[EXP_MAX_LINKS > EXP_HEAT_COUNTS ? EXP_MAX_LINKS : EXP_HEAT_COUNTS];
    int n_links = sweep_links(x, links);
    r->heat_mode = x->view.heat_mode;
    for (int c = 0; c < EXP_HEAT_COUNTS; c++)
        r->heat_counts[c] = 2 << c;
    if (r->heat_mode == HEAT_BY_GPUS) {
        /* rows: links; columns: GPU counts */
        r->heat_rows = n_links;
        r->heat_cols = EXP_HEAT_COUNTS;
        for (int li = 0; li < n_links; li++) {
            engine_grid_axes ax = {NULL, 0, &links[li], 1, r->heat_counts, EXP_HEAT_COUNTS, 1};
            engine_grid_tp(&r->sc, &ax, row, NULL);
            for (int c = 0; c < EXP_HEAT_COUNTS; c++)
                cell_of(&row[c], &r->heat[li][c]);
        }
    } else {
        /* rows: models; columns: links, at the current GPU count */
        r->heat_rows = x->ctl.s[CTL_MODEL].max + 1;
        r->heat_cols = n_links;
        for (int mi = 0; mi < r->heat_rows; mi++) {
            const engine_model *m = &x->db->models[mi];
            engine_grid_axes ax = {&m, 1, links, n_links, NULL, 0, 1};
            engine_grid_tp(&r->sc, &ax, row, NULL);
            for (int li = 0; li < n_links; li++)
                cell_of(&row[li], &r->heat[mi][li]);
        }
    }
}

static void compute_front(explorer *x)
{
    exp_results *r = &x->r;
    engine_grid_mem g[EXP_FRONT_COUNTS];
    for (int c = 0; c < EXP_FRONT_COUNTS; c++)
        r->front_counts[c] = 1 << c;
    engine_grid_axes ax = {NULL, 0, NULL, 0, r->front_counts, EXP_FRONT_COUNTS, 0};
    engine_grid_least_memory(&r->sc, &ax, g, NULL);
    r->front_capacity = 0;
    for (int c = 0; c < EXP_FRONT_COUNTS; c++) {
        r->front_ok[c] = g[c].ok;
        if (g[c].ok) {
            r->front_mem[c] = g[c].mem;
            r->front_plan[c] = g[c].plan;
            r->front_capacity = g[c].mem.capacity_bytes;
        }
    }
    double bytes[EXP_MEM_SIZES];
    for (int i = 0; i < EXP_MEM_SIZES; i++) {
        r->mem_sizes_gb[i] = MEM_SIZES_GB[i];
        bytes[i] = MEM_SIZES_GB[i] * 1e9;
    }
    engine_grid_min_gpus(&r->sc, NULL, 0, bytes, EXP_MEM_SIZES, EXP_MAX_GPUS,
                         ENGINE_GRID_ANY_COUNT, r->min_gpus);
}

/* Every plan and batch at the current GPU count (the frontier pane's
 * Pareto view). */
static void compute_pareto(explorer *x)
{
    exp_results *r = &x->r;
    int n = engine_pareto_points(&r->sc, r->pareto, EXP_PARETO_MAX, NULL);
    r->n_pareto = n > 0 ? n : 0;
}

/* 1 when the frontier pane is on screen showing the Pareto view. */
static int pareto_visible(const explorer *x)
{
    return x->view.front_view && layout_rect_visible(x->scr.lay.pane[PANE_FRONTIER]);
}

int exp_visible_plan_rows(const explorer *x)
{
    layout_rect rc = x->scr.lay.pane[PANE_STRATEGIES];
    if (!layout_rect_visible(rc))
        return 8;
    int h = rc.h - 2 - pane_strategies_first_row();
    return h < 1 ? 1 : h;
}

static void tails_of(exp_results *r, int i)
{
    if (!r->tails_done[i] && r->plans[i].valid) {
        engine_tails(&r->sc, &r->plans[i]);
        r->tails_done[i] = 1;
    }
}

/* The plan list's order (plans.c), the plans on screen (the selection
 * kept visible), then Monte Carlo tails only for those and the selected
 * one. */
static void ensure_tails(explorer *x)
{
    exp_results *r = &x->r;
    listview *l = &x->view.plans;
    exp_plans_order(x);
    listview_fit(l, r->n_shown, exp_visible_plan_rows(x));
    for (int row = l->top; row < r->n_shown && row < l->top + l->rows; row++)
        tails_of(r, r->order[row]);
    if (l->sel < r->n_shown)
        tails_of(r, r->order[l->sel]);
}

/* The cache key of each block: the inputs with what it does not depend on
 * zeroed (the tables sweep their own GPU counts; the heatmap ignores the
 * links, VRAM and objective; the frontier the objective). */
static exp_inputs part_key(const explorer *x, const exp_inputs *in, exp_part p)
{
    exp_inputs k = *in;
    if (p != EXP_PART_LOAD) /* the load controls feed the load line only */
        for (int c = CTL_FIRST_LOAD; c < CTL_COUNT; c++)
            k.v[c] = 0;
    switch (p) {
    case EXP_PART_EFF:
        k.v[CTL_GPUS] = 0;
        break;
    case EXP_PART_HEAT:
        if (x->view.heat_mode == HEAT_BY_GPUS)
            k.v[CTL_GPUS] = 0;
        else
            k.v[CTL_MODEL] = 0;
        k.v[CTL_INTRA] = k.v[CTL_INTER] = k.v[CTL_PER_NODE] = 0;
        k.v[CTL_VRAM] = k.v[CTL_OBJECTIVE] = 0;
        break;
    case EXP_PART_FRONT:
        k.v[CTL_GPUS] = 0;
        k.v[CTL_OBJECTIVE] = 0;
        break;
    case EXP_PART_PARETO: /* sweeps the batch itself; ranks nothing */
        k.v[CTL_BATCH] = 0;
        k.v[CTL_OBJECTIVE] = 0;
        break;
    default:
        break;
    }
    return k;
}

/* 1 when the details pane is on screen at its first page (the load line). */
static int load_visible(const explorer *x)
{
    return !x->view.details_page && layout_rect_visible(x->scr.lay.pane[PANE_DETAILS]);
}

/* The load configuration of the controls for st (sim.h): Poisson at the
 * rate slider, the framework's limits and scheduler, the SLO sliders at
 * p99, EXP_LOAD_REQUESTS requests. */
static void load_config(const explorer *x, const engine_stepper *st, engine_sim_config *c)
{
    engine_sim_defaults(c, st);
    c->rate = x->ctl.s[CTL_RATE].value / 10.0;
    c->requests = EXP_LOAD_REQUESTS;
    c->ttft_slo_s = x->ctl.s[CTL_TTFT].value / 1e3;
    c->tpot_slo_s = x->ctl.s[CTL_ITL].value / 1e3;
}

/* The selected plan under load: a small simulation and the sustainable
 * rate, into x->r.load (the workspace grows when it must).  The sustainable
 * rate does not depend on the rate and SLO controls: it is kept while only
 * they changed (sus_fresh 0). */
static void compute_load(explorer *x, const engine_result *p, int sus_fresh)
{
    exp_results *r = &x->r;
    r->load_ok = 0;
    if (!p || !p->valid || !p->fits || !r->load_st)
        return;
    r->load_plan = p->plan;
    if (engine_stepper_init(r->load_st, &r->sc, p->plan, NULL) != 0 || !r->load_st->valid ||
        r->load_st->kv_blocks < 1)
        return;
    /* One replica, its round-robin share of the arrivals (every dp-th):
     * dp times the requests a run of all of them would give it, for the
     * same cost. */
    int dp = r->load_st->plan.dp;
    r->load_st->plan.dp = 1;
    engine_sim_config c;
    load_config(x, r->load_st, &c);
    c.one_of = dp;
    size_t need = engine_sim_workspace_bytes(r->load_st, &c);
    if (need > r->load_work_bytes) {
        void *w = realloc(r->load_work, need);
        if (!w)
            return;
        r->load_work = w;
        r->load_work_bytes = need;
    }
    if (engine_sim_run(r->load_st, &c, r->load_work, r->load_work_bytes, &r->load, NULL) != 0)
        return;
    if (sus_fresh) {
        /* The static model at the largest batch the cache holds: within 4 %
         * of `load`'s closed-loop run (README), a thousand times cheaper. */
        engine_scenario t = r->sc;
        t.batch = engine_sim_max_batch(r->load_st, &c);
        t.batch_max = 0;
        t.total_concurrency = 0;
        engine_result er;
        r->load_sustainable = engine_evaluate(&t, p->plan, &er, NULL) == 0 && er.fits
                                  ? er.tokens_per_s / t.gen
                                  : 0;
    }

    /* A short run's goodput over its own duration counts the drain: take
     * the steady state's instead, the share of requests meeting the SLOs
     * times what is served (the rate, or the sustainable rate past it). */
    double served = r->load.overloaded ? r->load_sustainable : c.rate;
    if (served > r->load_sustainable && r->load_sustainable > 0)
        served = r->load_sustainable;
    r->load.goodput_requests_per_s =
        r->load.measured > 0 ? served * r->load.good / r->load.measured : 0;
    /* A short run ends before a queue can grow for long: past the
     * sustainable rate it is overloaded whatever the run measured. */
    if (c.rate >= r->load_sustainable)
        r->load.overloaded = 1;
    if (r->load_sustainable <= 0)
        return;
    r->load_ok = 1;
}

/* The best xPyD split of the scenario's GPUs by its objective (the decode
 * pool at the scenario's batch). */
static void compute_disagg(explorer *x)
{
    exp_results *r = &x->r;
    r->disagg_ok = 0;
    r->n_disagg = engine_disagg_rank(&r->sc, r->disagg, r->disagg_order, ENGINE_DISAGG_RANK_MAX,
                                     NULL);
    if (r->n_disagg < 1)
        return;
    const engine_disagg_result *b = &r->disagg[r->disagg_order[0]];
    if (!b->valid || !b->fits)
        return;
    r->disagg_best = *b;
    r->disagg_ok = 1;
}

/* 1 when the load line's block is out of date: its inputs or the selected
 * plan changed since it was computed. */
static int load_stale(const explorer *x, const exp_inputs *k)
{
    const exp_results *r = &x->r;
    const engine_result *p = exp_selected_plan(x);
    engine_plan none = {0, 0, 0, 0};
    engine_plan want = p ? p->plan : none;
    return !r->have[EXP_PART_LOAD] || memcmp(k, &r->in_part[EXP_PART_LOAD], sizeof *k) ||
           memcmp(&want, &r->load_plan, sizeof want);
}

/* The load line's block: recomputed when the inputs or the selected plan
 * changed, and only while the details pane shows it. */
static void update_load(explorer *x, const exp_inputs *k)
{
    exp_results *r = &x->r;
    if (!load_stale(x, k))
        return;
    const engine_result *p = exp_selected_plan(x);
    engine_plan none = {0, 0, 0, 0};
    engine_plan want = p ? p->plan : none;
    exp_inputs sk = *k;
    for (int c = CTL_FIRST_LOAD; c < CTL_COUNT; c++)
        sk.v[c] = 0;
    int sus_fresh = !r->have[EXP_PART_LOAD] || !r->load_ok ||
                    memcmp(&sk, &r->load_sus_key, sizeof sk) ||
                    memcmp(&want, &r->load_plan, sizeof want);
    compute_load(x, p, sus_fresh);
    if (!r->have[EXP_PART_LOAD] || memcmp(&sk, &r->load_sus_key, sizeof sk))
        compute_disagg(x);
    r->load_sus_key = sk;
    r->load_plan = want;
    r->in_part[EXP_PART_LOAD] = *k;
    r->have[EXP_PART_LOAD] = 1;
}

int exp_part_deferred(exp_part p)
{
    return p == EXP_PART_PARETO || p == EXP_PART_LOAD;
}

/* 1 when block p is on screen and out of date (what exp_update_part
 * would compute). */
static int part_stale(const explorer *x, exp_part p)
{
    if (p == EXP_PART_PARETO && !pareto_visible(x))
        return 0;
    if (p == EXP_PART_LOAD && !load_visible(x))
        return 0;
    exp_inputs in;
    exp_inputs_get(x, &in);
    exp_inputs k = part_key(x, &in, p);
    if (p == EXP_PART_LOAD)
        return load_stale(x, &k);
    return !x->r.have[p] || memcmp(&k, &x->r.in_part[p], sizeof k) ||
           (p == EXP_PART_HEAT && x->r.heat_mode != x->view.heat_mode);
}

void exp_update_part(explorer *x, exp_part p)
{
    static void (*const COMPUTE[EXP_PART_TAILS])(explorer *) = {compute_rank, compute_eff,
                                                                 compute_heat, compute_front};
    if (p == EXP_PART_TAILS) {
        ensure_tails(x);
        return;
    }
    if (p == EXP_PART_PARETO && !pareto_visible(x))
        return; /* computed when its view comes on screen */
    if (p == EXP_PART_LOAD && !load_visible(x))
        return; /* computed when the details pane comes on screen */
    exp_inputs in;
    exp_inputs_get(x, &in);
    exp_inputs k = part_key(x, &in, p);
    if (p == EXP_PART_LOAD) {
        update_load(x, &k);
        return;
    }
    int stale = !x->r.have[p] || memcmp(&k, &x->r.in_part[p], sizeof k) ||
                (p == EXP_PART_HEAT && x->r.heat_mode != x->view.heat_mode);
    if (!stale)
        return;
    if (p == EXP_PART_PARETO)
        compute_pareto(x);
    else
        COMPUTE[p](x);
    x->r.in_part[p] = k;
    x->r.have[p] = 1;
}

void exp_invalidate(explorer *x)
{
    memset(x->r.have, 0, sizeof x->r.have);
    memset(x->r.tails_done, 0, EXP_MAX_PLANS);
}

void exp_update_scenario(explorer *x)
{
    build_scenario(x, &x->r.sc);
}

/* Scroll positions the keys left anywhere come back inside what the
 * layout shows: the details and the heatmap (when on screen) and the
 * selector list. */
static void clamp_scrolls(explorer *x)
{
    exp_view v;
    exp_view_make(x, &v);
    layout_rect d = x->scr.lay.pane[PANE_DETAILS];
    if (layout_rect_visible(d))
        listview_fit(&x->view.details, pane_details_lines(&v), d.h - 2);
    layout_rect hr = x->scr.lay.pane[PANE_HEAT];
    if (layout_rect_visible(hr)) {
        int rows, cols;
        pane_heat_visible(&v, hr.h, hr.w, &rows, &cols);
        int mt = x->r.heat_rows - rows, ml = x->r.heat_cols - cols;
        exp_viewstate *vs = &x->view;
        vs->heat_top = vs->heat_top > mt ? (mt > 0 ? mt : 0) : vs->heat_top < 0 ? 0 : vs->heat_top;
        vs->heat_left = vs->heat_left > ml ? (ml > 0 ? ml : 0)
                                           : vs->heat_left < 0 ? 0 : vs->heat_left;
    }
    if (x->ov.kind == OVERLAY_LIST) {
        layout_rect o = exp_overlay_rect(&v);
        if (layout_rect_visible(o))
            listview_fit(&x->ov.list, x->ov.list.n, o.h - PANE_LIST_CHROME);
    }
}

/* A user file's rejected override of a preset in use (model, GPU, links,
 * framework) goes on the bar each time the selection comes to it. */
static void warn_overrides(explorer *x)
{
    const engine_scenario *s = &x->r.sc;
    const char *why = NULL;
    if (s->model)
        why = preset_rejected_override(x->db, "models", s->model->name);
    if (!why && s->gpu)
        why = preset_rejected_override(x->db, "gpus", s->gpu->name);
    if (!why && s->intra)
        why = preset_rejected_override(x->db, "links", s->intra->name);
    if (!why && s->inter)
        why = preset_rejected_override(x->db, "links", s->inter->name);
    if (!why && s->framework)
        why = preset_rejected_override(x->db, "frameworks", s->framework->name);
    if (why && why != x->override_warned)
        exp_set_msg(x, "user preset rejected, the earlier entry is used: %s", why);
    x->override_warned = why;
}

/* The selected plan kernel by kernel, while the details pane shows it
 * (one evaluation's work: no cache key). */
static void update_explain(explorer *x)
{
    const engine_result *p = exp_selected_plan(x);
    x->r.explain_ok = 0;
    if (x->view.details_page && p && p->valid && p->fits)
        x->r.explain_ok = engine_explain_plan(&x->r.sc, p->plan, &x->r.explain, NULL) == 0;
}

/* The plan a scenario file named (explorer_opts.plan), selected once it
 * is ranked; then forgotten. */
static void select_wanted_plan(explorer *x)
{
    engine_plan w = x->opts.plan;
    if (w.tp < 1)
        return;
    for (int i = 0; i < x->r.n_shown; i++) {
        engine_plan p = x->r.plans[x->r.order[i]].plan;
        if (p.tp == w.tp && p.pp == w.pp && p.dp == w.dp && p.ep == w.ep)
            x->view.plans.sel = i;
    }
    x->opts.plan.tp = 0;
}

/* After the blocks: the plan a scenario file named, the explain page,
 * the calibration view, the scroll positions. */
static void update_after(explorer *x)
{
    select_wanted_plan(x);
    update_explain(x);
    if (x->ov.kind == OVERLAY_CALIB)
        exp_calib_fetch_view(x);
    clamp_scrolls(x);
}

void exp_update_quick(explorer *x)
{
    build_scenario(x, &x->r.sc);
    warn_overrides(x);
    for (int p = 0; p < EXP_PARTS; p++)
        if (!exp_part_deferred((exp_part)p))
            exp_update_part(x, (exp_part)p);
    update_after(x);
    for (int p = 0; p < EXP_PARTS; p++)
        x->r.pending[p] = exp_part_deferred((exp_part)p) && part_stale(x, (exp_part)p);
}

int exp_update_pending(const explorer *x)
{
    for (int p = 0; p < EXP_PARTS; p++)
        if (x->r.pending[p])
            return 1;
    return 0;
}

int exp_update_deferred(explorer *x)
{
    int any = 0;
    for (int p = 0; p < EXP_PARTS; p++) {
        if (!x->r.pending[p])
            continue;
        exp_update_part(x, (exp_part)p);
        x->r.pending[p] = 0;
        any = 1;
    }
    if (any)
        clamp_scrolls(x);
    return any;
}

void exp_update(explorer *x)
{
    exp_update_quick(x);
    exp_update_deferred(x);
}

void exp_view_make(const explorer *x, exp_view *v)
{
    memset(v, 0, sizeof *v);
    v->db = x->db;
    v->g = x->g;
    v->utf8 = x->caps.utf8;
    v->ctl = &x->ctl;
    v->view = &x->view;
    v->ov = &x->ov;
    v->cal = &x->cal;
    v->r = &x->r;
    v->lay = &x->scr.lay;
    v->focus = x->view.focus;
    v->msg = x->msg;
    v->model = exp_model(x);
    v->gpu = exp_gpu(x);
    v->intra = exp_link(x, CTL_INTRA);
    v->inter = exp_link(x, CTL_INTER);
    v->fw = exp_framework(x);
    v->selected = exp_selected_plan(x);
    v->cview = exp_calib_view(x);
    v->raster = x->scr.grid;
    v->cal_raster = x->cal.grid;
}


