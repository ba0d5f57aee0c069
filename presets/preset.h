/*
 * preset.h - the shipped data (models, GPUs, interconnects, serving
 * framework profiles) and the loader
 * that turns JSON into engine structs.
 *
 * The shipped JSON files (presets/NAME.json) are compiled into the binary; JSON files
 * in the user directory ($XDG_CONFIG_HOME/shardscope, default
 * ~/.config/shardscope) add entries or override shipped ones by name.  A
 * broken file or entry never hides the others: it is skipped and one line
 * naming file, entry and field is appended to the database's error list.
 */
#ifndef SHARDSCOPE_PRESET_H
#define SHARDSCOPE_PRESET_H

#include "engine.h"
#include "preset_index.h"

#define PRESET_MAX_ERRORS 64
#define PRESET_PATH_MAX 256
/* Most entries (models, GPUs, links and frameworks together) one presets
 * file may hold; a file with more is rejected whole, with one line naming
 * it (README "Your own presets").  More entries go in more files. */
#define PRESET_MAX_FILE_ENTRIES 10000

/* A rejected entry whose name was already loaded (a user file overriding a
 * shipped preset, or an earlier user file): the earlier entry stays in
 * use, so commands warn whenever they use the name. */
typedef struct preset_rejected {
    char section[12];           /* "models", "gpus", "links", "frameworks" */
    char name[ENGINE_NAME_MAX]; /* as written in the file */
    char msg[ENGINE_ERROR_MAX]; /* the error line: file, entry, field, reason */
} preset_rejected;

typedef struct preset_db {
    engine_model *models;
    int n_models;
    engine_gpu *gpus;
    int n_gpus;
    engine_link *links;
    int n_links;
    engine_framework *frameworks;
    int n_frameworks;
    /* The file each GPU came from (parallel to gpus), for messages about
     * its link names, which are checked once every file is loaded. */
    char (*gpu_files)[PRESET_PATH_MAX];
    /* One line per rejected file or entry, in load order. */
    char errors[PRESET_MAX_ERRORS][ENGINE_ERROR_MAX];
    int n_errors;
    /* The loader's own (presets/preset.c): per kind (models, gpus, links,
     * frameworks), the allocated length of the array and its name index,
     * which make loading n entries O(n).  All zero in a calloc'ed db. */
    int alloc[4];
    preset_index names[4];
    /* Rejected overrides, latest per name (see preset_rejected_override). */
    preset_rejected rejected[PRESET_MAX_ERRORS];
    int n_rejected;
} preset_db;

/* Load the shipped presets and then the user directory.  user_dir NULL
 * means the XDG default; "" means no user directory.  Returns 0 and a new
 * db (free with preset_db_free) even when some entries were rejected (see
 * db->n_errors); -1 only when out of memory (err filled). */
int preset_db_load(const char *user_dir, preset_db **out, engine_error *err);
void preset_db_free(preset_db *db);

/* Lookup by preset name, case-insensitive; NULL if absent. */
const engine_model *preset_find_model(const preset_db *db, const char *name);
const engine_gpu *preset_find_gpu(const preset_db *db, const char *name);
const engine_link *preset_find_link(const preset_db *db, const char *name);
const engine_framework *preset_find_framework(const preset_db *db, const char *name);

/* The error line of a rejected override of the preset `name` in `section`
 * ("models", "gpus", "links", "frameworks"), when the entry in use is the
 * one loaded before it; NULL when none (or a later file replaced it).
 * The string belongs to db. */
const char *preset_rejected_override(const preset_db *db, const char *section,
                                     const char *name);

/* The usual topology of a GPU preset, the one the CLI, the explorer and
 * the validation all default to: its intra link (NVLink for SXM parts,
 * PCIe for PCIe cards, xGMI for MI300X), its scale-out link, and the GPUs
 * on the intra link (the NVLink domain, else the node: 8 unless the
 * preset says).  A link the db lacks comes back NULL. */
void preset_gpu_topology(const preset_db *db, const engine_gpu *g, const engine_link **intra,
                         const engine_link **inter, int *per_node);

/* Parse one JSON text (a presets file: {"models":{...},"gpus":{...},
 * "links":{...},"frameworks":{...}}) into db, merging by name.  `file` names it in errors.
 * Returns 0 when every entry loaded, -1 when something was rejected (the
 * lines are in db->errors; the valid entries are still added). */
int preset_db_add_json(preset_db *db, const char *file, const char *text,
                       size_t len);

/* Read a Hugging Face config.json (llama, mistral, mixtral, qwen2/3,
 * phi3, gemma2/3, llama4, gpt_oss, falcon, gpt2, gpt_neox, deepseek_v3 ...)
 * into *out.  0 ok, -1 with err (an unknown model_type names the supported
 * ones).  Keys it neither reads nor knows to leave the counts alone are
 * named in out->source after PRESET_HF_NOT_READ. */
#define PRESET_HF_NOT_READ "not read:"
int preset_model_from_hf_config(const char *path, engine_model *out,
                                engine_error *err);

/* Check the ranges and consistency of a filled model (positive sizes,
 * kv_heads dividing heads, top_k <= experts, dense_layers < layers, ...).
 * 0 ok; -1 with err = "<where>: <field>: <reason>". */
/* The group-limited routing fields of an MoE model (n_group, topk_group):
 * both 0 (unlimited), or n_group dividing the experts, 1 <= topk_group <=
 * n_group and topk_group groups holding at least top_k experts.  kg / kt
 * name the two fields in the message.  0 ok, -1 with why set. */
int preset_moe_groups_check(const engine_model *m, const char *kg, const char *kt, char *why,
                            size_t wl);
int preset_model_check(const engine_model *m, const char *where,
                       engine_error *err);

/* The user directory actually used (XDG rules); writes into buf. */
const char *preset_user_dir(char *buf, size_t len);

#endif /* SHARDSCOPE_PRESET_H */
