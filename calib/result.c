/*
 * result.c - the calibration result container: growing its point and
 * communication series, freeing it, fitting the three models to what it
 * holds (calib_result_fit: the roofs, the power law, the engine's and the
 * classic roofline, their cross errors, alpha-beta), and handing the
 * engine its engine_calib.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "internal.h"

/* Grown by doubling; the capacity is implied by powers of two >= 16. */
static int grow(void **arr, int n, size_t elem)
{
    if (n != 0 && (n < 16 || (n & (n - 1)) != 0))
        return 0;
    size_t cap = n == 0 ? 16 : (size_t)n * 2;
    void *np = realloc(*arr, cap * elem);
    if (!np)
        return -1;
    *arr = np;
    return 0;
}

int calib_result_add_point(calib_result *r, const calib_point *p)
{
    void *arr = r->points;
    if (grow(&arr, r->n_points, sizeof *r->points) != 0)
        return -1;
    r->points = arr;
    r->points[r->n_points++] = *p;
    return 0;
}

int calib_comm_append(calib_comm_point **pts, int *n, double bytes, double time_s)
{
    void *arr = *pts;
    if (grow(&arr, *n, sizeof **pts) != 0)
        return -1;
    *pts = arr;
    (*pts)[*n].bytes = bytes;
    (*pts)[*n].time_s = time_s;
    ++*n;
    return 0;
}

int calib_result_add_comm(calib_result *r, double bytes, double time_s)
{
    return calib_comm_append(&r->comm, &r->n_comm, bytes, time_s);
}

int calib_result_add_p2p(calib_result *r, double bytes, double time_s)
{
    return calib_comm_append(&r->p2p, &r->n_p2p, bytes, time_s);
}

void calib_result_free(calib_result *r)
{
    if (!r)
        return;
    free(r->points);
    free(r->comm);
    free(r->p2p);
    free(r->allgather);
    free(r->alltoall);
    free(r->kpoints);
    memset(r, 0, sizeof *r);
}

double calib_point_x(const calib_point *p)
{
    return (double)p->hidden * p->hidden * p->batch * p->seq;
}

/* --- calib_result_fit, step by step --------------------------------------- */

/* best_gemm_flops and copy_bandwidth from the points. */
static void fit_rates(calib_result *r)
{
    r->best_gemm_flops = 0;
    r->copy_bandwidth = 0;
    for (int i = 0; i < r->n_points; i++) {
        const calib_point *p = &r->points[i];
        if (!(p->time_s > 0))
            continue;
        if (p->kind == CALIB_POINT_COPY) {
            if (p->bytes / p->time_s > r->copy_bandwidth)
                r->copy_bandwidth = p->bytes / p->time_s;
        } else if (p->flops / p->time_s > r->best_gemm_flops) {
            r->best_gemm_flops = p->flops / p->time_s;
        }
    }
}

/* The roofs the etas are relative to: the chosen ones (r->roofline), else
 * the measured copy and the best GEMM. */
static void fit_roofs(calib_result *r, double *peak_out, double *bw_out)
{
    double peak = r->roofline.peak_flops, bw = r->roofline.bandwidth;
    if (!(bw > 0))
        bw = r->copy_bandwidth;
    if (!(peak > 0)) {
        /* No datasheet: the best GEMM this machine ran.  The engine adds
         * compute and memory time, so a layer's F/T understates its compute
         * rate by the time it spent streaming its bytes; take that time out
         * (at the measured bandwidth) where it is under half of T, so that
         * eta_compute is not pushed above 1 by the choice of roof. */
        peak = r->best_gemm_flops;
        for (int i = 0; bw > 0 && i < r->n_points; i++) {
            const calib_point *p = &r->points[i];
            if (p->kind == CALIB_POINT_COPY || !(p->time_s > 0))
                continue;
            double net = p->time_s - p->bytes / bw;
            if (net > 0.5 * p->time_s && p->flops / net > peak)
                peak = p->flops / net;
        }
        if (!r->peak_source[0])
            snprintf(r->peak_source, sizeof r->peak_source,
                     "peak = best measured GEMM net of its bytes at the copy "
                     "bandwidth; bandwidth = measured copy");
    }
    *peak_out = peak;
    *bw_out = bw;
}

static void fit_power_law(calib_result *r)
{
    r->has_power_law = 0;
    r->power_law_error[0] = '\0';
    engine_error perr = {{0}};
    if (calib_fit_power_law(r->points, r->n_points, &r->power_law, &perr) == 0)
        r->has_power_law = 1;
    else
        snprintf(r->power_law_error, sizeof r->power_law_error, "%s", perr.msg);
}

/* The engine's roofline and the classic max() one, on the GEMM points:
 * eta_memory is what the layer's kernels get from memory, which is what the
 * engine multiplies (a copy can stream faster than a GEMM reads its
 * weights, and on a CPU memcpy's read-for-ownership traffic makes its bytes
 * ambiguous).  The copy sets the CPU's bandwidth roof and stays in the
 * points.  *ng GEMM points, *nex of them kept out of eta_memory.  0 / -1. */
