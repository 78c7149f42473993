/*
 * io_access: MPI-IO data access through every kind of pointer.  Explicit offsets (blocking,
 * nonblocking, collective, split, _c), individual pointers (seek, get_position,
 * get_byte_offset, collective and nonblocking forms), short reads at the end of the file
 * (MPI_Get_count says what moved), the shared file pointer (every record of every rank
 * once; seek_shared, get_position_shared), ordered access in rank order (blocking and
 * split), MPI_MODE_SEQUENTIAL (only shared-pointer access) and MPI_MODE_APPEND.  The
 * argument checks' error classes, raised on the file's handler (MPI_FILE_NULL's for an
 * invalid file and for MPI_File_open, MPI_File_delete and MPI_Register_datarep).
 */
#include "tests/mpi/io_test.h"

#define N 64

static int val(int r, int i)
{
    return r * 100000 + i;
}

static void explicit_and_individual(void)
{
    MPI_File fh;
    MPI_Status st;
    MPI_Request rq;
    MPI_Offset pos, off;
    int buf[N], got[N], n = -1, nxt = (mt_rank + 1) % mt_size;

    MPI_OK(MPI_File_open(MPI_COMM_WORLD, io_path("acc"), MPI_MODE_CREATE | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));
    for (int i = 0; i < N; i++) {
        buf[i] = val(mt_rank, i);
    }
    /* blocks of N ints per rank, written four ways */
    MPI_OK(MPI_File_write_at(fh, (MPI_Offset)mt_rank * N * 4, buf, N / 4, MPI_INT, &st));
    MPI_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == N / 4, "write_at: count %d", n);
    MPI_OK(
        MPI_File_iwrite_at(fh, (MPI_Offset)mt_rank * N * 4 + N, buf + N / 4, N / 4, MPI_INT, &rq));
    MPI_OK(MPI_Wait(&rq, &st));
    MPI_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == N / 4, "iwrite_at: count %d", n);
    MPI_OK(MPI_File_write_at_all(fh, (MPI_Offset)mt_rank * N * 4 + 2 * N, buf + N / 2, N / 4,
                                 MPI_INT, MPI_STATUS_IGNORE));
    MPI_OK(MPI_File_write_at_all_begin(fh, (MPI_Offset)mt_rank * N * 4 + 3 * N, buf + 3 * N / 4,
                                       N / 4, MPI_INT));
    io_expect(MPI_File_write_at_all_begin(fh, 0, buf, 1, MPI_INT), MPI_ERR_IO,
              "a second split collective");
    MPI_OK(MPI_File_write_at_all_end(fh, buf, &st));
    MPI_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == N / 4, "write_at_all_end: count %d", n);
    io_expect(MPI_File_write_at_all_end(fh, buf, &st), MPI_ERR_IO, "an end without a begin");
    MPI_OK(MPI_File_sync(fh));

    /* the next rank's block, read four ways */
    memset(got, 0, sizeof(got));
    MPI_OK(MPI_File_read_at_c(fh, (MPI_Offset)nxt * N * 4, got, (MPI_Count)N / 2, MPI_INT, &st));
    MPI_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == N / 2, "read_at_c: count %d", n);
    MPI_OK(MPI_File_iread_at_all(fh, (MPI_Offset)nxt * N * 4 + 2 * N, got + N / 2, N / 4, MPI_INT,
                                 &rq));
    MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    MPI_OK(MPI_File_read_at_all_begin(fh, (MPI_Offset)nxt * N * 4 + 3 * N, got + 3 * N / 4, N / 4,
                                      MPI_INT));
    MPI_OK(MPI_File_read_at_all_end(fh, got, &st));
    for (int i = 0; i < N; i++) {
        CHECK(got[i] == val(nxt, i), "rank %d's int %d: %d", nxt, i, got[i]);
    }

    /* individual pointers: seek, read, position, byte offset */
    MPI_OK(MPI_File_seek(fh, (MPI_Offset)nxt * N * 4, MPI_SEEK_SET));
    MPI_OK(MPI_File_read(fh, got, 10, MPI_INT, &st));
    MPI_OK(MPI_File_get_position(fh, &pos));
    CHECK(pos == (MPI_Offset)nxt * N * 4 + 10 * 4, "position after read: %lld", pos);
    CHECK(got[0] == val(nxt, 0) && got[9] == val(nxt, 9), "read through the pointer");
    MPI_OK(MPI_File_seek(fh, -8, MPI_SEEK_CUR));
    MPI_OK(MPI_File_iread(fh, got, 1, MPI_INT, &rq));
    MPI_OK(MPI_Wait(&rq, &st));
    CHECK(got[0] == val(nxt, 8), "seek CUR then iread: %d", got[0]);
    MPI_OK(MPI_File_get_byte_offset(fh, 12, &off));
    CHECK(off == 12, "byte offset of 12 in a byte view: %lld", off);
    MPI_OK(MPI_File_seek(fh, 0, MPI_SEEK_END));
    MPI_OK(MPI_File_get_position(fh, &pos));
    CHECK(pos == (MPI_Offset)mt_size * N * 4, "SEEK_END: %lld", pos);
    io_expect(MPI_File_seek(fh, -1, MPI_SEEK_SET), MPI_ERR_ARG, "seek before the start");

    /* short reads at the end of the file */
    MPI_OK(MPI_File_read_at(fh, (MPI_Offset)mt_size * N * 4 - 12, got, 10, MPI_INT, &st));
    MPI_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == 3, "short read: count %d, expected 3", n);
    MPI_OK(MPI_Get_elements(&st, MPI_INT, &n));
    CHECK(n == 3, "short read: elements %d", n);
    MPI_OK(MPI_File_read_at(fh, (MPI_Offset)mt_size * N * 4 + 100, got, 10, MPI_INT, &st));
    MPI_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == 0, "read past the end: count %d", n);

    /* collective individual-pointer access */
    MPI_OK(MPI_File_seek(fh, (MPI_Offset)mt_rank * N * 4, MPI_SEEK_SET));
    MPI_OK(MPI_File_read_all(fh, got, N, MPI_INT, &st));
    MPI_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == N && got[N - 1] == val(mt_rank, N - 1), "read_all: count %d", n);
    MPI_OK(MPI_File_seek(fh, (MPI_Offset)mt_rank * N * 4, MPI_SEEK_SET));
    MPI_OK(MPI_File_iwrite_all(fh, buf, N, MPI_INT, &rq));
    MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    MPI_OK(MPI_File_seek(fh, (MPI_Offset)mt_rank * N * 4, MPI_SEEK_SET));
    MPI_OK(MPI_File_read_all_begin(fh, got, N, MPI_INT));
    MPI_OK(MPI_File_read_all_end(fh, got, &st));
    CHECK(got[5] == val(mt_rank, 5), "read_all_begin/end");
    MPI_OK(MPI_File_close(&fh));
}

