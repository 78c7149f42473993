/*
 * alltoall/linear.c -- alltoall (and alltoallv and alltoallw: the entries at the end)
 * with every rank sending every block straight to its destination, COLL_MOVE_WINDOW
 * peers at a time.  The same engine with a window of 1 is pairwise exchange
 * (alltoall/pairwise.c).
 *
 *   window of distances i = base .. base + W - 1:   rank r receives from r - i
 *                                                   and sends to r + i
 *     r-2  r-1   r   r+1  r+2
 *       \    \   ^^   /    /     receives posted before sends, all in flight together;
 *        +----+--++--+----+      the next window starts when this one is done
 *
 * Cost (p ranks, n bytes per block): T = (p - 1) alpha + (p - 1) n beta with the
 * latencies overlapped (p / W windows): the small-p, small-block choice.
 *
 * MPI_IN_PLACE: the send blocks are taken from a packed copy of the receive buffer
 * (coll_a2a_init), so the exchange never reads what it has already overwritten.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched_phases.h"

/* this rank's block to itself */
static compi_status_t own_copy(const coll_a2a_t *a, const coll_call_t *call)
{
    coll_blk_t sb, rb;
    coll_a2a_sblock(a, call->comm->rank, &sb);
    coll_rblock(call, call->comm->rank, &rb);
    return coll_blk_copy(&sb, &rb);
}

compi_status_t coll_alltoall_exchange(const coll_call_t *call, int window)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, rank = comm->rank;
    compi_request_t *reqs[2 * COLL_MOVE_WINDOW];
    coll_blk_t sb, rb;
    coll_a2a_t a;

    if (window < 1 || window > COLL_MOVE_WINDOW) {
        window = COLL_MOVE_WINDOW;
    }
    compi_status_t st = coll_a2a_init(&a, call);
    if (st != COMPI_OK) {
        return st;
    }
    /* the own block is copied once the first window is posted: the peers' processors
       can read this rank's blocks meanwhile */
    int own_done = 0;
    for (int base = 1; base < p; base += window) {
        int end = base + window < p ? base + window : p;
        size_t n = 0;
        for (int i = base; i < end; i++) {
            int src = (rank - i + p) % p;
            coll_rblock(call, src, &rb);
            coll_move_keep(&st, coll_blk_irecv(&rb, src, call, &reqs[n++]));
        }
        for (int i = base; i < end; i++) {
            int dst = (rank + i) % p;
            coll_a2a_sblock(&a, dst, &sb);
            coll_move_keep(&st, coll_blk_isend(&sb, dst, call, &reqs[n++]));
        }
        if (!own_done) {
            coll_move_keep(&st, own_copy(&a, call));
            own_done = 1;
        }
        coll_move_keep(&st, pml_wait_all_free(n, reqs));
    }
    if (!own_done) {
        coll_move_keep(&st, own_copy(&a, call));
    }
    coll_a2a_fini(&a);
    return st;
}

compi_status_t coll_alltoall_linear(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    return coll_alltoall_exchange(call, COLL_MOVE_WINDOW);
}

const coll_algo_t coll_algo_alltoall_linear = {
    .name = "linear",
    .kind = COLL_ALLTOALL,
    .fn = coll_alltoall_linear,
    .usable = NULL,
    .help = "all sends and receives posted at once (windowed); small p",
    .sched = coll_sched_alltoall_linear, /* its nonblocking schedule (sched/sched_phases.c) */
};

/* the same engine for alltoallv (counts and displacements read through the block
   accessors of phases/blocks.h) */
const coll_algo_t coll_algo_alltoallv_linear = {
    .name = "linear",
    .kind = COLL_ALLTOALLV,
    .fn = coll_alltoall_linear,
    .usable = NULL,
    .help = "all sends and receives posted at once (windowed); small p",
    .sched = coll_sched_alltoall_linear, /* its nonblocking schedule (sched/sched_phases.c) */
};

/* the same engine for alltoallw (counts and displacements read through the block
   accessors of phases/blocks.h) */
const coll_algo_t coll_algo_alltoallw_linear = {
    .name = "linear",
    .kind = COLL_ALLTOALLW,
    .fn = coll_alltoall_linear,
    .usable = NULL,
    .sched = coll_sched_alltoall_linear, /* its nonblocking schedule (sched/sched_phases.c) */
    .help = "all sends and receives posted at once (windowed); small p",
};
