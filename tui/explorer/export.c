/*
 * explorer_export.c - `e`: write the tables on screen (ranked plans, TP
 * efficiency by link, TP vs PP vs hybrid, heatmap, frontier, minimum GPU
 * counts) to NAME.csv and NAME.json in $SHARDSCOPE_EXPORT_DIR or the
 * current directory.  SI units in the files (seconds, bytes); the column
 * names say which.  The CSV holds one block per table, separated by blank
 * lines; every row starts with the table's name.
 */
#include "explorer_int.h"
#include "csv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* JSON has no NaN/inf: write null instead. */
static void json_num(FILE *f, double v)
{
    if (v != v || v > 1e308 || v < -1e308)
        fputs("null", f);
    else
        fprintf(f, "%.9g", v);
}

static void plan_str(engine_plan p, char *buf, size_t len)
{
    snprintf(buf, len, "TP%dxPP%dxDP%dxEP%d", p.tp, p.pp, p.dp, p.ep);
}

static void write_csv(explorer *x, FILE *f)
{
    const exp_results *r = &x->r;
    const engine_scenario *s = &r->sc;
    char plan[64];
    fprintf(f, "table,model,gpu,gpus,gpus_per_node,intra_link,inter_link,vram_bytes,batch,"
               "prompt_tokens,gen_tokens,weight_dtype,microbatches,schedule,objective,"
               "calibration\n");
    fputs("scenario,", f);
    out_csv_field(f, s->model->name);
    fputc(',', f);
    out_csv_field(f, s->gpu->name);
    fprintf(f, ",%d,%d,", s->gpus, s->gpus_per_node);
    out_csv_field(f, s->intra->name);
    fputc(',', f);
    out_csv_field(f, s->inter->name);
    char cal[160];
    fprintf(f, ",%.0f,%d,%d,%d,%s,%d,%s,%s,", s->vram_bytes, s->batch, s->prompt, s->gen,
            engine_dtype_name(s->weight_dtype), s->microbatches,
            engine_schedule_name(s->schedule), engine_objective_name(s->objective));
    out_csv_field(f, out_calibration_label(&x->cal.calib, cal, sizeof cal));
    fputs("\n\n", f);

    fprintf(f, "table,rank,plan,tp,pp,dp,ep,valid,fits,efficiency,ttft_s,itl_s,e2e_s,p50_s,"
               "p99_s,tokens_per_s,weights_bytes,kv_bytes,activation_bytes,overhead_bytes,"
               "per_gpu_bytes,capacity_bytes,compute_comm_ratio,regime,usd_per_mtok,reason\n");
    for (int i = 0; i < r->n_plans; i++) {
        const engine_result *p = &r->plans[i];
        plan_str(p->plan, plan, sizeof plan);
        int t = r->tails_done[i];
        fprintf(f, "strategies,%d,%s,%d,%d,%d,%d,%d,%d,%.6g,%.6g,%.6g,%.6g,", i + 1, plan,
                p->plan.tp, p->plan.pp, p->plan.dp, p->plan.ep, p->valid, p->fits,
                p->efficiency, p->ttft_s, p->itl_s, p->e2e_s);
        if (t)
            fprintf(f, "%.6g,%.6g,", p->p50_s, p->p99_s);
        else
            fputs(",,", f);
        fprintf(f, "%.6g,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.6g,%c,%.6g,", p->tokens_per_s,
                p->mem.weights_bytes, p->mem.kv_bytes, p->mem.activation_bytes,
                p->mem.overhead_bytes, p->mem.per_gpu_bytes, p->mem.capacity_bytes,
                p->compute_comm_ratio, p->regime ? p->regime : '-', p->cost_per_mtok_usd);
        out_csv_field(f, p->reason);
        fputc('\n', f);
    }
    fputc('\n', f);

    int n_links = x->ctl.s[CTL_INTRA].max + 1;
    fprintf(f, "table,link,gpus,plan,valid,fits,efficiency,compute_comm_ratio,regime\n");
    for (int li = 0; li < n_links; li++)
        for (int c = 0; c < EXP_EFF_COUNTS; c++) {
            const exp_cell *e = &r->eff[li][c];
            plan_str(e->plan, plan, sizeof plan);
            fprintf(f, "tp_efficiency,%s,%d,%s,%d,%d,%.6g,%.6g,%c\n", x->db->links[li].name,
                    r->eff_counts[c], plan, e->ok, e->fits, e->efficiency, e->ratio,
                    e->regime ? e->regime : '-');
        }
    fputc('\n', f);

    static const char *const KIND[CMP_KINDS] = {"tp", "pp", "hybrid"};
    fprintf(f, "table,kind,gpus,plan,valid,fits,efficiency,itl_s\n");
    for (int k = 0; k < CMP_KINDS; k++)
        for (int c = 0; c < EXP_CMP_COUNTS; c++) {
            const exp_cell *e = &r->cmp[k][c];
            plan_str(e->plan, plan, sizeof plan);
            fprintf(f, "tp_vs_pp,%s,%d,%s,%d,%d,%.6g,%.6g\n", KIND[k], r->cmp_counts[c], plan,
                    e->ok, e->fits, e->efficiency, e->itl_s);
        }
    fputc('\n', f);

    fprintf(f, "table,row,column,plan,valid,compute_comm_ratio,regime\n");
    for (int i = 0; i < r->heat_rows; i++)
        for (int c = 0; c < r->heat_cols; c++) {
            const exp_cell *e = &r->heat[i][c];
            char col[80];
            const char *row;
            if (r->heat_mode == HEAT_BY_GPUS) {
                row = x->db->links[i].name;
                snprintf(col, sizeof col, "%d", r->heat_counts[c]);
            } else {
                row = x->db->models[i].name;
                snprintf(col, sizeof col, "%s", x->db->links[c].name);
            }
            plan_str(e->plan, plan, sizeof plan);
            fprintf(f, "%s,%s,%s,%s,%d,%.6g,%c\n",
                    r->heat_mode == HEAT_BY_GPUS ? "regime_gpus_x_links" : "regime_models_x_links",
                    row, col, plan, e->ok, e->ratio, e->regime ? e->regime : '-');
        }
    fputc('\n', f);

    fprintf(f, "table,gpus,plan,valid,weights_bytes,kv_bytes,activation_bytes,overhead_bytes,"
               "per_gpu_bytes,capacity_bytes,fits\n");
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
    fputc('\n', f);
    fprintf(f, "table,gpu_memory_bytes,min_gpus\n");
    for (int i = 0; i < EXP_MEM_SIZES; i++)
        fprintf(f, "min_gpus,%.0f,%d\n", r->mem_sizes_gb[i] * 1e9, r->min_gpus[i]);
}

