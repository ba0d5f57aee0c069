/*
 * test_pareto.c - the Pareto frontier of tokens/s per GPU against tokens/s
 * per user: a hand-built set with a known frontier, and on real scenarios
 * (Llama-3-70B and Mixtral on 8 x H100) the frontier's defining properties
 * checked point by point against the whole set and against engine_evaluate.
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
#include "pareto.h"
#include "support_models.h"

static engine_pareto_point pt(int tp, int batch, double user, double gpu)
{
    engine_pareto_point p;
    memset(&p, 0, sizeof p);
    p.plan = (engine_plan){tp, 1, 8 / tp, 1};
    p.batch = batch;
    p.tokens_per_s_per_user = user;
    p.tokens_per_s_per_gpu = gpu;
    return p;
}

/* a dominates b: at least as much of both, more of one. */
static int dominates(const engine_pareto_point *a, const engine_pareto_point *b)
{
    return a->tokens_per_s_per_user >= b->tokens_per_s_per_user &&
           a->tokens_per_s_per_gpu >= b->tokens_per_s_per_gpu &&
           (a->tokens_per_s_per_user > b->tokens_per_s_per_user ||
            a->tokens_per_s_per_gpu > b->tokens_per_s_per_gpu);
}

/* (user, GPU): A(100,10) C(80,20) B(50,40) are the frontier; D(60,15) is
 * dominated by C, E(100,5) by A (same per-user), F(30,40) by B (same per
 * GPU); G duplicates C exactly and comes after it (tp 8 after tp 4). */
static void test_hand_built(void **state)
{
    (void)state;
    engine_pareto_point p[] = {
        pt(1, 1, 60, 15), pt(2, 8, 50, 40), pt(8, 2, 80, 20), pt(4, 1, 100, 5),
        pt(1, 4, 30, 40), pt(4, 2, 80, 20), pt(2, 1, 100, 10),
    };
    int n = (int)(sizeof p / sizeof p[0]);
    assert_int_equal(engine_pareto_mark(p, n), 3);
    engine_pareto_point f[8];
    assert_int_equal(engine_pareto_frontier(p, n, f, 8), 3);
    assert_true(f[0].tokens_per_s_per_user == 100 && f[0].tokens_per_s_per_gpu == 10);
    assert_true(f[1].tokens_per_s_per_user == 80 && f[1].tokens_per_s_per_gpu == 20);
    assert_int_equal(f[1].plan.tp, 4); /* of the duplicates, the first in plan order */
    assert_true(f[2].tokens_per_s_per_user == 50 && f[2].tokens_per_s_per_gpu == 40);
    /* sorted by per-user rate, descending: E right after A */
    assert_true(p[1].tokens_per_s_per_user == 100 && p[1].tokens_per_s_per_gpu == 5);
    assert_false(p[1].frontier);
    assert_int_equal(engine_pareto_frontier(p, n, f, 2), 2); /* cap honoured */
    assert_int_equal(engine_pareto_mark(p, 0), 0);
}

/* Every frontier point undominated, every other point dominated by some
 * frontier point, the frontier strictly monotone; each point equal to
 * engine_evaluate at its plan and batch; batch 1 of the fastest plan first. */
