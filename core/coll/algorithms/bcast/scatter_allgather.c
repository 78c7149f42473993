/*
 * bcast/scatter_allgather.c -- van de Geijn's bcast for large messages: the root
 * scatters the message in p blocks down a binomial tree, then a ring allgather gives
 * every rank every block.
 *
 *   scatter (binomial):   root [b0 b1 b2 b3] -> rank 2 gets [b2 b3] -> rank 3 gets [b3]
 *                                            -> rank 1 gets [b1]
 *   allgather (ring):     step i: rank v sends block v - i to v + 1, receives
 *                         block v - i - 1 from v - 1 (mod p), p - 1 steps
 *
 * Cost: (log2 p + p - 1) alpha + 2 (p - 1)/p n beta, against log2 p (alpha + n beta)
 * for binomial: the better choice for large n.  Blocks are cut in packed bytes, so
 * ranks whose datatypes differ (matching signatures) cut them alike.  A round for the
 * receive of the scatter, one for its sends, one per step of the ring.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched.h"

#include <stdlib.h>

/* bytes of blocks [lo, min(hi, p)) */
static size_t span(const size_t *cnt, const size_t *off, int lo, int hi, int p)
{
    if (hi > p) {
        hi = p;
    }
    return hi > lo ? off[hi - 1] + cnt[hi - 1] - off[lo] : 0;
}

/* The scatter's mask for rank v relative to the root: v > 0 receives blocks
   [v, v + mask) from v - mask, then (every rank) sends blocks [c, c + m) to c = v + m for
   m = mask / 2 .. 1 while c < p. */
static int sa_mask(int v, int p)
{
    int mask = 1;
    while (mask < p && !(v & mask)) {
        mask <<= 1;
    }
    return mask;
}

/* the blocks rank v (relative) sends to v + 1 and receives from v - 1 in step i of the
   ring allgather */
static void sa_ring_blocks(int v, int i, int p, int *sb_p, int *rb_p)
{
    *sb_p = ((v - i) % p + p) % p;
    *rb_p = ((v - i - 1) % p + p) % p;
}

static void bcast_scatter_allgather_sched(const coll_call_t *call, const coll_params_t *params,
                                          coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, root = call->root;
    int v = (r - root + p) % p, right = (r + 1) % p, left = (r - 1 + p) % p;
    compi_datatype_t *byte = red_byte(), *dt;
    size_t count;
    void *buf;

    (void)params;
    red_bcast_buf(call, &buf, &count, &dt);
    size_t n = count * dt->size;
    if (n == 0 || p == 1) {
        return;
    }
    /* the packed copy (a non-contiguous datatype) is made and unpacked by steps, so a
       persistent schedule moves what the buffer holds at each start */
    char *data = dt_contig_ptr(dt, buf, count), *packed = NULL;
    if (data == NULL) {
        data = packed = coll_sched_scratch(s, byte, n);
        if (packed == NULL) {
            return;
        }
        if (v == 0) {
            coll_sched_copy(s, buf, count, dt, packed, n, byte);
            coll_sched_round(s);
        }
    }
    size_t *cnt = coll_sched_alloc(s, 2 * (size_t)p * sizeof(*cnt));
    if (cnt == NULL) {
        return;
    }
    coll_blocks_fill(n, p, cnt);
    const size_t *off = cnt + p;

    int mask = sa_mask(v, p);
    if (v != 0) {
        coll_sched_recv(s, data + off[v], span(cnt, off, v, v + mask, p), byte,
                        (v - mask + root) % p);
        coll_sched_round(s);
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (v + mask < p) {
            int c = v + mask;
            coll_sched_send(s, data + off[c], span(cnt, off, c, c + mask, p), byte, (c + root) % p);
        }
    }
    coll_sched_round(s);
    for (int i = 0; i < p - 1; i++) {
        int sb, rb;
        sa_ring_blocks(v, i, p, &sb, &rb);
        coll_sched_recv(s, data + off[rb], cnt[rb], byte, left);
        coll_sched_send(s, data + off[sb], cnt[sb], byte, right);
        coll_sched_round(s);
    }
    if (packed != NULL && v != 0) {
        coll_sched_copy(s, packed, n, byte, buf, count, dt);
        coll_sched_round(s);
    }
}

const coll_algo_t coll_algo_bcast_scatter_allgather = {
    .name = "scatter-allgather",
    .kind = COLL_BCAST,
    .usable = NULL,
    .sched = bcast_scatter_allgather_sched,
    .help = "binomial scatter of p blocks, then ring allgather (van de Geijn; large n)",
};
