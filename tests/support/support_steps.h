/*
 * support_steps.h - hand-worked step sums the load-simulation tests share
 * (test_sim, test_disagg): what one request served alone costs, step by
 * step through engine_step_s.
 */
#ifndef SHARDSCOPE_TEST_SUPPORT_STEPS_H
#define SHARDSCOPE_TEST_SUPPORT_STEPS_H

#include "engine.h"

/* One request served alone: its prefill step (the whole prompt in one
 * chunk, nothing cached) on pre into *ttft_s, and the sum of its gen - 1
 * decode steps on dec, a batch of one at pasts prompt, prompt + 1, ...,
 * prompt + gen - 2, returned.  pre and dec may be the same stepper (an
 * aggregated replica).  prompt >= 1, gen >= 1. */
double ts_alone_steps_s(const engine_stepper *pre, const engine_stepper *dec, int prompt, int gen,
                        double *ttft_s);

#endif
