/*
 * util.c - small pure helpers every layer shares (see engine.h): the edit
 * distance behind "did you mean", the qsort comparator of doubles, the
 * configuration directory, the name of a CUDA-graphs setting and the
 * error formatter.  One
 * copy each; presets, calib and the front ends call these.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"

int engine_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 127 || lb > 127)
        return 1000;
    int row[128];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int best = diag + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

int engine_cmp(double a, double b)
{
    return (a > b) - (a < b);
}

int engine_cmp_double(const void *a, const void *b)
{
    return engine_cmp(*(const double *)a, *(const double *)b);
}

static void swap_d(double *v, int i, int j)
{
    double t = v[i];
    v[i] = v[j];
    v[j] = t;
}

double engine_select(double *v, int n, int k)
{
    int lo = 0, hi = n - 1;
    while (hi - lo >= 16) {
        int mid = lo + (hi - lo) / 2;
        if (v[mid] < v[lo])
            swap_d(v, lo, mid);
        if (v[hi] < v[lo])
            swap_d(v, lo, hi);
        if (v[hi] < v[mid])
            swap_d(v, mid, hi);
        double piv = v[mid];
        int i = lo, j = hi;
        while (i <= j) { /* Hoare: [lo, j] <= piv <= [i, hi] */
            while (v[i] < piv)
                i++;
            while (v[j] > piv)
                j--;
            if (i <= j)
                swap_d(v, i++, j--);
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k]; /* between them: equal to the pivot */
    }
    for (int i = lo + 1; i <= hi; i++) { /* a short run: insertion sort */
        double x = v[i];
        int j = i - 1;
        for (; j >= lo && v[j] > x; j--)
            v[j + 1] = v[j];
        v[j + 1] = x;
    }
    return v[k];
}

int engine_plan_order(engine_plan a, engine_plan b)
{
    if (a.tp != b.tp)
        return a.tp - b.tp;
    if (a.pp != b.pp)
        return a.pp - b.pp;
    return a.ep - b.ep;
}

int engine_config_dir(const char *xdg, const char *home, char *buf, size_t len)
{
    if (!buf || len == 0)
        return -1;
    int n = -1;
    if (xdg && xdg[0] == '/')
        n = snprintf(buf, len, "%s/shardscope", xdg);
    else if (home && home[0])
        n = snprintf(buf, len, "%s/.config/shardscope", home);
    if (n < 0 || (size_t)n >= len) {
        buf[0] = '\0';
        return -1;
    }
    return 0;
}

const char *engine_fp8_scaling_name(engine_fp8_scaling f)
{
    static const char *const N[ENGINE_FP8_SCALE_COUNT] = {"auto", "tensor", "block"};
    return (unsigned)f < ENGINE_FP8_SCALE_COUNT ? N[f] : "?";
}

const char *engine_graphs_name(engine_graphs g)
{
    static const char *const NAMES[ENGINE_GRAPHS_COUNT] = {"default", "on", "off"};
    return (unsigned)g < ENGINE_GRAPHS_COUNT ? NAMES[g] : "?";
}

int engine_errorf(engine_error *err, const char *fmt, ...)
{
    if (!err)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    for (char *p = err->msg; *p; p++)
        if ((unsigned char)*p < 32 || *p == 127)
            *p = '?';
    return -1;
}

size_t engine_json_depth_at(const char *text, size_t off)
{
    size_t depth = 0;
    int in_str = 0;
    for (size_t i = 0; text && i < off; i++) {
        char c = text[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = 0;
        } else if (c == '"') {
            in_str = 1;
        } else if (c == '[' || c == '{') {
            depth++;
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    return depth;
}
