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

static compi_status_t inter_allreduce(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm;
    int tag = coll_tag(call->kind);
    void *mem;
    void *res = coll_tmp_get(call->sdt, call->scount, &mem);
    compi_status_t st = res != NULL ? COMPI_OK : COMPI_ERR_NO_MEMORY;

    if (st == COMPI_OK) {
        st = coll_inter_lreduce(comm->local_comm, call->sbuf, call->scount, call->sdt, call->op,
                                tag, res);
    }
    if (st == COMPI_OK && comm->rank == 0) {
        /* this group's result goes to the other group, which sends us its own */
        st = coll_inter_leader_swap(comm, res, call->scount, call->sdt, call->rbuf,
                                    call->rcount, call->rdt, tag);
    }
    if (st == COMPI_OK) {
        st = coll_inter_lbcast(comm->local_comm, call->rbuf, call->rcount, call->rdt, tag);
    }
    coll_scratch_put(mem);
    return st;
}

INTER_ALGO(allreduce, ALLREDUCE, inter_allreduce, coll_inter_sched_allreduce,
           "intercommunicators: each group reduces at its leader, the leaders swap, each "
           "broadcasts the other group's result");
