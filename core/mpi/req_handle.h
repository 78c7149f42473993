/*
 * req_handle.h -- MPI request handles for the API files that make requests
 * (core/mpi/pt2pt_api.c, probe_api.c, request_api.c), and copying a status out.
 *
 * Ownership: a request's handle (req_table) is allocated by mpi_req_expose() and freed
 * with the request by mpi_req_dispose(); the request itself belongs to the PML.
 */
#ifndef COMPI_MPI_REQ_HANDLE_H
#define COMPI_MPI_REQ_HANDLE_H

#include "core/comm/comm.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"
#include "core/pml/pml.h"

#include <mpi.h>

static inline void mpi_copy_status(MPI_Status *dst, const MPI_Status *src)
{
    if (dst != NULL && dst != MPI_STATUS_IGNORE) {
        *dst = *src;
    }
}

/*
 * A call that completes one operation leaves status.MPI_ERROR as the caller set it (MPI
 * 3.1, 3.2.5): the error is the call's return value.  The PML fills whole statuses, so
 * such a call saves the field first and puts it back after.
 */
static inline int mpi_status_error_save(const MPI_Status *st)
{
    return st != NULL && st != MPI_STATUS_IGNORE ? st->MPI_ERROR : MPI_SUCCESS;
}

static inline void mpi_status_error_restore(MPI_Status *st, int saved)
{
    if (st != NULL && st != MPI_STATUS_IGNORE) {
        st->MPI_ERROR = saved;
    }
}

/* give `req` an MPI handle; on failure the request is freed */
static inline int mpi_req_expose(compi_comm_t *c, compi_request_t *req, MPI_Request *h,
                                 const char *fn)
{
    if (compi_unlikely(handle_alloc(&req_table, req, &req->handle) != COMPI_OK)) {
        pml_request_free(req);
        *h = MPI_REQUEST_NULL;
        return mpi_err_raise(c, MPI_ERR_NO_MEM, fn, "no request handle left");
    }
    *h = req->handle;
    return MPI_SUCCESS;
}

/* drop the handle and return the request to the PML (released now or at completion) */
static inline void mpi_req_dispose(compi_request_t *req)
{
    if (req->handle != MPI_REQUEST_NULL) {
        handle_free(&req_table, req->handle);
        req->handle = MPI_REQUEST_NULL;
    }
    pml_request_free(req);
}

#endif
