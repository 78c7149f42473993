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

/* one round; none for one rank or empty blocks */
static size_t gather_shm_rounds(const coll_call_t *call, size_t slot)
{
    (void)slot;
    return call->comm->size > 1 && call->bytes > 0;
}

/* the phases (core/coll/shm.h: coll_shm_op_t) */
static inline __attribute__((always_inline)) compi_status_t
gather_shm_run(coll_shm_op_t *o, int block)
{
    const coll_call_t *call = o->call;
    coll_shm_t *shm = o->shm;
    uint64_t s = o->seq;
    int r = call->comm->rank, root = call->root;
    size_t n = call->bytes; /* one block, packed */
    coll_blk_t own, b;

    coll_own_sblock(call, &own);
    if (o->last == 0) {
        return r == root ? coll_own_to_rblock(call) : COMPI_OK;
    }
    if (r != root) {
        /* the root may still read our slot from NBUF calls ago */
        if (!coll_shm_slot_free(shm, s, block)) {
            return COMPI_INPROGRESS;
        }
        coll_shm_pack(coll_shm_slot(shm, r, s), own.buf, own.count, own.dt, n);
        coll_shm_arrive(shm, s);
        coll_shm_done(shm, s);
        return COMPI_OK;
    }
    int p = shm->p;
    if (o->phase == 0) {
        if (!call->in_place) {
            coll_rblock(call, root, &b);
            coll_shm_keep(o, coll_blk_copy(&own, &b));
        }
        o->phase = 1;
        o->j = 1;
    }
    /* each block as its flag comes, from the rank after the root on (o->j: the next) */
    for (; o->j < p; o->j++) {
        int j = (root + o->j) % p;
        if (!coll_shm_ready(shm, &shm->ctl[j].arrive, s, block)) {
            return COMPI_INPROGRESS;
        }
        coll_rblock(call, j, &b);
        coll_shm_unpack(coll_shm_slot(shm, j, s), b.buf, b.count, b.dt, n);
    }
    coll_shm_reached(shm, s);
    coll_shm_done(shm, s);
    return o->st;
}

COLL_SHM_ENTRY_POINTS(gather_shm, gather_shm_rounds)

const coll_algo_t coll_algo_gather_shm =
    COLL_SHM_ALGO(COLL_GATHER, gather_shm, gather_shm_sched, 0,
                  "one host: every rank's block in its slot of a shared segment, the root copies "
                  "them out (blocks up to a slot)");
