/*
 * fig1.c: the loop of the CoMPI paper's Figure 1, time per MPI_Allreduce against count.
 *
 * For each count (ints, MPI_SUM), after an untimed warm-up and a barrier, every rank
 * runs `iters` MPI_Allreduce calls back to back and times each call; a rank's figure is
 * the sum of its call times / iters.  Rank 0 prints the maximum over ranks of that figure
 * (the slowest rank's view of a call) as CSV:
 *
 *     count,usec_per_call
 *     1,612.4
 *
 * Every result is checked.  Rank r sends, for element i of call it,
 *
 *     v = (r + 1) * g(it, i) + r * r      with g(it, i) = (7 i + 13 it) mod 101 + 1
 *
 * so the sum over n ranks is g * n (n + 1) / 2 + (n - 1) n (2 n - 1) / 6.  A rank left
 * out or counted twice changes it by (r + 1) g + r^2 > 0, and a result of another call
 * (stale data) differs because g depends on `it`.  A mismatch aborts the job with a
 * message naming the rank, count, call and element.  Filling and checking happen
 * outside the timed calls.
 *
 * Usage: fig1 [-i iters] [-w warmup] [count ...]
 *   -i iters    timed calls per count (default 1000)
 *   -w warmup   untimed calls per count before them (default 10)
 *   counts      default 1 2 5 10 20 50 100 200 500 1000 2000 5000 10000 20000 50000
 * After the last count rank 0 prints "# done" (all ranks are past their calls), then
 * MPI_Finalize.  Any number of ranks (at most 1000: the sums must fit an int).  Standard
 * MPI and C11 only: each MPI's own mpicc builds it.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const long default_counts[] = {1,   2,    5,    10,   20,    50,    100,  200,
                                      500, 1000, 2000, 5000, 10000, 20000, 50000};

static int rank, size;

static void fail(const char *fmt, const char *arg)
{
    if (rank == 0) {
        fprintf(stderr, "fig1: ");
        fprintf(stderr, fmt, arg);
        fprintf(stderr, "\nusage: fig1 [-i iters] [-w warmup] [count ...]\n");
    }
    MPI_Finalize();
    exit(2);
}

static long parse_count(const char *s, long lo, long hi, const char *what)
{
    char *end;
    long v = strtol(s, &end, 10);

    if (end == s || *end != '\0' || v < lo || v > hi)
        fail(what, s);
    return v;
}

static int g(long it, long i)
{
    return (int)((7 * i + 13 * it) % 101) + 1;
}

static void fill(int *send, long count, long it)
{
    for (long i = 0; i < count; i++)
        send[i] = (rank + 1) * g(it, i) + rank * rank;
}

static void check(const int *recv, long count, long it)
{
    long n = size;
    long s1 = n * (n + 1) / 2, s2 = (n - 1) * n * (2 * n - 1) / 6;

    for (long i = 0; i < count; i++) {
        long want = g(it, i) * s1 + s2;

        if (recv[i] != want) {
            fprintf(stderr,
                    "fig1: WRONG RESULT on rank %d: count %ld, call %ld, element %ld: got %d, "
                    "expected %ld\n",
                    rank, count, it, i, recv[i], want);
            fflush(stderr);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }
}

/* seconds per call on this rank: `iters` timed calls after `warmup` untimed ones */
static double run_count(int *send, int *recv, long count, long warmup, long iters)
{
    double total = 0.0;

    for (long it = 0; it < warmup + iters; it++) {
        double t0;

        fill(send, count, it);
        if (it == warmup)
            MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        MPI_Allreduce(send, recv, (int)count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (it >= warmup)
            total += MPI_Wtime() - t0;
        check(recv, count, it);
    }
    return total / (double)iters;
}

int main(int argc, char **argv)
{
    long iters = 1000, warmup = 10, max_count = 0, ncounts = 0;
    long *counts;
    int *send, *recv;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], host[MPI_MAX_PROCESSOR_NAME];
    int len;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1000)
        fail("%s ranks: the expected sums would overflow an int past 1000 ranks", "over 1000");
    counts = malloc(sizeof(*counts) * (size_t)(argc + 16));
    if (!counts)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "-i") == 0 || strcmp(argv[a], "-w") == 0) {
            if (a + 1 >= argc)
                fail("option %s needs a number", argv[a]);
            if (argv[a][1] == 'i')
                iters = parse_count(argv[a + 1], 1, 100000000, "-i '%s': iterations >= 1");
            else
                warmup = parse_count(argv[a + 1], 0, 100000000, "-w '%s': warm-up calls >= 0");
            a++;
        } else if (argv[a][0] == '-') {
            fail("unknown option '%s'", argv[a]);
        } else {
            counts[ncounts++] = parse_count(argv[a], 1, 1L << 28, "count '%s': 1 .. 2^28 ints");
        }
    }
    if (ncounts == 0) {
        ncounts = (long)(sizeof(default_counts) / sizeof(default_counts[0]));
        memcpy(counts, default_counts, sizeof(default_counts));
    }
    for (long c = 0; c < ncounts; c++)
        if (counts[c] > max_count)
            max_count = counts[c];
    send = malloc(sizeof(int) * (size_t)max_count);
    recv = malloc(sizeof(int) * (size_t)max_count);
    if (!send || !recv) {
        fprintf(stderr, "fig1: rank %d: out of memory for %ld ints\n", rank, max_count);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n")] = '\0';
    MPI_Get_processor_name(host, &len);
    if (rank == 0) {
        printf("# fig1: MPI_Allreduce of count ints (MPI_SUM), %ld timed calls per count\n", iters);
        printf("# ranks: %d, rank 0 on %s, warm-up %ld calls\n", size, host, warmup);
        printf("# library: %s\n", lib);
        printf("# usec_per_call: max over ranks of (time in the calls / calls)\n");
        printf("count,usec_per_call\n");
        fflush(stdout);
    }
    for (long c = 0; c < ncounts; c++) {
        double mine = run_count(send, recv, counts[c], warmup, iters), worst;

        MPI_Reduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            printf("%ld,%.2f\n", counts[c], worst * 1e6);
            fflush(stdout);
        }
    }
    /* every rank is past its last call: a launcher script may stop waiting for a job
     * whose MPI_Finalize hangs (run-multicluster.sh does) without losing data */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("# done\n");
        fflush(stdout);
    }
    free(send);
    free(recv);
    free(counts);
    MPI_Finalize();
    return 0;
}
