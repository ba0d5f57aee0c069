/*
 * plan.c - a calibration's time budget before it runs (calibrate --plan):
 * the phases a run of these options measures, each with its timed kernels,
 * warm-up and repeat counts - read from the code that runs (grid.c, the
 * per-kernel sweep's own plan, calib_kplan_build) - and its predicted time:
 * on a GPU preset the engine's kernel model for every measured shape
 * (engine_gemm_s, engine_grouped_gemm_s, engine_small_kernel_s,
 * engine_comm_time) times its runs, plus the host costs the code has per
 * measurement and per setup (named CALIB_PLAN_* below, each an assumption
 * until a GPU run measures it: calib/gpu_check.sh prints both).  On the CPU
 * the backend's own rough rates (the sweep's planned budget) stand in for a
 * kernel model: the engine has none for a CPU.  Nothing here measures or
 * prints; the sweep's plan is built in one temporary allocation.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "internal.h"

/* Host-side costs the real run pays and the engine does not model.  Each is
 * an assumption, stated in the plan's text; the first GPU run checks the
 * sum against the measured layer-grid phase (which holds the setup). */
/* CUDA context creation, dlopen of libcudart / libcublas / libcublasLt and
 * cublasCreate, once per run. */
#define CALIB_PLAN_GPU_INIT_S 1.5
/* cudaMemcpy host to device from pageable memory (fill_device's 8 MiB
 * chunks): well under PCIe Gen5 x16's 64 GB/s; assumed 10 GB/s. */
#define CALIB_PLAN_H2D_BYTES_PER_S 10e9
/* ncclCommInitAll over the run's GPUs and the first connection. */
#define CALIB_PLAN_NCCL_INIT_S 1.0
/* The loopback (2 local processes over a socketpair): one-way rate and the
 * fixed cost of a round trip on the host. */
#define CALIB_PLAN_LOOPBACK_BYTES_PER_S 2e9
#define CALIB_PLAN_LOOPBACK_RTT_S 20e-6

/* The run's device: a GPU preset, or the CPU when g is NULL. */
typedef struct plan_dev {
    const engine_gpu *g;
    const engine_link *link;
    const engine_framework *fw;
    double call_s; /* host cost per timed call */
    const calib_kexec *x;
} plan_dev;

static calib_plan_phase *phase_get(calib_plan *pl, const char *name, const char *slot)
{
    for (int i = 0; i < pl->n_phases; i++)
        if (!strcmp(pl->phase[i].name, name))
            return &pl->phase[i];
    if (pl->n_phases >= CALIB_PLAN_MAX_PHASES)
        return &pl->phase[CALIB_PLAN_MAX_PHASES - 1]; /* never: the plan has ~30 */
    calib_plan_phase *ph = &pl->phase[pl->n_phases++];
    memset(ph, 0, sizeof *ph);
    snprintf(ph->name, sizeof ph->name, "%s", name);
    snprintf(ph->slot, sizeof ph->slot, "%s", slot);
    ph->warmup = -1;
    return ph;
}

/* Add `kernels` timed points of `warm` + `reps` runs each to ph, with
 * `dev_s` device seconds and `host_s` host seconds in all. */
static void phase_add(calib_plan_phase *ph, int kernels, int warm, int reps, double dev_s,
                      double host_s)
{
    if (kernels > 0) {
        if (ph->kernels == 0 || reps < ph->reps_min)
            ph->reps_min = reps;
        if (ph->kernels == 0 || reps > ph->reps_max)
            ph->reps_max = reps;
        if (ph->kernels == 0)
            ph->warmup = warm;
        else if (ph->warmup != warm)
            ph->warmup = -2; /* varies */
        ph->kernels += kernels;
        ph->runs += kernels * (warm + reps);
    }
    ph->device_s += dev_s;
    ph->host_s += host_s;
}

static engine_dtype math_of(const char *dtype)
{
    return !strcmp(dtype, "fp8") ? ENGINE_FP8 : !strcmp(dtype, "bf16") ? ENGINE_BF16 : ENGINE_FP16;
}

/* The engine's time of one run of kernel point p on GPU g. */
static double gpu_kernel_s(const plan_dev *d, const calib_kpoint *p)
{
    const engine_gpu *g = d->g;
    double e = !strcmp(p->dtype, "fp8") ? 1 : 2;
    switch (p->cls) {
    case CALIB_K_GEMM:
        return calib_kpoint_grouped(p)
                   ? engine_grouped_gemm_s(g, NULL, math_of(p->dtype), p->m, p->n, p->k,
                                           p->batch, e, e)
                   : engine_gemm_s(g, NULL, math_of(p->dtype), p->m, p->n, p->k, e, e);
    case CALIB_K_GEMV:
        return engine_gemm_s(g, NULL, ENGINE_FP16, 1, p->n, p->k, 2, 2);
    case CALIB_K_ATTN: /* one strided-batched call: batch GEMMs in one kernel */
        return engine_grouped_gemm_s(g, NULL, ENGINE_FP16, p->m, p->n, p->k, p->batch, 2, 2);
    case CALIB_K_COPY:
        return engine_small_kernel_s(g, p->bytes);
    case CALIB_K_LAUNCH: /* batch eager 4-byte memsets: the host's launch or the GPU's floor */
        return p->batch * fmax(d->fw->launch_s, engine_small_kernel_s(g, 4));
    default:             /* the same replayed in a graph */
        return p->batch * fmax(d->fw->graph_kernel_s, engine_small_kernel_s(g, 4));
    }
}

