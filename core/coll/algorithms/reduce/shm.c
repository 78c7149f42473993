/*
 * reduce/shm.c -- a reduce through the communicator's shared segment
 * (core/coll/shm.h): every rank but the root copies its vector into its slot and sets its
 * arrival flag; the root waits for all the flags and combines the slots and its own
 * vector (read where it is, or from its slot when it is also the result buffer: in
 * place), in rank order, straight into its result buffer (coll_op_apply3 for the first
 * pair, then coll_op_apply).
 *
 *   rank j:  [slot j] <- x_j ; arrive = seq
 *   root:    wait arrive_j >= seq for all j ; r = x_0 op (x_1 op (... op x_p-1))
 *
 * Vectors longer than a slot (coll_shm_slot, 8 KiB by default) go in rounds of whole
 * elements; a rank runs up to COLL_SHM_NBUF rounds ahead of the root (its slots), so the
 * copies in of later rounds overlap the root's combining of earlier ones.  Elements are
 * copied with their gaps, so the op engine reads them in the datatype's own layout (any
 * datatype whose element fits a slot: usable).
 *
 * Cost per round of n bytes: 1 hand-off + n beta_mem on every rank but the root (the
 * copy in), then (p - 1) n gamma at the root, against ceil(log2 p) (alpha + n beta +
 * n gamma) over the PML: the root does all the combining, so it suits small vectors.
 * One host.
 */
#include "core/coll/phases/reduce_phases.h"
#include "core/coll/shm.h"

static compi_status_t reduce_shm(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    compi_datatype_t *dt = call->sdt;
    int p = comm->size, r = comm->rank, root = call->root;
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
        if (r == root) {
            /* out of place, the root combines its own vector where it is; in place (the
               input is the result buffer) it copies it into its slot first */
            if (call->in_place) {
                coll_shm_slot_free(shm, s);
                coll_shm_put(shm, dt, src, first, n, s);
            }
            for (int j = 0; j < p; j++) {
                if (j != r) {
                    coll_shm_wait(shm, &shm->ctl[j].arrive, s);
                }
            }
            coll_shm_reached(shm, s);
            st = coll_shm_combine_own(shm, call->op, dt, red_at(call->rbuf, dt, first), 0, n, s,
                                      call->in_place ? -1 : r, red_at(src, dt, first));
        } else {
            /* the root may still read our slot from NBUF rounds ago */
            coll_shm_slot_free(shm, s);
            coll_shm_put(shm, dt, src, first, n, s);
            coll_shm_set(shm, &shm->ctl[r].arrive, s);
        }
        coll_shm_done(shm, s);
    }
    return st;
}

const coll_algo_t coll_algo_reduce_shm = COLL_SHM_ALGO(
    COLL_REDUCE, reduce_shm, 0,
    "one host: every rank's slot in a shared segment, the root combines in rank order");
