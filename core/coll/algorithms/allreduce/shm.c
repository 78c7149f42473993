/*
 * allreduce/shm.c -- an allreduce through the communicator's shared segment
 * (core/coll/shm.h): every rank copies its vector into its slot and sets its arrival
 * flag, waits for every other rank's, and combines all the slots, in rank order,
 * straight into its result buffer.  No rank waits for a root: each reads the others'
 * slots as soon as they are there.
 *
 *   rank j:  [slot j] <- x_j ; arrive = seq ; wait arrive_i >= seq for all i ;
 *            r = x_0 op (x_1 op (... op x_p-1)) ; done = seq
 *
 * Vectors longer than a slot (coll_shm_slot, 8 KiB by default) go in rounds of whole
 * elements, gaps included, so any datatype whose element fits a slot works (usable).
 *
 * Cost per round of n bytes: 1 hand-off (p - 1 flags read, in parallel) + n beta_mem +
 * (p - 1) n gamma on every rank, against ceil(log2 p) (alpha + n beta + n gamma) for
 * recursive doubling over the PML: every rank combines everything, fine for the small
 * vectors and the few ranks of one host it is meant for.  One host only.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/shm.h"

static compi_status_t allreduce_shm(coll_closure_t *self, const coll_call_t *call)
{
    compi_datatype_t *dt = call->sdt;
    size_t count = call->scount;
    const void *src = call->in_place ? call->rbuf : call->sbuf;
    compi_status_t st = COMPI_OK;

    if (coll_shm_fallback(self, call, &st)) {
        return st;
    }
    coll_shm_t *shm = coll_shm_reduce_begin(call, src, &st);
    if (shm == NULL) {
        return st;
    }
    size_t m = coll_shm_elems(shm, dt);
    for (size_t first = 0; first < count && st == COMPI_OK; first += m) {
        size_t n = count - first < m ? count - first : m;
        uint64_t s = ++shm->seq;
        /* after an allreduce round this is free at once (coll_shm_wait_all below); after
           another kind's it may take one look at the done flags */
        coll_shm_slot_free(shm, s);
        coll_shm_put(shm, dt, src, first, n, s);
        coll_shm_arrive(shm, s);
        coll_shm_wait_all(shm, s);
        st = coll_shm_combine(shm, call->op, dt, red_at(call->rbuf, dt, first), 0, n, s);
        coll_shm_done(shm, s);
    }
    return st;
}

const coll_algo_t coll_algo_allreduce_shm =
    COLL_SHM_ALGO(COLL_ALLREDUCE, allreduce_shm, 0,
                  "one host: every rank's slot in a shared segment, each rank combines them all");
