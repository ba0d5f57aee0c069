/*
 * details.c - the selected plan in full: memory per GPU term by term
 * against the usable capacity, prefill and decode time split into compute,
 * communication and bubble, tails, throughput, efficiency, regime, cost,
 * and the inputs behind them (a plan that does not fit: its memory and the
 * reason only, as `eval` shows it).  Scrolls with Up/Down when focused.
 */
#include "explorer_int.h"
#include "launch.h"
#include "explain.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_LINES 256 /* page 2: two lines per kernel class and per constant */
#define LINE_W 160
#define PIN_W 32 /* the pinned plan's label wraps to the narrow pane */

typedef struct lines {
    char text[MAX_LINES][LINE_W];
    theme_role role[MAX_LINES];
    int n;
} lines;

static void add(lines *l, theme_role r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add(lines *l, theme_role r, const char *fmt, ...)
{
    if (l->n >= MAX_LINES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->text[l->n], LINE_W, fmt, ap);
    va_end(ap);
    l->role[l->n++] = r;
}

/* "27.3 ms (25.1-31.2 ms)": a time with its validation band. */
static char *with_band(const exp_view *v, double t, const engine_band *b, char *buf,
                       size_t len)
{
    return fmt_seconds_band(t, b, v->g->micro, v->g->utf8 ? "\xe2\x80\x93" : "-", buf, len);
}

/* Time: TTFT, ITL and end to end with their bands and splits, warnings,
 * tails, throughput, efficiency, regime and cost. */
static void build_time(const exp_view *v, const engine_result *p, lines *l)
{
    char a[48], b[48], c[48];
    char wb[96];
    add(l, ROLE_TITLE, "Time (band: validation p10-p90)");
    add(l, ROLE_VALUE, " TTFT  %s", with_band(v, p->ttft_s, &p->ttft_band, wb, sizeof wb));
    add(l, ROLE_NORMAL, "  compute %s, comm %s", fmt_seconds(p->prefill_compute_s, v->g->micro, a,
        sizeof a),
        fmt_seconds(p->prefill_comm_s, v->g->micro, b, sizeof b));
    add(l, ROLE_NORMAL, "  bubble %s", fmt_seconds(p->prefill_bubble_s, v->g->micro, a, sizeof a));
    add(l, ROLE_VALUE, " ITL   %s", with_band(v, p->itl_s, &p->itl_band, wb, sizeof wb));
    add(l, ROLE_NORMAL, "  compute %s, comm %s", fmt_seconds(p->decode_compute_s, v->g->micro, a,
        sizeof a),
        fmt_seconds(p->decode_comm_s, v->g->micro, b, sizeof b));
    add(l, ROLE_NORMAL, "  bubble %s", fmt_seconds(p->decode_bubble_s, v->g->micro, a, sizeof a));
    /* where a decode step goes, three short lines (the pane is 34 wide) */
    add(l, ROLE_NORMAL, "  GEMM %s  attn %s", fmt_seconds(p->decode.gemm_s, v->g->micro, a,
        sizeof a),
        fmt_seconds(p->decode.attn_s, v->g->micro, b, sizeof b));
    add(l, ROLE_NORMAL, "  small %s  host %s", fmt_seconds(p->decode.small_s, v->g->micro, a,
        sizeof a),
        fmt_seconds(p->decode.step_s + p->decode.launch_s, v->g->micro, b, sizeof b));
    add(l, ROLE_NORMAL, "  TP %s  EP %s  PP %s", fmt_seconds(p->decode.tp_s, v->g->micro, a,
        sizeof a),
        fmt_seconds(p->decode.ep_s, v->g->micro, b, sizeof b), fmt_seconds(p->decode.pp_s,
            v->g->micro, c, sizeof c));
    if (p->spec.on) { /* ITL = (draft + verification) / E */
        const engine_spec_result *sp = &p->spec;
        add(l, ROLE_NORMAL, "  %s: E %.2f tokens/step", engine_spec_method_name(sp->method),
            sp->tokens_per_step);
        add(l, ROLE_NORMAL, "  draft %s + verify %s", fmt_seconds(sp->draft_s, v->g->micro, a,
            sizeof a),
            fmt_seconds(sp->verify_s, v->g->micro, b, sizeof b));
        if (sp->draft_prefill_s > 0)
            add(l, ROLE_NORMAL, "  draft prefill %s (in TTFT)",
                fmt_seconds(sp->draft_prefill_s, v->g->micro, a, sizeof a));
    }
    if (p->decode.tbo_hidden_s != 0 || p->decode.ar_norm_saved_s > 0) {
        /* what the overlap techniques hid of a decode step's communication */
        double ep_all = p->decode.ep_s + p->decode.tbo_hidden_s;
        double comm = p->decode.tp_s + ep_all + p->decode.ar_norm_saved_s;
        add(l, ROLE_NORMAL, "  hid: TBO %s (%.0f%%)", fmt_seconds(p->decode.tbo_hidden_s,
            v->g->micro, a, sizeof a), ep_all > 0 ? 100.0 * p->decode.tbo_hidden_s / ep_all : 0.0);
        add(l, ROLE_NORMAL, "  AR+norm %s (%.0f%%)", fmt_seconds(p->decode.ar_norm_saved_s,
            v->g->micro, b, sizeof b), comm > 0 ? 100.0 * p->decode.ar_norm_saved_s / comm : 0.0);
    }
    add(l, ROLE_NORMAL, " end to end %s", with_band(v, p->e2e_s, &p->e2e_band, wb, sizeof wb));
    for (unsigned bit = 1; bit < (1u << ENGINE_WARN_COUNT); bit <<= 1)
        if (p->warnings & bit)
            add(l, ROLE_BAD, " ! %s", engine_warning_text(bit));
    if (v->r->tails_done[p - v->r->plans])
        add(l, ROLE_NORMAL, " P50 / P99 %s / %s", fmt_seconds(p->p50_s, v->g->micro, a, sizeof a),
            fmt_seconds(p->p99_s, v->g->micro, b, sizeof b));
    if (p->tps_band.n > 0)
        add(l, ROLE_NORMAL, " throughput %s (%.1f-%.1f)", fmt_tokens_per_s(p->tokens_per_s, a,
            sizeof a),
            p->tps_band.lo, p->tps_band.hi);
    else
        add(l, ROLE_NORMAL, " throughput %s", fmt_tokens_per_s(p->tokens_per_s, a, sizeof a));
    add(l, ROLE_NORMAL, " speedup %.2f%s  eff %s", p->speedup, v->g->times,
        fmt_percent(p->efficiency, a, sizeof a));
    add(l, ROLE_NORMAL, " bubble (prefill) %s", fmt_percent(p->bubble_fraction, a, sizeof a));
    add(l, ROLE_NORMAL, " compute %s vs comm %s", fmt_seconds(p->compute_s, v->g->micro, a,
        sizeof a),
        fmt_seconds(p->comm_s, v->g->micro, b, sizeof b));
    if (p->regime == 'C' || p->regime == 'M')
        add(l, p->regime == 'C' ? ROLE_GOOD : ROLE_BAD, " ratio %.2f (%c: %s-bound)",
            p->compute_comm_ratio, p->regime, p->regime == 'C' ? "compute" : "comm");
    else
        add(l, ROLE_NORMAL, " no communication");
    const engine_gpu *g = v->gpu;
    if (p->cost_per_mtok_usd > 0)
        add(l, ROLE_NORMAL, " cost %s /1M tok (%s/GPU-h)",
            fmt_usd(p->cost_per_mtok_usd, a, sizeof a), fmt_usd(g->price_per_hour, b, sizeof b));
    else
        add(l, ROLE_DIM, " cost - (no GPU price)");
}

/* The load line: the selected plan under the rate and SLO controls (a
 * small simulation, update.c): the sustainable rate, p99 TTFT and TPOT,
 * the preemptions (or retractions) when the KV cache ran out, goodput,
 * overload. */
static void build_load(const exp_view *v, const engine_result *p, lines *l)
{
    const exp_results *r = v->r;
    char a[32], b[32];
    add(l, ROLE_TITLE, "Load at %.1f req/s (sim of %d)", v->ctl->s[CTL_RATE].value / 10.0,
        EXP_LOAD_REQUESTS);
    if (r->pending[EXP_PART_LOAD]) {
        add(l, ROLE_DIM, " updating (after the keys stop)");
        return;
    }
    if (!r->load_ok || memcmp(&r->load_plan, &p->plan, sizeof p->plan) != 0) {
        add(l, ROLE_DIM, " not simulated");
        return;
    }
    const engine_sim_result *s = &r->load;
    add(l, ROLE_NORMAL, " sustainable %.2f req/s", r->load_sustainable);
    add(l, ROLE_NORMAL, " p99 TTFT %s TPOT %s", fmt_seconds(s->ttft.p99, v->g->micro, a, sizeof a),
        fmt_seconds(s->tpot.p99, v->g->micro, b, sizeof b));
    if (s->preemptions > 0) /* the cache ran out: recompute (load --kv-alloc) */
        add(l, ROLE_DIM, " KV full: %lld preempted", s->preemptions);
    if (s->overloaded)
        add(l, ROLE_BAD, " OVERLOADED: goodput %.2f req/s", s->goodput_requests_per_s);
    else
        add(l, s->slo_met ? ROLE_GOOD : ROLE_BAD, " goodput %.2f req/s, SLO %s",
            s->goodput_requests_per_s, s->slo_met ? "met" : "missed");
}

/* What bounds the largest batch a replica runs (eval --batch max, its
 * rankings, the load line): the KV cache or the framework's max_num_seqs;
 * ROLE_BAD when the batch control asks for more than max_num_seqs. */
static void build_batch_bound(const engine_result *p, lines *l)
{
    int kv = p->max_concurrency <= p->max_num_seqs;
    add(l, p->batch > p->max_num_seqs ? ROLE_BAD : ROLE_TITLE, "Batch: at most %d (%s)",
        kv ? p->max_concurrency : p->max_num_seqs, kv ? "KV cache" : "max_num_seqs");
}

/* The best xPyD split of these GPUs (update.c: engine_disagg_rank by the
 * objective): its TTFT (prefill alone + the exposed KV transfer), ITL and
 * tokens/s (the smaller pool's rate x gen) against the selected plan's. */
static void build_disagg(const exp_view *v, const engine_result *p, lines *l)
{
    const exp_results *r = v->r;
    char nm[48], a[32], b[32];
    if (r->pending[EXP_PART_LOAD]) {
        add(l, ROLE_DIM, "xPyD: updating");
        return;
    }
    if (!r->disagg_ok) {
        add(l, ROLE_DIM, "xPyD: no split of %d GPUs fits", r->sc.gpus);
        return;
    }
    const engine_disagg_result *d = &r->disagg_best;
    engine_disagg_name(d->plan, nm, sizeof nm);
    add(l, ROLE_TITLE, "xPyD best: %s", nm);
    add(l, ROLE_NORMAL, " TTFT %s ITL %s", fmt_seconds(d->ttft_s, v->g->micro, a, sizeof a),
        fmt_seconds(d->itl_s, v->g->micro, b, sizeof b));
    add(l, ROLE_NORMAL, " %.0f tok/s (plan %.0f), %.2f req/s", d->tokens_per_s, p->tokens_per_s,
        d->sustainable_rate);
}

/* "+12.3 ms (+25%)": b - a as a signed time or figure, and relative to a
 * ("same" when equal). */
static char *delta(const exp_view *v, double a, double b, int kind, char *buf, size_t len)
{
    char d[32], pc[16] = "";
    double x = b - a;
    if (x == 0) {
        snprintf(buf, len, "same");
        return buf;
    }
    const char *sign = x > 0 ? "+" : x < 0 ? "-" : "";
    double ax = x < 0 ? -x : x;
    if (kind == 0)
        fmt_seconds(ax, v->g->micro, d, sizeof d);
    else if (kind == 1)
        snprintf(d, sizeof d, "%.1f tok/s", ax);
    else if (kind == 2)
        fmt_gb(ax, d, sizeof d);
    else
        fmt_usd(ax, d, sizeof d);
    if (a > 0)
        snprintf(pc, sizeof pc, " (%+.0f%%)", x / a * 100.0);
    snprintf(buf, len, "%s%s%s", sign, d, pc);
    return buf;
}

/* The selected plan against the pinned one (`p`): TTFT, ITL, tokens/s,
 * memory and cost deltas (times only when both fit). */
static void build_pin(const exp_view *v, const engine_result *p, lines *l)
{
    const exp_pin *pin = &v->view->pin;
    if (!pin->have)
        return;
    const engine_result *q = &pin->res;
    char b[64];
    add(l, ROLE_TITLE, "vs pinned (P unpins)");
    /* the label in lines of at most PIN_W columns, broken at spaces */
    const char *s = pin->label;
    while (*s && l->n < MAX_LINES) {
        const char *brk = NULL;
        int cols = 0;
        for (const char *t = s; *t && cols <= PIN_W; t++) {
            if (*t == ' ')
                brk = t;
            cols += ((unsigned char)*t & 0xC0) != 0x80;
            if (!t[1] && cols <= PIN_W)
                brk = t + 1;
        }
        int n = brk && brk > s ? (int)(brk - s) : (int)strlen(s);
        add(l, ROLE_DIM, " %.*s", n, s);
        s += n;
        while (*s == ' ')
            s++;
    }
    if (p->valid && p->fits && q->valid && q->fits) {
        add(l, ROLE_NORMAL, " TTFT  %s", delta(v, q->ttft_s, p->ttft_s, 0, b, sizeof b));
        add(l, ROLE_NORMAL, " ITL   %s", delta(v, q->itl_s, p->itl_s, 0, b, sizeof b));
        add(l, ROLE_NORMAL, " tok/s %s", delta(v, q->tokens_per_s, p->tokens_per_s, 1, b,
                                                sizeof b));
    } else {
        add(l, ROLE_DIM, " times: - (%s does not fit)", p->valid && p->fits ? "the pin"
                                                                             : "this plan");
    }
    add(l, ROLE_NORMAL, " VRAM  %s", delta(v, q->mem.per_gpu_bytes, p->mem.per_gpu_bytes, 2, b,
                                           sizeof b));
    if (p->cost_per_mtok_usd > 0 && q->cost_per_mtok_usd > 0 && p->fits && q->fits)
        add(l, ROLE_NORMAL, " cost  %s /1M tok", delta(v, q->cost_per_mtok_usd,
                                                       p->cost_per_mtok_usd, 3, b, sizeof b));
    else
        add(l, ROLE_DIM, " cost  -");
}

/* The inputs behind the numbers: model shape, GPU, links, workload. */
static void build_inputs(const exp_view *v, lines *l)
{
    char a[48], b[48], c[48], d[48];
    const engine_gpu *g = v->gpu;
    add(l, ROLE_TITLE, "Inputs");
    const engine_model *mo = v->model;
    add(l, ROLE_NORMAL, " %s, %s params", mo->display,
        fmt_count(engine_model_params(mo), a, sizeof a));
    add(l, ROLE_NORMAL, " L%d d%d h%d kv%d f%d", mo->layers, mo->hidden, mo->heads,
        mo->kv_heads, mo->ffn);
    if (mo->experts > 0)
        add(l, ROLE_NORMAL, " MoE %d experts, top-%d", mo->experts, mo->top_k);
    add(l, ROLE_NORMAL, " %s %s, %s HBM", g->display, fmt_gb(g->memory_bytes, a, sizeof a),
        fmt_rate(g->hbm_bytes_per_s, "B/s", b, sizeof b));
    engine_dtype wd = (engine_dtype)v->ctl->s[CTL_DTYPE].value;
    add(l, ROLE_NORMAL, " %s %s", fmt_rate(g->peak_flops[wd] > 0 ? g->peak_flops[wd]
                                                                 : g->peak_flops[ENGINE_FP16],
                                           "FLOP/s", a, sizeof a),
        g->peak_flops[wd] > 0 ? engine_dtype_name(wd) : "fp16 (no native support)");
    if (v->cal->calib.measured)
        add(l, ROLE_NORMAL, " eta %.2f / %.2f (measured)", v->cal->calib.eta_compute,
            v->cal->calib.eta_memory);
    else
        add(l, ROLE_NORMAL, " eta %.2f / %.2f (datasheet)", g->eta_compute, g->eta_memory);
    const engine_link *li = v->intra, *le = v->inter;
    add(l, ROLE_NORMAL, " intra %s %s, lat %s", li->display,
        fmt_rate(li->bytes_per_s, "B/s", a, sizeof a), fmt_seconds(li->alpha_s, v->g->micro, b,
            sizeof b));
    add(l, ROLE_NORMAL, " inter %s %s, lat %s", le->display,
        fmt_rate(le->bytes_per_s, "B/s", c, sizeof c), fmt_seconds(le->alpha_s, v->g->micro, d,
            sizeof d));
    add(l, ROLE_NORMAL, " %d GPUs/node", v->ctl->s[CTL_PER_NODE].value);
    const engine_framework *fw = v->fw;
    add(l, ROLE_NORMAL, " framework %s (F)", fw ? fw->display : "generic");
    if (v->ctl->spec_method == ENGINE_SPEC_NONE)
        add(l, ROLE_NORMAL, " speculation none (S)");
    else if (v->ctl->spec_method == ENGINE_SPEC_MTP && v->model->mtp_layers < 1)
        add(l, ROLE_DIM, " speculation mtp: no MTP layers (S)");
    else {
        add(l, ROLE_NORMAL, " speculation %s (S)",
            engine_spec_method_name((engine_spec_method)v->ctl->spec_method));
        add(l, ROLE_NORMAL, "  k %d ([ ]), P %.2f ({ })", v->ctl->spec_k,
            v->ctl->spec_pct / 100.0);
    }
    add(l, ROLE_NORMAL, " batch %d, prompt %d, gen %d tok", v->ctl->s[CTL_BATCH].value,
        v->ctl->s[CTL_PROMPT].value, v->ctl->s[CTL_GEN].value);
}

/* Words of text on lines of at most w cells, the first after `head`, the
 * rest indented three cells (a word longer than a line is cut). */
static void add_wrapped(lines *l, const char *head, const char *text, int w)
{
    char cur[LINE_W];
    int n = snprintf(cur, sizeof cur, "%s", head);
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        int k = 0;
        while (p[k] && p[k] != ' ')
            k++;
        if (!k)
            break;
        if (n > 3 && n + 1 + k > w) {
            add(l, ROLE_NORMAL, "%s", cur);
            n = snprintf(cur, sizeof cur, "   ");
        }
        n += snprintf(cur + n, sizeof cur - (size_t)n, "%s%.*s", n > 3 ? " " : "",
                      k > LINE_W - 8 ? LINE_W - 8 : k, p);
        if (n >= (int)sizeof cur)
            n = (int)sizeof cur - 1;
        p += k;
    }
    if (n > 3)
        add(l, ROLE_NORMAL, "%s", cur);
}

