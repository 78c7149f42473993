/*
 * errhandler_api.c -- MPI error handlers.  The entry points of the communicators' error
 * handlers, of the constructors of windows' and sessions' and of MPI_Errhandler_free are
 * generated (core/mpi/gen/errhandler.c, included last).  MPI_Error_string and MPI_Error_class are
 * with the codes the application adds, in errors_user.c.
 */
#include "core/comm/errhandler.h"

#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <stdio.h>
#include <string.h>

/* a new error handler calling `f`, its errors raised on `errc`; a window's and a session's
   handlers are called as a communicator's is (a pointer to an int handle, the code) */
static int errhandler_new(MPI_Comm_errhandler_function *f, MPI_Errhandler *errhandler,
                          compi_comm_t *errc, const char *fn)
{
    compi_errhandler_t *e;
    compi_status_t st = errh_create(f, &e);
    if (st != COMPI_OK) {
        return mpi_err_raise(errc, mpi_err_class_of(st), fn, "%s", compi_status_string(st));
    }
    *errhandler = e->handle;
    return MPI_SUCCESS;
}

static int comm_create_errhandler_impl(MPI_Comm_errhandler_function *comm_errhandler_fn,
                                       MPI_Errhandler *errhandler, const char *fn)
{
    return errhandler_new(comm_errhandler_fn, errhandler, NULL, fn);
}

static int win_create_errhandler_impl(MPI_Win_errhandler_function *win_errhandler_fn,
                                      MPI_Errhandler *errhandler, const char *fn)
{
    return errhandler_new((MPI_Comm_errhandler_function *)(void *)win_errhandler_fn, errhandler,
                          NULL, fn);
}

/* callable before MPI_Init and after MPI_Finalize, as MPI_Session_init is */
static int session_create_errhandler_impl(MPI_Session_errhandler_function *session_errhandler_fn,
                                          MPI_Errhandler *errhandler, const char *fn)
{
    return errhandler_new((MPI_Comm_errhandler_function *)(void *)session_errhandler_fn, errhandler,
                          MPI_ERR_ANY_TIME, fn);
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

#include "core/mpi/gen/errhandler.c"
