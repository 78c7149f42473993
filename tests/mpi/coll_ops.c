/*
 * coll_ops: every predefined reduction op on every type class it is defined on, through
 * Allreduce and Reduce (root size-1), for 5 and 3000 elements; then a non-commutative
 * user op (2x2 matrix product) that must be applied in rank order by Reduce (every root),
 * Allreduce, Scan, Exscan, Reduce_scatter, Reduce_scatter_block and Reduce_local; then
 * MPI_Op_commutative and MPI_Op_free.
 *
 * Values are chosen so the exact result is known whatever order the library combines
 * them in: sums of 8 values stay inside int8, products have at most two factors of 2,
 * complex factors are small Gaussian integers, floating values are small integers.
 * MINLOC/MAXLOC values repeat across ranks, so ties must pick the smallest index.
 *
 * Checked against Debian's Open MPI 4.1.4 and MPICH 4.0.2, each of which gets one case
 * wrong (found by this test, confirmed with a two-line program): Open MPI compares
 * MPI_OFFSET as unsigned in MAX/MIN, MPICH compares MPI_UNSIGNED_CHAR and MPI_UINT8_T as
 * signed.  Built against those libraries, those cases are skipped; with compi they run.
 */
#include "tests/mpi/mpitest.h"

#include <complex.h>
#include <stdbool.h>

static const int counts[] = {5, 3000};
#define NCOUNTS ((int)(sizeof(counts) / sizeof(counts[0])))

static const struct {
    MPI_Op op;
    const char *name;
} op_names[] = {{MPI_SUM, "SUM"},   {MPI_PROD, "PROD"},     {MPI_MAX, "MAX"},
                {MPI_MIN, "MIN"},   {MPI_LAND, "LAND"},     {MPI_LOR, "LOR"},
                {MPI_LXOR, "LXOR"}, {MPI_BAND, "BAND"},     {MPI_BOR, "BOR"},
                {MPI_BXOR, "BXOR"}, {MPI_MINLOC, "MINLOC"}, {MPI_MAXLOC, "MAXLOC"}};

static const char *opname(MPI_Op op)
{
    for (size_t i = 0; i < sizeof(op_names) / sizeof(op_names[0]); i++)
        if (op_names[i].op == op)
            return op_names[i].name;
    return "?";
}

static uint64_t mix(uint64_t r, uint64_t i, uint64_t k)
{
    uint64_t x = r * 0x9E3779B97F4A7C15ull + i * 0xC2B2AE3D27D4EB4Full + k * 0x165667B19E3779F9ull;

    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return x;
}

/*
 * The value rank r contributes at element i for `op`, as a long long that fits every
 * integer type of the test.  `sgn`: the type is signed.  `bits`: its width, for the
 * bitwise ops.
 */
static long long gen(MPI_Op op, int r, long i, int sgn, int bits)
{
    uint64_t h = mix((uint64_t)r, (uint64_t)i, 7);

    if (op == MPI_SUM)
        return sgn ? (long long)(h % 31) - 15 : (long long)(h % 31);
    if (op == MPI_PROD) {
        /* factors of 2 at no more than two ranks per element: |product| <= 4 */
        long long f = ((r + i) % 4 == 0 && r < 8) ? 2 : 1;
        return (sgn && (h & 1)) ? -f : f;
    }
    if (op == MPI_MAX || op == MPI_MIN)
        return sgn ? (long long)(h % 201) - 100 : (long long)(h % 201);
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) {
        /* mostly true for LAND so the result is not always 0; 5 is true too */
        uint64_t m = h % 8;
        if (op == MPI_LAND)
            return m == 0 && (i % 3 == 0) ? 0 : (m == 1 ? 5 : 1);
        return m < 5 ? 0 : (m == 5 ? 5 : 1);
    }
    /* bitwise: a pattern of the type's width, dense in ones for BAND, sparse for BOR */
    {
        uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
        uint64_t x = h;

        if (op == MPI_BAND)
            x |= mix((uint64_t)r, (uint64_t)i, 8) | mix((uint64_t)r, (uint64_t)i, 9);
        else if (op == MPI_BOR)
            x &= mix((uint64_t)r, (uint64_t)i, 8) & mix((uint64_t)r, (uint64_t)i, 9);
        x &= mask;
        if (sgn && bits < 64 && (x >> (bits - 1)))
            return (long long)x - (long long)(1ull << bits); /* negative of that width */
        return (long long)x;
    }
}

