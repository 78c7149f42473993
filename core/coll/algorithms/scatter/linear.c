/*
 * scatter/linear.c -- scatter (and scatterv: the entry at the end) with the root sending
 * straight to every rank.
 *
 *   4 ranks, root 0:            /--> 1
 *                         0 ---+---> 2     the root posts all sends at once (at most
 *                               \--> 3     COLL_MOVE_WINDOW in flight)
 *
 * Cost (p ranks, n bytes per block): T = (p - 1) alpha + (p - 1) n beta at the root.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched_phases.h"

compi_status_t coll_scatter_linear(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm;
    int rank = comm->rank, root = call->root;
    coll_blk_t own;
    coll_own_rblock(call, &own);
    if (rank != root) {
        /* the root has its other blocks to send and its own to copy: this rank copies all
           of its block itself (pml_recv_whole), so the root does not also write half */
        return pml_recv_whole(own.buf, own.count, own.dt, root, coll_tag(call->kind), comm,
                              NULL);
    }
    /* start after the root so that the peers are served round-robin */
    return coll_linear_root(call, 0, root + 1, comm->size - 1, &own);
}

const coll_algo_t coll_algo_scatter_linear = {
    .name = "linear",
    .kind = COLL_SCATTER,
    .fn = coll_scatter_linear,
    .usable = NULL,
    .help = "the root sends every block directly (all sends posted at once)",
    .sched = coll_sched_scatter_linear, /* its nonblocking schedule (sched/sched_phases.c) */
};

/* the same engine for scatterv (counts and displacements read through the block
   accessors of phases/blocks.h) */
const coll_algo_t coll_algo_scatterv_linear = {
    .name = "linear",
    .kind = COLL_SCATTERV,
    .fn = coll_scatter_linear,
    .usable = NULL,
    .help = "the root sends every block directly (all sends posted at once)",
    .sched = coll_sched_scatter_linear, /* its nonblocking schedule (sched/sched_phases.c) */
};
