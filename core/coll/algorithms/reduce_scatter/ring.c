/*
 * reduce_scatter/ring.c -- the partial sum of block b starts at rank b + 1 and moves
 * right around the ring, each rank adding its own contribution, until it reaches rank
 * b after p - 1 steps.
 *
 *   p = 3:  step 0:  0 -b2-> 1 -b0-> 2 -b1-> 0
 *           step 1:  0 -b1-> 1 -b2-> 2 -b0-> 0     (now rank i holds bi reduced)
 *
 * Cost, n the whole vector: (p - 1) alpha + (p-1)/p n (beta + gamma): bandwidth-optimal
 * for any p.  Blocks travel around the ring: commutative ops only.  Only two buffers
 * of one block.  Also serves reduce-scatter-block.  One round per step.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

#include <stdlib.h>

/* the blocks rank r sends and receives in step i */
static void rs_ring_blocks(int r, int i, int p, int *sb_p, int *rb_p)
{
    *sb_p = ((r - 1 - i) % p + p) % p;
    *rb_p = ((r - 2 - i) % p + p) % p;
}

static size_t rs_ring_max(const size_t *cnt, int p)
{
    size_t maxc = 0;
    for (int i = 0; i < p; i++) {
        maxc = cnt[i] > maxc ? cnt[i] : maxc;
    }
    return maxc;
}

static void rs_ring_sched(const coll_call_t *call, const coll_params_t *params, coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank;
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    compi_datatype_t *dt = red_dtype(call);
    const char *in = red_input(call);
    char *buf[2];

    (void)params;
    size_t *cnt = coll_sched_alloc(s, 2 * (size_t)p * sizeof(*cnt));
    if (cnt == NULL || coll_rs_counts_fill(call, cnt) == 0) {
        return;
    }
    const size_t *off = cnt + p;
    if (p == 1) {
        if (!call->in_place) {
            coll_sched_copy(s, in, cnt[0], dt, call->rbuf, cnt[0], dt);
            coll_sched_round(s);
        }
        return;
    }
    size_t maxc = rs_ring_max(cnt, p);
    buf[0] = coll_sched_scratch(s, dt, maxc);
    buf[1] = p > 2 ? coll_sched_scratch(s, dt, maxc) : buf[0]; /* 2 ranks: one step */
    if (buf[0] == NULL || buf[1] == NULL) {
        return;
    }
    for (int i = 0; i < p - 1; i++) {
        int sb, rb;
        rs_ring_blocks(r, i, p, &sb, &rb);
        const void *src = i == 0 ? red_at(in, dt, off[sb]) : buf[(i - 1) % 2];
        coll_sched_recv(s, buf[i % 2], cnt[rb], dt, left);
        coll_sched_send(s, src, cnt[sb], dt, right);
        /* the last step's block is this rank's: it combines straight into rbuf, unless
           in place (rbuf then holds the input, which this combination still reads) */
        int to_rbuf = i == p - 2 && !call->in_place;
        coll_sched_reduce3(s, red_at(in, dt, off[rb]), buf[i % 2], to_rbuf ? call->rbuf : buf[i % 2],
                           cnt[rb], dt);
        coll_sched_round(s);
    }
    if (call->in_place) {
        coll_sched_copy(s, buf[(p - 2) % 2], cnt[r], dt, call->rbuf, cnt[r], dt);
        coll_sched_round(s);
    }
}

const coll_algo_t coll_algo_reduce_scatter_ring = {
    .name = "ring",
    .kind = COLL_REDUCE_SCATTER,
    .usable = red_commutative_only,
    .sched = rs_ring_sched,
    .help = "partial blocks travel around the ring, p-1 steps (commutative)",
};

/* the same schedule for reduce-scatter-block (equal blocks of rcount elements) */
const coll_algo_t coll_algo_reduce_scatter_block_ring = {
    .name = "ring",
    .kind = COLL_REDUCE_SCATTER_BLOCK,
    .usable = red_commutative_only,
    .sched = rs_ring_sched,
    .help = "as reduce-scatter ring, with equal blocks",
};
