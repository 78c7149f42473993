/*
 * alltoallw/linear.c -- alltoallw with every block sent straight to its destination,
 * COLL_MOVE_WINDOW peers at a time; the engine is alltoall/linear.c's, which reads
 * counts, displacements and datatypes through coll_sblock() and coll_rblock().
 *
 *     r-2  r-1   r   r+1  r+2
 *       \    \   ^^   /    /     receives posted before sends, all in flight together
 *        +----+--++--+----+
 *
 * Cost (p ranks, N bytes sent by a rank): T = (p - 1) alpha + N beta, latencies
 * overlapped.
 */
#include "core/coll/phases/blocks.h"

const coll_algo_t coll_algo_alltoallw_linear = {
    .name = "linear",
    .kind = COLL_ALLTOALLW,
    .fn = coll_alltoall_linear,
    .usable = NULL,
    .params = "",
    .help = "all sends and receives posted at once (windowed); small p",
};
