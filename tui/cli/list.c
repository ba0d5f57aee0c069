/*
 * list.c - `shardscope list models|gpus|links [--json]`: the loaded
 * presets as tables with units (GB = 1e9 bytes, GB/s, TFLOPS, $/GPU-h with
 * its date, parameters in billions) or as JSON with every entry's source.
 * Rejected preset entries are printed on stderr and make the exit status 2,
 * after everything that did load has been printed.
 */
#include <math.h>
#include <string.h>

#include "cli.h"
#include "cli_common.h"
#include "json.h"
#include "sim.h"

static const cli_opt LIST_OPTS[] = {
    {.name = "--json", .kind = CLI_OPT_FLAG, .off = CLI_AT(json),
     .help = "one object {\"models\"|\"gpus\"|\"links\"|\"frameworks\": [...]}\n"
             "with sources"},
    {.name = NULL},
};

const cli_options cli_list_options = {
    .tables = {LIST_OPTS},
    .max_pos = 2, /* one kind; a second is reported as "one kind at a time" */
    .about = "Print the loaded presets (shipped, plus ~/.config/shardscope/*.json).\n"
             "  models  layers, hidden size, heads/KV heads, parameters (B = 1e9), context\n"
             "  gpus    memory (GB = 1e9 bytes), HBM bandwidth (GB/s or TB/s), dense\n"
             "          TFLOPS per dtype, default achievable fractions, price ($ per\n"
             "          GPU-hour, dated) and the usual topology (intra link x NVLink\n"
             "          domain + scale-out)\n"
             "  links   latency per message (alpha, \xc2\xb5s), fixed cost per collective\n"
             "          (base, \xc2\xb5s), bandwidth per direction (GB/s), kind, and which\n"
             "          collectives have measured time-vs-size curves\n"
             "  frameworks  serving-framework profiles (--framework): CUDA graphs,\n"
             "          launch and per-step cost (\xc2\xb5s), custom all-reduce, memory rule\n",
    .footer = "Rejected entries are reported on stderr; the exit status is then 2.\n",
};

/* --- models ----------------------------------------------------------- */

/* One model preset as JSON: its shape, parameter counts and source. */
static cJSON *model_json(const engine_model *m)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", m->name);
    cJSON_AddStringToObject(o, "display", m->display);
    cJSON_AddNumberToObject(o, "layers", m->layers);
    cJSON_AddNumberToObject(o, "hidden", m->hidden);
    cJSON_AddNumberToObject(o, "heads", m->heads);
    cJSON_AddNumberToObject(o, "kv_heads", m->kv_heads);
    cJSON_AddNumberToObject(o, "head_dim", m->head_dim);
    cJSON_AddNumberToObject(o, "ffn", m->ffn);
    cJSON_AddNumberToObject(o, "vocab", m->vocab);
    cJSON_AddNumberToObject(o, "context", m->context);
    cJSON_AddStringToObject(o, "mlp", m->gated_mlp ? "swiglu" : "gelu");
    cJSON_AddBoolToObject(o, "tied_embeddings", m->tied_embeddings != 0);
    cJSON_AddBoolToObject(o, "parallel_ar_once", m->parallel_ar_once != 0);
    cJSON_AddNumberToObject(o, "experts", m->experts);
    cJSON_AddNumberToObject(o, "top_k", m->top_k);
    cJSON_AddNumberToObject(o, "shared_experts", m->shared_experts);
    cJSON_AddBoolToObject(o, "mla", m->mla != 0);
    cJSON_AddNumberToObject(o, "moe_every", m->moe_every);
    cJSON_AddNumberToObject(o, "window", m->window);
    cJSON_AddNumberToObject(o, "global_every", m->global_every);
    cJSON_AddNumberToObject(o, "num_nextn_predict_layers", m->mtp_layers);
    cJSON_AddNumberToObject(o, "n_group", m->n_group);
    cJSON_AddNumberToObject(o, "topk_group", m->topk_group);
    cJSON_AddNumberToObject(o, "weight_block", m->weight_block);
    cJSON_AddStringToObject(o, "weights", engine_dtype_name(m->weight_dtype));
    cJSON_AddNumberToObject(o, "quant_group", m->quant_group);
    cJSON_AddBoolToObject(o, "attn_16bit", m->attn_16bit != 0);
    cJSON_AddBoolToObject(o, "attn_16bit_fp4", m->attn_16bit_fp4 != 0);
    cJSON_AddBoolToObject(o, "attn_out_fp4", m->attn_out_fp4 != 0);
    cli_json_add_number(o, "params", engine_model_params(m));
    cli_json_add_number(o, "active_params", engine_model_active_params(m));
    out_json_add_positive(o, "params_published", m->params_published);
    if (m->hf_id[0])
        cJSON_AddStringToObject(o, "hf_id", m->hf_id);
    else
        cJSON_AddNullToObject(o, "hf_id");
    cli_json_add_number(o, "kv_bytes_per_token_fp16",
                        engine_kv_bytes_per_token(m, ENGINE_FP16));
    cJSON_AddStringToObject(o, "source", m->source);
    return o;
}

