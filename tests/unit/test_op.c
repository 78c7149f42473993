/*
 * test_op.c -- reduction operations without MPI_Init: every predefined op on every basic
 * type it is defined on, MINLOC/MAXLOC ties on every pair type and on derived pairs,
 * derived layouts (vectors, structs), user ops, and the op/type pairs that must be
 * refused.
 *
 * Expected values are written out by hand, never computed by the code under test.
 */
#include "core/op/op.h"
#include "tests/unit/op_test.h"
#include "tests/unit/unit_tap.h"

#include <check.h>
#include <complex.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void teardown(void)
{
    op_finalize();
    dt_finalize();
}

/* ---- integers: every op, through a byte image of each value (little-endian x86) ---- */

static void int_store(const int_type_t *t, void *buf, const long long *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        memcpy((char *)buf + i * t->size, &v[i], t->size);
    }
}

static long long int_load(const int_type_t *t, const void *buf, size_t i)
{
    long long v = 0;
    memcpy(&v, (const char *)buf + i * t->size, t->size);
    if (t->is_signed && t->size < sizeof(v)) {
        int shift = (int)(8 * (sizeof(v) - t->size));
        v = (long long)((unsigned long long)v << shift) >> shift;
    }
    return v;
}

static void int_case(const int_type_t *t, MPI_Op oph, const long long *in, const long long *io,
                     const long long *want, size_t n)
{
    char bin[64], bio[64];
    int_store(t, bin, in, n);
    int_store(t, bio, io, n);
    ck_assert_int_eq(op_valid_for(O(oph), T(t->h)), 1);
    ck_assert_int_eq(coll_op_apply(O(oph), T(t->h), bin, bio, n), COMPI_OK);
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(int_load(t, bio, i) == want[i], "%s %s [%zu]: got %lld, want %lld",
                      O(oph)->name, dt_name(T(t->h)), i, int_load(t, bio, i), want[i]);
    }
}

START_TEST(int_every_op)
{
    const int_type_t *t = &int_types[_i];
    static const long long in[] = {5, 0, 3, 1}, io[] = {2, 6, 3, 0};
    static const struct {
        MPI_Op op;
        long long want[4];
    } cases[] = {
        {MPI_MAX, {5, 6, 3, 1}},   {MPI_MIN, {2, 0, 3, 0}},  {MPI_SUM, {7, 6, 6, 1}},
        {MPI_PROD, {10, 0, 9, 0}}, {MPI_LAND, {1, 0, 1, 0}}, {MPI_LOR, {1, 1, 1, 1}},
        {MPI_LXOR, {0, 1, 0, 1}},  {MPI_BAND, {0, 0, 3, 0}}, {MPI_BOR, {7, 6, 3, 1}},
        {MPI_BXOR, {7, 6, 0, 1}},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        int_case(t, cases[c].op, in, io, cases[c].want, 4);
    }
    ck_assert_int_eq(op_valid_for(O(MPI_MINLOC), T(t->h)), 0);
    ck_assert_int_eq(op_valid_for(O(MPI_MAXLOC), T(t->h)), 0);
}
END_TEST

START_TEST(int_signed_values)
{
    const int_type_t *t = &int_types[_i];
    if (!t->is_signed) {
        return;
    }
    static const long long in[] = {-4, 100}, io[] = {3, -100};
    int_case(t, MPI_MAX, in, io, (const long long[]){3, 100}, 2);
    int_case(t, MPI_MIN, in, io, (const long long[]){-4, -100}, 2);
    int_case(t, MPI_SUM, in, io, (const long long[]){-1, 0}, 2);
    int_case(t, MPI_PROD, in, io, (const long long[]){-12, t->size == 1 ? -16 : -10000}, 2);
    int_case(t, MPI_BAND, in, io, (const long long[]){0, 100 & -100}, 2);
    int_case(t, MPI_BOR, in, io, (const long long[]){-1, 100 | -100}, 2);
    int_case(t, MPI_BXOR, in, io, (const long long[]){-1, 100 ^ -100}, 2);
}
END_TEST

