/*
 * partitioned: MPI-4 partitioned communication.  A ring of partitioned sends and
 * receives, eager and rendezvous sizes, restarted several times, with partitions marked
 * ready one by one, by range, by list and in reverse order; the receive's partitions are
 * not there before the send's last one is ready and are all there after; a different
 * number of partitions on the two sides (same bytes); a strided datatype; to oneself;
 * MPI_PROC_NULL; the request stays allocated across starts and MPI_Request_free releases
 * it; error classes for bad partitions, twice-ready partitions, unstarted requests,
 * wildcards, the wrong kind of request, NULL pointers, buffers and lists, bad hints and
 * partitions x count beyond MPI_Count.
 */
#include "tests/mpi/mpitest.h"

#include <string.h>

static const int lens[] = {0, 8, 4096, 1 << 20}; /* bytes a partition */
#define NLENS ((int)(sizeof(lens) / sizeof(lens[0])))

/* one exchange: each rank sends `sparts` partitions of `slen` bytes to `dest` and
   receives `rparts` partitions of the same total from `src`; `how` says how the
   partitions are marked ready (0 one by one, 1 reverse, 2 ranges, 3 a list) */
static void exchange(int dest, int src, int sparts, int rparts, int slen, int how, int round)
{
    size_t total = (size_t)sparts * (size_t)slen;
    unsigned char *s = mt_malloc(total + 1), *r = mt_malloc(total + 1);
    MPI_Request sreq, rreq;
    int flag;
    MPI_OK(MPI_Psend_init(s, sparts, (MPI_Count)slen, MPI_BYTE, dest, 7, MPI_COMM_WORLD,
                          MPI_INFO_NULL, &sreq));
    MPI_OK(MPI_Precv_init(r, rparts, (MPI_Count)(total / (size_t)rparts), MPI_BYTE, src, 7,
                          MPI_COMM_WORLD, MPI_INFO_NULL, &rreq));
    for (int rep = 0; rep < 3; rep++) {
        mt_fill(s, total, mt_rank, round * 10 + rep);
        memset(r, 0, total + 1);
        MPI_OK(MPI_Start(&rreq));
        mt_barrier(MPI_COMM_WORLD);
        MPI_OK(MPI_Start(&sreq));
        int list[8];
        for (int i = 0; i < sparts; i++) {
            list[i] = sparts - 1 - i;
        }
        if (how == 0) {
            for (int i = 0; i < sparts; i++) {
                MPI_OK(MPI_Pready(i, sreq));
            }
        } else if (how == 1) {
            for (int i = sparts - 1; i >= 0; i--) {
                MPI_OK(MPI_Pready(i, sreq));
            }
        } else if (how == 2) {
            if (sparts > 1) {
                MPI_OK(MPI_Pready_range(0, sparts / 2 - 1, sreq));
            }
            MPI_OK(MPI_Pready_range(sparts > 1 ? sparts / 2 : 0, sparts - 1, sreq));
        } else {
            MPI_OK(MPI_Pready_list(sparts, list, sreq));
        }
        for (int i = 0; i < rparts; i++) {
            do {
                MPI_OK(MPI_Parrived(rreq, i, &flag));
            } while (!flag);
        }
        MPI_Status st;
        MPI_OK(MPI_Wait(&rreq, &st));
        MPI_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        CHECK(rreq != MPI_REQUEST_NULL && sreq != MPI_REQUEST_NULL,
              "persistent partitioned requests freed by MPI_Wait");
        CHECK(mt_verify(r, total, src, round * 10 + rep) < 0 && r[total] == 0,
              "%d x %d B from %d (%d receive partitions, how %d, start %d): data corrupt",
              sparts, slen, src, rparts, how, rep);
        CHECK(st.MPI_SOURCE == src && st.MPI_TAG == 7, "status source %d tag %d",
              st.MPI_SOURCE, st.MPI_TAG);
        mt_barrier(MPI_COMM_WORLD);
    }
    MPI_OK(MPI_Request_free(&sreq));
    MPI_OK(MPI_Request_free(&rreq));
    CHECK(sreq == MPI_REQUEST_NULL && rreq == MPI_REQUEST_NULL, "Request_free left a handle");
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "partitioned");
    int right = (mt_rank + 1) % mt_size, left = (mt_rank + mt_size - 1) % mt_size;
    int round = 0;

    for (int i = 0; i < NLENS; i++) {
        for (int how = 0; how < 4; how++) {
            exchange(right, left, 4, 4, lens[i], how, round++);
        }
        exchange(right, left, 4, 2, lens[i], 0, round++); /* 4 sent, 2 received */
        exchange(right, left, 1, 4, lens[i] * 4, 0, round++);
        exchange(mt_rank, mt_rank, 3, 3, lens[i], 3, round++); /* to oneself */
    }

    /* nothing arrives before the last partition is ready */
    {
        int s[4] = {1, 2, 3, 4}, r[4] = {0}, flag = 1;
        MPI_Request sreq, rreq;
        MPI_OK(MPI_Precv_init(r, 2, 2, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &rreq));
        MPI_OK(MPI_Psend_init(s, 2, 2, MPI_INT, right, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &sreq));
        MPI_OK(MPI_Start(&rreq));
        MPI_OK(MPI_Start(&sreq));
        MPI_OK(MPI_Pready(1, sreq));
        mt_barrier(MPI_COMM_WORLD);
        for (int k = 0; k < 100; k++) {
            MPI_OK(MPI_Parrived(rreq, 0, &flag));
            CHECK(!flag, "partition 0 arrived while the sender's partition 0 was not ready");
        }
        mt_barrier(MPI_COMM_WORLD);
        MPI_OK(MPI_Pready(0, sreq));
        MPI_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
        CHECK(r[0] == 1 && r[3] == 4, "received %d..%d", r[0], r[3]);
        MPI_OK(MPI_Request_free(&sreq));
        MPI_OK(MPI_Request_free(&rreq));
    }

    /* a strided datatype: every other int of 2 x 3 elements */
    {
        int s[12], r[12];
        MPI_Datatype vec;
        MPI_Request sreq, rreq;
        MPI_OK(MPI_Type_vector(1, 1, 2, MPI_INT, &vec));
        MPI_OK(MPI_Type_create_resized(vec, 0, 2 * (MPI_Aint)sizeof(int), &vec));
        MPI_OK(MPI_Type_commit(&vec));
        for (int i = 0; i < 12; i++) {
            s[i] = mt_rank * 100 + i;
            r[i] = -1;
        }
        MPI_OK(MPI_Psend_init(s, 2, 3, vec, right, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &sreq));
        MPI_OK(MPI_Precv_init(r, 2, 3, vec, left, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &rreq));
        MPI_OK(MPI_Start(&rreq));
        MPI_OK(MPI_Start(&sreq));
        MPI_OK(MPI_Pready_range(0, 1, sreq));
        MPI_OK(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        for (int i = 0; i < 12; i++) {
            int want = i % 2 == 0 ? left * 100 + i : -1;
            CHECK(r[i] == want, "strided: r[%d] = %d, not %d", i, r[i], want);
        }
        MPI_OK(MPI_Request_free(&sreq));
        MPI_OK(MPI_Request_free(&rreq));
        MPI_OK(MPI_Type_free(&vec));
    }

    /* MPI_PROC_NULL: complete once started (and, for the send, ready) */
    {
        int x = 5, flag = 0;
        MPI_Request sreq, rreq;
        MPI_OK(MPI_Psend_init(&x, 1, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                              MPI_INFO_NULL, &sreq));
        MPI_OK(MPI_Precv_init(&x, 1, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                              MPI_INFO_NULL, &rreq));
        MPI_OK(MPI_Start(&sreq));
        MPI_OK(MPI_Start(&rreq));
        MPI_OK(MPI_Pready(0, sreq));
        MPI_OK(MPI_Parrived(rreq, 0, &flag));
        CHECK(flag && x == 5, "PROC_NULL: arrived %d, x %d", flag, x);
        MPI_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Request_free(&sreq));
        MPI_OK(MPI_Request_free(&rreq));
    }

    /* errors */
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    {
        int buf[4] = {0}, rbuf[4], cls, rc, flag;
        MPI_Request sreq, rreq, plain;
#define EXPECT(call, want)                                                                    \
    do {                                                                                      \
        rc = (call);                                                                          \
        cls = -1;                                                                             \
        MPI_Error_class(rc, &cls);                                                            \
        CHECK(rc != MPI_SUCCESS && cls == (want), "%s: class %d, not %s", #call, cls, #want); \
    } while (0)
        EXPECT(MPI_Psend_init(buf, 0, 1, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, &sreq),
               MPI_ERR_ARG);
        EXPECT(MPI_Psend_init(buf, 2, -1, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, &sreq),
               MPI_ERR_COUNT);
        EXPECT(MPI_Psend_init(buf, 2, 1, MPI_INT, mt_size, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
                              &sreq),
               MPI_ERR_RANK);
        EXPECT(MPI_Precv_init(buf, 2, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_SELF,
                              MPI_INFO_NULL, &rreq),
               MPI_ERR_RANK);
        EXPECT(MPI_Precv_init(buf, 2, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_SELF, MPI_INFO_NULL,
                              &rreq),
               MPI_ERR_TAG);
        EXPECT(MPI_Precv_init(buf, 2, 1, MPI_INT, 0, 0, MPI_COMM_NULL, MPI_INFO_NULL, &rreq),
               MPI_ERR_COMM);
        EXPECT(MPI_Psend_init(buf, 2, 1, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, NULL),
               MPI_ERR_ARG);
        EXPECT(MPI_Psend_init(NULL, 2, 1, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, &sreq),
               MPI_ERR_BUFFER);
        EXPECT(MPI_Precv_init(buf, 2, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL,
                              &rreq),
               MPI_ERR_TYPE);
        EXPECT(MPI_Psend_init(buf, 2, 1, MPI_INT, 0, 0, MPI_COMM_SELF, (MPI_Info)0x7777, &sreq),
               MPI_ERR_INFO);
        /* partitions x count beyond MPI_Count */
        EXPECT(MPI_Psend_init(buf, 4, (MPI_Count)1 << 62, MPI_INT, 0, 0, MPI_COMM_SELF,
                              MPI_INFO_NULL, &sreq),
               MPI_ERR_COUNT);
        MPI_OK(MPI_Psend_init(buf, 2, 2, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_INFO_NULL, &sreq));
        MPI_OK(MPI_Precv_init(rbuf, 1, sizeof rbuf, MPI_CHAR, 0, 0, MPI_COMM_SELF,
                              MPI_INFO_NULL, &rreq));
        EXPECT(MPI_Pready(0, sreq), MPI_ERR_REQUEST); /* not started */
        EXPECT(MPI_Parrived(rreq, 0, &flag), MPI_ERR_REQUEST);
        MPI_OK(MPI_Start(&rreq));
        MPI_OK(MPI_Start(&sreq));
        EXPECT(MPI_Pready(2, sreq), MPI_ERR_ARG);
        EXPECT(MPI_Pready_range(1, 0, sreq), MPI_ERR_ARG);
        EXPECT(MPI_Pready(0, rreq), MPI_ERR_REQUEST);   /* a receive */
        EXPECT(MPI_Parrived(sreq, 0, &flag), MPI_ERR_REQUEST);
        EXPECT(MPI_Parrived(rreq, 1, &flag), MPI_ERR_ARG);
        MPI_OK(MPI_Pready(0, sreq));
        EXPECT(MPI_Pready(0, sreq), MPI_ERR_ARG); /* twice */
        int one = 1;
        EXPECT(MPI_Pready_list(1, &one, MPI_REQUEST_NULL), MPI_ERR_REQUEST);
        EXPECT(MPI_Pready_list(-1, &one, sreq), MPI_ERR_ARG);
        EXPECT(MPI_Pready_list(1, NULL, sreq), MPI_ERR_ARG);
        EXPECT(MPI_Parrived(rreq, 0, NULL), MPI_ERR_ARG);
        MPI_OK(MPI_Pready_list(1, &one, sreq));
        MPI_OK(MPI_Wait(&sreq, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Wait(&rreq, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Irecv(buf, 1, MPI_INT, 0, 1, MPI_COMM_SELF, &plain));
        EXPECT(MPI_Pready(0, plain), MPI_ERR_REQUEST); /* not partitioned */
        MPI_OK(MPI_Cancel(&plain));
        MPI_OK(MPI_Wait(&plain, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Request_free(&sreq));
        MPI_OK(MPI_Request_free(&rreq));
    }
    return mt_finish();
}
