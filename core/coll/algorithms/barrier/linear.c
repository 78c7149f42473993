/*
 * barrier/linear.c -- every rank reports to rank 0, rank 0 releases every rank.
 *
 *      1  2  3            1  2  3
 *       \ | /              ^ ^ ^
 *        v v    fan-in     \|/    fan-out
 *         0                 0
 *
 * Cost: 2 (p - 1) alpha at rank 0 (all messages are empty).  The fallback: simple and
 * right at any size; dissemination is faster from a few ranks on.
 */
#include "core/coll/phases/reduce_phases.h"

#include <stdlib.h>
#include <string.h>

static compi_status_t barrier_linear(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, tag = coll_tag(call->kind);
    compi_datatype_t *byte = red_byte();
    compi_status_t st = COMPI_OK;

    (void)self;
    if (p == 1) {
        return COMPI_OK;
    }
    if (comm->rank != 0) {
        st = red_send(NULL, 0, byte, 0, tag, comm);
        return st != COMPI_OK ? st : red_recv(NULL, 0, byte, 0, tag, comm);
    }
    compi_request_t **reqs = coll_scratch_get((size_t)p * sizeof(*reqs));
    if (reqs == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    memset(reqs, 0, (size_t)p * sizeof(*reqs));
    for (int i = 1; i < p && st == COMPI_OK; i++) {
        st = pml_irecv(NULL, 0, byte, i, tag, comm, &reqs[i]);
    }
    compi_status_t st2 = pml_wait_all_free((size_t)p, reqs);
    st = st != COMPI_OK ? st : st2;
    for (int i = 1; i < p && st == COMPI_OK; i++) {
        st = pml_isend(NULL, 0, byte, i, tag, comm, PML_SEND_STANDARD, &reqs[i]);
    }
    st2 = pml_wait_all_free((size_t)p, reqs);
    coll_scratch_put(reqs);
    return st != COMPI_OK ? st : st2;
}

const coll_algo_t coll_algo_barrier_linear = {
    .name = "linear",
    .kind = COLL_BARRIER,
    .fn = barrier_linear,
    .usable = NULL,
    .params = "",
    .help = "fan-in to rank 0, fan-out from it: 2(p-1) messages at rank 0",
};
