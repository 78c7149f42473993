/*
 * gather/linear.c -- gather (and gatherv: the entry at the end) with the root receiving
 * straight from every rank.
 *
 *   4 ranks, root 0:      1 ---\
 *                         2 ----+--> 0     the root posts all receives at once (at most
 *                         3 ---/           COLL_MOVE_WINDOW in flight), the others send
 *
 * Cost (p ranks, n bytes per block): the root's link carries every block,
 *   T = (p - 1) alpha + (p - 1) n beta
 * but the latencies overlap, so it is the choice for small p or small blocks.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched_phases.h"

compi_status_t coll_gather_linear(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm;
    int rank = comm->rank, root = call->root;
    coll_blk_t own;
    coll_own_sblock(call, &own);
    if (rank != root) {
        return pml_send(own.buf, own.count, own.dt, root, coll_tag(call->kind), comm,
                        PML_SEND_STANDARD);
    }
    /* start after the root so that the peers are served round-robin */
    return coll_linear_root(call, 1, root + 1, comm->size - 1, &own);
}

const coll_algo_t coll_algo_gather_linear = {
    .name = "linear",
    .kind = COLL_GATHER,
    .fn = coll_gather_linear,
    .usable = NULL,
    .help = "the root receives every block directly (all receives posted at once)",
    .sched = coll_sched_gather_linear, /* its nonblocking schedule (sched/sched_phases.c) */
};

/* the same engine for gatherv (counts and displacements read through the block
   accessors of phases/blocks.h) */
const coll_algo_t coll_algo_gatherv_linear = {
    .name = "linear",
    .kind = COLL_GATHERV,
    .fn = coll_gather_linear,
    .usable = NULL,
    .help = "the root receives every block directly (all receives posted at once)",
    .sched = coll_sched_gather_linear, /* its nonblocking schedule (sched/sched_phases.c) */
};
