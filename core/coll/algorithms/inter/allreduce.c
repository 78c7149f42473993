/*
 * inter/allreduce.c -- allreduce on an intercommunicator: each group reduces at its leader, the
 * leaders swap their results, each broadcasts the other group's result in its group.
 *
 *   a1 a2 ─► a0 ◄──► b0 ◄─ b1 b2      then  a0 ─► a1 a2,  b0 ─► b1 b2
 *
 * Cost (n ranks in the larger group, w bytes): 2 ceil(log2 n) + 1 steps of alpha +
 * w beta, plus ceil(log2 n) w gamma.
 */
#include "core/coll/algorithms/inter/inter.h"

#include "core/coll/sched/sched.h"

static void inter_allreduce_sched(const coll_call_t *call, const coll_params_t *params,
                                  coll_sched_t *s)
{
    (void)params;
    compi_comm_t *comm = call->comm;
    void *res = comm->rank == 0 ? coll_sched_scratch(s, call->sdt, call->scount) : NULL;
    if (comm->rank == 0 && res == NULL) {
        return;
    }
    coll_inter_lreduce(s, comm->local_comm, call->sbuf, call->scount, call->sdt, res);
    if (comm->rank == 0) {
        /* this group's result goes to the other group, which sends us its own */
        coll_inter_leader_swap(s, res, call->scount, call->sdt, call->rbuf, call->rcount,
                               call->rdt);
    }
    coll_inter_lbcast(s, comm->local_comm, call->rbuf, call->rcount, call->rdt);
}

INTER_ALGO(allreduce, ALLREDUCE, inter_allreduce_sched,
           "intercommunicators: each group reduces at its leader, the leaders swap, each "
           "broadcasts the other group's result");