/* SUM on int and double over lengths that exercise the blocked loop and its tail */
START_TEST(sum_long_vectors)
{
    enum { N = 1000 };
    static int a[N], b[N];
    static double x[N], y[N];
    for (size_t n = 0; n <= N; n += (n < 40 ? 1 : 97)) {
        for (size_t i = 0; i < n; i++) {
            a[i] = (int)i;
            b[i] = 2 * (int)i;
            x[i] = 0.5 * (double)i;
            y[i] = 1.0;
        }
        b[n < N ? n : 0] = n < N ? -7 : b[0];
        ck_assert_int_eq(coll_op_apply(O(MPI_SUM), T(MPI_INT), a, b, n), COMPI_OK);
        ck_assert_int_eq(coll_op_apply(O(MPI_SUM), T(MPI_DOUBLE), x, y, n), COMPI_OK);
        for (size_t i = 0; i < n; i++) {
            ck_assert_int_eq(b[i], 3 * (int)i);
            ck_assert(y[i] == 0.5 * (double)i + 1.0);
        }
        if (n < N) {
            ck_assert_int_eq(b[n], -7); /* nothing past the end */
        }
    }
}
END_TEST

START_TEST(int_sum_wraps)
{
    int in[2] = {INT_MAX, INT_MIN}, io[2] = {1, -1};
    ck_assert_int_eq(coll_op_apply(O(MPI_SUM), T(MPI_INT), in, io, 2), COMPI_OK);
    ck_assert_int_eq(io[0], INT_MIN);
    ck_assert_int_eq(io[1], INT_MAX);
}
END_TEST

/* ---- floating, complex, logical, byte ------------------------------------------------ */

#define FLOAT_CASE(TYPE, H)                                                                        \
    do {                                                                                           \
        static const TYPE in[] = {1.5, -2, 3, 0.25}, io0[] = {2, -3, 3, 4};                        \
        static const TYPE want[4][4] = {                                                           \
            {2, -2, 3, 4}, {1.5, -3, 3, 0.25}, {3.5, -5, 6, 4.25}, {3, 6, 9, 1}};                  \
        static const MPI_Op ops[4] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD};                        \
        for (int o = 0; o < 4; o++) {                                                              \
            TYPE io[4];                                                                            \
            memcpy(io, io0, sizeof(io));                                                           \
            ck_assert_int_eq(coll_op_apply(O(ops[o]), T(H), in, io, 4), COMPI_OK);                 \
            for (int i = 0; i < 4; i++) {                                                          \
                ck_assert_msg(io[i] == want[o][i], "%s %s [%d]", O(ops[o])->name, dt_name(T(H)),   \
                              i);                                                                  \
            }                                                                                      \
        }                                                                                          \
    } while (0)

START_TEST(float_ops)
{
    FLOAT_CASE(float, MPI_FLOAT);
    FLOAT_CASE(double, MPI_DOUBLE);
    FLOAT_CASE(long double, MPI_LONG_DOUBLE);
    static const MPI_Op bad[] = {MPI_LAND, MPI_LOR,  MPI_LXOR,   MPI_BAND,
                                 MPI_BOR,  MPI_BXOR, MPI_MINLOC, MPI_MAXLOC};
    static const MPI_Datatype fl[] = {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE};
    for (size_t t = 0; t < 3; t++) {
        for (size_t o = 0; o < sizeof(bad) / sizeof(bad[0]); o++) {
            ck_assert_int_eq(op_valid_for(O(bad[o]), T(fl[t])), 0);
        }
    }
}
END_TEST

#define COMPLEX_CASE(TYPE, H)                                                                      \
    do {                                                                                           \
        TYPE in[2] = {1 + 2 * I, 3 - 1 * I}, io[2] = {2 - 1 * I, 1 + 1 * I};                       \
        ck_assert_int_eq(coll_op_apply(O(MPI_SUM), T(H), in, io, 2), COMPI_OK);                    \
        ck_assert(io[0] == 3 + 1 * I && io[1] == 4);                                               \
        io[0] = 2 - 1 * I;                                                                         \
        io[1] = 1 + 1 * I;                                                                         \
        ck_assert_int_eq(coll_op_apply(O(MPI_PROD), T(H), in, io, 2), COMPI_OK);                   \
        ck_assert(io[0] == 4 + 3 * I && io[1] == 4 + 2 * I);                                       \
        ck_assert_int_eq(op_valid_for(O(MPI_MAX), T(H)), 0);                                       \
        ck_assert_int_eq(op_valid_for(O(MPI_LAND), T(H)), 0);                                      \
        ck_assert_int_eq(op_valid_for(O(MPI_BOR), T(H)), 0);                                       \
    } while (0)

