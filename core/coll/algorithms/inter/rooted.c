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

#include "core/coll/sched/sched.h"

/* gather(v) and scatter(v): the root and every rank of the other group, directly; a round
   per window of COLL_MOVE_WINDOW peers */
static void inter_rooted_sched(const coll_call_t *call, const coll_params_t *params,
                               coll_sched_t *s)
{
    (void)params;
    int scatter = call->kind == COLL_SCATTER || call->kind == COLL_SCATTERV;
    coll_blk_t b;
    if (call->root == MPI_PROC_NULL) {
        return;
    }
    if (call->root != MPI_ROOT) {
        if (scatter) {
            coll_sched_recv(s, call->rbuf, call->rcount, call->rdt, call->root);
        } else {
            coll_sched_send(s, call->sbuf, call->scount, call->sdt, call->root);
        }
        coll_sched_round(s);
        return;
    }
    for (int j = 0; j < call->comm->size; j++) {
        if (scatter) {
            coll_sblock(call, j, &b);
            coll_sched_send(s, b.buf, b.count, b.dt, j);
        } else {
            coll_rblock(call, j, &b);
            coll_sched_recv(s, b.buf, b.count, b.dt, j);
        }
        if ((j + 1) % COLL_MOVE_WINDOW == 0) {
            coll_sched_round(s);
        }
    }
    coll_sched_round(s);
}

INTER_ALGO(gather, GATHER, inter_rooted_sched,
           "intercommunicators: every rank of the other group sends its block to the root");
INTER_ALGO(gatherv, GATHERV, inter_rooted_sched,
           "intercommunicators: every rank of the other group sends its block to the root");
INTER_ALGO(scatter, SCATTER, inter_rooted_sched,
           "intercommunicators: the root sends each rank of the other group its block");
INTER_ALGO(scatterv, SCATTERV, inter_rooted_sched,
           "intercommunicators: the root sends each rank of the other group its block");
