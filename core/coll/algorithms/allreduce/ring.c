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
 * p, latency linear in p: for large vectors.  Commutative ops only.  One round of steps
 * with dependencies (core/coll/sched/sched.h), so each block moves on as soon as it is
 * in.  The input is never copied into rbuf: every block this rank receives in the
 * reduce-scatter is combined with the input's block straight into rbuf, and the one block
 * it never receives (its own, sent first) comes back in the allgather.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

#include <stdlib.h>

/* the blocks rank r sends and receives in step i of the reduce-scatter (phase 0) and of
   the allgather (phase 1) */
static void ring_blocks(int r, int i, int p, int phase, int *sb_p, int *rb_p)
{
    int first = phase == 0 ? r - i : r + 1 - i;
    *sb_p = (first % p + p) % p;
    *rb_p = ((first - 1) % p + p) % p;
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
    /* one round: each step starts when what it needs is in, not when the ring's previous
       step is complete everywhere on this rank.  Reduce-scatter step i: the receive into
       tmp after the reduction of step i - 1 (tmp free again; it also keeps the receives
       in order), the send of the block step i - 1 reduced after that reduction, the
       reduction after the receive.  Allgather step i: the send of the block received in
       step i - 1 (step 0: the block the last reduction made) after its receive, the
       receive after the one before it and after the reduce-scatter's send of the block it
       overwrites.  Every send's dependencies cover the earlier sends' (and every
       receive's the earlier receives'), so they are posted in ring order. */
    int *rsend = coll_sched_alloc(s, (size_t)p * sizeof(*rsend)), red = -1;
    if (rsend == NULL) {
        return;
    }
    for (int i = 0; i < p - 1; i++) {
        int sb, rb;
        ring_blocks(r, i, p, 0, &sb, &rb);
        coll_sched_after(s, red);
        int in_id = coll_sched_recv(s, tmp, cnt[rb], dt, left);
        coll_sched_after(s, red);
        rsend[i] = coll_sched_send(s, red_at(i == 0 ? in : acc, dt, off[sb]), cnt[sb], dt, right);
        coll_sched_after(s, in_id);
        red = coll_sched_reduce3(s, tmp, red_at(in, dt, off[rb]), red_at(acc, dt, off[rb]), cnt[rb],
                                 dt);
    }
    int got = red;
    for (int i = 0; i < p - 1; i++) {
        int sb, rb;
        ring_blocks(r, i, p, 1, &sb, &rb);
        coll_sched_after(s, got);
        coll_sched_send(s, red_at(acc, dt, off[sb]), cnt[sb], dt, right);
        coll_sched_after(s, got);
        coll_sched_after(s, rsend[i]);
        got = coll_sched_recv(s, red_at(acc, dt, off[rb]), cnt[rb], dt, left);
    }
}

const coll_algo_t coll_algo_allreduce_ring = {
    .name = "ring",
    .kind = COLL_ALLREDUCE,
    .usable = red_commutative_only,
    .sched = allreduce_ring_sched,
    .help = "ring reduce-scatter + ring allgather (commutative; large vectors)",
};
