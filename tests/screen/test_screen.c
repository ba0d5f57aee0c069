/*
 * test_screen.c - the explorer rendered in-process: newterm() on a
 * temporary file (no terminal needed), keys fed to explorer_key(), the
 * screen read back from curscr (characters with mvwin_wch, attributes and
 * colour pairs with getcchar) and compared with the goldens in
 * tests/screen/goldens/ for xterm-256color (UTF-8) and vt100 (ASCII, LANG=C) at
 * 80x24 and 120x40, plus the help overlay and the too-small screen.
 *
 * The goldens contain engine numbers.  Digits are compared as placeholders
 * (any digit matches any digit), so a small change to the engine's numbers
 * does not break them, while the layout, the labels, bar lengths, colours and
 * attributes are compared exactly.  After a change that moves more than
 * digits (a different ranking, a new preset, wider numbers), regenerate them
 * with `UPDATE_GOLDENS=1 make test` (or run this binary with
 * UPDATE_GOLDENS=1) and review the diff.
 *
 * Also: resizing to every odd size down to 1x1 and back, keys changing
 * what is shown, export files, NO_COLOR and 8-colour terminals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calib.h"
#include "calib_fixture.h"
#include "cli.h"
#include "scenario.h"
#include "preset.h"
#include "explorer.h"
#include "explorer_int.h"
#include "support_models.h"
#include "json.h"
#include "launch.h"
#include "term.h"
#include "heat.h"

#define DUMP_MAX (1 << 18)

static preset_db *g_db;
static FILE *g_out, *g_in;
static explorer *g_x;
static term_caps g_caps;
static char g_dump[DUMP_MAX];

static const char *goldens_dir(void)
{
    static char dir[512];
    struct stat st;
    if (stat("tests/screen/goldens", &st) == 0)
        return "tests/screen/goldens";
    /* Run from elsewhere: next to this source file. */
    snprintf(dir, sizeof dir, "%s", __FILE__);
    char *slash = strrchr(dir, '/');
    if (slash)
        snprintf(slash, sizeof dir - (size_t)(slash - dir), "/goldens");
    else
        snprintf(dir, sizeof dir, "goldens");
    return dir;
}

