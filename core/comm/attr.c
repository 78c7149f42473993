/*
 * attr.c -- keyvals and attribute lists.
 *
 * Keyvals are numbered from KEYVAL_FIRST_USER upwards and never reused, so a stale
 * keyval number is reported as invalid instead of silently naming someone else's key.
 * An attribute list is a singly linked list with the newest attribute first: deleting
 * from the head runs delete callbacks in reverse order of setting, which is what MPI
 * asks of MPI_COMM_SELF at finalize and is a sensible order everywhere else.
 */
#include "core/comm/attr.h"

#include "core/runtime/rte.h"

#include <limits.h>
#include <stdlib.h>

/* above MPI_KEYVAL_INVALID and far below the predefined keys (MPI_TAG_UB ...), whose
   values are MPICH's */
#define KEYVAL_FIRST_USER (MPI_KEYVAL_INVALID + 1)

typedef struct attr_keyval {
    attr_kind_t kind;
    attr_form_t lang;        /* PTR: C callbacks; FINT, AINT: Fortran's, on integers of that form */
    attr_copy_fn_t *copy_fn; /* NULL: not copied on dup */
    attr_delete_fn_t *delete_fn; /* NULL: nothing to do on delete */
    void *extra_state;
    int refcount; /* user handle + attributes using it */
    int user_freed;
} attr_keyval_t;

/* a value: `val` in form PTR; an integer in `aint` otherwise (a FINT's sign-extended,
   and in `fint` too, for C to point at) */
struct attr_list {
    int keyval;
    attr_form_t form;
    void *val;
    MPI_Aint aint;
    MPI_Fint fint;
    struct attr_list *next;
};

/* an attribute's value as a C program reads it */
static void *view_c(struct attr_list *a)
{
    switch (a->form) {
    case ATTR_FORM_FINT:
        return &a->fint;
    case ATTR_FORM_AINT:
        return &a->aint;
    default:
        return a->val;
    }
}

/* ... and as a Fortran program reads it (the address of a pointer) */
static MPI_Aint view_f(const struct attr_list *a)
{
    return a->form == ATTR_FORM_PTR ? (MPI_Aint)a->val : a->aint;
}

/* what a callback of a keyval in `lang` gets for a */
static void *view_for(attr_form_t lang, struct attr_list *a)
{
    return lang == ATTR_FORM_PTR ? view_c(a) : (void *)view_f(a);
}

/* stores an integer in `form` (FINT truncates to an INTEGER, then sign-extends) */
static void store_int(struct attr_list *a, MPI_Aint v, attr_form_t form)
{
    a->form = form;
    a->val = NULL;
    if (form == ATTR_FORM_FINT) {
        a->fint = (MPI_Fint)v;
        a->aint = a->fint;
    } else {
        a->aint = v;
        a->fint = (MPI_Fint)v;
    }
}

static void store_ptr(struct attr_list *a, void *v)
{
    a->form = ATTR_FORM_PTR;
    a->val = v;
    a->aint = 0;
    a->fint = 0;
}

/* keyvals[k - KEYVAL_FIRST_USER]: NULL once fully released */
static attr_keyval_t **keyvals;
static int nkeyvals, capkeyvals;

/* values of the predefined attributes, returned as pointers (see attr_comm_get) */
static int pre_tag_ub = INT_MAX;
static int pre_host = MPI_PROC_NULL;
static int pre_io = MPI_ANY_SOURCE;
static int pre_wtime_is_global = 0;
static int pre_appnum;
static int pre_universe_size;
static int pre_lastusedcode = MPI_ERR_LASTCODE;

static attr_keyval_t *keyval_get(attr_kind_t kind, int keyval)
{
    int idx = keyval - KEYVAL_FIRST_USER;
    if (idx < 0 || idx >= nkeyvals || keyvals[idx] == NULL || keyvals[idx]->kind != kind) {
        return NULL;
    }
    return keyvals[idx];
}

static void keyval_release(int keyval)
{
    int idx = keyval - KEYVAL_FIRST_USER;
    attr_keyval_t *kv = keyvals[idx];

    if (--kv->refcount == 0) {
        free(kv);
        keyvals[idx] = NULL;
    }
}

