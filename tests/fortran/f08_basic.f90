! f08_basic: use mpi_f08.  Handles as TYPE(MPI_Comm) etc. (== and /= on them),
! TYPE(MPI_Status) with %MPI_SOURCE/%MPI_TAG, ierror left out, point-to-point
! (Isend/Irecv/Waitall with an array of statuses, Probe), collectives with MPI_IN_PLACE,
! a derived datatype (Type_create_struct), a user reduction written in Fortran,
! MPI_Alloc_mem's TYPE(C_PTR), and MPI_Comm_f2c/c2f of %MPI_VAL from C.  The reduction and
! an error handler are procedure pointers of the module's abstract interfaces
! (PROCEDURE(MPI_User_function), PROCEDURE(MPI_Comm_errhandler_function)), so the
! compiler checks the standard's callback interfaces against them.  Rank 0 prints
! "ok: f08_basic np=N".
MODULE f08_basic_ops
  USE mpi_f08
  IMPLICIT NONE
  INTEGER :: nerrh = 0, lastcode = 0
CONTAINS
  ! MPI_Comm_errhandler_function: the communicator as TYPE(MPI_Comm)
  SUBROUTINE count_errors(comm, error_code)
    TYPE(MPI_Comm) :: comm
    INTEGER :: error_code
    nerrh = nerrh + 1
    lastcode = error_code
  END SUBROUTINE count_errors

  ! MPI_User_function, f08 style: the buffers as C pointers
  SUBROUTINE absmax(invec, inoutvec, len, datatype)
    USE, INTRINSIC :: iso_c_binding, ONLY: c_ptr, c_f_pointer
    TYPE(c_ptr), VALUE :: invec, inoutvec
    INTEGER :: len
    TYPE(MPI_Datatype) :: datatype
    INTEGER, POINTER :: a(:), b(:)
    INTEGER :: i
    CALL c_f_pointer(invec, a, [len])
    CALL c_f_pointer(inoutvec, b, [len])
    DO i = 1, len
      b(i) = MAX(ABS(a(i)), ABS(b(i)))
    END DO
  END SUBROUTINE absmax
END MODULE f08_basic_ops

