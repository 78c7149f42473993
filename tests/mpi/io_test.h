/*
 * io_test.h -- what the MPI-IO tests share: a temporary directory per run (made by rank 0,
 * its name sent to the others, removed with what is left in it at the end) and the
 * check of an error class.
 */
#ifndef IO_TEST_H
#define IO_TEST_H

#include "tests/mpi/mpitest.h"

#include <dirent.h>
#include <unistd.h>

static char io_dir[512];

/* the run's directory, the same on every rank of `comm` */
static inline void io_dir_make(MPI_Comm comm)
{
    int rank;
    MPI_OK(MPI_Comm_rank(comm, &rank));
    if (rank == 0) {
        const char *t = getenv("TMPDIR");
        snprintf(io_dir, sizeof(io_dir), "%s/compi-io.XXXXXX", t != NULL ? t : "/tmp");
        CHECK(mkdtemp(io_dir) != NULL, "mkdtemp %s failed", io_dir);
    }
    MPI_OK(MPI_Bcast(io_dir, sizeof(io_dir), MPI_CHAR, 0, comm));
}

/* a path in the run's directory */
static inline const char *io_path(const char *name)
{
    static char p[4][1024];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof(p[k]), "%s/%s", io_dir, name);
    return p[k];
}

/* removes the directory and what is in it (rank 0, after every rank is done); what was
   left but the files named in `expected` counts as an error (a sidecar left behind) */
static inline void io_dir_remove(MPI_Comm comm)
{
    int rank;
    MPI_OK(MPI_Barrier(comm));
    MPI_OK(MPI_Comm_rank(comm, &rank));
    if (rank != 0) {
        return;
    }
    DIR *d = opendir(io_dir);
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
            continue;
        }
        CHECK(strstr(e->d_name, ".shfp.") == NULL, "shared pointer file %s left behind", e->d_name);
        unlink(io_path(e->d_name));
    }
    if (d != NULL) {
        closedir(d);
    }
    CHECK(rmdir(io_dir) == 0, "cannot remove %s", io_dir);
}

static inline void io_expect(int rc, int cls, const char *what)
{
    int got = -1;
    if (rc == MPI_SUCCESS) {
        CHECK(cls == MPI_SUCCESS, "%s: succeeded, expected error class %d", what, cls);
        return;
    }
    MPI_OK(MPI_Error_class(rc, &got));
    CHECK(got == cls, "%s: error class %d, expected %d", what, got, cls);
}

#endif
