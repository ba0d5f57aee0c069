/*
 * explain.c - engine_explain_plan's breakdown as text rows and JSON: the
 * kernel classes of a prefill and a decode step (FLOPs, bytes, time, share
 * of the step, bound) and the constants with their origin.
 */
#include <math.h>
#include <string.h>

#include "explain.h"
#include "fmt.h"
#include "json.h"

char *out_explain_name(const engine_explain_item *it, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s", it->draft && strncmp(it->name, "draft", 5) ? "draft " : "",
             it->name);
    return buf;
}

char *out_explain_time(double t, const char *micro, char *buf, size_t len)
{
    if (t < 0 && len > 1) {
        buf[0] = '-';
        fmt_seconds(-t, micro, buf + 1, len - 1);
    } else {
        fmt_seconds(t, micro, buf, len);
    }
    return buf;
}

const char *out_explain_header(void)
{
    return "kernel                  class        count       FLOPs      bytes       time  share"
           "  bound";
}

static char *count_text(double v, char *buf, size_t len)
{
    if (fabs(v - floor(v + 0.5)) < 1e-6)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.2f", v);
    return buf;
}

void out_explain_work(const engine_explain_item *it, char *fl, size_t fl_len, char *by,
                      size_t by_len)
{
    if (it->flops > 0)
        fmt_rate(it->flops, "FLOP", fl, fl_len);
    else
        snprintf(fl, fl_len, "-");
    if (it->bytes > 0)
        fmt_bytes(it->bytes, by, by_len);
    else
        snprintf(by, by_len, "-");
}

char *out_explain_row(const engine_explain_item *it, double step_s, char *buf, size_t len)
{
    char n[32], fl[32], by[32], t[32], sh[32], nm[64];
    count_text(it->count, n, sizeof n);
    out_explain_work(it, fl, sizeof fl, by, sizeof by);
    out_explain_time(it->time_s, NULL, t, sizeof t);
    fmt_percent(step_s > 0 ? it->time_s / step_s : 0, sh, sizeof sh);
    /* widths count bytes: "µ" is two bytes in one column */
    snprintf(buf, len, "%-22.22s  %-10s %7s %11s %10s %*s %6s  %s",
             out_explain_name(it, nm, sizeof nm),
             engine_kclass_name(it->cls), n, fl, by, strstr(t, "\xc2\xb5") ? 11 : 10, t, sh,
             engine_bound_name(it->bound));
    return buf;
}

char *out_explain_title(const engine_explain *x, int decode, char *buf, size_t len)
{
    const engine_explain_step *st = decode ? &x->decode : &x->prefill;
    char t[32], r[32];
    fmt_seconds(st->total_s, NULL, t, sizeof t);
    if (decode && x->spec_tokens_per_step > 0) {
        snprintf(buf, len, "decode (ITL): %s = (verification of %d tokens on stage %d of %d + "
                 "%d draft steps) / %.3g expected tokens a step", t, x->spec_k + 1,
                 st->stage + 1, x->plan.pp, x->spec_k, x->spec_tokens_per_step);
        return buf;
    }
    count_text(st->repeat, r, sizeof r);
    snprintf(buf, len, "%s: %s = stage %d of %d (slowest) x %s%s",
             decode ? "decode (ITL)" : "prefill (TTFT)", t, st->stage + 1, x->plan.pp, r,
             !decode ? (st->repeat == 1 ? " micro-batch step + host + bubble"
                                        : " micro-batch steps + host + bubble")
             : st->repeat == 1 ? " micro-batch + host + bubble"
                               : " micro-batches + host + bubble");
    return buf;
}

char *out_explain_value(const engine_explain_const *c, const char *micro, char *buf,
                        size_t len)
{
    if (strcmp(c->unit, "s") == 0)
        fmt_seconds(c->value, micro, buf, len);
    else if (strcmp(c->unit, "B") == 0)
        fmt_bytes(c->value, buf, len);
    else if (strcmp(c->unit, "B/s") == 0 || strcmp(c->unit, "FLOP/s") == 0)
        fmt_rate(c->value, c->unit, buf, len);
    else if (strcmp(c->unit, "1") == 0)
        snprintf(buf, len, "%g", c->value);
    else
        snprintf(buf, len, "%g %s", c->value, c->unit);
    return buf;
}

static void print_step(FILE *f, const engine_explain *x, int decode)
{
    const engine_explain_step *st = decode ? &x->decode : &x->prefill;
    char line[256];
    fprintf(f, "\n%s\n  %s\n", out_explain_title(x, decode, line, sizeof line),
            out_explain_header());
    double sum = 0;
    for (int i = 0; i < st->n; i++) {
        fprintf(f, "  %s\n", out_explain_row(&st->item[i], st->total_s, line, sizeof line));
        sum += st->item[i].time_s;
    }
    char t[32];
    fprintf(f, "  %-22s  %-10s %7s %11s %10s %10s\n", "sum", "", "", "", "",
            fmt_seconds(sum, NULL, t, sizeof t));
}

