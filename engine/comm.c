/*
 * comm.c - collective costs and the pipeline bubble.
 *
 * Ring collectives on n GPUs follow nccl-tests' conventions: for AllReduce
 * of an M-byte buffer, a fixed base cost (kernel launch and
 * synchronisation, what dominates small messages), 2(n-1) steps of alpha
 * and 2(n-1)/n * M bytes on the wire per GPU; AllGather, ReduceScatter and
 * AllToAll move (n-1)/n * M.  Point-to-point pays the base cost and one
 * alpha like the others, then M / bandwidth.
 *
 * A link may carry measured curves (time against size, per collective, on
 * a known number of GPUs: nccl-tests, vidur, aiconfigurator).  Then the
 * time at a size is the measured one (linear between measured sizes), and
 * for another group size n the latency part (base + steps * alpha) is
 * recomputed for n and the rest scaled by the bytes on the wire: the curve
 * keeps its knee (latency-bound small messages, the protocol switches, the
 * plateau) instead of one bandwidth for every size.
 *
 * On a PCIe host a ring over more GPUs than one CPU socket holds crosses
 * the socket-to-socket link: its bandwidth part runs at the link's
 * cross_socket fraction (measured 8-GPU against 4-GPU busbw).
 *
 * When the group spans nodes the hierarchical form is used: an intra-node
 * phase, an inter-node phase where each GPU drives its own NIC with 1/k of
 * the data, and a second intra-node phase.
 */
#include <math.h>

#include "engine.h"
#include "internal.h"

/* Ring steps of alpha and the share of the buffer each GPU puts on the
 * wire, per collective. */
static double ring_steps(engine_collective op, int n)
{
    if (op == ENGINE_OP_P2P)
        return 1.0;
    if (n <= 1)
        return 0.0;
    return (op == ENGINE_OP_ALLREDUCE ? 2.0 : 1.0) * (n - 1);
}

static double wire_share(engine_collective op, int n)
{
    if (op == ENGINE_OP_P2P)
        return 1.0;
    if (n <= 1)
        return 0.0;
    return (op == ENGINE_OP_ALLREDUCE ? 2.0 : 1.0) * (n - 1) / n;
}

/* Log-log interpolation of a measured curve at `bytes`; below the first
 * point the first time (latency-bound), above the last one the last time
 * grown linearly with size (the plateau). */
static double curve_time(const engine_curve *c, double bytes)
{
    if (bytes <= c->bytes[0])
        return c->time_s[0];
    int last = c->n - 1;
    if (bytes >= c->bytes[last])
        return c->time_s[last] * bytes / c->bytes[last];
    int i = 1;
    while (i < last && c->bytes[i] < bytes)
        i++;
    /* Linear between neighbouring measured sizes: inside one interval a
     * collective is close to affine in its size (latency + bytes/bandwidth),
     * and it needs no logarithm per call. */
    double b0 = c->bytes[i - 1], b1 = c->bytes[i];
    double t0 = c->time_s[i - 1], t1 = c->time_s[i];
    if (!(b1 > b0))
        return t0;
    return t0 + (t1 - t0) * (bytes - b0) / (b1 - b0);
}

/* On a fully connected mesh a group of n GPUs drives n-1 of each GPU's
 * links: the bandwidth part grows by mesh / (n-1) against the full group. */
static double mesh_scale(const engine_link *l, int n, int ref)
{
    if (l->mesh_links <= 0 || n < 2)
        return 1.0;
    double used = n - 1 < l->mesh_links ? n - 1 : l->mesh_links;
    double used_ref = ref - 1 < l->mesh_links ? ref - 1 : l->mesh_links;
    if (used_ref < 1)
        used_ref = l->mesh_links;
    return used_ref / used;
}

/* A PCIe host holds socket_gpus GPUs per CPU socket: a ring over more of
 * them crosses the socket-to-socket link (and, without peer-to-peer, host
 * memory), which gives every GPU of the ring only cross_socket of the
 * in-socket rate.  Returns the factor the bandwidth is multiplied by.
 * Ring collectives only: the fraction is an all-reduce measurement, and
 * nothing measured says what an all-to-all keeps. */
static double socket_share(const engine_link *l, engine_collective op, int n)
{
    if (op == ENGINE_OP_P2P || op == ENGINE_OP_ALLTOALL || l->socket_gpus <= 0 ||
        n <= l->socket_gpus)
        return 1.0;
    if (!(l->cross_socket > 0) || l->cross_socket >= 1.0)
        return 1.0;
    return l->cross_socket;
}

