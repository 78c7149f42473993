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
 * ring.
 */
#include "core/coll/phases/blocks.h"

static int ne_usable(const coll_call_t *call, const coll_params_t *params)
{
    (void)params;
    return call->comm->size % 2 == 0;
}

static compi_status_t allgather_neighbor_exchange(coll_closure_t *self, const coll_call_t *call)
{
    compi_comm_t *comm = call->comm;
    int p = comm->size, rank = comm->rank;
    coll_blk_t sb, rb;

    if (p % 2 != 0) {
        return coll_allgather_ring(self, call);
    }
    compi_status_t st = coll_own_to_rblock(call);
    int even = rank % 2 == 0;
    /* nb[s % 2]: the neighbour of step s; from[s % 2]: the first block of the pair that
       comes from it, which moves two blocks further each time that side is used */
    int nb[2], from[2], delta[2];
    nb[0] = even ? (rank + 1) % p : (rank - 1 + p) % p;
    nb[1] = even ? (rank - 1 + p) % p : (rank + 1) % p;
    from[0] = from[1] = even ? rank : nb[0];
    delta[0] = even ? 2 : -2;
    delta[1] = even ? -2 : 2;
    int held = rank & ~1; /* the pair this rank passes on next */

    for (int s = 0; s < p / 2 && st == COMPI_OK; s++) {
        int side = s % 2;
        if (s == 0) {
            /* swap single blocks within the pair */
            coll_rblock(call, nb[0], &rb);
            coll_rblock(call, rank, &sb);
        } else {
            from[side] = (from[side] + delta[side] + p) % p;
            coll_rblock(call, from[side], &rb);
            coll_rblock(call, held, &sb);
            rb.count *= 2;
            sb.count *= 2;
        }
        st = coll_blk_sendrecv(&sb, nb[side], &rb, nb[side], call);
        if (s > 0) {
            held = from[side];
        }
    }
    return st;
}

const coll_algo_t coll_algo_allgather_neighbor_exchange = {
    .name = "neighbor-exchange",
    .kind = COLL_ALLGATHER,
    .fn = allgather_neighbor_exchange,
    .usable = ne_usable,
    .help = "p / 2 steps passing pairs of blocks to alternate neighbours; p even only",
};
