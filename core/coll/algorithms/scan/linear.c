/*
 * scan/linear.c -- the prefix flows along the ranks in order: rank r receives
 * a0 op ... op a(r-1) from r - 1, combines its own vector on the right and passes the
 * new prefix to r + 1.
 *
 *   0 --a0--> 1 --a0..a1--> 2 --a0..a2--> 3 ...
 *
 * Cost: (p - 1) (alpha + n beta + n gamma) from end to end.  Works for every op.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

#include <stdlib.h>

/* receive the prefix of the ranks below, combine, pass on */
static void scan_linear_sched(const coll_call_t *call, const coll_params_t *params, coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank;
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);

    (void)params;
    if (!call->in_place) {
        coll_sched_copy(s, call->sbuf, count, dt, call->rbuf, count, dt);
        coll_sched_round(s);
    }
    if (r > 0) {
        void *tmp = coll_sched_scratch(s, dt, count);
        coll_sched_red_recv(s, tmp, count, dt, r - 1);
        coll_sched_reduce(s, tmp, call->rbuf, count, dt); /* rbuf = prefix op mine */
        coll_sched_round(s);
    }
    if (r < p - 1) {
        coll_sched_send(s, call->rbuf, count, dt, r + 1);
        coll_sched_round(s);
    }
}

const coll_algo_t coll_algo_scan_linear = {
    .name = "linear",
    .kind = COLL_SCAN,
    .usable = NULL,
    .sched = scan_linear_sched,
    .help = "the prefix flows from rank 0 to rank p-1 (any op)",
};
