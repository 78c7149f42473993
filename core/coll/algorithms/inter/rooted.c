/*
 * inter/rooted.c -- gather(v) and scatter(v) on an intercommunicator: the root (MPI_ROOT)
 * and every rank of the other group, directly, all receives (or sends) posted at once
 * (at most COLL_MOVE_WINDOW in flight); MPI_PROC_NULL ranks do nothing.
 *
 *   b0 ──┐
 *   b1 ──┼──► root     (gather; scatter the other way)
 *   b2 ──┘
 *
 * Cost (m remote ranks, b bytes a block): m alpha overlapped + m b beta at the root.
 */
#include "core/coll/algorithms/inter/inter.h"

/* gather(v) and scatter(v): the root and every rank of the other group, directly */
static compi_status_t inter_rooted_direct(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm;
    int scatter = call->kind == COLL_SCATTER || call->kind == COLL_SCATTERV;
    int tag = coll_tag(call->kind);

    if (call->root == MPI_PROC_NULL) {
        return COMPI_OK;
    }
    if (call->root != MPI_ROOT) {
        return scatter ? pml_recv(call->rbuf, call->rcount, call->rdt, call->root, tag, comm, NULL)
                       : pml_send(call->sbuf, call->scount, call->sdt, call->root, tag, comm,
                                  PML_SEND_STANDARD);
    }
    return coll_linear_root(call, !scatter, 0, comm->size, NULL);
}

INTER_ALGO(gather, GATHER, inter_rooted_direct, coll_inter_sched_rooted,
           "intercommunicators: every rank of the other group sends its block to the root");
INTER_ALGO(gatherv, GATHERV, inter_rooted_direct, coll_inter_sched_rooted,
           "intercommunicators: every rank of the other group sends its block to the root");
INTER_ALGO(scatter, SCATTER, inter_rooted_direct, coll_inter_sched_rooted,
           "intercommunicators: the root sends each rank of the other group its block");
INTER_ALGO(scatterv, SCATTERV, inter_rooted_direct, coll_inter_sched_rooted,
           "intercommunicators: the root sends each rank of the other group its block");
