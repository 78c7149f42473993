/*
 * sched_phases.h -- pieces of schedules that several algorithms add (the schedule
 * counterparts of core/coll/phases/): the shared engines of the data movers, one per
 * shape for the plain, v and w kinds (their accessors are in phases/blocks.h).  Trees
 * run as schedules through the tree executors (core/coll/executors/tree_exec_sched.c).
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
