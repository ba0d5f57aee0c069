/*
 * report.c - `shardscope report`: the tables of the seed scaling study
 * (000) computed by our engine (engine/report.c), printed as text, CSV or
 * JSON, optionally written one CSV per table (--out DIR) and drawn as SVG
 * figures (--plots DIR).  This file only lays numbers out: every value is
 * an engine result, converted to the unit its column name says.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report.h"
#include "cli.h"
#include "cli_common.h"
#include "json.h"
#include "plots.h"

#define CMD "report"
#define RT_MAX_COLS 17
#define RT_MAX_ROWS 24
#define RT_MAX_NOTES 20
#define RT_COUNT 7

static const char *const DEFAULT_MODELS[] = {"gpt2-124m", "llama-7b", "llama-13b", "llama-2-70b",
                                             "falcon-180b"};
static const char *const DEFAULT_LINKS[] = {"pcie3", "pcie4", "nvlink3", "nvlink4"};
#define DEFAULT_GPU "a100-80gb"
#define DEFAULT_PROMPT "512"
#define DEFAULT_FOCUS "llama-7b"

/* --- a generic table: text, CSV and JSON from one description ------------ */

typedef struct rt_cell {
    int kind;   /* 0 empty (null), 1 number, 2 text */
    double v;
    char s[80]; /* text; for an empty cell, what the text table shows */
} rt_cell;

typedef struct rtable {
    const char *name; /* CSV file stem and JSON key */
    char title[320];
    int ncols;
    char cols[RT_MAX_COLS][80]; /* units in the names: p50_ms, vram_per_gpu_gb */
    const char *fmt[RT_MAX_COLS];
    int nrows;
    rt_cell cell[RT_MAX_ROWS][RT_MAX_COLS];
    int nnotes;
    char notes[RT_MAX_NOTES][200];
} rtable;

static int rt_col(rtable *t, const char *name, const char *fmt)
{
    if (t->ncols >= RT_MAX_COLS)
        return RT_MAX_COLS - 1;
    snprintf(t->cols[t->ncols], sizeof t->cols[0], "%s", name);
    t->fmt[t->ncols] = fmt;
    return t->ncols++;
}

static int rt_row(rtable *t)
{
    return t->nrows < RT_MAX_ROWS ? t->nrows++ : RT_MAX_ROWS - 1;
}

static void rt_num(rtable *t, int r, int c, double v)
{
    rt_cell *x = &t->cell[r][c];
    if (isfinite(v)) {
        x->kind = 1;
        x->v = v;
    } else {
        x->kind = 0;
        snprintf(x->s, sizeof x->s, "-");
    }
}

static void rt_str(rtable *t, int r, int c, const char *s)
{
    rt_cell *x = &t->cell[r][c];
    x->kind = 2;
    snprintf(x->s, sizeof x->s, "%s", s);
}

static void rt_empty(rtable *t, int r, int c, const char *shown)
{
    rt_cell *x = &t->cell[r][c];
    x->kind = 0;
    snprintf(x->s, sizeof x->s, "%s", shown);
}

static void rt_note(rtable *t, const char *fmt, const char *a, const char *b)
{
    if (t->nnotes < RT_MAX_NOTES)
        snprintf(t->notes[t->nnotes++], sizeof t->notes[0], fmt, a, b);
}

static void cell_text(const rtable *t, int r, int c, char *buf, size_t len)
{
    const rt_cell *x = &t->cell[r][c];
    if (x->kind == 1)
        snprintf(buf, len, t->fmt[c] ? t->fmt[c] : "%g", x->v);
    else
        snprintf(buf, len, "%s", x->kind == 2 || x->s[0] ? x->s : "-");
}

/* A cell of t for out_table_print: the column names are the header. */
static const char *rt_text_cell(const void *ctx, int r, int c, char *buf, size_t len)
{
    const rtable *t = ctx;
    if (r < 0)
        return t->cols[c];
    cell_text(t, r, c, buf, len);
    return buf;
}

