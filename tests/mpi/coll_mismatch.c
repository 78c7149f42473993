/*
 * coll_mismatch.c -- erroneous collective calls whose arguments differ between ranks end
 * with an argument error on every rank instead of a hang or a wrong success, where the
 * agreement at a closure-cache miss sees them (each case runs on a fresh communicator,
 * so every rank misses):
 *
 *   1. MPI_Reduce, then MPI_Bcast, with root 0 on some ranks and root 1 on others:
 *      MPI_ERR_ROOT;
 *   2. MPI_Bcast with a count that differs on one rank: MPI_ERR_TRUNCATE;
 *   3. MPI_Barrier on rank 0 while the others call MPI_Bcast: MPI_ERR_ARG;
 *
 * and after each, the same communicator serves a right call.  With the argument "nb",
 * the same for MPI_Ireduce and MPI_Ibcast (and "persist": MPI_Reduce_init and
 * MPI_Bcast_init, started twice) with the default settings: the agreement is the first
 * round of the call's schedule, the call returns at once and its request completes with
 * the error; with "nb2", nonblocking under coll_check_determinism 2 (the agreement at the
 * call).  Every message names the ranks on both sides, and every rank gets the same
 * error code.
 */
#include "tests/mpi/mpitest.h"

#include <stdlib.h>

static int nb, persist, at_call;

/* the request's error: started once (nonblocking) or twice (persistent: the second
   start ends like the first) */
static int complete(int rc, MPI_Request *req)
{
    CHECK(rc == MPI_SUCCESS || at_call, "the call itself failed (%d): its request should", rc);
    if (rc != MPI_SUCCESS || !persist) {
        return rc != MPI_SUCCESS ? rc : MPI_Wait(req, MPI_STATUS_IGNORE);
    }
    int rcs[2], cls[2] = {MPI_SUCCESS, MPI_SUCCESS};
    for (int i = 0; i < 2; i++) {
        rcs[i] = MPI_Start(req);
        if (rcs[i] == MPI_SUCCESS) {
            rcs[i] = MPI_Wait(req, MPI_STATUS_IGNORE);
        }
        if (rcs[i] != MPI_SUCCESS) {
            MPI_Error_class(rcs[i], &cls[i]);
        }
    }
    MPI_OK(MPI_Request_free(req));
    CHECK(cls[0] == cls[1], "the two starts of one persistent request gave classes %d and %d",
          cls[0], cls[1]);
    return rcs[0];
}

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
    /* the same code on every rank */
    int mine[2] = {rc, -rc}, all[2];
    MPI_OK(MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    CHECK(all[0] == rc && -all[1] == rc, "%s: error code %d here, others between %d and %d", what,
          rc, -all[1], all[0]);
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
    if (persist) {
        return complete(
            MPI_Reduce_init(in, out, 2, MPI_INT, MPI_SUM, root, comm, MPI_INFO_NULL, &req), &req);
    }
    return complete(MPI_Ireduce(in, out, 2, MPI_INT, MPI_SUM, root, comm, &req), &req);
}

static int bcast_from(int *buf, int count, int root, MPI_Comm comm)
{
    if (!nb) {
        return MPI_Bcast(buf, count, MPI_INT, root, comm);
    }
    MPI_Request req;
    if (persist) {
        return complete(MPI_Bcast_init(buf, count, MPI_INT, root, comm, MPI_INFO_NULL, &req),
                        &req);
    }
    return complete(MPI_Ibcast(buf, count, MPI_INT, root, comm, &req), &req);
}

static int bcast(int *buf, int count, MPI_Comm comm)
{
    return bcast_from(buf, count, 0, comm);
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
    persist = argc > 1 && strcmp(argv[1], "persist") == 0;
    nb = argc > 1 && (strcmp(argv[1], "nb") == 0 || strcmp(argv[1], "nb2") == 0 || persist);
    at_call = argc > 1 && strcmp(argv[1], "nb2") == 0;
    if (at_call) {
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
    /* and a bcast whose root is 0 on some ranks and 1 on the others */
    expect_class(bcast_from(buf, 4, mt_rank % 2, c), MPI_ERR_ROOT, "bcast with two roots");
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
