/*
 * calibrate.c - `shardscope calibrate [--backend auto|cuda|cpu]
 * [--device N] [--quick] [--out FILE] [--json] [--no-comm] [--no-save]
 * [--model NAME] [--max-tp N] [--max-tokens N]` (--plan: calibrate_plan.c):
 * measure this machine (cuBLAS on a GPU, OpenBLAS on the CPU), fit the
 * seed's power law, the roofline and alpha-beta, print the figures (text
 * or JSON) and save the calibration where the engine finds it next time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <signal.h>
#include <unistd.h>

#include "calib.h"
#include "cli.h"
#include "cli_common.h"
#include "fmt.h"
#include "json.h"
#include "lookup.h"
#include "opts.h"
#include "table.h"

#define CMD "shardscope calibrate"

static const char *backend_name(int i)
{
    static const char *const NAMES[] = {"auto", "cuda", "cpu"}; /* calib_backend order */
    return i >= 0 && i < 3 ? NAMES[i] : "?";
}
static const cli_enum BACKENDS = {backend_name, 3};

static const cli_opt CALIBRATE_OPTS[] = {
    {.name = "--backend", .kind = CLI_OPT_ENUM, .off = CLI_AT(backend), .choices = &BACKENDS,
     .help = "cuda: cuBLAS, cpu: OpenBLAS, auto: cuda when a GPU\n"
             "is usable, else cpu (default auto)"},
    {.name = "--device", .kind = CLI_OPT_INT, .arg = "N", .off = CLI_AT(device), .min = 0,
     .max = 1023, .help = "CUDA device index (default 0)"},
    {.name = "--quick", .kind = CLI_OPT_FLAG, .off = CLI_AT(quick),
     .help = "smaller grid, fewer repeats"},
    {.name = "--out", .kind = CLI_OPT_STRING, .arg = "FILE", .off = CLI_AT(out),
     .help = "save there instead of\n$XDG_CONFIG_HOME/shardscope/calibration/<device>.json"},
    {.name = "--no-save", .kind = CLI_OPT_FLAG, .off = CLI_AT(no_save), .help = "do not save"},
    {.name = "--no-comm", .kind = CLI_OPT_FLAG, .off = CLI_AT(no_comm),
     .help = "skip the communication sweep"},
    {.name = "--json", .kind = CLI_OPT_FLAG, .off = CLI_AT(json),
     .help = "print the result as JSON (mape is a fraction: 0.05 = 5%)"},
    {.name = "--model", .kind = CLI_OPT_STRING, .arg = "NAME", .off = CLI_AT(model),
     .help = "the model whose GEMM shapes are measured\n(a preset or a config.json; default llama-3-8b)"},
    {.name = "--max-tp", .kind = CLI_OPT_INT, .arg = "N", .off = CLI_AT(max_tp), .min = 1,
     .max = 8, .help = "largest TP degree measured (default 8; CPU --quick 4)"},
    {.name = "--max-tokens", .kind = CLI_OPT_INT, .arg = "N", .off = CLI_AT(max_tokens),
     .min = 1, .max = 16384,
     .help = "most tokens of a model GEMM (default GPU 16384, --quick 4096;\nCPU 2048, --quick 256)"},
    {.name = "--plan", .kind = CLI_OPT_FLAG, .off = CLI_AT(plan),
     .help = "measure nothing: print each phase's kernels, warm-ups,\nrepeats and predicted time (text or --json)"},
    {.name = "--gpu", .kind = CLI_OPT_STRING, .arg = "G", .off = CLI_AT(gpu),
     .help = "--plan: the GPU preset to plan for (default: the device\nthe run would use; the CPU without a GPU)"},
    {.name = "--gpus", .kind = CLI_OPT_INT, .arg = "N", .off = CLI_AT(gpus), .min = 1, .max = 8,
     .help = "--plan: GPUs the NCCL sweeps run over (default: those\nvisible, else 1: the loopback)"},
    {.name = NULL},
};