static int fit_rooflines(calib_result *r, double peak, double bw, int *ng, int *nex,
                         engine_error *err)
{
    int cap = r->n_points > 0 ? r->n_points : 1;
    calib_point *gemm = malloc((size_t)cap * (sizeof *gemm + 1));
    if (!gemm) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "roofline: out of memory");
        return -1;
    }
    unsigned char *excl = (unsigned char *)(gemm + cap);
    *ng = *nex = 0;
    int cpu_cache = !strcmp(r->dev.backend, "cpu") && r->cpu_cache_bytes > 0;
    for (int i = 0; i < r->n_points; i++)
        if (r->points[i].kind != CALIB_POINT_COPY) {
            gemm[*ng] = r->points[i];
            excl[*ng] = cpu_cache && r->points[i].bytes <= r->cpu_cache_bytes;
            *nex += excl[*ng];
            ++*ng;
        }
    calib_roofline_opts ro = {excl, 0, CALIB_ROOFLINE_ENGINE};
    int frc = calib_fit_roofline_ex(gemm, *ng, peak, bw, &ro, &r->roofline, err);
    /* The classic max() form on the same points, for comparison only. */
    ro.form = CALIB_ROOFLINE_MAX;
    r->has_roofline_max =
        frc == 0 && calib_fit_roofline_ex(gemm, *ng, peak, bw, &ro, &r->roofline_max, NULL) == 0;
    free(gemm);
    if (frc != 0) {
        r->roofline.peak_flops = peak;
        r->roofline.bandwidth = bw;
        return -1;
    }
    return 0;
}

/* r->roofline_note: points kept out of eta_memory, an eta clamped to 1;
 * and eta_memory from the copy when no GEMM was on the memory roof. */
static void roofline_note(calib_result *r, int ng, int nex, double bw)
{
    r->roofline_note[0] = '\0';
    size_t nl = 0;
    if (nex > 0)
        nl += (size_t)snprintf(r->roofline_note + nl, sizeof r->roofline_note - nl,
                               "%d of %d points fit in the %.3g MiB %s cache (the "
                               "copy that sets the bandwidth roof does not): kept "
                               "out of the eta_memory fit (compute and overhead "
                               "only), still in every MAPE. ",
                               nex, ng, r->cpu_cache_bytes / 1048576.0,
                               r->cpu_cache_name[0] ? r->cpu_cache_name : "data");
    /* No GEMM on the memory roof: eta_memory is only a lower bound; the
     * copy's efficiency is a better figure when it does not contradict it. */
    if (r->roofline.eta_memory_bound_only && r->copy_bandwidth > 0 &&
        r->copy_bandwidth / bw > r->roofline.eta_memory) {
        double e = r->copy_bandwidth / bw;
        r->roofline.eta_memory = e > 1 ? 1 : e;
    }
    for (int k = 0; k < 2 && nl < sizeof r->roofline_note; k++) {
        int clamped = k ? r->roofline.eta_memory_clamped : r->roofline.eta_compute_clamped;
        double freev = k ? r->roofline.eta_memory_free : r->roofline.eta_compute_free;
        if (clamped)
            nl += (size_t)snprintf(
                r->roofline_note + nl, sizeof r->roofline_note - nl,
                "eta_%s fits %.4g without the bound (faster than the %s roof%s); "
                "stored as the best fit with eta <= 1. ",
                k ? "memory" : "compute", freev, k ? "bandwidth" : "peak",
                k && !strcmp(r->dev.backend, "cpu") ? ": cached weights outrun the memcpy"
                                                    : "");
    }
    if (nl > 0 && nl < sizeof r->roofline_note && r->roofline_note[nl - 1] == ' ')
        r->roofline_note[nl - 1] = '\0';
}

/* Cross errors, so both models can be compared on the same points. */
static void cross_errors(calib_result *r)
{
    double ape_rf = 0, ape_dec = 0, ape_pl = 0;
    int n_pre = 0, n_dec = 0, n_pl = 0;
    for (int i = 0; i < r->n_points; i++) {
        const calib_point *p = &r->points[i];
        double rf = calib_roofline_predict(&r->roofline, p->flops, p->bytes);
        if (p->kind == CALIB_POINT_PREFILL) {
            ape_rf += fabs(rf - p->time_s) / p->time_s;
            n_pre++;
        } else if (p->kind == CALIB_POINT_DECODE) {
            ape_dec += fabs(rf - p->time_s) / p->time_s;
            n_dec++;
        }
        if (p->kind != CALIB_POINT_COPY && r->has_power_law) {
            double pl = calib_power_law_predict(&r->power_law, calib_point_x(p));
            ape_pl += fabs(pl - p->time_s) / p->time_s;
            n_pl++;
        }
    }
    r->roofline_mape_prefill = n_pre ? ape_rf / n_pre : 0;
    r->roofline_mape_decode = n_dec ? ape_dec / n_dec : 0;
    r->power_law_mape_all = n_pl ? ape_pl / n_pl : 0;
}

