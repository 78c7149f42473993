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

int red_pow2_floor(int p)
{
    int p2 = 1;
    while (p2 * 2 <= p) {
        p2 *= 2;
    }
    return p2;
}

/* red_recv copies messages below this many bytes itself (see there) */
#define RED_RECV_WHOLE_MAX ((size_t)1 << 20)

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

int red_commutative_only(const coll_call_t *call, const coll_params_t *params)
{
    (void)params;
    return red_commutative(call);
}
