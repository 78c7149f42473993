/*
 * rma_api.c -- the transfers of one-sided communication: MPI_Put, MPI_Get,
 * MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap and the
 * request-based MPI_Rput, MPI_Rget, MPI_Raccumulate, MPI_Rget_accumulate.
 *
 * Each checks its arguments and the epoch (an access epoch of this rank must cover the
 * target: MPI_ERR_RMA_SYNC; a negative displacement of a non-dynamic window:
 * MPI_ERR_DISP), then makes one call through the window's module (core/osc/osc.h), with
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

static int type_check(mpi_win_t *w, MPI_Datatype h, const char *what, const char *fn,
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

/* the epoch and the displacement, for every transfer (the module checks the range) */
static int target_check(mpi_win_t *w, int t, MPI_Aint disp, const char *fn)
{
    if (!win_access_ok(w, t)) {
        return win_err(w, MPI_ERR_RMA_SYNC, fn,
                       "no access epoch covers rank %d (MPI_Win_fence, MPI_Win_lock(_all) or "
                       "MPI_Win_start first)",
                       t);
    }
    if (disp < 0 && w->attr_flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        return win_err(w, MPI_ERR_DISP, fn, "target_disp=%ld is negative", (long)disp);
    }
    return MPI_SUCCESS;
}

/* a NULL buffer for data of dt: a datatype whose data starts at its true lower bound 0
   (a predefined one or any relative layout) would be read or written at address 0 */
static int buf_null(const void *buf, const compi_datatype_t *dt)
{
    return buf == NULL && dt->true_lb == 0;
}

