/*
 * algos_reduce_list.c -- the native algorithms of this family, NULL-terminated (see
 * algo_table.c).  The names (coll_algo_t.name, in the comments) are what Scheme creators
 * write as symbols; keep them stable.
 */
#include "coll.h"

extern const coll_algo_t coll_algo_barrier_linear;
extern const coll_algo_t coll_algo_barrier_dissemination;
extern const coll_algo_t coll_algo_barrier_recursive_doubling;
extern const coll_algo_t coll_algo_bcast_linear;
extern const coll_algo_t coll_algo_bcast_binomial;
extern const coll_algo_t coll_algo_bcast_kary;
extern const coll_algo_t coll_algo_bcast_chain;
extern const coll_algo_t coll_algo_bcast_pipelined_binomial;
extern const coll_algo_t coll_algo_bcast_scatter_allgather;
extern const coll_algo_t coll_algo_reduce_linear;
extern const coll_algo_t coll_algo_reduce_binomial;
extern const coll_algo_t coll_algo_reduce_in_order_binomial;
extern const coll_algo_t coll_algo_reduce_kary;
extern const coll_algo_t coll_algo_reduce_chain;
extern const coll_algo_t coll_algo_reduce_rabenseifner;
extern const coll_algo_t coll_algo_allreduce_recursive_doubling;
extern const coll_algo_t coll_algo_allreduce_rabenseifner;
extern const coll_algo_t coll_algo_allreduce_ring;
extern const coll_algo_t coll_algo_allreduce_reduce_bcast;
extern const coll_algo_t coll_algo_reduce_scatter_reduce_scatterv;
extern const coll_algo_t coll_algo_reduce_scatter_recursive_halving;
extern const coll_algo_t coll_algo_reduce_scatter_ring;
extern const coll_algo_t coll_algo_reduce_scatter_pairwise;
extern const coll_algo_t coll_algo_reduce_scatter_block_reduce_scatterv;
extern const coll_algo_t coll_algo_reduce_scatter_block_recursive_halving;
extern const coll_algo_t coll_algo_reduce_scatter_block_ring;
extern const coll_algo_t coll_algo_reduce_scatter_block_pairwise;
extern const coll_algo_t coll_algo_scan_linear;
extern const coll_algo_t coll_algo_scan_recursive_doubling;
extern const coll_algo_t coll_algo_exscan_linear;
extern const coll_algo_t coll_algo_exscan_recursive_doubling;

const coll_algo_t *const coll_algos_reduce[] = {
    &coll_algo_barrier_linear,                         /* barrier linear */
    &coll_algo_barrier_dissemination,                  /* barrier dissemination */
    &coll_algo_barrier_recursive_doubling,             /* barrier recursive-doubling */
    &coll_algo_bcast_linear,                           /* bcast linear */
    &coll_algo_bcast_binomial,                         /* bcast binomial */
    &coll_algo_bcast_kary,                             /* bcast kary */
    &coll_algo_bcast_chain,                            /* bcast chain */
    &coll_algo_bcast_pipelined_binomial,               /* bcast pipelined-binomial */
    &coll_algo_bcast_scatter_allgather,                /* bcast scatter-allgather */
    &coll_algo_reduce_linear,                          /* reduce linear */
    &coll_algo_reduce_binomial,                        /* reduce binomial */
    &coll_algo_reduce_in_order_binomial,               /* reduce in-order-binomial */
    &coll_algo_reduce_kary,                            /* reduce kary */
    &coll_algo_reduce_chain,                           /* reduce chain */
    &coll_algo_reduce_rabenseifner,                    /* reduce rabenseifner */
    &coll_algo_allreduce_recursive_doubling,           /* allreduce recursive-doubling */
    &coll_algo_allreduce_rabenseifner,                 /* allreduce rabenseifner */
    &coll_algo_allreduce_ring,                         /* allreduce ring */
    &coll_algo_allreduce_reduce_bcast,                 /* allreduce reduce-bcast */
    &coll_algo_reduce_scatter_reduce_scatterv,         /* reduce-scatter reduce-scatterv */
    &coll_algo_reduce_scatter_recursive_halving,       /* reduce-scatter recursive-halving */
    &coll_algo_reduce_scatter_ring,                    /* reduce-scatter ring */
    &coll_algo_reduce_scatter_pairwise,                /* reduce-scatter pairwise */
    &coll_algo_reduce_scatter_block_reduce_scatterv,   /* reduce-scatter-block reduce-scatterv */
    &coll_algo_reduce_scatter_block_recursive_halving, /* reduce-scatter-block recursive-halving */
    &coll_algo_reduce_scatter_block_ring,              /* reduce-scatter-block ring */
    &coll_algo_reduce_scatter_block_pairwise,          /* reduce-scatter-block pairwise */
    &coll_algo_scan_linear,                            /* scan linear */
    &coll_algo_scan_recursive_doubling,                /* scan recursive-doubling */
    &coll_algo_exscan_linear,                          /* exscan linear */
    &coll_algo_exscan_recursive_doubling,              /* exscan recursive-doubling */
    NULL,
};