static void json_cell(FILE *f, const exp_cell *e)
{
    char plan[64];
    plan_str(e->plan, plan, sizeof plan);
    fprintf(f, "{\"plan\":\"%s\",\"valid\":%s,\"fits\":%s,\"efficiency\":", plan,
            e->ok ? "true" : "false", e->fits ? "true" : "false");
    json_num(f, e->efficiency);
    fputs(",\"compute_comm_ratio\":", f);
    json_num(f, e->ratio);
    fprintf(f, ",\"regime\":\"%c\"}", e->regime ? e->regime : '-');
}

static void write_json(explorer *x, FILE *f)
{
    const exp_results *r = &x->r;
    const engine_scenario *s = &r->sc;
    char plan[64], cal[160];
    fputs("{\n  \"scenario\": {\"model\": ", f);
    json_str(f, s->model->name);
    fputs(", \"gpu\": ", f);
    json_str(f, s->gpu->name);
    fprintf(f, ", \"gpus\": %d, \"gpus_per_node\": %d, \"intra_link\": ", s->gpus,
            s->gpus_per_node);
    json_str(f, s->intra->name);
    fputs(", \"inter_link\": ", f);
    json_str(f, s->inter->name);
    fprintf(f, ", \"vram_bytes\": %.0f, \"batch\": %d, \"prompt_tokens\": %d, "
               "\"gen_tokens\": %d, \"weight_dtype\": \"%s\", \"microbatches\": %d, "
               "\"schedule\": \"%s\", \"objective\": \"%s\", \"calibration\": ",
            s->vram_bytes, s->batch, s->prompt, s->gen, engine_dtype_name(s->weight_dtype),
            s->microbatches, engine_schedule_name(s->schedule),
            engine_objective_name(s->objective));
    json_str(f, out_calibration_label(&x->cal.calib, cal, sizeof cal));
    fputs("},\n  \"strategies\": [", f);
    for (int i = 0; i < r->n_plans; i++) {
        const engine_result *p = &r->plans[i];
        plan_str(p->plan, plan, sizeof plan);
        fprintf(f, "%s\n    {\"rank\": %d, \"plan\": \"%s\", \"tp\": %d, \"pp\": %d, "
                   "\"dp\": %d, \"ep\": %d, \"valid\": %s, \"fits\": %s, \"efficiency\": ",
                i ? "," : "", i + 1, plan, p->plan.tp, p->plan.pp, p->plan.dp, p->plan.ep,
                p->valid ? "true" : "false", p->fits ? "true" : "false");
        json_num(f, p->efficiency);
        const double nums[] = {p->ttft_s, p->itl_s, p->e2e_s, p->tokens_per_s,
                               p->mem.weights_bytes, p->mem.kv_bytes, p->mem.activation_bytes,
                               p->mem.overhead_bytes, p->mem.per_gpu_bytes,
                               p->mem.capacity_bytes, p->compute_comm_ratio,
                               p->cost_per_mtok_usd};
        static const char *const NAMES[] = {"ttft_s", "itl_s", "e2e_s", "tokens_per_s",
                                            "weights_bytes", "kv_bytes", "activation_bytes",
                                            "overhead_bytes", "per_gpu_bytes", "capacity_bytes",
                                            "compute_comm_ratio", "usd_per_mtok"};
        for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++) {
            fprintf(f, ", \"%s\": ", NAMES[k]);
            json_num(f, nums[k]);
        }
        if (r->tails_done[i]) {
            fputs(", \"p50_s\": ", f);
            json_num(f, p->p50_s);
            fputs(", \"p99_s\": ", f);
            json_num(f, p->p99_s);
        }
        fprintf(f, ", \"regime\": \"%c\", \"reason\": ", p->regime ? p->regime : '-');
        json_str(f, p->reason);
        fputc('}', f);
    }
    fputs("\n  ],\n  \"tp_efficiency\": [", f);
    int n_links = x->ctl.s[CTL_INTRA].max + 1;
    for (int li = 0; li < n_links; li++)
        for (int c = 0; c < EXP_EFF_COUNTS; c++) {
            fprintf(f, "%s\n    {\"link\": ", li || c ? "," : "");
            json_str(f, x->db->links[li].name);
            fprintf(f, ", \"gpus\": %d, \"cell\": ", r->eff_counts[c]);
            json_cell(f, &r->eff[li][c]);
            fputc('}', f);
        }
    fputs("\n  ],\n  \"tp_vs_pp\": [", f);
    static const char *const KIND[CMP_KINDS] = {"tp", "pp", "hybrid"};
    for (int k = 0; k < CMP_KINDS; k++)
        for (int c = 0; c < EXP_CMP_COUNTS; c++) {
            fprintf(f, "%s\n    {\"kind\": \"%s\", \"gpus\": %d, \"cell\": ", k || c ? "," : "",
                    KIND[k], r->cmp_counts[c]);
            json_cell(f, &r->cmp[k][c]);
            fputc('}', f);
        }
    fprintf(f, "\n  ],\n  \"regime\": {\"mode\": \"%s\", \"cells\": [",
            r->heat_mode == HEAT_BY_GPUS ? "gpus_x_links" : "models_x_links");
    for (int i = 0; i < r->heat_rows; i++)
        for (int c = 0; c < r->heat_cols; c++) {
            fprintf(f, "%s\n    {\"row\": ", i || c ? "," : "");
            if (r->heat_mode == HEAT_BY_GPUS) {
                json_str(f, x->db->links[i].name);
                fprintf(f, ", \"column\": %d", r->heat_counts[c]);
            } else {
                json_str(f, x->db->models[i].name);
                fputs(", \"column\": ", f);
                json_str(f, x->db->links[c].name);
            }
            fputs(", \"cell\": ", f);
            json_cell(f, &r->heat[i][c]);
            fputc('}', f);
        }
    fputs("\n  ]},\n  \"vram_frontier\": [", f);
    for (int c = 0; c < EXP_FRONT_COUNTS; c++) {
        const engine_memory *m = &r->front_mem[c];
        plan_str(r->front_plan[c], plan, sizeof plan);
        fprintf(f, "%s\n    {\"gpus\": %d, \"valid\": %s", c ? "," : "", r->front_counts[c],
                r->front_ok[c] ? "true" : "false");
        if (r->front_ok[c])
            fprintf(f, ", \"plan\": \"%s\", \"weights_bytes\": %.0f, \"kv_bytes\": %.0f, "
                       "\"activation_bytes\": %.0f, \"overhead_bytes\": %.0f, "
                       "\"per_gpu_bytes\": %.0f, \"capacity_bytes\": %.0f, \"fits\": %s",
                    plan, m->weights_bytes, m->kv_bytes, m->activation_bytes, m->overhead_bytes,
                    m->per_gpu_bytes, m->capacity_bytes, m->fits ? "true" : "false");
        fputc('}', f);
    }
    fputs("\n  ],\n  \"min_gpus\": [", f);
    for (int i = 0; i < EXP_MEM_SIZES; i++)
        fprintf(f, "%s\n    {\"gpu_memory_bytes\": %.0f, \"min_gpus\": %d}", i ? "," : "",
                r->mem_sizes_gb[i] * 1e9, r->min_gpus[i]);
    fputs("\n  ]\n}\n", f);
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
    write_json(x, fj);
    int bad = ferror(fc) || ferror(fj);
    bad |= fclose(fc) != 0;
    bad |= fclose(fj) != 0;
    if (bad) {
        exp_set_msg(x, "export failed while writing %s", pcsv);
        return -1;
    }
    snprintf(names, len, "%s/%s.{csv,json}", x->export_dir, base);
    return 0;
}
