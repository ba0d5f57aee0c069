/*
 * explorer_calib.h - the hook the calibration module plugs into the
 * explorer (the `c` key and the "calibration in use" label).
 *
 * An explorer starts with no hook: `c` then says "calibration not
 * available in this build" and the bar shows "datasheet defaults".  The
 * command that opens it registers one explicitly,
 *     explorer_set_calib_ops(x, explorer_calib_hook());
 * (tui/cli/tui.c); tests register fakes the same way.
 *
 * Every function runs on the UI thread and must not block: the
 * measurement itself belongs in the module's worker thread.
 */
#ifndef SHARDSCOPE_EXPLORER_CALIB_H
#define SHARDSCOPE_EXPLORER_CALIB_H

#include <stddef.h>

#include "engine.h"
#include "preset.h"

/* What the calibration view (`v`) shows: one calibration's measured
 * points, its two fitted curves sampled for drawing, and its figures.
 * Plain data, filled by the calibration module (explorer_calib_view_from
 * _result); the explorer only scales and draws it.  Units: SI seconds,
 * bytes/s, FLOP/s; x = h^2*b*s; MAPE a fraction. */
#define EXPLORER_CALIB_VIEW_POINTS 256
#define EXPLORER_CALIB_VIEW_CURVE 512

typedef struct explorer_calib_view_point {
    int kind;      /* points: 0 prefill, 1 decode; curves: which line (a
                      change starts a new line) */
    double x;      /* h^2*b*s */
    double time_s; /* measured (points) or predicted (curves) */
} explorer_calib_view_point;

typedef struct explorer_calib_view {
    char source[160];             /* "this session" or the file it came from */
    char device[ENGINE_NAME_MAX]; /* as the driver names it */
    char backend[16], dtype[8], date[32];
    char preset[ENGINE_NAME_MAX]; /* matched GPU preset ("" none) */
    /* Power law T = a * (h^2*b*s)^beta over the prefill points. */
    int has_power_law;
    double pl_a, pl_beta, pl_mape, pl_r2;
    int pl_n;
    /* Roofline as the engine uses it: compute + memory time + overhead. */
    int rf_engine_form;           /* 1: compute + memory (engine_roofline_s);
                                     0: max(compute, memory) */
    double rf_eta_compute, rf_eta_memory, rf_overhead_s, rf_mape, rf_r2;
    double rf_peak_flops, rf_bandwidth;
    int rf_n;
    /* Communication (alpha-beta), when measured. */
    int has_comm;
    char comm_label[64];
    double comm_alpha_s, comm_bandwidth, comm_r2;
    int n_points;
    explorer_calib_view_point points[EXPLORER_CALIB_VIEW_POINTS];
    int n_power_law;
    explorer_calib_view_point power_law[EXPLORER_CALIB_VIEW_CURVE];
    int n_roofline;
    explorer_calib_view_point roofline[EXPLORER_CALIB_VIEW_CURVE];
    /* The per-kernel fit (schema 2), when the calibration has one: its
     * constants, the error of each kernel class (EXPLORER_CALIB_CLASSES, in
     * calib_kclass order: gemm, gemv, copy, attention, launch,
     * graph_launch) and the points as kind = class, x = the fit's time,
     * time_s = measured. */
    int has_per_kernel;
    char pk_library[64], pk_model[ENGINE_NAME_MAX];
    double pk_eff, pk_peak_flops, pk_bw, pk_t0_s, pk_small_s, pk_launch_s, pk_mape;
    int pk_points;
    double pk_class_mape[6];
    int pk_class_n[6];
    int n_kpoints;
    explorer_calib_view_point kpoints[EXPLORER_CALIB_VIEW_POINTS];
} explorer_calib_view;

#define EXPLORER_CALIB_CLASSES 6

typedef struct explorer_calib_ops {
    /* The saved calibration for a GPU preset (called at start and when the
     * GPU changes).  1 found (out filled, measured = 1), 0 none.  May be
     * NULL. */
    int (*load_for_gpu)(const char *gpu_preset, engine_calib *out);
    /* Start a calibration for the selected GPU preset (gpu_index into
     * db->gpus), measuring the shapes of model (the explorer's current one;
     * copied, may be NULL).  Returns an opaque job, or NULL with a one-line
     * reason in err (never NULL; left empty: "could not start"). */
    void *(*start)(const preset_db *db, int gpu_index, const engine_model *model,
                   engine_error *err);
    /* Poll without blocking: 0 running (*progress 0..1, step label in
     * step); 1 finished and out filled (the explorer switches to it); -1
     * failed or cancelled (reason in step).  After 1 or -1 the explorer
     * calls release. */
    int (*poll)(void *job, double *progress, char *step, size_t step_len,
                engine_calib *out);
    /* Cancel if running, wait, free.  NULL safe. */
    void (*release)(void *job);
    /* The view of the calibration load_for_gpu applies to a GPU preset
     * (its saved points and fits).  1 filled, 0 none.  May be NULL. */
    int (*view)(const char *gpu_preset, explorer_calib_view *out);
    /* After poll returned 1 (before release): the view of the finished
     * run.  1 filled, 0 none.  May be NULL. */
    int (*job_view)(void *job, explorer_calib_view *out);
} explorer_calib_ops;

/* The real hook (calib_hook.c): calib_job_start / _poll in a worker
 * thread (a quick cuda run for the selected GPU preset, saved on success),
 * calib_store_load_for_gpu and the saved file's view.  Static storage. */
const explorer_calib_ops *explorer_calib_hook(void);

/* Fill a view from a calibration result (the calibration module's view and
 * job_view use it; so do tests): the figures, the GEMM points and both
 * curves sampled by calib_result_power_law_curve / _roofline_curve.
 * source may be NULL. */
struct calib_result;
void explorer_calib_view_from_result(const struct calib_result *r, const char *source,
                                     explorer_calib_view *out);

#endif /* SHARDSCOPE_EXPLORER_CALIB_H */