static void rt_print_text(FILE *f, const rtable *t)
{
    fprintf(f, "%s\n", t->title);
    out_table_print(f, t->ncols, t->nrows, NULL, "  ", rt_text_cell, t);
    for (int i = 0; i < t->nnotes; i++)
        fprintf(f, "  note: %s\n", t->notes[i]);
    fprintf(f, "\n");
}

static void rt_print_csv(FILE *f, const rtable *t)
{
    for (int c = 0; c < t->ncols; c++) {
        if (c)
            fputc(',', f);
        out_csv_field(f, t->cols[c]);
    }
    fputc('\n', f);
    for (int r = 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            const rt_cell *x = &t->cell[r][c];
            if (c)
                fputc(',', f);
            if (x->kind == 1)
                fprintf(f, "%.6g", x->v);
            else if (x->kind == 2)
                out_csv_field(f, x->s);
        }
        fputc('\n', f);
    }
}

static cJSON *rt_json(const rtable *t)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "title", t->title);
    cJSON *cols = cJSON_AddArrayToObject(o, "columns");
    for (int c = 0; c < t->ncols; c++)
        cJSON_AddItemToArray(cols, cJSON_CreateString(t->cols[c]));
    cJSON *rows = cJSON_AddArrayToObject(o, "rows");
    for (int r = 0; r < t->nrows; r++) {
        cJSON *row = cJSON_CreateObject();
        for (int c = 0; c < t->ncols; c++) {
            const rt_cell *x = &t->cell[r][c];
            if (x->kind == 1)
                cli_json_add_number(row, t->cols[c], x->v);
            else if (x->kind == 2)
                cJSON_AddStringToObject(row, t->cols[c], x->s);
            else
                cJSON_AddNullToObject(row, t->cols[c]);
        }
        cJSON_AddItemToArray(rows, row);
    }
    cJSON *notes = cJSON_AddArrayToObject(o, "notes");
    for (int i = 0; i < t->nnotes; i++)
        cJSON_AddItemToArray(notes, cJSON_CreateString(t->notes[i]));
    return o;
}

/* --- the seed's tables ----------------------------------------------------- */

static const char *mname(const engine_model *m)
{
    return m->name;
}

static double pct(double f)
{
    return 100.0 * f;
}

/* 1. top-ranked configuration per model */
static void table_top(const report_inputs *in, const report_tables *t, rtable *x)
{
    const char *gpu = in->base.gpu->name, *ref = in->ref_link->name;
    x->name = "top_config";
    snprintf(x->title, sizeof x->title,
             "Top-ranked configuration per model, >= 2 GPUs, no replicas (%s, %s)", gpu, ref);
    int c_model = rt_col(x, "model", NULL), c_strat = rt_col(x, "strategy", NULL);
    int c_tp = rt_col(x, "tp", "%.0f"), c_pp = rt_col(x, "pp", "%.0f");
    int c_gpus = rt_col(x, "gpus", "%.0f"), c_eff = rt_col(x, "efficiency_pct", "%.1f");
    int c_p50 = rt_col(x, "p50_ms", "%.1f"), c_p99 = rt_col(x, "p99_ms", "%.1f");
    int c_vram = rt_col(x, "vram_per_gpu_gb", "%.2f");
    for (int mi = 0; mi < in->n_models; mi++) {
        int r = rt_row(x);
        const engine_result *e = &t->top[mi];
        rt_str(x, r, c_model, mname(in->models[mi]));
        if (!t->top_found[mi]) {
            rt_str(x, r, c_strat, "none fits");
            for (int c = c_tp; c <= c_vram; c++)
                rt_empty(x, r, c, "-");
            continue;
        }
        rt_str(x, r, c_strat, report_strategy(&e->plan));
        rt_num(x, r, c_tp, e->plan.tp);
        rt_num(x, r, c_pp, e->plan.pp);
        rt_num(x, r, c_gpus, e->plan.tp * e->plan.pp * e->plan.dp);
        rt_num(x, r, c_eff, pct(e->efficiency));
        rt_num(x, r, c_p50, e->p50_s * 1e3);
        rt_num(x, r, c_p99, e->p99_s * 1e3);
        rt_num(x, r, c_vram, e->mem.per_gpu_bytes / 1e9);
    }
    rt_note(x, "%s%s", "efficiency = speedup against one ideal GPU / GPUs; P50/P99 are end-to-end "
                       "request latency from the seeded Monte Carlo",
            "");
}

