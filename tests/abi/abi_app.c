/*
 * abi_app.c -- an MPI program of the MPI-5 standard ABI (mpi_abi.h): tests/abi/abi_run.sh
 * builds it with compi's mpicc_abi and with another implementation's, and runs both on
 * compi's libmpi_abi.so.1.  Every handle, constant, sentinel and status it passes is the
 * standard's.  Checks: MPI_Abi_get_version and MPI_Abi_get_info, point-to-point with the
 * status fields (MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_PROC_NULL), blocking, nonblocking and
 * persistent collectives, MPI_IN_PLACE, a derived datatype, a user op that looks at the
 * datatype it gets, an attribute with copy and delete callbacks, an error class under
 * MPI_ERRORS_RETURN, a user error handler, handles made at run time and their
 * _toint/_fromint, sentinels in arrays and results (MPI_PROC_NULL, MPI_CART,
 * MPI_DISTRIBUTE_DFLT_DARG), one-sided communication (fence epochs, MPI_PROC_NULL as a
 * target, a passive lock, the window's enumerated attributes), alltoallw (plain,
 * persistent, over neighbours), a generalized request, and the tool interface (control
 * and performance variables, their enumerations, handles and error classes), and MPI-IO
 * (a file's handle, modes, seeks, views, statuses, its error handlers).  Rank 0 prints "ok -
 * np N: every check passed" when all ranks passed, and the library's name ("# library: compi ...");
 * a failed check prints "not ok".
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size, bad;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf("not ok - rank %d, line %d: %s\n", rank, __LINE__, #cond);                      \
            bad++;                                                                                 \
        }                                                                                          \
    } while (0)

/* a user op: inout = max(in, inout) + 0, only for MPI_INT (the handle it gets must be the
   standard's MPI_INT) */
static int op_calls, op_saw_int;
static void max_int(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    op_calls++;
    op_saw_int += *dt == MPI_INT;
    for (int i = 0; i < *len; i++) {
        int *o = (int *)inout + i, v = ((int *)in)[i];
        *o = v > *o ? v : *o;
    }
}

static int copies, deletes;
static int attr_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    copies += comm != MPI_COMM_NULL && *(int *)extra == 42;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}
static int attr_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    deletes += *(int *)extra == 42;
    return MPI_SUCCESS;
}

static int handler_calls, handler_class;
static void handler(MPI_Comm *comm, int *code, ...)
{
    int cls = -1;
    MPI_Error_class(*code, &cls);
    handler_calls += *comm == MPI_COMM_WORLD;
    handler_class = cls;
}

static void abi_version(void)
{
    int major = -1, minor = -1, flag = 0;
    char v[MPI_MAX_INFO_VAL];
    MPI_Info info = MPI_INFO_NULL;
    CHECK(MPI_Abi_get_version(&major, &minor) == MPI_SUCCESS);
    CHECK(major == MPI_ABI_VERSION && minor == MPI_ABI_SUBVERSION);
    CHECK(MPI_Abi_get_info(&info) == MPI_SUCCESS && info != MPI_INFO_NULL);
    CHECK(MPI_Info_get_string(info, "mpi_aint_size", &(int){sizeof v}, v, &flag) == MPI_SUCCESS);
    CHECK(flag && strcmp(v, "8") == 0);
    MPI_Info_free(&info);
    CHECK(info == MPI_INFO_NULL);
}

