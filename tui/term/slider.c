/*
 * slider.c - stepping and clamping of the explorer's controls.  Overflow is
 * avoided by doing the arithmetic in long long before clamping.
 */
#include "slider.h"

#include <math.h>

static int clamp_ll(long long v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : (int)v;
}

slider slider_make(const char *label, const char *unit, slider_kind kind,
                   int value, int min, int max, int step, int big)
{
    slider s;
    s.label = label;
    s.unit = unit;
    s.kind = kind;
    s.min = min <= max ? min : max;
    s.max = min <= max ? max : min;
    s.step = step > 0 ? step : 1;
    s.big = big > 0 ? big : s.step;
    s.log_bar = (kind == SLIDER_POW2 || kind == SLIDER_GEOM) && s.min >= 1;
    s.value = clamp_ll(value, s.min, s.max);
    return s;
}

int slider_set(slider *s, int v)
{
    s->value = clamp_ll(v, s->min, s->max);
    return s->value;
}

void slider_set_range(slider *s, int min, int max)
{
    s->min = min <= max ? min : max;
    s->max = min <= max ? max : min;
    s->log_bar = (s->kind == SLIDER_POW2 || s->kind == SLIDER_GEOM) && s->min >= 1;
    slider_set(s, s->value);
}

int slider_next_pow2(int v)
{
    long long p = 1;
    while (p <= v && p < (1LL << 30))
        p <<= 1;
    return (int)p;
}

int slider_prev_pow2(int v)
{
    long long p = 1;
    while (p * 2 < v)
        p <<= 1;
    return (int)p;
}

int slider_step(slider *s, int dir, int big)
{
    int old = s->value;
    long long v = s->value;
    if (dir == 0)
        return 0;
    if (!big || s->kind == SLIDER_LIST || s->kind == SLIDER_LINEAR) {
        long long d = big ? s->big : s->step;
        v += dir > 0 ? d : -d;
    } else if (s->kind == SLIDER_POW2) {
        v = dir > 0 ? slider_next_pow2(s->value) : slider_prev_pow2(s->value);
        if (dir < 0 && s->value <= 1)
            v = s->min;
    } else { /* SLIDER_GEOM */
        if (dir > 0)
            v = v <= 0 ? 1 : v * 2;
        else
            v = v / 2;
    }
    slider_set(s, (int)(v < -2147483647LL ? -2147483647LL
                        : v > 2147483647LL ? 2147483647LL : v));
    return s->value != old;
}

double slider_fraction(const slider *s)
{
    if (s->max <= s->min)
        return 1.0;
    double f;
    if (s->log_bar)
        f = log((double)s->value / s->min) / log((double)s->max / s->min);
    else
        f = (double)(s->value - s->min) / (double)(s->max - s->min);
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

int slider_fill(const slider *s, int width)
{
    if (width <= 0)
        return 0;
    int n = (int)floor(slider_fraction(s) * width + 0.5);
    if (n == 0 && s->value > s->min)
        n = 1; /* any value above the minimum shows on the bar */
    return n < 0 ? 0 : n > width ? width : n;
}