static int list_models(const preset_db *db, int json)
{
    if (json) {
        cJSON *root = cJSON_CreateObject();
        cJSON *arr = cJSON_AddArrayToObject(root, "models");
        for (int i = 0; i < db->n_models; i++)
            cJSON_AddItemToArray(arr, model_json(&db->models[i]));
        return cli_json_print("list", stdout, root);
    }
    int wn = 4, wd = 5;
    for (int i = 0; i < db->n_models; i++) {
        wn = out_width_max(wn, db->models[i].name);
        wd = out_width_max(wd, db->models[i].display);
    }
    out_put_col(stdout, "NAME", wn);
    printf(" ");
    out_put_col(stdout, "MODEL", wd);
    printf(" %6s %6s %9s %10s %10s %9s %9s %11s\n", "LAYERS", "HIDDEN", "HEADS/KV", "PARAMS",
           "ACTIVE", "PUBL.", "CONTEXT", "KV/TOKEN");
    for (int i = 0; i < db->n_models; i++) {
        const engine_model *m = &db->models[i];
        char heads[32], params[32], active[32], publ[32], kv[32];
        snprintf(heads, sizeof heads, "%d/%d", m->heads, m->kv_heads);
        fmt_count(engine_model_params(m), params, sizeof params);
        if (m->experts > 0)
            fmt_count(engine_model_active_params(m), active, sizeof active);
        else
            snprintf(active, sizeof active, "-");
        if (m->params_published > 0)
            fmt_count(m->params_published, publ, sizeof publ);
        else
            snprintf(publ, sizeof publ, "-");
        fmt_bytes(engine_kv_bytes_per_token(m, ENGINE_FP16), kv, sizeof kv);
        out_put_col(stdout, m->name, wn);
        printf(" ");
        out_put_col(stdout, m->display, wd);
        printf(" %6d %6d %9s %10s %10s %9s %9d %11s\n", m->layers, m->hidden, heads, params,
               active, publ, m->context, kv);
    }
    printf("PARAMS counted from the architecture, PUBL. as published; M = 1e6, B = 1e9 parameters.\n"
           "KV/TOKEN: KV-cache bytes per token, whole model, fp16 (kB = 1e3 bytes).\n");
    return 0;
}

/* --- gpus ------------------------------------------------------------- */

