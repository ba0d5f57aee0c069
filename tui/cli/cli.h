/*
 * cli.h - the commands of the command line, one file each in tui/cli/.
 *
 * Each command exports its options (opts.h: the typed option tables and
 * the text around them in --help) and its run function; tui/main.c puts
 * them in the command table {name, summary, usage, options, run}.  A run
 * function gets the parsed options (nothing loaded yet: it loads the
 * presets' entries, files and calibrations it needs) and the preset db,
 * prints results on stdout and errors on stderr, and returns the exit
 * status: 0 success, 2 bad usage or input, 1 a runtime failure.  Nothing
 * here exits.
 */
#ifndef SHARDSCOPE_CLI_H
#define SHARDSCOPE_CLI_H

#include "opts.h"
#include "preset.h"

#define CLI_COMMAND(name)                                   \
    extern const cli_options cli_##name##_options;          \
    int cli_##name##_run(const cli_opts *o, const preset_db *db)

CLI_COMMAND(tui);       /* the explorer; `shardscope` alone on a terminal */
CLI_COMMAND(list);
CLI_COMMAND(eval);
CLI_COMMAND(comm);
CLI_COMMAND(recommend);
CLI_COMMAND(report);
CLI_COMMAND(calibrate);
CLI_COMMAND(validate);
CLI_COMMAND(bench);
CLI_COMMAND(load);      /* serving under a request load (engine/sim.h) */

/* `shardscope report ARGS` without main's table (argv[0] is "report"):
 * parse, then run.  For tests. */
int cli_cmd_report(int argc, char **argv, const preset_db *db);

#endif /* SHARDSCOPE_CLI_H */
