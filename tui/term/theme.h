/*
 * theme.h - semantic styles of the explorer and the glyph sets.
 *
 * Draw code asks for a role (theme_set(win, ROLE_SELECTED)); the theme maps
 * it to attributes and a colour pair for the terminal in use: 256 colours,
 * 8 colours, or monochrome (attributes only: no colours, NO_COLOR, vt100).
 * Colour pairs are initialised once by theme_init() after start_color().
 * Glyphs come in a UTF-8 set and an ASCII set (LANG=C).
 */
#ifndef SHARDSCOPE_THEME_H
#define SHARDSCOPE_THEME_H

#include <curses.h>

typedef enum theme_mode {
    THEME_MONO = 0,
    THEME_8,
    THEME_256
} theme_mode;

typedef enum theme_role {
    ROLE_NORMAL = 0,
    ROLE_BORDER,
    ROLE_BORDER_FOCUS,
    ROLE_TITLE,
    ROLE_TITLE_FOCUS,
    ROLE_HEADER,      /* the title line */
    ROLE_BAR,         /* the bottom bar */
    ROLE_BAR_KEY,     /* a key name in the bottom bar */
    ROLE_MSG,         /* a message in the bottom bar */
    ROLE_SELECTED,    /* the selected row of the focused pane */
    ROLE_SELECTED_DIM,/* the selected row of another pane */
    ROLE_DIM,         /* plans that do not fit, unavailable values */
    ROLE_LABEL,
    ROLE_VALUE,
    ROLE_FILL,        /* the filled part of a bar */
    ROLE_EMPTY,       /* the empty part of a bar */
    ROLE_GOOD,
    ROLE_BAD,
    ROLE_SEG1,        /* frontier: weights */
    ROLE_SEG2,        /* frontier: KV cache */
    ROLE_SEG3,        /* frontier: activations */
    ROLE_CAP,         /* frontier: the capacity line */
    ROLE_TAB,
    ROLE_TAB_ACTIVE,
    ROLE_POPUP,
    ROLE_COUNT
} theme_role;

/* The mode for a terminal: monochrome when it has no colours or no_color
 * is set (NO_COLOR non-empty), 256 when it has >= 256 colours, else 8. */
theme_mode theme_pick(int has_colors, int colors, int no_color);

/* Initialise colour pairs for mode (call once, after start_color() when
 * mode != THEME_MONO).  default_colors: 1 when use_default_colors()
 * succeeded (-1 = the terminal's own colours), else white on black. */
void theme_init(theme_mode mode, int default_colors);
theme_mode theme_current(void);

void theme_set(WINDOW *w, theme_role r);
/* Give a window the plain background (the terminal's own colours in the
 * plain pair, see theme_pair) and erase it, so blanks and plain text share
 * one pair.  Pane drawing starts with it. */
void theme_window(WINDOW *w);
attr_t theme_attr(theme_role r);
short theme_pair(theme_role r);

/* Heatmap cells: the number of buckets of the current mode and the style
 * of one (attributes, pair, and the fill glyph used in monochrome). */
int theme_heat_buckets(void);
void theme_heat_style(int bucket, attr_t *attr, short *pair, char *glyph);
/* The background of a 256-colour heat bucket (0..9) as 0xRRGGBB (0 out of
 * range): orange on the communication-bound side, blue on the other. */
unsigned theme_heat256_rgb(int bucket);

/* Glyphs (UTF-8 strings or ASCII). */
typedef struct theme_glyphs {
    int utf8;
    const char *fill, *empty;      /* slider bars */
    const char *seg[3];            /* frontier series in full cells */
    const char *eighth[9];         /* lower blocks 0..8 (UTF-8 only) */
    const char *cap;               /* capacity line */
    const char *times;             /* "×" or "x" */
    const char *micro;             /* "µ" or "u" */
    const char *dot;               /* separator "·" or "." */
    const char *left, *right;      /* selector arrows */
    const char *up, *down;         /* scroll marks */
    const char *ellipsis;
} theme_glyphs;

const theme_glyphs *theme_glyphs_get(int utf8);

#endif /* SHARDSCOPE_THEME_H */
