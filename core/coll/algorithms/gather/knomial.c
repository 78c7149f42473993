/*
 * gather/knomial.c -- gather along a radix-k tree whose subtrees are contiguous ranges of
 * ranks (relative to the root), so each rank forwards its whole subtree as one message.
 * gather/binomial.c is the case k = 2.
 *
 *   9 ranks, k = 3, root 0 (relative ranks):
 *
 *              0 <------------+-----------+
 *            ^   ^            |           |
 *            1   2            3           6       round 2: 3 and 6 send 3 blocks each
 *                           ^   ^       ^   ^
 *                           4   5       7   8     round 1: leaves send their own block
 *
 * Relative rank v = (rank - root) mod p; block v of the temporary is the block of rank
 * (v + root) mod p, so the root un-rotates when it places the blocks (it receives straight
 * into its buffer when a child's range does not wrap past rank p - 1).
 *
 * Cost (p ranks, n bytes per block): T = ceil(log_k p) (k - 1) alpha + (p - 1) n beta,
 * plus one pack of n bytes per inner rank; leaves send from the user's buffer.
 */
#include "core/coll/phases/blocks.h"

#include <stdlib.h>

static long min_l(long a, long b)
{
    return a < b ? a : b;
}

compi_status_t coll_gather_knomial_run(const coll_call_t *call, long k)
{
    compi_comm_t *comm = call->comm;
    long p = comm->size, rank = comm->rank, root = call->root;
    long v = (rank - root + p) % p;
    compi_datatype_t *byte = coll_move_byte();
    compi_status_t st = COMPI_OK;
    compi_request_t **reqs = NULL;
    char *tmp = NULL, *wrap = NULL;
    long wrap_c = -1, wrap_cnt = 0;
    coll_blk_t own, b;
    size_t n;

    if (k < 2) {
        k = 2;
    }
    coll_own_sblock(call, &own);
    if (rank == root) {
        coll_rblock(call, (int)root, &b);
        n = coll_blk_bytes(&b);
        if (!call->in_place) {
            st = coll_blk_copy(&own, &b);
        }
    } else {
        n = coll_blk_bytes(&own);
    }
    /* n is the same on every rank (matching type signatures) */
    if (n == 0 || p == 1) {
        return st;
    }

    coll_knomial_t t;
    coll_knomial_place(v, p, k, &t);
    long m = t.mask, sub = t.sub;
    if (t.nchild == 0) {
        /* a leaf sends its block from the user's buffer, datatype and all */
        return pml_send(own.buf, own.count, own.dt, (int)((t.parent + root) % p),
                        coll_tag(call->kind), comm, PML_SEND_STANDARD);
    }

    reqs = calloc((size_t)t.nchild, sizeof(*reqs));
    if (reqs == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    if (rank != root) {
        tmp = malloc((size_t)sub * n);
        if (tmp == NULL) {
            st = COMPI_ERR_NO_MEMORY;
            goto err;
        }
        dt_pack(own.dt, own.buf, own.count, 0, tmp, n);
    }

    long r = 0;
    for (long mask = 1; mask < m; mask *= k) {
        for (long i = 1; i < k && v + i * mask < p; i++) {
            long c = v + i * mask, cnt = min_l(mask, p - c);
            if (rank != root) {
                coll_move_keep(&st, pml_irecv(tmp + (size_t)(c - v) * n, (size_t)cnt * n, byte,
                                              (int)((c + root) % p), coll_tag(call->kind), comm,
                                              &reqs[r++]));
                continue;
            }
            long first = (c + root) % p;
            if (first + cnt <= p) {
                /* the range does not wrap: blocks first .. first + cnt - 1 lie in order in
                   the root's buffer */
                coll_rblock(call, (int)first, &b);
                coll_move_keep(&st, pml_irecv(b.buf, (size_t)cnt * b.count, b.dt, (int)first,
                                              coll_tag(call->kind), comm, &reqs[r++]));
                continue;
            }
            /* at most one child's range wraps past rank p - 1 */
            wrap = malloc((size_t)cnt * n);
            if (wrap == NULL) {
                coll_move_keep(&st, COMPI_ERR_NO_MEMORY);
                continue;
            }
            wrap_c = c;
            wrap_cnt = cnt;
            coll_move_keep(&st, pml_irecv(wrap, (size_t)cnt * n, byte, (int)first,
                                          coll_tag(call->kind), comm, &reqs[r++]));
        }
    }
    coll_move_keep(&st, pml_wait_all_free((size_t)r, reqs));
    if (st != COMPI_OK) {
        goto err;
    }

    if (rank != root) {
        st = pml_send(tmp, (size_t)sub * n, byte, (int)((t.parent + root) % p),
                      coll_tag(call->kind), comm, PML_SEND_STANDARD);
    } else if (wrap != NULL) {
        for (long j = 0; j < wrap_cnt; j++) {
            coll_rblock(call, (int)((wrap_c + j + root) % p), &b);
            dt_unpack(b.dt, b.buf, b.count, 0, wrap + (size_t)j * n, n);
        }
    }
err:
    free(wrap);
    free(tmp);
    free(reqs);
    return st;
}

static compi_status_t gather_knomial(coll_closure_t *self, const coll_call_t *call)
{
    const coll_params_t *params = self->state;
    return coll_gather_knomial_run(call, params->fanout > 1 ? params->fanout : 4);
}

const coll_algo_t coll_algo_gather_knomial = {
    .name = "knomial",
    .kind = COLL_GATHER,
    .fn = gather_knomial,
    .usable = NULL,
    .params = "fanout",
    .help = "radix-k tree of contiguous subtrees (fanout = k, default 4)",
};
