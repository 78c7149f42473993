/*
 * scan/recursive_doubling.c -- in step k every rank exchanges the reduction of its
 * aligned group of 2^k ranks with rank XOR 2^k; a rank adds what comes from below to
 * both its group's reduction and its own prefix, and what comes from above to its
 * group's reduction only.  Groups are ranges of ranks and lower ranges stay on the
 * left: right for non-commutative ops, for any p.
 *
 *   p = 4:  k = 0: 0<->1, 2<->3   prefix(1) = a0 a1, prefix(3) = a2 a3
 *           k = 1: 0<->2, 1<->3   prefix(2) = a0 a1 a2, prefix(3) = a0 a1 a2 a3
 *
 * Cost: ceil(log2 p) (alpha + n beta + 2 n gamma).  For short vectors.
 *
 * Exscan by the same exchange (the exscan entry at the end of this file): what comes
 * from below goes into the group's reduction and into the result (which starts empty:
 * the first piece from below is copied), what comes from above into the group's
 * reduction only.  Rank 0's receive buffer is left alone.
 *
 *   p = 4:  k = 0: 0<->1, 2<->3   result(1) = a0, result(3) = a2
 *           k = 1: 0<->2, 1<->3   result(2) = a0 a1, result(3) = a0 a1 a2
 *
 * A round per exchange, combined when both messages are done.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

#include <stdlib.h>

/* rbuf gets the reduction of the inputs of the lower ranks, and of this rank's own for a
   scan (inclusive); serves both the scan and the exscan entry.  The buffers' roles swap
   from exchange to exchange when the schedule is built */
static void prefix_doubling_sched(const coll_call_t *call, const coll_params_t *params,
                                  coll_sched_t *s)
{
    (void)params;
    int inclusive = call->kind == COLL_SCAN;
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank;
    int ordered = !red_commutative(call), have = inclusive;
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);

    if (count == 0) {
        return;
    }
    if (p == 1) {
        if (inclusive) {
            coll_sched_red_input(s, call);
        }
        return;
    }
    char *partial = coll_sched_scratch(s, dt, count);
    char *tmp = coll_sched_scratch(s, dt, count);
    if (partial == NULL || tmp == NULL) {
        return;
    }
    /* the input into the group's reduction (and an inclusive result) before anything
       lands in rbuf */
    coll_sched_copy(s, red_input(call), count, dt, partial, count, dt);
    if (inclusive && !call->in_place) {
        coll_sched_copy(s, call->sbuf, count, dt, call->rbuf, count, dt);
    }
    coll_sched_round(s);
    for (int mask = 1; mask < p; mask <<= 1) {
        int peer = r ^ mask;
        if (peer >= p) {
            continue;
        }
        coll_sched_recv(s, tmp, count, dt, peer);
        coll_sched_send(s, partial, count, dt, peer);
        if (peer < r) {
            /* from below: into the group's reduction and the result (an exclusive
               result starts empty, so its first piece is copied) */
            coll_sched_reduce(s, tmp, partial, count, dt);
            if (have) {
                coll_sched_reduce(s, tmp, call->rbuf, count, dt);
            } else {
                coll_sched_copy(s, tmp, count, dt, call->rbuf, count, dt);
            }
            have = 1;
        } else if (!ordered) {
            coll_sched_reduce(s, tmp, partial, count, dt);
        } else {
            /* partial op tmp lands in tmp: swap the roles of the buffers */
            coll_sched_reduce(s, partial, tmp, count, dt);
            char *t = partial;
            partial = tmp;
            tmp = t;
        }
        coll_sched_round(s);
    }
}

const coll_algo_t coll_algo_scan_recursive_doubling = {
    .name = "recursive-doubling",
    .kind = COLL_SCAN,
    .usable = NULL,
    .sched = prefix_doubling_sched,
    .help = "exchange group reductions with rank XOR 2^k (any op, any p)",
};

const coll_algo_t coll_algo_exscan_recursive_doubling = {
    .name = "recursive-doubling",
    .kind = COLL_EXSCAN,
    .usable = NULL,
    .sched = prefix_doubling_sched,
    .help = "exchange group reductions with rank XOR 2^k (any op, any p)",
};
