/*
 * kernels.c - the cost of one kernel on one GPU: GEMMs with tile and wave
 * quantization, prefill and decode attention, the small element-wise
 * kernels of a layer, and the constants behind them (GPU preset, measured
 * calibration, framework profile).  eval.c adds these up, kernel by kernel,
 * into the steps of a plan.
 *
 * The forms and their constants were checked shape by shape against
 * NVIDIA's measured kernel latencies (aiconfigurator-core 0.12.0 perf data;
 * `make validate-kernels`) and vidur's per-operator profiling; the README
 * ("The model") lists every constant with its source.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "internal.h"

/* Defaults for GPUs whose preset leaves a per-kernel constant out. */
#define DEF_GEMM_T0_S 5e-6        /* A100/H200 bf16 fits, aiconfigurator gemm.csv */
#define DEF_ATTN_T0_S 15e-6       /* context_attention.csv fits */
#define DEF_DECODE_ATTN_T0_S 10e-6 /* generation_attention.csv fits */
#define DEF_DECODE_SEQ_S 0.5e-6
#define DEF_FLOOR_S 4e-6          /* vidur: norms, rotary, add at a few tokens */
#define DEF_ETA_SMALL 0.6         /* vidur: add, norm, activation at 4096 tokens */
#define DEF_ETA_ATTN 0.5
#define DEF_ETA_ATTN_IO 0.3
#define DEF_SM 108

/* Tile shapes a GEMM library picks among, with their throughput relative
 * to the largest tile when every tile is full (smaller tiles re-read more
 * of A and B per FLOP).  Checked against aiconfigurator's measured GEMMs
 * (validate-kernels): median error 7-10 % on A100/H100/H200/B200. */
static const struct {
    double tm, tn, e;
} TILES[] = {
    {128, 256, 1.0}, {256, 128, 1.0}, {128, 128, 0.9},
    {64, 128, 0.75}, {128, 64, 0.75}, {64, 64, 0.55},
    /* skinny GEMMs (decode): an MMA tile of 16 rows, as GEMV-class kernels use */
    {16, 128, 0.5},
};
#define SPLIT_K_MIN 256.0   /* k per split */
#define SPLIT_K_EFF 0.7     /* a split's compute rate: each split runs a short k loop, its
                             * pipeline fill and drain unhidden (fit on the four gemm.csv
                             * tables; the step model also charges the partial sums'
                             * traffic, SPLIT_K_PARTIAL_BYTES) */
/* A split-K GEMM's splits each write their m x n partial sums in fp32 (the
 * accumulator type of 16-bit and FP8 tensor-core GEMMs) and a reduction reads
 * them back before the output is written (cuBLAS/CUTLASS parallel split-K:
 * a workspace of splits x m x n accumulators and a reduction kernel): 2 x 4
 * bytes per output element per split, at the GPU's streaming rate.  No fitted
 * constant: with it (and the split count the fastest of 1..smax),
 * aiconfigurator-core 0.12.0 gemm.csv bf16 median error goes 8.6 -> 7.7 %
 * (A100), 8.7 -> 8.5 % (H100), 12.4 -> 12.9 % (H200), 13.2 -> 13.0 % (B200);
 * the A100 rows at m = 96 / 128 (n, k >= 1024), where weight streaming and
 * the split kernels' compute take about as long, from bias 0.89 / 0.89 to
 * 0.96 / 0.99 (validate-kernels --by-m; README "The model"). */
#define SPLIT_K_PARTIAL_BYTES 8.0

/* The shape efficiency is a pure function of its five arguments and the
 * engine asks for the same few shapes over and over (every plan of a rank,
 * every cell of a grid): a small direct-mapped memo per thread saves most
 * of the tile loop.  Exact-match keys, so a hit returns what the loop would. */
#define ETA_MEMO 256
typedef struct eta_memo {
    double m, n, k, groups, eta;
    int sm;
} eta_memo;
static _Thread_local eta_memo memo[ETA_MEMO];

static uint64_t mix64(uint64_t h)
{
    /* the finaliser of MurmurHash3 */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
}

