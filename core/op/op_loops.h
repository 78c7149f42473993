/*
 * op_loops.h -- the typed loops behind the predefined reduction operations, shared by
 * op.c (dispatch, validity), op_loops.c (the table of basic types and the choice of
 * instruction set), op_kernels.h (arithmetic, logical and bitwise loops, compiled by
 * op_loops.c, op_loops_avx2.c and op_loops_avx512.c) and op_loc.c (MINLOC/MAXLOC on
 * value-index pairs).  Only core/op/ includes this.
 *
 * Ownership: everything here is static and const, but for op_loops_active, which
 * op_simd_select() sets at MPI_Init (op_init); nothing is allocated.
 */
#ifndef COMPI_OP_LOOPS_H
#define COMPI_OP_LOOPS_H

#include "core/dt/dt.h"

#include <stddef.h>

/* the indices of the predefined ops, as in include/mpi.h (MPI_MAX is index 1) */
enum {
    OP_MAX = 1,
    OP_MIN,
    OP_SUM,
    OP_PROD,
    OP_LAND,
    OP_BAND,
    OP_LOR,
    OP_BOR,
    OP_LXOR,
    OP_BXOR,
    OP_MINLOC,
    OP_MAXLOC,
    OP_REPLACE,
    OP_NO_OP,
    OP_NPREDEF /* one past the last: the size of the predefined table */
};

#define OP_BIT(op) (1u << (op))

/* out[i] = a[i] op b[i] for n elements of one basic type (MPI's inout = in op inout is
   a = in, b = out = inout); out may be a or b, or overlap neither */
typedef void (*op_loop_fn)(int op, const void *a, const void *b, void *out, size_t n);

/* the typed loops, one per C type: each is compiled once per instruction set
   (op_kernels.h) and the tables are indexed by these */
typedef enum op_loop_kind {
    OP_LOOP_NONE = 0, /* no op applies */
    OP_LOOP_CHAR,
    OP_LOOP_SCHAR,
    OP_LOOP_UCHAR,
    OP_LOOP_SHORT,
    OP_LOOP_USHORT,
    OP_LOOP_INT,
    OP_LOOP_UINT,
    OP_LOOP_LONG,
    OP_LOOP_ULONG,
    OP_LOOP_LLONG,
    OP_LOOP_ULLONG,
    OP_LOOP_INT8,
    OP_LOOP_INT16,
    OP_LOOP_INT32,
    OP_LOOP_INT64,
    OP_LOOP_UINT8,
    OP_LOOP_UINT16,
    OP_LOOP_UINT32,
    OP_LOOP_UINT64,
    OP_LOOP_AINT,
    OP_LOOP_FLOAT,
    OP_LOOP_DOUBLE,
    OP_LOOP_LDOUBLE,
    OP_LOOP_CFLOAT,
    OP_LOOP_CDOUBLE,
    OP_LOOP_CLDOUBLE,
    OP_LOOP_BOOL,
    OP_LOOP_NKINDS
} op_loop_kind_t;

/* what the predefined ops can do on one basic type */
typedef struct op_basic {
    size_t size;         /* bytes of one element */
    unsigned ops;        /* OP_BIT() of every op the standard (and common practice) allows */
    op_loop_kind_t kind; /* OP_LOOP_NONE when no op applies */
} op_basic_t;

/* x86-64 builds with GCC or clang compile the loops three times (op_loops.c, and under
   a target pragma op_loops_avx2.c and op_loops_avx512.c); other builds once, and so does
   a build with CPPFLAGS=-DOP_HAVE_X86_SIMD=0 (what a non-x86 build compiles) */
#ifndef OP_HAVE_X86_SIMD
#if defined(__x86_64__) && defined(__GNUC__)
#define OP_HAVE_X86_SIMD 1
#else
#define OP_HAVE_X86_SIMD 0
#endif
#endif

/* the tables of op_kernels.h, one per instruction set compiled */
extern const op_loop_fn op_kernels_base[OP_LOOP_NKINDS];
#if OP_HAVE_X86_SIMD
extern const op_loop_fn op_kernels_avx2[OP_LOOP_NKINDS];
extern const op_loop_fn op_kernels_avx512[OP_LOOP_NKINDS];
#endif

/* the loops of the instruction set op_simd_select() chose (the build's baseline until
   then); entry OP_LOOP_NONE is NULL */
extern const op_loop_fn *op_loops_active;

static inline op_loop_fn op_loop(const op_basic_t *bt)
{
    return op_loops_active[bt->kind];
}

/* the instruction sets of the loops, best last */
typedef enum op_simd {
    OP_SIMD_BASE = 0, /* what the build targets (SSE2 on x86-64), on every machine */
    OP_SIMD_AVX2,
    OP_SIMD_AVX512 /* AVX-512 F, BW, DQ and VL */
} op_simd_t;

/* Chooses the loops: the best instruction set that this build has, this processor runs
   and `want` allows ("auto": any; "avx512", "avx2", "base": at most that).  Returns the
   one chosen, or -1 (and changes nothing) when `want` is none of these names. */
int op_simd_select(const char *want);
/* the instruction set of op_loops_active, and its name ("base", "avx2", "avx512") */
op_simd_t op_simd_current(void);
const char *op_simd_name(op_simd_t simd);

/* the entry of basic type `basic` (a predefined datatype index); NULL when out of range */
const op_basic_t *op_basic(int basic);

/* MINLOC/MAXLOC: 1 when one element of `dt` is a sequence of (value, int) pairs whose
   value types MINLOC/MAXLOC accept (float, double, long double, long, int, short) */
int op_loc_valid(const compi_datatype_t *dt);
/* MINLOC/MAXLOC over `count` elements of `dt` (op_loc_valid(dt) must hold) */
void op_loc_apply(int op, const compi_datatype_t *dt, const void *in, void *inout, size_t count);

#endif
