/*
 * gather/binomial.c -- gather along a binomial tree: in round j, relative ranks with bit j
 * set send everything they hold (their own block and their subtree's, in rank order) to
 * the rank 2^j below them.  The tree is gather/knomial.c's with k = 2,
 * run by the tree executors.
 *
 *   8 ranks, root 0 (relative ranks), blocks held after each round:
 *
 *     round 0:  1->0  3->2  5->4  7->6      0:[01]  2:[23]  4:[45]  6:[67]
 *     round 1:  2->0  6->4                  0:[0123]        4:[4567]
 *     round 2:  4->0                        0:[01234567]
 *
 * With root r != 0 the tree is the same over relative ranks (rank - r) mod p; the root
 * puts block v at rank (v + r) mod p.
 *
 * Cost (p ranks, n bytes per block): T = ceil(log2 p) alpha + (p - 1) n beta.
 */
#include "core/coll/coll.h"
#include "topologies/tree.h"

static topo_tree_t *gather_binomial_tree(int size, int root, const coll_params_t *params)
{
    (void)params;
    return topo_tree_knomial(size, root, 2);
}

const coll_algo_t coll_algo_gather_binomial = {
    .name = "binomial",
    .kind = COLL_GATHER,
    .tree = gather_binomial_tree,
    .usable = NULL,
    .help = "binomial tree; inner ranks forward their subtree's blocks in one message",
};
