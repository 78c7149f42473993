/*
 * alltoall/linear.c -- alltoall (and alltoallv and alltoallw: the entries at the end)
 * with every rank sending every block straight to its destination, COLL_MOVE_WINDOW
 * peers at a time (coll_sched_alltoall, sched/sched_phases.c).  The same schedule with a
 * window of 1 is pairwise exchange (alltoall/pairwise.c).
 *
 *   window of distances i = base .. base + W - 1:   rank r receives from r - i
 *                                                   and sends to r + i
 *     r-2  r-1   r   r+1  r+2
 *       \    \   ^^   /    /     receives posted before sends, all in flight together;
 *        +----+--++--+----+      the next window starts when this one is done
 *
 * Cost (p ranks, n bytes per block): T = (p - 1) alpha + (p - 1) n beta with the
 * latencies overlapped (p / W windows): the small-p, small-block choice.
 *
 * MPI_IN_PLACE: the send blocks are taken from a packed copy of the receive buffer
 * (coll_a2a_init), so the exchange never reads what it has already overwritten.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched_phases.h"

static void alltoall_linear_sched(const coll_call_t *call, const coll_params_t *params,
                                  coll_sched_t *s)
{
    (void)params;
    coll_sched_alltoall(call, s, COLL_MOVE_WINDOW);
}

const coll_algo_t coll_algo_alltoall_linear = {
    .name = "linear",
    .kind = COLL_ALLTOALL,
    .usable = NULL,
    .help = "all sends and receives posted at once (windowed); small p",
    .sched = alltoall_linear_sched,
};

/* the same schedule for alltoallv (counts and displacements read through the block
   accessors of phases/blocks.h) */
const coll_algo_t coll_algo_alltoallv_linear = {
    .name = "linear",
    .kind = COLL_ALLTOALLV,
    .usable = NULL,
    .help = "all sends and receives posted at once (windowed); small p",
    .sched = alltoall_linear_sched,
};

/* the same schedule for alltoallw (counts and displacements read through the block
   accessors of phases/blocks.h) */
const coll_algo_t coll_algo_alltoallw_linear = {
    .name = "linear",
    .kind = COLL_ALLTOALLW,
    .usable = NULL,
    .sched = alltoall_linear_sched,
    .help = "all sends and receives posted at once (windowed); small p",
};
