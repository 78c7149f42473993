/*
 * rma_pairs: the pair types (MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT,
 * MPI_LONG_DOUBLE_INT, MPI_2INT) through every accumulate-family call: MPI_Fetch_and_op
 * with MPI_REPLACE, MPI_NO_OP, MPI_MINLOC and MPI_MAXLOC, MPI_Accumulate, MPI_Get_accumulate,
 * MPI_Raccumulate and MPI_Rget_accumulate, on a window of the user's memory and on an
 * allocated one.  Most of these types have padding between the value and the int (or
 * after it): the origin's padding is filled with garbage, and the int must arrive whole
 * in the target and in the result buffers, never shifted by the padding.
 */
#include "tests/mpi/mpitest.h"

#include <string.h>

#define GARBAGE 0xa5

/* one pair type: its struct, an origin value built over garbage padding, and the checks */
#define PAIR_RUN(NAME, T, MPIT)                                                                    \
    static void run_##NAME(int flavor)                                                             \
    {                                                                                              \
        typedef struct {                                                                           \
            T a;                                                                                   \
            int b;                                                                                 \
        } pair_t;                                                                                  \
        const char *what = flavor == MPI_WIN_FLAVOR_CREATE ? #NAME " create" : #NAME " allocate";  \
        int right = (mt_rank + 1) % mt_size;                                                       \
        pair_t *mem, res, got, o;                                                                  \
        MPI_Win win;                                                                               \
        MPI_Request req;                                                                           \
        MPI_Datatype type = MPIT;                                                                  \
        if (flavor == MPI_WIN_FLAVOR_CREATE) {                                                     \
            mem = malloc(sizeof(pair_t));                                                          \
            MPI_OK(MPI_Win_create(mem, sizeof(pair_t), sizeof(pair_t), MPI_INFO_NULL,              \
                                  MPI_COMM_WORLD, &win));                                          \
        } else {                                                                                   \
            MPI_OK(MPI_Win_allocate(sizeof(pair_t), sizeof(pair_t), MPI_INFO_NULL, MPI_COMM_WORLD, \
                                    &mem, &win));                                                  \
        }                                                                                          \
        memset(mem, 0, sizeof(*mem));                                                              \
        mem->a = (T)1;                                                                             \
        mem->b = 0x11223344;                                                                       \
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));                                                       \
        MPI_OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));                                   \
        /* result = target, target = origin op target; then the target read back */                \
        PAIR_SET(o, 2, 0x22334455);                                                                \
        PAIR_FILL(res);                                                                            \
        MPI_OK(MPI_Fetch_and_op(&o, &res, MPIT, right, 0, MPI_REPLACE, win));                      \
        PAIR_EXPECT(res, 1, 0x11223344, "fetch_and_op REPLACE result");                            \
        PAIR_TARGET(2, 0x22334455, "fetch_and_op REPLACE");                                        \
        PAIR_FILL(res);                                                                            \
        MPI_OK(MPI_Fetch_and_op(NULL, &res, MPIT, right, 0, MPI_NO_OP, win));                      \
        PAIR_EXPECT(res, 2, 0x22334455, "fetch_and_op NO_OP result");                              \
        PAIR_SET(o, 2, 7);                                                                         \
        PAIR_FILL(res);                                                                            \
        MPI_OK(MPI_Fetch_and_op(&o, &res, MPIT, right, 0, MPI_MINLOC, win));                       \
        PAIR_EXPECT(res, 2, 0x22334455, "fetch_and_op MINLOC result");                             \
        PAIR_TARGET(2, 7, "fetch_and_op MINLOC (equal values: the smaller index)");                \
        PAIR_SET(o, 5, 0x0a0b0c0d);                                                                \
        PAIR_FILL(res);                                                                            \
        MPI_OK(MPI_Fetch_and_op(&o, &res, MPIT, right, 0, MPI_MAXLOC, win));                       \
        PAIR_EXPECT(res, 2, 7, "fetch_and_op MAXLOC result");                                      \
        PAIR_TARGET(5, 0x0a0b0c0d, "fetch_and_op MAXLOC");                                         \
        PAIR_SET(o, 3, 0x01020304);                                                                \
        MPI_OK(MPI_Accumulate(&o, 1, MPIT, right, 0, 1, MPIT, MPI_REPLACE, win));                  \
        PAIR_TARGET(3, 0x01020304, "accumulate REPLACE");                                          \
        PAIR_SET(o, 3, 1);                                                                         \
        MPI_OK(MPI_Accumulate(&o, 1, MPIT, right, 0, 1, MPIT, MPI_MINLOC, win));                   \
        PAIR_TARGET(3, 1, "accumulate MINLOC");                                                    \
        PAIR_SET(o, 4, 0x06070809);                                                                \
        PAIR_FILL(res);                                                                            \
        MPI_OK(                                                                                    \
            MPI_Get_accumulate(&o, 1, MPIT, &res, 1, MPIT, right, 0, 1, MPIT, MPI_MAXLOC, win));   \
        PAIR_EXPECT(res, 3, 1, "get_accumulate MAXLOC result");                                    \
        PAIR_TARGET(4, 0x06070809, "get_accumulate MAXLOC");                                       \
        PAIR_FILL(res);                                                                            \
        MPI_OK(                                                                                    \
            MPI_Get_accumulate(NULL, 0, MPIT, &res, 1, MPIT, right, 0, 1, MPIT, MPI_NO_OP, win));  \
        PAIR_EXPECT(res, 4, 0x06070809, "get_accumulate NO_OP result");                            \
        PAIR_SET(o, 0, 0x0eadbeef);                                                                \
        MPI_OK(MPI_Raccumulate(&o, 1, MPIT, right, 0, 1, MPIT, MPI_MINLOC, win, &req));            \
        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));                                                 \
        PAIR_TARGET(0, 0x0eadbeef, "raccumulate MINLOC");                                          \
        PAIR_SET(o, 6, 0x55667788);                                                                \
        PAIR_FILL(res);                                                                            \
        MPI_OK(MPI_Rget_accumulate(&o, 1, MPIT, &res, 1, MPIT, right, 0, 1, MPIT, MPI_REPLACE,     \
                                   win, &req));                                                    \
        MPI_OK(MPI_Wait(&req, MPI_STATUS_IGNORE));                                                 \
        PAIR_EXPECT(res, 0, 0x0eadbeef, "rget_accumulate REPLACE result");                         \
        PAIR_TARGET(6, 0x55667788, "rget_accumulate REPLACE");                                     \
        MPI_OK(MPI_Win_unlock(right, win));                                                        \
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));                                                       \
        /* the target's own view: the last value, whole */                                         \
        CHECK(mem->a == (T)6 && mem->b == 0x55667788, "%s: target holds b=0x%x", what, mem->b);    \
        MPI_OK(MPI_Win_free(&win));                                                                \
        if (flavor == MPI_WIN_FLAVOR_CREATE) {                                                     \
            free(mem);                                                                             \
        }                                                                                          \
    }

