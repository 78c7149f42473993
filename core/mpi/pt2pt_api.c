/*
 * pt2pt_api.c -- MPI point-to-point sends and receives: argument checks, then the PML.
 *
 * All send modes share three helpers (blocking, nonblocking, persistent) so every mode
 * checks its arguments the same way.  MPI_Rsend is a standard send: a correct program
 * has the receive posted, and the eager/rendezvous protocols deliver it either way.
 */
#include "core/mpi/args.h"
#include "core/mpi/req_handle.h"

#include <stdlib.h>

static inline int check_send(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                             MPI_Comm comm, compi_comm_t **c_p, compi_datatype_t **dt_p,
                             const char *fn)
{
    int rc = mpi_arg_comm(comm, fn, c_p);
    if (compi_unlikely(rc != MPI_SUCCESS)) {
        return rc;
    }
    rc = mpi_arg_data(*c_p, buf, count, type, MPI_ARG_ONE, fn, dt_p);
    if (compi_unlikely(rc != MPI_SUCCESS)) {
        return rc;
    }
    return mpi_arg_dest(*c_p, dest, tag, fn);
}

static inline int check_recv(const void *buf, MPI_Count count, MPI_Datatype type, int source,
                             int tag, MPI_Comm comm, compi_comm_t **c_p, compi_datatype_t **dt_p,
                             const char *fn)
{
    int rc = mpi_arg_comm(comm, fn, c_p);
    if (compi_unlikely(rc != MPI_SUCCESS)) {
        return rc;
    }
    rc = mpi_arg_data(*c_p, buf, count, type, MPI_ARG_ONE, fn, dt_p);
    if (compi_unlikely(rc != MPI_SUCCESS)) {
        return rc;
    }
    return mpi_arg_source(*c_p, source, tag, fn);
}

static inline int send_blocking(const void *buf, MPI_Count count, MPI_Datatype type, int dest,
                                int tag, MPI_Comm comm, pml_send_mode_t mode, const char *fn)
{
    compi_comm_t *c = NULL;
    compi_datatype_t *dt = NULL;
    int rc = check_send(buf, count, type, dest, tag, comm, &c, &dt, fn);
    if (compi_unlikely(rc != MPI_SUCCESS)) {
        return rc;
    }
    compi_status_t st = pml_send(buf, (size_t)count, dt, dest, tag, c, mode);
    if (compi_unlikely(st != COMPI_OK)) {
        return mpi_raise_p2p_status(c, st, fn);
    }
    return MPI_SUCCESS;
}

static int send_nonblocking(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                            MPI_Comm comm, pml_send_mode_t mode, int persistent,
                            MPI_Request *request, const char *fn)
{
    compi_comm_t *c = NULL;
    compi_datatype_t *dt = NULL;
    compi_request_t *req;
    if (request == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "request pointer is NULL");
    }
    int rc = check_send(buf, count, type, dest, tag, comm, &c, &dt, fn);
    if (compi_unlikely(rc != MPI_SUCCESS)) {
        return rc;
    }
    compi_status_t st = persistent
                            ? pml_send_init(buf, (size_t)count, dt, dest, tag, c, mode, &req)
                            : pml_isend(buf, (size_t)count, dt, dest, tag, c, mode, &req);
    if (compi_unlikely(st != COMPI_OK)) {
        return mpi_raise_p2p_status(c, st, fn);
    }
    return mpi_req_expose(c, req, request, fn);
}

#pragma weak MPI_Send = PMPI_Send
int PMPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Send");
    return send_blocking(buf, count, datatype, dest, tag, comm, PML_SEND_STANDARD, "MPI_Send");
}

#pragma weak MPI_Send_c = PMPI_Send_c
int PMPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Send_c");
    return send_blocking(buf, count, datatype, dest, tag, comm, PML_SEND_STANDARD, "MPI_Send_c");
}

#pragma weak MPI_Ssend = PMPI_Ssend
int PMPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Ssend");
    return send_blocking(buf, count, datatype, dest, tag, comm, PML_SEND_SYNC, "MPI_Ssend");
}

