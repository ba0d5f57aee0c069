/*
 * explorer.c - state, recomputation and key handling of the explorer.
 *
 * The UI state is a row of sliders (selectors are list sliders).  Each
 * block of results (ranked plans, efficiency tables, heatmap, frontier)
 * remembers the inputs it was computed from and is recomputed only when
 * those changed; all of it lives in the explorer (allocated once).  Every
 * number comes from engine_* calls; this file only chooses which plans to
 * ask about.
 */
#include "explorer_int.h"
#include "validation.h"

#include "chart.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void explorer_opts_defaults(explorer_opts *o)
{
    memset(o, 0, sizeof *o);
}

void exp_set_msg(explorer *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->msg, sizeof x->msg, fmt, ap);
    va_end(ap);
}

const char *explorer_message(const explorer *x)
{
    return x->msg;
}

const engine_model *exp_model(const explorer *x)
{
    return &x->db->models[x->ctl.s[CTL_MODEL].value];
}

const engine_gpu *exp_gpu(const explorer *x)
{
    return &x->db->gpus[x->ctl.s[CTL_GPU].value];
}

const engine_link *exp_link(const explorer *x, int ctl)
{
    return &x->db->links[x->ctl.s[ctl].value];
}

void exp_inputs_get(const explorer *x, exp_inputs *in)
{
    memset(in, 0, sizeof *in);
    for (int i = 0; i < CTL_COUNT; i++)
        in->v[i] = x->ctl.s[i].value;
    in->calib_serial = x->cal.serial;
    in->framework = x->ctl.framework;
}

const engine_framework *exp_framework(const explorer *x)
{
    if (x->ctl.framework >= 0 && x->ctl.framework < x->db->n_frameworks)
        return &x->db->frameworks[x->ctl.framework];
    return NULL;
}

static int link_index(const preset_db *db, const engine_link *l)
{
    for (int i = 0; l && i < db->n_links && i < EXP_MAX_LINKS; i++)
        if (&db->links[i] == l)
            return i;
    return -1;
}

/* The GPU's usual topology on the link and GPUs-per-node sliders (the
 * same defaults as the command line: preset_gpu_topology). */
static void topology_for_gpu(explorer *x)
{
    const engine_link *li = NULL, *lo = NULL;
    int k = 0;
    preset_gpu_topology(x->db, exp_gpu(x), &li, &lo, &k);
    int ii = link_index(x->db, li), oi = link_index(x->db, lo);
    if (ii >= 0)
        slider_set(&x->ctl.s[CTL_INTRA], ii);
    if (oi >= 0)
        slider_set(&x->ctl.s[CTL_INTER], oi);
    if (k > 0)
        slider_set(&x->ctl.s[CTL_PER_NODE], k);
}

static int find_index(const char *want, const char *const *prefs, int n_prefs,
                      const char *(*name_at)(const preset_db *, int), const preset_db *db,
                      int n)
{
    if (want) {
        for (int i = 0; i < n; i++)
            if (!strcasecmp(name_at(db, i), want))
                return i;
        return -1;
    }
    for (int p = 0; p < n_prefs; p++)
        for (int i = 0; i < n; i++)
            if (!strcasecmp(name_at(db, i), prefs[p]))
                return i;
    return 0;
}

static const char *model_name_at(const preset_db *db, int i)
{
    return db->models[i].name;
}
static const char *gpu_name_at(const preset_db *db, int i)
{
    return db->gpus[i].name;
}
static const char *link_name_at(const preset_db *db, int i)
{
    return db->links[i].name;
}


static void set_context_ranges(explorer *x)
{
    int ctx = exp_model(x)->context > 1 ? exp_model(x)->context : 131072;
    slider_set_range(&x->ctl.s[CTL_PROMPT], 1, ctx);
    slider_set_range(&x->ctl.s[CTL_GEN], 1, ctx);
}

static void calib_for_gpu(explorer *x)
{
    memset(&x->cal.calib, 0, sizeof x->cal.calib);
    if (x->cal.ops && x->cal.ops->load_for_gpu &&
        x->cal.ops->load_for_gpu(exp_gpu(x)->name, &x->cal.calib) != 1)
        memset(&x->cal.calib, 0, sizeof x->cal.calib);
    x->cal.serial++;
}

