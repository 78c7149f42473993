/*
 * comm_idup_api.c -- MPI_Comm_idup and MPI_Comm_idup_with_info (MPI-3/4).
 *
 * The new communicator's context id comes from the parent's pool of ids reserved on every
 * member when the parent was made (core/comm/comm.h, "Context ids and MPI_Comm_idup"):
 * every member takes the same next id, in the collective order of the parent, without
 * communicating, so the call never waits for another process and cannot collide with a
 * communicator made meanwhile (no agreement of any group reaches a pooled id); the
 * request is complete when the call returns.  A pool is COMM_CTX_POOL ids for a
 * communicator made by a blocking constructor (refilled by the next blocking constructor
 * over the whole parent once under half full), a sixteenth of what was left for one made
 * by MPI_Comm_idup.  Where an intracommunicator's pool is empty, the id comes from a
 * nonblocking agreement (core/comm/comm_ctx_nb.c) that completes the request, so no
 * number of idups runs out.  Intercommunicators have pools too (made alike by their
 * constructors, spawn and connect included): an idup takes two ids of it, its own and its
 * local communicator's; where it is empty, both groups agree on them the same way.  The
 * entry points are generated (core/mpi/gen/comm_idup.c, included last).
 */
#include "core/mpi/args.h"
#include "core/mpi/info.h"
#include "core/mpi/req_handle.h"

/* both calls; info is MPI_INFO_NULL for MPI_Comm_idup, whose hints are comm's */
static int idup_any(compi_comm_t *c, MPI_Info info, int with_info, MPI_Comm *newcomm,
                    MPI_Request *request, const char *fn)
{
    compi_comm_t *nc = NULL;
    int cb_code = MPI_SUCCESS, rc;
    compi_request_t *req = pml_request_new(REQ_COLL, c);
    if (req == NULL) {
        *newcomm = MPI_COMM_NULL;
        return mpi_err_raise(c, MPI_ERR_NO_MEM, fn, "out of memory");
    }
    compi_status_t st = comm_idup(c, &nc, &cb_code, req);
    if (st != COMPI_OK) {
        pml_request_free(req);
        *newcomm = MPI_COMM_NULL;
        if (cb_code != MPI_SUCCESS) {
            return mpi_err_raise(c, cb_code, fn, "an attribute copy callback returned error %d",
                                 cb_code);
        }
        return mpi_raise_status(c, st, fn, NULL);
    }
    if (with_info) {
        /* the new communicator has the hints of `info` instead of comm's */
        rc = mpi_comm_hints_set(nc, info, 1);
        if (rc != MPI_SUCCESS) {
            /* an agreement still running holds both until it ends (the others need it) */
            comm_release(nc);
            pml_request_free(req);
            *newcomm = MPI_COMM_NULL;
            return mpi_err_raise(c, rc, fn, "cannot store the hints");
        }
    }
    *newcomm = nc->handle;
    return mpi_req_expose(c, req, request, fn);
}

static int comm_idup_impl(compi_comm_t *comm, MPI_Comm *newcomm, MPI_Request *request,
                          const char *fn)
{
    return idup_any(comm, MPI_INFO_NULL, 0, newcomm, request, fn);
}

static int comm_idup_with_info_impl(compi_comm_t *comm, MPI_Info info, MPI_Comm *newcomm,
                                    MPI_Request *request, const char *fn)
{
    return idup_any(comm, info, 1, newcomm, request, fn);
}

#include "core/mpi/gen/comm_idup.c"
