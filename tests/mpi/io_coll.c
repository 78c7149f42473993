/*
 * io_coll.c -- collective file access (two-phase I/O, core/io/twophase.c and
 * core/coll/algorithms/file_write/two_phase.c) on interleaved strided records: record k
 * (sizes 1 B to 64 KiB, cycling) belongs to rank k % p, records follow each other with
 * gaps of 0, 1 or 2 bytes that nobody writes.  For each set of hints (none; cb_nodes 1
 * and 2 with small cb_buffer_size, so domains take many rounds; every rank an aggregator
 * by cb_config_list; collective buffering disabled; automatic), on a file filled first
 * with a known pattern:
 *   - MPI_File_write_all through a file view of the rank's records, status counts;
 *   - MPI_File_read_all of the same view gives the bytes back, and so does an
 *     independent MPI_File_read_at of every record;
 *   - rank 0 reads the whole file independently: every record as its writer made it,
 *     every gap and the tail past the last record still the pattern (holes kept);
 *   - the same through MPI_File_write_at_all / read_at_all, after MPI_File_set_info
 *     changed cb_buffer_size (the creators choose again);
 *   - atomic mode (MPI_File_set_atomicity): write_all and read_all again.
 * Then, as root, interleaved records that overflow a 64 KiB tmpfs: MPI_File_write_all
 * fails with MPI_ERR_NO_SPACE on every rank, with collective buffering (only the
 * aggregator's write fails) and without (only some ranks' do).
 * "nb" runs every set through the nonblocking forms (MPI_File_iwrite_all, iread_all,
 * iwrite_at_all, iread_at_all, then MPI_Wait: in the progress engine, the schedule the
 * blocking forms run to its end) and skips the full file system; "quick" runs the
 * first two sets only; "fail" (with
 * tests/mpi/configs/io_fail.scm, whose file-write creator fails on the last rank) checks that
 * MPI_File_write_all fails on every rank with the same class, and that reads still work; "fatal"
 * does the same under MPI_ERRORS_ARE_FATAL, where the job ends with the creator's message.
 */
#include "tests/mpi/io_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#define NREC 48
#define TAIL 100

static const int sizes[] = {1, 2, 3, 7, 100, 1000, 4096, 65536, 5, 333, 12000, 64};

static MPI_Offset rec_len(int k)
{
    return sizes[k % (int)(sizeof(sizes) / sizeof(sizes[0]))];
}

/* offsets of every record (and the end of the last in off[NREC]) */
static void layout(MPI_Offset *off)
{
    MPI_Offset o = 0;
    for (int k = 0; k < NREC; k++) {
        off[k] = o;
        o += rec_len(k) + k % 3; /* the gap after record k */
    }
    off[NREC] = o;
}

static unsigned char rec_byte(int k, MPI_Offset j, int round)
{
    return (unsigned char)(k * 31 + j * 7 + 1 + round * 101);
}

static unsigned char pattern(MPI_Offset off)
{
    return (unsigned char)(off * 13 + 7);
}

static int nonblocking; /* "nb": the nonblocking forms, then MPI_Wait */

/* a collective write or read of n bytes through the view: at offset 0 (explicit) or at
   the individual pointer */
static void coll_access(MPI_File fh, int write, int explicit, void *buf, size_t n, MPI_Status *st)
{
    MPI_Request rq;
    if (!nonblocking) {
        MPI_OK(write ? (explicit ? MPI_File_write_at_all(fh, 0, buf, (int)n, MPI_BYTE, st)
                                 : MPI_File_write_all(fh, buf, (int)n, MPI_BYTE, st))
                     : (explicit ? MPI_File_read_at_all(fh, 0, buf, (int)n, MPI_BYTE, st)
                                 : MPI_File_read_all(fh, buf, (int)n, MPI_BYTE, st)));
        return;
    }
    MPI_OK(write ? (explicit ? MPI_File_iwrite_at_all(fh, 0, buf, (int)n, MPI_BYTE, &rq)
                             : MPI_File_iwrite_all(fh, buf, (int)n, MPI_BYTE, &rq))
                 : (explicit ? MPI_File_iread_at_all(fh, 0, buf, (int)n, MPI_BYTE, &rq)
                             : MPI_File_iread_all(fh, buf, (int)n, MPI_BYTE, &rq)));
    MPI_OK(MPI_Wait(&rq, st));
}