/* 2. TP efficiency at 8 GPUs per interconnect (y); 3. compute/comm ratio (z) */
static void table_tp8(const report_inputs *in, const report_tables *t, rtable *y, rtable *z)
{
    const char *gpu = in->base.gpu->name;
    char col[80];
    y->name = "tp_efficiency_8gpu";
    snprintf(y->title, sizeof y->title, "TP efficiency at 8 GPUs by interconnect (%s)", gpu);
    z->name = "compute_comm_ratio";
    snprintf(z->title, sizeof z->title,
             "Compute/communication ratio at TP=8 (C compute-bound >= 1, M comm-bound < 1; %s)",
             gpu);
    rt_col(y, "model", NULL);
    rt_col(z, "model", NULL);
    for (int li = 0; li < in->n_links; li++) {
        snprintf(col, sizeof col, "%s_efficiency_pct", in->links[li]->name);
        rt_col(y, col, "%.1f");
        snprintf(col, sizeof col, "%s_ratio", in->links[li]->name);
        rt_col(z, col, "%.2f");
        snprintf(col, sizeof col, "%s_regime", in->links[li]->name);
        rt_col(z, col, NULL);
    }
    for (int mi = 0; mi < in->n_models; mi++) {
        int ry = rt_row(y), rz = rt_row(z);
        rt_str(y, ry, 0, mname(in->models[mi]));
        rt_str(z, rz, 0, mname(in->models[mi]));
        int noted = 0;
        for (int li = 0; li < in->n_links; li++) {
            const engine_result *e = &t->tp8[mi][li];
            if (!e->valid) {
                rt_empty(y, ry, 1 + li, "n/a");
                rt_empty(z, rz, 1 + 2 * li, "n/a");
                rt_empty(z, rz, 2 + 2 * li, "-");
                if (!noted++) {
                    rt_note(y, "%s: %s", mname(in->models[mi]), e->reason);
                    rt_note(z, "%s: %s", mname(in->models[mi]), e->reason);
                }
                continue;
            }
            rt_num(y, ry, 1 + li, pct(e->efficiency));
            rt_num(z, rz, 1 + 2 * li, e->compute_comm_ratio);
            char reg[2] = {e->regime, 0};
            rt_str(z, rz, 2 + 2 * li, reg);
            if (!e->fits && !noted++)
                rt_note(y, "%s: TP=8 does not fit (%s); its efficiency is shown anyway",
                        mname(in->models[mi]), e->reason);
        }
    }
}

