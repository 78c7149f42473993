/*
 * args.h -- the argument checks of the API layer, one function per kind of argument of
 * the MPI standard's description: communicator, count, datatype, buffer, ranks
 * (destination, source, root), tags, requests, statuses and output pointers, and the MPI
 * error for an internal status.  The generated entry points (core/mpi/gen/, tools/mpigen/cgen.py)
 * call them by the kind of each parameter; hand-written entries call the same ones.
 * Only the API layer (core/mpi/) includes this.
 * Collectives add their own checks on top (core/mpi/coll_args.h); request handles are in
 * core/mpi/req_handle.h.
 *
 * Each check returns MPI_SUCCESS or the value of mpi_err_raise() (the class, when the
 * error handler returns), so callers chain them: `if (rc == MPI_SUCCESS) rc = ...`.
 * `what` names the argument in the message ("count", "send datatype", "receive buffer").
 *
 * Ownership: nothing here allocates; the communicators and datatypes returned through
 * the _p arguments are borrowed from their handle tables for the call.
 */
#ifndef COMPI_MPI_ARGS_H
#define COMPI_MPI_ARGS_H

#include "core/comm/comm.h"
#include "core/dt/dt.h"
#include "core/mpi/errors.h"
#include "core/mpi/info.h"
#include "core/mpi/mpi_state.h"
#include "core/mpi/req_handle.h"

#include <limits.h>
#include <mpi.h>
#include <stddef.h>

#define MPI_ARG_TAG_UB INT_MAX

static inline int mpi_arg_comm(MPI_Comm h, const char *fn, compi_comm_t **c_p)
{
    compi_comm_t *c = comm_from_handle(h);
    if (compi_unlikely(c == NULL)) {
        return mpi_err_raise(NULL, MPI_ERR_COMM, fn, "invalid communicator (handle 0x%x)",
                             (unsigned)h);
    }
    *c_p = c;
    return MPI_SUCCESS;
}

/* an int count or an MPI_Count one (the _c functions): both arrive here as MPI_Count */
static inline int mpi_arg_count(compi_comm_t *c, MPI_Count count, const char *what, const char *fn)
{
    if (compi_unlikely(count < 0)) {
        return mpi_err_raise(c, MPI_ERR_COUNT, fn, "%s=%lld is negative", what, (long long)count);
    }
    return MPI_SUCCESS;
}

/* a datatype that describes (a status's elements, a constructor's old type): valid,
   committed or not */
static inline int mpi_arg_type_valid(compi_comm_t *c, MPI_Datatype h, const char *what,
                                     const char *fn, compi_datatype_t **dt_p)
{
    compi_datatype_t *dt = dt_from_handle(h);
    if (compi_unlikely(dt == NULL)) {
        return mpi_err_raise(c, MPI_ERR_TYPE, fn, "invalid %s (handle 0x%x)", what, (unsigned)h);
    }
    *dt_p = dt;
    return MPI_SUCCESS;
}

/* the datatype of a buffer: valid and committed */
static inline int mpi_arg_type(compi_comm_t *c, MPI_Datatype h, const char *what, const char *fn,
                               compi_datatype_t **dt_p)
{
    int rc = mpi_arg_type_valid(c, h, what, fn, dt_p);
    if (compi_unlikely(rc != MPI_SUCCESS)) {
        return rc;
    }
    if (compi_unlikely(!(*dt_p)->committed && !(*dt_p)->predefined)) {
        return mpi_err_raise(c, MPI_ERR_TYPE, fn, "%s %s is not committed", what, dt_name(*dt_p));
    }
    return MPI_SUCCESS;
}

/* A buffer that holds `count` elements must not be NULL, except as MPI_BOTTOM with a
   datatype of absolute addresses (true_lb != 0). */
static inline int mpi_arg_buf(compi_comm_t *c, const void *buf, size_t count,
                              const compi_datatype_t *dt, const char *what, const char *fn)
{
    if (compi_unlikely(buf == NULL && count > 0 && dt->size > 0 && dt->true_lb == 0)) {
        return mpi_err_raise(c, MPI_ERR_BUFFER, fn, "%s is NULL with %zu elements", what, count);
    }
    return MPI_SUCCESS;
}

