/*
 * validate.c - `shardscope validate`: the engine against the shipped
 * table of published measurements (presets/validation_cases.c), one table
 * per category (n, median and 90th-percentile absolute error, worst ratio,
 * speed bias), the overall line and the targets; --cases lists every case,
 * --json and --csv give the same numbers for scripts.  The "serving" row
 * runs the serving table (presets/validation_serving.c) through the load
 * simulation and reports its median error of TTFT and TPOT below
 * saturation against the 25 % target.  The shipped presets are used alone,
 * so a user preset never changes the verdict.  The exit
 * status is 0 unless a case cannot be built (a missing preset: 1); a missed
 * target is reported, not an error (the per-case assertions live in
 * tests/test_validation.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_common.h"
#include "explain.h"
#include "json.h"

#include "validation.h"

/* Targets (issue "Truthful answers"). */
#define TARGET_MEDIAN_ALL 0.10
#define TARGET_MEDIAN_CAT 0.15
#define TARGET_WORST 2.0
/* Target of issue "Serving under load": TTFT and TPOT below saturation. */
#define TARGET_SERVING 0.25
#define SERVING_LATENCY ((1u << VAL_FIG_TTFT) | (1u << VAL_FIG_TPOT))
#define SERVING_ALL ((1u << VAL_FIG_COUNT) - 1)

static const cli_opt VALIDATE_OPTS[] = {
    {.name = "--cases", .kind = CLI_OPT_FLAG, .off = CLI_AT(cases),
     .help = "also list every case: id, metric, measured, predicted,\n"
             "ratio (and every serving row's figures)"},
    {.name = "--json", .kind = CLI_OPT_FLAG, .off = CLI_AT(json),
     .help = "one object {summary: [...], cases: [...]} (SI units)"},
    {.name = "--csv", .kind = CLI_OPT_FLAG, .off = CLI_AT(csv),
     .help = "one line per case (SI units)"},
    {.name = "--explain", .kind = CLI_OPT_STRING, .arg = "ID", .off = CLI_AT(val_explain),
     .help = "one static case alone: its source, setup, measured and\n"
             "predicted figure, note, and the kernels of its plan as\n"
             "evaluated (as eval --explain)"},
    {.name = NULL},
};

const cli_options cli_validate_options = {
    .tables = {VALIDATE_OPTS},
    .about = "Evaluate every published measurement of the shipped validation table\n"
             "(TensorRT-LLM, vLLM, SGLang, FasterTransformer, MLC, ... with their sources)\n"
             "on the shipped presets, and print per category: n, median and 90th\n"
             "percentile of |predicted/measured - 1| (APE), the worst ratio, and the\n"
             "speed bias (geometric mean of predicted/measured speed: > 1 optimistic).\n"
             "The serving row runs published serving runs under a stated load through\n"
             "the load simulation (shardscope load) and gives their TTFT and TPOT error\n"
             "below saturation against a 25 % target.\n",
    .footer = "Ratios are predicted/measured for times and rates alike.  Targets: median\n"
              "APE <= 10 % overall, <= 15 % per category, worst within 2x, no measured\n"
              "run refused as 'does not fit'.  Exit status 0 (targets are reported, not\n"
              "enforced), 1 when a case cannot be built from the presets.\n",
};

static int is_time(val_metric m)
{
    return m == VAL_TTFT || m == VAL_ITL || m == VAL_E2E;
}

static void shown(double v, val_metric m, char *buf, size_t len)
{
    if (is_time(m))
        fmt_seconds(v, NULL, buf, len);
    else if (m == VAL_SPEEDUP)
        snprintf(buf, len, "%.2f x", v);
    else
        snprintf(buf, len, "%.1f %s", v, m == VAL_TPS_GPU ? "tok/s/GPU" : "tok/s");
}

