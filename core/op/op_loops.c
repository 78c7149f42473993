/*
 * op_loops.c -- typed loops of the predefined reduction operations, one function per C
 * type, and the table that says which op is defined on which basic type.
 *
 * Cost: gamma per element, with gamma a fraction of a nanosecond for the vectorised
 * integer and floating loops (SUM on int or double runs at memory bandwidth).
 *
 * Each function switches on the op once, outside its loop, so every loop body is one
 * simple statement over pointers the compiler knows do not alias (restrict on the
 * parameters: GCC ignores restrict on local copies).  The build compiles with -O2, whose
 * "very cheap" vectoriser only takes loops whose trip count is a known multiple of the
 * vector width; OP_FOR therefore runs blocks of OP_BLOCK elements (which it vectorises)
 * and then the tail.  Signed SUM and PROD compute in the matching unsigned type, so overflow wraps
 * as on every MPI implementation instead of being undefined behaviour.
 *
 * Which types an op accepts follows MPI-3.1 section 5.9.2, with two extensions that Open
 * MPI and MPICH both make: MPI_CHAR counts as a C integer, and the multi-language types
 * (MPI_AINT, MPI_OFFSET, MPI_COUNT) and the Fortran integers accept the logical ops too.
 */
#include "core/op/op_loops.h"

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>

#define OP_BLOCK 16

/* STMT reads in[i] and io[i]: in the blocks `in` and `io` are shifted pointers and i a
   constant-bound index, the form GCC's -O2 vectoriser takes */
#define OP_FOR(T, n, STMT)                                                                         \
    do {                                                                                           \
        size_t blk_ = 0;                                                                           \
        for (; blk_ + OP_BLOCK <= (n); blk_ += OP_BLOCK) {                                         \
            const T *in = in_all + blk_;                                                           \
            T *io = io_all + blk_;                                                                 \
            _Pragma("GCC unroll 16") for (int i = 0; i < OP_BLOCK; i++)                            \
            {                                                                                      \
                STMT;                                                                              \
            }                                                                                      \
        }                                                                                          \
        const T *in = in_all + blk_;                                                               \
        T *io = io_all + blk_;                                                                     \
        for (size_t i = 0; i < (n)-blk_; i++) {                                                    \
            STMT;                                                                                  \
        }                                                                                          \
    } while (0)

/* integers: every op but MINLOC/MAXLOC; UT is the unsigned type the arithmetic wraps in
   (at least as wide as unsigned int, so short operands are not promoted to int) */
#define OP_INT_LOOP(fname, T, UT)                                                                  \
    static void fname(int op, const void *restrict vin, void *restrict vio, size_t n)              \
    {                                                                                              \
        const T *in_all = vin;                                                                     \
        T *io_all = vio;                                                                           \
        switch (op) {                                                                              \
        case OP_MAX:                                                                               \
            OP_FOR(T, n, io[i] = in[i] > io[i] ? in[i] : io[i]);                                   \
            break;                                                                                 \
        case OP_MIN:                                                                               \
            OP_FOR(T, n, io[i] = in[i] < io[i] ? in[i] : io[i]);                                   \
            break;                                                                                 \
        case OP_SUM:                                                                               \
            OP_FOR(T, n, io[i] = (T)((UT)in[i] + (UT)io[i]));                                      \
            break;                                                                                 \
        case OP_PROD:                                                                              \
            OP_FOR(T, n, io[i] = (T)((UT)in[i] * (UT)io[i]));                                      \
            break;                                                                                 \
        case OP_LAND:                                                                              \
            OP_FOR(T, n, io[i] = (T)(in[i] && io[i]));                                             \
            break;                                                                                 \
        case OP_LOR:                                                                               \
            OP_FOR(T, n, io[i] = (T)(in[i] || io[i]));                                             \
            break;                                                                                 \
        case OP_LXOR:                                                                              \
            OP_FOR(T, n, io[i] = (T)(!in[i] != !io[i]));                                           \
            break;                                                                                 \
        case OP_BAND:                                                                              \
            OP_FOR(T, n, io[i] = (T)(in[i] & io[i]));                                              \
            break;                                                                                 \
        case OP_BOR:                                                                               \
            OP_FOR(T, n, io[i] = (T)(in[i] | io[i]));                                              \
            break;                                                                                 \
        case OP_BXOR:                                                                              \
            OP_FOR(T, n, io[i] = (T)(in[i] ^ io[i]));                                              \
            break;                                                                                 \
        default:                                                                                   \
            break;                                                                                 \
        }                                                                                          \
    }