/* Side effects of a changed control (ranges, the VRAM default). */
static void ctl_changed(explorer *x, int ctl)
{
    if (ctl == CTL_MODEL) {
        set_context_ranges(x);
    } else if (ctl == CTL_GPU) {
        slider_set(&x->ctl.s[CTL_VRAM], exp_gb_of(exp_gpu(x)->memory_bytes));
        topology_for_gpu(x);
        calib_for_gpu(x);
    }
}

static void apply_inputs(explorer *x, const exp_inputs *in)
{
    for (int i = 0; i < CTL_COUNT; i++) {
        if (i == CTL_PROMPT || i == CTL_GEN)
            continue;
        slider_set(&x->ctl.s[i], in->v[i]);
    }
    x->ctl.framework = in->framework;
    set_context_ranges(x);
    slider_set(&x->ctl.s[CTL_PROMPT], in->v[CTL_PROMPT]);
    slider_set(&x->ctl.s[CTL_GEN], in->v[CTL_GEN]);
}

int explorer_new(const preset_db *db, const explorer_opts *o, const term_caps *caps,
                 explorer **out, char *msg, size_t len)
{
    *out = NULL;
    if (!db || db->n_models < 1 || db->n_gpus < 1 || db->n_links < 1) {
        snprintf(msg, len, "the preset database has no models, GPUs or links");
        return -1;
    }
    static const char *const MODEL_PREFS[] = {"llama-3-70b", "llama-2-70b"};
    static const char *const GPU_PREFS[] = {"h100-sxm", "a100-80gb"};
    /* Without --link / --inter-link the GPU's usual topology is applied
     * below; these are only the fallback for a GPU that names none. */
    static const char *const INTRA_PREFS[] = {"nvlink4", "nvlink3", "pcie4"};
    static const char *const INTER_PREFS[] = {"ib-ndr", "ib-hdr", "eth-400g"};
    int mi = find_index(o ? o->model : NULL, MODEL_PREFS, 2, model_name_at, db, db->n_models);
    int gi = find_index(o ? o->gpu : NULL, GPU_PREFS, 2, gpu_name_at, db, db->n_gpus);
    int li = find_index(o ? o->link : NULL, INTRA_PREFS, 3, link_name_at, db, db->n_links);
    int ii = find_index(o ? o->inter_link : NULL, INTER_PREFS, 3, link_name_at, db, db->n_links);
    if (mi < 0 || gi < 0 || li < 0 || ii < 0) {
        snprintf(msg, len, "unknown %s '%s'", mi < 0 ? "model" : gi < 0 ? "GPU" : "link",
                 mi < 0 ? o->model : gi < 0 ? o->gpu : li < 0 ? o->link : o->inter_link);
        return -1;
    }
    explorer *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(msg, len, "out of memory");
        return -1;
    }
    x->r.plans = calloc(EXP_MAX_PLANS, sizeof *x->r.plans);
    x->r.tails_done = calloc(EXP_MAX_PLANS, 1);
    x->scr.grid = calloc(EXP_GRID_MAX, sizeof *x->scr.grid);
    if (!x->r.plans || !x->r.tails_done || !x->scr.grid) {
        explorer_free(x);
        snprintf(msg, len, "out of memory");
        return -1;
    }
    x->db = db;
    x->caps = *caps;
    x->g = theme_glyphs_get(caps->utf8);
    if (o)
        x->opts = *o;
    const char *dir = (o && o->export_dir) ? o->export_dir : getenv("SHARDSCOPE_EXPORT_DIR");
    snprintf(x->export_dir, sizeof x->export_dir, "%s", dir && *dir ? dir : ".");

    engine_scenario d;
    engine_scenario_defaults(&d);
    int n_models = db->n_models > EXP_MAX_MODELS ? EXP_MAX_MODELS : db->n_models;
    int n_links = db->n_links > EXP_MAX_LINKS ? EXP_MAX_LINKS : db->n_links;
    x->ctl.s[CTL_MODEL] = slider_make("Model", "", SLIDER_LIST, mi, 0, n_models - 1, 1, 4);
    x->ctl.s[CTL_GPU] = slider_make("GPU", "", SLIDER_LIST, gi, 0, db->n_gpus - 1, 1, 4);
    x->ctl.s[CTL_INTRA] = slider_make("Intra link", "", SLIDER_LIST, li, 0, n_links - 1, 1, 4);
    x->ctl.s[CTL_INTER] = slider_make("Inter link", "", SLIDER_LIST, ii, 0, n_links - 1, 1, 4);
    x->ctl.s[CTL_GPUS] = slider_make("GPU count", "GPUs", SLIDER_POW2,
                                   o && o->gpus > 0 ? o->gpus : 8, 1, EXP_MAX_GPUS, 1, 1);
    x->ctl.s[CTL_PER_NODE] = slider_make("GPUs/node", "GPUs", SLIDER_LINEAR,
                                       o && o->gpus_per_node > 0 ? o->gpus_per_node : 8, 1,
                                       EXP_MAX_PER_NODE, 1, 8);
    x->ctl.s[CTL_VRAM] = slider_make("VRAM/GPU", "GB", SLIDER_LINEAR,
                                   o && o->vram_gb > 0 ? (int)(o->vram_gb + 0.5)
                                                       : exp_gb_of(db->gpus[gi].memory_bytes),
                                   1, 1024, 1, 8);
    x->ctl.s[CTL_BATCH] = slider_make("Batch", "seq", SLIDER_GEOM, d.batch, 1, 4096, 1, 1);
    x->ctl.s[CTL_PROMPT] = slider_make("Prompt", "tok", SLIDER_GEOM, d.prompt, 1, 131072, 128, 1);
    x->ctl.s[CTL_GEN] = slider_make("Generate", "tok", SLIDER_GEOM, d.gen, 1, 131072, 32, 1);
    x->ctl.s[CTL_DTYPE] = slider_make("Weights", "", SLIDER_LIST, (int)d.weight_dtype, 0,
                                    ENGINE_DTYPE_COUNT - 1, 1, 1);
    x->ctl.s[CTL_MICRO] = slider_make("Microbatch", "", SLIDER_GEOM, d.microbatches, 0, 256, 1, 1);
    x->ctl.s[CTL_SCHED] = slider_make("Schedule", "", SLIDER_LIST, (int)d.schedule, 0,
                                    ENGINE_SCHED_COUNT - 1, 1, 1);
    x->ctl.s[CTL_OBJECTIVE] = slider_make("Objective", "", SLIDER_LIST, (int)d.objective, 0,
                                        ENGINE_OBJ_COUNT - 1, 1, 1);
    set_context_ranges(x);
    slider_set(&x->ctl.s[CTL_PROMPT], d.prompt);
    slider_set(&x->ctl.s[CTL_GEN], d.gen);

    /* The GPU's usual links and NVLink domain, unless given. */
    {
        const engine_link *ul = NULL, *uo = NULL;
        int k = 0;
        preset_gpu_topology(db, &db->gpus[gi], &ul, &uo, &k);
        int a = link_index(db, ul), b = link_index(db, uo);
        if (!(o && o->link) && a >= 0)
            slider_set(&x->ctl.s[CTL_INTRA], a);
        if (!(o && o->inter_link) && b >= 0)
            slider_set(&x->ctl.s[CTL_INTER], b);
        if (!(o && o->gpus_per_node > 0) && k > 0)
            slider_set(&x->ctl.s[CTL_PER_NODE], k);
    }
    x->ctl.framework = -1;
    for (int i = 0; i < db->n_frameworks; i++)
        if (!strcasecmp(db->frameworks[i].name, o && o->framework ? o->framework : "generic"))
            x->ctl.framework = i;
    if (o && o->framework && x->ctl.framework < 0) {
        explorer_free(x);
        snprintf(msg, len, "unknown framework '%s'", o->framework);
        return -1;
    }
    x->have_bands = val_bands_shipped(&x->bands) == 0;
    x->cal.ops = NULL; /* until explorer_set_calib_ops */
    calib_for_gpu(x);
    exp_inputs_get(x, &x->ctl.initial);
    x->view.focus = PANE_CONTROLS;
    x->ctl.sel = CTL_GPUS;
    x->view.tab = PANE_CONTROLS;
    x->scr.need_layout = 1;
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
    free(x->scr.grid);
    free(x);
}

