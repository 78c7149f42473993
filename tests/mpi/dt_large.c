/*
 * dt_large: datatypes of counts beyond int, made by the large-count constructors (_c) and
 * asked about without memory behind them: a type of more than INT_MAX bytes of MPI_BYTE
 * has that size and extent, its envelope and contents give back the large counts as
 * MPI_Count (num_large_counts), and the int envelope and contents calls refuse such a type
 * with MPI_ERR_TYPE; MPI_Pack_size_c counts its bytes, MPI_Pack_size and MPI_Type_size
 * (MPI_ERR_COUNT, MPI_UNDEFINED) do not.  Then the argument checks of the datatype and
 * packing calls under MPI_ERRORS_RETURN, in both forms: a negative count MPI_ERR_COUNT, an
 * invalid or uncommitted datatype MPI_ERR_TYPE, MPI_COMM_NULL MPI_ERR_COMM, a NULL pointer
 * or array, a negative blocklength and a type no Fortran kind or size matches MPI_ERR_ARG,
 * a position beyond the buffer MPI_ERR_TRUNCATE.
 */
#include "tests/mpi/mpitest.h"

#include <limits.h>
#include <string.h>

#define BIG ((MPI_Count)INT_MAX + 1)

#define EXPECT(cls, call) mt_expect_class_at((call), cls, #call, __FILE__, __LINE__)

/* envelope (_c) of `t`: combiner and the four numbers */
static void envelope(MPI_Datatype t, int comb, MPI_Count ni, MPI_Count na, MPI_Count nl,
                     MPI_Count nd, const char *what)
{
    MPI_Count gi = -1, ga = -1, gl = -1, gd = -1;
    int gc = -1;

    MPI_OK(MPI_Type_get_envelope_c(t, &gi, &ga, &gl, &gd, &gc));
    CHECK(gc == comb && gi == ni && ga == na && gl == nl && gd == nd,
          "%s: envelope %d %lld/%lld/%lld/%lld, expected %d %lld/%lld/%lld/%lld", what, gc,
          (long long)gi, (long long)ga, (long long)gl, (long long)gd, comb, (long long)ni,
          (long long)na, (long long)nl, (long long)nd);
}

