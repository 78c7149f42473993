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
#include "core/coll/phases/reduce_phases.h"

#define DEFAULT_SEGSIZE 65536

static compi_status_t bcast_chain(coll_closure_t *self, const coll_call_t *call)
{
    const coll_params_t *prm = self->state;
    compi_comm_t *comm = call->comm;
    int p = comm->size, root = call->root;
    int v = (comm->rank - root + p) % p;
    long segsize = prm != NULL && prm->segsize > 0 ? prm->segsize : DEFAULT_SEGSIZE;
    int child = (v + 1 + root) % p;
    void *buf;
    size_t count;
    compi_datatype_t *dt;

    red_bcast_buf(call, &buf, &count, &dt);
    int parent = v == 0 ? -1 : (v - 1 + root) % p;
    return red_tree_bcast(buf, count, dt, parent, &child, v + 1 < p ? 1 : 0, segsize,
                          coll_tag(call->kind), comm);
}

const coll_algo_t coll_algo_bcast_chain = {
    .name = "chain",
    .kind = COLL_BCAST,
    .fn = bcast_chain,
    .usable = NULL,
    .params = "segsize",
    .help = "chain from the root, pipelined in segments of segsize bytes (64 KiB)",
};
