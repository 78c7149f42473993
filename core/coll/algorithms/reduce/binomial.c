/*
 * reduce/binomial.c -- binomial tree over ranks relative to the root: each rank
 * combines its children's partial results (smallest subtree first) into its own and
 * sends the sum to its parent.
 *
 *   8 ranks, root 0:       0          receives from 1, then 2, then 4
 *                        / | \
 *                       4  2  1
 *                      / \  \
 *                     6   5  3
 *                     |
 *                     7
 *
 * Cost: ceil(log2 p) (alpha + n beta + n gamma).  Relative ranks wrap around p, so the
 * order of the operands is kept only when the root is 0: with a non-commutative op and
 * another root, use in-order-binomial.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

static int reduce_binomial_usable(const coll_call_t *call, const coll_params_t *params)
{
    (void)params;
    return red_commutative(call) || call->root == 0;
}

static compi_status_t reduce_binomial(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, root = call->root, children[32], nch;
    size_t count = red_count(call);

    (void)self;
    int parent = red_binomial((comm->rank - root + p) % p, p, children, &nch, 1);
    for (int i = 0; i < nch; i++) {
        children[i] = (children[i] + root) % p;
    }
    if (parent >= 0) {
        parent = (parent + root) % p;
    }
    return red_tree_reduce(red_input(call), call->rbuf, count, red_dtype(call), call->op, parent,
                           children, nch, count, !red_commutative(call), coll_tag(call->kind),
                           comm);
}

/* the same tree as a schedule (usable() has already ruled out a non-commutative op with
   a root other than 0) */
static void reduce_binomial_sched(const coll_call_t *call, const coll_params_t *params,
                                  coll_sched_t *s)
{
    (void)params;
    coll_sched_reduce_binomial(s, red_input(call), call->rbuf, red_count(call), red_dtype(call),
                               call->root, call->comm);
}

const coll_algo_t coll_algo_reduce_binomial = {
    .name = "binomial",
    .kind = COLL_REDUCE,
    .fn = reduce_binomial,
    .usable = reduce_binomial_usable,
    .sched = reduce_binomial_sched,
    .params = "",
    .help = "binomial tree relative to the root (commutative ops, or root 0)",
};
