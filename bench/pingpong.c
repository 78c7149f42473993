/*
 * pingpong.c: one-way point-to-point latency between ranks 0 and 1.
 *
 *     rank 0                 rank 1
 *     MPI_Send(n) ─────────► MPI_Recv(n)
 *     MPI_Recv(n) ◄───────── MPI_Send(n)
 *
 *     latency(n) = time of `iters` round trips / (2 * iters)
 *
 * Sizes: 0 B, then 1, 2, 4 ... max bytes (4 MiB by default).  Iteration counts are constant
 * up to 8 KiB and fall in proportion to the size above it, so every size costs about the
 * same time, some 10 ms on an idle machine.  On a loaded machine the untimed warm-up that
 * starts each (trial, size) predicts a longer time, and the count is cut to fit TARGET_SEC
 * (the "iters" column shows it).  The warm-up also checks that the payload arrived intact.
 *
 * The whole sweep is repeated `trials` times with the trial loop outermost: a burst of
 * noise from the rest of the machine then spoils one trial of many sizes rather than every
 * trial of one size, and the median over trials discards it.
 *
 * Output on rank 0: CSV lines "pingpong,bytes,median_usec,min_usec,mbps,max_mbps,iters":
 * median and min over the per-trial averages, mbps = bytes / median_usec (MB = 10^6 B),
 * iters the fewest round trips timed in a trial.  Ranks beyond 1 only wait in the final
 * barrier; run it with exactly 2 ranks.
 */
#include "bench_common.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define SMALL_ITERS 5000 /* round trips per trial up to SMALL_LIMIT bytes */
#define SMALL_LIMIT 8192 /* above this, iterations fall as 1 / size */
#define MIN_ITERS 10     /* even 4 MiB gets this many round trips per trial */
#define MAX_WARM 100     /* warm-up round trips per (trial, size), at most */
#define WARM_CHUNKS 5    /* warm-up is timed in this many pieces */
#define TARGET_SEC 0.02  /* time of one (trial, size) beyond which iterations drop */
#define TAG 17

static int num_sizes(size_t max_bytes)
{
    int n = 2; /* 0 B and 1 B */

    for (size_t s = 1; s < max_bytes; s <<= 1)
        n++;
    return n;
}

static size_t size_at(int i)
{
    return i == 0 ? 0 : (size_t)1 << (i - 1);
}

static long iters_for(size_t bytes, double scale)
{
    double it = SMALL_ITERS;

    if (bytes > SMALL_LIMIT)
        it = (double)SMALL_ITERS * SMALL_LIMIT / (double)bytes;
    it *= scale;
    return it < MIN_ITERS ? MIN_ITERS : (long)it;
}

/* Stamp of message `seq`: never zero (fresh buffers and the timed loop's payload are zero)
 * and different from the previous message's, so stale data cannot pass for new. */
#define STAMP(seq) ((char)((seq) % 255 + 1))

/* Checks size and the stamp on the first and last byte (the same byte when bytes is 1):
 * a transport that drops, truncates or reuses a stale buffer fails loudly here instead
 * of looking fast. */
static void check(const char *buf, size_t bytes, long seq, const MPI_Status *st)
{
    int count = -1;

    MPI_Get_count(st, MPI_BYTE, &count);
    if ((size_t)count != bytes)
        bench_die("pingpong: received %d bytes, expected %zu", count, bytes);
    if (bytes > 0 && (buf[0] != STAMP(seq) || buf[bytes - 1] != STAMP(seq)))
        bench_die("pingpong: corrupt payload at %zu bytes, message %ld", bytes, seq);
}

/* Untimed round trips; rank 1 echoes what it received, so both directions are checked.
 * Both ranks make the same calls, so their message counters stay equal. */
