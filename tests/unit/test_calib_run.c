/*
 * test_calib_run.c - calib/run.c end to end on the CPU: auto with no
 * usable GPU (the fake table) measures the CPU, says why, and fits.
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

static void test_cpu_run_auto(void **state)
{
    (void)state;
    calib_cuda_api api = ts_fake_cuda_reset();
    ts_fake.count_rc = 100;
    calib_opts o;
    calib_opts_defaults(&o);
    o.backend = CALIB_BACKEND_AUTO;
    o.cuda = &api; /* no GPU, whatever this machine has */
    o.quick = 1;
    o.skip_comm = 1;
    calib_result r;
    engine_error err = {{0}};
    assert_int_equal(calib_run(&o, &r, &err), 0);
    assert_string_equal(r.dev.backend, "cpu");
    assert_non_null(strstr(r.notes, "auto: no usable GPU"));
    assert_non_null(strstr(r.notes, "measured the CPU instead"));
    assert_true(r.n_points >= 20);
    assert_true(r.has_power_law);
    assert_true(r.roofline.eta_compute > 0 && r.roofline.eta_compute <= 1.0 + 1e-9);
    assert_true(r.roofline.eta_memory > 0);
    assert_true(r.roofline.overhead_s >= 0);
    assert_string_equal(r.preset, "");
    engine_calib c;
    calib_result_to_engine(&r, &c);
    assert_int_equal(c.measured, 1);
    assert_string_equal(c.backend, "cpu");
    calib_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_run_auto),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
