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

const coll_algo_t coll_algo_gatherv_linear = {
    .name = "linear",
    .kind = COLL_GATHERV,
    .fn = coll_gather_linear,
    .usable = NULL,
    .params = "",
    .help = "the root receives every block directly (all receives posted at once)",
};
