/*
 * idup_threads: communicator constructors on one thread while other threads run
 * collectives and constructors on other communicators (MPI_THREAD_MULTIPLE).  Thread 0
 * of every rank, ROUNDS times: BURST MPI_Comm_idup of its own communicator at once (more
 * than its pool holds, so most agree on their ids without waiting) and Waitall, an
 * allreduce on the last one; MPI_Intercomm_create between the halves of its communicator
 * and MPI_Intercomm_merge of it, an allreduce on the merged one.  Threads 1..3, on
 * communicators of their own: blocking and nonblocking allreduces, a bcast, a barrier and
 * a blocking MPI_Comm_dup (its agreement beside thread 0's) per round.  Every result
 * checked; a deadlock is the time limit.
 */
#include "tests/mpi/mpitest.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 4
#define ROUNDS 20
#define BURST 40

static int thread_errors[NTHREADS];
static MPI_Comm comms[NTHREADS];

#define TCHECK(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "rank %d thread %d: ", mt_rank, t);                                    \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            errs++;                                                                                \
        }                                                                                          \
    } while (0)

static int sum_of_ranks(MPI_Comm c)
{
    int size;
    MPI_Comm_size(c, &size);
    return size * (size - 1) / 2;
}

static int constructors(int t, MPI_Comm c)
{
    int errs = 0, sum = -1, me;
    MPI_Comm made[BURST];
    MPI_Request rq[BURST];

    MPI_Comm_rank(c, &me);
    for (int round = 0; round < ROUNDS && errs == 0; round++) {
        for (int i = 0; i < BURST; i++) {
            if (MPI_Comm_idup(c, &made[i], &rq[i]) != MPI_SUCCESS) {
                TCHECK(0, "round %d: MPI_Comm_idup %d failed", round, i);
                return errs;
            }
        }
        TCHECK(MPI_Waitall(BURST, rq, MPI_STATUSES_IGNORE) == MPI_SUCCESS, "Waitall");
        MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, made[BURST - 1]);
        TCHECK(sum == sum_of_ranks(c), "round %d: allreduce on an idup: %d", round, sum);
        for (int i = 0; i < BURST; i++) {
            MPI_Comm_free(&made[i]);
        }
        if (mt_size < 2) {
            continue;
        }
        MPI_Comm half, inter, merged;
        int low = me < mt_size / 2, mr = -1;
        MPI_Comm_split(c, low, me, &half);
        TCHECK(MPI_Intercomm_create(half, 0, c, low ? mt_size / 2 : 0, 7, &inter) == MPI_SUCCESS,
               "round %d: Intercomm_create", round);
        TCHECK(MPI_Intercomm_merge(inter, !low, &merged) == MPI_SUCCESS, "Intercomm_merge");
        MPI_Comm_rank(merged, &mr);
        TCHECK(mr == me, "round %d: merged rank %d, expected %d", round, mr, me);
        MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, merged);
        TCHECK(sum == sum_of_ranks(c), "round %d: allreduce on the merged one: %d", round, sum);
        MPI_Comm_free(&merged);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
    return errs;
}

static int collectives(int t, MPI_Comm c)
{
    int errs = 0, me, sum = -1, v;
    MPI_Request r;

    MPI_Comm_rank(c, &me);
    for (int round = 0; round < 5 * ROUNDS && errs == 0; round++) {
        MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c);
        TCHECK(sum == sum_of_ranks(c), "round %d: allreduce %d", round, sum);
        MPI_Iallreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        TCHECK(sum == sum_of_ranks(c), "round %d: iallreduce %d", round, sum);
        v = me == round % mt_size ? 1000 * t + round : -1;
        MPI_Bcast(&v, 1, MPI_INT, round % mt_size, c);
        TCHECK(v == 1000 * t + round, "round %d: bcast %d", round, v);
        MPI_Barrier(c);
        if (round % 5 == 0) {
            MPI_Comm d;
            TCHECK(MPI_Comm_dup(c, &d) == MPI_SUCCESS, "round %d: dup", round);
            MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, d);
            TCHECK(sum == sum_of_ranks(c), "round %d: allreduce on a dup %d", round, sum);
            MPI_Comm_free(&d);
        }
    }
    return errs;
}

static void *run(void *arg)
{
    int t = (int)(long)arg;
    thread_errors[t] = t == 0 ? constructors(t, comms[t]) : collectives(t, comms[t]);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t th[NTHREADS];

    mt_init_level(&argc, &argv, "idup_threads", 1);
    for (int t = 0; t < NTHREADS; t++) {
        MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]));
        MPI_OK(MPI_Comm_set_errhandler(comms[t], MPI_ERRORS_RETURN));
    }
    for (long t = 0; t < NTHREADS; t++) {
        CHECK(pthread_create(&th[t], NULL, run, (void *)t) == 0, "pthread_create");
    }
    for (int t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        CHECK(thread_errors[t] == 0, "thread %d: %d failure(s)", t, thread_errors[t]);
    }
    for (int t = 0; t < NTHREADS; t++) {
        MPI_OK(MPI_Comm_free(&comms[t]));
    }
    return mt_finish();
}
