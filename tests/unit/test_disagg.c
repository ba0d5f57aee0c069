/*
 * test_disagg.c - disaggregated prefill/decode (engine/disagg.h) and its
 * two-pool load simulation (engine/sim.h engine_sim_disagg_*): the KV
 * transfer worked by hand (bytes, streams, link), the layer-wise overlap,
 * TTFT/ITL/rate matching against the pools' own engine figures, and the
 * simulation of one request at a time worked step by step.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "disagg.h"
#include "engine.h"
#include "sim.h"
#include "support_asserts.h"
#include "support_models.h"
#include "support_steps.h"

typedef struct fixture {
    engine_model m;
    engine_gpu g;
    engine_link l, x;
    engine_scenario s;
} fixture;

/* Llama-3-8B on H100s, NVLink-like 300 GB/s inside, a 50 GB/s scale-out
 * link, prompt 512, gen 64. */
static void fx_init(fixture *f)
{
    memset(f, 0, sizeof *f);
    f->m = tm_llama3_8b();
    f->g = tg_h100();
    f->l = tl_link(2e-6, 300);
    f->x = tl_link(5e-6, 50);
    ts_scenario(&f->s, &f->m, &f->g, &f->l, 2);
    f->s.prompt = 512;
    f->s.gen = 64;
}

static engine_disagg_plan dplan(int x, int tpp, int y, int tpd)
{
    return (engine_disagg_plan){{tpp, 1, x, 1}, {tpd, 1, y, 1}};
}

/* KV of Llama-3-8B at fp16: 2 (K, V) x 32 layers x 8 KV heads x 128 x 2
 * bytes = 131072 bytes a token; 512 tokens = 64 MiB.  One stream at TP 1,
 * two at TP 2 (each rank its 4 KV heads); NVLink inside a node, the
 * scale-out link when the pair spans nodes. */
static void test_transfer_by_hand(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f);
    int n = 0, cross = -1;
    double t = engine_disagg_transfer_s(&f.s, dplan(1, 1, 1, 1), 512, &n, &cross);
    assert_int_equal(n, 1);
    assert_int_equal(cross, 0);
    assert_near(t, 2e-6 + 67108864.0 / 300e9, 1e-12);
    t = engine_disagg_transfer_s(&f.s, dplan(1, 2, 1, 4), 512, &n, &cross);
    assert_int_equal(n, 2); /* min(2, 8) against min(4, 8) */
    assert_near(t, 2e-6 + 33554432.0 / 300e9, 1e-12);
    f.s.inter = &f.x;
    f.s.gpus_per_node = 4; /* tp2 + tp4 = 6 GPUs: two nodes */
    t = engine_disagg_transfer_s(&f.s, dplan(1, 2, 1, 4), 512, &n, &cross);
    assert_int_equal(cross, 1);
    assert_near(t, 5e-6 + 33554432.0 / 50e9, 1e-12);
    f.s.kv_dtype = ENGINE_FP8; /* half the bytes */
    t = engine_disagg_transfer_s(&f.s, dplan(1, 2, 1, 2), 512, &n, &cross);
    assert_int_equal(cross, 0);
    assert_near(t, 2e-6 + 16777216.0 / 300e9, 1e-12);
}

/* Layer-wise overlap: a two-stage pipeline of L equal layers. */
static void test_exposed_overlap(void **state)
{
    (void)state;
    assert_near(engine_disagg_exposed_s(1.0, 2.0, 4), 0.25, 1e-15);  /* hidden but the last */
    assert_near(engine_disagg_exposed_s(3.0, 1.0, 4), 2.25, 1e-15);  /* link-bound */
    assert_near(engine_disagg_exposed_s(1.0, 5.0, 1), 1.0, 1e-15);   /* one layer: none hidden */
    assert_true(engine_disagg_exposed_s(0.0, 1.0, 32) == 0.0);
}

/* TTFT = the prefill pool's TTFT at batch 1 + the exposed transfer; ITL =
 * the decode pool's at the batch; rates per pool by hand; the smaller one
 * is the plan's. */
