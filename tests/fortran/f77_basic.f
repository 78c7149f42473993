C     f77_basic: fixed-form Fortran with mpif.h.  Point-to-point around a ring (Send,
C     Recv with a status, Isend/Irecv/Waitall with MPI_STATUSES_IGNORE, Sendrecv,
C     Get_count), collectives blocking and with MPI_IN_PLACE (Allreduce, Reduce, Bcast,
C     Allgather, Alltoall), a derived datatype (Type_vector), a user reduction written
C     in Fortran, MPI_Comm_split, MPI_Comm_f2c/c2f from C and a profiling
C     layer (MPI_BARRIER calling PMPI_BARRIER).  Rank 0 prints
C     "ok: f77_basic np=N" when every check passed.
      PROGRAM F77BASIC
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP, I, J, NEXT, PREV, NBAD, CNT
      INTEGER STATUS(MPI_STATUS_SIZE), REQS(2)
      INTEGER SBUF(10), RBUF(10), ALL(40), VEC(12), COL(4)
      DOUBLE PRECISION D(3), DSUM(3)
      INTEGER MYOP, VTYPE, SPLIT, SRANK, SSIZE
      EXTERNAL MYMAX
      INTEGER NBARR
      COMMON /PROF/ NBARR
      NBAD = 0
      NBARR = 0
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      NEXT = MOD(RANK + 1, NP)
      PREV = MOD(RANK + NP - 1, NP)
C     ring: blocking, with a status
      DO I = 1, 10
         SBUF(I) = RANK * 100 + I
         RBUF(I) = -1
      END DO
      IF (MOD(RANK, 2) .EQ. 0) THEN
         CALL MPI_SEND(SBUF, 10, MPI_INTEGER, NEXT, 7, MPI_COMM_WORLD,
     &        IERR)
         CALL MPI_RECV(RBUF, 10, MPI_INTEGER, MPI_ANY_SOURCE, 7,
     &        MPI_COMM_WORLD, STATUS, IERR)
      ELSE
         CALL MPI_RECV(RBUF, 10, MPI_INTEGER, MPI_ANY_SOURCE, 7,
     &        MPI_COMM_WORLD, STATUS, IERR)
         CALL MPI_SEND(SBUF, 10, MPI_INTEGER, NEXT, 7, MPI_COMM_WORLD,
     &        IERR)
      END IF
      IF (STATUS(MPI_SOURCE) .NE. PREV) CALL BAD(NBAD, 'source')
      IF (STATUS(MPI_TAG) .NE. 7) CALL BAD(NBAD, 'tag')
      CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, CNT, IERR)
      IF (CNT .NE. 10) CALL BAD(NBAD, 'get_count')
      DO I = 1, 10
         IF (RBUF(I) .NE. PREV * 100 + I) CALL BAD(NBAD, 'ring data')
      END DO
C     nonblocking, statuses ignored
      CALL MPI_IRECV(RBUF, 10, MPI_INTEGER, NEXT, 8, MPI_COMM_WORLD,
     &     REQS(1), IERR)
      CALL MPI_ISEND(SBUF, 10, MPI_INTEGER, PREV, 8, MPI_COMM_WORLD,
     &     REQS(2), IERR)
      CALL MPI_WAITALL(2, REQS, MPI_STATUSES_IGNORE, IERR)
      IF (REQS(1) .NE. MPI_REQUEST_NULL) CALL BAD(NBAD, 'request')
      DO I = 1, 10
         IF (RBUF(I) .NE. NEXT * 100 + I) CALL BAD(NBAD, 'irecv data')
      END DO
      CALL MPI_SENDRECV(SBUF, 10, MPI_INTEGER, NEXT, 9, RBUF, 10,
     &     MPI_INTEGER, PREV, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE,
     &     IERR)
      IF (RBUF(1) .NE. PREV * 100 + 1) CALL BAD(NBAD, 'sendrecv')
