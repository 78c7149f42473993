/*
 * abi.h -- the conversions of the standard ABI layer (libmpi_abi.so.1): the generated
 * wrappers (abi/gen/abi_wrap.c) and the hand-written ones (abi/abi_manual.c) see the
 * standard's types (include/mpi_abi.h) and call compi's native functions through
 * abi_n, a table of their addresses in libmpi.so.12 (abi/abi_core.c fills it when the
 * library is loaded).  Native handles are ints (include/mpi.h); the native status is
 * abi_nstatus_t.
 *
 * A handle of the standard ABI is a pointer.  The predefined ones are small integers
 * (below ABI_NPRE): abi_pre, indexed by the value, gives the native handle.  Any other
 * is a native handle made at run time, its int in the pointer's value: native handles
 * of run-time objects have their two top bits set (include/mpi.h), so they never fall
 * below ABI_NPRE.  The way back looks a native predefined handle up in a small hash
 * (abi_rev); a run-time one is its own value.
 */
#ifndef COMPI_ABI_H
#define COMPI_ABI_H

#include <mpi_abi.h>
#include <stdint.h>
#include <stdlib.h>

/* compi's native MPI_Status (include/mpi.h; abi/abi_native.c checks the layout) */
typedef struct {
    int count_lo;
    int count_hi_and_cancelled;
    int source;
    int tag;
    int error;
} abi_nstatus_t;

#include "abi/gen/abi_native.h"

extern struct abi_native abi_n;

#define ABI_NPRE 1024
extern const int abi_pre[ABI_NPRE];

/* native sentinels (abi/abi_native.c checks them against include/mpi.h) */
#define ABI_N_STATUS_IGNORE ((abi_nstatus_t *)1)
#define ABI_N_STATUSES_IGNORE ((abi_nstatus_t *)1)
#define ABI_N_IN_PLACE ((void *)-1)
#define ABI_N_BUFFER_AUTOMATIC ((void *)-2)
extern int *abi_n_unweighted, *abi_n_weights_empty;

/* the standard's value of a native predefined or null handle; block is the first value
   of its kind's block in the standard's numbering (0x100 communicators, ...) */
void *abi_rev(int n, unsigned block);

/* no native handle: marks an output the native call did not write */
#define ABI_N_UNSET 0x7fffffff

static inline int abi_h2n(const void *h)
{
    uintptr_t u = (uintptr_t)h;
    return u < ABI_NPRE ? abi_pre[u] : (int)(unsigned)u;
}

static inline void *abi_n2h_block(int n, unsigned block)
{
    return (unsigned)n >= 0xc0000000u ? (void *)(uintptr_t)(unsigned)n : abi_rev(n, block);
}

#define ABI_BLOCK_Op 0x20u
#define ABI_BLOCK_Comm 0x100u
#define ABI_BLOCK_Group 0x108u
#define ABI_BLOCK_Win 0x110u
#define ABI_BLOCK_File 0x118u
#define ABI_BLOCK_Session 0x120u
#define ABI_BLOCK_Message 0x128u
#define ABI_BLOCK_Info 0x130u
#define ABI_BLOCK_Errhandler 0x140u
#define ABI_BLOCK_Request 0x180u
#define ABI_BLOCK_Datatype 0x200u
#define abi_n2h(T, n) ((MPI_##T)abi_n2h_block((n), ABI_BLOCK_##T))

/* error codes: native classes below ABI_NERR have a table; codes added at run time
   (MPI_Add_error_code) are the same number on both sides */
int abi_err_n2a(int rc);
int abi_err_in(int code);
static inline int abi_err_out(int rc)
{
    return rc == 0 ? 0 : abi_err_n2a(rc);
}

/* the enumerations (abi/gen/abi_tables.c): values the two ABIs spell differently */
#define ABI_MAPS(g)                                                                                \
    int abi_map_##g##_in(int v);                                                                   \
    int abi_map_##g##_out(int v);
ABI_MAPS(rank)
ABI_MAPS(tag)
ABI_MAPS(undefined)
ABI_MAPS(thread)
ABI_MAPS(order)
ABI_MAPS(compare)
ABI_MAPS(topo)
ABI_MAPS(split)
ABI_MAPS(lock)
ABI_MAPS(typeclass)
ABI_MAPS(keyval)
ABI_MAPS(distribute)
ABI_MAPS(flavor)
ABI_MAPS(model)
ABI_MAPS(combiner)
ABI_MAPS(verbosity)
ABI_MAPS(bind)
ABI_MAPS(scope)
ABI_MAPS(pvarclass)
ABI_MAPS(cbsafety)
ABI_MAPS(sourceorder)
ABI_MAPS(seek)
#undef ABI_MAPS
int abi_mode_in(int v);
int abi_mode_out(int v);

