/*
 * validate_kernels.c - `make validate-kernels`: the engine's per-kernel
 * model (engine_gemm_s, engine_attn_prefill_s, engine_attn_decode_gqa_s,
 * engine_small_kernel_s, engine_comm_time) against the measured kernel
 * tables beside the project, shape by shape:
 *   - aiconfigurator-core 0.12.0 perf data (NVIDIA, TensorRT-LLM kernels):
 *     GEMMs by (m, n, k, dtype), prefill and decode attention, NCCL
 *     collectives, on A100 / H100 / H200 / B200 (../shared), and on the L40S
 *     and RTX PRO 6000 where DATA_DIR holds their folders (l40s/,
 *     rtx_pro_6000_server/: the same package, converted the same way);
 *     each GEMM dtype also on its compute-bound (m, n, k >= 4096) and
 *     streaming (m <= 16) rows;
 *   - AITER's tuning tables (ROCm/aiter, AMD's CK kernels), where DATA_DIR
 *     holds an aiter/ folder of its a8w8_blockscale_tuned_gemm_*.csv files
 *     (aiter/configs/model_configs/ at e4048607): the block-scaled FP8
 *     GEMMs of their gfx942 / 304-CU rows (MI300X), per table and by M;
 *   - vidur profiling (commit 7d47513, PyTorch fp16 kernels): the projection
 *     and MLP GEMMs, norms, rotary, activation and residual add of whole
 *     models by token count and TP degree, on A100 and H100.
 * Prints, per table and GPU: rows compared, median and 90th-percentile
 * absolute error, and the bias (geometric mean of predicted / measured).
 * A development tool: it reads ../shared when present and is not part of
 * `make test` (unit tests embed the few points they assert).
 *
 * usage: validate_kernels DATA_DIR [--by-m | --moe-bands | --attn-by-len |
 *                                    --prefill-by-len]
 *        (DATA_DIR holds aiconfigurator-perf/ and vidur-profiling/)
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "preset.h"

#define MAX_COLS 96
#define LINE_MAX_LEN 8192
#define MAX_ROWS 400000

typedef struct csv {
    FILE *f;
    char line[LINE_MAX_LEN];
    char *col[MAX_COLS];
    int ncol;
    char header[LINE_MAX_LEN];
    char *name[MAX_COLS];
    int nname;
} csv;

static int split(char *s, char **out, int max)
{
    int n = 0;
    char *p = s;
    while (n < max) {
        out[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    if (n > 0) {
        char *e = out[n - 1] + strlen(out[n - 1]);
        while (e > out[n - 1] && (e[-1] == '\n' || e[-1] == '\r'))
            *--e = '\0';
    }
    return n;
}

static int csv_open(csv *c, const char *path)
{
    memset(c, 0, sizeof *c);
    c->f = fopen(path, "r");
    if (!c->f)
        return -1;
    if (!fgets(c->header, sizeof c->header, c->f)) {
        fclose(c->f);
        return -1;
    }
    c->nname = split(c->header, c->name, MAX_COLS);
    return 0;
}

static int csv_next(csv *c)
{
    if (!fgets(c->line, sizeof c->line, c->f))
        return 0;
    c->ncol = split(c->line, c->col, MAX_COLS);
    return 1;
}

static int csv_idx(const csv *c, const char *name)
{
    for (int i = 0; i < c->nname; i++)
        if (!strcmp(c->name[i], name))
            return i;
    return -1;
}

static double num(const csv *c, int i)
{
    return i >= 0 && i < c->ncol ? atof(c->col[i]) : NAN;
}

static const char *str(const csv *c, int i)
{
    return i >= 0 && i < c->ncol ? c->col[i] : "";
}

/* --- statistics ---------------------------------------------------------- */

typedef struct acc {
    double *ape;
    int n, cap;
    double logsum;
} acc;

static void acc_add(acc *a, double pred, double meas)
{
    if (!(pred > 0) || !(meas > 0) || !isfinite(pred) || !isfinite(meas))
        return;
    if (a->n == a->cap) {
        int nc = a->cap ? a->cap * 2 : 1024;
        double *p = realloc(a->ape, sizeof *p * (size_t)nc);
        if (!p)
            return;
        a->ape = p;
        a->cap = nc;
    }
    a->ape[a->n++] = fabs(pred / meas - 1);
    a->logsum += log(pred / meas);
}

static void acc_print(const char *table, const char *gpu, const char *what, acc *a)
{
    if (a->n == 0) {
        printf("  %-22s %-10s %-22s %7d\n", table, gpu, what, 0);
        return;
    }
    qsort(a->ape, (size_t)a->n, sizeof a->ape[0], engine_cmp_double);
    double med = a->ape[a->n / 2];
    double p90 = a->ape[(int)(0.9 * (a->n - 1))];
    printf("  %-22s %-10s %-22s %7d %9.1f%% %9.1f%% %8.3f\n", table, gpu, what, a->n, 100 * med,
           100 * p90, exp(a->logsum / a->n));
    free(a->ape);
    memset(a, 0, sizeof *a);
}

/* --- AITER (MI300X) ------------------------------------------------------- */

/* ROOT/aiter/a8w8_blockscale_tuned_gemm_*.csv: the tuner's "us" of the best
 * CK kernel per (M, N, K) of 128x128-block-scaled FP8 weights, 1x128
 * activation groups; the rows of gfx942 with 304 CUs are MI300X's (cu_num
 * 80 is MI308X).  Per file: every row, then M <= 16, 17-128, 129-1024 and
 * above. */
static int cmp_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static void aiter_blockscale(const char *root, const engine_gpu *g)
{
    char dirp[1024];
    snprintf(dirp, sizeof dirp, "%s/aiter", root);
    DIR *d = opendir(dirp);
    if (!d)
        return;
    static const char *const MB[4] = {"M<=16", "M 17-128", "M 129-1024", "M>1024"};
    acc all = {0}, sum[5];
    memset(sum, 0, sizeof sum);
    struct dirent *e;
    char names[32][256];
    int nf = 0;
    while ((e = readdir(d)) && nf < 32)
        if (strstr(e->d_name, "a8w8_blockscale_tuned_gemm") && strstr(e->d_name, ".csv"))
            snprintf(names[nf++], sizeof names[0], "%s", e->d_name);
    closedir(d);
    qsort(names, (size_t)nf, sizeof names[0], cmp_name);
    for (int f = 0; f < nf; f++) {
        char path[1400];
        snprintf(path, sizeof path, "%.1023s/%.255s", dirp, names[f]);
        csv c;
        if (csv_open(&c, path) != 0)
            continue;
        int ig = csv_idx(&c, "gfx"), icu = csv_idx(&c, "cu_num"), im = csv_idx(&c, "M");
        int in = csv_idx(&c, "N"), ik = csv_idx(&c, "K"), ius = csv_idx(&c, "us");
        acc a = {0}, mb[4];
        memset(mb, 0, sizeof mb);
        while (ius >= 0 && csv_next(&c)) {
            if (strcmp(str(&c, ig), "gfx942") || num(&c, icu) != 304)
                continue;
            double m = num(&c, im), n = num(&c, in), k = num(&c, ik), t = num(&c, ius) * 1e-6;
            double p = engine_gemm_fp8_block_s(g, NULL, m, n, k, 1.0, 2.0);
            int b = m <= 16 ? 0 : m <= 128 ? 1 : m <= 1024 ? 2 : 3;
            acc_add(&a, p, t);
            acc_add(&mb[b], p, t);
            acc_add(&all, p, t);
            acc_add(&sum[b], p, t);
        }
        fclose(c.f);
        /* the table's model name: what follows "gemm_" */
        char what[64];
        const char *nm = strstr(names[f], "gemm_");
        snprintf(what, sizeof what, "fp8_block %.40s", nm ? nm + 5 : names[f]);
        char *dot = strstr(what, ".csv");
        if (dot)
            *dot = '\0';
        acc_print("aiter (CK tuned)", "mi300x", what, &a);
        for (int b = 0; b < 4; b++)
            if (mb[b].n) {
                snprintf(what, sizeof what, "  %s", MB[b]);
                acc_print("aiter (CK tuned)", "mi300x", what, &mb[b]);
            } else {
                free(mb[b].ape);
            }
    }
    if (all.n) {
        acc_print("aiter (CK tuned)", "mi300x", "fp8_block, all tables", &all);
        for (int b = 0; b < 4; b++) {
            char what[64];
            snprintf(what, sizeof what, "  %s", MB[b]);
            acc_print("aiter (CK tuned)", "mi300x", what, &sum[b]);
        }
    }
}

