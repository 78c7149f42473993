/*
 * probe: Probe/Iprobe report the envelope and size of a pending message without taking
 * it, so a receive of exactly the probed size gets it; Mprobe/Improbe take the message
 * out of matching (a later wildcard receive must not see it) and Mrecv/Imrecv receive
 * exactly it.  Each pair (0,1), (2,3), ... works alone; an odd last rank probes its own
 * messages.  Sizes cover eager and rendezvous.
 */
#include "tests/mpi/mpitest.h"

static const int lens[] = {0, 5, 4096, 100000, 3 << 20};
#define NLENS ((int)(sizeof(lens) / sizeof(lens[0])))

static void check_status(const MPI_Status *st, int src, int tag, int len, const char *what)
{
    int count = -1;

    MPI_OK(MPI_Get_count(st, MPI_BYTE, &count));
    CHECK(st->MPI_SOURCE == src, "%s: MPI_SOURCE %d, expected %d", what, st->MPI_SOURCE, src);
    CHECK(st->MPI_TAG == tag, "%s: MPI_TAG %d, expected %d", what, st->MPI_TAG, tag);
    CHECK(count == len, "%s: count %d, expected %d", what, count, len);
}

static void check_data(const unsigned char *buf, int len, int src, long id, const char *what)
{
    long bad = mt_verify(buf, (size_t)len, src, id);

    CHECK(bad < 0, "%s: data corrupt at byte %ld", what, bad);
}

