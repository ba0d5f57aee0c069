/*
 * lookup.c - preset names for the command line, with close-name
 * suggestions (see lookup.h).
 */
#include "lookup.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "opts.h"

/* Lower-case alphanumerics only, so "llama3 8b" and "Llama-3-8B" compare. */
static void squash(const char *s, char *out, size_t len)
{
    size_t k = 0;
    for (; *s && k + 1 < len; s++)
        if (isalnum((unsigned char)*s))
            out[k++] = (char)tolower((unsigned char)*s);
    out[k] = '\0';
}

/* How far names are from want (squashed), -1 when not close. */
static int close_score(const char *want, const char *name, int limit)
{
    char have[128];
    size_t wl = strlen(want);
    squash(name, have, sizeof have);
    int d = engine_edit_distance(want, have);
    if (wl >= 3 && (strstr(have, want) || (strlen(have) >= 3 && strstr(want, have))))
        d = d < 1 ? d : 1;
    else if (wl >= 4 && strncmp(want, have, 4) == 0 && d > limit)
        d = limit;
    return d <= limit ? d : -1;
}

int cli_close_names(const char *name, const char *const *names, int n, char *buf, size_t len,
                    int max)
{
    char want[128];
    squash(name, want, sizeof want);
    size_t wl = strlen(want);
    int limit = wl / 3 > 2 ? (int)(wl / 3) : 2;
    /* Score every candidate, then emit the best `max` in score order. */
    int score[256];
    int m = n < 256 ? n : 256;
    for (int i = 0; i < m; i++)
        score[i] = close_score(want, names[i], limit);
    int written = 0;
    buf[0] = '\0';
    for (int round = 0; round < max; round++) {
        int best = -1;
        for (int i = 0; i < m; i++)
            if (score[i] >= 0 && (best < 0 || score[i] < score[best]))
                best = i;
        if (best < 0)
            break;
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", written ? ", " : "", names[best]);
        score[best] = -1;
        written++;
    }
    return written;
}

