/*
 * tails.c - Monte Carlo tail latency.  Each GPU's compute in every step is
 * slowed by a log-normal factor exp(sigma * z) (median 1) and a tensor-
 * parallel group waits for its slowest member; prefill runs at the pace of
 * the slowest GPU, while a decoded token crosses every stage in turn.  Per
 * request, each GPU is with a small probability a straggler (throttled,
 * shared) for the whole request, slowed by 1 + an exponential amount whose
 * mean is straggler_slowdown - 1: a continuous severity, so P99 grows
 * smoothly with the group size instead of jumping once a group is large
 * enough to meet one straggler in a hundred requests.  The generator is
 * seeded from the scenario: same inputs, same numbers.
 */
#include <math.h>
#include <stdlib.h>

#include "engine.h"
#include "internal.h"

double rng_uniform(engine_rng *r)
{
    /* splitmix64 */
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* Acklam's rational approximation of the standard normal quantile
 * (relative error < 1.2e-9), good enough for sampling. */
double normal_quantile(double p)
{
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                -2.759285104469687e+02, 1.383577518672690e+02,
                                -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                -1.556989798598866e+02, 6.680131188771972e+01,
                                -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                -2.400758277161838e+00, -2.549732539343734e+00,
                                4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                               2.445134137142996e+00, 3.754408661907416e+00};
    const double lo = 0.02425, hi = 1 - lo;
    if (p <= 0)
        return -40;
    if (p >= 1)
        return 40;
    if (p < lo) {
        double q = sqrt(-2 * log(p));
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    if (p > hi) {
        double q = sqrt(-2 * log(1 - p));
        return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/* Slowdown of the slowest of n GPUs: the maximum of n i.i.d. log-normals is
 * drawn in one step by inverting its CDF (u^(1/n)). */
static double group_max(engine_rng *r, int n, double sigma)
{
    return exp(sigma * normal_quantile(pow(rng_uniform(r), 1.0 / n)));
}

/* The index of the nearest-rank percentile q of n values. */
static int rank_of(int n, double q)
{
    int k = (int)ceil(q * n) - 1;
    if (k < 0)
        k = 0;
    if (k >= n)
        k = n - 1;
    return k;
}

#define TAILS_MAX_SAMPLES 4096

void engine_tails(const engine_scenario *s, engine_result *r)
{
    if (!r->valid) {
        r->p50_s = r->p99_s = 0;
        return;
    }
    int n = s->mc_samples;
    if (n > TAILS_MAX_SAMPLES)
        n = TAILS_MAX_SAMPLES;
    if (n < 1 || (s->jitter_sigma <= 0 && s->straggler_prob <= 0)) {
        r->p50_s = r->p99_s = r->e2e_s;
        return;
    }
    double v[TAILS_MAX_SAMPLES];
    engine_rng rng = {s->seed ^ ((uint64_t)r->plan.tp << 40) ^ ((uint64_t)r->plan.pp << 20) ^
                      (uint64_t)r->plan.dp};
    const int tp = r->plan.tp, pp = r->plan.pp;
    const double sg = s->jitter_sigma, p = s->straggler_prob, slow = s->straggler_slowdown;
    /* Compute-proportional parts scale with the slowdown; communication does not. */
    const double pf_work = r->prefill_compute_s + r->prefill_bubble_s;
    const double dc_work = r->decode_compute_s + r->decode_bubble_s;

    /* A decode step's factor is the mean over the pp stages of each TP
     * group's slowest member, drawn afresh every step; over G steps the
     * sum is close to normal.  The mean and variance of one group's
     * maximum come from a midpoint quadrature over its CDF u^(1/tp), so
     * they carry no sampling noise. */
    enum { QUAD = 256 };
    double mu = 0, m2 = 0;
    for (int i = 0; i < QUAD; i++) {
        double f = exp(sg * normal_quantile(pow((i + 0.5) / QUAD, 1.0 / tp)));
        mu += f;
        m2 += f * f;
    }
    mu /= QUAD;
    double var = m2 / QUAD - mu * mu;
    /* The first token comes from the prefill: gen - 1 decode steps. */
    const double steps = s->gen - 1.0;
    double sd_mean = var > 0 && steps > 0 ? sqrt(var / pp / steps) : 0;
    /* A straggler persists for the whole request (a throttled or shared GPU). */
    const double p_any = p > 0 ? 1.0 - pow(1.0 - p, (double)tp * pp) : 0;

    for (int i = 0; i < n; i++) {
        /* Prefill runs at the pace of the slowest of all tp*pp GPUs. */
        double pf = group_max(&rng, tp * pp, sg);
        double dc = mu + sd_mean * normal_quantile(rng_uniform(&rng));
        if (p_any > 0 && rng_uniform(&rng) < p_any) {
            double sev = 1.0 - (slow - 1.0) * log(rng_uniform(&rng));
            if (sev > pf)
                pf = sev;
            dc += (sev - 1.0) / pp; /* one stage of pp runs slow */
        }
        double ttft = pf_work * pf + r->prefill_comm_s;
        double itl = dc_work * dc + r->decode_comm_s;
        v[i] = ttft + steps * itl;
    }
    /* Two order statistics, not a sort (a tenth of its time at 1000): the
     * p99's selection leaves the smaller values before it, where the p50's
     * runs. */
    int k99 = rank_of(n, 0.99), k50 = rank_of(n, 0.50);
    r->p99_s = engine_select(v, n, k99);
    r->p50_s = k50 < k99 ? engine_select(v, k99, k50) : v[k50];
}
