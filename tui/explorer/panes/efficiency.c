/*
 * efficiency.c - tensor-parallel efficiency against GPU count for
 * every interconnect (the link used inside and between nodes), and TP vs
 * PP vs the best hybrid TP x PP split in the current cluster.  Both tables
 * side by side when the pane is wide, else one at a time (Enter toggles).
 */
#include "explorer_int.h"

#include <stdio.h>
#include <string.h>

#define LABEL_W 9
#define CELL_W 5

static void cell_text(const exp_cell *c, char *buf, size_t len)
{
    if (!c->ok)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.0f%%", c->efficiency * 100.0);
}

/* A cell spans its gap in its own style, so a run of cells in one style
 * (a row of red values) costs one attribute change on the wire, not one
 * per cell. */
static void put_cell(WINDOW *w, int y, int xx, theme_role role, const char *text)
{
    pane_putf(w, y, xx, CELL_W, role, "%*s ", CELL_W - 1, text);
}

/* One link's TP efficiency over ncols counts at row y (the links in use
 * highlighted). */
static void draw_link_row(const exp_view *v, WINDOW *w, int y, int x0, int ncols, int li)
{
    int cur = li == v->ctl->s[CTL_INTRA].value || li == v->ctl->s[CTL_INTER].value;
    pane_put(w, y, x0, LABEL_W - 1, cur ? ROLE_VALUE : ROLE_LABEL, v->db->links[li].name);
    for (int c = 0; c < ncols; c++) {
        const exp_cell *e = &v->r->eff[li][c];
        char b[16];
        cell_text(e, b, sizeof b);
        theme_role role = !e->ok || !e->fits    ? ROLE_DIM
                          : e->efficiency >= 0.8 ? ROLE_GOOD
                          : e->efficiency < 0.5  ? ROLE_BAD
                                                 : ROLE_NORMAL;
        put_cell(w, y, x0 + LABEL_W + c * CELL_W, role, b);
    }
}

static int draw_tp_table(const exp_view *v, WINDOW *w, int y0, int x0, int width, int rows)
{
    const exp_results *r = v->r;
    int ncols = (width - LABEL_W) / CELL_W;
    if (ncols > EXP_EFF_COUNTS)
        ncols = EXP_EFF_COUNTS;
    if (ncols < 1 || rows < 2)
        return 0;
    pane_put(w, y0, x0, width, ROLE_TITLE, "TP efficiency (link everywhere)");
    pane_put(w, y0 + 1, x0, LABEL_W, ROLE_LABEL, "link");
    for (int c = 0; c < ncols; c++)
        pane_putf(w, y0 + 1, x0 + LABEL_W + c * CELL_W, CELL_W, ROLE_LABEL, "%*d", CELL_W - 1,
                  r->eff_counts[c]);
    int n_links = v->ctl->s[CTL_INTRA].max + 1;
    int used = 2;
    for (int li = 0; li < n_links && used < rows; li++, used++)
        draw_link_row(v, w, y0 + used, x0, ncols, li);
    return used;
}

static int draw_cmp_table(const exp_view *v, WINDOW *w, int y0, int x0, int width, int rows)
{
    const exp_results *r = v->r;
    if (rows < 2)
        return 0;
    pane_put(w, y0, x0, width, ROLE_TITLE, "TP vs PP vs hybrid (this cluster)");
    pane_putf(w, y0 + 1, x0, width, ROLE_LABEL, "%5s %6s %6s  %s", "GPUs", "TP", "PP",
              "best TPxPP");
    int used = 2;
    for (int c = 0; c < EXP_CMP_COUNTS && used < rows; c++, used++) {
        char t[16], p[16], hy[64];
        cell_text(&r->cmp[CMP_TP][c], t, sizeof t);
        cell_text(&r->cmp[CMP_PP][c], p, sizeof p);
        const exp_cell *h = &r->cmp[CMP_HYBRID][c];
        if (h->ok)
            snprintf(hy, sizeof hy, "%3.0f%% TP%d%sPP%d", h->efficiency * 100.0, h->plan.tp,
                     v->g->times, h->plan.pp);
        else
            snprintf(hy, sizeof hy, "-");
        int yy = y0 + used;
        pane_putf(w, yy, x0, 5, ROLE_LABEL, "%5d", r->cmp_counts[c]);
        pane_putf(w, yy, x0 + 6, 6, r->cmp[CMP_TP][c].ok && r->cmp[CMP_TP][c].fits
                                           ? ROLE_NORMAL : ROLE_DIM, "%6s", t);
        pane_putf(w, yy, x0 + 13, 6, r->cmp[CMP_PP][c].ok && r->cmp[CMP_PP][c].fits
                                            ? ROLE_NORMAL : ROLE_DIM, "%6s", p);
        pane_put(w, yy, x0 + 21, width - 21, h->ok && h->fits ? ROLE_NORMAL : ROLE_DIM, hy);
    }
    if (used < rows)
        pane_put(w, y0 + used++, x0, width, ROLE_DIM, "dim: does not fit in VRAM");
    return used;
}

