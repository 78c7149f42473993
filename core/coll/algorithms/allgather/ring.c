/*
 * allgather/ring.c -- allgather (and allgatherv, allgatherv/ring.c) around a ring: in
 * step s every rank passes the block it received in step s - 1 to its right neighbour.
 *
 *   4 ranks, the block each rank sends in each step:
 *
 *        0 --> 1 --> 2 --> 3 --+      step 0:  0:b0  1:b1  2:b2  3:b3
 *        ^                     |      step 1:  0:b3  1:b0  2:b1  3:b2
 *        +---------------------+      step 2:  0:b2  1:b3  2:b0  3:b1
 *
 * Blocks travel straight between the user's buffers (receive datatype on both sides).
 *
 * Cost (p ranks, n bytes per block): T = (p - 1) alpha + (p - 1) n beta; every link
 * carries the same load, which makes it the large-message choice.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched_phases.h"

compi_status_t coll_allgather_ring_run(const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, rank = comm->rank;
    int left = (rank - 1 + p) % p, right = (rank + 1) % p;
    compi_status_t st = COMPI_OK;
    coll_blk_t own, sb, rb;

    if (!call->in_place) {
        coll_own_sblock(call, &own);
        coll_rblock(call, rank, &rb);
        st = coll_blk_copy(&own, &rb);
    }
    for (int s = 0; s < p - 1 && st == COMPI_OK; s++) {
        compi_request_t *reqs[2];
        coll_rblock(call, (rank - s - 1 + p) % p, &rb);
        coll_rblock(call, (rank - s + p) % p, &sb);
        coll_move_keep(&st, coll_blk_irecv(&rb, left, call, &reqs[0]));
        coll_move_keep(&st, coll_blk_isend(&sb, right, call, &reqs[1]));
        coll_move_keep(&st, pml_wait_all_free(2, reqs));
    }
    return st;
}

static compi_status_t allgather_ring(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    return coll_allgather_ring_run(call);
}

static void allgather_ring_sched(const coll_call_t *call, const coll_params_t *params, coll_sched_t *s)
{
    (void)params;
    coll_sched_allgather_ring(s, call);
}

const coll_algo_t coll_algo_allgather_ring = {
    .name = "ring",
    .kind = COLL_ALLGATHER,
    .fn = allgather_ring,
    .usable = NULL,
    .sched = allgather_ring_sched,
    .params = "",
    .help = "p - 1 steps around a ring; bandwidth-optimal for large blocks",
};