/* my records packed, and their file view (bytes at their offsets) */
static size_t my_records(int rank, int p, const MPI_Offset *off, unsigned char **buf_p,
                         MPI_Datatype *view_p, int round)
{
    int n = 0;
    int lens[NREC];
    MPI_Aint disps[NREC];
    size_t total = 0;
    for (int k = rank; k < NREC; k += p) {
        lens[n] = (int)rec_len(k);
        disps[n] = (MPI_Aint)off[k];
        total += (size_t)lens[n];
        n++;
    }
    unsigned char *buf = malloc(total + 1);
    CHECK(buf != NULL, "malloc");
    size_t pos = 0;
    for (int k = rank; k < NREC; k += p) {
        for (MPI_Offset j = 0; j < rec_len(k); j++) {
            buf[pos++] = rec_byte(k, j, round);
        }
    }
    MPI_Datatype t, r;
    MPI_OK(MPI_Type_create_hindexed(n, lens, disps, MPI_BYTE, &t));
    /* one tile covers the whole file: the extent of every rank's view is the same */
    MPI_OK(MPI_Type_create_resized(t, 0, (MPI_Aint)(off[NREC] + TAIL), &r));
    MPI_OK(MPI_Type_commit(&r));
    MPI_OK(MPI_Type_free(&t));
    *buf_p = buf;
    *view_p = r;
    return total;
}

/* rank 0: the whole file as `round` wrote it (records, gaps and tail) */
static void check_file(MPI_File fh, const MPI_Offset *off, int p, int round, const char *what)
{
    MPI_Offset size = off[NREC] + TAIL;
    unsigned char *all = malloc((size_t)size);
    MPI_Status st;
    int count = -1, bad = 0;
    MPI_Offset first_bad = -1;

    CHECK(all != NULL, "malloc");
    MPI_OK(MPI_File_read_at(fh, 0, all, (int)size, MPI_BYTE, &st));
    MPI_OK(MPI_Get_count(&st, MPI_BYTE, &count));
    CHECK(count == (int)size, "%s: the file has %d bytes, expected %lld", what, count,
          (long long)size);
    for (int k = 0; k < NREC; k++) {
        for (MPI_Offset j = 0; j < rec_len(k); j++) {
            if (all[off[k] + j] != rec_byte(k, j, round) && bad++ == 0) {
                first_bad = off[k] + j;
            }
        }
        for (MPI_Offset g = off[k] + rec_len(k); g < off[k + 1]; g++) {
            if (all[g] != pattern(g) && bad++ == 0) {
                first_bad = g;
            }
        }
    }
    for (MPI_Offset g = off[NREC]; g < size; g++) {
        if (all[g] != pattern(g) && bad++ == 0) {
            first_bad = g;
        }
    }
    CHECK(bad == 0, "%s (np=%d): %d bytes of the file wrong, the first at %lld", what, p, bad,
          (long long)first_bad);
    free(all);
}

static void expect_count(MPI_Status *st, size_t want, const char *what)
{
    int count = -1;
    MPI_OK(MPI_Get_count(st, MPI_BYTE, &count));
    CHECK(count == (int)want, "%s: status count %d, expected %zu", what, count, want);
}

