/*
 * report.c - the seed scaling study's tables and figure sweeps, each cell
 * one engine call (engine_evaluate, engine_rank, engine_tails,
 * engine_bubble_fraction) or one cell of the shared grids (grid.h: TP per
 * link, least memory, min GPUs in powers of two).  The selection rules are the
 * seed's: "top-ranked" is the most efficient plan that fits on two or more
 * GPUs without replicas; the PP rows use the seed's micro-batch counts.
 */
#include <math.h>
#include <string.h>

#include "grid.h"
#include "report.h"

void report_inputs_defaults(report_inputs *in, const engine_gpu *gpu)
{
    memset(in, 0, sizeof *in);
    engine_scenario_defaults(&in->base);
    in->base.gpu = gpu;
    /* 512 prompt tokens, one of the seed's sequence lengths: with 256
     * generated ones the study fits GPT-2's 1024-token context */
    in->base.prompt = 512;
    static const int counts[] = {1, 2, 4, 8, 16};
    in->n_counts = (int)(sizeof counts / sizeof counts[0]);
    for (int i = 0; i < in->n_counts; i++)
        in->counts[i] = counts[i];
    in->vram_bytes[0] = 8e9;
    in->vram_bytes[1] = 24e9;
    in->vram_bytes[2] = 40e9;
    in->vram_bytes[3] = 80e9;
    in->min_gpus_max = 64;
}

const char *report_strategy(const engine_plan *p)
{
    int tp = p->tp > 1, pp = p->pp > 1, ep = p->ep > 1, dp = p->dp > 1;
    if (ep)
        return pp ? "TPxPP+EP" : "TP+EP";
    if (tp && pp)
        return dp ? "TPxPPxDP" : "TPxPP";
    if (tp)
        return dp ? "TPxDP" : "TP";
    if (pp)
        return dp ? "PPxDP" : "PP";
    return dp ? "DP" : "1 GPU";
}

static engine_scenario cell(const report_inputs *in, const engine_model *m, const engine_link *l,
                            int gpus)
{
    engine_scenario s = in->base;
    s.model = m;
    s.intra = l;
    s.gpus = gpus;
    return s;
}

static int eval(const engine_scenario *s, engine_plan p, engine_result *r, engine_error *err)
{
    return engine_evaluate(s, p, r, err);
}

/* The most efficient fitting plan with dp = 1 on >= 2 GPUs. */
static int top_config(const report_inputs *in, const engine_model *m, report_tables *out,
                      engine_result *best, engine_error *err)
{
    int found = 0;
    for (int ci = 0; ci < in->n_counts; ci++) {
        if (in->counts[ci] < 2)
            continue;
        engine_scenario s = cell(in, m, in->ref_link, in->counts[ci]);
        int n = engine_rank(&s, out->scratch, REPORT_SCRATCH, 0, err);
        if (n < 0)
            return -1;
        for (int i = 0; i < n; i++) {
            const engine_result *r = &out->scratch[i];
            if (!r->valid || !r->fits || r->plan.dp != 1)
                continue;
            if (!found || r->efficiency > best->efficiency ||
                (r->efficiency == best->efficiency && r->e2e_s < best->e2e_s)) {
                *best = *r;
                found = 1;
            }
        }
    }
    if (found) {
        engine_scenario s = cell(in, m, in->ref_link,
                                 best->plan.tp * best->plan.pp * best->plan.dp);
        engine_tails(&s, best);
    }
    return found;
}

static void add_cheap(report_tables *out, int link, const engine_result *r)
{
    /* Insertion into a short ascending list. */
    int pos = out->n_cheap;
    while (pos > 0 && out->cheap[pos - 1].r.cost_per_mtok_usd > r->cost_per_mtok_usd)
        pos--;
    if (pos >= REPORT_MAX_CHEAP)
        return;
    int last = out->n_cheap < REPORT_MAX_CHEAP ? out->n_cheap : REPORT_MAX_CHEAP - 1;
    for (int i = last; i > pos; i--)
        out->cheap[i] = out->cheap[i - 1];
    out->cheap[pos].link = link;
    out->cheap[pos].r = *r;
    if (out->n_cheap < REPORT_MAX_CHEAP)
        out->n_cheap++;
}

