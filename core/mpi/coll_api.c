/*
 * coll_api.c -- MPI_Barrier, MPI_Bcast and the reductions (MPI_Reduce, MPI_Allreduce,
 * MPI_Reduce_scatter, MPI_Reduce_scatter_block, MPI_Scan, MPI_Exscan): argument checks,
 * then the trampoline.  The data movers (gather, scatter, allgather, alltoall) are in
 * coll_move_api.c; the checks both files share are in coll_args.h.
 *
 *   MPI_Xxx(args) -> checks (coll_args.h) -> coll_call_t on the stack -> tramp_run()
 *
 * Every collective, including size-1 communicators and zero counts, goes through
 * tramp_run(): the closures decide what "nothing to do" means, and a wrapper creator sees
 * every call the program makes.
 *
 * The call's `bytes` is the key's size and must be a value every rank agrees on (see
 * coll.h).  For the reductions sdt == rdt == the datatype and op is set.  For
 * MPI_Reduce_scatter and MPI_Reduce_scatter_block, scount is the number of elements of
 * the whole input vector and rcount this rank's block; rcounts holds the blocks of
 * MPI_Reduce_scatter.  The receive buffer of MPI_Reduce on a non-root is not
 * significant and is passed as NULL.
 *
 * MPI_IN_PLACE (MPI-3.1): the root's send buffer of MPI_Reduce, and the send buffer on
 * every rank of allreduce, reduce-scatter(-block), scan and exscan.  Anywhere else it is
 * MPI_ERR_ARG.
 *
 * The nonblocking forms (MPI_Ibarrier, MPI_Ibcast, MPI_Ireduce, ...) share the checks and
 * the call of their blocking twins: the helpers take the request pointer, NULL for a
 * blocking call, and the mode, and end in ca_go().  The persistent forms (MPI_Barrier_init,
 * ... at the end of the file) are the nonblocking ones in COLL_MODE_PERSISTENT; their
 * MPI_Info is not read.
 */
#include "core/mpi/coll_args.h"

/* ---- synchronisation and broadcast ----------------------------------------------- */

static int barrier_any(MPI_Comm comm, MPI_Request *req, coll_mode_t mode, const char *fn)
{
    compi_comm_t *c = NULL;
    int rc = req != NULL ? ca_request(NULL, req, fn) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS) {
        rc = ca_comm(comm, fn, &c);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    coll_call_t call = {.mode = mode, .kind = COLL_BARRIER, .comm = c, .root = -1};
    return ca_go(&call, req, fn);
}

#pragma weak MPI_Barrier = PMPI_Barrier
int PMPI_Barrier(MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Barrier");
    return barrier_any(comm, NULL, COLL_MODE_BLOCKING, "MPI_Barrier");
}

#pragma weak MPI_Ibarrier = PMPI_Ibarrier
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ibarrier");
    return barrier_any(comm, request, COLL_MODE_NONBLOCKING, "MPI_Ibarrier");
}

static int bcast_any(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                     MPI_Request *req, coll_mode_t mode, const char *fn)
{
    compi_comm_t *c = NULL;
    compi_datatype_t *dt = NULL;
    int rc = req != NULL ? ca_request(NULL, req, fn) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS) {
        rc = ca_comm(comm, fn, &c);
    }
    if (rc == MPI_SUCCESS) {
        rc = ca_root(c, root, fn);
    }
    if (rc == MPI_SUCCESS && ca_is_intercomm(c) && root == MPI_PROC_NULL) {
        /* the rest of the root's group: no buffer, nothing to do but take part */
        rc = mpi_arg_type(c, datatype, "datatype", fn, &dt);
    } else if (rc == MPI_SUCCESS) {
        rc = mpi_arg_data(c, buffer, count, datatype, MPI_ARG_ONE, fn, &dt);
    }
    if (rc == MPI_SUCCESS) {
        rc = ca_no_in_place(c, buffer, "buffer", fn);
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
    return ca_go(&call, req, fn);
}

