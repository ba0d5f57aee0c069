/*
 * test_sim.c - the load simulation (engine/sim.h) and the trace parser
 * (tui/cli/trace.h): determinism, a single server worked by hand, offline
 * and closed-loop runs, overload measured against the sustainable rate,
 * the KV cache never over-committed, length distributions, and every kind
 * of bad trace row named by its line and field.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "sim.h"
#include "support_asserts.h"
#include "support_models.h"
#include "support_steps.h"
#include "trace.h"

typedef struct fixture {
    engine_model m;
    engine_gpu g;
    engine_link l;
    engine_scenario s;
    engine_stepper st;
    engine_sim_config c;
    void *work;
    size_t bytes;
} fixture;

/* Llama-3-8B on H100s (generic framework), prompt 512, gen 64. */
static void fx_init(fixture *f, engine_plan p, double vram_gb)
{
    memset(f, 0, sizeof *f);
    f->m = tm_llama3_8b();
    f->g = vram_gb > 0 ? tg_with_memory(vram_gb) : tg_h100();
    f->l = tl_link(2e-6, 300);
    ts_scenario(&f->s, &f->m, &f->g, &f->l, p.tp * p.pp * p.dp);
    f->s.prompt = 512;
    f->s.gen = 64;
    engine_error err;
    assert_int_equal(engine_stepper_init(&f->st, &f->s, p, &err), 0);
    assert_true(f->st.valid);
    engine_sim_defaults(&f->c, &f->st);
}

static void fx_run(fixture *f, engine_sim_result *r)
{
    engine_error err = {{0}};
    free(f->work);
    f->bytes = engine_sim_workspace_bytes(&f->st, &f->c);
    assert_true(f->bytes > 0);
    f->work = malloc(f->bytes);
    assert_non_null(f->work);
    if (engine_sim_run(&f->st, &f->c, f->work, f->bytes, r, &err) != 0) {
        print_error("%s\n", err.msg);
        fail();
    }
}

static void fx_free(fixture *f)
{
    free(f->work);
    f->work = NULL;
}

/* Same configuration and seed: the same result, bit for bit; another seed
 * another one. */
static void test_deterministic(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 2, 1}, 0);
    f.c.rate = 20;
    f.c.requests = 500;
    f.c.prompt_dist.kind = ENGINE_SIM_LOGNORMAL;
    f.c.prompt_dist.sigma = 0.8;
    f.c.gen_dist = (engine_sim_dist){ENGINE_SIM_UNIFORM, 16, 128, 0};
    engine_sim_result a, b;
    memset(&a, 0x55, sizeof a);
    memset(&b, 0xaa, sizeof b);
    fx_run(&f, &a);
    fx_run(&f, &b);
    assert_memory_equal(&a, &b, sizeof a);
    f.c.seed = 43;
    fx_run(&f, &b);
    assert_true(a.ttft.p50 != b.ttft.p50);
    fx_free(&f);
}

/* One request at a time (max_num_seqs 1), fixed lengths, offline: a single
 * server.  Each request takes its prefill step and gen - 1 decode steps at
 * pasts S, S+1, ..., S+G-2, by engine_step_s; request k (from 0) waits for
 * k of them. */
static void test_single_server_by_hand(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    f.c.arrival = ENGINE_SIM_OFFLINE;
    f.c.requests = 5;
    f.c.max_num_seqs = 1;
    f.c.exact = 1;
    double ttft, dec = ts_alone_steps_s(&f.st, &f.st, 512, 64, &ttft);
    double service = ttft + dec;
    engine_sim_result r;
    fx_run(&f, &r);
    assert_int_equal(r.completed, 5);
    assert_near(r.duration_s, 5 * service, 1e-12);
    /* TTFT of request k: k services and a prefill; p50 is k = 2 */
    assert_near(r.ttft.p50, 2 * service + ttft, 1e-12);
    assert_near(r.e2e.p50, 3 * service, 1e-12);
    assert_near(r.tpot.p50, dec / 63, 1e-12);
    assert_near(r.requests_per_s, 1 / service, 1e-12);
    assert_int_equal(r.max_batch, 1);
    assert_int_equal(r.steps, 5 * 64);
    /* the line through a run's first and last decode step is within 0.1 %
     * of timing every step (attention is linear in the context) */
    f.c.exact = 0;
    engine_sim_result l;
    fx_run(&f, &l);
    assert_near(l.duration_s, r.duration_s, 1e-3);
    /* a trace: arrivals 0, 0 and one long after the server is free */
    engine_sim_request tr[3] = {{0, 512, 64}, {0, 512, 64}, {100, 512, 64}};
    f.c.exact = 1;
    f.c.arrival = ENGINE_SIM_TRACE;
    f.c.trace = tr;
    f.c.n_trace = 3;
    fx_run(&f, &r);
    assert_near(r.ttft.p50, ttft, 1e-12); /* requests 0 and 2 wait for nothing */
    assert_near(r.e2e.p99, service + (2 * service - service) * 0.98, 1e-9);
    assert_near(r.duration_s, 100 + service, 1e-12);
    fx_free(&f);
}

/* --rate inf: every request arrives at 0 and every one is served; the
 * queue starts at N - (what one step admits) and drains. */
static void test_offline_finishes(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    f.c.arrival = ENGINE_SIM_OFFLINE;
    f.c.requests = 2000;
    engine_sim_result r;
    fx_run(&f, &r);
    assert_int_equal(r.completed, 2000);
    assert_int_equal(r.rejected, 0);
    assert_int_equal(r.max_batch, f.c.max_num_seqs);
    assert_true(r.overloaded); /* an offline run is past any rate */
    assert_int_equal(r.series_queue[r.n_series - 1], 0);
    assert_true(r.series_queue[0] >= 2000 - 8192 / 512);
    fx_free(&f);
}

/* A closed loop keeps C in flight: C run at once (the cache and
 * max_num_seqs allow it), and Little's law holds: requests/s = C / mean
 * e2e (over the steady part; the drain at the end lowers the batch). */
static void test_closed_loop(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    f.c.arrival = ENGINE_SIM_CLOSED;
    f.c.sched = ENGINE_SIM_CHUNKED; /* prefill first would pause the others */
    f.c.concurrency = 32;
    f.c.requests = 3200;
    engine_sim_result r;
    fx_run(&f, &r);
    assert_int_equal(r.completed, 3200);
    assert_int_equal(r.max_batch, 32);
    assert_true(r.mean_batch > 31.0 && r.mean_batch <= 32.0);
    assert_false(r.overloaded);
    /* Little: L = lambda W with L = 32, W ~ the mean e2e (p50 of equal requests) */
    assert_near(r.requests_per_s * r.e2e.p50, 32, 0.03);
    /* two replicas: 16 each */
    fixture g;
    fx_init(&g, (engine_plan){1, 1, 2, 1}, 0);
    g.c = f.c;
    fx_run(&g, &r);
    assert_int_equal(r.max_batch, 16);
    fx_free(&f);
    fx_free(&g);
}

/* Overload is measured: Poisson at 1.5x the sustainable rate keeps the
 * queue growing; at 0.5x it does not. */
static void test_overload_against_sustainable(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    f.c.requests = 3000;
    engine_error err = {{0}};
    f.bytes = engine_sim_workspace_bytes(&f.st, &f.c);
    f.work = malloc(f.bytes);
    double mu = engine_sim_sustainable_rate(&f.st, &f.c, f.work, f.bytes, &err);
    assert_true(mu > 0);
    /* the static model's throughput at the largest batch, per request */
    f.s.batch = engine_sim_max_batch(&f.st, &f.c);
    engine_result er;
    assert_int_equal(engine_evaluate(&f.s, (engine_plan){1, 1, 1, 1}, &er, &err), 0);
    assert_near(mu, er.tokens_per_s / f.s.gen, 0.15);
    engine_sim_result r;
    f.c.rate = 1.5 * mu;
    fx_run(&f, &r);
    assert_true(r.overloaded);
    assert_true(r.requests_per_s < 1.05 * mu);
    f.c.rate = 0.5 * mu;
    fx_run(&f, &r);
    assert_false(r.overloaded);
    assert_near(r.requests_per_s, 0.5 * mu, 0.1);
    fx_free(&f);
}

