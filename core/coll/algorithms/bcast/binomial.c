/*
 * bcast/binomial.c -- binomial tree over ranks relative to the root; each rank
 * receives once, then serves its largest subtree first.
 *
 *   8 ranks, root 0:       0
 *                        / | \
 *                       4  2  1
 *                      / \  \
 *                     6   5  3
 *                     |
 *                     7
 *
 * Cost: ceil(log2 p) (alpha + n beta).  The choice for small messages.
 */
#include "core/coll/coll.h"
#include "topologies/tree.h"

/* run by the tree executors (core/coll/executors/): blocking, and as a schedule */
static topo_tree_t *bcast_binomial_tree(int size, int root, const coll_params_t *params)
{
    (void)params;
    return topo_tree_binomial(size, root);
}

const coll_algo_t coll_algo_bcast_binomial = {
    .name = "binomial",
    .kind = COLL_BCAST,
    .tree = bcast_binomial_tree,
    .usable = NULL,
    .help = "binomial tree: ceil(log2 p) steps of the whole message",
};