/* a buffer of `size` bytes (the size checked before): not NULL when it holds any */
static inline int mpi_arg_bytes(compi_comm_t *c, const void *buf, size_t size, const char *what,
                                const char *fn)
{
    if (compi_unlikely(buf == NULL && size > 0)) {
        return mpi_err_raise(c, MPI_ERR_BUFFER, fn, "%s is NULL with %zu bytes", what, size);
    }
    return MPI_SUCCESS;
}

/* which side of a call a count, datatype and buffer belong to, for the messages */
typedef enum { MPI_ARG_ONE, MPI_ARG_SEND, MPI_ARG_RECV } mpi_arg_side_t;

/* count, datatype and buffer of one side of a call */
static inline int mpi_arg_data(compi_comm_t *c, const void *buf, MPI_Count count, MPI_Datatype type,
                               mpi_arg_side_t side, const char *fn, compi_datatype_t **dt_p)
{
    static const char *const names[][3] = {
        [MPI_ARG_ONE] = {"count", "datatype", "buffer"},
        [MPI_ARG_SEND] = {"sendcount", "send datatype", "send buffer"},
        [MPI_ARG_RECV] = {"recvcount", "receive datatype", "receive buffer"},
    };
    int rc = mpi_arg_count(c, count, names[side][0], fn);
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_type(c, type, names[side][1], fn, dt_p);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_buf(c, buf, (size_t)count, *dt_p, names[side][2], fn);
    }
    return rc;
}

static inline int mpi_arg_root(compi_comm_t *c, int root, const char *fn)
{
    if (compi_unlikely(root < 0 || root >= c->size)) {
        return mpi_err_raise(c, MPI_ERR_ROOT, fn, "root=%d is not in [0, %d)", root, c->size);
    }
    return MPI_SUCCESS;
}

/* a destination: a rank of comm or MPI_PROC_NULL */
static inline int mpi_arg_dest_rank(compi_comm_t *c, int dest, const char *fn)
{
    if (compi_unlikely((dest < 0 || dest >= c->size) && dest != MPI_PROC_NULL)) {
        return mpi_err_raise(c, MPI_ERR_RANK, fn, "dest=%d is not in [0, %d)", dest, c->size);
    }
    return MPI_SUCCESS;
}

/* a source: a rank of comm, MPI_ANY_SOURCE or MPI_PROC_NULL */
static inline int mpi_arg_source_rank(compi_comm_t *c, int source, const char *fn)
{
    if (compi_unlikely((source < 0 || source >= c->size) && source != MPI_PROC_NULL &&
                       source != MPI_ANY_SOURCE)) {
        return mpi_err_raise(c, MPI_ERR_RANK, fn, "source=%d is not in [0, %d)", source, c->size);
    }
    return MPI_SUCCESS;
}

/* the tag of a send: 0..TAG_UB */
static inline int mpi_arg_send_tag(compi_comm_t *c, int tag, const char *fn)
{
    if (compi_unlikely(tag < 0 || tag > MPI_ARG_TAG_UB)) {
        return mpi_err_raise(c, MPI_ERR_TAG, fn, "tag=%d is not in [0, %d]", tag, MPI_ARG_TAG_UB);
    }
    return MPI_SUCCESS;
}

/* the tag of a receive or a probe: 0..TAG_UB or MPI_ANY_TAG */
static inline int mpi_arg_recv_tag(compi_comm_t *c, int tag, const char *fn)
{
    if (compi_unlikely((tag < 0 && tag != MPI_ANY_TAG) || tag > MPI_ARG_TAG_UB)) {
        return mpi_err_raise(c, MPI_ERR_TAG, fn, "tag=%d is neither MPI_ANY_TAG nor in [0, %d]",
                             tag, MPI_ARG_TAG_UB);
    }
    return MPI_SUCCESS;
}

/* destination and tag of a send */
static inline int mpi_arg_dest(compi_comm_t *c, int dest, int tag, const char *fn)
{
    int rc = mpi_arg_dest_rank(c, dest, fn);
    return rc == MPI_SUCCESS ? mpi_arg_send_tag(c, tag, fn) : rc;
}

/* source and tag of a receive */
static inline int mpi_arg_source(compi_comm_t *c, int source, int tag, const char *fn)
{
    int rc = mpi_arg_source_rank(c, source, fn);
    return rc == MPI_SUCCESS ? mpi_arg_recv_tag(c, tag, fn) : rc;
}

