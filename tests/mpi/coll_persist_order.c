/*
 * coll_persist_order.c -- persistent collectives match in the order they were
 * initialized, whatever order each rank starts them in (MPI-4 6.13).  Every rank
 * initializes a broadcast, a barrier and an allreduce (the allreduce on a large vector, so
 * its messages go by rendezvous) in that order, then for ROUNDS rounds starts them in an
 * order of its own (it depends on the rank and the round: different ranks start them in
 * different orders), one MPI_Start each or all by MPI_Startall, and waits for all three.
 * Under MPI_ERRORS_RETURN every call must succeed and every result be right: messages of
 * one request must never be matched by another.
 */
#include "tests/mpi/mpitest.h"

#define ROUNDS 40
#define NBIG (64 * 1024)

int main(int argc, char **argv)
{
    static int big[NBIG], sum[NBIG];
    int bval[4];
    MPI_Request req[3];

    mt_init(&argc, &argv, "coll_persist_order");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Bcast_init(bval, 4, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
    MPI_OK(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]));
    MPI_OK(MPI_Allreduce_init(big, sum, NBIG, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                              &req[2]));
    for (int round = 0; round < ROUNDS && mt_errors == 0; round++) {
        /* one of the six orders, different on neighbouring ranks */
        static const int orders[6][3] = {{0, 1, 2}, {1, 0, 2}, {2, 1, 0},
                                         {1, 2, 0}, {2, 0, 1}, {0, 2, 1}};
        const int *o = orders[(mt_rank + round) % 6];
        for (int i = 0; i < 4; i++) {
            bval[i] = mt_rank == 0 ? round * 100 + i : -1;
        }
        for (int i = 0; i < NBIG; i++) {
            big[i] = round + mt_rank + i;
        }
        if (round % 2 == 0) {
            for (int i = 0; i < 3; i++) {
                int rc = MPI_Start(&req[o[i]]);
                CHECK(rc == MPI_SUCCESS, "round %d: MPI_Start of request %d returned %d", round,
                      o[i], rc);
            }
        } else {
            MPI_Request sub[3] = {req[o[0]], req[o[1]], req[o[2]]};
            int rc = MPI_Startall(3, sub);
            CHECK(rc == MPI_SUCCESS, "round %d: MPI_Startall returned %d", round, rc);
        }
        MPI_Status st[3];
        int rc = MPI_Waitall(3, req, st);
        CHECK(rc == MPI_SUCCESS, "round %d: MPI_Waitall returned %d (errors %d %d %d)", round, rc,
              st[0].MPI_ERROR, st[1].MPI_ERROR, st[2].MPI_ERROR);
        for (int i = 0; i < 4; i++) {
            CHECK(bval[i] == round * 100 + i, "round %d: bcast element %d is %d, expected %d",
                  round, i, bval[i], round * 100 + i);
        }
        for (int i = 0; i < NBIG; i++) {
            int want = mt_size * (round + i) + mt_size * (mt_size - 1) / 2;
            if (sum[i] != want) {
                CHECK(0, "round %d: allreduce element %d is %d, expected %d", round, i, sum[i],
                      want);
                break;
            }
        }
    }
    for (int i = 0; i < 3; i++) {
        MPI_OK(MPI_Request_free(&req[i]));
    }
    return mt_finish();
}
