/*
 * eval.c - `shardscope eval`: one plan's full breakdown (memory terms,
 * times, efficiency, regime, bubble, cost, Monte Carlo tails), or, without
 * a plan, every plan for the GPU count ranked by the objective, with the
 * plans that do not fit or are invalid listed with their reason.  Text or
 * JSON; the numbers all come from the engine.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_common.h"
#include "explain.h"
#include "json.h"
#include "scenario_file.h"

/* Plans whose Monte Carlo tails are computed in a ranking. */
#define EVAL_TAILS_FOR 3

static const cli_opt EVAL_OPTS[] = {
    {.name = "--csv", .kind = CLI_OPT_FLAG, .off = CLI_AT(csv),
     .help = "one header line, then one line per plan (SI units;\n"
             "empty where JSON has null)"},
    {.name = "--total-concurrency", .kind = CLI_OPT_INT, .arg = "C", .min = 1,
     .max = ENGINE_MAX_BATCH, .off = CLI_AT(total_concurrency), .section = "load:",
     .help = "C sequences in all, spread over each plan's replicas\n"
             "(the first C mod dp take one more; the most loaded one\n"
             "sets the latency); not with --batch"},
    {.name = "--pareto", .kind = CLI_OPT_FLAG, .off = CLI_AT(pareto),
     .help = "the Pareto frontier of every plan at every batch per\n"
             "replica (1, 2, 4, ... and its largest): output tokens/s\n"
             "per GPU against tokens/s per user (1 / ITL); text or --json"},
    {.name = "--disagg", .kind = CLI_OPT_FLAG, .off = CLI_AT(eval_disagg),
     .help = "rank xPyD candidates too: every split of the GPUs into x\n"
             "prefill and y decode replicas beside the aggregated plans,\n"
             "by the objective; text or --json 'ranking'"},
    {.name = "--explain", .kind = CLI_OPT_FLAG, .off = CLI_AT(explain),
     .help = "the plan's prefill and decode step kernel by kernel\n"
             "(FLOPs, bytes, time, bound) and the constants behind them\n"
             "with their origin; without a plan, the first that fits.\n"
             "--json always carries it as 'explain'; with --explain\n"
             "every fitting plan of a ranking carries its own"},
    {.name = "--scenario", .kind = CLI_OPT_STRING, .arg = "FILE", .off = CLI_AT(scenario_file),
     .section = "scenario files:",
     .help = "read the scenario from FILE (JSON: the flags by name, as\n"
             "--save-scenario writes them); flags given here override\n"
             "its fields"},
    {.name = "--save-scenario", .kind = CLI_OPT_STRING, .arg = "FILE",
     .off = CLI_AT(save_scenario),
     .help = "write the whole scenario (presets resolved, the plan,\n"
             "every number) to FILE atomically, then evaluate as usual"},
    {.name = NULL},
};

const cli_options cli_eval_options = {
    .tables = {cli_scenario_opts, EVAL_OPTS},
    .about = "With a plan (any of --tp --pp --dp --ep): that plan's breakdown: memory per\n"
             "GPU term by term, TTFT, ITL, end-to-end latency, tokens/s, efficiency,\n"
             "compute/communication ratio and regime (C compute-bound, M comm-bound),\n"
             "pipeline bubble, cost per 1M tokens and Monte Carlo P50/P99.\n"
             "Without a plan: every plan for N GPUs ranked by --objective; plans that do\n"
             "not fit or are invalid are listed after, with their reason.\n"
             "With --pareto: the Pareto frontier of every plan at every batch per replica\n"
             "(output tokens/s per GPU against tokens/s per user).\n",
    .footer = "Units: GB = 1e9 bytes; times in s, ms, \xc2\xb5s; cost in USD per 1M generated\n"
              "tokens.  JSON numbers are SI (bytes, seconds, tokens/s, USD); null where a\n"
              "number does not apply.  Exit status: 0 evaluated (even when it does not\n"
              "fit), 2 bad usage or input (including an explicit plan that is invalid).\n"
              "Examples:\n"
              "  shardscope eval --model llama-3-70b --gpu h100-sxm --gpus 8 --link nvlink4\n"
              "  shardscope eval --model ./config.json --gpu a100-80gb --gpus 4 --tp 4 --json\n",
};

