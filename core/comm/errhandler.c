/*
 * errhandler.c -- error handler objects: the predefined three and user ones.
 *
 * What a handler does when an error is raised lives in core/mpi/errors.c; this file only
 * keeps the objects and their references.
 */
#include "core/comm/errhandler.h"

#include <stdlib.h>

handle_table_t errh_table = HANDLE_TABLE_INIT(COMPI_HKIND_ERRHANDLER, 4);

static compi_errhandler_t errh_fatal = {
    .fn = NULL, .handle = MPI_ERRORS_ARE_FATAL, .refcount = 1, .kind = ERRH_FATAL};
static compi_errhandler_t errh_return = {
    .fn = NULL, .handle = MPI_ERRORS_RETURN, .refcount = 1, .kind = ERRH_RETURN};
static compi_errhandler_t errh_abort = {
    .fn = NULL, .handle = MPI_ERRORS_ABORT, .refcount = 1, .kind = ERRH_ABORT};

static int is_predefined(const compi_errhandler_t *e)
{
    return e == &errh_fatal || e == &errh_return || e == &errh_abort;
}

compi_status_t errh_init(void)
{
    compi_errhandler_t *const predef[] = {&errh_fatal, &errh_return, &errh_abort};

    for (size_t i = 0; i < COMPI_ARRAY_SIZE(predef); i++) {
        compi_status_t st =
            handle_set_fixed(&errh_table, (unsigned)i + 1, predef[i]->handle, predef[i]);
        if (st != COMPI_OK) {
            return st;
        }
    }
    return COMPI_OK;
}

void errh_finalize(void)
{
    handle_table_destroy(&errh_table);
}

compi_errhandler_t *errh_predefined(int kind)
{
    switch (kind) {
    case ERRH_RETURN:
        return &errh_return;
    case ERRH_ABORT:
        return &errh_abort;
    default:
        return &errh_fatal;
    }
}

compi_status_t errh_create(MPI_Comm_errhandler_function *fn, compi_errhandler_t **errh_p)
{
    compi_errhandler_t *e = calloc(1, sizeof(*e));
    compi_status_t st;

    if (e == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    e->fn = fn;
    e->kind = ERRH_USER;
    e->refcount = 1;
    st = handle_alloc(&errh_table, e, &e->handle);
    if (st != COMPI_OK) {
        free(e);
        return st;
    }
    *errh_p = e;
    return COMPI_OK;
}

void errh_retain(compi_errhandler_t *errh)
{
    if (!is_predefined(errh)) {
        errh->refcount++;
    }
}

void errh_release(compi_errhandler_t *errh)
{
    if (errh == NULL || is_predefined(errh) || --errh->refcount > 0) {
        return;
    }
    handle_free(&errh_table, errh->handle);
    free(errh);
}
