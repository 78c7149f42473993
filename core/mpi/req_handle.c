/*
 * req_handle.c -- the MPI_Request handle table and generalized requests (req_handle.h).
 */
#include "config.h"

#include "core/mpi/req_handle.h"

#include <stdlib.h>

/* the handle layout of core/runtime/handle.h is that of include/mpi.h: a kind's null
   handle is its kind alone, its predefined handles of class 1 the kind and class */
COMPI_STATIC_ASSERT(HANDLE_KIND_SHIFT == COMPI_HKIND_SHIFT &&
                        (COMPI_HKIND_REQUEST << HANDLE_KIND_SHIFT) == MPI_REQUEST_NULL &&
                        (COMPI_HKIND_COMM << HANDLE_KIND_SHIFT) == MPI_COMM_NULL &&
                        (COMPI_HKIND_DATATYPE << HANDLE_KIND_SHIFT) == MPI_DATATYPE_NULL &&
                        (COMPI_HKIND_GROUP << HANDLE_KIND_SHIFT) == MPI_GROUP_NULL &&
                        (COMPI_HKIND_OP << HANDLE_KIND_SHIFT) == MPI_OP_NULL &&
                        (COMPI_HKIND_ERRHANDLER << HANDLE_KIND_SHIFT) == MPI_ERRHANDLER_NULL &&
                        (COMPI_HKIND_INFO << HANDLE_KIND_SHIFT) == MPI_INFO_NULL &&
                        (COMPI_HKIND_WIN << HANDLE_KIND_SHIFT) == MPI_WIN_NULL &&
                        (COMPI_HKIND_SESSION << HANDLE_KIND_SHIFT) == MPI_SESSION_NULL &&
                        HANDLE_BUILTIN(COMPI_HKIND_OP, 3) == MPI_SUM &&
                        HANDLE_BUILTIN(COMPI_HKIND_COMM, 0) == MPI_COMM_WORLD,
                    "core/runtime/handle.h does not lay handles out as mpi.h does");
/* a buffered send takes no more of the attached buffer than users are told */
COMPI_STATIC_ASSERT(PML_BSEND_OVERHEAD <= MPI_BSEND_OVERHEAD,
                    "the PML's buffered sends need more than MPI_BSEND_OVERHEAD");

handle_table_t req_table = HANDLE_TABLE_INIT(COMPI_HKIND_REQUEST, 1);

void mpi_req_finalize(void)
{
    handle_table_destroy(&req_table);
}

compi_request_t *mpi_greq_new(MPI_Grequest_query_function *query_fn,
                              MPI_Grequest_free_function *free_fn,
                              MPI_Grequest_cancel_function *cancel_fn, void *extra_state)
{
    mpi_greq_t *g = malloc(sizeof(*g));
    if (g == NULL) {
        return NULL;
    }
    compi_request_t *r = pml_request_new(REQ_GREQ, NULL);
    if (r == NULL) {
        free(g);
        return NULL;
    }
    *g = (mpi_greq_t){.query_fn = query_fn,
                      .free_fn = free_fn,
                      .cancel_fn = cancel_fn,
                      .extra_state = extra_state};
    r->owner = g;
    return r;
}

int mpi_greq_query(compi_request_t *r, MPI_Status *st)
{
    const mpi_greq_t *g = r->owner;
    return g->query_fn != NULL ? g->query_fn(g->extra_state, st) : MPI_SUCCESS;
}

int mpi_greq_free(compi_request_t *r)
{
    mpi_greq_t *g = r->owner;
    if (g == NULL) {
        return MPI_SUCCESS;
    }
    r->owner = NULL;
    int err = g->free_fn != NULL ? g->free_fn(g->extra_state) : MPI_SUCCESS;
    free(g);
    return err;
}

int mpi_greq_cancel(compi_request_t *r)
{
    const mpi_greq_t *g = r->owner;
    return g->cancel_fn != NULL ? g->cancel_fn(g->extra_state, r->complete) : MPI_SUCCESS;
}
