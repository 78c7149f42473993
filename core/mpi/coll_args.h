/*
 * coll_args.h -- argument checks shared by the collective API files (core/mpi/coll_api.c
 * for barrier, bcast and the reductions, core/mpi/coll_move_api.c for gather, scatter,
 * allgather and alltoall and their v/w variants).  Only those files include this.
 * The checks every call makes (communicator, count, datatype, buffer, root) are the
 * shared ones of core/mpi/args.h; these are what only collectives check.
 *
 * Each check returns MPI_SUCCESS or the value of mpi_err_raise() (the class, when the
 * error handler returns), so callers chain them: `if (rc == MPI_SUCCESS) rc = ...`.
 * ca_run() calls the trampoline and raises its status; ca_go() is ca_run() for a
 * blocking call (req NULL) and, for a nonblocking or persistent one (call->mode), goes
 * through tramp_start() and gives the user the request's handle.
 *
 * Ownership: nothing here allocates; the datatypes, ops and communicators returned
 * through the _p arguments are borrowed from their handle tables for the call.
 */
#ifndef COMPI_COLL_ARGS_H
#define COMPI_COLL_ARGS_H

#include "core/coll/coll.h"
#include "core/mpi/args.h"
#include "core/op/op.h"
#include "core/mpi/req_handle.h"
#include "core/pml/pml.h"
#include "trampolines/tramp.h"

#include <mpi.h>
#include <stddef.h>

/*
 * Intercommunicators (core/comm/comm.h): c->size is the remote group's size, so the
 * "many" sides (p blocks of a gather's root, an alltoall's) are checked against the
 * remote group as they should be; what differs is checked here: the root (MPI_ROOT,
 * MPI_PROC_NULL or a remote rank), no MPI_IN_PLACE, the counts of reduce-scatter (the
 * local group's), no scans.
 */
static inline int ca_is_intercomm(const compi_comm_t *c)
{
    return comm_is_inter(c);
}

/* a communicator collectives can run on */
static inline int ca_comm(MPI_Comm h, const char *fn, compi_comm_t **c_p)
{
    compi_comm_t *c = NULL;
    int rc = mpi_arg_comm(h, fn, &c);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    *c_p = c;
    return MPI_SUCCESS;
}

/* the root: a rank of an intracommunicator; on an intercommunicator MPI_ROOT (the root),
   MPI_PROC_NULL (the rest of the root's group) or the root's rank in the other group */
static inline int ca_root(compi_comm_t *c, int root, const char *fn)
{
    if (ca_is_intercomm(c) && (root == MPI_ROOT || root == MPI_PROC_NULL)) {
        return MPI_SUCCESS;
    }
    if (compi_unlikely(ca_is_intercomm(c) && (root < 0 || root >= c->size))) {
        return mpi_err_raise(c, MPI_ERR_ROOT, fn,
                             "root=%d is not MPI_ROOT, MPI_PROC_NULL or a rank of the remote "
                             "group [0, %d)",
                             root, c->size);
    }
    return mpi_arg_root(c, root, fn);
}

/* does this rank hold the root's side of a rooted call */
static inline int ca_is_root(const compi_comm_t *c, int root)
{
    return ca_is_intercomm(c) ? root == MPI_ROOT : c->rank == root;
}

/* MPI_IN_PLACE is not defined for intercommunicator collectives */
static inline int ca_inter_no_in_place(compi_comm_t *c, const void *buf, const char *fn)
{
    if (compi_unlikely(ca_is_intercomm(c) && buf == MPI_IN_PLACE)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn,
                             "MPI_IN_PLACE is not allowed on an intercommunicator");
    }
    return MPI_SUCCESS;
}

/* MPI_IN_PLACE where the standard does not allow it; `what` names the argument */
static inline int ca_no_in_place(compi_comm_t *c, const void *buf, const char *what, const char *fn)
{
    if (compi_unlikely(buf == MPI_IN_PLACE)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "MPI_IN_PLACE is not allowed as the %s", what);
    }
    return MPI_SUCCESS;
}

/* The send and receive buffers may not be one buffer: that is what MPI_IN_PLACE is for.
   Only the cheap case is caught (same start address, data on both sides). */
static inline int ca_alias(compi_comm_t *c, const void *sbuf, const void *rbuf, size_t sbytes,
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

/* counts (and, when need_displs, displacements) of a v/w call: present, counts not
   negative; *total_p gets the sum of the counts */
static inline int ca_counts_n(compi_comm_t *c, const int *counts, const int *displs,
                              int need_displs, const char *what, const char *fn, int n,
                              size_t *total_p);
static inline int ca_counts(compi_comm_t *c, const int *counts, const int *displs, int need_displs,
                            const char *what, const char *fn, size_t *total_p)
{
    return ca_counts_n(c, counts, displs, need_displs, what, fn, c->size, total_p);
}

/* the same over n counts (an intercommunicator's local group: reduce-scatter) */
static inline int ca_counts_n(compi_comm_t *c, const int *counts, const int *displs,
                              int need_displs, const char *what, const char *fn, int n,
                              size_t *total_p)
{
    size_t total = 0;
    if (compi_unlikely(counts == NULL)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "the %s counts array is NULL", what);
    }
    if (compi_unlikely(displs == NULL && need_displs)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "the %s displacements array is NULL", what);
    }
    for (int i = 0; i < n; i++) {
        if (compi_unlikely(counts[i] < 0)) {
            return mpi_err_raise(c, MPI_ERR_COUNT, fn, "%s count[%d]=%d is negative", what, i,
                                 counts[i]);
        }
        total += (size_t)counts[i];
    }
    *total_p = total;
    return MPI_SUCCESS;
}

