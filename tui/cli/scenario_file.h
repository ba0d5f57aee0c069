/*
 * scenario_file.h - scenario files: `eval --save-scenario FILE` writes the
 * whole scenario as JSON, `eval --scenario FILE` and `shardscope
 * --scenario FILE` (the explorer) read one.
 *
 * The format is one JSON object whose members are the scenario flags by
 * name, "--" dropped and "-" as "_" ("gpus", "vram_gb", "kv_dtype",
 * "tp"), with the values the flags take (numbers, names, "max" for batch,
 * true for a flag), plus "schema_version" and "kind": "shardscope
 * scenario".  Reading one is the same as giving those flags, so every
 * check and message of the command line applies; a flag given on the
 * command line overrides the file's field (command line > file > defaults).
 */
#ifndef SHARDSCOPE_CLI_SCENARIO_FILE_H
#define SHARDSCOPE_CLI_SCENARIO_FILE_H

#include <cjson/cJSON.h>

#include "engine.h"
#include "opts.h"
#include "scenario.h"

#define CLI_SCENARIO_KIND "shardscope scenario"

/* A scenario file merged into options: the parsed document (the options'
 * strings point into it), which fields came from it, and a note naming
 * the members it did not know ("" none). */
typedef struct cli_scenario_file {
    const char *path;
    cJSON *doc;
    unsigned char from_file[sizeof(cli_values)]; /* by field offset, as cli_opts.seen */
    char note[512];
} cli_scenario_file;

/* Read `path` and give *o every field of it the command line did not give
 * (marked seen, as if given).  0 with *f filled (free it with
 * cli_scenario_file_free once *o is no longer used); -1 with err as one
 * line naming the file and the field: "FILE: cannot read: ...", "FILE: not
 * JSON (line N)", "FILE: gpus: expected an integer 1..1048576, got
 * \"8\"", "FILE: dtype: expected fp16|bf16|..., got 'fp7'". */
int cli_scenario_file_merge(const char *path, cli_opts *o, cli_scenario_file *f,
                            engine_error *err);
void cli_scenario_file_free(cli_scenario_file *f);

/* An error of the load step (cli_scenario_load: "--gpu: unknown GPU ...")
 * about a flag that came from the file, rewritten to name the file and the
 * field ("FILE: gpu: unknown GPU ..."); others unchanged. */
void cli_scenario_file_blame(const cli_scenario_file *f, engine_error *err);

/* Write cs's whole scenario (resolved: the presets by name, the plan, every
 * number) and any other scenario flag o holds, to `path` atomically (a
 * temporary file in the same directory, fsync, rename).  0, or -1 with err
 * naming the file. */
int cli_scenario_file_save(const char *path, const cli_opts *o, const cli_scenario *cs,
                           engine_error *err);

/* The JSON object cli_scenario_file_save writes (new, owned by the caller). */
cJSON *cli_scenario_file_json(const cli_opts *o, const cli_scenario *cs);

#endif /* SHARDSCOPE_CLI_SCENARIO_FILE_H */
