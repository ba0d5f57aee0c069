/*
 * test_keys.c - the explorer's key table (tui/explorer/keys.c) against its
 * documentation: every key the table binds is named in README.md's "Keys"
 * section and in the man page's EXPLORER KEYS, and every key those name
 * is bound in the table.  Also the table itself: every labelled row that
 * the help lists has a help line, key names are what the docs use, and no
 * key is bound twice in one scope.
 *
 * README: the first cell of each row of the Keys table; `x` is the key x,
 * bare words are named keys (Tab, PgUp, Ctrl-L, mouse ...), "`1` … `6`"
 * is a range.  Man page: the line after each .TP of the section, .B / .BR
 * arguments, the bold ones keys, a roman ".." between two a range.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <curses.h>

#include "keys.h"
#include "support_files.h"

#define MAX_NAMES 128
#define NAME_W 24

typedef struct names {
    char v[MAX_NAMES][NAME_W];
    int n;
} names;

static void add_name(names *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->v[i], name))
            return;
    assert_true(s->n < MAX_NAMES);
    snprintf(s->v[s->n++], NAME_W, "%s", name);
}

static int has_name(const names *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->v[i], name))
            return 1;
    return 0;
}

/* "a" .. "b" between two single characters: the characters in between. */
static void add_range(names *s, const char *a, const char *b)
{
    assert_int_equal(strlen(a), 1);
    assert_int_equal(strlen(b), 1);
    for (char c = a[0]; c <= b[0]; c++) {
        char t[2] = {c, 0};
        add_name(s, t);
    }
}

static void table_names(names *s)
{
    int n;
    const exp_binding *b = exp_bindings(&n);
    char buf[16];
    s->n = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < EXP_BINDING_KEYS && b[i].keys[k]; k++)
            add_name(s, exp_key_name(b[i].keys[k], buf, sizeof buf));
}

/* The named keys a README cell may use outside backticks. */
static int is_special(const char *w)
{
    static const char *const W[] = {"Tab",  "Shift-Tab", "Up",    "Down",      "Left",
                                    "Right", "PgUp",     "PgDn",  "Home",      "End",
                                    "Enter", "Space",    "Esc",   "Backspace", "Ctrl-L",
                                    "mouse"};
    for (size_t i = 0; i < sizeof W / sizeof W[0]; i++)
        if (!strcmp(W[i], w))
            return 1;
    return 0;
}

/* One README key cell: backticked keys, "…" ranges, named keys. */
static void readme_cell(names *s, const char *cell)
{
    char rest[256];
    int rn = 0;
    const char *prev = NULL, *p = cell;
    char prev_buf[NAME_W] = "";
    int range = 0;
    while (*p) {
        if (*p == '`') {
            const char *e = strchr(p + 1, '`');
            assert_non_null(e);
            char k[NAME_W];
            snprintf(k, sizeof k, "%.*s", (int)(e - p - 1), p + 1);
            if (range && prev)
                add_range(s, prev_buf, k);
            add_name(s, k);
            snprintf(prev_buf, sizeof prev_buf, "%s", k);
            prev = prev_buf;
            range = 0;
            p = e + 1;
            continue;
        }
        if (!strncmp(p, "\xe2\x80\xa6", 3)) { /* … */
            range = 1;
            p += 3;
            continue;
        }
        if (rn < (int)sizeof rest - 1)
            rest[rn++] = *p;
        p++;
    }
    rest[rn] = '\0';
    for (char *w = strtok(rest, " ,/()"); w; w = strtok(NULL, " ,/()")) {
        if (!strcmp(w, "or"))
            continue;
        if (!is_special(w))
            fail_msg("README Keys: '%s' in \"%s\" is neither `a key` nor a named key", w, cell);
        add_name(s, w);
    }
}

static void readme_names(names *s)
{
    char *text = ts_slurp("README.md", NULL);
    char *sec = strstr(text, "\n### Keys\n");
    assert_non_null(sec);
    char *end = strstr(sec + 1, "\n### ");
    if (end)
        *end = '\0';
    s->n = 0;
    for (char *line = sec + 1, *nl; line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (strncmp(line, "| ", 2) || !strncmp(line, "| key |", 7))
            continue;
        char *bar = strchr(line + 2, '|');
        assert_non_null(bar);
        *bar = '\0';
        char cell[256];
        snprintf(cell, sizeof cell, "%s", line + 2);
        readme_cell(s, cell);
    }
    free(text);
}

/* The arguments of a man macro line, quotes removed, "\-" as "-". */
static int man_args(const char *line, char out[][NAME_W * 2], int cap)
{
    int n = 0;
    const char *p = strchr(line, ' ');
    while (p && *p && n < cap) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char *o = out[n];
        int k = 0, quoted = *p == '"';
        if (quoted)
            p++;
        while (*p && (quoted ? *p != '"' : *p != ' ')) {
            if (p[0] == '\\' && p[1] == '-') {
                p += 2;
                if (k < NAME_W * 2 - 1)
                    o[k++] = '-';
                continue;
            }
            if (k < NAME_W * 2 - 1)
                o[k++] = *p;
            p++;
        }
        if (quoted && *p == '"')
            p++;
        o[k] = '\0';
        n++;
    }
    return n;
}

