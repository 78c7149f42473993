/*
 * coll_entry.c -- the collectives' MPI entry points: PMPI_X with its weak MPI_X, for the
 * blocking, nonblocking (MPI_I...) and persistent (..._init) forms, int and large-count
 * (_c).  Each is one line: the init check, then the collective's one impl
 * (core/mpi/coll_impl.h), which makes the checks.  The int and _c forms pass the same
 * impl their scalar counts as MPI_Count and their count and displacement arrays as
 * coll_vec_t views (coll_vec_int, coll_vec_count, coll_vec_aint): nothing is narrowed or
 * copied.  A persistent form's MPI_Info is not read.
 */
#include "core/mpi/coll_impl.h"

#pragma weak MPI_Barrier = PMPI_Barrier
int PMPI_Barrier(MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Barrier");
    return mpi_barrier_impl(comm, NULL, COLL_MODE_BLOCKING, "MPI_Barrier");
}

#pragma weak MPI_Ibarrier = PMPI_Ibarrier
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ibarrier");
    return mpi_barrier_impl(comm, request, COLL_MODE_NONBLOCKING, "MPI_Ibarrier");
}

#pragma weak MPI_Barrier_init = PMPI_Barrier_init
int PMPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Barrier_init");
    return mpi_barrier_impl(comm, request, COLL_MODE_PERSISTENT, "MPI_Barrier_init");
}

#pragma weak MPI_Bcast = PMPI_Bcast
int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Bcast");
    return mpi_bcast_impl(buffer, count, datatype, root, comm, NULL, COLL_MODE_BLOCKING,
                          "MPI_Bcast");
}

#pragma weak MPI_Bcast_c = PMPI_Bcast_c
int PMPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Bcast_c");
    return mpi_bcast_impl(buffer, count, datatype, root, comm, NULL, COLL_MODE_BLOCKING,
                          "MPI_Bcast_c");
}

#pragma weak MPI_Ibcast = PMPI_Ibcast
int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ibcast");
    return mpi_bcast_impl(buffer, count, datatype, root, comm, request, COLL_MODE_NONBLOCKING,
                          "MPI_Ibcast");
}

#pragma weak MPI_Ibcast_c = PMPI_Ibcast_c
int PMPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ibcast_c");
    return mpi_bcast_impl(buffer, count, datatype, root, comm, request, COLL_MODE_NONBLOCKING,
                          "MPI_Ibcast_c");
}

#pragma weak MPI_Bcast_init = PMPI_Bcast_init
int PMPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Bcast_init");
    return mpi_bcast_impl(buffer, count, datatype, root, comm, request, COLL_MODE_PERSISTENT,
                          "MPI_Bcast_init");
}

#pragma weak MPI_Bcast_init_c = PMPI_Bcast_init_c
int PMPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Bcast_init_c");
    return mpi_bcast_impl(buffer, count, datatype, root, comm, request, COLL_MODE_PERSISTENT,
                          "MPI_Bcast_init_c");
}

#pragma weak MPI_Reduce = PMPI_Reduce
int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Reduce");
    return mpi_reduce_impl(sendbuf, recvbuf, count, datatype, op, root, comm, NULL,
                           COLL_MODE_BLOCKING, "MPI_Reduce");
}

#pragma weak MPI_Reduce_c = PMPI_Reduce_c
int PMPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Reduce_c");
    return mpi_reduce_impl(sendbuf, recvbuf, count, datatype, op, root, comm, NULL,
                           COLL_MODE_BLOCKING, "MPI_Reduce_c");
}

#pragma weak MPI_Ireduce = PMPI_Ireduce
int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ireduce");
    return mpi_reduce_impl(sendbuf, recvbuf, count, datatype, op, root, comm, request,
                           COLL_MODE_NONBLOCKING, "MPI_Ireduce");
}

#pragma weak MPI_Ireduce_c = PMPI_Ireduce_c
int PMPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ireduce_c");
    return mpi_reduce_impl(sendbuf, recvbuf, count, datatype, op, root, comm, request,
                           COLL_MODE_NONBLOCKING, "MPI_Ireduce_c");
}

#pragma weak MPI_Reduce_init = PMPI_Reduce_init
int PMPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Reduce_init");
    return mpi_reduce_impl(sendbuf, recvbuf, count, datatype, op, root, comm, request,
                           COLL_MODE_PERSISTENT, "MPI_Reduce_init");
}

#pragma weak MPI_Reduce_init_c = PMPI_Reduce_init_c
int PMPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Reduce_init_c");
    return mpi_reduce_impl(sendbuf, recvbuf, count, datatype, op, root, comm, request,
                           COLL_MODE_PERSISTENT, "MPI_Reduce_init_c");
}

#pragma weak MPI_Allreduce = PMPI_Allreduce
int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Allreduce");
    return mpi_allreduce_impl(sendbuf, recvbuf, count, datatype, op, comm, NULL, COLL_MODE_BLOCKING,
                              "MPI_Allreduce");
}

#pragma weak MPI_Allreduce_c = PMPI_Allreduce_c
int PMPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Allreduce_c");
    return mpi_allreduce_impl(sendbuf, recvbuf, count, datatype, op, comm, NULL, COLL_MODE_BLOCKING,
                              "MPI_Allreduce_c");
}

#pragma weak MPI_Iallreduce = PMPI_Iallreduce
int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iallreduce");
    return mpi_allreduce_impl(sendbuf, recvbuf, count, datatype, op, comm, request,
                              COLL_MODE_NONBLOCKING, "MPI_Iallreduce");
}

