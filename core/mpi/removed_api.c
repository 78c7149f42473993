/*
 * removed_api.c -- the functions MPI-3 removed from the standard, kept for the programs
 * that still call them: each is a call of its replacement's PMPI_ function, which checks
 * the arguments and names itself in the errors it raises.  tools/mpigen/cgen.py's REMOVED
 * lists them (core/mpi/gen/report.txt).  And MPICH 4.0's MPIX_ names of procedures that
 * MPI-4.1 standardised under others, which programs built for MPICH call.
 */
#include "core/mpi/mpi_state.h"

#include <mpi.h>

/* MPI_Errhandler_create, _set and _get, removed in MPI-3.0: MPI_Comm_create_errhandler,
   MPI_Comm_set_errhandler and MPI_Comm_get_errhandler (an MPI_Handler_function is called
   as an MPI_Comm_errhandler_function is) */

#pragma weak MPI_Errhandler_create = PMPI_Errhandler_create
int PMPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler)
{
    COMPI_CHECK_INIT("MPI_Errhandler_create");
    return PMPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)function, errhandler);
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

/* ---- datatypes: addresses, extents, the MPI-1 constructors ----------------------- */

#pragma weak MPI_Address = PMPI_Address
int PMPI_Address(void *location, MPI_Aint *address)
{
    COMPI_API_LOCK();
    return PMPI_Get_address(location, address);
}

#pragma weak MPI_Type_extent = PMPI_Type_extent
int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    COMPI_API_LOCK();
    MPI_Aint lb;
    return PMPI_Type_get_extent(datatype, &lb, extent);
}

#pragma weak MPI_Type_lb = PMPI_Type_lb
int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    COMPI_API_LOCK();
    MPI_Aint extent;
    return PMPI_Type_get_extent(datatype, displacement, &extent);
}

#pragma weak MPI_Type_ub = PMPI_Type_ub
int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    COMPI_API_LOCK();
    MPI_Aint extent;
    int rc = PMPI_Type_get_extent(datatype, displacement, &extent);
    if (rc == MPI_SUCCESS) {
        *displacement += extent;
    }
    return rc;
}

#pragma weak MPI_Type_hvector = PMPI_Type_hvector
int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype *newtype)
{
    COMPI_API_LOCK();
    return PMPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype);
}

#pragma weak MPI_Type_hindexed = PMPI_Type_hindexed
int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    COMPI_API_LOCK();
    return PMPI_Type_create_hindexed(count, array_of_blocklengths, array_of_displacements, oldtype,
                                     newtype);
}

#pragma weak MPI_Type_struct = PMPI_Type_struct
int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    COMPI_API_LOCK();
    return PMPI_Type_create_struct(count, array_of_blocklengths, array_of_displacements,
                                   array_of_types, newtype);
}

/* ---- MPICH 4.0's names of MPI-4.1's procedures ------------------------------------ */

int MPIX_Delete_error_class(int errorclass)
{
    COMPI_CHECK_INIT("MPIX_Delete_error_class");
    return PMPI_Remove_error_class(errorclass);
}

int MPIX_Delete_error_code(int errorcode)
{
    COMPI_CHECK_INIT("MPIX_Delete_error_code");
    return PMPI_Remove_error_code(errorcode);
}

int MPIX_Delete_error_string(int errorcode)
{
    COMPI_CHECK_INIT("MPIX_Delete_error_string");
    return PMPI_Remove_error_string(errorcode);
}
