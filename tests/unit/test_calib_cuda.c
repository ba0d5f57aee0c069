/*
 * test_calib_cuda.c - calib/backend/cuda.c through the fake calib_cuda_api
 * of tests/support (the same table the backend loads from libcudart and
 * libcublas): no GPU, no driver, no device N, a table missing a call,
 * cuBLAS failing to start, out of device memory (nothing leaked), the
 * whole sweep, the NCCL sweeps on two fake GPUs (and calibrate --plan's
 * counts of them); and the real loader on this machine (a count or a
 * one-line reason, never a crash).
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
#include <cjson/cJSON.h>
#include "calib.h"
#include "calib_fake_cuda.h"
#include "support_models.h"

#define REL(a, b) (fabs((a) - (b)) / fabs(b))

static void test_cuda_no_gpu(void **state)
{
    (void)state;
    calib_cuda_api api = ts_fake_cuda_reset();
    api.error_string = NULL; /* the backend's own texts: the runtime's words */
    api.error_name = NULL;
    ts_fake.count_rc = 100; /* cudaErrorNoDevice */
    calib_opts o;
    calib_opts_defaults(&o);
    o.backend = CALIB_BACKEND_CUDA;
    o.cuda = &api;
    o.quick = 1;
    calib_result r;
    engine_error err = {{0}};
    assert_int_equal(calib_run(&o, &r, &err), CALIB_NO_GPU);
    assert_int_equal(r.n_points, 0);
#ifdef SHARDSCOPE_HAVE_CUDA
    assert_string_equal(err.msg, "no usable GPU: cudaGetDeviceCount failed: no CUDA-capable "
                                 "device is detected (cudaErrorNoDevice)");
    ts_fake.count_rc = 35;
    assert_int_equal(calib_run(&o, &r, &err), CALIB_NO_GPU);
    assert_string_equal(err.msg, "no usable GPU: cudaGetDeviceCount failed: CUDA driver "
                                 "version is insufficient for CUDA runtime version "
                                 "(cudaErrorInsufficientDriver)");
    ts_fake.count_rc = 0;
    ts_fake.count = 0;
    assert_int_equal(calib_run(&o, &r, &err), CALIB_NO_GPU);
    assert_string_equal(err.msg, "no usable GPU: the CUDA driver reports no device");
    ts_fake.count = 1;
    o.device = 3;
    assert_int_equal(calib_run(&o, &r, &err), CALIB_NO_GPU);
    assert_string_equal(err.msg, "no CUDA device 3 (1 device visible)");
    /* A table without one of the calls is refused by name, not called. */
    o.device = 0;
    api.mem_copy = NULL;
    assert_int_equal(calib_run(&o, &r, &err), CALIB_NO_GPU);
    assert_string_equal(err.msg, "no usable GPU: the CUDA table has no cudaMemcpy");
#else
    assert_non_null(strstr(err.msg, "this build has no CUDA support"));
#endif
    assert_null(strchr(err.msg, '\n'));
    calib_result_free(&r);
}

static void test_cuda_blas_create_fails(void **state)
{
    (void)state;
#ifdef SHARDSCOPE_HAVE_CUDA
    calib_cuda_api api = ts_fake_cuda_reset();
    ts_fake.blas_create_rc = 1; /* CUBLAS_STATUS_NOT_INITIALIZED */
    calib_opts o;
    calib_opts_defaults(&o);
    o.backend = CALIB_BACKEND_CUDA;
    o.cuda = &api;
    calib_result r;
    engine_error err = {{0}};
    assert_int_equal(calib_run(&o, &r, &err), CALIB_NO_GPU);
    assert_string_equal(err.msg, "cuBLAS cannot start on GPU 0: cublasCreate returned "
                                 "CUBLAS_STATUS_NOT_INITIALIZED");
    assert_int_equal(ts_fake.allocs, 5);
    assert_int_equal(ts_fake.frees, 5); /* nothing leaked on the way out */
    calib_result_free(&r);

    /* Out of device memory on the third buffer: a runtime failure. */
    api = ts_fake_cuda_reset();
    ts_fake.fail_alloc_at = 3;
    assert_int_equal(calib_run(&o, &r, &err), CALIB_ERR);
    assert_non_null(strstr(err.msg, "out of GPU memory: cudaMalloc of "));
    assert_non_null(strstr(err.msg, "for the QKV output failed (out of memory); try --quick"));
    assert_int_equal(ts_fake.allocs, 2);
    assert_int_equal(ts_fake.frees, 2);
    calib_result_free(&r);
#else
    skip();
#endif
}