/* One GPU preset as JSON: every constant and the source. */
static cJSON *gpu_json(const engine_gpu *g)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", g->name);
    cJSON_AddStringToObject(o, "display", g->display);
    cli_json_add_number(o, "memory_bytes", g->memory_bytes);
    cli_json_add_number(o, "hbm_bytes_per_s", g->hbm_bytes_per_s);
    cJSON *peak = cJSON_AddObjectToObject(o, "peak_flops");
    for (int d = 0; d < ENGINE_DTYPE_COUNT; d++) {
        out_json_add_positive(peak, engine_dtype_name((engine_dtype)d), g->peak_flops[d]);
    }
    cli_json_add_number(o, "eta_compute", g->eta_compute);
    cli_json_add_number(o, "eta_memory", g->eta_memory);
    cli_json_add_number(o, "eta_compute_fp8", g->eta_compute_fp8);
    cli_json_add_number(o, "eta_kv", g->eta_kv);
    cli_json_add_number(o, "eta_attn", g->eta_attn);
    cli_json_add_number(o, "sm_count", g->sm_count);
    cli_json_add_number(o, "gemm_t0_s", g->gemm_t0_s);
    cli_json_add_number(o, "gemm_t0_fp8_s", g->gemm_t0_fp8_s);
    cli_json_add_number(o, "eta_compute_fp8_block", g->eta_compute_fp8_block);
    cli_json_add_number(o, "gemm_t0_fp8_block_s", g->gemm_t0_fp8_block_s);
    cli_json_add_number(o, "gemm_roof_p_fp8_block", g->gemm_roof_p_fp8_block); /* 0: the max */
    cJSON_AddBoolToObject(o, "deepgemm", g->deepgemm != 0);
    cli_json_add_number(o, "eta_moe", g->eta_moe);
    cli_json_add_number(o, "eta_moe_fp8", g->eta_moe_fp8);
    cli_json_add_number(o, "eta_moe_fp8_block", g->eta_moe_fp8_block);
    cli_json_add_number(o, "eta_moe_fp4", g->eta_moe_fp4);
    cli_json_add_number(o, "eta_moe_w4a8", g->eta_moe_w4a8);
    cli_json_add_number(o, "moe_w4a8_token_s", g->moe_w4a8_token_s);
    cli_json_add_number(o, "moe_roof_p", g->moe_roof_p);
    cli_json_add_number(o, "eta_moe_rows", g->eta_moe_rows);         /* 0: eta_small */
    cli_json_add_number(o, "fp32_flops", g->fp32_flops);             /* 0: none */
    cli_json_add_number(o, "l2_bytes_per_s", g->l2_bytes_per_s);     /* 0: none */
    cli_json_add_number(o, "fp16_acc16_flops", g->fp16_acc16_flops); /* 0: no split */
    cli_json_add_number(o, "attn_t0_s", g->attn_t0_s);
    cli_json_add_number(o, "decode_attn_t0_s", g->decode_attn_t0_s);
    cli_json_add_number(o, "kernel_floor_s", g->kernel_floor_s);
    cli_json_add_number(o, "layer_overhead_s", g->layer_overhead_s);
    cJSON_AddStringToObject(o, "link", g->link);
    cJSON_AddStringToObject(o, "scale_out", g->scale_out);
    cJSON_AddNumberToObject(o, "nvlink_domain", g->nvlink_domain);
    cJSON_AddNumberToObject(o, "node_gpus", g->node_gpus > 0 ? g->node_gpus : 8);
    out_json_add_positive(o, "price_per_hour_usd", g->price_per_hour);
    if (g->price_date[0])
        cJSON_AddStringToObject(o, "price_date", g->price_date);
    else
        cJSON_AddNullToObject(o, "price_date");
    cJSON_AddStringToObject(o, "source", g->source);
    return o;
}

