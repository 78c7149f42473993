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
 * Cost: (p - 1) (alpha + n beta + n gamma) at the root.  One round per vector the root
 * receives, combined when it is there.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

#include <stdlib.h>

/* what the root does in the step for rank i (p - 1 down to 0) */
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
        /* rbuf is both the input and the accumulator: the input set aside before rank
           p - 1's vector lands (a root of rank p - 1 starts the accumulation with its own
           input, where it is) */
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
            /* the first combination reads the input where it is: acc = a(p-2) op mine,
               without copying mine into acc first */
            i--;
            coll_sched_red_recv(s, tmp, count, dt, i);
            coll_sched_reduce3(s, tmp, mine, acc, count, dt);
            break;
        case LIN_RECV_ACC:
            coll_sched_red_recv(s, acc, count, dt, i);
            break;
        case LIN_OWN:
            coll_sched_reduce(s, mine, acc, count, dt);
            break;
        case LIN_RECV_COMBINE:
            coll_sched_red_recv(s, tmp, count, dt, i);
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
    .usable = NULL,
    .sched = reduce_linear_sched,
    .help = "the root receives from every rank and combines in rank order (any op)",
};
