/*
 * rma_api.c -- the transfers of one-sided communication: MPI_Put, MPI_Get,
 * MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap and the
 * request-based MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate.
 *
 * The entry points are generated (core/mpi/gen/rma.c): they check each argument, raising
 * its errors on the window (core/mpi/win_args.h: a negative displacement of a
 * non-dynamic window is MPI_ERR_DISP, a user op MPI_ERR_OP).  The implementations here
 * check what spans arguments (an op defined on the target datatype, matching type
 * signatures: MPI_ERR_TYPE) and the epoch (an access epoch of this rank must cover the
 * target: MPI_ERR_RMA_SYNC), then make one call through the window's module (core/osc/osc.h), with
 * the origin's and the target's datatypes as they are: the transport moves the data
 * between the two layouts.  The module reports an access outside the target's window
 * (MPI_ERR_RMA_RANGE).  The request-based calls hand the module a request, which it
 * completes when the access is done: at once on the shared segment, when the target's
 * reply arrives over active messages.
 */
#include "core/mpi/win_args.h"

#include "core/mpi/req_handle.h"

/* one access through the window's module; with `req`, a request that the module
   completes (MPI_PROC_NULL: complete at once) */
static int rma_go(mpi_win_t *w, const osc_rma_t *a, MPI_Request *req, const char *fn)
{
    compi_request_t *r = NULL;
    compi_status_t st = COMPI_OK;
    if (req != NULL && (r = pml_request_new(REQ_COLL, NULL)) == NULL) {
        return win_err(w, MPI_ERR_NO_MEM, fn, "out of requests");
    }
    if (a->t != MPI_PROC_NULL) {
        st = osc_rma(w->osc, a, r);
    } else if (r != NULL) {
        pml_request_complete(r);
    }
    if (st != COMPI_OK) {
        if (r != NULL) {
            pml_request_complete(r);
            pml_request_free(r);
        }
        if (st == COMPI_ERR_NOT_FOUND) {
            return win_err(w, MPI_ERR_RMA_RANGE, fn,
                           "%zu elements of the target datatype at target_disp=%ld lie outside "
                           "rank %d's %s",
                           a->tcount, (long)a->disp, a->t,
                           w->attr_flavor == MPI_WIN_FLAVOR_DYNAMIC ? "attached regions"
                                                                    : "window");
        }
        return win_err(w, MPI_ERR_OTHER, fn, "the transfer with rank %d failed: %s", a->t,
                       compi_status_string(st));
    }
    return r != NULL ? mpi_req_expose(NULL, r, req, fn) : MPI_SUCCESS;
}

/* the epoch, for every transfer (the entry point checked the displacement, the module
   checks the range) */
static int target_check(mpi_win_t *w, int t, const char *fn)
{
    if (!win_access_ok(w, t)) {
        return win_err(w, MPI_ERR_RMA_SYNC, fn,
                       "no access epoch covers rank %d (MPI_Win_fence, MPI_Win_lock(_all) or "
                       "MPI_Win_start first)",
                       t);
    }
    return MPI_SUCCESS;
}

/* One transfer of any kind, its arguments checked one by one by the entry point: what is
   left is the op's datatype, the type signatures and the epoch.  odt is NULL for a
   get-accumulate with MPI_NO_OP (no origin); rdt for all but get-accumulates. */
