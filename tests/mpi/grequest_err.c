/*
 * grequest_err: the errors of a generalized request's callbacks reach the caller
 * (MPI 3.1, 12.2).  A single-completion call (Wait, Test, Waitany, Testany,
 * Request_free) returns the error of free_fn, the last callback it runs; a
 * multi-completion call (Waitall, Testall, Waitsome, Testsome) returns MPI_ERR_IN_STATUS
 * with each request's error (free_fn's, else query_fn's) in its status and MPI_SUCCESS
 * in the others.  free_fn runs exactly once per request.
 */
#include "tests/mpi/mpitest.h"

typedef struct greq {
    int query_err, free_err; /* what the callbacks return */
    int nquery, nfree;
} greq_t;

static int query_fn(void *extra, MPI_Status *st)
{
    greq_t *g = extra;
    g->nquery++;
    st->MPI_SOURCE = 7;
    st->MPI_TAG = 8;
    MPI_Status_set_cancelled(st, 0);
    MPI_Status_set_elements(st, MPI_BYTE, 0);
    return g->query_err;
}

static int free_fn(void *extra)
{
    greq_t *g = extra;
    g->nfree++;
    return g->free_err;
}

static int cancel_fn(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return MPI_SUCCESS;
}

static MPI_Request start(greq_t *g, int query_err, int free_err, int complete)
{
    MPI_Request r;
    memset(g, 0, sizeof(*g));
    g->query_err = query_err;
    g->free_err = free_err;
    MPI_OK(MPI_Grequest_start(query_fn, free_fn, cancel_fn, g, &r));
    if (complete)
        MPI_OK(MPI_Grequest_complete(r));
    return r;
}

