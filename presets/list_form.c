/*
 * list_form.c - `shardscope list links --json` output read as a presets
 * file (see list_form.h): SI units back to the file's units, the array of
 * entries back to an object of named entries.
 */
#include "list_form.h"

#include <stdio.h>
#include <string.h>

/* list key -> file key and the factor from SI to the file's unit. */
static const struct {
    const char *list, *file;
    double per_si;
} LINK_NUMS[] = {
    {"alpha_s", "alpha_us", 1e6},
    {"base_s", "base_us", 1e6},
    {"eager_s", "eager_us", 1e6},
    {"bytes_per_s", "gbs", 1e-9},
};
#define N_LINK_NUMS (sizeof LINK_NUMS / sizeof LINK_NUMS[0])

/* {"gpus", "points": [{"bytes", "time_s"}], "source"} -> {"gpus", "us":
 * [[bytes, us]], "source"}; other keys copied.  NULL with why. */
static cJSON *curve_of(const cJSON *c, const char *where, char *why, size_t wl)
{
    cJSON *out = cJSON_CreateObject();
    if (!out || !cJSON_IsObject(c)) {
        snprintf(why, wl, "%s: expected {\"gpus\": N, \"points\": [...]}", where);
        cJSON_Delete(out);
        return NULL;
    }
    for (const cJSON *k = c->child; k; k = k->next) {
        if (!k->string || strcmp(k->string, "points")) {
            cJSON_AddItemToObject(out, k->string ? k->string : "", cJSON_Duplicate(k, 1));
            continue;
        }
        cJSON *us = cJSON_AddArrayToObject(out, "us");
        int i = 0;
        for (const cJSON *p = k->child; us && p; p = p->next, i++) {
            const cJSON *b = cJSON_GetObjectItemCaseSensitive(p, "bytes");
            const cJSON *t = cJSON_GetObjectItemCaseSensitive(p, "time_s");
            if (!cJSON_IsNumber(b) || !cJSON_IsNumber(t)) {
                snprintf(why, wl, "%s.points[%d]: expected {\"bytes\": N, \"time_s\": T}", where,
                         i);
                cJSON_Delete(out);
                return NULL;
            }
            double pair[2] = {b->valuedouble, t->valuedouble * 1e6};
            cJSON_AddItemToArray(us, cJSON_CreateDoubleArray(pair, 2));
        }
    }
    return out;
}

/* One entry of the list: its keys in file form into `to`.  0, -1 with why. */
static int link_of(const cJSON *e, const char *where, cJSON *to, char *why, size_t wl)
{
    for (const cJSON *k = e->child; k; k = k->next) {
        const char *key = k->string ? k->string : "";
        if (!strcmp(key, "name"))
            continue;
        size_t n = 0;
        while (n < N_LINK_NUMS && strcmp(key, LINK_NUMS[n].list))
            n++;
        cJSON *v = NULL;
        if (n < N_LINK_NUMS) {
            if (!cJSON_IsNumber(k)) {
                snprintf(why, wl, "%s.%s: expected a number", where, key);
                return -1;
            }
            v = cJSON_CreateNumber(k->valuedouble * LINK_NUMS[n].per_si);
            key = LINK_NUMS[n].file;
        } else if (!strcmp(key, "curves") && cJSON_IsObject(k)) {
            v = cJSON_CreateObject();
            for (const cJSON *c = k->child; v && c; c = c->next) {
                char at[160];
                snprintf(at, sizeof at, "%s.curves.%.40s", where, c->string ? c->string : "");
                cJSON *cv = curve_of(c, at, why, wl);
                if (!cv) {
                    cJSON_Delete(v);
                    return -1;
                }
                cJSON_AddItemToObject(v, c->string ? c->string : "", cv);
            }
        } else {
            v = cJSON_Duplicate(k, 1);
        }
        if (!v) {
            snprintf(why, wl, "%s: out of memory", where);
            return -1;
        }
        cJSON_AddItemToObject(to, key, v);
    }
    return 0;
}

cJSON *preset_list_form_links(const cJSON *arr, char *why, size_t wl)
{
    cJSON *out = cJSON_CreateObject();
    if (!out) {
        snprintf(why, wl, "links: out of memory");
        return NULL;
    }
    int i = 0;
    for (const cJSON *e = arr ? arr->child : NULL; e; e = e->next, i++) {
        char where[32];
        snprintf(where, sizeof where, "links[%d]", i);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
        if (!cJSON_IsObject(e) || !cJSON_IsString(name) || !name->valuestring) {
            snprintf(why, wl, "%s: expected an object with a \"name\" (as 'shardscope list "
                              "links --json' prints)", where);
            cJSON_Delete(out);
            return NULL;
        }
        cJSON *entry = cJSON_CreateObject();
        if (!entry || link_of(e, where, entry, why, wl) != 0) {
            if (!entry)
                snprintf(why, wl, "%s: out of memory", where);
            cJSON_Delete(entry);
            cJSON_Delete(out);
            return NULL;
        }
        cJSON_AddItemToObject(out, name->valuestring, entry);
    }
    return out;
}
