/*
 * cli_list.c - `shardscope list models|gpus|links [--json]`: the loaded
 * presets as tables with units (GB = 1e9 bytes, GB/s, TFLOPS, $/GPU-h with
 * its date, parameters in billions) or as JSON with every entry's source.
 * Rejected preset entries are printed on stderr and make the exit status 2,
 * after everything that did load has been printed.
 */
#include <math.h>
#include <string.h>

#include "cli.h"
#include "cli_common.h"
#include "cli_json.h"

static void list_help(FILE *f)
{
    fprintf(f,
            "usage: shardscope list models|gpus|links [--json]\n"
            "\n"
            "Print the loaded presets (shipped, plus ~/.config/shardscope/*.json).\n"
            "  models  layers, hidden size, heads/KV heads, parameters (B = 1e9), context\n"
            "  gpus    memory (GB = 1e9 bytes), HBM bandwidth (GB/s), dense TFLOPS per\n"
            "          dtype, default achievable fractions, price ($ per GPU-hour, dated)\n"
            "  links   latency per message (alpha, \xc2\xb5s), fixed cost per collective\n"
            "          (base, \xc2\xb5s) and bandwidth per direction (GB/s)\n"
            "  --json  one object {\"models\"|\"gpus\"|\"links\": [...]} with sources\n"
            "Rejected entries are reported on stderr; the exit status is then 2.\n");
}

/* --- models ----------------------------------------------------------- */

static int list_models(const preset_db *db, int json)
{
    if (json) {
        cJSON *root = cJSON_CreateObject();
        cJSON *arr = cJSON_AddArrayToObject(root, "models");
        for (int i = 0; i < db->n_models; i++) {
            const engine_model *m = &db->models[i];
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
            cJSON_AddNumberToObject(o, "experts", m->experts);
            cJSON_AddNumberToObject(o, "top_k", m->top_k);
            cJSON_AddNumberToObject(o, "shared_experts", m->shared_experts);
            cJSON_AddBoolToObject(o, "mla", m->mla != 0);
            cli_json_add_number(o, "params", engine_model_params(m));
            cli_json_add_number(o, "active_params", engine_model_active_params(m));
            if (m->params_published > 0)
                cli_json_add_number(o, "params_published", m->params_published);
            else
                cJSON_AddNullToObject(o, "params_published");
            cli_json_add_number(o, "kv_bytes_per_token_fp16",
                                engine_kv_bytes_per_token(m, ENGINE_FP16));
            cJSON_AddStringToObject(o, "source", m->source);
            cJSON_AddItemToArray(arr, o);
        }
        return cli_json_print("list", stdout, root);
    }
    printf("%-16s %-18s %6s %6s %9s %10s %10s %8s %8s %11s\n", "NAME", "MODEL", "LAYERS",
           "HIDDEN", "HEADS/KV", "PARAMS", "ACTIVE", "PUBL.", "CONTEXT", "KV/TOKEN");
    for (int i = 0; i < db->n_models; i++) {
        const engine_model *m = &db->models[i];
        char heads[32], params[32], active[32], publ[32], kv[32];
        snprintf(heads, sizeof heads, "%d/%d", m->heads, m->kv_heads);
        cli_fmt_count(engine_model_params(m), params, sizeof params);
        if (m->experts > 0)
            cli_fmt_count(engine_model_active_params(m), active, sizeof active);
        else
            snprintf(active, sizeof active, "-");
        if (m->params_published > 0)
            cli_fmt_count(m->params_published, publ, sizeof publ);
        else
            snprintf(publ, sizeof publ, "-");
        cli_fmt_bytes(engine_kv_bytes_per_token(m, ENGINE_FP16), kv, sizeof kv);
        printf("%-16s %-18s %6d %6d %9s %10s %10s %8s %8d %11s\n", m->name, m->display,
               m->layers, m->hidden, heads, params, active, publ, m->context, kv);
    }
    printf("PARAMS counted from the architecture, PUBL. as published; M = 1e6, B = 1e9 parameters.\n"
           "KV/TOKEN: KV-cache bytes per token, whole model, fp16 (kB = 1e3 bytes).\n");
    return 0;
}

/* --- gpus ------------------------------------------------------------- */

