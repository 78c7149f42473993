/*
 * dt_darray: MPI_Type_create_subarray and MPI_Type_create_darray layouts against element
 * offsets worked out by hand from the standard's definitions (C and Fortran order;
 * BLOCK, CYCLIC, NONE and default dargs).  Each rank sends a global array of ints (the
 * value of each element is its offset) through the type to its right neighbour, which
 * receives it contiguous: the values received are the offsets the type selects, in
 * type-map order.  Extents must cover the whole global array (lb 0).  A darray over a
 * grid of every process must select each element exactly once.  Last, the argument
 * checks: MPI_ERR_ARG for grids, blocks and bounds that do not fit.
 */
#include "tests/mpi/mpitest.h"

#define GMAX 256

static int global[GMAX];

/* send `t` (over `global`) right, receive contiguous from the left, compare */
static void check_layout(MPI_Datatype t, const char *what, int nglobal, int n, const int *expect)
{
    int to = (mt_rank + 1) % mt_size, from = (mt_rank + mt_size - 1) % mt_size;
    int got[GMAX], size = -1, count = -1;
    MPI_Aint lb = -1, ext = -1;
    MPI_Status st;

    MPI_OK(MPI_Type_commit(&t));
    MPI_OK(MPI_Type_size(t, &size));
    MPI_OK(MPI_Type_get_extent(t, &lb, &ext));
    CHECK(size == n * (int)sizeof(int), "%s: size %d, expected %d", what, size,
          n * (int)sizeof(int));
    CHECK(lb == 0 && ext == nglobal * (MPI_Aint)sizeof(int), "%s: lb/extent %ld/%ld", what,
          (long)lb, (long)ext);
    memset(got, 0xff, sizeof(got));
    MPI_OK(MPI_Sendrecv(global, 1, t, to, 5, got, GMAX, MPI_INT, from, 5, MPI_COMM_WORLD, &st));
    MPI_OK(MPI_Get_count(&st, MPI_INT, &count));
    CHECK(count == n, "%s: received %d ints, expected %d", what, count, n);
    for (int i = 0; i < n && i < count; i++) {
        CHECK(got[i] == expect[i], "%s: item %d is element %d, expected %d", what, i, got[i],
              expect[i]);
    }
    MPI_OK(MPI_Type_free(&t));
}

static void subarrays(void)
{
    MPI_Datatype t;
    {
        /* 4x5, rows 1..2, columns 2..4: row*5 + col */
        int sz[] = {4, 5}, sub[] = {2, 3}, st[] = {1, 2};
        int e[] = {7, 8, 9, 12, 13, 14};
        MPI_OK(MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &t));
        check_layout(t, "subarray 4x5 C", 20, 6, e);
    }
    {
        /* the same arguments in Fortran order: element (i,j) at i + 4j, i fastest */
        int sz[] = {4, 5}, sub[] = {2, 3}, st[] = {1, 2};
        int e[] = {9, 10, 13, 14, 17, 18};
        MPI_OK(MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_FORTRAN, MPI_INT, &t));
        check_layout(t, "subarray 4x5 Fortran", 20, 6, e);
    }
    {
        /* 3x4x5 C: (a*4 + b)*5 + c for a in 1..2, b in 1..2, c in 3..4 */
        int sz[] = {3, 4, 5}, sub[] = {2, 2, 2}, st[] = {1, 1, 3};
        int e[] = {28, 29, 33, 34, 48, 49, 53, 54};
        MPI_OK(MPI_Type_create_subarray(3, sz, sub, st, MPI_ORDER_C, MPI_INT, &t));
        check_layout(t, "subarray 3x4x5 C", 60, 8, e);
    }
    {
        /* a subarray of a whole array is the array */
        int sz[] = {3, 2}, sub[] = {3, 2}, st[] = {0, 0};
        int e[] = {0, 1, 2, 3, 4, 5};
        MPI_OK(MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &t));
        check_layout(t, "subarray whole 3x2", 6, 6, e);
    }
}