static void cats_text(unsigned cats, char *buf, size_t len)
{
    static const char *const SHORT[VAL_CAT_COUNT] = {"b1",    "batch",     "ttft",  "tp8",
                                                     "pp",    "moe-tp",    "moe-ep", "quant",
                                                     "h100+", "multinode", "small", "long",
                                                     "spec",  "serving",   "moe-ep<tp",
                                                     "sliding"};
    buf[0] = '\0';
    for (int c = 0; c < VAL_CAT_COUNT; c++)
        if (cats & (1u << c)) {
            size_t u = strlen(buf);
            snprintf(buf + u, len - u, "%s%s", u ? "," : "", SHORT[c]);
        }
}

/* --cases: every case with its measured and predicted figure. */
static void print_cases(const val_result *r, int n)
{
    printf("\n%-40s %-10s %14s %14s %7s %s\n", "case", "metric", "measured", "predicted",
           "ratio", "categories");
    for (int i = 0; i < n; i++) {
        const val_case *c = r[i].c;
        if (!r[i].ok) {
            printf("%-40.40s %-10s %s\n", c->id, val_metric_name(c->metric), r[i].error);
            continue;
        }
        char m[40], p[40], cats[128];
        shown(c->measured, c->metric, m, sizeof m);
        shown(r[i].predicted, c->metric, p, sizeof p);
        cats_text(r[i].categories, cats, sizeof cats);
        printf("%-40.40s %-10s %14s %14s %7.2f %s%s\n", c->id, val_metric_name(c->metric), m, p,
               r[i].ratio, cats, r[i].fits ? "" : " (refused: does not fit)");
    }
}

#define VAL_DISAGG_SHOWN 16

/* Everything one validation run evaluated. */
typedef struct vrun {
    const val_result *r; /* the static cases */
    int n;
    const val_serving_result *sv; /* the serving rows */
    int ns;
    val_disagg_result dg[VAL_DISAGG_SHOWN]; /* the disaggregated pools */
    int nd;
} vrun;

/* A category's statistics; the serving one over every published figure. */
static void cat_stats(const vrun *v, int c, val_stats *st)
{
    if (c == VAL_CAT_SERVING)
        val_serving_stats_of(v->sv, v->ns, SERVING_ALL, 0, st);
    else
        val_stats_of(v->r, v->n, c, st);
}

static int distinct_sources(const vrun *v)
{
    /* compare the part before the first ',' */
    int sources = 0;
    for (int i = 0; i < v->n; i++) {
        size_t li = strcspn(v->r[i].c->source, ",");
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = strcspn(v->r[j].c->source, ",") == li &&
                   !strncmp(v->r[i].c->source, v->r[j].c->source, li);
        sources += !seen;
    }
    return sources;
}

/* The category table; *missed, *missed_v: the worst static category above
 * its target (NULL when none). */
static void print_categories(const vrun *v, const val_stats *all, const char **missed,
                             double *missed_v)
{
    printf("%-24s %4s %11s %9s %12s %10s %8s\n", "category", "n", "median APE", "p90 APE",
           "worst ratio", "speed bias", "refused");
    *missed = NULL;
    *missed_v = 0;
    for (int c = 0; c <= VAL_CAT_COUNT; c++) {
        val_stats st;
        if (c == VAL_CAT_COUNT) {
            printf("%s\n", "---------------------------------------------------------------"
                           "--------------------");
            st = *all;
        } else {
            cat_stats(v, c, &st);
        }
        const char *name = c == VAL_CAT_COUNT ? "overall" : val_category_name((val_category)c);
        if (st.n == 0) {
            printf("%-24s %4d %11s %9s %12s %10s %8s\n", name, 0, "-", "-", "-", "-", "-");
            continue;
        }
        printf("%-24s %4d %10.1f%% %8.1f%% %12.2f %10.3f %8d\n", name, st.n,
               100 * st.median_ape, 100 * st.p90_ape, st.worst_ratio, st.speed_bias,
               st.refused);
        if (c < VAL_CAT_COUNT && c != VAL_CAT_SERVING && st.median_ape > TARGET_MEDIAN_CAT &&
            st.median_ape > *missed_v) {
            *missed = name;
            *missed_v = st.median_ape;
        }
    }
}

