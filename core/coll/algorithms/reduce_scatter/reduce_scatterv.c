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
 * rooted at 0, as reduce:in-order-binomial runs it: a reduce call of the whole vector
 * made here, run blocking or added to this algorithm's schedule.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/executors/tree_closure.h"
#include "core/coll/sched/sched.h"

#include <stdlib.h>

/* the reduce of the whole vector (`total` elements) to rank 0, into `whole` there */
static coll_closure_t *rs_reduce(const coll_call_t *call, size_t total, void *whole,
                                 coll_call_t *rcall, compi_status_t *st_p)
{
    compi_comm_t *comm = call->comm;
    *rcall = (coll_call_t){.kind = COLL_REDUCE,
                           .mode = call->mode,
                           .comm = comm,
                           .root = 0,
                           .sbuf = red_input(call),
                           .rbuf = whole,
                           .scount = total,
                           .rcount = total,
                           .sdt = red_dtype(call),
                           .rdt = red_dtype(call),
                           .op = call->op,
                           .bytes = total * red_dtype(call)->size};
    return coll_closure_tree(COLL_REDUCE, topo_tree_in_order_binomial(comm->size, 0), NULL, st_p);
}

static compi_status_t red_rs_reduce_scatterv(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, tag = coll_tag(call->kind);
    compi_datatype_t *dt = red_dtype(call);
    compi_request_t **reqs = NULL;
    coll_closure_t *tree = NULL;
    coll_call_t rcall;
    void *resmem = NULL;
    char *res = NULL;
    size_t total, off = 0;
    compi_status_t st = COMPI_OK;

    (void)self;
    size_t *cnt = red_rs_counts(call, &total);
    if (cnt == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    if (total == 0) {
        goto err;
    }
    if (r == 0) {
        res = coll_tmp_alloc(dt, total, &resmem);
        reqs = calloc((size_t)p, sizeof(*reqs));
        if (res == NULL || reqs == NULL) {
            st = COMPI_ERR_NO_MEMORY;
            goto err;
        }
    }
    tree = rs_reduce(call, total, res, &rcall, &st);
    if (tree == NULL) {
        goto err;
    }
    st = tree->fn(tree, &rcall);
    if (st != COMPI_OK) {
        goto err;
    }
    if (r != 0) {
        st = red_recv(call->rbuf, cnt[r], dt, 0, tag, comm);
        goto err;
    }
    for (int i = 0; i < p; i++) {
        if (i == 0) {
            st = coll_copy(res, cnt[0], dt, call->rbuf, cnt[0], dt);
        } else {
            st = pml_isend(red_at(res, dt, off), cnt[i], dt, i, tag, comm, PML_SEND_STANDARD,
                           &reqs[i]);
        }
        if (st != COMPI_OK) {
            break;
        }
        off += cnt[i];
    }
    compi_status_t st2 = pml_wait_all_free((size_t)p, reqs);
    st = st != COMPI_OK ? st : st2;
err:
    coll_closure_release(tree);
    free(reqs);
    free(resmem);
    free(cnt);
    return st;
}

/* the same as a schedule, for both kinds: reduce in rank order to 0, which sends each
   rank its block */
static void reduce_scatterv_sched(const coll_call_t *call, const coll_params_t *params,
                                  coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, me = comm->rank;
    compi_datatype_t *dt = red_dtype(call);
    compi_status_t st;
    coll_call_t rcall;
    size_t total;
    size_t *c = red_rs_counts(call, &total);

    (void)params;
    if (c == NULL) {
        coll_sched_fail(s, COMPI_ERR_NO_MEMORY);
        return;
    }
    coll_sched_adopt(s, c);
    if (total == 0) {
        return;
    }
    void *whole = me == 0 ? coll_sched_scratch(s, dt, total) : NULL;
    coll_closure_t *tree = rs_reduce(call, total, whole, &rcall, &st);
    if (tree == NULL) {
        coll_sched_fail(s, st);
        return;
    }
    coll_tree_sched_add(tree, &rcall, s);
    coll_closure_release(tree);
    if (me == 0) {
        for (int i = 1; i < p; i++) {
            coll_sched_send(s, red_at(whole, dt, c[p + i]), c[i], dt, i);
        }
        coll_sched_copy(s, whole, c[0], dt, call->rbuf, c[0], dt);
    } else {
        coll_sched_recv(s, call->rbuf, c[me], dt, 0);
    }
    coll_sched_round(s);
}
const coll_algo_t coll_algo_reduce_scatter_reduce_scatterv = {
    .name = "reduce-scatterv",
    .kind = COLL_REDUCE_SCATTER,
    .fn = red_rs_reduce_scatterv,
    .usable = NULL,
    .sched = reduce_scatterv_sched,
    .params = "",
    .help = "in-order binomial reduce to rank 0, then it sends each block (any op)",
};

/* the same schedule for reduce-scatter-block (equal blocks of rcount elements) */
const coll_algo_t coll_algo_reduce_scatter_block_reduce_scatterv = {
    .name = "reduce-scatterv",
    .kind = COLL_REDUCE_SCATTER_BLOCK,
    .fn = red_rs_reduce_scatterv,
    .usable = NULL,
    .sched = reduce_scatterv_sched,
    .params = "",
    .help = "as reduce-scatter reduce-scatterv, with equal blocks",
};
