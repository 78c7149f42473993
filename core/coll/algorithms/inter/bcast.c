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

static compi_status_t inter_bcast(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm;
    int tag = coll_tag(call->kind);
    compi_status_t st = COMPI_OK;

    if (call->root == MPI_PROC_NULL) {
        return COMPI_OK;
    }
    if (call->root == MPI_ROOT) {
        return pml_send(call->rbuf, call->rcount, call->rdt, 0, tag, comm, PML_SEND_STANDARD);
    }
    if (comm->rank == 0) {
        st = pml_recv(call->rbuf, call->rcount, call->rdt, call->root, tag, comm, NULL);
    }
    if (st != COMPI_OK) {
        return st;
    }
    return coll_inter_lbcast(comm->local_comm, call->rbuf, call->rcount, call->rdt, tag);
}

INTER_ALGO(bcast, BCAST, inter_bcast, coll_inter_sched_bcast,
           "intercommunicators: the root sends to the other group's leader, which broadcasts "
           "(binomial)");
