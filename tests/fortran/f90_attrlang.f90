! f90_attrlang: attribute values across languages (MPI 4.1, 19.3.7), with use mpi and the
! C helpers of f2c_check.c.  A value Fortran sets (MPI_COMM_SET_ATTR: address-sized;
! MPI_ATTR_PUT: INTEGER) reads in C as a pointer to MPI's copy of the integer; one C sets
! reads in Fortran as the pointer's address; Fortran callbacks get and give integers,
! and C's MPI_COMM_DUP_FN copies a Fortran value as the integer.  Communicators,
! datatypes and windows, the predefined keys too.  Rank 0 prints "ok: f90_attrlang np=N".
MODULE f90_attrlang_cb
  USE mpi
  IMPLICIT NONE
  INTEGER :: ndelete = 0
  INTEGER :: lastdel = 0
CONTAINS
  SUBROUTINE plus1_fn(oldcomm, keyval, extra, valin, valout, flag, ierr)
    INTEGER :: oldcomm, keyval, ierr
    INTEGER(KIND=MPI_ADDRESS_KIND) :: extra, valin, valout
    LOGICAL :: flag
    valout = valin + 1
    flag = .TRUE.
    ierr = MPI_SUCCESS
  END SUBROUTINE plus1_fn
  ! MPI_KEYVAL_CREATE's callbacks: default INTEGERs
  SUBROUTINE old_delete_fn(comm, keyval, val, extra, ierr)
    INTEGER :: comm, keyval, val, extra, ierr
    ndelete = ndelete + 1
    lastdel = val
    ierr = MPI_SUCCESS
  END SUBROUTINE old_delete_fn
END MODULE f90_attrlang_cb

