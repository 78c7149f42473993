/*
 * inter/reduce.c -- reduce on an intercommunicator: the other group reduces at its leader in
 * rank order, which sends the result to the root (MPI_ROOT).
 *
 * Cost (m ranks reducing, w bytes): ceil(log2 m) (alpha + w beta + w gamma) + alpha +
 * w beta.
 */
#include "core/coll/algorithms/inter/inter.h"

#include "core/coll/sched/sched.h"

static void inter_reduce_sched(const coll_call_t *call, const coll_params_t *params,
                               coll_sched_t *s)
{
    (void)params;
    compi_comm_t *comm = call->comm;
    if (call->root == MPI_PROC_NULL) {
        return;
    }
    if (call->root == MPI_ROOT) {
        coll_sched_recv(s, call->rbuf, call->rcount, call->rdt, 0);
        coll_sched_round(s);
        return;
    }
    void *res = comm->rank == 0 ? coll_sched_scratch(s, call->sdt, call->scount) : NULL;
    if (comm->rank == 0 && res == NULL) {
        return;
    }
    coll_inter_lreduce(s, comm->local_comm, call->sbuf, call->scount, call->sdt, res);
    if (comm->rank == 0) {
        coll_sched_send(s, res, call->scount, call->sdt, call->root);
        coll_sched_round(s);
    }
}

INTER_ALGO(reduce, REDUCE, inter_reduce_sched,
           "intercommunicators: the other group reduces at its leader (rank order), which "
           "sends to the root");
