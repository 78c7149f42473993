/*
 * part_order: partitioned operations match in the order of their initialization, and
 * only each other.  Each rank sends to its partner (rank ^ 1, or itself) three
 * partitioned sends of one tag, started and readied in the order 2, 1, 0, while the
 * partner's three receives are started 0, 1, 2 (then 1, 2, 0): every receive gets the
 * send initialized in the same place, at an eager and a rendezvous size, restarted.  Two
 * tags initialized in opposite orders on the two sides match by tag.  A plain receive of
 * MPI_ANY_SOURCE and MPI_ANY_TAG posted first, and MPI_Iprobe, never see a partitioned
 * message: the plain receive gets the plain send that follows.
 */
#include "tests/mpi/mpitest.h"

#include <string.h>

#define NOPS 3
#define PARTS 4
#define TAG 11

static void ordered(int peer, int plen, int round)
{
    size_t total = (size_t)PARTS * (size_t)plen;
    unsigned char *s[NOPS], *r[NOPS];
    MPI_Request sreq[NOPS], rreq[NOPS];
    for (int i = 0; i < NOPS; i++) {
        s[i] = mt_malloc(total);
        r[i] = mt_malloc(total);
        MPI_OK(MPI_Psend_init(s[i], PARTS, plen, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_INFO_NULL,
                              &sreq[i]));
    }
    for (int i = 0; i < NOPS; i++) {
        MPI_OK(MPI_Precv_init(r[i], PARTS, plen, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_INFO_NULL,
                              &rreq[i]));
    }
    /* a plain receive that would take any message of this pair */
    int plain = -1, plain_sent = round * 100 + mt_rank;
    MPI_Request preq;
    MPI_OK(MPI_Irecv(&plain, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &preq));
    mt_barrier(mt_sync_comm); /* not on WORLD: the plain receive is waiting there */
    for (int rep = 0; rep < 2; rep++) {
        for (int i = 0; i < NOPS; i++) {
            mt_fill(s[i], total, mt_rank, round * 1000 + rep * 10 + i);
            memset(r[i], 0, total);
        }
        for (int k = 0; k < NOPS; k++) {
            int i = NOPS - 1 - k; /* the sends in reverse order */
            MPI_OK(MPI_Start(&sreq[i]));
            MPI_OK(MPI_Pready_range(0, PARTS - 1, sreq[i]));
        }
        int flag = 0;
        for (int k = 0; k < 100 && !flag; k++) {
            MPI_OK(
                MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE));
        }
        CHECK(!flag, "MPI_Iprobe saw a partitioned message (%d B partitions)", plen);
        MPI_OK(MPI_Test(&preq, &flag, MPI_STATUS_IGNORE));
        CHECK(!flag, "a plain MPI_Irecv matched a partitioned message (%d B partitions)", plen);
        for (int k = 0; k < NOPS; k++) {
            int i = (k + rep) % NOPS; /* 0 1 2, then 1 2 0 */
            MPI_OK(MPI_Start(&rreq[i]));
        }
        MPI_OK(MPI_Waitall(NOPS, rreq, MPI_STATUSES_IGNORE));
        MPI_OK(MPI_Waitall(NOPS, sreq, MPI_STATUSES_IGNORE));
        for (int i = 0; i < NOPS; i++) {
            long bad = mt_verify(r[i], total, peer, round * 1000 + rep * 10 + i);
            CHECK(bad < 0,
                  "receive %d (%d B partitions, starts %d) differs from send %d at byte %ld", i,
                  plen, rep, i, bad);
        }
        mt_barrier(mt_sync_comm);
    }
    MPI_OK(MPI_Send(&plain_sent, 1, MPI_INT, peer, 3, MPI_COMM_WORLD));
    MPI_Status st;
    MPI_OK(MPI_Wait(&preq, &st));
    CHECK(plain == round * 100 + peer && st.MPI_TAG == 3 && st.MPI_SOURCE == peer,
          "the plain receive got %d tag %d from %d, not the plain send %d", plain, st.MPI_TAG,
          st.MPI_SOURCE, round * 100 + peer);
    for (int i = 0; i < NOPS; i++) {
        MPI_OK(MPI_Request_free(&sreq[i]));
        MPI_OK(MPI_Request_free(&rreq[i]));
        free(s[i]);
        free(r[i]);
    }
}

/* tags 5 and 6 initialized in opposite orders by sender and receiver */
static void by_tag(int peer)
{
    int s5 = 500 + mt_rank, s6 = 600 + mt_rank, r5 = -1, r6 = -1;
    MPI_Request req[4];
    MPI_OK(MPI_Psend_init(&s5, 1, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]));
    MPI_OK(MPI_Psend_init(&s6, 1, 1, MPI_INT, peer, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]));
    MPI_OK(MPI_Precv_init(&r6, 1, 1, MPI_INT, peer, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &req[2]));
    MPI_OK(MPI_Precv_init(&r5, 1, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &req[3]));
    MPI_OK(MPI_Startall(4, req));
    MPI_OK(MPI_Pready(0, req[1]));
    MPI_OK(MPI_Pready(0, req[0]));
    MPI_OK(MPI_Waitall(4, req, MPI_STATUSES_IGNORE));
    CHECK(r5 == 500 + peer && r6 == 600 + peer, "tag 5 got %d, tag 6 got %d", r5, r6);
    for (int i = 0; i < 4; i++) {
        MPI_OK(MPI_Request_free(&req[i]));
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "part_order");
    int peer = (mt_rank ^ 1) < mt_size ? mt_rank ^ 1 : mt_rank;
    ordered(peer, 16, 0);
    ordered(peer, 256 * 1024, 1);
    by_tag(peer);
    return mt_finish();
}
