/*
 * exscan/linear.c -- the prefix flows along the ranks in order: rank r receives
 * a0 op ... op a(r-1) from r - 1 (its result), combines its own vector on the right
 * and passes that to r + 1.  Rank 0's receive buffer is left alone, as MPI allows.
 *
 *   0 --a0--> 1 --a0..a1--> 2 --a0..a2--> 3 ...
 *
 * Cost: (p - 1) (alpha + n beta + n gamma) from end to end.  Works for every op.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

#include <stdlib.h>

/* rank r receives the prefix of 0..r-1 into rbuf and passes on prefix op mine (its input
   is copied first: in place, rbuf is overwritten) */
static void exscan_linear_sched(const coll_call_t *call, const coll_params_t *params,
                                coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank;
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);
    const void *in = red_input(call);

    (void)params;
    if (p == 1) {
        return;
    }
    if (r == 0) {
        coll_sched_send(s, in, count, dt, 1);
        coll_sched_round(s);
        return;
    }
    void *mine = NULL;
    if (r < p - 1) {
        mine = coll_sched_scratch(s, dt, count);
        coll_sched_copy(s, in, count, dt, mine, count, dt);
        coll_sched_round(s);
    }
    coll_sched_red_recv(s, call->rbuf, count, dt, r - 1);
    if (r < p - 1) {
        coll_sched_reduce(s, call->rbuf, mine, count, dt); /* mine = prefix op mine */
        coll_sched_round(s);
        coll_sched_send(s, mine, count, dt, r + 1);
    }
    coll_sched_round(s);
}

const coll_algo_t coll_algo_exscan_linear = {
    .name = "linear",
    .kind = COLL_EXSCAN,
    .usable = NULL,
    .sched = exscan_linear_sched,
    .help = "the prefix flows from rank 0 to rank p-1 (any op)",
};