/* floating point: MAX, MIN, SUM, PROD */
#define OP_FLOAT_LOOP(fname, T)                                                                    \
    static void fname(int op, const void *restrict vin, void *restrict vio, size_t n)              \
    {                                                                                              \
        const T *in_all = vin;                                                                     \
        T *io_all = vio;                                                                           \
        switch (op) {                                                                              \
        case OP_MAX:                                                                               \
            OP_FOR(T, n, io[i] = in[i] > io[i] ? in[i] : io[i]);                                   \
            break;                                                                                 \
        case OP_MIN:                                                                               \
            OP_FOR(T, n, io[i] = in[i] < io[i] ? in[i] : io[i]);                                   \
            break;                                                                                 \
        case OP_SUM:                                                                               \
            OP_FOR(T, n, io[i] = in[i] + io[i]);                                                   \
            break;                                                                                 \
        case OP_PROD:                                                                              \
            OP_FOR(T, n, io[i] = in[i] * io[i]);                                                   \
            break;                                                                                 \
        default:                                                                                   \
            break;                                                                                 \
        }                                                                                          \
    }

/* complex: SUM, PROD */
#define OP_COMPLEX_LOOP(fname, T)                                                                  \
    static void fname(int op, const void *restrict vin, void *restrict vio, size_t n)              \
    {                                                                                              \
        const T *in_all = vin;                                                                     \
        T *io_all = vio;                                                                           \
        if (op == OP_SUM) {                                                                        \
            OP_FOR(T, n, io[i] = in[i] + io[i]);                                                   \
        } else if (op == OP_PROD) {                                                                \
            OP_FOR(T, n, io[i] = in[i] * io[i]);                                                   \
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

/* C and C++ bool: LAND, LOR, LXOR */
static void loop_bool(int op, const void *restrict vin, void *restrict vio, size_t n)
{
    const bool *in_all = vin;
    bool *io_all = vio;
    switch (op) {
    case OP_LAND:
        OP_FOR(bool, n, io[i] = in[i] && io[i]);
        break;
    case OP_LOR:
        OP_FOR(bool, n, io[i] = in[i] || io[i]);
        break;
    case OP_LXOR:
        OP_FOR(bool, n, io[i] = in[i] != io[i]);
        break;
    default:
        break;
    }
}

#define OPS_MINMAX (OP_BIT(OP_MAX) | OP_BIT(OP_MIN))
#define OPS_ARITH (OP_BIT(OP_SUM) | OP_BIT(OP_PROD))
#define OPS_LOGICAL (OP_BIT(OP_LAND) | OP_BIT(OP_LOR) | OP_BIT(OP_LXOR))
#define OPS_BITWISE (OP_BIT(OP_BAND) | OP_BIT(OP_BOR) | OP_BIT(OP_BXOR))
#define OPS_INT (OPS_MINMAX | OPS_ARITH | OPS_LOGICAL | OPS_BITWISE)
#define OPS_FLOAT (OPS_MINMAX | OPS_ARITH)
#define OPS_LOC (OP_BIT(OP_MINLOC) | OP_BIT(OP_MAXLOC))

#define INT_T(T, fn)                                                                               \
    {                                                                                              \
        .size = sizeof(T), .ops = OPS_INT, .loop = fn                                              \
    }
#define FLOAT_T(T, fn)                                                                             \
    {                                                                                              \
        .size = sizeof(T), .ops = OPS_FLOAT, .loop = fn                                            \
    }
#define COMPLEX_T(T, fn)                                                                           \
    {                                                                                              \
        .size = sizeof(T), .ops = OPS_ARITH, .loop = fn                                            \
    }

/* indexed like the predefined datatypes of include/mpi.h (COMPI_DT(i)) */
static const op_basic_t op_basic_table[COMPI_DT_NUM_PREDEFINED] = {
    [1] = INT_T(char, loop_char),                              /* MPI_CHAR */
    [2] = INT_T(signed char, loop_schar),                      /* MPI_SIGNED_CHAR */
    [3] = INT_T(unsigned char, loop_uchar),                    /* MPI_UNSIGNED_CHAR */
    [4] = {.size = 1, .ops = OPS_BITWISE, .loop = loop_uchar}, /* MPI_BYTE */
    [5] = {.size = sizeof(wchar_t)},                           /* MPI_WCHAR: characters, no ops */
    [6] = INT_T(short, loop_short),                            /* MPI_SHORT */
    [7] = INT_T(unsigned short, loop_ushort),                  /* MPI_UNSIGNED_SHORT */
    [8] = INT_T(int, loop_int),                                /* MPI_INT */
    [9] = INT_T(unsigned, loop_uint),                          /* MPI_UNSIGNED */
    [10] = INT_T(long, loop_long),                             /* MPI_LONG */
    [11] = INT_T(unsigned long, loop_ulong),                   /* MPI_UNSIGNED_LONG */
    [12] = INT_T(long long, loop_llong),                       /* MPI_LONG_LONG_INT */
    [13] = INT_T(unsigned long long, loop_ullong),             /* MPI_UNSIGNED_LONG_LONG */
    [14] = FLOAT_T(float, loop_float),                         /* MPI_FLOAT */
    [15] = FLOAT_T(double, loop_double),                       /* MPI_DOUBLE */
    [16] = FLOAT_T(long double, loop_ldouble),                 /* MPI_LONG_DOUBLE */
    [17] = INT_T(int8_t, loop_int8),
    [18] = INT_T(int16_t, loop_int16),
    [19] = INT_T(int32_t, loop_int32),
    [20] = INT_T(int64_t, loop_int64),
    [21] = INT_T(uint8_t, loop_uint8),
    [22] = INT_T(uint16_t, loop_uint16),
    [23] = INT_T(uint32_t, loop_uint32),
    [24] = INT_T(uint64_t, loop_uint64),
    [25] = {.size = sizeof(bool), .ops = OPS_LOGICAL, .loop = loop_bool}, /* MPI_C_BOOL */
    [26] = COMPLEX_T(float _Complex, loop_cfloat),
    [27] = COMPLEX_T(double _Complex, loop_cdouble),
    [28] = COMPLEX_T(long double _Complex, loop_cldouble),
    [29] = {.size = 1},                   /* MPI_PACKED: no ops */
    [30] = INT_T(MPI_Aint, loop_aint),    /* MPI_AINT */
    [31] = INT_T(MPI_Offset, loop_llong), /* MPI_OFFSET */
    [32] = INT_T(MPI_Count, loop_llong),  /* MPI_COUNT */
    /* the pair types: MINLOC/MAXLOC only, run by op_loc.c (their blocks carry the
       basic types of their members, so no block is ever tagged with these indices) */
    [33] = {.ops = OPS_LOC},
    [34] = {.ops = OPS_LOC},
    [35] = {.ops = OPS_LOC},
    [36] = {.ops = OPS_LOC},
    [37] = {.ops = OPS_LOC},
    [38] = {.ops = OPS_LOC},
    [41] = {.size = sizeof(bool), .ops = OPS_LOGICAL, .loop = loop_bool}, /* MPI_CXX_BOOL */
    [42] = COMPLEX_T(float _Complex, loop_cfloat),
    [43] = COMPLEX_T(double _Complex, loop_cdouble),
    [44] = COMPLEX_T(long double _Complex, loop_cldouble),
    /* Fortran types run the loops of the C types of their layout (core/dt/dt.c) */
    [45] = INT_T(int32_t, loop_int32),                               /* MPI_INTEGER */
    [46] = FLOAT_T(float, loop_float),                               /* MPI_REAL */
    [47] = FLOAT_T(double, loop_double),                             /* MPI_DOUBLE_PRECISION */
    [48] = COMPLEX_T(float _Complex, loop_cfloat),                   /* MPI_COMPLEX */
    [49] = COMPLEX_T(double _Complex, loop_cdouble),                 /* MPI_DOUBLE_COMPLEX */
    [50] = {.size = 4, .ops = OPS_LOGICAL, .loop = loop_int32},      /* MPI_LOGICAL */
    [51] = {.size = 1},                                              /* MPI_CHARACTER: no ops */
    [52] = {.ops = OPS_LOC},                                         /* MPI_2INTEGER */
    [53] = {.ops = OPS_LOC},                                         /* MPI_2REAL */
    [54] = {.ops = OPS_LOC},                                         /* MPI_2DOUBLE_PRECISION */
    [55] = INT_T(int8_t, loop_int8),                                 /* MPI_INTEGER1 */
    [56] = INT_T(int16_t, loop_int16),                               /* MPI_INTEGER2 */
    [57] = INT_T(int32_t, loop_int32),                               /* MPI_INTEGER4 */
    [58] = INT_T(int64_t, loop_int64),                               /* MPI_INTEGER8 */
    [59] = FLOAT_T(float, loop_float),                               /* MPI_REAL4 */
    [60] = FLOAT_T(double, loop_double),                             /* MPI_REAL8 */
    [61] = COMPLEX_T(float _Complex, loop_cfloat),                   /* MPI_COMPLEX8 */
    [62] = COMPLEX_T(double _Complex, loop_cdouble),                 /* MPI_COMPLEX16 */
};

const op_basic_t *op_basic(int basic)
{
    if (basic <= 0 || basic >= COMPI_DT_NUM_PREDEFINED) {
        return NULL;
    }
    return &op_basic_table[basic];
}
