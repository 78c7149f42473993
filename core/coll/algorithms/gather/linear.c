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

const coll_algo_t coll_algo_gather_linear = {
    .name = "linear",
    .kind = COLL_GATHER,
    .usable = NULL,
    .help = "the root receives every block directly (all receives posted at once)",
    .sched = coll_sched_gather_linear,
};

/* the same schedule for gatherv (counts and displacements read through the block
   accessors of phases/blocks.h) */
const coll_algo_t coll_algo_gatherv_linear = {
    .name = "linear",
    .kind = COLL_GATHERV,
    .usable = NULL,
    .help = "the root receives every block directly (all receives posted at once)",
    .sched = coll_sched_gather_linear,
};
