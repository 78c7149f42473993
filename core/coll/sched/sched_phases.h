/*
 * sched_phases.h -- pieces of schedules that several algorithms add (the schedule
 * counterparts of core/coll/phases/): the shared engines of the data movers, one per
 * shape for the plain, v and w kinds (their accessors are in phases/blocks.h), and the
 * fold, recursive halving and recursive doubling phases of the reduce family (their
 * arithmetic of ranks and blocks: phases/reduce_phases.h).  Trees run as schedules
 * through the tree executors (core/coll/executors/tree_exec_sched.c).
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

/* gather(v): the root receives every block, COLL_MOVE_WINDOW at once (a round each) */
void coll_sched_gather_linear(const coll_call_t *call, const coll_params_t *params,
                              coll_sched_t *s);
/* scatter(v): the root sends every block, COLL_MOVE_WINDOW at once (a round each) */
void coll_sched_scatter_linear(const coll_call_t *call, const coll_params_t *params,
                               coll_sched_t *s);
/* allgather(v): p - 1 rounds around the ring, one block each way per round */
void coll_sched_allgather_ring(const coll_call_t *call, const coll_params_t *params,
                               coll_sched_t *s);
/* alltoall(v/w): every peer's receive and send, `window` peers per round (in place: the
   send blocks are packed when the schedule is built, that is when the call is made) */
void coll_sched_alltoall(const coll_call_t *call, coll_sched_t *s, int window);

/* ---- the reduce family (phases/reduce_phases.h: their conventions) ------------------ */

/* a receive of what the rank combines at once (the fold's, reduce linear's, a linear
   scan's): copied by this rank alone (coll_sched_recv_whole) below 1 MiB, so the op reads
   it from this core's caches; split with the sender, the op would read half of it from
   the other core's.  That wins while the op's reads cost more than the half copy saved,
   up to about 1 MiB (OSU reduce at 2 ranks, one host: 64 KiB 6.5 us whole against 11.8
   split, 512 KiB 44 against 53, 1 MiB 151 against 107) */
int coll_sched_red_recv(coll_sched_t *s, void *buf, size_t count, compi_datatype_t *dt, int peer);
/* a reduction that accumulates in rbuf starts from this rank's input: a round that
   copies sbuf into rbuf, unless in place */
void coll_sched_red_input(coll_sched_t *s, const coll_call_t *call);
/* The fold of non-powers of two (phases/reduce_phases.h) as a round: `in` is this rank's
   input (it may be acc): even ranks below 2*rem send it, odd ones write (even's op in)
   to acc, ranks from 2*rem on touch neither (their partial result is still `in`;
   red_fold_partial).  tmp holds count elements.  Returns the new rank, -1 for the even
   ranks that sit out */
int coll_sched_red_fold(coll_sched_t *s, compi_comm_t *comm, const void *in, void *acc, void *tmp,
                        size_t count, compi_datatype_t *dt);
/* the other direction, as a round: odd ranks below 2*rem send acc back to their even
   neighbour */
void coll_sched_red_unfold(coll_sched_t *s, compi_comm_t *comm, void *acc, size_t count,
                           compi_datatype_t *dt);
/* Reduce-scatter by recursive halving among the p2 folded ranks (commutative ops), log2
   p2 rounds: `in` holds this rank's partial result (red_fold_partial: the user's input or
   acc), split in p2 blocks (bcnt/boff, elements); at the end block `nr` of acc is fully
   reduced (other blocks of acc hold partial data or nothing).  The first step reads `in`
   and writes the combination straight to acc, so the input is never copied.  tmp holds
   the largest half.  `last`, when not NULL, takes the last step's combination (block nr)
   instead of acc: the reduce-scatter's rbuf. */
void coll_sched_red_halving(coll_sched_t *s, const void *in, void *acc, void *tmp, void *last,
                            const size_t *bcnt, const size_t *boff, int nr, int p2, int rem,
                            compi_datatype_t *dt);
/* the allgather by recursive doubling among the p2 folded ranks after it: log2 p2
   rounds */
void coll_sched_red_doubling_gather(coll_sched_t *s, void *acc, const size_t *bcnt,
                                    const size_t *boff, int nr, int p2, int rem,
                                    compi_datatype_t *dt);

#endif
