/*
 * scatter/shm.c -- a scatter through the communicator's shared segment
 * (core/coll/shm.h): the root packs the p - 1 blocks of the others into its slot, block
 * j at j n bytes, and sets its release flag; every other rank waits for the flag and
 * copies its block out.
 *
 *   root:       [slot root][j] <- s[j] for j != root ; release = seq ; r <- s[root]
 *   others (j): wait release_root >= seq ; r <- [slot root][j] ; done = seq
 *
 * One round: p blocks must fit a slot (coll_shm_slot, 8 KiB by default); larger calls
 * run the linear scatter over the PML instead (.prepare decides at the miss, from the
 * key's block size).  As bcast/shm.c, the root runs up to the eight slots ahead of slow
 * readers before it waits.
 *
 * Cost, n bytes per block: (p - 1) n beta_mem at the root, 1 hand-off, n beta_mem on
 * every other rank in parallel, against (p - 1) alpha + (p - 1) n beta over the PML
 * (linear).  One host only.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/shm.h"

static compi_status_t scatter_shm(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, root = call->root;
    size_t n = call->bytes; /* one block, packed */
    coll_blk_t own, b;
    compi_status_t st = COMPI_OK;

    if (coll_shm_fallback(self, call, &st)) {
        return st;
    }
    coll_own_rblock(call, &own); /* nothing at an in-place root */
    if (p == 1 || n == 0) {
        if (r == root && own.count > 0) {
            coll_sblock(call, root, &b);
            st = coll_blk_copy(&b, &own);
        }
        return st;
    }
    coll_shm_t *shm = coll_shm_get(comm, &st);
    if (shm == NULL) {
        return st;
    }
    uint64_t s = ++shm->seq;
    char *slot = coll_shm_slot(shm, root, s);
    if (r != root) {
        coll_shm_wait(shm, &shm->ctl[root].release, s);
        coll_shm_unpack(slot + (size_t)r * n, own.buf, own.count, own.dt, n);
        coll_shm_done(shm, s);
        return COMPI_OK;
    }
    coll_shm_slot_free(shm, s);
    for (int j = 0; j < p; j++) {
        if (j != root) {
            coll_sblock(call, j, &b);
            coll_shm_pack(slot + (size_t)j * n, b.buf, b.count, b.dt, n);
        }
    }
    coll_shm_set(shm, &shm->ctl[root].release, s);
    if (own.count > 0) {
        coll_sblock(call, root, &b);
        st = coll_blk_copy(&b, &own);
    }
    coll_shm_done(shm, s);
    return st;
}

const coll_algo_t coll_algo_scatter_shm =
    COLL_SHM_ALGO(COLL_SCATTER, scatter_shm, 0,
                  "one host: the root's p blocks in its slot of a shared segment, each rank copies "
                  "its own out (p blocks up to a slot)");
