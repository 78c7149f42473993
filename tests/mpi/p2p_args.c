/*
 * p2p_args: the argument checks of every point-to-point call, in its int form and its
 * large-count form (MPI_x_c), under MPI_ERRORS_RETURN give the class the standard names:
 * a negative count MPI_ERR_COUNT, a rank outside the communicator MPI_ERR_RANK (and
 * MPI_ANY_SOURCE as a destination), a tag outside [0, MPI_TAG_UB] MPI_ERR_TAG (and
 * MPI_ANY_TAG on a send), MPI_DATATYPE_NULL MPI_ERR_TYPE, MPI_COMM_NULL MPI_ERR_COMM, a
 * NULL request, flag or message pointer MPI_ERR_ARG, a message handle that names no
 * message MPI_ERR_REQUEST; a status to read that is MPI_STATUS_IGNORE MPI_ERR_ARG, and a
 * count beyond int is MPI_UNDEFINED from MPI_Get_count but not from MPI_Get_count_c;
 * the completion calls' pointers, counts and request handles; the attached buffer's.
 * What the checks must let through (MPI_PROC_NULL, the wildcards on a receive, a count of
 * 0) works, and the library stays usable after.
 */
#include "tests/mpi/mpitest.h"

#include <limits.h>

/* the call in both forms: fn(args) and fn_c(args) */
#define EXPECT(cls, fn, ...)                                                                       \
    do {                                                                                           \
        mt_expect_class_at(fn(__VA_ARGS__), cls, #fn, __FILE__, __LINE__);                                         \
        mt_expect_class_at(fn##_c(__VA_ARGS__), cls, #fn "_c", __FILE__, __LINE__);                                \
    } while (0)
#define BOTH_OK(fn, ...)                                                                           \
    do {                                                                                           \
        MPI_OK(fn(__VA_ARGS__));                                                                   \
        MPI_OK(fn##_c(__VA_ARGS__));                                                               \
    } while (0)

/* the checks every send of one form shares (blocking: no request) */
#define SEND_CHECKS(fn, ...)                                                                       \
    do {                                                                                           \
        EXPECT(MPI_ERR_COUNT, fn, v, -1, MPI_INT, 0, 0, MPI_COMM_SELF __VA_ARGS__);                \
        EXPECT(MPI_ERR_TYPE, fn, v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_SELF __VA_ARGS__);        \
        EXPECT(MPI_ERR_RANK, fn, v, 1, MPI_INT, 1, 0, MPI_COMM_SELF __VA_ARGS__);                  \
        EXPECT(MPI_ERR_RANK, fn, v, 1, MPI_INT, -3, 0, MPI_COMM_SELF __VA_ARGS__);                 \
        EXPECT(MPI_ERR_RANK, fn, v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_SELF __VA_ARGS__);     \
        EXPECT(MPI_ERR_TAG, fn, v, 1, MPI_INT, 0, -1, MPI_COMM_SELF __VA_ARGS__);                  \
        EXPECT(MPI_ERR_TAG, fn, v, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_SELF __VA_ARGS__);         \
        EXPECT(MPI_ERR_COMM, fn, v, 1, MPI_INT, 0, 0, MPI_COMM_NULL __VA_ARGS__);                  \
    } while (0)

#define RECV_CHECKS(fn, ...)                                                                       \
    do {                                                                                           \
        EXPECT(MPI_ERR_COUNT, fn, v, -1, MPI_INT, 0, 0, MPI_COMM_SELF __VA_ARGS__);                \
        EXPECT(MPI_ERR_TYPE, fn, v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_SELF __VA_ARGS__);        \
        EXPECT(MPI_ERR_RANK, fn, v, 1, MPI_INT, 1, 0, MPI_COMM_SELF __VA_ARGS__);                  \
        EXPECT(MPI_ERR_TAG, fn, v, 1, MPI_INT, 0, -7, MPI_COMM_SELF __VA_ARGS__);                  \
        EXPECT(MPI_ERR_COMM, fn, v, 1, MPI_INT, 0, 0, MPI_COMM_NULL __VA_ARGS__);                  \
    } while (0)

int main(int argc, char **argv)
{
    int v[4] = {0}, flag;
    MPI_Request req;
    MPI_Message msg;
    MPI_Status st;

    mt_init(&argc, &argv, "p2p_args");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

    /* sends of every mode (MPI_COMM_SELF: rank 0 is the only rank) */
    SEND_CHECKS(MPI_Send);
    SEND_CHECKS(MPI_Ssend);
    SEND_CHECKS(MPI_Rsend);
    SEND_CHECKS(MPI_Bsend);
    SEND_CHECKS(MPI_Isend, , &req);
    SEND_CHECKS(MPI_Issend, , &req);
    SEND_CHECKS(MPI_Irsend, , &req);
    SEND_CHECKS(MPI_Ibsend, , &req);
    SEND_CHECKS(MPI_Send_init, , &req);
    SEND_CHECKS(MPI_Ssend_init, , &req);
    SEND_CHECKS(MPI_Rsend_init, , &req);
    SEND_CHECKS(MPI_Bsend_init, , &req);
    EXPECT(MPI_ERR_ARG, MPI_Isend, v, 1, MPI_INT, 0, 0, MPI_COMM_SELF, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Issend, v, 1, MPI_INT, 0, 0, MPI_COMM_SELF, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Send_init, v, 1, MPI_INT, 0, 0, MPI_COMM_SELF, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Bsend_init, v, 1, MPI_INT, 0, 0, MPI_COMM_SELF, NULL);

    /* receives */
    RECV_CHECKS(MPI_Recv, , &st);
    RECV_CHECKS(MPI_Irecv, , &req);
    RECV_CHECKS(MPI_Recv_init, , &req);
    EXPECT(MPI_ERR_ARG, MPI_Irecv, v, 1, MPI_INT, 0, 0, MPI_COMM_SELF, NULL);
    EXPECT(MPI_ERR_ARG, MPI_Recv_init, v, 1, MPI_INT, 0, 0, MPI_COMM_SELF, NULL);

    /* the exchanges: each side's count, datatype, rank and tag */
    EXPECT(MPI_ERR_COUNT, MPI_Sendrecv, v, 1, MPI_INT, 0, 0, v, -1, MPI_INT, 0, 0, MPI_COMM_SELF,
           &st);
    EXPECT(MPI_ERR_TYPE, MPI_Sendrecv, v, 1, MPI_DATATYPE_NULL, 0, 0, v, 1, MPI_INT, 0, 0,
           MPI_COMM_SELF, &st);
    EXPECT(MPI_ERR_RANK, MPI_Sendrecv, v, 1, MPI_INT, 0, 0, v, 1, MPI_INT, 2, 0, MPI_COMM_SELF,
           &st);
    EXPECT(MPI_ERR_TAG, MPI_Sendrecv, v, 1, MPI_INT, 0, MPI_ANY_TAG, v, 1, MPI_INT, 0, 0,
           MPI_COMM_SELF, &st);
    EXPECT(MPI_ERR_COUNT, MPI_Sendrecv_replace, v, -2, MPI_INT, 0, 0, 0, 0, MPI_COMM_SELF, &st);
    EXPECT(MPI_ERR_RANK, MPI_Sendrecv_replace, v, 1, MPI_INT, MPI_ANY_SOURCE, 0, 0, 0,
           MPI_COMM_SELF, &st);
    EXPECT(MPI_ERR_TAG, MPI_Sendrecv_replace, v, 1, MPI_INT, 0, 0, 0, -9, MPI_COMM_SELF, &st);
    EXPECT(MPI_ERR_COMM, MPI_Sendrecv_replace, v, 1, MPI_INT, 0, 0, 0, 0, MPI_COMM_NULL, &st);
    EXPECT(MPI_ERR_COUNT, MPI_Isendrecv, v, -1, MPI_INT, 0, 0, v, 1, MPI_INT, 0, 0, MPI_COMM_SELF,
           &req);
    EXPECT(MPI_ERR_TYPE, MPI_Isendrecv, v, 1, MPI_INT, 0, 0, v, 1, MPI_DATATYPE_NULL, 0, 0,
           MPI_COMM_SELF, &req);
    EXPECT(MPI_ERR_RANK, MPI_Isendrecv, v, 1, MPI_INT, 5, 0, v, 1, MPI_INT, 0, 0, MPI_COMM_SELF,
           &req);
    EXPECT(MPI_ERR_ARG, MPI_Isendrecv, v, 1, MPI_INT, 0, 0, v, 1, MPI_INT, 0, 0, MPI_COMM_SELF,
           NULL);
    EXPECT(MPI_ERR_TAG, MPI_Isendrecv_replace, v, 1, MPI_INT, 0, -1, 0, 0, MPI_COMM_SELF, &req);
    EXPECT(MPI_ERR_TYPE, MPI_Isendrecv_replace, v, 1, MPI_DATATYPE_NULL, 0, 0, 0, 0, MPI_COMM_SELF,
           &req);
    EXPECT(MPI_ERR_ARG, MPI_Isendrecv_replace, v, 1, MPI_INT, 0, 0, 0, 0, MPI_COMM_SELF, NULL);

    /* probes (no large-count form) and matched receives */
    mt_expect_class(MPI_Probe(3, 0, MPI_COMM_SELF, &st), MPI_ERR_RANK, "MPI_Probe");
    mt_expect_class(MPI_Probe(0, -2, MPI_COMM_SELF, &st), MPI_ERR_TAG, "MPI_Probe");
    mt_expect_class(MPI_Probe(0, 0, MPI_COMM_NULL, &st), MPI_ERR_COMM, "MPI_Probe");
    mt_expect_class(MPI_Iprobe(0, 0, MPI_COMM_SELF, NULL, &st), MPI_ERR_ARG, "MPI_Iprobe");
    mt_expect_class(MPI_Iprobe(-5, 0, MPI_COMM_SELF, &flag, &st), MPI_ERR_RANK, "MPI_Iprobe");
    mt_expect_class(MPI_Mprobe(0, -3, MPI_COMM_SELF, &msg, &st), MPI_ERR_TAG, "MPI_Mprobe");
    mt_expect_class(MPI_Mprobe(0, 0, MPI_COMM_SELF, NULL, &st), MPI_ERR_ARG, "MPI_Mprobe");
    mt_expect_class(MPI_Improbe(0, 0, MPI_COMM_SELF, &flag, NULL, &st), MPI_ERR_ARG, "MPI_Improbe");
    mt_expect_class(MPI_Improbe(0, 0, MPI_COMM_SELF, NULL, &msg, &st), MPI_ERR_ARG, "MPI_Improbe");
    msg = MPI_MESSAGE_NO_PROC;
    EXPECT(MPI_ERR_COUNT, MPI_Mrecv, v, -1, MPI_INT, &msg, &st);
    EXPECT(MPI_ERR_TYPE, MPI_Mrecv, v, 1, MPI_DATATYPE_NULL, &msg, &st);
    EXPECT(MPI_ERR_ARG, MPI_Mrecv, v, 1, MPI_INT, NULL, &st);
    EXPECT(MPI_ERR_COUNT, MPI_Imrecv, v, -1, MPI_INT, &msg, &req);
    EXPECT(MPI_ERR_ARG, MPI_Imrecv, v, 1, MPI_INT, &msg, NULL);
    msg = MPI_MESSAGE_NULL;
    EXPECT(MPI_ERR_REQUEST, MPI_Mrecv, v, 1, MPI_INT, &msg, &st);

    /* statuses: the one to read must be real, the count pointer too; a count beyond int is
       MPI_UNDEFINED in the int forms only */
    {
        int n = 0;
        MPI_Count cn = 0;
        mt_expect_class(MPI_Get_count(MPI_STATUS_IGNORE, MPI_INT, &n), MPI_ERR_ARG, "MPI_Get_count");
        mt_expect_class(MPI_Get_count_c(&st, MPI_INT, NULL), MPI_ERR_ARG, "MPI_Get_count_c");
        mt_expect_class(MPI_Get_elements_c(&st, MPI_DATATYPE_NULL, &cn), MPI_ERR_TYPE,
                     "MPI_Get_elements_c");
        EXPECT(MPI_ERR_COUNT, MPI_Status_set_elements, &st, MPI_INT, -1);
        EXPECT(MPI_ERR_ARG, MPI_Status_set_elements, MPI_STATUS_IGNORE, MPI_INT, 1);
        mt_expect_class(MPI_Test_cancelled(&st, NULL), MPI_ERR_ARG, "MPI_Test_cancelled");
        MPI_OK(MPI_Status_set_elements_c(&st, MPI_BYTE, (MPI_Count)INT_MAX + 3));
        MPI_OK(MPI_Get_count(&st, MPI_BYTE, &n));
        MPI_OK(MPI_Get_count_c(&st, MPI_BYTE, &cn));
        CHECK(n == MPI_UNDEFINED && cn == (MPI_Count)INT_MAX + 3, "Get_count %d, _c %lld", n,
              (long long)cn);
        MPI_OK(MPI_Get_elements(&st, MPI_BYTE, &n));
        MPI_OK(MPI_Get_elements_c(&st, MPI_BYTE, &cn));
        CHECK(n == MPI_UNDEFINED && cn == (MPI_Count)INT_MAX + 3, "Get_elements %d, _c %lld", n,
              (long long)cn);
    }

    /* requests: pointers, counts, handles (MPI_REQUEST_NULL passes where the call allows it) */
    {
        MPI_Request nul = MPI_REQUEST_NULL, two[2];
        int index = 0, outcount = 0, indices[2];
        mt_expect_class(MPI_Wait(NULL, &st), MPI_ERR_ARG, "MPI_Wait");
        mt_expect_class(MPI_Test(&nul, NULL, &st), MPI_ERR_ARG, "MPI_Test");
        mt_expect_class(MPI_Waitall(-1, two, MPI_STATUSES_IGNORE), MPI_ERR_COUNT, "MPI_Waitall");
        mt_expect_class(MPI_Waitall(1, NULL, MPI_STATUSES_IGNORE), MPI_ERR_ARG, "MPI_Waitall");
#ifdef COMPI
        {
            /* a made-up handle: safe with compi's (table indices; see err_return.c) */
            MPI_Request bad = (MPI_Request)0x5000fff;
            mt_expect_class(MPI_Wait(&bad, &st), MPI_ERR_REQUEST, "MPI_Wait");
            two[0] = MPI_REQUEST_NULL;
            two[1] = bad;
            mt_expect_class(MPI_Testall(2, two, &flag, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST,
                         "MPI_Testall");
            mt_expect_class(MPI_Request_get_status(bad, &flag, &st), MPI_ERR_REQUEST,
                         "MPI_Request_get_status");
        }
#endif
        two[0] = two[1] = MPI_REQUEST_NULL;
        mt_expect_class(MPI_Testany(2, two, &index, NULL, &st), MPI_ERR_ARG, "MPI_Testany");
        mt_expect_class(MPI_Waitany(2, two, NULL, &st), MPI_ERR_ARG, "MPI_Waitany");
        mt_expect_class(MPI_Waitsome(2, two, NULL, indices, MPI_STATUSES_IGNORE), MPI_ERR_ARG,
                     "MPI_Waitsome");
        mt_expect_class(MPI_Startall(-2, two), MPI_ERR_COUNT, "MPI_Startall");
        mt_expect_class(MPI_Request_free(&nul), MPI_ERR_REQUEST, "MPI_Request_free");
        mt_expect_class(MPI_Cancel(&nul), MPI_ERR_REQUEST, "MPI_Cancel");
        mt_expect_class(MPI_Start(&nul), MPI_ERR_REQUEST, "MPI_Start");
        /* null requests complete at once */
        MPI_OK(MPI_Wait(&nul, &st));
        MPI_OK(MPI_Waitany(2, two, &index, &st));
        CHECK(index == MPI_UNDEFINED, "Waitany of null requests: index %d", index);
        MPI_OK(MPI_Testsome(2, two, &outcount, indices, MPI_STATUSES_IGNORE));
        CHECK(outcount == MPI_UNDEFINED, "Testsome of null requests: outcount %d", outcount);
        MPI_OK(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st));
        CHECK(flag, "Request_get_status of MPI_REQUEST_NULL: flag %d", flag);
    }

    /* the attached buffer: a size in bytes, not NULL with bytes; what is detached */
    {
        static char att[1024 + MPI_BSEND_OVERHEAD];
        void *got = NULL;
        int size = 0;
        MPI_Count csize = 0;
        EXPECT(MPI_ERR_BUFFER, MPI_Buffer_attach, NULL, 16);
        EXPECT(MPI_ERR_COUNT, MPI_Buffer_attach, att, -1);
        mt_expect_class(MPI_Buffer_detach(&got, NULL), MPI_ERR_ARG, "MPI_Buffer_detach");
        mt_expect_class(MPI_Buffer_iflush(NULL), MPI_ERR_ARG, "MPI_Buffer_iflush");
        MPI_OK(MPI_Buffer_attach_c(att, (MPI_Count)sizeof(att)));
        mt_expect_class(MPI_Buffer_attach(att, (int)sizeof(att)), MPI_ERR_BUFFER, "MPI_Buffer_attach");
        MPI_OK(MPI_Bsend_c(v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_SELF));
        MPI_OK(MPI_Buffer_flush());
        MPI_OK(MPI_Buffer_detach_c(&got, &csize));
        CHECK(got == att && csize == (MPI_Count)sizeof(att), "Buffer_detach_c: %p, %lld", got,
              (long long)csize);
        MPI_OK(MPI_Buffer_attach(att, (int)sizeof(att)));
        MPI_OK(MPI_Buffer_detach(&got, &size));
        CHECK(got == att && size == (int)sizeof(att), "Buffer_detach: %p, %d", got, size);
    }

    /* what the checks let through */
    BOTH_OK(MPI_Send, v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_SELF);
    BOTH_OK(MPI_Recv, v, 1, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_SELF, &st);
    BOTH_OK(MPI_Send, NULL, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_SELF);
    MPI_OK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &flag, &st));
    CHECK(!flag, "Iprobe found a message on MPI_COMM_SELF");
    MPI_OK(MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_SELF, &flag, &msg, &st));
    CHECK(flag && msg == MPI_MESSAGE_NO_PROC, "Improbe of MPI_PROC_NULL: flag %d", flag);
    MPI_OK(MPI_Mrecv_c(v, 1, MPI_INT, &msg, &st));
    CHECK(msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL, "Mrecv_c of MPI_PROC_NULL");
    /* a message to oneself through the large-count forms, matched by a wildcard */
    v[0] = 42;
    MPI_OK(MPI_Isend_c(v, 1, MPI_INT, 0, 7, MPI_COMM_SELF, &req));
    MPI_OK(MPI_Recv_c(v + 1, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &st));
    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    CHECK(v[1] == 42 && st.MPI_TAG == 7 && st.MPI_SOURCE == 0, "self message: %d tag %d", v[1],
          st.MPI_TAG);
    /* and between ranks: the library is still usable */
    if (mt_size > 1) {
        int right = (mt_rank + 1) % mt_size, left = (mt_rank + mt_size - 1) % mt_size;
        v[0] = mt_rank;
        MPI_OK(MPI_Sendrecv_replace_c(v, 1, MPI_INT, right, 3, left, 3, MPI_COMM_WORLD, &st));
        CHECK(v[0] == left, "Sendrecv_replace_c: %d from %d", v[0], left);
    }
    return mt_finish();
}
