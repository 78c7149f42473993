/*
 * ring: every rank sends to its right neighbour and receives from its left one, for
 * message sizes on both sides of the eager/rendezvous boundaries (0 B to 16 MiB), with
 * nonblocking receives posted first, then with nonblocking sends posted first.  The
 * payload depends on sender, size, phase and offset; guard bytes after the received data
 * must stay untouched.
 */
#include "tests/mpi/mpitest.h"

#define GUARD 64
#define GUARD_BYTE 0xA5

static const long sizes[] = {0,     1,     8,     255,   4095,   4096,    4097,
                             8192,  16385, 65535, 65536, 65537,  262144,  1 << 20,
                             (1 << 20) + 3, 4 << 20, 16 << 20};

static void check_recv(const unsigned char *rbuf, long len, int left, long msg,
                       const MPI_Status *st, int tag, const char *phase)
{
    int count = -1;
    long bad = mt_verify(rbuf, (size_t)len, left, msg);

    CHECK(bad < 0, "%s size %ld: byte %ld is 0x%02x, expected 0x%02x", phase, len, bad,
          bad < 0 ? 0 : rbuf[bad], bad < 0 ? 0 : mt_pattern(left, msg, (size_t)bad));
    for (int g = 0; g < GUARD; g++)
        if (rbuf[len + g] != GUARD_BYTE) {
            CHECK(0, "%s size %ld: wrote past the message at +%d", phase, len, g);
            break;
        }
    MPI_OK(MPI_Get_count(st, MPI_BYTE, &count));
    CHECK(count == len, "%s size %ld: Get_count says %d", phase, len, count);
    CHECK(st->MPI_SOURCE == left, "%s size %ld: MPI_SOURCE %d, expected %d", phase, len,
          st->MPI_SOURCE, left);
    CHECK(st->MPI_TAG == tag, "%s size %ld: MPI_TAG %d, expected %d", phase, len,
          st->MPI_TAG, tag);
}

int main(int argc, char **argv)
{
    int nsizes = (int)(sizeof(sizes) / sizeof(sizes[0]));
    long maxlen = sizes[nsizes - 1];
    unsigned char *sbuf, *rbuf;
    int left, right;

    mt_init(&argc, &argv, "ring");
    left = (mt_rank + mt_size - 1) % mt_size;
    right = (mt_rank + 1) % mt_size;
    sbuf = mt_malloc((size_t)maxlen);
    rbuf = mt_malloc((size_t)maxlen + GUARD);

    for (int i = 0; i < nsizes; i++) {
        long len = sizes[i];
        int tag = 100 + i;
        MPI_Request req;
        MPI_Status st;

        /* phase 1: receive posted before the matching send (expected-queue path) */
        memset(rbuf, GUARD_BYTE, (size_t)len + GUARD);
        mt_fill(sbuf, (size_t)len, mt_rank, 2 * i);
        MPI_OK(MPI_Irecv(rbuf, (int)len + GUARD, MPI_BYTE, left, tag, MPI_COMM_WORLD, &req));
        MPI_OK(MPI_Send(sbuf, (int)len, MPI_BYTE, right, tag, MPI_COMM_WORLD));
        MPI_OK(MPI_Wait(&req, &st));
        CHECK(req == MPI_REQUEST_NULL, "Wait did not reset the request");
        check_recv(rbuf, len, left, 2 * i, &st, tag, "irecv-first");

        /* phase 2: send posted first, receive later (unexpected-queue path) */
        memset(rbuf, GUARD_BYTE, (size_t)len + GUARD);
        mt_fill(sbuf, (size_t)len, mt_rank, 2 * i + 1);
        MPI_OK(MPI_Isend(sbuf, (int)len, MPI_BYTE, right, tag + 1000, MPI_COMM_WORLD, &req));
        MPI_OK(MPI_Recv(rbuf, (int)len + GUARD, MPI_BYTE, left, tag + 1000, MPI_COMM_WORLD,
                        &st));
        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        check_recv(rbuf, len, left, 2 * i + 1, &st, tag + 1000, "isend-first");
    }

    free(sbuf);
    free(rbuf);
    return mt_finish();
}