/* --- aiconfigurator ------------------------------------------------------ */

static const struct {
    const char *dir, *gpu, *link;
} AIC[] = {
    {"a100_sxm", "a100-80gb", "nvlink3"},
    {"h100_sxm", "h100-sxm", "nvlink4"},
    {"h200_sxm", "h200", "nvlink4"},
    {"b200_sxm", "b200", "nvlink5"},
    {"l40s", "l40s", "pcie4"},
    {"rtx_pro_6000_server", "rtx-pro-6000", "pcie5"},
};

/* c <- ROOT/aiconfigurator-perf/DIR/FILE: 0, or -1 where it cannot be read. */
static int aic_open(csv *c, const char *root, const char *dir, const char *file)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/aiconfigurator-perf/%s/%s", root, dir, file);
    return csv_open(c, path);
}

static void aic_gemm(const char *root, const char *dir, const engine_gpu *g)
{
    csv c;
    if (aic_open(&c, root, dir, "gemm.csv") != 0)
        return;
    int im = csv_idx(&c, "m"), in = csv_idx(&c, "n"), ik = csv_idx(&c, "k");
    int id = csv_idx(&c, "gemm_dtype"), il = csv_idx(&c, "latency");
    static const struct {
        const char *name;
        engine_dtype d;
        double wb;
    } DT[] = {{"bfloat16", ENGINE_BF16, 2},   {"fp8", ENGINE_FP8, 1},
              {"fp8_block", ENGINE_FP8, 1},  {"nvfp4", ENGINE_FP4, 0.5625},
              {"int4_wo", ENGINE_INT4, 0.51953125}};
    /* a[i]: every row; cb[i]: the compute-bound rows (m, n, k >= 4096);
     * st[i]: the streaming rows (m <= 16, n, k >= 1024) */
    acc a[5], cb[5], st[5];
    memset(a, 0, sizeof a);
    memset(cb, 0, sizeof cb);
    memset(st, 0, sizeof st);
    while (csv_next(&c)) {
        const char *d = str(&c, id);
        for (int i = 0; i < 5; i++)
            if (!strcmp(d, DT[i].name)) {
                double m = num(&c, im), n = num(&c, in), k = num(&c, ik);
                double t = num(&c, il) * 1e-3;
                /* fp8_block: DeepSeek-V3's 128x128-block-scaled FP8 */
                double p = i == 2 ? engine_gemm_fp8_block_s(g, NULL, m, n, k, DT[i].wb, 2.0)
                                  : engine_gemm_s(g, NULL, DT[i].d, m, n, k, DT[i].wb, 2.0);
                acc_add(&a[i], p, t);
                if (m >= 4096 && n >= 4096 && k >= 4096)
                    acc_add(&cb[i], p, t);
                if (m <= 16 && n >= 1024 && k >= 1024)
                    acc_add(&st[i], p, t);
            }
    }
    fclose(c.f);
    for (int i = 0; i < 5; i++) {
        char what[64];
        if (!a[i].n)
            continue;
        acc_print("aiconfigurator gemm", dir, DT[i].name, &a[i]);
        snprintf(what, sizeof what, "  %s m,n,k>=4096", DT[i].name);
        acc_print("aiconfigurator gemm", dir, what, &cb[i]);
        snprintf(what, sizeof what, "  %s m<=16", DT[i].name);
        acc_print("aiconfigurator gemm", dir, what, &st[i]);
    }
}

/* --by-m: the bf16, fp8 and int4_wo GEMM rows by m (the token count), each m's
 * error and bias over the rows with n, k >= 1024 (the shapes of model
 * layers), to see where between the memory- and the compute-bound ends the
 * shape term is short. */
#define BYM_N 21
static void aic_gemm_by_m(const char *root, const char *dir, const engine_gpu *g)
{
    static const double MS[BYM_N] = {1,   2,   4,   8,   16,  32,   48,   64,   80,   96,  128,
                                     160, 192, 256, 384, 512, 768, 1024, 2048, 4096, 8192};
    static const struct {
        const char *name;
        engine_dtype d;
        double wb;
    } DT[] = {{"bfloat16", ENGINE_BF16, 2},
              {"fp8", ENGINE_FP8, 1},
              {"int4_wo", ENGINE_INT4, 0.51953125}};
    for (int i = 0; i < 3; i++) {
        csv c;
        if (aic_open(&c, root, dir, "gemm.csv") != 0)
            return;
        int im = csv_idx(&c, "m"), in = csv_idx(&c, "n"), ik = csv_idx(&c, "k");
        int id = csv_idx(&c, "gemm_dtype"), il = csv_idx(&c, "latency");
        acc a[BYM_N];
        memset(a, 0, sizeof a);
        while (csv_next(&c)) {
            double m = num(&c, im), n = num(&c, in), k = num(&c, ik);
            if (strcmp(str(&c, id), DT[i].name) || n < 1024 || k < 1024)
                continue;
            for (int j = 0; j < BYM_N; j++)
                if (m == MS[j])
                    acc_add(&a[j], engine_gemm_s(g, NULL, DT[i].d, m, n, k, DT[i].wb, 2.0),
                            num(&c, il) * 1e-3);
        }
        fclose(c.f);
        for (int j = 0; j < BYM_N; j++) {
            char what[64];
            snprintf(what, sizeof what, "%s m=%g", DT[i].name, MS[j]);
            if (a[j].n)
                acc_print("aiconfigurator gemm", dir, what, &a[j]);
        }
    }
}

/* VK_ARGS=--attn-by-len: the decode rows (group <= 16, no window) by batch
 * and by KV length, per KV dtype: each cell's median APE and bias. */
static int by_len;
enum { LEN_NB = 4, LEN_NC = 6 };
static const char *const LEN_B[LEN_NB] = {"1-4", "8-32", "64-256", "512-2048"};
static const char *const LEN_C[LEN_NC] = {"2-64", "128-512", "1k-4k", "8k-16k", "32k-64k",
                                          "128k"};
typedef struct len_grid {
    acc cell[LEN_NB][LEN_NC];
} len_grid;

