/*
 * reduce_scatter/reduce_scatterv.c -- an in-order binomial reduce of the whole vector
 * to rank 0 (subtrees are ranges of ranks, combined left to right), then rank 0 sends
 * every rank its block.
 *
 *   reduce:   1 -> 0, 3 -> 2 -> 0, ...      scatterv:  0 -> 1 [b1], 0 -> 2 [b2], ...
 *
 * Cost, n the whole vector: ceil(log2 p) (alpha + n beta + n gamma) + (p - 1) alpha +
 * (p-1)/p n beta.  Works for every op: the fallback.  Also serves reduce-scatter-block.
 *
 * The reduce is the tree executors' (core/coll/executors/) over topo_tree_in_order_binomial
 * rooted at 0, as reduce:in-order-binomial runs it: the closure of that tree is made at
 * the miss (.prepare, kept in params->aux), and every call runs a reduce of the whole
 * vector through it, added to this algorithm's schedule.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/executors/tree_closure.h"
#include "core/coll/sched/sched.h"

#include <string.h>

/* at the miss: the tree closure that reduces the whole vector to rank 0 (params->aux) */
static compi_status_t rs_prepare(const coll_call_t *call, coll_params_t *params)
{
    compi_status_t st = COMPI_ERR_NO_MEMORY;
    topo_tree_t *tree = topo_tree_in_order_binomial(call->comm->size, 0);
    params->aux = tree != NULL ? coll_closure_tree(COLL_REDUCE, tree, NULL, &st) : NULL;
    return params->aux != NULL ? COMPI_OK : st;
}

static void rs_release(void *aux)
{
    coll_closure_release(aux);
}

/* the reduce call of the whole vector (`total` elements) to rank 0, into `whole` there */
static void rs_reduce_call(const coll_call_t *call, size_t total, void *whole, coll_call_t *rcall)
{
    *rcall = (coll_call_t){.kind = COLL_REDUCE,
                           .mode = call->mode,
                           .comm = call->comm,
                           .root = 0,
                           .sbuf = red_input(call),
                           .rbuf = whole,
                           .scount = total,
                           .rcount = total,
                           .sdt = red_dtype(call),
                           .rdt = red_dtype(call),
                           .op = call->op,
                           .bytes = total * red_dtype(call)->size};
}

/* block i's element count, for both kinds */
static size_t rs_count(const coll_call_t *call, int i)
{
    return call->kind == COLL_REDUCE_SCATTER_BLOCK ? call->rcount
                                                   : (size_t)coll_vec_at(call->rcounts, i);
}

/* for both kinds: reduce in rank order to 0, which sends each rank its block */
static void reduce_scatterv_sched(const coll_call_t *call, const coll_params_t *params,
                                  coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, me = comm->rank;
    compi_datatype_t *dt = red_dtype(call);
    coll_call_t rcall;
    size_t total = 0, off = 0;

    for (int i = 0; i < p; i++) {
        total += rs_count(call, i);
    }
    if (total == 0) {
        return;
    }
    void *whole = me == 0 ? coll_sched_scratch(s, dt, total) : NULL;
    rs_reduce_call(call, total, whole, &rcall);
    coll_tree_sched_add(params->aux, &rcall, s);
    if (me == 0) {
        for (int i = 0; i < p; i++) {
            size_t n = rs_count(call, i);
            if (i == 0) {
                coll_sched_copy(s, whole, n, dt, call->rbuf, n, dt);
            } else {
                coll_sched_send(s, red_at(whole, dt, off), n, dt, i);
            }
            off += n;
        }
    } else {
        coll_sched_recv(s, call->rbuf, rs_count(call, me), dt, 0);
    }
    coll_sched_round(s);
}

const coll_algo_t coll_algo_reduce_scatter_reduce_scatterv = {
    .name = "reduce-scatterv",
    .kind = COLL_REDUCE_SCATTER,
    .usable = NULL,
    .sched = reduce_scatterv_sched,
    .prepare = rs_prepare,
    .release = rs_release,
    .help = "in-order binomial reduce to rank 0, then it sends each block (any op)",
};

/* the same schedule for reduce-scatter-block (equal blocks of rcount elements) */
const coll_algo_t coll_algo_reduce_scatter_block_reduce_scatterv = {
    .name = "reduce-scatterv",
    .kind = COLL_REDUCE_SCATTER_BLOCK,
    .usable = NULL,
    .sched = reduce_scatterv_sched,
    .prepare = rs_prepare,
    .release = rs_release,
    .help = "as reduce-scatter reduce-scatterv, with equal blocks",
};
