/*
 * controls.c - the selectors and sliders: one row per control, label,
 * a bar (sliders) and the value with its unit.  One column in the full
 * layout, two in the compact one (layout_control_at maps a click to the
 * same cells).
 */
#include "explorer_int.h"

#include <stdio.h>
#include <string.h>

#define LABEL_W 12

static int per_column(const exp_view *v)
{
    int cols = v->lay->controls_columns > 1 ? 2 : 1;
    return (CTL_COUNT + cols - 1) / cols;
}

static int is_list(int c)
{
    return c == CTL_MODEL || c == CTL_GPU || c == CTL_INTRA || c == CTL_INTER ||
           c == CTL_DTYPE || c == CTL_SCHED || c == CTL_OBJECTIVE;
}

/* The value column of control ctl, with its unit. */
static char *ctl_value(const exp_view *v, int ctl, char *buf, size_t len)
{
    int val = v->ctl->s[ctl].value;
    char tmp[32];
    switch (ctl) {
    case CTL_MODEL:
        snprintf(buf, len, "%s", v->db->models[val].display);
        break;
    case CTL_GPU:
        snprintf(buf, len, "%s %s", v->db->gpus[val].display,
                 fmt_gb(v->db->gpus[val].memory_bytes, tmp, sizeof tmp));
        break;
    case CTL_INTRA:
    case CTL_INTER:
        snprintf(buf, len, "%s", v->db->links[val].display);
        break;
    case CTL_DTYPE:
        snprintf(buf, len, "%s", engine_dtype_name((engine_dtype)val));
        break;
    case CTL_SCHED:
        snprintf(buf, len, "%s", engine_schedule_name((engine_schedule)val));
        break;
    case CTL_OBJECTIVE:
        snprintf(buf, len, "%s", engine_objective_name((engine_objective)val));
        break;
    case CTL_RATE:
        snprintf(buf, len, "%.1f req/s", val / 10.0);
        break;
    case CTL_MICRO:
        if (val == 0)
            snprintf(buf, len, "auto (= pp)");
        else
            snprintf(buf, len, "%d", val);
        break;
    default:
        snprintf(buf, len, "%d %s", val, v->ctl->s[ctl].unit);
        break;
    }
    return buf;
}

static void draw_control(const exp_view *v, WINDOW *w, int c, int y, int x0, int width)
{
    int sel = c == v->ctl->sel;
    theme_role base = sel ? (v->focus == PANE_CONTROLS ? ROLE_SELECTED : ROLE_SELECTED_DIM)
                          : ROLE_NORMAL;
    char val[128];
    ctl_value(v, c, val, sizeof val);
    if (sel)
        pane_fill(w, y, x0, width, base);
    pane_put(w, y, x0 + 1, LABEL_W - 2, sel ? base : ROLE_LABEL, v->ctl->s[c].label);
    int cx = x0 + LABEL_W, cw = width - LABEL_W - 1;
    if (cw <= 0)
        return;
    if (is_list(c)) {
        const slider *s = &v->ctl->s[c];
        char buf[160];
        snprintf(buf, sizeof buf, "%s %s %s", s->value > s->min ? v->g->left : " ", val,
                 s->value < s->max ? v->g->right : " ");
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
        pane_hbar(v, w, y, cx, bw, slider_fill(&v->ctl->s[c], bw), ROLE_FILL);
    char vbuf[160];
    snprintf(vbuf, sizeof vbuf, "%*s", vw, val);
    pane_put(w, y, cx + (bw > 0 ? bw + 1 : 0), vw, sel ? base : ROLE_VALUE, vbuf);
}

void pane_controls_draw(const exp_view *v, WINDOW *w)
{
    theme_window(w);
    pane_frame(v, w, PANE_CONTROLS, NULL);
    int h = getmaxy(w), ww = getmaxx(w);
    int cols = v->lay->controls_columns > 1 ? 2 : 1;
    int colw = (ww - 2) / cols;
    int pc = per_column(v);
    for (int c = 0; c < CTL_COUNT; c++) {
        int col = c / pc, row = c % pc;
        if (1 + row >= h - 1)
            continue;
        draw_control(v, w, c, 1 + row, 1 + col * colw, colw - (col < cols - 1 ? 1 : 0));
    }
    char hint[96];
    snprintf(hint, sizeof hint, "%s%s adjust  +/- big  Enter list  / model", v->g->left,
             v->g->right);
    if (pc + 1 < h - 1)
        pane_put(w, pc + 1, 2, ww - 4, ROLE_DIM, hint);
    else if (cols == 2 && CTL_COUNT < 2 * pc && pc < h - 1) { /* the second column's free row */
        snprintf(hint, sizeof hint, "%s%s adjust +/- big Enter list / model", v->g->left,
                 v->g->right);
        pane_put(w, pc, 2 + colw, ww - 3 - colw, ROLE_DIM, hint);
    }
}
