/*
 * explorer.c - the explorer's lifecycle, loop and frame.
 *
 * One frame: the layout (pure, layout.c) decides where each pane goes;
 * the update step (update.c) brings the results up to date with the
 * controls and clamps every scroll position; exp_view_make takes a
 * read-only view of it all; each pane draws from that view (werase ->
 * draw -> wnoutrefresh) and one doupdate() sends the changed cells.  Keys
 * and the mouse change the state between frames (keys.c).  The loop
 * handles every key already typed before it draws (a held key costs one
 * frame per burst), names escape sequences it does not know instead of
 * taking them for Esc, and lets a first Ctrl-C cancel a calibration.
 */
#include "explorer_int.h"
#include "keys.h"
#include "validation.h"

#include "chart.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void explorer_opts_defaults(explorer_opts *o)
{
    memset(o, 0, sizeof *o);
    o->microbatches = o->dtype = o->schedule = o->objective = -1;
    o->spec_method = o->spec_k = o->spec_pct = -1;
}



int explorer_new(const preset_db *db, const explorer_opts *o, const term_caps *caps,
                 explorer **out, engine_error *err)
{
    *out = NULL;
    if (!db || db->n_models < 1 || db->n_gpus < 1 || db->n_links < 1) {
        engine_errorf(err, "the preset database has no models, GPUs or links");
        return -1;
    }
    explorer *x = calloc(1, sizeof *x);
    if (!x) {
        engine_errorf(err, "out of memory");
        return -1;
    }
    x->r.plans = calloc(EXP_MAX_PLANS, sizeof *x->r.plans);
    x->r.tails_done = calloc(EXP_MAX_PLANS, 1);
    x->scr.grid = calloc(EXP_GRID_MAX, sizeof *x->scr.grid);
    x->r.pareto = calloc(EXP_PARETO_MAX, sizeof *x->r.pareto);
    x->r.load_st = calloc(1, sizeof *x->r.load_st);
    x->r.disagg = calloc(ENGINE_DISAGG_RANK_MAX, sizeof *x->r.disagg);
    x->r.disagg_order = calloc(ENGINE_DISAGG_RANK_MAX, sizeof *x->r.disagg_order);
    if (!x->r.plans || !x->r.tails_done || !x->scr.grid || !x->r.pareto || !x->r.load_st ||
        !x->r.disagg || !x->r.disagg_order) {
        explorer_free(x);
        engine_errorf(err, "out of memory");
        return -1;
    }
    x->db = db;
    x->caps = *caps;
    x->g = theme_glyphs_get(caps->utf8);
    if (o)
        x->opts = *o;
    const char *dir = (o && o->export_dir) ? o->export_dir : getenv("SHARDSCOPE_EXPORT_DIR");
    snprintf(x->export_dir, sizeof x->export_dir, "%s", dir && *dir ? dir : ".");
    if (exp_controls_init(x, o, err) != 0) {
        explorer_free(x);
        return -1;
    }
    x->have_bands = val_bands_shipped(&x->bands) == 0;
    x->cal.ops = NULL; /* until explorer_set_calib_ops */
    exp_calib_load(x);
    exp_inputs_get(x, &x->ctl.initial);
    x->view.focus = PANE_CONTROLS;
    x->view.tab = PANE_CONTROLS;
    /* The plans keep their selection on screen; the details scroll by 8
     * (PgUp/PgDn); the visible rows are known after the first layout. */
    x->view.plans = (listview){.cursor = 1, .rows = 8};
    x->view.details = (listview){.cursor = 0, .rows = 8, .page = 8};
    x->scr.need_layout = 1;
    if (o && o->message)
        exp_set_msg(x, "%s", o->message);
    *out = x;
    return 0;
}

static void destroy_windows(explorer *x)
{
    for (int i = 0; i < PANE_COUNT; i++)
        if (x->scr.win[i]) {
            delwin(x->scr.win[i]);
            x->scr.win[i] = NULL;
        }
    WINDOW **ws[] = {&x->scr.header, &x->scr.tabs, &x->scr.bar, &x->scr.overlay};
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++)
        if (*ws[i]) {
            delwin(*ws[i]);
            *ws[i] = NULL;
        }
}

