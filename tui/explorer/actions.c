/*
 * actions.c - what the keys do: a key is looked up in the key table
 * (keys.c) in the scopes that apply (an overlay's, else the main one, the
 * focused pane's and the panes' shared one) and its action runs; a mouse
 * event becomes the same actions through the regions of the pure layout
 * (layout.c), so keys and the mouse take one path.
 */
#include "explorer_int.h"
#include "keys.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* --- what the actions change ------------------------------------------ */

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    if (!n)
        return 1;
    for (; *hay; hay++)
        if (!strncasecmp(hay, needle, n))
            return 1;
    return 0;
}

static void list_refilter(explorer *x)
{
    int n = x->ctl.s[x->ov.ctl].max + 1;
    int cur = x->ov.list.n > 0 && x->ov.list.sel < x->ov.list.n ? x->ov.idx[x->ov.list.sel] : -1;
    x->ov.list.n = 0;
    for (int i = 0; i < n && x->ov.list.n < (int)(sizeof x->ov.idx / sizeof x->ov.idx[0]);
         i++) {
        const char *disp;
        const char *name = exp_choice(x->db, x->ov.ctl, i, &disp);
        if (contains_ci(name, x->ov.filter) || contains_ci(disp, x->ov.filter))
            x->ov.idx[x->ov.list.n++] = i;
    }
    x->ov.list.sel = 0;
    for (int i = 0; i < x->ov.list.n; i++)
        if (x->ov.idx[i] == cur)
            x->ov.list.sel = i;
    x->ov.list.top = 0;
}

static void open_list(explorer *x, int ctl)
{
    x->ov.kind = OVERLAY_LIST;
    x->ov.list.cursor = 1;
    x->ov.list.page = 8;
    x->ov.ctl = ctl;
    x->ov.filter[0] = '\0';
    x->ov.filter_len = 0;
    x->ov.list.n = 0;
    list_refilter(x);
    for (int i = 0; i < x->ov.list.n; i++)
        if (x->ov.idx[i] == x->ctl.s[ctl].value)
            x->ov.list.sel = i;
    x->msg[0] = '\0'; /* the bar shows the list's keys while it is open */
}

void exp_focus_pane(explorer *x, int pane)
{
    x->view.focus = (pane % PANE_COUNT + PANE_COUNT) % PANE_COUNT;
    if (x->scr.lay.mode != LAYOUT_FULL && x->view.tab != x->view.focus) {
        x->view.tab = x->view.focus;
        x->scr.need_layout = 1;
    }
}

static void do_export(explorer *x)
{
    char names[600];
    exp_update(x);
    /* The files carry the tails of every plan, not only those on screen. */
    for (int i = 0; i < x->r.n_plans; i++)
        if (!x->r.tails_done[i] && x->r.plans[i].valid) {
            engine_tails(&x->r.sc, &x->r.plans[i]);
            x->r.tails_done[i] = 1;
        }
    if (exp_export(x, names, sizeof names) == 0)
        exp_set_msg(x, "exported %s", names);
    /* on failure exp_export set the message */
}

/* Enter in the list: choose and close; with nothing matching the list
 * stays open (the bar says so), so its Esc is still the list's. */
static void list_choose(explorer *x)
{
    if (x->ov.list.n == 0)
        return;
    int i = x->ov.idx[x->ov.list.sel];
    exp_ctl_set(x, x->ov.ctl, i);
    const char *disp;
    exp_choice(x->db, x->ov.ctl, i, &disp);
    exp_set_msg(x, "%s: %s", x->ctl.s[x->ov.ctl].label, disp);
    x->ov.kind = OVERLAY_NONE;
}

static void list_type(explorer *x, int ch)
{
    exp_overlay *o = &x->ov;
    if (ch == 0) { /* erase */
        if (o->filter_len > 0) {
            o->filter[--o->filter_len] = '\0';
            list_refilter(x);
        }
    } else if (ch >= 32 && ch < 127 && o->filter_len < EXP_FILTER_MAX - 1) {
        o->filter[o->filter_len++] = (char)ch;
        o->filter[o->filter_len] = '\0';
        list_refilter(x);
    }
}

