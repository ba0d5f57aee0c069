/*
 * steps.c - hand-worked step sums for the load-simulation tests
 * (support_steps.h).
 */
#include "support_steps.h"

double ts_alone_steps_s(const engine_stepper *pre, const engine_stepper *dec, int prompt, int gen,
                        double *ttft_s)
{
    engine_step_chunk ch = {1, prompt, 0};
    engine_step_mix first = {&ch, 1, 0, 0};
    *ttft_s = engine_step_s(pre, &first);
    double sum = 0;
    for (int j = 0; j < gen - 1; j++) {
        engine_step_mix d = {NULL, 0, 1, prompt + j};
        sum += engine_step_s(dec, &d);
    }
    return sum;
}
