/*
 * errhandler_api.c -- MPI error handlers and error strings/classes.
 */
#include "core/comm/errhandler.h"

#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <stdio.h>
#include <string.h>

static int bad_comm(const char *func, MPI_Comm h)
{
    return mpi_err_raise(NULL, MPI_ERR_COMM, func, "invalid communicator handle 0x%x", (unsigned)h);
}

static int bad_errh(compi_comm_t *c, const char *func, MPI_Errhandler h)
{
    return mpi_err_raise(c, MPI_ERR_ARG, func, "invalid error handler handle 0x%x", (unsigned)h);
}

#pragma weak MPI_Comm_create_errhandler = PMPI_Comm_create_errhandler
int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    COMPI_CHECK_INIT("MPI_Comm_create_errhandler");
    compi_errhandler_t *e;
    compi_status_t st;
    if (fn == NULL || errhandler == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Comm_create_errhandler", "%s is NULL",
                             fn == NULL ? "function" : "errhandler");
    }
    st = errh_create(fn, &e);
    if (st != COMPI_OK) {
        return mpi_err_raise(NULL, mpi_err_class_of(st), "MPI_Comm_create_errhandler", "%s",
                             compi_status_string(st));
    }
    *errhandler = e->handle;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_set_errhandler = PMPI_Comm_set_errhandler
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    COMPI_CHECK_INIT("MPI_Comm_set_errhandler");
    compi_comm_t *c = comm_from_handle(comm);
    compi_errhandler_t *e = errh_from_handle(errhandler);
    if (c == NULL) {
        return bad_comm("MPI_Comm_set_errhandler", comm);
    }
    if (e == NULL) {
        return bad_errh(c, "MPI_Comm_set_errhandler", errhandler);
    }
    comm_set_errhandler(c, e);
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_get_errhandler = PMPI_Comm_get_errhandler
int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    COMPI_CHECK_INIT("MPI_Comm_get_errhandler");
    compi_comm_t *c = comm_from_handle(comm);
    if (c == NULL) {
        return bad_comm("MPI_Comm_get_errhandler", comm);
    }
    if (errhandler == NULL) {
        return mpi_err_raise(c, MPI_ERR_ARG, "MPI_Comm_get_errhandler", "errhandler is NULL");
    }
    /* the user gets a reference of its own, to give back with MPI_Errhandler_free */
    errh_retain(c->errh);
    *errhandler = c->errh->handle;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_call_errhandler = PMPI_Comm_call_errhandler
int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    COMPI_CHECK_INIT("MPI_Comm_call_errhandler");
    compi_comm_t *c = comm_from_handle(comm);
    char what[96];
    if (c == NULL) {
        return bad_comm("MPI_Comm_call_errhandler", comm);
    }
    snprintf(what, sizeof(what), "error code %d raised by the application", errorcode);
    mpi_err_invoke(c, errorcode, "MPI_Comm_call_errhandler", what);
    /* the handler was called (a fatal one does not come back) */
    return MPI_SUCCESS;
}

#pragma weak MPI_Errhandler_free = PMPI_Errhandler_free
int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    COMPI_CHECK_INIT("MPI_Errhandler_free");
    compi_errhandler_t *e;
    if (errhandler == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Errhandler_free", "errhandler is NULL");
    }
    e = errh_from_handle(*errhandler);
    if (e == NULL) {
        return bad_errh(NULL, "MPI_Errhandler_free", *errhandler);
    }
    /* communicators using it keep their own references; predefined ones are not freed */
    errh_release(e);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

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

/* These two work before MPI_Init and after MPI_Finalize too (MPI 3.1, 8.7). */

#pragma weak MPI_Error_string = PMPI_Error_string
int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    COMPI_API_LOCK();
    if (string == NULL || resultlen == NULL) {
        return MPI_ERR_ARG;
    }
    if (!mpi_err_code_valid(errorcode)) {
        snprintf(string, MPI_MAX_ERROR_STRING, "invalid error code %d", errorcode);
        *resultlen = (int)strlen(string);
        if (compi_mpi_state != COMPI_STATE_INITIALIZED) {
            return MPI_ERR_ARG;
        }
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Error_string",
                             "errorcode=%d is not an MPI error code", errorcode);
    }
    mpi_err_code_string(errorcode, string);
    *resultlen = (int)strlen(string);
    return MPI_SUCCESS;
}

#pragma weak MPI_Error_class = PMPI_Error_class
int PMPI_Error_class(int errorcode, int *errorclass)
{
    COMPI_API_LOCK();
    if (errorclass == NULL) {
        return MPI_ERR_ARG;
    }
    if (!mpi_err_code_valid(errorcode)) {
        if (compi_mpi_state != COMPI_STATE_INITIALIZED) {
            return MPI_ERR_ARG;
        }
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Error_class",
                             "errorcode=%d is not an MPI error code", errorcode);
    }
    /* a class is its own class; a code made with a text (errors.h) carries its class */
    *errorclass = mpi_err_code_class(errorcode);
    return MPI_SUCCESS;
}