/* every rank appends K records (rank, seq) through the shared pointer */
static void shared(void)
{
    enum { K = 20 };
    MPI_File fh;
    MPI_Offset pos;
    MPI_Status st;
    MPI_Request rq;
    int rec[2], n;

    MPI_OK(MPI_File_open(MPI_COMM_WORLD, io_path("sh"), MPI_MODE_CREATE | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));
    for (int s = 0; s < K; s++) {
        rec[0] = mt_rank;
        rec[1] = s;
        if (s % 2 == 0) {
            MPI_OK(MPI_File_write_shared(fh, rec, 2, MPI_INT, &st));
        } else {
            MPI_OK(MPI_File_iwrite_shared(fh, rec, 2, MPI_INT, &rq));
            MPI_OK(MPI_Wait(&rq, &st));
        }
        MPI_OK(MPI_Get_count(&st, MPI_INT, &n));
        CHECK(n == 2, "write_shared: count %d", n);
    }
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == (MPI_Offset)mt_size * K * 8, "shared position %lld", pos);
    int *all = calloc((size_t)mt_size * K * 2, sizeof(int));
    char *seen = calloc((size_t)mt_size * K, 1);
    MPI_OK(MPI_File_read_at(fh, 0, all, mt_size * K * 2, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < mt_size * K; i++) {
        int r = all[2 * i], s = all[2 * i + 1];
        CHECK(r >= 0 && r < mt_size && s >= 0 && s < K && !seen[r * K + s],
              "record %d: (%d, %d) is no record or seen twice", i, r, s);
        if (r >= 0 && r < mt_size && s >= 0 && s < K) {
            seen[r * K + s] = 1;
        }
    }
    /* seek_shared back, each rank reads one record through the shared pointer */
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    MPI_OK(MPI_File_read_shared(fh, rec, 2, MPI_INT, &st));
    MPI_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == 2, "read_shared: count %d", n);
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == (MPI_Offset)mt_size * 8, "after read_shared: %lld", pos);
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD)); /* every rank has read it before it moves */

    /* ordered: rank r writes r + 1 ints of value r, in rank order */
    int mine[16];
    for (int i = 0; i <= mt_rank; i++) {
        mine[i] = mt_rank;
    }
    MPI_OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    MPI_OK(MPI_File_write_ordered(fh, mine, mt_rank + 1, MPI_INT, &st));
    MPI_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == mt_rank + 1, "write_ordered: count %d", n);
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_File_read_at(fh, 0, all, mt_size * (mt_size + 1) / 2, MPI_INT, MPI_STATUS_IGNORE));
    for (int r = 0, k = 0; r < mt_size; r++) {
        for (int i = 0; i <= r; i++, k++) {
            CHECK(all[k] == r, "ordered int %d: %d, expected %d", k, all[k], r);
        }
    }
    MPI_OK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    MPI_OK(MPI_File_read_ordered_begin(fh, mine, mt_rank + 1, MPI_INT));
    MPI_OK(MPI_File_read_ordered_end(fh, mine, &st));
    CHECK(mine[0] == mt_rank && mine[mt_rank] == mt_rank, "read_ordered: %d", mine[0]);
    MPI_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == (MPI_Offset)mt_size * (mt_size + 1) / 2 * 4, "after read_ordered: %lld", pos);
    free(all);
    free(seen);
    MPI_OK(MPI_File_close(&fh));
}

