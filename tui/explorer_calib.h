/*
 * explorer_calib.h - the hook the calibration module plugs into the
 * explorer (the `c` key and the "calibration in use" label).
 *
 * The explorer calls explorer_calib_ops_get() once.  This file's weak
 * default (tui/explorer_calib.c) returns NULL: `c` then says "calibration
 * not available in this build" and the bar shows "datasheet defaults".
 * The calibration module provides a strong definition returning its table
 * (for instance wrapping calib_job_start / calib_job_poll /
 * calib_store_load_for_gpu from calib/calib.h); since the binary links
 * objects directly, the strong definition wins.
 *
 * Every function runs on the UI thread and must not block: the
 * measurement itself belongs in the module's worker thread.
 */
#ifndef SHARDSCOPE_EXPLORER_CALIB_H
#define SHARDSCOPE_EXPLORER_CALIB_H

#include <stddef.h>

#include "../engine/engine.h"
#include "../presets/preset.h"

typedef struct explorer_calib_ops {
    /* The saved calibration for a GPU preset (called at start and when the
     * GPU changes).  1 found (out filled, measured = 1), 0 none.  May be
     * NULL. */
    int (*load_for_gpu)(const char *gpu_preset, engine_calib *out);
    /* Start a calibration for the selected GPU preset (gpu_index into
     * db->gpus).  Returns an opaque job, or NULL with a one-line reason in
     * msg. */
    void *(*start)(const preset_db *db, int gpu_index, char *msg, size_t len);
    /* Poll without blocking: 0 running (*progress 0..1, step label in
     * step); 1 finished and out filled (the explorer switches to it); -1
     * failed or cancelled (reason in step).  After 1 or -1 the explorer
     * calls release. */
    int (*poll)(void *job, double *progress, char *step, size_t step_len,
                engine_calib *out);
    /* Cancel if running, wait, free.  NULL safe. */
    void (*release)(void *job);
} explorer_calib_ops;

/* The calibration hook of this build, or NULL when there is none. */
const explorer_calib_ops *explorer_calib_ops_get(void);

#endif /* SHARDSCOPE_EXPLORER_CALIB_H */
