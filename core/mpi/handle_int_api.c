/*
 * handle_int_api.c -- MPI 5.0's MPI_<Handle>_toint and MPI_<Handle>_fromint: a handle as
 * an int and back.  The int is the handle's Fortran INTEGER (what MPI_<Handle>_c2f
 * gives), so a value passes between C, Fortran and these functions unchanged: the handle
 * itself for every kind but files, whose int is the file's index (f2c_api.c).
 */
#include "core/mpi/mpi_state.h"

#include <mpi.h>

/* one pair per kind of handle, each the c2f/f2c pair of f2c_api.c under MPI 5.0's names;
   the entry points (core/mpi/gen/handle_int.c, included last) check nothing: any handle
   converts */
#define HANDLE_INT(kind, Kind, type)                                                               \
    static int kind##_toint_impl(type handle, const char *fn)                                      \
    {                                                                                              \
        (void)fn;                                                                                  \
        return (int)PMPI_##Kind##_c2f(handle);                                                     \
    }                                                                                              \
    static type kind##_fromint_impl(int value, const char *fn)                                     \
    {                                                                                              \
        (void)fn;                                                                                  \
        return PMPI_##Kind##_f2c((MPI_Fint)value);                                                 \
    }

HANDLE_INT(comm, Comm, MPI_Comm)
HANDLE_INT(type, Type, MPI_Datatype)
HANDLE_INT(group, Group, MPI_Group)
HANDLE_INT(request, Request, MPI_Request)
HANDLE_INT(op, Op, MPI_Op)
HANDLE_INT(info, Info, MPI_Info)
HANDLE_INT(errhandler, Errhandler, MPI_Errhandler)
HANDLE_INT(message, Message, MPI_Message)
HANDLE_INT(win, Win, MPI_Win)
HANDLE_INT(file, File, MPI_File)
HANDLE_INT(session, Session, MPI_Session)

#include "core/mpi/gen/handle_int.c"
