/*
 * rma_api.c -- the transfers of one-sided communication: MPI_Put, MPI_Get,
 * MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap and the
 * request-based MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate.
 *
 * Each checks its arguments and the epoch (an access epoch of this rank must cover the
 * target: MPI_ERR_RMA_SYNC), finds the target memory (outside the window:
 * MPI_ERR_RMA_RANGE; a negative displacement of a non-dynamic window: MPI_ERR_DISP),
 * packs the origin's data when its datatype is not contiguous, and lets core/osc move
 * it.  Transfers are done when the call returns, so the request-based calls return
 * requests that are complete already.
 */
#include "core/mpi/win_args.h"

#include "core/mpi/req_handle.h"

#include <stdlib.h>
#include <string.h>

enum { RMA_PUT, RMA_GET, RMA_ACC, RMA_GACC };

/* a request complete from the start (the transfer is done) */
static int done_request(compi_win_t *w, MPI_Request *req, const char *fn)
{
    compi_request_t *r = pml_request_new(REQ_COLL, NULL);
    if (r == NULL) {
        return win_err(w, MPI_ERR_NO_MEM, fn, "out of requests");
    }
    pml_request_complete(r);
    return mpi_req_expose(NULL, r, req, fn);
}

static int type_check(compi_win_t *w, MPI_Datatype h, const char *what, const char *fn,
                      compi_datatype_t **dt_p)
{
    compi_datatype_t *dt = dt_from_handle(h);
    if (dt == NULL || h == MPI_DATATYPE_NULL) {
        return win_err(w, MPI_ERR_TYPE, fn, "invalid %s datatype 0x%x", what, (unsigned)h);
    }
    if (!dt->committed && !dt->predefined) {
        return win_err(w, MPI_ERR_TYPE, fn, "the %s datatype is not committed", what);
    }
    *dt_p = dt;
    return MPI_SUCCESS;
}

/* window, rank, epoch, displacement and target memory, for every transfer */
static int target_check(compi_win_t *w, int t, MPI_Aint disp, compi_datatype_t *tdt, size_t tcount,
                        osc_target_t *tg, const char *fn)
{
    if (!win_access_ok(w, t)) {
        return win_err(w, MPI_ERR_RMA_SYNC, fn,
                       "no access epoch covers rank %d (MPI_Win_fence, MPI_Win_lock(_all) or "
                       "MPI_Win_start first)",
                       t);
    }
    if (disp < 0 && w->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        return win_err(w, MPI_ERR_DISP, fn, "target_disp=%ld is negative", (long)disp);
    }
    if (osc_target(w, t, disp, tdt, tcount, tg) != COMPI_OK) {
        return win_err(w, MPI_ERR_RMA_RANGE, fn,
                       "%zu elements of the target datatype at target_disp=%ld lie outside "
                       "rank %d's %s",
                       tcount, (long)disp, t,
                       w->flavor == MPI_WIN_FLAVOR_DYNAMIC ? "attached regions" : "window");
    }
    return MPI_SUCCESS;
}

