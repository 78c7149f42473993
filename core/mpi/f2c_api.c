/*
 * f2c_api.c -- MPI_*_c2f and MPI_*_f2c: handles are ints in C and Fortran alike, so a
 * Fortran handle is the C handle, unchanged, for every kind of object but files: an
 * MPI_File is a pointer (as in MPICH), whose Fortran handle is its index in the file
 * table (core/mpi/file_args.h).
 */
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/file_args.h"
#include "core/mpi/mpi_state.h"

#include <string.h>

/* the conversions of a kind whose Fortran handle is the C handle; the entry points
   (core/mpi/gen/f2c.c, included last) check nothing: any handle converts */
#define F2C_SAME(kind, type)                                                                       \
    static MPI_Fint kind##_c2f_impl(type h, const char *fn)                                        \
    {                                                                                              \
        (void)fn;                                                                                  \
        return (MPI_Fint)h;                                                                        \
    }                                                                                              \
    static type kind##_f2c_impl(MPI_Fint h, const char *fn)                                        \
    {                                                                                              \
        (void)fn;                                                                                  \
        return (type)h;                                                                            \
    }

F2C_SAME(comm, MPI_Comm)
F2C_SAME(type, MPI_Datatype)
F2C_SAME(group, MPI_Group)
F2C_SAME(op, MPI_Op)
F2C_SAME(request, MPI_Request)
F2C_SAME(info, MPI_Info)
F2C_SAME(errhandler, MPI_Errhandler)
F2C_SAME(message, MPI_Message)
F2C_SAME(session, MPI_Session)
F2C_SAME(win, MPI_Win)

static MPI_Fint file_c2f_impl(MPI_File file, const char *fn)
{
    (void)fn;
    /* a file's Fortran handle is its index in the file table (MPI_FILE_NULL: 0) */
    return file == MPI_FILE_NULL ? 0 : (MPI_Fint)file->handle;
}

static MPI_File file_f2c_impl(MPI_Fint file, const char *fn)
{
    (void)fn;
    return file == 0 ? MPI_FILE_NULL : (MPI_File)handle_get(&file_table, file);
}

/* A Fortran status is the C status copied word for word (MPI_F_STATUS_SIZE INTEGERs).
 * Like the handle conversions these need no library state; the entry points
 * (core/mpi/gen/f2c.c, included last) make a missing status an error of class
 * MPI_ERR_ARG, raised on MPI_COMM_WORLD's handler when MPI is up, returned before. */
COMPI_STATIC_ASSERT(sizeof(MPI_Status) % sizeof(MPI_Fint) == 0,
                    "MPI_Status must be a whole number of Fortran INTEGERs");

static int status_c2f_impl(const MPI_Status *c_status, MPI_Fint *f_status, const char *fn)
{
    (void)fn;
    memcpy(f_status, c_status, sizeof(*c_status));
    return MPI_SUCCESS;
}

static int status_f2c_impl(const MPI_Fint *f_status, MPI_Status *c_status, const char *fn)
{
    (void)fn;
    memcpy(c_status, f_status, sizeof(*c_status));
    return MPI_SUCCESS;
}

#include "core/mpi/gen/f2c.c"
