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

compi_status_t red_recv(void *buf, size_t count, compi_datatype_t *dt, int src, int tag,
                        compi_comm_t *comm)
{
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

int red_fold(void *acc, void *tmp, size_t count, compi_datatype_t *dt, compi_op_t *op, int tag,
             compi_comm_t *comm, compi_status_t *st_p)
{
    int r = comm->rank, rem = comm->size - red_pow2_floor(comm->size);
    *st_p = COMPI_OK;
    if (r >= 2 * rem) {
        return r - rem;
    }
    if (r % 2 == 0) {
        *st_p = red_send(acc, count, dt, r + 1, tag, comm);
        return -1;
    }
    *st_p = red_recv(tmp, count, dt, r - 1, tag, comm);
    if (*st_p == COMPI_OK) {
        /* the even rank is the lower one: its data is the left operand */
        *st_p = coll_op_apply(op, dt, tmp, acc, count);
    }
    return r / 2;
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

/* the elements of blocks [lo, hi): start in *off_p, count returned */
static size_t range(const size_t *bcnt, const size_t *boff, int lo, int hi, size_t *off_p)
{
    *off_p = boff[lo];
    return hi > lo ? boff[hi - 1] + bcnt[hi - 1] - boff[lo] : 0;
}

compi_status_t red_halving(void *acc, void *tmp, const size_t *bcnt, const size_t *boff, int nr,
                           int p2, int rem, compi_datatype_t *dt, compi_op_t *op, int tag,
                           compi_comm_t *comm)
{
    int lo = 0, hi = p2;
    for (int mask = p2 >> 1; mask > 0; mask >>= 1) {
        int peer = red_real_rank(nr ^ mask, rem), mid = lo + mask;
        int klo = (nr & mask) ? mid : lo, khi = (nr & mask) ? hi : mid;
        int slo = (nr & mask) ? lo : mid, shi = (nr & mask) ? mid : hi;
        size_t koff, soff;
        size_t kn = range(bcnt, boff, klo, khi, &koff);
        size_t sn = range(bcnt, boff, slo, shi, &soff);
        compi_status_t st =
            red_sendrecv(red_at(acc, dt, soff), sn, peer, tmp, kn, peer, dt, tag, comm);
        if (st == COMPI_OK && kn > 0) {
            st = coll_op_apply(op, dt, tmp, red_at(acc, dt, koff), kn);
        }
        if (st != COMPI_OK) {
            return st;
        }
        lo = klo;
        hi = khi;
    }
    return COMPI_OK;
}

compi_status_t red_doubling_gather(void *acc, const size_t *bcnt, const size_t *boff, int nr,
                                   int p2, int rem, compi_datatype_t *dt, int tag,
                                   compi_comm_t *comm)
{
    for (int mask = 1; mask < p2; mask <<= 1) {
        int peer = red_real_rank(nr ^ mask, rem);
        int lo = nr & ~(mask - 1), plo = lo ^ mask;
        size_t off, poff;
        size_t n = range(bcnt, boff, lo, lo + mask, &off);
        size_t pn = range(bcnt, boff, plo, plo + mask, &poff);
        compi_status_t st = red_sendrecv(red_at(acc, dt, off), n, peer, red_at(acc, dt, poff), pn,
                                         peer, dt, tag, comm);
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