/* Per model: the top configuration, TP at 8 GPUs per link, the VRAM
 * frontier; then the min-GPU table (powers of two, the seed's). */
static int model_tables(const report_inputs *in, report_tables *out, engine_error *err)
{
    engine_scenario ref = in->base;
    ref.intra = in->ref_link;
    static const int EIGHT[1] = {8};
    for (int mi = 0; mi < in->n_models; mi++) {
        const engine_model *m = in->models[mi];
        int f = top_config(in, m, out, &out->top[mi], err);
        if (f < 0)
            return -1;
        out->top_found[mi] = f;
        engine_grid_axes tp8 = {&in->models[mi], 1, in->links, in->n_links, EIGHT, 1, 0};
        if (engine_grid_tp(&in->base, &tp8, out->tp8[mi], err))
            return -1;
        engine_grid_axes front = {&in->models[mi], 1, NULL, 0, in->counts, in->n_counts, 0};
        engine_grid_mem least[REPORT_MAX_COUNTS];
        if (engine_grid_least_memory(&ref, &front, least, err))
            return -1;
        for (int ci = 0; ci < in->n_counts; ci++)
            out->vram_frontier[mi][ci] = least[ci].ok ? least[ci].mem.per_gpu_bytes : 0;
    }
    engine_grid_min_gpus(&ref, in->models, in->n_models, in->vram_bytes, REPORT_N_VRAM,
                         in->min_gpus_max, ENGINE_GRID_POW2, &out->min_gpus[0][0]);
    return 0;
}

/* TP vs PP(m) vs hybrid, the seed's rows. */
static int split_rows(const report_inputs *in, report_tables *out, engine_error *err)
{
    const engine_model *focus = in->models[in->focus];
    /* TP vs PP(m) vs hybrid, the seed's rows: TP 8 as reference, PP(m=4)
     * on 2 and 4 GPUs, PP(m=8) on 8, and two hybrids on 8. */
    static const struct {
        engine_plan p;
        int m;
    } SPLITS[] = {
        {{8, 1, 1, 1}, 0}, {{1, 2, 1, 1}, 4}, {{1, 4, 1, 1}, 4}, {{1, 8, 1, 1}, 8},
        {{4, 2, 1, 1}, 4}, {{2, 4, 1, 1}, 8},
    };
    out->n_splits = 0;
    for (size_t i = 0; i < sizeof SPLITS / sizeof SPLITS[0]; i++) {
        report_split *sp = &out->splits[out->n_splits++];
        engine_scenario s = cell(in, focus, in->ref_link, SPLITS[i].p.tp * SPLITS[i].p.pp);
        s.microbatches = SPLITS[i].m;
        sp->plan = SPLITS[i].p;
        sp->microbatches = SPLITS[i].m;
        if (eval(&s, sp->plan, &sp->r, err))
            return -1;
        sp->vs_tp = out->splits[0].r.e2e_s > 0 ? sp->r.e2e_s / out->splits[0].r.e2e_s : 0;
    }
    return 0;
}

/* The cheapest plans and the cost against GPU count. */
static int cheapest(const report_inputs *in, report_tables *out, engine_error *err)
{
    const engine_model *focus = in->models[in->focus];
    /* Cheapest: every dp = 1 plan on every count and link; one GPU once. */
    out->n_cheap = 0;
    for (int li = 0; li < in->n_links; li++) {
        for (int ci = 0; ci < in->n_counts; ci++) {
            if (in->counts[ci] == 1 && li > 0)
                continue;
            engine_scenario s = cell(in, focus, in->links[li], in->counts[ci]);
            s.objective = ENGINE_OBJ_COST;
            int n = engine_rank(&s, out->scratch, REPORT_SCRATCH, 0, err);
            if (n < 0)
                return -1;
            memset(&out->cost_by_count[li][ci], 0, sizeof out->cost_by_count[li][ci]);
            int have = 0;
            for (int i = 0; i < n; i++) {
                const engine_result *r = &out->scratch[i];
                if (!r->valid || !r->fits || r->plan.dp != 1 || !(r->cost_per_mtok_usd > 0))
                    continue;
                if (!have) { /* ranked by cost: the first is the cheapest */
                    out->cost_by_count[li][ci] = *r;
                    have = 1;
                }
                add_cheap(out, in->counts[ci] == 1 ? -1 : li, r);
            }
        }
        /* one GPU is the same on every link */
        for (int ci = 0; ci < in->n_counts; ci++)
            if (in->counts[ci] == 1 && li > 0)
                out->cost_by_count[li][ci] = out->cost_by_count[0][ci];
    }
    return 0;
}