#pragma weak MPI_Iallreduce_c = PMPI_Iallreduce_c
int PMPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iallreduce_c");
    return mpi_allreduce_impl(sendbuf, recvbuf, count, datatype, op, comm, request,
                              COLL_MODE_NONBLOCKING, "MPI_Iallreduce_c");
}

#pragma weak MPI_Allreduce_init = PMPI_Allreduce_init
int PMPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Allreduce_init");
    return mpi_allreduce_impl(sendbuf, recvbuf, count, datatype, op, comm, request,
                              COLL_MODE_PERSISTENT, "MPI_Allreduce_init");
}

#pragma weak MPI_Allreduce_init_c = PMPI_Allreduce_init_c
int PMPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Allreduce_init_c");
    return mpi_allreduce_impl(sendbuf, recvbuf, count, datatype, op, comm, request,
                              COLL_MODE_PERSISTENT, "MPI_Allreduce_init_c");
}

#pragma weak MPI_Scan = PMPI_Scan
int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Scan");
    return mpi_scan_impl(sendbuf, recvbuf, count, datatype, op, comm, NULL, COLL_MODE_BLOCKING,
                         "MPI_Scan");
}

#pragma weak MPI_Scan_c = PMPI_Scan_c
int PMPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                MPI_Op op, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Scan_c");
    return mpi_scan_impl(sendbuf, recvbuf, count, datatype, op, comm, NULL, COLL_MODE_BLOCKING,
                         "MPI_Scan_c");
}

#pragma weak MPI_Iscan = PMPI_Iscan
int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iscan");
    return mpi_scan_impl(sendbuf, recvbuf, count, datatype, op, comm, request,
                         COLL_MODE_NONBLOCKING, "MPI_Iscan");
}

#pragma weak MPI_Iscan_c = PMPI_Iscan_c
int PMPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iscan_c");
    return mpi_scan_impl(sendbuf, recvbuf, count, datatype, op, comm, request,
                         COLL_MODE_NONBLOCKING, "MPI_Iscan_c");
}

#pragma weak MPI_Scan_init = PMPI_Scan_init
int PMPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Scan_init");
    return mpi_scan_impl(sendbuf, recvbuf, count, datatype, op, comm, request, COLL_MODE_PERSISTENT,
                         "MPI_Scan_init");
}

#pragma weak MPI_Scan_init_c = PMPI_Scan_init_c
int PMPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Scan_init_c");
    return mpi_scan_impl(sendbuf, recvbuf, count, datatype, op, comm, request, COLL_MODE_PERSISTENT,
                         "MPI_Scan_init_c");
}

#pragma weak MPI_Exscan = PMPI_Exscan
int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Exscan");
    return mpi_exscan_impl(sendbuf, recvbuf, count, datatype, op, comm, NULL, COLL_MODE_BLOCKING,
                           "MPI_Exscan");
}

#pragma weak MPI_Exscan_c = PMPI_Exscan_c
int PMPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Exscan_c");
    return mpi_exscan_impl(sendbuf, recvbuf, count, datatype, op, comm, NULL, COLL_MODE_BLOCKING,
                           "MPI_Exscan_c");
}

#pragma weak MPI_Iexscan = PMPI_Iexscan
int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iexscan");
    return mpi_exscan_impl(sendbuf, recvbuf, count, datatype, op, comm, request,
                           COLL_MODE_NONBLOCKING, "MPI_Iexscan");
}

#pragma weak MPI_Iexscan_c = PMPI_Iexscan_c
int PMPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iexscan_c");
    return mpi_exscan_impl(sendbuf, recvbuf, count, datatype, op, comm, request,
                           COLL_MODE_NONBLOCKING, "MPI_Iexscan_c");
}

#pragma weak MPI_Exscan_init = PMPI_Exscan_init
int PMPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Exscan_init");
    return mpi_exscan_impl(sendbuf, recvbuf, count, datatype, op, comm, request,
                           COLL_MODE_PERSISTENT, "MPI_Exscan_init");
}

#pragma weak MPI_Exscan_init_c = PMPI_Exscan_init_c
int PMPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Exscan_init_c");
    return mpi_exscan_impl(sendbuf, recvbuf, count, datatype, op, comm, request,
                           COLL_MODE_PERSISTENT, "MPI_Exscan_init_c");
}

#pragma weak MPI_Reduce_scatter_block = PMPI_Reduce_scatter_block
int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Reduce_scatter_block");
    return mpi_reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, datatype, op, comm, NULL,
                                         COLL_MODE_BLOCKING, "MPI_Reduce_scatter_block");
}

#pragma weak MPI_Reduce_scatter_block_c = PMPI_Reduce_scatter_block_c
int PMPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Reduce_scatter_block_c");
    return mpi_reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, datatype, op, comm, NULL,
                                         COLL_MODE_BLOCKING, "MPI_Reduce_scatter_block_c");
}

#pragma weak MPI_Ireduce_scatter_block = PMPI_Ireduce_scatter_block
int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ireduce_scatter_block");
    return mpi_reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, datatype, op, comm, request,
                                         COLL_MODE_NONBLOCKING, "MPI_Ireduce_scatter_block");
}

#pragma weak MPI_Ireduce_scatter_block_c = PMPI_Ireduce_scatter_block_c
int PMPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ireduce_scatter_block_c");
    return mpi_reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, datatype, op, comm, request,
                                         COLL_MODE_NONBLOCKING, "MPI_Ireduce_scatter_block_c");
}