static void warm_up(int rank, char *sbuf, char *rbuf, size_t bytes, long n)
{
    static long seq;
    MPI_Status st;
    int cnt = (int)bytes;

    for (long i = 0; i < n; i++, seq++) {
        if (rank == 0) {
            if (bytes > 0)
                sbuf[0] = sbuf[bytes - 1] = STAMP(seq);
            MPI_Send(sbuf, cnt, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
            MPI_Recv(rbuf, cnt, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &st);
            check(rbuf, bytes, seq, &st);
        } else {
            MPI_Recv(rbuf, cnt, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, &st);
            check(rbuf, bytes, seq, &st);
            MPI_Send(rbuf, cnt, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
        }
    }
}

/* Returns the one-way latency in microseconds (meaningful on rank 0 only). */
static double timed(int rank, char *sbuf, char *rbuf, size_t bytes, long iters)
{
    int cnt = (int)bytes;
    double t0, t1;

    t0 = MPI_Wtime();
    if (rank == 0) {
        for (long i = 0; i < iters; i++) {
            MPI_Send(sbuf, cnt, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
            MPI_Recv(rbuf, cnt, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    } else {
        for (long i = 0; i < iters; i++) {
            MPI_Recv(rbuf, cnt, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(sbuf, cnt, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
        }
    }
    t1 = MPI_Wtime();
    return (t1 - t0) * 1e6 / (2.0 * (double)iters);
}

int main(int argc, char **argv)
{
    bench_opts_t opts;
    int rank, nranks, nsizes;
    char *sbuf = NULL, *rbuf = NULL;
    double *lat = NULL; /* lat[size index * trials + trial], microseconds */
    long *used = NULL;  /* fewest round trips timed per size, over trials */

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    bench_parse_args(argc, argv, 0, &opts);
    if (nranks < 2)
        bench_die("pingpong needs 2 ranks, got %d", nranks);

    nsizes = num_sizes(opts.max_bytes);
    if (rank == 0) {
        bench_print_header("pingpong", "one-way latency = round-trip time / 2, ranks 0 and 1",
                           &opts);
        if (nranks > 2)
            printf("# note: %d ranks; ranks 2.. sit idle until MPI_Finalize\n", nranks);
        lat = malloc((size_t)nsizes * (size_t)opts.trials * sizeof(*lat));
        used = calloc((size_t)nsizes, sizeof(*used));
        if (lat == NULL || used == NULL)
            bench_die("out of memory");
    }

    if (rank < 2) {
        sbuf = bench_alloc(opts.max_bytes);
        rbuf = bench_alloc(opts.max_bytes);
        /* A few round trips of every size before any timing, so that first-use costs
         * (connection set-up, lazily created queues) stay out of the warm-up that decides
         * a trial's length. */
        for (int i = 0; i < nsizes; i++)
            warm_up(rank, sbuf, rbuf, size_at(i), 4);

        for (int t = 0; t < opts.trials; t++) {
            for (int i = 0; i < nsizes; i++) {
                size_t bytes = size_at(i);
                long iters = iters_for(bytes, opts.iter_scale);
                long chunk = iters / 10 / WARM_CHUNKS;
                double per[WARM_CHUNKS], us;

                /* The warm-up runs in chunks and the median chunk predicts the trial, so
                 * one preemption during the warm-up does not cut the iteration count. */
                if (chunk > MAX_WARM / WARM_CHUNKS)
                    chunk = MAX_WARM / WARM_CHUNKS;
                if (chunk < 1)
                    chunk = 1;
                for (int c = 0; c < WARM_CHUNKS; c++) {
                    double t0 = MPI_Wtime();

                    warm_up(rank, sbuf, rbuf, bytes, chunk);
                    per[c] = (MPI_Wtime() - t0) / (double)chunk;
                }
                iters = bench_agree_count(rank, iters, MIN_ITERS, bench_median(per, WARM_CHUNKS),
                                          TARGET_SEC * opts.iter_scale);
                us = timed(rank, sbuf, rbuf, bytes, iters);
                if (rank == 0) {
                    lat[i * opts.trials + t] = us;
                    if (used[i] == 0 || iters < used[i])
                        used[i] = iters;
                }
            }
        }
    }

    if (rank == 0) {
        for (int i = 0; i < nsizes; i++) {
            size_t bytes = size_at(i);
            double med = bench_median(&lat[i * opts.trials], opts.trials);
            double min = bench_min(&lat[i * opts.trials], opts.trials);

            printf("pingpong,%zu,%.3f,%.3f,%.1f,%.1f,%ld\n", bytes, med, min,
                   med > 0 ? (double)bytes / med : 0.0, min > 0 ? (double)bytes / min : 0.0,
                   used[i]);
        }
        fflush(stdout);
    }

    free(lat);
    free(used);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
