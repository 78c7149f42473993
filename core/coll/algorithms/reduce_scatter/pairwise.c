/*
 * reduce_scatter/pairwise.c -- in step i (1..p-1) rank r sends block r + i of its
 * input to rank r + i and receives its own block from rank r - i (mod p).  The blocks
 * arrive from r-1, r-2, ..., 0, then p-1, ..., r+1: each run is combined right to left
 * (a(i) op acc), then low op high, so the result is a0 op a1 op ... in rank order:
 * right for non-commutative ops.
 *
 *   p = 4, rank 0:  step 1: -> 1 [b1], <- 3     acc_high = a3
 *                   step 2: -> 2 [b2], <- 2     acc_high = a2 op a3
 *                   step 3: -> 3 [b3], <- 1     acc_high = a1 op a2 op a3
 *                   result = a0 op acc_high
 *
 * Cost, n the whole vector: (p - 1) alpha + (p-1)/p n (beta + gamma), three buffers of
 * one block.  Also serves reduce-scatter-block.  A round per step, combined when both
 * messages are done.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched.h"

#include <stdlib.h>

/* the partials' buffers swap from step to step when the schedule is built */
static void red_rs_pairwise_sched(const coll_call_t *call, const coll_params_t *params,
                                  coll_sched_t *s)
{
    (void)params;
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, have_high = 0;
    compi_datatype_t *dt = red_dtype(call);
    const void *in = red_input(call);

    size_t *cnt = coll_sched_alloc(s, 2 * (size_t)p * sizeof(*cnt));
    if (cnt == NULL || coll_rs_counts_fill(call, cnt) == 0) {
        return;
    }
    const size_t *off = cnt + p;
    size_t n = cnt[r];
    char *low = coll_sched_scratch(s, dt, n);
    char *high = coll_sched_scratch(s, dt, n);
    char *rcv = coll_sched_scratch(s, dt, n);
    if (low == NULL || high == NULL || rcv == NULL) {
        return;
    }
    const char *lowp = red_at(in, dt, off[r]);
    for (int i = 1; i < p; i++) {
        int dst = (r + i) % p, src = (r - i + p) % p;
        coll_sched_recv(s, rcv, n, dt, src);
        coll_sched_send(s, red_at(in, dt, off[dst]), cnt[dst], dt, dst);
        if (n > 0) {
            if (src < r) {
                coll_sched_reduce3(s, rcv, lowp, low, n, dt);
                lowp = low;
            } else if (have_high) {
                coll_sched_reduce(s, rcv, high, n, dt);
            } else {
                char *t = high;
                high = rcv;
                rcv = t;
                have_high = 1;
            }
        }
        coll_sched_round(s);
    }
    if (have_high && lowp == call->rbuf) {
        coll_sched_reduce(s, lowp, high, n, dt);
        lowp = high;
    } else if (have_high) {
        coll_sched_reduce3(s, lowp, high, call->rbuf, n, dt);
        lowp = call->rbuf;
    }
    if (lowp != call->rbuf) {
        coll_sched_copy(s, lowp, n, dt, call->rbuf, n, dt);
    }
    coll_sched_round(s);
}

const coll_algo_t coll_algo_reduce_scatter_pairwise = {
    .name = "pairwise",
    .kind = COLL_REDUCE_SCATTER,
    .usable = NULL,
    .sched = red_rs_pairwise_sched,
    .help = "pairwise exchange of blocks, combined in rank order (any op)",
};

/* the same schedule for reduce-scatter-block (equal blocks of rcount elements) */
const coll_algo_t coll_algo_reduce_scatter_block_pairwise = {
    .name = "pairwise",
    .kind = COLL_REDUCE_SCATTER_BLOCK,
    .usable = NULL,
    .sched = red_rs_pairwise_sched,
    .help = "as reduce-scatter pairwise, with equal blocks",
};
