/*
 * buffer_attach: buffers for MPI_Bsend attached to a communicator and to a session
 * (MPI 4.1), beside the process's.
 *   - a communicator's buffer serves the buffered sends on it: with a process buffer too
 *     small for one message, sends that fit the communicator's succeed on it, and fail
 *     (MPI_ERR_BUFFER) on another communicator
 *   - detach gives back the address and size attached, and afterwards the process's
 *     buffer serves the communicator again
 *   - MPI_BUFFER_AUTOMATIC: sends of any size succeed, detach gives it back with size 0;
 *     the process's buffer may be automatic too
 *   - flush and iflush return once the buffered sends have left; a second attach is
 *     MPI_ERR_BUFFER; the _c forms; a session's buffer attached, flushed and detached,
 *     and one left attached when the session ends
 * Every rank sends to the next and receives from the previous, so any np works.
 */
#include "tests/mpi/mpitest.h"

#include <string.h>

#define N 8      /* messages per round */
#define LEN 1000 /* ints per message */

static int next, prev;

/* the errors a session's handler saw */
static int session_errors, session_error;

static void on_session_error(MPI_Session *s, int *code, ...)
{
    (void)s;
    session_errors++;
    session_error = *code;
}

/* n buffered sends of LEN ints on comm (the first return code that is not success), then
   the receives of those that went */
