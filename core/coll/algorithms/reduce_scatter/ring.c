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
 * of one block.  Also serves reduce-scatter-block.
 */
#include "core/coll/phases/reduce_phases.h"

#include <stdlib.h>

static compi_status_t red_rs_ring(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, tag = coll_tag(call->kind);
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    compi_datatype_t *dt = red_dtype(call);
    const void *in = red_input(call);
    size_t total, maxc = 0;
    void *mem[2] = {NULL, NULL};
    char *buf[2];
    compi_status_t st = COMPI_OK;

    (void)self;
    size_t *cnt = coll_rs_counts_get(call, &total);
    if (cnt == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    if (total == 0) {
        goto err;
    }
    const size_t *off = cnt + p;
    for (int i = 0; i < p; i++) {
        maxc = cnt[i] > maxc ? cnt[i] : maxc;
    }
    if (p == 1) {
        st = call->in_place ? COMPI_OK : coll_copy(in, cnt[0], dt, call->rbuf, cnt[0], dt);
        goto err;
    }
    buf[0] = coll_tmp_get(dt, maxc, &mem[0]);
    buf[1] = coll_tmp_get(dt, maxc, &mem[1]);
    if (buf[0] == NULL || buf[1] == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto err;
    }
    for (int i = 0; i < p - 1 && st == COMPI_OK; i++) {
        int sb = ((r - 1 - i) % p + p) % p, rb = ((r - 2 - i) % p + p) % p;
        const void *src = i == 0 ? red_at(in, dt, off[sb]) : buf[(i - 1) % 2];
        st = red_sendrecv(src, cnt[sb], right, buf[i % 2], cnt[rb], left, dt, tag, comm);
        if (st == COMPI_OK && cnt[rb] > 0) {
            st = coll_op_apply(call->op, dt, red_at(in, dt, off[rb]), buf[i % 2], cnt[rb]);
        }
    }
    if (st == COMPI_OK) {
        st = coll_copy(buf[(p - 2) % 2], cnt[r], dt, call->rbuf, cnt[r], dt);
    }
err:
    coll_scratch_put(mem[0]);
    coll_scratch_put(mem[1]);
    coll_scratch_put(cnt);
    return st;
}

const coll_algo_t coll_algo_reduce_scatter_ring = {
    .name = "ring",
    .kind = COLL_REDUCE_SCATTER,
    .fn = red_rs_ring,
    .usable = red_commutative_only,
    .params = "",
    .help = "partial blocks travel around the ring, p-1 steps (commutative)",
};

/* the same schedule for reduce-scatter-block (equal blocks of rcount elements) */
const coll_algo_t coll_algo_reduce_scatter_block_ring = {
    .name = "ring",
    .kind = COLL_REDUCE_SCATTER_BLOCK,
    .fn = red_rs_ring,
    .usable = red_commutative_only,
    .params = "",
    .help = "as reduce-scatter ring, with equal blocks",
};