static void print_header(const engine_scenario *s, FILE *f)
{
    char vram[32], cal[ENGINE_NAME_MAX + 64];
    double v = engine_scenario_vram(s);
    fprintf(f, "%s on %d x %s (%s per GPU), link %s", fmt_model_name(s->model),
            s->gpus, fmt_gpu_name(s->gpu),
            fmt_bytes(v, vram, sizeof vram), s->intra->name);
    if (s->inter && s->gpus_per_node > 0)
        fprintf(f, ", %d GPUs per node over %s", s->gpus_per_node, s->inter->name);
    else if (s->gpus_per_node > 0)
        fprintf(f, ", %d GPUs per node", s->gpus_per_node);
    fprintf(f, "\n");
    char load[64];
    if (s->total_concurrency > 0)
        snprintf(load, sizeof load, "%d sequences in all", s->total_concurrency);
    else if (s->batch_max)
        snprintf(load, sizeof load, "batch max (each plan's own)");
    else
        snprintf(load, sizeof load, "batch %d", s->batch);
    fprintf(f, "%s, prompt %d, gen %d tokens; weights %s, KV %s, activations %s; %s",
            load, s->prompt, s->gen, engine_dtype_name(engine_scenario_weight_dtype(s)),
            engine_dtype_name(s->kv_dtype), engine_dtype_name(s->act_dtype),
            engine_schedule_name(s->schedule));
    if (s->schedule == ENGINE_SCHED_INTERLEAVED)
        fprintf(f, " (v=%d)", s->interleave);
    if (s->microbatches > 0)
        fprintf(f, ", %d micro-batches", s->microbatches);
    if (s->decode_microbatches > 0)
        fprintf(f, ", %d decode micro-batch%s", s->decode_microbatches,
                s->decode_microbatches == 1 ? "" : "es");
    fprintf(f, "\nframework: %s (decode CUDA graphs %s", s->framework ? s->framework->name : "generic",
            engine_scenario_cuda_graphs(s) ? "on" : "off");
    if (s->n_graph_sizes > 0 && engine_scenario_cuda_graphs(s))
        fprintf(f, ", padded to %d captured sizes up to %d", s->n_graph_sizes,
                s->graph_sizes[s->n_graph_sizes - 1]);
    if (engine_scenario_prefill_graphs(s)) {
        const engine_framework *pfw = s->framework ? s->framework : engine_framework_generic_ref();
        int cap = engine_prefill_graph_tokens(pfw, s->model);
        if (cap > 0)
            fprintf(f, "; prefill piecewise graphs up to %d tokens", cap);
        else
            fprintf(f, "; prefill piecewise graphs");
    }
    fprintf(f, "); calibration: %s\n", out_calibration_label(s->calib, cal, sizeof cal));
    if ((s->batch_max || s->total_concurrency > 0) && s->max_num_seqs <= 0 && s->framework &&
        s->framework->req_pool_per_context > 0)
        fprintf(f, "max_num_seqs: each plan's request pool, its KV tokens x %d / the %d-token "
                "context, within %d-%d running sequences a replica (the framework's)\n",
                s->framework->req_pool_per_context, engine_context_limit(s),
                s->framework->req_pool_min, engine_max_num_seqs(s));
    else if (s->batch_max || s->total_concurrency > 0)
        fprintf(f, "max_num_seqs: at most %d running sequences a replica (%s)\n",
                engine_max_num_seqs(s), s->max_num_seqs > 0 ? "--max-num-seqs" : "the framework's");
    if (s->spec_method != ENGINE_SPEC_NONE)
        fprintf(f, "speculative decoding: %s%s%s, k %d, acceptance %.3g: %.3g tokens per target "
                "step\n", engine_spec_method_name(s->spec_method),
                s->spec_draft ? " with " : "", s->spec_draft ? s->spec_draft->name : "",
                s->spec_k, s->spec_accept, engine_spec_tokens_per_step(s->spec_k, s->spec_accept));
}

/* "12.3 ms (11.9 ms-13.2 ms)": a time with its validation band (an en dash). */
static char *time_band(double v, const engine_band *b, char *buf, size_t len)
{
    return fmt_seconds_band(v, b, NULL, "\xe2\x80\x93", buf, len);
}

static void print_warnings(const engine_result *r, FILE *f)
{
    for (unsigned bit = 1; bit < (1u << ENGINE_WARN_COUNT); bit <<= 1)
        if (r->warnings & bit)
            fprintf(f, "  warning: %s\n", engine_warning_text(bit));
}

static void plan_label(const engine_plan *p, char *buf, size_t len)
{
    snprintf(buf, len, "tp=%d pp=%d dp=%d ep=%d", p->tp, p->pp, p->dp, p->ep);
}

/* --- one plan ---------------------------------------------------------- */

/* "  label  value   note": the value column is at least 12 wide and grows
 * to fit a value that carries a band. */
