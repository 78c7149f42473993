/*
 * reduce_scatter_block_ring.c -- reduce-scatter-block by the reduce-scatter algorithm
 * "ring" (reduce_scatter_ring.c: drawing and cost model there; n is the whole vector,
 * p blocks of rcount elements).
 */
#include "coll_reduce_util.h"

const coll_algo_t coll_algo_reduce_scatter_block_ring = {
    .name = "ring",
    .kind = COLL_REDUCE_SCATTER_BLOCK,
    .fn = red_rs_ring,
    .usable = red_rs_commutative_only,
    .params = "",
    .help = "as reduce-scatter ring, with equal blocks",
};
