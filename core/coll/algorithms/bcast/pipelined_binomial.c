/*
 * bcast/pipelined_binomial.c -- the binomial tree of bcast/binomial.c, with the
 * message cut into segments of segsize bytes that flow down the tree one behind the
 * other: a rank forwards segment s while segment s + 1 arrives.
 *
 *        root  [s3 s2 s1 s0] -> 4 -> 6 -> 7
 *                  \-> 2 -> 3
 *                   \-> 1
 *
 * Cost, S = n / segsize segments, d = ceil(log2 p):
 *   about (d + S - 1) * (log2 p) (alpha + segsize beta) at worst, since a rank sends
 *   each segment to up to log2 p children; better than binomial once n >> segsize.
 * Default segsize: 32 KiB.
 */
#include "core/coll/coll.h"
#include "topologies/tree.h"

static topo_tree_t *bcast_pipelined_binomial_tree(int size, int root, const coll_params_t *params)
{
    (void)params;
    return topo_tree_binomial(size, root);
}

const coll_algo_t coll_algo_bcast_pipelined_binomial = {
    .name = "pipelined-binomial",
    .kind = COLL_BCAST,
    .tree = bcast_pipelined_binomial_tree,
    .tree_defaults = {.segsize = 32768},
    .usable = NULL,
    .params = COLL_PARAM_SEGSIZE,
    .help = "binomial tree, message pipelined in segments of segsize bytes (32 KiB)",
};