static void check_real(const engine_scenario *s0, int want_ep)
{
    engine_scenario s = *s0;
    int cap = engine_pareto_capacity(&s);
    assert_true(cap >= ENGINE_PARETO_BATCHES);
    engine_pareto_point *p = calloc((size_t)cap, sizeof *p);
    assert_non_null(p);
    int n = engine_pareto_points(&s, p, cap, NULL);
    assert_true(n > 10);
    int front = 0, saw_ep = 0, saw_max = 0;
    for (int i = 0; i < n; i++) {
        front += p[i].frontier;
        saw_ep |= p[i].plan.ep > 1;
        saw_max |= p[i].batch == p[i].max_batch && p[i].batch > 1;
        int dominated = 0, by_front = 0;
        for (int j = 0; j < n; j++) {
            if (j != i && dominates(&p[j], &p[i])) {
                dominated = 1;
                by_front |= p[j].frontier;
            }
        }
        if (p[i].frontier) {
            assert_false(dominated);
        } else {
            /* dominated, or an exact duplicate of an earlier frontier point */
            int dup = i > 0 && p[i - 1].tokens_per_s_per_user == p[i].tokens_per_s_per_user &&
                      p[i - 1].tokens_per_s_per_gpu == p[i].tokens_per_s_per_gpu;
            assert_true(by_front || dup);
        }
    }
    assert_true(front >= 2);
    assert_int_equal(saw_ep, want_ep);
    assert_true(saw_max);
    engine_pareto_point *f = calloc((size_t)front, sizeof *f);
    assert_int_equal(engine_pareto_frontier(p, n, f, front), front);
    for (int i = 1; i < front; i++) {
        assert_true(f[i].tokens_per_s_per_user < f[i - 1].tokens_per_s_per_user);
        assert_true(f[i].tokens_per_s_per_gpu > f[i - 1].tokens_per_s_per_gpu);
    }
    /* the per-user end: batch 1 of the plan with the shortest ITL at batch 1 */
    int nplans = engine_plan_count(&s);
    engine_result *r = calloc((size_t)nplans, sizeof *r);
    s.batch = 1;
    s.batch_max = 0;
    s.total_concurrency = 0;
    s.objective = ENGINE_OBJ_LATENCY;
    assert_int_equal(engine_rank(&s, r, nplans, 0, NULL), nplans);
    double best = 1e30;
    engine_plan fastest = {0, 0, 0, 0};
    for (int i = 0; i < nplans; i++)
        if (r[i].valid && r[i].fits && r[i].itl_s < best) {
            best = r[i].itl_s;
            fastest = r[i].plan;
        }
    assert_int_equal(f[0].batch, 1);
    assert_memory_equal(&f[0].plan, &fastest, sizeof fastest);
    assert_true(f[0].tokens_per_s_per_user == 1.0 / best);
    /* the per-GPU end and a middle point agree with engine_evaluate */
    for (int k = 0; k < 2; k++) {
        const engine_pareto_point *q = k ? &f[front - 1] : &f[front / 2];
        engine_result e;
        s.batch = q->batch;
        assert_int_equal(engine_evaluate(&s, q->plan, &e, NULL), 0);
        assert_true(e.valid && e.fits);
        assert_true(q->tokens_per_s_per_gpu == e.tokens_per_s / s.gpus);
        assert_true(q->itl_s == e.itl_s);
        assert_true(q->max_batch == e.max_concurrency);
    }
    free(r);
    free(f);
    free(p);
}

static void test_real_dense(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100_over(&f, tm_llama3_70b(), tl_link(3e-6, 367), 8);
    s.batch = 7;           /* ignored */
    s.batch_max = 1;       /* ignored */
    check_real(&s, 0);
}

static void test_real_moe(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100_over(&f, tm_mixtral_8x7b(), tl_link(3e-6, 367), 8);
    s.total_concurrency = 64; /* ignored */
    check_real(&s, 1);
}

/* Nothing fits: no points; an unusable scenario: -1 with the field named. */
static void test_none_and_errors(void **state)
{
    (void)state;
    ts_fixture f;
    engine_scenario s = ts_on_h100_over(&f, tm_llama31_405b(), tl_link(3e-6, 367), 2);
    engine_pareto_point p[64];
    assert_int_equal(engine_pareto_points(&s, p, 64, NULL), 0);
    s.gpus = 0;
    engine_error err = {{0}};
    assert_int_equal(engine_pareto_points(&s, p, 64, &err), -1);
    assert_non_null(strstr(err.msg, "gpus"));
    assert_int_equal(engine_pareto_capacity(&s), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_built),
        cmocka_unit_test(test_real_dense),
        cmocka_unit_test(test_real_moe),
        cmocka_unit_test(test_none_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
