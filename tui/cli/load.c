/*
 * load.c - `shardscope load`: one plan (given, or the best for the
 * scenario) served under a request load, simulated step by step
 * (engine/sim.h): TTFT, TPOT and end-to-end percentiles, throughput,
 * goodput under the SLOs, the sustainable rate, overload, batch and KV
 * use and the queue over time.  Text or JSON; same inputs and seed, same
 * bytes out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_common.h"
#include "json.h"
#include "disagg.h"
#include "sim.h"
#include "trace.h"

static const char *sched_name(int v)
{
    return engine_sim_sched_name((engine_sim_sched)v);
}
static const cli_enum SCHEDS = {sched_name, ENGINE_SIM_SCHED_COUNT};

static const char *start_name(int v)
{
    return engine_sim_start_name((engine_sim_start)v);
}
static const cli_enum STARTS = {start_name, ENGINE_SIM_START_COUNT};

static const char *kv_name(int v)
{
    return engine_sim_kv_name((engine_sim_kv)v);
}
static const cli_enum KVS = {kv_name, ENGINE_SIM_KV_COUNT};

static const char *lag_name(int v)
{
    return engine_graphs_name((engine_graphs)v);
}
static const cli_enum LAGS = {lag_name, ENGINE_GRAPHS_COUNT};

static const char *dtype_name(int i) { return engine_dtype_name((engine_dtype)i); }
static const cli_enum LOAD_DTYPES = {dtype_name, ENGINE_DTYPE_COUNT};

static const cli_opt LOAD_OPTS[] = {
    {.name = "--rate", .kind = CLI_OPT_STRING, .arg = "R", .off = CLI_AT(load_rate),
     .section = "load:",
     .help = "Poisson arrivals at R requests/s over all replicas\n"
             "(default 1); inf: every request at t = 0 (offline)"},
    {.name = "--total-concurrency", .kind = CLI_OPT_INT, .arg = "C", .min = 1,
     .max = ENGINE_MAX_BATCH, .off = CLI_AT(total_concurrency),
     .help = "a closed loop: C requests in flight over all replicas\n"
             "(a completion issues the next); not with --rate"},
    {.name = "--closed-start", .kind = CLI_OPT_ENUM, .arg = NULL, .choices = &STARTS,
     .off = CLI_AT(closed_start),
     .help = "how the closed loop's clients start: all at t = 0, every\n"
             "request measured (burst, default; vLLM's benchmark_serving), or\n"
             "spread over one cycle, measured in the steady window (steady)"},
    {.name = "--measure-window", .kind = CLI_OPT_DOUBLE, .arg = "S", .min = 1e-6, .max = 1e9,
     .off = CLI_AT(measure_window),
     .help = "measure only the requests done by S seconds after the start,\n"
             "the rates over them (perf_analyzer's time windows, as GenAI-Perf\n"
             "runs with --measurement-interval I: S = 3.6 I); not with\n"
             "--closed-start steady or --disagg"},
    {.name = "--trace", .kind = CLI_OPT_STRING, .arg = "FILE", .off = CLI_AT(trace),
     .help = "CSV of arrival_s,prompt_tokens,output_tokens (an\n"
             "optional header line; '#' comments); its arrivals unless\n"
             "--total-concurrency, its lengths always"},
    {.name = "--requests", .kind = CLI_OPT_INT, .arg = "N", .min = 1, .max = ENGINE_MAX_SAMPLES,
     .off = CLI_AT(requests), .help = "requests simulated (default 1000; a trace: its own)"},
    {.name = "--prompt-dist", .kind = CLI_OPT_STRING, .arg = "D", .off = CLI_AT(prompt_dist),
     .help = "prompt lengths: fixed (default) | uniform:LO-HI |\n"
             "lognormal:SIGMA (mean --prompt)"},
    {.name = "--gen-dist", .kind = CLI_OPT_STRING, .arg = "D", .off = CLI_AT(gen_dist),
     .help = "output lengths, the same forms (mean --gen)"},
    {.name = "--max-batched-tokens", .kind = CLI_OPT_INT, .arg = "N", .min = 1,
     .max = ENGINE_MAX_TOKENS, .off = CLI_AT(max_batched_tokens), .section = "engine limits:",
     .help = "tokens one step computes, the prefill budget (default:\n"
             "the framework's for the GPU: vLLM 8192 on GPUs of 70 GiB\n"
             "or more but A100s, else 2048; SGLang by GPU memory,\n"
             "2048 to 16384; else its max_num_tokens, 8192); SGLang's\n"
             "attention data-parallel ranks each take it over the ranks"},
    {.name = "--kv-fraction", .kind = CLI_OPT_DOUBLE, .arg = "X", .min = 0.01, .max = 1,
     .off = CLI_AT(mem_fraction),
     .help = "memory fraction of the framework's rule (as\n"
             "--mem-fraction: vLLM gpu_memory_utilization, TensorRT-LLM\n"
             "kv_cache_free_gpu_mem_fraction)"},
    {.name = "--scheduler", .kind = CLI_OPT_ENUM, .arg = NULL, .choices = &SCHEDS,
     .off = CLI_AT(scheduler),
     .help = "chunked prefill beside the decodes, or whole\n"
             "prompts first while decodes pause, or (inflight) whole\n"
             "prompts beside the decodes within the budget, the first\n"
             "that does not fit waiting (TensorRT-LLM's executor without\n"
             "context chunking), or (chunked-prefill-first) prefill\n"
             "chunks in steps of their own while decodes pause (SGLang\n"
             "without --enable-mixed-chunk) (default: the framework's:\n"
             "chunked for vLLM, TensorRT-LLM; chunked-prefill-first for\n"
             "SGLang; prefill-first for generic)"},
    {.name = "--admit-lag", .kind = CLI_OPT_ENUM, .arg = "on|off", .choices = &LAGS,
     .off = CLI_AT(admit_lag),
     .help = "on: the batch of step n + 1 is formed when step n\n"
             "starts (an overlapping scheduler), so a request arriving\n"
             "during a step waits for the one after next; off: it joins\n"
             "the next step (default: the framework's admit_lag: on for\n"
             "SGLang, whose overlap scheduler is on by default)"},
    {.name = "--recv-interval", .kind = CLI_OPT_INT, .arg = "N", .min = 1,
     .max = ENGINE_SIM_MAX_RECV_INTERVAL, .off = CLI_AT(recv_interval),
     .help = "SGLang's --scheduler-recv-interval: new requests are\n"
             "taken in only every N decode steps (and after any step\n"
             "with prefill, or when the replica is idle) (default 1:\n"
             "every step)"},
    {.name = "--kv-alloc", .kind = CLI_OPT_ENUM, .arg = NULL, .choices = &KVS,
     .off = CLI_AT(kv_alloc),
     .help = "reserve: a request's KV blocks for its prompt and every\n"
             "output token at admission, nothing preempted (TensorRT-LLM's\n"
             "GUARANTEED_NO_EVICT); on-demand: blocks as tokens are\n"
             "computed, the newest running request preempted by recompute\n"
             "when the cache runs out (vLLM); estimate: on demand, admitted\n"
             "on SGLang's estimate of the output to come (new_token_ratio),\n"
             "the least advanced decode retracted when it runs out\n"
             "(default: the framework's kv_alloc: on-demand for vLLM,\n"
             "estimate for SGLang, else reserve)"},
    {.name = "--frontend-ms", .kind = CLI_OPT_DOUBLE, .arg = "X", .min = 0, .max = 1e6,
     .off = CLI_AT(frontend_ms), .section = "server front end:",
     .help = "each request's cost in the server's front end, ms, before\n"
             "the engine sees it (HTTP, request set-up), one request at a\n"
             "time in arrival order (default 0: none)"},
    {.name = "--frontend-token-us", .kind = CLI_OPT_DOUBLE, .arg = "Y", .min = 0, .max = 1e6,
     .off = CLI_AT(frontend_token_us),
     .help = "its cost per prompt token, us (the tokenizer; default 0)"},
    {.name = "--frontend-batch-ms", .kind = CLI_OPT_DOUBLE, .arg = "W", .min = 0, .max = 1e6,
     .off = CLI_AT(frontend_batch_ms),
     .help = "tokenizer batches: the first request waits W ms\n"
             "for others to join, then all pass on (vLLM 0.10 to\n"
             "the 2026-06 releases: 2 ms; default 0: no batching)"},
    {.name = "--frontend-batch-max", .kind = CLI_OPT_INT, .arg = "N", .min = 1,
     .max = ENGINE_SIM_FE_BATCH_MAX, .off = CLI_AT(frontend_batch_max),
     .help = "requests a tokenizer batch holds, 1..256 (32)"},
    {.name = "--disagg", .kind = CLI_OPT_STRING, .arg = "xPyD", .off = CLI_AT(load_disagg),
     .section = "disaggregated prefill/decode:",
     .help = "x prefill and y decode replicas (e.g. 2P1D): a request\n"
             "prefills in one pool, its KV cache moves, it decodes in\n"
             "the other (no --tp/--pp/--dp/--ep, no closed loop)"},
    {.name = "--prefill-tp", .kind = CLI_OPT_INT, .arg = "N", .min = 1, .max = 1024,
     .off = CLI_AT(prefill_tp), .help = "TP of a prefill replica (default 1)"},
    {.name = "--decode-tp", .kind = CLI_OPT_INT, .arg = "N", .min = 1, .max = 1024,
     .off = CLI_AT(decode_tp), .help = "TP of a decode replica (default 1)"},
    {.name = "--prefill-pp", .kind = CLI_OPT_INT, .arg = "N", .min = 1, .max = 1024,
     .off = CLI_AT(prefill_pp), .help = "PP of a prefill replica (default 1)"},
    {.name = "--decode-pp", .kind = CLI_OPT_INT, .arg = "N", .min = 1, .max = 1024,
     .off = CLI_AT(decode_pp), .help = "PP of a decode replica (default 1)"},
    {.name = "--prefill-ep", .kind = CLI_OPT_INT, .arg = "N", .min = 1, .max = 1048576,
     .off = CLI_AT(prefill_ep),
     .help = "EP of the prefill pool (default 1; above its TP: DP-attention\n"
             "EP over ep/tp of its replicas, as --ep)"},
    {.name = "--decode-ep", .kind = CLI_OPT_INT, .arg = "N", .min = 1, .max = 1048576,
     .off = CLI_AT(decode_ep), .help = "EP of the decode pool (default 1; as --prefill-ep)"},
    {.name = "--prefill-dtype", .kind = CLI_OPT_ENUM, .arg = "D", .off = CLI_AT(prefill_dtype),
     .choices = &LOAD_DTYPES,
     .help = "weights of the prefill pool (default: --dtype's; the decode\n"
             "pool keeps --dtype)"},
    {.name = "--ttft-ms", .kind = CLI_OPT_DOUBLE, .arg = "X", .off = CLI_AT(ttft_ms), .min = 1e-6,
     .max = 1e9, .section = "service levels:",
     .help = "TTFT target, ms (goodput; not checked when not given)"},
    {.name = "--itl-ms", .kind = CLI_OPT_DOUBLE, .arg = "X", .off = CLI_AT(itl_ms), .min = 1e-6,
     .max = 1e9, .help = "time-per-output-token target, ms (each request's TPOT)"},
    {.name = "--slo-percentile", .kind = CLI_OPT_DOUBLE, .arg = "P", .min = 1e-6, .max = 100,
     .off = CLI_AT(slo_percentile), .help = "percentile the SLO check reads (default 99)"},
    {.name = NULL},
};

const cli_options cli_load_options = {
    .tables = {LOAD_OPTS, cli_scenario_opts},
    .about = "A plan (--tp/--pp/--dp/--ep), or the best plan for the scenario (by --objective,\n"
             "default throughput at each plan's largest batch), served under a load:\n"
             "continuous batching simulated step by step with the engine's step times.\n"
             "Requests go round-robin to the replicas; the KV cache (16-token blocks) is\n"
             "reserved for each request's whole length at admission.\n",
    .footer = "TPOT per request = (e2e - TTFT) / (output tokens - 1), as vLLM's\n"
              "benchmark_serving.  sustainable_rate: a closed loop at the largest batch the KV\n"
              "cache holds, whatever --rate says.  overloaded: the queue kept growing through\n"
              "the second half of the arrivals (measured).  Same inputs and --seed, same\n"
              "output.  Exit status: 0 simulated, 2 bad usage or input.\n"
              "Examples:\n"
              "  shardscope load --model llama-3-8b --gpu h100-sxm --gpus 1 --rate 10\n"
              "  shardscope load --model llama-3-70b --gpu h100-sxm --gpus 8 --tp 4 --dp 2 \\\n"
              "      --framework vllm --rate 5 --ttft-ms 500 --itl-ms 50 --json\n",
};

/* --- inputs -------------------------------------------------------------- */

