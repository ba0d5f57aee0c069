/*
 * result_json.c - a calibration result to and from JSON (cJSON), through
 * ONE key table: each entry names a JSON key, its kind and where the value
 * lives in the calib_result (or in a point), and both directions walk the
 * same table (cJSON's paired parse/print style), so a field written is a
 * field read back.  Reading checks what the engine relies on - backend,
 * device, date, preset and the roofline's eta_compute, eta_memory and
 * overhead_s - and every integer field (a whole number in [0, INT_MAX],
 * never a float cast unchecked) with a sentence naming the file and the
 * field; everything else is taken as found (a missing or odd value reads
 * as 0 / "").
 */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "calib.h"

#define CALIB_STR_(x) #x
#define CALIB_STR(x) CALIB_STR_(x)
#include "internal.h"

/* --- the key table -------------------------------------------------------- */

typedef enum jkind {
    J_NUM,     /* double */
    J_INT,     /* int */
    J_BOOL,    /* int 0/1 as true/false */
    J_STR,     /* char[len] */
    J_OBJ,     /* a nested object of the same record: sub */
    J_POINTS,  /* calib_result's points: an array of POINT_FIELDS */
    J_COMM,    /* a comm series and its fit: comm (off = 0) or p2p (off = 1) */
    J_CC,      /* compute capability "major.minor" (cc_major, cc_minor) */
    J_FORM,    /* calib_roofline_form as its description */
    J_KIND,    /* calib_point_kind as "prefill" / "decode" / "copy" */
    J_CONST,   /* written as cnum (or cstr when set); not read */
    J_DERIVED, /* written from derive(); not read */
    J_KPOINTS, /* calib_result's kernel points (schema 2) */
    J_CLASSES, /* per_kernel's class_mape / class_n by class name */
    J_COLL     /* the collectives' busbw(size) tables (all-gather, all-to-all read back) */
} jkind;

enum {
    J_OPT = 1,      /* written only when set: a non-empty string, a number > 0 */
    J_REQ = 2,      /* reading: must be present (and valid: range, string) */
    J_CHECK = 4,    /* reading: when present, must be valid */
    J_NULL = 8      /* J_OBJ with a has-flag: written as null when it is 0 */
};

typedef struct jfield jfield;
struct jfield {
    const char *key;
    jkind kind;
    size_t off;          /* in the record */
    size_t len;          /* J_STR: the buffer */
    int flags;
    const jfield *sub;   /* J_OBJ */
    ptrdiff_t has;       /* J_OBJ: offset of its int has-flag in calib_result, or -1 */
    double lo, hi;       /* J_REQ numbers: the accepted range */
    double cnum;         /* J_CONST */
    const char *cstr;    /* J_CONST */
    /* J_DERIVED: 1 and *v when written, 0 to leave the key out. */
    int (*derive)(const calib_result *r, const void *rec, double *v);
};

#define R(m) offsetof(calib_result, m)
#define NUM(k, m) {k, J_NUM, R(m), 0, 0, NULL, -1, 0, 0, 0, NULL, NULL}
#define INT(k, m) {k, J_INT, R(m), 0, 0, NULL, -1, 0, 0, 0, NULL, NULL}
#define BOOL(k, m) {k, J_BOOL, R(m), 0, 0, NULL, -1, 0, 0, 0, NULL, NULL}
#define STR(k, m, fl) {k, J_STR, R(m), sizeof(((calib_result *)0)->m), fl, NULL, -1, 0, 0, 0, NULL, NULL}
#define OPTNUM(k, m) {k, J_NUM, R(m), 0, J_OPT, NULL, -1, 0, 0, 0, NULL, NULL}
#define REQNUM(k, m, l, h) {k, J_NUM, R(m), 0, J_REQ, NULL, -1, l, h, 0, NULL, NULL}
#define OBJ(k, sub, has, fl) {k, J_OBJ, 0, 0, fl, sub, has, 0, 0, 0, NULL, NULL}
#define CONSTN(k, v) {k, J_CONST, 0, 0, 0, NULL, -1, 0, 0, v, NULL, NULL}
#define CONSTS(k, s) {k, J_CONST, 0, 0, 0, NULL, -1, 0, 0, 0, s, NULL}
#define DERIVED(k, fn) {k, J_DERIVED, 0, 0, 0, NULL, -1, 0, 0, 0, NULL, fn}
#define SPECIAL(k, kind, m) {k, kind, m, 0, 0, NULL, -1, 0, 0, 0, NULL, NULL}
#define END {NULL, J_NUM, 0, 0, 0, NULL, -1, 0, 0, 0, NULL, NULL}

static int derive_roofline_s(const calib_result *r, const void *rec, double *v)
{
    const calib_point *p = rec;
    *v = calib_roofline_predict(&r->roofline, p->flops, p->bytes);
    return r->roofline.eta_compute > 0;
}

static int derive_power_law_s(const calib_result *r, const void *rec, double *v)
{
    const calib_point *p = rec;
    *v = calib_power_law_predict(&r->power_law, calib_point_x(p));
    return r->has_power_law && p->kind != CALIB_POINT_COPY;
}

/* Every point is one layer of 4 GEMMs: a per-GEMM launch cost is a
 * quarter of the per-layer overhead (the same fit). */
static int derive_overhead_per_gemm(const calib_result *r, const void *rec, double *v)
{
    (void)rec;
    *v = r->roofline.overhead_s / 4;
    return 1;
}

