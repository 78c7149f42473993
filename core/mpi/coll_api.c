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
 */
#include "coll_args.h"

/* ---- synchronisation and broadcast ----------------------------------------------- */

#pragma weak MPI_Barrier = PMPI_Barrier
int PMPI_Barrier(MPI_Comm comm)
{
    static const char fn[] = "MPI_Barrier";
    compi_comm_t *c = NULL;
    COMPI_CHECK_INIT("MPI_Barrier");
    int rc = ca_comm(comm, fn, &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    coll_call_t call = {.kind = COLL_BARRIER, .comm = c, .root = -1};
    return ca_run(&call, fn);
}

#pragma weak MPI_Bcast = PMPI_Bcast
int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    static const char fn[] = "MPI_Bcast";
    compi_comm_t *c = NULL;
    compi_datatype_t *dt = NULL;
    COMPI_CHECK_INIT("MPI_Bcast");
    int rc = ca_comm(comm, fn, &c);
    if (rc == MPI_SUCCESS) {
        rc = ca_root(c, root, fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = ca_side(c, buffer, count, datatype, "buffer", fn, &dt);
    }
    if (rc == MPI_SUCCESS) {
        rc = ca_no_in_place(c, buffer, "buffer", fn);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    coll_call_t call = {.kind = COLL_BCAST,
                        .comm = c,
                        .root = root,
                        .sbuf = buffer,
                        .rbuf = buffer,
                        .scount = (size_t)count,
                        .rcount = (size_t)count,
                        .sdt = dt,
                        .rdt = dt,
                        .bytes = (size_t)count * dt->size};
    return ca_run(&call, fn);
}

/* ---- reductions -------------------------------------------------------------------- */

#pragma weak MPI_Reduce = PMPI_Reduce
int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm)
{
    static const char fn[] = "MPI_Reduce";
    compi_comm_t *c = NULL;
    compi_datatype_t *dt = NULL;
    compi_op_t *o = NULL;
    COMPI_CHECK_INIT("MPI_Reduce");
    int rc = ca_comm(comm, fn, &c);
    if (rc == MPI_SUCCESS) {
        rc = ca_root(c, root, fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = ca_count(c, count, "count", fn);
    }
    int is_root = rc == MPI_SUCCESS && c->rank == root;
    if (rc == MPI_SUCCESS && !is_root) {
        rc = ca_no_in_place(c, sendbuf, "send buffer of a non-root rank", fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = ca_reduction(c, sendbuf, (size_t)count, recvbuf, (size_t)count, is_root, datatype, op,
                          fn, &dt, &o);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    coll_call_t call = {.kind = COLL_REDUCE,
                        .comm = c,
                        .root = root,
                        .in_place = sendbuf == MPI_IN_PLACE,
                        .sbuf = sendbuf,
                        .rbuf = is_root ? recvbuf : NULL,
                        .scount = (size_t)count,
                        .rcount = (size_t)count,
                        .sdt = dt,
                        .rdt = dt,
                        .op = o,
                        .bytes = (size_t)count * dt->size};
    return ca_run(&call, fn);
}

/* allreduce, scan, exscan: one vector on every rank, MPI_IN_PLACE allowed everywhere */
static int allreduce_like(coll_kind_t kind, const void *sendbuf, void *recvbuf, int count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const char *fn)
{
    compi_comm_t *c = NULL;
    compi_datatype_t *dt = NULL;
    compi_op_t *o = NULL;
    int rc = ca_comm(comm, fn, &c);
    if (rc == MPI_SUCCESS) {
        rc = ca_count(c, count, "count", fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = ca_reduction(c, sendbuf, (size_t)count, recvbuf, (size_t)count, 1, datatype, op, fn,
                          &dt, &o);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    coll_call_t call = {.kind = kind,
                        .comm = c,
                        .root = -1,
                        .in_place = sendbuf == MPI_IN_PLACE,
                        .sbuf = sendbuf,
                        .rbuf = recvbuf,
                        .scount = (size_t)count,
                        .rcount = (size_t)count,
                        .sdt = dt,
                        .rdt = dt,
                        .op = o,
                        .bytes = (size_t)count * dt->size};
    return ca_run(&call, fn);
}

#pragma weak MPI_Allreduce = PMPI_Allreduce
int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Allreduce");
    return allreduce_like(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm,
                          "MPI_Allreduce");
}

#pragma weak MPI_Scan = PMPI_Scan
int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Scan");
    return allreduce_like(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm, "MPI_Scan");
}

#pragma weak MPI_Exscan = PMPI_Exscan
int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Exscan");
    return allreduce_like(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm, "MPI_Exscan");
}

#pragma weak MPI_Reduce_scatter_block = PMPI_Reduce_scatter_block
int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    static const char fn[] = "MPI_Reduce_scatter_block";
    compi_comm_t *c = NULL;
    compi_datatype_t *dt = NULL;
    compi_op_t *o = NULL;
    COMPI_CHECK_INIT("MPI_Reduce_scatter_block");
    int rc = ca_comm(comm, fn, &c);
    if (rc == MPI_SUCCESS) {
        rc = ca_count(c, recvcount, "recvcount", fn);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    size_t total = (size_t)recvcount * (size_t)c->size;
    /* in place, the whole input vector sits in recvbuf */
    size_t rheld = sendbuf == MPI_IN_PLACE ? total : (size_t)recvcount;
    rc = ca_reduction(c, sendbuf, total, recvbuf, rheld, 1, datatype, op, fn, &dt, &o);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    coll_call_t call = {.kind = COLL_REDUCE_SCATTER_BLOCK,
                        .comm = c,
                        .root = -1,
                        .in_place = sendbuf == MPI_IN_PLACE,
                        .sbuf = sendbuf,
                        .rbuf = recvbuf,
                        .scount = total,
                        .rcount = (size_t)recvcount,
                        .sdt = dt,
                        .rdt = dt,
                        .op = o,
                        .bytes = total * dt->size};
    return ca_run(&call, fn);
}

#pragma weak MPI_Reduce_scatter = PMPI_Reduce_scatter
int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    static const char fn[] = "MPI_Reduce_scatter";
    compi_comm_t *c = NULL;
    compi_datatype_t *dt = NULL;
    compi_op_t *o = NULL;
    size_t total = 0;
    COMPI_CHECK_INIT("MPI_Reduce_scatter");
    int rc = ca_comm(comm, fn, &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    rc = ca_counts(c, recvcounts, NULL, 0, "receive", fn, &total);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    size_t mine = (size_t)recvcounts[c->rank];
    size_t rheld = sendbuf == MPI_IN_PLACE ? total : mine;
    rc = ca_reduction(c, sendbuf, total, recvbuf, rheld, 1, datatype, op, fn, &dt, &o);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    coll_call_t call = {.kind = COLL_REDUCE_SCATTER,
                        .comm = c,
                        .root = -1,
                        .in_place = sendbuf == MPI_IN_PLACE,
                        .sbuf = sendbuf,
                        .rbuf = recvbuf,
                        .scount = total,
                        .rcount = mine,
                        .sdt = dt,
                        .rdt = dt,
                        .rcounts = recvcounts,
                        .op = o,
                        .bytes = total * dt->size};
    return ca_run(&call, fn);
}
