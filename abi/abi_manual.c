/*
 * abi_manual.c -- the standard ABI layer's procedures that no rule of
 * tools/mpigen/abigen.py covers (abi/gen/gaps.txt lists them): those that take callbacks,
 * which compi's native library calls with native handles, statuses and error codes, and
 * those whose handle arrays are as long as the communicator, a few whose arrays hold
 * sentinels or error codes, and the tool interface's handle allocations (the object
 * handle they get is of the kind of the variable's binding).
 *
 * A callback that gets an extra_state (attribute copy/delete, generalized requests) is
 * given to the native library as a fixed trampoline with a small record of the user's
 * functions as its extra_state.  Those that get none (user operations, error handlers)
 * take one of a fixed set of trampolines each, ABI_SLOTS of each kind per process: the
 * trampoline's number finds the user's function.
 */
#include "abi/abi.h"

#include <pthread.h>

#define ABI_SLOTS 64

static pthread_mutex_t slot_lock = PTHREAD_MUTEX_INITIALIZER;

/* the next free slot of a kind, or -1 */
static int slot_take(int *used)
{
    pthread_mutex_lock(&slot_lock);
    int i = *used < ABI_SLOTS ? (*used)++ : -1;
    pthread_mutex_unlock(&slot_lock);
    return i;
}

/* sixty-four trampolines: X(0) ... X(63) */
#define ABI_REP8(X, b) X(b##0) X(b##1) X(b##2) X(b##3) X(b##4) X(b##5) X(b##6) X(b##7)
#define ABI_REP64(X)                                                                               \
    ABI_REP8(X, 0)                                                                                 \
    ABI_REP8(X, 1)                                                                                 \
    ABI_REP8(X, 2) ABI_REP8(X, 3) ABI_REP8(X, 4) ABI_REP8(X, 5) ABI_REP8(X, 6) ABI_REP8(X, 7)

/* ---- user operations ------------------------------------------------------------------ */

static MPI_User_function *op_fn[ABI_SLOTS];
static MPI_User_function_c *op_fn_c[ABI_SLOTS];
static int op_used, op_used_c;

static void op_call(int i, void *in, void *inout, int *len, int *dt)
{
    MPI_Datatype d = abi_n2h(Datatype, *dt);
    op_fn[i](in, inout, len, &d);
}
static void op_call_c(int i, void *in, void *inout, MPI_Count *len, int *dt)
{
    MPI_Datatype d = abi_n2h(Datatype, *dt);
    op_fn_c[i](in, inout, len, &d);
}

/* the slot of a trampoline is its two octal digits */
#define OP_TRAMP(i)                                                                                \
    static void op_t_##i(void *a, void *b, int *l, int *d)                                         \
    {                                                                                              \
        op_call(0##i, a, b, l, d);                                                                 \
    }                                                                                              \
    static void op_tc_##i(void *a, void *b, MPI_Count *l, int *d)                                  \
    {                                                                                              \
        op_call_c(0##i, a, b, l, d);                                                               \
    }
ABI_REP64(OP_TRAMP)
#define OP_ADDR(i) (void *)op_t_##i,
#define OP_ADDR_C(i) (void *)op_tc_##i,
static void *const op_tramp[ABI_SLOTS] = {ABI_REP64(OP_ADDR)};
static void *const op_tramp_c[ABI_SLOTS] = {ABI_REP64(OP_ADDR_C)};

int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    if (user_fn == NULL || op == NULL) {
        return MPI_ERR_ARG;
    }
    int i = slot_take(&op_used);
    if (i < 0) {
        return MPI_ERR_NO_MEM;
    }
    op_fn[i] = user_fn;
    int n = 0;
    int rc = abi_n.Op_create(op_tramp[i], commute, &n);
    if (rc == 0) {
        *op = abi_n2h(Op, n);
    }
    return abi_err_out(rc);
}
#pragma weak MPI_Op_create = PMPI_Op_create

int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    if (user_fn == NULL || op == NULL) {
        return MPI_ERR_ARG;
    }
    int i = slot_take(&op_used_c);
    if (i < 0) {
        return MPI_ERR_NO_MEM;
    }
    op_fn_c[i] = user_fn;
    int n = 0;
    int rc = abi_n.Op_create_c(op_tramp_c[i], commute, &n);
    if (rc == 0) {
        *op = abi_n2h(Op, n);
    }
    return abi_err_out(rc);
}
#pragma weak MPI_Op_create_c = PMPI_Op_create_c

