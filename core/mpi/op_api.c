/*
 * op_api.c -- the MPI reduction-operation API: MPI_Op_create, MPI_Op_free,
 * MPI_Op_commutative, MPI_Reduce_local and the handle conversions.
 *
 * The entry points are generated (core/mpi/gen/op.c, included last).  core/op/op.c
 * trusts its callers.  A user op is an object with a handle and a refcount: MPI_Op_free
 * drops the handle and the user's reference at once, and a closure that still holds the op
 * keeps it alive until it lets go.
 */
#include "core/coll/coll.h"
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"
#include "core/op/op.h"

#include <stdlib.h>

/* MPI_Op_create and MPI_Op_create_c: one of user_fn (int lengths) and user_fn_c is set */
static int op_create_impl(MPI_User_function *user_fn, MPI_User_function_c *user_fn_c, int commute,
                          MPI_Op *op, const char *fn)
{
    compi_op_t *o = calloc(1, sizeof(*o));
    if (o == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    o->commutative = commute != 0;
    o->predefined = 0;
    o->user_fn = user_fn;
    o->user_fn_c = user_fn_c;
    o->refcount = 1;
    o->name = commute ? "user" : "user(non-commutative)";
    if (handle_alloc(&op_table, o, &o->handle) != COMPI_OK) {
        free(o);
        return mpi_err_raise(NULL, MPI_ERR_NO_MEM, fn, "no operation handle left");
    }
    *op = o->handle;
    return MPI_SUCCESS;
}

static int op_free_impl(MPI_Op *op, compi_op_t *op_obj, const char *fn)
{
    if (op_obj->predefined) {
        return mpi_err_raise(NULL, MPI_ERR_OP, fn, "%s is predefined and cannot be freed",
                             op_obj->name);
    }
    handle_free(&op_table, op_obj->handle);
    op_release(op_obj);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

static int op_commutative_impl(compi_op_t *op, int *commute, const char *fn)
{
    (void)fn;
    *commute = op->commutative;
    return MPI_SUCCESS;
}

/* MPI_Reduce_local(_c): the count, the datatype (committed), inoutbuf and the op's handle are
   checked by the entry points; the op on the datatype and inbuf here */
static int reduce_local_impl(const void *inbuf, void *inoutbuf, MPI_Count count,
                             compi_datatype_t *datatype, compi_op_t *op, const char *fn)
{
    /* MPI_REPLACE and MPI_NO_OP exist for one-sided accumulates only */
    if (op->handle == MPI_REPLACE || op->handle == MPI_NO_OP || !op_valid_for(op, datatype)) {
        return mpi_err_raise(NULL, MPI_ERR_OP, fn, "%s is not defined on datatype %s", op->name,
                             dt_name(datatype));
    }
    if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "MPI_IN_PLACE is not allowed here");
    }
    int rc = mpi_arg_buf(NULL, inbuf, (size_t)count, datatype, "inbuf", fn);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    compi_status_t st = coll_op_apply(op, datatype, inbuf, inoutbuf, (size_t)count);
    if (st != COMPI_OK) {
        return mpi_err_raise(NULL, mpi_err_class_of(st), fn, "%s", compi_status_string(st));
    }
    return MPI_SUCCESS;
}

#include "core/mpi/gen/op.c"