static int group_setup(void **state)
{
    (void)state;
    engine_error err = {{0}};
    /* No user presets, no saved calibration, no colour override: the
     * screens depend on the shipped data only. */
    setenv("XDG_CONFIG_HOME", "/nonexistent/shardscope-test", 1);
    unsetenv("NO_COLOR");
    unsetenv("SHARDSCOPE_EXPORT_DIR");
    if (preset_db_load("", &g_db, &err) != 0) {
        fprintf(stderr, "preset_db_load: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    preset_db_free(g_db);
    return 0;
}

/* The explorer's defaults for model on gpus of gpu. */
static explorer_opts opts_for(const char *model, const char *gpu, int gpus)
{
    explorer_opts eo;
    explorer_opts_defaults(&eo);
    eo.model = model;
    eo.gpu = gpu;
    eo.gpus = gpus;
    return eo;
}

/* Open a screen of the given type and size and an explorer on it. */
static void screen_open(const char *term, int utf8, int rows, int cols,
                        const explorer_opts *eo)
{
    setlocale(LC_ALL, utf8 ? "C.UTF-8" : "C");
    g_out = tmpfile();
    g_in = fopen("/dev/null", "r");
    assert_non_null(g_out);
    assert_non_null(g_in);
    term_opts o;
    term_opts_defaults(&o);
    o.in = g_in;
    o.out = g_out;
    o.term = term;
    o.utf8 = utf8;
    o.mouse = 0;
    o.rows = rows;
    o.cols = cols;
    engine_error err = {{0}};
    if (term_open(&o, &g_caps, err.msg, sizeof err.msg) != 0)
        fail_msg("term_open(%s): %s", term, err.msg);
    explorer_opts d;
    explorer_opts_defaults(&d);
    if (explorer_new(g_db, eo ? eo : &d, &g_caps, &g_x, &err) != 0)
        fail_msg("explorer_new: %s", err.msg);
    explorer_frame(g_x);
}

static void screen_close(void)
{
    explorer_free(g_x);
    g_x = NULL;
    term_close();
    fclose(g_out);
    fclose(g_in);
}

static void screen_resize(int rows, int cols)
{
    resizeterm(rows, cols);
    explorer_key(g_x, KEY_RESIZE);
    explorer_frame(g_x);
}

static void keys(const int *k, int n)
{
    for (int i = 0; i < n; i++) {
        explorer_key(g_x, k[i]);
        explorer_frame(g_x);
    }
}

static void type(const char *s)
{
    for (; *s; s++) {
        explorer_key(g_x, (unsigned char)*s);
        explorer_frame(g_x);
    }
}

static size_t put_utf8(char *o, wchar_t c)
{
    unsigned u = (unsigned)c;
    if (u < 0x80) {
        o[0] = (char)u;
        return 1;
    }
    if (u < 0x800) {
        o[0] = (char)(0xC0 | (u >> 6));
        o[1] = (char)(0x80 | (u & 0x3F));
        return 2;
    }
    o[0] = (char)(0xE0 | (u >> 12));
    o[1] = (char)(0x80 | ((u >> 6) & 0x3F));
    o[2] = (char)(0x80 | (u & 0x3F));
    return 3;
}

/* curscr as text, then one line of attribute classes per row ('.' is
 * plain), then the legend of the classes. */
static const char *dump_screen(void)
{
    enum { MAXC = 62 };
    static const char CODES[MAXC + 1] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    attr_t cls_attr[MAXC];
    short cls_pair[MAXC];
    int ncls = 0;
    int rows, cols;
    getmaxyx(curscr, rows, cols);
    static char attrs[200][320];
    size_t n = 0;
    for (int y = 0; y < rows && y < 200; y++) {
        for (int x = 0; x < cols && x < 319; x++) {
            cchar_t cc;
            wchar_t wch[CCHARW_MAX + 1] = {0};
            attr_t a = 0;
            short pair = 0;
            if (mvwin_wch(curscr, y, x, &cc) == ERR ||
                getcchar(&cc, wch, &a, &pair, NULL) == ERR)
                wch[0] = L'?';
            wchar_t c = wch[0] ? wch[0] : L' ';
            if (a & A_ALTCHARSET) {
                /* The VT100 line-drawing set as ASCII. */
                c = (c == 'q') ? '-' : (c == 'x') ? '|' : (c >= 'j' && c <= 'n') ? '+' : c;
            }
            n += put_utf8(g_dump + n, c);
            attr_t key = a & (A_BOLD | A_DIM | A_REVERSE | A_UNDERLINE | A_STANDOUT | A_BLINK);
            char code = '.';
            if (key || pair) {
                int k = 0;
                while (k < ncls && !(cls_attr[k] == key && cls_pair[k] == pair))
                    k++;
                if (k == ncls && ncls < MAXC) {
                    cls_attr[ncls] = key;
                    cls_pair[ncls] = pair;
                    ncls++;
                }
                code = k < MAXC ? CODES[k] : '?';
            }
            attrs[y][x] = code;
        }
        attrs[y][cols < 319 ? cols : 319] = '\0';
        g_dump[n++] = '\n';
    }
    n += (size_t)snprintf(g_dump + n, DUMP_MAX - n, "== attributes\n");
    for (int y = 0; y < rows && y < 200; y++)
        n += (size_t)snprintf(g_dump + n, DUMP_MAX - n, "%s\n", attrs[y]);
    n += (size_t)snprintf(g_dump + n, DUMP_MAX - n, "== legend\n");
    for (int k = 0; k < ncls; k++)
        n += (size_t)snprintf(g_dump + n, DUMP_MAX - n, "%c: pair %d%s%s%s%s%s\n", CODES[k],
                              cls_pair[k], cls_attr[k] & A_BOLD ? " bold" : "",
                              cls_attr[k] & A_DIM ? " dim" : "",
                              cls_attr[k] & A_REVERSE ? " reverse" : "",
                              cls_attr[k] & A_UNDERLINE ? " underline" : "",
                              cls_attr[k] & A_STANDOUT ? " standout" : "");
    g_dump[n] = '\0';
    return g_dump;
}

/* Equal, except that any digit matches any digit. */
static int same_but_digits(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (*a != *b && !(isdigit((unsigned char)*a) && isdigit((unsigned char)*b)))
            return 0;
    return *a == *b;
}

static void check_golden(const char *name)
{
    const char *got = dump_screen();
    char path[700];
    snprintf(path, sizeof path, "%s/%s.txt", goldens_dir(), name);
    const char *upd = getenv("UPDATE_GOLDENS");
    if (upd && *upd && strcmp(upd, "0")) {
        FILE *f = fopen(path, "w");
        if (!f)
            fail_msg("cannot write %s", path);
        fputs(got, f);
        fclose(f);
        return;
    }
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("missing golden %s: run with UPDATE_GOLDENS=1 to create it", path);
    static char want[DUMP_MAX];
    size_t len = fread(want, 1, sizeof want - 1, f);
    want[len] = '\0';
    fclose(f);
    if (same_but_digits(want, got))
        return;
    char actual[700];
    snprintf(actual, sizeof actual, "%s/shardscope-%s.actual.txt",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name);
    FILE *a = fopen(actual, "w");
    if (a) {
        fputs(got, a);
        fclose(a);
    }
    /* Name the first differing line. */
    int line = 1;
    const char *p = want, *q = got;
    while (*p && (*p == *q || (isdigit((unsigned char)*p) && isdigit((unsigned char)*q)))) {
        if (*p == '\n')
            line++;
        p++;
        q++;
    }
    fail_msg("screen differs from %s at line %d (actual screen in %s). If the engine or the "
             "presets changed on purpose, regenerate with UPDATE_GOLDENS=1 and review the diff.",
             path, line, actual);
}

static int screen_contains(const char *s)
{
    dump_screen();
    char *end = strstr(g_dump, "== attributes");
    if (end)
        *end = '\0';
    return strstr(g_dump, s) != NULL;
}


/* The text of one pane's rectangle on curscr, rows joined by newlines. */
static const char *pane_text(int pane)
{
    static char buf[1 << 16];
    layout_rect rc = g_x->scr.lay.pane[pane];
    size_t n = 0;
    for (int y = rc.y; y < rc.y + rc.h; y++) {
        for (int x = rc.x; x < rc.x + rc.w && n + 8 < sizeof buf; x++) {
            cchar_t cc;
            wchar_t wch[CCHARW_MAX + 1] = {0};
            attr_t a = 0;
            short pair = 0;
            if (mvwin_wch(curscr, y, x, &cc) == ERR ||
                getcchar(&cc, wch, &a, &pair, NULL) == ERR)
                wch[0] = L'?';
            n += put_utf8(buf + n, wch[0] ? wch[0] : L' ');
        }
        buf[n++] = '\n';
    }
    buf[n] = '\0';
    return buf;
}

static int pane_contains(int pane, const char *s)
{
    int found = strstr(pane_text(pane), s) != NULL;
    if (!found && getenv("SCREEN_DEBUG"))
        fprintf(stderr, "pane %d has no '%s':\n%s", pane, s, pane_text(pane));
    return found;
}

/* --- goldens ------------------------------------------------------------ */

static void test_golden_120x40_xterm256(void **state)
{
    (void)state;
    screen_open("xterm-256color", 1, 40, 120, NULL);
    assert_int_equal(g_caps.mode, THEME_256);
    check_golden("explorer-120x40-xterm-256color");
    screen_close();
}

static void test_golden_120x40_vt100(void **state)
{
    (void)state;
    screen_open("vt100", 0, 40, 120, NULL);
    assert_int_equal(g_caps.mode, THEME_MONO);
    check_golden("explorer-120x40-vt100");
    screen_close();
}

static void test_golden_80x24_xterm256(void **state)
{
    (void)state;
    screen_open("xterm-256color", 1, 24, 80, NULL);
    check_golden("explorer-80x24-xterm-256color");
    screen_close();
}

static void test_golden_80x24_vt100(void **state)
{
    (void)state;
    screen_open("vt100", 0, 24, 80, NULL);
    check_golden("explorer-80x24-vt100");
    /* The heatmap tab: monochrome glyph ramp and C/M letters. */
    type("5");
    check_golden("explorer-80x24-vt100-heatmap");
    screen_close();
}

static void test_golden_help_and_too_small(void **state)
{
    (void)state;
    screen_open("vt100", 0, 24, 80, NULL);
    type("?");
    check_golden("explorer-80x24-vt100-help");
    type(" ");
    screen_resize(20, 60);
    check_golden("explorer-60x20-vt100-too-small");
    screen_close();
}

/* --- behaviour ----------------------------------------------------------- */

static void test_resize_down_to_1x1_and_back(void **state)
{
    (void)state;
    screen_open("xterm-256color", 1, 40, 120, NULL);
    static const int SIZES[][2] = {{23, 80},  {24, 79},  {1, 1},    {2, 1},   {1, 200},
                                   {100, 3},  {24, 80},  {40, 120}, {100, 300}, {39, 119},
                                   {0 + 5, 5}, {31, 97}, {24, 80}};
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++) {
        int r = SIZES[i][0], c = SIZES[i][1];
        screen_resize(r, c);
        int small = r < 24 || c < 80;
        if (small && c >= 32 && r >= 1)
            assert_true(screen_contains("terminal too small (needs 80x24)"));
        if (!small) {
            assert_true(screen_contains("Controls"));
            assert_false(screen_contains("terminal too small"));
        }
        /* Keys at any size must be harmless. */
        type("\t+j?");
        type(" ");
    }
    screen_close();
}

static void test_keys_change_what_is_shown(void **state)
{
    (void)state;
    screen_open("xterm-256color", 1, 40, 120, NULL);
    assert_true(screen_contains("Strategies: 8 GPUs"));
    type("+"); /* GPU count is selected at start: next power of two */
    assert_true(screen_contains("Strategies: 16 GPUs"));
    int left[] = {KEY_LEFT, KEY_LEFT};
    keys(left, 2);
    assert_true(screen_contains("Strategies: 14 GPUs"));
    type("-");
    assert_true(screen_contains("Strategies: 8 GPUs"));
    /* Interconnect: up to "Intra link", one step right. */
    int up[] = {KEY_UP, KEY_UP};
    keys(up, 2);
    char before[64];
    snprintf(before, sizeof before, "%s", exp_link(g_x, CTL_INTRA)->name);
    int right[] = {KEY_RIGHT};
    keys(right, 1);
    assert_string_not_equal(before, exp_link(g_x, CTL_INTRA)->name);
    char hdr[96];
    snprintf(hdr, sizeof hdr, "%s / ", exp_link(g_x, CTL_INTRA)->name);
    assert_true(screen_contains(hdr));
    /* Filter the models and choose one. */
    type("/3-8b\r");
    assert_true(screen_contains("Llama-3-8B"));
    assert_string_equal(exp_model(g_x)->name, "llama-3-8b");
    /* Strategies pane: select the second plan; details follow. */
    type("2j");
    assert_true(screen_contains("Details: plan #2"));
    /* Heatmap mode. */
    type("m");
    assert_true(screen_contains("models x links"));
    /* Help lists every key. */
    type("?");
    assert_true(screen_contains("Shift-Tab"));
    assert_true(screen_contains("PgUp/PgDn"));
    assert_true(screen_contains("export the tables"));
    type("x");
    assert_false(screen_contains("Shift-Tab"));
    /* Reset. */
    type("r");
    assert_true(screen_contains("Llama-3-70B"));
    assert_true(screen_contains("Strategies: 8 GPUs"));
    assert_int_equal(explorer_key(g_x, 'q'), 1);
    assert_int_equal(explorer_key(g_x, 27), 1);
    screen_close();
}

static void test_preselection_and_vram_default(void **state)
{
    (void)state;
    explorer_opts eo = opts_for("llama-3-8b", "a100-40gb", 2);
    eo.link = "pcie4";
    screen_open("xterm", 1, 24, 80, &eo);
    assert_int_equal(g_caps.mode, THEME_8);
    assert_true(screen_contains("Llama-3-8B"));
    /* a100-40gb holds the driver's total, 40960 MiB = 42.95 GB; the VRAM
     * slider moves in whole GB and starts at 43 */
    assert_true(screen_contains("43 GB"));
    /* the link selector shows the preselected link (an 80-column title
     * line drops the link names first) */
    assert_true(screen_contains("PCIe 4.0 x16"));
    assert_string_equal(exp_link(g_x, CTL_INTRA)->name, "pcie4");
    assert_int_equal(g_x->ctl.s[CTL_VRAM].value, 43);
    screen_close();
    eo.vram_gb = 24;
    screen_open("xterm", 1, 24, 80, &eo);
    assert_int_equal(g_x->ctl.s[CTL_VRAM].value, 24);
    screen_close();
    /* The explorer and the CLI start from the same GPU topology: an RTX 4090
     * talks over PCIe 4.0 in an 8-GPU node, not over NVLink; an H100 on
     * NVLink 4 in 8-GPU domains over InfiniBand NDR. */
    eo.vram_gb = 0;
    eo.link = NULL;
    eo.gpu = "rtx-4090";
    screen_open("xterm", 1, 24, 80, &eo);
    assert_string_equal(exp_link(g_x, CTL_INTRA)->name, "pcie4");
    assert_int_equal(g_x->ctl.s[CTL_PER_NODE].value, 8);
    screen_close();
    eo.gpu = "h100-sxm";
    screen_open("xterm", 1, 24, 80, &eo);
    assert_string_equal(exp_link(g_x, CTL_INTRA)->name, "nvlink4");
    assert_string_equal(exp_link(g_x, CTL_INTER)->name, "ib-ndr");
    assert_int_equal(g_x->ctl.s[CTL_PER_NODE].value, 8);
    screen_close();
    explorer *x = NULL;
    engine_error err = {{0}};
    eo.model = "no-such-model";
    assert_int_equal(explorer_new(g_db, &eo, &g_caps, &x, &err), -1);
    assert_null(x);
    assert_string_equal(err.msg, "unknown model 'no-such-model'");
    /* err may be NULL: the same failure, nothing written */
    assert_int_equal(explorer_new(g_db, &eo, &g_caps, &x, NULL), -1);
    assert_null(x);
}

static void click(int y, int x, mmask_t b)
{
    MEVENT ev;
    memset(&ev, 0, sizeof ev);
    ev.y = y;
    ev.x = x;
    ev.bstate = b;
    ungetmouse(&ev);
    explorer_key(g_x, KEY_MOUSE);
    explorer_frame(g_x);
}

static void test_mouse_focus_pick_and_wheel(void **state)
{
    (void)state;
    setlocale(LC_ALL, "C.UTF-8");
    g_out = tmpfile();
    g_in = fopen("/dev/null", "r");
    term_opts o;
    term_opts_defaults(&o);
    o.in = g_in;
    o.out = g_out;
    o.term = "xterm-256color";
    o.rows = 40;
    o.cols = 120;
    o.mouse = 1;
    engine_error err = {{0}};
    assert_int_equal(term_open(&o, &g_caps, err.msg, sizeof err.msg), 0);
    assert_true(g_caps.mouse);
    explorer_opts eo;
    explorer_opts_defaults(&eo);
    assert_int_equal(explorer_new(g_db, &eo, &g_caps, &g_x, &err), 0);
    explorer_frame(g_x);
    layout_rect sp = g_x->scr.lay.pane[PANE_STRATEGIES];
    /* Click the third plan row (border, header row, then plans). */
    click(sp.y + 2 + 2, sp.x + 10, BUTTON1_CLICKED);
    assert_int_equal(g_x->view.focus, PANE_STRATEGIES);
    assert_int_equal(g_x->view.plans.sel, 2);
    assert_true(screen_contains("Details: plan #3"));
    /* Click a control, then the wheel adjusts it. */
    layout_rect cp = g_x->scr.lay.pane[PANE_CONTROLS];
    click(cp.y + 1 + CTL_BATCH, cp.x + 5, BUTTON1_CLICKED);
    assert_int_equal(g_x->view.focus, PANE_CONTROLS);
    assert_int_equal(g_x->ctl.sel, CTL_BATCH);
    click(cp.y + 3, cp.x + 5, BUTTON4_PRESSED);
    assert_int_equal(g_x->ctl.s[CTL_BATCH].value, 2);
    click(cp.y + 3, cp.x + 5, BUTTON5_PRESSED);
    assert_int_equal(g_x->ctl.s[CTL_BATCH].value, 1);
    /* The wheel over the heatmap moves the GPU count by powers of two. */
    layout_rect hp = g_x->scr.lay.pane[PANE_HEAT];
    click(hp.y + 3, hp.x + 3, BUTTON4_PRESSED);
    assert_true(screen_contains("Strategies: 16 GPUs"));
    /* Clicks outside any pane do nothing. */
    click(0, 0, BUTTON1_CLICKED);
    assert_int_equal(g_x->view.focus, PANE_CONTROLS);
    screen_close();
}

/* The compact layout: a click on a tab (the layout's tab rectangles)
 * focuses its pane, as its digit key does; a click in the heatmap toggles
 * its mode; the wheel over the details scrolls them. */
static void test_mouse_tabs_compact(void **state)
{
    (void)state;
    setlocale(LC_ALL, "C.UTF-8");
    g_out = tmpfile();
    g_in = fopen("/dev/null", "r");
    term_opts o;
    term_opts_defaults(&o);
    o.in = g_in;
    o.out = g_out;
    o.term = "xterm-256color";
    o.rows = 24;
    o.cols = 80;
    o.mouse = 1;
    engine_error err = {{0}};
    assert_int_equal(term_open(&o, &g_caps, err.msg, sizeof err.msg), 0);
    explorer_opts eo;
    explorer_opts_defaults(&eo);
    assert_int_equal(explorer_new(g_db, &eo, &g_caps, &g_x, &err), 0);
    explorer_frame(g_x);
    const layout *l = &g_x->scr.lay;
    assert_int_equal(l->mode, LAYOUT_COMPACT);
    click(l->tabs.y, l->tab[PANE_HEAT].x + 2, BUTTON1_CLICKED);
    assert_int_equal(g_x->view.focus, PANE_HEAT);
    assert_true(screen_contains("Regime: TP over N GPUs x links"));
    layout_rect hp = g_x->scr.lay.pane[PANE_HEAT];
    click(hp.y + 3, hp.x + 3, BUTTON1_CLICKED);
    assert_true(screen_contains("Regime: models x links"));
    click(l->tabs.y, l->tab[PANE_DETAILS].x, BUTTON1_CLICKED);
    assert_int_equal(g_x->view.focus, PANE_DETAILS);
    layout_rect dp = g_x->scr.lay.pane[PANE_DETAILS];
    assert_int_equal(g_x->view.details.top, 0);
    click(dp.y + 3, dp.x + 3, BUTTON5_PRESSED); /* wheel down: scroll */
    assert_int_equal(g_x->view.details.top, 1);
    click(dp.y + 3, dp.x + 3, BUTTON4_PRESSED);
    assert_int_equal(g_x->view.details.top, 0);
    /* the same tab by its key */
    explorer_key(g_x, '1');
    explorer_frame(g_x);
    assert_int_equal(g_x->view.focus, PANE_CONTROLS);
    screen_close();
}

/* Drawing changes nothing: once a frame has brought the update step up to
 * date, another frame leaves the controls, the view (focus, tab, every
 * scroll position), the overlay and the results' cache keys as they were,
 * with the details scrolled past their end, a selector list open, the
 * help and the calibration view. */
static void assert_frame_is_pure(void)
{
    exp_controls c = g_x->ctl;
    exp_viewstate v = g_x->view;
    exp_overlay o = g_x->ov;
    exp_results r = g_x->r;
    explorer_frame(g_x);
    assert_memory_equal(&c, &g_x->ctl, sizeof c);
    assert_memory_equal(&v, &g_x->view, sizeof v);
    assert_memory_equal(&o, &g_x->ov, sizeof o);
    assert_memory_equal(&r, &g_x->r, sizeof r);
}

static void test_drawing_changes_nothing(void **state)
{
    (void)state;
    screen_open("xterm-256color", 1, 40, 120, NULL);
    assert_frame_is_pure();
    static const int DETAILS[] = {'3', KEY_NPAGE, KEY_NPAGE, KEY_NPAGE, KEY_NPAGE, KEY_DOWN};
    keys(DETAILS, 6);
    assert_true(g_x->view.details.top > 0);
    assert_frame_is_pure();
    static const int LIST[] = {'1', KEY_UP, KEY_UP, KEY_UP, KEY_UP, '\n', KEY_END};
    keys(LIST, 7);
    assert_int_equal(g_x->ov.kind, OVERLAY_LIST);
    assert_frame_is_pure();
    static const int HELP[] = {27, '?'};
    keys(HELP, 2);
    assert_int_equal(g_x->ov.kind, OVERLAY_HELP);
    assert_frame_is_pure();
    static const int VIEW[] = {' ', 'v'};
    keys(VIEW, 2);
    assert_int_equal(g_x->ov.kind, OVERLAY_CALIB);
    assert_frame_is_pure();
    screen_close();
}

/* Random keys, resizes and clicks (a fixed seed): nothing may crash, and
 * the explorer's indices stay inside their ranges. */
static void test_random_keys_and_resizes(void **state)
{
    (void)state;
    static const int KEYS[] = {'\t', KEY_BTAB, KEY_UP, KEY_DOWN, KEY_LEFT, KEY_RIGHT, 'h',
                               'j', 'k', 'l', '+', '-', KEY_PPAGE, KEY_NPAGE, KEY_HOME,
                               KEY_END, '\r', '/', '?', 'm', 'r', '1', '2', '3', '4', '5',
                               '6', 27, KEY_BACKSPACE, 'a', '8', ' ', 12, 'x'};
    static const int SIZES[][2] = {{24, 80}, {40, 120}, {23, 79}, {1, 1}, {60, 200},
                                   {30, 100}, {24, 300}, {100, 80}};
    screen_open("xterm-256color", 1, 40, 120, NULL);
    unsigned seed = 12345;
    for (int i = 0; i < 1500; i++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = (seed >> 8) % 1000;
        if (r < 15) {
            int k = (int)((seed >> 3) % (sizeof SIZES / sizeof SIZES[0]));
            screen_resize(SIZES[k][0], SIZES[k][1]);
        } else {
            int key = KEYS[(seed >> 4) % (sizeof KEYS / sizeof KEYS[0])];
            if (explorer_key(g_x, key))
                continue; /* q / Esc: the loop would stop; keep going */
            explorer_frame(g_x);
        }
        for (int c = 0; c < CTL_COUNT; c++) {
            assert_true(g_x->ctl.s[c].value >= g_x->ctl.s[c].min);
            assert_true(g_x->ctl.s[c].value <= g_x->ctl.s[c].max);
        }
        assert_true(g_x->view.focus >= 0 && g_x->view.focus < PANE_COUNT);
        assert_true(g_x->view.plans.sel >= 0);
        assert_true(g_x->r.n_plans == 0 || g_x->view.plans.sel < g_x->r.n_plans);
    }
    screen_close();
}

static void test_no_color_is_honoured(void **state)
{
    (void)state;
    setenv("NO_COLOR", "1", 1);
    screen_open("xterm-256color", 1, 24, 80, NULL);
    assert_int_equal(g_caps.mode, THEME_MONO);
    screen_close();
    unsetenv("NO_COLOR");
}

/* The exported JSON: schema_version first; "plans" holds exactly the
 * objects `eval --json` prints for the explorer's ranked plans (same
 * writer, same nulls for a plan that does not fit); the schema-1 names stay
 * as aliases. */
static void check_export_json(const char *path, const exp_results *want)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[1 << 21];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    buf[len] = '\0';
    fclose(f);
    cJSON *root = cJSON_Parse(buf);
    assert_non_null(root);
    assert_non_null(root->child);
    assert_string_equal(root->child->string, "schema_version");
    assert_int_equal((int)root->child->valuedouble, OUT_SCHEMA_VERSION);
    cJSON *plans = cJSON_GetObjectItemCaseSensitive(root, "plans");
    assert_true(cJSON_IsArray(plans));
    assert_int_equal(cJSON_GetArraySize(plans), want->n_plans);
    int unfit = 0;
    for (int i = 0; i < want->n_plans; i++) {
        engine_result r = want->plans[i];
        if (!want->tails_done[i])
            r.p50_s = r.p99_s = 0;
        cJSON *exp = cli_result_json(&want->sc, &r);
        cJSON *got = cJSON_GetArrayItem(plans, i);
        assert_true(cJSON_Compare(exp, got, 1));
        cJSON_Delete(exp);
        if (r.valid && !r.fits) {
            unfit++;
            static const char *const NUL[] = {"ttft_s", "itl_s", "e2e_s", "tokens_per_s",
                                              "cost_per_mtok_usd"};
            for (size_t k = 0; k < sizeof NUL / sizeof NUL[0]; k++)
                assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(got, NUL[k])));
            assert_true(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(got, "memory"), "weights_bytes")));
        }
    }
    assert_true(unfit > 0); /* the scenario has plans that do not fit */
    cJSON *sc = cJSON_GetObjectItemCaseSensitive(root, "scenario");
    cJSON *esc = cli_scenario_json(&want->sc);
    for (cJSON *k = esc->child; k; k = k->next)
        assert_true(cJSON_Compare(k, cJSON_GetObjectItemCaseSensitive(sc, k->string), 1));
    cJSON_Delete(esc);
    /* The schema-1 aliases went in schema_version 3: the scenario is eval's
     * echo and nothing more, and there is no "strategies" array. */
    int n_sc = 0, n_esc = 0;
    for (cJSON *k = sc->child; k; k = k->next)
        n_sc++;
    esc = cli_scenario_json(&want->sc);
    for (cJSON *k = esc->child; k; k = k->next)
        n_esc++;
    cJSON_Delete(esc);
    assert_int_equal(n_sc, n_esc);
    static const char *const GONE[] = {"intra_link", "prompt_tokens", "gen_tokens",
                                       "weight_dtype"};
    for (size_t k = 0; k < sizeof GONE / sizeof GONE[0]; k++)
        assert_null(cJSON_GetObjectItemCaseSensitive(sc, GONE[k]));
    assert_null(cJSON_GetObjectItemCaseSensitive(root, "strategies"));
    assert_non_null(cJSON_GetObjectItemCaseSensitive(root, "vram_frontier"));
    assert_non_null(cJSON_GetObjectItemCaseSensitive(root, "regime"));
    cJSON_Delete(root);
}

