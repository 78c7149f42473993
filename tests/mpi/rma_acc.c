/*
 * rma_acc: the accumulates under concurrency, on a window of the user's memory
 * (MPI_Win_create: single copy) and on an allocated one (the shared segment).  Every rank
 * adds into every rank's vector at once (MPI_Accumulate SUM under fences and under
 * MPI_Win_lock_all), with a strided origin and an indexed target; MPI_Get_accumulate
 * with SUM (the values fetched are each a partial sum; a strided result type), MPI_REPLACE
 * and MPI_NO_OP;
 * MPI_Fetch_and_op as a shared counter (every ticket once); MPI_Compare_and_swap as a
 * spin lock around a non-atomic read-modify-write; MAXLOC on MPI_2INT; BXOR on
 * unsigned long long; MPI_Raccumulate and MPI_Rget_accumulate.
 */
#include "tests/mpi/mpitest.h"

#define N 32
#define ROUNDS 50

static void run(int flavor)
{
    const char *what = flavor == MPI_WIN_FLAVOR_CREATE ? "create" : "allocate";
    MPI_Win win;
    long long *mem;
    int p = mt_size, me = mt_rank;

    if (flavor == MPI_WIN_FLAVOR_CREATE) {
        mem = malloc(4 * N * sizeof(long long));
        MPI_OK(MPI_Win_create(mem, 4 * N * sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                              MPI_COMM_WORLD, &win));
    } else {
        MPI_OK(MPI_Win_allocate(4 * N * sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                                MPI_COMM_WORLD, &mem, &win));
    }
    MPI_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

    /* 1. fences: every rank adds (r + 1) * (i + 1) into every rank's mem[i], ROUNDS times */
    for (int i = 0; i < 4 * N; i++) {
        mem[i] = 0;
    }
    long long add[N];
    for (int i = 0; i < N; i++) {
        add[i] = (long long)(me + 1) * (i + 1);
    }
    MPI_OK(MPI_Win_fence(0, win));
    for (int k = 0; k < ROUNDS; k++) {
        for (int t = 0; t < p; t++) {
            MPI_OK(MPI_Accumulate(add, N, MPI_LONG_LONG, (t + me) % p, 0, N, MPI_LONG_LONG, MPI_SUM,
                                  win));
        }
    }
    MPI_OK(MPI_Win_fence(0, win));
    long long ranksum = (long long)p * (p + 1) / 2;
    for (int i = 0; i < N; i++) {
        CHECK(mem[i] == ROUNDS * ranksum * (i + 1), "%s: fence sum mem[%d]=%lld, expected %lld",
              what, i, mem[i], ROUNDS * ranksum * (i + 1));
    }

    /* 2. lock_all: a strided origin (every other element) into an indexed target
          (N/2 elements at N + 2j), concurrently from every rank */
    MPI_Datatype vec, idx;
    int blens[N / 2], displs[N / 2];
    for (int j = 0; j < N / 2; j++) {
        blens[j] = 1;
        displs[j] = 2 * j;
    }
    MPI_OK(MPI_Type_vector(N / 2, 1, 2, MPI_LONG_LONG, &vec));
    MPI_OK(MPI_Type_indexed(N / 2, blens, displs, MPI_LONG_LONG, &idx));
    MPI_OK(MPI_Type_commit(&vec));
    MPI_OK(MPI_Type_commit(&idx));
    MPI_OK(MPI_Win_lock_all(0, win));
    for (int k = 0; k < ROUNDS; k++) {
        for (int t = 0; t < p; t++) {
            MPI_OK(MPI_Accumulate(add, 1, vec, t, N, 1, idx, MPI_SUM, win));
        }
    }
    MPI_OK(MPI_Win_unlock_all(win));
    MPI_OK(MPI_Win_fence(0, win));
    for (int j = 0; j < N; j++) {
        long long exp = j % 2 == 0 ? ROUNDS * ranksum * (j + 1) : 0;
        CHECK(mem[N + j] == exp, "%s: derived sum mem[%d]=%lld, expected %lld", what, N + j,
              mem[N + j], exp);
    }
    MPI_OK(MPI_Type_free(&vec));
    MPI_OK(MPI_Type_free(&idx));

    /* 3. Fetch_and_op on rank 0's mem[2N]: every ticket 0 .. p*ROUNDS-1 handed out once */
    MPI_OK(MPI_Win_fence(0, win));
    if (me == 0) {
        mem[2 * N] = 0;
    }
    MPI_OK(MPI_Win_fence(0, win));
    long long one = 1, ticket, tickets[ROUNDS];
    MPI_OK(MPI_Win_lock_all(0, win));
    for (int k = 0; k < ROUNDS; k++) {
        MPI_OK(MPI_Fetch_and_op(&one, &ticket, MPI_LONG_LONG, 0, 2 * N, MPI_SUM, win));
        tickets[k] = ticket;
        CHECK(ticket >= 0 && ticket < (long long)p * ROUNDS, "%s: ticket %lld", what, ticket);
        CHECK(k == 0 || ticket > tickets[k - 1], "%s: tickets not increasing", what);
    }
    MPI_OK(MPI_Fetch_and_op(NULL, &ticket, MPI_LONG_LONG, 0, 2 * N, MPI_NO_OP, win));
    MPI_OK(MPI_Win_unlock_all(win));
    long long *all = malloc(sizeof(long long) * (size_t)p * ROUNDS);
    MPI_OK(
        MPI_Allgather(tickets, ROUNDS, MPI_LONG_LONG, all, ROUNDS, MPI_LONG_LONG, MPI_COMM_WORLD));
    char *seen = calloc((size_t)p * ROUNDS, 1);
    for (int i = 0; i < p * ROUNDS; i++) {
        if (all[i] >= 0 && all[i] < (long long)p * ROUNDS) {
            CHECK(!seen[all[i]], "%s: ticket %lld handed out twice", what, all[i]);
            seen[all[i]] = 1;
        }
    }
    free(seen);
    free(all);

    /* 4. Compare_and_swap as a lock (rank 0's mem[2N+1]) around a get / put increment of
          rank 0's mem[2N+2], which is not atomic by itself */
    MPI_OK(MPI_Win_fence(0, win));
    if (me == 0) {
        mem[2 * N + 1] = 0;
        mem[2 * N + 2] = 0;
    }
    MPI_OK(MPI_Win_fence(0, win));
    MPI_OK(MPI_Win_lock_all(0, win));
    for (int k = 0; k < ROUNDS; k++) {
        long long zero = 0, mine = me + 1, old = -1, v;
        do {
            MPI_OK(MPI_Compare_and_swap(&mine, &zero, &old, MPI_LONG_LONG, 0, 2 * N + 1, win));
        } while (old != 0);
        MPI_OK(MPI_Get(&v, 1, MPI_LONG_LONG, 0, 2 * N + 2, 1, MPI_LONG_LONG, win));
        MPI_OK(MPI_Win_flush(0, win));
        v++;
        MPI_OK(MPI_Put(&v, 1, MPI_LONG_LONG, 0, 2 * N + 2, 1, MPI_LONG_LONG, win));
        MPI_OK(MPI_Win_flush(0, win));
        MPI_OK(MPI_Compare_and_swap(&zero, &mine, &old, MPI_LONG_LONG, 0, 2 * N + 1, win));
        CHECK(old == mine, "%s: the CAS lock held %lld, expected %lld", what, old, mine);
    }
    MPI_OK(MPI_Win_unlock_all(win));
    MPI_OK(MPI_Win_fence(0, win));
    if (me == 0) {
        CHECK(mem[2 * N + 2] == (long long)p * ROUNDS, "%s: CAS-locked counter %lld, expected %d",
              what, mem[2 * N + 2], p * ROUNDS);
    }

    /* 5. Get_accumulate: SUM fetches partial sums; REPLACE swaps; NO_OP reads */
    MPI_OK(MPI_Win_fence(0, win));
    mem[3 * N] = 0;
    MPI_OK(MPI_Win_fence(0, win));
    long long res = -1, mx = 0;
    MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, (me + 1) % p, 0, win));
    for (int k = 0; k < ROUNDS; k++) {
        long long a = 1;
        MPI_OK(MPI_Get_accumulate(&a, 1, MPI_LONG_LONG, &res, 1, MPI_LONG_LONG, (me + 1) % p, 3 * N,
                                  1, MPI_LONG_LONG, MPI_SUM, win));
        CHECK(res >= mx && res < ROUNDS, "%s: get_accumulate fetched %lld", what, res);
        mx = res + 1;
    }
    MPI_OK(MPI_Win_unlock((me + 1) % p, win));
    MPI_OK(MPI_Win_fence(0, win));
    CHECK(mem[3 * N] == ROUNDS, "%s: get_accumulate total %lld", what, mem[3 * N]);
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD)); /* read before the left neighbour replaces it */
    long long newv = 1000 + me;
    MPI_Request req;
    MPI_OK(MPI_Rget_accumulate(&newv, 1, MPI_LONG_LONG, &res, 1, MPI_LONG_LONG, (me + 1) % p, 3 * N,
                               1, MPI_LONG_LONG, MPI_REPLACE, win, &req));
    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(res == ROUNDS, "%s: REPLACE fetched %lld", what, res);
    MPI_OK(MPI_Win_fence(0, win));
    MPI_OK(MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, &res, 1, MPI_LONG_LONG, (me + 1) % p,
                              3 * N, 1, MPI_LONG_LONG, MPI_NO_OP, win));
    MPI_OK(MPI_Win_fence(0, win));
    CHECK(res == 1000 + me, "%s: NO_OP fetched %lld, expected %d", what, res, 1000 + me);

    /* 5b. Get_accumulate into a strided result: the old values of 4 elements land in
           every other slot of the result buffer */
    MPI_OK(MPI_Win_fence(0, win));
    for (int i = 0; i < 4; i++) {
        mem[3 * N + 8 + i] = 100 * me + i;
    }
    MPI_OK(MPI_Win_fence(0, win));
    long long four[4] = {1, 1, 1, 1}, strided[8];
    MPI_Datatype rvec;
    MPI_OK(MPI_Type_vector(4, 1, 2, MPI_LONG_LONG, &rvec));
    MPI_OK(MPI_Type_commit(&rvec));
    for (int i = 0; i < 8; i++) {
        strided[i] = -5;
    }
    MPI_OK(MPI_Get_accumulate(four, 4, MPI_LONG_LONG, strided, 1, rvec, (me + 1) % p, 3 * N + 8, 4,
                              MPI_LONG_LONG, MPI_SUM, win));
    MPI_OK(MPI_Win_fence(0, win));
    for (int i = 0; i < 8; i++) {
        long long exp = i % 2 ? -5 : 100 * ((me + 1) % p) + i / 2;
        CHECK(strided[i] == exp, "%s: strided result [%d]=%lld, expected %lld", what, i, strided[i],
              exp);
    }
    for (int i = 0; i < 4; i++) {
        CHECK(mem[3 * N + 8 + i] == 100 * me + i + 1, "%s: after get_accumulate [%d]=%lld", what, i,
              mem[3 * N + 8 + i]);
    }
    MPI_OK(MPI_Type_free(&rvec));

    /* 6. MAXLOC on MPI_2INT (pairs in the window's first bytes) and BXOR, Raccumulate */
    MPI_OK(MPI_Win_fence(0, win));
    int *pairs = (int *)(void *)&mem[3 * N + 2];
    pairs[0] = -1;
    pairs[1] = -1;
    mem[3 * N + 4] = 0;
    MPI_OK(MPI_Win_fence(0, win));
    int pr[2] = {(me * 7) % p, me};
    unsigned long long bit = 1ull << (me % 64);
    for (int t = 0; t < p; t++) {
        MPI_OK(MPI_Accumulate(pr, 1, MPI_2INT, t, 3 * N + 2, 1, MPI_2INT, MPI_MAXLOC, win));
        MPI_OK(MPI_Raccumulate(&bit, 1, MPI_UNSIGNED_LONG_LONG, t, 3 * N + 4, 1,
                               MPI_UNSIGNED_LONG_LONG, MPI_BXOR, win, &req));
        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }
    MPI_OK(MPI_Win_fence(0, win));
    int best = -1, where = -1;
    unsigned long long x = 0;
    for (int r = 0; r < p; r++) {
        int v = (r * 7) % p;
        if (v > best) {
            best = v;
            where = r;
        }
        x ^= 1ull << (r % 64);
    }
    CHECK(pairs[0] == best && pairs[1] == where, "%s: MAXLOC (%d,%d), expected (%d,%d)", what,
          pairs[0], pairs[1], best, where);
    CHECK((unsigned long long)mem[3 * N + 4] == x, "%s: BXOR %llx, expected %llx", what,
          (unsigned long long)mem[3 * N + 4], x);

    MPI_OK(MPI_Win_free(&win));
    if (flavor == MPI_WIN_FLAVOR_CREATE) {
        free(mem);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "rma_acc");
    run(MPI_WIN_FLAVOR_CREATE);
    run(MPI_WIN_FLAVOR_ALLOCATE);
    return mt_finish();
}
