/*
 * calib_hook.c - the adapter between calib/ and the explorer: the
 * explorer_calib_ops table over the calib_job_* worker thread and the
 * store (the `c` key, the saved calibration of the selected GPU), which
 * the command opening the explorer registers with explorer_set_calib_ops,
 * and the conversion of a calibration result into what the calibration
 * view draws.  Every number is copied from the result or predicted by
 * calib/; nothing is computed here.
 */
#include "explorer_calib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "calib.h"

#define CURVE_SAMPLES 64 /* power law */
#define CURVE_PER_HIDDEN 48

/* The per-kernel fit and its points (measured against the fit's time). */
static void view_per_kernel(const calib_result *r, explorer_calib_view *out)
{
    if (!r->has_per_kernel)
        return;
    const calib_per_kernel *pk = &r->per_kernel;
    out->has_per_kernel = 1;
    snprintf(out->pk_library, sizeof out->pk_library, "%s", r->library);
    snprintf(out->pk_model, sizeof out->pk_model, "%s", r->model);
    out->pk_eff = pk->gemm_efficiency;
    out->pk_peak_flops = pk->peak_flops;
    out->pk_bw = pk->bw_bytes_per_s;
    out->pk_t0_s = pk->t0_s;
    out->pk_small_s = pk->small_kernel_s;
    out->pk_launch_s = pk->launch_s;
    out->pk_mape = pk->mape;
    out->pk_points = pk->points;
    for (int c = 0; c < EXPLORER_CALIB_CLASSES && c < CALIB_K_COUNT; c++) {
        out->pk_class_mape[c] = pk->class_mape[c];
        out->pk_class_n[c] = pk->class_n[c];
    }
    for (int i = 0; i < r->n_kpoints && out->n_kpoints < EXPLORER_CALIB_VIEW_POINTS; i++) {
        const calib_kpoint *p = &r->kpoints[i];
        double model = calib_per_kernel_predict(pk, p);
        if (!(model > 0) || !(p->time_s > 0) || !isfinite(model) || !isfinite(p->time_s))
            continue;
        out->kpoints[out->n_kpoints++] = (explorer_calib_view_point){(int)p->cls, model,
                                                                     p->time_s};
    }
}

void explorer_calib_view_from_result(const calib_result *r, const char *source,
                                     explorer_calib_view *out)
{
    memset(out, 0, sizeof *out);
    if (!r)
        return;
    snprintf(out->source, sizeof out->source, "%s", source ? source : "");
    snprintf(out->device, sizeof out->device, "%s", r->dev.name);
    snprintf(out->backend, sizeof out->backend, "%s", r->dev.backend);
    snprintf(out->dtype, sizeof out->dtype, "%s", r->dev.dtype);
    snprintf(out->date, sizeof out->date, "%s", r->date);
    snprintf(out->preset, sizeof out->preset, "%s", r->preset);
    out->has_power_law = r->has_power_law;
    out->pl_a = r->power_law.a;
    out->pl_beta = r->power_law.beta;
    out->pl_mape = r->power_law.mape;
    out->pl_r2 = r->power_law.r2;
    out->pl_n = r->power_law.n;
    out->rf_engine_form = r->roofline.form == CALIB_ROOFLINE_ENGINE;
    out->rf_eta_compute = r->roofline.eta_compute;
    out->rf_eta_memory = r->roofline.eta_memory;
    out->rf_overhead_s = r->roofline.overhead_s;
    out->rf_mape = r->roofline.mape;
    out->rf_r2 = r->roofline.r2;
    out->rf_peak_flops = r->roofline.peak_flops;
    out->rf_bandwidth = r->roofline.bandwidth;
    out->rf_n = r->roofline.n;
    out->has_comm = r->has_comm_fit;
    if (r->has_comm_fit) {
        snprintf(out->comm_label, sizeof out->comm_label, "%s", r->comm_label);
        out->comm_alpha_s = r->comm_fit.alpha_s;
        out->comm_bandwidth = r->comm_fit.bandwidth;
        out->comm_r2 = r->comm_fit.r2;
    }
    calib_plot_row rows[EXPLORER_CALIB_VIEW_POINTS];
    int n = calib_result_plot_rows(r, rows, EXPLORER_CALIB_VIEW_POINTS);
    double xlo = 0, xhi = 0;
    for (int i = 0; i < n; i++) {
        if (!(rows[i].x > 0) || !(rows[i].measured_s > 0) || !isfinite(rows[i].x) ||
            !isfinite(rows[i].measured_s))
            continue;
        explorer_calib_view_point *p = &out->points[out->n_points++];
        p->kind = rows[i].kind == CALIB_POINT_DECODE;
        p->x = rows[i].x;
        p->time_s = rows[i].measured_s;
        if (xlo == 0 || p->x < xlo)
            xlo = p->x;
        if (p->x > xhi)
            xhi = p->x;
    }
    calib_curve_point c[EXPLORER_CALIB_VIEW_CURVE];
    int m = calib_result_power_law_curve(r, xlo, xhi, CURVE_SAMPLES, c,
                                         EXPLORER_CALIB_VIEW_CURVE);
    for (int i = 0; i < m; i++)
        out->power_law[out->n_power_law++] = (explorer_calib_view_point){c[i].curve, c[i].x,
                                                                         c[i].time_s};
    m = calib_result_roofline_curve(r, CURVE_PER_HIDDEN, c, EXPLORER_CALIB_VIEW_CURVE);
    for (int i = 0; i < m; i++)
        out->roofline[out->n_roofline++] = (explorer_calib_view_point){c[i].curve, c[i].x,
                                                                       c[i].time_s};
    view_per_kernel(r, out);
}

