/*
 * common.c - what the parser (opts.c), the lookups (lookup.c), the
 * scenario load (scenario.c) and the commands share: the error message
 * helper of opts.h (errors themselves are formatted by engine_errorf).
 * It calls no other file of tui/cli, so the files that call each other
 * form no circle.
 */
#include <stdio.h>

#include "opts.h"

int cli_fail(const char *cmd, const engine_error *err)
{
    fprintf(stderr, "shardscope %s: %s\n", cmd,
            err && err->msg[0] ? err->msg : "bad usage or input");
    return CLI_USAGE;
}