/* "fixed" | "uniform:LO-HI" | "lognormal:SIGMA". */
static int parse_dist(const char *flag, const char *v, engine_sim_dist *d, engine_error *err)
{
    memset(d, 0, sizeof *d);
    if (!v || !strcmp(v, "fixed"))
        return 0;
    char *end;
    if (!strncmp(v, "uniform:", 8)) {
        long lo = strtol(v + 8, &end, 10), hi = -1;
        if (end != v + 8 && *end == '-')
            hi = strtol(end + 1, &end, 10);
        if (*end || lo < 1 || hi < lo || hi > ENGINE_MAX_TOKENS)
            return engine_errorf(err, "%s: expected uniform:LO-HI with 1 <= LO <= HI <= %d, "
                                 "got '%s'", flag, ENGINE_MAX_TOKENS, v);
        d->kind = ENGINE_SIM_UNIFORM;
        d->lo = (int)lo;
        d->hi = (int)hi;
        return 0;
    }
    if (!strncmp(v, "lognormal:", 10)) {
        double sg = strtod(v + 10, &end);
        if (end == v + 10 || *end || !(sg > 0 && sg <= 10))
            return engine_errorf(err, "%s: expected lognormal:SIGMA with 0 < SIGMA <= 10, got "
                                 "'%s'", flag, v);
        d->kind = ENGINE_SIM_LOGNORMAL;
        d->sigma = sg;
        return 0;
    }
    return engine_errorf(err, "%s: expected fixed, uniform:LO-HI or lognormal:SIGMA, got '%s'",
                         flag, v);
}