/* Tails at TP 8 per link and TP scaling per link and count. */
static int tails_and_scaling(const report_inputs *in, report_tables *out, engine_error *err)
{
    const engine_model *focus = in->models[in->focus];
    for (int li = 0; li < in->n_links; li++) {
        engine_scenario s = cell(in, focus, in->links[li], 8);
        if (eval(&s, (engine_plan){8, 1, 1, 1}, &out->tails[li], err))
            return -1;
        if (out->tails[li].valid)
            engine_tails(&s, &out->tails[li]);
        engine_scenario f = in->base;
        f.model = focus;
        engine_grid_axes scaling = {NULL, 0, &in->links[li], 1, in->counts, in->n_counts, 0};
        if (engine_grid_tp(&f, &scaling, out->tp_scaling[li], err))
            return -1;
    }
    return 0;
}

/* PP = n and TP = n/2 x PP = 2 scaling (m = 4). */
static int pp_hybrid_scaling(const report_inputs *in, report_tables *out, engine_error *err)
{
    const engine_model *focus = in->models[in->focus];
    for (int ci = 0; ci < in->n_counts; ci++) {
        int n = in->counts[ci];
        engine_scenario s = cell(in, focus, in->ref_link, n);
        s.microbatches = 4;
        if (eval(&s, (engine_plan){1, n, 1, 1}, &out->pp_scaling[ci], err))
            return -1;
        memset(&out->hybrid_scaling[ci], 0, sizeof out->hybrid_scaling[ci]);
        if (n >= 4 && eval(&s, (engine_plan){n / 2, 2, 1, 1}, &out->hybrid_scaling[ci], err))
            return -1;
    }
    return 0;
}

/* The GPipe bubble fraction for the seed's PP x m grid. */
static void bubble_table(const report_inputs *in, report_tables *out)
{
    static const int PPS[REPORT_N_PP] = {2, 4, 8, 16};
    static const int MS[REPORT_N_M] = {1, 2, 4, 8, 16, 32, 64};
    for (int i = 0; i < REPORT_N_PP; i++) {
        out->bubble_pp[i] = PPS[i];
        for (int j = 0; j < REPORT_N_M; j++) {
            out->bubble_m[j] = MS[j];
            out->bubble[i][j] = engine_bubble_fraction(PPS[i], MS[j], in->base.schedule,
                                                       in->base.interleave);
        }
    }
}

/* The focus model's plan-and-batch points on REPORT_PARETO_GPUS GPUs. */
static int pareto_table(const report_inputs *in, report_tables *out, engine_error *err)
{
    engine_scenario s = cell(in, in->models[in->focus], in->ref_link, REPORT_PARETO_GPUS);
    int n = engine_pareto_points(&s, out->pareto, REPORT_MAX_PARETO, err);
    if (n < 0)
        return -1;
    out->n_pareto = n;
    return 0;
}

int report_compute(const report_inputs *in, report_tables *out, engine_error *err)
{
    if (in->n_models < 1 || in->n_models > REPORT_MAX_MODELS || in->n_links < 1 ||
        in->n_links > REPORT_MAX_LINKS || !in->ref_link || in->focus < 0 ||
        in->focus >= in->n_models || in->n_counts < 1 || in->n_counts > REPORT_MAX_COUNTS) {
        if (err)
            strcpy(err->msg, "report: needs 1..16 models, 1..8 links, a reference link, "
                             "a focus model and 1..8 GPU counts");
        return -1;
    }
    if (model_tables(in, out, err) || split_rows(in, out, err) || cheapest(in, out, err) ||
        tails_and_scaling(in, out, err) || pp_hybrid_scaling(in, out, err) ||
        pareto_table(in, out, err))
        return -1;
    bubble_table(in, out);
    return 0;
}
