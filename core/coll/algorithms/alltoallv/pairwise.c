/*
 * alltoallv/pairwise.c -- alltoallv by pairwise exchange: in step i (1 .. p - 1) rank r
 * sends to r + i and receives from r - i.  The engine is alltoall/linear.c's with a window
 * of one peer.
 *
 *   4 ranks:   step 1:  0->1  1->2  2->3  3->0
 *              step 2:  0->2  1->3  2->0  3->1
 *              step 3:  0->3  1->0  2->1  3->2
 *
 * Cost (p ranks, N bytes sent by a rank): T = (p - 1) alpha + N beta, one message in
 * each direction per link at a time; each step waits for its largest block.
 */
#include "core/coll/phases/blocks.h"

const coll_algo_t coll_algo_alltoallv_pairwise = {
    .name = "pairwise",
    .kind = COLL_ALLTOALLV,
    .fn = coll_alltoall_pairwise,
    .usable = NULL,
    .params = "",
    .help = "p - 1 steps, each a send to r + i and a receive from r - i",
};