/* the receiving side of one pair */
static void receiver(int peer)
{
    unsigned char *buf;
    MPI_Status st;
    MPI_Message msg;
    MPI_Request req;
    int flag, count, tag;

    for (int i = 0; i < NLENS; i++) {
        char what[64];

        /* Probe with wildcards, then receive exactly the probed size */
        snprintf(what, sizeof(what), "probe len %d", lens[i]);
        MPI_OK(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        check_status(&st, peer, 10 + i, lens[i], what);
        MPI_OK(MPI_Get_count(&st, MPI_BYTE, &count));
        tag = st.MPI_TAG;
        /* probing again sees the same message: Probe does not consume */
        MPI_OK(MPI_Probe(peer, tag, MPI_COMM_WORLD, &st));
        check_status(&st, peer, 10 + i, lens[i], what);
        buf = mt_malloc((size_t)count);
        MPI_OK(MPI_Recv(buf, count, MPI_BYTE, st.MPI_SOURCE, tag, MPI_COMM_WORLD, &st));
        check_status(&st, peer, 10 + i, lens[i], what);
        check_data(buf, count, peer, 10 + i, what);
        free(buf);

        /* Iprobe loop */
        snprintf(what, sizeof(what), "iprobe len %d", lens[i]);
        do
            MPI_OK(MPI_Iprobe(peer, 20 + i, MPI_COMM_WORLD, &flag, &st));
        while (!flag);
        check_status(&st, peer, 20 + i, lens[i], what);
        buf = mt_malloc((size_t)lens[i]);
        MPI_OK(MPI_Recv(buf, lens[i], MPI_BYTE, peer, 20 + i, MPI_COMM_WORLD, &st));
        check_data(buf, lens[i], peer, 20 + i, what);
        free(buf);

        /*
         * Mprobe takes message 30+i out of matching: a wildcard receive posted afterwards
         * must get the next message (40+i), then Mrecv gets the probed one.
         */
        snprintf(what, sizeof(what), "mprobe len %d", lens[i]);
        MPI_OK(MPI_Mprobe(peer, 30 + i, MPI_COMM_WORLD, &msg, &st));
        CHECK(msg != MPI_MESSAGE_NULL, "%s: Mprobe gave MPI_MESSAGE_NULL", what);
        check_status(&st, peer, 30 + i, lens[i], what);
        buf = mt_malloc((size_t)lens[i] + 1);
        MPI_OK(MPI_Recv(buf, lens[i] + 1, MPI_BYTE, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        check_status(&st, peer, 40 + i, 1, "receive after mprobe");
        CHECK(buf[0] == (unsigned char)(0x40 + i), "receive after mprobe: wrong byte %d",
              buf[0]);
        MPI_OK(MPI_Mrecv(buf, lens[i], MPI_BYTE, &msg, &st));
        CHECK(msg == MPI_MESSAGE_NULL, "%s: Mrecv did not reset the message handle", what);
        check_status(&st, peer, 30 + i, lens[i], what);
        check_data(buf, lens[i], peer, 30 + i, what);

        /* Improbe loop + Imrecv */
        snprintf(what, sizeof(what), "improbe len %d", lens[i]);
        do
            MPI_OK(MPI_Improbe(MPI_ANY_SOURCE, 50 + i, MPI_COMM_WORLD, &flag, &msg, &st));
        while (!flag);
        check_status(&st, peer, 50 + i, lens[i], what);
        memset(buf, 0, (size_t)lens[i]);
        MPI_OK(MPI_Imrecv(buf, lens[i], MPI_BYTE, &msg, &req));
        CHECK(msg == MPI_MESSAGE_NULL, "%s: Imrecv did not reset the message handle", what);
        MPI_OK(MPI_Wait(&req, &st));
        check_status(&st, peer, 50 + i, lens[i], what);
        check_data(buf, lens[i], peer, 50 + i, what);
        free(buf);
    }

    /* Get_count with a type that does not divide the size: MPI_UNDEFINED */
    MPI_OK(MPI_Probe(peer, 99, MPI_COMM_WORLD, &st));
    MPI_OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == MPI_UNDEFINED, "Get_count(MPI_INT) of 6 bytes is %d, not MPI_UNDEFINED",
          count);
    MPI_OK(MPI_Get_count(&st, MPI_SHORT, &count));
    CHECK(count == 3, "Get_count(MPI_SHORT) of 6 bytes is %d, not 3", count);
    {
        short s[3];

        MPI_OK(MPI_Recv(s, 3, MPI_SHORT, peer, 99, MPI_COMM_WORLD, &st));
        CHECK(s[0] == 1 && s[1] == 2 && s[2] == 3, "shorts %d %d %d", s[0], s[1], s[2]);
    }

    /* Iprobe for a message nobody sent: flag must be false */
    MPI_OK(MPI_Iprobe(peer, 12345, MPI_COMM_WORLD, &flag, &st));
    CHECK(!flag, "Iprobe found a message that was never sent");
    MPI_OK(MPI_Improbe(peer, 12345, MPI_COMM_WORLD, &flag, &msg, &st));
    CHECK(!flag, "Improbe found a message that was never sent");

    /* a probe of MPI_PROC_NULL returns at once with MPI_MESSAGE_NO_PROC */
    MPI_OK(MPI_Mprobe(MPI_PROC_NULL, 1, MPI_COMM_WORLD, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NO_PROC, "Mprobe(MPI_PROC_NULL) did not give MESSAGE_NO_PROC");
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG,
          "Mprobe(MPI_PROC_NULL) status source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    MPI_OK(MPI_Mrecv(NULL, 0, MPI_BYTE, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NULL, "Mrecv(MESSAGE_NO_PROC) did not reset the handle");
}

static void sender(int peer, MPI_Request *reqs, unsigned char **bufs, int *n)
{
    static const short s[3] = {1, 2, 3};

    for (int i = 0; i < NLENS; i++) {
        for (int t = 10; t <= 50; t += 10) {
            int len = t == 40 ? 1 : lens[i];

            bufs[*n] = mt_malloc((size_t)len);
            if (t == 40)
                bufs[*n][0] = (unsigned char)(0x40 + i);
            else
                mt_fill(bufs[*n], (size_t)len, mt_rank, t + i);
            MPI_OK(MPI_Isend(bufs[*n], len, MPI_BYTE, peer, t + i, MPI_COMM_WORLD, &reqs[*n]));
            (*n)++;
        }
    }
    MPI_OK(MPI_Isend(s, 3, MPI_SHORT, peer, 99, MPI_COMM_WORLD, &reqs[(*n)++]));
}

int main(int argc, char **argv)
{
    MPI_Request reqs[5 * NLENS + 1];
    unsigned char *bufs[5 * NLENS + 1] = {0};
    int n = 0, peer;

    mt_init(&argc, &argv, "probe");
    /* pairs (0,1), (2,3)...; an odd last rank talks to itself */
    peer = (mt_rank % 2 == 0) ? mt_rank + 1 : mt_rank - 1;
    if (peer >= mt_size)
        peer = mt_rank;
    if (mt_rank % 2 == 0 || peer == mt_rank)
        sender(peer, reqs, bufs, &n);
    if (mt_rank % 2 == 1 || peer == mt_rank)
        receiver(peer);
    MPI_OK(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
    for (int i = 0; i < n; i++)
        free(bufs[i]);
    return mt_finish();
}