#pragma weak MPI_Ssend_c = PMPI_Ssend_c
int PMPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Ssend_c");
    return send_blocking(buf, count, datatype, dest, tag, comm, PML_SEND_SYNC, "MPI_Ssend_c");
}

#pragma weak MPI_Rsend = PMPI_Rsend
int PMPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Rsend");
    return send_blocking(buf, count, datatype, dest, tag, comm, PML_SEND_READY, "MPI_Rsend");
}

#pragma weak MPI_Rsend_c = PMPI_Rsend_c
int PMPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Rsend_c");
    return send_blocking(buf, count, datatype, dest, tag, comm, PML_SEND_READY, "MPI_Rsend_c");
}

#pragma weak MPI_Bsend = PMPI_Bsend
int PMPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Bsend");
    return send_blocking(buf, count, datatype, dest, tag, comm, PML_SEND_BUFFERED, "MPI_Bsend");
}

#pragma weak MPI_Bsend_c = PMPI_Bsend_c
int PMPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm)
{
    COMPI_CHECK_INIT("MPI_Bsend_c");
    return send_blocking(buf, count, datatype, dest, tag, comm, PML_SEND_BUFFERED, "MPI_Bsend_c");
}

#pragma weak MPI_Isend = PMPI_Isend
int PMPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Isend");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_STANDARD, 0,
                            request, "MPI_Isend");
}

#pragma weak MPI_Isend_c = PMPI_Isend_c
int PMPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Isend_c");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_STANDARD, 0, request,
                            "MPI_Isend_c");
}

#pragma weak MPI_Issend = PMPI_Issend
int PMPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Issend");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_SYNC, 0, request,
                            "MPI_Issend");
}

#pragma weak MPI_Issend_c = PMPI_Issend_c
int PMPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Issend_c");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_SYNC, 0, request,
                            "MPI_Issend_c");
}

#pragma weak MPI_Irsend = PMPI_Irsend
int PMPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Irsend");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_READY, 0, request,
                            "MPI_Irsend");
}

#pragma weak MPI_Irsend_c = PMPI_Irsend_c
int PMPI_Irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Irsend_c");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_READY, 0, request,
                            "MPI_Irsend_c");
}

#pragma weak MPI_Ibsend = PMPI_Ibsend
int PMPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ibsend");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_BUFFERED, 0,
                            request, "MPI_Ibsend");
}

#pragma weak MPI_Ibsend_c = PMPI_Ibsend_c
int PMPI_Ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ibsend_c");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_BUFFERED, 0, request,
                            "MPI_Ibsend_c");
}

#pragma weak MPI_Send_init = PMPI_Send_init
int PMPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Send_init");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_STANDARD, 1,
                            request, "MPI_Send_init");
}

#pragma weak MPI_Send_init_c = PMPI_Send_init_c
int PMPI_Send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                     MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Send_init_c");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_STANDARD, 1, request,
                            "MPI_Send_init_c");
}

#pragma weak MPI_Ssend_init = PMPI_Ssend_init
int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ssend_init");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_SYNC, 1, request,
                            "MPI_Ssend_init");
}

#pragma weak MPI_Ssend_init_c = PMPI_Ssend_init_c
int PMPI_Ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Ssend_init_c");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_SYNC, 1, request,
                            "MPI_Ssend_init_c");
}

#pragma weak MPI_Rsend_init = PMPI_Rsend_init
int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Rsend_init");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_READY, 1, request,
                            "MPI_Rsend_init");
}

#pragma weak MPI_Rsend_init_c = PMPI_Rsend_init_c
int PMPI_Rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Rsend_init_c");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_READY, 1, request,
                            "MPI_Rsend_init_c");
}

#pragma weak MPI_Bsend_init = PMPI_Bsend_init
int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Bsend_init");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_BUFFERED, 1,
                            request, "MPI_Bsend_init");
}

#pragma weak MPI_Bsend_init_c = PMPI_Bsend_init_c
int PMPI_Bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                      MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Bsend_init_c");
    return send_nonblocking(buf, count, datatype, dest, tag, comm, PML_SEND_BUFFERED, 1, request,
                            "MPI_Bsend_init_c");
}

