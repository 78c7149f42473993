/*
 * attr_api.c -- attribute caching on communicators and datatypes (MPI_Comm_*_attr,
 * MPI_Type_*_attr, their keyvals, and the MPI-1 names Keyval_* / Attr_*).
 */
#include "core/comm/attr.h"

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

static int bad_comm(const char *func, MPI_Comm h)
{
    return mpi_err_raise(NULL, MPI_ERR_COMM, func, "invalid communicator handle 0x%x", (unsigned)h);
}

static int bad_type(const char *func, MPI_Datatype h)
{
    return mpi_err_raise(NULL, MPI_ERR_TYPE, func, "invalid datatype handle 0x%x", (unsigned)h);
}

static int null_arg(compi_comm_t *c, const char *func, const char *what)
{
    return mpi_err_raise(c, MPI_ERR_ARG, func, "%s is NULL", what);
}

/* ---- keyvals ---------------------------------------------------------------------- */

static int keyval_create(const char *func, attr_kind_t kind, attr_copy_fn_t *copy_fn,
                         attr_delete_fn_t *delete_fn, int *keyval, void *extra_state)
{
    compi_status_t st;
    if (keyval == NULL) {
        return null_arg(NULL, func, "keyval");
    }
    st = attr_keyval_create(kind, copy_fn, delete_fn, extra_state, keyval);
    if (st != COMPI_OK) {
        return attr_failed(NULL, func, st, 0, MPI_SUCCESS);
    }
    return MPI_SUCCESS;
}

static int keyval_free(const char *func, attr_kind_t kind, int *keyval)
{
    compi_status_t st;
    if (keyval == NULL) {
        return null_arg(NULL, func, "keyval");
    }
    st = attr_keyval_free(kind, keyval);
    if (st != COMPI_OK) {
        return attr_failed(NULL, func, st, *keyval, MPI_SUCCESS);
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_create_keyval = PMPI_Comm_create_keyval
int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                            void *extra_state)
{
    COMPI_CHECK_INIT("MPI_Comm_create_keyval");
    return keyval_create("MPI_Comm_create_keyval", ATTR_KIND_COMM, comm_copy_attr_fn,
                         comm_delete_attr_fn, comm_keyval, extra_state);
}

#pragma weak MPI_Comm_free_keyval = PMPI_Comm_free_keyval
int PMPI_Comm_free_keyval(int *comm_keyval)
{
    COMPI_CHECK_INIT("MPI_Comm_free_keyval");
    return keyval_free("MPI_Comm_free_keyval", ATTR_KIND_COMM, comm_keyval);
}

#pragma weak MPI_Keyval_create = PMPI_Keyval_create
int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                       void *extra_state)
{
    COMPI_CHECK_INIT("MPI_Keyval_create");
    return keyval_create("MPI_Keyval_create", ATTR_KIND_COMM, copy_fn, delete_fn, keyval,
                         extra_state);
}

#pragma weak MPI_Keyval_free = PMPI_Keyval_free
int PMPI_Keyval_free(int *keyval)
{
    COMPI_CHECK_INIT("MPI_Keyval_free");
    return keyval_free("MPI_Keyval_free", ATTR_KIND_COMM, keyval);
}

#pragma weak MPI_Type_create_keyval = PMPI_Type_create_keyval
int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                            void *extra_state)
{
    COMPI_CHECK_INIT("MPI_Type_create_keyval");
    return keyval_create("MPI_Type_create_keyval", ATTR_KIND_TYPE, type_copy_attr_fn,
                         type_delete_attr_fn, type_keyval, extra_state);
}

#pragma weak MPI_Type_free_keyval = PMPI_Type_free_keyval
int PMPI_Type_free_keyval(int *type_keyval)
{
    COMPI_CHECK_INIT("MPI_Type_free_keyval");
    return keyval_free("MPI_Type_free_keyval", ATTR_KIND_TYPE, type_keyval);
}

/* ---- communicator attributes ------------------------------------------------------ */

static int comm_set(const char *func, MPI_Comm comm, int keyval, void *val)
{
    compi_comm_t *c = comm_from_handle(comm);
    int cb_code = MPI_SUCCESS;
    compi_status_t st;
    if (c == NULL) {
        return bad_comm(func, comm);
    }
    st = attr_set(ATTR_KIND_COMM, c->handle, &c->attrs, keyval, val, &cb_code);
    return st == COMPI_OK ? MPI_SUCCESS : attr_failed(c, func, st, keyval, cb_code);
}

