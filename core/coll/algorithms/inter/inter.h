/*
 * inter/inter.h -- what the intercommunicator algorithms of this folder share: the steps
 * inside one group (on the intercommunicator's local_comm, core/comm/comm.h), the
 * leaders' exchange, and the shape of their coll_algo_t entries.
 *
 * One algorithm per kind that intercommunicators have, all named "inter" (compi_info
 * --algorithms).  They are the only algorithms that serve a call on an intercommunicator
 * (coll_algo_t.inter; the bridge refuses every other one there, and them on an
 * intracommunicator), and the default creators choose them when (call-inter? call).
 *
 * Ranks in `call->comm` name the remote group (core/comm/comm.h); the steps inside the
 * local group run on comm->local_comm with the kind's tag.  The blocking algorithms
 * take two shapes (their schedules, for nonblocking and persistent calls, one: sched.c):
 *
 *   through the leaders (barrier, bcast, reduce, allreduce, allgather, reduce-scatter,
 *   reduce-scatter-block): each group combines or collects at its rank 0 (a binomial
 *   tree over the local group, ranges of ranks so a non-commutative op keeps rank
 *   order), the two leaders exchange, each leader hands the other group's result to its
 *   group (binomial broadcast, or a linear scatter):
 *
 *        group A               group B
 *     a1 a2 a3 ─► a0  ◄──────►  b0 ◄─ b1 b2      then  a0 ─► a1 a2 a3,  b0 ─► b1 b2
 *
 *   direct (gather(v), scatter(v), allgatherv, alltoall(v,w)): every block travels once,
 *   straight between the two ranks it belongs to, all posted at once.
 *
 * Rooted kinds: root is MPI_ROOT at the root, MPI_PROC_NULL at the rest of its group
 * (nothing to do), and the root's rank in the remote group on the other group.  A
 * bcast or reduce: the root talks to the other group's leader only.
 *
 * Cost (n local, m remote ranks, w bytes): bcast T = alpha + w beta + log2(m) (alpha +
 * w beta) on the receiving side; allreduce 2 log2(n) + 1 steps of w; the direct ones
 * m steps whose latencies overlap.
 *
 * Ownership: nothing here allocates but from the scratch stack (coll_tmp_get), given
 * back before each function returns; buffers belong to the caller.
 */
#ifndef COMPI_COLL_INTER_H
#define COMPI_COLL_INTER_H

#include "core/coll/phases/blocks.h"

/* the span of local rank me's subtree in the binomial tree rooted at 0 over n ranks (for
   0: a power of two covering all); me's parent is me with its lowest set bit cleared */
int coll_inter_span(int me, int n);
/* buf from local rank 0 to every rank of the local group lc (binomial) */
compi_status_t coll_inter_lbcast(compi_comm_t *lc, void *buf, size_t count,
                                 compi_datatype_t *dt, int tag);
/* the reduction of every local rank's sbuf, in rank order, into res at local rank 0 (res
   is not touched elsewhere) */
compi_status_t coll_inter_lreduce(compi_comm_t *lc, const void *sbuf, size_t count,
                                  compi_datatype_t *dt, const compi_op_t *op, int tag,
                                  void *res);
/* a leader's exchange with the other leader (remote rank 0 of comm) */
compi_status_t coll_inter_leader_swap(compi_comm_t *comm, const void *sbuf, size_t scount,
                                      compi_datatype_t *sdt, void *rbuf, size_t rcount,
                                      compi_datatype_t *rdt, int tag);
struct coll_sched;
/* their schedules (sched.c): everything straight between the two groups */
void coll_inter_sched_barrier(const coll_call_t *call, const coll_params_t *params,
                              struct coll_sched *s);
void coll_inter_sched_bcast(const coll_call_t *call, const coll_params_t *params,
                            struct coll_sched *s);
void coll_inter_sched_reduce(const coll_call_t *call, const coll_params_t *params,
                             struct coll_sched *s);
void coll_inter_sched_allreduce(const coll_call_t *call, const coll_params_t *params,
                                struct coll_sched *s);
void coll_inter_sched_reduce_scatter(const coll_call_t *call, const coll_params_t *params,
                                     struct coll_sched *s);
/* gather(v), scatter(v) */
void coll_inter_sched_rooted(const coll_call_t *call, const coll_params_t *params,
                             struct coll_sched *s);
/* allgather(v), alltoall(v,w) */
void coll_inter_sched_all(const coll_call_t *call, const coll_params_t *params,
                          struct coll_sched *s);
/* .usable of them all: only calls on an intercommunicator */
int coll_inter_usable(const coll_call_t *call, const coll_params_t *params);

/* the coll_algo_t of kind_ served by fn_ (blocking) and sched_ (nonblocking, persistent) */
#define INTER_ALGO(kind_, KIND, fn_, sched_, help_)                                           \
    const coll_algo_t coll_algo_##kind_##_inter = {                                            \
        .name = "inter",                                                                       \
        .kind = COLL_##KIND,                                                                   \
        .fn = fn_,                                                                             \
        .sched = sched_,                                                                       \
        .inter = 1,                                                                            \
        .usable = coll_inter_usable,                                                           \
        .help = help_,                                                                         \
    }

#endif
