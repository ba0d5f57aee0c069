/*
 * bench.c - keystroke-to-screen time, bytes per slider step and bytes
 * per 30-key burst (a held key) of the explorer, measured in-process (see
 * explorer_bench.h).
 */
#include "explorer_bench.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calib.h"
#include "explorer.h"
#include "explorer_calib.h"
#include "explorer_int.h"
#include "term.h"

#define MAX_STEPS 512

static long out_bytes(FILE *f)
{
    struct stat st;
    fflush(f);
    if (fstat(fileno(f), &st) != 0)
        return 0;
    return (long)st.st_size;
}

static double pct(double *v, int n, double q)
{
    if (n <= 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, engine_cmp_double);
    int k = (int)(q * (n - 1) + 0.5);
    return v[k];
}

typedef struct step {
    int key;
    int slider; /* 1: a slider step (counted for bytes per step) */
} step;

static int script(step *s, int cap)
{
    int n = 0;
#define ADD(k, sl, times)                                                      \
    for (int i_ = 0; i_ < (times) && n < cap; i_++) {                          \
        s[n].key = (k);                                                        \
        s[n].slider = (sl);                                                    \
        n++;                                                                   \
    }
    /* GPU count (selected at start): fine steps, then powers of two. */
    ADD(KEY_RIGHT, 1, 24) ADD(KEY_LEFT, 1, 24) ADD('+', 1, 7) ADD('-', 1, 7)
    /* Batch, prompt, generated tokens, VRAM. */
    ADD(KEY_DOWN, 0, 3) ADD('+', 1, 6) ADD('-', 1, 6)
    ADD(KEY_DOWN, 0, 1) ADD(KEY_RIGHT, 1, 8) ADD(KEY_LEFT, 1, 8)
    ADD(KEY_DOWN, 0, 1) ADD(KEY_RIGHT, 1, 8) ADD(KEY_LEFT, 1, 8)
    ADD(KEY_UP, 0, 3) ADD(KEY_LEFT, 1, 10) ADD(KEY_RIGHT, 1, 10)
    /* Interconnect and weight dtype. */
    ADD(KEY_UP, 0, 4) ADD(KEY_RIGHT, 1, 3) ADD(KEY_LEFT, 1, 3)
    ADD(KEY_DOWN, 0, 8) ADD(KEY_RIGHT, 1, 2) ADD(KEY_LEFT, 1, 2)
    /* Panes and the plan list. */
    ADD('\t', 0, 1) ADD(KEY_DOWN, 0, 6) ADD(KEY_UP, 0, 6) ADD('\t', 0, 5)
#undef ADD
    return n;
}

/* The figures of one run. */
typedef struct bench_run {
    double first_s;
    long first_b;
    int n, n_sl;
    double lat[MAX_STEPS], lat_sl[MAX_STEPS], bytes_sl[MAX_STEPS];
    double bytes_total, bmax;
} bench_run;

/* The scripted keys, each timed from dispatch to the end of doupdate(). */
static void run_script(explorer *x, FILE *out, FILE *report, bench_run *b)
{
    step steps[MAX_STEPS];
    b->n = script(steps, MAX_STEPS);
    for (int i = 0; i < b->n; i++) {
        long b0 = out_bytes(out);
        double a = calib_now_s();
        explorer_key(x, steps[i].key);
        explorer_frame(x);
        double dt = calib_now_s() - a;
        long db_ = out_bytes(out) - b0;
        b->lat[i] = dt;
        if (getenv("SHARDSCOPE_BENCH_VERBOSE"))
            fprintf(report, "  key %4d ctl %2d: %6ld bytes %.2f ms\n", steps[i].key, x->ctl.sel,
                    db_, dt * 1e3);
        if (steps[i].slider) {
            b->lat_sl[b->n_sl] = dt;
            b->bytes_sl[b->n_sl++] = (double)db_;
            b->bytes_total += (double)db_;
            if (db_ > b->bmax)
                b->bmax = (double)db_;
        }
    }
}

/* A held key: 30 Right keys (GPU-count steps) with the plans focused,
 * drawn one frame per key (as the loop did before it drained its input)
 * and typed at once into the terminal, through explorer_step. */
typedef struct burst_run {
    long per_key_b, coalesced_b, coalesced_frames;
} burst_run;

