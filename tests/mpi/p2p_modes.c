/*
 * p2p_modes: the other point-to-point calls.  Ssend completes only once the receive is
 * posted (Issend + Test stays incomplete while the receiver holds back, told by a second
 * message); Rsend to a posted receive; Bsend through an attached buffer, detach waiting
 * for delivery, MPI_Buffer_iflush / MPI_Buffer_flush waiting for it with the buffer kept;
 * Sendrecv and Sendrecv_replace around the ring; the Wait/Test families;
 * MPI_PROC_NULL; MPI_STATUS_IGNORE.  Pairs (0,1), (2,3)... for the Ssend part.
 *
 * Known: MPICH 4.0.2 fails the "Irecv from MPI_PROC_NULL" status check (it reports source
 * 0); MPI 3.1 section 3.11 requires source MPI_PROC_NULL, as Open MPI does.
 */
#include "tests/mpi/mpitest.h"

#include <unistd.h>

static void ssend_pair(void)
{
    int peer = mt_rank ^ 1, v = 0, go = 1, flag = 0;
    MPI_Request req;

    if (peer >= mt_size)
        return;
    if (mt_rank % 2 == 0) {
        v = 31337;
        MPI_OK(MPI_Issend(&v, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &req));
        /* the receiver has not posted its receive: the send must stay incomplete */
        for (int i = 0; i < 200; i++) {
            MPI_OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
            CHECK(!flag, "Issend completed before the receive was posted");
            if (flag)
                break;
            usleep(1000);
        }
        MPI_OK(MPI_Send(&go, 1, MPI_INT, peer, 2, MPI_COMM_WORLD));
        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        /* blocking Ssend, large, receiver posts late */
        {
            static int big[100000];
            for (int i = 0; i < 100000; i++)
                big[i] = i * 3;
            MPI_OK(MPI_Ssend(big, 100000, MPI_INT, peer, 3, MPI_COMM_WORLD));
        }
    } else {
        static int big[100000];

        MPI_OK(MPI_Recv(&go, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Recv(&v, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(v == 31337, "Ssend payload %d", v);
        usleep(20000);
        MPI_OK(MPI_Recv(big, 100000, MPI_INT, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int i = 0; i < 100000; i++)
            if (big[i] != i * 3) {
                CHECK(0, "Ssend big: element %d is %d", i, big[i]);
                break;
            }
    }
}

static void rsend_ring(int left, int right)
{
    int v = 500 + mt_rank, r = -1, token = 0, token_in = -1;
    MPI_Request req;

    /* post the receive, tell the left neighbour it is posted, then Rsend to the right */
    MPI_OK(MPI_Irecv(&r, 1, MPI_INT, left, 11, MPI_COMM_WORLD, &req));
    MPI_OK(MPI_Sendrecv(&token, 1, MPI_INT, left, 12, &token_in, 1, MPI_INT, right, 12,
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Rsend(&v, 1, MPI_INT, right, 11, MPI_COMM_WORLD));
    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(r == 500 + left, "Rsend: got %d, expected %d", r, 500 + left);
}

static void bsend_ring(int left, int right)
{
    enum { N = 5, LEN = 1000 };
    int size = N * (LEN * (int)sizeof(int) + MPI_BSEND_OVERHEAD), dsize = 0;
    char *buf = mt_malloc((size_t)size), *dbuf = NULL;
    int data[LEN], got[LEN];

    MPI_OK(MPI_Buffer_attach(buf, size));
    for (int m = 0; m < N; m++) {
        for (int i = 0; i < LEN; i++)
            data[i] = mt_rank * 1000000 + m * 1000 + i;
        /* Bsend returns at once; the data is copied, so reuse `data` immediately */
        MPI_OK(MPI_Bsend(data, LEN, MPI_INT, right, 20 + m, MPI_COMM_WORLD));
    }
    for (int m = N - 1; m >= 0; m--) {
        MPI_OK(MPI_Recv(got, LEN, MPI_INT, left, 20 + m, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int i = 0; i < LEN; i++)
            if (got[i] != left * 1000000 + m * 1000 + i) {
                CHECK(0, "Bsend msg %d: element %d is %d", m, i, got[i]);
                break;
            }
    }
    MPI_OK(MPI_Buffer_detach(&dbuf, &dsize));
    CHECK(dbuf == buf && dsize == size, "Buffer_detach gave %p/%d, attached %p/%d",
          (void *)dbuf, dsize, (void *)buf, size);
    free(buf);
}

/* MPI-4.1 MPI_Buffer_iflush and MPI_Buffer_flush: a rendezvous-sized Bsend still in the
   buffer, a flush request that completes once the receiver took it, and a flush with
   nothing left; the buffer stays attached throughout */
static void bsend_flush(int left, int right)
{
    enum { LEN = 256 * 1024 };
    int size = LEN * (int)sizeof(int) + MPI_BSEND_OVERHEAD, dsize = 0;
    char *buf = mt_malloc((size_t)size), *dbuf = NULL;
    int *data = mt_malloc(LEN * sizeof(int)), *got = mt_malloc(LEN * sizeof(int));
    MPI_Request req;
    int flag = 0;

    MPI_OK(MPI_Buffer_attach(buf, size));
    for (int i = 0; i < LEN; i++)
        data[i] = mt_rank * 7 + i;
    MPI_OK(MPI_Bsend(data, LEN, MPI_INT, right, 40, MPI_COMM_WORLD));
    MPI_OK(MPI_Buffer_iflush(&req));
    CHECK(req != MPI_REQUEST_NULL, "MPI_Buffer_iflush gave MPI_REQUEST_NULL");
    MPI_OK(MPI_Recv(got, LEN, MPI_INT, left, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(got[LEN - 1] == left * 7 + LEN - 1, "Bsend before iflush: last element %d", got[LEN - 1]);
    /* the buffer is free again: a second message of the same size fits */
    MPI_OK(MPI_Bsend(data, LEN, MPI_INT, right, 41, MPI_COMM_WORLD));
    MPI_OK(MPI_Recv(got, LEN, MPI_INT, left, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Buffer_flush());
    MPI_OK(MPI_Buffer_iflush(&req));
    MPI_OK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
    CHECK(flag, "MPI_Buffer_iflush with nothing buffered is not complete at once");
    if (!flag)
        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Buffer_detach(&dbuf, &dsize));
    CHECK(dbuf == buf && dsize == size, "Buffer_detach after the flushes gave %p/%d", (void *)dbuf,
          dsize);
    free(buf);
    free(data);
    free(got);
}

static void sendrecv_ring(int left, int right)
{
    int out[3] = {mt_rank, 7, -mt_rank}, in[3] = {-1, -1, -1}, rep[64];
    MPI_Status st;
    int count = -1;

    MPI_OK(MPI_Sendrecv(out, 3, MPI_INT, right, 30, in, 3, MPI_INT, left, 30, MPI_COMM_WORLD,
                        &st));
    CHECK(in[0] == left && in[1] == 7 && in[2] == -left, "Sendrecv: got %d %d %d", in[0],
          in[1], in[2]);
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 30, "Sendrecv status %d/%d", st.MPI_SOURCE,
          st.MPI_TAG);
    for (int i = 0; i < 64; i++)
        rep[i] = mt_rank * 64 + i;
    MPI_OK(MPI_Sendrecv_replace(rep, 64, MPI_INT, right, 31, left, 31, MPI_COMM_WORLD, &st));
    for (int i = 0; i < 64; i++)
        if (rep[i] != left * 64 + i) {
            CHECK(0, "Sendrecv_replace: element %d is %d", i, rep[i]);
            break;
        }
    MPI_OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 64, "Sendrecv_replace count %d", count);
}

/* Waitany/Waitsome/Testall/Testany/Testsome over receives from the left neighbour */
static void wait_test(int left, int right)
{
    enum { N = 8 };
    int in[N], out[N], seen[N] = {0}, idx, flag, outcount, indices[N];
    MPI_Request rr[N], sr[N];
    MPI_Status st, sts[N];

    for (int i = 0; i < N; i++) {
        out[i] = mt_rank * 100 + i;
        in[i] = -1;
        MPI_OK(MPI_Irecv(&in[i], 1, MPI_INT, left, 40 + i, MPI_COMM_WORLD, &rr[i]));
    }
    /* send in reverse order: completion order need not match posting order */
    for (int i = N - 1; i >= 0; i--)
        MPI_OK(MPI_Isend(&out[i], 1, MPI_INT, right, 40 + i, MPI_COMM_WORLD, &sr[i]));
    for (int k = 0; k < N / 2; k++) {
        MPI_OK(MPI_Waitany(N, rr, &idx, &st));
        CHECK(idx >= 0 && idx < N && !seen[idx], "Waitany returned index %d", idx);
        if (idx < 0 || idx >= N)
            continue;
        seen[idx] = 1;
        CHECK(rr[idx] == MPI_REQUEST_NULL, "Waitany did not free request %d", idx);
        CHECK(st.MPI_TAG == 40 + idx && in[idx] == left * 100 + idx,
              "Waitany: index %d tag %d value %d", idx, st.MPI_TAG, in[idx]);
    }
    while (1) {
        MPI_OK(MPI_Waitsome(N, rr, &outcount, indices, sts));
        if (outcount == MPI_UNDEFINED)
            break;
        for (int k = 0; k < outcount; k++) {
            int i = indices[k];

            CHECK(i >= 0 && i < N && !seen[i], "Waitsome returned index %d", i);
            if (i < 0 || i >= N)
                continue;
            seen[i] = 1;
            CHECK(sts[k].MPI_TAG == 40 + i && in[i] == left * 100 + i,
                  "Waitsome: index %d tag %d value %d", i, sts[k].MPI_TAG, in[i]);
        }
    }
    for (int i = 0; i < N; i++)
        CHECK(seen[i], "request %d never completed", i);
    /* all receive handles are null now: Waitany says MPI_UNDEFINED */
    MPI_OK(MPI_Waitany(N, rr, &idx, &st));
    CHECK(idx == MPI_UNDEFINED, "Waitany on null requests gave index %d", idx);

    flag = 0;
    while (!flag)
        MPI_OK(MPI_Testall(N, sr, &flag, MPI_STATUSES_IGNORE));
    for (int i = 0; i < N; i++)
        CHECK(sr[i] == MPI_REQUEST_NULL, "Testall did not free send request %d", i);

    /* Testany on a receive nobody will match: not complete; then cancel it */
    MPI_OK(MPI_Irecv(&in[0], 1, MPI_INT, left, 99, MPI_COMM_WORLD, &rr[0]));
    MPI_OK(MPI_Testany(1, rr, &idx, &flag, &st));
    CHECK(flag == 0, "Testany completed a receive nobody sent (index %d)", idx);
    MPI_OK(MPI_Cancel(&rr[0]));
    MPI_OK(MPI_Wait(&rr[0], MPI_STATUS_IGNORE));

    /* Testany and Testsome */
    for (int i = 0; i < N; i++) {
        seen[i] = 0;
        MPI_OK(MPI_Irecv(&in[i], 1, MPI_INT, left, 50 + i, MPI_COMM_WORLD, &rr[i]));
    }
    for (int i = 0; i < N; i++)
        MPI_OK(MPI_Isend(&out[i], 1, MPI_INT, right, 50 + i, MPI_COMM_WORLD, &sr[i]));
    for (int done = 0; done < N / 2;) {
        MPI_OK(MPI_Testany(N, rr, &idx, &flag, &st));
        if (flag) {
            CHECK(idx >= 0 && idx < N && !seen[idx], "Testany returned index %d", idx);
            if (idx >= 0 && idx < N)
                seen[idx] = 1;
            done++;
        }
    }
    for (int done = N / 2; done < N;) {
        MPI_OK(MPI_Testsome(N, rr, &outcount, indices, sts));
        CHECK(outcount != MPI_UNDEFINED, "Testsome: undefined with requests pending");
        if (outcount == MPI_UNDEFINED)
            break;
        for (int k = 0; k < outcount; k++) {
            CHECK(!seen[indices[k]], "Testsome returned index %d twice", indices[k]);
            seen[indices[k]] = 1;
            done++;
        }
    }
    for (int i = 0; i < N; i++)
        CHECK(seen[i] && in[i] == left * 100 + i, "Test*: request %d value %d", i, in[i]);
    MPI_OK(MPI_Waitall(N, sr, MPI_STATUSES_IGNORE));
}

static void proc_null(void)
{
    int v = 77, w = 78;
    MPI_Status st;
    MPI_Request req;
    int count = -1;

    MPI_OK(MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    MPI_OK(MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st));
    CHECK(v == 77, "Recv from MPI_PROC_NULL changed the buffer");
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG,
          "Recv from MPI_PROC_NULL: status source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
    MPI_OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == 0, "Recv from MPI_PROC_NULL: count %d", count);
    MPI_OK(MPI_Irecv(&v, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &req));
    MPI_OK(MPI_Wait(&req, &st));
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "Irecv from MPI_PROC_NULL: source %d",
          st.MPI_SOURCE);
    MPI_OK(MPI_Isend(&v, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &req));
    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Sendrecv(&v, 1, MPI_INT, MPI_PROC_NULL, 1, &w, 1, MPI_INT, MPI_PROC_NULL, 1,
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(w == 78, "Sendrecv with MPI_PROC_NULL changed the buffer");
}

int main(int argc, char **argv)
{
    int left, right;

    mt_init(&argc, &argv, "p2p_modes");
    right = (mt_rank + 1) % mt_size;
    left = (mt_rank + mt_size - 1) % mt_size;
    ssend_pair();
    mt_barrier(MPI_COMM_WORLD);
    rsend_ring(left, right);
    mt_barrier(MPI_COMM_WORLD);
    bsend_ring(left, right);
    bsend_flush(left, right);
    sendrecv_ring(left, right);
    wait_test(left, right);
    proc_null();
    return mt_finish();
}