/* --- keys -------------------------------------------------------------- */

static int is_selector(int ctl)
{
    return ctl == CTL_MODEL || ctl == CTL_GPU || ctl == CTL_INTRA || ctl == CTL_INTER;
}

static const char *list_name(const explorer *x, int ctl, int i, const char **display)
{
    switch (ctl) {
    case CTL_MODEL:
        *display = x->db->models[i].display;
        return x->db->models[i].name;
    case CTL_GPU:
        *display = x->db->gpus[i].display;
        return x->db->gpus[i].name;
    default:
        *display = x->db->links[i].display;
        return x->db->links[i].name;
    }
}

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
        const char *name = list_name(x, x->ov.ctl, i, &disp);
        if (contains_ci(name, x->ov.filter) || contains_ci(disp, x->ov.filter))
            x->ov.idx[x->ov.list.n++] = i;
    }
    x->ov.list.sel = 0;
    for (int i = 0; i < x->ov.list.n; i++)
        if (x->ov.idx[i] == cur)
            x->ov.list.sel = i;
    x->ov.list.top = 0;
}

static void open_list(explorer *x, int ctl, int filter_mode)
{
    x->ov.kind = OVERLAY_LIST;
    x->ov.ctl = ctl;
    x->ov.filter[0] = '\0';
    x->ov.filter_len = 0;
    x->ov.list.n = 0;
    list_refilter(x);
    for (int i = 0; i < x->ov.list.n; i++)
        if (x->ov.idx[i] == x->ctl.s[ctl].value)
            x->ov.list.sel = i;
    if (filter_mode)
        exp_set_msg(x, "type to filter models, Enter to choose, Esc to cancel");
}

