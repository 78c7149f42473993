/*
 * inter/allgather.c -- allgather on an intercommunicator: each leader collects its group's
 * blocks in rank order (linear), the leaders swap them, each broadcasts the other
 * group's blocks in its group.
 *
 * Cost (n local, m remote ranks, b bytes a block): (n - 1) (alpha + b beta) at the
 * leader, alpha + max(n, m) b beta for the swap, ceil(log2 n) (alpha + m b beta) to spread.
 */
#include "core/coll/algorithms/inter/inter.h"

#include "core/coll/sched/sched.h"

static void inter_allgather_sched(const coll_call_t *call, const coll_params_t *params,
                                  coll_sched_t *s)
{
    (void)params;
    compi_comm_t *comm = call->comm, *lc = comm->local_comm;
    int n = lc->size;
    size_t m = (size_t)comm->size;

    if (lc->rank > 0) {
        coll_sched_send_on(s, lc, call->sbuf, call->scount, call->sdt, 0);
        coll_sched_round(s);
    } else {
        /* the leader collects its group's blocks, in rank order */
        char *all = coll_sched_scratch(s, call->sdt, call->scount * (size_t)n);
        ptrdiff_t blk = (ptrdiff_t)call->scount * call->sdt->extent;
        if (all == NULL) {
            return;
        }
        for (int i = 1; i < n; i++) {
            coll_sched_recv_on(s, lc, all + i * blk, call->scount, call->sdt, i);
        }
        coll_sched_at_once(s);
        coll_sched_copy(s, call->sbuf, call->scount, call->sdt, all, call->scount, call->sdt);
        coll_sched_round(s);
        coll_inter_leader_swap(s, all, call->scount * (size_t)n, call->sdt, call->rbuf,
                               call->rcount * m, call->rdt);
    }
    coll_inter_lbcast(s, lc, call->rbuf, call->rcount * m, call->rdt);
}

INTER_ALGO(allgather, ALLGATHER, inter_allgather_sched,
           "intercommunicators: each leader collects its group's blocks, the leaders swap, "
           "each broadcasts the other group's blocks");
