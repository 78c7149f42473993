/*
 * osc_am.c -- the active-message transport of one-sided communication: windows whose
 * ranks are not all on this host (or every window but MPI_Win_allocate_shared's with
 * osc_transport=am).  Every access travels as a message over the PML on the window's own
 * communicator, tag COMPI_TAG_OSC_AM, and the target applies it to its memory itself.
 *
 * A message is an am_hdr_t, then (transfers with a derived target datatype) the target
 * datatype's layout (an am_layout_t and its dt_block_t blocks), then the data: the
 * origin's data packed straight from its datatype (put, accumulates, fetch-and-op;
 * compare-and-swap: origin then compare).  The target answers every request with an
 * AM_REPLY carrying the request's id, a status and the data asked for (get,
 * get-accumulate, fetch-and-op, compare-and-swap), which the origin unpacks straight into
 * the result's datatype.  Puts and accumulates (id 0) are counted in the origin's
 * pending[t] and the call returns at once (the data was packed into the message); their
 * replies count down, and a flush waits until pending[t] is 0.  A request-based call
 * (MPI_Rput ...) returns once its message is sent: its id is an am_op_t on the heap,
 * counted in pending[t] too, and the reply (served in the PML's progress, so in MPI_Wait
 * or MPI_Test) unpacks the result, completes the request and frees the am_op_t.  Gets,
 * the fetching calls, locks and unlocks, and every transfer of a dynamic window (the
 * target checks the range and the origin reports MPI_ERR_RMA_RANGE) wait for their reply
 * in the call.
 *
 * The target serves requests when it progresses: while any AM window exists, the PML's
 * progress hook (slot PML_HOOK_OSC) receives and serves what arrived on every such
 * window, so a target inside any call that progresses the PML (the window's
 * synchronisation calls, MPI_Barrier, MPI_Test, MPI_Wait, MPI_Recv ...) serves requests;
 * a rank that computes without calling MPI serves nothing until it calls again.  The hook
 * does not nest (receiving a large request waits on the PML, which calls the hooks).
 *
 * Accumulates are applied by the target one at a time, in arrival order (it alone
 * writes through active messages), with the shared-memory code (osc_rma.c) on its own
 * memory.  A rank's transfers to itself take that code directly (osc_am_rma, after
 * serving what arrived): the service of requests runs only inside this rank's own MPI
 * calls, one at a time, so they stay atomic against the requests.  Locks on itself still
 * go through messages (the queue).  Passive-target locks: the target keeps its lock word
 * and a FIFO of waiting lockers, granted in order as soon as they are compatible.
 * PSCW: MPI_Win_post sends AM_POST to each origin (counted in posts_from[target]);
 * MPI_Win_complete flushes each target, then sends AM_COMPLETE (counted in `completes`).
 *
 * The layout travels as raw dt_block_t structs and predefined handles as numbers: the
 * ranks run one build of the library on processors of one data representation.
 *
 * Ownership: osc_am_open hangs an osc_am_t on the window, osc_am_close frees it.  Send
 * buffers belong to the outgoing list until their send completes; received messages are
 * freed after they are served; a request-based call's am_op_t belongs to its reply (the
 * request itself is the caller's).
 */
#include "config.h"

#include "core/osc/osc_am.h"

#include "core/pml/pml.h"
#include "core/runtime/log.h"
#include "core/runtime/rte.h"

#include <stdlib.h>
#include <string.h>

enum {
    AM_PUT = OSC_PUT,
    AM_GET = OSC_GET,
    AM_ACC = OSC_ACC,
    AM_GACC = OSC_GACC,
    AM_FOP = OSC_FOP,
    AM_CAS = OSC_CAS,
    AM_LOCK = 16,
    AM_UNLOCK,
    AM_POST,
    AM_COMPLETE,
    AM_REPLY
};

