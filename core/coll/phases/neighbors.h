/*
 * phases/neighbors.h -- the exchange every neighbourhood collective runs: block i of the
 * receive side from in-neighbour i, block j of the send side to out-neighbour j, in the
 * order of the communicator's topology (core/comm/topo.h); MPI_PROC_NULL neighbours are
 * skipped, their receive blocks left as they were.
 *
 * Ownership: the call's buffers are the caller's; the requests live for the call only.
 */
#ifndef COMPI_COLL_NEIGHBORS_H
#define COMPI_COLL_NEIGHBORS_H

#include "core/coll/coll.h"

/* 1 when the call's communicator has a topology (what the algorithms need) */
int coll_neighbor_usable(const coll_call_t *call, const coll_params_t *params);

/* posts every receive, then every send, and waits for all of them */
compi_status_t coll_neighbor_exchange(const coll_call_t *call);

#endif
