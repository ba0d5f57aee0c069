/*
 * recommend_fleet.c - `shardscope recommend --rate R --ttft-ms X --itl-ms Y`:
 * the cheapest plan and GPU count meeting the targets at a percentile at
 * that rate (engine/fleet.h), why, the next two alternatives with their
 * simulated load figures, and the launch lines of the chosen plan.  All
 * arithmetic is in engine/fleet.c; this file checks flags and prints.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "cli.h"
#include "cli_common.h"
#include "fleet.h"
#include "json.h"
#include "launch.h"
#include "recommend_fleet.h"

#define CMD "recommend"
#define FLEET_PER_NODE 8 /* recommend's default --gpus-per-node */

int cli_recommend_is_fleet(const cli_opts *o)
{
    return CLI_SEEN(o, load_rate);
}

static int usage(const char *msg)
{
    fprintf(stderr, "shardscope " CMD ": %s\n", msg);
    return CLI_USAGE;
}

int cli_recommend_fleet_flags(const cli_opts *o)
{
    if (cli_recommend_is_fleet(o))
        return 0;
    if (CLI_SEEN(o, slo_percentile))
        return usage("--slo-percentile: only with --rate (fleet sizing)");
    if (CLI_SEEN(o, disagg))
        return usage("--disagg: only with --rate (fleet sizing)");
    if (CLI_SEEN(o, requests))
        return usage("--requests: only with --rate (fleet sizing)");
    return 0;
}

/* Flags that fleet sizing refuses or needs; fills q's targets and rate. */
static int fleet_request(const cli_opts *o, engine_fleet_request *q)
{
    const char *v = o->v.load_rate;
    char *end = NULL;
    double rate = v ? strtod(v, &end) : 0;
    if (!v || end == v || *end || !isfinite(rate) || !(rate > 0)) {
        fprintf(stderr, "shardscope " CMD ": --rate: expected requests/s above 0, got '%s'\n",
                v ? v : "");
        return CLI_USAGE;
    }
    if (!CLI_SEEN(o, ttft_ms) || !CLI_SEEN(o, itl_ms))
        return usage("--rate: fleet sizing needs both targets, --ttft-ms and --itl-ms");
    if (CLI_SEEN(o, concurrency) || CLI_SEEN(o, batch))
        return usage("--concurrency/--batch: with --rate the search chooses the concurrency "
                     "(max-num-seqs)");
    if (CLI_SEEN(o, objective))
        return usage("--objective: with --rate the answer is the cheapest fleet meeting the "
                     "targets");
    q->rate = rate;
    q->ttft_slo_s = o->v.ttft_ms / 1e3;
    q->tpot_slo_s = o->v.itl_ms / 1e3;
    q->slo_percentile = CLI_SEEN(o, slo_percentile) ? o->v.slo_percentile : 99;
    q->disagg = (engine_fleet_disagg)o->v.disagg;
    q->requests = CLI_SEEN(o, requests) ? o->v.requests : 0;
    return 0;
}

/* --- text ------------------------------------------------------------------ */

static char *fs(double v, char *b, size_t n)
{
    return fmt_seconds(v, NULL, b, n);
}

static char *opt_name(const engine_fleet_option *o, char *b, size_t n)
{
    if (o->disagg) {
        char d[64], pa[32], pd[32];
        engine_disagg_name(o->dplan, d, sizeof d);
        engine_disagg_pool_name(o->dplan.prefill, pa, sizeof pa);
        engine_disagg_pool_name(o->dplan.decode, pd, sizeof pd);
        char dt[48];
        if (o->prefill_dtype != o->dtype)
            snprintf(dt, sizeof dt, "%s prefill, %s decode", engine_dtype_name(o->prefill_dtype),
                     engine_dtype_name(o->dtype));
        else
            snprintf(dt, sizeof dt, "%s", engine_dtype_name(o->dtype));
        snprintf(b, n, "%s (%d prefill x %s, %d decode x %s%s), %s%s%s", d,
                 o->dplan.prefill.dp, pa, o->dplan.decode.dp, pd,
                 o->dplan.decode.ep > o->dplan.decode.tp ? ", DP attention" : "", dt,
                 o->spec ? ", speculation " : "", o->spec ? engine_spec_method_name(o->spec) : "");
        return b;
    }
    int k = snprintf(b, n, "%d x TP%d", o->plan.dp, o->plan.tp);
    if (o->plan.pp > 1 && k > 0 && (size_t)k < n)
        k += snprintf(b + k, n - (size_t)k, " PP%d", o->plan.pp);
    if (o->plan.ep > 1 && k > 0 && (size_t)k < n)
        k += snprintf(b + k, n - (size_t)k, " EP%d", o->plan.ep);
    if (k > 0 && (size_t)k < n)
        k += snprintf(b + k, n - (size_t)k, " replica%s", o->plan.dp == 1 ? "" : "s");
    if (o->plan.ep > o->plan.tp && k > 0 && (size_t)k < n)
        k += snprintf(b + k, n - (size_t)k, " (DP attention, an EP group over %d replicas)",
                      o->plan.ep / o->plan.tp);
    if (k > 0 && (size_t)k < n)
        snprintf(b + k, n - (size_t)k, ", %s%s%s", engine_dtype_name(o->dtype),
                 o->spec ? ", speculation " : "", o->spec ? engine_spec_method_name(o->spec) : "");
    return b;
}

