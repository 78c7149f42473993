/*
 * args.h -- the argument checks of the API layer, one function per kind of argument of
 * the MPI standard's description: communicator, count, datatype, buffer, ranks
 * (destination, source, root), tags, requests, statuses and output pointers; groups, info
 * objects, ops, error handlers, colors and arrays with their lengths; and the MPI error for
 * an internal status.  The generated entry points (core/mpi/gen/, tools/mpigen/cgen.py)
 * call them by the kind of each parameter; hand-written entries call the same ones.
 * Only the API layer (core/mpi/) includes this.
 * Collectives add their own in a block of their own below (root on an intercommunicator,
 * MPI_IN_PLACE, aliasing, count arrays, op, topology); request handles are in
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

#include "core/coll/coll.h"
#include "core/comm/comm.h"
#include "core/dt/dt.h"
#include "core/mpi/errors.h"
#include "core/mpi/info.h"
#include "core/mpi/mpi_state.h"
#include "core/mpi/req_handle.h"
#include "core/op/op.h"

#include <limits.h>
#include <mpi.h>
#include <stddef.h>
#include <string.h>

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

/* ---- groups, communicators, info, keyvals, error handlers, ops ---- */

/* a group handle (MPI_GROUP_NULL is not one) */
static inline int mpi_arg_group(compi_comm_t *c, MPI_Group h, const char *what, const char *fn,
                                compi_group_t **g_p)
{
    compi_group_t *g = group_from_handle(h);
    if (compi_unlikely(g == NULL)) {
        return mpi_err_raise(c, MPI_ERR_GROUP, fn, "%s: %s (handle 0x%x)", what,
                             h == MPI_GROUP_NULL ? "MPI_GROUP_NULL" : "invalid group, or freed",
                             (unsigned)h);
    }
    *g_p = g;
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

/* an operation handle (MPI_OP_NULL is not one) */
static inline int mpi_arg_op_handle(compi_comm_t *c, MPI_Op h, const char *what, const char *fn,
                                    compi_op_t **o_p)
{
    compi_op_t *o = op_from_handle(h);
    if (compi_unlikely(o == NULL)) {
        return mpi_err_raise(c, MPI_ERR_OP, fn, "invalid %s (handle 0x%x)", what, (unsigned)h);
    }
    *o_p = o;
    return MPI_SUCCESS;
}

/* an error handler's handle (MPI_ERRHANDLER_NULL is not one); the standard names no class
   of its own for it */
static inline int mpi_arg_errh(compi_comm_t *c, MPI_Errhandler h, const char *what, const char *fn,
                               compi_errhandler_t **e_p)
{
    compi_errhandler_t *e = errh_from_handle(h);
    if (compi_unlikely(e == NULL)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "invalid %s (handle 0x%x)", what, (unsigned)h);
    }
    *e_p = e;
    return MPI_SUCCESS;
}

/* the color of a split: not negative, or MPI_UNDEFINED */
static inline int mpi_arg_color(compi_comm_t *c, int color, const char *fn)
{
    if (compi_unlikely(color < 0 && color != MPI_UNDEFINED)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "color=%d must be >= 0 or MPI_UNDEFINED", color);
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

/* ---- collectives: what only collective calls check --------------------------------
 *
 * Intercommunicators (core/comm/comm.h): c->size is the remote group's size, so the
 * "many" sides (p blocks of a gather's root, an alltoall's) are checked against the
 * remote group as they should be; what differs is checked here: the root (MPI_ROOT,
 * MPI_PROC_NULL or a remote rank), no MPI_IN_PLACE, the counts of reduce-scatter (the
 * local group's), no scans.  Count and displacement arrays arrive as coll_vec_t views
 * (core/coll/coll.h) of the program's int, MPI_Count or MPI_Aint arrays.
 */

/* the root: a rank of an intracommunicator; on an intercommunicator MPI_ROOT (the root),
   MPI_PROC_NULL (the rest of the root's group) or the root's rank in the other group */
static inline int mpi_arg_coll_root(compi_comm_t *c, int root, const char *fn)
{
    if (comm_is_inter(c) && (root == MPI_ROOT || root == MPI_PROC_NULL)) {
        return MPI_SUCCESS;
    }
    if (compi_unlikely(comm_is_inter(c) && (root < 0 || root >= c->size))) {
        return mpi_err_raise(c, MPI_ERR_ROOT, fn,
                             "root=%d is not MPI_ROOT, MPI_PROC_NULL or a rank of the remote "
                             "group [0, %d)",
                             root, c->size);
    }
    return mpi_arg_root(c, root, fn);
}

/* MPI_IN_PLACE where the standard does not allow it; `what` names the argument */
static inline int mpi_arg_no_in_place(compi_comm_t *c, const void *buf, const char *what,
                                      const char *fn)
{
    if (compi_unlikely(buf == MPI_IN_PLACE)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "MPI_IN_PLACE is not allowed as the %s", what);
    }
    return MPI_SUCCESS;
}