typedef struct am_hdr {
    uint32_t type;
    int32_t arg;     /* the op handle; the lock type; a reply's compi_status_t */
    int32_t dt;      /* the target datatype's handle when predefined, else MPI_DATATYPE_NULL */
    int32_t nblocks; /* the blocks of the layout that follows when not predefined */
    uint64_t id;     /* the origin's waiting am_op_t, or 0 (counted in pending) */
    int64_t disp;
    uint64_t count;
    uint64_t bytes; /* data after the header and layout */
} am_hdr_t;

typedef struct am_layout {
    uint64_t size, nbasic, align, nrep, unit_size;
    int64_t lb, extent, true_lb, true_extent, rep_stride;
    int32_t basic, contig;
} am_layout_t;

/* an access that waits for its reply: on the caller's stack when the call waits for it;
   on the heap, freed by the reply, when a request completes with it */
typedef struct am_op {
    int done;
    compi_status_t st;
    void *result; /* the reply's data goes to (rdt, result); rdt NULL: packed */
    const compi_datatype_t *rdt;
    size_t rbytes;
    compi_request_t *req; /* completed by the reply (MPI_Rput ...), or NULL */
    int counted;          /* counted in pending[] (a flush waits for it) */
} am_op_t;

typedef struct am_waiter {
    int src, type;
    uint64_t id;
} am_waiter_t;

struct osc_am {
    struct compi_win *next; /* the list of AM windows */
    uint64_t *pending;      /* [p]: puts and accumulates towards each target not yet acked */
    uint64_t npending;
    compi_status_t async_st; /* the first failure of an acked put or accumulate */
    uint64_t *posts_from;    /* [p]: AM_POST received from each target */
    uint64_t completes;      /* AM_COMPLETE received */
    uint32_t lockw;          /* this rank as a target: OSC_LOCK_EXCL or shared holders */
    am_waiter_t *waitq;      /* lockers waiting, FIFO */
    size_t nwait, capwait;
};

typedef struct am_out {
    compi_request_t *req;
    void *buf;
    struct am_out *next;
} am_out_t;

static compi_win_t *am_windows;
static am_out_t *am_outgoing;
static int am_busy;

static compi_datatype_t *byte_dt(void)
{
    return dt_from_handle(MPI_BYTE);
}

/* ---- sending ----------------------------------------------------------------------- */

/* send buf[0, len) to dst (buf is taken over: freed once the send completes) */
static compi_status_t am_send(compi_win_t *w, int dst, void *buf, size_t len)
{
    compi_request_t *r = NULL;
    compi_status_t st =
        pml_isend(buf, len, byte_dt(), dst, COMPI_TAG_OSC_AM, w->comm, PML_SEND_STANDARD, &r);
    if (st != COMPI_OK) {
        free(buf);
        return st;
    }
    if (r->complete) {
        pml_request_free(r);
        free(buf);
        return COMPI_OK;
    }
    am_out_t *o = malloc(sizeof(*o));
    if (o == NULL) {
        /* keep the buffer alive until the send leaves */
        (void)pml_wait(r, NULL);
        pml_request_free(r);
        free(buf);
        return COMPI_OK;
    }
    o->req = r;
    o->buf = buf;
    o->next = am_outgoing;
    am_outgoing = o;
    return COMPI_OK;
}

static int am_reap(void)
{
    int n = 0;
    am_out_t **pp = &am_outgoing;
    while (*pp != NULL) {
        am_out_t *o = *pp;
        if (o->req->complete) {
            *pp = o->next;
            pml_request_free(o->req);
            free(o->buf);
            free(o);
            n++;
        } else {
            pp = &o->next;
        }
    }
    return n;
}

/* a header-only message (plus `extra` bytes the caller fills after the header) */
static am_hdr_t *am_msg(uint32_t type, int32_t arg, uint64_t id, size_t extra)
{
    am_hdr_t *h = calloc(1, sizeof(*h) + extra);
    if (h != NULL) {
        h->type = type;
        h->arg = arg;
        h->id = id;
        h->dt = (int32_t)MPI_DATATYPE_NULL;
        h->bytes = extra;
    }
    return h;
}