static long long combine(MPI_Op op, long long a, long long b)
{
    if (op == MPI_SUM)
        return a + b;
    if (op == MPI_PROD)
        return a * b;
    if (op == MPI_MAX)
        return a > b ? a : b;
    if (op == MPI_MIN)
        return a < b ? a : b;
    if (op == MPI_LAND)
        return (a != 0) && (b != 0);
    if (op == MPI_LOR)
        return (a != 0) || (b != 0);
    if (op == MPI_LXOR)
        return (a != 0) != (b != 0);
    if (op == MPI_BAND)
        return a & b;
    if (op == MPI_BOR)
        return a | b;
    return a ^ b;
}

/* the result of the reduction over all ranks at element i */
static long long expect_int(MPI_Op op, long i, int sgn, int bits)
{
    long long acc = gen(op, 0, i, sgn, bits);

    for (int r = 1; r < mt_size; r++)
        acc = combine(op, acc, gen(op, r, i, sgn, bits));
    return acc;
}

/*
 * Runs `op` on `dt` with Allreduce and Reduce for every count; fill(buf, n) writes this
 * rank's contribution, ref(buf, n) the expected result; compare with memcmp over the
 * element size `es` (types without padding only: complex and pair types compare members).
 */
typedef void (*fill_fn)(void *buf, int n, MPI_Op op);
typedef long (*cmp_fn)(const void *got, const void *exp, int n); /* first bad, or -1 */

/* the other MPIs' bugs listed at the top of the file */
static int known_bug(MPI_Datatype dt, MPI_Op op)
{
    int minmax = op == MPI_MAX || op == MPI_MIN;

#if defined(OPEN_MPI)
    if (minmax && dt == MPI_OFFSET)
        return 1;
#endif
#if defined(MPICH)
    if (minmax && (dt == MPI_UNSIGNED_CHAR || dt == MPI_UINT8_T))
        return 1;
#endif
    (void)dt;
    (void)minmax;
    return 0;
}

static void run_op(MPI_Datatype dt, const char *dn, MPI_Op op, size_t es, fill_fn fill, fill_fn ref,
                   cmp_fn cmp)
{
    int root = mt_size - 1;

    if (known_bug(dt, op))
        return;
    for (int c = 0; c < NCOUNTS; c++) {
        int n = counts[c];
        void *in = mt_malloc((size_t)n * es), *out = mt_malloc((size_t)n * es);
        void *exp = mt_malloc((size_t)n * es);
        long bad;

        fill(in, n, op);
        ref(exp, n, op);
        memset(out, 0x5A, (size_t)n * es);
        MPI_OK(MPI_Allreduce(in, out, n, dt, op, MPI_COMM_WORLD));
        bad = cmp(out, exp, n);
        CHECK(bad < 0, "Allreduce %s on %s count %d: element %ld wrong", opname(op), dn, n, bad);
        memset(out, 0x5A, (size_t)n * es);
        MPI_OK(MPI_Reduce(in, mt_rank == root ? out : NULL, n, dt, op, root, MPI_COMM_WORLD));
        if (mt_rank == root) {
            bad = cmp(out, exp, n);
            CHECK(bad < 0, "Reduce %s on %s count %d: element %ld wrong", opname(op), dn, n, bad);
        }
        free(in);
        free(out);
        free(exp);
    }
}

/* ---- integer types: every op but MINLOC/MAXLOC ------------------------------------- */

/* cmp_T: the first of n elements where got and exp differ, or -1 */
#define CMP_FN(T)                                                                                  \
    static long cmp_##T(const void *got, const void *exp, int n)                                   \
    {                                                                                              \
        for (int i = 0; i < n; i++)                                                                \
            if (((const T *)got)[i] != ((const T *)exp)[i])                                        \
                return i;                                                                          \
        return -1;                                                                                 \
    }