/* The reserved cache is never over-committed: on a 24 GB GPU the blocks
 * bind (not max_num_seqs), the peak stays within the capacity and comes
 * close to it, and a request larger than the whole cache is refused. */
static void test_kv_capacity_respected(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 24);
    long long per = (512 + 64 + 15) / 16;
    assert_true(f.st.kv_blocks / per < f.c.max_num_seqs);
    f.c.arrival = ENGINE_SIM_OFFLINE;
    f.c.requests = 1000;
    engine_sim_result r;
    fx_run(&f, &r);
    assert_int_equal(r.completed, 1000);
    assert_true(r.kv_blocks_peak <= f.st.kv_blocks);
    assert_true(r.kv_blocks_peak > f.st.kv_blocks - per);
    assert_int_equal(r.max_batch, (int)(f.st.kv_blocks / per));
    assert_int_equal(engine_sim_max_batch(&f.st, &f.c), (int)(f.st.kv_blocks / per));
    assert_true(r.kv_use_max <= 1.0);
    /* a request of more tokens than the cache holds */
    engine_sim_request tr[2] = {{0, 512, 64}, {0, (int)(f.st.kv_blocks * 16), 1}};
    f.c.arrival = ENGINE_SIM_TRACE;
    f.c.trace = tr;
    f.c.n_trace = 2;
    fx_run(&f, &r);
    assert_int_equal(r.completed, 1);
    assert_int_equal(r.rejected, 1);
    fx_free(&f);
}

/* Chunked prefill keeps decoding while prompts arrive; prefill first
 * pauses it, so its TPOT is longer at the same load. */
static void test_schedulers(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    f.c.rate = 20;
    f.c.requests = 1000;
    f.c.sched = ENGINE_SIM_CHUNKED;
    engine_sim_result ch, pf;
    fx_run(&f, &ch);
    f.c.sched = ENGINE_SIM_PREFILL_FIRST;
    fx_run(&f, &pf);
    assert_true(pf.tpot.p90 > ch.tpot.p90);
    /* a budget smaller than a prompt: chunks of 128 tokens, four steps a prompt */
    f.c.sched = ENGINE_SIM_CHUNKED;
    f.c.max_batched_tokens = 128;
    f.c.arrival = ENGINE_SIM_OFFLINE;
    f.c.requests = 1;
    engine_sim_result one;
    fx_run(&f, &one);
    assert_int_equal(one.steps, 4 + 63);
    fx_free(&f);
}

/* Lengths: the log-normal's mean is --prompt, a uniform's lie in [lo, hi]
 * (seen through the output tokens/s of an offline run). */
static void test_length_distributions(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    f.c.arrival = ENGINE_SIM_OFFLINE;
    f.c.requests = 4000;
    f.c.gen_dist = (engine_sim_dist){ENGINE_SIM_LOGNORMAL, 0, 0, 1.0};
    engine_sim_result r;
    fx_run(&f, &r);
    double mean = r.output_tokens_per_s * r.duration_s / r.completed;
    assert_near(mean, 64, 0.05);
    f.c.gen_dist = (engine_sim_dist){ENGINE_SIM_UNIFORM, 10, 20, 0};
    fx_run(&f, &r);
    mean = r.output_tokens_per_s * r.duration_s / r.completed;
    assert_near(mean, 15, 0.03);
    /* a bad distribution is refused by name */
    engine_error err;
    f.c.gen_dist = (engine_sim_dist){ENGINE_SIM_UNIFORM, 20, 10, 0};
    assert_int_equal(engine_sim_check(&f.c, &err), -1);
    assert_non_null(strstr(err.msg, "distribution"));
    fx_free(&f);
}

static void test_sim_errors(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    engine_error err;
    engine_sim_result r;
    char small[64];
    assert_int_equal(engine_sim_run(&f.st, &f.c, small, sizeof small, &r, &err), -1);
    assert_non_null(strstr(err.msg, "workspace"));
    f.c.rate = 0;
    assert_int_equal(engine_sim_check(&f.c, &err), -1);
    assert_non_null(strstr(err.msg, "rate"));
    f.c.rate = 1;
    f.c.max_num_seqs = 0;
    assert_int_equal(engine_sim_check(&f.c, &err), -1);
    assert_non_null(strstr(err.msg, "max_num_seqs"));
    engine_sim_sched sc;
    assert_int_equal(engine_sim_sched_parse("chunked", &sc), 0);
    assert_int_equal(sc, ENGINE_SIM_CHUNKED);
    assert_int_equal(engine_sim_sched_parse("fifo", &sc), -1);
}

/* The explorer's short-run view: one_of k simulates every k-th arrival of
 * the rate (one replica's round-robin share: the arrivals k/rate apart on
 * average), warmup leaves the first requests out of the figures. */
static void test_one_of_and_warmup(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    f.c.rate = 40;
    f.c.requests = 2000;
    engine_sim_result all, one;
    fx_run(&f, &all);
    f.c.one_of = 4;
    fx_run(&f, &one);
    /* 2000 arrivals over ~50 s, or every 4th of them over ~200 s */
    assert_near(all.requests_per_s, 40, 0.06);
    assert_near(one.requests_per_s, 10, 0.06);
    assert_int_equal(one.measured, 2000);
    f.c.warmup = 1500;
    engine_sim_result w;
    fx_run(&f, &w);
    assert_int_equal(w.completed, 2000);
    assert_int_equal(w.measured, 500);
    assert_true(w.requests_per_s == one.requests_per_s); /* the run is the same */
    f.c.one_of = -1;
    engine_error err;
    assert_int_equal(engine_sim_check(&f.c, &err), -1);
    fx_free(&f);
}

/* --- the trace parser -------------------------------------------------- */

static int parse(const char *text, engine_sim_request *rows, int cap, engine_error *err)
{
    return cli_trace_parse(text, strlen(text), "t.csv", rows, cap, err);
}

static void expect_error(const char *text, const char *want)
{
    engine_sim_request rows[8];
    engine_error err = {{0}};
    assert_int_equal(parse(text, rows, 8, &err), -1);
    if (!strstr(err.msg, want)) {
        print_error("message '%s' lacks '%s'\n", err.msg, want);
        fail();
    }
}

static void test_trace_parse(void **state)
{
    (void)state;
    engine_sim_request rows[8];
    engine_error err;
    const char *ok = "arrival_s,prompt_tokens,output_tokens\r\n"
                     "# a comment\n"
                     "0,100,10\n"
                     "\n"
                     " 0.5 , 2000 ,1\n"
                     "0.5,7,300";
    assert_int_equal(parse(ok, rows, 8, &err), 3);
    assert_true(rows[0].arrival_s == 0 && rows[0].prompt == 100 && rows[0].gen == 10);
    assert_true(rows[1].arrival_s == 0.5 && rows[1].prompt == 2000 && rows[1].gen == 1);
    assert_true(rows[2].prompt == 7 && rows[2].gen == 300);
    assert_int_equal(parse("1.25,3,4\n", rows, 8, &err), 1); /* no header */
    /* every kind of mistake names the file, the line and the field */
    expect_error("0,1,1\n0,2\n", "t.csv:2: expected 3 fields");
    expect_error("0,1,1,1\n", "t.csv:1: expected 3 fields");
    expect_error("arrival_s,prompt_tokens,output_tokens\nx,1,1\n", "t.csv:2: arrival_s");
    expect_error("-1,1,1\n", "t.csv:1: arrival_s");
    expect_error("nan,1,1\n", "t.csv:1: arrival_s");
    expect_error("2,1,1\n1,1,1\n", "t.csv:2: arrival_s: 1 is before");
    expect_error("0,0,1\n", "t.csv:1: prompt_tokens");
    expect_error("0,1.5,1\n", "t.csv:1: prompt_tokens");
    expect_error("0,1,abc\n", "t.csv:1: output_tokens");
    expect_error("0,1,100000001\n", "t.csv:1: output_tokens");
    expect_error("arrival,prompt,output\n", "t.csv:1: arrival_s");
    expect_error("# only a comment\n\n", "t.csv: no requests");
    assert_int_equal(parse("0,1,1\n0,1,1\n0,1,1\n", rows, 2, &err), -1);
    assert_non_null(strstr(err.msg, "t.csv:3: more than 2 requests"));
    assert_int_equal(cli_trace_lines("a\nb\nc", 5), 3);
}


