/*
 * f2c_check.c -- linked into the Fortran tests: C's view of a Fortran handle.
 * CALL F2C_CHECK(COMM, NBAD) counts in NBAD what disagrees: MPI_Comm_f2c of COMM must be
 * a communicator of the same size as Fortran's, and MPI_Comm_c2f must give COMM back.
 */
#include <mpi.h>
#include <stdio.h>

void f2c_check_(MPI_Fint *fcomm, MPI_Fint *fsize, MPI_Fint *nbad);

void f2c_check_(MPI_Fint *fcomm, MPI_Fint *fsize, MPI_Fint *nbad)
{
    MPI_Comm c = MPI_Comm_f2c(*fcomm);
    int size = -1;
    if (MPI_Comm_size(c, &size) != MPI_SUCCESS || size != *fsize) {
        fprintf(stderr, "FAILED: MPI_Comm_f2c(%d): size %d, Fortran says %d\n", (int)*fcomm, size,
                (int)*fsize);
        (*nbad)++;
    }
    if (MPI_Comm_c2f(c) != *fcomm) {
        fprintf(stderr, "FAILED: MPI_Comm_c2f(MPI_Comm_f2c(%d)) is %d\n", (int)*fcomm,
                (int)MPI_Comm_c2f(c));
        (*nbad)++;
    }
}
