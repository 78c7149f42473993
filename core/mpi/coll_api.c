/*
 * coll_api.c -- barrier, bcast and the reductions (reduce, allreduce, reduce-scatter,
 * reduce-scatter-block, scan, exscan): one x_impl each (coll_impl.h) behind the entry
 * points generated into core/mpi/gen/coll.c, included at the end.  The data movers are
 * in coll_move_api.c.
 *
 *   xxx_impl(args) -> checks (mpi_arg_*) -> coll_call_t on the stack -> trampoline
 *
 * Every collective, including size-1 communicators and zero counts, goes through the
 * trampoline: the closures decide what "nothing to do" means, and a wrapper creator sees
 * every call the program makes.
 *
 * The call's `bytes` is the key's size and must be a value every rank agrees on (see
 * coll.h).  For the reductions sdt == rdt == the datatype and op is set.  For
 * reduce-scatter(-block), scount is the number of elements of the whole input vector and
 * rcount this rank's block; rcounts holds the blocks of reduce-scatter.  The receive
 * buffer of a reduce on a non-root is not significant and is passed as NULL.
 *
 * MPI_IN_PLACE (MPI-3.1): the root's send buffer of reduce, and the send buffer on every
 * rank of allreduce, reduce-scatter(-block), scan and exscan.  Anywhere else it is
 * MPI_ERR_ARG.
 */
#include "core/mpi/coll_impl.h"

/* ---- synchronisation and broadcast ----------------------------------------------- */

static int barrier_impl(compi_comm_t *c, MPI_Request *req, coll_mode_t mode, const char *fn)
{
    mpi_coll_request(req, mode);
    coll_call_t call = {.mode = mode, .kind = COLL_BARRIER, .comm = c, .root = -1};
    return mpi_coll_go(&call, req, fn);
}

static int bcast_impl(void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                      compi_comm_t *c, MPI_Request *req, coll_mode_t mode, const char *fn)
{
    compi_datatype_t *dt = NULL;
    int rc = MPI_SUCCESS;
    mpi_coll_request(req, mode);
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_coll_root(c, root, fn);
    }
    if (rc == MPI_SUCCESS && comm_is_inter(c) && root == MPI_PROC_NULL) {
        /* the rest of the root's group: no buffer, nothing to do but take part */
        rc = mpi_arg_type(c, datatype, "datatype", fn, &dt);
    } else if (rc == MPI_SUCCESS) {
        rc = mpi_arg_data(c, buffer, count, datatype, MPI_ARG_ONE, fn, &dt);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_no_in_place(c, buffer, "buffer", fn);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    coll_call_t call = {.mode = mode,
                        .kind = COLL_BCAST,
                        .comm = c,
                        .root = root,
                        .sbuf = buffer,
                        .rbuf = buffer,
                        .scount = (size_t)count,
                        .rcount = (size_t)count,
                        .sdt = dt,
                        .rdt = dt,
                        .bytes = (size_t)count * dt->size};
    return mpi_coll_go(&call, req, fn);
}

/* ---- reductions -------------------------------------------------------------------- */

/* the call of every reduction: one datatype on both sides, the key's bytes are the whole
   input vector */
static int reduction_run(coll_kind_t kind, compi_comm_t *c, int root, const void *sendbuf,
                         void *recvbuf, size_t scount, size_t rcount, coll_vec_t rcounts,
                         compi_datatype_t *dt, compi_op_t *o, MPI_Request *req, coll_mode_t mode,
                         const char *fn)
{
    coll_call_t call = {.mode = mode,
                        .kind = kind,
                        .comm = c,
                        .root = root,
                        .in_place = sendbuf == MPI_IN_PLACE,
                        .sbuf = sendbuf,
                        .rbuf = recvbuf,
                        .scount = scount,
                        .rcount = rcount,
                        .sdt = dt,
                        .rdt = dt,
                        .rcounts = rcounts,
                        .op = o,
                        .bytes = scount * dt->size};
    return mpi_coll_go(&call, req, fn);
}

