/*
 * header.c - the title line (the scenario and the best plan, as detailed
 * as the width allows) and the compact layout's tab bar (where each tab
 * goes is the layout's).
 */
#include "explorer_int.h"

#include <stdio.h>
#include <string.h>


void pane_header_draw(const exp_view *v, WINDOW *w)
{
    int ww = getmaxx(w);
    char buf[640], head[200], links[140], fwn[80], tail[160];
    const engine_result *best = v->r->n_plans > 0 ? &v->r->plans[0] : NULL;
    int ok = best && best->valid && best->fits;
    char plan[48] = "", itl[24] = "", ttft[24] = "";
    if (ok) {
        fmt_plan(best->plan, v->g->times, plan, sizeof plan);
        fmt_seconds(best->ttft_s, v->g->micro, ttft, sizeof ttft);
        fmt_seconds(best->itl_s, v->g->micro, itl, sizeof itl);
    }
    pane_fill(w, 0, 0, ww, ROLE_HEADER);
    const engine_framework *fw = v->fw;
    snprintf(head, sizeof head, " shardscope %s %s on %d %s %s", v->g->dot, v->model->display,
             v->ctl->s[CTL_GPUS].value, v->g->times, v->gpu->display);
    snprintf(links, sizeof links, " %s %s / %s", v->g->dot, v->intra->name,
             v->inter->name);
    snprintf(fwn, sizeof fwn, " %s %s", v->g->dot, fw ? fw->name : "generic");
    /* The most detailed line that fits: drop the links, then TTFT, then
     * the framework. */
    for (int level = 0; level < 4; level++) {
        if (!ok)
            snprintf(tail, sizeof tail, "  %s no plan fits", v->g->dot);
        else if (level < 2)
            snprintf(tail, sizeof tail, " %s best %s TTFT %s ITL %s", v->g->dot, plan, ttft, itl);
        else
            snprintf(tail, sizeof tail, " %s best %s ITL %s", v->g->dot, plan, itl);
        snprintf(buf, sizeof buf, "%s%s%s%s", head, level == 0 ? links : "", level < 3 ? fwn : "",
                 tail);
        if (out_display_width(buf) <= ww)
            break;
    }
    pane_put(w, 0, 0, ww, ROLE_HEADER, buf);
    theme_set(w, ROLE_NORMAL);
}

void pane_tabs_draw(const exp_view *v, WINDOW *w)
{
    pane_fill(w, 0, 0, getmaxx(w), ROLE_TAB);
    for (int i = 0; i < PANE_COUNT; i++) {
        char t[32];
        snprintf(t, sizeof t, " %d %s ", i + 1, layout_tab_label(i));
        int xx = v->lay->tab[i].x;
        pane_put(w, 0, xx, getmaxx(w) - xx, v->view->tab == i ? ROLE_TAB_ACTIVE : ROLE_TAB, t);
    }
}
