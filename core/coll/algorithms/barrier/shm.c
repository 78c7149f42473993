/*
 * barrier/shm.c -- a barrier through flags in the communicator's shared segment
 * (core/coll/shm.h): a fan-in of arrival flags up a k-ary tree rooted at rank 0, then
 * one release flag that every rank watches.
 *
 *   k = 2, p = 7:          0            fan-in: a rank waits for its children's arrive,
 *                        /   \          then sets its own; rank 0, its children's all
 *                       1     2         seen, sets its release, which the others read
 *                      / \   / \
 *                     3   4 5   6
 *
 * Cost: ceil(log_k p) + 1 cache-line hand-offs (each a few hundred ns: one store, one
 * miss on the reader), no message, no copy.  Two ranks skip the tree: each sets its
 * arrival and waits for the other's, one hand-off.  A rank polls k lines; fanout (default 8, a
 * flat fan-in up to 9 ranks) trades depth against that.  One host only (usable).
 */
#include "core/coll/shm.h"

#define BARRIER_SHM_FANOUT 8

static size_t barrier_shm_rounds(const coll_call_t *call, size_t slot)
{
    (void)slot;
    return call->comm->size > 1;
}

/* the phases (core/coll/shm.h: coll_shm_op_t) */
static inline __attribute__((always_inline)) compi_status_t
barrier_shm_run(coll_shm_op_t *o, int block)
{
    coll_shm_t *shm = o->shm;
    uint64_t s = o->seq;

    if (o->last == 0) {
        return COMPI_OK;
    }
    int p = shm->p, r = shm->rank;
    if (p == 2) {
        /* each rank reads the other's arrival: one hand-off each way, both at once, where
           the fan-in and the release take two in a row (osu_barrier at 2 ranks, 2 cores:
           0.26-0.34 us against 0.49-0.51) */
        if (o->phase == 0) {
            coll_shm_arrive(shm, s);
            o->phase = 1;
        }
        if (!coll_shm_all_arrived(shm, s, &o->j, block)) {
            return COMPI_INPROGRESS;
        }
        coll_shm_done(shm, s);
        return COMPI_OK;
    }
    long k = o->fanout > 0 ? o->fanout : BARRIER_SHM_FANOUT;
    switch (o->phase) {
    case 0:
        /* the children's arrivals; o->j: the next child */
        for (long c = (long)r * k + 1 + o->j; c <= (long)r * k + k && c < p; c++, o->j++) {
            if (!coll_shm_ready(shm, &shm->ctl[c].arrive, s, block)) {
                return COMPI_INPROGRESS;
            }
        }
        if (r == 0) {
            coll_shm_set(shm, &shm->ctl[0].release, s);
            break;
        }
        coll_shm_set(shm, &shm->ctl[r].arrive, s);
        o->phase = 1;
        /* fall through */
    default:
        if (!coll_shm_ready(shm, &shm->ctl[0].release, s, block)) {
            return COMPI_INPROGRESS;
        }
        break;
    }
    coll_shm_reached(shm, s); /* rank 0 released: all arrived */
    coll_shm_done(shm, s);
    return COMPI_OK;
}

COLL_SHM_ENTRY_POINTS(barrier_shm, barrier_shm_rounds)

const coll_algo_t coll_algo_barrier_shm =
    COLL_SHM_ALGO(COLL_BARRIER, barrier_shm, barrier_shm_sched, COLL_PARAM_FANOUT,
                  "one host: arrival flags up a k-ary tree (fanout, default 8), one release flag");