static void row(const char *label, const char *value, const char *note)
{
    printf("  ");
    out_put_col(stdout, label, 20);
    out_put_col(stdout, value, -12);
    if (note && *note)
        printf("   %s", note);
    printf("\n");
}

static void breakdown_row(const char *label, const engine_breakdown *b)
{
    char g[32], at[32], sm[32], l[32], st[32], tp[32], ep[32], pp[32];
    printf("  %-18s GEMM %s, attention %s, small kernels %s, launch %s, framework %s\n", label,
           fmt_seconds(b->gemm_s, NULL, g, sizeof g), fmt_seconds(b->attn_s, NULL, at, sizeof at),
           fmt_seconds(b->small_s, NULL, sm, sizeof sm), fmt_seconds(b->launch_s, NULL, l,
               sizeof l),
           fmt_seconds(b->step_s, NULL, st, sizeof st));
    printf("  %-18s TP all-reduce %s, EP all-to-all %s, PP send %s; %d kernels\n", "",
           fmt_seconds(b->tp_s, NULL, tp, sizeof tp), fmt_seconds(b->ep_s, NULL, ep, sizeof ep),
           fmt_seconds(b->pp_s, NULL, pp, sizeof pp), b->kernels);
    if (b->tbo_hidden_s != 0 || b->ar_norm_saved_s > 0) {
        char h[32], all[32], sv[32];
        double ep_all = b->ep_s + b->tbo_hidden_s;
        printf("  %-18s overlap: two-batch overlap hid %s of %s EP all-to-all (%.0f%%), fused "
               "all-reduce + norm saved %s\n",
               "", fmt_seconds(b->tbo_hidden_s, NULL, h, sizeof h),
               fmt_seconds(ep_all, NULL, all, sizeof all),
               ep_all > 0 ? 100.0 * b->tbo_hidden_s / ep_all : 0.0,
               fmt_seconds(b->ar_norm_saved_s, NULL, sv, sizeof sv));
    }
}

/* What the KV cache holds: tokens in whole blocks, sequences of the
 * workload's length, and the load the plan runs at. */
static void print_capacity(const engine_scenario *s, const engine_result *r)
{
    char a[64], note[256];
    long long len = (long long)s->prompt + s->gen;
    long long blocks = (len + ENGINE_KV_BLOCK - 1) / ENGINE_KV_BLOCK;
    snprintf(a, sizeof a, "%.0f tokens", r->kv_capacity_tokens);
    snprintf(note, sizeof note, "blocks of %d; max concurrency %d sequences of %lld tokens (%lld "
             "blocks) per replica", ENGINE_KV_BLOCK, r->max_concurrency, len, blocks);
    row("KV capacity", a, note);
    if (s->batch_max || s->total_concurrency > 0) {
        char bb[128], q[64] = "";
        snprintf(a, sizeof a, "%d per replica", r->batch);
        if (r->queued > 0)
            snprintf(q, sizeof q, "; %lld more queue", r->queued);
        snprintf(note, sizeof note, "%lld sequences in all%s%s; set by %s", r->concurrency,
                 s->total_concurrency > 0 && s->total_concurrency % r->plan.dp &&
                         r->queued == 0
                     ? "; the most loaded replica sets the latency" : "", q,
                 out_batch_bound_text(r->batch_bound, r->max_concurrency, r->max_num_seqs, bb,
                                      sizeof bb));
        row("load", a, note);
    }
}

