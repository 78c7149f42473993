! f90_mpi: free-form Fortran with use mpi (explicit interfaces).  Nonblocking and
! persistent collectives, persistent point-to-point (and MPI_F_sync_reg), MPI_IN_PLACE,
! RMA (a window, Put and Get between fences), attributes with copy and delete callbacks
! written in Fortran (and MPI_COMM_DUP_FN, MPI_TAG_UB), an error handler written in
! Fortran, strings both ways (names, MPI_Error_string), a generalized request with
! Fortran callbacks, MPI_Pcontrol, MPI_Wtime.  Rank 0 prints "ok: f90_mpi np=N".
MODULE f90_mpi_cb
  USE mpi
  IMPLICIT NONE
  INTEGER :: ncopy = 0, ndelete = 0, nerr = 0, lasterr = 0, nfree = 0
CONTAINS
  SUBROUTINE query_fn(extra, status, ierr)
    INTEGER(KIND=MPI_ADDRESS_KIND) :: extra
    INTEGER :: status(MPI_STATUS_SIZE), ierr
    status(MPI_SOURCE) = INT(extra)
    status(MPI_TAG) = 42
    CALL MPI_Status_set_elements(status, MPI_INTEGER, 3, ierr)
    CALL MPI_Status_set_cancelled(status, .FALSE., ierr)
    ierr = MPI_SUCCESS
  END SUBROUTINE query_fn
  SUBROUTINE free_fn(extra, ierr)
    INTEGER(KIND=MPI_ADDRESS_KIND) :: extra
    INTEGER :: ierr
    nfree = nfree + 1
    ierr = MPI_SUCCESS
  END SUBROUTINE free_fn
  SUBROUTINE cancel_fn(extra, complete, ierr)
    INTEGER(KIND=MPI_ADDRESS_KIND) :: extra
    LOGICAL :: complete
    INTEGER :: ierr
    ierr = MPI_SUCCESS
  END SUBROUTINE cancel_fn
  SUBROUTINE copy_fn(oldcomm, keyval, extra, valin, valout, flag, ierr)
    INTEGER :: oldcomm, keyval, ierr
    INTEGER(KIND=MPI_ADDRESS_KIND) :: extra, valin, valout
    LOGICAL :: flag
    ncopy = ncopy + 1
    valout = valin + extra
    flag = .TRUE.
    ierr = MPI_SUCCESS
  END SUBROUTINE copy_fn
  SUBROUTINE delete_fn(comm, keyval, val, extra, ierr)
    INTEGER :: comm, keyval, ierr
    INTEGER(KIND=MPI_ADDRESS_KIND) :: val, extra
    ndelete = ndelete + 1
    ierr = MPI_SUCCESS
  END SUBROUTINE delete_fn
  SUBROUTINE errh_fn(comm, code)
    INTEGER :: comm, code
    nerr = nerr + 1
    lasterr = code
  END SUBROUTINE errh_fn
END MODULE f90_mpi_cb

