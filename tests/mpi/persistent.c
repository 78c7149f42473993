/*
 * persistent: Send_init/Recv_init requests started many times with Start and Startall,
 * each round with new data (eager and rendezvous sizes), completed with Wait/Waitall/
 * Test; an inactive persistent request completes at once with an empty status; then
 * Request_free, including freeing a request right after a started send completes.
 */
#include "tests/mpi/mpitest.h"

#define ROUNDS 10
#define NLEN 3
static const int lens[NLEN] = {16, 8192, 400000};

int main(int argc, char **argv)
{
    int right, left;
    unsigned char *sbuf[NLEN], *rbuf[NLEN];
    MPI_Request reqs[2 * NLEN];
    MPI_Status sts[2 * NLEN], st;

    mt_init(&argc, &argv, "persistent");
    right = (mt_rank + 1) % mt_size;
    left = (mt_rank + mt_size - 1) % mt_size;
    for (int i = 0; i < NLEN; i++) {
        sbuf[i] = mt_malloc((size_t)lens[i]);
        rbuf[i] = mt_malloc((size_t)lens[i]);
        MPI_OK(MPI_Recv_init(rbuf[i], lens[i], MPI_BYTE, left, i, MPI_COMM_WORLD, &reqs[i]));
        MPI_OK(MPI_Send_init(sbuf[i], lens[i], MPI_BYTE, right, i, MPI_COMM_WORLD,
                             &reqs[NLEN + i]));
    }

    /* an inactive persistent request: Wait returns at once with an empty status */
    MPI_OK(MPI_Wait(&reqs[0], &st));
    CHECK(reqs[0] != MPI_REQUEST_NULL, "Wait on an inactive persistent request freed it");
    CHECK(st.MPI_SOURCE == MPI_ANY_SOURCE && st.MPI_TAG == MPI_ANY_TAG,
          "inactive request: status source %d tag %d, expected the empty status",
          st.MPI_SOURCE, st.MPI_TAG);

    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < NLEN; i++) {
            memset(rbuf[i], 0, (size_t)lens[i]);
            mt_fill(sbuf[i], (size_t)lens[i], mt_rank, round * 10 + i);
        }
        if (round % 2 == 0) {
            MPI_OK(MPI_Startall(2 * NLEN, reqs));
        } else {
            for (int i = 2 * NLEN - 1; i >= 0; i--)
                MPI_OK(MPI_Start(&reqs[i]));
        }
        if (round % 3 == 2) {
            int flag = 0;

            while (!flag)
                MPI_OK(MPI_Testall(2 * NLEN, reqs, &flag, sts));
        } else {
            MPI_OK(MPI_Waitall(2 * NLEN, reqs, sts));
        }
        for (int i = 0; i < 2 * NLEN; i++)
            CHECK(reqs[i] != MPI_REQUEST_NULL, "round %d: completion freed persistent %d",
                  round, i);
        for (int i = 0; i < NLEN; i++) {
            int count = -1;
            long bad = mt_verify(rbuf[i], (size_t)lens[i], left, round * 10 + i);

            CHECK(bad < 0, "round %d len %d: corrupt at byte %ld", round, lens[i], bad);
            MPI_OK(MPI_Get_count(&sts[i], MPI_BYTE, &count));
            CHECK(count == lens[i], "round %d: count %d, expected %d", round, count, lens[i]);
            CHECK(sts[i].MPI_SOURCE == left && sts[i].MPI_TAG == i,
                  "round %d: status source %d tag %d", round, sts[i].MPI_SOURCE,
                  sts[i].MPI_TAG);
        }
    }

    for (int i = 0; i < 2 * NLEN; i++) {
        MPI_OK(MPI_Request_free(&reqs[i]));
        CHECK(reqs[i] == MPI_REQUEST_NULL, "Request_free did not reset the handle");
    }

    /* a persistent send created, started once and freed after completing */
    {
        MPI_Request sreq;
        int v = 4242 + mt_rank, r = -1;

        MPI_OK(MPI_Send_init(&v, 1, MPI_INT, right, 50, MPI_COMM_WORLD, &sreq));
        MPI_OK(MPI_Start(&sreq));
        MPI_OK(MPI_Recv(&r, 1, MPI_INT, left, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Request_free(&sreq));
        CHECK(r == 4242 + left, "persistent send: got %d, expected %d", r, 4242 + left);
    }

    for (int i = 0; i < NLEN; i++) {
        free(sbuf[i]);
        free(rbuf[i]);
    }
    return mt_finish();
}
