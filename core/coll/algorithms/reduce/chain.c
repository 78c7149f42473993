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

#define DEFAULT_SEGSIZE 65536

static int reduce_chain_usable(const coll_call_t *call, const coll_params_t *params)
{
    (void)params;
    return red_commutative(call) || call->root == 0;
}

static compi_status_t reduce_chain(coll_closure_t *self, const coll_call_t *call)
{
    const coll_params_t *prm = self->state;
    compi_comm_t *comm = call->comm;
    int p = comm->size, root = call->root;
    int v = (comm->rank - root + p) % p, child = (v + 1 + root) % p;
    long segsize = prm != NULL && prm->segsize > 0 ? prm->segsize : DEFAULT_SEGSIZE;
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);

    int parent = v == 0 ? -1 : (v - 1 + root) % p;
    return red_tree_reduce(red_input(call), call->rbuf, count, dt, call->op, parent, &child,
                           v + 1 < p ? 1 : 0, red_segcount(dt, segsize, count),
                           !red_commutative(call), coll_tag(call->kind), comm);
}

const coll_algo_t coll_algo_reduce_chain = {
    .name = "chain",
    .kind = COLL_REDUCE,
    .fn = reduce_chain,
    .usable = reduce_chain_usable,
    .params = "segsize",
    .help = "chain to the root, pipelined in segsize bytes (64 KiB); commutative or root 0",
};
