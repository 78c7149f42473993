/*
 * op_api.c -- the MPI reduction-operation API: MPI_Op_create, MPI_Op_free,
 * MPI_Op_commutative, MPI_Reduce_local and the handle conversions.
 *
 * Argument checks live here; core/op/op.c trusts its callers.  A user op is an object
 * with a handle and a refcount: MPI_Op_free drops the handle and the user's reference at
 * once, and a closure that still holds the op keeps it alive until it lets go.
 */
#include "core/coll/coll.h"
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

#pragma weak MPI_Op_create = PMPI_Op_create
int PMPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    COMPI_CHECK_INIT("MPI_Op_create");
    if (user_fn == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Op_create", "user function is NULL");
    }
    if (op == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Op_create", "op pointer is NULL");
    }
    compi_op_t *o = calloc(1, sizeof(*o));
    if (o == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_NO_MEM, "MPI_Op_create", "out of memory");
    }
    o->commutative = commute != 0;
    o->predefined = 0;
    o->user_fn = user_fn;
    o->refcount = 1;
    o->name = commute ? "user" : "user(non-commutative)";
    if (handle_alloc(&op_table, o, &o->handle) != COMPI_OK) {
        free(o);
        return mpi_err_raise(NULL, MPI_ERR_NO_MEM, "MPI_Op_create", "no operation handle left");
    }
    *op = o->handle;
    return MPI_SUCCESS;
}

#pragma weak MPI_Op_free = PMPI_Op_free
int PMPI_Op_free(MPI_Op *op)
{
    compi_op_t *o;
    COMPI_CHECK_INIT("MPI_Op_free");
    if (op == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Op_free", "op pointer is NULL");
    }
    int rc = op__lookup(*op, "MPI_Op_free", &o);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (o->predefined) {
        return mpi_err_raise(NULL, MPI_ERR_OP, "MPI_Op_free",
                             "%s is predefined and cannot be freed", o->name);
    }
    handle_free(&op_table, o->handle);
    op_release(o);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

#pragma weak MPI_Op_commutative = PMPI_Op_commutative
int PMPI_Op_commutative(MPI_Op op, int *commute)
{
    compi_op_t *o;
    COMPI_CHECK_INIT("MPI_Op_commutative");
    int rc = op__lookup(op, "MPI_Op_commutative", &o);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (commute == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Op_commutative", "commute pointer is NULL");
    }
    *commute = o->commutative;
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
