/*
 * bigcount_api.c -- the MPI-4 large-count (_c) functions of operations.
 *
 * Point-to-point, the attached buffer, the statuses, the datatypes (constructors,
 * queries, packing) and the collectives with scalar counts carry an MPI_Count down to
 * the engines: their _c functions are generated beside their int ones (core/mpi/gen/) or
 * sit beside them (coll_api.c, ...) and share their implementation.
 */
#include "core/dt/dt.h"
#include "core/mpi/bigcount.h"
#include "core/mpi/status_word.h"
#include "core/op/op.h"

/* ---- operations --------------------------------------------------------------------- */

BC_WEAK(Op_create_c)
int PMPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    static const char fn[] = "MPI_Op_create_c";
    COMPI_CHECK_INIT(fn);
    if (user_fn == NULL || op == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "user function or op pointer is NULL");
    }
    compi_op_t *o = calloc(1, sizeof(*o));
    if (o == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    o->commutative = commute != 0;
    o->predefined = 0;
    o->user_fn_c = user_fn;
    o->refcount = 1;
    o->name = commute ? "user" : "user(non-commutative)";
    if (handle_alloc(&op_table, o, &o->handle) != COMPI_OK) {
        free(o);
        return mpi_err_raise(NULL, MPI_ERR_NO_MEM, fn, "no operation handle left");
    }
    *op = o->handle;
    return MPI_SUCCESS;
}