#pragma weak MPI_Reduce_scatter_block_init = PMPI_Reduce_scatter_block_init
int PMPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Reduce_scatter_block_init");
    return mpi_reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, datatype, op, comm, request,
                                         COLL_MODE_PERSISTENT, "MPI_Reduce_scatter_block_init");
}

#pragma weak MPI_Reduce_scatter_block_init_c = PMPI_Reduce_scatter_block_init_c
int PMPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Reduce_scatter_block_init_c");
    return mpi_reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, datatype, op, comm, request,
                                         COLL_MODE_PERSISTENT, "MPI_Reduce_scatter_block_init_c");
}

#pragma weak MPI_Reduce_scatter = PMPI_Reduce_scatter
int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Reduce_scatter");
    return mpi_reduce_scatter_impl(sendbuf, recvbuf, coll_vec_int(recvcounts), datatype, op, comm,
                                   NULL, COLL_MODE_BLOCKING, "MPI_Reduce_scatter");
}

#pragma weak MPI_Reduce_scatter_c = PMPI_Reduce_scatter_c
int PMPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Reduce_scatter_c");
    return mpi_reduce_scatter_impl(sendbuf, recvbuf, coll_vec_count(recvcounts), datatype, op, comm,
                                   NULL, COLL_MODE_BLOCKING, "MPI_Reduce_scatter_c");
}

#pragma weak MPI_Ireduce_scatter = PMPI_Ireduce_scatter
int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ireduce_scatter");
    return mpi_reduce_scatter_impl(sendbuf, recvbuf, coll_vec_int(recvcounts), datatype, op, comm,
                                   request, COLL_MODE_NONBLOCKING, "MPI_Ireduce_scatter");
}

#pragma weak MPI_Ireduce_scatter_c = PMPI_Ireduce_scatter_c
int PMPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ireduce_scatter_c");
    return mpi_reduce_scatter_impl(sendbuf, recvbuf, coll_vec_count(recvcounts), datatype, op, comm,
                                   request, COLL_MODE_NONBLOCKING, "MPI_Ireduce_scatter_c");
}

#pragma weak MPI_Reduce_scatter_init = PMPI_Reduce_scatter_init
int PMPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Reduce_scatter_init");
    return mpi_reduce_scatter_impl(sendbuf, recvbuf, coll_vec_int(recvcounts), datatype, op, comm,
                                   request, COLL_MODE_PERSISTENT, "MPI_Reduce_scatter_init");
}

#pragma weak MPI_Reduce_scatter_init_c = PMPI_Reduce_scatter_init_c
int PMPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Reduce_scatter_init_c");
    return mpi_reduce_scatter_impl(sendbuf, recvbuf, coll_vec_count(recvcounts), datatype, op, comm,
                                   request, COLL_MODE_PERSISTENT, "MPI_Reduce_scatter_init_c");
}

#pragma weak MPI_Gather = PMPI_Gather
int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Gather");
    return mpi_gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                           NULL, COLL_MODE_BLOCKING, "MPI_Gather");
}

#pragma weak MPI_Gather_c = PMPI_Gather_c
int PMPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Gather_c");
    return mpi_gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                           NULL, COLL_MODE_BLOCKING, "MPI_Gather_c");
}

#pragma weak MPI_Igather = PMPI_Igather
int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Igather");
    return mpi_gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                           request, COLL_MODE_NONBLOCKING, "MPI_Igather");
}

#pragma weak MPI_Igather_c = PMPI_Igather_c
int PMPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Igather_c");
    return mpi_gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                           request, COLL_MODE_NONBLOCKING, "MPI_Igather_c");
}

#pragma weak MPI_Gather_init = PMPI_Gather_init
int PMPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Gather_init");
    return mpi_gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                           request, COLL_MODE_PERSISTENT, "MPI_Gather_init");
}

#pragma weak MPI_Gather_init_c = PMPI_Gather_init_c
int PMPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Gather_init_c");
    return mpi_gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                           request, COLL_MODE_PERSISTENT, "MPI_Gather_init_c");
}

#pragma weak MPI_Gatherv = PMPI_Gatherv
int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Gatherv");
    return mpi_gatherv_impl(sendbuf, sendcount, sendtype, recvbuf, coll_vec_int(recvcounts),
                            coll_vec_int(displs), recvtype, root, comm, NULL, COLL_MODE_BLOCKING,
                            "MPI_Gatherv");
}

#pragma weak MPI_Gatherv_c = PMPI_Gatherv_c
int PMPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                   int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Gatherv_c");
    return mpi_gatherv_impl(sendbuf, sendcount, sendtype, recvbuf, coll_vec_count(recvcounts),
                            coll_vec_aint(displs), recvtype, root, comm, NULL, COLL_MODE_BLOCKING,
                            "MPI_Gatherv_c");
}

#pragma weak MPI_Igatherv = PMPI_Igatherv
int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Igatherv");
    return mpi_gatherv_impl(sendbuf, sendcount, sendtype, recvbuf, coll_vec_int(recvcounts),
                            coll_vec_int(displs), recvtype, root, comm, request,
                            COLL_MODE_NONBLOCKING, "MPI_Igatherv");
}

#pragma weak MPI_Igatherv_c = PMPI_Igatherv_c
int PMPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                    int root, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Igatherv_c");
    return mpi_gatherv_impl(sendbuf, sendcount, sendtype, recvbuf, coll_vec_count(recvcounts),
                            coll_vec_aint(displs), recvtype, root, comm, request,
                            COLL_MODE_NONBLOCKING, "MPI_Igatherv_c");
}