#define INT_TYPE(T, SGN, LOGICAL)                                                                  \
    static void fill_##T(void *buf, int n, MPI_Op op)                                              \
    {                                                                                              \
        for (int i = 0; i < n; i++)                                                                \
            ((T *)buf)[i] = (T)gen(op, mt_rank, i, SGN, 8 * (int)sizeof(T));                       \
    }                                                                                              \
    static void ref_##T(void *buf, int n, MPI_Op op)                                               \
    {                                                                                              \
        for (int i = 0; i < n; i++)                                                                \
            ((T *)buf)[i] = (T)expect_int(op, i, SGN, 8 * (int)sizeof(T));                         \
    }                                                                                              \
    CMP_FN(T)                                                                                      \
    static void test_##T(MPI_Datatype dt, const char *dn)                                          \
    {                                                                                              \
        static const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MAX,  MPI_MIN, MPI_BAND,               \
                                     MPI_BOR, MPI_BXOR, MPI_LAND, MPI_LOR, MPI_LXOR};              \
        int nops = LOGICAL ? 10 : 7;                                                               \
        for (int k = 0; k < nops; k++)                                                             \
            run_op(dt, dn, ops[k], sizeof(T), fill_##T, ref_##T, cmp_##T);                         \
    }

typedef signed char schar_t;
typedef unsigned char uchar_t;
typedef unsigned short ushort_t;
typedef unsigned int uint_t;
typedef unsigned long ulong_t;
typedef long long llong_t;
typedef unsigned long long ullong_t;

INT_TYPE(schar_t, 1, 1)
INT_TYPE(uchar_t, 0, 1)
INT_TYPE(short, 1, 1)
INT_TYPE(ushort_t, 0, 1)
INT_TYPE(int, 1, 1)
INT_TYPE(uint_t, 0, 1)
INT_TYPE(long, 1, 1)
INT_TYPE(ulong_t, 0, 1)
INT_TYPE(llong_t, 1, 1)
INT_TYPE(ullong_t, 0, 1)
INT_TYPE(int8_t, 1, 1)
INT_TYPE(int16_t, 1, 1)
INT_TYPE(int32_t, 1, 1)
INT_TYPE(int64_t, 1, 1)
INT_TYPE(uint8_t, 0, 1)
INT_TYPE(uint16_t, 0, 1)
INT_TYPE(uint32_t, 0, 1)
INT_TYPE(uint64_t, 0, 1)
/* multi-language types: arithmetic and bitwise ops, no logical ones */
INT_TYPE(MPI_Aint, 1, 0)
INT_TYPE(MPI_Offset, 1, 0)
INT_TYPE(MPI_Count, 1, 0)

/* ---- floating point: SUM PROD MAX MIN ------------------------------------------------ */

#define FLOAT_TYPE(T)                                                                              \
    static void fill_##T(void *buf, int n, MPI_Op op)                                              \
    {                                                                                              \
        for (int i = 0; i < n; i++)                                                                \
            ((T *)buf)[i] = (T)gen(op, mt_rank, i, 1, 0) + (op == MPI_MAX ? (T)0.5 : 0);           \
    }                                                                                              \
    static void ref_##T(void *buf, int n, MPI_Op op)                                               \
    {                                                                                              \
        for (int i = 0; i < n; i++)                                                                \
            ((T *)buf)[i] = (T)expect_int(op, i, 1, 0) + (op == MPI_MAX ? (T)0.5 : 0);             \
    }                                                                                              \
    CMP_FN(T)                                                                                      \
    static void test_##T(MPI_Datatype dt, const char *dn)                                          \
    {                                                                                              \
        static const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN};                         \
        for (int k = 0; k < 4; k++)                                                                \
            run_op(dt, dn, ops[k], sizeof(T), fill_##T, ref_##T, cmp_##T);                         \
    }

typedef long double ldouble_t;
FLOAT_TYPE(float)
FLOAT_TYPE(double)
FLOAT_TYPE(ldouble_t)

/* ---- complex: SUM PROD ---------------------------------------------------------------- */

/* small Gaussian integers: products of 8 stay exact in float */
static void cgen(int r, long i, MPI_Op op, double *re, double *im)
{
    static const double sumv[][2] = {{1, 2}, {-3, 1}, {0, -4}, {2, 2}, {-1, 0}};
    static const double prodv[][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}};
    uint64_t h = mix((uint64_t)r, (uint64_t)i, 11) % 5;

    if (op == MPI_PROD && h == 4 && (r + i) % 3 != 0)
        h = 0; /* at most a few (1+i) factors per element */
    *re = op == MPI_SUM ? sumv[h][0] : prodv[h][0];
    *im = op == MPI_SUM ? sumv[h][1] : prodv[h][1];
}