#define P(m) offsetof(calib_point, m)
static const jfield POINT_FIELDS[] = {
    SPECIAL("kind", J_KIND, P(kind)),
    {"hidden", J_INT, P(hidden), 0, 0, NULL, -1, 0, 0, 0, NULL, NULL},
    {"batch", J_INT, P(batch), 0, 0, NULL, -1, 0, 0, 0, NULL, NULL},
    {"seq", J_INT, P(seq), 0, 0, NULL, -1, 0, 0, 0, NULL, NULL},
    {"flops", J_NUM, P(flops), 0, 0, NULL, -1, 0, 0, 0, NULL, NULL},
    {"bytes", J_NUM, P(bytes), 0, 0, NULL, -1, 0, 0, 0, NULL, NULL},
    {"time_s", J_NUM, P(time_s), 0, 0, NULL, -1, 0, 0, 0, NULL, NULL},
    DERIVED("roofline_s", derive_roofline_s),
    DERIVED("power_law_s", derive_power_law_s),
    END};

/* An alpha-beta fit, offsets in calib_alpha_beta. */
#define AB(k, m) {k, J_NUM, offsetof(calib_alpha_beta, m), 0, 0, NULL, -1, 0, 0, 0, NULL, NULL}
static const jfield AB_FIELDS[] = {AB("alpha_s", alpha_s),
                                   AB("bandwidth_bytes_per_s", bandwidth), AB("r2", r2),
                                   AB("mape", mape), END};

static const jfield DEVICE_FIELDS[] = {
    INT("index", dev.index),
    INT("count", dev.count),
    INT("sm_count", dev.sm_count),
    SPECIAL("compute_capability", J_CC, R(dev)),
    INT("clock_khz", dev.clock_khz),
    INT("memory_clock_khz", dev.mem_clock_khz),
    INT("bus_width_bits", dev.bus_width_bits),
    INT("driver_version", dev.driver_version),
    INT("runtime_version", dev.runtime_version),
    NUM("memory_bytes", dev.memory_bytes),
    STR("dtype", dev.dtype, 0),
    END};

static const jfield POWER_LAW_FIELDS[] = {
    NUM("a", power_law.a),       NUM("beta", power_law.beta), NUM("mape", power_law.mape),
    NUM("r2", power_law.r2),     INT("n", power_law.n),
    NUM("mape_with_decode", power_law_mape_all), END};

/* Efficiencies above 1 mean the roof was wrong; a little slack covers
 * boost clocks above the datasheet figure. */
static const jfield ROOFLINE_FIELDS[] = {
    REQNUM("eta_compute", roofline.eta_compute, 1e-6, 2.0),
    REQNUM("eta_memory", roofline.eta_memory, 1e-6, 2.0),
    REQNUM("overhead_s", roofline.overhead_s, 0.0, 1.0),
    NUM("mape", roofline.mape),
    NUM("r2", roofline.r2),
    INT("n", roofline.n),
    INT("n_compute_bound", roofline.n_compute_bound),
    NUM("mape_prefill", roofline_mape_prefill),
    NUM("peak_flops", roofline.peak_flops),
    NUM("bandwidth_bytes_per_s", roofline.bandwidth),
    BOOL("eta_memory_lower_bound", roofline.eta_memory_bound_only),
    BOOL("eta_compute_lower_bound", roofline.eta_compute_bound_only),
    SPECIAL("form", J_FORM, R(roofline.form)),
    CONSTS("loss", "mean absolute relative error (MAPE)"),
    NUM("mape_decode", roofline_mape_decode),
    CONSTN("gemms_per_layer", 4),
    DERIVED("overhead_per_gemm_s", derive_overhead_per_gemm),
    NUM("eta_compute_unconstrained", roofline.eta_compute_free),
    NUM("eta_memory_unconstrained", roofline.eta_memory_free),
    BOOL("eta_compute_clamped", roofline.eta_compute_clamped),
    BOOL("eta_memory_clamped", roofline.eta_memory_clamped),
    INT("n_memory_excluded", roofline.n_memory_excluded),
    OPTNUM("cpu_cache_bytes", cpu_cache_bytes),
    OPTNUM("cpu_l2_bytes", cpu_l2_bytes),
    OPTNUM("cpu_unroll_n", cpu_unroll_n),
    STR("cpu_cache", cpu_cache_name, J_OPT),
    STR("note", roofline_note, J_OPT),
    END};

static const jfield ROOFLINE_MAX_FIELDS[] = {
    CONSTS("form", "max(compute, memory) + overhead (comparison only)"),
    NUM("eta_compute", roofline_max.eta_compute),
    NUM("eta_memory", roofline_max.eta_memory),
    NUM("overhead_s", roofline_max.overhead_s),
    NUM("mape", roofline_max.mape),
    NUM("r2", roofline_max.r2),
    END};

