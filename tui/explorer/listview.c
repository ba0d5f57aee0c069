/*
 * listview.c - the one scrolling list (see listview.h).
 */
#include "listview.h"

static int page_of(const listview *l)
{
    int p = l->page > 0 ? l->page : l->rows;
    return p > 0 ? p : 1;
}

void listview_move(listview *l, int delta)
{
    if (!l->cursor) {
        l->top += delta;
        if (l->top < 0)
            l->top = 0;
        return;
    }
    l->sel += delta;
    if (l->sel > l->n - 1)
        l->sel = l->n - 1;
    if (l->sel < 0)
        l->sel = 0;
}

void listview_page(listview *l, int dir)
{
    listview_move(l, dir < 0 ? -page_of(l) : page_of(l));
}

void listview_home(listview *l)
{
    l->sel = 0;
    l->top = 0;
}

void listview_end(listview *l)
{
    if (l->cursor)
        l->sel = l->n > 0 ? l->n - 1 : 0;
    else
        l->top = l->n;
}

void listview_fit(listview *l, int n, int rows)
{
    l->n = n < 0 ? 0 : n;
    l->rows = rows < 1 ? 1 : rows;
    if (l->cursor) {
        if (l->sel >= l->n)
            l->sel = l->n > 0 ? l->n - 1 : 0;
        if (l->sel < 0)
            l->sel = 0;
        if (l->sel < l->top)
            l->top = l->sel;
        if (l->sel >= l->top + l->rows)
            l->top = l->sel - l->rows + 1;
    }
    if (l->top > l->n - l->rows)
        l->top = l->n - l->rows;
    if (l->top < 0)
        l->top = 0;
}