C     collectives
      D(1) = RANK
      D(2) = 1.0D0
      D(3) = -RANK
      CALL MPI_ALLREDUCE(D, DSUM, 3, MPI_DOUBLE_PRECISION, MPI_SUM,
     &     MPI_COMM_WORLD, IERR)
      IF (DSUM(1) .NE. NP * (NP - 1) / 2) CALL BAD(NBAD, 'allreduce')
      IF (DSUM(2) .NE. NP) CALL BAD(NBAD, 'allreduce 2')
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, D, 3, MPI_DOUBLE_PRECISION,
     &     MPI_MAX, MPI_COMM_WORLD, IERR)
      IF (D(1) .NE. NP - 1 .OR. D(3) .NE. 0) CALL BAD(NBAD, 'in_place')
      J = RANK + 1
      IF (RANK .EQ. 0) THEN
         CALL MPI_REDUCE(MPI_IN_PLACE, J, 1, MPI_INTEGER, MPI_PROD, 0,
     &        MPI_COMM_WORLD, IERR)
         CNT = 1
         DO I = 1, NP
            CNT = CNT * I
         END DO
         IF (J .NE. CNT) CALL BAD(NBAD, 'reduce in_place')
      ELSE
         CALL MPI_REDUCE(J, J, 1, MPI_INTEGER, MPI_PROD, 0,
     &        MPI_COMM_WORLD, IERR)
      END IF
      J = 0
      IF (RANK .EQ. NP - 1) J = 4242
      CALL MPI_BCAST(J, 1, MPI_INTEGER, NP - 1, MPI_COMM_WORLD, IERR)
      IF (J .NE. 4242) CALL BAD(NBAD, 'bcast')
      CALL MPI_ALLGATHER(SBUF, 2, MPI_INTEGER, ALL, 2, MPI_INTEGER,
     &     MPI_COMM_WORLD, IERR)
      DO I = 0, NP - 1
         IF (ALL(2*I + 2) .NE. I*100 + 2) CALL BAD(NBAD, 'allgather')
      END DO
      DO I = 1, NP
         SBUF(I) = RANK * 10 + I - 1
      END DO
      CALL MPI_ALLTOALL(SBUF, 1, MPI_INTEGER, RBUF, 1, MPI_INTEGER,
     &     MPI_COMM_WORLD, IERR)
      DO I = 1, NP
         IF (RBUF(I) .NE. (I-1)*10 + RANK) CALL BAD(NBAD, 'alltoall')
      END DO
C     a user reduction written in Fortran: the maximum, by hand
      CALL MPI_OP_CREATE(MYMAX, .TRUE., MYOP, IERR)
      J = MOD(RANK * 7, NP)
      CALL MPI_ALLREDUCE(J, CNT, 1, MPI_INTEGER, MYOP, MPI_COMM_WORLD,
     &     IERR)
      IF (CNT .NE. NP - 1) CALL BAD(NBAD, 'user op')
      CALL MPI_OP_FREE(MYOP, IERR)
      IF (MYOP .NE. MPI_OP_NULL) CALL BAD(NBAD, 'op_free')
C     a vector type: column 2 of a 4x3 matrix, sent to oneself
      DO I = 1, 12
         VEC(I) = I
      END DO
      CALL MPI_TYPE_VECTOR(1, 4, 4, MPI_INTEGER, VTYPE, IERR)
      CALL MPI_TYPE_COMMIT(VTYPE, IERR)
      CALL MPI_SENDRECV(VEC(5), 1, VTYPE, RANK, 3, COL, 4, MPI_INTEGER,
     &     RANK, 3, MPI_COMM_WORLD, STATUS, IERR)
      DO I = 1, 4
         IF (COL(I) .NE. 4 + I) CALL BAD(NBAD, 'vector')
      END DO
      CALL MPI_TYPE_FREE(VTYPE, IERR)
C     split into halves; handles are the same in C and Fortran
      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, MOD(RANK, 2), -RANK, SPLIT,
     &     IERR)
      CALL MPI_COMM_RANK(SPLIT, SRANK, IERR)
      CALL MPI_COMM_SIZE(SPLIT, SSIZE, IERR)
      IF (SSIZE .NE. (NP+1-MOD(RANK, 2))/2) CALL BAD(NBAD, 'split')
C     keys -RANK: the order of WORLD reversed
      IF (SRANK .NE. SSIZE - 1 - RANK/2) CALL BAD(NBAD, 'split rank')
      CALL MPI_COMM_FREE(SPLIT, IERR)
      IF (SPLIT .NE. MPI_COMM_NULL) CALL BAD(NBAD, 'comm_free')
C     the profiling interface: MPI_BARRIER below counts and calls PMPI_BARRIER
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      IF (NBARR .NE. 1 .OR. IERR .NE. 0) CALL BAD(NBAD, 'pmpi')
      IF (PMPI_WTIME() .LE. 0.0D0) CALL BAD(NBAD, 'wtime')
C     C's view of the Fortran handles (f2c_check.c)
      CALL F2C_CHECK(MPI_COMM_WORLD, NP, NBAD)
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, NBAD, 1, MPI_INTEGER, MPI_SUM,
     &     MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0 .AND. NBAD .EQ. 0) THEN
         WRITE (*, '(A,I0)') 'ok: f77_basic np=', NP
      END IF
      CALL MPI_FINALIZE(IERR)
      END

      SUBROUTINE MYMAX(IN, INOUT, LEN, DTYPE)
      INTEGER LEN, DTYPE, I
      INTEGER IN(LEN), INOUT(LEN)
      DO I = 1, LEN
         IF (IN(I) .GT. INOUT(I)) INOUT(I) = IN(I)
      END DO
      END

C     a profiling layer of one procedure, as a tool would write it
      SUBROUTINE MPI_BARRIER(COMM, IERR)
      INTEGER COMM, IERR, NBARR
      COMMON /PROF/ NBARR
      NBARR = NBARR + 1
      CALL PMPI_BARRIER(COMM, IERR)
      END

      SUBROUTINE BAD(NBAD, WHAT)
      INTEGER NBAD
      CHARACTER*(*) WHAT
      NBAD = NBAD + 1
      WRITE (*, '(A,A)') 'FAILED: ', WHAT
      END