#define COMPLEX_TYPE(T, R)                                                                         \
    static void fill_##T(void *buf, int n, MPI_Op op)                                              \
    {                                                                                              \
        for (int i = 0; i < n; i++) {                                                              \
            double re, im;                                                                         \
            cgen(mt_rank, i, op, &re, &im);                                                        \
            ((T *)buf)[i] = (R)re + (R)im * I;                                                     \
        }                                                                                          \
    }                                                                                              \
    static void ref_##T(void *buf, int n, MPI_Op op)                                               \
    {                                                                                              \
        for (int i = 0; i < n; i++) {                                                              \
            double re, im;                                                                         \
            T acc;                                                                                 \
            cgen(0, i, op, &re, &im);                                                              \
            acc = (R)re + (R)im * I;                                                               \
            for (int r = 1; r < mt_size; r++) {                                                    \
                cgen(r, i, op, &re, &im);                                                          \
                if (op == MPI_SUM)                                                                 \
                    acc += (R)re + (R)im * I;                                                      \
                else                                                                               \
                    acc *= (R)re + (R)im * I;                                                      \
            }                                                                                      \
            ((T *)buf)[i] = acc;                                                                   \
        }                                                                                          \
    }                                                                                              \
    CMP_FN(T)                                                                                      \
    static void test_##T(MPI_Datatype dt, const char *dn)                                          \
    {                                                                                              \
        run_op(dt, dn, MPI_SUM, sizeof(T), fill_##T, ref_##T, cmp_##T);                            \
        run_op(dt, dn, MPI_PROD, sizeof(T), fill_##T, ref_##T, cmp_##T);                           \
    }

typedef float _Complex fcomplex_t;
typedef double _Complex dcomplex_t;
typedef long double _Complex ldcomplex_t;
COMPLEX_TYPE(fcomplex_t, float)
COMPLEX_TYPE(dcomplex_t, double)
COMPLEX_TYPE(ldcomplex_t, long double)

/* ---- logical (C_BOOL): LAND LOR LXOR; byte: BAND BOR BXOR --------------------------- */

static void fill_bool(void *buf, int n, MPI_Op op)
{
    for (int i = 0; i < n; i++)
        ((bool *)buf)[i] = gen(op, mt_rank, i, 0, 1) != 0;
}

static void ref_bool(void *buf, int n, MPI_Op op)
{
    for (int i = 0; i < n; i++)
        ((bool *)buf)[i] = expect_int(op, i, 0, 1) != 0;
}

static long cmp_bool(const void *got, const void *exp, int n)
{
    for (int i = 0; i < n; i++)
        if (((const bool *)got)[i] != ((const bool *)exp)[i])
            return i;
    return -1;
}

static void test_bool(void)
{
    run_op(MPI_C_BOOL, "C_BOOL", MPI_LAND, sizeof(bool), fill_bool, ref_bool, cmp_bool);
    run_op(MPI_C_BOOL, "C_BOOL", MPI_LOR, sizeof(bool), fill_bool, ref_bool, cmp_bool);
    run_op(MPI_C_BOOL, "C_BOOL", MPI_LXOR, sizeof(bool), fill_bool, ref_bool, cmp_bool);
}

static void test_byte(void)
{
    run_op(MPI_BYTE, "BYTE", MPI_BAND, 1, fill_uchar_t, ref_uchar_t, cmp_uchar_t);
    run_op(MPI_BYTE, "BYTE", MPI_BOR, 1, fill_uchar_t, ref_uchar_t, cmp_uchar_t);
    run_op(MPI_BYTE, "BYTE", MPI_BXOR, 1, fill_uchar_t, ref_uchar_t, cmp_uchar_t);
}

/* ---- pair types: MINLOC MAXLOC, with ties ------------------------------------------- */

/* value with many ties across ranks; index unique per rank and unlike the rank */
static int pval(int r, long i)
{
    return (int)(mix((uint64_t)r, (uint64_t)i, 13) % 3) - 1;
}

static int pidx(int r, long i)
{
    return 1000 - 3 * ((mt_size - 1 - r + (int)(i % mt_size)) % mt_size);
}

#define PAIR_TYPE(NAME, VT)                                                                        \
    typedef struct {                                                                               \
        VT v;                                                                                      \
        int k;                                                                                     \
    } NAME##_t;                                                                                    \
    static void fill_##NAME(void *buf, int n, MPI_Op op)                                           \
    {                                                                                              \
        (void)op;                                                                                  \
        for (int i = 0; i < n; i++) {                                                              \
            ((NAME##_t *)buf)[i].v = (VT)pval(mt_rank, i);                                         \
            ((NAME##_t *)buf)[i].k = pidx(mt_rank, i);                                             \
        }                                                                                          \
    }                                                                                              \
    static void ref_##NAME(void *buf, int n, MPI_Op op)                                            \
    {                                                                                              \
        for (int i = 0; i < n; i++) {                                                              \
            int bv = pval(0, i), bk = pidx(0, i);                                                  \
            for (int r = 1; r < mt_size; r++) {                                                    \
                int v = pval(r, i), k = pidx(r, i);                                                \
                int better = op == MPI_MINLOC ? v < bv : v > bv;                                   \
                if (better || (v == bv && k < bk)) {                                               \
                    bv = v;                                                                        \
                    bk = k;                                                                        \
                }                                                                                  \
            }                                                                                      \
            ((NAME##_t *)buf)[i].v = (VT)bv;                                                       \
            ((NAME##_t *)buf)[i].k = bk;                                                           \
        }                                                                                          \
    }                                                                                              \
    static long cmp_##NAME(const void *got, const void *exp, int n)                                \
    {                                                                                              \
        const NAME##_t *g = got, *e = exp;                                                         \
        for (int i = 0; i < n; i++)                                                                \
            if (g[i].v != e[i].v || g[i].k != e[i].k)                                              \
                return i;                                                                          \
        return -1;                                                                                 \
    }                                                                                              \
    static void test_##NAME(MPI_Datatype dt, const char *dn)                                       \
    {                                                                                              \
        run_op(dt, dn, MPI_MINLOC, sizeof(NAME##_t), fill_##NAME, ref_##NAME, cmp_##NAME);         \
        run_op(dt, dn, MPI_MAXLOC, sizeof(NAME##_t), fill_##NAME, ref_##NAME, cmp_##NAME);         \
    }

PAIR_TYPE(float_int, float)
PAIR_TYPE(double_int, double)
PAIR_TYPE(long_int, long)
PAIR_TYPE(two_int, int)
PAIR_TYPE(short_int, short)
PAIR_TYPE(ldouble_int, long double)

/* ---- non-commutative user op: 2x2 matrix product modulo 2^32 ----------------------- */

typedef struct {
    uint32_t a, b, c, d; /* [[a b] [c d]] */
} mat_t;

static int user_calls;

/* MPI: inoutvec[i] = invec[i] op inoutvec[i], invec from the lower ranks */
static void matmul(void *invec, void *inoutvec, int *len, MPI_Datatype *dt)
{
    mat_t *x = invec, *y = inoutvec;

    (void)dt;
    user_calls++;
    for (int i = 0; i < *len; i++) {
        mat_t p = {x[i].a * y[i].a + x[i].b * y[i].c, x[i].a * y[i].b + x[i].b * y[i].d,
                   x[i].c * y[i].a + x[i].d * y[i].c, x[i].c * y[i].b + x[i].d * y[i].d};
        y[i] = p;
    }
}

static mat_t mgen(int r, long i)
{
    uint64_t h = mix((uint64_t)r, (uint64_t)i, 17);
    mat_t m = {(uint32_t)(h % 7) + 1, (uint32_t)(h >> 8) % 5, (uint32_t)(h >> 16) % 3 + 1,
               (uint32_t)(h >> 24) % 4};

    return m;
}

/* product of ranks [lo, hi) at element i, in rank order */
static mat_t mprod(int lo, int hi, long i)
{
    mat_t acc = mgen(lo, i);

    for (int r = lo + 1; r < hi; r++) {
        mat_t x = mgen(r, i), p = {acc.a * x.a + acc.b * x.c, acc.a * x.b + acc.b * x.d,
                                   acc.c * x.a + acc.d * x.c, acc.c * x.b + acc.d * x.d};
        acc = p;
    }
    return acc;
}

static long mcmp(const mat_t *got, int lo, int hi, long first, long n)
{
    for (long i = 0; i < n; i++) {
        mat_t e = mprod(lo, hi, first + i);

        if (memcmp(&got[i], &e, sizeof(e)) != 0)
            return i;
    }
    return -1;
}

static void test_noncommutative(int n)
{
    MPI_Datatype mt;
    MPI_Op op;
    long len = (long)(n + mt_size) * mt_size; /* room for Reduce_scatter's uneven blocks */
    mat_t *in = mt_malloc((size_t)len * sizeof(mat_t));
    mat_t *out = mt_malloc((size_t)len * sizeof(mat_t));
    int *rcounts = mt_malloc((size_t)mt_size * sizeof(int)), commute = -1, off = 0;
    long bad;

    MPI_OK(MPI_Type_contiguous(4, MPI_UINT32_T, &mt));
    MPI_OK(MPI_Type_commit(&mt));
    MPI_OK(MPI_Op_create(matmul, 0, &op));
    MPI_OK(MPI_Op_commutative(op, &commute));
    CHECK(commute == 0, "Op_commutative of a non-commutative op: %d", commute);
    for (long i = 0; i < len; i++)
        in[i] = mgen(mt_rank, i);

    for (int root = 0; root < mt_size; root++) {
        MPI_OK(MPI_Reduce(in, mt_rank == root ? out : NULL, n, mt, op, root, MPI_COMM_WORLD));
        if (mt_rank == root) {
            bad = mcmp(out, 0, mt_size, 0, n);
            CHECK(bad < 0, "Reduce matmul count %d root %d: element %ld out of order", n, root,
                  bad);
        }
    }
    MPI_OK(MPI_Allreduce(in, out, n, mt, op, MPI_COMM_WORLD));
    bad = mcmp(out, 0, mt_size, 0, n);
    CHECK(bad < 0, "Allreduce matmul count %d: element %ld out of order", n, bad);
    memcpy(out, in, (size_t)n * sizeof(mat_t));
    MPI_OK(MPI_Allreduce(MPI_IN_PLACE, out, n, mt, op, MPI_COMM_WORLD));
    bad = mcmp(out, 0, mt_size, 0, n);
    CHECK(bad < 0, "Allreduce in place matmul count %d: element %ld out of order", n, bad);

    MPI_OK(MPI_Scan(in, out, n, mt, op, MPI_COMM_WORLD));
    bad = mcmp(out, 0, mt_rank + 1, 0, n);
    CHECK(bad < 0, "Scan matmul count %d: element %ld out of order", n, bad);
    MPI_OK(MPI_Exscan(in, out, n, mt, op, MPI_COMM_WORLD));
    if (mt_rank > 0) {
        bad = mcmp(out, 0, mt_rank, 0, n);
        CHECK(bad < 0, "Exscan matmul count %d: element %ld out of order", n, bad);
    }

    /* uneven blocks, one of them empty when there are 3 ranks or more */
    for (int r = 0; r < mt_size; r++) {
        rcounts[r] = r == 1 ? 0 : n + r;
        if (r < mt_rank)
            off += rcounts[r];
    }
    MPI_OK(MPI_Reduce_scatter(in, out, rcounts, mt, op, MPI_COMM_WORLD));
    bad = mcmp(out, 0, mt_size, off, rcounts[mt_rank]);
    CHECK(bad < 0, "Reduce_scatter matmul count %d: element %ld out of order", n, bad);
    MPI_OK(MPI_Reduce_scatter_block(in, out, n, mt, op, MPI_COMM_WORLD));
    bad = mcmp(out, 0, mt_size, (long)mt_rank * n, n);
    CHECK(bad < 0, "Reduce_scatter_block matmul count %d: element %ld out of order", n, bad);

    /* Reduce_local(in, inout): inout = in op inout */
    {
        mat_t *a = mt_malloc((size_t)n * sizeof(mat_t)), *b = mt_malloc((size_t)n * sizeof(mat_t));

        for (int i = 0; i < n; i++) {
            a[i] = mgen(0, i);
            b[i] = mgen(1, i);
        }
        MPI_OK(MPI_Reduce_local(a, b, n, mt, op));
        bad = mcmp(b, 0, 2, 0, n);
        CHECK(bad < 0, "Reduce_local matmul count %d: element %ld: wrong operand order", n, bad);
        free(a);
        free(b);
    }

    MPI_OK(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL, "Op_free did not set the handle to MPI_OP_NULL");
    MPI_OK(MPI_Type_free(&mt));
    free(in);
    free(out);
    free(rcounts);
}

/* a commutative user op: sum of ints, reported as commutative */
static void isum(void *invec, void *inoutvec, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inoutvec)[i] += ((int *)invec)[i];
}

static void test_commutative(void)
{
    MPI_Op op;
    int commute = -1, in[5], out[5];

    MPI_OK(MPI_Op_create(isum, 1, &op));
    MPI_OK(MPI_Op_commutative(op, &commute));
    CHECK(commute == 1, "Op_commutative of a commutative user op: %d", commute);
    for (int i = 0; i < 5; i++)
        in[i] = mt_rank * 10 + i;
    MPI_OK(MPI_Allreduce(in, out, 5, MPI_INT, op, MPI_COMM_WORLD));
    for (int i = 0; i < 5; i++)
        CHECK(out[i] == 10 * mt_size * (mt_size - 1) / 2 + mt_size * i,
              "Allreduce with a commutative user op: element %d is %d", i, out[i]);
    MPI_OK(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL, "Op_free did not set the handle to MPI_OP_NULL");
    for (size_t k = 0; k < sizeof(op_names) / sizeof(op_names[0]); k++) {
        commute = -1;
        MPI_OK(MPI_Op_commutative(op_names[k].op, &commute));
        CHECK(commute == 1, "Op_commutative(MPI_%s) is %d", op_names[k].name, commute);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "coll_ops");

    test_schar_t(MPI_SIGNED_CHAR, "SIGNED_CHAR");
    test_uchar_t(MPI_UNSIGNED_CHAR, "UNSIGNED_CHAR");
    test_short(MPI_SHORT, "SHORT");
    test_ushort_t(MPI_UNSIGNED_SHORT, "UNSIGNED_SHORT");
    test_int(MPI_INT, "INT");
    test_uint_t(MPI_UNSIGNED, "UNSIGNED");
    test_long(MPI_LONG, "LONG");
    test_ulong_t(MPI_UNSIGNED_LONG, "UNSIGNED_LONG");
    test_llong_t(MPI_LONG_LONG, "LONG_LONG");
    test_ullong_t(MPI_UNSIGNED_LONG_LONG, "UNSIGNED_LONG_LONG");
    test_int8_t(MPI_INT8_T, "INT8_T");
    test_int16_t(MPI_INT16_T, "INT16_T");
    test_int32_t(MPI_INT32_T, "INT32_T");
    test_int64_t(MPI_INT64_T, "INT64_T");
    test_uint8_t(MPI_UINT8_T, "UINT8_T");
    test_uint16_t(MPI_UINT16_T, "UINT16_T");
    test_uint32_t(MPI_UINT32_T, "UINT32_T");
    test_uint64_t(MPI_UINT64_T, "UINT64_T");
    test_MPI_Aint(MPI_AINT, "AINT");
    test_MPI_Offset(MPI_OFFSET, "OFFSET");
    test_MPI_Count(MPI_COUNT, "COUNT");
    test_float(MPI_FLOAT, "FLOAT");
    test_double(MPI_DOUBLE, "DOUBLE");
    test_ldouble_t(MPI_LONG_DOUBLE, "LONG_DOUBLE");
    test_fcomplex_t(MPI_C_FLOAT_COMPLEX, "C_FLOAT_COMPLEX");
    test_fcomplex_t(MPI_C_COMPLEX, "C_COMPLEX");
    test_dcomplex_t(MPI_C_DOUBLE_COMPLEX, "C_DOUBLE_COMPLEX");
    test_ldcomplex_t(MPI_C_LONG_DOUBLE_COMPLEX, "C_LONG_DOUBLE_COMPLEX");
    test_bool();
    test_byte();
    test_float_int(MPI_FLOAT_INT, "FLOAT_INT");
    test_double_int(MPI_DOUBLE_INT, "DOUBLE_INT");
    test_long_int(MPI_LONG_INT, "LONG_INT");
    test_two_int(MPI_2INT, "2INT");
    test_short_int(MPI_SHORT_INT, "SHORT_INT");
    test_ldouble_int(MPI_LONG_DOUBLE_INT, "LONG_DOUBLE_INT");

    test_noncommutative(1);
    test_noncommutative(5000); /* 80 KB per block: past the rendezvous threshold */
    test_commutative();
    CHECK(mt_size == 1 || user_calls > 0, "the non-commutative user function was never called");
    return mt_finish();
}