static int rma_any(int kind, const void *oaddr, int ocount, MPI_Datatype otype, void *raddr,
                   int rcount, MPI_Datatype rtype, int t, MPI_Aint tdisp, int tcount,
                   MPI_Datatype ttype, MPI_Op oph, MPI_Win win, MPI_Request *req, const char *fn)
{
    compi_datatype_t *odt = NULL, *rdt = NULL, *tdt = NULL;
    compi_op_t *op = NULL;
    osc_target_t tg;
    int rc;
    compi_win_t *w = win_arg(win, fn, &rc);
    if (w == NULL) {
        return rc;
    }
    if (req != NULL) {
        *req = MPI_REQUEST_NULL;
    }
    if ((rc = win_rank_check(w, t, 1, fn)) != MPI_SUCCESS) {
        return rc;
    }
    if (kind == RMA_ACC || kind == RMA_GACC) {
        op = op_from_handle(oph);
        if (op == NULL || oph == MPI_OP_NULL || !op->predefined) {
            return win_err(w, MPI_ERR_OP, fn,
                           "op 0x%x is not a predefined operation (user ops are not allowed "
                           "in accumulates)",
                           (unsigned)oph);
        }
    }
    int uses_origin = !(kind == RMA_GACC && oph == MPI_NO_OP);
    if (ocount < 0 || tcount < 0 || rcount < 0) {
        return win_err(w, MPI_ERR_COUNT, fn, "a count is negative");
    }
    if (uses_origin && (rc = type_check(w, otype, "origin", fn, &odt)) != MPI_SUCCESS) {
        return rc;
    }
    if ((rc = type_check(w, ttype, "target", fn, &tdt)) != MPI_SUCCESS) {
        return rc;
    }
    if (kind == RMA_GACC && (rc = type_check(w, rtype, "result", fn, &rdt)) != MPI_SUCCESS) {
        return rc;
    }
    /* with nothing to combine the op is not applied to anything: programs pass count 0
       with MPI_BYTE and the default MPI_SUM (mpi4py does), as other MPIs allow */
    if (op != NULL && oph != MPI_REPLACE && oph != MPI_NO_OP && tcount > 0 &&
        !op_valid_for(op, tdt)) {
        return win_err(w, MPI_ERR_OP, fn, "%s is not defined on the target datatype", op->name);
    }
    size_t tbytes = (size_t)tcount * tdt->size;
    size_t obytes = uses_origin ? (size_t)ocount * odt->size : tbytes;
    size_t rbytes = kind == RMA_GACC ? (size_t)rcount * rdt->size : tbytes;
    if (obytes != tbytes || rbytes != tbytes) {
        return win_err(w, MPI_ERR_TYPE, fn,
                       "the origin carries %zu bytes, the target %zu (the type signatures "
                       "must match)",
                       kind == RMA_GACC && rbytes != tbytes ? rbytes : obytes, tbytes);
    }
    if (t != MPI_PROC_NULL) {
        if ((rc = target_check(w, t, tdisp, tdt, (size_t)tcount, &tg, fn)) != MPI_SUCCESS) {
            return rc;
        }
        /* the origin's (or result's) data, packed */
        char *tmp = NULL, *otmp = NULL;
        const void *src = NULL;
        void *dst = NULL;
        compi_datatype_t *ddt = kind == RMA_GACC ? rdt : odt;
        void *daddr = kind == RMA_GACC ? raddr : (void *)oaddr;
        int dcount = kind == RMA_GACC ? rcount : ocount;
        if (kind != RMA_GET && uses_origin && tbytes > 0) {
            src = dt_contig_ptr(odt, oaddr, (size_t)ocount);
            if (src == NULL) {
                otmp = malloc(tbytes);
                if (otmp == NULL) {
                    return win_err(w, MPI_ERR_NO_MEM, fn, "no memory to pack the origin");
                }
                dt_pack(odt, oaddr, (size_t)ocount, 0, otmp, tbytes);
                src = otmp;
            }
        }
        if ((kind == RMA_GET || kind == RMA_GACC) && tbytes > 0) {
            dst = dt_contig_ptr(ddt, daddr, (size_t)dcount);
            if (dst == NULL) {
                tmp = malloc(tbytes);
                if (tmp == NULL) {
                    free(otmp);
                    return win_err(w, MPI_ERR_NO_MEM, fn, "no memory for the result");
                }
                dst = tmp;
            }
        }
        compi_status_t st = COMPI_OK;
        if (w->am && t != w->rank) {
            static const int am_kind[] = {[RMA_PUT] = OSC_AM_PUT,
                                          [RMA_GET] = OSC_AM_GET,
                                          [RMA_ACC] = OSC_AM_ACC,
                                          [RMA_GACC] = OSC_AM_GACC};
            st = osc_am_rma(w, am_kind[kind], t, tdisp, tdt, (size_t)tcount, op, src,
                            src != NULL ? tbytes : 0, dst, dst != NULL ? tbytes : 0);
            goto moved;
        }
        if (w->am) {
            osc_am_poll(); /* to itself: serve the others first (a rank may spin here) */
        }
        switch (kind) {
        case RMA_PUT:
            st = osc_put(&tg, tdt, (size_t)tcount, src, tbytes);
            break;
        case RMA_GET:
            st = osc_get(&tg, tdt, (size_t)tcount, dst, tbytes);
            break;
        default:
            st = osc_accumulate(w, &tg, tdt, (size_t)tcount, op, src, tbytes,
                                kind == RMA_GACC ? dst : NULL);
            break;
        }
    moved:
        if (st == COMPI_OK && tmp != NULL) {
            dt_unpack(ddt, daddr, (size_t)dcount, 0, tmp, tbytes);
        }
        free(tmp);
        free(otmp);
        if (st == COMPI_ERR_NOT_FOUND) {
            return win_err(w, MPI_ERR_RMA_RANGE, fn,
                           "%d elements of the target datatype at target_disp=%ld lie outside "
                           "rank %d's attached regions",
                           tcount, (long)tdisp, t);
        }
        if (st != COMPI_OK) {
            return win_err(w, MPI_ERR_OTHER, fn, "the transfer with rank %d failed: %s", t,
                           compi_status_string(st));
        }
    }
    return req != NULL ? done_request(w, req, fn) : MPI_SUCCESS;
}