static void large_queries(void)
{
    MPI_Count count = BIG + 12345, size, lb, ext, larges[8];
    int ints[8], isize, ni, na, nd, comb;
    MPI_Aint addrs[8], alb, aext;
    MPI_Datatype t, dts[4];

    /* contiguous_c: one large count */
    MPI_OK(MPI_Type_contiguous_c(count, MPI_BYTE, &t));
    MPI_OK(MPI_Type_commit(&t));
    MPI_OK(MPI_Type_size_c(t, &size));
    CHECK(size == count, "Type_size_c %lld, expected %lld", (long long)size, (long long)count);
    MPI_OK(MPI_Type_get_extent_c(t, &lb, &ext));
    CHECK(lb == 0 && ext == count, "Type_get_extent_c %lld %lld", (long long)lb, (long long)ext);
    MPI_OK(MPI_Type_get_true_extent_c(t, &lb, &ext));
    CHECK(lb == 0 && ext == count, "Type_get_true_extent_c %lld %lld", (long long)lb,
          (long long)ext);
    MPI_OK(MPI_Type_get_extent(t, &alb, &aext));
    CHECK(aext == (MPI_Aint)count, "Type_get_extent %ld", (long)aext);
    MPI_OK(MPI_Type_size(t, &isize));
    CHECK(isize == MPI_UNDEFINED, "Type_size beyond int: %d", isize);
    envelope(t, MPI_COMBINER_CONTIGUOUS, 0, 0, 1, 1, "contiguous_c");
    MPI_OK(MPI_Type_get_contents_c(t, 0, 0, 1, 1, ints, addrs, larges, dts));
    CHECK(larges[0] == count && dts[0] == MPI_BYTE, "contiguous_c contents %lld",
          (long long)larges[0]);
    EXPECT(MPI_ERR_ARG, MPI_Type_get_contents_c(t, 0, 0, 0, 1, ints, addrs, larges, dts));
    EXPECT(MPI_ERR_TYPE, MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    EXPECT(MPI_ERR_TYPE, MPI_Type_get_contents(t, 8, 8, 4, ints, addrs, dts));
    {
        MPI_Count psize;
        int ip;
        MPI_OK(MPI_Pack_size_c(2, t, MPI_COMM_SELF, &psize));
        CHECK(psize == 2 * count, "Pack_size_c %lld", (long long)psize);
        EXPECT(MPI_ERR_COUNT, MPI_Pack_size(1, t, MPI_COMM_SELF, &ip));
    }
    MPI_OK(MPI_Type_free(&t));

    /* the same constructor through the int call: integers, no large counts */
    MPI_OK(MPI_Type_contiguous(5, MPI_BYTE, &t));
    MPI_OK(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb));
    CHECK(comb == MPI_COMBINER_CONTIGUOUS && ni == 1 && na == 0 && nd == 1,
          "contiguous envelope %d %d/%d/%d", comb, ni, na, nd);
    envelope(t, MPI_COMBINER_CONTIGUOUS, 1, 0, 0, 1, "contiguous (int) through _c");
    MPI_OK(MPI_Type_free(&t));

    /* hvector_c: count, blocklength and a stride in bytes, all large */
    MPI_OK(MPI_Type_create_hvector_c(3, BIG, 2 * BIG, MPI_BYTE, &t));
    MPI_OK(MPI_Type_size_c(t, &size));
    CHECK(size == 3 * BIG, "hvector_c size %lld", (long long)size);
    MPI_OK(MPI_Type_get_extent_c(t, &lb, &ext));
    CHECK(ext == 4 * BIG + BIG, "hvector_c extent %lld", (long long)ext);
    envelope(t, MPI_COMBINER_HVECTOR, 0, 0, 3, 1, "hvector_c");
    MPI_OK(MPI_Type_get_contents_c(t, 0, 0, 3, 1, ints, addrs, larges, dts));
    CHECK(larges[0] == 3 && larges[1] == BIG && larges[2] == 2 * BIG, "hvector_c contents");

    /* struct_c over it: count, blocklengths, displacements; the types */
    {
        MPI_Count bl[2] = {BIG, 2}, disp[2] = {0, 6 * BIG};
        MPI_Datatype types[2] = {MPI_BYTE, t}, s;
        MPI_OK(MPI_Type_create_struct_c(2, bl, disp, types, &s));
        MPI_OK(MPI_Type_size_c(s, &size));
        CHECK(size == BIG + 6 * BIG, "struct_c size %lld", (long long)size);
        envelope(s, MPI_COMBINER_STRUCT, 0, 0, 5, 2, "struct_c");
        MPI_OK(MPI_Type_get_contents_c(s, 0, 0, 5, 2, ints, addrs, larges, dts));
        CHECK(larges[0] == 2 && larges[1] == BIG && larges[2] == 2 && larges[3] == 0 &&
                  larges[4] == 6 * BIG && dts[0] == MPI_BYTE,
              "struct_c contents");
        /* the derived constituent comes back as a new type of the same envelope */
        envelope(dts[1], MPI_COMBINER_HVECTOR, 0, 0, 3, 1, "struct_c's hvector_c");
        MPI_OK(MPI_Type_free(&dts[1]));
        MPI_OK(MPI_Type_free(&s));
    }
    MPI_OK(MPI_Type_free(&t));

    /* hindexed_block_c and indexed_c: displacements in bytes and in elements */
    {
        MPI_Count disp[2] = {3 * BIG, -BIG}, bl[2] = {BIG, 1};
        MPI_OK(MPI_Type_create_hindexed_block_c(2, BIG, disp, MPI_BYTE, &t));
        MPI_OK(MPI_Type_get_extent_c(t, &lb, &ext));
        CHECK(lb == -BIG && ext == 5 * BIG, "hindexed_block_c bounds %lld %lld", (long long)lb,
              (long long)ext);
        envelope(t, MPI_COMBINER_HINDEXED_BLOCK, 0, 0, 4, 1, "hindexed_block_c");
        MPI_OK(MPI_Type_free(&t));
        MPI_OK(MPI_Type_indexed_c(2, bl, disp, MPI_SHORT, &t));
        MPI_OK(MPI_Type_size_c(t, &size));
        CHECK(size == 2 * (BIG + 1), "indexed_c size %lld", (long long)size);
        envelope(t, MPI_COMBINER_INDEXED, 0, 0, 5, 1, "indexed_c");
        MPI_OK(MPI_Type_get_contents_c(t, 0, 0, 5, 1, ints, addrs, larges, dts));
        CHECK(larges[3] == 3 * BIG && larges[4] == -BIG, "indexed_c displacements");
        MPI_OK(MPI_Type_free(&t));
    }

    /* subarray_c: ndims and order stay integers, the sizes are large counts */
    {
        MPI_Count sizes[2] = {4, 3 * BIG}, subs[2] = {2, BIG}, starts[2] = {1, BIG};
        MPI_OK(MPI_Type_create_subarray_c(2, sizes, subs, starts, MPI_ORDER_C, MPI_BYTE, &t));
        MPI_OK(MPI_Type_size_c(t, &size));
        CHECK(size == 2 * BIG, "subarray_c size %lld", (long long)size);
        MPI_OK(MPI_Type_get_extent_c(t, &lb, &ext));
        CHECK(lb == 0 && ext == 12 * BIG, "subarray_c extent %lld", (long long)ext);
        envelope(t, MPI_COMBINER_SUBARRAY, 2, 0, 6, 1, "subarray_c");
        MPI_OK(MPI_Type_get_contents_c(t, 2, 0, 6, 1, ints, addrs, larges, dts));
        CHECK(ints[0] == 2 && ints[1] == MPI_ORDER_C && larges[1] == 3 * BIG && larges[5] == BIG,
              "subarray_c contents");
        MPI_OK(MPI_Type_free(&t));
    }

    /* resized_c: lb and extent beyond int */
    MPI_OK(MPI_Type_create_resized_c(MPI_INT, -BIG, 4 * BIG, &t));
    MPI_OK(MPI_Type_get_extent_c(t, &lb, &ext));
    CHECK(lb == -BIG && ext == 4 * BIG, "resized_c %lld %lld", (long long)lb, (long long)ext);
    envelope(t, MPI_COMBINER_RESIZED, 0, 0, 2, 1, "resized_c");
    MPI_OK(MPI_Type_free(&t));
}

