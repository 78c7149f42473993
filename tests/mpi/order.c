/*
 * order: MPI's non-overtaking rule with mixed protocols.  Rank 0 sends a sequence of
 * small (eager) and large (rendezvous) messages, interleaved, on one tag, to each other
 * rank; since the messages match the same receive, they must be received in send order
 * even though a large message takes longer to arrive than the small ones after it.  The
 * receivers use blocking receives, then preposted nonblocking ones, then ANY_SOURCE.
 * At np 1 rank 0 sends to itself with nonblocking sends.
 */
#include "tests/mpi/mpitest.h"

#define NMSG 24
#define BIG (1 << 20)

static int msg_len(int seq)
{
    static const int lens[] = {4, BIG, 16, 0, 300000, 8, 4096, 4097, BIG + 1, 1, 65536, 12};
    return lens[seq % (int)(sizeof(lens) / sizeof(lens[0]))];
}

static void check(const unsigned char *buf, const MPI_Status *st, int seq, int round)
{
    int count = -1;
    long bad;

    MPI_OK(MPI_Get_count(st, MPI_BYTE, &count));
    /* a wrong length means a message overtook another: say which one it looks like */
    CHECK(count == msg_len(seq), "round %d msg %d: got %d bytes, expected %d (overtaken?)",
          round, seq, count, msg_len(seq));
    if (count != msg_len(seq))
        return;
    bad = mt_verify(buf, (size_t)count, 0, (long)round * 100 + seq);
    CHECK(bad < 0, "round %d msg %d: corrupt at byte %ld", round, seq, bad);
}

int main(int argc, char **argv)
{
    unsigned char **sbufs, **rbufs;
    MPI_Request *reqs, *rreqs;
    MPI_Status *sts;
    const int tag = 7;

    mt_init(&argc, &argv, "order");
    sbufs = mt_malloc(sizeof(*sbufs) * NMSG);
    rbufs = mt_malloc(sizeof(*rbufs) * NMSG);
    reqs = mt_malloc(sizeof(*reqs) * NMSG * (size_t)mt_size);
    rreqs = mt_malloc(sizeof(*rreqs) * NMSG);
    sts = mt_malloc(sizeof(*sts) * NMSG);
    for (int i = 0; i < NMSG; i++) {
        sbufs[i] = mt_malloc(BIG + 1);
        rbufs[i] = mt_malloc(BIG + 1);
    }

    for (int round = 0; round < 3; round++) {
        int nreq = 0;

        if (mt_rank == 0) {
            for (int seq = 0; seq < NMSG; seq++)
                mt_fill(sbufs[seq], (size_t)msg_len(seq), 0, (long)round * 100 + seq);
            /* round 0: blocking sends; the others nonblocking, all in flight at once */
            for (int dst = 1; dst < mt_size; dst++)
                for (int seq = 0; seq < NMSG; seq++) {
                    if (round == 0)
                        MPI_OK(MPI_Send(sbufs[seq], msg_len(seq), MPI_BYTE, dst, tag,
                                        MPI_COMM_WORLD));
                    else
                        MPI_OK(MPI_Isend(sbufs[seq], msg_len(seq), MPI_BYTE, dst, tag,
                                         MPI_COMM_WORLD, &reqs[nreq++]));
                }
            if (mt_size == 1)
                for (int seq = 0; seq < NMSG; seq++)
                    MPI_OK(MPI_Isend(sbufs[seq], msg_len(seq), MPI_BYTE, 0, tag,
                                     MPI_COMM_WORLD, &reqs[nreq++]));
        }
        if (mt_rank != 0 || mt_size == 1) {
            if (round == 1) {
                /* preposted: the i-th receive gets the i-th message */
                for (int seq = 0; seq < NMSG; seq++)
                    MPI_OK(MPI_Irecv(rbufs[seq], BIG + 1, MPI_BYTE, 0, tag, MPI_COMM_WORLD,
                                     &rreqs[seq]));
                MPI_OK(MPI_Waitall(NMSG, rreqs, sts));
                for (int seq = 0; seq < NMSG; seq++)
                    check(rbufs[seq], &sts[seq], seq, round);
            } else {
                for (int seq = 0; seq < NMSG; seq++) {
                    MPI_Status st;
                    int src = round == 2 ? MPI_ANY_SOURCE : 0;

                    MPI_OK(MPI_Recv(rbufs[0], BIG + 1, MPI_BYTE, src, tag, MPI_COMM_WORLD,
                                    &st));
                    check(rbufs[0], &st, seq, round);
                }
            }
        }
        MPI_OK(MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE));
        mt_barrier(MPI_COMM_WORLD);
    }

    for (int i = 0; i < NMSG; i++) {
        free(sbufs[i]);
        free(rbufs[i]);
    }
    free(sbufs);
    free(rbufs);
    free(reqs);
    free(rreqs);
    free(sts);
    return mt_finish();
}
