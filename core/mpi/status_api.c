/*
 * status_api.c -- what a status says about a receive: counts, elements, cancellation.
 *
 * A status records only the bytes received and the cancel flag (status_word.h); counts in
 * elements and basic elements are derived here from the datatype the caller names, so
 * one status answers for any datatype with a matching type signature.
 *
 * The entry points are generated (core/mpi/gen/status.c, made by tools/mpigen/cgen.py and
 * included at the end): they check the arguments and call the x_impl here.  A count is an
 * MPI_Count here; the int forms answer MPI_UNDEFINED for one beyond int.
 */
#include "core/dt/dt.h"
#include "core/mpi/args.h"
#include "core/mpi/status_word.h"

#include <limits.h>

static int get_count_impl(const MPI_Status *status, compi_datatype_t *datatype, MPI_Count *count,
                          const char *fn)
{
    long long bytes = mpi_status_bytes(status);
    if (datatype->size == 0) {
        /* nothing can be counted in a type without data: 0 elements fit any message */
        *count = 0;
    } else if (bytes < 0 || bytes % (long long)datatype->size != 0) {
        *count = MPI_UNDEFINED;
    } else {
        *count = bytes / (long long)datatype->size;
    }
    return MPI_SUCCESS;
}

static int get_elements_impl(const MPI_Status *status, compi_datatype_t *datatype,
                             MPI_Count *count, const char *fn)
{
    long long n = dt_count_basic(datatype, (size_t)mpi_status_bytes(status));
    *count = n < 0 ? MPI_UNDEFINED : n;
    return MPI_SUCCESS;
}

static int get_elements_x_impl(const MPI_Status *status, compi_datatype_t *datatype,
                               MPI_Count *count, const char *fn)
{
    return get_elements_impl(status, datatype, count, fn);
}

static int status_set_elements_impl(MPI_Status *status, compi_datatype_t *datatype,
                                    MPI_Count count, const char *fn)
{
    if (count < 0) {
        return mpi_err_raise(NULL, MPI_ERR_COUNT, fn, "count=%lld is negative", (long long)count);
    }
    mpi_status_set_bytes(status, (long long)dt_bytes_of_basic(datatype, (size_t)count));
    return MPI_SUCCESS;
}

static int status_set_elements_x_impl(MPI_Status *status, compi_datatype_t *datatype,
                                      MPI_Count count, const char *fn)
{
    return status_set_elements_impl(status, datatype, count, fn);
}

static int status_set_cancelled_impl(MPI_Status *status, int flag, const char *fn)
{
    mpi_status_set_cancelled(status, flag != 0);
    return MPI_SUCCESS;
}

static int test_cancelled_impl(const MPI_Status *status, int *flag, const char *fn)
{
    *flag = mpi_status_cancelled(status);
    return MPI_SUCCESS;
}

#include "core/mpi/gen/status.c"