compi_status_t attr_keyval_create(attr_kind_t kind, attr_copy_fn_t *copy_fn,
                                  attr_delete_fn_t *delete_fn, void *extra_state, int *keyval_p)
{
    attr_keyval_t *kv;

    if (nkeyvals == capkeyvals) {
        int cap = capkeyvals ? 2 * capkeyvals : 16;
        attr_keyval_t **tab = realloc(keyvals, (size_t)cap * sizeof(*tab));
        if (tab == NULL) {
            return COMPI_ERR_NO_MEMORY;
        }
        keyvals = tab;
        capkeyvals = cap;
    }
    kv = calloc(1, sizeof(*kv));
    if (kv == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    kv->kind = kind;
    kv->copy_fn = copy_fn;
    kv->delete_fn = delete_fn;
    kv->extra_state = extra_state;
    kv->refcount = 1;
    keyvals[nkeyvals] = kv;
    *keyval_p = KEYVAL_FIRST_USER + nkeyvals;
    nkeyvals++;
    return COMPI_OK;
}

compi_status_t attr_keyval_fortran(attr_kind_t kind, int keyval, attr_form_t form)
{
    attr_keyval_t *kv = keyval_get(kind, keyval);
    if (kv == NULL) {
        return COMPI_ERR_NOT_FOUND;
    }
    kv->lang = form;
    return COMPI_OK;
}

compi_status_t attr_keyval_free(attr_kind_t kind, int *keyval_p)
{
    attr_keyval_t *kv = keyval_get(kind, *keyval_p);

    if (kv == NULL || kv->user_freed) {
        return COMPI_ERR_NOT_FOUND;
    }
    kv->user_freed = 1;
    keyval_release(*keyval_p);
    *keyval_p = MPI_KEYVAL_INVALID;
    return COMPI_OK;
}

static struct attr_list **list_find(struct attr_list **list, int keyval)
{
    for (struct attr_list **pp = list; *pp != NULL; pp = &(*pp)->next) {
        if ((*pp)->keyval == keyval) {
            return pp;
        }
    }
    return NULL;
}

static compi_status_t run_delete(attr_keyval_t *kv, int obj_handle, int keyval, struct attr_list *a,
                                 int *cb_code_p)
{
    int code;

    if (kv->delete_fn == NULL) {
        return COMPI_OK;
    }
    code = kv->delete_fn(obj_handle, keyval, view_for(kv->lang, a), kv->extra_state);
    if (code != MPI_SUCCESS) {
        if (cb_code_p != NULL) {
            *cb_code_p = code;
        }
        return ATTR_ERR_CALLBACK;
    }
    return COMPI_OK;
}

/* set keyval's value to `v` (what store_ptr or store_int made of it) */
static compi_status_t set_value(attr_kind_t kind, int obj_handle, struct attr_list **list,
                                int keyval, const struct attr_list *v, int *cb_code_p)
{
    attr_keyval_t *kv = keyval_get(kind, keyval);
    struct attr_list **pp, *a;
    compi_status_t st;

    /* setting through a keyval the user already freed is erroneous (MPI 3.1, 6.7.2) */
    if (kv == NULL || kv->user_freed) {
        return COMPI_ERR_NOT_FOUND;
    }
    pp = list_find(list, keyval);
    if (pp != NULL) {
        /* overwrite: the old value is deleted first, and stays if its deletion fails */
        st = run_delete(kv, obj_handle, keyval, *pp, cb_code_p);
        if (st != COMPI_OK) {
            return st;
        }
        /* the callback may have set or deleted attributes of this object: look again */
        kv = keyval_get(kind, keyval);
        if (kv == NULL) {
            return COMPI_ERR_NOT_FOUND;
        }
        pp = list_find(list, keyval);
        if (pp != NULL) {
            a = *pp;
            struct attr_list *next = a->next;
            *a = *v;
            a->keyval = keyval;
            a->next = next;
            return COMPI_OK;
        }
    }
    a = malloc(sizeof(*a));
    if (a == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    *a = *v;
    a->keyval = keyval;
    a->next = *list;
    *list = a;
    kv->refcount++;
    return COMPI_OK;
}

compi_status_t attr_set(attr_kind_t kind, int obj_handle, struct attr_list **list, int keyval,
                        void *val, int *cb_code_p)
{
    struct attr_list v;
    store_ptr(&v, val);
    return set_value(kind, obj_handle, list, keyval, &v, cb_code_p);
}

compi_status_t attr_set_int(attr_kind_t kind, int obj_handle, struct attr_list **list, int keyval,
                            MPI_Aint val, attr_form_t form, int *cb_code_p)
{
    struct attr_list v;
    store_int(&v, val, form);
    return set_value(kind, obj_handle, list, keyval, &v, cb_code_p);
}

/* keyval's attribute in list (*a_p NULL when the object has none) and *flag_p whether it
   has one; COMPI_ERR_NOT_FOUND, *a_p NULL, when keyval is no key of this kind */
static compi_status_t lookup(attr_kind_t kind, struct attr_list *list, int keyval,
                             struct attr_list **a_p, int *flag_p)
{
    *a_p = NULL;
    if (keyval_get(kind, keyval) == NULL) {
        return COMPI_ERR_NOT_FOUND;
    }
    struct attr_list **pp = list_find(&list, keyval);
    *a_p = pp != NULL ? *pp : NULL;
    *flag_p = *a_p != NULL;
    return COMPI_OK;
}

compi_status_t attr_get_int(attr_kind_t kind, struct attr_list *list, int keyval, MPI_Aint *val_p,
                            int *flag_p)
{
    struct attr_list *a;
    compi_status_t st = lookup(kind, list, keyval, &a, flag_p);
    if (a != NULL) {
        *val_p = view_f(a);
    }
    return st;
}

compi_status_t attr_get(attr_kind_t kind, struct attr_list *list, int keyval, void **val_p,
                        int *flag_p)
{
    struct attr_list *a;
    compi_status_t st = lookup(kind, list, keyval, &a, flag_p);
    if (a != NULL) {
        *val_p = view_c(a);
    }
    return st;
}

/*
 * Delete the attribute *pp.  It is unlinked before its callback runs, so a callback that
 * deletes or sets attributes of the same object (even this one) finds a consistent list
 * and never frees a node that is still being deleted.  A failing callback puts the
 * attribute back, at the head of the list.
 */
static compi_status_t remove_at(attr_kind_t kind, int obj_handle, struct attr_list **list,
                                struct attr_list **pp, int *cb_code_p)
{
    struct attr_list *a = *pp;
    attr_keyval_t *kv = keyval_get(kind, a->keyval);

    *pp = a->next;
    a->next = NULL;
    /* kv is NULL only for an object that outlived attr_finalize: just drop the entry */
    if (kv != NULL) {
        compi_status_t st = run_delete(kv, obj_handle, a->keyval, a, cb_code_p);
        if (st != COMPI_OK) {
            a->next = *list;
            *list = a;
            return st;
        }
        keyval_release(a->keyval);
    }
    free(a);
    return COMPI_OK;
}

compi_status_t attr_delete(attr_kind_t kind, int obj_handle, struct attr_list **list, int keyval,
                           int *cb_code_p)
{
    struct attr_list **pp;

    if (keyval_get(kind, keyval) == NULL) {
        return COMPI_ERR_NOT_FOUND;
    }
    pp = list_find(list, keyval);
    if (pp == NULL) {
        /* nothing attached under this key: MPI calls this erroneous, we let it pass */
        return COMPI_OK;
    }
    return remove_at(kind, obj_handle, list, pp, cb_code_p);
}

/* also deletes what the callbacks set on the object while it is being emptied */
compi_status_t attr_delete_all(attr_kind_t kind, int obj_handle, struct attr_list **list,
                               int *cb_code_p)
{
    while (*list != NULL) {
        compi_status_t st = remove_at(kind, obj_handle, list, list, cb_code_p);
        if (st != COMPI_OK) {
            return st;
        }
    }
    return COMPI_OK;
}

/*
 * Copy callbacks of every attribute of *oldl onto *newl.  The keyvals are noted first
 * and each attribute looked up again before its callback, so a copy callback that
 * deletes or sets attributes of the old object leaves nothing dangling: an attribute
 * deleted meanwhile is not copied.
 */
static compi_status_t copy_list(attr_kind_t kind, int old_handle, struct attr_list **oldl,
                                struct attr_list **newl, int *cb_code_p)
{
    struct attr_list **tail = newl;
    int n = 0, *keys;
    compi_status_t st = COMPI_OK;

    for (struct attr_list *a = *oldl; a != NULL; a = a->next) {
        n++;
    }
    if (n == 0) {
        return COMPI_OK;
    }
    keys = malloc((size_t)n * sizeof(int));
    if (keys == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    n = 0;
    for (struct attr_list *a = *oldl; a != NULL; a = a->next) {
        keys[n++] = a->keyval;
    }
    while (*tail != NULL) {
        tail = &(*tail)->next;
    }
    /* newest-first, appended: the copy keeps the original's order */
    for (int i = 0; i < n; i++) {
        struct attr_list **pp = list_find(oldl, keys[i]);
        attr_keyval_t *kv = keyval_get(kind, keys[i]);
        void *in, *out = NULL;
        int flag = 0, code;
        struct attr_list *c, orig;

        if (pp == NULL || kv == NULL || kv->copy_fn == NULL) {
            continue;
        }
        struct attr_list *node = *pp;
        orig = *node; /* the callback may change or delete it */
        attr_form_t lang = kv->lang;
        in = view_for(lang, *pp);
        code = kv->copy_fn(old_handle, keys[i], kv->extra_state, in, &out, &flag);
        if (code != MPI_SUCCESS) {
            if (cb_code_p != NULL) {
                *cb_code_p = code;
            }
            st = ATTR_ERR_CALLBACK;
            break;
        }
        kv = keyval_get(kind, keys[i]);
        if (!flag || kv == NULL) {
            continue;
        }
        c = malloc(sizeof(*c));
        if (c == NULL) {
            st = COMPI_ERR_NO_MEMORY;
            break;
        }
        if (lang != ATTR_FORM_PTR) {
            store_int(c, (MPI_Aint)out, lang);
        } else if (orig.form != ATTR_FORM_PTR && out == in) {
            /* a C callback that passes on the pointer it got to an integer (the
               predefined MPI_COMM_DUP_FN): the copy is that integer, as the callback left
               it (or as it was, if the callback deleted the original) */
            pp = list_find(oldl, keys[i]);
            const struct attr_list *now =
                pp != NULL && *pp == node && node->form == orig.form ? node : &orig;
            store_int(c, now->form == ATTR_FORM_FINT ? now->fint : now->aint, now->form);
        } else {
            store_ptr(c, out);
        }
        c->keyval = keys[i];
        c->next = NULL;
        *tail = c;
        tail = &c->next;
        kv->refcount++;
    }
    free(keys);
    return st;
}

compi_status_t attr_copy_all(attr_kind_t kind, int old_handle, struct attr_list *old,
                             int new_handle, struct attr_list **newl, int *cb_code_p)
{
    (void)new_handle; /* the callbacks see only the old object */
    return copy_list(kind, old_handle, &old, newl, cb_code_p);
}

/* the value of a predefined communicator key, or NULL for any other key */
static int *comm_predefined(int keyval)
{
    switch (keyval) {
    case MPI_TAG_UB:
        return &pre_tag_ub;
    case MPI_HOST:
        return &pre_host;
    case MPI_IO:
        return &pre_io;
    case MPI_WTIME_IS_GLOBAL:
        return &pre_wtime_is_global;
    case MPI_APPNUM:
        pre_appnum = rte_proc.appnum;
        return &pre_appnum;
    case MPI_UNIVERSE_SIZE:
        /* a launcher that does not say gives us at least the job itself */
        pre_universe_size =
            rte_proc.universe_size > 0 ? rte_proc.universe_size : rte_proc.world_size;
        return &pre_universe_size;
    case MPI_LASTUSEDCODE:
        return &pre_lastusedcode;
    default:
        return NULL;
    }
}

compi_status_t attr_comm_get(compi_comm_t *comm, int keyval, void **val_p, int *flag_p)
{
    int *pre = comm_predefined(keyval);
    if (pre == NULL) {
        return attr_get(ATTR_KIND_COMM, comm->attrs, keyval, val_p, flag_p);
    }
    *val_p = pre;
    *flag_p = 1;
    return COMPI_OK;
}

compi_status_t attr_comm_get_int(compi_comm_t *comm, int keyval, MPI_Aint *val_p, int *flag_p)
{
    /* the predefined keys: C reads pointers to int, Fortran the ints */
    int *pre = comm_predefined(keyval);
    if (pre == NULL) {
        return attr_get_int(ATTR_KIND_COMM, comm->attrs, keyval, val_p, flag_p);
    }
    *val_p = *pre;
    *flag_p = 1;
    return COMPI_OK;
}

void attr_set_lastusedcode(int code)
{
    if (code > pre_lastusedcode) {
        pre_lastusedcode = code;
    }
}

compi_status_t attr_comm_free_all(compi_comm_t *comm, int *cb_code_p)
{
    return attr_delete_all(ATTR_KIND_COMM, comm->handle, &comm->attrs, cb_code_p);
}

compi_status_t attr_comm_copy_all(compi_comm_t *old, compi_comm_t *newc, int *cb_code_p)
{
    return copy_list(ATTR_KIND_COMM, old->handle, &old->attrs, &newc->attrs, cb_code_p);
}

compi_status_t attr_type_free_all(compi_datatype_t *dt)
{
    return attr_delete_all(ATTR_KIND_TYPE, dt->handle, &dt->attrs, NULL);
}

compi_status_t attr_type_copy_all(compi_datatype_t *old, compi_datatype_t *newt, int *cb_code_p)
{
    return copy_list(ATTR_KIND_TYPE, old->handle, &old->attrs, &newt->attrs, cb_code_p);
}

void attr_finalize(void)
{
    for (int i = 0; i < nkeyvals; i++) {
        free(keyvals[i]);
    }
    free(keyvals);
    keyvals = NULL;
    nkeyvals = capkeyvals = 0;
}
