/*
 * list.c - a selector's list overlay (Enter on a selector, `/` for the
 * models): the filter as typed and the matching entries, display name and
 * preset name, the selection highlighted.  The update step keeps the
 * selection on screen (listview).
 */
#include "explorer_int.h"

#include <stdio.h>

void pane_list_size(const exp_view *v, int *h, int *w)
{
    *h = v->ov->list.n + 4 < 8 ? 8 : v->ov->list.n + 4;
    *w = 56;
}

void pane_list_draw(const exp_view *v, WINDOW *w)
{
    const listview *l = &v->ov->list;
    pane_popup(v, w);
    int h = getmaxy(w), ww = getmaxx(w);
    char t[96];
    snprintf(t, sizeof t, " Choose %s ", v->ctl->s[v->ov->ctl].label);
    pane_put(w, 0, 2, ww - 4, ROLE_TITLE_FOCUS, t);
    pane_putf(w, 1, 2, ww - 4, ROLE_LABEL, "filter: %s_", v->ov->filter);
    int vis = h - PANE_LIST_CHROME;
    if (l->n == 0)
        pane_put(w, 2, 2, ww - 4, ROLE_DIM, "(no match)");
    for (int i = 0; i < vis && l->top + i < l->n; i++) {
        const char *disp;
        const char *name = exp_choice(v->db, v->ov->ctl, v->ov->idx[l->top + i], &disp);
        int sel = l->top + i == l->sel;
        char line[160];
        snprintf(line, sizeof line, " %-24s %s", disp, name);
        if (sel)
            pane_fill(w, 2 + i, 1, ww - 2, ROLE_SELECTED);
        pane_put(w, 2 + i, 1, ww - 2, sel ? ROLE_SELECTED : ROLE_POPUP, line);
    }
}
