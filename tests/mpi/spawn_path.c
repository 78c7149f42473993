/*
 * spawn_path: MPI_Comm_spawn of a command found only through the "path" info key (a list
 * of directories, the first of which does not exist), two children; child 0 answers the
 * parents' root with MPI_Ssend and the children finalize without disconnecting.  Without
 * the key the same command (not on PATH) is MPI_ERR_SPAWN.  Run from its build
 * directory, which is not on PATH.
 */
#include "tests/mpi/mpitest.h"

#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define NCHILD 2

int main(int argc, char **argv)
{
    MPI_Comm parent, ic;
    MPI_Init(&argc, &argv);
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        int r, n;
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        if (r == 0) {
            int v = 1000 + n;
            MPI_Ssend(&v, 1, MPI_INT, 0, 5, parent);
        }
        MPI_Finalize();
        return 0;
    }
    mt_name = "spawn_path";
    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank));
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &mt_size));
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &mt_sync_comm));
    char self[PATH_MAX], dir[PATH_MAX], base[PATH_MAX], list[2 * PATH_MAX];
    CHECK(realpath(argv[0], self) != NULL, "realpath(%s)", argv[0]);
    snprintf(dir, sizeof(dir), "%s", self);
    snprintf(base, sizeof(base), "%s", basename(self));
    snprintf(list, sizeof(list), "/nonexistent/compi-dir:%s", dirname(dir));
    int codes[NCHILD];

    /* not on PATH: refused */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc =
        MPI_Comm_spawn(base, MPI_ARGV_NULL, NCHILD, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic, codes);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_SPAWN, "spawn of '%s' without the path key: class %d", base, cls);

    MPI_Info info;
    MPI_OK(MPI_Info_create(&info));
    MPI_OK(MPI_Info_set(info, "path", list));
    MPI_OK(MPI_Comm_spawn(base, MPI_ARGV_NULL, NCHILD, info, 0, MPI_COMM_WORLD, &ic, codes));
    MPI_OK(MPI_Info_free(&info));
    int rsize;
    MPI_OK(MPI_Comm_remote_size(ic, &rsize));
    CHECK(rsize == NCHILD, "remote size %d", rsize);
    if (mt_rank == 0) {
        int v = -1;
        MPI_Status st;
        MPI_OK(MPI_Recv(&v, 1, MPI_INT, 0, 5, ic, &st));
        CHECK(v == 1000 + NCHILD && st.MPI_SOURCE == 0, "got %d from %d", v, st.MPI_SOURCE);
    }
    MPI_OK(MPI_Comm_free(&ic));
    return mt_finish();
}