/* The whole GPU sweep through the fake table: the --quick grid, the
 * device as the table describes it, every buffer freed. */
static void test_cuda_measure_fake(void **state)
{
    (void)state;
#ifdef SHARDSCOPE_HAVE_CUDA
    calib_cuda_api api = ts_fake_cuda_reset();
    calib_opts o;
    calib_opts_defaults(&o);
    o.cuda = &api;
    o.quick = 1;
    calib_result r;
    memset(&r, 0, sizeof r);
    engine_error err = {{0}};
    assert_int_equal(calib_cuda_measure(&o, &r, &err), CALIB_OK);
    assert_int_equal(r.n_points, 3 * 2 * 2 + 3 + 1); /* prefill, decode, copy */
    assert_int_equal(r.points[0].kind, CALIB_POINT_PREFILL);
    assert_int_equal(r.points[0].hidden, 768);
    assert_int_equal(r.points[0].batch, 1);
    assert_int_equal(r.points[0].seq, 512);
    assert_int_equal(r.points[11].hidden, 4096);
    assert_int_equal(r.points[11].batch, 4);
    assert_int_equal(r.points[11].seq, 2048);
    assert_int_equal(r.points[12].kind, CALIB_POINT_DECODE);
    assert_int_equal(r.points[14].batch, 256);
    assert_int_equal(r.points[15].kind, CALIB_POINT_COPY);
    for (int i = 0; i < r.n_points; i++)
        assert_true(fabs(r.points[i].time_s - 1e-3) < 1e-12); /* the fake's 1 ms */
    assert_int_equal(ts_fake.gemms, 4 * 4 * 15); /* 4 GEMMs x (warm-up + 3) x 15 */
    assert_string_equal(r.dev.backend, "cuda");
    assert_string_equal(r.dev.name, "Fake GPU");
    assert_int_equal(r.dev.sm_count, 10);
    assert_int_equal(r.dev.cc_major, 9);
    assert_int_equal(r.dev.count, 1);
    assert_int_equal(r.dev.runtime_version, 13000);
    assert_true(r.dev.memory_bytes == (double)((size_t)80 << 30));
    assert_int_equal(ts_fake.allocs, 5);
    assert_int_equal(ts_fake.frees, 5);
    calib_result_free(&r);
#else
    skip();
#endif
}

/* A fake NCCL: every call succeeds and counts what the sweeps ask.  Time
 * is modelled, never the machine's: each call of a group costs
 * FN_ALPHA + its count x 4 bytes / FN_BW, the group (ncclGroupEnd) takes
 * its slowest call, and the sweeps read fn_clock through now_s.  (The
 * sweeps once read the host's clock around these no-op calls: under load
 * the all-reduce's times could fall with size, its alpha-beta fit failed,
 * and the file lost the NCCL label the all-gather's curve hangs on.) */
#define FN_ALPHA 10e-6
#define FN_BW 1e9
static struct {
    int inits, all_reduce, all_gather, sends, recvs, groups, destroys;
    size_t first_gather_count, first_send_count;
    int peers_seen; /* bit j: a send to peer j */
    double clock, pending;
} fn;