START_TEST(complex_ops)
{
    COMPLEX_CASE(float _Complex, MPI_C_FLOAT_COMPLEX);
    COMPLEX_CASE(double _Complex, MPI_C_DOUBLE_COMPLEX);
    COMPLEX_CASE(long double _Complex, MPI_C_LONG_DOUBLE_COMPLEX);
    COMPLEX_CASE(float _Complex, MPI_CXX_FLOAT_COMPLEX);
    COMPLEX_CASE(double _Complex, MPI_CXX_DOUBLE_COMPLEX);
    COMPLEX_CASE(long double _Complex, MPI_CXX_LONG_DOUBLE_COMPLEX);
}
END_TEST

START_TEST(bool_ops)
{
    static const MPI_Datatype types[] = {MPI_C_BOOL, MPI_CXX_BOOL};
    static const MPI_Op ops[] = {MPI_LAND, MPI_LOR, MPI_LXOR};
    static const bool want[3][4] = {{1, 0, 0, 0}, {1, 1, 1, 0}, {0, 1, 1, 0}};
    for (int t = 0; t < 2; t++) {
        for (int o = 0; o < 3; o++) {
            bool in[4] = {1, 1, 0, 0}, io[4] = {1, 0, 1, 0};
            ck_assert_int_eq(coll_op_apply(O(ops[o]), T(types[t]), in, io, 4), COMPI_OK);
            ck_assert_mem_eq(io, want[o], sizeof(io));
        }
        ck_assert_int_eq(op_valid_for(O(MPI_SUM), T(types[t])), 0);
        ck_assert_int_eq(op_valid_for(O(MPI_MAX), T(types[t])), 0);
        ck_assert_int_eq(op_valid_for(O(MPI_BAND), T(types[t])), 0);
    }
}
END_TEST

START_TEST(byte_ops)
{
    static const MPI_Op ops[] = {MPI_BAND, MPI_BOR, MPI_BXOR};
    static const unsigned char want[3][2] = {{0xf0, 0x0f}, {0xff, 0x0f}, {0x0f, 0x00}};
    for (int o = 0; o < 3; o++) {
        unsigned char in[2] = {0xf0, 0x0f}, io[2] = {0xff, 0x0f};
        ck_assert_int_eq(coll_op_apply(O(ops[o]), T(MPI_BYTE), in, io, 2), COMPI_OK);
        ck_assert_mem_eq(io, want[o], 2);
    }
    static const MPI_Op bad[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND, MPI_MINLOC};
    for (size_t o = 0; o < sizeof(bad) / sizeof(bad[0]); o++) {
        ck_assert_int_eq(op_valid_for(O(bad[o]), T(MPI_BYTE)), 0);
    }
}
END_TEST

/* ---- MINLOC / MAXLOC ------------------------------------------------------------------ */

/* values {3,1,2,5} idx {0,7,4,2} into {3,2,2,1} idx {1,1,9,3}: ties keep the smaller index */
#define LOC_CASE(S, VT, H)                                                                         \
    do {                                                                                           \
        typedef struct {                                                                           \
            VT v;                                                                                  \
            int i;                                                                                 \
        } S;                                                                                       \
        const S in[4] = {{3, 0}, {1, 7}, {2, 4}, {5, 2}};                                          \
        const S io0[4] = {{3, 1}, {2, 1}, {2, 9}, {1, 3}};                                         \
        const S wmin[4] = {{3, 0}, {1, 7}, {2, 4}, {1, 3}};                                        \
        const S wmax[4] = {{3, 0}, {2, 1}, {2, 4}, {5, 2}};                                        \
        S io[4];                                                                                   \
        ck_assert_uint_eq(T(H)->extent, sizeof(S));                                                \
        memcpy(io, io0, sizeof(io));                                                               \
        ck_assert_int_eq(coll_op_apply(O(MPI_MINLOC), T(H), in, io, 4), COMPI_OK);                 \
        for (int k = 0; k < 4; k++) {                                                              \
            ck_assert_msg(io[k].v == wmin[k].v && io[k].i == wmin[k].i, "MINLOC %s [%d]",          \
                          dt_name(T(H)), k);                                                       \
        }                                                                                          \
        memcpy(io, io0, sizeof(io));                                                               \
        ck_assert_int_eq(coll_op_apply(O(MPI_MAXLOC), T(H), in, io, 4), COMPI_OK);                 \
        for (int k = 0; k < 4; k++) {                                                              \
            ck_assert_msg(io[k].v == wmax[k].v && io[k].i == wmax[k].i, "MAXLOC %s [%d]",          \
                          dt_name(T(H)), k);                                                       \
        }                                                                                          \
        ck_assert_int_eq(op_valid_for(O(MPI_SUM), T(H)), 0);                                       \
        ck_assert_int_eq(op_valid_for(O(MPI_MAX), T(H)), 0);                                       \
    } while (0)

