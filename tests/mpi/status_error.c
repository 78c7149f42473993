/*
 * status_error: calls that complete one operation leave status.MPI_ERROR alone; only
 * Waitall/Testall/Waitsome/Testsome write it, and only when they return
 * MPI_ERR_IN_STATUS (MPI 3.1, 3.2.5).  Checked on Recv, Probe, Iprobe, Mprobe, Improbe,
 * Mrecv, Wait and Test of a receive, Waitany, Testany, Request_get_status, Sendrecv,
 * Sendrecv_replace, a truncated Recv, Request_get_status and Wait (the error is
 * returned, not stored), and successful
 * multi-completion calls; then a truncating Waitall does fill every MPI_ERROR.
 * Every rank talks to itself, so any np works.
 */
#include "tests/mpi/mpitest.h"

#define MARK 4242

static int me;

static void self_send(int tag, int n)
{
    int v[4] = {1, 2, 3, 4};
    MPI_Request r;
    MPI_OK(MPI_Isend(v, n, MPI_INT, me, tag, MPI_COMM_WORLD, &r));
    MPI_OK(MPI_Request_free(&r));
}

#define UNTOUCHED(st, what) CHECK((st).MPI_ERROR == MARK, "%s wrote MPI_ERROR=%d", what, (st).MPI_ERROR)

