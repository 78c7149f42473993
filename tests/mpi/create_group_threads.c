/*
 * create_group_threads: MPI_Comm_create_group from several threads at once on one
 * communicator, each thread with its own tag (MPI_THREAD_MULTIPLE).  Thread t of every
 * rank builds, ROUNDS times, a communicator over all of WORLD in an order of its own (a
 * rotation by t), so the calls' internal messages would meet the wrong call if they were
 * not kept apart by the tag.  Each new communicator has the rank and size its group says
 * and an allreduce over it sums the WORLD ranks; then it is freed.
 */
#include "tests/mpi/mpitest.h"

#include <pthread.h>

#define NTHREADS 3
#define ROUNDS 10

static int thread_errors[NTHREADS];

static void *run(void *arg)
{
    int t = (int)(long)arg, errs = 0;
    MPI_Group world, g;
    int *ranks = malloc((size_t)mt_size * sizeof(int));
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    for (int i = 0; i < mt_size; i++) {
        ranks[i] = (i + t) % mt_size;
    }
    MPI_Group_incl(world, mt_size, ranks, &g);
    for (int round = 0; round < ROUNDS && errs == 0; round++) {
        MPI_Comm c;
        int rc = MPI_Comm_create_group(MPI_COMM_WORLD, g, 100 + t, &c);
        if (rc != MPI_SUCCESS || c == MPI_COMM_NULL) {
            fprintf(stderr, "thread %d round %d: MPI_Comm_create_group returned %d\n", t, round,
                    rc);
            errs++;
            break;
        }
        int r, n, sum = -1, want = mt_size * (mt_size - 1) / 2;
        MPI_Comm_rank(c, &r);
        MPI_Comm_size(c, &n);
        errs += r != (mt_rank - t + mt_size) % mt_size || n != mt_size;
        MPI_Allreduce(&mt_rank, &sum, 1, MPI_INT, MPI_SUM, c);
        errs += sum != want;
        MPI_Comm_free(&c);
    }
    MPI_Group_free(&g);
    MPI_Group_free(&world);
    free(ranks);
    thread_errors[t] = errs;
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    mt_name = "create_group_threads";
    MPI_OK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank));
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &mt_size));
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &mt_sync_comm));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    pthread_t th[NTHREADS];
    for (long t = 0; t < NTHREADS; t++) {
        CHECK(pthread_create(&th[t], NULL, run, (void *)t) == 0, "pthread_create");
    }
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        CHECK(thread_errors[t] == 0, "thread %d: %d failures", t, thread_errors[t]);
    }
    return mt_finish();
}
