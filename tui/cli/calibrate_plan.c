/*
 * calibrate_plan.c - `shardscope calibrate --plan [--gpu G] [--gpus N]
 * [--quick] [--model M] [--max-tp N] [--max-tokens N] [--no-comm] [--json]`:
 * the phases a calibration would measure, their kernel counts, warm-ups and
 * repeats, and the predicted time of each on a GPU preset (calib_plan_build),
 * printed before - instead of - running it.  Default device: the one the run
 * would use (the CUDA device matched to its preset; the CPU without a GPU).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "cli.h"
#include "cli_common.h"
#include "json.h"

#define CMD "shardscope calibrate"

/* The budget (issue 12): a full calibration under 60 s on one
 * H100/H200, --quick under 15 s; on the CPU --quick under 15 s on a 2-core
 * machine (no full budget). */
#define PLAN_BUDGET_FULL_S 60.0
#define PLAN_BUDGET_QUICK_S 15.0

/* The device the real run would use, as a GPU preset: --gpu, else the CUDA
 * device (matched by name) unless --backend cpu, else NULL (the CPU).
 * *gpus: --gpus, else the visible GPUs, else 1.  0, or 2 after printing. */
static int plan_device(const cli_opts *opts, const preset_db *db, const calib_opts *o,
                       const engine_gpu **g, int *gpus)
{
    engine_error err = {{0}};
    *g = NULL;
    *gpus = CLI_SEEN(opts, gpus) ? opts->v.gpus : 1;
    if (opts->v.gpu) {
        if (!(*g = cli_find_gpu(db, "--gpu", opts->v.gpu, &err))) {
            fprintf(stderr, CMD ": %s\n", err.msg);
            return 2;
        }
        return 0;
    }
    if (o->backend == CALIB_BACKEND_CPU)
        return 0;
    calib_device d;
    if (calib_cuda_describe(o, &d, &err) != 0) {
        if (o->backend == CALIB_BACKEND_CUDA) {
            fprintf(stderr, CMD ": --plan --backend cuda: %s\n", err.msg);
            return 2;
        }
        fprintf(stderr, CMD ": --plan: %s; planning the CPU backend (--gpu G plans a GPU)\n",
                err.msg);
        return 0;
    }
    int idx = calib_match_gpu_preset(d.name, d.memory_bytes, db->gpus, db->n_gpus);
    if (idx < 0) {
        fprintf(stderr, CMD ": --plan: GPU '%s' matches no GPU preset; name one with --gpu\n",
                d.name);
        return 2;
    }
    *g = &db->gpus[idx];
    if (!CLI_SEEN(opts, gpus))
        *gpus = d.count > 0 ? d.count : 1;
    return 0;
}

/* The budget that applies to pl (0: none) and what it is. */
static double plan_budget(const calib_plan *pl, const char **what)
{
    int cpu = !strcmp(pl->backend, "cpu");
    *what = cpu ? "--quick on a 2-core CPU" : pl->quick ? "--quick on one H100/H200"
                                                        : "full, on one H100/H200";
    return pl->quick ? PLAN_BUDGET_QUICK_S : cpu ? 0 : PLAN_BUDGET_FULL_S;
}

/* "1" / "3..5" / "-" into buf. */
static const char *reps_text(const calib_plan_phase *ph, char *buf, size_t len)
{
    if (ph->kernels == 0)
        snprintf(buf, len, "-");
    else if (ph->reps_min == ph->reps_max)
        snprintf(buf, len, "%d", ph->reps_min);
    else
        snprintf(buf, len, "%d..%d", ph->reps_min, ph->reps_max);
    return buf;
}

static void print_phase(const calib_plan_phase *ph)
{
    char w[16], r[16], tok[32] = "", t1[32], t2[32], t3[32];
    if (ph->warmup >= 0)
        snprintf(w, sizeof w, "%d", ph->warmup);
    else
        snprintf(w, sizeof w, "%s", ph->warmup == -2 ? "var" : "-");
    if (ph->m_max > 0)
        snprintf(tok, sizeof tok, "  m %d..%d", ph->m_min, ph->m_max);
    printf("%-26s %-11s %7d %4s %6s %7d %11s %11s %11s%s\n", ph->name, ph->slot, ph->kernels, w,
           reps_text(ph, r, sizeof r), ph->runs, fmt_seconds(ph->device_s, NULL, t1, sizeof t1),
           fmt_seconds(ph->host_s, NULL, t2, sizeof t2),
           fmt_seconds(ph->total_s, NULL, t3, sizeof t3), tok);
}

