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
 *
 * The entry points are generated (core/mpi/gen/isendrecv.c, made by tools/mpigen/cgen.py
 * and included at the end): they check the arguments and call the x_impl here.
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

/* both: for a replace, recvbuf, recvcount and rdt are the buffer's, sendbuf NULL */
static int isendrecv_any(const void *sendbuf, size_t scount, compi_datatype_t *sdt, int dest,
                         int sendtag, void *recvbuf, MPI_Count recvcount, compi_datatype_t *rdt,
                         int source, int recvtag, compi_comm_t *c, MPI_Request *request,
                         int replace, const char *fn)
{
    compi_request_t *join = pml_join_new(c);
    if (join == NULL) {
        return mpi_err_raise(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
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

static int isendrecv_impl(const void *sendbuf, MPI_Count sendcount, compi_datatype_t *sendtype,
                          int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
                          compi_datatype_t *recvtype, int source, int recvtag, compi_comm_t *comm,
                          MPI_Request *request, const char *fn)
{
    return isendrecv_any(sendbuf, (size_t)sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                         recvtype, source, recvtag, comm, request, 0, fn);
}

static int isendrecv_replace_impl(void *buf, MPI_Count count, compi_datatype_t *datatype, int dest,
                                  int sendtag, int source, int recvtag, compi_comm_t *comm,
                                  MPI_Request *request, const char *fn)
{
    return isendrecv_any(NULL, 0, NULL, dest, sendtag, buf, count, datatype, source, recvtag, comm,
                         request, 1, fn);
}

#include "core/mpi/gen/isendrecv.c"
