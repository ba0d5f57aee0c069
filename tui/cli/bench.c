/*
 * bench.c - `shardscope bench`: median wall times (CLOCK_MONOTONIC) of
 * (a) one plan evaluation and (b) the explorer's own update step for one
 * frame (explorer_bench_update: the same code the explorer runs, block by
 * block).  Figures are printed, never asserted (machines are shared and
 * noisy).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "cli.h"
#include "cli_common.h"
#include "json.h"
#include "explorer_bench.h"
#include "fleet.h"
#include "sim.h"

#define BENCH_TARGET_S 0.002
/* The layout the frame is timed for (it decides how many plans get tails). */
#define BENCH_ROWS 40
#define BENCH_COLS 120
/* The load simulation timed (c). */
#define BENCH_LOAD_REQUESTS 10000
#define BENCH_LOAD_TARGET_S 0.2

static const cli_opt BENCH_OPTS[] = {
    {.name = "--repeats", .kind = CLI_OPT_INT, .arg = "R", .off = CLI_AT(repeats), .min = 1,
     .max = 100000, .help = "repeats per figure, 1..100000 (default 21)"},
    {.name = "--json", .kind = CLI_OPT_FLAG, .off = CLI_AT(json),
     .help = "{plan_eval_s, frame_recompute_s, parts {...}, counts {...}, ...}"},
    {.name = NULL},
};

#define STR_(x) #x
#define STR(x) STR_(x)

const cli_options cli_bench_options = {
    .tables = {BENCH_OPTS},
    .about = "Median time (clock_gettime CLOCK_MONOTONIC, over R repeats, default 21) of\n"
             "  (a) one plan evaluation (engine_evaluate), and\n"
             "  (b) the explorer's own update step for one frame with every input changed,\n"
             "      at its starting scenario on a " STR(BENCH_COLS) "x" STR(BENCH_ROWS)
             " screen: the ranked plans at the\n"
             "      current GPU count, the efficiency tables, the regime heatmap, the VRAM\n"
             "      frontier and min GPUs, and the Monte Carlo tails of the plans on screen.\n"
             "  (c) one load simulation of " STR(BENCH_LOAD_REQUESTS) " requests (engine_sim_run: Llama-3-8B\n"
             "      on one H100 SXM under vLLM, Poisson at 10 requests/s).\n"
             "  (d) one fleet sizing, 'recommend --rate' over up to 8 GPUs (target < 60 s).\n"
             "Target for (b): under 2 ms, so a 60 Hz frame keeps most of its 16 ms; for (c):\n"
             "under 200 ms (make bench also times a whole 'shardscope load --requests 10000').\n",
};

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, engine_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* (a): batches of evaluations, so the clock's own cost vanishes. */
static double time_eval(const engine_scenario *s, int repeats, double *t)
{
    const int batch = 200;
    volatile double sink = 0;
    engine_result r;
    for (int i = 0; i < repeats; i++) {
        double t0 = calib_now_s();
        for (int k = 0; k < batch; k++) {
            engine_evaluate(s, (engine_plan){8, 1, 1, 1}, &r, NULL);
            sink += r.e2e_s;
        }
        t[i] = (calib_now_s() - t0) / batch;
    }
    (void)sink;
    return median(t, repeats);
}

/* (c): one simulation of BENCH_LOAD_REQUESTS requests, median of at most
 * 5 repeats (each is long enough for the clock); 0 when the presets lack
 * the scenario. */
static double time_load(const preset_db *db, int repeats, double *t)
{
    engine_scenario s;
    engine_scenario_defaults(&s);
    s.model = preset_find_model(db, "llama-3-8b");
    s.gpu = preset_find_gpu(db, "h100-sxm");
    s.intra = preset_find_link(db, "nvlink4");
    s.framework = preset_find_framework(db, "vllm");
    engine_stepper *st = malloc(sizeof *st);
    if (!s.model || !s.gpu || !s.intra || !st ||
        engine_stepper_init(st, &s, (engine_plan){1, 1, 1, 1}, NULL) != 0 || !st->valid) {
        free(st);
        return 0;
    }
    engine_sim_config c;
    engine_sim_defaults(&c, st);
    c.rate = 10;
    c.requests = BENCH_LOAD_REQUESTS;
    size_t bytes = engine_sim_workspace_bytes(st, &c);
    void *work = malloc(bytes);
    engine_sim_result r;
    int n = repeats < 5 ? repeats : 5, ok = work != NULL;
    for (int i = 0; i < n && ok; i++) {
        double t0 = calib_now_s();
        ok = engine_sim_run(st, &c, work, bytes, &r, NULL) == 0;
        t[i] = calib_now_s() - t0;
    }
    free(work);
    free(st);
    return ok ? median(t, n) : 0;
}

