/*
 * attr.h -- attribute caching on communicators, datatypes and windows: keyvals with copy and
 * delete callbacks, and the per-object attribute lists.
 *
 * Ownership: a keyval is refcounted by its user handle and by every attribute that uses
 * it, so MPI_Comm_free_keyval on a keyval still attached somewhere only marks it; it goes
 * with its last attribute.  An object's list (comm->attrs, dt->attrs) belongs to the
 * object: attr_*_free_all() empties it (running the delete callbacks) before the object
 * is freed.  Attribute values are the user's: only the callbacks look inside them.
 *
 * Errors: COMPI_ERR_NOT_FOUND means an invalid keyval (or one of the other kind: a type
 * keyval on a communicator) and becomes MPI_ERR_KEYVAL at the API.  ATTR_ERR_CALLBACK
 * means a user callback returned an error; its code is stored in *cb_code_p.
 *
 * The predefined communicator keys of mpi.h (MPI_TAG_UB ...; MPICH's values): they
 * can be read on every communicator (as pointers to int, as the standard says), never
 * set, deleted or freed.
 *
 * Languages (MPI 4.1, 19.3.7).  A value keeps the form it was set in: a C pointer, a
 * Fortran INTEGER (MPI_ATTR_PUT) or a Fortran address-sized integer (MPI_COMM_SET_ATTR
 * and the other MPI-2 calls).  C reads a pointer as it was set and an integer as a
 * pointer to MPI's own copy of it (`*(MPI_Aint *)val == 7` for 7 set from Fortran);
 * Fortran reads an integer as it was set and a pointer as its address (truncated to
 * an INTEGER by MPI_ATTR_GET).  A keyval made from Fortran (attr_keyval_fortran) has
 * callbacks that take and give integers: its copy callback's result is stored as an
 * integer of its kind.  A C copy callback gets what C would read; when it hands back
 * the very pointer it got for an integer (MPI_COMM_DUP_FN does), the copy is that
 * integer again, not a pointer into the original's storage.
 */
#ifndef COMPI_ATTR_H
#define COMPI_ATTR_H

#include "core/comm/comm.h"
#include "core/dt/dt.h"

#define ATTR_ERR_CALLBACK COMPI_ERR_INVALID_PARAM

typedef enum { ATTR_KIND_COMM = 1, ATTR_KIND_TYPE = 2, ATTR_KIND_WIN = 3 } attr_kind_t;

/* the form of a value, and the language of a keyval's callbacks (ATTR_FORM_PTR: C) */
typedef enum {
    ATTR_FORM_PTR = 0,  /* C: a pointer */
    ATTR_FORM_FINT = 1, /* Fortran INTEGER (MPI-1 calls, MPI_KEYVAL_CREATE's callbacks) */
    ATTR_FORM_AINT = 2, /* Fortran INTEGER(KIND=MPI_ADDRESS_KIND) (MPI-2 and later) */
} attr_form_t;

/* both kinds of callback have the same shape (object handles are ints) */
typedef MPI_Comm_copy_attr_function attr_copy_fn_t;
typedef MPI_Comm_delete_attr_function attr_delete_fn_t;

compi_status_t attr_keyval_create(attr_kind_t kind, attr_copy_fn_t *copy_fn,
                                  attr_delete_fn_t *delete_fn, void *extra_state, int *keyval_p);
/* the keyval's callbacks are Fortran's (form FINT or AINT): they take and give integers
   (passed as void *) */
compi_status_t attr_keyval_fortran(attr_kind_t kind, int keyval, attr_form_t form);
/* drops the user's reference; *keyval_p becomes MPI_KEYVAL_INVALID */
compi_status_t attr_keyval_free(attr_kind_t kind, int *keyval_p);

/* generic list operations; obj_handle is what the callbacks receive */
compi_status_t attr_set(attr_kind_t kind, int obj_handle, struct attr_list **list, int keyval,
                        void *val, int *cb_code_p);
compi_status_t attr_get(attr_kind_t kind, struct attr_list *list, int keyval, void **val_p,
                        int *flag_p);
/* the same from Fortran: an integer set in `form` (FINT or AINT), and the value as
   Fortran reads it (an address-sized integer; MPI_ATTR_GET truncates it) */
compi_status_t attr_set_int(attr_kind_t kind, int obj_handle, struct attr_list **list, int keyval,
                            MPI_Aint val, attr_form_t form, int *cb_code_p);
compi_status_t attr_get_int(attr_kind_t kind, struct attr_list *list, int keyval, MPI_Aint *val_p,
                            int *flag_p);
compi_status_t attr_delete(attr_kind_t kind, int obj_handle, struct attr_list **list, int keyval,
                           int *cb_code_p);
/* delete callbacks in reverse order of setting; stops at the first failing one */
compi_status_t attr_delete_all(attr_kind_t kind, int obj_handle, struct attr_list **list,
                               int *cb_code_p);
/* copy callbacks of every attribute of `old` onto `*newl` (dup) */
compi_status_t attr_copy_all(attr_kind_t kind, int old_handle, struct attr_list *old,
                             int new_handle, struct attr_list **newl, int *cb_code_p);

/* communicators: also answers the predefined keys */
compi_status_t attr_comm_get(compi_comm_t *comm, int keyval, void **val_p, int *flag_p);
compi_status_t attr_comm_get_int(compi_comm_t *comm, int keyval, MPI_Aint *val_p, int *flag_p);
compi_status_t attr_comm_free_all(compi_comm_t *comm, int *cb_code_p);
compi_status_t attr_comm_copy_all(compi_comm_t *old, compi_comm_t *newc, int *cb_code_p);

/* datatypes (called from MPI_Type_free / MPI_Type_dup) */
compi_status_t attr_type_free_all(compi_datatype_t *dt);
compi_status_t attr_type_copy_all(compi_datatype_t *old, compi_datatype_t *newt, int *cb_code_p);

/* the value of MPI_LASTUSEDCODE (MPI_Add_error_class and _code raise it) */
void attr_set_lastusedcode(int code);

/* keyvals left at MPI_Finalize are freed here */
void attr_finalize(void);

#endif