static void set_ctl(explorer *x, int ctl, int value)
{
    int old = x->ctl.s[ctl].value;
    slider_set(&x->ctl.s[ctl], value);
    if (x->ctl.s[ctl].value != old)
        ctl_changed(x, ctl);
}

static int list_key(explorer *x, int ch)
{
    switch (ch) {
    case 27:
        x->ov.kind = OVERLAY_NONE;
        exp_set_msg(x, "%s", "");
        return 0;
    case KEY_UP:
        if (x->ov.list.sel > 0)
            x->ov.list.sel--;
        return 0;
    case KEY_DOWN:
        if (x->ov.list.sel < x->ov.list.n - 1)
            x->ov.list.sel++;
        return 0;
    case KEY_PPAGE:
        x->ov.list.sel = x->ov.list.sel > 8 ? x->ov.list.sel - 8 : 0;
        return 0;
    case KEY_NPAGE:
        x->ov.list.sel = x->ov.list.sel + 8 < x->ov.list.n ? x->ov.list.sel + 8 : x->ov.list.n - 1;
        if (x->ov.list.sel < 0)
            x->ov.list.sel = 0;
        return 0;
    case KEY_HOME:
        x->ov.list.sel = 0;
        return 0;
    case KEY_END:
        x->ov.list.sel = x->ov.list.n > 0 ? x->ov.list.n - 1 : 0;
        return 0;
    case '\n':
    case '\r':
    case KEY_ENTER:
        if (x->ov.list.n > 0) {
            set_ctl(x, x->ov.ctl, x->ov.idx[x->ov.list.sel]);
            const char *disp;
            list_name(x, x->ov.ctl, x->ov.idx[x->ov.list.sel], &disp);
            exp_set_msg(x, "%s: %s", x->ctl.s[x->ov.ctl].label, disp);
        }
        x->ov.kind = OVERLAY_NONE;
        return 0;
    case KEY_BACKSPACE:
    case 127:
    case 8:
        if (x->ov.filter_len > 0) {
            x->ov.filter[--x->ov.filter_len] = '\0';
            list_refilter(x);
        }
        return 0;
    default:
        if (ch >= 32 && ch < 127 && x->ov.filter_len < EXP_FILTER_MAX - 1) {
            x->ov.filter[x->ov.filter_len++] = (char)ch;
            x->ov.filter[x->ov.filter_len] = '\0';
            list_refilter(x);
        }
        return 0;
    }
}

static void focus_pane(explorer *x, int pane)
{
    x->view.focus = (pane % PANE_COUNT + PANE_COUNT) % PANE_COUNT;
    if (x->scr.lay.mode != LAYOUT_FULL && x->view.tab != x->view.focus) {
        x->view.tab = x->view.focus;
        x->scr.need_layout = 1;
    }
}

