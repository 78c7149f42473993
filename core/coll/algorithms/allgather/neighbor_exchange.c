/*
 * allgather/neighbor_exchange.c -- neighbour exchange (Chen et al.), for an even number
 * of ranks: ranks pair up (2j, 2j + 1) and swap their blocks; then, alternating between
 * the right and the left neighbour, each rank passes on the pair of blocks it received in
 * the previous step.  Pairs start at an even block, so each one is a single contiguous
 * message in the receive buffer.
 *
 *   6 ranks, pairs held by ranks 0 .. 5 after each step (block numbers):
 *
 *     step 0:  0<->1  2<->3  4<->5             0:{01} 1:{01} 2:{23} 3:{23} 4:{45} 5:{45}
 *     step 1:  1<->2  3<->4  5<->0             0 gets {45}, 1 gets {23}, 2 gets {01} ...
 *     step 2:  0<->1  2<->3  4<->5             0 gets {23} from 1 (what 1 got in step 1)
 *
 * Cost (p ranks, n bytes per block): T = (p / 2) alpha + (p - 1) n beta: the ring's
 * bandwidth with half its latency.  usable() wants p even; called anyway, it runs the
 * ring.  A round per step.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched_phases.h"

static int ne_usable(const coll_call_t *call, const coll_params_t *params)
{
    (void)params;
    return call->comm->size % 2 == 0;
}

/* The walk of one rank: nb[s % 2] is the neighbour of step s, from[s % 2] the first block
   of the pair that comes from it, which moves two blocks further each time that side is
   used; held is the pair this rank passes on next. */
typedef struct ne_walk {
    int nb[2], from[2], delta[2], held;
} ne_walk_t;

static inline void ne_start(ne_walk_t *w, int rank, int p)
{
    int even = rank % 2 == 0;
    w->nb[0] = even ? (rank + 1) % p : (rank - 1 + p) % p;
    w->nb[1] = even ? (rank - 1 + p) % p : (rank + 1) % p;
    w->from[0] = w->from[1] = even ? rank : w->nb[0];
    w->delta[0] = even ? 2 : -2;
    w->delta[1] = even ? -2 : 2;
    w->held = rank & ~1;
}

/* step s (0 .. p / 2 - 1): returns the peer, and in *sb and *rb the blocks of the
   receive buffer sent and received: single blocks in step 0 (a swap within the pair),
   pairs after */
static inline int ne_step(ne_walk_t *w, const coll_call_t *call, int s, coll_blk_t *sb,
                          coll_blk_t *rb)
{
    int p = call->comm->size, side = s % 2;
    if (s == 0) {
        coll_rblock(call, w->nb[0], rb);
        coll_rblock(call, call->comm->rank, sb);
        return w->nb[0];
    }
    w->from[side] = (w->from[side] + w->delta[side] + p) % p;
    coll_rblock(call, w->from[side], rb);
    coll_rblock(call, w->held, sb);
    rb->count *= 2;
    sb->count *= 2;
    w->held = w->from[side];
    return w->nb[side];
}

static void allgather_neighbor_exchange_sched(const coll_call_t *call, const coll_params_t *params,
                                              coll_sched_t *s)
{
    int p = call->comm->size, rank = call->comm->rank;
    coll_blk_t own, sb, rb;

    if (p % 2 != 0) {
        coll_sched_allgather_ring(call, params, s);
        return;
    }
    coll_own_sblock(call, &own);
    ne_walk_t w;
    ne_start(&w, rank, p);
    for (int k = 0; k < p / 2; k++) {
        int peer = ne_step(&w, call, k, &sb, &rb);
        coll_sched_recv(s, rb.buf, rb.count, rb.dt, peer);
        if (k == 0) {
            /* the own block goes from the send buffer while it is copied into place
               (phases/blocks.h, coll_own_to_rblock); the pairs after include it */
            coll_sched_send(s, own.buf, own.count, own.dt, peer);
            if (!call->in_place) {
                coll_sched_at_once(s);
                coll_sched_copy(s, own.buf, own.count, own.dt, sb.buf, sb.count, sb.dt);
            }
        } else {
            coll_sched_send(s, sb.buf, sb.count, sb.dt, peer);
        }
        coll_sched_round(s);
    }
}

const coll_algo_t coll_algo_allgather_neighbor_exchange = {
    .name = "neighbor-exchange",
    .kind = COLL_ALLGATHER,
    .usable = ne_usable,
    .sched = allgather_neighbor_exchange_sched,
    .help = "p / 2 steps passing pairs of blocks to alternate neighbours; p even only",
};
