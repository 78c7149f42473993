/*
 * inter/sched.c -- the schedules of the intercommunicator algorithms (nonblocking and
 * persistent calls, core/coll/sched/).  A schedule runs on one communicator, so these
 * use no step inside a group: every message goes straight between the two groups, and a
 * rank that needs a reduction makes it itself, in rank order, from what the other group
 * sent.
 *
 *   barrier               every rank sends an empty message to every rank of the
 *                         other group and waits for one from each
 *   bcast, scatter(v)     the root sends to every rank of the other group
 *   reduce, gather(v)     every rank of the other group sends to the root, which
 *                         reduces (reduce) in rank order
 *   allreduce             every rank sends its vector to every rank of the other group
 *                         and reduces the m it receives in rank order
 *   reduce-scatter(-block)  the same with the whole vector (a rank does not know the other
 *                         group's counts), each rank reducing its own segment only
 *   allgather(v), alltoall(v,w)  block i to and from rank i of the other group
 *
 * Cost (n local, m remote ranks, w bytes): one round of m messages each way, latencies
 * overlapped: alpha + m w beta per rank (allreduce, reduce-scatter: + m w gamma; the
 * reductions at the receivers).  More bytes than the leaders' way of the blocking
 * algorithms for large groups, but nothing to wait for inside a group.
 */
#include "core/coll/algorithms/inter/inter.h"

#include "core/coll/sched/sched.h"

void coll_inter_sched_barrier(const coll_call_t *call, const coll_params_t *params,
                              struct coll_sched *s)
{
    (void)params;
    compi_datatype_t *byte = coll_move_byte();
    char *token = coll_sched_alloc(s, 1);
    for (int j = 0; token != NULL && j < call->comm->size; j++) {
        coll_sched_recv(s, token, 0, byte, j);
        coll_sched_send(s, token, 0, byte, j);
    }
}

void coll_inter_sched_bcast(const coll_call_t *call, const coll_params_t *params,
                            struct coll_sched *s)
{
    (void)params;
    if (call->root == MPI_ROOT) {
        for (int j = 0; j < call->comm->size; j++) {
            coll_sched_send(s, call->rbuf, call->rcount, call->rdt, j);
        }
    } else if (call->root != MPI_PROC_NULL) {
        coll_sched_recv(s, call->rbuf, call->rcount, call->rdt, call->root);
    }
}

/* receive the m vectors of count elements of dt from the other group, then reduce
   elements [off, off + len) of them in rank order into out */
static void gather_reduce(const coll_call_t *call, struct coll_sched *s, size_t count,
                          compi_datatype_t *dt, size_t off, size_t len, void *out)
{
    int m = call->comm->size;
    ptrdiff_t blk = (ptrdiff_t)count * dt->extent, at = (ptrdiff_t)off * dt->extent;
    char *all = coll_sched_scratch(s, dt, count * (size_t)m);
    if (all == NULL) {
        return;
    }
    for (int j = 0; j < m; j++) {
        coll_sched_recv(s, all + j * blk, count, dt, j);
    }
    coll_sched_round(s);
    /* x0 op (x1 op (... op x(m-1))): the last one first, each earlier one on its left */
    coll_sched_copy(s, all + (m - 1) * blk + at, len, dt, out, len, dt);
    for (int j = m - 2; j >= 0; j--) {
        coll_sched_reduce(s, all + j * blk + at, out, len, dt);
    }
}

void coll_inter_sched_reduce(const coll_call_t *call, const coll_params_t *params,
                             struct coll_sched *s)
{
    (void)params;
    if (call->root == MPI_ROOT) {
        gather_reduce(call, s, call->rcount, call->rdt, 0, call->rcount, call->rbuf);
    } else if (call->root != MPI_PROC_NULL) {
        coll_sched_send(s, call->sbuf, call->scount, call->sdt, call->root);
    }
}

void coll_inter_sched_allreduce(const coll_call_t *call, const coll_params_t *params,
                                struct coll_sched *s)
{
    (void)params;
    for (int j = 0; j < call->comm->size; j++) {
        coll_sched_send(s, call->sbuf, call->scount, call->sdt, j);
    }
    gather_reduce(call, s, call->scount, call->sdt, 0, call->rcount, call->rbuf);
}

void coll_inter_sched_reduce_scatter(const coll_call_t *call, const coll_params_t *params,
                                     struct coll_sched *s)
{
    (void)params;
    size_t off = 0;
    for (int i = 0; i < call->comm->rank; i++) {
        off += coll_vec_given(call->rcounts) ? (size_t)coll_vec_at(call->rcounts, i) : call->rcount;
    }
    for (int j = 0; j < call->comm->size; j++) {
        coll_sched_send(s, call->sbuf, call->scount, call->sdt, j);
    }
    gather_reduce(call, s, call->scount, call->sdt, off, call->rcount, call->rbuf);
}

void coll_inter_sched_rooted(const coll_call_t *call, const coll_params_t *params,
                             struct coll_sched *s)
{
    (void)params;
    int scatter = call->kind == COLL_SCATTER || call->kind == COLL_SCATTERV;
    coll_blk_t b;
    if (call->root == MPI_PROC_NULL) {
        return;
    }
    if (call->root != MPI_ROOT) {
        if (scatter) {
            coll_sched_recv(s, call->rbuf, call->rcount, call->rdt, call->root);
        } else {
            coll_sched_send(s, call->sbuf, call->scount, call->sdt, call->root);
        }
        return;
    }
    for (int j = 0; j < call->comm->size; j++) {
        if (scatter) {
            coll_sblock(call, j, &b);
            coll_sched_send(s, b.buf, b.count, b.dt, j);
        } else {
            coll_rblock(call, j, &b);
            coll_sched_recv(s, b.buf, b.count, b.dt, j);
        }
    }
}

void coll_inter_sched_all(const coll_call_t *call, const coll_params_t *params,
                          struct coll_sched *s)
{
    (void)params;
    int one_block = call->kind == COLL_ALLGATHER || call->kind == COLL_ALLGATHERV;
    coll_blk_t sb, rb;
    for (int j = 0; j < call->comm->size; j++) {
        if (one_block) {
            coll_own_sblock(call, &sb);
        } else {
            coll_sblock(call, j, &sb);
        }
        coll_rblock(call, j, &rb);
        coll_sched_recv(s, rb.buf, rb.count, rb.dt, j);
        coll_sched_send(s, sb.buf, sb.count, sb.dt, j);
    }
}
