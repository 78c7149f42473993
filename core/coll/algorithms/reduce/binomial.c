/*
 * reduce/binomial.c -- binomial tree over ranks relative to the root: each rank
 * combines its children's partial results (smallest subtree first) into its own and
 * sends the sum to its parent.
 *
 *   8 ranks, root 0:       0          receives from 1, then 2, then 4
 *                        / | \
 *                       4  2  1
 *                      / \  \
 *                     6   5  3
 *                     |
 *                     7
 *
 * Cost: ceil(log2 p) (alpha + n beta + n gamma).  Relative ranks wrap around p, so the
 * order of the operands is kept only when the root is 0: with a non-commutative op and
 * another root, use in-order-binomial.
 */
#include "core/coll/phases/reduce_phases.h"
#include "topologies/tree.h"

static int reduce_binomial_usable(const coll_call_t *call, const coll_params_t *params)
{
    (void)params;
    return red_commutative(call) || call->root == 0;
}

/* the binomial tree with the smallest subtree served first: radix 2 of the k-nomial
   builder (with root 0 it is ordered, so a non-commutative op combines in rank order) */
static topo_tree_t *reduce_binomial_tree(int size, int root, const coll_params_t *params)
{
    (void)params;
    return topo_tree_knomial(size, root, 2);
}

const coll_algo_t coll_algo_reduce_binomial = {
    .name = "binomial",
    .kind = COLL_REDUCE,
    .tree = reduce_binomial_tree,
    .usable = reduce_binomial_usable,
    .help = "binomial tree relative to the root (commutative ops, or root 0)",
};
