/*
 * barrier/recursive_doubling.c -- pairwise exchanges with rank XOR 2^k among the
 * largest power of two p2 <= p; the p - p2 extra ranks first check in with a partner
 * below p2 and are released by it at the end.
 *
 *   p = 6 (p2 = 4):   4 -> 0, 5 -> 1        (extra ranks check in)
 *                     0 <-> 1, 2 <-> 3      (k = 0)
 *                     0 <-> 2, 1 <-> 3      (k = 1)
 *                     0 -> 4, 1 -> 5        (release)
 *
 * Cost: log2 p2 alpha, plus 2 alpha when p is not a power of two.  A round per step.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched.h"

static void barrier_recursive_doubling_sched(const coll_call_t *call, const coll_params_t *params,
                                             coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, p2 = red_pow2_floor(p);
    compi_datatype_t *byte = red_byte();

    (void)params;
    if (r >= p2) {
        /* check in, and wait for the release */
        coll_sched_send(s, NULL, 0, byte, r - p2);
        coll_sched_recv(s, NULL, 0, byte, r - p2);
        coll_sched_round(s);
        return;
    }
    if (r + p2 < p) {
        coll_sched_recv(s, NULL, 0, byte, r + p2);
        coll_sched_round(s);
    }
    for (int mask = 1; mask < p2; mask <<= 1) {
        coll_sched_send(s, NULL, 0, byte, r ^ mask);
        coll_sched_recv(s, NULL, 0, byte, r ^ mask);
        coll_sched_round(s);
    }
    if (r + p2 < p) {
        coll_sched_send(s, NULL, 0, byte, r + p2);
        coll_sched_round(s);
    }
}

const coll_algo_t coll_algo_barrier_recursive_doubling = {
    .name = "recursive-doubling",
    .kind = COLL_BARRIER,
    .usable = NULL,
    .sched = barrier_recursive_doubling_sched,
    .help = "exchanges with rank XOR 2^k; extra ranks of non-powers of two fold in",
};
