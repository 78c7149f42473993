/*
 * cost.c -- what the standard ABI layer costs: one program built with mpicc (native ABI)
 * and with mpicc_abi (libmpi_abi.so.1 over the native library), timing a 8-byte
 * ping-pong between ranks 0 and 1 and a one-int MPI_Allreduce, N iterations each after a
 * warm-up, and a call that does next to nothing (MPI_Comm_rank), where the layer's
 * conversions are most of the time.  abi/cost.sh runs both builds several times and
 * prints the medians.  Prints "pingpong_us X allreduce_us Y rank_ns Z" (half a round
 * trip, one allreduce, one MPI_Comm_rank).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20000, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char buf[8] = {0};
    double t_pp = 0, t_ar = 0, t_rank = 0;
    for (int phase = 0; phase < 2; phase++) {
        int iters = phase == 0 ? n / 10 : n; /* the first phase warms up */
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters && size > 1; i++) {
            if (rank == 0) {
                MPI_Send(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, 8, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, 8, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        double t1 = MPI_Wtime();
        int v = rank, s = 0;
        for (int i = 0; i < iters; i++) {
            MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        }
        double t2 = MPI_Wtime();
        int r = 0;
        for (int i = 0; i < 50 * iters; i++) {
            MPI_Comm_rank(MPI_COMM_WORLD, &r);
        }
        double t3 = MPI_Wtime();
        t_pp = (t1 - t0) / iters / 2 * 1e6;
        t_ar = (t2 - t1) / iters * 1e6;
        t_rank = (t3 - t2) / (50.0 * iters) * 1e9;
    }
    if (rank == 0) {
        printf("pingpong_us %.3f allreduce_us %.3f rank_ns %.2f\n", t_pp, t_ar, t_rank);
    }
    MPI_Finalize();
    return 0;
}