/* Speculative decoding (EAGLE, k 3, P 0.75: E = 2.734375 tokens a step):
 * one server, requests one at a time, every step timed.  After the prefill
 * (the first token) the 63 others take ceil(63 / E) = 24 decode steps, step
 * j at 512 + j E cached tokens, each the verification of 4 tokens plus the
 * 3 drafts; TPOT is then close to engine_evaluate's spec ITL. */
static void test_spec_decoding(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    f.s.spec_method = ENGINE_SPEC_EAGLE;
    f.s.spec_k = 3;
    f.s.spec_accept = 0.75;
    engine_error err;
    assert_int_equal(engine_stepper_init(&f.st, &f.s, (engine_plan){1, 1, 1, 1}, &err), 0);
    f.c.arrival = ENGINE_SIM_OFFLINE;
    f.c.requests = 5;
    f.c.max_num_seqs = 1;
    f.c.exact = 1;
    engine_step_chunk ch = {1, 512, 0};
    engine_step_mix pre = {&ch, 1, 0, 0};
    double ttft = engine_step_s(&f.st, &pre), dec = 0, e = 2.734375;
    for (int j = 0; j < 24; j++) {
        engine_step_mix d = {NULL, 0, 1, 512 + j * e};
        assert_near(engine_step_tokens(&f.st, &d), e, 1e-12);
        dec += engine_step_s(&f.st, &d);
    }
    engine_sim_result r;
    fx_run(&f, &r);
    assert_int_equal(r.completed, 5);
    assert_int_equal(r.steps, 5 * (1 + 24));
    assert_near(r.duration_s, 5 * (ttft + dec), 1e-12);
    assert_near(r.tpot.p50, dec / 63, 1e-12);
    f.s.batch = 1;
    f.s.gen = 64;
    engine_result er;
    assert_int_equal(engine_evaluate(&f.s, (engine_plan){1, 1, 1, 1}, &er, &err), 0);
    /* ceil(63 / E) = 24 whole steps where engine_evaluate counts 63 / E */
    assert_near(r.tpot.p50, er.itl_s * 24 * e / 63, 0.01);
    fx_free(&f);
}

/* One step of `n` new prompts of `prompt` tokens (nothing cached) beside
 * `dec` decodes at past `past`, by engine_step_s. */
static double step_with(const engine_stepper *st, int n, int prompt, int dec, double past)
{
    engine_step_chunk ch[16];
    for (int i = 0; i < n && i < 16; i++)
        ch[i] = (engine_step_chunk){1, prompt, 0};
    engine_step_mix mx = {n > 0 ? ch : NULL, n, dec, dec > 0 ? past : 0};
    return engine_step_s(st, &mx);
}

/* A closed loop of 8 identical requests (512 + 64 tokens, chunked, one
 * replica), worked by hand from engine_step_s.  BURST: the 8 start at
 * t = 0, finish in the same step and re-enter together, so every TTFT is
 * the step of the whole wave of 8 prompts.  STEADY: the clients run at
 * their own phases (8 over a cycle of ~64 steps: never two prompts in a
 * step), and a re-issued request misses the step starting at its
 * predecessor's completion: its TTFT is that step (7 decodes) plus the
 * step with its own prompt beside the 7 decodes, nothing more. */
static void test_closed_start_by_hand(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    f.c.arrival = ENGINE_SIM_CLOSED;
    f.c.sched = ENGINE_SIM_CHUNKED;
    f.c.concurrency = 8;
    f.c.requests = 400;
    engine_sim_result b, r;
    fx_run(&f, &b);
    double wave = step_with(&f.st, 8, 512, 0, 0);
    assert_near(b.ttft.p50, wave, 1e-12);
    assert_near(b.ttft.p99, wave, 1e-12);
    assert_int_equal(b.measured, 400);

    f.c.closed_start = ENGINE_SIM_START_STEADY;
    fx_run(&f, &r);
    /* lowest: both steps at the smallest past (512), highest at the largest
     * a decode reaches (512 + 62); the step grows with the past */
    double lo = step_with(&f.st, 0, 512, 7, 512) + step_with(&f.st, 1, 512, 7, 512);
    double hi = step_with(&f.st, 0, 512, 7, 574) + step_with(&f.st, 1, 512, 7, 574);
    print_message("  burst TTFT %.3f ms; steady p50 %.3f ms p99 %.3f ms in [%.3f, %.3f] ms\n",
                  b.ttft.p50 * 1e3, r.ttft.p50 * 1e3, r.ttft.p99 * 1e3, lo * 1e3, hi * 1e3);
    assert_true(r.ttft.p50 >= lo * (1 - 1e-9) && r.ttft.p99 <= hi * (1 + 1e-9));
    /* "a single-prompt step plus at most a step of waiting" */
    assert_true(r.ttft.p99 <= 2 * step_with(&f.st, 1, 512, 7, 574) * (1 + 1e-9));
    assert_true(r.ttft.p99 < 0.5 * wave);
    /* the window: all but the ramp and the drain, one request a client each */
    assert_true(r.measured >= 400 - 3 * 8 && r.measured < 400);
    assert_int_equal(r.max_batch, 8);
    assert_int_equal(r.completed, 400);
    fx_free(&f);
}

/* STEADY is deterministic (no draw: the same bytes twice), holds C
 * requests in the system through its window (L = C) and keeps Little's
 * law over it (requests/s x mean e2e = L); it runs on several replicas
 * (9 over 2: 5 and 4 in flight), and an unknown start is refused. */
static void test_closed_start_steady_laws(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    f.c.arrival = ENGINE_SIM_CLOSED;
    f.c.closed_start = ENGINE_SIM_START_STEADY;
    f.c.concurrency = 32;
    f.c.requests = 3200;
    engine_sim_result a, b;
    fx_run(&f, &a);
    fx_run(&f, &b);
    assert_memory_equal(&a, &b, sizeof a);
    assert_near(a.mean_in_system, 32, 1e-6);
    assert_near(a.requests_per_s * a.e2e.mean / a.mean_in_system, 1, 0.02);
    assert_int_equal(a.max_batch, 32);
    fixture g;
    fx_init(&g, (engine_plan){1, 1, 2, 1}, 0);
    g.c = f.c;
    g.c.concurrency = 9;
    g.c.requests = 900;
    fx_run(&g, &a);
    assert_int_equal(a.max_batch, 5);
    assert_near(a.mean_in_system, 9, 1e-6);
    assert_near(a.requests_per_s * a.e2e.mean / a.mean_in_system, 1, 0.03);
    /* fewer requests than clients: every request is issued at its client's
     * start and served (the last start's request once arrived at +inf) */
    g.c.concurrency = 4;
    for (int n = 1; n <= 4; n++) {
        g.c.requests = n;
        fx_run(&g, &a);
        assert_int_equal(a.completed, n);
        assert_int_equal(a.measured, n);
        assert_true(a.duration_s > 0 && isfinite(a.duration_s));
        assert_true(a.ttft.p50 > 0 && a.output_tokens_per_s > 0);
    }
    engine_error err = {{0}};
    g.c.closed_start = ENGINE_SIM_START_COUNT;
    assert_int_equal(engine_sim_check(&g.c, &err), -1);
    assert_non_null(strstr(err.msg, "closed_start"));
    engine_sim_start s;
    assert_int_equal(engine_sim_start_parse("steady", &s), 0);
    assert_int_equal(s, ENGINE_SIM_START_STEADY);
    assert_int_equal(engine_sim_start_parse("burst", &s), 0);
    assert_int_equal(s, ENGINE_SIM_START_BURST);
    assert_int_equal(engine_sim_start_parse("random", &s), -1);
    fx_free(&f);
    fx_free(&g);
}

