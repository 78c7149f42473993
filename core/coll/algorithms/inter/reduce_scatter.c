/*
 * inter/reduce_scatter.c -- reduce-scatter and reduce-scatter-block on an intercommunicator:
 * each group reduces all its N elements at its leader, the leaders swap, each leader
 * scatters the other group's result over its group (by recvcounts, or in blocks).
 *
 * Cost (n local ranks, N elements of w bytes in all): ceil(log2 n) (alpha + N w beta +
 * N w gamma), one swap of N w bytes, (n - 1) alpha + N w beta for the scatter.
 */
#include "core/coll/algorithms/inter/inter.h"

#include "core/coll/sched/sched.h"

/* reduce-scatter(-block): the other group's reduction, scattered over this group */
static void inter_reduce_scatter_sched(const coll_call_t *call, const coll_params_t *params,
                                       coll_sched_t *s)
{
    (void)params;
    compi_comm_t *comm = call->comm, *lc = comm->local_comm;
    int n = lc->size;
    size_t total = call->scount;
    compi_datatype_t *dt = call->sdt;

    if (lc->rank > 0) {
        coll_inter_lreduce(s, lc, call->sbuf, total, dt, NULL);
        coll_sched_recv_on(s, lc, call->rbuf, call->rcount, dt, 0);
        coll_sched_round(s);
        return;
    }
    char *mine = coll_sched_scratch(s, dt, total);
    char *theirs = coll_sched_scratch(s, dt, total);
    if (mine == NULL || theirs == NULL) {
        return;
    }
    coll_inter_lreduce(s, lc, call->sbuf, total, dt, mine);
    coll_inter_leader_swap(s, mine, total, dt, theirs, total, dt);
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        size_t cnt = coll_vec_given(call->rcounts) ? (size_t)coll_vec_at(call->rcounts, i)
                                                   : call->rcount;
        char *seg = theirs + (ptrdiff_t)off * dt->extent;
        if (i == 0) {
            coll_sched_copy(s, seg, cnt, dt, call->rbuf, cnt, dt);
        } else {
            coll_sched_send_on(s, lc, seg, cnt, dt, i);
        }
        off += cnt;
    }
    coll_sched_round(s);
}

INTER_ALGO(reduce_scatter, REDUCE_SCATTER, inter_reduce_scatter_sched,
           "intercommunicators: each group reduces at its leader, the leaders swap, each "
           "scatters the other group's result by recvcounts");
INTER_ALGO(reduce_scatter_block, REDUCE_SCATTER_BLOCK, inter_reduce_scatter_sched,
           "intercommunicators: each group reduces at its leader, the leaders swap, each "
           "scatters the other group's result in blocks");
