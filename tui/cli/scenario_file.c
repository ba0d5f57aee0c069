/*
 * scenario_file.c - scenario files (scenario_file.h): a JSON object of the
 * scenario flags by name, read into the parsed options as if given (the
 * command line's value wins), and written from a loaded scenario with the
 * presets resolved, atomically (as calib/store.c saves a calibration).
 */
#include "scenario_file.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "json.h"

#define FILE_MAX_BYTES (1 << 20)

/* --- which options a file holds --------------------------------------- */

/* Output and file flags: never scenario fields. */
static int excluded(size_t off)
{
    return off == CLI_AT(json) || off == CLI_AT(csv) || off == CLI_AT(pareto) ||
           off == CLI_AT(explain) || off == CLI_AT(save_scenario) || off == CLI_AT(scenario_file);
}

/* "--vram-gb" -> "vram_gb". */
static void key_of(const cli_opt *op, char *key, size_t len)
{
    snprintf(key, len, "%s", op->name + 2);
    for (char *c = key; *c; c++)
        if (*c == '-')
            *c = '_';
}

/* The scenario option whose key is `key` (eval's tables), or NULL. */
static const cli_opt *find_opt(const char *key)
{
    char k[64];
    for (int t = 0; t < 3 && cli_eval_options.tables[t]; t++)
        for (const cli_opt *op = cli_eval_options.tables[t]; op->name; op++) {
            if (excluded(op->off))
                continue;
            key_of(op, k, sizeof k);
            if (!strcmp(k, key))
                return op;
        }
    return NULL;
}

/* --- reading ------------------------------------------------------------ */

