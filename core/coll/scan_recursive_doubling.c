/*
 * scan_recursive_doubling.c -- in step k every rank exchanges the reduction of its
 * aligned group of 2^k ranks with rank XOR 2^k; a rank adds what comes from below to
 * both its group's reduction and its own prefix, and what comes from above to its
 * group's reduction only.  Groups are ranges of ranks and lower ranges stay on the
 * left: right for non-commutative ops, for any p.
 *
 *   p = 4:  k = 0: 0<->1, 2<->3   prefix(1) = a0 a1, prefix(3) = a2 a3
 *           k = 1: 0<->2, 1<->3   prefix(2) = a0 a1 a2, prefix(3) = a0 a1 a2 a3
 *
 * Cost: ceil(log2 p) (alpha + n beta + 2 n gamma).  For short vectors.
 *
 * The exchange loop, shared with exscan_recursive_doubling.c, is red_prefix_doubling()
 * in coll_reduce_util.c.
 */
#include "coll_reduce_util.h"

static compi_status_t scan_recursive_doubling(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    return red_prefix_doubling(call, 1);
}

const coll_algo_t coll_algo_scan_recursive_doubling = {
    .name = "recursive-doubling",
    .kind = COLL_SCAN,
    .fn = scan_recursive_doubling,
    .usable = NULL,
    .params = "",
    .help = "exchange group reductions with rank XOR 2^k (any op, any p)",
};