static int list_gpus(const preset_db *db, int json)
{
    if (json) {
        cJSON *root = cJSON_CreateObject();
        cJSON *arr = cJSON_AddArrayToObject(root, "gpus");
        for (int i = 0; i < db->n_gpus; i++) {
            const engine_gpu *g = &db->gpus[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", g->name);
            cJSON_AddStringToObject(o, "display", g->display);
            cli_json_add_number(o, "memory_bytes", g->memory_bytes);
            cli_json_add_number(o, "hbm_bytes_per_s", g->hbm_bytes_per_s);
            cJSON *peak = cJSON_AddObjectToObject(o, "peak_flops");
            for (int d = 0; d < ENGINE_DTYPE_COUNT; d++) {
                if (g->peak_flops[d] > 0)
                    cli_json_add_number(peak, engine_dtype_name((engine_dtype)d),
                                        g->peak_flops[d]);
                else
                    cJSON_AddNullToObject(peak, engine_dtype_name((engine_dtype)d));
            }
            cli_json_add_number(o, "eta_compute", g->eta_compute);
            cli_json_add_number(o, "eta_memory", g->eta_memory);
            cli_json_add_number(o, "layer_overhead_s", g->layer_overhead_s);
            if (g->price_per_hour > 0)
                cli_json_add_number(o, "price_per_hour_usd", g->price_per_hour);
            else
                cJSON_AddNullToObject(o, "price_per_hour_usd");
            if (g->price_date[0])
                cJSON_AddStringToObject(o, "price_date", g->price_date);
            else
                cJSON_AddNullToObject(o, "price_date");
            cJSON_AddStringToObject(o, "source", g->source);
            cJSON_AddItemToArray(arr, o);
        }
        return cli_json_print("list", stdout, root);
    }
    printf("%-12s %-16s %8s %10s %9s %9s %9s %6s %6s %s\n", "NAME", "GPU", "MEMORY", "HBM",
           "FP16", "FP8", "INT8", "ETA_C", "ETA_M", "PRICE");
    for (int i = 0; i < db->n_gpus; i++) {
        const engine_gpu *g = &db->gpus[i];
        char mem[32], hbm[32], f16[32], f8[32], i8[32], price[64];
        snprintf(mem, sizeof mem, "%.2f GB", g->memory_bytes / 1e9);
        snprintf(hbm, sizeof hbm, "%.0f GB/s", g->hbm_bytes_per_s / 1e9);
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
        printf("%-12s %-16s %8s %10s %9s %9s %9s %6.2f %6.2f %s\n", g->name, g->display, mem,
               hbm, f16, f8, i8, g->eta_compute, g->eta_memory, price);
    }
    printf("MEMORY in GB (1e9 bytes); HBM peak in GB/s; FP16/FP8/INT8 dense peak in TFLOPS\n"
           "(- : no native support, computed at the FP16 rate); ETA_C/ETA_M: default\n"
           "achievable fractions of peak compute / HBM bandwidth; PRICE in USD per GPU-hour.\n");
    return 0;
}

/* --- links ------------------------------------------------------------ */

static int list_links(const preset_db *db, int json)
{
    if (json) {
        cJSON *root = cJSON_CreateObject();
        cJSON *arr = cJSON_AddArrayToObject(root, "links");
        for (int i = 0; i < db->n_links; i++) {
            const engine_link *l = &db->links[i];
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", l->name);
            cJSON_AddStringToObject(o, "display", l->display);
            cli_json_add_number(o, "alpha_s", l->alpha_s);
            cli_json_add_number(o, "base_s", l->base_s);
            cli_json_add_number(o, "bytes_per_s", l->bytes_per_s);
            cJSON_AddStringToObject(o, "source", l->source);
            cJSON_AddItemToArray(arr, o);
        }
        return cli_json_print("list", stdout, root);
    }
    printf("%-16s %-28s %12s %12s %14s\n", "NAME", "INTERCONNECT", "ALPHA", "BASE",
           "BANDWIDTH");
    for (int i = 0; i < db->n_links; i++) {
        const engine_link *l = &db->links[i];
        char alpha[32], base[32], bw[32];
        cli_fmt_seconds(l->alpha_s, alpha, sizeof alpha);
        cli_fmt_seconds(l->base_s, base, sizeof base);
        snprintf(bw, sizeof bw, "%.2f GB/s", l->bytes_per_s / 1e9);
        printf("%-16s ", l->name);
        cli_put_col(stdout, l->display, 28);
        printf(" ");
        cli_put_col(stdout, alpha, -12);
        printf(" ");
        cli_put_col(stdout, base, -12);
        printf(" %14s\n", bw);
    }
    printf("ALPHA: latency per message (per ring step); BASE: fixed cost per collective\n"
           "(launch, synchronisation); BANDWIDTH: achievable, per direction, GB/s = 1e9 bytes/s.\n");
    return 0;
}

int cli_cmd_list(int argc, char **argv, const preset_db *db)
{
    int json = 0;
    const cli_opt opts[] = {{"--json", CLI_OPT_FLAG, &json, 0, 0, NULL}};
    const char *what[2] = {NULL, NULL};
    int n_pos = 0;
    int rc = cli_opts_parse("list", argc, argv, opts, 1, what, 2, &n_pos);
    if (rc == CLI_HELP) {
        list_help(stdout);
        return CLI_OK;
    }
    if (rc != CLI_OK)
        return rc;
    if (n_pos != 1) {
        fprintf(stderr, "shardscope list: %s (models, gpus or links)\n",
                n_pos == 0 ? "what to list?" : "one kind at a time");
        return CLI_USAGE;
    }
    if (!strcmp(what[0], "models"))
        rc = list_models(db, json);
    else if (!strcmp(what[0], "gpus"))
        rc = list_gpus(db, json);
    else if (!strcmp(what[0], "links"))
        rc = list_links(db, json);
    else {
        fprintf(stderr, "shardscope list: unknown kind '%s' (models, gpus or links)\n", what[0]);
        return CLI_USAGE;
    }
    if (cli_print_db_errors(db) > 0)
        return CLI_USAGE;
    return rc;
}
