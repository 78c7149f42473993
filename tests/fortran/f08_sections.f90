! f08_sections: use mpi_f08's choice buffers are assumed-rank (MPI_SUBARRAYS_SUPPORTED):
! non-contiguous array sections go to MPI as they are, described by a datatype, with no
! copy by the compiler.  Every rank sends A(1:2N:2) to the next, which receives it into
! B(2:2N:2) (the odd elements stay untouched, Get_count says N); Isend/Irecv of sections
! completed by Waitall; MPI_Bcast of a 2-D section M(2:3, 1:5:2); MPI_Allreduce of
! sections, with MPI_IN_PLACE too; a datatype that does not fit the section's elements
! and a section where no datatype goes with the buffer are MPI_ERR_BUFFER.  Rank 0 prints
! "ok: f08_sections np=N".
PROGRAM f08_sections
  USE mpi_f08
  USE ftest
  IMPLICIT NONE
  INTEGER, PARAMETER :: n = 6, mark = -99
  INTEGER :: rank, np, next, prev, i, j, cnt, ierr, root
  INTEGER :: a(2 * n), b(2 * n), c(3 * n), r(3 * n), m(4, 5)
  DOUBLE PRECISION :: x(3, n), y(3, n)
  TYPE(MPI_Status) :: st
  TYPE(MPI_Request) :: req(2)
  CHARACTER(LEN=8) :: buf(3)

  CALL MPI_Init()
  CALL MPI_Comm_rank(MPI_COMM_WORLD, rank)
  CALL MPI_Comm_size(MPI_COMM_WORLD, np)
  CALL MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  next = MODULO(rank + 1, np)
  prev = MODULO(rank - 1, np)
  IF (.NOT. MPI_SUBARRAYS_SUPPORTED) CALL bad('MPI_SUBARRAYS_SUPPORTED')

  ! a strided send into a strided receive
  a = [(100 * rank + i, i = 1, 2 * n)]
  b = mark
  CALL MPI_Sendrecv(a(1:2 * n:2), n, MPI_INTEGER, next, 1, b(2:2 * n:2), n, MPI_INTEGER, prev, &
                    1, MPI_COMM_WORLD, st)
  DO i = 1, n
    IF (b(2 * i) /= 100 * prev + 2 * i - 1 .OR. b(2 * i - 1) /= mark) CALL bad('Sendrecv sections')
  END DO
  b = mark
  IF (MODULO(rank, 2) == 0) THEN
    CALL MPI_Send(a(1:2 * n:2), n, MPI_INTEGER, next, 2, MPI_COMM_WORLD)
    CALL MPI_Recv(b(2:2 * n:2), n, MPI_INTEGER, prev, 2, MPI_COMM_WORLD, st)
  ELSE
    CALL MPI_Recv(b(2:2 * n:2), n, MPI_INTEGER, prev, 2, MPI_COMM_WORLD, st)
    CALL MPI_Send(a(1:2 * n:2), n, MPI_INTEGER, next, 2, MPI_COMM_WORLD)
  END IF
  CALL MPI_Get_count(st, MPI_INTEGER, cnt)
  IF (cnt /= n) CALL bad('Get_count of a section received')
  DO i = 1, n
    IF (b(2 * i) /= 100 * prev + 2 * i - 1 .OR. b(2 * i - 1) /= mark) CALL bad('Send/Recv sections')
  END DO

  ! nonblocking: the datatypes of the sections outlive the calls that made them
  b = mark
  CALL MPI_Irecv(b(1:2 * n:2), n - 1, MPI_INTEGER, prev, 3, MPI_COMM_WORLD, req(1))
  CALL MPI_Isend(a(2:2 * n:2), n - 1, MPI_INTEGER, next, 3, MPI_COMM_WORLD, req(2))
  CALL MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
  DO i = 1, n - 1
    IF (b(2 * i - 1) /= 100 * prev + 2 * i .OR. b(2 * i) /= mark) CALL bad('Isend/Irecv sections')
  END DO
  IF (b(2 * n - 1) /= mark) CALL bad('Irecv wrote past its count')

  ! a 2-D section, and columns of DOUBLE PRECISION from each root
  DO root = 0, np - 1
    m = mark
    IF (rank == root) m(2:3, 1:5:2) = RESHAPE([(10 * root + i, i = 1, 6)], [2, 3])
    CALL MPI_Bcast(m(2:3, 1:5:2), 6, MPI_INTEGER, root, MPI_COMM_WORLD)
    IF (ANY(m(2:3, 1:5:2) /= RESHAPE([(10 * root + i, i = 1, 6)], [2, 3]))) CALL bad('Bcast 2-D')
    IF (ANY(m(1, :) /= mark) .OR. ANY(m(4, :) /= mark) .OR. ANY(m(:, 2) /= mark) .OR. &
        ANY(m(:, 4) /= mark)) CALL bad('Bcast 2-D wrote outside the section')
  END DO

  ! reductions of sections
  c = [(rank + i, i = 1, 3 * n)]
  r = mark
  CALL MPI_Allreduce(c(1:3 * n:3), r(1:3 * n:3), n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  DO i = 1, n
    j = 3 * i - 2
    IF (r(j) /= np * j + np * (np - 1) / 2) CALL bad('Allreduce of sections')
    IF (r(j + 1) /= mark .OR. r(j + 2) /= mark) CALL bad('Allreduce wrote outside the section')
  END DO
  x = 0
  x(2, :) = [(DBLE(rank * i), i = 1, n)]
  CALL MPI_Allreduce(MPI_IN_PLACE, x(2, :), n, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD)
  DO i = 1, n
    IF (x(2, i) /= DBLE((np - 1) * i) .OR. x(1, i) /= 0 .OR. x(3, i) /= 0) &
      CALL bad('Allreduce in place of a row')
  END DO
  y = 1
  CALL MPI_Reduce(x(2, 1:n:2), y(3, 1:n:2), (n + 1) / 2, MPI_DOUBLE_PRECISION, MPI_SUM, 0, &
                  MPI_COMM_WORLD)
  IF (rank == 0) THEN
    IF (ANY(y(3, 1:n:2) /= np * x(2, 1:n:2)) .OR. ANY(y(3, 2:n:2) /= 1)) CALL bad('Reduce rows')
  END IF

  ! what no datatype describes
  CALL MPI_Send(a(1:2 * n:2), n / 2, MPI_2INTEGER, next, 4, MPI_COMM_WORLD, ierr)
  IF (ierr /= MPI_ERR_BUFFER) CALL bad('a pair type over a section of INTEGERs')
  CALL MPI_Send(a(1:2 * n:2), n + 1, MPI_INTEGER, next, 4, MPI_COMM_WORLD, ierr)
  IF (ierr /= MPI_ERR_BUFFER) CALL bad('a count beyond the section')
  CALL MPI_Buffer_attach(buf(1:3:2), 16, ierr)
  IF (ierr /= MPI_ERR_BUFFER) CALL bad('an attached buffer that is a section')
  CALL MPI_Allreduce(c(1:3 * n:3), r(1:2 * n:2), n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  IF (ierr /= MPI_ERR_BUFFER) CALL bad('two sections of one datatype laid out differently')
  CALL finish('f08_sections')
END PROGRAM f08_sections
