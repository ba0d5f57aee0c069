/*
 * list_form.h - the second shape a presets file may take: what `shardscope
 * list links --json` prints, so that output loads back as a user file.
 */
#ifndef SHARDSCOPE_LIST_FORM_H
#define SHARDSCOPE_LIST_FORM_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Turn the "links" array of `list links --json` ([{"name", "display",
 * "alpha_s", "base_s", "eager_s", "bytes_per_s", "kind", "mesh_links",
 * "curves": {OP: {"gpus", "points": [{"bytes", "time_s"}]}}, "source"}])
 * into the file form: an object of named entries in file units (alpha_us,
 * base_us, eager_us, gbs, curves with "us": [[bytes, us]]).  Keys it does
 * not know are copied as they are, so the loader names them.  Returns a
 * new object (the caller deletes it), or NULL with why = "links[I]: ..."
 * (not an object, no name, a value of the wrong type, out of memory). */
cJSON *preset_list_form_links(const cJSON *arr, char *why, size_t wl);

#endif /* SHARDSCOPE_LIST_FORM_H */