/* one set of hints: the whole scenario on a file of its own */
static void run(const char *name, const char *const *hints, int round0)
{
    int rank, p;
    MPI_Offset off[NREC + 1];
    MPI_Info info;
    MPI_File fh;
    MPI_Status st;
    char what[160];

    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &p));
    layout(off);
    MPI_OK(MPI_Info_create(&info));
    for (int i = 0; hints[i] != NULL; i += 2) {
        MPI_OK(MPI_Info_set(info, hints[i], hints[i + 1]));
    }
    MPI_OK(
        MPI_File_open(MPI_COMM_WORLD, io_path(name), MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    MPI_OK(MPI_File_set_errhandler(fh, MPI_ERRORS_ARE_FATAL));
    if (rank == 0) {
        MPI_Offset size = off[NREC] + TAIL;
        unsigned char *pat = malloc((size_t)size);
        CHECK(pat != NULL, "malloc");
        for (MPI_Offset g = 0; g < size; g++) {
            pat[g] = pattern(g);
        }
        MPI_OK(MPI_File_write_at(fh, 0, pat, (int)size, MPI_BYTE, &st));
        free(pat);
    }
    MPI_OK(MPI_File_sync(fh));
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_File_sync(fh));

    for (int round = round0; round < round0 + 3; round++) {
        unsigned char *buf, *back;
        MPI_Datatype view;
        size_t n = my_records(rank, p, off, &buf, &view, round);

        if (round == round0 + 1) {
            /* new hints mid-file: the next access asks the creators again */
            MPI_Info more;
            MPI_OK(MPI_Info_create(&more));
            MPI_OK(MPI_Info_set(more, "cb_buffer_size", "3000"));
            MPI_OK(MPI_File_set_info(fh, more));
            MPI_OK(MPI_Info_free(&more));
        }
        if (round == round0 + 2) {
            MPI_OK(MPI_File_set_atomicity(fh, 1));
        }
        MPI_OK(MPI_File_set_view(fh, 0, MPI_BYTE, view, "native", MPI_INFO_NULL));
        snprintf(what, sizeof(what), "%s round %d write", name, round);
        coll_access(fh, 1, round == round0 + 1, buf, n, &st);
        expect_count(&st, n, what);
        MPI_OK(MPI_File_sync(fh));
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_OK(MPI_File_sync(fh));

        back = malloc(n + 1);
        CHECK(back != NULL, "malloc");
        memset(back, 0, n + 1);
        snprintf(what, sizeof(what), "%s round %d read_all", name, round);
        if (round != round0 + 1) {
            MPI_OK(MPI_File_seek(fh, 0, MPI_SEEK_SET));
        }
        coll_access(fh, 0, round == round0 + 1, back, n, &st);
        expect_count(&st, n, what);
        CHECK(memcmp(back, buf, n) == 0, "%s: not the bytes written", what);

        /* independently, through the same view */
        memset(back, 0, n + 1);
        snprintf(what, sizeof(what), "%s round %d read_at", name, round);
        MPI_OK(MPI_File_read_at(fh, 0, back, (int)n, MPI_BYTE, &st));
        expect_count(&st, n, what);
        CHECK(memcmp(back, buf, n) == 0, "%s: not the bytes written", what);

        MPI_OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
        if (rank == 0) {
            snprintf(what, sizeof(what), "%s round %d, the whole file", name, round);
            check_file(fh, off, p, round, what);
        }
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        MPI_OK(MPI_Type_free(&view));
        free(buf);
        free(back);
    }
    MPI_OK(MPI_File_close(&fh));
    MPI_OK(MPI_Info_free(&info));
}

/* a full file system: every rank gets MPI_ERR_NO_SPACE, whoever's pwrite failed */
static void full_disk(void)
{
    static const char *const modes[] = {"enable", "disable"};
    char *small = strdup(io_path("small"));
    int ok = 0, rank, p;
    MPI_Offset n = 4096; /* bytes per record, p records a round, 32 rounds: 128 KiB per rank */

    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &p));
    if (rank == 0 && geteuid() == 0 && mkdir(small, 0700) == 0) {
        ok = mount("none", small, "tmpfs", 0, "size=64k") == 0;
    }
    MPI_OK(MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD));
    for (int m = 0; ok && m < 2; m++) {
        char path[1100], *buf = calloc(32, (size_t)n);
        MPI_Datatype vec, view;
        MPI_Info info;
        MPI_File fh;
        int cls = -1, all = -1;
        CHECK(buf != NULL, "calloc");
        snprintf(path, sizeof(path), "%s/f%d", small, m);
        MPI_OK(MPI_Info_create(&info));
        MPI_OK(MPI_Info_set(info, "romio_cb_write", modes[m]));
        MPI_OK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh));
        MPI_OK(MPI_Type_vector(32, (int)n, (int)(n * p), MPI_BYTE, &vec));
        MPI_OK(MPI_Type_create_resized(vec, 0, 32 * n * p, &view));
        MPI_OK(MPI_Type_commit(&view));
        MPI_OK(MPI_File_set_view(fh, rank * n, MPI_BYTE, view, "native", MPI_INFO_NULL));
        int rc = MPI_File_write_all(fh, buf, (int)(32 * n), MPI_BYTE, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) {
            MPI_OK(MPI_Error_class(rc, &cls));
        }
        CHECK(cls == MPI_ERR_NO_SPACE,
              "romio_cb_write=%s: write_all past a full file system: class %d, expected "
              "MPI_ERR_NO_SPACE (%d)",
              modes[m], cls, MPI_ERR_NO_SPACE);
        MPI_OK(MPI_Allreduce(&cls, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
        CHECK(all == cls, "romio_cb_write=%s: the ranks failed with different classes", modes[m]);
        MPI_OK(MPI_File_close(&fh));
        MPI_OK(MPI_Type_free(&view));
        MPI_OK(MPI_Type_free(&vec));
        MPI_OK(MPI_Info_free(&info));
        free(buf);
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        if (rank == 0) {
            unlink(path);
        }
    }
    if (ok && rank == 0) {
        CHECK(umount(small) == 0, "umount %s", small);
    }
    if (rank == 0) {
        rmdir(small);
    }
    free(small);
}

