/*
 * io_bigview: accesses through a view whose filetype is one contiguous run (the default
 * byte view, a contiguous filetype, one whose data sits past its lower bound) cost the
 * same however many tiles they span.  Each rank reads 1 GiB at a time past the end of
 * its file through views of 1, 4 and 2 byte tiles (nothing to read: the time is the
 * library's own) under a CPU-time bound; then bytes written through a contiguous and
 * an offset filetype land where the type map puts them, read back through a byte view.
 */
#include "tests/mpi/io_test.h"

#include <sys/mman.h>
#include <time.h>

#define BIG ((MPI_Count)1 << 30)
#define REPS 4
#define SMALL 4096

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* REPS reads of BIG bytes past the end of the file through the view of etype, filetype */
static void big_reads(MPI_File fh, MPI_Datatype etype, MPI_Datatype ft, const char *what)
{
    /* the buffer is never touched: a read at the end of the file moves nothing */
    void *buf = mmap(NULL, (size_t)BIG, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    CHECK(buf != MAP_FAILED, "mmap of 1 GiB failed");
    MPI_OK(MPI_File_set_view(fh, 0, etype, ft, "native", MPI_INFO_NULL));
    int esize;
    MPI_OK(MPI_Type_size(etype, &esize));
    double t0 = thread_cpu();
    for (int i = 0; i < REPS; i++) {
        MPI_Status st;
        MPI_Count n = -1;
        MPI_OK(MPI_File_read_at_c(fh, (MPI_Offset)SMALL, buf, BIG, MPI_BYTE, &st));
        MPI_OK(MPI_Get_count_c(&st, MPI_BYTE, &n));
        CHECK(n == 0, "%s: read past the end moved %lld bytes", what, (long long)n);
    }
    double cpu = thread_cpu() - t0;
    /* a walk of the tiles one by one takes seconds for 4 GiB of 1 to 4 byte tiles */
    CHECK(cpu < 0.25, "%s: %d reads of 1 GiB past the end took %.2f s of CPU", what, REPS, cpu);
    munmap(buf, (size_t)BIG);
}

/* SMALL bytes written at view position 0 through filetype ft from disp, then the file's
   bytes: they start at byte `at` */
static void lands_at(MPI_File fh, MPI_Offset disp, MPI_Datatype ft, MPI_Offset at, const char *what)
{
    unsigned char out[SMALL], in[SMALL + 64];
    for (int i = 0; i < SMALL; i++) {
        out[i] = (unsigned char)(i * 7 + mt_rank + 1);
    }
    MPI_OK(MPI_File_set_size(fh, 0));
    MPI_OK(MPI_File_set_view(fh, disp, MPI_BYTE, ft, "native", MPI_INFO_NULL));
    MPI_OK(MPI_File_write_at(fh, 0, out, SMALL, MPI_BYTE, MPI_STATUS_IGNORE));
    MPI_Offset size;
    MPI_OK(MPI_File_get_size(fh, &size));
    CHECK(size == at + SMALL, "%s: file size %lld, expected %lld", what, (long long)size,
          (long long)(at + SMALL));
    MPI_OK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    memset(in, 0xee, sizeof(in));
    MPI_OK(MPI_File_read_at(fh, 0, in, (int)size, MPI_BYTE, MPI_STATUS_IGNORE));
    for (MPI_Offset i = 0; i < at; i++) {
        CHECK(in[i] == 0, "%s: byte %lld before the data: %d", what, (long long)i, in[i]);
    }
    for (int i = 0; i < SMALL; i++) {
        CHECK(in[at + i] == out[i], "%s: data byte %d: %d, expected %d", what, i, in[at + i],
              out[i]);
    }
    /* and read back through the view */
    MPI_OK(MPI_File_set_view(fh, disp, MPI_BYTE, ft, "native", MPI_INFO_NULL));
    memset(in, 0, sizeof(in));
    MPI_OK(MPI_File_read_at(fh, 5, in, SMALL - 5, MPI_BYTE, MPI_STATUS_IGNORE));
    CHECK(memcmp(in, out + 5, SMALL - 5) == 0, "%s: read back from position 5 differs", what);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "io_bigview");
    io_dir_make(MPI_COMM_WORLD);
    char name[32];
    snprintf(name, sizeof(name), "big.%d", mt_rank);
    MPI_File fh;
    MPI_OK(MPI_File_open(MPI_COMM_SELF, io_path(name), MPI_MODE_CREATE | MPI_MODE_RDWR,
                         MPI_INFO_NULL, &fh));

    MPI_Datatype int1, past2;
    MPI_OK(MPI_Type_contiguous(1, MPI_INT, &int1));
    MPI_OK(MPI_Type_commit(&int1));
    /* 2 bytes at displacement 2, lower bound 2, extent 2: the tiles touch from disp + 2 */
    int len = 2;
    MPI_Aint at2 = 2;
    MPI_Datatype tmp;
    MPI_OK(MPI_Type_create_hindexed(1, &len, &at2, MPI_BYTE, &tmp));
    MPI_OK(MPI_Type_create_resized(tmp, 2, 2, &past2));
    MPI_OK(MPI_Type_commit(&past2));
    MPI_OK(MPI_Type_free(&tmp));

    big_reads(fh, MPI_BYTE, MPI_BYTE, "byte view");
    big_reads(fh, MPI_INT, int1, "view of a contiguous int");
    big_reads(fh, MPI_BYTE, past2, "view of 2 bytes past lb 2");

    lands_at(fh, 0, MPI_BYTE, 0, "byte view");
    lands_at(fh, 12, int1, 12, "a contiguous int from disp 12");
    lands_at(fh, 4, past2, 6, "2 bytes at 2 from disp 4");

    MPI_OK(MPI_Type_free(&int1));
    MPI_OK(MPI_Type_free(&past2));
    MPI_OK(MPI_File_close(&fh));
    io_dir_remove(MPI_COMM_WORLD);
    return mt_finish();
}
