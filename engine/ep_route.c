/*
 * ep_route.c - how many distinct EP ranks or nodes one token's top-k
 * experts land on, the unit DeepEP's normal kernels move data in.
 *
 * DeepEP's normal (high-throughput) kernels send a token once per
 * destination node over RDMA and fan it out inside the node over NVLink
 * (deepseek-ai/DeepEP@dd758ca docs/legacy.md: "forwarding data from NVLink
 * domain to RDMA domain"; tests/legacy/test_internode.py counts
 * num_rdma_token_sent as the distinct nodes of each token's top-k and
 * reports the RDMA bandwidth as num_rdma_token_sent x hidden x bytes / t;
 * test_intranode.py reports recv_x, a token once per destination rank).
 * DeepSeek-V3 limits the nodes: "we limit each token to be dispatched to
 * at most 4 nodes ... it will first be transmitted via IB to the GPUs
 * with the same in-node index on its target nodes" (arXiv 2412.19437v2
 * §3.2.2), implemented as group-limited routing over n_group = 8 groups,
 * topk_group = 4 of them (HF config.json n_group / topk_group;
 * deepseek-ai/DeepSeek-V3@9b4e978 inference/model.py Gate: group scores
 * are each group's top-2 affinities summed, the top topk_group groups
 * kept, the top-k experts picked among theirs).
 */
#include "engine.h"

/* C(n - m, k) / C(n, k) for real n, m: the chance that k distinct picks
 * out of n miss m given ones, prod_{i<k} (n - m - i) / (n - i). */
static double miss_all(double n, double m, int k)
{
    double p = 1.0;
    for (int i = 0; i < k; i++) {
        double f = (n - m - i) / (n - i);
        if (!(f > 0))
            return 0.0;
        p *= f;
    }
    return p;
}

/* One unit's chance to get none of the token's experts under group-limited
 * routing: G groups of e experts, M of them selected (uniformly), each
 * selected group holding at least one of the K (its best experts made it
 * selected), the other K - M uniform over the M e experts of the selected
 * groups.  A unit covers g = G / units groups: g >= 1 whole groups, missed
 * when none of them is selected; g < 1 a part g of one group, missed when
 * that group is not selected or its guaranteed pick and the K - M others
 * fall outside the part. */
static double miss_grouped(double E, int K, int G, int M, double units)
{
    double g = G / units, e = E / G;
    if (g >= 1.0)
        return miss_all(G, g, M);
    double sel = (double)M / G;
    return (1.0 - sel) + sel * (1.0 - g) * miss_all(M * e, g * e, K - M);
}

double engine_ep_distinct(int experts, int top_k, int n_group, int topk_group, int units)
{
    if (experts < 1 || top_k < 1 || units < 1)
        return 0.0;
    if (units == 1)
        return 1.0;
    double E = experts, u = units;
    int K = top_k < experts ? top_k : experts;
    int grouped = n_group > 1 && topk_group >= 1 && topk_group < n_group &&
                  experts % n_group == 0 && K >= topk_group &&
                  (double)topk_group * experts / n_group >= K;
    double miss = grouped ? miss_grouped(E, K, n_group, topk_group, u) : miss_all(E, E / u, K);
    double d = u * (1.0 - miss);
    return d < 1.0 ? 1.0 : d;
}
