/*
 * inter/reduce_scatter.c -- reduce-scatter and reduce-scatter-block on an intercommunicator:
 * each group reduces all its N elements at its leader, the leaders swap, each leader
 * scatters the other group's result over its group (by recvcounts, or in blocks).
 *
 * Cost (n local ranks, N elements of w bytes in all): ceil(log2 n) (alpha + N w beta +
 * N w gamma), one swap of N w bytes, (n - 1) alpha + N w beta for the scatter.
 */
#include "core/coll/algorithms/inter/inter.h"

/* reduce-scatter(-block): the other group's reduction, scattered over this group */
static compi_status_t inter_reduce_scatter(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm, *lc = comm->local_comm;
    int tag = coll_tag(call->kind), n = lc->size;
    size_t total = call->scount;
    compi_datatype_t *dt = call->sdt;
    void *mem;
    char *mine = coll_tmp_get(dt, total, &mem);
    void *mem2;
    char *theirs = coll_tmp_get(dt, total, &mem2);
    compi_status_t st = mine != NULL && theirs != NULL ? COMPI_OK : COMPI_ERR_NO_MEMORY;

    if (st == COMPI_OK) {
        st = coll_inter_lreduce(lc, call->sbuf, total, dt, call->op, tag, mine);
    }
    if (st == COMPI_OK && lc->rank == 0) {
        st = coll_inter_leader_swap(comm, mine, total, dt, theirs, total, dt, tag);
        size_t off = 0;
        for (int i = 0; i < n && st == COMPI_OK; i++) {
            size_t cnt = coll_vec_given(call->rcounts) ? (size_t)coll_vec_at(call->rcounts, i)
                                                       : call->rcount;
            char *seg = theirs + (ptrdiff_t)off * dt->extent;
            st = i == 0 ? coll_copy(seg, cnt, dt, call->rbuf, cnt, dt)
                        : pml_send(seg, cnt, dt, i, tag, lc, PML_SEND_STANDARD);
            off += cnt;
        }
    } else if (st == COMPI_OK) {
        st = pml_recv(call->rbuf, call->rcount, dt, 0, tag, lc, NULL);
    }
    coll_scratch_put(mem);
    return st;
}

INTER_ALGO(reduce_scatter, REDUCE_SCATTER, inter_reduce_scatter,
           coll_inter_sched_reduce_scatter,
           "intercommunicators: each group reduces at its leader, the leaders swap, each "
           "scatters the other group's result by recvcounts");
INTER_ALGO(reduce_scatter_block, REDUCE_SCATTER_BLOCK, inter_reduce_scatter,
           coll_inter_sched_reduce_scatter,
           "intercommunicators: each group reduces at its leader, the leaders swap, each "
           "scatters the other group's result in blocks");
