/*
 * neighbor_alltoall/linear.c -- every neighbourhood collective (allgather, allgatherv,
 * alltoall, alltoallv, alltoallw; the entries at the end): block i of the receive side
 * from in-neighbour i, block j of the send side to out-neighbour j, in the order of the
 * communicator's topology (core/comm/topo.h); MPI_PROC_NULL neighbours are skipped and
 * their receive blocks left as they were.  The allgather kinds send one block to every
 * out-neighbour; the block accessors of phases/blocks.h tell the kinds apart.
 *
 *        in[0]   in[1] ... in[k-1]          receives posted first, then the sends
 *           \      |      /
 *            +-----me-----+
 *           /      |      \
 *       out[0]  out[1] ... out[k-1]
 *
 * Graphs and distributed graphs: one tag; MPI's non-overtaking order pairs the k-th edge
 * from p to q on p with the k-th on q, which is what MPI asks for repeated edges.
 *
 * Cartesian grids: the neighbours of dimension d are blocks 2d (the source of a shift by
 * +1) and 2d+1 (its destination).  What a process sends as block 2d+1 (upwards) must land
 * in block 2d of the receiver, and block 2d in block 2d+1 (MPI-4.1 section 8.6, the
 * errata of MPI-3.1).  In a periodic dimension of 1 or 2 processes both neighbours are one
 * process, so the two directions travel on two tags:
 *
 *      source          me            dest
 *        [2d+1] --up--> [2d]  [2d+1] --up--> [2d]
 *        [2d] <-down-- [2d]   ...
 *
 *   up   = coll_tag_alt(kind): sent from block 2d+1, received into block 2d
 *   down = coll_tag(kind):     sent from block 2d,   received into block 2d+1
 *
 * Across dimensions the pairs stay apart as well: a process posts its sends and receives
 * in dimension order, and q is p's destination in dimension d exactly when p is q's
 * source in d, so the k-th upward message from p to q meets q's k-th upward receive from
 * p, of the same dimension.
 *
 * Every receive is posted, then every send, all in flight together, in one round of the
 * schedule: a process's neighbours may be anyone's, so no order of partial steps is safe
 * for every graph (with rendezvous sends, a process waiting for its first step could
 * wait on one that waits for a later step).  Cost (in- and out-degree k, N bytes per
 * block): T = k alpha + k N beta at most, the transfers overlapped.
 *
 * The transfers use the kind's tags above, not the schedule's own: MPI orders the
 * neighbourhood collectives of a communicator alike on every rank, so outstanding ones
 * (MPI_Ineighbor_*, MPI_Neighbor_*_init) and a blocking one after them pair in the order
 * they were posted.
 */
#include "core/coll/phases/blocks.h"
#include "core/coll/sched/sched.h"
#include "core/comm/topo.h"

#include <stdlib.h>

static int neighbor_usable(const coll_call_t *call, const coll_params_t *params)
{
    (void)params;
    return call->comm->topo != NULL;
}

/* the tag of block i on the receive (recv = 1) or send side */
static inline int nb__tag(const coll_call_t *call, int cart, int i, int recv)
{
    if (!cart) {
        return coll_tag(call->kind);
    }
    /* receive 2d / send 2d+1: upwards */
    return ((i & 1) == recv) ? coll_tag(call->kind) : coll_tag_alt(call->kind);
}

/* every receive, then every send, in one round of the schedule */
static void neighbor_sched(const coll_call_t *call, const coll_params_t *params, coll_sched_t *s)
{
    const comm_topo_t *t = call->comm->topo;
    (void)params;
    if (t == NULL) {
        coll_sched_fail(s, COMPI_ERR_INVALID_PARAM);
        return;
    }
    int cart = t->kind == TOPO_CART;
    for (int i = 0; i < t->indegree; i++) {
        coll_blk_t b;
        if (t->in[i] != MPI_PROC_NULL) {
            coll_rblock(call, i, &b);
            coll_sched_recv_tag(s, b.buf, b.count, b.dt, t->in[i], nb__tag(call, cart, i, 1));
        }
    }
    for (int i = 0; i < t->outdegree; i++) {
        coll_blk_t b;
        if (t->out[i] != MPI_PROC_NULL) {
            coll_sblock(call, i, &b);
            coll_sched_send_tag(s, b.buf, b.count, b.dt, t->out[i], nb__tag(call, cart, i, 0));
        }
    }
}

const coll_algo_t coll_algo_neighbor_allgather_linear = {
    .name = "linear",
    .kind = COLL_NEIGHBOR_ALLGATHER,
    .usable = neighbor_usable,
    .sched = neighbor_sched,
    .help = "all neighbours at once (the only one: the topology fixes the pattern)",
};

const coll_algo_t coll_algo_neighbor_allgatherv_linear = {
    .name = "linear",
    .kind = COLL_NEIGHBOR_ALLGATHERV,
    .usable = neighbor_usable,
    .sched = neighbor_sched,
    .help = "all neighbours at once (the only one: the topology fixes the pattern)",
};

const coll_algo_t coll_algo_neighbor_alltoall_linear = {
    .name = "linear",
    .kind = COLL_NEIGHBOR_ALLTOALL,
    .usable = neighbor_usable,
    .sched = neighbor_sched,
    .help = "all neighbours at once (the only one: the topology fixes the pattern)",
};

const coll_algo_t coll_algo_neighbor_alltoallv_linear = {
    .name = "linear",
    .kind = COLL_NEIGHBOR_ALLTOALLV,
    .usable = neighbor_usable,
    .sched = neighbor_sched,
    .help = "all neighbours at once (the only one: the topology fixes the pattern)",
};

const coll_algo_t coll_algo_neighbor_alltoallw_linear = {
    .name = "linear",
    .kind = COLL_NEIGHBOR_ALLTOALLW,
    .usable = neighbor_usable,
    .sched = neighbor_sched,
    .help = "all neighbours at once (the only one: the topology fixes the pattern)",
};