static compi_status_t am_reply(compi_win_t *w, int dst, uint64_t id, compi_status_t st,
                               const void *data, size_t bytes)
{
    am_hdr_t *h = am_msg(AM_REPLY, (int32_t)st, id, bytes);
    if (h == NULL) {
        rte_abort(MPI_ERR_NO_MEM, "osc: no memory for the reply to a one-sided request");
    }
    if (bytes > 0) {
        memcpy(h + 1, data, bytes);
    }
    return am_send(w, dst, h, sizeof(*h) + bytes);
}

/* ---- waiting ----------------------------------------------------------------------- */

static void am_wait_op(am_op_t *op)
{
    while (!__atomic_load_n(&op->done, __ATOMIC_ACQUIRE)) {
        (void)pml_progress_wait();
    }
}

compi_status_t osc_am_flush(compi_win_t *w, int t)
{
    osc_am_t *am = w->amst;
    const uint64_t *c = t < 0 ? &am->npending : &am->pending[t];
    while (__atomic_load_n(c, __ATOMIC_ACQUIRE) > 0) {
        (void)pml_progress_wait();
    }
    compi_status_t st = am->async_st;
    am->async_st = COMPI_OK;
    return st;
}

/* ---- the target's side ------------------------------------------------------------- */

static int lock_grantable(const osc_am_t *am, int type)
{
    return type == MPI_LOCK_EXCLUSIVE ? am->lockw == 0 : (am->lockw & OSC_LOCK_EXCL) == 0;
}

static void lock_take(osc_am_t *am, int type)
{
    am->lockw += type == MPI_LOCK_EXCLUSIVE ? OSC_LOCK_EXCL : 1u;
}

static void serve_lock(compi_win_t *w, int src, int type, uint64_t id)
{
    osc_am_t *am = w->amst;
    if (am->nwait == 0 && lock_grantable(am, type)) {
        lock_take(am, type);
        (void)am_reply(w, src, id, COMPI_OK, NULL, 0);
        return;
    }
    if (am->nwait == am->capwait) {
        size_t cap = am->capwait ? 2 * am->capwait : 8;
        am_waiter_t *q = realloc(am->waitq, cap * sizeof(*q));
        if (q == NULL) {
            rte_abort(MPI_ERR_NO_MEM, "osc: no memory for the queue of a window's lockers");
        }
        am->waitq = q;
        am->capwait = cap;
    }
    am->waitq[am->nwait++] = (am_waiter_t){.src = src, .type = type, .id = id};
}

static void serve_unlock(compi_win_t *w, int src, int type, uint64_t id)
{
    osc_am_t *am = w->amst;
    am->lockw -= type == MPI_LOCK_EXCLUSIVE ? OSC_LOCK_EXCL : 1u;
    (void)am_reply(w, src, id, COMPI_OK, NULL, 0);
    /* the queue's head first: an exclusive locker there holds the shared ones behind it */
    size_t k = 0;
    while (k < am->nwait && lock_grantable(am, am->waitq[k].type)) {
        lock_take(am, am->waitq[k].type);
        (void)am_reply(w, am->waitq[k].src, am->waitq[k].id, COMPI_OK, NULL, 0);
        k++;
    }
    if (k > 0) { /* waitq is NULL until a locker first waits */
        memmove(am->waitq, am->waitq + k, (am->nwait - k) * sizeof(*am->waitq));
        am->nwait -= k;
    }
}