/* 4. TP vs PP(m) vs hybrid */
static void table_tp_vs_pp(const report_inputs *in, const report_tables *t, rtable *x)
{
    const char *gpu = in->base.gpu->name, *ref = in->ref_link->name;
    const engine_model *focus = in->models[in->focus];
    x->name = "tp_vs_pp";
    snprintf(x->title, sizeof x->title, "TP vs PP(m) vs hybrid: %s on %s, %s (reference TP 8)",
             mname(focus), gpu, ref);
    int c_strat = rt_col(x, "strategy", NULL), c_tp = rt_col(x, "tp", "%.0f");
    int c_pp = rt_col(x, "pp", "%.0f"), c_gpus = rt_col(x, "gpus", "%.0f");
    int c_m = rt_col(x, "microbatches", "%.0f"), c_bub = rt_col(x, "bubble_pct", "%.1f");
    int c_eff = rt_col(x, "efficiency_pct", "%.1f");
    int c_tot = rt_col(x, "total_ms", "%.1f"), c_vs = rt_col(x, "vs_tp", "%.2f");
    for (int i = 0; i < t->n_splits; i++) {
        const report_split *sp = &t->splits[i];
        int r = rt_row(x);
        char label[32];
        if (sp->plan.pp > 1)
            snprintf(label, sizeof label, "%s(m=%d)", report_strategy(&sp->plan), sp->microbatches);
        else
            snprintf(label, sizeof label, "%s", report_strategy(&sp->plan));
        rt_str(x, r, c_strat, label);
        rt_num(x, r, c_tp, sp->plan.tp);
        rt_num(x, r, c_pp, sp->plan.pp);
        rt_num(x, r, c_gpus, sp->plan.tp * sp->plan.pp);
        if (sp->plan.pp > 1)
            rt_num(x, r, c_m, sp->microbatches);
        else
            rt_empty(x, r, c_m, "-");
        rt_num(x, r, c_bub, pct(sp->r.bubble_fraction));
        if (sp->r.valid) {
            rt_num(x, r, c_eff, pct(sp->r.efficiency));
            rt_num(x, r, c_tot, sp->r.e2e_s * 1e3);
            rt_num(x, r, c_vs, sp->vs_tp);
        } else {
            rt_empty(x, r, c_eff, "n/a");
            rt_empty(x, r, c_tot, "n/a");
            rt_empty(x, r, c_vs, "n/a");
            rt_note(x, "%s: %s", label, sp->r.reason);
        }
    }
    rt_note(x, "%s%s", "total_ms = TTFT + gen x ITL of one request; bubble = (pp-1)/(m+pp-1) of "
                       "prefill; decode keeps min(batch, pp) micro-batches in flight",
            "");
}

/* 5. minimum GPU count by GPU memory */
static void table_min_gpus(const report_inputs *in, const report_tables *t, rtable *x)
{
    char col[80];
    x->name = "min_gpus";
    const engine_framework *fw =
        in->base.framework ? in->base.framework : engine_framework_generic_ref();
    double usable = engine_scenario_usable_fraction(&in->base);
    snprintf(x->title, sizeof x->title,
             "Minimum GPU count by GPU memory (any plan, %s weights, %.0f%% of the %s memory "
             "usable)",
             engine_dtype_name(in->base.weight_dtype), 100 * usable,
             fw->mem_rule == ENGINE_MEM_FREE ? "free" : "total");
    rt_col(x, "model", NULL);
    for (int vi = 0; vi < REPORT_N_VRAM; vi++) {
        snprintf(col, sizeof col, "gpus_%.0fgb", in->vram_bytes[vi] / 1e9);
        rt_col(x, col, "%.0f");
    }
    char oom[24];
    snprintf(oom, sizeof oom, "OOM(>%d)", in->min_gpus_max);
    for (int mi = 0; mi < in->n_models; mi++) {
        int r = rt_row(x);
        rt_str(x, r, 0, mname(in->models[mi]));
        for (int vi = 0; vi < REPORT_N_VRAM; vi++) {
            if (t->min_gpus[mi][vi] > 0)
                rt_num(x, r, 1 + vi, t->min_gpus[mi][vi]);
            else
                rt_empty(x, r, 1 + vi, oom);
        }
    }
    rt_note(x, "%s%s", "powers of two; memory = weights/(tp*pp) + KV + workspace + runtime "
                       "overhead against capacity x usable fraction",
            "");
}

