/*
 * coll.c: latency of six collectives, every rank taking part, IMB style.
 *
 *     all ranks:  MPI_Barrier            (align the start)
 *                 t0 = MPI_Wtime()
 *                 iters x MPI_Xxx(...)   (back to back)
 *                 avg = (MPI_Wtime() - t0) / iters
 *                 ... every collective and size ...
 *                 MPI_Allreduce(avgs, MAX) -> this trial's values (outside the timed loops)
 *
 *     latency(collective, n) = median over trials of max over ranks of avg
 *
 * Collectives and what n is:
 *   barrier                 no data (one row, bytes 0)
 *   bcast                   n bytes from rank 0 (MPI_BYTE)
 *   reduce, allreduce       n bytes of MPI_FLOAT summed with MPI_SUM (reduce: to rank 0)
 *   allgather               n bytes from every rank (receive buffer: ranks x n)
 *   alltoall                n bytes from every rank to every rank (buffers: ranks x n)
 * Sizes: 8 B, 16 B ... max bytes (1 MiB by default).
 *
 * The max over ranks is the time the slowest rank saw, which is what an application
 * waiting on the collective pays; back-to-back calls let a root run ahead of its
 * receivers, and averaging over many calls folds that skew into the mean.  Iteration
 * counts are constant up to 8 KiB and fall as 1 / size above; an untimed warm-up in
 * chunks predicts each (trial, collective, size), and when it would take more than
 * TARGET_SEC the count is cut (all ranks agree on the count through an allreduce of the
 * prediction, so nobody waits for a call the others will not make).  The first call of
 * each warm-up checks the result (first and last element of every block) and aborts the
 * job when it is wrong: a fast wrong collective must not look like a fast collective.
 *
 * The trial loop is outermost, as in pingpong.c: a burst of outside load spoils one trial
 * of many sizes rather than every trial of one size.
 *
 * Output on rank 0: '#' comments, then CSV
 *   collective,np,bytes,median_usec,min_usec,max_usec,iters
 * median, min and max over trials; iters is the fewest calls timed in any trial.
 * Standard MPI only, so every MPI's mpicc builds it.
 */
#include "bench_common.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_MAX ((size_t)1 << 20) /* -m default: 1 MiB per rank */
#define MIN_BYTES 8                   /* smallest size: two floats */
#define SMALL_ITERS 2000              /* calls per trial up to SMALL_LIMIT bytes */
#define SMALL_LIMIT 8192              /* above this, calls fall as 1 / size */
#define MIN_ITERS 5                   /* even 1 MiB alltoall gets this many calls */
#define WARM_CHUNKS 3                 /* the warm-up is timed in this many pieces */
#define MAX_WARM 60                   /* warm-up calls per (trial, collective, size) */
#define TARGET_SEC 0.02               /* (trial, collective, size) longer than this: cut */

typedef enum { BARRIER, BCAST, REDUCE, ALLREDUCE, ALLGATHER, ALLTOALL, NCOLLS } coll_t;

static const char *const coll_names[NCOLLS] = {"barrier",   "bcast",     "reduce",
                                               "allreduce", "allgather", "alltoall"};

/* Buffers of one run: bytes for the data movers, floats for the reductions (all 1.0f,
 * so the sums stay ordinary numbers whatever the timed loops leave behind). */
typedef struct bufs {
    char *bs, *br;  /* ranks x max bytes each */
    float *fs, *fr; /* max bytes each */
    int rank, np;
} bufs_t;

