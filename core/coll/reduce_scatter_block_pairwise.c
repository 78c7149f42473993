/*
 * reduce_scatter_block_pairwise.c -- reduce-scatter-block by the reduce-scatter algorithm
 * "pairwise" (reduce_scatter_pairwise.c: drawing and cost model there; n is the whole vector,
 * p blocks of rcount elements).
 */
#include "coll_reduce_util.h"

const coll_algo_t coll_algo_reduce_scatter_block_pairwise = {
    .name = "pairwise",
    .kind = COLL_REDUCE_SCATTER_BLOCK,
    .fn = red_rs_pairwise,
    .usable = NULL,
    .params = "",
    .help = "as reduce-scatter pairwise, with equal blocks",
};
