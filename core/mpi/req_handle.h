/*
 * req_handle.h -- requests as the API layer sees them: MPI_Request handles, MPI_Status
 * from a request's result, and generalized requests.
 *
 * Below this layer a request is a compi_request_t with a pml_result_t (core/pml/pml.h):
 * the sender's rank and tag, the bytes received, a cancel flag and a compi_status_t.
 * The MPI_Status a user sees is made here (mpi_status_set), the status's error class is
 * mpi_p2p_class_of (core/mpi/args.h) of the result's error, and the handle that names a
 * request lives in this layer's table (req_table).
 *
 * Ownership: a request belongs to the PML; its handle is allocated by mpi_req_expose()
 * and freed, with the request, by mpi_req_dispose().  A generalized request's callbacks
 * (mpi_greq_t, malloc'ed, in req->owner) are freed by mpi_greq_free().
 */
#ifndef COMPI_MPI_REQ_HANDLE_H
#define COMPI_MPI_REQ_HANDLE_H

#include "core/comm/comm.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"
#include "core/mpi/status_word.h"
#include "core/pml/pml.h"

#include <mpi.h>

/* ranks, tags and results pass between MPI and the PML unchanged */
COMPI_STATIC_ASSERT(PML_ANY_SOURCE == MPI_ANY_SOURCE && PML_PROC_NULL == MPI_PROC_NULL &&
                        PML_ANY_TAG == MPI_ANY_TAG,
                    "the PML's wildcards are not MPI's");

extern handle_table_t req_table;

static inline compi_request_t *req_from_handle(MPI_Request h)
{
    return (compi_request_t *)handle_get(&req_table, h);
}

/*
 * A status from a request's result: every field but MPI_ERROR.  Calls that complete one
 * operation leave MPI_ERROR as the caller set it (MPI 3.1, 3.2.5: the error is the call's
 * return value); calls that complete several set it themselves (MPI_ERR_IN_STATUS).
 */
static inline void mpi_status_set(MPI_Status *st, const pml_result_t *res)
{
    if (st != NULL && st != MPI_STATUS_IGNORE) {
        st->MPI_SOURCE = res->source;
        st->MPI_TAG = res->tag;
        st->count_hi_and_cancelled = 0;
        mpi_status_set_bytes(st, (long long)res->count);
        mpi_status_set_cancelled(st, res->cancelled);
    }
}

/* the empty status (MPI_ERROR included) of a null or inactive request */
static inline void mpi_status_empty(MPI_Status *st)
{
    if (st != NULL && st != MPI_STATUS_IGNORE) {
        *st = (MPI_Status){
            .MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG, .MPI_ERROR = MPI_SUCCESS};
    }
}

/* give `req` an MPI handle; on failure the request is freed */
static inline int mpi_req_expose(compi_comm_t *c, compi_request_t *req, MPI_Request *h,
                                 const char *fn)
{
    if (compi_unlikely(handle_alloc(&req_table, req, h) != COMPI_OK)) {
        pml_request_free(req);
        *h = MPI_REQUEST_NULL;
        return mpi_err_raise(c, MPI_ERR_NO_MEM, fn, "no request handle left");
    }
    return MPI_SUCCESS;
}

/* free the handle *h (then MPI_REQUEST_NULL) and return its request to the PML (released
   now or at completion) */
static inline void mpi_req_dispose(MPI_Request *h, compi_request_t *req)
{
    handle_free(&req_table, *h);
    *h = MPI_REQUEST_NULL;
    pml_request_free(req);
}

/* at MPI_Finalize, after the last request */
void mpi_req_finalize(void);

/* ---- generalized requests (REQ_GREQ; MPI_Grequest_start in request_api.c) --------- */

typedef struct mpi_greq {
    MPI_Grequest_query_function *query_fn;
    MPI_Grequest_free_function *free_fn;
    MPI_Grequest_cancel_function *cancel_fn;
    void *extra_state;
} mpi_greq_t;

/* a generalized request with these callbacks, or NULL when out of memory */
compi_request_t *mpi_greq_new(MPI_Grequest_query_function *query_fn,
                              MPI_Grequest_free_function *free_fn,
                              MPI_Grequest_cancel_function *cancel_fn, void *extra_state);
/* query_fn's status (MPI_ERROR included) into *st; returns its error */
int mpi_greq_query(compi_request_t *r, MPI_Status *st);
/* free_fn, once; returns its error.  The request stays the caller's to dispose of. */
int mpi_greq_free(compi_request_t *r);
/* cancel_fn with whether the request is complete; returns its error */
int mpi_greq_cancel(compi_request_t *r);

#endif
