/*
 * sched_phases.c -- pieces of schedules several algorithms add (see sched_phases.h): the
 * linear gather and scatter, the ring allgather, the linear alltoall, the reduce family's
 * fold, recursive halving and recursive doubling.  Trees run as
 * schedules through the tree executors (core/coll/executors/tree_exec_sched.c).
 */
#include "core/coll/sched/sched_phases.h"

#include "core/coll/phases/blocks.h"
#include "core/coll/phases/reduce_phases.h"

/* the root's side of a linear gather(v) or scatter(v): rounds of COLL_MOVE_WINDOW
   peers, starting after the root so that the peers are served round-robin; its own block
   copied in the first round, while the peers' data is on its way */
static void linear_root(const coll_call_t *call, coll_sched_t *s, int gather,
                        const coll_blk_t *own)
{
    int p = call->comm->size, me = call->comm->rank;
    coll_blk_t b;
    for (int k = 0; k < p - 1 || k == 0; k += COLL_MOVE_WINDOW) {
        int end = k + COLL_MOVE_WINDOW < p - 1 ? k + COLL_MOVE_WINDOW : p - 1;
        for (int j = k; j < end; j++) {
            int i = (me + 1 + j) % p;
            if (gather) {
                coll_rblock(call, i, &b);
                coll_sched_recv(s, b.buf, b.count, b.dt, i);
            } else {
                coll_sblock(call, i, &b);
                coll_sched_send(s, b.buf, b.count, b.dt, i);
            }
        }
        if (k == 0 && !call->in_place) {
            coll_sched_at_once(s);
            if (gather) {
                coll_rblock(call, me, &b);
                coll_sched_copy(s, own->buf, own->count, own->dt, b.buf, b.count, b.dt);
            } else {
                coll_sblock(call, me, &b);
                coll_sched_copy(s, b.buf, b.count, b.dt, own->buf, own->count, own->dt);
            }
        }
        coll_sched_round(s);
    }
}

void coll_sched_gather_linear(const coll_call_t *call, const coll_params_t *params, coll_sched_t *s)
{
    (void)params;
    coll_blk_t own;
    coll_own_sblock(call, &own);
    if (call->comm->rank != call->root) {
        coll_sched_send(s, own.buf, own.count, own.dt, call->root);
        coll_sched_round(s);
        return;
    }
    linear_root(call, s, 1, &own);
}

void coll_sched_scatter_linear(const coll_call_t *call, const coll_params_t *params,
                               coll_sched_t *s)
{
    (void)params;
    coll_blk_t own;
    coll_own_rblock(call, &own);
    if (call->comm->rank != call->root) {
        /* its own block only: copied by this rank alone, so the root, which has its own
           block to copy and the others to send, does not also write half of it */
        coll_sched_recv_whole(s, own.buf, own.count, own.dt, call->root);
        coll_sched_round(s);
        return;
    }
    linear_root(call, s, 0, &own);
}

void coll_sched_allgather_ring(const coll_call_t *call, const coll_params_t *params,
                               coll_sched_t *s)
{
    (void)params;
    int p = call->comm->size, me = call->comm->rank;
    int right = (me + 1) % p, left = (me - 1 + p) % p;
    coll_blk_t own, b;
    coll_own_sblock(call, &own);
    /* round k: pass on the block received in round k - 1; in round 0 the own block, from
       the send buffer while it is copied into place (phases/blocks.h, coll_own_to_rblock) */
    for (int k = 0; k < p - 1 || k == 0; k++) {
        if (p > 1) {
            coll_rblock(call, (me - k + p) % p, &b);
            if (k == 0) {
                b = own;
            }
            coll_sched_send(s, b.buf, b.count, b.dt, right);
            coll_rblock(call, (me - k - 1 + p) % p, &b);
            coll_sched_recv(s, b.buf, b.count, b.dt, left);
        }
        if (k == 0 && !call->in_place) {
            coll_rblock(call, me, &b);
            coll_sched_at_once(s);
            coll_sched_copy(s, own.buf, own.count, own.dt, b.buf, b.count, b.dt);
        }
        coll_sched_round(s);
    }
}