/* ---- error handlers --------------------------------------------------------------------- */

static MPI_Comm_errhandler_function *eh_comm[ABI_SLOTS];
static MPI_Win_errhandler_function *eh_win[ABI_SLOTS];
static MPI_Session_errhandler_function *eh_session[ABI_SLOTS];
static MPI_File_errhandler_function *eh_file[ABI_SLOTS];
static int eh_comm_used, eh_win_used, eh_session_used, eh_file_used;

#define EH_TRAMP(i)                                                                                \
    static void eh_comm_##i(int *h, int *code, ...)                                                \
    {                                                                                              \
        MPI_Comm a = abi_n2h(Comm, *h);                                                            \
        int e = abi_err_out(*code);                                                                \
        eh_comm[0##i](&a, &e);                                                                     \
    }                                                                                              \
    static void eh_win_##i(int *h, int *code, ...)                                                 \
    {                                                                                              \
        MPI_Win a = abi_n2h(Win, *h);                                                              \
        int e = abi_err_out(*code);                                                                \
        eh_win[0##i](&a, &e);                                                                      \
    }                                                                                              \
    static void eh_session_##i(int *h, int *code, ...)                                             \
    {                                                                                              \
        MPI_Session a = abi_n2h(Session, *h);                                                      \
        int e = abi_err_out(*code);                                                                \
        eh_session[0##i](&a, &e);                                                                  \
    }                                                                                              \
    static void eh_file_##i(void **h, int *code, ...)                                              \
    {                                                                                              \
        MPI_File a = abi_file_out(*h);                                                             \
        int e = abi_err_out(*code);                                                                \
        eh_file[0##i](&a, &e);                                                                     \
    }
ABI_REP64(EH_TRAMP)
#define EH_COMM(i) (void *)eh_comm_##i,
#define EH_WIN(i) (void *)eh_win_##i,
#define EH_SESSION(i) (void *)eh_session_##i,
#define EH_FILE(i) (void *)eh_file_##i,
static void *const eh_comm_tramp[ABI_SLOTS] = {ABI_REP64(EH_COMM)};
static void *const eh_win_tramp[ABI_SLOTS] = {ABI_REP64(EH_WIN)};
static void *const eh_session_tramp[ABI_SLOTS] = {ABI_REP64(EH_SESSION)};
static void *const eh_file_tramp[ABI_SLOTS] = {ABI_REP64(EH_FILE)};

#define EH_CREATE(Kind, table, used, tramp)                                                        \
    int PMPI_##Kind##_create_errhandler(MPI_##Kind##_errhandler_function *fn,                      \
                                        MPI_Errhandler *errhandler)                                \
    {                                                                                              \
        if (fn == NULL || errhandler == NULL) {                                                    \
            return MPI_ERR_ARG;                                                                    \
        }                                                                                          \
        int i = slot_take(&used);                                                                  \
        if (i < 0) {                                                                               \
            return MPI_ERR_NO_MEM;                                                                 \
        }                                                                                          \
        table[i] = fn;                                                                             \
        int n = 0;                                                                                 \
        int rc = abi_n.Kind##_create_errhandler(tramp[i], &n);                                     \
        if (rc == 0) {                                                                             \
            *errhandler = abi_n2h(Errhandler, n);                                                  \
        }                                                                                          \
        return abi_err_out(rc);                                                                    \
    }
EH_CREATE(Comm, eh_comm, eh_comm_used, eh_comm_tramp)
EH_CREATE(Win, eh_win, eh_win_used, eh_win_tramp)
EH_CREATE(Session, eh_session, eh_session_used, eh_session_tramp)
EH_CREATE(File, eh_file, eh_file_used, eh_file_tramp)
#pragma weak MPI_Comm_create_errhandler = PMPI_Comm_create_errhandler
#pragma weak MPI_Win_create_errhandler = PMPI_Win_create_errhandler
#pragma weak MPI_Session_create_errhandler = PMPI_Session_create_errhandler
#pragma weak MPI_File_create_errhandler = PMPI_File_create_errhandler

/* ---- attribute keys --------------------------------------------------------------------- */

/* the user's callbacks of a key (never freed: a key's callbacks may run until the last
   object holding its attribute goes, after MPI_*_free_keyval) */
struct abi_keyval {
    void *copy, *del, *extra;
};

typedef int(abi_copy_t)(void *h, int keyval, void *extra, void *in, void *out, int *flag);
typedef int(abi_delete_t)(void *h, int keyval, void *val, void *extra);

/* MPI_*_DUP_FN and MPI_*_NULL_COPY_FN are 1 and 0 in the standard ABI */
static int kv_copy(void *h, int keyval, void *es, void *in, void *out, int *flag)
{
    struct abi_keyval *kv = es;
    if (kv->copy == NULL) {
        *flag = 0;
        return 0;
    }
    if (kv->copy == (void *)1) {
        *(void **)out = in;
        *flag = 1;
        return 0;
    }
    return abi_err_in(
        ((abi_copy_t *)kv->copy)(h, abi_keyval_out(keyval), kv->extra, in, out, flag));
}

static int kv_delete(void *h, int keyval, void *val, void *es)
{
    struct abi_keyval *kv = es;
    if (kv->del == NULL) {
        return 0;
    }
    return abi_err_in(((abi_delete_t *)kv->del)(h, abi_keyval_out(keyval), val, kv->extra));
}

#define KV_TRAMP(T, lower)                                                                         \
    static int kv_copy_##lower(int h, int k, void *es, void *in, void *out, int *flag)             \
    {                                                                                              \
        return kv_copy((void *)abi_n2h(T, h), k, es, in, out, flag);                               \
    }                                                                                              \
    static int kv_delete_##lower(int h, int k, void *val, void *es)                                \
    {                                                                                              \
        return kv_delete((void *)abi_n2h(T, h), k, val, es);                                       \
    }
KV_TRAMP(Comm, comm)
KV_TRAMP(Datatype, type)
KV_TRAMP(Win, win)

static struct abi_keyval *kv_new(void *copy, void *del, void *extra)
{
    struct abi_keyval *kv = malloc(sizeof *kv);
    if (kv != NULL) {
        kv->copy = copy;
        kv->del = del;
        kv->extra = extra;
    }
    return kv;
}

#define KV_CREATE(fname, native, lower, CopyT, DelT)                                               \
    int P##fname(CopyT *copy_fn, DelT *delete_fn, int *keyval, void *extra_state)                  \
    {                                                                                              \
        if (keyval == NULL) {                                                                      \
            return MPI_ERR_ARG;                                                                    \
        }                                                                                          \
        struct abi_keyval *kv = kv_new((void *)copy_fn, (void *)delete_fn, extra_state);           \
        if (kv == NULL) {                                                                          \
            return MPI_ERR_NO_MEM;                                                                 \
        }                                                                                          \
        int rc = abi_n.native((void *)kv_copy_##lower, (void *)kv_delete_##lower, keyval, kv);     \
        if (rc != 0) {                                                                             \
            free(kv);                                                                              \
        }                                                                                          \
        return abi_err_out(rc);                                                                    \
    }
KV_CREATE(MPI_Comm_create_keyval, Comm_create_keyval, comm, MPI_Comm_copy_attr_function,
          MPI_Comm_delete_attr_function)
KV_CREATE(MPI_Type_create_keyval, Type_create_keyval, type, MPI_Type_copy_attr_function,
          MPI_Type_delete_attr_function)
KV_CREATE(MPI_Win_create_keyval, Win_create_keyval, win, MPI_Win_copy_attr_function,
          MPI_Win_delete_attr_function)
KV_CREATE(MPI_Keyval_create, Keyval_create, comm, MPI_Copy_function, MPI_Delete_function)
#pragma weak MPI_Comm_create_keyval = PMPI_Comm_create_keyval
#pragma weak MPI_Type_create_keyval = PMPI_Type_create_keyval
#pragma weak MPI_Win_create_keyval = PMPI_Win_create_keyval
#pragma weak MPI_Keyval_create = PMPI_Keyval_create

/* predefined attributes: the values are the same but for the window's flavor and memory
   model, which are enumerations (their ints are kept per thread, as the standard only
   asks them to live until the next call) */
int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    int rc = abi_n.Comm_get_attr(abi_h2n(comm), abi_keyval_in(comm_keyval), attribute_val, flag);
    return abi_err_out(rc);
}
#pragma weak MPI_Comm_get_attr = PMPI_Comm_get_attr

int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    static __thread int value;
    int rc = abi_n.Win_get_attr(abi_h2n(win), abi_keyval_in(win_keyval), attribute_val, flag);
    if (rc == 0 && *flag && (win_keyval == MPI_WIN_CREATE_FLAVOR || win_keyval == MPI_WIN_MODEL)) {
        int v = **(int **)attribute_val;
        value = win_keyval == MPI_WIN_MODEL ? abi_map_model_out(v) : abi_map_flavor_out(v);
        *(int **)attribute_val = &value;
    }
    return abi_err_out(rc);
}
#pragma weak MPI_Win_get_attr = PMPI_Win_get_attr

/* ---- generalized requests ----------------------------------------------------------------- */

struct abi_greq {
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free;
    MPI_Grequest_cancel_function *cancel;
    void *extra;
};

static int greq_query(void *es, abi_nstatus_t *n)
{
    struct abi_greq *g = es;
    MPI_Status a = {0};
    abi_status_n2a(n, &a);
    int rc = g->query(g->extra, &a);
    abi_status_a2n(&a, n);
    return abi_err_in(rc);
}

static int greq_free(void *es)
{
    struct abi_greq *g = es;
    int rc = g->free(g->extra);
    free(g);
    return abi_err_in(rc);
}

static int greq_cancel(void *es, int complete)
{
    struct abi_greq *g = es;
    return abi_err_in(g->cancel(g->extra, complete));
}

int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                        MPI_Request *request)
{
    if (query_fn == NULL || free_fn == NULL || cancel_fn == NULL || request == NULL) {
        return MPI_ERR_ARG;
    }
    struct abi_greq *g = malloc(sizeof *g);
    if (g == NULL) {
        return MPI_ERR_NO_MEM;
    }
    *g = (struct abi_greq){query_fn, free_fn, cancel_fn, extra_state};
    int n = 0;
    int rc =
        abi_n.Grequest_start((void *)greq_query, (void *)greq_free, (void *)greq_cancel, g, &n);
    if (rc == 0) {
        *request = abi_n2h(Request, n);
    } else {
        free(g);
    }
    return abi_err_out(rc);
}
#pragma weak MPI_Grequest_start = PMPI_Grequest_start

/* ---- alltoallw: a datatype per rank or neighbour ------------------------------------------ */

/* how many datatypes each side has: the communicator's ranks (the remote group's on an
   intercommunicator), or the neighbourhood's degrees (out for sending, in for receiving) */
static int w_counts(int comm, int neighbor, int *nsend, int *nrecv)
{
    int rc, n = 0, topo = 0, inter = 0;
    *nsend = *nrecv = 0;
    if (!neighbor) {
        rc = abi_n.Comm_test_inter(comm, &inter);
        if (rc == 0) {
            rc = inter ? abi_n.Comm_remote_size(comm, &n) : abi_n.Comm_size(comm, &n);
        }
        *nsend = *nrecv = n;
        return rc;
    }
    rc = abi_n.Topo_test(comm, &topo);
    if (rc != 0) {
        return rc;
    }
    topo = abi_topo_out(topo);
    if (topo == MPI_CART) {
        rc = abi_n.Cartdim_get(comm, &n);
        *nsend = *nrecv = 2 * n;
    } else if (topo == MPI_GRAPH) {
        int me = 0;
        rc = abi_n.Comm_rank(comm, &me);
        if (rc == 0) {
            rc = abi_n.Graph_neighbors_count(comm, me, &n);
        }
        *nsend = *nrecv = n;
    } else if (topo == MPI_DIST_GRAPH) {
        int weighted = 0;
        rc = abi_n.Dist_graph_neighbors_count(comm, nrecv, nsend, &weighted);
    }
    /* no topology: no datatypes, and the native call says what is wrong */
    return rc;
}

/* both datatype arrays, native, in one allocation: *t_p the send types, *rt_p the receive
   types (the send types are not read when sending in place) */
static int w_types(int comm, int neighbor, const void *sendbuf, const MPI_Datatype *st,
                   const MPI_Datatype *rt, int **t_p, int **rt_p)
{
    int ns = 0, nr = 0;
    int rc = w_counts(comm, neighbor, &ns, &nr);
    if (rc != 0) {
        return rc;
    }
    int *t = malloc(sizeof(int) * (size_t)(ns + nr + 1));
    if (t == NULL) {
        return abi_err_in(MPI_ERR_NO_MEM);
    }
    for (int i = 0; i < ns; i++) {
        t[i] = sendbuf != MPI_IN_PLACE && st != NULL ? abi_h2n(st[i]) : 0;
    }
    for (int i = 0; i < nr; i++) {
        t[ns + i] = rt != NULL ? abi_h2n(rt[i]) : 0;
    }
    *t_p = t;
    *rt_p = t + ns;
    return 0;
}

#define W_STR(x) #x
#define W_UNPAREN(...) __VA_ARGS__
/* one alltoallw: X its name less MPI_, NB whether over neighbours, C the counts' type, D
   the displacements', then in parentheses the extra parameters and the extra native
   arguments, and what converts the request (the native library has taken the datatypes
   it needs from the arrays when the call returns) */
#define W_DEFINE(X, NB, C, D, PARAMS, ARGS, POST)                                                  \
    int PMPI_##X(const void *sendbuf, const C sendcounts[], const D sdispls[],                     \
                 const MPI_Datatype sendtypes[], void *recvbuf, const C recvcounts[],              \
                 const D rdispls[], const MPI_Datatype recvtypes[],                                \
                 MPI_Comm comm W_UNPAREN PARAMS)                                                   \
    {                                                                                              \
        int c = abi_h2n(comm), *t = NULL, *rt = NULL, n = ABI_N_UNSET;                             \
        int rc = w_types(c, NB, sendbuf, sendtypes, recvtypes, &t, &rt);                           \
        if (rc == 0) {                                                                             \
            rc = abi_n.X(abi_buf(sendbuf), sendcounts, sdispls, t, recvbuf, recvcounts, rdispls,   \
                         rt, c W_UNPAREN ARGS);                                                    \
            free(t);                                                                               \
        }                                                                                          \
        POST;                                                                                      \
        return abi_err_out(rc);                                                                    \
    }                                                                                              \
    _Pragma(W_STR(weak MPI_##X = PMPI_##X))
#define W_REQ                                                                                      \
    if (request != NULL && n != ABI_N_UNSET) {                                                     \
        *request = abi_n2h(Request, n);                                                            \
    }
/* the blocking, nonblocking and persistent forms */
#define W_ALL3(B, I, P, NB, C, D)                                                                  \
    W_DEFINE(B, NB, C, D, (), (), (void)n)                                                         \
    W_DEFINE(I, NB, C, D, (, MPI_Request * request), (, request != NULL ? &n : NULL), W_REQ)       \
    W_DEFINE(P, NB, C, D, (, MPI_Info info, MPI_Request * request),                                \
             (, abi_h2n(info), request != NULL ? &n : NULL), W_REQ)
W_ALL3(Alltoallw, Ialltoallw, Alltoallw_init, 0, int, int)
W_ALL3(Alltoallw_c, Ialltoallw_c, Alltoallw_init_c, 0, MPI_Count, MPI_Aint)
W_ALL3(Neighbor_alltoallw, Ineighbor_alltoallw, Neighbor_alltoallw_init, 1, int, MPI_Aint)
W_ALL3(Neighbor_alltoallw_c, Ineighbor_alltoallw_c, Neighbor_alltoallw_init_c, 1, MPI_Count,
       MPI_Aint)

/* ---- the MPI-1 attribute call, spawning, darray, MPI_Pcontrol ----------------------------- */

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return abi_err_out(abi_n.Attr_get(abi_h2n(comm), abi_keyval_in(keyval), attribute_val, flag));
}
#pragma weak MPI_Attr_get = PMPI_Attr_get

/* the children's error codes, when asked for */
static void errcodes_out(int *codes, int n)
{
    for (int i = 0; codes != MPI_ERRCODES_IGNORE && i < n; i++) {
        codes[i] = abi_err_out(codes[i]);
    }
}

int PMPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                    MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    int n = 0;
    int rc = abi_n.Comm_spawn(command, argv, maxprocs, abi_h2n(info), abi_rank_in(root),
                              abi_h2n(comm), &n, array_of_errcodes);
    *intercomm = abi_n2h(Comm, n);
    errcodes_out(array_of_errcodes, maxprocs);
    return abi_err_out(rc);
}
#pragma weak MPI_Comm_spawn = PMPI_Comm_spawn

int PMPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                             const int array_of_maxprocs[], const MPI_Info array_of_info[],
                             int root, MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    int n = 0, total = 0;
    ABI_TMP(int, infos, count);
    for (int i = 0; i < count; i++) {
        infos[i] = abi_h2n(array_of_info[i]);
        total += array_of_maxprocs[i];
    }
    int rc =
        abi_n.Comm_spawn_multiple(count, array_of_commands, array_of_argv, array_of_maxprocs, infos,
                                  abi_rank_in(root), abi_h2n(comm), &n, array_of_errcodes);
    ABI_TMP_FREE(infos);
    *intercomm = abi_n2h(Comm, n);
    errcodes_out(array_of_errcodes, total);
    return abi_err_out(rc);
}
#pragma weak MPI_Comm_spawn_multiple = PMPI_Comm_spawn_multiple

/* darray's distributions and their arguments, native, in one array of 2 * ndims */
static int *darray_in(int ndims, const int *distribs, const int *dargs)
{
    int *t = malloc(sizeof(int) * (size_t)(ndims > 0 ? 2 * ndims : 1));
    for (int i = 0; t != NULL && i < ndims; i++) {
        t[i] = abi_map_distribute_in(distribs[i]);
        /* a distribution argument is a block size, or MPI_DISTRIBUTE_DFLT_DARG */
        t[ndims + i] = dargs[i] == MPI_DISTRIBUTE_DFLT_DARG
                           ? abi_map_distribute_in(MPI_DISTRIBUTE_DFLT_DARG)
                           : dargs[i];
    }
    return t;
}

