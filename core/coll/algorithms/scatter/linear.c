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

const coll_algo_t coll_algo_scatter_linear = {
    .name = "linear",
    .kind = COLL_SCATTER,
    .usable = NULL,
    .help = "the root sends every block directly (all sends posted at once)",
    .sched = coll_sched_scatter_linear,
};

/* the same schedule for scatterv (counts and displacements read through the block
   accessors of phases/blocks.h) */
const coll_algo_t coll_algo_scatterv_linear = {
    .name = "linear",
    .kind = COLL_SCATTERV,
    .usable = NULL,
    .help = "the root sends every block directly (all sends posted at once)",
    .sched = coll_sched_scatter_linear,
};
