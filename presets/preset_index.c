/*
 * preset_index.c - the case-insensitive name table of preset_index.h:
 * FNV-1a over ASCII-lowercased bytes, linear probing, load at most 1/2.
 */
#include "preset_index.h"

#include <stdlib.h>
#include <strings.h>

static unsigned hash_name(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 'A' && c <= 'Z')
            c = (unsigned char)(c - 'A' + 'a');
        h = (h ^ c) * 16777619u;
    }
    return h;
}

int preset_index_find(const preset_index *ix, const char *name, preset_index_name_fn name_of,
                      const void *ctx)
{
    if (!ix || !ix->cap || !name)
        return -1;
    for (unsigned j = hash_name(name) & (ix->cap - 1);; j = (j + 1) & (ix->cap - 1)) {
        int s = ix->slot[j];
        if (!s)
            return -1;
        if (!strcasecmp(name_of(ctx, s - 1), name))
            return s - 1;
    }
}

static void put_slot(int *slot, unsigned cap, unsigned h, int i)
{
    unsigned j = h & (cap - 1);
    while (slot[j])
        j = (j + 1) & (cap - 1);
    slot[j] = i + 1;
}

int preset_index_add(preset_index *ix, int i, preset_index_name_fn name_of, const void *ctx)
{
    if ((unsigned)ix->n + 1 > ix->cap / 2) {
        unsigned cap = ix->cap ? ix->cap * 2 : 64;
        if (cap < ix->cap)
            return -1;
        int *slot = calloc(cap, sizeof *slot);
        if (!slot)
            return -1;
        for (unsigned j = 0; j < ix->cap; j++)
            if (ix->slot[j])
                put_slot(slot, cap, hash_name(name_of(ctx, ix->slot[j] - 1)), ix->slot[j] - 1);
        free(ix->slot);
        ix->slot = slot;
        ix->cap = cap;
    }
    put_slot(ix->slot, ix->cap, hash_name(name_of(ctx, i)), i);
    ix->n++;
    return 0;
}

void preset_index_free(preset_index *ix)
{
    free(ix->slot);
    ix->slot = NULL;
    ix->cap = 0;
    ix->n = 0;
}
