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

const coll_algo_t coll_algo_allgather_ring = {
    .name = "ring",
    .kind = COLL_ALLGATHER,
    .usable = NULL,
    .help = "p - 1 steps around a ring; bandwidth-optimal for large blocks",
    .sched = coll_sched_allgather_ring,
};

/* the same schedule for allgatherv (counts and displacements read through the block
   accessors of phases/blocks.h) */
const coll_algo_t coll_algo_allgatherv_ring = {
    .name = "ring",
    .kind = COLL_ALLGATHERV,
    .usable = NULL,
    .help = "p - 1 steps around a ring",
    .sched = coll_sched_allgather_ring,
};
