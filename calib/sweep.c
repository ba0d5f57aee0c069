/*
 * sweep.c - one calibration run from start to finish: pick the backend
 * (cuda when usable, else cpu, saying why), measure, choose the roofs the
 * efficiencies are relative to (the matched GPU preset's datasheet peaks,
 * else the device's own figures, else the best measured GEMM and copy),
 * measure communication, fit the three models, and turn the result into
 * JSON, an engine_calib and rows for the measured-vs-fitted view.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "calib.h"
#include "internal.h"

void calib_opts_defaults(calib_opts *o)
{
    memset(o, 0, sizeof *o);
    o->backend = CALIB_BACKEND_AUTO;
}

int calib_cancelled(const calib_opts *o)
{
    return o && o->cancel && atomic_load(o->cancel) != 0;
}

void calib_report(const calib_opts *o, double fraction, const char *step)
{
    if (o && o->progress)
        o->progress(o->progress_ctx, fraction < 0 ? 0 : fraction > 1 ? 1 : fraction,
                    step);
}

int calib_result_add_point(calib_result *r, const calib_point *p)
{
    /* Grow by doubling; the capacity is implied by powers of two >= 16. */
    int n = r->n_points;
    if (n == 0 || (n >= 16 && (n & (n - 1)) == 0)) {
        size_t cap = n == 0 ? 16 : (size_t)n * 2;
        calib_point *np = realloc(r->points, cap * sizeof *np);
        if (!np)
            return -1;
        r->points = np;
    }
    r->points[r->n_points++] = *p;
    return 0;
}

int calib_comm_append(calib_comm_point **pts, int *n, double bytes,
                      double time_s)
{
    int k = *n;
    if (k == 0 || (k >= 16 && (k & (k - 1)) == 0)) {
        size_t cap = k == 0 ? 16 : (size_t)k * 2;
        calib_comm_point *np = realloc(*pts, cap * sizeof *np);
        if (!np)
            return -1;
        *pts = np;
    }
    (*pts)[k].bytes = bytes;
    (*pts)[k].time_s = time_s;
    *n = k + 1;
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
    memset(r, 0, sizeof *r);
}

static double point_x(const calib_point *p)
{
    return (double)p->hidden * p->hidden * p->batch * p->seq;
}

int calib_result_fit(calib_result *r, engine_error *err)
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

    r->has_power_law = 0;
    r->power_law_error[0] = '\0';
    engine_error perr = {{0}};
    if (calib_fit_power_law(r->points, r->n_points, &r->power_law, &perr) == 0)
        r->has_power_law = 1;
    else
        snprintf(r->power_law_error, sizeof r->power_law_error, "%s", perr.msg);

    /* The roofline is fitted on the GEMM points: eta_memory is what the
     * layer's kernels get from memory, which is what the engine multiplies
     * (a copy can stream faster than a GEMM reads its weights, and on a
     * CPU memcpy's read-for-ownership traffic makes its bytes ambiguous).
     * The copy sets the CPU's bandwidth roof and stays in the points. */
    calib_point *gemm = malloc((size_t)(r->n_points > 0 ? r->n_points : 1) *
                               (sizeof *gemm + 1));
    if (!gemm) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "roofline: out of memory");
        return -1;
    }
    unsigned char *excl = (unsigned char *)(gemm + (r->n_points > 0 ? r->n_points : 1));
    int ng = 0, nex = 0;
    int cpu_cache = !strcmp(r->dev.backend, "cpu") && r->cpu_cache_bytes > 0;
    for (int i = 0; i < r->n_points; i++)
        if (r->points[i].kind != CALIB_POINT_COPY) {
            gemm[ng] = r->points[i];
            excl[ng] = cpu_cache && r->points[i].bytes <= r->cpu_cache_bytes;
            nex += excl[ng];
            ng++;
        }
    calib_roofline_opts ro = {excl, 0, CALIB_ROOFLINE_ENGINE};
    int frc = calib_fit_roofline_ex(gemm, ng, peak, bw, &ro, &r->roofline, err);
    /* The classic max() form on the same points, for comparison only. */
    ro.form = CALIB_ROOFLINE_MAX;
    r->has_roofline_max =
        frc == 0 &&
        calib_fit_roofline_ex(gemm, ng, peak, bw, &ro, &r->roofline_max, NULL) == 0;
    free(gemm);
    if (frc != 0) {
        r->roofline.peak_flops = peak;
        r->roofline.bandwidth = bw;
        return -1;
    }
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
                "eta_%s fits %.3f without the bound (faster than the %s roof%s); "
                "stored as the best fit with eta <= 1. ",
                k ? "memory" : "compute", freev, k ? "bandwidth" : "peak",
                k && !strcmp(r->dev.backend, "cpu")
                    ? ": cached weights outrun the memcpy"
                    : "");
    }
    if (nl > 0 && nl < sizeof r->roofline_note && r->roofline_note[nl - 1] == ' ')
        r->roofline_note[nl - 1] = '\0';
    /* Cross errors, so both models can be compared on the same points. */
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
            double pl = calib_power_law_predict(&r->power_law, point_x(p));
            ape_pl += fabs(pl - p->time_s) / p->time_s;
            n_pl++;
        }
    }
    r->roofline_mape_prefill = n_pre ? ape_rf / n_pre : 0;
    r->roofline_mape_decode = n_dec ? ape_dec / n_dec : 0;
    r->power_law_mape_all = n_pl ? ape_pl / n_pl : 0;

    r->has_comm_fit = 0;
    if (r->n_comm > 0) {
        engine_error cerr = {{0}};
        if (calib_fit_alpha_beta(r->comm, r->n_comm, &r->comm_fit, &cerr) == 0)
            r->has_comm_fit = 1;
        else
            snprintf(r->comm_error, sizeof r->comm_error, "%s", cerr.msg);
    }
    r->has_p2p_fit = 0;
    if (r->n_p2p > 0) {
        /* A note left by an earlier fit of these points is stale now. */
        r->p2p_error[0] = '\0';
        engine_error p2perr = {{0}};
        if (calib_fit_alpha_beta(r->p2p, r->n_p2p, &r->p2p_fit, &p2perr) == 0)
            r->has_p2p_fit = 1;
        else
            snprintf(r->p2p_error, sizeof r->p2p_error, "%s", p2perr.msg);
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
}

