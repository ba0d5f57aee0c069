/*
 * help.c - the help overlay (`?`): one line per labelled row of the key
 * table (keys.h), in its order.
 */
#include "explorer_int.h"
#include "keys.h"

static int help_rows(void)
{
    int n, k = 0;
    const exp_binding *b = exp_bindings(&n);
    for (int i = 0; i < n; i++)
        k += b[i].label && b[i].help;
    return k;
}

void pane_help_size(const exp_view *v, int *h, int *w)
{
    (void)v;
    *h = help_rows() + 2;
    *w = 70;
}

void pane_help_draw(const exp_view *v, WINDOW *w)
{
    int n;
    const exp_binding *b = exp_bindings(&n);
    pane_popup(v, w);
    int h = getmaxy(w), ww = getmaxx(w);
    pane_put(w, 0, 2, ww - 4, ROLE_TITLE_FOCUS, " Help: keys (any key closes) ");
    for (int i = 0, row = 0; i < n && row + 1 < h - 1; i++) {
        if (!b[i].label || !b[i].help)
            continue;
        pane_put(w, row + 1, 2, 18, ROLE_VALUE, b[i].label);
        pane_put(w, row + 1, 20, ww - 22, ROLE_POPUP, b[i].help);
        row++;
    }
}