PROGRAM f90_attrlang
  USE mpi
  USE ftest
  USE f90_attrlang_cb
  IMPLICIT NONE
  INTEGER :: ierr, nbad, fkey, pkey, okey, ckey, tkey, wkey, dup, tdup, win, ival
  INTEGER(KIND=MPI_ADDRESS_KIND) :: val, big, ptr, zero
  LOGICAL :: flag
  INTEGER :: buf(4)

  CALL MPI_Init(ierr)
  nbad = 0
  zero = 0

  ! MPI_COMM_SET_ATTR: C reads a pointer to the address-sized integer
  CALL MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, fkey, zero, ierr)
  CALL MPI_Comm_set_attr(MPI_COMM_WORLD, fkey, 5555_MPI_ADDRESS_KIND, ierr)
  CALL c_read_aint(MPI_COMM_WORLD, fkey, 5555_MPI_ADDRESS_KIND, nbad)
  big = -HUGE(big) + 9
  CALL MPI_Comm_set_attr(MPI_COMM_WORLD, fkey, big, ierr)
  CALL c_read_aint(MPI_COMM_WORLD, fkey, big, nbad)
  CALL MPI_Comm_get_attr(MPI_COMM_WORLD, fkey, val, flag, ierr)
  IF (.NOT. flag .OR. val /= big) CALL bad('Fortran reads its own address-sized value')

  ! a Fortran copy callback's result is an integer too
  CALL MPI_Comm_create_keyval(plus1_fn, MPI_COMM_NULL_DELETE_FN, pkey, zero, ierr)
  CALL MPI_Comm_set_attr(MPI_COMM_WORLD, pkey, 100_MPI_ADDRESS_KIND, ierr)
  CALL MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  CALL MPI_Comm_get_attr(dup, pkey, val, flag, ierr)
  IF (.NOT. flag .OR. val /= 101) CALL bad('Fortran copy callback')
  CALL c_read_aint(dup, pkey, 101_MPI_ADDRESS_KIND, nbad)
  CALL c_read_aint(dup, fkey, big, nbad)
  CALL MPI_Comm_free(dup, ierr)

  ! MPI_ATTR_PUT: C reads a pointer to the INTEGER; both Fortran reads give the value
  CALL MPI_Keyval_create(MPI_DUP_FN, old_delete_fn, okey, 0, ierr)
  CALL MPI_Attr_put(MPI_COMM_WORLD, okey, -7, ierr)
  CALL c_read_fint(MPI_COMM_WORLD, okey, -7, nbad)
  CALL MPI_Attr_get(MPI_COMM_WORLD, okey, ival, flag, ierr)
  IF (.NOT. flag .OR. ival /= -7) CALL bad('MPI_ATTR_GET of an MPI_ATTR_PUT value')
  CALL MPI_Comm_get_attr(MPI_COMM_WORLD, okey, val, flag, ierr)
  IF (.NOT. flag .OR. val /= -7) CALL bad('MPI_COMM_GET_ATTR of an MPI_ATTR_PUT value')
  CALL MPI_Comm_delete_attr(MPI_COMM_WORLD, okey, ierr)
  IF (ndelete /= 1 .OR. lastdel /= -7) CALL bad('Fortran delete callback gets the INTEGER')

  ! C sets a pointer: Fortran reads its address
  CALL c_set_ptr(MPI_COMM_WORLD, pkey, nbad)
  CALL c_ptr_value(ptr)
  CALL MPI_Comm_get_attr(MPI_COMM_WORLD, pkey, val, flag, ierr)
  IF (.NOT. flag .OR. val /= ptr) CALL bad('Fortran reads a C pointer as its address')

  ! C's MPI_COMM_DUP_FN copies a Fortran value as the integer
  CALL c_dup_key(ckey)
  CALL MPI_Comm_set_attr(MPI_COMM_WORLD, ckey, 31415_MPI_ADDRESS_KIND, ierr)
  CALL c_dup_keeps(MPI_COMM_WORLD, ckey, 31415_MPI_ADDRESS_KIND, nbad)
  CALL MPI_Comm_delete_attr(MPI_COMM_WORLD, ckey, ierr)
  CALL MPI_Comm_free_keyval(ckey, ierr)

  ! datatypes
  CALL MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, tkey, zero, ierr)
  CALL MPI_Type_dup(MPI_INTEGER, tdup, ierr)
  CALL MPI_Type_set_attr(tdup, tkey, 777_MPI_ADDRESS_KIND, ierr)
  CALL c_read_type_aint(tdup, tkey, 777_MPI_ADDRESS_KIND, nbad)
  CALL MPI_Type_get_attr(tdup, tkey, val, flag, ierr)
  IF (.NOT. flag .OR. val /= 777) CALL bad('MPI_TYPE_GET_ATTR')
  CALL MPI_Type_free(tdup, ierr)
  CALL MPI_Type_free_keyval(tkey, ierr)

  ! windows, and their predefined keys as values
  CALL MPI_Win_create(buf, 16_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  CALL MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, wkey, zero, ierr)
  CALL MPI_Win_set_attr(win, wkey, 888_MPI_ADDRESS_KIND, ierr)
  CALL c_read_win_aint(win, wkey, 888_MPI_ADDRESS_KIND, nbad)
  CALL MPI_Win_get_attr(win, wkey, val, flag, ierr)
  IF (.NOT. flag .OR. val /= 888) CALL bad('MPI_WIN_GET_ATTR')
  CALL MPI_Win_get_attr(win, MPI_WIN_SIZE, val, flag, ierr)
  IF (.NOT. flag .OR. val /= 16) CALL bad('MPI_WIN_SIZE')
  CALL MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, val, flag, ierr)
  IF (.NOT. flag .OR. val /= 4) CALL bad('MPI_WIN_DISP_UNIT')
  CALL MPI_Win_free(win, ierr)
  CALL MPI_Win_free_keyval(wkey, ierr)

  ! the predefined communicator keys: values in Fortran
  CALL MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, ival, flag, ierr)
  IF (.NOT. flag .OR. ival < 32767) CALL bad('MPI_TAG_UB through MPI_ATTR_GET')
  CALL MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  IF (.NOT. flag .OR. val /= ival) CALL bad('MPI_TAG_UB through MPI_COMM_GET_ATTR')

  CALL MPI_Comm_delete_attr(MPI_COMM_WORLD, fkey, ierr)
  CALL MPI_Comm_delete_attr(MPI_COMM_WORLD, pkey, ierr)
  CALL MPI_Comm_free_keyval(fkey, ierr)
  CALL MPI_Comm_free_keyval(pkey, ierr)
  CALL MPI_Keyval_free(okey, ierr)
  IF (nbad /= 0) CALL bad('C side (above)')
  CALL finish('f90_attrlang')
END PROGRAM f90_attrlang
