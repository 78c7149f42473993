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

static compi_status_t bcast_shm(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    compi_datatype_t *dt = call->sdt;
    int r = comm->rank, root = call->root;
    size_t total = call->scount * dt->size;
    void *buf = (void *)call->sbuf;
    compi_status_t st = COMPI_OK;

    if (coll_shm_fallback(self, call, &st)) {
        return st;
    }
    if (comm->size == 1 || total == 0) {
        return COMPI_OK;
    }
    coll_shm_t *shm = coll_shm_get(comm, &st);
    if (shm == NULL) {
        return st;
    }
    char *contig = dt_contig_ptr(dt, buf, call->scount);
    for (size_t off = 0; off < total; off += shm->slot) {
        size_t n = total - off < shm->slot ? total - off : shm->slot;
        uint64_t s = ++shm->seq;
        char *slot = coll_shm_slot(shm, root, s);
        if (r == root) {
            coll_shm_slot_free(shm, s);
            if (contig != NULL) {
                memcpy(slot, contig + off, n);
            } else {
                dt_pack(dt, buf, call->scount, off, slot, n);
            }
            coll_shm_set(shm, &shm->ctl[r].release, s);
        } else {
            coll_shm_wait(shm, &shm->ctl[root].release, s);
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

const coll_algo_t coll_algo_bcast_shm = COLL_SHM_ALGO(
    COLL_BCAST, bcast_shm, 0,
    "one host: the root's slot in a shared segment and a release flag (8 KiB rounds)");