static const jfield PER_KERNEL_FIELDS[] = {
    NUM("t0_s", per_kernel.t0_s),
    NUM("bw_bytes_per_s", per_kernel.bw_bytes_per_s),
    NUM("gemm_efficiency", per_kernel.gemm_efficiency),
    NUM("small_kernel_s", per_kernel.small_kernel_s),
    NUM("launch_s", per_kernel.launch_s),
    NUM("mape", per_kernel.mape),
    INT("points", per_kernel.points),
    NUM("peak_flops", per_kernel.peak_flops),
    INT("sm", per_kernel.sm),
    NUM("copy_bytes_per_s", per_kernel.copy_bytes_per_s),
    OPTNUM("cache_bytes", per_kernel.cache_bytes),
    INT("n_cache_excluded", per_kernel.n_cache_excluded),
    OPTNUM("pack_bytes_per_s", per_kernel.pack_bytes_per_s),
    OPTNUM("l2_bytes", per_kernel.l2_bytes),
    OPTNUM("unroll_n", per_kernel.unroll_n),
    OPTNUM("gemm_efficiency_fp8", per_kernel.gemm_efficiency_fp8),
    OPTNUM("peak_flops_fp8", per_kernel.peak_flops_fp8),
    OPTNUM("mape_fp8", per_kernel.mape_fp8),
    OPTNUM("mape_bf16", per_kernel.mape_bf16),
    SPECIAL("class_mape", J_CLASSES, 0),
    CONSTS("form", "max(F / (peak * gemm_efficiency * eta_shape) + W / pack_bytes_per_s, "
                   "B / bw) + t0 per call (W: the weights a level-3 BLAS packs, only when "
                   "pack_bytes_per_s is set); small kernel and launch: medians"),
    END};

/* calib_phase_times, seconds: a phase that did not run is left out. */
#define PH(k, m) OPTNUM(k, phases.m)
static const jfield PHASE_FIELDS[] = {
    PH("layer_grid", layer_grid_s), PH("gemm", gemm_s),         PH("gemm_fp8", gemm_fp8_s),
    PH("grouped_moe", grouped_s),   PH("gemv", gemv_s),         PH("copy", copy_s),
    PH("attention", attention_s),   PH("launch", launch_s),     PH("collectives", collectives_s),
    PH("fit", fit_s),               END};

static const jfield ROOT_FIELDS[] = {
    CONSTN("schema", CALIB_SCHEMA),
    STR("backend", dev.backend, J_REQ),
    STR("device", dev.name, J_REQ),
    STR("date", date, J_REQ),
    STR("preset", preset, J_CHECK),
    STR("notes", notes, J_OPT),
    OBJ("device_info", DEVICE_FIELDS, -1, 0),
    STR("peak_source", peak_source, 0),
    NUM("best_gemm_flops", best_gemm_flops),
    NUM("copy_bandwidth_bytes_per_s", copy_bandwidth),
    SPECIAL("points", J_POINTS, 0),
    OBJ("power_law", POWER_LAW_FIELDS, R(has_power_law), J_NULL),
    STR("power_law_error", power_law_error, J_OPT),
    OBJ("roofline", ROOFLINE_FIELDS, -1, J_REQ),
    OBJ("roofline_max", ROOFLINE_MAX_FIELDS, R(has_roofline_max), 0),
    SPECIAL("comm", J_COMM, 0),
    STR("comm_note", comm_error, J_OPT),
    SPECIAL("comm_p2p", J_COMM, 1),
    STR("comm_p2p_note", p2p_error, J_OPT),
    STR("library", library, J_OPT),
    STR("model", model, J_OPT),
    OPTNUM("planned_s", planned_s),
    OPTNUM("wall_s", wall_s),
    OBJ("phases_s", PHASE_FIELDS, R(has_phases), 0),
    OBJ("per_kernel", PER_KERNEL_FIELDS, R(has_per_kernel), J_NULL),
    STR("kernel_note", kernel_note, J_OPT),
    SPECIAL("kernels", J_KPOINTS, 0),
    SPECIAL("collectives", J_COLL, 0),
    STR("collectives_note", coll_note, J_OPT),
    END};

/* The two comm series: where each part of one lives in calib_result. */
static const struct {
    size_t label, label_len, fit, has, pts, n;
    const char *convention; /* written into the block; NULL none */
} COMM_BLOCKS[2] = {
    {R(comm_label), sizeof(((calib_result *)0)->comm_label), R(comm_fit), R(has_comm_fit),
     R(comm), R(n_comm), NULL},
    {R(p2p_label), sizeof(((calib_result *)0)->p2p_label), R(p2p_fit), R(has_p2p_fit), R(p2p),
     R(n_p2p), "nccl-tests sendrecv: bytes = the message, algbw = busbw = bytes / time"}};

static const char *const KIND_NAMES[] = {"prefill", "decode", "copy"};

static const char *form_name(int form)
{
    return form == CALIB_ROOFLINE_ENGINE ? "compute + memory + overhead (the engine's)"
                                         : "max(compute, memory) + overhead";
}

#define AT(rec, off, type) ((type *)((char *)(rec) + (off)))
#define CAT(rec, off, type) ((const type *)((const char *)(rec) + (off)))

/* --- writing ----------------------------------------------------------------- */

/* cJSON_Add* return NULL on failure: *ok collects it. */
static void put_num(cJSON *o, const char *k, double v, int *ok)
{
    if (!cJSON_AddNumberToObject(o, k, isfinite(v) ? v : 0))
        *ok = 0;
}

static void put_str(cJSON *o, const char *k, const char *v, int *ok)
{
    if (!cJSON_AddStringToObject(o, k, v ? v : ""))
        *ok = 0;
}

static void write_fields(cJSON *o, const jfield *f, const calib_result *r, const void *rec,
                         int *ok);

static void write_points(cJSON *o, const char *key, const calib_result *r, int *ok)
{
    cJSON *arr = cJSON_AddArrayToObject(o, key);
    if (!arr) {
        *ok = 0;
        return;
    }
    for (int i = 0; i < r->n_points; i++) {
        cJSON *e = cJSON_CreateObject();
        if (!e || !cJSON_AddItemToArray(arr, e)) {
            cJSON_Delete(e);
            *ok = 0;
            return;
        }
        write_fields(e, POINT_FIELDS, r, &r->points[i], ok);
    }
}

