/*
 * scatter/knomial.c -- scatter along a radix-k tree whose subtrees are contiguous ranges
 * of ranks (relative to the root): each rank receives its subtree's blocks in one
 * message, keeps its own and forwards the rest, largest subtree first.
 * scatter/binomial.c is the case k = 2.
 *
 *   9 ranks, k = 3, root 0 (relative ranks):
 *
 *              0 ------------>+----------->+
 *            |   |            |            |
 *            v   v            v            v
 *            1   2            3            6      round 1: 3 and 6 get 3 blocks each
 *                           |   |        |   |
 *                           v   v        v   v
 *                           4   5        7   8    round 2: one block each
 *
 * Relative rank v = (rank - root) mod p.  The root sends straight from its buffer when a
 * child's range does not wrap past rank p - 1, else it packs that range first.
 *
 * Cost (p ranks, n bytes per block): T = ceil(log_k p) (k - 1) alpha + (p - 1) n beta,
 * plus one unpack of n bytes per inner rank; leaves receive into the user's buffer.
 */
#include "core/coll/phases/blocks.h"

#include <stdlib.h>

static long min_l(long a, long b)
{
    return a < b ? a : b;
}

compi_status_t coll_scatter_knomial_run(const coll_call_t *call, long k)
{
    compi_comm_t *comm = call->comm;
    long p = comm->size, rank = comm->rank, root = call->root;
    long v = (rank - root + p) % p;
    compi_datatype_t *byte = coll_move_byte();
    compi_status_t st = COMPI_OK;
    compi_request_t **reqs = NULL;
    char *tmp = NULL, *wrap = NULL;
    coll_blk_t own, b;
    size_t n;

    if (k < 2) {
        k = 2;
    }
    coll_own_rblock(call, &own);
    if (rank == root) {
        coll_sblock(call, (int)root, &b);
        n = coll_blk_bytes(&b);
        if (!call->in_place) {
            st = coll_blk_copy(&b, &own);
        }
    } else {
        n = coll_blk_bytes(&own);
    }
    if (n == 0 || p == 1) {
        return st;
    }

    coll_knomial_t t;
    coll_knomial_place(v, p, k, &t);
    long m = t.mask, sub = t.sub;
    int parent = (int)((t.parent + root) % p);
    if (t.nchild == 0) {
        return pml_recv(own.buf, own.count, own.dt, parent, coll_tag(call->kind), comm, NULL);
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
        st = pml_recv(tmp, (size_t)sub * n, byte, parent, coll_tag(call->kind), comm, NULL);
        if (st != COMPI_OK) {
            goto err;
        }
        dt_unpack(own.dt, own.buf, own.count, 0, tmp, n);
    } else {
        /* at most one child's range wraps past rank p - 1; at most half the blocks */
        wrap = malloc((size_t)(p / 2 + 1) * n);
        if (wrap == NULL) {
            st = COMPI_ERR_NO_MEMORY;
            goto err;
        }
    }

    long r = 0;
    for (long mask = m / k; mask >= 1; mask /= k) {
        for (long i = k - 1; i >= 1; i--) {
            long c = v + i * mask;
            if (c >= p) {
                continue;
            }
            long cnt = min_l(mask, p - c);
            int dst = (int)((c + root) % p);
            if (rank != root) {
                coll_move_keep(&st, pml_isend(tmp + (size_t)(c - v) * n, (size_t)cnt * n, byte, dst,
                                              coll_tag(call->kind), comm, PML_SEND_STANDARD,
                                              &reqs[r++]));
                continue;
            }
            coll_sblock(call, dst, &b);
            if (dst + cnt <= p) {
                coll_move_keep(&st, pml_isend(b.buf, (size_t)cnt * b.count, b.dt, dst,
                                              coll_tag(call->kind), comm, PML_SEND_STANDARD,
                                              &reqs[r++]));
                continue;
            }
            for (long j = 0; j < cnt; j++) {
                coll_sblock(call, (int)((c + j + root) % p), &b);
                dt_pack(b.dt, b.buf, b.count, 0, wrap + (size_t)j * n, n);
            }
            coll_move_keep(&st, pml_isend(wrap, (size_t)cnt * n, byte, dst, coll_tag(call->kind),
                                          comm, PML_SEND_STANDARD, &reqs[r++]));
        }
    }
    coll_move_keep(&st, pml_wait_all_free((size_t)r, reqs));
err:
    free(wrap);
    free(tmp);
    free(reqs);
    return st;
}

static compi_status_t scatter_knomial(coll_closure_t *self, const coll_call_t *call)
{
    const coll_params_t *params = self->state;
    return coll_scatter_knomial_run(call, params->fanout > 1 ? params->fanout : 4);
}

const coll_algo_t coll_algo_scatter_knomial = {
    .name = "knomial",
    .kind = COLL_SCATTER,
    .fn = scatter_knomial,
    .usable = NULL,
    .params = "fanout",
    .help = "radix-k tree of contiguous subtrees (fanout = k, default 4)",
};
