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

static compi_status_t exscan_linear(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, tag = coll_tag(call->kind);
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);
    void *mem = NULL;
    compi_status_t st = COMPI_OK;

    (void)self;
    if (count == 0 || p == 1) {
        return COMPI_OK;
    }
    if (r == 0) {
        return red_send(red_input(call), count, dt, 1, tag, comm);
    }
    if (!call->in_place) {
        /* the input stays where it is: the prefix lands in rbuf, prefix op input goes
           to a temporary and on to the next rank */
        st = red_recv(call->rbuf, count, dt, r - 1, tag, comm);
        if (st != COMPI_OK || r == p - 1) {
            return st;
        }
        char *next = coll_tmp_get(dt, count, &mem);
        if (next == NULL) {
            return COMPI_ERR_NO_MEMORY;
        }
        st = coll_op_apply3(call->op, dt, call->rbuf, call->sbuf, next, count);
        if (st == COMPI_OK) {
            st = red_send(next, count, dt, r + 1, tag, comm);
        }
        coll_scratch_put(mem);
        return st;
    }
    /* in place: own vector, kept aside before the prefix lands in rbuf */
    char *mine = coll_tmp_get(dt, count, &mem);
    if (mine == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    st = coll_copy(call->rbuf, count, dt, mine, count, dt);
    if (st == COMPI_OK) {
        st = red_recv(call->rbuf, count, dt, r - 1, tag, comm);
    }
    if (st == COMPI_OK && r < p - 1) {
        st = coll_op_apply(call->op, dt, call->rbuf, mine, count);
        if (st == COMPI_OK) {
            st = red_send(mine, count, dt, r + 1, tag, comm);
        }
    }
    coll_scratch_put(mem);
    return st;
}

/* the same chain as a schedule: rank r receives the prefix of 0..r-1 into rbuf and passes
   on prefix op mine (its input is copied first: in place, rbuf is overwritten) */
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
    coll_sched_recv(s, call->rbuf, count, dt, r - 1);
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
    .fn = exscan_linear,
    .usable = NULL,
    .sched = exscan_linear_sched,
    .help = "the prefix flows from rank 0 to rank p-1 (any op)",
};
