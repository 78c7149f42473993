! f08_large: use mpi_f08's large-count forms and its Fortran-only parts.  MPI_Send,
! MPI_Recv, MPI_Sendrecv, MPI_Get_count, MPI_Allreduce, MPI_Bcast and MPI_Allgather with
! INTEGER(KIND=MPI_COUNT_KIND) counts (the generic picks MPI_Send_c ...), MPI_Type_contiguous/Type_size/Reduce_local the same way,
! MPI_Type_get_extent_c by its own name; MPI_SIZEOF of each intrinsic type and kind,
! scalars and arrays, in mpi_f08 and in use mpi; MPI_SUBARRAYS_SUPPORTED (.TRUE. in mpi_f08,
! .FALSE. in use mpi) and MPI_ASYNC_PROTECTS_NONBLOCKING.  Rank 0 prints "ok: f08_large np=N".
SUBROUTINE sizeof_mpi(nbad)
  ! MPI_SIZEOF of the module mpi, with its ierror
  USE mpi, ONLY: MPI_SIZEOF, MPI_SUBARRAYS_SUPPORTED
  IMPLICIT NONE
  INTEGER, INTENT(INOUT) :: nbad
  INTEGER :: s, ierr
  DOUBLE PRECISION :: d(3, 2)
  CALL MPI_SIZEOF(d, s, ierr)
  IF (s /= 8 .OR. ierr /= 0) nbad = nbad + 1
  CALL MPI_SIZEOF(1_2, s, ierr)
  IF (s /= 2) nbad = nbad + 1
  IF (MPI_SUBARRAYS_SUPPORTED) nbad = nbad + 1
END SUBROUTINE sizeof_mpi