static void len_add(len_grid *lg, double b, double ctx, double pred, double meas)
{
    int ib = b <= 4 ? 0 : b <= 32 ? 1 : b <= 256 ? 2 : 3;
    int ic = ctx <= 64 ? 0 : ctx <= 512 ? 1 : ctx <= 4096 ? 2 : ctx <= 16384 ? 3
             : ctx <= 65536 ? 4 : 5;
    acc_add(&lg->cell[ib][ic], pred, meas);
}

static void len_print(len_grid *lg, const char *dir, const char *what)
{
    printf("  decode by batch x KV length, %s %s: median APE / bias (rows)\n", dir, what);
    printf("    %-9s", "batch");
    for (int c = 0; c < LEN_NC; c++)
        printf(" %19s", LEN_C[c]);
    printf("\n");
    for (int b = 0; b < LEN_NB; b++) {
        printf("    %-9s", LEN_B[b]);
        for (int c = 0; c < LEN_NC; c++) {
            acc *a = &lg->cell[b][c];
            if (a->n == 0) {
                printf(" %19s", "-");
                continue;
            }
            qsort(a->ape, (size_t)a->n, sizeof a->ape[0], engine_cmp_double);
            printf(" %5.1f%% / %5.3f (%4d)", 100 * a->ape[a->n / 2], exp(a->logsum / a->n), a->n);
            free(a->ape);
        }
        printf("\n");
    }
    memset(lg, 0, sizeof *lg);
}

/* aic_attention's figures of one GPU folder. */
typedef struct attn_accs {
    acc pre, dec, dec8;
    acc goss[2][2]; /* gpt-oss decode: [fp8 KV][global, 128-token window] */
    acc gpre[2];    /* gpt-oss prefill: global, 128-token window */
    len_grid blen[2]; /* --attn-by-len: bf16, fp8 KV */
} attn_accs;

/* context_attention.csv's bf16 torch_flow rows: global ones in x->pre,
 * gpt-oss's layers at TP1 (global and sliding) in x->gpre. */
static void attn_prefill_rows(csv *c, const engine_gpu *g, attn_accs *x)
{
    int ib = csv_idx(c, "batch_size"), is = csv_idx(c, "isl"), ih = csv_idx(c, "num_heads");
    int ikv = csv_idx(c, "num_key_value_heads"), id = csv_idx(c, "head_dim");
    int iw = csv_idx(c, "window_size"), ia = csv_idx(c, "attn_dtype");
    int ikd = csv_idx(c, "kv_cache_dtype"), il = csv_idx(c, "latency");
    int isrc = csv_idx(c, "kernel_source");
    while (csv_next(c)) {
        double w = num(c, iw);
        if (num(c, ih) == 64 && num(c, ikv) == 8 && num(c, id) == 64 && (w == 0 || w == 128) &&
            !strcmp(str(c, ia), "bfloat16") && !strcmp(str(c, ikd), "bfloat16") &&
            !strcmp(str(c, isrc), "torch_flow"))
            /* gpt-oss's layers at TP1, global and sliding */
            acc_add(&x->gpre[w > 0],
                    engine_attn_prefill_window_s(g, num(c, ib), num(c, is), 0, w, 0, 64, 8, 64,
                                                 64, 2.0),
                    num(c, il) * 1e-3);
        if (w != 0 || strcmp(str(c, ia), "bfloat16") || strcmp(str(c, ikd), "bfloat16") ||
            strcmp(str(c, isrc), "torch_flow"))
            continue;
        double d = num(c, id);
        acc_add(&x->pre,
                engine_attn_prefill_s(g, num(c, ib), num(c, is), 0, num(c, ih), num(c, ikv), d,
                                      d, 2.0),
                num(c, il) * 1e-3);
    }
}

/* generation_attention.csv's bf16-math torch_flow rows by KV dtype:
 * x->dec / x->dec8 (and x->blen), gpt-oss's layers at TP1 in x->goss. */
static void attn_decode_rows(csv *c, const char *dir, const engine_gpu *g, attn_accs *x)
{
    int ib = csv_idx(c, "batch_size"), ist = csv_idx(c, "step"), ih = csv_idx(c, "num_heads");
    int ikv = csv_idx(c, "num_key_value_heads"), id = csv_idx(c, "head_dim");
    int iw = csv_idx(c, "window_size"), ia = csv_idx(c, "attn_dtype");
    int ikd = csv_idx(c, "kv_cache_dtype"), il = csv_idx(c, "latency");
    int isl = csv_idx(c, "isl"), isrc = csv_idx(c, "kernel_source");
    while (csv_next(c)) {
        /* GQA ratios of today's models (h/kv <= 16); A100's GQA rows
         * run faster than its HBM allows and are left out (MHA only). */
        double h = num(c, ih), kv = num(c, ikv), w = num(c, iw), b = num(c, ib);
        int f8 = !strcmp(str(c, ikd), "fp8");
        if (strcmp(str(c, ia), "bfloat16") || (!f8 && strcmp(str(c, ikd), "bfloat16")) ||
            strcmp(str(c, isrc), "torch_flow"))
            continue;
        /* a sliding layer reads its window */
        double ctx = num(c, isl) + num(c, ist);
        if (w > 0 && ctx > w)
            ctx = w;
        double t = engine_attn_decode_gqa_s(g, b, ctx, h, kv, num(c, id), f8 ? 1.0 : 2.0);
        if (h == 64 && kv == 8 && num(c, id) == 64 && (w == 0 || w == 128))
            acc_add(&x->goss[f8][w > 0], t, num(c, il) * 1e-3); /* gpt-oss's layers at TP1 */
        if (w != 0 || h / kv > 16 || (!strcmp(dir, "a100_sxm") && h != kv))
            continue;
        acc_add(f8 ? &x->dec8 : &x->dec, t, num(c, il) * 1e-3);
        if (by_len)
            len_add(&x->blen[f8], b, ctx, t, num(c, il) * 1e-3);
    }
}

static void aic_attention(const char *root, const char *dir, const engine_gpu *g)
{
    static attn_accs x;
    memset(&x, 0, sizeof x);
    csv c;
    if (aic_open(&c, root, dir, "context_attention.csv") == 0) {
        attn_prefill_rows(&c, g, &x);
        fclose(c.f);
    }
    if (aic_open(&c, root, dir, "generation_attention.csv") == 0) {
        attn_decode_rows(&c, dir, g, &x);
        fclose(c.f);
    }
    acc_print("aiconfigurator attn", dir, "prefill (bf16)", &x.pre);
    acc_print("aiconfigurator attn", dir, "  gpt-oss prefill global", &x.gpre[0]);
    acc_print("aiconfigurator attn", dir, "  gpt-oss prefill win 128", &x.gpre[1]);
    acc_print("aiconfigurator attn", dir, "decode (bf16 KV)", &x.dec);
    acc_print("aiconfigurator attn", dir, "decode (fp8 KV)", &x.dec8);
    acc_print("aiconfigurator attn", dir, "  gpt-oss decode global", &x.goss[0][0]);
    acc_print("aiconfigurator attn", dir, "  gpt-oss decode win 128", &x.goss[0][1]);
    acc_print("aiconfigurator attn", dir, "  gpt-oss fp8 KV global", &x.goss[1][0]);
    acc_print("aiconfigurator attn", dir, "  gpt-oss fp8 KV win 128", &x.goss[1][1]);
    if (by_len) {
        len_print(&x.blen[0], dir, "bf16 KV");
        len_print(&x.blen[1], dir, "fp8 KV");
    }
}

