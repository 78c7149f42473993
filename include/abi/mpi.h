/*
 * mpi.h for programs compiled against the MPI standard ABI: mpicc_abi puts this folder
 * before compi's include folder, so that #include <mpi.h> gives the standard ABI's
 * header (mpi_abi.h) and not compi's native one.
 */
#include <mpi_abi.h>
