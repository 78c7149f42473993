/*
 * io_nbc.c -- nonblocking and split collective file access that do not complete at their
 * start (core/coll/phases/file_io.c's schedule):
 *   - the order a blocking start would deadlock: rank 0 starts MPI_File_iwrite_at_all,
 *     then MPI_Ssend to rank 1, which receives before it starts its own; the same with
 *     MPI_File_write_all_begin/_end and MPI_File_iread_all;
 *   - MPI_File_iread_all into a strided memory type (unpacked at the end), the status's
 *     count, the individual pointer moved at the start by what was asked for;
 *   - MPI_File_iwrite_all of interleaved records through a file view (two-phase I/O as
 *     a schedule), started in the same order, then the ranks exchange messages around a
 *     ring and call MPI_Test; the file read back;
 *   - a datatype freed while its access is outstanding;
 *   - a write past RLIMIT_FSIZE (EFBIG): the request and a split collective's _end fail
 *     on every rank, and the program goes on.
 * Every access is checked by the file's contents or the buffer read.
 */
#include "tests/mpi/io_test.h"

#include <signal.h>
#include <sys/resource.h>

#define N 256

static int val(int r, int i, int round)
{
    return r * 100000 + i + round * 7;
}

/* rank 0 starts, then a synchronous send to rank 1, which starts only after receiving */
static void ping_after_start(void)
{
    int token = 42;
    if (mt_size < 2) {
        return;
    }
    if (mt_rank == 0) {
        MPI_OK(MPI_Ssend(&token, 1, MPI_INT, 1, 7, MPI_COMM_WORLD));
    } else if (mt_rank == 1) {
        MPI_OK(MPI_Recv(&token, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(token == 42, "token %d", token);
    }
}

static void check_blocks(MPI_File fh, int round, const char *what)
{
    int got[N];
    MPI_OK(MPI_File_read_at(fh, (MPI_Offset)mt_rank * N * 4, got, N, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++) {
        CHECK(got[i] == val(mt_rank, i, round), "%s: int %d is %d, expected %d", what, i, got[i],
              val(mt_rank, i, round));
    }
}

static void start_order(void)
{
    MPI_File fh;
    MPI_Request rq;
    MPI_Status st;
    int buf[N], n = -1;

    MPI_OK(MPI_File_open(MPI_COMM_WORLD, io_path("order"), MPI_MODE_CREATE | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));
    for (int i = 0; i < N; i++) {
        buf[i] = val(mt_rank, i, 1);
    }
    /* iwrite_at_all */
    if (mt_rank != 1) {
        MPI_OK(MPI_File_iwrite_at_all(fh, (MPI_Offset)mt_rank * N * 4, buf, N, MPI_INT, &rq));
        ping_after_start();
    } else {
        ping_after_start();
        MPI_OK(MPI_File_iwrite_at_all(fh, (MPI_Offset)mt_rank * N * 4, buf, N, MPI_INT, &rq));
    }
    MPI_OK(MPI_Wait(&rq, &st));
    MPI_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == N, "iwrite_at_all: count %d", n);
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    check_blocks(fh, 1, "iwrite_at_all");

    /* the split collective */
    for (int i = 0; i < N; i++) {
        buf[i] = val(mt_rank, i, 2);
    }
    MPI_OK(MPI_File_seek(fh, (MPI_Offset)mt_rank * N * 4, MPI_SEEK_SET));
    if (mt_rank != 1) {
        MPI_OK(MPI_File_write_all_begin(fh, buf, N, MPI_INT));
        ping_after_start();
    } else {
        ping_after_start();
        MPI_OK(MPI_File_write_all_begin(fh, buf, N, MPI_INT));
    }
    MPI_OK(MPI_File_write_all_end(fh, buf, &st));
    MPI_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == N, "write_all_begin/end: count %d", n);
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    check_blocks(fh, 2, "write_all_begin/end");

    /* iread_all into every other int of a buffer (a strided memory type), the pointer
       moved by what it asks for at the start */
    int wide[2 * N];
    MPI_Datatype every2;
    MPI_OK(MPI_Type_vector(N, 1, 2, MPI_INT, &every2));
    MPI_OK(MPI_Type_commit(&every2));
    for (int i = 0; i < 2 * N; i++) {
        wide[i] = -1;
    }
    MPI_OK(MPI_File_seek(fh, (MPI_Offset)mt_rank * N * 4, MPI_SEEK_SET));
    if (mt_rank != 1) {
        MPI_OK(MPI_File_iread_all(fh, wide, 1, every2, &rq));
        ping_after_start();
    } else {
        ping_after_start();
        MPI_OK(MPI_File_iread_all(fh, wide, 1, every2, &rq));
    }
    MPI_Offset pos = -1;
    MPI_OK(MPI_File_get_position(fh, &pos));
    CHECK(pos == (MPI_Offset)(mt_rank + 1) * N * 4, "iread_all: position %lld at the start",
          (long long)pos);
    MPI_OK(MPI_Type_free(&every2)); /* the access keeps it */
    MPI_OK(MPI_Wait(&rq, &st));
    MPI_OK(MPI_Get_count(&st, MPI_INT, &n));
    CHECK(n == N, "iread_all: count %d", n);
    for (int i = 0; i < N; i++) {
        CHECK(wide[2 * i] == val(mt_rank, i, 2), "iread_all: int %d is %d", i, wide[2 * i]);
        CHECK(wide[2 * i + 1] == -1, "iread_all: the gap after int %d was written", i);
    }
    MPI_OK(MPI_File_close(&fh));
}

/* interleaved records (record k of rank k % p) written while the ranks pass messages */
static void overlap(void)
{
    enum { REC = 1024, NREC = 64, PASSES = 50 };
    MPI_File fh;
    MPI_Datatype rec, view;
    MPI_Request rq;
    int per = NREC / mt_size > 0 ? NREC / mt_size : 1;
    int *buf = malloc((size_t)per * REC * sizeof(int));
    int *got = malloc((size_t)per * REC * sizeof(int));
    CHECK(buf != NULL && got != NULL, "malloc");

    MPI_OK(MPI_File_open(MPI_COMM_WORLD, io_path("overlap"), MPI_MODE_CREATE | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));
    MPI_OK(MPI_Type_contiguous(REC, MPI_INT, &rec));
    MPI_OK(MPI_Type_create_resized(rec, 0, (MPI_Aint)mt_size * REC * 4, &view));
    MPI_OK(MPI_Type_commit(&view));
    MPI_OK(MPI_File_set_view(fh, (MPI_Offset)mt_rank * REC * 4, MPI_INT, view, "native",
                             MPI_INFO_NULL));
    for (int i = 0; i < per * REC; i++) {
        buf[i] = val(mt_rank, i, 3);
    }
    /* interleaved records: two-phase, whose exchange rank 0 starts before rank 1 */
    if (mt_rank != 1) {
        MPI_OK(MPI_File_iwrite_all(fh, buf, per * REC, MPI_INT, &rq));
        ping_after_start();
    } else {
        ping_after_start();
        MPI_OK(MPI_File_iwrite_all(fh, buf, per * REC, MPI_INT, &rq));
    }
    int flag = 0, tests = 0, token = mt_rank, next = (mt_rank + 1) % mt_size,
        prev = (mt_rank + mt_size - 1) % mt_size;
    for (int i = 0; i < PASSES; i++) {
        int in = -1;
        MPI_OK(MPI_Sendrecv(&token, 1, MPI_INT, next, 9, &in, 1, MPI_INT, prev, 9, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE));
        token = in;
        if (!flag) {
            MPI_OK(MPI_Test(&rq, &flag, MPI_STATUS_IGNORE));
            tests++;
        }
    }
    CHECK(token == (mt_rank + mt_size - PASSES % mt_size) % mt_size, "ring: token %d", token);
    if (!flag) {
        MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    }
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    MPI_OK(MPI_File_read_all(fh, got, per * REC, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < per * REC; i++) {
        CHECK(got[i] == buf[i], "overlap: int %d is %d, expected %d", i, got[i], buf[i]);
    }
    if (mt_rank == 0) {
        printf("overlap: request complete after %d MPI_Test calls of %d passes\n", tests, PASSES);
    }
    MPI_OK(MPI_Type_free(&rec));
    MPI_OK(MPI_Type_free(&view));
    MPI_OK(MPI_File_close(&fh));
    free(buf);
    free(got);
}

/* a write the file system refuses (past RLIMIT_FSIZE: EFBIG on every rank): the request
   and the split collective's _end fail on every rank, and the program goes on */
static void refused(void)
{
    MPI_File fh;
    MPI_Request rq;
    MPI_Status st;
    struct rlimit old, small;
    int buf[N] = {0}, rc;

    MPI_OK(MPI_File_open(MPI_COMM_WORLD, io_path("big"), MPI_MODE_CREATE | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));
    CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0, "getrlimit");
    small = old;
    small.rlim_cur = 1 << 20;
    signal(SIGXFSZ, SIG_IGN);
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0, "setrlimit");
    MPI_Offset past = ((MPI_Offset)2 << 20) + (MPI_Offset)mt_rank * N * 4;
    MPI_OK(MPI_File_iwrite_at_all(fh, past, buf, N, MPI_INT, &rq));
    rc = MPI_Wait(&rq, &st);
    CHECK(rc != MPI_SUCCESS, "iwrite_at_all past RLIMIT_FSIZE: MPI_Wait succeeded");
    int cls = -1;
    MPI_OK(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_IO, "iwrite_at_all past RLIMIT_FSIZE: MPI_Wait's class %d, not MPI_ERR_IO",
          cls);
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_OK(MPI_Error_string(rc, msg, &len));
    CHECK(strstr(msg, io_path("big")) != NULL && strstr(msg, "MPI_File_iwrite_at_all") != NULL,
          "MPI_Wait's error does not name the call and the file: %s", msg);
    MPI_OK(MPI_File_seek(fh, past, MPI_SEEK_SET));
    MPI_OK(MPI_File_write_all_begin(fh, buf, N, MPI_INT));
    io_expect(MPI_File_write_all_end(fh, buf, &st), MPI_ERR_IO,
              "write_all_begin/end past RLIMIT_FSIZE");
    CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0, "setrlimit back");
    MPI_OK(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "io_nbc");
    io_dir_make(MPI_COMM_WORLD);
    start_order();
    overlap();
    refused();
    io_dir_remove(MPI_COMM_WORLD);
    return mt_finish();
}