/* (d): one fleet sizing (recommend --rate) over up to 8 GPUs: Llama-3-70B
 * on H100 SXM under vLLM, 4096/256 tokens at 4 requests/s, p99 TTFT 1.5 s
 * and TPOT 30 ms; median of at most 3 runs; 0 without the presets. */
static double time_fleet(const preset_db *db, int repeats, double *t)
{
    engine_fleet_request q;
    memset(&q, 0, sizeof q);
    engine_scenario_defaults(&q.base);
    q.base.model = preset_find_model(db, "llama-3-70b");
    q.base.gpu = preset_find_gpu(db, "h100-sxm");
    q.base.intra = preset_find_link(db, "nvlink4");
    q.base.inter = preset_find_link(db, "ib-ndr");
    q.base.framework = preset_find_framework(db, "vllm");
    q.base.gpus_per_node = 8;
    q.base.prompt = 4096;
    q.rate = 4;
    q.ttft_slo_s = 1.5;
    q.tpot_slo_s = 0.03;
    q.slo_percentile = 99;
    q.gpus_max = 8;
    q.seed = 42;
    if (!q.base.model || !q.base.gpu || !q.base.intra || !q.base.framework)
        return 0;
    size_t bytes = engine_fleet_workspace_bytes(&q);
    void *work = bytes ? malloc(bytes) : NULL;
    engine_fleet_result *r = malloc(sizeof *r);
    int n = repeats < 3 ? repeats : 3, ok = work && r;
    for (int i = 0; i < n && ok; i++) {
        double t0 = calib_now_s();
        ok = engine_fleet_run(&q, r, work, bytes, NULL) == 0;
        t[i] = calib_now_s() - t0;
    }
    free(r);
    free(work);
    return ok ? median(t, n) : 0;
}

static int print_json(const explorer_bench_update_result *u, double eval_s, double load_s,
                      double fleet_s, int repeats)
{
    static const char *const PART[EXPLORER_BENCH_PARTS] = {
        "rank_s", "efficiency_s", "regime_grid_s", "frontier_s", "tails_s", "pareto_s",
        "load_line_s"};
    static const char *const COUNT[EXPLORER_BENCH_PARTS] = {
        "rank_plans", "efficiency_cells", "regime_cells", "frontier_cells", "tail_plans",
        "pareto_points", "load_line_requests"};
    cJSON *o = cJSON_CreateObject();
    cli_json_add_number(o, "plan_eval_s", eval_s);
    cli_json_add_number(o, "frame_recompute_s", u->frame_s);
    cli_json_add_number(o, "target_frame_s", BENCH_TARGET_S);
    cJSON_AddBoolToObject(o, "meets_target", u->frame_s < BENCH_TARGET_S);
    cli_json_add_number(o, "deferred_s", u->deferred_s);
    cli_json_add_number(o, "load_sim_s", load_s > 0 ? load_s : NAN);
    cJSON_AddNumberToObject(o, "load_sim_requests", BENCH_LOAD_REQUESTS);
    cli_json_add_number(o, "load_target_s", BENCH_LOAD_TARGET_S);
    cli_json_add_number(o, "fleet_sizing_s", fleet_s > 0 ? fleet_s : NAN);
    cJSON *p = cJSON_AddObjectToObject(o, "parts");
    cJSON *n = cJSON_AddObjectToObject(o, "counts");
    for (int i = 0; i < EXPLORER_BENCH_PARTS; i++) {
        cli_json_add_number(p, PART[i], u->part_s[i]);
        cJSON_AddNumberToObject(n, COUNT[i], (double)u->cells[i]);
    }
    cJSON_AddNumberToObject(n, "mc_samples", u->mc_samples);
    cJSON_AddNumberToObject(o, "repeats", repeats);
    cJSON_AddStringToObject(o, "model", u->model);
    cJSON_AddStringToObject(o, "gpu", u->gpu);
    cJSON_AddStringToObject(o, "link", u->link);
    cJSON_AddNumberToObject(o, "gpus", u->gpus);
    cJSON_AddStringToObject(o, "clock", "CLOCK_MONOTONIC");
    return cli_json_print("bench", stdout, o) ? CLI_FAIL : CLI_OK;
}