static void print_option(const engine_fleet_request *q, const char *head,
                         const engine_fleet_option *o)
{
    char a[256], c[32], t1[32], t2[32], p[16];
    printf("%s%s: %d GPU%s", head, opt_name(o, a, sizeof a), o->gpus, o->gpus == 1 ? "" : "s");
    if (o->cost_per_hour_usd > 0)
        printf(", %s/h", fmt_usd(o->cost_per_hour_usd, c, sizeof c));
    printf(", max-num-seqs %d%s\n", o->max_num_seqs,
           o->within_limit ? "" : " (beyond --gpus-max)");
    snprintf(p, sizeof p, "p%g", q->slo_percentile);
    printf("      simulated: %s TTFT %s, %s TPOT %s, goodput %.3f requests/s, served %.3f "
           "requests/s%s\n",
           p, fs(o->sim.ttft_at_slo_s, t1, sizeof t1), p, fs(o->sim.tpot_at_slo_s, t2, sizeof t2),
           o->sim.goodput_requests_per_s, o->sim.requests_per_s,
           o->sim.overloaded ? ", OVERLOADED" : "");
    printf("      sustainable rate %.3f requests/s", o->sustainable_rate);
    if (o->disagg)
        printf(" (prefill pool %.3f, decode pool %.3f)", o->prefill_rate, o->decode_rate);
    printf("\n");
    /* eval's cross-node warnings, in eval's words (xPyD: each pool's) */
    for (unsigned bit = 1; bit < (1u << ENGINE_WARN_COUNT); bit <<= 1) {
        if (o->disagg && (o->prefill_warnings & bit))
            printf("      warning (the prefill pool): %s\n", engine_warning_text(bit));
        if (o->warnings & bit)
            printf("      warning%s: %s\n", o->disagg ? " (the decode pool)" : "",
                   engine_warning_text(bit));
    }
}

/* The warnings of o (both pools of an xPyD plan) as eval's --json
 * "warnings" list: eval's sentences, each once. */
static void warnings_json(cJSON *j, const engine_fleet_option *o)
{
    cJSON *w = cJSON_AddArrayToObject(j, "warnings");
    unsigned all = o->warnings | (o->disagg ? o->prefill_warnings : 0);
    for (unsigned bit = 1; bit < (1u << ENGINE_WARN_COUNT); bit <<= 1)
        if (all & bit)
            cJSON_AddItemToArray(w, cJSON_CreateString(engine_warning_text(bit)));
}