/* Memory per GPU, term by term, against what the framework's rule leaves. */
static void print_memory(const engine_scenario *s, const engine_result *r)
{
    char a[64], b[64], c[64], fr[16], note[256];
    printf("\nmemory per GPU\n");
    row("weights", fmt_bytes(r->mem.weights_bytes, a, sizeof a), "largest pipeline stage");
    if (r->spec.on)
        row(r->spec.method == ENGINE_SPEC_DRAFT ? "  draft model" : "  draft head",
            fmt_bytes(r->mem.spec_weights_bytes, a, sizeof a),
            r->spec.method == ENGINE_SPEC_DRAFT ? "its weights over its TP group"
            : r->spec.method == ENGINE_SPEC_MTP ? "the MTP module: one block + projection"
                                                : "the EAGLE head: one layer + projection");
    row("KV cache", fmt_bytes(r->mem.kv_bytes, a, sizeof a), "batch at prompt+gen tokens");
    if (r->spec.on)
        row("  draft KV", fmt_bytes(r->mem.spec_kv_bytes, a, sizeof a),
            r->spec.method == ENGINE_SPEC_DRAFT ? "the draft model's cache" : "its one layer's cache");
    if (r->mem.kv_local_bytes > 0) {
        const engine_model *m = s->model;
        snprintf(note, sizeof note, "global-attention layers (every %d%s)", m->global_every,
                 m->global_every == 2 ? "nd" : m->global_every == 3 ? "rd" : "th");
        if (m->global_every > 0)
            row("  global layers", fmt_bytes(r->mem.kv_bytes - r->mem.kv_local_bytes, a, sizeof a),
                note);
        if (engine_scenario_local_kv_full(s))
            snprintf(note, sizeof note, "local layers (%s of %d tokens): whole sequence each",
                     m->window_chunked ? "chunks" : "windows", m->window);
        else
            snprintf(note, sizeof note, "local layers: at most %d tokens each (%s)", m->window,
                     m->window_chunked ? "chunked attention" : "sliding window");
        row("  local layers", fmt_bytes(r->mem.kv_local_bytes, a, sizeof a), note);
    }
    row("activations", fmt_bytes(r->mem.activation_bytes, a, sizeof a),
        "prefill workspace");
    row("runtime overhead", fmt_bytes(r->mem.overhead_bytes, a, sizeof a),
        "CUDA context, allocator");
    double vram = engine_scenario_vram(s);
    const engine_framework *fw = s->framework;
    double frac = r->mem.usable_fraction;
    if (fw && fw->mem_rule == ENGINE_MEM_FREE)
        snprintf(note, sizeof note, "of %s usable (KV: %.2f of what %s leaves free)",
                 fmt_bytes(r->mem.capacity_bytes, b, sizeof b), frac,
                 fmt_bytes(vram, c, sizeof c));
    else
        snprintf(note, sizeof note, "of %s usable (%s x %s)",
                 fmt_bytes(r->mem.capacity_bytes, b, sizeof b),
                 fmt_bytes(vram, c, sizeof c), fmt_fraction(frac, fr, sizeof fr));
    row("total", fmt_bytes(r->mem.per_gpu_bytes, a, sizeof a), note);
    print_capacity(s, r);
}

/* TTFT, ITL and end-to-end with their bands, the Monte Carlo P50, and where
 * a step's time goes. */
static void print_latency(const engine_scenario *s, const engine_result *r)
{
    char a[64], b[64], c[64], d[64], note[256];
    char band[96];
    printf("\nlatency (band: 10th-90th percentile of measured/predicted in validation)\n");
    snprintf(note, sizeof note, "compute %s, comm %s, bubble %s",
             fmt_seconds(r->prefill_compute_s, NULL, b, sizeof b),
             fmt_seconds(r->prefill_comm_s, NULL, c, sizeof c),
             fmt_seconds(r->prefill_bubble_s, NULL, d, sizeof d));
    row("TTFT (prefill)", time_band(r->ttft_s, &r->ttft_band, band, sizeof band), note);
    snprintf(note, sizeof note, "compute %s, comm %s, bubble %s",
             fmt_seconds(r->decode_compute_s, NULL, b, sizeof b),
             fmt_seconds(r->decode_comm_s, NULL, c, sizeof c),
             fmt_seconds(r->decode_bubble_s, NULL, d, sizeof d));
    row("ITL (decode step)", time_band(r->itl_s, &r->itl_band, band, sizeof band), note);
    snprintf(note, sizeof note, "TTFT + %d x ITL", s->gen > 0 ? s->gen - 1 : 0);
    row("end-to-end", time_band(r->e2e_s, &r->e2e_band, band, sizeof band), note);
    if (r->p50_s > 0 && r->p99_s > 0) {
        snprintf(note, sizeof note, "P99 %s; Monte Carlo, sigma %.3g, %d samples, seed %llu",
                 fmt_seconds(r->p99_s, NULL, b, sizeof b), s->jitter_sigma, s->mc_samples,
                 (unsigned long long)s->seed);
        row("P50", fmt_seconds(r->p50_s, NULL, a, sizeof a), note);
    }

    printf("\nwhere a step goes (per GPU, critical path)\n");
    breakdown_row("prefill", &r->prefill);
    breakdown_row(r->spec.on ? "decode per token" : "decode step", &r->decode);
}

/* What speculation does to a decode step: E, the draft and the
 * verification, and the ITL they give. */
