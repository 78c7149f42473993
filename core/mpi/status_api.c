/*
 * status_api.c -- what a status says about a receive: counts, elements, cancellation.
 *
 * A status records only the bytes received and the cancel flag (status_word.h); counts in
 * elements and basic elements are derived here from the datatype the caller names, so
 * one status answers for any datatype with a matching type signature.
 */
#include "core/dt/dt.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"
#include "core/mpi/status_word.h"

#include <limits.h>

/* common checks: a real status and a valid datatype */
static int status__args(const char *fn, const MPI_Status *status, MPI_Datatype datatype,
                        const void *out, compi_datatype_t **dt_p)
{
    COMPI_CHECK_INIT_HELD(fn);
    if (status == NULL || status == MPI_STATUS_IGNORE) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "status is NULL or MPI_STATUS_IGNORE");
    }
    if (out == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "the output argument is NULL");
    }
    *dt_p = dt_from_handle(datatype);
    if (*dt_p == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_TYPE, fn, "invalid datatype (handle 0x%x)",
                             (unsigned)datatype);
    }
    return MPI_SUCCESS;
}

/* the count of MPI_Get_count(_c): MPI_UNDEFINED when the bytes are no whole number of
   elements or (max) their number is beyond it */
static int get_count_impl(const MPI_Status *status, MPI_Datatype datatype, void *out, MPI_Count max,
                          MPI_Count *count_p, const char *fn)
{
    compi_datatype_t *dt;
    int rc = status__args(fn, status, datatype, out, &dt);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    long long bytes = mpi_status_bytes(status);
    if (dt->size == 0) {
        /* nothing can be counted in a type without data: 0 elements fit any message */
        *count_p = 0;
    } else if (bytes < 0 || bytes % (long long)dt->size != 0 || bytes / (long long)dt->size > max) {
        *count_p = MPI_UNDEFINED;
    } else {
        *count_p = bytes / (long long)dt->size;
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Get_count = PMPI_Get_count
int PMPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    COMPI_API_LOCK();
    MPI_Count n = 0;
    int rc = get_count_impl(status, datatype, count, INT_MAX, &n, "MPI_Get_count");
    if (rc == MPI_SUCCESS) {
        *count = (int)n;
    }
    return rc;
}

#pragma weak MPI_Get_count_c = PMPI_Get_count_c
int PMPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    COMPI_API_LOCK();
    return get_count_impl(status, datatype, count, LLONG_MAX, count, "MPI_Get_count_c");
}

static int status__elements(const char *fn, const MPI_Status *status, MPI_Datatype datatype,
                            void *out, long long *n_p)
{
    compi_datatype_t *dt;
    int rc = status__args(fn, status, datatype, out, &dt);

    if (rc != MPI_SUCCESS) {
        return rc;
    }
    *n_p = dt_count_basic(dt, (size_t)mpi_status_bytes(status));
    return MPI_SUCCESS;
}

#pragma weak MPI_Get_elements = PMPI_Get_elements
int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    COMPI_API_LOCK();
    long long n;
    int rc = status__elements("MPI_Get_elements", status, datatype, count, &n);

    if (rc == MPI_SUCCESS) {
        *count = n < 0 || n > INT_MAX ? MPI_UNDEFINED : (int)n;
    }
    return rc;
}

#pragma weak MPI_Get_elements_x = PMPI_Get_elements_x
int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    COMPI_API_LOCK();
    long long n;
    int rc = status__elements("MPI_Get_elements_x", status, datatype, count, &n);

    if (rc == MPI_SUCCESS) {
        *count = n < 0 ? MPI_UNDEFINED : n;
    }
    return rc;
}

#pragma weak MPI_Status_set_elements = PMPI_Status_set_elements
int PMPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    COMPI_API_LOCK();
    compi_datatype_t *dt;
    int rc = status__args("MPI_Status_set_elements", status, datatype, status, &dt);

    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (count < 0) {
        return mpi_err_raise(NULL, MPI_ERR_COUNT, "MPI_Status_set_elements", "count=%d is negative",
                             count);
    }
    mpi_status_set_bytes(status, (long long)dt_bytes_of_basic(dt, (size_t)count));
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_set_elements_x = PMPI_Status_set_elements_x
int PMPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    COMPI_API_LOCK();
    compi_datatype_t *dt;
    int rc = status__args("MPI_Status_set_elements_x", status, datatype, status, &dt);

    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (count < 0) {
        return mpi_err_raise(NULL, MPI_ERR_COUNT, "MPI_Status_set_elements_x",
                             "count=%lld is negative", count);
    }
    mpi_status_set_bytes(status, (long long)dt_bytes_of_basic(dt, (size_t)count));
    return MPI_SUCCESS;
}

#pragma weak MPI_Status_set_cancelled = PMPI_Status_set_cancelled
int PMPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    COMPI_CHECK_INIT("MPI_Status_set_cancelled");
    if (status == NULL || status == MPI_STATUS_IGNORE) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Status_set_cancelled",
                             "status is NULL or MPI_STATUS_IGNORE");
    }
    mpi_status_set_cancelled(status, flag != 0);
    return MPI_SUCCESS;
}

#pragma weak MPI_Test_cancelled = PMPI_Test_cancelled
int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    COMPI_CHECK_INIT("MPI_Test_cancelled");
    if (status == NULL || status == MPI_STATUS_IGNORE || flag == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Test_cancelled",
                             "status or flag is NULL (or MPI_STATUS_IGNORE)");
    }
    *flag = mpi_status_cancelled(status);
    return MPI_SUCCESS;
}
