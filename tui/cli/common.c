/*
 * common.c - what the parser (opts.c), the lookups (lookup.c), the
 * scenario load (scenario.c) and the commands share: the error message
 * helpers of opts.h.  It calls no other file of tui/cli, so the files
 * that call each other form no circle.
 */
#include <stdarg.h>
#include <stdio.h>

#include "opts.h"

int cli_errorf(engine_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        /* Values come from argv: a newline in one must not start a line. */
        for (char *p = err->msg; *p; p++)
            if ((unsigned char)*p < 32 || *p == 127)
                *p = '?';
    }
    return -1;
}

int cli_fail(const char *cmd, const engine_error *err)
{
    fprintf(stderr, "shardscope %s: %s\n", cmd,
            err && err->msg[0] ? err->msg : "bad usage or input");
    return CLI_USAGE;
}
