/*
 * validate.c - `shardscope validate`: the engine against the shipped
 * table of published measurements (presets/validation_cases.c), one table
 * per category (n, median and 90th-percentile absolute error, worst ratio,
 * speed bias), the overall line and the targets; --cases lists every case,
 * --json and --csv give the same numbers for scripts.  The shipped presets
 * are used alone, so a user preset never changes the verdict.  The exit
 * status is 0 unless a case cannot be built (a missing preset: 1); a missed
 * target is reported, not an error (the per-case assertions live in
 * tests/test_validation.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_common.h"
#include "json.h"

#include "validation.h"

/* Targets (issue "Truthful answers"). */
#define TARGET_MEDIAN_ALL 0.10
#define TARGET_MEDIAN_CAT 0.15
#define TARGET_WORST 2.0

static const cli_opt VALIDATE_OPTS[] = {
    {.name = "--cases", .kind = CLI_OPT_FLAG, .off = CLI_AT(cases),
     .help = "also list every case: id, metric, measured, predicted, ratio"},
    {.name = "--json", .kind = CLI_OPT_FLAG, .off = CLI_AT(json),
     .help = "one object {summary: [...], cases: [...]} (SI units)"},
    {.name = "--csv", .kind = CLI_OPT_FLAG, .off = CLI_AT(csv),
     .help = "one line per case (SI units)"},
    {.name = NULL},
};