static int list_gpus(const preset_db *db, int json)
{
    if (json) {
        cJSON *root = cJSON_CreateObject();
        cJSON *arr = cJSON_AddArrayToObject(root, "gpus");
        for (int i = 0; i < db->n_gpus; i++) {
            cJSON_AddItemToArray(arr, gpu_json(&db->gpus[i]));
        }
        return cli_json_print("list", stdout, root);
    }
    int wn = 4, wd = 3;
    for (int i = 0; i < db->n_gpus; i++) {
        wn = out_width_max(wn, db->gpus[i].name);
        wd = out_width_max(wd, db->gpus[i].display);
    }
    out_put_col(stdout, "NAME", wn);
    printf(" ");
    out_put_col(stdout, "GPU", wd);
    printf(" %9s %10s %9s %9s %9s %6s %6s %-21s %s\n", "MEMORY", "HBM", "FP16", "FP8", "INT8",
           "ETA_C", "ETA_M", "TOPOLOGY", "PRICE");
    for (int i = 0; i < db->n_gpus; i++) {
        const engine_gpu *g = &db->gpus[i];
        char mem[32], hbm[32], f16[32], f8[32], i8[32], price[64];
        fmt_gb(g->memory_bytes, mem, sizeof mem);
        fmt_rate(g->hbm_bytes_per_s, "B/s", hbm, sizeof hbm);
        snprintf(f16, sizeof f16, "%.1f", g->peak_flops[ENGINE_FP16] / 1e12);
        if (g->peak_flops[ENGINE_FP8] > 0)
            snprintf(f8, sizeof f8, "%.1f", g->peak_flops[ENGINE_FP8] / 1e12);
        else
            snprintf(f8, sizeof f8, "-");
        if (g->peak_flops[ENGINE_INT8] > 0)
            snprintf(i8, sizeof i8, "%.1f", g->peak_flops[ENGINE_INT8] / 1e12);
        else
            snprintf(i8, sizeof i8, "-");
        if (g->price_per_hour > 0)
            snprintf(price, sizeof price, "$%.2f/GPU-h (%s)", g->price_per_hour,
                     g->price_date[0] ? g->price_date : "undated");
        else
            snprintf(price, sizeof price, "-");
        char topo[96];
        int k = g->nvlink_domain > 0 ? g->nvlink_domain : (g->node_gpus > 0 ? g->node_gpus : 8);
        snprintf(topo, sizeof topo, "%.24s x%d + %.24s", g->link[0] ? g->link : "?", k,
                 g->scale_out[0] ? g->scale_out : "?");
        out_put_col(stdout, g->name, wn);
        printf(" ");
        out_put_col(stdout, g->display, wd);
        printf(" %9s %10s %9s %9s %9s %6.2f %6.2f %-21s %s\n", mem, hbm, f16, f8, i8,
               g->eta_compute, g->eta_memory, topo, price);
    }
    printf("MEMORY in GB (1e9 bytes); HBM peak in GB/s; FP16/FP8/INT8 dense peak in TFLOPS\n"
           "(- : no native support, computed at the FP16 rate); ETA_C/ETA_M: default\n"
           "achievable fractions of peak compute / HBM bandwidth (GEMMs); TOPOLOGY: the\n"
           "intra link x the GPUs it joins (NVLink domain, or a PCIe node) + the scale-out\n"
           "link; PRICE in USD per GPU-hour.\n");
    return 0;
}

/* --- links ------------------------------------------------------------ */

/* One link preset as JSON: its alpha-beta constants, measured curves and
 * source. */
static cJSON *link_json(const engine_link *l)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", l->name);
    cJSON_AddStringToObject(o, "display", l->display);
    cli_json_add_number(o, "alpha_s", l->alpha_s);
    cli_json_add_number(o, "base_s", l->base_s);
    cli_json_add_number(o, "eager_s", l->eager_s);
    cli_json_add_number(o, "bytes_per_s", l->bytes_per_s);
    cJSON_AddStringToObject(o, "kind", engine_link_kind_name(l->kind));
    cJSON_AddNumberToObject(o, "mesh_links", l->mesh_links);
    if (l->socket_gpus > 0) {
        cJSON_AddNumberToObject(o, "socket_gpus", l->socket_gpus);
        cli_json_add_number(o, "cross_socket", l->cross_socket);
    }
    cJSON *cv = cJSON_AddObjectToObject(o, "curves");
    for (int op = 0; cv && op < ENGINE_OP_COUNT; op++) {
        const engine_curve *c = &l->curve[op];
        if (c->n < 1)
            continue;
        cJSON *co = cJSON_AddObjectToObject(cv, engine_collective_name((engine_collective)op));
        if (!co)
            continue;
        cJSON_AddNumberToObject(co, "gpus", c->gpus);
        cJSON *pts = cJSON_AddArrayToObject(co, "points");
        for (int j = 0; pts && j < c->n; j++) {
            cJSON *pt = cJSON_CreateObject();
            cli_json_add_number(pt, "bytes", c->bytes[j]);
            cli_json_add_number(pt, "time_s", c->time_s[j]);
            cJSON_AddItemToArray(pts, pt);
        }
    }
    cJSON_AddStringToObject(o, "source", l->source);
    return o;
}

