/*
 * export.c - `e`: write the tables on screen (ranked plans, TP efficiency
 * by link, TP vs PP vs hybrid, heatmap, frontier, minimum GPU counts) to
 * NAME.csv and NAME.json in $SHARDSCOPE_EXPORT_DIR or the current
 * directory.  SI units in the files (seconds, bytes); the names say which.
 *
 * The JSON is built with the command line's writer (json.h): "scenario" is
 * eval's scenario echo and "plans" holds eval --json's plan objects, so a
 * plan that does not fit has null times, tokens_per_s and
 * cost_per_mtok_usd there as in the CLI; "schema_version" comes first.
 * The schema-1 names ("strategies", the scenario's intra_link,
 * prompt_tokens, gen_tokens and weight_dtype) went in schema_version 3
 * (README.md, "JSON schema versions").
 *
 * The CSV holds one block per table, separated by blank lines; every row
 * starts with the table's name; the plan rows are eval --csv's columns
 * (csv.h) after table, rank and plan.
 */
#include "explorer_int.h"
#include "csv.h"
#include "json.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const CMP_KIND[CMP_KINDS] = {"tp", "pp", "hybrid"};

/* The machine-readable plan label: always with EP ("TP8xPP1xDP1xEP1"). */
static void plan_str(engine_plan p, char *buf, size_t len)
{
    snprintf(buf, len, "TP%dxPP%dxDP%dxEP%d", p.tp, p.pp, p.dp, p.ep);
}

/* Plan i as shown: tails only where the Monte Carlo ran for it. */
static engine_result shown_plan(const exp_results *r, int i)
{
    engine_result p = r->plans[i];
    if (!r->tails_done[i])
        p.p50_s = p.p99_s = 0;
    return p;
}

static const char *heat_row_name(const explorer *x, int i)
{
    return x->r.heat_mode == HEAT_BY_GPUS ? x->db->links[i].name : x->db->models[i].name;
}

/* --- CSV ------------------------------------------------------------- */

static void csv_scenario(const explorer *x, FILE *f)
{
    const engine_scenario *s = &x->r.sc;
    char cal[160];
    fputs("table,model,gpu,gpus,gpus_per_node,intra_link,inter_link,vram_bytes,batch,"
          "prompt_tokens,gen_tokens,weight_dtype,microbatches,schedule,objective,"
          "calibration\nscenario,",
          f);
    out_csv_field(f, s->model->name);
    fputc(',', f);
    out_csv_field(f, s->gpu->name);
    fprintf(f, ",%d,%d,", s->gpus, s->gpus_per_node);
    out_csv_field(f, s->intra->name);
    fputc(',', f);
    out_csv_field(f, s->inter->name);
    fprintf(f, ",%.0f,%d,%d,%d,%s,%d,%s,%s,", s->vram_bytes, s->batch, s->prompt, s->gen,
            engine_dtype_name(s->weight_dtype), s->microbatches,
            engine_schedule_name(s->schedule), engine_objective_name(s->objective));
    out_csv_field(f, out_calibration_label(&x->cal.calib, cal, sizeof cal));
    fputs("\n\n", f);
}

static void csv_plans(const explorer *x, FILE *f)
{
    const exp_results *r = &x->r;
    char plan[64];
    fputs("table,rank,plan,", f);
    out_csv_result_header(f);
    for (int i = 0; i < r->n_plans; i++) {
        engine_result p = shown_plan(r, i);
        plan_str(p.plan, plan, sizeof plan);
        fprintf(f, "strategies,%d,%s,", i + 1, plan);
        out_csv_result_row(f, &p, 1);
    }
    fputc('\n', f);
}

static void csv_cells(const explorer *x, FILE *f)
{
    const exp_results *r = &x->r;
    char plan[64];
    fputs("table,link,gpus,plan,valid,fits,efficiency,compute_comm_ratio,regime\n", f);
    for (int li = 0; li < x->ctl.s[CTL_INTRA].max + 1; li++)
        for (int c = 0; c < EXP_EFF_COUNTS; c++) {
            const exp_cell *e = &r->eff[li][c];
            plan_str(e->plan, plan, sizeof plan);
            fputs("tp_efficiency,", f);
            out_csv_field(f, x->db->links[li].name);
            fprintf(f, ",%d,%s,%d,%d,%.6g,%.6g,%c\n", r->eff_counts[c], plan, e->ok, e->fits,
                    e->efficiency, e->ratio, e->regime ? e->regime : '-');
        }
    fputs("\ntable,kind,gpus,plan,valid,fits,efficiency,itl_s\n", f);
    for (int k = 0; k < CMP_KINDS; k++)
        for (int c = 0; c < EXP_CMP_COUNTS; c++) {
            const exp_cell *e = &r->cmp[k][c];
            plan_str(e->plan, plan, sizeof plan);
            fprintf(f, "tp_vs_pp,%s,%d,%s,%d,%d,%.6g,%.6g\n", CMP_KIND[k], r->cmp_counts[c],
                    plan, e->ok, e->fits, e->efficiency, e->itl_s);
        }
    fputc('\n', f);
}

