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
#include "core/coll/phases/reduce_phases.h"

#define DEFAULT_SEGSIZE 32768

static compi_status_t bcast_pipelined_binomial(coll_closure_t *self, const coll_call_t *call)
{
    const coll_params_t *prm = self->state;
    compi_comm_t *comm = call->comm;
    int p = comm->size, root = call->root, children[32], nch;
    long segsize = prm != NULL && prm->segsize > 0 ? prm->segsize : DEFAULT_SEGSIZE;
    void *buf;
    size_t count;
    compi_datatype_t *dt;

    red_bcast_buf(call, &buf, &count, &dt);
    int parent = red_binomial((comm->rank - root + p) % p, p, children, &nch, 0);
    for (int i = 0; i < nch; i++) {
        children[i] = (children[i] + root) % p;
    }
    if (parent >= 0) {
        parent = (parent + root) % p;
    }
    return red_tree_bcast(buf, count, dt, parent, children, nch, segsize, coll_tag(call->kind),
                          comm);
}

const coll_algo_t coll_algo_bcast_pipelined_binomial = {
    .name = "pipelined-binomial",
    .kind = COLL_BCAST,
    .fn = bcast_pipelined_binomial,
    .usable = NULL,
    .params = "segsize",
    .help = "binomial tree, message pipelined in segments of segsize bytes (32 KiB)",
};