static void send_keys(int fd, const char *cap, int times)
{
    char name[16];
    snprintf(name, sizeof name, "%s", cap);
    const char *k = tigetstr(name);
    if (!k || k == (char *)-1)
        return;
    for (int i = 0; i < times; i++)
        if (write(fd, k, strlen(k)) < 0)
            return;
}

static void run_burst(explorer *x, FILE *out, int keys_fd, burst_run *b)
{
    exp_focus_pane(x, PANE_STRATEGIES);
    explorer_frame(x);
    long b0 = out_bytes(out);
    for (int i = 0; i < 30; i++) {
        explorer_key(x, KEY_RIGHT);
        explorer_frame(x);
    }
    b->per_key_b = out_bytes(out) - b0;
    send_keys(keys_fd, "kcub1", 30); /* back, not counted */
    explorer_step(x, 1000);
    b0 = out_bytes(out);
    long f0 = x->scr.frames;
    send_keys(keys_fd, "kcuf1", 30);
    explorer_step(x, 1000);
    b->coalesced_b = out_bytes(out) - b0;
    b->coalesced_frames = x->scr.frames - f0;
}

static void print_run(FILE *report, int rows, int cols, const char *term, bench_run *b)
{
    fprintf(report, "explorer bench: %dx%d, TERM=%s, %d keys (%d slider steps)\n", cols, rows,
            term, b->n, b->n_sl);
    fprintf(report, "  first frame:            %.2f ms, %ld bytes\n", b->first_s * 1e3,
            b->first_b);
    double p50 = pct(b->lat, b->n, 0.50), p99 = pct(b->lat, b->n, 0.99);
    double mx = pct(b->lat, b->n, 1.0);
    fprintf(report,
            "  keystroke-to-screen:    p50 %.2f ms  p99 %.2f ms  max %.2f ms (target p99 < 16 ms)\n",
            p50 * 1e3, p99 * 1e3, mx * 1e3);
    fprintf(report, "  slider step to screen:  p50 %.2f ms  p99 %.2f ms\n",
            pct(b->lat_sl, b->n_sl, 0.5) * 1e3, pct(b->lat_sl, b->n_sl, 0.99) * 1e3);
    double mean = b->n_sl ? b->bytes_total / b->n_sl : 0;
    fprintf(report,
            "  bytes per slider step:  mean %.0f  p50 %.0f  p99 %.0f  max %.0f (target < 2048)\n",
            mean, pct(b->bytes_sl, b->n_sl, 0.5), pct(b->bytes_sl, b->n_sl, 0.99), b->bmax);
}

int explorer_bench(const preset_db *db, int rows, int cols, const char *term, FILE *report)
{
    FILE *out = tmpfile();
    int keys[2] = {-1, -1};
    FILE *in = pipe(keys) == 0 ? fdopen(keys[0], "r") : NULL;
    term_opts o;
    term_opts_defaults(&o);
    o.in = in;
    o.out = out;
    o.term = term ? term : "xterm-256color";
    o.mouse = 0;
    o.rows = rows;
    o.cols = cols;
    term_caps caps;
    engine_error err = {"cannot open a temporary file"};
    explorer *x = NULL;
    explorer_opts eo;
    explorer_opts_defaults(&eo);
    int opened = out && in && term_open(&o, &caps, err.msg, sizeof err.msg) == 0;
    if (!opened || explorer_new(db, &eo, &caps, &x, &err) != 0) {
        if (opened)
            term_close();
        fprintf(report, "bench: %s\n", err.msg);
        if (out)
            fclose(out);
        if (in)
            fclose(in);
        if (keys[1] >= 0)
            close(keys[1]);
        return 1;
    }
    explorer_set_calib_ops(x, explorer_calib_hook()); /* as tui.c does */
    bench_run *b = calloc(1, sizeof *b);
    if (b) {
        double t0 = calib_now_s();
        explorer_frame(x);
        b->first_s = calib_now_s() - t0;
        b->first_b = out_bytes(out);
        run_script(x, out, report, b);
    }
    burst_run burst = {0, 0, 0};
    if (b)
        run_burst(x, out, keys[1], &burst);
    explorer_free(x);
    term_close();
    fclose(out);
    fclose(in);
    close(keys[1]);
    if (!b) {
        fprintf(report, "bench: out of memory\n");
        return 1;
    }
    print_run(report, rows, cols, o.term, b);
    fprintf(report,
            "  30-key burst (Right x30, plans focused): %ld bytes one frame per key, "
            "%ld bytes coalesced (%ld frame%s; target < 8192)\n",
            burst.per_key_b, burst.coalesced_b, burst.coalesced_frames,
            burst.coalesced_frames == 1 ? "" : "s");
    free(b);
    return 0;
}

