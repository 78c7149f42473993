/*
 * inter/allgather.c -- allgather on an intercommunicator: each leader collects its group's
 * blocks in rank order (linear), the leaders swap them, each broadcasts the other
 * group's blocks in its group.
 *
 * Cost (n local, m remote ranks, b bytes a block): (n - 1) (alpha + b beta) at the
 * leader, alpha + max(n, m) b beta for the swap, ceil(log2 n) (alpha + m b beta) to spread.
 */
#include "core/coll/algorithms/inter/inter.h"

static compi_status_t inter_allgather(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm, *lc = comm->local_comm;
    int tag = coll_tag(call->kind), n = lc->size;
    size_t m = (size_t)comm->size;
    compi_status_t st = COMPI_OK;

    if (lc->rank > 0) {
        st = pml_send(call->sbuf, call->scount, call->sdt, 0, tag, lc, PML_SEND_STANDARD);
    } else {
        /* the leader collects its group's blocks, in rank order */
        void *mem;
        char *all = coll_tmp_get(call->sdt, call->scount * (size_t)n, &mem);
        ptrdiff_t blk = (ptrdiff_t)call->scount * call->sdt->extent;
        if (all == NULL) {
            return COMPI_ERR_NO_MEMORY;
        }
        st = coll_copy(call->sbuf, call->scount, call->sdt, all, call->scount, call->sdt);
        for (int i = 1; i < n && st == COMPI_OK; i++) {
            st = pml_recv(all + i * blk, call->scount, call->sdt, i, tag, lc, NULL);
        }
        if (st == COMPI_OK) {
            st = coll_inter_leader_swap(comm, all, call->scount * (size_t)n, call->sdt, call->rbuf,
                             call->rcount * m, call->rdt, tag);
        }
        coll_scratch_put(mem);
    }
    if (st != COMPI_OK) {
        return st;
    }
    return coll_inter_lbcast(lc, call->rbuf, call->rcount * m, call->rdt, tag);
}

INTER_ALGO(allgather, ALLGATHER, inter_allgather, coll_inter_sched_all,
           "intercommunicators: each leader collects its group's blocks, the leaders swap, "
           "each broadcasts the other group's blocks");
