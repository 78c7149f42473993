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

#pragma weak MPI_Comm_c2f = PMPI_Comm_c2f
MPI_Fint PMPI_Comm_c2f(MPI_Comm comm)
{
    COMPI_API_LOCK();
    return (MPI_Fint)comm;
}

#pragma weak MPI_Comm_f2c = PMPI_Comm_f2c
MPI_Comm PMPI_Comm_f2c(MPI_Fint comm)
{
    COMPI_API_LOCK();
    return (MPI_Comm)comm;
}

#pragma weak MPI_Type_c2f = PMPI_Type_c2f
MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype)
{
    COMPI_API_LOCK();
    return (MPI_Fint)datatype;
}

#pragma weak MPI_Type_f2c = PMPI_Type_f2c
MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype)
{
    COMPI_API_LOCK();
    return (MPI_Datatype)datatype;
}

#pragma weak MPI_Group_c2f = PMPI_Group_c2f
MPI_Fint PMPI_Group_c2f(MPI_Group group)
{
    COMPI_API_LOCK();
    return (MPI_Fint)group;
}

#pragma weak MPI_Group_f2c = PMPI_Group_f2c
MPI_Group PMPI_Group_f2c(MPI_Fint group)
{
    COMPI_API_LOCK();
    return (MPI_Group)group;
}

#pragma weak MPI_Op_c2f = PMPI_Op_c2f
MPI_Fint PMPI_Op_c2f(MPI_Op op)
{
    COMPI_API_LOCK();
    return (MPI_Fint)op;
}

#pragma weak MPI_Op_f2c = PMPI_Op_f2c
MPI_Op PMPI_Op_f2c(MPI_Fint op)
{
    COMPI_API_LOCK();
    return (MPI_Op)op;
}

#pragma weak MPI_Request_c2f = PMPI_Request_c2f
MPI_Fint PMPI_Request_c2f(MPI_Request request)
{
    COMPI_API_LOCK();
    return (MPI_Fint)request;
}

#pragma weak MPI_Request_f2c = PMPI_Request_f2c
MPI_Request PMPI_Request_f2c(MPI_Fint request)
{
    COMPI_API_LOCK();
    return (MPI_Request)request;
}

#pragma weak MPI_Info_c2f = PMPI_Info_c2f
MPI_Fint PMPI_Info_c2f(MPI_Info info)
{
    COMPI_API_LOCK();
    return (MPI_Fint)info;
}

#pragma weak MPI_Info_f2c = PMPI_Info_f2c
MPI_Info PMPI_Info_f2c(MPI_Fint info)
{
    COMPI_API_LOCK();
    return (MPI_Info)info;
}

#pragma weak MPI_Errhandler_c2f = PMPI_Errhandler_c2f
MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler errhandler)
{
    COMPI_API_LOCK();
    return (MPI_Fint)errhandler;
}

#pragma weak MPI_Errhandler_f2c = PMPI_Errhandler_f2c
MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint errhandler)
{
    COMPI_API_LOCK();
    return (MPI_Errhandler)errhandler;
}

#pragma weak MPI_Message_c2f = PMPI_Message_c2f
MPI_Fint PMPI_Message_c2f(MPI_Message message)
{
    COMPI_API_LOCK();
    return (MPI_Fint)message;
}

#pragma weak MPI_Message_f2c = PMPI_Message_f2c
MPI_Message PMPI_Message_f2c(MPI_Fint message)
{
    COMPI_API_LOCK();
    return (MPI_Message)message;
}

#pragma weak MPI_Session_c2f = PMPI_Session_c2f
MPI_Fint PMPI_Session_c2f(MPI_Session session)
{
    COMPI_API_LOCK();
    return (MPI_Fint)session;
}

#pragma weak MPI_Session_f2c = PMPI_Session_f2c
MPI_Session PMPI_Session_f2c(MPI_Fint session)
{
    COMPI_API_LOCK();
    return (MPI_Session)session;
}

#pragma weak MPI_Win_c2f = PMPI_Win_c2f
MPI_Fint PMPI_Win_c2f(MPI_Win win)
{
    COMPI_API_LOCK();
    return (MPI_Fint)win;
}

#pragma weak MPI_Win_f2c = PMPI_Win_f2c
MPI_Win PMPI_Win_f2c(MPI_Fint win)
{
    COMPI_API_LOCK();
    return (MPI_Win)win;
}

#pragma weak MPI_File_c2f = PMPI_File_c2f
MPI_Fint PMPI_File_c2f(MPI_File file)
{
    COMPI_API_LOCK();
    /* a file's Fortran handle is its index in the file table (MPI_FILE_NULL: 0) */
    return file == MPI_FILE_NULL ? 0 : (MPI_Fint)file->handle;
}

#pragma weak MPI_File_f2c = PMPI_File_f2c
MPI_File PMPI_File_f2c(MPI_Fint file)
{
    COMPI_API_LOCK();
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