static int list_links(const preset_db *db, int json)
{
    if (json) {
        cJSON *root = cJSON_CreateObject();
        cJSON *arr = cJSON_AddArrayToObject(root, "links");
        for (int i = 0; i < db->n_links; i++)
            cJSON_AddItemToArray(arr, link_json(&db->links[i]));
        return cli_json_print("list", stdout, root);
    }
    printf("%-16s %-28s %12s %12s %14s %-7s %s\n", "NAME", "INTERCONNECT", "ALPHA", "BASE",
           "BANDWIDTH", "KIND", "MEASURED");
    for (int i = 0; i < db->n_links; i++) {
        const engine_link *l = &db->links[i];
        char alpha[32], base[32], bw[32];
        fmt_seconds(l->alpha_s, NULL, alpha, sizeof alpha);
        fmt_seconds(l->base_s, NULL, base, sizeof base);
        fmt_rate(l->bytes_per_s, "B/s", bw, sizeof bw);
        printf("%-16s ", l->name);
        out_put_col(stdout, l->display, 28);
        printf(" ");
        out_put_col(stdout, alpha, -12);
        printf(" ");
        out_put_col(stdout, base, -12);
        char measured[96] = "";
        for (int op = 0; op < ENGINE_OP_COUNT; op++)
            if (l->curve[op].n > 0) {
                size_t u = strlen(measured);
                snprintf(measured + u, sizeof measured - u, "%s%s", u ? "," : "",
                         engine_collective_name((engine_collective)op));
            }
        printf(" %14s %-7s %s\n", bw, engine_link_kind_name(l->kind),
               measured[0] ? measured : "-");
    }
    printf("ALPHA: latency per message (per ring step); BASE: fixed cost per collective\n"
           "(launch, synchronisation); BANDWIDTH: achievable, per direction, GB/s = 1e9 bytes/s;\n"
           "MEASURED: collectives with a measured time-vs-size curve (else alpha-beta).\n");
    return 0;
}

/* --- frameworks ------------------------------------------------------- */

/* f's host loop by engine generation (frameworks.json host_loop) as
 * {"v0": {step_s, seq_step_s, source, custom_allreduce_off_xgmi}, ...}, only
 * the generations it states; nothing when it states none. */
static void add_host_loop(cJSON *o, const engine_framework *f)
{
    cJSON *hl = NULL;
    for (int g = ENGINE_FWV_DEFAULT + 1; g < ENGINE_FWV_COUNT; g++) {
        if (!f->host_loop[g].set)
            continue;
        if (!hl)
            hl = cJSON_AddObjectToObject(o, "host_loop");
        cJSON *e = cJSON_AddObjectToObject(hl, engine_fw_version_name((engine_fw_version)g));
        cli_json_add_number(e, "step_s", f->host_loop[g].step_s);
        cli_json_add_number(e, "seq_step_s", f->host_loop[g].seq_step_s);
        cJSON_AddStringToObject(e, "source", f->host_loop[g].source);
        cJSON_AddBoolToObject(e, "custom_allreduce_off_xgmi", f->host_loop[g].xgmi_no_custom_ar);
    }
}

