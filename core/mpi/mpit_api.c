/*
 * mpit_api.c -- the MPI tool information interface (MPI_T_*): its life (init, finalize)
 * and the control variables.  Performance variables: mpit_pvar.c; categories and
 * enumerations: mpit_cat.c.
 *
 * Every run-time parameter of the registry (core/runtime/params.h, what compi_info lists)
 * is a control variable under its own name, read-only (parameters are read once, at
 * initialization), an integer as MPI_INT or a string as MPI_CHAR; one whose values are a
 * fixed set (mpit_cat.c's enumerations) is an MPI_INT with that enumeration, and reads as
 * the item the library takes its value for.  Two are writable and
 * bound to a communicator, written collectively over it (docs/mpi_t.md):
 *
 *   index 0      coll_flush    MPI_INT   writing drops the closure caches (tramp_flush);
 *                                        reading gives the caches dropped so far
 *   index 1 + i  parameter i   (coll_config among them: MPI_CHAR, writing reloads the
 *                                        creators from another list of files)
 *
 * The registry grows as components register their parameters, so the number of variables
 * may grow between calls of MPI_T_cvar_get_num; an index, once given, keeps its variable.
 * The registry does not record a parameter's type: one whose default is written as an
 * integer is an integer.  Integers beyond the range of int read as INT_MAX or INT_MIN.
 *
 * MPI_T functions return their errors and never call an error handler.  The entry points
 * are generated (core/mpi/gen/mpit.c: the lock, the interface's state, the pointers of
 * the lookups and counts); each calls its t_x_impl here.
 *
 * Ownership: handles are allocated by MPI_T_cvar_handle_alloc and freed by
 * MPI_T_cvar_handle_free or by the MPI_T_finalize that ends the interface; a handle
 * bound to a communicator does not keep it alive (a freed communicator makes the handle
 * answer MPI_T_ERR_INVALID_HANDLE).
 */
#include "core/mpi/mpit.h"

#include "core/comm/comm.h"
#include "core/mpi/args.h"
#include "core/mpi/errors.h"
#include "core/mpi/mpi_state.h"
#include "core/runtime/params.h"
#include "scheme/bridge.h"
#include "trampolines/tramp.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the longest list of config files coll_config takes, terminator included */
#define MPIT_LIST_MAX 4096

enum cvar_kind { CVAR_FLUSH, CVAR_CONFIG, CVAR_INT, CVAR_STRING, CVAR_ENUM };

struct compi_t_cvar_handle {
    struct compi_t_cvar_handle *next; /* every live handle, to check the ones given back */
    int index;
    enum cvar_kind kind;
    int count;
    MPI_Comm comm; /* bound to, and the object behind it when bound */
    compi_comm_t *comm_obj;
};

static struct {
    int refcount; /* MPI_T_init_thread calls not yet finalized */
    struct compi_t_cvar_handle *handles;
} mpit;

static int cvar_count(void)
{
    size_t n = param_count() + 1;
    return n > INT_MAX ? INT_MAX : (int)n;
}

int mpit_initialized(void)
{
    return mpit.refcount > 0;
}

int mpit_cvar_count(void)
{
    return cvar_count();
}

const char *mpit_cvar_name(int index)
{
    return index == 0 ? "coll_flush" : param_get((size_t)index - 1)->name;
}

/* is the parameter an integer?  its default is written as one */
static int param_is_int(const param_desc_t *p)
{
    char *end, again[32];
    errno = 0;
    long v = strtol(p->defval, &end, 10);
    if (p->defval[0] == '\0' || *end != '\0' || errno != 0) {
        return 0;
    }
    snprintf(again, sizeof(again), "%ld", v);
    return strcmp(again, p->defval) == 0;
}

static enum cvar_kind kind_of(int index, const param_desc_t **p_p)
{
    *p_p = NULL;
    if (index == 0) {
        return CVAR_FLUSH;
    }
    const param_desc_t *p = param_get((size_t)index - 1);
    *p_p = p;
    if (strcmp(p->name, "coll_config") == 0) {
        return CVAR_CONFIG;
    }
    if (mpit_enum_of(p->name) != NULL) {
        return CVAR_ENUM;
    }
    return param_is_int(p) ? CVAR_INT : CVAR_STRING;
}