static void print_spec(const engine_scenario *s, const engine_result *r)
{
    const engine_spec_result *sp = &r->spec;
    char a[64], note[256];
    if (!sp->on)
        return;
    int dk;
    double dp;
    engine_spec_default(sp->method, &dk, &dp);
    printf("\nspeculative decoding (%s, k %d%s, acceptance %.3g%s)\n",
           engine_spec_method_name(sp->method), sp->k, sp->k == dk ? " default" : "", sp->accept,
           sp->accept == dp ? " default" : "");
    snprintf(a, sizeof a, "%.3f", sp->tokens_per_step);
    row("tokens per step", a, "E = (1 - P^(k+1)) / (1 - P), i.i.d. acceptance");
    if (sp->method == ENGINE_SPEC_DRAFT)
        snprintf(note, sizeof note, "%d decode steps of %s on %d GPU%s", sp->k,
                 s->spec_draft ? s->spec_draft->name : "the draft", sp->draft_tp,
                 sp->draft_tp == 1 ? "" : "s");
    else
        snprintf(note, sizeof note, "%d steps of the %s: one layer + the LM head", sp->k,
                 sp->method == ENGINE_SPEC_MTP ? "MTP module" : "EAGLE head");
    row("draft", fmt_seconds(sp->draft_s, NULL, a, sizeof a), note);
    snprintf(note, sizeof note, "one target step of %d tokens a sequence", sp->k + 1);
    row("verification", fmt_seconds(sp->verify_s, NULL, a, sizeof a), note);
    snprintf(note, sizeof note, "(draft + verification) / %.3f", sp->tokens_per_step);
    row("ITL", fmt_seconds(r->itl_s, NULL, a, sizeof a), note);
    if (sp->draft_prefill_s > 0)
        row("draft prefill", fmt_seconds(sp->draft_prefill_s, NULL, a, sizeof a), "part of TTFT");
}

/* Tokens/s, speedup and efficiency, the regime, the bubble and the cost. */
static void print_throughput(const engine_scenario *s, const engine_result *r)
{
    char a[64], b[64], c[64], note[256];
    printf("\nthroughput and efficiency\n");
    char tps[32];
    fmt_tokens_per_s(r->tokens_per_s, tps, sizeof tps);
    if (r->tps_band.n > 0)
        snprintf(a, sizeof a, "%s (%.1f\xe2\x80\x93%.1f)", tps, r->tps_band.lo, r->tps_band.hi);
    else
        snprintf(a, sizeof a, "%s", tps);
    row("generated tokens", a, r->plan.dp > 1 ? "all replicas" : "");
    snprintf(a, sizeof a, "%.2f x", r->speedup);
    snprintf(note, sizeof note, "efficiency %s (speedup / %d GPU%s)",
             fmt_percent(r->efficiency, b, sizeof b), s->gpus, s->gpus == 1 ? "" : "s");
    row("speedup", a, note);
    snprintf(note, sizeof note, "request: compute %s, communication %s",
             fmt_seconds(r->compute_s, NULL, b, sizeof b), fmt_seconds(r->comm_s, NULL, c,
                 sizeof c));
    if (r->regime == 'C' || r->regime == 'M') {
        snprintf(a, sizeof a, "%.2f %c", r->compute_comm_ratio, r->regime);
        row("compute/comm", a, note);
        row("", "", r->regime == 'C' ? "C: compute-bound (ratio >= 1)"
                                     : "M: communication-bound (ratio < 1)");
    } else {
        row("compute/comm", "-", "no communication");
    }
    row("pipeline bubble", fmt_percent(r->bubble_fraction, a, sizeof a),
        "of the prefill forward pass");
    if (r->cost_per_mtok_usd > 0) {
        snprintf(note, sizeof note, "per 1M generated tokens at $%.2f/GPU-h (%s)",
                 s->gpu->price_per_hour, s->gpu->price_date[0] ? s->gpu->price_date : "undated");
        row("cost", fmt_usd(r->cost_per_mtok_usd, a, sizeof a), note);
    } else {
        row("cost", "-", "no price for this GPU");
    }
}

static void print_one(const engine_scenario *s, const engine_result *r)
{
    char plan[96];
    print_header(s, stdout);
    plan_label(&r->plan, plan, sizeof plan);
    printf("\nplan %s", plan);
    if (!r->valid) {
        printf(": invalid: %s\n", r->reason);
        return;
    }
    printf(": %s\n", r->fits ? "fits" : "does NOT fit");
    if (!r->fits && r->reason[0])
        printf("  %s\n", r->reason);
    print_warnings(r, stdout);
    print_memory(s, r);
    if (!r->fits)
        return;
    print_latency(s, r);
    print_spec(s, r);
    print_throughput(s, r);
}

/* The plan's kernels as an "explain" member of obj (a valid plan that
 * fits; nothing otherwise). */
static void add_explain(cJSON *obj, const engine_scenario *s, const engine_result *r)
{
    if (!r->valid || !r->fits)
        return;
    engine_explain *x = malloc(sizeof *x);
    if (x && engine_explain_plan(s, r->plan, x, NULL) == 0)
        cJSON_AddItemToObject(obj, "explain", out_explain_json(x));
    free(x);
}

