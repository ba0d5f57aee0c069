/*
 * tui.c - `shardscope tui` (and `shardscope` alone on a terminal):
 * parse the preselection flags, open the terminal, run the explorer,
 * restore the terminal.  When stdout is not a terminal it prints the help
 * instead.  The hidden `--bench` runs the scripted explorer benchmark.
 */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_common.h"
#include "explorer.h"
#include "explorer_bench.h"
#include "explorer_calib.h"
#include "scenario_file.h"
#include "term.h"

static const cli_opt TUI_OPTS[] = {
    {.name = "--model", .kind = CLI_OPT_STRING, .arg = "M", .off = CLI_AT(model),
     .help = "preset name (shardscope list models) or a path to a\nHugging Face config.json"},
    {.name = "--gpu", .kind = CLI_OPT_STRING, .arg = "G", .off = CLI_AT(gpu),
     .help = "GPU preset (see 'shardscope list gpus')"},
    {.name = "--gpus", .kind = CLI_OPT_INT, .arg = "N", .off = CLI_AT(gpus), .min = 1,
     .max = 1024, .help = "GPU count, 1..1024 (default 8)"},
    {.name = "--link", .kind = CLI_OPT_STRING, .arg = "L", .off = CLI_AT(link),
     .help = "interconnect inside a node (default: the GPU's usual one;\n"
             "see 'shardscope list links')"},
    {.name = "--inter-link", .kind = CLI_OPT_STRING, .arg = "L", .off = CLI_AT(inter_link),
     .help = "interconnect between nodes (default: the GPU's scale-out)"},
    {.name = "--gpus-per-node", .kind = CLI_OPT_INT, .arg = "K", .off = CLI_AT(gpus_per_node),
     .min = 1, .max = 72, .help = "GPUs per node / NVLink domain, 1..72 (default: the GPU's)"},
    {.name = "--framework", .kind = CLI_OPT_STRING, .arg = "F", .off = CLI_AT(framework),
     .help = "vllm|sglang|trt-llm|generic (default generic; F cycles)"},
    {.name = "--vram-gb", .kind = CLI_OPT_DOUBLE, .arg = "X", .off = CLI_AT(vram_gb), .min = 1,
     .max = 1024, .help = "VRAM per GPU in GB, 1..1024 (default: the GPU's capacity)"},
    {.name = "--ascii", .kind = CLI_OPT_FLAG, .off = CLI_AT(ascii),
     .help = "ASCII line drawing even in a UTF-8 locale"},
    {.name = "--mono", .kind = CLI_OPT_FLAG, .off = CLI_AT(mono),
     .help = "no colours (NO_COLOR=1 does the same)"},
    {.name = "--no-mouse", .kind = CLI_OPT_FLAG, .off = CLI_AT(no_mouse),
     .help = "leave the mouse to the terminal"},
    {.name = "--scenario", .kind = CLI_OPT_STRING, .arg = "FILE", .off = CLI_AT(scenario_file),
     .help = "open on a scenario file (eval --save-scenario): model,\n"
             "GPU, links, counts, VRAM, framework, workload and plan;\n"
             "flags given here override its fields"},
    /* Hidden: the scripted explorer benchmark (make bench). */
    {.name = "--bench", .kind = CLI_OPT_FLAG, .off = CLI_AT(bench)},
    {.name = "--size", .kind = CLI_OPT_STRING, .arg = "COLSxROWS", .off = CLI_AT(size)},
    {.name = "--term", .kind = CLI_OPT_STRING, .arg = "TERM", .off = CLI_AT(term)},
    {.name = NULL},
};

const cli_options cli_tui_options = {
    .tables = {TUI_OPTS},
    .about = "Opens the interactive explorer (needs a terminal of at least 80x24).\n",
    .footer = "Keys: ? in the explorer lists them all; q or Esc quits.\n"
              "\n"
              "Other commands: list, eval, comm, recommend, report, calibrate, validate,\n"
              "bench ('shardscope --help').\n",
};

/* The explorer's preselection: preset names resolved (an error names the
 * flag), numbers as given.  0, or -1 with err. */
/* The explorer picks its models from a db: a Hugging Face config.json
 * given as --model goes first in *view, a shallow copy of db with its own
 * models array (the caller frees view->models).  0, or -1 with err. */
static int db_with_model(const preset_db *db, const engine_model *m, preset_db *view,
                         engine_error *err)
{
    *view = *db;
    view->models = malloc(((size_t)db->n_models + 1) * sizeof *view->models);
    if (!view->models)
        return engine_errorf(err, "out of memory");
    view->models[0] = *m;
    if (db->n_models > 0)
        memcpy(view->models + 1, db->models, (size_t)db->n_models * sizeof *db->models);
    view->n_models = db->n_models + 1;
    return 0;
}