/* --- choosing the roofs -------------------------------------------- */

/* Dense FP16/BF16 tensor-core FLOP per clock per SM, by compute
 * capability (datacentre parts; consumer parts of the same generation run
 * FP32 accumulation at half this rate).  0 when unknown. */
static double flop_per_clk_sm(int major, int minor)
{
    int cc = major * 10 + minor;
    if (cc == 70 || cc == 72 || cc == 75)
        return 1024;
    if (cc == 80)
        return 2048;
    if (cc == 86 || cc == 87 || cc == 89)
        return 1024;
    if (cc == 90)
        return 4096;
    if (cc >= 100)
        return 8192;
    return 0;
}

static void choose_roofs(const calib_opts *o, calib_result *r)
{
    r->roofline.peak_flops = 0;
    r->roofline.bandwidth = 0;
    if (strcmp(r->dev.backend, "cuda") != 0) {
        /* CPU: the best GEMM it ran and the copy it measured (no
         * datasheet figure for "this CPU, one thread"). */
        snprintf(r->peak_source, sizeof r->peak_source,
                 "cpu: peak = best measured SGEMM (1 thread) net of its bytes "
                 "at the memcpy rate, bandwidth = measured memcpy");
        return;
    }
    int idx = o->gpus ? calib_match_gpu_preset(r->dev.name, r->dev.memory_bytes,
                                               o->gpus, o->n_gpus)
                      : -1;
    if (idx >= 0) {
        const engine_gpu *g = &o->gpus[idx];
        snprintf(r->preset, sizeof r->preset, "%s", g->name);
        double pk = g->peak_flops[strcmp(r->dev.dtype, "bf16") == 0 ? ENGINE_BF16
                                                                    : ENGINE_FP16];
        if (!(pk > 0))
            pk = g->peak_flops[ENGINE_FP16];
        if (pk > 0 && g->hbm_bytes_per_s > 0) {
            r->roofline.peak_flops = pk;
            r->roofline.bandwidth = g->hbm_bytes_per_s;
            snprintf(r->peak_source, sizeof r->peak_source,
                     "preset %s: datasheet %s dense %.4g TFLOP/s, HBM %.4g TB/s",
                     g->name, r->dev.dtype, pk / 1e12, g->hbm_bytes_per_s / 1e12);
            return;
        }
    }
    double per = flop_per_clk_sm(r->dev.cc_major, r->dev.cc_minor);
    if (per > 0 && r->dev.sm_count > 0 && r->dev.clock_khz > 0) {
        r->roofline.peak_flops = per * r->dev.sm_count * r->dev.clock_khz * 1e3;
        if (r->dev.mem_clock_khz > 0 && r->dev.bus_width_bits > 0)
            r->roofline.bandwidth = 2.0 * r->dev.mem_clock_khz * 1e3 *
                                    r->dev.bus_width_bits / 8.0;
        snprintf(r->peak_source, sizeof r->peak_source,
                 "estimated: %d SMs x %.0f MHz x %.0f FLOP/clk (sm_%d%d); "
                 "bandwidth %s",
                 r->dev.sm_count, r->dev.clock_khz / 1e3, per, r->dev.cc_major,
                 r->dev.cc_minor,
                 r->roofline.bandwidth > 0 ? "2 x memory clock x bus width"
                                           : "= measured copy");
        return;
    }
    snprintf(r->peak_source, sizeof r->peak_source,
             "no preset and unknown architecture: peak = best measured GEMM, "
             "bandwidth = measured copy");
}