/* --- the hook: calib_job_* behind explorer_calib_ops ------------------ */

typedef struct explorer_job {
    calib_job *job;
    char want[ENGINE_NAME_MAX]; /* the GPU preset selected when `c` was pressed */
    calib_result done;          /* the finished run, kept for job_view */
    int have_done;
} explorer_job;

static int ex_load(const char *gpu_preset, engine_calib *out)
{
    return calib_store_load_for_gpu(gpu_preset, out);
}

static void *ex_start(const preset_db *db, int gpu_index, const engine_model *model,
                      engine_error *err)
{
    explorer_job *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(err->msg, sizeof err->msg, "calibration: out of memory");
        return NULL;
    }
    calib_opts o;
    calib_opts_defaults(&o);
    /* A GPU preset only ever takes a GPU measurement: no CPU fallback. */
    o.backend = CALIB_BACKEND_CUDA;
    o.quick = 1;
    o.skip_comm = 1;
    o.model = model; /* calib_job_start copies it */
    if (db) {
        o.gpus = db->gpus;
        o.n_gpus = db->n_gpus;
        if (gpu_index >= 0 && gpu_index < db->n_gpus)
            snprintf(j->want, sizeof j->want, "%s", db->gpus[gpu_index].name);
    }
    if (calib_job_start(&o, 1, &j->job, err) != 0) {
        free(j);
        return NULL;
    }
    return j;
}

static int ex_poll(void *vj, double *progress, char *step, size_t step_len, engine_calib *out)
{
    explorer_job *j = vj;
    calib_status status = CALIB_OK;
    calib_result r;
    engine_error err = {{0}};
    char dummy[8];
    if (!step || step_len == 0) {
        step = dummy;
        step_len = sizeof dummy;
    }
    if (!j)
        return -1;
    if (!calib_job_poll(j->job, &status, &r, &err)) {
        if (progress)
            *progress = calib_job_progress(j->job);
        calib_job_step(j->job, step, step_len);
        return 0;
    }
    /* On -1 the explorer shows "calibration failed: <step>": step is the
     * reason alone. */
    int rc = -1;
    if (status == CALIB_OK) {
        if (j->want[0] && strcasecmp(r.preset, j->want) != 0) {
            snprintf(step, step_len, "measured %s (%s), not %s: saved; select that GPU to use it",
                     r.dev.name, r.preset[0] ? r.preset : "no matching preset", j->want);
        } else {
            calib_result_to_engine(&r, out);
            snprintf(step, step_len, "%s: eta_c %.2f eta_m %.2f, MAPE %.1f%%", r.dev.name,
                     r.roofline.eta_compute, r.roofline.eta_memory, 100 * r.roofline.mape);
            rc = 1;
        }
    } else if (status == CALIB_CANCELLED) {
        snprintf(step, step_len, "cancelled; previous calibration kept");
    } else {
        snprintf(step, step_len, "%s; previous calibration kept", err.msg);
    }
    if (progress)
        *progress = 1.0;
    if (rc == 1 && !j->have_done) {
        j->done = r; /* moved: freed by ex_release */
        j->have_done = 1;
    } else {
        calib_result_free(&r);
    }
    return rc;
}

static int ex_job_view(void *vj, explorer_calib_view *out)
{
    explorer_job *j = vj;
    if (!j || !j->have_done)
        return 0;
    explorer_calib_view_from_result(&j->done, "measured in this session (and saved)", out);
    return 1;
}

static int ex_view(const char *gpu_preset, explorer_calib_view *out)
{
    calib_result r;
    char path[4400];
    if (calib_store_load_result_for_gpu_in(NULL, gpu_preset, &r, path, sizeof path, NULL) !=
        1)
        return 0;
    explorer_calib_view_from_result(&r, path, out);
    calib_result_free(&r);
    return 1;
}

static void ex_release(void *vj)
{
    explorer_job *j = vj;
    if (!j)
        return;
    calib_job_free(j->job);
    calib_result_free(&j->done);
    free(j);
}

static const explorer_calib_ops EX_OPS = {
    .load_for_gpu = ex_load,
    .start = ex_start,
    .poll = ex_poll,
    .release = ex_release,
    .view = ex_view,
    .job_view = ex_job_view,
};

const explorer_calib_ops *explorer_calib_hook(void)
{
    return &EX_OPS;
}
