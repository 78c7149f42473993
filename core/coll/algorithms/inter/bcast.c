/*
 * inter/bcast.c -- bcast on an intercommunicator: the root (MPI_ROOT) sends to the other
 * group's leader, which broadcasts inside its group (binomial); MPI_PROC_NULL ranks do
 * nothing.
 *
 *   root ──► b0 ──► b1, b2, b4 ...
 *
 * Cost (m ranks receiving, w bytes): (1 + ceil(log2 m)) (alpha + w beta).
 */
#include "core/coll/algorithms/inter/inter.h"

#include "core/coll/sched/sched.h"

static void inter_bcast_sched(const coll_call_t *call, const coll_params_t *params,
                              coll_sched_t *s)
{
    (void)params;
    compi_comm_t *comm = call->comm;
    if (call->root == MPI_PROC_NULL) {
        return;
    }
    if (call->root == MPI_ROOT) {
        coll_sched_send(s, call->rbuf, call->rcount, call->rdt, 0);
        coll_sched_round(s);
        return;
    }
    if (comm->rank == 0) {
        coll_sched_recv(s, call->rbuf, call->rcount, call->rdt, call->root);
        coll_sched_round(s);
    }
    coll_inter_lbcast(s, comm->local_comm, call->rbuf, call->rcount, call->rdt);
}

INTER_ALGO(bcast, BCAST, inter_bcast_sched,
           "intercommunicators: the root sends to the other group's leader, which broadcasts "
           "(binomial)");
