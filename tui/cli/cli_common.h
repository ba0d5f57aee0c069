/*
 * cli_common.h - what every scenario-taking subcommand (eval, recommend,
 * report, ...) shares: the parser of the common scenario flags, size
 * parsing ("16MiB"), close-name suggestions for unknown presets, and the
 * unit formatters used by the text output.
 *
 * Errors are printed here, on stderr, as one line that names the command
 * and the flag ("shardscope eval: --gpus: expected an integer 1..1048576,
 * got 'abc'"); the caller just returns the status (2: bad usage or input).
 * Nothing here exits.
 *
 * Units: GB = 1e9 bytes everywhere in output; GiB (2^30) appears only with
 * its own label.  Times are seconds inside, formatted as s / ms / µs.
 */
#ifndef SHARDSCOPE_CLI_COMMON_H
#define SHARDSCOPE_CLI_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"
#include "preset.h"
#include "fmt.h"
#include "csv.h"
#include "table.h"

/* Exit statuses (see cli.h). */
#define CLI_OK 0
#define CLI_FAIL 1
#define CLI_USAGE 2
/* Returned by the parsers when --help / -h was given: print the command's
 * help on stdout and return CLI_OK. */
#define CLI_HELP 3

/* Upper bound of every integer count flag (GPUs, tp, pp, ...). */
#define CLI_MAX_COUNT 1048576

/* --- extra, command-specific options -------------------------------- */

typedef enum cli_opt_kind {
    CLI_OPT_FLAG = 0, /* no value; *(int *)dest = 1 */
    CLI_OPT_INT,      /* int in [min, max] */
    CLI_OPT_DOUBLE,   /* finite double in [min, max] */
    CLI_OPT_STRING,   /* *(const char **)dest = the argv string (borrowed) */
    CLI_OPT_SIZE,     /* double bytes via cli_parse_size, in [min, max] */
    CLI_OPT_U64       /* uint64_t, any value 0..2^64-1 */
} cli_opt_kind;

/* One option a command accepts besides the shared scenario flags.  `seen`
 * (optional) is set to 1 when the option was given. */
typedef struct cli_opt {
    const char *name; /* "--jitter" */
    cli_opt_kind kind;
    void *dest;
    double min, max;  /* range for INT / DOUBLE / SIZE */
    int *seen;
} cli_opt;

/* --- the shared scenario ------------------------------------------- */

/* A parsed scenario.  scenario.model/gpu/intra/inter/calib point either into
 * the preset db (borrowed: the db must outlive this struct) or into this
 * struct's own storage (hf_model, calib), so a cli_scenario must not be
 * copied by value once parsed: pass it by pointer. */
typedef struct cli_scenario {
    engine_scenario scenario;
    engine_model hf_model;  /* storage when --model is a config.json path */
    engine_calib calib;     /* storage for a measured calibration */
    engine_band_table bands; /* error bands from the shipped validation cases */
    int model_from_file;    /* 1 when --model was a config.json path */
    engine_plan plan;       /* the explicit plan, when has_plan */
    int has_plan;           /* 1 when any of --tp --pp --dp --ep was given */
    int json;               /* --json */
    int csv;                /* --csv (only for commands that accept it) */
    /* What was asked for, as typed (borrowed from argv; NULL if absent). */
    const char *model_arg, *gpu_arg, *link_arg, *inter_arg, *framework_arg;
} cli_scenario;

/* Which shared flags are mandatory. */
enum {
    CLI_NEED_MODEL = 1 << 0,
    CLI_NEED_GPU = 1 << 1,
    CLI_NEED_GPUS = 1 << 2, /* satisfied by a full explicit plan too */
    CLI_ALLOW_CSV = 1 << 3, /* accept --csv */
    CLI_NEED_ALL = CLI_NEED_MODEL | CLI_NEED_GPU | CLI_NEED_GPUS
};

