/*
 * preset_index.h - a case-insensitive (ASCII) name -> position table with
 * open addressing, so that merging n presets by name, and finding a name
 * defined twice in one file, are O(n) instead of O(n^2).  The table holds
 * positions only; the names stay in the caller's array, read through a
 * callback.  Internal to presets/ (preset.c).
 */
#ifndef SHARDSCOPE_PRESET_INDEX_H
#define SHARDSCOPE_PRESET_INDEX_H

/* All zero is an empty table (a calloc'ed preset_db holds empty ones). */
typedef struct preset_index {
    int *slot;     /* position + 1; 0 is free */
    unsigned cap;  /* a power of two, or 0 */
    int n;         /* positions recorded */
} preset_index;

/* The name at position i of the caller's array. */
typedef const char *(*preset_index_name_fn)(const void *ctx, int i);

/* The position recorded under name (compared with strcasecmp), or -1. */
int preset_index_find(const preset_index *ix, const char *name, preset_index_name_fn name_of,
                      const void *ctx);

/* Record position i under name_of(ctx, i), which the table does not hold
 * yet; the table doubles when half full.  0 ok; -1 out of memory (the
 * table is unchanged). */
int preset_index_add(preset_index *ix, int i, preset_index_name_fn name_of, const void *ctx);

/* Free the slots; the table is empty again. */
void preset_index_free(preset_index *ix);

#endif /* SHARDSCOPE_PRESET_INDEX_H */
