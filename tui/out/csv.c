/*
 * csv.c - the one CSV escaping rule and the evaluated-plan row (see
 * csv.h).  It copies engine results; it computes nothing.
 */
#include "csv.h"

#include <math.h>
#include <string.h>

void out_csv_field(FILE *f, const char *s)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void out_csv_number(FILE *f, double v, int ok)
{
    if (ok && isfinite(v))
        fprintf(f, "%.17g", v);
}

void out_csv_result_header(FILE *f)
{
    fputs("tp,pp,dp,ep,valid,fits,reason,weights_bytes,kv_bytes,activation_bytes,"
          "overhead_bytes,per_gpu_bytes,capacity_bytes,ttft_s,itl_s,e2e_s,tokens_per_s,"
          "speedup,efficiency,compute_comm_ratio,regime,bubble_fraction,cost_per_mtok_usd,"
          "p50_s,p99_s,batch,max_concurrency,kv_capacity_tokens\n",
          f);
}

void out_csv_result_row(FILE *f, const engine_result *r, int with_tails)
{
    int mem = r->valid != 0, ok = r->valid && r->fits;
    int regime = ok && (r->regime == 'C' || r->regime == 'M');
    int tails = ok && with_tails && r->p50_s > 0 && r->p99_s > 0;
    const struct {
        double v;
        int ok;
    } nums[] = {
        {r->mem.weights_bytes, mem}, {r->mem.kv_bytes, mem},
        {r->mem.activation_bytes, mem}, {r->mem.overhead_bytes, mem},
        {r->mem.per_gpu_bytes, mem}, {r->mem.capacity_bytes, mem},
        {r->ttft_s, ok}, {r->itl_s, ok}, {r->e2e_s, ok}, {r->tokens_per_s, ok},
        {r->speedup, ok}, {r->efficiency, ok}, {r->compute_comm_ratio, regime},
    };
    fprintf(f, "%d,%d,%d,%d,%d,%d,", r->plan.tp, r->plan.pp, r->plan.dp, r->plan.ep,
            r->valid != 0, ok);
    out_csv_field(f, r->reason);
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        fputc(',', f);
        out_csv_number(f, nums[i].v, nums[i].ok);
    }
    fputc(',', f);
    if (regime)
        fputc(r->regime, f);
    fputc(',', f);
    out_csv_number(f, r->bubble_fraction, ok);
    fputc(',', f);
    out_csv_number(f, r->cost_per_mtok_usd, ok && r->cost_per_mtok_usd > 0);
    fputc(',', f);
    out_csv_number(f, r->p50_s, tails);
    fputc(',', f);
    out_csv_number(f, r->p99_s, tails);
    fputc(',', f);
    out_csv_number(f, r->batch, mem);
    fputc(',', f);
    out_csv_number(f, r->max_concurrency, mem);
    fputc(',', f);
    out_csv_number(f, r->kv_capacity_tokens, mem);
    fputc('\n', f);
}