/* --prefill-by-len: the bf16 prefill rows (no window) by head size and
 * sequence length, then by batch, and gpt-oss's 128-token window rows by
 * sequence length, to see in which regime the prefill attention model is
 * off (the fixed cost and the blocks' waves at short sequences, the causal
 * dot products and softmax at long ones). */
#define PBL_NT 17
#define PBL_ND 4
#define PBL_NB 9
static const double PBL_T[PBL_NT] = {1,    16,   32,   64,   128,  256,   512,   1024, 1536,
                                     2048, 3072, 4096, 6144, 8192, 10240, 12288, 16384};
static const double PBL_D[PBL_ND] = {64, 128, 192, 256};
static const double PBL_B[PBL_NB] = {1, 2, 4, 8, 16, 32, 64, 128, 256};

static int pbl_index(const double *v, int n, double x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return i;
    return -1;
}

static void pbl_print(const char *dir, acc by_dt[PBL_ND][PBL_NT], acc *by_b, acc *win)
{
    char what[64];
    for (int d = 0; d < PBL_ND; d++)
        for (int t = 0; t < PBL_NT; t++) {
            snprintf(what, sizeof what, "prefill d=%g isl=%g", PBL_D[d], PBL_T[t]);
            if (by_dt[d][t].n)
                acc_print("aiconfigurator attn", dir, what, &by_dt[d][t]);
        }
    for (int b = 0; b < PBL_NB; b++) {
        snprintf(what, sizeof what, "prefill batch=%g", PBL_B[b]);
        if (by_b[b].n)
            acc_print("aiconfigurator attn", dir, what, &by_b[b]);
    }
    for (int t = 0; t < PBL_NT; t++) {
        snprintf(what, sizeof what, "gpt-oss win 128 isl=%g", PBL_T[t]);
        if (win[t].n)
            acc_print("aiconfigurator attn", dir, what, &win[t]);
    }
}

static void aic_prefill_by_len(const char *root, const char *dir, const engine_gpu *g)
{
    csv c;
    if (aic_open(&c, root, dir, "context_attention.csv") != 0)
        return;
    static acc by_dt[PBL_ND][PBL_NT], by_b[PBL_NB], win[PBL_NT];
    int ib = csv_idx(&c, "batch_size"), is = csv_idx(&c, "isl"), ih = csv_idx(&c, "num_heads");
    int ikv = csv_idx(&c, "num_key_value_heads"), id = csv_idx(&c, "head_dim");
    int iw = csv_idx(&c, "window_size"), ia = csv_idx(&c, "attn_dtype");
    int ikd = csv_idx(&c, "kv_cache_dtype"), il = csv_idx(&c, "latency");
    int isrc = csv_idx(&c, "kernel_source");
    while (csv_next(&c)) {
        double b = num(&c, ib), t = num(&c, is), h = num(&c, ih), kv = num(&c, ikv);
        double d = num(&c, id), w = num(&c, iw), meas = num(&c, il) * 1e-3;
        if (strcmp(str(&c, ia), "bfloat16") || strcmp(str(&c, ikd), "bfloat16") ||
            strcmp(str(&c, isrc), "torch_flow"))
            continue;
        int ti = pbl_index(PBL_T, PBL_NT, t);
        if (w == 128 && h == 64 && kv == 8 && d == 64 && ti >= 0)
            acc_add(&win[ti], engine_attn_prefill_window_s(g, b, t, 0, w, 0, h, kv, d, d, 2.0),
                    meas);
        if (w != 0)
            continue;
        double p = engine_attn_prefill_s(g, b, t, 0, h, kv, d, d, 2.0);
        int di = pbl_index(PBL_D, PBL_ND, d), bi = pbl_index(PBL_B, PBL_NB, b);
        if (di >= 0 && ti >= 0)
            acc_add(&by_dt[di][ti], p, meas);
        if (bi >= 0)
            acc_add(&by_b[bi], p, meas);
    }
    fclose(c.f);
    pbl_print(dir, by_dt, by_b, win);
}

static void aic_nccl(const char *root, const char *dir, const engine_link *l)
{
    csv c;
    if (!l || aic_open(&c, root, dir, "nccl.csv") != 0)
        return;
    int io = csv_idx(&c, "op_name"), idt = csv_idx(&c, "nccl_dtype"), ig = csv_idx(&c, "num_gpus");
    int is = csv_idx(&c, "message_size"), il = csv_idx(&c, "latency");
    static const struct {
        const char *name;
        engine_collective op;
    } OPS[] = {{"all_reduce", ENGINE_OP_ALLREDUCE},
               {"all_gather", ENGINE_OP_ALLGATHER},
               {"alltoall", ENGINE_OP_ALLTOALL}};
    acc a[3][2];
    memset(a, 0, sizeof a);
    while (csv_next(&c)) {
        if (strcmp(str(&c, idt), "half"))
            continue;
        int n = (int)num(&c, ig);
        for (int i = 0; i < 3; i++)
            if (!strcmp(str(&c, io), OPS[i].name) && n >= 2 && n <= 8)
                acc_add(&a[i][n == 8 ? 0 : 1],
                        engine_comm_time(OPS[i].op, l, NULL, n, 0, 2.0 * num(&c, is)),
                        num(&c, il) * 1e-3);
    }
    fclose(c.f);
    for (int i = 0; i < 3; i++) {
        char what[64];
        snprintf(what, sizeof what, "%s 8 GPUs (fitted)", OPS[i].name);
        acc_print("aiconfigurator nccl", dir, what, &a[i][0]);
        snprintf(what, sizeof what, "%s 2-4 GPUs", OPS[i].name);
        acc_print("aiconfigurator nccl", dir, what, &a[i][1]);
    }
}

/* One MoE layer's expert computation (aiconfigurator's collector runs
 * TensorRT-LLM's fused MoE on one GPU: router logits given, balanced
 * routing, num_experts / moe_ep_size local experts, every token on that
 * GPU, inter_size split moe_tp_size ways) against engine_moe_layer_s: a
 * synthetic model of the row's shape (gpt-oss's otherwise), balanced
 * routing (imbalance 1), the trt-llm profile's CUDA-graph launches.  The
 * row's (moe_tp, moe_ep) is the engine's plan tp = moe_tp * moe_ep,
 * ep = moe_ep when moe_tp > 1 (expert groups inside a TP group, every
 * rank holding every token), else tp 1, ep = dp = moe_ep (each GPU's
 * experts see the pooled tokens of the EP group). */
enum { MOE_NB = 4 };
static const char *const MOE_BUCKET[MOE_NB] = {"1-16 tok", "32-256 tok", "384-2048 tok",
                                               "3072-16384 tok"};

static int moe_bucket(double n)
{
    return n <= 16 ? 0 : n <= 256 ? 1 : n <= 2048 ? 2 : 3;
}

typedef struct moe_dt {
    const char *dtype, *source; /* moe.csv moe_dtype and kernel_source */
    engine_dtype w;
    int group;
    int gated;
} moe_dt;