static void fn_cost(size_t count)
{
    double t = FN_ALPHA + (double)count * 4.0 / FN_BW;
    if (t > fn.pending)
        fn.pending = t;
}
static double fn_now(void)
{
    return fn.clock;
}
static int fn_init(void **comms, int ndev, const int *devs)
{
    static int tag[8];
    for (int i = 0; i < ndev; i++)
        comms[i] = &tag[devs[i] & 7];
    fn.inits++;
    return 0;
}
static int fn_all_reduce(const void *s, void *r, size_t n, int dt, int op, void *c, void *st)
{
    (void)s, (void)r, (void)dt, (void)op, (void)c, (void)st;
    fn.all_reduce++;
    fn_cost(n);
    return 0;
}
static int fn_all_gather(const void *s, void *r, size_t n, int dt, void *c, void *st)
{
    (void)s, (void)r, (void)dt, (void)c, (void)st;
    if (fn.all_gather++ == 0)
        fn.first_gather_count = n;
    fn_cost(n);
    return 0;
}
static int fn_send(const void *b, size_t n, int dt, int peer, void *c, void *st)
{
    (void)b, (void)dt, (void)c, (void)st;
    if (fn.sends++ == 0)
        fn.first_send_count = n;
    fn.peers_seen |= 1 << (peer & 7);
    fn_cost(n);
    return 0;
}
static int fn_recv(void *b, size_t n, int dt, int peer, void *c, void *st)
{
    (void)b, (void)dt, (void)peer, (void)c, (void)st;
    fn.recvs++;
    fn_cost(n);
    return 0;
}
/* An ncclRecv that fails: NCCL's ncclInvalidUsage (5). */
static int fn_recv_fails(void *b, size_t n, int dt, int peer, void *c, void *st)
{
    (void)b, (void)n, (void)dt, (void)peer, (void)c, (void)st;
    fn.recvs++;
    return 5;
}
static int fn_group_start(void)
{
    fn.groups++;
    return 0;
}
static int fn_group_end(void)
{
    fn.clock += fn.pending;
    fn.pending = 0;
    return 0;
}
static int fn_destroy(void *c)
{
    (void)c;
    fn.destroys++;
    return 0;
}

static calib_nccl_api fake_nccl(void)
{
    memset(&fn, 0, sizeof fn);
    return (calib_nccl_api){fn_init,        fn_all_reduce, fn_all_gather, fn_send,
                            fn_recv,        fn_group_start, fn_group_end,  fn_destroy,
                            NULL,           fn_now};
}

/* *api <- the fake CUDA table on two GPUs, *nc <- the fake NCCL, both reset. */
static void two_fake_gpus(calib_cuda_api *api, calib_nccl_api *nc)
{
    *api = ts_fake_cuda_reset();
    ts_fake.count = 2;
    *nc = fake_nccl();
}

/* o <- a calibration through them (two_fake_gpus), every phase. */
static void nccl_opts(calib_opts *o, calib_cuda_api *api, calib_nccl_api *nc)
{
    two_fake_gpus(api, nc);
    calib_opts_defaults(o);
    o->backend = CALIB_BACKEND_CUDA;
    o->cuda = api;
    o->nccl = nc;
}

static const calib_plan_phase *plan_phase(const calib_plan *p, const char *name)
{
    for (int i = 0; i < p->n_phases; i++)
        if (!strcmp(p->phase[i].name, name))
            return &p->phase[i];
    fail_msg("no plan phase %s", name);
    return NULL;
}

static const cJSON *coll_entry(const cJSON *root, const char *op)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(root, "collectives"))
    {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(c, "op");
        if (cJSON_IsString(o) && !strcmp(o->valuestring, op))
            return c;
    }
    return NULL;
}

/* The NCCL sweeps on two fake GPUs: all-reduce, send/recv, all-gather and
 * all-to-all (grouped send/recv, every peer), each 1 KiB .. 64 MiB under
 * --quick; their busbw in the file with nccl-tests' factors (all-reduce
 * 2(n-1)/n = 1, all-gather and all-to-all (n-1)/n = 0.5, send/recv 1),
 * the series read back and handed to the engine as curves. */