#pragma weak MPI_Gatherv_init = PMPI_Gatherv_init
int PMPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Gatherv_init");
    return mpi_gatherv_impl(sendbuf, sendcount, sendtype, recvbuf, coll_vec_int(recvcounts),
                            coll_vec_int(displs), recvtype, root, comm, request,
                            COLL_MODE_PERSISTENT, "MPI_Gatherv_init");
}

#pragma weak MPI_Gatherv_init_c = PMPI_Gatherv_init_c
int PMPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Gatherv_init_c");
    return mpi_gatherv_impl(sendbuf, sendcount, sendtype, recvbuf, coll_vec_count(recvcounts),
                            coll_vec_aint(displs), recvtype, root, comm, request,
                            COLL_MODE_PERSISTENT, "MPI_Gatherv_init_c");
}

#pragma weak MPI_Scatter = PMPI_Scatter
int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Scatter");
    return mpi_scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                            NULL, COLL_MODE_BLOCKING, "MPI_Scatter");
}

#pragma weak MPI_Scatter_c = PMPI_Scatter_c
int PMPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Scatter_c");
    return mpi_scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                            NULL, COLL_MODE_BLOCKING, "MPI_Scatter_c");
}

#pragma weak MPI_Iscatter = PMPI_Iscatter
int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iscatter");
    return mpi_scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                            request, COLL_MODE_NONBLOCKING, "MPI_Iscatter");
}

#pragma weak MPI_Iscatter_c = PMPI_Iscatter_c
int PMPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iscatter_c");
    return mpi_scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                            request, COLL_MODE_NONBLOCKING, "MPI_Iscatter_c");
}

#pragma weak MPI_Scatter_init = PMPI_Scatter_init
int PMPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Scatter_init");
    return mpi_scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                            request, COLL_MODE_PERSISTENT, "MPI_Scatter_init");
}

#pragma weak MPI_Scatter_init_c = PMPI_Scatter_init_c
int PMPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Scatter_init_c");
    return mpi_scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                            request, COLL_MODE_PERSISTENT, "MPI_Scatter_init_c");
}

#pragma weak MPI_Scatterv = PMPI_Scatterv
int PMPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Scatterv");
    return mpi_scatterv_impl(sendbuf, coll_vec_int(sendcounts), coll_vec_int(displs), sendtype,
                             recvbuf, recvcount, recvtype, root, comm, NULL, COLL_MODE_BLOCKING,
                             "MPI_Scatterv");
}

#pragma weak MPI_Scatterv_c = PMPI_Scatterv_c
int PMPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Scatterv_c");
    return mpi_scatterv_impl(sendbuf, coll_vec_count(sendcounts), coll_vec_aint(displs), sendtype,
                             recvbuf, recvcount, recvtype, root, comm, NULL, COLL_MODE_BLOCKING,
                             "MPI_Scatterv_c");
}

#pragma weak MPI_Iscatterv = PMPI_Iscatterv
int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iscatterv");
    return mpi_scatterv_impl(sendbuf, coll_vec_int(sendcounts), coll_vec_int(displs), sendtype,
                             recvbuf, recvcount, recvtype, root, comm, request,
                             COLL_MODE_NONBLOCKING, "MPI_Iscatterv");
}

#pragma weak MPI_Iscatterv_c = PMPI_Iscatterv_c
int PMPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iscatterv_c");
    return mpi_scatterv_impl(sendbuf, coll_vec_count(sendcounts), coll_vec_aint(displs), sendtype,
                             recvbuf, recvcount, recvtype, root, comm, request,
                             COLL_MODE_NONBLOCKING, "MPI_Iscatterv_c");
}

#pragma weak MPI_Scatterv_init = PMPI_Scatterv_init
int PMPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Scatterv_init");
    return mpi_scatterv_impl(sendbuf, coll_vec_int(sendcounts), coll_vec_int(displs), sendtype,
                             recvbuf, recvcount, recvtype, root, comm, request,
                             COLL_MODE_PERSISTENT, "MPI_Scatterv_init");
}

#pragma weak MPI_Scatterv_init_c = PMPI_Scatterv_init_c
int PMPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Scatterv_init_c");
    return mpi_scatterv_impl(sendbuf, coll_vec_count(sendcounts), coll_vec_aint(displs), sendtype,
                             recvbuf, recvcount, recvtype, root, comm, request,
                             COLL_MODE_PERSISTENT, "MPI_Scatterv_init_c");
}

#pragma weak MPI_Allgather = PMPI_Allgather
int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Allgather");
    return mpi_allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              NULL, COLL_MODE_BLOCKING, "MPI_Allgather");
}

#pragma weak MPI_Allgather_c = PMPI_Allgather_c
int PMPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Allgather_c");
    return mpi_allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              NULL, COLL_MODE_BLOCKING, "MPI_Allgather_c");
}

#pragma weak MPI_Iallgather = PMPI_Iallgather
int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iallgather");
    return mpi_allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              request, COLL_MODE_NONBLOCKING, "MPI_Iallgather");
}

#pragma weak MPI_Iallgather_c = PMPI_Iallgather_c
int PMPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iallgather_c");
    return mpi_allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              request, COLL_MODE_NONBLOCKING, "MPI_Iallgather_c");
}

#pragma weak MPI_Allgather_init = PMPI_Allgather_init
int PMPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Allgather_init");
    return mpi_allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              request, COLL_MODE_PERSISTENT, "MPI_Allgather_init");
}

#pragma weak MPI_Allgather_init_c = PMPI_Allgather_init_c
int PMPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Allgather_init_c");
    return mpi_allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              request, COLL_MODE_PERSISTENT, "MPI_Allgather_init_c");
}