PROGRAM f90_mpi
  USE mpi
  USE f90_mpi_cb
  USE ftest
  IMPLICIT NONE
  INTEGER :: ierr, rank, np, i, req, reqs(2), key, key2, dup, errh, cls, slen
  INTEGER :: ibuf(8), jbuf(8), win, status(MPI_STATUS_SIZE)
  INTEGER(KIND=MPI_ADDRESS_KIND) :: val, winsize, disp
  DOUBLE PRECISION :: x(4), y(4), t0
  LOGICAL :: flag
  CHARACTER(LEN=MPI_MAX_OBJECT_NAME) :: name
  CHARACTER(LEN=MPI_MAX_ERROR_STRING) :: estr

  CALL MPI_Init(ierr)
  t0 = MPI_Wtime()
  CALL MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  CALL MPI_Comm_size(MPI_COMM_WORLD, np, ierr)

  ! nonblocking collectives
  x = [(DBLE(rank + i), i = 1, 4)]
  CALL MPI_Iallreduce(x, y, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req, ierr)
  CALL MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  DO i = 1, 4
    IF (y(i) /= DBLE(np * i + np * (np - 1) / 2)) CALL bad('iallreduce')
  END DO
  ibuf = rank
  CALL MPI_Ibcast(ibuf, 8, MPI_INTEGER, 0, MPI_COMM_WORLD, reqs(1), ierr)
  CALL MPI_Ibarrier(MPI_COMM_WORLD, reqs(2), ierr)
  CALL MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  IF (ANY(ibuf /= 0)) CALL bad('ibcast')
  ! persistent collective, started three times, in place
  CALL MPI_Allreduce_init(MPI_IN_PLACE, ibuf, 8, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, &
                          MPI_INFO_NULL, req, ierr)
  DO i = 1, 3
    ibuf = rank * i
    CALL MPI_Start(req, ierr)
    CALL MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    IF (ANY(ibuf /= (np - 1) * i)) CALL bad('allreduce_init')
  END DO
  CALL MPI_Request_free(req, ierr)
  ! persistent point-to-point to the next rank
  CALL MPI_Recv_init(jbuf, 8, MPI_INTEGER, MOD(rank + np - 1, np), 5, MPI_COMM_WORLD, &
                     reqs(1), ierr)
  CALL MPI_Send_init(ibuf, 8, MPI_INTEGER, MOD(rank + 1, np), 5, MPI_COMM_WORLD, &
                     reqs(2), ierr)
  DO i = 1, 2
    ibuf = rank + 10 * i
    CALL MPI_Startall(2, reqs, ierr)
    CALL MPI_Wait(reqs(1), status, ierr)
    CALL MPI_Wait(reqs(2), MPI_STATUS_IGNORE, ierr)
    CALL MPI_F_sync_reg(jbuf)
    IF (ANY(jbuf /= MOD(rank + np - 1, np) + 10 * i)) CALL bad('persistent p2p')
    IF (status(MPI_SOURCE) /= MOD(rank + np - 1, np)) CALL bad('persistent status')
  END DO
  CALL MPI_Request_free(reqs(1), ierr)
  CALL MPI_Request_free(reqs(2), ierr)

  ! RMA: each rank puts its rank into slot rank+1 of the next rank's window
  jbuf = -1
  winsize = 8 * 4
  CALL MPI_Win_create(jbuf, winsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  CALL MPI_Win_fence(0, win, ierr)
  disp = rank
  CALL MPI_Put(rank, 1, MPI_INTEGER, MOD(rank + 1, np), disp, 1, MPI_INTEGER, win, ierr)
  CALL MPI_Win_fence(0, win, ierr)
  IF (jbuf(MOD(rank + np - 1, np) + 1) /= MOD(rank + np - 1, np)) CALL bad('put')
  ibuf = -2
  disp = 0
  CALL MPI_Get(ibuf, np, MPI_INTEGER, MOD(rank + 1, np), disp, np, MPI_INTEGER, win, ierr)
  CALL MPI_Win_fence(0, win, ierr)
  IF (ibuf(rank + 1) /= rank) CALL bad('get')
  CALL MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, val, flag, ierr)
  IF (.NOT. flag .OR. val /= 4) CALL bad('win disp_unit')
  CALL MPI_Win_free(win, ierr)

  ! attributes with callbacks in Fortran
  CALL MPI_Comm_create_keyval(copy_fn, delete_fn, key, 5_MPI_ADDRESS_KIND, ierr)
  CALL MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key2, &
                              0_MPI_ADDRESS_KIND, ierr)
  CALL MPI_Comm_set_attr(MPI_COMM_WORLD, key, 100_MPI_ADDRESS_KIND, ierr)
  CALL MPI_Comm_set_attr(MPI_COMM_WORLD, key2, 77_MPI_ADDRESS_KIND, ierr)
  CALL MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  CALL MPI_Comm_get_attr(dup, key, val, flag, ierr)
  IF (.NOT. flag .OR. val /= 105 .OR. ncopy /= 1) CALL bad('copy callback')
  CALL MPI_Comm_get_attr(dup, key2, val, flag, ierr)
  IF (.NOT. flag .OR. val /= 77) CALL bad('MPI_COMM_DUP_FN')
  CALL MPI_Comm_free(dup, ierr)
  IF (ndelete /= 1) CALL bad('delete callback')
  CALL MPI_Comm_delete_attr(MPI_COMM_WORLD, key, ierr)
  IF (ndelete /= 2) CALL bad('delete_attr')
  CALL MPI_Comm_free_keyval(key, ierr)
  CALL MPI_Comm_free_keyval(key2, ierr)
  CALL MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  IF (.NOT. flag .OR. val < 32767) CALL bad('MPI_TAG_UB')

  ! an error handler written in Fortran: a send to a rank that is not there
  CALL MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  CALL MPI_Comm_create_errhandler(errh_fn, errh, ierr)
  CALL MPI_Comm_set_errhandler(dup, errh, ierr)
  CALL MPI_Send(ibuf, 1, MPI_INTEGER, np + 5, 0, dup, ierr)
  CALL MPI_Error_class(lasterr, cls, ierr)
  IF (nerr /= 1 .OR. cls /= MPI_ERR_RANK) CALL bad('errhandler')
  CALL MPI_Error_string(lasterr, estr, slen, ierr)
  IF (slen <= 0 .OR. LEN_TRIM(estr) /= slen) CALL bad('error_string')
  CALL MPI_Errhandler_free(errh, ierr)
  ! names: a string in, a string out (blank-padded)
  CALL MPI_Comm_set_name(dup, 'fortran dup   ', ierr)
  name = 'x'
  CALL MPI_Comm_get_name(dup, name, slen, ierr)
  IF (name /= 'fortran dup' .OR. slen /= 11) CALL bad('comm name')
  CALL MPI_Comm_free(dup, ierr)

  ! a generalized request whose callbacks are Fortran subroutines
  CALL MPI_Grequest_start(query_fn, free_fn, cancel_fn, 7_MPI_ADDRESS_KIND, req, ierr)
  CALL MPI_Test(req, flag, status, ierr)
  IF (flag) CALL bad('grequest done early')
  CALL MPI_Grequest_complete(req, ierr)
  CALL MPI_Wait(req, status, ierr)
  CALL MPI_Get_count(status, MPI_INTEGER, i, ierr)
  IF (status(MPI_SOURCE) /= 7 .OR. status(MPI_TAG) /= 42 .OR. i /= 3) CALL bad('grequest')
  IF (nfree /= 1 .OR. req /= MPI_REQUEST_NULL) CALL bad('grequest free')
  CALL MPI_Pcontrol(1)

  IF (MPI_Wtime() < t0) CALL bad('wtime')
  CALL finish('f90_mpi')
END PROGRAM f90_mpi