const char *cli_closest_name(const char *name, const char *const *names, int n)
{
    const char *best = NULL;
    int best_d = 3;
    for (int i = 0; i < n; i++) {
        int d = engine_edit_distance(name, names[i]);
        int len = (int)strlen(names[i] + strspn(names[i], "-"));
        if (d < best_d && 2 * d < len) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}

void cli_warn_rejected(const preset_db *db, const char *section, const char *flag,
                       const char *name)
{
    const char *why = preset_rejected_override(db, section, name);
    if (why)
        fprintf(stderr,
                "shardscope: warning: %s %s: a user preset overriding it was rejected, so the "
                "entry loaded before it is used: %s\n",
                flag, name, why);
}

/* "FLAG: unknown KIND 'name'; close: a, b (see 'shardscope list KINDs')". */
static void unknown(const preset_db *db, const char *flag, const char *kind, const char *name,
                    const char *const *names, int n, engine_error *err)
{
    char close[256], rejected[96] = "";
    int k = cli_close_names(name, names, n, close, sizeof close, 5);
    /* A broken user preset may be why the name is missing: say so. */
    if (db && db->n_errors > 0)
        snprintf(rejected, sizeof rejected, "; %d preset entr%s rejected", db->n_errors,
                 db->n_errors == 1 ? "y was" : "ies were");
    engine_errorf(err, "%s: unknown %s '%s'%s%s (see 'shardscope list %ss'%s)", flag, kind, name,
                  k > 0 ? "; close: " : "", k > 0 ? close : "", kind, rejected);
}

#define NAMES_OF(arr, count)                                           \
    const char *names[256];                                            \
    int n_names = (count) < 256 ? (count) : 256;                       \
    for (int i_ = 0; i_ < n_names; i_++)                               \
        names[i_] = (arr)[i_].name

const engine_gpu *cli_find_gpu(const preset_db *db, const char *flag, const char *name,
                               engine_error *err)
{
    const engine_gpu *g = preset_find_gpu(db, name);
    if (!g && name[0] && strspn(name, "0123456789") == strlen(name))
        engine_errorf(err, "%s: unknown gpu '%s'; a number is a GPU count: use --gpus %s "
                      "(see 'shardscope list gpus')", flag, name, name);
    else if (!g) {
        NAMES_OF(db->gpus, db->n_gpus);
        unknown(db, flag, "gpu", name, names, n_names, err);
    } else {
        cli_warn_rejected(db, "gpus", flag, g->name);
    }
    return g;
}

const engine_link *cli_find_link(const preset_db *db, const char *flag, const char *name,
                                 engine_error *err)
{
    const engine_link *l = preset_find_link(db, name);
    if (!l) {
        NAMES_OF(db->links, db->n_links);
        unknown(db, flag, "link", name, names, n_names, err);
    } else {
        cli_warn_rejected(db, "links", flag, l->name);
    }
    return l;
}

const engine_framework *cli_find_framework(const preset_db *db, const char *flag,
                                           const char *name, engine_error *err)
{
    const engine_framework *f = preset_find_framework(db, name);
    if (!f) {
        char names[256] = "";
        for (int i = 0; i < db->n_frameworks; i++) {
            size_t u = strlen(names);
            snprintf(names + u, sizeof names - u, "%s%s", i ? "|" : "", db->frameworks[i].name);
        }
        engine_errorf(err, "%s: unknown framework '%s' (expected %s)", flag, name,
                      names[0] ? names : "vllm|sglang|trt-llm|generic");
    } else {
        cli_warn_rejected(db, "frameworks", flag, f->name);
    }
    return f;
}

static int looks_like_path(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') != NULL || (n > 5 && strcasecmp(s + n - 5, ".json") == 0) ||
           access(s, R_OK) == 0;
}

const engine_model *cli_find_model(const preset_db *db, const char *flag, const char *name,
                                   engine_model *storage, int *from_file, engine_error *err)
{
    const engine_model *m = preset_find_model(db, name);
    if (m) {
        cli_warn_rejected(db, "models", flag, m->name);
        return m;
    }
    if (looks_like_path(name)) {
        engine_error e = {{0}};
        memset(storage, 0, sizeof *storage);
        if (preset_model_from_hf_config(name, storage, &e) != 0) {
            engine_errorf(err, "%s: %s", flag, e.msg[0] ? e.msg : "cannot read the config.json");
            return NULL;
        }
        const char *nr = strstr(storage->source, "; " PRESET_HF_NOT_READ);
        if (nr) /* one line: what the importer ignored */
            fprintf(stderr, "note: %s: %s\n", name, nr + 2);
        if (from_file)
            *from_file = 1;
        return storage;
    }
    NAMES_OF(db->models, db->n_models);
    unknown(db, flag, "model", name, names, n_names, err);
    return NULL;
}

const engine_link *cli_default_link(const preset_db *db)
{
    static const char *const prefer[] = {"pcie-4", "pcie4", "pcie-4.0", "pcie4-x16",
                                         "pcie-4.0-x16", "pcie-gen4", "nvlink-4", "nvlink4"};
    if (!db || db->n_links <= 0)
        return NULL;
    for (size_t i = 0; i < sizeof prefer / sizeof prefer[0]; i++) {
        const engine_link *l = preset_find_link(db, prefer[i]);
        if (l)
            return l;
    }
    /* Fall back on any PCIe 4.0 entry, then the first link. */
    for (int i = 0; i < db->n_links; i++) {
        char sq[128];
        squash(db->links[i].name, sq, sizeof sq);
        if (strncmp(sq, "pcie4", 5) == 0 || strncmp(sq, "pcie40", 6) == 0)
            return &db->links[i];
    }
    return &db->links[0];
}

const engine_link *cli_default_link_for(const preset_db *db, const engine_gpu *gpu)
{
    static const struct {
        const char *gpu, *link;
    } usual[] = {
        {"h100-sxm", "nvlink4"}, {"h200", "nvlink4"},   {"b200", "nvlink5"},
        {"a100-40gb", "nvlink3"}, {"a100-80gb", "nvlink3"}, {"h100-pcie", "pcie5"},
        {"mi300x", "pcie5"},     {"rtx-2070", "pcie3"},
    };
    if (gpu)
        for (size_t i = 0; i < sizeof usual / sizeof usual[0]; i++)
            if (!strcasecmp(gpu->name, usual[i].gpu)) {
                const engine_link *l = preset_find_link(db, usual[i].link);
                if (l)
                    return l;
            }
    return cli_default_link(db);
}

int cli_print_db_errors(const preset_db *db)
{
    if (!db)
        return 0;
    for (int i = 0; i < db->n_errors; i++)
        fprintf(stderr, "shardscope: %s\n", db->errors[i]);
    return db->n_errors;
}