const cli_options cli_calibrate_options = {
    .tables = {CALIBRATE_OPTS},
    .about = "Measure this machine and refit the compute model:\n"
             "  cuda   cuBLAS fp16 GEMMs of one transformer layer (hidden 768..8192, batch\n"
             "         1..8, sequence 512 and 2048), decode GEMMs (1..256 tokens), a\n"
             "         device-to-device copy; NCCL AllReduce and send/recv (GPU 0 -> 1),\n"
             "         AllGather and AllToAll with 2 or more GPUs\n"
             "  cpu    the same on a scaled-down grid with OpenBLAS sgemm (1 thread),\n"
             "         memcpy bandwidth; labelled CPU and never applied to a GPU type\n"
             "  auto   cuda when a GPU is usable, else cpu (said on stderr)\n"
             "Communication without two GPUs: ping-pong between 2 local processes.\n"
             "Fits: power law T = a*(h^2*b*s)^beta (log-space least squares), roofline\n"
             "T = max(F/(peak*eta_c), B/(bw*eta_m)) + overhead, alpha-beta for comm.\n"
             "Per kernel (what the engine uses): the --model's GEMMs (QKV, out, gate/up,\n"
             "down, MoE experts) at each TP degree and token count, a GEMV sweep, a copy,\n"
             "the attention proxy and launches (CPU: OpenBLAS, fp32; GPU: fp16, bf16 at\n"
             "every token count, grouped MoE too, on compute capability >= 8.0, and fp8\n"
             "through cublasLt on compute capability >= 8.9), fitted as\n"
             "max(F/(peak*eff*eta_shape) + W/pack_bw, B/bw) + t0 per GEMM with one MAPE\n"
             "(W/pack_bw: the CPU's BLAS packing its weights; fp8: its own efficiency;\n"
             "bf16: its own tables, not in the fit).\n"
             "--plan measures nothing: each phase's kernels, warm-ups, repeats and\n"
             "predicted time (the engine's kernel model of --gpu, default the device\n"
             "the run would use) against issue 12's budget (full < 60 s, --quick < 15 s).\n",
    .footer = "Exit status: 0 ok, 2 bad usage or no usable GPU for --backend cuda,\n"
              "1 a failure while measuring, 130 cancelled (Ctrl-C; nothing saved).\n",
};

#define PROGRESS_SEEN 64
typedef struct progress_state {
    int tty;
    int last;
    double t0;                     /* not a terminal: the run's start */
    char seen[PROGRESS_SEEN][48];  /* not a terminal: the phases printed */
    int n_seen;
} progress_state;

/* Not a terminal (a log, a pipe): one line per phase, the first time it is
 * reported ("calibrate: 3.2 s: cuda: model GEMMs TP2"), so that a log
 * shows where a long run is; the CPU's round-robin passes revisit phases
 * and print nothing new. */
static void progress_line(progress_state *p, const char *step)
{
    for (int i = 0; i < p->n_seen; i++)
        if (!strncmp(p->seen[i], step, sizeof p->seen[i] - 1))
            return;
    if (p->n_seen < PROGRESS_SEEN)
        snprintf(p->seen[p->n_seen++], sizeof p->seen[0], "%s", step);
    fprintf(stderr, CMD ": %.1f s: %s\n", calib_now_s() - p->t0, step);
    fflush(stderr);
}

static void on_progress(void *ctx, double f, const char *step)
{
    progress_state *p = ctx;
    int pct = (int)(f * 100.0 + 0.5);
    if (!p->tty) {
        if (step && step[0])
            progress_line(p, step);
        return;
    }
    if (pct == p->last)
        return;
    p->last = pct;
    fprintf(stderr, "\rcalibrating %3d%%  %-28.28s", pct, step ? step : "");
    fflush(stderr);
}

static const char *kind_label(calib_point_kind k)
{
    return k == CALIB_POINT_PREFILL ? "prefill" : k == CALIB_POINT_DECODE ? "decode" : "copy";
}

/* The device, date, roofs and best GEMM lines. */
static void print_device(const calib_result *r)
{
    printf("calibration: %s (%s backend, %s)\n", r->dev.name, r->dev.backend, r->dev.dtype);
    if (!strcmp(r->dev.backend, "cuda"))
        printf("device: GPU %d of %d, %d SMs, sm_%d%d, %.0f MHz, %.1f GB, driver %d, runtime %d\n",
               r->dev.index, r->dev.count, r->dev.sm_count, r->dev.cc_major, r->dev.cc_minor,
               r->dev.clock_khz / 1e3, r->dev.memory_bytes / 1e9, r->dev.driver_version,
               r->dev.runtime_version);
    else
        printf("device: this CPU, 1 thread (figures describe this machine, not a GPU)\n");
    printf("date: %s   preset: %s\n", r->date, r->preset[0] ? r->preset : "(none)");
    if (r->notes[0])
        printf("note: %s\n", r->notes);
    printf("roofs: %.4g TFLOP/s, %.4g GB/s  (%s)\n", r->roofline.peak_flops / 1e12,
           r->roofline.bandwidth / 1e9, r->peak_source);
    printf("best GEMM: %.4g TFLOP/s (%.1f%% of the roof); copy: %.4g GB/s\n\n",
           r->best_gemm_flops / 1e12,
           r->roofline.peak_flops > 0 ? 100.0 * r->best_gemm_flops / r->roofline.peak_flops : 0,
           r->copy_bandwidth / 1e9);
}

