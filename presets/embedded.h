/*
 * embedded.h - the shipped presets/NAME.json files, compiled into the binary by
 * mk/embed.sh (build/gen/presets_embedded.c).  len is 0: use strlen.
 */
#ifndef SHARDSCOPE_PRESET_EMBEDDED_H
#define SHARDSCOPE_PRESET_EMBEDDED_H

#include <stddef.h>

typedef struct preset_blob {
    const char *file; /* path as shipped, e.g. "presets/models.json" */
    const char *text; /* the whole file */
    size_t len;       /* 0: NUL-terminated, use strlen */
} preset_blob;

extern const preset_blob preset_blobs[];
extern const int preset_blob_count;

#endif /* SHARDSCOPE_PRESET_EMBEDDED_H */
