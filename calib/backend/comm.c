/*
 * comm.c - communication measurements.  calib_comm_sweep is the size loop
 * of the NCCL sweeps (cuda.c): sizes, warm-ups, the median of the
 * repeats and the series bookkeeping around a timing callback, so that it
 * is tested here without a GPU.  Without a second GPU, two local processes
 * (fork) joined by a Unix socketpair play ping-pong with messages of 1 KiB
 * up to a few MiB (more without --quick); half the median round trip is the
 * one-way time that the alpha-beta fit takes.  Like the seed's Gloo
 * loopback benchmark, it measures the operating system's copy path, not an
 * interconnect, and is labelled so.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "calib.h"
#include "internal.h"

#define COMM_LABEL_LOOPBACK "loopback (2 local processes)"

/* Full-length send/recv; only async-signal-safe calls (the child runs
 * these after fork in a possibly multi-threaded process). */
static int send_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int recv_all(int fd, char *p, size_t n)
{
    while (n > 0) {
        ssize_t r = recv(fd, p, n, 0);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (r == 0)
            return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

/* The echo side: a 8-byte length, then the message, sent back whole.
 * Length 0 ends it. */
static void child_loop(int fd, char *buf)
{
    for (;;) {
        uint64_t n;
        if (recv_all(fd, (char *)&n, sizeof n) != 0 || n == 0)
            _exit(0);
        if (recv_all(fd, buf, (size_t)n) != 0 || send_all(fd, buf, (size_t)n) != 0)
            _exit(1);
    }
}

/* --- the NCCL sweeps' size loop ----------------------------------------- */

calib_status calib_comm_sweep(const calib_opts *o, const calib_comm_sweep_spec *spec,
                              calib_comm_op_fn op, void *ctx, calib_comm_point **pts,
                              int *n, engine_error *err)
{
    const char *label = spec && spec->label && spec->label[0] ? spec->label
                                                              : "comm sweep";
    size_t lo = spec && spec->min_bytes ? spec->min_bytes : 1024;
    int factor = spec && spec->factor ? spec->factor : 4;
    if (!spec || !op || !pts || !n || *n < 0 || spec->max_bytes < lo ||
        factor < 2 || spec->warmup < 0 || spec->reps < 1 ||
        spec->reps > CALIB_COMM_MAX_REPS) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "%s: bad sweep (sizes %zu..%zu bytes, factor %d, %d "
                     "warm-up%s, %d repeat%s; need 1..%d repeats)", label, lo,
                     spec ? spec->max_bytes : 0, factor, spec ? spec->warmup : 0,
                     spec && spec->warmup == 1 ? "" : "s", spec ? spec->reps : 0,
                     spec && spec->reps == 1 ? "" : "s", CALIB_COMM_MAX_REPS);
        return CALIB_ERR;
    }
    int nsizes = 1; /* lo, then every multiple that stays <= max_bytes */
    for (size_t b = lo; b <= spec->max_bytes / (size_t)factor; b *= (size_t)factor)
        nsizes++;
    calib_comm_point *got = NULL;
    int ngot = 0;
    calib_status rc = CALIB_OK;
    size_t b = lo;
    for (int k = 0; k < nsizes && rc == 0; k++, b *= (size_t)factor) {
        if (calib_cancelled(o)) {
            rc = CALIB_CANCELLED;
            break;
        }
        calib_report(o, (double)k / nsizes, label);
        double v[CALIB_COMM_MAX_REPS];
        for (int i = -spec->warmup; i < spec->reps && rc == 0; i++) {
            double t = 0;
            int e = op(ctx, b, &t);
            if (e != 0) {
                if (err)
                    snprintf(err->msg, sizeof err->msg,
                             "%s: %s of %zu bytes failed (code %d)", label,
                             i < 0 ? "warm-up" : "timed run", b, e);
                rc = CALIB_ERR;
            } else if (!isfinite(t) || t <= 0) {
                if (err)
                    snprintf(err->msg, sizeof err->msg,
                             "%s: %zu bytes took %g s; a time must be "
                             "positive and finite", label, b, t);
                rc = CALIB_ERR;
            } else if (i >= 0) {
                v[i] = t;
            }
        }
        if (rc != 0)
            break;
        qsort(v, (size_t)spec->reps, sizeof v[0], engine_cmp_double);
        int m = spec->reps;
        double med = m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
        if (calib_comm_append(&got, &ngot, (double)b, med) != 0) {
            if (err)
                snprintf(err->msg, sizeof err->msg, "%s: out of memory", label);
            rc = CALIB_ERR;
        }
    }
    /* Only a complete sweep is kept: into the caller's series at once. */
    int base = *n;
    for (int i = 0; i < ngot && rc == 0; i++) {
        if (calib_comm_append(pts, n, got[i].bytes, got[i].time_s) != 0) {
            *n = base;
            if (err)
                snprintf(err->msg, sizeof err->msg, "%s: out of memory", label);
            rc = CALIB_ERR;
        }
    }
    free(got);
    return rc;
}

/* --- loopback ------------------------------------------------------------- */

static int round_trip(int fd, char *buf, size_t n, double *t)
{
    uint64_t len = n;
    double s = calib_now_s();
    if (send_all(fd, (const char *)&len, sizeof len) != 0 ||
        send_all(fd, buf, n) != 0 || recv_all(fd, buf, n) != 0)
        return -1;
    *t = calib_now_s() - s;
    return 0;
}

