/*
 * explorer_int.h - the explorer's state, shared by the files of tui/explorer, the
 * panes (panes/) and the screen tests.  Not a public interface.
 */
#ifndef SHARDSCOPE_EXPLORER_INT_H
#define SHARDSCOPE_EXPLORER_INT_H

#include <curses.h>

#include "engine.h"
#include "sim.h"
#include "disagg.h"
#include "preset.h"
#include "explorer.h"
#include "explorer_calib.h"
#include "fmt.h"
#include "layout.h"
#include "pareto.h"
#include "listview.h"
#include "slider.h"
#include "table.h"
#include "term.h"
#include "theme.h"

#define EXP_MAX_PLANS 1024
#define EXP_MAX_LINKS 32
#define EXP_MAX_MODELS 64
#define EXP_EFF_COUNTS 7    /* 2, 4, ..., 128 */
#define EXP_CMP_COUNTS 6    /* TP vs PP vs hybrid: 2 .. 64 */
#define EXP_HEAT_COUNTS 10  /* 2 .. 1024 */
#define EXP_FRONT_COUNTS 11 /* 1 .. 1024 */
#define EXP_MEM_SIZES 6
#define EXP_MAX_GPUS 1024
#define EXP_MAX_PER_NODE 72 /* GB200 NVL72 */
#define EXP_MSG_MAX 1100 /* a copied eval line (`y`) fits whole; the bar shows what fits */
#define EXP_FILTER_MAX 48
#define EXP_GRID_MAX (300 * 100) /* frontier raster cells (plot area) */
/* Plan-and-batch points of the Pareto view: every plan at most batch count. */
#define EXP_PARETO_MAX (EXP_MAX_PLANS * ENGINE_PARETO_BATCHES)

typedef enum ctl_id {
    CTL_MODEL = 0,
    CTL_GPU,
    CTL_INTRA,
    CTL_INTER,
    CTL_GPUS,
    CTL_PER_NODE,
    CTL_VRAM,
    CTL_BATCH,
    CTL_PROMPT,
    CTL_GEN,
    CTL_DTYPE,
    CTL_MICRO,
    CTL_SCHED,
    CTL_OBJECTIVE,
    CTL_RATE,      /* the load line: request rate, tenths of a request/s */
    CTL_TTFT,      /* its TTFT target, ms */
    CTL_ITL,       /* its TPOT (ITL) target, ms */
    CTL_COUNT
} ctl_id;

/* The first control the load line alone reads (the other blocks ignore
 * CTL_RATE .. CTL_ITL). */
#define CTL_FIRST_LOAD CTL_RATE
/* Requests of the explorer's load simulation (README: how far it is from
 * a full `shardscope load`). */
#define EXP_LOAD_REQUESTS 200

enum { HEAT_BY_GPUS = 0, HEAT_BY_MODELS = 1 };
enum { CMP_TP = 0, CMP_PP, CMP_HYBRID, CMP_KINDS };

/* Everything the engine results depend on; compared with memcmp to decide
 * what to recompute. */
typedef struct exp_inputs {
    int v[CTL_COUNT];
    int calib_serial;
    int framework; /* index into db->frameworks; -1: built-in generic */
    int spec_method, spec_k, spec_pct; /* speculative decoding: method, k, P in % */
} exp_inputs;

/* One small evaluated cell (efficiency, heatmap, comparison). */
typedef struct exp_cell {
    int ok;             /* 1: a valid plan was evaluated */
    int fits;
    double efficiency;
    double ratio;       /* compute_comm_ratio */
    char regime;
    double itl_s;
    engine_plan plan;
} exp_cell;

/* The blocks of results the update step keeps, in the order it updates
 * them. */
typedef enum exp_part {
    EXP_PART_RANK = 0, /* ranked plans at the current GPU count */
    EXP_PART_EFF,      /* TP per link, TP vs PP vs hybrid */
    EXP_PART_HEAT,     /* the regime heatmap */
    EXP_PART_FRONT,    /* least memory per count, min GPUs per size */
    EXP_PART_TAILS,    /* Monte Carlo tails of the plans on screen */
    EXP_PART_PARETO,   /* the Pareto frontier: only while its view is on screen */
    EXP_PART_LOAD,     /* the selected plan under load: while the details show it */
    EXP_PARTS
} exp_part;