static void print_targets(const val_stats *all, const char *missed_cat, double missed_v)
{
    double worst = all->worst_ratio > 0 ? all->worst_ratio : 1;
    double worst_x = worst >= 1 ? worst : 1 / worst;
    printf("\nspeed bias: geometric mean of predicted/measured speed = %.3f (%s by %.1f %%)\n",
           all->speed_bias, all->speed_bias >= 1 ? "optimistic" : "pessimistic",
           100 * fabs(all->speed_bias - 1));
    printf("targets: median APE <= %.0f %% overall: %s (%.1f %%); every category <= %.0f %%: "
           "%s",
           100 * TARGET_MEDIAN_ALL, all->median_ape <= TARGET_MEDIAN_ALL ? "met" : "MISSED",
           100 * all->median_ape, 100 * TARGET_MEDIAN_CAT, missed_cat ? "MISSED" : "met");
    if (missed_cat)
        printf(" (worst: %s %.1f %%)", missed_cat, 100 * missed_v);
    printf(";\n         worst within %.0fx: %s (%.2fx); no measured run refused: %s (%d)\n",
           TARGET_WORST, worst_x <= TARGET_WORST ? "met" : "MISSED", worst_x,
           all->refused == 0 ? "met" : "MISSED", all->refused);
}

/* The guard against one table carrying the overall figure: the document
 * with the most cases of the overall row and the overall median without it. */
static void print_largest_doc(const vrun *v, const val_stats *all)
{
    char doc[256];
    int count = 0;
    val_stats rest;
    if (val_largest_doc(v->r, v->n, doc, sizeof doc, &count, &rest) != 0)
        return;
    printf("largest source: %d of the %d overall cases from %s;\n"
           "         without it, overall median APE %.1f %% over %d (p90 %.1f %%, bias %.3f)\n",
           count, all->n, doc, 100 * rest.median_ape, rest.n, 100 * rest.p90_ape,
           rest.speed_bias);
}

static const char *met(const val_stats *st)
{
    return st->n && st->median_ape <= TARGET_SERVING ? "met" : "MISSED";
}

/* The serving rows: their headline (TTFT and TPOT below saturation against
 * the 25 % target) and the rest. */
static void print_serving(const vrun *v)
{
    val_stats below, ttft, tpot, past, tps;
    val_serving_stats_of(v->sv, v->ns, SERVING_LATENCY, 1, &below);
    val_serving_stats_of(v->sv, v->ns, 1u << VAL_FIG_TTFT, 1, &ttft);
    val_serving_stats_of(v->sv, v->ns, 1u << VAL_FIG_TPOT, 1, &tpot);
    val_serving_stats_of(v->sv, v->ns, 1u << VAL_FIG_TPS, 0, &tps);
    val_serving_stats_of(v->sv, v->ns, SERVING_LATENCY, 2, &past);
    int sat = 0;
    for (int i = 0; i < v->ns; i++)
        sat += v->sv[i].ok && v->sv[i].saturated;
    printf("\nserving (%d published runs under load through the load simulation, %d past "
           "their knee):\n",
           v->ns, sat);
    printf("  below saturation, target median APE <= %.0f %% each: TTFT %s (%.1f %% over %d), "
           "TPOT %s (%.1f %% over %d);\n  both together %.1f %% over %d figures\n",
           100 * TARGET_SERVING, met(&ttft), 100 * ttft.median_ape, ttft.n, met(&tpot),
           100 * tpot.median_ape, tpot.n, 100 * below.median_ape, below.n);
    char doc[256];
    int count = 0;
    val_stats rest;
    if (val_serving_largest_doc(v->sv, v->ns, 1u << VAL_FIG_TTFT, 1, doc, sizeof doc, &count,
                                &rest) == 0)
        printf("  largest source of those TTFTs: %d of the %d from %s;\n"
               "  without it, TTFT below saturation %.1f %% over %d (p90 %.1f %%)\n",
               count, ttft.n, doc, 100 * rest.median_ape, rest.n, 100 * rest.p90_ape);
    printf("  TTFT and TPOT past the knee: median APE %.1f %% over %d; output tok/s: %.1f %% over "
           "%d\n",
           100 * past.median_ape, past.n, 100 * tps.median_ape, tps.n);
    val_stats sb, ss;
    int between = val_serving_steady_stats(v->sv, v->ns, &sb, &ss);
    if (sb.n > 0)
        printf("  GenAI-Perf closed loops below saturation, TTFT at the clients' burst start "
               "(above) and\n  at a steady start (load --closed-start steady): median APE "
               "%.1f %% and %.1f %% over %d;\n  the published TTFT lies between the two for "
               "%d of them\n",
               100 * sb.median_ape, 100 * ss.median_ape, sb.n, between);
}

