/*
 * bigmsg: large messages between pairs of ranks and to oneself, around the size where the
 * rendezvous starts to split the copy between receiver and sender: receive posted first
 * and message already waiting, buffers at odd addresses, truncation (only what fits is
 * written), Ssend, both directions at once, many messages in flight on one tag (they must
 * match in order).  Guard bytes on both sides of every receive buffer must stay untouched.
 */
#include "tests/mpi/mpitest.h"

#define GUARD 4096
#define GUARD_BYTE 0x5A
#define TAG_DATA 10
#define TAG_GO 11
#define INFLIGHT 6

static const long sizes[] = {(256 << 10) - 1, 256 << 10, (256 << 10) + 1, (1 << 20) + 13,
                             (5 << 20) + 4097};
static const long offsets[] = {0, 1, 4095 + 64};

static MPI_Comm comm; /* WORLD's copy, errors returned */
static unsigned char *sraw, *rraw;
static long msg_id;

/* fill the receive area (with guards around `room` bytes at `off`), return the buffer */
static unsigned char *recv_area(long off, long room)
{
    memset(rraw, GUARD_BYTE, (size_t)(off + room + 2 * GUARD));
    return rraw + GUARD + off;
}

static void check_area(const unsigned char *rbuf, long room, long got, int src, long msg,
                       const MPI_Status *st, const char *what)
{
    int count = -1;
    long bad = mt_verify(rbuf, (size_t)got, src, msg);

    CHECK(bad < 0, "%s: %ld bytes from %d: byte %ld wrong", what, got, src, bad);
    for (long g = 1; g <= GUARD; g++)
        if (rbuf[-g] != GUARD_BYTE) {
            CHECK(0, "%s: wrote before the buffer at -%ld", what, g);
            break;
        }
    for (long g = got; g < room + GUARD; g++)
        if (rbuf[g] != GUARD_BYTE) {
            CHECK(0, "%s: wrote past %ld received bytes at +%ld", what, got, g - got);
            break;
        }
    MPI_OK(MPI_Get_count(st, MPI_BYTE, &count));
    CHECK(count == got, "%s: Get_count %d, expected %ld", what, count, got);
    CHECK(st->MPI_SOURCE == src, "%s: MPI_SOURCE %d, expected %d", what, st->MPI_SOURCE, src);
}

/* one message from `src` to `dst` (which may be the same rank) */
static void one(int src, int dst, long len, long off, long room, int unexpected, int sync)
{
    char what[128];
    long msg = msg_id++;
    unsigned char *sbuf = sraw + (off * 3) % 4096;
    MPI_Status st;
    MPI_Request sreq = MPI_REQUEST_NULL;
    int token = 0;

    snprintf(what, sizeof(what), "%ld B at +%ld into %ld, %s%s %d->%d", len, off, room,
             unexpected ? "unexpected" : "posted", sync ? ", Ssend" : "", src, dst);
    if (mt_rank == src) {
        mt_fill(sbuf, (size_t)len, src, msg);
        if (src == dst || unexpected) {
            if (sync)
                MPI_OK(MPI_Issend(sbuf, (int)len, MPI_BYTE, dst, TAG_DATA, comm, &sreq));
            else
                MPI_OK(MPI_Isend(sbuf, (int)len, MPI_BYTE, dst, TAG_DATA, comm, &sreq));
        }
        if (src != dst) {
            MPI_OK(MPI_Send(&token, 1, MPI_INT, dst, TAG_GO, comm));
            if (!unexpected)
                MPI_OK(MPI_Recv(&token, 1, MPI_INT, dst, TAG_GO, comm, MPI_STATUS_IGNORE));
            if (sreq == MPI_REQUEST_NULL) {
                if (sync)
                    MPI_OK(MPI_Ssend(sbuf, (int)len, MPI_BYTE, dst, TAG_DATA, comm));
                else
                    MPI_OK(MPI_Send(sbuf, (int)len, MPI_BYTE, dst, TAG_DATA, comm));
            }
        }
    }
    if (mt_rank == dst) {
        unsigned char *rbuf = recv_area(off, room);
        long got = len < room ? len : room;
        int want = len > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
        MPI_Request rreq;
        if (src != dst)
            MPI_OK(MPI_Recv(&token, 1, MPI_INT, src, TAG_GO, comm, MPI_STATUS_IGNORE));
        if (unexpected && src != dst)
            MPI_OK(MPI_Probe(src, TAG_DATA, comm, &st)); /* the message is here first */
        MPI_OK(MPI_Irecv(rbuf, (int)room, MPI_BYTE, src, TAG_DATA, comm, &rreq));
        if (!unexpected && src != dst)
            MPI_OK(MPI_Send(&token, 1, MPI_INT, src, TAG_GO, comm));
        int rc = MPI_Wait(&rreq, &st);
        int cls = MPI_SUCCESS;
        if (rc != MPI_SUCCESS)
            MPI_Error_class(rc, &cls);
        CHECK(cls == want, "%s: Wait gave class %d, expected %d", what, cls, want);
        check_area(rbuf, room, got, src, msg, &st, what);
    }
    if (mt_rank == src && sreq != MPI_REQUEST_NULL)
        MPI_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
}

