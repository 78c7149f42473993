/*
 * inter/inter.c -- the blocking collectives of intercommunicators, one algorithm per kind,
 * all named "inter" (compi_info --algorithms).  They are the only algorithms that serve a
 * call on an intercommunicator (coll_algo_t.inter; the bridge refuses every other one
 * there), and the default creators choose them when (call-inter? call).
 *
 * Ranks in `call->comm` name the remote group (core/comm/comm.h); the steps inside the
 * local group run on comm->local_comm with the kind's tag.  Two shapes:
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
 */
#include "core/coll/phases/blocks.h"

#include <string.h>

/* the binomial parent of local rank me > 0, and the span of me's subtree */
static int l_span(int me, int n)
{
    int span = 1;
    if (me > 0) {
        return me & -me;
    }
    while (span < n) {
        span <<= 1;
    }
    return span;
}

/* buf from local rank 0 to the whole local group */
static compi_status_t l_bcast(compi_comm_t *lc, void *buf, size_t count, compi_datatype_t *dt,
                              int tag)
{
    int n = lc->size, me = lc->rank;
    compi_status_t st = COMPI_OK;
    if (me > 0) {
        st = pml_recv(buf, count, dt, me & (me - 1), tag, lc, NULL);
    }
    for (int m = l_span(me, n) >> 1; m >= 1 && st == COMPI_OK; m >>= 1) {
        if (me + m < n) {
            st = pml_send(buf, count, dt, me + m, tag, lc, PML_SEND_STANDARD);
        }
    }
    return st;
}

/* the reduction of every local rank's sbuf, in rank order, into res at local rank 0
   (res is ignored elsewhere); temporaries from the scratch stack */
static compi_status_t l_reduce(compi_comm_t *lc, const void *sbuf, size_t count,
                               compi_datatype_t *dt, const compi_op_t *op, int tag, void *res)
{
    int n = lc->size, me = lc->rank, span = l_span(me, n);
    void *m1, *m2;
    char *acc = coll_tmp_get(dt, count, &m1);
    char *tmp = coll_tmp_get(dt, count, &m2);
    compi_status_t st = acc != NULL && tmp != NULL ? COMPI_OK : COMPI_ERR_NO_MEMORY;

    if (st == COMPI_OK) {
        st = coll_copy(sbuf, count, dt, acc, count, dt);
    }
    /* acc covers [me, me + k); the child me + k brings [me + k, me + 2k) */
    for (int k = 1; k < span && me + k < n && st == COMPI_OK; k <<= 1) {
        st = pml_recv(tmp, count, dt, me + k, tag, lc, NULL);
        if (st == COMPI_OK) {
            st = coll_op_apply(op, dt, acc, tmp, count); /* tmp = acc op tmp */
            char *t = acc;
            acc = tmp;
            tmp = t;
        }
    }
    if (st == COMPI_OK) {
        st = me > 0 ? pml_send(acc, count, dt, me & (me - 1), tag, lc, PML_SEND_STANDARD)
                    : coll_copy(acc, count, dt, res, count, dt);
    }
    coll_scratch_put(m1);
    return st;
}

/* the leader's exchange with the other leader (remote rank 0) */
static compi_status_t leader_swap(compi_comm_t *comm, const void *sbuf, size_t scount,
                                  compi_datatype_t *sdt, void *rbuf, size_t rcount,
                                  compi_datatype_t *rdt, int tag)
{
    compi_request_t *req = NULL;
    compi_status_t st = pml_isend(sbuf, scount, sdt, 0, tag, comm, PML_SEND_STANDARD, &req);
    if (st != COMPI_OK) {
        return st;
    }
    st = pml_recv(rbuf, rcount, rdt, 0, tag, comm, NULL);
    compi_status_t wst = pml_wait(req, NULL);
    pml_request_free(req);
    return st != COMPI_OK ? st : wst;
}

