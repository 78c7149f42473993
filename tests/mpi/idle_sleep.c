/*
 * idle_sleep: on a host with more ranks than processors, a rank blocked in MPI waits
 * without using the processor.  Rank 0 stays out of MPI for a second while every other
 * rank waits for its message (MPI_Recv on odd ranks, MPI_Irecv and MPI_Wait on even
 * ones), then again in MPI_Barrier; each waiter must have used under 0.05 s of CPU
 * time meanwhile.  A waiter that sleeps uses a few milliseconds; one that polls and
 * yields takes its share of the processors (0.1-0.3 s of the second for 7 waiters on 2
 * processors, by the load).
 * The token then goes round a ring 200 times, the ranks waiting between their turns,
 * and must arrive intact.  When the host has a processor for every rank the CPU check
 * is skipped: waiting ranks spin then.
 * With the argument "multiple" the program runs at MPI_THREAD_MULTIPLE (as mpi4py's do by
 * default): the waits must sleep all the same, and on rank 1 a second thread calls MPI
 * (MPI_Sendrecv on MPI_COMM_SELF, 200 times) while the first waits asleep holding the
 * library's lock, which must let it in.  The CPU counted is the waiting thread's.
 */
#define _POSIX_C_SOURCE 200809L

#include "tests/mpi/mpitest.h"

#include <pthread.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* the calling thread's CPU time */
static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_THREAD, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
           ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e-6;
}

/* the second thread of rank 1 (multiple): MPI calls while the first thread waits */
static void *side_calls(void *arg)
{
    (void)arg;
    struct timespec ts = {.tv_sec = 0, .tv_nsec = 200 * 1000 * 1000};
    while (nanosleep(&ts, &ts) != 0) {
    }
    for (int i = 0; i < 200; i++) {
        int out = i, in = -1;
        MPI_OK(MPI_Sendrecv(&out, 1, MPI_INT, 0, 3, &in, 1, MPI_INT, 0, 3, MPI_COMM_SELF,
                            MPI_STATUS_IGNORE));
        CHECK(in == i, "second thread: MPI_Sendrecv on MPI_COMM_SELF got %d, expected %d", in, i);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int token = 0;
    int multiple = argc > 1 && strcmp(argv[1], "multiple") == 0;
    pthread_t side;

    mt_init_level(&argc, &argv, "idle_sleep", multiple);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int oversubscribed = ncpu > 0 && mt_size > ncpu;

    mt_barrier(MPI_COMM_WORLD);
    if (mt_rank == 0) {
        struct timespec ts = {.tv_sec = 1, .tv_nsec = 0};
        while (nanosleep(&ts, &ts) != 0) {
        }
        for (int r = 1; r < mt_size; r++) {
            token = 1000 + r;
            MPI_OK(MPI_Send(&token, 1, MPI_INT, r, 1, MPI_COMM_WORLD));
        }
    } else {
        if (multiple && mt_rank == 1) {
            CHECK(pthread_create(&side, NULL, side_calls, NULL) == 0, "pthread_create");
        }
        double t0 = cpu_seconds();
        if (mt_rank % 2) {
            MPI_OK(MPI_Recv(&token, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            MPI_Request req;
            MPI_OK(MPI_Irecv(&token, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &req));
            MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        }
        double used = cpu_seconds() - t0;
        CHECK(token == 1000 + mt_rank, "got %d from rank 0, expected %d", token, 1000 + mt_rank);
        if (oversubscribed) {
            CHECK(used < 0.05, "waiting 1 s for rank 0 used %.3f s of CPU (%d ranks, %ld CPUs)",
                  used, mt_size, ncpu);
        }
        if (multiple && mt_rank == 1) {
            CHECK(pthread_join(side, NULL) == 0, "pthread_join");
        }
    }

    /* the same in a barrier (on one host, the shared-memory barrier: its ranks wait for
       flags, not messages) */
    double t0 = cpu_seconds();
    if (mt_rank == 0) {
        struct timespec ts = {.tv_sec = 1, .tv_nsec = 0};
        while (nanosleep(&ts, &ts) != 0) {
        }
    }
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    double used = cpu_seconds() - t0;
    if (oversubscribed && mt_rank != 0) {
        CHECK(used < 0.05, "waiting 1 s in MPI_Barrier used %.3f s of CPU (%d ranks, %ld CPUs)",
              used, mt_size, ncpu);
    }

    /* a token round the ring: every rank but one waits at any time */
    int right = (mt_rank + 1) % mt_size, left = (mt_rank + mt_size - 1) % mt_size;
    for (int i = 0; i < 200 && mt_size > 1; i++) {
        if (mt_rank == 0) {
            token = i;
            MPI_OK(MPI_Send(&token, 1, MPI_INT, right, 2, MPI_COMM_WORLD));
            MPI_OK(MPI_Recv(&token, 1, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(token == i + mt_size - 1, "round %d: token %d, expected %d", i, token,
                  i + mt_size - 1);
        } else {
            MPI_OK(MPI_Recv(&token, 1, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(token == i + mt_rank - 1, "round %d: token %d, expected %d", i, token,
                  i + mt_rank - 1);
            token++;
            MPI_OK(MPI_Send(&token, 1, MPI_INT, right, 2, MPI_COMM_WORLD));
        }
    }
    return mt_finish();
}
