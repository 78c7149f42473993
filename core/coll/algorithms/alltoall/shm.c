/*
 * alltoall/shm.c -- an alltoall through the communicator's shared segment
 * (core/coll/shm.h): every rank packs the p - 1 blocks it sends to the others into its
 * slot, block i at i n bytes, and sets its arrival flag; once every other rank's flag
 * is there, it takes block `me` out of each peer's slot.
 *
 *   rank j:  [slot j][i] <- s_j[i] for i != j ; arrive = seq ; r_j[j] <- s_j[j] ;
 *            wait arrive_i >= seq for all i ; r_j[i] <- [slot i][j] for i != j ;
 *            done = seq
 *
 * One round: p blocks must fit a slot (coll_shm_slot, 8 KiB by default); larger calls run
 * pairwise exchange over the PML instead (.prepare decides at the miss, from the key's
 * block size).  In place, the blocks are packed from the receive buffer before any of
 * it is overwritten.  Derived datatypes are packed and unpacked (core/dt).
 *
 * Cost, n bytes per block: 1 hand-off + (p - 1) n beta_mem in + (p - 1) n beta_mem out
 * on every rank, in parallel, against p - 1 exchanges over the PML (pairwise), each a
 * send and a receive through a transport's buffer.  One host only.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/shm.h"

/* one round; none for one rank or empty blocks */
static size_t alltoall_shm_rounds(const coll_call_t *call, size_t slot)
{
    (void)slot;
    return call->comm->size > 1 && call->bytes > 0;
}

/* our own block, from the send buffer to the receive buffer (in place it is there) */
static compi_status_t alltoall_shm_own(const coll_call_t *call)
{
    coll_blk_t own, b;
    if (call->in_place) {
        return COMPI_OK;
    }
    coll_sblock(call, call->comm->rank, &own);
    coll_rblock(call, call->comm->rank, &b);
    return coll_blk_copy(&own, &b);
}

/* the phases (core/coll/shm.h: coll_shm_op_t) */
static inline __attribute__((always_inline)) compi_status_t
alltoall_shm_run(coll_shm_op_t *o, int block)
{
    const coll_call_t *call = o->call;
    coll_shm_t *shm = o->shm;
    uint64_t s = o->seq;
    size_t n = call->bytes; /* one block, packed */
    coll_blk_t b;

    if (o->last == 0) {
        return alltoall_shm_own(call);
    }
    int p = shm->p, r = shm->rank;
    switch (o->phase) {
    case 0: {
        if (!coll_shm_slot_free(shm, s, block)) {
            return COMPI_INPROGRESS;
        }
        char *mine = coll_shm_slot(shm, r, s);
        for (int i = 0; i < p; i++) {
            if (i == r) {
                continue;
            }
            /* in place the blocks to send are the receive buffer's */
            if (call->in_place) {
                coll_rblock(call, i, &b);
            } else {
                coll_sblock(call, i, &b);
            }
            coll_shm_pack(mine + (size_t)i * n, b.buf, b.count, b.dt, n);
        }
        coll_shm_arrive(shm, s);
        coll_shm_keep(o, alltoall_shm_own(call)); /* while the others write theirs */
        o->phase = 1;
        o->j = 0;
    }
        /* fall through */
    default:
        if (!coll_shm_all_arrived(shm, s, &o->j, block)) {
            return COMPI_INPROGRESS;
        }
        break;
    }
    for (int k = 1; k < p; k++) {
        int i = (r + k) % p;
        coll_rblock(call, i, &b);
        coll_shm_unpack(coll_shm_slot(shm, i, s) + (size_t)r * n, b.buf, b.count, b.dt, n);
    }
    coll_shm_done(shm, s);
    return o->st;
}

COLL_SHM_ENTRY_POINTS(alltoall_shm, alltoall_shm_rounds)

const coll_algo_t coll_algo_alltoall_shm =
    COLL_SHM_ALGO(COLL_ALLTOALL, alltoall_shm, alltoall_shm_sched, 0,
                  "one host: every rank's p blocks in its slot of a shared segment, each takes its "
                  "own from every slot (p blocks up to a slot)");