/* 6. cheapest configurations */
static void table_cheapest(const report_inputs *in, const report_tables *t, rtable *x)
{
    const char *gpu = in->base.gpu->name;
    const engine_model *focus = in->models[in->focus];
    x->name = "cheapest";
    snprintf(x->title, sizeof x->title,
             "Cheapest configurations by USD per 1M generated tokens: %s on %s ($%.2f/GPU-hour)",
             mname(focus), gpu, in->base.gpu->price_per_hour);
    int c_rank = rt_col(x, "rank", "%.0f");
    int c_strat = rt_col(x, "strategy", NULL), c_tp = rt_col(x, "tp", "%.0f");
    int c_pp = rt_col(x, "pp", "%.0f"), c_gpus = rt_col(x, "gpus", "%.0f");
    int c_link = rt_col(x, "interconnect", NULL);
    int c_usd = rt_col(x, "usd_per_mtok", "%.3f");
    int c_eff = rt_col(x, "efficiency_pct", "%.1f");
    for (int i = 0; i < t->n_cheap; i++) {
        const report_cheap *ch = &t->cheap[i];
        int r = rt_row(x);
        rt_num(x, r, c_rank, i + 1);
        rt_str(x, r, c_strat, report_strategy(&ch->r.plan));
        rt_num(x, r, c_tp, ch->r.plan.tp);
        rt_num(x, r, c_pp, ch->r.plan.pp);
        rt_num(x, r, c_gpus, ch->r.plan.tp * ch->r.plan.pp * ch->r.plan.dp);
        rt_str(x, r, c_link, ch->link >= 0 ? in->links[ch->link]->name : "none");
        rt_num(x, r, c_usd, ch->r.cost_per_mtok_usd);
        rt_num(x, r, c_eff, pct(ch->r.efficiency));
    }
    if (!t->n_cheap)
        rt_note(x, "%s has no price per GPU-hour in the presets%s", gpu, "");
    else
        rt_note(x, "%s%s", "plans without replicas on every GPU count and link; one GPU is "
                           "listed once (no interconnect); the seed's table starts at 2 GPUs",
                "");
}

/* 7. tail latency by interconnect */
static void table_tails(const report_inputs *in, const report_tables *t, rtable *x)
{
    const char *gpu = in->base.gpu->name;
    const engine_model *focus = in->models[in->focus];
    x->name = "tail_latency";
    snprintf(x->title, sizeof x->title,
             "Tail latency by interconnect: %s, TP 8 on %s (log-normal jitter sigma %.2f)",
             mname(focus), gpu, in->base.jitter_sigma);
    int c_link = rt_col(x, "interconnect", NULL), c_p50 = rt_col(x, "p50_ms", "%.1f");
    int c_p99 = rt_col(x, "p99_ms", "%.1f");
    int c_ratio = rt_col(x, "p99_over_p50", "%.3f");
    for (int li = 0; li < in->n_links; li++) {
        const engine_result *e = &t->tails[li];
        int r = rt_row(x);
        rt_str(x, r, c_link, in->links[li]->name);
        if (!e->valid) {
            rt_empty(x, r, c_p50, "n/a");
            rt_empty(x, r, c_p99, "n/a");
            rt_empty(x, r, c_ratio, "n/a");
            if (li == 0)
                rt_note(x, "%s: %s", mname(focus), e->reason);
            continue;
        }
        rt_num(x, r, c_p50, e->p50_s * 1e3);
        rt_num(x, r, c_p99, e->p99_s * 1e3);
        rt_num(x, r, c_ratio, e->p50_s > 0 ? e->p99_s / e->p50_s : NAN);
    }
    rt_note(x, "%s%s", "jitter slows each GPU's compute, not the links (README: Tails): P99 - "
                       "P50 is about the same on every link, so P99/P50 is larger where "
                       "communication is small (the seed jittered communication too)",
            "");
}

/* The seven tables of the report, in order. */
static void build_tables(const report_inputs *in, const report_tables *t, rtable *rt)
{
    table_top(in, t, &rt[0]);
    table_tp8(in, t, &rt[1], &rt[2]);
    table_tp_vs_pp(in, t, &rt[3]);
    table_min_gpus(in, t, &rt[4]);
    table_cheapest(in, t, &rt[5]);
    table_tails(in, t, &rt[6]);
}

/* --- entry ----------------------------------------------------------------- */

static const char *format_name(int i)
{
    static const char *const NAMES[] = {"text", "csv", "json"};
    return i >= 0 && i < 3 ? NAMES[i] : "?";
}
static const cli_enum FORMATS = {format_name, 3};
enum { FMT_TEXT = 0, FMT_CSV, FMT_JSON };