/* The CSV: the scenario block, then the plans with eval --csv's columns. */
static void check_export_csv(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    assert_non_null(fgets(line, sizeof line, f));
    assert_int_equal(strncmp(line, "table,model,gpu,gpus", 20), 0);
    assert_non_null(fgets(line, sizeof line, f)); /* scenario row */
    assert_non_null(fgets(line, sizeof line, f)); /* blank */
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "table,rank,plan,tp,pp,dp,ep,valid,fits,reason,weights_bytes,"
                              "kv_bytes,activation_bytes,overhead_bytes,per_gpu_bytes,"
                              "capacity_bytes,ttft_s,itl_s,e2e_s,tokens_per_s,speedup,"
                              "efficiency,compute_comm_ratio,regime,bubble_fraction,"
                              "cost_per_mtok_usd,p50_s,p99_s,batch,max_concurrency,"
                              "kv_capacity_tokens\n");
    assert_non_null(fgets(line, sizeof line, f));
    assert_int_equal(strncmp(line, "strategies,1,TP", 15), 0);
    fclose(f);
}

static void test_export_writes_csv_and_json(void **state)
{
    (void)state;
    char dir[] = "/tmp/shardscope-export-XXXXXX";
    assert_non_null(mkdtemp(dir));
    explorer_opts eo;
    explorer_opts_defaults(&eo);
    eo.export_dir = dir;
    eo.model = "llama-3-70b"; /* 140 GB of weights on 4 x 80 GB: some plans do not fit */
    eo.gpu = "h100-sxm";
    eo.gpus = 4;
    screen_open("vt100", 0, 40, 120, &eo);
    type("e");
    const char *msg = explorer_message(g_x);
    assert_non_null(strstr(msg, "exported"));
    assert_non_null(strstr(msg, dir));
    assert_true(screen_contains("exported"));
    type("e"); /* a second export in the same second gets a new name */

    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int csv = 0, json = 0;
    while ((e = readdir(d))) {
        char p[600];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        if (n > 4 && !strcmp(e->d_name + n - 4, ".csv")) {
            csv++;
            check_export_csv(p);
        } else if (n > 5 && !strcmp(e->d_name + n - 5, ".json")) {
            json++;
            check_export_json(p, &g_x->r);
        }
        if (e->d_name[0] != '.')
            unlink(p);
    }
    closedir(d);
    rmdir(dir);
    screen_close();
    assert_int_equal(csv, 2);
    assert_int_equal(json, 2);
}

static void test_export_failure_is_reported(void **state)
{
    (void)state;
    explorer_opts eo;
    explorer_opts_defaults(&eo);
    eo.export_dir = "/nonexistent/shardscope";
    screen_open("vt100", 0, 24, 80, &eo);
    type("e");
    assert_non_null(strstr(explorer_message(g_x), "export failed"));
    screen_close();
}

/* --- calibration: a fake hook (no GPU), the progress bar, Esc, the view -- */

/* The shared synthetic calibration (tests/support/calib_fixture.h): an
 * H100 with fixed numbers, times from a known roofline, a little off it. */
static calib_result g_cres;

static void synthetic_result(void)
{
    assert_int_equal(ts_calib_fixture(&g_cres), 0);
}

/* The fake job: what start/poll/release saw and what poll answers. */
static struct fake_job {
    int started, released, polls;
    int outcome; /* 0 keep running, 1 finish with the result, -1 fail */
    int saved;   /* load_for_gpu / view find the synthetic result saved */
    int refuse;  /* start: 1 fails with a reason in err, 2 fails without one */
    char model[64]; /* the model start was given */
} g_fake;

static int fake_load(const char *gpu, engine_calib *out)
{
    if (!g_fake.saved || strcmp(gpu, "h100-sxm") != 0)
        return 0;
    calib_result_to_engine(&g_cres, out);
    return 1;
}

static void *fake_start(const preset_db *db, int gpu_index, const engine_model *model,
                        engine_error *err)
{
    (void)db;
    (void)gpu_index;
    g_fake.started++;
    snprintf(g_fake.model, sizeof g_fake.model, "%s", model ? model->name : "");
    if (g_fake.refuse == 1)
        snprintf(err->msg, sizeof err->msg, "no CUDA device 0 (0 devices visible)");
    return g_fake.refuse ? NULL : &g_fake;
}

static int fake_poll(void *job, double *progress, char *step, size_t step_len,
                     engine_calib *out)
{
    assert_ptr_equal(job, &g_fake);
    g_fake.polls++;
    if (g_fake.outcome == 0) {
        *progress = 0.42;
        snprintf(step, step_len, "prefill h=4096 b=2");
        return 0;
    }
    *progress = 1;
    if (g_fake.outcome < 0) {
        snprintf(step, step_len, "no usable GPU: cudaGetDeviceCount failed: CUDA driver "
                                 "version is insufficient; previous calibration kept");
        return -1;
    }
    calib_result_to_engine(&g_cres, out);
    snprintf(step, step_len, "NVIDIA H100 80GB HBM3: eta_c 0.70 eta_m 0.80, MAPE 3.1%%");
    return 1;
}

static void fake_release(void *job)
{
    assert_ptr_equal(job, &g_fake);
    g_fake.released++;
}

static int fake_view(const char *gpu, explorer_calib_view *out)
{
    if (!g_fake.saved || strcmp(gpu, "h100-sxm") != 0)
        return 0;
    explorer_calib_view_from_result(&g_cres, "/home/user/.config/shardscope/calibration/"
                                             "nvidia-h100-80gb-hbm3.json", out);
    return 1;
}

static int fake_job_view(void *job, explorer_calib_view *out)
{
    assert_ptr_equal(job, &g_fake);
    explorer_calib_view_from_result(&g_cres, "measured in this session (and saved)", out);
    return 1;
}

static const explorer_calib_ops FAKE_OPS = {
    .load_for_gpu = fake_load,
    .start = fake_start,
    .poll = fake_poll,
    .release = fake_release,
    .view = fake_view,
    .job_view = fake_job_view,
};

static void fake_open(const char *term, int utf8, int rows, int cols, int saved)
{
    memset(&g_fake, 0, sizeof g_fake);
    g_fake.saved = saved;
    synthetic_result();
    screen_open(term, utf8, rows, cols, NULL);
    explorer_set_calib_ops(g_x, &FAKE_OPS);
    explorer_frame(g_x);
}

static void fake_close(void)
{
    screen_close();
    calib_result_free(&g_cres);
}

static void poll_and_draw(void)
{
    explorer_poll(g_x);
    explorer_frame(g_x);
}

static void test_calib_progress_and_escape_cancels(void **state)
{
    (void)state;
    fake_open("vt100", 0, 24, 80, 0);
    assert_true(screen_contains("calib: datasheet defaults"));
    type("c");
    assert_int_equal(g_fake.started, 1);
    assert_non_null(g_x->cal.job);
    assert_int_equal(explorer_poll(g_x), 1); /* 0% -> 42%: a frame is due */
    explorer_frame(g_x);
    assert_int_equal(explorer_poll(g_x), 0); /* nothing new: no redraw */
    /* The bar: ASCII under LANG=C, 42% of 13 cells. */
    assert_true(screen_contains("calibrating [#####........] 42% prefill h=4096 b=2"));
    check_golden("explorer-80x24-vt100-calibrating");
    /* Sliders and keys keep working while it runs. */
    type("+");
    assert_true(screen_contains("Strategies: 16 GPUs"));
    type("j");
    assert_int_equal(g_x->ctl.sel, CTL_PER_NODE);
    type("?");
    assert_true(screen_contains("Esc first cancels calibration"));
    type(" ");
    poll_and_draw();
    assert_non_null(g_x->cal.job);
    assert_true(screen_contains("calibrating ["));
    assert_int_equal(g_fake.released, 0);
    /* Esc cancels (the release op cancels and waits) instead of quitting. */
    assert_int_equal(explorer_key(g_x, 27), 0);
    explorer_frame(g_x);
    assert_int_equal(g_fake.released, 1);
    assert_null(g_x->cal.job);
    assert_non_null(strstr(explorer_message(g_x), "calibration cancelled"));
    assert_true(screen_contains("calibration cancelled"));
    assert_false(screen_contains("calibrating ["));
    assert_false(g_x->cal.calib.measured); /* the previous calibration stays */
    assert_true(screen_contains("calib: datasheet defaults"));
    assert_int_equal(explorer_poll(g_x), 0);
    /* With nothing running, Esc quits again. */
    assert_int_equal(explorer_key(g_x, 27), 1);
    assert_int_equal(g_fake.released, 1);
    fake_close();
}

static void test_calib_q_cancels_then_quits(void **state)
{
    (void)state;
    fake_open("xterm-256color", 1, 40, 120, 1);
    assert_true(screen_contains("calib: measured on NVIDIA H100 80GB HBM3"));
    type("c");
    poll_and_draw();
    assert_true(screen_contains("calibrating ["));
    assert_int_equal(explorer_key(g_x, 'q'), 1);
    assert_int_equal(g_fake.released, 1);
    assert_null(g_x->cal.job);
    assert_true(g_x->cal.calib.measured); /* kept */
    fake_close();
    /* Esc in the too-small screen cancels as well. */
    fake_open("vt100", 0, 24, 80, 0);
    type("c");
    screen_resize(20, 60);
    assert_int_equal(explorer_key(g_x, 27), 0);
    assert_int_equal(g_fake.released, 1);
    assert_int_equal(explorer_key(g_x, 27), 1);
    fake_close();
}

static void test_calib_finish_failure_and_gpu_change(void **state)
{
    (void)state;
    fake_open("vt100", 0, 40, 120, 0);
    /* A failure: the message, the defaults kept, the reason in the view. */
    g_fake.outcome = -1;
    type("c");
    poll_and_draw();
    assert_null(g_x->cal.job);
    assert_int_equal(g_fake.released, 1);
    assert_true(screen_contains("calibration failed: no usable GPU"));
    assert_false(g_x->cal.calib.measured);
    type("v");
    assert_true(screen_contains("datasheet defaults"));
    assert_true(screen_contains("Last attempt: failed: no usable GPU"));
    type(" ");
    assert_false(screen_contains("Last attempt"));
    /* The GPU changes while measuring: the result is not applied to it. */
    g_fake.outcome = 0;
    type("c");
    poll_and_draw();
    int up[] = {KEY_UP, KEY_UP, KEY_UP, KEY_RIGHT};
    keys(up, 4);
    assert_int_equal(g_x->ctl.sel, CTL_GPU);
    assert_string_not_equal(exp_gpu(g_x)->name, "h100-sxm");
    assert_non_null(g_x->cal.job); /* still running */
    g_fake.outcome = 1;
    poll_and_draw();
    assert_false(g_x->cal.calib.measured);
    assert_true(screen_contains("select that GPU to use it"));
    /* Back on the H100 and measured again: applied, and the view shows
     * this session's run. */
    int left[] = {KEY_LEFT};
    keys(left, 1);
    assert_string_equal(exp_gpu(g_x)->name, "h100-sxm");
    type("c");
    poll_and_draw();
    assert_true(g_x->cal.calib.measured);
    /* its NCCL all-reduce table (the fixture's, 8 sizes on 2 GPUs) times the
     * all-reduces on the intra link */
    assert_ptr_equal(g_x->r.sc.intra, &g_x->cal.link);
    assert_int_equal(g_x->r.sc.intra->curve[ENGINE_OP_ALLREDUCE].n, 8);
    assert_int_equal(g_x->r.sc.intra->curve[ENGINE_OP_ALLREDUCE].gpus, 2);
    assert_int_equal(g_fake.released, 3);
    assert_true(screen_contains("calibration done: NVIDIA H100 80GB HBM3"));
    assert_true(screen_contains("calib: measured on NVIDIA H100 80GB HBM3 2026-11-29"));
    type("v");
    assert_true(screen_contains("source: measured in this session (and saved)"));
    assert_true(screen_contains("beta 0."));
    fake_close();
}

/* start refuses: its reason (engine_error) on the bar and in the view's
 * note; without a reason, the fallbacks. */
static void test_calib_start_refused(void **state)
{
    (void)state;
    fake_open("vt100", 0, 40, 120, 0);
    g_fake.refuse = 1;
    type("c");
    assert_int_equal(g_fake.started, 1);
    assert_null(g_x->cal.job);
    assert_string_equal(explorer_message(g_x),
                        "calibration: no CUDA device 0 (0 devices visible)");
    assert_string_equal(g_x->cal.note, "could not start: no CUDA device 0 (0 devices visible)");
    g_fake.refuse = 2;
    type("c");
    assert_int_equal(g_fake.started, 2);
    assert_string_equal(explorer_message(g_x), "calibration: could not start");
    assert_string_equal(g_x->cal.note, "could not start: (no reason given)");
    assert_int_equal(g_fake.released, 0); /* nothing to release */
    fake_close();
}