typedef struct exp_results {
    engine_scenario sc;            /* the scenario of the current inputs */
    /* Ranked plans for the current GPU count. */
    engine_result *plans;          /* EXP_MAX_PLANS, allocated once */
    /* Pareto view: every plan and batch (engine_pareto_points: marked,
     * sorted from the per-user end); EXP_PARETO_MAX, allocated once. */
    engine_pareto_point *pareto;
    int n_pareto;
    unsigned char *tails_done;     /* per plan */
    int n_plans;
    int n_plans_all; /* engine_plan_count: more than n_plans when the
                      * ranking kept only the best EXP_MAX_PLANS */
    int rank_failed;
    char rank_err[ENGINE_ERROR_MAX];
    /* Efficiency: TP over N GPUs per link (link everywhere). */
    int eff_counts[EXP_EFF_COUNTS];
    exp_cell eff[EXP_MAX_LINKS][EXP_EFF_COUNTS];
    /* TP vs PP vs best hybrid in the current cluster. */
    int cmp_counts[EXP_CMP_COUNTS];
    exp_cell cmp[CMP_KINDS][EXP_CMP_COUNTS];
    /* Heatmap: rows x cols of compute/comm ratios. */
    int heat_mode;
    int heat_rows, heat_cols;
    int heat_counts[EXP_HEAT_COUNTS];
    exp_cell heat[EXP_MAX_MODELS][EXP_MAX_LINKS];
    /* Frontier: memory per GPU of the least-memory plan at each count. */
    int front_counts[EXP_FRONT_COUNTS];
    engine_memory front_mem[EXP_FRONT_COUNTS];
    engine_plan front_plan[EXP_FRONT_COUNTS];
    int front_ok[EXP_FRONT_COUNTS];
    double front_capacity;         /* bytes usable per GPU (VRAM slider) */
    double mem_sizes_gb[EXP_MEM_SIZES];
    int min_gpus[EXP_MEM_SIZES];
    /* The plan list as shown (plans.c): indices into plans in the sort
     * order, "fits only" applied; the plans listview runs over it. */
    int order[EXP_MAX_PLANS];
    int n_shown;
    /* What each block was computed from (its cache key). */
    exp_inputs in_part[EXP_PARTS];
    int have[EXP_PARTS];
    /* Deferred blocks (exp_part_deferred) out of date after a quick
     * update: computed when no key waits (exp_update_deferred); their
     * panes say "updating" meanwhile. */
    int pending[EXP_PARTS];
    /* The selected plan kernel by kernel (details page 2, `x`): computed
     * by the update step while that page is shown; explain_ok 0: none
     * (no plan, or it is invalid or does not fit). */
    engine_explain explain;
    int explain_ok;
    /* The selected plan under the load controls (details pane): a
     * simulation of EXP_LOAD_REQUESTS requests and the sustainable rate,
     * cached by the inputs and the plan; load_ok 0: none (no plan, or it is
     * invalid or does not fit).  The stepper and workspace are allocated
     * once (explorer_new), grown when a run needs more. */
    engine_sim_result load;
    double load_sustainable;     /* requests/s */
    exp_inputs load_sus_key;     /* what load_sustainable was computed from: the
                                  * inputs without the rate and SLO controls */
    engine_plan load_plan;
    int load_ok;
    engine_stepper *load_st;
    void *load_work;
    size_t load_work_bytes;
    /* The best xPyD split of the current GPUs by the objective
     * (engine_disagg_rank, details pane under the load line): computed with
     * the sustainable rate (the inputs without the load controls);
     * disagg_ok 0: none fits.  The arrays are allocated once. */
    engine_disagg_result *disagg;  /* ENGINE_DISAGG_RANK_MAX */
    int *disagg_order;             /* ENGINE_DISAGG_RANK_MAX */
    int n_disagg;
    int disagg_ok;
    engine_disagg_result disagg_best;
} exp_results;


typedef enum overlay_kind {
    OVERLAY_NONE = 0,
    OVERLAY_HELP,
    OVERLAY_LIST,
    OVERLAY_CALIB     /* the calibration view (`v`) */
} overlay_kind;

/* The parts of the explorer.  Keys and the update step change them; the
 * panes only read them (through exp_view, panes/pane.h). */

/* What the user set: the sliders (selectors are list sliders) and the
 * framework, all of which feed the engine. */
