/*
 * state.c - small reads of the explorer's state every other file uses:
 * the selected presets, the inputs the results depend on, the selected
 * plan, and the bar's message.  Calls nothing else of the explorer, so
 * no file depends on another through it in a circle.
 */
#include "explorer_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
    in->spec_method = x->ctl.spec_method;
    in->spec_k = x->ctl.spec_k;
    in->spec_pct = x->ctl.spec_pct;
}

const engine_framework *exp_framework(const explorer *x)
{
    if (x->ctl.framework >= 0 && x->ctl.framework < x->db->n_frameworks)
        return &x->db->frameworks[x->ctl.framework];
    return NULL;
}

int exp_gb_of(double bytes)
{
    long v = (long)(bytes / 1e9 + 0.5);
    return v < 1 ? 1 : v > 4096 ? 4096 : (int)v;
}

const engine_result *exp_selected_plan(const explorer *x)
{
    if (x->view.plans.sel < 0 || x->view.plans.sel >= x->r.n_shown)
        return NULL;
    return &x->r.plans[x->r.order[x->view.plans.sel]];
}

const char *exp_choice(const preset_db *db, int ctl, int i, const char **display)
{
    switch (ctl) {
    case CTL_MODEL:
        *display = db->models[i].display;
        return db->models[i].name;
    case CTL_GPU:
        *display = db->gpus[i].display;
        return db->gpus[i].name;
    default:
        *display = db->links[i].display;
        return db->links[i].name;
    }
}
