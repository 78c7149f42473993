/*
 * alltoallv/linear.c -- alltoallv with every block sent straight to its destination,
 * COLL_MOVE_WINDOW peers at a time; the engine is alltoall/linear.c's, which reads
 * counts, displacements through coll_sblock() and coll_rblock().
 *
 *     r-2  r-1   r   r+1  r+2
 *       \    \   ^^   /    /     receives posted before sends, all in flight together
 *        +----+--++--+----+
 *
 * Cost (p ranks, N bytes sent by a rank): T = (p - 1) alpha + N beta, latencies
 * overlapped.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched_phases.h"

static compi_status_t alltoallv_linear(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    return coll_alltoall_exchange(call, COLL_MOVE_WINDOW);
}

static void alltoallv_linear_sched(const coll_call_t *call, const coll_params_t *params, coll_sched_t *s)
{
    (void)params;
    coll_sched_alltoall_linear(s, call);
}

const coll_algo_t coll_algo_alltoallv_linear = {
    .name = "linear",
    .kind = COLL_ALLTOALLV,
    .fn = alltoallv_linear,
    .usable = NULL,
    .sched = alltoallv_linear_sched,
    .params = "",
    .help = "all sends and receives posted at once (windowed); small p",
};
