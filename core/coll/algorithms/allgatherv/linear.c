/*
 * allgatherv/linear.c -- allgatherv with every rank sending its block straight to every
 * other rank, COLL_MOVE_WINDOW peers at a time: in a window rank r receives from
 * r - i and sends to r + i for the window's distances i.
 *
 *   4 ranks:     0 <---> 1
 *                ^ \   / ^
 *                |   X   |       p (p - 1) messages, all in flight at once for small p
 *                v /   \ v
 *                3 <---> 2
 *
 * Cost (p ranks, N bytes in all, n_r the own block): T = (p - 1) alpha + (p - 1) n_r beta
 * out and (N - n_r) beta in, with the latencies overlapped: for small p and small blocks.
 * A round per window.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched.h"

/* the end of the window of distances that starts at base */
static int window_end(int base, int p)
{
    return base + COLL_MOVE_WINDOW < p ? base + COLL_MOVE_WINDOW : p;
}

/* this rank's contribution into its own receive block, a copy step (nothing in place) */
static void own_to_rblock_step(const coll_call_t *call, coll_sched_t *s)
{
    coll_blk_t own, b;
    if (!call->in_place) {
        coll_own_sblock(call, &own);
        coll_rblock(call, call->comm->rank, &b);
        coll_sched_copy(s, own.buf, own.count, own.dt, b.buf, b.count, b.dt);
    }
}

static void allgatherv_linear_sched(const coll_call_t *call, const coll_params_t *params,
                                    coll_sched_t *s)
{
    (void)params;
    int p = call->comm->size, rank = call->comm->rank;
    coll_blk_t own, b;

    coll_own_sblock(call, &own);
    for (int base = 1; base < p; base += COLL_MOVE_WINDOW) {
        int end = window_end(base, p);
        for (int i = base; i < end; i++) {
            int src = (rank - i + p) % p;
            coll_rblock(call, src, &b);
            coll_sched_recv(s, b.buf, b.count, b.dt, src);
        }
        for (int i = base; i < end; i++) {
            coll_sched_send(s, own.buf, own.count, own.dt, (rank + i) % p);
        }
        if (base == 1) {
            /* the own block into place while the first window's messages travel */
            own_to_rblock_step(call, s);
        }
        coll_sched_round(s);
    }
    if (p == 1) {
        own_to_rblock_step(call, s);
        coll_sched_round(s);
    }
}

const coll_algo_t coll_algo_allgatherv_linear = {
    .name = "linear",
    .kind = COLL_ALLGATHERV,
    .usable = NULL,
    .sched = allgatherv_linear_sched,
    .help = "every rank sends its block to every other rank at once (windowed)",
};
