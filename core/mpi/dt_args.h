/*
 * dt_args.h -- the argument checks the datatype calls share (dt_api.c, dt_query_api.c,
 * pack_api.c): a datatype handle, a NULL argument, a negative count, the datatype and
 * out-pointers of a query.  Each returns MPI_SUCCESS or what mpi_err_raise() returns.
 *
 * Ownership: nothing here allocates; the datatypes returned are borrowed from the handle
 * table for the call.
 */
#ifndef COMPI_MPI_DT_ARGS_H
#define COMPI_MPI_DT_ARGS_H

#include "core/dt/dt.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <mpi.h>

static inline int mpi_dt_lookup(MPI_Datatype h, const char *fn, compi_datatype_t **dt_p)
{
    *dt_p = dt_from_handle(h);
    if (*dt_p == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_TYPE, fn, "invalid datatype (handle 0x%x)", (unsigned)h);
    }
    return MPI_SUCCESS;
}

static inline int mpi_dt_null(const char *fn, const char *what)
{
    return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "%s is NULL", what);
}

static inline int mpi_dt_neg_count(const char *fn, MPI_Count count)
{
    return mpi_err_raise(NULL, MPI_ERR_COUNT, fn, "count=%lld is negative", (long long)count);
}

/* the datatype behind `h` for a query with one or two out-pointers */
static inline int mpi_dt_query(MPI_Datatype h, const char *fn, const void *p1, const void *p2,
                               compi_datatype_t **dt_p)
{
    *dt_p = NULL;
    if (compi_mpi_state != COMPI_STATE_INITIALIZED) {
        return mpi_err_not_initialized(fn);
    }
    if (p1 == NULL || p2 == NULL) {
        return mpi_dt_null(fn, "an output argument");
    }
    return mpi_dt_lookup(h, fn, dt_p);
}

#endif
