/*
 * preset_util.c - small helpers shared by the presets loader and the
 * Hugging Face config reader: file reading with a size cap, JSON parsing
 * that turns cJSON's failure position into "line L, column C", and the
 * wording of numbers and JSON types in error messages.
 */
#include "preset_util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void preset_util_one_line(char *s)
{
    /* Names and keys come from the file: keep a message on one line. */
    for (; *s; s++)
        if ((unsigned char)*s < 32 || *s == 127)
            *s = '?';
}

int preset_util_read_file(const char *path, char **text, size_t *len,
                          engine_error *err)
{
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        engine_errorf(err, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        engine_errorf(err, "%s: out of memory", path);
        return -1;
    }
    for (;;) {
        if (n + 1 >= cap) {
            if (cap >= PRESET_FILE_MAX + 2) {
                free(buf);
                fclose(f);
                engine_errorf(err, "%s: file too large (over %u MiB)", path,
                              PRESET_FILE_MAX / (1024u * 1024u));
                return -1;
            }
            size_t ncap = cap * 2;
            if (ncap > PRESET_FILE_MAX + 2)
                ncap = PRESET_FILE_MAX + 2;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                fclose(f);
                engine_errorf(err, "%s: out of memory", path);
                return -1;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                int e = errno;
                free(buf);
                fclose(f);
                engine_errorf(err, "%s: cannot read: %s", path,
                              e ? strerror(e) : "read error");
                return -1;
            }
            break;
        }
    }
    fclose(f);
    if (n > PRESET_FILE_MAX) {
        free(buf);
        engine_errorf(err, "%s: file too large (over %u MiB)", path,
                      PRESET_FILE_MAX / (1024u * 1024u));
        return -1;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

#define STR_(x) #x
#define STR(x) STR_(x)

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* "line L, column C: malformed JSON near '...'" for the byte at `off`. */
static void describe_at(const char *file, const char *text, size_t len,
                        size_t off, const char *what, engine_error *err)
{
    /* cJSON stops before trailing blanks of a truncated file: say EOF. */
    size_t rest = off;
    while (rest < len && is_space(text[rest]))
        rest++;
    if (rest >= len)
        off = len;
    size_t line = 1, col = 1;
    for (size_t i = 0; i < off && i < len; i++) {
        if (text[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    if (off >= len) {
        engine_errorf(err, "%s: line %zu, column %zu: %s: unexpected end of file",
                      file, line, col, what);
        return;
    }
    char near[24];
    size_t k = 0;
    for (size_t i = off; i < len && k < 20 && text[i] != '\n' && text[i] != '\r'; i++)
        near[k++] = (text[i] >= 32 && text[i] < 127) ? text[i] : '?';
    near[k] = '\0';
    static const char *const nonfinite[] = { "NaN", "nan", "Infinity", "-Infinity", "inf",
                                             "-inf" };
    const char *hint = "";
    for (size_t i = 0; i < sizeof nonfinite / sizeof nonfinite[0]; i++) {
        size_t n = strlen(nonfinite[i]); /* within len: text needs no NUL */
        if (len - off >= n && !memcmp(text + off, nonfinite[i], n))
            hint = " (JSON has no NaN or Infinity)";
    }
    engine_errorf(err, "%s: line %zu, column %zu: %s near '%s'%s", file, line,
                  col, what, near, hint);
}

cJSON *preset_util_parse(const char *file, const char *text, size_t len,
                         engine_error *err)
{
    size_t i = 0;
    while (text && i < len && is_space(text[i]))
        i++;
    if (!text || i == len) {
        engine_errorf(err, "%s: empty file", file);
        return NULL;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root) {
        size_t off = end ? (size_t)(end - text) : 0;
        /* cJSON refuses deeper nesting: say so rather than "malformed". */
        int deep = off < len && engine_json_depth_at(text, off) >= CJSON_NESTING_LIMIT;
        describe_at(file, text, len, off,
                    deep ? "nested deeper than " STR(CJSON_NESTING_LIMIT) " levels"
                         : "malformed JSON", err);
        return NULL;
    }
    size_t off = end ? (size_t)(end - text) : len;
    while (off < len && is_space(text[off]))
        off++;
    if (off < len && text[off] != '\0') {
        describe_at(file, text, len, off, "malformed JSON: text after the end",
                    err);
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

const char *preset_util_type_name(const cJSON *item)
{
    if (!item)
        return "nothing";
    if (cJSON_IsString(item))
        return "a string";
    if (cJSON_IsNumber(item))
        return "a number";
    if (cJSON_IsTrue(item))
        return "true";
    if (cJSON_IsFalse(item))
        return "false";
    if (cJSON_IsNull(item))
        return "null";
    if (cJSON_IsObject(item))
        return "an object";
    if (cJSON_IsArray(item))
        return "an array";
    return "an unknown value";
}

void preset_util_format_number(double v, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "nan");
    else if (isinf(v))
        snprintf(buf, len, v > 0 ? "inf" : "-inf");
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%g", v);
}

int preset_util_check_int(const cJSON *item, double lo, double hi, int *out,
                          char *why, size_t why_len)
{
    char num[40];
    if (!cJSON_IsNumber(item)) {
        snprintf(why, why_len, "expected an integer, got %s",
                 preset_util_type_name(item));
        return -1;
    }
    double v = item->valuedouble;
    preset_util_format_number(v, num, sizeof num);
    if (isnan(v) || (isfinite(v) && v != floor(v))) {
        snprintf(why, why_len, "expected an integer, got %s", num);
        return -1;
    }
    if (v < lo) {
        snprintf(why, why_len, lo >= 1 ? "expected a positive integer, got %s"
                                       : "expected an integer >= 0, got %s",
                 num);
        return -1;
    }
    if (v > hi) {
        char hs[40];
        preset_util_format_number(hi, hs, sizeof hs);
        snprintf(why, why_len, "expected at most %s, got %s", hs, num);
        return -1;
    }
    *out = (int)v;
    return 0;
}
