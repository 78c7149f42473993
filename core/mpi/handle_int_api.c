/*
 * handle_int_api.c -- MPI 5.0's MPI_<Handle>_toint and MPI_<Handle>_fromint: a handle as
 * an int and back.  The int is the handle's Fortran INTEGER (what MPI_<Handle>_c2f
 * gives), so a value passes between C, Fortran and these functions unchanged: the handle
 * itself for every kind but files, whose int is the file's index (f2c_api.c).
 */
#include <mpi.h>

/* one pair per kind of handle, each the c2f/f2c pair of f2c_api.c under MPI 5.0's names,
   MPI_ names weak aliases of the PMPI_ ones as everywhere in the library */
/* clang-format off */
#define HANDLE_INT(Kind, type)                                                                \
    int PMPI_##Kind##_toint(type handle) { return (int)PMPI_##Kind##_c2f(handle); }           \
    type PMPI_##Kind##_fromint(int value) { return PMPI_##Kind##_f2c((MPI_Fint)value); }      \
    extern __typeof__(PMPI_##Kind##_toint) MPI_##Kind##_toint                                 \
        __attribute__((weak, alias("PMPI_" #Kind "_toint")));                                 \
    extern __typeof__(PMPI_##Kind##_fromint) MPI_##Kind##_fromint                             \
        __attribute__((weak, alias("PMPI_" #Kind "_fromint")));
/* clang-format on */

HANDLE_INT(Comm, MPI_Comm)
HANDLE_INT(Type, MPI_Datatype)
HANDLE_INT(Group, MPI_Group)
HANDLE_INT(Request, MPI_Request)
HANDLE_INT(Op, MPI_Op)
HANDLE_INT(Info, MPI_Info)
HANDLE_INT(Errhandler, MPI_Errhandler)
HANDLE_INT(Message, MPI_Message)
HANDLE_INT(Win, MPI_Win)
HANDLE_INT(File, MPI_File)
HANDLE_INT(Session, MPI_Session)