static void csv_heat(const explorer *x, FILE *f)
{
    const exp_results *r = &x->r;
    char plan[64];
    fputs("table,row,column,plan,valid,compute_comm_ratio,regime\n", f);
    for (int i = 0; i < r->heat_rows; i++)
        for (int c = 0; c < r->heat_cols; c++) {
            const exp_cell *e = &r->heat[i][c];
            plan_str(e->plan, plan, sizeof plan);
            fputs(r->heat_mode == HEAT_BY_GPUS ? "regime_gpus_x_links," : "regime_models_x_links,",
                  f);
            out_csv_field(f, heat_row_name(x, i));
            fputc(',', f);
            if (r->heat_mode == HEAT_BY_GPUS)
                fprintf(f, "%d", r->heat_counts[c]);
            else
                out_csv_field(f, x->db->links[c].name);
            fprintf(f, ",%s,%d,%.6g,%c\n", plan, e->ok, e->ratio, e->regime ? e->regime : '-');
        }
    fputc('\n', f);
}

static void csv_memory(const explorer *x, FILE *f)
{
    const exp_results *r = &x->r;
    char plan[64];
    fputs("table,gpus,plan,valid,weights_bytes,kv_bytes,activation_bytes,overhead_bytes,"
          "per_gpu_bytes,capacity_bytes,fits\n",
          f);
    for (int c = 0; c < EXP_FRONT_COUNTS; c++) {
        const engine_memory *m = &r->front_mem[c];
        plan_str(r->front_plan[c], plan, sizeof plan);
        if (r->front_ok[c])
            fprintf(f, "vram_frontier,%d,%s,1,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%d\n",
                    r->front_counts[c], plan, m->weights_bytes, m->kv_bytes,
                    m->activation_bytes, m->overhead_bytes, m->per_gpu_bytes, m->capacity_bytes,
                    m->fits);
        else
            fprintf(f, "vram_frontier,%d,,0,,,,,,,0\n", r->front_counts[c]);
    }
    fputs("\ntable,gpu_memory_bytes,min_gpus\n", f);
    for (int i = 0; i < EXP_MEM_SIZES; i++)
        fprintf(f, "min_gpus,%.0f,%d\n", r->mem_sizes_gb[i] * 1e9, r->min_gpus[i]);
}

static void write_csv(const explorer *x, FILE *f)
{
    csv_scenario(x, f);
    csv_plans(x, f);
    csv_cells(x, f);
    csv_heat(x, f);
    csv_memory(x, f);
}

/* --- JSON ------------------------------------------------------------ */

static void json_plans(const explorer *x, cJSON *root)
{
    const exp_results *r = &x->r;
    cJSON *plans = cJSON_AddArrayToObject(root, "plans");
    for (int i = 0; plans && i < r->n_plans; i++) {
        engine_result p = shown_plan(r, i);
        cJSON_AddItemToArray(plans, cli_result_json(&r->sc, &p));
    }
}

static cJSON *json_cell(const exp_cell *e)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    char plan[64], regime[2] = {e->regime ? e->regime : '-', '\0'};
    plan_str(e->plan, plan, sizeof plan);
    cJSON_AddStringToObject(o, "plan", plan);
    cJSON_AddBoolToObject(o, "valid", e->ok != 0);
    cJSON_AddBoolToObject(o, "fits", e->fits != 0);
    cli_json_add_number(o, "efficiency", e->efficiency);
    cli_json_add_number(o, "compute_comm_ratio", e->ratio);
    cJSON_AddStringToObject(o, "regime", regime);
    return o;
}

