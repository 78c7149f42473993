/* osu_win_stubs.c -- link-time stand-ins for the MPI_Win_* functions that OSU
 * Micro-Benchmarks 7.4 references and compi does not have yet (it has no one-sided
 * communication).  Written for compi's bench/run-osu.sh; this is not OSU code.
 *
 * Every OSU benchmark program links OSU's shared utility file c/util/osu_util_mpi.c,
 * whose window helpers (allocate_memory_one_sided, free_memory_one_sided and their
 * "atomic" twins) call these five functions.  Only the one-sided benchmarks ever run
 * those helpers, and OSU's configure leaves the one-sided benchmarks out when
 * MPI_Accumulate is missing, as it is in compi.  So in the programs that are built these
 * functions are referenced but never called.  The exact list comes from trying the build
 * without this file (bench/run-osu.sh, "undefined reference" in the link errors):
 * MPI_Win_allocate, MPI_Win_attach, MPI_Win_create, MPI_Win_create_dynamic,
 * MPI_Win_free.  Nothing else is defined here, MPI_Accumulate and MPI_Get_accumulate in
 * particular (their presence would make OSU's configure build the one-sided benchmarks).
 *
 * run-osu.sh archives this file into libosu_win_stubs.a and passes it to OSU's configure
 * as LIBS, for compi only.  If one of these functions is ever called, it says so and
 * aborts the job: a benchmark must never appear to work on a window that does not exist.
 * Remove this file (and its use in run-osu.sh) once compi implements MPI_Win_*.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static _Noreturn void missing(const char *fn)
{
    fprintf(stderr,
            "osu_win_stubs: %s called, but compi has no one-sided communication yet; "
            "this stub (bench/osu_win_stubs.c) only lets OSU's shared utility file "
            "link. Aborting.\n",
            fn);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 70);
    abort();
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   MPI_Win *win)
{
    (void)base, (void)size, (void)disp_unit, (void)info, (void)comm, (void)win;
    missing("MPI_Win_create");
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                     void *baseptr, MPI_Win *win)
{
    (void)size, (void)disp_unit, (void)info, (void)comm, (void)baseptr, (void)win;
    missing("MPI_Win_allocate");
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    (void)info, (void)comm, (void)win;
    missing("MPI_Win_create_dynamic");
}

int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    (void)win, (void)base, (void)size;
    missing("MPI_Win_attach");
}

int MPI_Win_free(MPI_Win *win)
{
    (void)win;
    missing("MPI_Win_free");
}