/* an origin value with garbage in its padding */
#define PAIR_SET(v, A, B)                                                                          \
    do {                                                                                           \
        memset(&(v), GARBAGE, sizeof(v));                                                          \
        (v).a = (__typeof__((v).a))(A);                                                            \
        (v).b = (B);                                                                               \
    } while (0)
#define PAIR_FILL(v) memset(&(v), GARBAGE, sizeof(v))
#define PAIR_EXPECT(v, A, B, msg)                                                                  \
    CHECK((v).a == (__typeof__((v).a))(A) && (v).b == (B),                                         \
          "%s: %s: got a=%g b=0x%x, expected "                                                     \
          "a=%g b=0x%x",                                                                           \
          what, msg, (double)(v).a, (v).b, (double)(A), (B))
/* the target's element read back with MPI_Get (flushed) */
#define PAIR_TARGET(A, B, msg)                                                                     \
    do {                                                                                           \
        PAIR_FILL(got);                                                                            \
        MPI_OK(MPI_Get(&got, 1, type, right, 0, 1, type, win));                                    \
        MPI_OK(MPI_Win_flush(right, win));                                                         \
        PAIR_EXPECT(got, A, B, msg " (the target afterwards)");                                    \
    } while (0)

PAIR_RUN(float_int, float, MPI_FLOAT_INT)
PAIR_RUN(double_int, double, MPI_DOUBLE_INT)
PAIR_RUN(long_int, long, MPI_LONG_INT)
PAIR_RUN(short_int, short, MPI_SHORT_INT)
PAIR_RUN(long_double_int, long double, MPI_LONG_DOUBLE_INT)
PAIR_RUN(two_int, int, MPI_2INT)

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "rma_pairs");
    static const int flavors[] = {MPI_WIN_FLAVOR_CREATE, MPI_WIN_FLAVOR_ALLOCATE};
    for (int f = 0; f < 2; f++) {
        run_float_int(flavors[f]);
        run_double_int(flavors[f]);
        run_long_int(flavors[f]);
        run_short_int(flavors[f]);
        run_long_double_int(flavors[f]);
        run_two_int(flavors[f]);
    }
    return mt_finish();
}
