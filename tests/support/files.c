/*
 * files.c - writing and reading back whole small files for the tests.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "support_files.h"

void ts_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write %s", path);
    int bad = fputs(text, f) < 0;
    bad |= fclose(f) != 0;
    if (bad)
        fail_msg("write error on %s", path);
}

char *ts_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (run from the repository root)", path);
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    for (;;) {
        n += fread(buf + n, 1, cap - 1 - n, f);
        if (n < cap - 1)
            break;
        cap *= 2;
        char *more = realloc(buf, cap);
        assert_non_null(more);
        buf = more;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad)
        fail_msg("read error on %s", path);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}