int main(int argc, char **argv)
{
    int v[4], flag, idx, outcount, indices[2], rc;
    MPI_Status st, sts[2];
    MPI_Request r, rs[2];
    MPI_Message m;

    mt_init(&argc, &argv, "status_error");
    me = mt_rank;
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    self_send(1, 1);
    st.MPI_ERROR = MARK;
    MPI_OK(MPI_Probe(me, 1, MPI_COMM_WORLD, &st));
    UNTOUCHED(st, "MPI_Probe");
    st.MPI_ERROR = MARK;
    flag = 0;
    while (!flag)
        MPI_OK(MPI_Iprobe(me, 1, MPI_COMM_WORLD, &flag, &st));
    UNTOUCHED(st, "MPI_Iprobe");
    st.MPI_ERROR = MARK;
    MPI_OK(MPI_Recv(v, 4, MPI_INT, me, 1, MPI_COMM_WORLD, &st));
    UNTOUCHED(st, "MPI_Recv");
    CHECK(st.MPI_SOURCE == me && st.MPI_TAG == 1, "MPI_Recv: source %d tag %d", st.MPI_SOURCE,
          st.MPI_TAG);

    self_send(2, 1);
    st.MPI_ERROR = MARK;
    MPI_OK(MPI_Mprobe(me, 2, MPI_COMM_WORLD, &m, &st));
    UNTOUCHED(st, "MPI_Mprobe");
    st.MPI_ERROR = MARK;
    MPI_OK(MPI_Mrecv(v, 4, MPI_INT, &m, &st));
    UNTOUCHED(st, "MPI_Mrecv");

    self_send(3, 1);
    flag = 0;
    while (!flag) {
        st.MPI_ERROR = MARK;
        MPI_OK(MPI_Improbe(me, 3, MPI_COMM_WORLD, &flag, &m, &st));
    }
    UNTOUCHED(st, "MPI_Improbe");
    MPI_OK(MPI_Mrecv(v, 4, MPI_INT, &m, MPI_STATUS_IGNORE));

    MPI_OK(MPI_Irecv(v, 4, MPI_INT, me, 4, MPI_COMM_WORLD, &r));
    self_send(4, 1);
    st.MPI_ERROR = MARK;
    MPI_OK(MPI_Wait(&r, &st));
    UNTOUCHED(st, "MPI_Wait");

    MPI_OK(MPI_Irecv(v, 4, MPI_INT, me, 5, MPI_COMM_WORLD, &r));
    self_send(5, 1);
    flag = 0;
    while (!flag) {
        st.MPI_ERROR = MARK;
        MPI_OK(MPI_Request_get_status(r, &flag, &st));
    }
    UNTOUCHED(st, "MPI_Request_get_status");
    flag = 0;
    while (!flag) {
        st.MPI_ERROR = MARK;
        MPI_OK(MPI_Test(&r, &flag, &st));
    }
    UNTOUCHED(st, "MPI_Test");

    rs[0] = MPI_REQUEST_NULL;
    MPI_OK(MPI_Irecv(v, 4, MPI_INT, me, 6, MPI_COMM_WORLD, &rs[1]));
    self_send(6, 1);
    st.MPI_ERROR = MARK;
    MPI_OK(MPI_Waitany(2, rs, &idx, &st));
    UNTOUCHED(st, "MPI_Waitany");
    MPI_OK(MPI_Irecv(v, 4, MPI_INT, me, 7, MPI_COMM_WORLD, &rs[1]));
    self_send(7, 1);
    flag = 0;
    while (!flag) {
        st.MPI_ERROR = MARK;
        MPI_OK(MPI_Testany(2, rs, &idx, &flag, &st));
    }
    UNTOUCHED(st, "MPI_Testany");

    st.MPI_ERROR = MARK;
    v[0] = 9;
    MPI_OK(MPI_Sendrecv(v, 1, MPI_INT, me, 8, v + 1, 1, MPI_INT, me, 8, MPI_COMM_WORLD, &st));
    UNTOUCHED(st, "MPI_Sendrecv");
    st.MPI_ERROR = MARK;
    MPI_OK(MPI_Sendrecv_replace(v, 1, MPI_INT, me, 9, me, 9, MPI_COMM_WORLD, &st));
    UNTOUCHED(st, "MPI_Sendrecv_replace");

    /* a truncated receive returns the error; the status keeps the caller's value */
    self_send(10, 4);
    st.MPI_ERROR = MARK;
    rc = MPI_Recv(v, 1, MPI_INT, me, 10, MPI_COMM_WORLD, &st);
    {
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE, "truncated MPI_Recv returned class %d", cls);
    }
    UNTOUCHED(st, "truncated MPI_Recv");
    /* the same through a request: Request_get_status and Wait return it */
    MPI_OK(MPI_Irecv(v, 1, MPI_INT, me, 16, MPI_COMM_WORLD, &r));
    self_send(16, 4);
    flag = 0;
    while (!flag) {
        st.MPI_ERROR = MARK;
        rc = MPI_Request_get_status(r, &flag, &st);
    }
    {
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE, "truncated MPI_Request_get_status returned class %d", cls);
        UNTOUCHED(st, "truncated MPI_Request_get_status");
        st.MPI_ERROR = MARK;
        rc = MPI_Wait(&r, &st);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE, "truncated MPI_Wait returned class %d", cls);
        UNTOUCHED(st, "truncated MPI_Wait");
    }

    /* successful multi-completion calls leave MPI_ERROR alone too */
    MPI_OK(MPI_Irecv(v, 1, MPI_INT, me, 11, MPI_COMM_WORLD, &rs[0]));
    MPI_OK(MPI_Irecv(v + 1, 1, MPI_INT, me, 12, MPI_COMM_WORLD, &rs[1]));
    self_send(11, 1);
    self_send(12, 1);
    sts[0].MPI_ERROR = sts[1].MPI_ERROR = MARK;
    MPI_OK(MPI_Waitall(2, rs, sts));
    UNTOUCHED(sts[0], "MPI_Waitall (success)");
    UNTOUCHED(sts[1], "MPI_Waitall (success)");
    MPI_OK(MPI_Irecv(v, 1, MPI_INT, me, 13, MPI_COMM_WORLD, &rs[0]));
    rs[1] = MPI_REQUEST_NULL;
    self_send(13, 1);
    outcount = 0;
    while (outcount == 0) {
        sts[0].MPI_ERROR = MARK;
        MPI_OK(MPI_Testsome(2, rs, &outcount, indices, sts));
    }
    UNTOUCHED(sts[0], "MPI_Testsome (success)");

    /* MPI_ERR_IN_STATUS: every completed request's MPI_ERROR is written */
    MPI_OK(MPI_Irecv(v, 1, MPI_INT, me, 14, MPI_COMM_WORLD, &rs[0]));
    MPI_OK(MPI_Irecv(v + 1, 1, MPI_INT, me, 15, MPI_COMM_WORLD, &rs[1]));
    self_send(14, 4);
    self_send(15, 1);
    sts[0].MPI_ERROR = sts[1].MPI_ERROR = MARK;
    rc = MPI_Waitall(2, rs, sts);
    CHECK(rc == MPI_ERR_IN_STATUS, "truncating MPI_Waitall returned %d", rc);
    CHECK(sts[0].MPI_ERROR == MPI_ERR_TRUNCATE, "truncating MPI_Waitall: status 0 error %d",
          sts[0].MPI_ERROR);
    CHECK(sts[1].MPI_ERROR == MPI_SUCCESS, "truncating MPI_Waitall: status 1 error %d",
          sts[1].MPI_ERROR);
    return mt_finish();
}
