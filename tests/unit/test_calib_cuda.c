/*
 * test_calib_cuda.c - calib/backend/cuda.c through the fake calib_cuda_api
 * of tests/support (the same table the backend loads from libcudart and
 * libcublas): no GPU, no driver, no device N, a table missing a call,
 * cuBLAS failing to start, out of device memory (nothing leaked), the
 * whole sweep; and the real loader on this machine (a count or a one-line
 * reason, never a crash).
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
#include "calib_fake_cuda.h"

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
        cmocka_unit_test(test_cuda_probe_real),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