#pragma weak MPI_Allgatherv = PMPI_Allgatherv
int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Allgatherv");
    return mpi_allgatherv_impl(sendbuf, sendcount, sendtype, recvbuf, coll_vec_int(recvcounts),
                               coll_vec_int(displs), recvtype, comm, NULL, COLL_MODE_BLOCKING,
                               "MPI_Allgatherv");
}

#pragma weak MPI_Allgatherv_c = PMPI_Allgatherv_c
int PMPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Allgatherv_c");
    return mpi_allgatherv_impl(sendbuf, sendcount, sendtype, recvbuf, coll_vec_count(recvcounts),
                               coll_vec_aint(displs), recvtype, comm, NULL, COLL_MODE_BLOCKING,
                               "MPI_Allgatherv_c");
}

#pragma weak MPI_Iallgatherv = PMPI_Iallgatherv
int PMPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iallgatherv");
    return mpi_allgatherv_impl(sendbuf, sendcount, sendtype, recvbuf, coll_vec_int(recvcounts),
                               coll_vec_int(displs), recvtype, comm, request, COLL_MODE_NONBLOCKING,
                               "MPI_Iallgatherv");
}

#pragma weak MPI_Iallgatherv_c = PMPI_Iallgatherv_c
int PMPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Iallgatherv_c");
    return mpi_allgatherv_impl(sendbuf, sendcount, sendtype, recvbuf, coll_vec_count(recvcounts),
                               coll_vec_aint(displs), recvtype, comm, request,
                               COLL_MODE_NONBLOCKING, "MPI_Iallgatherv_c");
}

#pragma weak MPI_Allgatherv_init = PMPI_Allgatherv_init
int PMPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Allgatherv_init");
    return mpi_allgatherv_impl(sendbuf, sendcount, sendtype, recvbuf, coll_vec_int(recvcounts),
                               coll_vec_int(displs), recvtype, comm, request, COLL_MODE_PERSISTENT,
                               "MPI_Allgatherv_init");
}

#pragma weak MPI_Allgatherv_init_c = PMPI_Allgatherv_init_c
int PMPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                           MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Allgatherv_init_c");
    return mpi_allgatherv_impl(sendbuf, sendcount, sendtype, recvbuf, coll_vec_count(recvcounts),
                               coll_vec_aint(displs), recvtype, comm, request, COLL_MODE_PERSISTENT,
                               "MPI_Allgatherv_init_c");
}

#pragma weak MPI_Alltoall = PMPI_Alltoall
int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Alltoall");
    return mpi_alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL,
                             COLL_MODE_BLOCKING, "MPI_Alltoall");
}

#pragma weak MPI_Alltoall_c = PMPI_Alltoall_c
int PMPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Alltoall_c");
    return mpi_alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL,
                             COLL_MODE_BLOCKING, "MPI_Alltoall_c");
}

#pragma weak MPI_Ialltoall = PMPI_Ialltoall
int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ialltoall");
    return mpi_alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                             request, COLL_MODE_NONBLOCKING, "MPI_Ialltoall");
}

#pragma weak MPI_Ialltoall_c = PMPI_Ialltoall_c
int PMPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ialltoall_c");
    return mpi_alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                             request, COLL_MODE_NONBLOCKING, "MPI_Ialltoall_c");
}

#pragma weak MPI_Alltoall_init = PMPI_Alltoall_init
int PMPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Alltoall_init");
    return mpi_alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                             request, COLL_MODE_PERSISTENT, "MPI_Alltoall_init");
}

#pragma weak MPI_Alltoall_init_c = PMPI_Alltoall_init_c
int PMPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Alltoall_init_c");
    return mpi_alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                             request, COLL_MODE_PERSISTENT, "MPI_Alltoall_init_c");
}

#pragma weak MPI_Alltoallv = PMPI_Alltoallv
int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Alltoallv");
    return mpi_alltoallv_impl(sendbuf, coll_vec_int(sendcounts), coll_vec_int(sdispls), sendtype,
                              recvbuf, coll_vec_int(recvcounts), coll_vec_int(rdispls), recvtype,
                              comm, NULL, COLL_MODE_BLOCKING, "MPI_Alltoallv");
}

#pragma weak MPI_Alltoallv_c = PMPI_Alltoallv_c
int PMPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Alltoallv_c");
    return mpi_alltoallv_impl(sendbuf, coll_vec_count(sendcounts), coll_vec_aint(sdispls), sendtype,
                              recvbuf, coll_vec_count(recvcounts), coll_vec_aint(rdispls), recvtype,
                              comm, NULL, COLL_MODE_BLOCKING, "MPI_Alltoallv_c");
}

#pragma weak MPI_Ialltoallv = PMPI_Ialltoallv
int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ialltoallv");
    return mpi_alltoallv_impl(sendbuf, coll_vec_int(sendcounts), coll_vec_int(sdispls), sendtype,
                              recvbuf, coll_vec_int(recvcounts), coll_vec_int(rdispls), recvtype,
                              comm, request, COLL_MODE_NONBLOCKING, "MPI_Ialltoallv");
}

#pragma weak MPI_Ialltoallv_c = PMPI_Ialltoallv_c
int PMPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ialltoallv_c");
    return mpi_alltoallv_impl(sendbuf, coll_vec_count(sendcounts), coll_vec_aint(sdispls), sendtype,
                              recvbuf, coll_vec_count(recvcounts), coll_vec_aint(rdispls), recvtype,
                              comm, request, COLL_MODE_NONBLOCKING, "MPI_Ialltoallv_c");
}