/* One framework profile as JSON: its host costs, memory rule and source. */
static cJSON *framework_json(const engine_framework *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", f->name);
    cJSON_AddStringToObject(o, "display", f->display);
    cJSON_AddBoolToObject(o, "cuda_graphs", f->cuda_graphs != 0);
    cli_json_add_number(o, "launch_s", f->launch_s);
    cli_json_add_number(o, "graph_kernel_s", f->graph_kernel_s);
    cli_json_add_number(o, "step_s", f->step_s);
    cli_json_add_number(o, "seq_step_s", f->seq_step_s);
    add_host_loop(o, f);
    cJSON_AddBoolToObject(o, "deepgemm", f->deepgemm != 0);
    cJSON_AddBoolToObject(o, "moe_expand", f->moe_expand != 0);
    cJSON_AddBoolToObject(o, "local_kv_full", f->local_kv_full != 0);
    cJSON_AddBoolToObject(o, "prefill_graphs", f->prefill_graphs != 0);
    cJSON_AddNumberToObject(o, "prefill_graph_tokens", f->prefill_graph_tokens);
    cJSON_AddNumberToObject(o, "prefill_graph_mla_tokens", f->prefill_graph_mla_tokens);
    cJSON_AddNumberToObject(o, "graph_capture_max", f->graph_capture_max);
    cli_json_add_number(o, "graph_capture_seqs", f->graph_capture_seqs);
    cJSON_AddNumberToObject(o, "max_num_seqs", f->max_num_seqs);
    cJSON_AddNumberToObject(o, "req_pool_per_context", f->req_pool_per_context);
    cJSON_AddNumberToObject(o, "req_pool_min", f->req_pool_min);
    cJSON_AddStringToObject(o, "kv_alloc", engine_sim_kv_name((engine_sim_kv)f->kv_alloc));
    cJSON_AddBoolToObject(o, "parallel_ar_once", f->parallel_ar_once != 0);
    cli_json_add_number(o, "request_s", f->request_s);
    cli_json_add_number(o, "custom_allreduce_max_bytes", f->custom_ar_max_bytes);
    cli_json_add_number(o, "custom_allreduce_s", f->custom_ar_s);
    cJSON_AddStringToObject(o, "memory_rule", engine_mem_rule_name(f->mem_rule));
    cli_json_add_number(o, "memory_fraction", f->mem_fraction);
    if (f->reserve.base_mib > 0) {
        const engine_mem_reserve *r = &f->reserve;
        cJSON *m = cJSON_AddObjectToObject(o, "memory_reserve");
        cli_json_add_number(m, "base_mib", r->base_mib);
        cli_json_add_number(m, "chunk_token_mib", r->chunk_token_mib);
        cli_json_add_number(m, "graph_seq_mib", r->graph_seq_mib);
        cli_json_add_number(m, "group_mib", r->group_mib);
        cli_json_add_number(m, "dp_attn_mib", r->dp_attn_mib);
        cli_json_add_number(m, "dp_attn_big_mib", r->dp_attn_big_mib);
        cli_json_add_number(m, "piecewise_mib", r->piecewise_mib);
        cli_json_add_number(m, "floor_mib", r->floor_mib);
        cli_json_add_number(m, "floor_above_gib", r->floor_above_gib);
        cli_json_add_number(m, "eagle_mib", r->eagle_mib);
        cli_json_add_number(m, "draft_mib", r->draft_mib);
    } else {
        cJSON_AddNullToObject(o, "memory_reserve");
    }
    cJSON *tiers = cJSON_AddArrayToObject(o, "gpu_tiers");
    for (int t = 0, n = engine_framework_tiers(f); tiers && t < n; t++) {
        const engine_fw_tier *tr = &f->tier[t];
        cJSON *e = cJSON_CreateObject();
        if (tr->below_gib > 0)
            cli_json_add_number(e, "below_gib", tr->below_gib);
        else
            cJSON_AddNullToObject(e, "below_gib");
        cJSON_AddNumberToObject(e, "max_num_tokens", tr->max_num_tokens);
        cJSON_AddNumberToObject(e, "max_num_seqs", tr->max_num_seqs);
        cJSON_AddNumberToObject(e, "graph_bs", tr->graph_bs);
        cJSON_AddNumberToObject(e, "graph_bs_tp4", tr->graph_bs_tp4);
        cJSON_AddItemToArray(tiers, e);
    }
    cJSON_AddStringToObject(o, "gpu_tier_exclude", f->tier_exclude);
    cli_json_add_number(o, "runtime_bytes", f->runtime_bytes);
    cJSON_AddStringToObject(o, "source", f->source);
    return o;
}

