/*
 * op_kernels.h -- the typed loops of the predefined reduction operations, written once
 * and compiled once per instruction set: op_loops.c includes it for the baseline of the
 * build (SSE2 on x86-64), op_loops_avx2.c and op_loops_avx512.c under a target pragma.
 * The includer defines OP_KERNEL_TABLE, the name of the table of loops this inclusion
 * defines (indexed by op_loop_kind_t); everything else here is static.
 *
 * Every loop computes out[i] = a[i] op b[i] (MPI's inout = in op inout with a = in and
 * out = b).  `out` may be `a` or `b` or overlap neither: each element is read before it
 * is written in the same iteration, so no iteration depends on another, which is what
 * the ivdep pragma promises the vectoriser (no aliasing checks at run time, and one loop
 * serves the in-place and the three-buffer forms).
 *
 * GCC vectorises at -O2 only loops whose trip count is a known multiple of the vector
 * width, so OP_FOR runs blocks of OP_BLOCK_BYTES (a whole number of 16, 32 and 64-byte
 * vectors of any type), then the tail element by element.  Element-wise vectorisation
 * keeps the order of every single combination, so floating-point results are the same
 * bits as the scalar loop's (MAX/MIN keep the operand order of `a > b ? a : b`, which
 * the x86 max/min instructions implement exactly, NaNs and signed zeros included).
 *
 * Ownership: only code and const tables.
 */
#include "core/op/op_loops.h"

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

#define OP_BLOCK_BYTES 256

/* no loop-carried dependence (see above); GCC also unrolls the vector loop of a block
   completely (at most 16 vectors: 256 bytes of 16-byte vectors), or each vector would
   pay a compare and a branch */
#if defined(__clang__)
#define OP_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define OP_IVDEP _Pragma("GCC ivdep") _Pragma("GCC unroll 16")
#else
#define OP_IVDEP
#endif

/* out[i] = EXPR for i < n, EXPR of x = a[i] and y = b[i]; the loop over a block has a
   constant trip count */
#define OP_FOR(T, EXPR)                                                                            \
    do {                                                                                           \
        const T *a_ = va;                                                                          \
        const T *b_ = vb;                                                                          \
        T *o_ = vout;                                                                              \
        const size_t blk_ = OP_BLOCK_BYTES / sizeof(T);                                            \
        size_t k_ = 0;                                                                             \
        for (; k_ + blk_ <= n; k_ += blk_) {                                                       \
            OP_IVDEP for (size_t i = 0; i < blk_; i++)                                             \
            {                                                                                      \
                T x = a_[k_ + i], y = b_[k_ + i];                                                  \
                o_[k_ + i] = (EXPR);                                                               \
            }                                                                                      \
        }                                                                                          \
        for (; k_ < n; k_++) {                                                                     \
            T x = a_[k_], y = b_[k_];                                                              \
            o_[k_] = (EXPR);                                                                       \
        }                                                                                          \
    } while (0)

#define OP_CASE(op, T, EXPR)                                                                       \
    case op:                                                                                       \
        OP_FOR(T, EXPR);                                                                           \
        break

/* integers: every op but MINLOC/MAXLOC.  SUM and PROD compute in UT, so overflow wraps as
   on every MPI implementation instead of being undefined behaviour (UT is at least as wide
   as unsigned int, or a short would be promoted to int and its product could overflow).
   The logical ops use & | ^ of comparisons, not && and ||: no branch, so the vectoriser
   takes them. */
#define OP_INT_LOOP(fname, T, UT)                                                                  \
    static void fname(int op, const void *va, const void *vb, void *vout, size_t n)                \
    {                                                                                              \
        switch (op) {                                                                              \
            OP_CASE(OP_MAX, T, x > y ? x : y);                                                     \
            OP_CASE(OP_MIN, T, x < y ? x : y);                                                     \
            OP_CASE(OP_SUM, T, (T)((UT)x + (UT)y));                                                \
            OP_CASE(OP_PROD, T, (T)((UT)x * (UT)y));                                               \
            OP_CASE(OP_LAND, T, (T)((x != 0) & (y != 0)));                                         \
            OP_CASE(OP_LOR, T, (T)((x != 0) | (y != 0)));                                          \
            OP_CASE(OP_LXOR, T, (T)((x != 0) ^ (y != 0)));                                         \
            OP_CASE(OP_BAND, T, (T)(x & y));                                                       \
            OP_CASE(OP_BOR, T, (T)(x | y));                                                        \
            OP_CASE(OP_BXOR, T, (T)(x ^ y));                                                       \
        default:                                                                                   \
            break;                                                                                 \
        }                                                                                          \
    }