#pragma weak MPI_Alltoallv_init = PMPI_Alltoallv_init
int PMPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Alltoallv_init");
    return mpi_alltoallv_impl(sendbuf, coll_vec_int(sendcounts), coll_vec_int(sdispls), sendtype,
                              recvbuf, coll_vec_int(recvcounts), coll_vec_int(rdispls), recvtype,
                              comm, request, COLL_MODE_PERSISTENT, "MPI_Alltoallv_init");
}

#pragma weak MPI_Alltoallv_init_c = PMPI_Alltoallv_init_c
int PMPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Alltoallv_init_c");
    return mpi_alltoallv_impl(sendbuf, coll_vec_count(sendcounts), coll_vec_aint(sdispls), sendtype,
                              recvbuf, coll_vec_count(recvcounts), coll_vec_aint(rdispls), recvtype,
                              comm, request, COLL_MODE_PERSISTENT, "MPI_Alltoallv_init_c");
}

#pragma weak MPI_Alltoallw = PMPI_Alltoallw
int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Alltoallw");
    return mpi_alltoallw_impl(sendbuf, coll_vec_int(sendcounts), coll_vec_int(sdispls), sendtypes,
                              recvbuf, coll_vec_int(recvcounts), coll_vec_int(rdispls), recvtypes,
                              comm, NULL, COLL_MODE_BLOCKING, "MPI_Alltoallw");
}

#pragma weak MPI_Alltoallw_c = PMPI_Alltoallw_c
int PMPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Alltoallw_c");
    return mpi_alltoallw_impl(sendbuf, coll_vec_count(sendcounts), coll_vec_aint(sdispls),
                              sendtypes, recvbuf, coll_vec_count(recvcounts),
                              coll_vec_aint(rdispls), recvtypes, comm, NULL, COLL_MODE_BLOCKING,
                              "MPI_Alltoallw_c");
}

#pragma weak MPI_Ialltoallw = PMPI_Ialltoallw
int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ialltoallw");
    return mpi_alltoallw_impl(sendbuf, coll_vec_int(sendcounts), coll_vec_int(sdispls), sendtypes,
                              recvbuf, coll_vec_int(recvcounts), coll_vec_int(rdispls), recvtypes,
                              comm, request, COLL_MODE_NONBLOCKING, "MPI_Ialltoallw");
}

#pragma weak MPI_Ialltoallw_c = PMPI_Ialltoallw_c
int PMPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                      MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ialltoallw_c");
    return mpi_alltoallw_impl(sendbuf, coll_vec_count(sendcounts), coll_vec_aint(sdispls),
                              sendtypes, recvbuf, coll_vec_count(recvcounts),
                              coll_vec_aint(rdispls), recvtypes, comm, request,
                              COLL_MODE_NONBLOCKING, "MPI_Ialltoallw_c");
}

#pragma weak MPI_Alltoallw_init = PMPI_Alltoallw_init
int PMPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Alltoallw_init");
    return mpi_alltoallw_impl(sendbuf, coll_vec_int(sendcounts), coll_vec_int(sdispls), sendtypes,
                              recvbuf, coll_vec_int(recvcounts), coll_vec_int(rdispls), recvtypes,
                              comm, request, COLL_MODE_PERSISTENT, "MPI_Alltoallw_init");
}

#pragma weak MPI_Alltoallw_init_c = PMPI_Alltoallw_init_c
int PMPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Alltoallw_init_c");
    return mpi_alltoallw_impl(sendbuf, coll_vec_count(sendcounts), coll_vec_aint(sdispls),
                              sendtypes, recvbuf, coll_vec_count(recvcounts),
                              coll_vec_aint(rdispls), recvtypes, comm, request,
                              COLL_MODE_PERSISTENT, "MPI_Alltoallw_init_c");
}

#pragma weak MPI_Neighbor_allgather = PMPI_Neighbor_allgather
int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_allgather");
    return mpi_neighbor_allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       comm, NULL, COLL_MODE_BLOCKING, "MPI_Neighbor_allgather");
}

#pragma weak MPI_Neighbor_allgather_c = PMPI_Neighbor_allgather_c
int PMPI_Neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_allgather_c");
    return mpi_neighbor_allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       comm, NULL, COLL_MODE_BLOCKING, "MPI_Neighbor_allgather_c");
}

#pragma weak MPI_Ineighbor_allgather = PMPI_Ineighbor_allgather
int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_allgather");
    return mpi_neighbor_allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       comm, request, COLL_MODE_NONBLOCKING,
                                       "MPI_Ineighbor_allgather");
}

#pragma weak MPI_Ineighbor_allgather_c = PMPI_Ineighbor_allgather_c
int PMPI_Ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_allgather_c");
    return mpi_neighbor_allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       comm, request, COLL_MODE_NONBLOCKING,
                                       "MPI_Ineighbor_allgather_c");
}

#pragma weak MPI_Neighbor_allgather_init = PMPI_Neighbor_allgather_init
int PMPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_allgather_init");
    return mpi_neighbor_allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       comm, request, COLL_MODE_PERSISTENT,
                                       "MPI_Neighbor_allgather_init");
}

#pragma weak MPI_Neighbor_allgather_init_c = PMPI_Neighbor_allgather_init_c
int PMPI_Neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_allgather_init_c");
    return mpi_neighbor_allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       comm, request, COLL_MODE_PERSISTENT,
                                       "MPI_Neighbor_allgather_init_c");
}

