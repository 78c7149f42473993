/*
 * spawn_levels: parents and children at different thread levels build communicators
 * together.  The parents ask for MPI_THREAD_MULTIPLE, the two children (the same program,
 * started with an argument) for MPI_THREAD_SINGLE; all merge the intercommunicator, dup
 * the merged one and allreduce on the dup, make an intercommunicator back with
 * MPI_Intercomm_create over the merged one, then disconnect.  Every agreement must run
 * the same rounds on every member whatever its level (a level-dependent round hung).
 */
#include "tests/mpi/mpitest.h"

#include <string.h>

#define NCHILD 2

static int run(MPI_Comm ic, int child)
{
    MPI_Comm merged, dup, back;
    int errs = 0, r, n, sum = -1, rsize = -1;

    MPI_OK(MPI_Intercomm_merge(ic, child, &merged));
    MPI_OK(MPI_Comm_dup(merged, &dup));
    MPI_OK(MPI_Comm_rank(dup, &r));
    MPI_OK(MPI_Comm_size(dup, &n));
    MPI_OK(MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, dup));
    if (sum != n * (n - 1) / 2) {
        fprintf(stderr, "allreduce over parents and children: %d\n", sum);
        errs++;
    }
    /* the children again as a group of their own, facing the parents */
    MPI_Comm half;
    MPI_OK(MPI_Comm_split(merged, child, r, &half));
    MPI_OK(MPI_Intercomm_create(half, 0, merged, child ? 0 : n - NCHILD, 9, &back));
    MPI_OK(MPI_Comm_remote_size(back, &rsize));
    if (rsize != (child ? n - NCHILD : NCHILD)) {
        fprintf(stderr, "remote size %d\n", rsize);
        errs++;
    }
    MPI_OK(MPI_Comm_free(&back));
    MPI_OK(MPI_Comm_free(&half));
    MPI_OK(MPI_Comm_free(&dup));
    MPI_OK(MPI_Comm_free(&merged));
    MPI_OK(MPI_Comm_disconnect(&ic));
    return errs;
}

int main(int argc, char **argv)
{
    MPI_Comm parent, ic;
    int provided, child = argc > 1 && strcmp(argv[1], "child") == 0;

    MPI_Init_thread(&argc, &argv, child ? MPI_THREAD_SINGLE : MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_get_parent(&parent);
    if (child) {
        int errs = run(parent, 1);
        MPI_Finalize();
        return errs != 0;
    }
    mt_name = "spawn_levels";
    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank));
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &mt_size));
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &mt_sync_comm));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
    char *args[] = {"child", NULL};
    MPI_OK(MPI_Comm_spawn(argv[0], args, NCHILD, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                          MPI_ERRCODES_IGNORE));
    mt_errors += run(ic, 0);
    return mt_finish();
}
