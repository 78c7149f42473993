/*
 * file_args.h -- what the MPI-IO API files share (file_api.c, file_view_api.c,
 * file_rw_api.c): a file's errors go to the file's error handler (MPI_FILE_NULL's for a
 * call without a file: MPI_File_open, MPI_File_delete), the error class of an errno
 * value, and the mpi_arg_file* checks (a file handle's among them): the generated entry
 * points' vocabulary (tools/mpigen/cgen.py, file_checks) for the arguments of a file's
 * procedure, core/mpi/args.h's raised on the file.
 *
 * Ownership: the file table holds borrowed pointers (the file objects are core/io's);
 * MPI_FILE_NULL's handler holds one reference to its error handler.
 */
#ifndef COMPI_MPI_FILE_ARGS_H
#define COMPI_MPI_FILE_ARGS_H

#include "core/comm/comm.h"
#include "core/comm/errhandler.h"
#include "core/dt/dt.h"
#include "core/io/file.h"
#include "core/mpi/errors.h"
#include "core/mpi/info.h"
#include "core/mpi/mpi_state.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

/*
 * The checks of the generated entry points of the file procedures (cgen.py's
 * file_checks): the file first (MPI_ERR_FILE, on MPI_FILE_NULL's handler), then each
 * argument in order, raised on the file's handler (f NULL: MPI_FILE_NULL's, the target
 * of MPI_File_open, MPI_File_delete, MPI_Register_datarep and of a call on MPI_FILE_NULL).
 */
static inline int mpi_arg_file(MPI_File h, const char *fn, compi_file_t **f_p)
{
    if (compi_unlikely(h == MPI_FILE_NULL || handle_get(&file_table, h->handle) != h)) {
        return file_err(NULL, MPI_ERR_FILE, fn, "invalid file handle%s",
                        h == MPI_FILE_NULL ? " (MPI_FILE_NULL)" : "");
    }
    *f_p = h;
    return MPI_SUCCESS;
}

/* a file, or MPI_FILE_NULL (*f_p NULL) for the calls on its error handler */
static inline int mpi_arg_file_or_null(MPI_File h, const char *fn, compi_file_t **f_p)
{
    *f_p = NULL;
    return h == MPI_FILE_NULL ? MPI_SUCCESS : mpi_arg_file(h, fn, f_p);
}

/* the communicator a file is opened on: an intracommunicator (MPI_ERR_COMM) */
static inline int mpi_arg_file_comm(MPI_Comm h, const char *fn, compi_comm_t **c_p)
{
    compi_comm_t *c = comm_from_handle(h);
    if (compi_unlikely(c == NULL || comm_is_inter(c))) {
        return file_err(NULL, MPI_ERR_COMM, fn, "invalid communicator (handle 0x%x)%s", (unsigned)h,
                        c != NULL ? ": an intercommunicator" : "");
    }
    *c_p = c;
    return MPI_SUCCESS;
}

/* a pointer to read or write through, a name: not NULL (MPI_ERR_ARG) */
static inline int mpi_arg_file_ptr(compi_file_t *f, const void *p, const char *what, const char *fn)
{
    if (compi_unlikely(p == NULL)) {
        return file_err(f, MPI_ERR_ARG, fn, "%s is NULL", what);
    }
    return MPI_SUCCESS;
}

/* an offset, a position or a size in the file: not negative (MPI_ERR_ARG) */
static inline int mpi_arg_file_offset(compi_file_t *f, MPI_Offset off, const char *what,
                                      const char *fn)
{
    if (compi_unlikely(off < 0)) {
        return file_err(f, MPI_ERR_ARG, fn, "%s=%lld is negative", what, (long long)off);
    }
    return MPI_SUCCESS;
}

/* a count of elements: not negative (MPI_ERR_COUNT) */
static inline int mpi_arg_file_count(compi_file_t *f, MPI_Count count, const char *what,
                                     const char *fn)
{
    if (compi_unlikely(count < 0)) {
        return file_err(f, MPI_ERR_COUNT, fn, "%s=%lld is negative", what, (long long)count);
    }
    return MPI_SUCCESS;
}

/* a datatype of data or of a view: valid and committed (MPI_ERR_TYPE) */
static inline int mpi_arg_file_type(compi_file_t *f, MPI_Datatype h, const char *what,
                                    const char *fn, compi_datatype_t **dt_p)
{
    compi_datatype_t *dt = dt_from_handle(h);
    if (compi_unlikely(dt == NULL)) {
        return file_err(f, MPI_ERR_TYPE, fn, "invalid %s (handle 0x%x)", what, (unsigned)h);
    }
    if (compi_unlikely(!dt->committed && !dt->predefined)) {
        return file_err(f, MPI_ERR_TYPE, fn, "%s %s is not committed", what, dt_name(dt));
    }
    *dt_p = dt;
    return MPI_SUCCESS;
}

