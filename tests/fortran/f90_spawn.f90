! f90_spawn: MPI_Comm_spawn and MPI_Comm_spawn_multiple from Fortran, with argument
! vectors of blank-padded strings (and MPI_ARGV_NULL).  The parents spawn this program
! twice; each child checks its arguments against what its parents gave and sends back its
! rank; the parents check the sums.  Rank 0 of the parents prints "ok: f90_spawn np=N".
PROGRAM f90_spawn
  USE mpi
  USE ftest
  IMPLICIT NONE
  INTEGER :: ierr, rank, np, parent, inter, i, n, sum, remote
  INTEGER :: errcodes(3), maxprocs(2), infos(2)
  CHARACTER(LEN=256) :: self, arg
  CHARACTER(LEN=16) :: argv(3), argvs(2, 3)
  CHARACTER(LEN=256) :: cmds(2)

  CALL MPI_Init(ierr)
  CALL MPI_Comm_get_parent(parent, ierr)
  CALL GET_COMMAND_ARGUMENT(0, self)
  IF (parent /= MPI_COMM_NULL) THEN
    ! a child: its arguments say what it must see
    CALL MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    n = COMMAND_ARGUMENT_COUNT()
    IF (n > 0) CALL GET_COMMAND_ARGUMENT(1, arg)
    sum = rank
    IF (n == 2) THEN
      CALL GET_COMMAND_ARGUMENT(2, arg)
      IF (arg /= 'two words') sum = -1000
    ELSE IF (n == 1) THEN
      IF (arg /= 'one') sum = -1000
    ELSE IF (n /= 0) THEN
      sum = -1000
    END IF
    CALL MPI_Reduce(sum, MPI_BOTTOM, 1, MPI_INTEGER, MPI_SUM, 0, parent, ierr)
    CALL MPI_Comm_disconnect(parent, ierr)
    CALL MPI_Finalize(ierr)
    STOP
  END IF
  CALL MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  CALL MPI_Comm_size(MPI_COMM_WORLD, np, ierr)

  ! two children with arguments "x" and "two words"
  argv(1) = 'x'
  argv(2) = 'two words'
  argv(3) = ' '
  CALL MPI_Comm_spawn(self, argv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, errcodes, ierr)
  IF (ierr /= MPI_SUCCESS) CALL bad('spawn')
  CALL expect_sum(inter, 0 + 1, 'spawn')

  ! spawn_multiple: one child with "one", two with none (MPI_ARGV_NULL is not an
  ! element of ARRAY_OF_ARGV: blank rows end each list)
  cmds = self
  argvs = ' '
  argvs(1, 1) = 'one'
  maxprocs = [1, 2]
  infos = MPI_INFO_NULL
  CALL MPI_Comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD, inter, &
                               errcodes, ierr)
  IF (ierr /= MPI_SUCCESS) CALL bad('spawn_multiple')
  CALL expect_sum(inter, 0 + 1 + 2, 'spawn_multiple')

  ! no arguments at all
  CALL MPI_Comm_spawn(self, MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, &
                      MPI_ERRCODES_IGNORE, ierr)
  CALL expect_sum(inter, 0, 'MPI_ARGV_NULL')

  CALL finish('f90_spawn')
CONTAINS
  ! the children's reduction of their ranks (or -1000 for wrong arguments) to root 0
  SUBROUTINE expect_sum(inter, want, what)
    INTEGER, INTENT(INOUT) :: inter
    INTEGER, INTENT(IN) :: want
    CHARACTER(LEN=*), INTENT(IN) :: what
    INTEGER :: got, root
    root = MPI_PROC_NULL
    IF (rank == 0) root = MPI_ROOT
    got = -1
    CALL MPI_Comm_remote_size(inter, remote, ierr)
    CALL MPI_Reduce(MPI_BOTTOM, got, 1, MPI_INTEGER, MPI_SUM, root, inter, ierr)
    IF (rank == 0 .AND. got /= want) CALL bad(what)
    CALL MPI_Comm_disconnect(inter, ierr)
  END SUBROUTINE expect_sum
END PROGRAM f90_spawn