#pragma weak MPI_Bcast = PMPI_Bcast
int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Bcast");
    return bcast_any(buffer, count, datatype, root, comm, NULL, COLL_MODE_BLOCKING, "MPI_Bcast");
}

#pragma weak MPI_Bcast_c = PMPI_Bcast_c
int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Bcast_c");
    return bcast_any(buffer, count, datatype, root, comm, NULL, COLL_MODE_BLOCKING, "MPI_Bcast_c");
}

#pragma weak MPI_Ibcast = PMPI_Ibcast
int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ibcast");
    return bcast_any(buffer, count, datatype, root, comm, request, COLL_MODE_NONBLOCKING,
                     "MPI_Ibcast");
}

#pragma weak MPI_Ibcast_c = PMPI_Ibcast_c
int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ibcast_c");
    return bcast_any(buffer, count, datatype, root, comm, request, COLL_MODE_NONBLOCKING,
                     "MPI_Ibcast_c");
}

/* ---- reductions -------------------------------------------------------------------- */

/* the call of every reduction: one datatype on both sides, the key's bytes are the whole
   input vector */
static int reduction_run(coll_kind_t kind, compi_comm_t *c, int root, const void *sendbuf,
                         void *recvbuf, size_t scount, size_t rcount, const int *rcounts,
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
    return ca_go(&call, req, fn);
}

/*
 * reduce, allreduce, scan, exscan: one vector of `count` elements on every rank.  Every
 * rank receives, except the non-roots of a reduce, where MPI_IN_PLACE is not allowed and
 * the receive buffer is passed as NULL.
 */
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
    rc = ca_inter_no_in_place(c, sendbuf, fn);
    if (rc == MPI_SUCCESS) {
        rc = ca_inter_no_in_place(c, recvbuf, fn);
    }
    if (rc == MPI_SUCCESS && !receives && !sends) {
        /* the rest of the root's group: no argument but root is significant there, and
           bindings pass what they have (mpi4py: no buffers, MPI_BYTE with the root's op);
           only the handles must be valid */
        rc = mpi_arg_type(c, datatype, "datatype", fn, &dt);
        if (rc == MPI_SUCCESS) {
            rc = ca_op(c, op, NULL, fn, &o);
        }
    } else if (rc == MPI_SUCCESS) {
        /* a buffer this rank does not use goes in as MPI_IN_PLACE: not checked */
        rc = ca_reduction(c, sends ? sendbuf : MPI_IN_PLACE, (size_t)count, recvbuf,
                          (size_t)count, receives, datatype, op, fn, &dt, &o);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return reduction_run(kind, c, root, sends ? sendbuf : NULL, receives ? recvbuf : NULL,
                         (size_t)count, (size_t)count, NULL, dt, o, req, mode, fn);
}

static int reduce_like(coll_kind_t kind, const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm, MPI_Request *req,
                       coll_mode_t mode, const char *fn)
{
    compi_comm_t *c = NULL;
    compi_datatype_t *dt = NULL;
    compi_op_t *o = NULL;
    int rooted = kind == COLL_REDUCE;
    int rc = req != NULL ? ca_request(NULL, req, fn) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS) {
        rc = ca_comm(comm, fn, &c);
    }
    if (rc == MPI_SUCCESS && rooted) {
        rc = ca_root(c, root, fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_count(c, count, "count", fn);
    }
    if (rc == MPI_SUCCESS && ca_is_intercomm(c)) {
        return inter_reduce_like(kind, c, sendbuf, recvbuf, count, datatype, op,
                                 rooted ? root : -1, req, mode, fn);
    }
    int receives = rc == MPI_SUCCESS && (!rooted || c->rank == root);
    if (rc == MPI_SUCCESS && !receives) {
        rc = ca_no_in_place(c, sendbuf, "send buffer of a non-root rank", fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = ca_reduction(c, sendbuf, (size_t)count, recvbuf, (size_t)count, receives, datatype, op,
                          fn, &dt, &o);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return reduction_run(kind, c, rooted ? root : -1, sendbuf, receives ? recvbuf : NULL,
                         (size_t)count, (size_t)count, NULL, dt, o, req, mode, fn);
}

#pragma weak MPI_Reduce = PMPI_Reduce
int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Reduce");
    return reduce_like(COLL_REDUCE, sendbuf, recvbuf, count, datatype, op, root, comm, NULL,
                       COLL_MODE_BLOCKING, "MPI_Reduce");
}

#pragma weak MPI_Reduce_c = PMPI_Reduce_c
int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Reduce_c");
    return reduce_like(COLL_REDUCE, sendbuf, recvbuf, count, datatype, op, root, comm, NULL,
                       COLL_MODE_BLOCKING, "MPI_Reduce_c");
}

