/*
 * opts.h - the one option parser of the command line (git's parse-options
 * style): every command, `tui` and `calibrate` included, describes its
 * options in a typed table {name, kind, argument name, help, field, limits,
 * choices}; cli_opts_parse() turns argv into a plain cli_opts struct and
 * cli_opts_help() prints `--help` from the same table.
 *
 * Parsing reads nothing but argv: no presets, no files, no environment.
 * Loading (preset names, config.json paths, calibrations) is a separate
 * step (scenario.h, lookup.h) that each command's run function does.
 *
 * One mistake, one message, whatever the command, as one line
 *   shardscope CMD: --bogus: unknown option (see 'shardscope CMD --help')
 *   shardscope CMD: --gpus: missing value
 *   shardscope CMD: --gpus: expected an integer 1..1048576, got 'abc'
 *   shardscope CMD: --dtype: expected fp16|bf16|fp8|int8|int4|fp4, got 'x'
 * optionally followed by a second line with a suggestion
 *   shardscope CMD: did you mean --batch?
 * and exit status 2.  Integer and number limits come from ENGINE_MAX_*
 * (engine.h), the limits engine_scenario_check() enforces; enum choices
 * come from the engine's name functions.
 */
#ifndef SHARDSCOPE_CLI_OPTS_H
#define SHARDSCOPE_CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"
#include "preset.h"

/* Exit statuses of every command. */
#define CLI_OK 0
#define CLI_FAIL 1
#define CLI_USAGE 2
/* Returned by cli_opts_parse() when --help / -h was given: print the
 * command's help on stdout and exit with CLI_OK. */
#define CLI_HELP 3
/* The longest help text of an option (with an enumeration's names before
 * it) the --help printer wraps; test_cli.c holds every table to it. */
#define CLI_HELP_TEXT_MAX 2048

typedef enum cli_opt_kind {
    CLI_OPT_FLAG = 0, /* no value; the int field becomes 1 */
    CLI_OPT_INT,      /* int in [min, max] */
    CLI_OPT_DOUBLE,   /* finite decimal double in [min, max] */
    CLI_OPT_SIZE,     /* double bytes via cli_parse_size, in [min, max] */
    CLI_OPT_U64,      /* uint64_t, 0..2^64-1 */
    CLI_OPT_STRING,   /* const char *, borrowed from argv, never empty */
    CLI_OPT_ENUM,     /* int index of one of `choices` (case-insensitive) */
    CLI_OPT_LIST      /* cli_list: every occurrence appended (borrowed) */
} cli_opt_kind;

/* The names of an enumeration, from the engine (or the command). */
typedef struct cli_enum {
    const char *(*name)(int value); /* name of value 0..count-1 */
    int count;
} cli_enum;

/* One option.  A table is an array ended by an entry whose name is NULL. */
typedef struct cli_opt {
    const char *name;        /* "--batch" */
    cli_opt_kind kind;
    const char *arg;         /* "B" in "--batch B"; NULL for flags (and
                              * for an ENUM: the choices) */
    const char *help;        /* lines separated by '\n'; NULL: not listed
                              * in --help (hidden).  An ENUM's help starts
                              * with its choices unless arg holds a '|'. */
    size_t off;              /* CLI_AT(field): where the value goes */
    double min, max;         /* INT, DOUBLE, SIZE */
    const cli_enum *choices; /* ENUM */
    const char *section;     /* heading printed before it ("workload:") */
    int takes_max;           /* INT: the word "max" is accepted too, stored as 0 */
} cli_opt;

#define CLI_LIST_MAX 32
typedef struct cli_list {
    const char *item[CLI_LIST_MAX];
    int n;
} cli_list;

/* Every value any command takes, by field.  Commands share a field when
 * they mean the same thing (--gpus, --json, --out).  Zero when not given;
 * CLI_SEEN() tells "given" from "zero". */