#define DARRAY(suffix, G)                                                                          \
    int PMPI_Type_create_darray##suffix(int size, int rank, int ndims, const G array_of_gsizes[],  \
                                        const int array_of_distribs[], const int array_of_dargs[], \
                                        const int array_of_psizes[], int order,                    \
                                        MPI_Datatype oldtype, MPI_Datatype *newtype)               \
    {                                                                                              \
        int *d = darray_in(ndims, array_of_distribs, array_of_dargs), n = ABI_N_UNSET;             \
        if (d == NULL) {                                                                           \
            return MPI_ERR_NO_MEM;                                                                 \
        }                                                                                          \
        int rc = abi_n.Type_create_darray##suffix(size, rank, ndims, array_of_gsizes, d,           \
                                                  d + (ndims > 0 ? ndims : 0), array_of_psizes,    \
                                                  abi_order_in(order), abi_h2n(oldtype), &n);      \
        free(d);                                                                                   \
        if (rc == 0) {                                                                             \
            *newtype = abi_n2h(Datatype, n);                                                       \
        }                                                                                          \
        return abi_err_out(rc);                                                                    \
    }
DARRAY(, int)
DARRAY(_c, MPI_Count)
#pragma weak MPI_Type_create_darray = PMPI_Type_create_darray
#pragma weak MPI_Type_create_darray_c = PMPI_Type_create_darray_c