/* both ranks of a pair send to each other at once */
static void both_ways(int peer, long len)
{
    long msg = msg_id;
    MPI_Request r[2];
    MPI_Status st[2];
    unsigned char *rbuf = recv_area(7, len);

    msg_id += 2;
    mt_fill(sraw, (size_t)len, mt_rank, msg + (mt_rank > peer));
    MPI_OK(MPI_Irecv(rbuf, (int)len, MPI_BYTE, peer, TAG_DATA, comm, &r[0]));
    MPI_OK(MPI_Isend(sraw, (int)len, MPI_BYTE, peer, TAG_DATA, comm, &r[1]));
    MPI_OK(MPI_Waitall(2, r, st));
    check_area(rbuf, len, len, peer, msg + (peer > mt_rank), &st[0], "both ways");
}

/* INFLIGHT messages of growing size on one tag: the receives match them in order */
static void in_flight(int src, int dst)
{
    long base = (512 << 10) + 9;
    long msg = msg_id;
    MPI_Request r[INFLIGHT];
    MPI_Status st[INFLIGHT];

    msg_id += INFLIGHT;
    if (mt_rank == src) {
        for (int i = 0; i < INFLIGHT; i++) {
            unsigned char *s = sraw + (size_t)i * (size_t)base * 2;
            mt_fill(s, (size_t)(base + i * 4096), src, msg + i);
            MPI_OK(MPI_Isend(s, (int)(base + i * 4096), MPI_BYTE, dst, TAG_DATA, comm, &r[i]));
        }
    } else {
        for (int i = 0; i < INFLIGHT; i++) {
            unsigned char *b = rraw + (size_t)i * (size_t)base * 2;
            MPI_OK(MPI_Irecv(b, (int)(base * 2), MPI_BYTE, src, TAG_DATA, comm, &r[i]));
        }
    }
    MPI_OK(MPI_Waitall(INFLIGHT, r, st));
    if (mt_rank == dst) {
        for (int i = 0; i < INFLIGHT; i++) {
            int count = -1;
            MPI_OK(MPI_Get_count(&st[i], MPI_BYTE, &count));
            CHECK(count == base + i * 4096, "in flight %d: %d bytes, expected %ld", i, count,
                  base + i * 4096);
            CHECK(mt_verify(rraw + (size_t)i * (size_t)base * 2, (size_t)count, src, msg + i) < 0,
                  "in flight %d: wrong content", i);
        }
    }
}

int main(int argc, char **argv)
{
    long maxlen = (5 << 20) + 4097;
    size_t area = (size_t)maxlen + 8192 + 2 * GUARD;

    mt_init(&argc, &argv, "bigmsg");
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_OK(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    if (area < (size_t)INFLIGHT * ((512 << 10) + 9) * 2)
        area = (size_t)INFLIGHT * ((512 << 10) + 9) * 2;
    sraw = mt_malloc(area);
    rraw = mt_malloc(area);
    /* pairs (0,1), (2,3)...; an odd last rank only talks to itself */
    int peer = (mt_rank ^ 1) < mt_size ? mt_rank ^ 1 : mt_rank;

    for (int dir = 0; dir < 2; dir++) {
        int src = dir == 0 ? (mt_rank & ~1) : (mt_rank | 1);
        int dst = src == mt_rank ? peer : mt_rank;
        if (peer == mt_rank)
            src = dst = mt_rank;
        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
            for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++) {
                long len = sizes[i], off = offsets[o];
                one(src, dst, len, off, len, 0, 0);
                one(src, dst, len, off, len + 100, 1, 0);
                one(src, dst, len, off, len / 2 + 5, (int)(o & 1), 0);
                one(src, dst, len, off, len, (int)(i & 1), 1);
            }
        }
        if (src != dst)
            in_flight(src, dst);
    }
    both_ways(peer, (3 << 20) + 5);
    one(mt_rank, mt_rank, (1 << 20) + 3, 1, (1 << 20) + 3, 0, 0);
    one(mt_rank, mt_rank, (1 << 20) + 3, 0, (300 << 10) + 1, 0, 0);

    free(sraw);
    free(rraw);
    MPI_OK(MPI_Comm_free(&comm));
    return mt_finish();
}
