/*
 * fuzz_preset.c - libFuzzer harness for the preset loader
 * (preset_db_add_json, presets/preset.c): a user presets file
 * {"models":{...},"gpus":{...},"links":{...},"frameworks":{...}}.
 *
 * The input is given exactly as libFuzzer hands it (len bytes, no NUL
 * after them), twice into one fresh db, so that the second pass overrides
 * every entry the first one added.  Checked: the error list stays within
 * PRESET_MAX_ERRORS one-line messages, every accepted model passes
 * preset_model_check, every entry is found again by its name, and every
 * GPU's topology resolves.
 */
#include "fuzz_util.h"

#include "engine.h"
#include "preset.h"

static void check_db(const preset_db *db)
{
    FUZZ_CHECK(db->n_errors >= 0 && db->n_errors <= PRESET_MAX_ERRORS);
    for (int i = 0; i < db->n_errors; i++)
        FUZZ_CHECK(fuzz_is_message(db->errors[i], sizeof db->errors[i]));
    engine_error err = {{0}};
    for (int i = 0; i < db->n_models; i++) {
        FUZZ_CHECK(preset_model_check(&db->models[i], "fuzz", &err) == 0);
        FUZZ_CHECK(preset_find_model(db, db->models[i].name) != NULL);
    }
    for (int i = 0; i < db->n_gpus; i++) {
        const engine_gpu *g = &db->gpus[i];
        FUZZ_CHECK(preset_find_gpu(db, g->name) != NULL);
        const engine_link *intra = NULL, *inter = NULL;
        int per_node = 0;
        preset_gpu_topology(db, g, &intra, &inter, &per_node);
        FUZZ_CHECK(per_node >= 0);
    }
    for (int i = 0; i < db->n_links; i++)
        FUZZ_CHECK(preset_find_link(db, db->links[i].name) != NULL);
    for (int i = 0; i < db->n_frameworks; i++)
        FUZZ_CHECK(preset_find_framework(db, db->frameworks[i].name) != NULL);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0; /* nothing to set up: each input gets a fresh db */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* An exact-size copy: reading past len is caught by ASan. */
    char *text = malloc(size ? size : 1);
    FUZZ_CHECK(text != NULL);
    if (size)
        memcpy(text, data, size);
    preset_db *db = calloc(1, sizeof *db);
    FUZZ_CHECK(db != NULL);
    int rc1 = preset_db_add_json(db, "fuzz.json", text, size);
    int n[4] = { db->n_models, db->n_gpus, db->n_links, db->n_frameworks };
    int rc2 = preset_db_add_json(db, "again.json", text, size);
    FUZZ_CHECK(rc1 == 0 || rc1 == -1);
    FUZZ_CHECK(rc2 == 0 || rc2 == -1);
    /* Loading the same file again overrides by name: no new entries. */
    FUZZ_CHECK(db->n_models == n[0] && db->n_gpus == n[1]);
    FUZZ_CHECK(db->n_links == n[2] && db->n_frameworks == n[3]);
    check_db(db);
    preset_db_free(db);
    free(text);
    return 0;
}