/* The disaggregated pools: each row (few) and their median error. */
static void print_disagg(const vrun *v)
{
    double ape[VAL_DISAGG_SHOWN];
    int k = 0;
    for (int i = 0; i < v->nd; i++)
        if (v->dg[i].ok)
            ape[k++] = fabs(v->dg[i].ratio - 1);
    qsort(ape, (size_t)k, sizeof ape[0], engine_cmp_double);
    double med = k == 0 ? 0 : k % 2 ? ape[k / 2] : (ape[k / 2 - 1] + ape[k / 2]) / 2;
    printf("\ndisaggregated pools (%d pools of published prefill/decode-disaggregated "
           "deployments, each measured alone, through engine_disagg_evaluate): median APE "
           "%.1f %%\n",
           k, 100 * med);
    for (int i = 0; i < v->nd; i++) {
        const val_disagg_result *r = &v->dg[i];
        if (!r->ok)
            continue;
        printf("  %-36.36s %-7s %8.0f tok/s/GPU measured, %8.0f predicted, ratio %5.2f\n",
               r->c->id, r->c->pool == VAL_POOL_DECODE ? "decode" : "prefill", r->c->measured,
               r->predicted, r->ratio);
    }
}

static void print_serving_cases(const vrun *v)
{
    printf("\n%-40s %-5s %9s %10s %10s %6s %10s %10s %6s %9s %9s %6s\n", "serving row", "knee",
           "load", "TTFT", "predicted", "ratio", "TPOT", "predicted", "ratio", "tok/s",
           "predicted", "ratio");
    for (int i = 0; i < v->ns; i++) {
        const val_serving_result *r = &v->sv[i];
        const val_serving_case *c = &val_serving_cases[i];
        if (!r->ok) {
            printf("%-40.40s %s\n", c->id, r->error);
            continue;
        }
        char load[24], t[2][24], p[2][24];
        snprintf(load, sizeof load, c->arrival == VAL_ARRIVAL_CLOSED ? "C=%g"
                                    : c->arrival == VAL_ARRIVAL_POISSON ? "%g/s" : "offline",
                 c->load);
        for (int f = 0; f < 2; f++) {
            double m = val_serving_measured(c, (val_figure)f);
            if (m > 0)
                fmt_seconds(m, NULL, t[f], sizeof t[f]);
            else
                snprintf(t[f], sizeof t[f], "-");
            fmt_seconds(r->predicted[f], NULL, p[f], sizeof p[f]);
        }
        printf("%-40.40s %-5s %9s %10s %10s %6.2f %10s %10s %6.2f %9.1f %9.1f %6.2f%s\n", c->id,
               r->saturated ? "past" : "", load, t[0], p[0], r->ratio[0], t[1], p[1],
               r->ratio[1], c->tps, r->predicted[VAL_FIG_TPS], r->ratio[VAL_FIG_TPS],
               r->overloaded ? " (overloaded)" : "");
    }
}

