/*
 * isendrecv_api.c -- MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4): a send and a receive
 * under one request, as a point-to-point schedule of the schedule engine
 * (core/coll/sched/sched.h, coll_sched_p2p): the two steps carry the user's tags on the
 * communicator's own context, so they match ordinary sends and receives, and the
 * request's status is the receive's.  The schedule takes no collective sequence number,
 * so nonblocking collectives on the same communicator are not disturbed.
 *
 * MPI_Isendrecv_replace copies the buffer into the schedule's scratch first (a round
 * without communication, run when the request starts), then sends the copy and receives
 * into the buffer.  MPI_PROC_NULL on either side leaves that step out; with no receive the
 * status is MPI_PROC_NULL's.
 */
#include "core/coll/sched/sched.h"
#include "core/mpi/args.h"
#include "core/mpi/req_handle.h"

static int isendrecv_any(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                         int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                         int source, int recvtag, MPI_Comm comm, MPI_Request *request,
                         int replace, const char *fn)
{
    compi_comm_t *c = NULL;
    compi_datatype_t *sdt = NULL, *rdt = NULL;
    compi_request_t *req = NULL;
    COMPI_CHECK_INIT(fn);
    if (request == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "request pointer is NULL");
    }
    int rc = mpi_arg_comm(comm, fn, &c);
    if (rc == MPI_SUCCESS && !replace) {
        rc = mpi_arg_data(c, sendbuf, sendcount, sendtype, MPI_ARG_SEND, fn, &sdt);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_data(c, recvbuf, recvcount, recvtype, MPI_ARG_RECV, fn, &rdt);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_dest(c, dest, sendtag, fn);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_source(c, source, recvtag, fn);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    coll_call_t call = {.mode = COLL_MODE_NONBLOCKING, .comm = c, .root = -1};
    coll_sched_t *s = coll_sched_new(&call);
    if (s == NULL) {
        return mpi_err_raise(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    coll_sched_p2p(s);
    if (replace) {
        sdt = rdt;
        sendcount = recvcount;
        if (dest != MPI_PROC_NULL) {
            /* the outgoing data, taken before anything arrives in the buffer */
            void *tmp = coll_sched_scratch(s, rdt, (size_t)recvcount);
            coll_sched_copy(s, recvbuf, (size_t)recvcount, rdt, tmp, (size_t)recvcount, rdt);
            coll_sched_round(s);
            sendbuf = tmp;
        }
    }
    if (source != MPI_PROC_NULL) {
        coll_sched_recv_tag(s, recvbuf, (size_t)recvcount, rdt, source, recvtag);
    }
    if (dest != MPI_PROC_NULL) {
        coll_sched_send_tag(s, sendbuf, (size_t)sendcount, sdt, dest, sendtag);
    }
    compi_status_t st = coll_sched_start(s, &req);
    if (st != COMPI_OK) {
        return mpi_raise_status(c, st, fn, NULL);
    }
    return mpi_req_expose(c, req, request, fn);
}

#pragma weak MPI_Isendrecv = PMPI_Isendrecv
int PMPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                   int recvtag, MPI_Comm comm, MPI_Request *request)
{
    COMPI_API_LOCK();
    return isendrecv_any(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                         recvtype, source, recvtag, comm, request, 0, "MPI_Isendrecv");
}

#pragma weak MPI_Isendrecv_replace = PMPI_Isendrecv_replace
int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    COMPI_API_LOCK();
    return isendrecv_any(NULL, 0, MPI_DATATYPE_NULL, dest, sendtag, buf, count, datatype, source,
                         recvtag, comm, request, 1, "MPI_Isendrecv_replace");
}