static int parse_rate(const char *v, engine_sim_config *c, engine_error *err)
{
    if (!strcmp(v, "inf")) {
        c->arrival = ENGINE_SIM_OFFLINE;
        return 0;
    }
    char *end;
    double r = strtod(v, &end);
    if (end == v || *end || !isfinite(r) || !(r > 0) || r > 1e9)
        return engine_errorf(err, "--rate: expected requests/s above 0 (at most 1e9) or inf, "
                             "got '%s'", v);
    c->arrival = ENGINE_SIM_POISSON;
    c->rate = r;
    return 0;
}

/* Read the whole trace file; rows allocated (free). */
static int load_trace(const char *path, engine_sim_request **rows, int *n, engine_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return engine_errorf(err, "--trace: %s: cannot open", path);
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    for (;;) {
        if (!text) {
            fclose(f);
            return engine_errorf(err, "--trace: %s: out of memory", path);
        }
        len += fread(text + len, 1, cap - len, f);
        if (len < cap)
            break;
        char *t = cap > (size_t)1 << 30 ? NULL : realloc(text, cap * 2);
        if (!t)
            free(text);
        text = t;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(text);
        return engine_errorf(err, "--trace: %s: read error", path);
    }
    int lines = cli_trace_lines(text, len);
    int room = lines < CLI_TRACE_MAX ? lines : CLI_TRACE_MAX;
    *rows = malloc(sizeof **rows * (size_t)(room > 0 ? room : 1));
    if (!*rows) {
        free(text);
        return engine_errorf(err, "--trace: %s: out of memory", path);
    }
    engine_error pe = {{0}};
    *n = cli_trace_parse(text, len, path, *rows, room, &pe);
    free(text);
    if (*n < 0) {
        free(*rows);
        *rows = NULL;
        return engine_errorf(err, "--trace: %s", pe.msg);
    }
    return 0;
}

/* The simulation's configuration from the flags (defaults: the stepper's
 * framework and scenario). */
/* --trace FILE into *rows (the caller frees it, also on failure) and c:
 * its lengths always; its arrivals too unless c is a closed loop (then
 * --rate with it is an error).  Returns 0, or -1 with err set.  No
 * --trace: 0, c unchanged. */
static int use_trace(const cli_opts *o, engine_sim_config *c, engine_sim_request **rows,
                     engine_error *err)
{
    if (!o->v.trace)
        return 0;
    if (load_trace(o->v.trace, rows, &c->n_trace, err) != 0)
        return -1;
    c->trace = *rows;
    if (c->arrival == ENGINE_SIM_CLOSED)
        return 0;
    if (CLI_SEEN(o, load_rate))
        return engine_errorf(err, "--trace: its arrivals are the load; not with --rate");
    c->arrival = ENGINE_SIM_TRACE;
    return 0;
}

static int load_config(const cli_opts *o, const engine_stepper *st, engine_sim_config *c,
                       engine_error *err)
{
    const cli_values *v = &o->v;
    engine_sim_defaults(c, st);
    if (CLI_SEEN(o, load_rate) && CLI_SEEN(o, total_concurrency))
        return engine_errorf(err, "--rate: cannot be combined with --total-concurrency");
    if (CLI_SEEN(o, load_rate) && parse_rate(v->load_rate, c, err) != 0)
        return -1;
    if (CLI_SEEN(o, total_concurrency)) {
        c->arrival = ENGINE_SIM_CLOSED;
        c->concurrency = v->total_concurrency;
    }
    if (CLI_SEEN(o, requests))
        c->requests = v->requests;
    if (parse_dist("--prompt-dist", v->prompt_dist, &c->prompt_dist, err) != 0 ||
        parse_dist("--gen-dist", v->gen_dist, &c->gen_dist, err) != 0)
        return -1;
    /* --max-num-seqs is a scenario flag: engine_sim_defaults took it */
    if (CLI_SEEN(o, max_batched_tokens))
        c->max_batched_tokens = v->max_batched_tokens;
    if (CLI_SEEN(o, scheduler))
        c->sched = (engine_sim_sched)v->scheduler;
    if (CLI_SEEN(o, admit_lag) && v->admit_lag != ENGINE_GRAPHS_DEFAULT)
        c->admit_lag = v->admit_lag == ENGINE_GRAPHS_ON;
    if (CLI_SEEN(o, recv_interval))
        c->recv_interval = v->recv_interval;
    if (CLI_SEEN(o, kv_alloc))
        c->kv_alloc = (engine_sim_kv)v->kv_alloc;
    if (CLI_SEEN(o, closed_start) && c->arrival != ENGINE_SIM_CLOSED)
        return engine_errorf(err, "--closed-start: only with --total-concurrency (a closed loop)");
    if (CLI_SEEN(o, closed_start))
        c->closed_start = (engine_sim_start)v->closed_start;
    if (CLI_SEEN(o, measure_window) && c->closed_start == ENGINE_SIM_START_STEADY)
        return engine_errorf(err, "--measure-window: not with --closed-start steady (its own window)");
    if (CLI_SEEN(o, measure_window))
        c->measure_s = v->measure_window;
    if (CLI_SEEN(o, frontend_ms))
        c->frontend_s = v->frontend_ms / 1e3;
    if (CLI_SEEN(o, frontend_token_us))
        c->frontend_token_s = v->frontend_token_us / 1e6;
    if (CLI_SEEN(o, frontend_batch_ms))
        c->frontend_batch_s = v->frontend_batch_ms / 1e3;
    if (CLI_SEEN(o, frontend_batch_max))
        c->frontend_batch_max = v->frontend_batch_max;
    c->seed = st->s.seed;
    c->ttft_slo_s = CLI_SEEN(o, ttft_ms) ? v->ttft_ms / 1e3 : 0;
    c->tpot_slo_s = CLI_SEEN(o, itl_ms) ? v->itl_ms / 1e3 : 0;
    if (CLI_SEEN(o, slo_percentile))
        c->slo_percentile = v->slo_percentile;
    return 0;
}

