/*
 * rma_errors: the error classes of one-sided communication under MPI_ERRORS_RETURN on
 * the window, and a user's window error handler.  Negative displacement (MPI_ERR_DISP),
 * beyond the window (MPI_ERR_RMA_RANGE), outside an epoch (MPI_ERR_RMA_SYNC), bad rank
 * (MPI_ERR_RANK), lock type (MPI_ERR_LOCKTYPE), assertion (MPI_ERR_ASSERT), unlock
 * without lock and complete without start (MPI_ERR_RMA_SYNC), shared_query on a dynamic
 * window and attach on the wrong flavor (MPI_ERR_RMA_FLAVOR), shared_query on create and
 * allocate windows (its own memory, others' where mapped), detach of nothing and overlapping attach
 * (MPI_ERR_RMA_ATTACH), an access to memory a dynamic window's target did not attach
 * (MPI_ERR_RMA_RANGE), user ops in accumulates (MPI_ERR_OP), predefined attributes that
 * cannot be set (MPI_ERR_KEYVAL), NULL buffers with data to move (MPI_ERR_BUFFER), an op undefined
 * on the type (MPI_ERR_OP, but not with count 0), a freed window (MPI_ERR_WIN), bad sizes and
 * disp_unit at creation, MPI_Win_allocate_shared over ranks of several hosts (MPI_ERR_RMA_SHARED);
 * each argument of a transfer (counts, datatypes, op, rank, displacement, request pointer)
 * and of a synchronization call (rank, assertion, group, flag) and of the calls on a window
 * (output pointers, error handler, info, attach size), and a large count that must not be
 * narrowed to int.
 * The window stays usable after each error.
 */
#include "tests/mpi/mpitest.h"

static int handler_calls, handler_code;
static void win_handler(MPI_Win *win, int *code, ...)
{
    (void)win;
    handler_calls++;
    handler_code = *code;
}

static void my_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in, (void)inout, (void)len, (void)dt;
}