static char *read_text(const char *path, engine_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        engine_errorf(err, "%.300s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    char *buf = malloc(FILE_MAX_BYTES + 1);
    size_t n = buf ? fread(buf, 1, FILE_MAX_BYTES + 1, f) : 0;
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad || n > FILE_MAX_BYTES) {
        engine_errorf(err, "%.300s: %s", path, !buf ? "out of memory"
                                          : bad ? "cannot read" : "larger than 1 MiB");
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

/* "8", "\"8\"", "true": a JSON value as the message shows it. */
static void show(const cJSON *v, char *buf, size_t len)
{
    char *t = cJSON_PrintUnformatted(v);
    snprintf(buf, len, "%.60s", t ? t : "?");
    free(t);
}

static int bad_value(const char *path, const char *key, const cli_opt *op, const cJSON *v,
                     engine_error *err)
{
    char got[64], want[256];
    show(v, got, sizeof got);
    switch (op->kind) {
    case CLI_OPT_INT:
        snprintf(want, sizeof want, "an integer %.0f..%.0f%s", op->min, op->max,
                 op->takes_max ? " or \"max\"" : "");
        break;
    case CLI_OPT_DOUBLE:
    case CLI_OPT_SIZE:
        snprintf(want, sizeof want, "a number %g..%g", op->min, op->max);
        break;
    case CLI_OPT_U64:
        snprintf(want, sizeof want, "an integer 0..2^64-1 (a string above 2^53)");
        break;
    case CLI_OPT_ENUM:
        snprintf(want, sizeof want, "one of ");
        cli_enum_names(op->choices, want + 7, sizeof want - 7);
        break;
    case CLI_OPT_FLAG:
        snprintf(want, sizeof want, "true or false");
        break;
    default:
        snprintf(want, sizeof want, "a non-empty string");
        break;
    }
    return engine_errorf(err, "%.300s: %s: expected %s, got %s", path, key, want, got);
}

/* An integral JSON number in [lo, hi]. */
static int int_in(const cJSON *v, double lo, double hi, double *out)
{
    if (!cJSON_IsNumber(v))
        return 0;
    double x = v->valuedouble;
    *out = x;
    return isfinite(x) && x == floor(x) && x >= lo && x <= hi;
}

/* One member into o's field; 1 set, 0 null/false (not given), -1 bad. */
static int set_value(const cli_opt *op, const cJSON *v, cli_opts *o)
{
    char *field = (char *)&o->v + op->off;
    double x;
    if (cJSON_IsNull(v))
        return 0;
    switch (op->kind) {
    case CLI_OPT_FLAG:
        if (!cJSON_IsBool(v))
            return -1;
        *(int *)field = cJSON_IsTrue(v);
        return cJSON_IsTrue(v);
    case CLI_OPT_INT:
        if (op->takes_max && cJSON_IsString(v) && !strcasecmp(v->valuestring, "max")) {
            *(int *)field = 0;
            return 1;
        }
        if (!int_in(v, op->min, op->max, &x))
            return -1;
        *(int *)field = (int)x;
        return 1;
    case CLI_OPT_DOUBLE:
    case CLI_OPT_SIZE:
        if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < op->min ||
            v->valuedouble > op->max)
            return -1;
        *(double *)field = v->valuedouble;
        return 1;
    case CLI_OPT_U64: {
        if (int_in(v, 0, 9007199254740992.0, &x)) {
            *(uint64_t *)field = (uint64_t)x;
            return 1;
        }
        if (!cJSON_IsString(v) || !*v->valuestring || *v->valuestring == '-')
            return -1;
        char *end;
        errno = 0;
        unsigned long long u = strtoull(v->valuestring, &end, 10);
        if (errno || *end)
            return -1;
        *(uint64_t *)field = u;
        return 1;
    }
    case CLI_OPT_ENUM:
        if (!cJSON_IsString(v))
            return -1;
        for (int i = 0; i < op->choices->count; i++)
            if (!strcasecmp(v->valuestring, op->choices->name(i))) {
                *(int *)field = i;
                return 1;
            }
        return -1;
    case CLI_OPT_STRING:
        if (!cJSON_IsString(v) || !*v->valuestring)
            return -1;
        *(const char **)field = v->valuestring;
        return 1;
    default:
        return -1;
    }
}

/* "line N" of the parse error at p in text. */
static int line_of(const char *text, const char *p)
{
    int line = 1;
    for (const char *c = text; p && c < p && *c; c++)
        line += *c == '\n';
    return line;
}

/* Every member of the document into o, unless the command line gave it. */
static int merge_members(const char *path, cli_opts *o, cli_scenario_file *f, engine_error *err)
{
    size_t nl = 0;
    for (const cJSON *m = f->doc->child; m; m = m->next) {
        const char *key = m->string;
        if (!strcmp(key, "schema_version") || !strcmp(key, "kind"))
            continue;
        const cli_opt *op = find_opt(key);
        if (!op) {
            if (nl < sizeof f->note)
                nl += (size_t)snprintf(f->note + nl, sizeof f->note - nl, "%s%s",
                                       nl ? ", " : "", key);
            continue;
        }
        if (o->seen[op->off])
            continue; /* the command line wins */
        int r = set_value(op, m, o);
        if (r < 0)
            return bad_value(path, key, op, m, err);
        if (r > 0) {
            o->seen[op->off] = 1;
            f->from_file[op->off] = 1;
        }
    }
    if (nl >= sizeof f->note)
        snprintf(f->note + sizeof f->note - 5, 5, "...");
    return 0;
}

int cli_scenario_file_merge(const char *path, cli_opts *o, cli_scenario_file *f,
                            engine_error *err)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    char *text = read_text(path, err);
    if (!text)
        return -1;
    const char *end = NULL;
    f->doc = cJSON_ParseWithOpts(text, &end, 1);
    if (!f->doc) {
        engine_errorf(err, "%.300s: not JSON (line %d)", path, line_of(text, end));
        free(text);
        return -1;
    }
    free(text);
    if (!cJSON_IsObject(f->doc)) {
        cli_scenario_file_free(f);
        return engine_errorf(err, "%.300s: expected a JSON object of scenario fields", path);
    }
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(f->doc, "kind");
    if (kind && !(cJSON_IsString(kind) && !strcmp(kind->valuestring, CLI_SCENARIO_KIND))) {
        char got[64];
        show(kind, got, sizeof got);
        cli_scenario_file_free(f);
        return engine_errorf(err, "%.300s: kind: expected \"%s\", got %s", path,
                             CLI_SCENARIO_KIND, got);
    }
    if (merge_members(path, o, f, err) != 0) {
        cli_scenario_file_free(f);
        return -1;
    }
    return 0;
}

void cli_scenario_file_free(cli_scenario_file *f)
{
    if (!f)
        return;
    cJSON_Delete(f->doc);
    f->doc = NULL;
}