static void print_text(const vrun *v, int cases)
{
    int ok = 0, oos = 0;
    for (int i = 0; i < v->n; i++) {
        ok += v->r[i].ok;
        oos += v->r[i].c->out_of_scope != 0;
    }
    printf("shardscope validation: %d published measurements from %d sources, %d evaluated, "
           "%d in scope\n\n",
           v->n, distinct_sources(v), ok, v->n - oos);
    val_stats all;
    val_stats_of(v->r, v->n, VAL_CAT_COUNT, &all);
    const char *missed_cat;
    double missed_v;
    print_categories(v, &all, &missed_cat, &missed_v);
    print_targets(&all, missed_cat, missed_v);
    print_largest_doc(v, &all);
    printf("APE = |predicted / measured - 1|; ratios are predicted / measured (times and rates\n"
           "alike); a case may count in several categories.  Speculative-decoding cases (speed-ups\n"
           "with over without) count in their own row only, not in overall or the error bands;\n"
           "the serving row's figures (the load simulation) are apart too.\n");
    print_serving(v);
    print_disagg(v);
    if (oos > 0) {
        printf("\nout of scope (software the engine does not model; not in the statistics):\n");
        for (int i = 0; i < v->n; i++)
            if (v->r[i].c->out_of_scope && v->r[i].ok)
                printf("  %-40.40s ratio %6.2f  %s\n", v->r[i].c->id, v->r[i].ratio,
                       v->r[i].c->note ? v->r[i].c->note : "");
    }
    if (cases) {
        print_cases(v->r, v->n);
        print_serving_cases(v);
    }
}

static void json_stats(cJSON *o, const val_stats *st)
{
    cJSON_AddNumberToObject(o, "n", st->n);
    cli_json_add_number(o, "median_ape", st->n ? st->median_ape : NAN);
    cli_json_add_number(o, "p90_ape", st->n ? st->p90_ape : NAN);
    cli_json_add_number(o, "worst_ratio", st->n ? st->worst_ratio : NAN);
    cli_json_add_number(o, "speed_bias", st->n ? st->speed_bias : NAN);
    cJSON_AddNumberToObject(o, "refused", st->refused);
}

/* A case's object with what every kind of row starts with: id, source,
 * setup. */
static cJSON *json_case_head(const char *id, const char *source, const char *setup)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", id);
    cJSON_AddStringToObject(o, "source", source);
    cJSON_AddStringToObject(o, "setup", setup);
    return o;
}

static cJSON *json_case(const val_result *r)
{
    const val_case *c = r->c;
    cJSON *o = json_case_head(c->id, c->source, c->setup);
    cJSON_AddStringToObject(o, "metric", val_metric_name(c->metric));
    cli_json_add_number(o, "measured", c->measured);
    cJSON_AddBoolToObject(o, "evaluated", r->ok != 0);
    if (r->ok) {
        cli_json_add_number(o, "predicted", r->predicted);
        cli_json_add_number(o, "ratio", r->ratio);
        cJSON_AddNumberToObject(o, "batch", r->batch);
        cJSON_AddBoolToObject(o, "fits", r->fits != 0);
        cJSON *cats = cJSON_AddArrayToObject(o, "categories");
        for (int k = 0; cats && k < VAL_CAT_COUNT; k++)
            if (r->categories & (1u << k))
                cJSON_AddItemToArray(cats, cJSON_CreateString(val_category_name((val_category)k)));
    } else {
        cJSON_AddStringToObject(o, "error", r->error);
    }
    cli_json_add_number(o, "band", c->band);
    if (c->note)
        cJSON_AddStringToObject(o, "note", c->note);
    else
        cJSON_AddNullToObject(o, "note");
    return o;
}

/* The static case named id, or NULL with a one-line error on stderr (the
 * closest id; a serving row named as what it is). */
static const val_case *find_case(const char *id)
{
    int best = -1, bd = 1 << 30;
    for (int i = 0; i < val_case_count; i++) {
        if (!strcmp(val_cases[i].id, id))
            return &val_cases[i];
        int d = engine_edit_distance(id, val_cases[i].id);
        if (d < bd) {
            bd = d;
            best = i;
        }
    }
    for (int i = 0; i < val_serving_case_count; i++)
        if (!strcmp(val_serving_cases[i].id, id)) {
            fprintf(stderr,
                    "shardscope validate: --explain: '%s' is a serving run (the load "
                    "simulation: shardscope load); --explain takes a static case\n",
                    id);
            return NULL;
        }
    if (best >= 0)
        fprintf(stderr,
                "shardscope validate: --explain: unknown case '%s'; close: %s (see "
                "'shardscope validate --cases')\n",
                id, val_cases[best].id);
    else
        fprintf(stderr, "shardscope validate: --explain: unknown case '%s'\n", id);
    return NULL;
}