/* The best xPyD split's launch lines (build_disagg's split), a pool
 * each in each framework's disaggregation form (launch.h
 * engine_launch_role_line): the prefill pool's servers at the prompts a
 * prefill step batches, the decode pool's at the scenario's batch. */
static void build_launch_disagg(const exp_view *v, int w, lines *l)
{
    const exp_results *r = v->r;
    if (r->pending[EXP_PART_LOAD] || !r->disagg_ok)
        return;
    const engine_disagg_result *d = &r->disagg_best;
    char nm[48], line[ENGINE_LAUNCH_MAX], head[24];
    engine_disagg_name(d->plan, nm, sizeof nm);
    add(l, ROLE_TITLE, "Launch xPyD %s", nm);
    for (int role = ENGINE_LAUNCH_PREFILL; role <= ENGINE_LAUNCH_DECODE; role++) {
        engine_result pr = role == ENGINE_LAUNCH_PREFILL ? d->prefill : d->decode;
        if (role == ENGINE_LAUNCH_PREFILL)
            pr.batch = d->prefill_batch;
        for (int f = 0; f < ENGINE_LAUNCH_COUNT; f++) {
            if (engine_launch_role_line((engine_launch_fw)f, (engine_launch_role)role, &r->sc,
                                        &pr, line, sizeof line) != 0)
                continue;
            snprintf(head, sizeof head, " %s %s:", engine_launch_name((engine_launch_fw)f),
                     role == ENGINE_LAUNCH_PREFILL ? "prefill" : "decode");
            add_wrapped(l, head, line, w);
        }
    }
}