/* A time right-aligned in w columns ("µs" is two bytes, one column). */
static const char *time_col(double s, int w, char *buf, size_t len)
{
    char t[32];
    fmt_seconds(s, NULL, t, sizeof t);
    int pad = w - out_display_width(t);
    snprintf(buf, len, "%*s%s", pad > 0 ? pad : 0, "", t);
    return buf;
}

/* The table of measured points with both fits' predictions. */
static void print_points(const calib_result *r)
{
    char t1[48], t2[48], t3[48];
    printf("%-8s %6s %5s %5s %12s %10s %12s %12s\n", "kind", "hidden", "batch", "seq",
           "measured", "TFLOP/s", "power law", "roofline");
    for (int i = 0; i < r->n_points; i++) {
        const calib_point *p = &r->points[i];
        double x = (double)p->hidden * p->hidden * p->batch * p->seq;
        int copy = p->kind == CALIB_POINT_COPY;
        time_col(p->time_s, 12, t1, sizeof t1);
        if (r->has_power_law && !copy)
            time_col(calib_power_law_predict(&r->power_law, x), 12, t2, sizeof t2);
        else
            snprintf(t2, sizeof t2, "%*s", copy ? 9 : 12, "-");
        time_col(calib_roofline_predict(&r->roofline, p->flops, p->bytes), 12, t3, sizeof t3);
        if (copy)
            printf("%-8s %6s %5s %5s %s %7.1f GB/s %s %s\n", kind_label(p->kind), "-", "-", "-",
                   t1, p->bytes / p->time_s / 1e9, t2, t3);
        else
            printf("%-8s %6d %5d %5d %s %10.3f %s %s\n", kind_label(p->kind), p->hidden,
                   p->batch, p->seq, t1, p->flops / p->time_s / 1e12, t2, t3);
    }
    printf("\n");
}

/* The power-law and roofline fits. */
static void print_compute_fits(const calib_result *r)
{
    char t1[32];
    if (r->has_power_law)
        printf("power law: T = %.4g s * (h^2*b*s)^%.4f   MAPE %.1f%%, R^2 %.4f (%d prefill "
               "points; seed: beta 0.7232, 20.2%%)\n",
               r->power_law.a, r->power_law.beta, 100 * r->power_law.mape, r->power_law.r2,
               r->power_law.n);
    else
        printf("power law: not fitted: %s\n", r->power_law_error);
    fmt_seconds(r->roofline.overhead_s, NULL, t1, sizeof t1);
    printf("roofline:  eta_compute %.3f, eta_memory %.3f%s, overhead %s per layer   "
           "MAPE %.1f%% (prefill %.1f%%), R^2 %.4f (%d points, %d compute-bound)\n",
           r->roofline.eta_compute, r->roofline.eta_memory,
           r->roofline.eta_memory_bound_only ? " (lower bound)" : "", t1,
           100 * r->roofline.mape, 100 * r->roofline_mape_prefill, r->roofline.r2,
           r->roofline.n, r->roofline.n_compute_bound);
    printf("           form: compute + memory + overhead (the engine's), fitted to minimise "
           "the MAPE");
    if (r->has_roofline_max)
        printf("; max(compute, memory) would give MAPE %.1f%%", 100 * r->roofline_max.mape);
    printf("\n");
    if (r->roofline_note[0])
        printf("           note: %s\n", r->roofline_note);
}

