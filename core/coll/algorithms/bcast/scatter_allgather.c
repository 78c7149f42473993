/*
 * bcast/scatter_allgather.c -- van de Geijn's bcast for large messages: the root
 * scatters the message in p blocks down a binomial tree, then a ring allgather gives
 * every rank every block.
 *
 *   scatter (binomial):   root [b0 b1 b2 b3] -> rank 2 gets [b2 b3] -> rank 3 gets [b3]
 *                                            -> rank 1 gets [b1]
 *   allgather (ring):     step i: rank v sends block v - i to v + 1, receives
 *                         block v - i - 1 from v - 1 (mod p), p - 1 steps
 *
 * Cost: (log2 p + p - 1) alpha + 2 (p - 1)/p n beta, against log2 p (alpha + n beta)
 * for binomial: the better choice for large n.  Blocks are cut in packed bytes, so
 * ranks whose datatypes differ (matching signatures) cut them alike.
 */
#include "core/coll/phases/reduce_phases.h"

#include <stdlib.h>

/* bytes of blocks [lo, min(hi, p)) */
static size_t span(const size_t *cnt, const size_t *off, int lo, int hi, int p)
{
    if (hi > p) {
        hi = p;
    }
    return hi > lo ? off[hi - 1] + cnt[hi - 1] - off[lo] : 0;
}

static compi_status_t bcast_scatter_allgather(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, root = call->root, tag = coll_tag(call->kind);
    int v = (r - root + p) % p;
    compi_datatype_t *byte = red_byte(), *dt;
    compi_status_t st = COMPI_OK;
    size_t count, *cnt = NULL, *off = NULL;
    char *packed = NULL, *data;
    void *buf;

    (void)self;
    red_bcast_buf(call, &buf, &count, &dt);
    size_t n = count * dt->size;
    if (n == 0 || p == 1) {
        return COMPI_OK;
    }
    data = dt_contig_ptr(dt, buf, count);
    if (data == NULL) {
        data = packed = coll_scratch_get(n);
        if (packed == NULL) {
            return COMPI_ERR_NO_MEMORY;
        }
        if (v == 0) {
            dt_pack(dt, buf, count, 0, packed, n);
        }
    }
    cnt = coll_blocks_get(n, p);
    if (cnt == NULL) {
        st = COMPI_ERR_NO_MEMORY;
        goto err;
    }
    off = cnt + p;

    int mask = 1;
    while (mask < p) {
        if (v & mask) {
            st = red_recv(data + off[v], span(cnt, off, v, v + mask, p), byte,
                          (v - mask + root) % p, tag, comm);
            if (st != COMPI_OK) {
                goto err;
            }
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (v + mask < p) {
            int c = v + mask;
            st = red_send(data + off[c], span(cnt, off, c, c + mask, p), byte, (c + root) % p, tag,
                          comm);
            if (st != COMPI_OK) {
                goto err;
            }
        }
    }

    for (int i = 0; i < p - 1; i++) {
        int sb = ((v - i) % p + p) % p, rb = ((v - i - 1) % p + p) % p;
        st = red_sendrecv(data + off[sb], cnt[sb], (r + 1) % p, data + off[rb], cnt[rb],
                          (r - 1 + p) % p, byte, tag, comm);
        if (st != COMPI_OK) {
            goto err;
        }
    }
    if (packed != NULL && v != 0) {
        dt_unpack(dt, buf, count, 0, packed, n);
    }
err:
    coll_scratch_put(cnt);
    coll_scratch_put(packed);
    return st;
}

const coll_algo_t coll_algo_bcast_scatter_allgather = {
    .name = "scatter-allgather",
    .kind = COLL_BCAST,
    .fn = bcast_scatter_allgather,
    .usable = NULL,
    .help = "binomial scatter of p blocks, then ring allgather (van de Geijn; large n)",
};
