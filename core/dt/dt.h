/*
 * dt.h -- the datatype engine: predefined and derived datatypes, pack and unpack.
 *
 * A datatype is flattened at creation into `blocks`: the contiguous pieces of a UNIT in
 * type-map order, each tagged with its basic type, with adjacent pieces merged when they
 * are contiguous and of the same basic type.  One element is `nrep` units, unit r shifted
 * by r * rep_stride (nrep is 1, the unit the whole element, except for a regular type of
 * many blocks: vector(10^9, 1, 2, MPI_INT) is one block repeated 10^9 times, described in
 * constant memory and time).  The packed stream of `count` elements is count * nrep units;
 * dt_unit_shift says where each lies.  Pack and unpack can start at any byte offset of
 * the packed stream, so the PML can fill fragments one at a time.
 *
 * Ownership: datatypes are refcounted (dt_retain/dt_release).  Predefined types are
 * static and never freed.  A request that uses a datatype retains it until completion,
 * so MPI_Type_free on a type in flight is safe.  The dt_create_* constructors allocate
 * the object AND its handle (refcount 1, owned by the caller).  MPI_Type_free frees the
 * handle at once (dt_forget_handle) and drops the user's reference; the memory goes with
 * the last dt_release.  The envelope arrays belong to the datatype (integers, addresses
 * and, for a type made by a large-count constructor, MPI_Count large counts, as
 * MPI_Type_get_contents_c returns them), and the datatypes
 * in env_types are retained by it (released with it), so MPI_Type_get_contents can
 * describe a type whose constituents the user has already freed.
 */
#ifndef COMPI_DT_H
#define COMPI_DT_H

#include "core/include/compi_common.h"
#include "core/include/compi_status.h"
#include "core/runtime/handle.h"

#include <mpi.h>
#include <stddef.h>
#include <sys/uio.h>

typedef struct dt_block {
    ptrdiff_t disp; /* from the element's start (buf), may be negative */
    size_t len;     /* bytes */
    int basic;      /* index of the predefined basic type in this block (MPI_INT's: 8) */
} dt_block_t;

typedef struct compi_datatype {
    /* hot: read on every send and receive */
    size_t size;          /* bytes of data in one element */
    ptrdiff_t lb, extent; /* extent = ub - lb */
    ptrdiff_t true_lb, true_extent;
    int contig;           /* the blocks of one element follow each other in memory and
                             size == extent (or size == 0): `count` elements are
                             size*count bytes at buf + true_lb */
    int nblocks;          /* of one unit */
    dt_block_t *blocks;
    size_t *block_off;    /* packed offset of each block in one unit; [nblocks] = unit_size.
                             Pack at an offset finds its block by binary search here */
    size_t nrep;          /* units in one element (1: the blocks are the whole element) */
    ptrdiff_t rep_stride; /* bytes from one unit to the next inside an element */
    size_t unit_size;     /* bytes of data in one unit: size / nrep */

    /* cold */
    int handle;
    int refcount;
    int committed;
    int predefined;
    int basic;            /* for predefined: own index; derived of a single basic type:
                             that index; mixed: -1 */
    size_t nbasic;        /* basic elements in one element (for MPI_Get_elements) */
    int combiner;         /* MPI_COMBINER_* */
    int *env_ints; MPI_Aint *env_addrs;  /* MPI_Type_get_contents */
    MPI_Count *env_counts;               /* the large counts of a _c constructor */
    struct compi_datatype **env_types;    /* retained */
    int n_ints, n_addrs, n_counts, n_types;
    char name[MPI_MAX_OBJECT_NAME];
    struct attr_list *attrs;
    size_t align;         /* largest alignment of a basic type inside (struct padding) */
    int lb_marked, ub_marked; /* bounds set explicitly (MPI_LB/MPI_UB, resized): sticky */
} compi_datatype_t;

extern handle_table_t dt_table;

static inline compi_datatype_t *dt_from_handle(MPI_Datatype h)
{
    return (compi_datatype_t *)handle_get(&dt_table, h);
}

