/*
 * preset_util.h - helpers shared by the presets loader (preset.c) and the
 * Hugging Face config reader (hf_config.c): reading a file, describing a
 * cJSON parse failure with line and column, naming JSON types and printing
 * numbers the way error messages show them.  Internal to presets/.
 */
#ifndef SHARDSCOPE_PRESET_UTIL_H
#define SHARDSCOPE_PRESET_UTIL_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "engine.h"

/* Largest JSON file the loaders read. */
#define PRESET_FILE_MAX (16u * 1024u * 1024u)

/* Read a whole file into a NUL-terminated malloc'd buffer (*text, free it).
 * 0 ok; -1 with err = "path: cannot read: <reason>" or "path: file too
 * large ...". */
int preset_util_read_file(const char *path, char **text, size_t *len,
                          engine_error *err);

/* Parse text as one JSON value.  NULL on failure with err filled:
 * "file: empty file" or "file: line L, column C: malformed JSON near '...'"
 * (also for text after the value). */
cJSON *preset_util_parse(const char *file, const char *text, size_t len,
                         engine_error *err);

/* "a string", "a number", "true", "an object" ... */
const char *preset_util_type_name(const cJSON *item);

/* Numbers in messages: integers without a fraction, others with %g,
 * "inf", "-inf", "nan". */
void preset_util_format_number(double v, char *buf, size_t len);

/* Validate an integer JSON value: present, a number, integral, in
 * [lo, hi].  lo is 0 or 1 (the message says "an integer >= 0" or "a
 * positive integer").  On failure writes the reason (without prefix) into
 * why and returns -1. */
int preset_util_check_int(const cJSON *item, double lo, double hi, int *out,
                          char *why, size_t why_len);

/* Replace control characters (a key with "\n" in it...) by '?'. */
void preset_util_one_line(char *s);

#endif /* SHARDSCOPE_PRESET_UTIL_H */
