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
    return &x->db->models[x->ctl[CTL_MODEL].value];
}

const engine_gpu *exp_gpu(const explorer *x)
{
    return &x->db->gpus[x->ctl[CTL_GPU].value];
}

const engine_link *exp_link(const explorer *x, int ctl)
{
    return &x->db->links[x->ctl[ctl].value];
}

void exp_inputs_get(const explorer *x, exp_inputs *in)
{
    memset(in, 0, sizeof *in);
    for (int i = 0; i < CTL_COUNT; i++)
        in->v[i] = x->ctl[i].value;
    in->calib_serial = x->calib_serial;
    in->framework = x->framework;
}

const engine_framework *exp_framework(const explorer *x)
{
    if (x->framework >= 0 && x->framework < x->db->n_frameworks)
        return &x->db->frameworks[x->framework];
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
        slider_set(&x->ctl[CTL_INTRA], ii);
    if (oi >= 0)
        slider_set(&x->ctl[CTL_INTER], oi);
    if (k > 0)
        slider_set(&x->ctl[CTL_PER_NODE], k);
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
    slider_set_range(&x->ctl[CTL_PROMPT], 1, ctx);
    slider_set_range(&x->ctl[CTL_GEN], 1, ctx);
}

static void calib_for_gpu(explorer *x)
{
    memset(&x->calib, 0, sizeof x->calib);
    if (x->calib_ops && x->calib_ops->load_for_gpu &&
        x->calib_ops->load_for_gpu(exp_gpu(x)->name, &x->calib) != 1)
        memset(&x->calib, 0, sizeof x->calib);
    x->calib_serial++;
}

/* Side effects of a changed control (ranges, the VRAM default). */
static void ctl_changed(explorer *x, int ctl)
{
    if (ctl == CTL_MODEL) {
        set_context_ranges(x);
    } else if (ctl == CTL_GPU) {
        slider_set(&x->ctl[CTL_VRAM], exp_gb_of(exp_gpu(x)->memory_bytes));
        topology_for_gpu(x);
        calib_for_gpu(x);
    }
}

