/*
 * fdcheck: a program a rank starts with system() inherits no descriptor of the library
 * (the PMI socket, shared-memory segments, Guile's pipes, transport sockets).
 *
 * After MPI_Init and a few collectives (so that every transport and Guile are up), each
 * rank runs `ls -l /proc/$$/fd` through system(): the shell lists its own descriptors,
 * which are exactly what it inherited.  Descriptors the rank already had before MPI_Init
 * (0, 1, 2 and whatever the test harness left open) are not the library's, except the
 * PMI socket that PMI_FD names.  The listing goes to a close-on-exec file standing in as
 * stdout for the call, read back and removed here.
 */
#define _GNU_SOURCE
#include "tests/mpi/mpitest.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#define FDCHECK_MAX 1024

int main(int argc, char **argv)
{
    char path[] = "/tmp/mpitest-fdcheck.XXXXXX", line[512];
    char before[FDCHECK_MAX] = {0};
    const char *pmi_fd = getenv("PMI_FD");
    int sum = 0, one = 1, fd, saved, rc, lines = 0;
    struct dirent *de;
    DIR *d;
    FILE *f;

    /* what was open before the library started */
    d = opendir("/proc/self/fd");
    while (d != NULL && (de = readdir(d)) != NULL) {
        int n = atoi(de->d_name);

        if (de->d_name[0] != '.' && n >= 0 && n < FDCHECK_MAX && n != dirfd(d))
            before[n] = 1;
    }
    if (d != NULL)
        closedir(d);
    if (pmi_fd != NULL && atoi(pmi_fd) > 2 && atoi(pmi_fd) < FDCHECK_MAX)
        before[atoi(pmi_fd)] = 0;

    mt_init(&argc, &argv, "fdcheck");
    MPI_OK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == mt_size, "allreduce gave %d, expected %d", sum, mt_size);
    MPI_OK(MPI_Bcast(&sum, 1, MPI_INT, 0, MPI_COMM_WORLD));
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));

    fd = mkostemp(path, O_CLOEXEC);
    CHECK(fd >= 0, "mkostemp failed");
    if (fd >= 0) {
        fflush(stdout);
        saved = fcntl(1, F_DUPFD_CLOEXEC, 3);
        dup2(fd, 1);
        close(fd);
        rc = system("ls -l /proc/$$/fd/");
        dup2(saved, 1);
        close(saved);
        CHECK(rc == 0, "system(\"ls -l /proc/$$/fd/\") returned %d", rc);
        f = fopen(path, "re");
        CHECK(f != NULL, "cannot read %s back", path);
        while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
            const char *p = strstr(line, " -> ");
            int n;

            if (p == NULL)
                continue; /* "total 0" */
            lines++;
            while (p > line && p[-1] != ' ')
                p--;
            n = atoi(p);
            CHECK(n <= 2 || (n < FDCHECK_MAX && before[n]),
                  "a child started with system() inherited descriptor %d: %s", n, p);
        }
        if (f != NULL)
            fclose(f);
        unlink(path);
        CHECK(lines >= 3, "the listing of the child's descriptors has %d entries", lines);
    }
    return mt_finish();
}