/* a pointer the function writes its result through (a request, a flag, a message) */
static inline int mpi_arg_ptr(compi_comm_t *c, const void *p, const char *what, const char *fn)
{
    if (compi_unlikely(p == NULL)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "%s is NULL", what);
    }
    return MPI_SUCCESS;
}

/* a status the function reads or updates: neither NULL nor MPI_STATUS_IGNORE */
static inline int mpi_arg_status(compi_comm_t *c, const MPI_Status *st, const char *what,
                                 const char *fn)
{
    if (compi_unlikely(st == NULL || st == MPI_STATUS_IGNORE)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "%s is NULL or MPI_STATUS_IGNORE", what);
    }
    return MPI_SUCCESS;
}

/* a request handle: MPI_REQUEST_NULL gives *r_p = NULL (what a null request means is the
   caller's); an invalid or freed handle is MPI_ERR_REQUEST */
static inline int mpi_arg_request(compi_comm_t *c, MPI_Request h, const char *fn,
                                  compi_request_t **r_p)
{
    if (h == MPI_REQUEST_NULL) {
        *r_p = NULL;
        return MPI_SUCCESS;
    }
    compi_request_t *r = req_from_handle(h);
    if (compi_unlikely(r == NULL)) {
        return mpi_err_raise(c, MPI_ERR_REQUEST, fn, "invalid request handle 0x%x", (unsigned)h);
    }
    *r_p = r;
    return MPI_SUCCESS;
}

/* an array of `count` request handles (the count checked before): each valid or
   MPI_REQUEST_NULL */
static inline int mpi_arg_requests(compi_comm_t *c, int count, const MPI_Request *reqs,
                                   const char *what, const char *fn)
{
    if (compi_unlikely(count > 0 && reqs == NULL)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "%s is NULL", what);
    }
    for (int i = 0; i < count; i++) {
        compi_request_t *r;
        int rc = mpi_arg_request(c, reqs[i], fn, &r);
        if (compi_unlikely(rc != MPI_SUCCESS)) {
            return rc;
        }
    }
    return MPI_SUCCESS;
}

/* ---- process topologies (core/mpi/topo_api.c) ---- */

/* the number of dimensions of a grid: not negative (MPI_ERR_DIMS) */
static inline int mpi_arg_ndims(compi_comm_t *c, int ndims, const char *fn)
{
    if (compi_unlikely(ndims < 0)) {
        return mpi_err_raise(c, MPI_ERR_DIMS, fn, "ndims=%d is negative", ndims);
    }
    return MPI_SUCCESS;
}

/* the length of an array (of ranks, of dimensions...) or a degree: not negative
   (MPI_ERR_ARG) */
static inline int mpi_arg_length(compi_comm_t *c, int n, const char *what, const char *fn)
{
    if (compi_unlikely(n < 0)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "%s=%d is negative", what, n);
    }
    return MPI_SUCCESS;
}

/* an array of `n` elements (n checked before): not NULL when it has any */
static inline int mpi_arg_array(compi_comm_t *c, int n, const void *a, const char *what,
                                const char *fn)
{
    if (compi_unlikely(n > 0 && a == NULL)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "%s is NULL with %d elements", what, n);
    }
    return MPI_SUCCESS;
}

/* an array of `n` ranks of c (MPI_ERR_RANK; NULL with ranks MPI_ERR_ARG) */
static inline int mpi_arg_ranks(compi_comm_t *c, int n, const int *r, const char *what,
                                const char *fn)
{
    int rc = mpi_arg_array(c, n, r, what, fn);
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        if (compi_unlikely(r[i] < 0 || r[i] >= c->size)) {
            rc = mpi_err_raise(c, MPI_ERR_RANK, fn, "%s[%d]=%d is not in [0, %d)", what, i, r[i],
                               c->size);
        }
    }
    return rc;
}

/* ---- partitioned communication, memory and window constructors (core/mpi/part_api.c,
   mem_api.c, win_api.c) ---- */

/* the number of partitions of a buffer: at least one (MPI_ERR_ARG) */
static inline int mpi_arg_partitions(compi_comm_t *c, int partitions, const char *fn)
{
    if (compi_unlikely(partitions < 1)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "partitions=%d is not positive", partitions);
    }
    return MPI_SUCCESS;
}