static compi_status_t inter_barrier(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm, *lc = comm->local_comm;
    compi_datatype_t *byte = coll_move_byte();
    int tag = coll_tag(call->kind), n = lc->size, me = lc->rank, span = l_span(me, n);
    char token = 0, got = 0;
    compi_status_t st = COMPI_OK;

    /* fan in to the leader, the leaders meet, fan out */
    for (int k = 1; k < span && me + k < n && st == COMPI_OK; k <<= 1) {
        st = pml_recv(&got, 0, byte, me + k, tag, lc, NULL);
    }
    if (st == COMPI_OK) {
        st = me > 0 ? pml_send(&token, 0, byte, me & (me - 1), tag, lc, PML_SEND_STANDARD)
                    : leader_swap(comm, &token, 0, byte, &got, 0, byte, tag);
    }
    return st == COMPI_OK ? l_bcast(lc, &token, 0, byte, tag) : st;
}

static compi_status_t inter_bcast(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm;
    int tag = coll_tag(call->kind);
    compi_status_t st = COMPI_OK;

    if (call->root == MPI_PROC_NULL) {
        return COMPI_OK;
    }
    if (call->root == MPI_ROOT) {
        return pml_send(call->rbuf, call->rcount, call->rdt, 0, tag, comm, PML_SEND_STANDARD);
    }
    if (comm->rank == 0) {
        st = pml_recv(call->rbuf, call->rcount, call->rdt, call->root, tag, comm, NULL);
    }
    return st == COMPI_OK ? l_bcast(comm->local_comm, call->rbuf, call->rcount, call->rdt, tag)
                          : st;
}

