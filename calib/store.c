/*
 * store.c - where calibrations live between runs: one JSON file per device
 * under $XDG_CONFIG_HOME/shardscope/calibration, written atomically (a
 * temporary file in the same directory, fsync, rename, fsync of the
 * directory) so a crash leaves either the old file or the new one, never a
 * torn one.  Also the name heuristic that ties a driver's device name to a
 * GPU preset, and the loaders that give the engine its engine_calib: a GPU
 * preset only ever receives a "cuda" calibration matched to it; CPU results
 * are applied only when a file is named explicitly.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "calib.h"

#define STORE_MAX_FILE (16u << 20)

/* --- device name -> preset ------------------------------------------ */

#define TOK_MAX 16
#define TOK_LEN 24

typedef struct toks {
    char t[TOK_MAX][TOK_LEN];
    int n;
} toks;

static void tokenize(const char *s, toks *out)
{
    out->n = 0;
    while (s && *s && out->n < TOK_MAX) {
        while (*s && !isalnum((unsigned char)*s))
            s++;
        int len = 0;
        while (*s && isalnum((unsigned char)*s)) {
            if (len < TOK_LEN - 1)
                out->t[out->n][len++] = (char)tolower((unsigned char)*s);
            s++;
        }
        if (len > 0) {
            out->t[out->n][len] = '\0';
            out->n++;
        }
    }
}

static int has_tok(const toks *t, const char *w)
{
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->t[i], w))
            return 1;
    return 0;
}

/* "80gb", "40gb": a memory size, not a model. */
static int is_mem_tok(const char *w)
{
    size_t n = strlen(w);
    if (n < 3 || strcmp(w + n - 2, "gb") != 0)
        return 0;
    for (size_t i = 0; i + 2 < n; i++)
        if (!isdigit((unsigned char)w[i]))
            return 0;
    return 1;
}

static int has_digit(const char *w)
{
    for (; *w; w++)
        if (isdigit((unsigned char)*w))
            return 1;
    return 0;
}

/* Words that make a different product of the same number. */
static const char *const VARIANTS[] = {"super", "ti", "max", "mobile",
                                       "laptop", "nvl", "mig"};

static int has_sxm(const toks *t)
{
    for (int i = 0; i < t->n; i++)
        if (!strncmp(t->t[i], "sxm", 3))
            return 1;
    return 0;
}

int calib_match_gpu_preset(const char *device, double memory_bytes,
                           const engine_gpu *gpus, int n_gpus)
{
    if (!device || !gpus || n_gpus <= 0)
        return -1;
    toks d;
    tokenize(device, &d);
    int best = -1, best_score = -1000000;
    for (int g = 0; g < n_gpus; g++) {
        toks pn, pd, all;
        tokenize(gpus[g].name, &pn);
        tokenize(gpus[g].display, &pd);
        all = pn;
        for (int i = 0; i < pd.n && all.n < TOK_MAX; i++)
            if (!has_tok(&all, pd.t[i]))
                snprintf(all.t[all.n++], TOK_LEN, "%s", pd.t[i]);
        /* The model number: first token of the preset name with a digit
         * that is not a memory size ("h100", "4090", "l40s", "mi300x"). */
        const char *primary = NULL;
        for (int i = 0; i < pn.n && !primary; i++)
            if (has_digit(pn.t[i]) && !is_mem_tok(pn.t[i]))
                primary = pn.t[i];
        if (!primary || !has_tok(&d, primary))
            continue;
        /* A variant word on one side only is another product (an RTX 2070
         * SUPER is not an RTX 2070, an H100 NVL not an H100 SXM). */
        int other = 0;
        for (size_t v = 0; v < sizeof VARIANTS / sizeof VARIANTS[0]; v++)
            if (has_tok(&d, VARIANTS[v]) != has_tok(&all, VARIANTS[v]))
                other = 1;
        if (other)
            continue;
        int score = 0;
        for (int i = 0; i < all.n; i++)
            if (all.t[i] != primary && strcmp(all.t[i], primary) != 0 &&
                has_tok(&d, all.t[i]))
                score += 2;
        /* Form factor.  The driver names an SXM part without saying so
         * ("NVIDIA H100 80GB HBM3") but says "PCIe" for the PCIe one. */
        int d_pcie = has_tok(&d, "pcie"), p_pcie = has_tok(&all, "pcie");
        if (d_pcie)
            score += p_pcie ? 3 : has_sxm(&all) ? -3 : 0;
        else
            score += p_pcie ? -2 : has_sxm(&all) ? 1 : 0;
        /* Memory size in the device name ("80gb") or from the driver. */
        for (int i = 0; i < d.n; i++) {
            if (!is_mem_tok(d.t[i]))
                continue;
            double gb = atof(d.t[i]);
            double pg = gpus[g].memory_bytes;
            if (pg > 0 && (fabs(pg / 1e9 - gb) < 0.06 * gb ||
                           fabs(pg / 1073741824.0 - gb) < 0.06 * gb))
                score += 2;
            else if (pg > 0)
                score -= 2;
        }
        if (memory_bytes > 0 && gpus[g].memory_bytes > 0) {
            double ratio = memory_bytes / gpus[g].memory_bytes;
            if (ratio > 0.88 && ratio < 1.15)
                score += 1;
        }
        if (score > best_score) {
            best_score = score;
            best = g;
        }
    }
    return best;
}

