/*
 * alltoall/pairwise.c -- pairwise exchange: in step i (1 .. p - 1) rank r sends block
 * r + i to rank r + i and receives block r - i from rank r - i, one exchange at a time.
 * The schedule is alltoall/linear.c's with a window of one peer.
 *
 *   4 ranks:   step 1:  0->1  1->2  2->3  3->0
 *              step 2:  0->2  1->3  2->0  3->1
 *              step 3:  0->3  1->0  2->1  3->2
 *
 * Cost (p ranks, n bytes per block): T = (p - 1) alpha + (p - 1) n beta, one message in
 * each direction per link at a time: the large-block choice.  A round per step.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched_phases.h"

static void alltoall_pairwise_sched(const coll_call_t *call, const coll_params_t *params,
                                    coll_sched_t *s)
{
    (void)params;
    coll_sched_alltoall(call, s, 1);
}

const coll_algo_t coll_algo_alltoall_pairwise = {
    .name = "pairwise",
    .kind = COLL_ALLTOALL,
    .usable = NULL,
    .sched = alltoall_pairwise_sched,
    .help = "p - 1 steps, each a send to r + i and a receive from r - i; large blocks",
};

/* the same engine for alltoallv (counts and displacements read through the block
   accessors of phases/blocks.h) */
const coll_algo_t coll_algo_alltoallv_pairwise = {
    .name = "pairwise",
    .kind = COLL_ALLTOALLV,
    .usable = NULL,
    .sched = alltoall_pairwise_sched,
    .help = "p - 1 steps, each a send to r + i and a receive from r - i",
};

/* the same engine for alltoallw (counts and displacements read through the block
   accessors of phases/blocks.h) */
const coll_algo_t coll_algo_alltoallw_pairwise = {
    .name = "pairwise",
    .kind = COLL_ALLTOALLW,
    .usable = NULL,
    .sched = alltoall_pairwise_sched,
    .help = "p - 1 steps, each a send to r + i and a receive from r - i",
};