int main(int argc, char **argv)
{
    greq_t g[3];
    MPI_Request r[3];
    MPI_Status st[3];
    int rc, idx, flag, outcount, indices[3];

    mt_init(&argc, &argv, "grequest_err");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    /* single completion: free_fn's error is the call's */
    r[0] = start(&g[0], MPI_SUCCESS, MPI_ERR_IO, 1);
    rc = MPI_Wait(&r[0], &st[0]);
    mt_expect_class(rc, MPI_ERR_IO, "MPI_Wait, free_fn fails");
    CHECK(r[0] == MPI_REQUEST_NULL, "MPI_Wait left the request");
    CHECK(g[0].nfree == 1 && g[0].nquery == 1, "MPI_Wait: %d free, %d query calls", g[0].nfree,
          g[0].nquery);

    r[0] = start(&g[0], MPI_SUCCESS, MPI_ERR_IO, 1);
    flag = 0;
    rc = MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
    mt_expect_class(rc, MPI_ERR_IO, "MPI_Test, free_fn fails");
    CHECK(flag && g[0].nfree == 1, "MPI_Test: flag %d, %d free calls", flag, g[0].nfree);

    /* query_fn fails, free_fn succeeds: the query's error */
    r[0] = start(&g[0], MPI_ERR_ACCESS, MPI_SUCCESS, 1);
    rc = MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    mt_expect_class(rc, MPI_ERR_ACCESS, "MPI_Wait, query_fn fails");

    r[0] = MPI_REQUEST_NULL;
    r[1] = start(&g[1], MPI_SUCCESS, MPI_ERR_SPAWN, 1);
    rc = MPI_Waitany(2, r, &idx, &st[0]);
    mt_expect_class(rc, MPI_ERR_SPAWN, "MPI_Waitany, free_fn fails");
    CHECK(idx == 1 && g[1].nfree == 1, "MPI_Waitany: index %d, %d free calls", idx, g[1].nfree);

    r[1] = start(&g[1], MPI_SUCCESS, MPI_ERR_SPAWN, 1);
    rc = MPI_Testany(2, r, &idx, &flag, MPI_STATUS_IGNORE);
    mt_expect_class(rc, MPI_ERR_SPAWN, "MPI_Testany, free_fn fails");

    /* Request_free on a complete request runs free_fn now and returns its error */
    r[0] = start(&g[0], MPI_SUCCESS, MPI_ERR_IO, 1);
    rc = MPI_Request_free(&r[0]);
    mt_expect_class(rc, MPI_ERR_IO, "MPI_Request_free, free_fn fails");
    CHECK(g[0].nfree == 1, "MPI_Request_free: %d free calls", g[0].nfree);

    /* multi completion: MPI_ERR_IN_STATUS, each status has its request's error */
    r[0] = start(&g[0], MPI_SUCCESS, MPI_SUCCESS, 1);
    r[1] = start(&g[1], MPI_SUCCESS, MPI_ERR_IO, 1);
    r[2] = start(&g[2], MPI_ERR_ACCESS, MPI_SUCCESS, 1);
    for (int i = 0; i < 3; i++)
        st[i].MPI_ERROR = -5;
    rc = MPI_Waitall(3, r, st);
    mt_expect_class(rc, MPI_ERR_IN_STATUS, "MPI_Waitall");
    mt_expect_class(st[0].MPI_ERROR, MPI_SUCCESS, "MPI_Waitall status 0");
    mt_expect_class(st[1].MPI_ERROR, MPI_ERR_IO, "MPI_Waitall status 1 (free_fn)");
    mt_expect_class(st[2].MPI_ERROR, MPI_ERR_ACCESS, "MPI_Waitall status 2 (query_fn)");
    CHECK(st[0].MPI_SOURCE == 7 && st[0].MPI_TAG == 8, "MPI_Waitall: query_fn's status lost");
    for (int i = 0; i < 3; i++)
        CHECK(r[i] == MPI_REQUEST_NULL && g[i].nfree == 1, "MPI_Waitall: request %d: %d free calls",
              i, g[i].nfree);

    r[0] = start(&g[0], MPI_SUCCESS, MPI_ERR_IO, 1);
    r[1] = start(&g[1], MPI_SUCCESS, MPI_SUCCESS, 1);
    rc = MPI_Testall(2, r, &flag, st);
    mt_expect_class(rc, MPI_ERR_IN_STATUS, "MPI_Testall");
    CHECK(flag, "MPI_Testall: not complete");
    mt_expect_class(st[0].MPI_ERROR, MPI_ERR_IO, "MPI_Testall status 0");
    mt_expect_class(st[1].MPI_ERROR, MPI_SUCCESS, "MPI_Testall status 1");

    /* MPI_STATUSES_IGNORE: the class still says something failed */
    r[0] = start(&g[0], MPI_SUCCESS, MPI_ERR_IO, 1);
    rc = MPI_Waitall(1, r, MPI_STATUSES_IGNORE);
    mt_expect_class(rc, MPI_ERR_IN_STATUS, "MPI_Waitall, statuses ignored");

    /* Waitsome/Testsome: one done and failing, one not complete */
    r[0] = start(&g[0], MPI_SUCCESS, MPI_SUCCESS, 0);
    r[1] = start(&g[1], MPI_SUCCESS, MPI_ERR_IO, 1);
    rc = MPI_Waitsome(2, r, &outcount, indices, st);
    mt_expect_class(rc, MPI_ERR_IN_STATUS, "MPI_Waitsome");
    CHECK(outcount == 1 && indices[0] == 1, "MPI_Waitsome: outcount %d index %d", outcount,
          indices[0]);
    mt_expect_class(st[0].MPI_ERROR, MPI_ERR_IO, "MPI_Waitsome status 0");
    r[1] = start(&g[1], MPI_SUCCESS, MPI_ERR_IO, 1);
    rc = MPI_Testsome(2, r, &outcount, indices, st);
    mt_expect_class(rc, MPI_ERR_IN_STATUS, "MPI_Testsome");
    mt_expect_class(st[0].MPI_ERROR, MPI_ERR_IO, "MPI_Testsome status 0");
    MPI_OK(MPI_Grequest_complete(r[0]));
    MPI_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    CHECK(g[0].nfree == 1, "free_fn of the last request ran %d times", g[0].nfree);

    /* the errors came back, nothing else changed: plain requests still work */
    r[0] = start(&g[0], MPI_SUCCESS, MPI_SUCCESS, 1);
    MPI_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    return mt_finish();
}
