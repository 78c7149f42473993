/*
 * conv_args: the argument checks of the status conversions and accessors, the MPI 4.1
 * queries, the generalized requests, a window's keyvals and a communicator's buffer,
 * under MPI_ERRORS_RETURN, give the class the standard names: a NULL or ignored status
 * of any form, or a NULL output, MPI_ERR_ARG; a negative count MPI_ERR_COUNT; a NULL
 * array with elements MPI_ERR_ARG; a handle that names no datatype MPI_ERR_TYPE, no
 * request MPI_ERR_REQUEST, no communicator MPI_ERR_COMM; a buffer of a negative size, or
 * NULL with bytes, MPI_ERR_BUFFER; a request that failed, MPI_ERR_IN_STATUS from
 * MPI_Request_get_status_all and _some with its error in its status.  The handle conversions check
 * nothing: null handles convert both ways.  What the checks must let through (empty arrays,
 * MPI_BUFFER_AUTOMATIC) works, and the library stays usable after.
 */
#include "tests/mpi/mpitest.h"

#define EXPECT(cls, fn, ...) mt_expect_class_at(fn(__VA_ARGS__), cls, #fn, __FILE__, __LINE__)

static void statuses(void)
{
    MPI_Status c;
    MPI_Fint f[MPI_F_STATUS_SIZE];
    int v;

    MPI_OK(MPI_Status_set_source(&c, 3));
    MPI_OK(MPI_Status_c2f(&c, f));
    EXPECT(MPI_ERR_ARG, MPI_Status_c2f, NULL, f);
    EXPECT(MPI_ERR_ARG, MPI_Status_c2f, MPI_STATUS_IGNORE, f);
    EXPECT(MPI_ERR_ARG, MPI_Status_c2f, &c, MPI_F_STATUS_IGNORE);
    EXPECT(MPI_ERR_ARG, MPI_Status_f2c, MPI_F_STATUS_IGNORE, &c);
    EXPECT(MPI_ERR_ARG, MPI_Status_f2c, f, NULL);
    MPI_OK(MPI_Status_f2c(f, &c));
    MPI_OK(MPI_Status_get_source(&c, &v));
    CHECK(v == 3, "source %d after c2f and f2c", v);
    EXPECT(MPI_ERR_ARG, MPI_Status_get_source, &c, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Status_get_error, NULL, &v);
    EXPECT(MPI_ERR_ARG, MPI_Status_set_error, MPI_STATUS_IGNORE, 0);
}

static void handles(void)
{
    CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_NULL)) == MPI_COMM_NULL, "COMM_NULL both ways");
    CHECK(MPI_Type_fromint(MPI_Type_toint(MPI_DATATYPE_NULL)) == MPI_DATATYPE_NULL,
          "DATATYPE_NULL through an int");
    CHECK(MPI_File_c2f(MPI_FILE_NULL) == 0, "FILE_NULL's INTEGER is %d",
          (int)MPI_File_c2f(MPI_FILE_NULL));
    CHECK(MPI_Win_fromint(MPI_Win_toint(MPI_WIN_NULL)) == MPI_WIN_NULL, "WIN_NULL through an int");
}

static void queries(void)
{
    MPI_Datatype pair;
    MPI_Request reqs[1] = {MPI_REQUEST_NULL};
    MPI_Status st[1];
    int flag, idx, n, ind[1];

    EXPECT(MPI_ERR_TYPE, MPI_Type_get_value_index, MPI_DATATYPE_NULL, MPI_INT, &pair);
    EXPECT(MPI_ERR_TYPE, MPI_Type_get_value_index, MPI_INT, MPI_DATATYPE_NULL, &pair);
    EXPECT(MPI_ERR_ARG, MPI_Type_get_value_index, MPI_INT, MPI_INT, NULL);
    EXPECT(MPI_ERR_COUNT, MPI_Request_get_status_all, -1, reqs, &flag, st);
    EXPECT(MPI_ERR_ARG, MPI_Request_get_status_all, 1, NULL, &flag, st);
    EXPECT(MPI_ERR_ARG, MPI_Request_get_status_all, 1, reqs, NULL, st);
    EXPECT(MPI_ERR_COUNT, MPI_Request_get_status_any, -1, reqs, &idx, &flag, st);
    EXPECT(MPI_ERR_ARG, MPI_Request_get_status_any, 1, reqs, &idx, NULL, st);
    EXPECT(MPI_ERR_COUNT, MPI_Request_get_status_some, -1, reqs, &n, ind, st);
    EXPECT(MPI_ERR_ARG, MPI_Request_get_status_some, 1, reqs, NULL, ind, st);
    EXPECT(MPI_ERR_ARG, MPI_Request_get_status_some, 1, reqs, &n, NULL, st);
    reqs[0] = (MPI_Request)0x7fff1234;
    EXPECT(MPI_ERR_REQUEST, MPI_Request_get_status_all, 1, reqs, &flag, st);
    EXPECT(MPI_ERR_REQUEST, MPI_Request_get_status_any, 1, reqs, &idx, &flag, st);
    reqs[0] = MPI_REQUEST_NULL;
    MPI_OK(MPI_Request_get_status_all(0, NULL, &flag, MPI_STATUSES_IGNORE));
    CHECK(flag, "get_status_all of no requests: flag %d", flag);
    MPI_OK(MPI_Request_get_status_some(0, NULL, &n, NULL, MPI_STATUSES_IGNORE));
    CHECK(n == MPI_UNDEFINED, "get_status_some of no requests: outcount %d", n);
    /* a request's status may be ignored (mpi4py's Request.Get_status_any does) */
    MPI_OK(MPI_Request_get_status_any(1, reqs, &idx, &flag, MPI_STATUS_IGNORE));
    CHECK(flag && idx == MPI_UNDEFINED, "get_status_any of a null request: flag %d index %d",
          flag, idx);
}

