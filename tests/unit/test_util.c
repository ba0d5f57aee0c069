/*
 * test_util.c - the shared helpers of engine/util.c: edit distance, the
 * numeric comparators, the plan tie-break and the configuration directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* The shared helpers of engine/util.c (one copy for every layer). */
static void test_util(void **state)
{
    (void)state;
    assert_int_equal(engine_edit_distance("", "abc"), 3);
    assert_int_equal(engine_edit_distance("batch", "bach"), 1);
    char longs[200];
    memset(longs, 'a', sizeof longs - 1);
    longs[sizeof longs - 1] = '\0';
    assert_int_equal(engine_edit_distance(longs, "a"), 1000);
    double v[] = {3, -1, 2.5, 0};
    qsort(v, 4, sizeof v[0], engine_cmp_double);
    assert_true(v[0] == -1 && v[1] == 0 && v[2] == 2.5 && v[3] == 3);
    assert_int_equal(engine_cmp(1.0, 2.0), -1);
    assert_int_equal(engine_cmp(2.0, 2.0), 0);
    assert_int_equal(engine_cmp(3.0, 2.0), 1);
    assert_int_equal(engine_cmp(NAN, 2.0), 0);
    /* Plans tie-break on tp, then pp, then ep. */
    assert_true(engine_plan_order((engine_plan){2, 4, 1, 1}, (engine_plan){4, 1, 1, 1}) < 0);
    assert_true(engine_plan_order((engine_plan){4, 1, 1, 1}, (engine_plan){4, 2, 1, 1}) < 0);
    assert_true(engine_plan_order((engine_plan){4, 2, 1, 8}, (engine_plan){4, 2, 1, 2}) > 0);
    assert_int_equal(engine_plan_order((engine_plan){4, 2, 1, 2}, (engine_plan){4, 2, 2, 2}), 0);
    char dir[64];
    assert_int_equal(engine_config_dir("/x/cfg", "/home/u", dir, sizeof dir), 0);
    assert_string_equal(dir, "/x/cfg/shardscope");
    assert_int_equal(engine_config_dir("rel/cfg", "/home/u", dir, sizeof dir), 0);
    assert_string_equal(dir, "/home/u/.config/shardscope");
    assert_int_equal(engine_config_dir(NULL, "/home/u", dir, sizeof dir), 0);
    assert_string_equal(dir, "/home/u/.config/shardscope");
    assert_int_equal(engine_config_dir(NULL, "", dir, sizeof dir), -1);
    assert_string_equal(dir, "");
    assert_int_equal(engine_config_dir("/a/very/long/path", NULL, dir, 8), -1);
    assert_string_equal(dir, "");
    assert_string_equal(engine_graphs_name(ENGINE_GRAPHS_OFF), "off");
}

/* Open arrays and objects at an offset; brackets in strings (escaped
 * quotes included) do not count. */
/* engine_select against a sort: every rank of arrays of 1 to 300 values
 * with many ties (values 0..n/3) and of a sorted, a reversed and a
 * constant array; the partition around the result holds. */
static void test_select(void **state)
{
    (void)state;
    static double v[300], w[300];
    uint64_t x = 12345;
    for (int n = 1; n <= 300; n += (n < 40 ? 1 : 37)) {
        for (int form = 0; form < 4; form++) {
            for (int i = 0; i < n; i++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                v[i] = form == 0 ? (double)((x >> 33) % (unsigned)(n / 3 + 1))
                       : form == 1 ? i
                       : form == 2 ? n - i
                                   : 7.5;
            }
            memcpy(w, v, sizeof v[0] * (size_t)n);
            qsort(w, (size_t)n, sizeof w[0], engine_cmp_double);
            for (int k = 0; k < n; k++) {
                double u[300];
                memcpy(u, v, sizeof v[0] * (size_t)n);
                assert_true(engine_select(u, n, k) == w[k]);
                assert_true(u[k] == w[k]);
                for (int i = 0; i < n; i++)
                    assert_true(i < k ? u[i] <= u[k] : i > k ? u[i] >= u[k] : 1);
            }
        }
    }
}

static void test_json_depth_at(void **state)
{
    (void)state;
    static const char t[] = "{\"a\": [1, {\"b\": \"[{\\\"]\"}, [2";
    assert_int_equal(engine_json_depth_at(t, 0), 0);
    assert_int_equal(engine_json_depth_at(t, 1), 1);
    assert_int_equal(engine_json_depth_at(t, strlen(t)), 3);
    assert_int_equal(engine_json_depth_at("[[]][", 5), 1);
    assert_int_equal(engine_json_depth_at("]]", 2), 0);
    assert_int_equal(engine_json_depth_at(NULL, 4), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_util),
        cmocka_unit_test(test_json_depth_at),
        cmocka_unit_test(test_select),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
