/*
 * match.c - which GPU preset a driver's device name refers to ("NVIDIA
 * H100 80GB HBM3" -> "h100-sxm"): by the tokens of the name, the preset's
 * name and display name, the form factor and the memory size.  A variant
 * word on one side only (SUPER, Ti, NVL, ...) is another product.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"

#define TOK_MAX 16
#define TOK_LEN 24

typedef struct toks {
    char t[TOK_MAX][TOK_LEN];
    int n;
} toks;

static void tokenize(const char *s, toks *out)
{
    out->n = 0;
    while (s && *s && out->n < TOK_MAX) {
        while (*s && !isalnum((unsigned char)*s))
            s++;
        int len = 0;
        while (*s && isalnum((unsigned char)*s)) {
            if (len < TOK_LEN - 1)
                out->t[out->n][len++] = (char)tolower((unsigned char)*s);
            s++;
        }
        if (len > 0) {
            out->t[out->n][len] = '\0';
            out->n++;
        }
    }
}

static int has_tok(const toks *t, const char *w)
{
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->t[i], w))
            return 1;
    return 0;
}

/* "80gb", "40gb": a memory size, not a model. */
static int is_mem_tok(const char *w)
{
    size_t n = strlen(w);
    if (n < 3 || strcmp(w + n - 2, "gb") != 0)
        return 0;
    for (size_t i = 0; i + 2 < n; i++)
        if (!isdigit((unsigned char)w[i]))
            return 0;
    return 1;
}

static int has_digit(const char *w)
{
    for (; *w; w++)
        if (isdigit((unsigned char)*w))
            return 1;
    return 0;
}

/* Words that make a different product of the same number. */
static const char *const VARIANTS[] = {"super", "ti", "max", "mobile",
                                       "laptop", "nvl", "mig"};

static int has_sxm(const toks *t)
{
    for (int i = 0; i < t->n; i++)
        if (!strncmp(t->t[i], "sxm", 3))
            return 1;
    return 0;
}

int calib_match_gpu_preset(const char *device, double memory_bytes,
                           const engine_gpu *gpus, int n_gpus)
{
    if (!device || !gpus || n_gpus <= 0)
        return -1;
    toks d;
    tokenize(device, &d);
    int best = -1, best_score = -1000000;
    for (int g = 0; g < n_gpus; g++) {
        toks pn, pd, all;
        tokenize(gpus[g].name, &pn);
        tokenize(gpus[g].display, &pd);
        all = pn;
        for (int i = 0; i < pd.n && all.n < TOK_MAX; i++)
            if (!has_tok(&all, pd.t[i]))
                snprintf(all.t[all.n++], TOK_LEN, "%s", pd.t[i]);
        /* The model number: first token of the preset name with a digit
         * that is not a memory size ("h100", "4090", "l40s", "mi300x"). */
        const char *primary = NULL;
        for (int i = 0; i < pn.n && !primary; i++)
            if (has_digit(pn.t[i]) && !is_mem_tok(pn.t[i]))
                primary = pn.t[i];
        if (!primary || !has_tok(&d, primary))
            continue;
        /* A variant word on one side only is another product (an RTX 2070
         * SUPER is not an RTX 2070, an H100 NVL not an H100 SXM). */
        int other = 0;
        for (size_t v = 0; v < sizeof VARIANTS / sizeof VARIANTS[0]; v++)
            if (has_tok(&d, VARIANTS[v]) != has_tok(&all, VARIANTS[v]))
                other = 1;
        if (other)
            continue;
        int score = 0;
        for (int i = 0; i < all.n; i++)
            if (all.t[i] != primary && strcmp(all.t[i], primary) != 0 &&
                has_tok(&d, all.t[i]))
                score += 2;
        /* Form factor.  The driver names an SXM part without saying so
         * ("NVIDIA H100 80GB HBM3") but says "PCIe" for the PCIe one. */
        int d_pcie = has_tok(&d, "pcie"), p_pcie = has_tok(&all, "pcie");
        if (d_pcie)
            score += p_pcie ? 3 : has_sxm(&all) ? -3 : 0;
        else
            score += p_pcie ? -2 : has_sxm(&all) ? 1 : 0;
        /* Memory size in the device name ("80gb") or from the driver. */
        for (int i = 0; i < d.n; i++) {
            if (!is_mem_tok(d.t[i]))
                continue;
            double gb = atof(d.t[i]);
            double pg = gpus[g].memory_bytes;
            if (pg > 0 && (fabs(pg / 1e9 - gb) < 0.06 * gb ||
                           fabs(pg / 1073741824.0 - gb) < 0.06 * gb))
                score += 2;
            else if (pg > 0)
                score -= 2;
        }
        if (memory_bytes > 0 && gpus[g].memory_bytes > 0) {
            double ratio = memory_bytes / gpus[g].memory_bytes;
            if (ratio > 0.88 && ratio < 1.15)
                score += 1;
        }
        if (score > best_score) {
            best_score = score;
            best = g;
        }
    }
    return best;
}
