/*
 * comm.c - alpha-beta collective costs and the pipeline bubble.
 *
 * Ring collectives on n GPUs follow nccl-tests' conventions: for AllReduce
 * of an M-byte buffer, a fixed base cost (kernel launch and
 * synchronisation, what dominates small messages), 2(n-1) steps of alpha
 * and 2(n-1)/n * M bytes on the wire per GPU; AllGather, ReduceScatter and
 * AllToAll move (n-1)/n * M.
 * When the group spans nodes the hierarchical form is used: an intra-node
 * phase, an inter-node phase where each GPU drives its own NIC with 1/k of
 * the data, and a second intra-node phase.
 */
#include <math.h>

#include "engine.h"

static double ring(const engine_link *l, int n, double steps_per_gpu, double bytes)
{
    if (n <= 1)
        return 0.0;
    double frac = (double)(n - 1) / n;
    return steps_per_gpu * (n - 1) * l->alpha_s + steps_per_gpu * frac * bytes / l->bytes_per_s;
}

double engine_comm_time(engine_collective op, const engine_link *intra, const engine_link *inter,
                        int n, int per_node, double bytes)
{
    if (!intra || bytes < 0 || !(bytes == bytes))
        return 0.0;
    if (op == ENGINE_OP_P2P) {
        const engine_link *l = (inter && per_node > 0 && n > per_node) ? inter : intra;
        return l->alpha_s + bytes / l->bytes_per_s;
    }
    if (n <= 1)
        return 0.0;
    int hier = inter && per_node > 0 && n > per_node;
    if (!hier) {
        double steps = op == ENGINE_OP_ALLREDUCE ? 2.0 : 1.0;
        return intra->base_s + ring(intra, n, steps, bytes);
    }
    int k = per_node;
    int nodes = (n + k - 1) / k;
    double base = intra->base_s + inter->base_s;
    switch (op) {
    case ENGINE_OP_ALLREDUCE:
        /* reduce-scatter in the node, all-reduce of 1/k across, all-gather in the node */
        return base + 2.0 * ring(intra, k, 1.0, bytes) + ring(inter, nodes, 2.0, bytes / k);
    case ENGINE_OP_ALLGATHER:
    case ENGINE_OP_REDUCESCATTER:
        /* across nodes on each rail with 1/k of the data, then inside the node */
        return base + ring(inter, nodes, 1.0, bytes / k) + ring(intra, k, 1.0, bytes);
    case ENGINE_OP_ALLTOALL: {
        /* (k-1)/n of the buffer stays in the node, (n-k)/n leaves it */
        double t = (k - 1) * intra->alpha_s + (double)(k - 1) / n * bytes / intra->bytes_per_s;
        t += (n - k) * inter->alpha_s + (double)(n - k) / n * bytes / inter->bytes_per_s;
        return base + t;
    }
    default:
        return 0.0;
    }
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
