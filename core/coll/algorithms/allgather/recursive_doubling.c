/*
 * allgather/recursive_doubling.c -- recursive doubling, for a power-of-two number of
 * ranks: in step j ranks r and r xor 2^j swap everything they hold, so the range each
 * holds doubles.  Blocks stay in the user's receive buffer, in place.
 *
 *   4 ranks:   step 0:  0 <-> 1   2 <-> 3       each holds 2 blocks
 *              step 1:  0 <-> 2   1 <-> 3       each holds 4 blocks
 *
 * Cost (p ranks, n bytes per block): T = log2(p) alpha + (p - 1) n beta.
 * usable() refuses other sizes; called anyway, it runs the ring (same result).  One
 * round per step.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched_phases.h"

static int is_pow2(int p)
{
    return p > 0 && (p & (p - 1)) == 0;
}

static int rd_usable(const coll_call_t *call, const coll_params_t *params)
{
    (void)params;
    return is_pow2(call->comm->size);
}

/* step `mask`: each holds the mask blocks of its aligned group and swaps them with the
   partner's (rank ^ mask) */
static void rd_step(const coll_call_t *call, int rank, int mask, coll_blk_t *sb, coll_blk_t *rb)
{
    coll_rblock(call, rank & ~(mask - 1), sb);
    coll_rblock(call, (rank ^ mask) & ~(mask - 1), rb);
    sb->count *= (size_t)mask;
    rb->count *= (size_t)mask;
}

static void allgather_recursive_doubling_sched(const coll_call_t *call,
                                               const coll_params_t *params, coll_sched_t *s)
{
    int p = call->comm->size, rank = call->comm->rank;
    coll_blk_t sb, rb;

    if (!is_pow2(p)) {
        coll_sched_allgather_ring(call, params, s);
        return;
    }
    coll_blk_t own;
    coll_own_sblock(call, &own);
    /* the first swap sends the own block from the send buffer while it is copied into
       place (phases/blocks.h, coll_own_to_rblock) */
    for (int mask = 1; mask < p || mask == 1; mask <<= 1) {
        if (p > 1) {
            rd_step(call, rank, mask, &sb, &rb);
            if (mask == 1) {
                sb = own;
            }
            coll_sched_recv(s, rb.buf, rb.count, rb.dt, rank ^ mask);
            coll_sched_send(s, sb.buf, sb.count, sb.dt, rank ^ mask);
        }
        if (mask == 1 && !call->in_place) {
            coll_blk_t mine;
            coll_rblock(call, rank, &mine);
            coll_sched_at_once(s);
            coll_sched_copy(s, own.buf, own.count, own.dt, mine.buf, mine.count, mine.dt);
        }
        coll_sched_round(s);
    }
}

const coll_algo_t coll_algo_allgather_recursive_doubling = {
    .name = "recursive-doubling",
    .kind = COLL_ALLGATHER,
    .usable = rd_usable,
    .sched = allgather_recursive_doubling_sched,
    .help = "log2 p pairwise swaps of doubling ranges; powers of two only",
};