void cli_scenario_file_blame(const cli_scenario_file *f, engine_error *err)
{
    if (!f || !f->doc || !err || strncmp(err->msg, "--", 2) != 0)
        return;
    /* the flags before the first ':' ("--prompt/--gen: ...") */
    const char *colon = strchr(err->msg, ':');
    if (!colon || colon - err->msg > 64)
        return;
    char head[80], fields[96] = "", key[72];
    snprintf(head, sizeof head, "%.*s", (int)(colon - err->msg), err->msg);
    int blamed = 0;
    for (char *t = strtok(head, "/ "); t; t = strtok(NULL, "/ ")) {
        const cli_opt *op = !strncmp(t, "--", 2) ? find_opt(t + 2) : NULL;
        char k[64];
        snprintf(k, sizeof k, "%.60s", t + (strncmp(t, "--", 2) ? 0 : 2));
        for (char *c = k; *c; c++)
            if (*c == '-')
                *c = '_';
        if (!op)
            op = find_opt(k);
        if (op && f->from_file[op->off])
            blamed = 1;
        snprintf(key, sizeof key, "%s%s", fields[0] ? "/" : "", k);
        strncat(fields, key, sizeof fields - strlen(fields) - 1);
    }
    if (!blamed)
        return;
    char rest[ENGINE_ERROR_MAX];
    snprintf(rest, sizeof rest, "%s", colon);
    engine_errorf(err, "%.300s: %s%s", f->path, fields, rest);
}

/* --- writing ------------------------------------------------------------ */

/* The presets, plan and numbers of cs, resolved. */
static void add_resolved(cJSON *o, const cli_opts *opts, const cli_scenario *cs)
{
    const engine_scenario *s = &cs->scenario;
    cJSON_AddStringToObject(o, "model", cs->model_from_file && opts->v.model ? opts->v.model
                                                                             : s->model->name);
    cJSON_AddStringToObject(o, "gpu", s->gpu->name);
    cJSON_AddNumberToObject(o, "gpus", s->gpus);
    if (cs->has_plan) {
        cJSON_AddNumberToObject(o, "tp", cs->plan.tp);
        cJSON_AddNumberToObject(o, "pp", cs->plan.pp);
        cJSON_AddNumberToObject(o, "dp", cs->plan.dp);
        cJSON_AddNumberToObject(o, "ep", cs->plan.ep);
    }
    cJSON_AddStringToObject(o, "link", s->intra->name);
    if (s->inter)
        cJSON_AddStringToObject(o, "inter_link", s->inter->name);
    if (s->gpus_per_node > 0)
        cJSON_AddNumberToObject(o, "gpus_per_node", s->gpus_per_node);
    if (CLI_SEEN(opts, vram_gb))
        cJSON_AddNumberToObject(o, "vram_gb", opts->v.vram_gb);
    cJSON_AddStringToObject(o, "framework", s->framework ? s->framework->name : "generic");
    if (s->cuda_graphs != ENGINE_GRAPHS_DEFAULT)
        cJSON_AddStringToObject(o, "cuda_graphs", engine_graphs_name(s->cuda_graphs));
    if (CLI_SEEN(opts, mem_fraction))
        cJSON_AddNumberToObject(o, "mem_fraction", opts->v.mem_fraction);
    if (s->max_model_len > 0)
        cJSON_AddNumberToObject(o, "max_model_len", s->max_model_len);
    if (s->total_concurrency > 0)
        cJSON_AddNumberToObject(o, "total_concurrency", s->total_concurrency);
    else if (s->batch_max)
        cJSON_AddStringToObject(o, "batch", "max");
    else if (CLI_SEEN(opts, batch)) /* not given: eval's rankings by throughput or cost
                                     * run each plan at its largest batch */
        cJSON_AddNumberToObject(o, "batch", s->batch);
    cJSON_AddNumberToObject(o, "prompt", s->prompt);
    cJSON_AddNumberToObject(o, "gen", s->gen);
    cJSON_AddStringToObject(o, "dtype", engine_dtype_name(s->weight_dtype));
    if (s->quant_group > 0)
        cJSON_AddNumberToObject(o, "quant_group", s->quant_group);
    cJSON_AddStringToObject(o, "kv_dtype", engine_dtype_name(s->kv_dtype));
    cJSON_AddStringToObject(o, "act_dtype", engine_dtype_name(s->act_dtype));
    if (s->microbatches > 0)
        cJSON_AddNumberToObject(o, "microbatches", s->microbatches);
    if (s->decode_microbatches > 0)
        cJSON_AddNumberToObject(o, "decode_microbatches", s->decode_microbatches);
    cJSON_AddStringToObject(o, "schedule", engine_schedule_name(s->schedule));
    cJSON_AddNumberToObject(o, "interleave", s->interleave);
    cJSON_AddStringToObject(o, "objective", engine_objective_name(s->objective));
    cJSON_AddNumberToObject(o, "jitter", s->jitter_sigma);
    cJSON_AddNumberToObject(o, "straggler_prob", s->straggler_prob);
    cJSON_AddNumberToObject(o, "straggler_slowdown", s->straggler_slowdown);
    cJSON_AddNumberToObject(o, "samples", s->mc_samples);
    out_json_add_seed(o, "seed", (unsigned long long)s->seed);
    if (opts->v.calib)
        cJSON_AddStringToObject(o, "calib", opts->v.calib);
    else if (!s->calib) /* datasheet defaults, whatever is saved later */
        cJSON_AddBoolToObject(o, "no_calib", 1);
}

