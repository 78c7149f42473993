/*
 * spawn_dup_threads: at MPI_THREAD_MULTIPLE, ROUNDS times, the parents spawn two children
 * and both sides merge the intercommunicator, both with high = 0 (the order of the groups
 * is then the library's, and must be the same at every member: it was not between a
 * world and its spawned one), dup the merged communicator and allreduce on the dup (its
 * first collective makes its shared segment), then dup the
 * intercommunicator and allreduce over that dup, and disconnect.  Meanwhile a second
 * thread of every parent and of every child dups a communicator of its own and
 * allreduces on each dup (segments of their own made at the same time).
 */
#include "tests/mpi/mpitest.h"

#include <pthread.h>
#include <string.h>

#define ROUNDS 4
#define NCHILD 2
#define SIDE_DUPS 30

static MPI_Comm side;
static int side_errors;

static void *side_dups(void *arg)
{
    int r, n, sum = -1;

    (void)arg;
    MPI_Comm_rank(side, &r);
    MPI_Comm_size(side, &n);
    for (int i = 0; i < SIDE_DUPS; i++) {
        MPI_Comm d;
        MPI_Comm_dup(side, &d);
        MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, d);
        if (sum != n * (n - 1) / 2) {
            fprintf(stderr, "rank %d: allreduce on a side dup gave %d\n", r, sum);
            side_errors++;
        }
        MPI_Comm_free(&d);
    }
    return NULL;
}

/* the merged communicator's dup and the intercommunicator's dup, an allreduce on each */
static int run(MPI_Comm ic)
{
    MPI_Comm merged, dup, idup;
    int errs = 0, r, n, rsize, one = 1, sum = -1;

    MPI_OK(MPI_Intercomm_merge(ic, 0, &merged));
    MPI_OK(MPI_Comm_dup(merged, &dup));
    MPI_OK(MPI_Comm_rank(dup, &r));
    MPI_OK(MPI_Comm_size(dup, &n));
    MPI_OK(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, dup));
    if (sum != n * (n - 1) / 2) {
        fprintf(stderr, "allreduce on the merged dup: %d, expected %d\n", sum, n * (n - 1) / 2);
        errs++;
    }
    MPI_OK(MPI_Comm_dup(ic, &idup));
    MPI_OK(MPI_Comm_remote_size(idup, &rsize));
    MPI_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, idup));
    if (sum != rsize) {
        fprintf(stderr, "allreduce over the intercommunicator's dup: %d, expected %d\n", sum,
                rsize);
        errs++;
    }
    MPI_OK(MPI_Comm_free(&idup));
    MPI_OK(MPI_Comm_free(&dup));
    MPI_OK(MPI_Comm_free(&merged));
    MPI_OK(MPI_Comm_disconnect(&ic));
    return errs;
}

int main(int argc, char **argv)
{
    MPI_Comm parent;
    pthread_t th;
    int provided, errs;

    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        mt_name = "spawn_dup_threads-child";
        MPI_OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
        MPI_OK(MPI_Comm_get_parent(&parent));
        MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &side));
        CHECK(pthread_create(&th, NULL, side_dups, NULL) == 0, "pthread_create");
        errs = run(parent);
        pthread_join(th, NULL);
        MPI_OK(MPI_Comm_free(&side));
        MPI_OK(MPI_Finalize());
        return errs + side_errors + mt_errors != 0;
    }
    mt_init_level(&argc, &argv, "spawn_dup_threads", 1);
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &side));
    CHECK(pthread_create(&th, NULL, side_dups, NULL) == 0, "pthread_create");
    char *args[] = {"child", NULL};
    for (int round = 0; round < ROUNDS; round++) {
        MPI_Comm ic;
        MPI_OK(MPI_Comm_spawn(argv[0], args, NCHILD, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                              MPI_ERRCODES_IGNORE));
        mt_errors += run(ic);
    }
    pthread_join(th, NULL);
    CHECK(side_errors == 0, "%d failure(s) on the side dups", side_errors);
    MPI_OK(MPI_Comm_free(&side));
    return mt_finish();
}
