/*
 * oversub.c: what waiting ranks cost on an oversubscribed host (more ranks than cores).
 *
 *   oversub pp N     ranks 0 and 1 ping-pong 8 bytes N times; the others wait in a barrier
 *   oversub ar N     every rank does N allreduces of one double
 *   oversub idle S   rank 0 sleeps S seconds outside MPI; the others wait in a barrier
 *                    (watch their CPU time meanwhile: ps, /proc/PID/stat)
 *
 * Output on rank 0: "MODE N: SECONDS s, USEC us/iter".  Built with any mpicc, e.g.
 *   bin/mpicc -O2 -o oversub bench/oversub.c
 *   bin/mpirun -np 8 --mca btl self,ofi --mca pml_block_after 0 ./oversub pp 2000
 * (pml_block_after 0: waiting ranks yield; the default: they sleep in btl ofi).
 * Standard MPI and POSIX only.
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void pingpong(int rank, int iters)
{
    char buf[8] = {0};

    if (rank > 1)
        return;
    for (int i = 0; i < iters; i++) {
        if (rank == 0) {
            MPI_Send(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
    }
}

int main(int argc, char **argv)
{
    int rank, n = argc > 2 ? atoi(argv[2]) : 1000;
    const char *mode = argc > 1 ? argv[1] : "";
    double x = 1.0, y;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (strcmp(mode, "pp") != 0 && strcmp(mode, "ar") != 0 && strcmp(mode, "idle") != 0) {
        if (rank == 0)
            fprintf(stderr, "usage: %s pp|ar|idle N\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (strcmp(mode, "pp") == 0) {
        pingpong(rank, n);
    } else if (strcmp(mode, "ar") == 0) {
        for (int i = 0; i < n; i++)
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    } else {
        if (rank == 0)
            sleep((unsigned)n);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    double t = MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s %d: %.3f s, %.1f us/iter\n", mode, n, t, 1e6 * t / (n > 0 ? n : 1));
    MPI_Finalize();
    return 0;
}
