/*
 * alltoall/pairwise.c -- pairwise exchange: in step i (1 .. p - 1) rank r sends block
 * r + i to rank r + i and receives block r - i from rank r - i, one exchange at a time.
 * The engine is alltoall/linear.c's with a window of one peer.
 *
 *   4 ranks:   step 1:  0->1  1->2  2->3  3->0
 *              step 2:  0->2  1->3  2->0  3->1
 *              step 3:  0->3  1->0  2->1  3->2
 *
 * Cost (p ranks, n bytes per block): T = (p - 1) alpha + (p - 1) n beta, one message in
 * each direction per link at a time: the large-block choice.  As a schedule
 * (nonblocking, persistent): a round per step, the same messages.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched.h"

compi_status_t coll_alltoall_pairwise(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    return coll_alltoall_exchange(call, 1);
}

/* this rank's block to itself, a copy step */
static void own_copy_step(const coll_a2a_t *a, const coll_call_t *call, coll_sched_t *s)
{
    coll_blk_t sb, rb;
    coll_a2a_sblock(a, call->comm->rank, &sb);
    coll_rblock(call, call->comm->rank, &rb);
    coll_sched_copy(s, sb.buf, sb.count, sb.dt, rb.buf, rb.count, rb.dt);
}

/* the steps of the engine with a window of one peer (alltoall/linear.c,
   coll_alltoall_exchange), the own block copied once the first step's messages are out */
static void alltoall_pairwise_sched(const coll_call_t *call, const coll_params_t *params,
                                    coll_sched_t *s)
{
    (void)params;
    int p = call->comm->size, rank = call->comm->rank;
    coll_blk_t sb, rb;
    coll_a2a_t a;

    /* in place: the send blocks are a packed copy made by the first round */
    compi_status_t st = coll_a2a_init_sched(&a, call, s);
    if (st != COMPI_OK) {
        coll_sched_fail(s, st);
        return;
    }
    for (int i = 1; i < p; i++) {
        int src = (rank - i + p) % p, dst = (rank + i) % p;
        coll_rblock(call, src, &rb);
        coll_sched_recv(s, rb.buf, rb.count, rb.dt, src);
        coll_a2a_sblock(&a, dst, &sb);
        coll_sched_send(s, sb.buf, sb.count, sb.dt, dst);
        if (i == 1) {
            own_copy_step(&a, call, s);
        }
        coll_sched_round(s);
    }
    if (p == 1) {
        own_copy_step(&a, call, s);
        coll_sched_round(s);
    }
}

const coll_algo_t coll_algo_alltoall_pairwise = {
    .name = "pairwise",
    .kind = COLL_ALLTOALL,
    .fn = coll_alltoall_pairwise,
    .usable = NULL,
    .sched = alltoall_pairwise_sched,
    .help = "p - 1 steps, each a send to r + i and a receive from r - i; large blocks",
};

/* the same engine for alltoallv (counts and displacements read through the block
   accessors of phases/blocks.h) */
const coll_algo_t coll_algo_alltoallv_pairwise = {
    .name = "pairwise",
    .kind = COLL_ALLTOALLV,
    .fn = coll_alltoall_pairwise,
    .usable = NULL,
    .sched = alltoall_pairwise_sched,
    .help = "p - 1 steps, each a send to r + i and a receive from r - i",
};

/* the same engine for alltoallw (counts and displacements read through the block
   accessors of phases/blocks.h) */
const coll_algo_t coll_algo_alltoallw_pairwise = {
    .name = "pairwise",
    .kind = COLL_ALLTOALLW,
    .fn = coll_alltoall_pairwise,
    .usable = NULL,
    .sched = alltoall_pairwise_sched,
    .help = "p - 1 steps, each a send to r + i and a receive from r - i",
};
