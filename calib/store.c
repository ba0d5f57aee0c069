/*
 * store.c - where calibrations live between runs: the directory
 * ($XDG_CONFIG_HOME/shardscope/calibration) and one file name per device,
 * the atomic save (a temporary file in the same directory, fsync, rename,
 * fsync of the directory: a crash leaves either the old file or the new
 * one, never a torn one; the temporary file carries the writer's PID,
 * "<name>.json.tmp.<pid>.XXXXXX", and each save removes those of writers
 * that are gone), and which file applies: a GPU preset only ever
 * receives the newest "cuda" calibration naming it; CPU results are
 * applied only when a file is named explicitly.  The JSON itself is
 * result_json.c's.
 */
#include <ctype.h>
#include <signal.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "calib.h"
#include "internal.h"

#define STORE_MAX_FILE (16u << 20)

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

/* The directory part of path into dir ("." when none).  0 / -1 (err). */
static int dir_of(const char *path, char *dir, size_t len, engine_error *err)
{
    int n = snprintf(dir, len, "%s", path);
    if (n < 0 || (size_t)n >= len) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.300s: path too long", path);
        return -1;
    }
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir)
        *slash = '\0';
    else if (slash)
        dir[1] = '\0';
    else
        snprintf(dir, len, ".");
    return 0;
}

/* text and a newline into fd, then fsync.  0, or errno. */
static int write_synced(int fd, const char *text)
{
    size_t len = strlen(text), off = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return errno;
        off += (size_t)w;
    }
    if (write(fd, "\n", 1) != 1 || fsync(fd) != 0)
        return errno ? errno : EIO;
    return 0;
}

/* The JSON of r into a new temporary file next to path (name in tmp).
 * 0 / -1 with err (the temporary file removed). */
static int write_temp(const calib_result *r, const char *path, char *tmp, size_t tmp_len,
                      engine_error *err)
{
    char *text = calib_result_to_json(r);
    if (!text) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.300s: out of memory", path);
        return -1;
    }
    snprintf(tmp, tmp_len, "%s.tmp.%ld.XXXXXX", path, (long)getpid());
    int fd = mkstemp(tmp);
    if (fd < 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.300s: cannot create a "
                     "temporary file: %s", path, strerror(errno));
        free(text);
        return -1;
    }
    (void)fchmod(fd, 0644);
    int e = write_synced(fd, text);
    if (close(fd) != 0 && e == 0)
        e = errno;
    free(text);
    if (e != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%.300s: cannot write: %s", tmp, strerror(e));
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* The writer's PID when name is one of our temporaries,
 * "<x>.json.tmp.<pid>.XXXXXX" (six characters from mkstemp); else 0. */
long calib_store_tmp_pid(const char *name)
{
    const char *t = strstr(name, ".json.tmp.");
    if (!t || t == name)
        return 0;
    const char *p = t + strlen(".json.tmp."), *q = p;
    long pid = 0;
    while (isdigit((unsigned char)*q) && q - p < 10)
        pid = pid * 10 + (*q++ - '0');
    if (q == p || *q != '.' || strlen(q + 1) != 6 || pid <= 0)
        return 0;
    for (const char *c = q + 1; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_')
            return 0;
    return pid;
}

/* Remove our temporaries in dir whose writer is no longer alive (a crash
 * mid-save); a live writer's file (or one we cannot signal) stays, and so
 * does every name of another pattern.  Best effort: errors are ignored. */
static void sweep_stale_temps(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long pid = calib_store_tmp_pid(e->d_name);
        if (pid <= 0 || (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        (void)unlink(path);
    }
    closedir(d);
}

int calib_store_save(const calib_result *r, const char *path, int mode, engine_error *err)
{
    char dir[4096], tmp[4200];
    if (dir_of(path, dir, sizeof dir, err) != 0)
        return -1;
    if (strcmp(dir, ".") != 0 && make_dirs(dir, err) != 0)
        return -1;
    sweep_stale_temps(dir);
    if (write_temp(r, path, tmp, sizeof tmp, err) != 0)
        return -1;
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

int calib_store_save_default(const calib_result *r, char *path_out, size_t path_len,
                             engine_error *err)
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

static char *store_read(const char *path, engine_error *err)
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

/* One file as a result: full (with its points) or only what the engine
 * applies.  0 / -1 with err naming the file and field. */
static int store_load(const char *path, int full, calib_result *out, engine_error *err)
{
    memset(out, 0, sizeof *out);
    char *text = store_read(path, err);
    if (!text)
        return -1;
    int rc = calib_json_read(text, path, full, out, err);
    free(text);
    return rc;
}

int calib_store_load_file(const char *path, engine_calib *out, char *preset_out,
                          size_t preset_len, engine_error *err)
{
    memset(out, 0, sizeof *out);
    calib_result r;
    if (store_load(path, 0, &r, err) != 0)
        return -1;
    calib_result_to_engine(&r, out);
    snprintf(out->source, sizeof out->source, "%s", path);
    if (preset_out)
        snprintf(preset_out, preset_len, "%s", r.preset);
    calib_result_free(&r);
    return 0;
}

int calib_store_load_result(const char *path, calib_result *out, engine_error *err)
{
    return store_load(path, 1, out, err);
}

/* Does one directory entry count for gpu_preset_name?  1 a valid "cuda"
 * file naming it (*out, its date), 0 not, -1 a broken file naming it
 * (err). */
static int pick_one(const char *path, const char *gpu_preset_name, engine_calib *out,
                    engine_error *err)
{
    char *text = store_read(path, NULL);
    if (!text)
        return 0;
    calib_result r;
    engine_error ferr = {{0}};
    int rc = calib_json_read(text, path, 0, &r, &ferr);
    if (rc != 0) {
        /* Broken: it counts only when it names this preset. */
        char preset[ENGINE_NAME_MAX] = "";
        calib_json_preset(text, preset, sizeof preset);
        free(text);
        if (strcasecmp(preset, gpu_preset_name) != 0)
            return 0;
        if (err)
            *err = ferr;
        return -1;
    }
    free(text);
    rc = !strcasecmp(r.preset, gpu_preset_name) && !strcmp(r.dev.backend, "cuda");
    if (rc) {
        calib_result_to_engine(&r, out);
        snprintf(out->source, sizeof out->source, "%.255s", path);
    }
    calib_result_free(&r);
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
        /* Only finished files: temporaries end in .tmp.<pid>.XXXXXX. */
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0 || e->d_name[0] == '.')
            continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        engine_calib c;
        int one = pick_one(path, gpu_preset_name, &c, found ? NULL : err);
        if (one < 0 && !found)
            rc = -1;
        if (one == 1 && (!found || strcmp(c.date, out->date) > 0)) {
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