/* The list the scope scrolls. */
static listview *scope_list(explorer *x, exp_scope s)
{
    return s == SCOPE_PLANS ? &x->view.plans : s == SCOPE_DETAILS ? &x->view.details
                                                                  : &x->ov.list;
}

static int run_list(explorer *x, exp_action a, int arg, exp_scope s)
{
    listview *l = scope_list(x, s);
    switch (a) {
    case ACT_MOVE:
        listview_move(l, arg);
        return 0;
    case ACT_PAGE:
        listview_page(l, arg);
        return 0;
    case ACT_HOME:
        listview_home(l);
        return 0;
    case ACT_END:
        listview_end(l);
        return 0;
    default:
        return 0;
    }
}

static int run_control(explorer *x, exp_action a, int arg)
{
    int sel = x->ctl.sel;
    switch (a) {
    case ACT_CTL_SELECT:
        x->ctl.sel = (sel + CTL_COUNT + arg) % CTL_COUNT;
        break;
    case ACT_CTL_STEP:
        exp_ctl_adjust(x, sel, arg, 0);
        break;
    case ACT_CTL_BIG:
        exp_ctl_adjust(x, sel, arg, 1);
        break;
    case ACT_CTL_MIN:
        exp_ctl_set(x, sel, x->ctl.s[sel].min);
        break;
    case ACT_CTL_MAX:
        exp_ctl_set(x, sel, x->ctl.s[sel].max);
        break;
    case ACT_CTL_OPEN:
        if (exp_ctl_is_selector(sel))
            open_list(x, sel);
        break;
    case ACT_GPUS_STEP:
        exp_ctl_adjust(x, CTL_GPUS, arg, 0);
        break;
    case ACT_GPUS_BIG:
        exp_ctl_adjust(x, CTL_GPUS, arg, 1);
        break;
    default: /* ACT_PICK_CONTROL */
        x->ctl.sel = arg;
        break;
    }
    return 0;
}

static void next_framework(explorer *x)
{
    if (x->db->n_frameworks > 0) {
        x->ctl.framework = (x->ctl.framework + 1) % x->db->n_frameworks;
        exp_set_msg(x, "framework: %s", x->db->frameworks[x->ctl.framework].display);
    }
}

/* `S`: the next speculation method (none, eagle, then mtp where the model
 * has MTP layers) at its default k and acceptance; `[` `]` `{` `}` adjust
 * them.  The bar says what runs and the tokens per step it gives. */
static void spec_msg(explorer *x)
{
    if (x->ctl.spec_method == ENGINE_SPEC_NONE) {
        exp_set_msg(x, "speculation: none");
        return;
    }
    exp_set_msg(x, "speculation: %s, k %d, acceptance %.2f: %.2f tokens per target step",
                engine_spec_method_name((engine_spec_method)x->ctl.spec_method), x->ctl.spec_k,
                x->ctl.spec_pct / 100.0,
                engine_spec_tokens_per_step(x->ctl.spec_k, x->ctl.spec_pct / 100.0));
}

static void spec_next(explorer *x)
{
    int m = x->ctl.spec_method;
    m = m == ENGINE_SPEC_NONE ? ENGINE_SPEC_EAGLE
        : m == ENGINE_SPEC_EAGLE && exp_model(x)->mtp_layers > 0 ? ENGINE_SPEC_MTP
                                                                  : ENGINE_SPEC_NONE;
    double p;
    x->ctl.spec_method = m;
    engine_spec_default((engine_spec_method)m, &x->ctl.spec_k, &p);
    x->ctl.spec_pct = (int)(p * 100 + 0.5);
    spec_msg(x);
}