/* One flat collective of `bytes` over n GPUs of one link. */
static double flat(engine_collective op, const engine_link *l, int n, double bytes)
{
    if (op != ENGINE_OP_P2P && n <= 1)
        return 0.0;
    double lat = l->base_s + ring_steps(op, n) * l->alpha_s;
    double cross = socket_share(l, op, n);
    const engine_curve *c = &l->curve[op];
    if (c->n > 0 && c->gpus >= 2) {
        int m = op == ENGINE_OP_P2P ? 2 : c->gpus;
        double lat_m = l->base_s + ring_steps(op, m) * l->alpha_s;
        double t = curve_time(c, bytes);
        double wire = t - lat_m;
        if (wire < 0)
            wire = 0;
        double share_m = wire_share(op, m);
        double scale = share_m > 0 ? wire_share(op, n) / share_m : 1.0;
        double cross_m = socket_share(l, op, m);
        return lat + wire * scale * mesh_scale(l, n, m) * cross_m / cross;
    }
    /* bytes_per_s is what the whole fabric gives one GPU */
    return lat + wire_share(op, n) * bytes / (l->bytes_per_s * cross) *
                     mesh_scale(l, op == ENGINE_OP_P2P ? 2 : n, l->mesh_links + 1);
}

double engine_comm_time(engine_collective op, const engine_link *intra, const engine_link *inter,
                        int n, int per_node, double bytes)
{
    if (!intra || bytes < 0 || !(bytes == bytes))
        return 0.0;
    if (op == ENGINE_OP_P2P) {
        const engine_link *l = (inter && per_node > 0 && n > per_node) ? inter : intra;
        return flat(op, l, 2, bytes);
    }
    if (n <= 1)
        return 0.0;
    int hier = inter && per_node > 0 && n > per_node;
    if (!hier)
        return flat(op, intra, n, bytes);
    int k = per_node;
    int nodes = (n + k - 1) / k;
    switch (op) {
    case ENGINE_OP_ALLREDUCE:
        /* reduce-scatter in the node, all-reduce of 1/k across, all-gather in the node */
        return flat(ENGINE_OP_REDUCESCATTER, intra, k, bytes) +
               flat(ENGINE_OP_ALLREDUCE, inter, nodes, bytes / k) +
               flat(ENGINE_OP_ALLGATHER, intra, k, bytes);
    case ENGINE_OP_ALLGATHER:
    case ENGINE_OP_REDUCESCATTER:
        /* across nodes on each rail with 1/k of the data, then inside the node */
        return flat(op, inter, nodes, bytes / k) + flat(op, intra, k, bytes);
    case ENGINE_OP_ALLTOALL: {
        /* (k-1)/n of the buffer stays in the node, (n-k)/n leaves it; the
         * two parts run at once on different links: the slower one counts */
        double in = intra->base_s + (k - 1) * intra->alpha_s +
                    (double)(k - 1) / n * bytes / intra->bytes_per_s;
        double out = inter->base_s + (n - k) * inter->alpha_s +
                     (double)(n - k) / n * bytes / inter->bytes_per_s;
        return in > out ? in : out;
    }
    default:
        return 0.0;
    }
}

int engine_custom_ar_off_xgmi(const engine_scenario *s, const engine_framework *fw)
{
    const engine_link *l = s->intra;
    unsigned v = (unsigned)s->framework_version;
    return l && fw && l->kind == ENGINE_LINK_XGMI && v > ENGINE_FWV_DEFAULT && v < ENGINE_FWV_COUNT &&
           fw->host_loop[v].set && fw->host_loop[v].xgmi_no_custom_ar;
}

double engine_allreduce_s(const engine_scenario *s, const engine_framework *fw, int n,
                          int per_node, double bytes)
{
    if (n <= 1)
        return 0.0;
    const engine_link *l = s->intra;
    int in_domain = !(s->inter && per_node > 0 && n > per_node);
    /* A framework's own all-reduce (one-shot/two-shot over peer memory)
     * replaces NCCL for small messages inside one NVLink/xGMI domain. */
    if (fw && fw->custom_ar_max_bytes > 0 && bytes <= fw->custom_ar_max_bytes && in_domain &&
        (l->kind == ENGINE_LINK_NVLINK || l->kind == ENGINE_LINK_XGMI) &&
        !engine_custom_ar_off_xgmi(s, fw)) {
        double custom = fw->custom_ar_s + 2.0 * (n - 1) / n * bytes / l->bytes_per_s;
        double nccl = engine_comm_time(ENGINE_OP_ALLREDUCE, s->intra, s->inter, n, per_node, bytes);
        return custom < nccl ? custom : nccl;
    }
    return engine_comm_time(ENGINE_OP_ALLREDUCE, s->intra, s->inter, n, per_node, bytes);
}

