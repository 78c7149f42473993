/*
 * rma_strided: one-sided transfers with strided (non-contiguous) datatypes on both
 * sides, and request-based transfers that overlap.
 *
 * 1. On a window of the user's memory (MPI_Win_create: single copy between the ranks)
 *    and on an allocated one (the shared segment), under MPI_Win_lock_all: each rank puts
 *    a strided origin (every other element) into a vector of its right neighbour
 *    (blocks of 2, stride 4), reads it back with MPI_Get and MPI_Rget into strided
 *    buffers, accumulates with MPI_Accumulate and MPI_Get_accumulate (SUM, a strided
 *    result) into a second vector, ROUNDS times; every value is checked against what it
 *    must be, and at the end the gaps between the target's blocks must be untouched.
 *    When the allocation counter (tests/mpi/alloc_count.c) is preloaded, the rounds after
 *    the first must allocate nothing on any rank: on compi's shared segment the two
 *    layouts are walked together, with no packed temporary.
 * 2. Request-based calls return before the target takes part: rank 1 waits outside MPI
 *    (a spin on a word of an MPI_Win_allocate_shared window) while rank 0 posts
 *    MPI_Rget, MPI_Rput, MPI_Raccumulate and MPI_Rget_accumulate towards it, and only
 *    then releases it.  Over compi's active messages (osc_transport=am; the window then
 *    has no shared memory, so MPI_Win_shared_query says MPI_ERR_RMA_FLAVOR) none of the
 *    requests may be complete before the release; if a call waited for the target, the
 *    program would hang (and fail on its time limit).
 */
#include "tests/mpi/mpitest.h"

#include <sched.h>

void compi_alloc_count_start(void) __attribute__((weak));
long compi_alloc_count_stop(long *frees) __attribute__((weak));

#define NV 16           /* blocks of the target vector */
#define NE (2 * NV)     /* elements moved per transfer */
#define REGION (4 * NV) /* one target vector's span, in elements */
#define ROUNDS 20
#define GAP (-7777LL) /* the gaps between the target's blocks */

static int have_counter;

/* element i of the target vector (blocks of 2, stride 4) */
static int tpos(int i)
{
    return i / 2 * 4 + i % 2;
}

static long long val(int src, int k, int i)
{
    return (long long)src * 100000 + k * 1000 + i;
}

