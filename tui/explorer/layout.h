/*
 * layout.h - where each pane of the explorer goes, as a pure function of
 * the terminal size (no curses here, so it is unit-tested for every size).
 *
 * Three modes: FULL (120x40 and larger: every pane at once), COMPACT
 * (80x24 up to FULL: a tab bar and one tab at a time; the first tab shows
 * the controls in two columns above the strategies) and TOO_SMALL (below
 * 80x24: only a message).  Rectangles are in screen cells, 0-based; a pane
 * with h == 0 or w == 0 is hidden.
 */
#ifndef SHARDSCOPE_LAYOUT_H
#define SHARDSCOPE_LAYOUT_H

#define LAYOUT_MIN_ROWS 24
#define LAYOUT_MIN_COLS 80
#define LAYOUT_FULL_ROWS 40
#define LAYOUT_FULL_COLS 120

typedef enum pane_id {
    PANE_CONTROLS = 0,
    PANE_STRATEGIES,
    PANE_DETAILS,
    PANE_EFFICIENCY,
    PANE_HEAT,
    PANE_FRONTIER,
    PANE_COUNT
} pane_id;

typedef enum layout_mode {
    LAYOUT_TOO_SMALL = 0,
    LAYOUT_COMPACT,
    LAYOUT_FULL
} layout_mode;

typedef struct layout_rect {
    int y, x, h, w;
} layout_rect;

typedef struct layout {
    layout_mode mode;
    int rows, cols;
    layout_rect header;              /* title line (row 0) */
    layout_rect tabs;                /* tab bar; h == 0 in FULL mode */
    layout_rect bar;                 /* bottom bar (last row) */
    layout_rect pane[PANE_COUNT];    /* h == 0: not shown */
    layout_rect tab[PANE_COUNT];     /* each tab on the tab bar, with the gap
                                      * after it (COMPACT only) */
    int controls_columns;            /* 1 or 2 */
} layout;

/* Tabs of the compact mode, in order (the first shows controls above the
 * strategies). */
#define LAYOUT_TAB_COUNT PANE_COUNT

/* Compute the layout for a rows x cols screen.  `tab` (0..PANE_COUNT-1)
 * selects the compact tab, the pane with the same id; ignored in FULL.
 * Any rows/cols (even 0 or negative) give a valid result. */
void layout_compute(int rows, int cols, int tab, layout *out);

/* The pane under a screen cell, or -1. */
int layout_pane_at(const layout *l, int y, int x);

/* The compact tab under a screen cell, or -1. */
int layout_tab_at(const layout *l, int y, int x);

/* The short name of a pane on its tab ("Controls" .. "Frontier"); the tab
 * reads " N name ". */
const char *layout_tab_label(int pane);

/* The control under a screen cell of the controls pane, or -1: n controls
 * run down the pane's columns (controls_columns), one row each below the
 * border. */
int layout_control_at(const layout *l, int n, int y, int x);

/* The row of a list under a screen cell of a pane whose list starts
 * `first` rows below the top border, or -1 (above it or outside). */
int layout_row_at(const layout *l, int pane, int first, int y, int x);

/* A centred overlay of at most h x w on the screen (keeping a one-cell
 * margin); hidden (h == w == 0) when smaller than 3 x 10. */
layout_rect layout_overlay(const layout *l, int h, int w);

/* 1 when the rectangle has a positive area. */
int layout_rect_visible(layout_rect r);

#endif /* SHARDSCOPE_LAYOUT_H */
