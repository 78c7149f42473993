/*
 * op.h -- reduction operations: the predefined ones on every type the standard allows,
 * and user ops (MPI_Op_create).
 *
 * coll_op_apply() combines `in` into `inout` (inout = in op inout, the order MPI
 * defines), coll_op_apply3() writes a op b to a third buffer, for `count` elements of a datatype, in the datatype's own layout: predefined
 * ops walk the datatype's blocks and apply the typed loop to each block (so derived
 * types built from one basic type, such as vectors of doubles, work); user ops are
 * called with the MPI handle of the datatype, as the standard says.
 *
 * Ownership: predefined ops are static; user ops are refcounted (a closure or a
 * reduction in progress holds a reference).
 */
#ifndef COMPI_OP_H
#define COMPI_OP_H

#include "core/include/compi_status.h"
#include "core/dt/dt.h"
#include "core/runtime/handle.h"

#include <mpi.h>

typedef struct compi_op {
    int handle;
    int commutative;
    int predefined;         /* index MPI_MAX..MPI_NO_OP, or 0 for user ops */
    MPI_User_function *user_fn;
    MPI_User_function_c *user_fn_c; /* MPI_Op_create_c: MPI_Count lengths (user_fn NULL) */
    int refcount;
    const char *name;       /* "MPI_SUM", or "user" */
} compi_op_t;

extern handle_table_t op_table;

static inline compi_op_t *op_from_handle(MPI_Op h)
{
    return (compi_op_t *)handle_get(&op_table, h);
}

compi_status_t op_init(void); /* fills the predefined table (called by MPI_Init) */
void op_finalize(void);
void op_retain(compi_op_t *op);
void op_release(compi_op_t *op);

/* 1 when `op` is defined on every basic type of `dt` (MPI_ERR_OP otherwise) */
int op_valid_for(const compi_op_t *op, const compi_datatype_t *dt);

/* inout[i] = in[i] op inout[i] for `count` elements of `dt` */
compi_status_t coll_op_apply(const compi_op_t *op, compi_datatype_t *dt, const void *in,
                             void *inout, size_t count);

/* out[i] = a[i] op b[i] for `count` elements of `dt`: coll_op_apply with a = in and
   out = b = inout, without copying b into out first when the result goes elsewhere (a
   received block combined with this rank's input straight into the result buffer).
   `out` may be `a` or `b` or overlap neither; partial overlaps are not allowed.  The
   predefined elementwise ops (MAX..BXOR) run one pass over the three buffers; user ops,
   MINLOC and MAXLOC copy b into out and combine there (and set a aside when out == a). */
compi_status_t coll_op_apply3(const compi_op_t *op, compi_datatype_t *dt, const void *a,
                              const void *b, void *out, size_t count);

/* the instruction set the predefined ops' loops use: "base", "avx2" or "avx512" (the
   runtime parameter op_simd, and the processor, decide at op_init) */
const char *op_simd_in_use(void);

#endif