/* The preselection; a config.json model is added to *view (view->models
 * NULL when none).  0, or -1 with err. */
static int load_explorer_opts(const cli_opts *o, const preset_db *db, explorer_opts *eo,
                              preset_db *view, engine_error *err)
{
    explorer_opts_defaults(eo);
    view->models = NULL;
    if (o->v.model) {
        engine_model storage;
        int from_file = 0;
        const engine_model *m = cli_find_model(db, "--model", o->v.model, &storage, &from_file, err);
        if (!m)
            return -1;
        if (from_file && db_with_model(db, m, view, err) != 0)
            return -1;
        eo->model = from_file ? view->models[0].name : m->name;
    }
    const engine_gpu *g = o->v.gpu ? cli_find_gpu(db, "--gpu", o->v.gpu, err) : NULL;
    const engine_link *l = o->v.link ? cli_find_link(db, "--link", o->v.link, err) : NULL;
    const engine_link *il =
        o->v.inter_link ? cli_find_link(db, "--inter-link", o->v.inter_link, err) : NULL;
    const engine_framework *f =
        o->v.framework ? cli_find_framework(db, "--framework", o->v.framework, err) : NULL;
    if ((o->v.gpu && !g) || (o->v.link && !l) || (o->v.inter_link && !il) ||
        (o->v.framework && !f))
        return -1;
    eo->gpu = g ? g->name : eo->gpu;
    eo->link = l ? l->name : eo->link;
    eo->inter_link = il ? il->name : eo->inter_link;
    eo->framework = f ? f->name : eo->framework;
    if (CLI_SEEN(o, gpus))
        eo->gpus = o->v.gpus;
    if (CLI_SEEN(o, gpus_per_node))
        eo->gpus_per_node = o->v.gpus_per_node;
    if (CLI_SEEN(o, vram_gb))
        eo->vram_gb = o->v.vram_gb;
    /* the workload and plan: only a scenario file gives them */
    if (CLI_SEEN(o, batch) && o->v.batch > 0)
        eo->batch = o->v.batch;
    if (CLI_SEEN(o, prompt))
        eo->prompt = o->v.prompt;
    if (CLI_SEEN(o, gen))
        eo->gen = o->v.gen;
    if (CLI_SEEN(o, microbatches))
        eo->microbatches = o->v.microbatches;
    if (CLI_SEEN(o, dtype))
        eo->dtype = o->v.dtype;
    if (CLI_SEEN(o, schedule))
        eo->schedule = o->v.schedule;
    if (CLI_SEEN(o, objective))
        eo->objective = o->v.objective;
    if (CLI_SEEN(o, spec_method) && o->v.spec_method != ENGINE_SPEC_DRAFT) {
        eo->spec_method = o->v.spec_method;
        if (CLI_SEEN(o, spec_k))
            eo->spec_k = o->v.spec_k;
        if (CLI_SEEN(o, spec_accept))
            eo->spec_pct = (int)(o->v.spec_accept * 100 + 0.5);
    }
    if (CLI_SEEN(o, tp) || CLI_SEEN(o, pp) || CLI_SEEN(o, dp) || CLI_SEEN(o, ep))
        eo->plan = (engine_plan){CLI_SEEN(o, tp) ? o->v.tp : 1, CLI_SEEN(o, pp) ? o->v.pp : 1,
                                 CLI_SEEN(o, dp) ? o->v.dp : 1, CLI_SEEN(o, ep) ? o->v.ep : 1};
    return 0;
}

/* What a scenario file sets that the explorer has no control for (the
 * scenario checked as eval loads it: a bad file fails here, naming the
 * file and the field), into note ("" none). 0, or -1 with err. */
