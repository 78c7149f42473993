/*
 * allgather/ring.c -- allgather (and allgatherv: the entry at the end) around a ring: in
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

compi_status_t coll_allgather_ring(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm;
    int p = comm->size, rank = comm->rank;
    int left = (rank - 1 + p) % p, right = (rank + 1) % p;
    coll_blk_t sb, rb;

    if (p == 1) {
        return coll_own_to_rblock(call);
    }
    coll_rblock(call, left, &rb);
    compi_status_t st = coll_own_exchange(call, right, &rb, left);
    for (int s = 1; s < p - 1 && st == COMPI_OK; s++) {
        coll_rblock(call, (rank - s - 1 + p) % p, &rb);
        coll_rblock(call, (rank - s + p) % p, &sb);
        st = coll_blk_sendrecv(&sb, right, &rb, left, call);
    }
    return st;
}

const coll_algo_t coll_algo_allgather_ring = {
    .name = "ring",
    .kind = COLL_ALLGATHER,
    .fn = coll_allgather_ring,
    .usable = NULL,
    .help = "p - 1 steps around a ring; bandwidth-optimal for large blocks",
    .sched = coll_sched_allgather_ring, /* its nonblocking schedule (sched/sched_phases.c) */
};

/* the same engine for allgatherv (counts and displacements read through the block
   accessors of phases/blocks.h) */
const coll_algo_t coll_algo_allgatherv_ring = {
    .name = "ring",
    .kind = COLL_ALLGATHERV,
    .fn = coll_allgather_ring,
    .usable = NULL,
    .help = "p - 1 steps around a ring",
    .sched = coll_sched_allgather_ring, /* its nonblocking schedule (sched/sched_phases.c) */
};