static int calls_of(const calib_kpoint *p)
{
    return p->calls > 1 ? p->calls : 1;
}

/* The kernel points with the fit's prediction (model_s). */
static void write_kpoints(cJSON *o, const char *key, const calib_result *r, int *ok)
{
    if (r->n_kpoints == 0)
        return;
    cJSON *arr = cJSON_AddArrayToObject(o, key);
    for (int i = 0; arr && i < r->n_kpoints; i++) {
        const calib_kpoint *p = &r->kpoints[i];
        cJSON *e = cJSON_CreateObject();
        if (!e || !cJSON_AddItemToArray(arr, e)) {
            cJSON_Delete(e);
            *ok = 0;
            return;
        }
        put_str(e, "class", calib_kclass_name(p->cls), ok);
        put_str(e, "op", p->op, ok);
        put_str(e, "dtype", p->dtype, ok);
        put_num(e, "tp", p->tp, ok);
        put_num(e, "m", p->m, ok);
        put_num(e, "n", p->n, ok);
        put_num(e, "k", p->k, ok);
        put_num(e, "batch", p->batch, ok);
        put_num(e, "calls", calls_of(p), ok);
        put_num(e, "flops", p->flops, ok);
        put_num(e, "bytes", p->bytes, ok);
        put_num(e, "time_s", p->time_s, ok);
        if (r->has_per_kernel)
            put_num(e, "model_s", calib_per_kernel_predict(&r->per_kernel, p), ok);
    }
    if (!arr)
        *ok = 0;
}

/* class_mape {class: fraction} and class_points {class: n}, the classes
 * measured. */
static void write_classes(cJSON *o, const char *key, const calib_result *r, int *ok)
{
    cJSON *c = cJSON_AddObjectToObject(o, key);
    cJSON *n = cJSON_AddObjectToObject(o, "class_points");
    for (int k = 0; c && n && k < CALIB_K_COUNT; k++)
        if (r->per_kernel.class_n[k] > 0) {
            put_num(c, calib_kclass_name((calib_kclass)k), r->per_kernel.class_mape[k], ok);
            put_num(n, calib_kclass_name((calib_kclass)k), r->per_kernel.class_n[k], ok);
        }
    if (!c || !n)
        *ok = 0;
}

/* busbw(size) per collective (nccl-tests conventions: all-reduce busbw =
 * algbw x 2(n-1)/n; send/recv busbw = algbw). */
/* The collectives' series: op name, the engine's collective (its busbw
 * factor), the series and the GPUs it ran on. */
typedef struct coll_series {
    const char *op;
    engine_collective ec;
    const calib_comm_point *pts;
    int n, gpus;
    const char *label;
} coll_series;

static int coll_list(const calib_result *r, coll_series out[4])
{
    int ranks = r->dev.count >= 2 && strstr(r->comm_label, "NCCL") ? r->dev.count : 2;
    coll_series all[4] = {
        {"all_reduce", ENGINE_OP_ALLREDUCE, r->comm, r->n_comm, ranks, r->comm_label},
        {"send_recv", ENGINE_OP_P2P, r->p2p, r->n_p2p, 2, r->p2p_label},
        {"all_gather", ENGINE_OP_ALLGATHER, r->allgather, r->n_allgather, r->coll_gpus,
         "NCCL AllGather"},
        {"all_to_all", ENGINE_OP_ALLTOALL, r->alltoall, r->n_alltoall, r->coll_gpus,
         "NCCL AllToAll (grouped ncclSend/ncclRecv)"}};
    int k = 0;
    for (int i = 0; i < 4; i++)
        if (all[i].n > 0 && (i < 2 || all[i].gpus >= 2))
            out[k++] = all[i];
    return k;
}

/* root[key] = [{op, label, gpus, busbw_factor, points: [{bytes, time_s,
 * busbw_bytes_per_s}]}]: nccl-tests' bus bandwidth, algbw = bytes / time
 * times 2(n-1)/n for all-reduce, (n-1)/n for all-gather and all-to-all, 1
 * for send/recv (nccl-tests doc/PERFORMANCE.md; engine_busbw_factor). */
static void write_coll(cJSON *o, const char *key, const calib_result *r, int *ok)
{
    coll_series cs[4];
    int ns = coll_list(r, cs);
    if (ns == 0)
        return;
    cJSON *arr = cJSON_AddArrayToObject(o, key);
    for (int w = 0; arr && w < ns; w++) {
        double f = engine_busbw_factor(cs[w].ec, cs[w].gpus);
        cJSON *c = cJSON_CreateObject();
        if (!c || !cJSON_AddItemToArray(arr, c)) {
            cJSON_Delete(c);
            *ok = 0;
            return;
        }
        put_str(c, "op", cs[w].op, ok);
        put_str(c, "label", cs[w].label, ok);
        put_num(c, "gpus", cs[w].gpus, ok);
        put_num(c, "busbw_factor", f, ok);
        cJSON *cp = cJSON_AddArrayToObject(c, "points");
        for (int i = 0; cp && i < cs[w].n; i++) {
            cJSON *e = cJSON_CreateObject();
            if (!e || !cJSON_AddItemToArray(cp, e)) {
                cJSON_Delete(e);
                *ok = 0;
                return;
            }
            put_num(e, "bytes", cs[w].pts[i].bytes, ok);
            put_num(e, "time_s", cs[w].pts[i].time_s, ok);
            put_num(e, "busbw_bytes_per_s", cs[w].pts[i].bytes / cs[w].pts[i].time_s * f, ok);
        }
    }
    if (!arr)
        *ok = 0;
}