static void spec_adjust(explorer *x, int dk, int dp)
{
    if (x->ctl.spec_method == ENGINE_SPEC_NONE) {
        exp_set_msg(x, "speculation is off: S turns it on");
        return;
    }
    int k = x->ctl.spec_k + dk, p = x->ctl.spec_pct + dp;
    x->ctl.spec_k = k < 0 ? 0 : k > ENGINE_MAX_SPEC_K ? ENGINE_MAX_SPEC_K : k;
    x->ctl.spec_pct = p < 0 ? 0 : p > 100 ? 100 : p;
    spec_msg(x);
}

static void heat_mode(explorer *x)
{
    x->view.heat_mode = !x->view.heat_mode;
    exp_set_msg(x, "heatmap: %s", x->view.heat_mode == HEAT_BY_MODELS
                                      ? "models x interconnects"
                                      : "GPU counts x interconnects");
}

static void plan_details(explorer *x)
{
    x->view.details.top = 0;
    if (x->scr.lay.mode != LAYOUT_FULL)
        exp_focus_pane(x, PANE_DETAILS);
    const engine_result *p = exp_selected_plan(x);
    exp_set_msg(x, "details of plan #%d", p ? (int)(p - x->r.plans) + 1 : 0);
}

static void mouse_event(explorer *x);

/* `y`: the state as an eval command line, to the clipboard through OSC 52
 * where the terminal takes it (term_osc52_allowed), and on the bar always. */
static void copy_command(explorer *x)
{
    char line[1024];
    exp_update(x); /* the scenario and the selection of the current controls */
    if (exp_command_line(x, line, sizeof line) != 0) {
        exp_set_msg(x, "cannot copy: %s", line[0] ? "the command is too long" : "no scenario");
        return;
    }
    int sent = term_clipboard(line);
    exp_set_msg(x, "%s %s", sent == 1 ? "copied:" : "copy:", line);
}

/* The actions on the whole explorer (files, calibration, overlays). */
static int run_global(explorer *x, exp_action a)
{
    switch (a) {
    case ACT_QUIT:
        exp_calib_cancel(x);
        return 1;
    case ACT_ESCAPE:
        if (!x->cal.job)
            return 1;
        exp_calib_cancel(x);
        return 0;
    case ACT_HELP:
        x->ov.kind = OVERLAY_HELP;
        break;
    case ACT_FILTER_MODELS:
        open_list(x, CTL_MODEL);
        break;
    case ACT_CALIBRATE:
        exp_calib_start(x);
        break;
    case ACT_CALIB_VIEW:
        exp_calib_open_view(x);
        break;
    case ACT_EXPORT:
        do_export(x);
        break;
    case ACT_RESET:
        exp_ctl_reset(x);
        break;
    case ACT_FRAMEWORK:
        next_framework(x);
        break;
    case ACT_SPEC:
        spec_next(x);
        break;
    case ACT_SORT:
        exp_plans_sort_next(x);
        break;
    case ACT_FITS_ONLY:
        exp_plans_fits_toggle(x);
        break;
    case ACT_PIN:
        exp_plans_pin(x);
        break;
    case ACT_UNPIN:
        exp_plans_unpin(x);
        break;
    case ACT_COPY_COMMAND:
        copy_command(x);
        break;
    case ACT_DETAILS_PAGE:
        x->view.details_page = !x->view.details_page;
        x->view.details.top = 0;
        exp_set_msg(x, "details page %d of 2: %s", x->view.details_page + 1,
                    x->view.details_page ? "the selected plan kernel by kernel (explain)"
                                         : "the selected plan");
        break;
    case ACT_REPAINT:
        clearok(curscr, TRUE);
        break;
    case ACT_MOUSE:
        mouse_event(x);
        break;
    case ACT_LIST_CLOSE:
        x->ov.kind = OVERLAY_NONE;
        exp_set_msg(x, "%s", "");
        break;
    case ACT_LIST_CHOOSE:
        list_choose(x);
        break;
    case ACT_LIST_ERASE:
        list_type(x, 0);
        break;
    default:
        break;
    }
    return 0;
}

/* Run one action (from a key `ch`, or from the mouse with ch 0).  Returns
 * 1 when the explorer should quit. */
