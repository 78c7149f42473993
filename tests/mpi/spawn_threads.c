/*
 * spawn_threads: MPI_Comm_spawn and MPI_Comm_disconnect on one thread while another
 * makes communicators (MPI_THREAD_MULTIPLE).  The parents' main thread, ROUNDS times,
 * spawns two children, receives with MPI_ANY_SOURCE the value child 0 sends with
 * MPI_Ssend, and disconnects; the children disconnect and finalize at once.  Meanwhile a
 * second thread of every parent dups a communicator of its own, passes ranks round a ring
 * on the dup and frees it, over and over: the spawn's context id must never be one the dups take
 * (two communicators on one id crashed at the free or hung in the disconnect).
 */
#include "tests/mpi/mpitest.h"

#include <pthread.h>
#include <stdio.h>

#define ROUNDS 6
#define NCHILD 2

static MPI_Comm side;
static int side_errors;

static void *dups(void *arg)
{
    int r, n, sum;

    (void)arg;
    MPI_Comm_rank(side, &r);
    MPI_Comm_size(side, &n);
    /* every parent runs as many rounds: the dups are collective over `side` */
    for (int i = 0; i < 100; i++) {
        MPI_Comm d;
        MPI_Comm_dup(side, &d);
        MPI_Sendrecv(&r, 1, MPI_INT, (r + 1) % n, 1, &sum, 1, MPI_INT, (r + n - 1) % n, 1, d,
                     MPI_STATUS_IGNORE);
        if (sum != (r + n - 1) % n) {
            fprintf(stderr, "rank %d: got %d on a dup\n", r, sum);
            side_errors++;
        }
        MPI_Comm_free(&d);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Comm parent;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        int r, v = 4242;
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
        if (r == 0) {
            MPI_Ssend(&v, 1, MPI_INT, 0, 3, parent);
        }
        MPI_Comm_disconnect(&parent);
        MPI_Finalize();
        return 0;
    }
    mt_name = "spawn_threads";
    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank));
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &mt_size));
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &mt_sync_comm));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &side));
    pthread_t th;
    CHECK(pthread_create(&th, NULL, dups, NULL) == 0, "pthread_create");
    for (int round = 0; round < ROUNDS; round++) {
        MPI_Comm ic;
        MPI_OK(MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, NCHILD, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                              MPI_ERRCODES_IGNORE));
        if (mt_rank == 0) {
            int v = -1;
            MPI_Status st;
            MPI_OK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, ic, &st));
            CHECK(v == 4242 && st.MPI_SOURCE == 0 && st.MPI_TAG == 3,
                  "round %d: got %d from %d tag %d", round, v, st.MPI_SOURCE, st.MPI_TAG);
        }
        MPI_OK(MPI_Comm_disconnect(&ic));
    }
    pthread_join(th, NULL);
    CHECK(side_errors == 0, "%d failure(s) on the dups", side_errors);
    MPI_OK(MPI_Comm_free(&side));
    return mt_finish();
}
