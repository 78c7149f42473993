/*
 * miss_cost: what a closure-cache miss costs, for comparing compi with and without the
 * agreement at the miss (coll_check_determinism 1, the default, or 0).
 *
 * Each trial duplicates MPI_COMM_WORLD (a new communicator: an empty cache) and on it
 * calls MPI_Bcast of 1, 2, ... N ints from root 0: N distinct keys, so N misses.  Then the
 * same N calls again: N hits.  (miss pass - hit pass) / N is the cost of one miss beyond
 * the bcast itself: the creators in Guile, the closure's construction and, when on, the
 * agreement round.  A second loop times MPI_Comm_dup + one 8 B MPI_Allreduce (a miss on
 * the new communicator) + MPI_Comm_free, per iteration.
 *
 * The call's mode (-m): b, MPI_Bcast (default); n, MPI_Ibcast then MPI_Wait (a miss
 * agrees in the first round of the bcast's own schedule); p, MPI_Bcast_init, MPI_Start
 * and MPI_Wait twice, MPI_Request_free (the first start of each request agrees, a
 * cached key's too): "miss" and "hit" are then the init and both starts of a new and of
 * a cached key, and start2_usec the second start alone (no agreement), over the hit pass.
 *
 * Standard MPI only; rank 0 prints the medians over trials:
 *   miss_cost,np=4,mode=b,keys=100,miss_usec=...,hit_usec=...,extra_per_miss_usec=...,
 *   start2_usec=...,dup_loop_usec=...
 * Options: -n keys (default 100; under coll_cache_size / 4 * 3 to avoid evictions),
 * -t trials (default 11), -d dup iterations per trial (default 50), -m mode.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* one bcast of n ints in mode m; the time of a persistent request's second start added
   to *start2 */
static void bcast(char m, int *buf, int n, MPI_Comm c, double *start2)
{
    MPI_Request req;
    if (m == 'b') {
        MPI_Bcast(buf, n, MPI_INT, 0, c);
    } else if (m == 'n') {
        MPI_Ibcast(buf, n, MPI_INT, 0, c, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_Bcast_init(buf, n, MPI_INT, 0, c, MPI_INFO_NULL, &req);
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        double t0 = MPI_Wtime();
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        *start2 += MPI_Wtime() - t0;
        MPI_Request_free(&req);
    }
}

int main(int argc, char **argv)
{
    int keys = 100, trials = 11, dups = 50, rank, size, opt;
    char mode = 'b';

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    while ((opt = getopt(argc, argv, "n:t:d:m:")) != -1) {
        if (opt == 'n')
            keys = atoi(optarg);
        else if (opt == 't')
            trials = atoi(optarg);
        else if (opt == 'd')
            dups = atoi(optarg);
        else if (opt == 'm')
            mode = optarg[0];
    }
    int *buf = calloc((size_t)keys + 1, sizeof(int));
    double *miss = malloc(sizeof(double) * (size_t)trials);
    double *hit = malloc(sizeof(double) * (size_t)trials);
    double *extra = malloc(sizeof(double) * (size_t)trials);
    double *dup = malloc(sizeof(double) * (size_t)trials);
    double *second = malloc(sizeof(double) * (size_t)trials);

    for (int t = 0; t < trials; t++) {
        MPI_Comm c;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Barrier(c);
        double s2 = 0, t0 = MPI_Wtime();
        for (int n = 1; n <= keys; n++)
            bcast(mode, buf, n, c, &s2);
        double t1 = MPI_Wtime();
        s2 = 0;
        for (int n = 1; n <= keys; n++)
            bcast(mode, buf, n, c, &s2);
        double t2 = MPI_Wtime();
        MPI_Comm_free(&c);
        second[t] = s2 / keys * 1e6;
        miss[t] = (t1 - t0) / keys * 1e6;
        hit[t] = (t2 - t1) / keys * 1e6;
        extra[t] = miss[t] - hit[t];

        MPI_Barrier(MPI_COMM_WORLD);
        double t3 = MPI_Wtime();
        for (int i = 0; i < dups; i++) {
            double x = 1, y;
            MPI_Comm_dup(MPI_COMM_WORLD, &c);
            MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, c);
            MPI_Comm_free(&c);
        }
        dup[t] = (MPI_Wtime() - t3) / dups * 1e6;
    }
    if (rank == 0)
        printf("miss_cost,np=%d,mode=%c,keys=%d,trials=%d,miss_usec=%.2f,hit_usec=%.2f,"
               "extra_per_miss_usec=%.2f,start2_usec=%.2f,dup_loop_usec=%.2f\n",
               size, mode, keys, trials, median(miss, trials), median(hit, trials),
               median(extra, trials), median(second, trials), median(dup, trials));
    free(buf);
    free(miss);
    free(hit);
    free(extra);
    free(dup);
    free(second);
    MPI_Finalize();
    return 0;
}