typedef struct exp_controls {
    slider s[CTL_COUNT];
    int sel;               /* the selected control */
    int framework;         /* index into db->frameworks; -1: built-in generic */
    int spec_method;       /* engine_spec_method (`S`; none, eagle, mtp) */
    int spec_k;            /* drafted tokens (`[` `]`) */
    int spec_pct;          /* acceptance rate in % (`{` `}`) */
    exp_inputs initial;    /* the starting values, for `r` */
} exp_controls;

/* The plan list's sort column (`s` cycles): the objective's ranking, or
 * one column (times, memory, cost ascending; tokens/s, efficiency
 * descending); plans that are not usable always follow in rank order. */
typedef enum exp_sort {
    EXP_SORT_RANK = 0,
    EXP_SORT_TTFT,
    EXP_SORT_ITL,
    EXP_SORT_E2E,
    EXP_SORT_TPS,
    EXP_SORT_VRAM,
    EXP_SORT_COST,
    EXP_SORT_EFF,
    EXP_SORTS
} exp_sort;

/* The pinned plan (`p`): a snapshot of its result and a label naming the
 * plan and the inputs it was evaluated with, so it survives any control
 * change; the details pane shows the selected plan's deltas against it. */
typedef struct exp_pin {
    int have;
    engine_result res;
    char label[256];
} exp_pin;

/* How the results are looked at: focus, compact tab, the scrolling lists
 * and the table modes. */
typedef struct exp_viewstate {
    int focus;             /* pane_id */
    int tab;               /* compact tab (a pane_id) */
    listview plans;        /* the ranked plans: selection and first row */
    listview details;      /* the details pane: first row (scroll only) */
    int heat_mode;         /* requested heatmap mode (HEAT_BY_*) */
    int heat_top, heat_left; /* the heatmap's first row and column on screen */
    int eff_view;          /* efficiency: 0 TP by link, 1 TP vs PP */
    int sort;              /* exp_sort */
    int fits_only;         /* `f`: hide plans that are invalid or do not fit */
    exp_pin pin;
    int details_page;      /* `x`: 0 the plan; 1 its kernels and constants (explain) */
    int front_view;        /* `o`: the frontier pane shows 0 the VRAM frontier,
                            * 1 the Pareto frontier */
} exp_viewstate;

/* The overlay on top of the panes: help, a selector's list (with its
 * filter) or the calibration view. */
typedef struct exp_overlay {
    overlay_kind kind;
    int ctl;               /* which selector the list picks for */
    listview list;         /* over idx[0 .. list.n) */
    char filter[EXP_FILTER_MAX];
    int filter_len;
    int idx[EXP_MAX_MODELS > 64 ? EXP_MAX_MODELS : 64];
} exp_overlay;

/* Calibration: the hook, a running job, the calibration in use and what
 * the calibration view shows (fetched again when serial changes), the
 * last run finished in this session, and the view's raster. */
typedef struct exp_calibration {
    const explorer_calib_ops *ops;
    void *job;
    double progress;
    char step[96];
    engine_calib calib;
    engine_link link;              /* the intra link with the calibration's NCCL curves */
    int serial;
    int gpu;                       /* GPU selected when the job started */
    char note[EXP_MSG_MAX];        /* how the last run ended, "" none */
    explorer_calib_view *view, *session;
    int view_valid, view_serial, view_have, have_session;
    unsigned char *grid;           /* EXP_GRID_MAX cells */
} exp_calibration;

/* The terminal side: the layout, one window per pane and the chrome. */
typedef struct exp_screen {
    layout lay;
    WINDOW *win[PANE_COUNT];
    WINDOW *header, *tabs, *bar, *overlay;
    int rows, cols;
    int need_layout;
    long frames;                   /* explorer_frame calls so far */
    struct chart_cell *grid;       /* frontier raster, EXP_GRID_MAX cells */
} exp_screen;

struct explorer {
    const preset_db *db;
    term_caps caps;
    const theme_glyphs *g;
    explorer_opts opts;
    char export_dir[512];
    char msg[EXP_MSG_MAX];
    /* The rejected-override line last put on the bar (db's string; NULL
     * when the presets in use have none), so it shows once per use. */
    const char *override_warned;
    /* The error bands of every number, from the validation cases on the
     * shipped presets. */
    engine_band_table bands;
    int have_bands;

    exp_controls ctl;
    exp_viewstate view;
    exp_overlay ov;
    exp_calibration cal;
    exp_results r;
    exp_screen scr;
};

