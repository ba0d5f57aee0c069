/*
 * fuzz_cli.c - libFuzzer harness for the command line: the input, split at
 * NUL bytes, is the argument list of `shardscope eval` (argv[0] "eval"),
 * parsed by cli_opts_parse (tui/cli/opts.h) against eval's tables plus one
 * extra option of every kind, then loaded into a scenario against the
 * shipped presets.
 *
 * Parsing reads nothing but argv, so every input is parsed.  Loading reads
 * --model config.json paths and --calib files: it runs in an empty
 * scratch directory (entered for the call only, so that crash files given
 * by relative path still replay) with $HOME and $XDG_CONFIG_HOME pointing
 * into it, and is skipped for argument lists with a '/' in them, so every open it tries
 * fails (nothing exists there) instead of reading the machine.
 * Checked: the status is OK, HELP or USAGE, a USAGE message is one or two
 * lines starting "shardscope eval: "; an OK scenario passes
 * engine_scenario_check, and its explicit plan (if any) evaluates.
 */
#include "fuzz_util.h"

#include <fcntl.h>

#include "cli.h"
#include "cli_common.h"
#include "engine.h"
#include "preset.h"

#define FUZZ_MAX_ARGS 64
#define FUZZ_MAX_INPUT 4096

static preset_db *db;
static int home_fd = -1; /* where libFuzzer runs: its paths are relative to it */

static const char *op_name(int i)
{
    return engine_collective_name((engine_collective)i);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *dir = fuzz_scratch_dir();
    char xdg[1100];
    snprintf(xdg, sizeof xdg, "%s/xdg", dir);
    setenv("HOME", dir, 1);
    setenv("XDG_CONFIG_HOME", xdg, 1);
    home_fd = open(".", O_RDONLY | O_DIRECTORY);
    FUZZ_CHECK(home_fd >= 0);
    engine_error err = {{0}};
    FUZZ_CHECK(preset_db_load("", &db, &err) == 0);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char buf[FUZZ_MAX_INPUT + 1];
    static cli_scenario sc; /* large: not on the stack */
    if (size > FUZZ_MAX_INPUT)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    char *argv[FUZZ_MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = "eval";
    for (size_t i = 0; i < size && argc <= FUZZ_MAX_ARGS; i += strlen(buf + i) + 1)
        argv[argc++] = buf + i;
    argv[argc] = NULL;

    /* One extra option of every kind, as commands add them. */
    static const cli_enum ops = {op_name, ENGINE_OP_COUNT};
    static const cli_opt extra[] = {
        {.name = "--all", .kind = CLI_OPT_FLAG, .off = CLI_AT(quick), .help = ""},
        {.name = "--top", .kind = CLI_OPT_INT, .arg = "N", .off = CLI_AT(repeats), .min = 1,
         .max = 1000, .help = ""},
        {.name = "--slo", .kind = CLI_OPT_DOUBLE, .arg = "X", .off = CLI_AT(itl_ms), .min = 0,
         .max = 1e6, .help = ""},
        {.name = "--out", .kind = CLI_OPT_STRING, .arg = "F", .off = CLI_AT(out), .help = ""},
        {.name = "--bytes", .kind = CLI_OPT_SIZE, .arg = "S", .off = CLI_AT(bytes), .min = 1,
         .max = 1e15, .help = ""},
        {.name = "--op", .kind = CLI_OPT_ENUM, .off = CLI_AT(op), .choices = &ops, .help = ""},
        {.name = "--row", .kind = CLI_OPT_LIST, .arg = "M", .off = CLI_AT(models), .help = ""},
        {.name = NULL},
    };
    static const cli_options options = {.tables = {cli_scenario_opts, extra}};
    static const cli_command cmd = {"eval", "", "eval", &options, NULL};
    static cli_opts o; /* large: not on the stack */
    engine_error err = {{0}};
    int rc = cli_opts_parse(&cmd, argc, argv, &o, &err);
    FUZZ_CHECK(rc == CLI_OK || rc == CLI_HELP || rc == CLI_USAGE);
    if (rc == CLI_USAGE) { /* one line, or two with a suggestion */
        const char *nl = strchr(err.msg, '\n');
        FUZZ_CHECK(strnlen(err.msg, sizeof err.msg) < sizeof err.msg);
        FUZZ_CHECK(strncmp(err.msg, "shardscope eval: ", 17) == 0);
        FUZZ_CHECK(!nl || (strncmp(nl + 1, "shardscope eval: did you mean --", 32) == 0 &&
                           !strchr(nl + 1, '\n')));
    }
    if (rc != CLI_OK || memchr(data, '/', size))
        return 0;
    FUZZ_CHECK(chdir(fuzz_scratch_dir()) == 0);
    int lrc = cli_scenario_load(&o, db, CLI_NEED_ALL, "eval", &sc, &err);
    FUZZ_CHECK(fchdir(home_fd) == 0);
    if (lrc != 0) {
        FUZZ_CHECK(fuzz_is_message(err.msg, sizeof err.msg));
        return 0;
    }
    FUZZ_CHECK(engine_scenario_check(&sc.scenario, &err) == 0);
    if (sc.has_plan) {
        engine_result r;
        sc.scenario.mc_samples = 0;
        if (engine_evaluate(&sc.scenario, sc.plan, &r, &err) != 0)
            FUZZ_CHECK(fuzz_is_message(err.msg, sizeof err.msg));
    }
    return 0;
}
