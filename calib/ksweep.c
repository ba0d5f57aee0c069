/*
 * ksweep.c - the per-kernel sweep, the same on every backend: it plans the
 * points (the model's GEMMs at each TP degree and token count, a GEMV
 * sweep over weight sizes, one large copy, the attention proxy and the
 * launch points), prints nothing, reports progress per phase and times
 * each point through the backend's calib_kexec.
 *
 * The attention proxy is two batched GEMMs per shape (QK^T, then PV) at
 * the model's head dimension: it captures the tensor-core rate of
 * attention's matrix products at prefill and decode shapes.  It does not
 * capture the softmax, causal masking (it computes the full T x T scores,
 * twice the causal work), the fused kernels' tiling and on-chip reuse
 * (flash attention never writes the scores to memory; the proxy does), or
 * a paged KV cache's gathers.  The engine keeps its own attention model
 * (kernels.c), scaled to the measured device.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "internal.h"

#define KSWEEP_MAX CALIB_KSWEEP_MAX
/* Timed runs of a CPU point under 20 ms, under 100 ms and longer
 * (sweep_in_passes). */
#define CALIB_CPU_RUNS_SHORT 5
#define CALIB_CPU_RUNS_MID 3
#define CALIB_CPU_RUNS_LONG 2

typedef calib_kplan kplan;

static const int TOK_GPU[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};
static const int TOK_GPU_Q[] = {1, 4, 16, 64, 256, 1024, 4096};
static const int TOK_CPU[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048};
static const int TOK_CPU_Q[] = {1, 4, 16, 64, 256};

double calib_kplan_prior_s(const calib_kexec *x, const calib_kpoint *p)
{
    double t = x->prior_call_s;
    if (p->cls == CALIB_K_LAUNCH || p->cls == CALIB_K_GRAPH)
        return t * p->batch;
    double c = p->flops / x->prior_flops, m = p->bytes / x->prior_bw;
    return t + (c > m ? c : m);
}

static void plan_add(kplan *k, const calib_kexec *x, const calib_kpoint *p, int quick)
{
    if (k->n >= KSWEEP_MAX)
        return;
    double t = calib_kplan_prior_s(x, p);
    int warm = 1, reps = quick ? 3 : 5;
    if (!x->gpu) { /* runs in passes (sweep_in_passes): no warm-up of its own */
        warm = 0;
        reps = calib_cpu_runs(t);
    }
    k->p[k->n] = *p;
    k->warm[k->n] = warm;
    k->reps[k->n] = reps;
    k->planned_s += (warm + reps) * t;
    k->n++;
}

static calib_kpoint kp(calib_kclass c, const char *op, const char *dt, int m, int n, int k,
                       int batch, double elem)
{
    calib_kpoint p;
    memset(&p, 0, sizeof p);
    p.cls = c;
    snprintf(p.op, sizeof p.op, "%s", op);
    snprintf(p.dtype, sizeof p.dtype, "%s", dt);
    p.m = m;
    p.n = n;
    p.k = k;
    p.batch = batch;
    calib_kpoint_cost(&p, elem);
    return p;
}

/* GEMV over weights of 4 MB .. 1 GB (GPU; --quick x16 steps) or 64 MB ..
 * 256 MB (CPU: above its last-level cache; --quick 64 and 128 MB) at
 * k = hidden. */
static void plan_memory(kplan *k, const calib_kexec *x, const engine_model *m, int quick)
{
    double lo = x->gpu ? 4e6 : 64e6, top = x->gpu ? 1024e6 : (quick ? 128e6 : 256e6);
    double step = x->gpu ? (quick ? 16 : 4) : 2;
    int kk = m->hidden > 0 ? m->hidden : 4096;
    for (double b = lo; b <= top * 1.01; b *= step) {
        int n = (int)(b / (x->elem * kk));
        calib_kpoint p = kp(CALIB_K_GEMV, "gemv", x->dtype, 1, n, kk, 1, x->elem);
        plan_add(k, x, &p, quick);
    }
    double cb = x->gpu ? (quick ? 256.0 : 1024.0) * 1048576 : (quick ? 64.0 : 256.0) * 1048576;
    calib_kpoint c = kp(CALIB_K_COPY, "copy", x->dtype, 0, 0, 0, 1, x->elem);
    c.flops = 0;
    c.bytes = 2.0 * cb;
    plan_add(k, x, &c, quick);
}