static int run(explorer *x, exp_action a, int arg, exp_scope s, int ch)
{
    switch (a) {
    case ACT_FOCUS_NEXT:
        exp_focus_pane(x, x->view.focus + 1);
        return 0;
    case ACT_FOCUS_PREV:
        exp_focus_pane(x, x->view.focus - 1);
        return 0;
    case ACT_FOCUS_PANE:
        exp_focus_pane(x, ch ? ch - '1' : arg);
        return 0;
    case ACT_CLICK_PANE:
        x->view.focus = arg;
        return 0;
    case ACT_HEAT_MODE:
        heat_mode(x);
        return 0;
    case ACT_HEAT_TOGGLE:
        x->view.heat_mode = !x->view.heat_mode;
        return 0;
    case ACT_EFF_TOGGLE:
        x->view.eff_view = !x->view.eff_view;
        return 0;
    case ACT_FRONT_VIEW:
        x->view.front_view = !x->view.front_view;
        exp_focus_pane(x, PANE_FRONTIER);
        exp_set_msg(x, "frontier pane: %s (o toggles)",
                    x->view.front_view ? "Pareto frontier, output tok/s per GPU vs tok/s per user"
                                       : "VRAM frontier, memory per GPU vs GPU count");
        return 0;
    case ACT_HEAT_SCROLL: /* clamped by the update step */
        x->view.heat_top += arg;
        return 0;
    case ACT_HEAT_COLS:
        x->view.heat_left += arg;
        return 0;
    case ACT_MOVE:
    case ACT_PAGE:
    case ACT_HOME:
    case ACT_END:
        return run_list(x, a, arg, s);
    case ACT_PICK_PLAN:
        x->view.plans.sel = arg;
        return 0;
    case ACT_PLAN_DETAILS:
        plan_details(x);
        return 0;
    case ACT_SPEC_K:
        spec_adjust(x, arg, 0);
        return 0;
    case ACT_SPEC_P:
        spec_adjust(x, 0, arg);
        return 0;
    case ACT_CTL_SELECT:
    case ACT_CTL_STEP:
    case ACT_CTL_BIG:
    case ACT_CTL_MIN:
    case ACT_CTL_MAX:
    case ACT_CTL_OPEN:
    case ACT_GPUS_STEP:
    case ACT_GPUS_BIG:
    case ACT_PICK_CONTROL:
        return run_control(x, a, arg);
    default:
        return run_global(x, a);
    }
}

/* --- lookup ------------------------------------------------------------ */

static const exp_binding *lookup(exp_scope s, int ch)
{
    int n;
    const exp_binding *b = exp_bindings(&n);
    for (int i = 0; i < n; i++) {
        if (b[i].scope != s)
            continue;
        for (int k = 0; k < EXP_BINDING_KEYS && b[i].keys[k]; k++)
            if (b[i].keys[k] == ch)
                return &b[i];
    }
    return NULL;
}

static exp_scope pane_scope(int pane)
{
    static const exp_scope S[PANE_COUNT] = {SCOPE_CONTROLS,   SCOPE_PLANS, SCOPE_DETAILS,
                                            SCOPE_EFFICIENCY, SCOPE_HEAT,  SCOPE_PANES};
    return pane >= 0 && pane < PANE_COUNT ? S[pane] : SCOPE_PANES;
}

/* Look ch up in scope s and run what it is bound to; -1: not bound. */
static int dispatch(explorer *x, exp_scope s, int ch)
{
    const exp_binding *b = lookup(s, ch);
    return b ? run(x, b->action, b->arg, s, ch) : -1;
}

static int overlay_key(explorer *x, int ch)
{
    switch (x->ov.kind) {
    case OVERLAY_HELP: /* any key closes it */
        x->ov.kind = OVERLAY_NONE;
        return 0;
    case OVERLAY_LIST: /* other printable keys type the filter */
        if (dispatch(x, SCOPE_LIST, ch) < 0)
            list_type(x, ch);
        return 0;
    default: /* the calibration view: c measures again, other keys close it */
        x->msg[0] = '\0';
        if (dispatch(x, SCOPE_CALIB, ch) < 0)
            x->ov.kind = OVERLAY_NONE;
        return 0;
    }
}