static const moe_dt MOE_DT[] = {
    {"bfloat16", "moe_torch_flow_cutlass", ENGINE_BF16, 0, 1},
    {"fp8", "moe_torch_flow_cutlass", ENGINE_FP8, 0, 1},
    {"fp8_block", "moe_torch_flow_cutlass", ENGINE_FP8, 0, 1},
    {"fp8_block", "deepgemm", ENGINE_FP8, 0, 1},
    {"nvfp4", "moe_torch_flow_cutlass", ENGINE_FP4, 16, 1},
    {"w4a16_mxfp4", "moe_torch_flow", ENGINE_FP4, 32, 1},
    {"w4a8_mxfp4_mxfp8", "moe_torch_flow", ENGINE_FP4, 32, 1},
    {"bfloat16", "moe_torch_flow_nongated", ENGINE_BF16, 0, 0},
    {"fp8", "moe_torch_flow_nongated", ENGINE_FP8, 0, 0},
    {"nvfp4", "moe_torch_flow_nongated", ENGINE_FP4, 16, 0},
};
#define MOE_NDT (sizeof MOE_DT / sizeof MOE_DT[0])

static double vk_w4a16_fixed = -1; /* VK_W4A16's framework fixed cost; -1: the profile's */

/* The experts of EP rank 0 that aiconfigurator's collector's "balanced"
 * routing hits, and their token-expert pairs (collector/helper.py
 * balanced_logits @095f58a5: stride s = ceil(E / k); token t picks
 * (t + j s) mod E for j < k when n >= s, else (t s / n + j s) mod E, the
 * float truncated; TensorRT-LLM gives EP rank 0 the experts [0, E / ep),
 * fused_moe slot_start = ep_rank x expert_size_per_partition): round-robin,
 * min(E, n k) experts hit, not random routing's E (1 - (1 - k / E)^n). */
static void moe_collector_routing(double n, int k, int E, int ep, double *hit, double *pairs)
{
    static int cnt[4096];
    int L = E / (ep > 0 ? ep : 1), s = (E + k - 1) / k, N = (int)n;
    if (L < 1 || L > 4096 || k < 1) {
        *hit = *pairs = 0;
        return;
    }
    memset(cnt, 0, sizeof cnt[0] * (size_t)L);
    long np = 0;
    for (int t = 0; t < N; t++)
        for (int j = 0; j < k; j++) {
            long e = N >= s ? ((long)t + (long)j * s) % E
                            : (long)fmod((double)t * s / N + (double)j * s, (double)E);
            if (e < L) {
                cnt[e]++;
                np++;
            }
        }
    int h = 0;
    for (int e = 0; e < L; e++)
        h += cnt[e] > 0;
    *hit = h;
    *pairs = (double)np;
}

static int moe_random_routing; /* VK_MOE_RANDOM=1: the engine's random routing instead */

/* The engine's time for one moe.csv row under the collector's routing
 * (moe_collector_routing), or -1. */
static double moe_pred(const preset_db *db, const engine_gpu *g, const moe_dt *dt, double n,
                       double h, double inter, double topk, double E, int mtp, int mep)
{
    const engine_model *base = preset_find_model(db, "gpt-oss-120b");
    if (!base)
        return -1;
    engine_model m = *base;
    m.hidden = (int)h;
    m.moe_ffn = (int)inter;
    m.ffn = (int)inter;
    m.top_k = (int)topk;
    m.experts = (int)E;
    m.shared_experts = 0;
    m.gated_mlp = dt->gated;
    m.heads = m.kv_heads = 4096; /* any TP degree divides them */
    m.head_dim = 64;
    m.has_weight_dtype = 0;
    m.weight_block = !strcmp(dt->dtype, "fp8_block") ? 128 : 0; /* 128x128 weight blocks */
    engine_scenario s;
    engine_scenario_defaults(&s);
    s.model = &m;
    s.gpu = g;
    s.intra = preset_find_link(db, "nvlink4");
    s.framework = preset_find_framework(db, "trt-llm");
    engine_framework fw;
    if (s.framework && vk_w4a16_fixed >= 0) {
        fw = *s.framework;
        fw.moe_w4a16_fixed_s = vk_w4a16_fixed;
        s.framework = &fw;
    }
    s.weight_dtype = dt->w;
    s.quant_group = dt->group;
    s.act_dtype = ENGINE_BF16;
    s.kv_dtype = ENGINE_BF16;
    s.moe_imbalance = 1.0;
    s.prompt = 128;
    s.gen = 128;
    engine_plan p = {mtp > 1 ? mtp * mep : 1, 1, mtp > 1 ? 1 : mep, mep};
    s.gpus = p.tp * p.dp;
    engine_error err = {{0}};
    double hit = 0, pairs = 0;
    if (!moe_random_routing)
        moe_collector_routing(n, (int)topk, (int)E, mep, &hit, &pairs);
    if (!(hit > 0 && pairs > 0))
        hit = pairs = 0;
    return engine_moe_layer_routed_s(&s, p, n, hit, pairs, &err);
}

/* VK_MOE_GRID=DTYPE: the geometric mean of engine over measured per
 * (inter_size / moe_tp, tokens per expert = num_tokens x topk / num_experts)
 * cell, to see where the error depends on the expert's shape; and, over
 * the rows of >= 256 tokens per expert, the measured and the engine's time
 * per routed pair x hidden (pairs = num_tokens x topk / moe_ep): a time
 * a + b x inter/moe_tp there is a floor a independent of the width. */
enum { GRID_NF = 64, GRID_NT = 9 };
static const double GRID_TPE[GRID_NT] = {1, 4, 16, 64, 256, 1024, 4096, 16384, 1e300};
typedef struct moe_grid {
    double f[GRID_NF];
    double logsum[GRID_NF][GRID_NT];
    int n[GRID_NF][GRID_NT];
    double ps_meas[GRID_NF], ps_eng[GRID_NF]; /* log sums of ps per pair x hidden */
    int nps[GRID_NF];
    int nf;
} moe_grid;

static void grid_add(moe_grid *gr, double f, double tpe, double eng, double meas, double pair_h)
{
    double ratio = eng / meas;
    int i = 0;
    while (i < gr->nf && gr->f[i] != f)
        i++;
    if (i == gr->nf) {
        if (gr->nf == GRID_NF || !(ratio > 0))
            return;
        gr->f[gr->nf++] = f;
    }
    int t = 0;
    while (t < GRID_NT - 1 && tpe > GRID_TPE[t])
        t++;
    gr->logsum[i][t] += log(ratio);
    gr->n[i][t]++;
    if (tpe >= 256) {
        gr->ps_meas[i] += log(meas / pair_h * 1e12);
        gr->ps_eng[i] += log(eng / pair_h * 1e12);
        gr->nps[i]++;
    }
}

