/*
 * storm: every rank but 0 fires thousands of small (eager) messages at rank 0 while rank 0
 * is busy elsewhere and has posted nothing, then rank 0 takes them all with
 * MPI_ANY_SOURCE.  The transport and the PML must hold or throttle what arrives before
 * its receive (receiver not ready); nothing may be lost, duplicated, reordered within one
 * sender, or corrupted.  A second round does the same with MPI_Isend (all in flight at
 * once) and receives posted per sender, in reverse sender order.
 *
 * Argument: messages per sender (default 5000).
 */
#include "tests/mpi/mpitest.h"

#include <time.h>

#define MAXLEN 1024
#define TAG 7

static int msg_len(int src, int seq)
{
    return 8 + (seq * 131 + src * 17) % (MAXLEN - 8);
}

static void build(unsigned char *buf, int src, int seq, int round)
{
    int hdr[2] = {src, seq};

    mt_fill(buf, (size_t)msg_len(src, seq), src, (long)round * 1000000 + seq);
    memcpy(buf, hdr, sizeof(hdr));
}

/* checks one message of `round` from `src` that must be number `seq` */
static void check(const unsigned char *buf, const MPI_Status *st, int src, int seq, int round)
{
    int hdr[2], count = -1;

    MPI_OK(MPI_Get_count(st, MPI_BYTE, &count));
    memcpy(hdr, buf, sizeof(hdr));
    CHECK(st->MPI_SOURCE == src && hdr[0] == src && hdr[1] == seq,
          "round %d: from rank %d expected message %d, got (source %d, header %d/%d)", round, src,
          seq, st->MPI_SOURCE, hdr[0], hdr[1]);
    CHECK(count == msg_len(src, seq), "round %d: message %d of rank %d has %d bytes, not %d", round,
          seq, src, count, msg_len(src, seq));
    if (count != msg_len(src, seq))
        return;
    /* the header replaced the first bytes of the pattern: compare what follows it */
    unsigned char want[MAXLEN];
    mt_fill(want, (size_t)count, src, (long)round * 1000000 + seq);
    CHECK(memcmp(want + sizeof(hdr), buf + sizeof(hdr), (size_t)count - sizeof(hdr)) == 0,
          "round %d: message %d of rank %d: payload corrupted", round, seq, src);
}

static void busy_ms(int ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "storm");
    int n = argc > 1 ? atoi(argv[1]) : 5000;
    unsigned char *buf = mt_malloc(MAXLEN);

    /* round 0: blocking sends against a receiver that is not there yet */
    if (mt_rank == 0) {
        int *next = calloc((size_t)mt_size, sizeof(int));
        busy_ms(500);
        for (long k = 0; k < (long)n * (mt_size - 1); k++) {
            MPI_Status st;
            MPI_OK(MPI_Recv(buf, MAXLEN, MPI_BYTE, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &st));
            int src = st.MPI_SOURCE;
            if (src <= 0 || src >= mt_size) {
                CHECK(0, "round 0: message from rank %d", src);
                continue;
            }
            check(buf, &st, src, next[src]++, 0);
        }
        free(next);
    } else {
        for (int i = 0; i < n; i++) {
            build(buf, mt_rank, i, 0);
            MPI_OK(MPI_Send(buf, msg_len(mt_rank, i), MPI_BYTE, 0, TAG, MPI_COMM_WORLD));
        }
    }
    mt_barrier(mt_sync_comm);

    /* round 1: everything in flight at once, received per sender from the last one */
    if (mt_rank == 0) {
        busy_ms(300);
        for (int src = mt_size - 1; src > 0; src--) {
            for (int i = 0; i < n; i++) {
                MPI_Status st;
                MPI_OK(MPI_Recv(buf, MAXLEN, MPI_BYTE, src, TAG, MPI_COMM_WORLD, &st));
                check(buf, &st, src, i, 1);
            }
        }
    } else {
        unsigned char *all = mt_malloc((size_t)n * MAXLEN);
        MPI_Request *reqs = mt_malloc(sizeof(MPI_Request) * (size_t)n);
        for (int i = 0; i < n; i++) {
            build(all + (size_t)i * MAXLEN, mt_rank, i, 1);
            MPI_OK(MPI_Isend(all + (size_t)i * MAXLEN, msg_len(mt_rank, i), MPI_BYTE, 0, TAG,
                             MPI_COMM_WORLD, &reqs[i]));
        }
        MPI_OK(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
        free(reqs);
        free(all);
    }
    free(buf);
    return mt_finish();
}
