/*
 * exscan_recursive_doubling.c -- as scan_recursive_doubling.c: in step k every rank
 * exchanges the reduction of its aligned group of 2^k ranks with rank XOR 2^k; what
 * comes from below goes into the group's reduction and into the result (which starts
 * empty: the first piece from below is copied), what comes from above into the group's
 * reduction only.  Right for non-commutative ops, for any p.  Rank 0's receive buffer
 * is left alone.
 *
 *   p = 4:  k = 0: 0<->1, 2<->3   result(1) = a0, result(3) = a2
 *           k = 1: 0<->2, 1<->3   result(2) = a0 a1, result(3) = a0 a1 a2
 *
 * Cost: ceil(log2 p) (alpha + n beta + 2 n gamma).  For short vectors.
 *
 * The exchange loop, shared with scan_recursive_doubling.c, is red_prefix_doubling()
 * in coll_reduce_util.c.
 */
#include "coll_reduce_util.h"

static compi_status_t exscan_recursive_doubling(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    return red_prefix_doubling(call, 0);
}

const coll_algo_t coll_algo_exscan_recursive_doubling = {
    .name = "recursive-doubling",
    .kind = COLL_EXSCAN,
    .fn = exscan_recursive_doubling,
    .usable = NULL,
    .params = "",
    .help = "exchange group reductions with rank XOR 2^k (any op, any p)",
};