static void test_calib_view_goldens(void **state)
{
    (void)state;
    /* A calibration saved before start: the view of that file. */
    fake_open("vt100", 0, 24, 80, 1);
    assert_true(g_x->cal.calib.measured);
    type("v");
    assert_true(screen_contains("NVIDIA H100 80GB HBM3 * cuda fp16 * 2026-11-29T09:00:00Z"));
    char pl[96];
    snprintf(pl, sizeof pl, "beta %.4f  a %.3g s", g_cres.power_law.beta, g_cres.power_law.a);
    assert_true(screen_contains(pl));
    assert_true(screen_contains("eta_c 0.700  eta_m 0.800  overhead 8.00 us  MAPE 3.1%"));
    assert_true(screen_contains("source: /home/user/.config/shardscope/calibration/"));
    check_golden("calib-view-80x24-vt100");
    /* c from the view measures with the view open; Esc then closes the
     * view only (a second Esc cancels). */
    type("c");
    poll_and_draw();
    assert_non_null(g_x->cal.job);
    assert_true(screen_contains("Calibration in use"));
    assert_int_equal(explorer_key(g_x, 27), 0);
    explorer_frame(g_x);
    assert_false(screen_contains("Calibration in use"));
    assert_non_null(g_x->cal.job);
    assert_int_equal(explorer_key(g_x, 27), 0);
    assert_null(g_x->cal.job);
    fake_close();

    fake_open("xterm-256color", 1, 40, 120, 1);
    type("v");
    assert_true(screen_contains("NCCL AllReduce (2 GPUs)"));
    check_golden("calib-view-120x40-xterm-256color");
    /* Resizing with the view open reflows it; too small hides it. */
    screen_resize(24, 80);
    assert_true(screen_contains("Calibration in use"));
    screen_resize(20, 60);
    assert_true(screen_contains("terminal too small"));
    screen_resize(40, 120);
    assert_true(screen_contains("Calibration in use"));
    fake_close();
}

/* g_cres plus a per-kernel sweep of Llama-3-8B whose times follow a known
 * per-kernel form on an H100 (eff 0.72 of 989 TFLOP/s on 132 SMs, 2.9 TB/s,
 * t0 6 us), the GEMV points 20 % slower than that form, and launches, then
 * fitted: the view plots measured against modelled per class. */
static void add_kernel_sweep(void)
{
    engine_model m = tm_llama3_8b();
    static const int tok[] = {1, 16, 256, 4096};
    static calib_kpoint p[160];
    int n = calib_plan_gemms(&m, 8, tok, 4, "fp16", 2, p, 128);
    calib_per_kernel truth = {.peak_flops = 989e12, .sm = 132, .gemm_efficiency = 0.72,
                              .bw_bytes_per_s = 2.9e12, .t0_s = 6e-6};
    for (int i = 0; i < n; i++)
        p[i].time_s = calib_per_kernel_predict(&truth, &p[i]);
    for (double b = 4e6; b <= 1.1e9; b *= 4, n++) {
        p[n] = (calib_kpoint){.cls = CALIB_K_GEMV, .m = 1, .n = (int)(b / 8192), .k = 4096,
                              .batch = 1};
        calib_kpoint_cost(&p[n], 2);
        p[n].time_s = 1.2 * calib_per_kernel_predict(&truth, &p[n]);
    }
    p[n++] = (calib_kpoint){.cls = CALIB_K_LAUNCH, .batch = 256, .time_s = 4e-6};
    p[n++] = (calib_kpoint){.cls = CALIB_K_GRAPH, .batch = 256, .time_s = 2e-6};
    for (int i = 0; i < n; i++)
        assert_int_equal(calib_result_add_kpoint(&g_cres, &p[i]), 0);
    snprintf(g_cres.library, sizeof g_cres.library, "cuBLAS (CUDA 13.0)");
    snprintf(g_cres.model, sizeof g_cres.model, "llama-3-8b");
    g_cres.per_kernel = (calib_per_kernel){.peak_flops = 989e12, .sm = 132};
    engine_error err = {{0}};
    assert_int_equal(calib_fit_per_kernel(g_cres.kpoints, g_cres.n_kpoints, &g_cres.per_kernel,
                                          &err), 0);
    g_cres.has_per_kernel = 1;
}

static void test_calib_view_per_kernel(void **state)
{
    (void)state;
    fake_open("xterm-256color", 1, 40, 120, 1);
    add_kernel_sweep();
    type("v");
    char want[160];
    snprintf(want, sizeof want, "MAPE %.1f%% (71 pts)", 100 * g_cres.per_kernel.mape);
    assert_true(screen_contains("per kernel eff 0.720 of 989 TFLOP/s  bw 2900 GB/s  t0 6.00 "
                                "\xc2\xb5s  floor 2.00 \xc2\xb5s  launch 4.00 \xc2\xb5s"));
    assert_true(screen_contains(want));
    /* the GEMVs, 20 % slower than the form the GEMMs follow, carry the error */
    assert_true(screen_contains("cuBLAS (CUDA 13.0), llama-3-8b:  gemm 0.0% (64)  gemv "));
    assert_true(screen_contains("launch 0.0% (1)  graph 0.0% (1)"));
    assert_true(screen_contains("G gemm  V gemv  L launch  g graph"));
    assert_true(screen_contains("measured = model"));
    check_golden("calib-view-kernels-120x40-xterm-256color");
    /* c measures the explorer's current model's shapes */
    type(" ");
    type("c");
    assert_string_equal(g_fake.model, exp_model(g_x)->name);
    fake_close();
}

static void test_calib_view_defaults_and_no_hook(void **state)
{
    (void)state;
    fake_open("xterm-256color", 1, 24, 80, 0);
    type("v");
    assert_true(screen_contains("Calibration in use: datasheet defaults"));
    assert_true(screen_contains("shardscope calibrate"));
    assert_true(screen_contains("press c"));
    type("x");
    assert_false(screen_contains("datasheet defaults preset"));
    fake_close();
    /* No hook in this build: c says so; the view still says defaults. */
    screen_open("vt100", 0, 24, 80, NULL);
    explorer_set_calib_ops(g_x, NULL);
    type("c");
    assert_true(screen_contains("calibration not available in this build"));
    type("v");
    assert_true(screen_contains("datasheet defaults"));
    type(" ");
    assert_int_equal(explorer_key(g_x, 27), 1);
    screen_close();
}

static void test_signal_flag(void **state)
{
    (void)state;
    term_clear_quit();
    assert_false(term_quit_requested());
    term_install_signals();
    raise(SIGTERM);
    assert_true(term_quit_requested());
    term_clear_quit();
    raise(SIGHUP);
    assert_true(term_quit_requested());
    term_clear_quit();
    term_restore_signals();
}


/* A plan that does not fit: the details show its memory and the reason,
 * never times, throughput or cost (as `eval` does; the export's nulls are
 * checked in check_export_json). */
static void test_details_of_unfit_plan(void **state)
{
    (void)state;
    explorer_opts eo = opts_for("llama-3-70b", "h100-sxm", 4);
    screen_open("vt100", 0, 40, 120, &eo);
    type("2");
    int unfit = -1;
    for (int i = 0; i < g_x->r.n_plans && unfit < 0; i++)
        if (g_x->r.plans[i].valid && !g_x->r.plans[i].fits)
            unfit = i;
    assert_true(unfit > 0);
    assert_true(pane_contains(PANE_DETAILS, "TTFT")); /* plan #1 fits */
    /* its KV capacity as eval counts it (engine_result's, 16-token blocks) */
    const engine_result *p1 = exp_selected_plan(g_x);
    char want[64];
    assert_true(p1->max_concurrency > 0);
    snprintf(want, sizeof want, " KV tokens    %10.0f", p1->kv_capacity_tokens);
    assert_true(pane_contains(PANE_DETAILS, want));
    snprintf(want, sizeof want, " max seqs     %10d", p1->max_concurrency);
    assert_true(pane_contains(PANE_DETAILS, want));
    for (int i = 0; i < unfit; i++)
        type("j");
    assert_false(exp_selected_plan(g_x)->fits);
    assert_true(pane_contains(PANE_DETAILS, "does not fit: needs"));
    assert_true(pane_contains(PANE_DETAILS, "weights"));
    assert_true(pane_contains(PANE_DETAILS, "usable"));
    assert_true(pane_contains(PANE_DETAILS, "no times, throughput or cost"));
    assert_false(pane_contains(PANE_DETAILS, "TTFT"));
    assert_false(pane_contains(PANE_DETAILS, "ITL"));
    assert_false(pane_contains(PANE_DETAILS, "tok/s"));
    assert_false(pane_contains(PANE_DETAILS, "/1M tok"));
    assert_false(pane_contains(PANE_DETAILS, "  local ")); /* no window: no split */
    screen_close();
}

/* Issue 11: a model with local attention shows its KV cache split into
 * global and local layers (gemma-3-27b: every 6th global, 1024 tokens). */
static void test_details_kv_local_split(void **state)
{
    (void)state;
    explorer_opts eo = opts_for("gemma-3-27b", "h100-sxm", 2);
    screen_open("vt100", 0, 40, 120, &eo);
    type("2");
    const engine_result *p1 = exp_selected_plan(g_x);
    assert_true(p1->mem.kv_local_bytes > 0);
    assert_true(p1->mem.kv_local_bytes < p1->mem.kv_bytes);
    assert_true(pane_contains(PANE_DETAILS, "  global     "));
    assert_true(pane_contains(PANE_DETAILS, "  local      "));
    screen_close();
}


/* The inner text of the details pane's rows, every line of it: scrolled
 * down one line at a time until the end (trailing blanks dropped). */
#define DLINES 160
static int details_all_lines(char out[DLINES][200])
{
    int n = 0, prev = -1;
    for (int guard = 0; guard < DLINES; guard++) {
        layout_rect rc = g_x->scr.lay.pane[PANE_DETAILS];
        int top = g_x->view.details.top;
        if (top == prev)
            break;
        prev = top;
        for (int y = 1; y < rc.h - 1 && top + y - 1 < DLINES; y++) {
            char *o = out[top + y - 1];
            int k = 0;
            for (int x = 1; x < rc.w - 2 && k < 198; x++) { /* left of the scroll marks */
                cchar_t cc;
                wchar_t wch[CCHARW_MAX + 1] = {0};
                attr_t a = 0;
                short pair = 0;
                char c = '?';
                if (mvwin_wch(curscr, rc.y + y, rc.x + x, &cc) != ERR &&
                    getcchar(&cc, wch, &a, &pair, NULL) != ERR)
                    c = wch[0] > 0 && wch[0] < 128 ? (char)wch[0] : '?';
                o[k++] = c;
            }
            while (k > 0 && o[k - 1] == ' ')
                k--;
            o[k] = '\0';
            if (top + y > n)
                n = top + y;
        }
        explorer_key(g_x, KEY_DOWN);
        explorer_frame(g_x);
    }
    return n;
}

/* The details pane shows the selected plan's launch line for each
 * framework: the generator's line (launch.h), word for word, wrapped to the
 * pane at 80 x 24 without colours. */
static void test_details_launch_lines(void **state)
{
    (void)state;
    screen_open("vt100", 0, 24, 80, NULL);
    type("3");
    assert_int_equal(g_x->view.focus, PANE_DETAILS);
    const engine_result *p = exp_selected_plan(g_x);
    assert_non_null(p);
    assert_true(p->valid && p->fits);
    static char got[DLINES][200];
    memset(got, 0, sizeof got);
    int n = details_all_lines(got);
    if (getenv("SCREEN_DEBUG"))
        for (int i = 0; i < n; i++)
            fprintf(stderr, "%3d|%s|\n", i, got[i]);
    int title = -1;
    for (int i = 0; i < n; i++)
        if (!strcmp(got[i], "Launch"))
            title = i;
    assert_true(title > 0);
    for (int f = 0; f < ENGINE_LAUNCH_COUNT; f++) {
        char want[ENGINE_LAUNCH_MAX], joined[2 * ENGINE_LAUNCH_MAX] = "", head[16];
        assert_int_equal(engine_launch_line((engine_launch_fw)f, &g_x->r.sc, p, want, sizeof want),
                         0);
        /* the pane joins words with one space */
        for (char *d; (d = strstr(want, "  ")) != NULL;)
            memmove(d, d + 1, strlen(d));
        snprintf(head, sizeof head, " %s: ", engine_launch_name((engine_launch_fw)f));
        int at = -1;
        for (int i = title; i < n; i++)
            if (!strncmp(got[i], head, strlen(head)))
                at = i;
        assert_true(at > title);
        strcat(joined, got[at] + strlen(head));
        for (int i = at + 1; i < n && !strncmp(got[i], "   ", 3) && got[i][3] != ' '; i++) {
            assert_true(strlen(got[i]) <= (size_t)g_x->scr.lay.pane[PANE_DETAILS].w - 3);
            strcat(joined, " ");
            strcat(joined, got[i] + 3);
        }
        assert_string_equal(joined, want);
    }
    /* the default scenario: Llama-3-70B, whose Hugging Face id the lines carry */
    assert_non_null(strstr(got[title + 1], "vllm serve"));
    int seen_id = 0;
    for (int i = title; i < n; i++)
        seen_id |= strstr(got[i], "meta-llama/Meta-Llama-3-70B-Instruct") != NULL;
    assert_true(seen_id);
    screen_close();
}

/* The details pane's rows from `from` on: the wrapped line that opens
 * with `head`, joined (the pane joins words with one space) into out. */
static int details_joined(char got[DLINES][200], int n, int from, const char *head, char *out,
                          size_t len)
{
    int at = -1;
    for (int i = from; i < n && at < 0; i++)
        if (!strncmp(got[i], head, strlen(head)))
            at = i;
    if (at < 0)
        return -1;
    snprintf(out, len, "%s", got[at] + strlen(head));
    for (int i = at + 1; i < n && !strncmp(got[i], "   ", 3) && got[i][3] != ' '; i++) {
        strncat(out, " ", len - strlen(out) - 1);
        strncat(out, got[i] + 3, len - strlen(out) - 1);
    }
    return at;
}

/* Under the selected plan's launch lines, the best xPyD split's (the
 * details' "xPyD best"): a line per pool and framework, each the
 * generator's (engine_launch_role_line) word for word, with its
 * disaggregation form (vLLM's NixlConnector, SGLang's
 * --disaggregation-mode, TensorRT-LLM's cache_transceiver_config). */
static void test_details_xpyd_launch_lines(void **state)
{
    (void)state;
    screen_open("vt100", 0, 24, 80, NULL);
    type("3");
    static char got[DLINES][200];
    memset(got, 0, sizeof got);
    int n = details_all_lines(got);
    assert_true(g_x->r.disagg_ok);
    const engine_disagg_result *d = &g_x->r.disagg_best;
    char nm[48], title[64];
    engine_disagg_name(d->plan, nm, sizeof nm);
    snprintf(title, sizeof title, "Launch xPyD %s", nm);
    int t = -1;
    for (int i = 0; i < n; i++)
        if (!strcmp(got[i], title))
            t = i;
    assert_true(t > 0);
    for (int role = ENGINE_LAUNCH_PREFILL; role <= ENGINE_LAUNCH_DECODE; role++) {
        engine_result pr = role == ENGINE_LAUNCH_PREFILL ? d->prefill : d->decode;
        if (role == ENGINE_LAUNCH_PREFILL)
            pr.batch = d->prefill_batch;
        for (int f = 0; f < ENGINE_LAUNCH_COUNT; f++) {
            char want[ENGINE_LAUNCH_MAX], joined[2 * ENGINE_LAUNCH_MAX], head[32];
            assert_int_equal(engine_launch_role_line((engine_launch_fw)f,
                                                     (engine_launch_role)role, &g_x->r.sc, &pr,
                                                     want, sizeof want), 0);
            for (char *x; (x = strstr(want, "  ")) != NULL;)
                memmove(x, x + 1, strlen(x));
            snprintf(head, sizeof head, " %s %s: ", engine_launch_name((engine_launch_fw)f),
                     role == ENGINE_LAUNCH_PREFILL ? "prefill" : "decode");
            assert_true(details_joined(got, n, t, head, joined, sizeof joined) > t);
            assert_string_equal(joined, want);
        }
    }
    char joined[2 * ENGINE_LAUNCH_MAX];
    assert_true(details_joined(got, n, t, " sglang prefill: ", joined, sizeof joined) > t);
    assert_non_null(strstr(joined, "--disaggregation-mode prefill"));
    assert_true(details_joined(got, n, t, " vllm decode: ", joined, sizeof joined) > t);
    assert_non_null(strstr(joined, "NixlConnector"));
    assert_true(details_joined(got, n, t, " trtllm prefill: ", joined, sizeof joined) > t);
    assert_non_null(strstr(joined, "cache_transceiver_config"));
    screen_close();
}

