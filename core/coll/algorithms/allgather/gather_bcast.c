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
 * Simple and latency-overlapped; only for very small p or as a reference.
 */
#include "core/coll/phases/blocks.h"

static compi_status_t allgather_gather_bcast(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, rank = comm->rank;
    coll_call_t g = *call;
    coll_blk_t all;

    /* the gather engine reads blocks and the own contribution the same way for an
       allgather call; only the root is missing */
    g.root = 0;
    compi_status_t st = coll_gather_linear(self, &g);
    if (st != COMPI_OK || p == 1) {
        return st;
    }
    coll_rblock(call, 0, &all);
    all.count *= (size_t)p;
    if (rank != 0) {
        return pml_recv(all.buf, all.count, all.dt, 0, coll_tag(call->kind), comm, NULL);
    }
    compi_request_t *reqs[COLL_MOVE_WINDOW];
    size_t n = 0;
    for (int i = 1; i < p; i++) {
        coll_move_keep(&st, coll_blk_isend(&all, i, call, &reqs[n++]));
        if (n == COLL_MOVE_WINDOW) {
            coll_move_keep(&st, pml_wait_all_free(n, reqs));
            n = 0;
        }
    }
    coll_move_keep(&st, pml_wait_all_free(n, reqs));
    return st;
}

const coll_algo_t coll_algo_allgather_gather_bcast = {
    .name = "gather-bcast",
    .kind = COLL_ALLGATHER,
    .fn = allgather_gather_bcast,
    .usable = NULL,
    .params = "",
    .help = "linear gather to rank 0, then rank 0 sends everything to every rank",
};