static void strided(int flavor)
{
    const char *what = flavor == MPI_WIN_FLAVOR_CREATE ? "create" : "allocate";
    int p = mt_size, me = mt_rank, right = (me + 1) % p, left = (me + p - 1) % p;
    long long *mem;
    MPI_Win win;

    if (flavor == MPI_WIN_FLAVOR_CREATE) {
        mem = malloc(2 * REGION * sizeof(long long));
        MPI_OK(MPI_Win_create(mem, 2 * REGION * sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                              MPI_COMM_WORLD, &win));
    } else {
        MPI_OK(MPI_Win_allocate(2 * REGION * sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                                MPI_COMM_WORLD, &mem, &win));
    }
    MPI_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    for (int i = 0; i < 2 * REGION; i++) {
        mem[i] = GAP;
    }
    for (int i = 0; i < NE; i++) {
        mem[REGION + tpos(i)] = 0; /* the accumulated vector starts at zero */
    }
    MPI_Datatype ovec, tvec;
    MPI_OK(MPI_Type_vector(NE, 1, 2, MPI_LONG_LONG, &ovec)); /* every other element */
    MPI_OK(MPI_Type_vector(NV, 2, 4, MPI_LONG_LONG, &tvec));
    MPI_OK(MPI_Type_commit(&ovec));
    MPI_OK(MPI_Type_commit(&tvec));
    long long org[2 * NE], got[2 * NE], res[2 * NE], add[2 * NE];
    long allocs = 0;

    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_Win_lock_all(0, win));
    for (int k = 0; k < ROUNDS; k++) {
        if (k == 1 && have_counter) {
            compi_alloc_count_start();
        }
        for (int i = 0; i < 2 * NE; i++) {
            org[i] = i % 2 == 0 ? val(me, k, i / 2) : -1;
            add[i] = i % 2 == 0 ? i / 2 + 1 : -2;
            got[i] = res[i] = -3;
        }
        MPI_OK(MPI_Put(org, 1, ovec, right, 0, 1, tvec, win));
        MPI_OK(MPI_Win_flush(right, win));
        MPI_OK(MPI_Get(got, 1, ovec, right, 0, 1, tvec, win));
        MPI_OK(MPI_Win_flush(right, win));
        int bad = 0;
        for (int i = 0; i < 2 * NE; i++) {
            bad += got[i] != (i % 2 == 0 ? val(me, k, i / 2) : -3);
        }
        MPI_Request rq;
        for (int i = 0; i < 2 * NE; i++) {
            got[i] = -3;
        }
        MPI_OK(MPI_Rget(got, NE, MPI_LONG_LONG, right, 0, 1, tvec, win, &rq));
        MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        for (int i = 0; i < NE; i++) {
            bad += got[i] != val(me, k, i);
        }
        /* before this round the vector holds 2k * (i + 1); Accumulate adds (i + 1), and
           Get_accumulate fetches (2k + 1) * (i + 1) and adds (i + 1) again */
        MPI_OK(MPI_Accumulate(add, 1, ovec, right, REGION, 1, tvec, MPI_SUM, win));
        MPI_OK(MPI_Win_flush(right, win));
        MPI_OK(
            MPI_Get_accumulate(add, 1, ovec, res, 1, ovec, right, REGION, 1, tvec, MPI_SUM, win));
        MPI_OK(MPI_Win_flush(right, win));
        for (int i = 0; i < 2 * NE; i++) {
            bad += res[i] != (i % 2 == 0 ? (2LL * k + 1) * (i / 2 + 1) : -3);
        }
        CHECK(bad == 0, "%s: round %d: %d values read back from rank %d are wrong", what, k, bad,
              right);
        if (bad != 0) {
            break;
        }
    }
    if (have_counter) {
        allocs = compi_alloc_count_stop(NULL);
    }
    MPI_OK(MPI_Win_unlock_all(win));
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    /* this rank's memory, written by its left neighbour */
    int bad = 0;
    for (int i = 0; i < NE; i++) {
        bad += mem[tpos(i)] != val(left, ROUNDS - 1, i);
        bad += mem[REGION + tpos(i)] != 2LL * ROUNDS * (i + 1);
    }
    for (int j = 0; j < REGION; j++) {
        if (j % 4 >= 2) {
            bad += mem[j] != GAP;
            bad += mem[REGION + j] != GAP;
        }
    }
    CHECK(bad == 0, "%s: %d values of this rank's window are wrong (blocks or gaps)", what, bad);
    long total = 0;
    MPI_OK(MPI_Allreduce(&allocs, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
    if (have_counter && mt_rank == 0) {
        printf("# %s: %ld allocations in %d rounds of strided put, get, rget, accumulate, "
               "get_accumulate (all ranks)\n",
               what, total, ROUNDS - 1);
    }
    CHECK(total == 0, "%s: strided transfers allocated %ld times (all ranks)", what, total);
    MPI_OK(MPI_Type_free(&ovec));
    MPI_OK(MPI_Type_free(&tvec));
    MPI_OK(MPI_Win_free(&win));
    if (flavor == MPI_WIN_FLAVOR_CREATE) {
        free(mem);
    }
}

static void overlap(void)
{
    int me = mt_rank;
    MPI_Comm node;
    MPI_Win win, gw;
    long long *mem;
    int *go;

    MPI_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    int nsize;
    MPI_OK(MPI_Comm_size(node, &nsize));
    if (nsize != mt_size) {
        MPI_OK(MPI_Comm_free(&node));
        return; /* the release word needs every rank on one host */
    }
    MPI_OK(MPI_Win_allocate_shared(me == 0 ? sizeof(int) : 0, sizeof(int), MPI_INFO_NULL, node, &go,
                                   &gw));
    MPI_Aint gsz;
    int gdu;
    MPI_OK(MPI_Win_shared_query(gw, 0, &gsz, &gdu, &go));
    if (me == 0) {
        __atomic_store_n(go, 0, __ATOMIC_SEQ_CST);
    }
    MPI_OK(MPI_Win_allocate(4 * REGION * sizeof(long long), sizeof(long long), MPI_INFO_NULL,
                            MPI_COMM_WORLD, &mem, &win));
    MPI_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    for (int i = 0; i < 4 * REGION; i++) {
        mem[i] = me == 1 ? 10 * i : 0;
    }
    /* messages: no memory every rank maps */
    MPI_Aint qs;
    int qd;
    void *qb;
    int am = MPI_Win_shared_query(win, 1, &qs, &qd, &qb) != MPI_SUCCESS;
    MPI_Datatype ovec, tvec;
    MPI_OK(MPI_Type_vector(NE, 1, 2, MPI_LONG_LONG, &ovec));
    MPI_OK(MPI_Type_vector(NV, 2, 4, MPI_LONG_LONG, &tvec));
    MPI_OK(MPI_Type_commit(&ovec));
    MPI_OK(MPI_Type_commit(&tvec));
    MPI_OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    long long got[2 * NE], put[NE], add[NE], res[NE];
    if (me == 1) {
        /* outside MPI until rank 0 has posted everything */
        while (__atomic_load_n(go, __ATOMIC_ACQUIRE) == 0) {
            sched_yield();
        }
    } else if (me == 0) {
        MPI_Request rq[4];
        for (int i = 0; i < NE; i++) {
            got[2 * i] = got[2 * i + 1] = -1;
            put[i] = 5000 + i;
            add[i] = i;
            res[i] = -1;
        }
        MPI_OK(MPI_Rget(got, 1, ovec, 1, 0, 1, tvec, win, &rq[0]));
        MPI_OK(MPI_Rput(put, NE, MPI_LONG_LONG, 1, REGION, 1, tvec, win, &rq[1]));
        MPI_OK(
            MPI_Raccumulate(add, NE, MPI_LONG_LONG, 1, 2 * REGION, 1, tvec, MPI_SUM, win, &rq[2]));
        MPI_OK(MPI_Rget_accumulate(add, NE, MPI_LONG_LONG, res, NE, MPI_LONG_LONG, 1, 3 * REGION,
                                   NE, MPI_LONG_LONG, MPI_SUM, win, &rq[3]));
        int done = 0;
        for (int k = 0; k < 4; k++) {
            int flag = 0;
            MPI_OK(MPI_Test(&rq[k], &flag, MPI_STATUS_IGNORE));
            done += flag;
        }
#ifdef COMPI_VERSION_MAJOR
        CHECK(!am || done == 0,
              "over active messages %d of 4 request-based transfers completed while the "
              "target was outside MPI",
              done);
#endif
        __atomic_store_n(go, 1, __ATOMIC_RELEASE);
        MPI_OK(MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
        int bad = 0;
        for (int i = 0; i < NE; i++) {
            bad += got[2 * i] != 10LL * tpos(i) || got[2 * i + 1] != -1;
            bad += res[i] != 10LL * (3 * REGION + i);
        }
        CHECK(bad == 0, "%d values of MPI_Rget / MPI_Rget_accumulate are wrong", bad);
    }
    MPI_OK(MPI_Win_unlock_all(win));
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (me == 1) {
        int bad = 0;
        for (int i = 0; i < NE; i++) {
            bad += mem[REGION + tpos(i)] != 5000 + i;
            bad += mem[2 * REGION + tpos(i)] != 10LL * (2 * REGION + tpos(i)) + i;
            bad += mem[3 * REGION + i] != 10LL * (3 * REGION + i) + i;
        }
        CHECK(bad == 0, "%d values that MPI_Rput and the accumulates wrote are wrong", bad);
    }
    MPI_OK(MPI_Type_free(&ovec));
    MPI_OK(MPI_Type_free(&tvec));
    MPI_OK(MPI_Win_free(&win));
    MPI_OK(MPI_Win_free(&gw));
    MPI_OK(MPI_Comm_free(&node));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "rma_strided");
    have_counter = compi_alloc_count_start != NULL && compi_alloc_count_stop != NULL;
    const char *req = getenv("COMPI_ALLOC_COUNT_REQUIRED");
    if (!have_counter && req != NULL && strcmp(req, "1") == 0) {
        mt_fail(__FILE__, __LINE__,
                "COMPI_ALLOC_COUNT_REQUIRED=1 but the allocation counter "
                "(tests/mpi/.libs/alloc_count.so) is not preloaded");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    strided(MPI_WIN_FLAVOR_CREATE);
    strided(MPI_WIN_FLAVOR_ALLOCATE);
    if (mt_size >= 2) {
        overlap();
    }
    return mt_finish();
}
