/*
 * test_op_loops.c -- the typed loops of the predefined ops on every instruction set this
 * processor runs (op_simd: base, avx2, avx512), through coll_op_apply and the three
 * forms of coll_op_apply3 (out apart, out == a, out == b): every elementwise op on every
 * C type, with counts around the block and vector sizes (1 to 1029 elements, so the
 * vector blocks and the element-by-element tail both run) and starts that are not
 * vector-aligned.  The bytes just past the vector must stay untouched, and inputs that
 * are not the output must not change.
 *
 * Expected values come from a scalar reference written here (long long and unsigned
 * long long arithmetic cut to the type's width for the integers, the C operators of the
 * type itself for floating point), never from the code under test.
 */
#include "core/op/op.h"
#include "core/op/op_loops.h"
#include "tests/unit/op_test.h"
#include "tests/unit/unit_tap.h"

#include <check.h>
#include <complex.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 1029
#define GUARD 64
#define BUFSZ (MAXN * 32 + 2 * GUARD + 64)

static const size_t counts[] = {1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 257, 1029};
/* elements from a 64-byte aligned start: 1 and 3 put every vector off its alignment */
static const size_t shifts[] = {0, 1, 3};
static const char *const simds[] = {"base", "avx2", "avx512"};

static void teardown(void)
{
    op_simd_select("auto");
    op_finalize();
    dt_finalize();
}

/* the operands, the output and two copies for the checks, with room around each; the
   tests point a, b and o into them at the shift */
static _Alignas(64) unsigned char mem_a[BUFSZ], mem_b[BUFSZ], mem_o[BUFSZ], mem_w[BUFSZ],
    mem_v[BUFSZ];

enum form { FORM_INOUT, FORM_APART, FORM_OUT_IS_A, FORM_OUT_IS_B, NFORMS };

/* runs `op` in one form on a and b (their bytes already set); *res_p: where the result
   went (o, a or b) */
static void run_form(enum form f, compi_op_t *op, compi_datatype_t *dt, unsigned char *a,
                     unsigned char *b, unsigned char *o, size_t n, unsigned char **res_p)
{
    switch (f) {
    case FORM_INOUT:
        ck_assert_int_eq(coll_op_apply(op, dt, a, b, n), COMPI_OK);
        *res_p = b;
        break;
    case FORM_APART:
        ck_assert_int_eq(coll_op_apply3(op, dt, a, b, o, n), COMPI_OK);
        *res_p = o;
        break;
    case FORM_OUT_IS_A:
        ck_assert_int_eq(coll_op_apply3(op, dt, a, b, a, n), COMPI_OK);
        *res_p = a;
        break;
    default:
        ck_assert_int_eq(coll_op_apply3(op, dt, a, b, b, n), COMPI_OK);
        *res_p = b;
        break;
    }
}

/* ---- integers ------------------------------------------------------------------------ */

static const MPI_Op int_ops[] = {MPI_MAX, MPI_MIN,  MPI_SUM,  MPI_PROD, MPI_LAND,
                                 MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR,  MPI_BXOR};

/* value i of input `which`: negatives, zeros (every fifth) and large magnitudes, so that
   sums and products wrap in the narrow types */
static long long int_val(int which, size_t i)
{
    if ((i + (size_t)which) % 5 == 0) {
        return 0;
    }
    long long v = (long long)((i * 7919u + (size_t)which * 104729u) % 65521u) - 32760;
    return which ? v * 40503 : v;
}

/* the value of the low t->size bytes of v, read as the type (little-endian) */
static unsigned long long int_cut(const int_type_t *t, unsigned long long v)
{
    if (t->size >= sizeof(v)) {
        return v;
    }
    unsigned long long mask = (1ull << (8 * t->size)) - 1;
    v &= mask;
    if (t->is_signed && (v >> (8 * t->size - 1)) != 0) {
        v |= ~mask;
    }
    return v;
}

static unsigned long long int_ref(MPI_Op op, const int_type_t *t, unsigned long long x,
                                  unsigned long long y)
{
    int gt = t->is_signed ? (long long)x > (long long)y : x > y;
    int lt = t->is_signed ? (long long)x < (long long)y : x < y;
    if (op == MPI_MAX) {
        return gt ? x : y;
    }
    if (op == MPI_MIN) {
        return lt ? x : y;
    }
    if (op == MPI_SUM) {
        return int_cut(t, x + y);
    }
    if (op == MPI_PROD) {
        return int_cut(t, x * y);
    }
    if (op == MPI_LAND) {
        return x != 0 && y != 0;
    }
    if (op == MPI_LOR) {
        return x != 0 || y != 0;
    }
    if (op == MPI_LXOR) {
        return (x != 0) != (y != 0);
    }
    if (op == MPI_BAND) {
        return x & y;
    }
    if (op == MPI_BOR) {
        return x | y;
    }
    return x ^ y;
}

