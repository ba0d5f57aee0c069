/*
 * lookup.h - names to presets for the command line, with suggestions:
 * "--gpu: unknown gpu 'h100'; close: h100-sxm, h100-pcie (see 'shardscope
 * list gpus')".  The load step after parsing (opts.h): these read the
 * preset db and, for --model PATH, a Hugging Face config.json.
 *
 * Errors go into err->msg without the "shardscope CMD: " prefix (the
 * caller prints it with cli_fail); functions return NULL then.
 */
#ifndef SHARDSCOPE_CLI_LOOKUP_H
#define SHARDSCOPE_CLI_LOOKUP_H

#include <stddef.h>

#include "engine.h"
#include "preset.h"

/* Write into buf up to `max` candidate names close to `name` (edit
 * distance, shared prefix or substring, ignoring case and punctuation),
 * best first, comma-separated.  Returns the number written. */
int cli_close_names(const char *name, const char *const *names, int n, char *buf, size_t len,
                    int max);

/* The one name of names[0..n) closest to `name` for a "did you mean"
 * line: within two edits (case-insensitive) and fewer than half of its
 * other letters (skip leading dashes), the first of equals; NULL when
 * none is that close. */
const char *cli_closest_name(const char *name, const char *const *names, int n);

/* Presets by name; flag ("--gpu") names the option in the message. */
const engine_gpu *cli_find_gpu(const preset_db *db, const char *flag, const char *name,
                               engine_error *err);
const engine_link *cli_find_link(const preset_db *db, const char *flag, const char *name,
                                 engine_error *err);
const engine_framework *cli_find_framework(const preset_db *db, const char *flag,
                                           const char *name, engine_error *err);
/* --model: a preset name, or a path to a Hugging Face config.json (read
 * into *storage, *from_file set to 1; from_file may be NULL). */
const engine_model *cli_find_model(const preset_db *db, const char *flag, const char *name,
                                   engine_model *storage, int *from_file, engine_error *err);

/* The link used when --link is not given: the first of a short list of
 * common preset names present in db, else the db's first link; NULL when
 * the db has no links. */
const engine_link *cli_default_link(const preset_db *db);
/* The link used when --link is not given for a GPU: the GPU's usual
 * scale-up interconnect (H100 SXM / H200: nvlink4, B200: nvlink5, A100:
 * nvlink3, H100 PCIe / MI300X: pcie5, RTX 2070: pcie3), else
 * cli_default_link(db).  gpu may be NULL. */
const engine_link *cli_default_link_for(const preset_db *db, const engine_gpu *gpu);

/* When a user file's override of preset `name` in `section` ("models",
 * "gpus", "links", "frameworks") was rejected, so that the entry loaded
 * before it is in use, say so on stderr: "shardscope: warning: FLAG NAME:
 * ... : FILE: NAME: FIELD: REASON".  The cli_find_* functions call it for
 * every name they resolve; callers call it for presets used by default. */
void cli_warn_rejected(const preset_db *db, const char *section, const char *flag,
                       const char *name);

/* Print the preset loader's rejected entries on stderr (one per line,
 * prefixed "shardscope: "); returns db->n_errors. */
int cli_print_db_errors(const preset_db *db);

#endif /* SHARDSCOPE_CLI_LOOKUP_H */
