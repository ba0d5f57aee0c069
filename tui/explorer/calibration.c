/*
 * calibration.c - the explorer's side of calibration: the calibration in
 * use for the selected GPU (through the registered hook), a background job
 * (start, poll, cancel), and the data of the calibration view, fetched by
 * the update step when the calibration in use changes (never while
 * drawing).
 */
#include "explorer_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void exp_calib_load(explorer *x)
{
    memset(&x->cal.calib, 0, sizeof x->cal.calib);
    if (x->cal.ops && x->cal.ops->load_for_gpu &&
        x->cal.ops->load_for_gpu(exp_gpu(x)->name, &x->cal.calib) != 1)
        memset(&x->cal.calib, 0, sizeof x->cal.calib);
    x->cal.serial++;
}

void exp_calib_start(explorer *x)
{
    if (!x->cal.ops || !x->cal.ops->start) {
        exp_set_msg(x, "calibration not available in this build");
        return;
    }
    if (x->cal.job) {
        exp_set_msg(x, "calibration already running (Esc cancels)");
        return;
    }
    engine_error why = {{0}};
    x->cal.job = x->cal.ops->start(x->db, x->ctl.s[CTL_GPU].value, exp_model(x), &why);
    if (!x->cal.job) {
        /* the reason's first 199 characters, as the bar and note have room */
        exp_set_msg(x, "calibration: %.199s", why.msg[0] ? why.msg : "could not start");
        snprintf(x->cal.note, sizeof x->cal.note, "could not start: %.199s",
                 why.msg[0] ? why.msg : "(no reason given)");
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
void exp_calib_cancel(explorer *x)
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

void exp_calib_fetch_view(explorer *x)
{
    exp_calibration *c = &x->cal;
    if (!c->calib.measured || (c->view_valid && c->view_serial == c->serial))
        return;
    c->view_valid = 1;
    c->view_serial = c->serial;
    c->view_have = 0;
    if (!c->view && !(c->view = malloc(sizeof *c->view)))
        return;
    if (c->have_session && !strcmp(c->session->device, c->calib.device) &&
        !strcmp(c->session->date, c->calib.date)) {
        memcpy(c->view, c->session, sizeof *c->view);
        c->view_have = 1;
    } else if (c->ops && c->ops->view && c->ops->view(exp_gpu(x)->name, c->view) == 1) {
        c->view_have = 1;
    }
}

const explorer_calib_view *exp_calib_view(const explorer *x)
{
    const exp_calibration *c = &x->cal;
    if (!c->calib.measured || !c->view_valid || c->view_serial != c->serial || !c->view_have)
        return NULL;
    return c->view;
}

void explorer_set_calib_ops(explorer *x, const explorer_calib_ops *ops)
{
    if (x->cal.job && x->cal.ops && x->cal.ops->release)
        x->cal.ops->release(x->cal.job);
    x->cal.job = NULL;
    x->cal.ops = ops;
    x->cal.have_session = 0;
    x->cal.view_valid = 0;
    exp_calib_load(x);
}

void exp_calib_open_view(explorer *x)
{
    if (!x->cal.grid && !(x->cal.grid = malloc(EXP_GRID_MAX))) {
        exp_set_msg(x, "calibration view: out of memory");
        return;
    }
    x->ov.kind = OVERLAY_CALIB;
}