#pragma weak MPI_Neighbor_allgatherv = PMPI_Neighbor_allgatherv
int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_allgatherv");
    return mpi_neighbor_allgatherv_impl(sendbuf, sendcount, sendtype, recvbuf,
                                        coll_vec_int(recvcounts), coll_vec_int(displs), recvtype,
                                        comm, NULL, COLL_MODE_BLOCKING, "MPI_Neighbor_allgatherv");
}

#pragma weak MPI_Neighbor_allgatherv_c = PMPI_Neighbor_allgatherv_c
int PMPI_Neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                               MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_allgatherv_c");
    return mpi_neighbor_allgatherv_impl(
        sendbuf, sendcount, sendtype, recvbuf, coll_vec_count(recvcounts), coll_vec_aint(displs),
        recvtype, comm, NULL, COLL_MODE_BLOCKING, "MPI_Neighbor_allgatherv_c");
}

#pragma weak MPI_Ineighbor_allgatherv = PMPI_Ineighbor_allgatherv
int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_allgatherv");
    return mpi_neighbor_allgatherv_impl(
        sendbuf, sendcount, sendtype, recvbuf, coll_vec_int(recvcounts), coll_vec_int(displs),
        recvtype, comm, request, COLL_MODE_NONBLOCKING, "MPI_Ineighbor_allgatherv");
}

#pragma weak MPI_Ineighbor_allgatherv_c = PMPI_Ineighbor_allgatherv_c
int PMPI_Ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                void *recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_allgatherv_c");
    return mpi_neighbor_allgatherv_impl(
        sendbuf, sendcount, sendtype, recvbuf, coll_vec_count(recvcounts), coll_vec_aint(displs),
        recvtype, comm, request, COLL_MODE_NONBLOCKING, "MPI_Ineighbor_allgatherv_c");
}

#pragma weak MPI_Neighbor_allgatherv_init = PMPI_Neighbor_allgatherv_init
int PMPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_allgatherv_init");
    return mpi_neighbor_allgatherv_impl(
        sendbuf, sendcount, sendtype, recvbuf, coll_vec_int(recvcounts), coll_vec_int(displs),
        recvtype, comm, request, COLL_MODE_PERSISTENT, "MPI_Neighbor_allgatherv_init");
}

#pragma weak MPI_Neighbor_allgatherv_init_c = PMPI_Neighbor_allgatherv_init_c
int PMPI_Neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                    void *recvbuf, const MPI_Count recvcounts[],
                                    const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                    MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_allgatherv_init_c");
    return mpi_neighbor_allgatherv_impl(
        sendbuf, sendcount, sendtype, recvbuf, coll_vec_count(recvcounts), coll_vec_aint(displs),
        recvtype, comm, request, COLL_MODE_PERSISTENT, "MPI_Neighbor_allgatherv_init_c");
}

#pragma weak MPI_Neighbor_alltoall = PMPI_Neighbor_alltoall
int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_alltoall");
    return mpi_neighbor_alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      comm, NULL, COLL_MODE_BLOCKING, "MPI_Neighbor_alltoall");
}

#pragma weak MPI_Neighbor_alltoall_c = PMPI_Neighbor_alltoall_c
int PMPI_Neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_alltoall_c");
    return mpi_neighbor_alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      comm, NULL, COLL_MODE_BLOCKING, "MPI_Neighbor_alltoall_c");
}

#pragma weak MPI_Ineighbor_alltoall = PMPI_Ineighbor_alltoall
int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_alltoall");
    return mpi_neighbor_alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      comm, request, COLL_MODE_NONBLOCKING,
                                      "MPI_Ineighbor_alltoall");
}

#pragma weak MPI_Ineighbor_alltoall_c = PMPI_Ineighbor_alltoall_c
int PMPI_Ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_alltoall_c");
    return mpi_neighbor_alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      comm, request, COLL_MODE_NONBLOCKING,
                                      "MPI_Ineighbor_alltoall_c");
}

#pragma weak MPI_Neighbor_alltoall_init = PMPI_Neighbor_alltoall_init
int PMPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_alltoall_init");
    return mpi_neighbor_alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      comm, request, COLL_MODE_PERSISTENT,
                                      "MPI_Neighbor_alltoall_init");
}

#pragma weak MPI_Neighbor_alltoall_init_c = PMPI_Neighbor_alltoall_init_c
int PMPI_Neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_alltoall_init_c");
    return mpi_neighbor_alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      comm, request, COLL_MODE_PERSISTENT,
                                      "MPI_Neighbor_alltoall_init_c");
}

#pragma weak MPI_Neighbor_alltoallv = PMPI_Neighbor_alltoallv
int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_alltoallv");
    return mpi_neighbor_alltoallv_impl(sendbuf, coll_vec_int(sendcounts), coll_vec_int(sdispls),
                                       sendtype, recvbuf, coll_vec_int(recvcounts),
                                       coll_vec_int(rdispls), recvtype, comm, NULL,
                                       COLL_MODE_BLOCKING, "MPI_Neighbor_alltoallv");
}

#pragma weak MPI_Neighbor_alltoallv_c = PMPI_Neighbor_alltoallv_c
int PMPI_Neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_alltoallv_c");
    return mpi_neighbor_alltoallv_impl(sendbuf, coll_vec_count(sendcounts), coll_vec_aint(sdispls),
                                       sendtype, recvbuf, coll_vec_count(recvcounts),
                                       coll_vec_aint(rdispls), recvtype, comm, NULL,
                                       COLL_MODE_BLOCKING, "MPI_Neighbor_alltoallv_c");
}