/* An array entry {KEY: name-or-count, "gpus"/"column": ..., "cell": {...}}. */
static void json_tables(const explorer *x, cJSON *root)
{
    const exp_results *r = &x->r;
    cJSON *a = cJSON_AddArrayToObject(root, "tp_efficiency");
    for (int li = 0; a && li < x->ctl.s[CTL_INTRA].max + 1; li++)
        for (int c = 0; c < EXP_EFF_COUNTS; c++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(a, o);
            cJSON_AddStringToObject(o, "link", x->db->links[li].name);
            cJSON_AddNumberToObject(o, "gpus", r->eff_counts[c]);
            cJSON_AddItemToObject(o, "cell", json_cell(&r->eff[li][c]));
        }
    a = cJSON_AddArrayToObject(root, "tp_vs_pp");
    for (int k = 0; a && k < CMP_KINDS; k++)
        for (int c = 0; c < EXP_CMP_COUNTS; c++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(a, o);
            cJSON_AddStringToObject(o, "kind", CMP_KIND[k]);
            cJSON_AddNumberToObject(o, "gpus", r->cmp_counts[c]);
            cJSON_AddItemToObject(o, "cell", json_cell(&r->cmp[k][c]));
        }
    cJSON *rg = cJSON_AddObjectToObject(root, "regime");
    if (!rg)
        return;
    cJSON_AddStringToObject(rg, "mode",
                            r->heat_mode == HEAT_BY_GPUS ? "gpus_x_links" : "models_x_links");
    a = cJSON_AddArrayToObject(rg, "cells");
    for (int i = 0; a && i < r->heat_rows; i++)
        for (int c = 0; c < r->heat_cols; c++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddItemToArray(a, o);
            cJSON_AddStringToObject(o, "row", heat_row_name(x, i));
            if (r->heat_mode == HEAT_BY_GPUS)
                cJSON_AddNumberToObject(o, "column", r->heat_counts[c]);
            else
                cJSON_AddStringToObject(o, "column", x->db->links[c].name);
            cJSON_AddItemToObject(o, "cell", json_cell(&r->heat[i][c]));
        }
}

static void json_memory(const explorer *x, cJSON *root)
{
    const exp_results *r = &x->r;
    cJSON *a = cJSON_AddArrayToObject(root, "vram_frontier");
    for (int c = 0; a && c < EXP_FRONT_COUNTS; c++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(a, o);
        cJSON_AddNumberToObject(o, "gpus", r->front_counts[c]);
        cJSON_AddBoolToObject(o, "valid", r->front_ok[c] != 0);
        if (!r->front_ok[c])
            continue;
        const engine_memory *m = &r->front_mem[c];
        char plan[64];
        plan_str(r->front_plan[c], plan, sizeof plan);
        cJSON_AddStringToObject(o, "plan", plan);
        cli_json_add_number(o, "weights_bytes", m->weights_bytes);
        cli_json_add_number(o, "kv_bytes", m->kv_bytes);
        cli_json_add_number(o, "activation_bytes", m->activation_bytes);
        cli_json_add_number(o, "overhead_bytes", m->overhead_bytes);
        cli_json_add_number(o, "per_gpu_bytes", m->per_gpu_bytes);
        cli_json_add_number(o, "capacity_bytes", m->capacity_bytes);
        cJSON_AddBoolToObject(o, "fits", m->fits != 0);
    }
    a = cJSON_AddArrayToObject(root, "min_gpus");
    for (int i = 0; a && i < EXP_MEM_SIZES; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(a, o);
        cJSON_AddNumberToObject(o, "gpu_memory_bytes", r->mem_sizes_gb[i] * 1e9);
        cJSON_AddNumberToObject(o, "min_gpus", r->min_gpus[i]);
    }
}

/* Write the JSON on f; 0, or -1 when out of memory or the write failed. */
static int write_json(const explorer *x, FILE *f)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return -1;
    cJSON_AddItemToObject(root, "scenario", cli_scenario_json(&x->r.sc));
    json_plans(x, root);
    json_tables(x, root);
    json_memory(x, root);
    return out_json_write(f, root);
}

/* Open dir/base.ext exclusively (never overwrite an earlier export). */
static FILE *open_new(const char *dir, const char *base, const char *ext, char *path,
                      size_t len)
{
    snprintf(path, len, "%s/%s.%s", dir, base, ext);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f)
        close(fd);
    return f;
}

int exp_export(explorer *x, char *names, size_t len)
{
    char stamp[32], base[64], pcsv[700], pjson[700];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    FILE *fc = NULL, *fj = NULL;
    for (int k = 1; k < 100 && !fc; k++) {
        if (k == 1)
            snprintf(base, sizeof base, "shardscope-%s", stamp);
        else
            snprintf(base, sizeof base, "shardscope-%s-%d", stamp, k);
        fc = open_new(x->export_dir, base, "csv", pcsv, sizeof pcsv);
        if (!fc && errno != EEXIST)
            break;
    }
    if (!fc) {
        exp_set_msg(x, "export failed: %s: %s", x->export_dir, strerror(errno));
        return -1;
    }
    snprintf(pjson, sizeof pjson, "%s/%s.json", x->export_dir, base);
    fj = fopen(pjson, "w");
    if (!fj) {
        exp_set_msg(x, "export failed: %s: %s", pjson, strerror(errno));
        fclose(fc);
        return -1;
    }
    write_csv(x, fc);
    int bad = write_json(x, fj) != 0;
    bad |= ferror(fc) || ferror(fj);
    bad |= fclose(fc) != 0;
    bad |= fclose(fj) != 0;
    if (bad) {
        exp_set_msg(x, "export failed while writing %s", pcsv);
        return -1;
    }
    snprintf(names, len, "%s/%s.{csv,json}", x->export_dir, base);
    return 0;
}