/* The plan: the explicit one, or the first that fits in the ranking by the
 * scenario's objective (throughput at each plan's largest batch unless
 * --objective, --batch or --total-concurrency say otherwise). */
static int pick_plan(const cli_scenario *cs, const cli_opts *o, engine_plan *plan,
                     engine_error *err)
{
    if (cs->has_plan) {
        *plan = cs->plan;
        return 0;
    }
    engine_scenario s = cs->scenario;
    if (!CLI_SEEN(o, objective))
        s.objective = ENGINE_OBJ_THROUGHPUT;
    if (s.objective != ENGINE_OBJ_LATENCY && !CLI_SEEN(o, batch) && !s.total_concurrency)
        s.batch_max = 1;
    int cap = engine_plan_count(&s);
    engine_result *rs = calloc((size_t)(cap > 0 ? cap : 1), sizeof *rs);
    if (!rs)
        return engine_errorf(err, "out of memory for %d plans", cap);
    int n = engine_rank(&s, rs, cap, 0, err);
    int found = n > 0 && rs[0].valid && rs[0].fits;
    if (found)
        *plan = rs[0].plan;
    free(rs);
    if (n < 0)
        return -1;
    if (!found)
        return engine_errorf(err, "no plan fits on %d GPUs", s.gpus);
    return 0;
}

/* --- output -------------------------------------------------------------- */

static const char *arrival_name(engine_sim_arrival a)
{
    static const char *const names[] = {"poisson", "offline", "closed", "trace"};
    return (unsigned)a < ENGINE_SIM_ARRIVAL_COUNT ? names[a] : "?";
}

static cJSON *dist_json(const engine_sim_dist *d)
{
    cJSON *o = cJSON_CreateObject();
    static const char *const kinds[] = {"fixed", "uniform", "lognormal"};
    cJSON_AddStringToObject(o, "kind", kinds[d->kind]);
    if (d->kind == ENGINE_SIM_UNIFORM) {
        cJSON_AddNumberToObject(o, "lo", d->lo);
        cJSON_AddNumberToObject(o, "hi", d->hi);
    } else if (d->kind == ENGINE_SIM_LOGNORMAL) {
        cli_json_add_number(o, "sigma", d->sigma);
    }
    return o;
}

static cJSON *load_json_inputs(const engine_sim_config *c, const char *trace)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "arrival", arrival_name(c->arrival));
    if (c->arrival == ENGINE_SIM_POISSON)
        cli_json_add_number(o, "rate", c->rate);
    else
        cJSON_AddNullToObject(o, "rate");
    if (c->arrival == ENGINE_SIM_CLOSED)
        cJSON_AddNumberToObject(o, "concurrency", c->concurrency);
    else
        cJSON_AddNullToObject(o, "concurrency");
    if (c->arrival == ENGINE_SIM_CLOSED)
        cJSON_AddStringToObject(o, "closed_start", engine_sim_start_name(c->closed_start));
    else
        cJSON_AddNullToObject(o, "closed_start");
    if (c->measure_s > 0)
        cli_json_add_number(o, "measure_window_s", c->measure_s);
    else
        cJSON_AddNullToObject(o, "measure_window_s");
    if (trace)
        cJSON_AddStringToObject(o, "trace", trace);
    else
        cJSON_AddNullToObject(o, "trace");
    cJSON_AddNumberToObject(o, "requests", c->arrival == ENGINE_SIM_TRACE ? c->n_trace
                                                                          : c->requests);
    cJSON_AddItemToObject(o, "prompt_dist", dist_json(&c->prompt_dist));
    cJSON_AddItemToObject(o, "gen_dist", dist_json(&c->gen_dist));
    cJSON_AddStringToObject(o, "scheduler", engine_sim_sched_name(c->sched));
    cJSON_AddBoolToObject(o, "admit_lag", c->admit_lag);
    cJSON_AddNumberToObject(o, "recv_interval", c->recv_interval > 1 ? c->recv_interval : 1);
    cJSON_AddStringToObject(o, "kv_alloc", engine_sim_kv_name(c->kv_alloc));
    cJSON_AddNumberToObject(o, "max_num_seqs", c->max_num_seqs);
    cJSON_AddNumberToObject(o, "max_batched_tokens", c->max_batched_tokens);
    cli_json_add_number(o, "frontend_s", c->frontend_s);
    cli_json_add_number(o, "frontend_token_s", c->frontend_token_s);
    cli_json_add_number(o, "frontend_batch_s", c->frontend_batch_s);
    cJSON_AddNumberToObject(o, "frontend_batch_max",
                            c->frontend_batch_max > 0 ? c->frontend_batch_max
                                                      : ENGINE_SIM_FE_BATCH_DEFAULT);
    return o;
}

static cJSON *load_json_stats(const engine_stepper *st, const engine_sim_config *c,
                              const engine_sim_result *r, cJSON *root)
{
    cJSON *b = cJSON_AddObjectToObject(root, "batch");
    cli_json_add_number(b, "mean", r->mean_batch);
    cJSON_AddNumberToObject(b, "max", r->max_batch);
    cJSON_AddNumberToObject(b, "max_num_seqs", c->max_num_seqs);
    cJSON *kv = cJSON_AddObjectToObject(root, "kv");
    cJSON_AddNumberToObject(kv, "capacity_blocks", (double)st->kv_blocks);
    cJSON_AddNumberToObject(kv, "capacity_tokens", (double)st->kv_blocks * ENGINE_KV_BLOCK);
    cJSON_AddNumberToObject(kv, "block_tokens", ENGINE_KV_BLOCK);
    cli_json_add_number(kv, "use_mean", r->kv_use);
    cli_json_add_number(kv, "use_peak", r->kv_use_max);
    cJSON_AddNumberToObject(kv, "peak_blocks", (double)r->kv_blocks_peak);
    cJSON_AddNumberToObject(kv, "preemptions", (double)r->preemptions);
    cJSON *q = cJSON_AddObjectToObject(root, "queue");
    cli_json_add_number(q, "mean", r->mean_queue);
    cJSON_AddNumberToObject(q, "max", r->max_queue);
    cJSON *ts = cJSON_AddArrayToObject(q, "t_s");
    cJSON *wa = cJSON_AddArrayToObject(q, "waiting");
    for (int i = 0; i < r->n_series; i++) {
        cJSON_AddItemToArray(ts, cJSON_CreateNumber(r->series_t[i]));
        cJSON_AddItemToArray(wa, cJSON_CreateNumber(r->series_queue[i]));
    }
    cJSON *s = cJSON_AddObjectToObject(root, "slo");
    cli_json_add_number(s, "percentile", c->slo_percentile);
    out_json_add_positive(s, "ttft_target_s", c->ttft_slo_s);
    out_json_add_positive(s, "tpot_target_s", c->tpot_slo_s);
    cli_json_add_number(s, "ttft_s", r->ttft_at_slo_s);
    cli_json_add_number(s, "tpot_s", r->tpot_at_slo_s);
    cJSON_AddBoolToObject(s, "met", r->slo_met);
    return root;
}