/* The echo process on the other end of a socketpair: its pid and our
 * end in *fd, or -1 with err. */
static pid_t loopback_spawn(char *buf, int *fd, engine_error *err)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "loopback: socketpair: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "loopback: fork: %s", strerror(errno));
        close(sv[0]);
        close(sv[1]);
        return -1;
    }
    if (pid == 0) {
        close(sv[0]);
        child_loop(sv[1], buf);
        _exit(0);
    }
    close(sv[1]);
    *fd = sv[0];
    return pid;
}

/* Half the median round trip of n bytes (a warm-up first; small messages
 * are cheap and noisy: repeated more, 5..41 times).  0, -1 when the echo
 * process stopped answering. */
static int loopback_size(int fd, char *buf, size_t n, double *one_way)
{
    double v[41], t;
    if (round_trip(fd, buf, n, &t) != 0)
        return -1;
    int reps = calib_loopback_reps(t);
    for (int i = 0; i < reps; i++)
        if (round_trip(fd, buf, n, &v[i]) != 0)
            return -1;
    qsort(v, (size_t)reps, sizeof v[0], engine_cmp_double);
    double med = reps % 2 ? v[reps / 2] : 0.5 * (v[reps / 2 - 1] + v[reps / 2]);
    *one_way = med / 2.0;
    return 0;
}

/* The loopback's k-th message size: 1 KiB x 4^k. */
static size_t loopback_bytes(int k)
{
    return (size_t)1024 << (2 * k);
}

/* Keep the shorter of each size's times: a pass disturbed by other work
 * (a context switch in a small message's round trip, a page of the large
 * one swapped) only ever adds time. */
void calib_loopback_keep_min(double *best, const double *pass, int n)
{
    for (int i = 0; i < n; i++)
        if (!(best[i] > 0) || (pass[i] > 0 && pass[i] < best[i]))
            best[i] = pass[i];
}

/* Whether the series (sizes 1 KiB x 4^i, one-way times t) can be fitted:
 * on a busy machine a pass whose times do not grow with the size is
 * measured again rather than stored without a fit. */
int calib_loopback_fits(const double *t, int n)
{
    calib_comm_point pts[CALIB_LOOPBACK_SIZES_MAX];
    if (n > CALIB_LOOPBACK_SIZES_MAX)
        n = CALIB_LOOPBACK_SIZES_MAX;
    for (int i = 0; i < n; i++)
        pts[i] = (calib_comm_point){(double)loopback_bytes(i), t[i]};
    calib_alpha_beta f;
    return calib_fit_alpha_beta(pts, n, &f, NULL) == 0;
}

calib_status calib_comm_loopback(const calib_opts *o, size_t max_bytes, calib_result *r,
                                 engine_error *err)
{
    if (max_bytes < 1024)
        max_bytes = 1024;
    int nsizes = 0;
    for (size_t n = 1024; n <= max_bytes && nsizes < CALIB_LOOPBACK_SIZES_MAX; n *= 4)
        nsizes++;
    max_bytes = loopback_bytes(nsizes - 1);
    char *buf = malloc(max_bytes);
    if (!buf) {
        if (err)
            snprintf(err->msg, sizeof err->msg,
                     "loopback: out of memory allocating %zu bytes", max_bytes);
        return CALIB_ERR;
    }
    memset(buf, 0x5a, max_bytes);
    int fd = -1;
    pid_t pid = loopback_spawn(buf, &fd, err);
    if (pid < 0) {
        free(buf);
        return CALIB_ERR;
    }
    double best[CALIB_LOOPBACK_SIZES_MAX] = {0}, pass[CALIB_LOOPBACK_SIZES_MAX];
    calib_status rc = CALIB_OK;
    for (int p = 0; p < CALIB_LOOPBACK_PASSES && rc == CALIB_OK; p++) {
        for (int k = 0; k < nsizes && rc == CALIB_OK; k++) {
            if (calib_cancelled(o)) {
                rc = CALIB_CANCELLED;
                break;
            }
            calib_report(o, (double)k / nsizes,
                         p ? "loopback: message sizes again (times did not grow with size)"
                           : "loopback: message sizes");
            if (loopback_size(fd, buf, loopback_bytes(k), &pass[k]) != 0) {
                if (err)
                    snprintf(err->msg, sizeof err->msg,
                             "loopback: the echo process stopped answering (%s)",
                             strerror(errno));
                rc = CALIB_ERR;
            }
        }
        if (rc != CALIB_OK)
            break;
        calib_loopback_keep_min(best, pass, nsizes);
        if (calib_loopback_fits(best, nsizes))
            break;
    }
    for (int k = 0; k < nsizes && rc == CALIB_OK; k++)
        if (calib_result_add_comm(r, (double)loopback_bytes(k), best[k]) != 0) {
            if (err)
                snprintf(err->msg, sizeof err->msg, "loopback: out of memory");
            rc = CALIB_ERR;
        }
    uint64_t zero = 0;
    (void)send_all(fd, (const char *)&zero, sizeof zero);
    close(fd);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    free(buf);
    if (rc == CALIB_OK)
        snprintf(r->comm_label, sizeof r->comm_label, "%s", COMM_LABEL_LOOPBACK);
    return rc;
}