START_TEST(loc_pairs)
{
    LOC_CASE(p_float_t, float, MPI_FLOAT_INT);
    LOC_CASE(p_double_t, double, MPI_DOUBLE_INT);
    LOC_CASE(p_long_t, long, MPI_LONG_INT);
    LOC_CASE(p_2int_t, int, MPI_2INT);
    LOC_CASE(p_short_t, short, MPI_SHORT_INT);
    LOC_CASE(p_ldouble_t, long double, MPI_LONG_DOUBLE_INT);
}
END_TEST

/* derived types made of pairs run through the signature walk */
START_TEST(loc_derived)
{
    typedef struct {
        double v;
        int i;
    } di_t;
    compi_datatype_t *c2, *v2, *i3;

    /* contiguous(2, MPI_DOUBLE_INT): blocks double, int, double, int */
    ck_assert_int_eq(dt_create_contiguous(2, T(MPI_DOUBLE_INT), &c2), COMPI_OK);
    ck_assert_int_eq(op_valid_for(O(MPI_MINLOC), c2), 1);
    di_t in[4] = {{1, 5}, {4, 2}, {7, 0}, {-1, 1}}, io[4] = {{1, 3}, {3, 0}, {7, 1}, {0, 0}};
    ck_assert_int_eq(coll_op_apply(O(MPI_MAXLOC), c2, in, io, 2), COMPI_OK);
    ck_assert(io[0].v == 1 && io[0].i == 3);
    ck_assert(io[1].v == 4 && io[1].i == 2);
    ck_assert(io[2].v == 7 && io[2].i == 0);
    ck_assert(io[3].v == 0 && io[3].i == 0);

    /* hvector of MPI_2INT with a gap: every other pair */
    ck_assert_int_eq(dt_create_hvector(2, 1, 16, T(MPI_2INT), &v2), COMPI_OK);
    ck_assert_int_eq(op_valid_for(O(MPI_MINLOC), v2), 1);
    int a[8] = {5, 1, 99, 99, 2, 6, 99, 99}, b[8] = {5, 0, -1, -1, 3, 1, -1, -1};
    ck_assert_int_eq(coll_op_apply(O(MPI_MINLOC), v2, a, b, 1), COMPI_OK);
    static const int wb[8] = {5, 0, -1, -1, 2, 6, -1, -1};
    ck_assert_mem_eq(b, wb, sizeof(b));

    /* three ints are not a whole number of pairs */
    ck_assert_int_eq(dt_create_contiguous(3, T(MPI_INT), &i3), COMPI_OK);
    ck_assert_int_eq(op_valid_for(O(MPI_MINLOC), i3), 0);
    ck_assert_int_eq(coll_op_apply(O(MPI_MINLOC), i3, a, b, 1), COMPI_ERR_INVALID_PARAM);

    dt_release(c2);
    dt_release(v2);
    dt_release(i3);
}
END_TEST

/* ---- derived layouts ------------------------------------------------------------------- */

START_TEST(derived_vector_of_doubles)
{
    /* 3 doubles with a stride of 2: elements at 0, 2, 4, extent 5 doubles */
    compi_datatype_t *v;
    ck_assert_int_eq(dt_create_hvector(3, 1, 2 * sizeof(double), T(MPI_DOUBLE), &v), COMPI_OK);
    ck_assert_int_eq(v->extent, 5 * (ptrdiff_t)sizeof(double));
    double in[10], io[10];
    for (int i = 0; i < 10; i++) {
        in[i] = i;
        io[i] = 100;
    }
    ck_assert_int_eq(coll_op_apply(O(MPI_SUM), v, in, io, 2), COMPI_OK);
    static const double want[10] = {100, 100, 102, 100, 104, 105, 100, 107, 100, 109};
    for (int i = 0; i < 10; i++) {
        ck_assert_msg(io[i] == want[i], "[%d] = %g, want %g", i, io[i], want[i]);
    }
    ck_assert_int_eq(coll_op_apply(O(MPI_MAX), v, in, io, 2), COMPI_OK);
    ck_assert(io[2] == 102 && io[3] == 100);
    ck_assert_int_eq(op_valid_for(O(MPI_BAND), v), 0);
    dt_release(v);
}
END_TEST

