/*
 * scatterv/linear.c -- scatterv with the root sending straight to every rank; the engine
 * is scatter/linear.c's, which reads counts and displacements through coll_sblock().
 *
 *   4 ranks, root 0:            /--> 1
 *                         0 ---+---> 2     blocks of any size, taken at sdispls[i]
 *                               \--> 3
 *
 * Cost (p ranks, N bytes in all): T = (p - 1) alpha + N beta at the root.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched_phases.h"

static compi_status_t scatterv_linear(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    return coll_scatter_linear_run(call);
}

static void scatterv_linear_sched(const coll_call_t *call, const coll_params_t *params, coll_sched_t *s)
{
    (void)params;
    coll_sched_scatter_linear(s, call);
}

const coll_algo_t coll_algo_scatterv_linear = {
    .name = "linear",
    .kind = COLL_SCATTERV,
    .fn = scatterv_linear,
    .usable = NULL,
    .sched = scatterv_linear_sched,
    .params = "",
    .help = "the root sends every block directly (all sends posted at once)",
};
