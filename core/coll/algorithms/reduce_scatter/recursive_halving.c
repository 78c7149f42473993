/*
 * reduce_scatter/recursive_halving.c -- each step swaps half of the remaining range of
 * blocks with rank XOR 2^k, keeps and combines the other half; after log2 p2 steps a
 * rank holds its own block fully reduced.  Non-powers of two fold first: of ranks
 * 0..2(p-p2)-1, each even one gives its vector to the next odd one, which works for
 * both blocks and hands the even one its block at the end.
 *
 *   p = 4:  0<->2, 1<->3: ranks 0,1 keep b0 b1, ranks 2,3 keep b2 b3
 *           0<->1, 2<->3: rank i keeps bi
 *
 * Cost, n the whole vector: log2 p2 alpha + (p2-1)/p2 n (beta + gamma), plus
 * alpha + n (beta + gamma) to fold.  Commutative ops only.  Also serves
 * reduce-scatter-block.  One round per step.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

#include <stdlib.h>

/* the block of new rank i covers the blocks of the ranks it stands for */
static void rh_new_blocks(const size_t *cnt, const size_t *off, int p2, int rem, size_t *ncnt,
                          size_t *noff)
{
    for (int i = 0; i < p2; i++) {
        int first = red_real_rank(i, rem) - (i < rem ? 1 : 0);
        noff[i] = off[first];
        ncnt[i] = cnt[first] + (i < rem ? cnt[first + 1] : 0);
    }
}

static void rs_recursive_halving_sched(const coll_call_t *call, const coll_params_t *params,
                                       coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank;
    int p2 = red_pow2_floor(p), rem = p - p2;
    compi_datatype_t *dt = red_dtype(call);

    (void)params;
    /* cnt[2 p], then the new blocks ncnt[p2] and noff[p2] */
    size_t *cnt = coll_sched_alloc(s, (2 * (size_t)p + 2 * (size_t)p2) * sizeof(*cnt));
    if (cnt == NULL) {
        return;
    }
    size_t total = coll_rs_counts_fill(call, cnt);
    if (total == 0) {
        return;
    }
    const size_t *off = cnt + p;
    size_t *ncnt = cnt + 2 * p, *noff = ncnt + p2;
    /* a power of two, not in place: the last step combines this rank's block straight
       into rbuf (in place, rbuf still holds the input it reads); at 1 or 2 ranks that is
       the only step, so there is no acc either */
    void *last = rem == 0 && !call->in_place ? call->rbuf : NULL;
    rh_new_blocks(cnt, off, p2, rem, ncnt, noff);
    /* tmp receives the whole vector in the fold, else at most the first step's half */
    size_t tmpc = total;
    if (rem == 0 && p2 >= 2) {
        int lo = 0, hi = p2;
        red_span_t k, sn;
        red_halving_step(ncnt, noff, r, p2 >> 1, &lo, &hi, &k, &sn);
        tmpc = k.n > 0 ? k.n : 1;
    }
    int need_acc = last == NULL || p2 > 2;
    char *acc = need_acc ? coll_sched_scratch(s, dt, total) : NULL;
    char *tmp = coll_sched_scratch(s, dt, tmpc);
    if ((need_acc && acc == NULL) || tmp == NULL) {
        return;
    }
    const char *in = red_input(call);
    int nr = coll_sched_red_fold(s, comm, in, acc, tmp, total, dt);
    if (nr >= 0) {
        coll_sched_red_halving(s, red_fold_partial(comm, in, acc), acc, tmp, last, ncnt, noff,
                               nr, p2, rem, dt);
    }
    if (last != NULL) {
        return;
    }
    if (r < 2 * rem && r % 2 == 0) {
        coll_sched_recv(s, call->rbuf, cnt[r], dt, r + 1);
    } else {
        if (r < 2 * rem) {
            coll_sched_send(s, red_at(acc, dt, off[r - 1]), cnt[r - 1], dt, r - 1);
        }
        coll_sched_copy(s, red_at(acc, dt, off[r]), cnt[r], dt, call->rbuf, cnt[r], dt);
    }
    coll_sched_round(s);
}

const coll_algo_t coll_algo_reduce_scatter_recursive_halving = {
    .name = "recursive-halving",
    .kind = COLL_REDUCE_SCATTER,
    .usable = red_commutative_only,
    .sched = rs_recursive_halving_sched,
    .help = "swap halves with rank XOR 2^k, keep and combine the other (commutative)",
};

/* the same schedule for reduce-scatter-block (equal blocks of rcount elements) */
const coll_algo_t coll_algo_reduce_scatter_block_recursive_halving = {
    .name = "recursive-halving",
    .kind = COLL_REDUCE_SCATTER_BLOCK,
    .usable = red_commutative_only,
    .sched = rs_recursive_halving_sched,
    .help = "as reduce-scatter recursive-halving, with equal blocks",
};
