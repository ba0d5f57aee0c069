/*
 * asserts.c - the shared test assertions (support_asserts.h).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "support_asserts.h"

void ts_assert_near(double got, double want, double rel, const char *file, int line)
{
    if (!(fabs(got - want) <= rel * fabs(want))) {
        print_error("got %.12g, want %.12g (rel tol %g)\n", got, want, rel);
        _fail(file, line);
    }
}

engine_result ts_eval_plan(const engine_scenario *s, engine_plan p, const char *file, int line)
{
    engine_result r;
    engine_error err = {{0}};
    if (engine_evaluate(s, p, &r, &err) != 0) {
        print_error("plan tp=%d pp=%d dp=%d ep=%d: %s\n", p.tp, p.pp, p.dp, p.ep, err.msg);
        _fail(file, line);
    }
    return r;
}
