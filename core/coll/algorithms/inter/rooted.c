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
    compi_status_t st = COMPI_OK;

    if (call->root == MPI_PROC_NULL) {
        return COMPI_OK;
    }
    if (call->root != MPI_ROOT) {
        return scatter ? pml_recv(call->rbuf, call->rcount, call->rdt, call->root, tag, comm, NULL)
                       : pml_send(call->sbuf, call->scount, call->sdt, call->root, tag, comm,
                                  PML_SEND_STANDARD);
    }
    compi_request_t *reqs[COLL_MOVE_WINDOW];
    size_t k = 0;
    for (int i = 0; i < comm->size; i++) {
        coll_blk_t b;
        if (scatter) {
            coll_sblock(call, i, &b);
            coll_move_keep(&st, coll_blk_isend(&b, i, call, &reqs[k++]));
        } else {
            coll_rblock(call, i, &b);
            coll_move_keep(&st, coll_blk_irecv(&b, i, call, &reqs[k++]));
        }
        if (k == COLL_MOVE_WINDOW) {
            coll_move_keep(&st, pml_wait_all_free(k, reqs));
            k = 0;
        }
    }
    coll_move_keep(&st, pml_wait_all_free(k, reqs));
    return st;
}

INTER_ALGO(gather, GATHER, inter_rooted_direct, coll_inter_sched_rooted,
           "intercommunicators: every rank of the other group sends its block to the root");
INTER_ALGO(gatherv, GATHERV, inter_rooted_direct, coll_inter_sched_rooted,
           "intercommunicators: every rank of the other group sends its block to the root");
INTER_ALGO(scatter, SCATTER, inter_rooted_direct, coll_inter_sched_rooted,
           "intercommunicators: the root sends each rank of the other group its block");
INTER_ALGO(scatterv, SCATTERV, inter_rooted_direct, coll_inter_sched_rooted,
           "intercommunicators: the root sends each rank of the other group its block");
