/*
 * barrier/dissemination.c -- Hensgen, Finkel and Manber's dissemination barrier: in
 * round k every rank signals rank + 2^k and waits for rank - 2^k (mod p).  After
 * ceil(log2 p) rounds every rank has heard, directly or not, from every other.
 *
 *   p = 5, round 0:  0->1  1->2  2->3  3->4  4->0
 *          round 1:  0->2  1->3  2->4  3->0  4->1
 *          round 2:  0->4  1->0  2->1  3->2  4->3
 *
 * Cost: ceil(log2 p) alpha, for any p (no extra round for non-powers of two).
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

/* one zero-byte send and receive per round */
static void barrier_dissemination_sched(const coll_call_t *call, const coll_params_t *params,
                                        coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank;

    (void)params;
    for (int k = 1; k < p; k <<= 1) {
        coll_sched_send(s, NULL, 0, red_byte(), (r + k) % p);
        coll_sched_recv(s, NULL, 0, red_byte(), (r - k + p) % p);
        coll_sched_round(s);
    }
}

const coll_algo_t coll_algo_barrier_dissemination = {
    .name = "dissemination",
    .kind = COLL_BARRIER,
    .usable = NULL,
    .sched = barrier_dissemination_sched,
    .help = "ceil(log2 p) rounds: signal rank+2^k, wait for rank-2^k",
};