int explorer_key(explorer *x, int ch)
{
    if (ch == ERR)
        return 0;
    if (ch == KEY_RESIZE) {
        x->scr.need_layout = 1;
        return 0;
    }
    int rc = dispatch(x, SCOPE_ALWAYS, ch);
    if (rc >= 0)
        return rc;
    if (x->ov.kind != OVERLAY_NONE)
        return overlay_key(x, ch);
    const exp_binding *b = lookup(SCOPE_MAIN, ch);
    /* A screen too small shows only a message: q and Esc still work. */
    if (x->scr.lay.mode == LAYOUT_TOO_SMALL &&
        !(b && (b->action == ACT_QUIT || b->action == ACT_ESCAPE)))
        return 0;
    x->msg[0] = '\0';
    if (b)
        return run(x, b->action, b->arg, SCOPE_MAIN, ch);
    exp_scope s = pane_scope(x->view.focus);
    rc = dispatch(x, s, ch);
    if (rc < 0 && s != SCOPE_CONTROLS && s != SCOPE_PANES)
        rc = dispatch(x, SCOPE_PANES, ch);
    return rc > 0 ? rc : 0;
}

/* --- the mouse: regions of the layout become the same actions --------- */

static void mouse_wheel(explorer *x, int pane, int dir)
{
    if (pane == PANE_CONTROLS)
        run(x, ACT_CTL_STEP, dir, SCOPE_CONTROLS, 0);
    else if (pane == PANE_STRATEGIES)
        run(x, ACT_MOVE, -dir, SCOPE_PLANS, 0);
    else if (pane == PANE_DETAILS)
        run(x, ACT_MOVE, -dir, SCOPE_DETAILS, 0);
    else
        run(x, ACT_GPUS_BIG, dir, SCOPE_PANES, 0);
}

static void mouse_click(explorer *x, int pane, int y, int xx)
{
    const layout *l = &x->scr.lay;
    run(x, ACT_CLICK_PANE, pane, SCOPE_MAIN, 0);
    if (pane == PANE_CONTROLS) {
        int c = layout_control_at(l, CTL_COUNT, y, xx);
        if (c >= 0)
            run(x, ACT_PICK_CONTROL, c, SCOPE_CONTROLS, 0);
    } else if (pane == PANE_STRATEGIES) {
        int row = layout_row_at(l, pane, pane_strategies_first_row(), y, xx);
        if (row >= 0 && x->view.plans.top + row < x->r.n_shown)
            run(x, ACT_PICK_PLAN, x->view.plans.top + row, SCOPE_PLANS, 0);
    } else if (pane == PANE_HEAT) {
        run(x, ACT_HEAT_TOGGLE, 0, SCOPE_HEAT, 0);
    } else if (pane == PANE_EFFICIENCY) {
        run(x, ACT_EFF_TOGGLE, 0, SCOPE_EFFICIENCY, 0);
    }
}

static void mouse_event(explorer *x)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return;
    if (x->ov.kind == OVERLAY_HELP || x->ov.kind == OVERLAY_CALIB) {
        x->ov.kind = OVERLAY_NONE;
        return;
    }
    if (x->ov.kind != OVERLAY_NONE)
        return;
    const layout *l = &x->scr.lay;
    int wheel = (ev.bstate & BUTTON4_PRESSED) ? 1 : (ev.bstate & BUTTON5_PRESSED) ? -1 : 0;
    if (!wheel && l->mode == LAYOUT_COMPACT && ev.y == l->tabs.y) {
        int t = layout_tab_at(l, ev.y, ev.x);
        if (t >= 0)
            run(x, ACT_FOCUS_PANE, t, SCOPE_MAIN, 0);
        return;
    }
    int p = layout_pane_at(l, ev.y, ev.x);
    if (p < 0)
        return;
    if (wheel)
        mouse_wheel(x, p, wheel);
    else if (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED))
        mouse_click(x, p, ev.y, ev.x);
}