/* --- paths ------------------------------------------------------------- */

const char *calib_store_dir(char *buf, size_t len)
{
    char dir[4096];
    if (engine_config_dir(getenv("XDG_CONFIG_HOME"), getenv("HOME"), dir, sizeof dir) != 0)
        return NULL;
    int n = snprintf(buf, len, "%s/calibration", dir);
    if (n < 0 || (size_t)n >= len)
        return NULL;
    return buf;
}

void calib_store_file_name(const char *device, char *buf, size_t len)
{
    size_t o = 0;
    int dash = 0;
    for (const char *p = device ? device : ""; *p && o + 6 < len; p++) {
        unsigned char c = (unsigned char)*p;
        if (isalnum(c)) {
            if (dash && o > 0)
                buf[o++] = '-';
            dash = 0;
            if (o + 6 < len)
                buf[o++] = (char)tolower(c);
        } else {
            dash = 1;
        }
    }
    if (o == 0 && len > 12)
        o = (size_t)snprintf(buf, len, "device");
    snprintf(buf + o, len - o, ".json");
}

/* mkdir -p for the directory part of path. */
static int make_dirs(const char *dir, engine_error *err)
{
    char tmp[4096];
    int n = snprintf(tmp, sizeof tmp, "%s", dir);
    if (n < 0 || (size_t)n >= sizeof tmp) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.300s: path too long", dir);
        return -1;
    }
    for (char *p = tmp + 1; ; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(tmp, 0755) != 0 && errno != EEXIST) {
                if (err)
                    snprintf(err->msg, sizeof err->msg, "%.300s: cannot create "
                             "the directory: %s", tmp, strerror(errno));
                return -1;
            }
            *p = c;
            if (c == '\0')
                break;
        }
    }
    return 0;
}

int calib_store_save(const calib_result *r, const char *path, int mode,
                     engine_error *err)
{
    char dir[4096];
    int n = snprintf(dir, sizeof dir, "%s", path);
    if (n < 0 || (size_t)n >= sizeof dir) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.300s: path too long", path);
        return -1;
    }
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
    } else if (slash) {
        dir[1] = '\0';
    } else {
        snprintf(dir, sizeof dir, ".");
    }
    if (strcmp(dir, ".") != 0 && make_dirs(dir, err) != 0)
        return -1;
    char *text = calib_result_to_json(r);
    if (!text) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.300s: out of memory", path);
        return -1;
    }
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.300s: cannot create a "
                     "temporary file: %s", path, strerror(errno));
        free(text);
        return -1;
    }
    (void)fchmod(fd, 0644);
    size_t len = strlen(text), off = 0;
    int rc = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            rc = -1;
            break;
        }
        off += (size_t)w;
    }
    if (rc == 0 && (write(fd, "\n", 1) != 1 || fsync(fd) != 0))
        rc = -1;
    int saved = errno;
    if (close(fd) != 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    free(text);
    if (rc != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.300s: cannot write: %s", tmp,
                     strerror(saved));
        unlink(tmp);
        return -1;
    }
    if (mode == CALIB_STORE_STOP_AFTER_WRITE)
        return 0; /* the simulated crash: written, never renamed */
    if (rename(tmp, path) != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.300s: cannot rename the "
                     "temporary file into place: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    /* Make the rename itself durable. */
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    return 0;
}