/* root[key] = {label, alpha_s, bandwidth_bytes_per_s, r2, mape, points:
 * [{bytes, time_s}], convention?}, when the series has a label and a fit. */
static void write_comm(cJSON *o, const char *key, int which, const calib_result *r, int *ok)
{
    const char *label = CAT(r, COMM_BLOCKS[which].label, char);
    int has = *CAT(r, COMM_BLOCKS[which].has, int);
    const calib_comm_point *pts = *CAT(r, COMM_BLOCKS[which].pts, calib_comm_point *);
    int n = *CAT(r, COMM_BLOCKS[which].n, int);
    /* A series whose alpha-beta fit failed is still a measurement: its
     * label and points are written without the fit (the reader's has stays
     * 0), so that the NCCL label the collectives' curves hang on and the
     * series itself survive the file. */
    if (!label[0] || (!has && n <= 0))
        return;
    cJSON *c = cJSON_AddObjectToObject(o, key);
    if (!c) {
        *ok = 0;
        return;
    }
    put_str(c, "label", label, ok);
    if (has)
        write_fields(c, AB_FIELDS, r, CAT(r, COMM_BLOCKS[which].fit, calib_alpha_beta), ok);
    cJSON *cp = cJSON_AddArrayToObject(c, "points");
    for (int i = 0; cp && i < n; i++) {
        cJSON *e = cJSON_CreateObject();
        if (!e || !cJSON_AddItemToArray(cp, e)) {
            cJSON_Delete(e);
            *ok = 0;
            break;
        }
        put_num(e, "bytes", pts[i].bytes, ok);
        put_num(e, "time_s", pts[i].time_s, ok);
    }
    if (!cp)
        *ok = 0;
    if (COMM_BLOCKS[which].convention)
        put_str(c, "convention", COMM_BLOCKS[which].convention, ok);
}

static void write_field(cJSON *o, const jfield *f, const calib_result *r, const void *rec,
                        int *ok)
{
    double v;
    switch (f->kind) {
    case J_NUM:
        v = *CAT(rec, f->off, double);
        if (!(f->flags & J_OPT) || v > 0)
            put_num(o, f->key, v, ok);
        break;
    case J_INT: put_num(o, f->key, *CAT(rec, f->off, int), ok); break;
    case J_BOOL:
        if (!cJSON_AddBoolToObject(o, f->key, *CAT(rec, f->off, int)))
            *ok = 0;
        break;
    case J_STR:
        if (!(f->flags & J_OPT) || CAT(rec, f->off, char)[0])
            put_str(o, f->key, CAT(rec, f->off, char), ok);
        break;
    case J_OBJ: {
        if (f->has >= 0 && !*CAT(r, (size_t)f->has, int)) {
            if ((f->flags & J_NULL) && !cJSON_AddNullToObject(o, f->key))
                *ok = 0;
            break;
        }
        cJSON *c = cJSON_AddObjectToObject(o, f->key);
        if (c)
            write_fields(c, f->sub, r, rec, ok);
        else
            *ok = 0;
        break;
    }
    case J_POINTS: write_points(o, f->key, r, ok); break;
    case J_COMM: write_comm(o, f->key, (int)f->off, r, ok); break;
    case J_CC: {
        char cc[24];
        snprintf(cc, sizeof cc, "%d.%d", r->dev.cc_major, r->dev.cc_minor);
        put_str(o, f->key, cc, ok);
        break;
    }
    case J_FORM: put_str(o, f->key, form_name(*CAT(rec, f->off, int)), ok); break;
    case J_KIND: {
        int k = *CAT(rec, f->off, int);
        put_str(o, f->key, KIND_NAMES[k >= 0 && k <= 2 ? k : 2], ok);
        break;
    }
    case J_CONST:
        if (f->cstr)
            put_str(o, f->key, f->cstr, ok);
        else
            put_num(o, f->key, f->cnum, ok);
        break;
    case J_DERIVED:
        if (f->derive(r, rec, &v))
            put_num(o, f->key, v, ok);
        break;
    case J_KPOINTS: write_kpoints(o, f->key, r, ok); break;
    case J_CLASSES: write_classes(o, f->key, r, ok); break;
    case J_COLL: write_coll(o, f->key, r, ok); break;
    }
}

static void write_fields(cJSON *o, const jfield *f, const calib_result *r, const void *rec,
                         int *ok)
{
    for (; f->key; f++)
        write_field(o, f, r, rec, ok);
}

char *calib_result_to_json(const calib_result *r)
{
    int ok = 1;
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    write_fields(root, ROOT_FIELDS, r, r, &ok);
    char *text = ok ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    return text;
}

/* --- reading: the checks ------------------------------------------------------ */

/* The J_REQ / J_CHECK fields of one object, in table order. */
static int check_fields(const cJSON *o, const char *obj, const jfield *f, const char *path,
                        engine_error *err)
{
    for (; f->key; f++) {
        if (!(f->flags & (J_REQ | J_CHECK)))
            continue;
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->key);
        if (!v && !(f->flags & J_REQ))
            continue;
        if (f->kind == J_STR && (!cJSON_IsString(v) || !v->valuestring))
            return engine_errorf(err, "%.300s: %s: expected a string", path, f->key);
        if (f->kind == J_OBJ && !cJSON_IsObject(v))
            return engine_errorf(err, "%.300s: %s: expected an object", path, f->key);
        if (f->kind == J_OBJ && check_fields(v, f->key, f->sub, path, err) != 0)
            return -1;
        if (f->kind != J_NUM)
            continue;
        if (!cJSON_IsNumber(v))
            return engine_errorf(err, "%.300s: %s.%s: expected a number in [%g, %g]%s", path,
                                 obj, f->key, f->lo, f->hi, v ? "" : ", missing");
        if (!isfinite(v->valuedouble) || v->valuedouble < f->lo || v->valuedouble > f->hi)
            return engine_errorf(err, "%.300s: %s.%s: expected a number in [%g, %g], got %g",
                                 path, obj, f->key, f->lo, f->hi, v->valuedouble);
    }
    return 0;
}

