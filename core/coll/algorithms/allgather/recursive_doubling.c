/*
 * allgather/recursive_doubling.c -- recursive doubling, for a power-of-two number of
 * ranks: in step j ranks r and r xor 2^j swap everything they hold, so the range each
 * holds doubles.  Blocks stay in the user's receive buffer, in place.
 *
 *   4 ranks:   step 0:  0 <-> 1   2 <-> 3       each holds 2 blocks
 *              step 1:  0 <-> 2   1 <-> 3       each holds 4 blocks
 *
 * Cost (p ranks, n bytes per block): T = log2(p) alpha + (p - 1) n beta.
 * usable() refuses other sizes; called anyway, it runs the ring (same result).
 */
#include "core/coll/phases/blocks.h"

static int is_pow2(int p)
{
    return p > 0 && (p & (p - 1)) == 0;
}

static int rd_usable(const coll_call_t *call, const coll_params_t *params)
{
    (void)params;
    return is_pow2(call->comm->size);
}

static compi_status_t allgather_recursive_doubling(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, rank = comm->rank;
    coll_blk_t sb, rb;

    if (!is_pow2(p)) {
        return coll_allgather_ring(self, call);
    }
    compi_status_t st = coll_own_to_rblock(call);
    for (int mask = 1; mask < p && st == COMPI_OK; mask <<= 1) {
        int partner = rank ^ mask;
        /* each holds the mask blocks of its aligned group */
        coll_rblock(call, rank & ~(mask - 1), &sb);
        coll_rblock(call, partner & ~(mask - 1), &rb);
        sb.count *= (size_t)mask;
        rb.count *= (size_t)mask;
        st = coll_blk_sendrecv(&sb, partner, &rb, partner, call);
    }
    return st;
}

const coll_algo_t coll_algo_allgather_recursive_doubling = {
    .name = "recursive-doubling",
    .kind = COLL_ALLGATHER,
    .fn = allgather_recursive_doubling,
    .usable = rd_usable,
    .params = "",
    .help = "log2 p pairwise swaps of doubling ranges; powers of two only",
};