int main(int argc, char **argv)
{
    int *mem, buf[8] = {0};
    MPI_Win win;

    mt_init(&argc, &argv, "rma_errors");
    int right = (mt_rank + 1) % mt_size;
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    /* creation */
    mt_expect_class(MPI_Win_allocate(-1, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win), MPI_ERR_SIZE,
                 "negative size");
    mt_expect_class(MPI_Win_allocate(8, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win), MPI_ERR_DISP,
                 "disp_unit 0");
    mt_expect_class(MPI_Win_create(buf, 8, 1, MPI_INFO_NULL, MPI_COMM_NULL, &win), MPI_ERR_COMM,
                 "MPI_COMM_NULL");
    mt_expect_class(MPI_Win_create(buf, 8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, NULL), MPI_ERR_ARG,
                 "Win_create without win");
    mt_expect_class(MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, NULL, &win), MPI_ERR_ARG,
                 "Win_allocate without baseptr");
    mt_expect_class(MPI_Win_create_c(buf, 8, (MPI_Aint)1 << 40, MPI_INFO_NULL, MPI_COMM_WORLD, &win),
                 MPI_ERR_DISP, "Win_create_c with a disp_unit beyond int");
    mt_expect_class(MPI_Win_create_dynamic((MPI_Info)0x7777, MPI_COMM_WORLD, &win), MPI_ERR_INFO,
                 "Win_create_dynamic with a bad info");
    {
        /* ranks on several hosts share no memory: MPI_Win_allocate_shared refuses them,
           on every rank alike */
        MPI_Comm node;
        int node_size;
        MPI_OK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
        MPI_OK(MPI_Comm_size(node, &node_size));
        if (node_size < mt_size) {
            mt_expect_class(MPI_Win_allocate_shared(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win),
                         MPI_ERR_RMA_SHARED, "allocate_shared across hosts");
        }
        /* on the ranks of one host it works whatever transport the others' windows take */
        MPI_OK(MPI_Win_allocate_shared(8, 1, MPI_INFO_NULL, node, &mem, &win));
        MPI_OK(MPI_Win_free(&win));
        MPI_OK(MPI_Comm_free(&node));
    }

    MPI_OK(
        MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
    MPI_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

    mt_expect_class(MPI_Put(buf, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC,
                 "put outside an epoch");
    mt_expect_class(MPI_Win_unlock(right, win), MPI_ERR_RMA_SYNC, "unlock without lock");
    mt_expect_class(MPI_Win_complete(win), MPI_ERR_RMA_SYNC, "complete without start");
    mt_expect_class(MPI_Win_wait(win), MPI_ERR_RMA_SYNC, "wait without post");
    mt_expect_class(MPI_Win_flush(right, win), MPI_ERR_RMA_SYNC, "flush outside a lock");
    mt_expect_class(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC, "unlock_all without lock_all");
    mt_expect_class(MPI_Win_lock(12345, right, 0, win), MPI_ERR_LOCKTYPE, "lock type");
    mt_expect_class(MPI_Win_lock(MPI_LOCK_SHARED, right, MPI_MODE_NOPUT, win), MPI_ERR_ASSERT,
                 "lock assert");
    mt_expect_class(MPI_Win_fence(1 << 20, win), MPI_ERR_ASSERT, "fence assert");
    mt_expect_class(MPI_Win_lock(MPI_LOCK_SHARED, mt_size, 0, win), MPI_ERR_RANK, "lock rank");
    mt_expect_class(MPI_Win_unlock(-7, win), MPI_ERR_RANK, "unlock rank");
    mt_expect_class(MPI_Win_flush_local(mt_size, win), MPI_ERR_RANK, "flush_local rank");
    mt_expect_class(MPI_Win_lock_all(MPI_MODE_NOPUT, win), MPI_ERR_ASSERT, "lock_all assert");
    mt_expect_class(MPI_Win_test(win, NULL), MPI_ERR_ARG, "MPI_Win_test without a flag");
    mt_expect_class(MPI_Win_post(MPI_GROUP_NULL, 0, win), MPI_ERR_GROUP, "post to MPI_GROUP_NULL");
    {
        MPI_Group wg;
        MPI_OK(MPI_Win_get_group(win, &wg));
        mt_expect_class(MPI_Win_start(wg, MPI_MODE_NOSTORE, win), MPI_ERR_ASSERT, "start assert");
        mt_expect_class(MPI_Win_post(wg, MPI_MODE_NOSUCCEED, win), MPI_ERR_ASSERT, "post assert");
        MPI_OK(MPI_Group_free(&wg));
    }
    mt_expect_class(MPI_Win_flush_all(MPI_WIN_NULL), MPI_ERR_WIN, "flush_all on MPI_WIN_NULL");

    MPI_OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    mt_expect_class(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win), MPI_ERR_RMA_SYNC, "lock twice");
    mt_expect_class(MPI_Put(buf, 1, MPI_INT, right, -1, 1, MPI_INT, win), MPI_ERR_DISP,
                 "negative displacement");
    mt_expect_class(MPI_Put(buf, 2, MPI_INT, right, 7, 2, MPI_INT, win), MPI_ERR_RMA_RANGE,
                 "past the window's end");
    mt_expect_class(MPI_Get(buf, 1, MPI_INT, mt_size + 3, 0, 1, MPI_INT, win), MPI_ERR_RANK,
                 "bad target rank");
    mt_expect_class(MPI_Put(buf, 2, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_TYPE,
                 "signatures differ");
    mt_expect_class(MPI_Put(buf, -1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_COUNT,
                 "negative count");
    MPI_Op uop;
    MPI_OK(MPI_Op_create(my_op, 1, &uop));
    mt_expect_class(MPI_Accumulate(buf, 1, MPI_INT, right, 0, 1, MPI_INT, uop, win), MPI_ERR_OP,
                 "user op in accumulate");
    MPI_OK(MPI_Op_free(&uop));
    double d = 1.0;
    mt_expect_class(MPI_Accumulate(&d, 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, MPI_BAND, win),
                 MPI_ERR_OP, "MPI_BAND on doubles");
    /* nothing to combine: the op is not looked at (count 0 with MPI_BYTE and MPI_SUM) */
    MPI_OK(MPI_Get_accumulate(buf, 0, MPI_BYTE, buf + 4, 0, MPI_BYTE, right, 0, 0, MPI_BYTE,
                              MPI_SUM, win));
    /* a NULL buffer with data to move: MPI_ERR_BUFFER, on every transfer */
    {
        int r1 = 0, one = 1;
        MPI_Request rq = MPI_REQUEST_NULL;
        mt_expect_class(MPI_Put(NULL, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_BUFFER,
                     "MPI_Put from NULL");
        mt_expect_class(MPI_Get(NULL, 1, MPI_INT, right, 0, 1, MPI_INT, win), MPI_ERR_BUFFER,
                     "MPI_Get into NULL");
        mt_expect_class(MPI_Accumulate(NULL, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, win),
                     MPI_ERR_BUFFER, "MPI_Accumulate from NULL");
        mt_expect_class(MPI_Get_accumulate(NULL, 1, MPI_INT, &r1, 1, MPI_INT, right, 0, 1, MPI_INT,
                                        MPI_SUM, win),
                     MPI_ERR_BUFFER, "MPI_Get_accumulate from NULL");
        mt_expect_class(MPI_Get_accumulate(&one, 1, MPI_INT, NULL, 1, MPI_INT, right, 0, 1, MPI_INT,
                                        MPI_SUM, win),
                     MPI_ERR_BUFFER, "MPI_Get_accumulate into NULL");
        mt_expect_class(MPI_Rput(NULL, 1, MPI_INT, right, 0, 1, MPI_INT, win, &rq), MPI_ERR_BUFFER,
                     "MPI_Rput from NULL");
        mt_expect_class(MPI_Rget(NULL, 1, MPI_INT, right, 0, 1, MPI_INT, win, &rq), MPI_ERR_BUFFER,
                     "MPI_Rget into NULL");
        mt_expect_class(MPI_Raccumulate(NULL, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_SUM, win, &rq),
                     MPI_ERR_BUFFER, "MPI_Raccumulate from NULL");
        mt_expect_class(MPI_Rget_accumulate(NULL, 1, MPI_INT, &r1, 1, MPI_INT, right, 0, 1, MPI_INT,
                                         MPI_SUM, win, &rq),
                     MPI_ERR_BUFFER, "MPI_Rget_accumulate from NULL");
        mt_expect_class(MPI_Fetch_and_op(NULL, &r1, MPI_INT, right, 0, MPI_SUM, win), MPI_ERR_BUFFER,
                     "MPI_Fetch_and_op from NULL");
        mt_expect_class(MPI_Fetch_and_op(&one, NULL, MPI_INT, right, 0, MPI_SUM, win), MPI_ERR_BUFFER,
                     "MPI_Fetch_and_op into NULL");
        mt_expect_class(MPI_Compare_and_swap(NULL, &one, &r1, MPI_INT, right, 0, win), MPI_ERR_BUFFER,
                     "MPI_Compare_and_swap from NULL");
        {
            /* compare-and-swap takes integer, logical and byte types, not floating point */
            double d = 1.0, dc = 1.0, dr = 0.0;
            mt_expect_class(MPI_Compare_and_swap(&d, &dc, &dr, MPI_DOUBLE, right, 0, win),
                            MPI_ERR_TYPE, "MPI_Compare_and_swap of MPI_DOUBLE");
        }
        CHECK(rq == MPI_REQUEST_NULL, "a failed request-based call left a request");
        /* nothing to move: NULL is fine */
        MPI_OK(MPI_Put(NULL, 0, MPI_INT, right, 0, 0, MPI_INT, win));
        MPI_OK(MPI_Get_accumulate(NULL, 0, MPI_INT, &r1, 1, MPI_INT, right, 0, 1, MPI_INT,
                                  MPI_NO_OP, win));
    }
    MPI_OK(MPI_Put(buf, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win)); /* a no-op */
    /* each argument of a transfer, raised on the window */
    {
        int r1 = 0, one = 1;
        MPI_Request rq = MPI_REQUEST_NULL;
        MPI_Datatype uncommitted;
        MPI_OK(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
        mt_expect_class(MPI_Get(buf, 1, MPI_INT, right, 0, -1, MPI_INT, win), MPI_ERR_COUNT,
                     "negative target_count");
        mt_expect_class(MPI_Put_c(buf, 1, MPI_INT, right, 0, -1, MPI_INT, win), MPI_ERR_COUNT,
                     "negative target_count (MPI_Put_c)");
        mt_expect_class(MPI_Put(buf, 1, MPI_DATATYPE_NULL, right, 0, 1, MPI_INT, win), MPI_ERR_TYPE,
                     "origin_datatype MPI_DATATYPE_NULL");
        mt_expect_class(MPI_Get(buf, 1, MPI_INT, right, 0, 1, uncommitted, win), MPI_ERR_TYPE,
                     "an uncommitted target_datatype");
        mt_expect_class(MPI_Rput(buf, 1, MPI_INT, right, 0, 1, MPI_INT, win, NULL), MPI_ERR_ARG,
                     "MPI_Rput without a request");
        mt_expect_class(MPI_Rget_accumulate(buf, 1, MPI_INT, &r1, 1, MPI_INT, right, 0, 1, MPI_INT,
                                         MPI_SUM, win, NULL),
                     MPI_ERR_ARG, "MPI_Rget_accumulate without a request");
        mt_expect_class(MPI_Get_accumulate(buf, 1, MPI_INT, &r1, 1, MPI_INT, right, 0, 1, MPI_INT,
                                        MPI_OP_NULL, win),
                     MPI_ERR_OP, "MPI_Get_accumulate with MPI_OP_NULL");
        mt_expect_class(MPI_Fetch_and_op(&one, &r1, MPI_INT, mt_size, 0, MPI_SUM, win), MPI_ERR_RANK,
                     "MPI_Fetch_and_op to a rank beyond the window");
        mt_expect_class(MPI_Compare_and_swap(&one, &one, &r1, MPI_INT, right, -8, win), MPI_ERR_DISP,
                     "MPI_Compare_and_swap at a negative displacement");
        mt_expect_class(MPI_Fetch_and_op(&one, &r1, uncommitted, right, 0, MPI_SUM, win), MPI_ERR_TYPE,
                     "MPI_Fetch_and_op on an uncommitted datatype");
        CHECK(rq == MPI_REQUEST_NULL, "a failed request-based call left a request");
        /* MPI_PROC_NULL moves nothing: a NULL buffer and any displacement are fine */
        MPI_OK(MPI_Get(NULL, 1, MPI_INT, MPI_PROC_NULL, -4, 1, MPI_INT, win));
        /* MPI_NO_OP: the origin of a get-accumulate is not looked at */
        MPI_OK(MPI_Get_accumulate(NULL, -1, MPI_DATATYPE_NULL, &r1, 1, MPI_INT, right, 0, 1,
                                  MPI_INT, MPI_NO_OP, win));
        /* the large-count form carries a count beyond int: 2^32 + 4 bytes from the origin
           against 4 at the target differ (narrowed to int they would be 4 against 4) */
        MPI_Count big = ((MPI_Count)1 << 32) + 4;
        mt_expect_class(MPI_Put_c(buf, big, MPI_BYTE, right, 0, 4, MPI_BYTE, win), MPI_ERR_TYPE,
                     "MPI_Put_c of 2^32 + 4 bytes into 4");
        MPI_OK(MPI_Put_c(buf, big, MPI_BYTE, MPI_PROC_NULL, 0, big, MPI_BYTE, win));
        MPI_OK(MPI_Type_free(&uncommitted));
    }
    mt_expect_class(MPI_Win_free(&win), MPI_ERR_RMA_SYNC, "free inside a lock epoch");
    MPI_OK(MPI_Put(buf, 8, MPI_INT, right, 0, 8, MPI_INT, win)); /* still usable */
    MPI_OK(MPI_Win_unlock(right, win));

    int v = 1;
    mt_expect_class(MPI_Win_set_attr(win, MPI_WIN_BASE, &v), MPI_ERR_KEYVAL,
                 "set a predefined attribute");
    mt_expect_class(MPI_Win_attach(win, buf, sizeof(buf)), MPI_ERR_RMA_FLAVOR, "attach to allocate");
    /* the arguments of the calls on a window, raised on it */
    {
        char name[MPI_MAX_OBJECT_NAME];
        int len, flag, du_int;
        MPI_Aint sz_q;
        void *base_q;
        MPI_Info info_q;
        mt_expect_class(MPI_Win_set_errhandler(win, MPI_ERRHANDLER_NULL), MPI_ERR_ERRHANDLER,
                     "set_errhandler MPI_ERRHANDLER_NULL");
        mt_expect_class(MPI_Win_get_errhandler(win, NULL), MPI_ERR_ARG, "get_errhandler into NULL");
        mt_expect_class(MPI_Win_get_name(win, name, NULL), MPI_ERR_ARG, "get_name without resultlen");
        mt_expect_class(MPI_Win_set_name(win, NULL), MPI_ERR_ARG, "set_name NULL");
        mt_expect_class(MPI_Win_get_attr(win, MPI_WIN_BASE, &base_q, NULL), MPI_ERR_ARG,
                     "get_attr without a flag");
        mt_expect_class(MPI_Win_get_info(win, NULL), MPI_ERR_ARG, "get_info into NULL");
        mt_expect_class(MPI_Win_set_info(win, (MPI_Info)0x7777), MPI_ERR_INFO, "set_info bad info");
        mt_expect_class(MPI_Win_get_group(win, NULL), MPI_ERR_ARG, "get_group into NULL");
        mt_expect_class(MPI_Win_shared_query(win, mt_size, &sz_q, &du_int, &base_q), MPI_ERR_RANK,
                     "shared_query of a rank beyond the window");
        mt_expect_class(MPI_Win_shared_query(win, mt_rank, &sz_q, NULL, &base_q), MPI_ERR_ARG,
                     "shared_query without disp_unit");
        mt_expect_class(MPI_Win_free(NULL), MPI_ERR_ARG, "free NULL");
        MPI_OK(MPI_Win_get_info(win, &info_q));
        MPI_OK(MPI_Info_free(&info_q));
        MPI_OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &base_q, &flag));
        MPI_OK(MPI_Win_get_name(win, name, &len));
    }

    /* a user's handler gets the class */
    MPI_Errhandler eh;
    MPI_OK(MPI_Win_create_errhandler(win_handler, &eh));
    MPI_OK(MPI_Win_set_errhandler(win, eh));
    MPI_OK(MPI_Errhandler_free(&eh));
    (void)MPI_Win_unlock(right, win);
    CHECK(handler_calls == 1 && handler_code == MPI_ERR_RMA_SYNC, "handler calls %d code %d",
          handler_calls, handler_code);
    MPI_OK(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    CHECK(handler_calls == 2 && handler_code == MPI_ERR_OTHER, "call_errhandler: %d, %d",
          handler_calls, handler_code);
    MPI_Errhandler got;
    MPI_OK(MPI_Win_get_errhandler(win, &got));
    MPI_OK(MPI_Errhandler_free(&got));
    MPI_OK(MPI_Win_free(&win));
    mt_expect_class(MPI_Win_fence(0, win), MPI_ERR_WIN, "fence on MPI_WIN_NULL");

    /* MPI_Win_shared_query on MPI_Win_create and MPI_Win_allocate windows (MPI-4.1): a
       rank's own memory at its own address; another's where this rank can load and store
       it, or size 0 and NULL where it cannot */
    MPI_OK(MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MPI_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    MPI_Aint sz;
    int du;
    void *base;
    MPI_OK(MPI_Win_shared_query(win, mt_rank, &sz, &du, &base));
    CHECK(sz == sizeof(buf) && du == sizeof(int) && base == buf,
          "shared_query of its own MPI_Win_create memory: size %ld du %d base %p (buf %p)",
          (long)sz, du, base, (void *)buf);
    MPI_OK(MPI_Win_shared_query(win, right, &sz, &du, &base));
    CHECK(right == mt_rank || (sz == 0 && base == NULL) || (sz == sizeof(buf) && base != NULL),
          "shared_query of rank %d's MPI_Win_create memory: size %ld base %p", right, (long)sz,
          base);
    MPI_OK(MPI_Win_free(&win));
    {
        int *am;
        MPI_OK(
            MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &am, &win));
        MPI_OK(MPI_Win_lock_all(0, win));
        *am = 1000 + mt_rank;
        MPI_OK(MPI_Win_sync(win));
        mt_barrier(mt_sync_comm);
        MPI_OK(MPI_Win_sync(win));
        MPI_OK(MPI_Win_shared_query(win, mt_rank, &sz, &du, &base));
        CHECK(sz == sizeof(int) && du == sizeof(int) && base == am,
              "shared_query of its own MPI_Win_allocate memory: size %ld du %d", (long)sz, du);
        MPI_OK(MPI_Win_shared_query(win, right, &sz, &du, &base));
        if (base != NULL) {
            CHECK(sz == sizeof(int) && *(int *)base == 1000 + right,
                  "shared_query of rank %d's MPI_Win_allocate memory: size %ld, holds %d", right,
                  (long)sz, *(int *)base);
        } else {
            CHECK(sz == 0, "shared_query of rank %d: base NULL, size %ld", right, (long)sz);
        }
        MPI_OK(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &du, &base));
        CHECK(sz == sizeof(int) && base != NULL && *(int *)base >= 1000,
              "shared_query MPI_PROC_NULL of MPI_Win_allocate: size %ld", (long)sz);
        MPI_OK(MPI_Win_unlock_all(win));
        MPI_OK(MPI_Win_free(&win));
    }

    /* dynamic: nothing attached yet, detach of nothing, overlaps */
    MPI_OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MPI_OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    mt_expect_class(MPI_Win_detach(win, buf), MPI_ERR_RMA_ATTACH, "detach of nothing");
    mt_expect_class(MPI_Win_attach(win, buf, -1), MPI_ERR_SIZE, "attach a negative size");
    mt_expect_class(MPI_Win_shared_query(win, mt_rank, &sz, &du, &base), MPI_ERR_RMA_FLAVOR,
                 "shared_query on a dynamic window");
    MPI_OK(MPI_Win_attach(win, buf, sizeof(buf)));
    mt_expect_class(MPI_Win_attach(win, buf + 2, sizeof(int)), MPI_ERR_RMA_ATTACH,
                 "overlapping attach");
    MPI_Aint mine, *addrs = malloc(sizeof(MPI_Aint) * (size_t)mt_size);
    MPI_OK(MPI_Get_address(buf, &mine));
    MPI_OK(MPI_Allgather(&mine, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD));
    MPI_OK(MPI_Win_lock_all(0, win));
    MPI_OK(MPI_Get(&v, 1, MPI_INT, right, addrs[right] + 4 * sizeof(int), 1, MPI_INT, win));
    mt_expect_class(MPI_Get(&v, 1, MPI_INT, right, addrs[right] + sizeof(buf), 1, MPI_INT, win),
                 MPI_ERR_RMA_RANGE, "past an attached region");
    mt_expect_class(MPI_Get(&v, 1, MPI_INT, right, addrs[right] - 64, 1, MPI_INT, win),
                 MPI_ERR_RMA_RANGE, "before an attached region");
    MPI_OK(MPI_Win_unlock_all(win));
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_Win_detach(win, buf));
    /* adjacent regions cover an access together; a gap between regions does not */
    MPI_OK(MPI_Win_attach(win, buf, 2 * sizeof(int)));
    MPI_OK(MPI_Win_attach(win, buf + 2, 2 * sizeof(int)));
    MPI_OK(MPI_Win_attach(win, buf + 5, 3 * sizeof(int)));
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_Win_lock_all(0, win));
    int four[4];
    MPI_OK(MPI_Get(four, 4, MPI_INT, right, addrs[right], 4, MPI_INT, win));
    mt_expect_class(MPI_Get(four, 4, MPI_INT, right, addrs[right] + 2 * sizeof(int), 4, MPI_INT, win),
                 MPI_ERR_RMA_RANGE, "across a gap between regions");
    MPI_OK(MPI_Win_unlock_all(win));
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_Win_detach(win, buf + 2));
    MPI_OK(MPI_Win_detach(win, buf));
    MPI_OK(MPI_Win_detach(win, buf + 5));
    MPI_OK(MPI_Win_free(&win));
    free(addrs);

    return mt_finish();
}