/* The members after the plan, shared by a plan's and a --disagg run's JSON:
 * load (the inputs), ttft_s/tpot_s/e2e_s, the throughputs, overloaded,
 * sustainable_rate, the batch/KV/step counters, then load_json_stats' (st:
 * the replica whose cache they name).  Adds to root, which keeps them. */
static void load_json_result(cJSON *root, const engine_stepper *st, const engine_sim_config *c,
                             const engine_sim_result *r, double sustain, const char *trace)
{
    cJSON_AddItemToObject(root, "load", load_json_inputs(c, trace));
    cJSON_AddItemToObject(root, "ttft_s", out_sim_pct_json(&r->ttft));
    cJSON_AddItemToObject(root, "tpot_s", out_sim_pct_json(&r->tpot));
    cJSON_AddItemToObject(root, "e2e_s", out_sim_pct_json(&r->e2e));
    cli_json_add_number(root, "output_tokens_per_s", r->output_tokens_per_s);
    cli_json_add_number(root, "requests_per_s", r->requests_per_s);
    cli_json_add_number(root, "goodput_requests_per_s", r->goodput_requests_per_s);
    cJSON_AddBoolToObject(root, "overloaded", r->overloaded);
    cli_json_add_number(root, "sustainable_rate", sustain);
    cli_json_add_number(root, "mean_batch", r->mean_batch);
    cli_json_add_number(root, "kv_use", r->kv_use);
    cJSON_AddNumberToObject(root, "requests_completed", r->completed);
    cJSON_AddNumberToObject(root, "requests_rejected", r->rejected);
    cJSON_AddNumberToObject(root, "requests_measured", r->measured);
    cli_json_add_number(root, "duration_s", r->duration_s);
    cJSON_AddNumberToObject(root, "steps", (double)r->steps);
    cli_json_add_number(root, "busy_fraction", r->busy_fraction);
    load_json_stats(st, c, r, root);
}

static int print_json(const engine_stepper *st, const engine_sim_config *c,
                      const engine_sim_result *r, double sustain, const char *trace)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return cli_json_print("load", stdout, NULL);
    cJSON_AddItemToObject(root, "scenario", cli_scenario_json(&st->s));
    cJSON_AddItemToObject(root, "plan", out_plan_json(&st->plan));
    load_json_result(root, st, c, r, sustain, trace);
    return cli_json_print("load", stdout, root) ? CLI_FAIL : CLI_OK;
}

static void print_dist(const char *what, int mean, const engine_sim_dist *d)
{
    if (d->kind == ENGINE_SIM_UNIFORM)
        printf("%s uniform %d-%d", what, d->lo, d->hi);
    else if (d->kind == ENGINE_SIM_LOGNORMAL)
        printf("%s lognormal mean %d sigma %g", what, mean, d->sigma);
    else
        printf("%s %d", what, mean);
}

static void print_load_lines(const engine_stepper *st, const engine_sim_config *c,
                             const char *trace);

static void print_inputs(const engine_stepper *st, const engine_sim_config *c, const char *trace,
                         int picked)
{
    const engine_scenario *s = &st->s;
    const engine_plan *p = &st->plan;
    printf("%s on %d x %s, link %s; plan tp=%d pp=%d dp=%d ep=%d%s\n",
           fmt_model_name(s->model), s->gpus,
           fmt_gpu_name(s->gpu), s->intra->name, p->tp, p->pp,
           p->dp, p->ep, picked ? " (the best for the scenario)" : "");
    print_load_lines(st, c, trace);
}

/* The load and engine lines (st: the replica whose limits and cache they
 * name; a disaggregated plan's decode pool). */
static void print_load_lines(const engine_stepper *st, const engine_sim_config *c,
                             const char *trace)
{
    const engine_scenario *s = &st->s;
    if (c->arrival == ENGINE_SIM_POISSON)
        printf("load: Poisson %g requests/s", c->rate);
    else if (c->arrival == ENGINE_SIM_OFFLINE)
        printf("load: offline (every request at t = 0)");
    else if (c->arrival == ENGINE_SIM_CLOSED)
        printf("load: closed loop, %d requests in flight%s", c->concurrency,
               c->closed_start == ENGINE_SIM_START_STEADY
                   ? " (steady start: measured in the steady window)"
                   : "");
    else
        printf("load: trace %s", trace);
    if (trace && c->arrival != ENGINE_SIM_TRACE)
        printf(" (lengths from %s)", trace);
    printf(", %d requests, ", c->arrival == ENGINE_SIM_TRACE ? c->n_trace : c->requests);
    if (c->measure_s > 0) {
        char w[32];
        printf("measured: those done by %s, ", fmt_seconds(c->measure_s, NULL, w, sizeof w));
    }
    if (!trace) {
        print_dist("prompt", c->prompt, &c->prompt_dist);
        print_dist(", output", c->gen, &c->gen_dist);
        printf(" tokens, ");
    }
    printf("seed %llu\n", (unsigned long long)c->seed);
    char recv[64] = "";
    if (c->recv_interval > 1)
        snprintf(recv, sizeof recv, " (new requests taken in every %d decode steps)",
                 c->recv_interval);
    char rank[64] = "";
    int rt = engine_sim_rank_tokens(st, c->max_batched_tokens);
    if (rt != c->max_batched_tokens) /* SGLang's attention data-parallel ranks */
        snprintf(rank, sizeof rank, " (%d an attention rank)", rt);
    printf("engine: %s, scheduler %s%s%s, at most %d requests and %d tokens a step%s; KV cache "
           "%lld blocks of %d tokens per replica, %s\n",
           s->framework ? s->framework->name : "generic", engine_sim_sched_name(c->sched),
           c->admit_lag ? " (batches formed a step ahead)" : "", recv,
           c->max_num_seqs, c->max_batched_tokens, rank, st->kv_blocks, ENGINE_KV_BLOCK,
           c->kv_alloc == ENGINE_SIM_KV_ON_DEMAND
               ? "given out on demand (the newest request preempted by recompute when it runs out)"
           : c->kv_alloc == ENGINE_SIM_KV_ESTIMATE
               ? "given out on demand behind an estimate of the output to come (the least "
                 "advanced request retracted when it runs out)"
               : "reserved whole at admission");
    if (c->frontend_batch_s > 0)
        printf("front end: tokenizer batches of up to %d requests, the first waiting %.6g ms "
               "for others; then %.6g ms + %.6g µs a prompt token per request\n",
               c->frontend_batch_max > 0 ? c->frontend_batch_max : ENGINE_SIM_FE_BATCH_DEFAULT,
               c->frontend_batch_s * 1e3, c->frontend_s * 1e3, c->frontend_token_s * 1e6);
    else if (c->frontend_s > 0 || c->frontend_token_s > 0)
        printf("front end: %.6g ms + %.6g µs a prompt token per request, one at a time, "
               "before the engine\n", c->frontend_s * 1e3, c->frontend_token_s * 1e6);
}