/* MPI_IN_PLACE is not defined for intercommunicator collectives */
static inline int mpi_arg_inter_no_in_place(compi_comm_t *c, const void *buf, const char *fn)
{
    if (compi_unlikely(comm_is_inter(c) && buf == MPI_IN_PLACE)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn,
                             "MPI_IN_PLACE is not allowed on an intercommunicator");
    }
    return MPI_SUCCESS;
}

/* The send and receive buffers may not be one buffer: that is what MPI_IN_PLACE is for.
   Only the cheap case is caught (same start address, data on both sides). */
static inline int mpi_arg_alias(compi_comm_t *c, const void *sbuf, const void *rbuf, size_t sbytes,
                                size_t rbytes, const char *fn)
{
    if (compi_unlikely(sbuf == rbuf && sbuf != NULL && sbytes > 0 && rbytes > 0)) {
        return mpi_err_raise(c, MPI_ERR_BUFFER, fn,
                             "the send and receive buffers are the same (%p); "
                             "use MPI_IN_PLACE",
                             sbuf);
    }
    return MPI_SUCCESS;
}

/* n counts (and, when need_displs, displacements) of a v/w side: arrays present (none
   needed when n is 0), counts not negative; *total_p gets the sum of the counts.
   `what` is "send" or "receive". */
static inline int mpi_arg_counts(compi_comm_t *c, coll_vec_t counts, coll_vec_t displs,
                                 int need_displs, int n, const char *what, const char *fn,
                                 size_t *total_p)
{
    size_t total = 0;
    *total_p = 0;
    if (compi_unlikely(n > 0 && !coll_vec_given(counts))) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "the %s counts array is NULL", what);
    }
    if (compi_unlikely(n > 0 && need_displs && !coll_vec_given(displs))) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "the %s displacements array is NULL", what);
    }
    for (int i = 0; i < n; i++) {
        long long k = coll_vec_at(counts, i);
        if (compi_unlikely(k < 0)) {
            return mpi_err_raise(c, MPI_ERR_COUNT, fn, "%s count[%d]=%lld is negative", what, i, k);
        }
        total += (size_t)k;
    }
    *total_p = total;
    return MPI_SUCCESS;
}

/* a reduction's op; dt NULL: a rank whose datatype is not significant (MPI_PROC_NULL on
   an intercommunicator), where only the handle is checked */
static inline int mpi_arg_op(compi_comm_t *c, MPI_Op h, const compi_datatype_t *dt, const char *fn,
                             compi_op_t **op_p)
{
    compi_op_t *op = op_from_handle(h);
    if (compi_unlikely(op == NULL)) {
        return mpi_err_raise(c, MPI_ERR_OP, fn, "invalid operation (handle 0x%x)", (unsigned)h);
    }
    if (compi_unlikely(h == MPI_REPLACE || h == MPI_NO_OP)) {
        return mpi_err_raise(c, MPI_ERR_OP, fn, "%s is only for one-sided accumulates", op->name);
    }
    if (compi_unlikely(dt != NULL && !op_valid_for(op, dt))) {
        return mpi_err_raise(c, MPI_ERR_OP, fn, "%s is not defined on datatype %s", op->name,
                             dt_name(dt));
    }
    *op_p = op;
    return MPI_SUCCESS;
}