static int rma_any(int kind, const void *oaddr, MPI_Count ocount, compi_datatype_t *odt,
                   void *raddr, MPI_Count rcount, compi_datatype_t *rdt, int t, MPI_Aint tdisp,
                   MPI_Count tcount, compi_datatype_t *tdt, compi_op_t *op, mpi_win_t *w,
                   MPI_Request *req, const char *fn)
{
    int rc;
    if (req != NULL) {
        *req = MPI_REQUEST_NULL;
    }
    int uses_origin = odt != NULL;
    /* with nothing to combine the op is not applied to anything: programs pass count 0
       with MPI_BYTE and the default MPI_SUM (mpi4py does), as other MPIs allow */
    if (op != NULL && op->handle != MPI_REPLACE && op->handle != MPI_NO_OP && tcount > 0 &&
        !op_valid_for(op, tdt)) {
        return win_err(w, MPI_ERR_OP, fn, "%s is not defined on the target datatype", op->name);
    }
    size_t tbytes = (size_t)tcount * tdt->size;
    size_t obytes = uses_origin ? (size_t)ocount * odt->size : tbytes;
    size_t rbytes = kind == OSC_GACC ? (size_t)rcount * rdt->size : tbytes;
    if (obytes != tbytes || rbytes != tbytes) {
        return win_err(w, MPI_ERR_TYPE, fn,
                       "the origin carries %zu bytes, the target %zu (the type signatures "
                       "must match)",
                       kind == OSC_GACC && rbytes != tbytes ? rbytes : obytes, tbytes);
    }
    if (t != MPI_PROC_NULL && (rc = target_check(w, t, fn)) != MPI_SUCCESS) {
        return rc;
    }
    osc_rma_t a = {
        .kind = kind, .t = t, .disp = tdisp, .tdt = tdt, .tcount = (size_t)tcount, .op = op};
    if (kind == OSC_GET) {
        a.result = (void *)oaddr;
        a.rdt = odt;
        a.rcount = (size_t)ocount;
    } else if (uses_origin) {
        a.origin = oaddr;
        a.odt = odt;
        a.ocount = (size_t)ocount;
    }
    if (kind == OSC_GACC) {
        a.result = raddr;
        a.rdt = rdt;
        a.rcount = (size_t)rcount;
    }
    return rma_go(w, &a, req, fn);
}

/* The implementations of the entry points of core/mpi/gen/rma.c: the int form and the
   large-count form (MPI_Put and MPI_Put_c) share one, whose counts are MPI_Count down to
   the transfer. */
static int put_impl(const void *origin_addr, MPI_Count origin_count,
                    compi_datatype_t *origin_datatype, int target_rank, MPI_Aint target_disp,
                    MPI_Count target_count, compi_datatype_t *target_datatype, mpi_win_t *win,
                    const char *fn)
{
    return rma_any(OSC_PUT, origin_addr, origin_count, origin_datatype, NULL, 0, NULL, target_rank,
                   target_disp, target_count, target_datatype, NULL, win, NULL, fn);
}

static int get_impl(void *origin_addr, MPI_Count origin_count, compi_datatype_t *origin_datatype,
                    int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                    compi_datatype_t *target_datatype, mpi_win_t *win, const char *fn)
{
    return rma_any(OSC_GET, origin_addr, origin_count, origin_datatype, NULL, 0, NULL, target_rank,
                   target_disp, target_count, target_datatype, NULL, win, NULL, fn);
}

static int rput_impl(const void *origin_addr, MPI_Count origin_count,
                     compi_datatype_t *origin_datatype, int target_rank, MPI_Aint target_disp,
                     MPI_Count target_count, compi_datatype_t *target_datatype, mpi_win_t *win,
                     MPI_Request *request, const char *fn)
{
    return rma_any(OSC_PUT, origin_addr, origin_count, origin_datatype, NULL, 0, NULL, target_rank,
                   target_disp, target_count, target_datatype, NULL, win, request, fn);
}

static int rget_impl(void *origin_addr, MPI_Count origin_count, compi_datatype_t *origin_datatype,
                     int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                     compi_datatype_t *target_datatype, mpi_win_t *win, MPI_Request *request,
                     const char *fn)
{
    return rma_any(OSC_GET, origin_addr, origin_count, origin_datatype, NULL, 0, NULL, target_rank,
                   target_disp, target_count, target_datatype, NULL, win, request, fn);
}

static int accumulate_impl(const void *origin_addr, MPI_Count origin_count,
                           compi_datatype_t *origin_datatype, int target_rank, MPI_Aint target_disp,
                           MPI_Count target_count, compi_datatype_t *target_datatype,
                           compi_op_t *op, mpi_win_t *win, const char *fn)
{
    return rma_any(OSC_ACC, origin_addr, origin_count, origin_datatype, NULL, 0, NULL, target_rank,
                   target_disp, target_count, target_datatype, op, win, NULL, fn);
}

static int raccumulate_impl(const void *origin_addr, MPI_Count origin_count,
                            compi_datatype_t *origin_datatype, int target_rank,
                            MPI_Aint target_disp, MPI_Count target_count,
                            compi_datatype_t *target_datatype, compi_op_t *op, mpi_win_t *win,
                            MPI_Request *request, const char *fn)
{
    return rma_any(OSC_ACC, origin_addr, origin_count, origin_datatype, NULL, 0, NULL, target_rank,
                   target_disp, target_count, target_datatype, op, win, request, fn);
}

