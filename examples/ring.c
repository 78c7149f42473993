/*
 * ring.c -- pass a message around all ranks, growing it each lap, and check it.
 *
 *   mpirun -np 4 examples/ring
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, len;
    char host[MPI_MAX_PROCESSOR_NAME], lib[MPI_MAX_LIBRARY_VERSION_STRING];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(host, &len);
    MPI_Get_library_version(lib, &len);
    if (rank == 0) {
        printf("%s\n%d ranks\n", lib, size);
    }

    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    for (size_t bytes = 1; bytes <= (size_t)4 << 20; bytes *= 16) {
        unsigned char *buf = malloc(bytes);
        double t0 = MPI_Wtime();
        if (rank == 0) {
            for (size_t i = 0; i < bytes; i++) {
                buf[i] = (unsigned char)(i * 7 + 1);
            }
            MPI_Send(buf, (int)bytes, MPI_BYTE, next, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, (int)bytes, MPI_BYTE, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (size_t i = 0; i < bytes; i++) {
                if (buf[i] != (unsigned char)(i * 7 + 1 + size - 1)) {
                    fprintf(stderr, "ring: byte %zu of %zu is wrong\n", i, bytes);
                    MPI_Abort(MPI_COMM_WORLD, 1);
                }
            }
            printf("%9zu bytes around %d ranks: %8.1f us\n", bytes, size,
                   (MPI_Wtime() - t0) * 1e6);
        } else {
            MPI_Recv(buf, (int)bytes, MPI_BYTE, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (size_t i = 0; i < bytes; i++) {
                buf[i]++;
            }
            MPI_Send(buf, (int)bytes, MPI_BYTE, next, 0, MPI_COMM_WORLD);
        }
        free(buf);
    }
    MPI_Finalize();
    return 0;
}
