/*
 * reduce/chain.c -- the ranks form a chain ending at the root (root+p-1 -> ... ->
 * root+1 -> root, mod p) and the vector flows along it in segments of segsize bytes:
 * each rank combines segment s with its own and passes it on while segment s + 1
 * arrives.
 *
 *   ... r+3 --s0--> r+2 --s1 s0--> r+1 --s2 s1 s0--> root
 *
 * Cost, S = ceil(n / segsize): (p - 1 + S - 1) (alpha + segsize (beta + gamma)):
 * approaches n (beta + gamma) for large n, latency linear in p.  Rank order holds only
 * without wrap-around: non-commutative ops need root 0.  Default segsize: 64 KiB.
 */
#include "core/coll/phases/reduce_phases.h"
#include "topologies/tree.h"

static int reduce_chain_usable(const coll_call_t *call, const coll_params_t *params)
{
    (void)params;
    return red_commutative(call) || call->root == 0;
}

static topo_tree_t *reduce_chain_tree(int size, int root, const coll_params_t *params)
{
    (void)params;
    return topo_tree_chain(size, root);
}

const coll_algo_t coll_algo_reduce_chain = {
    .name = "chain",
    .kind = COLL_REDUCE,
    .tree = reduce_chain_tree,
    .tree_defaults = {.segsize = 65536},
    .usable = reduce_chain_usable,
    .params = COLL_PARAM_SEGSIZE,
    .help = "chain to the root, pipelined in segsize bytes (64 KiB); commutative or root 0",
};
