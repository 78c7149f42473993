/*
 * coll_impl.h -- the collectives behind their MPI entry points: one `mpi_<name>_impl`
 * per collective (MPI_Bcast: mpi_bcast_impl, MPI_Neighbor_alltoallw:
 * mpi_neighbor_alltoallw_impl), serving all its forms: blocking, nonblocking (MPI_I...),
 * persistent (..._init), each with int and large-count (_c) arguments.
 *
 *   PMPI_Ibcast_c(...) -> COMPI_CHECK_INIT -> mpi_bcast_impl(..., request,
 *                                                           COLL_MODE_NONBLOCKING, fn)
 *     -> checks (mpi_arg_*, core/mpi/args.h) -> coll_call_t on the stack -> trampoline
 *
 * The impl contract: the standard's arguments in the standard's order, with every count
 * an MPI_Count and every count or displacement array a coll_vec_t (core/coll/coll.h)
 * that views the program's int, MPI_Count or MPI_Aint array where it is, then the request
 * pointer (NULL when blocking), the mode and the name of the entry point for messages.
 * A persistent form's MPI_Info is not read and not passed.  The impl makes every check
 * (the order decides which error a call with several bad arguments reports, and tests
 * pin it) and allocates nothing, except alltoallw's datatype tables beyond a stack array.
 *
 * The impls live in coll_api.c (barrier, bcast, reductions), coll_move_api.c (gather,
 * scatter, allgather, alltoall and their v/w variants) and neighbor_api.c; the entry
 * points, one line each, in coll_entry.c.
 */
#ifndef COMPI_COLL_IMPL_H
#define COMPI_COLL_IMPL_H

#include "core/coll/coll.h"
#include "core/mpi/args.h"
#include "core/mpi/req_handle.h"
#include "trampolines/tramp.h"

#include <mpi.h>

/* the argument list every impl ends with */
#define MPI_COLL_IMPL_TAIL MPI_Request *req, coll_mode_t mode, const char *fn

int mpi_barrier_impl(MPI_Comm comm, MPI_COLL_IMPL_TAIL);
int mpi_bcast_impl(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_COLL_IMPL_TAIL);
int mpi_reduce_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, int root, MPI_Comm comm, MPI_COLL_IMPL_TAIL);
int mpi_allreduce_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_COLL_IMPL_TAIL);
int mpi_scan_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm, MPI_COLL_IMPL_TAIL);
int mpi_exscan_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, MPI_COLL_IMPL_TAIL);
int mpi_reduce_scatter_block_impl(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  MPI_COLL_IMPL_TAIL);
int mpi_reduce_scatter_impl(const void *sendbuf, void *recvbuf, coll_vec_t recvcounts,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_COLL_IMPL_TAIL);

int mpi_gather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_COLL_IMPL_TAIL);
int mpi_gatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     coll_vec_t recvcounts, coll_vec_t displs, MPI_Datatype recvtype, int root,
                     MPI_Comm comm, MPI_COLL_IMPL_TAIL);
int mpi_scatter_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     MPI_COLL_IMPL_TAIL);
int mpi_scatterv_impl(const void *sendbuf, coll_vec_t sendcounts, coll_vec_t displs,
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_COLL_IMPL_TAIL);
int mpi_allgather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       MPI_COLL_IMPL_TAIL);
int mpi_allgatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, coll_vec_t recvcounts, coll_vec_t displs,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_COLL_IMPL_TAIL);
int mpi_alltoall_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_COLL_IMPL_TAIL);
int mpi_alltoallv_impl(const void *sendbuf, coll_vec_t sendcounts, coll_vec_t sdispls,
                       MPI_Datatype sendtype, void *recvbuf, coll_vec_t recvcounts,
                       coll_vec_t rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                       MPI_COLL_IMPL_TAIL);
int mpi_alltoallw_impl(const void *sendbuf, coll_vec_t sendcounts, coll_vec_t sdispls,
                       const MPI_Datatype sendtypes[], void *recvbuf, coll_vec_t recvcounts,
                       coll_vec_t rdispls, const MPI_Datatype recvtypes[], MPI_Comm comm,
                       MPI_COLL_IMPL_TAIL);

int mpi_neighbor_allgather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_COLL_IMPL_TAIL);
int mpi_neighbor_allgatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, coll_vec_t recvcounts, coll_vec_t displs,
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_COLL_IMPL_TAIL);
int mpi_neighbor_alltoall_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                               MPI_Comm comm, MPI_COLL_IMPL_TAIL);
int mpi_neighbor_alltoallv_impl(const void *sendbuf, coll_vec_t sendcounts, coll_vec_t sdispls,
                                MPI_Datatype sendtype, void *recvbuf, coll_vec_t recvcounts,
                                coll_vec_t rdispls, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_COLL_IMPL_TAIL);
int mpi_neighbor_alltoallw_impl(const void *sendbuf, coll_vec_t sendcounts, coll_vec_t sdispls,
                                const MPI_Datatype sendtypes[], void *recvbuf,
                                coll_vec_t recvcounts, coll_vec_t rdispls,
                                const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_COLL_IMPL_TAIL);

/* ---- what the impls share --------------------------------------------------------- */

/* does this rank hold the root's side of a rooted call */
static inline int mpi_coll_is_root(const compi_comm_t *c, int root)
{
    return comm_is_inter(c) ? root == MPI_ROOT : c->rank == root;
}

/* a trampoline's status as an MPI error on the call's communicator; a failed miss comes
   with its message (the same on every rank), returned as a code of its own whose
   MPI_Error_string is that message */
static inline int mpi_coll_raise(const coll_call_t *call, compi_status_t st, const char *fn)
{
    int report = 1;
    const char *what = tramp_error_take(&report);
    if (what != NULL) {
        return mpi_err_raise_text(call->comm, mpi_err_class_of(st), fn, what, report);
    }
    return mpi_raise_status(call->comm, st, fn, coll_kind_name(call->kind));
}

/* Run the call: blocking through tramp_run(); nonblocking or persistent (call->mode)
   through tramp_start(), the request's handle in *req.  Without a handle the collective
   still runs on (the other ranks take part): its request is freed and goes when the
   schedule ends. */
static inline int mpi_coll_go(coll_call_t *call, MPI_Request *req, const char *fn)
{
    compi_status_t st;
    if (compi_likely(call->mode == COLL_MODE_BLOCKING)) {
        st = tramp_run(call);
        return compi_likely(st == COMPI_OK) ? MPI_SUCCESS : mpi_coll_raise(call, st, fn);
    }
    compi_request_t *r = NULL;
    st = tramp_start(call, &r);
    if (st != COMPI_OK) {
        return mpi_coll_raise(call, st, fn);
    }
    return mpi_req_expose(call->comm, r, req, fn);
}

/* the request pointer of a nonblocking or persistent call, checked first */
static inline int mpi_coll_request(MPI_Request *req, coll_mode_t mode, const char *fn)
{
    return mode != COLL_MODE_BLOCKING ? mpi_arg_request_out(NULL, req, fn) : MPI_SUCCESS;
}

#endif