/* the config's creator fails on one rank: every rank gets the error, nobody hangs */
static void run_fail(int fatal)
{
    MPI_File fh;
    MPI_Status st;
    char buf[64] = "";
    int rank, cls = -1, all;

    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MPI_OK(MPI_File_open(MPI_COMM_WORLD, io_path("fail"), MPI_MODE_CREATE | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));
    MPI_OK(MPI_File_set_errhandler(fh, fatal ? MPI_ERRORS_ARE_FATAL : MPI_ERRORS_RETURN));
    if (fatal) {
        /* the job ends in the write: the file and its directory go first (the open
           descriptors keep the file until then) */
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        DIR *d = rank == 0 ? opendir(io_dir) : NULL;
        struct dirent *e;
        while (d != NULL && (e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
                unlink(io_path(e->d_name)); /* the file and its shared pointer's */
            }
        }
        if (d != NULL) {
            closedir(d);
            CHECK(rmdir(io_dir) == 0, "cannot remove %s", io_dir);
        }
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    }
    int rc = MPI_File_write_at_all(fh, rank * 64, buf, 64, MPI_BYTE, &st);
    CHECK(rc != MPI_SUCCESS, "write_all succeeded though its creator failed on one rank");
    if (rc != MPI_SUCCESS) {
        MPI_OK(MPI_Error_class(rc, &cls));
    }
    MPI_OK(MPI_Allreduce(&cls, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    CHECK(all == cls, "ranks failed with different classes (%d here, max %d)", cls, all);
    rc = MPI_File_read_at_all(fh, rank * 64, buf, 64, MPI_BYTE, &st);
    CHECK(rc == MPI_SUCCESS, "read_all after a failed write_all: error %d", rc);
    MPI_OK(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    static const char *const none[] = {NULL};
    static const char *const one_small[] = {
        "cb_nodes", "1", "cb_buffer_size", "4096", "romio_cb_write", "enable", "romio_cb_read",
        "enable",   NULL};
    static const char *const two_odd[] = {
        "cb_nodes", "2", "cb_buffer_size", "1000", "romio_cb_write", "enable", "romio_cb_read",
        "enable",   NULL};
    static const char *const every[] = {"cb_config_list", "*:*", "cb_buffer_size", "65536", NULL};
    static const char *const disabled[] = {"romio_cb_write", "disable", "romio_cb_read", "disable",
                                           NULL};
    int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    int fail = argc > 1 && strcmp(argv[1], "fail") == 0;
    int fatal = argc > 1 && strcmp(argv[1], "fatal") == 0;
    nonblocking = argc > 1 && strcmp(argv[1], "nb") == 0;

    mt_init(&argc, &argv, "io_coll");
    io_dir_make(MPI_COMM_WORLD);
    if (fail || fatal) {
        run_fail(fatal);
        io_dir_remove(MPI_COMM_WORLD);
        return mt_finish();
    }
    run("none", none, 0);
    run("one-small", one_small, 3);
    if (!quick) {
        run("two-odd", two_odd, 6);
        run("every", every, 9);
        run("disabled", disabled, 12);
    }
    if (!quick && !nonblocking) {
        full_disk();
    }
    io_dir_remove(MPI_COMM_WORLD);
    return mt_finish();
}
