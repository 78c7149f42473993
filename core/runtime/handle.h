/*
 * handle.h -- tables that turn int handles into objects: a handle is its table's kind
 * shifted by HANDLE_KIND_SHIFT, or'ed with an index below 1 << HANDLE_KIND_SHIFT.  That is
 * the layout of compi's MPI handles (include/mpi.h, COMPI_HANDLE; core/mpi checks that the
 * two agree), but nothing here knows MPI: each object module (comm, dt, group, op, ...;
 * requests are the API layer's) owns one handle_table_t, gives it the kind of its
 * handles, and offers a static inline xxx_from_handle() built on handle_get().
 *
 * Ownership: the table stores borrowed pointers; the object module allocates and frees
 * its objects and calls handle_alloc()/handle_free() alongside.  Index 0 is the null
 * handle and never holds an object; predefined objects use fixed low indices
 * (handle_set_fixed), dynamic ones start after them.
 */
#ifndef COMPI_HANDLE_H
#define COMPI_HANDLE_H

#include "core/include/compi_common.h"
#include "core/include/compi_status.h"

typedef struct handle_table {
    void **objs;      /* objs[idx]: the object, or NULL when free */
    unsigned n;       /* slots in use or ever used (high-water mark) */
    unsigned cap;
    unsigned kind;    /* the handles' bits above HANDLE_KIND_SHIFT (COMPI_HKIND_*) */
    unsigned nfixed;  /* indices below this are predefined and never freed */
    unsigned *freelist;
    unsigned nfree;
} handle_table_t;

#define HANDLE_TABLE_INIT(k, fixed)                                                           \
    { .objs = NULL, .n = 0, .cap = 0, .kind = (k), .nfixed = (fixed), .freelist = NULL,       \
      .nfree = 0 }

#define HANDLE_KIND_SHIFT 24
#define HANDLE_IDX_MASK ((1u << HANDLE_KIND_SHIFT) - 1)
#define HANDLE_MAX_IDX HANDLE_IDX_MASK
/* the handle of index `idx` in a table of kind `kind` */
#define HANDLE_MAKE(kind, idx) ((int)(((unsigned)(kind) << HANDLE_KIND_SHIFT) | (unsigned)(idx)))

/* returns the object, or NULL when `h` is of another kind, null, out of range or freed */
static inline void *handle_get(const handle_table_t *t, int h)
{
    unsigned uh = (unsigned)h;
    unsigned idx = uh & HANDLE_IDX_MASK;
    if (compi_unlikely((uh >> HANDLE_KIND_SHIFT) != t->kind || idx >= t->n)) {
        return NULL;
    }
    return t->objs[idx];
}

/* store `obj` at a predefined index (idx < nfixed) */
compi_status_t handle_set_fixed(handle_table_t *t, unsigned idx, void *obj);
/* store `obj` in a free dynamic slot; *h_p receives the handle */
compi_status_t handle_alloc(handle_table_t *t, void *obj, int *h_p);
/* release a dynamic slot (predefined ones are never released) */
void handle_free(handle_table_t *t, int h);
/* free the table's memory (at MPI_Finalize) */
void handle_table_destroy(handle_table_t *t);

#endif
