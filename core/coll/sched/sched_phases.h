/*
 * sched_phases.h -- pieces of schedules that several algorithms add (the schedule
 * counterparts of core/coll/phases/): trees for bcast and reduce, and the shared
 * engines of the data movers, one per shape for the plain, v and w kinds (their
 * accessors are in phases/blocks.h).
 *
 * Each adds its steps to the schedule and closes its rounds (coll_sched_round), so
 * pieces can follow each other.
 *
 * Ownership: as sched.h: scratch and copies belong to the schedule; the call's buffers
 * to the user.
 */
#ifndef COMPI_COLL_SCHED_PHASES_H
#define COMPI_COLL_SCHED_PHASES_H

#include "core/coll/sched/sched.h"

/*
 * Binomial bcast of `count` elements of dt at buf from `root`, over ranks relative to
 * the root: receive from the parent, then send to every child at once (largest subtree
 * first).  ceil(log2 p) rounds on the longest path.
 */
void coll_sched_bcast_binomial(coll_sched_t *s, void *buf, size_t count, compi_datatype_t *dt,
                               int root, compi_comm_t *comm);

/*
 * Binomial reduce of `count` elements of `in` to `root`; at the root the result goes to
 * `out` (which may be `in`: in place).  Each rank receives its children's partials at
 * once, then combines in ... op mine op child1 op child2 order (children in increasing
 * relative rank, each a contiguous range above it), so with root 0 the result is in rank
 * order: right for non-commutative ops.  With another root the order is rotated: use
 * root 0 and coll_sched_forward() for those.
 */
void coll_sched_reduce_binomial(coll_sched_t *s, const void *in, void *out, size_t count,
                                compi_datatype_t *dt, int root, compi_comm_t *comm);

/* one more round: rank `from` sends buf to `to`, which receives into rbuf */
void coll_sched_forward(coll_sched_t *s, const void *buf, void *rbuf, size_t count,
                        compi_datatype_t *dt, int from, int to, compi_comm_t *comm);

/* gather(v): the root receives every block at once; one round */
void coll_sched_gather_linear(const coll_call_t *call, const coll_params_t *params,
                              coll_sched_t *s);
/* scatter(v): the root sends every block at once; one round */
void coll_sched_scatter_linear(const coll_call_t *call, const coll_params_t *params,
                               coll_sched_t *s);
/* allgather(v): p - 1 rounds around the ring, one block each way per round */
void coll_sched_allgather_ring(const coll_call_t *call, const coll_params_t *params,
                               coll_sched_t *s);
/* alltoall(v/w): every send and receive posted at once (in place: the send blocks are
   packed when the schedule is built, that is when the call is made) */
void coll_sched_alltoall_linear(const coll_call_t *call, const coll_params_t *params,
                                coll_sched_t *s);

#endif