/* The selected plan's launch line for each framework (launch.h), wrapped
 * to the pane's width. */
static void build_launch(const exp_view *v, const engine_result *p, lines *l)
{
    int w = v->lay ? v->lay->pane[PANE_DETAILS].w - 3 : 0; /* clear of the scroll marks */
    if (w < 20)
        w = 78;
    if (w > LINE_W - 1)
        w = LINE_W - 1;
    add(l, ROLE_TITLE, "Launch");
    char line[ENGINE_LAUNCH_MAX], head[24];
    for (int f = 0; f < ENGINE_LAUNCH_COUNT; f++) {
        if (engine_launch_line((engine_launch_fw)f, &v->r->sc, p, line, sizeof line) != 0)
            continue;
        snprintf(head, sizeof head, " %s:", engine_launch_name((engine_launch_fw)f));
        add_wrapped(l, head, line, w);
    }
    build_launch_disagg(v, w, l);
}

/* One step of page 2: a line per kernel class (name, time, share of the
 * step) and a dim one under it (count, FLOPs, bytes, bound). */
static void build_step(const exp_view *v, const engine_explain_step *st, const char *title,
                       int pp, const char *note, lines *l)
{
    char a[32], b[32], c[32], d[32];
    add(l, ROLE_TITLE, "%s %s", title, fmt_seconds(st->total_s, v->g->micro, a, sizeof a));
    snprintf(b, sizeof b, "%.4g", st->repeat);
    add(l, ROLE_DIM, " stage %d of %d (slowest) x %s", st->stage + 1, pp, b);
    if (note)
        add(l, ROLE_DIM, "%s", note);
    for (int i = 0; i < st->n; i++) {
        const engine_explain_item *it = &st->item[i];
        char nm[64];
        add(l, ROLE_NORMAL, " %-16.16s %9s %6s", out_explain_name(it, nm, sizeof nm),
            out_explain_time(it->time_s, v->g->micro, a, sizeof a),
            fmt_percent(st->total_s > 0 ? it->time_s / st->total_s : 0, b, sizeof b));
        out_explain_work(it, c, sizeof c, d, sizeof d);
        snprintf(a, sizeof a, "%.4g", it->count);
        add(l, ROLE_DIM, "  %sx %s %s %s", a, c, d, engine_bound_name(it->bound));
    }
}