/* a communicator with a process topology (the neighbourhood collectives) */
static inline int mpi_arg_topo(compi_comm_t *c, const char *fn)
{
    if (compi_unlikely(c->topo == NULL)) {
        return mpi_err_raise(c, MPI_ERR_TOPOLOGY, fn,
                             "%s has no process topology (MPI_Cart_create, MPI_Graph_create, "
                             "MPI_Dist_graph_create...)",
                             c->name[0] ? c->name : "the communicator");
    }
    return MPI_SUCCESS;
}

/*
 * One side of a data mover (`send` or receive) made of `nblocks` blocks: the counts and
 * displacements of a v side (v != 0), else `count` per block; the datatype; the buffer.
 * *total_p gets the elements of the side.
 */
static inline int mpi_arg_blocks(compi_comm_t *c, const void *buf, int send, int v, MPI_Count count,
                                 int nblocks, coll_vec_t counts, coll_vec_t displs,
                                 MPI_Datatype type, const char *fn, compi_datatype_t **dt_p,
                                 size_t *total_p)
{
    int rc;
    *total_p = 0;
    if (v) {
        rc = mpi_arg_counts(c, counts, displs, 1, nblocks, send ? "send" : "receive", fn, total_p);
    } else {
        rc = mpi_arg_count(c, count, send ? "sendcount" : "recvcount", fn);
        *total_p = (size_t)count * (size_t)nblocks;
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_type(c, type, send ? "send datatype" : "receive datatype", fn, dt_p);
    }
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_buf(c, buf, *total_p, *dt_p, send ? "send buffer" : "receive buffer", fn);
    }
    return rc;
}

/*
 * What every reduction checks: datatype, op, the send buffer (unless in place) and, when
 * this rank receives, the receive buffer (never in place) and aliasing.  scount and
 * rcount are the elements each buffer holds.
 */
static inline int mpi_arg_reduction(compi_comm_t *c, const void *sbuf, size_t scount,
                                    const void *rbuf, size_t rcount, int receives,
                                    MPI_Datatype type, MPI_Op oph, const char *fn,
                                    compi_datatype_t **dt_p, compi_op_t **op_p)
{
    int rc = mpi_arg_type(c, type, "datatype", fn, dt_p);
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_op(c, oph, *dt_p, fn, op_p);
    }
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE) {
        rc = mpi_arg_buf(c, sbuf, scount, *dt_p, "send buffer", fn);
    }
    if (rc != MPI_SUCCESS || !receives) {
        return rc;
    }
    rc = mpi_arg_no_in_place(c, rbuf, "receive buffer", fn);
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_buf(c, rbuf, rcount, *dt_p, "receive buffer", fn);
    }
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE) {
        rc = mpi_arg_alias(c, sbuf, rbuf, scount * (*dt_p)->size, rcount * (*dt_p)->size, fn);
    }
    return rc;
}

/* ---- end of the collectives' checks ---- */

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

/* ---- the datatype calls: arrays of counts and of datatypes ---- */

/* An array of counts or displacements as the int form (int or MPI_Aint) or the
   large-count form (MPI_Count) passes it: the collectives' view (coll_vec_t in
   core/coll/coll.h), read element by element as an MPI_Count, so the implementation of
   both forms is one function that copies nothing. */
typedef coll_vec_t mpi_counts_t;
#define mpi_counts_int coll_vec_int
#define mpi_counts_aint coll_vec_aint
#define mpi_counts_count coll_vec_count

static inline int mpi_counts_null(mpi_counts_t v)
{
    return !coll_vec_given(v);
}

static inline MPI_Count mpi_counts_at(mpi_counts_t v, MPI_Count k)
{
    return coll_vec_at(v, (int)k);
}

#define MPI_ARG_ANY LLONG_MIN /* an array whose elements may have any value */

/* an array of `len` counts (len checked before): not NULL when len > 0, each element at
   least `low` (MPI_ERR_ARG) */
