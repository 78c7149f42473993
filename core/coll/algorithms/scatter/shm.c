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

/* one round; none for one rank or empty blocks */
static size_t scatter_shm_rounds(const coll_call_t *call, size_t slot)
{
    (void)slot;
    return call->comm->size > 1 && call->bytes > 0;
}

/* the phases (core/coll/shm.h: coll_shm_op_t) */
static inline __attribute__((always_inline)) compi_status_t
scatter_shm_run(coll_shm_op_t *o, int block)
{
    const coll_call_t *call = o->call;
    coll_shm_t *shm = o->shm;
    uint64_t s = o->seq;
    int r = call->comm->rank, root = call->root;
    size_t n = call->bytes; /* one block, packed */
    coll_blk_t own, b;
    compi_status_t st = COMPI_OK;

    coll_own_rblock(call, &own); /* nothing at an in-place root */
    if (o->last == 0) {
        if (r == root && own.count > 0) {
            coll_sblock(call, root, &b);
            st = coll_blk_copy(&b, &own);
        }
        return st;
    }
    char *slot = coll_shm_slot(shm, root, s);
    if (r != root) {
        if (!coll_shm_ready(shm, &shm->ctl[root].release, s, block)) {
            return COMPI_INPROGRESS;
        }
        coll_shm_unpack(slot + (size_t)r * n, own.buf, own.count, own.dt, n);
        coll_shm_done(shm, s);
        return COMPI_OK;
    }
    if (!coll_shm_slot_free(shm, s, block)) {
        return COMPI_INPROGRESS;
    }
    for (int j = 0; j < shm->p; j++) {
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

COLL_SHM_ENTRY_POINTS(scatter_shm, scatter_shm_rounds)

const coll_algo_t coll_algo_scatter_shm =
    COLL_SHM_ALGO(COLL_SCATTER, scatter_shm, scatter_shm_sched, 0,
                  "one host: the root's p blocks in its slot of a shared segment, each rank copies "
                  "its own out (p blocks up to a slot)");