static int bsend_round(MPI_Comm comm, int n, int tag)
{
    static int out[N][LEN], in[LEN];
    int rc = MPI_SUCCESS, sent = 0, got = 0;

    for (int k = 0; k < n && rc == MPI_SUCCESS; k++) {
        for (int i = 0; i < LEN; i++)
            out[k][i] = mt_rank * 100000 + k * 1000 + i;
        rc = MPI_Bsend(out[k], LEN, MPI_INT, next, tag, comm);
        sent += rc == MPI_SUCCESS;
    }
    /* the neighbour sent as many as we did, since the buffers are alike everywhere */
    for (int k = 0; k < sent; k++) {
        MPI_OK(MPI_Recv(in, LEN, MPI_INT, prev, tag, comm, MPI_STATUS_IGNORE));
        got += in[LEN - 1] == prev * 100000 + k * 1000 + LEN - 1;
    }
    CHECK(got == sent, "%d of %d buffered messages arrived right", got, sent);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Comm comm, other;
    size_t need = N * (LEN * sizeof(int) + MPI_BSEND_OVERHEAD);
    char *cbuf = malloc(need), *pbuf = malloc(64);
    void *addr;
    int size, rc;
    MPI_Count csize;
    MPI_Request req;

    mt_init(&argc, &argv, "buffer_attach");
    next = (mt_rank + 1) % mt_size;
    prev = (mt_rank + mt_size - 1) % mt_size;
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &other));
    MPI_OK(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Comm_set_errhandler(other, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    /* the process's buffer holds no message of LEN ints; the communicator's holds N */
    MPI_OK(MPI_Buffer_attach(pbuf, 64));
    MPI_OK(MPI_Comm_attach_buffer(comm, cbuf, (int)need));
    CHECK(MPI_Comm_attach_buffer(comm, cbuf, (int)need) == MPI_ERR_BUFFER, "second attach");
    rc = bsend_round(comm, N, 1);
    CHECK(rc == MPI_SUCCESS, "Bsend on the communicator's buffer: %d", rc);
    rc = bsend_round(other, 1, 2);
    CHECK(rc == MPI_ERR_BUFFER, "Bsend on another communicator took more than its buffer: %d", rc);
    mt_barrier(mt_sync_comm);
    /* one message larger than the communicator's buffer */
    {
        static int big[(N + 1) * LEN];
        rc = MPI_Bsend(big, (N + 1) * LEN, MPI_INT, next, 3, comm);
        CHECK(rc == MPI_ERR_BUFFER, "a message larger than the buffer went: %d", rc);
    }
    MPI_OK(MPI_Comm_flush_buffer(comm));
    MPI_OK(MPI_Comm_iflush_buffer(comm, &req));
    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Comm_detach_buffer(comm, &addr, &size));
    CHECK(addr == cbuf && size == (int)need, "detached %p %d, attached %p %zu", addr, size,
          (void *)cbuf, need);
    rc = bsend_round(comm, 1, 4);
    CHECK(rc == MPI_ERR_BUFFER, "after detach the communicator kept a buffer: %d", rc);
    MPI_OK(MPI_Comm_detach_buffer(comm, &addr, &size));
    CHECK(addr == NULL && size == 0, "detach of nothing: %p %d", addr, size);
    mt_barrier(mt_sync_comm);

    /* automatic: any number, any size */
    MPI_OK(MPI_Comm_attach_buffer(comm, MPI_BUFFER_AUTOMATIC, 0));
    rc = bsend_round(comm, N, 5);
    CHECK(rc == MPI_SUCCESS, "Bsend on an automatic buffer: %d", rc);
    MPI_OK(MPI_Comm_iflush_buffer(comm, &req));
    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Comm_detach_buffer_c(comm, &addr, &csize));
    CHECK(addr == MPI_BUFFER_AUTOMATIC && csize == 0, "automatic detached as %p %lld", addr,
          (long long)csize);
    MPI_OK(MPI_Buffer_detach(&addr, &size));
    CHECK(addr == pbuf && size == 64, "process buffer %p %d", addr, size);
    MPI_OK(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
    rc = bsend_round(other, N, 6);
    CHECK(rc == MPI_SUCCESS, "Bsend on the process's automatic buffer: %d", rc);
    MPI_OK(MPI_Buffer_flush());
    MPI_OK(MPI_Buffer_detach(&addr, &size));
    CHECK(addr == MPI_BUFFER_AUTOMATIC && size == 0, "process automatic %p %d", addr, size);
    MPI_OK(MPI_Comm_attach_buffer_c(comm, cbuf, (MPI_Count)need));
    rc = bsend_round(comm, N, 7);
    CHECK(rc == MPI_SUCCESS, "Bsend after attach_c: %d", rc);
    MPI_OK(MPI_Comm_detach_buffer(comm, &addr, &size));
    CHECK(addr == cbuf && size == (int)need, "detach after attach_c: %p %d", addr, size);
    CHECK(MPI_Comm_attach_buffer(comm, cbuf, -1) == MPI_ERR_BUFFER, "negative size");
    CHECK(MPI_Comm_attach_buffer(MPI_COMM_NULL, cbuf, 8) == MPI_ERR_COMM, "COMM_NULL");
    mt_barrier(mt_sync_comm);

    /* a session's buffer */
    MPI_Session s;
    char *sbuf = malloc(256);
    MPI_OK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MPI_OK(MPI_Session_attach_buffer(s, sbuf, 256));
    CHECK(MPI_Session_attach_buffer(s, sbuf, 256) == MPI_ERR_BUFFER, "second session attach");
    MPI_OK(MPI_Session_flush_buffer(s));
    MPI_OK(MPI_Session_iflush_buffer(s, &req));
    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Session_detach_buffer(s, &addr, &size));
    CHECK(addr == sbuf && size == 256, "session detached %p %d", addr, size);
    MPI_OK(MPI_Session_attach_buffer_c(s, sbuf, 128));
    MPI_OK(MPI_Session_detach_buffer_c(s, &addr, &csize));
    CHECK(addr == sbuf && csize == 128, "session detached_c %p %lld", addr, (long long)csize);
    /* a session's bad arguments go to its handler */
    MPI_Errhandler se;
    MPI_OK(MPI_Session_create_errhandler(on_session_error, &se));
    MPI_OK(MPI_Session_set_errhandler(s, se));
    MPI_OK(MPI_Errhandler_free(&se));
    CHECK(MPI_Session_attach_buffer(s, sbuf, -1) == MPI_ERR_BUFFER, "session negative size");
    CHECK(MPI_Session_attach_buffer_c(s, NULL, 16) == MPI_ERR_BUFFER, "session NULL buffer");
    CHECK(MPI_Session_detach_buffer(s, NULL, &size) == MPI_ERR_ARG, "session NULL buffer_addr");
    CHECK(MPI_Session_detach_buffer_c(s, &addr, NULL) == MPI_ERR_ARG, "session NULL size");
    CHECK(MPI_Session_iflush_buffer(s, NULL) == MPI_ERR_ARG, "session NULL request");
    CHECK(session_errors == 5 && session_error == MPI_ERR_ARG,
          "the session's handler saw %d errors, the last %d", session_errors, session_error);
    MPI_OK(MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Session_attach_buffer(s, sbuf, 256));
    MPI_OK(MPI_Session_finalize(&s));
    CHECK(MPI_Session_flush_buffer(MPI_SESSION_NULL) == MPI_ERR_SESSION, "SESSION_NULL");

    MPI_OK(MPI_Comm_free(&other));
    MPI_OK(MPI_Comm_free(&comm));
    int errs = mt_finish();
    free(sbuf);
    free(cbuf);
    free(pbuf);
    return errs;
}