static void p2p(void)
{
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    long out[4], in[4] = {0};
    MPI_Status st;
    MPI_Request req;
    int count = -1;
    for (int i = 0; i < 4; i++) {
        out[i] = 100 * rank + i;
    }
    CHECK(MPI_Irecv(in, 4, MPI_LONG, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req) ==
          MPI_SUCCESS);
    CHECK(MPI_Send(out, 3, MPI_LONG, next, 7 + rank, MPI_COMM_WORLD) == MPI_SUCCESS);
    st.MPI_ERROR = -7; /* a single completion leaves it alone */
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    CHECK(req == MPI_REQUEST_NULL);
    CHECK(st.MPI_SOURCE == prev && st.MPI_TAG == 7 + prev && st.MPI_ERROR == -7);
    CHECK(MPI_Get_count(&st, MPI_LONG, &count) == MPI_SUCCESS && count == 3);
    CHECK(in[0] == 100 * prev && in[2] == 100 * prev + 2 && in[3] == 0);

    /* MPI_PROC_NULL: the status of an empty message from MPI_PROC_NULL */
    CHECK(MPI_Recv(in, 4, MPI_LONG, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
    CHECK(MPI_Get_count(&st, MPI_LONG, &count) == MPI_SUCCESS && count == 0);

    /* two requests with MPI_STATUSES_IGNORE, then a sendrecv with MPI_STATUS_IGNORE */
    MPI_Request r2[2];
    MPI_Irecv(in, 4, MPI_LONG, prev, 1, MPI_COMM_WORLD, &r2[0]);
    MPI_Isend(out, 4, MPI_LONG, next, 1, MPI_COMM_WORLD, &r2[1]);
    CHECK(MPI_Waitall(2, r2, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    CHECK(r2[0] == MPI_REQUEST_NULL && r2[1] == MPI_REQUEST_NULL && in[3] == 100 * prev + 3);
    int s = rank, r = -1;
    CHECK(MPI_Sendrecv(&s, 1, MPI_INT, next, 2, &r, 1, MPI_INT, prev, 2, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(r == prev);

    /* MPI_BUFFER_AUTOMATIC (the standard ABI's value is not the native one) attached to a
       communicator, used by MPI_Bsend, given back by detach */
    void *addr = NULL;
    int bsize = -1;
    CHECK(MPI_Comm_attach_buffer(MPI_COMM_WORLD, MPI_BUFFER_AUTOMATIC, 0) == MPI_SUCCESS);
    CHECK(MPI_Bsend(out, 4, MPI_LONG, next, 3, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(MPI_Recv(in, 4, MPI_LONG, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(in[3] == 100 * prev + 3);
    CHECK(MPI_Comm_detach_buffer(MPI_COMM_WORLD, &addr, &bsize) == MPI_SUCCESS);
    CHECK(addr == MPI_BUFFER_AUTOMATIC && bsize == 0);
}

static void collectives(void)
{
    int v[2] = {rank, 1}, sum[2] = {0, 0};
    CHECK(MPI_Allreduce(v, sum, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(sum[0] == size * (size - 1) / 2 && sum[1] == size);

    /* in place */
    double d = rank + 0.5;
    CHECK(MPI_Allreduce(MPI_IN_PLACE, &d, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(d == size - 0.5);

    /* nonblocking */
    int b = rank == 0 ? 1234 : 0;
    MPI_Request req;
    CHECK(MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS && b == 1234);

    /* persistent, started twice */
    int x = 0, y = 0;
    CHECK(MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req) ==
          MPI_SUCCESS);
    for (int round = 1; round <= 2; round++) {
        x = round * (rank + 1);
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK(y == round * size * (size + 1) / 2);
    }
    CHECK(req != MPI_REQUEST_NULL);
    MPI_Request_free(&req);

    /* a user op: every rank's value, max */
    MPI_Op op;
    int m = 3 * rank + 1, mx = -1;
    CHECK(MPI_Op_create(max_int, 1, &op) == MPI_SUCCESS);
    CHECK(MPI_Allreduce(&m, &mx, 1, MPI_INT, op, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(mx == 3 * (size - 1) + 1);
    /* every call got the standard's handle, and some rank's op ran (which ranks combine
       is the algorithm's business) */
    int calls = 0;
    CHECK(op_saw_int == op_calls);
    CHECK(MPI_Allreduce(&op_calls, &calls, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(size == 1 || calls > 0);
    int opi = MPI_Op_toint(op);
    CHECK(MPI_Op_fromint(opi) == op && MPI_Op_toint(MPI_SUM) != opi);
    MPI_Op_free(&op);
    CHECK(op == MPI_OP_NULL);

    /* gather in place at the root */
    int all[64];
    all[rank] = rank * rank;
    CHECK(MPI_Gather(rank == 0 ? MPI_IN_PLACE : &all[rank], 1, MPI_INT, all, 1, MPI_INT, 0,
                     MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int i = 0; rank == 0 && i < size; i++) {
        CHECK(all[i] == i * i);
    }
}

static void datatypes(void)
{
    /* every other int of 8: a vector, sent to oneself */
    MPI_Datatype vec, dup;
    int src[8], dst[4] = {0};
    for (int i = 0; i < 8; i++) {
        src[i] = i * 11;
    }
    CHECK(MPI_Type_vector(4, 1, 2, MPI_INT, &vec) == MPI_SUCCESS);
    CHECK(MPI_Type_commit(&vec) == MPI_SUCCESS);
    int sz = 0;
    MPI_Aint lb = -1, ext = -1;
    CHECK(MPI_Type_size(vec, &sz) == MPI_SUCCESS && sz == 4 * (int)sizeof(int));
    CHECK(MPI_Type_get_extent(vec, &lb, &ext) == MPI_SUCCESS && lb == 0 &&
          ext == 7 * (MPI_Aint)sizeof(int));
    CHECK(MPI_Sendrecv(src, 1, vec, 0, 3, dst, 4, MPI_INT, 0, 3, MPI_COMM_SELF,
                       MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(dst[0] == 0 && dst[1] == 22 && dst[3] == 66);
    int ni, na, nd, comb = -1;
    CHECK(MPI_Type_get_envelope(vec, &ni, &na, &nd, &comb) == MPI_SUCCESS);
    CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && nd == 1);
    int ints[3];
    MPI_Aint addrs[1];
    MPI_Datatype old = MPI_DATATYPE_NULL;
    CHECK(MPI_Type_get_contents(vec, 3, 0, 1, ints, addrs, &old) == MPI_SUCCESS);
    CHECK(old == MPI_INT && ints[0] == 4 && ints[2] == 2);
    CHECK(MPI_Type_dup(vec, &dup) == MPI_SUCCESS && dup != vec && dup != MPI_DATATYPE_NULL);
    CHECK(MPI_Type_fromint(MPI_Type_toint(dup)) == dup);
    MPI_Type_free(&dup);
    MPI_Type_free(&vec);
    CHECK(vec == MPI_DATATYPE_NULL);
}

static void attributes(void)
{
    static int extra = 42;
    int key = MPI_KEYVAL_INVALID, flag = 0, val = 5, *got = NULL;
    MPI_Comm dup;
    CHECK(MPI_Comm_create_keyval(attr_copy, attr_delete, &key, &extra) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &val) == MPI_SUCCESS);
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS);
    CHECK(copies == 1);
    CHECK(MPI_Comm_get_attr(dup, key, &got, &flag) == MPI_SUCCESS && flag && got == &val);
    CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS && dup == MPI_COMM_NULL);
    CHECK(deletes == 1);
    CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, key) == MPI_SUCCESS && deletes == 2);
    CHECK(MPI_Comm_free_keyval(&key) == MPI_SUCCESS && key == MPI_KEYVAL_INVALID);

    /* a predefined attribute */
    int *ub = NULL;
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag) == MPI_SUCCESS && flag);
    CHECK(ub != NULL && *ub >= 32767);

    /* MPI_COMM_DUP_FN copies, MPI_COMM_NULL_DELETE_FN does nothing */
    CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL) ==
          MPI_SUCCESS);
    MPI_Comm_set_attr(MPI_COMM_WORLD, key, &val);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    got = NULL;
    CHECK(MPI_Comm_get_attr(dup, key, &got, &flag) == MPI_SUCCESS && flag && got == &val);
    MPI_Comm_free(&dup);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
    MPI_Comm_free_keyval(&key);
}

static void errors(void)
{
    int cls = -1, len = 0;
    char msg[MPI_MAX_ERROR_STRING];
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh) == MPI_SUCCESS && eh == MPI_ERRORS_RETURN);
    int rc = MPI_Send(&cls, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    CHECK(rc != MPI_SUCCESS);
    CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_COUNT);
    CHECK(MPI_Error_string(rc, msg, &len) == MPI_SUCCESS && len > 0);
    rc = MPI_Send(&cls, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_RANK);
    rc = MPI_Send(&cls, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD);
    CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_TYPE);
    rc = MPI_Barrier(MPI_COMM_NULL);
    CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_COMM);

    /* a user handler gets the standard's MPI_COMM_WORLD and an error code of its class */
    CHECK(MPI_Comm_create_errhandler(handler, &eh) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh) == MPI_SUCCESS);
    MPI_Send(&cls, 1, MPI_INT, 0, -5, MPI_COMM_WORLD);
    CHECK(handler_calls == 1 && handler_class == MPI_ERR_TAG);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    CHECK(eh == MPI_ERRHANDLER_NULL);

    /* thread level, compare, split with MPI_UNDEFINED */
    int level = -1, res = -1;
    CHECK(MPI_Query_thread(&level) == MPI_SUCCESS);
    CHECK(level == MPI_THREAD_SINGLE || level == MPI_THREAD_FUNNELED ||
          level == MPI_THREAD_SERIALIZED || level == MPI_THREAD_MULTIPLE);
    CHECK(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res) == MPI_SUCCESS &&
          res == MPI_IDENT);
    MPI_Comm part;
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 1, rank, &part) ==
          MPI_SUCCESS);
    CHECK(rank == 0 ? part == MPI_COMM_NULL : part != MPI_COMM_NULL);
    if (part != MPI_COMM_NULL) {
        int psize = -1;
        MPI_Comm_size(part, &psize);
        CHECK(psize == size - 1);
        MPI_Comm_free(&part);
    }
}

/* one-sided: a window of size + 1 ints on each rank, fence epochs and a passive lock */
static void rma(void)
{
    int *base = NULL, *flavor = NULL, *model = NULL, flag = 0;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Win win = MPI_WIN_NULL;
    CHECK(MPI_Win_allocate((size + 1) * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                           &base, &win) == MPI_SUCCESS &&
          win != MPI_WIN_NULL);
    for (int i = 0; i <= size; i++) {
        base[i] = 0;
    }
    CHECK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag) == MPI_SUCCESS && flag &&
          *flavor == MPI_WIN_FLAVOR_ALLOCATE);
    CHECK(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag) == MPI_SUCCESS && flag &&
          (*model == MPI_WIN_UNIFIED || *model == MPI_WIN_SEPARATE));
    int v = 10 * rank + 1, got = -1;
    CHECK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win) == MPI_SUCCESS);
    CHECK(MPI_Put(&v, 1, MPI_INT, next, rank, 1, MPI_INT, win) == MPI_SUCCESS);
    CHECK(MPI_Win_fence(0, win) == MPI_SUCCESS);
    CHECK(base[prev] == 10 * prev + 1);
    CHECK(MPI_Get(&got, 1, MPI_INT, next, rank, 1, MPI_INT, win) == MPI_SUCCESS);
    CHECK(MPI_Accumulate(&v, 1, MPI_INT, 0, size, 1, MPI_INT, MPI_SUM, win) == MPI_SUCCESS);
    CHECK(MPI_Put(&v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win) == MPI_SUCCESS);
    CHECK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win) == MPI_SUCCESS);
    CHECK(got == v);
    int acc = 5 * size * (size - 1) + size;
    CHECK(rank != 0 || base[size] == acc);
    MPI_Barrier(MPI_COMM_WORLD);

    /* passive target: a fetch-and-add of every rank on rank 0's last int */
    int one = 1, old = -1;
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, 0, MPI_MODE_NOCHECK, win) == MPI_SUCCESS);
    CHECK(MPI_Fetch_and_op(&one, &old, MPI_INT, 0, size, MPI_SUM, win) == MPI_SUCCESS);
    CHECK(MPI_Win_unlock(0, win) == MPI_SUCCESS);
    CHECK(old >= acc && old < acc + size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win) == MPI_SUCCESS);
        CHECK(base[size] == acc + size);
        MPI_Win_unlock(0, win);
    }
    /* an error class under MPI_ERRORS_RETURN: a target rank out of range */
    CHECK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    MPI_Win_fence(0, win);
    int cls = -1, rc = MPI_Put(&v, 1, MPI_INT, size, 0, 1, MPI_INT, win);
    CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_RANK);
    MPI_Win_fence(0, win);
    CHECK(MPI_Win_free(&win) == MPI_SUCCESS && win == MPI_WIN_NULL);
}