/* The header the engine relies on (backend, device, date, preset, the
 * roofline's etas and overhead), and a known backend. */
static int check_header(const cJSON *root, const char *path, engine_error *err)
{
    /* Strings first, then the backend's value, then the roofline. */
    for (const jfield *f = ROOT_FIELDS; f->key; f++)
        if (f->kind == J_STR) {
            const jfield one[2] = {*f, END};
            if (check_fields(root, "", one, path, err) != 0)
                return -1;
        }
    const char *b = cJSON_GetObjectItemCaseSensitive(root, "backend")->valuestring;
    if (strcmp(b, "cuda") != 0 && strcmp(b, "cpu") != 0)
        return engine_errorf(err, "%.300s: backend: expected \"cuda\" or \"cpu\", got \"%.32s\"",
                             path, b);
    for (const jfield *f = ROOT_FIELDS; f->key; f++)
        if (f->kind != J_STR) {
            const jfield one[2] = {*f, END};
            if (check_fields(root, "", one, path, err) != 0)
                return -1;
        }
    return 0;
}

/* Every integer field present in o (and its J_OBJ children): a whole
 * number in [0, INT_MAX], never a float cast to int unchecked.  obj names
 * o in messages ("" at the root).  0, or -1 with err naming the field. */
static int check_ints(const cJSON *o, const char *obj, const jfield *f, const char *path,
                      engine_error *err)
{
    for (; f->key; f++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->key);
        if (f->kind == J_OBJ && cJSON_IsObject(v) && check_ints(v, f->key, f->sub, path, err))
            return -1;
        if (f->kind != J_INT || !v)
            continue;
        double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
        if (x >= 0 && x <= INT_MAX && x == floor(x))
            continue;
        char got[48];
        if (cJSON_IsNumber(v))
            snprintf(got, sizeof got, "%.17g", x);
        else
            snprintf(got, sizeof got, "%s", cJSON_IsString(v) ? "a string" : "not a number");
        return engine_errorf(err, "%.300s: %s%s%s: expected a whole number in [0, %d], got %s",
                             path, obj, obj[0] ? "." : "", f->key, INT_MAX, got);
    }
    return 0;
}

/* --- reading: the values -------------------------------------------------------- */

static double num_or(const cJSON *o, const char *key, double dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : dflt;
}

/* An integer field, checked by check_ints when present: 0 when absent. */
static int int_or_0(const cJSON *o, const char *key)
{
    double v = num_or(o, key, 0);
    return v >= 0 && v <= INT_MAX ? (int)v : 0;
}

static void read_fields(const cJSON *o, const jfield *f, calib_result *r, void *rec);

/* root[key]'s series and fit; has = a fit with a bandwidth. */
static void read_comm(const cJSON *o, const char *key, int which, calib_result *r)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsObject(c))
        return;
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(c, "label");
    if (cJSON_IsString(l) && l->valuestring)
        snprintf(AT(r, COMM_BLOCKS[which].label, char), COMM_BLOCKS[which].label_len, "%s",
                 l->valuestring);
    calib_alpha_beta *fit = AT(r, COMM_BLOCKS[which].fit, calib_alpha_beta);
    read_fields(c, AB_FIELDS, r, fit);
    *AT(r, COMM_BLOCKS[which].has, int) = fit->bandwidth > 0;
    calib_comm_point **pts = AT(r, COMM_BLOCKS[which].pts, calib_comm_point *);
    int *n = AT(r, COMM_BLOCKS[which].n, int);
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(c, "points"))
    {
        double b = num_or(e, "bytes", -1), t = num_or(e, "time_s", -1);
        if (b > 0 && t > 0 && calib_comm_append(pts, n, b, t) != 0)
            break;
    }
    fit->n = *n;
}

/* The all-gather and all-to-all series of root[key] (the collectives'
 * table; all-reduce and send/recv come back from comm / comm_p2p). */
static void read_coll(const cJSON *o, const char *key, calib_result *r)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(o, key))
    {
        const cJSON *op = cJSON_GetObjectItemCaseSensitive(c, "op");
        if (!cJSON_IsString(op) || !op->valuestring)
            continue;
        int ag = !strcmp(op->valuestring, "all_gather"), aa = !strcmp(op->valuestring, "all_to_all");
        int gpus = int_or_0(c, "gpus");
        if (!(ag || aa) || gpus < 2)
            continue;
        calib_comm_point **pts = ag ? &r->allgather : &r->alltoall;
        int *n = ag ? &r->n_allgather : &r->n_alltoall;
        r->coll_gpus = gpus;
        const cJSON *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(c, "points"))
        {
            double b = num_or(e, "bytes", -1), t = num_or(e, "time_s", -1);
            if (b > 0 && t > 0 && calib_comm_append(pts, n, b, t) != 0)
                break;
        }
    }
}