static void modes(void)
{
    MPI_File fh;
    MPI_Offset pos;
    int v = mt_rank;

    MPI_OK(MPI_File_open(MPI_COMM_WORLD, io_path("seq"),
                         MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL,
                         &fh));
    io_expect(MPI_File_write_at(fh, 0, &v, 1, MPI_INT, MPI_STATUS_IGNORE),
              MPI_ERR_UNSUPPORTED_OPERATION, "explicit offset under SEQUENTIAL");
    io_expect(MPI_File_seek(fh, 0, MPI_SEEK_SET), MPI_ERR_UNSUPPORTED_OPERATION,
              "seek under SEQUENTIAL");
    io_expect(MPI_File_write(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_UNSUPPORTED_OPERATION,
              "individual pointer under SEQUENTIAL");
    MPI_OK(MPI_File_write_ordered(fh, &v, 1, MPI_INT, MPI_STATUS_IGNORE));
    MPI_OK(MPI_File_close(&fh));

    /* APPEND: both pointers start at the end */
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, io_path("seq"), MPI_MODE_WRONLY | MPI_MODE_APPEND,
                         MPI_INFO_NULL, &fh));
    MPI_OK(MPI_File_get_position(fh, &pos));
    CHECK(pos == (MPI_Offset)mt_size * 4, "APPEND: position %lld", pos);
    MPI_OK(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == (MPI_Offset)mt_size * 4, "APPEND: shared position %lld", pos);
    MPI_OK(MPI_File_close(&fh));
}

/* what the error handlers saw */
static int file_calls, file_code;
static MPI_File file_seen;

static void record(MPI_File *f, int *code, ...)
{
    file_calls++;
    file_seen = *f;
    file_code = *code;
}

static int no_extent(MPI_Datatype t, MPI_Aint *extent, void *state)
{
    (void)t;
    (void)state;
    *extent = 4;
    return MPI_SUCCESS;
}

/* an argument check's class, on the handler given (fh: the file's, MPI_FILE_NULL: its) */
static void expect_on(int rc, int cls, MPI_File on, const char *what)
{
    io_expect(rc, cls, what);
    CHECK(file_calls == 1 && file_code == rc && file_seen == on,
          "%s: %d calls of the handler, code %d, on %s", what, file_calls, file_code,
          file_seen == MPI_FILE_NULL ? "MPI_FILE_NULL" : "a file");
    file_calls = 0;
}

