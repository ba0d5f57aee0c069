/*
 * test_calib_comm.c - calib/backend/comm.c: the NCCL sweeps' size loop with
 * a fake timing op (sizes, warm-up, median, progress, the fit, failures and
 * cancellation keeping the series untouched) and the loopback between two
 * local processes.  Timings are never asserted.
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
#include "calib.h"

#define REL(a, b) (fabs((a) - (b)) / fabs(b))

/* T = alpha + bytes / bw, except that the first (warm-up) call of each size
 * is 50x slower and one timed call per size 3x: the median of 5 must not
 * see either.  fail_at: a size whose call number fail_call fails (returns
 * 7); bad_time: a size whose calls report that time instead. */
typedef struct fake_op {
    double alpha, bw;
    size_t last;
    int call;      /* calls of the current size */
    int calls;     /* all calls */
    size_t fail_at;
    int fail_call;
    size_t bad_at;
    double bad_time;
} fake_op;

static int fake_op_fn(void *ctx, size_t bytes, double *seconds)
{
    fake_op *f = ctx;
    if (bytes != f->last) {
        f->last = bytes;
        f->call = 0;
    }
    f->call++;
    f->calls++;
    if (f->fail_at == bytes && f->call == f->fail_call)
        return 7;
    double t = f->alpha + (double)bytes / f->bw;
    if (f->bad_at == bytes)
        t = f->bad_time;
    else if (f->call == 1)
        t *= 50; /* warm-up */
    else if (f->call == 3)
        t *= 3;  /* an outlier among the timed calls */
    *seconds = t;
    return 0;
}

typedef struct progress_log {
    int n;
    double last;
    int monotonic;
    char step[64];
} progress_log;

static void progress_rec(void *ctx, double f, const char *step)
{
    progress_log *p = ctx;
    if (f < p->last || f < 0 || f >= 1)
        p->monotonic = 0;
    p->last = f;
    p->n++;
    snprintf(p->step, sizeof p->step, "%s", step);
}