#pragma weak MPI_Put = PMPI_Put
int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
             MPI_Win win)
{
    COMPI_CHECK_INIT("MPI_Put");
    return rma_any(RMA_PUT, origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                   target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, win, NULL,
                   "MPI_Put");
}

#pragma weak MPI_Get = PMPI_Get
int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    COMPI_CHECK_INIT("MPI_Get");
    return rma_any(RMA_GET, origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                   target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, win, NULL,
                   "MPI_Get");
}

#pragma weak MPI_Accumulate = PMPI_Accumulate
int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    COMPI_CHECK_INIT("MPI_Accumulate");
    return rma_any(RMA_ACC, origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                   target_rank, target_disp, target_count, target_datatype, op, win, NULL,
                   "MPI_Accumulate");
}

#pragma weak MPI_Get_accumulate = PMPI_Get_accumulate
int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        void *result_addr, int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    COMPI_CHECK_INIT("MPI_Get_accumulate");
    return rma_any(RMA_GACC, origin_addr, origin_count, origin_datatype, result_addr, result_count,
                   result_datatype, target_rank, target_disp, target_count, target_datatype, op,
                   win, NULL, "MPI_Get_accumulate");
}

#pragma weak MPI_Rput = PMPI_Rput
int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
              int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
              MPI_Win win, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Rput");
    if (request == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Rput", "request is NULL");
    }
    return rma_any(RMA_PUT, origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                   target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, win,
                   request, "MPI_Rput");
}

#pragma weak MPI_Rget = PMPI_Rget
int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Rget");
    if (request == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Rget", "request is NULL");
    }
    return rma_any(RMA_GET, origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                   target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, win,
                   request, "MPI_Rget");
}

#pragma weak MPI_Raccumulate = PMPI_Raccumulate
int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                     int target_rank, MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Raccumulate");
    if (request == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Raccumulate", "request is NULL");
    }
    return rma_any(RMA_ACC, origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                   target_rank, target_disp, target_count, target_datatype, op, win, request,
                   "MPI_Raccumulate");
}

#pragma weak MPI_Rget_accumulate = PMPI_Rget_accumulate
int PMPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                         void *result_addr, int result_count, MPI_Datatype result_datatype,
                         int target_rank, MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    COMPI_CHECK_INIT("MPI_Rget_accumulate");
    if (request == NULL) {
        return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_Rget_accumulate", "request is NULL");
    }
    return rma_any(RMA_GACC, origin_addr, origin_count, origin_datatype, result_addr, result_count,
                   result_datatype, target_rank, target_disp, target_count, target_datatype, op,
                   win, request, "MPI_Rget_accumulate");
}

