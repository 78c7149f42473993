/*
 * request_status_api.c -- MPI_Request_get_status_all, _any and _some (MPI 4.1): what
 * MPI_Testall, _any and _some tell, without freeing or deactivating a request.
 *
 * Each request is asked with MPI_Request_get_status (request_api.c), which makes progress
 * and raises on an invalid handle.  As in the test functions, a null handle and an
 * inactive persistent request are idle: complete at once with an empty status for _all,
 * skipped by _any and _some, which answer MPI_UNDEFINED when every request is idle.  The
 * entry points (core/mpi/gen/request_status.c, included last) check the count and the
 * arrays.
 */
#include "core/mpi/args.h"
#include "core/mpi/req_handle.h"

static int request__idle(MPI_Request h)
{
    if (h == MPI_REQUEST_NULL) {
        return 1;
    }
    const compi_request_t *r = req_from_handle(h);
    return r != NULL && r->persistent && !r->active;
}

static MPI_Status *request__status(MPI_Status *statuses, int i)
{
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

static int request_get_status_all_impl(int count, const MPI_Request array_of_requests[], int *flag,
                                       MPI_Status *array_of_statuses, const char *fn)
{
    (void)fn;
    *flag = 1;
    for (int i = 0; i < count; i++) {
        int done = 0;
        int rc = PMPI_Request_get_status(array_of_requests[i], &done,
                                         request__status(array_of_statuses, i));
        if (rc != MPI_SUCCESS) {
            return rc;
        }
        *flag = *flag && done;
    }
    return MPI_SUCCESS;
}

static int request_get_status_any_impl(int count, const MPI_Request array_of_requests[], int *index,
                                       int *flag, MPI_Status *status, const char *fn)
{
    (void)fn;
    int active = 0;
    *index = MPI_UNDEFINED;
    *flag = 0;
    for (int i = 0; i < count; i++) {
        if (request__idle(array_of_requests[i])) {
            continue;
        }
        active = 1;
        int rc = PMPI_Request_get_status(array_of_requests[i], flag, status);
        if (rc != MPI_SUCCESS || *flag) {
            *index = rc == MPI_SUCCESS ? i : MPI_UNDEFINED;
            return rc;
        }
    }
    if (!active) {
        *flag = 1;
        mpi_status_empty(status);
    }
    return MPI_SUCCESS;
}

static int request_get_status_some_impl(int incount, const MPI_Request array_of_requests[],
                                        int *outcount, int array_of_indices[],
                                        MPI_Status *array_of_statuses, const char *fn)
{
    (void)fn;
    int active = 0, n = 0;
    for (int i = 0; i < incount; i++) {
        if (request__idle(array_of_requests[i])) {
            continue;
        }
        active = 1;
        int done = 0;
        int rc = PMPI_Request_get_status(array_of_requests[i], &done,
                                         request__status(array_of_statuses, n));
        if (rc != MPI_SUCCESS) {
            return rc;
        }
        if (done) {
            array_of_indices[n++] = i;
        }
    }
    *outcount = active ? n : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

#include "core/mpi/gen/request_status.c"