/* The details pane names what bounds the largest batch a replica runs:
 * Llama-3-8B on one A100 80GB under vLLM holds 350 sequences of 1024 + 256
 * tokens, more than vLLM's max_num_seqs 256 there (`vllm serve`'s default
 * on an A100); on an H100 (its default 1024) and under SGLang (4096) the
 * KV cache is the bound. */
static void test_details_batch_bound(void **state)
{
    (void)state;
    static const struct {
        const char *framework, *gpu;
        int seqs;
        const char *want;
    } cases[] = {{"vllm", "a100-80gb", 256, "Batch: at most 256 (max_num_seqs)"},
                 {"vllm", "h100-sxm", 1024, "Batch: at most %d (KV cache)"},
                 {"sglang", "h100-sxm", 4096, "Batch: at most %d (KV cache)"}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        explorer_opts eo = opts_for("llama-3-8b", cases[c].gpu, 1);
        eo.framework = cases[c].framework;
        screen_open("vt100", 0, 40, 120, &eo);
        type("3");
        const engine_result *p = exp_selected_plan(g_x);
        assert_non_null(p);
        assert_true(p->valid && p->fits && p->max_concurrency > 256);
        assert_int_equal(p->max_num_seqs, cases[c].seqs);
        char want[64];
        snprintf(want, sizeof want, cases[c].want, p->max_concurrency);
        static char got[DLINES][200];
        memset(got, 0, sizeof got);
        int n = details_all_lines(got), seen = 0;
        for (int i = 0; i < n; i++)
            seen |= !strcmp(got[i], want);
        assert_true(seen);
        screen_close();
    }
}

/* Issue 11: `x` turns the details pane to its second page, the selected
 * plan kernel by kernel (engine_explain_plan) and the constants with their
 * origin; `x` again turns it back. */
static void test_details_explain_page(void **state)
{
    (void)state;
    screen_open("vt100", 0, 40, 120, NULL);
    assert_false(pane_contains(PANE_DETAILS, "Prefill (TTFT)"));
    type("x");
    assert_true(g_x->view.details_page == 1);
    assert_true(g_x->r.explain_ok);
    const engine_result *p = exp_selected_plan(g_x);
    assert_true(fabs(g_x->r.explain.prefill.total_s - p->ttft_s) <= 1e-12 * p->ttft_s);
    assert_true(fabs(g_x->r.explain.decode.total_s - p->itl_s) <= 1e-12 * p->itl_s);
    assert_true(pane_contains(PANE_DETAILS, "kernels (x: page 1)"));
    assert_true(pane_contains(PANE_DETAILS, "Prefill (TTFT)"));
    assert_true(pane_contains(PANE_DETAILS, " qkv "));
    assert_true(pane_contains(PANE_DETAILS, "tp all-reduce"));
    assert_true(pane_contains(PANE_DETAILS, "(2/2)"));
    check_golden("explorer-120x40-vt100-explain");
    /* the constants are further down: scroll the focused details pane */
    type("3");
    for (int i = 0; i < 30; i++)
        keys((const int[]){KEY_NPAGE}, 1);
    /* the end of page 2: the links' constants */
    assert_true(pane_contains(PANE_DETAILS, "inter_link_bandwidth"));
    assert_true(pane_contains(PANE_DETAILS, "link preset"));
    assert_true(pane_contains(PANE_DETAILS, "10.0 us")); /* ASCII micro on vt100 */
    type("x");
    assert_true(g_x->view.details_page == 0);
    assert_true(pane_contains(PANE_DETAILS, "Memory per GPU"));
    screen_close();
}

/* Split a command line of plain words (no quotes) into argv, in place. */
static int split_words(char *line, char **argv, int cap)
{
    int n = 0;
    for (char *t = strtok(line, " "); t && n < cap; t = strtok(NULL, " "))
        argv[n++] = t;
    return n;
}

/* The bar's command after "copied: " or "copy: ", parsed by eval's own
 * option parser and loaded into *cs (the round trip of `y`). */
static void parse_copied(const char *msg, cli_scenario *cs)
{
    static char line[1024];
    const char *c = strstr(msg, "shardscope eval ");
    assert_non_null(c);
    snprintf(line, sizeof line, "%s", c + strlen("shardscope "));
    char *argv[64];
    int argc = split_words(line, argv, 64);
    static const cli_command EVAL = {"eval", "", "", &cli_eval_options, cli_eval_run};
    cli_opts o;
    engine_error err = {{0}};
    assert_int_equal(cli_opts_parse(&EVAL, argc, argv, &o, &err), CLI_OK);
    if (cli_scenario_load(&o, g_db, CLI_NEED_ALL | CLI_ALLOW_LOAD, "eval", cs, &err) != 0)
        fail_msg("cli_scenario_load: %s", err.msg);
    assert_true(cs->has_plan);
}

/* The explorer's scenario and the command line's agree field by field,
 * and the selected plan evaluates to the same numbers. */
static void assert_same_scenario(const engine_scenario *a, const cli_scenario *cs)
{
    const engine_scenario *b = &cs->scenario;
    assert_ptr_equal(a->model, b->model);
    assert_ptr_equal(a->gpu, b->gpu);
    assert_ptr_equal(a->intra, b->intra);
    assert_ptr_equal(a->inter, b->inter);
    assert_ptr_equal(a->framework, b->framework);
    assert_int_equal(a->gpus, b->gpus);
    assert_int_equal(a->gpus_per_node, b->gpus_per_node);
    assert_true(a->vram_bytes == b->vram_bytes);
    assert_int_equal(a->batch, b->batch);
    assert_int_equal(a->batch_max, b->batch_max);
    assert_int_equal(a->prompt, b->prompt);
    assert_int_equal(a->gen, b->gen);
    assert_int_equal(engine_scenario_weight_dtype(a), engine_scenario_weight_dtype(b));
    assert_int_equal(engine_scenario_quant_group(a), engine_scenario_quant_group(b));
    assert_int_equal(a->kv_dtype, b->kv_dtype);
    assert_int_equal(a->microbatches, b->microbatches);
    assert_int_equal(a->schedule, b->schedule);
    assert_int_equal(a->objective, b->objective);
    assert_int_equal(a->calib != NULL, b->calib != NULL);
    assert_int_equal(a->spec_method, b->spec_method);
    assert_int_equal(a->spec_k, b->spec_k);
    assert_true(a->spec_accept == b->spec_accept);
    const engine_result *p = exp_selected_plan(g_x);
    assert_int_equal(p->plan.tp, cs->plan.tp);
    assert_int_equal(p->plan.pp, cs->plan.pp);
    assert_int_equal(p->plan.dp, cs->plan.dp);
    assert_int_equal(p->plan.ep, cs->plan.ep);
    engine_result r;
    assert_int_equal(engine_evaluate(b, cs->plan, &r, NULL), 0);
    assert_true(r.valid && r.fits);
    assert_true(r.ttft_s == p->ttft_s);
    assert_true(r.itl_s == p->itl_s);
    assert_true(r.tokens_per_s == p->tokens_per_s);
}

/* Issue 11: `y` copies the state as a `shardscope eval` line that the
 * command line's own parser turns back into the same scenario and the
 * same numbers; OSC 52 goes to an xterm, not to a VT100 (TERM rule), and
 * the bar shows the line either way. */
static void test_copy_as_command(void **state)
{
    (void)state;
    screen_open("xterm-256color", 1, 40, 160, NULL);
    /* defaults first: only the model, GPU, count and plan (and --no-calib) */
    type("y");
    assert_non_null(strstr(g_x->msg, "copied: shardscope eval --model llama-3-70b --gpu "
                                     "h100-sxm --gpus 8 --tp 8 --pp 1 --dp 1 --no-calib"));
    static cli_scenario cs;
    parse_copied(g_x->msg, &cs);
    assert_same_scenario(&g_x->r.sc, &cs);
    /* the sequence went to the terminal: ESC ] 52 ; c ; base64 BEL */
    char want[2048];
    const char *line = strstr(g_x->msg, "shardscope eval");
    assert_true(term_osc52(line, want, sizeof want) > 0);
    fflush(g_out);
    long end = ftell(g_out);
    static char got[1 << 20];
    rewind(g_out);
    size_t n = fread(got, 1, sizeof got - 1, g_out);
    got[n] = '\0';
    fseek(g_out, end, SEEK_SET);
    assert_non_null(strstr(got, want));
    /* controls changed: the second plan, batch, tokens, fp8, a schedule,
     * another inter-node link and GPUs per node, VRAM, a framework */
    exp_ctl_set(g_x, CTL_BATCH, 4);
    exp_ctl_set(g_x, CTL_PROMPT, 2048);
    exp_ctl_set(g_x, CTL_GEN, 128);
    exp_ctl_set(g_x, CTL_DTYPE, ENGINE_FP8);
    exp_ctl_set(g_x, CTL_SCHED, ENGINE_SCHED_1F1B);
    exp_ctl_set(g_x, CTL_PER_NODE, 4);
    exp_ctl_set(g_x, CTL_VRAM, 70);
    for (int i = 0; i < g_db->n_links; i++)
        if (!strcmp(g_db->links[i].name, "ib-hdr"))
            exp_ctl_set(g_x, CTL_INTER, i);
    type("F"); /* the next framework */
    type("S"); /* speculation: eagle at its defaults */
    assert_int_equal(g_x->ctl.spec_method, ENGINE_SPEC_EAGLE);
    type("2");
    keys((const int[]){KEY_DOWN}, 1);
    type("y");
    assert_non_null(strstr(g_x->msg, "--batch 4 --prompt 2048 --gen 128 --dtype fp8"));
    assert_non_null(strstr(g_x->msg, "--inter-link ib-hdr --gpus-per-node 4 --vram-gb 70"));
    assert_non_null(strstr(g_x->msg, "--schedule 1f1b"));
    assert_non_null(strstr(g_x->msg, "--framework "));
    assert_non_null(strstr(g_x->msg, "--spec-method eagle"));
    parse_copied(g_x->msg, &cs);
    assert_same_scenario(&g_x->r.sc, &cs);
    screen_close();

    /* a VT100 gets no OSC 52, the bar still shows the line */
    screen_open("vt100", 0, 24, 80, NULL);
    type("y");
    assert_non_null(strstr(g_x->msg, "copy: shardscope eval --model llama-3-70b"));
    fflush(g_out);
    rewind(g_out);
    n = fread(got, 1, sizeof got - 1, g_out);
    got[n] = '\0';
    assert_null(strstr(got, "\033]52;"));
    screen_close();
}

/* The Weights control shows what runs: a model's checkpoint format (DeepSeek-R1's
 * FP8) on selecting it, fp16 for a 16-bit checkpoint; fp16 chosen on DeepSeek-R1
 * runs fp16 (and does not fit 8 x H200) and is copied as --dtype fp16. */
static void test_weights_follow_the_model(void **state)
{
    (void)state;
    explorer_opts eo = opts_for("deepseek-r1", "h200", 8);
    screen_open("xterm-256color", 1, 40, 160, &eo);
    assert_int_equal(g_x->ctl.s[CTL_DTYPE].value, ENGINE_FP8);
    type("y");
    assert_null(strstr(g_x->msg, "--dtype"));
    assert_int_equal(engine_scenario_weight_dtype(&g_x->r.sc), ENGINE_FP8);
    assert_true(g_x->r.n_plans > 0 && g_x->r.plans[0].fits);
    static cli_scenario cs;
    parse_copied(g_x->msg, &cs); /* the line without --dtype is the same FP8 run */
    assert_same_scenario(&g_x->r.sc, &cs);
    exp_ctl_set(g_x, CTL_DTYPE, ENGINE_FP16);
    type("y");
    assert_non_null(strstr(g_x->msg, "--dtype fp16"));
    assert_int_equal(engine_scenario_weight_dtype(&g_x->r.sc), ENGINE_FP16);
    assert_true(g_x->r.n_plans > 0 && !g_x->r.plans[0].fits); /* 1.34 TB on 8 x 151 GB */
    parse_copied(g_x->msg, &cs); /* and --dtype fp16 is fp16 on the command line too */
    assert_int_equal(engine_scenario_weight_dtype(&cs.scenario), ENGINE_FP16);
    for (int i = 0; i < g_db->n_models; i++)
        if (!strcmp(g_db->models[i].name, "llama-3-70b"))
            exp_ctl_set(g_x, CTL_MODEL, i);
    assert_string_equal(exp_model(g_x)->name, "llama-3-70b");
    assert_int_equal(g_x->ctl.s[CTL_DTYPE].value, ENGINE_FP16);
    for (int i = 0; i < g_db->n_models; i++)
        if (!strcmp(g_db->models[i].name, "gpt-oss-120b"))
            exp_ctl_set(g_x, CTL_MODEL, i);
    assert_int_equal(g_x->ctl.s[CTL_DTYPE].value, ENGINE_FP4);
    screen_close();
}

/* A scenario file's workload, plan and speculation reach the explorer
 * through explorer_opts (tui --scenario), and its start message the bar. */
