/*
 * scatter/binomial.c -- scatter along a binomial tree, the mirror of gather/binomial.c:
 * each rank receives its subtree's blocks in one message, keeps its own and sends the
 * upper halves on, largest first.  The tree is scatter/knomial.c's with k = 2,
 * run by the tree executors.
 *
 *   8 ranks, root 0 (relative ranks), blocks sent in each round:
 *
 *     round 0:  0->4 [4567]
 *     round 1:  0->2 [23]     4->6 [67]
 *     round 2:  0->1 [1]  2->3 [3]  4->5 [5]  6->7 [7]
 *
 * Cost (p ranks, n bytes per block): T = ceil(log2 p) alpha + (p - 1) n beta.
 */
#include "core/coll/coll.h"
#include "topologies/tree.h"

/* the binomial tree, largest subtree first: scatter/knomial.c's with k = 2 */
static topo_tree_t *scatter_binomial_tree(int size, int root, const coll_params_t *params)
{
    (void)params;
    return topo_tree_binomial(size, root);
}

const coll_algo_t coll_algo_scatter_binomial = {
    .name = "binomial",
    .kind = COLL_SCATTER,
    .tree = scatter_binomial_tree,
    .usable = NULL,
    .help = "binomial tree; inner ranks receive their subtree's blocks in one message",
};