/* the count of each of `partitions` partitions (checked before): not negative, and all of
   them an MPI_Count (MPI_ERR_COUNT) */
static inline int mpi_arg_part_count(compi_comm_t *c, MPI_Count count, int partitions,
                                     const char *fn)
{
    if (compi_unlikely(count < 0 || count > LLONG_MAX / partitions)) {
        return mpi_err_raise(c, MPI_ERR_COUNT, fn,
                             "count=%lld per partition x %d partitions is negative or beyond "
                             "MPI_Count",
                             (long long)count, partitions);
    }
    return MPI_SUCCESS;
}

/* an info object; where `hint` (an argument of hints, not the object the call works on),
   MPI_INFO_NULL too */
static inline int mpi_arg_info(compi_comm_t *c, MPI_Info h, int hint, const char *what,
                               const char *fn)
{
    if (compi_unlikely(!(hint && h == MPI_INFO_NULL) && !mpi_info_valid(h))) {
        return mpi_err_raise(c, MPI_ERR_INFO, fn, "invalid %s (handle 0x%x%s)", what, (unsigned)h,
                             h == MPI_INFO_NULL ? ", MPI_INFO_NULL" : "");
    }
    return MPI_SUCCESS;
}

/* a window's displacement unit: positive, and an int, which a window keeps (the
   large-count forms' is an MPI_Aint) (MPI_ERR_DISP) */
static inline int mpi_arg_disp_unit(compi_comm_t *c, MPI_Aint disp_unit, const char *fn)
{
    if (compi_unlikely(disp_unit <= 0 || disp_unit > INT_MAX)) {
        return mpi_err_raise(c, MPI_ERR_DISP, fn, "disp_unit=%ld is %s", (long)disp_unit,
                             disp_unit <= 0 ? "not positive" : "beyond the int compi keeps");
    }
    return MPI_SUCCESS;
}

/* a size in bytes: not negative (MPI_ERR_SIZE) */
static inline int mpi_arg_size(compi_comm_t *c, MPI_Aint size, const char *what, const char *fn)
{
    if (compi_unlikely(size < 0)) {
        return mpi_err_raise(c, MPI_ERR_SIZE, fn, "%s=%ld is negative", what, (long)size);
    }
    return MPI_SUCCESS;
}

/* an output count of an int form: MPI_UNDEFINED when it is beyond int */
static inline int mpi_count_int(MPI_Count n)
{
    return n > INT_MAX ? MPI_UNDEFINED : (int)n;
}

/* an internal status as an MPI error raised on `c`; `ctx` (or NULL) is added to the
   message of the statuses without a message of their own */
static inline int mpi_raise_status(compi_comm_t *c, compi_status_t st, const char *fn,
                                   const char *ctx)
{
    switch (st) {
    case COMPI_ERR_TRUNCATE:
        return mpi_err_raise(c, MPI_ERR_TRUNCATE, fn,
                             "message truncated: a receive buffer is smaller than the data");
    case COMPI_ERR_NO_MEMORY:
        return mpi_err_raise(c, MPI_ERR_NO_MEM, fn, "out of memory");
    default:
        return mpi_err_raise(c, mpi_err_class_of(st), fn, "%s%s%s%s", compi_status_string(st),
                             ctx != NULL ? " (" : "", ctx != NULL ? ctx : "",
                             ctx != NULL ? ")" : "");
    }
}

/* The MPI error class of a status from the PML or of a request's result (the PML's, a
   schedule's): mpi_err_class_of, except that from the PML COMPI_ERR_NO_RESOURCE means that
   a buffered send found the attached buffer too small.  Every completion maps here. */
static inline int mpi_p2p_class_of(compi_status_t st)
{
    return st == COMPI_ERR_NO_RESOURCE ? MPI_ERR_BUFFER : mpi_err_class_of(st);
}

/* the same, raised on `c` */
static inline int mpi_raise_p2p_status(compi_comm_t *c, compi_status_t st, const char *fn)
{
    if (st == COMPI_ERR_NO_RESOURCE) {
        return mpi_err_raise(c, MPI_ERR_BUFFER, fn,
                             "attached buffer too small for this buffered send");
    }
    return mpi_raise_status(c, st, fn, NULL);
}

#endif