/* ranks and tags are sentinels only when negative */
static inline int abi_rank_in(int r)
{
    return r >= 0 ? r : abi_map_rank_in(r);
}
static inline int abi_rank_out(int r)
{
    return r >= 0 ? r : abi_map_rank_out(r);
}
static inline int abi_tag_in(int t)
{
    return t >= 0 ? t : abi_map_tag_in(t);
}
static inline int abi_tag_out(int t)
{
    return t >= 0 ? t : abi_map_tag_out(t);
}
#define abi_undefined_in abi_map_undefined_in
#define abi_undefined_out abi_map_undefined_out
#define abi_thread_in abi_map_thread_in
#define abi_thread_out abi_map_thread_out
#define abi_order_in abi_map_order_in
#define abi_compare_out abi_map_compare_out
#define abi_topo_out abi_map_topo_out
#define abi_split_in abi_map_split_in
#define abi_lock_in abi_map_lock_in
#define abi_typeclass_in abi_map_typeclass_in
#define abi_keyval_in abi_map_keyval_in
#define abi_keyval_out abi_map_keyval_out
#define abi_combiner_out abi_map_combiner_out
#define abi_verbosity_out abi_map_verbosity_out
#define abi_bind_out abi_map_bind_out
#define abi_scope_out abi_map_scope_out
#define abi_pvarclass_in abi_map_pvarclass_in
#define abi_pvarclass_out abi_map_pvarclass_out
#define abi_cbsafety_in abi_map_cbsafety_in
#define abi_sourceorder_out abi_map_sourceorder_out
#define abi_seek_in abi_map_seek_in

/* files are pointers on both sides: the same ones, but for MPI_FILE_NULL (0x118 in the
   standard ABI, 0 natively) */
#define ABI_N_FILE_UNSET ((void *)1)
static inline void *abi_file_in(MPI_File f)
{
    return f == MPI_FILE_NULL ? NULL : (void *)f;
}
static inline MPI_File abi_file_out(void *f)
{
    return f == NULL ? MPI_FILE_NULL : (MPI_File)f;
}
/* a view's displacement: MPI_DISPLACEMENT_CURRENT is MPICH's number natively
   (abi/abi_native.c checks it) */
#define ABI_N_DISPLACEMENT_CURRENT ((MPI_Offset)-54278278)
static inline MPI_Offset abi_disp_in(MPI_Offset d)
{
    return d == MPI_DISPLACEMENT_CURRENT ? ABI_N_DISPLACEMENT_CURRENT : d;
}

/* the tool interface's handles are pointers on both sides, the same ones; only
   MPI_T_PVAR_ALL_HANDLES differs (the native one is the address of an object) */
extern void *abi_n_pvar_all_handles;
static inline void *abi_pvar_in(MPI_T_pvar_handle h)
{
    return h == MPI_T_PVAR_ALL_HANDLES ? abi_n_pvar_all_handles : (void *)h;
}

/* MPI_IN_PLACE is 1 in the standard ABI, -1 natively; MPI_BOTTOM is 0 in both */
static inline void *abi_buf(const void *p)
{
    return p == MPI_IN_PLACE ? ABI_N_IN_PLACE : (void *)p;
}

/* MPI_BUFFER_AUTOMATIC is 2 in the standard ABI, -2 natively: a buffer attached for
   buffered sends, and the address a detach gives back */
static inline void *abi_bsend_buf_in(void *p)
{
    return p == MPI_BUFFER_AUTOMATIC ? ABI_N_BUFFER_AUTOMATIC : p;
}

static inline void abi_bsend_addr_out(void *buffer_addr)
{
    if (buffer_addr != NULL && *(void **)buffer_addr == ABI_N_BUFFER_AUTOMATIC) {
        *(void **)buffer_addr = MPI_BUFFER_AUTOMATIC;
    }
}

static inline int *abi_weights(const int *w)
{
    return w == MPI_UNWEIGHTED ? abi_n_unweighted
                               : (w == MPI_WEIGHTS_EMPTY ? abi_n_weights_empty : (int *)w);
}

/* the standard's status keeps the native count in MPI_internal[0..1].  MPI_ERROR is only
   set where the native call set it (a multiple completion's error): the wrappers mark the
   native status's error ABI_N_ERROR_UNSET before the call */
#define ABI_N_ERROR_UNSET (-0x7fffffff)
static inline void abi_status_n2a(const abi_nstatus_t *n, MPI_Status *a)
{
    a->MPI_SOURCE = abi_rank_out(n->source);
    a->MPI_TAG = abi_tag_out(n->tag);
    if (n->error != ABI_N_ERROR_UNSET) {
        a->MPI_ERROR = abi_err_out(n->error);
    }
    a->MPI_internal[0] = n->count_lo;
    a->MPI_internal[1] = n->count_hi_and_cancelled;
}

static inline void abi_status_a2n(const MPI_Status *a, abi_nstatus_t *n)
{
    if (a == MPI_STATUS_IGNORE) {
        return;
    }
    n->source = abi_rank_in(a->MPI_SOURCE);
    n->tag = abi_tag_in(a->MPI_TAG);
    n->error = abi_err_in(a->MPI_ERROR);
    n->count_lo = a->MPI_internal[0];
    n->count_hi_and_cancelled = a->MPI_internal[1];
}

/* a temporary native array: on the stack when short */
#define ABI_TMP(type, name, n)                                                                     \
    type name##_stack[8];                                                                          \
    type *name = (n) <= 8 ? name##_stack : malloc(sizeof(type) * (size_t)(n))
#define ABI_TMP_FREE(name)                                                                         \
    do {                                                                                           \
        if (name != name##_stack) {                                                                \
            free(name);                                                                            \
        }                                                                                          \
    } while (0)

#endif