void explorer_free(explorer *x)
{
    if (!x)
        return;
    if (x->cal.job && x->cal.ops && x->cal.ops->release)
        x->cal.ops->release(x->cal.job);
    destroy_windows(x);
    free(x->cal.view);
    free(x->cal.session);
    free(x->cal.grid);
    free(x->r.plans);
    free(x->r.tails_done);
    free(x->r.pareto);
    free(x->r.load_st);
    free(x->r.load_work);
    free(x->r.disagg);
    free(x->r.disagg_order);
    free(x->scr.grid);
    free(x);
}

/* --- frame ------------------------------------------------------------- */

static WINDOW *make_win(layout_rect r)
{
    if (!layout_rect_visible(r))
        return NULL;
    return newwin(r.h, r.w, r.y, r.x);
}

static void apply_layout(explorer *x)
{
    destroy_windows(x);
    getmaxyx(stdscr, x->scr.rows, x->scr.cols);
    layout_compute(x->scr.rows, x->scr.cols, x->view.tab, &x->scr.lay);
    if (x->scr.lay.mode == LAYOUT_FULL) {
        x->view.tab = x->view.focus;
    } else if (x->scr.lay.mode == LAYOUT_COMPACT && x->view.tab != x->view.focus) {
        /* The tab follows the focus (the first tab also shows the plans). */
        if (!(x->view.tab == PANE_CONTROLS && x->view.focus == PANE_STRATEGIES)) {
            x->view.tab = x->view.focus;
            layout_compute(x->scr.rows, x->scr.cols, x->view.tab, &x->scr.lay);
        }
    }
    if (x->scr.lay.mode != LAYOUT_TOO_SMALL) {
        for (int i = 0; i < PANE_COUNT; i++)
            x->scr.win[i] = make_win(x->scr.lay.pane[i]);
        x->scr.header = make_win(x->scr.lay.header);
        x->scr.tabs = make_win(x->scr.lay.tabs);
        x->scr.bar = make_win(x->scr.lay.bar);
    }
    x->scr.need_layout = 0;
}

static void draw_too_small(explorer *x)
{
    static const char MSG[] = "terminal too small (needs 80x24)";
    werase(stdscr);
    int w = x->scr.cols, len = (int)strlen(MSG);
    int y = x->scr.rows / 2, xx = (w - len) / 2;
    if (xx < 0)
        xx = 0;
    if (x->scr.rows > 0 && w > 0)
        mvwaddnstr(stdscr, y, xx, MSG, w - xx);
    wnoutrefresh(stdscr);
}

/* The overlay's window at r, reused while its place stays. */
static WINDOW *overlay_window(explorer *x, layout_rect r)
{
    WINDOW *o = x->scr.overlay;
    if (o) {
        int oh, ow, oy, ox;
        getmaxyx(o, oh, ow);
        getbegyx(o, oy, ox);
        if (oh == r.h && ow == r.w && oy == r.y && ox == r.x)
            return o;
        delwin(o);
    }
    x->scr.overlay = newwin(r.h, r.w, r.y, r.x);
    return x->scr.overlay;
}

typedef void (*pane_draw_fn)(const exp_view *, WINDOW *);

static void draw_win(const exp_view *v, WINDOW *w, pane_draw_fn draw)
{
    if (!w)
        return;
    werase(w);
    draw(v, w);
    wnoutrefresh(w);
}

static void draw_overlay(explorer *x, const exp_view *v)
{
    static const pane_draw_fn DRAW[] = {NULL, pane_help_draw, pane_list_draw, pane_calib_draw};
    if (x->ov.kind == OVERLAY_NONE)
        return;
    layout_rect r = exp_overlay_rect(v);
    if (!layout_rect_visible(r))
        return;
    draw_win(v, overlay_window(x, r), DRAW[x->ov.kind]);
}

/* One frame after update (exp_update: everything; exp_update_quick: the
 * deferred blocks left for later). */
