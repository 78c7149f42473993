/*
 * probe_api.c -- MPI_Probe, MPI_Iprobe and the matched probes (MPI_Mprobe, MPI_Improbe,
 * MPI_Mrecv, MPI_Imrecv).
 *
 * A matched probe takes the message out of the matching queue, so no other receive can
 * steal it; the MPI_Message handle names it until MPI_Mrecv/Imrecv consumes it.
 *
 * The entry points are generated (core/mpi/gen/probe.c, made by tools/mpigen/cgen.py and
 * included at the end): they check the arguments and call the x_impl here.  The count
 * and datatype of MPI_Mrecv and MPI_Imrecv are checked before the message handle, so
 * their errors are raised on MPI_COMM_WORLD's handler, as for any call without a
 * communicator among its arguments.
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

static int iprobe_impl(int source, int tag, compi_comm_t *comm, int *flag, MPI_Status *status,
                       const char *fn)
{
    pml_result_t res;
    compi_status_t st = pml_iprobe(source, tag, comm, flag, &res);
    if (st != COMPI_OK) {
        return mpi_raise_p2p_status(comm, st, fn);
    }
    if (*flag) {
        mpi_status_set(status, &res);
    }
    return MPI_SUCCESS;
}

static int probe_impl(int source, int tag, compi_comm_t *comm, MPI_Status *status, const char *fn)
{
    int flag = 0;
    while (!flag) {
        pml_result_t res;
        compi_status_t st = pml_iprobe(source, tag, comm, &flag, &res);
        if (st != COMPI_OK) {
            return mpi_raise_p2p_status(comm, st, fn);
        }
        if (flag) {
            mpi_status_set(status, &res);
        } else {
            pml_progress_wait(); /* may sleep when oversubscribed */
        }
    }
    return MPI_SUCCESS;
}

static int improbe_impl(int source, int tag, compi_comm_t *comm, int *flag, MPI_Message *message,
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
    compi_status_t st = pml_improbe(source, tag, comm, flag, &m, &res);
    if (st != COMPI_OK) {
        return mpi_raise_p2p_status(comm, st, fn);
    }
    *message = MPI_MESSAGE_NULL;
    if (*flag) {
        mpi_status_set(status, &res);
        int h;
        if (handle_alloc(&msg_table, m, &h) != COMPI_OK) {
            return mpi_err_raise(comm, MPI_ERR_NO_MEM, fn, "no message handle left");
        }
        *message = h;
    }
    return MPI_SUCCESS;
}

static int mprobe_impl(int source, int tag, compi_comm_t *comm, MPI_Message *message,
                       MPI_Status *status, const char *fn)
{
    int flag = 0;
    while (!flag) {
        int rc = improbe_impl(source, tag, comm, &flag, message, status, fn);
        if (rc != MPI_SUCCESS) {
            return rc;
        }
        if (!flag) {
            pml_progress_wait(); /* may sleep when oversubscribed */
        }
    }
    return MPI_SUCCESS;
}

/* start receiving a matched message, its count and datatype checked; *req_p stays NULL
   for MPI_MESSAGE_NO_PROC */
static int imrecv(void *buf, MPI_Count count, compi_datatype_t *dt, MPI_Message *message,
                  compi_request_t **req_p, const char *fn)
{
    *req_p = NULL;
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
    handle_free(&msg_table, *message);
    *message = MPI_MESSAGE_NULL;
    compi_status_t st = pml_imrecv(buf, (size_t)count, dt, m, req_p);
    if (st != COMPI_OK) {
        return mpi_raise_p2p_status(c, st, fn);
    }
    return MPI_SUCCESS;
}

static int imrecv_impl(void *buf, MPI_Count count, compi_datatype_t *datatype, MPI_Message *message,
                       MPI_Request *request, const char *fn)
{
    compi_request_t *req;
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

static int mrecv_impl(void *buf, MPI_Count count, compi_datatype_t *datatype, MPI_Message *message,
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

#include "core/mpi/gen/probe.c"
