/*
 * scenario.h - the scenario flags every scenario-taking command shares
 * (eval, recommend, report): their option table, and the load step that
 * turns parsed options (opts.h) into an engine_scenario: preset names,
 * --model config.json paths, the calibration file, the usual topology of
 * the GPU, the explicit plan, the context limit and engine_scenario_check.
 */
#ifndef SHARDSCOPE_CLI_SCENARIO_H
#define SHARDSCOPE_CLI_SCENARIO_H

#include "engine.h"
#include "opts.h"
#include "preset.h"

/* --model M --gpu G --gpus N [--tp T --pp P --dp D --ep E] [--link L]
 * [--inter-link L --gpus-per-node K] [--vram-gb X] [--framework F]
 * [--cuda-graphs on|off] [--mem-fraction X] [--max-model-len N]
 * [--batch B] [--prompt S] [--gen G] [--dtype D] [--quant-group N]
 * [--kv-dtype D] [--act-dtype D] [--microbatches M] [--schedule S]
 * [--interleave V] [--objective O] [--jitter SIGMA] [--straggler-prob P]
 * [--straggler-slowdown X] [--samples K] [--seed N] [--spec-method M
 * --spec-k K --spec-accept P --spec-draft MODEL] [--calib FILE |
 * --no-calib] [--json], ended by a NULL name. */
extern const cli_opt cli_scenario_opts[];

/* A loaded scenario.  scenario.model/gpu/intra/inter/framework point into
 * the preset db (borrowed: the db must outlive this struct) or into this
 * struct's own storage (hf_model, calib), so a cli_scenario must not be
 * copied by value once loaded: pass it by pointer. */
typedef struct cli_scenario {
    engine_scenario scenario;
    engine_model hf_model;   /* storage when --model is a config.json path */
    engine_calib calib;      /* storage for a measured calibration */
    engine_link calib_link;  /* the intra link with the calibration's NCCL curves */
    engine_band_table bands; /* error bands from the shipped validation cases */
    int model_from_file;     /* 1 when --model was a config.json path */
    engine_plan plan;        /* the explicit plan, when has_plan */
    int has_plan;            /* 1 when any of --tp --pp --dp --ep was given */
    engine_model draft_model; /* storage when --spec-draft is a config.json path */
} cli_scenario;

/* Which scenario flags are mandatory. */
enum {
    CLI_NEED_MODEL = 1 << 0,
    CLI_NEED_GPU = 1 << 1,
    CLI_NEED_GPUS = 1 << 2, /* satisfied by a full explicit plan too */
    CLI_NEED_ALL = CLI_NEED_MODEL | CLI_NEED_GPU | CLI_NEED_GPUS,
    CLI_ALLOW_LOAD = 1 << 3 /* --batch max means something (eval); other commands
                             * refuse it (--total-concurrency is eval's own flag) */
};

/* Load *out from parsed options: defaults from engine_scenario_defaults();
 * --link, --inter-link and --gpus-per-node default to the GPU's usual
 * topology (preset_gpu_topology), --framework to "generic"; an explicit
 * plan gets tp/pp/ep 1 and dp = gpus / (tp * pp) for the flags not given,
 * and --gpus defaults to tp*pp*dp; prompt + gen above the context
 * (--max-model-len, else the model's) is an error.  The calibration is
 * --calib FILE, else the one `shardscope calibrate` saved for the GPU,
 * else datasheet defaults (always with --no-calib).  Finally
 * engine_scenario_check().  A note (a calibration measured for another
 * GPU) is printed on stderr as "shardscope CMD: --calib: note: ...".
 * Returns 0, or -1 with err->msg naming the flag ("--gpus: required (an
 * integer 1..1048576)"), without the "shardscope CMD: " prefix. */
int cli_scenario_load(const cli_opts *o, const preset_db *db, unsigned need, const char *cmd,
                      cli_scenario *out, engine_error *err);

#endif /* SHARDSCOPE_CLI_SCENARIO_H */
