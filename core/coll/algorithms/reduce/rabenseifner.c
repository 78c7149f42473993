/*
 * reduce/rabenseifner.c -- Rabenseifner's reduce for large vectors: a reduce-scatter
 * by recursive halving leaves each of p2 ranks one fully reduced block, then a
 * binomial gather brings the blocks to one rank, which hands the result to the root.
 * Non-powers of two fold first (p - p2 even ranks give their vector to a neighbour).
 *
 *   reduce-scatter (p2 = 4):  step 1: 0<->2, 1<->3 swap halves, each keeps one half
 *                             step 2: 0<->1, 2<->3 swap quarters
 *                             -> rank i holds block i reduced
 *   gather:                   1 -> 0, 3 -> 2; then 2 -> 0 (blocks 2..3)
 *
 * Cost: 2 log2 p alpha + 2 (p-1)/p n beta + (p-1)/p n gamma, plus n (beta + gamma)
 * to fold and alpha + n beta when the result's holder is not the root, against
 * log2 p (alpha + n beta + n gamma) for binomial.  Commutative ops only.  One round per
 * step.  The input is read where it is: the fold and the first halving step write their
 * combinations straight to the accumulator.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

#include <stdlib.h>

static void reduce_rabenseifner_sched(const coll_call_t *call, const coll_params_t *params,
                                      coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, root = call->root;
    int p2 = red_pow2_floor(p), rem = p - p2, holder = red_real_rank(0, rem);
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);

    (void)params;
    if (count == 0) {
        return;
    }
    char *acc = coll_sched_scratch(s, dt, count);
    char *tmp = coll_sched_scratch(s, dt, count);
    size_t *cnt = coll_sched_alloc(s, 2 * (size_t)p2 * sizeof(*cnt));
    if (acc == NULL || tmp == NULL || cnt == NULL) {
        return;
    }
    coll_blocks_fill(count, p2, cnt);
    const size_t *off = cnt + p2;
    const char *in = red_input(call);
    int nr = coll_sched_red_fold(s, comm, in, acc, tmp, count, dt);
    if (nr >= 0) {
        coll_sched_red_halving(s, red_fold_partial(comm, in, acc), acc, tmp, NULL, cnt, off, nr, p2, rem,
                               dt);
        for (int mask = 1; mask < p2; mask <<= 1) {
            /* binomial gather to new rank 0: a rank whose low bits are clear below mask
               holds blocks [nr, nr + mask) */
            int send = (nr & mask) != 0, lo = send ? nr : nr + mask;
            red_span_t b = red_span(cnt, off, lo, lo + mask);
            int peer = red_real_rank(send ? nr - mask : nr + mask, rem);
            if (send) {
                coll_sched_send(s, red_at(acc, dt, b.off), b.n, dt, peer);
                coll_sched_round(s);
                break;
            }
            coll_sched_red_recv(s, red_at(acc, dt, b.off), b.n, dt, peer);
            coll_sched_round(s);
        }
    }
    if (r == holder) {
        if (r == root) {
            coll_sched_copy(s, acc, count, dt, call->rbuf, count, dt);
        } else {
            coll_sched_send(s, acc, count, dt, root);
        }
        coll_sched_round(s);
    } else if (r == root) {
        coll_sched_red_recv(s, call->rbuf, count, dt, holder);
        coll_sched_round(s);
    }
}

const coll_algo_t coll_algo_reduce_rabenseifner = {
    .name = "rabenseifner",
    .kind = COLL_REDUCE,
    .usable = red_commutative_only,
    .sched = reduce_rabenseifner_sched,
    .help = "reduce-scatter by recursive halving + binomial gather (commutative, large n)",
};
