/*
 * algos_move_list.c -- the native algorithms of this family, NULL-terminated (see
 * algo_table.c).  The names are what Scheme creators write; keep them stable.
 */
#include "coll.h"

extern const coll_algo_t coll_algo_gather_linear;
extern const coll_algo_t coll_algo_gather_binomial;
extern const coll_algo_t coll_algo_gather_knomial;
extern const coll_algo_t coll_algo_gatherv_linear;
extern const coll_algo_t coll_algo_scatter_linear;
extern const coll_algo_t coll_algo_scatter_binomial;
extern const coll_algo_t coll_algo_scatter_knomial;
extern const coll_algo_t coll_algo_scatterv_linear;
extern const coll_algo_t coll_algo_allgather_ring;
extern const coll_algo_t coll_algo_allgather_bruck;
extern const coll_algo_t coll_algo_allgather_recursive_doubling;
extern const coll_algo_t coll_algo_allgather_gather_bcast;
extern const coll_algo_t coll_algo_allgather_neighbor_exchange;
extern const coll_algo_t coll_algo_allgatherv_ring;
extern const coll_algo_t coll_algo_allgatherv_linear;
extern const coll_algo_t coll_algo_alltoall_pairwise;
extern const coll_algo_t coll_algo_alltoall_bruck;
extern const coll_algo_t coll_algo_alltoall_linear;
extern const coll_algo_t coll_algo_alltoallv_pairwise;
extern const coll_algo_t coll_algo_alltoallv_linear;
extern const coll_algo_t coll_algo_alltoallw_linear;
extern const coll_algo_t coll_algo_alltoallw_pairwise;

const coll_algo_t *const coll_algos_move[] = {
    &coll_algo_gather_linear, /* gather: linear, binomial, knomial */
    &coll_algo_gather_binomial,
    &coll_algo_gather_knomial,
    &coll_algo_gatherv_linear, /* gatherv: linear */
    &coll_algo_scatter_linear, /* scatter: linear, binomial, knomial */
    &coll_algo_scatter_binomial,
    &coll_algo_scatter_knomial,
    &coll_algo_scatterv_linear, /* scatterv: linear */
    &coll_algo_allgather_ring,  /* allgather: ring, bruck, recursive-doubling, */
    &coll_algo_allgather_bruck, /* gather-bcast, neighbor-exchange */
    &coll_algo_allgather_recursive_doubling,
    &coll_algo_allgather_gather_bcast,
    &coll_algo_allgather_neighbor_exchange,
    &coll_algo_allgatherv_ring, /* allgatherv: ring, linear */
    &coll_algo_allgatherv_linear,
    &coll_algo_alltoall_pairwise, /* alltoall: pairwise, bruck, linear */
    &coll_algo_alltoall_bruck,
    &coll_algo_alltoall_linear,
    &coll_algo_alltoallv_pairwise, /* alltoallv: pairwise, linear */
    &coll_algo_alltoallv_linear,
    &coll_algo_alltoallw_linear, /* alltoallw: linear, pairwise */
    &coll_algo_alltoallw_pairwise,
    NULL,
};