static void print_plan_text(const calib_plan *pl)
{
    char t1[32], t2[32], t3[32];
    printf("calibration plan: %s (%s backend%s), model %s, %s, TP <= %d, tokens <= %d\n",
           pl->device, pl->backend,
           pl->gpus > 1 ? ", several GPUs" : pl->gpus == 1 ? ", 1 GPU" : "",
           pl->model[0] ? pl->model : "(none)", pl->quick ? "--quick" : "full", pl->max_tp,
           pl->max_tokens);
    if (pl->gpus > 1)
        printf("GPUs: %d (NCCL collectives)\n", pl->gpus);
    printf("%-26s %-11s %7s %4s %6s %7s %11s %11s %11s\n", "phase", "slot", "kernels", "warm",
           "reps", "runs", "device", "host", "total");
    for (int i = 0; i < pl->n_phases; i++)
        print_phase(&pl->phase[i]);
    printf("%-26s %-11s %7d %4s %6s %7s %11s %11s %11s\n", "total", "", pl->kernels, "", "", "",
           fmt_seconds(pl->device_s, NULL, t1, sizeof t1),
           fmt_seconds(pl->host_s, NULL, t2, sizeof t2),
           fmt_seconds(pl->total_s, NULL, t3, sizeof t3));
    const char *what;
    double limit = plan_budget(pl, &what);
    if (limit > 0)
        printf("predicted: %s, %s issue 12's budget (%s: < %.0f s)\n", t3,
               pl->total_s < limit ? "within" : "OVER", what, limit);
    else
        printf("predicted: %s (issue 12 sets no budget for a full CPU run)\n", t3);
    printf("assumptions: %s\n", pl->assumptions);
}

static cJSON *phase_json(const calib_plan_phase *ph)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", ph->name);
    cJSON_AddStringToObject(o, "slot", ph->slot);
    cJSON_AddNumberToObject(o, "kernels", ph->kernels);
    if (ph->kernels > 0) {
        if (ph->warmup >= 0)
            cJSON_AddNumberToObject(o, "warmup", ph->warmup);
        cJSON_AddNumberToObject(o, "reps_min", ph->reps_min);
        cJSON_AddNumberToObject(o, "reps_max", ph->reps_max);
    }
    cJSON_AddNumberToObject(o, "runs", ph->runs);
    if (ph->m_max > 0) {
        cJSON_AddNumberToObject(o, "m_min", ph->m_min);
        cJSON_AddNumberToObject(o, "m_max", ph->m_max);
    }
    cJSON_AddNumberToObject(o, "device_s", ph->device_s);
    cJSON_AddNumberToObject(o, "host_s", ph->host_s);
    cJSON_AddNumberToObject(o, "total_s", ph->total_s);
    return o;
}

static int print_plan_json(const calib_plan *pl)
{
    cJSON *root = cJSON_CreateObject(), *p = cJSON_AddObjectToObject(root, "plan");
    const char *what;
    double limit = plan_budget(pl, &what);
    cJSON_AddStringToObject(p, "backend", pl->backend);
    cJSON_AddStringToObject(p, "device", pl->device);
    cJSON_AddStringToObject(p, "model", pl->model);
    cJSON_AddBoolToObject(p, "quick", pl->quick);
    cJSON_AddNumberToObject(p, "gpus", pl->gpus);
    cJSON_AddNumberToObject(p, "max_tp", pl->max_tp);
    cJSON_AddNumberToObject(p, "max_tokens", pl->max_tokens);
    cJSON *arr = cJSON_AddArrayToObject(p, "phases");
    for (int i = 0; i < pl->n_phases; i++)
        cJSON_AddItemToArray(arr, phase_json(&pl->phase[i]));
    cJSON_AddNumberToObject(p, "kernels", pl->kernels);
    cJSON_AddNumberToObject(p, "device_s", pl->device_s);
    cJSON_AddNumberToObject(p, "host_s", pl->host_s);
    cJSON_AddNumberToObject(p, "total_s", pl->total_s);
    if (limit > 0) {
        cJSON_AddNumberToObject(p, "budget_s", limit);
        cJSON_AddBoolToObject(p, "within_budget", pl->total_s < limit);
    }
    cJSON_AddStringToObject(p, "assumptions", pl->assumptions);
    return cli_json_print("calibrate", stdout, root);
}

int cli_calibrate_plan(const cli_opts *opts, const preset_db *db, const calib_opts *o)
{
    const engine_gpu *g;
    int gpus;
    if (plan_device(opts, db, o, &g, &gpus) != 0)
        return 2;
    calib_plan *pl = malloc(sizeof *pl);
    engine_error err = {{0}};
    if (!pl || calib_plan_build(o, g, g ? cli_default_link_for(db, g) : NULL, gpus, pl, &err)) {
        fprintf(stderr, CMD ": --plan: %s\n", pl ? err.msg : "out of memory");
        free(pl);
        return 1;
    }
    int rc = opts->v.json ? print_plan_json(pl) : (print_plan_text(pl), 0);
    free(pl);
    return rc;
}
