/*
 * allreduce/ring.c -- the vector is cut in p blocks; a ring reduce-scatter (p - 1
 * steps: send a partial block to the right, combine the one from the left) leaves rank
 * r with block r + 1 reduced, then a ring allgather (p - 1 steps) circulates the
 * reduced blocks.
 *
 *   p = 3:  reduce-scatter            allgather
 *           0 -b0-> 1 -b1-> 2 -b2-> 0     0 -b1-> 1 -b2-> 2 -b0-> 0
 *           0 -b2-> 1 -b0-> 2 -b1-> 0     0 -b0-> 1 -b1-> 2 -b2-> 0
 *
 * Cost: 2 (p-1) alpha + 2 (p-1)/p n beta + (p-1)/p n gamma: bandwidth-optimal for any
 * p, latency linear in p: for large vectors.  Commutative ops only.
 */
#include "core/coll/phases/reduce_phases.h"

#include <stdlib.h>

static compi_status_t allreduce_ring(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, tag = coll_tag(call->kind);
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call), *cnt = NULL, *off;
    void *tmpmem = NULL;
    char *acc = call->rbuf, *tmp = NULL;
    compi_status_t st = COMPI_OK;

    (void)self;
    if (count == 0) {
        return COMPI_OK;
    }
    st = red_input_to_rbuf(call);
    if (st != COMPI_OK || p == 1) {
        return st;
    }
    cnt = coll_blocks_get(count, p);
    if (cnt == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    off = cnt + p;
    tmp = coll_tmp_get(dt, cnt[0], &tmpmem);
    if (tmp == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto err;
    }
    for (int i = 0; i < p - 1 && st == COMPI_OK; i++) {
        int sb = ((r - i) % p + p) % p, rb = ((r - i - 1) % p + p) % p;
        st = red_sendrecv(red_at(acc, dt, off[sb]), cnt[sb], right, tmp, cnt[rb], left, dt, tag,
                          comm);
        if (st == COMPI_OK && cnt[rb] > 0) {
            st = coll_op_apply(call->op, dt, tmp, red_at(acc, dt, off[rb]), cnt[rb]);
        }
    }
    for (int i = 0; i < p - 1 && st == COMPI_OK; i++) {
        int sb = ((r + 1 - i) % p + p) % p, rb = ((r - i) % p + p) % p;
        st = red_sendrecv(red_at(acc, dt, off[sb]), cnt[sb], right, red_at(acc, dt, off[rb]),
                          cnt[rb], left, dt, tag, comm);
    }
err:
    coll_scratch_put(cnt);
    coll_scratch_put(tmpmem);
    return st;
}

const coll_algo_t coll_algo_allreduce_ring = {
    .name = "ring",
    .kind = COLL_ALLREDUCE,
    .fn = allreduce_ring,
    .usable = red_commutative_only,
    .params = "",
    .help = "ring reduce-scatter + ring allgather (commutative; large vectors)",
};