/* the tool interface: control variables, a performance variable bound to a communicator,
   the standard's enumerations, handles, MPI_T_PVAR_ALL_HANDLES and error classes */
static void tool(void)
{
    int provided = -1, ncvar = 0, npvar = 0;
    CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS);
    CHECK(provided == MPI_THREAD_SINGLE || provided == MPI_THREAD_FUNNELED ||
          provided == MPI_THREAD_SERIALIZED || provided == MPI_THREAD_MULTIPLE);
    CHECK(MPI_T_cvar_get_num(&ncvar) == MPI_SUCCESS && ncvar > 0);
    int plain = -1; /* a control variable of one int bound to no object */
    for (int i = 0; i < ncvar; i++) {
        char name[256];
        int nlen = sizeof name, verb = -1, bind = -1, scope = -1;
        MPI_Datatype dt = MPI_DATATYPE_NULL;
        MPI_T_enum en = MPI_T_ENUM_NULL;
        CHECK(MPI_T_cvar_get_info(i, name, &nlen, &verb, &dt, &en, NULL, NULL, &bind, &scope) ==
              MPI_SUCCESS);
        CHECK(verb >= MPI_T_VERBOSITY_USER_BASIC && verb <= MPI_T_VERBOSITY_MPIDEV_ALL);
        CHECK(bind == MPI_T_BIND_NO_OBJECT || bind == MPI_T_BIND_MPI_COMM);
        CHECK(scope >= MPI_T_SCOPE_CONSTANT && scope <= MPI_T_SCOPE_ALL_EQ);
        CHECK(dt == MPI_INT || dt == MPI_CHAR);
        if (en != MPI_T_ENUM_NULL) {
            int num = 0, value = -1, len = 64;
            char ename[64], item[64];
            CHECK(MPI_T_enum_get_info(en, &num, ename, &len) == MPI_SUCCESS && num > 0);
            len = sizeof item;
            CHECK(MPI_T_enum_get_item(en, 0, &value, item, &len) == MPI_SUCCESS && len > 0);
        }
        if (plain < 0 && dt == MPI_INT && bind == MPI_T_BIND_NO_OBJECT) {
            plain = i;
        }
    }
    int rc = MPI_T_cvar_get_info(ncvar + 5, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    CHECK(rc == MPI_T_ERR_INVALID_INDEX);

    /* a control variable of no object, read; one bound to MPI_COMM_WORLD */
    MPI_T_cvar_handle ch = MPI_T_CVAR_HANDLE_NULL;
    int count = 0, value = -1, idx = -1;
    CHECK(plain >= 0);
    if (plain >= 0) {
        CHECK(MPI_T_cvar_handle_alloc(plain, NULL, &ch, &count) == MPI_SUCCESS && count == 1);
        CHECK(ch != MPI_T_CVAR_HANDLE_NULL && MPI_T_cvar_read(ch, &value) == MPI_SUCCESS);
        CHECK(MPI_T_cvar_handle_free(&ch) == MPI_SUCCESS && ch == MPI_T_CVAR_HANDLE_NULL);
    }
    CHECK(MPI_T_cvar_get_index("coll_flush", &idx) == MPI_SUCCESS);
    MPI_Comm world = MPI_COMM_WORLD;
    CHECK(MPI_T_cvar_handle_alloc(idx, &world, &ch, &count) == MPI_SUCCESS && count >= 1);
    CHECK(MPI_T_cvar_handle_free(&ch) == MPI_SUCCESS && ch == MPI_T_CVAR_HANDLE_NULL);

    /* a counter of the communicator's collectives: counted while started, reset through
       MPI_T_PVAR_ALL_HANDLES */
    CHECK(MPI_T_pvar_get_num(&npvar) == MPI_SUCCESS && npvar > 0);
    int pi = -1, verb = -1, cls = -1, bind = -1, ro = -1, cont = -1, atomic = -1;
    MPI_Datatype dt = MPI_DATATYPE_NULL;
    CHECK(MPI_T_pvar_get_index("coll_cache_hits", MPI_T_PVAR_CLASS_COUNTER, &pi) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_get_info(pi, NULL, NULL, &verb, &cls, &dt, NULL, NULL, NULL, &bind, &ro, &cont,
                              &atomic) == MPI_SUCCESS);
    CHECK(cls == MPI_T_PVAR_CLASS_COUNTER && bind == MPI_T_BIND_MPI_COMM &&
          verb == MPI_T_VERBOSITY_USER_BASIC && !cont);
    CHECK(dt == MPI_UNSIGNED_LONG_LONG || dt == MPI_UNSIGNED_LONG || dt == MPI_UNSIGNED);
    MPI_T_pvar_session ses = MPI_T_PVAR_SESSION_NULL;
    MPI_T_pvar_handle ph = MPI_T_PVAR_HANDLE_NULL;
    CHECK(MPI_T_pvar_session_create(&ses) == MPI_SUCCESS && ses != MPI_T_PVAR_SESSION_NULL);
    CHECK(MPI_T_pvar_handle_alloc(ses, pi, &world, &ph, &count) == MPI_SUCCESS && count == 1);
    CHECK(MPI_T_pvar_start(ses, ph) == MPI_SUCCESS);
    for (int i = 0; i < 3; i++) {
        int x = i, y = 0;
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    CHECK(MPI_T_pvar_stop(ses, MPI_T_PVAR_ALL_HANDLES) == MPI_SUCCESS);
    unsigned long long hits[2] = {0, 0};
    CHECK(MPI_T_pvar_read(ses, ph, hits) == MPI_SUCCESS && hits[0] >= 1);
    CHECK(MPI_T_pvar_reset(ses, MPI_T_PVAR_ALL_HANDLES) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_read(ses, ph, hits) == MPI_SUCCESS && hits[0] == 0);
    CHECK(MPI_T_pvar_handle_free(ses, &ph) == MPI_SUCCESS && ph == MPI_T_PVAR_HANDLE_NULL);
    CHECK(MPI_T_pvar_session_free(&ses) == MPI_SUCCESS && ses == MPI_T_PVAR_SESSION_NULL);
    CHECK(MPI_T_finalize() == MPI_SUCCESS);
}

/* MPI-IO: a file of size * 4 ints, each rank's at rank * 4, through the standard's file
   handles, modes, seeks, statuses and a file error handler */
static int file_handler_calls, file_handler_class;
static MPI_File file_handler_file;
static void file_handler(MPI_File *fh, int *code, ...)
{
    MPI_Error_class(*code, &file_handler_class);
    file_handler_file = *fh;
    file_handler_calls++;
}

static void io(void)
{
    char name[64] = "";
    if (rank == 0) {
        snprintf(name, sizeof name, "abi_app_io.%d.tmp", (int)(MPI_Wtime() * 1e6) % 1000000);
    }
    MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_File fh = MPI_FILE_NULL;
    int amode = MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, got = -1, n = -1;
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, amode, MPI_INFO_NULL, &fh) == MPI_SUCCESS &&
          fh != MPI_FILE_NULL);
    CHECK(MPI_File_get_amode(fh, &got) == MPI_SUCCESS && got == amode);
    int out[4], in[4] = {-1, -1, -1, -1};
    for (int i = 0; i < 4; i++) {
        out[i] = 100 * rank + i;
    }
    MPI_Status st;
    st.MPI_ERROR = -7;
    CHECK(MPI_File_write_at(fh, (MPI_Offset)rank * sizeof out, out, 4, MPI_INT, &st) ==
          MPI_SUCCESS);
    CHECK(MPI_Get_count(&st, MPI_INT, &n) == MPI_SUCCESS && n == 4 && st.MPI_ERROR == -7);
    CHECK(MPI_File_sync(fh) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_sync(fh) == MPI_SUCCESS);
    MPI_Offset fsize = -1, pos = -1;
    CHECK(MPI_File_get_size(fh, &fsize) == MPI_SUCCESS && fsize == (MPI_Offset)size * 16);

    /* a view of ints from the next rank's block; seek, read, the position in etypes */
    int next = (rank + 1) % size;
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL) == MPI_SUCCESS);
    CHECK(MPI_File_seek(fh, 4 * next + 1, MPI_SEEK_SET) == MPI_SUCCESS);
    CHECK(MPI_File_seek(fh, -1, MPI_SEEK_CUR) == MPI_SUCCESS);
    CHECK(MPI_File_read(fh, in, 4, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(in[0] == 100 * next && in[3] == 100 * next + 3);
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == 4 * next + 4);
    CHECK(MPI_File_seek(fh, -4, MPI_SEEK_END) == MPI_SUCCESS);
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == 4 * size - 4);

    /* a collective read and a nonblocking one */
    MPI_Request req;
    in[1] = -1;
    CHECK(MPI_File_read_at_all(fh, 4 * rank, in, 4, MPI_INT, &st) == MPI_SUCCESS);
    CHECK(in[1] == 100 * rank + 1 && MPI_Get_count(&st, MPI_INT, &n) == MPI_SUCCESS && n == 4);
    in[2] = -1;
    CHECK(MPI_File_iread_at(fh, 4 * rank, in, 4, MPI_INT, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS && req == MPI_REQUEST_NULL && in[2] == 100 * rank + 2);

    /* errors: the default handler of files returns; one of our own gets our handle */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    int cls = -1;
    CHECK(MPI_File_get_errhandler(fh, &eh) == MPI_SUCCESS && eh == MPI_ERRORS_RETURN);
    int rc = MPI_File_read(fh, in, 1, MPI_DATATYPE_NULL, MPI_STATUS_IGNORE);
    CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_TYPE);
    rc = MPI_File_get_size(MPI_FILE_NULL, &fsize);
    CHECK(MPI_Error_class(rc, &cls) == MPI_SUCCESS && cls == MPI_ERR_FILE);
    CHECK(MPI_File_create_errhandler(file_handler, &eh) == MPI_SUCCESS);
    CHECK(MPI_File_set_errhandler(fh, eh) == MPI_SUCCESS);
    MPI_File_seek(fh, 0, 12345);
    CHECK(file_handler_calls == 1 && file_handler_file == fh && file_handler_class == MPI_ERR_ARG);
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS && fh == MPI_FILE_NULL);
}

