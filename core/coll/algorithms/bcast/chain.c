/*
 * bcast/chain.c -- the ranks form a chain from the root (root, root+1, ... mod p) and
 * the message flows down it in segments of segsize bytes: while rank i forwards
 * segment s, segment s + 1 arrives from rank i - 1.
 *
 *   root --s2 s1 s0--> r+1 --s1 s0--> r+2 --s0--> r+3 ...
 *
 * Cost, S = ceil(n / segsize): (p - 1 + S - 1) (alpha + segsize beta).  For large
 * messages it approaches n beta, independent of p; latency grows linearly with p.
 * Default segsize: 64 KiB.
 */
#include "core/coll/coll.h"
#include "topologies/tree.h"

static topo_tree_t *bcast_chain_tree(int size, int root, const coll_params_t *params)
{
    (void)params;
    return topo_tree_chain(size, root);
}

const coll_algo_t coll_algo_bcast_chain = {
    .name = "chain",
    .kind = COLL_BCAST,
    .tree = bcast_chain_tree,
    .tree_defaults = {.segsize = 65536},
    .usable = NULL,
    .params = COLL_PARAM_SEGSIZE,
    .help = "chain from the root, pipelined in segments of segsize bytes (64 KiB)",
};
