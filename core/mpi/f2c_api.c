/*
 * f2c_api.c -- MPI_*_c2f and MPI_*_f2c: handles are ints in C and Fortran alike, so a
 * Fortran handle is the C handle, unchanged, for every kind of object.
 */
#include <mpi.h>

#pragma weak MPI_Comm_c2f = PMPI_Comm_c2f
MPI_Fint PMPI_Comm_c2f(MPI_Comm comm)
{
    return (MPI_Fint)comm;
}

#pragma weak MPI_Comm_f2c = PMPI_Comm_f2c
MPI_Comm PMPI_Comm_f2c(MPI_Fint comm)
{
    return (MPI_Comm)comm;
}

#pragma weak MPI_Type_c2f = PMPI_Type_c2f
MPI_Fint PMPI_Type_c2f(MPI_Datatype datatype)
{
    return (MPI_Fint)datatype;
}

#pragma weak MPI_Type_f2c = PMPI_Type_f2c
MPI_Datatype PMPI_Type_f2c(MPI_Fint datatype)
{
    return (MPI_Datatype)datatype;
}

#pragma weak MPI_Group_c2f = PMPI_Group_c2f
MPI_Fint PMPI_Group_c2f(MPI_Group group)
{
    return (MPI_Fint)group;
}

#pragma weak MPI_Group_f2c = PMPI_Group_f2c
MPI_Group PMPI_Group_f2c(MPI_Fint group)
{
    return (MPI_Group)group;
}

#pragma weak MPI_Op_c2f = PMPI_Op_c2f
MPI_Fint PMPI_Op_c2f(MPI_Op op)
{
    return (MPI_Fint)op;
}

#pragma weak MPI_Op_f2c = PMPI_Op_f2c
MPI_Op PMPI_Op_f2c(MPI_Fint op)
{
    return (MPI_Op)op;
}

#pragma weak MPI_Request_c2f = PMPI_Request_c2f
MPI_Fint PMPI_Request_c2f(MPI_Request request)
{
    return (MPI_Fint)request;
}

#pragma weak MPI_Request_f2c = PMPI_Request_f2c
MPI_Request PMPI_Request_f2c(MPI_Fint request)
{
    return (MPI_Request)request;
}

#pragma weak MPI_Message_c2f = PMPI_Message_c2f
MPI_Fint PMPI_Message_c2f(MPI_Message message)
{
    return (MPI_Fint)message;
}

#pragma weak MPI_Message_f2c = PMPI_Message_f2c
MPI_Message PMPI_Message_f2c(MPI_Fint message)
{
    return (MPI_Message)message;
}