PROGRAM f08_basic
  USE mpi_f08
  USE f08_basic_ops
  USE ftest
  USE, INTRINSIC :: iso_c_binding, ONLY: c_ptr, c_f_pointer
  IMPLICIT NONE
  TYPE(MPI_Comm) :: comm
  TYPE(MPI_Request) :: reqs(2)
  TYPE(MPI_Status) :: st, sts(2)
  TYPE(MPI_Datatype) :: stype
  TYPE(MPI_Op) :: op
  INTEGER :: rank, np, next, prev, cnt, i, ierr, nf
  INTEGER :: sbuf(6), rbuf(6), blens(2)
  INTEGER(KIND=MPI_ADDRESS_KIND) :: displs(2), base, addr
  TYPE pair
    SEQUENCE
    INTEGER :: i
    DOUBLE PRECISION :: d
  END TYPE pair
  TYPE(pair) :: p(2), q(2)
  TYPE(c_ptr) :: mem
  INTEGER, POINTER :: ip(:)
  PROCEDURE(MPI_User_function), POINTER :: userfn => NULL()
  PROCEDURE(MPI_Comm_errhandler_function), POINTER :: errfn => NULL()
  TYPE(MPI_Errhandler) :: errh
  INTEGER :: cls

  CALL MPI_Init()
  CALL MPI_Comm_dup(MPI_COMM_WORLD, comm)
  CALL MPI_Comm_rank(comm, rank)
  CALL MPI_Comm_size(comm, np, ierr)
  IF (ierr /= MPI_SUCCESS) CALL bad('ierror')
  IF (comm == MPI_COMM_WORLD .OR. comm == MPI_COMM_NULL) CALL bad('handle ==')
  next = MOD(rank + 1, np)
  prev = MOD(rank + np - 1, np)

  sbuf = [(rank * 10 + i, i = 1, 6)]
  rbuf = -1
  CALL MPI_Irecv(rbuf, 6, MPI_INTEGER, MPI_ANY_SOURCE, 3, comm, reqs(1))
  CALL MPI_Isend(sbuf, 6, MPI_INTEGER, next, 3, comm, reqs(2))
  CALL MPI_Waitall(2, reqs, sts)
  CALL MPI_F_sync_reg(rbuf)
  IF (sts(1)%MPI_SOURCE /= prev .OR. sts(1)%MPI_TAG /= 3) CALL bad('statuses')
  IF (ANY(rbuf /= [(prev * 10 + i, i = 1, 6)])) CALL bad('isend data')
  IF (reqs(1) /= MPI_REQUEST_NULL) CALL bad('request null')
  ! probe, then receive what it saw
  CALL MPI_Send(sbuf, 4, MPI_INTEGER, next, 4, comm)
  CALL MPI_Probe(prev, 4, comm, st)
  CALL MPI_Get_count(st, MPI_INTEGER, cnt)
  IF (cnt /= 4 .OR. st%MPI_SOURCE /= prev) CALL bad('probe')
  CALL MPI_Recv(rbuf, cnt, MPI_INTEGER, st%MPI_SOURCE, st%MPI_TAG, comm, MPI_STATUS_IGNORE)

  ! collectives, in place
  sbuf = rank
  CALL MPI_Allreduce(MPI_IN_PLACE, sbuf, 6, MPI_INTEGER, MPI_SUM, comm)
  IF (ANY(sbuf /= np * (np - 1) / 2)) CALL bad('allreduce in_place')
  rbuf = 0
  rbuf(rank + 1) = rank + 1
  CALL MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rbuf, 1, MPI_INTEGER, comm)
  DO i = 1, np
    IF (rbuf(i) /= i) CALL bad('allgather in_place')
  END DO
  ! a user reduction in Fortran, through a pointer of the standard's abstract interface
  userfn => absmax
  CALL MPI_Op_create(userfn, .TRUE., op)
  sbuf = -rank
  CALL MPI_Reduce(sbuf, rbuf, 6, MPI_INTEGER, op, 0, comm)
  IF (rank == 0 .AND. ANY(rbuf /= np - 1)) CALL bad('user op')
  CALL MPI_Op_free(op)

  ! a struct type: (integer, double precision) pairs, to the next rank
  CALL MPI_Get_address(p(1)%i, base)
  CALL MPI_Get_address(p(1)%d, addr)
  blens = 1
  displs = [0_MPI_ADDRESS_KIND, addr - base]
  CALL MPI_Type_create_struct(2, blens, displs, [MPI_INTEGER, MPI_DOUBLE_PRECISION], stype)
  CALL MPI_Get_address(p(2)%i, addr)
  CALL MPI_Type_create_resized(stype, 0_MPI_ADDRESS_KIND, addr - base, stype)
  CALL MPI_Type_commit(stype)
  p = [pair(rank, rank + 0.5d0), pair(-rank, -rank - 0.25d0)]
  CALL MPI_Sendrecv(p, 2, stype, next, 5, q, 2, stype, prev, 5, comm, st)
  IF (q(1)%i /= prev .OR. q(1)%d /= prev + 0.5d0 .OR. q(2)%d /= -prev - 0.25d0) &
    CALL bad('struct type')
  CALL MPI_Type_free(stype)
  IF (stype /= MPI_DATATYPE_NULL) CALL bad('type_free')

  ! memory from the library, its address a TYPE(C_PTR)
  CALL MPI_Alloc_mem(40_MPI_ADDRESS_KIND, MPI_INFO_NULL, mem)
  CALL c_f_pointer(mem, ip, [10])
  ip = [(i, i = 1, 10)]
  CALL MPI_Allreduce(MPI_IN_PLACE, ip, 10, MPI_INTEGER, MPI_SUM, comm)
  IF (ip(10) /= 10 * np) CALL bad('alloc_mem')
  CALL MPI_Free_mem(ip)

  ! an error handler through the standard's abstract interface: a send to a rank that is
  ! not there calls it with MPI_ERR_RANK's code
  errfn => count_errors
  CALL MPI_Comm_create_errhandler(errfn, errh)
  CALL MPI_Comm_set_errhandler(comm, errh)
  CALL MPI_Send(sbuf, 1, MPI_INTEGER, np + 3, 0, comm, ierr)
  CALL MPI_Error_class(lastcode, cls)
  IF (nerrh /= 1 .OR. ierr == MPI_SUCCESS .OR. cls /= MPI_ERR_RANK) CALL bad('errhandler')
  CALL MPI_Errhandler_free(errh)

  ! C's view of the handle: f2c_check.c
  nf = 0
  CALL f2c_check(comm%MPI_VAL, np, nf)
  IF (nf /= 0) CALL bad('f2c/c2f')
  CALL MPI_Comm_free(comm)
  CALL finish('f08_basic')
END PROGRAM f08_basic