static void arguments(void)
{
    MPI_File fh, other = MPI_FILE_NULL;
    MPI_Errhandler eh, null_eh;
    MPI_Datatype unc;
    MPI_Request req;
    MPI_Info gone;
    MPI_Offset off;
    MPI_Aint ext;
    int v[2] = {1, 2};

    MPI_OK(MPI_File_open(MPI_COMM_WORLD, io_path("args"), MPI_MODE_CREATE | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));
    MPI_OK(MPI_File_create_errhandler(record, &eh));
    MPI_OK(MPI_File_set_errhandler(fh, eh));
    MPI_OK(MPI_File_get_errhandler(MPI_FILE_NULL, &null_eh));
    MPI_OK(MPI_File_set_errhandler(MPI_FILE_NULL, eh));
    MPI_OK(MPI_Type_vector(2, 1, 2, MPI_INT, &unc));

    /* on the file's handler */
    expect_on(MPI_File_write_at(fh, -1, v, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_ARG, fh,
              "write_at at a negative offset");
    expect_on(MPI_File_read_at_all_begin(fh, -4, v, 1, MPI_INT), MPI_ERR_ARG, fh,
              "read_at_all_begin at a negative offset");
    expect_on(MPI_File_write(fh, v, -1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_COUNT, fh,
              "write of a negative count");
    expect_on(MPI_File_write_c(fh, NULL, 2, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_BUFFER, fh,
              "write_c of a NULL buffer");
    expect_on(MPI_File_iread_at(fh, 0, v, 1, unc, &req), MPI_ERR_TYPE, fh,
              "iread_at of an uncommitted type");
    expect_on(MPI_File_read_shared(fh, v, 1, MPI_DATATYPE_NULL, MPI_STATUS_IGNORE), MPI_ERR_TYPE,
              fh, "read_shared of MPI_DATATYPE_NULL");
    expect_on(MPI_File_iwrite(fh, v, 1, MPI_INT, NULL), MPI_ERR_ARG, fh,
              "iwrite without a request");
    expect_on(MPI_File_seek(fh, 0, 12345), MPI_ERR_ARG, fh, "seek with no MPI_SEEK_*");
    expect_on(MPI_File_seek_shared(fh, 0, -7), MPI_ERR_ARG, fh, "seek_shared with no MPI_SEEK_*");
    expect_on(MPI_File_get_byte_offset(fh, -1, &off), MPI_ERR_ARG, fh,
              "get_byte_offset of a negative offset");
    expect_on(MPI_File_get_position(fh, NULL), MPI_ERR_ARG, fh, "get_position into NULL");
    expect_on(MPI_File_preallocate(fh, -1), MPI_ERR_ARG, fh, "preallocate a negative size");
    expect_on(MPI_File_get_type_extent(fh, MPI_DATATYPE_NULL, &ext), MPI_ERR_TYPE, fh,
              "get_type_extent of MPI_DATATYPE_NULL");
    expect_on(MPI_File_set_view(fh, 0, MPI_INT, unc, "native", MPI_INFO_NULL), MPI_ERR_TYPE, fh,
              "set_view with an uncommitted filetype");
    expect_on(MPI_File_set_errhandler(fh, MPI_ERRHANDLER_NULL), MPI_ERR_ARG, fh,
              "set_errhandler of MPI_ERRHANDLER_NULL");

    /* on MPI_FILE_NULL's */
    expect_on(MPI_File_read(MPI_FILE_NULL, v, 1, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_FILE,
              MPI_FILE_NULL, "read of MPI_FILE_NULL");
    expect_on(MPI_File_get_size(MPI_FILE_NULL, &off), MPI_ERR_FILE, MPI_FILE_NULL,
              "get_size of MPI_FILE_NULL");
    expect_on(MPI_File_close(NULL), MPI_ERR_ARG, MPI_FILE_NULL, "close of NULL");
    expect_on(
        MPI_File_open(MPI_COMM_NULL, io_path("args2"), MPI_MODE_RDONLY, MPI_INFO_NULL, &other),
        MPI_ERR_COMM, MPI_FILE_NULL, "open on MPI_COMM_NULL");
    MPI_OK(MPI_Info_create(&gone));
    MPI_OK(MPI_Info_free(&gone));
    MPI_OK(MPI_Info_create(&gone));
    MPI_Info kept = gone;
    MPI_OK(MPI_Info_free(&gone));
    expect_on(MPI_File_open(MPI_COMM_WORLD, io_path("args2"), MPI_MODE_CREATE | MPI_MODE_RDWR, kept,
                            &other),
              MPI_ERR_INFO, MPI_FILE_NULL, "open with a freed info");
    expect_on(MPI_File_open(MPI_COMM_WORLD, io_path("args2"), MPI_MODE_RDWR, MPI_INFO_NULL, NULL),
              MPI_ERR_ARG, MPI_FILE_NULL, "open into NULL");
    expect_on(MPI_File_delete(NULL, MPI_INFO_NULL), MPI_ERR_ARG, MPI_FILE_NULL, "delete of NULL");
    expect_on(
        MPI_Register_datarep("", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, no_extent, NULL),
        MPI_ERR_ARG, MPI_FILE_NULL, "Register_datarep of an empty name");
    CHECK(other == MPI_FILE_NULL, "a failed open gave a file");

    MPI_OK(MPI_File_set_errhandler(MPI_FILE_NULL, null_eh));
    MPI_OK(MPI_Errhandler_free(&null_eh));
    MPI_OK(MPI_Errhandler_free(&eh));
    MPI_OK(MPI_Type_free(&unc));
    MPI_OK(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "io_access");
    io_dir_make(MPI_COMM_WORLD);
    explicit_and_individual();
    shared();
    modes();
    arguments();
    io_dir_remove(MPI_COMM_WORLD);
    return mt_finish();
}