static void test_evaluate_rate_matching(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f);
    f.s.batch = 16;
    engine_disagg_result r;
    engine_error err;
    assert_int_equal(engine_disagg_evaluate(&f.s, dplan(1, 1, 2, 1), &r, &err), 0);
    assert_true(r.valid && r.fits);
    assert_int_equal(r.gpus, 3);
    engine_scenario p = f.s;
    p.gpus = 1;
    p.batch = 1;
    engine_result pr, dr;
    assert_int_equal(engine_evaluate(&p, (engine_plan){1, 1, 1, 1}, &pr, &err), 0);
    engine_scenario d = f.s;
    d.gpus = 2;
    assert_int_equal(engine_evaluate(&d, (engine_plan){1, 1, 2, 1}, &dr, &err), 0);
    double t = 2e-6 + 67108864.0 / 300e9;
    assert_near(r.transfer_s, t, 1e-12);
    assert_near(r.ttft_s, pr.ttft_s + engine_disagg_exposed_s(t, pr.ttft_s, 32), 1e-12);
    assert_near(r.itl_s, dr.itl_s, 1e-12);
    assert_int_equal(r.prefill_batch, 1); /* generic framework: no token budget */
    assert_near(r.prefill_rate, 1 / pr.ttft_s, 1e-12);
    assert_near(r.decode_rate, 2 * 16 / (63 * dr.itl_s), 1e-12);
    assert_near(r.sustainable_rate, fmin(r.prefill_rate, r.decode_rate), 1e-15);
    assert_near(r.tokens_per_s, r.sustainable_rate * 64, 1e-12);
    /* twice the prefill replicas: twice the prefill pool's rate */
    engine_disagg_result r2;
    assert_int_equal(engine_disagg_evaluate(&f.s, dplan(2, 1, 2, 1), &r2, &err), 0);
    assert_near(r2.prefill_rate, 2 * r.prefill_rate, 1e-12);
    assert_near(r2.decode_rate, r.decode_rate, 1e-12);
    /* a pool that does not fit names itself */
    f.g = tg_with_memory(8);
    assert_int_equal(engine_disagg_evaluate(&f.s, dplan(1, 1, 1, 1), &r, &err), 0);
    assert_false(r.fits);
    assert_non_null(strstr(r.reason, "prefill pool"));
    char name[64];
    engine_disagg_name(dplan(2, 2, 1, 4), name, sizeof name);
    assert_string_equal(name, "2P1D tp2/tp4");
}

/* The splits of 3 GPUs, by hand: 1P2D and 2P1D at TP 1/1, 1P1D at TP 1/2
 * and at TP 2/1; each on all 3 GPUs; sorted by the objective. */
static void test_rank_splits(void **state)
{
    (void)state;
    fixture f;
    fx_init(&f);
    f.s.gpus = 3;
    f.s.batch = 8;
    engine_disagg_result *r = calloc(ENGINE_DISAGG_RANK_MAX, sizeof *r);
    int order[ENGINE_DISAGG_RANK_MAX];
    assert_non_null(r);
    engine_error err;
    const engine_objective objs[2] = {ENGINE_OBJ_THROUGHPUT, ENGINE_OBJ_LATENCY};
    for (int k = 0; k < 2; k++) {
        f.s.objective = objs[k];
        int n = engine_disagg_rank(&f.s, r, order, ENGINE_DISAGG_RANK_MAX, &err);
        assert_int_equal(n, 4);
        int seen = 0;
        for (int i = 0; i < n; i++) {
            const engine_disagg_result *a = &r[order[i]];
            assert_int_equal(a->gpus, 3);
            assert_true(a->valid && a->fits);
            char nm[32];
            engine_disagg_name(a->plan, nm, sizeof nm);
            seen |= !strcmp(nm, "1P2D tp1/tp1") << 0 | !strcmp(nm, "2P1D tp1/tp1") << 1 |
                    !strcmp(nm, "1P1D tp1/tp2") << 2 | !strcmp(nm, "1P1D tp2/tp1") << 3;
            if (i > 0) {
                const engine_disagg_result *b = &r[order[i - 1]];
                if (k == 0)
                    assert_true(b->tokens_per_s >= a->tokens_per_s);
                else
                    assert_true(b->e2e_s <= a->e2e_s);
            }
        }
        assert_int_equal(seen, 15);
    }
    free(r);
}

typedef struct simfx {
    fixture f;
    engine_stepper pre, dec;
    engine_sim_config c;
    engine_sim_transfer x;
    void *work;
    size_t bytes;
} simfx;

static void sim_init(simfx *z, engine_disagg_plan p)
{
    memset(z, 0, sizeof *z);
    fx_init(&z->f);
    engine_error err;
    engine_scenario s = z->f.s;
    s.gpus = p.prefill.tp * p.prefill.dp;
    assert_int_equal(engine_stepper_init(&z->pre, &s, p.prefill, &err), 0);
    s.gpus = p.decode.tp * p.decode.dp;
    assert_int_equal(engine_stepper_init(&z->dec, &s, p.decode, &err), 0);
    engine_sim_defaults(&z->c, &z->dec);
    engine_disagg_sim_transfer(&z->f.s, p, &z->x);
}

static void sim_run(simfx *z, engine_sim_result *r)
{
    engine_error err = {{0}};
    free(z->work);
    z->bytes = engine_sim_disagg_workspace_bytes(&z->pre, &z->dec, &z->c);
    assert_true(z->bytes > 0);
    z->work = malloc(z->bytes);
    if (engine_sim_disagg_run(&z->pre, &z->dec, &z->c, &z->x, z->work, z->bytes, r, &err) != 0) {
        print_error("%s\n", err.msg);
        fail();
    }
}