#pragma weak MPI_Ireduce = PMPI_Ireduce
int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ireduce");
    return reduce_like(COLL_REDUCE, sendbuf, recvbuf, count, datatype, op, root, comm, request,
                       COLL_MODE_NONBLOCKING, "MPI_Ireduce");
}

#pragma weak MPI_Ireduce_c = PMPI_Ireduce_c
int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ireduce_c");
    return reduce_like(COLL_REDUCE, sendbuf, recvbuf, count, datatype, op, root, comm, request,
                       COLL_MODE_NONBLOCKING, "MPI_Ireduce_c");
}

#pragma weak MPI_Allreduce = PMPI_Allreduce
int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Allreduce");
    return reduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, -1, comm, NULL,
                       COLL_MODE_BLOCKING, "MPI_Allreduce");
}

#pragma weak MPI_Allreduce_c = PMPI_Allreduce_c
int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Allreduce_c");
    return reduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, -1, comm, NULL,
                       COLL_MODE_BLOCKING, "MPI_Allreduce_c");
}

#pragma weak MPI_Iallreduce = PMPI_Iallreduce
int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iallreduce");
    return reduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, -1, comm, request,
                       COLL_MODE_NONBLOCKING, "MPI_Iallreduce");
}

#pragma weak MPI_Iallreduce_c = PMPI_Iallreduce_c
int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iallreduce_c");
    return reduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, -1, comm, request,
                       COLL_MODE_NONBLOCKING, "MPI_Iallreduce_c");
}

#pragma weak MPI_Scan = PMPI_Scan
int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Scan");
    return reduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, -1, comm, NULL,
                       COLL_MODE_BLOCKING, "MPI_Scan");
}

#pragma weak MPI_Scan_c = PMPI_Scan_c
int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                MPI_Op op, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Scan_c");
    return reduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, -1, comm, NULL,
                       COLL_MODE_BLOCKING, "MPI_Scan_c");
}

#pragma weak MPI_Iscan = PMPI_Iscan
int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iscan");
    return reduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, -1, comm, request,
                       COLL_MODE_NONBLOCKING, "MPI_Iscan");
}

#pragma weak MPI_Iscan_c = PMPI_Iscan_c
int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iscan_c");
    return reduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, -1, comm, request,
                       COLL_MODE_NONBLOCKING, "MPI_Iscan_c");
}

#pragma weak MPI_Exscan = PMPI_Exscan
int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Exscan");
    return reduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, -1, comm, NULL,
                       COLL_MODE_BLOCKING, "MPI_Exscan");
}

#pragma weak MPI_Exscan_c = PMPI_Exscan_c
int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Exscan_c");
    return reduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, -1, comm, NULL,
                       COLL_MODE_BLOCKING, "MPI_Exscan_c");
}

#pragma weak MPI_Iexscan = PMPI_Iexscan
int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iexscan");
    return reduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, -1, comm, request,
                       COLL_MODE_NONBLOCKING, "MPI_Iexscan");
}

#pragma weak MPI_Iexscan_c = PMPI_Iexscan_c
int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iexscan_c");
    return reduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, -1, comm, request,
                       COLL_MODE_NONBLOCKING, "MPI_Iexscan_c");
}