/* QK^T and PV at prefill lengths and decode contexts (TP 1's heads). */
static void plan_attention(kplan *k, const calib_kexec *x, const engine_model *m, int quick)
{
    static const int pre_g[] = {512, 2048, 4096}, pre_c[] = {256, 1024};
    static const int dec_g[] = {1024, 8192, 32768}, dec_c[] = {1024, 4096};
    int h = m->heads, kv = m->kv_heads > 0 ? m->kv_heads : h, dh = m->head_dim;
    int grp = h / kv > 0 ? h / kv : 1, seqs = 8;
    int np = x->gpu ? (quick ? 2 : 3) : (quick ? 1 : 2);
    if (!x->has_attn)
        return;
    for (int i = 0; i < np; i++) {
        int t = x->gpu ? pre_g[quick && i ? 2 : i] : pre_c[i];
        calib_kpoint a = kp(CALIB_K_ATTN, "prefill_qk", x->dtype, t, t, dh, h, x->elem);
        calib_kpoint b = kp(CALIB_K_ATTN, "prefill_pv", x->dtype, t, dh, t, h, x->elem);
        plan_add(k, x, &a, quick);
        plan_add(k, x, &b, quick);
    }
    for (int i = 0; i < np; i++) {
        int c = x->gpu ? dec_g[quick && i ? 1 : i] : dec_c[i];
        calib_kpoint a = kp(CALIB_K_ATTN, "decode_qk", x->dtype, grp, c, dh, seqs * kv, x->elem);
        calib_kpoint b = kp(CALIB_K_ATTN, "decode_pv", x->dtype, grp, dh, c, seqs * kv, x->elem);
        plan_add(k, x, &a, quick);
        plan_add(k, x, &b, quick);
    }
}

static void plan_launch(kplan *k, const calib_kexec *x, int quick)
{
    calib_kpoint l = kp(CALIB_K_LAUNCH, x->gpu ? "memset" : "sgemm_1", x->dtype, 0, 0, 0, 256, 0);
    l.flops = l.bytes = 0;
    if (!x->has_launch)
        return;
    plan_add(k, x, &l, quick);
    if (x->has_graph) {
        calib_kpoint g = l;
        g.cls = CALIB_K_GRAPH;
        plan_add(k, x, &g, quick);
    }
}

/* The dense and grouped MoE GEMMs again in bf16 (x->has_bf16) at every
 * token count and TP degree of the fp16 ones, into the room left after the
 * first `used` planned GEMMs (k->gem). */
static void plan_bf16(kplan *k, const calib_kexec *x, const calib_opts *o, int max_tp,
                      const int *tok, int nt, int used)
{
    int room = KSWEEP_MAX - 32 - used;
    if (!x->has_bf16 || nt == 0 || room <= 0)
        return;
    int n = calib_plan_gemms(o->model, max_tp, tok, nt, "bf16", 2.0, k->gem + used, room);
    for (int i = 0; i < n && i < room; i++)
        plan_add(k, x, &k->gem[used + i], o->quick);
}

