/*
 * op_loops.c -- which predefined op is defined on which basic type, which typed loop
 * runs it, and the choice, once at MPI_Init, of the instruction set those loops use.
 *
 * Cost: gamma per element, with gamma a fraction of a nanosecond for the vectorised
 * integer and floating loops: in the caches they run at a vector per cycle or two, on
 * larger buffers at memory bandwidth (bench/op_bench.c measures both).
 *
 * The loops themselves are in op_kernels.h, compiled here for the build's baseline and
 * by op_loops_avx2.c and op_loops_avx512.c for those extensions of x86-64.  The baseline
 * is all a non-x86 build has.  op_simd_select() picks the best set the processor runs
 * (the runtime parameter op_simd can lower it, to compare or to test each set), and
 * every call then goes through op_loops_active.
 *
 * Which types an op accepts follows MPI-3.1 section 5.9.2, with two extensions that Open
 * MPI and MPICH both make: MPI_CHAR counts as a C integer, and the multi-language types
 * (MPI_AINT, MPI_OFFSET, MPI_COUNT) and the Fortran integers accept the logical ops too.
 */
#include "core/op/op_loops.h"

#include <stdbool.h>
#include <string.h>

#define OP_KERNEL_TABLE op_kernels_base
#include "core/op/op_kernels.h"

const op_loop_fn *op_loops_active = op_kernels_base;
static op_simd_t op_simd_now = OP_SIMD_BASE;

static const char *const op_simd_names[] = {
    [OP_SIMD_BASE] = "base",
    [OP_SIMD_AVX2] = "avx2",
    [OP_SIMD_AVX512] = "avx512",
};

/* the best instruction set that this build compiled loops for and this processor runs */
static op_simd_t op_simd_best(void)
{
#if OP_HAVE_X86_SIMD
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) {
        return OP_SIMD_AVX512;
    }
    if (__builtin_cpu_supports("avx2")) {
        return OP_SIMD_AVX2;
    }
#endif
    return OP_SIMD_BASE;
}

int op_simd_select(const char *want)
{
    op_simd_t cap = OP_SIMD_AVX512;

    if (want != NULL && strcmp(want, "auto") != 0 && want[0] != '\0') {
        int found = 0;
        for (int s = OP_SIMD_BASE; s <= OP_SIMD_AVX512; s++) {
            if (strcmp(want, op_simd_names[s]) == 0) {
                cap = (op_simd_t)s;
                found = 1;
            }
        }
        if (!found) {
            return -1;
        }
    }
    op_simd_t best = op_simd_best();
    op_simd_now = best < cap ? best : cap;
    switch (op_simd_now) {
#if OP_HAVE_X86_SIMD
    case OP_SIMD_AVX512:
        op_loops_active = op_kernels_avx512;
        break;
    case OP_SIMD_AVX2:
        op_loops_active = op_kernels_avx2;
        break;
#endif
    default:
        op_loops_active = op_kernels_base;
        break;
    }
    return (int)op_simd_now;
}

op_simd_t op_simd_current(void)
{
    return op_simd_now;
}

const char *op_simd_name(op_simd_t simd)
{
    return simd >= OP_SIMD_BASE && simd <= OP_SIMD_AVX512 ? op_simd_names[simd] : "?";
}

#define OPS_MINMAX (OP_BIT(OP_MAX) | OP_BIT(OP_MIN))
#define OPS_ARITH (OP_BIT(OP_SUM) | OP_BIT(OP_PROD))
#define OPS_LOGICAL (OP_BIT(OP_LAND) | OP_BIT(OP_LOR) | OP_BIT(OP_LXOR))
#define OPS_BITWISE (OP_BIT(OP_BAND) | OP_BIT(OP_BOR) | OP_BIT(OP_BXOR))
#define OPS_INT (OPS_MINMAX | OPS_ARITH | OPS_LOGICAL | OPS_BITWISE)
#define OPS_FLOAT (OPS_MINMAX | OPS_ARITH)
#define OPS_LOC (OP_BIT(OP_MINLOC) | OP_BIT(OP_MAXLOC))

