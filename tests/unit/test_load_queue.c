/*
 * test_load_queue.c - the load simulation (engine/sim.c) against queueing
 * theory worked by hand, on one replica whose service time is known from the
 * engine's own step times.
 *
 * The server: llama-3-8b on one H100 SXM (generic framework, fp16), at most
 * one running request (max_num_seqs 1), fixed lengths of P = 512 prompt and
 * G = 64 output tokens, every decode step timed (exact).  A request's
 * service time is then S = t_prefill(P) + sum over k = 1..G-1 of
 * t_decode(past P + k - 1), each from engine_step_s; nothing else runs
 * beside it, so the replica is a single FIFO server with deterministic
 * service: M/D/1 under Poisson arrivals, D/D/1 under evenly spaced ones.
 *
 *  - evenly spaced arrivals below capacity (every 1.5 S): no request waits:
 *    TTFT = t_prefill and e2e = S for every request (p50 = p99);
 *  - Poisson arrivals at rho = lambda S = 0.3, 0.5, 0.7: the mean wait
 *    (mean TTFT - t_prefill) matches Pollaczek-Khinchine for M/D/1,
 *    Wq = rho S / (2 (1 - rho)), within 4 standard errors of the mean of 8
 *    independent runs (seeds) of 20000 requests (the standard error from
 *    the spread of the 8 runs' means; 4 of them: a 1-in-300 chance to fail
 *    a right simulation under Student's t with 7 degrees of freedom), and
 *    within 5 %.  These runs time a decode run by the line through its
 *    first and last step (the default), so S is the simulation's own: one
 *    request alone, checked within 0.1 % of the hand sum;
 *  - Poisson arrivals at twice the capacity: overloaded, and the throughput
 *    is 1 / S (the server never idles after the first arrival) within 1 %;
 *    the sustainable rate is 1 / S too;
 *  - Little's law on every run above and on a batching server (vLLM profile,
 *    up to 256 running requests): the time-average number of requests in
 *    the system, integrated step by step from the replica's state (running,
 *    queued, arrived and not yet enqueued), equals the throughput times the
 *    mean time in the system from the requests' own timestamps, within
 *    1e-6 (the run starts and ends empty, so L = lambda W holds on the
 *    sample path: what is checked is that the steps tile the busy time and
 *    that no request is counted twice or lost);
 *  - p99 TTFT is monotone in the rate, for the single server (pathwise:
 *    with one seed, a higher rate scales every inter-arrival time down) and
 *    for the batching one;
 *  - the same configuration gives the same result bit for bit, another
 *    seed another one.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "preset.h"
#include "sim.h"
#include "support_presets.h"

#define P 512
#define G 64

static engine_stepper st;
static double t_prefill, service, service_sim;
static void *work;
static size_t work_bytes;

static void scenario(engine_scenario *s, const char *framework)
{
    engine_scenario_defaults(s);
    s->model = preset_find_model(ts_db, "llama-3-8b");
    s->gpu = preset_find_gpu(ts_db, "h100-sxm");
    s->intra = preset_find_link(ts_db, "nvlink4");
    s->framework = preset_find_framework(ts_db, framework);
    s->gpus = 1;
    s->prompt = P;
    s->gen = G;
    s->mc_samples = 0;
}

static int setup(void **state)
{
    if (ts_presets_setup(state) != 0)
        return -1;
    engine_scenario s;
    scenario(&s, "generic");
    engine_error err = {{0}};
    if (engine_stepper_init(&st, &s, (engine_plan){1, 1, 1, 1}, &err) != 0 || !st.valid)
        return -1;
    engine_step_chunk ch = {1, P, 0};
    engine_step_mix pre = {&ch, 1, 0, 0};
    t_prefill = engine_step_s(&st, &pre);
    service = t_prefill;
    for (int k = 1; k <= G - 1; k++) {
        engine_step_mix dec = {NULL, 0, 1, P + k - 1};
        service += engine_step_s(&st, &dec);
    }
    work_bytes = 64u << 20;
    work = malloc(work_bytes);
    if (!work)
        return -1;
    /* the simulation's own S (decode runs timed by their end steps' line) */
    engine_sim_config c;
    engine_sim_defaults(&c, &st);
    c.max_num_seqs = 1;
    c.arrival = ENGINE_SIM_OFFLINE;
    c.requests = 1;
    engine_sim_result r;
    if (engine_sim_run(&st, &c, work, work_bytes, &r, &err) != 0)
        return -1;
    service_sim = r.e2e.p50;
    return 0;
}