static int scenario_file_check(const cli_opts *o, const preset_db *db,
                               const cli_scenario_file *sf, char *note, size_t len,
                               engine_error *err)
{
    cli_scenario *cs = malloc(sizeof *cs);
    if (!cs)
        return engine_errorf(err, "out of memory");
    if (cli_scenario_load(o, db, CLI_ALLOW_LOAD, "tui", cs, err) != 0) {
        cli_scenario_file_blame(sf, err);
        free(cs);
        return -1;
    }
    engine_scenario d;
    engine_scenario_defaults(&d);
    const engine_scenario *s = &cs->scenario;
    const struct {
        const char *name;
        int differs;
    } f[] = {{"kv_dtype", s->kv_dtype != d.kv_dtype},
             {"act_dtype", s->act_dtype != d.act_dtype},
             {"cuda_graphs", s->cuda_graphs != d.cuda_graphs},
             {"mem_fraction", s->usable_fraction != d.usable_fraction},
             {"max_model_len", s->max_model_len != d.max_model_len},
             {"quant_group", CLI_SEEN(o, quant_group)},
             {"fp8_scaling", s->fp8_scaling != d.fp8_scaling},
             {"interleave", s->interleave != d.interleave},
             {"decode_microbatches", s->decode_microbatches != d.decode_microbatches},
             {"batch max", s->batch_max != 0},
             {"total_concurrency", s->total_concurrency != 0},
             {"spec_accept (whole % only)",
              s->spec_method != ENGINE_SPEC_NONE &&
                  fabs(s->spec_accept * 100 - floor(s->spec_accept * 100 + 0.5)) > 1e-9},
             {"spec_method draft", s->spec_method == ENGINE_SPEC_DRAFT},
             {"tbo", s->tbo != d.tbo},
             {"fuse_ar_norm", s->fuse_ar_norm != d.fuse_ar_norm},
             {"local_kv_full", s->local_kv_full != d.local_kv_full},
             {"prefill_graphs", s->prefill_graphs != d.prefill_graphs},
             {"flash_attn", s->attn_scores != d.attn_scores},
             {"a2a", s->a2a != d.a2a},
             {"w4a16_kernel", s->w4a16_kernel != d.w4a16_kernel},
             {"sampling", s->sampling != d.sampling},
             {"redundant_experts", s->redundant_experts != d.redundant_experts},
             {"moe_imbalance", s->moe_imbalance != d.moe_imbalance},
             {"max_num_seqs", s->max_num_seqs != d.max_num_seqs},
             {"framework_version", s->framework_version != d.framework_version},
             {"cuda_graph_sizes", s->n_graph_sizes != d.n_graph_sizes},
             {"tails (jitter, stragglers, samples, seed)",
              s->jitter_sigma != d.jitter_sigma || s->straggler_prob != d.straggler_prob ||
                  s->straggler_slowdown != d.straggler_slowdown ||
                  s->mc_samples != d.mc_samples || s->seed != d.seed}};
    size_t n = 0;
    note[0] = '\0';
    for (size_t i = 0; i < sizeof f / sizeof f[0] && n < len; i++)
        if (f[i].differs)
            n += (size_t)snprintf(note + n, len - n, "%s%s", n ? ", " : "", f[i].name);
    free(cs);
    return 0;
}

/* --size COLSxROWS of the benchmark.  0, or -1 with err. */
static int bench_size(const char *v, int *cols, int *rows, engine_error *err)
{
    char extra;
    if (v && (sscanf(v, "%dx%d%c", cols, rows, &extra) != 2 || *cols < 1 || *rows < 1 ||
              *cols > 1000 || *rows > 1000))
        return engine_errorf(err, "--size: expected COLSxROWS, got '%s'", v);
    return 0;
}

/* Any preselection flag given (the explorer was asked for a scenario). */
static int has_preselection(const cli_opts *o)
{
    return o->v.model || o->v.gpu || o->v.link || o->v.inter_link || o->v.framework ||
           CLI_SEEN(o, gpus) || CLI_SEEN(o, gpus_per_node) || CLI_SEEN(o, vram_gb);
}

/* "shardscope eval --model M --gpu G --gpus N ...": the same scenario off a
 * terminal (the explorer's defaults, llama-3-70b on 8 x h100-sxm, fill in
 * what eval requires). */
static void eval_equivalent(const cli_opts *o, char *buf, size_t len)
{
    int n = snprintf(buf, len, "shardscope eval --model %s --gpu %s --gpus %d",
                     o->v.model ? o->v.model : "llama-3-70b", o->v.gpu ? o->v.gpu : "h100-sxm",
                     CLI_SEEN(o, gpus) ? o->v.gpus : 8);
#define ADD(fmt, ...) \
    if (n >= 0 && (size_t)n < len) \
    n += snprintf(buf + n, len - (size_t)n, fmt, __VA_ARGS__)
    if (o->v.link)
        ADD(" --link %s", o->v.link);
    if (o->v.inter_link)
        ADD(" --inter-link %s", o->v.inter_link);
    if (CLI_SEEN(o, gpus_per_node))
        ADD(" --gpus-per-node %d", o->v.gpus_per_node);
    if (CLI_SEEN(o, vram_gb))
        ADD(" --vram-gb %g", o->v.vram_gb);
    if (o->v.framework)
        ADD(" --framework %s", o->v.framework);
#undef ADD
}