int engine_calib_link(const engine_calib *c, const engine_link *in, engine_link *out)
{
    int n = 0;
    *out = *in;
    for (int op = 0; c && c->measured && op < ENGINE_OP_COUNT; op++)
        if (c->comm[op].n > 0 && c->comm[op].n <= ENGINE_CURVE_MAX && c->comm[op].gpus >= 2) {
            out->curve[op] = c->comm[op];
            n++;
        }
    return n;
}

double engine_busbw_factor(engine_collective op, int n)
{
    if (n <= 1)
        return op == ENGINE_OP_P2P ? 1.0 : 0.0;
    switch (op) {
    case ENGINE_OP_ALLREDUCE:
        return 2.0 * (n - 1) / n;
    case ENGINE_OP_ALLGATHER:
    case ENGINE_OP_REDUCESCATTER:
    case ENGINE_OP_ALLTOALL:
        return (double)(n - 1) / n;
    default:
        return 1.0;
    }
}

double engine_bubble_fraction(int pp, int m, engine_schedule s, int v)
{
    if (pp <= 1)
        return 0.0;
    if (m < 1)
        m = 1;
    double bubble = pp - 1;
    if (s == ENGINE_SCHED_INTERLEAVED && v > 1)
        bubble /= v;
    return bubble / (m + bubble);
}

/* --- DeepEP all-to-all (dispatch / combine) --------------------------------- */

/* A DeepEP table: bandwidth (B/s) at EP sizes 2^lg[i]; between them linear
 * in log2(ep), outside them the nearest end. */
typedef struct deepep_table {
    int n;
    double lg[6];
    double bw[2][6]; /* [dispatch, combine] */
} deepep_table;

/* deepseek-ai/DeepEP docs/legacy.md (V1), H800 + CX7 400 Gb/s. */
static const deepep_table DEEPEP_INTER = {3, {4, 5, 6}, {{43e9, 58e9, 51e9}, {43e9, 57e9, 50e9}}};
static const deepep_table DEEPEP_LL = {6,
                                       {3, 4, 5, 6, 7, 8},
                                       {{98e9, 63e9, 48e9, 43e9, 39e9, 39e9},
                                        {127e9, 74e9, 53e9, 46e9, 39e9, 40e9}}};
#define DEEPEP_NVL_DISPATCH 153e9 /* intranode EP8, of H800's ~160 GB/s NVLink */
#define DEEPEP_NVL_COMBINE 158e9
#define DEEPEP_H800_NVLINK 160e9
#define DEEPEP_CX7 42.4e9 /* the ib-ndr preset: the CX7 400G port DeepEP ran on */

static double deepep_table_bw(const deepep_table *t, int combine, int ep)
{
    double x = log2(ep > 1 ? ep : 1);
    const double *bw = t->bw[combine ? 1 : 0];
    if (x <= t->lg[0])
        return bw[0];
    for (int i = 1; i < t->n; i++)
        if (x <= t->lg[i])
            return bw[i - 1] + (bw[i] - bw[i - 1]) * (x - t->lg[i - 1]) / (t->lg[i] - t->lg[i - 1]);
    return bw[t->n - 1];
}

double engine_deepep_s(const engine_link *intra, const engine_link *inter, int ep, int cross,
                       int ll, int combine, double bytes)
{
    if (ep <= 1 || !(bytes > 0) || !intra)
        return 0.0;
    const engine_link *net = inter ? inter : intra;
    if (ll) {
        /* pure RDMA: the table's bandwidth at this EP size on the NIC */
        double bw = deepep_table_bw(&DEEPEP_LL, combine, ep) * net->bytes_per_s / DEEPEP_CX7;
        return 2.0 * net->alpha_s + bytes / bw;
    }
    if (!cross || !inter) {
        double bw = (combine ? DEEPEP_NVL_COMBINE : DEEPEP_NVL_DISPATCH) * intra->bytes_per_s /
                    DEEPEP_H800_NVLINK;
        return intra->base_s + bytes / bw;
    }
    double bw = deepep_table_bw(&DEEPEP_INTER, combine, ep) * inter->bytes_per_s / DEEPEP_CX7;
    return inter->base_s + bytes / bw;
}

double engine_deepep_normal_s(const engine_link *intra, const engine_link *inter, int ep,
                              int cross, int combine, double rank_bytes, double node_bytes)
{
    double nvl = engine_deepep_s(intra, NULL, ep, 0, 0, combine, rank_bytes);
    if (!cross || !inter)
        return nvl;
    double rdma = engine_deepep_s(intra, inter, ep, 1, 0, combine, node_bytes);
    return rdma > nvl ? rdma : nvl;
}