static void frame(explorer *x, void (*update)(explorer *))
{
    int r, c;
    x->scr.frames++;
    getmaxyx(stdscr, r, c);
    if (r != x->scr.rows || c != x->scr.cols)
        x->scr.need_layout = 1;
    if (x->scr.need_layout)
        apply_layout(x);
    if (x->scr.lay.mode == LAYOUT_TOO_SMALL) {
        draw_too_small(x);
        doupdate();
        return;
    }
    update(x);
    exp_view v;
    exp_view_make(x, &v);
    /* Keep stdscr untouched so wgetch() never repaints it over the panes. */
    wnoutrefresh(stdscr);
    static const pane_draw_fn DRAW[PANE_COUNT] = {
        pane_controls_draw, pane_strategies_draw, pane_details_draw,
        pane_efficiency_draw, pane_heat_draw, pane_frontier_draw};
    draw_win(&v, x->scr.header, pane_header_draw);
    draw_win(&v, x->scr.tabs, pane_tabs_draw);
    for (int i = 0; i < PANE_COUNT; i++)
        draw_win(&v, x->scr.win[i], DRAW[i]);
    draw_win(&v, x->scr.bar, pane_bar_draw);
    draw_overlay(x, &v);
    doupdate();
}

void explorer_frame(explorer *x)
{
    frame(x, exp_update);
}

/* --- the loop ---------------------------------------------------------- */

/* After an ESC: the rest of an escape sequence curses did not recognise
 * (Alt+x, a key of another terminal type), read without waiting.  0: a
 * bare Esc (nothing followed within the ESC delay); 1: a sequence, named
 * in name ("ESC x", "ESC [4~"). */
static int read_escape_seq(char *name, size_t len)
{
    wtimeout(stdscr, 0);
    int c = wgetch(stdscr);
    if (c == ERR)
        return 0;
    int lead = c, used = snprintf(name, len, "ESC ");
    for (int i = 0; c != ERR && i < 16 && used >= 0 && (size_t)used < len; i++) {
        char buf[24];
        int plain = c > 32 && c < 127;
        const char *s = plain ? (buf[0] = (char)c, buf[1] = '\0', buf)
                              : exp_key_name(c, buf, sizeof buf);
        used += snprintf(name + used, len - (size_t)used, "%s%s", i && !plain ? " " : "", s);
        /* CSI runs to its final byte (0x40..0x7e), SS3 is one more byte. */
        int more = c < 256 && ((lead == '[' && (i == 0 || c < 0x40 || c > 0x7e)) ||
                               (lead == 'O' && i == 0));
        if (!more)
            break;
        c = wgetch(stdscr);
    }
    return 1;
}

/* One key from the terminal: an unrecognised escape sequence is named on
 * the bar and ignored; anything else goes to explorer_key.  1: quit. */
static int terminal_key(explorer *x, int ch)
{
    char name[96];
    if (ch == 27 && read_escape_seq(name, sizeof name)) {
        exp_set_msg(x, "unknown key %s (ignored)", name);
        return 0;
    }
    return explorer_key(x, ch);
}

/* A signal came: Ctrl-C while a calibration runs cancels it (and is
 * forgotten); anything else quits.  1: quit. */
static int signal_came(explorer *x)
{
    if (term_signal() != SIGINT || !x->cal.job)
        return 1;
    exp_calib_cancel(x);
    term_clear_quit();
    size_t n = strlen(x->msg);
    snprintf(x->msg + n, sizeof x->msg - n, " (Ctrl-C again quits)");
    return 0;
}

int explorer_step(explorer *x, int timeout_ms)
{
    int dirty = 0;
    /* Deferred blocks wait only while keys come: with one out of date,
     * look for a key without waiting and compute it when none came. */
    int idle_work = exp_update_pending(x);
    wtimeout(stdscr, idle_work ? 0 : timeout_ms);
    int ch = wgetch(stdscr);
    if (ch == ERR && idle_work && exp_update_deferred(x))
        dirty = 1;
    /* Held keys: what is already typed is handled before the next frame,
     * so a burst costs one changed frame, not one per key. */
    for (int n = 0; ch != ERR && n < EXPLORER_KEYS_PER_FRAME; n++) {
        if (term_quit_requested())
            break;
        dirty = 1;
        if (terminal_key(x, ch) != 0)
            return 1;
        wtimeout(stdscr, 0);
        ch = wgetch(stdscr);
    }
    if (term_quit_requested()) {
        if (signal_came(x))
            return 1;
        dirty = 1;
    }
    if (explorer_poll(x))
        dirty = 1;
    if (dirty)
        frame(x, exp_update_quick);
    return 0;
}

int explorer_run(explorer *x)
{
    explorer_frame(x);
    while (!explorer_step(x, x->cal.job ? 100 : 250))
        ;
    return term_signal();
}