static void read_field(const cJSON *o, const jfield *f, calib_result *r, void *rec)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->key);
    switch (f->kind) {
    case J_NUM: *AT(rec, f->off, double) = num_or(o, f->key, 0); break;
    case J_INT: *AT(rec, f->off, int) = int_or_0(o, f->key); break;
    case J_BOOL: *AT(rec, f->off, int) = cJSON_IsTrue(v); break;
    case J_STR:
        if (cJSON_IsString(v) && v->valuestring)
            snprintf(AT(rec, f->off, char), f->len, "%s", v->valuestring);
        break;
    case J_OBJ:
        if (!cJSON_IsObject(v))
            break;
        read_fields(v, f->sub, r, rec);
        if (f->has >= 0)
            *AT(r, (size_t)f->has, int) = 1;
        break;
    case J_CC:
        if (cJSON_IsString(v) && v->valuestring &&
            sscanf(v->valuestring, "%d.%d", &r->dev.cc_major, &r->dev.cc_minor) != 2)
            r->dev.cc_major = r->dev.cc_minor = 0;
        break;
    case J_FORM:
        *AT(rec, f->off, int) = cJSON_IsString(v) && v->valuestring &&
                                        !strncmp(v->valuestring, "max", 3)
                                    ? CALIB_ROOFLINE_MAX
                                    : CALIB_ROOFLINE_ENGINE;
        break;
    case J_COMM: read_comm(o, f->key, (int)f->off, r); break;
    case J_CLASSES:
        for (int k = 0; cJSON_IsObject(v) && k < CALIB_K_COUNT; k++) {
            const char *name = calib_kclass_name((calib_kclass)k);
            r->per_kernel.class_mape[k] = num_or(v, name, 0);
            r->per_kernel.class_n[k] =
                int_or_0(cJSON_GetObjectItemCaseSensitive(o, "class_points"), name);
        }
        break;
    case J_POINTS: /* read_points, strictly */
    case J_KPOINTS: /* read_kpoints, strictly */
        break;
    case J_COLL: read_coll(o, f->key, r); break;
    case J_KIND:
    case J_CONST:
    case J_DERIVED: break;
    }
}

static void read_fields(const cJSON *o, const jfield *f, calib_result *r, void *rec)
{
    for (; f->key; f++)
        read_field(o, f, r, rec);
}

/* points[i].key: a whole number in [0, max] into *out.  0, or -1 with err
 * naming the point and the field. */
static int point_int(const cJSON *e, const char *key, double max, const char *path, int i,
                     int *out, engine_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, key);
    double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
    if (!(x >= 0 && x <= max && x == floor(x))) {
        if (!cJSON_IsNumber(v))
            return engine_errorf(err, "%.200s: points[%d].%s: expected a whole number in [0, %g]%s",
                                 path, i, key, max, v ? "" : ", missing");
        return engine_errorf(err, "%.200s: points[%d].%s: expected a whole number in [0, %g], got %.17g",
                             path, i, key, max, x);
    }
    *out = (int)x;
    return 0;
}

/* The points, each checked: a known kind, non-negative sizes, a positive
 * time.  0, or -1 with err naming the point. */
static int read_points(const cJSON *root, const char *path, calib_result *out,
                       engine_error *err)
{
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(root, "points");
    if (!pts)
        return 0;
    if (!cJSON_IsArray(pts))
        return engine_errorf(err, "%.300s: points: expected an array", path);
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, pts)
    {
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(e, "kind");
        calib_point p;
        memset(&p, 0, sizeof p);
        int kind = -1;
        for (int j = 0; j < 3 && cJSON_IsString(k) && k->valuestring; j++)
            if (!strcmp(k->valuestring, KIND_NAMES[j]))
                kind = j;
        if (kind < 0)
            return engine_errorf(err,
                                 "%.200s: points[%d].kind: expected \"prefill\", \"decode\" or "
                                 "\"copy\"", path, i);
        p.kind = (calib_point_kind)kind;
        if (point_int(e, "hidden", 1e7, path, i, &p.hidden, err) != 0 ||
            point_int(e, "batch", 1e9, path, i, &p.batch, err) != 0 ||
            point_int(e, "seq", 1e9, path, i, &p.seq, err) != 0)
            return -1;
        p.flops = num_or(e, "flops", -1);
        p.bytes = num_or(e, "bytes", -1);
        p.time_s = num_or(e, "time_s", -1);
        if (p.flops < 0 || p.bytes < 0 || !(p.time_s > 0))
            return engine_errorf(err,
                                 "%.200s: points[%d]: expected non-negative hidden, batch, seq, "
                                 "flops, bytes and a positive time_s", path, i);
        if (calib_result_add_point(out, &p) != 0)
            return engine_errorf(err, "%.300s: out of memory", path);
        i++;
    }
    return 0;
}

/* The kernel points, each checked: a known class, whole non-negative
 * sizes, a positive time.  0, or -1 with err naming the point. */