/* Row name and calib_phase_times slot of kernel point p (the sweep's own
 * progress labels; grouped MoE counts in "grouped_moe"). */
static void kpoint_row(const calib_kpoint *p, char *name, size_t len, const char **slot)
{
    static const char *const W[CALIB_K_COUNT] = {"model GEMMs", "GEMV", "copy", "attention",
                                                 "launch", "graph launch"};
    static const char *const S[CALIB_K_COUNT] = {"gemm", "gemv", "copy", "attention", "launch",
                                                 "launch"};
    *slot = S[p->cls];
    if (p->cls != CALIB_K_GEMM) {
        snprintf(name, len, "%s", W[p->cls]);
        return;
    }
    int g = calib_kpoint_grouped(p);
    if (g)
        *slot = "grouped_moe";
    else if (!strcmp(p->dtype, "fp8"))
        *slot = "gemm_fp8";
    snprintf(name, len, "%s %s TP%d", g ? "grouped MoE" : "model GEMMs", p->dtype, p->tp);
}

/* The per-kernel sweep (calib_kplan_build's points) into pl. */
static void plan_kernels(const calib_opts *o, const plan_dev *d, calib_plan *pl,
                         calib_kplan *k)
{
    calib_kplan_build(o, d->x, k);
    pl->max_tp = k->max_tp;
    pl->max_tokens = k->max_tokens;
    for (int i = 0; i < k->n; i++) {
        const calib_kpoint *p = &k->p[i];
        char name[CALIB_PLAN_NAME];
        const char *slot;
        kpoint_row(p, name, sizeof name, &slot);
        calib_plan_phase *ph = phase_get(pl, name, slot);
        double t = d->g ? gpu_kernel_s(d, p) : calib_kplan_prior_s(d->x, p) - d->call_s;
        /* the CPU's repeats: calib_cpu_runs of the prior time (the run's of its first) */
        int warm = k->warm[i], reps = k->reps[i];
        phase_add(ph, 1, warm, reps, (warm + reps) * t, (warm + reps) * d->call_s);
        if (p->cls == CALIB_K_GEMM && (ph->m_min == 0 || p->m < ph->m_min))
            ph->m_min = p->m;
        if (p->cls == CALIB_K_GEMM && p->m > ph->m_max)
            ph->m_max = p->m;
    }
    if (!d->g && k->n > 0) { /* sweep_in_passes: one untimed run of the first point */
        char name[CALIB_PLAN_NAME];
        const char *slot;
        kpoint_row(&k->p[0], name, sizeof name, &slot);
        double t = calib_kplan_prior_s(d->x, &k->p[0]);
        phase_add(phase_get(pl, name, slot), 0, 0, 0, t - d->call_s, d->call_s);
    }
}

/* One layer of the layer grid (4 GEMMs: QKV h->3h, out h->h, up h->4h,
 * down 4h->h over t tokens), one run. */
static double layer_s(const plan_dev *d, int h, int t)
{
    if (!d->g) {
        double f, b;
        calib_layer_cost(h, t, 4.0, &f, &b);
        return fmax(f / d->x->prior_flops, b / d->x->prior_bw);
    }
    const engine_gpu *g = d->g;
    return engine_gemm_s(g, NULL, ENGINE_FP16, t, 3.0 * h, h, 2, 2) +
           engine_gemm_s(g, NULL, ENGINE_FP16, t, h, h, 2, 2) +
           engine_gemm_s(g, NULL, ENGINE_FP16, t, 4.0 * h, h, 2, 2) +
           engine_gemm_s(g, NULL, ENGINE_FP16, t, h, 4.0 * h, 2, 2);
}