static void test_comm_sweep_fit(void **state)
{
    (void)state;
    fake_op f = {8e-6, 45e9, 0, 0, 0, 0, 0, 0, 0};
    calib_comm_sweep_spec spec = {"fake p2p", 1024, (size_t)1 << 30, 4, 1, 5};
    progress_log pl = {0, 0, 1, ""};
    calib_opts o;
    calib_opts_defaults(&o);
    o.progress = progress_rec;
    o.progress_ctx = &pl;
    calib_comm_point *pts = NULL;
    int n = 0;
    engine_error err = {{0}};
    int rc = calib_comm_sweep(&o, &spec, fake_op_fn, &f, &pts, &n, &err);
    if (rc != 0)
        fail_msg("calib_comm_sweep: %d: %s", rc, err.msg);
    assert_int_equal(n, 11); /* 1 KiB, 4 KiB, ..., 1 GiB */
    assert_int_equal(f.calls, 11 * 6);
    assert_int_equal(pl.n, 11);
    assert_true(pl.monotonic);
    assert_string_equal(pl.step, "fake p2p");
    for (int i = 0; i < n; i++) {
        assert_true(pts[i].bytes == 1024.0 * pow(4, i));
        assert_true(REL(pts[i].time_s, 8e-6 + pts[i].bytes / 45e9) < 1e-12);
    }
    calib_alpha_beta fit;
    assert_int_equal(calib_fit_alpha_beta(pts, n, &fit, &err), 0);
    assert_true(REL(fit.alpha_s, 8e-6) < 0.01);
    assert_true(REL(fit.bandwidth, 45e9) < 0.01);
    assert_true(fit.r2 > 0.999999);

    /* A second sweep appends (past 16 points: the series grows); an even
     * number of repeats takes the mean of the middle two; a factor of 2
     * and a top that is not on the grid. */
    calib_comm_sweep_spec s2 = {"fake", 0, 100000, 2, 0, 4};
    fake_op g = {1e-5, 1e9, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(calib_comm_sweep(NULL, &s2, fake_op_fn, &g, &pts, &n, &err), 0);
    assert_int_equal(n, 11 + 7); /* 1, 2, ..., 64 KiB */
    assert_true(pts[10].bytes == (double)(1u << 30));
    for (int i = 11; i < n; i++) {
        double b = 1024.0 * pow(2, i - 11), t = 1e-5 + b / 1e9;
        assert_true(pts[i].bytes == b);
        /* calls 1..4 timed: t*50, t, t*3, t -> middle two t, t*3 */
        assert_true(REL(pts[i].time_s, 2 * t) < 1e-12);
    }
    free(pts);
}

static void test_comm_sweep_errors(void **state)
{
    (void)state;
    calib_comm_sweep_spec spec = {"fake p2p", 1024, 1u << 20, 4, 1, 3};
    engine_error err = {{0}};
    calib_result r;
    memset(&r, 0, sizeof r);
    assert_int_equal(calib_result_add_p2p(&r, 512, 1e-6), 0);
    assert_int_equal(calib_result_add_p2p(&r, 2048, 2e-6), 0);

    /* The op fails on a timed call: a sentence, the series untouched. */
    fake_op f = {8e-6, 45e9, 0, 0, 0, 65536, 3, 0, 0};
    assert_int_equal(calib_comm_sweep(NULL, &spec, fake_op_fn, &f, &r.p2p, &r.n_p2p, &err), -1);
    assert_string_equal(err.msg, "fake p2p: timed run of 65536 bytes failed (code 7)");
    assert_int_equal(r.n_p2p, 2);
    assert_true(r.p2p[0].bytes == 512 && r.p2p[1].bytes == 2048 && r.p2p[1].time_s == 2e-6);
    /* ... on the warm-up. */
    fake_op w = {8e-6, 45e9, 0, 0, 0, 1024, 1, 0, 0};
    assert_int_equal(calib_comm_sweep(NULL, &spec, fake_op_fn, &w, &r.p2p, &r.n_p2p, &err), -1);
    assert_string_equal(err.msg, "fake p2p: warm-up of 1024 bytes failed (code 7)");
    assert_int_equal(w.calls, 1);
    assert_int_equal(r.n_p2p, 2);
    /* A time that is no time. */
    fake_op z = {8e-6, 45e9, 0, 0, 0, 0, 0, 4096, 0};
    assert_int_equal(calib_comm_sweep(NULL, &spec, fake_op_fn, &z, &r.p2p, &r.n_p2p, &err), -1);
    assert_string_equal(err.msg,
                        "fake p2p: 4096 bytes took 0 s; a time must be positive and finite");
    z.last = 0;
    z.bad_time = NAN;
    assert_int_equal(calib_comm_sweep(NULL, &spec, fake_op_fn, &z, &r.p2p, &r.n_p2p, &err), -1);
    assert_string_equal(err.msg,
                        "fake p2p: 4096 bytes took nan s; a time must be positive and finite");
    assert_int_equal(r.n_p2p, 2);

    /* From an empty series: still nothing allocated after a failure. */
    calib_comm_point *pts = NULL;
    int n = 0;
    f.last = 0;
    f.calls = 0;
    assert_int_equal(calib_comm_sweep(NULL, &spec, fake_op_fn, &f, &pts, &n, &err), -1);
    assert_null(pts);
    assert_int_equal(n, 0);

    /* Cancelled before the first size: 3, the op never called. */
    atomic_int stop = 1;
    calib_opts o;
    calib_opts_defaults(&o);
    o.cancel = &stop;
    f.calls = 0;
    assert_int_equal(calib_comm_sweep(&o, &spec, fake_op_fn, &f, &pts, &n, &err), CALIB_CANCELLED);
    assert_int_equal(f.calls, 0);
    assert_null(pts);
    assert_int_equal(n, 0);

    /* A sweep that cannot be run. */
    calib_comm_sweep_spec bad = spec;
    bad.reps = 0;
    assert_int_equal(calib_comm_sweep(NULL, &bad, fake_op_fn, &f, &pts, &n, &err), -1);
    assert_string_equal(err.msg, "fake p2p: bad sweep (sizes 1024..1048576 bytes, factor 4, "
                                 "1 warm-up, 0 repeats; need 1..64 repeats)");
    bad = spec;
    bad.max_bytes = 512;
    assert_int_equal(calib_comm_sweep(NULL, &bad, fake_op_fn, &f, &pts, &n, &err), -1);
    assert_non_null(strstr(err.msg, "bad sweep (sizes 1024..512 bytes"));
    assert_int_equal(calib_comm_sweep(NULL, &spec, NULL, &f, &pts, &n, &err), -1);
    assert_int_equal(calib_comm_sweep(NULL, NULL, fake_op_fn, &f, &pts, &n, &err), -1);
    assert_string_equal(err.msg, "comm sweep: bad sweep (sizes 1024..0 bytes, factor 4, "
                                 "0 warm-ups, 0 repeats; need 1..64 repeats)");
    assert_null(pts);
    calib_result_free(&r);
}

static void test_loopback(void **state)
{
    (void)state;
    calib_result r;
    memset(&r, 0, sizeof r);
    engine_error err = {{0}};
    /* Up to 4 MiB, as --quick: with 64 KiB at most, a loaded machine's
     * noise could hide the slope and the fit (rightly) refused. */
    int rc = calib_comm_loopback(NULL, 4 * 1024 * 1024, &r, &err);
    if (rc != 0) {
        calib_result_free(&r);
        fail_msg("calib_comm_loopback returned %d: %s", rc, err.msg);
    }
    assert_int_equal(r.n_comm, 7); /* 1, 4, 16, 64, 256 KiB, 1, 4 MiB */
    assert_string_equal(r.comm_label, "loopback (2 local processes)");
    for (int i = 0; i < r.n_comm; i++)
        assert_true(r.comm[i].time_s > 0);
    calib_alpha_beta f;
    rc = calib_fit_alpha_beta(r.comm, r.n_comm, &f, &err);
    calib_result_free(&r);
    if (rc != 0)
        fail_msg("alpha-beta fit: %s", err.msg);
    assert_true(f.bandwidth > 0);
}

/* The loopback's re-measured passes: a first pass on a busy machine whose
 * small messages waited for the echo process (1 ms round trips, longer
 * than the 4 MiB one) cannot be fitted; the second pass's undisturbed
 * times (30 us + size / 2 GB/s, hand-made) replace them size by size and
 * the series fits, its bandwidth the second pass's. */
static void test_loopback_passes(void **state)
{
    (void)state;
    double busy[7] = {1e-3, 1e-3, 1.2e-3, 0.9e-3, 1.1e-3, 0.8e-3, 0.95e-3};
    double best[7] = {0}, calm[7];
    calib_loopback_keep_min(best, busy, 7);
    for (int i = 0; i < 7; i++)
        assert_true(best[i] == busy[i]);
    assert_false(calib_loopback_fits(best, 7));
    for (int i = 0; i < 7; i++)
        calm[i] = 30e-6 + (double)(1024u << (2 * i)) / 2e9;
    calib_loopback_keep_min(best, calm, 7);
    /* 4 MiB calm: 30 us + 2.10 ms, longer than its busy 0.95 ms: kept busy */
    assert_true(best[6] == busy[6]);
    assert_true(best[0] == calm[0] && best[5] == calm[5]);
    assert_true(calib_loopback_fits(best, 7));
    /* a third pass with a missing (0) time keeps what it has */
    double gap[7] = {0, 0, 0, 0, 0, 0, 0};
    calib_loopback_keep_min(best, gap, 7);
    assert_true(best[0] == calm[0] && best[6] == busy[6]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_comm_sweep_fit),
        cmocka_unit_test(test_comm_sweep_errors),
        cmocka_unit_test(test_loopback),
        cmocka_unit_test(test_loopback_passes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
