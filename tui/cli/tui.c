/*
 * cli_tui.c - `shardscope tui` (and `shardscope` alone on a terminal):
 * parse the preselection flags, open the terminal, run the explorer,
 * restore the terminal.  When stdout is not a terminal it prints the help
 * instead.  The hidden `--bench` runs the scripted explorer benchmark.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_common.h"
#include "explorer.h"
#include "explorer_bench.h"
#include "explorer_calib.h"
#include "term.h"

static void tui_help(FILE *f)
{
    fprintf(f,
            "usage: shardscope [tui] [--model M] [--gpu G] [--gpus N] [--link L]\n"
            "                  [--inter-link L] [--gpus-per-node K] [--vram-gb X]\n"
            "                  [--framework F]\n"
            "                  [--ascii] [--mono] [--no-mouse]\n"
            "\n"
            "Opens the interactive explorer (needs a terminal of at least 80x24).\n"
            "  --model M          model preset (see 'shardscope list models')\n"
            "  --gpu G            GPU preset (see 'shardscope list gpus')\n"
            "  --gpus N           GPU count, 1..1024 (default 8)\n"
            "  --link L           interconnect inside a node (default: the GPU's usual one;\n"
            "                     see 'shardscope list links')\n"
            "  --inter-link L     interconnect between nodes (default: the GPU's scale-out)\n"
            "  --gpus-per-node K  GPUs per node / NVLink domain, 1..72 (default: the GPU's)\n"
            "  --framework F      vllm|sglang|trt-llm|generic (default generic; f cycles)\n"
            "  --vram-gb X        VRAM per GPU in GB (default: the GPU's capacity)\n"
            "  --ascii            ASCII line drawing even in a UTF-8 locale\n"
            "  --mono             no colours (NO_COLOR=1 does the same)\n"
            "  --no-mouse         leave the mouse to the terminal\n"
            "\n"
            "Keys: ? in the explorer lists them all; q or Esc quits.\n"
            "\n"
            "Other commands: list, eval, comm, recommend, report, calibrate, bench\n"
            "('shardscope --help').\n");
}

/* "--flag value" or "--flag=value"; returns the value or NULL. */
static const char *flag_value(int argc, char **argv, int *i, const char *name, int *bad)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        fprintf(stderr, "shardscope tui: %s: missing value\n", name);
        *bad = 1;
        return NULL;
    }
    return argv[++*i];
}