/* The cuda backend's setup and layer grid (calib_gpu_grid_for). */
static void plan_gpu_grid(const calib_opts *o, const plan_dev *d, calib_plan *pl)
{
    calib_gpu_grid gr;
    calib_gpu_grid_bytes gb;
    calib_gpu_grid_for(o->quick, &gr);
    calib_gpu_grid_bytes_of(&gr, &gb);
    double fill = (double)gb.w + gb.x + gb.y; /* gpu_setup fills w, x and y */
    if (o->model) {                            /* kgpu_setup fills its w and x */
        double w, x, y;
        calib_kgpu_bytes(o, &w, &x, &y);
        fill += w + x;
    }
    phase_add(phase_get(pl, "setup (context, buffers)", "layer_grid"), 0, 0, 0, 0,
              CALIB_PLAN_GPU_INIT_S + fill / CALIB_PLAN_H2D_BYTES_PER_S);
    calib_plan_phase *ph = phase_get(pl, "layer grid", "layer_grid");
    int w = gr.warmup, r = gr.reps;
    for (int i = 0; i < gr.nh * gr.nb * gr.ns; i++) {
        int ih = i / (gr.nb * gr.ns), ib = i / gr.ns % gr.nb, is = i % gr.ns;
        double t = layer_s(d, gr.hid[ih], gr.bat[ib] * gr.seq[is]);
        phase_add(ph, 1, w, r, (w + r) * t, (w + r) * d->call_s);
    }
    for (int i = 0; i < gr.ndh * gr.nd; i++) {
        double t = layer_s(d, gr.dec_hid[i / gr.nd], gr.dec[i % gr.nd]);
        phase_add(ph, 1, w, r, (w + r) * t, (w + r) * d->call_s);
    }
    double t = engine_small_kernel_s(d->g, 2.0 * (double)gb.copy);
    phase_add(phase_get(pl, "layer copy", "layer_grid"), 1, w, r, (w + r) * t,
              (w + r) * d->call_s);
}

/* The CPU backend's layer grid (calib_cpu_grid_for): one warm-up pass, then
 * `passes` passes of `inner` runs each; then the memcpy. */
static void plan_cpu_grid(const calib_opts *o, const plan_dev *d, calib_plan *pl)
{
    calib_cpu_grid g;
    calib_cpu_grid_for(o->quick, &g);
    calib_plan_phase *ph = phase_get(pl, "layer grid", "layer_grid");
    for (int ih = 0; ih < g.nh; ih++) {
        int nd = ih >= g.nh - 2 ? g.nd : 0;
        for (int k = 0; k < g.nb * g.ns + nd; k++) {
            int t = k < g.nb * g.ns ? g.bat[k / g.ns] * g.seq[k % g.ns] : g.dec[k - g.nb * g.ns];
            double s = layer_s(d, g.hid[ih], t) + 4 * d->call_s;
            int inner = calib_cpu_grid_inner(&g, s), runs = 1 + g.passes * inner;
            phase_add(ph, 1, 1, g.passes * inner, runs * (s - 4 * d->call_s),
                      runs * 4 * d->call_s);
        }
    }
    double t = 2.0 * (double)g.copy_bytes / d->x->prior_bw;
    int runs = g.copy_warmup + g.copy_reps;
    phase_add(phase_get(pl, "layer copy", "layer_grid"), 1, g.copy_warmup, g.copy_reps,
              runs * t, 0);
}

/* One NCCL sweep of op over n GPUs (calib_nccl_spec, calib_nccl_iters). */
static void plan_nccl_sweep(const calib_opts *o, const plan_dev *d, const char *name,
                            engine_collective op, int n, calib_plan *pl)
{
    calib_comm_sweep_spec sp;
    calib_nccl_spec(o->quick, &sp);
    calib_plan_phase *ph = phase_get(pl, name, "collectives");
    for (size_t b = sp.min_bytes; b <= sp.max_bytes; b *= (size_t)sp.factor) {
        int calls = sp.warmup + sp.reps, iters = calib_nccl_iters(b);
        double t = engine_comm_time(op, d->link, NULL, n, n, (double)b);
        /* each call: iters grouped operations between two syncs of every stream */
        phase_add(ph, 1, sp.warmup, sp.reps, calls * iters * t, calls * 2 * d->call_s);
        ph->runs += calls * (iters - 1);
    }
}

/* The collectives: NCCL over gpus >= 2, else the loopback. */
static void plan_comm(const calib_opts *o, const plan_dev *d, int gpus, calib_plan *pl)
{
    if (d->g && gpus >= 2 && d->link) {
        phase_add(phase_get(pl, "NCCL setup", "collectives"), 0, 0, 0, 0,
                  CALIB_PLAN_NCCL_INIT_S);
        plan_nccl_sweep(o, d, "NCCL all-reduce", ENGINE_OP_ALLREDUCE, gpus, pl);
        plan_nccl_sweep(o, d, "NCCL send/recv", ENGINE_OP_P2P, 2, pl);
        plan_nccl_sweep(o, d, "NCCL all-gather", ENGINE_OP_ALLGATHER, gpus, pl);
        plan_nccl_sweep(o, d, "NCCL all-to-all", ENGINE_OP_ALLTOALL, gpus, pl);
        return;
    }
    calib_plan_phase *ph = phase_get(pl, "loopback (2 processes)", "collectives");
    size_t max = calib_loopback_max_bytes(o->quick);
    for (size_t b = 1024; b <= max; b *= 4) {
        double rt = CALIB_PLAN_LOOPBACK_RTT_S + 2.0 * (double)b / CALIB_PLAN_LOOPBACK_BYTES_PER_S;
        int reps = calib_loopback_reps(rt);
        phase_add(ph, 1, 1, reps, 0, (1 + reps) * rt);
    }
}

