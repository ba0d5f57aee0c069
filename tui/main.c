/*
 * main.c - entry point: load presets, dispatch to a subcommand, or open the
 * explorer when stdout is a terminal and no subcommand is given.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifndef SHARDSCOPE_VERSION
#define SHARDSCOPE_VERSION "0.1.0"
#endif

typedef struct command {
    const char *name;
    int (*fn)(int argc, char **argv, const preset_db *db);
    const char *summary;
} command;

static const command COMMANDS[] = {
    {"tui", cli_cmd_tui, "open the interactive explorer (default on a terminal)"},
    {"list", cli_cmd_list, "list models, gpus, links or frameworks"},
    {"eval", cli_cmd_eval, "evaluate one plan or rank all plans"},
    {"comm", cli_cmd_comm, "time one collective over a link"},
    {"recommend", cli_cmd_recommend, "answer: how should I split this model?"},
    {"report", cli_cmd_report, "the scaling-study tables (text, csv, json)"},
    {"calibrate", cli_cmd_calibrate, "measure this machine and refit the compute model"},
    {"validate", cli_cmd_validate, "the model against published measurements, per category"},
    {"bench", cli_cmd_bench, "time the engine (plan and frame recomputation)"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: shardscope [COMMAND] [OPTIONS]\n"
               "       shardscope --version | --help\n\n"
               "How should I split this model across these GPUs?  Without a command,\n"
               "shardscope opens the explorer when stdin and stdout are a terminal and\n"
               "prints this help otherwise.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        fprintf(f, "  %-10s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fprintf(f, "\nRun 'shardscope COMMAND --help' for a command's options; 'man shardscope'\n"
               "for everything.  Exit status: 0 ok, 1 runtime failure, 2 bad usage or input.\n");
}

int main(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
        printf("shardscope %s\n", SHARDSCOPE_VERSION);
        return 0;
    }
    /* "shardscope help COMMAND" is "shardscope COMMAND --help". */
    char help_flag[] = "--help";
    char *help_argv[4];
    if (argc == 3 && !strcmp(argv[1], "help")) {
        help_argv[0] = argv[0];
        help_argv[1] = argv[2];
        help_argv[2] = help_flag;
        help_argv[3] = NULL;
        argv = help_argv;
    } else if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
                             !strcmp(argv[1], "help"))) {
        usage(stdout);
        return 0;
    }
    preset_db *db = NULL;
    engine_error err = {{0}};
    if (preset_db_load(NULL, &db, &err) != 0) {
        fprintf(stderr, "shardscope: %s\n", err.msg);
        return 1;
    }
    int rc = 2;
    if (argc < 2 || argv[1][0] == '-') {
        /* No subcommand: the explorer on a terminal, the help otherwise. */
        if (isatty(STDOUT_FILENO) && isatty(STDIN_FILENO)) {
            rc = cli_cmd_tui(argc, argv, db);
        } else if (argc < 2) {
            usage(stdout);
            rc = 0;
        } else {
            fprintf(stderr, "shardscope: unknown option '%s'\n", argv[1]);
            usage(stderr);
        }
    } else {
        const command *c = NULL;
        for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
            if (!strcmp(argv[1], COMMANDS[i].name))
                c = &COMMANDS[i];
        if (c) {
            rc = c->fn(argc - 1, argv + 1, db);
        } else {
            fprintf(stderr, "shardscope: unknown command '%s'\n", argv[1]);
            usage(stderr);
        }
    }
    preset_db_free(db);
    return rc;
}