static void test_cuda_nccl_collectives(void **state)
{
    (void)state;
#ifdef SHARDSCOPE_HAVE_CUDA
    calib_cuda_api api;
    calib_nccl_api nc;
    calib_opts o;
    nccl_opts(&o, &api, &nc);
    o.quick = 1;
    calib_result r;
    engine_error err = {{0}};
    assert_int_equal(calib_run(&o, &r, &err), CALIB_OK);
    assert_string_equal(r.comm_label, "NCCL AllReduce (2 GPUs)");
    assert_int_equal(r.n_comm, 9); /* 1 KiB x 4^k up to 64 MiB */
    assert_int_equal(r.n_p2p, 9);
    assert_int_equal(r.n_allgather, 9);
    assert_int_equal(r.n_alltoall, 9);
    assert_int_equal(r.coll_gpus, 2);
    assert_true(r.allgather[0].bytes == 1024 && r.alltoall[8].bytes == 64.0 * 1048576);
    /* the fake's clock, by hand at 64 KiB: the all-reduce's 16384 floats
     * 10 + 65.536 us; the all-gather's 8192 per rank and the all-to-all's
     * 8192 per peer 10 + 32.768 us */
    assert_true(REL(r.comm[3].time_s, 75.536e-6) < 1e-9);
    assert_true(REL(r.allgather[3].time_s, 42.768e-6) < 1e-9);
    assert_true(REL(r.alltoall[3].time_s, 42.768e-6) < 1e-9);
    /* the all-reduce's alpha-beta fit: the fake's 10 us and 1 GB/s */
    assert_int_equal(r.has_comm_fit, 1);
    assert_true(REL(r.comm_fit.alpha_s, FN_ALPHA) < 1e-6);
    assert_true(REL(r.comm_fit.bandwidth, FN_BW) < 1e-6);
    /* 1 KiB gathered over 2 ranks: 128 floats each; all-to-all: 128 per peer */
    assert_int_equal(fn.first_gather_count, 128);
    assert_int_equal(fn.peers_seen, 3);
    assert_int_equal(fn.sends, fn.recvs);
    assert_int_equal(fn.inits, 1);
    assert_int_equal(fn.destroys, 2);
    assert_int_equal(ts_fake.allocs, ts_fake.frees);
    char *text = calib_result_to_json(&r);
    assert_non_null(text);
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    static const struct {
        const char *op;
        double factor;
        int gpus;
    } W[] = {{"all_reduce", 1.0, 2}, {"send_recv", 1.0, 2}, {"all_gather", 0.5, 2},
             {"all_to_all", 0.5, 2}};
    const calib_comm_point *series[] = {r.comm, r.p2p, r.allgather, r.alltoall};
    for (int w = 0; w < 4; w++) {
        const cJSON *c = coll_entry(root, W[w].op);
        assert_non_null(c);
        assert_true(cJSON_GetObjectItemCaseSensitive(c, "busbw_factor")->valuedouble ==
                    W[w].factor);
        assert_int_equal(cJSON_GetObjectItemCaseSensitive(c, "gpus")->valueint, W[w].gpus);
        const cJSON *p = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(c, "points"), 3);
        double busbw = cJSON_GetObjectItemCaseSensitive(p, "busbw_bytes_per_s")->valuedouble;
        /* 64 KiB: bytes / time x the factor */
        assert_true(fabs(busbw / (65536.0 / series[w][3].time_s * W[w].factor) - 1) < 1e-12);
    }
    cJSON_Delete(root);
    calib_result back;
    assert_int_equal(calib_result_from_json(text, "x.json", &back, &err), 0);
    free(text);
    assert_int_equal(back.n_allgather, 9);
    assert_int_equal(back.n_alltoall, 9);
    assert_int_equal(back.coll_gpus, 2);
    assert_true(REL(back.alltoall[4].time_s, r.alltoall[4].time_s) < 1e-9);
    static engine_calib ec;
    calib_result_to_engine(&back, &ec);
    assert_int_equal(ec.comm[ENGINE_OP_ALLGATHER].n, 9);
    assert_int_equal(ec.comm[ENGINE_OP_ALLGATHER].gpus, 2);
    assert_int_equal(ec.comm[ENGINE_OP_ALLTOALL].n, 9);
    assert_int_equal(ec.comm[ENGINE_OP_ALLREDUCE].gpus, 2);
    assert_int_equal(ec.comm[ENGINE_OP_P2P].n, 9);
    calib_result_free(&back);
    calib_result_free(&r);
#else
    skip();
#endif
}

/* The NCCL sweeps of test_cuda_nccl_collectives (--quick, two fake GPUs)
 * with a call missing or failing, and on one GPU. */