/* The whole plan; max_tp / max_tokens as calib_opts says. */
void calib_kplan_build(const calib_opts *o, const calib_kexec *x, kplan *k)
{
    const int *tok = x->gpu ? (o->quick ? TOK_GPU_Q : TOK_GPU) : (o->quick ? TOK_CPU_Q : TOK_CPU);
    int nt = x->gpu ? (o->quick ? 7 : 15) : (o->quick ? 5 : 12);
    int max_tp = o->max_tp > 0 ? o->max_tp : (x->gpu || !o->quick ? 8 : 4);
    int max_tok = o->max_tokens > 0 ? o->max_tokens : tok[nt - 1];
    while (nt > 1 && tok[nt - 1] > max_tok)
        nt--;
    memset(k, 0, sizeof *k);
    k->max_tp = max_tp;
    k->max_tokens = max_tok;
    int ng = calib_plan_gemms(o->model, max_tp, tok, nt, x->dtype, x->elem, k->gem, KSWEEP_MAX);
    if (ng > KSWEEP_MAX - 32)
        ng = KSWEEP_MAX - 32;
    for (int i = 0; i < ng; i++)
        plan_add(k, x, &k->gem[i], o->quick);
    if (x->has_fp8) { /* the same shapes in fp8 (cublasLt), after the 16-bit ones */
        int n8 = calib_plan_gemms(o->model, max_tp, tok, nt, "fp8", 1.0, k->gem + ng,
                                  KSWEEP_MAX - 32 - ng);
        if (n8 > KSWEEP_MAX - 32 - ng)
            n8 = KSWEEP_MAX - 32 - ng;
        for (int i = 0; i < n8; i++)
            plan_add(k, x, &k->gem[ng + i], o->quick);
        ng += n8;
    }
    plan_bf16(k, x, o, max_tp, tok, nt, ng);
    plan_memory(k, x, o->model, o->quick);
    plan_attention(k, x, o->model, o->quick);
    plan_launch(k, x, o->quick);
}

static const char *phase_label(const calib_kexec *x, const calib_kpoint *p, char *buf, size_t len)
{
    static const char *const W[CALIB_K_COUNT] = {"model GEMMs", "GEMV", "copy", "attention",
                                                 "launch", "graph launch"};
    if (p->cls == CALIB_K_GEMM)
        snprintf(buf, len, "%s: %s%s TP%d", x->tag, W[p->cls],
                 strcmp(p->dtype, "fp8") ? strcmp(p->dtype, "bf16") ? "" : " bf16" : " fp8",
                 p->tp);
    else
        snprintf(buf, len, "%s: %s", x->tag, W[p->cls]);
    return buf;
}

/* The phase of calib_phase_times point p's timing counts in. */
static double *phase_slot(calib_phase_times *ph, const calib_kpoint *p)
{
    if (calib_kpoint_grouped(p))
        return &ph->grouped_s;
    switch (p->cls) {
    case CALIB_K_GEMM: return strcmp(p->dtype, "fp8") ? &ph->gemm_s : &ph->gemm_fp8_s;
    case CALIB_K_GEMV: return &ph->gemv_s;
    case CALIB_K_COPY: return &ph->copy_s;
    case CALIB_K_ATTN: return &ph->attention_s;
    default: return &ph->launch_s;
    }
}

/* One timing of point p through x into *t, checked; its wall time (warm-up
 * and repeats) is added to p's phase in ph. */
static int time_one(const calib_kexec *x, calib_kpoint *p, int warm, int reps, double *t,
                    calib_phase_times *ph, engine_error *err)
{
    double w0 = calib_now_s();
    int rc = x->time(x->ctx, p, warm, reps, t, err);
    *phase_slot(ph, p) += calib_now_s() - w0;
    if (rc != 0)
        return -1;
    if (!(*t > 0) || !isfinite(*t)) {
        engine_errorf(err, "%s backend: %s %dx%dx%d: time not positive", x->tag, p->op, p->m,
                      p->n, p->k);
        return -1;
    }
    return 0;
}

int calib_cpu_runs(double t)
{
    return t < 0.02 ? CALIB_CPU_RUNS_SHORT : t < 0.1 ? CALIB_CPU_RUNS_MID : CALIB_CPU_RUNS_LONG;
}

/* The GPU's order: each point's warm-up and repeats back to back, the
 * median (the backend's).  Points go to k->p[i].time_s. */
