/*
 * allgather/bruck.c -- Bruck's allgather, for any number of ranks: in step j every rank
 * sends the blocks it holds to the rank 2^j below it and receives as many from the rank
 * 2^j above it, appending them.  After ceil(log2 p) steps position i of the temporary
 * holds the block of rank (r + i) mod p; one rotation puts them in place.
 *
 *   5 ranks, what rank 0 holds (block numbers) after each step:
 *
 *     start:        [0]
 *     step 0 (d=1): [0 1]          <- from rank 1, which held [1]
 *     step 1 (d=2): [0 1 2 3]      <- from rank 2, which held [2 3]
 *     step 2 (d=4): [0 1 2 3 4]    <- from rank 4, the first p - 4 = 1 of its blocks
 *
 * Cost (p ranks, n bytes per block):
 *   T = ceil(log2 p) alpha + (p - 1) n beta + 2 p n (pack and the final rotation)
 * The latency term is the one of recursive doubling, for any p: the small-block choice.
 * A round per step, the packing and the rotation as copy steps.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched.h"

#include <stdlib.h>

/* the blocks sent and received in the step of distance d: min(d, p - d) */
static size_t bruck_blocks(int d, int p)
{
    return (size_t)(d < p - d ? d : p - d);
}

static void allgather_bruck_sched(const coll_call_t *call, const coll_params_t *params,
                                  coll_sched_t *s)
{
    (void)params;
    int p = call->comm->size, rank = call->comm->rank;
    compi_datatype_t *byte = coll_move_byte();
    coll_blk_t own, b;

    coll_own_sblock(call, &own);
    coll_rblock(call, rank, &b);
    size_t n = coll_blk_bytes(&b);
    if (p == 1 || n == 0) {
        if (!call->in_place) {
            coll_sched_copy(s, own.buf, own.count, own.dt, b.buf, b.count, b.dt);
            coll_sched_round(s);
        }
        return;
    }
    char *tmp = coll_sched_scratch(s, byte, (size_t)p * n);
    if (tmp == NULL) {
        return;
    }
    coll_sched_copy(s, own.buf, own.count, own.dt, tmp, n, byte);
    coll_sched_round(s);
    for (int d = 1; d < p; d <<= 1) {
        size_t cnt = bruck_blocks(d, p);
        coll_sched_recv(s, tmp + (size_t)d * n, cnt * n, byte, (rank + d) % p);
        coll_sched_send(s, tmp, cnt * n, byte, (rank - d + p) % p);
        coll_sched_round(s);
    }
    /* the rotation: blocks rank .. p - 1, then 0 .. rank - 1 */
    size_t upper = (size_t)(p - rank);
    coll_sched_copy(s, tmp, upper * n, byte, b.buf, upper * b.count, b.dt);
    coll_rblock(call, 0, &b);
    coll_sched_copy(s, tmp + upper * n, (size_t)rank * n, byte, b.buf, (size_t)rank * b.count,
                    b.dt);
    coll_sched_round(s);
}

const coll_algo_t coll_algo_allgather_bruck = {
    .name = "bruck",
    .kind = COLL_ALLGATHER,
    .usable = NULL,
    .sched = allgather_bruck_sched,
    .help = "ceil(log2 p) steps for any p, through a packed temporary; small blocks",
};
