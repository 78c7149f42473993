/*
 * cancel: a receive that nothing will match can be cancelled (Test_cancelled says so and
 * the buffer is untouched); a receive that already completed is not cancelled by a late
 * MPI_Cancel; a cancelled receive does not steal a later message.  Every rank does this
 * with itself and with its right neighbour.
 */
#include "tests/mpi/mpitest.h"

int main(int argc, char **argv)
{
    int right, left, flag, buf[4], val;
    MPI_Request req, sreq;
    MPI_Status st;

    mt_init(&argc, &argv, "cancel");
    right = (mt_rank + 1) % mt_size;
    left = (mt_rank + mt_size - 1) % mt_size;

    /* 1: Irecv for a tag nobody sends, cancel, Wait: cancelled, buffer untouched */
    for (int k = 0; k < 3; k++) {
        int src = k == 0 ? left : k == 1 ? MPI_ANY_SOURCE : mt_rank;

        buf[0] = -7;
        MPI_OK(MPI_Irecv(buf, 4, MPI_INT, src, 777, MPI_COMM_WORLD, &req));
        MPI_OK(MPI_Cancel(&req));
        CHECK(req != MPI_REQUEST_NULL, "Cancel freed the request");
        MPI_OK(MPI_Wait(&req, &st));
        MPI_OK(MPI_Test_cancelled(&st, &flag));
        CHECK(flag, "case %d: pending receive from %d was not cancelled", k, src);
        CHECK(buf[0] == -7, "cancelled receive wrote %d into the buffer", buf[0]);
    }

    /* 1b: cancel then Test (not Wait) until complete */
    MPI_OK(MPI_Irecv(buf, 4, MPI_INT, left, 778, MPI_COMM_WORLD, &req));
    MPI_OK(MPI_Cancel(&req));
    do
        MPI_OK(MPI_Test(&req, &flag, &st));
    while (!flag);
    MPI_OK(MPI_Test_cancelled(&st, &flag));
    CHECK(flag, "Test: pending receive was not cancelled");

    /* 2: a completed receive is not cancelled */
    val = 1000 + mt_rank;
    MPI_OK(MPI_Isend(&val, 1, MPI_INT, right, 5, MPI_COMM_WORLD, &sreq));
    MPI_OK(MPI_Irecv(buf, 4, MPI_INT, left, 5, MPI_COMM_WORLD, &req));
    /* wait until the data is there without completing the request through Wait */
    do
        MPI_OK(MPI_Request_get_status(req, &flag, &st));
    while (!flag);
    MPI_OK(MPI_Cancel(&req));
    MPI_OK(MPI_Wait(&req, &st));
    MPI_OK(MPI_Test_cancelled(&st, &flag));
    CHECK(!flag, "a completed receive reports cancelled");
    CHECK(buf[0] == 1000 + left, "received %d, expected %d", buf[0], 1000 + left);
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 5, "status source %d tag %d",
          st.MPI_SOURCE, st.MPI_TAG);
    MPI_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));

    /* 3: a cancelled receive does not take the message sent afterwards */
    mt_barrier(MPI_COMM_WORLD);
    MPI_OK(MPI_Irecv(buf, 4, MPI_INT, left, 6, MPI_COMM_WORLD, &req));
    MPI_OK(MPI_Cancel(&req));
    MPI_OK(MPI_Wait(&req, &st));
    MPI_OK(MPI_Test_cancelled(&st, &flag));
    CHECK(flag, "receive on tag 6 was not cancelled");
    mt_barrier(MPI_COMM_WORLD);
    val = 2000 + mt_rank;
    MPI_OK(MPI_Isend(&val, 1, MPI_INT, right, 6, MPI_COMM_WORLD, &sreq));
    buf[0] = -1;
    MPI_OK(MPI_Recv(buf, 4, MPI_INT, left, 6, MPI_COMM_WORLD, &st));
    CHECK(buf[0] == 2000 + left, "after cancel: received %d, expected %d", buf[0], 2000 + left);
    MPI_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));

    /* 4: a received status that never went through Cancel is not cancelled */
    MPI_OK(MPI_Test_cancelled(&st, &flag));
    CHECK(!flag, "an ordinary receive reports cancelled");

    return mt_finish();
}
