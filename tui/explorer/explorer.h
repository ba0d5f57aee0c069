/*
 * explorer.h - the interactive explorer: UI state, the engine results it
 * shows, key handling and the frame loop.
 *
 * One frame: a key (or a mouse event, through the same key table) changes
 * the state; the update step rebuilds the scenario and asks the engine
 * again for exactly the result blocks whose inputs changed (results live
 * inside the explorer, allocated once) and clamps every scroll position;
 * then every pane draws from a read-only view of it all (werase -> draw ->
 * wnoutrefresh) and doupdate() is called once.
 *
 * The explorer never opens the terminal itself: term_open() first (or the
 * test's newterm), then explorer_new(), explorer_run() or
 * explorer_key()/explorer_frame(), explorer_free(), term_close().
 */
#ifndef SHARDSCOPE_EXPLORER_H
#define SHARDSCOPE_EXPLORER_H

#include <stddef.h>

#include "preset.h"
#include "term.h"

typedef struct explorer explorer;

/* The most keys explorer_step handles before it draws. */
#define EXPLORER_KEYS_PER_FRAME 256

/* Preselection (NULL / 0: defaults). */
typedef struct explorer_opts {
    const char *model, *gpu, *link, *inter_link;
    const char *framework; /* NULL: generic */
    int gpus;            /* 1..1024 */
    int gpus_per_node;   /* 0: the GPU's NVLink domain (or node) */
    double vram_gb;      /* 0: the GPU's capacity */
    const char *export_dir; /* NULL: $SHARDSCOPE_EXPORT_DIR or "." */
    /* The workload (a scenario file): 0 / -1 keep the explorer's default. */
    int batch, prompt, gen; /* 0: 1, 1024, 256 */
    int microbatches;       /* -1: auto; 0.. as the control */
    int dtype, schedule, objective; /* -1: fp16, gpipe, latency */
    engine_plan plan;       /* tp > 0: select this plan when it is ranked */
    int spec_method;        /* -1: none; else an engine_spec_method at its defaults */
    int spec_k, spec_pct;   /* -1: the method's default k / acceptance (in %) */
    const char *message;    /* NULL, or a line for the bar at the start */
} explorer_opts;

void explorer_opts_defaults(explorer_opts *o);

/* Create the explorer over a loaded preset db (borrowed; must outlive it)
 * for an open terminal with the given capabilities.  0 ok with *out owned
 * by the caller (explorer_free); -1 with *out NULL and err (may be NULL)
 * filled: unknown preset name, empty db, out of memory. */
int explorer_new(const preset_db *db, const explorer_opts *o,
                 const term_caps *caps, explorer **out, engine_error *err);
void explorer_free(explorer *x);

/* Handle one key (a curses key code, KEY_RESIZE or KEY_MOUSE included).
 * Returns 1 when the explorer should quit. */
int explorer_key(explorer *x, int ch);
/* Bring results up to date and draw one frame (one doupdate). */
void explorer_frame(explorer *x);
/* One turn of the loop: wait up to timeout_ms (0: not at all) for a key,
 * a signal or calibration progress; handle that key and every key already
 * waiting (at most EXPLORER_KEYS_PER_FRAME), then draw one frame if anything
 * changed.  That frame leaves the slow blocks of the selected plan (the
 * Pareto view, the load line) marked "updating" when they are out of
 * date; the next turn computes them without waiting, unless a key is
 * already there, and draws them.  An ESC followed at once by bytes curses did not recognise
 * (Alt+x, another terminal's End) is named on the bar and ignored; only a
 * bare Esc is Esc.  The first SIGINT while a calibration runs cancels it;
 * any other signal quits.  Returns 1 when the explorer should quit. */
int explorer_step(explorer *x, int timeout_ms);
/* The loop: a frame, then explorer_step until it says quit (q / Esc; Esc
 * and the first Ctrl-C cancel a running calibration first / a signal).
 * Returns 0 after a key, or the number of the signal that ended it (the
 * caller restores the terminal, then term_exit_signalled). */
int explorer_run(explorer *x);

/* Poll a running calibration (never blocks): 1 when its progress or
 * state changed (a frame is due), 0 otherwise.  explorer_run calls it
 * every 100 ms while a job runs. */
int explorer_poll(explorer *x);

/* Register the calibration hook (explorer_calib.h; borrowed, must outlive
 * x; NULL: none, `c` says calibration is not available) and reload the
 * calibration of the selected GPU through it.  A running job of the
 * previous hook is released first.  An explorer starts with none. */
struct explorer_calib_ops;
void explorer_set_calib_ops(explorer *x, const struct explorer_calib_ops *ops);

/* The last message shown on the bar ("" if none). */
const char *explorer_message(const explorer *x);

#endif /* SHARDSCOPE_EXPLORER_H */