/* a generalized request completed at once; its query sets the status */
static int greq_query(void *extra, MPI_Status *st)
{
    st->MPI_SOURCE = 3;
    st->MPI_TAG = *(int *)extra;
    st->MPI_ERROR = MPI_SUCCESS;
    MPI_Status_set_elements(st, MPI_BYTE, 5);
    MPI_Status_set_cancelled(st, 0);
    return MPI_SUCCESS;
}
static int greq_free(void *extra)
{
    *(int *)extra = -1;
    return MPI_SUCCESS;
}
static int greq_cancel(void *extra, int complete)
{
    return MPI_SUCCESS;
}

/* sentinels in arrays and results, hand-written wrappers */
static void more(void)
{
    MPI_Group world;
    int in[2] = {MPI_PROC_NULL, 0}, out[2] = {-9, -9};
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    CHECK(MPI_Group_translate_ranks(world, 2, in, world, out) == MPI_SUCCESS);
    CHECK(out[0] == MPI_PROC_NULL && out[1] == 0);
    MPI_Group_free(&world);

    /* a non-periodic line: the ends' neighbours are MPI_PROC_NULL */
    MPI_Comm line;
    int dims[1] = {size}, periods[1] = {0}, src = -9, dst = -9, topo = -1;
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line) == MPI_SUCCESS);
    CHECK(MPI_Topo_test(line, &topo) == MPI_SUCCESS && topo == MPI_CART);
    CHECK(MPI_Cart_shift(line, 0, 1, &src, &dst) == MPI_SUCCESS);
    CHECK(src == (rank == 0 ? MPI_PROC_NULL : rank - 1));
    CHECK(dst == (rank == size - 1 ? MPI_PROC_NULL : rank + 1));
    /* a neighbour alltoallw on it: one int to the left and right neighbours */
    int nsb[2] = {10 * rank, 10 * rank + 1}, nrb[2] = {-1, -1}, ncnt[2] = {1, 1};
    MPI_Aint ndsp[2] = {0, sizeof(int)};
    MPI_Datatype nty[2] = {MPI_INT, MPI_INT};
    CHECK(MPI_Neighbor_alltoallw(nsb, ncnt, ndsp, nty, nrb, ncnt, ndsp, nty, line) == MPI_SUCCESS);
    CHECK(nrb[0] == (rank == 0 ? -1 : 10 * (rank - 1) + 1));
    CHECK(nrb[1] == (rank == size - 1 ? -1 : 10 * (rank + 1)));
    MPI_Comm_free(&line);

    /* a block darray of 4 * size ints: this rank's 4 */
    MPI_Datatype da;
    int gsize[1] = {4 * size}, distrib[1] = {MPI_DISTRIBUTE_BLOCK},
        darg[1] = {MPI_DISTRIBUTE_DFLT_DARG}, psize[1] = {size}, dsize = 0;
    CHECK(MPI_Type_create_darray(size, rank, 1, gsize, distrib, darg, psize, MPI_ORDER_C, MPI_INT,
                                 &da) == MPI_SUCCESS);
    CHECK(MPI_Type_size(da, &dsize) == MPI_SUCCESS && dsize == 4 * (int)sizeof(int));
    MPI_Type_free(&da);

    /* alltoallw: one int to each rank, its datatype per rank */
    int sb[64], rb[64], cnt[64], dsp[64];
    MPI_Datatype ty[64];
    for (int i = 0; i < size; i++) {
        sb[i] = 100 * rank + i;
        rb[i] = -1;
        cnt[i] = 1;
        dsp[i] = i * (int)sizeof(int);
        ty[i] = MPI_INT;
    }
    CHECK(MPI_Alltoallw(sb, cnt, dsp, ty, rb, cnt, dsp, ty, MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int i = 0; i < size; i++) {
        CHECK(rb[i] == 100 * i + rank);
    }
    MPI_Request wr;
    CHECK(MPI_Alltoallw_init(sb, cnt, dsp, ty, rb, cnt, dsp, ty, MPI_COMM_WORLD, MPI_INFO_NULL,
                             &wr) == MPI_SUCCESS);
    for (int i = 0; i < size; i++) {
        sb[i] = 1000 + 100 * rank + i;
    }
    MPI_Start(&wr);
    CHECK(MPI_Wait(&wr, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
          rb[size - 1] == 1000 + 100 * (size - 1) + rank);
    MPI_Request_free(&wr);

    /* a generalized request */
    MPI_Request gr;
    MPI_Status st;
    int extra = 77, flag = 0, n = -1;
    CHECK(MPI_Grequest_start(greq_query, greq_free, greq_cancel, &extra, &gr) == MPI_SUCCESS);
    CHECK(MPI_Test(&gr, &flag, &st) == MPI_SUCCESS && !flag);
    CHECK(MPI_Grequest_complete(gr) == MPI_SUCCESS);
    CHECK(MPI_Wait(&gr, &st) == MPI_SUCCESS && gr == MPI_REQUEST_NULL);
    CHECK(st.MPI_SOURCE == 3 && st.MPI_TAG == 77 && extra == -1);
    CHECK(MPI_Get_count(&st, MPI_BYTE, &n) == MPI_SUCCESS && n == 5);

    MPI_Comm parent = MPI_COMM_WORLD;
    CHECK(MPI_Comm_get_parent(&parent) == MPI_SUCCESS && parent == MPI_COMM_NULL);
    CHECK(MPI_Pcontrol(1) == MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    int provided = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(provided >= MPI_THREAD_FUNNELED);
    abi_version();
    p2p();
    collectives();
    datatypes();
    attributes();
    errors();
    rma();
    tool();
    io();
    more();
    int all_bad = 0;
    MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && all_bad == 0) {
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        MPI_Get_library_version(lib, &len);
        printf("ok - np %d: every check passed\n# library: %.40s\n", size, lib);
    }
    MPI_Finalize();
    return all_bad != 0;
}
