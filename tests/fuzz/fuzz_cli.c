/*
 * fuzz_cli.c - libFuzzer harness for the command line: the input, split at
 * NUL bytes, is the argument list of `shardscope eval` (argv[0] "eval"),
 * parsed into a scenario against the shipped presets.
 *
 * Parsing must not load files.  The parser of today (cli_scenario_parse)
 * still reads --model config.json paths and --calib files while parsing,
 * so until the option table separates the two, the harness runs in an
 * empty scratch directory with $HOME and $XDG_CONFIG_HOME pointing into
 * it, and skips argument lists with a '/' in them: every open the parser
 * tries then fails (nothing exists there) instead of reading the machine.
 * Checked: the status is OK, HELP or USAGE; an OK scenario passes
 * engine_scenario_check, and its explicit plan (if any) evaluates.
 */
#include "fuzz_util.h"

#include "cli_common.h"
#include "engine.h"
#include "preset.h"

#define FUZZ_MAX_ARGS 64
#define FUZZ_MAX_INPUT 4096

static preset_db *db;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *dir = fuzz_scratch_dir();
    char xdg[1100];
    snprintf(xdg, sizeof xdg, "%s/xdg", dir);
    setenv("HOME", dir, 1);
    setenv("XDG_CONFIG_HOME", xdg, 1);
    FUZZ_CHECK(chdir(dir) == 0);
    engine_error err = {{0}};
    FUZZ_CHECK(preset_db_load("", &db, &err) == 0);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char buf[FUZZ_MAX_INPUT + 1];
    static cli_scenario sc; /* large: not on the stack */
    if (size > FUZZ_MAX_INPUT || memchr(data, '/', size))
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
    int all = 0, top = 0;
    double slo = 0, bytes = 0;
    const char *out = NULL;
    uint64_t nonce = 0;
    const cli_opt extra[] = {
        { "--all", CLI_OPT_FLAG, &all, 0, 0, NULL },
        { "--top", CLI_OPT_INT, &top, 1, 1000, NULL },
        { "--slo", CLI_OPT_DOUBLE, &slo, 0, 1e6, NULL },
        { "--out", CLI_OPT_STRING, &out, 0, 0, NULL },
        { "--bytes", CLI_OPT_SIZE, &bytes, 1, 1e15, NULL },
        { "--nonce", CLI_OPT_U64, &nonce, 0, 0, NULL },
    };
    int rc = cli_scenario_parse(&sc, argc, argv, db, CLI_NEED_ALL | CLI_ALLOW_CSV, extra,
                                (int)(sizeof extra / sizeof extra[0]));
    FUZZ_CHECK(rc == CLI_OK || rc == CLI_HELP || rc == CLI_USAGE);
    if (rc != CLI_OK)
        return 0;
    engine_error err = {{0}};
    FUZZ_CHECK(engine_scenario_check(&sc.scenario, &err) == 0);
    if (sc.has_plan) {
        engine_result r;
        sc.scenario.mc_samples = 0;
        if (engine_evaluate(&sc.scenario, sc.plan, &r, &err) != 0)
            FUZZ_CHECK(fuzz_is_message(err.msg, sizeof err.msg));
    }
    return 0;
}
