/*
 * trace.c - the CSV request trace of `shardscope load --trace` (trace.h):
 * line by line, three fields each, every mistake named by file, line and
 * field.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

static const char *const TRACE_FIELDS[3] = {"arrival_s", "prompt_tokens", "output_tokens"};

int cli_trace_lines(const char *text, size_t len)
{
    long n = 1;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' && n < 2147483646L)
            n++;
    return (int)n;
}

/* One field [a, b) trimmed of spaces, copied into buf (NUL-ended). */
static void field_copy(const char *a, const char *b, char *buf, size_t cap)
{
    while (a < b && isspace((unsigned char)*a))
        a++;
    while (b > a && isspace((unsigned char)b[-1]))
        b--;
    size_t n = (size_t)(b - a);
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, a, n);
    buf[n] = '\0';
}

/* Split a line into at most 3 fields (a 4th counts as too many). */
static int split3(const char *a, const char *b, char f[3][64])
{
    int n = 0;
    const char *p = a;
    for (;;) {
        const char *c = memchr(p, ',', (size_t)(b - p));
        const char *e = c ? c : b;
        if (n < 3)
            field_copy(p, e, f[n], sizeof f[n]);
        n++;
        if (!c)
            break;
        p = c + 1;
    }
    return n;
}

static int is_header(char f[3][64], int n)
{
    if (n != 3)
        return 0;
    for (int i = 0; i < 3; i++) {
        const char *x = f[i];
        size_t k = strlen(TRACE_FIELDS[i]);
        if (strlen(x) != k)
            return 0;
        for (size_t j = 0; j < k; j++)
            if (tolower((unsigned char)x[j]) != TRACE_FIELDS[i][j])
                return 0;
    }
    return 1;
}

static int parse_len(const char *x, int *out)
{
    char *end;
    if (!*x || !isdigit((unsigned char)*x))
        return -1;
    long v = strtol(x, &end, 10);
    if (*end || v < 1 || v > ENGINE_MAX_TOKENS)
        return -1;
    *out = (int)v;
    return 0;
}

/* One data row into *r; -1 with err naming the field. */
static int parse_row(char f[3][64], int nf, const char *file, int line, double prev,
                     engine_sim_request *r, engine_error *err)
{
    if (nf != 3)
        return engine_errorf(err, "%s:%d: expected 3 fields (arrival_s,prompt_tokens,"
                             "output_tokens), got %d", file, line, nf);
    char *end;
    double t = strtod(f[0], &end);
    if (!f[0][0] || *end || !isfinite(t) || t < 0)
        return engine_errorf(err, "%s:%d: arrival_s: expected seconds >= 0, got '%s'", file,
                             line, f[0]);
    if (t < prev)
        return engine_errorf(err, "%s:%d: arrival_s: %g is before the previous request's %g "
                             "(arrivals must not decrease)", file, line, t, prev);
    r->arrival_s = t;
    if (parse_len(f[1], &r->prompt) != 0)
        return engine_errorf(err, "%s:%d: prompt_tokens: expected an integer 1..%d, got '%s'",
                             file, line, ENGINE_MAX_TOKENS, f[1]);
    if (parse_len(f[2], &r->gen) != 0)
        return engine_errorf(err, "%s:%d: output_tokens: expected an integer 1..%d, got '%s'",
                             file, line, ENGINE_MAX_TOKENS, f[2]);
    return 0;
}

int cli_trace_parse(const char *text, size_t len, const char *file, engine_sim_request *rows,
                    int cap, engine_error *err)
{
    int n = 0, line = 0, seen_data = 0;
    double prev = 0;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        line++;
        const char *a = p;
        p = nl ? nl + 1 : end;
        while (a < e && (isspace((unsigned char)*a)))
            a++;
        if (a == e || *a == '#')
            continue;
        if (memchr(a, '\0', (size_t)(e - a)))
            return engine_errorf(err, "%s:%d: a NUL byte (not a text file)", file, line);
        char f[3][64];
        int nf = split3(a, e, f);
        if (!seen_data && n == 0 && is_header(f, nf)) {
            seen_data = 1;
            continue;
        }
        seen_data = 1;
        if (n >= cap)
            return engine_errorf(err, "%s:%d: more than %d requests", file, line, cap);
        if (parse_row(f, nf, file, line, prev, &rows[n], err) != 0)
            return -1;
        prev = rows[n++].arrival_s;
    }
    if (n == 0)
        return engine_errorf(err, "%s: no requests (expected lines of arrival_s,prompt_tokens,"
                             "output_tokens)", file);
    return n;
}
