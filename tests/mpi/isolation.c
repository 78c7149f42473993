/*
 * isolation: traffic on different communicators never crosses.  The same (source, tag)
 * pairs carry different payloads on MPI_COMM_WORLD, a dup of it, a second dup, and a
 * split (same ranks, reversed order); receives are posted on the communicators in an
 * order different from the sends, with wildcards, so a message that crossed would land
 * in the wrong buffer and be caught by its payload.
 */
#include "tests/mpi/mpitest.h"

#define NCOMM 4
#define NMSG 6

int main(int argc, char **argv)
{
    MPI_Comm comms[NCOMM];
    int ranks[NCOMM], sizes[NCOMM];
    int sbuf[NCOMM][NMSG][3], rbuf[NCOMM][NMSG][3];
    MPI_Request sreq[NCOMM * NMSG], rreq[NCOMM * NMSG];
    MPI_Status st[NCOMM * NMSG];
    int nr = 0, ns = 0;

    mt_init(&argc, &argv, "isolation");
    comms[0] = MPI_COMM_WORLD;
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]));
    MPI_OK(MPI_Comm_dup(comms[1], &comms[2]));
    /* one color, key reverses the order: same group of processes, new ranks */
    MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, 0, mt_size - mt_rank, &comms[3]));
    for (int c = 0; c < NCOMM; c++) {
        MPI_OK(MPI_Comm_rank(comms[c], &ranks[c]));
        MPI_OK(MPI_Comm_size(comms[c], &sizes[c]));
        CHECK(sizes[c] == mt_size, "comm %d: size %d, expected %d", c, sizes[c], mt_size);
    }
    CHECK(ranks[3] == mt_size - 1 - mt_rank, "split: rank %d, expected %d", ranks[3],
          mt_size - 1 - mt_rank);

    /* receives first, on the communicators in reverse order, fully wildcarded */
    for (int c = NCOMM - 1; c >= 0; c--)
        for (int m = 0; m < NMSG; m++) {
            rbuf[c][m][0] = -1;
            MPI_OK(MPI_Irecv(rbuf[c][m], 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comms[c],
                             &rreq[nr++]));
        }
    /* every rank sends NMSG messages to its right neighbour (in each comm's numbering) */
    for (int c = 0; c < NCOMM; c++)
        for (int m = 0; m < NMSG; m++) {
            int dst = (ranks[c] + 1) % sizes[c];

            sbuf[c][m][0] = c;
            sbuf[c][m][1] = ranks[c];
            sbuf[c][m][2] = m;
            MPI_OK(MPI_Isend(sbuf[c][m], 3, MPI_INT, dst, m % 2, comms[c], &sreq[ns++]));
        }
    MPI_OK(MPI_Waitall(nr, rreq, st));
    MPI_OK(MPI_Waitall(ns, sreq, MPI_STATUSES_IGNORE));
    for (int c = NCOMM - 1, i = 0; c >= 0; c--)
        for (int m = 0; m < NMSG; m++, i++) {
            int left = (ranks[c] + sizes[c] - 1) % sizes[c];

            CHECK(rbuf[c][m][0] == c, "comm %d got a message sent on comm %d", c, rbuf[c][m][0]);
            CHECK(rbuf[c][m][1] == left && st[i].MPI_SOURCE == left,
                  "comm %d: message from %d (status %d), expected %d", c, rbuf[c][m][1],
                  st[i].MPI_SOURCE, left);
            CHECK(rbuf[c][m][2] == m && st[i].MPI_TAG == m % 2,
                  "comm %d: message %d (tag %d) arrived as number %d", c, rbuf[c][m][2],
                  st[i].MPI_TAG, m);
        }

    /*
     * a message sent on a dup must not satisfy a probe on WORLD (tag 3 only: other ranks
     * may already be in mt_finish's barrier on WORLD)
     */
    {
        int flag = 1, v = 9, got = -1, peer = (mt_rank + 1) % mt_size;
        MPI_Request r;

        MPI_OK(MPI_Isend(&v, 1, MPI_INT, peer, 3, comms[1], &r));
        MPI_OK(MPI_Probe(MPI_ANY_SOURCE, 3, comms[1], MPI_STATUS_IGNORE));
        MPI_OK(MPI_Iprobe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "a message sent on a dup is visible on MPI_COMM_WORLD");
        MPI_OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comms[2], &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "a message sent on a dup is visible on another dup");
        MPI_OK(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 3, comms[1], MPI_STATUS_IGNORE));
        MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
        CHECK(got == 9, "probe message: got %d, expected 9", got);
    }

    for (int c = 1; c < NCOMM; c++)
        MPI_OK(MPI_Comm_free(&comms[c]));
    return mt_finish();
}