typedef struct cli_values {
    /* the scenario (scenario.h) */
    const char *model, *gpu, *link, *inter_link, *framework, *calib;
    int gpus, tp, pp, dp, ep, gpus_per_node, batch, prompt, gen, total_concurrency;
    int microbatches, decode_microbatches, interleave, samples, max_model_len, quant_group;
    int dtype, kv_dtype, act_dtype, schedule, objective, cuda_graphs; /* ENUM */
    double vram_gb, jitter, straggler_prob, straggler_slowdown, mem_fraction;
    uint64_t seed;
    /* MoE as deployed and overlap (ENUM: tbo, fuse_ar_norm, a2a) */
    int tbo, fuse_ar_norm, a2a, redundant_experts;
    int w4a16_kernel;  /* ENUM W4A16S: the W4A16 (MXFP4 on Hopper) kernel */
    int local_kv_full; /* ENUM GRAPHS: local layers' KV for the whole sequence */
    int prefill_graphs; /* ENUM GRAPHS: prefill steps under piecewise CUDA graphs */
    int flash_attn;    /* ENUM GRAPHS: off = prefill attention with its scores in memory */
    int sampling; /* ENUM: engine_sampling */
    int framework_version; /* ENUM: engine_fw_version */
    const char *cuda_graph_sizes; /* --cuda-graph-sizes LIST|trtllm-perf|none */
    int fp8_scaling; /* ENUM: engine_fp8_scaling */
    double moe_imbalance;
    int no_calib, json, csv;
    /* comm */
    double bytes;
    int op;
    /* recommend */
    int gpus_max, concurrency;
    double itl_ms, ttft_ms;
    const char *allow_quant;
    /* report */
    cli_list models;
    int format;
    const char *out, *plots, *links, *focus;
    /* tui */
    int ascii, mono, no_mouse, bench;
    const char *size, *term;
    /* calibrate */
    int backend, device, quick, no_comm, no_save, max_tp, max_tokens, plan;
    /* validate, bench */
    int cases, repeats;
    const char *val_explain; /* validate --explain ID */
    /* eval */
    int pareto;
    int explain;
    const char *save_scenario; /* eval --save-scenario FILE */
    const char *scenario_file; /* --scenario FILE (every scenario command, tui) */
    /* speculative decoding (scenario); recommend's --allow-spec */
    int spec_method, spec_k; /* ENUM, INT */
    double spec_accept;
    const char *spec_draft, *allow_spec;
    /* load */
    const char *load_rate, *trace, *prompt_dist, *gen_dist;
    int requests, max_num_seqs, max_batched_tokens, scheduler;
    int admit_lag; /* ENUM GRAPHS: load --admit-lag on|off */
    int recv_interval; /* load --recv-interval N */
    int kv_alloc;      /* ENUM engine_sim_kv: load --kv-alloc */
    double slo_percentile;
    int closed_start; /* ENUM engine_sim_start */
    double measure_window; /* load --measure-window S */
    double frontend_ms, frontend_token_us; /* load --frontend-ms, --frontend-token-us */
    double frontend_batch_ms;               /* load --frontend-batch-ms */
    int frontend_batch_max;                 /* load --frontend-batch-max */
    /* recommend --rate (fleet sizing) */
    int disagg; /* ENUM engine_fleet_disagg */
    /* load --disagg xPyD */
    const char *load_disagg;
    int prefill_tp, decode_tp;
    int eval_disagg; /* eval --disagg */
    int prefill_pp, prefill_ep, decode_pp, decode_ep; /* load --disagg pools */
    int prefill_dtype; /* ENUM engine_dtype: load --disagg's prefill pool weights */
} cli_values;

#define CLI_MAX_POS 4

/* What cli_opts_parse() makes of argv: plain values, no pointers into
 * anything but argv (which must outlive it).  Copyable. */
typedef struct cli_command cli_command;
typedef struct cli_opts {
    const cli_command *cmd; /* the command parsed for */
    cli_values v;
    unsigned char seen[sizeof(cli_values)]; /* by field offset */
    const char *pos[CLI_MAX_POS];           /* positional arguments */
    int n_pos;
} cli_opts;

#define CLI_AT(field) offsetof(cli_values, field)
#define CLI_SEEN(o, field) ((o)->seen[CLI_AT(field)] != 0)
#define CLI_MARK(o, field) ((o)->seen[CLI_AT(field)] = 1)

/* The options of one command: up to three tables, searched and listed in
 * order (the first table that names an option wins, so a command can
 * replace a shared option), the positional arguments it accepts, and the
 * text around the option list in --help. */
typedef struct cli_options {
    const cli_opt *tables[3]; /* NULL-ended list of tables */
    int max_pos;
    const char *about;  /* after the usage line (may be NULL) */
    const char *footer; /* after the options (may be NULL) */
} cli_options;

/* One command of the command table (tui/main.c). */
struct cli_command {
    const char *name;    /* "eval" */
    const char *summary; /* one line for `shardscope --help` */
    const char *usage;   /* after "usage: shardscope "; may hold '\n' */
    const cli_options *options;
    int (*run)(const cli_opts *o, const preset_db *db); /* exit status */
};

/* Parse argv (argv[0] is the command name and is skipped) against cmd's
 * option tables into *out (zeroed first).  "--flag V" and "--flag=V" are
 * both accepted; a value may not start with "--".  Reads no file and no
 * environment, allocates nothing, never exits: safe to fuzz.
 * Returns CLI_OK; CLI_HELP when --help or -h came before any mistake;
 * or CLI_USAGE with err->msg holding the message without a trailing
 * newline: one line, or two when a suggestion follows ("shardscope CMD:
 * did you mean --batch?").  err may be NULL. */
int cli_opts_parse(const cli_command *cmd, int argc, char **argv, cli_opts *out,
                   engine_error *err);

/* Print cmd's --help: "usage: shardscope " + usage, about, every listed
 * option ("  --name ARG" then its help at column 23) with its section
 * headings, footer. */
void cli_opts_help(const cli_command *cmd, FILE *f);

/* cli_opts_parse, then print the help (stdout) or the mistake (stderr).
 * Returns CLI_OK when the command should run, else CLI_HELP (exit 0) or
 * CLI_USAGE (exit 2), already printed. */
int cli_command_parse(const cli_command *cmd, int argc, char **argv, cli_opts *o);

/* Parse (cli_command_parse), then run with presets loaded already: what
 * `shardscope CMD ARGS` does.  Returns the exit status. */
int cli_command_exec(const cli_command *cmd, int argc, char **argv, const preset_db *db);

/* Print "shardscope CMD: " + err->msg on stderr and return CLI_USAGE. */
int cli_fail(const char *cmd, const engine_error *err);


/* --- values ------------------------------------------------------------ */

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
/* "a|b|c": the names of an enumeration, into buf. */
char *cli_enum_names(const cli_enum *e, char *buf, size_t len);

#endif /* SHARDSCOPE_CLI_OPTS_H */
