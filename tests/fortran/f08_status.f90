! f08_status: statuses between use mpi_f08 and use mpi (MPI 4.0): MPI_Status_f082f and
! MPI_Status_f2f08 from both modules, the words where MPI_SOURCE, MPI_TAG and MPI_ERROR
! say; a received status read through MPI_Status_get_source/tag/error (MPI 5.0) and
! carried over keeps its count; MPI_Status_set_tag; MPI 4.1's MPI_Comm_attach_buffer (of
! memory and MPI_BUFFER_AUTOMATIC), MPI_Comm_detach_buffer and MPI_Request_get_status_any
! from Fortran.  Every rank sends to the next.  Rank 0 prints "ok: f08_status np=N".
SUBROUTINE from_mpi(fst, tag, nbad)
  ! the same conversions through use mpi (TYPE(MPI_Status) comes with it)
  USE mpi, ONLY: MPI_Status, MPI_STATUS_SIZE, MPI_TAG, MPI_Status_f2f08, MPI_Status_f082f
  IMPLICIT NONE
  INTEGER, INTENT(IN) :: fst(MPI_STATUS_SIZE), tag
  INTEGER, INTENT(INOUT) :: nbad
  TYPE(MPI_Status) :: s08
  INTEGER :: back(MPI_STATUS_SIZE), ierr
  CALL MPI_Status_f2f08(fst, s08, ierr)
  IF (ierr /= 0 .OR. s08%MPI_TAG /= tag) nbad = nbad + 1
  back = -1
  CALL MPI_Status_f082f(s08, back, ierr)
  IF (ierr /= 0 .OR. ANY(back /= fst) .OR. back(MPI_TAG) /= tag) nbad = nbad + 1
END SUBROUTINE from_mpi

PROGRAM f08_status
  USE mpi_f08
  USE ftest
  IMPLICIT NONE
  INTEGER, PARAMETER :: n = 7
  INTEGER :: rank, np, next, prev, cnt, v, ierr, nbad, idx, sz
  INTEGER :: sbuf(n), rbuf(n), fst(MPI_STATUS_SIZE)
  TYPE(MPI_Status) :: st, st2
  TYPE(MPI_Request) :: req(2)
  LOGICAL :: flag
  CHARACTER, ALLOCATABLE :: bbuf(:)
  INTERFACE
    SUBROUTINE from_mpi(fst, tag, nbad)
      INTEGER, INTENT(IN) :: fst(*), tag
      INTEGER, INTENT(INOUT) :: nbad
    END SUBROUTINE from_mpi
  END INTERFACE

  CALL MPI_Init()
  CALL MPI_Comm_rank(MPI_COMM_WORLD, rank)
  CALL MPI_Comm_size(MPI_COMM_WORLD, np)
  next = MODULO(rank + 1, np)
  prev = MODULO(rank - 1, np)
  sbuf = rank

  ! a buffered send through the communicator's buffer, received with a status
  ALLOCATE (bbuf(4 * n + MPI_BSEND_OVERHEAD))
  CALL MPI_Comm_attach_buffer(MPI_COMM_WORLD, bbuf, SIZE(bbuf), ierr)
  IF (ierr /= MPI_SUCCESS) CALL bad('MPI_Comm_attach_buffer')
  CALL MPI_Irecv(rbuf, n, MPI_INTEGER, prev, 40 + prev, MPI_COMM_WORLD, req(1))
  req(2) = MPI_REQUEST_NULL
  CALL MPI_Bsend(sbuf, n, MPI_INTEGER, next, 40 + rank, MPI_COMM_WORLD, ierr)
  IF (ierr /= MPI_SUCCESS) CALL bad('MPI_Bsend on the communicator''s buffer')
  flag = .FALSE.
  DO WHILE (.NOT. flag)
    CALL MPI_Request_get_status_any(2, req, idx, flag, st)
  END DO
  IF (idx /= 1) CALL bad('MPI_Request_get_status_any: index from 1')
  IF (req(1) == MPI_REQUEST_NULL) CALL bad('MPI_Request_get_status_any freed the request')
  CALL MPI_Wait(req(1), st)
  CALL MPI_Comm_detach_buffer(MPI_COMM_WORLD, bbuf, sz, ierr)
  IF (ierr /= MPI_SUCCESS .OR. sz /= SIZE(bbuf)) CALL bad('MPI_Comm_detach_buffer: size')
  IF (ANY(rbuf /= prev)) CALL bad('received data')

  ! MPI_BUFFER_AUTOMATIC: the library finds the room
  CALL MPI_Comm_attach_buffer(MPI_COMM_WORLD, MPI_BUFFER_AUTOMATIC, 0, ierr)
  IF (ierr /= MPI_SUCCESS) CALL bad('attach MPI_BUFFER_AUTOMATIC')
  sbuf = rank + 1
  rbuf = -1
  CALL MPI_Bsend(sbuf, n, MPI_INTEGER, next, 41, MPI_COMM_WORLD, ierr)
  IF (ierr /= MPI_SUCCESS) CALL bad('MPI_Bsend on MPI_BUFFER_AUTOMATIC')
  CALL MPI_Recv(rbuf, n, MPI_INTEGER, prev, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  IF (ANY(rbuf /= prev + 1)) CALL bad('received data of the automatic buffer')
  CALL MPI_Comm_detach_buffer(MPI_COMM_WORLD, bbuf, sz, ierr)
  IF (ierr /= MPI_SUCCESS .OR. sz /= 0) CALL bad('detach MPI_BUFFER_AUTOMATIC: size')

  CALL MPI_Status_get_source(st, v)
  IF (v /= prev) CALL bad('MPI_Status_get_source')
  CALL MPI_Status_get_tag(st, v)
  IF (v /= 40 + prev) CALL bad('MPI_Status_get_tag')
  CALL MPI_Status_get_error(st, v, ierr)
  IF (ierr /= MPI_SUCCESS) CALL bad('MPI_Status_get_error')

  ! to use mpi's INTEGER status and back
  fst = -1
  CALL MPI_Status_f082f(st, fst, ierr)
  IF (ierr /= MPI_SUCCESS) CALL bad('MPI_Status_f082f')
  IF (fst(MPI_SOURCE) /= prev .OR. fst(MPI_TAG) /= 40 + prev) CALL bad('f082f: the words')
  CALL MPI_Status_f2f08(fst, st2)
  IF (st2%MPI_SOURCE /= st%MPI_SOURCE .OR. st2%MPI_TAG /= st%MPI_TAG .OR. &
      st2%MPI_ERROR /= st%MPI_ERROR) CALL bad('MPI_Status_f2f08')
  CALL MPI_Get_count(st2, MPI_INTEGER, cnt)
  IF (cnt /= n) CALL bad('the count through the INTEGER status')
  CALL MPI_Status_set_tag(st2, 99)
  CALL MPI_Status_get_tag(st2, v)
  IF (v /= 99 .OR. st2%MPI_TAG /= 99) CALL bad('MPI_Status_set_tag')
  CALL MPI_Get_count(st2, MPI_INTEGER, cnt)
  IF (cnt /= n) CALL bad('MPI_Status_set_tag changed the count')

  nbad = 0
  CALL from_mpi(fst, 40 + prev, nbad)
  IF (nbad /= 0) CALL bad('use mpi: MPI_Status_f2f08/f082f')
  DEALLOCATE (bbuf)
  CALL finish('f08_status')
END PROGRAM f08_status