static int rma_any(int kind, const void *oaddr, MPI_Count ocount, MPI_Datatype otype, void *raddr,
                   MPI_Count rcount, MPI_Datatype rtype, int t, MPI_Aint tdisp, MPI_Count tcount,
                   MPI_Datatype ttype, MPI_Op oph, MPI_Win win, MPI_Request *req, const char *fn)
{
    compi_datatype_t *odt = NULL, *rdt = NULL, *tdt = NULL;
    compi_op_t *op = NULL;
    int rc;
    mpi_win_t *w = win_arg(win, fn, &rc);
    if (w == NULL) {
        return rc;
    }
    if (req != NULL) {
        *req = MPI_REQUEST_NULL;
    }
    if ((rc = win_rank_check(w, t, 1, fn)) != MPI_SUCCESS) {
        return rc;
    }
    if (kind == OSC_ACC || kind == OSC_GACC) {
        op = op_from_handle(oph);
        if (op == NULL || oph == MPI_OP_NULL || !op->predefined) {
            return win_err(w, MPI_ERR_OP, fn,
                           "op 0x%x is not a predefined operation (user ops are not allowed "
                           "in accumulates)",
                           (unsigned)oph);
        }
    }
    int uses_origin = !(kind == OSC_GACC && oph == MPI_NO_OP);
    if (ocount < 0 || tcount < 0 || rcount < 0) {
        return win_err(w, MPI_ERR_COUNT, fn, "a count is negative");
    }
    if (uses_origin && (rc = type_check(w, otype, "origin", fn, &odt)) != MPI_SUCCESS) {
        return rc;
    }
    if ((rc = type_check(w, ttype, "target", fn, &tdt)) != MPI_SUCCESS) {
        return rc;
    }
    if (kind == OSC_GACC && (rc = type_check(w, rtype, "result", fn, &rdt)) != MPI_SUCCESS) {
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
    size_t rbytes = kind == OSC_GACC ? (size_t)rcount * rdt->size : tbytes;
    if (obytes != tbytes || rbytes != tbytes) {
        return win_err(w, MPI_ERR_TYPE, fn,
                       "the origin carries %zu bytes, the target %zu (the type signatures "
                       "must match)",
                       kind == OSC_GACC && rbytes != tbytes ? rbytes : obytes, tbytes);
    }
    if (t != MPI_PROC_NULL && (rc = target_check(w, t, tdisp, fn)) != MPI_SUCCESS) {
        return rc;
    }
    /* a buffer that data goes to or comes from cannot be NULL (MPI_BOTTOM is NULL too: a
       datatype of absolute addresses, whose true lower bound is not 0, is allowed) */
    if (t != MPI_PROC_NULL && tbytes > 0) {
        if ((uses_origin && buf_null(oaddr, odt)) || (kind == OSC_GACC && buf_null(raddr, rdt))) {
            return win_err(w, MPI_ERR_BUFFER, fn, "%s is NULL",
                           kind == OSC_GACC && buf_null(raddr, rdt) ? "result_addr"
                                                                    : "origin_addr");
        }
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

/*
 * The communication calls, each written once for its int form and its large-count form
 * (MPI_Put and MPI_Put_c): CT is the type of the counts, int or MPI_Count, and both reach
 * rma_any, which carries MPI_Count down to the transfer.
 */
#define RMA_WEAK(x) _Pragma(RMA_STR(weak MPI_##x = PMPI_##x))
#define RMA_STR(s) #s

/* MPI_Put, MPI_Get (CQ: const for the origin buffer a put reads) */
#define RMA_PUT_GET(x, kind, CQ, CT)                                                               \
    RMA_WEAK(x)                                                                                    \
    int PMPI_##x(CQ void *origin_addr, CT origin_count, MPI_Datatype origin_datatype,              \
                 int target_rank, MPI_Aint target_disp, CT target_count,                           \
                 MPI_Datatype target_datatype, MPI_Win win)                                        \
    {                                                                                              \
        COMPI_CHECK_INIT("MPI_" #x);                                                               \
        return rma_any(kind, origin_addr, origin_count, origin_datatype, NULL, 0,                  \
                       MPI_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype, \
                       MPI_OP_NULL, win, NULL, "MPI_" #x);                                         \
    }
/* MPI_Rput, MPI_Rget */
#define RMA_RPUT_GET(x, kind, CQ, CT)                                                              \
    RMA_WEAK(x)                                                                                    \
    int PMPI_##x(CQ void *origin_addr, CT origin_count, MPI_Datatype origin_datatype,              \
                 int target_rank, MPI_Aint target_disp, CT target_count,                           \
                 MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)                  \
    {                                                                                              \
        COMPI_CHECK_INIT("MPI_" #x);                                                               \
        if (request == NULL) {                                                                     \
            return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_" #x, "request is NULL");                 \
        }                                                                                          \
        return rma_any(kind, origin_addr, origin_count, origin_datatype, NULL, 0,                  \
                       MPI_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype, \
                       MPI_OP_NULL, win, request, "MPI_" #x);                                      \
    }
/* MPI_Accumulate */
#define RMA_ACC(x, CT)                                                                             \
    RMA_WEAK(x)                                                                                    \
    int PMPI_##x(const void *origin_addr, CT origin_count, MPI_Datatype origin_datatype,           \
                 int target_rank, MPI_Aint target_disp, CT target_count,                           \
                 MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)                             \
    {                                                                                              \
        COMPI_CHECK_INIT("MPI_" #x);                                                               \
        return rma_any(OSC_ACC, origin_addr, origin_count, origin_datatype, NULL, 0,               \
                       MPI_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype, \
                       op, win, NULL, "MPI_" #x);                                                  \
    }
/* MPI_Raccumulate */
#define RMA_RACC(x, CT)                                                                            \
    RMA_WEAK(x)                                                                                    \
    int PMPI_##x(const void *origin_addr, CT origin_count, MPI_Datatype origin_datatype,           \
                 int target_rank, MPI_Aint target_disp, CT target_count,                           \
                 MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)       \
    {                                                                                              \
        COMPI_CHECK_INIT("MPI_" #x);                                                               \
        if (request == NULL) {                                                                     \
            return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_" #x, "request is NULL");                 \
        }                                                                                          \
        return rma_any(OSC_ACC, origin_addr, origin_count, origin_datatype, NULL, 0,               \
                       MPI_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype, \
                       op, win, request, "MPI_" #x);                                               \
    }
/* MPI_Get_accumulate */
#define RMA_GACC(x, CT)                                                                            \
    RMA_WEAK(x)                                                                                    \
    int PMPI_##x(const void *origin_addr, CT origin_count, MPI_Datatype origin_datatype,           \
                 void *result_addr, CT result_count, MPI_Datatype result_datatype,                 \
                 int target_rank, MPI_Aint target_disp, CT target_count,                           \
                 MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)                             \
    {                                                                                              \
        COMPI_CHECK_INIT("MPI_" #x);                                                               \
        return rma_any(OSC_GACC, origin_addr, origin_count, origin_datatype, result_addr,          \
                       result_count, result_datatype, target_rank, target_disp, target_count,      \
                       target_datatype, op, win, NULL, "MPI_" #x);                                 \
    }
/* MPI_Rget_accumulate */
#define RMA_RGACC(x, CT)                                                                           \
    RMA_WEAK(x)                                                                                    \
    int PMPI_##x(const void *origin_addr, CT origin_count, MPI_Datatype origin_datatype,           \
                 void *result_addr, CT result_count, MPI_Datatype result_datatype,                 \
                 int target_rank, MPI_Aint target_disp, CT target_count,                           \
                 MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)       \
    {                                                                                              \
        COMPI_CHECK_INIT("MPI_" #x);                                                               \
        if (request == NULL) {                                                                     \
            return mpi_err_raise(NULL, MPI_ERR_ARG, "MPI_" #x, "request is NULL");                 \
        }                                                                                          \
        return rma_any(OSC_GACC, origin_addr, origin_count, origin_datatype, result_addr,          \
                       result_count, result_datatype, target_rank, target_disp, target_count,      \
                       target_datatype, op, win, request, "MPI_" #x);                              \
    }

RMA_PUT_GET(Put, OSC_PUT, const, int)
RMA_PUT_GET(Put_c, OSC_PUT, const, MPI_Count)
RMA_PUT_GET(Get, OSC_GET, , int)
RMA_PUT_GET(Get_c, OSC_GET, , MPI_Count)
RMA_RPUT_GET(Rput, OSC_PUT, const, int)
RMA_RPUT_GET(Rput_c, OSC_PUT, const, MPI_Count)
RMA_RPUT_GET(Rget, OSC_GET, , int)
RMA_RPUT_GET(Rget_c, OSC_GET, , MPI_Count)
RMA_ACC(Accumulate, int)
RMA_ACC(Accumulate_c, MPI_Count)
RMA_RACC(Raccumulate, int)
RMA_RACC(Raccumulate_c, MPI_Count)
RMA_GACC(Get_accumulate, int)
RMA_GACC(Get_accumulate_c, MPI_Count)
RMA_RGACC(Rget_accumulate, int)
RMA_RGACC(Rget_accumulate_c, MPI_Count)

/* the checks MPI_Fetch_and_op and MPI_Compare_and_swap share: one predefined element */
static int one_elem(mpi_win_t *w, MPI_Datatype type, int t, MPI_Aint disp, const char *fn,
                    compi_datatype_t **dt_p)
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
    return target_check(w, t, disp, fn);
}

/* one element of predefined dt: fetch-and-op or compare-and-swap */
static int one_elem_go(mpi_win_t *w, int kind, compi_datatype_t *dt, int t, MPI_Aint disp,
                       const compi_op_t *op, const void *origin, const void *compare, void *result,
                       const char *fn)
{
    osc_rma_t a = {.kind = kind,
                   .t = t,
                   .disp = disp,
                   .tdt = dt,
                   .tcount = 1,
                   .op = op,
                   .origin = origin,
                   .odt = dt,
                   .ocount = 1,
                   .result = result,
                   .rdt = dt,
                   .rcount = 1,
                   .compare = compare};
    return rma_go(w, &a, NULL, fn);
}

#pragma weak MPI_Fetch_and_op = PMPI_Fetch_and_op
int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    COMPI_CHECK_INIT("MPI_Fetch_and_op");
    static const char fn[] = "MPI_Fetch_and_op";
    compi_datatype_t *dt;
    int rc;
    mpi_win_t *w = win_arg(win, fn, &rc);
    if (w == NULL) {
        return rc;
    }
    compi_op_t *o = op_from_handle(op);
    if (o == NULL || op == MPI_OP_NULL || !o->predefined) {
        return win_err(w, MPI_ERR_OP, fn, "op 0x%x is not a predefined operation", (unsigned)op);
    }
    if ((rc = one_elem(w, datatype, target_rank, target_disp, fn, &dt)) != MPI_SUCCESS) {
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
    return one_elem_go(w, OSC_FOP, dt, target_rank, target_disp, o,
                       op != MPI_NO_OP ? origin_addr : NULL, NULL, result_addr, fn);
}

#pragma weak MPI_Compare_and_swap = PMPI_Compare_and_swap
int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    COMPI_CHECK_INIT("MPI_Compare_and_swap");
    static const char fn[] = "MPI_Compare_and_swap";
    compi_datatype_t *dt;
    int rc;
    mpi_win_t *w = win_arg(win, fn, &rc);
    if (w == NULL) {
        return rc;
    }
    if ((rc = one_elem(w, datatype, target_rank, target_disp, fn, &dt)) != MPI_SUCCESS) {
        return rc;
    }
    if (target_rank == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    if (origin_addr == NULL || compare_addr == NULL || result_addr == NULL) {
        return win_err(w, MPI_ERR_BUFFER, fn, "a buffer is NULL");
    }
    return one_elem_go(w, OSC_CAS, dt, target_rank, target_disp, NULL, origin_addr, compare_addr,
                       result_addr, fn);
}
