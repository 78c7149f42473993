! f90_more: more of the generated glue from use mpi.  A periodic Cartesian grid (LOGICAL
! arrays in and out, Cart_shift), groups (Group_range_incl's (3, n) ranges, translate
! ranks), a distributed graph with MPI_UNWEIGHTED and a neighbour allgather, info strings
! (Info_get's valuelen, nthkey), Type_get_envelope/contents, Pack/Unpack, Scan/Exscan,
! Gatherv/Scatterv, Alltoallv, Reduce_scatter_block, Ialltoall, Win_allocate (its base
! a TYPE(C_PTR)), Alloc_mem (its base an INTEGER), Get_processor_name,
! Get_library_version, and a file (File_open, write_at_all, get_size, read_at, a
! Fortran file error handler, close: the INTEGER handle of a C pointer).  Rank 0 prints "ok: f90_more np=N".
! what a file error handler was given
MODULE f90_more_fh
  IMPLICIT NONE
  INTEGER :: got_fh = -1, got_code = -1
CONTAINS
  SUBROUTINE file_handler(fh, code)
    INTEGER :: fh, code
    got_fh = fh
    got_code = code
  END SUBROUTINE file_handler
END MODULE f90_more_fh

PROGRAM f90_more
  USE mpi
  USE ftest
  USE f90_more_fh
  USE, INTRINSIC :: iso_c_binding, ONLY: c_ptr, c_f_pointer, c_int
  IMPLICIT NONE
  INTEGER :: ierr, rank, np, i, cart, dims(1), coords(1), src, dst, grp, wgrp, sub
  INTEGER :: ranges(3, 1), ranks(2), tr(2), info, nkeys, vlen, dgraph, nb(2), got(2)
  INTEGER :: ni, na, nd, comb, ints(4), dtypes(1), vec, pos, req, win, slen
  INTEGER :: counts(64), displs(64), sbuf(64), rbuf(64), x, y
  INTEGER(KIND=MPI_ADDRESS_KIND) :: adds(1), wsize, ibase
  LOGICAL :: periods(1), flag
  CHARACTER(LEN=40) :: val
  CHARACTER(LEN=8) :: key
  CHARACTER(LEN=MPI_MAX_PROCESSOR_NAME) :: pname
  CHARACTER(LEN=MPI_MAX_LIBRARY_VERSION_STRING) :: lib
  CHARACTER(LEN=1) :: packed(100)
  TYPE(c_ptr) :: base
  INTEGER(c_int), POINTER :: wmem(:)
  INTEGER :: fh, st(MPI_STATUS_SIZE), iobuf(4), cnt, feh
  INTEGER(KIND=MPI_OFFSET_KIND) :: off, fsize
  CHARACTER(LEN=200) :: tdir
  CHARACTER(LEN=260) :: fname

  CALL MPI_Init(ierr)
  CALL MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  CALL MPI_Comm_size(MPI_COMM_WORLD, np, ierr)

  ! a ring as a periodic 1-d grid
  dims = 0
  CALL MPI_Dims_create(np, 1, dims, ierr)
  periods = .TRUE.
  CALL MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .FALSE., cart, ierr)
  periods = .FALSE.
  CALL MPI_Cart_get(cart, 1, dims, periods, coords, ierr)
  IF (dims(1) /= np .OR. .NOT. periods(1) .OR. coords(1) /= rank) CALL bad('cart_get')
  CALL MPI_Cart_shift(cart, 0, 1, src, dst, ierr)
  IF (dst /= MOD(rank + 1, np) .OR. src /= MOD(rank + np - 1, np)) CALL bad('cart_shift')
  CALL MPI_Comm_free(cart, ierr)

  ! the even ranks, by a (first, last, stride) triple
  CALL MPI_Comm_group(MPI_COMM_WORLD, wgrp, ierr)
  ranges(:, 1) = [0, np - 1, 2]
  CALL MPI_Group_range_incl(wgrp, 1, ranges, grp, ierr)
  CALL MPI_Group_size(grp, i, ierr)
  IF (i /= (np + 1) / 2) CALL bad('range_incl')
  ranks = [0, (np - 1) / 2]
  CALL MPI_Group_translate_ranks(grp, 2, ranks, wgrp, tr, ierr)
  IF (tr(1) /= 0 .OR. tr(2) /= 2 * ((np - 1) / 2)) CALL bad('translate_ranks')
  CALL MPI_Group_free(grp, ierr)
  CALL MPI_Group_free(wgrp, ierr)

  ! each rank's neighbours: the previous and the next, unweighted
  nb = [MOD(rank + np - 1, np), MOD(rank + 1, np)]
  CALL MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, nb, MPI_UNWEIGHTED, 2, nb, &
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, .FALSE., dgraph, ierr)
  CALL MPI_Neighbor_allgather(rank, 1, MPI_INTEGER, got, 1, MPI_INTEGER, dgraph, ierr)
  IF (ANY(got /= nb)) CALL bad('neighbor_allgather')
  CALL MPI_Comm_free(dgraph, ierr)

  ! info: strings in, a string out bounded by valuelen
  CALL MPI_Info_create(info, ierr)
  CALL MPI_Info_set(info, 'color', 'dark blue   ', ierr)
  CALL MPI_Info_get_nkeys(info, nkeys, ierr)
  CALL MPI_Info_get_nthkey(info, 0, key, ierr)
  val = 'garbage'
  CALL MPI_Info_get(info, 'color', 4, val, flag, ierr)
  IF (nkeys /= 1 .OR. key /= 'color' .OR. .NOT. flag .OR. val /= 'dark') CALL bad('info')
  CALL MPI_Info_get_valuelen(info, 'color', vlen, flag, ierr)
  IF (vlen /= 9) CALL bad('info valuelen')
  CALL MPI_Info_get(info, 'shape', 10, val, flag, ierr)
  IF (flag) CALL bad('info missing key')
  CALL MPI_Info_free(info, ierr)

  ! a vector type taken apart again, and packed
  CALL MPI_Type_vector(3, 2, 4, MPI_INTEGER, vec, ierr)
  CALL MPI_Type_get_envelope(vec, ni, na, nd, comb, ierr)
  IF (comb /= MPI_COMBINER_VECTOR .OR. ni /= 3 .OR. nd /= 1) CALL bad('envelope')
  CALL MPI_Type_get_contents(vec, 4, 1, 1, ints, adds, dtypes, ierr)
  IF (ANY(ints(1:3) /= [3, 2, 4]) .OR. dtypes(1) /= MPI_INTEGER) CALL bad('contents')
  CALL MPI_Type_commit(vec, ierr)
  sbuf = [(i, i = 1, 64)]
  pos = 0
  CALL MPI_Pack(sbuf, 1, vec, packed, 100, pos, MPI_COMM_WORLD, ierr)
  IF (pos /= 24) CALL bad('pack size')
  rbuf = 0
  pos = 0
  CALL MPI_Unpack(packed, 100, pos, rbuf, 6, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  IF (ANY(rbuf(1:6) /= [1, 2, 5, 6, 9, 10])) CALL bad('unpack')
  CALL MPI_Type_free(vec, ierr)

  ! scans
  CALL MPI_Scan(rank + 1, x, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  IF (x /= (rank + 1) * (rank + 2) / 2) CALL bad('scan')
  y = -7
  CALL MPI_Exscan(rank + 1, y, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  IF (rank > 0 .AND. y /= rank * (rank + 1) / 2) CALL bad('exscan')

  ! v-collectives: rank r has r+1 elements
  counts(1:np) = [(i, i = 1, np)]
  displs(1) = 0
  DO i = 2, np
    displs(i) = displs(i - 1) + counts(i - 1)
  END DO
  sbuf(1:rank + 1) = rank
  CALL MPI_Gatherv(sbuf, rank + 1, MPI_INTEGER, rbuf, counts, displs, MPI_INTEGER, 0, &
                   MPI_COMM_WORLD, ierr)
  IF (rank == 0 .AND. rbuf(displs(np) + 1) /= np - 1) CALL bad('gatherv')
  ! and back: the root sends what it gathered
  sbuf = -1
  CALL MPI_Scatterv(rbuf, counts, displs, MPI_INTEGER, sbuf, rank + 1, MPI_INTEGER, 0, &
                    MPI_COMM_WORLD, ierr)
  IF (ANY(sbuf(1:rank + 1) /= rank) .OR. sbuf(rank + 2) /= -1) CALL bad('scatterv')
  ! alltoallv: one element to each, the sender's rank
  counts(1:np) = 1
  displs(1:np) = [(i - 1, i = 1, np)]
  sbuf(1:np) = rank
  CALL MPI_Alltoallv(sbuf, counts, displs, MPI_INTEGER, rbuf, counts, displs, MPI_INTEGER, &
                     MPI_COMM_WORLD, ierr)
  IF (ANY(rbuf(1:np) /= [(i - 1, i = 1, np)])) CALL bad('alltoallv')
  sbuf(1:np) = [(rank + i, i = 1, np)]
  CALL MPI_Reduce_scatter_block(sbuf, x, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  IF (x /= np * (rank + 1) + np * (np - 1) / 2) CALL bad('reduce_scatter_block')
  CALL MPI_Ialltoall(sbuf, 1, MPI_INTEGER, rbuf, 1, MPI_INTEGER, MPI_COMM_WORLD, req, ierr)
  CALL MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  IF (ANY(rbuf(1:np) /= [(i + rank, i = 0, np - 1)] + 1)) CALL bad('ialltoall')

  ! a window the library allocates; its base as a C pointer
  wsize = 4 * np
  CALL MPI_Win_allocate(wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win, ierr)
  CALL c_f_pointer(base, wmem, [np])
  wmem = -1
  CALL MPI_Win_fence(0, win, ierr)
  DO i = 0, np - 1
    CALL MPI_Put(rank, 1, MPI_INTEGER, i, INT(rank, MPI_ADDRESS_KIND), 1, MPI_INTEGER, &
                 win, ierr)
  END DO
  CALL MPI_Win_fence(0, win, ierr)
  IF (ANY(wmem /= [(i, i = 0, np - 1)])) CALL bad('win_allocate')
  CALL MPI_Win_free(win, ierr)
  ! and memory whose address comes back in an INTEGER(KIND=MPI_ADDRESS_KIND)
  CALL MPI_Alloc_mem(wsize, MPI_INFO_NULL, ibase, ierr)
  base = TRANSFER(ibase, base)
  CALL c_f_pointer(base, wmem, [np])
  wmem = rank
  CALL MPI_Allreduce(MPI_IN_PLACE, wmem, np, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  IF (ANY(wmem /= np - 1)) CALL bad('alloc_mem')
  CALL MPI_Free_mem(wmem, ierr)

  CALL MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, sub, ierr)
  CALL MPI_Comm_size(sub, i, ierr)
  IF (i /= np) CALL bad('split_type')
  CALL MPI_Comm_free(sub, ierr)
  CALL MPI_Get_processor_name(pname, slen, ierr)
  IF (slen <= 0 .OR. LEN_TRIM(pname) /= slen) CALL bad('processor_name')
  CALL MPI_Get_library_version(lib, slen, ierr)
  IF (INDEX(lib, 'compi') == 0) CALL bad('library_version')

  ! a file in TMPDIR that every rank writes 4 INTEGERs of, deleted at close
  CALL GET_ENVIRONMENT_VARIABLE('TMPDIR', tdir, slen)
  IF (slen == 0) tdir = '/tmp'
  CALL SYSTEM_CLOCK(x)
  CALL MPI_Bcast(x, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  WRITE (fname, '(A,A,I0)') TRIM(tdir), '/f90_more_io.', x
  CALL MPI_File_open(MPI_COMM_WORLD, fname, &
                     IOR(IOR(MPI_MODE_CREATE, MPI_MODE_RDWR), MPI_MODE_DELETE_ON_CLOSE), &
                     MPI_INFO_NULL, fh, ierr)
  IF (ierr /= MPI_SUCCESS .OR. fh == MPI_FILE_NULL) CALL bad('file_open')
  iobuf = rank
  off = 16 * rank
  CALL MPI_File_write_at_all(fh, off, iobuf, 4, MPI_INTEGER, st, ierr)
  CALL MPI_Get_count(st, MPI_INTEGER, cnt, ierr)
  IF (ierr /= MPI_SUCCESS .OR. cnt /= 4) CALL bad('file_write_at_all')
  CALL MPI_File_sync(fh, ierr)
  CALL MPI_File_get_size(fh, fsize, ierr)
  IF (fsize /= 16 * np) CALL bad('file_get_size')
  off = 16 * MOD(rank + 1, np)
  CALL MPI_File_read_at(fh, off, iobuf, 4, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  IF (ANY(iobuf /= MOD(rank + 1, np))) CALL bad('file_read_at')
  ! a Fortran file error handler gets the file's INTEGER handle
  CALL MPI_File_create_errhandler(file_handler, feh, ierr)
  CALL MPI_File_set_errhandler(fh, feh, ierr)
  CALL MPI_File_call_errhandler(fh, MPI_ERR_IO, ierr)
  IF (got_fh /= fh .OR. got_code /= MPI_ERR_IO) CALL bad('file_errhandler')
  CALL MPI_Errhandler_free(feh, ierr)
  CALL MPI_File_close(fh, ierr)
  IF (ierr /= MPI_SUCCESS .OR. fh /= MPI_FILE_NULL) CALL bad('file_close')

  CALL finish('f90_more')
END PROGRAM f90_more
