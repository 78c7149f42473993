/*
 * init_time.c: how long MPI_Init takes in a program that does nothing else.
 *
 * Each rank reads CLOCK_MONOTONIC just before and just after MPI_Init; rank 0 prints the
 * slowest rank's time (the job can do nothing collective before that rank is ready) and
 * its own.  One process launch gives one sample: bench/run-tramp.sh launches it several
 * times and takes the median.  Standard MPI and POSIX only, so every MPI's mpicc builds it.
 *
 * Output on rank 0: "mpi_init_ms,NP,MAX_MS,RANK0_MS"
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>
#include <stdio.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv)
{
    double t0 = now_ms(), mine, worst = 0.0;
    int rank, size;

    MPI_Init(&argc, &argv);
    mine = now_ms() - t0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Reduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("mpi_init_ms,%d,%.2f,%.2f\n", size, worst, mine);
    MPI_Finalize();
    return 0;
}