/*
 * reduce-scatter(-block): the input vector is the sum of the blocks (recvcounts for
 * reduce-scatter, p blocks of recvcount for reduce-scatter-block); in place, the whole
 * input vector sits in recvbuf.
 */
static int reduce_scatter_any(coll_kind_t kind, const void *sendbuf, void *recvbuf,
                              MPI_Count recvcount, const int *recvcounts, MPI_Datatype datatype,
                              MPI_Op op, MPI_Comm comm, MPI_Request *req, coll_mode_t mode,
                              const char *fn)
{
    compi_comm_t *c = NULL;
    compi_datatype_t *dt = NULL;
    compi_op_t *o = NULL;
    size_t total = 0, mine = 0;
    int rc = req != NULL ? ca_request(NULL, req, fn) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS) {
        rc = ca_comm(comm, fn, &c);
    }
    /* on an intercommunicator the counts are the local group's (each group's n elements
       reduced are scattered over the other group) */
    int nblocks = rc == MPI_SUCCESS ? comm_local_size(c) : 0;
    if (rc == MPI_SUCCESS) {
        rc = ca_inter_no_in_place(c, sendbuf, fn);
    }
    if (rc == MPI_SUCCESS && kind == COLL_REDUCE_SCATTER) {
        rc = ca_counts_n(c, recvcounts, NULL, 0, "receive", fn, nblocks, &total);
        mine = rc == MPI_SUCCESS ? (size_t)recvcounts[c->rank] : 0;
    } else if (rc == MPI_SUCCESS) {
        rc = mpi_arg_count(c, recvcount, "recvcount", fn);
        total = (size_t)recvcount * (size_t)nblocks;
        mine = (size_t)recvcount;
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    size_t rheld = sendbuf == MPI_IN_PLACE ? total : mine;
    rc = ca_reduction(c, sendbuf, total, recvbuf, rheld, 1, datatype, op, fn, &dt, &o);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return reduction_run(kind, c, -1, sendbuf, recvbuf, total, mine, recvcounts, dt, o, req, mode,
                         fn);
}

#pragma weak MPI_Reduce_scatter_block = PMPI_Reduce_scatter_block
int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Reduce_scatter_block");
    return reduce_scatter_any(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL,
                              datatype, op, comm, NULL, COLL_MODE_BLOCKING,
                              "MPI_Reduce_scatter_block");
}

#pragma weak MPI_Reduce_scatter_block_c = PMPI_Reduce_scatter_block_c
int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Reduce_scatter_block_c");
    return reduce_scatter_any(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL,
                              datatype, op, comm, NULL, COLL_MODE_BLOCKING,
                              "MPI_Reduce_scatter_block_c");
}

#pragma weak MPI_Ireduce_scatter_block = PMPI_Ireduce_scatter_block
int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ireduce_scatter_block");
    return reduce_scatter_any(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL,
                              datatype, op, comm, request, COLL_MODE_NONBLOCKING,
                              "MPI_Ireduce_scatter_block");
}

#pragma weak MPI_Ireduce_scatter_block_c = PMPI_Ireduce_scatter_block_c
int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ireduce_scatter_block_c");
    return reduce_scatter_any(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL,
                              datatype, op, comm, request, COLL_MODE_NONBLOCKING,
                              "MPI_Ireduce_scatter_block_c");
}

#pragma weak MPI_Reduce_scatter = PMPI_Reduce_scatter
int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Reduce_scatter");
    return reduce_scatter_any(COLL_REDUCE_SCATTER, sendbuf, recvbuf, 0, recvcounts, datatype, op,
                              comm, NULL, COLL_MODE_BLOCKING, "MPI_Reduce_scatter");
}

#pragma weak MPI_Ireduce_scatter = PMPI_Ireduce_scatter
int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ireduce_scatter");
    return reduce_scatter_any(COLL_REDUCE_SCATTER, sendbuf, recvbuf, 0, recvcounts, datatype, op,
                              comm, request, COLL_MODE_NONBLOCKING, "MPI_Ireduce_scatter");
}