#pragma weak MPI_Ineighbor_alltoallv = PMPI_Ineighbor_alltoallv
int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_alltoallv");
    return mpi_neighbor_alltoallv_impl(sendbuf, coll_vec_int(sendcounts), coll_vec_int(sdispls),
                                       sendtype, recvbuf, coll_vec_int(recvcounts),
                                       coll_vec_int(rdispls), recvtype, comm, request,
                                       COLL_MODE_NONBLOCKING, "MPI_Ineighbor_alltoallv");
}

#pragma weak MPI_Ineighbor_alltoallv_c = PMPI_Ineighbor_alltoallv_c
int PMPI_Ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_alltoallv_c");
    return mpi_neighbor_alltoallv_impl(sendbuf, coll_vec_count(sendcounts), coll_vec_aint(sdispls),
                                       sendtype, recvbuf, coll_vec_count(recvcounts),
                                       coll_vec_aint(rdispls), recvtype, comm, request,
                                       COLL_MODE_NONBLOCKING, "MPI_Ineighbor_alltoallv_c");
}

#pragma weak MPI_Neighbor_alltoallv_init = PMPI_Neighbor_alltoallv_init
int PMPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_alltoallv_init");
    return mpi_neighbor_alltoallv_impl(sendbuf, coll_vec_int(sendcounts), coll_vec_int(sdispls),
                                       sendtype, recvbuf, coll_vec_int(recvcounts),
                                       coll_vec_int(rdispls), recvtype, comm, request,
                                       COLL_MODE_PERSISTENT, "MPI_Neighbor_alltoallv_init");
}

#pragma weak MPI_Neighbor_alltoallv_init_c = PMPI_Neighbor_alltoallv_init_c
int PMPI_Neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                   const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_alltoallv_init_c");
    return mpi_neighbor_alltoallv_impl(sendbuf, coll_vec_count(sendcounts), coll_vec_aint(sdispls),
                                       sendtype, recvbuf, coll_vec_count(recvcounts),
                                       coll_vec_aint(rdispls), recvtype, comm, request,
                                       COLL_MODE_PERSISTENT, "MPI_Neighbor_alltoallv_init_c");
}

#pragma weak MPI_Neighbor_alltoallw = PMPI_Neighbor_alltoallw
int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_alltoallw");
    return mpi_neighbor_alltoallw_impl(sendbuf, coll_vec_int(sendcounts), coll_vec_aint(sdispls),
                                       sendtypes, recvbuf, coll_vec_int(recvcounts),
                                       coll_vec_aint(rdispls), recvtypes, comm, NULL,
                                       COLL_MODE_BLOCKING, "MPI_Neighbor_alltoallw");
}

#pragma weak MPI_Neighbor_alltoallw_c = PMPI_Neighbor_alltoallw_c
int PMPI_Neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Neighbor_alltoallw_c");
    return mpi_neighbor_alltoallw_impl(sendbuf, coll_vec_count(sendcounts), coll_vec_aint(sdispls),
                                       sendtypes, recvbuf, coll_vec_count(recvcounts),
                                       coll_vec_aint(rdispls), recvtypes, comm, NULL,
                                       COLL_MODE_BLOCKING, "MPI_Neighbor_alltoallw_c");
}

#pragma weak MPI_Ineighbor_alltoallw = PMPI_Ineighbor_alltoallw
int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                             MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_alltoallw");
    return mpi_neighbor_alltoallw_impl(sendbuf, coll_vec_int(sendcounts), coll_vec_aint(sdispls),
                                       sendtypes, recvbuf, coll_vec_int(recvcounts),
                                       coll_vec_aint(rdispls), recvtypes, comm, request,
                                       COLL_MODE_NONBLOCKING, "MPI_Ineighbor_alltoallw");
}

#pragma weak MPI_Ineighbor_alltoallw_c = PMPI_Ineighbor_alltoallw_c
int PMPI_Ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                               MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ineighbor_alltoallw_c");
    return mpi_neighbor_alltoallw_impl(sendbuf, coll_vec_count(sendcounts), coll_vec_aint(sdispls),
                                       sendtypes, recvbuf, coll_vec_count(recvcounts),
                                       coll_vec_aint(rdispls), recvtypes, comm, request,
                                       COLL_MODE_NONBLOCKING, "MPI_Ineighbor_alltoallw_c");
}

#pragma weak MPI_Neighbor_alltoallw_init = PMPI_Neighbor_alltoallw_init
int PMPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_alltoallw_init");
    return mpi_neighbor_alltoallw_impl(sendbuf, coll_vec_int(sendcounts), coll_vec_aint(sdispls),
                                       sendtypes, recvbuf, coll_vec_int(recvcounts),
                                       coll_vec_aint(rdispls), recvtypes, comm, request,
                                       COLL_MODE_PERSISTENT, "MPI_Neighbor_alltoallw_init");
}

#pragma weak MPI_Neighbor_alltoallw_init_c = PMPI_Neighbor_alltoallw_init_c
int PMPI_Neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are read */
    COMPI_CHECK_INIT("MPI_Neighbor_alltoallw_init_c");
    return mpi_neighbor_alltoallw_impl(sendbuf, coll_vec_count(sendcounts), coll_vec_aint(sdispls),
                                       sendtypes, recvbuf, coll_vec_count(recvcounts),
                                       coll_vec_aint(rdispls), recvtypes, comm, request,
                                       COLL_MODE_PERSISTENT, "MPI_Neighbor_alltoallw_init_c");
}