/* --explain ID: one case as evaluated, and the kernels of its plan. */
static int explain_case(const preset_db *db, const char *id)
{
    const val_case *c = find_case(id);
    if (!c)
        return CLI_USAGE;
    engine_scenario s;
    engine_plan p;
    engine_error err = {{0}};
    val_result r;
    if (val_case_scenario(db, c, &s, &p, &err) != 0) {
        fprintf(stderr, "shardscope validate: %s\n", err.msg);
        return CLI_FAIL;
    }
    val_run_case(db, c, &r);
    if (!r.ok) {
        fprintf(stderr, "shardscope validate: %s\n", r.error);
        return CLI_FAIL;
    }
    char m[40], pr[40], cats[128];
    shown(c->measured, c->metric, m, sizeof m);
    shown(r.predicted, c->metric, pr, sizeof pr);
    cats_text(r.categories, cats, sizeof cats);
    printf("case        %s\n", c->id);
    printf("source      %s\n", c->source);
    printf("setup       %s\n", c->setup);
    printf("plan        %s on %d x %s: tp=%d pp=%d dp=%d ep=%d, batch %d (%s), prompt %d "
           "and gen %d tokens\n",
           s.model->name, s.gpus, s.gpu->name, p.tp, p.pp, p.dp, p.ep, s.batch,
           c->batch > 0 ? "the run's" : "the most the run holds", s.prompt, s.gen);
    printf("%-11s measured %s, predicted %s, ratio %.3f (band %.2f)%s\n",
           val_metric_name(c->metric), m, pr, r.ratio, c->band,
           r.fits ? "" : "; refused: does not fit");
    printf("categories  %s\n", c->out_of_scope ? "(out of scope)" : cats);
    if (c->note && c->note[0])
        printf("note        %s\n", c->note);
    if (c->spec_method != ENGINE_SPEC_NONE)
        printf("(the figure is the ratio of two evaluations, with and without speculation; "
               "the kernels below are the plan's without it)\n");
    else if (c->requests > 0 && c->batch <= 0 && c->metric == VAL_TPS_GPU)
        printf("(the figure is the offline run of its %d requests; the kernels below are "
               "one steady step of the batch)\n",
               c->requests);
    printf("\n");
    engine_explain *x = malloc(sizeof *x);
    if (!x || engine_explain_plan(&s, p, x, &err) != 0) {
        fprintf(stderr, "shardscope validate: --explain: %s\n", x ? err.msg : "out of memory");
        free(x);
        return CLI_FAIL;
    }
    out_explain_print(stdout, x);
    free(x);
    return CLI_OK;
}

/* One serving row: its load and, per published figure, measured, predicted,
 * ratio and band (SI). */
static cJSON *json_serving_case(const val_serving_result *r, const val_serving_case *c)
{
    static const char *const KEYS[VAL_FIG_COUNT] = {"ttft_s", "tpot_s", "output_tokens_per_s"};
    cJSON *o = json_case_head(c->id, c->source, c->setup);
    cJSON_AddStringToObject(o, "arrival", val_arrival_name(c->arrival));
    cli_json_add_number(o, "load", c->load);
    cJSON_AddNumberToObject(o, "prompt", c->prompt);
    cJSON_AddNumberToObject(o, "gen", c->gen);
    cJSON_AddStringToObject(o, "statistic", c->stat == VAL_STAT_MEAN ? "mean" : "p50");
    cJSON_AddBoolToObject(o, "saturated", r->saturated != 0);
    cJSON_AddBoolToObject(o, "evaluated", r->ok != 0);
    if (!r->ok)
        cJSON_AddStringToObject(o, "error", r->error);
    else
        cJSON_AddBoolToObject(o, "overloaded", r->overloaded != 0);
    for (int f = 0; f < VAL_FIG_COUNT; f++) {
        double m = val_serving_measured(c, (val_figure)f);
        if (m <= 0)
            continue;
        cJSON *g = cJSON_AddObjectToObject(o, KEYS[f]);
        cli_json_add_number(g, "measured", m);
        cli_json_add_number(g, "predicted", r->ok ? r->predicted[f] : NAN);
        cli_json_add_number(g, "ratio", r->ok ? r->ratio[f] : NAN);
        cli_json_add_number(g, "band", val_serving_band(c, (val_figure)f));
    }
    if (r->ok && r->ttft_steady > 0 && c->ttft_s > 0) {
        cJSON *g = cJSON_AddObjectToObject(o, "ttft_steady_s");
        cli_json_add_number(g, "predicted", r->ttft_steady);
        cli_json_add_number(g, "ratio", r->ttft_steady / c->ttft_s);
    } else {
        cJSON_AddNullToObject(o, "ttft_steady_s");
    }
    if (c->note)
        cJSON_AddStringToObject(o, "note", c->note);
    else
        cJSON_AddNullToObject(o, "note");
    return o;
}