static void test_opts_workload_plan_spec(void **state)
{
    (void)state;
    explorer_opts eo;
    explorer_opts_defaults(&eo);
    eo.model = "llama-3-8b";
    eo.gpus = 4;
    eo.batch = 8;
    eo.prompt = 2048;
    eo.gen = 128;
    eo.dtype = ENGINE_FP8;
    eo.schedule = ENGINE_SCHED_1F1B;
    eo.objective = ENGINE_OBJ_THROUGHPUT;
    eo.plan = (engine_plan){2, 1, 2, 1};
    eo.spec_method = ENGINE_SPEC_EAGLE;
    eo.spec_k = 5;
    eo.message = "run.json: not in the explorer: kv_dtype";
    screen_open("vt100", 0, 40, 120, &eo);
    assert_int_equal(g_x->ctl.s[CTL_BATCH].value, 8);
    assert_int_equal(g_x->ctl.s[CTL_PROMPT].value, 2048);
    assert_int_equal(g_x->ctl.s[CTL_GEN].value, 128);
    assert_int_equal(g_x->ctl.s[CTL_DTYPE].value, ENGINE_FP8);
    assert_int_equal(g_x->ctl.s[CTL_SCHED].value, ENGINE_SCHED_1F1B);
    assert_int_equal(g_x->ctl.s[CTL_OBJECTIVE].value, ENGINE_OBJ_THROUGHPUT);
    assert_int_equal(g_x->ctl.spec_method, ENGINE_SPEC_EAGLE);
    assert_int_equal(g_x->ctl.spec_k, 5);
    double p;
    int k;
    engine_spec_default(ENGINE_SPEC_EAGLE, &k, &p);
    assert_int_equal(g_x->ctl.spec_pct, (int)(p * 100 + 0.5));
    const engine_result *sel = exp_selected_plan(g_x);
    assert_non_null(sel);
    assert_int_equal(sel->plan.tp, 2);
    assert_int_equal(sel->plan.dp, 2);
    assert_non_null(strstr(g_x->msg, "not in the explorer: kv_dtype"));
    /* y gives the same back */
    type("y");
    assert_non_null(strstr(g_x->msg, "--tp 2 --pp 1 --dp 2"));
    assert_non_null(strstr(g_x->msg, "--batch 8 --prompt 2048 --gen 128 --dtype fp8"));
    assert_non_null(strstr(g_x->msg, "--spec-method eagle --spec-k 5"));
    screen_close();
}

/* The frontier: the smallest GPU count that fits, not a power of two
 * (Llama-3-70B on 80 GB: 3), and the capacity line's row labelled with the
 * usable capacity (77.0 GB on an H100 SXM), not the band it falls in. */
static void test_frontier_min_gpus_and_capacity_label(void **state)
{
    (void)state;
    screen_open("xterm-256color", 1, 40, 120, NULL);
    assert_string_equal(exp_model(g_x)->name, "llama-3-70b");
    assert_int_equal((int)g_x->r.mem_sizes_gb[3], 80);
    assert_int_equal(g_x->r.min_gpus[3], 3);
    assert_true(pane_contains(PANE_FRONTIER, "80 GB GPU     3"));
    char cap[32], want[64];
    fmt_gb(g_x->r.front_capacity, cap, sizeof cap);
    assert_string_equal(cap, "77.0 GB");
    /* the row of the capacity line (the "─" run) starts with "77.0 GB" */
    const char *t = strchr(pane_text(PANE_FRONTIER), '\n') + 1; /* below the frame */
    const char *line = strstr(t, "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80");
    assert_non_null(line);
    while (line > t && line[-1] != '\n')
        line--;
    snprintf(want, sizeof want, "\xe2\x94\x82%s ", cap);
    assert_int_equal(strncmp(line, want, strlen(want)), 0);
    screen_close();
}

/* A user file's rejected override of a preset in use is named on the bar
 * (file and field), not silently replaced by the shipped entry. */
static void test_rejected_override_on_bar(void **state)
{
    (void)state;
    static const char bad[] =
        "{\"gpus\": {\"h100-sxm\": {\"source\": \"mine\", \"memory_gb\": 80, "
        "\"hbm_gbs\": -1, \"tflops\": {\"fp16\": 989}}}}";
    preset_db *shipped = g_db, *db = NULL;
    engine_error err = {{0}};
    assert_int_equal(preset_db_load("", &db, &err), 0);
    assert_int_equal(preset_db_add_json(db, "my.json", bad, strlen(bad)), -1);
    g_db = db;
    screen_open("xterm-256color", 1, 40, 120, NULL);
    assert_string_equal(exp_gpu(g_x)->name, "h100-sxm");
    assert_string_equal(g_x->msg, "user preset rejected, the earlier entry is used: my.json: "
                                  "h100-sxm: hbm_gbs: expected a positive number, got -1");
    assert_true(screen_contains("user preset rejected"));
    screen_close();
    g_db = shipped;
    preset_db_free(db);
}

/* --- the loop on a terminal's bytes (issue 13: terminal and signals) ---- */

static int g_keys_wr = -1;

/* An explorer whose terminal reads what is written to g_keys_wr, as a
 * terminal's bytes: curses decodes them (keypad, the ESC delay). */
static void pipe_open(const char *term, int utf8, int rows, int cols)
{
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    setlocale(LC_ALL, utf8 ? "C.UTF-8" : "C");
    g_out = tmpfile();
    g_in = fdopen(fd[0], "r");
    g_keys_wr = fd[1];
    assert_non_null(g_out);
    assert_non_null(g_in);
    term_opts o;
    term_opts_defaults(&o);
    o.in = g_in;
    o.out = g_out;
    o.term = term;
    o.utf8 = utf8;
    o.mouse = 0;
    o.rows = rows;
    o.cols = cols;
    char msg[256];
    if (term_open(&o, &g_caps, msg, sizeof msg) != 0)
        fail_msg("term_open(%s): %s", term, msg);
    explorer_opts d;
    explorer_opts_defaults(&d);
    engine_error err = {{0}};
    if (explorer_new(g_db, &d, &g_caps, &g_x, &err) != 0)
        fail_msg("explorer_new: %s", err.msg);
    explorer_frame(g_x);
}

static void pipe_close(void)
{
    screen_close();
    close(g_keys_wr);
    g_keys_wr = -1;
}

static void send_bytes(const char *s)
{
    size_t n = strlen(s);
    assert_int_equal(write(g_keys_wr, s, n), (ssize_t)n);
}

/* The terminfo string of a key (kcuf1 ...) of the open terminal. */
static const char *key_seq(const char *cap)
{
    char name[16];
    snprintf(name, sizeof name, "%s", cap);
    const char *k = tigetstr(name);
    assert_true(k && k != (char *)-1);
    return k;
}

static long out_size(void)
{
    struct stat st;
    fflush(g_out);
    assert_int_equal(fstat(fileno(g_out), &st), 0);
    return (long)st.st_size;
}

/* 30 Right keys typed at once (a held key) with the plans focused: all
 * handled before one frame, which sends one changed frame's bytes; the
 * load line it left out of date follows in one more frame when no key
 * waits, and after that a turn with nothing typed draws nothing. */
static void test_loop_burst_of_keys_draws_one_frame(void **state)
{
    (void)state;
    pipe_open("xterm-256color", 1, 40, 120);
    explorer_key(g_x, '\t');
    explorer_frame(g_x);
    assert_int_equal(g_x->view.focus, PANE_STRATEGIES);
    assert_true(screen_contains("Strategies: 8 GPUs"));
    char burst[512] = "";
    for (int i = 0; i < 30; i++)
        strcat(burst, key_seq("kcuf1"));
    long frames = g_x->scr.frames, bytes = out_size();
    send_bytes(burst);
    assert_int_equal(explorer_step(g_x, 1000), 0);
    assert_int_equal(g_x->scr.frames - frames, 1);
    assert_true(screen_contains("Strategies: 38 GPUs"));
    long sent = out_size() - bytes;
    assert_true(sent > 0);
    assert_true(sent < 8192);
    assert_true(screen_contains("updating (after the keys stop)"));
    /* No key waits: the deferred load line, in one frame. */
    frames = g_x->scr.frames;
    assert_int_equal(explorer_step(g_x, 0), 0);
    assert_int_equal(g_x->scr.frames - frames, 1);
    assert_false(screen_contains("updating (after the keys stop)"));
    assert_true(screen_contains("sustainable"));
    /* Nothing typed: no frame. */
    frames = g_x->scr.frames;
    assert_int_equal(explorer_step(g_x, 0), 0);
    assert_int_equal(g_x->scr.frames, frames);
    pipe_close();
}

/* The deferred blocks (the load line) wait while keys come: a key already
 * typed is handled first (the line stays "updating"), and the line is
 * computed, for the last state, on the first turn with no key. */
static void test_loop_deferred_load_line_waits_for_keys(void **state)
{
    (void)state;
    pipe_open("xterm-256color", 1, 40, 120);
    explorer_key(g_x, '\t');
    explorer_frame(g_x);
    assert_true(screen_contains("sustainable"));
    assert_int_equal(exp_update_pending(g_x), 0);
    send_bytes(key_seq("kcuf1"));
    assert_int_equal(explorer_step(g_x, 1000), 0);
    assert_int_equal(exp_update_pending(g_x), 1);
    assert_true(screen_contains("updating (after the keys stop)"));
    engine_plan before = g_x->r.load_plan;
    send_bytes(key_seq("kcuf1")); /* typed before the next turn */
    assert_int_equal(explorer_step(g_x, 0), 0);
    assert_int_equal(exp_update_pending(g_x), 1); /* the key came first */
    assert_memory_equal(&g_x->r.load_plan, &before, sizeof before);
    assert_true(screen_contains("Strategies: 10 GPUs"));
    assert_int_equal(explorer_step(g_x, 0), 0);
    assert_int_equal(exp_update_pending(g_x), 0);
    assert_false(screen_contains("updating (after the keys stop)"));
    const engine_result *sel = exp_selected_plan(g_x);
    assert_non_null(sel);
    assert_memory_equal(&g_x->r.load_plan, &sel->plan, sizeof sel->plan);
    assert_int_equal(g_x->r.sc.gpus, 10);
    pipe_close();
}

/* Alt+x and a key the terminfo entry does not know (End as a VT220 sends
 * it, under TERM=vt100) are named on the bar and ignored; a bare Esc
 * still quits. */
static void test_loop_unknown_escape_sequences_do_not_quit(void **state)
{
    (void)state;
    pipe_open("vt100", 0, 24, 80);
    send_bytes("\033x");
    assert_int_equal(explorer_step(g_x, 1000), 0);
    assert_string_equal(explorer_message(g_x), "unknown key ESC x (ignored)");
    assert_true(screen_contains("unknown key ESC x"));
    send_bytes("\033[4~");
    assert_int_equal(explorer_step(g_x, 1000), 0);
    assert_string_equal(explorer_message(g_x), "unknown key ESC [4~ (ignored)");
    /* In the model filter the sequence neither closes it nor types. */
    send_bytes("/");
    assert_int_equal(explorer_step(g_x, 1000), 0);
    send_bytes("\033x");
    assert_int_equal(explorer_step(g_x, 1000), 0);
    assert_int_equal(g_x->ov.kind, OVERLAY_LIST);
    assert_string_equal(g_x->ov.filter, "");
    /* A bare Esc closes the list, the next one quits. */
    send_bytes("\033");
    assert_int_equal(explorer_step(g_x, 1000), 0);
    assert_int_equal(g_x->ov.kind, OVERLAY_NONE);
    send_bytes("\033");
    assert_int_equal(explorer_step(g_x, 1000), 1);
    pipe_close();
}

/* Ctrl-C while a calibration runs cancels it (the flag forgotten); the
 * next Ctrl-C quits, and the loop reports SIGINT for the exit status. */
static void test_loop_ctrl_c_cancels_calibration_then_quits(void **state)
{
    (void)state;
    fake_open("vt100", 0, 24, 80, 0);
    term_clear_quit();
    term_install_signals();
    type("c");
    assert_non_null(g_x->cal.job);
    raise(SIGINT);
    assert_int_equal(explorer_step(g_x, 0), 0);
    assert_null(g_x->cal.job);
    assert_int_equal(g_fake.released, 1);
    assert_false(term_quit_requested());
    assert_non_null(strstr(explorer_message(g_x), "calibration cancelled"));
    assert_non_null(strstr(explorer_message(g_x), "(Ctrl-C again quits)"));
    assert_true(screen_contains("calibration cancelled"));
    raise(SIGINT);
    assert_int_equal(explorer_step(g_x, 0), 1);
    assert_int_equal(term_signal(), SIGINT);
    /* SIGTERM during a calibration quits at once; so does Ctrl-\. */
    term_clear_quit();
    type("c");
    raise(SIGTERM);
    assert_int_equal(explorer_step(g_x, 0), 1);
    assert_int_equal(term_signal(), SIGTERM);
    term_clear_quit();
    raise(SIGQUIT);
    assert_int_equal(term_signal(), SIGQUIT);
    assert_int_equal(explorer_step(g_x, 0), 1);
    assert_int_equal(term_signal_status(SIGINT), 130);
    term_clear_quit();
    term_restore_signals();
    fake_close();
}

/* The model filter with nothing matching: Enter keeps the list open and
 * the bar says so; the bar says "Esc to cancel" only while a list is open,
 * and that Esc closes the list with every slider kept. */
static void test_filter_no_match_bar_agrees(void **state)
{
    (void)state;
    screen_open("xterm-256color", 1, 40, 120, NULL);
    type("+");
    assert_true(screen_contains("Strategies: 16 GPUs"));
    type("/");
    assert_true(screen_contains("Esc to cancel"));
    type("zzzz");
    assert_true(screen_contains("(no match)"));
    assert_true(screen_contains("nothing matches 'zzzz'"));
    assert_int_equal(explorer_key(g_x, '\n'), 0);
    explorer_frame(g_x);
    assert_int_equal(g_x->ov.kind, OVERLAY_LIST);
    assert_true(screen_contains("(no match)"));
    assert_true(screen_contains("Esc to cancel"));
    assert_int_equal(explorer_key(g_x, 27), 0); /* the list's Esc */
    explorer_frame(g_x);
    assert_int_equal(g_x->ov.kind, OVERLAY_NONE);
    assert_false(screen_contains("Esc to cancel"));
    assert_true(screen_contains("Strategies: 16 GPUs"));
    /* A match chosen with Enter: closed, and the bar no longer offers Esc. */
    type("/3-8b\n");
    assert_int_equal(g_x->ov.kind, OVERLAY_NONE);
    assert_false(screen_contains("Esc to cancel"));
    assert_true(screen_contains("Llama-3-8B on 16"));
    screen_close();
}

static void set_ctl(int ctl, int value)
{
    exp_ctl_set(g_x, ctl, value);
    explorer_frame(g_x);
}

/* The strategies pane's columns follow the objective: E2E when ranked by
 * latency; tokens/s and the batch evaluated (B x DP) by throughput or cost. */
