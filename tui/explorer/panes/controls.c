/*
 * pane_controls.c - the selectors and sliders: one row per control, label,
 * a bar (sliders) and the value with its unit.  One column in the full
 * layout, two in the compact one.
 */
#include "explorer_int.h"

#include <stdio.h>
#include <string.h>

#define LABEL_W 12

static int per_column(const explorer *x)
{
    int cols = x->scr.lay.controls_columns > 1 ? 2 : 1;
    return (CTL_COUNT + cols - 1) / cols;
}

int pane_controls_at(const explorer *x, int y, int xx)
{
    WINDOW *w = x->scr.win[PANE_CONTROLS];
    if (!w)
        return -1;
    int cols = x->scr.lay.controls_columns > 1 ? 2 : 1;
    int colw = (getmaxx(w) - 2) / cols;
    int row = y - 1, col = colw > 0 ? (xx - 1) / colw : 0;
    if (row < 0 || row >= per_column(x) || col < 0 || col >= cols)
        return -1;
    int c = col * per_column(x) + row;
    return c < CTL_COUNT ? c : -1;
}

static int is_list(int c)
{
    return c == CTL_MODEL || c == CTL_GPU || c == CTL_INTRA || c == CTL_INTER ||
           c == CTL_DTYPE || c == CTL_SCHED || c == CTL_OBJECTIVE;
}

/* The value column of control ctl, with its unit. */
static char *ctl_value(const explorer *x, int ctl, char *buf, size_t len)
{
    int v = x->ctl.s[ctl].value;
    char tmp[32];
    switch (ctl) {
    case CTL_MODEL:
        snprintf(buf, len, "%s", x->db->models[v].display);
        break;
    case CTL_GPU:
        snprintf(buf, len, "%s %s", x->db->gpus[v].display,
                 fmt_gb(x->db->gpus[v].memory_bytes, tmp, sizeof tmp));
        break;
    case CTL_INTRA:
    case CTL_INTER:
        snprintf(buf, len, "%s", x->db->links[v].display);
        break;
    case CTL_DTYPE:
        snprintf(buf, len, "%s", engine_dtype_name((engine_dtype)v));
        break;
    case CTL_SCHED:
        snprintf(buf, len, "%s", engine_schedule_name((engine_schedule)v));
        break;
    case CTL_OBJECTIVE:
        snprintf(buf, len, "%s", engine_objective_name((engine_objective)v));
        break;
    case CTL_MICRO:
        if (v == 0)
            snprintf(buf, len, "auto (= pp)");
        else
            snprintf(buf, len, "%d", v);
        break;
    default:
        snprintf(buf, len, "%d %s", v, x->ctl.s[ctl].unit);
        break;
    }
    return buf;
}

static void draw_control(explorer *x, WINDOW *w, int c, int y, int x0, int width)
{
    int sel = c == x->ctl.sel;
    theme_role base = sel ? (x->view.focus == PANE_CONTROLS ? ROLE_SELECTED : ROLE_SELECTED_DIM)
                          : ROLE_NORMAL;
    char val[128];
    ctl_value(x, c, val, sizeof val);
    if (sel)
        pane_fill(w, y, x0, width, base);
    pane_put(w, y, x0 + 1, LABEL_W - 2, sel ? base : ROLE_LABEL, x->ctl.s[c].label);
    int cx = x0 + LABEL_W, cw = width - LABEL_W - 1;
    if (cw <= 0)
        return;
    if (is_list(c)) {
        const slider *s = &x->ctl.s[c];
        char buf[160];
        snprintf(buf, sizeof buf, "%s %s %s", s->value > s->min ? x->g->left : " ", val,
                 s->value < s->max ? x->g->right : " ");
        pane_put(w, y, cx, cw, sel ? base : ROLE_VALUE, buf);
        return;
    }
    /* Slider: bar, then the value right-aligned in 11 columns. */
    int vw = 11;
    int bw = cw - vw - 1;
    if (bw < 3) {
        bw = 0;
        vw = cw;
    }
    if (bw > 0)
        pane_hbar(x, w, y, cx, bw, slider_fill(&x->ctl.s[c], bw), ROLE_FILL);
    char vbuf[160];
    snprintf(vbuf, sizeof vbuf, "%*s", vw, val);
    pane_put(w, y, cx + (bw > 0 ? bw + 1 : 0), vw, sel ? base : ROLE_VALUE, vbuf);
}

void pane_controls_draw(explorer *x, WINDOW *w)
{
    theme_window(w);
    pane_frame(x, w, PANE_CONTROLS, NULL);
    int h = getmaxy(w), ww = getmaxx(w);
    int cols = x->scr.lay.controls_columns > 1 ? 2 : 1;
    int colw = (ww - 2) / cols;
    int pc = per_column(x);
    for (int c = 0; c < CTL_COUNT; c++) {
        int col = c / pc, row = c % pc;
        if (1 + row >= h - 1)
            continue;
        draw_control(x, w, c, 1 + row, 1 + col * colw, colw - (col < cols - 1 ? 1 : 0));
    }
    if (pc + 1 < h - 1) {
        char hint[96];
        snprintf(hint, sizeof hint, "%s%s adjust  +/- big  Enter list  / model",
                 x->g->left, x->g->right);
        pane_put(w, pc + 1, 2, ww - 4, ROLE_DIM, hint);
    }
}
