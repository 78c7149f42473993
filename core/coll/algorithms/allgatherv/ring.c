/*
 * allgatherv/ring.c -- allgatherv around a ring; the engine is allgather/ring.c's, which
 * reads counts and displacements through coll_rblock().
 *
 *        0 --> 1 --> 2 --> 3 --+      in step s rank r forwards block (r - s) mod p
 *        ^                     |
 *        +---------------------+
 *
 * Cost (p ranks, N bytes in all): T = (p - 1) alpha + N beta (less the own block), with
 * the largest block setting the pace of each step.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched_phases.h"

static compi_status_t allgatherv_ring(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    return coll_allgather_ring_run(call);
}

static void allgatherv_ring_sched(const coll_call_t *call, const coll_params_t *params, coll_sched_t *s)
{
    (void)params;
    coll_sched_allgather_ring(s, call);
}

const coll_algo_t coll_algo_allgatherv_ring = {
    .name = "ring",
    .kind = COLL_ALLGATHERV,
    .fn = allgatherv_ring,
    .usable = NULL,
    .sched = allgatherv_ring_sched,
    .params = "",
    .help = "p - 1 steps around a ring",
};
