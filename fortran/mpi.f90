! The module mpi (use mpi): the constants and sentinels of mpif.h and an explicit
! interface per procedure, both generated (tools/mpigen: mpif-module.h is printed at build
! time with mpi.h's values, gen/mpi_interfaces.f90 is committed).  Choice buffers are
! TYPE(*), DIMENSION(*) without type, kind or rank checks (gfortran's NO_ARG_CHECK), so a
! buffer of any type and rank, MPI_BOTTOM and MPI_IN_PLACE among them, goes through.
! MPI_SIZEOF is the generic of the module compi_mpi_sizeof (gen/mpi_sizeof.F90).
! TYPE(MPI_Status) of mpi_f08 is here too, as the standard asks, for MPI_STATUS_F082F and
! MPI_STATUS_F2F08.
MODULE mpi
  USE compi_mpi_sizeof
  USE mpi_f08_types, ONLY : MPI_Status
  IMPLICIT NONE
  INCLUDE 'mpif-module.h'
  INCLUDE 'mpi_interfaces.f90'
END MODULE mpi