static void serve_reply(compi_win_t *w, int src, const am_hdr_t *h)
{
    osc_am_t *am = w->amst;
    compi_status_t st = (compi_status_t)h->arg;
    am_op_t *op = (am_op_t *)(uintptr_t)h->id;
    if (op == NULL || op->counted) {
        if (st != COMPI_OK && am->async_st == COMPI_OK) {
            am->async_st = st;
        }
        am->pending[src]--;
        am->npending--;
    }
    if (op == NULL) {
        return;
    }
    size_t n = h->bytes < op->rbytes ? h->bytes : op->rbytes;
    if (n > 0 && st == COMPI_OK) {
        dt_copy(op->rdt, op->result, NULL, h + 1, 0, n);
    }
    if (op->req != NULL) {
        pml_request_complete(op->req);
        free(op);
        return;
    }
    op->st = st;
    __atomic_store_n(&op->done, 1, __ATOMIC_RELEASE);
}

/* a transfer: the target datatype rebuilt, the access done on this rank's memory */
static void serve_rma(compi_win_t *w, int src, const am_hdr_t *h, size_t len)
{
    const char *p = (const char *)(h + 1), *end = (const char *)h + len;
    compi_datatype_t shadow, *dt;
    size_t *boff = NULL;
    char *res = NULL;
    size_t rbytes = 0;
    compi_status_t st = COMPI_OK;

    if (h->dt != (int32_t)MPI_DATATYPE_NULL) {
        dt = dt_from_handle((MPI_Datatype)h->dt);
    } else {
        /* a datatype of this call only: the layout's blocks, nothing registered */
        const am_layout_t *L = (const am_layout_t *)(const void *)p;
        p += sizeof(*L);
        memset(&shadow, 0, sizeof(shadow));
        shadow.size = L->size;
        shadow.lb = L->lb;
        shadow.extent = L->extent;
        shadow.true_lb = L->true_lb;
        shadow.true_extent = L->true_extent;
        shadow.contig = L->contig;
        shadow.basic = L->basic;
        shadow.nbasic = L->nbasic;
        shadow.align = L->align;
        shadow.nrep = L->nrep;
        shadow.rep_stride = L->rep_stride;
        shadow.unit_size = L->unit_size;
        shadow.nblocks = h->nblocks;
        shadow.blocks = (dt_block_t *)(uintptr_t)p;
        shadow.handle = MPI_DATATYPE_NULL;
        shadow.refcount = 1;
        shadow.committed = 1;
        p += (size_t)h->nblocks * sizeof(dt_block_t);
        boff = malloc(sizeof(size_t) * ((size_t)h->nblocks + 1));
        if (boff == NULL) {
            rte_abort(MPI_ERR_NO_MEM, "osc: no memory for a one-sided request's datatype");
        }
        boff[0] = 0;
        for (int b = 0; b < h->nblocks; b++) {
            boff[b + 1] = boff[b] + shadow.blocks[b].len;
        }
        shadow.block_off = boff;
        dt = &shadow;
    }
    const char *data = p;
    size_t bytes = h->bytes;
    if (dt == NULL || data + bytes > end) {
        st = COMPI_ERR_INTERNAL;
        goto reply;
    }
    osc_target_t tg;
    if ((st = osc_target(w, w->rank, (MPI_Aint)h->disp, dt, h->count, &tg)) != COMPI_OK) {
        goto reply;
    }
    osc_rma_t a = {.kind = (int)h->type,
                   .t = w->rank,
                   .disp = (MPI_Aint)h->disp,
                   .tdt = dt,
                   .tcount = h->count,
                   .op = op_from_handle((MPI_Op)h->arg),
                   .origin = bytes > 0 ? data : NULL};
    switch (h->type) {
    case AM_GET:
    case AM_GACC:
        rbytes = h->count * dt->size;
        break;
    case AM_FOP:
    case AM_CAS:
        rbytes = dt->size;
        a.compare = data + dt->size;
        break;
    default:
        break;
    }
    if ((h->type == AM_ACC || h->type == AM_GACC || h->type == AM_FOP) && a.op == NULL) {
        st = COMPI_ERR_INTERNAL;
        goto reply;
    }
    if (rbytes > 0 && (res = malloc(rbytes)) == NULL) {
        rte_abort(MPI_ERR_NO_MEM, "osc: no memory for the result of a one-sided request");
    }
    a.result = res;
    st = osc_apply(w, &tg, &a);
reply:
    (void)am_reply(w, src, h->id, st, res, st == COMPI_OK ? rbytes : 0);
    free(res);
    free(boff);
}