/* MPI_BYTE's type: packed bytes, for layers that name no MPI handle (core/pml) */
static inline compi_datatype_t *dt_byte(void)
{
    return dt_from_handle(MPI_BYTE);
}

compi_status_t dt_init(void);     /* fills the predefined table */
void dt_finalize(void);

void dt_retain(compi_datatype_t *dt);
void dt_release(compi_datatype_t *dt);  /* frees a derived type when the count drops to 0 */

/* where unit `u` of the packed stream starts, from the buffer: unit u % nrep of element
   u / nrep */
static inline ptrdiff_t dt_unit_shift(const compi_datatype_t *dt, size_t u)
{
    if (dt->nrep == 1) {
        return (ptrdiff_t)u * dt->extent;
    }
    return (ptrdiff_t)(u / dt->nrep) * dt->extent + (ptrdiff_t)(u % dt->nrep) * dt->rep_stride;
}

/* start of the data when `count` elements form one contiguous range, else NULL */
static inline void *dt_contig_ptr(const compi_datatype_t *dt, const void *buf, size_t count)
{
    if (dt->contig || (count == 1 && dt->nblocks == 1 && dt->nrep == 1)) {
        return (char *)buf + dt->true_lb;
    }
    if (count == 0 || dt->size == 0) {
        return (void *)buf;
    }
    return NULL;
}

/*
 * Pack bytes [offset, offset+max) of the packed representation of `count` elements at
 * `buf` into `dst`.  Returns the bytes written (less than max at the end of the data).
 */
size_t dt_pack(const compi_datatype_t *dt, const void *buf, size_t count, size_t offset,
               void *dst, size_t max);
/* The inverse: write `len` packed bytes `src`, which start at stream offset `offset`. */
size_t dt_unpack(const compi_datatype_t *dt, void *buf, size_t count, size_t offset,
                 const void *src, size_t len);
/*
 * Describe bytes [offset, offset+max_bytes) of the data as at most `max_iov` iovecs
 * (for single-copy transfers).  Returns how many iovecs were filled; *bytes_p gets the
 * bytes they cover (less than asked when max_iov ran out).
 */
int dt_to_iov(const compi_datatype_t *dt, const void *buf, size_t count, size_t offset,
              size_t max_bytes, struct iovec *iov, int max_iov, size_t *bytes_p);

/*
 * Copies and combinations between two typed buffers (dt_copy.c), over bytes
 * [offset, offset + len) of their packed streams (the caller keeps the range inside both).
 * A side whose datatype is NULL is packed bytes that start at `offset` (buf holds byte
 * `offset` of the stream).  Nothing is allocated: the walk keeps two cursors.
 */
void dt_copy(const compi_datatype_t *ddt, void *dbuf, const compi_datatype_t *sdt, const void *sbuf,
             size_t offset, size_t len);
/* one stretch contiguous on both sides; `basic` is its basic type (an index of the
   predefined table) when the walk was asked for it, else -1 or any */
typedef compi_status_t (*dt_zip_fn)(void *ctx, char *dst, const char *src, size_t n, int basic);
/* the walk behind dt_copy: fn on each stretch in stream order; by_basic: stretches never
   mix basic types (the destination's, or the source's when the destination is packed) */
compi_status_t dt_zip(const compi_datatype_t *ddt, void *dbuf, const compi_datatype_t *sdt,
                      const void *sbuf, size_t offset, size_t len, int by_basic, dt_zip_fn fn,
                      void *ctx);
/* the predefined datatype of basic type index `basic` */
const compi_datatype_t *dt_basic_type(int basic);

/*
 * Basic elements in the first `bytes` bytes of a packed stream of `dt` (MPI_Get_elements).
 * Returns -1 when `bytes` ends inside a basic element.
 */
long long dt_count_basic(const compi_datatype_t *dt, size_t bytes);

/* Bytes of the packed stream holding the first `nbasic` basic elements
 * (MPI_Status_set_elements): the inverse of dt_count_basic. */
size_t dt_bytes_of_basic(const compi_datatype_t *dt, size_t nbasic);

/* name of a predefined type, e.g. "MPI_INT" (for messages); the user's name if set */
const char *dt_name(const compi_datatype_t *dt);