static void darrays(void)
{
    MPI_Datatype t;
    int dflt = MPI_DISTRIBUTE_DFLT_DARG;
    {
        /* 1-D, 10 elements CYCLIC(2) over 3: p0 0,1,6,7  p1 2,3,8,9  p2 4,5 */
        static const int e[3][4] = {{0, 1, 6, 7}, {2, 3, 8, 9}, {4, 5}};
        static const int n[3] = {4, 4, 2};
        int gs[] = {10}, di[] = {MPI_DISTRIBUTE_CYCLIC}, da[] = {2}, ps[] = {3};
        for (int r = 0; r < 3; r++) {
            MPI_OK(MPI_Type_create_darray(3, r, 1, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &t));
            check_layout(t, "darray cyclic(2) 10/3", 10, n[r], e[r]);
        }
    }
    {
        /* 1-D, 10 elements BLOCK (default: ceil(10/3) = 4) over 3 */
        static const int e[3][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}};
        static const int n[3] = {4, 4, 2};
        int gs[] = {10}, di[] = {MPI_DISTRIBUTE_BLOCK}, da[] = {dflt}, ps[] = {3};
        for (int r = 0; r < 3; r++) {
            MPI_OK(MPI_Type_create_darray(3, r, 1, gs, di, da, ps, MPI_ORDER_FORTRAN, MPI_INT, &t));
            check_layout(t, "darray block 10/3", 10, n[r], e[r]);
        }
    }
    {
        /* 4x6 C, rows BLOCK over 2, columns CYCLIC(2) over 2; rank = 2*row coord + col
           coord; offsets row*6 + col */
        static const int e[4][8] = {{0, 1, 4, 5, 6, 7, 10, 11},
                                    {2, 3, 8, 9},
                                    {12, 13, 16, 17, 18, 19, 22, 23},
                                    {14, 15, 20, 21}};
        static const int n[4] = {8, 4, 8, 4};
        int gs[] = {4, 6}, di[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
        int da[] = {dflt, 2}, ps[] = {2, 2};
        for (int r = 0; r < 4; r++) {
            MPI_OK(MPI_Type_create_darray(4, r, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &t));
            check_layout(t, "darray 4x6 C block x cyclic(2)", 24, n[r], e[r]);
        }
    }
    {
        /* the same in Fortran order: (i,j) at i + 4j, i fastest; rank 1 has i in 0..1,
           j in 2..3; rank 2 has i in 2..3, j in {0,1,4,5} */
        static const int e1[] = {8, 9, 12, 13};
        static const int e2[] = {2, 3, 6, 7, 18, 19, 22, 23};
        int gs[] = {4, 6}, di[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
        int da[] = {dflt, 2}, ps[] = {2, 2};
        MPI_OK(MPI_Type_create_darray(4, 1, 2, gs, di, da, ps, MPI_ORDER_FORTRAN, MPI_INT, &t));
        check_layout(t, "darray 4x6 Fortran rank 1", 24, 4, e1);
        MPI_OK(MPI_Type_create_darray(4, 2, 2, gs, di, da, ps, MPI_ORDER_FORTRAN, MPI_INT, &t));
        check_layout(t, "darray 4x6 Fortran rank 2", 24, 8, e2);
    }
    {
        /* 3x4 C, rows NONE, columns BLOCK over 2: rank 1 has columns 2..3 of every row */
        static const int e[] = {2, 3, 6, 7, 10, 11};
        int gs[] = {3, 4}, di[] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK};
        int da[] = {dflt, dflt}, ps[] = {1, 2};
        MPI_OK(MPI_Type_create_darray(2, 1, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &t));
        check_layout(t, "darray 3x4 none x block", 12, 6, e);
    }
    {
        /* explicit BLOCK darg larger than needed: 7 over 2 in blocks of 5 -> 0..4, 5..6 */
        static const int e[2][5] = {{0, 1, 2, 3, 4}, {5, 6}};
        static const int n[2] = {5, 2};
        int gs[] = {7}, di[] = {MPI_DISTRIBUTE_BLOCK}, da[] = {5}, ps[] = {2};
        for (int r = 0; r < 2; r++) {
            MPI_OK(MPI_Type_create_darray(2, r, 1, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &t));
            check_layout(t, "darray block(5) 7/2", 7, n[r], e[r]);
        }
    }
}

