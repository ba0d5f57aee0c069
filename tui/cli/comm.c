/*
 * cli_comm.c - `shardscope comm`: the alpha-beta time of one collective
 * over an interconnect, with nccl-tests' algorithm and bus bandwidths
 * (algbw = bytes / time, busbw = algbw * engine_busbw_factor).
 */
#include <math.h>
#include <string.h>

#include "cli.h"
#include "cli_common.h"
#include "cli_json.h"

static void comm_help(FILE *f)
{
    fprintf(f,
            "usage: shardscope comm --link L --gpus N --bytes SIZE\n"
            "                       [--op allreduce|allgather|reducescatter|alltoall|p2p]\n"
            "                       [--gpus-per-node K --inter-link L2] [--json]\n"
            "\n"
            "Time one collective with the alpha-beta model (nccl-tests conventions:\n"
            "SIZE is the buffer per GPU; algbw = SIZE / time; busbw = algbw * factor,\n"
            "factor 2(n-1)/n for allreduce, (n-1)/n for allgather, reducescatter and\n"
            "alltoall, 1 for p2p).\n"
            "  --link L           interconnect inside a node (shardscope list links)\n"
            "  --gpus N           GPUs taking part, 1..1048576\n"
            "  --bytes SIZE       1024, 4KiB, 16MiB, 1GB, 1.5GB (K/M/G alone = KiB/MiB/GiB)\n"
            "  --op OP            collective (default allreduce)\n"
            "  --gpus-per-node K  GPUs per node; with --inter-link, groups spanning nodes\n"
            "                     use the hierarchical form\n"
            "  --inter-link L2    interconnect between nodes (default: --link)\n"
            "  --json             {op, link, gpus, bytes, time_s, algbw_bytes_per_s,\n"
            "                      busbw_bytes_per_s, busbw_factor, ...}\n"
            "Text output: time in s/ms/\xc2\xb5s, bandwidths in GB/s (1e9 bytes/s).\n");
}

int cli_cmd_comm(int argc, char **argv, const preset_db *db)
{
    const char *link_name = NULL, *inter_name = NULL, *op_name = NULL;
    int gpus = 0, per_node = 0, json = 0, seen_gpus = 0, seen_bytes = 0;
    double bytes = 0;
    const cli_opt opts[] = {
        {"--link", CLI_OPT_STRING, &link_name, 0, 0, NULL},
        {"--inter-link", CLI_OPT_STRING, &inter_name, 0, 0, NULL},
        {"--gpus", CLI_OPT_INT, &gpus, 1, CLI_MAX_COUNT, &seen_gpus},
        {"--gpus-per-node", CLI_OPT_INT, &per_node, 1, CLI_MAX_COUNT, NULL},
        {"--bytes", CLI_OPT_SIZE, &bytes, 1, 4611686018427387904.0, &seen_bytes},
        {"--op", CLI_OPT_STRING, &op_name, 0, 0, NULL},
        {"--json", CLI_OPT_FLAG, &json, 0, 0, NULL},
    };
    int rc = cli_opts_parse("comm", argc, argv, opts, (int)(sizeof opts / sizeof opts[0]),
                            NULL, 0, NULL);
    if (rc == CLI_HELP) {
        comm_help(stdout);
        return CLI_OK;
    }
    if (rc != CLI_OK)
        return rc;
    if (!link_name) {
        fprintf(stderr, "shardscope comm: --link: required (see 'shardscope list links')\n");
        return CLI_USAGE;
    }
    if (!seen_gpus) {
        fprintf(stderr, "shardscope comm: --gpus: required (an integer 1..%d)\n", CLI_MAX_COUNT);
        return CLI_USAGE;
    }
    if (!seen_bytes) {
        fprintf(stderr, "shardscope comm: --bytes: required (a size such as 16MiB)\n");
        return CLI_USAGE;
    }
    engine_collective op = ENGINE_OP_ALLREDUCE;
    if (op_name && engine_collective_parse(op_name, &op) != 0) {
        fprintf(stderr,
                "shardscope comm: --op: expected allreduce|allgather|reducescatter|alltoall|p2p, "
                "got '%s'\n",
                op_name);
        return CLI_USAGE;
    }
    const engine_link *intra = cli_find_link("comm", "--link", db, link_name);
    if (!intra)
        return CLI_USAGE;
    const engine_link *inter = NULL;
    if (inter_name) {
        inter = cli_find_link("comm", "--inter-link", db, inter_name);
        if (!inter)
            return CLI_USAGE;
    }

    double t = engine_comm_time(op, intra, inter, gpus, per_node, bytes);
    double factor = engine_busbw_factor(op, gpus);
    int have_bw = isfinite(t) && t > 0;
    double algbw = have_bw ? bytes / t : NAN;
    double busbw = have_bw ? algbw * factor : NAN;
    int hier = inter && per_node > 0 && gpus > per_node;

    if (json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "op", engine_collective_name(op));
        cJSON_AddStringToObject(o, "link", intra->name);
        cJSON_AddStringToObject(o, "inter_link", inter ? inter->name : intra->name);
        cJSON_AddNumberToObject(o, "gpus", gpus);
        if (per_node > 0)
            cJSON_AddNumberToObject(o, "gpus_per_node", per_node);
        else
            cJSON_AddNullToObject(o, "gpus_per_node");
        cJSON_AddBoolToObject(o, "hierarchical", hier);
        cli_json_add_number(o, "bytes", bytes);
        cli_json_add_number(o, "time_s", t);
        cli_json_add_number(o, "algbw_bytes_per_s", algbw);
        cli_json_add_number(o, "busbw_bytes_per_s", busbw);
        cli_json_add_number(o, "busbw_factor", factor);
        return cli_json_print("comm", stdout, o);
    }
    char size_si[32], size_iec[32], ts[32], a[32], b[32];
    fmt_bytes(bytes, size_si, sizeof size_si);
    fmt_bytes_iec(bytes, size_iec, sizeof size_iec);
    fmt_seconds(t, NULL, ts, sizeof ts);
    printf("%s of %s (%s) per GPU over %d GPU%s on %s", engine_collective_name(op), size_iec,
           size_si, gpus, gpus == 1 ? "" : "s", intra->name);
    if (hier)
        printf(" (%d per node, %s between nodes: hierarchical)", per_node, inter->name);
    printf("\n");
    printf("  time   %s\n", ts);
    if (have_bw) {
        printf("  algbw  %s\n", fmt_rate(algbw, "B/s", a, sizeof a));
        printf("  busbw  %s  (algbw x %.4g)\n", fmt_rate(busbw, "B/s", b, sizeof b), factor);
    } else {
        printf("  algbw  -  (no communication)\n  busbw  -\n");
    }
    return CLI_OK;
}