const cli_options cli_validate_options = {
    .tables = {VALIDATE_OPTS},
    .about = "Evaluate every published measurement of the shipped validation table\n"
             "(TensorRT-LLM, vLLM, SGLang, FasterTransformer, MLC, ... with their sources)\n"
             "on the shipped presets, and print per category: n, median and 90th\n"
             "percentile of |predicted/measured - 1| (APE), the worst ratio, and the\n"
             "speed bias (geometric mean of predicted/measured speed: > 1 optimistic).\n",
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
    static const char *const SHORT[VAL_CAT_COUNT] = {"b1",   "batch", "ttft", "tp8",
                                                     "pp",   "moe-tp", "moe-ep", "quant",
                                                     "h100+", "multinode", "small", "long",
                                                     "spec"};
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

static void print_text(const val_result *r, int n, int cases)
{
    int ok = 0, sources = 0;
    for (int i = 0; i < n; i++)
        ok += r[i].ok;
    /* distinct sources: compare the part before the first ',' */
    for (int i = 0; i < n; i++) {
        size_t li = strcspn(r[i].c->source, ",");
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = strcspn(r[j].c->source, ",") == li &&
                   !strncmp(r[i].c->source, r[j].c->source, li);
        sources += !seen;
    }
    int oos = 0;
    for (int i = 0; i < n; i++)
        oos += r[i].c->out_of_scope != 0;
    printf("shardscope validation: %d published measurements from %d sources, %d evaluated, "
           "%d in scope\n\n",
           n, sources, ok, n - oos);
    printf("%-24s %4s %11s %9s %12s %10s %8s\n", "category", "n", "median APE", "p90 APE",
           "worst ratio", "speed bias", "refused");
    val_stats all;
    val_stats_of(r, n, VAL_CAT_COUNT, &all);
    const char *missed_cat = NULL;
    double missed_v = 0;
    for (int c = 0; c <= VAL_CAT_COUNT; c++) {
        val_stats st;
        if (c == VAL_CAT_COUNT) {
            printf("%s\n", "---------------------------------------------------------------"
                           "--------------------");
            st = all;
        } else {
            val_stats_of(r, n, c, &st);
        }
        const char *name = c == VAL_CAT_COUNT ? "overall" : val_category_name((val_category)c);
        if (st.n == 0) {
            printf("%-24s %4d %11s %9s %12s %10s %8s\n", name, 0, "-", "-", "-", "-", "-");
            continue;
        }
        printf("%-24s %4d %10.1f%% %8.1f%% %12.2f %10.3f %8d\n", name, st.n,
               100 * st.median_ape, 100 * st.p90_ape, st.worst_ratio, st.speed_bias,
               st.refused);
        if (c < VAL_CAT_COUNT && st.median_ape > TARGET_MEDIAN_CAT && st.median_ape > missed_v) {
            missed_cat = name;
            missed_v = st.median_ape;
        }
    }
    double worst = all.worst_ratio > 0 ? all.worst_ratio : 1;
    double worst_x = worst >= 1 ? worst : 1 / worst;
    printf("\nspeed bias: geometric mean of predicted/measured speed = %.3f (%s by %.1f %%)\n",
           all.speed_bias, all.speed_bias >= 1 ? "optimistic" : "pessimistic",
           100 * fabs(all.speed_bias - 1));
    printf("targets: median APE <= %.0f %% overall: %s (%.1f %%); every category <= %.0f %%: "
           "%s",
           100 * TARGET_MEDIAN_ALL, all.median_ape <= TARGET_MEDIAN_ALL ? "met" : "MISSED",
           100 * all.median_ape, 100 * TARGET_MEDIAN_CAT, missed_cat ? "MISSED" : "met");
    if (missed_cat)
        printf(" (worst: %s %.1f %%)", missed_cat, 100 * missed_v);
    printf(";\n         worst within %.0fx: %s (%.2fx); no measured run refused: %s (%d)\n",
           TARGET_WORST, worst_x <= TARGET_WORST ? "met" : "MISSED", worst_x,
           all.refused == 0 ? "met" : "MISSED", all.refused);
    printf("APE = |predicted / measured - 1|; ratios are predicted / measured (times and rates\n"
           "alike); a case may count in several categories.  Speculative-decoding cases (speed-ups\n"
           "with over without) count in their own row only, not in overall or the error bands.\n");
    if (oos > 0) {
        printf("\nout of scope (software the engine does not model; not in the statistics):\n");
        for (int i = 0; i < n; i++)
            if (r[i].c->out_of_scope && r[i].ok)
                printf("  %-40.40s ratio %6.2f  %s\n", r[i].c->id, r[i].ratio,
                       r[i].c->note ? r[i].c->note : "");
    }
    if (cases)
        print_cases(r, n);
}

static int print_json(const val_result *r, int n)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return 1;
    cJSON *sum = cJSON_AddArrayToObject(root, "summary");
    for (int c = 0; sum && c <= VAL_CAT_COUNT; c++) {
        val_stats st;
        val_stats_of(r, n, c, &st);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "category",
                                c == VAL_CAT_COUNT ? "overall" : val_category_name((val_category)c));
        cJSON_AddNumberToObject(o, "n", st.n);
        cli_json_add_number(o, "median_ape", st.n ? st.median_ape : NAN);
        cli_json_add_number(o, "p90_ape", st.n ? st.p90_ape : NAN);
        cli_json_add_number(o, "worst_ratio", st.n ? st.worst_ratio : NAN);
        cli_json_add_number(o, "speed_bias", st.n ? st.speed_bias : NAN);
        cJSON_AddNumberToObject(o, "refused", st.refused);
        cJSON_AddItemToArray(sum, o);
    }
    cJSON *arr = cJSON_AddArrayToObject(root, "cases");
    for (int i = 0; arr && i < n; i++) {
        const val_case *c = r[i].c;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", c->id);
        cJSON_AddStringToObject(o, "source", c->source);
        cJSON_AddStringToObject(o, "setup", c->setup);
        cJSON_AddStringToObject(o, "metric", val_metric_name(c->metric));
        cli_json_add_number(o, "measured", c->measured);
        cJSON_AddBoolToObject(o, "evaluated", r[i].ok != 0);
        if (r[i].ok) {
            cli_json_add_number(o, "predicted", r[i].predicted);
            cli_json_add_number(o, "ratio", r[i].ratio);
            cJSON_AddNumberToObject(o, "batch", r[i].batch);
            cJSON_AddBoolToObject(o, "fits", r[i].fits != 0);
            cJSON *cats = cJSON_AddArrayToObject(o, "categories");
            for (int k = 0; cats && k < VAL_CAT_COUNT; k++)
                if (r[i].categories & (1u << k))
                    cJSON_AddItemToArray(cats,
                                         cJSON_CreateString(val_category_name((val_category)k)));
        } else {
            cJSON_AddStringToObject(o, "error", r[i].error);
        }
        cli_json_add_number(o, "band", c->band);
        if (c->note)
            cJSON_AddStringToObject(o, "note", c->note);
        else
            cJSON_AddNullToObject(o, "note");
        cJSON_AddItemToArray(arr, o);
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
    preset_db *shipped = NULL;
    engine_error err = {{0}};
    if (preset_db_load("", &shipped, &err) != 0) {
        fprintf(stderr, "shardscope validate: %s\n", err.msg);
        return CLI_FAIL;
    }
    val_result *r = calloc((size_t)(val_case_count > 0 ? val_case_count : 1), sizeof *r);
    if (!r) {
        preset_db_free(shipped);
        fprintf(stderr, "shardscope validate: out of memory\n");
        return CLI_FAIL;
    }
    int n = val_run_all(shipped, r, NULL);
    int failed = 0;
    for (int i = 0; i < n; i++)
        if (!r[i].ok) {
            fprintf(stderr, "shardscope validate: %s\n", r[i].error);
            failed++;
        }
    if (json)
        rc = print_json(r, n) ? CLI_FAIL : CLI_OK;
    else if (csv)
        print_csv(r, n);
    else
        print_text(r, n, cases);
    free(r);
    preset_db_free(shipped);
    if (failed)
        return CLI_FAIL;
    return rc;
}
