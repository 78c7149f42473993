/*
 * anysrc: a storm of messages from every rank to every rank (itself included), many tags,
 * mostly small with a few large (rendezvous) ones, received with wildcards:
 *   phase 1: MPI_ANY_SOURCE + MPI_ANY_TAG, blocking receives;
 *   phase 2: MPI_ANY_SOURCE + a given tag, all receives preposted, then Waitall;
 *   phase 3: a given source + MPI_ANY_TAG, sources taken in reverse order.
 * Every message carries (source, sequence number) and a payload derived from both; each
 * must arrive exactly once, match its status, and arrive in send order per sender.
 */
#include "tests/mpi/mpitest.h"

#define NMSG 40
#define NTAGS 13
#define MAXLEN 70200

static int msg_tag(int src, int seq) { return (seq * 7 + src) % NTAGS + 1; }

static int msg_len(int src, int seq)
{
    if (seq % 16 == 7)
        return 70000 + src * 8; /* above any sane eager limit */
    return 8 + (seq * 37 + src * 11) % 200;
}

/* identifies a message for the payload pattern (the source is mixed in separately) */
static long msg_id(int dst, int seq, int phase) { return ((long)phase * 1000 + seq) * 1000 + dst; }

/* header: two ints (source, sequence), then the pattern */
static void build(unsigned char *buf, int src, int dst, int seq, int phase)
{
    int hdr[2] = {src, seq};
    int len = msg_len(src, seq);

    mt_fill(buf, (size_t)len, src, msg_id(dst, seq, phase));
    memcpy(buf, hdr, sizeof(hdr));
}

/* checks one received message; returns its sequence number or -1 */
static int check_msg(const unsigned char *buf, const MPI_Status *st, int me, int phase)
{
    int hdr[2], count = -1;
    long bad;

    MPI_OK(MPI_Get_count(st, MPI_BYTE, &count));
    if (count < (int)sizeof(hdr)) {
        CHECK(0, "phase %d: message of %d bytes is too short", phase, count);
        return -1;
    }
    memcpy(hdr, buf, sizeof(hdr));
    if (hdr[0] < 0 || hdr[0] >= mt_size || hdr[1] < 0 || hdr[1] >= NMSG) {
        CHECK(0, "phase %d: garbage header (%d, %d)", phase, hdr[0], hdr[1]);
        return -1;
    }
    CHECK(st->MPI_SOURCE == hdr[0], "phase %d: MPI_SOURCE %d but header says %d", phase,
          st->MPI_SOURCE, hdr[0]);
    CHECK(st->MPI_TAG == msg_tag(hdr[0], hdr[1]), "phase %d: MPI_TAG %d, expected %d", phase,
          st->MPI_TAG, msg_tag(hdr[0], hdr[1]));
    CHECK(count == msg_len(hdr[0], hdr[1]), "phase %d: count %d, expected %d", phase, count,
          msg_len(hdr[0], hdr[1]));
    /* the header overwrote the first bytes of the pattern: compare the rest */
    bad = -1;
    for (int i = (int)sizeof(hdr); i < count; i++)
        if (buf[i] != mt_pattern(hdr[0], msg_id(me, hdr[1], phase), (size_t)i)) {
            bad = i;
            break;
        }
    CHECK(bad < 0, "phase %d: message (%d, %d) corrupt at byte %ld", phase, hdr[0], hdr[1],
          bad);
    return hdr[1];
}

static void send_all(MPI_Comm comm, int phase, unsigned char **bufs, MPI_Request *reqs)
{
    int n = 0;

    for (int seq = 0; seq < NMSG; seq++)
        for (int d = 0; d < mt_size; d++) {
            int dst = (mt_rank + d) % mt_size;

            build(bufs[n], mt_rank, dst, seq, phase);
            MPI_OK(MPI_Isend(bufs[n], msg_len(mt_rank, seq), MPI_BYTE, dst,
                             msg_tag(mt_rank, seq), comm, &reqs[n]));
            n++;
        }
}

