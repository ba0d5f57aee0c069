/*
 * test_calib_job.c - calib/job.c: the worker thread (progress, the result
 * moved out once), a cancelled or freed job never touching the stored
 * file, and a job without a GPU reporting why.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include "calib.h"
#include "calib_fake_cuda.h"
#include "calib_fixture.h"

#define REL(a, b) (fabs((a) - (b)) / fabs(b))

static void test_job_cancel_keeps_file(void **state)
{
    (void)state;
    setenv("XDG_CONFIG_HOME", ts_calib_tmp, 1);
    /* An existing calibration for this CPU. */
    calib_result old;
    assert_int_equal(ts_calib_fixture_as(&old, "cpu", "placeholder", "", "2026-01-01T00:00:00Z",
                                         0.5), 0);
    calib_result probe;
    calib_opts o;
    calib_opts_defaults(&o);
    o.backend = CALIB_BACKEND_CPU;
    o.quick = 1;
    o.skip_comm = 1;
    /* The CPU's name, as the job will store it. */
    calib_job *job = NULL;
    engine_error err = {{0}};
    assert_int_equal(calib_job_start(&o, 0, &job, &err), 0);
    calib_status status = CALIB_ERR;
    while (!calib_job_poll(job, &status, &probe, &err)) {
        double f = calib_job_progress(job);
        assert_true(f >= 0 && f <= 1);
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    assert_int_equal(status, CALIB_OK);
    snprintf(old.dev.name, sizeof old.dev.name, "%s", probe.dev.name);
    assert_true(probe.n_points > 0);
    calib_result_free(&probe);
    /* A second poll gives an empty result. */
    assert_int_equal(calib_job_poll(job, &status, &probe, &err), 1);
    assert_int_equal(probe.n_points, 0);
    calib_job_free(job);

    char path[600];
    assert_int_equal(calib_store_save_default(&old, path, sizeof path, &err), 0);
    calib_result_free(&old);

    /* Cancel a saving job at once: the stored file is untouched. */
    assert_int_equal(calib_job_start(&o, 1, &job, &err), 0);
    calib_job_cancel(job);
    while (!calib_job_poll(job, &status, &probe, &err)) {
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    assert_int_equal(status, CALIB_CANCELLED);
    assert_int_equal(probe.n_points, 0);
    calib_job_free(job);
    engine_calib c;
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), 0);
    assert_string_equal(c.date, "2026-01-01T00:00:00Z");

    /* Free while running: cancels and joins. */
    assert_int_equal(calib_job_start(&o, 1, &job, &err), 0);
    calib_job_free(job);
    calib_job_free(NULL);
    assert_int_equal(calib_store_load_file(path, &c, NULL, 0, &err), 0);
    assert_string_equal(c.date, "2026-01-01T00:00:00Z");

    /* A job with no GPU reports the reason. */
    calib_cuda_api api = ts_fake_cuda_reset();
    ts_fake.count_rc = 100;
    o.backend = CALIB_BACKEND_CUDA;
    o.cuda = &api;
    assert_int_equal(calib_job_start(&o, 1, &job, &err), 0);
    while (!calib_job_poll(job, &status, &probe, &err)) {
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    assert_int_equal(status, CALIB_NO_GPU);
    assert_non_null(strstr(err.msg, "no usable GPU") ? err.msg : strstr(err.msg, "no CUDA"));
    calib_job_free(job);
    unsetenv("XDG_CONFIG_HOME");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_cancel_keeps_file),
    };
    return cmocka_run_group_tests(tests, ts_calib_tmp_setup, ts_calib_tmp_teardown);
}
