/*
 * gatherv/linear.c -- gatherv with the root receiving straight from every rank; the
 * engine is gather/linear.c's, which reads counts and displacements through
 * coll_rblock().
 *
 *   4 ranks, root 0:      1 ---\
 *                         2 ----+--> 0     blocks of any size, placed at rdispls[i]
 *                         3 ---/
 *
 * Cost (p ranks, N bytes in all): T = (p - 1) alpha + N beta at the root.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched_phases.h"

static compi_status_t gatherv_linear(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    return coll_gather_linear_run(call);
}

static void gatherv_linear_sched(const coll_call_t *call, const coll_params_t *params, coll_sched_t *s)
{
    (void)params;
    coll_sched_gather_linear(s, call);
}

const coll_algo_t coll_algo_gatherv_linear = {
    .name = "linear",
    .kind = COLL_GATHERV,
    .fn = gatherv_linear,
    .usable = NULL,
    .sched = gatherv_linear_sched,
    .params = "",
    .help = "the root receives every block directly (all receives posted at once)",
};