/* Alpha-beta of one series into *fit / *has, or the reason into why. */
static void fit_series(const calib_comm_point *pts, int n, calib_alpha_beta *fit, int *has,
                       char *why, size_t why_len)
{
    *has = 0;
    engine_error e = {{0}};
    if (calib_fit_alpha_beta(pts, n, fit, &e) == 0)
        *has = 1;
    else
        snprintf(why, why_len, "%s", e.msg);
}

/* The per-kernel fit of r's kernel points: relative to the chosen
 * datasheet peak on a GPU (its SMs in the shape model), to the best
 * measured GEMM on the CPU.  A failure leaves has_per_kernel 0 and says
 * why in kernel_note. */
static void fit_kernels(calib_result *r, double gpu_peak)
{
    r->has_per_kernel = 0;
    if (r->n_kpoints == 0)
        return;
    int gpu = !strcmp(r->dev.backend, "cuda");
    memset(&r->per_kernel, 0, sizeof r->per_kernel);
    r->per_kernel.peak_flops = gpu ? gpu_peak : 0;
    r->per_kernel.sm = gpu ? r->dev.sm_count : 0;
    r->per_kernel.packs = !gpu;
    r->per_kernel.peak_flops_fp8 = gpu ? r->peak_flops_fp8 : 0;
    r->per_kernel.cache_bytes = gpu ? 0 : r->cpu_cache_bytes;
    r->per_kernel.l2_bytes = gpu ? 0 : r->cpu_l2_bytes;
    r->per_kernel.unroll_n = gpu ? 0 : r->cpu_unroll_n;
    engine_error e = {{0}};
    if (calib_fit_per_kernel(r->kpoints, r->n_kpoints, &r->per_kernel, &e) == 0)
        r->has_per_kernel = 1;
    else
        snprintf(r->kernel_note, sizeof r->kernel_note, "%.500s", e.msg);
}

int calib_result_fit(calib_result *r, engine_error *err)
{
    double gpu_peak = r->roofline.peak_flops;
    fit_rates(r);
    double peak, bw;
    fit_roofs(r, &peak, &bw);
    fit_power_law(r);
    int ng, nex;
    if (fit_rooflines(r, peak, bw, &ng, &nex, err) != 0)
        return -1;
    roofline_note(r, ng, nex, bw);
    cross_errors(r);
    fit_kernels(r, gpu_peak);
    r->has_comm_fit = 0;
    if (r->n_comm > 0)
        fit_series(r->comm, r->n_comm, &r->comm_fit, &r->has_comm_fit, r->comm_error,
                   sizeof r->comm_error);
    r->has_p2p_fit = 0;
    if (r->n_p2p > 0) {
        r->p2p_error[0] = '\0'; /* a note left by an earlier fit is stale now */
        fit_series(r->p2p, r->n_p2p, &r->p2p_fit, &r->has_p2p_fit, r->p2p_error,
                   sizeof r->p2p_error);
    }
    return 0;
}

void calib_result_to_engine(const calib_result *r, engine_calib *out)
{
    memset(out, 0, sizeof *out);
    out->measured = 1;
    snprintf(out->device, sizeof out->device, "%s", r->dev.name);
    snprintf(out->date, sizeof out->date, "%s", r->date);
    snprintf(out->backend, sizeof out->backend, "%s", r->dev.backend);
    out->eta_compute = r->roofline.eta_compute;
    out->eta_memory = r->roofline.eta_memory;
    out->layer_overhead_s = r->roofline.overhead_s;
    calib_per_kernel_to_engine(r, out);
    calib_comm_to_engine(r, out);
}

/* One measured series as an engine curve on `gpus` GPUs (sizes ascending,
 * at most ENGINE_CURVE_MAX: the smallest kept). */
static void series_to_curve(const calib_comm_point *p, int n, int gpus, engine_curve *c)
{
    memset(c, 0, sizeof *c);
    if (gpus < 2)
        return;
    for (int i = 0; i < n && c->n < ENGINE_CURVE_MAX; i++) {
        if (!(p[i].bytes > 0 && p[i].time_s > 0) || (c->n > 0 && p[i].bytes <= c->bytes[c->n - 1]))
            continue;
        c->bytes[c->n] = p[i].bytes;
        c->time_s[c->n] = p[i].time_s;
        c->n++;
    }
    c->gpus = c->n > 0 ? gpus : 0;
}

void calib_comm_to_engine(const calib_result *r, engine_calib *out)
{
    if (!strstr(r->comm_label, "NCCL"))
        return; /* the loopback measures the OS, not an interconnect */
    int ranks = r->dev.count >= 2 ? r->dev.count : 2;
    if (ranks > 8)
        ranks = 8; /* the all-reduce ran over at most 8 GPUs (NCCL_MAX_DEV) */
    series_to_curve(r->comm, r->n_comm, ranks, &out->comm[ENGINE_OP_ALLREDUCE]);
    series_to_curve(r->p2p, r->n_p2p, 2, &out->comm[ENGINE_OP_P2P]);
    series_to_curve(r->allgather, r->n_allgather, r->coll_gpus, &out->comm[ENGINE_OP_ALLGATHER]);
    series_to_curve(r->alltoall, r->n_alltoall, r->coll_gpus, &out->comm[ENGINE_OP_ALLTOALL]);
}
