/*
 * pt2pt_api.c -- MPI point-to-point sends and receives: the implementations (x_impl) the
 * generated entry points call, once their arguments are checked (core/mpi/gen/pt2pt.c,
 * made by tools/mpigen/cgen.py and included at the end), the buffered-send buffer's too.
 *
 * All send modes share two helpers (blocking; nonblocking and persistent).  MPI_Rsend is
 * a standard send: a correct program has the receive posted, and the eager/rendezvous
 * protocols deliver it either way.
 */
#include "core/mpi/args.h"
#include "core/mpi/req_handle.h"

#include <stdlib.h>

/* a send of any mode, blocking */
static inline int send_mode(const void *buf, MPI_Count count, compi_datatype_t *dt, int dest,
                            int tag, compi_comm_t *c, pml_send_mode_t mode, const char *fn)
{
    compi_status_t st = pml_send(buf, (size_t)count, dt, dest, tag, c, mode);
    if (compi_unlikely(st != COMPI_OK)) {
        return mpi_raise_p2p_status(c, st, fn);
    }
    return MPI_SUCCESS;
}

/* a send of any mode, nonblocking or persistent */
static inline int isend_mode(const void *buf, MPI_Count count, compi_datatype_t *dt, int dest,
                             int tag, compi_comm_t *c, pml_send_mode_t mode, int persistent,
                             MPI_Request *request, const char *fn)
{
    compi_request_t *req;
    compi_status_t st = persistent ? pml_send_init(buf, (size_t)count, dt, dest, tag, c, mode, &req)
                                   : pml_isend(buf, (size_t)count, dt, dest, tag, c, mode, &req);
    if (compi_unlikely(st != COMPI_OK)) {
        return mpi_raise_p2p_status(c, st, fn);
    }
    return mpi_req_expose(c, req, request, fn);
}

static int send_impl(const void *buf, MPI_Count count, compi_datatype_t *datatype, int dest,
                     int tag, compi_comm_t *comm, const char *fn)
{
    return send_mode(buf, count, datatype, dest, tag, comm, PML_SEND_STANDARD, fn);
}

static int ssend_impl(const void *buf, MPI_Count count, compi_datatype_t *datatype, int dest,
                      int tag, compi_comm_t *comm, const char *fn)
{
    return send_mode(buf, count, datatype, dest, tag, comm, PML_SEND_SYNC, fn);
}

static int rsend_impl(const void *buf, MPI_Count count, compi_datatype_t *datatype, int dest,
                      int tag, compi_comm_t *comm, const char *fn)
{
    return send_mode(buf, count, datatype, dest, tag, comm, PML_SEND_READY, fn);
}

static int bsend_impl(const void *buf, MPI_Count count, compi_datatype_t *datatype, int dest,
                      int tag, compi_comm_t *comm, const char *fn)
{
    return send_mode(buf, count, datatype, dest, tag, comm, PML_SEND_BUFFERED, fn);
}

static int isend_impl(const void *buf, MPI_Count count, compi_datatype_t *datatype, int dest,
                      int tag, compi_comm_t *comm, MPI_Request *request, const char *fn)
{
    return isend_mode(buf, count, datatype, dest, tag, comm, PML_SEND_STANDARD, 0, request, fn);
}

static int issend_impl(const void *buf, MPI_Count count, compi_datatype_t *datatype, int dest,
                       int tag, compi_comm_t *comm, MPI_Request *request, const char *fn)
{
    return isend_mode(buf, count, datatype, dest, tag, comm, PML_SEND_SYNC, 0, request, fn);
}

static int irsend_impl(const void *buf, MPI_Count count, compi_datatype_t *datatype, int dest,
                       int tag, compi_comm_t *comm, MPI_Request *request, const char *fn)
{
    return isend_mode(buf, count, datatype, dest, tag, comm, PML_SEND_READY, 0, request, fn);
}

static int ibsend_impl(const void *buf, MPI_Count count, compi_datatype_t *datatype, int dest,
                       int tag, compi_comm_t *comm, MPI_Request *request, const char *fn)
{
    return isend_mode(buf, count, datatype, dest, tag, comm, PML_SEND_BUFFERED, 0, request, fn);
}

static int send_init_impl(const void *buf, MPI_Count count, compi_datatype_t *datatype, int dest,
                          int tag, compi_comm_t *comm, MPI_Request *request, const char *fn)
{
    return isend_mode(buf, count, datatype, dest, tag, comm, PML_SEND_STANDARD, 1, request, fn);
}

static int ssend_init_impl(const void *buf, MPI_Count count, compi_datatype_t *datatype, int dest,
                           int tag, compi_comm_t *comm, MPI_Request *request, const char *fn)
{
    return isend_mode(buf, count, datatype, dest, tag, comm, PML_SEND_SYNC, 1, request, fn);
}

static int rsend_init_impl(const void *buf, MPI_Count count, compi_datatype_t *datatype, int dest,
                           int tag, compi_comm_t *comm, MPI_Request *request, const char *fn)
{
    return isend_mode(buf, count, datatype, dest, tag, comm, PML_SEND_READY, 1, request, fn);
}

static int bsend_init_impl(const void *buf, MPI_Count count, compi_datatype_t *datatype, int dest,
                           int tag, compi_comm_t *comm, MPI_Request *request, const char *fn)
{
    return isend_mode(buf, count, datatype, dest, tag, comm, PML_SEND_BUFFERED, 1, request, fn);
}

