/*
 * fuzz_trace.c - libFuzzer harness for the request trace of `shardscope
 * load --trace` (cli_trace_parse, tui/cli/trace.c) and the simulation it
 * feeds (engine_sim_run, engine/sim.c).
 *
 * Checked: a refused input leaves one line naming the file; an accepted
 * one gives 1..cap requests with finite, non-negative, non-decreasing
 * arrivals and lengths in 1..ENGINE_MAX_TOKENS, which engine_sim_check
 * accepts; simulated on one H100 (Llama-3-8B, at most 64 requests, lengths
 * clamped to keep it quick) every request is served or rejected, the KV
 * cache is never over-committed, and a second run gives the same result.
 */
#include "fuzz_util.h"

#include <math.h>

#include "engine.h"
#include "preset.h"
#include "sim.h"
#include "trace.h"

#define FUZZ_TRACE_CAP 64

static preset_db *db;
static engine_stepper st;
static void *work;
static size_t work_bytes;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    engine_error err = {{0}};
    FUZZ_CHECK(preset_db_load("", &db, &err) == 0);
    engine_scenario s;
    engine_scenario_defaults(&s);
    s.model = preset_find_model(db, "llama-3-8b");
    s.gpu = preset_find_gpu(db, "h100-sxm");
    s.intra = preset_find_link(db, "nvlink4");
    FUZZ_CHECK(s.model && s.gpu && s.intra);
    FUZZ_CHECK(engine_stepper_init(&st, &s, (engine_plan){1, 1, 1, 1}, &err) == 0 && st.valid);
    engine_sim_config c;
    engine_sim_defaults(&c, &st);
    c.requests = 4 * FUZZ_TRACE_CAP;
    work_bytes = engine_sim_workspace_bytes(&st, &c);
    work = malloc(work_bytes);
    FUZZ_CHECK(work != NULL);
    return 0;
}

static void simulate(engine_sim_request *rows, int n)
{
    for (int i = 0; i < n; i++) { /* keep one input quick */
        rows[i].prompt = 1 + rows[i].prompt % 4096;
        rows[i].gen = 1 + rows[i].gen % 256;
        if (rows[i].arrival_s > 1e6)
            rows[i].arrival_s = 1e6;
        if (i > 0 && rows[i].arrival_s < rows[i - 1].arrival_s)
            rows[i].arrival_s = rows[i - 1].arrival_s;
    }
    engine_sim_config c;
    engine_sim_defaults(&c, &st);
    c.arrival = ENGINE_SIM_TRACE;
    c.trace = rows;
    c.n_trace = n;
    engine_error err = {{0}};
    FUZZ_CHECK(engine_sim_check(&c, &err) == 0);
    FUZZ_CHECK(engine_sim_workspace_bytes(&st, &c) <= work_bytes);
    engine_sim_result a, b;
    FUZZ_CHECK(engine_sim_run(&st, &c, work, work_bytes, &a, &err) == 0);
    FUZZ_CHECK(a.completed + a.rejected == n);
    FUZZ_CHECK(a.kv_blocks_peak <= a.kv_blocks);
    FUZZ_CHECK(engine_sim_run(&st, &c, work, work_bytes, &b, &err) == 0);
    FUZZ_CHECK(memcmp(&a, &b, sizeof a) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static engine_sim_request rows[FUZZ_TRACE_CAP];
    engine_error err = {{0}};
    int n = cli_trace_parse((const char *)data, size, "t.csv", rows, FUZZ_TRACE_CAP, &err);
    if (n < 0) {
        FUZZ_CHECK(fuzz_is_message(err.msg, sizeof err.msg));
        FUZZ_CHECK(strncmp(err.msg, "t.csv", 5) == 0);
        return 0;
    }
    FUZZ_CHECK(n >= 1 && n <= FUZZ_TRACE_CAP);
    for (int i = 0; i < n; i++) {
        FUZZ_CHECK(isfinite(rows[i].arrival_s) && rows[i].arrival_s >= 0);
        FUZZ_CHECK(i == 0 || rows[i].arrival_s >= rows[i - 1].arrival_s);
        FUZZ_CHECK(rows[i].prompt >= 1 && rows[i].prompt <= ENGINE_MAX_TOKENS);
        FUZZ_CHECK(rows[i].gen >= 1 && rows[i].gen <= ENGINE_MAX_TOKENS);
    }
    simulate(rows, n);
    return 0;
}