/* floating point: MAX, MIN, SUM, PROD */
#define OP_FLOAT_LOOP(fname, T)                                                                    \
    static void fname(int op, const void *va, const void *vb, void *vout, size_t n)                \
    {                                                                                              \
        switch (op) {                                                                              \
            OP_CASE(OP_MAX, T, x > y ? x : y);                                                     \
            OP_CASE(OP_MIN, T, x < y ? x : y);                                                     \
            OP_CASE(OP_SUM, T, x + y);                                                             \
            OP_CASE(OP_PROD, T, x * y);                                                            \
        default:                                                                                   \
            break;                                                                                 \
        }                                                                                          \
    }

/* complex: SUM, PROD */
#define OP_COMPLEX_LOOP(fname, T)                                                                  \
    static void fname(int op, const void *va, const void *vb, void *vout, size_t n)                \
    {                                                                                              \
        switch (op) {                                                                              \
            OP_CASE(OP_SUM, T, x + y);                                                             \
            OP_CASE(OP_PROD, T, x * y);                                                            \
        default:                                                                                   \
            break;                                                                                 \
        }                                                                                          \
    }

OP_INT_LOOP(loop_char, char, unsigned)
OP_INT_LOOP(loop_schar, signed char, unsigned)
OP_INT_LOOP(loop_uchar, unsigned char, unsigned)
OP_INT_LOOP(loop_short, short, unsigned)
OP_INT_LOOP(loop_ushort, unsigned short, unsigned)
OP_INT_LOOP(loop_int, int, unsigned)
OP_INT_LOOP(loop_uint, unsigned, unsigned)
OP_INT_LOOP(loop_long, long, unsigned long)
OP_INT_LOOP(loop_ulong, unsigned long, unsigned long)
OP_INT_LOOP(loop_llong, long long, unsigned long long)
OP_INT_LOOP(loop_ullong, unsigned long long, unsigned long long)
OP_INT_LOOP(loop_int8, int8_t, unsigned)
OP_INT_LOOP(loop_int16, int16_t, unsigned)
OP_INT_LOOP(loop_int32, int32_t, uint32_t)
OP_INT_LOOP(loop_int64, int64_t, uint64_t)
OP_INT_LOOP(loop_uint8, uint8_t, unsigned)
OP_INT_LOOP(loop_uint16, uint16_t, unsigned)
OP_INT_LOOP(loop_uint32, uint32_t, uint32_t)
OP_INT_LOOP(loop_uint64, uint64_t, uint64_t)
OP_INT_LOOP(loop_aint, intptr_t, uintptr_t)

OP_FLOAT_LOOP(loop_float, float)
OP_FLOAT_LOOP(loop_double, double)
OP_FLOAT_LOOP(loop_ldouble, long double)

OP_COMPLEX_LOOP(loop_cfloat, float _Complex)
OP_COMPLEX_LOOP(loop_cdouble, double _Complex)
OP_COMPLEX_LOOP(loop_cldouble, long double _Complex)

/* C and C++ bool (0 or 1): LAND, LOR, LXOR */
static void loop_bool(int op, const void *va, const void *vb, void *vout, size_t n)
{
    switch (op) {
        OP_CASE(OP_LAND, bool, x & y);
        OP_CASE(OP_LOR, bool, x | y);
        OP_CASE(OP_LXOR, bool, x ^ y);
    default:
        break;
    }
}

const op_loop_fn OP_KERNEL_TABLE[OP_LOOP_NKINDS] = {
    [OP_LOOP_CHAR] = loop_char,       [OP_LOOP_SCHAR] = loop_schar,
    [OP_LOOP_UCHAR] = loop_uchar,     [OP_LOOP_SHORT] = loop_short,
    [OP_LOOP_USHORT] = loop_ushort,   [OP_LOOP_INT] = loop_int,
    [OP_LOOP_UINT] = loop_uint,       [OP_LOOP_LONG] = loop_long,
    [OP_LOOP_ULONG] = loop_ulong,     [OP_LOOP_LLONG] = loop_llong,
    [OP_LOOP_ULLONG] = loop_ullong,   [OP_LOOP_INT8] = loop_int8,
    [OP_LOOP_INT16] = loop_int16,     [OP_LOOP_INT32] = loop_int32,
    [OP_LOOP_INT64] = loop_int64,     [OP_LOOP_UINT8] = loop_uint8,
    [OP_LOOP_UINT16] = loop_uint16,   [OP_LOOP_UINT32] = loop_uint32,
    [OP_LOOP_UINT64] = loop_uint64,   [OP_LOOP_AINT] = loop_aint,
    [OP_LOOP_FLOAT] = loop_float,     [OP_LOOP_DOUBLE] = loop_double,
    [OP_LOOP_LDOUBLE] = loop_ldouble, [OP_LOOP_CFLOAT] = loop_cfloat,
    [OP_LOOP_CDOUBLE] = loop_cdouble, [OP_LOOP_CLDOUBLE] = loop_cldouble,
    [OP_LOOP_BOOL] = loop_bool,
};