/* A read-only view of the explorer, taken once per frame after the update
 * step: what every pane draws from.  The panes change nothing; the two
 * rasters are scratch memory the frontier and the calibration plot draw
 * through, not state. */
typedef struct exp_view {
    const preset_db *db;
    const theme_glyphs *g;
    int utf8;                        /* box drawing */
    const exp_controls *ctl;
    const exp_viewstate *view;
    const exp_overlay *ov;
    const exp_calibration *cal;
    const exp_results *r;
    const layout *lay;
    int focus;                       /* the focused pane (-1: none) */
    const char *msg;                 /* "" none */
    const engine_model *model;
    const engine_gpu *gpu;
    const engine_link *intra, *inter;
    const engine_framework *fw;      /* NULL: built-in generic */
    const engine_result *selected;   /* the selected plan, NULL: none */
    const explorer_calib_view *cview; /* the calibration view's data, NULL: none */
    struct chart_cell *raster;       /* EXP_GRID_MAX cells */
    unsigned char *cal_raster;       /* EXP_GRID_MAX cells, NULL: none */
} exp_view;

/* state.c: reads of the state (they call nothing else of the explorer). */
void exp_set_msg(explorer *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void exp_inputs_get(const explorer *x, exp_inputs *in);
const engine_model *exp_model(const explorer *x);
const engine_gpu *exp_gpu(const explorer *x);
const engine_link *exp_link(const explorer *x, int ctl);
/* The framework in use (NULL: the engine's built-in generic profile). */
const engine_framework *exp_framework(const explorer *x);
const engine_result *exp_selected_plan(const explorer *x);
/* Whole GB of a byte count, clamped to the VRAM slider's 1..4096. */
int exp_gb_of(double bytes);
/* The weights a model runs unless the user picks others (controls.c). */
int exp_model_dtype(const engine_model *m);
/* Entry i of a selector's list (model, GPU or link): its preset name, and
 * its display name in *display. */
const char *exp_choice(const preset_db *db, int ctl, int i, const char **display);

/* controls.c: the controls part (see exp_controls). */
/* The sliders and selectors from o (NULL: defaults) over x->db.  0 ok; -1
 * with err (may be NULL) naming an unknown model, GPU, link or framework. */
int exp_controls_init(explorer *x, const explorer_opts *o, engine_error *err);
int exp_ctl_is_selector(int ctl);
/* Set / step a control and apply its side effects. */
void exp_ctl_set(explorer *x, int ctl, int value);
void exp_ctl_adjust(explorer *x, int ctl, int dir, int big);
/* `r`: every control back to its starting value. */
void exp_ctl_reset(explorer *x);

/* calibration.c */
/* The calibration in use for the selected GPU (datasheet defaults when
 * the hook has none); bumps cal.serial. */
void exp_calib_load(explorer *x);
void exp_calib_start(explorer *x);
/* Esc / q while a job runs: release it, keep the calibration in use. */
void exp_calib_cancel(explorer *x);
void exp_calib_open_view(explorer *x);
/* Fetch the calibration view's data when the calibration in use changed
 * (the update step, while the view is open: this may read a file). */
void exp_calib_fetch_view(explorer *x);
/* The data fetched for the calibration in use: NULL for datasheet
 * defaults, when the hook has no points for it, or before the fetch. */
const explorer_calib_view *exp_calib_view(const explorer *x);

/* plans.c: the plan list's order, sort, filter and pin. */
/* r.order / r.n_shown from r.plans, view.sort and view.fits_only. */
void exp_plans_order(explorer *x);
const char *exp_sort_name(int sort);
/* `s`, `f`: the next sort column / "fits only" on or off, the selected
 * plan kept selected when it is still shown. */
void exp_plans_sort_next(explorer *x);
void exp_plans_fits_toggle(explorer *x);
/* `p`: pin the selected plan (a snapshot); `P`: forget the pin. */
void exp_plans_pin(explorer *x);
void exp_plans_unpin(explorer *x);

/* actions.c (the key table: keys.h, keys.c) */
void exp_focus_pane(explorer *x, int pane);

/* update.c: the scenario of the controls (x->r.sc) and every block of
 * results brought up to date, each recomputed only when its cache key
 * changed; then every scroll position clamped to what the layout shows
 * (plans, details, the selector list) and the calibration view's data
 * fetched.  exp_update_part does one block (the scenario must be current:
 * exp_update_scenario, which exp_update runs first); exp_invalidate
 * forgets every block, so the next update recomputes all (the bench). */
void exp_update(explorer *x);
/* The same in two halves, so that a key reaches the screen before the
 * slow blocks of the selected plan (the Pareto view, the load line and
 * its xPyD split: exp_part_deferred) are redone.  exp_update_quick
 * updates every other block and marks the deferred ones on screen that
 * are out of date (exp_results.pending); exp_update_deferred computes
 * those, 1 when it computed any; exp_update_pending: 1 when one waits.
 * exp_update is exp_update_quick then exp_update_deferred. */
void exp_update_quick(explorer *x);
int exp_update_deferred(explorer *x);
int exp_update_pending(const explorer *x);
int exp_part_deferred(exp_part p);
void exp_update_part(explorer *x, exp_part p);
void exp_update_scenario(explorer *x);
void exp_invalidate(explorer *x);
/* The read-only view of x for drawing. */
void exp_view_make(const explorer *x, exp_view *v);
/* Rows of plans the strategies pane shows (8 while it is hidden). */
int exp_visible_plan_rows(const explorer *x);

/* Units are formatted by tui/out (fmt.h, table.h). */

/* export.c */
int exp_export(explorer *x, char *names, size_t len);

/* command.c: the `shardscope eval ...` line of the current state and the
 * selected plan (`y`), into buf.  0 ok; -1 when it did not fit or there is
 * no model or GPU (buf then holds what fitted, or ""). */
int exp_command_line(const explorer *x, char *buf, size_t len);

/* Drawing helpers (panes/common.c).  Nothing here changes the explorer. */
void pane_frame(const exp_view *v, WINDOW *w, int pane, const char *title);
void pane_put(WINDOW *w, int y, int x, int maxw, theme_role role, const char *s);
void pane_fill(WINDOW *w, int y, int x, int n, theme_role role);
void pane_putf(WINDOW *w, int y, int x, int maxw, theme_role role,
               const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void pane_hbar(const exp_view *v, WINDOW *w, int y, int xx, int width, int filled,
               theme_role fill_role);
/* An overlay's window: filled with the popup colour and framed without a
 * focus highlight. */
void pane_popup(const exp_view *v, WINDOW *w);
/* Where the open overlay goes (hidden when the screen is too small). */
layout_rect exp_overlay_rect(const exp_view *v);
const char *pane_title(int pane);

/* The panes: each draws its whole window (already erased) from the view;
 * v->focus says which pane has the focus. */
void pane_controls_draw(const exp_view *v, WINDOW *w);
void pane_strategies_draw(const exp_view *v, WINDOW *w);
void pane_details_draw(const exp_view *v, WINDOW *w);
void pane_efficiency_draw(const exp_view *v, WINDOW *w);
void pane_heat_draw(const exp_view *v, WINDOW *w);
void pane_frontier_draw(const exp_view *v, WINDOW *w);
/* The frontier pane's Pareto view (`o`): panes/pareto.c. */
void pane_pareto_draw(const exp_view *v, WINDOW *w);
void pane_header_draw(const exp_view *v, WINDOW *w);
void pane_tabs_draw(const exp_view *v, WINDOW *w);
void pane_bar_draw(const exp_view *v, WINDOW *w);
/* The overlays, each into the window at exp_overlay_rect; the sizes they
 * ask for. */
void pane_help_draw(const exp_view *v, WINDOW *w);
void pane_list_draw(const exp_view *v, WINDOW *w);
void pane_calib_draw(const exp_view *v, WINDOW *w);
void pane_help_size(const exp_view *v, int *h, int *w);
void pane_list_size(const exp_view *v, int *h, int *w);
void pane_calib_size(const exp_view *v, int *h, int *w);
/* Rows and columns of cells the heatmap shows in an h x w window (to
 * clamp its scroll). */
void pane_heat_visible(const exp_view *v, int h, int w, int *rows, int *cols);
/* Lines of the details pane for the selected plan (to clamp its scroll). */
int pane_details_lines(const exp_view *v);
/* Rows above the first plan in the strategies pane (the header). */
int pane_strategies_first_row(void);
/* Rows of a selector list's overlay above its items (title, filter) and
 * below (border). */
#define PANE_LIST_CHROME 3

#endif /* SHARDSCOPE_EXPLORER_INT_H */
