/*
 * agree_cost.c: what the agreement adds to a cache hit: a 12-byte MPI_Bcast from rank 0
 * on MPI_COMM_WORLD, called back to back, with whatever config the launcher gives (none:
 * the native closure; examples/configs/timing-wrapper.scm: a Scheme closure over it,
 * whose later runs end with an outcome exchange at coll_check_determinism 1).
 *
 *     trials x { MPI_Barrier ; t0 ; iters x MPI_Bcast ; avg = (now - t0) / iters }
 *     per trial: the max over ranks of avg; printed: median, min and max over trials
 *
 * Usage: agree_cost [TRIALS [ITERS]]   (default 21 and 2000; bench/run-agree-cost.sh)
 * The first call (the miss, the agreed first run) and 99 more are made before the trials.
 * Output on rank 0, one line: "bcast12 np=N median_us=... min_us=... max_us=...".
 * Standard MPI.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_TRIALS 101

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int rank, size, buf[3] = {1, 2, 3};
    double t[MAX_TRIALS];

    MPI_Init(&argc, &argv);
    int trials = argc > 1 ? atoi(argv[1]) : 21, iters = argc > 2 ? atoi(argv[2]) : 2000;
    if (trials < 1 || trials > MAX_TRIALS || iters < 1) {
        fprintf(stderr, "agree_cost: TRIALS must be 1..%d and ITERS at least 1\n", MAX_TRIALS);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 100; i++) {
        MPI_Bcast(buf, 3, MPI_INT, 0, MPI_COMM_WORLD);
    }
    for (int k = 0; k < trials; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            MPI_Bcast(buf, 3, MPI_INT, 0, MPI_COMM_WORLD);
        }
        double avg = (MPI_Wtime() - t0) / iters;
        MPI_Allreduce(&avg, &t[k], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    qsort(t, (size_t)trials, sizeof(t[0]), cmp);
    if (rank == 0) {
        printf("bcast12 np=%d median_us=%.2f min_us=%.2f max_us=%.2f\n", size, 1e6 * t[trials / 2],
               1e6 * t[0], 1e6 * t[trials - 1]);
    }
    MPI_Finalize();
    return 0;
}
