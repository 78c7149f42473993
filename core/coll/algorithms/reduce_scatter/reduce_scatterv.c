/*
 * reduce_scatter/reduce_scatterv.c -- an in-order binomial reduce of the whole vector
 * to rank 0 (subtrees are ranges of ranks, combined left to right), then rank 0 sends
 * every rank its block.
 *
 *   reduce:   1 -> 0, 3 -> 2 -> 0, ...      scatterv:  0 -> 1 [b1], 0 -> 2 [b2], ...
 *
 * Cost, n the whole vector: ceil(log2 p) (alpha + n beta + n gamma) + (p - 1) alpha +
 * (p-1)/p n beta.  Works for every op: the fallback.  Also serves reduce-scatter-block.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/sched/sched_phases.h"

#include <stdlib.h>
#include <string.h>

static compi_status_t red_rs_reduce_scatterv(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, tag = coll_tag(call->kind), children[32], nch;
    compi_datatype_t *dt = red_dtype(call);
    compi_request_t **reqs = NULL;
    void *resmem = NULL;
    char *res = NULL;
    size_t total, off = 0;
    compi_status_t st = COMPI_OK;

    (void)self;
    size_t *cnt = coll_rs_counts_get(call, &total);
    if (cnt == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    if (total == 0) {
        goto err;
    }
    if (r == 0) {
        res = coll_tmp_get(dt, total, &resmem);
        reqs = coll_scratch_get((size_t)p * sizeof(*reqs));
        if (res == NULL || reqs == NULL) {
            st = COMPI_ERR_NO_MEMORY;
            goto err;
        }
        memset(reqs, 0, (size_t)p * sizeof(*reqs));
    }
    int parent = red_binomial(r, p, children, &nch, 1);
    st = red_tree_reduce(red_input(call), res, total, dt, call->op, parent, children, nch, total,
                         !red_commutative(call), tag, comm);
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
    coll_scratch_put(reqs);
    coll_scratch_put(resmem);
    coll_scratch_put(cnt);
    return st;
}

/* block i's element count, for both kinds */
static size_t rs_count(const coll_call_t *call, int i)
{
    return call->kind == COLL_REDUCE_SCATTER_BLOCK ? call->rcount : (size_t)call->rcounts[i];
}

/* the same as a schedule, for both kinds: reduce in rank order to 0, which sends each
   rank its block */
static void reduce_scatterv_sched(const coll_call_t *call, const coll_params_t *params,
                                  coll_sched_t *s)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, me = comm->rank;
    compi_datatype_t *dt = red_dtype(call);
    size_t total = 0, off = 0;

    (void)params;
    for (int i = 0; i < p; i++) {
        total += rs_count(call, i);
    }
    void *whole = me == 0 ? coll_sched_scratch(s, dt, total) : NULL;
    coll_sched_reduce_binomial(s, red_input(call), whole, total, dt, 0, comm);
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