/* the checks MPI_Fetch_and_op and MPI_Compare_and_swap share: one predefined element */
static int one_elem(compi_win_t *w, MPI_Datatype type, int t, MPI_Aint disp, const char *fn,
                    compi_datatype_t **dt_p, osc_target_t *tg)
{
    int rc = win_rank_check(w, t, 1, fn);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if ((rc = type_check(w, type, "", fn, dt_p)) != MPI_SUCCESS) {
        return rc;
    }
    if (!(*dt_p)->predefined) {
        return win_err(w, MPI_ERR_TYPE, fn, "the datatype must be predefined");
    }
    if (t == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    return target_check(w, t, disp, *dt_p, 1, tg, fn);
}

#pragma weak MPI_Fetch_and_op = PMPI_Fetch_and_op
int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    COMPI_CHECK_INIT("MPI_Fetch_and_op");
    static const char fn[] = "MPI_Fetch_and_op";
    compi_datatype_t *dt;
    osc_target_t tg;
    int rc;
    compi_win_t *w = win_arg(win, fn, &rc);
    if (w == NULL) {
        return rc;
    }
    compi_op_t *o = op_from_handle(op);
    if (o == NULL || op == MPI_OP_NULL || !o->predefined) {
        return win_err(w, MPI_ERR_OP, fn, "op 0x%x is not a predefined operation", (unsigned)op);
    }
    if ((rc = one_elem(w, datatype, target_rank, target_disp, fn, &dt, &tg)) != MPI_SUCCESS) {
        return rc;
    }
    if (op != MPI_REPLACE && op != MPI_NO_OP && !op_valid_for(o, dt)) {
        return win_err(w, MPI_ERR_OP, fn, "%s is not defined on %s", o->name, dt_name(dt));
    }
    if (target_rank == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    if (result_addr == NULL || (origin_addr == NULL && op != MPI_NO_OP)) {
        return win_err(w, MPI_ERR_BUFFER, fn, "origin_addr or result_addr is NULL");
    }
    if (w->am && target_rank == w->rank) {
        osc_am_poll();
    }
    compi_status_t st =
        w->am && target_rank != w->rank
            ? osc_am_rma(w, OSC_AM_FOP, target_rank, target_disp, dt, 1, o, origin_addr,
                         op != MPI_NO_OP ? dt->size : 0, result_addr, dt->size)
            : osc_fetch_and_op(w, &tg, dt, o, origin_addr, result_addr);
    if (st == COMPI_ERR_NOT_FOUND) {
        return win_err(w, MPI_ERR_RMA_RANGE, fn,
                       "target_disp=%ld lies outside rank %d's attached regions", (long)target_disp,
                       target_rank);
    }
    if (st != COMPI_OK) {
        return win_err(w, MPI_ERR_OTHER, fn, "with rank %d: %s", target_rank,
                       compi_status_string(st));
    }
    return MPI_SUCCESS;
}

#pragma weak MPI_Compare_and_swap = PMPI_Compare_and_swap
int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    COMPI_CHECK_INIT("MPI_Compare_and_swap");
    static const char fn[] = "MPI_Compare_and_swap";
    compi_datatype_t *dt;
    osc_target_t tg;
    int rc;
    compi_win_t *w = win_arg(win, fn, &rc);
    if (w == NULL) {
        return rc;
    }
    if ((rc = one_elem(w, datatype, target_rank, target_disp, fn, &dt, &tg)) != MPI_SUCCESS) {
        return rc;
    }
    if (target_rank == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    if (origin_addr == NULL || compare_addr == NULL || result_addr == NULL) {
        return win_err(w, MPI_ERR_BUFFER, fn, "a buffer is NULL");
    }
    compi_status_t st;
    if (w->am && target_rank != w->rank) {
        /* origin then compare, in one message */
        char two[2 * 64];
        if (dt->size > 64) {
            return win_err(w, MPI_ERR_TYPE, fn, "%s is too large for compare-and-swap",
                           dt_name(dt));
        }
        memcpy(two, origin_addr, dt->size);
        memcpy(two + dt->size, compare_addr, dt->size);
        st = osc_am_rma(w, OSC_AM_CAS, target_rank, target_disp, dt, 1, NULL, two, 2 * dt->size,
                        result_addr, dt->size);
    } else {
        if (w->am) {
            osc_am_poll();
        }
        st = osc_compare_and_swap(w, &tg, dt, origin_addr, compare_addr, result_addr);
    }
    if (st == COMPI_ERR_NOT_FOUND) {
        return win_err(w, MPI_ERR_RMA_RANGE, fn,
                       "target_disp=%ld lies outside rank %d's attached regions", (long)target_disp,
                       target_rank);
    }
    if (st != COMPI_OK) {
        return win_err(w, MPI_ERR_OTHER, fn, "with rank %d: %s", target_rank,
                       compi_status_string(st));
    }
    return MPI_SUCCESS;
}