static void int_put(const int_type_t *t, unsigned char *buf, size_t i, unsigned long long v)
{
    memcpy(buf + i * t->size, &v, t->size);
}

static unsigned long long int_get(const int_type_t *t, const unsigned char *buf, size_t i)
{
    unsigned long long v = 0;
    memcpy(&v, buf + i * t->size, t->size);
    return int_cut(t, v);
}

static void int_check_one(const int_type_t *t, MPI_Op oph, size_t n, size_t shift, enum form f)
{
    size_t s = t->size;
    unsigned char *a = mem_a + GUARD + shift * s, *b = mem_b + GUARD + shift * s;
    unsigned char *o = mem_o + GUARD + shift * s, *res;

    size_t used = GUARD + (shift + n) * s + GUARD; /* the bytes from mem_a on */
    memset(mem_a, 0xa5, used);
    memset(mem_b, 0xb6, used);
    memset(mem_o, 0xc7, used);
    for (size_t i = 0; i < n; i++) {
        int_put(t, a, i, (unsigned long long)int_val(0, i));
        int_put(t, b, i, (unsigned long long)int_val(1, i));
    }
    memcpy(mem_w, mem_a, used); /* a as it was */
    run_form(f, O(oph), T(t->h), a, b, o, n, &res);
    for (size_t i = 0; i < n; i++) {
        unsigned long long x = int_cut(t, (unsigned long long)int_val(0, i));
        unsigned long long y = int_cut(t, (unsigned long long)int_val(1, i));
        unsigned long long want = int_ref(oph, t, x, y), got = int_get(t, res, i);
        if (got != want) {
            ck_abort_msg("%s %s %s n=%zu shift=%zu form=%d [%zu]: got %llx, want %llx",
                         op_simd_in_use(), O(oph)->name, dt_name(T(t->h)), n, shift, (int)f, i,
                         got, want);
        }
    }
    /* nothing written past the end, and a unchanged unless it is the output (checked
       without an assertion per byte: Check's fork mode writes one to a pipe) */
    unsigned char fill = res == a ? 0xa5 : res == b ? 0xb6 : 0xc7;
    for (size_t k = 0; k < GUARD; k++) {
        if (res[n * s + k] != fill || res[-(ptrdiff_t)k - 1] != fill) {
            ck_abort_msg("%s %s %s n=%zu shift=%zu form=%d: wrote outside the vector",
                         op_simd_in_use(), O(oph)->name, dt_name(T(t->h)), n, shift, (int)f);
        }
    }
    if (res != a && memcmp(mem_a, mem_w, used) != 0) {
        ck_abort_msg("%s %s %s n=%zu shift=%zu form=%d: input a changed", op_simd_in_use(),
                     O(oph)->name, dt_name(T(t->h)), n, shift, (int)f);
    }
}

/* _i: the instruction set; every integer type, op, count, shift and form */
START_TEST(int_all_forms)
{
    int got = op_simd_select(simds[_i]);
    ck_assert_int_le(got, _i);
    for (size_t ti = 0; ti < sizeof(int_types) / sizeof(int_types[0]); ti++) {
        for (size_t oi = 0; oi < sizeof(int_ops) / sizeof(int_ops[0]); oi++) {
            for (size_t ci = 0; ci < sizeof(counts) / sizeof(counts[0]); ci++) {
                for (size_t si = 0; si < sizeof(shifts) / sizeof(shifts[0]); si++) {
                    for (int f = 0; f < NFORMS; f++) {
                        int_check_one(&int_types[ti], int_ops[oi], counts[ci], shifts[si],
                                      (enum form)f);
                    }
                }
            }
        }
    }
}
END_TEST

/* ---- floating point, complex, bool ----------------------------------------------------- */

static const MPI_Op float_ops[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD};

/* FLOAT_CHECK(TY, H, OPS, REF): every op of OPS on type TY (handle H) in every count,
   shift and form; REF(op, x, y) is the reference of one element */