/* compi's MPI_Pcontrol only looks at the level */
int PMPI_Pcontrol(const int level, ...)
{
    return abi_err_out(abi_n.Pcontrol(level));
}
#pragma weak MPI_Pcontrol = PMPI_Pcontrol

/* ---- the tool interface's handle allocation --------------------------------------------- */

/* obj_handle points at a handle of the kind the variable is bound to: the native handle's
   int in *n when the binding names a handle the layer converts; 0 when there is no
   object (obj_handle goes to the native call as it is) */
static int t_obj_in(int bind, const void *obj_handle, int *n)
{
    if (obj_handle == NULL) {
        return 0;
    }
    switch (bind) {
    case MPI_T_BIND_MPI_COMM:
    case MPI_T_BIND_MPI_DATATYPE:
    case MPI_T_BIND_MPI_ERRHANDLER:
    case MPI_T_BIND_MPI_GROUP:
    case MPI_T_BIND_MPI_OP:
    case MPI_T_BIND_MPI_REQUEST:
    case MPI_T_BIND_MPI_WIN:
    case MPI_T_BIND_MPI_MESSAGE:
    case MPI_T_BIND_MPI_INFO:
    case MPI_T_BIND_MPI_SESSION:
        *n = abi_h2n(*(void *const *)obj_handle);
        return 1;
    default:
        return 0;
    }
}

