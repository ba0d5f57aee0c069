/*
 * eval_pareto.c - `shardscope eval --pareto`: every plan for the GPU count
 * at every batch size per replica (1, 2, 4, ... up to its largest batch that
 * fits), as output tokens/s per GPU against tokens/s per user (1 / ITL), and
 * the non-dominated frontier of those points: a text table or a JSON
 * `pareto` array.  The numbers come from engine_pareto_points.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_common.h"
#include "json.h"
#include "pareto.h"

static cJSON *point_json(const engine_pareto_point *p)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddItemToObject(o, "plan", out_plan_json(&p->plan));
    cJSON_AddNumberToObject(o, "batch", p->batch);
    cJSON_AddNumberToObject(o, "max_batch", p->max_batch);
    cli_json_add_number(o, "tokens_per_s_per_gpu", p->tokens_per_s_per_gpu);
    cli_json_add_number(o, "tokens_per_s_per_user", p->tokens_per_s_per_user);
    cli_json_add_number(o, "tokens_per_s", p->tokens_per_s);
    cli_json_add_number(o, "itl_s", p->itl_s);
    cli_json_add_number(o, "ttft_s", p->ttft_s);
    cli_json_add_number(o, "e2e_s", p->e2e_s);
    cli_json_add_number(o, "per_gpu_bytes", p->per_gpu_bytes);
    return o;
}

static int print_json(const engine_scenario *s, const engine_pareto_point *pts, int n)
{
    cJSON *root = cJSON_CreateObject();
    if (root) {
        cJSON_AddItemToObject(root, "scenario", cli_scenario_json(s));
        cJSON_AddNumberToObject(root, "points", n);
        cJSON *arr = cJSON_AddArrayToObject(root, "pareto");
        for (int i = 0; i < n && arr; i++)
            if (pts[i].frontier)
                cJSON_AddItemToArray(arr, point_json(&pts[i]));
    }
    return cli_json_print("eval", stdout, root) ? CLI_FAIL : CLI_OK;
}

static void print_text(const engine_scenario *s, const engine_pareto_point *pts, int n)
{
    const char *mname = fmt_model_name(s->model);
    const char *gname = fmt_gpu_name(s->gpu);
    int front = 0;
    for (int i = 0; i < n; i++)
        front += pts[i].frontier;
    printf("%s on %d x %s, link %s; prompt %d, gen %d tokens; weights %s, KV %s\n", mname,
           s->gpus, gname, s->intra->name, s->prompt, s->gen,
           engine_dtype_name(engine_scenario_weight_dtype(s)), engine_dtype_name(s->kv_dtype));
    if (!n) {
        printf("no plan fits on %d GPUs: no Pareto frontier.\n", s->gpus);
        return;
    }
    printf("Pareto frontier: %d of %d points (every plan at batch 1, 2, 4, ... and its "
           "largest)\n\n", front, n);
    printf("  # %4s %4s %4s %4s %7s %11s %11s %10s %10s %10s\n", "TP", "PP", "DP", "EP", "BATCH",
           "TOK/S/GPU", "TOK/S/USER", "ITL", "TTFT", "MEM/GPU");
    int k = 0;
    for (int i = 0; i < n; i++) {
        const engine_pareto_point *p = &pts[i];
        if (!p->frontier)
            continue;
        char a[32], b[32], m[32];
        printf("%3d %4d %4d %4d %4d %7d %11.1f %11.1f ", ++k, p->plan.tp, p->plan.pp, p->plan.dp,
               p->plan.ep, p->batch, p->tokens_per_s_per_gpu, p->tokens_per_s_per_user);
        out_put_col(stdout, fmt_seconds(p->itl_s, NULL, a, sizeof a), -10);
        printf(" ");
        out_put_col(stdout, fmt_seconds(p->ttft_s, NULL, b, sizeof b), -10);
        printf(" %10s%s\n", fmt_bytes(p->per_gpu_bytes, m, sizeof m),
               p->batch == p->max_batch && p->batch > 1 ? "  (largest batch)" : "");
    }
    printf("\nBATCH sequences per replica; TOK/S/GPU generated tokens/s of all replicas / %d\n"
           "GPUs; TOK/S/USER = 1 / ITL, one sequence's decode rate; MEM/GPU in GB (1e9\n"
           "bytes).  From the per-user end (fastest) to the per-GPU end (most throughput):\n"
           "no other plan and batch has more of both.\n", s->gpus);
}

int cli_eval_pareto(const cli_scenario *cs, const cli_opts *o)
{
    const engine_scenario *s = &cs->scenario;
    int cap = engine_pareto_capacity(s);
    if (cap < 1)
        cap = 1;
    engine_pareto_point *pts = calloc((size_t)cap, sizeof *pts);
    if (!pts) {
        fprintf(stderr, "shardscope eval: out of memory for %d Pareto points\n", cap);
        return CLI_FAIL;
    }
    engine_error err = {{0}};
    int n = engine_pareto_points(s, pts, cap, &err);
    int rc = CLI_OK;
    if (n < 0) {
        fprintf(stderr, "shardscope eval: %s\n", err.msg[0] ? err.msg : "cannot sweep plans");
        rc = CLI_USAGE;
    } else if (o->v.json) {
        rc = print_json(s, pts, n);
    } else {
        print_text(s, pts, n);
    }
    free(pts);
    return rc;
}
