/*
 * eval_disagg.c - `shardscope eval --disagg`: the ranking with xPyD
 * candidates.  Every aggregated plan for --gpus (engine_rank) and every
 * split of the GPUs into x prefill and y decode replicas
 * (engine_disagg_rank) in one list, ordered by the objective's own figure:
 * throughput by output tokens/s (aggregated: the plan's batch on every
 * replica; xPyD: the smaller pool's rate x gen), latency by end-to-end
 * time, cost by USD per 1M output tokens.  Text table or JSON `ranking`.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_common.h"
#include "disagg.h"
#include "json.h"

#define EVAL_DISAGG_SHOWN 12

/* One row of the merged ranking: an aggregated result or an xPyD one. */
typedef struct drow {
    const engine_result *agg;
    const engine_disagg_result *dis;
} drow;

static double row_ttft(const drow *r) { return r->agg ? r->agg->ttft_s : r->dis->ttft_s; }
static double row_itl(const drow *r) { return r->agg ? r->agg->itl_s : r->dis->itl_s; }
static double row_e2e(const drow *r) { return r->agg ? r->agg->e2e_s : r->dis->e2e_s; }
static double row_tps(const drow *r) { return r->agg ? r->agg->tokens_per_s : r->dis->tokens_per_s; }
static double row_cost(const drow *r)
{
    return r->agg ? r->agg->cost_per_mtok_usd : r->dis->cost_per_mtok_usd;
}

/* < 0 when a ranks before b under o; aggregated first on a tie. */
static int row_cmp(const drow *a, const drow *b, engine_objective o)
{
    int c;
    if (o == ENGINE_OBJ_THROUGHPUT) {
        c = engine_cmp(row_tps(b), row_tps(a));
    } else if (o == ENGINE_OBJ_COST) {
        int ua = row_cost(a) > 0, ub = row_cost(b) > 0;
        c = ua != ub ? ub - ua : engine_cmp(row_cost(a), row_cost(b));
    } else {
        c = engine_cmp(row_e2e(a), row_e2e(b));
    }
    return c ? c : (a->dis != NULL) - (b->dis != NULL);
}

/* Merge the two sorted lists of fitting results into rows (at most cap). */
static int merge(const engine_result *ra, int na, const engine_disagg_result *rd,
                 const int *order, int nd, engine_objective o, drow *rows, int cap)
{
    int i = 0, j = 0, n = 0;
    while (n < cap) {
        drow a = {i < na && ra[i].valid && ra[i].fits ? &ra[i] : NULL, NULL};
        const engine_disagg_result *d = j < nd ? &rd[order[j]] : NULL;
        drow b = {NULL, d && d->valid && d->fits ? d : NULL};
        if (!a.agg && !b.dis)
            break;
        if (a.agg && (!b.dis || row_cmp(&a, &b, o) <= 0)) {
            rows[n++] = a;
            i++;
        } else {
            rows[n++] = b;
            j++;
        }
    }
    return n;
}

static void row_name(const drow *r, char *buf, size_t len)
{
    if (r->dis)
        engine_disagg_name(r->dis->plan, buf, len);
    else
        fmt_plan(r->agg->plan, "x", buf, len);
}

static cJSON *row_json(const drow *r)
{
    cJSON *o = cJSON_CreateObject();
    char nm[64];
    row_name(r, nm, sizeof nm);
    cJSON_AddStringToObject(o, "kind", r->dis ? "disaggregated" : "aggregated");
    cJSON_AddStringToObject(o, "name", nm);
    if (r->dis) {
        cJSON_AddNullToObject(o, "plan");
        cJSON *d = cJSON_AddObjectToObject(o, "disagg");
        cJSON_AddItemToObject(d, "prefill", out_plan_json(&r->dis->plan.prefill));
        cJSON_AddItemToObject(d, "decode", out_plan_json(&r->dis->plan.decode));
        cli_json_add_number(d, "transfer_s", r->dis->transfer_s);
        cli_json_add_number(d, "transfer_exposed_s", r->dis->transfer_exposed_s);
        cli_json_add_number(d, "prefill_pool_rate", r->dis->prefill_rate);
        cli_json_add_number(d, "decode_pool_rate", r->dis->decode_rate);
        cli_json_add_number(d, "sustainable_rate", r->dis->sustainable_rate);
        cJSON_AddNumberToObject(o, "batch", r->dis->decode.batch);
    } else {
        cJSON_AddItemToObject(o, "plan", out_plan_json(&r->agg->plan));
        cJSON_AddNullToObject(o, "disagg");
        cJSON_AddNumberToObject(o, "batch", r->agg->batch);
    }
    cli_json_add_number(o, "ttft_s", row_ttft(r));
    cli_json_add_number(o, "itl_s", row_itl(r));
    cli_json_add_number(o, "e2e_s", row_e2e(r));
    cli_json_add_number(o, "tokens_per_s", row_tps(r));
    out_json_add_positive(o, "cost_per_mtok_usd", row_cost(r));
    return o;
}

