/*
 * phases/reduce_phases.h -- building blocks shared by the "reduce" family of native
 * algorithms (barrier, bcast, reduce, allreduce, reduce-scatter(-block), scan, exscan).
 *
 * Conventions of the family, read from a coll_call_t:
 *   bcast:      the buffer is rbuf/rcount/rdt (sbuf/scount/sdt when rdt is NULL);
 *   reductions: the datatype is rdt (sdt when rdt is NULL), the count is scount (rcount
 *               when scount is 0: with MPI_IN_PLACE an API layer may leave scount 0);
 *               with in_place the input is in rbuf.
 * Every buffer is a user-layout buffer: element i of `buf` starts at buf + i * extent,
 * temporaries come from coll_tmp_alloc() with the same layout, so derived datatypes
 * travel through pml_isend/pml_irecv and coll_op_apply() unchanged.
 *
 * Ownership: the caller owns every buffer it passes.  The steps that move and combine
 * data are schedule pieces: core/coll/sched/sched_phases.h.
 */
#ifndef COMPI_COLL_REDUCE_PHASES_H
#define COMPI_COLL_REDUCE_PHASES_H

#include "core/coll/coll.h"
#include "core/pml/pml.h"

#include <stddef.h>

/* element i of a user-layout buffer */
static inline void *red_at(const void *buf, const compi_datatype_t *dt, size_t i)
{
    return (char *)buf + (ptrdiff_t)i * dt->extent;
}

/* the datatype and element count of a reduction call (see above) */
compi_datatype_t *red_dtype(const coll_call_t *call);
size_t red_count(const coll_call_t *call);
/* the input of a reduction on this rank: rbuf when in_place, else sbuf */
const void *red_input(const coll_call_t *call);
/* the buffer of a bcast */
void red_bcast_buf(const coll_call_t *call, void **buf_p, size_t *count_p, compi_datatype_t **dt_p);

/* MPI_BYTE, for zero-byte synchronisation messages */
compi_datatype_t *red_byte(void);

/* largest power of two <= p */
int red_pow2_floor(int p);

/*
 * Non-powers of two for recursive doubling / halving (p2 = red_pow2_floor(p), rem =
 * p - p2): of ranks 0..2*rem-1, each even one sends its `count` elements to the next odd
 * one, which combines them (even's data on the left) and takes the new rank r/2; ranks
 * from 2*rem on take r - rem.  The even ranks sit out and get the result back at the end
 * (coll_sched_red_fold and coll_sched_red_unfold, sched/sched_phases.h).
 *
 * Where this rank's partial result is after the fold: acc on the odd ranks that folded,
 * else the input.
 */
static inline const void *red_fold_partial(const compi_comm_t *comm, const void *in,
                                           const void *acc)
{
    int rem = comm->size - red_pow2_floor(comm->size);
    return comm->rank < 2 * rem ? acc : in;
}
/* comm rank of new rank nr after the fold */
static inline int red_real_rank(int nr, int rem)
{
    return nr < rem ? 2 * nr + 1 : nr + rem;
}
/* the new rank of comm rank r after the fold: -1 for the even ranks below 2*rem, which
   sit out; the peer they fold with is r + 1 (even) or r - 1 (odd) */
static inline int red_fold_rank(int r, int rem)
{
    return r >= 2 * rem ? r - rem : r % 2 == 1 ? r / 2 : -1;
}

/* a run of elements of a vector split in blocks: `n` elements from element `off` */
typedef struct red_span {
    size_t off, n;
} red_span_t;

/* the elements of blocks [lo, hi) of a split (bcnt/boff) */
red_span_t red_span(const size_t *bcnt, const size_t *boff, int lo, int hi);

/* Step `mask` (p2/2, p2/4, ..., 1) of recursive halving for new rank nr, which holds
   blocks [*lo, *hi): it sends *send to new rank nr ^ mask, receives and combines *keep,
   and [*lo, *hi) becomes the blocks kept (coll_sched_red_halving) */
void red_halving_step(const size_t *bcnt, const size_t *boff, int nr, int mask, int *lo, int *hi,
                      red_span_t *keep, red_span_t *send);
/* Step `mask` (1, 2, ..., p2/2) of the allgather by recursive doubling after it: new rank
   nr sends *mine to new rank nr ^ mask and receives *theirs */
void red_doubling_step(const size_t *bcnt, const size_t *boff, int nr, int mask, red_span_t *mine,
                       red_span_t *theirs);

/* non-commutative ops restrict the algorithms that may serve a call */
static inline int red_commutative(const coll_call_t *call)
{
    return call->op == NULL || call->op->commutative;
}

/* the usable() of the algorithms that combine partial results in an order of their own
   (reduce-scatter ring and recursive halving, Rabenseifner, ring allreduce, k-ary
   reduce): commutative ops only */
int red_commutative_only(const coll_call_t *call, const coll_params_t *params);

#endif
