/*
 * neighbor_alltoall/linear.c -- neighbourhood alltoall: block j to out-neighbour j, block
 * i from in-neighbour i: every block to or from its neighbour at once, through the
 * exchange of phases/neighbors.c (which also explains the Cartesian tags).
 *
 *        in[0]   in[1] ... in[k-1]          receives posted first, then the sends;
 *           \      |      /                 MPI_PROC_NULL neighbours are skipped
 *            +-----me-----+
 *           /      |      \
 *       out[0]  out[1] ... out[k-1]
 *
 * Cost (k neighbours each way, N bytes per block): T = k alpha + k N beta at most,
 * latencies overlapped.
 */
#include "core/coll/phases/neighbors.h"

static compi_status_t neighbor_alltoall_linear(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    return coll_neighbor_exchange(call);
}

const coll_algo_t coll_algo_neighbor_alltoall_linear = {
    .name = "linear",
    .kind = COLL_NEIGHBOR_ALLTOALL,
    .fn = neighbor_alltoall_linear,
    .usable = coll_neighbor_usable,
    .params = "",
    .help = "all neighbours at once (the only one: the topology fixes the pattern)",
};
