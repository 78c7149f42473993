/*
 * rma_sync: the synchronisation modes against what they promise.
 *   - exclusive locks under contention: every rank, ROUNDS times, locks rank 0
 *     exclusively and increments a counter there with a get and a put (not atomic by
 *     itself): the total is exact only if no two holders overlapped; the same with
 *     MPI_Win_lock on every target in turn
 *   - shared locks: readers see a whole vector written by exclusive writers
 *   - post-start-complete-wait: each rank exposes to its left neighbour and accesses its
 *     right one, for several epochs in a row, with MPI_Win_test polling on odd rounds;
 *     the values written in epoch k are checked in epoch k
 *   - lock_all with flushes, and fences with NOPRECEDE / NOSUCCEED
 * Both on an MPI_Win_create window and an MPI_Win_allocate window.
 *   - a passive target busy in other calls: rank 0 waits in MPI_Recv, then polls
 *     MPI_Test, then polls its counter with MPI_Win_sync, while the others lock it, put
 *     and get back MiB-sized blocks, accumulate and fetch-and-op, and unlock; over active
 *     messages only those calls' progress serves them
 */
#include "tests/mpi/mpitest.h"

#define N 16
#define ROUNDS 40

static void run(int alloc)
{
    const char *what = alloc ? "allocate" : "create";
    int p = mt_size, me = mt_rank, *mem;
    MPI_Win win;

    if (alloc) {
        MPI_OK(MPI_Win_allocate(2 * N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                                &mem, &win));
    } else {
        mem = malloc(2 * N * sizeof(int));
        MPI_OK(MPI_Win_create(mem, 2 * N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                              &win));
    }
    for (int i = 0; i < 2 * N; i++) {
        mem[i] = 0;
    }
    MPI_OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    MPI_OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

    /* exclusive contention on rank 0's mem[0] */
    for (int k = 0; k < ROUNDS; k++) {
        int v = -1;
        MPI_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        MPI_OK(MPI_Get(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
        MPI_OK(MPI_Win_flush(0, win));
        v++;
        MPI_OK(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
        MPI_OK(MPI_Win_unlock(0, win));
    }
    /* every target in turn: mem[1] of each rank */
    for (int k = 0; k < ROUNDS; k++) {
        for (int t = 0; t < p; t++) {
            int v = -1;
            MPI_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
            MPI_OK(MPI_Get(&v, 1, MPI_INT, t, 1, 1, MPI_INT, win));
            MPI_OK(MPI_Win_flush_local(t, win));
            v++;
            MPI_OK(MPI_Put(&v, 1, MPI_INT, t, 1, 1, MPI_INT, win));
            MPI_OK(MPI_Win_unlock(t, win));
        }
    }
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win));
    if (me == 0) {
        CHECK(mem[0] == p * ROUNDS, "%s: exclusive counter %d, expected %d", what, mem[0],
              p * ROUNDS);
    }
    CHECK(mem[1] == p * ROUNDS, "%s: per-target counter %d, expected %d", what, mem[1], p * ROUNDS);
    MPI_OK(MPI_Win_unlock(me, win));
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));

    /* writers (even ranks) store whole vectors of one value into rank 0's mem[N..2N)
       under the exclusive lock, readers (odd ranks) read under the shared lock */
    for (int k = 0; k < ROUNDS; k++) {
        int vec[N];
        if (me % 2 == 0) {
            for (int i = 0; i < N; i++) {
                vec[i] = me * ROUNDS + k;
            }
            MPI_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
            MPI_OK(MPI_Put(vec, N, MPI_INT, 0, N, N, MPI_INT, win));
            MPI_OK(MPI_Win_unlock(0, win));
        } else {
            MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
            MPI_OK(MPI_Get(vec, N, MPI_INT, 0, N, N, MPI_INT, win));
            MPI_OK(MPI_Win_unlock(0, win));
            for (int i = 1; i < N; i++) {
                CHECK(vec[i] == vec[0], "%s: torn vector under the shared lock: [%d]=%d, [0]=%d",
                      what, i, vec[i], vec[0]);
            }
        }
    }
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));

    /* PSCW: expose to the left, access the right */
    MPI_Group world, lgrp, rgrp;
    int left = (me + p - 1) % p, right = (me + 1) % p;
    MPI_OK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    MPI_OK(MPI_Group_incl(world, 1, &left, &lgrp));
    MPI_OK(MPI_Group_incl(world, 1, &right, &rgrp));
    for (int k = 0; k < ROUNDS; k++) {
        int v[2] = {me * 1000 + k, k};
        MPI_OK(MPI_Win_post(lgrp, 0, win));
        MPI_OK(MPI_Win_start(rgrp, 0, win));
        MPI_OK(MPI_Put(v, 2, MPI_INT, right, 2, 2, MPI_INT, win));
        MPI_OK(MPI_Win_complete(win));
        if (k % 2) {
            int flag = 0;
            while (!flag) {
                MPI_OK(MPI_Win_test(win, &flag));
            }
        } else {
            MPI_OK(MPI_Win_wait(win));
        }
        MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win));
        CHECK(mem[2] == left * 1000 + k && mem[3] == k, "%s: PSCW epoch %d got (%d,%d)", what, k,
              mem[2], mem[3]);
        MPI_OK(MPI_Win_unlock(me, win));
    }
    MPI_OK(MPI_Group_free(&lgrp));
    MPI_OK(MPI_Group_free(&rgrp));
    MPI_OK(MPI_Group_free(&world));

    /* lock_all and flushes: everybody writes its rank into slot N + me of every rank */
    MPI_OK(MPI_Win_lock_all(0, win));
    for (int t = 0; t < p && me < N; t++) {
        MPI_OK(MPI_Put(&me, 1, MPI_INT, t, N + me, 1, MPI_INT, win));
        MPI_OK(MPI_Win_flush(t, win));
    }
    MPI_OK(MPI_Win_flush_all(win));
    MPI_OK(MPI_Win_flush_local_all(win));
    MPI_OK(MPI_Win_unlock_all(win));
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_Win_sync(win));
    for (int r = 0; r < p && r < N; r++) {
        CHECK(mem[N + r] == r, "%s: lock_all put from %d: %d", what, r, mem[N + r]);
    }
    MPI_OK(MPI_Win_free(&win));
    if (!alloc) {
        free(mem);
    }
}

