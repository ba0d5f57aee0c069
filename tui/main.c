/*
 * main.c - the command table and the dispatch: find the command, parse its
 * options (tui/cli/opts.c: nothing is loaded yet), print its help or the
 * mistake, load the presets, run it.  Without a command the flags are the
 * explorer's (`shardscope [flags]` is `shardscope tui [flags]`), and
 * without anything at all the explorer opens on a terminal and this help
 * prints otherwise.  `--version` loads nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "lookup.h"
#include "opts.h"

#ifndef SHARDSCOPE_VERSION
#define SHARDSCOPE_VERSION "0.1.0"
#endif

static const cli_command COMMANDS[] = {
    {"tui", "open the interactive explorer (default on a terminal)",
     "[tui] [--model M] [--gpu G] [--gpus N] [--link L]\n"
     "                  [--inter-link L] [--gpus-per-node K] [--vram-gb X]\n"
     "                  [--framework F] [--ascii] [--mono] [--no-mouse]",
     &cli_tui_options, cli_tui_run},
    {"list", "list models, gpus, links or frameworks", "list models|gpus|links|frameworks [--json]",
     &cli_list_options, cli_list_run},
    {"eval", "evaluate one plan or rank all plans",
     "eval --model M --gpu G --gpus N [--tp T --pp P --dp D --ep E]\n"
     "                       [options] [--json | --csv]",
     &cli_eval_options, cli_eval_run},
    {"load", "serve a plan under a request load (simulated)",
     "load --model M --gpu G --gpus N [--tp T --pp P --dp D --ep E]\n"
     "                       [--rate R|inf | --total-concurrency C | --trace FILE]\n"
     "                       [--requests N] [--seed S] [--ttft-ms X] [--itl-ms Y]\n"
     "                       [--json]",
     &cli_load_options, cli_load_run},
    {"comm", "time one collective over a link",
     "comm --link L --gpus N --bytes SIZE\n"
     "                       [--op allreduce|allgather|reducescatter|alltoall|p2p]\n"
     "                       [--gpus-per-node K --inter-link L2] [--json]",
     &cli_comm_options, cli_comm_run},
    {"recommend", "answer: how should I split this model?",
     "recommend --model M --gpu G [--gpus-max N] [--gpus-per-node K]\n"
     "         [--link L] [--inter-link L] [--itl-ms X] [--ttft-ms Y]\n"
     "         [--concurrency C] [--prompt S] [--gen G]\n"
     "         [--objective latency|throughput|cost] [--allow-quant fp8,int8,int4]\n"
     "         [--json]",
     &cli_recommend_options, cli_recommend_run},
    {"report", "the scaling-study tables (text, csv, json)",
     "report [--model M ...] [--gpu G] [--links L1,L2,...]\n"
     "         [--focus M] [--format text|csv|json] [--out DIR] [--plots DIR]\n"
     "         [scenario options]",
     &cli_report_options, cli_report_run},
    {"calibrate", "measure this machine and refit the compute model",
     "calibrate [--backend auto|cuda|cpu] [--device N] [--quick]\n"
     "                            [--out FILE] [--json] [--no-comm] [--no-save]\n"
     "                            [--model NAME] [--max-tp N] [--max-tokens N]",
     &cli_calibrate_options, cli_calibrate_run},
    {"validate", "the model against published measurements, per category",
     "validate [--cases] [--json | --csv]", &cli_validate_options, cli_validate_run},
    {"bench", "time the engine (plan and frame recomputation)", "bench [--repeats R] [--json]",
     &cli_bench_options, cli_bench_run},
};
#define N_COMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: shardscope [COMMAND] [OPTIONS]\n"
               "       shardscope --version | --help\n\n"
               "How should I split this model across these GPUs?  Without a command,\n"
               "shardscope opens the explorer when stdin and stdout are a terminal and\n"
               "prints this help otherwise.\n\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %-10s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fprintf(f, "\nRun 'shardscope COMMAND --help' for a command's options.\n"
               "Exit status: 0 ok, 1 runtime failure, 2 bad usage or input.\n"
               "manual: man ./tui/shardscope.1 in the source tree (installed: man shardscope)\n");
}

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(name, COMMANDS[i].name))
            return &COMMANDS[i];
    return NULL;
}

static int unknown_command(const char *name)
{
    fprintf(stderr, "shardscope: unknown command '%s' (see 'shardscope --help')\n", name);
    const char *names[N_COMMANDS];
    for (size_t i = 0; i < N_COMMANDS; i++)
        names[i] = COMMANDS[i].name;
    const char *best = cli_closest_name(name, names, (int)N_COMMANDS);
    if (best)
        fprintf(stderr, "shardscope: did you mean '%s'?\n", best);
    return CLI_USAGE;
}

/* Parse, then (and only then) load the presets, then run. */
static int dispatch(const cli_command *cmd, int argc, char **argv)
{
    cli_opts *o = malloc(sizeof *o);
    if (!o) {
        fprintf(stderr, "shardscope: out of memory\n");
        return CLI_FAIL;
    }
    int rc = cli_command_parse(cmd, argc, argv, o);
    if (rc == CLI_OK) {
        preset_db *db = NULL;
        engine_error err = {{0}};
        if (preset_db_load(NULL, &db, &err) != 0) {
            fprintf(stderr, "shardscope: %s\n", err.msg);
            rc = CLI_FAIL;
        } else {
            rc = cmd->run(o, db);
        }
        preset_db_free(db);
    } else if (rc == CLI_HELP) {
        rc = CLI_OK;
    }
    free(o);
    return rc;
}

int main(int argc, char **argv)
{
    const char *first = argc >= 2 ? argv[1] : NULL;
    if (first && (!strcmp(first, "--version") || !strcmp(first, "-V"))) {
        printf("shardscope %s\n", SHARDSCOPE_VERSION);
        return 0;
    }
    if (first && !strcmp(first, "help") && argc == 3) {
        /* "shardscope help COMMAND" is "shardscope COMMAND --help". */
        const cli_command *cmd = find_command(argv[2]);
        if (!cmd)
            return unknown_command(argv[2]);
        cli_opts_help(cmd, stdout);
        return CLI_OK;
    }
    if (first && (!strcmp(first, "--help") || !strcmp(first, "-h") || !strcmp(first, "help"))) {
        usage(stdout);
        return CLI_OK;
    }
    if (!first && !(isatty(STDOUT_FILENO) && isatty(STDIN_FILENO))) {
        usage(stdout);
        return CLI_OK;
    }
    if (!first || first[0] == '-') /* the explorer's flags, argv[0] in the name's place */
        return dispatch(find_command("tui"), argc, argv);
    const cli_command *cmd = find_command(first);
    if (!cmd)
        return unknown_command(first);
    return dispatch(cmd, argc - 1, argv + 1);
}
