/*
 * inter/barrier.c -- barrier on an intercommunicator: each group gathers at its leader
 * (empty messages up the binomial tree), the leaders meet, each releases its group.
 *
 * Cost (n ranks in the larger group): 2 ceil(log2 n) + 1 steps of alpha.
 */
#include "core/coll/algorithms/inter/inter.h"

#include "core/coll/sched/sched.h"

static void inter_barrier_sched(const coll_call_t *call, const coll_params_t *params,
                                coll_sched_t *s)
{
    (void)params;
    compi_comm_t *comm = call->comm, *lc = comm->local_comm;
    compi_datatype_t *byte = coll_move_byte();
    int n = lc->size, me = lc->rank, span = coll_inter_span(me, n);
    char *token = coll_sched_alloc(s, 1);
    if (token == NULL) {
        return;
    }
    /* fan in to the leader, the leaders meet, fan out */
    for (int k = 1; k < span && me + k < n; k <<= 1) {
        coll_sched_recv_on(s, lc, token, 0, byte, me + k);
    }
    coll_sched_round(s);
    if (me > 0) {
        coll_sched_send_on(s, lc, token, 0, byte, me & (me - 1));
        coll_sched_round(s);
    } else {
        coll_inter_leader_swap(s, token, 0, byte, token, 0, byte);
    }
    coll_inter_lbcast(s, lc, token, 0, byte);
}

INTER_ALGO(barrier, BARRIER, inter_barrier_sched,
           "intercommunicators: each group gathers at its leader, the leaders meet, each "
           "releases its group");