static void test_ranking_columns_follow_objective(void **state)
{
    (void)state;
    screen_open("xterm-256color", 1, 40, 120, NULL);
    assert_true(pane_contains(PANE_STRATEGIES, " E2E "));
    assert_false(pane_contains(PANE_STRATEGIES, "tok/s"));
    char e2e[32];
    fmt_seconds(g_x->r.plans[0].e2e_s, "\xc2\xb5", e2e, sizeof e2e);
    assert_true(pane_contains(PANE_STRATEGIES, e2e));
    for (int obj = ENGINE_OBJ_THROUGHPUT; obj <= ENGINE_OBJ_COST; obj++) {
        set_ctl(CTL_OBJECTIVE, obj);
        assert_true(pane_contains(PANE_STRATEGIES, "tok/s"));
        assert_true(pane_contains(PANE_STRATEGIES, "batch"));
        assert_false(pane_contains(PANE_STRATEGIES, " E2E "));
        const engine_result *p = &g_x->r.plans[0];
        char row[96];
        snprintf(row, sizeof row, "%.1f   1\xc3\x97%d ", p->tokens_per_s, p->plan.dp);
        if (p->plan.dp == 1)
            snprintf(row, sizeof row, "%.1f     1 ", p->tokens_per_s);
        assert_true(pane_contains(PANE_STRATEGIES, row));
    }
    set_ctl(CTL_BATCH, 4);
    assert_true(pane_contains(PANE_STRATEGIES, "4\xc3\x97"));
    screen_close();
}

static int usable(const engine_result *p)
{
    return p->valid && p->fits;
}

/* `s` cycles the sort column (the selected plan stays selected), `f`
 * toggles "fits only", `F` (moved from f) cycles the framework. */
static void test_sort_and_fits_only(void **state)
{
    (void)state;
    explorer_opts eo = opts_for("llama-3-70b", "h100-sxm", 4);
    screen_open("xterm-256color", 1, 40, 120, &eo);
    const exp_results *r = &g_x->r;
    type("2j");
    const engine_result *was = exp_selected_plan(g_x);
    static const char *const NAMES[] = {"TTFT", "ITL", "E2E", "tokens/s", "VRAM", "cost",
                                        "eff"};
    for (int k = 0; k < 7; k++) {
        type("s");
        char t[64];
        snprintf(t, sizeof t, "sorted by %s", NAMES[k]);
        assert_true(pane_contains(PANE_STRATEGIES, t));
        assert_ptr_equal(exp_selected_plan(g_x), was);
        assert_int_equal(r->n_shown, r->n_plans);
        for (int i = 1; i < r->n_shown; i++) {
            const engine_result *a = &r->plans[r->order[i - 1]], *b = &r->plans[r->order[i]];
            if (!usable(b))
                continue;
            assert_true(usable(a));
            double ka[] = {a->ttft_s, a->itl_s, a->e2e_s, -a->tokens_per_s, a->mem.per_gpu_bytes,
                           a->cost_per_mtok_usd, -a->efficiency};
            double kb[] = {b->ttft_s, b->itl_s, b->e2e_s, -b->tokens_per_s, b->mem.per_gpu_bytes,
                           b->cost_per_mtok_usd, -b->efficiency};
            assert_true(ka[k] <= kb[k]);
        }
    }
    type("s"); /* back to the objective's ranking */
    assert_false(pane_contains(PANE_STRATEGIES, "sorted by"));
    for (int i = 0; i < r->n_shown; i++)
        assert_int_equal(r->order[i], i);
    int fit = 0;
    for (int i = 0; i < r->n_plans; i++)
        fit += usable(&r->plans[i]);
    assert_true(fit > 0 && fit < r->n_plans);
    assert_true(pane_contains(PANE_STRATEGIES, "does not fit:"));
    type("f");
    assert_int_equal(r->n_shown, fit);
    assert_true(pane_contains(PANE_STRATEGIES, "fits only"));
    assert_false(pane_contains(PANE_STRATEGIES, "does not fit:"));
    type("f");
    assert_int_equal(r->n_shown, r->n_plans);
    assert_true(pane_contains(PANE_STRATEGIES, "does not fit:"));
    /* the framework moved to F */
    const engine_framework *fw = exp_framework(g_x);
    type("f");
    type("f");
    assert_ptr_equal(exp_framework(g_x), fw);
    type("F");
    assert_ptr_not_equal(exp_framework(g_x), fw);
    assert_non_null(strstr(explorer_message(g_x), "framework:"));
    screen_close();
}

/* " ITL   -1.2 ms (-10%)": the details' delta line. */
static void want_delta(const char *name, double pin, double cur, char *buf, size_t len)
{
    char d[32];
    double x = cur - pin;
    fmt_seconds(x < 0 ? -x : x, "\xc2\xb5", d, sizeof d);
    snprintf(buf, len, " %-5s %s%s (%+.0f%%)", name, x > 0 ? "+" : x < 0 ? "-" : "", d,
             x / pin * 100.0);
}

/* `p` pins the selected plan; after fp16 -> fp8 and NVLink -> PCIe the
 * details still compare with the snapshot; `P` unpins. */
static void test_pin_and_compare(void **state)
{
    (void)state;
    screen_open("xterm-256color", 1, 40, 120, NULL);
    assert_false(pane_contains(PANE_DETAILS, "vs pinned"));
    type("p");
    engine_result pin = *exp_selected_plan(g_x);
    assert_true(pane_contains(PANE_DETAILS, "vs pinned"));
    assert_true(pane_contains(PANE_DETAILS, " ITL   same")); /* itself */
    assert_true(pane_contains(PANE_DETAILS, "TP8\xc3\x97PP1\xc3\x97" "DP1 llama-3-70b"));
    set_ctl(CTL_DTYPE, ENGINE_FP8);
    const engine_result *p = exp_selected_plan(g_x);
    assert_true(p->itl_s < pin.itl_s);
    assert_true(pane_contains(PANE_DETAILS, "fp16 nvlink4"));
    char line[96];
    want_delta("ITL", pin.itl_s, p->itl_s, line, sizeof line);
    assert_true(pane_contains(PANE_DETAILS, line));
    want_delta("TTFT", pin.ttft_s, p->ttft_s, line, sizeof line);
    assert_true(pane_contains(PANE_DETAILS, line));
    assert_true(pane_contains(PANE_DETAILS, " VRAM  -"));  /* fp8 weights: less memory */
    assert_true(pane_contains(PANE_DETAILS, " tok/s +"));
    assert_true(pane_contains(PANE_DETAILS, " cost  -$"));
    set_ctl(CTL_DTYPE, ENGINE_FP16);
    int pcie = -1;
    for (int i = 0; i < g_db->n_links; i++)
        if (!strcmp(g_db->links[i].name, "pcie4"))
            pcie = i;
    set_ctl(CTL_INTRA, pcie);
    p = exp_selected_plan(g_x);
    assert_true(p->itl_s > pin.itl_s);
    want_delta("ITL", pin.itl_s, p->itl_s, line, sizeof line);
    assert_true(pane_contains(PANE_DETAILS, line));
    assert_true(pane_contains(PANE_DETAILS, "fp16 nvlink4"));
    type("P");
    assert_false(pane_contains(PANE_DETAILS, "vs pinned"));
    screen_close();
}


/* vt100: every heat cell carries its bucket's glyph of the legend's ramp
 * ("##==--::++**") after the value and the C/M letter (and as padding). */
static void test_mono_heat_cells_use_the_ramp(void **state)
{
    (void)state;
    screen_open("vt100", 0, 24, 80, NULL);
    type("5");
    assert_true(pane_contains(PANE_HEAT, "M comm ##==--::++** compute C"));
    const exp_results *r = &g_x->r;
    int cw = 6, cells = 0; /* 80 columns: 10 columns of 6 */
    for (int row = 0; row < r->heat_rows && row < 12; row++)
        for (int c = 0; c < r->heat_cols; c++) {
            const exp_cell *e = &r->heat[row][c];
            int b = e->ok ? heat_bucket(e->ratio, theme_heat_buckets()) : -1;
            if (b < 0)
                continue;
            attr_t a;
            short pair;
            char glyph, val[16], want[32];
            theme_heat_style(b, &a, &pair, &glyph);
            heat_format(e->ratio, cw - 2, val, sizeof val);
            int pad = cw - 2 - (int)strlen(val);
            memset(want, glyph, (size_t)pad);
            snprintf(want + pad, sizeof want - (size_t)pad, "%s%c%c", val, e->regime, glyph);
            assert_true(pane_contains(PANE_HEAT, want));
            cells++;
        }
    assert_true(cells >= 40);
    screen_close();
}


/* Models x links at 120x40: names are readable (pcie3, pcie4 and pcie5
 * apart; whole model names), and scrolling (Up/Down, < and >) reaches every
 * model and every link. */
static void test_heatmap_labels_and_scrolling(void **state)
{
    (void)state;
    screen_open("xterm-256color", 1, 40, 120, NULL);
    type("m5");
    assert_int_equal(g_x->r.heat_mode, HEAT_BY_MODELS);
    int n_models = g_db->n_models < EXP_MAX_MODELS ? g_db->n_models : EXP_MAX_MODELS;
    int n_links = g_db->n_links < EXP_MAX_LINKS ? g_db->n_links : EXP_MAX_LINKS;
    assert_true(n_models > 30 && n_links > 10);
    static char seen_m[EXP_MAX_MODELS], seen_l[EXP_MAX_LINKS];
    memset(seen_m, 0, sizeof seen_m);
    memset(seen_l, 0, sizeof seen_l);
    for (int down = 0; down < n_models; down++) {
        for (int right = 0; right < n_links; right++) {
            const char *t = pane_text(PANE_HEAT);
            for (int i = 0; i < n_models; i++) {
                char name[80];
                snprintf(name, sizeof name, "\n\xe2\x94\x82%s ", g_db->models[i].name);
                if (strstr(t, name))
                    seen_m[i] = 1;
            }
            for (int i = 0; i < n_links; i++) {
                char name[80]; /* a whole link name between blanks */
                snprintf(name, sizeof name, " %.9s ", g_db->links[i].name);
                if (strstr(t, name))
                    seen_l[i] = 1;
            }
            type(">");
        }
        type("<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<j");
    }
    for (int i = 0; i < n_models; i++)
        if (!seen_m[i])
            fail_msg("model %s never shown", g_db->models[i].name);
    for (int i = 0; i < n_links; i++)
        if (!seen_l[i])
            fail_msg("link %s never shown", g_db->links[i].name);
    assert_true(g_x->view.heat_top > 0);
    type("kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk");
    assert_int_equal(g_x->view.heat_top, 0);
    screen_close();
}


/* A calibration error longer than the bar: cut after a whole word, ending
 * "(press v for details)"; the view shows it whole and the CPU fallback. */
static void test_calib_error_on_bar_and_view(void **state)
{
    (void)state;
    fake_open("vt100", 0, 24, 80, 0);
    g_fake.outcome = -1;
    type("c");
    poll_and_draw();
    const char *full = explorer_message(g_x);
    assert_true(strlen(full) > 80);
    dump_screen();
    const char *bar = g_dump; /* the screen's last line */
    for (int i = 0; i < 23 && bar; i++)
        bar = strchr(bar, '\n') ? strchr(bar, '\n') + 1 : NULL;
    assert_non_null(bar);
    const char *end = strstr(bar, "... (press v for details)"); /* ASCII ellipsis */
    if (!end)
        fail_msg("bar: %.80s", bar);
    assert_true(end < strchr(bar, '\n'));
    assert_true(bar[0] == ' ');
    size_t shown = (size_t)(end - bar - 1);
    assert_true(shown > 20);
    assert_int_equal(strncmp(bar + 1, full, shown), 0); /* a prefix of the message */
    assert_true(full[shown] == ' ');                    /* that ends at a word */
    type("v");
    assert_true(screen_contains("Last attempt: failed: no usable GPU: cudaGetDeviceCount"));
    assert_true(screen_contains("previous calibration kept"));
    assert_true(screen_contains("shardscope calibrate --backend cpu"));
    fake_close();
}

/* The frontier pane's Pareto view (`o`): computed only while it is on
 * screen, cached by its inputs (the batch and the objective are not among
 * them), the engine's points for the current scenario; drawn with the
 * frontier `*`, the selected plan `+` and `@` at its batch, readable
 * without colours (goldens at 80x24 vt100 and 120x40 xterm-256color). */
static void test_pareto_view(void **state)
{
    (void)state;
    screen_open("vt100", 0, 24, 80, NULL);
    assert_false(g_x->r.have[EXP_PART_PARETO]); /* hidden: not computed */
    type("o");
    assert_int_equal(g_x->view.front_view, 1);
    assert_int_equal(g_x->view.focus, PANE_FRONTIER);
    assert_true(g_x->r.have[EXP_PART_PARETO]);
    static engine_pareto_point want[EXP_PARETO_MAX];
    int n = engine_pareto_points(&g_x->r.sc, want, EXP_PARETO_MAX, NULL);
    assert_true(n > 10);
    assert_int_equal(g_x->r.n_pareto, n);
    assert_memory_equal(want, g_x->r.pareto, (size_t)n * sizeof want[0]);
    assert_true(pane_contains(PANE_FRONTIER, "Pareto frontier: output tok/s per GPU"));
    assert_true(pane_contains(PANE_FRONTIER, "@"));
    assert_true(pane_contains(PANE_FRONTIER, "*"));
    assert_true(pane_contains(PANE_FRONTIER, "* frontier  + TP8xPP1xDP1  @ B=1  . other"));
    assert_true(pane_contains(PANE_FRONTIER, "frontier         B   /GPU /user"));
    assert_true(pane_contains(PANE_FRONTIER, "TP8xPP1xDP1      1     10    84"));
    check_golden("explorer-80x24-vt100-pareto");
    /* the batch does not move the points: no recomputation */
    g_x->r.pareto[0].batch = -7; /* a sentinel the engine never writes */
    set_ctl(CTL_BATCH, 8);
    assert_int_equal(g_x->r.pareto[0].batch, -7);
    assert_true(pane_contains(PANE_FRONTIER, "@ B=8"));
    /* the GPU count does */
    set_ctl(CTL_GPUS, 4);
    assert_int_equal(g_x->r.sc.gpus, 4);
    assert_true(g_x->r.pareto[0].batch >= 1);
    n = engine_pareto_points(&g_x->r.sc, want, EXP_PARETO_MAX, NULL);
    assert_int_equal(g_x->r.n_pareto, n);
    /* back to the VRAM frontier: hidden again, nothing recomputed */
    type("o");
    assert_int_equal(g_x->view.front_view, 0);
    assert_true(pane_contains(PANE_FRONTIER, "VRAM frontier"));
    g_x->r.pareto[0].batch = -7;
    set_ctl(CTL_GPUS, 8);
    assert_int_equal(g_x->r.pareto[0].batch, -7);
    screen_close();
    screen_open("xterm-256color", 1, 40, 120, NULL);
    type("o");
    check_golden("explorer-120x40-xterm-256color-pareto");
    screen_close();
}

/* Issue 11 §4: `S` turns speculative decoding on (eagle at its default k 3
 * and acceptance 0.75), `[` `]` and `{` `}` move k and P; the details pane
 * shows E and the draft / verification split, the selected plan's ITL is
 * (draft + verification) / E, `y`'s command line carries the flags; on a
 * model without MTP layers the next `S` turns it off. */
