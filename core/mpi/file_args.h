/*
 * file_args.h -- what the MPI-IO API files share (file_api.c, file_view_api.c,
 * file_rw_api.c): a file's errors go to the file's error handler (MPI_FILE_NULL's for a
 * call without a file: MPI_File_open, MPI_File_delete), the check of a file handle, and
 * the error class of an errno value.
 *
 * Ownership: the file table holds borrowed pointers (the file objects are core/io's);
 * MPI_FILE_NULL's handler holds one reference to its error handler.
 */
#ifndef COMPI_MPI_FILE_ARGS_H
#define COMPI_MPI_FILE_ARGS_H

#include "core/comm/errhandler.h"
#include "core/io/file.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>

/* MPI_File_c2f's handles */
extern handle_table_t file_table;

/* MPI_FILE_NULL's error handler (MPI_ERRORS_RETURN until set), the default of the files
   opened after it is set */
compi_errhandler_t *file_null_errh(void);
void file_null_errh_set(compi_errhandler_t *e);

/* at MPI_Finalize, before the error handlers go: the table and MPI_FILE_NULL's handler */
void mpi_file_finalize(void);

/* the handler's call with the file (MPI_FILE_NULL: fh NULL) */
int file_invoke(compi_file_t *fh, int errclass, const char *fn, const char *what);

/* raise errclass on fh's error handler (NULL: MPI_FILE_NULL's) */
static inline int file_err(compi_file_t *fh, int errclass, const char *fn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline int file_err(compi_file_t *fh, int errclass, const char *fn, const char *fmt, ...)
{
    char what[MPI_MAX_ERROR_STRING];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    return file_invoke(fh, errclass, fn, what);
}

/* the file behind h, or NULL with MPI_ERR_FILE raised into *rc */
static inline compi_file_t *file_arg(MPI_File h, const char *fn, int *rc)
{
    *rc = MPI_SUCCESS;
    if (h == MPI_FILE_NULL || handle_get(&file_table, h->handle) != h) {
        *rc = file_err(NULL, MPI_ERR_FILE, fn, "invalid file handle%s",
                       h == MPI_FILE_NULL ? " (MPI_FILE_NULL)" : "");
        return NULL;
    }
    return h;
}

/* the class every rank of a file's communicator agrees on: the largest (collective) */
int file_agree(compi_comm_t *c, int cls);

/* the MPI error class of an errno value of an open, read or write */
int file_errno_class(int err);

/* a data representation registered with MPI_Register_datarep(_c) (file_view_api.c): the
   view's rep is IO_REP_USER + its index */
typedef struct file_datarep {
    char name[MPI_MAX_DATAREP_STRING];
    MPI_Datarep_conversion_function *read_fn, *write_fn;
    MPI_Datarep_conversion_function_c *read_fn_c, *write_fn_c;
    MPI_Datarep_extent_function *extent_fn;
    void *extra_state;
} file_datarep_t;
const file_datarep_t *file_datarep_get(int rep);

/* bytes `count` elements of dt take in the file under fh's view; -1 when the
   representation cannot say */
MPI_Offset file_rep_bytes(const compi_file_t *fh, compi_datatype_t *dt, MPI_Offset count);

#endif
