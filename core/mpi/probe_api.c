/*
 * probe_api.c -- MPI_Probe, MPI_Iprobe and the matched probes (MPI_Mprobe, MPI_Improbe,
 * MPI_Mrecv, MPI_Imrecv).
 *
 * A matched probe takes the message out of the matching queue, so no other receive can
 * steal it; the MPI_Message handle names it until MPI_Mrecv/Imrecv consumes it.
 *
 * Ownership: message handles live in msg_table (owned here); the message object belongs
 * to the PML and is consumed by pml_imrecv().
 */
#include "core/mpi/args.h"
#include "core/mpi/req_handle.h"

static handle_table_t msg_table = HANDLE_TABLE_INIT(COMPI_HKIND_MESSAGE, 2);

/* the result of a receive from MPI_PROC_NULL */
static const pml_result_t result_proc_null = {
    .source = PML_PROC_NULL, .tag = PML_ANY_TAG, .error = COMPI_OK};

static int check_probe(int source, int tag, MPI_Comm comm, compi_comm_t **c_p, const char *fn)
{
    int rc = mpi_arg_comm(comm, fn, c_p);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return mpi_arg_source(*c_p, source, tag, fn);
}

#pragma weak MPI_Iprobe = PMPI_Iprobe
int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    COMPI_CHECK_INIT("MPI_Iprobe");
    compi_comm_t *c = NULL;
    int rc = check_probe(source, tag, comm, &c, "MPI_Iprobe");
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (flag == NULL) {
        return mpi_err_raise(c, MPI_ERR_ARG, "MPI_Iprobe", "flag is NULL");
    }
    pml_result_t res;
    compi_status_t st = pml_iprobe(source, tag, c, flag, &res);
    if (st != COMPI_OK) {
        return mpi_raise_p2p_status(c, st, "MPI_Iprobe");
    }
    if (*flag) {
        mpi_status_set(status, &res);
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Probe = PMPI_Probe
int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    COMPI_CHECK_INIT("MPI_Probe");
    compi_comm_t *c = NULL;
    int rc = check_probe(source, tag, comm, &c, "MPI_Probe");
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    int flag = 0;
    while (!flag) {
        pml_result_t res;
        compi_status_t st = pml_iprobe(source, tag, c, &flag, &res);
        if (st != COMPI_OK) {
            return mpi_raise_p2p_status(c, st, "MPI_Probe");
        }
        if (flag) {
            mpi_status_set(status, &res);
        } else {
            pml_progress_wait(); /* may sleep when oversubscribed */
        }
    }
    return MPI_SUCCESS;
}

static int improbe(int source, int tag, compi_comm_t *c, int *flag, MPI_Message *message,
                   MPI_Status *status, const char *fn)
{
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        mpi_status_set(status, &result_proc_null);
        return MPI_SUCCESS;
    }
    compi_message_t *m = NULL;
    pml_result_t res;
    compi_status_t st = pml_improbe(source, tag, c, flag, &m, &res);
    if (st != COMPI_OK) {
        return mpi_raise_p2p_status(c, st, fn);
    }
    *message = MPI_MESSAGE_NULL;
    if (*flag) {
        mpi_status_set(status, &res);
        int h;
        if (handle_alloc(&msg_table, m, &h) != COMPI_OK) {
            return mpi_err_raise(c, MPI_ERR_NO_MEM, fn, "no message handle left");
        }
        *message = h;
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Improbe = PMPI_Improbe
int PMPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
    COMPI_CHECK_INIT("MPI_Improbe");
    compi_comm_t *c = NULL;
    int rc = check_probe(source, tag, comm, &c, "MPI_Improbe");
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (flag == NULL || message == NULL) {
        return mpi_err_raise(c, MPI_ERR_ARG, "MPI_Improbe", "flag or message is NULL");
    }
    return improbe(source, tag, c, flag, message, status, "MPI_Improbe");
}