#define INT_T(T, k)                                                                                \
    {                                                                                              \
        .size = sizeof(T), .ops = OPS_INT, .kind = k                                               \
    }
#define FLOAT_T(T, k)                                                                              \
    {                                                                                              \
        .size = sizeof(T), .ops = OPS_FLOAT, .kind = k                                             \
    }
#define COMPLEX_T(T, k)                                                                            \
    {                                                                                              \
        .size = sizeof(T), .ops = OPS_ARITH, .kind = k                                             \
    }

/* indexed by basic type, like the predefined datatypes of core/dt/dt.c */
static const op_basic_t op_basic_table[COMPI_DT_NUM_PREDEFINED] = {
    [1] = INT_T(char, OP_LOOP_CHAR),                              /* MPI_CHAR */
    [2] = INT_T(signed char, OP_LOOP_SCHAR),                      /* MPI_SIGNED_CHAR */
    [3] = INT_T(unsigned char, OP_LOOP_UCHAR),                    /* MPI_UNSIGNED_CHAR */
    [4] = {.size = 1, .ops = OPS_BITWISE, .kind = OP_LOOP_UCHAR}, /* MPI_BYTE */
    [5] = {.size = sizeof(wchar_t)},                  /* MPI_WCHAR: characters, no ops */
    [6] = INT_T(short, OP_LOOP_SHORT),                /* MPI_SHORT */
    [7] = INT_T(unsigned short, OP_LOOP_USHORT),      /* MPI_UNSIGNED_SHORT */
    [8] = INT_T(int, OP_LOOP_INT),                    /* MPI_INT */
    [9] = INT_T(unsigned, OP_LOOP_UINT),              /* MPI_UNSIGNED */
    [10] = INT_T(long, OP_LOOP_LONG),                 /* MPI_LONG */
    [11] = INT_T(unsigned long, OP_LOOP_ULONG),       /* MPI_UNSIGNED_LONG */
    [12] = INT_T(long long, OP_LOOP_LLONG),           /* MPI_LONG_LONG_INT */
    [13] = INT_T(unsigned long long, OP_LOOP_ULLONG), /* MPI_UNSIGNED_LONG_LONG */
    [14] = FLOAT_T(float, OP_LOOP_FLOAT),             /* MPI_FLOAT */
    [15] = FLOAT_T(double, OP_LOOP_DOUBLE),           /* MPI_DOUBLE */
    [16] = FLOAT_T(long double, OP_LOOP_LDOUBLE),     /* MPI_LONG_DOUBLE */
    [17] = INT_T(int8_t, OP_LOOP_INT8),
    [18] = INT_T(int16_t, OP_LOOP_INT16),
    [19] = INT_T(int32_t, OP_LOOP_INT32),
    [20] = INT_T(int64_t, OP_LOOP_INT64),
    [21] = INT_T(uint8_t, OP_LOOP_UINT8),
    [22] = INT_T(uint16_t, OP_LOOP_UINT16),
    [23] = INT_T(uint32_t, OP_LOOP_UINT32),
    [24] = INT_T(uint64_t, OP_LOOP_UINT64),
    [25] = {.size = sizeof(bool), .ops = OPS_LOGICAL, .kind = OP_LOOP_BOOL}, /* MPI_C_BOOL */
    [26] = COMPLEX_T(float _Complex, OP_LOOP_CFLOAT),
    [27] = COMPLEX_T(double _Complex, OP_LOOP_CDOUBLE),
    [28] = COMPLEX_T(long double _Complex, OP_LOOP_CLDOUBLE),
    [29] = {.size = 1},                      /* MPI_PACKED: no ops */
    [30] = INT_T(MPI_Aint, OP_LOOP_AINT),    /* MPI_AINT */
    [31] = INT_T(MPI_Offset, OP_LOOP_LLONG), /* MPI_OFFSET */
    [32] = INT_T(MPI_Count, OP_LOOP_LLONG),  /* MPI_COUNT */
    /* the pair types: MINLOC/MAXLOC only, run by op_loc.c (their blocks carry the
       basic types of their members, so no block is ever tagged with these indices) */
    [33] = {.ops = OPS_LOC},
    [34] = {.ops = OPS_LOC},
    [35] = {.ops = OPS_LOC},
    [36] = {.ops = OPS_LOC},
    [37] = {.ops = OPS_LOC},
    [38] = {.ops = OPS_LOC},
    [41] = {.size = sizeof(bool), .ops = OPS_LOGICAL, .kind = OP_LOOP_BOOL}, /* MPI_CXX_BOOL */
    [42] = COMPLEX_T(float _Complex, OP_LOOP_CFLOAT),
    [43] = COMPLEX_T(double _Complex, OP_LOOP_CDOUBLE),
    [44] = COMPLEX_T(long double _Complex, OP_LOOP_CLDOUBLE),
    /* Fortran types run the loops of the C types of their layout (core/dt/dt.c) */
    [45] = INT_T(int32_t, OP_LOOP_INT32),                          /* MPI_INTEGER */
    [46] = FLOAT_T(float, OP_LOOP_FLOAT),                          /* MPI_REAL */
    [47] = FLOAT_T(double, OP_LOOP_DOUBLE),                        /* MPI_DOUBLE_PRECISION */
    [48] = COMPLEX_T(float _Complex, OP_LOOP_CFLOAT),              /* MPI_COMPLEX */
    [49] = COMPLEX_T(double _Complex, OP_LOOP_CDOUBLE),            /* MPI_DOUBLE_COMPLEX */
    [50] = {.size = 4, .ops = OPS_LOGICAL, .kind = OP_LOOP_INT32}, /* MPI_LOGICAL */
    [51] = {.size = 1},                                            /* MPI_CHARACTER: no ops */
    [52] = {.ops = OPS_LOC},                                       /* MPI_2INTEGER */
    [53] = {.ops = OPS_LOC},                                       /* MPI_2REAL */
    [54] = {.ops = OPS_LOC},                                       /* MPI_2DOUBLE_PRECISION */
    [55] = INT_T(int8_t, OP_LOOP_INT8),                            /* MPI_INTEGER1 */
    [56] = INT_T(int16_t, OP_LOOP_INT16),                          /* MPI_INTEGER2 */
    [57] = INT_T(int32_t, OP_LOOP_INT32),                          /* MPI_INTEGER4 */
    [58] = INT_T(int64_t, OP_LOOP_INT64),                          /* MPI_INTEGER8 */
    [59] = FLOAT_T(float, OP_LOOP_FLOAT),                          /* MPI_REAL4 */
    [60] = FLOAT_T(double, OP_LOOP_DOUBLE),                        /* MPI_REAL8 */
    [61] = COMPLEX_T(float _Complex, OP_LOOP_CFLOAT),              /* MPI_COMPLEX8 */
    [62] = COMPLEX_T(double _Complex, OP_LOOP_CDOUBLE),            /* MPI_COMPLEX16 */
    [63] = COMPLEX_T(float _Complex, OP_LOOP_CFLOAT),              /* MPI_C_COMPLEX */
    [64] = {.size = 16},                                           /* MPI_REAL16: no ops */
    [65] = {.size = 32},                                           /* MPI_COMPLEX32: no ops */
    [66] = {.size = 2},                                            /* MPIX_C_FLOAT16: no ops */
    [67] = {.size = 16},                                           /* MPI_INTEGER16: no ops */
};

const op_basic_t *op_basic(int basic)
{
    if (basic <= 0 || basic >= COMPI_DT_NUM_PREDEFINED) {
        return NULL;
    }
    return &op_basic_table[basic];
}