int cli_cmd_tui(int argc, char **argv, const preset_db *db)
{
    explorer_opts eo;
    explorer_opts_defaults(&eo);
    int ascii = 0, mono = 0, mouse = 1, bench = 0, rows = 40, cols = 120, bad = 0;
    const char *bench_term = NULL;
    for (int i = 1; i < argc && !bad; i++) {
        const char *a = argv[i], *v;
        long lv;
        double dv;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            tui_help(stdout);
            return CLI_OK;
        } else if (!strcmp(a, "--ascii")) {
            ascii = 1;
        } else if (!strcmp(a, "--mono")) {
            mono = 1;
        } else if (!strcmp(a, "--no-mouse")) {
            mouse = 0;
        } else if (!strcmp(a, "--bench")) {
            bench = 1;
        } else if ((v = flag_value(argc, argv, &i, "--size", &bad))) {
            if (sscanf(v, "%dx%d", &cols, &rows) != 2 || cols < 1 || rows < 1 || cols > 1000 ||
                rows > 1000) {
                fprintf(stderr, "shardscope tui: --size: expected COLSxROWS, got '%s'\n", v);
                bad = 1;
            }
        } else if ((v = flag_value(argc, argv, &i, "--term", &bad))) {
            bench_term = v;
        } else if ((v = flag_value(argc, argv, &i, "--model", &bad))) {
            engine_model storage;
            int from_file = 0;
            const engine_model *m = cli_find_model("tui", "--model", db, v, &storage, &from_file);
            if (!m)
                bad = 1;
            else if (from_file) {
                fprintf(stderr, "shardscope tui: --model: the explorer takes preset names "
                                "only; use 'shardscope eval --model %s'\n", v);
                bad = 1;
            } else
                eo.model = m->name;
        } else if ((v = flag_value(argc, argv, &i, "--gpu", &bad))) {
            const engine_gpu *g = cli_find_gpu("tui", "--gpu", db, v);
            if (!g)
                bad = 1;
            else
                eo.gpu = g->name;
        } else if ((v = flag_value(argc, argv, &i, "--link", &bad))) {
            const engine_link *l = cli_find_link("tui", "--link", db, v);
            if (!l)
                bad = 1;
            else
                eo.link = l->name;
        } else if ((v = flag_value(argc, argv, &i, "--framework", &bad))) {
            const engine_framework *f = preset_find_framework(db, v);
            if (!f) {
                fprintf(stderr, "shardscope tui: --framework: unknown framework '%s' "
                                "(see 'shardscope list frameworks')\n", v);
                bad = 1;
            } else
                eo.framework = f->name;
        } else if ((v = flag_value(argc, argv, &i, "--inter-link", &bad))) {
            const engine_link *l = cli_find_link("tui", "--inter-link", db, v);
            if (!l)
                bad = 1;
            else
                eo.inter_link = l->name;
        } else if ((v = flag_value(argc, argv, &i, "--gpus-per-node", &bad))) {
            if (cli_parse_int(v, 1, 72, &lv) != 0) {
                fprintf(stderr, "shardscope tui: --gpus-per-node: expected an integer 1..72, "
                                "got '%s'\n", v);
                bad = 1;
            } else
                eo.gpus_per_node = (int)lv;
        } else if ((v = flag_value(argc, argv, &i, "--gpus", &bad))) {
            if (cli_parse_int(v, 1, 1024, &lv) != 0) {
                fprintf(stderr, "shardscope tui: --gpus: expected an integer 1..1024, got '%s'\n",
                        v);
                bad = 1;
            } else
                eo.gpus = (int)lv;
        } else if ((v = flag_value(argc, argv, &i, "--vram-gb", &bad))) {
            if (cli_parse_double(v, 1, 1024, &dv) != 0) {
                fprintf(stderr, "shardscope tui: --vram-gb: expected a number of GB 1..1024, "
                                "got '%s'\n", v);
                bad = 1;
            } else
                eo.vram_gb = dv;
        } else if (!bad) {
            fprintf(stderr, "shardscope tui: unknown option '%s'\n", a);
            tui_help(stderr);
            bad = 1;
        }
    }
    if (bad)
        return CLI_USAGE;

    setlocale(LC_ALL, "");
    if (bench) {
        if (!term_locale_utf8())
            setlocale(LC_ALL, "C.UTF-8");
        return explorer_bench(db, rows, cols, bench_term, stdout) ? CLI_FAIL : CLI_OK;
    }
    if (!isatty(STDOUT_FILENO)) {
        tui_help(stdout);
        return CLI_OK;
    }
    if (!isatty(STDIN_FILENO)) {
        fprintf(stderr, "shardscope tui: the explorer reads keys from a terminal; stdin is "
                        "not one\n");
        return CLI_USAGE;
    }

    term_opts o;
    term_opts_defaults(&o);
    o.mono = mono;
    o.mouse = mouse;
    if (ascii)
        o.utf8 = 0;
    term_caps caps;
    char msg[300];
    term_install_signals();
    if (term_open(&o, &caps, msg, sizeof msg) != 0) {
        term_restore_signals();
        fprintf(stderr, "shardscope tui: %s\n", msg);
        return CLI_FAIL;
    }
    explorer *x = NULL;
    if (explorer_new(db, &eo, &caps, &x, msg, sizeof msg) != 0) {
        term_close();
        term_restore_signals();
        fprintf(stderr, "shardscope tui: %s\n", msg);
        return CLI_FAIL;
    }
    explorer_set_calib_ops(x, explorer_calib_hook());
    explorer_run(x);
    explorer_free(x);
    term_close();
    term_restore_signals();
    return CLI_OK;
}