#pragma weak MPI_Mprobe = PMPI_Mprobe
int PMPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    COMPI_CHECK_INIT("MPI_Mprobe");
    compi_comm_t *c = NULL;
    int rc = check_probe(source, tag, comm, &c, "MPI_Mprobe");
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (message == NULL) {
        return mpi_err_raise(c, MPI_ERR_ARG, "MPI_Mprobe", "message is NULL");
    }
    int flag = 0;
    while (!flag) {
        rc = improbe(source, tag, c, &flag, message, status, "MPI_Mprobe");
        if (rc != MPI_SUCCESS) {
            return rc;
        }
        if (!flag) {
            pml_progress_wait(); /* may sleep when oversubscribed */
        }
    }
    return MPI_SUCCESS;
}

/* start receiving a matched message; *req_p stays NULL for MPI_MESSAGE_NO_PROC */
static int imrecv(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                  compi_request_t **req_p, const char *fn)
{
    *req_p = NULL;
    if (message == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "message is NULL");
    }
    if (*message == MPI_MESSAGE_NO_PROC) {
        *message = MPI_MESSAGE_NULL;
        return MPI_SUCCESS;
    }
    compi_message_t *m = handle_get(&msg_table, *message);
    if (m == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_REQUEST, fn, "invalid message handle 0x%x",
                             (unsigned)*message);
    }
    compi_comm_t *c = pml_message_comm(m);
    compi_datatype_t *dt = NULL;
    int rc = mpi_arg_data(c, buf, count, datatype, MPI_ARG_ONE, fn, &dt);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    handle_free(&msg_table, *message);
    *message = MPI_MESSAGE_NULL;
    compi_status_t st = pml_imrecv(buf, (size_t)count, dt, m, req_p);
    if (st != COMPI_OK) {
        return mpi_raise_p2p_status(c, st, fn);
    }
    return MPI_SUCCESS;
}

/* MPI_Imrecv(_c) */
static int imrecv_impl(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                       MPI_Request *request, const char *fn)
{
    compi_request_t *req;
    if (request == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "request is NULL");
    }
    int rc = imrecv(buf, count, datatype, message, &req, fn);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (req == NULL) {
        /* MPI_MESSAGE_NO_PROC: a request that is complete with a proc-null status */
        req = pml_request_new(REQ_RECV, NULL);
        if (req == NULL) {
            return mpi_err_raise(NULL, MPI_ERR_NO_MEM, fn, "out of requests");
        }
        req->result = result_proc_null;
        req->complete = 1;
    }
    return mpi_req_expose(req->comm, req, request, fn);
}

#pragma weak MPI_Imrecv = PMPI_Imrecv
int PMPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Imrecv");
    return imrecv_impl(buf, count, datatype, message, request, "MPI_Imrecv");
}

#pragma weak MPI_Imrecv_c = PMPI_Imrecv_c
int PMPI_Imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                  MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Imrecv_c");
    return imrecv_impl(buf, count, datatype, message, request, "MPI_Imrecv_c");
}

/* MPI_Mrecv(_c) */
static int mrecv_impl(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                      MPI_Status *status, const char *fn)
{
    compi_request_t *req;
    int rc = imrecv(buf, count, datatype, message, &req, fn);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (req == NULL) {
        mpi_status_set(status, &result_proc_null);
        return MPI_SUCCESS;
    }
    pml_result_t res;
    compi_status_t st = pml_wait(req, &res);
    mpi_status_set(status, &res);
    compi_comm_t *c = req->comm;
    comm_retain(c);
    pml_request_free(req);
    rc = st == COMPI_OK ? MPI_SUCCESS : mpi_raise_p2p_status(c, st, fn);
    comm_release(c);
    return rc;
}

#pragma weak MPI_Mrecv = PMPI_Mrecv
int PMPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Status *status)
{
    COMPI_CHECK_INIT("MPI_Mrecv");
    return mrecv_impl(buf, count, datatype, message, status, "MPI_Mrecv");
}

#pragma weak MPI_Mrecv_c = PMPI_Mrecv_c
int PMPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                 MPI_Status *status)
{
    COMPI_CHECK_INIT("MPI_Mrecv_c");
    return mrecv_impl(buf, count, datatype, message, status, "MPI_Mrecv_c");
}