static void man_names(names *s)
{
    char *text = ts_slurp("tui/shardscope.1", NULL);
    char *sec = strstr(text, "\n.SH EXPLORER KEYS\n");
    assert_non_null(sec);
    char *end = strstr(sec + 1, "\n.SH ");
    if (end)
        *end = '\0';
    s->n = 0;
    int after_tp = 0;
    for (char *line = sec + 1, *nl; line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (!strcmp(line, ".TP")) {
            after_tp = 1;
            continue;
        }
        if (!after_tp)
            continue;
        after_tp = 0;
        int bold_alt = !strncmp(line, ".BR ", 4);
        if (!bold_alt && strncmp(line, ".B ", 3))
            fail_msg("man EXPLORER KEYS: the line after .TP is not .B/.BR: %s", line);
        char args[16][NAME_W * 2];
        int n = man_args(line, args, 16);
        for (int i = 0; i < n; i++) {
            if (bold_alt && i % 2) {
                if (strstr(args[i], "..") && i + 1 < n)
                    add_range(s, args[i - 1], args[i + 1]);
                continue;
            }
            add_name(s, args[i]);
        }
    }
    free(text);
}

static void check_same(const names *table, const names *doc, const char *what)
{
    for (int i = 0; i < table->n; i++)
        if (!has_name(doc, table->v[i]))
            fail_msg("%s does not document the key '%s' of the key table", what, table->v[i]);
    for (int i = 0; i < doc->n; i++)
        if (!has_name(table, doc->v[i]))
            fail_msg("%s documents the key '%s', which the key table does not bind", what,
                     doc->v[i]);
}

static void test_readme_matches_table(void **state)
{
    (void)state;
    names t, d;
    table_names(&t);
    readme_names(&d);
    assert_true(d.n > 20);
    check_same(&t, &d, "README.md (Keys)");
}

static void test_man_page_matches_table(void **state)
{
    (void)state;
    names t, d;
    table_names(&t);
    man_names(&d);
    assert_true(d.n > 20);
    check_same(&t, &d, "tui/shardscope.1 (EXPLORER KEYS)");
}

static void test_key_names(void **state)
{
    (void)state;
    char b[16];
    assert_string_equal(exp_key_name('\t', b, sizeof b), "Tab");
    assert_string_equal(exp_key_name(KEY_BTAB, b, sizeof b), "Shift-Tab");
    assert_string_equal(exp_key_name(KEY_NPAGE, b, sizeof b), "PgDn");
    assert_string_equal(exp_key_name(KEY_ENTER, b, sizeof b), "Enter");
    assert_string_equal(exp_key_name('\r', b, sizeof b), "Enter");
    assert_string_equal(exp_key_name(127, b, sizeof b), "Backspace");
    assert_string_equal(exp_key_name(12, b, sizeof b), "Ctrl-L");
    assert_string_equal(exp_key_name(27, b, sizeof b), "Esc");
    assert_string_equal(exp_key_name(' ', b, sizeof b), "Space");
    assert_string_equal(exp_key_name('q', b, sizeof b), "q");
    assert_string_equal(exp_key_name('+', b, sizeof b), "+");
}

/* Help lists each labelled row once; the bar ends with help and quit; no
 * key does two things in one scope. */
static void test_table_shape(void **state)
{
    (void)state;
    int n;
    const exp_binding *b = exp_bindings(&n);
    int help = 0, bar = 0;
    const char *last_bar[2] = {NULL, NULL};
    for (int i = 0; i < n; i++) {
        if (b[i].label) {
            assert_non_null(b[i].help);
            help++;
        }
        if (b[i].bar_key) {
            assert_non_null(b[i].bar);
            last_bar[0] = last_bar[1];
            last_bar[1] = b[i].bar_key;
            bar++;
        }
        assert_true(b[i].keys[0] != 0);
        for (int j = i + 1; j < n; j++) {
            if (b[j].scope != b[i].scope)
                continue;
            for (int k = 0; k < EXP_BINDING_KEYS && b[i].keys[k]; k++)
                for (int m = 0; m < EXP_BINDING_KEYS && b[j].keys[m]; m++)
                    if (b[i].keys[k] == b[j].keys[m])
                        fail_msg("key %d bound twice in scope %d (rows %d and %d)",
                                 b[i].keys[k], b[i].scope, i, j);
        }
    }
    assert_int_equal(help, 20); /* the help overlay's 20 lines */
    assert_int_equal(bar, 10);
    assert_string_equal(last_bar[0], "?");
    assert_string_equal(last_bar[1], "q");
    assert_string_equal(b[0].label, "Tab / Shift-Tab");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_readme_matches_table),
        cmocka_unit_test(test_man_page_matches_table),
        cmocka_unit_test(test_key_names),
        cmocka_unit_test(test_table_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
