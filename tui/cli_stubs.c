/*
 * cli_stubs.c - TEMPORARY weak placeholders so the binary links while the
 * subcommands are being written; each real cli_*.c overrides one.  This
 * file is deleted once every command exists.
 */
#include <stdio.h>

#include "cli.h"

static int not_yet(const char *what)
{
    fprintf(stderr, "shardscope: %s is not available in this build yet\n", what);
    return 1;
}

#define STUB(fn, what)                                                   \
    __attribute__((weak)) int fn(int argc, char **argv, const preset_db *db) \
    {                                                                    \
        (void)argc; (void)argv; (void)db;                                \
        return not_yet(what);                                            \
    }

STUB(cli_cmd_list, "list")
STUB(cli_cmd_eval, "eval")
STUB(cli_cmd_comm, "comm")
STUB(cli_cmd_bench, "bench")
STUB(cli_cmd_calibrate, "calibrate")
STUB(cli_cmd_recommend, "recommend")
STUB(cli_cmd_report, "report")
STUB(cli_cmd_tui, "the explorer")