static calib_status sweep_in_order(const calib_opts *o, const calib_kexec *x, kplan *k,
                                   calib_result *r, engine_error *err)
{
    char label[64];
    int fp8_failed = 0;
    for (int i = 0; i < k->n; i++) {
        if (calib_cancelled(o))
            return CALIB_CANCELLED;
        calib_report(o, (double)i / k->n, phase_label(x, &k->p[i], label, sizeof label));
        k->p[i].calls = 1;
        engine_error e = {{0}};
        if (time_one(x, &k->p[i], k->warm[i], k->reps[i], &k->p[i].time_s, &r->phases, &e) == 0)
            continue;
        if (strcmp(k->p[i].dtype, "fp8") != 0) {
            if (err)
                *err = e;
            return CALIB_ERR;
        }
        /* an fp8 shape cublasLt refuses (alignment, no kernel): left out,
         * said, the rest of the sweep kept */
        k->p[i].time_s = 0;
        if (fp8_failed++ == 0) {
            size_t used = strlen(r->kernel_note);
            snprintf(r->kernel_note + used, sizeof r->kernel_note - used, "; fp8 left out: %.160s",
                     e.msg);
        }
    }
    return CALIB_OK;
}

/* The CPU's order: round-robin passes over the whole plan, one run of each
 * point per pass (after one untimed run of the first point: the library's
 * buffers), a point's time the minimum of its runs.  On a shared machine a
 * neighbour's burst of memory traffic lands on one pass, not on every
 * repeat of one point; and it can only slow a run down, so the fastest run
 * is the one least disturbed (Python's timeit documents the same reading:
 * docs.python.org/3/library/timeit.html, Timer.repeat).  Points go to
 * k->p[i].time_s. */
static calib_status sweep_in_passes(const calib_opts *o, const calib_kexec *x, kplan *k,
                                    calib_phase_times *ph, engine_error *err)
{
    char label[64];
    double t;
    int runs[KSWEEP_MAX], total = 0, done = 0;
    if (k->n > 0 && time_one(x, &k->p[0], 0, 1, &t, ph, err) != 0)
        return CALIB_ERR;
    for (int i = 0; i < k->n; i++) {
        runs[i] = 1;
        total += CALIB_CPU_RUNS_SHORT;
    }
    for (int pass = 0; pass < CALIB_CPU_RUNS_SHORT; pass++) {
        for (int i = 0; i < k->n; i++) {
            if (pass >= runs[i])
                continue;
            if (calib_cancelled(o))
                return CALIB_CANCELLED;
            calib_report(o, (double)done++ / total, phase_label(x, &k->p[i], label, sizeof label));
            calib_kpoint *p = &k->p[i];
            p->calls = 1;
            if (time_one(x, p, 0, 1, &t, ph, err) != 0)
                return CALIB_ERR;
            if (pass == 0) {
                p->time_s = t;
                runs[i] = calib_cpu_runs(t);
                total -= CALIB_CPU_RUNS_SHORT - runs[i];
            } else if (t < p->time_s) {
                p->time_s = t;
            }
        }
    }
    return CALIB_OK;
}

calib_status calib_ksweep(const calib_opts *o, const calib_kexec *x, calib_result *r,
                          engine_error *err)
{
    if (!o->model)
        return CALIB_OK;
    kplan *k = malloc(sizeof *k);
    if (!k) {
        engine_errorf(err, "%s backend: out of memory planning the sweep", x->tag);
        return CALIB_ERR;
    }
    calib_kplan_build(o, x, k);
    snprintf(r->model, sizeof r->model, "%s", o->model->name);
    r->planned_s = k->planned_s;
    char label[64];
    snprintf(label, sizeof label, "%s: planned %d points, ~%.0f s", x->tag, k->n,
             k->planned_s);
    calib_report(o, 0.0, label);
    calib_status rc = x->gpu ? sweep_in_order(o, x, k, r, err)
                             : sweep_in_passes(o, x, k, &r->phases, err);
    for (int i = 0; i < k->n && rc == CALIB_OK; i++)
        if (k->p[i].time_s > 0 && calib_result_add_kpoint(r, &k->p[i]) != 0) {
            engine_errorf(err, "%s backend: out of memory", x->tag);
            rc = CALIB_ERR;
        }
    free(k);
    if (rc == CALIB_OK)
        calib_report(o, 1.0, "kernels done");
    return rc;
}