/* Page 2 (`x`): the selected plan's prefill and decode steps kernel by
 * kernel, then the constants with their origin. */
static void build_explain(const exp_view *v, const engine_result *p, lines *l)
{
    char a[48];
    const engine_explain *x = &v->r->explain;
    add(l, ROLE_VALUE, "%s kernels (x: page 1)", fmt_plan(p->plan, v->g->times, a, sizeof a));
    if (!v->r->explain_ok) {
        add(l, ROLE_DIM, " no kernels: %s", !p->valid ? "the plan is invalid"
                                            : !p->fits ? "it does not fit" : "not computed");
        return;
    }
    add(l, ROLE_DIM, " per GPU, %d sequences a replica", x->batch);
    char note[96];
    snprintf(note, sizeof note, " (verify %d tok + %d drafts) / E %.3g", x->spec_k + 1, x->spec_k,
             x->spec_tokens_per_step);
    build_step(v, &x->prefill, "Prefill (TTFT)", p->plan.pp, NULL, l);
    build_step(v, &x->decode, "Decode step (ITL)", p->plan.pp,
               x->spec_tokens_per_step > 0 ? note : NULL, l);
    add(l, ROLE_TITLE, "Constants (origin)");
    for (int i = 0; i < x->n_const; i++) {
        const engine_explain_const *c = &x->constant[i];
        add(l, ROLE_NORMAL, " %-22.22s %s", c->name, out_explain_value(c, v->g->micro, a, sizeof a));
        add(l, ROLE_DIM, "  %s", c->origin);
    }
}