static int read_kpoints(const cJSON *root, const char *path, calib_result *out,
                        engine_error *err)
{
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(root, "kernels");
    if (!pts)
        return 0;
    if (!cJSON_IsArray(pts))
        return engine_errorf(err, "%.300s: kernels: expected an array", path);
    int i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, pts)
    {
        calib_kpoint p;
        memset(&p, 0, sizeof p);
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "class");
        int cls = -1;
        for (int j = 0; j < CALIB_K_COUNT && cJSON_IsString(c) && c->valuestring; j++)
            if (!strcmp(c->valuestring, calib_kclass_name((calib_kclass)j)))
                cls = j;
        if (cls < 0)
            return engine_errorf(err, "%.200s: kernels[%d].class: expected gemm, gemv, copy, "
                                 "attention, launch or graph_launch", path, i);
        p.cls = (calib_kclass)cls;
        const cJSON *op = cJSON_GetObjectItemCaseSensitive(e, "op");
        const cJSON *dt = cJSON_GetObjectItemCaseSensitive(e, "dtype");
        if (cJSON_IsString(op) && op->valuestring)
            snprintf(p.op, sizeof p.op, "%s", op->valuestring);
        if (cJSON_IsString(dt) && dt->valuestring)
            snprintf(p.dtype, sizeof p.dtype, "%s", dt->valuestring);
        static const char *const K[] = {"tp", "m", "n", "k", "batch", "calls"};
        int *dst[] = {&p.tp, &p.m, &p.n, &p.k, &p.batch, &p.calls};
        for (int j = 0; j < 6; j++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, K[j]);
            if (!v && j == 5) { /* calls: 1 when absent */
                p.calls = 1;
                continue;
            }
            double x = cJSON_IsNumber(v) ? v->valuedouble : NAN;
            if (!(x >= 0 && x <= 1e9 && x == floor(x)))
                return engine_errorf(err, "%.200s: kernels[%d].%s: expected a whole number in "
                                     "[0, 1e9]", path, i, K[j]);
            *dst[j] = (int)x;
        }
        p.flops = num_or(e, "flops", -1);
        p.bytes = num_or(e, "bytes", -1);
        p.time_s = num_or(e, "time_s", -1);
        if (p.flops < 0 || p.bytes < 0 || !(p.time_s > 0))
            return engine_errorf(err, "%.200s: kernels[%d]: expected non-negative flops and "
                                 "bytes and a positive time_s", path, i);
        if (calib_result_add_kpoint(out, &p) != 0)
            return engine_errorf(err, "%.300s: out of memory", path);
        i++;
    }
    return 0;
}

/* The schema: a newer one is refused (its meaning is unknown), an older
 * one (1, or none: the first files) loads with out->load_note saying what
 * it lacks. */
static int check_schema(const cJSON *root, const char *path, calib_result *out,
                        engine_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "schema");
    double s = cJSON_IsNumber(v) ? v->valuedouble : 1;
    if (v && (!cJSON_IsNumber(v) || s != floor(s) || s < 1))
        return engine_errorf(err, "%.300s: schema: expected a whole number >= 1", path);
    if (s > CALIB_SCHEMA)
        return engine_errorf(err, "%.300s: schema %g is newer than this shardscope reads (%d); "
                             "update shardscope or recalibrate", path, s, CALIB_SCHEMA);
    out->schema = (int)s;
    if (s < CALIB_SCHEMA)
        snprintf(out->load_note, sizeof out->load_note,
                 "schema %d file: no per-kernel fit or measured tables; the engine uses its "
                 "layer roofline (eta_compute, eta_memory, overhead); recalibrate for the "
                 "per-kernel model", (int)s);
    return 0;
}

int calib_json_read(const char *text, const char *path, int full, calib_result *out,
                    engine_error *err)
{
    memset(out, 0, sizeof *out);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 0);
    if (!root || !cJSON_IsObject(root)) {
        cJSON_Delete(root);
        size_t off = end ? (size_t)(end - text) : 0;
        int deep = !root && engine_json_depth_at(text, off) >= CJSON_NESTING_LIMIT;
        return engine_errorf(err, "%.300s: not a calibration file (%s near byte %zu)", path,
                             deep ? "JSON nested deeper than " CALIB_STR(CJSON_NESTING_LIMIT)
                                    " levels" : "invalid JSON",
                             off);
    }
    int rc = check_header(root, path, err);
    if (rc == 0)
        rc = check_ints(root, "", ROOT_FIELDS, path, err);
    if (rc == 0) {
        read_fields(root, ROOT_FIELDS, out, out);
        out->has_power_law = out->has_power_law && out->power_law.a > 0;
        rc = check_schema(root, path, out, err);
    }
    if (rc == 0 && out->has_per_kernel &&
        !(out->per_kernel.gemm_efficiency > 0 && out->per_kernel.bw_bytes_per_s > 0 &&
          out->per_kernel.t0_s >= 0 && out->per_kernel.t0_s < 1 &&
          out->per_kernel.small_kernel_s >= 0 && out->per_kernel.launch_s >= 0))
        rc = engine_errorf(err, "%.300s: per_kernel: expected gemm_efficiency > 0, "
                           "bw_bytes_per_s > 0, t0_s in [0, 1), small_kernel_s, launch_s >= 0",
                           path);
    if (rc == 0 && full)
        rc = read_points(root, path, out, err);
    /* the engine's tables come from the kernel points: read them always
     * (an older schema has none: what such a file holds is not read) */
    if (rc == 0 && out->schema >= 2)
        rc = read_kpoints(root, path, out, err);
    if (rc == 0 && out->schema < 2)
        out->has_per_kernel = 0;
    cJSON_Delete(root);
    if (rc != 0)
        calib_result_free(out);
    return rc;
}

int calib_result_from_json(const char *text, const char *path, calib_result *out,
                           engine_error *err)
{
    return calib_json_read(text, path ? path : "(text)", 1, out, err);
}

void calib_json_preset(const char *text, char *buf, size_t len)
{
    buf[0] = '\0';
    cJSON *j = cJSON_Parse(text);
    const cJSON *p = j ? cJSON_GetObjectItemCaseSensitive(j, "preset") : NULL;
    if (cJSON_IsString(p) && p->valuestring)
        snprintf(buf, len, "%s", p->valuestring);
    cJSON_Delete(j);
}
