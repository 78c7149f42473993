/*
 * threads.c -- MPI_THREAD_MULTIPLE under load: every rank runs NTHREADS threads that call
 * MPI at the same time, in a loop, and check every result.
 *
 * Each thread t owns a duplicate of WORLD (own[t]) and on it runs, each round:
 *   - an ANY_SOURCE storm: every rank sends one message to every other, each receiver
 *     takes them with MPI_ANY_SOURCE and checks it got each sender once, right content;
 *   - blocking collectives (allreduce, bcast from a moving root, allgather, barrier) at
 *     sizes that change with the round, so keys miss the closure cache now and then and
 *     the Guile bridge runs from several threads (the first round misses every kind);
 *     every 5th round an allreduce past the eager limit (rendezvous under the lock);
 *   - nonblocking collectives (iallreduce, ibcast) completed by MPI_Waitall;
 *   - communicator creation and free: a split by parity and a dup, each used once.
 * Between those, tagged exchanges around a ring on one communicator shared by all threads
 * (tag = 100 + t): messages of different threads on one communicator never mix.  At the
 * end of a round thread 1 Ssends to its own rank while thread 0 polls MPI_Test for it.
 * The main thread checks MPI_Query_thread and MPI_Is_thread_main (the other threads too).
 */
#include "tests/mpi/mpitest.h"

#include <pthread.h>

#define NTHREADS 4
#define ROUNDS 100
#define BIG 20000 /* ints: 80 KB, past the shared-memory eager limit */

static MPI_Comm own[NTHREADS];
static MPI_Comm shared;

static int val(int t, int round, int r, int i)
{
    return mt_ival(r, i, t * 1000 + round);
}

static void anysource_storm(int t, int round, MPI_Comm c)
{
    int rank = mt_rank, size = mt_size;
    int seen[64] = {0};
    MPI_Request sreq[64];
    int msg[3][64];
    int n = 0;

    for (int r = 0; r < size; r++) {
        if (r == rank) {
            continue;
        }
        msg[0][r] = rank;
        msg[1][r] = round;
        msg[2][r] = val(t, round, rank, r);
        int m[3] = {msg[0][r], msg[1][r], msg[2][r]};
        MPI_OK(MPI_Isend(m, 3, MPI_INT, r, 7, c, &sreq[n]));
        /* the buffer must live until completion: wait for this one now */
        MPI_OK(MPI_Wait(&sreq[n], MPI_STATUS_IGNORE));
        n++;
    }
    for (int k = 0; k < size - 1; k++) {
        int m[3];
        MPI_Status st;
        MPI_OK(MPI_Recv(m, 3, MPI_INT, MPI_ANY_SOURCE, 7, c, &st));
        int src = st.MPI_SOURCE;
        CHECK(src >= 0 && src < size && src != rank, "thread %d: ANY_SOURCE from %d", t, src);
        if (src < 0 || src >= size) {
            continue;
        }
        seen[src]++;
        CHECK(m[0] == src && m[1] == round && m[2] == val(t, round, src, rank),
              "thread %d round %d: message from %d is (%d %d %d)", t, round, src, m[0], m[1], m[2]);
    }
    for (int r = 0; r < size; r++) {
        CHECK(r == rank || seen[r] == 1, "thread %d round %d: %d messages from %d", t, round,
              seen[r], r);
    }
}