/* how a type was built, as MPI_Type_get_envelope(_c) and _contents(_c) describe it */
typedef struct dt_env {
    int combiner;
    int n_ints, n_addrs, n_counts, n_types;
    const int *ints;
    const MPI_Aint *addrs;
    const MPI_Count *counts; /* large counts: only a _c constructor has them */
    const MPI_Datatype *types;
} dt_env_t;

/* Record how a type was built (MPI_Type_get_envelope); copies the arrays and retains
 * the datatypes behind the handles in env->types (which must all be valid). */
compi_status_t dt_set_envelope(compi_datatype_t *dt, const dt_env_t *env);
/* MPI_Type_free: the handle becomes invalid now, the object lives while retained */
void dt_forget_handle(compi_datatype_t *dt);

/* constructors used by the API layer; the new type is not committed */
compi_status_t dt_create_contiguous(size_t count, compi_datatype_t *old, compi_datatype_t **new_p);
compi_status_t dt_create_hvector(size_t count, size_t blocklen, ptrdiff_t stride_bytes,
                                 compi_datatype_t *old, compi_datatype_t **new_p);
compi_status_t dt_create_hindexed(size_t count, const size_t *blocklens,
                                  const ptrdiff_t *disps_bytes, compi_datatype_t *old,
                                  compi_datatype_t **new_p);
compi_status_t dt_create_struct(size_t count, const size_t *blocklens,
                                const ptrdiff_t *disps_bytes, compi_datatype_t *const *types,
                                compi_datatype_t **new_p);
compi_status_t dt_create_resized(compi_datatype_t *old, ptrdiff_t lb, ptrdiff_t extent,
                                 compi_datatype_t **new_p);
compi_status_t dt_dup(compi_datatype_t *old, compi_datatype_t **new_p);
/* a copy of `old` with a handle of its own and the same envelope (combiner and
   arguments): the new type MPI_Type_get_contents hands out for a derived constituent */
compi_status_t dt_clone(compi_datatype_t *old, compi_datatype_t **new_p);
/* sizes/subsizes/starts have ndims entries; order is MPI_ORDER_C or MPI_ORDER_FORTRAN */
compi_status_t dt_create_subarray(int ndims, const size_t *sizes, const size_t *subsizes,
                                  const size_t *starts, int order, compi_datatype_t *old,
                                  compi_datatype_t **new_p);

/*
 * The type MPI_Type_create_f90_{real,complex,integer} returns: a copy of `base` with the
 * F90 combiner and (p, r) (n_ints 1: r only) as its envelope, predefined (never freed
 * before dt_finalize, MPI_Type_free refuses it).  Made once per (combiner, p, r): the
 * same arguments give the same handle.
 */
compi_status_t dt_f90_type(int combiner, int n_ints, const int *ints, compi_datatype_t *base,
                           compi_datatype_t **dt_p);

/*
 * MPI_Type_create_darray: the part of a ndims-dimensional global array that process
 * `rank` of a `size`-process grid (psizes, row-major) owns.  distribs are
 * MPI_DISTRIBUTE_BLOCK/CYCLIC/NONE, dargs a positive block size or
 * MPI_DISTRIBUTE_DFLT_DARG.  The caller has checked the arguments (dt_darray_check).
 */
compi_status_t dt_create_darray(int size, int rank, int ndims, const int *gsizes,
                                const int *distribs, const int *dargs, const int *psizes,
                                int order, compi_datatype_t *old, compi_datatype_t **new_p);

/* ---- external32 (dt_external.c) ---- */

/* bytes of `count` elements of `dt` in external32 */
size_t dt_external_size(const compi_datatype_t *dt, size_t count);
/* write `count` elements at `buf` as external32 at `dst` (dt_external_size bytes) */
void dt_pack_external(const compi_datatype_t *dt, const void *buf, size_t count, void *dst);
/* the inverse: read dt_external_size bytes at `src` into `count` elements at `buf` */
void dt_unpack_external(const compi_datatype_t *dt, void *buf, size_t count, const void *src);

#endif
