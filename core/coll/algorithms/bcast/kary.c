/*
 * bcast/kary.c -- a k-ary tree over ranks relative to the root (heap numbering: the
 * children of v are k v + 1 .. k v + k), optionally pipelined in segments.
 *
 *   k = 3, 10 ranks:           0
 *                          /   |   \
 *                         1    2    3
 *                       / | \  |
 *                      4  5 6  7 ...
 *
 * Cost: ceil(log_k p) levels of k (alpha + n beta) each: depth ~ log_k p, so a large k
 * gives fewer steps but more sends per rank.  With segsize, S = n / segsize segments:
 * about (depth + S - 1) k (alpha + segsize beta).  Default k = 2, not segmented.
 */
#include "core/coll/coll.h"
#include "topologies/tree.h"

static topo_tree_t *bcast_kary_tree(int size, int root, const coll_params_t *params)
{
    return topo_tree_kary(size, root, (int)params->fanout);
}

const coll_algo_t coll_algo_bcast_kary = {
    .name = "kary",
    .kind = COLL_BCAST,
    .tree = bcast_kary_tree,
    .tree_defaults = {.fanout = 2},
    .usable = NULL,
    .params = COLL_PARAM_FANOUT | COLL_PARAM_SEGSIZE,
    .help = "k-ary tree (fanout, default 2), optionally pipelined in segsize bytes",
};