static void print_text(const engine_scenario *s, const drow *rows, int n, int nd)
{
    printf("%s on %d x %s, link %s; prompt %d, gen %d tokens; ranked by %s, aggregated plans "
           "and %d xPyD splits\n\n",
           fmt_model_name(s->model), s->gpus,
           fmt_gpu_name(s->gpu), s->intra->name, s->prompt,
           s->gen, engine_objective_name(s->objective), nd);
    printf("  # %-22s %5s %10s %10s %10s %12s %12s\n", "PLAN", "BATCH", "TTFT", "ITL", "E2E",
           "TOK/S", "USD/MTOK");
    for (int i = 0; i < n; i++) {
        const drow *r = &rows[i];
        char nm[64], a[32], b[32], c[32], u[32];
        row_name(r, nm, sizeof nm);
        printf("%3d %-22s %5d ", i + 1, nm, r->dis ? r->dis->decode.batch : r->agg->batch);
        out_put_col(stdout, fmt_seconds(row_ttft(r), NULL, a, sizeof a), -10);
        printf(" ");
        out_put_col(stdout, fmt_seconds(row_itl(r), NULL, b, sizeof b), -10);
        printf(" ");
        out_put_col(stdout, fmt_seconds(row_e2e(r), NULL, c, sizeof c), -10);
        printf(" %12.1f %12s\n", row_tps(r), row_cost(r) > 0 ? fmt_usd(row_cost(r), u, sizeof u)
                                                              : "-");
    }
    printf("\nxPyD: x prefill replicas of TP tp_p and y decode replicas of TP tp_d (PLAN "
           "\"xPyD tp_p/tp_d\"); its TTFT is a prompt's prefill alone plus the KV transfer's\n"
           "exposed part, its ITL the decode pool's at BATCH, its TOK/S the smaller pool's "
           "rate x gen.  Aggregated TOK/S: every replica at BATCH.\n");
}

int cli_eval_disagg(const cli_scenario *cs, const cli_opts *o)
{
    const engine_scenario *s = &cs->scenario;
    int na = engine_plan_count(s);
    engine_result *ra = calloc((size_t)(na > 0 ? na : 1), sizeof *ra);
    engine_disagg_result *rd = calloc(ENGINE_DISAGG_RANK_MAX, sizeof *rd);
    int *order = calloc(ENGINE_DISAGG_RANK_MAX, sizeof *order);
    drow *rows = calloc(EVAL_DISAGG_SHOWN, sizeof *rows);
    engine_error err = {{0}};
    int rc = CLI_FAIL;
    if (!ra || !rd || !order || !rows) {
        fprintf(stderr, "shardscope eval: out of memory\n");
        goto done;
    }
    na = engine_rank(s, ra, na, 0, &err);
    int nd = na < 0 ? -1 : engine_disagg_rank(s, rd, order, ENGINE_DISAGG_RANK_MAX, &err);
    if (na < 0 || nd < 0) {
        rc = cli_fail("eval", &err);
        goto done;
    }
    int n = merge(ra, na, rd, order, nd, s->objective, rows, EVAL_DISAGG_SHOWN);
    if (o->v.json) {
        cJSON *root = cJSON_CreateObject();
        if (root) {
            cJSON_AddItemToObject(root, "scenario", cli_scenario_json(s));
            cJSON_AddNumberToObject(root, "disagg_splits", nd);
            cJSON *arr = cJSON_AddArrayToObject(root, "ranking");
            for (int i = 0; i < n && arr; i++)
                cJSON_AddItemToArray(arr, row_json(&rows[i]));
        }
        rc = cli_json_print("eval", stdout, root) ? CLI_FAIL : CLI_OK;
    } else {
        print_text(s, rows, n, nd);
        rc = CLI_OK;
    }
done:
    free(rows);
    free(order);
    free(rd);
    free(ra);
    return rc;
}