int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
                             int *count)
{
    int bind = 0, n = 0;
    int rc =
        abi_n.T_cvar_get_info(cvar_index, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &bind, NULL);
    if (rc != 0) {
        return abi_err_out(rc);
    }
    int conv = t_obj_in(abi_bind_out(bind), obj_handle, &n);
    rc = abi_n.T_cvar_handle_alloc(cvar_index, conv ? &n : obj_handle, (void **)handle, count);
    return abi_err_out(rc);
}
#pragma weak MPI_T_cvar_handle_alloc = PMPI_T_cvar_handle_alloc

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session pe_session, int pvar_index, void *obj_handle,
                             MPI_T_pvar_handle *handle, int *count)
{
    int bind = 0, n = 0;
    int rc = abi_n.T_pvar_get_info(pvar_index, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                   &bind, NULL, NULL, NULL);
    if (rc != 0) {
        return abi_err_out(rc);
    }
    int conv = t_obj_in(abi_bind_out(bind), obj_handle, &n);
    rc = abi_n.T_pvar_handle_alloc((void *)pe_session, pvar_index, conv ? &n : obj_handle,
                                   (void **)handle, count);
    return abi_err_out(rc);
}
#pragma weak MPI_T_pvar_handle_alloc = PMPI_T_pvar_handle_alloc