/* a buffer of count elements: not NULL with data (MPI_ERR_BUFFER), but as MPI_BOTTOM with
   a datatype of absolute addresses */
static inline int mpi_arg_file_buf(compi_file_t *f, const void *buf, size_t count,
                                   const compi_datatype_t *dt, const char *what, const char *fn)
{
    if (compi_unlikely(buf == NULL && count > 0 && dt->size > 0 && dt->true_lb == 0)) {
        return file_err(f, MPI_ERR_BUFFER, fn, "%s is NULL with %zu elements", what, count);
    }
    return MPI_SUCCESS;
}

/* a seek's whence: MPI_SEEK_SET, _CUR or _END (MPI_ERR_ARG) */
static inline int mpi_arg_file_whence(compi_file_t *f, int whence, const char *fn)
{
    if (compi_unlikely(whence != MPI_SEEK_SET && whence != MPI_SEEK_CUR &&
                       whence != MPI_SEEK_END)) {
        return file_err(f, MPI_ERR_ARG, fn, "whence=%d is no MPI_SEEK_*", whence);
    }
    return MPI_SUCCESS;
}

/* an access mode: known bits, exactly one of RDONLY, WRONLY and RDWR, no CREATE or EXCL
   with RDONLY, no SEQUENTIAL with RDWR (MPI_ERR_AMODE) */
static inline int mpi_arg_file_amode(compi_file_t *f, int amode, const char *fn)
{
    int rw = (amode & MPI_MODE_RDONLY ? 1 : 0) + (amode & MPI_MODE_WRONLY ? 1 : 0) +
             (amode & MPI_MODE_RDWR ? 1 : 0);
    const int known = MPI_MODE_CREATE | MPI_MODE_RDONLY | MPI_MODE_WRONLY | MPI_MODE_RDWR |
                      MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN | MPI_MODE_EXCL |
                      MPI_MODE_APPEND | MPI_MODE_SEQUENTIAL;
    const char *why = NULL;
    if (amode & ~known) {
        why = "has bits that are no MPI_MODE_*";
    } else if (rw != 1) {
        why = "needs exactly one of MPI_MODE_RDONLY, MPI_MODE_WRONLY and MPI_MODE_RDWR";
    } else if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL))) {
        why = "has MPI_MODE_CREATE or MPI_MODE_EXCL with MPI_MODE_RDONLY";
    } else if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL)) {
        why = "has MPI_MODE_SEQUENTIAL with MPI_MODE_RDWR";
    }
    if (compi_unlikely(why != NULL)) {
        return file_err(f, MPI_ERR_AMODE, fn, "amode 0x%x %s", (unsigned)amode, why);
    }
    return MPI_SUCCESS;
}

/* hints: an info object or MPI_INFO_NULL (MPI_ERR_INFO) */
static inline int mpi_arg_file_info(compi_file_t *f, MPI_Info h, const char *fn)
{
    if (compi_unlikely(h != MPI_INFO_NULL && !mpi_info_valid(h))) {
        return file_err(f, MPI_ERR_INFO, fn, "invalid info handle 0x%x", (unsigned)h);
    }
    return MPI_SUCCESS;
}

/* an error handler (MPI_ERR_ARG: the standard has no class of its own for it) */
static inline int mpi_arg_file_errh(compi_file_t *f, MPI_Errhandler h, const char *what,
                                    const char *fn, compi_errhandler_t **e_p)
{
    compi_errhandler_t *e = errh_from_handle(h);
    if (compi_unlikely(e == NULL)) {
        return file_err(f, MPI_ERR_ARG, fn, "invalid %s handle 0x%x", what, (unsigned)h);
    }
    *e_p = e;
    return MPI_SUCCESS;
}

/* the name of a data representation to register: not NULL, not empty, shorter than
   MPI_MAX_DATAREP_STRING (MPI_ERR_ARG) */
static inline int mpi_arg_file_datarep(compi_file_t *f, const char *name, const char *fn)
{
    if (compi_unlikely(name == NULL || name[0] == '\0' || strlen(name) >= MPI_MAX_DATAREP_STRING)) {
        return file_err(f, MPI_ERR_ARG, fn, "datarep is NULL, empty or too long");
    }
    return MPI_SUCCESS;
}

#endif