int calib_store_save_default(const calib_result *r, char *path_out,
                             size_t path_len, engine_error *err)
{
    char dir[4096], name[ENGINE_NAME_MAX + 8], path[4200];
    if (!calib_store_dir(dir, sizeof dir)) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "cannot find the configuration directory: neither "
                     "XDG_CONFIG_HOME nor HOME is set");
        return -1;
    }
    calib_store_file_name(r->dev.name, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (path_out)
        snprintf(path_out, path_len, "%s", path);
    return calib_store_save(r, path, CALIB_STORE_NORMAL, err);
}

/* --- loading ------------------------------------------------------------ */

static char *read_file(const char *path, engine_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.300s: cannot open: %s", path,
                     strerror(errno));
        return NULL;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            if (cap > STORE_MAX_FILE) {
                if (err)
                    snprintf(err->msg, sizeof err->msg,
                             "%.300s: larger than %u bytes", path, STORE_MAX_FILE);
                free(buf);
                fclose(f);
                return NULL;
            }
            char *nb = realloc(buf, cap);
            if (!nb) {
                if (err)
                    snprintf(err->msg, sizeof err->msg, "%.300s: out of memory", path);
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.300s: read error", path);
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

static int get_str(const cJSON *o, const char *key, const char *path, char *out,
                   size_t len, int required, engine_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v && !required) {
        out[0] = '\0';
        return 0;
    }
    if (!cJSON_IsString(v) || !v->valuestring) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.300s: %s: expected a string",
                     path, key);
        return -1;
    }
    snprintf(out, len, "%s", v->valuestring);
    return 0;
}

static int get_num(const cJSON *o, const char *obj, const char *key,
                   const char *path, double lo, double hi, double *out,
                   engine_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < lo ||
        v->valuedouble > hi) {
        if (err) {
            if (cJSON_IsNumber(v))
                snprintf(err->msg, sizeof err->msg,
                         "%.300s: %s.%s: expected a number in [%g, %g], got %g",
                         path, obj, key, lo, hi, v->valuedouble);
            else
                snprintf(err->msg, sizeof err->msg,
                         "%.300s: %s.%s: expected a number in [%g, %g]%s", path,
                         obj, key, lo, hi, v ? "" : ", missing");
        }
        return -1;
    }
    *out = v->valuedouble;
    return 0;
}

static int load_text(const char *path, const char *text, engine_calib *out,
                     char *preset, size_t preset_len, engine_error *err)
{
    memset(out, 0, sizeof *out);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 0);
    if (!root || !cJSON_IsObject(root)) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "%.300s: not a calibration file (invalid JSON near byte %ld)",
                     path, end ? (long)(end - text) : 0L);
        cJSON_Delete(root);
        return -1;
    }
    int rc = -1;
    char pre[ENGINE_NAME_MAX];
    if (get_str(root, "backend", path, out->backend, sizeof out->backend, 1, err) ||
        get_str(root, "device", path, out->device, sizeof out->device, 1, err) ||
        get_str(root, "date", path, out->date, sizeof out->date, 1, err) ||
        get_str(root, "preset", path, pre, sizeof pre, 0, err))
        goto done;
    if (strcmp(out->backend, "cuda") != 0 && strcmp(out->backend, "cpu") != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "%.300s: backend: expected \"cuda\" or \"cpu\", got \"%.32s\"",
                     path, out->backend);
        goto done;
    }
    const cJSON *rf = cJSON_GetObjectItemCaseSensitive(root, "roofline");
    if (!cJSON_IsObject(rf)) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "%.300s: roofline: expected an object", path);
        goto done;
    }
    /* Efficiencies above 1 mean the roof was wrong; a little slack covers
     * boost clocks above the datasheet figure. */
    if (get_num(rf, "roofline", "eta_compute", path, 1e-6, 2.0, &out->eta_compute, err) ||
        get_num(rf, "roofline", "eta_memory", path, 1e-6, 2.0, &out->eta_memory, err) ||
        get_num(rf, "roofline", "overhead_s", path, 0.0, 1.0, &out->layer_overhead_s, err))
        goto done;
    if (preset)
        snprintf(preset, preset_len, "%s", pre);
    out->measured = 1;
    rc = 0;