static void reset_all(explorer *x)
{
    apply_inputs(x, &x->ctl.initial);
    calib_for_gpu(x);
    x->view.plans.sel = x->view.plans.top = 0;
    x->view.details.top = 0;
    x->view.heat_mode = HEAT_BY_GPUS;
    exp_set_msg(x, "reset to the starting values");
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

static void do_calibrate(explorer *x)
{
    if (!x->cal.ops || !x->cal.ops->start) {
        exp_set_msg(x, "calibration not available in this build");
        return;
    }
    if (x->cal.job) {
        exp_set_msg(x, "calibration already running (Esc cancels)");
        return;
    }
    char why[200] = "";
    x->cal.job = x->cal.ops->start(x->db, x->ctl.s[CTL_GPU].value, why, sizeof why);
    if (!x->cal.job) {
        exp_set_msg(x, "calibration: %s", why[0] ? why : "could not start");
        snprintf(x->cal.note, sizeof x->cal.note, "could not start: %s",
                 why[0] ? why : "(no reason given)");
        return;
    }
    x->cal.gpu = x->ctl.s[CTL_GPU].value;
    x->cal.progress = 0;
    snprintf(x->cal.step, sizeof x->cal.step, "starting");
    /* The bar shows the progress; a message would only repeat it. */
    x->msg[0] = '\0';
}

/* Esc (or q) while a job runs: the release op cancels it and waits; the
 * stored calibration file is untouched, the one in use stays. */
static void cancel_calibration(explorer *x)
{
    if (!x->cal.job)
        return;
    if (x->cal.ops && x->cal.ops->release)
        x->cal.ops->release(x->cal.job);
    x->cal.job = NULL;
    x->cal.progress = 0;
    x->cal.step[0] = '\0';
    snprintf(x->cal.note, sizeof x->cal.note,
             "cancelled; the previous calibration was kept");
    exp_set_msg(x, "calibration cancelled; %s still in use",
                x->cal.calib.measured ? "the previous calibration" : "datasheet defaults");
}

/* A finished run's points and fits for the view. */
static void keep_session_view(explorer *x)
{
    if (!x->cal.ops->job_view)
        return;
    if (!x->cal.session && !(x->cal.session = malloc(sizeof *x->cal.session)))
        return;
    x->cal.have_session = x->cal.ops->job_view(x->cal.job, x->cal.session) == 1;
}

int explorer_poll(explorer *x)
{
    if (!x->cal.job || !x->cal.ops || !x->cal.ops->poll)
        return 0;
    engine_calib got;
    memset(&got, 0, sizeof got);
    double prog = x->cal.progress;
    char step[EXP_MSG_MAX]; /* a failure's whole reason, not only a step label */
    snprintf(step, sizeof step, "%s", x->cal.step);
    int st = x->cal.ops->poll(x->cal.job, &prog, step, sizeof step, &got);
    if (st == 0) {
        /* Redraw only when the bar would change (whole percent or step). */
        int changed = (int)(prog * 100) != (int)(x->cal.progress * 100) ||
                      strncmp(step, x->cal.step, sizeof x->cal.step - 1) != 0;
        x->cal.progress = prog;
        snprintf(x->cal.step, sizeof x->cal.step, "%.95s", step);
        return changed;
    }
    if (st == 1)
        keep_session_view(x);
    if (x->cal.ops->release)
        x->cal.ops->release(x->cal.job);
    x->cal.job = NULL;
    x->cal.progress = 0;
    x->cal.step[0] = '\0';
    if (st == 1 && x->ctl.s[CTL_GPU].value != x->cal.gpu) {
        /* The GPU changed while measuring: the result belongs to the GPU it
         * was started for (saved; it applies when that GPU is selected). */
        snprintf(x->cal.note, sizeof x->cal.note,
                 "measured %s; saved for %s, not applied to %s", got.device,
                 x->db->gpus[x->cal.gpu].name, exp_gpu(x)->name);
        exp_set_msg(x, "calibration done for %s: select that GPU to use it",
                    x->db->gpus[x->cal.gpu].display);
    } else if (st == 1) {
        x->cal.calib = got;
        x->cal.serial++;
        x->cal.note[0] = '\0';
        if (step[0])
            exp_set_msg(x, "calibration done: %s (v shows the fit)", step);
        else
            exp_set_msg(x, "calibration done: now using the measured model (v shows the fit)");
    } else {
        snprintf(x->cal.note, sizeof x->cal.note, "failed: %.240s", step);
        exp_set_msg(x, "calibration failed: %s", step);
    }
    return 1;
}

const explorer_calib_view *exp_calib_view(explorer *x)
{
    if (!x->cal.calib.measured)
        return NULL;
    if (x->cal.view_valid && x->cal.view_serial == x->cal.serial)
        return x->cal.view_have ? x->cal.view : NULL;
    x->cal.view_valid = 1;
    x->cal.view_serial = x->cal.serial;
    x->cal.view_have = 0;
    if (!x->cal.view && !(x->cal.view = malloc(sizeof *x->cal.view)))
        return NULL;
    if (x->cal.have_session && !strcmp(x->cal.session->device, x->cal.calib.device) &&
        !strcmp(x->cal.session->date, x->cal.calib.date)) {
        memcpy(x->cal.view, x->cal.session, sizeof *x->cal.view);
        x->cal.view_have = 1;
    } else if (x->cal.ops && x->cal.ops->view &&
               x->cal.ops->view(exp_gpu(x)->name, x->cal.view) == 1) {
        x->cal.view_have = 1;
    }
    return x->cal.view_have ? x->cal.view : NULL;
}

void explorer_set_calib_ops(explorer *x, const explorer_calib_ops *ops)
{
    if (x->cal.job && x->cal.ops && x->cal.ops->release)
        x->cal.ops->release(x->cal.job);
    x->cal.job = NULL;
    x->cal.ops = ops;
    x->cal.have_session = 0;
    x->cal.view_valid = 0;
    calib_for_gpu(x);
}

static void open_calib_view(explorer *x)
{
    if (!x->cal.grid && !(x->cal.grid = malloc(EXP_GRID_MAX))) {
        exp_set_msg(x, "calibration view: out of memory");
        return;
    }
    x->ov.kind = OVERLAY_CALIB;
}

static void adjust_ctl(explorer *x, int ctl, int dir, int big)
{
    int old = x->ctl.s[ctl].value;
    slider_step(&x->ctl.s[ctl], dir, big);
    if (x->ctl.s[ctl].value != old)
        ctl_changed(x, ctl);
}

static int controls_key(explorer *x, int ch)
{
    switch (ch) {
    case KEY_UP:
    case 'k':
        x->ctl.sel = (x->ctl.sel + CTL_COUNT - 1) % CTL_COUNT;
        return 1;
    case KEY_DOWN:
    case 'j':
        x->ctl.sel = (x->ctl.sel + 1) % CTL_COUNT;
        return 1;
    case KEY_LEFT:
    case 'h':
        adjust_ctl(x, x->ctl.sel, -1, 0);
        return 1;
    case KEY_RIGHT:
    case 'l':
        adjust_ctl(x, x->ctl.sel, 1, 0);
        return 1;
    case '+':
    case '=':
    case KEY_NPAGE:
        adjust_ctl(x, x->ctl.sel, 1, 1);
        return 1;
    case '-':
    case '_':
    case KEY_PPAGE:
        adjust_ctl(x, x->ctl.sel, -1, 1);
        return 1;
    case KEY_HOME:
        set_ctl(x, x->ctl.sel, x->ctl.s[x->ctl.sel].min);
        return 1;
    case KEY_END:
        set_ctl(x, x->ctl.sel, x->ctl.s[x->ctl.sel].max);
        return 1;
    case '\n':
    case '\r':
    case KEY_ENTER:
        if (is_selector(x->ctl.sel))
            open_list(x, x->ctl.sel, 0);
        return 1;
    }
    return 0;
}

/* Panes without their own left/right use them for the GPU count. */
static int gpus_key(explorer *x, int ch)
{
    switch (ch) {
    case KEY_LEFT:
    case 'h':
        adjust_ctl(x, CTL_GPUS, -1, 0);
        return 1;
    case KEY_RIGHT:
    case 'l':
        adjust_ctl(x, CTL_GPUS, 1, 0);
        return 1;
    case '+':
    case '=':
        adjust_ctl(x, CTL_GPUS, 1, 1);
        return 1;
    case '-':
    case '_':
        adjust_ctl(x, CTL_GPUS, -1, 1);
        return 1;
    }
    return 0;
}

static int strategies_key(explorer *x, int ch)
{
    int rows = exp_visible_plan_rows(x);
    int n = x->r.n_plans;
    switch (ch) {
    case KEY_UP:
    case 'k':
        if (x->view.plans.sel > 0)
            x->view.plans.sel--;
        return 1;
    case KEY_DOWN:
    case 'j':
        if (x->view.plans.sel < n - 1)
            x->view.plans.sel++;
        return 1;
    case KEY_PPAGE:
        x->view.plans.sel = x->view.plans.sel > rows ? x->view.plans.sel - rows : 0;
        return 1;
    case KEY_NPAGE:
        x->view.plans.sel = x->view.plans.sel + rows < n ? x->view.plans.sel + rows : (n > 0 ? n - 1 : 0);
        return 1;
    case KEY_HOME:
        x->view.plans.sel = 0;
        return 1;
    case KEY_END:
        x->view.plans.sel = n > 0 ? n - 1 : 0;
        return 1;
    case '\n':
    case '\r':
    case KEY_ENTER:
        x->view.details.top = 0;
        if (x->scr.lay.mode != LAYOUT_FULL)
            focus_pane(x, PANE_DETAILS);
        exp_set_msg(x, "details of plan #%d", x->view.plans.sel + 1);
        return 1;
    }
    return gpus_key(x, ch);
}

static int details_key(explorer *x, int ch)
{
    switch (ch) {
    case KEY_UP:
    case 'k':
        if (x->view.details.top > 0)
            x->view.details.top--;
        return 1;
    case KEY_DOWN:
    case 'j':
        x->view.details.top++;
        return 1;
    case KEY_PPAGE:
        x->view.details.top = x->view.details.top > 8 ? x->view.details.top - 8 : 0;
        return 1;
    case KEY_NPAGE:
        x->view.details.top += 8;
        return 1;
    case KEY_HOME:
        x->view.details.top = 0;
        return 1;
    }
    return gpus_key(x, ch);
}

static int heat_key(explorer *x, int ch)
{
    switch (ch) {
    case '\n':
    case '\r':
    case KEY_ENTER:
    case ' ':
        x->view.heat_mode = !x->view.heat_mode;
        return 1;
    }
    return gpus_key(x, ch);
}

static int eff_key(explorer *x, int ch)
{
    switch (ch) {
    case '\n':
    case '\r':
    case KEY_ENTER:
    case ' ':
        x->view.eff_view = !x->view.eff_view;
        return 1;
    }
    return gpus_key(x, ch);
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
    int wheel = (ev.bstate & BUTTON4_PRESSED) ? 1 : (ev.bstate & BUTTON5_PRESSED) ? -1 : 0;
    if (x->scr.lay.mode == LAYOUT_COMPACT && ev.y == x->scr.lay.tabs.y && !wheel) {
        for (int t = 0; t < PANE_COUNT; t++)
            if (ev.x >= x->scr.tab_x[t] && ev.x < x->scr.tab_x[t + 1])
                focus_pane(x, t);
        return;
    }
    int p = layout_pane_at(&x->scr.lay, ev.y, ev.x);
    if (p < 0)
        return;
    layout_rect rc = x->scr.lay.pane[p];
    if (wheel) {
        if (p == PANE_CONTROLS) {
            adjust_ctl(x, x->ctl.sel, wheel, 0);
        } else if (p == PANE_STRATEGIES) {
            strategies_key(x, wheel > 0 ? KEY_UP : KEY_DOWN);
        } else if (p == PANE_DETAILS) {
            details_key(x, wheel > 0 ? KEY_UP : KEY_DOWN);
        } else {
            adjust_ctl(x, CTL_GPUS, wheel, 1);
        }
        return;
    }
    if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
        return;
    x->view.focus = p;
    if (p == PANE_CONTROLS) {
        int c = pane_controls_at(x, ev.y - rc.y, ev.x - rc.x);
        if (c >= 0)
            x->ctl.sel = c;
    } else if (p == PANE_STRATEGIES) {
        int row = ev.y - rc.y - 1 - pane_strategies_first_row();
        if (row >= 0 && x->view.plans.top + row < x->r.n_plans)
            x->view.plans.sel = x->view.plans.top + row;
    } else if (p == PANE_HEAT) {
        x->view.heat_mode = !x->view.heat_mode;
    } else if (p == PANE_EFFICIENCY) {
        x->view.eff_view = !x->view.eff_view;
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
    if (ch == KEY_MOUSE) {
        mouse_event(x);
        return 0;
    }
    if (x->ov.kind == OVERLAY_HELP) {
        x->ov.kind = OVERLAY_NONE;
        return 0;
    }
    if (x->ov.kind == OVERLAY_LIST)
        return list_key(x, ch);
    if (x->ov.kind == OVERLAY_CALIB) {
        /* c measures again with the view open; any other key closes it. */
        x->msg[0] = '\0';
        if (ch == 'c')
            do_calibrate(x);
        else
            x->ov.kind = OVERLAY_NONE;
        return 0;
    }
    if (x->scr.lay.mode == LAYOUT_TOO_SMALL && ch != 'q' && ch != 'Q' && ch != 27)
        return 0;
    x->msg[0] = '\0';
    switch (ch) {
    case 27:
        if (x->cal.job) {
            cancel_calibration(x);
            return 0;
        }
        return 1;
    case 'q':
    case 'Q':
        cancel_calibration(x);
        return 1;
    case 'v':
        open_calib_view(x);
        return 0;
    case '\t':
        focus_pane(x, x->view.focus + 1);
        return 0;
    case KEY_BTAB:
        focus_pane(x, x->view.focus - 1);
        return 0;
    case '?':
        x->ov.kind = OVERLAY_HELP;
        return 0;
    case '/':
        open_list(x, CTL_MODEL, 1);
        return 0;
    case 'c':
        do_calibrate(x);
        return 0;
    case 'e':
        do_export(x);
        return 0;
    case 'r':
        reset_all(x);
        return 0;
    case 'f':
        if (x->db->n_frameworks > 0) {
            x->ctl.framework = (x->ctl.framework + 1) % x->db->n_frameworks;
            exp_set_msg(x, "framework: %s", x->db->frameworks[x->ctl.framework].display);
        }
        return 0;
    case 'm':
        x->view.heat_mode = !x->view.heat_mode;
        exp_set_msg(x, "heatmap: %s", x->view.heat_mode == HEAT_BY_MODELS
                                         ? "models x interconnects"
                                         : "GPU counts x interconnects");
        return 0;
    case 12: /* Ctrl-L */
        clearok(curscr, TRUE);
        return 0;
    default:
        break;
    }
    if (ch >= '1' && ch <= '0' + PANE_COUNT) {
        focus_pane(x, ch - '1');
        return 0;
    }
    switch (x->view.focus) {
    case PANE_CONTROLS:
        controls_key(x, ch);
        break;
    case PANE_STRATEGIES:
        strategies_key(x, ch);
        break;
    case PANE_DETAILS:
        details_key(x, ch);
        break;
    case PANE_HEAT:
        heat_key(x, ch);
        break;
    case PANE_EFFICIENCY:
        eff_key(x, ch);
        break;
    default:
        gpus_key(x, ch);
        break;
    }
    return 0;
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

typedef void (*pane_draw_fn)(explorer *, WINDOW *);

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

void explorer_frame(explorer *x)
{
    int r, c;
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
    exp_update(x);
    /* Keep stdscr untouched so wgetch() never repaints it over the panes. */
    wnoutrefresh(stdscr);
    static const pane_draw_fn DRAW[PANE_COUNT] = {
        pane_controls_draw, pane_strategies_draw, pane_details_draw,
        pane_efficiency_draw, pane_heat_draw, pane_frontier_draw};
    if (x->scr.header) {
        werase(x->scr.header);
        pane_header_draw(x, x->scr.header);
        wnoutrefresh(x->scr.header);
    }
    if (x->scr.tabs) {
        werase(x->scr.tabs);
        pane_tabs_draw(x, x->scr.tabs);
        wnoutrefresh(x->scr.tabs);
    }
    for (int i = 0; i < PANE_COUNT; i++) {
        if (!x->scr.win[i])
            continue;
        werase(x->scr.win[i]);
        DRAW[i](x, x->scr.win[i]);
        wnoutrefresh(x->scr.win[i]);
    }
    if (x->scr.bar) {
        werase(x->scr.bar);
        pane_bar_draw(x, x->scr.bar);
        wnoutrefresh(x->scr.bar);
    }
    if (x->ov.kind == OVERLAY_HELP)
        pane_help_draw(x);
    else if (x->ov.kind == OVERLAY_LIST)
        pane_list_draw(x);
    else if (x->ov.kind == OVERLAY_CALIB)
        pane_calib_draw(x);
    doupdate();
}

int explorer_run(explorer *x)
{
    int dirty = 1;
    while (!term_quit_requested()) {
        if (explorer_poll(x))
            dirty = 1;
        if (dirty)
            explorer_frame(x);
        dirty = 0;
        wtimeout(stdscr, x->cal.job ? 100 : 250);
        int ch = wgetch(stdscr);
        if (term_quit_requested())
            break;
        if (ch == ERR)
            continue;
        dirty = 1;
        if (explorer_key(x, ch))
            break;
    }
    return 0;
}
