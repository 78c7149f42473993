/*
 * removed_api.c -- procedures removed from the MPI standard that compi still exports, each
 * a call of the procedure that replaced it (tools/mpigen/cgen.py's REMOVED lists them; its
 * report names them apart from the entry points written by hand).
 */
#include "core/mpi/mpi_state.h"

#include <mpi.h>

/* MPI_Errhandler_set and _get, removed in MPI-3.0: MPI_Comm_set_errhandler and
   MPI_Comm_get_errhandler */

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
