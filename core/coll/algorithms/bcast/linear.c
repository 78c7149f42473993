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
#include "core/coll/phases/reduce_phases.h"

#include <stdlib.h>

static compi_status_t bcast_linear(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, tag = coll_tag(call->kind);
    void *buf;
    size_t count;
    compi_datatype_t *dt;

    (void)self;
    red_bcast_buf(call, &buf, &count, &dt);
    if (r != call->root) {
        return red_tree_bcast(buf, count, dt, call->root, NULL, 0, 0, tag, comm);
    }
    int *children = malloc((size_t)p * sizeof(*children)), n = 0;
    if (children == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    for (int i = 1; i < p; i++) {
        children[n++] = (call->root + i) % p;
    }
    compi_status_t st = red_tree_bcast(buf, count, dt, -1, children, n, 0, tag, comm);
    free(children);
    return st;
}

const coll_algo_t coll_algo_bcast_linear = {
    .name = "linear",
    .kind = COLL_BCAST,
    .fn = bcast_linear,
    .usable = NULL,
    .params = "",
    .help = "the root sends to every rank: p-1 messages",
};
