/*
 * reduce/kary.c -- a k-ary tree over ranks relative to the root (heap numbering: the
 * children of v are k v + 1 .. k v + k); each rank combines its children's partial
 * results into its own and sends up, optionally in segments of segsize bytes so the
 * levels of the tree work at once.
 *
 *   k = 2:          0
 *                 /   \
 *                1     2
 *               / \   / \
 *              3   4 5   6
 *
 * Cost: ceil(log_k p) levels of k (alpha + n beta + n gamma); with S segments about
 * (depth + S - 1) k (alpha + segsize beta + segsize gamma).  Subtrees are not ranges
 * of ranks: commutative ops only.  Default k = 2, not segmented.
 */
#include "core/coll/phases/reduce_phases.h"

#include <stdlib.h>

static compi_status_t reduce_kary(coll_closure_t *self, const coll_call_t *call)
{
    const coll_params_t *prm = self->state;
    compi_comm_t *comm = call->comm;
    int p = comm->size, root = call->root, nch = 0;
    int k = prm != NULL && prm->fanout > 0 ? (int)prm->fanout : 2;
    int v = (comm->rank - root + p) % p;
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);

    int *children = malloc((size_t)k * sizeof(*children));
    if (children == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    for (long c = (long)k * v + 1; c <= (long)k * v + k && c < p; c++) {
        children[nch++] = (int)((c + root) % p);
    }
    int parent = v == 0 ? -1 : ((v - 1) / k + root) % p;
    compi_status_t st = red_tree_reduce(
        red_input(call), call->rbuf, count, dt, call->op, parent, children, nch,
        red_segcount(dt, prm != NULL ? prm->segsize : 0, count), 0, coll_tag(call->kind), comm);
    free(children);
    return st;
}

const coll_algo_t coll_algo_reduce_kary = {
    .name = "kary",
    .kind = COLL_REDUCE,
    .fn = reduce_kary,
    .usable = red_commutative_only,
    .params = "fanout segsize",
    .help = "k-ary tree (fanout, default 2), optionally segmented; commutative ops",
};