/* with MPI_NO_OP the entry point checked no origin, and origin_datatype is NULL */
static int get_accumulate_impl(const void *origin_addr, MPI_Count origin_count,
                               compi_datatype_t *origin_datatype, void *result_addr,
                               MPI_Count result_count, compi_datatype_t *result_datatype,
                               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                               compi_datatype_t *target_datatype, compi_op_t *op, mpi_win_t *win,
                               const char *fn)
{
    return rma_any(OSC_GACC, origin_addr, origin_count, origin_datatype, result_addr, result_count,
                   result_datatype, target_rank, target_disp, target_count, target_datatype, op,
                   win, NULL, fn);
}

static int rget_accumulate_impl(const void *origin_addr, MPI_Count origin_count,
                                compi_datatype_t *origin_datatype, void *result_addr,
                                MPI_Count result_count, compi_datatype_t *result_datatype,
                                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                compi_datatype_t *target_datatype, compi_op_t *op, mpi_win_t *win,
                                MPI_Request *request, const char *fn)
{
    return rma_any(OSC_GACC, origin_addr, origin_count, origin_datatype, result_addr, result_count,
                   result_datatype, target_rank, target_disp, target_count, target_datatype, op,
                   win, request, fn);
}

/* one element of predefined dt: fetch-and-op or compare-and-swap, after the checks both
   share (a predefined datatype, the epoch) */
static int one_elem_go(mpi_win_t *w, int kind, compi_datatype_t *dt, int t, MPI_Aint disp,
                       const compi_op_t *op, const void *origin, const void *compare, void *result,
                       const char *fn)
{
    if (!dt->predefined) {
        return win_err(w, MPI_ERR_TYPE, fn, "the datatype must be predefined");
    }
    /* compare-and-swap: an integer, logical or byte type (those with the bitwise or the
       logical operations), never a floating-point one */
    if (kind == OSC_CAS && !op_valid_for(op_from_handle(MPI_BAND), dt) &&
        !op_valid_for(op_from_handle(MPI_LAND), dt)) {
        return win_err(w, MPI_ERR_TYPE, fn,
                       "compare-and-swap takes an integer, logical or byte type, not %s",
                       dt_name(dt));
    }
    if (op != NULL && op->handle != MPI_REPLACE && op->handle != MPI_NO_OP &&
        !op_valid_for(op, dt)) {
        return win_err(w, MPI_ERR_OP, fn, "%s is not defined on %s", op->name, dt_name(dt));
    }
    if (t == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    int rc = target_check(w, t, fn);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (result == NULL || (origin == NULL && (op == NULL || op->handle != MPI_NO_OP)) ||
        (kind == OSC_CAS && compare == NULL)) {
        return win_err(w, MPI_ERR_BUFFER, fn, "%s is NULL",
                       result == NULL   ? "result_addr"
                       : origin == NULL ? "origin_addr"
                                        : "compare_addr");
    }
    osc_rma_t a = {.kind = kind,
                   .t = t,
                   .disp = disp,
                   .tdt = dt,
                   .tcount = 1,
                   .op = op,
                   .origin = op != NULL && op->handle == MPI_NO_OP ? NULL : origin,
                   .odt = dt,
                   .ocount = 1,
                   .result = result,
                   .rdt = dt,
                   .rcount = 1,
                   .compare = compare};
    return rma_go(w, &a, NULL, fn);
}

static int fetch_and_op_impl(const void *origin_addr, void *result_addr, compi_datatype_t *datatype,
                             int target_rank, MPI_Aint target_disp, compi_op_t *op, mpi_win_t *win,
                             const char *fn)
{
    return one_elem_go(win, OSC_FOP, datatype, target_rank, target_disp, op, origin_addr, NULL,
                       result_addr, fn);
}

static int compare_and_swap_impl(const void *origin_addr, const void *compare_addr,
                                 void *result_addr, compi_datatype_t *datatype, int target_rank,
                                 MPI_Aint target_disp, mpi_win_t *win, const char *fn)
{
    return one_elem_go(win, OSC_CAS, datatype, target_rank, target_disp, NULL, origin_addr,
                       compare_addr, result_addr, fn);
}

#include "core/mpi/gen/rma.c"