/* an event's binding says what obj_handle points to, as for the variables above (compi has
   no events: the native call answers MPI_T_ERR_INVALID_INDEX first) */
int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    int bind = 0, n = 0;
    int rc = abi_n.T_event_get_info(event_index, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                    NULL, NULL, &bind);
    if (rc != 0) {
        return abi_err_out(rc);
    }
    int conv = t_obj_in(abi_bind_out(bind), obj_handle, &n);
    rc = abi_n.T_event_handle_alloc(event_index, conv ? &n : obj_handle, abi_h2n(info),
                                    (void **)event_registration);
    return abi_err_out(rc);
}
#pragma weak MPI_T_event_handle_alloc = PMPI_T_event_handle_alloc

/* the event's element types are handles: *num_elements (in: the room, out: how many the
   event has) of them are converted, the room or the count, whichever is fewer */
int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                          int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                          int *desc_len, int *bind)
{
    int room = num_elements != NULL && array_of_datatypes != NULL ? *num_elements : 0;
    int n_info = ABI_N_UNSET;
    ABI_TMP(int, n_types, room > 0 ? room : 0);
    int rc = abi_n.T_event_get_info(
        event_index, name, name_len, verbosity, room > 0 ? n_types : NULL, array_of_displacements,
        num_elements, (void **)enumtype, info != NULL ? &n_info : NULL, desc, desc_len, bind);
    if (rc == 0) {
        for (int i = 0; i < room && i < *num_elements; i++) {
            array_of_datatypes[i] = abi_n2h(Datatype, n_types[i]);
        }
        if (verbosity != NULL) {
            *verbosity = abi_verbosity_out(*verbosity);
        }
        if (bind != NULL) {
            *bind = abi_bind_out(*bind);
        }
    }
    if (info != NULL && n_info != ABI_N_UNSET) {
        *info = abi_n2h(Info, n_info);
    }
    ABI_TMP_FREE(n_types);
    return abi_err_out(rc);
}
#pragma weak MPI_T_event_get_info = PMPI_T_event_get_info
