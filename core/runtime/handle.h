/*
 * handle.h -- tables that turn int handles into objects.  A handle is laid out as MPICH
 * lays out its handles (include/mpi.h, "basic types"): bits 30..31 its class (0 null, 1
 * and 2 predefined, 3 made at run time), the bits from HANDLE_KIND_SHIFT up to 29 the
 * table's kind, the bits below it an index.  A handle made at run time is its class, its
 * table's kind and its index in the table; a predefined one has the value mpi.h gives it,
 * which its table maps to the object's fixed index.  Nothing here knows MPI: each object
 * module (comm, dt, group, op, ...; requests are the API layer's) owns one
 * handle_table_t, gives it the kind of its handles (COMPI_HKIND_*, checked against mpi.h
 * in core/mpi) and offers a static inline xxx_from_handle() built on handle_get().
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

#define HANDLE_KIND_SHIFT 25
#define HANDLE_CLASS_SHIFT 30
#define HANDLE_CLASS_DYNAMIC 3u
#define HANDLE_IDX_MASK ((1u << HANDLE_KIND_SHIFT) - 1)
#define HANDLE_MAX_IDX HANDLE_IDX_MASK
/* predefined objects a table holds at most (fixed indices 1 .. HANDLE_MAX_FIXED - 1) */
#define HANDLE_MAX_FIXED 128
/* the slot of a predefined handle in a table's map: its class and its low byte */
#define HANDLE_PREDEF_KEY(uh) (((uh)&0xffu) | (((uh) >> (HANDLE_CLASS_SHIFT - 8)) & 0x300u))

typedef struct handle_table {
    void **objs;      /* objs[idx]: the object, or NULL when free */
    unsigned n;       /* slots in use or ever used (high-water mark) */
    unsigned cap;
    unsigned kind;    /* the handles' bits from HANDLE_KIND_SHIFT to 29 (COMPI_HKIND_*) */
    unsigned nfixed;  /* indices below this are predefined and never freed */
    unsigned *freelist; /* the freed slots, oldest first: a ring of freecap (a power of
                           two) entries from freehead */
    unsigned nfree;
    unsigned freecap, freehead;
    /* predefined handles: predef_idx[HANDLE_PREDEF_KEY(h)] is the fixed index of h (0:
       none), predef_val[idx] the handle of fixed index idx */
    unsigned char predef_idx[1024];
    unsigned predef_val[HANDLE_MAX_FIXED];
} handle_table_t;

#define HANDLE_TABLE_INIT(k, fixed)                                                           \
    { .objs = NULL, .n = 0, .cap = 0, .kind = (k), .nfixed = (fixed), .freelist = NULL,       \
      .nfree = 0, .freecap = 0, .freehead = 0 }

/* the handle of index `idx` in a table of kind `kind`, made at run time */
#define HANDLE_MAKE(kind, idx)                                                                     \
    ((int)((HANDLE_CLASS_DYNAMIC << HANDLE_CLASS_SHIFT) |                                          \
           ((unsigned)(kind) << HANDLE_KIND_SHIFT) | (unsigned)(idx)))
/* a predefined handle of class 1 of a table of kind `kind`, its low bits `low` (MPI_SUM) */
#define HANDLE_BUILTIN(kind, low)                                                                  \
    ((int)((1u << HANDLE_CLASS_SHIFT) | ((unsigned)(kind) << HANDLE_KIND_SHIFT) | (unsigned)(low)))
/* whether `h`, of any class, is a handle of kind `kind` (ignoring the bit that tells
   messages from requests) */
#define HANDLE_IS_KIND(h, kind)                                                                    \
    (((((unsigned)(h) >> (HANDLE_KIND_SHIFT + 1)) ^ ((unsigned)(kind) >> 1)) & 0xfu) == 0)

/* returns the object, or NULL when `h` is of another kind, null, out of range or freed */
static inline void *handle_get(const handle_table_t *t, int h)
{
    unsigned uh = (unsigned)h;
    unsigned idx;
    if (compi_likely((uh >> HANDLE_KIND_SHIFT) == ((HANDLE_CLASS_DYNAMIC << 5) | t->kind))) {
        idx = uh & HANDLE_IDX_MASK;
        if (compi_unlikely(idx < t->nfixed)) {
            return NULL;
        }
    } else {
        idx = t->predef_idx[HANDLE_PREDEF_KEY(uh)];
        if (idx == 0 || t->predef_val[idx] != uh) {
            return NULL;
        }
    }
    if (compi_unlikely(idx >= t->n)) {
        return NULL;
    }
    return t->objs[idx];
}

/* store `obj`, of the predefined handle `h`, at a fixed index (0 < idx < nfixed).  The
   predefined handles of one table must differ in their class or low byte: a handle whose
   map slot another fixed index holds is an error (COMPI_ERR_INVALID_PARAM) */
compi_status_t handle_set_fixed(handle_table_t *t, unsigned idx, int h, void *obj);
/* store `obj` in a free dynamic slot; *h_p receives the handle */
compi_status_t handle_alloc(handle_table_t *t, void *obj, int *h_p);
/* release a dynamic slot (predefined ones are never released) */
void handle_free(handle_table_t *t, int h);
/* free the table's memory (at MPI_Finalize) */
void handle_table_destroy(handle_table_t *t);

#endif