static void arg_checks(void)
{
    int v[4] = {0}, bl[2] = {1, -1}, dp[2] = {0, 1}, pos = 0, size;
    MPI_Count cbl[2] = {1, 1}, cdp[2] = {0, 1}, cpos = 0, csize;
    MPI_Aint adp[2] = {0, 4}, apos = 0;
    MPI_Datatype t = MPI_DATATYPE_NULL, bad[2] = {MPI_INT, MPI_DATATYPE_NULL}, loose;
    char buf[64];

    EXPECT(MPI_ERR_COUNT, MPI_Type_contiguous(-1, MPI_INT, &t));
    EXPECT(MPI_ERR_COUNT, MPI_Type_contiguous_c(-1, MPI_INT, &t));
    EXPECT(MPI_ERR_TYPE, MPI_Type_contiguous(1, MPI_DATATYPE_NULL, &t));
    EXPECT(MPI_ERR_ARG, MPI_Type_contiguous_c(1, MPI_INT, NULL));
    EXPECT(MPI_ERR_COUNT, MPI_Type_vector(2, -1, 3, MPI_INT, &t));
    EXPECT(MPI_ERR_COUNT, MPI_Type_vector_c(2, -1, 3, MPI_INT, &t));
    EXPECT(MPI_ERR_COUNT, MPI_Type_create_hvector_c(-2, 1, 3, MPI_INT, &t));
    EXPECT(MPI_ERR_ARG, MPI_Type_indexed(2, bl, dp, MPI_INT, &t));
    EXPECT(MPI_ERR_ARG, MPI_Type_indexed(2, NULL, dp, MPI_INT, &t));
    EXPECT(MPI_ERR_ARG, MPI_Type_indexed_c(2, cbl, NULL, MPI_INT, &t));
    EXPECT(MPI_ERR_ARG, MPI_Type_create_hindexed(2, bl, adp, MPI_INT, &t));
    EXPECT(MPI_ERR_COUNT, MPI_Type_create_indexed_block(2, -1, dp, MPI_INT, &t));
    EXPECT(MPI_ERR_TYPE, MPI_Type_create_hindexed_block_c(2, 1, cdp, MPI_DATATYPE_NULL, &t));
    EXPECT(MPI_ERR_TYPE, MPI_Type_create_struct(2, dp, adp, bad, &t));
    EXPECT(MPI_ERR_TYPE, MPI_Type_create_struct_c(2, cbl, cdp, bad, &t));
    EXPECT(MPI_ERR_ARG, MPI_Type_create_struct_c(2, cbl, cdp, NULL, &t));
    EXPECT(MPI_ERR_TYPE, MPI_Type_create_resized_c(MPI_DATATYPE_NULL, 0, 4, &t));
    EXPECT(MPI_ERR_TYPE, MPI_Type_dup(MPI_DATATYPE_NULL, &t));
    EXPECT(MPI_ERR_ARG, MPI_Type_commit(NULL));
    EXPECT(MPI_ERR_TYPE, MPI_Type_commit(&t));
    t = MPI_INT;
    EXPECT(MPI_ERR_TYPE, MPI_Type_free(&t));
    EXPECT(MPI_ERR_ARG, MPI_Type_free(NULL));
    /* a zero count with NULL arrays is a type of nothing */
    MPI_OK(MPI_Type_indexed_c(0, NULL, NULL, MPI_INT, &t));
    MPI_OK(MPI_Type_free(&t));

    EXPECT(MPI_ERR_TYPE, MPI_Type_size(MPI_DATATYPE_NULL, &size));
    EXPECT(MPI_ERR_ARG, MPI_Type_size_c(MPI_INT, NULL));
    {
        MPI_Count a, b, c, d;
        int comb;
        EXPECT(MPI_ERR_ARG, MPI_Type_get_envelope_c(MPI_INT, &a, &b, NULL, &d, &comb));
        EXPECT(MPI_ERR_ARG, MPI_Type_get_extent_c(MPI_INT, &a, NULL));
        EXPECT(MPI_ERR_TYPE, MPI_Type_get_true_extent_c(MPI_DATATYPE_NULL, &a, &c));
    }

    {
        char name[MPI_MAX_OBJECT_NAME];
        int len;
        MPI_Aint addr;
        EXPECT(MPI_ERR_ARG, MPI_Type_set_name(MPI_INT, NULL));
        EXPECT(MPI_ERR_TYPE, MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len));
        EXPECT(MPI_ERR_ARG, MPI_Type_get_name(MPI_INT, name, NULL));
        EXPECT(MPI_ERR_ARG, MPI_Get_address(v, NULL));
        MPI_OK(MPI_Get_address(&v[1], &addr));
        CHECK(addr == (MPI_Aint)&v[1], "Get_address");
        EXPECT(MPI_ERR_ARG, MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t));
        EXPECT(MPI_ERR_ARG, MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, NULL));
        EXPECT(MPI_ERR_ARG, MPI_Type_create_f90_real(1000, 10000, &t));
        EXPECT(MPI_ERR_ARG, MPI_Type_create_f90_integer(9, NULL));
    }

    MPI_OK(MPI_Type_contiguous(2, MPI_INT, &loose)); /* never committed */
    EXPECT(MPI_ERR_COMM, MPI_Pack(v, 1, MPI_INT, buf, 64, &pos, MPI_COMM_NULL));
    EXPECT(MPI_ERR_COUNT, MPI_Pack(v, -1, MPI_INT, buf, 64, &pos, MPI_COMM_SELF));
    EXPECT(MPI_ERR_TYPE, MPI_Pack_c(v, 1, loose, buf, 64, &cpos, MPI_COMM_SELF));
    EXPECT(MPI_ERR_ARG, MPI_Pack_c(v, 1, MPI_INT, buf, 64, NULL, MPI_COMM_SELF));
    EXPECT(MPI_ERR_COUNT, MPI_Pack(v, 1, MPI_INT, buf, -1, &pos, MPI_COMM_SELF));
    EXPECT(MPI_ERR_TRUNCATE, MPI_Pack(v, 4, MPI_INT, buf, 8, &pos, MPI_COMM_SELF));
    CHECK(pos == 0, "a failed pack moved the position to %d", pos);
    EXPECT(MPI_ERR_COUNT, MPI_Unpack_c(buf, 64, &cpos, v, -1, MPI_INT, MPI_COMM_SELF));
    EXPECT(MPI_ERR_TYPE, MPI_Unpack(buf, 64, &pos, v, 1, loose, MPI_COMM_SELF));
    EXPECT(MPI_ERR_COMM, MPI_Pack_size_c(1, MPI_INT, MPI_COMM_NULL, &csize));
    EXPECT(MPI_ERR_ARG, MPI_Pack_size(1, MPI_INT, MPI_COMM_SELF, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Pack_external("external32", v, 1, MPI_INT, buf, 64, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Pack_external("native", v, 1, MPI_INT, buf, 64, &apos));
    EXPECT(MPI_ERR_COUNT, MPI_Unpack_external_c("external32", buf, 64, &cpos, v, -1, MPI_INT));
    EXPECT(MPI_ERR_TYPE, MPI_Pack_external_size_c("external32", 1, MPI_DATATYPE_NULL, &csize));
    MPI_OK(MPI_Type_free(&loose));

    /* what passes: packing round trips in both forms */
    v[0] = 7;
    v[1] = -9;
    pos = 0;
    cpos = 0;
    MPI_OK(MPI_Pack(v, 2, MPI_INT, buf, 64, &pos, MPI_COMM_SELF));
    MPI_OK(MPI_Pack_c(v, 2, MPI_INT, buf + 8, 56, &cpos, MPI_COMM_SELF));
    CHECK(pos == 8 && cpos == 8 && memcmp(buf, buf + 8, 8) == 0, "Pack and Pack_c differ");
    memset(v, 0, sizeof(v));
    cpos = 8;
    MPI_OK(MPI_Unpack_c(buf, 16, &cpos, v, 2, MPI_INT, MPI_COMM_SELF));
    CHECK(cpos == 16 && v[0] == 7 && v[1] == -9, "Unpack_c: %d %d", v[0], v[1]);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "dt_large");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    large_queries();
    arg_checks();
    return mt_finish();
}