static void apply_inputs(explorer *x, const exp_inputs *in)
{
    for (int i = 0; i < CTL_COUNT; i++) {
        if (i == CTL_PROMPT || i == CTL_GEN)
            continue;
        slider_set(&x->ctl[i], in->v[i]);
    }
    x->framework = in->framework;
    set_context_ranges(x);
    slider_set(&x->ctl[CTL_PROMPT], in->v[CTL_PROMPT]);
    slider_set(&x->ctl[CTL_GEN], in->v[CTL_GEN]);
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
    x->grid = calloc(EXP_GRID_MAX, sizeof *x->grid);
    if (!x->r.plans || !x->r.tails_done || !x->grid) {
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
    x->ctl[CTL_MODEL] = slider_make("Model", "", SLIDER_LIST, mi, 0, n_models - 1, 1, 4);
    x->ctl[CTL_GPU] = slider_make("GPU", "", SLIDER_LIST, gi, 0, db->n_gpus - 1, 1, 4);
    x->ctl[CTL_INTRA] = slider_make("Intra link", "", SLIDER_LIST, li, 0, n_links - 1, 1, 4);
    x->ctl[CTL_INTER] = slider_make("Inter link", "", SLIDER_LIST, ii, 0, n_links - 1, 1, 4);
    x->ctl[CTL_GPUS] = slider_make("GPU count", "GPUs", SLIDER_POW2,
                                   o && o->gpus > 0 ? o->gpus : 8, 1, EXP_MAX_GPUS, 1, 1);
    x->ctl[CTL_PER_NODE] = slider_make("GPUs/node", "GPUs", SLIDER_LINEAR,
                                       o && o->gpus_per_node > 0 ? o->gpus_per_node : 8, 1,
                                       EXP_MAX_PER_NODE, 1, 8);
    x->ctl[CTL_VRAM] = slider_make("VRAM/GPU", "GB", SLIDER_LINEAR,
                                   o && o->vram_gb > 0 ? (int)(o->vram_gb + 0.5)
                                                       : exp_gb_of(db->gpus[gi].memory_bytes),
                                   1, 1024, 1, 8);
    x->ctl[CTL_BATCH] = slider_make("Batch", "seq", SLIDER_GEOM, d.batch, 1, 4096, 1, 1);
    x->ctl[CTL_PROMPT] = slider_make("Prompt", "tok", SLIDER_GEOM, d.prompt, 1, 131072, 128, 1);
    x->ctl[CTL_GEN] = slider_make("Generate", "tok", SLIDER_GEOM, d.gen, 1, 131072, 32, 1);
    x->ctl[CTL_DTYPE] = slider_make("Weights", "", SLIDER_LIST, (int)d.weight_dtype, 0,
                                    ENGINE_DTYPE_COUNT - 1, 1, 1);
    x->ctl[CTL_MICRO] = slider_make("Microbatch", "", SLIDER_GEOM, d.microbatches, 0, 256, 1, 1);
    x->ctl[CTL_SCHED] = slider_make("Schedule", "", SLIDER_LIST, (int)d.schedule, 0,
                                    ENGINE_SCHED_COUNT - 1, 1, 1);
    x->ctl[CTL_OBJECTIVE] = slider_make("Objective", "", SLIDER_LIST, (int)d.objective, 0,
                                        ENGINE_OBJ_COUNT - 1, 1, 1);
    set_context_ranges(x);
    slider_set(&x->ctl[CTL_PROMPT], d.prompt);
    slider_set(&x->ctl[CTL_GEN], d.gen);

    /* The GPU's usual links and NVLink domain, unless given. */
    {
        const engine_link *ul = NULL, *uo = NULL;
        int k = 0;
        preset_gpu_topology(db, &db->gpus[gi], &ul, &uo, &k);
        int a = link_index(db, ul), b = link_index(db, uo);
        if (!(o && o->link) && a >= 0)
            slider_set(&x->ctl[CTL_INTRA], a);
        if (!(o && o->inter_link) && b >= 0)
            slider_set(&x->ctl[CTL_INTER], b);
        if (!(o && o->gpus_per_node > 0) && k > 0)
            slider_set(&x->ctl[CTL_PER_NODE], k);
    }
    x->framework = -1;
    for (int i = 0; i < db->n_frameworks; i++)
        if (!strcasecmp(db->frameworks[i].name, o && o->framework ? o->framework : "generic"))
            x->framework = i;
    if (o && o->framework && x->framework < 0) {
        explorer_free(x);
        snprintf(msg, len, "unknown framework '%s'", o->framework);
        return -1;
    }
    x->have_bands = val_bands_shipped(&x->bands) == 0;
    x->calib_ops = NULL; /* until explorer_set_calib_ops */
    calib_for_gpu(x);
    exp_inputs_get(x, &x->initial);
    x->focus = PANE_CONTROLS;
    x->ctl_sel = CTL_GPUS;
    x->tab = PANE_CONTROLS;
    x->need_layout = 1;
    *out = x;
    return 0;
}

static void destroy_windows(explorer *x)
{
    for (int i = 0; i < PANE_COUNT; i++)
        if (x->win[i]) {
            delwin(x->win[i]);
            x->win[i] = NULL;
        }
    WINDOW **ws[] = {&x->w_header, &x->w_tabs, &x->w_bar, &x->w_overlay};
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
    if (x->calib_job && x->calib_ops && x->calib_ops->release)
        x->calib_ops->release(x->calib_job);
    destroy_windows(x);
    free(x->cview);
    free(x->cview_session);
    free(x->cview_grid);
    free(x->r.plans);
    free(x->r.tails_done);
    free(x->grid);
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
    int n = x->ctl[x->list_ctl].max + 1;
    int cur = x->list_n > 0 && x->list_sel < x->list_n ? x->list_idx[x->list_sel] : -1;
    x->list_n = 0;
    for (int i = 0; i < n && x->list_n < (int)(sizeof x->list_idx / sizeof x->list_idx[0]);
         i++) {
        const char *disp;
        const char *name = list_name(x, x->list_ctl, i, &disp);
        if (contains_ci(name, x->filter) || contains_ci(disp, x->filter))
            x->list_idx[x->list_n++] = i;
    }
    x->list_sel = 0;
    for (int i = 0; i < x->list_n; i++)
        if (x->list_idx[i] == cur)
            x->list_sel = i;
    x->list_top = 0;
}

static void open_list(explorer *x, int ctl, int filter_mode)
{
    x->overlay = OVERLAY_LIST;
    x->list_ctl = ctl;
    x->filter[0] = '\0';
    x->filter_len = 0;
    x->list_n = 0;
    list_refilter(x);
    for (int i = 0; i < x->list_n; i++)
        if (x->list_idx[i] == x->ctl[ctl].value)
            x->list_sel = i;
    if (filter_mode)
        exp_set_msg(x, "type to filter models, Enter to choose, Esc to cancel");
}

static void set_ctl(explorer *x, int ctl, int value)
{
    int old = x->ctl[ctl].value;
    slider_set(&x->ctl[ctl], value);
    if (x->ctl[ctl].value != old)
        ctl_changed(x, ctl);
}

static int list_key(explorer *x, int ch)
{
    switch (ch) {
    case 27:
        x->overlay = OVERLAY_NONE;
        exp_set_msg(x, "%s", "");
        return 0;
    case KEY_UP:
        if (x->list_sel > 0)
            x->list_sel--;
        return 0;
    case KEY_DOWN:
        if (x->list_sel < x->list_n - 1)
            x->list_sel++;
        return 0;
    case KEY_PPAGE:
        x->list_sel = x->list_sel > 8 ? x->list_sel - 8 : 0;
        return 0;
    case KEY_NPAGE:
        x->list_sel = x->list_sel + 8 < x->list_n ? x->list_sel + 8 : x->list_n - 1;
        if (x->list_sel < 0)
            x->list_sel = 0;
        return 0;
    case KEY_HOME:
        x->list_sel = 0;
        return 0;
    case KEY_END:
        x->list_sel = x->list_n > 0 ? x->list_n - 1 : 0;
        return 0;
    case '\n':
    case '\r':
    case KEY_ENTER:
        if (x->list_n > 0) {
            set_ctl(x, x->list_ctl, x->list_idx[x->list_sel]);
            const char *disp;
            list_name(x, x->list_ctl, x->list_idx[x->list_sel], &disp);
            exp_set_msg(x, "%s: %s", x->ctl[x->list_ctl].label, disp);
        }
        x->overlay = OVERLAY_NONE;
        return 0;
    case KEY_BACKSPACE:
    case 127:
    case 8:
        if (x->filter_len > 0) {
            x->filter[--x->filter_len] = '\0';
            list_refilter(x);
        }
        return 0;
    default:
        if (ch >= 32 && ch < 127 && x->filter_len < EXP_FILTER_MAX - 1) {
            x->filter[x->filter_len++] = (char)ch;
            x->filter[x->filter_len] = '\0';
            list_refilter(x);
        }
        return 0;
    }
}

static void focus_pane(explorer *x, int pane)
{
    x->focus = (pane % PANE_COUNT + PANE_COUNT) % PANE_COUNT;
    if (x->lay.mode != LAYOUT_FULL && x->tab != x->focus) {
        x->tab = x->focus;
        x->need_layout = 1;
    }
}

static void reset_all(explorer *x)
{
    apply_inputs(x, &x->initial);
    calib_for_gpu(x);
    x->plan_sel = x->plan_top = 0;
    x->details_top = 0;
    x->heat_mode_done = HEAT_BY_GPUS;
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
    if (!x->calib_ops || !x->calib_ops->start) {
        exp_set_msg(x, "calibration not available in this build");
        return;
    }
    if (x->calib_job) {
        exp_set_msg(x, "calibration already running (Esc cancels)");
        return;
    }
    char why[200] = "";
    x->calib_job = x->calib_ops->start(x->db, x->ctl[CTL_GPU].value, why, sizeof why);
    if (!x->calib_job) {
        exp_set_msg(x, "calibration: %s", why[0] ? why : "could not start");
        snprintf(x->calib_note, sizeof x->calib_note, "could not start: %s",
                 why[0] ? why : "(no reason given)");
        return;
    }
    x->calib_gpu = x->ctl[CTL_GPU].value;
    x->calib_progress = 0;
    snprintf(x->calib_step, sizeof x->calib_step, "starting");
    /* The bar shows the progress; a message would only repeat it. */
    x->msg[0] = '\0';
}

/* Esc (or q) while a job runs: the release op cancels it and waits; the
 * stored calibration file is untouched, the one in use stays. */
static void cancel_calibration(explorer *x)
{
    if (!x->calib_job)
        return;
    if (x->calib_ops && x->calib_ops->release)
        x->calib_ops->release(x->calib_job);
    x->calib_job = NULL;
    x->calib_progress = 0;
    x->calib_step[0] = '\0';
    snprintf(x->calib_note, sizeof x->calib_note,
             "cancelled; the previous calibration was kept");
    exp_set_msg(x, "calibration cancelled; %s still in use",
                x->calib.measured ? "the previous calibration" : "datasheet defaults");
}

/* A finished run's points and fits for the view. */
static void keep_session_view(explorer *x)
{
    if (!x->calib_ops->job_view)
        return;
    if (!x->cview_session && !(x->cview_session = malloc(sizeof *x->cview_session)))
        return;
    x->have_session = x->calib_ops->job_view(x->calib_job, x->cview_session) == 1;
}

int explorer_poll(explorer *x)
{
    if (!x->calib_job || !x->calib_ops || !x->calib_ops->poll)
        return 0;
    engine_calib got;
    memset(&got, 0, sizeof got);
    double prog = x->calib_progress;
    char step[EXP_MSG_MAX]; /* a failure's whole reason, not only a step label */
    snprintf(step, sizeof step, "%s", x->calib_step);
    int st = x->calib_ops->poll(x->calib_job, &prog, step, sizeof step, &got);
    if (st == 0) {
        /* Redraw only when the bar would change (whole percent or step). */
        int changed = (int)(prog * 100) != (int)(x->calib_progress * 100) ||
                      strncmp(step, x->calib_step, sizeof x->calib_step - 1) != 0;
        x->calib_progress = prog;
        snprintf(x->calib_step, sizeof x->calib_step, "%.95s", step);
        return changed;
    }
    if (st == 1)
        keep_session_view(x);
    if (x->calib_ops->release)
        x->calib_ops->release(x->calib_job);
    x->calib_job = NULL;
    x->calib_progress = 0;
    x->calib_step[0] = '\0';
    if (st == 1 && x->ctl[CTL_GPU].value != x->calib_gpu) {
        /* The GPU changed while measuring: the result belongs to the GPU it
         * was started for (saved; it applies when that GPU is selected). */
        snprintf(x->calib_note, sizeof x->calib_note,
                 "measured %s; saved for %s, not applied to %s", got.device,
                 x->db->gpus[x->calib_gpu].name, exp_gpu(x)->name);
        exp_set_msg(x, "calibration done for %s: select that GPU to use it",
                    x->db->gpus[x->calib_gpu].display);
    } else if (st == 1) {
        x->calib = got;
        x->calib_serial++;
        x->calib_note[0] = '\0';
        if (step[0])
            exp_set_msg(x, "calibration done: %s (v shows the fit)", step);
        else
            exp_set_msg(x, "calibration done: now using the measured model (v shows the fit)");
    } else {
        snprintf(x->calib_note, sizeof x->calib_note, "failed: %.240s", step);
        exp_set_msg(x, "calibration failed: %s", step);
    }
    return 1;
}

const explorer_calib_view *exp_calib_view(explorer *x)
{
    if (!x->calib.measured)
        return NULL;
    if (x->cview_valid && x->cview_serial == x->calib_serial)
        return x->cview_have ? x->cview : NULL;
    x->cview_valid = 1;
    x->cview_serial = x->calib_serial;
    x->cview_have = 0;
    if (!x->cview && !(x->cview = malloc(sizeof *x->cview)))
        return NULL;
    if (x->have_session && !strcmp(x->cview_session->device, x->calib.device) &&
        !strcmp(x->cview_session->date, x->calib.date)) {
        memcpy(x->cview, x->cview_session, sizeof *x->cview);
        x->cview_have = 1;
    } else if (x->calib_ops && x->calib_ops->view &&
               x->calib_ops->view(exp_gpu(x)->name, x->cview) == 1) {
        x->cview_have = 1;
    }
    return x->cview_have ? x->cview : NULL;
}

void explorer_set_calib_ops(explorer *x, const explorer_calib_ops *ops)
{
    if (x->calib_job && x->calib_ops && x->calib_ops->release)
        x->calib_ops->release(x->calib_job);
    x->calib_job = NULL;
    x->calib_ops = ops;
    x->have_session = 0;
    x->cview_valid = 0;
    calib_for_gpu(x);
}

static void open_calib_view(explorer *x)
{
    if (!x->cview_grid && !(x->cview_grid = malloc(EXP_GRID_MAX))) {
        exp_set_msg(x, "calibration view: out of memory");
        return;
    }
    x->overlay = OVERLAY_CALIB;
}

static void adjust_ctl(explorer *x, int ctl, int dir, int big)
{
    int old = x->ctl[ctl].value;
    slider_step(&x->ctl[ctl], dir, big);
    if (x->ctl[ctl].value != old)
        ctl_changed(x, ctl);
}

static int controls_key(explorer *x, int ch)
{
    switch (ch) {
    case KEY_UP:
    case 'k':
        x->ctl_sel = (x->ctl_sel + CTL_COUNT - 1) % CTL_COUNT;
        return 1;
    case KEY_DOWN:
    case 'j':
        x->ctl_sel = (x->ctl_sel + 1) % CTL_COUNT;
        return 1;
    case KEY_LEFT:
    case 'h':
        adjust_ctl(x, x->ctl_sel, -1, 0);
        return 1;
    case KEY_RIGHT:
    case 'l':
        adjust_ctl(x, x->ctl_sel, 1, 0);
        return 1;
    case '+':
    case '=':
    case KEY_NPAGE:
        adjust_ctl(x, x->ctl_sel, 1, 1);
        return 1;
    case '-':
    case '_':
    case KEY_PPAGE:
        adjust_ctl(x, x->ctl_sel, -1, 1);
        return 1;
    case KEY_HOME:
        set_ctl(x, x->ctl_sel, x->ctl[x->ctl_sel].min);
        return 1;
    case KEY_END:
        set_ctl(x, x->ctl_sel, x->ctl[x->ctl_sel].max);
        return 1;
    case '\n':
    case '\r':
    case KEY_ENTER:
        if (is_selector(x->ctl_sel))
            open_list(x, x->ctl_sel, 0);
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
        if (x->plan_sel > 0)
            x->plan_sel--;
        return 1;
    case KEY_DOWN:
    case 'j':
        if (x->plan_sel < n - 1)
            x->plan_sel++;
        return 1;
    case KEY_PPAGE:
        x->plan_sel = x->plan_sel > rows ? x->plan_sel - rows : 0;
        return 1;
    case KEY_NPAGE:
        x->plan_sel = x->plan_sel + rows < n ? x->plan_sel + rows : (n > 0 ? n - 1 : 0);
        return 1;
    case KEY_HOME:
        x->plan_sel = 0;
        return 1;
    case KEY_END:
        x->plan_sel = n > 0 ? n - 1 : 0;
        return 1;
    case '\n':
    case '\r':
    case KEY_ENTER:
        x->details_top = 0;
        if (x->lay.mode != LAYOUT_FULL)
            focus_pane(x, PANE_DETAILS);
        exp_set_msg(x, "details of plan #%d", x->plan_sel + 1);
        return 1;
    }
    return gpus_key(x, ch);
}

static int details_key(explorer *x, int ch)
{
    switch (ch) {
    case KEY_UP:
    case 'k':
        if (x->details_top > 0)
            x->details_top--;
        return 1;
    case KEY_DOWN:
    case 'j':
        x->details_top++;
        return 1;
    case KEY_PPAGE:
        x->details_top = x->details_top > 8 ? x->details_top - 8 : 0;
        return 1;
    case KEY_NPAGE:
        x->details_top += 8;
        return 1;
    case KEY_HOME:
        x->details_top = 0;
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
        x->heat_mode_done = !x->heat_mode_done;
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
        x->eff_view = !x->eff_view;
        return 1;
    }
    return gpus_key(x, ch);
}

static void mouse_event(explorer *x)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return;
    if (x->overlay == OVERLAY_HELP || x->overlay == OVERLAY_CALIB) {
        x->overlay = OVERLAY_NONE;
        return;
    }
    if (x->overlay != OVERLAY_NONE)
        return;
    int wheel = (ev.bstate & BUTTON4_PRESSED) ? 1 : (ev.bstate & BUTTON5_PRESSED) ? -1 : 0;
    if (x->lay.mode == LAYOUT_COMPACT && ev.y == x->lay.tabs.y && !wheel) {
        for (int t = 0; t < PANE_COUNT; t++)
            if (ev.x >= x->tab_x[t] && ev.x < x->tab_x[t + 1])
                focus_pane(x, t);
        return;
    }
    int p = layout_pane_at(&x->lay, ev.y, ev.x);
    if (p < 0)
        return;
    layout_rect rc = x->lay.pane[p];
    if (wheel) {
        if (p == PANE_CONTROLS) {
            adjust_ctl(x, x->ctl_sel, wheel, 0);
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
    x->focus = p;
    if (p == PANE_CONTROLS) {
        int c = pane_controls_at(x, ev.y - rc.y, ev.x - rc.x);
        if (c >= 0)
            x->ctl_sel = c;
    } else if (p == PANE_STRATEGIES) {
        int row = ev.y - rc.y - 1 - pane_strategies_first_row();
        if (row >= 0 && x->plan_top + row < x->r.n_plans)
            x->plan_sel = x->plan_top + row;
    } else if (p == PANE_HEAT) {
        x->heat_mode_done = !x->heat_mode_done;
    } else if (p == PANE_EFFICIENCY) {
        x->eff_view = !x->eff_view;
    }
}

int explorer_key(explorer *x, int ch)
{
    if (ch == ERR)
        return 0;
    if (ch == KEY_RESIZE) {
        x->need_layout = 1;
        return 0;
    }
    if (ch == KEY_MOUSE) {
        mouse_event(x);
        return 0;
    }
    if (x->overlay == OVERLAY_HELP) {
        x->overlay = OVERLAY_NONE;
        return 0;
    }
    if (x->overlay == OVERLAY_LIST)
        return list_key(x, ch);
    if (x->overlay == OVERLAY_CALIB) {
        /* c measures again with the view open; any other key closes it. */
        x->msg[0] = '\0';
        if (ch == 'c')
            do_calibrate(x);
        else
            x->overlay = OVERLAY_NONE;
        return 0;
    }
    if (x->lay.mode == LAYOUT_TOO_SMALL && ch != 'q' && ch != 'Q' && ch != 27)
        return 0;
    x->msg[0] = '\0';
    switch (ch) {
    case 27:
        if (x->calib_job) {
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
        focus_pane(x, x->focus + 1);
        return 0;
    case KEY_BTAB:
        focus_pane(x, x->focus - 1);
        return 0;
    case '?':
        x->overlay = OVERLAY_HELP;
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
            x->framework = (x->framework + 1) % x->db->n_frameworks;
            exp_set_msg(x, "framework: %s", x->db->frameworks[x->framework].display);
        }
        return 0;
    case 'm':
        x->heat_mode_done = !x->heat_mode_done;
        exp_set_msg(x, "heatmap: %s", x->heat_mode_done == HEAT_BY_MODELS
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
    switch (x->focus) {
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
    getmaxyx(stdscr, x->rows, x->cols);
    layout_compute(x->rows, x->cols, x->tab, &x->lay);
    if (x->lay.mode == LAYOUT_FULL) {
        x->tab = x->focus;
    } else if (x->lay.mode == LAYOUT_COMPACT && x->tab != x->focus) {
        /* The tab follows the focus (the first tab also shows the plans). */
        if (!(x->tab == PANE_CONTROLS && x->focus == PANE_STRATEGIES)) {
            x->tab = x->focus;
            layout_compute(x->rows, x->cols, x->tab, &x->lay);
        }
    }
    if (x->lay.mode != LAYOUT_TOO_SMALL) {
        for (int i = 0; i < PANE_COUNT; i++)
            x->win[i] = make_win(x->lay.pane[i]);
        x->w_header = make_win(x->lay.header);
        x->w_tabs = make_win(x->lay.tabs);
        x->w_bar = make_win(x->lay.bar);
    }
    x->need_layout = 0;
}

typedef void (*pane_draw_fn)(explorer *, WINDOW *);

static void draw_too_small(explorer *x)
{
    static const char MSG[] = "terminal too small (needs 80x24)";
    werase(stdscr);
    int w = x->cols, len = (int)strlen(MSG);
    int y = x->rows / 2, xx = (w - len) / 2;
    if (xx < 0)
        xx = 0;
    if (x->rows > 0 && w > 0)
        mvwaddnstr(stdscr, y, xx, MSG, w - xx);
    wnoutrefresh(stdscr);
}

void explorer_frame(explorer *x)
{
    int r, c;
    getmaxyx(stdscr, r, c);
    if (r != x->rows || c != x->cols)
        x->need_layout = 1;
    if (x->need_layout)
        apply_layout(x);
    if (x->lay.mode == LAYOUT_TOO_SMALL) {
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
    if (x->w_header) {
        werase(x->w_header);
        pane_header_draw(x, x->w_header);
        wnoutrefresh(x->w_header);
    }
    if (x->w_tabs) {
        werase(x->w_tabs);
        pane_tabs_draw(x, x->w_tabs);
        wnoutrefresh(x->w_tabs);
    }
    for (int i = 0; i < PANE_COUNT; i++) {
        if (!x->win[i])
            continue;
        werase(x->win[i]);
        DRAW[i](x, x->win[i]);
        wnoutrefresh(x->win[i]);
    }
    if (x->w_bar) {
        werase(x->w_bar);
        pane_bar_draw(x, x->w_bar);
        wnoutrefresh(x->w_bar);
    }
    if (x->overlay == OVERLAY_HELP)
        pane_help_draw(x);
    else if (x->overlay == OVERLAY_LIST)
        pane_list_draw(x);
    else if (x->overlay == OVERLAY_CALIB)
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
        wtimeout(stdscr, x->calib_job ? 100 : 250);
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