/* The collective and point-to-point fits, or why there are none. */
static void print_comm_fits(const calib_result *r)
{
    char t1[32];
    if (r->has_comm_fit) {
        fmt_seconds(r->comm_fit.alpha_s, NULL, t1, sizeof t1);
        printf("comm:      %s: alpha %s, bandwidth %.3g GB/s, R^2 %.4f (%d sizes)\n",
               r->comm_label, t1, r->comm_fit.bandwidth / 1e9, r->comm_fit.r2, r->comm_fit.n);
    } else if (r->comm_error[0]) {
        printf("comm:      not measured: %s\n", r->comm_error);
    }
    if (r->has_p2p_fit) {
        fmt_seconds(r->p2p_fit.alpha_s, NULL, t1, sizeof t1);
        printf("p2p:       %s: alpha %s, bandwidth %.3g GB/s (algbw = busbw), R^2 %.4f "
               "(%d sizes)\n",
               r->p2p_label, t1, r->p2p_fit.bandwidth / 1e9, r->p2p_fit.r2, r->p2p_fit.n);
    } else if (r->p2p_error[0] && r->p2p_label[0]) {
        printf("p2p:       %s: not fitted: %s\n", r->p2p_label, r->p2p_error);
    } else if (r->p2p_error[0]) {
        printf("p2p:       not measured: %s\n", r->p2p_error);
    }
    const calib_comm_point *cs[2] = {r->allgather, r->alltoall};
    int ns[2] = {r->n_allgather, r->n_alltoall};
    for (int w = 0; w < 2; w++) {
        if (ns[w] == 0)
            continue;
        const calib_comm_point *last = &cs[w][ns[w] - 1];
        char b0[32], b1[32];
        fmt_bytes_iec(cs[w][0].bytes, b0, sizeof b0);
        fmt_bytes_iec(last->bytes, b1, sizeof b1);
        printf("%-10s NCCL (%d GPUs): %d sizes %s .. %s, busbw %.3g GB/s at %s (algbw x "
               "(n-1)/n)\n",
               w ? "all-to-all:" : "all-gather:", r->coll_gpus, ns[w], b0, b1,
               last->bytes / last->time_s * engine_busbw_factor(w ? ENGINE_OP_ALLTOALL
                                                                  : ENGINE_OP_ALLGATHER,
                                                                r->coll_gpus) / 1e9,
               b1);
    }
    if (r->coll_note[0])
        printf("           note: %s\n", r->coll_note);
}

/* The per-kernel points (model GEMMs summarised per TP degree), the
 * fitted constants and each class's error. */
/* The point of each fitted class the fit misses most (the residuals that
 * dominate per_kernel.mape). */
static void print_worst(const calib_result *r)
{
    const char *sep = "";
    printf("                worst:");
    for (int c = 0; c < CALIB_K_COUNT; c++) {
        double e = 0;
        int i = c == CALIB_K_COPY ? -1
                                  : calib_per_kernel_worst(&r->per_kernel, r->kpoints,
                                                           r->n_kpoints, (calib_kclass)c, &e);
        if (i < 0 || r->per_kernel.class_n[c] == 0)
            continue;
        const calib_kpoint *p = &r->kpoints[i];
        printf("%s %s %s", sep, calib_kclass_name((calib_kclass)c), p->op);
        if (c != CALIB_K_LAUNCH && c != CALIB_K_GRAPH)
            printf(" TP%d %dx%dx%d", p->tp, p->m, p->n, p->k);
        if (c != CALIB_K_LAUNCH && c != CALIB_K_GRAPH && p->batch > 1)
            printf(" x%d", p->batch);
        printf(" %+.1f%%", 100 * e);
        sep = ";";
    }
    printf("\n");
}

static void print_kernels(const calib_result *r)
{
    if (r->n_kpoints == 0)
        return;
    char t1[48], t2[48];
    printf("\nper kernel: %s, model %s, %d points (planned ~%.1f s)\n", r->library,
           r->model, r->n_kpoints, r->planned_s);
    printf("%-14s %-5s %3s %6s %6s %6s %5s %12s %12s %10s\n", "class", "dtype", "tp", "m",
           "n", "k", "batch", "measured", "model", "TFLOP/s");
    for (int i = 0; i < r->n_kpoints; i++) {
        const calib_kpoint *p = &r->kpoints[i];
        time_col(p->time_s, 12, t1, sizeof t1);
        time_col(r->has_per_kernel ? calib_per_kernel_predict(&r->per_kernel, p) : 0, 12, t2,
                 sizeof t2);
        printf("%-14s %-5s %3d %6d %6d %6d %5d %s %s %10.3f\n", p->op, p->dtype, p->tp, p->m,
               p->n, p->k, p->batch, t1, t2, p->flops / p->time_s / 1e12);
    }
    if (!r->has_per_kernel) {
        printf("per-kernel fit: not fitted: %s\n", r->kernel_note);
        return;
    }
    const calib_per_kernel *pk = &r->per_kernel;
    char t0[32], sk[32], la[32];
    fmt_seconds(pk->t0_s, NULL, t0, sizeof t0);
    fmt_seconds(pk->small_kernel_s, NULL, sk, sizeof sk);
    fmt_seconds(pk->launch_s, NULL, la, sizeof la);
    printf("per-kernel fit: gemm_efficiency %.3f of %.4g TFLOP/s, bw %.4g GB/s, t0 %s, "
           "small kernel %s, launch %s   MAPE %.1f%% (%d points)\n",
           pk->gemm_efficiency, pk->peak_flops / 1e12, pk->bw_bytes_per_s / 1e9, t0, sk, la,
           100 * pk->mape, pk->points);
    printf("                ");
    for (int c = 0; c < CALIB_K_COUNT; c++)
        if (pk->class_n[c] > 0)
            printf("%s %.1f%% (%d)  ", calib_kclass_name((calib_kclass)c),
                   100 * pk->class_mape[c], pk->class_n[c]);
    printf("\n");
    print_worst(r);
    if (r->kernel_note[0])
        printf("                note: %s\n", r->kernel_note);
}