/* CPU caches from sysfs: when the reference copy (`working_set` bytes,
 * read + write) does not fit in the last-level data (or unified) cache of
 * cpu0, it measured memory, and a GEMM whose bytes fit in that cache
 * streams faster than the roof: r->cpu_cache_* get that cache.  When the
 * copy fits, copy and GEMMs stream from the same caches and nothing is
 * set.  Left 0 / "" when sysfs says nothing (another OS, a container
 * without /sys). */
static void detect_cpu_cache(calib_result *r, double working_set)
{
    r->cpu_cache_bytes = 0;
    r->cpu_cache_name[0] = '\0';
    if (!(working_set > 0))
        return;
    double llc = 0;
    int llc_level = 0;
    for (int idx = 0; idx < 16; idx++) {
        char path[96], buf[64];
        int level = 0;
        double size = 0;
        int usable = 0;
        static const char *const what[3] = {"level", "type", "size"};
        int ok = 1;
        for (int k = 0; k < 3 && ok; k++) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s",
                     idx, what[k]);
            FILE *f = fopen(path, "r");
            if (!f || !fgets(buf, sizeof buf, f))
                ok = 0;
            if (f)
                fclose(f);
            if (!ok)
                break;
            if (k == 0) {
                level = atoi(buf);
            } else if (k == 1) {
                usable = !strncmp(buf, "Data", 4) || !strncmp(buf, "Unified", 7);
            } else {
                char *end;
                size = strtod(buf, &end);
                if (*end == 'K')
                    size *= 1024;
                else if (*end == 'M')
                    size *= 1048576;
                else if (*end == 'G')
                    size *= 1073741824.0;
            }
        }
        if (!ok)
            break;
        if (usable && size > llc) {
            llc = size;
            llc_level = level;
        }
    }
    if (llc > 0 && llc < working_set) {
        r->cpu_cache_bytes = llc;
        snprintf(r->cpu_cache_name, sizeof r->cpu_cache_name, "L%d", llc_level);
    }
}

/* Progress of a backend (0..1) mapped into [lo, hi] of the whole run. */
typedef struct scaled_progress {
    const calib_opts *outer;
    double lo, hi;
} scaled_progress;

static void scaled_cb(void *ctx, double f, const char *step)
{
    scaled_progress *s = ctx;
    calib_report(s->outer, s->lo + (s->hi - s->lo) * f, step);
}

