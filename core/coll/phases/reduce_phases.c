/*
 * phases/reduce_phases.c -- building blocks of the reduce family (see phases/reduce_phases.h):
 * call accessors, block splits, blocking exchanges, and the fold / recursive halving /
 * recursive doubling phases that recursive doubling, Rabenseifner and recursive halving
 * share.  Trees (binomial and the others) are topologies/tree.c's, run by the tree
 * executors of core/coll/executors/.
 */
#include "core/coll/phases/reduce_phases.h"

#include "core/pml/pml.h"

#include <stdlib.h>
#include <string.h>

compi_datatype_t *red_dtype(const coll_call_t *call)
{
    return call->rdt != NULL ? call->rdt : call->sdt;
}

size_t red_count(const coll_call_t *call)
{
    return call->scount != 0 ? call->scount : call->rcount;
}

const void *red_input(const coll_call_t *call)
{
    return call->in_place ? call->rbuf : call->sbuf;
}

void red_bcast_buf(const coll_call_t *call, void **buf_p, size_t *count_p, compi_datatype_t **dt_p)
{
    if (call->rdt != NULL) {
        *buf_p = call->rbuf;
        *count_p = call->rcount;
        *dt_p = call->rdt;
    } else {
        *buf_p = (void *)call->sbuf;
        *count_p = call->scount;
        *dt_p = call->sdt;
    }
}

compi_datatype_t *red_byte(void)
{
    return dt_from_handle(MPI_BYTE);
}

compi_status_t red_input_to_rbuf(const coll_call_t *call)
{
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);
    return call->in_place ? COMPI_OK : coll_copy(call->sbuf, count, dt, call->rbuf, count, dt);
}

int red_pow2_floor(int p)
{
    int p2 = 1;
    while (p2 * 2 <= p) {
        p2 *= 2;
    }
    return p2;
}

compi_status_t red_send(const void *buf, size_t count, compi_datatype_t *dt, int dst, int tag,
                        compi_comm_t *comm)
{
    return pml_send(buf, count, dt, dst, tag, comm, PML_SEND_STANDARD);
}

/* red_recv copies messages below this many bytes itself (see there) */
#define RED_RECV_WHOLE_MAX ((size_t)1 << 20)

compi_status_t red_recv(void *buf, size_t count, compi_datatype_t *dt, int src, int tag,
                        compi_comm_t *comm)
{
    /* What arrives is combined at once.  Copied by this rank alone (pml_recv_whole) it is
       in this core's caches when the op reads it; split with the sender, the op reads half
       of it from the other core.  That wins while the op's reads cost more than the half
       copy saved, up to about 1 MiB (OSU reduce at 2 ranks, one host: 64 KiB 6.5 us whole
       against 11.8 split, 512 KiB 44 against 53, 1 MiB 151 against 107). */
    if (count * dt->size < RED_RECV_WHOLE_MAX) {
        return pml_recv_whole(buf, count, dt, src, tag, comm, NULL);
    }
    return pml_recv(buf, count, dt, src, tag, comm, NULL);
}

compi_status_t red_sendrecv(const void *sbuf, size_t scount, int dst, void *rbuf, size_t rcount,
                            int src, compi_datatype_t *dt, int tag, compi_comm_t *comm)
{
    /* small messages: an eager send completes by itself, so send then receive without
       request objects (the latency of small allreduces and barriers) */
    if (pml_send_is_local(comm, dst, scount * dt->size)) {
        compi_status_t st = pml_send(sbuf, scount, dt, dst, tag, comm, PML_SEND_STANDARD);
        return st != COMPI_OK ? st : pml_recv(rbuf, rcount, dt, src, tag, comm, NULL);
    }
    compi_request_t *reqs[2] = {NULL, NULL};
    compi_status_t st = pml_irecv(rbuf, rcount, dt, src, tag, comm, &reqs[0]);
    if (st == COMPI_OK) {
        st = pml_isend(sbuf, scount, dt, dst, tag, comm, PML_SEND_STANDARD, &reqs[1]);
    }
    compi_status_t st2 = pml_wait_all_free(2, reqs);
    return st != COMPI_OK ? st : st2;
}

compi_status_t red_exchange_combine(const void *sbuf, void *rbuf, void *out, int recv_left,
                                    size_t count, size_t segcount, int peer, compi_datatype_t *dt,
                                    compi_op_t *op, int tag, compi_comm_t *comm)
{
    compi_request_t *reqs[4] = {NULL, NULL, NULL, NULL};
    compi_status_t st = COMPI_OK;

    if (segcount == 0 || segcount >= count) {
        st = red_sendrecv(sbuf, count, peer, rbuf, count, peer, dt, tag, comm);
        return st != COMPI_OK ? st
               : recv_left    ? coll_op_apply3(op, dt, rbuf, sbuf, out, count)
                              : coll_op_apply3(op, dt, sbuf, rbuf, out, count);
    }
    size_t nseg = (count + segcount - 1) / segcount;
    /* segment k's pair of requests sits in reqs[2 (k % 2)]: the next segment's transfer
       is under way while this one is combined */
    for (size_t k = 0; k <= nseg && st == COMPI_OK; k++) {
        if (k < nseg) {
            size_t off = k * segcount, n = count - off < segcount ? count - off : segcount;
            compi_request_t **rq = reqs + 2 * (k % 2);
            st = pml_irecv(red_at(rbuf, dt, off), n, dt, peer, tag, comm, &rq[0]);
            if (st == COMPI_OK) {
                st = pml_isend(red_at(sbuf, dt, off), n, dt, peer, tag, comm, PML_SEND_STANDARD,
                               &rq[1]);
            }
        }
        if (k == 0 || st != COMPI_OK) {
            continue;
        }
        size_t off = (k - 1) * segcount, n = count - off < segcount ? count - off : segcount;
        st = pml_wait_all_free(2, reqs + 2 * ((k - 1) % 2));
        if (st == COMPI_OK) {
            const char *r = red_at(rbuf, dt, off), *sn = red_at(sbuf, dt, off);
            st = coll_op_apply3(op, dt, recv_left ? r : sn, recv_left ? sn : r,
                                red_at(out, dt, off), n);
        }
    }
    compi_status_t st2 = pml_wait_all_free(4, reqs);
    return st != COMPI_OK ? st : st2;
}

