/*
 * lang_c.c: the C half of the Fortran-against-C comparison (run-fortran.sh; its twin is
 * lang_f08.f90, the same loops through `use mpi_f08`).
 *
 * Two measurements per size, each the median over TRIALS of the average of ITERS
 * repetitions:
 *   pingpong   ranks 0 and 1: MPI_Send then MPI_Recv of n bytes, half a round trip
 *   allreduce  every rank: MPI_Allreduce of n/8 doubles, MPI_SUM
 * Sizes 8 B to 64 KiB by powers of 4.  Output on rank 0: "c,pingpong,bytes,usec" lines.
 * The results are checked (the ping-pong's last byte, the sum) and a wrong one aborts.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRIALS 7
#define ITERS 2000
#define MAX_BYTES 65536

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int rank, size;
    double t[TRIALS];
    double *sbuf, *rbuf;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    sbuf = malloc(MAX_BYTES);
    rbuf = malloc(MAX_BYTES);
    if (sbuf == NULL || rbuf == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int bytes = 8; bytes <= MAX_BYTES; bytes *= 4) {
        int n = bytes / 8;
        for (int i = 0; i < n; i++)
            sbuf[i] = rank + 1;
        for (int tr = 0; tr < TRIALS; tr++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int it = 0; it < ITERS; it++) {
                if (rank == 0) {
                    MPI_Send(sbuf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                    MPI_Recv(rbuf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else if (rank == 1) {
                    MPI_Recv(rbuf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(sbuf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
                }
            }
            t[tr] = (MPI_Wtime() - t0) * 1e6 / (2.0 * ITERS);
        }
        if (rank < 2 && rbuf[n - 1] != 2 - rank) {
            fprintf(stderr, "lang_c: ping-pong of %d bytes delivered %g\n", bytes, rbuf[n - 1]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        qsort(t, TRIALS, sizeof t[0], cmp_double);
        if (rank == 0)
            printf("c,pingpong,%d,%.4f\n", bytes, t[TRIALS / 2]);
        for (int tr = 0; tr < TRIALS; tr++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int it = 0; it < ITERS; it++)
                MPI_Allreduce(sbuf, rbuf, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            t[tr] = (MPI_Wtime() - t0) * 1e6 / ITERS;
        }
        if (rbuf[n - 1] != (double)size * (size + 1) / 2) {
            fprintf(stderr, "lang_c: allreduce of %d bytes gave %g\n", bytes, rbuf[n - 1]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        qsort(t, TRIALS, sizeof t[0], cmp_double);
        if (rank == 0)
            printf("c,allreduce,%d,%.4f\n", bytes, t[TRIALS / 2]);
    }
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
