/*
 * run.c - one calibration run from start to finish: pick the backend
 * (cuda when usable, else cpu, saying why), measure, choose the roofs the
 * efficiencies are relative to (the matched GPU preset's datasheet peaks,
 * else the device's own figures, else the best measured GEMM and copy),
 * measure communication (NCCL, else the loopback), and fit the three
 * models (calib_result_fit).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "internal.h"

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
            r->peak_flops_fp8 = g->peak_flops[ENGINE_FP8] > 0 ? g->peak_flops[ENGINE_FP8] : 2 * pk;
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
        /* FP8 tensor cores (sm_89 and later) run at twice the 16-bit rate */
        r->peak_flops_fp8 = 2 * r->roofline.peak_flops;
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

/* cpu0's L2 data (or unified) cache from sysfs; 0 when sysfs says nothing. */
static double cpu_l2_bytes(void)
{
    for (int idx = 0; idx < 16; idx++) {
        char path[96], lv[16] = "", ty[32] = "", sz[32] = "";
        char *bufs[3] = {lv, ty, sz};
        static const char *const what[3] = {"level", "type", "size"};
        for (int k = 0; k < 3; k++) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", idx,
                     what[k]);
            FILE *f = fopen(path, "r");
            if (f) {
                if (!fgets(bufs[k], k == 0 ? (int)sizeof lv : (int)sizeof ty, f))
                    bufs[k][0] = '\0';
                fclose(f);
            }
        }
        if (!lv[0])
            break;
        if (atoi(lv) != 2 || (strncmp(ty, "Data", 4) && strncmp(ty, "Unified", 7)))
            continue;
        char *end;
        double size = strtod(sz, &end);
        return size * (*end == 'K' ? 1024.0 : *end == 'M' ? 1048576.0 : 1.0);
    }
    return 0;
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

/* Which backend runs: 1 cuda, 0 cpu.  CALIB_NO_GPU with err when --backend
 * cuda cannot run; with auto, out->notes says why the CPU runs instead. */
static calib_status pick_backend(const calib_opts *o, calib_result *out, int *use_cuda,
                                 engine_error *err)
{
    *use_cuda = 0;
    if (o->backend == CALIB_BACKEND_CPU)
        return CALIB_OK;
    int count = 0;
    engine_error perr = {{0}};
    int rc = calib_cuda_probe(o->cuda, &count, &perr);
    if (rc == 0 && o->device >= count) {
        snprintf(perr.msg, sizeof perr.msg, "no CUDA device %d (%d device%s visible)",
                 o->device, count, count == 1 ? "" : "s");
        rc = -1;
    }
    if (rc == 0) {
        *use_cuda = 1;
    } else if (o->backend == CALIB_BACKEND_CUDA) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s", perr.msg);
        return CALIB_NO_GPU;
    } else {
        snprintf(out->notes, sizeof out->notes,
                 "auto: no usable GPU (%.180s); measured the CPU instead", perr.msg);
    }
    return CALIB_OK;
}

/* The compute sweep on the chosen backend; auto falls back to the CPU when
 * the GPU fails to start after the probe (*use_cuda cleared). */
static calib_status measure(const calib_opts *o, const calib_opts *inner, calib_result *out,
                            int *use_cuda, engine_error *err)
{
    if (!*use_cuda)
        return calib_cpu_measure(inner, out, err);
    calib_status rc = calib_cuda_measure(inner, out, err);
    if (rc != CALIB_NO_GPU || o->backend != CALIB_BACKEND_AUTO)
        return rc;
    snprintf(out->notes, sizeof out->notes,
             "auto: the GPU could not be used (%.180s); measured the CPU instead",
             err ? err->msg : "");
    free(out->points);
    out->points = NULL;
    out->n_points = 0;
    memset(&out->phases, 0, sizeof out->phases); /* the GPU's attempt is not the CPU's */
    *use_cuda = 0;
    return calib_cpu_measure(inner, out, err);
}

