/*
 * comm.c - `shardscope comm`: the alpha-beta time of one collective
 * over an interconnect, with nccl-tests' algorithm and bus bandwidths
 * (algbw = bytes / time, busbw = algbw * engine_busbw_factor).
 */
#include <math.h>
#include <string.h>

#include "cli.h"
#include "cli_common.h"
#include "json.h"

static const char *op_name(int i) { return engine_collective_name((engine_collective)i); }
static const cli_enum OPS = {op_name, ENGINE_OP_COUNT};

static const cli_opt COMM_OPTS[] = {
    {.name = "--link", .kind = CLI_OPT_STRING, .arg = "L", .off = CLI_AT(link),
     .help = "interconnect inside a node (shardscope list links)"},
    {.name = "--gpus", .kind = CLI_OPT_INT, .arg = "N", .off = CLI_AT(gpus), .min = 1,
     .max = ENGINE_MAX_GPUS, .help = "GPUs taking part, 1..1048576"},
    {.name = "--bytes", .kind = CLI_OPT_SIZE, .arg = "SIZE", .off = CLI_AT(bytes), .min = 1,
     .max = 4611686018427387904.0,
     .help = "1024, 4KiB, 16MiB, 1GB, 1.5GB (K/M/G alone = KiB/MiB/GiB)"},
    {.name = "--op", .kind = CLI_OPT_ENUM, .arg = "OP", .off = CLI_AT(op), .choices = &OPS,
     .help = "(default allreduce)"},
    {.name = "--gpus-per-node", .kind = CLI_OPT_INT, .arg = "K", .off = CLI_AT(gpus_per_node),
     .min = 1, .max = ENGINE_MAX_GPUS,
     .help = "GPUs per node; with --inter-link, groups spanning nodes\n"
             "use the hierarchical form"},
    {.name = "--inter-link", .kind = CLI_OPT_STRING, .arg = "L2", .off = CLI_AT(inter_link),
     .help = "interconnect between nodes (default: --link)"},
    {.name = "--json", .kind = CLI_OPT_FLAG, .off = CLI_AT(json),
     .help = "{op, link, gpus, bytes, time_s, algbw_bytes_per_s,\n"
             " busbw_bytes_per_s, busbw_factor, ...}"},
    {.name = NULL},
};

const cli_options cli_comm_options = {
    .tables = {COMM_OPTS},
    .about = "Time one collective with the alpha-beta model (nccl-tests conventions:\n"
             "SIZE is the buffer per GPU; algbw = SIZE / time; busbw = algbw * factor,\n"
             "factor 2(n-1)/n for allreduce, (n-1)/n for allgather, reducescatter and\n"
             "alltoall, 1 for p2p).\n",
    .footer = "Text output: time in s/ms/\xc2\xb5s, bandwidths in GB/s (1e9 bytes/s).\n",
};

int cli_comm_run(const cli_opts *o, const preset_db *db)
{
    const char *missing = !o->v.link           ? "--link: required (see 'shardscope list links')"
                          : !CLI_SEEN(o, gpus)  ? "--gpus: required (an integer 1..1048576)"
                          : !CLI_SEEN(o, bytes) ? "--bytes: required (a size such as 16MiB)"
                                                : NULL;
    if (missing) {
        fprintf(stderr, "shardscope comm: %s\n", missing);
        return CLI_USAGE;
    }
    engine_error err = {{0}};
    engine_collective op = (engine_collective)o->v.op; /* 0: allreduce */
    const engine_link *intra = cli_find_link(db, "--link", o->v.link, &err), *inter = NULL;
    if (!intra)
        return cli_fail("comm", &err);
    if (o->v.inter_link && !(inter = cli_find_link(db, "--inter-link", o->v.inter_link, &err)))
        return cli_fail("comm", &err);
    int gpus = o->v.gpus, per_node = o->v.gpus_per_node;
    double bytes = o->v.bytes;

    double t = engine_comm_time(op, intra, inter, gpus, per_node, bytes);
    double factor = engine_busbw_factor(op, gpus);
    int have_bw = isfinite(t) && t > 0;
    double algbw = have_bw ? bytes / t : NAN;
    double busbw = have_bw ? algbw * factor : NAN;
    int hier = inter && per_node > 0 && gpus > per_node;

    if (o->v.json) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "op", engine_collective_name(op));
        cJSON_AddStringToObject(j, "link", intra->name);
        cJSON_AddStringToObject(j, "inter_link", inter ? inter->name : intra->name);
        cJSON_AddNumberToObject(j, "gpus", gpus);
        if (per_node > 0)
            cJSON_AddNumberToObject(j, "gpus_per_node", per_node);
        else
            cJSON_AddNullToObject(j, "gpus_per_node");
        cJSON_AddBoolToObject(j, "hierarchical", hier);
        cli_json_add_number(j, "bytes", bytes);
        cli_json_add_number(j, "time_s", t);
        cli_json_add_number(j, "algbw_bytes_per_s", algbw);
        cli_json_add_number(j, "busbw_bytes_per_s", busbw);
        cli_json_add_number(j, "busbw_factor", factor);
        return cli_json_print("comm", stdout, j);
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
