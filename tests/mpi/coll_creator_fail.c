/*
 * coll_creator_fail: a creator that fails on one rank only (configs/creator_fail.scm: the
 * last rank refuses a bcast of 12 bytes), under MPI_ERRORS_RETURN.  Every rank gets an
 * error from the call -- none waits for ever in a bcast the others never join -- whose
 * class is MPI_ERR_OTHER and whose MPI_Error_string is the creator's message.  The
 * program goes on: other sizes work, the failing size fails again the same way (blocking,
 * on a duplicate; with the argument "nbc", run with coll_check_determinism 2, nonblocking
 * too), a user's error handler is called with the same code, and the job finalizes with
 * exit 0.
 *
 * With the argument "fatal" the program keeps MPI_ERRORS_ARE_FATAL: the first bcast ends
 * the job, with one message from the failing rank.
 *
 * compi only: the config file is compi's (run by coll_config.sh).
 */
#include "tests/mpi/mpitest.h"

static int handler_calls, handler_code;

static void record_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    handler_code = *code;
}

/* rc must be an error of class MPI_ERR_OTHER whose string is the creator's message */
static void expect_creator_error(int rc, const char *what)
{
    char text[MPI_MAX_ERROR_STRING], want[64];
    int cls = -1, len = 0;

    CHECK(rc != MPI_SUCCESS, "%s: succeeded, but the creator fails on rank %d", what,
          mt_size - 1);
    if (rc == MPI_SUCCESS)
        return;
    MPI_OK(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_OTHER, "%s: error class %d, expected MPI_ERR_OTHER", what, cls);
    MPI_OK(MPI_Error_string(rc, text, &len));
    CHECK(len == (int)strlen(text), "%s: resultlen %d for a string of %zu", what, len,
          strlen(text));
    snprintf(want, sizeof(want), "rank %d", mt_size - 1);
    CHECK(strstr(text, "picky-bcast refuses a bcast of 12 bytes") != NULL &&
              strstr(text, want) != NULL && strstr(text, "creator_fail.scm") != NULL,
          "%s: MPI_Error_string is '%s', not the creator's message", what, text);
}

static void bcast_ok(MPI_Comm comm, int n, int seed)
{
    int buf[8];

    for (int i = 0; i < n; i++)
        buf[i] = mt_rank == 0 ? seed + i : -1;
    MPI_OK(MPI_Bcast(buf, n, MPI_INT, 0, comm));
    for (int i = 0; i < n; i++)
        CHECK(buf[i] == seed + i, "bcast of %d ints: buf[%d] = %d, expected %d", n, i, buf[i],
              seed + i);
}

int main(int argc, char **argv)
{
    int buf[8] = {0};
    MPI_Comm w = MPI_COMM_WORLD, dup;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Errhandler eh;

    mt_init(&argc, &argv, "coll_creator_fail");
    if (argc > 1 && strcmp(argv[1], "fatal") == 0) {
        MPI_Bcast(buf, 3, MPI_INT, 0, w);
        CHECK(0, "the bcast returned under MPI_ERRORS_ARE_FATAL");
        return mt_finish();
    }
    MPI_OK(MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN));

    expect_creator_error(MPI_Bcast(buf, 3, MPI_INT, 0, w), "Bcast of 3 ints");
    bcast_ok(w, 4, 100);
    bcast_ok(w, 2, 200);
    /* nothing was cached for the failed key: it is asked again, and fails again */
    expect_creator_error(MPI_Bcast(buf, 3, MPI_INT, 0, w), "Bcast of 3 ints, again");
    if (argc > 1 && strcmp(argv[1], "nbc") == 0) {
        /* with coll_check_determinism 2 the nonblocking miss agrees too */
        expect_creator_error(MPI_Ibcast(buf, 3, MPI_INT, 0, w, &req), "Ibcast of 3 ints");
        CHECK(req == MPI_REQUEST_NULL, "a failed Ibcast left a request");
    }
    MPI_OK(MPI_Barrier(w));

    /* a duplicate inherits MPI_ERRORS_RETURN and has a cache of its own */
    MPI_OK(MPI_Comm_dup(w, &dup));
    expect_creator_error(MPI_Bcast(buf, 3, MPI_INT, 0, dup), "Bcast of 3 ints on a dup");
    bcast_ok(dup, 4, 300);

    /* a user's handler sees the same code the call returns */
    MPI_OK(MPI_Comm_create_errhandler(record_error, &eh));
    MPI_OK(MPI_Comm_set_errhandler(dup, eh));
    int rc = MPI_Bcast(buf, 3, MPI_INT, 0, dup);
    expect_creator_error(rc, "Bcast of 3 ints, user handler");
    CHECK(handler_calls == 1 && handler_code == rc,
          "the handler was called %d times with %d; the call returned %d", handler_calls,
          handler_code, rc);
    MPI_OK(MPI_Errhandler_free(&eh));
    MPI_OK(MPI_Comm_free(&dup));

    bcast_ok(w, 8, 400);
    MPI_OK(MPI_Barrier(w));
    return mt_finish();
}