char *out_batch_bound_text(engine_batch_bound b, int mc, int mns, char *buf, size_t len)
{
    switch (b) {
    case ENGINE_BATCH_MAX_NUM_SEQS:
        snprintf(buf, len, "max_num_seqs %d (the KV cache holds %d)", mns, mc);
        break;
    case ENGINE_BATCH_CAPACITY:
        snprintf(buf, len, "the KV cache's %d sequences (max_num_seqs %d)", mc, mns);
        break;
    case ENGINE_BATCH_CONCURRENCY:
        snprintf(buf, len, "ceil(C / dp) of the total concurrency (max_num_seqs %d)", mns);
        break;
    default:
        snprintf(buf, len, "as given");
        break;
    }
    return buf;
}

void out_explain_print(FILE *f, const engine_explain *x)
{
    char p[64], bb[128];
    fprintf(f, "\nexplain: plan %s, %d sequence%s per replica; per GPU, the slowest pipeline "
               "stage\n",
            fmt_plan(x->plan, NULL, p, sizeof p), x->batch, x->batch == 1 ? "" : "s");
    fprintf(f, "batch %s%s\n", x->batch_bound == ENGINE_BATCH_GIVEN ? "" : "set by ",
            out_batch_bound_text(x->batch_bound, x->max_concurrency, x->max_num_seqs, bb,
                                 sizeof bb));
    print_step(f, x, 0);
    print_step(f, x, 1);
    fprintf(f, "\nconstants\n  %-26s %-14s %-18s %s\n", "name", "value", "origin", "source");
    const char *prev = NULL;
    for (int i = 0; i < x->n_const; i++) {
        const engine_explain_const *c = &x->constant[i];
        char v[48];
        const char *src = c->source && c->source[0] ? c->source : "-";
        int same = prev && strcmp(prev, src) == 0; /* a run of one preset's fields */
        prev = src;
        fprintf(f, "  %-26s %-*s %-18s %.80s%s\n", c->name,
                strstr(out_explain_value(c, NULL, v, sizeof v), "\xc2\xb5") ? 15 : 14, v, c->origin,
                same ? "(as above)" : src, !same && strlen(src) > 80 ? "..." : "");
    }
    fprintf(f, "\nbound: compute (FLOPs at the shape's rate), memory (bytes at HBM rate), floor\n"
               "(the kernel's fixed cost), launch (the host's launch), latency / bandwidth (a\n"
               "collective's), host, idle (pipeline bubble).  FLOP, B: per GPU; GB = 1e9 bytes;\n"
               "sources in full: eval --json, explain.constants.\n");
}

static cJSON *step_json(const engine_explain_step *st)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < st->n; i++) {
        const engine_explain_item *it = &st->item[i];
        cJSON *o = cJSON_CreateObject();
        if (!o)
            break;
        cJSON_AddStringToObject(o, "name", it->name);
        cJSON_AddStringToObject(o, "class", engine_kclass_name(it->cls));
        cli_json_add_number(o, "count", it->count);
        cli_json_add_number(o, "flops", it->flops);
        cli_json_add_number(o, "bytes", it->bytes);
        cli_json_add_number(o, "time_s", it->time_s);
        cJSON_AddStringToObject(o, "bound", engine_bound_name(it->bound));
        cJSON_AddBoolToObject(o, "draft", it->draft != 0);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

cJSON *out_explain_json(const engine_explain *x)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddItemToObject(o, "plan", out_plan_json(&x->plan));
    cJSON_AddNumberToObject(o, "batch", x->batch);
    cJSON_AddStringToObject(o, "batch_bound", engine_batch_bound_name(x->batch_bound));
    cJSON_AddNumberToObject(o, "max_concurrency", x->max_concurrency);
    cJSON_AddNumberToObject(o, "max_num_seqs", x->max_num_seqs);
    const engine_explain_step *st[2] = {&x->prefill, &x->decode};
    static const char *const nm[2][2] = {{"prefill", "prefill_step"},
                                         {"decode", "decode_step"}};
    for (int i = 0; i < 2; i++) {
        cJSON_AddItemToObject(o, nm[i][0], step_json(st[i]));
        cJSON *s = cJSON_AddObjectToObject(o, nm[i][1]);
        if (s) {
            cli_json_add_number(s, "total_s", st[i]->total_s);
            cJSON_AddNumberToObject(s, "stage", st[i]->stage);
            cli_json_add_number(s, "repeat", st[i]->repeat);
        }
    }
    cJSON *c = cJSON_AddArrayToObject(o, "constants");
    for (int i = 0; c && i < x->n_const; i++) {
        const engine_explain_const *k = &x->constant[i];
        cJSON *e = cJSON_CreateObject();
        if (!e)
            break;
        cJSON_AddStringToObject(e, "name", k->name);
        cli_json_add_number(e, "value", k->value);
        cJSON_AddStringToObject(e, "unit", k->unit);
        cJSON_AddStringToObject(e, "origin", k->origin);
        cJSON_AddStringToObject(e, "source", k->source ? k->source : "");
        cJSON_AddItemToArray(c, e);
    }
    return o;
}
