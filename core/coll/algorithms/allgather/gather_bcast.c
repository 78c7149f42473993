/*
 * allgather/gather_bcast.c -- a linear gather to rank 0, then rank 0 sends the whole
 * result to every rank.
 *
 *   4 ranks:   gather:  1 --\            bcast:       /--> 1
 *                       2 ---+--> 0            0 ----+---> 2
 *                       3 --/                         \--> 3
 *
 * Cost (p ranks, n bytes per block):
 *   T = 2 (p - 1) alpha + (p - 1) n beta + (p - 1) p n beta, all through rank 0.
 * Simple and latency-overlapped; only for very small p or as a reference.  The flat
 * tree rooted at 0, run by the tree executors (core/coll/executors/), blocking and as a
 * schedule.
 */
#include "core/coll/coll.h"
#include "topologies/tree.h"

/* the flat tree rooted at 0: the tree executors' allgather gathers up it and bcasts the
   result down it */
static topo_tree_t *allgather_gather_bcast_tree(int size, int root, const coll_params_t *params)
{
    (void)params;
    return topo_tree_flat(size, root);
}

const coll_algo_t coll_algo_allgather_gather_bcast = {
    .name = "gather-bcast",
    .kind = COLL_ALLGATHER,
    .tree = allgather_gather_bcast_tree,
    .usable = NULL,
    .help = "linear gather to rank 0, then rank 0 sends everything to every rank",
};
