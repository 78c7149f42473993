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

/* the phases (core/coll/shm.h: coll_shm_op_t) */
static inline __attribute__((always_inline)) compi_status_t
allreduce_shm_run(coll_shm_op_t *o, int block)
{
    const coll_call_t *call = o->call;
    compi_datatype_t *dt = call->sdt;
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
            /* after an allreduce round this is free at once (coll_shm_all_arrived below);
               after another kind's it may take one look at the done flags */
            if (!coll_shm_slot_free(shm, s, block)) {
                return COMPI_INPROGRESS;
            }
            coll_shm_put(shm, dt, src, first, n, s);
            coll_shm_arrive(shm, s);
            o->phase = 1;
            o->j = 0;
            /* fall through */
        default:
            if (!coll_shm_all_arrived(shm, s, &o->j, block)) {
                return COMPI_INPROGRESS;
            }
            coll_shm_keep(o, coll_shm_combine(shm, call->op, dt, red_at(call->rbuf, dt, first), 0,
                                              n, s));
            coll_shm_done(shm, s);
        }
    }
    return o->st;
}

COLL_SHM_ENTRY_POINTS(allreduce_shm, coll_shm_reduce_rounds)

const coll_algo_t coll_algo_allreduce_shm =
    COLL_SHM_ALGO(COLL_ALLREDUCE, allreduce_shm, allreduce_shm_sched, 0,
                  "one host: every rank's slot in a shared segment, each rank combines them all");