int red_fold(const void *in, void *acc, void *tmp, size_t count, compi_datatype_t *dt,
             compi_op_t *op, int tag, compi_comm_t *comm, compi_status_t *st_p)
{
    int r = comm->rank, rem = comm->size - red_pow2_floor(comm->size);
    int nr = red_fold_rank(r, rem);
    *st_p = COMPI_OK;
    if (r >= 2 * rem) {
        return nr;
    }
    if (nr < 0) {
        *st_p = red_send(in, count, dt, r + 1, tag, comm);
        return nr;
    }
    *st_p = red_recv(tmp, count, dt, r - 1, tag, comm);
    if (*st_p == COMPI_OK) {
        /* the even rank is the lower one: its data is the left operand; the result goes
           straight to acc (no copy of the input first) */
        *st_p = coll_op_apply3(op, dt, tmp, in, acc, count);
    }
    return nr;
}

compi_status_t red_unfold(void *acc, size_t count, compi_datatype_t *dt, int tag,
                          compi_comm_t *comm)
{
    int r = comm->rank, rem = comm->size - red_pow2_floor(comm->size);
    if (r >= 2 * rem) {
        return COMPI_OK;
    }
    if (r % 2 == 1) {
        return red_send(acc, count, dt, r - 1, tag, comm);
    }
    return red_recv(acc, count, dt, r + 1, tag, comm);
}

red_span_t red_span(const size_t *bcnt, const size_t *boff, int lo, int hi)
{
    return (red_span_t){.off = boff[lo], .n = hi > lo ? boff[hi - 1] + bcnt[hi - 1] - boff[lo] : 0};
}

void red_halving_step(const size_t *bcnt, const size_t *boff, int nr, int mask, int *lo, int *hi,
                      red_span_t *keep, red_span_t *send)
{
    int mid = *lo + mask, upper = (nr & mask) != 0;
    int klo = upper ? mid : *lo, khi = upper ? *hi : mid;
    int slo = upper ? *lo : mid, shi = upper ? mid : *hi;
    *keep = red_span(bcnt, boff, klo, khi);
    *send = red_span(bcnt, boff, slo, shi);
    *lo = klo;
    *hi = khi;
}

void red_doubling_step(const size_t *bcnt, const size_t *boff, int nr, int mask, red_span_t *mine,
                       red_span_t *theirs)
{
    int lo = nr & ~(mask - 1), plo = lo ^ mask;
    *mine = red_span(bcnt, boff, lo, lo + mask);
    *theirs = red_span(bcnt, boff, plo, plo + mask);
}

compi_status_t red_halving(const void *in, void *acc, void *tmp, const size_t *bcnt,
                           const size_t *boff, int nr, int p2, int rem, compi_datatype_t *dt,
                           compi_op_t *op, int tag, compi_comm_t *comm)
{
    int lo = 0, hi = p2;
    /* the partial result is `in` until the first combination writes acc: the first step
       sends from the input and combines the received half with it straight into acc */
    const char *part = in;
    if (p2 == 1) {
        return in == acc ? COMPI_OK : coll_copy(in, bcnt[0], dt, acc, bcnt[0], dt);
    }
    for (int mask = p2 >> 1; mask > 0; mask >>= 1) {
        int peer = red_real_rank(nr ^ mask, rem);
        red_span_t k, sn;
        red_halving_step(bcnt, boff, nr, mask, &lo, &hi, &k, &sn);
        compi_status_t st =
            red_sendrecv(red_at(part, dt, sn.off), sn.n, peer, tmp, k.n, peer, dt, tag, comm);
        if (st == COMPI_OK && k.n > 0) {
            st = coll_op_apply3(op, dt, tmp, red_at(part, dt, k.off), red_at(acc, dt, k.off), k.n);
        }
        if (st != COMPI_OK) {
            return st;
        }
        part = acc;
    }
    return COMPI_OK;
}

compi_status_t red_doubling_gather(void *acc, const size_t *bcnt, const size_t *boff, int nr,
                                   int p2, int rem, compi_datatype_t *dt, int tag,
                                   compi_comm_t *comm)
{
    for (int mask = 1; mask < p2; mask <<= 1) {
        int peer = red_real_rank(nr ^ mask, rem);
        red_span_t m, t;
        red_doubling_step(bcnt, boff, nr, mask, &m, &t);
        compi_status_t st = red_sendrecv(red_at(acc, dt, m.off), m.n, peer, red_at(acc, dt, t.off),
                                         t.n, peer, dt, tag, comm);
        if (st != COMPI_OK) {
            return st;
        }
    }
    return COMPI_OK;
}

int red_commutative_only(const coll_call_t *call, const coll_params_t *params)
{
    (void)params;
    return red_commutative(call);
}
