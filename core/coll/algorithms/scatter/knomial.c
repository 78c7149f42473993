/*
 * scatter/knomial.c -- scatter along a radix-k tree whose subtrees are contiguous ranges
 * of ranks (relative to the root): each rank receives its subtree's blocks in one
 * message, keeps its own and forwards the rest, largest subtree first.
 * scatter/binomial.c is the case k = 2.
 *
 *   9 ranks, k = 3, root 0 (relative ranks):
 *
 *              0 ------------>+----------->+
 *            |   |            |            |
 *            v   v            v            v
 *            1   2            3            6      round 1: 3 and 6 get 3 blocks each
 *                           |   |        |   |
 *                           v   v        v   v
 *                           4   5        7   8    round 2: one block each
 *
 * The tree is topo_tree_knomial with each rank's children reversed (topologies/tree.h);
 * the tree executors (core/coll/executors/) run it, blocking and as a schedule: the root
 * packs the blocks in the tree's preorder, each subtree's travel as one message.
 *
 * Cost (p ranks, n bytes per block): T = ceil(log_k p) (k - 1) alpha + (p - 1) n beta,
 * plus one unpack of n bytes per inner rank; leaves receive into the user's buffer.
 */
#include "core/coll/coll.h"
#include "topologies/tree.h"

/* the gather's k-nomial tree, each rank serving its largest subtree first */
static topo_tree_t *scatter_knomial_tree(int size, int root, const coll_params_t *params)
{
    topo_tree_t *t = topo_tree_knomial(size, root, params->fanout > 1 ? (int)params->fanout : 4);
    if (t != NULL) {
        topo_tree_reverse_children(t);
    }
    return t;
}

const coll_algo_t coll_algo_scatter_knomial = {
    .name = "knomial",
    .kind = COLL_SCATTER,
    .tree = scatter_knomial_tree,
    .tree_defaults = {.fanout = 4},
    .usable = NULL,
    .params = COLL_PARAM_FANOUT,
    .help = "radix-k tree of contiguous subtrees (fanout = k, default 4)",
};