done:
    if (rc != 0)
        memset(out, 0, sizeof *out);
    cJSON_Delete(root);
    return rc;
}

int calib_store_load_file(const char *path, engine_calib *out, char *preset_out,
                          size_t preset_len, engine_error *err)
{
    memset(out, 0, sizeof *out);
    char *text = read_file(path, err);
    if (!text)
        return -1;
    int rc = load_text(path, text, out, preset_out, preset_len, err);
    free(text);
    return rc;
}

/* Scan dir for the newest valid "cuda" calibration naming the preset: 1
 * found (*out, and its path when path_out), 0 none, -1 when the only
 * candidates naming the preset are broken (err filled). */
static int pick_for_gpu(const char *dir, const char *gpu_preset_name, engine_calib *out,
                        char *path_out, size_t path_len, engine_error *err)
{
    memset(out, 0, sizeof *out);
    DIR *d = opendir(dir);
    if (!d)
        return 0; /* no calibration yet */
    int found = 0, rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        /* Only finished files: temporaries end in .tmp.XXXXXX. */
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0 || e->d_name[0] == '.')
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = read_file(path, NULL);
        if (!text)
            continue;
        engine_calib c;
        char preset[ENGINE_NAME_MAX] = "";
        engine_error ferr = {{0}};
        int lrc = load_text(path, text, &c, preset, sizeof preset, &ferr);
        if (lrc != 0) {
            /* Broken: it counts only when it names this preset. */
            cJSON *j = cJSON_Parse(text);
            const cJSON *p = j ? cJSON_GetObjectItemCaseSensitive(j, "preset") : NULL;
            if (cJSON_IsString(p) && p->valuestring &&
                !strcasecmp(p->valuestring, gpu_preset_name) && !found) {
                if (err)
                    *err = ferr;
                rc = -1;
            }
            cJSON_Delete(j);
            free(text);
            continue;
        }
        free(text);
        if (strcasecmp(preset, gpu_preset_name) != 0 || strcmp(c.backend, "cuda") != 0)
            continue;
        if (!found || strcmp(c.date, out->date) > 0) {
            *out = c;
            found = 1;
            if (path_out && path_len)
                snprintf(path_out, path_len, "%s", path);
        }
    }
    closedir(d);
    if (found)
        return 1;
    memset(out, 0, sizeof *out);
    return rc;
}

int calib_store_load_for_gpu_in(const char *dir, const char *gpu_preset_name,
                                engine_calib *out, engine_error *err)
{
    memset(out, 0, sizeof *out);
    char dbuf[4096];
    if (!dir)
        dir = calib_store_dir(dbuf, sizeof dbuf);
    if (!dir || !gpu_preset_name || !gpu_preset_name[0])
        return 0;
    return pick_for_gpu(dir, gpu_preset_name, out, NULL, 0, err);
}

int calib_store_load_for_gpu(const char *gpu_preset_name, engine_calib *out)
{
    int rc = calib_store_load_for_gpu_in(NULL, gpu_preset_name, out, NULL);
    if (rc != 1) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    return 1;
}

/* --- a saved file back as a calib_result (the explorer's view) ------------ */

