/*
 * pane_common.c - what every pane shares (frame, clipped text, bars) and
 * the chrome around the panes: the title line, the compact tab bar, the
 * bottom bar, the help overlay and the selector list.
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

void pane_frame(explorer *x, WINDOW *w, int pane, const char *title)
{
    int focus = x->view.focus == pane;
    theme_role br = focus ? ROLE_BORDER_FOCUS : ROLE_BORDER;
    if (x->caps.utf8) {
        cchar_t v, hz, tl, tr, bl, brc;
        set_cc(&v, L"\u2502", br);
        set_cc(&hz, L"\u2500", br);
        set_cc(&tl, L"\u250c", br);
        set_cc(&tr, L"\u2510", br);
        set_cc(&bl, L"\u2514", br);
        set_cc(&brc, L"\u2518", br);
        wborder_set(w, &v, &v, &hz, &hz, &tl, &tr, &bl, &brc);
    } else {
        chtype a = theme_attr(br) | COLOR_PAIR(theme_pair(br));
        wborder(w, '|' | a, '|' | a, '-' | a, '-' | a, '+' | a, '+' | a, '+' | a, '+' | a);
    }
    char t[96];
    snprintf(t, sizeof t, " %d %s ", pane + 1, title ? title : TITLES[pane]);
    pane_put(w, 0, 2, getmaxx(w) - 4, focus ? ROLE_TITLE_FOCUS : ROLE_TITLE, t);
}

void pane_hbar(explorer *x, WINDOW *w, int y, int xx, int width, int filled,
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
                 i < filled ? x->g->fill : x->g->empty);
}

/* --- title line, tabs, bottom bar ------------------------------------- */

void pane_header_draw(explorer *x, WINDOW *w)
{
    int ww = getmaxx(w);
    char buf[640], head[200], links[140], fwn[80], tail[160];
    const engine_result *best = x->r.n_plans > 0 ? &x->r.plans[0] : NULL;
    int ok = best && best->valid && best->fits;
    char plan[48] = "", itl[24] = "", ttft[24] = "";
    if (ok) {
        fmt_plan(best->plan, x->g->times, plan, sizeof plan);
        fmt_seconds(best->ttft_s, x->g->micro, ttft, sizeof ttft);
        fmt_seconds(best->itl_s, x->g->micro, itl, sizeof itl);
    }
    pane_fill(w, 0, 0, ww, ROLE_HEADER);
    const engine_framework *fw = exp_framework(x);
    snprintf(head, sizeof head, " shardscope %s %s on %d %s %s", x->g->dot, exp_model(x)->display,
             x->ctl.s[CTL_GPUS].value, x->g->times, exp_gpu(x)->display);
    snprintf(links, sizeof links, " %s %s / %s", x->g->dot, exp_link(x, CTL_INTRA)->name,
             exp_link(x, CTL_INTER)->name);
    snprintf(fwn, sizeof fwn, " %s %s", x->g->dot, fw ? fw->name : "generic");
    /* The most detailed line that fits: drop the links, then TTFT, then
     * the framework. */
    for (int level = 0; level < 4; level++) {
        if (!ok)
            snprintf(tail, sizeof tail, "  %s no plan fits", x->g->dot);
        else if (level < 2)
            snprintf(tail, sizeof tail, " %s best %s TTFT %s ITL %s", x->g->dot, plan, ttft, itl);
        else
            snprintf(tail, sizeof tail, " %s best %s ITL %s", x->g->dot, plan, itl);
        snprintf(buf, sizeof buf, "%s%s%s%s", head, level == 0 ? links : "", level < 3 ? fwn : "",
                 tail);
        if (out_display_width(buf) <= ww)
            break;
    }
    pane_put(w, 0, 0, ww, ROLE_HEADER, buf);
    theme_set(w, ROLE_NORMAL);
}

void pane_tabs_draw(explorer *x, WINDOW *w)
{
    int ww = getmaxx(w);
    static const char *const SHORT[PANE_COUNT] = {"Controls", "Strategies", "Details",
                                                  "Efficiency", "Heatmap", "Frontier"};
    pane_fill(w, 0, 0, ww, ROLE_TAB);
    int xx = 0;
    for (int i = 0; i < PANE_COUNT; i++) {
        char t[32];
        snprintf(t, sizeof t, " %d %s ", i + 1, SHORT[i]);
        x->scr.tab_x[i] = xx;
        pane_put(w, 0, xx, ww - xx, x->view.tab == i ? ROLE_TAB_ACTIVE : ROLE_TAB, t);
        xx += out_display_width(t) + 1;
    }
    x->scr.tab_x[PANE_COUNT] = xx;
}

/* A running calibration on the bar: "calibrating [####......] 42% step
 * (Esc cancels)" in at most avail cells; returns the cells used. */
