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

const coll_algo_t coll_algo_scatterv_linear = {
    .name = "linear",
    .kind = COLL_SCATTERV,
    .fn = coll_scatter_linear,
    .usable = NULL,
    .params = "",
    .help = "the root sends every block directly (all sends posted at once)",
};