static int recv_blocking(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag,
                         MPI_Comm comm, MPI_Status *status, const char *fn)
{
    compi_comm_t *c = NULL;
    compi_datatype_t *dt = NULL;
    int rc = check_recv(buf, count, type, source, tag, comm, &c, &dt, fn);
    if (compi_unlikely(rc != MPI_SUCCESS)) {
        return rc;
    }
    pml_result_t res;
    compi_status_t st = pml_recv(buf, (size_t)count, dt, source, tag, c, &res);
    mpi_status_set(status, &res);
    if (compi_unlikely(st != COMPI_OK)) {
        return mpi_raise_p2p_status(c, st, fn);
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Recv = PMPI_Recv
int PMPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Status *status)
{
    COMPI_CHECK_INIT("MPI_Recv");
    return recv_blocking(buf, count, datatype, source, tag, comm, status, "MPI_Recv");
}

#pragma weak MPI_Recv_c = PMPI_Recv_c
int PMPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Status *status)
{
    COMPI_CHECK_INIT("MPI_Recv_c");
    return recv_blocking(buf, count, datatype, source, tag, comm, status, "MPI_Recv_c");
}

static int recv_nonblocking(void *buf, MPI_Count count, MPI_Datatype type, int source, int tag,
                            MPI_Comm comm, int persistent, MPI_Request *request, const char *fn)
{
    compi_comm_t *c = NULL;
    compi_datatype_t *dt = NULL;
    compi_request_t *req;
    if (request == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "request pointer is NULL");
    }
    int rc = check_recv(buf, count, type, source, tag, comm, &c, &dt, fn);
    if (compi_unlikely(rc != MPI_SUCCESS)) {
        return rc;
    }
    compi_status_t st = persistent ? pml_recv_init(buf, (size_t)count, dt, source, tag, c, &req)
                                   : pml_irecv(buf, (size_t)count, dt, source, tag, c, &req);
    if (compi_unlikely(st != COMPI_OK)) {
        return mpi_raise_p2p_status(c, st, fn);
    }
    return mpi_req_expose(c, req, request, fn);
}

#pragma weak MPI_Irecv = PMPI_Irecv
int PMPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
               MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Irecv");
    return recv_nonblocking(buf, count, datatype, source, tag, comm, 0, request, "MPI_Irecv");
}

#pragma weak MPI_Irecv_c = PMPI_Irecv_c
int PMPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                 MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Irecv_c");
    return recv_nonblocking(buf, count, datatype, source, tag, comm, 0, request, "MPI_Irecv_c");
}

#pragma weak MPI_Recv_init = PMPI_Recv_init
int PMPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Recv_init");
    return recv_nonblocking(buf, count, datatype, source, tag, comm, 1, request,
                            "MPI_Recv_init");
}

#pragma weak MPI_Recv_init_c = PMPI_Recv_init_c
int PMPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                     MPI_Comm comm, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Recv_init_c");
    return recv_nonblocking(buf, count, datatype, source, tag, comm, 1, request, "MPI_Recv_init_c");
}

/* the exchange of both Sendrecvs, arguments checked; the receive is posted first: a
   Sendrecv with oneself must not wait on itself */
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

static int sendrecv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                         int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                         int source, int recvtag, MPI_Comm comm, MPI_Status *status, const char *fn)
{
    compi_comm_t *c = NULL;
    compi_datatype_t *sdt = NULL, *rdt = NULL;
    int rc = check_send(sendbuf, sendcount, sendtype, dest, sendtag, comm, &c, &sdt, fn);
    if (rc == MPI_SUCCESS) {
        rc = check_recv(recvbuf, recvcount, recvtype, source, recvtag, comm, &c, &rdt, fn);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return sendrecv_run(c, sendbuf, (size_t)sendcount, sdt, dest, sendtag, recvbuf,
                        (size_t)recvcount, rdt, source, recvtag, status, fn);
}

#pragma weak MPI_Sendrecv = PMPI_Sendrecv
int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status *status)
{
    COMPI_CHECK_INIT("MPI_Sendrecv");
    return sendrecv_impl(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                         source, recvtag, comm, status, "MPI_Sendrecv");
}