#define FLOAT_CHECK(TY, H, OPS, REF)                                                                \
    do {                                                                                           \
        for (size_t oi = 0; oi < sizeof(OPS) / sizeof(OPS[0]); oi++) {                             \
            for (size_t ci = 0; ci < sizeof(counts) / sizeof(counts[0]); ci++) {                   \
                for (size_t si = 0; si < sizeof(shifts) / sizeof(shifts[0]); si++) {               \
                    for (int f = 0; f < NFORMS; f++) {                                             \
                        size_t n = counts[ci];                                                     \
                        TY *a = (TY *)(void *)(mem_a + GUARD) + shifts[si];                          \
                        TY *b = (TY *)(void *)(mem_b + GUARD) + shifts[si];                          \
                        TY *o = (TY *)(void *)(mem_o + GUARD) + shifts[si];                          \
                        unsigned char *res;                                                        \
                        for (size_t i = 0; i < n; i++) {                                           \
                            double da = ((double)(i % 97) - 40.0) * 0.75;                          \
                            double db = ((double)((i * 31) % 89) - 44.0) * 0.5;                    \
                            a[i] = (TY)da;                                                         \
                            b[i] = (TY)db;                                                         \
                        }                                                                          \
                        TY *wa = (TY *)(void *)(mem_w + GUARD) + shifts[si];                         \
                        memcpy(wa, a, n * sizeof(TY));                                              \
                        TY *wb = (TY *)(void *)(mem_v + GUARD) + shifts[si];                          \
                        memcpy(wb, b, n * sizeof(TY));                                              \
                        run_form((enum form)f, O(OPS[oi]), T(H), (unsigned char *)a,               \
                                 (unsigned char *)b, (unsigned char *)o, n, &res);                 \
                        const TY *r = (const TY *)(const void *)res;                                 \
                        for (size_t i = 0; i < n; i++) {                                           \
                            TY want = REF(OPS[oi], wa[i], wb[i]);                                   \
                            if (memcmp(&r[i], &want, sizeof(TY)) != 0 && !(r[i] == want)) {       \
                                ck_abort_msg("%s %s %s n=%zu shift=%zu form=%d [%zu]",             \
                                             op_simd_in_use(), O(OPS[oi])->name, #TY, n,           \
                                             shifts[si], f, i);                                    \
                            }                                                                      \
                        }                                                                          \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#define REAL_REF(op, x, y)                                                                         \
    ((op) == MPI_MAX ? ((x) > (y) ? (x) : (y)) : (op) == MPI_MIN ? ((x) < (y) ? (x) : (y))       \
                                             : (op) == MPI_SUM ? (x) + (y) : (x) * (y))
#define COMPLEX_REF(op, x, y) ((op) == MPI_SUM ? (x) + (y) : (x) * (y))
#define BOOL_REF(op, x, y) ((op) == MPI_LAND ? (x) && (y) : (op) == MPI_LOR ? (x) || (y) : (x) != (y))

static const MPI_Op complex_ops[] = {MPI_SUM, MPI_PROD};
static const MPI_Op bool_ops[] = {MPI_LAND, MPI_LOR, MPI_LXOR};

START_TEST(float_all_forms)
{
    int got = op_simd_select(simds[_i]);
    ck_assert_int_le(got, _i);
    FLOAT_CHECK(float, MPI_FLOAT, float_ops, REAL_REF);
    FLOAT_CHECK(double, MPI_DOUBLE, float_ops, REAL_REF);
    FLOAT_CHECK(long double, MPI_LONG_DOUBLE, float_ops, REAL_REF);
    FLOAT_CHECK(float _Complex, MPI_C_FLOAT_COMPLEX, complex_ops, COMPLEX_REF);
    FLOAT_CHECK(double _Complex, MPI_C_DOUBLE_COMPLEX, complex_ops, COMPLEX_REF);
    FLOAT_CHECK(bool, MPI_C_BOOL, bool_ops, BOOL_REF);
}
END_TEST

/* MAX and MIN keep `a > b ? a : b` exactly on every instruction set: a NaN in a loses
   to b, a NaN in b wins, and of +0 and -0 the one in b is kept */
START_TEST(float_nan_and_zero_order)
{
    int got = op_simd_select(simds[_i]);
    ck_assert_int_le(got, _i);
    double a[40], b[40];
    for (int i = 0; i < 40; i++) {
        a[i] = i % 4 == 0 ? __builtin_nan("") : i % 4 == 1 ? 1.0 : i % 4 == 2 ? 0.0 : -0.0;
        b[i] = i % 4 == 0 ? 2.0 : i % 4 == 1 ? __builtin_nan("") : i % 4 == 2 ? -0.0 : 0.0;
    }
    /* every case here keeps b: NaN > 2, 1 > NaN and 0 > -0 are false, and so are the
       same with < */
    static const MPI_Op ops[] = {MPI_MAX, MPI_MIN};
    for (int k = 0; k < 2; k++) {
        double r[40];
        memcpy(r, b, sizeof(b));
        ck_assert_int_eq(coll_op_apply(O(ops[k]), T(MPI_DOUBLE), a, r, 40), COMPI_OK);
        for (int i = 0; i < 40; i++) {
            ck_assert_msg(memcmp(&r[i], &b[i], sizeof(double)) == 0, "%s %s [%d]",
                          op_simd_in_use(), O(ops[k])->name, i);
        }
    }
}
END_TEST

/* ---- the three-buffer form on the paths that copy first ------------------------------- */

static void user_minus(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++) {
        ((int *)inout)[i] = ((int *)in)[i] - ((int *)inout)[i];
    }
}

START_TEST(apply3_user_loc_and_derived)
{
    compi_op_t *u = calloc(1, sizeof(*u));
    ck_assert_ptr_nonnull(u);
    u->user_fn = user_minus;
    u->refcount = 1;
    u->name = "user";

    /* user op, non-commutative: out = a - b in every form */
    int a[5] = {10, 20, 30, 40, 50}, b[5] = {1, 2, 3, 4, 5}, o[5];
    static const int want[5] = {9, 18, 27, 36, 45};
    ck_assert_int_eq(coll_op_apply3(u, T(MPI_INT), a, b, o, 5), COMPI_OK);
    ck_assert_mem_eq(o, want, sizeof(o));
    ck_assert(a[0] == 10 && b[0] == 1);
    ck_assert_int_eq(coll_op_apply3(u, T(MPI_INT), a, b, a, 5), COMPI_OK);
    ck_assert_mem_eq(a, want, sizeof(a));
    ck_assert(b[4] == 5);
    int c[5] = {10, 20, 30, 40, 50};
    ck_assert_int_eq(coll_op_apply3(u, T(MPI_INT), c, b, b, 5), COMPI_OK);
    ck_assert_mem_eq(b, want, sizeof(b));
    op_release(u);

    /* MINLOC on MPI_2INT into a third buffer */
    int pa[4] = {3, 1, 7, 0}, pb[4] = {3, 0, 9, 2}, po[4] = {-1, -1, -1, -1};
    static const int pwant[4] = {3, 0, 7, 0};
    ck_assert_int_eq(coll_op_apply3(O(MPI_MINLOC), T(MPI_2INT), pa, pb, po, 2), COMPI_OK);
    ck_assert_mem_eq(po, pwant, sizeof(po));

    /* a vector of doubles (stride 2): the holes of out are left alone */
    compi_datatype_t *v;
    ck_assert_int_eq(dt_create_hvector(3, 1, 2 * sizeof(double), T(MPI_DOUBLE), &v), COMPI_OK);
    double va[5] = {1, -1, 2, -1, 3}, vb[5] = {10, -2, 20, -2, 30}, vo[5] = {0, 7, 0, 7, 0};
    ck_assert_int_eq(coll_op_apply3(O(MPI_SUM), v, va, vb, vo, 1), COMPI_OK);
    static const double vwant[5] = {11, 7, 22, 7, 33};
    ck_assert_mem_eq(vo, vwant, sizeof(vo));
    dt_release(v);

    /* an op a type does not take is refused in this form too */
    ck_assert_int_eq(coll_op_apply3(O(MPI_BAND), T(MPI_DOUBLE), va, vb, vo, 1),
                     COMPI_ERR_INVALID_PARAM);
}
END_TEST

/* the parameter's names; an unknown one changes nothing */
START_TEST(simd_select)
{
    int best = op_simd_select("auto");
    ck_assert_int_ge(best, OP_SIMD_BASE);
    ck_assert_int_eq(op_simd_select("base"), OP_SIMD_BASE);
    ck_assert_str_eq(op_simd_in_use(), "base");
    ck_assert_int_eq(op_simd_select("sse9"), -1);
    ck_assert_str_eq(op_simd_in_use(), "base");
    ck_assert_int_eq(op_simd_select("avx512"), best);
    ck_assert_int_eq(op_simd_select("avx2"), best < OP_SIMD_AVX2 ? best : OP_SIMD_AVX2);
}
END_TEST

static Suite *op_loops_suite(void)
{
    Suite *s = suite_create("op_loops");
    TCase *tc = tcase_create("loops");
    int nsimd = (int)(sizeof(simds) / sizeof(simds[0]));

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, int_all_forms, 0, nsimd);
    tcase_add_loop_test(tc, float_all_forms, 0, nsimd);
    tcase_add_loop_test(tc, float_nan_and_zero_order, 0, nsimd);
    tcase_add_test(tc, apply3_user_loc_and_derived);
    tcase_add_test(tc, simd_select);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return unit_tap_run(op_loops_suite());
}
