/*
 * controls.c - the controls part of the explorer: the sliders and
 * selectors, their starting values (command-line preselection, the GPU's
 * usual topology), and the side effects of a change (the prompt range
 * follows the model; VRAM, links, GPUs per node and the calibration follow
 * the GPU).
 */
#include "explorer_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>






static int link_index(const preset_db *db, const engine_link *l)
{
    for (int i = 0; l && i < db->n_links && i < EXP_MAX_LINKS; i++)
        if (&db->links[i] == l)
            return i;
    return -1;
}

/* The GPU's usual topology on the link and GPUs-per-node sliders (the
 * same defaults as the command line: preset_gpu_topology). */
static void topology_for_gpu(explorer *x)
{
    const engine_link *li = NULL, *lo = NULL;
    int k = 0;
    preset_gpu_topology(x->db, exp_gpu(x), &li, &lo, &k);
    int ii = link_index(x->db, li), oi = link_index(x->db, lo);
    if (ii >= 0)
        slider_set(&x->ctl.s[CTL_INTRA], ii);
    if (oi >= 0)
        slider_set(&x->ctl.s[CTL_INTER], oi);
    if (k > 0)
        slider_set(&x->ctl.s[CTL_PER_NODE], k);
}

static int find_index(const char *want, const char *const *prefs, int n_prefs,
                      const char *(*name_at)(const preset_db *, int), const preset_db *db,
                      int n)
{
    if (want) {
        for (int i = 0; i < n; i++)
            if (!strcasecmp(name_at(db, i), want))
                return i;
        return -1;
    }
    for (int p = 0; p < n_prefs; p++)
        for (int i = 0; i < n; i++)
            if (!strcasecmp(name_at(db, i), prefs[p]))
                return i;
    return 0;
}

static const char *model_name_at(const preset_db *db, int i)
{
    return db->models[i].name;
}

static const char *gpu_name_at(const preset_db *db, int i)
{
    return db->gpus[i].name;
}

static const char *link_name_at(const preset_db *db, int i)
{
    return db->links[i].name;
}

/* The weights a model runs unless the user picks others: its checkpoint's
 * own format (a quantization_config: DeepSeek-V3/R1 FP8, gpt-oss MXFP4),
 * else fp16. */
int exp_model_dtype(const engine_model *m)
{
    return m->has_weight_dtype ? (int)m->weight_dtype : (int)ENGINE_FP16;
}

static void set_context_ranges(explorer *x)
{
    int ctx = exp_model(x)->context > 1 ? exp_model(x)->context : 131072;
    slider_set_range(&x->ctl.s[CTL_PROMPT], 1, ctx);
    slider_set_range(&x->ctl.s[CTL_GEN], 1, ctx);
}

/* Side effects of a changed control (ranges, the VRAM default). */
static void ctl_changed(explorer *x, int ctl)
{
    if (ctl == CTL_MODEL) {
        set_context_ranges(x);
        slider_set(&x->ctl.s[CTL_DTYPE], exp_model_dtype(exp_model(x)));
    } else if (ctl == CTL_GPU) {
        slider_set(&x->ctl.s[CTL_VRAM], exp_gb_of(exp_gpu(x)->memory_bytes));
        topology_for_gpu(x);
        exp_calib_load(x);
    }
}

static void apply_inputs(explorer *x, const exp_inputs *in)
{
    for (int i = 0; i < CTL_COUNT; i++) {
        if (i == CTL_PROMPT || i == CTL_GEN)
            continue;
        slider_set(&x->ctl.s[i], in->v[i]);
    }
    x->ctl.framework = in->framework;
    x->ctl.spec_method = in->spec_method;
    x->ctl.spec_k = in->spec_k;
    x->ctl.spec_pct = in->spec_pct;
    set_context_ranges(x);
    slider_set(&x->ctl.s[CTL_PROMPT], in->v[CTL_PROMPT]);
    slider_set(&x->ctl.s[CTL_GEN], in->v[CTL_GEN]);
}

int exp_ctl_is_selector(int ctl)
{
    return ctl == CTL_MODEL || ctl == CTL_GPU || ctl == CTL_INTRA || ctl == CTL_INTER;
}

