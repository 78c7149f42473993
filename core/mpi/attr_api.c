/*
 * attr_api.c -- attribute caching on communicators and datatypes (MPI_Comm_*_attr,
 * MPI_Type_*_attr, their keyvals, and the MPI-1 names Keyval_* / Attr_*): the
 * implementations; the entry points, which check the handles and pointers, are generated
 * (core/mpi/gen/attr.c, included last).  Whether a keyval is valid for the object is
 * core/comm/attr.c's answer (MPI_ERR_KEYVAL).
 */
#include "core/comm/attr.h"

#include "core/mpi/args.h"
#include "core/mpi/fortran_hooks.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"

/* The attribute callbacks that copy the value pointer itself. */
int MPI_COMM_DUP_FN(MPI_Comm comm, int keyval, void *extra_state, void *attribute_val_in,
                    void *attribute_val_out, int *flag)
{
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

int MPI_TYPE_DUP_FN(MPI_Datatype type, int keyval, void *extra_state, void *attribute_val_in,
                    void *attribute_val_out, int *flag)
{
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* one error path for everything an attribute call can run into */
static int attr_failed(compi_comm_t *c, const char *func, compi_status_t st, int keyval,
                       int cb_code)
{
    if (st == COMPI_ERR_NOT_FOUND) {
        return mpi_err_raise(c, MPI_ERR_KEYVAL, func,
                             "keyval=%d is not a valid key of this kind of object (freed, "
                             "predefined or never created)",
                             keyval);
    }
    if (st == ATTR_ERR_CALLBACK && cb_code != MPI_SUCCESS) {
        return mpi_err_raise(c, cb_code, func, "attribute callback for keyval=%d returned %d",
                             keyval, cb_code);
    }
    return mpi_err_raise(c, mpi_err_class_of(st), func, "%s", compi_status_string(st));
}

/* ---- keyvals ---------------------------------------------------------------------- */

static int keyval_create(const char *func, attr_kind_t kind, attr_copy_fn_t *copy_fn,
                         attr_delete_fn_t *delete_fn, int *keyval, void *extra_state)
{
    compi_status_t st = attr_keyval_create(kind, copy_fn, delete_fn, extra_state, keyval);
    if (st != COMPI_OK) {
        return attr_failed(NULL, func, st, 0, MPI_SUCCESS);
    }
    return MPI_SUCCESS;
}

static int keyval_free(const char *func, attr_kind_t kind, int *keyval)
{
    compi_status_t st = attr_keyval_free(kind, keyval);
    if (st != COMPI_OK) {
        return attr_failed(NULL, func, st, *keyval, MPI_SUCCESS);
    }
    return MPI_SUCCESS;
}

static int comm_create_keyval_impl(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                   MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                                   int *comm_keyval, void *extra_state, const char *fn)
{
    return keyval_create(fn, ATTR_KIND_COMM, comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval,
                         extra_state);
}

static int comm_free_keyval_impl(int *comm_keyval, const char *fn)
{
    return keyval_free(fn, ATTR_KIND_COMM, comm_keyval);
}

static int keyval_create_impl(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn,
                              int *keyval, void *extra_state, const char *fn)
{
    return keyval_create(fn, ATTR_KIND_COMM, copy_fn, delete_fn, keyval, extra_state);
}

static int keyval_free_impl(int *keyval, const char *fn)
{
    return keyval_free(fn, ATTR_KIND_COMM, keyval);
}

static int type_create_keyval_impl(MPI_Type_copy_attr_function *type_copy_attr_fn,
                                   MPI_Type_delete_attr_function *type_delete_attr_fn,
                                   int *type_keyval, void *extra_state, const char *fn)
{
    return keyval_create(fn, ATTR_KIND_TYPE, type_copy_attr_fn, type_delete_attr_fn, type_keyval,
                         extra_state);
}

static int type_free_keyval_impl(int *type_keyval, const char *fn)
{
    return keyval_free(fn, ATTR_KIND_TYPE, type_keyval);
}

/* ---- communicator attributes (the MPI-1 names Attr_* share them) ------------------- */

static int comm_set_attr_impl(compi_comm_t *comm, int comm_keyval, void *attribute_val,
                              const char *fn)
{
    int cb_code = MPI_SUCCESS;
    compi_status_t st =
        attr_set(ATTR_KIND_COMM, comm->handle, &comm->attrs, comm_keyval, attribute_val, &cb_code);
    return st == COMPI_OK ? MPI_SUCCESS : attr_failed(comm, fn, st, comm_keyval, cb_code);
}

static int comm_get_attr_impl(compi_comm_t *comm, int comm_keyval, void *attribute_val, int *flag,
                              const char *fn)
{
    /* attribute_val is really a void ** (MPI's C binding types it as void *) */
    compi_status_t st = attr_comm_get(comm, comm_keyval, (void **)attribute_val, flag);
    return st == COMPI_OK ? MPI_SUCCESS : attr_failed(comm, fn, st, comm_keyval, MPI_SUCCESS);
}

static int comm_delete_attr_impl(compi_comm_t *comm, int comm_keyval, const char *fn)
{
    int cb_code = MPI_SUCCESS;
    compi_status_t st =
        attr_delete(ATTR_KIND_COMM, comm->handle, &comm->attrs, comm_keyval, &cb_code);
    return st == COMPI_OK ? MPI_SUCCESS : attr_failed(comm, fn, st, comm_keyval, cb_code);
}

static int attr_put_impl(compi_comm_t *comm, int keyval, void *attribute_val, const char *fn)
{
    return comm_set_attr_impl(comm, keyval, attribute_val, fn);
}

static int attr_get_impl(compi_comm_t *comm, int keyval, void *attribute_val, int *flag,
                         const char *fn)
{
    return comm_get_attr_impl(comm, keyval, attribute_val, flag, fn);
}

static int attr_delete_impl(compi_comm_t *comm, int keyval, const char *fn)
{
    return comm_delete_attr_impl(comm, keyval, fn);
}

/* ---- datatype attributes ---------------------------------------------------------- */

static int type_set_attr_impl(compi_datatype_t *datatype, int type_keyval, void *attribute_val,
                              const char *fn)
{
    int cb_code = MPI_SUCCESS;
    compi_status_t st = attr_set(ATTR_KIND_TYPE, datatype->handle, &datatype->attrs, type_keyval,
                                 attribute_val, &cb_code);
    return st == COMPI_OK ? MPI_SUCCESS : attr_failed(NULL, fn, st, type_keyval, cb_code);
}

static int type_get_attr_impl(compi_datatype_t *datatype, int type_keyval, void *attribute_val,
                              int *flag, const char *fn)
{
    compi_status_t st =
        attr_get(ATTR_KIND_TYPE, datatype->attrs, type_keyval, (void **)attribute_val, flag);
    return st == COMPI_OK ? MPI_SUCCESS : attr_failed(NULL, fn, st, type_keyval, MPI_SUCCESS);
}

static int type_delete_attr_impl(compi_datatype_t *datatype, int type_keyval, const char *fn)
{
    int cb_code = MPI_SUCCESS;
    compi_status_t st =
        attr_delete(ATTR_KIND_TYPE, datatype->handle, &datatype->attrs, type_keyval, &cb_code);
    return st == COMPI_OK ? MPI_SUCCESS : attr_failed(NULL, fn, st, type_keyval, cb_code);
}

/* ---- from Fortran (core/mpi/fortran_hooks.h) ------------------------------------- */

COMPI_STATIC_ASSERT(COMPI_FORTRAN_INT == ATTR_FORM_FINT && COMPI_FORTRAN_AINT == ATTR_FORM_AINT,
                    "the hooks' forms are attr.h's");
COMPI_STATIC_ASSERT(COMPI_FORTRAN_COMM == ATTR_KIND_COMM && COMPI_FORTRAN_TYPE == ATTR_KIND_TYPE &&
                        COMPI_FORTRAN_WIN == ATTR_KIND_WIN,
                    "the hooks' kinds are attr.h's");

static int fortran_form(int form)
{
    return form == COMPI_FORTRAN_INT || form == COMPI_FORTRAN_AINT;
}

int compi_fortran_keyval(int kind, int keyval, int form)
{
    /* the MPI procedure that made the keyval, for its errors */
    const char *fn = kind == ATTR_KIND_TYPE  ? "MPI_Type_create_keyval"
                     : kind == ATTR_KIND_WIN ? "MPI_Win_create_keyval"
                                             : "MPI_Comm_create_keyval";
    COMPI_CHECK_INIT(fn);
    if (!fortran_form(form) || kind < ATTR_KIND_COMM || kind > ATTR_KIND_WIN) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "form %d of kind %d", form, kind);
    }
    compi_status_t st = attr_keyval_fortran((attr_kind_t)kind, keyval, (attr_form_t)form);
    return st == COMPI_OK ? MPI_SUCCESS : attr_failed(NULL, fn, st, keyval, MPI_SUCCESS);
}