static int cmp_f(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void grid_print(const moe_grid *gr, const char *dir, const moe_dt *dt)
{
    if (!gr->nf)
        return;
    double fs[GRID_NF];
    memcpy(fs, gr->f, sizeof fs);
    qsort(fs, (size_t)gr->nf, sizeof fs[0], cmp_f);
    printf("    grid %s %s %s: engine/measured by inter/moe_tp (rows) and tokens per expert "
           "(columns, up to)\n      %7s", dir, dt->dtype, dt->source, "inter");
    for (int t = 0; t < GRID_NT - 1; t++)
        printf(" %6g", GRID_TPE[t]);
    printf("   more  ps/(pair x hidden) measured engine\n");
    for (int k = 0; k < gr->nf; k++) {
        int i = 0;
        while (gr->f[i] != fs[k])
            i++;
        printf("      %7g", fs[k]);
        for (int t = 0; t < GRID_NT; t++)
            if (gr->n[i][t])
                printf(" %6.2f", exp(gr->logsum[i][t] / gr->n[i][t]));
            else
                printf(" %6s", "-");
        if (gr->nps[i])
            printf("  %8.2f %8.2f", exp(gr->ps_meas[i] / gr->nps[i]),
                   exp(gr->ps_eng[i] / gr->nps[i]));
        printf("\n");
    }
}

/* --moe-bands: the median engine/measured of each dtype's rows by expert
 * width inter_size / moe_tp (rows) and tokens per expert num_tokens x topk
 * / num_experts (columns), with the row count: where the layer model is
 * fast (< 1) or slow against the kernel, robust to the tables' outliers
 * (a geometric mean per exact width: VK_MOE_GRID). */
enum { BAND_NW = 4, BAND_NT = 7 };
static const double BAND_W[BAND_NW] = {256, 1024, 4096, 1e300};
static const char *const BAND_WNAME[BAND_NW] = {"<=256", "<=1024", "<=4096", ">4096"};
static const double BAND_T[BAND_NT] = {1, 16, 64, 256, 1024, 4096, 1e300};
static const char *const BAND_TNAME[BAND_NT] = {"<=1", "<=16", "<=64", "<=256", "<=1024",
                                                "<=4096", ">4096"};
typedef struct band_cell {
    double *v;
    int n, cap;
} band_cell;
static int moe_bands; /* --moe-bands */
static band_cell bands[MOE_NDT][BAND_NW][BAND_NT];

static int band_of(const double *edges, int n, double x)
{
    int i = 0;
    while (i < n - 1 && x > edges[i])
        i++;
    return i;
}

static void band_add(size_t dt, double width, double tpe, double ratio)
{
    if (!(ratio > 0))
        return;
    band_cell *c = &bands[dt][band_of(BAND_W, BAND_NW, width)][band_of(BAND_T, BAND_NT, tpe)];
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 64;
        double *v = realloc(c->v, (size_t)cap * sizeof *v);
        if (!v)
            return;
        c->v = v;
        c->cap = cap;
    }
    c->v[c->n++] = ratio;
}

static void bands_print(const char *dir, size_t dt)
{
    int any = 0;
    for (int w = 0; w < BAND_NW; w++)
        for (int t = 0; t < BAND_NT; t++)
            any += bands[dt][w][t].n;
    if (!any)
        return;
    printf("  %s %s %s: median engine/measured (rows) by inter/moe_tp and tokens per expert\n"
           "    %-7s", dir, MOE_DT[dt].dtype, MOE_DT[dt].source, "width");
    for (int t = 0; t < BAND_NT; t++)
        printf(" %13s", BAND_TNAME[t]);
    printf("\n");
    for (int w = 0; w < BAND_NW; w++) {
        printf("    %-7s", BAND_WNAME[w]);
        for (int t = 0; t < BAND_NT; t++) {
            band_cell *c = &bands[dt][w][t];
            if (!c->n) {
                printf(" %13s", "-");
                continue;
            }
            qsort(c->v, (size_t)c->n, sizeof c->v[0], cmp_f);
            printf("    %5.2f (%4d)", c->v[c->n / 2], c->n);
            free(c->v);
            *c = (band_cell){NULL, 0, 0};
        }
        printf("\n");
    }
}

/* The MoE tables of one GPU directory: all rows, the compute-bound and
 * wide ones, and the gpt-oss buckets, per dtype and kernel source. */
static void moe_print(const char *dir, acc *all, const moe_grid *gr, acc *cb, acc *wide,
                      acc goss[][MOE_NB])
{
    for (size_t i = 0; i < MOE_NDT; i++) {
        char what[96];
        if (!all[i].n)
            continue;
        snprintf(what, sizeof what, "%s %s", MOE_DT[i].dtype,
                 strstr(MOE_DT[i].source, "nongated") ? "nongated"
                 : !strcmp(MOE_DT[i].source, "deepgemm") ? "deepgemm" : "");
        acc_print("aiconfigurator moe", dir, what, &all[i]);
        grid_print(&gr[i], dir, &MOE_DT[i]);
        if (cb[i].n) {
            snprintf(what, sizeof what, "  compute-bound");
            acc_print("aiconfigurator moe", dir, what, &cb[i]);
        }
        if (wide[i].n) {
            snprintf(what, sizeof what, "  wide compute-bound");
            acc_print("aiconfigurator moe", dir, what, &wide[i]);
        }
        for (int b = 0; b < MOE_NB; b++) {
            if (!goss[i][b].n)
                continue;
            snprintf(what, sizeof what, "  gpt-oss %s", MOE_BUCKET[b]);
            acc_print("aiconfigurator moe", dir, what, &goss[i][b]);
        }
    }
}

/* The GPU the MoE rows are predicted on: g0, or a copy in *gw with the
 * fitting aids' environment overrides (the presets keep the shipped
 * constants). */
static const engine_gpu *moe_gpu(const engine_gpu *g0, engine_gpu *gw)
{
    /* VK_W4A16="fixed_us,token_ns,eta_c,eta_m" replaces the W4A16 MoE
     * constants (the trt-llm profile's fixed cost, the GPU's others; a
     * fitting aid: the presets keep the shipped ones) */
    *gw = *g0;
    const engine_gpu *g = g0;
    /* VK_ETA_MOE=x sets every grouped-kernel rate (eta_moe, _fp8,
     * _fp8_block, _fp4) to x: a fitting aid, one dtype at a time */
    const char *em_ov = getenv("VK_ETA_MOE");
    if (em_ov) {
        gw->eta_moe = gw->eta_moe_fp8 = gw->eta_moe_fp8_block = gw->eta_moe_fp4 = atof(em_ov);
        gw->eta_moe_w4a8 = atof(em_ov);
        g = gw;
    }
    /* VK_MOE_ROWS_ETA=x sets every GPU's eta_moe_rows (the CUTLASS fused
     * MoE's row kernels, a fitting aid) */
    const char *rows_ov = getenv("VK_MOE_ROWS_ETA");
    if (rows_ov) {
        gw->eta_moe_rows = atof(rows_ov);
        g = gw;
    }
    /* VK_W4A8_TOKEN=ns replaces the GPU's moe_w4a8_token_ns (a fitting aid) */
    const char *w8 = getenv("VK_W4A8_TOKEN");
    if (w8) {
        gw->moe_w4a8_token_s = atof(w8) * 1e-9;
        g = gw;
    }
    const char *ov = getenv("VK_W4A16");
    double fx, tk, ec, em;
    if (ov && sscanf(ov, "%lf,%lf,%lf,%lf", &fx, &tk, &ec, &em) == 4) {
        vk_w4a16_fixed = fx * 1e-6;
        gw->moe_w4a16_token_s = tk * 1e-9;
        gw->eta_compute_w4a16 = ec;
        gw->eta_memory_w4a16 = em;
        g = gw;
    }
    return g;
}

