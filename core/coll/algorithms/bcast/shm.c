/*
 * bcast/shm.c -- a broadcast through the communicator's shared segment
 * (core/coll/shm.h): the root writes the data into its slot and sets its release flag;
 * every other rank waits for the flag and copies the slot out.
 *
 *   root:   [slot] <- data ; release = seq
 *   others: wait release >= seq ; data <- [slot] ; done = seq
 *
 * A message longer than a slot (coll_shm_slot, 8 KiB by default) goes in rounds of a
 * slot each, one sequence number per round: correct at any size, but with no overlap
 * of the root's and the readers' copies, so creators choose it for small messages.
 * Derived datatypes are packed into the slot and unpacked from it (core/dt).
 *
 * Cost per round of n bytes: 1 hand-off + 2 n beta_mem (one copy in, p - 1 parallel
 * copies out), against ceil(log2 p) (alpha + n beta) over the PML.  One host only.
 */
#include "core/coll/shm.h"

#include <string.h>

/* one round per slot of the packed message; none for one rank or no data */
static size_t bcast_shm_rounds(const coll_call_t *call, size_t slot)
{
    size_t total = call->scount * call->sdt->size;
    return call->comm->size == 1 ? 0 : (total + slot - 1) / slot;
}

/* the phases (core/coll/shm.h: coll_shm_op_t) */
static inline __attribute__((always_inline)) compi_status_t
bcast_shm_run(coll_shm_op_t *o, int block)
{
    const coll_call_t *call = o->call;
    compi_datatype_t *dt = call->sdt;
    int r = call->comm->rank, root = call->root;
    size_t total = call->scount * dt->size;
    void *buf = (void *)call->sbuf;
    coll_shm_t *shm = o->shm;

    if (o->last == 0) {
        return COMPI_OK;
    }
    char *contig = dt_contig_ptr(dt, buf, call->scount);
    for (; o->seq <= o->last; o->seq++) {
        uint64_t s = o->seq;
        size_t off = (size_t)(s - o->base) * shm->slot;
        size_t n = total - off < shm->slot ? total - off : shm->slot;
        char *slot = coll_shm_slot(shm, root, s);
        if (r == root) {
            if (!coll_shm_slot_free(shm, s, block)) {
                return COMPI_INPROGRESS;
            }
            if (contig != NULL) {
                memcpy(slot, contig + off, n);
            } else {
                dt_pack(dt, buf, call->scount, off, slot, n);
            }
            coll_shm_set(shm, &shm->ctl[r].release, s);
        } else {
            if (!coll_shm_ready(shm, &shm->ctl[root].release, s, block)) {
                return COMPI_INPROGRESS;
            }
            if (contig != NULL) {
                memcpy(contig + off, slot, n);
            } else {
                dt_unpack(dt, buf, call->scount, off, slot, n);
            }
        }
        coll_shm_done(shm, s);
    }
    return COMPI_OK;
}

COLL_SHM_ENTRY_POINTS(bcast_shm, bcast_shm_rounds)

const coll_algo_t coll_algo_bcast_shm = COLL_SHM_ALGO(
    COLL_BCAST, bcast_shm, bcast_shm_sched, 0,
    "one host: the root's slot in a shared segment and a release flag (8 KiB rounds)");