START_TEST(derived_struct_mixed)
{
    typedef struct {
        int n;
        double x;
    } s_t;
    compi_datatype_t *s, *sb;
    size_t bl[2] = {1, 1};
    ptrdiff_t disp[2] = {offsetof(s_t, n), offsetof(s_t, x)};
    compi_datatype_t *types[2] = {T(MPI_INT), T(MPI_DOUBLE)};
    ck_assert_int_eq(dt_create_struct(2, bl, disp, types, &s), COMPI_OK);
    ck_assert_int_eq(op_valid_for(O(MPI_SUM), s), 1);
    ck_assert_int_eq(op_valid_for(O(MPI_BOR), s), 0); /* not on the double */
    ck_assert_int_eq(op_valid_for(O(MPI_MINLOC), s), 0);
    s_t in[2] = {{1, 0.5}, {2, 1.5}}, io[2] = {{10, 10}, {20, 20}};
    ck_assert_int_eq(coll_op_apply(O(MPI_PROD), s, in, io, 2), COMPI_OK);
    ck_assert(io[0].n == 10 && io[0].x == 5 && io[1].n == 40 && io[1].x == 30);

    compi_datatype_t *types2[2] = {T(MPI_INT), T(MPI_C_BOOL)};
    ck_assert_int_eq(dt_create_struct(2, bl, disp, types2, &sb), COMPI_OK);
    ck_assert_int_eq(op_valid_for(O(MPI_SUM), sb), 0);
    ck_assert_int_eq(op_valid_for(O(MPI_LOR), sb), 1);
    dt_release(s);
    dt_release(sb);
}
END_TEST

/* ---- what must be refused -------------------------------------------------------------- */

START_TEST(valid_for_rejections)
{
    static const struct {
        MPI_Op op;
        MPI_Datatype dt;
    } bad[] = {
        {MPI_SUM, MPI_WCHAR},  {MPI_MAX, MPI_PACKED},           {MPI_BAND, MPI_DOUBLE},
        {MPI_LAND, MPI_FLOAT}, {MPI_MAX, MPI_C_DOUBLE_COMPLEX}, {MPI_SUM, MPI_BYTE},
        {MPI_MINLOC, MPI_INT}, {MPI_MAXLOC, MPI_DOUBLE},        {MPI_SUM, MPI_DOUBLE_INT},
        {MPI_PROD, MPI_2INT},  {MPI_SUM, MPI_C_BOOL},           {MPI_BXOR, MPI_LONG_DOUBLE},
    };
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        ck_assert_msg(op_valid_for(O(bad[k].op), T(bad[k].dt)) == 0, "%s on %s accepted",
                      O(bad[k].op)->name, dt_name(T(bad[k].dt)));
        char in[64] = {0}, io[64] = {0};
        ck_assert_int_eq(coll_op_apply(O(bad[k].op), T(bad[k].dt), in, io, 1),
                         COMPI_ERR_INVALID_PARAM);
    }
    /* the extensions Open MPI and MPICH share */
    ck_assert_int_eq(op_valid_for(O(MPI_SUM), T(MPI_CHAR)), 1);
    ck_assert_int_eq(op_valid_for(O(MPI_LOR), T(MPI_AINT)), 1);
}
END_TEST

START_TEST(replace_and_no_op)
{
    int in[3] = {1, 2, 3}, io[3] = {7, 8, 9};
    ck_assert_int_eq(coll_op_apply(O(MPI_NO_OP), T(MPI_INT), in, io, 3), COMPI_OK);
    ck_assert(io[0] == 7 && io[2] == 9);
    ck_assert_int_eq(coll_op_apply(O(MPI_REPLACE), T(MPI_INT), in, io, 3), COMPI_OK);
    ck_assert_mem_eq(io, in, sizeof(in));
}
END_TEST