static int recv_impl(void *buf, MPI_Count count, compi_datatype_t *datatype, int source, int tag,
                     compi_comm_t *comm, MPI_Status *status, const char *fn)
{
    pml_result_t res;
    compi_status_t st = pml_recv(buf, (size_t)count, datatype, source, tag, comm, &res);
    mpi_status_set(status, &res);
    if (compi_unlikely(st != COMPI_OK)) {
        return mpi_raise_p2p_status(comm, st, fn);
    }
    return MPI_SUCCESS;
}

static inline int irecv_mode(void *buf, MPI_Count count, compi_datatype_t *dt, int source, int tag,
                             compi_comm_t *c, int persistent, MPI_Request *request, const char *fn)
{
    compi_request_t *req;
    compi_status_t st = persistent ? pml_recv_init(buf, (size_t)count, dt, source, tag, c, &req)
                                   : pml_irecv(buf, (size_t)count, dt, source, tag, c, &req);
    if (compi_unlikely(st != COMPI_OK)) {
        return mpi_raise_p2p_status(c, st, fn);
    }
    return mpi_req_expose(c, req, request, fn);
}

static int irecv_impl(void *buf, MPI_Count count, compi_datatype_t *datatype, int source, int tag,
                      compi_comm_t *comm, MPI_Request *request, const char *fn)
{
    return irecv_mode(buf, count, datatype, source, tag, comm, 0, request, fn);
}

static int recv_init_impl(void *buf, MPI_Count count, compi_datatype_t *datatype, int source,
                          int tag, compi_comm_t *comm, MPI_Request *request, const char *fn)
{
    return irecv_mode(buf, count, datatype, source, tag, comm, 1, request, fn);
}

/* the exchange of both Sendrecvs; the receive is posted first: a Sendrecv with oneself
   must not wait on itself */
static int sendrecv_run(compi_comm_t *c, const void *sbuf, size_t scount, compi_datatype_t *sdt,
                        int dest, int sendtag, void *rbuf, size_t rcount, compi_datatype_t *rdt,
                        int source, int recvtag, MPI_Status *status, const char *fn)
{
    compi_request_t *rreq;
    compi_status_t st = pml_irecv(rbuf, rcount, rdt, source, recvtag, c, &rreq);
    if (st != COMPI_OK) {
        return mpi_raise_p2p_status(c, st, fn);
    }
    compi_status_t sst = pml_send(sbuf, scount, sdt, dest, sendtag, c, PML_SEND_STANDARD);
    pml_result_t res;
    st = pml_wait(rreq, &res);
    mpi_status_set(status, &res);
    pml_request_free(rreq);
    if (sst != COMPI_OK) {
        return mpi_raise_p2p_status(c, sst, fn);
    }
    if (st != COMPI_OK) {
        return mpi_raise_p2p_status(c, st, fn);
    }
    return MPI_SUCCESS;
}

static int sendrecv_impl(const void *sendbuf, MPI_Count sendcount, compi_datatype_t *sendtype,
                         int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
                         compi_datatype_t *recvtype, int source, int recvtag, compi_comm_t *comm,
                         MPI_Status *status, const char *fn)
{
    return sendrecv_run(comm, sendbuf, (size_t)sendcount, sendtype, dest, sendtag, recvbuf,
                        (size_t)recvcount, recvtype, source, recvtag, status, fn);
}

static int sendrecv_replace_impl(void *buf, MPI_Count count, compi_datatype_t *datatype, int dest,
                                 int sendtag, int source, int recvtag, compi_comm_t *comm,
                                 MPI_Status *status, const char *fn)
{
    /* the outgoing data is packed aside, so the receive can land in `buf` at once */
    size_t bytes = (size_t)count * datatype->size;
    void *tmp = malloc(bytes > 0 ? bytes : 1);
    if (tmp == NULL) {
        return mpi_err_raise(comm, MPI_ERR_NO_MEM, fn, "no memory for %zu bytes", bytes);
    }
    dt_pack(datatype, buf, (size_t)count, 0, tmp, bytes);
    int rc = sendrecv_run(comm, tmp, bytes, dt_byte(), dest, sendtag, buf, (size_t)count, datatype,
                          source, recvtag, status, fn);
    free(tmp);
    return rc;
}

/* the buffer of buffered sends: its size is an MPI_Count, in bytes */
static int buffer_attach_impl(void *buffer, MPI_Count size, const char *fn)
{
    if (pml_buffer_attach(buffer, (size_t)size) != COMPI_OK) {
        return mpi_err_raise(NULL, MPI_ERR_BUFFER, fn, "a buffer is already attached");
    }
    return MPI_SUCCESS;
}

static int buffer_flush_impl(const char *fn)
{
    pml_buffer_flush();
    return MPI_SUCCESS;
}

static int buffer_iflush_impl(MPI_Request *request, const char *fn)
{
    compi_request_t *r;
    if (pml_buffer_iflush(&r) != COMPI_OK) {
        return mpi_err_raise(NULL, MPI_ERR_NO_MEM, fn, "out of requests");
    }
    return mpi_req_expose(NULL, r, request, fn);
}

static int buffer_detach_impl(void *buffer_addr, MPI_Count *size, const char *fn)
{
    void *buf;
    size_t sz;
    pml_buffer_detach(&buf, &sz);
    *(void **)buffer_addr = buf;
    *size = (MPI_Count)sz;
    return MPI_SUCCESS;
}

#include "core/mpi/gen/pt2pt.c"