static uint64_t bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static uint64_t rotl(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static unsigned memo_slot(int sm, double m, double n, double k, double groups)
{
    uint64_t h = bits(m) ^ rotl(bits(n), 17) ^ rotl(bits(k), 31) ^ rotl(bits(groups), 47) ^
                 (uint64_t)sm;
    return (unsigned)(mix64(h) % ETA_MEMO);
}

static double shape_eta(int sm, double m, double n, double k, double groups);

double engine_gemm_shape_eta(int sm, double m, double n, double k, double groups)
{
    if (sm < 1 || !(m > 0) || !(n > 0) || !(k > 0))
        return 1.0;
    if (!(groups >= 1))
        groups = 1;
    eta_memo *e = &memo[memo_slot(sm, m, n, k, groups)];
    if (e->sm == sm && e->m == m && e->n == n && e->k == k && e->groups == groups)
        return e->eta;
    double eta = shape_eta(sm, m, n, k, groups);
    *e = (eta_memo){m, n, k, groups, eta, sm};
    return eta;
}

static double shape_eta(int sm, double m, double n, double k, double groups)
{
    double best = 0;
    for (size_t i = 0; i < sizeof TILES / sizeof TILES[0]; i++) {
        double tiles = groups * ceil(m / TILES[i].tm) * ceil(n / TILES[i].tn);
        double split = 1;
        if (tiles < sm) {
            split = floor(sm / tiles);
            double kmax = floor(k / SPLIT_K_MIN);
            if (split > kmax)
                split = kmax;
            if (split < 1)
                split = 1;
        }
        double waves = ceil(tiles * split / sm);
        double util = groups * m * n * split / (waves * sm * TILES[i].tm * TILES[i].tn);
        double e = TILES[i].e * util * (split > 1 ? SPLIT_K_EFF : 1.0);
        if (e > best)
            best = e;
    }
    if (best > 1)
        best = 1;
    return best > 0 ? best : 1e-3;
}

/* The tile shape and split-K a GEMM library picks for one GEMM whose FLOPs
 * take c0 at the full GEMM rate and whose bytes take mem: the fastest of the
 * TILES after tile and wave quantization, each with 1..smax splits, a split
 * of s running at SPLIT_K_EFF and costing s x part more streaming (the
 * partial sums; SPLIT_K_PARTIAL_BYTES).  Ties (a streaming-bound shape) go
 * to the higher shape efficiency.  A pure function of its arguments,
 * memoised per thread like engine_gemm_shape_eta (a larger table: its keys
 * also carry the rates, and a miss costs up to 4 candidates a tile). */
typedef struct gemm_pick {
    double eta;   /* shape efficiency of the compute, (0, 1] */
    double split; /* k splits, >= 1 */
} gemm_pick;

typedef struct pick_memo {
    double m, n, k, groups, c0, mem, part, min_tm, p;
    gemm_pick r;
    int sm;
} pick_memo;
#define PICK_MEMO 1024
static _Thread_local pick_memo pmemo[PICK_MEMO];

/* One tile with `split` k splits: its shape efficiency and time, the max of
 * its compute and its streaming or, with p > 0 (a dense GEMM of a kconst
 * with roof_p: kconst_init_q), their p-norm, so that the pick is the
 * fastest under the time kc_gemm charges. */
static double tile_time(int i, int sm, double m, double n, double groups, double tiles,
                        double split, double c0, double mem, double part, double p, double *eta)
{
    double waves = ceil(tiles * split / sm);
    double util = groups * m * n * split / (waves * sm * TILES[i].tm * TILES[i].tn);
    *eta = fmin(1.0, TILES[i].e * util * (split > 1 ? SPLIT_K_EFF : 1.0));
    double c = c0 / *eta, s = mem + (split > 1 ? split * part : 0);
    if (!(p > 0))
        return fmax(c, s);
    return p == 2.0 ? hypot(c, s) : pow(pow(c, p) + pow(s, p), 1.0 / p);
}

static gemm_pick pick_tiles(int sm, double m, double n, double k, double groups, double c0,
                            double mem, double part, double min_tm, double p)
{
    gemm_pick best = {0, 1};
    double best_t = INFINITY;
    for (int i = 0; i < (int)(sizeof TILES / sizeof TILES[0]); i++) {
        /* a GPU whose dense tensor-core kernels compute at least min_tm
         * token rows a tile (Hopper's warpgroup MMA, gemm_min_m) */
        if (TILES[i].tm < min_tm)
            continue;
        /* no split of this tile beats the best so far: its time is at least
         * the larger of c0 at the tile's full rate and the bare streaming (a
         * p-norm of the two is never less) */
        if (fmax(c0 / TILES[i].e, mem) > best_t * (1 + 1e-12))
            continue;
        double tiles = groups * ceil(m / TILES[i].tm) * ceil(n / TILES[i].tn);
        /* split-K only when the tiles leave SMs idle, each split >= SPLIT_K_MIN
         * deep, in one wave; the library picks how many (cuBLAS heuristics,
         * CUTLASS split_k_slices).  Over s the compute falls as 1/s and the
         * streaming grows by s x part: the fastest s is next to where they
         * cross, part s^2 + mem s = c0 / eta(1 split), or at an end. */
        double smax = tiles < sm ? fmax(1.0, fmin(floor(sm / tiles), floor(k / SPLIT_K_MIN))) : 1;
        double cand[4] = {1, smax, smax, smax};
        int nc = smax > 1 ? 2 : 1;
        if (smax > 2) {
            nc = 4;
            double e1 = TILES[i].e * SPLIT_K_EFF * groups * m * n / (sm * TILES[i].tm * TILES[i].tn);
            double a = c0 / e1;
            double x = part > 0 ? (sqrt(mem * mem + 4 * part * a) - mem) / (2 * part) : smax;
            cand[2] = fmin(smax, fmax(2, floor(x)));
            cand[3] = fmin(smax, fmax(2, ceil(x)));
        }
        for (int j = 0; j < nc; j++) {
            double e;
            double t = tile_time(i, sm, m, n, groups, tiles, cand[j], c0, mem, part, p, &e);
            if (t < best_t * (1 - 1e-12) || (t <= best_t * (1 + 1e-12) && e > best.eta)) {
                best_t = t;
                best = (gemm_pick){e, cand[j]};
            }
        }
    }
    if (!(best.eta > 0))
        best = (gemm_pick){1e-3, 1};
    return best;
}

static gemm_pick gemm_pick_memo(int sm, double m, double n, double k, double groups, double c0,
                                double mem, double part, double min_tm, double p)
{
    if (sm < 1)
        return (gemm_pick){1.0, 1};
    uint64_t h = bits(m) ^ rotl(bits(n), 17) ^ rotl(bits(k), 31) ^ rotl(bits(groups), 47) ^
                 rotl(bits(c0), 7) ^ rotl(bits(mem), 23) ^ rotl(bits(min_tm), 41) ^
                 rotl(bits(p), 53) ^ (uint64_t)sm;
    unsigned slot = (unsigned)(mix64(h) % PICK_MEMO);
    pick_memo *e = &pmemo[slot];
    if (e->sm == sm && e->m == m && e->n == n && e->k == k && e->groups == groups &&
        e->c0 == c0 && e->mem == mem && e->part == part && e->min_tm == min_tm && e->p == p)
        return e->r;
    gemm_pick r = pick_tiles(sm, m, n, k, groups, c0, mem, part, min_tm, p);
    *e = (pick_memo){m, n, k, groups, c0, mem, part, min_tm, p, r, sm};
    return r;
}

static double or_default(double v, double def)
{
    return v > 0 ? v : def;
}

/* The math a GEMM with weights of dtype w runs on g: native when the GPU
 * has a peak for it, else 16-bit (weight-only quantization dequantizes). */
static engine_dtype math_dtype(const engine_gpu *g, engine_dtype w)
{
    if (w == ENGINE_FP16 || w == ENGINE_BF16)
        return w;
    if ((unsigned)w < ENGINE_DTYPE_COUNT && g->peak_flops[w] > 0)
        return w;
    return ENGINE_FP16;
}

/* A schema-2 calibration (per-kernel fit) over the preset's constants.
 * The fitted GEMM rate (peak x gemm_efficiency) and streaming bandwidth
 * are the measured device's, absolute: they replace the preset's 16-bit
 * GEMM rate and its HBM x eta_memory, and the kernels the calibration does
 * not measure (attention, KV reads, element-wise traffic) are scaled by the
 * same ratios, so a calibration of another device (named explicitly)
 * describes that device throughout.  Low-precision math keeps the preset's
 * ratio to the 16-bit peak and its extra fixed cost. */
static void kconst_per_kernel(kconst *k, const engine_gpu *g, const engine_calib *c,
                              engine_dtype w)
{
    double f16 = g->peak_flops[ENGINE_FP16] * (g->eta_compute > 0 ? g->eta_compute : 1);
    double fcal = c->peak_flops * c->gemm_efficiency;
    double bw0 = k->bw;
    if (fcal > 0 && f16 > 0) {
        double r = fcal / f16;
        k->flops *= r;
        k->flops16 *= r;
    }
    if (c->fp8_flops > 0 && (k->math == ENGINE_FP8 || k->math == ENGINE_INT8))
        k->flops = c->fp8_flops; /* measured with cublasLt: its own rate */
    if (c->bw_bytes_per_s > 0 && bw0 > 0) {
        double r = c->bw_bytes_per_s / bw0;
        k->bw = c->bw_bytes_per_s;
        k->bw_kv *= r;
        k->bw_kv_cta *= r;
        k->bw_small *= r;
        k->bw_rows *= r;
        k->bw_attn_io *= r;
    }
    if (c->t0_s > 0) {
        double extra = k->gemm_t0 - or_default(g->gemm_t0_s, DEF_GEMM_T0_S);
        k->gemm_t0 = c->t0_s + (w != ENGINE_FP16 && w != ENGINE_BF16 && extra > 0 ? extra : 0);
    }
    if (c->small_kernel_s > 0)
        k->floor = c->small_kernel_s;
    if (c->launch_s > 0)
        k->launch_min = c->launch_s;
    /* Wave quantization on the calibration's own device: its SMs, or none
     * for a CPU (its fit had no shape term: engine_gemm_shape_eta(0) = 1). */
    if (c->sm > 0)
        k->sm = c->sm;
    else if (!strcmp(c->backend, "cpu"))
        k->sm = 0;
    k->pack_bw = c->pack_bytes_per_s > 0 ? c->pack_bytes_per_s : 0;
    k->pack_l2 = c->l2_bytes > 0 ? c->l2_bytes : 0;
    k->pack_unroll = c->unroll_n > 1 ? c->unroll_n : 0;
    k->tab = c->n_gemm > 0 ? c : NULL;
}

/* The calibration tables' dtype class of a GEMM's math (engine_calib_gemm
 * dclass): 0 fp16/bf16, 1 fp8/int8, 2 the rest. */
static int math_dclass(engine_dtype math)
{
    return (math == ENGINE_FP16 || math == ENGINE_BF16) ? 0
           : (math == ENGINE_FP8 || math == ENGINE_INT8) ? 1 : 2;
}

/* k's attention constants from g, the defaults where g sets none: prefill's
 * rates, fixed cost and softmax terms; decode's per-(sequence, head) form
 * and its form by thread block.  After k->flops16 and k->bw_kv. */
static void kconst_attn(kconst *k, const engine_gpu *g)
{
    k->bw_attn_io = g->hbm_bytes_per_s * or_default(g->eta_attn_io, DEF_ETA_ATTN_IO);
    k->eta_attn = or_default(g->eta_attn, DEF_ETA_ATTN);
    k->eta_attn_pre = or_default(g->eta_attn_prefill, k->eta_attn);
    k->attn_t0 = or_default(g->attn_t0_s, DEF_ATTN_T0_S);
    k->attn_cta = g->attn_cta_s > 0 ? g->attn_cta_s : 0.0;
    k->attn_score = g->attn_score_s > 0 ? g->attn_score_s : 0.0;
    k->attn_exp = g->attn_exp_s > 0 ? g->attn_exp_s : 0.0;
    k->decode_attn_t0 = or_default(g->decode_attn_t0_s, DEF_DECODE_ATTN_T0_S);
    k->decode_seq = or_default(g->decode_attn_seq_s, DEF_DECODE_SEQ_S);
    k->decode_cta = g->decode_attn_cta_s > 0 ? g->decode_attn_cta_s : 0.0;
    k->decode_cta8 = or_default(g->decode_attn_cta_fp8_s, k->decode_cta);
    k->decode_mha = or_default(g->decode_attn_mha_s, k->decode_cta);
    k->decode_head = g->decode_attn_head_s > 0 ? g->decode_attn_head_s : 0.0;
    k->decode_rate = k->flops16 * or_default(g->eta_attn_decode, k->eta_attn);
    k->decode_cta_t0 = or_default(g->decode_attn_cta_t0_s, k->decode_attn_t0);
    k->bw_kv_cta = g->eta_kv_cta > 0 ? g->hbm_bytes_per_s * g->eta_kv_cta : k->bw_kv;
}

void kconst_init(kconst *k, const engine_gpu *g, const engine_calib *c, engine_dtype w)
{
    memset(k, 0, sizeof *k);
    engine_dtype math = math_dtype(g, w);
    double eta_c = g->eta_compute, eta_m = g->eta_memory;
    double t0 = or_default(g->gemm_t0_s, DEF_GEMM_T0_S);
    if (c && c->measured && !c->per_kernel) {
        /* An older calibration (schema 1) measures 16-bit GEMMs: it replaces the 16-bit
         * fraction, the bandwidth fraction and the GEMM fixed cost (its
         * per-layer overhead was fitted over a layer's four GEMMs). */
        if (c->eta_compute > 0)
            eta_c = c->eta_compute > 1 ? 1 : c->eta_compute;
        if (c->eta_memory > 0)
            eta_m = c->eta_memory > 1 ? 1 : c->eta_memory;
        if (c->layer_overhead_s > 0)
            t0 = c->layer_overhead_s / 4.0;
    }
    double peak = g->peak_flops[math];
    if (!(peak > 0))
        peak = g->peak_flops[ENGINE_FP16];
    double eta_moe = g->eta_moe;
    if (math == ENGINE_FP8 || math == ENGINE_INT8) {
        if (g->eta_compute_fp8 > 0)
            eta_c = g->eta_compute_fp8;
        eta_moe = g->eta_moe_fp8;
    } else if (math == ENGINE_FP4 || math == ENGINE_INT4) {
        if (g->eta_compute_fp4 > 0)
            eta_c = g->eta_compute_fp4;
        else if (g->eta_compute_fp8 > 0)
            eta_c = g->eta_compute_fp8;
        eta_moe = g->eta_moe_fp4;
    }
    /* The grouped MoE kernel's rate as a ratio to the dense one, so that a
     * calibration's measured dense rate carries it (1: none set). */
    k->moe_scale = eta_moe > 0 && eta_c > 0 ? eta_moe / eta_c : 1.0;
    /* Any low-precision weights pay the low-precision fixed cost: scaling
     * and activation quantization (FP8, FP4) or dequantization (weight-only
     * int4 / int8 on 16-bit math). */
    if (w != ENGINE_FP16 && w != ENGINE_BF16)
        t0 = or_default(g->gemm_t0_fp8_s, t0);
    if (math == ENGINE_FP4)
        t0 = or_default(g->gemm_t0_fp4_s, t0);
    k->math = math;
    k->flops = peak * eta_c;
    k->flops16 = g->peak_flops[ENGINE_FP16];
    k->bw = g->hbm_bytes_per_s * eta_m;
    k->bw_kv = g->hbm_bytes_per_s * or_default(g->eta_kv, eta_m);
    k->bw_small = g->hbm_bytes_per_s * or_default(g->eta_small, DEF_ETA_SMALL);
    k->bw_rows = g->eta_moe_rows > 0 ? g->hbm_bytes_per_s * g->eta_moe_rows : k->bw_small;
    kconst_attn(k, g);
    k->fp32 = g->fp32_flops > 0 ? g->fp32_flops : 0.0;
    k->l2bw = g->l2_bytes_per_s > 0 ? g->l2_bytes_per_s : 0.0;
    k->gemm_t0 = t0;
    k->floor = or_default(g->kernel_floor_s, DEF_FLOOR_S);
    k->layer_extra = g->layer_overhead_s > 0 ? g->layer_overhead_s : 0;
    k->sm = g->sm_count > 0 ? g->sm_count : DEF_SM;
    k->min_tm = g->gemm_min_m > 0 ? g->gemm_min_m : 0;
    /* FP4 weights on a GPU without FP4 tensor cores dequantize in the GEMM's
     * main loop to 16-bit math (W4A16: the Triton MXFP4 MoE on Hopper): the
     * preset's measured fractions of that kernel replace the 16-bit ones. */
    k->bw_dense = k->bw;
    if (w == ENGINE_FP4 && (math == ENGINE_FP16 || math == ENGINE_BF16)) {
        if (g->eta_compute_w4a16 > 0)
            k->flops = peak * g->eta_compute_w4a16;
        if (g->eta_memory_w4a16 > 0)
            k->bw = g->hbm_bytes_per_s * g->eta_memory_w4a16;
        k->w4a16 = 1;
        k->moe_token = g->moe_w4a16_token_s;
        k->moe_scale = 1.0; /* its own measured fractions (eta_compute_w4a16) */
    }
    k->moe_roof_p = g->moe_roof_p > 0 ? g->moe_roof_p : 0.0;
    k->dclass = math_dclass(math);
    k->bf16 = math == ENGINE_BF16;
    if (c && c->measured && c->per_kernel)
        kconst_per_kernel(k, g, c, w);
}

void kconst_acc16(kconst *k, const engine_gpu *g, const engine_calib *c)
{
    double f16 = g->peak_flops[ENGINE_FP16];
    if (k->math != ENGINE_FP16 || (c && c->measured) || !(g->fp16_acc16_flops > 0) || !(f16 > 0))
        return; /* a calibration measured the rate the run gets */
    k->flops *= g->fp16_acc16_flops / f16;
    k->acc16 = g->fp16_acc16_flops;
}

void kconst_init_q(kconst *k, const engine_gpu *g, const engine_calib *c, engine_dtype w,
                   int fp8_block)
{
    kconst_init(k, g, c, w);
    if (!fp8_block || k->math != ENGINE_FP8)
        return;
    /* A measured cublasLt FP8 rate (calibration) is per-tensor: the block
     * scales' extra work keeps the preset's ratio to the per-tensor rate. */
    double eta8 = g->eta_compute_fp8 > 0 ? g->eta_compute_fp8 : g->eta_compute;
    if (g->eta_compute_fp8_block > 0 && eta8 > 0)
        k->flops *= g->eta_compute_fp8_block / eta8;
    /* the grouped kernel's block-scaled rate (none: the dense one) */
    double eta_b = g->eta_compute_fp8_block > 0 ? g->eta_compute_fp8_block : eta8;
    k->moe_scale = g->eta_moe_fp8_block > 0 && eta_b > 0 ? g->eta_moe_fp8_block / eta_b : 1.0;
    /* MI300X's AITER CK blockscale GEMMs overlap their MFMA work and their
     * weight stream less than the max says: between the streaming- and the
     * compute-bound ends (M 17-128) the tuned kernels take 1.2x the max
     * (gpus.json gemm_roof_p_fp8_block, README "The model", block-scaled
     * FP8).  The grouped expert GEMMs keep their own blend (kconst_experts). */
    if (g->gemm_roof_p_fp8_block > 0)
        k->roof_p = g->gemm_roof_p_fp8_block;
    if (g->gemm_t0_fp8_block_s > 0) {
        double t0_8 = or_default(g->gemm_t0_fp8_s, or_default(g->gemm_t0_s, DEF_GEMM_T0_S));
        k->gemm_t0 += g->gemm_t0_fp8_block_s - t0_8;
        if (k->gemm_t0 < 0)
            k->gemm_t0 = 0;
    }
}

/* An MoE layer's grouped expert GEMMs do not overlap their FLOPs with
 * their weight stream the way the max of the two says: where both take
 * about as long (an expert's m rows in a few 128-row tiles: 64 to 1024
 * tokens per expert) the measured layer is up to 1.3x the max (Mixtral's
 * 8 x 14336 experts on B200 at 1536 tokens: 0.840 ms against the max's
 * 0.672 ms).  With the GPU's moe_roof_p their time is the p-norm
 * (compute^p + stream^p)^(1/p) + t0 (gpus.json: 2 on H100, H200, B200 and
 * GB200, set from aiconfigurator-core 0.12.0 perf data moe.csv; README
 * "The model", grouped MoE expert GEMMs), for the kernel it was measured
 * on: TensorRT-LLM's CUTLASS fused MoE (`cutlass`: the framework's
 * moe_expand, eval.c moe_expands); vLLM's and SGLang's Triton fused_moe and
 * the MXFP4 MoEs (W4A16, W4A8: their own costs, fitted with the max) keep
 * the max.  TensorRT-LLM's MoE GEMM runner
 * offers no split-K (moe_gemm_kernels_template.h, getHopperConfigs /
 * getAmpereConfigs: max_split_k = 1), but taking the split-K candidates
 * away moves those tables by 0.1-0.5 points only: not modelled.
 * The GPU's fewest token rows a tile (gemm_min_m: Hopper's warpgroup MMA
 * in the dense and CUTLASS GEMMs) does not bind the Triton fused_moe: its
 * tuned tiles are 16 rows up to 512 tokens on an H20 (sgl-project/sglang
 * fused_moe_triton/configs/triton_3_3_1/E=257,N=256,device_name=NVIDIA_H20,
 * dtype=fp8_w8a8,block_shape=[128, 128].json: BLOCK_SIZE_M 16 for 1-512,
 * 64 from 1024), which Triton runs on mma.sync, not wgmma.  (A block-FP8
 * shape without a tuned file takes the 64-row default, sglang#34795: not
 * told apart here.) */
void kconst_experts(kconst *ke, const kconst *k, int cutlass)
{
    *ke = *k;
    ke->flops *= k->moe_scale > 0 ? k->moe_scale : 1.0;
    ke->roof_p = cutlass && !k->w4a16 && !k->w4a8 ? k->moe_roof_p : 0.0;
    if (!cutlass)
        ke->min_tm = 0;
    ke->grouped = 1;
}

/* W4A16 on Marlin (engine_w4a16): its tensor-core loop is issue-bound on
 * the dequantization (sgl-project/sglang#38884, nsys on H100 in 16384-token
 * prefill chunks: 254 TFLOPS, 25.7 % of the BF16 peak, 64 of 220
 * instructions a K step HMMA), so its compute ceiling is its own
 * (eta_compute_w4a16_marlin); its weight stream is a 16-bit GEMM's at a
 * quarter of the bytes ('close to ideal (4x) speedups up to batchsizes of
 * 16-32 tokens', IST-DASLab/marlin README): the GPU's eta_memory; the
 * Triton kernel's per-token cost (moe_w4a16_token) is not its own.  A
 * GPU without the measured fraction keeps the Triton one. */
void kconst_marlin(kconst *k, const engine_gpu *g)
{
    if (g->eta_compute_w4a16_marlin > 0)
        k->flops = k->flops16 * g->eta_compute_w4a16_marlin;
    k->bw = k->bw_dense;
    k->moe_token = 0;
    k->marlin = 1;
}

void kconst_w4a8_moe(kconst *k, const engine_gpu *g)
{
    /* the dense FP8 fraction kconst_init took (a calibration's measured
     * rate carries the ratio) */
    double eta8 = g->eta_compute_fp8 > 0 ? g->eta_compute_fp8 : g->eta_compute;
    k->moe_scale = g->eta_moe_w4a8 > 0 && eta8 > 0 ? g->eta_moe_w4a8 / eta8 : 1.0;
    k->moe_token = g->moe_w4a8_token_s > 0 ? g->moe_w4a8_token_s : 0.0;
    k->w4a8 = 1;
}

/* Weight-only quantized weights (int4 / int8 on 16-bit math: AWQ, GPTQ,
 * TensorRT-LLM int4_wo) at a few tokens run a batched-GEMV kernel, not a
 * tiled GEMM: TensorRT-LLM's weightOnlyQuantMatmulPlugin takes its CUDA
 * GEMV (kernels/weightOnlyBatchedGemv) for m < SMALL_M_FAST_PATH = 5 and
 * the CUTLASS fpA_intB tiles above (weightOnlyQuantMatmulPlugin.h/.cpp:
 * `use_cuda_kernel = m < SMALL_M_FAST_PATH && mCudaKernelEnabled`); AWQ's
 * and MLC's batch-1 kernels are GEMVs too.  A GEMV block walks k for its
 * columns and the blocks cover every SM, so no tile padding of m beyond
 * one 16-row MMA tile and no wave quantization: the compute is that tile's
 * at its shape efficiency with m of its rows used, the weights stream at
 * HBM rate.  Dense GEMMs only (groups 1: grouped MoE kernels keep tiles).
 * aiconfigurator A100 int4_wo rows (TensorRT-LLM 1.0): median APE m=1
 * 19.5 -> 18.5 %, m=2 21.6 -> 19.4 %, m=4 12.8 -> 11.8 % (README). */
#define WO_SMALL_M 4.0
#define WO_TILE 6 /* TILES[6], the 16-row tile */
/* Rows (an expert's) up to which Marlin streams at its weights' rate: one
 * 16-row MMA tile.  At 24 rows it is issue-bound already: DeepSeek-V4-
 * Flash's MoE layer on an H20 at 1024 tokens took 6.880 ms on Marlin, 8x
 * its 3.4 GB weight stream (sgl-project/sglang#34682). */
#define MARLIN_SMALL_M 16.0

static int wo_small_m(const kconst *k, double m, double groups, double w_bytes, double a_bytes)
{
    return (k->math == ENGINE_FP16 || k->math == ENGINE_BF16) && !k->w4a16 && k->sm > 0 &&
           groups == 1 && !k->grouped && m <= WO_SMALL_M && w_bytes > 0 && w_bytes < a_bytes;
}

static int kc_table(const kconst *k, double groups, double m, double n, double kk, double *t);

/* A GEMM's compute and memory times combined: their max, or for the
 * grouped expert GEMMs (roof_p: kconst_experts) their p-norm. */
static double roof(const kconst *k, double compute, double memory)
{
    if (!(k->roof_p > 0))
        return compute > memory ? compute : memory;
    if (k->roof_p == 2.0)
        return hypot(compute, memory);
    return pow(pow(compute, k->roof_p) + pow(memory, k->roof_p), 1.0 / k->roof_p);
}

gemm_cost kc_gemm(const kconst *k, double m, double n, double kk, double groups, double w_bytes,
                  double a_bytes)
{
    gemm_cost gc = {0, 0, 0};
    if (!(m > 0) || !(n > 0) || !(kk > 0))
        return gc;
    if (!(groups >= 1))
        groups = 1;
    /* a CPU's level-3 micro-kernel computes whole register tiles: the
     * tokens rounded up to its width (engine_calib.unroll_n) */
    double mc = k->pack_unroll > 1 && m * n * kk >= ENGINE_SGEMM_DIRECT_MNK
                    ? ceil(m / k->pack_unroll) * k->pack_unroll
                    : m;
    double c0 = 2.0 * mc * n * kk * groups / k->flops;
    double mem = groups * (n * kk * w_bytes + (m * kk + m * n) * a_bytes) / k->bw;
    double part = groups * m * n * SPLIT_K_PARTIAL_BYTES / k->bw;
    /* Marlin (kconst_marlin) up to MARLIN_SMALL_M rows: its rate on the rows
     * present, no tile padding, so its weight stream sets the time
     * ('close to ideal (4x) speedups up to batchsizes of 16-32 tokens',
     * IST-DASLab/marlin README); above, the tiles at its measured ceiling */
    gemm_pick pk = k->marlin && m <= MARLIN_SMALL_M ? (gemm_pick){1.0, 1}
                   : wo_small_m(k, m, groups, w_bytes, a_bytes)
                       ? (gemm_pick){TILES[WO_TILE].e * m / TILES[WO_TILE].tm, 1}
                       : gemm_pick_memo(k->sm, m, n, kk, groups, c0, mem, part, k->min_tm,
                                        k->grouped ? 0.0 : k->roof_p);
    gc.compute = c0 / pk.eta;
    /* A CPU's level-3 BLAS packs the weights, then runs its kernel on them
     * (OpenBLAS driver/level3/level3.c: ICOPY, then KERNEL; README "The
     * model"): the two add. */
    /* ... unless one GEMM's weights fit in half the L2 (the Goto blocking's
     * share): then they stream once at bw (calib_per_kernel.l2_bytes). */
    double wg = n * kk * w_bytes;
    if (k->pack_bw > 0)
        gc.compute += groups * wg / (k->pack_l2 > 0 && wg <= 0.5 * k->pack_l2 ? k->bw : k->pack_bw);
    gc.memory = mem + (pk.split > 1 ? pk.split * part : 0);
    gc.time = roof(k, gc.compute, gc.memory) + k->gemm_t0;
    /* A measured table covering the shape replaces the model's time: one
     * GEMM's table, or for a grouped kernel (the MoE experts) the grouped
     * table's time per expert at m tokens, times the groups. */
    double t;
    if (k->tab && kc_table(k, groups, m, n, kk, &t))
        gc.time = t;
    return gc;
}

static int calib_table_lookup(const engine_calib *c, int dclass, int bf16, int grouped, double m,
                              double n, double k, double *t_s);

/* k's measured time of the GEMM: a bf16 kernel's bf16 table, else (any
 * math) the table of bf16 0 (fp16 / a CPU's fp32); grouped per expert
 * times groups.  1 with *t, 0 when no table covers it. */
static int kc_table(const kconst *k, double groups, double m, double n, double kk, double *t)
{
    int gr = groups != 1;
    if (gr && !(groups > 0))
        return 0;
    if (!(k->bf16 && calib_table_lookup(k->tab, k->dclass, 1, gr, m, n, kk, t)) &&
        !calib_table_lookup(k->tab, k->dclass, 0, gr, m, n, kk, t))
        return 0;
    if (gr)
        *t *= groups;
    return 1;
}

int engine_calib_gemm_lookup(const engine_calib *c, int dclass, double m, double n, double k,
                             double *t_s)
{
    return calib_table_lookup(c, dclass, 0, 0, m, n, k, t_s);
}

int engine_calib_grouped_lookup(const engine_calib *c, int dclass, double m, double n, double k,
                                double groups, double *t_s)
{
    if (!(groups > 0) || !calib_table_lookup(c, dclass, 0, 1, m, n, k, t_s))
        return 0;
    *t_s *= groups;
    return 1;
}

static int calib_table_lookup(const engine_calib *c, int dclass, int bf16, int grouped, double m,
                              double n, double k, double *t_s)
{
    if (!c || !c->per_kernel || !(m > 0))
        return 0;
    int nc = c->n_gemm < ENGINE_CALIB_SHAPES ? c->n_gemm : ENGINE_CALIB_SHAPES;
    for (int i = 0; i < nc; i++) {
        const engine_calib_gemm *e = &c->gemm[i];
        if (e->n != n || e->k != k || e->dclass != dclass || e->count < 1 ||
            (e->grouped != 0) != (grouped != 0) || (e->bf16 != 0) != (bf16 != 0))
            continue;
        int cnt = e->count < ENGINE_CALIB_TOKENS ? e->count : ENGINE_CALIB_TOKENS;
        if (m < e->m[0] || m > e->m[cnt - 1])
            return 0;
        int j = 0;
        while (j + 1 < cnt && e->m[j + 1] < m)
            j++;
        if (m == e->m[j] || j + 1 >= cnt) {
            *t_s = e->t_s[j];
            return 1;
        }
        double f = log(m / e->m[j]) / log(e->m[j + 1] / e->m[j]);
        *t_s = exp(log(e->t_s[j]) + f * log(e->t_s[j + 1] / e->t_s[j]));
        return 1;
    }
    return 0;
}

const char *engine_calib_kind_name(engine_calib_kind cls)
{
    static const char *const N[ENGINE_CALIB_K_COUNT] = {"gemm", "memory", "small_kernel",
                                                       "launch", "attention"};
    return (unsigned)cls < ENGINE_CALIB_K_COUNT ? N[cls] : "?";
}

const char *engine_calib_source(const engine_calib *c, const engine_model *m, engine_calib_kind cls)
{
    if (!c || !c->measured)
        return "default";
    if (!c->per_kernel) /* an old file: eta_c, eta_m and the GEMM overhead */
        return cls == ENGINE_CALIB_K_GEMM || cls == ENGINE_CALIB_K_MEMORY ? "fitted" : "default";
    switch (cls) {
    case ENGINE_CALIB_K_GEMM:
        return c->n_gemm > 0 && m && !strcmp(m->name, c->model) ? "measured" : "fitted";
    case ENGINE_CALIB_K_MEMORY: return c->bw_bytes_per_s > 0 ? "fitted" : "default";
    case ENGINE_CALIB_K_SMALL: return c->small_kernel_s > 0 ? "fitted" : "default";
    case ENGINE_CALIB_K_LAUNCH: return c->launch_s > 0 ? "fitted" : "default";
    default: return "default"; /* attention: the preset's form, scaled (kconst_per_kernel) */
    }
}

const char *engine_calib_gemm_tables(const engine_scenario *s)
{
    const engine_calib *c = s ? s->calib : NULL;
    if (!c || !s->gpu || strcmp(engine_calib_source(c, s->model, ENGINE_CALIB_K_GEMM), "measured"))
        return NULL;
    engine_dtype math = math_dtype(s->gpu, engine_scenario_weight_dtype(s));
    int dc = math_dclass(math);
    int has[2] = {0, 0}; /* bf16 0, bf16 1 tables of the math's class */
    int nc = c->n_gemm < ENGINE_CALIB_SHAPES ? c->n_gemm : ENGINE_CALIB_SHAPES;
    for (int i = 0; i < nc; i++)
        if (c->gemm[i].dclass == dc && c->gemm[i].count > 0)
            has[c->gemm[i].bf16 != 0] = 1;
    if (dc == 1)
        return has[0] ? "fp8" : NULL;
    if (dc != 0)
        return NULL;
    int cpu = !strcmp(c->backend, "cpu"); /* its plain tables are fp32 */
    if (math == ENGINE_BF16 && has[1])
        return has[0] ? (cpu ? "bf16+fp32" : "bf16+fp16") : "bf16";
    return has[0] ? (cpu ? "fp32" : "fp16") : NULL;
}

double kc_attn_prefill(const kconst *k, double seqs, double t, double past, double heads,
                       double kv_heads, double qk, double v, double a_bytes)
{
    return kc_attn_prefill_w(k, seqs, t, past, 0, 0, heads, kv_heads, qk, v, a_bytes);
}

/* Keys seen by the first n positions under chunked attention of w tokens:
 * position p sees (p mod w) + 1. */
static double chunk_keys(double n, double w)
{
    double q = floor(n / w), r = n - q * w;
    return q * w * (w + 1) / 2.0 + r * (r + 1) / 2.0;
}

double kc_attn_prefill_w(const kconst *k, double seqs, double t, double past, double window,
                         int chunked, double heads, double kv_heads, double qk, double v,
                         double a_bytes)
{
    return kc_attn_prefill_x(k, seqs, t, past, window, chunked, heads, kv_heads, qk, v, a_bytes,
                             NULL);
}

/* Which of a kernel's terms set its time: the fixed cost when it exceeds
 * both, else the larger of compute and memory. */
static engine_bound term_bound(double t0, double compute, double memory)
{
    if (t0 >= compute && t0 >= memory)
        return ENGINE_BOUND_FLOOR;
    return compute > memory ? ENGINE_BOUND_COMPUTE : ENGINE_BOUND_MEMORY;
}

double kc_attn_prefill_x(const kconst *k, double seqs, double t, double past, double window,
                         int chunked, double heads, double kv_heads, double qk, double v,
                         double a_bytes, kcost *x)
{
    if (!(seqs > 0) || !(t > 0) || !(heads > 0))
        return 0.0;
    /* Causal: query i of the chunk sees past + i + 1 keys. */
    double keys = t * past + t * (t + 1) / 2.0;
    if (window > 0 && chunked && past + t > window) {
        keys = chunk_keys(past + t, window) - chunk_keys(past, window);
        past = fmod(past, window);
    } else if (window > 0 && past + t > window) {
        /* at most `window` keys each: the first n1 queries see fewer; the
         * kernel's 128-query tile computes its first query's window to its
         * last query (window + 127 keys) for every query, the rest masked */
        double n1 = window - past > 0 ? fmin(window - past, t) : 0;
        keys = n1 * past + n1 * (n1 + 1) / 2.0 + (t - n1) * fmin(window + 127, past + t);
        past = fmin(past, window);
    }
    /* Without FlashAttention (attn_scores) the KQ product is the whole
     * rectangle: every query of the chunk scores every cached key, its own
     * chunk's later ones too, which the softmax's mask then zeroes
     * (llama.cpp build_attn_mha: ggml_mul_mat(k, q) over the n_kv cells,
     * ggml_soft_max_ext with kq_mask, ggml_mul_mat(v, kq)). */
    if (k->attn_scores)
        keys = t * (past + t);
    double flops = 2.0 * seqs * heads * (qk + v) * keys;
    /* Each score (query, key, head) also pays its softmax: an exponential
     * on the special-function units, which the dot products do not hide
     * whatever the head size. */
    double scores = seqs * heads * keys, softmax = scores * k->attn_score;
    /* and, where the kernel overlaps its exponentials with the dot
     * products (attn_exp), the longer of the two */
    double mma = flops / (k->flops16 * k->eta_attn_pre);
    if (scores * k->attn_exp > mma)
        mma = scores * k->attn_exp;
    /* One thread block per 128 queries of a head: short prompts leave
     * multiprocessors idle. */
    double ctas = seqs * heads * ceil(t / 128.0);
    double waves = k->sm > 0 ? ceil(ctas / k->sm) : 1;
    double util = k->sm > 0 ? ctas / (waves * k->sm) : 1; /* sm 0: a CPU, no waves */
    double io = seqs * (t * (heads * (qk + v) + kv_heads * (qk + v)) + past * kv_heads * (qk + v)) *
                a_bytes;
    double tc = (mma + softmax) / util + waves * k->attn_cta;
    double tm = io / k->bw_attn_io;
    /* and its scores cross memory as FP32 (ENGINE_ATTN_SCORE_BYTES each):
     * the two products write and read them once each as a GEMM streams its
     * operands (bw), the softmax reads and writes them as an element-wise
     * kernel (bw_small); the time is that traffic where it exceeds the dot
     * products (at a head size of 64 to 128 a score's 2 x d FLOPs take less
     * than its bytes on every GPU of the presets) */
    double per = !k->attn_scores                                  ? 0.0
                 : k->attn_scores == ENGINE_ATTN_SCORES_F32_F16 ? ENGINE_ATTN_SCORE_BYTES_F16OUT
                                                                : ENGINE_ATTN_SCORE_BYTES;
    double sb = scores * per; /* half of it each side: products, softmax */
    double ts = sb > 0 ? scores * (per / 2 / k->bw + per / 2 / k->bw_small) : 0.0;
    if (ts > tc) {
        tm += ts;
        tc = 0.0;
    }
    if (x)
        *x = (kcost){k->attn_t0 + tc + tm, flops, io + sb, term_bound(k->attn_t0, tc, tm)};
    return k->attn_t0 + tc + tm;
}

/* Decode attention with its dot products at `rate` FLOP/s: the fixed cost,
 * the larger of the KV read and the compute, and the blocks' per-sequence
 * per-head cost over the SMs. */
static double decode_blocks_s(const kconst *k, double seq_heads)
{
    return seq_heads > 0 && k->sm > 0 ? seq_heads * k->decode_seq / k->sm : 0.0;
}

static double decode_at(const kconst *k, double kv_bytes, double flops, double rate,
                        double seq_heads, double l2_s)
{
    if (!(kv_bytes > 0) && !(flops > 0))
        return 0.0;
    double tm = kv_bytes / k->bw_kv;
    if (l2_s > tm)
        tm = l2_s;
    double tc = flops / rate;
    return k->decode_attn_t0 + (tm > tc ? tm : tc) + decode_blocks_s(k, seq_heads);
}

double kc_attn_decode(const kconst *k, double kv_bytes, double flops, double seq_heads)
{
    return decode_at(k, kv_bytes, flops, k->flops16 * k->eta_attn, seq_heads, 0.0);
}

/* TensorRT-LLM's XQA multi-block mode (computeMultiBlockCount,
 * NVIDIA/TensorRT-LLM@12453212b69b cpp/tensorrt_llm/kernels/
 * decoderMaskedMultiheadAttention/decoderXQAImplCommon.h, its constants
 * in decoderXQAConstants.h): one split per 128 cached tokens, at most
 * round(sqrt(8 x that)) of them, cut to keep the grid within 8 waves of
 * the SMs and within 6000 sub-sequences. */
#define XQA_SPLIT_TOKENS 128.0
#define XQA_TARGET_WAVES 8.0
#define XQA_MAX_SUB_SEQ 6000.0
/* The split's final reduction (a multi-block partial-result merge), fit
 * on generation_attention.csv (H100, H200) with the block terms below. */
#define DEF_DECODE_SPLIT_S 2e-6

double kc_decode_splits(double ctx, double rows, double seqs, double sm)
{
    double s = floor(ctx / XQA_SPLIT_TOKENS);
    double cap = round(sqrt(8.0 * s));
    if (s > cap)
        s = cap;
    if (s < 1)
        s = 1;
    if (sm > 0 && rows * s / sm > XQA_TARGET_WAVES)
        s = floor(s * XQA_TARGET_WAVES / (rows * s / sm));
    if (seqs > 0 && s > floor(XQA_MAX_SUB_SEQ / seqs))
        s = floor(XQA_MAX_SUB_SEQ / seqs);
    return s < 1 ? 1 : s;
}

/* The terms of a decode call by thread block: tm the KV read at the
 * achievable bandwidth, tw the blocks in waves of one per SM (each its
 * fixed cost and its share of the KV at the SM's share of the bandwidth,
 * overlapping as a root sum of squares), tc the dot products, split the
 * reduction of a split KV. */
typedef struct dec_terms {
    double tm, tw, tc, split;
} dec_terms;

static dec_terms decode_terms(const kconst *k, const kdecode *d, double kv_bytes, double flops)
{
    dec_terms o = {kv_bytes / k->bw_kv_cta, 0, flops / k->decode_rate, 0};
    double rows = d->seqs * d->kv_heads;
    double s = kc_decode_splits(d->ctx, rows, d->seqs, k->sm);
    double n = rows * s;
    double tau = d->group <= 1 ? k->decode_mha
                               : (d->kv_b <= 1 ? k->decode_cta8 : k->decode_cta) +
                                     d->group * k->decode_head;
    double stream = n > 0 ? o.tm * k->sm / n : 0.0;
    o.tw = ceil(n / k->sm) * sqrt(tau * tau + stream * stream);
    o.split = s > 1 ? DEF_DECODE_SPLIT_S : 0.0;
    return o;
}

static int decode_by_cta(const kconst *k, const kdecode *d)
{
    return k->decode_cta > 0 && k->sm > 0 && d->seqs > 0 && d->kv_heads > 0;
}

/* The larger of the block waves and the KV read, and the dot products,
 * combine as a cube-root soft maximum (p = 3, fit on the tables). */
double kc_attn_decode_gqa(const kconst *k, const kdecode *d, double kv_bytes, double flops)
{
    if (!decode_by_cta(k, d))
        return kc_attn_decode(k, kv_bytes, flops, d->seqs * d->kv_heads * d->group);
    if (!(kv_bytes > 0) && !(flops > 0))
        return 0.0;
    dec_terms o = decode_terms(k, d, kv_bytes, flops);
    double m = o.tw > o.tm ? o.tw : o.tm;
    return k->decode_cta_t0 + cbrt(m * m * m + o.tc * o.tc * o.tc) + o.split;
}

engine_bound kc_attn_decode_gqa_bound(const kconst *k, const kdecode *d, double kv_bytes,
                                      double flops)
{
    if (!decode_by_cta(k, d))
        return kc_attn_decode_bound(k, kv_bytes, flops, d->seqs * d->kv_heads * d->group);
    dec_terms o = decode_terms(k, d, kv_bytes, flops);
    if (o.tw > o.tm && o.tw > o.tc) /* the blocks' fixed costs */
        return ENGINE_BOUND_FLOOR;
    return term_bound(k->decode_cta_t0, o.tc, o.tm);
}

/* Masked MHA (TensorRT-LLM's decoderMaskedMultiheadAttentionTemplate.h):
 * grid (query heads, sequences[, KV tiles]), each block's q.k and p.v dot
 * products as FP32 FMAs on CUDA cores, so the compute term runs at the
 * GPU's FP32 peak instead of the tensor-core rate.  Its KV traffic stays
 * once per KV head: blockIdx.x (the query head) varies fastest, so the
 * blocks of one sequence's query-head group run together and re-read that
 * KV head (ctx x head_dim x 2 x bytes: 141 kB a layer for Falcon-180B at
 * 1100 tokens in FP8) from L2, not HBM.  Those L2 reads are `group` x
 * kv_bytes (every block reads its whole KV head: q.k over all keys, then
 * p.v), at the GPU's measured L2 re-read rate (engine_gpu.l2_bytes_per_s);
 * the kernel takes the longer of that and the HBM read. */
static double mmha_l2_s(const kconst *k, double kv_bytes, double group)
{
    return k->l2bw > 0 && group > 0 ? group * kv_bytes / k->l2bw : 0.0;
}

double kc_attn_decode_mmha(const kconst *k, double kv_bytes, double flops, double seq_heads,
                           double group)
{
    if (!(k->fp32 > 0))
        return kc_attn_decode(k, kv_bytes, flops, seq_heads);
    return decode_at(k, kv_bytes, flops, k->fp32, seq_heads, mmha_l2_s(k, kv_bytes, group));
}

engine_bound kc_attn_decode_mmha_bound(const kconst *k, double kv_bytes, double flops,
                                       double seq_heads, double group)
{
    if (!(k->fp32 > 0))
        return kc_attn_decode_bound(k, kv_bytes, flops, seq_heads);
    double tm = kv_bytes / k->bw_kv, tl2 = mmha_l2_s(k, kv_bytes, group);
    return term_bound(k->decode_attn_t0 + decode_blocks_s(k, seq_heads), flops / k->fp32,
                      tl2 > tm ? tl2 : tm);
}

engine_bound kc_attn_decode_bound(const kconst *k, double kv_bytes, double flops,
                                  double seq_heads)
{
    return term_bound(k->decode_attn_t0 + decode_blocks_s(k, seq_heads),
                      flops / (k->flops16 * k->eta_attn), kv_bytes / k->bw_kv);
}

engine_bound kc_gemm_bound(const kconst *k, const gemm_cost *c)
{
    return term_bound(k->gemm_t0, c->compute, c->memory);
}

double kc_small(const kconst *k, double bytes)
{
    double t = bytes / k->bw_small;
    return t > k->floor ? t : k->floor;
}

/* --- explain: the constants and where they came from --------------------- */

static void konst(engine_explain *x, const char *name, double v, const char *unit,
                  const char *origin, const char *source)
{
    if (x->n_const >= ENGINE_EXPLAIN_CONST_MAX)
        return;
    x->constant[x->n_const++] = (engine_explain_const){name, v, unit, origin, source};
}

/* The GPU preset's field when set, else the engine default with its note. */
static void konst_or(engine_explain *x, const engine_gpu *g, const char *name, double v,
                     const char *unit, double preset, const char *def_note)
{
    if (preset > 0)
        konst(x, name, v, unit, "gpu preset", g->source);
    else
        konst(x, name, v, unit, "engine default", def_note);
}

/* A per-kernel calibration (schema 2): every constant it sets or scales
 * comes from the calibration file. */
static void explain_per_kernel(const kconst *k, const engine_calib *c, engine_explain *x)
{
    const char *src = c->source[0] ? c->source : c->device;
    konst(x, "gemm_rate", k->flops, "FLOP/s", "calibration", src);
    konst(x, "gemm_bandwidth", k->bw, "B/s", "calibration", src);
    konst(x, "kv_bandwidth", k->bw_kv, "B/s", "calibration (scaled)", src);
    konst(x, "small_kernel_bandwidth", k->bw_small, "B/s", "calibration (scaled)", src);
    konst(x, "attn_io_bandwidth", k->bw_attn_io, "B/s", "calibration (scaled)", src);
    konst(x, "attn_rate", k->flops16 * k->eta_attn, "FLOP/s", "calibration (scaled)", src);
    konst(x, "gemm_t0", k->gemm_t0, "s", "calibration", src);
    konst(x, "kernel_floor", k->floor, "s", "calibration", src);
    if (k->launch_min > 0)
        konst(x, "launch_min", k->launch_min, "s", "calibration", src);
    if (c->sm > 0 || k->sm == 0)
        konst(x, "sm_count", k->sm, "1", "calibration", src);
    if (k->pack_bw > 0)
        konst(x, "gemm_pack_bandwidth", k->pack_bw, "B/s", "calibration", src);
    if (k->pack_bw > 0 && k->pack_l2 > 0) /* weights within half of it stream at bw */
        konst(x, "gemm_pack_l2", k->pack_l2, "B", "calibration", src);
    if (k->pack_unroll > 1)
        konst(x, "gemm_unroll_n", k->pack_unroll, "tokens", "calibration", src);
}

/* Decode attention by thread block (kc_attn_decode_gqa), when the GPU has it. */
static void explain_decode_cta(const kconst *k, const engine_gpu *g, engine_explain *x)
{
    if (!(k->decode_cta > 0))
        return;
    konst(x, "attn_decode_cta", k->decode_cta, "s", "gpu preset", g->source);
    konst(x, "attn_decode_cta_t0", k->decode_cta_t0, "s", "gpu preset", g->source);
    konst(x, "kv_bandwidth_cta", k->bw_kv_cta, "B/s", "gpu preset", g->source);
    konst(x, "attn_decode_cta_fp8", k->decode_cta8, "s", "gpu preset", g->source);
    konst(x, "attn_decode_mha", k->decode_mha, "s", "gpu preset", g->source);
    konst(x, "attn_decode_head", k->decode_head, "s", "gpu preset", g->source);
    konst(x, "attn_decode_rate", k->decode_rate, "FLOP/s", "gpu preset", g->source);
    konst(x, "attn_decode_split", DEF_DECODE_SPLIT_S, "s", "engine default",
          "kernels.c DEF_DECODE_SPLIT_S 2 us: generation_attention.csv fits");
}

void kc_explain_constants(const kconst *k, const engine_gpu *g, const engine_calib *c,
                          engine_dtype w, engine_explain *x)
{
    if (c && c->measured && c->per_kernel) {
        explain_per_kernel(k, c, x);
        konst_or(x, g, "attn_prefill_t0", k->attn_t0, "s", g->attn_t0_s,
                 "kernels.c DEF_ATTN_T0_S 15 us: aiconfigurator context_attention.csv fits");
        konst_or(x, g, "attn_decode_t0", k->decode_attn_t0, "s", g->decode_attn_t0_s,
                 "kernels.c DEF_DECODE_ATTN_T0_S 10 us: aiconfigurator generation_attention.csv");
        konst(x, "layer_overhead", k->layer_extra, "s", "gpu preset", g->source);
        if (!(c->sm > 0) && k->sm > 0)
            konst_or(x, g, "sm_count", k->sm, "1", g->sm_count, "kernels.c DEF_SM 108");
        return;
    }
    int cal = c && c->measured;
    int low = k->math == ENGINE_FP8 || k->math == ENGINE_INT8 || k->math == ENGINE_FP4 ||
              k->math == ENGINE_INT4;
    int eta_fp = (k->math == ENGINE_FP8 || k->math == ENGINE_INT8) ? g->eta_compute_fp8 > 0
                 : low ? (g->eta_compute_fp4 > 0 || g->eta_compute_fp8 > 0) : 0;
    int cal_c = cal && c->eta_compute > 0 && !eta_fp;
    konst(x, "gemm_rate", k->flops, "FLOP/s", cal_c ? "calibration" : "gpu preset",
          cal_c ? c->device : g->source);
    int cal_m = cal && c->eta_memory > 0;
    konst(x, "gemm_bandwidth", k->bw, "B/s", cal_m ? "calibration" : "gpu preset",
          cal_m ? c->device : g->source);
    if (g->eta_kv > 0)
        konst(x, "kv_bandwidth", k->bw_kv, "B/s", "gpu preset", g->source);
    else
        konst(x, "kv_bandwidth", k->bw_kv, "B/s", cal_m ? "calibration" : "gpu preset",
              cal_m ? c->device : g->source);
    konst_or(x, g, "small_kernel_bandwidth", k->bw_small, "B/s", g->eta_small,
             "kernels.c DEF_ETA_SMALL 0.6: vidur add, norm, activation at 4096 tokens");
    konst_or(x, g, "attn_io_bandwidth", k->bw_attn_io, "B/s", g->eta_attn_io,
             "kernels.c DEF_ETA_ATTN_IO 0.3");
    konst_or(x, g, "attn_rate", k->flops16 * k->eta_attn, "FLOP/s", g->eta_attn,
             "kernels.c DEF_ETA_ATTN 0.5 of the FP16 peak");
    int lowp = w != ENGINE_FP16 && w != ENGINE_BF16;
    int cal_t0 = cal && c->layer_overhead_s > 0 && !(lowp && g->gemm_t0_fp8_s > 0) &&
                 !(k->math == ENGINE_FP4 && g->gemm_t0_fp4_s > 0);
    double t0_preset = g->gemm_t0_s;
    if (lowp && g->gemm_t0_fp8_s > 0)
        t0_preset = g->gemm_t0_fp8_s;
    if (k->math == ENGINE_FP4 && g->gemm_t0_fp4_s > 0)
        t0_preset = g->gemm_t0_fp4_s;
    if (cal_t0)
        konst(x, "gemm_t0", k->gemm_t0, "s", "calibration", c->device);
    else
        konst_or(x, g, "gemm_t0", k->gemm_t0, "s", t0_preset,
                 "kernels.c DEF_GEMM_T0_S 5 us: A100/H200 bf16 fits, aiconfigurator gemm.csv");
    konst_or(x, g, "attn_prefill_t0", k->attn_t0, "s", g->attn_t0_s,
             "kernels.c DEF_ATTN_T0_S 15 us: aiconfigurator context_attention.csv fits");
    konst_or(x, g, "attn_decode_t0", k->decode_attn_t0, "s", g->decode_attn_t0_s,
             "kernels.c DEF_DECODE_ATTN_T0_S 10 us: aiconfigurator generation_attention.csv");
    konst_or(x, g, "attn_decode_per_seq_head", k->decode_seq, "s", g->decode_attn_seq_s,
             "kernels.c DEF_DECODE_SEQ_S 0.5 us");
    explain_decode_cta(k, g, x);
    konst_or(x, g, "kernel_floor", k->floor, "s", g->kernel_floor_s,
             "kernels.c DEF_FLOOR_S 4 us: vidur norms, rotary, add at a few tokens");
    konst(x, "layer_overhead", k->layer_extra, "s", "gpu preset", g->source);
    konst_or(x, g, "sm_count", k->sm, "1", g->sm_count, "kernels.c DEF_SM 108");
}

void kc_explain_quant_moe(const kconst *k, const engine_gpu *g, int fp8_block, int moe,
                          engine_explain *x)
{
    const char *gp = "gpu preset";
    if (k->attn_cta > 0)
        konst(x, "attn_cta", k->attn_cta, "s", gp, g->source);
    if (k->attn_score > 0)
        konst(x, "attn_score", k->attn_score, "s", gp, g->source);
    if (k->attn_exp > 0)
        konst(x, "attn_exp", k->attn_exp, "s", gp, g->source);
    if (g->eta_attn_prefill > 0)
        konst(x, "attn_prefill_rate", k->flops16 * k->eta_attn_pre, "FLOP/s", gp, g->source);
    int block = fp8_block && k->math == ENGINE_FP8; /* kconst_init_q's condition */
    if (block && g->eta_compute_fp8_block > 0)
        konst(x, "eta_compute_fp8_block", g->eta_compute_fp8_block, "fraction", gp, g->source);
    if (block && g->gemm_t0_fp8_block_s > 0)
        konst(x, "gemm_t0_fp8_block", g->gemm_t0_fp8_block_s, "s", gp, g->source);
    if (block && g->gemm_roof_p_fp8_block > 0)
        konst(x, "gemm_roof_p_fp8_block", g->gemm_roof_p_fp8_block, "1", gp, g->source);
    if (!moe)
        return;
    if (k->w4a16) { /* its own fractions (eta_compute_w4a16), no grouped ratio */
        if (k->marlin && g->eta_compute_w4a16_marlin > 0)
            konst(x, "eta_compute_w4a16_marlin", g->eta_compute_w4a16_marlin, "fraction", gp,
                  g->source);
        if (k->moe_token > 0)
            konst(x, "moe_w4a16_token", k->moe_token, "s", gp, g->source);
        return;
    }
    if (k->w4a8) { /* kconst_w4a8_moe's keys (none: the dense FP8 rate) */
        if (g->eta_moe_w4a8 > 0)
            konst(x, "eta_moe_w4a8", g->eta_moe_w4a8, "fraction", gp, g->source);
        if (k->moe_token > 0)
            konst(x, "moe_w4a8_token", k->moe_token, "s", gp, g->source);
        return;
    }
    /* the key kconst_init / kconst_init_q took the grouped ratio from */
    const char *name = "eta_moe";
    double eta = g->eta_moe;
    if (block) {
        name = "eta_moe_fp8_block";
        eta = g->eta_moe_fp8_block;
    } else if (k->math == ENGINE_FP8 || k->math == ENGINE_INT8) {
        name = "eta_moe_fp8";
        eta = g->eta_moe_fp8;
    } else if (k->math == ENGINE_FP4 || k->math == ENGINE_INT4) {
        name = "eta_moe_fp4";
        eta = g->eta_moe_fp4;
    }
    if (eta > 0)
        konst(x, name, eta, "fraction", gp, g->source);
    if (k->moe_roof_p > 0) /* kconst_experts' blend (the MXFP4 MoEs keep the max) */
        konst(x, "moe_roof_p", k->moe_roof_p, "1", gp, g->source);
    if (g->eta_moe_rows > 0) /* moe_serial's row kernels */
        konst(x, "eta_moe_rows", g->eta_moe_rows, "fraction", gp, g->source);
}

/* --- public wrappers ------------------------------------------------------ */

double engine_grouped_gemm_s(const engine_gpu *g, const engine_calib *c, engine_dtype math,
                             double m, double n, double k, double groups, double w_bytes,
                             double a_bytes)
{
    kconst kc;
    kconst_init(&kc, g, c, math);
    return kc_gemm(&kc, m, n, k, groups, w_bytes, a_bytes).time;
}

double engine_marlin_gemm_s(const engine_gpu *g, double m, double n, double k, double groups,
                            double w_bytes, double a_bytes)
{
    kconst kc;
    kconst_init(&kc, g, NULL, ENGINE_FP4);
    if (kc.w4a16)
        kconst_marlin(&kc, g);
    return kc_gemm(&kc, m, n, k, groups, w_bytes, a_bytes).time;
}

double engine_moe_gemm_s(const engine_gpu *g, const engine_calib *c, engine_dtype math, double m,
                         double n, double k, double groups, double w_bytes, double a_bytes)
{
    kconst kc, ke;
    kconst_init(&kc, g, c, math);
    kconst_experts(&ke, &kc, 1);
    return kc_gemm(&ke, m, n, k, groups, w_bytes, a_bytes).time;
}

double engine_fused_moe_gemm_s(const engine_gpu *g, const engine_calib *c, engine_dtype math,
                               double m, double n, double k, double groups, double w_bytes,
                               double a_bytes)
{
    kconst kc, ke;
    kconst_init(&kc, g, c, math);
    kconst_experts(&ke, &kc, 0);
    return kc_gemm(&ke, m, n, k, groups, w_bytes, a_bytes).time;
}

double engine_gemm_s(const engine_gpu *g, const engine_calib *c, engine_dtype math, double m,
                     double n, double k, double w_bytes, double a_bytes)
{
    return engine_grouped_gemm_s(g, c, math, m, n, k, 1, w_bytes, a_bytes);
}

double engine_gemm_acc16_s(const engine_gpu *g, const engine_calib *c, engine_dtype math,
                           double m, double n, double k, double w_bytes, double a_bytes)
{
    kconst kc;
    kconst_init(&kc, g, c, math);
    kconst_acc16(&kc, g, c);
    return kc_gemm(&kc, m, n, k, 1, w_bytes, a_bytes).time;
}

double engine_gemm_fp8_block_s(const engine_gpu *g, const engine_calib *c, double m, double n,
                               double k, double w_bytes, double a_bytes)
{
    kconst kc;
    kconst_init_q(&kc, g, c, ENGINE_FP8, 1);
    return kc_gemm(&kc, m, n, k, 1, w_bytes, a_bytes).time;
}

double engine_attn_prefill_s(const engine_gpu *g, double seqs, double t, double past,
                             double heads, double kv_heads, double qk_dim, double v_dim,
                             double a_bytes)
{
    kconst kc;
    kconst_init(&kc, g, NULL, ENGINE_FP16);
    return kc_attn_prefill(&kc, seqs, t, past, heads, kv_heads, qk_dim, v_dim, a_bytes);
}

double engine_attn_prefill_scores_s(const engine_gpu *g, double seqs, double t, double past,
                                    double heads, double kv_heads, double qk_dim, double v_dim,
                                    double a_bytes)
{
    kconst kc;
    kconst_init(&kc, g, NULL, ENGINE_FP16);
    kc.attn_scores = ENGINE_ATTN_SCORES_F32;
    return kc_attn_prefill(&kc, seqs, t, past, heads, kv_heads, qk_dim, v_dim, a_bytes);
}

double engine_attn_prefill_window_s(const engine_gpu *g, double seqs, double t, double past,
                                    double window, int chunked, double heads, double kv_heads,
                                    double qk_dim, double v_dim, double a_bytes)
{
    kconst kc;
    kconst_init(&kc, g, NULL, ENGINE_FP16);
    return kc_attn_prefill_w(&kc, seqs, t, past, window, chunked, heads, kv_heads, qk_dim, v_dim,
                             a_bytes);
}

int engine_xqa_group_ok(int group, int head_dim, int precompiled)
{
    /* Precompiled: DecoderXQARunner::shouldUse (non-Medusa decode), 2023
     * (index file-id 3263509163) 8 only; 2024 (WhiteD2125/TensorRT-LLM
     * @6ad7cf1b) 8 or 1; later (index file-id 2834867687) 16, 8 or 1: the
     * newest set.  JIT (decoderXQAImplJIT, supportConfigHMMA/QGMMA):
     * head_grp_size <= 32, head_size % 16 == 0 within 16..256. */
    if (precompiled)
        return group == 1 || group == 8 || group == 16;
    return group >= 1 && group <= 32 && head_dim % 16 == 0 && head_dim >= 16 && head_dim <= 256;
}

double engine_attn_decode_mmha_s(const engine_gpu *g, double kv_bytes, double flops,
                                 double seq_heads, double group)
{
    kconst kc;
    kconst_init(&kc, g, NULL, ENGINE_FP16);
    return kc_attn_decode_mmha(&kc, kv_bytes, flops, seq_heads, group);
}

double engine_attn_decode_s(const engine_gpu *g, double kv_bytes, double seq_heads)
{
    kconst kc;
    kconst_init(&kc, g, NULL, ENGINE_FP16);
    return kc_attn_decode(&kc, kv_bytes, 0, seq_heads);
}

double engine_attn_decode_gqa_s(const engine_gpu *g, double seqs, double ctx, double heads,
                                double kv_heads, double head_dim, double kv_b)
{
    kconst kc;
    kconst_init(&kc, g, NULL, ENGINE_FP16);
    if (!(kv_heads > 0) || !(heads > 0))
        return 0.0;
    kdecode d = {seqs, ctx, kv_heads, heads / kv_heads, kv_b};
    double tokens = seqs * ctx;
    return kc_attn_decode_gqa(&kc, &d, tokens * 2 * kv_heads * head_dim * kv_b,
                              4.0 * tokens * heads * head_dim);
}

double engine_small_kernel_s(const engine_gpu *g, double bytes)
{
    kconst kc;
    kconst_init(&kc, g, NULL, ENGINE_FP16);
    return kc_small(&kc, bytes);
}

/* --- framework profiles --------------------------------------------------- */

static const engine_framework GENERIC = {
    .name = "generic",
    .display = "Generic engine",
    .source = "built in: CUDA graphs for decode, NCCL all-reduces, 0.9 of the total memory and "
              "2 GB runtime overhead (seed 004)",
    .cuda_graphs = 1,
    .overlap = 1,
    .attn_fused = 1,
    .launch_s = 5e-6,
    .graph_kernel_s = 0,
    .step_s = 15e-6,
    .request_s = 0,
    .mem_rule = ENGINE_MEM_TOTAL,
    .mem_fraction = 0.9,
    .runtime_bytes = 2e9,
    .max_num_seqs = 256,
    .chunked_prefill = 0,
};

void engine_framework_generic(engine_framework *f)
{
    *f = GENERIC;
}

const engine_framework *engine_framework_generic_ref(void)
{
    return &GENERIC;
}

const char *engine_mem_rule_name(engine_mem_rule r)
{
    return r == ENGINE_MEM_FREE ? "free" : r == ENGINE_MEM_TOTAL ? "total" : "?";
}

double engine_roofline_s(double compute_s, double memory_s)
{
    return compute_s + memory_s;
}