static void print_explain(const engine_scenario *s, const engine_result *r)
{
    if (!r->valid || !r->fits)
        return;
    engine_explain *x = malloc(sizeof *x);
    engine_error err = {{0}};
    if (x && engine_explain_plan(s, r->plan, x, &err) == 0)
        out_explain_print(stdout, x);
    else
        fprintf(stderr, "shardscope eval: --explain: %s\n", x ? err.msg : "out of memory");
    free(x);
}

static int eval_one(const cli_scenario *cs, const cli_opts *o)
{
    const engine_scenario *s = &cs->scenario;
    engine_result r;
    engine_error err = {{0}};
    memset(&r, 0, sizeof r);
    if (engine_evaluate(s, cs->plan, &r, &err) != 0) {
        fprintf(stderr, "shardscope eval: %s\n", err.msg[0] ? err.msg : "cannot evaluate");
        return CLI_USAGE;
    }
    if (r.valid && r.fits && s->mc_samples > 0)
        engine_tails(s, &r);
    else
        r.p50_s = r.p99_s = 0; /* no Monte Carlo: no tails to show */
    int rc = CLI_OK;
    if (o->v.csv) {
        out_csv_result_header(stdout);
        out_csv_result_row(stdout, &r, 1);
    } else if (o->v.json) {
        cJSON *j = cli_result_json(s, &r);
        if (j) {
            cJSON_AddItemToObject(j, "scenario", cli_scenario_json(s));
            add_explain(j, s, &r);
        }
        rc = cli_json_print("eval", stdout, j) ? CLI_FAIL : CLI_OK;
    } else {
        print_one(s, &r);
        if (o->v.explain)
            print_explain(s, &r);
    }
    if (!r.valid) {
        char plan[96];
        plan_label(&r.plan, plan, sizeof plan);
        fprintf(stderr, "shardscope eval: plan %s is invalid: %s\n", plan, r.reason);
        return CLI_USAGE;
    }
    return rc;
}

/* --- ranking ----------------------------------------------------------- */

/* The plans that do not fit or are invalid (rest of n), with why. */
static void print_unfit(const engine_result *rs, int n, int rest)
{
    char a[32], b[32];
    if (rest <= 0)
        return;
    printf("\nnot fitting or invalid (%d):\n", rest);
    for (int i = 0; i < n; i++) {
        const engine_result *r = &rs[i];
        if (r->valid && r->fits)
            continue;
        printf("    %4d %4d %4d %4d  ", r->plan.tp, r->plan.pp, r->plan.dp, r->plan.ep);
        if (r->valid && r->reason[0])
            printf("does not fit: %s\n", r->reason);
        else if (r->valid)
            printf("does not fit: %s per GPU, %s usable\n",
                   fmt_bytes(r->mem.per_gpu_bytes, a, sizeof a),
                   fmt_bytes(r->mem.capacity_bytes, b, sizeof b));
        else
            printf("invalid: %s\n", r->reason[0] ? r->reason : "(no reason given)");
    }
}

/* The warnings of the plans that fit, after one blank line (none: nothing). */
static void print_rank_warnings(const engine_result *rs, int n)
{
    int warned = 0;
    for (int j = 0; j < n; j++) {
        const engine_result *r = &rs[j];
        if (!(r->valid && r->fits) || !r->warnings)
            continue;
        if (!warned++)
            printf("\n");
        for (unsigned bit = 1; bit < (1u << ENGINE_WARN_COUNT); bit <<= 1)
            if (r->warnings & bit)
                printf("warning: tp=%d pp=%d dp=%d ep=%d: %s\n", r->plan.tp, r->plan.pp,
                       r->plan.dp, r->plan.ep, engine_warning_text(bit));
    }
}