PROGRAM f08_large
  USE mpi_f08
  USE ftest
  IMPLICIT NONE
  INTEGER, PARAMETER :: n = 5
  INTEGER(KIND=MPI_COUNT_KIND), PARAMETER :: big = 2_MPI_COUNT_KIND**33
  INTEGER(KIND=MPI_COUNT_KIND) :: cnt, sz, lb, extent
  INTEGER :: rank, np, next, prev, i, s, nbad
  INTEGER :: sbuf(n), rbuf(n)
  INTEGER, ALLOCATABLE :: gbuf(:)
  DOUBLE PRECISION :: dv(4), dr(4)
  TYPE(MPI_Status) :: st
  TYPE(MPI_Datatype) :: t
  INTEGER(KIND=1) :: i1(3)
  INTEGER(KIND=2) :: i2
  INTEGER(KIND=8) :: i8(2, 2)
  REAL(KIND=4) :: r4
  REAL(KIND=8) :: r8(7)
  COMPLEX(KIND=4) :: c4
  COMPLEX(KIND=8) :: c8(2)
  LOGICAL :: l, la(4)
  CHARACTER(LEN=9) :: ch
  ! MPI_SIZEOF's answers for i1, i2, i, i8, r4, r8, c4, c8, l, la, ch
  INTEGER, PARAMETER :: want(11) = [1, 2, 4, 8, 4, 8, 8, 16, 4, 4, 1]
  INTEGER :: sizes(11)

  CALL MPI_Init()
  CALL MPI_Comm_rank(MPI_COMM_WORLD, rank)
  CALL MPI_Comm_size(MPI_COMM_WORLD, np)
  next = MOD(rank + 1, np)
  prev = MOD(rank + np - 1, np)

  ! point to point with MPI_COUNT_KIND counts: MPI_Send_c, MPI_Recv_c, MPI_Get_count_c
  sbuf = [(rank * 100 + i, i = 1, n)]
  rbuf = -1
  IF (MOD(rank, 2) == 0) THEN
    CALL MPI_Send(sbuf, INT(n, MPI_COUNT_KIND), MPI_INTEGER, next, 7, MPI_COMM_WORLD)
    CALL MPI_Recv(rbuf, INT(n, MPI_COUNT_KIND), MPI_INTEGER, prev, 7, MPI_COMM_WORLD, st)
  ELSE
    CALL MPI_Recv(rbuf, INT(n, MPI_COUNT_KIND), MPI_INTEGER, prev, 7, MPI_COMM_WORLD, st)
    CALL MPI_Send(sbuf, INT(n, MPI_COUNT_KIND), MPI_INTEGER, next, 7, MPI_COMM_WORLD)
  END IF
  IF (ANY(rbuf /= [(prev * 100 + i, i = 1, n)])) CALL bad('send_c/recv_c data')
  cnt = -1
  CALL MPI_Get_count(st, MPI_INTEGER, cnt)
  IF (cnt /= n) CALL bad('get_count_c')
  ! a count the default INTEGER cannot hold reaches C whole: Status_set_elements_c
  CALL MPI_Status_set_elements(st, MPI_BYTE, big)
  CALL MPI_Get_count(st, MPI_BYTE, cnt)
  IF (cnt /= big) CALL bad('status_set_elements_c/get_count_c beyond 2^31')
  CALL MPI_Get_count(st, MPI_BYTE, i)
  IF (i /= MPI_UNDEFINED) CALL bad('get_count of a count beyond 2^31')
  rbuf = -1
  CALL MPI_Sendrecv(sbuf, 3_MPI_COUNT_KIND, MPI_INTEGER, next, 8, rbuf, &
                    INT(n, MPI_COUNT_KIND), MPI_INTEGER, prev, 8, MPI_COMM_WORLD, st)
  CALL MPI_Get_count(st, MPI_INTEGER, cnt)
  IF (cnt /= 3 .OR. rbuf(3) /= prev * 100 + 3 .OR. rbuf(4) /= -1) CALL bad('sendrecv_c')

  ! collectives with MPI_COUNT_KIND counts: MPI_Allreduce_c, MPI_Bcast_c, MPI_Allgather_c
  sbuf = [(rank * 100 + i, i = 1, n)]
  rbuf = -1
  CALL MPI_Allreduce(sbuf, rbuf, INT(n, MPI_COUNT_KIND), MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  IF (ANY(rbuf /= [(100 * (np * (np - 1) / 2) + np * i, i = 1, n)])) CALL bad('allreduce_c')
  rbuf = sbuf
  CALL MPI_Bcast(rbuf, INT(n, MPI_COUNT_KIND), MPI_INTEGER, np - 1, MPI_COMM_WORLD)
  IF (ANY(rbuf /= [((np - 1) * 100 + i, i = 1, n)])) CALL bad('bcast_c')
  ALLOCATE(gbuf(np))
  gbuf = -1
  CALL MPI_Allgather(rank, 1_MPI_COUNT_KIND, MPI_INTEGER, gbuf, 1_MPI_COUNT_KIND, MPI_INTEGER, &
                     MPI_COMM_WORLD)
  IF (ANY(gbuf /= [(i, i = 0, np - 1)])) CALL bad('allgather_c')
  DEALLOCATE(gbuf)

  ! datatypes: Type_contiguous_c, Type_size_c, Type_get_extent_c, Reduce_local_c
  CALL MPI_Type_contiguous(4_MPI_COUNT_KIND, MPI_DOUBLE_PRECISION, t)
  CALL MPI_Type_commit(t)
  CALL MPI_Type_size(t, sz)
  IF (sz /= 32) CALL bad('type_size_c')
  CALL MPI_Type_get_extent_c(t, lb, extent)
  IF (lb /= 0 .OR. extent /= 32) CALL bad('type_get_extent_c')
  CALL MPI_Type_free(t)
  dv = [1d0, 2d0, 3d0, 4d0]
  dr = 10d0
  CALL MPI_Reduce_local(dv, dr, 4_MPI_COUNT_KIND, MPI_DOUBLE_PRECISION, MPI_SUM)
  IF (ANY(dr /= [11d0, 12d0, 13d0, 14d0])) CALL bad('reduce_local_c')

  ! MPI_SIZEOF: bytes of one element, scalars and arrays
  sizes = -1
  CALL MPI_Sizeof(i1, sizes(1))
  CALL MPI_Sizeof(i2, sizes(2))
  CALL MPI_Sizeof(i, sizes(3))
  CALL MPI_Sizeof(i8, sizes(4))
  CALL MPI_Sizeof(r4, sizes(5))
  CALL MPI_Sizeof(r8, sizes(6))
  CALL MPI_Sizeof(c4, sizes(7))
  CALL MPI_Sizeof(c8, sizes(8))
  CALL MPI_Sizeof(l, sizes(9))
  CALL MPI_Sizeof(la, sizes(10), i)
  IF (i /= MPI_SUCCESS) CALL bad('sizeof ierror')
  CALL MPI_Sizeof(ch, sizes(11))
  DO i = 1, SIZE(sizes)
    IF (sizes(i) /= want(i)) THEN
      WRITE (*, '(A,I0,A,I0,A,I0)') 'sizeof #', i, ': ', sizes(i), ' instead of ', want(i)
      CALL bad('sizeof')
    END IF
  END DO

  ! the sizes of the types MPI describes them with
  CALL MPI_Type_size(MPI_DOUBLE_COMPLEX, i)
  CALL MPI_Sizeof(c8, s)
  IF (s /= i) CALL bad('sizeof complex(8) /= MPI_DOUBLE_COMPLEX size')
  nbad = 0
  CALL sizeof_mpi(nbad)
  IF (nbad /= 0) CALL bad('use mpi: MPI_SIZEOF')

  ! compi's bindings: mpi_f08's buffers are TYPE(*), DIMENSION(..) (sections work: test
  ! f08_sections), use mpi's TYPE(*), DIMENSION(*); none is ASYNCHRONOUS
  IF (.NOT. MPI_SUBARRAYS_SUPPORTED .OR. MPI_ASYNC_PROTECTS_NONBLOCKING) &
    CALL bad('logical constants')
  CALL finish('f08_large')
END PROGRAM f08_large
