/*
 * err_return: with MPI_ERRORS_RETURN, each invalid argument is reported by its error
 * class and the library stays usable.  Bad rank, negative count, NULL buffer with a
 * count, invalid and freed communicator, invalid, freed and uncommitted datatype, invalid
 * and freed request, tag above MPI_TAG_UB and negative tag, truncation.  Every class has
 * a non-empty Error_string.
 *
 * Handles that are freed or made up are only tried with compi (whose handles are table
 * indices, so using a stale one is safe); with other MPIs they are pointers and the test
 * would crash instead of exercising the error path.
 */
#include "tests/mpi/mpitest.h"

#include <limits.h>

static void expect_class(int rc, int cls, const char *what)
{
    int got = -1, len = -1;
    char str[MPI_MAX_ERROR_STRING];

    if (rc == MPI_SUCCESS) {
        CHECK(0, "%s: succeeded, expected error class %d", what, cls);
        return;
    }
    MPI_OK(MPI_Error_class(rc, &got));
    CHECK(got == cls, "%s: error class %d, expected %d", what, got, cls);
    str[0] = '\0';
    MPI_OK(MPI_Error_string(rc, str, &len));
    CHECK(len > 0 && (int)strlen(str) == len, "%s: Error_string '%s' length %d", what, str,
          len);
}

