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
#include "core/coll/phases/reduce_phases.h"

#include <stdlib.h>

static compi_status_t bcast_kary(coll_closure_t *self, const coll_call_t *call)
{
    const coll_params_t *prm = self->state;
    compi_comm_t *comm = call->comm;
    int p = comm->size, root = call->root;
    int k = prm != NULL && prm->fanout > 0 ? (int)prm->fanout : 2;
    long segsize = prm != NULL ? prm->segsize : 0;
    int v = (comm->rank - root + p) % p, nch = 0;
    void *buf;
    size_t count;
    compi_datatype_t *dt;

    red_bcast_buf(call, &buf, &count, &dt);
    int *children = malloc((size_t)k * sizeof(*children));
    if (children == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    for (long c = (long)k * v + 1; c <= (long)k * v + k && c < p; c++) {
        children[nch++] = (int)((c + root) % p);
    }
    int parent = v == 0 ? -1 : ((v - 1) / k + root) % p;
    compi_status_t st =
        red_tree_bcast(buf, count, dt, parent, children, nch, segsize, coll_tag(call->kind), comm);
    free(children);
    return st;
}

const coll_algo_t coll_algo_bcast_kary = {
    .name = "kary",
    .kind = COLL_BCAST,
    .fn = bcast_kary,
    .usable = NULL,
    .params = "fanout segsize",
    .help = "k-ary tree (fanout, default 2), optionally pipelined in segsize bytes",
};
