/*
 * gather/knomial.c -- gather along a radix-k tree whose subtrees are contiguous ranges of
 * ranks (relative to the root), so each rank forwards its whole subtree as one message.
 * gather/binomial.c is the case k = 2.
 *
 *   9 ranks, k = 3, root 0 (relative ranks):
 *
 *              0 <------------+-----------+
 *            ^   ^            |           |
 *            1   2            3           6       round 2: 3 and 6 send 3 blocks each
 *                           ^   ^       ^   ^
 *                           4   5       7   8     round 1: leaves send their own block
 *
 * The tree is topo_tree_knomial (topologies/tree.h); the tree executors
 * (core/coll/executors/) run it, blocking and as a schedule: each subtree's blocks travel
 * packed as one message, and the root puts them in rank order.
 *
 * Cost (p ranks, n bytes per block): T = ceil(log_k p) (k - 1) alpha + (p - 1) n beta,
 * plus one pack of n bytes per inner rank; leaves send from the user's buffer.
 */
#include "core/coll/coll.h"
#include "topologies/tree.h"

static topo_tree_t *gather_knomial_tree(int size, int root, const coll_params_t *params)
{
    return topo_tree_knomial(size, root, params->fanout > 1 ? (int)params->fanout : 4);
}

const coll_algo_t coll_algo_gather_knomial = {
    .name = "knomial",
    .kind = COLL_GATHER,
    .tree = gather_knomial_tree,
    .tree_defaults = {.fanout = 4},
    .usable = NULL,
    .params = COLL_PARAM_FANOUT,
    .help = "radix-k tree of contiguous subtrees (fanout = k, default 4)",
};
