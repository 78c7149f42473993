/*
 * inter/barrier.c -- barrier on an intercommunicator: each group fans in to its leader, the
 * leaders meet, each leader releases its group.
 *
 * Cost (n local ranks): 2 ceil(log2 n) + 1 steps of latency alpha, no data.
 */
#include "core/coll/algorithms/inter/inter.h"

static compi_status_t inter_barrier(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm, *lc = comm->local_comm;
    compi_datatype_t *byte = coll_move_byte();
    int tag = coll_tag(call->kind), n = lc->size, me = lc->rank, span = coll_inter_span(me, n);
    char token = 0, got = 0;
    compi_status_t st = COMPI_OK;

    /* fan in to the leader, the leaders meet, fan out */
    for (int k = 1; k < span && me + k < n && st == COMPI_OK; k <<= 1) {
        st = pml_recv(&got, 0, byte, me + k, tag, lc, NULL);
    }
    if (st == COMPI_OK) {
        st = me > 0 ? pml_send(&token, 0, byte, me & (me - 1), tag, lc, PML_SEND_STANDARD)
                    : coll_inter_leader_swap(comm, &token, 0, byte, &got, 0, byte, tag);
    }
    return st == COMPI_OK ? coll_inter_lbcast(lc, &token, 0, byte, tag) : st;
}

INTER_ALGO(barrier, BARRIER, inter_barrier, coll_inter_sched_barrier,
           "intercommunicators: each group gathers at its leader, the leaders meet, each "
           "releases its group");