/* Parse argv (argv[0] is the subcommand name, as cli_cmd_* receive it) into
 * *out: the shared flags
 *   --model M|PATH --gpu G --gpus N [--tp T --pp P --dp D --ep E]
 *   [--link L] [--inter-link L --gpus-per-node K] [--batch B] [--prompt S]
 *   [--gen G] [--dtype D] [--kv-dtype D] [--act-dtype D] [--microbatches M]
 *   [--schedule gpipe|1f1b|interleaved] [--interleave V] [--vram-gb X]
 *   [--objective latency|throughput|cost] [--jitter SIGMA] [--seed N]
 *   [--samples K] [--straggler-prob P] [--straggler-slowdown X]
 *   [--calib FILE | --no-calib] [--framework F] [--max-model-len N]
 *   [--mem-fraction X] [--json]
 * plus the command's `extra` options (may be NULL / 0).  Both "--flag V"
 * and "--flag=V" are accepted.  Defaults come from
 * engine_scenario_defaults(); --link, --inter-link and --gpus-per-node
 * default to the GPU's usual topology (preset_gpu_topology: its NVLink
 * domain and scale-out link, or PCIe inside an 8-GPU node), --framework to
 * "generic"; prompt + gen above the context (--max-model-len, else the
 * model's) is an error; an
 * explicit plan gets tp/pp/ep 1 and dp = gpus / (tp * pp) for the flags
 * not given, and --gpus defaults to tp*pp*dp when all are given.
 * The calibration is --calib FILE, else the one `shardscope calibrate`
 * saved for the GPU (calib_store_load_for_gpu), else datasheet defaults
 * (always with --no-calib).
 * The scenario is finally checked with engine_scenario_check().
 * Returns CLI_OK, CLI_HELP, or CLI_USAGE after printing one line on stderr
 * ("shardscope CMD: --flag: ..."). */
int cli_scenario_parse(cli_scenario *out, int argc, char **argv,
                       const preset_db *db, unsigned need,
                       const cli_opt *extra, int n_extra);

/* The usage lines of the shared flags (for each command's --help). */
void cli_scenario_help(FILE *f);

/* Parse only the command's own options (no scenario flags); for commands
 * such as comm, list, bench.  Positional arguments (not starting with
 * "--") are stored into positional[0..max_pos-1] and counted in *n_pos
 * (both may be NULL/0 when none are accepted).  Returns CLI_OK, CLI_HELP
 * or CLI_USAGE (message printed). */
int cli_opts_parse(const char *cmd, int argc, char **argv,
                   const cli_opt *opts, int n_opts,
                   const char **positional, int max_pos, int *n_pos);

/* Resolve preset names, printing "shardscope CMD: FLAG: unknown X 'name';
 * close: a, b (see 'shardscope list Xs')" and returning NULL when absent. */
const engine_gpu *cli_find_gpu(const char *cmd, const char *flag,
                               const preset_db *db, const char *name);
const engine_link *cli_find_link(const char *cmd, const char *flag,
                                 const preset_db *db, const char *name);
/* --model: a preset name, or a path to a Hugging Face config.json (read
 * into *storage, *from_file set to 1). */
const engine_model *cli_find_model(const char *cmd, const char *flag,
                                   const preset_db *db, const char *name,
                                   engine_model *storage, int *from_file);

/* The link used when --link is not given: the first of a short list of
 * common preset names present in db, else the db's first link; NULL when
 * the db has no links. */
const engine_link *cli_default_link(const preset_db *db);
/* The link used when --link is not given for a GPU: the GPU's usual
 * scale-up interconnect (H100 SXM / H200: nvlink4, B200: nvlink5, A100:
 * nvlink3, H100 PCIe / MI300X: pcie5, RTX 2070: pcie3), else
 * cli_default_link(db).  gpu may be NULL. */
const engine_link *cli_default_link_for(const preset_db *db, const engine_gpu *gpu);

/* Write into buf up to `max` candidate names close to `name` (edit
 * distance, shared prefix or substring), comma-separated.  Returns the
 * number written. */
int cli_close_names(const char *name, const char *const *names, int n,
                    char *buf, size_t len, int max);


/* --- parsing values -------------------------------------------------- */

/* A byte count: a plain number ("1024") or a number with a unit: B; kB KB
 * MB GB TB (powers of 1000); KiB MiB GiB TiB and the single letters K M G
 * T (powers of 1024, as nccl-tests reads them).  Units are
 * case-insensitive except that they are never bits.  Fractions are allowed
 * when the result is a whole number of bytes ("1.5GB", "0.5KiB").  Rejects
 * empty strings, signs, spaces, NaN/inf, junk after the unit and values
 * above 2^62.  0 ok, -1 bad. */
int cli_parse_size(const char *text, double *bytes);

/* A decimal integer in [min, max], whole string.  0 ok, -1 bad. */
int cli_parse_int(const char *text, long min, long max, long *out);
/* A finite decimal number in [min, max], whole string.  0 ok, -1 bad. */
int cli_parse_double(const char *text, double min, double max, double *out);

/* Units are formatted by fmt.h (fmt_seconds, fmt_bytes, fmt_usd, ...) and
 * columns by table.h (out_put_col, out_display_width), both in tui/out. */

/* CSV: csv.h in tui/out (out_csv_field, out_csv_result_row). */


/* Print the preset loader's rejected entries on stderr (one per line,
 * prefixed "shardscope: "); returns db->n_errors. */
int cli_print_db_errors(const preset_db *db);

#endif /* SHARDSCOPE_CLI_COMMON_H */
