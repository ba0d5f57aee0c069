/*
 * fuzz_hf_config.c - libFuzzer harness for the Hugging Face config.json
 * importer (preset_model_from_hf_config, presets/hf_config.c).
 *
 * Each input is written to <scratch>/<name>/config.json (the importer only
 * takes a path; the directory name becomes the model's name when the config
 * has no hub id) and imported.  Checked: a failure leaves a one-line message;
 * a success gives a model that passes preset_model_check and that the
 * engine can evaluate on one shipped GPU without undefined behaviour.
 */
#include "fuzz_util.h"

#include "engine.h"
#include "preset.h"

static char path[1200];
static preset_db *db;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/Fuzz-Model-7B", fuzz_scratch_dir());
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/config.json", dir);
    engine_error err = {{0}};
    FUZZ_CHECK(preset_db_load("", &db, &err) == 0);
    return 0;
}

/* The imported model on one GPU of the shipped db: one plan, no tails. */
static void evaluate(const engine_model *m)
{
    const engine_gpu *g = preset_find_gpu(db, "h100-sxm");
    FUZZ_CHECK(g != NULL);
    engine_scenario s;
    engine_scenario_defaults(&s);
    s.model = m;
    s.gpu = g;
    preset_gpu_topology(db, g, &s.intra, &s.inter, &s.gpus_per_node);
    s.framework = preset_find_framework(db, "generic");
    s.gpus = 8;
    s.mc_samples = 0;
    if (m->has_weight_dtype) { /* as the CLI does: the checkpoint's format */
        s.weight_dtype = m->weight_dtype;
        s.quant_group = m->quant_group;
    }
    engine_error err = {{0}};
    if (engine_scenario_check(&s, &err) != 0) {
        FUZZ_CHECK(fuzz_is_message(err.msg, sizeof err.msg));
        return;
    }
    engine_result r;
    engine_plan plans[] = { { 1, 1, 8, 1 }, { 8, 1, 1, 1 }, { 2, 4, 1, 1 } };
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++)
        if (engine_evaluate(&s, plans[i], &r, &err) != 0)
            FUZZ_CHECK(fuzz_is_message(err.msg, sizeof err.msg));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_write_file(path, data, size);
    engine_model m;
    engine_error err = {{0}};
    if (preset_model_from_hf_config(path, &m, &err) != 0) {
        FUZZ_CHECK(fuzz_is_message(err.msg, sizeof err.msg));
        return 0;
    }
    FUZZ_CHECK(strnlen(m.name, sizeof m.name) < sizeof m.name && m.name[0]);
    FUZZ_CHECK(strnlen(m.source, sizeof m.source) < sizeof m.source);
    FUZZ_CHECK(preset_model_check(&m, "fuzz", &err) == 0);
    evaluate(&m);
    return 0;
}