static void test_cuda_nccl_partial(void **state)
{
    (void)state;
#ifdef SHARDSCOPE_HAVE_CUDA
    calib_cuda_api api;
    calib_nccl_api nc;
    calib_opts o;
    nccl_opts(&o, &api, &nc);
    o.quick = 1;
    calib_result r;
    engine_error err = {{0}};
    /* an NCCL without ncclAllGather: that sweep is skipped, said, the
     * all-to-all still runs */
    nc.all_gather = NULL;
    assert_int_equal(calib_run(&o, &r, &err), CALIB_OK);
    assert_int_equal(r.n_allgather, 0);
    assert_int_equal(r.n_alltoall, 9);
    assert_non_null(strstr(r.coll_note, "nccl all-gather: libnccl has no ncclAllGather"));
    calib_result_free(&r);

    /* an ncclRecv that fails: the all-to-all sweep is left out with a note
     * naming the call and its code; the all-gather before it is kept */
    two_fake_gpus(&api, &nc);
    nc.recv = fn_recv_fails;
    assert_int_equal(calib_run(&o, &r, &err), CALIB_OK);
    assert_int_equal(r.n_allgather, 9);
    assert_int_equal(r.n_alltoall, 0);
    assert_non_null(strstr(r.coll_note, "ncclRecv returned 5"));
    assert_null(strstr(r.coll_note, "ncclAllGather"));
    calib_result_free(&r);

    /* one GPU: no NCCL at all, the loopback instead, with the reason */
    api = ts_fake_cuda_reset();
    nc = fake_nccl();
    assert_int_equal(calib_run(&o, &r, &err), CALIB_OK);
    assert_int_equal(r.n_allgather + r.n_alltoall, 0);
    assert_int_equal(fn.inits, 0);
    assert_non_null(strstr(r.comm_error, "one GPU"));
    assert_string_equal(r.comm_label, "loopback (2 local processes)");
    static engine_calib e1;
    calib_result_to_engine(&r, &e1);
    assert_int_equal(e1.comm[ENGINE_OP_ALLREDUCE].n, 0); /* never the loopback */
    calib_result_free(&r);
#else
    skip();
#endif
}

/* The full (not --quick) NCCL sweeps on two fake GPUs: every series 1 KiB
 * .. 1 GiB in x4 steps (11 sizes), read back from the file and handed to
 * the engine whole; at 1 GiB the fake's 10 us + 268435456 floats at 1 GB/s
 * = 1.073752 s for the all-reduce's buffer. */
static void test_cuda_nccl_full_sizes(void **state)
{
    (void)state;
#ifdef SHARDSCOPE_HAVE_CUDA
    calib_cuda_api api;
    calib_nccl_api nc;
    calib_opts o;
    nccl_opts(&o, &api, &nc);
    calib_result r;
    engine_error err = {{0}};
    assert_int_equal(calib_run(&o, &r, &err), CALIB_OK);
    assert_int_equal(r.n_comm, 11);
    assert_int_equal(r.n_p2p, 11);
    assert_int_equal(r.n_allgather, 11);
    assert_int_equal(r.n_alltoall, 11);
    assert_true(r.comm[10].bytes == 1073741824.0 && r.alltoall[10].bytes == 1073741824.0);
    assert_true(REL(r.comm[10].time_s, 10e-6 + 1073741824.0 / 1e9) < 1e-9);
    assert_int_equal(ts_fake.allocs, ts_fake.frees);
    /* calibrate --plan of the same run (2 GPUs: the NCCL sweeps) counts the
     * same sizes and makes the same operations: warm-up + 3 calls a size,
     * each 20 / 5 / 2 operations (calib_nccl_iters), 2 ranks' calls each */
    static calib_plan pl;
    engine_gpu g = tg_h100();
    engine_link l = tl_link(1e-6, 400);
    assert_int_equal(calib_plan_build(&o, &g, &l, 2, &pl, &err), 0);
    assert_int_equal(pl.kernels, r.n_points + r.n_comm + r.n_p2p + r.n_allgather + r.n_alltoall);
    const calib_plan_phase *ar = plan_phase(&pl, "NCCL all-reduce");
    const calib_plan_phase *ag = plan_phase(&pl, "NCCL all-gather");
    assert_int_equal(ar->kernels, 11);
    assert_int_equal(ar->runs, 4 * (6 * 20 + 3 * 5 + 2 * 2));
    assert_int_equal(fn.all_reduce, 2 * ar->runs);
    assert_int_equal(fn.all_gather, 2 * ag->runs);
    char *text = calib_result_to_json(&r);
    assert_non_null(text);
    calib_result back;
    assert_int_equal(calib_result_from_json(text, "x.json", &back, &err), 0);
    free(text);
    static engine_calib ec;
    calib_result_to_engine(&back, &ec);
    for (int op = 0; op < 4; op++) {
        static const int OPS[] = {ENGINE_OP_ALLREDUCE, ENGINE_OP_P2P, ENGINE_OP_ALLGATHER,
                                  ENGINE_OP_ALLTOALL};
        assert_int_equal(ec.comm[OPS[op]].n, 11);
        assert_true(ec.comm[OPS[op]].bytes[10] == 1073741824.0);
    }
    calib_result_free(&back);
    calib_result_free(&r);
#else
    skip();
#endif
}

