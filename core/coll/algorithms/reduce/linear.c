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
 * Cost: (p - 1) (alpha + n beta + n gamma) at the root.  As a schedule (nonblocking,
 * persistent): one round per vector the root receives, combined when it is there.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched.h"

#include <stdlib.h>

/* What the root does in the step for rank i (p - 1 down to 0); the blocking loop and the
   schedule follow it */
typedef enum lin_step {
    LIN_RECV_ACC,     /* rank i's vector into acc: the accumulation starts */
    LIN_FIRST_PAIR,   /* the root is p - 1, not in place: rank i - 1's vector into tmp,
                         acc = a(p-2) op mine (the step takes rank i - 1 too) */
    LIN_OWN,          /* acc = mine op acc */
    LIN_RECV_COMBINE, /* rank i's vector into tmp, acc = a(i) op acc */
    LIN_NONE,         /* the root is p - 1 in place: acc holds its vector already */
} lin_step_t;

static lin_step_t lin_step(int i, int p, int root, int in_place)
{
    if (i == p - 1 && i == root) {
        return in_place ? LIN_NONE : LIN_FIRST_PAIR;
    }
    if (i == p - 1) {
        return LIN_RECV_ACC;
    }
    return i == root ? LIN_OWN : LIN_RECV_COMBINE;
}

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
    /* tests, not a switch: the compiler merges them with lin_step's (LIN_NONE: nothing) */
    for (int i = p - 1; i >= 0 && st == COMPI_OK; i--) {
        lin_step_t k = lin_step(i, p, root, call->in_place);
        if (k == LIN_FIRST_PAIR) {
            /* the first combination reads the input where it is: acc = a(p-2) op mine,
               without copying mine into acc first */
            i--;
            st = red_recv(tmp, count, dt, i, tag, comm);
            if (st == COMPI_OK) {
                st = coll_op_apply3(call->op, dt, tmp, mine, acc, count);
            }
        } else if (k == LIN_RECV_ACC) {
            st = red_recv(acc, count, dt, i, tag, comm);
        } else if (k == LIN_OWN) {
            st = coll_op_apply(call->op, dt, mine, acc, count);
        } else if (k == LIN_RECV_COMBINE) {
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

static void reduce_linear_sched(const coll_call_t *call, const coll_params_t *params,
                                coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, root = call->root;
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);
    const void *mine = red_input(call);
    void *acc = call->rbuf;

    (void)params;
    if (count == 0) {
        return;
    }
    if (r != root) {
        coll_sched_send(s, mine, count, dt, root);
        coll_sched_round(s);
        return;
    }
    if (p == 1) {
        if (!call->in_place) {
            coll_sched_copy(s, mine, count, dt, acc, count, dt);
            coll_sched_round(s);
        }
        return;
    }
    void *tmp = coll_sched_scratch(s, dt, count);
    if (tmp == NULL) {
        return;
    }
    if (call->in_place && root != p - 1) {
        /* as the blocking loop: the input set aside before rank p - 1's vector lands */
        void *m = coll_sched_scratch(s, dt, count);
        if (m == NULL) {
            return;
        }
        coll_sched_copy(s, acc, count, dt, m, count, dt);
        coll_sched_round(s);
        mine = m;
    }
    for (int i = p - 1; i >= 0; i--) {
        switch (lin_step(i, p, root, call->in_place)) {
        case LIN_FIRST_PAIR:
            i--;
            coll_sched_recv(s, tmp, count, dt, i);
            coll_sched_reduce3(s, tmp, mine, acc, count, dt);
            break;
        case LIN_RECV_ACC:
            coll_sched_recv(s, acc, count, dt, i);
            break;
        case LIN_OWN:
            coll_sched_reduce(s, mine, acc, count, dt);
            break;
        case LIN_RECV_COMBINE:
            coll_sched_recv(s, tmp, count, dt, i);
            coll_sched_reduce(s, tmp, acc, count, dt);
            break;
        case LIN_NONE:
            break;
        }
        coll_sched_round(s);
    }
}

const coll_algo_t coll_algo_reduce_linear = {
    .name = "linear",
    .kind = COLL_REDUCE,
    .fn = reduce_linear,
    .usable = NULL,
    .sched = reduce_linear_sched,
    .help = "the root receives from every rank and combines in rank order (any op)",
};