/* One call of collective `k` with n bytes.  Every rank makes the same calls. */
static void run_once(coll_t k, size_t n, const bufs_t *b)
{
    int bc = (int)n, fc = (int)(n / sizeof(float));

    switch (k) {
    case BARRIER:
        MPI_Barrier(MPI_COMM_WORLD);
        break;
    case BCAST:
        MPI_Bcast(b->br, bc, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case REDUCE:
        MPI_Reduce(b->fs, b->fr, fc, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
        break;
    case ALLREDUCE:
        MPI_Allreduce(b->fs, b->fr, fc, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
    case ALLGATHER:
        MPI_Allgather(b->bs, bc, MPI_BYTE, b->br, bc, MPI_BYTE, MPI_COMM_WORLD);
        break;
    case ALLTOALL:
        MPI_Alltoall(b->bs, bc, MPI_BYTE, b->br, bc, MPI_BYTE, MPI_COMM_WORLD);
        break;
    default:
        break;
    }
}

/* A byte that names (message, block): never zero, changes from one check to the next. */
static char stamp(long seq, int block)
{
    return (char)((seq * 31 + block) % 251 + 1);
}

static void expect_byte(char got, char want, const char *what, size_t n, int block)
{
    if (got != want)
        bench_die("%s: wrong data at %zu bytes, block %d: got %d, expected %d", what, n, block, got,
                  want);
}

/* One checked call: writes the first and last element of every block it sends, clears
 * those of every block it receives, and compares after the call. */
static void run_checked(coll_t k, size_t n, const bufs_t *b, long seq)
{
    size_t fc = n / sizeof(float);
    float sum = 0.0f;
    int np = b->np, me = b->rank;

    switch (k) {
    case BCAST:
        b->br[0] = b->br[n - 1] = me == 0 ? stamp(seq, 0) : 0;
        run_once(k, n, b);
        expect_byte(b->br[0], stamp(seq, 0), "bcast", n, 0);
        expect_byte(b->br[n - 1], stamp(seq, 0), "bcast", n, 0);
        break;
    case REDUCE:
    case ALLREDUCE:
        b->fs[0] = b->fs[fc - 1] = (float)(me + 1);
        b->fr[0] = b->fr[fc - 1] = -1.0f;
        run_once(k, n, b);
        for (int r = 0; r < np; r++)
            sum += (float)(r + 1);
        if ((k == ALLREDUCE || me == 0) && (b->fr[0] != sum || b->fr[fc - 1] != sum))
            bench_die("%s: wrong sum at %zu bytes: %g and %g, expected %g", coll_names[k], n,
                      (double)b->fr[0], (double)b->fr[fc - 1], (double)sum);
        b->fs[0] = b->fs[fc - 1] = 1.0f;
        break;
    case ALLGATHER:
        b->bs[0] = b->bs[n - 1] = stamp(seq, me);
        for (int r = 0; r < np; r++)
            b->br[r * n] = b->br[r * n + n - 1] = 0;
        run_once(k, n, b);
        for (int r = 0; r < np; r++) {
            expect_byte(b->br[r * n], stamp(seq, r), "allgather", n, r);
            expect_byte(b->br[r * n + n - 1], stamp(seq, r), "allgather", n, r);
        }
        break;
    case ALLTOALL:
        /* the block from rank i to rank j carries stamp(seq, i * np + j) */
        for (int r = 0; r < np; r++) {
            b->bs[r * n] = b->bs[r * n + n - 1] = stamp(seq, me * np + r);
            b->br[r * n] = b->br[r * n + n - 1] = 0;
        }
        run_once(k, n, b);
        for (int r = 0; r < np; r++) {
            expect_byte(b->br[r * n], stamp(seq, r * np + me), "alltoall", n, r);
            expect_byte(b->br[r * n + n - 1], stamp(seq, r * np + me), "alltoall", n, r);
        }
        break;
    default:
        run_once(k, n, b);
        break;
    }
}

static long iters_for(size_t bytes, double scale)
{
    double it = SMALL_ITERS;

    if (bytes > SMALL_LIMIT)
        it = (double)SMALL_ITERS * SMALL_LIMIT / (double)bytes;
    it *= scale;
    return it < MIN_ITERS ? MIN_ITERS : (long)it;
}

/* Warm-up of one (trial, collective, size): one checked call, then WARM_CHUNKS timed
 * chunks.  Returns the call count every rank will time: the planned one, or fewer when
 * the slowest rank's median chunk predicts more than `target` seconds.  When the checked
 * call alone says that even MIN_ITERS calls are far too long (ranks sharing cores with a
 * library that busy-polls: milliseconds per call), the chunks are skipped, which keeps
 * such runs from taking minutes. */
static long warm_up(coll_t k, size_t n, const bufs_t *b, long planned, double target)
{
    static long seq;
    long chunk = planned / 10 / WARM_CHUNKS, count = planned;
    double per[WARM_CHUNKS], unit, worst, t0 = MPI_Wtime();

    run_checked(k, n, b, seq++);
    unit = MPI_Wtime() - t0;
    MPI_Allreduce(&unit, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (worst * MIN_ITERS > 2.0 * target)
        return MIN_ITERS;

    if (chunk > MAX_WARM / WARM_CHUNKS)
        chunk = MAX_WARM / WARM_CHUNKS;
    if (chunk < 1)
        chunk = 1;
    for (int c = 0; c < WARM_CHUNKS; c++) {
        t0 = MPI_Wtime();
        for (long i = 0; i < chunk; i++)
            run_once(k, n, b);
        per[c] = (MPI_Wtime() - t0) / (double)chunk;
    }
    /* the same prediction on every rank, so every rank computes the same count */
    unit = bench_median(per, WARM_CHUNKS);
    MPI_Allreduce(&unit, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (worst * (double)planned > target)
        count = (long)(target / worst);
    return count < MIN_ITERS ? MIN_ITERS : count;
}

/* The timed loop; returns this rank's average per call, in microseconds. */
static double timed(coll_t k, size_t n, const bufs_t *b, long iters)
{
    double t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (long i = 0; i < iters; i++)
        run_once(k, n, b);
    return (MPI_Wtime() - t0) * 1e6 / (double)iters;
}

static int num_sizes(size_t max_bytes)
{
    int n = 0;

    for (size_t s = MIN_BYTES; s <= max_bytes; s <<= 1)
        n++;
    return n;
}

int main(int argc, char **argv)
{
    bench_opts_t opts;
    bufs_t b;
    int nsizes, nrows;
    double *lat = NULL;   /* lat[row * trials + trial], usec; row = collective, size */
    double *mine, *worst; /* one trial: this rank's averages, their max over ranks */
    long *used = NULL;    /* fewest calls timed per row */
    size_t *row_bytes;
    coll_t *row_coll;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &b.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &b.np);
    bench_parse_args_max(argc, argv, 0, DEFAULT_MAX, &opts);
    if (opts.max_bytes < MIN_BYTES)
        bench_die("coll: -m must be at least %d", MIN_BYTES);

    nsizes = num_sizes(opts.max_bytes);
    nrows = 1 + (NCOLLS - 1) * nsizes; /* barrier has one row */
    row_bytes = malloc((size_t)nrows * sizeof(*row_bytes));
    row_coll = malloc((size_t)nrows * sizeof(*row_coll));
    lat = malloc((size_t)nrows * (size_t)opts.trials * sizeof(*lat));
    used = calloc((size_t)nrows, sizeof(*used));
    mine = malloc((size_t)nrows * sizeof(*mine));
    worst = malloc((size_t)nrows * sizeof(*worst));
    if (row_bytes == NULL || row_coll == NULL || lat == NULL || used == NULL || mine == NULL ||
        worst == NULL)
        bench_die("out of memory");
    row_coll[0] = BARRIER;
    row_bytes[0] = 0;
    for (int k = 1, r = 1; k < NCOLLS; k++) {
        for (size_t s = MIN_BYTES; s <= opts.max_bytes; s <<= 1, r++) {
            row_coll[r] = (coll_t)k;
            row_bytes[r] = s;
        }
    }

    b.bs = bench_alloc((size_t)b.np * opts.max_bytes);
    b.br = bench_alloc((size_t)b.np * opts.max_bytes);
    b.fs = bench_alloc(opts.max_bytes);
    b.fr = bench_alloc(opts.max_bytes);
    for (size_t i = 0; i < opts.max_bytes / sizeof(float); i++)
        b.fs[i] = b.fr[i] = 1.0f;

    if (b.rank == 0) {
        bench_print_comments("coll",
                             "collective latency = max over ranks of the per-rank average "
                             "over back-to-back calls",
                             &opts);
        printf("# reduce and allreduce: MPI_FLOAT, MPI_SUM; root 0; allgather and alltoall: "
               "bytes per rank (per pair for alltoall)\n");
        printf("collective,np,bytes,median_usec,min_usec,max_usec,iters\n");
        fflush(stdout);
    }

    /* First-use costs (connections, a collective's first selection) before any timing. */
    for (int r = 0; r < nrows; r++)
        run_once(row_coll[r], row_bytes[r] ? row_bytes[r] : MIN_BYTES, &b);

    for (int t = 0; t < opts.trials; t++) {
        for (int r = 0; r < nrows; r++) {
            coll_t k = row_coll[r];
            size_t n = row_bytes[r];
            long iters = iters_for(n, opts.iter_scale);

            iters = warm_up(k, n ? n : MIN_BYTES, &b, iters, TARGET_SEC * opts.iter_scale);
            mine[r] = timed(k, n, &b, iters);
            if (used[r] == 0 || iters < used[r])
                used[r] = iters;
        }
        /* the slowest rank's average is the trial's value; one reduction per trial */
        MPI_Allreduce(mine, worst, nrows, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        for (int r = 0; r < nrows; r++)
            lat[r * opts.trials + t] = worst[r];
    }

    if (b.rank == 0) {
        for (int r = 0; r < nrows; r++) {
            const double *v = &lat[r * opts.trials];
            double max = v[0];

            for (int t = 1; t < opts.trials; t++)
                if (v[t] > max)
                    max = v[t];
            printf("%s,%d,%zu,%.3f,%.3f,%.3f,%ld\n", coll_names[row_coll[r]], b.np, row_bytes[r],
                   bench_median(v, opts.trials), bench_min(v, opts.trials), max, used[r]);
        }
        fflush(stdout);
    }

    free(lat);
    free(used);
    free(mine);
    free(worst);
    free(row_bytes);
    free(row_coll);
    free(b.bs);
    free(b.br);
    free(b.fs);
    free(b.fr);
    MPI_Finalize();
    return 0;
}