static void aic_moe(const preset_db *db, const char *root, const char *dir, const engine_gpu *g0)
{
    engine_gpu gw;
    const engine_gpu *g = moe_gpu(g0, &gw);
    const char *rr = getenv("VK_MOE_RANDOM");
    moe_random_routing = rr && atoi(rr) == 1;
    csv c;
    if (aic_open(&c, root, dir, "moe.csv") != 0)
        return;
    int isrc = csv_idx(&c, "kernel_source"), id = csv_idx(&c, "moe_dtype");
    int in = csv_idx(&c, "num_tokens"), ih = csv_idx(&c, "hidden_size");
    int ii = csv_idx(&c, "inter_size"), ik = csv_idx(&c, "topk"), ie = csv_idx(&c, "num_experts");
    int itp = csv_idx(&c, "moe_tp_size"), iep = csv_idx(&c, "moe_ep_size");
    int idist = csv_idx(&c, "distribution"), il = csv_idx(&c, "latency");
    static acc all[MOE_NDT], goss[MOE_NDT][MOE_NB], cb[MOE_NDT], wide[MOE_NDT];
    const char *rows = getenv("VK_MOE_ROWS"); /* a dtype: print its rows */
    const char *grid = getenv("VK_MOE_GRID"); /* a dtype: print its shape grid */
    static moe_grid gr[MOE_NDT];
    memset(gr, 0, sizeof gr);
    memset(all, 0, sizeof all);
    memset(goss, 0, sizeof goss);
    memset(cb, 0, sizeof cb);
    memset(wide, 0, sizeof wide);
    while (csv_next(&c)) {
        if (strcmp(str(&c, idist), "balanced"))
            continue;
        for (size_t i = 0; i < MOE_NDT; i++) {
            if (strcmp(str(&c, id), MOE_DT[i].dtype) || strcmp(str(&c, isrc), MOE_DT[i].source))
                continue;
            /* a GPU with FP4 tensor cores runs MXFP4 as W4A8 (eval.c
             * mx_math): its W4A16 rows are a kernel the engine never picks */
            if (!strcmp(MOE_DT[i].dtype, "w4a16_mxfp4") && g->peak_flops[ENGINE_FP4] > 0)
                continue;
            double n = num(&c, in), h = num(&c, ih);
            double t = moe_pred(db, g, &MOE_DT[i], n, h, num(&c, ii), num(&c, ik), num(&c, ie),
                                (int)num(&c, itp), (int)num(&c, iep));
            double meas = num(&c, il) * 1e-3;
            acc_add(&all[i], t, meas);
            if (rows && strstr(MOE_DT[i].dtype, rows))
                printf("    row %s %s %s n=%g h=%g i=%g k=%g E=%g tp=%d ep=%d: measured %.4f ms, "
                       "engine %.4f ms, ratio %.2f\n",
                       dir, MOE_DT[i].dtype, MOE_DT[i].source, n, h, num(&c, ii), num(&c, ik),
                       num(&c, ie), (int)num(&c, itp), (int)num(&c, iep), meas * 1e3, t * 1e3,
                       t / meas);
            if (grid && strstr(MOE_DT[i].dtype, grid) && t > 0 && meas > 0)
                grid_add(&gr[i], num(&c, ii) / num(&c, itp), n * num(&c, ik) / num(&c, ie), t,
                         meas, n * num(&c, ik) / num(&c, iep) * h);
            if (moe_bands)
                band_add(i, num(&c, ii) / num(&c, itp), n * num(&c, ik) / num(&c, ie), t / meas);
            if (h == 2880) /* gpt-oss-20b / 120b: 32 / 128 experts, top 4 */
                acc_add(&goss[i][moe_bucket(n)], t, meas);
            /* compute-bound: >= 1024 tokens per expert, hidden >= 4096 (the
             * rows gpus.json eta_moe* are set from) */
            if (n * num(&c, ik) / num(&c, ie) >= 1024 && h >= 4096)
                acc_add(&cb[i], t, meas);
            /* wide: an expert's width inter/moe_tp >= 4096 at >= 1024 tokens
             * per expert (the rows eta_moe* are set from: their median) */
            if (n * num(&c, ik) / num(&c, ie) >= 1024 && num(&c, ii) / num(&c, itp) >= 4096)
                acc_add(&wide[i], t, meas);
        }
    }
    fclose(c.f);
    if (moe_bands) {
        for (size_t i = 0; i < MOE_NDT; i++)
            bands_print(dir, i);
        return;
    }
    moe_print(dir, all, gr, cb, wide, goss);
}

/* --- vidur ----------------------------------------------------------------- */

enum { V_QKV, V_O, V_UP, V_DOWN, V_NORM, V_ROPE, V_ACT, V_ADD, V_N };
static const char *const V_NAMES[V_N] = {"attn_pre_proj (QKV)", "attn_post_proj (O)",
                                         "mlp_up_proj", "mlp_down_proj", "input_layernorm",
                                         "attn_rope", "mlp_act", "add"};

static void vidur_file(const char *path, const engine_gpu *g, acc *a)
{
    csv c;
    if (csv_open(&c, path) != 0)
        return;
    static const char *const COL[V_N] = {
        "time_stats.attn_pre_proj.median", "time_stats.attn_post_proj.median",
        "time_stats.mlp_up_proj.median",   "time_stats.mlp_down_proj.median",
        "time_stats.input_layernorm.median", "time_stats.attn_rope.median",
        "time_stats.mlp_act.median",       "time_stats.add.median"};
    int ic[V_N];
    for (int i = 0; i < V_N; i++)
        ic[i] = csv_idx(&c, COL[i]);
    int ih = csv_idx(&c, "n_head"), ikv = csv_idx(&c, "n_kv_head"), id = csv_idx(&c, "n_embd");
    int iff = csv_idx(&c, "n_expanded_embd"), ig = csv_idx(&c, "use_gated_mlp");
    int it = csv_idx(&c, "num_tokens"), itp = csv_idx(&c, "num_tensor_parallel_workers");
    while (csv_next(&c)) {
        double h = num(&c, ih), kv = num(&c, ikv), d = num(&c, id), f = num(&c, iff);
        double T = num(&c, it), tp = num(&c, itp);
        int gated = !strcmp(str(&c, ig), "True");
        double dh = d / h, kvg = kv >= tp ? kv / tp : 1;
        double pred[V_N] = {
            engine_gemm_s(g, NULL, ENGINE_FP16, T, (h / tp + 2 * kvg) * dh, d, 2, 2),
            engine_gemm_s(g, NULL, ENGINE_FP16, T, d, h / tp * dh, 2, 2),
            engine_gemm_s(g, NULL, ENGINE_FP16, T, (gated ? 2 : 1) * f / tp, d, 2, 2),
            engine_gemm_s(g, NULL, ENGINE_FP16, T, d, f / tp, 2, 2),
            engine_small_kernel_s(g, 2 * T * d * 2),
            engine_small_kernel_s(g, 2 * T * (h / tp + kvg) * dh * 2),
            engine_small_kernel_s(g, (gated ? 3 : 2) * T * f / tp * 2),
            engine_small_kernel_s(g, 3 * T * d * 2),
        };
        for (int i = 0; i < V_N; i++)
            acc_add(&a[i], pred[i], num(&c, ic[i]) * 1e-3);
    }
    fclose(c.f);
}

