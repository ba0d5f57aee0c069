/*
 * theme.c - role -> (attributes, colour pair) tables for monochrome, 8 and
 * 256 colours, the heatmap ramps, and the glyph sets.  The only mutable
 * state is the chosen mode (terminal state, set once per screen).
 */
#include "theme.h"

#include <string.h>

/* Pairs: 1..ROLE_COUNT for roles, then heat buckets, then the plain pair
 * (the terminal's own colours). */
#define PAIR_HEAT0 (ROLE_COUNT + 1)
#define HEAT_MAX 10
#define PAIR_PLAIN (PAIR_HEAT0 + HEAT_MAX)

typedef struct role_def {
    attr_t mono;
    short fg8, bg8;
    attr_t a8;
    short fg256, bg256;
    attr_t a256;
} role_def;

static const role_def ROLES[ROLE_COUNT] = {
    [ROLE_NORMAL] = {A_NORMAL, -1, -1, 0, -1, -1, 0},
    [ROLE_BORDER] = {A_NORMAL, COLOR_BLUE, -1, 0, 67, -1, 0},
    [ROLE_BORDER_FOCUS] = {A_BOLD, COLOR_CYAN, -1, A_BOLD, 45, -1, A_BOLD},
    [ROLE_TITLE] = {A_BOLD, COLOR_CYAN, -1, 0, 110, -1, A_BOLD},
    [ROLE_TITLE_FOCUS] = {A_REVERSE | A_BOLD, COLOR_BLACK, COLOR_CYAN, 0, 16, 45, A_BOLD},
    [ROLE_HEADER] = {A_REVERSE, COLOR_BLACK, COLOR_CYAN, 0, 255, 24, A_BOLD},
    [ROLE_BAR] = {A_REVERSE, COLOR_BLACK, COLOR_WHITE, 0, 252, 236, 0},
    [ROLE_BAR_KEY] = {A_REVERSE | A_BOLD, COLOR_BLACK, COLOR_CYAN, 0, 16, 45, A_BOLD},
    [ROLE_MSG] = {A_BOLD, COLOR_YELLOW, -1, A_BOLD, 220, 236, A_BOLD},
    [ROLE_SELECTED] = {A_REVERSE, COLOR_BLACK, COLOR_CYAN, 0, 16, 117, 0},
    [ROLE_SELECTED_DIM] = {A_UNDERLINE, COLOR_WHITE, COLOR_BLUE, 0, 255, 238, 0},
    [ROLE_DIM] = {A_DIM, COLOR_WHITE, -1, A_DIM, 244, -1, 0},
    [ROLE_LABEL] = {A_NORMAL, -1, -1, 0, -1, -1, 0},
    [ROLE_VALUE] = {A_BOLD, -1, -1, A_BOLD, -1, -1, A_BOLD},
    [ROLE_FILL] = {A_BOLD, COLOR_CYAN, -1, 0, 39, -1, 0},
    [ROLE_EMPTY] = {A_NORMAL, COLOR_BLUE, -1, 0, 238, -1, 0},
    /* good / bad: the two ends of the heat palette (blue / orange); in
     * monochrome bold against reverse video, as the heat ramp's sides */
    [ROLE_GOOD] = {A_BOLD, COLOR_CYAN, -1, A_BOLD, 75, -1, 0},
    [ROLE_BAD] = {A_REVERSE, COLOR_RED, -1, A_BOLD, 208, -1, 0},
    [ROLE_SEG1] = {A_NORMAL, COLOR_BLUE, -1, A_BOLD, 33, -1, 0},
    [ROLE_SEG2] = {A_NORMAL, COLOR_MAGENTA, -1, A_BOLD, 170, -1, 0},
    [ROLE_SEG3] = {A_NORMAL, COLOR_YELLOW, -1, 0, 178, -1, 0},
    [ROLE_CAP] = {A_BOLD, COLOR_RED, -1, A_BOLD, 196, -1, A_BOLD},
    [ROLE_TAB] = {A_NORMAL, -1, -1, 0, 250, 236, 0},
    [ROLE_TAB_ACTIVE] = {A_REVERSE | A_BOLD, COLOR_BLACK, COLOR_CYAN, 0, 16, 45, A_BOLD},
    [ROLE_POPUP] = {A_NORMAL, -1, -1, 0, 255, 235, 0},
};