static const cli_opt REPORT_OPTS[] = {
    {.name = "--model", .kind = CLI_OPT_LIST, .arg = "M", .off = CLI_AT(models),
     .help = "a model row; repeat or comma-separate (default: gpt2-124m,\n"
             "llama-7b, llama-13b, llama-2-70b, falcon-180b: the seed's)"},
    {.name = "--gpu", .kind = CLI_OPT_STRING, .arg = "G", .off = CLI_AT(gpu),
     .help = "the GPU (default " DEFAULT_GPU ")"},
    {.name = "--link", .kind = CLI_OPT_STRING, .arg = "L", .off = CLI_AT(link),
     .help = "the reference link of the per-model tables (default: the\n"
             "GPU's own, nvlink3 for the A100)"},
    {.name = "--links", .kind = CLI_OPT_STRING, .arg = "LIST", .off = CLI_AT(links),
     .help = "interconnect columns (default pcie3,pcie4,nvlink3,nvlink4)"},
    {.name = "--focus", .kind = CLI_OPT_STRING, .arg = "M", .off = CLI_AT(focus),
     .help = "model of the TP-vs-PP, cost and tail tables (default llama-7b)"},
    {.name = "--format", .kind = CLI_OPT_ENUM, .arg = "F", .off = CLI_AT(format),
     .choices = &FORMATS,
     .help = "(default text; csv: every table, '# name' before each)"},
    {.name = "--out", .kind = CLI_OPT_STRING, .arg = "DIR", .off = CLI_AT(out),
     .help = "also write one CSV per table: DIR/<table>.csv"},
    {.name = "--plots", .kind = CLI_OPT_STRING, .arg = "DIR", .off = CLI_AT(plots),
     .help = "write the SVG figures: tp_scaling_efficiency, regime_heatmap,\n"
             "tp_vs_pp, pipeline_bubble, cost_efficiency, vram_frontier,\n"
             "pareto_frontier (the focus model on 8 GPUs)"},
    {.name = NULL},
};

const cli_options cli_report_options = {
    .tables = {REPORT_OPTS, cli_scenario_opts},
    .about = "The tables of the seed scaling study, computed by this engine: top-ranked\n"
             "configuration per model; TP efficiency at 8 GPUs per interconnect;\n"
             "compute/communication ratio with C/M; TP vs PP(m) vs hybrid with the bubble;\n"
             "minimum GPU count by GPU memory (8/24/40/80 GB); cheapest configurations by\n"
             "USD per 1M tokens; tail latency by interconnect.\n"
             "\n"
             "The workload defaults to prompt " DEFAULT_PROMPT " (one of the seed's sequence lengths;\n"
             "with gen 256 it fits GPT-2's 1024-token context); every model row must fit\n"
             "prompt + gen.\n",
    .footer = "Units are in the column names (_ms, _gb = 1e9 bytes, _pct, usd_per_mtok).\n",
};

/* mkdir -p */
static int ensure_dir(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "shardscope " CMD ": cannot create %s: %s\n", path, strerror(errno));
            return -1;
        }
        *p = '/';
    }
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return 0;
    fprintf(stderr, "shardscope " CMD ": cannot create %s: %s\n", dir, strerror(errno));
    return -1;
}

static int write_csvs(const char *dir, const rtable *rt, int n)
{
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.csv", dir, rt[i].name);
        FILE *f = fopen(path, "w");
        if (!f) {
            fprintf(stderr, "shardscope " CMD ": cannot write %s: %s\n", path, strerror(errno));
            return -1;
        }
        rt_print_csv(f, &rt[i]);
        if (fclose(f) != 0) {
            fprintf(stderr, "shardscope " CMD ": cannot write %s\n", path);
            return -1;
        }
    }
    return 0;
}

/* The model rows: every --model value split at commas into buf, or the
 * seed's five.  0, or -1 with err. */