void exp_ctl_set(explorer *x, int ctl, int value)
{
    int old = x->ctl.s[ctl].value;
    slider_set(&x->ctl.s[ctl], value);
    if (x->ctl.s[ctl].value != old)
        ctl_changed(x, ctl);
}

void exp_ctl_adjust(explorer *x, int ctl, int dir, int big)
{
    int old = x->ctl.s[ctl].value;
    slider_step(&x->ctl.s[ctl], dir, big);
    if (x->ctl.s[ctl].value != old)
        ctl_changed(x, ctl);
}

void exp_ctl_reset(explorer *x)
{
    apply_inputs(x, &x->ctl.initial);
    exp_calib_load(x);
    x->view.plans.sel = x->view.plans.top = 0;
    x->view.details.top = 0;
    x->view.heat_mode = HEAT_BY_GPUS;
    exp_set_msg(x, "reset to the starting values");
}

/* The workload a scenario file gave (explorer_opts), where set. */
static void apply_workload(slider *c, const explorer_opts *o)
{
    const struct {
        int ctl, v;
    } w[] = {{CTL_BATCH, o->batch > 0 ? o->batch : -1},
             {CTL_PROMPT, o->prompt > 0 ? o->prompt : -1},
             {CTL_GEN, o->gen > 0 ? o->gen : -1},
             {CTL_MICRO, o->microbatches},
             {CTL_DTYPE, o->dtype},
             {CTL_SCHED, o->schedule},
             {CTL_OBJECTIVE, o->objective}};
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if (w[i].v >= 0)
            slider_set(&c[w[i].ctl], w[i].v);
}

static void make_sliders(explorer *x, const explorer_opts *o, int mi, int gi, int li, int ii)
{
    const preset_db *db = x->db;
    slider *c = x->ctl.s;
    engine_scenario d;
    engine_scenario_defaults(&d);
    int n_models = db->n_models > EXP_MAX_MODELS ? EXP_MAX_MODELS : db->n_models;
    int n_links = db->n_links > EXP_MAX_LINKS ? EXP_MAX_LINKS : db->n_links;
    c[CTL_MODEL] = slider_make("Model", "", SLIDER_LIST, mi, 0, n_models - 1, 1, 4);
    c[CTL_GPU] = slider_make("GPU", "", SLIDER_LIST, gi, 0, db->n_gpus - 1, 1, 4);
    c[CTL_INTRA] = slider_make("Intra link", "", SLIDER_LIST, li, 0, n_links - 1, 1, 4);
    c[CTL_INTER] = slider_make("Inter link", "", SLIDER_LIST, ii, 0, n_links - 1, 1, 4);
    c[CTL_GPUS] = slider_make("GPU count", "GPUs", SLIDER_POW2, o && o->gpus > 0 ? o->gpus : 8,
                              1, EXP_MAX_GPUS, 1, 1);
    c[CTL_PER_NODE] = slider_make("GPUs/node", "GPUs", SLIDER_LINEAR,
                                  o && o->gpus_per_node > 0 ? o->gpus_per_node : 8, 1,
                                  EXP_MAX_PER_NODE, 1, 8);
    c[CTL_VRAM] = slider_make("VRAM/GPU", "GB", SLIDER_LINEAR,
                              o && o->vram_gb > 0 ? (int)(o->vram_gb + 0.5)
                                                  : exp_gb_of(db->gpus[gi].memory_bytes),
                              1, 1024, 1, 8);
    c[CTL_BATCH] = slider_make("Batch", "seq", SLIDER_GEOM, d.batch, 1, 4096, 1, 1);
    c[CTL_PROMPT] = slider_make("Prompt", "tok", SLIDER_GEOM, d.prompt, 1, 131072, 128, 1);
    c[CTL_GEN] = slider_make("Generate", "tok", SLIDER_GEOM, d.gen, 1, 131072, 32, 1);
    c[CTL_DTYPE] = slider_make("Weights", "", SLIDER_LIST, exp_model_dtype(&db->models[mi]), 0,
                               ENGINE_DTYPE_COUNT - 1, 1, 1);
    c[CTL_MICRO] = slider_make("Microbatch", "", SLIDER_GEOM, d.microbatches, 0, 256, 1, 1);
    c[CTL_SCHED] = slider_make("Schedule", "", SLIDER_LIST, (int)d.schedule, 0,
                               ENGINE_SCHED_COUNT - 1, 1, 1);
    c[CTL_OBJECTIVE] = slider_make("Objective", "", SLIDER_LIST, (int)d.objective, 0,
                                   ENGINE_OBJ_COUNT - 1, 1, 1);
    /* The load line: Poisson rate in tenths of a request/s (0.1 .. 10000),
     * the SLO targets in ms (goodput at p99). */
    c[CTL_RATE] = slider_make("Rate", "req/s", SLIDER_GEOM, 20, 1, 100000, 1, 1);
    c[CTL_TTFT] = slider_make("TTFT SLO", "ms", SLIDER_GEOM, 1000, 1, 600000, 10, 1);
    c[CTL_ITL] = slider_make("ITL SLO", "ms", SLIDER_GEOM, 50, 1, 10000, 1, 1);
    set_context_ranges(x);
    slider_set(&c[CTL_PROMPT], d.prompt);
    slider_set(&c[CTL_GEN], d.gen);
    if (o)
        apply_workload(c, o);
}