static void build(const exp_view *v, lines *l)
{
    const engine_result *p = v->selected;
    char a[48];
    l->n = 0;
    if (!p) {
        add(l, ROLE_DIM, "no plan selected");
        return;
    }
    if (v->view->details_page) {
        build_explain(v, p, l);
        return;
    }
    const engine_memory *m = &p->mem;
    add(l, ROLE_VALUE, "%s on %d GPUs", fmt_plan(p->plan, v->g->times, a, sizeof a),
        v->ctl->s[CTL_GPUS].value);
    if (!p->valid)
        add(l, ROLE_BAD, "invalid: %s", p->reason);
    else if (!p->fits)
        add(l, ROLE_BAD, "does not fit: %s", p->reason);
    else
        add(l, ROLE_GOOD, "fits in memory");
    build_pin(v, p, l);
    add(l, ROLE_TITLE, "Memory per GPU");
    add(l, ROLE_NORMAL, " weights      %10s", fmt_gb(m->weights_bytes, a, sizeof a));
    if (m->spec_weights_bytes > 0)
        add(l, ROLE_DIM, "  draft      %10s", fmt_gb(m->spec_weights_bytes, a, sizeof a));
    add(l, ROLE_NORMAL, " KV cache     %10s", fmt_gb(m->kv_bytes, a, sizeof a));
    if (m->spec_kv_bytes > 0)
        add(l, ROLE_DIM, "  draft KV   %10s", fmt_gb(m->spec_kv_bytes, a, sizeof a));
    if (m->kv_local_bytes > 0) { /* local-attention layers hold at most their window */
        add(l, ROLE_DIM, "  global     %10s", fmt_gb(m->kv_bytes - m->kv_local_bytes, a, sizeof a));
        add(l, ROLE_DIM, "  local      %10s", fmt_gb(m->kv_local_bytes, a, sizeof a));
    }
    add(l, ROLE_NORMAL, " activations  %10s", fmt_gb(m->activation_bytes, a, sizeof a));
    add(l, ROLE_NORMAL, " runtime      %10s", fmt_gb(m->overhead_bytes, a, sizeof a));
    add(l, ROLE_VALUE, " total        %10s", fmt_gb(m->per_gpu_bytes, a, sizeof a));
    add(l, ROLE_NORMAL, " usable       %10s", fmt_gb(m->capacity_bytes, a, sizeof a));
    if (!p->valid)
        return;
    /* what the paged KV cache (16-token blocks) holds at this workload */
    add(l, ROLE_NORMAL, " KV tokens    %10.0f", p->kv_capacity_tokens);
    add(l, ROLE_NORMAL, " max seqs     %10d", p->max_concurrency);
    /* A plan that does not fit has no times, throughput or cost (as in
     * `eval` and the export's nulls): its memory, the reason, the inputs. */
    if (p->fits) {
        build_load(v, p, l);
        build_disagg(v, p, l);
        build_batch_bound(p, l);
        build_time(v, p, l);
        build_launch(v, p, l);
    } else
        add(l, ROLE_DIM, " no times, throughput or cost: it does not fit");
    build_inputs(v, l);
}

int pane_details_lines(const exp_view *v)
{
    lines l;
    build(v, &l);
    return l.n;
}

void pane_details_draw(const exp_view *v, WINDOW *w)
{
    theme_window(w);
    lines l;
    build(v, &l);
    char title[64];
    if (v->selected)
        snprintf(title, sizeof title, "Details: plan #%d%s",
                 (int)(v->selected - v->r->plans) + 1, v->view->details_page ? " (2/2)" : "");
    else
        snprintf(title, sizeof title, "Details");
    pane_frame(v, w, PANE_DETAILS, title);
    int h = getmaxy(w), ww = getmaxx(w);
    int rows = h - 2, top = v->view->details.top; /* clamped by the update step */
    for (int i = 0; i < rows && top + i < l.n; i++)
        pane_put(w, 1 + i, 1, ww - 2, l.role[top + i], l.text[top + i]);
    if (top > 0)
        pane_put(w, 1, ww - 2, 1, ROLE_TITLE, v->g->up);
    if (top + rows < l.n)
        pane_put(w, h - 1, ww - 3, 1, ROLE_TITLE, v->g->down);
}