static void json_serving(cJSON *root, const vrun *v)
{
    static const char *const KEYS[3] = {"ttft", "tpot", "both"};
    static const unsigned FIGS[3] = {1u << VAL_FIG_TTFT, 1u << VAL_FIG_TPOT, SERVING_LATENCY};
    cJSON *t = cJSON_AddObjectToObject(root, "serving_target");
    cli_json_add_number(t, "target", TARGET_SERVING);
    for (int k = 0; t && k < 3; k++) {
        val_stats st;
        val_serving_stats_of(v->sv, v->ns, FIGS[k], 1, &st);
        cJSON *g = cJSON_AddObjectToObject(t, KEYS[k]);
        json_stats(g, &st);
        cJSON_AddBoolToObject(g, "met", st.n && st.median_ape <= TARGET_SERVING);
    }
    char doc[256];
    int count = 0;
    val_stats rest;
    if (t && val_serving_largest_doc(v->sv, v->ns, 1u << VAL_FIG_TTFT, 1, doc, sizeof doc,
                                     &count, &rest) == 0) {
        cJSON *o = cJSON_AddObjectToObject(t, "ttft_largest_source");
        cJSON_AddStringToObject(o, "source", doc);
        cJSON_AddNumberToObject(o, "figures", count);
        json_stats(cJSON_AddObjectToObject(o, "ttft_without"), &rest);
    }
    cJSON *arr = cJSON_AddArrayToObject(root, "serving_cases");
    for (int i = 0; arr && i < v->ns; i++)
        cJSON_AddItemToArray(arr, json_serving_case(&v->sv[i], &val_serving_cases[i]));
}

static int print_json(const vrun *v)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return 1;
    cJSON *sum = cJSON_AddArrayToObject(root, "summary");
    for (int c = 0; sum && c <= VAL_CAT_COUNT; c++) {
        val_stats st;
        if (c == VAL_CAT_COUNT)
            val_stats_of(v->r, v->n, c, &st);
        else
            cat_stats(v, c, &st);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "category",
                                c == VAL_CAT_COUNT ? "overall" : val_category_name((val_category)c));
        json_stats(o, &st);
        cJSON_AddItemToArray(sum, o);
    }
    char doc[256];
    int count = 0;
    val_stats rest;
    if (val_largest_doc(v->r, v->n, doc, sizeof doc, &count, &rest) == 0) {
        cJSON *o = cJSON_AddObjectToObject(root, "largest_source");
        cJSON_AddStringToObject(o, "source", doc);
        cJSON_AddNumberToObject(o, "cases", count);
        cJSON *w = cJSON_AddObjectToObject(o, "overall_without");
        json_stats(w, &rest);
    }
    cJSON *arr = cJSON_AddArrayToObject(root, "cases");
    for (int i = 0; arr && i < v->n; i++)
        cJSON_AddItemToArray(arr, json_case(&v->r[i]));
    json_serving(root, v);
    cJSON *dga = cJSON_AddArrayToObject(root, "disagg_cases");
    for (int i = 0; i < v->nd; i++) {
        const val_disagg_result *d = &v->dg[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", d->c->id);
        cJSON_AddStringToObject(o, "source", d->c->source);
        cJSON_AddStringToObject(o, "pool", d->c->pool == VAL_POOL_DECODE ? "decode" : "prefill");
        cli_json_add_number(o, "measured_tokens_per_s_per_gpu", d->c->measured);
        cli_json_add_number(o, "predicted_tokens_per_s_per_gpu", d->predicted);
        cli_json_add_number(o, "ratio", d->ratio);
        cli_json_add_number(o, "band", d->c->band);
        cJSON_AddItemToArray(dga, o);
    }
    return cli_json_print("validate", stdout, root);
}

