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

static compi_status_t barrier_shm(coll_closure_t *self, const coll_call_t *call)
{
    const coll_params_t *prm = self->state;
    compi_comm_t *comm = call->comm;
    int p = comm->size, r = comm->rank;
    long k = prm->fanout > 0 ? prm->fanout : BARRIER_SHM_FANOUT;
    compi_status_t st = COMPI_OK;

    if (coll_shm_fallback(self, call, &st)) {
        return st;
    }
    if (p == 1) {
        return COMPI_OK;
    }
    coll_shm_t *shm = coll_shm_get(comm, &st);
    if (shm == NULL) {
        return st;
    }
    uint64_t s = ++shm->seq;
    if (p == 2) {
        /* each rank reads the other's arrival: one hand-off each way, both at once, where
           the fan-in and the release take two in a row (osu_barrier at 2 ranks, 2 cores:
           0.26-0.34 us against 0.49-0.51) */
        coll_shm_arrive(shm, s);
        coll_shm_wait_all(shm, s);
        coll_shm_done(shm, s);
        return COMPI_OK;
    }
    for (long c = (long)r * k + 1; c <= (long)r * k + k && c < p; c++) {
        coll_shm_wait(shm, &shm->ctl[c].arrive, s);
    }
    if (r == 0) {
        coll_shm_set(shm, &shm->ctl[0].release, s);
    } else {
        coll_shm_set(shm, &shm->ctl[r].arrive, s);
        coll_shm_wait(shm, &shm->ctl[0].release, s);
    }
    coll_shm_reached(shm, s); /* rank 0 released: all arrived */
    coll_shm_done(shm, s);
    return COMPI_OK;
}

const coll_algo_t coll_algo_barrier_shm =
    COLL_SHM_ALGO(COLL_BARRIER, barrier_shm, COLL_PARAM_FANOUT,
                  "one host: arrival flags up a k-ary tree (fanout, default 8), one release flag");
