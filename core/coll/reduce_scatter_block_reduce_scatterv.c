/*
 * reduce_scatter_block_reduce_scatterv.c -- reduce-scatter-block by the reduce-scatter algorithm
 * "reduce-scatterv" (reduce_scatter_reduce_scatterv.c: drawing and cost model there; n is the whole
 * vector, p blocks of rcount elements).
 */
#include "coll_reduce_util.h"

const coll_algo_t coll_algo_reduce_scatter_block_reduce_scatterv = {
    .name = "reduce-scatterv",
    .kind = COLL_REDUCE_SCATTER_BLOCK,
    .fn = red_rs_reduce_scatterv,
    .usable = NULL,
    .params = "",
    .help = "as reduce-scatter reduce-scatterv, with equal blocks",
};