static inline int mpi_arg_count_array(compi_comm_t *c, MPI_Count len, mpi_counts_t v,
                                      MPI_Count low, const char *what, const char *fn)
{
    if (compi_unlikely(len > 0 && mpi_counts_null(v))) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "%s is NULL", what);
    }
    for (MPI_Count k = 0; low != MPI_ARG_ANY && k < len; k++) {
        MPI_Count x = mpi_counts_at(v, k);
        if (compi_unlikely(x < low)) {
            return mpi_err_raise(c, MPI_ERR_ARG, fn, "%s[%lld]=%lld is below %lld", what,
                                 (long long)k, (long long)x, (long long)low);
        }
    }
    return MPI_SUCCESS;
}

/* an array of `len` datatype handles: not NULL when len > 0, each valid (MPI_ERR_TYPE) */
static inline int mpi_arg_types(compi_comm_t *c, MPI_Count len, const MPI_Datatype *types,
                                const char *what, const char *fn)
{
    if (compi_unlikely(len > 0 && types == NULL)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "%s is NULL", what);
    }
    for (MPI_Count k = 0; k < len; k++) {
        if (compi_unlikely(dt_from_handle(types[k]) == NULL)) {
            return mpi_err_raise(c, MPI_ERR_TYPE, fn, "%s[%lld] is not a datatype", what,
                                 (long long)k);
        }
    }
    return MPI_SUCCESS;
}

/* whether `fn` is a large-count form (MPI_x_c): what the int form of a call that shares
   its implementation cannot return */
static inline int mpi_fn_large(const char *fn)
{
    size_t n = strlen(fn);
    return n > 2 && fn[n - 2] == '_' && fn[n - 1] == 'c';
}

/* ---- info keys and values (the info calls: raised on MPI_ERR_ANY_TIME) ---- */

/* a key or value `what`: not NULL (MPI_ERR_ARG), 1..max characters (`errclass`) */
static inline int mpi_arg_info_string(compi_comm_t *c, const char *str, const char *what,
                                      size_t max, int errclass, const char *fn)
{
    if (compi_unlikely(str == NULL)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "%s is NULL", what);
    }
    size_t len = strlen(str);
    if (compi_unlikely(len == 0 || len > max)) {
        return mpi_err_raise(c, errclass, fn, "%s of length %zu (must be 1..%zu characters)", what,
                             len, max);
    }
    return MPI_SUCCESS;
}

/* a key: MPI_ERR_INFO_KEY when empty or longer than MPI_MAX_INFO_KEY */
static inline int mpi_arg_info_key(compi_comm_t *c, const char *key, const char *fn)
{
    return mpi_arg_info_string(c, key, "key", MPI_MAX_INFO_KEY, MPI_ERR_INFO_KEY, fn);
}

/* a value to set: MPI_ERR_INFO_VALUE when empty or longer than MPI_MAX_INFO_VAL */
static inline int mpi_arg_info_value(compi_comm_t *c, const char *value, const char *fn)
{
    return mpi_arg_info_string(c, value, "value", MPI_MAX_INFO_VAL, MPI_ERR_INFO_VALUE, fn);
}

/* ---- statuses between C and Fortran, a status's fields ---- */

/* a status of any form, or an output of a status's field, of the calls that work before
   MPI_Init and after MPI_Finalize: neither NULL nor `ignore` (its form's MPI_*STATUS_IGNORE,
   or NULL); MPI_ERR_ARG, raised once MPI is initialized and returned otherwise */
static inline int mpi_arg_status_any(const void *p, const void *ignore, const char *what,
                                     const char *fn)
{
    if (compi_unlikely(p == NULL || (ignore != NULL && p == ignore))) {
        if (compi_mpi_state != COMPI_STATE_INITIALIZED) {
            return MPI_ERR_ARG;
        }
        return mpi_err_raise(NULL, MPI_ERR_ARG, fn, "%s is NULL or ignored", what);
    }
    return MPI_SUCCESS;
}

/* the memory attached for buffered sends and its size: MPI_BUFFER_AUTOMATIC, or a size
   not negative that memory can hold, with memory where it is not 0 (MPI_ERR_BUFFER) */
