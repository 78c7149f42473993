/*
 * coll_mismatch.c -- erroneous collective calls whose arguments differ between ranks end
 * with an argument error on every rank instead of a hang or a wrong success, where the
 * agreement at a closure-cache miss sees them (each case runs on a fresh communicator,
 * so every rank misses):
 *
 *   1. MPI_Reduce with root 0 on some ranks and root 1 on others: MPI_ERR_ROOT;
 *   2. MPI_Bcast with a count that differs on one rank: MPI_ERR_TRUNCATE;
 *   3. MPI_Barrier on rank 0 while the others call MPI_Bcast: MPI_ERR_ARG;
 *
 * and after each, the same communicator serves a right call.  With the argument "nb",
 * the same for MPI_Ireduce and MPI_Ibcast under coll_check_determinism 2 (a nonblocking
 * call agrees at its miss only then; by default it does not, and such mismatches go
 * unseen).  Every message names the ranks on both sides.
 */
#include "tests/mpi/mpitest.h"

#include <stdlib.h>

static int nb;

static void expect_class(int rc, int want, const char *what)
{
    int cls = MPI_SUCCESS;
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (rc != MPI_SUCCESS) {
        MPI_Error_class(rc, &cls);
        MPI_Error_string(rc, msg, &len);
    }
    CHECK(cls == want, "%s: error class %d, expected %d (%s)", what, cls, want, msg);
    const char *r1 = strstr(msg, "rank");
    CHECK(rc == MPI_SUCCESS || (r1 != NULL && strstr(r1 + 1, "rank") != NULL),
          "%s: the message does not name the ranks on both sides: %s", what, msg);
    if (mt_rank == 0 && rc != MPI_SUCCESS) {
        printf("# %s: %s\n", what, msg);
    }
}

static int reduce(const int *in, int *out, int root, MPI_Comm comm)
{
    if (!nb) {
        return MPI_Reduce(in, out, 2, MPI_INT, MPI_SUM, root, comm);
    }
    MPI_Request req;
    int rc = MPI_Ireduce(in, out, 2, MPI_INT, MPI_SUM, root, comm, &req);
    return rc != MPI_SUCCESS ? rc : MPI_Wait(&req, MPI_STATUS_IGNORE);
}

static int bcast(int *buf, int count, MPI_Comm comm)
{
    if (!nb) {
        return MPI_Bcast(buf, count, MPI_INT, 0, comm);
    }
    MPI_Request req;
    int rc = MPI_Ibcast(buf, count, MPI_INT, 0, comm, &req);
    return rc != MPI_SUCCESS ? rc : MPI_Wait(&req, MPI_STATUS_IGNORE);
}

static MPI_Comm fresh(void)
{
    MPI_Comm c;
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    MPI_OK(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    return c;
}

int main(int argc, char **argv)
{
    nb = argc > 1 && strcmp(argv[1], "nb") == 0;
    if (nb) {
        setenv("COMPI_MCA_coll_check_determinism", "2", 1);
    }
    mt_init(&argc, &argv, "coll_mismatch");
    int in[2] = {mt_rank, 1}, out[2] = {0, 0}, buf[64];
    MPI_Comm c;

    /* 1. roots 0 and 1 */
    c = fresh();
    expect_class(reduce(in, out, mt_rank % 2, c), MPI_ERR_ROOT, "reduce with two roots");
    MPI_OK(reduce(in, out, 0, c));
    CHECK(mt_rank != 0 || out[1] == mt_size, "the reduce after the error gave %d, expected %d",
          out[1], mt_size);
    MPI_OK(MPI_Comm_free(&c));

    /* 2. the last rank's count is twice the others' */
    c = fresh();
    for (int i = 0; i < 64; i++) {
        buf[i] = mt_rank == 0 ? i : -1;
    }
    expect_class(bcast(buf, mt_rank == mt_size - 1 ? 32 : 16, c), MPI_ERR_TRUNCATE,
                 "bcast with two counts");
    MPI_OK(bcast(buf, 16, c));
    CHECK(buf[15] == 15, "the bcast after the error gave %d, expected 15", buf[15]);
    MPI_OK(MPI_Comm_free(&c));

    /* 3. a barrier against broadcasts (blocking only: a nonblocking barrier and a
       broadcast may pass each other) */
    if (!nb) {
        c = fresh();
        expect_class(mt_rank == 0 ? MPI_Barrier(c) : MPI_Bcast(buf, 16, MPI_INT, 0, c), MPI_ERR_ARG,
                     "barrier against bcast");
        MPI_OK(MPI_Barrier(c));
        MPI_OK(MPI_Comm_free(&c));
    }
    return mt_finish();
}
