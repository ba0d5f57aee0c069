/*
 * opts.c - the option parser, the --help printer and the value parsers of
 * the command line (see opts.h).  Pure: argv in, a cli_opts struct or one
 * message out.
 */
#include "opts.h"

#include "lookup.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* --- value parsers --------------------------------------------------- */

int cli_parse_int(const char *text, long min, long max, long *out)
{
    if (!text || !*text || isspace((unsigned char)text[0]))
        return -1;
    errno = 0;
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (errno || *end || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_double(const char *text, double min, double max, double *out)
{
    if (!text || !*text || isspace((unsigned char)text[0]))
        return -1;
    /* strtod accepts "nan", "inf" and hex floats; a CLI number is decimal. */
    for (const char *p = text; *p; p++)
        if (!isdigit((unsigned char)*p) && !strchr("+-.eE", *p))
            return -1;
    errno = 0;
    char *end = NULL;
    double v = strtod(text, &end);
    if (errno || *end || !isfinite(v) || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

/* The unit of a size, or 0 when unknown. */
static double size_unit(const char *suffix)
{
    static const struct {
        const char *suffix;
        double mult;
    } units[] = {
        {"", 1.0},          {"b", 1.0},           {"kb", 1e3},
        {"mb", 1e6},        {"gb", 1e9},          {"tb", 1e12},
        {"k", 1024.0},      {"m", 1048576.0},     {"g", 1073741824.0},
        {"t", 1099511627776.0}, {"kib", 1024.0},  {"mib", 1048576.0},
        {"gib", 1073741824.0},  {"tib", 1099511627776.0},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcasecmp(suffix, units[i].suffix) == 0)
            return units[i].mult;
    return 0;
}

int cli_parse_size(const char *text, double *bytes)
{
    if (!text)
        return -1;
    const char *p = text;
    size_t digits = 0, dots = 0;
    for (; isdigit((unsigned char)*p) || *p == '.'; p++) {
        if (*p == '.')
            dots++;
        else
            digits++;
    }
    char num[64];
    size_t nlen = (size_t)(p - text);
    if (digits == 0 || dots > 1 || nlen >= sizeof num)
        return -1;
    memcpy(num, text, nlen);
    num[nlen] = '\0';
    double mult = size_unit(p);
    if (mult == 0)
        return -1;
    double b = strtod(num, NULL) * mult;
    if (!isfinite(b) || b > 4611686018427387904.0 /* 2^62 */)
        return -1;
    /* A size is a whole number of bytes; allow float noise only. */
    if (fabs(b - nearbyint(b)) > 1e-6 * (b > 1 ? b : 1))
        return -1;
    *bytes = nearbyint(b);
    return 0;
}

static int parse_u64(const char *v, uint64_t *out)
{
    if (!(v[0] >= '0' && v[0] <= '9'))
        return -1;
    errno = 0;
    char *end = NULL;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || !end || *end)
        return -1;
    *out = (uint64_t)x;
    return 0;
}

char *cli_enum_names(const cli_enum *e, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; e && i < e->count && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "|" : "", e->name(i));
    return buf;
}

static int parse_enum(const cli_enum *e, const char *v, int *out)
{
    for (int i = 0; e && i < e->count; i++)
        if (!strcasecmp(v, e->name(i))) {
            *out = i;
            return 0;
        }
    return -1;
}

/* --- the parser -------------------------------------------------------- */

/* The option called name[0..nlen) in cmd's tables (the first wins). */
static const cli_opt *find_opt(const cli_options *os, const char *name, size_t nlen)
{
    for (int t = 0; t < 3 && os->tables[t]; t++)
        for (const cli_opt *o = os->tables[t]; o->name; o++)
            if (strlen(o->name) == nlen && strncmp(o->name, name, nlen) == 0)
                return o;
    return NULL;
}

/* The listed option closest to an unknown one, or NULL (lookup.h). */
static const char *closest_opt(const cli_options *os, const char *name, size_t nlen)
{
    char want[64];
    snprintf(want, sizeof want, "%.*s", (int)(nlen < 63 ? nlen : 63), name);
    const char *names[256];
    int n = 0;
    for (int t = 0; t < 3 && os->tables[t]; t++)
        for (const cli_opt *o = os->tables[t]; o->name && n < 256; o++)
            if (o->help)
                names[n++] = o->name;
    return cli_closest_name(want, names, n);
}

static int bad_value(const char *cmd, const cli_opt *o, const char *v, engine_error *err)
{
    char names[256];
    switch (o->kind) {
    case CLI_OPT_INT:
        return engine_errorf(err, "shardscope %s: %s: expected an integer %ld..%ld%s, got '%s'",
                             cmd, o->name, (long)o->min, (long)o->max,
                             o->takes_max ? " or max" : "", v);
    case CLI_OPT_DOUBLE:
        return engine_errorf(err, "shardscope %s: %s: expected a number %g..%g, got '%s'", cmd,
                             o->name, o->min, o->max, v);
    case CLI_OPT_SIZE:
        return engine_errorf(err,
                             "shardscope %s: %s: expected a size such as 1024, 4KiB, 16MiB or 1GB, "
                             "got '%s'",
                             cmd, o->name, v);
    case CLI_OPT_U64:
        return engine_errorf(err,
                             "shardscope %s: %s: expected an integer 0..18446744073709551615, got "
                             "'%s'",
                             cmd, o->name, v);
    case CLI_OPT_ENUM:
        return engine_errorf(err, "shardscope %s: %s: expected %s, got '%s'", cmd, o->name,
                             cli_enum_names(o->choices, names, sizeof names), v);
    default:
        return engine_errorf(err, "shardscope %s: %s: expected a value, got '%s'", cmd, o->name, v);
    }
}

/* Store v (NULL for a flag) into the field of o.  0 ok, -1 with err. */
static int set_opt(const char *cmd, const cli_opt *o, const char *v, cli_opts *out,
                   engine_error *err)
{
    char *field = (char *)&out->v + o->off;
    long l;
    double d;
    switch (o->kind) {
    case CLI_OPT_FLAG:
        *(int *)field = 1;
        break;
    case CLI_OPT_INT:
        if (o->takes_max && strcasecmp(v, "max") == 0) {
            *(int *)field = 0;
            break;
        }
        if (cli_parse_int(v, (long)o->min, (long)o->max, &l) != 0)
            return bad_value(cmd, o, v, err);
        *(int *)field = (int)l;
        break;
    case CLI_OPT_DOUBLE:
        if (cli_parse_double(v, o->min, o->max, &d) != 0)
            return bad_value(cmd, o, v, err);
        *(double *)field = d;
        break;
    case CLI_OPT_SIZE:
        if (cli_parse_size(v, &d) != 0)
            return bad_value(cmd, o, v, err);
        if (d < o->min || d > o->max)
            return engine_errorf(err,
                                 "shardscope %s: %s: expected a size %.0f..%.0f bytes, got '%s'",
                                 cmd, o->name, o->min, o->max, v);
        *(double *)field = d;
        break;
    case CLI_OPT_U64:
        if (parse_u64(v, (uint64_t *)field) != 0)
            return bad_value(cmd, o, v, err);
        break;
    case CLI_OPT_ENUM:
        if (parse_enum(o->choices, v, (int *)field) != 0)
            return bad_value(cmd, o, v, err);
        break;
    case CLI_OPT_STRING:
        if (!*v)
            return bad_value(cmd, o, v, err);
        *(const char **)field = v;
        break;
    case CLI_OPT_LIST: {
        cli_list *list = (cli_list *)field;
        if (!*v)
            return bad_value(cmd, o, v, err);
        if (list->n >= CLI_LIST_MAX)
            return engine_errorf(err, "shardscope %s: %s: given more than %d times", cmd, o->name,
                                 CLI_LIST_MAX);
        list->item[list->n++] = v;
        break;
    }
    }
    out->seen[o->off] = 1;
    return 0;
}

static int unknown_opt(const char *cmd, const cli_options *os, const char *arg, size_t nlen,
                       engine_error *err)
{
    const char *near = os ? closest_opt(os, arg, nlen) : NULL;
    engine_errorf(err, "shardscope %s: %.*s: unknown option (see 'shardscope %s --help')", cmd,
                  (int)nlen, arg, cmd);
    if (near && err) { /* the suggestion: a second line */
        size_t n = strlen(err->msg);
        snprintf(err->msg + n, sizeof err->msg - n, "\nshardscope %s: did you mean %s?", cmd,
                 near);
    }
    return -1;
}

/* One argument at argv[*i] (advanced past a separate value). */
static int parse_one(const cli_command *cmd, int argc, char **argv, int *i, cli_opts *out,
                     engine_error *err)
{
    const char *arg = argv[*i], *name = cmd->name;
    const cli_options *os = cmd->options;
    if (arg[0] != '-' || !strcmp(arg, "-")) {
        if (out->n_pos < (os ? os->max_pos : 0) && out->n_pos < CLI_MAX_POS) {
            out->pos[out->n_pos++] = arg;
            return 0;
        }
        return engine_errorf(err, "shardscope %s: unexpected argument '%s' (see 'shardscope %s --help')",
                             name, arg, name);
    }
    const char *eq = strchr(arg, '=');
    size_t nlen = eq ? (size_t)(eq - arg) : strlen(arg);
    const cli_opt *o = os ? find_opt(os, arg, nlen) : NULL;
    if (!o)
        return unknown_opt(name, os, arg, nlen, err);
    if (o->kind == CLI_OPT_FLAG) {
        if (eq)
            return engine_errorf(err, "shardscope %s: %s: takes no value, got '%s'", name, o->name,
                                 eq + 1);
        return set_opt(name, o, NULL, out, err);
    }
    const char *v = NULL;
    if (eq)
        v = eq + 1;
    else if (*i + 1 < argc && strncmp(argv[*i + 1], "--", 2) != 0)
        v = argv[++*i];
    else
        return engine_errorf(err, "shardscope %s: %s: missing value", name, o->name);
    return set_opt(name, o, v, out, err);
}

int cli_opts_parse(const cli_command *cmd, int argc, char **argv, cli_opts *out,
                   engine_error *err)
{
    memset(out, 0, sizeof *out);
    out->cmd = cmd;
    if (err)
        err->msg[0] = '\0';
    for (int i = 1; i < argc; i++) {
        if (!argv[i])
            break;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return CLI_HELP;
        if (parse_one(cmd, argc, argv, &i, out, err) != 0)
            return CLI_USAGE;
    }
    return CLI_OK;
}

/* --- --help ------------------------------------------------------------ */

#define HELP_COL 21   /* width of "--name ARG" before the help text */
#define HELP_WIDTH 80 /* the terminal width help lines keep within */

/* Columns of the n bytes at s (UTF-8: continuation bytes take none). */
static size_t help_cols(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* One line of help text starting at column `at`, broken at spaces so that
 * no line passes HELP_WIDTH; the lines after the first start at the help
 * column.  A word longer than the room is left whole. */
static void put_wrapped(FILE *f, const char *p, size_t n, size_t at)
{
    for (;;) {
        size_t room = HELP_WIDTH > at ? HELP_WIDTH - at : 1;
        if (help_cols(p, n) <= room)
            break;
        size_t cut = 0, c = 0;
        for (size_t i = 0; i < n && c <= room; i++) {
            if (p[i] == ' ' && c <= room)
                cut = i;
            c += ((unsigned char)p[i] & 0xC0) != 0x80;
        }
        if (cut == 0)
            break;
        fprintf(f, "%.*s\n%*s", (int)cut, p, HELP_COL + 2, "");
        p += cut + 1;
        n -= cut + 1;
        at = HELP_COL + 2;
    }
    fprintf(f, "%.*s\n", (int)n, p);
}

/* Print text from column `at` as one paragraph (its line breaks are
 * spaces), wrapped to HELP_WIDTH with the lines after the first at the
 * help column. */
static void put_lines(FILE *f, const char *text, size_t at)
{
    char buf[CLI_HELP_TEXT_MAX];
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < sizeof buf; p++)
        buf[n++] = *p == '\n' ? ' ' : *p;
    while (n > 0 && buf[n - 1] == ' ')
        n--;
    put_wrapped(f, buf, n, at);
}

static void help_opt(FILE *f, const cli_opt *o)
{
    char left[384], names[256] = ""; /* left: the name, a space and names */
    char text[CLI_HELP_TEXT_MAX];
    const char *arg = o->arg;
    if (o->kind == CLI_OPT_ENUM)
        cli_enum_names(o->choices, names, sizeof names);
    if (o->kind == CLI_OPT_ENUM && !arg)
        arg = names;
    snprintf(left, sizeof left, "%s%s%s", o->name, arg ? " " : "", arg ? arg : "");
    if (o->section)
        fprintf(f, "%s\n", o->section);
    /* a name wider than its column stands on its own line */
    if ((int)strlen(left) <= HELP_COL - 1)
        fprintf(f, "  %-*s ", HELP_COL - 1, left);
    else
        fprintf(f, "  %s\n%*s", left, HELP_COL + 2, "");
    const char *help = o->help;
    if (o->kind == CLI_OPT_ENUM && o->arg && !strchr(o->arg, '|')) {
        snprintf(text, sizeof text, "%s%s%s", names,
                 o->help[0] == ' ' || o->help[0] == ':' ? "" : " ", o->help);
        help = text;
    }
    put_lines(f, help, HELP_COL + 2);
}

/* Whether an earlier table of os names o (it shadows o). */
static int shadowed(const cli_options *os, int t, const cli_opt *o)
{
    for (int k = 0; k < t; k++)
        for (const cli_opt *p = os->tables[k]; p->name; p++)
            if (!strcmp(p->name, o->name))
                return 1;
    return 0;
}

void cli_opts_help(const cli_command *cmd, FILE *f)
{
    const cli_options *os = cmd->options;
    fprintf(f, "usage: shardscope %s\n", cmd->usage ? cmd->usage : cmd->name);
    if (os && os->about)
        fprintf(f, "\n%s", os->about);
    fprintf(f, "\n");
    for (int t = 0; os && t < 3 && os->tables[t]; t++)
        for (const cli_opt *o = os->tables[t]; o->name; o++)
            if (o->help && !shadowed(os, t, o))
                help_opt(f, o);
    if (os && os->footer)
        fprintf(f, "\n%s", os->footer);
}

int cli_command_parse(const cli_command *cmd, int argc, char **argv, cli_opts *o)
{
    engine_error err = {{0}};
    int rc = cli_opts_parse(cmd, argc, argv, o, &err);
    if (rc == CLI_HELP)
        cli_opts_help(cmd, stdout);
    else if (rc != CLI_OK)
        fprintf(stderr, "%s\n", err.msg);
    return rc;
}

int cli_command_exec(const cli_command *cmd, int argc, char **argv, const preset_db *db)
{
    cli_opts *o = malloc(sizeof *o);
    if (!o) {
        fprintf(stderr, "shardscope %s: out of memory\n", cmd->name);
        return CLI_FAIL;
    }
    int rc = cli_command_parse(cmd, argc, argv, o);
    rc = rc == CLI_OK ? cmd->run(o, db) : rc == CLI_HELP ? CLI_OK : rc;
    free(o);
    return rc;
}