#pragma weak MPI_Sendrecv_c = PMPI_Sendrecv_c
int PMPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    COMPI_CHECK_INIT("MPI_Sendrecv_c");
    return sendrecv_impl(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                         source, recvtag, comm, status, "MPI_Sendrecv_c");
}

static int sendrecv_replace_impl(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                                 int sendtag, int source, int recvtag, MPI_Comm comm,
                                 MPI_Status *status, const char *fn)
{
    compi_comm_t *c = NULL;
    compi_datatype_t *dt = NULL;
    int rc = check_send(buf, count, datatype, dest, sendtag, comm, &c, &dt, fn);
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_source(c, source, recvtag, fn);
    }
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    /* the outgoing data is packed aside, so the receive can land in `buf` at once */
    size_t bytes = (size_t)count * dt->size;
    void *tmp = malloc(bytes > 0 ? bytes : 1);
    if (tmp == NULL) {
        return mpi_err_raise(c, MPI_ERR_NO_MEM, fn, "no memory for %zu bytes", bytes);
    }
    dt_pack(dt, buf, (size_t)count, 0, tmp, bytes);
    rc = sendrecv_run(c, tmp, bytes, dt_byte(), dest, sendtag, buf, (size_t)count, dt, source,
                      recvtag, status, fn);
    free(tmp);
    return rc;
}

#pragma weak MPI_Sendrecv_replace = PMPI_Sendrecv_replace
int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    COMPI_CHECK_INIT("MPI_Sendrecv_replace");
    return sendrecv_replace_impl(buf, count, datatype, dest, sendtag, source, recvtag, comm, status,
                                 "MPI_Sendrecv_replace");
}

#pragma weak MPI_Sendrecv_replace_c = PMPI_Sendrecv_replace_c
int PMPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    COMPI_CHECK_INIT("MPI_Sendrecv_replace_c");
    return sendrecv_replace_impl(buf, count, datatype, dest, sendtag, source, recvtag, comm, status,
                                 "MPI_Sendrecv_replace_c");
}

#pragma weak MPI_Buffer_attach = PMPI_Buffer_attach
int PMPI_Buffer_attach(void *buffer, int size)
{
    COMPI_CHECK_INIT("MPI_Buffer_attach");
    if (size < 0 || (buffer == NULL && size > 0)) {
        return mpi_err_raise(NULL, MPI_ERR_BUFFER, "MPI_Buffer_attach",
                             "invalid buffer %p of size %d", buffer, size);
    }
    if (pml_buffer_attach(buffer, (size_t)size) != COMPI_OK) {
        return mpi_err_raise(NULL, MPI_ERR_BUFFER, "MPI_Buffer_attach",
                             "a buffer is already attached");
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Buffer_flush = PMPI_Buffer_flush
int PMPI_Buffer_flush(void)
{
    COMPI_CHECK_INIT("MPI_Buffer_flush");
    pml_buffer_flush();
    return MPI_SUCCESS;
}

#pragma weak MPI_Buffer_iflush = PMPI_Buffer_iflush
int PMPI_Buffer_iflush(MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Buffer_iflush");
    compi_request_t *r;
    if (request == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Buffer_iflush", "the request is NULL");
    }
    if (pml_buffer_iflush(&r) != COMPI_OK) {
        return mpi_err_raise(NULL, MPI_ERR_NO_MEM, "MPI_Buffer_iflush", "out of requests");
    }
    return mpi_req_expose(NULL, r, request, "MPI_Buffer_iflush");
}

#pragma weak MPI_Buffer_detach = PMPI_Buffer_detach
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    COMPI_CHECK_INIT("MPI_Buffer_detach");
    void *buf;
    size_t sz;
    if (buffer_addr == NULL || size == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Buffer_detach", "NULL argument");
    }
    pml_buffer_detach(&buf, &sz);
    *(void **)buffer_addr = buf;
    *size = (int)sz;
    return MPI_SUCCESS;
}
