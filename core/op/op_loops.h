/*
 * op_loops.h -- the typed loops behind the predefined reduction operations, shared by
 * op.c (dispatch, validity), op_loops.c (arithmetic, logical and bitwise loops) and
 * op_loc.c (MINLOC/MAXLOC on value-index pairs).  Only core/coll/op*.c include this.
 *
 * Ownership: everything here is static and const; nothing is allocated.
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

/* inout[i] = in[i] op inout[i] for n elements of one basic type */
typedef void (*op_loop_fn)(int op, const void *in, void *inout, size_t n);

/* what the predefined ops can do on one basic type */
typedef struct op_basic {
    size_t size;     /* bytes of one element */
    unsigned ops;    /* OP_BIT() of every op the standard (and common practice) allows */
    op_loop_fn loop; /* NULL when no op applies */
} op_basic_t;

/* the entry of basic type `basic` (a predefined datatype index); NULL when out of range */
const op_basic_t *op_basic(int basic);

/* MINLOC/MAXLOC: 1 when one element of `dt` is a sequence of (value, int) pairs whose
   value types MINLOC/MAXLOC accept (float, double, long double, long, int, short) */
int op_loc_valid(const compi_datatype_t *dt);
/* MINLOC/MAXLOC over `count` elements of `dt` (op_loc_valid(dt) must hold) */
void op_loc_apply(int op, const compi_datatype_t *dt, const void *in, void *inout, size_t count);

#endif
