/*
 * allreduce/reduce_bcast.c -- an in-order binomial reduce to rank 0 (subtrees are
 * ranges of ranks, combined left to right) followed by a binomial bcast from rank 0.
 *
 *   reduce:  1 -> 0, 3 -> 2 -> 0, ...       bcast:  0 -> 4, 0 -> 2, 0 -> 1, ...
 *
 * Cost: 2 ceil(log2 p) (alpha + n beta) + ceil(log2 p) n gamma.  Works for every op:
 * the fallback for non-commutative ops on large vectors.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

static compi_status_t allreduce_reduce_bcast(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int r = comm->rank, p = comm->size, tag = coll_tag(call->kind), children[32], nch;
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);

    (void)self;
    if (count == 0) {
        return COMPI_OK;
    }
    int parent = red_binomial(r, p, children, &nch, 1);
    compi_status_t st = red_tree_reduce(red_input(call), call->rbuf, count, dt, call->op, parent,
                                        children, nch, count, !red_commutative(call), tag, comm);
    if (st != COMPI_OK) {
        return st;
    }
    parent = red_binomial(r, p, children, &nch, 0);
    return red_tree_bcast(call->rbuf, count, dt, parent, children, nch, 0, tag, comm);
}

static void allreduce_reduce_bcast_sched(const coll_call_t *call, const coll_params_t *params,
                                         coll_sched_t *s)
{
    compi_datatype_t *dt = red_dtype(call);
    size_t count = red_count(call);

    (void)params;
    coll_sched_reduce_binomial(s, red_input(call), call->rbuf, count, dt, 0, call->comm);
    coll_sched_bcast_binomial(s, call->rbuf, count, dt, 0, call->comm);
}

const coll_algo_t coll_algo_allreduce_reduce_bcast = {
    .name = "reduce-bcast",
    .kind = COLL_ALLREDUCE,
    .fn = allreduce_reduce_bcast,
    .usable = NULL,
    .sched = allreduce_reduce_bcast_sched,
    .params = "",
    .help = "in-order binomial reduce to 0, then binomial bcast (any op)",
};