void coll_sched_alltoall(const coll_call_t *call, coll_sched_t *s, int window)
{
    int p = call->comm->size, me = call->comm->rank;
    coll_a2a_t a;
    coll_blk_t sb, rb;
    /* the packed copy (in place) belongs to the schedule */
    compi_status_t st = coll_a2a_init_sched(&a, call, s);
    if (st != COMPI_OK) {
        coll_sched_fail(s, st);
        return;
    }
    if (window < 1) {
        window = 1;
    }
    /* a round per window of distances base .. base + window - 1: the receives first, so
       the transport finds them posted, then the sends; the own block is copied in the
       first round, once its messages are out */
    for (int base = 1; base < p || base == 1; base += window) {
        int end = base + window < p ? base + window : p;
        for (int k = base; k < end; k++) {
            int from = (me - k + p) % p;
            coll_rblock(call, from, &rb);
            coll_sched_recv(s, rb.buf, rb.count, rb.dt, from);
        }
        for (int k = base; k < end; k++) {
            int to = (me + k) % p;
            coll_a2a_sblock(&a, to, &sb);
            coll_sched_send(s, sb.buf, sb.count, sb.dt, to);
        }
        if (base == 1 && !call->in_place) {
            coll_sched_at_once(s);
            coll_sblock(call, me, &sb);
            coll_rblock(call, me, &rb);
            coll_sched_copy(s, sb.buf, sb.count, sb.dt, rb.buf, rb.count, rb.dt);
        }
        coll_sched_round(s);
    }
}

/* ---- the reduce family ------------------------------------------------------------- */

/* messages below this many bytes coll_sched_red_recv receives whole (see there) */
#define RED_RECV_WHOLE_MAX ((size_t)1 << 20)

int coll_sched_red_recv(coll_sched_t *s, void *buf, size_t count, compi_datatype_t *dt, int peer)
{
    if (count * dt->size < RED_RECV_WHOLE_MAX) {
        return coll_sched_recv_whole(s, buf, count, dt, peer);
    }
    return coll_sched_recv(s, buf, count, dt, peer);
}

void coll_sched_red_input(coll_sched_t *s, const coll_call_t *call)
{
    if (!call->in_place) {
        compi_datatype_t *dt = red_dtype(call);
        size_t count = red_count(call);
        coll_sched_copy(s, call->sbuf, count, dt, call->rbuf, count, dt);
        coll_sched_round(s);
    }
}

int coll_sched_red_fold(coll_sched_t *s, compi_comm_t *comm, const void *in, void *acc, void *tmp,
                        size_t count, compi_datatype_t *dt)
{
    int r = comm->rank, rem = comm->size - red_pow2_floor(comm->size);
    int nr = red_fold_rank(r, rem);
    if (r >= 2 * rem) {
        return nr;
    }
    if (nr < 0) {
        coll_sched_send(s, in, count, dt, r + 1);
    } else {
        /* the even rank is the lower one: its data is the left operand */
        coll_sched_red_recv(s, tmp, count, dt, r - 1);
        coll_sched_reduce3(s, tmp, in, acc, count, dt);
    }
    coll_sched_round(s);
    return nr;
}

void coll_sched_red_unfold(coll_sched_t *s, compi_comm_t *comm, void *acc, size_t count,
                           compi_datatype_t *dt)
{
    int r = comm->rank, rem = comm->size - red_pow2_floor(comm->size);
    if (r >= 2 * rem) {
        return;
    }
    if (r % 2 == 1) {
        coll_sched_send(s, acc, count, dt, r - 1);
    } else {
        coll_sched_red_recv(s, acc, count, dt, r + 1);
    }
    coll_sched_round(s);
}

void coll_sched_red_halving(coll_sched_t *s, const void *in, void *acc, void *tmp, void *last,
                            const size_t *bcnt, const size_t *boff, int nr, int p2, int rem,
                            compi_datatype_t *dt)
{
    int lo = 0, hi = p2;
    const void *part = in;
    if (p2 == 1) {
        void *out = last != NULL ? last : acc;
        if (in != out) {
            coll_sched_copy(s, in, bcnt[0], dt, out, bcnt[0], dt);
            coll_sched_round(s);
        }
        return;
    }
    for (int mask = p2 >> 1; mask > 0; mask >>= 1) {
        int peer = red_real_rank(nr ^ mask, rem);
        red_span_t k, sn;
        red_halving_step(bcnt, boff, nr, mask, &lo, &hi, &k, &sn);
        coll_sched_recv(s, tmp, k.n, dt, peer);
        coll_sched_send(s, red_at(part, dt, sn.off), sn.n, dt, peer);
        void *out = mask == 1 && last != NULL ? last : red_at(acc, dt, k.off);
        coll_sched_reduce3(s, tmp, red_at(part, dt, k.off), out, k.n, dt);
        coll_sched_round(s);
        part = acc;
    }
}

void coll_sched_red_doubling_gather(coll_sched_t *s, void *acc, const size_t *bcnt,
                                    const size_t *boff, int nr, int p2, int rem,
                                    compi_datatype_t *dt)
{
    for (int mask = 1; mask < p2; mask <<= 1) {
        int peer = red_real_rank(nr ^ mask, rem);
        red_span_t m, t;
        red_doubling_step(bcnt, boff, nr, mask, &m, &t);
        coll_sched_recv(s, red_at(acc, dt, t.off), t.n, dt, peer);
        coll_sched_send(s, red_at(acc, dt, m.off), m.n, dt, peer);
        coll_sched_round(s);
    }
}