static int list_frameworks(const preset_db *db, int json)
{
    if (json) {
        cJSON *root = cJSON_CreateObject();
        cJSON *arr = cJSON_AddArrayToObject(root, "frameworks");
        for (int i = 0; i < db->n_frameworks; i++)
            cJSON_AddItemToArray(arr, framework_json(&db->frameworks[i]));
        return cli_json_print("list", stdout, root);
    }
    printf("%-10s %-16s %6s %9s %10s %-22s %s\n", "NAME", "FRAMEWORK", "GRAPHS", "LAUNCH",
           "STEP", "CUSTOM AR", "MEMORY");
    for (int i = 0; i < db->n_frameworks; i++) {
        const engine_framework *f = &db->frameworks[i];
        char launch[32], step[32], ar[48], arb[32], lat[32], mem[64], rt[32];
        fmt_seconds(f->launch_s, NULL, launch, sizeof launch);
        fmt_seconds(f->step_s, NULL, step, sizeof step);
        if (f->custom_ar_max_bytes > 0)
            snprintf(ar, sizeof ar, "<= %s, %s", fmt_bytes_iec(f->custom_ar_max_bytes, arb,
                sizeof arb),
                     fmt_seconds(f->custom_ar_s, NULL, lat, sizeof lat));
        else
            snprintf(ar, sizeof ar, "-");
        if (f->reserve.base_mib > 0) /* SGLang: a reserve by plan and GPU */
            snprintf(mem, sizeof mem, "total less a reserve by plan, %s runtime",
                     fmt_bytes(f->runtime_bytes, rt, sizeof rt));
        else
            snprintf(mem, sizeof mem, "%.3g of %s, %s runtime", f->mem_fraction,
                     f->mem_rule == ENGINE_MEM_FREE ? "free" : "total",
                     fmt_bytes(f->runtime_bytes, rt, sizeof rt));
        printf("%-10s ", f->name);
        out_put_col(stdout, f->display, 16);
        printf(" %6s ", f->cuda_graphs ? "yes" : "no");
        out_put_col(stdout, launch, -9);
        printf(" ");
        out_put_col(stdout, step, -10);
        printf(" ");
        out_put_col(stdout, ar, 22);
        printf(" %s\n", mem);
    }
    printf("GRAPHS: decode steps replay a CUDA graph; LAUNCH: host cost per eager kernel\n"
           "launch; STEP: fixed cost per engine step (scheduling, sampling, host sync);\n"
           "CUSTOM AR: the framework's own all-reduce for messages up to that size inside\n"
           "an NVLink domain, and its fixed cost; MEMORY: the budget rule (of the total\n"
           "memory, or of what is free after the weights) and the runtime overhead (GB).\n");
    return 0;
}

int cli_list_run(const cli_opts *o, const preset_db *db)
{
    int rc, json = o->v.json, n_pos = o->n_pos;
    const char *const *what = o->pos;
    if (n_pos != 1) {
        fprintf(stderr, "shardscope list: %s (models, gpus, links or frameworks)\n",
                n_pos == 0 ? "what to list?" : "one kind at a time");
        return CLI_USAGE;
    }
    if (!strcmp(what[0], "models"))
        rc = list_models(db, json);
    else if (!strcmp(what[0], "gpus"))
        rc = list_gpus(db, json);
    else if (!strcmp(what[0], "links"))
        rc = list_links(db, json);
    else if (!strcmp(what[0], "frameworks"))
        rc = list_frameworks(db, json);
    else {
        fprintf(stderr, "shardscope list: unknown kind '%s' (models, gpus, links or frameworks)\n",
                what[0]);
        return CLI_USAGE;
    }
    if (cli_print_db_errors(db) > 0)
        return CLI_USAGE;
    return rc;
}