static void pct_row(const char *label, const engine_sim_pct *p)
{
    char a[32], b[32], d[32], m[32];
    printf("  %-6s", label);
    out_put_col(stdout, fmt_seconds(p->p50, NULL, a, sizeof a), -11);
    out_put_col(stdout, fmt_seconds(p->p90, NULL, b, sizeof b), -11);
    out_put_col(stdout, fmt_seconds(p->p99, NULL, d, sizeof d), -11);
    out_put_col(stdout, fmt_seconds(p->mean, NULL, m, sizeof m), -11);
    printf("\n");
}

static void print_text(const engine_stepper *st, const engine_sim_config *c,
                       const engine_sim_result *r, double sustain)
{
    char a[32], b[32], x[32], y[32];
    printf("\n  %-6s%11s%11s%11s%11s\n", "", "p50", "p90", "p99", "mean");
    pct_row("TTFT", &r->ttft);
    pct_row("TPOT", &r->tpot);
    pct_row("E2E", &r->e2e);
    printf("\n  throughput     %.1f output tokens/s, %.3f requests/s (%d of %d served",
           r->output_tokens_per_s, r->requests_per_s, r->completed, r->requests);
    if (r->rejected)
        printf(", %d larger than the KV cache", r->rejected);
    printf(", over %.2f s)\n", r->duration_s);
    printf("  goodput        %.3f requests/s", r->goodput_requests_per_s);
    if (c->ttft_slo_s > 0 || c->tpot_slo_s > 0)
        printf(" meeting TTFT <= %s and TPOT <= %s\n",
               c->ttft_slo_s > 0 ? fmt_seconds(c->ttft_slo_s, NULL, x, sizeof x) : "any",
               c->tpot_slo_s > 0 ? fmt_seconds(c->tpot_slo_s, NULL, y, sizeof y) : "any");
    else
        printf(" (no --ttft-ms / --itl-ms: every request counts)\n");
    printf("  SLO at p%g     TTFT %s, TPOT %s: %s\n", c->slo_percentile,
           fmt_seconds(r->ttft_at_slo_s, NULL, a, sizeof a),
           fmt_seconds(r->tpot_at_slo_s, NULL, b, sizeof b),
           c->ttft_slo_s <= 0 && c->tpot_slo_s <= 0 ? "no targets given"
           : r->slo_met                             ? "met"
                                                    : "missed");
    int od = engine_sim_on_demand_batch(st, c);
    printf("  sustainable    %.3f requests/s (closed loop at %d requests per replica", sustain,
           engine_sim_max_batch(st, c));
    if (od > 0)
        printf(", or %d, what the cache holds at their mean progress, the better", od);
    printf(")\n");
    if (r->overloaded)
        printf("  state          OVERLOADED: the queue kept growing through the second half of "
               "the arrivals;\n                 these percentiles grow with the run's length\n");
    else
        printf("  state          steady (the queue did not keep growing)\n");
    printf("  batch          mean %.1f, max %d requests a step (max-num-seqs %d)\n",
           r->mean_batch, r->max_batch, c->max_num_seqs);
    printf("  KV cache       mean %.1f %%, peak %.1f %% of %lld blocks (%lld tokens)",
           100 * r->kv_use, 100 * r->kv_use_max, st->kv_blocks, st->kv_blocks * ENGINE_KV_BLOCK);
    if (c->kv_alloc != ENGINE_SIM_KV_RESERVE)
        printf("; %lld %s", r->preemptions,
               c->kv_alloc == ENGINE_SIM_KV_ESTIMATE ? "retractions" : "preemptions");
    printf("\n");
    printf("  queue          mean %.1f, max %d waiting; over time:", r->mean_queue, r->max_queue);
    for (int i = 0; i < r->n_series; i++)
        printf(" %d", r->series_queue[i]);
    printf("\n  steps          %lld engine steps, replicas busy %.1f %% of the time\n", r->steps,
           100 * r->busy_fraction);
}

/* --- run ------------------------------------------------------------------- */

/* A failed run's message ("out of memory" when nothing set err) on stderr
 * through cli_fail; returns its exit status. */
static int load_fail(engine_error *err)
{
    if (!err->msg[0])
        engine_errorf(err, "out of memory");
    return cli_fail("load", err);
}