/* engine_calib_link: a measured all-gather table on 2 GPUs replaces the
 * link's alpha-beta.  Link: base 5 us, alpha 2 us, 100 GB/s; the table:
 * 1 MB in 30 us, 4 MB in 60 us. */
static void test_calib_link_times_collectives(void **state)
{
    (void)state;
    engine_link l;
    memset(&l, 0, sizeof l);
    snprintf(l.name, sizeof l.name, "nvlink-test");
    l.base_s = 5e-6;
    l.alpha_s = 2e-6;
    l.bytes_per_s = 100e9;
    static engine_calib c;
    memset(&c, 0, sizeof c);
    c.measured = 1;
    c.comm[ENGINE_OP_ALLGATHER] = (engine_curve){.n = 2, .gpus = 2, .bytes = {1e6, 4e6},
                                                 .time_s = {30e-6, 60e-6}};
    engine_link out;
    /* alpha-beta: 5 + 1 x 2 us + 1/2 x 2.5 MB / 100 GB/s = 19.5 us */
    assert_true(fabs(engine_comm_time(ENGINE_OP_ALLGATHER, &l, NULL, 2, 0, 2.5e6) - 19.5e-6) <
                1e-12);
    assert_int_equal(engine_calib_link(&c, &l, &out), 1);
    assert_string_equal(out.name, "nvlink-test");
    /* measured: linear between 1 and 4 MB, 30 + 30 x 1.5 / 3 = 45 us */
    assert_true(fabs(engine_comm_time(ENGINE_OP_ALLGATHER, &out, NULL, 2, 0, 2.5e6) - 45e-6) <
                1e-12);
    /* 4 GPUs: latency 5 + 3 x 2 = 11 us, the 38 us on the wire x (3/4) / (1/2) */
    assert_true(fabs(engine_comm_time(ENGINE_OP_ALLGATHER, &out, NULL, 4, 0, 2.5e6) - 68e-6) <
                1e-12);
    /* the other collectives keep the link's own */
    assert_true(engine_comm_time(ENGINE_OP_ALLREDUCE, &out, NULL, 2, 0, 2.5e6) ==
                engine_comm_time(ENGINE_OP_ALLREDUCE, &l, NULL, 2, 0, 2.5e6));
    c.measured = 0; /* not a measurement: nothing */
    assert_int_equal(engine_calib_link(&c, &l, &out), 0);
}

static void test_cuda_probe_real(void **state)
{
    (void)state;
    /* This machine may or may not have a GPU: either a count or a one-line
     * reason, never a crash. */
    int count = -1;
    engine_error err = {{0}};
    int rc = calib_cuda_probe(NULL, &count, &err);
    if (rc == 0) {
        assert_true(count > 0);
    } else {
        assert_int_equal(count, 0);
        assert_true(strlen(err.msg) > 10);
        assert_null(strchr(err.msg, '\n'));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cuda_no_gpu),
        cmocka_unit_test(test_cuda_blas_create_fails),
        cmocka_unit_test(test_cuda_measure_fake),
        cmocka_unit_test(test_cuda_nccl_collectives),
        cmocka_unit_test(test_cuda_nccl_partial),
        cmocka_unit_test(test_cuda_nccl_full_sizes),
        cmocka_unit_test(test_calib_link_times_collectives),
        cmocka_unit_test(test_cuda_probe_real),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