static void print_csv(const val_result *r, int n)
{
    printf("id,metric,measured,predicted,ratio,batch,fits,categories,source\n");
    for (int i = 0; i < n; i++) {
        const val_case *c = r[i].c;
        char cats[128] = "";
        cats_text(r[i].categories, cats, sizeof cats);
        out_csv_field(stdout, c->id);
        printf(",%s,%.17g,", val_metric_name(c->metric), c->measured);
        if (r[i].ok)
            printf("%.17g,%.6g,%d,%d,", r[i].predicted, r[i].ratio, r[i].batch, r[i].fits);
        else
            printf(",,,,");
        out_csv_field(stdout, cats);
        putchar(',');
        out_csv_field(stdout, c->source);
        putchar('\n');
    }
}

int cli_validate_run(const cli_opts *o, const preset_db *db)
{
    (void)db;
    int rc = CLI_OK, cases = o->v.cases, json = o->v.json, csv = o->v.csv;
    if (json && csv) {
        fprintf(stderr, "shardscope validate: --csv: cannot be combined with --json\n");
        return CLI_USAGE;
    }
    if (o->v.val_explain && (json || csv || cases)) {
        fprintf(stderr, "shardscope validate: --explain: cannot be combined with %s\n",
                json ? "--json" : csv ? "--csv" : "--cases");
        return CLI_USAGE;
    }
    preset_db *shipped = NULL;
    engine_error err = {{0}};
    if (preset_db_load("", &shipped, &err) != 0) {
        fprintf(stderr, "shardscope validate: %s\n", err.msg);
        return CLI_FAIL;
    }
    if (o->v.val_explain) {
        rc = explain_case(shipped, o->v.val_explain);
        preset_db_free(shipped);
        return rc;
    }
    val_result *r = calloc((size_t)(val_case_count > 0 ? val_case_count : 1), sizeof *r);
    val_serving_result *sv =
        calloc((size_t)(val_serving_case_count > 0 ? val_serving_case_count : 1), sizeof *sv);
    if (!r || !sv) {
        free(r);
        free(sv);
        preset_db_free(shipped);
        fprintf(stderr, "shardscope validate: out of memory\n");
        return CLI_FAIL;
    }
    vrun v;
    memset(&v, 0, sizeof v);
    v.r = r;
    v.n = val_run_all(shipped, r, NULL);
    v.sv = sv;
    v.ns = csv ? 0 : val_serving_run_all(shipped, sv);
    v.nd = val_disagg_case_count < VAL_DISAGG_SHOWN ? val_disagg_case_count : VAL_DISAGG_SHOWN;
    for (int i = 0; i < v.nd && !csv; i++)
        val_disagg_run_case(shipped, i, &v.dg[i]);
    int failed = 0;
    for (int i = 0; i < v.nd && !csv; i++)
        if (!v.dg[i].ok) {
            fprintf(stderr, "shardscope validate: %s\n", v.dg[i].error);
            failed++;
        }
    for (int i = 0; i < v.n; i++)
        if (!r[i].ok) {
            fprintf(stderr, "shardscope validate: %s\n", r[i].error);
            failed++;
        }
    for (int i = 0; i < v.ns; i++)
        if (!sv[i].ok) {
            fprintf(stderr, "shardscope validate: %s\n", sv[i].error);
            failed++;
        }
    if (json)
        rc = print_json(&v) ? CLI_FAIL : CLI_OK;
    else if (csv)
        print_csv(r, v.n);
    else
        print_text(&v, cases);
    free(r);
    free(sv);
    preset_db_free(shipped);
    if (failed)
        return CLI_FAIL;
    return rc;
}