static void test_details_speculation(void **state)
{
    (void)state;
    explorer_opts eo = opts_for("llama-3-8b", "h100-sxm", 1);
    screen_open("vt100", 0, 40, 120, &eo);
    type("3");
    const engine_result *p = exp_selected_plan(g_x);
    assert_false(p->spec.on);
    double plain_itl = p->itl_s;
    static char got[DLINES][200];
    memset(got, 0, sizeof got);
    int n = details_all_lines(got), off = 0;
    for (int i = 0; i < n; i++)
        off |= !strcmp(got[i], " speculation none (S)");
    assert_true(off);
    type("S");
    p = exp_selected_plan(g_x);
    assert_true(p->spec.on);
    assert_int_equal(p->spec.method, ENGINE_SPEC_EAGLE);
    assert_int_equal(p->spec.k, 3);
    assert_true(fabs(p->spec.accept - 0.75) < 1e-12);
    assert_true(fabs(p->itl_s - (p->spec.draft_s + p->spec.verify_s) / 2.734375) <
                1e-12 * p->itl_s);
    assert_true(p->itl_s < plain_itl);
    memset(got, 0, sizeof got);
    g_x->view.details.top = 0;
    explorer_frame(g_x);
    n = details_all_lines(got);
    int e_line = 0, split = 0, ctl = 0;
    for (int i = 0; i < n; i++) {
        e_line |= strstr(got[i], "  eagle: E 2.73 tokens/step") == got[i];
        split |= strncmp(got[i], "  draft ", 8) == 0 && strstr(got[i], " + verify ") != NULL;
        ctl |= strstr(got[i], "  k 3 ([ ]), P 0.75 ({ })") == got[i];
    }
    assert_true(e_line && split && ctl);
    char line[1024];
    assert_int_equal(exp_command_line(g_x, line, sizeof line), 0);
    assert_non_null(strstr(line, " --spec-method eagle --spec-k 3 --spec-accept 0.75"));
    type("]{");
    p = exp_selected_plan(g_x);
    assert_int_equal(p->spec.k, 4);
    assert_true(fabs(p->spec.accept - 0.70) < 1e-12);
    assert_true(fabs(p->spec.tokens_per_step - engine_spec_tokens_per_step(4, 0.70)) < 1e-12);
    type("S"); /* Llama-3-8B has no MTP layers: back to none */
    p = exp_selected_plan(g_x);
    assert_false(p->spec.on);
    assert_true(fabs(p->itl_s - plain_itl) < 1e-15);
    screen_close();
}

/* Issue 11 (overlap): with a profile that fuses the TP all-reduce with the
 * norm after it (a user preset can; none shipped does), the details pane
 * says what the fusion saved of a decode step under the TP/EP/PP line; the
 * plain profile shows no such line. */
static void test_details_overlap_line(void **state)
{
    (void)state;
    engine_framework *fw = NULL;
    for (int i = 0; i < g_db->n_frameworks; i++)
        if (!strcmp(g_db->frameworks[i].name, "trt-llm"))
            fw = &g_db->frameworks[i];
    assert_non_null(fw);
    explorer_opts eo = opts_for("llama-3-8b", "h100-sxm", 2);
    eo.framework = "trt-llm";
    static char got[DLINES][200];
    for (int on = 0; on < 2; on++) {
        fw->fuse_ar_norm = on;
        screen_open("vt100", 0, 40, 120, &eo);
        type("3"); /* the details pane */
        const engine_result *p = exp_selected_plan(g_x);
        assert_int_equal(p->plan.tp, 2);
        assert_true(on ? p->decode.ar_norm_saved_s > 0 : p->decode.ar_norm_saved_s == 0);
        memset(got, 0, sizeof got);
        int n = details_all_lines(got), hid = 0, ar = 0;
        for (int i = 0; i < n; i++) {
            hid |= strstr(got[i], "  hid: TBO 0 s (0%)") == got[i];
            ar |= strstr(got[i], "  AR+norm ") == got[i] && strstr(got[i], "%)") != NULL;
        }
        assert_int_equal(hid, on);
        assert_int_equal(ar, on);
        screen_close();
    }
    fw->fuse_ar_norm = 0;
}

/* More plans than the explorer holds (EXP_MAX_PLANS): the strategies pane
 * keeps the best of them (the full ranking's first) and its title says
 * how many there were.  A 384-expert DeepSeek-V3 on 960 GPUs has 1372. */
static void test_strategies_best_of_many_plans(void **state)
{
    (void)state;
    engine_model *m = NULL;
    for (int i = 0; i < g_db->n_models; i++)
        if (!strcmp(g_db->models[i].name, "deepseek-v3"))
            m = &g_db->models[i];
    assert_non_null(m);
    int experts = m->experts;
    m->experts = 384;
    explorer_opts eo = opts_for("deepseek-v3", "h100-sxm", 960);
    screen_open("vt100", 0, 40, 120, &eo);
    int all = engine_plan_count(&g_x->r.sc);
    assert_true(all > EXP_MAX_PLANS);
    assert_int_equal(g_x->r.n_plans, EXP_MAX_PLANS);
    assert_int_equal(g_x->r.n_plans_all, all);
    engine_result *full = calloc((size_t)all, sizeof *full);
    assert_non_null(full);
    assert_int_equal(engine_rank(&g_x->r.sc, full, all, 0, NULL), all);
    assert_memory_equal(&g_x->r.plans[0].plan, &full[0].plan, sizeof full[0].plan);
    assert_memory_equal(&g_x->r.plans[EXP_MAX_PLANS - 1].plan, &full[EXP_MAX_PLANS - 1].plan,
                        sizeof full[0].plan);
    free(full);
    char want[64];
    snprintf(want, sizeof want, "(the best of %d)", all);
    assert_true(screen_contains(want));
    screen_close();
    m->experts = experts;
}

/* The load line: the selected plan under the rate and SLO controls (a
 * small simulation); moving those controls re-runs it alone, never the
 * ranking; past the sustainable rate it says OVERLOADED. */
static void test_details_load_line(void **state)
{
    (void)state;
    explorer_opts eo = opts_for("llama-3-8b", "h100-sxm", 1);
    screen_open("vt100", 0, 40, 120, &eo);
    assert_true(pane_contains(PANE_DETAILS, "Load at 2.0 req/s (sim of 200)"));
    assert_true(pane_contains(PANE_DETAILS, " sustainable "));
    assert_true(pane_contains(PANE_DETAILS, "SLO met"));
    const exp_results *r = &g_x->r;
    assert_true(r->load_ok);
    assert_int_equal(r->load.requests, EXP_LOAD_REQUESTS);
    /* the sustainable rate: the static model at the largest batch that fits */
    engine_scenario t = r->sc;
    engine_sim_config c;
    engine_sim_defaults(&c, r->load_st);
    t.batch = engine_sim_max_batch(r->load_st, &c);
    engine_result er;
    assert_int_equal(engine_evaluate(&t, exp_selected_plan(g_x)->plan, &er, NULL), 0);
    assert_true(fabs(r->load_sustainable - er.tokens_per_s / t.gen) < 1e-9 * er.tokens_per_s);
    double ttft2 = r->load.ttft.p99;
    /* the rate control re-runs the load line only */
    snprintf(g_x->r.rank_err, sizeof g_x->r.rank_err, "sentinel");
    set_ctl(CTL_RATE, 100);
    assert_string_equal(g_x->r.rank_err, "sentinel");
    assert_true(pane_contains(PANE_DETAILS, "Load at 10.0 req/s"));
    assert_true(r->load.ttft.p99 != ttft2);
    /* an ITL target below any step: missed */
    set_ctl(CTL_ITL, 1);
    assert_true(pane_contains(PANE_DETAILS, "SLO missed"));
    assert_string_equal(g_x->r.rank_err, "sentinel");
    /* ten times the sustainable rate: overloaded */
    set_ctl(CTL_RATE, (int)(100 * r->load_sustainable));
    assert_true(r->load.overloaded);
    assert_true(pane_contains(PANE_DETAILS, "OVERLOADED"));
    /* a scenario input re-runs the ranking */
    set_ctl(CTL_BATCH, 2);
    assert_string_equal(g_x->r.rank_err, "");
    screen_close();
}

/* The load line names the preemptions when the short run's KV cache runs
 * out: vLLM's cache is given out on demand (frameworks.json kv_alloc), so
 * on a 24 GB H100 at 2000 + 2000 tokens past its rate requests are
 * preempted; TensorRT-LLM's reservation preempts none. */
static void test_details_load_preemptions(void **state)
{
    (void)state;
    explorer_opts eo = opts_for("llama-3-8b", "h100-sxm", 1);
    eo.framework = "vllm";
    eo.vram_gb = 24;
    eo.prompt = 2000;
    eo.gen = 2000;
    screen_open("vt100", 0, 40, 120, &eo);
    set_ctl(CTL_RATE, 100);
    const exp_results *r = &g_x->r;
    assert_true(r->load_ok);
    assert_true(r->load.preemptions > 0);
    char want[64];
    snprintf(want, sizeof want, "KV full: %lld preempted", r->load.preemptions);
    assert_true(pane_contains(PANE_DETAILS, want));
    screen_close();
    eo.framework = "trt-llm";
    screen_open("vt100", 0, 40, 120, &eo);
    set_ctl(CTL_RATE, 100);
    assert_true(g_x->r.load_ok);
    assert_int_equal(g_x->r.load.preemptions, 0);
    assert_false(pane_contains(PANE_DETAILS, "KV full"));
    screen_close();
}

/* The xPyD line under the load line: the best split of the GPUs by the
 * objective, as engine_disagg_rank gives it for the explorer's scenario;
 * a GPU count change recomputes it. */
static void test_details_disagg_line(void **state)
{
    (void)state;
    explorer_opts eo = opts_for("llama-3-8b", "h100-sxm", 3);
    screen_open("vt100", 0, 40, 120, &eo);
    const exp_results *r = &g_x->r;
    assert_true(r->disagg_ok);
    assert_int_equal(r->n_disagg, 4); /* 1P2D, 2P1D at TP 1/1; 1P1D at 1/2 and 2/1 */
    engine_disagg_result *d = calloc(ENGINE_DISAGG_RANK_MAX, sizeof *d);
    int *order = calloc(ENGINE_DISAGG_RANK_MAX, sizeof *order);
    assert_non_null(d);
    assert_non_null(order);
    assert_int_equal(engine_disagg_rank(&r->sc, d, order, ENGINE_DISAGG_RANK_MAX, NULL), 4);
    char nm[48], want[64];
    engine_disagg_name(d[order[0]].plan, nm, sizeof nm);
    snprintf(want, sizeof want, "xPyD best: %s", nm);
    assert_true(pane_contains(PANE_DETAILS, want));
    assert_true(r->disagg_best.tokens_per_s == d[order[0]].tokens_per_s);
    assert_true(r->disagg_best.ttft_s == d[order[0]].ttft_s);
    set_ctl(CTL_GPUS, 4);
    assert_int_equal(r->sc.gpus, 4);
    assert_int_equal(engine_disagg_rank(&r->sc, d, order, ENGINE_DISAGG_RANK_MAX, NULL),
                     r->n_disagg);
    engine_disagg_name(d[order[0]].plan, nm, sizeof nm);
    snprintf(want, sizeof want, "xPyD best: %s", nm);
    assert_true(pane_contains(PANE_DETAILS, want));
    free(order);
    free(d);
    screen_close();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_details_disagg_line),
        cmocka_unit_test(test_details_batch_bound),
        cmocka_unit_test(test_golden_120x40_xterm256),
        cmocka_unit_test(test_golden_120x40_vt100),
        cmocka_unit_test(test_golden_80x24_xterm256),
        cmocka_unit_test(test_golden_80x24_vt100),
        cmocka_unit_test(test_golden_help_and_too_small),
        cmocka_unit_test(test_resize_down_to_1x1_and_back),
        cmocka_unit_test(test_keys_change_what_is_shown),
        cmocka_unit_test(test_preselection_and_vram_default),
        cmocka_unit_test(test_mouse_focus_pick_and_wheel),
        cmocka_unit_test(test_mouse_tabs_compact),
        cmocka_unit_test(test_drawing_changes_nothing),
        cmocka_unit_test(test_random_keys_and_resizes),
        cmocka_unit_test(test_no_color_is_honoured),
        cmocka_unit_test(test_export_writes_csv_and_json),
        cmocka_unit_test(test_export_failure_is_reported),
        cmocka_unit_test(test_calib_progress_and_escape_cancels),
        cmocka_unit_test(test_calib_q_cancels_then_quits),
        cmocka_unit_test(test_calib_finish_failure_and_gpu_change),
        cmocka_unit_test(test_calib_start_refused),
        cmocka_unit_test(test_calib_view_goldens),
        cmocka_unit_test(test_calib_view_per_kernel),
        cmocka_unit_test(test_calib_view_defaults_and_no_hook),
        cmocka_unit_test(test_signal_flag),
        cmocka_unit_test(test_details_of_unfit_plan),
        cmocka_unit_test(test_details_kv_local_split),
        cmocka_unit_test(test_details_launch_lines),
        cmocka_unit_test(test_details_xpyd_launch_lines),
        cmocka_unit_test(test_details_explain_page),
        cmocka_unit_test(test_details_speculation),
        cmocka_unit_test(test_details_overlap_line),
        cmocka_unit_test(test_strategies_best_of_many_plans),
        cmocka_unit_test(test_details_load_line),
        cmocka_unit_test(test_details_load_preemptions),
        cmocka_unit_test(test_copy_as_command),
        cmocka_unit_test(test_weights_follow_the_model),
        cmocka_unit_test(test_opts_workload_plan_spec),
        cmocka_unit_test(test_pareto_view),
        cmocka_unit_test(test_frontier_min_gpus_and_capacity_label),
        cmocka_unit_test(test_rejected_override_on_bar),
        cmocka_unit_test(test_loop_burst_of_keys_draws_one_frame),
        cmocka_unit_test(test_loop_deferred_load_line_waits_for_keys),
        cmocka_unit_test(test_loop_unknown_escape_sequences_do_not_quit),
        cmocka_unit_test(test_loop_ctrl_c_cancels_calibration_then_quits),
        cmocka_unit_test(test_filter_no_match_bar_agrees),
        cmocka_unit_test(test_ranking_columns_follow_objective),
        cmocka_unit_test(test_sort_and_fits_only),
        cmocka_unit_test(test_pin_and_compare),
        cmocka_unit_test(test_mono_heat_cells_use_the_ramp),
        cmocka_unit_test(test_heatmap_labels_and_scrolling),
        cmocka_unit_test(test_calib_error_on_bar_and_view),
    };
    return cmocka_run_group_tests_name("screen", tests, group_setup, group_teardown);
}