/* In flight (TensorRT-LLM's executor without context chunking, the
 * default: ExecutorConfig enableChunkedContext = false), worked by hand
 * from engine_step_s with prompts of 512 and 64 output tokens, offline.
 * Budget 513: step 1 takes A alone (B does not fit in the 1 token left);
 * step 2 A's decode and B whole (1 + 512); from step 3 the two decodes
 * leave 511, so C waits whole (it would fit an empty step) until A ends at
 * step 64 and B's one decode leaves 512: C's prompt runs in step 65, B's
 * last; C decodes to step 128.  A budget of 256 smaller than a prompt:
 * each prompt runs whole, alone in its step beside the decodes. */
static void test_inflight_by_hand(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    f.c.arrival = ENGINE_SIM_OFFLINE;
    f.c.sched = ENGINE_SIM_INFLIGHT;
    f.c.requests = 3;
    f.c.max_batched_tokens = 513;
    f.c.exact = 1;
    engine_sim_result r, a, ch;
    fx_run(&f, &r);
    double tb = step_with(&f.st, 1, 512, 0, 0) + step_with(&f.st, 1, 512, 1, 512);
    assert_int_equal(r.completed, 3);
    assert_int_equal(r.steps, 128);
    assert_near(r.ttft.p50, tb, 1e-12); /* B's */
    /* C's first token comes with B's last: TTFT(C) = e2e(B), the median e2e */
    assert_near(r.ttft.p99, tb + 0.98 * (r.e2e.p50 - tb), 1e-9);
    fx_run(&f, &a);
    assert_memory_equal(&r, &a, sizeof r);
    /* chunked fills the same budget with a chunk of B in step 1 */
    f.c.sched = ENGINE_SIM_CHUNKED;
    fx_run(&f, &ch);
    assert_true(ch.steps != r.steps && ch.ttft.p99 < 0.5 * r.ttft.p99);
    /* a prompt longer than the budget runs whole, alone in its step */
    f.c.sched = ENGINE_SIM_INFLIGHT;
    f.c.max_batched_tokens = 256;
    f.c.requests = 2;
    fx_run(&f, &r);
    assert_int_equal(r.steps, 65);
    assert_near(r.ttft.p99, step_with(&f.st, 1, 512, 0, 0) * 0.01 + tb * 0.99, 1e-12);
    assert_near(r.ttft.p50, step_with(&f.st, 1, 512, 0, 0) * 0.5 + tb * 0.5, 1e-12);
    /* a closed loop keeps Little's law; the name parses back */
    f.c.arrival = ENGINE_SIM_CLOSED;
    f.c.closed_start = ENGINE_SIM_START_STEADY;
    f.c.max_batched_tokens = 8192;
    f.c.concurrency = 24;
    f.c.requests = 2400;
    fx_run(&f, &r);
    assert_near(r.mean_in_system, 24, 1e-6);
    assert_near(r.requests_per_s * r.e2e.mean / r.mean_in_system, 1, 0.02);
    engine_sim_sched sc;
    assert_int_equal(engine_sim_sched_parse("inflight", &sc), 0);
    assert_int_equal(sc, ENGINE_SIM_INFLIGHT);
    assert_string_equal(engine_sim_sched_name(ENGINE_SIM_INFLIGHT), "inflight");
    fx_free(&f);
}

/* Chunked prefill first (SGLang without --enable-mixed-chunk: a step runs a
 * prefill batch alone whenever one forms, else every decode), worked by
 * hand from engine_step_s with prompts of 512 and 64 output tokens,
 * offline, budget 512.  Step 1 prefills A; step 2 prefills B while A's
 * decode waits (chunked would put A's decode and 511 tokens of B in it);
 * then 63 decode steps of both at pasts 512..574.  A's first token comes
 * at P, B's at 2P; both end together; A's TPOT carries B's prefill.  A
 * budget of 256: one prompt's two chunks in two prefill-only steps.  The
 * framework's prefill_alone picks it by default. */
static void test_chunked_prefill_first_by_hand(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    f.c.arrival = ENGINE_SIM_OFFLINE;
    f.c.sched = ENGINE_SIM_CHUNKED_PREFILL_FIRST;
    f.c.requests = 2;
    f.c.max_batched_tokens = 512;
    f.c.exact = 1;
    engine_sim_result r, ch;
    fx_run(&f, &r);
    double p = step_with(&f.st, 1, 512, 0, 0), dec = 0;
    for (int j = 0; j < 63; j++)
        dec += step_with(&f.st, 0, 0, 2, 512 + j);
    assert_int_equal(r.completed, 2);
    assert_int_equal(r.steps, 2 + 63);
    assert_near(r.ttft.p50, 1.5 * p, 1e-12);
    assert_near(r.ttft.p99, p + 0.99 * p, 1e-12);
    assert_near(r.e2e.p50, 2 * p + dec, 1e-12);
    assert_near(r.e2e.p99, 2 * p + dec, 1e-12);
    assert_near(r.tpot.p99, dec / 63 + 0.99 * p / 63, 1e-12); /* A's: B's prefill in it */
    assert_near(r.duration_s, 2 * p + dec, 1e-12);
    f.c.sched = ENGINE_SIM_CHUNKED; /* B's chunks share steps with A's decode */
    fx_run(&f, &ch);
    assert_int_equal(ch.steps, 3 + 63); /* B's first token in step 3, its last in 66 */
    assert_true(ch.ttft.p99 > r.ttft.p99 && ch.tpot.p99 < r.tpot.p99);
    /* a prompt longer than the budget: two chunks, two prefill-only steps */
    f.c.sched = ENGINE_SIM_CHUNKED_PREFILL_FIRST;
    f.c.max_batched_tokens = 256;
    f.c.requests = 1;
    fx_run(&f, &r);
    assert_int_equal(r.steps, 2 + 63);
    /* the default of a chunking framework whose prefill runs alone */
    engine_framework fw = *engine_framework_generic_ref();
    fw.chunked_prefill = 1;
    fw.prefill_alone = 1;
    engine_stepper st = f.st;
    st.s.framework = &fw;
    engine_sim_config c;
    engine_sim_defaults(&c, &st);
    assert_int_equal(c.sched, ENGINE_SIM_CHUNKED_PREFILL_FIRST);
    fw.prefill_alone = 0;
    engine_sim_defaults(&c, &st);
    assert_int_equal(c.sched, ENGINE_SIM_CHUNKED);
    engine_sim_sched sc;
    assert_int_equal(engine_sim_sched_parse("chunked-prefill-first", &sc), 0);
    assert_int_equal(sc, ENGINE_SIM_CHUNKED_PREFILL_FIRST);
    fx_free(&f);
}

/* Two traced requests of 512 + 64 tokens (tr: their arrivals), chunked,
 * every step timed exactly: the hand-worked admission cases. */
