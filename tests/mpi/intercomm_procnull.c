/*
 * intercomm_procnull.c -- rooted collectives on an intercommunicator whose MPI_PROC_NULL
 * ranks pass arguments that MPI does not look at, as bindings do (mpi4py passes no
 * buffers, count 0 and MPI_BYTE there, with the root's op), while the root changes
 * datatype and op from one call to the next and the root moves through both groups.
 *
 * The intercommunicator is made as mpi4py's tests make theirs: WORLD split into a lower
 * and an upper half, MPI_Intercomm_create from the split, and again on a dup of it.
 * Reduce is checked at the root against values computed by hand for each datatype and
 * op, first with the first rank of each group as the root throughout (its MPI_PROC_NULL
 * peers then see one datatype while it sees many), then with every rank in turn; bcast,
 * gather and scatter at the receivers.  A MPI_PROC_NULL rank's invalid op
 * handle is still MPI_ERR_OP, and a valid op that is undefined on its MPI_BYTE is not an
 * error.  With the argument nbc every call is the nonblocking one followed by MPI_Wait.
 * np 1: nothing.
 */
#include "tests/mpi/mpitest.h"

#include <string.h>

#define SENT (-7)
#define COUNT 3

static int nbc;
static int side, ln, rn, lrank;
static MPI_Comm inter;

/* the datatypes the root cycles through, one element at most 8 bytes */
static const struct {
    MPI_Datatype type;
    const char *name;
} types[] = {
    {MPI_INT, "MPI_INT"},
    {MPI_FLOAT, "MPI_FLOAT"},
    {MPI_DOUBLE, "MPI_DOUBLE"},
    {MPI_SHORT, "MPI_SHORT"},
    {MPI_LONG, "MPI_LONG"},
    {MPI_UNSIGNED, "MPI_UNSIGNED"},
    {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR"},
};
#define NTYPES ((int)(sizeof(types) / sizeof(types[0])))

static void put(MPI_Datatype t, void *buf, int i, long v)
{
    if (t == MPI_INT)
        ((int *)buf)[i] = (int)v;
    else if (t == MPI_FLOAT)
        ((float *)buf)[i] = (float)v;
    else if (t == MPI_DOUBLE)
        ((double *)buf)[i] = (double)v;
    else if (t == MPI_SHORT)
        ((short *)buf)[i] = (short)v;
    else if (t == MPI_LONG)
        ((long *)buf)[i] = v;
    else if (t == MPI_UNSIGNED)
        ((unsigned *)buf)[i] = (unsigned)v;
    else
        ((signed char *)buf)[i] = (signed char)v;
}

static long get(MPI_Datatype t, const void *buf, int i)
{
    if (t == MPI_INT)
        return ((const int *)buf)[i];
    if (t == MPI_FLOAT)
        return (long)((const float *)buf)[i];
    if (t == MPI_DOUBLE)
        return (long)((const double *)buf)[i];
    if (t == MPI_SHORT)
        return ((const short *)buf)[i];
    if (t == MPI_LONG)
        return ((const long *)buf)[i];
    if (t == MPI_UNSIGNED)
        return (long)((const unsigned *)buf)[i];
    return ((const signed char *)buf)[i];
}

/* element i of what remote rank k sends: small, so every type holds every result */
static long elem(int k, int i)
{
    return (i + k) % 3 + 1;
}

static long expected(MPI_Op op, int i)
{
    long v = elem(0, i);
    for (int k = 1; k < rn; k++) {
        long x = elem(k, i);
        if (op == MPI_SUM)
            v += x;
        else if (op == MPI_PROD)
            v *= x;
        else if (op == MPI_MAX)
            v = x > v ? x : v;
        else
            v = x < v ? x : v;
    }
    return v;
}

static void reduce(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, int root)
{
    if (nbc) {
        MPI_Request req;
        MPI_OK(MPI_Ireduce(s, r, count, t, op, root, inter, &req));
        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        MPI_OK(MPI_Reduce(s, r, count, t, op, root, inter));
    }
}

/* mpi4py's testReduce: each datatype and op, each group root in turn (all: every local
   rank is the root once per datatype and op) or the first only */
static void check_reduce(int all)
{
    static const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN};
    long sbuf[COUNT], rbuf[COUNT];
    for (int t = 0; t < NTYPES; t++) {
        MPI_Datatype ty = types[t].type;
        for (int o = 0; o < 4; o++) {
            for (int s = 0; s < 2; s++) {
                if (s != side) {
                    for (int r = 0; r < (all ? rn : 1); r++) {
                        for (int i = 0; i < COUNT; i++)
                            put(ty, sbuf, i, elem(lrank, i));
                        reduce(sbuf, NULL, COUNT, ty, ops[o], r);
                    }
                    continue;
                }
                for (int r = 0; r < (all ? ln : 1); r++) {
                    if (r != lrank) {
                        /* what MPI does not look at: no buffers, no count, MPI_BYTE */
                        reduce(NULL, NULL, 0, MPI_BYTE, ops[o], MPI_PROC_NULL);
                        continue;
                    }
                    for (int i = 0; i < COUNT; i++)
                        put(ty, rbuf, i, SENT);
                    reduce(NULL, rbuf, COUNT, ty, ops[o], MPI_ROOT);
                    for (int i = 0; i < COUNT; i++) {
                        CHECK(get(ty, rbuf, i) == expected(ops[o], i),
                              "reduce %s op %d element %d: %ld, expected %ld", types[t].name, o, i,
                              get(ty, rbuf, i), expected(ops[o], i));
                    }
                }
            }
        }
    }
}