static void plan_totals(calib_plan *pl)
{
    for (int i = 0; i < pl->n_phases; i++) {
        calib_plan_phase *ph = &pl->phase[i];
        ph->total_s = ph->device_s + ph->host_s;
        pl->kernels += ph->kernels;
        pl->device_s += ph->device_s;
        pl->host_s += ph->host_s;
    }
    pl->total_s = pl->device_s + pl->host_s;
}

static void plan_assumptions(const plan_dev *d, int nccl, calib_plan *pl)
{
    if (!d->g) {
        snprintf(pl->assumptions, sizeof pl->assumptions,
                 "CPU: no kernel model (the engine models GPUs): each point at the CPU "
                 "backend's own rough rates, the sweep's planned budget (%.0f GFLOP/s, "
                 "%.0f GB/s, %.1f µs per call), its repeats from that time as the run decides "
                 "them from its first; loopback %.0f GB/s one way + %.0f µs per round trip; "
                 "buffer fills and the fit (host) not counted",
                 CALIB_CPU_PRIOR_FLOPS / 1e9, CALIB_CPU_PRIOR_BW / 1e9,
                 CALIB_CPU_PRIOR_CALL_S * 1e6, CALIB_PLAN_LOOPBACK_BYTES_PER_S / 1e9,
                 CALIB_PLAN_LOOPBACK_RTT_S * 1e6);
        return;
    }
    snprintf(pl->assumptions, sizeof pl->assumptions,
             "device: the engine's kernel model of %s for every measured shape (no "
             "calibration applied; launch points: the generic framework's launch_s and "
             "graph_kernel_s); host, assumed: %.0f µs per timed call (event records, launch, "
             "cudaEventSynchronize; the sweep's own figure), %.1f s for the CUDA context, "
             "libraries and cuBLAS handle, buffer fills at %.0f GB/s (pageable cudaMemcpy)%s; "
             "%s; the fit (host) not counted",
             d->g->name, d->call_s * 1e6, CALIB_PLAN_GPU_INIT_S,
             CALIB_PLAN_H2D_BYTES_PER_S / 1e9,
             nccl ? ", ncclCommInitAll 1.0 s, NCCL ops at engine_comm_time on the preset's link"
                  : "",
             nccl ? "collectives over the GPUs given" : "one GPU: the loopback (2 local "
                                                        "processes) instead of NCCL");
}

int calib_plan_build(const calib_opts *o, const engine_gpu *g, const engine_link *link,
                     int gpus, calib_plan *pl, engine_error *err)
{
    memset(pl, 0, sizeof *pl);
    calib_kexec x;
    calib_kexec_for_plan(g != NULL, g && g->peak_flops[ENGINE_FP8] > 0,
                         g && g->peak_flops[ENGINE_BF16] > 0, &x);
    plan_dev d = {g, link, engine_framework_generic_ref(), x.prior_call_s, &x};
    if (g && !(g->hbm_bytes_per_s > 0 && g->peak_flops[ENGINE_FP16] > 0)) {
        engine_errorf(err, "calibration plan: GPU preset %s has no FP16 peak or HBM bandwidth",
                      g->name);
        return -1;
    }
    snprintf(pl->backend, sizeof pl->backend, "%s", g ? "cuda" : "cpu");
    snprintf(pl->device, sizeof pl->device, "%s", g ? g->name : "CPU");
    snprintf(pl->model, sizeof pl->model, "%s", o->model ? o->model->name : "");
    pl->quick = o->quick;
    pl->gpus = g ? (gpus > 0 ? gpus : 1) : 0;
    if (g)
        plan_gpu_grid(o, &d, pl);
    else
        plan_cpu_grid(o, &d, pl);
    if (o->model) {
        calib_kplan *k = malloc(sizeof *k); /* ~370 KB */
        if (!k) {
            engine_errorf(err, "calibration plan: out of memory");
            return -1;
        }
        plan_kernels(o, &d, pl, k);
        free(k);
    }
    int nccl = g && pl->gpus >= 2 && link && !o->skip_comm;
    if (!o->skip_comm)
        plan_comm(o, &d, pl->gpus, pl);
    plan_totals(pl);
    plan_assumptions(&d, nccl, pl);
    return 0;
}