static int load_simulate(const cli_scenario *cs, const cli_opts *o, int picked, engine_plan plan)
{
    engine_error err = {{0}};
    engine_stepper *st = malloc(sizeof *st);
    engine_sim_request *rows = NULL;
    void *work = NULL;
    int rc = CLI_USAGE;
    engine_sim_config c;
    /* --max-batched-tokens is the framework's max_num_tokens too: it sizes
     * the activation workspace the KV cache shares memory with (vLLM
     * profiles with max_num_batched_tokens). */
    engine_scenario s = cs->scenario;
    engine_framework fw;
    if (CLI_SEEN(o, max_batched_tokens)) {
        if (s.framework)
            fw = *s.framework;
        else
            engine_framework_generic(&fw);
        fw.max_num_tokens = o->v.max_batched_tokens;
        s.framework = &fw;
    }
    if (!st || engine_stepper_init(st, &s, plan, &err) != 0)
        goto fail;
    if (!st->valid) {
        engine_errorf(&err, "plan tp=%d pp=%d dp=%d ep=%d: %s", plan.tp, plan.pp, plan.dp, plan.ep,
                      st->reason);
        goto fail;
    }
    if (load_config(o, st, &c, &err) != 0)
        goto fail;
    if (use_trace(o, &c, &rows, &err) != 0)
        goto fail;
    if (st->kv_blocks < 1) {
        engine_errorf(&err, "plan tp=%d pp=%d dp=%d ep=%d: no room for the KV cache", plan.tp,
                      plan.pp, plan.dp, plan.ep);
        goto fail;
    }
    size_t bytes = engine_sim_workspace_bytes(st, &c);
    work = bytes ? malloc(bytes) : NULL;
    engine_sim_result r;
    if (!work || engine_sim_run(st, &c, work, bytes, &r, &err) != 0)
        goto fail;
    double sustain = engine_sim_sustainable_rate(st, &c, work, bytes, &err);
    if (o->v.json) {
        rc = print_json(st, &c, &r, sustain, o->v.trace);
    } else {
        print_inputs(st, &c, o->v.trace, picked);
        print_text(st, &c, &r, sustain);
        rc = CLI_OK;
    }
    goto done;
fail:
    rc = load_fail(&err);
done:
    free(work);
    free(rows);
    free(st);
    return rc;
}

/* --- disaggregated prefill/decode (--disagg xPyD) ------------------------ */

/* The two pools' steppers and the transfer of a --disagg run. */
typedef struct load_pools {
    engine_disagg_plan plan;
    engine_stepper pre, dec;
    engine_sim_transfer x;
    double transfer_s, exposed_s; /* one request of the mean prompt */
    int streams, cross_node;
} load_pools;

/* "2P1D" (case-insensitive) into x and y >= 1; -1 otherwise. */
static int parse_xpyd(const char *v, int *x, int *y)
{
    char p = 0, d = 0, tail = 0;
    if (!v || sscanf(v, "%d%c%d%c%c", x, &p, y, &d, &tail) != 4)
        return -1;
    if ((p != 'P' && p != 'p') || (d != 'D' && d != 'd') || *x < 1 || *y < 1 || *x > 1024 ||
        *y > 1024)
        return -1;
    return 0;
}

static int pools_init(const cli_scenario *cs, const cli_opts *o, load_pools *lp,
                      engine_error *err)
{
    int x, y;
    if (parse_xpyd(o->v.load_disagg, &x, &y) != 0)
        return engine_errorf(err, "--disagg: expected xPyD with x, y in 1..1024 (e.g. 2P1D), "
                                  "got '%s'", o->v.load_disagg);
    int tpp = CLI_SEEN(o, prefill_tp) ? o->v.prefill_tp : 1;
    int tpd = CLI_SEEN(o, decode_tp) ? o->v.decode_tp : 1;
    lp->plan = (engine_disagg_plan){
        {tpp, CLI_SEEN(o, prefill_pp) ? o->v.prefill_pp : 1, x,
         CLI_SEEN(o, prefill_ep) ? o->v.prefill_ep : 1},
        {tpd, CLI_SEEN(o, decode_pp) ? o->v.decode_pp : 1, y,
         CLI_SEEN(o, decode_ep) ? o->v.decode_ep : 1}};
    int gpus = engine_disagg_gpus(lp->plan);
    if (CLI_SEEN(o, gpus) && o->v.gpus != gpus)
        return engine_errorf(err, "--gpus: %s runs %d GPUs (x * prefill TP x PP + y * decode "
                                  "TP x PP), not %d", o->v.load_disagg, gpus, o->v.gpus);
    const engine_plan *pl[2] = {&lp->plan.prefill, &lp->plan.decode};
    engine_stepper *st[2] = {&lp->pre, &lp->dec};
    for (int k = 0; k < 2; k++) {
        engine_scenario s = cs->scenario;
        if (k == 0 && CLI_SEEN(o, prefill_dtype))
            s.weight_dtype = (engine_dtype)o->v.prefill_dtype;
        s.gpus = pl[k]->tp * pl[k]->pp * pl[k]->dp;
        if (engine_stepper_init(st[k], &s, *pl[k], err) != 0)
            return -1;
        if (!st[k]->valid || st[k]->kv_blocks < 1)
            return engine_errorf(err, "--disagg: the %s pool (tp=%d pp=%d dp=%d ep=%d): %s",
                                 k ? "decode" : "prefill", pl[k]->tp, pl[k]->pp, pl[k]->dp,
                                 pl[k]->ep,
                                 st[k]->valid ? "no room for the KV cache" : st[k]->reason);
    }
    engine_scenario s = cs->scenario;
    s.gpus = gpus;
    engine_disagg_sim_transfer(&s, lp->plan, &lp->x);
    lp->transfer_s =
        engine_disagg_transfer_s(&s, lp->plan, s.prompt, &lp->streams, &lp->cross_node);
    engine_step_chunk ch = {1, s.prompt, 0};
    engine_step_mix m = {&ch, 1, 0, 0};
    lp->exposed_s = engine_disagg_exposed_s(lp->transfer_s, engine_step_s(&lp->pre, &m),
                                            s.model->layers);
    return 0;
}

static cJSON *pools_json(const load_pools *lp, double rp, double rd)
{
    cJSON *d = cJSON_CreateObject();
    char nm[64];
    engine_disagg_name(lp->plan, nm, sizeof nm);
    cJSON_AddStringToObject(d, "name", nm);
    cJSON_AddItemToObject(d, "prefill", out_plan_json(&lp->plan.prefill));
    cJSON_AddItemToObject(d, "decode", out_plan_json(&lp->plan.decode));
    cJSON_AddStringToObject(d, "prefill_dtype",
                            engine_dtype_name(engine_scenario_weight_dtype(&lp->pre.s)));
    cli_json_add_number(d, "transfer_s", lp->transfer_s);
    cli_json_add_number(d, "transfer_exposed_s", lp->exposed_s);
    cJSON_AddNumberToObject(d, "transfer_streams", lp->streams);
    cJSON_AddBoolToObject(d, "transfer_cross_node", lp->cross_node);
    cli_json_add_number(d, "prefill_pool_rate", rp);
    cli_json_add_number(d, "decode_pool_rate", rd);
    return d;
}

static int print_json_disagg(const load_pools *lp, const engine_sim_config *c,
                             const engine_sim_result *r, double sustain, double rp, double rd,
                             const char *trace)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return cli_json_print("load", stdout, NULL);
    engine_scenario s = lp->dec.s;
    s.gpus = engine_disagg_gpus(lp->plan);
    cJSON_AddItemToObject(root, "scenario", cli_scenario_json(&s));
    cJSON_AddNullToObject(root, "plan");
    cJSON_AddItemToObject(root, "disagg", pools_json(lp, rp, rd));
    load_json_result(root, &lp->dec, c, r, sustain, trace);
    return cli_json_print("load", stdout, root) ? CLI_FAIL : CLI_OK;
}

