/*
 * io_bench: N ranks write one shared file and read it back through MPI-IO, in the manner
 * of IOR: every rank moves `-b` bytes per phase in records of one size, laid out either
 *
 *   contiguous  rank r owns one block:     [ r0 r0 r0 r0 | r1 r1 r1 r1 | r2 ... ]
 *   strided     records interleave:        [ r0 r1 r2 r0 | r1 r2 r0 r1 | ... ]
 *
 * and moved either collectively (MPI_File_write_all / read_all through a file view) or
 * independently (MPI_File_write / read through the same view: the implementation's
 * independent path, data sieving or one call per run).  For each (record size, layout,
 * mode) a trial is: open (create), write, sync, close; open, read, close; the file is
 * deleted between trials.  The timed span of each phase is the slowest rank's, barrier
 * to barrier, open and close included, as IOR reports.  The read data is checked after
 * the timing (a record carries its rank and index), so a wrong result aborts the run.
 *
 * Output, rank 0: '#' comment lines, then CSV
 *   layout,mode,op,record_bytes,total_bytes,median_mbps,max_mbps,trials
 * with MB = 10^6 bytes and total_bytes the whole file.
 *
 * Usage: io_bench -d DIR [-b bytes per rank] [-t trials] [-s min record] [-S max record]
 * Standard MPI and C only, so every MPI's mpicc builds it.
 */
#include "bench_common.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct io_opts {
    const char *dir;
    long long per_rank; /* bytes each rank writes per phase */
    int trials;
    long long rec_min, rec_max;
} io_opts_t;

static void usage_exit(int rank)
{
    if (rank == 0)
        fprintf(stderr, "usage: io_bench -d DIR [-b BYTES_PER_RANK] [-t TRIALS] "
                        "[-s MIN_RECORD] [-S MAX_RECORD]\n");
    MPI_Finalize();
    exit(2);
}

static void parse(int argc, char **argv, int rank, io_opts_t *o)
{
    int c;
    o->dir = NULL;
    o->per_rank = 64LL << 20;
    o->trials = 3;
    o->rec_min = 1024;
    o->rec_max = 4LL << 20;
    while ((c = getopt(argc, argv, "d:b:t:s:S:")) != -1) {
        switch (c) {
        case 'd': o->dir = optarg; break;
        case 'b': o->per_rank = atoll(optarg); break;
        case 't': o->trials = atoi(optarg); break;
        case 's': o->rec_min = atoll(optarg); break;
        case 'S': o->rec_max = atoll(optarg); break;
        default: usage_exit(rank);
        }
    }
    if (!o->dir || o->per_rank <= 0 || o->trials <= 0 || o->rec_min <= 0 ||
        o->rec_max < o->rec_min)
        usage_exit(rank);
}

/* the 8-byte word at position w of record k of rank r: distinct for every (r, k, w) */
static inline uint64_t word_of(int r, long long k, long long w)
{
    return ((uint64_t)r << 48) ^ ((uint64_t)k << 20) ^ (uint64_t)w;
}

static void fill(char *buf, int r, long long nrec, long long rec)
{
    for (long long k = 0; k < nrec; k++) {
        uint64_t *p = (uint64_t *)(buf + k * rec);
        for (long long w = 0; w < rec / 8; w++)
            p[w] = word_of(r, k, w);
    }
}

static int check(const char *buf, int r, long long nrec, long long rec)
{
    for (long long k = 0; k < nrec; k++) {
        const uint64_t *p = (const uint64_t *)(buf + k * rec);
        for (long long w = 0; w < rec / 8; w++)
            if (p[w] != word_of(r, k, w))
                return 0;
    }
    return 1;
}

/* the view of rank r: its block (contiguous) or every p-th record (strided) */
static void set_view(MPI_File fh, int strided, int r, int p, long long nrec, long long rec,
                     MPI_Datatype *ft)
{
    MPI_Offset disp;
    if (strided) {
        MPI_Type_vector((int)nrec, (int)rec, (int)(rec * p), MPI_BYTE, ft);
        disp = (MPI_Offset)r * rec;
    } else {
        MPI_Type_contiguous((int)(nrec * rec), MPI_BYTE, ft);
        disp = (MPI_Offset)r * nrec * rec;
    }
    MPI_Type_commit(ft);
    if (MPI_File_set_view(fh, disp, MPI_BYTE, *ft, "native", MPI_INFO_NULL) != MPI_SUCCESS)
        bench_die("MPI_File_set_view failed");
}