static void why_lines(const engine_fleet_request *q, const engine_fleet_result *r,
                      double wall_s)
{
    char a[32], b[32], c[32], tr[32], nm[256];
    const engine_fleet_option *o = r->have_choice ? &r->chosen : &r->closest;
    printf("why:\n");
    printf("  - searched %d replica units over the allowed dtypes%s: %d candidates passed the "
           "analytic screen, %d simulations confirmed the cheapest (wall time %s)\n",
           r->units, r->disagg_searched ? " and their prefill/decode pairs" : "", r->candidates,
           r->simulations, fs(wall_s, nm, sizeof nm));
    if (r->cands_dropped + r->units_dropped > 0)
        printf("  - %d replica units and %d screened candidates past the search's tables were "
               "not tried: a cheaper plan may exist\n", r->units_dropped, r->cands_dropped);
    if (r->unsearched > 0)
        printf("  - the search stopped at its cap of %d simulations with %d candidate%s untried "
               "or untrimmed that could need fewer GPUs: a cheaper plan may exist\n",
               q->max_sims > 0 ? q->max_sims : FLEET_MAX_SIMS, r->unsearched,
               r->unsearched == 1 ? "" : "s");
    if (!r->have_choice && !r->have_closest) {
        printf("  - no plan holds even one sequence on these GPUs\n");
        return;
    }
    if (o->disagg)
        printf("  - a prefill replica computes a %d-token prompt in %s; its KV transfer takes %s, "
               "sent layer by layer under the prefill, and adds %s to TTFT; a decode replica "
               "at %d sequences steps in %s (target %s)\n",
               q->base.prompt, fs(o->prefill_s, a, sizeof a), fs(o->transfer_s, tr, sizeof tr),
               fs(o->transfer_exposed_s, b, sizeof b), o->max_num_seqs,
               fs(o->itl_s, c, sizeof c), fs(q->tpot_slo_s, nm, sizeof nm));
    else
        printf("  - one replica prefills a %d-token prompt in %s (target %s TTFT) and, at %d "
               "sequences, decodes a step in %s (target %s TPOT)\n",
               q->base.prompt, fs(o->prefill_s, a, sizeof a), fs(q->ttft_slo_s, b, sizeof b),
               o->max_num_seqs, fs(o->itl_s, c, sizeof c), fs(q->tpot_slo_s, nm, sizeof nm));
    printf("  - the screen sized it at %d GPU%s for %g requests/s at %.0f %% utilisation",
           o->screen_gpus, o->screen_gpus == 1 ? "" : "s", q->rate, 100 * FLEET_UTILISATION);
    if (o->bumps)
        printf("; the simulation missed a target, so %d replica%s added", o->bumps,
               o->bumps > 1 ? "s were" : " was");
    else if (o->trimmed)
        printf("; the simulation met the targets with %d replica%s fewer", o->trimmed,
               o->trimmed > 1 ? "s" : "");
    printf("\n");
    if (r->disagg_searched && r->have_choice) {
        if (o->disagg && r->have_best_agg)
            printf("  - disaggregated: %d GPUs against %d for the cheapest aggregated plan "
                   "(%s)\n",
                   o->gpus, r->best_agg.gpus, opt_name(&r->best_agg, nm, sizeof nm));
        else if (o->disagg)
            printf("  - disaggregated: no aggregated plan meets the targets within the limit\n");
        else if (r->have_best_disagg)
            printf("  - aggregated: the cheapest disaggregated plan meeting the targets needs "
                   "%d GPUs (%s); a tie goes to aggregated\n",
                   r->best_disagg.gpus, opt_name(&r->best_disagg, nm, sizeof nm));
        else if (r->disagg_screen_gpus >= o->gpus)
            printf("  - aggregated: a disaggregated plan needs at least %d GPUs by the screen "
                   "(a pool each)\n", r->disagg_screen_gpus);
        else
            printf("  - aggregated: no disaggregated plan met the targets within the limit\n");
    }
}

/* The plan of the launch lines for pool `role` of o (ENGINE_LAUNCH_SERVE:
 * the aggregated plan; xPyD: the pool's, dp its replicas, so the lines
 * say how many servers the pool starts) evaluated at o's concurrency into
 * *er; 0 when it evaluates. */
static int launch_eval(const engine_fleet_request *q, const engine_fleet_option *o,
                       engine_launch_role role, engine_scenario *s, engine_result *er)
{
    engine_plan p = role == ENGINE_LAUNCH_SERVE     ? o->plan
                    : role == ENGINE_LAUNCH_PREFILL ? o->dplan.prefill
                                                    : o->dplan.decode;
    engine_fleet_pool_scenario(q, o, role == ENGINE_LAUNCH_PREFILL, p, s);
    s->batch = o->max_num_seqs;
    return engine_evaluate(s, p, er, NULL) == 0 && er->valid ? 0 : -1;
}