#define BIG (1 << 20) /* ints in rank 0's window after its counter */

static void passive_target(void)
{
    int p = mt_size, me = mt_rank, *mem, x = 0, one = 1, old = 0;
    size_t slice = (size_t)BIG / (size_t)(p > 1 ? p - 1 : 1);
    MPI_Win win;

    MPI_OK(MPI_Win_allocate(me == 0 ? (BIG + 1) * sizeof(int) : 0, sizeof(int), MPI_INFO_NULL,
                            MPI_COMM_WORLD, &mem, &win));
    if (me == 0) {
        mem[0] = 0;
    }
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (me == 0) {
        /* phase 1: in MPI_Recv */
        for (int r = 1; r < p; r++) {
            MPI_OK(MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        }
        /* phase 2: polling MPI_Test */
        for (int r = 1; r < p; r++) {
            MPI_Request rq;
            int done = 0;
            MPI_OK(MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &rq));
            while (!done) {
                MPI_OK(MPI_Test(&rq, &done, MPI_STATUS_IGNORE));
            }
        }
        /* phase 3: polling its own window with MPI_Win_sync, the others told to go once
           it is in the loop's epoch (eager sends: they leave without waiting) */
        MPI_OK(MPI_Win_lock_all(0, win));
        for (int r = 1; r < p; r++) {
            MPI_OK(MPI_Send(&x, 1, MPI_INT, r, 9, MPI_COMM_WORLD));
        }
        while (((volatile int *)mem)[0] < 3 * (p - 1)) {
            MPI_OK(MPI_Win_sync(win));
        }
        MPI_OK(MPI_Win_unlock_all(win));
        MPI_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK(mem[0] == 3 * (p - 1), "passive target: counter %d, want %d", mem[0], 3 * (p - 1));
        for (int r = 1; r < p; r++) {
            for (size_t i = 0; i < slice; i += slice / 7 + 1) {
                int want = r * 1000003 + (int)i;
                CHECK(mem[1 + (size_t)(r - 1) * slice + i] == want,
                      "passive target: slice %d [%zu] = %d, want %d", r, i,
                      mem[1 + (size_t)(r - 1) * slice + i], want);
            }
        }
        MPI_OK(MPI_Win_unlock(0, win));
    } else {
        int *out = malloc(slice * sizeof(int)), *back = malloc(slice * sizeof(int));
        MPI_Aint at = 1 + (MPI_Aint)((size_t)(me - 1) * slice);
        for (size_t i = 0; i < slice; i++) {
            out[i] = me * 1000003 + (int)i;
            back[i] = -1;
        }
        MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        MPI_OK(MPI_Put(out, (int)slice, MPI_INT, 0, at, (int)slice, MPI_INT, win));
        MPI_OK(MPI_Win_flush(0, win));
        MPI_OK(MPI_Get(back, (int)slice, MPI_INT, 0, at, (int)slice, MPI_INT, win));
        MPI_OK(MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win));
        MPI_OK(MPI_Win_unlock(0, win));
        CHECK(memcmp(out, back, slice * sizeof(int)) == 0, "passive target: get after put");
        MPI_OK(MPI_Send(&me, 1, MPI_INT, 0, 7, MPI_COMM_WORLD));
        MPI_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        MPI_OK(MPI_Fetch_and_op(&one, &old, MPI_INT, 0, 0, MPI_SUM, win));
        MPI_OK(MPI_Win_unlock(0, win));
        CHECK(old >= 1 && old < 3 * (p - 1), "passive target: fetched %d", old);
        MPI_OK(MPI_Send(&me, 1, MPI_INT, 0, 8, MPI_COMM_WORLD));
        MPI_OK(MPI_Recv(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        MPI_OK(MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win));
        MPI_OK(MPI_Win_unlock(0, win));
        free(out);
        free(back);
    }
    MPI_OK(MPI_Win_free(&win));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "rma_sync");
    run(0);
    run(1);
    passive_target();
    return mt_finish();
}
