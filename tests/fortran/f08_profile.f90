! f08_profile: the profiling interface of use mpi_f08 (MPI 4.1, 19.1.5, 15.2).  The
! program defines the specific procedures MPI_Send_f08ts (a choice buffer) and
! MPI_Comm_rank_f08 (none), which count their calls and call PMPI_Send_f08ts and the
! generic PMPI_Comm_rank; the program's own calls through the generic names MPI_Send and
! MPI_Comm_rank must reach them, and the messages still arrive.  Rank 0 prints
! "ok: f08_profile np=N".
MODULE f08_profile_counts
  IMPLICIT NONE
  INTEGER :: nsend = 0, nrank = 0, sent = 0
END MODULE f08_profile_counts

SUBROUTINE MPI_Send_f08ts(buf, count, datatype, dest, tag, comm, ierror)
  USE mpi_f08, tool_noname => MPI_Send_f08ts
  USE f08_profile_counts
  IMPLICIT NONE
  TYPE(*), DIMENSION(..), INTENT(IN) :: buf
  INTEGER, INTENT(IN) :: count, dest, tag
  TYPE(MPI_Datatype), INTENT(IN) :: datatype
  TYPE(MPI_Comm), INTENT(IN) :: comm
  INTEGER, OPTIONAL, INTENT(OUT) :: ierror
  nsend = nsend + 1
  sent = sent + count
  CALL PMPI_Send_f08ts(buf, count, datatype, dest, tag, comm, ierror)
END SUBROUTINE MPI_Send_f08ts

SUBROUTINE MPI_Comm_rank_f08(comm, rank, ierror)
  USE mpi_f08, tool_noname => MPI_Comm_rank_f08
  USE f08_profile_counts
  IMPLICIT NONE
  TYPE(MPI_Comm), INTENT(IN) :: comm
  INTEGER, INTENT(OUT) :: rank
  INTEGER, OPTIONAL, INTENT(OUT) :: ierror
  nrank = nrank + 1
  CALL PMPI_Comm_rank(comm, rank, ierror)
END SUBROUTINE MPI_Comm_rank_f08

PROGRAM f08_profile
  USE mpi_f08
  USE ftest
  USE f08_profile_counts
  IMPLICIT NONE
  INTEGER :: rank, np, buf(3), got(3)
  CALL MPI_Init()
  CALL MPI_Comm_rank(MPI_COMM_WORLD, rank)
  CALL MPI_Comm_size(MPI_COMM_WORLD, np)
  IF (nrank /= 1) CALL bad('MPI_Comm_rank_f08 of the program not called')
  IF (np > 1) THEN
    IF (rank == 0) THEN
      buf = [7, 8, 9]
      CALL MPI_Send(buf, 3, MPI_INTEGER, 1, 5, MPI_COMM_WORLD)
      CALL MPI_Send(buf(2:3), 2, MPI_INTEGER, 1, 6, MPI_COMM_WORLD)
      IF (nsend /= 2 .OR. sent /= 5) CALL bad('MPI_Send_f08ts of the program not called')
    ELSE IF (rank == 1) THEN
      CALL MPI_Recv(got, 3, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
      IF (ANY(got /= [7, 8, 9])) CALL bad('first message')
      got = 0
      CALL MPI_Recv(got, 2, MPI_INTEGER, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
      IF (ANY(got(1:2) /= [8, 9])) CALL bad('second message')
      IF (nsend /= 0) CALL bad('sends counted on the receiver')
    END IF
  END IF
  CALL finish('f08_profile')
END PROGRAM f08_profile