static int teardown(void **state)
{
    free(work);
    work = NULL;
    return ts_presets_teardown(state);
}

static void single_server(engine_sim_config *c)
{
    engine_sim_defaults(c, &st);
    c->max_num_seqs = 1;
    c->prompt = P;
    c->gen = G;
    c->prompt_dist.kind = c->gen_dist.kind = ENGINE_SIM_FIXED;
    c->max_batched_tokens = 8192;
    c->exact = 1;
}

static void run(const engine_stepper *s, const engine_sim_config *c, engine_sim_result *r)
{
    engine_error err = {{0}};
    assert_true(engine_sim_workspace_bytes(s, c) <= work_bytes);
    int rc = engine_sim_run(s, c, work, work_bytes, r, &err);
    if (rc != 0)
        print_message("  %s\n", err.msg);
    assert_int_equal(rc, 0);
    assert_int_equal(r->completed, r->requests);
}

/* Little's law: L = lambda W over the run (the run starts and ends empty). */
static void assert_little(const engine_sim_result *r, double band)
{
    double lw = r->requests_per_s * r->e2e.mean;
    double err = fabs(r->mean_in_system / lw - 1);
    assert_true(r->mean_in_system > 0);
    if (err > band)
        print_message("  Little: L %.6g, lambda W %.6g (%.2f %%)\n", r->mean_in_system, lw,
                      100 * err);
    assert_true(err <= band);
}

static void test_service_time_by_hand(void **state)
{
    (void)state;
    /* the hand sum is what the engine says a request costs alone */
    assert_true(t_prefill > 0 && service > t_prefill);
    print_message("  S = %.6f s (prefill %.6f s + %d decode steps)\n", service, t_prefill, G - 1);
    /* one request alone */
    engine_sim_config c;
    single_server(&c);
    c.arrival = ENGINE_SIM_OFFLINE;
    c.requests = 1;
    engine_sim_result r;
    run(&st, &c, &r);
    assert_true(fabs(r.ttft.p50 / t_prefill - 1) < 1e-12);
    assert_true(fabs(r.e2e.p50 / service - 1) < 1e-12);
    /* without exact: the line through a decode run's end steps */
    assert_true(fabs(service_sim / service - 1) < 1e-3);
}

static void test_evenly_spaced_no_wait(void **state)
{
    (void)state;
    enum { N = 200 };
    static engine_sim_request tr[N];
    for (int i = 0; i < N; i++)
        tr[i] = (engine_sim_request){1.5 * service * i, P, G};
    engine_sim_config c;
    single_server(&c);
    c.arrival = ENGINE_SIM_TRACE;
    c.trace = tr;
    c.n_trace = N;
    c.requests = N;
    engine_sim_result r;
    run(&st, &c, &r);
    assert_true(fabs(r.ttft.p50 / t_prefill - 1) < 1e-9 && fabs(r.ttft.p99 / t_prefill - 1) < 1e-9);
    assert_true(fabs(r.ttft.mean / t_prefill - 1) < 1e-9);
    assert_true(fabs(r.e2e.p99 / service - 1) < 1e-9 && fabs(r.e2e.mean / service - 1) < 1e-9);
    assert_false(r.overloaded);
    assert_int_equal(r.max_queue, 0);
    /* N requests over (N - 1) x 1.5 S + S */
    assert_true(fabs(r.requests_per_s * (1.5 * service * (N - 1) + service) / N - 1) < 1e-9);
    assert_little(&r, 1e-6);
}

static void test_md1_mean_wait(void **state)
{
    (void)state;
    static const double RHO[] = {0.3, 0.5, 0.7};
    enum { SEEDS = 8, N = 20000 };
    const double S = service_sim;
    for (size_t k = 0; k < sizeof RHO / sizeof RHO[0]; k++) {
        double rho = RHO[k], wq = rho * S / (2 * (1 - rho));
        double m[SEEDS], sum = 0;
        for (int j = 0; j < SEEDS; j++) {
            engine_sim_config c;
            single_server(&c);
            c.exact = 0;
            c.arrival = ENGINE_SIM_POISSON;
            c.rate = rho / S;
            c.requests = N;
            c.seed = 1000 + (uint64_t)j;
            engine_sim_result r;
            run(&st, &c, &r);
            m[j] = r.ttft.mean - t_prefill;
            sum += m[j];
            assert_little(&r, 1e-6);
            assert_false(r.overloaded);
            /* the server is busy rho of the time */
            assert_true(fabs(r.busy_fraction / rho - 1) < 0.05);
        }
        double mean = sum / SEEDS, var = 0;
        for (int j = 0; j < SEEDS; j++)
            var += (m[j] - mean) * (m[j] - mean);
        double se = sqrt(var / (SEEDS - 1) / SEEDS);
        print_message("  rho %.1f: Wq %.5f s by P-K, simulated %.5f s (SE %.5f, %+.2f %%)\n", rho,
                      wq, mean, se, 100 * (mean / wq - 1));
        assert_true(fabs(mean - wq) <= 4 * se);
        assert_true(fabs(mean / wq - 1) <= 0.05);
    }
}