static void am_serve(compi_win_t *w, int src, const am_hdr_t *h, size_t len)
{
    osc_am_t *am = w->amst;
    switch (h->type) {
    case AM_REPLY:
        serve_reply(w, src, h);
        break;
    case AM_POST:
        am->posts_from[src]++;
        break;
    case AM_COMPLETE:
        am->completes++;
        break;
    case AM_LOCK:
        serve_lock(w, src, h->arg, h->id);
        break;
    case AM_UNLOCK:
        serve_unlock(w, src, h->arg, h->id);
        break;
    default:
        serve_rma(w, src, h, len);
        break;
    }
}

/* receive and serve what arrived on w */
static int am_drain(compi_win_t *w)
{
    int n = 0;
    for (;;) {
        compi_message_t *msg = NULL;
        compi_request_t *r = NULL;
        pml_result_t s;
        int flag = 0;
        if (pml_improbe(MPI_ANY_SOURCE, COMPI_TAG_OSC_AM, w->comm, &flag, &msg, &s) != COMPI_OK ||
            !flag) {
            break;
        }
        size_t len = s.count;
        void *buf = malloc(len > sizeof(am_hdr_t) ? len : sizeof(am_hdr_t));
        if (buf == NULL) {
            rte_abort(MPI_ERR_NO_MEM, "osc: no memory for a one-sided request");
        }
        if (pml_imrecv(buf, len, byte_dt(), msg, &r) != COMPI_OK || pml_wait(r, NULL) != COMPI_OK) {
            rte_abort(MPI_ERR_INTERN, "osc: receiving a one-sided request failed");
        }
        pml_request_free(r);
        if (len >= sizeof(am_hdr_t)) {
            am_serve(w, s.source, buf, len);
        }
        free(buf);
        n++;
    }
    return n;
}

static int am_progress(void)
{
    if (am_busy) {
        return 0;
    }
    am_busy = 1;
    int n = am_reap();
    for (compi_win_t *w = am_windows; w != NULL; w = w->amst->next) {
        n += am_drain(w);
    }
    am_busy = 0;
    return n;
}

/* ---- the origin's side ------------------------------------------------------------- */

/* serve what arrived (one round of the PML's progress) */
static void am_poll(void)
{
    (void)pml_progress();
}

