/*
 * nbc_overlap.c: where the time of a nonblocking collective goes while the program
 * computes, rank by rank.
 *
 *     pure:    t = Wtime; MPI_Ibcast (or MPI_Iallreduce); MPI_Wait          -> pure
 *     overlap: t = Wtime; MPI_I*                                           -> init
 *              10 x { compute pure / 10; MPI_Test }                        -> test
 *              MPI_Wait                                                    -> wait
 *
 * The computation is a busy loop of arithmetic timed piece by piece, like OSU's; the
 * time inside MPI (init + test + wait) against pure says how much of the collective the
 * computation hid on this rank: overlap = 1 - (init + test + wait) / pure, OSU's formula
 * without its averaging over ranks.  Also printed: the MPI_Test (1 .. tests) at which the
 * collective completed (tests + 1: only in MPI_Wait), which shows whether the transfer
 * moves while the program calls MPI_Test or waits for MPI_Wait.
 *
 * Every figure is the median over the iterations (pure: over its own loop), so that the
 * odd iteration in which another process takes the core does not decide it.
 *
 * Usage: nbc_overlap [-k bcast|allreduce] [-m max_bytes] [-i iters] [-t tests]
 * Output: one line per rank and size (rank 0 gathers them), times in usec.  Standard MPI
 * only; any number of ranks.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile double sink;

/* about `sec` seconds of arithmetic, in pieces short enough to stop near the target */
static void compute(double sec)
{
    double t0 = MPI_Wtime(), x = sink;
    while (MPI_Wtime() - t0 < sec) {
        for (int i = 0; i < 64; i++) {
            x = x * 0.999999 + 1.0;
        }
    }
    sink = x;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int start(int bcast, float *buf, float *out, int n, MPI_Request *req)
{
    if (bcast) {
        return MPI_Ibcast(buf, n, MPI_FLOAT, 0, MPI_COMM_WORLD, req);
    }
    return MPI_Iallreduce(buf, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, req);
}

int main(int argc, char **argv)
{
    int bcast = 1, iters = 100, ntests = 10, rank, size;
    long max = 1 << 20;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "-k") == 0) {
            bcast = strcmp(argv[i + 1], "allreduce") != 0;
        } else if (strcmp(argv[i], "-m") == 0) {
            max = atol(argv[i + 1]);
        } else if (strcmp(argv[i], "-i") == 0) {
            iters = atoi(argv[i + 1]);
        } else if (strcmp(argv[i], "-t") == 0) {
            ntests = atoi(argv[i + 1]);
        }
    }
    float *buf = malloc((size_t)max), *out = malloc((size_t)max);
    double *v = iters > 0 ? malloc(sizeof(double) * 6 * (size_t)iters) : NULL;
    if (buf == NULL || out == NULL || v == NULL) {
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(buf, 1, (size_t)max);
    memset(out, 0, (size_t)max);
    if (rank == 0) {
        printf("# %s, %d ranks, %d iterations, %d tests\n", bcast ? "MPI_Ibcast" : "MPI_Iallreduce",
               size, iters, ntests);
        printf("%-8s %4s %9s %9s %9s %9s %9s %8s %8s\n", "bytes", "rank", "pure", "init", "test",
               "wait", "overall", "overlap", "done_at");
    }
    for (long bytes = 4096; bytes <= max; bytes *= 2) {
        int n = (int)(bytes / (long)sizeof(float));
        MPI_Request req;
        double *pv = v, *iv = v + iters, *tv = v + 2 * iters, *wv = v + 3 * iters;
        double *ov = v + 4 * iters, *dv = v + 5 * iters;

        for (int it = -iters / 10; it < iters; it++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            start(bcast, buf, out, n, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            if (it >= 0) {
                pv[it] = MPI_Wtime() - t0;
            }
        }
        double pure = median(pv, iters);
        for (int it = -iters / 10; it < iters; it++) {
            double tt = 0;
            int flag = 0, at = ntests + 1;

            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            start(bcast, buf, out, n, &req);
            double t1 = MPI_Wtime();
            for (int k = 0; k < ntests; k++) {
                compute(pure / ntests);
                double a = MPI_Wtime();
                MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
                tt += MPI_Wtime() - a;
                if (flag && at > ntests) {
                    at = k + 1;
                }
            }
            double w = MPI_Wtime();
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            double t2 = MPI_Wtime();
            if (it >= 0) {
                iv[it] = t1 - t0;
                tv[it] = tt;
                wv[it] = t2 - w;
                ov[it] = t2 - t0;
                dv[it] = at;
            }
        }
        double row[7] = {pure, median(iv, iters), median(tv, iters), median(wv, iters),
                         median(ov, iters), 0.0, median(dv, iters)};
        row[5] = 100.0 * (1.0 - (row[1] + row[2] + row[3]) / pure);
        double *all = rank == 0 ? malloc(sizeof(row) * (size_t)size) : NULL;
        MPI_Gather(row, 7, MPI_DOUBLE, all, 7, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        for (int r = 0; rank == 0 && r < size; r++) {
            const double *v = all + 7 * r;
            printf("%-8ld %4d %9.2f %9.2f %9.2f %9.2f %9.2f %7.1f%% %8.2f\n", bytes, r, v[0] * 1e6,
                   v[1] * 1e6, v[2] * 1e6, v[3] * 1e6, v[4] * 1e6, v[5], v[6]);
        }
        free(all);
    }
    free(buf);
    free(out);
    free(v);
    MPI_Finalize();
    return 0;
}
