/*
 * heat.c - the regime heatmap: compute/communication ratio of the
 * tensor-parallel plan, GPU counts x interconnects or models x
 * interconnects (Enter / m switches).  Cells are coloured on a diverging,
 * colour-blind safe scale (communication-bound orange -> compute-bound
 * blue); monochrome terminals get the legend's glyph and attribute ramp in
 * every cell; every cell carries its value where it fits and the engine's
 * C/M letter.
 */
#include "explorer_int.h"

#include <stdio.h>
#include <string.h>

#include "heat.h"

#define LABEL_W 9

/* A cell spans its whole width in its colour (no uncoloured gap), so a
 * row of cells costs one colour change per cell on the wire. */
static void draw_cell(const exp_view *v, WINDOW *w, int y, int xx, int cw, const exp_cell *c)
{
    char val[16], cell[32];
    int n = theme_heat_buckets();
    int b = c->ok ? heat_bucket(c->ratio, n) : -1;
    if (!c->ok || b < 0) {
        snprintf(cell, sizeof cell, "%*s ", cw - 1, c->ok ? "-" : v->g->dot);
        pane_put(w, y, xx, cw, ROLE_DIM, cell);
        return;
    }
    attr_t a;
    short pair;
    char glyph;
    theme_heat_style(b, &a, &pair, &glyph);
    heat_format(c->ratio, cw - 2, val, sizeof val);
    /* value right-aligned, the C/M letter, then the gap; pad with the
     * ramp glyph (a space in colour).  Without colour the glyph is what
     * tells the buckets apart, so it fills the gap too: every cell shows
     * at least one glyph of the ramp the legend shows. */
    int vl = (int)strlen(val);
    int pad = cw - vl - 2;
    int k = 0;
    for (int i = 0; i < pad && k < (int)sizeof cell - 4; i++)
        cell[k++] = glyph;
    memcpy(cell + k, val, (size_t)vl);
    k += vl;
    cell[k++] = c->regime == 'C' || c->regime == 'M' ? c->regime : '?';
    cell[k++] = glyph;
    cell[k] = '\0';
    wattr_set(w, a, pair, NULL);
    mvwaddnstr(w, y, xx, cell, cw);
    theme_set(w, ROLE_NORMAL);
}

static void draw_legend(WINDOW *w, int y, int width)
{
    int n = theme_heat_buckets();
    int xx = 1;
    pane_put(w, y, xx, width, ROLE_LABEL, "M comm");
    xx += 7;
    for (int b = 0; b < n && xx + 2 < width; b++) {
        attr_t a;
        short pair;
        char glyph, cell[3];
        theme_heat_style(b, &a, &pair, &glyph);
        cell[0] = cell[1] = glyph;
        cell[2] = '\0';
        wattr_set(w, a, pair, NULL);
        mvwaddnstr(w, y, xx, cell, 2);
        xx += 2;
    }
    theme_set(w, ROLE_NORMAL);
    pane_put(w, y, xx, width - xx, ROLE_LABEL, " compute C");
}

void pane_heat_draw(const exp_view *v, WINDOW *w)
{
    theme_window(w);
    const exp_results *r = v->r;
    int h = getmaxy(w), ww = getmaxx(w);
    int inner_w = ww - 2, inner_h = h - 2;
    int by_models = r->heat_mode == HEAT_BY_MODELS;
    char title[96];
    if (by_models)
        snprintf(title, sizeof title, "Regime: models x links, TP=%d", v->ctl->s[CTL_GPUS].value);
    else
        snprintf(title, sizeof title, "Regime: TP over N GPUs x links");
    pane_frame(v, w, PANE_HEAT, title);
    int cw = 5;
    int ncols = (inner_w - LABEL_W) / cw;
    if (ncols > r->heat_cols)
        ncols = r->heat_cols;
    if (ncols < 1 || inner_h < 3)
        return;
    /* Wider terminals get wider cells. */
    if (ncols == r->heat_cols && (inner_w - LABEL_W) / ncols > cw)
        cw = (inner_w - LABEL_W) / ncols > 7 ? 7 : (inner_w - LABEL_W) / ncols;
    int y = 1;
    pane_put(w, y, 1, LABEL_W - 1, ROLE_LABEL, by_models ? "model" : "link");
    for (int c = 0; c < ncols; c++) {
        char lab[24];
        int cur = 0;
        if (by_models) {
            snprintf(lab, sizeof lab, "%.*s", cw - 1, v->db->links[c].name);
            cur = c == v->ctl->s[CTL_INTRA].value;
        } else {
            snprintf(lab, sizeof lab, "%d", r->heat_counts[c]);
            cur = r->heat_counts[c] == v->ctl->s[CTL_GPUS].value;
        }
        pane_putf(w, y, 1 + LABEL_W + c * cw, cw - 1, cur ? ROLE_TITLE_FOCUS : ROLE_LABEL,
                  "%*s", cw - 1, lab);
    }
    int rows = inner_h - 2; /* header and legend */
    /* A second legend line (the scale) when there is room for it. */
    if (inner_h - 2 > r->heat_rows) {
        char sc[160];
        snprintf(sc, sizeof sc, "compute/comm, log 1/16..16; %s no TP",
                 v->g->dot);
        pane_put(w, h - 3, 1, inner_w, ROLE_DIM, sc);
        rows = inner_h - 3;
    }
    int cur_row = by_models ? v->ctl->s[CTL_MODEL].value : v->ctl->s[CTL_INTRA].value;
    int top = 0;
    if (r->heat_rows > rows && cur_row >= rows)
        top = cur_row - rows + 1;
    for (int i = 0; i < rows && top + i < r->heat_rows; i++) {
        int row = top + i;
        const char *lab = by_models ? v->db->models[row].name : v->db->links[row].name;
        pane_put(w, y + 1 + i, 1, LABEL_W - 1, row == cur_row ? ROLE_VALUE : ROLE_LABEL, lab);
        for (int c = 0; c < ncols; c++)
            draw_cell(v, w, y + 1 + i, 1 + LABEL_W + c * cw, cw, &r->heat[row][c]);
    }
    draw_legend(w, h - 2, inner_w);
}