static void vidur(const char *root, const char *gdir, const engine_gpu *g)
{
    acc a[V_N];
    memset(a, 0, sizeof a);
    char base[1024];
    snprintf(base, sizeof base, "%s/vidur-profiling/compute/%s", root, gdir);
    DIR *d1 = opendir(base);
    if (!d1)
        return;
    struct dirent *e1;
    while ((e1 = readdir(d1))) {
        if (e1->d_name[0] == '.')
            continue;
        char org[1280];
        snprintf(org, sizeof org, "%s/%s", base, e1->d_name);
        DIR *d2 = opendir(org);
        if (!d2)
            continue;
        struct dirent *e2;
        while ((e2 = readdir(d2))) {
            if (e2->d_name[0] == '.')
                continue;
            char path[1600];
            snprintf(path, sizeof path, "%s/%s/mlp.csv", org, e2->d_name);
            vidur_file(path, g, a);
        }
        closedir(d2);
    }
    closedir(d1);
    for (int i = 0; i < V_N; i++)
        acc_print("vidur (pytorch fp16)", gdir, V_NAMES[i], &a[i]);
}

/* VK_DECODE_CTA=1: decode attention by thread block with the constants fit
 * on these tables (README "Decode attention by thread block"; the A100 SXM
 * presets ship A100's, "Where the fit applies"): the form's t0 us and
 * eta_kv (decode_attn_cta_t0_s, eta_kv_cta), 16-bit / 8-bit / MHA block us,
 * ns a query head, the dot products' fraction of the FP16 peak. */
static const struct {
    const char *gpu;
    double t0, eta, cta, cta8, mha, head, rate;
} DECODE_FIT[] = {
    {"a100-80gb", 9.2, 0.89, 5.3, 5.3, 1.75, 50, 0.07},
    {"h100-sxm", 5.5, 0.86, 4.4, 0.95, 1.6, 32, 0.07},
    {"h200", 6.4, 0.85, 4.3, 0.82, 1.66, 35, 0.071},
    {"b200", 9.2, 0.92, 1.55, 1.27, 1.25, 33, 0.14},
};

static void vk_decode_fit(engine_gpu *g, const char *name)
{
    for (size_t i = 0; i < sizeof DECODE_FIT / sizeof DECODE_FIT[0]; i++) {
        if (strcmp(DECODE_FIT[i].gpu, name))
            continue;
        g->decode_attn_cta_t0_s = DECODE_FIT[i].t0 * 1e-6;
        g->eta_kv_cta = DECODE_FIT[i].eta;
        g->decode_attn_cta_s = DECODE_FIT[i].cta * 1e-6;
        g->decode_attn_cta_fp8_s = DECODE_FIT[i].cta8 * 1e-6;
        g->decode_attn_mha_s = DECODE_FIT[i].mha * 1e-6;
        g->decode_attn_head_s = DECODE_FIT[i].head * 1e-9;
        g->eta_attn_decode = DECODE_FIT[i].rate;
    }
}

/* VK_ATTN_CTA_US=x replaces every GPU's attn_cta_s; VK_FP8_BLOCK="eta,t0_us"
 * its eta_compute_fp8_block and gemm_t0_fp8_block_s; VK_GEMM="eta_c,eta_c_fp8,
 * eta_m,t0_us,t0_fp8_us" its dense GEMM constants (fitting aids);
 * VK_DECODE_CTA=1 the decode fit above. */
static const engine_gpu *vk_gpu(const engine_gpu *g, const char *name, engine_gpu *tmp)
{
    const char *v = getenv("VK_ATTN_CTA_US");
    const char *fb = getenv("VK_FP8_BLOCK");
    const char *ge = getenv("VK_GEMM");
    const char *dc = getenv("VK_DECODE_CTA");
    double eta, t0, e[5];
    if (!v && !fb && !ge && !(dc && dc[0] == '1'))
        return g;
    *tmp = *g;
    if (dc && dc[0] == '1')
        vk_decode_fit(tmp, name);
    if (ge && sscanf(ge, "%lf,%lf,%lf,%lf,%lf", &e[0], &e[1], &e[2], &e[3], &e[4]) == 5) {
        tmp->eta_compute = e[0];
        tmp->eta_compute_fp8 = e[1];
        tmp->eta_memory = e[2];
        tmp->gemm_t0_s = e[3] * 1e-6;
        tmp->gemm_t0_fp8_s = e[4] * 1e-6;
    }
    if (v)
        tmp->attn_cta_s = atof(v) * 1e-6;
    if (fb && sscanf(fb, "%lf,%lf", &eta, &t0) == 2) {
        tmp->eta_compute_fp8_block = eta;
        tmp->gemm_t0_fp8_block_s = t0 * 1e-6;
    }
    return tmp;
}

int main(int argc, char **argv)
{
    int by_m = argc == 3 && !strcmp(argv[2], "--by-m");
    moe_bands = argc == 3 && !strcmp(argv[2], "--moe-bands");
    by_len = argc == 3 && !strcmp(argv[2], "--attn-by-len");
    int pre_len = argc == 3 && !strcmp(argv[2], "--prefill-by-len");
    if (argc != 2 && !by_m && !moe_bands && !by_len && !pre_len) {
        fprintf(stderr, "usage: validate_kernels DATA_DIR [--by-m | --moe-bands | --attn-by-len | "
                        "--prefill-by-len]\n");
        return 2;
    }
    preset_db *db = NULL;
    engine_error err = {{0}};
    if (preset_db_load("", &db, &err) != 0) {
        fprintf(stderr, "validate_kernels: %s\n", err.msg);
        return 1;
    }
    printf("per-kernel model against measured kernel tables (%s)\n", argv[1]);
    printf("  %-22s %-10s %-22s %7s %10s %10s %8s\n", "table", "gpu", "kernel", "rows",
           "median APE", "p90 APE", "bias");
    for (size_t i = 0; i < sizeof AIC / sizeof AIC[0]; i++) {
        engine_gpu tmp;
        const engine_gpu *g = preset_find_gpu(db, AIC[i].gpu);
        if (!g)
            continue;
        g = vk_gpu(g, AIC[i].gpu, &tmp);
        if (by_m) {
            aic_gemm_by_m(argv[1], AIC[i].dir, g);
            continue;
        }
        if (moe_bands) {
            aic_moe(db, argv[1], AIC[i].dir, g);
            continue;
        }
        if (pre_len) {
            aic_prefill_by_len(argv[1], AIC[i].dir, g);
            continue;
        }
        aic_gemm(argv[1], AIC[i].dir, g);
        aic_attention(argv[1], AIC[i].dir, g);
        aic_nccl(argv[1], AIC[i].dir, preset_find_link(db, AIC[i].link));
        aic_moe(db, argv[1], AIC[i].dir, g);
    }
    if (by_m || moe_bands || pre_len) {
        preset_db_free(db);
        return 0;
    }
    const engine_gpu *mi = preset_find_gpu(db, "mi300x");
    if (mi)
        aiter_blockscale(argv[1], mi);
    const engine_gpu *a100 = preset_find_gpu(db, "a100-80gb"), *h100 = preset_find_gpu(db, "h100-sxm");
    if (a100)
        vidur(argv[1], "a100", a100);
    if (h100)
        vidur(argv[1], "h100", h100);
    printf("APE = |predicted / measured - 1|; bias = geometric mean of predicted / measured\n"
           "(> 1: the model is slower than the kernel).  The 8-GPU NCCL rows are the curves\n"
           "the link presets carry (in sample); the 2-4 GPU rows test their rescaling.\n");
    preset_db_free(db);
    return 0;
}