static void fx_two_arrivals(fixture *f, engine_sim_request *tr)
{
    f->c.arrival = ENGINE_SIM_TRACE;
    f->c.trace = tr;
    f->c.n_trace = 2;
    f->c.sched = ENGINE_SIM_CHUNKED;
    f->c.exact = 1;
}

/* The admission lag of an overlapping scheduler (SGLang's event_loop_overlap
 * forms step n + 1's batch when step n starts), worked by hand from
 * engine_step_s, chunked, a trace: A (512 + 64) at t = 0 prefills alone in
 * P; B (512 + 64) arrives halfway through A's first decode step D1.
 * Without the lag B joins the next step (its prompt beside A's decode at
 * past 513); with it that step was formed when D1 started, so B waits out
 * one more decode of A (D2, past 513) and joins the step after (past 514).
 * A request that finds the replica idle is never held: A's TTFT is P
 * either way. */
static void test_admit_lag_by_hand(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    double p = step_with(&f.st, 1, 512, 0, 0), d1 = step_with(&f.st, 0, 0, 1, 512);
    double a = p + 0.5 * d1;
    engine_sim_request tr[2] = {{0, 512, 64}, {a, 512, 64}};
    fx_two_arrivals(&f, tr);
    assert_int_equal(f.c.admit_lag, 0); /* the generic profile's */
    engine_sim_result r;
    fx_run(&f, &r);
    double b0 = p + d1 + step_with(&f.st, 1, 512, 1, 513) - a;
    assert_near(r.ttft.p99, p + 0.99 * (b0 - p), 1e-12);
    f.c.admit_lag = 1;
    fx_run(&f, &r);
    double b1 = p + d1 + step_with(&f.st, 0, 0, 1, 513) + step_with(&f.st, 1, 512, 1, 514) - a;
    assert_near(r.ttft.p99, p + 0.99 * (b1 - p), 1e-12);
    assert_near(r.ttft.p50, 0.5 * (p + b1), 1e-12);
    assert_true(b1 > b0);
    /* the sglang-like profile lags by default; a scenario that overlaps by
     * its own setting (vLLM's --async-scheduling rows) too */
    engine_framework fw = *engine_framework_generic_ref();
    fw.admit_lag = 1;
    engine_stepper st = f.st;
    st.s.framework = &fw;
    engine_sim_config c;
    engine_sim_defaults(&c, &st);
    assert_int_equal(c.admit_lag, 1);
    st.s.host_overlap = ENGINE_GRAPHS_OFF;
    engine_sim_defaults(&c, &st);
    assert_int_equal(c.admit_lag, 0);
    fw.admit_lag = 0;
    st.s.host_overlap = ENGINE_GRAPHS_ON;
    engine_sim_defaults(&c, &st);
    assert_int_equal(c.admit_lag, 1);
    fx_free(&f);
}

/* SGLang's --scheduler-recv-interval N (recv_interval), worked by hand on
 * one replica (chunked, exact steps, no admission lag).  Request A (512 +
 * 64) arrives at t = 0 and prefills alone (P); B (512 + 64) arrives during
 * A's first decode step.  With N = 1 B joins the next step.  With N = 4 the
 * prefill step lifts the receive counter to 1000 (the take-in at the
 * formation after it sees nothing yet), and each decode step adds 1: B is
 * taken in only at the formation after A's 4th decode step, and its
 * prefill runs beside A's 5th decode (past 516).  C (512 + 64), arriving
 * while A prefills, is taken in at once after that prefill (its weight
 * 1000 >= N); an arrival that finds the replica idle is too. */
static void test_recv_interval_by_hand(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    double p = step_with(&f.st, 1, 512, 0, 0);
    double d[4];
    for (int i = 0; i < 4; i++)
        d[i] = step_with(&f.st, 0, 0, 1, 512 + i);
    double a = p + 0.5 * d[0];
    engine_sim_request tr[2] = {{0, 512, 64}, {a, 512, 64}};
    fx_two_arrivals(&f, tr);
    f.c.admit_lag = 0;
    assert_int_equal(f.c.recv_interval, 0); /* every step, as SGLang's default 1 */
    engine_sim_result r;
    fx_run(&f, &r);
    double b1 = p + d[0] + step_with(&f.st, 1, 512, 1, 513) - a;
    assert_near(r.ttft.p99, p + 0.99 * (b1 - p), 1e-12);
    f.c.recv_interval = 1; /* the same */
    fx_run(&f, &r);
    assert_near(r.ttft.p99, p + 0.99 * (b1 - p), 1e-12);
    f.c.recv_interval = 4;
    fx_run(&f, &r);
    double b4 = p + d[0] + d[1] + d[2] + d[3] + step_with(&f.st, 1, 512, 1, 516) - a;
    assert_near(r.ttft.p99, p + 0.99 * (b4 - p), 1e-12);
    assert_near(r.ttft.p50, 0.5 * (p + b4), 1e-12);
    assert_true(b4 > b1 + 2 * d[0]);
    /* C arrives while A prefills: taken in right after that prefill step */
    tr[1].arrival_s = 0.5 * p;
    fx_run(&f, &r);
    double c = p + step_with(&f.st, 1, 512, 1, 512) - 0.5 * p;
    assert_near(r.ttft.p99, p + 0.99 * (c - p), 1e-12);
    /* an arrival that finds the replica idle (A long done) runs at once */
    tr[1].arrival_s = 100.0;
    fx_run(&f, &r);
    assert_near(r.ttft.p99, p, 1e-12);
    assert_near(r.ttft.p50, p, 1e-12);
    engine_error err = {{0}};
    f.c.recv_interval = -1;
    assert_int_equal(engine_sim_check(&f.c, &err), -1);
    assert_non_null(strstr(err.msg, "recv_interval"));
    fx_free(&f);
}

/* A take-in inside a run of decode steps (recv_interval 4), worked by hand:
 * A, C and D (512 + 64 each) arrive at t = 0 with max_num_seqs 2, so D
 * queues while A and C prefill together (P2, the step of two 512-token
 * chunks) and decode 63 steps in one run.  B (512 + 64) arrives during the
 * 11th of them; the take-ins after the 4th, 8th, ... 60th steps see it,
 * and the formation after the 63rd (counter 3, no take-in of its own)
 * admits D and B together: their chunks run as one step of P2 again.  So
 * TTFT_B = P2 + sum(decodes) + P2 - a, as with every step taking requests
 * in (recv_interval 1); had the take-ins inside the run been lost, B would
 * wait for D's prefill first. */
static void test_recv_interval_inside_a_run(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    double p2 = step_with(&f.st, 2, 512, 0, 0), dec = 0, a = 0;
    for (int j = 0; j < 63; j++) {
        double d = step_with(&f.st, 0, 0, 2, 512 + j);
        if (j == 10)
            a = p2 + dec + 0.5 * d;
        dec += d;
    }
    engine_sim_request tr[4] = {{0, 512, 64}, {0, 512, 64}, {0, 512, 64}, {a, 512, 64}};
    f.c.arrival = ENGINE_SIM_TRACE;
    f.c.trace = tr;
    f.c.n_trace = 4;
    f.c.sched = ENGINE_SIM_CHUNKED;
    f.c.exact = 1;
    f.c.admit_lag = 0;
    f.c.max_num_seqs = 2;
    double ttft_d = p2 + dec + p2, ttft_b = ttft_d - a;
    for (int n = 1; n <= 4; n += 3) {
        f.c.recv_interval = n;
        engine_sim_result r;
        fx_run(&f, &r);
        assert_int_equal(r.completed, 4);
        assert_near(r.ttft.mean, (2 * p2 + ttft_b + ttft_d) / 4, 1e-12);
        assert_near(r.ttft.p50, 0.5 * (p2 + ttft_b), 1e-12);
    }
    fx_free(&f);
}

