/*
 * reduce/kary.c -- a k-ary tree over ranks relative to the root (heap numbering: the
 * children of v are k v + 1 .. k v + k); each rank combines its children's partial
 * results into its own and sends up, optionally in segments of segsize bytes so the
 * levels of the tree work at once.
 *
 *   k = 2:          0
 *                 /   \
 *                1     2
 *               / \   / \
 *              3   4 5   6
 *
 * Cost: ceil(log_k p) levels of k (alpha + n beta + n gamma); with S segments about
 * (depth + S - 1) k (alpha + segsize beta + segsize gamma).  Subtrees are not ranges
 * of ranks: commutative ops only.  Default k = 2, not segmented.
 */
#include "core/coll/phases/reduce_phases.h"
#include "topologies/tree.h"

static topo_tree_t *reduce_kary_tree(int size, int root, const coll_params_t *params)
{
    return topo_tree_kary(size, root, (int)params->fanout);
}

const coll_algo_t coll_algo_reduce_kary = {
    .name = "kary",
    .kind = COLL_REDUCE,
    .tree = reduce_kary_tree,
    .tree_defaults = {.fanout = 2},
    .usable = red_commutative_only,
    .params = COLL_PARAM_FANOUT | COLL_PARAM_SEGSIZE,
    .help = "k-ary tree (fanout, default 2), optionally segmented; commutative ops",
};
