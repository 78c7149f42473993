/*
 * create_group_threads: MPI_Comm_create_group from several threads at once on one
 * communicator, each thread with its own tag (MPI_THREAD_MULTIPLE).  Thread t of every
 * rank builds, ROUNDS times, a communicator over all of WORLD in an order of its own (a
 * rotation by t), so the calls' internal messages would meet the wrong call if they were
 * not kept apart by the tag.  Each new communicator has the rank and size its group says
 * and an allreduce over it sums the WORLD ranks; then it is freed.  Then (at 2 processes
 * and more) every thread builds intercommunicators between the two halves of WORLD (at 3
 * and more without one rank, another for each thread) with
 * MPI_Intercomm_create_from_groups, its own string tag and its own member orders, checked
 * by their sizes and an allreduce across.
 */
#include "tests/mpi/mpitest.h"

#include <pthread.h>
#include <stdio.h>

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
    /* WORLD without rank t (at 3 processes and more: each thread's calls have members of
       their own), in two halves, each in an order of this thread's */
    int out = mt_size >= 3 ? t % mt_size : -1, m = 0;
    int *rest = malloc((size_t)mt_size * sizeof(int));
    for (int i = 0; i < mt_size; i++) {
        if (i != out) {
            rest[m++] = i;
        }
    }
    int me = -1;
    for (int i = 0; i < m; i++) {
        me = rest[i] == mt_rank ? i : me;
    }
    int half = me >= m / 2, lo = m / 2, n[2] = {lo, m - lo};
    MPI_Group hg[2];
    for (int h = 0; h < 2; h++) {
        for (int i = 0; i < n[h]; i++) {
            ranks[i] = rest[(h ? lo : 0) + (i + t) % n[h]];
        }
        MPI_Group_incl(world, n[h], ranks, &hg[h]);
    }
    char tag[32];
    snprintf(tag, sizeof(tag), "thread-%d", t);
    for (int round = 0; round < ROUNDS && errs == 0 && me >= 0 && n[0] > 0; round++) {
        MPI_Comm ic;
        int rc = MPI_Intercomm_create_from_groups(hg[half], 0, hg[!half], 0, tag, MPI_INFO_NULL,
                                                  MPI_ERRORS_RETURN, &ic);
        if (rc != MPI_SUCCESS) {
            fprintf(stderr, "thread %d round %d: MPI_Intercomm_create_from_groups returned %d\n", t,
                    round, rc);
            errs++;
            break;
        }
        int rn = -1, sum = -1, want = 0;
        MPI_Comm_remote_size(ic, &rn);
        errs += rn != n[!half];
        for (int i = (half ? 0 : lo); i < (half ? lo : m); i++) {
            want += rest[i];
        }
        MPI_Allreduce(&mt_rank, &sum, 1, MPI_INT, MPI_SUM, ic);
        errs += sum != want;
        MPI_Comm_free(&ic);
    }
    free(rest);
    MPI_Group_free(&hg[0]);
    MPI_Group_free(&hg[1]);
    MPI_Group_free(&world);
    free(ranks);
    thread_errors[t] = errs;
    return NULL;
}

int main(int argc, char **argv)
{
    mt_init_level(&argc, &argv, "create_group_threads", 1);
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