/*
 * One side of a data mover (`send` or receive) made of `nblocks` blocks: the counts and
 * displacements of a v side (v != 0), else `count` per block; the datatype; the buffer.
 * *total_p gets the elements of the side.
 */
static inline int ca_blocks(compi_comm_t *c, const void *buf, int send, int v, MPI_Count count,
                            int nblocks, const int *counts, const int *displs, MPI_Datatype type,
                            const char *fn, compi_datatype_t **dt_p, size_t *total_p)
{
    int rc;
    *total_p = 0;
    if (v) {
        rc = ca_counts(c, counts, displs, 1, send ? "send" : "receive", fn, total_p);
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

/* a reduction's op; dt NULL: a rank whose datatype is not significant (MPI_PROC_NULL on
   an intercommunicator), where only the handle is checked */
static inline int ca_op(compi_comm_t *c, MPI_Op h, const compi_datatype_t *dt, const char *fn,
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

/*
 * What every reduction checks: datatype, op, the send buffer (unless in place) and, when
 * this rank receives, the receive buffer (never in place) and aliasing.  scount and
 * rcount are the elements each buffer holds.
 */
static inline int ca_reduction(compi_comm_t *c, const void *sbuf, size_t scount, const void *rbuf,
                               size_t rcount, int receives, MPI_Datatype type, MPI_Op oph,
                               const char *fn, compi_datatype_t **dt_p, compi_op_t **op_p)
{
    int rc = mpi_arg_type(c, type, "datatype", fn, dt_p);
    if (rc == MPI_SUCCESS) {
        rc = ca_op(c, oph, *dt_p, fn, op_p);
    }
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE) {
        rc = mpi_arg_buf(c, sbuf, scount, *dt_p, "send buffer", fn);
    }
    if (rc != MPI_SUCCESS || !receives) {
        return rc;
    }
    rc = ca_no_in_place(c, rbuf, "receive buffer", fn);
    if (rc == MPI_SUCCESS) {
        rc = mpi_arg_buf(c, rbuf, rcount, *dt_p, "receive buffer", fn);
    }
    if (rc == MPI_SUCCESS && sbuf != MPI_IN_PLACE) {
        rc = ca_alias(c, sbuf, rbuf, scount * (*dt_p)->size, rcount * (*dt_p)->size, fn);
    }
    return rc;
}

/* a trampoline's status as an MPI error on the call's communicator; a failed miss comes
   with its message (the same on every rank), returned as a code of its own whose
   MPI_Error_string is that message */
static inline int ca_raise(const coll_call_t *call, compi_status_t st, const char *fn)
{
    int report = 1;
    const char *what = tramp_error_take(&report);
    if (what != NULL) {
        return mpi_err_raise_text(call->comm, mpi_err_class_of(st), fn, what, report);
    }
    return mpi_raise_status(call->comm, st, fn, coll_kind_name(call->kind));
}

/* the trampoline, and its status as an MPI error on the call's communicator */
static inline int ca_run(const coll_call_t *call, const char *fn)
{
    compi_status_t st = tramp_run(call);
    if (compi_likely(st == COMPI_OK)) {
        return MPI_SUCCESS;
    }
    return ca_raise(call, st, fn);
}

/* A nonblocking call: the request pointer, checked before anything else (NULL is
   MPI_ERR_ARG); *req is MPI_REQUEST_NULL until the call has started. */
static inline int ca_request(compi_comm_t *c, MPI_Request *req, const char *fn)
{
    if (compi_unlikely(req == NULL)) {
        return mpi_err_raise(c, MPI_ERR_ARG, fn, "the request pointer is NULL");
    }
    *req = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

/* start a nonblocking call, or make a persistent one (inactive until MPI_Start): the
   caller sets call->mode; the request's handle in *req */
static inline int ca_start(coll_call_t *call, MPI_Request *req, const char *fn)
{
    compi_request_t *r = NULL;
    compi_status_t st = tramp_start(call, &r);
    if (st != COMPI_OK) {
        return ca_raise(call, st, fn);
    }
    /* without a handle the collective still runs on (the other ranks take part): its
       request is freed and goes when the schedule ends */
    return mpi_req_expose(call->comm, r, req, fn);
}

/* blocking (req NULL), nonblocking or persistent (call->mode) */
static inline int ca_go(coll_call_t *call, MPI_Request *req, const char *fn)
{
    return compi_likely(req == NULL) ? ca_run(call, fn) : ca_start(call, req, fn);
}

#endif