int main(int argc, char **argv)
{
    int v[16] = {0}, right, left, *tag_ub, flag;
    MPI_Request req;
    MPI_Status st;

    mt_init(&argc, &argv, "err_return");
    right = (mt_rank + 1) % mt_size;
    left = (mt_rank + mt_size - 1) % mt_size;
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
    CHECK(flag, "MPI_TAG_UB not set");

    /* every class in the list has a string */
    {
        static const int classes[] = {MPI_ERR_BUFFER, MPI_ERR_COUNT,   MPI_ERR_TYPE,
                                      MPI_ERR_TAG,    MPI_ERR_COMM,    MPI_ERR_RANK,
                                      MPI_ERR_REQUEST, MPI_ERR_TRUNCATE, MPI_ERR_OTHER,
                                      MPI_ERR_ARG,    MPI_ERR_INTERN,  MPI_SUCCESS};
        for (int i = 0; i < (int)(sizeof(classes) / sizeof(classes[0])); i++) {
            char str[MPI_MAX_ERROR_STRING] = "";
            int len = -1;

            MPI_OK(MPI_Error_string(classes[i], str, &len));
            CHECK(len > 0 && str[0] != '\0', "Error_string(%d) is empty", classes[i]);
        }
    }

    expect_class(MPI_Send(v, 1, MPI_INT, mt_size, 0, MPI_COMM_WORLD), MPI_ERR_RANK,
                 "Send to rank size");
    expect_class(MPI_Send(v, 1, MPI_INT, -7, 0, MPI_COMM_WORLD), MPI_ERR_RANK,
                 "Send to rank -7");
    expect_class(MPI_Recv(v, 1, MPI_INT, mt_size + 3, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK,
                 "Recv from rank size+3");
    expect_class(MPI_Irecv(v, 1, MPI_INT, mt_size, 0, MPI_COMM_WORLD, &req), MPI_ERR_RANK,
                 "Irecv from rank size");
    expect_class(MPI_Send(v, -1, MPI_INT, right, 0, MPI_COMM_WORLD), MPI_ERR_COUNT,
                 "Send count -1");
    expect_class(MPI_Irecv(v, -3, MPI_INT, left, 0, MPI_COMM_WORLD, &req), MPI_ERR_COUNT,
                 "Irecv count -3");
    expect_class(MPI_Send(NULL, 4, MPI_INT, right, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER,
                 "Send NULL buffer, count 4");
    expect_class(MPI_Recv(NULL, 4, MPI_INT, left, 0, MPI_COMM_WORLD, &st), MPI_ERR_BUFFER,
                 "Recv NULL buffer, count 4");
    expect_class(MPI_Send(v, 1, MPI_INT, right, 0, MPI_COMM_NULL), MPI_ERR_COMM,
                 "Send on MPI_COMM_NULL");
    expect_class(MPI_Send(v, 1, MPI_DATATYPE_NULL, right, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
                 "Send MPI_DATATYPE_NULL");
    /* a tag above MPI_TAG_UB exists only where MPI_TAG_UB is below INT_MAX (compi's is
     * INT_MAX: *tag_ub + 1 would overflow into a negative tag) */
    if (*tag_ub < INT_MAX) {
        expect_class(MPI_Send(v, 1, MPI_INT, right, *tag_ub + 1, MPI_COMM_WORLD), MPI_ERR_TAG,
                     "Send tag MPI_TAG_UB+1");
    }
    expect_class(MPI_Send(v, 1, MPI_INT, right, -5, MPI_COMM_WORLD), MPI_ERR_TAG,
                 "Send tag -5");
    expect_class(MPI_Send(v, 1, MPI_INT, right, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG,
                 "Send tag MPI_ANY_TAG");
    expect_class(MPI_Recv(v, 1, MPI_INT, left, -5, MPI_COMM_WORLD, &st), MPI_ERR_TAG,
                 "Recv tag -5");

    /* an uncommitted derived type */
    {
        MPI_Datatype t;

        MPI_OK(MPI_Type_contiguous(2, MPI_INT, &t));
        expect_class(MPI_Send(v, 1, t, right, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
                     "Send with an uncommitted type");
        MPI_OK(MPI_Type_free(&t));
    }

#ifdef COMPI
    /* stale and made-up handles (see the top of the file) */
    {
        MPI_Comm dup, stale_comm;
        MPI_Datatype t, stale_type;
        MPI_Request r, stale_req;
        int x = 1;

        MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
        stale_comm = dup;
        MPI_OK(MPI_Comm_free(&dup));
        expect_class(MPI_Send(v, 1, MPI_INT, right, 0, stale_comm), MPI_ERR_COMM,
                     "Send on a freed communicator");
        expect_class(MPI_Send(v, 1, MPI_INT, right, 0, (MPI_Comm)0x1000fff), MPI_ERR_COMM,
                     "Send on a made-up communicator");
        expect_class(MPI_Send(v, 1, MPI_INT, right, 0, (MPI_Comm)MPI_INT), MPI_ERR_COMM,
                     "Send on a datatype handle used as communicator");

        MPI_OK(MPI_Type_contiguous(2, MPI_INT, &t));
        MPI_OK(MPI_Type_commit(&t));
        stale_type = t;
        MPI_OK(MPI_Type_free(&t));
        expect_class(MPI_Send(v, 1, stale_type, right, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
                     "Send with a freed type");
        expect_class(MPI_Send(v, 1, (MPI_Datatype)0x3000fff, right, 0, MPI_COMM_WORLD),
                     MPI_ERR_TYPE, "Send with a made-up type");

        MPI_OK(MPI_Send_init(&x, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &r));
        stale_req = r;
        MPI_OK(MPI_Request_free(&r));
        r = stale_req;
        expect_class(MPI_Wait(&r, &st), MPI_ERR_REQUEST, "Wait on a freed request");
        r = (MPI_Request)0x5000fff;
        expect_class(MPI_Wait(&r, &st), MPI_ERR_REQUEST, "Wait on a made-up request");
        r = (MPI_Request)MPI_COMM_WORLD;
        expect_class(MPI_Test(&r, &x, &st), MPI_ERR_REQUEST,
                     "Test on a communicator handle used as request");
    }
#endif

    /* truncation: 10 ints into room for 5, blocking and nonblocking */
    {
        int out[10], in[5];

        for (int i = 0; i < 10; i++)
            out[i] = i;
        MPI_OK(MPI_Isend(out, 10, MPI_INT, right, 9, MPI_COMM_WORLD, &req));
        expect_class(MPI_Recv(in, 5, MPI_INT, left, 9, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE,
                     "Recv of 10 ints into 5");
        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        MPI_OK(MPI_Isend(out, 10, MPI_INT, right, 10, MPI_COMM_WORLD, &req));
        {
            MPI_Request rr;
            int rc;

            MPI_OK(MPI_Irecv(in, 5, MPI_INT, left, 10, MPI_COMM_WORLD, &rr));
            rc = MPI_Wait(&rr, &st);
            expect_class(rc, MPI_ERR_TRUNCATE, "Irecv+Wait of 10 ints into 5");
        }
        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    }

    /* after all that, ordinary traffic still works */
    {
        int out = 123 + mt_rank, in = -1;

        MPI_OK(MPI_Sendrecv(&out, 1, MPI_INT, right, 11, &in, 1, MPI_INT, left, 11,
                            MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(in == 123 + left, "after the errors: got %d, expected %d", in, 123 + left);
    }
    return mt_finish();
}