static void print_launch(const engine_fleet_request *q, const engine_fleet_option *o,
                         engine_launch_role role, const char *what)
{
    engine_scenario s;
    engine_result er;
    if (launch_eval(q, o, role, &s, &er) != 0)
        return;
    char line[ENGINE_LAUNCH_MAX];
    printf("launch%s:\n", what);
    for (int f = 0; f < ENGINE_LAUNCH_COUNT; f++)
        if (engine_launch_role_line((engine_launch_fw)f, role, &s, &er, line, sizeof line) == 0)
            printf("  %-7s %s\n", engine_launch_name((engine_launch_fw)f), line);
}

static void print_text(const engine_fleet_request *q, const engine_fleet_result *r,
                       double wall_s)
{
    const engine_scenario *s = &q->base;
    char a[32], b[32];
    printf("Fleet for %s on %s at %g requests/s (prompt %d, output %d tokens): p%g TTFT <= %s, "
           "p%g TPOT <= %s\n",
           fmt_model_name(s->model),
           fmt_gpu_name(s->gpu), q->rate, s->prompt, s->gen,
           q->slo_percentile, fs(q->ttft_slo_s, a, sizeof a), q->slo_percentile,
           fs(q->tpot_slo_s, b, sizeof b));
    if (r->have_choice) {
        print_option(q, "answer: ", &r->chosen);
    } else if (r->status == ENGINE_FLEET_MORE_GPUS) {
        printf("answer: INFEASIBLE within %d GPUs; the cheapest that meets the targets:\n",
               q->gpus_max);
        print_option(q, "closest: ", &r->closest);
    } else {
        printf("answer: INFEASIBLE: no plan meets both targets at this rate%s\n",
               r->have_closest ? "; the nearest:" : "");
        if (r->have_closest)
            print_option(q, "closest: ", &r->closest);
    }
    why_lines(q, r, wall_s);
    if (r->n_alts) {
        printf("alternatives:\n");
        for (int i = 0; i < r->n_alts; i++) {
            char h[16];
            snprintf(h, sizeof h, "  %d. ", i + 1);
            print_option(q, h, &r->alt[i]);
        }
    }
    if (!r->have_choice)
        return;
    const engine_fleet_option *o = &r->chosen;
    if (o->disagg) {
        print_launch(q, o, ENGINE_LAUNCH_PREFILL, " (the prefill pool)");
        print_launch(q, o, ENGINE_LAUNCH_DECODE, " (the decode pool)");
    } else {
        print_launch(q, o, ENGINE_LAUNCH_SERVE, "");
    }
}

/* --- JSON ------------------------------------------------------------------ */

static cJSON *load_json(const engine_fleet_option *o)
{
    cJSON *l = cJSON_CreateObject();
    cJSON_AddItemToObject(l, "ttft_s", out_sim_pct_json(&o->sim.ttft));
    cJSON_AddItemToObject(l, "tpot_s", out_sim_pct_json(&o->sim.tpot));
    cJSON_AddItemToObject(l, "e2e_s", out_sim_pct_json(&o->sim.e2e));
    cli_json_add_number(l, "ttft_at_slo_s", o->sim.ttft_at_slo_s);
    cli_json_add_number(l, "tpot_at_slo_s", o->sim.tpot_at_slo_s);
    cJSON_AddBoolToObject(l, "slo_met", o->sim.slo_met);
    cli_json_add_number(l, "goodput_requests_per_s", o->sim.goodput_requests_per_s);
    cli_json_add_number(l, "requests_per_s", o->sim.requests_per_s);
    cli_json_add_number(l, "output_tokens_per_s", o->sim.output_tokens_per_s);
    cJSON_AddBoolToObject(l, "overloaded", o->sim.overloaded);
    cli_json_add_number(l, "sustainable_rate", o->sustainable_rate);
    cli_json_add_number(l, "mean_batch", o->sim.mean_batch);
    cli_json_add_number(l, "kv_use", o->sim.kv_use);
    if (o->disagg) {
        cli_json_add_number(l, "prefill_pool_rate", o->prefill_rate);
        cli_json_add_number(l, "decode_pool_rate", o->decode_rate);
    }
    return l;
}

