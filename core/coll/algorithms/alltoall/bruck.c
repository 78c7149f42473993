/*
 * alltoall/bruck.c -- Bruck's alltoall, for any number of ranks: trade bandwidth for
 * latency with ceil(log2 p) steps instead of p - 1.
 *
 *   1. local rotation: position i of a packed temporary gets the block for rank r + i;
 *   2. step j (d = 2^j): send every position with bit j set to rank r + d, receive the
 *      same positions from rank r - d;
 *   3. position i now holds the block from rank r - i: unpack it there.
 *
 *   4 ranks, rank 0's positions (from -> to) after each step:
 *
 *     start:  [0>0 0>1 0>2 0>3]
 *     d = 1:  [0>0 3>0 0>2 3>2]     positions 1, 3 came from rank 3
 *     d = 2:  [0>0 3>0 2>0 1>0]     positions 2, 3 came from rank 2
 *
 * Cost (p ranks, n bytes per block):
 *   T = ceil(log2 p) alpha + ceil(log2 p) (p / 2) n beta + 3 p n (rotation, packing)
 * Small blocks only: it moves each block up to log2 p times.  A round per step, the
 * rotation and the packing around each step as copy steps.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched.h"

#include <stdlib.h>
#include <string.h>

/* the positions the step of distance d moves are those i (d <= i < p) with bit d set:
   the first of them from i on, p when none is left */
static int bruck_pos(int i, int d, int p)
{
    while (i < p && !(i & d)) {
        i++;
    }
    return i;
}

/* the block for rank r + i, which the rotation puts at position i: from the receive
   buffer in place */
static void bruck_rotated(const coll_call_t *call, int rank, int i, coll_blk_t *b)
{
    int dst = (rank + i) % call->comm->size;
    if (call->in_place) {
        coll_rblock(call, dst, b);
    } else {
        coll_sblock(call, dst, b);
    }
}

/* the positions of the step of distance d packed into sendb (as copy steps); returns
   how many */
static size_t bruck_sched_pack(coll_sched_t *s, char *sendb, const char *tmp, size_t n, int d,
                               int p)
{
    compi_datatype_t *byte = coll_move_byte();
    size_t cnt = 0;
    for (int i = bruck_pos(d, d, p); i < p; i = bruck_pos(i + 1, d, p)) {
        coll_sched_copy(s, tmp + (size_t)i * n, n, byte, sendb + cnt * n, n, byte);
        cnt++;
    }
    return cnt;
}

static void alltoall_bruck_sched(const coll_call_t *call, const coll_params_t *params,
                                 coll_sched_t *s)
{
    (void)params;
    int p = call->comm->size, rank = call->comm->rank;
    compi_datatype_t *byte = coll_move_byte();
    coll_blk_t b, rb;

    coll_rblock(call, rank, &rb);
    size_t n = coll_blk_bytes(&rb);
    if (n == 0) {
        return;
    }
    if (p == 1) {
        if (!call->in_place) {
            coll_sblock(call, 0, &b);
            coll_sched_copy(s, b.buf, b.count, b.dt, rb.buf, rb.count, rb.dt);
            coll_sched_round(s);
        }
        return;
    }
    size_t half = (size_t)p / 2 + 1;
    char *tmp = coll_sched_scratch(s, byte, (size_t)p * n);
    char *sendb = coll_sched_scratch(s, byte, half * n);
    char *recvb = coll_sched_scratch(s, byte, half * n);
    if (tmp == NULL || sendb == NULL || recvb == NULL) {
        return;
    }
    /* the rotation, in the first round: in place, everything is read before anything
       lands in the receive buffer */
    for (int i = 0; i < p; i++) {
        bruck_rotated(call, rank, i, &b);
        coll_sched_copy(s, b.buf, b.count, b.dt, tmp + (size_t)i * n, n, byte);
    }
    size_t cnt = bruck_sched_pack(s, sendb, tmp, n, 1, p);
    coll_sched_round(s);
    for (int d = 1; d < p; d <<= 1) {
        coll_sched_recv(s, recvb, cnt * n, byte, (rank - d + p) % p);
        coll_sched_send(s, sendb, cnt * n, byte, (rank + d) % p);
        /* once both are done: what came in into its positions, then the next step's
           positions packed */
        size_t k = 0;
        for (int i = bruck_pos(d, d, p); i < p; i = bruck_pos(i + 1, d, p)) {
            coll_sched_copy(s, recvb + k * n, n, byte, tmp + (size_t)i * n, n, byte);
            k++;
        }
        if (2 * d < p) {
            cnt = bruck_sched_pack(s, sendb, tmp, n, 2 * d, p);
        }
        coll_sched_round(s);
    }
    for (int i = 0; i < p; i++) {
        coll_rblock(call, (rank - i + p) % p, &b);
        coll_sched_copy(s, tmp + (size_t)i * n, n, byte, b.buf, b.count, b.dt);
    }
    coll_sched_round(s);
}

const coll_algo_t coll_algo_alltoall_bruck = {
    .name = "bruck",
    .kind = COLL_ALLTOALL,
    .usable = NULL,
    .sched = alltoall_bruck_sched,
    .help = "ceil(log2 p) steps of packed exchanges, any p; small blocks",
};