/* Off a terminal: the help when nothing was asked for; else say why no
 * explorer, and the eval line for the same scenario (exit 2). */
static int not_a_terminal(const cli_opts *o, const char *which)
{
    if (!has_preselection(o) && !strcmp(which, "stdout")) {
        cli_opts_help(o->cmd, stdout);
        return CLI_OK;
    }
    char line[512];
    eval_equivalent(o, line, sizeof line);
    fprintf(stderr, "shardscope tui: the explorer needs a terminal (%s is not one); for the "
                    "same scenario as text:\n  %s\n", which, line);
    return CLI_USAGE;
}

static int tui_session(const cli_opts *opts, const preset_db *db, const explorer_opts *eo,
                       int rows, int cols);

static int tui_run(const cli_opts *opts, const preset_db *db, const char *message);

int cli_tui_run(const cli_opts *opts, const preset_db *db)
{
    if (!opts->v.scenario_file)
        return tui_run(opts, db, NULL);
    cli_opts *merged = malloc(sizeof *merged);
    if (!merged) {
        fprintf(stderr, "shardscope tui: out of memory\n");
        return CLI_FAIL;
    }
    *merged = *opts;
    cli_scenario_file sf;
    engine_error err = {{0}};
    char note[300], msg[700] = "";
    int rc;
    if (cli_scenario_file_merge(opts->v.scenario_file, merged, &sf, &err) != 0) {
        rc = cli_fail("tui", &err);
    } else if (scenario_file_check(merged, db, &sf, note, sizeof note, &err) != 0) {
        rc = cli_fail("tui", &err);
        cli_scenario_file_free(&sf);
    } else {
        if (sf.note[0] || note[0])
            /* bounded parts: 160 + 1 + 22 + 299 + 11 + 200 < sizeof msg */
            snprintf(msg, sizeof msg, "%.160s:%s%.299s%s%.200s", opts->v.scenario_file,
                     note[0] ? " not in the explorer: " : "", note, sf.note[0] ? "; unknown: " : "",
                     sf.note);
        rc = tui_run(merged, db, msg[0] ? msg : NULL);
        cli_scenario_file_free(&sf);
    }
    free(merged);
    return rc;
}

static int tui_run(const cli_opts *opts, const preset_db *db, const char *message)
{
    explorer_opts eo;
    engine_error err = {{0}};
    int rows = 40, cols = 120;
    if (!opts->v.bench && !isatty(STDOUT_FILENO))
        return not_a_terminal(opts, "stdout");
    if (!opts->v.bench && !isatty(STDIN_FILENO))
        return not_a_terminal(opts, "stdin");
    preset_db view = {0};
    if (bench_size(opts->v.size, &cols, &rows, &err) != 0 ||
        load_explorer_opts(opts, db, &eo, &view, &err) != 0) {
        free(view.models);
        return cli_fail("tui", &err);
    }
    eo.message = message;
    int rc = tui_session(opts, view.models ? &view : db, &eo, rows, cols);
    free(view.models);
    return rc;
}

/* Everything after the options: the benchmark, or the terminal and the
 * explorer over db. */
static int tui_session(const cli_opts *opts, const preset_db *db, const explorer_opts *eo,
                       int rows, int cols)
{
    engine_error err = {{0}};
    int ascii = opts->v.ascii, mono = opts->v.mono, mouse = !opts->v.no_mouse;
    int bench = opts->v.bench;
    const char *bench_term = opts->v.term;

    setlocale(LC_ALL, "");
    if (bench) {
        if (!term_locale_utf8())
            setlocale(LC_ALL, "C.UTF-8");
        return explorer_bench(db, rows, cols, bench_term, stdout) ? CLI_FAIL : CLI_OK;
    }

    term_opts o;
    term_opts_defaults(&o);
    o.mono = mono;
    o.mouse = mouse;
    if (ascii)
        o.utf8 = 0;
    term_caps caps;
    term_install_signals();
    if (term_open(&o, &caps, err.msg, sizeof err.msg) != 0) {
        term_restore_signals();
        fprintf(stderr, "shardscope tui: %s\n", err.msg);
        return CLI_FAIL;
    }
    explorer *x = NULL;
    if (explorer_new(db, eo, &caps, &x, &err) != 0) {
        term_close();
        term_restore_signals();
        fprintf(stderr, "shardscope tui: %s\n", err.msg);
        return CLI_FAIL;
    }
    explorer_set_calib_ops(x, explorer_calib_hook());
    int sig = explorer_run(x);
    explorer_free(x);
    term_close();
    term_restore_signals();
    if (sig)
        term_exit_signalled(sig); /* the shell sees 128 + sig */
    return CLI_OK;
}