/* Requests far apart (a trace): each is a prefill step of 512 tokens on
 * the prefill replica, the exposed transfer, and 63 decode steps at pasts
 * 512..574 on the decode replica, each by engine_step_s. */
static void test_sim_by_hand(void **state)
{
    (void)state;
    simfx z;
    sim_init(&z, dplan(1, 1, 1, 1));
    assert_near(z.x.per_token_s, 131072.0 / 300e9, 1e-9);
    assert_near(z.x.base_s, 2e-6, 1e-6);
    double ttft, dec = ts_alone_steps_s(&z.pre, &z.dec, 512, 64, &ttft);
    double t = z.x.base_s + z.x.per_token_s * 512;
    double first = ttft + engine_disagg_exposed_s(t, ttft, 32);
    engine_sim_request tr[3] = {{0, 512, 64}, {10, 512, 64}, {20, 512, 64}};
    z.c.arrival = ENGINE_SIM_TRACE;
    z.c.trace = tr;
    z.c.n_trace = 3;
    z.c.exact = 1;
    engine_sim_result r;
    sim_run(&z, &r);
    assert_int_equal(r.completed, 3);
    assert_near(r.ttft.p50, first, 1e-12);
    assert_near(r.tpot.p99, dec / 63, 1e-12);
    assert_near(r.e2e.p50, first + dec, 1e-12);
    assert_near(r.duration_s, 20 + first + dec, 1e-12);
    assert_int_equal(r.steps, 3 + 3 * 63);
    assert_int_equal(r.max_batch, 1);
    /* determinism under a Poisson load, and the closed loop refused */
    z.c.arrival = ENGINE_SIM_POISSON;
    z.c.trace = NULL;
    z.c.n_trace = 0;
    z.c.exact = 0;
    z.c.rate = 5;
    z.c.requests = 300;
    engine_sim_result a, b;
    memset(&a, 0x55, sizeof a);
    memset(&b, 0xaa, sizeof b);
    sim_run(&z, &a);
    sim_run(&z, &b);
    assert_memory_equal(&a, &b, sizeof a);
    assert_int_equal(a.completed, 300);
    /* Little's law over both pools and the transfers between them */
    assert_near(a.mean_in_system, a.requests_per_s * a.e2e.mean, 1e-6);
    z.c.arrival = ENGINE_SIM_CLOSED;
    z.c.concurrency = 4;
    engine_error err = {{0}};
    assert_int_equal(engine_sim_disagg_run(&z.pre, &z.dec, &z.c, &z.x, z.work, z.bytes, &a, &err),
                     -1);
    assert_non_null(strstr(err.msg, "closed loop"));
    free(z.work);
}

/* Rate matching in the simulation: the plan's sustainable rate is its
 * slower pool's; past it the run is overloaded, well below it not; more
 * prefill replicas raise only the prefill pool's. */
static void test_sim_rate_matching(void **state)
{
    (void)state;
    simfx z;
    sim_init(&z, dplan(1, 1, 1, 1));
    z.c.requests = 600;
    engine_error err = {{0}};
    z.bytes = engine_sim_disagg_workspace_bytes(&z.pre, &z.dec, &z.c);
    z.work = malloc(z.bytes);
    double rp = 0, rd = 0;
    double mu = engine_sim_disagg_sustainable_rate(&z.pre, &z.dec, &z.c, z.work, z.bytes, &rp,
                                                   &rd, &err);
    assert_true(mu > 0);
    assert_near(mu, fmin(rp, rd), 1e-15);
    /* the prefill pool by hand: one-token requests back to back, each a
     * prefill step (prompts batch into one step under the 8192 budget) */
    assert_true(rp > 0 && rd > 0);
    z.c.rate = 0.5 * mu;
    engine_sim_result r;
    sim_run(&z, &r);
    assert_false(r.overloaded);
    assert_near(r.requests_per_s, 0.5 * mu, 0.15);
    z.c.rate = 2 * mu;
    sim_run(&z, &r);
    assert_true(r.overloaded);
    assert_true(r.requests_per_s < 1.1 * mu);
    free(z.work);
    simfx w;
    sim_init(&w, dplan(2, 1, 1, 1));
    w.c.requests = 600;
    w.bytes = engine_sim_disagg_workspace_bytes(&w.pre, &w.dec, &w.c);
    w.work = malloc(w.bytes);
    double rp2 = 0, rd2 = 0;
    engine_sim_disagg_sustainable_rate(&w.pre, &w.dec, &w.c, w.work, w.bytes, &rp2, &rd2, &err);
    assert_near(rp2, 2 * rp, 0.05);
    assert_near(rd2, rd, 1e-12);
    free(w.work);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transfer_by_hand),
        cmocka_unit_test(test_exposed_overlap),
        cmocka_unit_test(test_evaluate_rate_matching),
        cmocka_unit_test(test_rank_splits),
        cmocka_unit_test(test_sim_by_hand),
        cmocka_unit_test(test_sim_rate_matching),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