/* A time window (measure_s, perf_analyzer's "requests that end within the
 * time interval"): a closed loop of 2 on a single server (max_num_seqs 1,
 * fixed 512 + 64 tokens), worked by hand.  Both start at t = 0; request k
 * is done at (k + 1) S, S = prefill P + the 63 decode steps; request 0's
 * TTFT is P, every later one waits a whole service first: S + P.  A window
 * of 2.5 S measures requests 0 and 1 only (mean TTFT P + S / 2, the rates
 * over their 2 S); without it all 6 count. */
static void test_measure_window_by_hand(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    f.c.arrival = ENGINE_SIM_CLOSED;
    f.c.concurrency = 2;
    f.c.requests = 6;
    f.c.max_num_seqs = 1;
    f.c.exact = 1;
    double p, dec = ts_alone_steps_s(&f.st, &f.st, 512, 64, &p);
    double sv = p + dec;
    engine_sim_result all, w;
    fx_run(&f, &all);
    assert_int_equal(all.measured, 6);
    assert_near(all.ttft.mean, (p + 5 * (sv + p)) / 6, 1e-12);
    assert_near(all.duration_s, 6 * sv, 1e-12);
    f.c.measure_s = 2.5 * sv;
    fx_run(&f, &w);
    assert_int_equal(w.completed, 6);
    assert_int_equal(w.measured, 2);
    assert_near(w.ttft.mean, p + sv / 2, 1e-12);
    assert_near(w.ttft.p50, p + sv / 2, 1e-12);
    assert_near(w.e2e.mean, 1.5 * sv, 1e-12);
    assert_near(w.requests_per_s, 1 / sv, 1e-12);
    assert_near(w.output_tokens_per_s, 64 / sv, 1e-9);
    assert_near(w.duration_s, 6 * sv, 1e-12); /* the run itself is unchanged */
    engine_error err = {{0}};
    f.c.measure_s = -1;
    assert_int_equal(engine_sim_check(&f.c, &err), -1);
    assert_non_null(strstr(err.msg, "measure_s"));
    f.c.measure_s = NAN;
    assert_int_equal(engine_sim_check(&f.c, &err), -1);
    fx_free(&f);
}

/* The server's front end (frontend_s + frontend_token_s x prompt tokens a
 * request, one request at a time), worked by hand: three offline requests
 * of 512 + 2 tokens, the front end c = 0.2 s + 1e-4 s x 512 = 0.2512 s each,
 * far above a step.  Request k (1..3) reaches the engine at k c, finds it
 * idle, and runs alone: TTFT k c + P, e2e k c + P + D (P: the prefill
 * step of 512 tokens alone, D: one decode step).  A closed loop of 3 at the
 * burst start is the same three requests.  The front end bounds the rate:
 * Poisson arrivals at 5 requests/s against its 1 / c = 3.98 a second keep
 * queueing (overloaded), with no front end they do not. */
static void test_frontend_by_hand(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    f.c.arrival = ENGINE_SIM_OFFLINE;
    f.c.requests = 3;
    f.c.gen = 2;
    f.c.exact = 1;
    f.c.frontend_s = 0.2;
    f.c.frontend_token_s = 1e-4;
    const double c = 0.2 + 1e-4 * 512;
    double p, d = ts_alone_steps_s(&f.st, &f.st, 512, 2, &p);
    assert_true(p + d < c / 10);
    engine_sim_result r;
    fx_run(&f, &r);
    assert_int_equal(r.completed, 3);
    assert_near(r.ttft.p50, 2 * c + p, 1e-12);
    assert_near(r.ttft.mean, 2 * c + p, 1e-12);
    assert_near(r.ttft.p99, 2 * c + p + 0.98 * c, 1e-12); /* numpy: 2.98 c + P */
    assert_near(r.e2e.p50, 2 * c + p + d, 1e-12);
    assert_near(r.duration_s, 3 * c + p + d, 1e-12);
    assert_near(r.mean_batch, 1, 1e-12);
    f.c.arrival = ENGINE_SIM_CLOSED;
    f.c.concurrency = 3;
    engine_sim_result cl;
    fx_run(&f, &cl);
    assert_near(cl.ttft.mean, r.ttft.mean, 1e-12);
    assert_near(cl.e2e.p99, r.e2e.p99, 1e-12);
    /* a rate above what the front end takes queues without bound */
    f.c.arrival = ENGINE_SIM_POISSON;
    f.c.rate = 5;
    f.c.requests = 400;
    f.c.frontend_s = f.c.frontend_token_s = 0;
    fx_run(&f, &r);
    assert_false(r.overloaded);
    f.c.frontend_s = 0.2;
    f.c.frontend_token_s = 1e-4;
    fx_run(&f, &r);
    assert_true(r.overloaded);
    assert_true(r.requests_per_s < 1 / c * 1.01);
    engine_error err = {{0}};
    f.c.frontend_s = -1e-3;
    assert_int_equal(engine_sim_check(&f.c, &err), -1);
    assert_non_null(strstr(err.msg, "frontend_s"));
    f.c.frontend_s = 0;
    f.c.frontend_token_s = NAN;
    assert_int_equal(engine_sim_check(&f.c, &err), -1);
    fx_free(&f);
}

/* The tokenizer batch window (frontend_batch_s, vLLM's AsyncMicrobatchTokenizer),
 * by hand: c = 0.2 s + 0.1 ms a token for 512 tokens, W = 2 ms.  Three lone
 * requests (a trace 10 s apart) each wait W, then c: TTFT W + c + P.  Three
 * offline requests form one batch, tokenized one after another after the
 * window: W + c, W + 2c, W + 3c, the FIFO's (test_frontend_by_hand) shifted
 * by W.  Batches of one are full at once: the FIFO exactly.  Batches of
 * two: the first two fill at t = 0 (c, 2c, no wait), the third opens the
 * next window when the front end is free at 2c: 3c + W. */
static void test_frontend_batch_by_hand(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    f.c.gen = 2;
    f.c.exact = 1;
    f.c.frontend_s = 0.2;
    f.c.frontend_token_s = 1e-4;
    f.c.frontend_batch_s = 2e-3;
    const double c = 0.2 + 1e-4 * 512, w = 2e-3;
    double p, d = ts_alone_steps_s(&f.st, &f.st, 512, 2, &p);
    assert_true(p + d < c / 10);
    engine_sim_request tr[3] = {{0, 512, 2}, {10, 512, 2}, {20, 512, 2}};
    f.c.arrival = ENGINE_SIM_TRACE;
    f.c.trace = tr;
    f.c.n_trace = 3;
    engine_sim_result r;
    fx_run(&f, &r);
    assert_near(r.ttft.p50, w + c + p, 1e-12);
    assert_near(r.ttft.p99, w + c + p, 1e-12);
    f.c.arrival = ENGINE_SIM_OFFLINE;
    f.c.requests = 3;
    fx_run(&f, &r);
    assert_int_equal(r.completed, 3);
    assert_near(r.ttft.p50, w + 2 * c + p, 1e-12);
    assert_near(r.ttft.mean, w + 2 * c + p, 1e-12);
    assert_near(r.duration_s, w + 3 * c + p + d, 1e-12);
    f.c.frontend_batch_max = 1;
    fx_run(&f, &r);
    assert_near(r.ttft.mean, 2 * c + p, 1e-12);
    assert_near(r.duration_s, 3 * c + p + d, 1e-12);
    f.c.frontend_batch_max = 2;
    fx_run(&f, &r);
    assert_near(r.ttft.p50, 2 * c + p, 1e-12);
    assert_near(r.ttft.mean, (c + 2 * c + 3 * c + w) / 3 + p, 1e-12);
    assert_near(r.duration_s, 3 * c + w + p + d, 1e-12);
    /* no window: none of it */
    f.c.frontend_batch_s = 0;
    f.c.frontend_s = f.c.frontend_token_s = 0;
    engine_sim_result plain;
    fx_run(&f, &plain);
    f.c.frontend_batch_s = w;
    f.c.frontend_batch_max = 0;
    fx_run(&f, &r); /* one batch of three, no tokenizing cost: all at W */
    assert_near(r.ttft.p50, plain.ttft.p50 + w, 1e-12);
    engine_error err = {{0}};
    f.c.frontend_batch_max = ENGINE_SIM_FE_BATCH_MAX + 1;
    assert_int_equal(engine_sim_check(&f.c, &err), -1);
    assert_non_null(strstr(err.msg, "frontend_batch_max"));
    f.c.frontend_batch_max = 0;
    f.c.frontend_batch_s = -1;
    assert_int_equal(engine_sim_check(&f.c, &err), -1);
    fx_free(&f);
}

