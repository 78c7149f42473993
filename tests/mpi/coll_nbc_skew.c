/*
 * coll_nbc_skew.c -- a nonblocking collective started before a blocking one on one rank
 * and after it on the others, as mpi4py's test of its MPI_Comm_iagree fallback does (an
 * MPI_Iallreduce with MPI_BAND): erroneous by MPI's rule that every rank calls a
 * communicator's collectives in the same order, but Open MPI and MPICH tolerate it,
 * since their nonblocking collectives travel apart from the blocking ones.  With the
 * defaults compi must too: the nonblocking calls here must not take an algorithm that a
 * blocking call on the same communicator waits for (the shared-memory ones, whose
 * blocking calls wait for the outstanding nonblocking ones).  Each rank in turn is the
 * early one, for an allreduce and a bcast of a few bytes (what fits a shared-memory
 * slot).
 */
#include "tests/mpi/mpitest.h"

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "coll_nbc_skew");
    for (int root = 0; root < mt_size; root++) {
        int flag = mt_rank == root ? 11 : 13, want = 11 & 13, b = mt_rank == root ? 42 : 0;
        MPI_Request req[2];
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        if (mt_rank == root) {
            MPI_OK(MPI_Iallreduce(MPI_IN_PLACE, &flag, 1, MPI_INT, MPI_BAND, MPI_COMM_WORLD,
                                  &req[0]));
            MPI_OK(MPI_Ibcast(&b, 1, MPI_INT, root, MPI_COMM_WORLD, &req[1]));
            MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
        } else {
            MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
            MPI_OK(MPI_Iallreduce(MPI_IN_PLACE, &flag, 1, MPI_INT, MPI_BAND, MPI_COMM_WORLD,
                                  &req[0]));
            MPI_OK(MPI_Ibcast(&b, 1, MPI_INT, root, MPI_COMM_WORLD, &req[1]));
        }
        MPI_OK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
        CHECK(flag == want, "root %d: allreduce gave %d, expected %d", root, flag, want);
        CHECK(b == 42, "root %d: bcast gave %d, expected 42", root, b);
    }
    return mt_finish();
}
