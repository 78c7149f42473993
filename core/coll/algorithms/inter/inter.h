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
 * local group run on comm->local_comm, on the schedule's tag (coll_sched_send_on).  Each
 * is a schedule, for every mode (blocking calls run it to completion), of one of two
 * shapes:
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
 *   straight between the two ranks it belongs to, in windows of COLL_MOVE_WINDOW.
 *
 * Rooted kinds: root is MPI_ROOT at the root, MPI_PROC_NULL at the rest of its group
 * (nothing to do), and the root's rank in the remote group on the other group.  A
 * bcast or reduce: the root talks to the other group's leader only.
 *
 * Cost (n local, m remote ranks, w bytes): bcast T = alpha + w beta + log2(m) (alpha +
 * w beta) on the receiving side; allreduce 2 log2(n) + 1 steps of w; the direct ones
 * m steps whose latencies overlap.
 *
 * Ownership: temporaries are the schedule's (coll_sched_scratch); buffers belong to the
 * caller.
 */
#ifndef COMPI_COLL_INTER_H
#define COMPI_COLL_INTER_H

#include "core/coll/phases/blocks.h"

/* the span of local rank me's subtree in the binomial tree rooted at 0 over n ranks (for
   0: a power of two covering all); me's parent is me with its lowest set bit cleared */
int coll_inter_span(int me, int n);
struct coll_sched;
/* rounds of schedule s: buf from local rank 0 to every rank of the local group lc
   (binomial) */
void coll_inter_lbcast(struct coll_sched *s, compi_comm_t *lc, void *buf, size_t count,
                       compi_datatype_t *dt);
/* rounds of s: the reduction (the schedule's op) of every local rank's sbuf, in rank
   order, into res at local rank 0 (res is not touched elsewhere and may be NULL there) */
void coll_inter_lreduce(struct coll_sched *s, compi_comm_t *lc, const void *sbuf, size_t count,
                        compi_datatype_t *dt, void *res);
/* a round of s: a leader's exchange with the other leader (remote rank 0) */
void coll_inter_leader_swap(struct coll_sched *s, const void *sbuf, size_t scount,
                            compi_datatype_t *sdt, void *rbuf, size_t rcount,
                            compi_datatype_t *rdt);
/* .usable of them all: only calls on an intercommunicator */
int coll_inter_usable(const coll_call_t *call, const coll_params_t *params);

/* the coll_algo_t of kind_, whose schedule is sched_ */
#define INTER_ALGO(kind_, KIND, sched_, help_)                                                \
    const coll_algo_t coll_algo_##kind_##_inter = {                                            \
        .name = "inter",                                                                       \
        .kind = COLL_##KIND,                                                                   \
        .sched = sched_,                                                                       \
        .inter = 1,                                                                            \
        .usable = coll_inter_usable,                                                           \
        .help = help_,                                                                         \
    }

#endif