/* "phases: layer grid 2.1 s, model GEMMs 5.0 s, ..." - the phases that ran. */
static void print_phases(const calib_result *r)
{
    if (!r->has_phases)
        return;
    const calib_phase_times *p = &r->phases;
    const struct {
        const char *name;
        double s;
    } P[] = {{"layer grid", p->layer_grid_s},   {"model GEMMs", p->gemm_s},
             {"fp8 GEMMs", p->gemm_fp8_s},      {"grouped MoE", p->grouped_s},
             {"GEMV", p->gemv_s},               {"copy", p->copy_s},
             {"attention", p->attention_s},     {"launch", p->launch_s},
             {"collectives", p->collectives_s}, {"fit", p->fit_s}};
    printf("phases:");
    const char *sep = " ";
    for (size_t i = 0; i < sizeof P / sizeof P[0]; i++)
        if (P[i].s > 0) {
            printf("%s%s %.2f s", sep, P[i].name, P[i].s);
            sep = ", ";
        }
    printf("\n");
}

static void print_text(const calib_result *r, const char *saved)
{
    print_device(r);
    print_points(r);
    print_compute_fits(r);
    print_comm_fits(r);
    print_kernels(r);
    printf("wall time: %.1f s\n", r->wall_s);
    print_phases(r);
    if (saved)
        printf("saved: %s%s\n", saved,
               strcmp(r->dev.backend, "cpu") ? "" : " (CPU: used only when named explicitly)");
}

/* The measurement's options from the parsed flags and the GPU presets. */
static void calib_opts_from(const cli_opts *opts, const preset_db *db, calib_opts *o)
{
    calib_opts_defaults(o);
    if (CLI_SEEN(opts, backend))
        o->backend = (calib_backend)opts->v.backend;
    if (CLI_SEEN(opts, device))
        o->device = opts->v.device;
    o->quick = o->quick || opts->v.quick;
    o->skip_comm = o->skip_comm || opts->v.no_comm;
    o->max_tp = CLI_SEEN(opts, max_tp) ? opts->v.max_tp : 0;
    o->max_tokens = CLI_SEEN(opts, max_tokens) ? opts->v.max_tokens : 0;
    if (db) {
        o->gpus = db->gpus;
        o->n_gpus = db->n_gpus;
    }
}

/* Save to --out FILE or the default place; saved gets the path ("" when
 * not saved).  0, or 1 after printing why it was not saved. */
static int save_result(const calib_result *r, const char *out_path, char *saved, size_t len)
{
    engine_error err = {{0}};
    int src;
    if (out_path) {
        snprintf(saved, len, "%s", out_path);
        src = calib_store_save(r, out_path, CALIB_STORE_NORMAL, &err);
    } else {
        src = calib_store_save_default(r, saved, len, &err);
    }
    if (src == 0)
        return 0;
    fprintf(stderr, CMD ": not saved: %s\n", err.msg);
    saved[0] = '\0';
    return 1;
}

/* --backend auto without a usable GPU: the CPU, said on stderr and in note. */
static void auto_backend(calib_opts *o, char *note, size_t len)
{
    if (o->backend != CALIB_BACKEND_AUTO)
        return;
    int count = 0;
    engine_error perr = {{0}};
    if (calib_cuda_probe(NULL, &count, &perr) != 0 || o->device >= count) {
        if (perr.msg[0] == '\0')
            snprintf(perr.msg, sizeof perr.msg, "no CUDA device %d (%d visible)", o->device,
                     count);
        fprintf(stderr, CMD ": auto: %s; using the CPU backend\n", perr.msg);
        snprintf(note, len, "auto: %.300s; measured the CPU instead", perr.msg);
        o->backend = CALIB_BACKEND_CPU;
    }
}