static void print_ranked(const engine_scenario *s, const engine_result *rs, int n)
{
    char a[32], b[32], c[32], d[32], e[32], g[32], h[32], m[32];
    print_header(s, stdout);
    printf("objective: %s; %d plans for %d GPUs\n\n", engine_objective_name(s->objective), n,
           s->gpus);
    int shown = 0;
    for (int i = 0; i < n; i++) {
        const engine_result *r = &rs[i];
        if (!(r->valid && r->fits))
            continue;
        if (!shown)
            printf("  # %4s %4s %4s %4s %6s %10s %10s %10s %11s %6s %7s %7s %10s %9s %10s %10s\n",
                   "TP", "PP", "DP", "EP", "BATCH", "TTFT", "ITL", "E2E", "TOK/S", "EFF", "C/COMM",
                   "BUBBLE", "MEM/GPU", "$/MTOK", "P50", "P99");
        shown++;
        char ratio[32];
        if (r->regime == 'C' || r->regime == 'M')
            snprintf(ratio, sizeof ratio,
                     r->compute_comm_ratio >= 100  ? "%.0f %c"
                     : r->compute_comm_ratio >= 10 ? "%.1f %c"
                                                   : "%.2f %c",
                     r->compute_comm_ratio, r->regime);
        else
            snprintf(ratio, sizeof ratio, "-");
        snprintf(g, sizeof g, "%.1f", r->tokens_per_s);
        printf("%3d %4d %4d %4d %4d %6d ", shown, r->plan.tp, r->plan.pp, r->plan.dp, r->plan.ep,
               r->batch);
        out_put_col(stdout, fmt_seconds(r->ttft_s, NULL, a, sizeof a), -10);
        printf(" ");
        out_put_col(stdout, fmt_seconds(r->itl_s, NULL, b, sizeof b), -10);
        printf(" ");
        out_put_col(stdout, fmt_seconds(r->e2e_s, NULL, c, sizeof c), -10);
        printf(" %11s %6s %7s %7s %10s %9s", g, fmt_percent(r->efficiency, d, sizeof d),
               ratio, fmt_percent(r->bubble_fraction, e, sizeof e),
               fmt_bytes(r->mem.per_gpu_bytes, m, sizeof m),
               fmt_usd(r->cost_per_mtok_usd, h, sizeof h));
        if (i < EVAL_TAILS_FOR && s->mc_samples > 0 && r->p99_s > 0) {
            printf(" ");
            out_put_col(stdout, fmt_seconds(r->p50_s, NULL, a, sizeof a), -10);
            printf(" ");
            out_put_col(stdout, fmt_seconds(r->p99_s, NULL, a, sizeof a), -10);
        }
        printf("\n");
    }
    if (!shown)
        printf("no plan fits on %d GPUs.\n", s->gpus);
    print_unfit(rs, n, n - shown);
    print_rank_warnings(rs, n);
    printf("\nBATCH sequences per replica (the most loaded); TTFT prefill, ITL one decode\n"
           "step, E2E = TTFT + (gen - 1) x ITL; TOK/S generated tokens/s (all replicas); EFF\n"
           "speedup/N; C/COMM compute/communication ratio (C compute-bound, M comm-bound);\n"
           "MEM/GPU in GB (1e9 bytes); $/MTOK USD per 1M tokens; P50/P99 end-to-end\n"
           "latency, Monte Carlo, for the top %d.\n",
           EVAL_TAILS_FOR);
}

static int eval_rank(const cli_scenario *cs, const cli_opts *o)
{
    const engine_scenario *s = &cs->scenario;
    int cap = engine_plan_count(s);
    if (cap < 1)
        cap = 1;
    engine_result *rs = calloc((size_t)cap, sizeof *rs);
    if (!rs) {
        fprintf(stderr, "shardscope eval: out of memory for %d plans\n", cap);
        return CLI_FAIL;
    }
    engine_error err = {{0}};
    int n = engine_rank(s, rs, cap, EVAL_TAILS_FOR, &err);
    if (n < 0) {
        fprintf(stderr, "shardscope eval: %s\n", err.msg[0] ? err.msg : "cannot rank plans");
        free(rs);
        return CLI_USAGE;
    }
    int rc = CLI_OK;
    if (o->v.csv) {
        out_csv_result_header(stdout);
        for (int i = 0; i < n; i++)
            out_csv_result_row(stdout, &rs[i], i < EVAL_TAILS_FOR && s->mc_samples > 0);
    } else if (o->v.json) {
        cJSON *root = cJSON_CreateObject();
        if (root) {
            cJSON_AddItemToObject(root, "scenario", cli_scenario_json(s));
            cJSON *arr = cJSON_AddArrayToObject(root, "plans");
            for (int i = 0; i < n && arr; i++) {
                /* Only the first EVAL_TAILS_FOR have Monte Carlo tails. */
                engine_result r = rs[i];
                if (i >= EVAL_TAILS_FOR || s->mc_samples == 0)
                    r.p50_s = r.p99_s = 0;
                cJSON *pj = cli_result_json(s, &r);
                if (pj && o->v.explain)
                    add_explain(pj, s, &r);
                cJSON_AddItemToArray(arr, pj);
            }
            if (n > 0) /* the first plan of the ranking: the one to run */
                add_explain(root, s, &rs[0]);
        }
        rc = cli_json_print("eval", stdout, root) ? CLI_FAIL : CLI_OK;
    } else {
        print_ranked(s, rs, n);
        if (o->v.explain && n > 0)
            print_explain(s, &rs[0]);
    }
    free(rs);
    return rc;
}

