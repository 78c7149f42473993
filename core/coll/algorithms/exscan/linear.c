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
    /* own vector, kept aside before the prefix lands in rbuf (in place: the same) */
    char *mine = coll_tmp_alloc(dt, count, &mem);
    if (mine == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    st = coll_copy(red_input(call), count, dt, mine, count, dt);
    if (st == COMPI_OK) {
        st = red_recv(call->rbuf, count, dt, r - 1, tag, comm);
    }
    if (st == COMPI_OK && r < p - 1) {
        st = coll_op_apply(call->op, dt, call->rbuf, mine, count);
        if (st == COMPI_OK) {
            st = red_send(mine, count, dt, r + 1, tag, comm);
        }
    }
    free(mem);
    return st;
}

const coll_algo_t coll_algo_exscan_linear = {
    .name = "linear",
    .kind = COLL_EXSCAN,
    .fn = exscan_linear,
    .usable = NULL,
    .params = "",
    .help = "the prefix flows from rank 0 to rank p-1 (any op)",
};
