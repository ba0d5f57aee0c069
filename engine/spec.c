/*
 * spec.c - speculative decoding's pure arithmetic: method names, each
 * method's documented default speculation length k and acceptance rate P
 * with its source, the expected tokens per target step under i.i.d.
 * acceptance (Leviathan et al. 2023, "Fast Inference from Transformers via
 * Speculative Decoding", eq. 1) and its inverse for a measured acceptance
 * length.  eval.c costs the draft and verification steps.
 */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "engine.h"

static const char *const SPEC_NAMES[ENGINE_SPEC_COUNT] = {"none", "draft", "eagle", "mtp"};

/* Defaults per method: k drafted tokens and the per-token acceptance rate
 * P, each from a published measurement (README, "The model"). */
static const struct {
    int k;
    double accept;
    const char *source;
} SPEC_DEFAULTS[ENGINE_SPEC_COUNT] = {
    {0, 0.0, "no speculation"},
    {4, 0.70,
     "draft model: P 0.70, the middle of the acceptance rates alpha 0.6-0.8 Leviathan et al. "
     "2023 (arXiv 2211.17192) Table 3 measure for small drafts of T5-XXL; k 4, where E gains "
     "less than 0.2 tokens a further draft at that P"},
    {3, 0.75,
     "EAGLE: P 0.75, the chain-draft acceptance rates n-alpha 0.67-0.79 on MT-bench of Li et "
     "al. 2024, EAGLE (arXiv 2401.15077) sec. 4; k 3 chain drafts"},
    {1, 0.875,
     "MTP: P 0.875, the middle of the 85-90 % acceptance of the second token DeepSeek-V3 "
     "technical report (arXiv 2412.19437) sec. 5.4.3 measures with its one MTP module (k 1)"},
};

const char *engine_spec_method_name(engine_spec_method m)
{
    return (unsigned)m < ENGINE_SPEC_COUNT ? SPEC_NAMES[m] : "?";
}

int engine_spec_method_parse(const char *s, engine_spec_method *out)
{
    for (int i = 0; s && i < ENGINE_SPEC_COUNT; i++)
        if (!strcasecmp(s, SPEC_NAMES[i])) {
            *out = (engine_spec_method)i;
            return 0;
        }
    return -1;
}

void engine_spec_default(engine_spec_method m, int *k, double *accept)
{
    unsigned i = (unsigned)m < ENGINE_SPEC_COUNT ? (unsigned)m : 0;
    if (k)
        *k = SPEC_DEFAULTS[i].k;
    if (accept)
        *accept = SPEC_DEFAULTS[i].accept;
}

const char *engine_spec_default_source(engine_spec_method m)
{
    return (unsigned)m < ENGINE_SPEC_COUNT ? SPEC_DEFAULTS[m].source : "";
}

double engine_spec_tokens_per_step(int k, double accept)
{
    if (k <= 0 || !(accept > 0))
        return 1.0;
    if (accept >= 1.0)
        return k + 1.0;
    return (1.0 - pow(accept, k + 1.0)) / (1.0 - accept);
}

double engine_spec_accept_for_length(int k, double length)
{
    if (k <= 0 || !(length > 1.0))
        return 0.0;
    if (length >= k + 1.0)
        return 1.0;
    double lo = 0.0, hi = 1.0; /* E(P) rises with P */
    for (int i = 0; i < 60; i++) {
        double mid = 0.5 * (lo + hi);
        if (engine_spec_tokens_per_step(k, mid) < length)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}
