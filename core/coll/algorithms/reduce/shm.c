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

/* the phases (core/coll/shm.h: coll_shm_op_t) */
static inline __attribute__((always_inline)) compi_status_t
reduce_shm_run(coll_shm_op_t *o, int block)
{
    const coll_call_t *call = o->call;
    compi_datatype_t *dt = call->sdt;
    int r = call->comm->rank, root = call->root;
    const void *src = call->in_place ? call->rbuf : call->sbuf;
    coll_shm_t *shm = o->shm;

    if (o->last == 0) {
        return coll_shm_reduce_local(call, src);
    }
    size_t m = coll_shm_round_elems(o, dt);
    for (; o->seq <= o->last; o->seq++, o->phase = 0) {
        uint64_t s = o->seq;
        size_t first = (size_t)(s - o->base) * m;
        size_t n = call->scount - first < m ? call->scount - first : m;
        switch (o->phase) {
        case 0:
            /* out of place, the root combines its own vector where it is; in place (the
               input is the result buffer) it copies it into its slot first.  The others
               copy theirs in: the root may still read that slot from NBUF rounds ago */
            if (r != root || call->in_place) {
                if (!coll_shm_slot_free(shm, s, block)) {
                    return COMPI_INPROGRESS;
                }
                coll_shm_put(shm, dt, src, first, n, s);
            }
            if (r != root) {
                coll_shm_arrive(shm, s);
                coll_shm_done(shm, s);
                continue;
            }
            o->phase = 1;
            o->j = 0;
            /* fall through */
        default:
            if (!coll_shm_all_arrived(shm, s, &o->j, block)) {
                return COMPI_INPROGRESS;
            }
            coll_shm_keep(o, coll_shm_combine_own(shm, call->op, dt, red_at(call->rbuf, dt, first),
                                                  0, n, s, call->in_place ? -1 : r,
                                                  red_at(src, dt, first)));
            coll_shm_done(shm, s);
        }
    }
    return o->st;
}

COLL_SHM_ENTRY_POINTS(reduce_shm, coll_shm_reduce_rounds)

const coll_algo_t coll_algo_reduce_shm = COLL_SHM_ALGO(
    COLL_REDUCE, reduce_shm, reduce_shm_sched, 0,
    "one host: every rank's slot in a shared segment, the root combines in rank order");
