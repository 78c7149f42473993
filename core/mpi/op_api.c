/*
 * op_api.c -- the MPI reduction-operation API: MPI_Op_create, MPI_Op_free,
 * MPI_Op_commutative, MPI_Reduce_local and the handle conversions.
 *
 * The entry points of MPI_Op_create(_c), MPI_Op_free and MPI_Op_commutative are generated
 * (core/mpi/gen/op.c, included last); MPI_Reduce_local's, which checks two buffers of one
 * count and datatype, is written here.  core/op/op.c trusts its callers.  A user op is an object
 * with a handle and a refcount: MPI_Op_free drops the handle and the user's reference at
 * once, and a closure that still holds the op keeps it alive until it lets go.
 */
#include "core/coll/coll.h"
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"
#include "core/op/op.h"

#include <stdlib.h>

static int op__lookup(MPI_Op h, const char *fn, compi_op_t **op_p)
{
    *op_p = op_from_handle(h);
    if (compi_unlikely(*op_p == NULL)) {
        return mpi_err_raise(NULL, MPI_ERR_OP, fn, "invalid operation (handle 0x%x)", (unsigned)h);
    }
    return MPI_SUCCESS;
}

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

/* MPI_Reduce_local(_c) */
static int reduce_local_impl(const void *inbuf, void *inoutbuf, MPI_Count count,
                             MPI_Datatype datatype, MPI_Op op, const char *fn)
{
    compi_op_t *o;
    if (count < 0) {
        return mpi_err_raise(NULL, MPI_ERR_COUNT, fn, "count=%lld is negative", (long long)count);
    }
    compi_datatype_t *dt = dt_from_handle(datatype);
    if (dt == NULL || (!dt->committed && !dt->predefined)) {
        return mpi_err_raise(NULL, MPI_ERR_TYPE, fn, "%s datatype (handle 0x%x)",
                             dt == NULL ? "invalid" : "uncommitted", (unsigned)datatype);
    }
    int rc = op__lookup(op, fn, &o);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    /* MPI_REPLACE and MPI_NO_OP exist for one-sided accumulates only */
    if (o->handle == MPI_REPLACE || o->handle == MPI_NO_OP || !op_valid_for(o, dt)) {
        return mpi_err_raise(NULL, MPI_ERR_OP, fn, "%s is not defined on datatype %s", o->name,
                             dt_name(dt));
    }
    if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "MPI_IN_PLACE is not allowed here");
    }
    if (count > 0 && dt->size > 0 && dt->true_lb == 0 && (inbuf == NULL || inoutbuf == NULL)) {
        return mpi_err_raise(NULL, MPI_ERR_BUFFER, fn, "%s is NULL with count=%lld",
                             inbuf == NULL ? "inbuf" : "inoutbuf", (long long)count);
    }
    compi_status_t st = coll_op_apply(o, dt, inbuf, inoutbuf, (size_t)count);
    if (st != COMPI_OK) {
        return mpi_err_raise(NULL, mpi_err_class_of(st), fn, "%s", compi_status_string(st));
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Reduce_local = PMPI_Reduce_local
int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
                      MPI_Op op)
{
    COMPI_CHECK_INIT("MPI_Reduce_local");
    return reduce_local_impl(inbuf, inoutbuf, count, datatype, op, "MPI_Reduce_local");
}

#pragma weak MPI_Reduce_local_c = PMPI_Reduce_local_c
int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Op op)
{
    COMPI_CHECK_INIT("MPI_Reduce_local_c");
    return reduce_local_impl(inbuf, inoutbuf, count, datatype, op, "MPI_Reduce_local_c");
}

#include "core/mpi/gen/op.c"
