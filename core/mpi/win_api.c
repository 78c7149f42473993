/*
 * win_api.c -- windows: MPI_Win_create, _allocate, _allocate_shared, _create_dynamic and
 * MPI_Win_free; attach and detach; MPI_Win_shared_query; the window's group, name,
 * hints, attributes (keyvals of core/comm/attr.c, kind ATTR_KIND_WIN) and error
 * handlers.  The transfers are in rma_api.c, the synchronisation in win_sync_api.c.
 * The entry points are generated (core/mpi/gen/win.c): the calls on a window check it, its
 * arguments and output pointers on the window (core/mpi/win_args.h); the constructors
 * check theirs on the communicator (core/mpi/args.h).  The keyvals are written here.
 *
 * A window gets its own communicator, made from the user's (MPI_Comm_create of the whole
 * group: no attributes copied) with MPI_ERRORS_RETURN, on which the window's collectives
 * (MPI_Win_fence, MPI_Win_free) run through the trampolines like any other collective.
 * Windows over ranks of several hosts take the active-message transport (core/osc/osc_am.c);
 * MPI_Win_allocate_shared needs every rank on this host (MPI_ERR_RMA_SHARED otherwise).
 */
#include "core/mpi/win_args.h"

#include "core/comm/attr.h"
#include "core/mpi/fortran_hooks.h"
#include "core/comm/errhandler.h"
#include "core/mpi/info.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