START_TEST(predefined_table)
{
    static const struct {
        MPI_Op h;
        const char *name;
    } names[] = {
        {MPI_MAX, "MPI_MAX"},         {MPI_MIN, "MPI_MIN"},       {MPI_SUM, "MPI_SUM"},
        {MPI_PROD, "MPI_PROD"},       {MPI_LAND, "MPI_LAND"},     {MPI_BAND, "MPI_BAND"},
        {MPI_LOR, "MPI_LOR"},         {MPI_BOR, "MPI_BOR"},       {MPI_LXOR, "MPI_LXOR"},
        {MPI_BXOR, "MPI_BXOR"},       {MPI_MINLOC, "MPI_MINLOC"}, {MPI_MAXLOC, "MPI_MAXLOC"},
        {MPI_REPLACE, "MPI_REPLACE"}, {MPI_NO_OP, "MPI_NO_OP"}};
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        compi_op_t *op = O(names[k].h);
        ck_assert_str_eq(op->name, names[k].name);
        ck_assert_int_eq(op->handle, names[k].h);
        ck_assert_int_eq(op->commutative, 1);
        ck_assert_int_eq(op->predefined, (int)k + 1);
    }
    ck_assert_ptr_null(op_from_handle(MPI_OP_NULL));
    ck_assert_ptr_null(op_from_handle(MPI_INT)); /* a handle of another kind */
}
END_TEST

/* ---- user ops --------------------------------------------------------------------------- */

static int user_calls, user_len;
static MPI_Datatype user_dt;
static const void *user_in;

/* non-commutative: inout = in - inout, so the order of the arguments shows */
static void user_minus(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    user_calls++;
    user_len = *len;
    user_dt = *dt;
    user_in = in;
    for (int i = 0; i < *len; i++) {
        ((int *)inout)[i] = ((int *)in)[i] - ((int *)inout)[i];
    }
}

START_TEST(user_op)
{
    compi_op_t *u = calloc(1, sizeof(*u));
    ck_assert_ptr_nonnull(u);
    u->user_fn = user_minus;
    u->refcount = 1;
    u->name = "user";
    int in[5] = {10, 20, 30, 40, 50}, io[5] = {1, 2, 3, 4, 5};
    compi_datatype_t *v;
    ck_assert_int_eq(dt_create_hvector(2, 1, 8, T(MPI_INT), &v), COMPI_OK);

    ck_assert_int_eq(op_valid_for(u, T(MPI_C_BOOL)), 1);
    ck_assert_int_eq(op_valid_for(u, v), 1);
    ck_assert_int_eq(coll_op_apply(u, T(MPI_INT), in, io, 5), COMPI_OK);
    ck_assert_int_eq(user_calls, 1);
    ck_assert_int_eq(user_len, 5);
    ck_assert_int_eq(user_dt, MPI_INT);
    ck_assert_ptr_eq(user_in, in);
    static const int want[5] = {9, 18, 27, 36, 45};
    ck_assert_mem_eq(io, want, sizeof(io));

    /* zero elements: the user function is not called */
    ck_assert_int_eq(coll_op_apply(u, T(MPI_INT), in, io, 0), COMPI_OK);
    ck_assert_int_eq(user_calls, 1);

    /* a derived type: the user function gets its handle and does the layout itself */
    user_calls = 0;
    ck_assert_int_eq(coll_op_apply(u, v, in, io, 1), COMPI_OK);
    ck_assert_int_eq(user_calls, 1);
    ck_assert_int_eq(user_dt, v->handle);

    op_retain(u);
    ck_assert_int_eq(u->refcount, 2);
    op_release(u);
    ck_assert_int_eq(u->refcount, 1);
    op_release(u); /* frees it */
    dt_release(v);
}
END_TEST

static Suite *op_suite(void)
{
    Suite *s = suite_create("op");
    TCase *tc = tcase_create("ops");
    int nint = (int)(sizeof(int_types) / sizeof(int_types[0]));

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, int_every_op, 0, nint);
    tcase_add_loop_test(tc, int_signed_values, 0, nint);
    tcase_add_test(tc, sum_long_vectors);
    tcase_add_test(tc, int_sum_wraps);
    tcase_add_test(tc, float_ops);
    tcase_add_test(tc, complex_ops);
    tcase_add_test(tc, bool_ops);
    tcase_add_test(tc, byte_ops);
    tcase_add_test(tc, loc_pairs);
    tcase_add_test(tc, loc_derived);
    tcase_add_test(tc, derived_vector_of_doubles);
    tcase_add_test(tc, derived_struct_mixed);
    tcase_add_test(tc, valid_for_rejections);
    tcase_add_test(tc, replace_and_no_op);
    tcase_add_test(tc, predefined_table);
    tcase_add_test(tc, user_op);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return unit_tap_run(op_suite());
}