static void test_overload_throughput(void **state)
{
    (void)state;
    engine_sim_config c;
    single_server(&c);
    c.arrival = ENGINE_SIM_POISSON;
    c.exact = 0;
    c.rate = 2.0 / service_sim;
    c.requests = 2000;
    engine_sim_result r;
    run(&st, &c, &r);
    assert_true(r.overloaded);
    /* busy from the first arrival to the last completion: N S / duration */
    assert_true(fabs(r.requests_per_s * service_sim - 1) < 0.01);
    assert_true(r.busy_fraction > 0.99);
    engine_error err = {{0}};
    double sus = engine_sim_sustainable_rate(&st, &c, work, work_bytes, &err);
    assert_true(fabs(sus * service_sim - 1) < 1e-6);
    assert_little(&r, 1e-6);
    /* the same rate below capacity is not overloaded */
    c.rate = 0.5 / service_sim;
    run(&st, &c, &r);
    assert_false(r.overloaded);
}

static void test_p99_monotone_in_rate(void **state)
{
    (void)state;
    double last = 0;
    for (double rho = 0.1; rho < 0.95; rho += 0.1) {
        engine_sim_config c;
        single_server(&c);
        c.exact = 0;
        c.arrival = ENGINE_SIM_POISSON;
        c.rate = rho / service_sim;
        c.requests = 3000;
        engine_sim_result r;
        run(&st, &c, &r);
        assert_true(r.ttft.p99 >= last);
        last = r.ttft.p99;
    }
    /* a batching server: vLLM profile, up to 256 running requests */
    engine_scenario s;
    scenario(&s, "vllm");
    engine_stepper bs;
    engine_error err = {{0}};
    assert_int_equal(engine_stepper_init(&bs, &s, (engine_plan){1, 1, 1, 1}, &err), 0);
    engine_sim_config c;
    engine_sim_defaults(&c, &bs);
    c.arrival = ENGINE_SIM_CLOSED;
    c.concurrency = 1;
    c.requests = 200;
    double sus = engine_sim_sustainable_rate(&bs, &c, work, work_bytes, &err);
    assert_true(sus > 0);
    last = 0;
    for (double f = 0.1; f < 1.3; f += 0.15) {
        c.arrival = ENGINE_SIM_POISSON;
        c.rate = f * sus;
        c.requests = 3000;
        engine_sim_result r;
        run(&bs, &c, &r);
        print_message("  rate %.1f/s (%.2f of sustainable): p99 TTFT %.4f s, mean batch %.1f%s\n",
                      c.rate, f, r.ttft.p99, r.mean_batch, r.overloaded ? ", overloaded" : "");
        assert_true(r.ttft.p99 >= last);
        last = r.ttft.p99;
        assert_little(&r, 1e-6);
    }
}

static void test_determinism(void **state)
{
    (void)state;
    engine_sim_config c;
    single_server(&c);
    c.arrival = ENGINE_SIM_POISSON;
    c.exact = 0;
    c.rate = 0.6 / service_sim;
    c.requests = 500;
    c.seed = 7;
    engine_sim_result a, b;
    run(&st, &c, &a);
    run(&st, &c, &b);
    assert_memory_equal(&a, &b, sizeof a);
    c.seed = 8;
    run(&st, &c, &b);
    assert_true(a.ttft.mean != b.ttft.mean);
    /* the same lengths and service: both near P-K (loose: one run) */
    double wq = 0.6 * service_sim / (2 * 0.4);
    assert_true(fabs((b.ttft.mean - t_prefill) / wq - 1) < 0.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_service_time_by_hand),
        cmocka_unit_test(test_evenly_spaced_no_wait),
        cmocka_unit_test(test_md1_mean_wait),
        cmocka_unit_test(test_overload_throughput),
        cmocka_unit_test(test_p99_monotone_in_rate),
        cmocka_unit_test(test_determinism),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
