/*
 * intercomm_alloc.c -- a collective on an intercommunicator served by its cached closure
 * allocates nothing: every blocking kind intercommunicators have, rooted ones from each
 * side, at 8 B and 64 KiB a block (eager and rendezvous), on an intercommunicator of the
 * two halves of WORLD.  After WARM calls (the miss, and the pools' steady state) the
 * allocations of ITERS calls are counted by tests/mpi/alloc_count.c, which coll_alloc.sh
 * preloads; rank 0 prints one line per kind and size, and any allocation fails the test.
 * The contents are checked by intercomm_coll.c; here only the allocations.  With the
 * argument nbc the calls are the nonblocking ones (their schedules), each waited for.
 * Without the counter the loops still run (COMPI_ALLOC_COUNT_REQUIRED=1 makes that a
 * failure).  np 1: nothing to do.
 */
#include "tests/mpi/mpitest.h"

#include <stdlib.h>
#include <string.h>

#define WARM 10
#define ITERS 50
#define PACE 8

void compi_alloc_count_start(void) __attribute__((weak));
long compi_alloc_count_stop(long *frees) __attribute__((weak));

enum {
    K_BARRIER, K_BCAST, K_REDUCE, K_ALLREDUCE, K_GATHER, K_GATHERV, K_SCATTER, K_SCATTERV,
    K_ALLGATHER, K_ALLGATHERV, K_ALLTOALL, K_ALLTOALLV, K_ALLTOALLW, K_REDUCE_SCATTER,
    K_REDUCE_SCATTER_BLOCK, K_N
};
static const char *const names[K_N] = {
    "barrier", "bcast", "reduce", "allreduce", "gather", "gatherv", "scatter", "scatterv",
    "allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw", "reduce-scatter",
    "reduce-scatter-block"};

static MPI_Comm inter;
static int nbc; /* the argument nbc: MPI_I... and MPI_Wait */
#define COLL(blocking, nonblocking)                                                           \
    do {                                                                                      \
        MPI_Request r_;                                                                       \
        if (nbc) {                                                                            \
            MPI_OK(nonblocking);                                                              \
            MPI_OK(MPI_Wait(&r_, MPI_STATUS_IGNORE));                                         \
        } else {                                                                              \
            MPI_OK(blocking);                                                                 \
        }                                                                                     \
    } while (0)
static int side, lrank, ln, rn, have_counter, failures;
static int *sb, *rb, *cnt, *dsp, *bdsp, *lcnt;
static MPI_Datatype *types;

/* one call of kind k with n ints a block; root: group 0's rank 0 (`from` flips it) */
static void issue(int k, int n, int from)
{
    int root = side == from ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    for (int i = 0; i < rn; i++) {
        cnt[i] = n;
        dsp[i] = i * n;
        bdsp[i] = i * n * (int)sizeof(int);
    }
    switch (k) {
    case K_BARRIER:
        COLL(MPI_Barrier(inter),
             MPI_Ibarrier(inter, &r_));
        break;
    case K_BCAST:
        COLL(MPI_Bcast(sb, n, MPI_INT, root, inter),
             MPI_Ibcast(sb, n, MPI_INT, root, inter, &r_));
        break;
    case K_REDUCE:
        COLL(MPI_Reduce(sb, rb, n, MPI_INT, MPI_SUM, root, inter),
             MPI_Ireduce(sb, rb, n, MPI_INT, MPI_SUM, root, inter, &r_));
        break;
    case K_ALLREDUCE:
        COLL(MPI_Allreduce(sb, rb, n, MPI_INT, MPI_SUM, inter),
             MPI_Iallreduce(sb, rb, n, MPI_INT, MPI_SUM, inter, &r_));
        break;
    case K_GATHER:
        COLL(MPI_Gather(sb, n, MPI_INT, rb, n, MPI_INT, root, inter),
             MPI_Igather(sb, n, MPI_INT, rb, n, MPI_INT, root, inter, &r_));
        break;
    case K_GATHERV:
        COLL(MPI_Gatherv(sb, n, MPI_INT, rb, cnt, dsp, MPI_INT, root, inter),
             MPI_Igatherv(sb, n, MPI_INT, rb, cnt, dsp, MPI_INT, root, inter, &r_));
        break;
    case K_SCATTER:
        COLL(MPI_Scatter(sb, n, MPI_INT, rb, n, MPI_INT, root, inter),
             MPI_Iscatter(sb, n, MPI_INT, rb, n, MPI_INT, root, inter, &r_));
        break;
    case K_SCATTERV:
        COLL(MPI_Scatterv(sb, cnt, dsp, MPI_INT, rb, n, MPI_INT, root, inter),
             MPI_Iscatterv(sb, cnt, dsp, MPI_INT, rb, n, MPI_INT, root, inter, &r_));
        break;
    case K_ALLGATHER:
        COLL(MPI_Allgather(sb, n, MPI_INT, rb, n, MPI_INT, inter),
             MPI_Iallgather(sb, n, MPI_INT, rb, n, MPI_INT, inter, &r_));
        break;
    case K_ALLGATHERV:
        COLL(MPI_Allgatherv(sb, n, MPI_INT, rb, cnt, dsp, MPI_INT, inter),
             MPI_Iallgatherv(sb, n, MPI_INT, rb, cnt, dsp, MPI_INT, inter, &r_));
        break;
    case K_ALLTOALL:
        COLL(MPI_Alltoall(sb, n, MPI_INT, rb, n, MPI_INT, inter),
             MPI_Ialltoall(sb, n, MPI_INT, rb, n, MPI_INT, inter, &r_));
        break;
    case K_ALLTOALLV:
        COLL(MPI_Alltoallv(sb, cnt, dsp, MPI_INT, rb, cnt, dsp, MPI_INT, inter),
             MPI_Ialltoallv(sb, cnt, dsp, MPI_INT, rb, cnt, dsp, MPI_INT, inter, &r_));
        break;
    case K_ALLTOALLW:
        COLL(MPI_Alltoallw(sb, cnt, bdsp, types, rb, cnt, bdsp, types, inter),
             MPI_Ialltoallw(sb, cnt, bdsp, types, rb, cnt, bdsp, types, inter, &r_));
        break;
    case K_REDUCE_SCATTER:
        /* n * size elements in all, the same on both sides, spread over the local group */
        for (int i = 0; i < ln; i++) {
            lcnt[i] = n * mt_size / ln + (i < n * mt_size % ln);
        }
        COLL(MPI_Reduce_scatter(sb, rb, lcnt, MPI_INT, MPI_SUM, inter),
             MPI_Ireduce_scatter(sb, rb, lcnt, MPI_INT, MPI_SUM, inter, &r_));
        break;
    case K_REDUCE_SCATTER_BLOCK:
        COLL(MPI_Reduce_scatter_block(sb, rb, n, MPI_INT, MPI_SUM, inter),
             MPI_Ireduce_scatter_block(sb, rb, n, MPI_INT, MPI_SUM, inter, &r_));
        break;
    }
}

