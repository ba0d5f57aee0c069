/*
 * cli.h - the command-line front end: one function per subcommand.
 *
 * Each takes the arguments after the subcommand name (argv[0] is the
 * subcommand) and the loaded presets, prints results on stdout and errors
 * on stderr, and returns the process exit status: 0 success, 2 bad usage or
 * input, 1 a runtime failure.  main.c dispatches; nothing here exits.
 */
#ifndef SHARDSCOPE_CLI_H
#define SHARDSCOPE_CLI_H

#include "preset.h"

int cli_cmd_list(int argc, char **argv, const preset_db *db);
int cli_cmd_eval(int argc, char **argv, const preset_db *db);
int cli_cmd_comm(int argc, char **argv, const preset_db *db);
int cli_cmd_bench(int argc, char **argv, const preset_db *db);
int cli_cmd_calibrate(int argc, char **argv, const preset_db *db);
int cli_cmd_recommend(int argc, char **argv, const preset_db *db);
int cli_cmd_report(int argc, char **argv, const preset_db *db);
int cli_cmd_validate(int argc, char **argv, const preset_db *db);
/* The explorer (ncurses).  `shardscope` with no arguments on a terminal,
 * or `shardscope tui [--model M --gpu G --gpus N --link L --vram-gb X]`. */
int cli_cmd_tui(int argc, char **argv, const preset_db *db);

#endif /* SHARDSCOPE_CLI_H */
