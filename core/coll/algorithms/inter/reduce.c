/*
 * inter/reduce.c -- reduce on an intercommunicator: the other group reduces at its leader in
 * rank order, which sends the result to the root (MPI_ROOT).
 *
 * Cost (m ranks reducing, w bytes): ceil(log2 m) (alpha + w beta + w gamma) + alpha +
 * w beta.
 */
#include "core/coll/algorithms/inter/inter.h"

static compi_status_t inter_reduce(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm;
    int tag = coll_tag(call->kind);
    void *mem;
    compi_status_t st;

    if (call->root == MPI_PROC_NULL) {
        return COMPI_OK;
    }
    if (call->root == MPI_ROOT) {
        return pml_recv(call->rbuf, call->rcount, call->rdt, 0, tag, comm, NULL);
    }
    void *res = coll_tmp_get(call->sdt, call->scount, &mem);
    if (res == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    st = coll_inter_lreduce(comm->local_comm, call->sbuf, call->scount, call->sdt, call->op, tag,
                            res);
    if (st == COMPI_OK && comm->rank == 0) {
        st = pml_send(res, call->scount, call->sdt, call->root, tag, comm, PML_SEND_STANDARD);
    }
    coll_scratch_put(mem);
    return st;
}

INTER_ALGO(reduce, REDUCE, inter_reduce, coll_inter_sched_reduce,
           "intercommunicators: the other group reduces at its leader (rank order), which "
           "sends to the root");
