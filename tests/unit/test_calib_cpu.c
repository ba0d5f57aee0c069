/*
 * test_calib_cpu.c - calib/backend/cpu.c: calib_sgemm (OpenBLAS's
 * cblas_sgemm, row-major, loaded with dlopen by blas.c; the project's own
 * SGEMM is gone) against a naive product over odd shapes, tiny to wide.
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

/* Deterministic multiplicative noise in [1 - amp, 1 + amp]. */
static double noise(unsigned *st, double amp)
{
    *st = *st * 1103515245u + 12345u;
    double u = ((*st >> 8) & 0xffff) / 65535.0;
    return 1.0 + amp * (2.0 * u - 1.0);
}

static void test_sgemm(void **state)
{
    (void)state;
    static const int dims[][3] = {{1, 17, 5},   {3, 130, 300}, {7, 16, 1},
                                  {13, 33, 257}, {37, 130, 64}, {100, 2100, 20},
                                  {200, 48, 513}};
    for (size_t t = 0; t < sizeof dims / sizeof dims[0]; t++) {
        int m = dims[t][0], n = dims[t][1], k = dims[t][2];
        float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n);
        float *c = malloc(sizeof(float) * m * n);
        assert_non_null(a);
        assert_non_null(b);
        assert_non_null(c);
        unsigned st = 1;
        for (int i = 0; i < m * k; i++)
            a[i] = (float)(noise(&st, 1.0) - 1.0);
        for (int i = 0; i < k * n; i++)
            b[i] = (float)(noise(&st, 1.0) - 1.0);
        for (int i = 0; i < m * n; i++)
            c[i] = 1e30f; /* must be overwritten */
        assert_int_equal(calib_sgemm(m, n, k, a, b, c), 0);
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int p = 0; p < k; p++)
                    s += (double)a[i * k + p] * b[p * n + j];
                assert_true(fabs(s - c[i * n + j]) < 1e-4 * (1 + sqrt((double)k)));
            }
        free(a);
        free(b);
        free(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sgemm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