/* Diverging heat ramps, colour-blind safe: communication-bound orange to
 * compute-bound blue (no red against green), light near a ratio of 1.  The
 * SVG heatmaps (tui/out/plots.c plot_heat_rgb) run between the same two
 * ends, xterm 166 (#d75f00) and 25 (#005faf); test_term.c checks both. */
static const short HEAT256_BG[HEAT_MAX] = {130, 166, 208, 215, 223, 153, 111, 68, 25, 18};
static const short HEAT256_FG[HEAT_MAX] = {15, 15, 0, 0, 0, 0, 0, 15, 15, 15};
/* 8 colours have no orange: red and yellow, then cyan and blue. */
static const short HEAT8_BG[6] = {COLOR_RED, COLOR_YELLOW, COLOR_BLACK,
                                  COLOR_BLACK, COLOR_CYAN, COLOR_BLUE};
static const short HEAT8_FG[6] = {COLOR_WHITE, COLOR_BLACK, COLOR_YELLOW,
                                  COLOR_CYAN, COLOR_BLACK, COLOR_WHITE};
static const attr_t HEAT8_A[6] = {A_BOLD, 0, A_BOLD, A_BOLD, 0, A_BOLD};
/* Monochrome: the glyph and the attributes grow with the distance from 1;
 * the communication-bound side is reversed.  No '.': it would read as a
 * decimal point next to a value, and it marks "no TP". */
static const char HEATMONO_GLYPH[6] = {'#', '=', '-', ':', '+', '*'};
static const attr_t HEATMONO_A[6] = {A_REVERSE | A_BOLD, A_REVERSE, A_REVERSE,
                                     A_NORMAL, A_BOLD, A_BOLD | A_UNDERLINE};

static theme_mode g_mode = THEME_MONO;
/* The pair of text and blanks in the terminal's own colours: 0 without
 * colours, else PAIR_PLAIN (see theme_pair). */
static short g_plain = 0;

theme_mode theme_pick(int has_colors, int colors, int no_color)
{
    if (!has_colors || no_color || colors < 8)
        return THEME_MONO;
    return colors >= 256 ? THEME_256 : THEME_8;
}

void theme_init(theme_mode mode, int default_colors)
{
    g_mode = mode;
    g_plain = 0;
    if (mode == THEME_MONO)
        return;
    for (int r = 0; r < ROLE_COUNT; r++) {
        const role_def *d = &ROLES[r];
        short fg = mode == THEME_256 ? d->fg256 : d->fg8;
        short bg = mode == THEME_256 ? d->bg256 : d->bg8;
        /* Without the terminal's default colours, white on black. */
        if (!default_colors) {
            fg = fg < 0 ? COLOR_WHITE : fg;
            bg = bg < 0 ? COLOR_BLACK : bg;
        }
        init_pair((short)(r + 1), fg, bg);
    }
    if (default_colors && init_pair(PAIR_PLAIN, -1, -1) == OK)
        g_plain = PAIR_PLAIN;
    for (int b = 0; b < HEAT_MAX; b++) {
        if (mode == THEME_256)
            init_pair((short)(PAIR_HEAT0 + b), HEAT256_FG[b], HEAT256_BG[b]);
        else if (b < 6)
            init_pair((short)(PAIR_HEAT0 + b), HEAT8_FG[b], HEAT8_BG[b]);
    }
}

theme_mode theme_current(void)
{
    return g_mode;
}

attr_t theme_attr(theme_role r)
{
    if (r < 0 || r >= ROLE_COUNT)
        return A_NORMAL;
    switch (g_mode) {
    case THEME_256: return ROLES[r].a256;
    case THEME_8: return ROLES[r].a8;
    default: return ROLES[r].mono;
    }
}

