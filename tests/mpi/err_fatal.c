/*
 * err_fatal: under the default MPI_ERRORS_ARE_FATAL, an invalid argument takes the whole
 * job down.  The last rank makes the bad call named by argv[1] while the others wait in
 * a receive that nothing matches; the runner checks that mpirun exits non-zero, soon,
 * and that the output names the MPI function.
 *   send   MPI_Send to rank `size`
 *   recv   MPI_Recv with count -1
 *   type   MPI_Type_commit of MPI_DATATYPE_NULL
 */
#include "tests/mpi/mpitest.h"

#include <unistd.h>

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "send";
    int v = 0;

    mt_init(&argc, &argv, "err_fatal");
    mt_barrier(MPI_COMM_WORLD);
    if (mt_rank == mt_size - 1) {
        MPI_Datatype t = MPI_DATATYPE_NULL;

        usleep(100000);
        if (strcmp(mode, "send") == 0)
            MPI_Send(&v, 1, MPI_INT, mt_size, 0, MPI_COMM_WORLD);
        else if (strcmp(mode, "recv") == 0)
            MPI_Recv(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPI_Type_commit(&t);
        /* reaching this line means the error did not abort */
        printf("err_fatal: the invalid call (%s) returned instead of aborting\n", mode);
        fflush(stdout);
        return 0;
    }
    MPI_Recv(&v, 1, MPI_INT, mt_size - 1, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("err_fatal rank %d: the receive completed, nothing was sent\n", mt_rank);
    return 0;
}
