/*
 * common.c - what every pane shares: the frame, clipped text, bars and an
 * overlay's popup.  Drawing only: nothing here changes the explorer.
 */
#include "explorer_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

static const char *const TITLES[PANE_COUNT] = {"Controls", "Strategies", "Details",
                                               "Efficiency", "Regime heatmap",
                                               "VRAM frontier"};

const char *pane_title(int pane)
{
    return pane >= 0 && pane < PANE_COUNT ? TITLES[pane] : "";
}

/* Byte length of the first `cols` characters of a UTF-8 string. */
static int utf8_prefix(const char *s, int cols)
{
    int i = 0, n = 0;
    while (s[i]) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (n == cols)
                break;
            n++;
        }
        i++;
    }
    return i;
}

void pane_put(WINDOW *w, int y, int x, int maxw, theme_role role, const char *s)
{
    int h, ww;
    getmaxyx(w, h, ww);
    if (y < 0 || y >= h || x < 0 || x >= ww || maxw <= 0)
        return;
    if (maxw > ww - x)
        maxw = ww - x;
    theme_set(w, role);
    mvwaddnstr(w, y, x, s, utf8_prefix(s, maxw));
    theme_set(w, ROLE_NORMAL);
}

void pane_fill(WINDOW *w, int y, int x, int n, theme_role role)
{
    static const char SP[] = "                                                                ";
    int h, ww;
    getmaxyx(w, h, ww);
    if (y < 0 || y >= h || x < 0 || x >= ww)
        return;
    if (n > ww - x)
        n = ww - x;
    theme_set(w, role);
    wmove(w, y, x);
    while (n > 0) {
        int k = n < (int)sizeof SP - 1 ? n : (int)sizeof SP - 1;
        waddnstr(w, SP, k);
        n -= k;
    }
    theme_set(w, ROLE_NORMAL);
}

void pane_putf(WINDOW *w, int y, int x, int maxw, theme_role role, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    pane_put(w, y, x, maxw, role, buf);
}

static void set_cc(cchar_t *cc, const wchar_t *wc, theme_role role)
{
    setcchar(cc, wc, theme_attr(role), theme_pair(role), NULL);
}

static void frame(const exp_view *v, WINDOW *w, int pane, const char *title, int focus)
{
    theme_role br = focus ? ROLE_BORDER_FOCUS : ROLE_BORDER;
    if (v->utf8) {
        cchar_t vt, hz, tl, tr, bl, brc;
        set_cc(&vt, L"\u2502", br);
        set_cc(&hz, L"\u2500", br);
        set_cc(&tl, L"\u250c", br);
        set_cc(&tr, L"\u2510", br);
        set_cc(&bl, L"\u2514", br);
        set_cc(&brc, L"\u2518", br);
        wborder_set(w, &vt, &vt, &hz, &hz, &tl, &tr, &bl, &brc);
    } else {
        chtype a = theme_attr(br) | COLOR_PAIR(theme_pair(br));
        wborder(w, '|' | a, '|' | a, '-' | a, '-' | a, '+' | a, '+' | a, '+' | a, '+' | a);
    }
    char t[96];
    snprintf(t, sizeof t, " %d %s ", pane + 1, title ? title : TITLES[pane]);
    pane_put(w, 0, 2, getmaxx(w) - 4, focus ? ROLE_TITLE_FOCUS : ROLE_TITLE, t);
}

void pane_frame(const exp_view *v, WINDOW *w, int pane, const char *title)
{
    frame(v, w, pane, title, v->focus == pane);
}

void pane_popup(const exp_view *v, WINDOW *w)
{
    int rows = getmaxy(w), cols = getmaxx(w);
    for (int y = 0; y < rows; y++)
        pane_fill(w, y, 0, cols, ROLE_POPUP);
    frame(v, w, 0, NULL, 0);
}


void pane_hbar(const exp_view *v, WINDOW *w, int y, int xx, int width, int filled,
               theme_role fill_role)
{
    if (width <= 0)
        return;
    if (filled > width)
        filled = width;
    if (filled < 0)
        filled = 0;
    int maxx = getmaxx(w);
    for (int i = 0; i < width && xx + i < maxx; i++)
        pane_put(w, y, xx + i, 1, i < filled ? fill_role : ROLE_EMPTY,
                 i < filled ? v->g->fill : v->g->empty);
}
