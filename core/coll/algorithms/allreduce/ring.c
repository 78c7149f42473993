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
 * p, latency linear in p: for large vectors.  Commutative ops only.  As a schedule
 * (nonblocking, persistent): one round per step, the same messages.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

#include <stdlib.h>

/* the blocks rank r sends and receives in step i of the reduce-scatter (phase 0) and of
   the allgather (phase 1); blocking and schedule walk the same steps */
static void ring_blocks(int r, int i, int p, int phase, int *sb_p, int *rb_p)
{
    int first = phase == 0 ? r - i : r + 1 - i;
    *sb_p = (first % p + p) % p;
    *rb_p = ((first - 1) % p + p) % p;
}

static compi_status_t allreduce_ring(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, tag = coll_tag(call->kind);
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call), *cnt = NULL, *off;
    void *tmpmem = NULL;
    char *acc = call->rbuf, *tmp = NULL;
    const char *in = red_input(call);
    compi_status_t st = COMPI_OK;

    (void)self;
    if (count == 0) {
        return COMPI_OK;
    }
    if (p == 1) {
        return red_input_to_rbuf(call);
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
    /* The input is never copied into rbuf: every block this rank receives in the
       reduce-scatter is combined with the input's block straight into rbuf, and the one
       block it never receives (its own, sent first) comes back in the allgather */
    for (int i = 0; i < p - 1 && st == COMPI_OK; i++) {
        int sb, rb;
        ring_blocks(r, i, p, 0, &sb, &rb);
        const char *from = i == 0 ? in : acc;
        st = red_sendrecv(red_at(from, dt, off[sb]), cnt[sb], right, tmp, cnt[rb], left, dt, tag,
                          comm);
        if (st == COMPI_OK && cnt[rb] > 0) {
            st = coll_op_apply3(call->op, dt, tmp, red_at(in, dt, off[rb]),
                                red_at(acc, dt, off[rb]), cnt[rb]);
        }
    }
    for (int i = 0; i < p - 1 && st == COMPI_OK; i++) {
        int sb, rb;
        ring_blocks(r, i, p, 1, &sb, &rb);
        st = red_sendrecv(red_at(acc, dt, off[sb]), cnt[sb], right, red_at(acc, dt, off[rb]),
                          cnt[rb], left, dt, tag, comm);
    }
err:
    coll_scratch_put(cnt);
    coll_scratch_put(tmpmem);
    return st;
}

static void allreduce_ring_sched(const coll_call_t *call, const coll_params_t *params,
                                 coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank;
    int right = (r + 1) % p, left = (r - 1 + p) % p;
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);
    char *acc = call->rbuf;

    (void)params;
    if (count == 0) {
        return;
    }
    if (p == 1) {
        coll_sched_red_input(s, call);
        return;
    }
    const char *in = red_input(call);
    size_t *cnt = coll_sched_alloc(s, 2 * (size_t)p * sizeof(*cnt));
    if (cnt == NULL) {
        return;
    }
    coll_blocks_fill(count, p, cnt);
    const size_t *off = cnt + p;
    char *tmp = coll_sched_scratch(s, dt, cnt[0]);
    if (tmp == NULL) {
        return;
    }
    for (int phase = 0; phase < 2; phase++) {
        for (int i = 0; i < p - 1; i++) {
            int sb, rb;
            ring_blocks(r, i, p, phase, &sb, &rb);
            /* the reduce-scatter combines what comes in, the allgather keeps it */
            char *into = phase == 0 ? tmp : red_at(acc, dt, off[rb]);
            coll_sched_recv(s, into, cnt[rb], dt, left);
            /* as the blocking loop: the input is read where it is, never copied */
            const char *from = phase == 0 && i == 0 ? in : acc;
            coll_sched_send(s, red_at(from, dt, off[sb]), cnt[sb], dt, right);
            if (phase == 0) {
                coll_sched_reduce3(s, tmp, red_at(in, dt, off[rb]), red_at(acc, dt, off[rb]),
                                   cnt[rb], dt);
            }
            coll_sched_round(s);
        }
    }
}

const coll_algo_t coll_algo_allreduce_ring = {
    .name = "ring",
    .kind = COLL_ALLREDUCE,
    .fn = allreduce_ring,
    .usable = red_commutative_only,
    .sched = allreduce_ring_sched,
    .help = "ring reduce-scatter + ring allgather (commutative; large vectors)",
};
