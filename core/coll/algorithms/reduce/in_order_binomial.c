/*
 * reduce/in_order_binomial.c -- a binomial tree rooted at rank 0 over the ranks in
 * their own order, so each subtree is a contiguous range of ranks and every rank
 * combines mine op [r+1] op [r+2, r+4) op [r+4, r+8) ...: right for non-commutative
 * ops.  When the root is not 0, rank 0 sends it the result.
 *
 *   8 ranks:    0 <- 1            subtree ranges: 1: [1,2)  2: [2,4)  4: [4,8)
 *               0 <- 2 <- 3
 *               0 <- 4 <- 5, 4 <- 6 <- 7
 *               0 -> root          (root != 0)
 *
 * Cost: ceil(log2 p) (alpha + n beta + n gamma), plus alpha + n beta when root != 0.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

#include <stdlib.h>

static compi_status_t reduce_in_order_binomial(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int r = comm->rank, root = call->root, tag = coll_tag(call->kind), children[32], nch;
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);
    void *out = call->rbuf, *mem = NULL;
    compi_status_t st;

    (void)self;
    if (count == 0) {
        return COMPI_OK;
    }
    if (r == 0 && root != 0) {
        out = coll_tmp_alloc(dt, count, &mem);
        if (out == NULL) {
            return COMPI_ERR_NO_MEMORY;
        }
    }
    int parent = red_binomial(r, comm->size, children, &nch, 1);
    st = red_tree_reduce(red_input(call), out, count, dt, call->op, parent, children, nch, count,
                         !red_commutative(call), tag, comm);
    if (st == COMPI_OK && root != 0) {
        if (r == 0) {
            st = red_send(out, count, dt, root, tag, comm);
        } else if (r == root) {
            st = red_recv(call->rbuf, count, dt, 0, tag, comm);
        }
    }
    free(mem);
    return st;
}

/* the same as a schedule: the tree rooted at 0, then rank 0 forwards to the root */
static void reduce_in_order_binomial_sched(const coll_call_t *call, const coll_params_t *params,
                                           coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);
    void *out = call->rbuf;

    (void)params;
    if (comm->rank == 0 && call->root != 0) {
        out = coll_sched_scratch(s, dt, count);
    }
    coll_sched_reduce_binomial(s, red_input(call), out, count, dt, 0, comm);
    coll_sched_forward(s, out, call->rbuf, count, dt, 0, call->root, comm);
}

const coll_algo_t coll_algo_reduce_in_order_binomial = {
    .name = "in-order-binomial",
    .kind = COLL_REDUCE,
    .fn = reduce_in_order_binomial,
    .usable = NULL,
    .sched = reduce_in_order_binomial_sched,
    .params = "",
    .help = "binomial tree in rank order rooted at 0, then to the root (any op)",
};
