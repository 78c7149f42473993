/*
 * reduce/in_order_binomial.c -- binomial trees over the ranks in their own order, so each
 * subtree is a contiguous range of ranks and every rank combines
 * [lower ranks] op mine op [r+1] op [r+2, r+4) op [r+4, r+8) ...: right for
 * non-commutative ops.  Root 0: one binomial tree over all ranks.  Another root r
 * serves the binomial tree of ranks r..p-1 and, first, the one of ranks 0..r-1 rooted at
 * 0 (topo_tree_in_order_binomial, topologies/tree.h), so the result ends at r with no
 * extra hop.
 *
 *   8 ranks, root 0:  0 <- 1             root 3:  3 <- 0 <- 1, 0 <- 2   ([0, 3))
 *                     0 <- 2 <- 3                 3 <- 4                 ([4, 5))
 *                     0 <- 4 <- 5                 3 <- 5 <- 6            ([5, 7))
 *                     4 <- 6 <- 7                 3 <- 7                 ([7, 8))
 *
 * Cost: at most ceil(log2 p) + 1 levels of (alpha + n beta + n gamma).  Run by the tree
 * executors (core/coll/executors/), blocking and as a schedule.
 */
#include "core/coll/coll.h"
#include "topologies/tree.h"

static topo_tree_t *reduce_in_order_binomial_tree(int size, int root, const coll_params_t *params)
{
    (void)params;
    return topo_tree_in_order_binomial(size, root);
}

const coll_algo_t coll_algo_reduce_in_order_binomial = {
    .name = "in-order-binomial",
    .kind = COLL_REDUCE,
    .tree = reduce_in_order_binomial_tree,
    .usable = NULL,
    .help = "binomial trees in rank order: every subtree a range of ranks (any op)",
};
