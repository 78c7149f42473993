/*
 * coll_impl.h -- what the collectives' implementations share.  Each collective has one
 * static x_impl (bcast_impl, neighbor_alltoallw_impl) that serves all its forms:
 * blocking, nonblocking (MPI_I...), persistent (..._init), each with int and
 * large-count (_c) arguments; its entry points are generated (tools/mpigen/cgen.py,
 * "Collectives") into core/mpi/gen/coll.c, coll_move.c and neighbor.c, which coll_api.c
 * (barrier, bcast, reductions), coll_move_api.c (gather, scatter, allgather, alltoall
 * and their v/w variants) and neighbor_api.c include last.
 *
 *   PMPI_Ibcast_c(...) -> init check, communicator, request pointer (generated)
 *     -> bcast_impl(..., request, COLL_MODE_NONBLOCKING, fn): the checks of what is
 *        significant on this rank (mpi_arg_*, core/mpi/args.h) -> coll_call_t on the
 *        stack -> mpi_coll_go -> trampoline
 *
 * An impl takes every count as an MPI_Count and every count or displacement array as a
 * coll_vec_t (core/coll/coll.h) that views the program's int, MPI_Count or MPI_Aint array
 * where it is, so nothing is narrowed or copied.  Its checks run in an order that decides
 * which error a call with several bad arguments reports (tests pin it).
 *
 * Ownership: the coll_call_t lives on the impl's stack for the call, and the arrays it
 * views are the program's (a schedule copies what it needs before the impl returns);
 * nothing here allocates, nor does an impl, except alltoallw's datatype tables beyond a
 * stack array.
 */
#ifndef COMPI_COLL_IMPL_H
#define COMPI_COLL_IMPL_H

#include "core/coll/coll.h"
#include "core/mpi/args.h"
#include "core/mpi/req_handle.h"
#include "trampolines/tramp.h"

#include <mpi.h>

/* ---- what the impls share --------------------------------------------------------- */

/* does this rank hold the root's side of a rooted call */
static inline int mpi_coll_is_root(const compi_comm_t *c, int root)
{
    return comm_is_inter(c) ? root == MPI_ROOT : c->rank == root;
}

/* a trampoline's status as an MPI error on the call's communicator; a failed miss comes
   with its message (the same on every rank), returned as a code of its own whose
   MPI_Error_string is that message */
static inline int mpi_coll_raise(const coll_call_t *call, compi_status_t st, const char *fn)
{
    int report = 1;
    const char *what = tramp_error_take(&report);
    if (what != NULL) {
        return mpi_err_raise_text(call->comm, mpi_err_class_of(st), fn, what, report);
    }
    return mpi_raise_status(call->comm, st, fn, coll_kind_name(call->kind));
}

/* Run the call: blocking through tramp_run(); nonblocking or persistent (call->mode)
   through tramp_start(), the request's handle in *req.  Without a handle the collective
   still runs on (the other ranks take part): its request is freed and goes when the
   schedule ends. */
static inline int mpi_coll_go(coll_call_t *call, MPI_Request *req, const char *fn)
{
    compi_status_t st;
    if (compi_likely(call->mode == COLL_MODE_BLOCKING)) {
        st = tramp_run(call);
        return compi_likely(st == COMPI_OK) ? MPI_SUCCESS : mpi_coll_raise(call, st, fn);
    }
    compi_request_t *r = NULL;
    st = tramp_start(call, &r);
    if (st != COMPI_OK) {
        return mpi_coll_raise(call, st, fn);
    }
    return mpi_req_expose(call->comm, r, req, fn);
}

/* a nonblocking or persistent call's request handle is MPI_REQUEST_NULL until the call
   has started (the entry point checked the pointer) */
static inline void mpi_coll_request(MPI_Request *req, coll_mode_t mode)
{
    if (mode != COLL_MODE_BLOCKING) {
        *req = MPI_REQUEST_NULL;
    }
}

#endif