/* one phase, timed barrier to barrier on the slowest rank: the seconds */
static double phase(const char *path, int write, int strided, int coll, int r, int p,
                    long long nrec, long long rec, char *buf)
{
    MPI_File fh;
    MPI_Datatype ft;
    MPI_Status st;
    int amode = write ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY;
    long long bytes = nrec * rec;
    double t0, t;
    int rc;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    if (MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, &fh) != MPI_SUCCESS)
        bench_die("MPI_File_open %s failed", path);
    set_view(fh, strided, r, p, nrec, rec, &ft);
    /* bytes per call stay below 2^31: a record count of whole records at a time */
    for (long long done = 0; done < bytes;) {
        long long n = bytes - done;
        if (n > (1LL << 30))
            n = (1LL << 30) / rec * rec;
        if (write)
            rc = coll ? MPI_File_write_all(fh, buf + done, (int)n, MPI_BYTE, &st)
                      : MPI_File_write(fh, buf + done, (int)n, MPI_BYTE, &st);
        else
            rc = coll ? MPI_File_read_all(fh, buf + done, (int)n, MPI_BYTE, &st)
                      : MPI_File_read(fh, buf + done, (int)n, MPI_BYTE, &st);
        if (rc != MPI_SUCCESS)
            bench_die("%s failed", write ? "write" : "read");
        done += n;
    }
    if (write)
        MPI_File_sync(fh);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime() - t0;
    MPI_Type_free(&ft);
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return t;
}

int main(int argc, char **argv)
{
    io_opts_t o;
    int r, p;
    char path[4096], lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int liblen;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    parse(argc, argv, r, &o);
    snprintf(path, sizeof path, "%s/io_bench.%d.dat", o.dir, (int)getpid());
    MPI_Bcast(path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);

    char *buf = bench_alloc((size_t)o.per_rank);
    double *wt = malloc(sizeof(double) * o.trials), *rt = malloc(sizeof(double) * o.trials);
    if (!wt || !rt)
        bench_die("out of memory");
    if (r == 0) {
        MPI_Get_library_version(lib, &liblen);
        printf("# io_bench: %d ranks, %lld bytes per rank, %d trials, file %s\n", p,
               o.per_rank, o.trials, path);
        printf("# library: %.*s\n", (int)strcspn(lib, "\n"), lib);
        printf("layout,mode,op,record_bytes,total_bytes,median_mbps,max_mbps,trials\n");
        fflush(stdout);
    }
    for (long long rec = o.rec_min; rec <= o.rec_max; rec *= 4) {
        long long nrec = o.per_rank / rec;
        if (nrec < 1)
            break;
        for (int strided = 0; strided < 2; strided++) {
            for (int coll = 1; coll >= 0; coll--) {
                for (int t = 0; t < o.trials; t++) {
                    fill(buf, r, nrec, rec);
                    wt[t] = phase(path, 1, strided, coll, r, p, nrec, rec, buf);
                    memset(buf, 0, (size_t)(nrec * rec));
                    rt[t] = phase(path, 0, strided, coll, r, p, nrec, rec, buf);
                    int ok = check(buf, r, nrec, rec), all;
                    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
                    if (!all)
                        bench_die("read back wrong data (%s %s, records of %lld bytes)",
                                  strided ? "strided" : "contiguous",
                                  coll ? "collective" : "independent", rec);
                    if (r == 0)
                        MPI_File_delete(path, MPI_INFO_NULL);
                    MPI_Barrier(MPI_COMM_WORLD);
                }
                if (r == 0) {
                    double total = (double)nrec * rec * p;
                    for (int op = 0; op < 2; op++) {
                        double *v = op ? rt : wt;
                        printf("%s,%s,%s,%lld,%.0f,%.1f,%.1f,%d\n",
                               strided ? "strided" : "contiguous",
                               coll ? "collective" : "independent", op ? "read" : "write",
                               rec, total, total / bench_median(v, o.trials) / 1e6,
                               total / bench_min(v, o.trials) / 1e6, o.trials);
                    }
                    fflush(stdout);
                }
            }
        }
    }
    free(wt);
    free(rt);
    free(buf);
    MPI_Finalize();
    return 0;
}