int MPI_WIN_DUP_FN(MPI_Win win, int keyval, void *extra_state, void *attribute_val_in,
                   void *attribute_val_out, int *flag)
{
    (void)win, (void)keyval, (void)extra_state;
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* ---- creation and free ------------------------------------------------------------- */

/* a window of `flavor` over c (the entry point checked the communicator, size, disp_unit,
   hints and pointers) */
static int win_new(const char *fn, compi_comm_t *c, MPI_Info info, int flavor, MPI_Aint size,
                   MPI_Aint disp_unit, void *base, void *baseptr, MPI_Win *win)
{
    compi_comm_t *ic = NULL;
    mpi_win_t *w = NULL;
    compi_status_t st;

    if (comm_is_inter(c)) {
        return mpi_err_raise(c, MPI_ERR_COMM, fn, "windows need an intracommunicator");
    }
    if (flavor == MPI_WIN_FLAVOR_SHARED && !osc_comm_local(c)) {
        return mpi_err_raise(c, MPI_ERR_RMA_SHARED, fn,
                             "the ranks of the communicator are not all on one host: shared "
                             "memory needs them on one (MPI_Comm_split_type with "
                             "MPI_COMM_TYPE_SHARED gives such communicators)");
    }
    st = comm_create_from_group(c, c->group, &ic);
    if (st != COMPI_OK || ic == NULL) {
        return mpi_err_raise(c, mpi_err_class_of(st), fn, "the window's communicator: %s",
                             compi_status_string(st));
    }
    comm_set_errhandler(ic, errh_predefined(ERRH_RETURN));
    compi_win_t *ow = NULL;
    st = osc_win_create(ic, flavor, (size_t)size, disp_unit, base, &ow);
    if (st == COMPI_OK) {
        st = mpi_win_new(ow, &w);
    }
    if (st != COMPI_OK) {
        return mpi_err_raise(c, st == COMPI_ERR_IO ? MPI_ERR_NO_MEM : mpi_err_class_of(st), fn,
                             "window creation failed: %s", compi_status_string(st));
    }
    if (mpi_info_dup(info, &w->info) != MPI_SUCCESS) {
        w->info = MPI_INFO_NULL;
    }
    w->attr_size = flavor == MPI_WIN_FLAVOR_DYNAMIC ? 0 : size;
    w->attr_disp_unit = disp_unit;
    w->attr_flavor = flavor;
    w->attr_model = w->osc->model;
    if (baseptr != NULL) {
        *(void **)baseptr = w->osc->base;
    }
    *win = w->handle;
    return MPI_SUCCESS;
}

static int win_create_impl(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                           compi_comm_t *comm, MPI_Win *win, const char *fn)
{
    return win_new(fn, comm, info, MPI_WIN_FLAVOR_CREATE, size, disp_unit, base, NULL, win);
}

static int win_allocate_impl(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, compi_comm_t *comm,
                             void *baseptr, MPI_Win *win, const char *fn)
{
    return win_new(fn, comm, info, MPI_WIN_FLAVOR_ALLOCATE, size, disp_unit, NULL, baseptr, win);
}

static int win_allocate_shared_impl(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info,
                                    compi_comm_t *comm, void *baseptr, MPI_Win *win, const char *fn)
{
    return win_new(fn, comm, info, MPI_WIN_FLAVOR_SHARED, size, disp_unit, NULL, baseptr, win);
}

static int win_create_dynamic_impl(MPI_Info info, compi_comm_t *comm, MPI_Win *win, const char *fn)
{
    return win_new(fn, comm, info, MPI_WIN_FLAVOR_DYNAMIC, 0, 1, NULL, NULL, win);
}

static int win_free_impl(MPI_Win *win, mpi_win_t *w, const char *fn)
{
    int cb_code = MPI_SUCCESS;
    if (w->nlocks > 0 || w->lock_all || w->osc->access != NULL || w->osc->exposure_open) {
        return win_err(w, MPI_ERR_RMA_SYNC, fn,
                       "an epoch is still open (a lock, MPI_Win_start or MPI_Win_post "
                       "without its end)");
    }
    if (attr_delete_all(ATTR_KIND_WIN, w->handle, &w->attrs, &cb_code) != COMPI_OK) {
        return win_err(w, cb_code != MPI_SUCCESS ? cb_code : MPI_ERR_OTHER, fn,
                       "an attribute delete callback returned error %d", cb_code);
    }
    /* every rank is done with the others' memory before any goes */
    int rc = PMPI_Barrier(w->osc->comm->handle);
    if (rc != MPI_SUCCESS) {
        return win_err(w, rc, fn, "the closing barrier failed");
    }
    mpi_win_free(w);
    *win = MPI_WIN_NULL;
    return MPI_SUCCESS;
}

/* ---- dynamic windows --------------------------------------------------------------- */

static int win_attach_impl(mpi_win_t *w, void *base, MPI_Aint size, const char *fn)
{
    if (w->attr_flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        return win_err(w, MPI_ERR_RMA_FLAVOR, fn, "the window is not dynamic");
    }
    if (base == NULL && size > 0) {
        return win_err(w, MPI_ERR_ARG, fn, "base is NULL");
    }
    compi_status_t st = osc_attach(w->osc, base, (size_t)size);
    if (st == COMPI_ERR_NO_MEMORY) {
        return win_err(w, MPI_ERR_NO_MEM, fn, "no memory for one more attached region");
    }
    if (st != COMPI_OK) {
        return win_err(w, MPI_ERR_RMA_ATTACH, fn, "[%p, +%ld) overlaps a region attached already",
                       base, (long)size);
    }
    return MPI_SUCCESS;
}

static int win_detach_impl(mpi_win_t *w, const void *base, const char *fn)
{
    if (w->attr_flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        return win_err(w, MPI_ERR_RMA_FLAVOR, fn, "the window is not dynamic");
    }
    if (osc_detach(w->osc, base) != COMPI_OK) {
        return win_err(w, MPI_ERR_RMA_ATTACH, fn, "no region attached at %p", base);
    }
    return MPI_SUCCESS;
}

/* both forms: the displacement unit as an MPI_Aint (the int form's entry point gives it back
   as the int compi keeps) */
static int win_shared_query_impl(mpi_win_t *w, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                                 void *baseptr, const char *fn)
{
    /* MPI-4.1: on windows of MPI_Win_create and MPI_Win_allocate too, where only the
       memory this rank can load and store is given (the others' size 0, address NULL) */
    if (w->attr_flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        return win_err(w, MPI_ERR_RMA_FLAVOR, fn,
                       "a dynamic window has no segment to query (MPI_Win_allocate_shared, "
                       "MPI_Win_allocate and MPI_Win_create windows have)");
    }
    size_t sz = 0;
    void *b = NULL;
    int du = 0;
    osc_shared_query(w->osc, rank, &sz, &du, &b);
    *size = (MPI_Aint)sz;
    *disp_unit = du;
    *(void **)baseptr = b;
    return MPI_SUCCESS;
}

/* ---- group, name, hints ------------------------------------------------------------ */

static int win_get_group_impl(mpi_win_t *w, MPI_Group *group, const char *fn)
{
    (void)fn;
    return PMPI_Comm_group(w->osc->comm->handle, group);
}

static int win_set_name_impl(mpi_win_t *w, const char *win_name, const char *fn)
{
    (void)fn;
    /* longer names are truncated, as MPI allows */
    snprintf(w->name, sizeof(w->name), "%s", win_name);
    return MPI_SUCCESS;
}

static int win_get_name_impl(mpi_win_t *w, char *win_name, int *resultlen, const char *fn)
{
    (void)fn;
    snprintf(win_name, MPI_MAX_OBJECT_NAME, "%s", w->name);
    *resultlen = (int)strlen(win_name);
    return MPI_SUCCESS;
}

static int win_set_info_impl(mpi_win_t *w, MPI_Info info, const char *fn)
{
    int rc = MPI_SUCCESS;
    /* no hint changes what compi does: they are kept and given back, keys set before
       staying unless info sets them again */
    if (w->info == MPI_INFO_NULL) {
        rc = mpi_info_dup(info, &w->info);
    } else if (info != MPI_INFO_NULL) {
        rc = mpi_info_merge(w->info, info);
    }
    if (rc != MPI_SUCCESS) {
        return win_err(w, rc, fn, "cannot store the hints");
    }
    return MPI_SUCCESS;
}

static int win_get_info_impl(mpi_win_t *w, MPI_Info *info_used, const char *fn)
{
    int rc = mpi_info_dup(w->info, info_used);
    if (rc != MPI_SUCCESS) {
        return win_err(w, rc, fn, "cannot copy the hints");
    }
    return MPI_SUCCESS;
}

/* ---- attributes -------------------------------------------------------------------- */

static int attr_fail(mpi_win_t *w, const char *fn, compi_status_t st, int keyval, int cb_code)
{
    if (st == COMPI_ERR_NOT_FOUND) {
        return win_err(w, MPI_ERR_KEYVAL, fn,
                       "keyval=%d is not a valid window key (freed, predefined or never "
                       "created)",
                       keyval);
    }
    if (st == ATTR_ERR_CALLBACK && cb_code != MPI_SUCCESS) {
        return win_err(w, cb_code, fn, "attribute callback for keyval=%d returned %d", keyval,
                       cb_code);
    }
    return win_err(w, mpi_err_class_of(st), fn, "%s", compi_status_string(st));
}

static int win_create_keyval_impl(MPI_Win_copy_attr_function *win_copy_attr_fn,
                                  MPI_Win_delete_attr_function *win_delete_attr_fn,
                                  int *win_keyval, void *extra_state, const char *fn)
{
    compi_status_t st = attr_keyval_create(ATTR_KIND_WIN, win_copy_attr_fn, win_delete_attr_fn,
                                           extra_state, win_keyval);
    return st == COMPI_OK ? MPI_SUCCESS : attr_fail(NULL, fn, st, 0, 0);
}

static int win_free_keyval_impl(int *win_keyval, const char *fn)
{
    int k = *win_keyval;
    compi_status_t st = attr_keyval_free(ATTR_KIND_WIN, win_keyval);
    return st == COMPI_OK ? MPI_SUCCESS : attr_fail(NULL, fn, st, k, 0);
}

static int win_set_attr_impl(mpi_win_t *w, int win_keyval, void *attribute_val, const char *fn)
{
    int cb_code = MPI_SUCCESS;
    compi_status_t st =
        attr_set(ATTR_KIND_WIN, w->handle, &w->attrs, win_keyval, attribute_val, &cb_code);
    return st == COMPI_OK ? MPI_SUCCESS : attr_fail(w, fn, st, win_keyval, cb_code);
}

/* a predefined window key's value as C reads it (*c: MPI_WIN_BASE the base itself, the
   others pointers to their values) and as Fortran does (*f: the values); 0 for any other
   key */
static int win_predefined(mpi_win_t *w, int keyval, void **c, MPI_Aint *f)
{
    int *i = NULL;
    switch (keyval) {
    case MPI_WIN_BASE:
        *c = w->osc->base;
        *f = (MPI_Aint)w->osc->base;
        return 1;
    case MPI_WIN_SIZE:
        *c = &w->attr_size;
        *f = w->attr_size;
        return 1;
    case MPI_WIN_DISP_UNIT:
        i = &w->attr_disp_unit;
        break;
    case MPI_WIN_CREATE_FLAVOR:
        i = &w->attr_flavor;
        break;
    case MPI_WIN_MODEL:
        i = &w->attr_model;
        break;
    default:
        return 0;
    }
    *c = i;
    *f = *i;
    return 1;
}

static int win_get_attr_impl(mpi_win_t *w, int win_keyval, void *attribute_val, int *flag,
                             const char *fn)
{
    /* attribute_val is really a void ** (MPI's C binding types it as void *) */
    void **out = (void **)attribute_val;
    MPI_Aint f;
    if (win_predefined(w, win_keyval, out, &f)) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    compi_status_t st = attr_get(ATTR_KIND_WIN, w->attrs, win_keyval, out, flag);
    return st == COMPI_OK ? MPI_SUCCESS : attr_fail(w, fn, st, win_keyval, MPI_SUCCESS);
}

static int win_delete_attr_impl(mpi_win_t *w, int win_keyval, const char *fn)
{
    int cb_code = MPI_SUCCESS;
    compi_status_t st = attr_delete(ATTR_KIND_WIN, w->handle, &w->attrs, win_keyval, &cb_code);
    return st == COMPI_OK ? MPI_SUCCESS : attr_fail(w, fn, st, win_keyval, cb_code);
}

/* from Fortran (core/mpi/fortran_hooks.h): an address-sized integer */
int compi_fortran_win_set_attr(MPI_Win win, int keyval, MPI_Aint val)
{
    COMPI_CHECK_INIT("MPI_Win_set_attr");
    static const char fn[] = "MPI_Win_set_attr";
    mpi_win_t *w = NULL;
    int cb_code = MPI_SUCCESS;
    int rc = mpi_arg_win(win, fn, &w);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    compi_status_t st =
        attr_set_int(ATTR_KIND_WIN, w->handle, &w->attrs, keyval, val, ATTR_FORM_AINT, &cb_code);
    return st == COMPI_OK ? MPI_SUCCESS : attr_fail(w, fn, st, keyval, cb_code);
}

int compi_fortran_win_get_attr(MPI_Win win, int keyval, MPI_Aint *val, int *flag)
{
    COMPI_CHECK_INIT("MPI_Win_get_attr");
    static const char fn[] = "MPI_Win_get_attr";
    mpi_win_t *w = NULL;
    int rc = mpi_arg_win(win, fn, &w);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    void *c;
    if (win_predefined(w, keyval, &c, val)) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    compi_status_t st = attr_get_int(ATTR_KIND_WIN, w->attrs, keyval, val, flag);
    return st == COMPI_OK ? MPI_SUCCESS : attr_fail(w, fn, st, keyval, MPI_SUCCESS);
}

/* ---- error handlers ---------------------------------------------------------------- */

static int win_set_errhandler_impl(mpi_win_t *w, compi_errhandler_t *errhandler, const char *fn)
{
    (void)fn;
    errh_retain(errhandler);
    errh_release(w->errh);
    w->errh = errhandler;
    return MPI_SUCCESS;
}

static int win_get_errhandler_impl(mpi_win_t *w, MPI_Errhandler *errhandler, const char *fn)
{
    (void)fn;
    errh_retain(w->errh);
    *errhandler = w->errh->handle;
    return MPI_SUCCESS;
}

static int win_call_errhandler_impl(mpi_win_t *w, int errorcode, const char *fn)
{
    char what[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (PMPI_Error_string(errorcode, what, &len) != MPI_SUCCESS) {
        snprintf(what, sizeof(what), "error code %d", errorcode);
    }
    mpi_err_invoke_errh(w->errh, w->handle, errorcode, fn, what);
    return MPI_SUCCESS;
}

#include "core/mpi/gen/win.c"
