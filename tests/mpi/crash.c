/*
 * crash: one rank dies and the job must come down.  The last rank, after everyone is up,
 * prints "crashing rank R at T" (T: wall-clock seconds) and then, as argv[1] says:
 *   abort   MPI_Abort(MPI_COMM_WORLD, 7)
 *   kill    raise(SIGKILL)
 *   segv    writes through a NULL pointer (SIGSEGV)
 *   noexit  exit(0) without MPI_Finalize
 * The other ranks block in a receive that nothing matches.  The runner checks the exit
 * status, that mpirun returned within a few seconds of T, and that the output names the
 * rank.  Nothing here may print "ok".
 */
#include "tests/mpi/mpitest.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

/* A store through NULL, as a buggy program does.  In a sanitized build UBSan would stop
   the program first (exit status 1) and ASan would catch the signal: neither checks this
   function, and the default disposition lets the rank die of SIGSEGV there too. */
__attribute__((no_sanitize("address", "undefined"))) static void segv(void)
{
    volatile int *p = NULL;

    signal(SIGSEGV, SIG_DFL);
    *p = 1;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "kill";
    int v = 0;

    mt_init(&argc, &argv, "crash");
    mt_barrier(MPI_COMM_WORLD);
    if (mt_rank == mt_size - 1) {
        struct timespec ts;

        /* let the others settle into their receive */
        usleep(200000);
        clock_gettime(CLOCK_REALTIME, &ts);
        printf("crashing rank %d at %ld.%03ld (%s)\n", mt_rank, (long)ts.tv_sec,
               ts.tv_nsec / 1000000, mode);
        fflush(stdout);
        if (strcmp(mode, "abort") == 0) {
            MPI_Abort(MPI_COMM_WORLD, 7);
        } else if (strcmp(mode, "kill") == 0) {
            raise(SIGKILL);
        } else if (strcmp(mode, "segv") == 0) {
            segv();
        } else if (strcmp(mode, "noexit") == 0) {
            exit(0);
        }
        printf("crash: unknown mode '%s' or it did not end the process\n", mode);
        return 1;
    }
    MPI_Recv(&v, 1, MPI_INT, mt_size - 1, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("crash rank %d: the receive completed, nothing was sent\n", mt_rank);
    return 0;
}
