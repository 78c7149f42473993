/*
 * allreduce/reduce_bcast.c -- an in-order binomial reduce to rank 0 (subtrees are
 * ranges of ranks, combined left to right) followed by a bcast from rank 0 down the same
 * tree (topo_tree_in_order_binomial, root 0), both run by the tree executors
 * (core/coll/executors/), blocking and as a schedule.
 *
 *   reduce:  1 -> 0, 3 -> 2 -> 0, ...       bcast:  0 -> 1, 0 -> 2 -> 3, 0 -> 4, ...
 *
 * Cost: 2 ceil(log2 p) (alpha + n beta) + ceil(log2 p) n gamma.  Works for every op:
 * the fallback for non-commutative ops on large vectors.
 */
#include "core/coll/coll.h"
#include "topologies/tree.h"

/* root is 0 for the unrooted kinds (coll_closure_algo) */
static topo_tree_t *allreduce_reduce_bcast_tree(int size, int root, const coll_params_t *params)
{
    (void)params;
    return topo_tree_in_order_binomial(size, root);
}

const coll_algo_t coll_algo_allreduce_reduce_bcast = {
    .name = "reduce-bcast",
    .kind = COLL_ALLREDUCE,
    .tree = allreduce_reduce_bcast_tree,
    .usable = NULL,
    .help = "in-order binomial reduce to 0, then bcast down the same tree (any op)",
};