static int model_names(const cli_opts *o, char *buf, size_t len, const char **names, int *n,
                       engine_error *err)
{
    *n = 0;
    if (!o->v.models.n) {
        for (size_t i = 0; i < sizeof DEFAULT_MODELS / sizeof DEFAULT_MODELS[0]; i++)
            names[(*n)++] = DEFAULT_MODELS[i];
        return 0;
    }
    size_t used = 0;
    for (int i = 0; i < o->v.models.n; i++) {
        int w = snprintf(buf + used, len - used, "%s", o->v.models.item[i]);
        if (w < 0 || (size_t)w >= len - used)
            return engine_errorf(err, "--model: the list is too long");
        for (char *tok = strtok(buf + used, ","); tok; tok = strtok(NULL, ",")) {
            if (*n >= REPORT_MAX_MODELS)
                return engine_errorf(err, "--model: at most %d models", REPORT_MAX_MODELS);
            names[(*n)++] = tok;
        }
        used += (size_t)w + 1;
    }
    return 0;
}

/* Resolve the model rows (each must fit prompt + gen) and the focus. */
static int load_models(const char *const *names, int n, const char *focus, const preset_db *db,
                       report_inputs *in, engine_model *hf, engine_error *err)
{
    for (int i = 0; i < n; i++) {
        const engine_model *m = cli_find_model(db, "--model", names[i], &hf[i], NULL, err);
        if (!m)
            return -1;
        engine_scenario one = in->base;
        one.model = m;
        int limit = engine_context_limit(&one);
        if (limit > 0 && (long long)one.prompt + one.gen > limit)
            return engine_errorf(err,
                                 "--prompt/--gen: prompt + gen = %lld tokens exceeds the context of "
                                 "%d tokens of %s (--max-model-len N overrides)",
                                 (long long)one.prompt + one.gen, limit, m->name);
        in->models[in->n_models++] = m;
    }
    in->focus = 0;
    int found = 0;
    for (int i = 0; i < in->n_models; i++)
        if (!strcmp(in->models[i]->name, focus ? focus : DEFAULT_FOCUS)) {
            in->focus = i;
            found = 1;
        }
    if (focus && !found)
        return engine_errorf(err, "--focus: '%s' is not one of the --model rows", focus);
    return 0;
}

/* The interconnect columns: --links a,b or the seed's four. */
static int load_links(const char *list, const preset_db *db, report_inputs *in,
                      engine_error *err)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list ? list : "");
    for (char *tok = list ? strtok(buf, ",") : NULL; tok; tok = strtok(NULL, ",")) {
        if (in->n_links >= REPORT_MAX_LINKS)
            return engine_errorf(err, "--links: at most %d links", REPORT_MAX_LINKS);
        if (!(in->links[in->n_links] = cli_find_link(db, "--links", tok, err)))
            return -1;
        in->n_links++;
    }
    for (size_t i = 0; !list && i < sizeof DEFAULT_LINKS / sizeof DEFAULT_LINKS[0]; i++) {
        const engine_link *l = preset_find_link(db, DEFAULT_LINKS[i]);
        if (l)
            in->links[in->n_links++] = l;
    }
    if (!in->n_links)
        return engine_errorf(err, "no interconnects to compare");
    return 0;
}

/* Everything report_compute needs, from the options: the scenario (one
 * model row and the report's defaults: the seed's GPU and prompt), the
 * model rows, the focus and the links.  0, or -1 with err. */
static int load_inputs(const cli_opts *o, const preset_db *db, cli_scenario *cs,
                       report_inputs *in, engine_model *hf, engine_error *err)
{
    char buf[4096];
    const char *names[REPORT_MAX_MODELS];
    int n = 0;
    if (model_names(o, buf, sizeof buf, names, &n, err) != 0)
        return -1;
    cli_opts so = *o;
    so.v.model = names[0];
    CLI_MARK(&so, model);
    if (!CLI_SEEN(o, gpu)) {
        so.v.gpu = DEFAULT_GPU;
        CLI_MARK(&so, gpu);
    }
    if (!CLI_SEEN(o, prompt)) { /* the seed's short sequence; fits GPT-2's 1024 with gen */
        so.v.prompt = atoi(DEFAULT_PROMPT);
        CLI_MARK(&so, prompt);
    }
    if (cli_scenario_load(&so, db, CLI_NEED_MODEL | CLI_NEED_GPU, CMD, cs, err) != 0)
        return -1;
    report_inputs_defaults(in, cs->scenario.gpu);
    in->base = cs->scenario;
    in->ref_link = cs->scenario.intra;
    if (load_models(names, n, o->v.focus, db, in, hf, err) != 0)
        return -1;
    return load_links(o->v.links, db, in, err);
}

