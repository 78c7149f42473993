/*
 * bcast/binomial.c -- binomial tree over ranks relative to the root; each rank
 * receives once, then serves its largest subtree first.
 *
 *   8 ranks, root 0:       0
 *                        / | \
 *                       4  2  1
 *                      / \  \
 *                     6   5  3
 *                     |
 *                     7
 *
 * Cost: ceil(log2 p) (alpha + n beta).  The choice for small messages.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

static compi_status_t bcast_binomial(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, root = call->root, children[32], nch;
    void *buf;
    size_t count;
    compi_datatype_t *dt;

    (void)self;
    red_bcast_buf(call, &buf, &count, &dt);
    int parent = red_binomial((comm->rank - root + p) % p, p, children, &nch, 0);
    for (int i = 0; i < nch; i++) {
        children[i] = (children[i] + root) % p;
    }
    if (parent >= 0) {
        parent = (parent + root) % p;
    }
    return red_tree_bcast(buf, count, dt, parent, children, nch, 0, coll_tag(call->kind), comm);
}

static void bcast_binomial_sched(const coll_call_t *call, const coll_params_t *params,
                                 coll_sched_t *s)
{
    void *buf;
    size_t count;
    compi_datatype_t *dt;

    (void)params;
    red_bcast_buf(call, &buf, &count, &dt);
    coll_sched_bcast_binomial(s, buf, count, dt, call->root, call->comm);
}

const coll_algo_t coll_algo_bcast_binomial = {
    .name = "binomial",
    .kind = COLL_BCAST,
    .fn = bcast_binomial,
    .usable = NULL,
    .sched = bcast_binomial_sched,
    .params = "",
    .help = "binomial tree: ceil(log2 p) steps of the whole message",
};