/* a parameter's value as an int, as the registry reads it (k, m, g suffixes), clamped */
static int param_int_value(const param_desc_t *p)
{
    char *end;
    errno = 0;
    long v = strtol(p->value, &end, 0);
    int shift = 0;
    switch (end != p->value ? *end : '\0') {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
    if (errno != 0 || end == p->value || *end != '\0') {
        v = strtol(p->defval, NULL, 10); /* what the registry falls back on */
    } else if (shift != 0) {
        v = v > (LONG_MAX >> shift) ? LONG_MAX : v < (LONG_MIN >> shift) ? LONG_MIN : v << shift;
    }
    return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v;
}

/* an enumerated parameter's value: the item it stands for (a string that names no item
   reads as the default's item, which the library then takes too) */
static int param_enum_value(const param_desc_t *p)
{
    MPI_T_enum e = mpit_enum_of(p->name);
    int v = 0;
    if (!mpit_enum_is_text(e)) {
        return mpit_enum_clamp(e, param_int_value(p));
    }
    if (!mpit_enum_find(e, p->value, &v)) {
        (void)mpit_enum_find(e, p->defval, &v);
    }
    return v;
}

void mpit_string_out(const char *s, char *buf, int *len)
{
    if (len == NULL) {
        return;
    }
    int need = (int)strlen(s) + 1;
    if (buf == NULL || *len <= 0) {
        *len = need;
        return;
    }
    int n = need <= *len ? need : *len;
    memcpy(buf, s, (size_t)n - 1);
    buf[n - 1] = '\0';
    *len = n;
}

static const char flush_desc[] =
    "Write (any value, collectively over the communicator bound) to drop the closure "
    "caches of that communicator and of every communicator whose members are all in it: "
    "the next call of each key asks the creators again.  Reads the number of caches "
    "dropped in this process so far";
static const char config_desc[] =
    "The colon-separated list of Scheme config files in force.  Write another list, "
    "collectively over the communicator bound, to reset the creators to the defaults, load "
    "the files as MPI_Init does, and flush the caches as coll_flush does; if any rank "
    "fails to load them every rank gets the same error and keeps the previous list";

static int t_init_thread_impl(int required, int *provided)
{
    /* MPI_THREAD_MULTIPLE: the lock of thread_lock.h covers these calls too.  Before the
       library starts, asking turns it on for the whole run; once it runs, only if
       MPI_Init_thread granted that level (a call of another thread already inside the
       library did not take the lock), else one thread at a time */
    int most = required >= MPI_THREAD_MULTIPLE && compi_thread_multiple_early()
                   ? MPI_THREAD_MULTIPLE
                   : MPI_THREAD_SERIALIZED;
    *provided = required < MPI_THREAD_SINGLE ? MPI_THREAD_SINGLE
                : required > most            ? most
                                             : required;
    /* coll_config is a variable from the start, even before MPI_Init registers it */
    (void)bridge_config_list();
    mpit.refcount++;
    return MPI_SUCCESS;
}

static int t_finalize_impl(void)
{
    if (--mpit.refcount == 0) {
        mpit_pvar_finalize();
        while (mpit.handles != NULL) {
            struct compi_t_cvar_handle *h = mpit.handles;
            mpit.handles = h->next;
            free(h);
        }
    }
    return MPI_SUCCESS;
}

static int t_cvar_get_num_impl(int *num_cvar)
{
    *num_cvar = cvar_count();
    return MPI_SUCCESS;
}

static int t_cvar_get_info_impl(int cvar_index, char *name, int *name_len, int *verbosity,
                                MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc,
                                int *desc_len, int *bind, int *scope)
{
    if (cvar_index < 0 || cvar_index >= cvar_count()) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    const param_desc_t *p;
    enum cvar_kind k = kind_of(cvar_index, &p);
    mpit_string_out(k == CVAR_FLUSH ? "coll_flush" : p->name, name, name_len);
    mpit_string_out(k == CVAR_FLUSH    ? flush_desc
                    : k == CVAR_CONFIG ? config_desc
                                       : p->help,
                    desc, desc_len);
    if (verbosity != NULL) {
        *verbosity = MPI_T_VERBOSITY_TUNER_BASIC;
    }
    if (datatype != NULL) {
        *datatype = k == CVAR_CONFIG || k == CVAR_STRING ? MPI_CHAR : MPI_INT;
    }
    if (enumtype != NULL) {
        *enumtype = k == CVAR_ENUM ? mpit_enum_of(p->name) : MPI_T_ENUM_NULL;
    }
    int writable = k == CVAR_FLUSH || k == CVAR_CONFIG;
    if (bind != NULL) {
        *bind = writable ? MPI_T_BIND_MPI_COMM : MPI_T_BIND_NO_OBJECT;
    }
    if (scope != NULL) {
        /* the others are read at initialization: a new value needs a new run */
        *scope = writable ? MPI_T_SCOPE_GROUP_EQ : MPI_T_SCOPE_READONLY;
    }
    return MPI_SUCCESS;
}

static int t_cvar_get_index_impl(const char *name, int *cvar_index)
{
    if (strcmp(name, "coll_flush") == 0) {
        *cvar_index = 0;
        return MPI_SUCCESS;
    }
    for (size_t i = 0; i < param_count() && i + 1 < (size_t)INT_MAX; i++) {
        if (strcmp(param_get(i)->name, name) == 0) {
            *cvar_index = (int)i + 1;
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}

static int t_cvar_handle_alloc_impl(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
                                    int *count)
{
    if (handle == NULL || count == NULL) {
        return MPI_T_ERR_INVALID;
    }
    if (cvar_index < 0 || cvar_index >= cvar_count()) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    const param_desc_t *p;
    enum cvar_kind k = kind_of(cvar_index, &p);
    MPI_Comm comm = MPI_COMM_NULL;
    compi_comm_t *obj = NULL;
    if (k == CVAR_FLUSH || k == CVAR_CONFIG) {
        /* bound to a communicator: obj_handle points at one (so MPI must be running) */
        if (obj_handle == NULL || compi_mpi_state != COMPI_STATE_INITIALIZED ||
            (obj = comm_from_handle(*(MPI_Comm *)obj_handle)) == NULL) {
            return MPI_T_ERR_INVALID_HANDLE;
        }
        comm = *(MPI_Comm *)obj_handle;
    }
    struct compi_t_cvar_handle *h = calloc(1, sizeof(*h));
    if (h == NULL) {
        return MPI_T_ERR_MEMORY;
    }
    h->index = cvar_index;
    h->kind = k;
    h->comm = comm;
    h->comm_obj = obj;
    h->count = k == CVAR_CONFIG ? MPIT_LIST_MAX
               : k == CVAR_STRING ? (int)strlen(p->value) + 1
                                  : 1;
    h->next = mpit.handles;
    mpit.handles = h;
    *handle = h;
    *count = h->count;
    return MPI_SUCCESS;
}

/* a handle given back by the user: one of ours, still live, its communicator too */
static int handle_check(MPI_T_cvar_handle h)
{
    struct compi_t_cvar_handle *x = mpit.handles;
    while (x != NULL && x != h) {
        x = x->next;
    }
    if (x == NULL) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    if (h->comm_obj != NULL && (compi_mpi_state != COMPI_STATE_INITIALIZED ||
                                comm_from_handle(h->comm) != h->comm_obj)) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    return MPI_SUCCESS;
}

static int t_cvar_handle_free_impl(MPI_T_cvar_handle *handle)
{
    struct compi_t_cvar_handle **pp = &mpit.handles;
    while (*pp != NULL && *pp != *handle) {
        pp = &(*pp)->next;
    }
    if (*pp == NULL) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    *pp = (*handle)->next;
    free(*handle);
    *handle = MPI_T_CVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

static int t_cvar_read_impl(MPI_T_cvar_handle handle, void *buf)
{
    int rc = handle_check(handle);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (buf == NULL) {
        return MPI_T_ERR_INVALID;
    }
    const param_desc_t *p;
    enum cvar_kind k = kind_of(handle->index, &p);
    switch (k) {
    case CVAR_FLUSH: {
        unsigned long n = tramp_flush_count();
        *(int *)buf = n > INT_MAX ? INT_MAX : (int)n;
        break;
    }
    case CVAR_INT:
        *(int *)buf = param_int_value(p);
        break;
    case CVAR_ENUM:
        *(int *)buf = param_enum_value(p);
        break;
    case CVAR_CONFIG:
    case CVAR_STRING:
        /* the count given at allocation bounds the copy */
        snprintf(buf, (size_t)handle->count, "%s",
                 k == CVAR_CONFIG ? tramp_config_list() : p->value);
        break;
    }
    return MPI_SUCCESS;
}

static int t_cvar_write_impl(MPI_T_cvar_handle handle, const void *buf)
{
    int rc = handle_check(handle);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (buf == NULL) {
        return MPI_T_ERR_INVALID;
    }
    if (handle->kind != CVAR_FLUSH && handle->kind != CVAR_CONFIG) {
        return MPI_T_ERR_CVAR_SET_NEVER;
    }
    if (compi_mpi_state != COMPI_STATE_INITIALIZED) {
        return MPI_T_ERR_CVAR_SET_NOT_NOW;
    }
    if (handle->kind == CVAR_FLUSH) {
        tramp_flush(handle->comm_obj);
        return MPI_SUCCESS;
    }
    if (memchr(buf, '\0', MPIT_LIST_MAX) == NULL) {
        return mpi_err_text_code(MPI_T_ERR_INVALID,
                                 "coll_config: a list of files longer than the variable's "
                                 "count (4096 characters with the terminator)");
    }
    compi_status_t st = tramp_reconfigure(handle->comm_obj, buf);
    if (st != COMPI_OK) {
        const char *what = tramp_error_take(NULL);
        return mpi_err_text_code(mpi_err_class_of(st),
                                 what != NULL ? what : compi_status_string(st));
    }
    return MPI_SUCCESS;
}

#include "core/mpi/gen/mpit.c"
