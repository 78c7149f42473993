/*
 * isendrecv_api.c -- MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4): a send and a receive
 * under one request, a pair of PML requests joined to it (pml_join, core/pml/pml.h): the
 * request completes when both have, its status is the receive's and its error the first
 * of either.  Both carry the user's tags on the communicator's own context, so they match
 * ordinary sends and receives; the receive is posted first, so an exchange with oneself
 * cannot wait on itself.  Nothing runs between them and nothing polls for them: each
 * reports to the joined request as it completes.
 *
 * MPI_Isendrecv_replace packs the buffer aside first (the joined request frees the copy
 * when it is released), then sends the copy and receives into the buffer.  MPI_PROC_NULL
 * on either side leaves that operation out; with no receive the status is MPI_PROC_NULL's.
 */
#include "core/mpi/args.h"
#include "core/mpi/req_handle.h"

#include <stdlib.h>

/* the outgoing data of a replace, packed: *sbuf_p, *scount_p (bytes), *sdt_p (bytes) */
static compi_status_t replace_copy(compi_request_t *join, const void *buf, MPI_Count count,
                                   compi_datatype_t *dt, const void **sbuf_p, size_t *scount_p,
                                   compi_datatype_t **sdt_p)
{
    size_t bytes = (size_t)count * dt->size;
    void *tmp = malloc(bytes > 0 ? bytes : 1);
    if (tmp == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    dt_pack(dt, buf, (size_t)count, 0, tmp, bytes);
    pml_join_adopt(join, tmp);
    *sbuf_p = tmp;
    *scount_p = bytes;
    *sdt_p = dt_byte();
    return COMPI_OK;
}

static int isendrecv_any(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                         int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                         int source, int recvtag, MPI_Comm comm, MPI_Request *request, int replace,
                         const char *fn)
{
    compi_comm_t *c = NULL;
    compi_datatype_t *sdt = NULL, *rdt = NULL;
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
    compi_request_t *join = pml_join_new(c);
    if (join == NULL) {
        return mpi_err_raise(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    size_t scount = (size_t)sendcount;
    compi_status_t st = COMPI_OK;
    if (replace && dest != MPI_PROC_NULL) {
        st = replace_copy(join, recvbuf, recvcount, rdt, &sendbuf, &scount, &sdt);
    }
    compi_request_t *r = NULL, *posted = NULL;
    if (st == COMPI_OK && source != MPI_PROC_NULL &&
        (st = pml_irecv(recvbuf, (size_t)recvcount, rdt, source, recvtag, c, &r)) == COMPI_OK) {
        posted = r->complete ? NULL : r;
        pml_join(join, r);
    }
    if (st == COMPI_OK && dest != MPI_PROC_NULL &&
        (st = pml_isend(sendbuf, scount, sdt, dest, sendtag, c, PML_SEND_STANDARD, &r)) ==
            COMPI_OK) {
        pml_join(join, r);
    }
    if (st != COMPI_OK && posted != NULL) {
        /* the send could not start (nothing progressed since the receive was posted, so
           it is still there): take the receive back, lest it match a message */
        pml_cancel(posted);
    }
    pml_join_end(join);
    if (st != COMPI_OK) {
        pml_request_free(join);
        return mpi_raise_p2p_status(c, st, fn);
    }
    return mpi_req_expose(c, join, request, fn);
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

#pragma weak MPI_Isendrecv_c = PMPI_Isendrecv_c
int PMPI_Isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                     int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    COMPI_API_LOCK();
    return isendrecv_any(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                         source, recvtag, comm, request, 0, "MPI_Isendrecv_c");
}

#pragma weak MPI_Isendrecv_replace = PMPI_Isendrecv_replace
int PMPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    COMPI_API_LOCK();
    return isendrecv_any(NULL, 0, MPI_DATATYPE_NULL, dest, sendtag, buf, count, datatype, source,
                         recvtag, comm, request, 1, "MPI_Isendrecv_replace");
}

#pragma weak MPI_Isendrecv_replace_c = PMPI_Isendrecv_replace_c
int PMPI_Isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                             int sendtag, int source, int recvtag, MPI_Comm comm,
                             MPI_Request *request)
{
    COMPI_API_LOCK();
    return isendrecv_any(NULL, 0, MPI_DATATYPE_NULL, dest, sendtag, buf, count, datatype, source,
                         recvtag, comm, request, 1, "MPI_Isendrecv_replace_c");
}