static void count_cells(const explorer *x, explorer_bench_update_result *out)
{
    const exp_results *r = &x->r;
    int links = x->ctl.s[CTL_INTRA].max + 1;
    out->cells[EXPLORER_BENCH_RANK] = r->n_plans;
    /* TP per link x count, then TP, PP and each hybrid split per count */
    long eff = (long)links * EXP_EFF_COUNTS;
    for (int c = 0; c < EXP_CMP_COUNTS; c++) {
        int n = r->cmp_counts[c], hy = 0;
        for (int tp = 2; tp <= n / 2; tp *= 2)
            hy++;
        eff += 2 + hy;
    }
    out->cells[EXPLORER_BENCH_EFF] = eff;
    out->cells[EXPLORER_BENCH_HEAT] = (long)r->heat_rows * r->heat_cols;
    out->cells[EXPLORER_BENCH_FRONT] = EXP_FRONT_COUNTS + EXP_MEM_SIZES;
    long tails = 0;
    for (int i = 0; i < r->n_plans; i++)
        tails += r->tails_done[i];
    out->cells[EXPLORER_BENCH_TAILS] = tails;
    out->cells[EXPLORER_BENCH_PARETO] = r->n_pareto;
    out->cells[EXPLORER_BENCH_LOAD] = r->load_ok ? r->load.requests : 0;
}

int explorer_bench_update(const preset_db *db, int rows, int cols, int repeats,
                          explorer_bench_update_result *out, engine_error *err)
{
    memset(out, 0, sizeof *out);
    term_caps caps;
    memset(&caps, 0, sizeof caps);
    explorer_opts eo;
    explorer_opts_defaults(&eo);
    explorer *x = NULL;
    if (explorer_new(db, &eo, &caps, &x, err) != 0)
        return 1;
    double *t = calloc((size_t)repeats * (EXPLORER_BENCH_PARTS + 2), sizeof *t);
    if (!t) {
        explorer_free(x);
        engine_errorf(err, "out of memory");
        return 1;
    }
    layout_compute(rows, cols, x->view.tab, &x->scr.lay);
    /* The Pareto view is computed only while on screen: time it as if it
     * were, so the frame figure is the worst case. */
    x->view.front_view = 1;
    exp_update(x); /* warm-up: sizes the tables, touches the caches */
    for (int i = 0; i < repeats; i++) {
        exp_invalidate(x);
        double sum = 0, later = 0;
        exp_update_scenario(x);
        for (int p = 0; p < EXPLORER_BENCH_PARTS; p++) {
            double a = calib_now_s();
            exp_update_part(x, (exp_part)p);
            double dt = calib_now_s() - a;
            t[(size_t)p * repeats + i] = dt;
            if (exp_part_deferred((exp_part)p))
                later += dt;
            else
                sum += dt;
        }
        t[(size_t)EXPLORER_BENCH_PARTS * repeats + i] = sum;
        t[(size_t)(EXPLORER_BENCH_PARTS + 1) * repeats + i] = later;
    }
    count_cells(x, out);
    for (int p = 0; p < EXPLORER_BENCH_PARTS; p++)
        out->part_s[p] = pct(t + (size_t)p * repeats, repeats, 0.5);
    out->frame_s = pct(t + (size_t)EXPLORER_BENCH_PARTS * repeats, repeats, 0.5);
    out->deferred_s = pct(t + (size_t)(EXPLORER_BENCH_PARTS + 1) * repeats, repeats, 0.5);
    out->model = exp_model(x)->name;
    out->gpu = exp_gpu(x)->name;
    out->link = exp_link(x, CTL_INTRA)->name;
    out->gpus = x->r.sc.gpus;
    out->mc_samples = x->r.sc.mc_samples;
    free(t);
    explorer_free(x);
    return 0;
}
