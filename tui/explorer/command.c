/*
 * command.c - "copy as command" (`y`): the explorer's state as the
 * `shardscope eval ...` line that reproduces the selected plan's numbers:
 * the model, GPU and GPU count, the selected plan's degrees, and every
 * control that differs from what eval would take by default (links and
 * GPUs per node against the GPU's usual topology, VRAM, batch, tokens,
 * weights, micro-batches, schedule, objective, framework, datasheet
 * defaults as --no-calib).  tests/screen checks the round trip through the
 * command line's own parser.
 */
#include "explorer_int.h"

#include <stdio.h>
#include <string.h>

/* Append " --flag value" (value quoted for a POSIX shell when it holds
 * anything but [A-Za-z0-9._/+:-]). */
static void put(char *buf, size_t len, size_t *n, const char *flag, const char *value)
{
    char q[512];
    size_t k = 0;
    int plain = value && *value;
    for (const char *c = value; plain && *c; c++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/+:-", *c))
            plain = 0;
    if (value && !plain) { /* '...' with each ' as '\'' */
        q[k++] = '\'';
        for (const char *c = value; *c && k + 6 < sizeof q; c++) {
            if (*c == '\'') {
                memcpy(q + k, "'\\''", 4);
                k += 4;
            } else {
                q[k++] = *c;
            }
        }
        q[k++] = '\'';
    }
    q[k] = '\0';
    if (*n >= len)
        return;
    int w = value ? snprintf(buf + *n, len - *n, " %s %s", flag, plain ? value : q)
                  : snprintf(buf + *n, len - *n, " %s", flag);
    *n += w > 0 ? (size_t)w : 0;
}

static void put_int(char *buf, size_t len, size_t *n, const char *flag, int v)
{
    char t[24];
    snprintf(t, sizeof t, "%d", v);
    put(buf, len, n, flag, t);
}

/* The links and GPUs per node, where they differ from the GPU's usual. */
static void put_topology(const explorer *x, char *buf, size_t len, size_t *n)
{
    const engine_scenario *s = &x->r.sc;
    const engine_link *ui = NULL, *ue = NULL;
    int upn = 0;
    preset_gpu_topology(x->db, s->gpu, &ui, &ue, &upn);
    if (s->intra != ui)
        put(buf, len, n, "--link", s->intra->name);
    if (s->inter != ue)
        put(buf, len, n, "--inter-link", s->inter->name);
    if (s->gpus_per_node != upn && s->gpus_per_node > 0)
        put_int(buf, len, n, "--gpus-per-node", s->gpus_per_node);
}

int exp_command_line(const explorer *x, char *buf, size_t len)
{
    const engine_scenario *s = &x->r.sc;
    size_t n = 0;
    if (!len)
        return -1;
    buf[0] = '\0';
    if (!s->model || !s->gpu || !s->intra)
        return -1;
    int w = snprintf(buf, len, "shardscope eval");
    n = w > 0 ? (size_t)w : 0;
    put(buf, len, &n, "--model", s->model->name);
    put(buf, len, &n, "--gpu", s->gpu->name);
    put_int(buf, len, &n, "--gpus", s->gpus);
    const engine_result *p = exp_selected_plan(x);
    if (p) {
        put_int(buf, len, &n, "--tp", p->plan.tp);
        put_int(buf, len, &n, "--pp", p->plan.pp);
        put_int(buf, len, &n, "--dp", p->plan.dp);
        if (p->plan.ep > 1)
            put_int(buf, len, &n, "--ep", p->plan.ep);
    }
    put_topology(x, buf, len, &n);
    if (s->vram_bytes > 0)
        put_int(buf, len, &n, "--vram-gb", x->ctl.s[CTL_VRAM].value);
    if (s->framework && strcmp(s->framework->name, "generic") != 0)
        put(buf, len, &n, "--framework", s->framework->name);
    if (s->batch != 1)
        put_int(buf, len, &n, "--batch", s->batch);
    if (s->prompt != 1024)
        put_int(buf, len, &n, "--prompt", s->prompt);
    if (s->gen != 256)
        put_int(buf, len, &n, "--gen", s->gen);
    if ((int)s->weight_dtype != exp_model_dtype(s->model))
        put(buf, len, &n, "--dtype", engine_dtype_name(s->weight_dtype));
    if (s->microbatches > 0)
        put_int(buf, len, &n, "--microbatches", s->microbatches);
    if (s->schedule != ENGINE_SCHED_GPIPE)
        put(buf, len, &n, "--schedule", engine_schedule_name(s->schedule));
    if (s->objective != ENGINE_OBJ_LATENCY)
        put(buf, len, &n, "--objective", engine_objective_name(s->objective));
    if (s->spec_method != ENGINE_SPEC_NONE) {
        char pa[16];
        put(buf, len, &n, "--spec-method", engine_spec_method_name(s->spec_method));
        put_int(buf, len, &n, "--spec-k", s->spec_k);
        snprintf(pa, sizeof pa, "%.2f", s->spec_accept);
        put(buf, len, &n, "--spec-accept", pa);
    }
    if (!s->calib)
        put(buf, len, &n, "--no-calib", NULL);
    return n < len ? 0 : -1;
}