short theme_pair(theme_role r)
{
    if (g_mode == THEME_MONO || r <= 0 || r >= ROLE_COUNT)
        return 0;
    const role_def *d = &ROLES[r];
    /* Roles in the terminal's own colours share one pair, so switching
     * between them costs no colour escape sequence.  It is not pair 0:
     * curses reaches pair 0 from a coloured cell with a full attribute
     * reset (sgr0) on top of the colour reset, the plain pair with the
     * colour reset alone ("\033[39m"). */
    if (g_mode == THEME_256 ? (d->fg256 == -1 && d->bg256 == -1) : (d->fg8 == -1 && d->bg8 == -1))
        return g_plain;
    return (short)(r + 1);
}

void theme_window(WINDOW *w)
{
    if (!w)
        return;
    wbkgdset(w, (chtype)' ' | (chtype)COLOR_PAIR(g_plain));
    werase(w);
}

void theme_set(WINDOW *w, theme_role r)
{
    wattr_set(w, theme_attr(r), theme_pair(r), NULL);
}

int theme_heat_buckets(void)
{
    return g_mode == THEME_256 ? HEAT_MAX : 6;
}

void theme_heat_style(int bucket, attr_t *attr, short *pair, char *glyph)
{
    int n = theme_heat_buckets();
    if (bucket < 0 || bucket >= n) {
        *attr = A_NORMAL;
        *pair = 0;
        *glyph = ' ';
        return;
    }
    *glyph = ' ';
    switch (g_mode) {
    case THEME_256:
        *attr = A_NORMAL;
        *pair = (short)(PAIR_HEAT0 + bucket);
        break;
    case THEME_8:
        *attr = HEAT8_A[bucket];
        *pair = (short)(PAIR_HEAT0 + bucket);
        break;
    default:
        *attr = HEATMONO_A[bucket];
        *pair = 0;
        *glyph = HEATMONO_GLYPH[bucket];
        break;
    }
}

/* 0xRRGGBB of an xterm-256 colour index (the 6x6x6 cube and the grey ramp;
 * 0..15 as xterm's defaults). */
static unsigned xterm_rgb(int i)
{
    static const unsigned SYS[16] = {0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd,
                                     0x00cdcd, 0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00,
                                     0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff};
    static const unsigned LV[6] = {0, 95, 135, 175, 215, 255};
    if (i < 16)
        return SYS[i < 0 ? 0 : i];
    if (i >= 232) {
        unsigned g = 8 + 10 * (unsigned)(i - 232);
        return g << 16 | g << 8 | g;
    }
    i -= 16;
    return LV[i / 36] << 16 | LV[i / 6 % 6] << 8 | LV[i % 6];
}

unsigned theme_heat256_rgb(int bucket)
{
    return bucket >= 0 && bucket < HEAT_MAX ? xterm_rgb(HEAT256_BG[bucket]) : 0;
}

static const theme_glyphs GLYPHS_UTF8 = {
    1, "\xe2\x96\x88", "\xe2\x96\x91",
    {"\xe2\x96\x88", "\xe2\x96\x93", "\xe2\x96\x92"},
    {" ", "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
     "\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88"},
    "\xe2\x94\x80", "\xc3\x97", "\xc2\xb5", "\xc2\xb7",
    "\xe2\x97\x80", "\xe2\x96\xb6", "\xe2\x96\xb2", "\xe2\x96\xbc",
    "\xe2\x80\xa6"};

static const theme_glyphs GLYPHS_ASCII = {
    0, "#", "-",
    {"#", "=", ":"},
    {" ", "#", "#", "#", "#", "#", "#", "#", "#"},
    "-", "x", "u", ".",
    "<", ">", "^", "v",
    "~"};

const theme_glyphs *theme_glyphs_get(int utf8)
{
    return utf8 ? &GLYPHS_UTF8 : &GLYPHS_ASCII;
}