/* The per-kernel classes' share of phases (what calib_ksweep timed). */
static double kernel_phases_s(const calib_phase_times *p)
{
    return p->gemm_s + p->gemm_fp8_s + p->grouped_s + p->gemv_s + p->copy_s + p->attention_s +
           p->launch_s;
}

/* NCCL with two or more GPUs, else two local processes, like the seed's
 * Gloo loopback benchmark.  CALIB_CANCELLED, else CALIB_OK (a failure
 * leaves out->comm_error and no series). */
static calib_status measure_comm(const calib_opts *o, const calib_opts *inner, int use_cuda,
                                 calib_result *out)
{
    engine_error cerr = {{0}};
    calib_status crc = CALIB_ERR;
    if (use_cuda && out->dev.count >= 2)
        crc = calib_cuda_comm(inner, out, &cerr);
    else if (use_cuda)
        snprintf(cerr.msg, sizeof cerr.msg,
                 "one GPU: no NCCL sweep (all-reduce, all-gather, all-to-all and send/recv "
                 "need 2 or more GPUs)");
    if (crc != CALIB_OK && crc != CALIB_CANCELLED) {
        char why[ENGINE_ERROR_MAX];
        snprintf(why, sizeof why, "%s", cerr.msg);
        out->n_comm = 0;
        out->n_p2p = 0;
        out->p2p_label[0] = '\0';
        out->n_allgather = out->n_alltoall = out->coll_gpus = 0;
        crc = calib_comm_loopback(inner, calib_loopback_max_bytes(o->quick), out, &cerr);
        if (crc == CALIB_OK && why[0])
            snprintf(out->comm_error, sizeof out->comm_error, "NCCL not used: %.300s", why);
    }
    if (crc == CALIB_CANCELLED)
        return CALIB_CANCELLED;
    if (crc != CALIB_OK) {
        snprintf(out->comm_error, sizeof out->comm_error, "%s", cerr.msg);
        out->comm_label[0] = '\0';
        out->n_comm = 0;
    }
    return CALIB_OK;
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
    calib_status rc = pick_backend(o, out, &use_cuda, err);
    if (rc != CALIB_OK)
        return rc;
    calib_opts inner;
    calib_progress_slice sp;
    calib_opts_slice(o, &sp, 0.0, o->skip_comm ? 1.0 : 0.85, &inner);
    double w0 = calib_now_s();
    if ((rc = measure(o, &inner, out, &use_cuda, err)) != CALIB_OK)
        return rc;
    double rest = calib_now_s() - w0 - kernel_phases_s(&out->phases);
    out->phases.layer_grid_s = rest > 0 ? rest : 0;
    if (!use_cuda) {
        double ws = 0;
        for (int i = 0; i < out->n_points; i++)
            if (out->points[i].kind == CALIB_POINT_COPY && out->points[i].bytes > ws)
                ws = out->points[i].bytes;
        detect_cpu_cache(out, ws);
        out->cpu_l2_bytes = cpu_l2_bytes();
        out->cpu_unroll_n = calib_blas_unroll_n(calib_blas_load(NULL));
    }
    calib_now_iso(out->date, sizeof out->date);
    choose_roofs(o, out);
    if (!o->skip_comm) {
        sp.lo = 0.85;
        sp.hi = 1.0;
        w0 = calib_now_s();
        if (measure_comm(o, &inner, use_cuda, out) == CALIB_CANCELLED)
            return CALIB_CANCELLED;
        out->phases.collectives_s = calib_now_s() - w0;
    }
    if (calib_cancelled(o))
        return CALIB_CANCELLED;
    w0 = calib_now_s();
    if (calib_result_fit(out, err) != 0)
        return CALIB_ERR;
    out->phases.fit_s = calib_now_s() - w0;
    out->has_phases = 1;
    calib_report(o, 1.0, "done");
    return CALIB_OK;
}
