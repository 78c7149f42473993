/*
 * scatter/binomial.c -- scatter along a binomial tree, the mirror of gather/binomial.c:
 * each rank receives its subtree's blocks in one message, keeps its own and sends the
 * upper halves on, largest first.  The engine is scatter/knomial.c's with k = 2.
 *
 *   8 ranks, root 0 (relative ranks), blocks sent in each round:
 *
 *     round 0:  0->4 [4567]
 *     round 1:  0->2 [23]     4->6 [67]
 *     round 2:  0->1 [1]  2->3 [3]  4->5 [5]  6->7 [7]
 *
 * Cost (p ranks, n bytes per block): T = ceil(log2 p) alpha + (p - 1) n beta.
 */
#include "core/coll/phases/blocks.h"

static compi_status_t scatter_binomial(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    return coll_scatter_knomial_run(call, 2);
}

const coll_algo_t coll_algo_scatter_binomial = {
    .name = "binomial",
    .kind = COLL_SCATTER,
    .fn = scatter_binomial,
    .usable = NULL,
    .params = "",
    .help = "binomial tree; inner ranks receive their subtree's blocks in one message",
};