/* --out DIR and --plots DIR.  0, or -1 after printing why. */
static int write_files(const cli_opts *o, const report_inputs *in, const report_tables *t,
                       const rtable *rt)
{
    if (o->v.out && (ensure_dir(o->v.out) != 0 || write_csvs(o->v.out, rt, RT_COUNT) != 0))
        return -1;
    if (o->v.plots) {
        char failed[4096];
        if (ensure_dir(o->v.plots) != 0)
            return -1;
        if (plots_write_report(o->v.plots, in, t, failed, sizeof failed) != 0) {
            fprintf(stderr, "shardscope " CMD ": cannot write %s: %s\n", failed, strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* The tables on stdout in the chosen format; the exit status. */
static int print_tables(int format, const report_inputs *in, const rtable *rt)
{
    if (format == FMT_JSON) {
        cJSON *root = cJSON_CreateObject();
        engine_scenario s = in->base;
        s.model = in->models[in->focus];
        cJSON_AddItemToObject(root, "scenario", cli_scenario_json(&s));
        cJSON *links = cJSON_AddArrayToObject(root, "links");
        for (int i = 0; i < in->n_links; i++)
            cJSON_AddItemToArray(links, cJSON_CreateString(in->links[i]->name));
        cJSON *tables = cJSON_AddObjectToObject(root, "tables");
        for (int i = 0; i < RT_COUNT; i++)
            cJSON_AddItemToObject(tables, rt[i].name, rt_json(&rt[i]));
        return cli_json_print(CMD, stdout, root) ? CLI_FAIL : CLI_OK;
    }
    if (format == FMT_TEXT) {
        char cal[ENGINE_NAME_MAX + 64];
        printf("shardscope report: %s, batch %d, prompt %d, gen %d tokens, %s weights; "
               "calibration: %s\n\n",
               fmt_gpu_name(in->base.gpu),
               in->base.batch, in->base.prompt, in->base.gen,
               engine_dtype_name(in->base.weight_dtype),
               out_calibration_label(in->base.calib, cal, sizeof cal));
    }
    for (int i = 0; i < RT_COUNT; i++) {
        if (format == FMT_CSV) {
            printf("# %s: %s\n", rt[i].name, rt[i].title);
            rt_print_csv(stdout, &rt[i]);
            printf("\n");
        } else {
            rt_print_text(stdout, &rt[i]);
        }
    }
    return CLI_OK;
}

int cli_report_run(const cli_opts *o, const preset_db *db)
{
    int rc = CLI_FAIL;
    cli_scenario *cs = calloc(1, sizeof *cs);
    report_inputs *in = calloc(1, sizeof *in);
    report_tables *t = calloc(1, sizeof *t);
    rtable *rt = calloc(RT_COUNT, sizeof *rt);
    engine_model *hf = calloc(REPORT_MAX_MODELS, sizeof *hf);
    engine_error err = {{0}};
    if (!cs || !in || !t || !rt || !hf) {
        fprintf(stderr, "shardscope " CMD ": out of memory\n");
    } else if (load_inputs(o, db, cs, in, hf, &err) != 0 || report_compute(in, t, &err) != 0) {
        rc = cli_fail(CMD, &err);
    } else {
        build_tables(in, t, rt);
        if (write_files(o, in, t, rt) == 0)
            rc = print_tables(o->v.format, in, rt);
    }
    free(hf);
    free(rt);
    free(t);
    free(in);
    free(cs);
    return rc;
}

int cli_cmd_report(int argc, char **argv, const preset_db *db)
{
    static const cli_command REPORT = {"report", NULL, NULL, &cli_report_options, cli_report_run};
    return cli_command_exec(&REPORT, argc, argv, db);
}