static cJSON *option_json(const engine_fleet_option *o)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "kind", o->disagg ? "disaggregated" : "aggregated");
    if (o->disagg) {
        cJSON_AddNullToObject(j, "plan");
        cJSON *d = cJSON_AddObjectToObject(j, "disagg");
        char nm[64];
        engine_disagg_name(o->dplan, nm, sizeof nm);
        cJSON_AddStringToObject(d, "name", nm);
        cJSON_AddItemToObject(d, "prefill", out_plan_json(&o->dplan.prefill));
        cJSON_AddItemToObject(d, "decode", out_plan_json(&o->dplan.decode));
        cJSON_AddNumberToObject(d, "prefill_replicas", o->dplan.prefill.dp);
        cJSON_AddNumberToObject(d, "decode_replicas", o->dplan.decode.dp);
        cJSON_AddStringToObject(d, "prefill_dtype", engine_dtype_name(o->prefill_dtype));
        cli_json_add_number(d, "transfer_s", o->transfer_s);
        cli_json_add_number(d, "transfer_exposed_s", o->transfer_exposed_s);
    } else {
        cJSON_AddItemToObject(j, "plan", out_plan_json(&o->plan));
        cJSON_AddNullToObject(j, "disagg");
    }
    cJSON_AddStringToObject(j, "dtype", engine_dtype_name(o->dtype));
    cJSON_AddStringToObject(j, "spec_method", engine_spec_method_name(o->spec));
    cJSON_AddNumberToObject(j, "gpus", o->gpus);
    out_json_add_positive(j, "cost_per_hour_usd", o->cost_per_hour_usd);
    cJSON_AddNumberToObject(j, "max_num_seqs", o->max_num_seqs);
    cJSON_AddBoolToObject(j, "within_limit", o->within_limit);
    cJSON_AddNumberToObject(j, "screen_gpus", o->screen_gpus);
    cJSON_AddNumberToObject(j, "replicas_added", o->bumps);
    cJSON_AddNumberToObject(j, "replicas_trimmed", o->trimmed);
    cJSON_AddBoolToObject(j, "dp_attention", o->disagg ? o->dplan.decode.ep > o->dplan.decode.tp
                                                       : o->plan.ep > o->plan.tp);
    cli_json_add_number(j, "prefill_s", o->prefill_s);
    cli_json_add_number(j, "itl_s", o->itl_s);
    warnings_json(j, o);
    cJSON_AddItemToObject(j, "load", load_json(o));
    return j;
}

static void launch_json(cJSON *root, const char *key, const engine_fleet_request *q,
                        const engine_fleet_option *o, engine_launch_role role)
{
    engine_scenario s;
    engine_result er;
    if (launch_eval(q, o, role, &s, &er) != 0) {
        cJSON_AddNullToObject(root, key);
        return;
    }
    cJSON *l = cJSON_AddObjectToObject(root, key);
    char line[ENGINE_LAUNCH_MAX];
    for (int f = 0; f < ENGINE_LAUNCH_COUNT && l; f++) {
        const char *name = engine_launch_name((engine_launch_fw)f);
        if (engine_launch_role_line((engine_launch_fw)f, role, &s, &er, line, sizeof line) == 0)
            cJSON_AddStringToObject(l, name, line);
        else
            cJSON_AddNullToObject(l, name);
    }
}

static void add_launches(cJSON *root, const engine_fleet_request *q, const engine_fleet_result *r)
{
    if (!r->have_choice) {
        cJSON_AddNullToObject(root, "launch");
        cJSON_AddNullToObject(root, "launch_prefill");
        return;
    }
    const engine_fleet_option *o = &r->chosen;
    if (!o->disagg) {
        launch_json(root, "launch", q, o, ENGINE_LAUNCH_SERVE);
        cJSON_AddNullToObject(root, "launch_prefill");
        return;
    }
    launch_json(root, "launch", q, o, ENGINE_LAUNCH_DECODE);
    launch_json(root, "launch_prefill", q, o, ENGINE_LAUNCH_PREFILL);
}

