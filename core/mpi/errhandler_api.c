/*
 * errhandler_api.c -- MPI error handlers.  The entry points of
 * the communicators' error handlers and of MPI_Errhandler_free are generated
 * (core/mpi/gen/errhandler.c, included last).  MPI_Error_string and MPI_Error_class are
 * with the codes the application adds, in errors_user.c.
 */
#include "core/comm/errhandler.h"

#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <stdio.h>
#include <string.h>

static int comm_create_errhandler_impl(MPI_Comm_errhandler_function *comm_errhandler_fn,
                                       MPI_Errhandler *errhandler, const char *fn)
{
    compi_errhandler_t *e;
    compi_status_t st = errh_create(comm_errhandler_fn, &e);
    if (st != COMPI_OK) {
        return mpi_err_raise(NULL, mpi_err_class_of(st), fn, "%s", compi_status_string(st));
    }
    *errhandler = e->handle;
    return MPI_SUCCESS;
}

static int comm_set_errhandler_impl(compi_comm_t *comm, compi_errhandler_t *errhandler,
                                    const char *fn)
{
    (void)fn;
    comm_set_errhandler(comm, errhandler);
    return MPI_SUCCESS;
}

static int comm_get_errhandler_impl(compi_comm_t *comm, MPI_Errhandler *errhandler, const char *fn)
{
    (void)fn;
    /* the user gets a reference of its own, to give back with MPI_Errhandler_free */
    errh_retain(comm->errh);
    *errhandler = comm->errh->handle;
    return MPI_SUCCESS;
}

static int comm_call_errhandler_impl(compi_comm_t *comm, int errorcode, const char *fn)
{
    char what[96];
    snprintf(what, sizeof(what), "error code %d raised by the application", errorcode);
    mpi_err_invoke(comm, errorcode, fn, what);
    /* the handler was called (a fatal one does not come back) */
    return MPI_SUCCESS;
}

static int errhandler_free_impl(MPI_Errhandler *errhandler, compi_errhandler_t *errhandler_obj,
                                const char *fn)
{
    (void)fn;
    /* communicators using it keep their own references; predefined ones are not freed */
    errh_release(errhandler_obj);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

/* MPI_Errhandler_set and _get, removed from the standard (MPI 3.0), are its successors */

#pragma weak MPI_Errhandler_set = PMPI_Errhandler_set
int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    COMPI_CHECK_INIT("MPI_Errhandler_set");
    return PMPI_Comm_set_errhandler(comm, errhandler);
}

#pragma weak MPI_Errhandler_get = PMPI_Errhandler_get
int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    COMPI_CHECK_INIT("MPI_Errhandler_get");
    return PMPI_Comm_get_errhandler(comm, errhandler);
}

#include "core/mpi/gen/errhandler.c"