/* ---- persistent (MPI-4): the nonblocking forms' checks and call, in persistent mode ---- */

#pragma weak MPI_Barrier_init = PMPI_Barrier_init
int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Barrier_init");
    return barrier_any(comm, request, COLL_MODE_PERSISTENT, "MPI_Barrier_init");
}

#pragma weak MPI_Bcast_init = PMPI_Bcast_init
int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Bcast_init");
    return bcast_any(buffer, count, datatype, root, comm, request, COLL_MODE_PERSISTENT,
                     "MPI_Bcast_init");
}

#pragma weak MPI_Bcast_init_c = PMPI_Bcast_init_c
int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Bcast_init_c");
    return bcast_any(buffer, count, datatype, root, comm, request, COLL_MODE_PERSISTENT,
                     "MPI_Bcast_init_c");
}

#pragma weak MPI_Reduce_init = PMPI_Reduce_init
int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Reduce_init");
    return reduce_like(COLL_REDUCE, sendbuf, recvbuf, count, datatype, op, root, comm, request,
                       COLL_MODE_PERSISTENT, "MPI_Reduce_init");
}

#pragma weak MPI_Reduce_init_c = PMPI_Reduce_init_c
int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Reduce_init_c");
    return reduce_like(COLL_REDUCE, sendbuf, recvbuf, count, datatype, op, root, comm, request,
                       COLL_MODE_PERSISTENT, "MPI_Reduce_init_c");
}

#pragma weak MPI_Allreduce_init = PMPI_Allreduce_init
int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Allreduce_init");
    return reduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, -1, comm, request,
                       COLL_MODE_PERSISTENT, "MPI_Allreduce_init");
}

#pragma weak MPI_Allreduce_init_c = PMPI_Allreduce_init_c
int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Allreduce_init_c");
    return reduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, -1, comm, request,
                       COLL_MODE_PERSISTENT, "MPI_Allreduce_init_c");
}

#pragma weak MPI_Scan_init = PMPI_Scan_init
int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Scan_init");
    return reduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, -1, comm, request,
                       COLL_MODE_PERSISTENT, "MPI_Scan_init");
}

#pragma weak MPI_Scan_init_c = PMPI_Scan_init_c
int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Scan_init_c");
    return reduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, -1, comm, request,
                       COLL_MODE_PERSISTENT, "MPI_Scan_init_c");
}

#pragma weak MPI_Exscan_init = PMPI_Exscan_init
int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Exscan_init");
    return reduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, -1, comm, request,
                       COLL_MODE_PERSISTENT, "MPI_Exscan_init");
}

#pragma weak MPI_Exscan_init_c = PMPI_Exscan_init_c
int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Exscan_init_c");
    return reduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, -1, comm, request,
                       COLL_MODE_PERSISTENT, "MPI_Exscan_init_c");
}

#pragma weak MPI_Reduce_scatter_block_init = PMPI_Reduce_scatter_block_init
int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Reduce_scatter_block_init");
    return reduce_scatter_any(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL,
                              datatype, op, comm, request, COLL_MODE_PERSISTENT,
                              "MPI_Reduce_scatter_block_init");
}

#pragma weak MPI_Reduce_scatter_block_init_c = PMPI_Reduce_scatter_block_init_c
int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Reduce_scatter_block_init_c");
    return reduce_scatter_any(COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL,
                              datatype, op, comm, request, COLL_MODE_PERSISTENT,
                              "MPI_Reduce_scatter_block_init_c");
}

#pragma weak MPI_Reduce_scatter_init = PMPI_Reduce_scatter_init
int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Reduce_scatter_init");
    return reduce_scatter_any(COLL_REDUCE_SCATTER, sendbuf, recvbuf, 0, recvcounts, datatype, op,
                              comm, request, COLL_MODE_PERSISTENT, "MPI_Reduce_scatter_init");
}
