/*
 * support_asserts.h - the assertions the engine's unit tests share (cmocka):
 * a relative-tolerance comparison and one plan's evaluation that must
 * succeed.  Both are macros, so a failure names the test's own file and
 * line.  Include after <cmocka.h>.
 */
#ifndef SHARDSCOPE_TEST_SUPPORT_ASSERTS_H
#define SHARDSCOPE_TEST_SUPPORT_ASSERTS_H

#include "engine.h"

/* Fails the running test (at file:line, printing got, want and rel) unless
 * |got - want| <= rel * |want|; NaN never passes. */
void ts_assert_near(double got, double want, double rel, const char *file, int line);
#define assert_near(got, want, rel) ts_assert_near((got), (want), (rel), __FILE__, __LINE__)

/* engine_evaluate(s, plan) into a returned result; fails the running test
 * (at file:line, with the engine's message) when it returns an error. */
engine_result ts_eval_plan(const engine_scenario *s, engine_plan p, const char *file, int line);
#define eval_plan(s, tp, pp, dp, ep)                                                          \
    ts_eval_plan((s), (engine_plan){(tp), (pp), (dp), (ep)}, __FILE__, __LINE__)

#endif
