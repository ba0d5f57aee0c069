/*
 * grid.c - what a calibration run measures, in one place: the layer grids
 * of the cuda and CPU backends, the per-kernel sweep's GPU buffers, the
 * NCCL sweeps' sizes and repeats and the loopback's.  The backends measure
 * these and the plan (plan.c) counts and times the same, so the plan
 * cannot drift from the run.
 */
#include <math.h>
#include <stddef.h>

#include "calib.h"
#include "internal.h"

void calib_gpu_grid_for(int quick, calib_gpu_grid *g)
{
    static const int hid_f[] = {768, 1024, 2048, 4096, 5120, 8192};
    static const int hid_q[] = {768, 2048, 4096};
    static const int bat_f[] = {1, 2, 4, 8};
    static const int bat_q[] = {1, 4};
    static const int seq[] = {512, 2048};
    static const int dec_f[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
    static const int dec_q[] = {1, 16, 256};
    static const int dec_hid[] = {4096, 8192};
    if (quick)
        *g = (calib_gpu_grid){hid_q, bat_q, seq, dec_q, dec_hid, 3, 2, 2, 3, 1, 1, 3};
    else
        *g = (calib_gpu_grid){hid_f, bat_f, seq, dec_f, dec_hid, 6, 4, 2, 9, 2, 1, 5};
}

void calib_gpu_grid_bytes_of(const calib_gpu_grid *g, calib_gpu_grid_bytes *b)
{
    int hmax = g->hid[g->nh - 1] > g->dec_hid[g->ndh - 1] ? g->hid[g->nh - 1]
                                                           : g->dec_hid[g->ndh - 1];
    size_t tmax = (size_t)g->bat[g->nb - 1] * g->seq[g->ns - 1];
    if ((size_t)g->dec[g->nd - 1] > tmax)
        tmax = (size_t)g->dec[g->nd - 1];
    b->w = 12 * (size_t)hmax * hmax * 2;
    b->x = tmax * hmax * 2;
    b->q = 3 * b->x;
    b->y = 4 * b->x;
    b->copy = b->w < b->y ? b->w : b->y;
}

void calib_cpu_grid_for(int quick, calib_cpu_grid *g)
{
    /* --quick: the same 32 shapes, 3 timed passes instead of 5 (median of
     * 3; 1.6-2.0 s instead of 2.25 s at load 2): the layer fits are the
     * engine's only for a file without a per-kernel fit, and what reads them
     * (the saved roofline / power law, the table, the explorer's calibration
     * view) keeps every shape; dropping shapes instead moved the roofline's
     * MAPE from 13-15 % to 16-28 % (README, Calibration). */
    static const int hid_q[] = {128, 256, 384, 512};
    static const int hid_f[] = {256, 512, 768, 1024};
    static const int bat_q[] = {1, 2, 4};
    static const int bat_f[] = {1, 2, 4, 8};
    /* Token counts are multiples of 6 rows (a register tile of the CPU's
     * SGEMM kernels), so the sweep measures the GEMM rather than its
     * ragged-edge handling (a GPU has the same effect with its tile sizes;
     * there it stays in the data). */
    static const int seq[] = {48, 192};
    static const int dec_tok[] = {1, 6, 24, 96, 240};
    *g = (calib_cpu_grid){.hid = quick ? hid_q : hid_f, .bat = quick ? bat_q : bat_f,
                          .seq = seq, .dec = dec_tok, .nh = 4, .nb = quick ? 3 : 4, .ns = 2,
                          .nd = quick ? 4 : 5, .passes = quick ? 3 : 5, .max_inner = 64,
                          .copy_warmup = 1, .copy_reps = 5, .group_s = quick ? 2e-3 : 5e-3,
                          .copy_bytes = quick ? (64u << 20) : (256u << 20)};
}

int calib_cpu_grid_inner(const calib_cpu_grid *g, double t)
{
    int inner = t > 0 && t < g->group_s ? (int)(g->group_s / t) + 1 : 1;
    return inner > g->max_inner ? g->max_inner : inner;
}

void calib_kgpu_bytes(const calib_opts *o, double *w, double *x, double *y)
{
    const engine_model *m = o->model;
    double d = m->hidden, f = m->ffn > m->moe_ffn ? m->ffn : m->moe_ffn;
    double wide = 2 * f > ((double)m->heads + 2.0 * m->kv_heads) * m->head_dim
                      ? 2 * f : ((double)m->heads + 2.0 * m->kv_heads) * m->head_dim;
    double tmax = o->max_tokens > 0 ? o->max_tokens : (o->quick ? 4096 : 16384);
    *w = fmax(wide * d * 2, 1100e6);
    *x = fmax(tmax * fmax(f, d) * 2, 1100.0 * 1048576); /* PV at 4096 tokens */
    *y = fmax(tmax * wide * 2, 1100.0 * 1048576);
}

void calib_nccl_spec(int quick, calib_comm_sweep_spec *spec)
{
    /* 1 KiB .. max in steps of 4x; one warm-up call (NCCL connects lazily:
     * the first operation between two GPUs pays for the setup), median of 3
     * timed calls, each itself an average over calib_nccl_iters operations. */
    size_t max_bytes = quick ? (64u << 20) : ((size_t)1 << 30);
    *spec = (calib_comm_sweep_spec){"nccl all-reduce", 1024, max_bytes, 4, 1, 3};
}

/* Operations per timed call: enough to amortise the host's launch and
 * synchronisation for small messages, few for the large ones. */
int calib_nccl_iters(size_t bytes)
{
    return bytes <= (1u << 20) ? 20 : bytes <= (64u << 20) ? 5 : 2;
}

size_t calib_loopback_max_bytes(int quick)
{
    return quick ? (4u << 20) : (256u << 20);
}

/* Enough round trips for ~20 ms of each size, 5 to 41. */
int calib_loopback_reps(double t)
{
    int reps = t > 0 ? (int)(0.02 / t) : 41;
    return reps < 5 ? 5 : reps > 41 ? 41 : reps;
}

void calib_kexec_for_plan(int gpu, int has_fp8, int has_bf16, calib_kexec *x)
{
    *x = (calib_kexec){.tag = gpu ? "cuda" : "cpu", .gpu = gpu, .has_graph = gpu,
                       .has_attn = 1, .has_launch = 1, .has_fp8 = gpu && has_fp8,
                       .has_bf16 = gpu && has_bf16, .dtype = gpu ? "fp16" : "fp32",
                       .elem = gpu ? 2 : 4,
                       .prior_flops = gpu ? CALIB_CUDA_PRIOR_FLOPS : CALIB_CPU_PRIOR_FLOPS,
                       .prior_bw = gpu ? CALIB_CUDA_PRIOR_BW : CALIB_CPU_PRIOR_BW,
                       .prior_call_s = gpu ? CALIB_CUDA_PRIOR_CALL_S : CALIB_CPU_PRIOR_CALL_S};
}