/* Any other scenario flag opts holds (given on the command line or read
 * from a file), as given. */
static void add_given(cJSON *o, const cli_opts *opts)
{
    char key[64];
    for (int t = 0; t < 3 && cli_eval_options.tables[t]; t++)
        for (const cli_opt *op = cli_eval_options.tables[t]; op->name; op++) {
            key_of(op, key, sizeof key);
            if (excluded(op->off) || !opts->seen[op->off] ||
                cJSON_GetObjectItemCaseSensitive(o, key))
                continue;
            const char *field = (const char *)&opts->v + op->off;
            switch (op->kind) {
            case CLI_OPT_FLAG:
                cJSON_AddBoolToObject(o, key, *(const int *)field != 0);
                break;
            case CLI_OPT_INT:
                cJSON_AddNumberToObject(o, key, *(const int *)field);
                break;
            case CLI_OPT_DOUBLE:
            case CLI_OPT_SIZE:
                cJSON_AddNumberToObject(o, key, *(const double *)field);
                break;
            case CLI_OPT_ENUM:
                cJSON_AddStringToObject(o, key, op->choices->name(*(const int *)field));
                break;
            case CLI_OPT_STRING:
                cJSON_AddStringToObject(o, key, *(const char *const *)field);
                break;
            default:
                break;
            }
        }
}

cJSON *cli_scenario_file_json(const cli_opts *opts, const cli_scenario *cs)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "kind", CLI_SCENARIO_KIND);
    add_resolved(o, opts, cs);
    add_given(o, opts);
    if (out_json_stamp(o) != 0) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* text + "\n" to a new temporary file next to path, fsync'd; its name in
 * tmp.  0, or -1 with err (nothing left behind). */
static int write_temp(const char *path, const char *text, char *tmp, size_t len,
                      engine_error *err)
{
    snprintf(tmp, len, "%s.tmp.%ld.XXXXXX", path, (long)getpid());
    int fd = mkstemp(tmp);
    if (fd < 0)
        return engine_errorf(err, "%.300s: cannot create a temporary file: %s", path,
                             strerror(errno));
    (void)fchmod(fd, 0644);
    size_t n = strlen(text), off = 0;
    int e = 0;
    while (off < n && !e) {
        ssize_t w = write(fd, text + off, n - off);
        if (w < 0 && errno != EINTR)
            e = errno;
        else if (w > 0)
            off += (size_t)w;
    }
    if (!e && (write(fd, "\n", 1) != 1 || fsync(fd) != 0))
        e = errno ? errno : EIO;
    if (close(fd) != 0 && !e)
        e = errno;
    if (e) {
        unlink(tmp);
        return engine_errorf(err, "%.300s: cannot write: %s", path, strerror(e));
    }
    return 0;
}

int cli_scenario_file_save(const char *path, const cli_opts *o, const cli_scenario *cs,
                           engine_error *err)
{
    cJSON *j = cli_scenario_file_json(o, cs);
    char *text = j ? cJSON_Print(j) : NULL;
    cJSON_Delete(j);
    if (!text)
        return engine_errorf(err, "%.300s: out of memory", path);
    char tmp[4200];
    int rc = write_temp(path, text, tmp, sizeof tmp, err);
    free(text);
    if (rc != 0)
        return -1;
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return engine_errorf(err, "%.300s: cannot rename the temporary file into place: %s",
                             path, strerror(e));
    }
    /* the rename itself durable: fsync the directory */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *(slash == dir ? slash + 1 : slash) = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    return 0;
}