static compi_status_t inter_reduce(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm;
    int tag = coll_tag(call->kind);
    void *mem;
    compi_status_t st;

    if (call->root == MPI_PROC_NULL) {
        return COMPI_OK;
    }
    if (call->root == MPI_ROOT) {
        return pml_recv(call->rbuf, call->rcount, call->rdt, 0, tag, comm, NULL);
    }
    void *res = coll_tmp_get(call->sdt, call->scount, &mem);
    if (res == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    st = l_reduce(comm->local_comm, call->sbuf, call->scount, call->sdt, call->op, tag, res);
    if (st == COMPI_OK && comm->rank == 0) {
        st = pml_send(res, call->scount, call->sdt, call->root, tag, comm, PML_SEND_STANDARD);
    }
    coll_scratch_put(mem);
    return st;
}

static compi_status_t inter_allreduce(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm;
    int tag = coll_tag(call->kind);
    void *mem;
    void *res = coll_tmp_get(call->sdt, call->scount, &mem);
    compi_status_t st = res != NULL ? COMPI_OK : COMPI_ERR_NO_MEMORY;

    if (st == COMPI_OK) {
        st = l_reduce(comm->local_comm, call->sbuf, call->scount, call->sdt, call->op, tag, res);
    }
    if (st == COMPI_OK && comm->rank == 0) {
        /* this group's result goes to the other group, which sends us its own */
        st = leader_swap(comm, res, call->scount, call->sdt, call->rbuf, call->rcount, call->rdt,
                         tag);
    }
    if (st == COMPI_OK) {
        st = l_bcast(comm->local_comm, call->rbuf, call->rcount, call->rdt, tag);
    }
    coll_scratch_put(mem);
    return st;
}

static compi_status_t inter_allgather(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm, *lc = comm->local_comm;
    int tag = coll_tag(call->kind), n = lc->size;
    size_t m = (size_t)comm->size;
    compi_status_t st = COMPI_OK;

    if (lc->rank > 0) {
        st = pml_send(call->sbuf, call->scount, call->sdt, 0, tag, lc, PML_SEND_STANDARD);
    } else {
        /* the leader collects its group's blocks, in rank order */
        void *mem;
        char *all = coll_tmp_get(call->sdt, call->scount * (size_t)n, &mem);
        ptrdiff_t blk = (ptrdiff_t)call->scount * call->sdt->extent;
        if (all == NULL) {
            return COMPI_ERR_NO_MEMORY;
        }
        st = coll_copy(call->sbuf, call->scount, call->sdt, all, call->scount, call->sdt);
        for (int i = 1; i < n && st == COMPI_OK; i++) {
            st = pml_recv(all + i * blk, call->scount, call->sdt, i, tag, lc, NULL);
        }
        if (st == COMPI_OK) {
            st = leader_swap(comm, all, call->scount * (size_t)n, call->sdt, call->rbuf,
                             call->rcount * m, call->rdt, tag);
        }
        coll_scratch_put(mem);
    }
    return st == COMPI_OK ? l_bcast(lc, call->rbuf, call->rcount * m, call->rdt, tag) : st;
}

/* reduce-scatter(-block): the other group's reduction, scattered over this group */
static compi_status_t inter_reduce_scatter(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm, *lc = comm->local_comm;
    int tag = coll_tag(call->kind), n = lc->size;
    size_t total = call->scount;
    compi_datatype_t *dt = call->sdt;
    void *mem;
    char *mine = coll_tmp_get(dt, total, &mem);
    void *mem2;
    char *theirs = coll_tmp_get(dt, total, &mem2);
    compi_status_t st = mine != NULL && theirs != NULL ? COMPI_OK : COMPI_ERR_NO_MEMORY;

    if (st == COMPI_OK) {
        st = l_reduce(lc, call->sbuf, total, dt, call->op, tag, mine);
    }
    if (st == COMPI_OK && lc->rank == 0) {
        st = leader_swap(comm, mine, total, dt, theirs, total, dt, tag);
        size_t off = 0;
        for (int i = 0; i < n && st == COMPI_OK; i++) {
            size_t cnt = call->rcounts != NULL ? (size_t)call->rcounts[i] : call->rcount;
            char *seg = theirs + (ptrdiff_t)off * dt->extent;
            st = i == 0 ? coll_copy(seg, cnt, dt, call->rbuf, cnt, dt)
                        : pml_send(seg, cnt, dt, i, tag, lc, PML_SEND_STANDARD);
            off += cnt;
        }
    } else if (st == COMPI_OK) {
        st = pml_recv(call->rbuf, call->rcount, dt, 0, tag, lc, NULL);
    }
    coll_scratch_put(mem);
    return st;
}

/* gather(v) and scatter(v): the root and every rank of the other group, directly */
static compi_status_t inter_rooted_direct(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm;
    int scatter = call->kind == COLL_SCATTER || call->kind == COLL_SCATTERV;
    int tag = coll_tag(call->kind);
    compi_status_t st = COMPI_OK;

    if (call->root == MPI_PROC_NULL) {
        return COMPI_OK;
    }
    if (call->root != MPI_ROOT) {
        return scatter ? pml_recv(call->rbuf, call->rcount, call->rdt, call->root, tag, comm, NULL)
                       : pml_send(call->sbuf, call->scount, call->sdt, call->root, tag, comm,
                                  PML_SEND_STANDARD);
    }
    compi_request_t *reqs[COLL_MOVE_WINDOW];
    size_t k = 0;
    for (int i = 0; i < comm->size; i++) {
        coll_blk_t b;
        if (scatter) {
            coll_sblock(call, i, &b);
            coll_move_keep(&st, coll_blk_isend(&b, i, call, &reqs[k++]));
        } else {
            coll_rblock(call, i, &b);
            coll_move_keep(&st, coll_blk_irecv(&b, i, call, &reqs[k++]));
        }
        if (k == COLL_MOVE_WINDOW) {
            coll_move_keep(&st, pml_wait_all_free(k, reqs));
            k = 0;
        }
    }
    coll_move_keep(&st, pml_wait_all_free(k, reqs));
    return st;
}

/* allgatherv, alltoall(v,w): block i to and from remote rank i, directly */
static compi_status_t inter_all_direct(coll_closure_t *self, const coll_call_t *call)
{
    (void)self;
    compi_comm_t *comm = call->comm;
    int one_block = call->kind == COLL_ALLGATHERV;
    compi_status_t st = COMPI_OK;
    compi_request_t *reqs[COLL_MOVE_WINDOW];
    size_t k = 0;

    /* windows of receives and sends to the same ranks: both sides walk 0..m-1 */
    for (int i = 0; i < comm->size; i++) {
        coll_blk_t sb, rb;
        if (one_block) {
            coll_own_sblock(call, &sb);
        } else {
            coll_sblock(call, i, &sb);
        }
        coll_rblock(call, i, &rb);
        coll_move_keep(&st, coll_blk_irecv(&rb, i, call, &reqs[k++]));
        coll_move_keep(&st, coll_blk_isend(&sb, i, call, &reqs[k++]));
        if (k + 2 > COLL_MOVE_WINDOW) {
            coll_move_keep(&st, pml_wait_all_free(k, reqs));
            k = 0;
        }
    }
    coll_move_keep(&st, pml_wait_all_free(k, reqs));
    return st;
}

/* only calls on an intercommunicator (the bridge says so first, with a message) */
static int inter_usable(const coll_call_t *call, const coll_params_t *params)
{
    (void)params;
    return call->comm != NULL && comm_is_inter(call->comm);
}

#define INTER_ALGO(kind_, KIND, fn_, help_)                                                    \
    const coll_algo_t coll_algo_##kind_##_inter = {                                            \
        .name = "inter",                                                                       \
        .kind = COLL_##KIND,                                                                   \
        .fn = fn_,                                                                             \
        .inter = 1,                                                                            \
        .usable = inter_usable,                                                                \
        .params = "",                                                                          \
        .help = help_,                                                                         \
    }

