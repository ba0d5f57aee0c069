/*
 * job.c - calibration in a worker thread, for the explorer's `c` key: the
 * UI thread starts a job, reads its progress every frame, may cancel it,
 * and polls for the result without ever blocking.  A cancelled or failed
 * job never writes the stored calibration, so the previous one stays.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"

struct calib_job {
    pthread_t thread;
    pthread_mutex_t lock;
    calib_opts opts;
    engine_model model; /* the copy opts.model points to */
    int save;
    atomic_int cancel;
    /* Guarded by lock. */
    double progress;
    char step[64];
    int finished;
    calib_status status;
    int taken;
    calib_result result;
    engine_error err;
};

static void job_progress(void *ctx, double f, const char *step)
{
    calib_job *j = ctx;
    pthread_mutex_lock(&j->lock);
    j->progress = f;
    snprintf(j->step, sizeof j->step, "%s", step ? step : "");
    pthread_mutex_unlock(&j->lock);
}

static void *job_main(void *arg)
{
    calib_job *j = arg;
    calib_result r;
    engine_error err = {{0}};
    calib_status rc = calib_run(&j->opts, &r, &err);
    if (rc == CALIB_OK && atomic_load(&j->cancel))
        rc = CALIB_CANCELLED;
    if (rc == CALIB_OK && j->save) {
        char path[4200];
        if (calib_store_save_default(&r, path, sizeof path, &err) != 0)
            rc = CALIB_ERR;
    }
    if (rc != CALIB_OK)
        calib_result_free(&r);
    pthread_mutex_lock(&j->lock);
    j->result = r;
    j->err = err;
    j->status = rc;
    j->finished = 1;
    if (rc == CALIB_OK)
        j->progress = 1.0;
    pthread_mutex_unlock(&j->lock);
    return NULL;
}

int calib_job_start(const calib_opts *opts, int save, calib_job **out,
                    engine_error *err)
{
    *out = NULL;
    calib_job *j = calloc(1, sizeof *j);
    if (!j) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "calibration: out of memory");
        return -1;
    }
    if (opts)
        j->opts = *opts;
    else
        calib_opts_defaults(&j->opts);
    if (j->opts.model) { /* copied: the caller's model may change while it runs */
        j->model = *j->opts.model;
        j->opts.model = &j->model;
    }
    j->save = save;
    atomic_init(&j->cancel, 0);
    j->opts.cancel = &j->cancel;
    j->opts.progress = job_progress;
    j->opts.progress_ctx = j;
    snprintf(j->step, sizeof j->step, "starting");
    if (pthread_mutex_init(&j->lock, NULL) != 0) {
        free(j);
        if (err)
            snprintf(err->msg, sizeof err->msg, "calibration: cannot create a lock");
        return -1;
    }
    if (pthread_create(&j->thread, NULL, job_main, j) != 0) {
        pthread_mutex_destroy(&j->lock);
        free(j);
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "calibration: cannot start the worker thread");
        return -1;
    }
    *out = j;
    return 0;
}

double calib_job_progress(calib_job *job)
{
    if (!job)
        return 0;
    pthread_mutex_lock(&job->lock);
    double f = job->progress;
    pthread_mutex_unlock(&job->lock);
    return f;
}

void calib_job_step(calib_job *job, char *buf, size_t len)
{
    if (!job || len == 0)
        return;
    pthread_mutex_lock(&job->lock);
    snprintf(buf, len, "%s", job->step);
    pthread_mutex_unlock(&job->lock);
}

void calib_job_cancel(calib_job *job)
{
    if (job)
        atomic_store(&job->cancel, 1);
}

int calib_job_poll(calib_job *job, calib_status *status, calib_result *result,
                   engine_error *err)
{
    if (result)
        memset(result, 0, sizeof *result);
    if (!job)
        return 0;
    pthread_mutex_lock(&job->lock);
    int fin = job->finished;
    if (fin) {
        if (status)
            *status = job->status;
        if (err)
            *err = job->err;
        if (!job->taken && result) {
            *result = job->result;
            memset(&job->result, 0, sizeof job->result);
            job->taken = 1;
        }
    }
    pthread_mutex_unlock(&job->lock);
    return fin;
}

void calib_job_free(calib_job *job)
{
    if (!job)
        return;
    atomic_store(&job->cancel, 1);
    pthread_join(job->thread, NULL);
    calib_result_free(&job->result);
    pthread_mutex_destroy(&job->lock);
    free(job);
}
