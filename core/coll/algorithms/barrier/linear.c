/*
 * barrier/linear.c -- every rank reports to rank 0, rank 0 releases every rank.
 *
 *      1  2  3            1  2  3
 *       \ | /              ^ ^ ^
 *        v v    fan-in     \|/    fan-out
 *         0                 0
 *
 * Cost: 2 (p - 1) alpha at rank 0 (all messages are empty).  The fallback: simple and
 * right at any size; dissemination is faster from a few ranks on.  The flat tree rooted
 * at 0, run by the tree executors (core/coll/executors/), blocking and as a schedule.
 */
#include "core/coll/coll.h"
#include "topologies/tree.h"

/* the flat tree rooted at 0, run by the tree executors' barrier (fan-in, then fan-out) */
static topo_tree_t *barrier_linear_tree(int size, int root, const coll_params_t *params)
{
    (void)params;
    return topo_tree_flat(size, root);
}

const coll_algo_t coll_algo_barrier_linear = {
    .name = "linear",
    .kind = COLL_BARRIER,
    .tree = barrier_linear_tree,
    .usable = NULL,
    .help = "fan-in to rank 0, fan-out from it: 2(p-1) messages at rank 0",
};
