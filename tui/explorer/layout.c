/*
 * layout.c - pane geometry of the explorer from the terminal size alone.
 * The full layout is a left column (controls over details) and a right
 * area (strategies, then efficiency beside the heatmap, then the VRAM
 * frontier); the compact layout is a tab bar with one tab in the body.
 */
#include "layout.h"

#include <string.h>

static layout_rect rect(int y, int x, int h, int w)
{
    layout_rect r = {y, x, h < 0 ? 0 : h, w < 0 ? 0 : w};
    if (r.h == 0 || r.w == 0)
        r.h = r.w = 0;
    return r;
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

int layout_rect_visible(layout_rect r)
{
    return r.h > 0 && r.w > 0;
}

static void layout_full(layout *l)
{
    int rows = l->rows, cols = l->cols;
    int body_y = 1, body_h = rows - 2;
    int lw = clampi(cols * 32 / 100, 38, 56);
    int rw = cols - lw;
    /* 17 controls, the hint and the border. */
    int ctl_h = 20;
    l->pane[PANE_CONTROLS] = rect(body_y, 0, ctl_h, lw);
    l->pane[PANE_DETAILS] = rect(body_y + ctl_h, 0, body_h - ctl_h, lw);

    /* The heatmap and the efficiency table need a row per link (about 11)
     * plus a header, a legend or the three rows of the current cluster. */
    int mid_h = clampi(body_h * 4 / 10, 17, 26);
    int strat_h = (body_h - mid_h) / 2;
    if (strat_h < 9)
        strat_h = 9;
    int front_h = body_h - strat_h - mid_h;
    int ew = rw / 2;
    l->pane[PANE_STRATEGIES] = rect(body_y, lw, strat_h, rw);
    l->pane[PANE_EFFICIENCY] = rect(body_y + strat_h, lw, mid_h, ew);
    l->pane[PANE_HEAT] = rect(body_y + strat_h, lw + ew, mid_h, rw - ew);
    l->pane[PANE_FRONTIER] = rect(body_y + strat_h + mid_h, lw, front_h, rw);
    l->controls_columns = 1;
}

static const char *const TAB_LABEL[PANE_COUNT] = {"Controls",   "Strategies", "Details",
                                                  "Efficiency", "Heatmap",    "Frontier"};

const char *layout_tab_label(int pane)
{
    return pane >= 0 && pane < PANE_COUNT ? TAB_LABEL[pane] : "";
}

/* " N name " and a one-cell gap per tab, left to right. */
static void layout_tabs(layout *l)
{
    int xx = 0;
    for (int i = 0; i < PANE_COUNT; i++) {
        int w = 4 + (int)strlen(TAB_LABEL[i]) + 1;
        l->tab[i] = rect(l->tabs.y, xx, 1, xx + w > l->cols ? l->cols - xx : w);
        xx += w;
    }
}

static void layout_compact(layout *l, int tab)
{
    int body_y = 2, body_h = l->rows - 3;
    l->tabs = rect(1, 0, 1, l->cols);
    layout_tabs(l);
    if (tab < 0 || tab >= PANE_COUNT)
        tab = 0;
    if (tab == PANE_CONTROLS) {
        /* Two columns of 9 and 8 controls (the hint in the second's last
         * row), the strategies below. */
        int ctl_h = 11;
        l->pane[PANE_CONTROLS] = rect(body_y, 0, ctl_h, l->cols);
        l->pane[PANE_STRATEGIES] = rect(body_y + ctl_h, 0, body_h - ctl_h, l->cols);
        l->controls_columns = 2;
    } else {
        l->pane[tab] = rect(body_y, 0, body_h, l->cols);
        l->controls_columns = 2;
    }
}

void layout_compute(int rows, int cols, int tab, layout *out)
{
    memset(out, 0, sizeof *out);
    out->rows = rows < 0 ? 0 : rows;
    out->cols = cols < 0 ? 0 : cols;
    out->controls_columns = 1;
    if (out->rows < LAYOUT_MIN_ROWS || out->cols < LAYOUT_MIN_COLS) {
        out->mode = LAYOUT_TOO_SMALL;
        return;
    }
    out->header = rect(0, 0, 1, out->cols);
    out->bar = rect(out->rows - 1, 0, 1, out->cols);
    if (out->rows >= LAYOUT_FULL_ROWS && out->cols >= LAYOUT_FULL_COLS) {
        out->mode = LAYOUT_FULL;
        layout_full(out);
    } else {
        out->mode = LAYOUT_COMPACT;
        layout_compact(out, tab);
    }
}

static int in_rect(layout_rect r, int y, int x);

int layout_pane_at(const layout *l, int y, int x)
{
    for (int i = 0; i < PANE_COUNT; i++)
        if (in_rect(l->pane[i], y, x))
            return i;
    return -1;
}

static int in_rect(layout_rect r, int y, int x)
{
    return layout_rect_visible(r) && y >= r.y && y < r.y + r.h && x >= r.x && x < r.x + r.w;
}

int layout_tab_at(const layout *l, int y, int x)
{
    for (int i = 0; l->mode == LAYOUT_COMPACT && i < PANE_COUNT; i++)
        if (in_rect(l->tab[i], y, x))
            return i;
    return -1;
}

int layout_control_at(const layout *l, int n, int y, int x)
{
    layout_rect r = l->pane[PANE_CONTROLS];
    if (!in_rect(r, y, x))
        return -1;
    int cols = l->controls_columns > 1 ? 2 : 1;
    int per = (n + cols - 1) / cols;
    int colw = (r.w - 2) / cols;
    int row = y - r.y - 1, col = colw > 0 ? (x - r.x - 1) / colw : 0;
    if (row < 0 || row >= per || col < 0 || col >= cols)
        return -1;
    int c = col * per + row;
    return c < n ? c : -1;
}

int layout_row_at(const layout *l, int pane, int first, int y, int x)
{
    if (pane < 0 || pane >= PANE_COUNT || !in_rect(l->pane[pane], y, x))
        return -1;
    int row = y - l->pane[pane].y - 1 - first;
    return row >= 0 ? row : -1;
}

layout_rect layout_overlay(const layout *l, int h, int w)
{
    if (h > l->rows - 2)
        h = l->rows - 2;
    if (w > l->cols - 2)
        w = l->cols - 2;
    if (h < 3 || w < 10)
        return rect(0, 0, 0, 0);
    return rect((l->rows - h) / 2, (l->cols - w) / 2, h, w);
}