calib_status calib_run(const calib_opts *o, calib_result *out, engine_error *err)
{
    memset(out, 0, sizeof *out);
    calib_opts def;
    if (!o) {
        calib_opts_defaults(&def);
        o = &def;
    }
    int use_cuda = 0;
    if (o->backend == CALIB_BACKEND_CUDA || o->backend == CALIB_BACKEND_AUTO) {
        int count = 0;
        engine_error perr = {{0}};
        int rc = calib_cuda_probe(o->cuda, &count, &perr);
        if (rc == 0 && o->device >= count) {
            snprintf(perr.msg, sizeof perr.msg,
                     "no CUDA device %d (%d device%s visible)", o->device, count,
                     count == 1 ? "" : "s");
            rc = -1;
        }
        if (rc == 0) {
            use_cuda = 1;
        } else if (o->backend == CALIB_BACKEND_CUDA) {
            if (err)
                snprintf(err->msg, sizeof err->msg, "%s", perr.msg);
            return CALIB_NO_GPU;
        } else {
            snprintf(out->notes, sizeof out->notes,
                     "auto: no usable GPU (%.180s); measured the CPU instead",
                     perr.msg);
        }
    }
    calib_opts inner = *o;
    scaled_progress sp = {o, 0.0, o->skip_comm ? 1.0 : 0.85};
    inner.progress = scaled_cb;
    inner.progress_ctx = &sp;
    calib_status rc;
    if (use_cuda) {
        rc = calib_cuda_measure(&inner, out, err);
        if (rc == CALIB_NO_GPU && o->backend == CALIB_BACKEND_AUTO) {
            snprintf(out->notes, sizeof out->notes,
                     "auto: the GPU could not be used (%.180s); measured the "
                     "CPU instead", err ? err->msg : "");
            free(out->points);
            out->points = NULL;
            out->n_points = 0;
            use_cuda = 0;
            rc = calib_cpu_measure(&inner, out, err);
        }
    } else {
        rc = calib_cpu_measure(&inner, out, err);
    }
    if (rc != CALIB_OK)
        return rc;
    if (!use_cuda) {
        double ws = 0;
        for (int i = 0; i < out->n_points; i++)
            if (out->points[i].kind == CALIB_POINT_COPY && out->points[i].bytes > ws)
                ws = out->points[i].bytes;
        detect_cpu_cache(out, ws);
    }
    calib_now_iso(out->date, sizeof out->date);
    choose_roofs(o, out);

    if (!o->skip_comm) {
        sp.lo = 0.85;
        sp.hi = 1.0;
        engine_error cerr = {{0}};
        calib_status crc = CALIB_ERR;
        if (use_cuda && out->dev.count >= 2)
            crc = calib_cuda_comm(&inner, out, &cerr);
        if (crc != CALIB_OK && crc != CALIB_CANCELLED) {
            /* No NCCL sweep (one GPU, or NCCL unavailable): two local
             * processes, like the seed's Gloo loopback benchmark. */
            char why[ENGINE_ERROR_MAX];
            snprintf(why, sizeof why, "%s", cerr.msg);
            out->n_comm = 0;
            out->n_p2p = 0;
            out->p2p_label[0] = '\0';
            crc = calib_comm_loopback(&inner, o->quick ? (4u << 20) : (256u << 20),
                                      out, &cerr);
            if (crc == CALIB_OK && why[0])
                snprintf(out->comm_error, sizeof out->comm_error,
                         "NCCL not used: %.300s", why);
        }
        if (crc == CALIB_CANCELLED)
            return CALIB_CANCELLED;
        if (crc != CALIB_OK) {
            snprintf(out->comm_error, sizeof out->comm_error, "%s", cerr.msg);
            out->comm_label[0] = '\0';
            out->n_comm = 0;
        }
    }
    if (calib_cancelled(o))
        return CALIB_CANCELLED;
    if (calib_result_fit(out, err) != 0)
        return CALIB_ERR;
    calib_report(o, 1.0, "done");
    return CALIB_OK;
}

/* --- output ------------------------------------------------------------ */

static const char *kind_str(calib_point_kind k)
{
    return k == CALIB_POINT_PREFILL ? "prefill"
           : k == CALIB_POINT_DECODE ? "decode"
                                     : "copy";
}

int calib_result_plot_rows(const calib_result *r, calib_plot_row *rows, int cap)
{
    int n = 0;
    for (int i = 0; i < r->n_points && n < cap; i++) {
        const calib_point *p = &r->points[i];
        if (p->kind == CALIB_POINT_COPY)
            continue;
        rows[n].kind = p->kind;
        rows[n].x = point_x(p);
        rows[n].measured_s = p->time_s;
        rows[n].power_law_s =
            r->has_power_law ? calib_power_law_predict(&r->power_law, rows[n].x) : 0;
        rows[n].roofline_s =
            r->roofline.eta_compute > 0
                ? calib_roofline_predict(&r->roofline, p->flops, p->bytes)
                : 0;
        n++;
    }
    return n;
}

/* cJSON_Add*ToObject return NULL on failure; collect failures in *ok. */
static void add_num(cJSON *o, const char *k, double v, int *ok)
{
    if (!isfinite(v))
        v = 0;
    if (!cJSON_AddNumberToObject(o, k, v))
        *ok = 0;
}

static void add_str(cJSON *o, const char *k, const char *v, int *ok)
{
    if (!cJSON_AddStringToObject(o, k, v ? v : ""))
        *ok = 0;
}

/* An alpha-beta fit and its points as root[key] = {label, alpha_s,
 * bandwidth_bytes_per_s, r2, mape, points: [{bytes, time_s}]}; the object,
 * or NULL (and *ok = 0) when out of memory. */