/* Decode steps of n sequences at pasts past, past + 1, ..., k of them. */
static double decodes_s(const engine_stepper *st, int n, int past, int k)
{
    double t = 0;
    for (int j = 0; j < k; j++)
        t += step_with(st, 0, 0, n, past + j);
    return t;
}

/* On-demand KV with preemption by recompute (vLLM), worked by hand: a
 * cache of 10 blocks (160 tokens), two requests of 48 + 40 tokens at t = 0
 * (6 blocks each whole: reserved, they run one after the other).  On
 * demand both are admitted with their prompts' 3 blocks and prefill in
 * step 1; each step's token gets its block: at 80 tokens each holds 5
 * blocks (10 in all) after 32 decode steps, and A's 81st token needs a
 * 6th: B, the newest, is preempted with 33 output tokens made.  A decodes
 * its last 7 tokens alone (pasts 80..86) while B waits (81 tokens' 6
 * blocks do not fit beside A's 6); then B recomputes its 48 + 33 tokens in
 * one prefill step, which gives its 34th token, and decodes 6 more (pasts
 * 81..86).  47 steps; TTFT both the first step, B's kept. */
static void test_kv_on_demand_by_hand(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    engine_sim_request tr[2] = {{0, 48, 40}, {0, 48, 40}};
    fx_two_arrivals(&f, tr);
    f.st.kv_blocks = 10;
    assert_int_equal(f.c.kv_alloc, ENGINE_SIM_KV_RESERVE); /* the generic profile's */
    engine_sim_result r;
    fx_run(&f, &r);
    double one = step_with(&f.st, 1, 48, 0, 0) + decodes_s(&f.st, 1, 48, 39);
    assert_int_equal(r.completed, 2);
    assert_int_equal(r.preemptions, 0);
    assert_int_equal(r.max_batch, 1);
    assert_near(r.e2e.p99, one + 0.99 * one, 1e-12);
    f.c.kv_alloc = ENGINE_SIM_KV_ON_DEMAND;
    fx_run(&f, &r);
    double p2 = step_with(&f.st, 2, 48, 0, 0);
    double ea = p2 + decodes_s(&f.st, 2, 48, 32) + decodes_s(&f.st, 1, 80, 7);
    double eb = ea + step_with(&f.st, 1, 81, 0, 0) + decodes_s(&f.st, 1, 81, 6);
    assert_int_equal(r.completed, 2);
    assert_int_equal(r.preemptions, 1);
    assert_int_equal(r.steps, 47);
    assert_int_equal(r.max_batch, 2);
    assert_int_equal(r.kv_blocks_peak, 10);
    assert_near(r.ttft.p99, p2, 1e-12);
    assert_near(r.e2e.p50, 0.5 * (ea + eb), 1e-12);
    assert_near(r.e2e.p99, ea + 0.99 * (eb - ea), 1e-12);
    assert_near(r.duration_s, eb, 1e-12);
    assert_near(r.tpot.p99, (ea - p2) / 39 + 0.99 * (eb - ea) / 39, 1e-12);
    /* the line through each run of decode steps: within 0.1 % */
    f.c.exact = 0;
    engine_sim_result l;
    fx_run(&f, &l);
    assert_int_equal(l.steps, 47);
    assert_near(l.duration_s, r.duration_s, 1e-3 * r.duration_s);
    /* prefill first on demand (vLLM V0), two 512 + 64 requests, budget 600:
     * B is admitted after A but does not join A's step (512 > the 88 left)
     * and waits with nothing held; then B's prefill alone (A holds 32
     * blocks), then 63 decode steps of both at past 512 holding 64 (and
     * granted 2 more); the mean KV use weighs the held blocks by time */
    engine_sim_request pf[2] = {{0, 512, 64}, {0, 512, 64}};
    f.c.trace = pf;
    f.c.exact = 1;
    f.c.sched = ENGINE_SIM_PREFILL_FIRST;
    f.c.max_batched_tokens = 600;
    f.st.kv_blocks = 1000;
    fx_run(&f, &r);
    double p512 = step_with(&f.st, 1, 512, 0, 0), d63 = decodes_s(&f.st, 2, 512, 63);
    assert_int_equal(r.preemptions, 0);
    assert_int_equal(r.steps, 65);
    assert_int_equal(r.kv_blocks_peak, 66);
    assert_near(r.kv_use, (32 * p512 + 64 * d63) / 1000.0 / (2 * p512 + d63), 1e-12);
    /* the vLLM-like profile gives its cache out on demand by default */
    engine_framework fw = *engine_framework_generic_ref();
    fw.kv_alloc = ENGINE_SIM_KV_ON_DEMAND;
    engine_stepper st = f.st;
    st.s.framework = &fw;
    engine_sim_config c;
    engine_sim_defaults(&c, &st);
    assert_int_equal(c.kv_alloc, ENGINE_SIM_KV_ON_DEMAND);
    engine_sim_kv kv;
    assert_int_equal(engine_sim_kv_parse("reserve", &kv), 0);
    assert_int_equal(kv, ENGINE_SIM_KV_RESERVE);
    assert_int_equal(engine_sim_kv_parse("on-demand", &kv), 0);
    assert_int_equal(kv, ENGINE_SIM_KV_ON_DEMAND);
    assert_int_equal(engine_sim_kv_parse("lazy", &kv), -1);
    assert_string_equal(engine_sim_kv_name(ENGINE_SIM_KV_ON_DEMAND), "on-demand");
    engine_error err = {{0}};
    f.c.kv_alloc = ENGINE_SIM_KV_COUNT;
    assert_int_equal(engine_sim_check(&f.c, &err), -1);
    assert_non_null(strstr(err.msg, "kv_alloc"));
    fx_free(&f);
}

/* On demand under a heavy offline load (24 GB: the cache binds), every
 * scheduler: every request is served, the cache is never over-committed,
 * requests are preempted, more run at once than the reservation allows,
 * the same seed gives the same run, and a closed loop keeps Little's law;
 * SGLang's estimate serves every request within the cache, more at once
 * than the reservation. */