static void shared_ring(int t, int round)
{
    int rank = mt_rank, size = mt_size;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    int out[4] = {rank, t, round, val(t, round, rank, 99)}, in[4] = {-1, -1, -1, -1};
    MPI_Request req;
    MPI_OK(MPI_Isend(out, 4, MPI_INT, next, 100 + t, shared, &req));
    MPI_OK(MPI_Recv(in, 4, MPI_INT, prev, 100 + t, shared, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(in[0] == prev && in[1] == t && in[2] == round && in[3] == val(t, round, prev, 99),
          "thread %d round %d: shared ring got (%d %d %d %d)", t, round, in[0], in[1], in[2],
          in[3]);
}

static void blocking_colls(int t, int round, MPI_Comm c)
{
    int size = mt_size, rank = mt_rank;
    int n = 1 + (round % 4) * 7;
    int a[32], sum[32];

    for (int i = 0; i < n; i++) {
        a[i] = val(t, round, rank, i);
    }
    MPI_OK(MPI_Allreduce(a, sum, n, MPI_INT, MPI_SUM, c));
    for (int i = 0; i < n; i++) {
        int e = 0;
        for (int r = 0; r < size; r++) {
            e += val(t, round, r, i);
        }
        CHECK(sum[i] == e, "thread %d round %d: allreduce[%d] %d, expected %d", t, round, i, sum[i],
              e);
    }

    int root = round % size, b[32];
    for (int i = 0; i < n; i++) {
        b[i] = rank == root ? val(t, round, root, 50 + i) : -1;
    }
    MPI_OK(MPI_Bcast(b, n, MPI_INT, root, c));
    for (int i = 0; i < n; i++) {
        CHECK(b[i] == val(t, round, root, 50 + i), "thread %d round %d: bcast[%d] %d", t, round, i,
              b[i]);
    }

    int g[64];
    int mine = val(t, round, rank, 77);
    MPI_OK(MPI_Allgather(&mine, 1, MPI_INT, g, 1, MPI_INT, c));
    for (int r = 0; r < size; r++) {
        CHECK(g[r] == val(t, round, r, 77), "thread %d round %d: allgather[%d] %d", t, round, r,
              g[r]);
    }
    MPI_OK(MPI_Barrier(c));

    if (round % 5 == 0) {
        int *big = mt_malloc(BIG * sizeof(int)), *res = mt_malloc(BIG * sizeof(int));
        for (int i = 0; i < BIG; i++) {
            big[i] = rank + i + t;
        }
        MPI_OK(MPI_Allreduce(big, res, BIG, MPI_INT, MPI_SUM, c));
        int bad = 0;
        for (int i = 0; i < BIG; i++) {
            bad += res[i] != size * (i + t) + size * (size - 1) / 2;
        }
        CHECK(bad == 0, "thread %d round %d: large allreduce: %d wrong", t, round, bad);
        free(big);
        free(res);
    }
}

static void nonblocking_colls(int t, int round, MPI_Comm c)
{
    int size = mt_size, rank = mt_rank;
    int x = val(t, round, rank, 5), s = 0, root = (round + 1) % size;
    int b[3] = {-1, -1, -1};
    MPI_Request req[2];

    if (rank == root) {
        for (int i = 0; i < 3; i++) {
            b[i] = val(t, round, root, 60 + i);
        }
    }
    MPI_OK(MPI_Iallreduce(&x, &s, 1, MPI_INT, MPI_SUM, c, &req[0]));
    MPI_OK(MPI_Ibcast(b, 3, MPI_INT, root, c, &req[1]));
    MPI_OK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    int e = 0;
    for (int r = 0; r < size; r++) {
        e += val(t, round, r, 5);
    }
    CHECK(s == e, "thread %d round %d: iallreduce %d, expected %d", t, round, s, e);
    for (int i = 0; i < 3; i++) {
        CHECK(b[i] == val(t, round, root, 60 + i), "thread %d round %d: ibcast[%d] %d", t, round, i,
              b[i]);
    }
}

static void comm_churn(int t, int round, MPI_Comm c)
{
    int rank = mt_rank;
    MPI_Comm half, dup;
    int hs, hr, one = 1, count = 0;

    MPI_OK(MPI_Comm_split(c, rank % 2, -rank, &half));
    MPI_OK(MPI_Comm_size(half, &hs));
    MPI_OK(MPI_Comm_rank(half, &hr));
    MPI_OK(MPI_Allreduce(&one, &count, 1, MPI_INT, MPI_SUM, half));
    CHECK(count == hs, "thread %d round %d: split of size %d counted %d", t, round, hs, count);
    CHECK(hr == (hs - 1) - rank / 2, "thread %d round %d: split rank %d", t, round, hr);
    MPI_OK(MPI_Comm_free(&half));

    MPI_OK(MPI_Comm_dup(c, &dup));
    int x = rank, m = -1;
    MPI_OK(MPI_Allreduce(&x, &m, 1, MPI_INT, MPI_MAX, dup));
    CHECK(m == mt_size - 1, "thread %d round %d: max over a dup %d", t, round, m);
    MPI_OK(MPI_Comm_free(&dup));
}

/* threads 0 and 1 of a rank meet through itself: 1 Ssends (so it waits for the match),
   0 polls MPI_Test on its receive; neither may starve the other of the lock */
static void self_handoff(int t, int round)
{
    int v = val(t, round, mt_rank, 33), got = -1, done = 0;
    if (t == 1) {
        MPI_OK(MPI_Ssend(&v, 1, MPI_INT, mt_rank, 300, shared));
    } else if (t == 0) {
        MPI_Request req;
        MPI_OK(MPI_Irecv(&got, 1, MPI_INT, mt_rank, 300, shared, &req));
        while (!done) {
            MPI_OK(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
        }
        CHECK(got == val(1, round, mt_rank, 33), "round %d: self message %d", round, got);
    }
}

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg, flag = -1;

    MPI_OK(MPI_Is_thread_main(&flag));
    CHECK(flag == 0, "thread %d: Is_thread_main says %d", t, flag);
    for (int round = 0; round < ROUNDS; round++) {
        anysource_storm(t, round, own[t]);
        shared_ring(t, round);
        blocking_colls(t, round, own[t]);
        nonblocking_colls(t, round, own[t]);
        shared_ring(t, round + 1000);
        comm_churn(t, round, own[t]);
        self_handoff(t, round);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int q = -1, flag = -1;
    pthread_t th[NTHREADS];

    mt_init_level(&argc, &argv, "threads", 1);
    MPI_OK(MPI_Query_thread(&q));
    CHECK(q == MPI_THREAD_MULTIPLE, "Query_thread %d", q);
    MPI_OK(MPI_Is_thread_main(&flag));
    CHECK(flag == 1, "Is_thread_main in the main thread: %d", flag);
    if (mt_size > 64) {
        return mt_finish();
    }
    for (int t = 0; t < NTHREADS; t++) {
        MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &own[t]));
    }
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &shared));
    for (int t = 0; t < NTHREADS; t++) {
        if (pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t) != 0) {
            CHECK(0, "pthread_create failed");
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
    }
    for (int t = 0; t < NTHREADS; t++) {
        MPI_OK(MPI_Comm_free(&own[t]));
    }
    MPI_OK(MPI_Comm_free(&shared));
    return mt_finish();
}