compi_status_t osc_am_rma(compi_win_t *w, const osc_rma_t *a, compi_request_t *req)
{
    compi_datatype_t *dt = a->tdt;
    osc_target_t tg;
    compi_status_t st;
    /* the range of a dynamic window is checked by the target, the others' here */
    if ((st = osc_target(w, a->t, a->disp, dt, a->tcount, &tg)) != COMPI_OK) {
        return st;
    }
    if (a->t == w->rank) {
        /* to itself: no message, but the others first (a rank may spin here) */
        am_poll();
        if ((st = osc_apply(w, &tg, a)) == COMPI_OK && req != NULL) {
            pml_request_complete(req);
        }
        return st;
    }
    size_t tbytes = a->tcount * dt->size, obytes = 0, rbytes = 0;
    switch (a->kind) {
    case OSC_GET:
        rbytes = tbytes;
        break;
    case OSC_GACC:
        obytes = a->origin != NULL ? tbytes : 0;
        rbytes = tbytes;
        break;
    case OSC_FOP:
        obytes = a->origin != NULL ? dt->size : 0;
        rbytes = dt->size;
        break;
    case OSC_CAS:
        obytes = 2 * dt->size; /* origin then compare */
        rbytes = dt->size;
        break;
    default: /* put, accumulate */
        obytes = tbytes;
        break;
    }
    int dynamic = w->flavor == MPI_WIN_FLAVOR_DYNAMIC;
    /* without a request, puts and accumulates are acknowledged later (counted in pending)
       and the other calls wait for their reply; with one, every access completes its
       request when the reply comes.  A dynamic window's accesses wait: the target checks
       their range, and the caller reports it. */
    int wait = dynamic || (req == NULL && a->kind != OSC_PUT && a->kind != OSC_ACC);
    am_op_t stack_op = {.result = a->result, .rdt = a->rdt, .rbytes = rbytes};
    am_op_t *op = NULL;
    if (wait) {
        op = &stack_op;
    } else if (req != NULL) {
        if ((op = malloc(sizeof(*op))) == NULL) {
            return COMPI_ERR_NO_MEMORY;
        }
        *op = stack_op;
        op->req = req;
        op->counted = 1;
    }
    int layout = !dt->predefined;
    size_t extra = (layout ? sizeof(am_layout_t) + (size_t)dt->nblocks * sizeof(dt_block_t) : 0);
    am_hdr_t *h = am_msg((uint32_t)a->kind, a->op != NULL ? (int32_t)a->op->handle : 0,
                         (uint64_t)(uintptr_t)op, extra + obytes);
    if (h == NULL) {
        if (op != &stack_op) {
            free(op);
        }
        return COMPI_ERR_NO_MEMORY;
    }
    h->bytes = obytes;
    h->disp = (int64_t)a->disp;
    h->count = a->tcount;
    char *p = (char *)(h + 1);
    if (layout) {
        am_layout_t L = {.size = dt->size,
                         .nbasic = dt->nbasic,
                         .align = dt->align,
                         .lb = dt->lb,
                         .extent = dt->extent,
                         .true_lb = dt->true_lb,
                         .true_extent = dt->true_extent,
                         .nrep = dt->nrep,
                         .rep_stride = dt->rep_stride,
                         .unit_size = dt->unit_size,
                         .basic = dt->basic,
                         .contig = dt->contig};
        memcpy(p, &L, sizeof(L));
        p += sizeof(L);
        if (dt->nblocks > 0) {
            memcpy(p, dt->blocks, (size_t)dt->nblocks * sizeof(dt_block_t));
            p += (size_t)dt->nblocks * sizeof(dt_block_t);
        }
        h->nblocks = dt->nblocks;
    } else {
        h->dt = (int32_t)dt->handle;
    }
    /* the origin packed straight into the message */
    if (a->kind == OSC_CAS) {
        dt_copy(NULL, p, a->odt, a->origin, 0, dt->size);
        dt_copy(NULL, p + dt->size, a->odt, a->compare, 0, dt->size);
    } else if (obytes > 0) {
        dt_copy(NULL, p, a->odt, a->origin, 0, obytes);
    }
    int counted = !wait;
    if (counted) {
        w->amst->pending[a->t]++;
        w->amst->npending++;
    }
    st = am_send(w, a->t, h, sizeof(*h) + extra + obytes);
    if (st != COMPI_OK) {
        if (counted) {
            w->amst->pending[a->t]--;
            w->amst->npending--;
        }
        if (op != &stack_op) {
            free(op);
        }
        return st;
    }
    if (!wait) {
        return COMPI_OK; /* the reply completes req, or counts down pending */
    }
    am_wait_op(op);
    if (op->st == COMPI_OK && req != NULL) {
        pml_request_complete(req);
    }
    return op->st;
}

/* a control message that waits for its reply */
static void am_call(compi_win_t *w, int t, uint32_t type, int arg)
{
    am_op_t wait = {0};
    am_hdr_t *h = am_msg(type, arg, (uint64_t)(uintptr_t)&wait, 0);
    if (h == NULL || am_send(w, t, h, sizeof(*h)) != COMPI_OK) {
        rte_abort(MPI_ERR_INTERN, "osc: a lock request could not be sent");
    }
    am_wait_op(&wait);
}