static int bar_progress(explorer *x, WINDOW *w, int avail)
{
    double f = x->cal.progress;
    if (!(f >= 0))
        f = 0;
    if (f > 1)
        f = 1;
    char pct[16];
    snprintf(pct, sizeof pct, "%d%%", (int)(f * 100.0 + 1e-9));
    static const char LEAD[] = "calibrating ";
    int lead = (int)sizeof LEAD - 1;
    /* The bar shrinks before the step label disappears. */
    int bw = avail - lead - 2 - 5 - 20;
    if (bw > 20)
        bw = 20;
    if (bw < 6)
        bw = 6;
    int xx = 1;
    pane_put(w, 0, xx, avail - xx, ROLE_MSG, LEAD);
    xx += lead;
    pane_put(w, 0, xx, avail - xx, ROLE_MSG, "[");
    xx++;
    int filled = (int)(f * bw + 1e-9);
    for (int i = 0; i < bw && xx < avail; i++, xx++)
        pane_put(w, 0, xx, 1, i < filled ? ROLE_MSG : ROLE_BAR,
                 i < filled ? x->g->fill : (x->g->utf8 ? x->g->empty : "."));
    pane_put(w, 0, xx, avail - xx, ROLE_MSG, "]");
    xx++;
    pane_put(w, 0, xx + 1, avail - xx - 1, ROLE_MSG, pct);
    xx += 1 + out_display_width(pct);
    char rest[160];
    snprintf(rest, sizeof rest, "%s%s(Esc cancels)", x->cal.step,
             x->cal.step[0] ? "  " : "");
    if (avail - xx - 1 > 0)
        pane_put(w, 0, xx + 1, avail - xx - 1, ROLE_BAR, rest);
    int rw = out_display_width(rest) + 1;
    xx += rw < avail - xx ? rw : avail - xx;
    return xx;
}

void pane_bar_draw(explorer *x, WINDOW *w)
{
    int ww = getmaxx(w);
    char cal[160], right[200];
    pane_fill(w, 0, 0, ww, ROLE_BAR);
    out_calibration_label(&x->cal.calib, cal, sizeof cal);
    snprintf(right, sizeof right, " calib: %s ", cal);
    int rw = out_display_width(right);
    int avail = ww - rw - 1;
    if (avail < 20) {
        rw = 0;
        avail = ww;
    }
    if (x->cal.job) {
        int used = bar_progress(x, w, avail);
        if (x->msg[0] && avail - used > 12)
            pane_put(w, 0, used + 2, avail - used - 2, ROLE_MSG, x->msg);
    } else if (x->msg[0]) {
        pane_put(w, 0, 1, avail - 1, ROLE_MSG, x->msg);
    } else {
        static const char *const KEYS[][2] = {
            {"Tab", "pane"}, {"arrows", "adjust"}, {"+/-", "big step"}, {"Enter", "list"},
            {"/", "model"},  {"e", "export"},     {"c", "calibrate"},  {"r", "reset"},
            {"?", "help"},   {"q", "quit"}};
        int xx = 0;
        /* At 80 columns keep the keys that matter most: ? and q last. */
        int n = (int)(sizeof KEYS / sizeof KEYS[0]);
        for (int i = 0; i < n; i++) {
            int need = out_display_width(KEYS[i][0]) + out_display_width(KEYS[i][1]) + 3;
            int rest = 0;
            if (i < n - 2)
                rest = 14; /* room for "? help q quit" */
            if (xx + need + rest > avail && i < n - 2)
                continue;
            if (xx + need > avail)
                break;
            pane_put(w, 0, xx + 1, need, ROLE_BAR_KEY, KEYS[i][0]);
            pane_put(w, 0, xx + 1 + out_display_width(KEYS[i][0]) + 1, need, ROLE_BAR, KEYS[i][1]);
            xx += need;
        }
    }
    if (rw > 0)
        pane_put(w, 0, ww - rw, rw, ROLE_BAR, right);
    theme_set(w, ROLE_NORMAL);
}

/* --- overlays ---------------------------------------------------------- */

WINDOW *pane_overlay_win(explorer *x, int h, int w)
{
    int rows = x->scr.rows, cols = x->scr.cols;
    if (h > rows - 2)
        h = rows - 2;
    if (w > cols - 2)
        w = cols - 2;
    if (h < 3 || w < 10)
        return NULL;
    int y = (rows - h) / 2, xx = (cols - w) / 2;
    if (x->scr.overlay) {
        int oh, ow, oy, ox;
        getmaxyx(x->scr.overlay, oh, ow);
        getbegyx(x->scr.overlay, oy, ox);
        if (oh == h && ow == w && oy == y && ox == xx)
            return x->scr.overlay;
        delwin(x->scr.overlay);
    }
    x->scr.overlay = newwin(h, w, y, xx);
    return x->scr.overlay;
}

