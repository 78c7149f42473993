/*
 * reduce/linear.c -- every rank sends its vector to the root, which combines them in
 * rank order, from the highest down: acc = a(p-1); acc = a(i) op acc for i = p-2..0.
 * So ((a0 op a1) op a2) ... holds for non-commutative ops: the fallback that always
 * works.
 *
 *       1   2   3 ... p-1
 *        \  |  /      /
 *         v v v      v
 *           root       (receives in order p-1, p-2, ..., 0)
 *
 * Cost: (p - 1) (alpha + n beta + n gamma) at the root.
 */
#include "core/coll/phases/reduce_phases.h"

#include <stdlib.h>

static compi_status_t reduce_linear(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, root = call->root, tag = coll_tag(call->kind);
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);
    const void *mine = red_input(call);
    void *acc = call->rbuf, *tmpmem = NULL, *minemem = NULL;
    compi_status_t st = COMPI_OK;

    (void)self;
    if (count == 0) {
        return COMPI_OK;
    }
    if (r != root) {
        return red_send(mine, count, dt, root, tag, comm);
    }
    if (p == 1) {
        return call->in_place ? COMPI_OK : coll_copy(mine, count, dt, acc, count, dt);
    }
    void *tmp = coll_tmp_get(dt, count, &tmpmem);
    if (tmp == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    if (call->in_place && root != p - 1) {
        /* rbuf is both our input and the accumulator: keep the input aside (a root of
           rank p - 1 starts the accumulation with its own input, where it is) */
        void *m = coll_tmp_get(dt, count, &minemem);
        if (m == NULL) {
            st = COMPI_ERR_NO_MEMORY;
            goto err;
        }
        st = coll_copy(acc, count, dt, m, count, dt);
        mine = m;
    }
    for (int i = p - 1; i >= 0 && st == COMPI_OK; i--) {
        if (i == p - 1 && i == root) {
            if (!call->in_place) {
                /* the first combination reads the input where it is: acc = a(p-2) op
                   mine, without copying mine into acc first */
                i--;
                st = red_recv(tmp, count, dt, i, tag, comm);
                if (st == COMPI_OK) {
                    st = coll_op_apply3(call->op, dt, tmp, mine, acc, count);
                }
            }
        } else if (i == p - 1) {
            st = red_recv(acc, count, dt, i, tag, comm);
        } else if (i == root) {
            st = coll_op_apply(call->op, dt, mine, acc, count);
        } else {
            st = red_recv(tmp, count, dt, i, tag, comm);
            if (st == COMPI_OK) {
                st = coll_op_apply(call->op, dt, tmp, acc, count);
            }
        }
    }
err:
    /* the scratch stack: giving back the first takes back the second too */
    coll_scratch_put(tmpmem);
    return st;
}

const coll_algo_t coll_algo_reduce_linear = {
    .name = "linear",
    .kind = COLL_REDUCE,
    .fn = reduce_linear,
    .usable = NULL,
    .help = "the root receives from every rank and combines in rank order (any op)",
};