INTER_ALGO(barrier, BARRIER, inter_barrier,
           "intercommunicators: each group gathers at its leader, the leaders meet, each "
           "releases its group");
INTER_ALGO(bcast, BCAST, inter_bcast,
           "intercommunicators: the root sends to the other group's leader, which broadcasts "
           "(binomial)");
INTER_ALGO(reduce, REDUCE, inter_reduce,
           "intercommunicators: the other group reduces at its leader (rank order), which "
           "sends to the root");
INTER_ALGO(allreduce, ALLREDUCE, inter_allreduce,
           "intercommunicators: each group reduces at its leader, the leaders swap, each "
           "broadcasts the other group's result");
INTER_ALGO(allgather, ALLGATHER, inter_allgather,
           "intercommunicators: each leader collects its group's blocks, the leaders swap, "
           "each broadcasts the other group's blocks");
INTER_ALGO(reduce_scatter, REDUCE_SCATTER, inter_reduce_scatter,
           "intercommunicators: each group reduces at its leader, the leaders swap, each "
           "scatters the other group's result by recvcounts");
INTER_ALGO(reduce_scatter_block, REDUCE_SCATTER_BLOCK, inter_reduce_scatter,
           "intercommunicators: each group reduces at its leader, the leaders swap, each "
           "scatters the other group's result in blocks");
INTER_ALGO(gather, GATHER, inter_rooted_direct,
           "intercommunicators: every rank of the other group sends its block to the root");
INTER_ALGO(gatherv, GATHERV, inter_rooted_direct,
           "intercommunicators: every rank of the other group sends its block to the root");
INTER_ALGO(scatter, SCATTER, inter_rooted_direct,
           "intercommunicators: the root sends each rank of the other group its block");
INTER_ALGO(scatterv, SCATTERV, inter_rooted_direct,
           "intercommunicators: the root sends each rank of the other group its block");
INTER_ALGO(allgatherv, ALLGATHERV, inter_all_direct,
           "intercommunicators: every rank sends its block to every rank of the other group");
INTER_ALGO(alltoall, ALLTOALL, inter_all_direct,
           "intercommunicators: block i to and from rank i of the other group, all posted");
INTER_ALGO(alltoallv, ALLTOALLV, inter_all_direct,
           "intercommunicators: block i to and from rank i of the other group, all posted");
INTER_ALGO(alltoallw, ALLTOALLW, inter_all_direct,
           "intercommunicators: block i to and from rank i of the other group, all posted");