/*
 * reduce, allreduce on an intercommunicator: MPI_ROOT receives, MPI_PROC_NULL has
 * nothing, the other group (and both groups of an allreduce) send; no MPI_IN_PLACE, no
 * scans (MPI defines none for intercommunicators)
 */
static int inter_reduce_like(coll_kind_t kind, compi_comm_t *c, const void *sendbuf, void *recvbuf,
                             MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                             MPI_Request *req, coll_mode_t mode, const char *fn)
{
    compi_datatype_t *dt = NULL;
    compi_op_t *o = NULL;
    int rooted = kind == COLL_REDUCE;
    int receives = !rooted || root == MPI_ROOT, sends = !rooted || root >= 0;
    int rc = MPI_SUCCESS;
    if (kind == COLL_SCAN || kind == COLL_EXSCAN) {
        return mpi_err_raise(c, MPI_ERR_COMM, fn,
                             "%s is an intercommunicator; scans are defined on "
                             "intracommunicators only",
                             c->name[0] ? c->name : "the communicator");
    }
    rc = mpi_arg_inter_no_in_place(c, sendbuf, fn);
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_inter_no_in_place(c, recvbuf, fn);
    }
    if (rc == MPI_SUCCESS && !receives && !sends) {
        /* the rest of the root's group: no argument but root is significant there, and
           bindings pass what they have (mpi4py: no buffers, MPI_BYTE with the root's op);
           only the handles must be valid */
        rc = mpi_arg_type(c, datatype, "datatype", fn, &dt);
        if (rc == MPI_SUCCESS) {
            rc = mpi_arg_op(c, op, NULL, fn, &o);
        }
    } else if (rc == MPI_SUCCESS) {
        /* a buffer this rank does not use goes in as MPI_IN_PLACE: not checked */
        rc = mpi_arg_reduction(c, sends ? sendbuf : MPI_IN_PLACE, (size_t)count, recvbuf,
                               (size_t)count, receives, datatype, op, fn, &dt, &o);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return reduction_run(kind, c, root, sends ? sendbuf : NULL, receives ? recvbuf : NULL,
                         (size_t)count, (size_t)count, (coll_vec_t){0}, dt, o, req, mode, fn);
}

/*
 * reduce, allreduce, scan, exscan: one vector of `count` elements on every rank.  Every
 * rank receives, except the non-roots of a reduce, where MPI_IN_PLACE is not allowed and
 * the receive buffer is passed as NULL.
 */
/* inlined into each of the four impls: the blocking allreduce is the latency path */
static inline __attribute__((always_inline)) int
reduce_like(coll_kind_t kind, const void *sendbuf, void *recvbuf, MPI_Count count,
            MPI_Datatype datatype, MPI_Op op, int root, compi_comm_t *c, MPI_Request *req,
            coll_mode_t mode, const char *fn)
{
    compi_datatype_t *dt = NULL;
    compi_op_t *o = NULL;
    int rooted = kind == COLL_REDUCE;
    int rc = MPI_SUCCESS;
    mpi_coll_request(req, mode);
    if (rc == MPI_SUCCESS && rooted) {
        rc = mpi_arg_coll_root(c, root, fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_count(c, count, "count", fn);
    }
    if (rc == MPI_SUCCESS && comm_is_inter(c)) {
        return inter_reduce_like(kind, c, sendbuf, recvbuf, count, datatype, op, rooted ? root : -1,
                                 req, mode, fn);
    }
    int receives = rc == MPI_SUCCESS && (!rooted || c->rank == root);
    if (rc == MPI_SUCCESS && !receives) {
        rc = mpi_arg_no_in_place(c, sendbuf, "send buffer of a non-root rank", fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_reduction(c, sendbuf, (size_t)count, recvbuf, (size_t)count, receives,
                               datatype, op, fn, &dt, &o);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return reduction_run(kind, c, rooted ? root : -1, sendbuf, receives ? recvbuf : NULL,
                         (size_t)count, (size_t)count, (coll_vec_t){0}, dt, o, req, mode, fn);
}

static int reduce_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, int root, compi_comm_t *comm, MPI_Request *req, coll_mode_t mode,
                       const char *fn)
{
    return reduce_like(COLL_REDUCE, sendbuf, recvbuf, count, datatype, op, root, comm, req, mode,
                       fn);
}

static int allreduce_impl(const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, compi_comm_t *comm, MPI_Request *req,
                          coll_mode_t mode, const char *fn)
{
    return reduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, -1, comm, req, mode,
                       fn);
}

static int scan_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, compi_comm_t *comm, MPI_Request *req, coll_mode_t mode,
                     const char *fn)
{
    return reduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, -1, comm, req, mode, fn);
}