int exp_controls_init(explorer *x, const explorer_opts *o, engine_error *err)
{
    const preset_db *db = x->db;
    static const char *const MODEL_PREFS[] = {"llama-3-70b", "llama-2-70b"};
    static const char *const GPU_PREFS[] = {"h100-sxm", "a100-80gb"};
    /* Without --link / --inter-link the GPU's usual topology is applied
     * below; these are only the fallback for a GPU that names none. */
    static const char *const INTRA_PREFS[] = {"nvlink4", "nvlink3", "pcie4"};
    static const char *const INTER_PREFS[] = {"ib-ndr", "ib-hdr", "eth-400g"};
    int mi = find_index(o ? o->model : NULL, MODEL_PREFS, 2, model_name_at, db, db->n_models);
    int gi = find_index(o ? o->gpu : NULL, GPU_PREFS, 2, gpu_name_at, db, db->n_gpus);
    int li = find_index(o ? o->link : NULL, INTRA_PREFS, 3, link_name_at, db, db->n_links);
    int ii = find_index(o ? o->inter_link : NULL, INTER_PREFS, 3, link_name_at, db, db->n_links);
    if (mi < 0 || gi < 0 || li < 0 || ii < 0) {
        engine_errorf(err, "unknown %s '%s'", mi < 0 ? "model" : gi < 0 ? "GPU" : "link",
                 mi < 0 ? o->model : gi < 0 ? o->gpu : li < 0 ? o->link : o->inter_link);
        return -1;
    }
    make_sliders(x, o, mi, gi, li, ii);
    /* The GPU's usual links and NVLink domain, unless given. */
    const engine_link *ul = NULL, *uo = NULL;
    int k = 0;
    preset_gpu_topology(db, &db->gpus[gi], &ul, &uo, &k);
    int a = link_index(db, ul), b = link_index(db, uo);
    if (!(o && o->link) && a >= 0)
        slider_set(&x->ctl.s[CTL_INTRA], a);
    if (!(o && o->inter_link) && b >= 0)
        slider_set(&x->ctl.s[CTL_INTER], b);
    if (!(o && o->gpus_per_node > 0) && k > 0)
        slider_set(&x->ctl.s[CTL_PER_NODE], k);
    x->ctl.framework = -1;
    for (int i = 0; i < db->n_frameworks; i++)
        if (!strcasecmp(db->frameworks[i].name, o && o->framework ? o->framework : "generic"))
            x->ctl.framework = i;
    if (o && o->framework && x->ctl.framework < 0) {
        engine_errorf(err, "unknown framework '%s'", o->framework);
        return -1;
    }
    if (o && o->spec_method > 0 && o->spec_method < ENGINE_SPEC_COUNT) {
        double p;
        x->ctl.spec_method = o->spec_method;
        engine_spec_default((engine_spec_method)o->spec_method, &x->ctl.spec_k, &p);
        x->ctl.spec_pct = (int)(p * 100 + 0.5);
        if (o->spec_k >= 0)
            x->ctl.spec_k = o->spec_k > ENGINE_MAX_SPEC_K ? ENGINE_MAX_SPEC_K : o->spec_k;
        if (o->spec_pct >= 0)
            x->ctl.spec_pct = o->spec_pct > 100 ? 100 : o->spec_pct;
    }
    x->ctl.sel = CTL_GPUS;
    return 0;
}
