/*
 * bcast/linear.c -- the root sends the whole message to every other rank.
 *
 *          root
 *        / | | \
 *       a  b c  d
 *
 * Cost: (p - 1) (alpha + n beta) at the root.  Only for tiny communicators; a
 * reference the others are checked against.
 */
#include "core/coll/coll.h"
#include "topologies/tree.h"

/* the flat tree: the root serves root + 1, root + 2, ... in turn */
static topo_tree_t *bcast_linear_tree(int size, int root, const coll_params_t *params)
{
    (void)params;
    return topo_tree_flat(size, root);
}

const coll_algo_t coll_algo_bcast_linear = {
    .name = "linear",
    .kind = COLL_BCAST,
    .tree = bcast_linear_tree,
    .usable = NULL,
    .help = "the root sends to every rank: p-1 messages",
};