/* a receive truncated: MPI_Request_get_status_all and _some return MPI_ERR_IN_STATUS with
   the request's error in its status and MPI_SUCCESS in the others', and leave it */
static void in_status(void)
{
    int out[2] = {1, 2}, in[1] = {0}, flag = 0, n = 0, ind[2], cls = -1, rc;
    MPI_Request r[2];
    MPI_Status st[2];

    MPI_OK(MPI_Isend(out, 2, MPI_INT, 0, 9, MPI_COMM_SELF, &r[0]));
    MPI_OK(MPI_Wait(&r[0], MPI_STATUS_IGNORE));
    MPI_OK(MPI_Irecv(in, 1, MPI_INT, 0, 9, MPI_COMM_SELF, &r[0]));
    r[1] = MPI_REQUEST_NULL;
    do {
        st[0].MPI_ERROR = st[1].MPI_ERROR = -1;
        rc = MPI_Request_get_status_all(2, r, &flag, st);
    } while (rc == MPI_SUCCESS && !flag);
    MPI_OK(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_IN_STATUS && flag, "get_status_all of a truncated receive: class %d", cls);
    MPI_OK(MPI_Error_class(st[0].MPI_ERROR, &cls));
    CHECK(cls == MPI_ERR_TRUNCATE && st[1].MPI_ERROR == MPI_SUCCESS,
          "get_status_all's statuses: class %d, %d", cls, st[1].MPI_ERROR);
    rc = MPI_Request_get_status_some(2, r, &n, ind, st);
    MPI_OK(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_IN_STATUS && n == 1 && ind[0] == 0,
          "get_status_some of a truncated receive: class %d, %d done", cls, n);
    MPI_OK(MPI_Error_class(st[0].MPI_ERROR, &cls));
    CHECK(cls == MPI_ERR_TRUNCATE, "get_status_some's status: class %d", cls);
    CHECK(r[0] != MPI_REQUEST_NULL, "the request was freed");
    rc = MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    MPI_OK(MPI_Error_class(rc, &cls));
    CHECK(cls == MPI_ERR_TRUNCATE, "MPI_Wait after: class %d", cls);
}

static int query_fn(void *extra, MPI_Status *status)
{
    (void)extra;
    MPI_Status_set_elements(status, MPI_BYTE, 0);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}

static int free_fn(void *extra)
{
    (void)extra;
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    (void)extra, (void)complete;
    return MPI_SUCCESS;
}

static void greqs_and_keyvals(void)
{
    MPI_Request r;
    int key;

    EXPECT(MPI_ERR_ARG, MPI_Grequest_start, NULL, free_fn, cancel_fn, NULL, &r);
    EXPECT(MPI_ERR_ARG, MPI_Grequest_start, query_fn, free_fn, cancel_fn, NULL, NULL);
    EXPECT(MPI_ERR_REQUEST, MPI_Grequest_complete, MPI_REQUEST_NULL);
    MPI_OK(MPI_Grequest_start(query_fn, free_fn, cancel_fn, NULL, &r));
    MPI_OK(MPI_Grequest_complete(r));
    MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    EXPECT(MPI_ERR_ARG, MPI_Win_create_keyval, MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, NULL,
           NULL);
    EXPECT(MPI_ERR_ARG, MPI_Win_free_keyval, NULL);
    MPI_OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &key, NULL));
    MPI_OK(MPI_Win_free_keyval(&key));
}

static void buffers(void)
{
    static char mem[1024];
    void *addr;
    int size;
    MPI_Count size_c;
    MPI_Request r;

    EXPECT(MPI_ERR_COMM, MPI_Comm_attach_buffer, MPI_COMM_NULL, mem, 8);
    EXPECT(MPI_ERR_BUFFER, MPI_Comm_attach_buffer, MPI_COMM_SELF, mem, -1);
    EXPECT(MPI_ERR_BUFFER, MPI_Comm_attach_buffer_c, MPI_COMM_SELF, NULL, 8);
    EXPECT(MPI_ERR_ARG, MPI_Comm_detach_buffer, MPI_COMM_SELF, NULL, &size);
    EXPECT(MPI_ERR_ARG, MPI_Comm_detach_buffer_c, MPI_COMM_SELF, &addr, NULL);
    EXPECT(MPI_ERR_COMM, MPI_Comm_flush_buffer, MPI_COMM_NULL);
    EXPECT(MPI_ERR_ARG, MPI_Comm_iflush_buffer, MPI_COMM_SELF, NULL);
    MPI_OK(MPI_Comm_attach_buffer_c(MPI_COMM_SELF, mem, (MPI_Count)sizeof(mem)));
    MPI_OK(MPI_Comm_iflush_buffer(MPI_COMM_SELF, &r));
    MPI_OK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Comm_detach_buffer_c(MPI_COMM_SELF, &addr, &size_c));
    CHECK(addr == mem && size_c == (MPI_Count)sizeof(mem), "detached %p of %lld bytes", addr,
          (long long)size_c);
    MPI_OK(MPI_Comm_attach_buffer(MPI_COMM_SELF, MPI_BUFFER_AUTOMATIC, 0));
    MPI_OK(MPI_Comm_detach_buffer(MPI_COMM_SELF, &addr, &size));
    CHECK(addr == MPI_BUFFER_AUTOMATIC && size == 0, "automatic detached as %p, %d", addr, size);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "conv_args");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    statuses();
    handles();
    queries();
    in_status();
    greqs_and_keyvals();
    buffers();
    return mt_finish();
}