WINDOW *pane_overlay_open(explorer *x, int h, int w)
{
    WINDOW *win = pane_overlay_win(x, h, w);
    if (!win)
        return NULL;
    werase(win);
    int rows = getmaxy(win), cols = getmaxx(win);
    for (int y = 0; y < rows; y++)
        pane_fill(win, y, 0, cols, ROLE_POPUP);
    int saved = x->view.focus;
    x->view.focus = -1;
    pane_frame(x, win, 0, NULL);
    x->view.focus = saved;
    return win;
}

static const char *const HELP[][2] = {
    {"Tab / Shift-Tab", "next / previous pane (compact: tab)"},
    {"1 .. 6", "go to a pane (controls .. frontier)"},
    {"Up/Down  k/j", "choose a control; move in lists; scroll"},
    {"Left/Right  h/l", "fine step (GPU count: by 1)"},
    {"+/-  PgUp/PgDn", "big step (GPU count: powers of two)"},
    {"Home / End", "minimum / maximum; first / last plan"},
    {"Enter", "open a selector's list; choose; plan details"},
    {"/", "filter the models by name and choose one"},
    {"m", "heatmap: GPU counts or models x links"},
    {"f", "framework: generic, vLLM, SGLang, TensorRT-LLM"},
    {"e", "export the tables to CSV and JSON"},
    {"c", "re-run calibration on this machine"},
    {"v", "calibration view: measured points, both fits"},
    {"r", "reset every control"},
    {"?", "this help"},
    {"Ctrl-L", "repaint the screen"},
    {"q / Esc", "quit (Ctrl-C too); Esc first cancels calibration"},
    {"mouse", "click: focus, pick; wheel: adjust, scroll"},
    {"", "Left/Right and +/- elsewhere: GPU count"},
};

void pane_help_draw(explorer *x)
{
    int n = (int)(sizeof HELP / sizeof HELP[0]);
    WINDOW *w = pane_overlay_open(x, n + 4, 70);
    if (!w)
        return;
    int h = getmaxy(w), ww = getmaxx(w);
    pane_put(w, 0, 2, ww - 4, ROLE_TITLE_FOCUS, " Help: keys (any key closes) ");
    for (int i = 0; i < n && i + 2 < h - 1; i++) {
        pane_put(w, i + 2, 2, 18, ROLE_VALUE, HELP[i][0]);
        pane_put(w, i + 2, 20, ww - 22, ROLE_POPUP, HELP[i][1]);
    }
    wnoutrefresh(w);
}

void pane_list_draw(explorer *x)
{
    int rows = x->ov.list.n + 4;
    if (rows < 8)
        rows = 8;
    WINDOW *w = pane_overlay_open(x, rows, 56);
    if (!w)
        return;
    int h = getmaxy(w), ww = getmaxx(w);
    char t[96];
    snprintf(t, sizeof t, " Choose %s ", x->ctl.s[x->ov.ctl].label);
    pane_put(w, 0, 2, ww - 4, ROLE_TITLE_FOCUS, t);
    pane_putf(w, 1, 2, ww - 4, ROLE_LABEL, "filter: %s_", x->ov.filter);
    int vis = h - 3;
    if (x->ov.list.sel < x->ov.list.top)
        x->ov.list.top = x->ov.list.sel;
    if (x->ov.list.sel >= x->ov.list.top + vis)
        x->ov.list.top = x->ov.list.sel - vis + 1;
    if (x->ov.list.n == 0)
        pane_put(w, 2, 2, ww - 4, ROLE_DIM, "(no match)");
    for (int i = 0; i < vis && x->ov.list.top + i < x->ov.list.n; i++) {
        int idx = x->ov.idx[x->ov.list.top + i];
        const char *name, *disp;
        if (x->ov.ctl == CTL_MODEL) {
            name = x->db->models[idx].name;
            disp = x->db->models[idx].display;
        } else if (x->ov.ctl == CTL_GPU) {
            name = x->db->gpus[idx].name;
            disp = x->db->gpus[idx].display;
        } else {
            name = x->db->links[idx].name;
            disp = x->db->links[idx].display;
        }
        int sel = x->ov.list.top + i == x->ov.list.sel;
        char line[160];
        snprintf(line, sizeof line, " %-24s %s", disp, name);
        if (sel)
            pane_fill(w, 2 + i, 1, ww - 2, ROLE_SELECTED);
        pane_put(w, 2 + i, 1, ww - 2, sel ? ROLE_SELECTED : ROLE_POPUP, line);
    }
    wnoutrefresh(w);
}