static int comm_get(const char *func, MPI_Comm comm, int keyval, void *val, int *flag)
{
    compi_comm_t *c = comm_from_handle(comm);
    compi_status_t st;
    if (c == NULL) {
        return bad_comm(func, comm);
    }
    if (val == NULL || flag == NULL) {
        return null_arg(c, func, val == NULL ? "attribute_val" : "flag");
    }
    /* attribute_val is really a void ** (MPI's C binding types it as void *) */
    st = attr_comm_get(c, keyval, (void **)val, flag);
    return st == COMPI_OK ? MPI_SUCCESS : attr_failed(c, func, st, keyval, MPI_SUCCESS);
}

static int comm_del(const char *func, MPI_Comm comm, int keyval)
{
    compi_comm_t *c = comm_from_handle(comm);
    int cb_code = MPI_SUCCESS;
    compi_status_t st;
    if (c == NULL) {
        return bad_comm(func, comm);
    }
    st = attr_delete(ATTR_KIND_COMM, c->handle, &c->attrs, keyval, &cb_code);
    return st == COMPI_OK ? MPI_SUCCESS : attr_failed(c, func, st, keyval, cb_code);
}

#pragma weak MPI_Comm_set_attr = PMPI_Comm_set_attr
int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    COMPI_CHECK_INIT("MPI_Comm_set_attr");
    return comm_set("MPI_Comm_set_attr", comm, comm_keyval, attribute_val);
}

#pragma weak MPI_Comm_get_attr = PMPI_Comm_get_attr
int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    COMPI_CHECK_INIT("MPI_Comm_get_attr");
    return comm_get("MPI_Comm_get_attr", comm, comm_keyval, attribute_val, flag);
}

#pragma weak MPI_Comm_delete_attr = PMPI_Comm_delete_attr
int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    COMPI_CHECK_INIT("MPI_Comm_delete_attr");
    return comm_del("MPI_Comm_delete_attr", comm, comm_keyval);
}

#pragma weak MPI_Attr_put = PMPI_Attr_put
int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    COMPI_CHECK_INIT("MPI_Attr_put");
    return comm_set("MPI_Attr_put", comm, keyval, attribute_val);
}

#pragma weak MPI_Attr_get = PMPI_Attr_get
int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    COMPI_CHECK_INIT("MPI_Attr_get");
    return comm_get("MPI_Attr_get", comm, keyval, attribute_val, flag);
}

#pragma weak MPI_Attr_delete = PMPI_Attr_delete
int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
    COMPI_CHECK_INIT("MPI_Attr_delete");
    return comm_del("MPI_Attr_delete", comm, keyval);
}

/* ---- datatype attributes ---------------------------------------------------------- */

#pragma weak MPI_Type_set_attr = PMPI_Type_set_attr
int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    COMPI_CHECK_INIT("MPI_Type_set_attr");
    compi_datatype_t *dt = dt_from_handle(datatype);
    int cb_code = MPI_SUCCESS;
    compi_status_t st;
    if (dt == NULL) {
        return bad_type("MPI_Type_set_attr", datatype);
    }
    st = attr_set(ATTR_KIND_TYPE, dt->handle, &dt->attrs, type_keyval, attribute_val, &cb_code);
    return st == COMPI_OK ? MPI_SUCCESS
                          : attr_failed(NULL, "MPI_Type_set_attr", st, type_keyval, cb_code);
}

#pragma weak MPI_Type_get_attr = PMPI_Type_get_attr
int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    COMPI_CHECK_INIT("MPI_Type_get_attr");
    compi_datatype_t *dt = dt_from_handle(datatype);
    compi_status_t st;
    if (dt == NULL) {
        return bad_type("MPI_Type_get_attr", datatype);
    }
    if (attribute_val == NULL || flag == NULL) {
        return null_arg(NULL, "MPI_Type_get_attr",
                        attribute_val == NULL ? "attribute_val" : "flag");
    }
    st = attr_get(ATTR_KIND_TYPE, dt->attrs, type_keyval, (void **)attribute_val, flag);
    return st == COMPI_OK ? MPI_SUCCESS
                          : attr_failed(NULL, "MPI_Type_get_attr", st, type_keyval, MPI_SUCCESS);
}

#pragma weak MPI_Type_delete_attr = PMPI_Type_delete_attr
int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    COMPI_CHECK_INIT("MPI_Type_delete_attr");
    compi_datatype_t *dt = dt_from_handle(datatype);
    int cb_code = MPI_SUCCESS;
    compi_status_t st;
    if (dt == NULL) {
        return bad_type("MPI_Type_delete_attr", datatype);
    }
    st = attr_delete(ATTR_KIND_TYPE, dt->handle, &dt->attrs, type_keyval, &cb_code);
    return st == COMPI_OK ? MPI_SUCCESS
                          : attr_failed(NULL, "MPI_Type_delete_attr", st, type_keyval, cb_code);
}
