/*
 * collectives.c -- a few collectives with checked results: an allreduce of a growing
 * vector, a bcast from every root in turn, an allgather and a barrier.
 *
 *   mpirun -np 4 examples/collectives
 *   mpirun -np 4 --coll-config examples/configs/profile.scm examples/collectives
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void check(int ok, const char *what, int rank)
{
    if (!ok) {
        fprintf(stderr, "collectives: rank %d: %s is wrong\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    for (int n = 1; n <= 1 << 16; n *= 16) {
        double *in = malloc(sizeof(double) * (size_t)n), *out = malloc(sizeof(double) * (size_t)n);
        for (int i = 0; i < n; i++) {
            in[i] = rank + i;
        }
        MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        for (int i = 0; i < n; i++) {
            check(out[i] == (double)size * (size - 1) / 2 + (double)size * i, "allreduce", rank);
        }
        free(in);
        free(out);
    }
    for (int root = 0; root < size; root++) {
        int v = rank == root ? 1000 + root : -1;
        MPI_Bcast(&v, 1, MPI_INT, root, MPI_COMM_WORLD);
        check(v == 1000 + root, "bcast", rank);
    }
    int *all = malloc(sizeof(int) * (size_t)size);
    MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < size; r++) {
        check(all[r] == r, "allgather", rank);
    }
    free(all);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("collectives: allreduce, bcast, allgather and barrier correct on %d ranks\n",
               size);
    }
    MPI_Finalize();
    return 0;
}