/* The usage error of a mode given with what it cannot take: "shardscope
 * eval: MODE; cannot be combined with CLASH" on stderr.  Returns CLI_USAGE. */
static int eval_clash(const char *mode, const char *clash)
{
    fprintf(stderr, "shardscope eval: %s; cannot be combined with %s\n", mode, clash);
    return CLI_USAGE;
}

/* --pareto sweeps every plan and batch itself: a plan, a batch or a load
 * given with it is a usage error, and so is --csv. */
static int eval_pareto_checked(const cli_scenario *cs, const cli_opts *o)
{
    const char *clash = o->v.csv                         ? "--csv"
                        : cs->has_plan                   ? "a plan (--tp/--pp/--dp/--ep)"
                        : CLI_SEEN(o, batch)             ? "--batch"
                        : CLI_SEEN(o, total_concurrency) ? "--total-concurrency"
                                                         : NULL;
    if (clash)
        return eval_clash("--pareto: sweeps every plan and batch itself", clash);
    return cli_eval_pareto(cs, o);
}

/* --disagg ranks every plan and split of the GPUs: a plan, --csv,
 * --pareto or --total-concurrency with it is a usage error. */
static int eval_disagg_checked(const cli_scenario *cs, const cli_opts *o)
{
    const char *clash = o->v.csv                         ? "--csv"
                        : cs->has_plan                   ? "a plan (--tp/--pp/--dp/--ep)"
                        : o->v.pareto                    ? "--pareto"
                        : CLI_SEEN(o, total_concurrency) ? "--total-concurrency"
                                                         : NULL;
    if (clash)
        return eval_clash("--disagg: ranks every plan and xPyD split itself", clash);
    return cli_eval_disagg(cs, o);
}

/* eval over the options with --scenario FILE merged in (*merged, *sf). */
static int eval_run(const cli_opts *o, const preset_db *db, const cli_scenario_file *sf);

int cli_eval_run(const cli_opts *o, const preset_db *db)
{
    if (o->v.csv && o->v.json) {
        fprintf(stderr, "shardscope eval: --csv: cannot be combined with --json\n");
        return CLI_USAGE;
    }
    if (!o->v.scenario_file)
        return eval_run(o, db, NULL);
    cli_opts *merged = malloc(sizeof *merged);
    cli_scenario_file sf;
    engine_error err = {{0}};
    if (!merged) {
        fprintf(stderr, "shardscope eval: out of memory\n");
        return CLI_FAIL;
    }
    *merged = *o;
    int rc;
    if (cli_scenario_file_merge(o->v.scenario_file, merged, &sf, &err) != 0) {
        rc = cli_fail("eval", &err);
    } else {
        if (sf.note[0])
            fprintf(stderr, "shardscope eval: --scenario: note: %s: unknown fields ignored: %s\n",
                    o->v.scenario_file, sf.note);
        rc = eval_run(merged, db, &sf);
        cli_scenario_file_free(&sf);
    }
    free(merged);
    return rc;
}

static int eval_run(const cli_opts *o, const preset_db *db, const cli_scenario_file *sf)
{
    cli_scenario *cs = malloc(sizeof *cs);
    if (!cs) {
        fprintf(stderr, "shardscope eval: out of memory\n");
        return CLI_FAIL;
    }
    engine_error err = {{0}};
    int rc;
    if (cli_scenario_load(o, db, CLI_NEED_ALL | CLI_ALLOW_LOAD, "eval", cs, &err) != 0) {
        cli_scenario_file_blame(sf, &err);
        rc = cli_fail("eval", &err);
    } else if (o->v.save_scenario &&
               cli_scenario_file_save(o->v.save_scenario, o, cs, &err) != 0) {
        fprintf(stderr, "shardscope eval: --save-scenario: %s\n", err.msg);
        rc = CLI_FAIL;
    } else {
        /* Throughput and cost rank at a load: each plan's largest batch
         * unless --batch or --total-concurrency sets one. */
        engine_scenario *s = &cs->scenario;
        if (!cs->has_plan && s->objective != ENGINE_OBJ_LATENCY && !CLI_SEEN(o, batch) &&
            !CLI_SEEN(o, total_concurrency))
            s->batch_max = 1;
        if (o->v.pareto)
            rc = eval_pareto_checked(cs, o);
        else if (o->v.eval_disagg)
            rc = eval_disagg_checked(cs, o);
        else
            rc = cs->has_plan ? eval_one(cs, o) : eval_rank(cs, o);
    }
    free(cs);
    return rc;
}