static double num_or(const cJSON *o, const char *key, double dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : dflt;
}

static void str_or(const cJSON *o, const char *key, char *out, size_t len)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsString(v) && v->valuestring)
        snprintf(out, len, "%s", v->valuestring);
}

static int load_result_points(const cJSON *root, const char *path, calib_result *out,
                              engine_error *err)
{
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(root, "points");
    if (!pts)
        return 0;
    if (!cJSON_IsArray(pts)) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.300s: points: expected an array", path);
        return -1;
    }
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, pts)
    {
        char kind[16] = "";
        str_or(e, "kind", kind, sizeof kind);
        calib_point p;
        memset(&p, 0, sizeof p);
        if (!strcmp(kind, "prefill"))
            p.kind = CALIB_POINT_PREFILL;
        else if (!strcmp(kind, "decode"))
            p.kind = CALIB_POINT_DECODE;
        else if (!strcmp(kind, "copy"))
            p.kind = CALIB_POINT_COPY;
        else {
            if (err)
                snprintf(err->msg, sizeof err->msg,
                         "%.200s: points[%d].kind: expected \"prefill\", \"decode\" or "
                         "\"copy\"", path, i);
            return -1;
        }
        double hidden = num_or(e, "hidden", -1), batch = num_or(e, "batch", -1),
               seq = num_or(e, "seq", -1);
        p.flops = num_or(e, "flops", -1);
        p.bytes = num_or(e, "bytes", -1);
        p.time_s = num_or(e, "time_s", -1);
        if (hidden < 0 || hidden > 1e7 || batch < 0 || batch > 1e9 || seq < 0 || seq > 1e9 ||
            p.flops < 0 || p.bytes < 0 || !(p.time_s > 0)) {
            if (err)
                snprintf(err->msg, sizeof err->msg,
                         "%.200s: points[%d]: expected non-negative hidden, batch, seq, "
                         "flops, bytes and a positive time_s", path, i);
            return -1;
        }
        p.hidden = (int)hidden;
        p.batch = (int)batch;
        p.seq = (int)seq;
        if (calib_result_add_point(out, &p) != 0) {
            if (err)
                snprintf(err->msg, sizeof err->msg, "%.300s: out of memory", path);
            return -1;
        }
        i++;
    }
    return 0;
}