/* a 3-D darray over this job's processes: every element owned by exactly one rank */
static void darray_partition(void)
{
    int dims[3] = {0, 0, 0}, gs[3] = {5, 6, 7};
    int di[3] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    int da[3] = {2, MPI_DISTRIBUTE_DFLT_DARG, 3};
    int mark[5 * 6 * 7], owned[5 * 6 * 7], size = 0;
    MPI_Datatype t;

    MPI_OK(MPI_Dims_create(mt_size, 3, dims));
    for (int i = 0; i < 5 * 6 * 7; i++) {
        mark[i] = 1;
        owned[i] = 0;
    }
    MPI_OK(MPI_Type_create_darray(mt_size, mt_rank, 3, gs, di, da, dims, MPI_ORDER_FORTRAN,
                                  MPI_INT, &t));
    MPI_OK(MPI_Type_commit(&t));
    MPI_OK(MPI_Type_size(t, &size));
    /* unpack ones through the type: the elements it covers become 1 */
    {
        int pos = 0;
        MPI_OK(MPI_Unpack(mark, (int)sizeof(mark), &pos, owned, 1, t, MPI_COMM_SELF));
    }
    MPI_OK(MPI_Allreduce(MPI_IN_PLACE, owned, 5 * 6 * 7, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    for (int i = 0; i < 5 * 6 * 7; i++) {
        CHECK(owned[i] == 1, "element %d owned %d times", i, owned[i]);
    }
    MPI_OK(MPI_Allreduce(MPI_IN_PLACE, &size, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(size == 5 * 6 * 7 * (int)sizeof(int), "sizes add up to %d", size);
    MPI_OK(MPI_Type_free(&t));
}

/* a block distribution of a large array is one block per process: cheap to build */
static void darray_large(void)
{
    int gs[] = {1 << 28, 3}, di[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_NONE};
    int da[] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, ps[] = {4, 1};
    MPI_Datatype t;
    MPI_Count size = -1, lb = -1, ext = -1;

    MPI_OK(MPI_Type_create_darray(4, 3, 2, gs, di, da, ps, MPI_ORDER_C, MPI_INT, &t));
    MPI_OK(MPI_Type_size_x(t, &size));
    MPI_OK(MPI_Type_get_extent_x(t, &lb, &ext));
    CHECK(size == (MPI_Count)(1 << 26) * 3 * 4 && lb == 0 && ext == (MPI_Count)(1 << 28) * 3 * 4,
          "large darray: size %lld extent %lld", size, ext);
    MPI_OK(MPI_Type_free(&t));
}

static void errors(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int gs[] = {10}, ps[] = {3}, cyc[] = {MPI_DISTRIBUTE_CYCLIC}, blk[] = {MPI_DISTRIBUTE_BLOCK};
    int none[] = {MPI_DISTRIBUTE_NONE}, bad[] = {77}, d1[] = {1}, d3[] = {3}, d0[] = {0};
    int sz[] = {4}, sub[] = {3}, st_bad[] = {2}, st_ok[] = {1};

    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Type_create_darray(2, 0, 1, gs, cyc, d1, ps, MPI_ORDER_C, MPI_INT, &t) == MPI_ERR_ARG,
          "grid of 3 for size 2");
    CHECK(MPI_Type_create_darray(3, 3, 1, gs, cyc, d1, ps, MPI_ORDER_C, MPI_INT, &t) == MPI_ERR_ARG,
          "rank 3 of 3");
    CHECK(MPI_Type_create_darray(3, 0, 1, gs, blk, d3, ps, MPI_ORDER_C, MPI_INT, &t) == MPI_ERR_ARG,
          "BLOCK(3) over 3 does not cover 10");
    CHECK(MPI_Type_create_darray(3, 0, 1, gs, none, d1, ps, MPI_ORDER_C, MPI_INT, &t) ==
              MPI_ERR_ARG,
          "NONE over 3 processes");
    CHECK(MPI_Type_create_darray(3, 0, 1, gs, bad, d1, ps, MPI_ORDER_C, MPI_INT, &t) == MPI_ERR_ARG,
          "unknown distribution");
    CHECK(MPI_Type_create_darray(3, 0, 1, gs, cyc, d0, ps, MPI_ORDER_C, MPI_INT, &t) == MPI_ERR_ARG,
          "darg 0");
    CHECK(MPI_Type_create_darray(3, 0, 1, gs, cyc, d1, ps, 5, MPI_INT, &t) == MPI_ERR_ARG,
          "order 5");
    CHECK(MPI_Type_create_darray(3, 0, 1, gs, cyc, d1, ps, MPI_ORDER_C, MPI_DATATYPE_NULL, &t) ==
              MPI_ERR_TYPE,
          "darray of MPI_DATATYPE_NULL");
    CHECK(MPI_Type_create_subarray(1, sz, sub, st_bad, MPI_ORDER_C, MPI_INT, &t) == MPI_ERR_ARG,
          "subarray start 2 + 3 > 4");
    CHECK(MPI_Type_create_subarray(0, sz, sub, st_ok, MPI_ORDER_C, MPI_INT, &t) == MPI_ERR_ARG,
          "subarray of 0 dimensions");
    CHECK(MPI_Type_create_subarray(1, sz, sub, st_ok, MPI_ORDER_C, MPI_DATATYPE_NULL, &t) ==
              MPI_ERR_TYPE,
          "subarray of MPI_DATATYPE_NULL");
    CHECK(t == MPI_DATATYPE_NULL, "a failed constructor wrote a handle");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "dt_darray");
    for (int i = 0; i < GMAX; i++) {
        global[i] = i;
    }
    subarrays();
    darrays();
    darray_partition();
    darray_large();
    errors();
    return mt_finish();
}
