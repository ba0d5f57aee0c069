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

/* The pane's geometry for its window size: row label width, cell width,
 * header rows, and how many rows and columns are on screen. */
typedef struct heat_geom {
    int label_w, cw, head, rows, cols, scale;
} heat_geom;

static const char *row_name(const exp_view *v, int row)
{
    return v->r->heat_mode == HEAT_BY_MODELS ? v->db->models[row].name : v->db->links[row].name;
}

static void geom(const exp_view *v, int h, int ww, heat_geom *g)
{
    const exp_results *r = v->r;
    int inner_w = ww - 2, inner_h = h - 2;
    /* Row labels as long as the longest name (models: 15), leaving room
     * for four cells; never shorter than before (8 + a gap). */
    int longest = 0;
    for (int i = 0; i < r->heat_rows; i++) {
        int n = (int)strlen(row_name(v, i));
        longest = n > longest ? n : longest;
    }
    g->label_w = longest + 1;
    if (g->label_w > inner_w - 4 * 5)
        g->label_w = inner_w - 4 * 5;
    if (g->label_w < LABEL_W)
        g->label_w = LABEL_W;
    g->cw = 5;
    g->cols = (inner_w - g->label_w) / g->cw;
    if (g->cols > r->heat_cols)
        g->cols = r->heat_cols;
    /* Wider terminals get wider cells. */
    if (g->cols > 0 && g->cols == r->heat_cols && (inner_w - g->label_w) / g->cols > g->cw)
        g->cw = (inner_w - g->label_w) / g->cols > 7 ? 7 : (inner_w - g->label_w) / g->cols;
    /* Link names (models x links) take two header rows, every other column
     * on each, so each label has two cells of width. */
    g->head = r->heat_mode == HEAT_BY_MODELS ? 2 : 1;
    g->rows = inner_h - g->head - 1; /* and the legend */
    g->scale = g->rows > r->heat_rows;
    if (g->scale)
        g->rows--;
    if (g->rows < 0)
        g->rows = 0;
}

void pane_heat_visible(const exp_view *v, int h, int w, int *rows, int *cols)
{
    heat_geom g;
    geom(v, h, w, &g);
    *rows = g.rows;
    *cols = g.cols;
}

/* The first row / column on screen: the scroll position, clamped. */
static int first(int want, int n, int shown)
{
    int max = n - shown;
    return want > max ? (max > 0 ? max : 0) : want < 0 ? 0 : want;
}

static void draw_head(const exp_view *v, WINDOW *w, const heat_geom *g, int left)
{
    const exp_results *r = v->r;
    int by_models = r->heat_mode == HEAT_BY_MODELS;
    pane_put(w, 1, 1, g->label_w - 1, ROLE_LABEL, by_models ? "model \\ link" : "link");
    for (int c = 0; c < g->cols; c++) {
        int col = left + c, cur, y = 1, lw = g->cw - 1;
        char lab[64];
        if (by_models) {
            snprintf(lab, sizeof lab, "%s", v->db->links[col].name);
            cur = col == v->ctl->s[CTL_INTRA].value;
            y = 1 + (c & 1);
            lw = 2 * g->cw - 1; /* over the cell to its left too */
        } else {
            snprintf(lab, sizeof lab, "%d", r->heat_counts[col]);
            cur = r->heat_counts[col] == v->ctl->s[CTL_GPUS].value;
        }
        int end = 1 + g->label_w + c * g->cw + g->cw - 1; /* right edge of the value */
        if (by_models && c == 0) /* after "model \ link" and a blank */
            lw = end - 14 > g->cw - 1 ? end - 14 : g->cw - 1;
        if ((int)strlen(lab) > lw)
            lab[lw] = '\0';
        int len = (int)strlen(lab);
        pane_put(w, y, end - len, len, cur ? ROLE_TITLE_FOCUS : ROLE_LABEL, lab);
    }
    int ww = getmaxx(w);
    if (left > 0)
        pane_put(w, 1, g->label_w - 1, 1, ROLE_TITLE, v->g->left);
    if (left + g->cols < r->heat_cols)
        pane_put(w, 1, ww - 2, 1, ROLE_TITLE, v->g->right);
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
    heat_geom g;
    geom(v, h, ww, &g);
    if (g.cols < 1 || inner_h < 3 || g.rows < 1)
        return;
    int top = first(v->view->heat_top, r->heat_rows, g.rows);
    int left = first(v->view->heat_left, r->heat_cols, g.cols);
    draw_head(v, w, &g, left);
    /* A second legend line (the scale) when there is room for it. */
    if (g.scale) {
        char sc[160];
        snprintf(sc, sizeof sc, "compute/comm, log 1/16..16; %s no TP", v->g->dot);
        pane_put(w, h - 3, 1, inner_w, ROLE_DIM, sc);
    }
    int cur_row = by_models ? v->ctl->s[CTL_MODEL].value : v->ctl->s[CTL_INTRA].value;
    for (int i = 0; i < g.rows && top + i < r->heat_rows; i++) {
        int row = top + i, y = 1 + g.head + i;
        pane_put(w, y, 1, g.label_w - 1, row == cur_row ? ROLE_VALUE : ROLE_LABEL,
                 row_name(v, row));
        for (int c = 0; c < g.cols; c++)
            draw_cell(v, w, y, 1 + g.label_w + c * g.cw, g.cw, &r->heat[row][left + c]);
    }
    if (top > 0)
        pane_put(w, 0, ww - 3, 1, ROLE_TITLE, v->g->up);
    if (top + g.rows < r->heat_rows)
        pane_put(w, h - 1, ww - 3, 1, ROLE_TITLE, v->g->down);
    draw_legend(w, h - 2, inner_w);
}