int calib_store_load_result(const char *path, calib_result *out, engine_error *err)
{
    memset(out, 0, sizeof *out);
    char *text = read_file(path, err);
    if (!text)
        return -1;
    /* The same checks as for applying it (backend, device, date, roofline). */
    engine_calib ec;
    if (load_text(path, text, &ec, out->preset, sizeof out->preset, err) != 0) {
        free(text);
        memset(out, 0, sizeof *out);
        return -1;
    }
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.300s: out of memory", path);
        return -1;
    }
    snprintf(out->dev.backend, sizeof out->dev.backend, "%s", ec.backend);
    snprintf(out->dev.name, sizeof out->dev.name, "%s", ec.device);
    snprintf(out->date, sizeof out->date, "%s", ec.date);
    str_or(root, "notes", out->notes, sizeof out->notes);
    str_or(root, "peak_source", out->peak_source, sizeof out->peak_source);
    out->best_gemm_flops = num_or(root, "best_gemm_flops", 0);
    out->copy_bandwidth = num_or(root, "copy_bandwidth_bytes_per_s", 0);
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(root, "device_info");
    if (cJSON_IsObject(dev)) {
        str_or(dev, "dtype", out->dev.dtype, sizeof out->dev.dtype);
        out->dev.index = (int)num_or(dev, "index", 0);
        out->dev.count = (int)num_or(dev, "count", 0);
        out->dev.sm_count = (int)num_or(dev, "sm_count", 0);
        out->dev.memory_bytes = num_or(dev, "memory_bytes", 0);
    }
    int rc = load_result_points(root, path, out, err);
    const cJSON *pl = cJSON_GetObjectItemCaseSensitive(root, "power_law");
    if (rc == 0 && cJSON_IsObject(pl)) {
        out->power_law.a = num_or(pl, "a", 0);
        out->power_law.beta = num_or(pl, "beta", 0);
        out->power_law.mape = num_or(pl, "mape", 0);
        out->power_law.r2 = num_or(pl, "r2", 0);
        out->power_law.n = (int)num_or(pl, "n", 0);
        out->power_law_mape_all = num_or(pl, "mape_with_decode", 0);
        out->has_power_law = out->power_law.a > 0;
    } else {
        str_or(root, "power_law_error", out->power_law_error, sizeof out->power_law_error);
    }
    const cJSON *rf = cJSON_GetObjectItemCaseSensitive(root, "roofline");
    calib_roofline *f = &out->roofline;
    char form[96] = "";
    str_or(rf, "form", form, sizeof form);
    f->form = !strncmp(form, "max", 3) ? CALIB_ROOFLINE_MAX : CALIB_ROOFLINE_ENGINE;
    f->eta_compute = ec.eta_compute;
    f->eta_memory = ec.eta_memory;
    f->overhead_s = ec.layer_overhead_s;
    f->peak_flops = num_or(rf, "peak_flops", 0);
    f->bandwidth = num_or(rf, "bandwidth_bytes_per_s", 0);
    f->mape = num_or(rf, "mape", 0);
    f->r2 = num_or(rf, "r2", 0);
    f->n = (int)num_or(rf, "n", 0);
    f->n_compute_bound = (int)num_or(rf, "n_compute_bound", 0);
    f->eta_memory_bound_only = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rf,
                                                                             "eta_memory_lower_bound"));
    f->eta_compute_bound_only = cJSON_IsTrue(
        cJSON_GetObjectItemCaseSensitive(rf, "eta_compute_lower_bound"));
    out->roofline_mape_prefill = num_or(rf, "mape_prefill", 0);
    out->roofline_mape_decode = num_or(rf, "mape_decode", 0);
    str_or(rf, "note", out->roofline_note, sizeof out->roofline_note);
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(root, "comm");
    if (rc == 0 && cJSON_IsObject(c)) {
        str_or(c, "label", out->comm_label, sizeof out->comm_label);
        out->comm_fit.alpha_s = num_or(c, "alpha_s", 0);
        out->comm_fit.bandwidth = num_or(c, "bandwidth_bytes_per_s", 0);
        out->comm_fit.r2 = num_or(c, "r2", 0);
        out->comm_fit.mape = num_or(c, "mape", 0);
        out->has_comm_fit = out->comm_fit.bandwidth > 0;
        const cJSON *cp = cJSON_GetObjectItemCaseSensitive(c, "points"), *e;
        cJSON_ArrayForEach(e, cp)
        {
            double b = num_or(e, "bytes", -1), t = num_or(e, "time_s", -1);
            if (b > 0 && t > 0 && calib_result_add_comm(out, b, t) != 0)
                break;
        }
        out->comm_fit.n = out->n_comm;
    }
    str_or(root, "comm_note", out->comm_error, sizeof out->comm_error);
    cJSON_Delete(root);
    if (rc != 0)
        calib_result_free(out);
    return rc;
}

int calib_store_load_result_for_gpu_in(const char *dir, const char *gpu_preset_name,
                                       calib_result *out, char *path_out, size_t path_len,
                                       engine_error *err)
{
    memset(out, 0, sizeof *out);
    if (path_out && path_len)
        path_out[0] = '\0';
    char dbuf[4096];
    if (!dir)
        dir = calib_store_dir(dbuf, sizeof dbuf);
    if (!dir || !gpu_preset_name || !gpu_preset_name[0])
        return 0;
    /* The file calib_store_load_for_gpu_in picks. */
    engine_calib c;
    char best[4400] = "";
    if (pick_for_gpu(dir, gpu_preset_name, &c, best, sizeof best, NULL) != 1)
        return 0;
    if (path_out)
        snprintf(path_out, path_len, "%s", best);
    return calib_store_load_result(best, out, err) == 0 ? 1 : -1;
}
