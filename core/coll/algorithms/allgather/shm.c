/*
 * allgather/shm.c -- an allgather through the communicator's shared segment
 * (core/coll/shm.h): every rank packs its block into its slot and sets its arrival flag,
 * copies its own block into place, waits for every other rank's flag and copies each
 * peer's block straight out of the peer's slot into its receive buffer.
 *
 *   rank j:  [slot j] <- b_j ; arrive = seq ; rbuf[j] <- b_j ;
 *            wait arrive_i >= seq for all i ; rbuf[i] <- [slot i] for i != j ; done = seq
 *
 * One round: a block must fit a slot (coll_shm_slot, 8 KiB by default); a larger one
 * runs the ring over the PML instead (.prepare decides at the miss, from the key's
 * block size).  Derived datatypes are packed into the slot and unpacked from it.
 *
 * Cost, n bytes per block: 1 hand-off (p - 1 flags read) + n beta_mem (the copy in) +
 * (p - 1) n beta_mem (the copies out, every rank in parallel), against ceil(log2 p)
 * alpha + (p - 1) n beta over the PML (recursive doubling, Bruck), whose messages are
 * copied into a transport's buffer and out again: one copy per byte read here instead
 * of a send and a receive.  One host only.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/shm.h"

/* one round; none for one rank or empty blocks */
static size_t allgather_shm_rounds(const coll_call_t *call, size_t slot)
{
    (void)slot;
    return call->comm->size > 1 && call->bytes > 0;
}

/* the phases (core/coll/shm.h: coll_shm_op_t) */
static inline __attribute__((always_inline)) compi_status_t
allgather_shm_run(coll_shm_op_t *o, int block)
{
    const coll_call_t *call = o->call;
    coll_shm_t *shm = o->shm;
    uint64_t s = o->seq;
    size_t n = call->bytes; /* one block, packed */
    coll_blk_t own, b;

    if (o->last == 0) {
        return coll_own_to_rblock(call);
    }
    int p = shm->p, r = shm->rank;
    switch (o->phase) {
    case 0:
        if (!coll_shm_slot_free(shm, s, block)) {
            return COMPI_INPROGRESS;
        }
        coll_own_sblock(call, &own);
        coll_shm_pack(coll_shm_slot(shm, r, s), own.buf, own.count, own.dt, n);
        coll_shm_arrive(shm, s);
        /* our own block while the others write theirs */
        coll_shm_keep(o, coll_own_to_rblock(call));
        o->phase = 1;
        o->j = 0;
        /* fall through */
    default:
        if (!coll_shm_all_arrived(shm, s, &o->j, block)) {
            return COMPI_INPROGRESS;
        }
        break;
    }
    /* starting past ourselves, so the ranks do not all read the same slot at once */
    for (int i = 1; i < p; i++) {
        int j = (r + i) % p;
        coll_rblock(call, j, &b);
        coll_shm_unpack(coll_shm_slot(shm, j, s), b.buf, b.count, b.dt, n);
    }
    coll_shm_done(shm, s);
    return o->st;
}

COLL_SHM_ENTRY_POINTS(allgather_shm, allgather_shm_rounds)

const coll_algo_t coll_algo_allgather_shm =
    COLL_SHM_ALGO(COLL_ALLGATHER, allgather_shm, allgather_shm_sched, 0,
                  "one host: every rank's block in its slot of a shared segment, each copies all "
                  "out (blocks up to a slot)");