/* bcast, gather and scatter with the same MPI_PROC_NULL arguments */
static void check_moves(void)
{
    int big[64], mine[2], got[2];
    for (int t = 0; t < 2; t++) {
        for (int s = 0; s < 2; s++) {
            int gsize = s == side ? ln : rn;
            for (int r = 0; r < gsize; r++) {
                int root = s != side ? r : r == lrank ? MPI_ROOT : MPI_PROC_NULL;
                int count = 1 + t + r;
                MPI_Request req = MPI_REQUEST_NULL;
                for (int i = 0; i < 64; i++)
                    big[i] = root == MPI_ROOT ? 100 * r + i : SENT;
                if (root == MPI_PROC_NULL) {
                    if (nbc) {
                        MPI_OK(MPI_Ibcast(NULL, 0, MPI_BYTE, root, inter, &req));
                        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
                        MPI_OK(
                            MPI_Igather(NULL, 0, MPI_BYTE, NULL, 0, MPI_BYTE, root, inter, &req));
                        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
                        MPI_OK(
                            MPI_Iscatter(NULL, 0, MPI_BYTE, NULL, 0, MPI_BYTE, root, inter, &req));
                        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
                    } else {
                        MPI_OK(MPI_Bcast(NULL, 0, MPI_BYTE, root, inter));
                        MPI_OK(MPI_Gather(NULL, 0, MPI_BYTE, NULL, 0, MPI_BYTE, root, inter));
                        MPI_OK(MPI_Scatter(NULL, 0, MPI_BYTE, NULL, 0, MPI_BYTE, root, inter));
                    }
                    continue;
                }
                if (nbc) {
                    MPI_OK(MPI_Ibcast(big, count, MPI_INT, root, inter, &req));
                    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
                } else {
                    MPI_OK(MPI_Bcast(big, count, MPI_INT, root, inter));
                }
                if (root != MPI_ROOT) {
                    for (int i = 0; i < count; i++)
                        CHECK(big[i] == 100 * r + i, "bcast from %d: [%d] %d", r, i, big[i]);
                }
                mine[0] = lrank;
                mine[1] = side;
                for (int i = 0; i < 64; i++)
                    big[i] = SENT;
                if (nbc) {
                    MPI_OK(MPI_Igather(mine, 2, MPI_INT, big, 2, MPI_INT, root, inter, &req));
                    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
                } else {
                    MPI_OK(MPI_Gather(mine, 2, MPI_INT, big, 2, MPI_INT, root, inter));
                }
                if (root == MPI_ROOT) {
                    for (int i = 0; i < rn; i++)
                        CHECK(big[2 * i] == i && big[2 * i + 1] == !side, "gather block %d", i);
                }
                for (int i = 0; i < 64; i++)
                    big[i] = 1000 + i;
                got[0] = got[1] = SENT;
                if (nbc) {
                    MPI_OK(MPI_Iscatter(big, 2, MPI_INT, got, 2, MPI_INT, root, inter, &req));
                    MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));
                } else {
                    MPI_OK(MPI_Scatter(big, 2, MPI_INT, got, 2, MPI_INT, root, inter));
                }
                if (root != MPI_ROOT) {
                    CHECK(got[0] == 1000 + 2 * lrank && got[1] == 1001 + 2 * lrank,
                          "scatter: %d %d", got[0], got[1]);
                }
            }
        }
    }
}

/* local checks only: an invalid op handle at MPI_PROC_NULL is refused before any
   message, a valid op undefined on MPI_BYTE is not looked at */
static void check_errors(void)
{
    int rc, cls;
    MPI_OK(MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN));
    rc = MPI_Reduce(NULL, NULL, 0, MPI_BYTE, MPI_OP_NULL, MPI_PROC_NULL, inter);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OP, "MPI_PROC_NULL with MPI_OP_NULL: class %d, expected MPI_ERR_OP", cls);
    rc = MPI_Reduce(NULL, NULL, 0, MPI_DATATYPE_NULL, MPI_SUM, MPI_PROC_NULL, inter);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_TYPE,
          "MPI_PROC_NULL with MPI_DATATYPE_NULL: class %d, expected "
          "MPI_ERR_TYPE",
          cls);
    MPI_OK(MPI_Comm_set_errhandler(inter, MPI_ERRORS_ARE_FATAL));
}

static void run_on(MPI_Comm c)
{
    inter = c;
    MPI_OK(MPI_Comm_rank(inter, &lrank));
    MPI_OK(MPI_Comm_size(inter, &ln));
    MPI_OK(MPI_Comm_remote_size(inter, &rn));
    check_reduce(0);
    check_reduce(1);
    check_moves();
    check_errors();
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "intercomm_procnull");
    nbc = argc > 1 && strcmp(argv[1], "nbc") == 0;
    if (mt_size >= 2) {
        MPI_Comm local, ic, dup;
        side = mt_rank >= mt_size / 2;
        MPI_OK(MPI_Comm_split(MPI_COMM_WORLD, side, 0, &local));
        MPI_OK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, side ? 0 : mt_size / 2, 17, &ic));
        run_on(ic);
        MPI_OK(MPI_Comm_dup(ic, &dup));
        run_on(dup);
        MPI_OK(MPI_Comm_free(&dup));
        MPI_OK(MPI_Comm_free(&ic));
        MPI_OK(MPI_Comm_free(&local));
    }
    return mt_finish();
}