int main(int argc, char **argv)
{
    MPI_Comm comm;
    int nsend, *next;
    unsigned char **sbufs, *rbufs;
    MPI_Request *sreqs, *rreqs;
    MPI_Status *sts;

    mt_init(&argc, &argv, "anysrc");
    /* the storm runs on its own communicator so wildcards never see mt_barrier's tokens */
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    nsend = NMSG * mt_size;
    sbufs = mt_malloc(sizeof(*sbufs) * (size_t)nsend);
    for (int i = 0; i < nsend; i++)
        sbufs[i] = mt_malloc((size_t)msg_len(mt_rank, i / mt_size));
    rbufs = mt_malloc((size_t)nsend * MAXLEN);
    sreqs = mt_malloc(sizeof(*sreqs) * (size_t)nsend);
    rreqs = mt_malloc(sizeof(*rreqs) * (size_t)nsend);
    sts = mt_malloc(sizeof(*sts) * (size_t)nsend);
    next = mt_malloc(sizeof(*next) * (size_t)mt_size);

    /* phase 1: full wildcards */
    send_all(comm, 1, sbufs, sreqs);
    memset(next, 0, sizeof(*next) * (size_t)mt_size);
    for (int i = 0; i < nsend; i++) {
        MPI_Status st;
        int seq;

        MPI_OK(MPI_Recv(rbufs, MAXLEN, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st));
        seq = check_msg(rbufs, &st, mt_rank, 1);
        if (seq < 0)
            continue;
        CHECK(seq == next[st.MPI_SOURCE], "phase 1: from %d got seq %d, expected %d",
              st.MPI_SOURCE, seq, next[st.MPI_SOURCE]);
        next[st.MPI_SOURCE] = seq + 1;
    }
    MPI_OK(MPI_Waitall(nsend, sreqs, MPI_STATUSES_IGNORE));
    for (int s = 0; s < mt_size; s++)
        CHECK(next[s] == NMSG, "phase 1: from %d got %d messages, expected %d", s, next[s], NMSG);
    mt_barrier(MPI_COMM_WORLD);

    /* phase 2: ANY_SOURCE with given tags, everything preposted in tag order */
    {
        int n = 0;

        for (int t = 1; t <= NTAGS; t++)
            for (int s = 0; s < mt_size; s++)
                for (int seq = 0; seq < NMSG; seq++)
                    if (msg_tag(s, seq) == t) {
                        MPI_OK(MPI_Irecv(rbufs + (size_t)n * MAXLEN, MAXLEN, MPI_BYTE,
                                         MPI_ANY_SOURCE, t, comm, &rreqs[n]));
                        n++;
                    }
        CHECK(n == nsend, "phase 2: preposted %d receives for %d messages", n, nsend);
        send_all(comm, 2, sbufs, sreqs);
        MPI_OK(MPI_Waitall(n, rreqs, sts));
        MPI_OK(MPI_Waitall(nsend, sreqs, MPI_STATUSES_IGNORE));
        /* receives with one tag were posted in order: per sender, sequences increase */
        for (int t = 1, i = 0; t <= NTAGS; t++) {
            for (int s = 0; s < mt_size; s++)
                next[s] = -1;
            for (; i < n; i++) {
                int seq, src = sts[i].MPI_SOURCE;

                if (sts[i].MPI_TAG != t)
                    break;
                seq = check_msg(rbufs + (size_t)i * MAXLEN, &sts[i], mt_rank, 2);
                if (seq < 0)
                    continue;
                CHECK(seq > next[src], "phase 2: tag %d from %d: seq %d after %d", t, src,
                      seq, next[src]);
                next[src] = seq;
            }
        }
    }
    mt_barrier(MPI_COMM_WORLD);

    /* phase 3: given source, ANY_TAG, sources in reverse order */
    send_all(comm, 3, sbufs, sreqs);
    for (int s = mt_size - 1; s >= 0; s--)
        for (int k = 0; k < NMSG; k++) {
            MPI_Status st;
            int seq;

            MPI_OK(MPI_Recv(rbufs, MAXLEN, MPI_BYTE, s, MPI_ANY_TAG, comm, &st));
            seq = check_msg(rbufs, &st, mt_rank, 3);
            CHECK(seq == k, "phase 3: from %d got seq %d, expected %d", s, seq, k);
        }
    MPI_OK(MPI_Waitall(nsend, sreqs, MPI_STATUSES_IGNORE));

    /* nothing may be left over: a stray duplicate would show up here */
    {
        int flag = 1;
        MPI_Status st;

        mt_barrier(MPI_COMM_WORLD);
        MPI_OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &st));
        CHECK(!flag, "a message from %d tag %d is left over", st.MPI_SOURCE, st.MPI_TAG);
    }

    MPI_OK(MPI_Comm_free(&comm));
    for (int i = 0; i < nsend; i++)
        free(sbufs[i]);
    free(sbufs);
    free(rbufs);
    free(sreqs);
    free(rreqs);
    free(sts);
    free(next);
    return mt_finish();
}