/* One table: TP by link, then TP, PP and the best hybrid in the current
 * cluster, all against the same GPU counts (the narrow full layout). */
static void draw_merged(const exp_view *v, WINDOW *w, int y0, int x0, int width, int rows)
{
    const exp_results *r = v->r;
    int ncols = (width - LABEL_W) / CELL_W;
    if (ncols > EXP_CMP_COUNTS)
        ncols = EXP_CMP_COUNTS;
    if (ncols < 1 || rows < 2)
        return;
    int n_links = v->ctl->s[CTL_INTRA].max + 1;
    pane_put(w, y0, x0, LABEL_W, ROLE_LABEL, "TP  link");
    for (int c = 0; c < ncols; c++)
        pane_putf(w, y0, x0 + LABEL_W + c * CELL_W, CELL_W, ROLE_LABEL, "%*d", CELL_W - 1,
                  r->cmp_counts[c]);
    int cluster_rows = rows - 1 >= n_links + 3 ? 3 : 0;
    int link_rows = rows - 1 - cluster_rows;
    int used = 1;
    for (int li = 0; li < n_links && li < link_rows; li++, used++)
        draw_link_row(v, w, y0 + used, x0, ncols, li);
    static const char *const KIND[CMP_KINDS] = {"TP here", "PP here", "TPxPP"};
    for (int k = 0; k < cluster_rows; k++, used++) {
        pane_put(w, y0 + used, x0, LABEL_W - 1, ROLE_TITLE, KIND[k]);
        for (int c = 0; c < ncols; c++) {
            const exp_cell *e = &r->cmp[k][c];
            char b[16];
            cell_text(e, b, sizeof b);
            put_cell(w, y0 + used, x0 + LABEL_W + c * CELL_W,
                     e->ok && e->fits ? ROLE_NORMAL : ROLE_DIM, b);
        }
    }
}

void pane_efficiency_draw(const exp_view *v, WINDOW *w)
{
    theme_window(w);
    int h = getmaxy(w), ww = getmaxx(w);
    int inner_w = ww - 2, inner_h = h - 2;
    int n_links = v->ctl->s[CTL_INTRA].max + 1;
    int tp_w = LABEL_W + EXP_EFF_COUNTS * CELL_W;
    if (tp_w > inner_w - 2 - 36)
        tp_w = inner_w - 2 - 36;
    int side = tp_w >= LABEL_W + 4 * CELL_W;
    int stacked = !side && inner_h >= n_links + 2 + 1 + EXP_CMP_COUNTS + 3;
    pane_frame(v, w, PANE_EFFICIENCY,
               side || stacked ? "Efficiency"
               : v->view->eff_view   ? "Efficiency: TP vs PP (Enter)"
                               : "Efficiency vs GPU count (Enter)");
    if (side) {
        draw_tp_table(v, w, 1, 1, tp_w, inner_h);
        draw_cmp_table(v, w, 1, 1 + tp_w + 2, inner_w - tp_w - 2, inner_h);
    } else if (stacked) {
        int used = draw_tp_table(v, w, 1, 1, inner_w, n_links + 2);
        draw_cmp_table(v, w, 1 + used + 1, 1, inner_w, inner_h - used - 1);
    } else if (v->view->eff_view) {
        draw_cmp_table(v, w, 1, 1, inner_w, inner_h);
    } else {
        draw_merged(v, w, 1, 1, inner_w, inner_h);
    }
}
