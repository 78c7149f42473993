/*
 * reduce_scatter_block_recursive_halving.c -- reduce-scatter-block by the reduce-scatter algorithm
 * "recursive-halving" (reduce_scatter_recursive_halving.c: drawing and cost model there; n is the
 * whole vector, p blocks of rcount elements).
 */
#include "coll_reduce_util.h"

const coll_algo_t coll_algo_reduce_scatter_block_recursive_halving = {
    .name = "recursive-halving",
    .kind = COLL_REDUCE_SCATTER_BLOCK,
    .fn = red_rs_recursive_halving,
    .usable = red_rs_commutative_only,
    .params = "",
    .help = "as reduce-scatter recursive-halving, with equal blocks",
};