static void print_text_disagg(const load_pools *lp, const engine_sim_config *c,
                              const engine_sim_result *r, double sustain, double rp, double rd,
                              const char *trace)
{
    const engine_scenario *s = &lp->dec.s;
    char nm[64], a[32], b[32], pa[48], pb[48];
    engine_disagg_name(lp->plan, nm, sizeof nm);
    engine_disagg_pool_name(lp->plan.prefill, pa, sizeof pa);
    engine_disagg_pool_name(lp->plan.decode, pb, sizeof pb);
    engine_dtype wp = engine_scenario_weight_dtype(&lp->pre.s);
    engine_dtype wd = engine_scenario_weight_dtype(&lp->dec.s);
    printf("%s on %d x %s: disaggregated %s (prefill %d x %s%s%s, decode %d x %s%s%s)\n",
           fmt_model_name(s->model), engine_disagg_gpus(lp->plan), fmt_gpu_name(s->gpu), nm,
           lp->plan.prefill.dp, pa, wp != wd ? " " : "", wp != wd ? engine_dtype_name(wp) : "",
           lp->plan.decode.dp, pb, wp != wd ? " " : "", wp != wd ? engine_dtype_name(wd) : "");
    printf("KV transfer: %s for a %d-token prompt over %s in %d stream%s, %s of it in TTFT "
           "(sent layer by layer)\n",
           fmt_seconds(lp->transfer_s, NULL, a, sizeof a), s->prompt,
           lp->cross_node && s->inter ? s->inter->name : s->intra->name, lp->streams,
           lp->streams == 1 ? "" : "s", fmt_seconds(lp->exposed_s, NULL, b, sizeof b));
    /* the engine and KV lines are the decode pool's, whose prompts arrive
     * cached: its cache is reserved whatever the policy (sim.h) */
    engine_sim_config cd = *c;
    cd.kv_alloc = ENGINE_SIM_KV_RESERVE;
    print_load_lines(&lp->dec, &cd, trace);
    print_text(&lp->dec, &cd, r, sustain);
    printf("  pools          prefill %.3f requests/s, decode %.3f requests/s (closed loops "
           "at their largest batch): the plan sustains the smaller\n",
           rp, rd);
}

static int load_disagg(const cli_scenario *cs, const cli_opts *o)
{
    engine_error err = {{0}};
    load_pools *lp = malloc(sizeof *lp);
    engine_sim_request *rows = NULL;
    void *work = NULL;
    int rc = CLI_FAIL;
    engine_sim_config c;
    if (!lp || pools_init(cs, o, lp, &err) != 0 || load_config(o, &lp->dec, &c, &err) != 0)
        goto fail;
    if (c.arrival == ENGINE_SIM_CLOSED) {
        engine_errorf(&err, "--total-concurrency: a closed loop is not simulated with --disagg "
                            "(use --rate or --trace)");
        goto fail;
    }
    if (use_trace(o, &c, &rows, &err) != 0)
        goto fail;
    size_t bytes = engine_sim_disagg_workspace_bytes(&lp->pre, &lp->dec, &c);
    work = bytes ? malloc(bytes) : NULL;
    engine_sim_result r;
    double rp = 0, rd = 0;
    if (!work || engine_sim_disagg_run(&lp->pre, &lp->dec, &c, &lp->x, work, bytes, &r, &err))
        goto fail;
    double mu = engine_sim_disagg_sustainable_rate(&lp->pre, &lp->dec, &c, work, bytes, &rp, &rd,
                                                   &err);
    if (o->v.json) {
        rc = print_json_disagg(lp, &c, &r, mu, rp, rd, o->v.trace);
    } else {
        print_text_disagg(lp, &c, &r, mu, rp, rd, o->v.trace);
        rc = CLI_OK;
    }
    goto done;
fail:
    rc = load_fail(&err);
done:
    free(work);
    free(rows);
    free(lp);
    return rc;
}

/* The --disagg flags' own errors: with a plan, or the pool TPs without it. */
static int disagg_flags(const cli_opts *o)
{
    const char *msg = NULL;
    if (!CLI_SEEN(o, load_disagg) && (CLI_SEEN(o, prefill_tp) || CLI_SEEN(o, decode_tp)))
        msg = "--prefill-tp/--decode-tp: only with --disagg xPyD";
    else if (!CLI_SEEN(o, load_disagg) && (CLI_SEEN(o, prefill_pp) || CLI_SEEN(o, decode_pp) ||
                                           CLI_SEEN(o, prefill_ep) || CLI_SEEN(o, decode_ep) ||
                                           CLI_SEEN(o, prefill_dtype)))
        msg = "--prefill-pp/--decode-pp/--prefill-ep/--decode-ep/--prefill-dtype: only with "
              "--disagg xPyD";
    else if (CLI_SEEN(o, load_disagg) &&
             (CLI_SEEN(o, tp) || CLI_SEEN(o, pp) || CLI_SEEN(o, dp) || CLI_SEEN(o, ep)))
        msg = "--tp/--pp/--dp/--ep: with --disagg the pools are --prefill-tp and --decode-tp";
    else if (CLI_SEEN(o, load_disagg) && CLI_SEEN(o, measure_window))
        msg = "--measure-window: not with --disagg";
    if (!msg)
        return 0;
    fprintf(stderr, "shardscope load: %s\n", msg);
    return -1;
}

int cli_load_run(const cli_opts *o, const preset_db *db)
{
    if (disagg_flags(o) != 0)
        return CLI_USAGE;
    cli_scenario *cs = malloc(sizeof *cs);
    if (!cs) {
        fprintf(stderr, "shardscope load: out of memory\n");
        return CLI_FAIL;
    }
    engine_error err = {{0}};
    int rc;
    engine_plan plan = {1, 1, 1, 1};
    if (CLI_SEEN(o, load_disagg)) {
        if (cli_scenario_load(o, db, CLI_NEED_MODEL | CLI_NEED_GPU, "load", cs, &err) != 0)
            rc = cli_fail("load", &err);
        else
            rc = load_disagg(cs, o);
        free(cs);
        return rc;
    }
    if (cli_scenario_load(o, db, CLI_NEED_ALL, "load", cs, &err) != 0 ||
        pick_plan(cs, o, &plan, &err) != 0)
        rc = cli_fail("load", &err);
    else
        rc = load_simulate(cs, o, !cs->has_plan, plan);
    free(cs);
    return rc;
}
