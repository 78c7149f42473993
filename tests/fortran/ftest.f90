! ftest: what the free-form Fortran tests share (tests/mpi/fortran.sh builds it with each):
! bad() counts a failure and says which, finish() ends the program with rank 0's line
! "ok: NAME np=N" when no rank failed.  Its use of mpi stays inside, so a program can use
! mpi_f08 beside it.
MODULE ftest
  USE mpi, ONLY: MPI_COMM_WORLD, MPI_INTEGER, MPI_SUM, MPI_Comm_rank, MPI_Comm_size, &
                 MPI_Allreduce, MPI_Finalize
  IMPLICIT NONE
  PRIVATE
  PUBLIC :: bad, finish
  INTEGER :: nbad = 0
CONTAINS
  SUBROUTINE bad(what)
    CHARACTER(LEN=*), INTENT(IN) :: what
    INTEGER :: rank, ierr
    nbad = nbad + 1
    CALL MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    WRITE (*, '(A,I0,A,A)') 'FAILED on rank ', rank, ': ', what
  END SUBROUTINE bad

  SUBROUTINE finish(name)
    CHARACTER(LEN=*), INTENT(IN) :: name
    INTEGER :: rank, np, total, ierr
    CALL MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    CALL MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
    CALL MPI_Allreduce(nbad, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    IF (rank == 0 .AND. total == 0) WRITE (*, '(A,A,A,I0)') 'ok: ', name, ' np=', np
    CALL MPI_Finalize(ierr)
  END SUBROUTINE finish
END MODULE ftest