static inline int mpi_attach_valid(const void *buffer, MPI_Count size)
{
    return buffer == MPI_BUFFER_AUTOMATIC ||
           (size >= 0 && (MPI_Count)(size_t)size == size && (buffer != NULL || size == 0));
}

static inline int mpi_arg_attach(compi_comm_t *c, const void *buffer, MPI_Count size,
                                 const char *fn)
{
    if (compi_unlikely(!mpi_attach_valid(buffer, size))) {
        return mpi_err_raise(c, MPI_ERR_BUFFER, fn, "invalid buffer %p of size %lld", buffer,
                             (long long)size);
    }
    return MPI_SUCCESS;
}

/* The tool information interface (MPI_T_*): its errors are returned, never raised */

/* a name the call reads or a pointer it writes through: MPI_T_ERR_INVALID when NULL */
static inline int mpi_arg_t_ptr(const void *p)
{
    return compi_unlikely(p == NULL) ? MPI_T_ERR_INVALID : MPI_SUCCESS;
}

/* ---- dynamic processes, sessions and the communicators made from groups ---- */

/* the communicator of a spawn, an accept or a connect, an intracommunicator (MPI_ERR_COMM),
   and its root (MPI_ERR_ROOT) */
static inline int mpi_arg_intra_root(compi_comm_t *c, int root, const char *fn)
{
    if (compi_unlikely(comm_is_inter(c))) {
        return mpi_err_raise(c, MPI_ERR_COMM, fn, "an intracommunicator is needed");
    }
    return mpi_arg_root(c, root, fn);
}

/* a port name to read: a string of fewer than MPI_MAX_PORT_NAME characters (MPI_ERR_PORT) */
static inline int mpi_arg_port(compi_comm_t *c, const char *port, const char *fn)
{
    if (compi_unlikely(port == NULL || strnlen(port, MPI_MAX_PORT_NAME) == MPI_MAX_PORT_NAME)) {
        return mpi_err_raise(c, MPI_ERR_PORT, fn, "port_name is %s",
                             port == NULL ? "NULL" : "longer than MPI_MAX_PORT_NAME");
    }
    return MPI_SUCCESS;
}

/* the longest service name compi publishes */
#define MPI_ARG_SERVICE_MAX 100

/* a service name: neither NULL nor empty, at most MPI_ARG_SERVICE_MAX characters
   (MPI_ERR_ARG) */
static inline int mpi_arg_service(compi_comm_t *c, const char *service, const char *fn)
{
    if (compi_unlikely(service == NULL || service[0] == '\0' ||
                       strnlen(service, MPI_ARG_SERVICE_MAX + 1) > MPI_ARG_SERVICE_MAX)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn,
                             "service_name is NULL, empty or longer than %d characters",
                             MPI_ARG_SERVICE_MAX);
    }
    return MPI_SUCCESS;
}

/* a file descriptor: not negative (MPI_ERR_ARG) */
static inline int mpi_arg_fd(compi_comm_t *c, int fd, const char *fn)
{
    if (compi_unlikely(fd < 0)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "fd=%d is not a descriptor", fd);
    }
    return MPI_SUCCESS;
}

/* a string tag: not NULL, shorter than MPI_MAX_STRINGTAG_LEN (MPI_ERR_ARG) */
static inline int mpi_arg_stringtag(compi_comm_t *c, const char *tag, const char *fn)
{
    if (compi_unlikely(tag == NULL ||
                       strnlen(tag, MPI_MAX_STRINGTAG_LEN) == MPI_MAX_STRINGTAG_LEN)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "stringtag is %s",
                             tag == NULL ? "NULL" : "longer than MPI_MAX_STRINGTAG_LEN - 1");
    }
    return MPI_SUCCESS;
}

/* an error handler, or MPI_ERRHANDLER_NULL for the default (*e_p NULL; MPI_ERR_ARG) */
static inline int mpi_arg_errh_null(compi_comm_t *c, MPI_Errhandler h, const char *what,
                                    const char *fn, compi_errhandler_t **e_p)
{
    *e_p = NULL;
    return h == MPI_ERRHANDLER_NULL ? MPI_SUCCESS : mpi_arg_errh(c, h, what, fn, e_p);
}

#endif
