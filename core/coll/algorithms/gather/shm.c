/*
 * gather/shm.c -- a gather through the communicator's shared segment (core/coll/shm.h):
 * every other rank packs its block into its slot and sets its arrival flag; the root
 * copies its own block into place, then each block straight out of its sender's slot.
 *
 *   rank j != root:  [slot j] <- b_j ; arrive = seq ; done = seq
 *   root:            r[root] <- b_root ; for each j: wait arrive_j >= seq ;
 *                    r[j] <- [slot j] ; done = seq
 *
 * One round: a block must fit a slot (coll_shm_slot, 8 KiB by default); a larger one
 * runs the linear gather over the PML instead (.prepare decides at the miss, from the
 * key's block size).  The senders do not wait for the root: each may run up to the
 * eight slots' worth of calls ahead, as eager messages would let it.
 *
 * Cost, n bytes per block: 1 hand-off + n beta_mem on every sender, in parallel, then
 * (p - 1) n beta_mem at the root, against (p - 1) alpha + (p - 1) n beta over the PML
 * (linear), each message copied into a transport's buffer and out again.  One host only.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/shm.h"

static compi_status_t gather_shm(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank, root = call->root;
    size_t n = call->bytes; /* one block, packed */
    coll_blk_t own, b;
    compi_status_t st = COMPI_OK;

    if (coll_shm_fallback(self, call, &st)) {
        return st;
    }
    coll_own_sblock(call, &own);
    if (p == 1 || n == 0) {
        return r == root ? coll_own_to_rblock(call) : COMPI_OK;
    }
    coll_shm_t *shm = coll_shm_get(comm, &st);
    if (shm == NULL) {
        return st;
    }
    uint64_t s = ++shm->seq;
    if (r != root) {
        /* the root may still read our slot from NBUF calls ago */
        coll_shm_slot_free(shm, s);
        coll_shm_pack(coll_shm_slot(shm, r, s), own.buf, own.count, own.dt, n);
        coll_shm_arrive(shm, s);
        coll_shm_done(shm, s);
        return COMPI_OK;
    }
    if (!call->in_place) {
        coll_rblock(call, root, &b);
        st = coll_blk_copy(&own, &b);
    }
    for (int k = 1; k < p; k++) {
        int j = (root + k) % p;
        coll_shm_wait(shm, &shm->ctl[j].arrive, s);
        coll_rblock(call, j, &b);
        coll_shm_unpack(coll_shm_slot(shm, j, s), b.buf, b.count, b.dt, n);
    }
    coll_shm_reached(shm, s);
    coll_shm_done(shm, s);
    return st;
}

const coll_algo_t coll_algo_gather_shm =
    COLL_SHM_ALGO(COLL_GATHER, gather_shm, 0,
                  "one host: every rank's block in its slot of a shared segment, the root copies "
                  "them out (blocks up to a slot)");