int compi_fortran_comm_set_attr(MPI_Comm comm, int keyval, MPI_Aint val, int form)
{
    COMPI_CHECK_INIT("MPI_Comm_set_attr");
    const char *fn = form == COMPI_FORTRAN_INT ? "MPI_Attr_put" : "MPI_Comm_set_attr";
    compi_comm_t *c = NULL;
    int cb_code = MPI_SUCCESS;
    int rc = mpi_arg_comm(comm, fn, &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (!fortran_form(form)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "form %d", form);
    }
    compi_status_t st = attr_set_int(ATTR_KIND_COMM, c->handle, &c->attrs, keyval, val,
                                     (attr_form_t)form, &cb_code);
    return st == COMPI_OK ? MPI_SUCCESS : attr_failed(c, fn, st, keyval, cb_code);
}

int compi_fortran_comm_get_attr(MPI_Comm comm, int keyval, MPI_Aint *val, int *flag, int form)
{
    COMPI_CHECK_INIT("MPI_Comm_get_attr");
    const char *fn = form == COMPI_FORTRAN_INT ? "MPI_Attr_get" : "MPI_Comm_get_attr";
    compi_comm_t *c = NULL;
    int rc = mpi_arg_comm(comm, fn, &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    compi_status_t st = attr_comm_get_int(c, keyval, val, flag);
    return st == COMPI_OK ? MPI_SUCCESS : attr_failed(c, fn, st, keyval, MPI_SUCCESS);
}

int compi_fortran_type_set_attr(MPI_Datatype type, int keyval, MPI_Aint val)
{
    COMPI_CHECK_INIT("MPI_Type_set_attr");
    static const char fn[] = "MPI_Type_set_attr";
    compi_datatype_t *dt = NULL;
    int cb_code = MPI_SUCCESS;
    int rc = mpi_arg_type_valid(NULL, type, "datatype", fn, &dt);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    compi_status_t st =
        attr_set_int(ATTR_KIND_TYPE, dt->handle, &dt->attrs, keyval, val, ATTR_FORM_AINT, &cb_code);
    return st == COMPI_OK ? MPI_SUCCESS : attr_failed(NULL, fn, st, keyval, cb_code);
}

int compi_fortran_type_get_attr(MPI_Datatype type, int keyval, MPI_Aint *val, int *flag)
{
    COMPI_CHECK_INIT("MPI_Type_get_attr");
    static const char fn[] = "MPI_Type_get_attr";
    compi_datatype_t *dt = NULL;
    int rc = mpi_arg_type_valid(NULL, type, "datatype", fn, &dt);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    compi_status_t st = attr_get_int(ATTR_KIND_TYPE, dt->attrs, keyval, val, flag);
    return st == COMPI_OK ? MPI_SUCCESS : attr_failed(NULL, fn, st, keyval, MPI_SUCCESS);
}

#include "core/mpi/gen/attr.c"
