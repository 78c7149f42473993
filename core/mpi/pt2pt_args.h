/*
 * pt2pt_args.h -- argument checks and request-handle helpers shared by the point-to-point
 * API files (core/mpi/pt2pt_api.c, probe_api.c, request_api.c).  Only the API layer
 * includes this: it turns problems into MPI error classes through mpi_err_raise().
 *
 * Each check returns MPI_SUCCESS or the value of mpi_err_raise() (the class, when the
 * error handler returns), so callers write `if ((rc = check...) != MPI_SUCCESS) return rc;`.
 *
 * Ownership: nothing is allocated here except request handles (req_table), which the
 * caller frees with p2p_req_dispose() together with the request.
 */
#ifndef COMPI_PT2PT_ARGS_H
#define COMPI_PT2PT_ARGS_H

#include "core/comm/comm.h"
#include "core/dt/dt.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"
#include "core/pml/pml.h"

#include <limits.h>
#include <mpi.h>

#define P2P_TAG_UB INT_MAX

static inline int p2p_check_comm(MPI_Comm h, compi_comm_t **comm_p, const char *fn)
{
    compi_comm_t *c = comm_from_handle(h);
    if (compi_unlikely(c == NULL)) {
        return mpi_err_raise(NULL, MPI_ERR_COMM, fn, "invalid communicator 0x%x", (unsigned)h);
    }
    *comm_p = c;
    return MPI_SUCCESS;
}

static inline int p2p_check_data(compi_comm_t *c, const void *buf, int count, MPI_Datatype type,
                                 compi_datatype_t **dt_p, const char *fn)
{
    if (compi_unlikely(count < 0)) {
        return mpi_err_raise(c, MPI_ERR_COUNT, fn, "count=%d is negative", count);
    }
    compi_datatype_t *dt = dt_from_handle(type);
    if (compi_unlikely(dt == NULL)) {
        return mpi_err_raise(c, MPI_ERR_TYPE, fn, "invalid datatype 0x%x", (unsigned)type);
    }
    if (compi_unlikely(!dt->committed && !dt->predefined)) {
        return mpi_err_raise(c, MPI_ERR_TYPE, fn, "datatype 0x%x is not committed",
                             (unsigned)type);
    }
    /* MPI_BOTTOM (NULL) is legal with a datatype of absolute addresses (true_lb != 0) */
    if (compi_unlikely(buf == NULL && count > 0 && dt->size > 0 && dt->true_lb == 0)) {
        return mpi_err_raise(c, MPI_ERR_BUFFER, fn, "buffer is NULL with count=%d", count);
    }
    *dt_p = dt;
    return MPI_SUCCESS;
}

/* destination: a rank of comm or MPI_PROC_NULL; tag 0..TAG_UB */
static inline int p2p_check_dest(compi_comm_t *c, int dest, int tag, const char *fn)
{
    if (compi_unlikely((dest < 0 || dest >= c->size) && dest != MPI_PROC_NULL)) {
        return mpi_err_raise(c, MPI_ERR_RANK, fn, "dest=%d is not in [0, %d)", dest, c->size);
    }
    if (compi_unlikely(tag < 0 || tag > P2P_TAG_UB)) {
        return mpi_err_raise(c, MPI_ERR_TAG, fn, "tag=%d is not in [0, %d]", tag, P2P_TAG_UB);
    }
    return MPI_SUCCESS;
}

/* source: a rank, MPI_ANY_SOURCE or MPI_PROC_NULL; tag 0..TAG_UB or MPI_ANY_TAG */
static inline int p2p_check_source(compi_comm_t *c, int source, int tag, const char *fn)
{
    if (compi_unlikely((source < 0 || source >= c->size) && source != MPI_PROC_NULL &&
                       source != MPI_ANY_SOURCE)) {
        return mpi_err_raise(c, MPI_ERR_RANK, fn, "source=%d is not in [0, %d)", source,
                             c->size);
    }
    if (compi_unlikely((tag < 0 && tag != MPI_ANY_TAG) || tag > P2P_TAG_UB)) {
        return mpi_err_raise(c, MPI_ERR_TAG, fn, "tag=%d is neither MPI_ANY_TAG nor in [0, %d]",
                             tag, P2P_TAG_UB);
    }
    return MPI_SUCCESS;
}

/* an internal status from the PML, as an MPI error raised on `c` */
static inline int p2p_raise_status(compi_comm_t *c, compi_status_t st, const char *fn)
{
    switch (st) {
    case COMPI_ERR_TRUNCATE:
        return mpi_err_raise(c, MPI_ERR_TRUNCATE, fn,
                             "message truncated: receive buffer too small");
    case COMPI_ERR_NO_RESOURCE:
        return mpi_err_raise(c, MPI_ERR_BUFFER, fn,
                             "attached buffer too small for this buffered send");
    case COMPI_ERR_NO_MEMORY:
        return mpi_err_raise(c, MPI_ERR_NO_MEM, fn, "out of memory");
    default:
        return mpi_err_raise(c, mpi_err_class_of(st), fn, "%s", compi_status_string(st));
    }
}

static inline void p2p_copy_status(MPI_Status *dst, const MPI_Status *src)
{
    if (dst != NULL && dst != MPI_STATUS_IGNORE) {
        *dst = *src;
    }
}

/* give `req` an MPI handle; on failure the request is freed */
static inline int p2p_req_expose(compi_comm_t *c, compi_request_t *req, MPI_Request *h,
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
static inline void p2p_req_dispose(compi_request_t *req)
{
    if (req->handle != MPI_REQUEST_NULL) {
        handle_free(&req_table, req->handle);
        req->handle = MPI_REQUEST_NULL;
    }
    pml_request_free(req);
}

#endif
