/*
 * inter/alltoall.c -- allgatherv and alltoall(v,w) on an intercommunicator: every rank sends
 * its block (allgatherv) or block i (alltoall) to rank i of the other group and
 * receives block i from it, everything posted at once in windows.
 *
 * Cost (m remote ranks, b bytes a block): m alpha overlapped + m b beta each way.
 */
#include "core/coll/algorithms/inter/inter.h"

/* allgatherv, alltoall(v,w): block i to and from remote rank i, directly */
static compi_status_t inter_all_direct(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm;
    int one_block = call->kind == COLL_ALLGATHERV;
    compi_status_t st = COMPI_OK;
    compi_request_t *reqs[COLL_MOVE_WINDOW];
    size_t k = 0;

    /* windows of receives and sends to the same ranks: both sides walk 0..m-1 */
    for (int i = 0; i < comm->size; i++) {
        coll_blk_t sb, rb;
        if (one_block) {
            coll_own_sblock(call, &sb);
        } else {
            coll_sblock(call, i, &sb);
        }
        coll_rblock(call, i, &rb);
        coll_move_keep(&st, coll_blk_irecv(&rb, i, call, &reqs[k++]));
        coll_move_keep(&st, coll_blk_isend(&sb, i, call, &reqs[k++]));
        if (k + 2 > COLL_MOVE_WINDOW) {
            coll_move_keep(&st, pml_wait_all_free(k, reqs));
            k = 0;
        }
    }
    coll_move_keep(&st, pml_wait_all_free(k, reqs));
    return st;
}

INTER_ALGO(allgatherv, ALLGATHERV, inter_all_direct, coll_inter_sched_all,
           "intercommunicators: every rank sends its block to every rank of the other group");
INTER_ALGO(alltoall, ALLTOALL, inter_all_direct, coll_inter_sched_all,
           "intercommunicators: block i to and from rank i of the other group, all posted");
INTER_ALGO(alltoallv, ALLTOALLV, inter_all_direct, coll_inter_sched_all,
           "intercommunicators: block i to and from rank i of the other group, all posted");
INTER_ALGO(alltoallw, ALLTOALLW, inter_all_direct, coll_inter_sched_all,
           "intercommunicators: block i to and from rank i of the other group, all posted");