static void count_one(int k, int n, int from)
{
    long allocs = 0, worst = 0, total = 0;
    for (int it = 0; it < WARM + ITERS; it++) {
        if (it % PACE == 0 || it == WARM) {
            MPI_OK(MPI_Barrier(MPI_COMM_WORLD)); /* bounds how far eager senders run ahead */
        }
        if (it == WARM && have_counter) {
            compi_alloc_count_start();
        }
        issue(k, n, from);
    }
    if (have_counter) {
        allocs = compi_alloc_count_stop(NULL);
    }
    MPI_OK(MPI_Reduce(&allocs, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
    MPI_OK(MPI_Reduce(&allocs, &worst, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD));
    if (mt_rank == 0 && have_counter) {
        printf("# %-21s root group %d %7zu B: %ld allocations in %d calls (all ranks)\n",
               names[k], from, (size_t)n * sizeof(int), total, ITERS);
        if (worst > 0) {
            printf("FAIL intercomm_alloc: %s %zu B allocates\n", names[k],
                   (size_t)n * sizeof(int));
            failures++;
        }
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "intercomm_alloc");
    nbc = argc > 1 && strcmp(argv[1], "nbc") == 0;
    have_counter = compi_alloc_count_start != NULL && compi_alloc_count_stop != NULL;
    const char *req = getenv("COMPI_ALLOC_COUNT_REQUIRED");
    if (!have_counter && req != NULL && strcmp(req, "1") == 0) {
        mt_fail(__FILE__, __LINE__, "COMPI_ALLOC_COUNT_REQUIRED=1 but the allocation counter "
                                    "is not preloaded");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (mt_size >= 2) {
        MPI_Comm half;
        side = mt_rank >= mt_size / 2;
        ln = side ? mt_size - mt_size / 2 : mt_size / 2;
        rn = mt_size - ln;
        MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, side, 0, &half));
        MPI_OK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, side ? 0 : mt_size / 2, 1, &inter));
        MPI_OK(MPI_Comm_rank(inter, &lrank));
        size_t most = 16384 * (size_t)(mt_size + 1);
        sb = mt_malloc(most * sizeof(int));
        rb = mt_malloc(most * sizeof(int));
        memset(sb, 1, most * sizeof(int));
        cnt = mt_malloc(sizeof(int) * (size_t)mt_size);
        dsp = mt_malloc(sizeof(int) * (size_t)mt_size);
        bdsp = mt_malloc(sizeof(int) * (size_t)mt_size);
        lcnt = mt_malloc(sizeof(int) * (size_t)mt_size);
        types = mt_malloc(sizeof(MPI_Datatype) * (size_t)mt_size);
        for (int i = 0; i < mt_size; i++) {
            types[i] = MPI_INT;
        }
        const int sizes[] = {2, 16384};
        for (int k = 0; k < K_N; k++) {
            if (k == K_REDUCE_SCATTER_BLOCK && ln != rn) {
                continue; /* the block form needs the same total on both sides */
            }
            for (int s = 0; s < 2; s++) {
                count_one(k, sizes[s], 0);
                if (k == K_BCAST || k == K_REDUCE || k == K_GATHER || k == K_SCATTER) {
                    count_one(k, sizes[s], 1);
                }
            }
        }
        CHECK(failures == 0, "%d kinds and sizes allocate on a cache hit", failures);
        free(sb); free(rb); free(cnt); free(dsp); free(bdsp); free(lcnt); free(types);
        MPI_OK(MPI_Comm_free(&inter));
        MPI_OK(MPI_Comm_free(&half));
    } else if (mt_rank == 0) {
        printf("# one process: no intercommunicator\n");
    }
    return mt_finish();
}