static void print_row(const char *what, double s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void print_row(const char *what, double s, const char *fmt, ...)
{
    char a[32];
    va_list ap;
    printf("  %-22s", what);
    out_put_col(stdout, fmt_seconds(s, NULL, a, sizeof a), -10);
    printf("   ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

static void print_text(const explorer_bench_update_result *u, double eval_s, double load_s,
                       double fleet_s, int repeats)
{
    const long *c = u->cells;
    printf("shardscope bench: medians of %d repeats (clock_gettime CLOCK_MONOTONIC)\n",
           repeats);
    printf("scenario: the explorer's start, %s on %d x %s, link %s, %dx%d screen\n\n",
           u->model, u->gpus, u->gpu, u->link, BENCH_COLS, BENCH_ROWS);
    print_row("plan evaluation", eval_s, "one engine_evaluate (tp=8)");
    print_row("frame recomputation", u->frame_s, "target < 2.00 ms: %s",
              u->frame_s < BENCH_TARGET_S ? "met" : "MISSED");
    print_row("  plans", u->part_s[EXPLORER_BENCH_RANK], "%ld plans at %d GPUs",
              c[EXPLORER_BENCH_RANK], u->gpus);
    print_row("  efficiency tables", u->part_s[EXPLORER_BENCH_EFF], "%ld evaluations",
              c[EXPLORER_BENCH_EFF]);
    print_row("  regime grid", u->part_s[EXPLORER_BENCH_HEAT], "%ld cells",
              c[EXPLORER_BENCH_HEAT]);
    print_row("  VRAM frontier", u->part_s[EXPLORER_BENCH_FRONT],
              "%ld cells (memory only; min GPUs by any count)", c[EXPLORER_BENCH_FRONT]);
    print_row("  tails", u->part_s[EXPLORER_BENCH_TAILS], "%ld plans, %d Monte Carlo samples each",
              c[EXPLORER_BENCH_TAILS], u->mc_samples);
    print_row("after the frame", u->deferred_s,
              "the selected plan's slow blocks, computed when no key waits:");
    print_row("  Pareto frontier", u->part_s[EXPLORER_BENCH_PARETO],
              "%ld plan-and-batch points (only while its view is on screen)",
              c[EXPLORER_BENCH_PARETO]);
    print_row("  load line", u->part_s[EXPLORER_BENCH_LOAD],
              "%ld simulated requests + the sustainable rate + the best xPyD split "
              "(selected plan only)",
              c[EXPLORER_BENCH_LOAD]);
    if (load_s > 0)
        print_row("load simulation", load_s, "%d requests (Llama-3-8B, 1 x H100, vLLM, 10/s); "
                  "target < 200 ms: %s", BENCH_LOAD_REQUESTS,
                  load_s < BENCH_LOAD_TARGET_S ? "met" : "MISSED");
    if (fleet_s > 0)
        print_row("fleet sizing", fleet_s, "recommend --rate 4 over up to 8 GPUs (Llama-3-70B, "
                  "H100, vLLM, 4096/256 tokens); target < 60 s: %s",
                  fleet_s < 60 ? "met" : "MISSED");
}

int cli_bench_run(const cli_opts *o, const preset_db *db)
{
    int json = o->v.json, repeats = CLI_SEEN(o, repeats) ? o->v.repeats : 21;
    if (db->n_models < 1 || db->n_gpus < 1 || db->n_links < 1) {
        fprintf(stderr, "shardscope bench: needs at least one model, gpu and link preset\n");
        return CLI_FAIL;
    }
    double *t = calloc((size_t)repeats, sizeof *t);
    explorer_bench_update_result u;
    engine_error err = {{0}};
    if (!t) {
        fprintf(stderr, "shardscope bench: out of memory\n");
        return CLI_FAIL;
    }
    /* (b) first: the explorer sets up its own starting scenario. */
    if (explorer_bench_update(db, BENCH_ROWS, BENCH_COLS, repeats, &u, &err) != 0) {
        fprintf(stderr, "shardscope bench: %s\n", err.msg);
        free(t);
        return CLI_FAIL;
    }
    /* (a) on the same scenario at 8 GPUs with TP = 8. */
    engine_scenario s;
    engine_scenario_defaults(&s);
    s.model = preset_find_model(db, u.model);
    s.gpu = preset_find_gpu(db, u.gpu);
    s.intra = preset_find_link(db, u.link);
    s.gpus = 8;
    double eval_s = time_eval(&s, repeats, t);
    double load_s = time_load(db, repeats, t);
    double fleet_s = time_fleet(db, repeats, t);
    free(t);
    if (json)
        return print_json(&u, eval_s, load_s, fleet_s, repeats);
    print_text(&u, eval_s, load_s, fleet_s, repeats);
    return CLI_OK;
}
