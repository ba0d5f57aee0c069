/*
 * bands.c - error bands from the validation cases.  Each case gives q =
 * measured / predicted (as times; a rate's ratio inverted) under a key
 * (phase, MoE, dtype class, regime).  Per key the band is the 10th..90th
 * percentile of q over the cases of that key; with fewer than
 * ENGINE_BAND_MIN_CASES cases the key falls back to broader ones (regime
 * dropped, then dtype class, then MoE, then phase: all cases).  A value v
 * gets [v * min(p10, 1), v * max(p90, 1)], so the band always holds v.
 */
#include <math.h>
#include <stdlib.h> /* qsort */
#include <string.h>

#include "engine.h"

static int key_index(engine_phase ph, int moe, engine_dclass dc, int cb)
{
    return (((int)ph * 2 + (moe ? 1 : 0)) * ENGINE_DCLASS_COUNT + (int)dc) * 2 + (cb ? 1 : 0);
}

/* Does case c match the key at fallback level lv (0 exact .. 4 all)? */
static int matches(const engine_band_case *c, engine_phase ph, int moe, engine_dclass dc, int cb,
                   int lv)
{
    if (lv <= 3 && c->phase != ph)
        return 0;
    if (lv <= 2 && (c->moe != 0) != (moe != 0))
        return 0;
    if (lv <= 1 && c->dclass != dc)
        return 0;
    if (lv <= 0 && (c->compute_bound != 0) != (cb != 0))
        return 0;
    return 1;
}

/* Linear-interpolated percentile of a sorted array. */
static double pct(const double *v, int n, double q)
{
    if (n == 1)
        return v[0];
    double pos = q * (n - 1);
    int i = (int)floor(pos);
    if (i >= n - 1)
        return v[n - 1];
    double f = pos - i;
    return v[i] * (1 - f) + v[i + 1] * f;
}

#define BANDS_MAX_CASES 4096

int engine_bands_build(const engine_band_case *cases, int n, engine_band_table *out)
{
    memset(out, 0, sizeof *out);
    if (!cases || n < 1)
        return -1;
    if (n > BANDS_MAX_CASES)
        n = BANDS_MAX_CASES;
    out->n_cases = n;
    double v[BANDS_MAX_CASES];
    for (int ph = 0; ph < ENGINE_PHASE_COUNT; ph++)
        for (int moe = 0; moe < 2; moe++)
            for (int dc = 0; dc < ENGINE_DCLASS_COUNT; dc++)
                for (int cb = 0; cb < 2; cb++) {
                    engine_band_stat *st = &out->key[key_index((engine_phase)ph, moe,
                                                              (engine_dclass)dc, cb)];
                    for (int lv = 0; lv <= 4; lv++) {
                        int k = 0;
                        for (int i = 0; i < n; i++)
                            if (isfinite(cases[i].q) && cases[i].q > 0 &&
                                matches(&cases[i], (engine_phase)ph, moe, (engine_dclass)dc, cb,
                                        lv))
                                v[k++] = cases[i].q;
                        if (k >= ENGINE_BAND_MIN_CASES || (lv == 4 && k > 0)) {
                            qsort(v, (size_t)k, sizeof v[0], engine_cmp_double);
                            st->n = k;
                            st->level = lv;
                            st->p10 = pct(v, k, 0.10);
                            st->p90 = pct(v, k, 0.90);
                            break;
                        }
                    }
                }
    return 0;
}

engine_band engine_band_of(const engine_band_table *t, engine_phase phase, int moe,
                           engine_dclass dc, int compute_bound, double v, int is_rate)
{
    engine_band b = {v, v, 0, 0};
    if (!t || t->n_cases < 1 || (unsigned)phase >= ENGINE_PHASE_COUNT ||
        (unsigned)dc >= ENGINE_DCLASS_COUNT || !isfinite(v) || !(v > 0))
        return b;
    const engine_band_stat *st = &t->key[key_index(phase, moe, dc, compute_bound)];
    if (st->n < 1)
        return b;
    double lo = st->p10 < 1 ? st->p10 : 1;
    double hi = st->p90 > 1 ? st->p90 : 1;
    if (!(hi > lo)) { /* every case exact: a band of float noise */
        lo = 1 - 1e-9;
        hi = 1 + 1e-9;
    }
    if (is_rate) {
        b.lo = v / hi;
        b.hi = v / lo;
    } else {
        b.lo = v * lo;
        b.hi = v * hi;
    }
    b.n = st->n;
    b.level = st->level;
    return b;
}