static int print_json(const engine_fleet_request *q, const engine_fleet_result *r, unsigned aq)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return CLI_FAIL;
    cJSON_AddItemToObject(root, "scenario", cli_scenario_json(&q->base));
    cJSON *rq = cJSON_AddObjectToObject(root, "request");
    cli_json_add_number(rq, "rate", q->rate);
    cli_json_add_number(rq, "ttft_target_s", q->ttft_slo_s);
    cli_json_add_number(rq, "tpot_target_s", q->tpot_slo_s);
    cli_json_add_number(rq, "slo_percentile", q->slo_percentile);
    cJSON_AddNumberToObject(rq, "gpus_max", q->gpus_max);
    cJSON_AddStringToObject(rq, "disagg", engine_fleet_disagg_name(q->disagg));
    cJSON_AddNumberToObject(rq, "requests", q->requests ? q->requests : FLEET_DEFAULT_REQUESTS);
    cJSON *al = cJSON_AddArrayToObject(rq, "allow_quant");
    for (int d = 0; d < ENGINE_DTYPE_COUNT; d++)
        if (aq & (1u << d))
            cJSON_AddItemToArray(al, cJSON_CreateString(engine_dtype_name((engine_dtype)d)));
    cJSON *as = cJSON_AddArrayToObject(rq, "allow_spec");
    for (int m = 0; m < ENGINE_SPEC_COUNT; m++)
        if (q->allow_spec & (1u << m))
            cJSON_AddItemToArray(as, cJSON_CreateString(engine_spec_method_name(
                                         (engine_spec_method)m)));
    cJSON_AddStringToObject(root, "verdict", engine_fleet_status_name(r->status));
    if (r->have_choice) {
        cJSON *c = option_json(&r->chosen);
        cJSON *it;
        cJSON_ArrayForEach(it, c)
            cJSON_AddItemReferenceToObject(root, it->string, it);
        cJSON_AddItemToObject(root, "chosen", c);
    } else {
        cJSON_AddNullToObject(root, "chosen");
    }
    cJSON *alts = cJSON_AddArrayToObject(root, "alternatives");
    for (int i = 0; i < r->n_alts; i++)
        cJSON_AddItemToArray(alts, option_json(&r->alt[i]));
    if (r->have_closest)
        cJSON_AddItemToObject(root, "closest", option_json(&r->closest));
    else
        cJSON_AddNullToObject(root, "closest");
    cJSON *s = cJSON_AddObjectToObject(root, "search");
    cJSON_AddNumberToObject(s, "units", r->units);
    cJSON_AddNumberToObject(s, "candidates", r->candidates);
    cJSON_AddNumberToObject(s, "simulations", r->simulations);
    cJSON_AddBoolToObject(s, "disagg_searched", r->disagg_searched);
    cJSON_AddBoolToObject(s, "capped", r->sims_capped);
    cJSON_AddNumberToObject(s, "unsearched", r->unsearched);
    cJSON_AddNumberToObject(s, "dropped", r->cands_dropped + r->units_dropped);
    add_launches(root, q, r);
    return cli_json_print(CMD, stdout, root) ? CLI_FAIL : CLI_OK;
}

/* --- entry ----------------------------------------------------------------- */

int cli_recommend_fleet(const cli_opts *o, const cli_scenario *cs, unsigned allow_quant,
                        unsigned allow_spec)
{
    engine_fleet_request q;
    memset(&q, 0, sizeof q);
    int rc = fleet_request(o, &q);
    if (rc != 0)
        return rc;
    q.base = cs->scenario;
    if (!CLI_SEEN(o, gpus_per_node))
        q.base.gpus_per_node = FLEET_PER_NODE;
    q.gpus_max = CLI_SEEN(o, gpus_max) ? o->v.gpus_max
                 : CLI_SEEN(o, gpus)   ? cs->scenario.gpus
                                       : 0;
    q.allow_quant = allow_quant;
    q.allow_spec = allow_spec;
    q.seed = cs->scenario.seed;
    engine_error err = {{0}};
    size_t bytes = engine_fleet_workspace_bytes(&q);
    if (bytes == 0 && engine_fleet_check(&q, &err) != 0)
        return cli_fail(CMD, &err);
    void *work = malloc(bytes);
    engine_fleet_result *r = calloc(1, sizeof *r);
    rc = CLI_FAIL;
    double t0 = calib_now_s();
    if (!work || !r) {
        fprintf(stderr, "shardscope " CMD ": out of memory\n");
    } else if (engine_fleet_run(&q, r, work, bytes, &err) != 0) {
        rc = cli_fail(CMD, &err);
    } else {
        if (q.gpus_max == 0)
            q.gpus_max = FLEET_DEFAULT_GPUS_MAX;
        if (o->v.json) {
            rc = print_json(&q, r, allow_quant);
        } else {
            print_text(&q, r, calib_now_s() - t0);
            rc = CLI_OK;
        }
    }
    free(r);
    free(work);
    return rc;
}
