/*
 * inter/alltoall.c -- allgatherv and alltoall(v,w) on an intercommunicator: every rank sends
 * its block (allgatherv) or block i (alltoall) to rank i of the other group and
 * receives block i from it, everything posted at once in windows.
 *
 * Cost (m remote ranks, b bytes a block): m alpha overlapped + m b beta each way.
 */
#include "core/coll/algorithms/inter/inter.h"

#include "core/coll/sched/sched.h"

/* allgatherv, alltoall(v,w): block i to and from remote rank i, directly; a round per
   window of COLL_MOVE_WINDOW / 2 peers (both groups walk 0..m-1) */
static void inter_all_sched(const coll_call_t *call, const coll_params_t *params,
                            coll_sched_t *s)
{
    (void)params;
    int one_block = call->kind == COLL_ALLGATHERV, m = call->comm->size;
    for (int i = 0; i < m; i++) {
        coll_blk_t sb, rb;
        if (one_block) {
            coll_own_sblock(call, &sb);
        } else {
            coll_sblock(call, i, &sb);
        }
        coll_rblock(call, i, &rb);
        coll_sched_recv(s, rb.buf, rb.count, rb.dt, i);
        coll_sched_send(s, sb.buf, sb.count, sb.dt, i);
        if ((i + 1) % (COLL_MOVE_WINDOW / 2) == 0) {
            coll_sched_round(s);
        }
    }
    coll_sched_round(s);
}

INTER_ALGO(allgatherv, ALLGATHERV, inter_all_sched,
           "intercommunicators: every rank sends its block to every rank of the other group");
INTER_ALGO(alltoall, ALLTOALL, inter_all_sched,
           "intercommunicators: block i to and from rank i of the other group, in windows");
INTER_ALGO(alltoallv, ALLTOALLV, inter_all_sched,
           "intercommunicators: block i to and from rank i of the other group, in windows");
INTER_ALGO(alltoallw, ALLTOALLW, inter_all_sched,
           "intercommunicators: block i to and from rank i of the other group, in windows");