/* a control message without reply */
static void am_notify(compi_win_t *w, int t, uint32_t type)
{
    am_hdr_t *h = am_msg(type, 0, 0, 0);
    if (h == NULL || am_send(w, t, h, sizeof(*h)) != COMPI_OK) {
        rte_abort(MPI_ERR_INTERN, "osc: a synchronisation message could not be sent");
    }
}

void osc_am_sync(compi_win_t *w)
{
    (void)w;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    am_poll(); /* serve what arrived: a rank polling its window sees the others' puts */
}

void osc_am_lock(compi_win_t *w, int t, int type)
{
    am_call(w, t, AM_LOCK, type);
}

void osc_am_unlock(compi_win_t *w, int t, int type)
{
    (void)osc_am_flush(w, t);
    am_call(w, t, AM_UNLOCK, type);
}

void osc_am_post(compi_win_t *w, const int *origins, int n, int nocheck)
{
    w->expected += (uint64_t)n;
    w->exposure_open = 1;
    for (int i = 0; i < n && !nocheck; i++) {
        am_notify(w, origins[i], AM_POST);
    }
}

void osc_am_start(compi_win_t *w, const int *targets, int n, int nocheck)
{
    for (int i = 0; i < n && !nocheck; i++) {
        int t = targets[i];
        uint64_t want = ++w->started[t];
        while (w->amst->posts_from[t] < want) {
            (void)pml_progress_wait();
        }
    }
}

void osc_am_complete(compi_win_t *w)
{
    for (int i = 0; i < w->naccess; i++) {
        (void)osc_am_flush(w, w->access[i]);
        am_notify(w, w->access[i], AM_COMPLETE);
    }
}

int osc_am_test(compi_win_t *w)
{
    (void)pml_progress();
    if (w->amst->completes >= w->expected) {
        w->exposure_open = 0;
        return 1;
    }
    return 0;
}

void osc_am_wait(compi_win_t *w)
{
    while (w->amst->completes < w->expected) {
        (void)pml_progress_wait();
    }
    w->exposure_open = 0;
}

/* ---- the window -------------------------------------------------------------------- */

compi_status_t osc_am_open(compi_win_t *w)
{
    osc_am_t *am = calloc(1, sizeof(*am));
    if (am == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    am->pending = calloc((size_t)w->p, sizeof(uint64_t));
    am->posts_from = calloc((size_t)w->p, sizeof(uint64_t));
    if (am->pending == NULL || am->posts_from == NULL) {
        free(am->pending);
        free(am->posts_from);
        free(am);
        return COMPI_ERR_NO_MEMORY;
    }
    w->amst = am;
    am->next = am_windows;
    if (am_windows == NULL) {
        pml_set_progress_hook(PML_HOOK_OSC, am_progress);
    }
    am_windows = w;
    return COMPI_OK;
}

void osc_am_close(compi_win_t *w)
{
    osc_am_t *am = w->amst;
    if (am == NULL) {
        return;
    }
    for (compi_win_t **pp = &am_windows; *pp != NULL; pp = &(*pp)->amst->next) {
        if (*pp == w) {
            *pp = am->next;
            break;
        }
    }
    if (am_windows == NULL) {
        /* the last replies and notifications leave before the hook goes */
        while (am_outgoing != NULL) {
            am_out_t *o = am_outgoing;
            am_outgoing = o->next;
            (void)pml_wait(o->req, NULL);
            pml_request_free(o->req);
            free(o->buf);
            free(o);
        }
        pml_set_progress_hook(PML_HOOK_OSC, NULL);
    }
    free(am->pending);
    free(am->posts_from);
    free(am->waitq);
    free(am);
    w->amst = NULL;
}