static cJSON *add_comm_block(cJSON *root, const char *key, const char *label,
                             const calib_alpha_beta *f,
                             const calib_comm_point *pts, int n, int *ok)
{
    cJSON *c = cJSON_AddObjectToObject(root, key);
    if (!c) {
        *ok = 0;
        return NULL;
    }
    add_str(c, "label", label, ok);
    add_num(c, "alpha_s", f->alpha_s, ok);
    add_num(c, "bandwidth_bytes_per_s", f->bandwidth, ok);
    add_num(c, "r2", f->r2, ok);
    add_num(c, "mape", f->mape, ok);
    cJSON *cp = cJSON_AddArrayToObject(c, "points");
    for (int i = 0; cp && i < n; i++) {
        cJSON *e = cJSON_CreateObject();
        if (!e || !cJSON_AddItemToArray(cp, e)) {
            cJSON_Delete(e);
            *ok = 0;
            break;
        }
        add_num(e, "bytes", pts[i].bytes, ok);
        add_num(e, "time_s", pts[i].time_s, ok);
    }
    if (!cp)
        *ok = 0;
    return c;
}

char *calib_result_to_json(const calib_result *r)
{
    int ok = 1;
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    add_num(root, "schema", 1, &ok);
    add_str(root, "backend", r->dev.backend, &ok);
    add_str(root, "device", r->dev.name, &ok);
    add_str(root, "date", r->date, &ok);
    add_str(root, "preset", r->preset, &ok);
    if (r->notes[0])
        add_str(root, "notes", r->notes, &ok);
    cJSON *dev = cJSON_AddObjectToObject(root, "device_info");
    if (dev) {
        add_num(dev, "index", r->dev.index, &ok);
        add_num(dev, "count", r->dev.count, &ok);
        add_num(dev, "sm_count", r->dev.sm_count, &ok);
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", r->dev.cc_major, r->dev.cc_minor);
        add_str(dev, "compute_capability", cc, &ok);
        add_num(dev, "clock_khz", r->dev.clock_khz, &ok);
        add_num(dev, "memory_clock_khz", r->dev.mem_clock_khz, &ok);
        add_num(dev, "bus_width_bits", r->dev.bus_width_bits, &ok);
        add_num(dev, "driver_version", r->dev.driver_version, &ok);
        add_num(dev, "runtime_version", r->dev.runtime_version, &ok);
        add_num(dev, "memory_bytes", r->dev.memory_bytes, &ok);
        add_str(dev, "dtype", r->dev.dtype, &ok);
    } else {
        ok = 0;
    }
    add_str(root, "peak_source", r->peak_source, &ok);
    add_num(root, "best_gemm_flops", r->best_gemm_flops, &ok);
    add_num(root, "copy_bandwidth_bytes_per_s", r->copy_bandwidth, &ok);

    cJSON *pts = cJSON_AddArrayToObject(root, "points");
    if (!pts)
        ok = 0;
    for (int i = 0; pts && i < r->n_points; i++) {
        const calib_point *p = &r->points[i];
        cJSON *e = cJSON_CreateObject();
        if (!e || !cJSON_AddItemToArray(pts, e)) {
            cJSON_Delete(e);
            ok = 0;
            break;
        }
        add_str(e, "kind", kind_str(p->kind), &ok);
        add_num(e, "hidden", p->hidden, &ok);
        add_num(e, "batch", p->batch, &ok);
        add_num(e, "seq", p->seq, &ok);
        add_num(e, "flops", p->flops, &ok);
        add_num(e, "bytes", p->bytes, &ok);
        add_num(e, "time_s", p->time_s, &ok);
        if (r->roofline.eta_compute > 0)
            add_num(e, "roofline_s",
                    calib_roofline_predict(&r->roofline, p->flops, p->bytes), &ok);
        if (r->has_power_law && p->kind != CALIB_POINT_COPY)
            add_num(e, "power_law_s",
                    calib_power_law_predict(&r->power_law, point_x(p)), &ok);
    }

    if (r->has_power_law) {
        cJSON *pl = cJSON_AddObjectToObject(root, "power_law");
        if (pl) {
            add_num(pl, "a", r->power_law.a, &ok);
            add_num(pl, "beta", r->power_law.beta, &ok);
            add_num(pl, "mape", r->power_law.mape, &ok);
            add_num(pl, "r2", r->power_law.r2, &ok);
            add_num(pl, "n", r->power_law.n, &ok);
            add_num(pl, "mape_with_decode", r->power_law_mape_all, &ok);
        } else {
            ok = 0;
        }
    } else {
        if (!cJSON_AddNullToObject(root, "power_law"))
            ok = 0;
        add_str(root, "power_law_error", r->power_law_error, &ok);
    }

    cJSON *rf = cJSON_AddObjectToObject(root, "roofline");
    if (rf) {
        add_num(rf, "eta_compute", r->roofline.eta_compute, &ok);
        add_num(rf, "eta_memory", r->roofline.eta_memory, &ok);
        add_num(rf, "overhead_s", r->roofline.overhead_s, &ok);
        add_num(rf, "mape", r->roofline.mape, &ok);
        add_num(rf, "r2", r->roofline.r2, &ok);
        add_num(rf, "n", r->roofline.n, &ok);
        add_num(rf, "n_compute_bound", r->roofline.n_compute_bound, &ok);
        add_num(rf, "mape_prefill", r->roofline_mape_prefill, &ok);
        add_num(rf, "peak_flops", r->roofline.peak_flops, &ok);
        add_num(rf, "bandwidth_bytes_per_s", r->roofline.bandwidth, &ok);
        if (!cJSON_AddBoolToObject(rf, "eta_memory_lower_bound",
                                   r->roofline.eta_memory_bound_only) ||
            !cJSON_AddBoolToObject(rf, "eta_compute_lower_bound",
                                   r->roofline.eta_compute_bound_only))
            ok = 0;
        add_str(rf, "form", r->roofline.form == CALIB_ROOFLINE_ENGINE
                                ? "compute + memory + overhead (the engine's)"
                                : "max(compute, memory) + overhead", &ok);
        add_str(rf, "loss", "mean absolute relative error (MAPE)", &ok);
        add_num(rf, "mape_decode", r->roofline_mape_decode, &ok);
        /* Every point is one layer of 4 GEMMs: a per-GEMM launch cost is a
         * quarter of the per-layer overhead (the same fit). */
        add_num(rf, "gemms_per_layer", 4, &ok);
        add_num(rf, "overhead_per_gemm_s", r->roofline.overhead_s / 4, &ok);
        add_num(rf, "eta_compute_unconstrained", r->roofline.eta_compute_free, &ok);
        add_num(rf, "eta_memory_unconstrained", r->roofline.eta_memory_free, &ok);
        if (!cJSON_AddBoolToObject(rf, "eta_compute_clamped",
                                   r->roofline.eta_compute_clamped) ||
            !cJSON_AddBoolToObject(rf, "eta_memory_clamped",
                                   r->roofline.eta_memory_clamped))
            ok = 0;
        add_num(rf, "n_memory_excluded", r->roofline.n_memory_excluded, &ok);
        if (r->cpu_cache_bytes > 0) {
            add_num(rf, "cpu_cache_bytes", r->cpu_cache_bytes, &ok);
            add_str(rf, "cpu_cache", r->cpu_cache_name, &ok);
        }
        if (r->roofline_note[0])
            add_str(rf, "note", r->roofline_note, &ok);
    } else {
        ok = 0;
    }
    if (r->has_roofline_max) {
        cJSON *rm = cJSON_AddObjectToObject(root, "roofline_max");
        if (rm) {
            add_str(rm, "form", "max(compute, memory) + overhead (comparison only)", &ok);
            add_num(rm, "eta_compute", r->roofline_max.eta_compute, &ok);
            add_num(rm, "eta_memory", r->roofline_max.eta_memory, &ok);
            add_num(rm, "overhead_s", r->roofline_max.overhead_s, &ok);
            add_num(rm, "mape", r->roofline_max.mape, &ok);
            add_num(rm, "r2", r->roofline_max.r2, &ok);
        } else {
            ok = 0;
        }
    }

    if (r->comm_label[0] && r->has_comm_fit)
        add_comm_block(root, "comm", r->comm_label, &r->comm_fit, r->comm,
                       r->n_comm, &ok);
    if (r->comm_error[0])
        add_str(root, "comm_note", r->comm_error, &ok);
    if (r->p2p_label[0] && r->has_p2p_fit) {
        cJSON *c = add_comm_block(root, "comm_p2p", r->p2p_label, &r->p2p_fit,
                                  r->p2p, r->n_p2p, &ok);
        if (c)
            add_str(c, "convention",
                    "nccl-tests sendrecv: bytes = the message, algbw = busbw "
                    "= bytes / time", &ok);
    }
    if (r->p2p_error[0])
        add_str(root, "comm_p2p_note", r->p2p_error, &ok);

    char *text = ok ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    return text;
}