static void test_kv_on_demand_laws(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 24);
    long long per = (512 + 256 + 15) / 16;
    f.c.arrival = ENGINE_SIM_OFFLINE;
    f.c.requests = 600;
    f.c.gen = 256;
    f.c.gen_dist = (engine_sim_dist){ENGINE_SIM_UNIFORM, 128, 384, 0};
    static const engine_sim_sched SCHED[] = {ENGINE_SIM_CHUNKED, ENGINE_SIM_PREFILL_FIRST,
                                             ENGINE_SIM_CHUNKED_PREFILL_FIRST};
    for (size_t i = 0; i < sizeof SCHED / sizeof SCHED[0]; i++) {
        f.c.sched = SCHED[i];
        f.c.kv_alloc = ENGINE_SIM_KV_RESERVE;
        engine_sim_result res, r, again;
        fx_run(&f, &res);
        f.c.kv_alloc = ENGINE_SIM_KV_ON_DEMAND;
        fx_run(&f, &r);
        assert_int_equal(r.completed, 600);
        assert_true(r.kv_blocks_peak <= f.st.kv_blocks);
        assert_true(r.kv_blocks_peak > f.st.kv_blocks - per);
        assert_true(r.preemptions > 0);
        assert_true(r.max_batch > res.max_batch);
        assert_int_equal(res.preemptions, 0);
        fx_run(&f, &again);
        assert_memory_equal(&r, &again, sizeof r);
        /* SGLang's estimate: between the two, never over the cache */
        f.c.kv_alloc = ENGINE_SIM_KV_ESTIMATE;
        fx_run(&f, &r);
        assert_int_equal(r.completed, 600);
        assert_true(r.kv_blocks_peak <= f.st.kv_blocks);
        assert_true(r.max_batch > res.max_batch);
        fx_run(&f, &again);
        assert_memory_equal(&r, &again, sizeof r);
    }
    /* the sustainable rate on demand: the better of the loop at the batch
     * held whole and one at the mean progress, 512 + 256 / 2 tokens = 40
     * blocks a request (fixed lengths here) */
    f.c.sched = ENGINE_SIM_CHUNKED;
    f.c.gen_dist = (engine_sim_dist){ENGINE_SIM_FIXED, 0, 0, 0};
    f.c.kv_alloc = ENGINE_SIM_KV_RESERVE;
    assert_int_equal(engine_sim_on_demand_batch(&f.st, &f.c), 0);
    f.c.kv_alloc = ENGINE_SIM_KV_ON_DEMAND;
    long long od = f.st.kv_blocks / 40;
    assert_true(od > engine_sim_max_batch(&f.st, &f.c) && od < f.c.max_num_seqs);
    assert_int_equal(engine_sim_on_demand_batch(&f.st, &f.c), (int)od);
    engine_error err = {{0}};
    size_t bytes = engine_sim_workspace_bytes(&f.st, &f.c);
    void *w = malloc(bytes);
    assert_non_null(w);
    double s_od = engine_sim_sustainable_rate(&f.st, &f.c, w, bytes, &err);
    f.c.kv_alloc = ENGINE_SIM_KV_RESERVE;
    double s_res = engine_sim_sustainable_rate(&f.st, &f.c, w, bytes, &err);
    free(w);
    assert_true(s_res > 0 && s_od > s_res);
    f.c.kv_alloc = ENGINE_SIM_KV_ON_DEMAND;
    f.c.arrival = ENGINE_SIM_CLOSED;
    f.c.closed_start = ENGINE_SIM_START_STEADY;
    f.c.concurrency = 160;
    f.c.requests = 3200;
    engine_sim_result r;
    fx_run(&f, &r);
    assert_true(r.preemptions > 0);
    assert_near(r.requests_per_s * r.e2e.mean / r.mean_in_system, 1, 0.02);
    fx_free(&f);
}

/* SGLang's estimate admission and retraction (kv_alloc estimate), worked
 * by hand: a cache of 11 blocks (176 tokens), two requests of 48 + 40 at
 * t = 0 (6 blocks each whole), chunked.  A is admitted (48 + 40 < 176) and
 * holds back its 40 output tokens; B is not: 48 + 40 is not below
 * (11 - 3) x 16 - 40 = 88.  A decodes alone; with g output tokens made (4
 * blocks held and granted, 7 free) B needs 88 < 112 - (40 - g) x ratio,
 * the ratio 0.7 less (g - 1) x (0.7 - 0.098) / 600: first at g = 6 (34 x
 * 0.69498 = 23.63), so B prefills beside A's 6th decode (past 53) after 5
 * decode steps alone (pasts 48..52).  Both decode 32 steps (mean past
 * 51..82); then B's 81st token needs a 6th block with none free: B, fewer
 * output tokens made (33 against 39), is retracted, A decodes its last
 * alone (past 86), and B recomputes 48 + 33 tokens and decodes 6 more
 * (pasts 81..86).  47 steps, one retraction; reserved, the two run one
 * after the other. */
static void test_kv_estimate_by_hand(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f, (engine_plan){1, 1, 1, 1}, 0);
    engine_sim_request tr[2] = {{0, 48, 40}, {0, 48, 40}};
    fx_two_arrivals(&f, tr);
    f.st.kv_blocks = 11;
    f.c.kv_alloc = ENGINE_SIM_KV_ESTIMATE;
    engine_sim_result r;
    fx_run(&f, &r);
    double p1 = step_with(&f.st, 1, 48, 0, 0);
    double tb = p1 + decodes_s(&f.st, 1, 48, 5) + step_with(&f.st, 1, 48, 1, 53);
    double ea = tb + decodes_s(&f.st, 2, 51, 32) + decodes_s(&f.st, 1, 86, 1);
    double eb = ea + step_with(&f.st, 1, 81, 0, 0) + decodes_s(&f.st, 1, 81, 6);
    assert_int_equal(r.completed, 2);
    assert_int_equal(r.preemptions, 1);
    assert_int_equal(r.steps, 47);
    assert_int_equal(r.max_batch, 2);
    assert_true(r.kv_blocks_peak <= 11);
    assert_near(r.ttft.p50, 0.5 * (p1 + tb), 1e-12);
    assert_near(r.ttft.p99, p1 + 0.99 * (tb - p1), 1e-12);
    assert_near(r.e2e.p99, ea + 0.99 * (eb - ea), 1e-12);
    assert_near(r.duration_s, eb, 1e-12);
    /* reserved: 12 blocks for the two, so one at a time */
    f.c.kv_alloc = ENGINE_SIM_KV_RESERVE;
    fx_run(&f, &r);
    assert_int_equal(r.max_batch, 1);
    assert_int_equal(r.preemptions, 0);
    /* with room for both whole the estimate admits both at once */
    f.st.kv_blocks = 12;
    f.c.kv_alloc = ENGINE_SIM_KV_ESTIMATE;
    fx_run(&f, &r);
    assert_near(r.ttft.p99, step_with(&f.st, 2, 48, 0, 0), 1e-12);
    assert_int_equal(r.preemptions, 0);
    engine_sim_kv kv;
    assert_int_equal(engine_sim_kv_parse("estimate", &kv), 0);
    assert_int_equal(kv, ENGINE_SIM_KV_ESTIMATE);
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_decoding),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_single_server_by_hand),
        cmocka_unit_test(test_offline_finishes),
        cmocka_unit_test(test_closed_loop),
        cmocka_unit_test(test_overload_against_sustainable),
        cmocka_unit_test(test_kv_capacity_respected),
        cmocka_unit_test(test_schedulers),
        cmocka_unit_test(test_length_distributions),
        cmocka_unit_test(test_sim_errors),
        cmocka_unit_test(test_one_of_and_warmup),
        cmocka_unit_test(test_trace_parse),
        cmocka_unit_test(test_closed_start_by_hand),
        cmocka_unit_test(test_closed_start_steady_laws),
        cmocka_unit_test(test_inflight_by_hand),
        cmocka_unit_test(test_chunked_prefill_first_by_hand),
        cmocka_unit_test(test_admit_lag_by_hand),
        cmocka_unit_test(test_recv_interval_by_hand),
        cmocka_unit_test(test_recv_interval_inside_a_run),
        cmocka_unit_test(test_measure_window_by_hand),
        cmocka_unit_test(test_frontend_by_hand),
        cmocka_unit_test(test_frontend_batch_by_hand),
        cmocka_unit_test(test_kv_on_demand_by_hand),
        cmocka_unit_test(test_kv_on_demand_laws),
        cmocka_unit_test(test_kv_estimate_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