/* Ctrl-C: the first cancels the calibration (nothing is saved, exit 130). */
static atomic_int g_cancel;

static void on_sigint(int sig)
{
    (void)sig;
    atomic_store(&g_cancel, 1);
}

/* --model (default llama-3-8b) into o->model (storage: a config.json's).
 * 0, or 2 after printing the error. */
static int find_model(const cli_opts *opts, const preset_db *db, engine_model *storage,
                      calib_opts *o)
{
    engine_error merr = {{0}};
    const char *mname = opts->v.model ? opts->v.model : "llama-3-8b";
    o->model = db ? cli_find_model(db, "--model", mname, storage, NULL, &merr) : NULL;
    if (db && !o->model) {
        fprintf(stderr, CMD ": %s\n", merr.msg);
        return 2;
    }
    return 0;
}

/* A run that did not measure (rc not CALIB_OK): why, said; r freed; the
 * exit status. */
static int run_failed(calib_status rc, calib_result *r, const engine_error *err)
{
    calib_result_free(r);
    if (rc == CALIB_CANCELLED) {
        fprintf(stderr, CMD ": cancelled; the previous calibration is kept\n");
        return 130;
    }
    if (rc == CALIB_NO_GPU) {
        fprintf(stderr, CMD ": --backend cuda: %s\n", err->msg);
        return 2;
    }
    fprintf(stderr, CMD ": %s\n", err->msg);
    return 1;
}

/* The measured r (note: --backend auto's, "" if none) saved and printed,
 * text or --json; r freed; the exit status. */
static int report_result(const cli_opts *opts, calib_result *r, const char *note)
{
    if (note[0] && !r->notes[0]) {
        /* keep what fits; the note is a sentence, a cut one still reads */
        size_t n = strnlen(note, sizeof r->notes - 1);
        memcpy(r->notes, note, n);
        r->notes[n] = '\0';
    }
    else if (!note[0] && r->notes[0])
        fprintf(stderr, CMD ": %s\n", r->notes); /* the GPU failed after the probe */

    char saved[4200] = "";
    int status = opts->v.no_save ? 0 : save_result(r, opts->v.out, saved, sizeof saved);
    if (opts->v.json) {
        /* The calibration file's JSON, stamped with the output schema. */
        char *text = calib_result_to_json(r);
        cJSON *root = text ? cJSON_Parse(text) : NULL;
        free(text);
        if (cli_json_print("calibrate", stdout, root)) {
            calib_result_free(r);
            return 1;
        }
        if (saved[0])
            fprintf(stderr, CMD ": saved %s\n", saved);
    } else {
        print_text(r, saved[0] ? saved : NULL);
    }
    calib_result_free(r);
    return status;
}

int cli_calibrate_run(const cli_opts *opts, const preset_db *db)
{
    calib_opts o;
    calib_opts_from(opts, db, &o);
    engine_model model_storage;
    if (find_model(opts, db, &model_storage, &o) != 0)
        return 2;
    if (opts->v.plan)
        return cli_calibrate_plan(opts, db, &o);
    if (opts->v.gpu || CLI_SEEN(opts, gpus)) {
        fprintf(stderr, CMD ": %s: only with --plan (a run measures this machine)\n",
                opts->v.gpu ? "--gpu" : "--gpus");
        return 2;
    }
    atomic_store(&g_cancel, 0);
    struct sigaction sa, old_sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_sa);
    o.cancel = &g_cancel;
    double wall0 = calib_now_s();
    char note[ENGINE_ERROR_MAX + 64] = "";
    auto_backend(&o, note, sizeof note);
    progress_state ps;
    memset(&ps, 0, sizeof ps);
    ps.tty = isatty(STDERR_FILENO);
    ps.last = -1;
    ps.t0 = wall0;
    o.progress = on_progress;
    o.progress_ctx = &ps;

    calib_result r;
    engine_error err = {{0}};
    calib_status rc = calib_run(&o, &r, &err);
    sigaction(SIGINT, &old_sa, NULL);
    r.wall_s = calib_now_s() - wall0;
    if (ps.tty && ps.last >= 0)
        fprintf(stderr, "\r%50s\r", "");
    if (rc != CALIB_OK)
        return run_failed(rc, &r, &err);
    return report_result(opts, &r, note);
}