static int exscan_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, compi_comm_t *comm, MPI_Request *req, coll_mode_t mode,
                       const char *fn)
{
    return reduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, -1, comm, req, mode, fn);
}

/*
 * reduce-scatter(-block): the input vector is the sum of the blocks (recvcounts for
 * reduce-scatter, p blocks of recvcount for reduce-scatter-block); in place, the whole
 * input vector sits in recvbuf.
 */
static int reduce_scatter_any(coll_kind_t kind, const void *sendbuf, void *recvbuf,
                              MPI_Count recvcount, coll_vec_t recvcounts, MPI_Datatype datatype,
                              MPI_Op op, compi_comm_t *c, MPI_Request *req, coll_mode_t mode,
                              const char *fn)
{
    compi_datatype_t *dt = NULL;
    compi_op_t *o = NULL;
    size_t total = 0, mine = 0;
    int rc = MPI_SUCCESS;
    mpi_coll_request(req, mode);
    /* on an intercommunicator the counts are the local group's (each group's n elements
       reduced are scattered over the other group) */
    int nblocks = rc == MPI_SUCCESS ? comm_local_size(c) : 0;
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_inter_no_in_place(c, sendbuf, fn);
    }
    if (rc == MPI_SUCCESS && kind == COLL_REDUCE_SCATTER) {
        rc = mpi_arg_counts(c, recvcounts, (coll_vec_t){0}, 0, nblocks, "receive", fn, &total);
        mine = rc == MPI_SUCCESS ? (size_t)coll_vec_at(recvcounts, c->rank) : 0;
    } else if (rc == MPI_SUCCESS) {
        rc = mpi_arg_count(c, recvcount, "recvcount", fn);
        total = (size_t)recvcount * (size_t)nblocks;
        mine = (size_t)recvcount;
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    size_t rheld = sendbuf == MPI_IN_PLACE ? total : mine;
    rc = mpi_arg_reduction(c, sendbuf, total, recvbuf, rheld, 1, datatype, op, fn, &dt, &o);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return reduction_run(kind, c, -1, sendbuf, recvbuf, total, mine, recvcounts, dt, o, req, mode,
                         fn);
}

static int reduce_scatter_block_impl(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op, compi_comm_t *comm,
                                     MPI_Request *req, coll_mode_t mode, const char *fn)
{
    return reduce_scatter_any(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount,
                              (coll_vec_t){0}, datatype, op, comm, req, mode, fn);
}

static int reduce_scatter_impl(const void *sendbuf, void *recvbuf, coll_vec_t recvcounts,
                               MPI_Datatype datatype, MPI_Op op, compi_comm_t *comm,
                               MPI_Request *req, coll_mode_t mode, const char *fn)
{
    return reduce_scatter_any(COLL_REDUCE_SCATTER, sendbuf, recvbuf, 0, recvcounts, datatype, op,
                              comm, req, mode, fn);
}

#include "core/mpi/gen/coll.c"
