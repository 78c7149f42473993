/*
 * osc.h -- one-sided communication (MPI RMA), the transport's side: windows, their shared
 * control segment, the transfers and the synchronisation words; and the active-message
 * transport (osc_am.c) that windows take when their ranks are not all on this host
 * (osc_use_am).  Each transport is a module (osc_module_t below), chosen at creation,
 * through which the API layer makes every call that differs.  Below, the segment
 * transport.
 *
 * Every window has one anonymous memfd segment, made by rank 0 of the window's
 * communicator and mapped by the others through /proc/PID/fd/N (as core/coll/shm.c does),
 * so nothing is left in /dev/shm however the processes end:
 *
 *   [osc_rank_t 0] ... [osc_rank_t p-1] [post counters p x p] [data (allocate flavors)]
 *
 * osc_rank_t r holds what the others need of rank r (pid, base, size, disp_unit), its
 * passive-target lock word, its accumulate lock, its PSCW complete counter and, for a
 * dynamic window, the registry of the regions it attached.  post[o * p + t] counts the
 * exposure epochs target t opened for origin o (MPI_Win_post); origin o's MPI_Win_start
 * waits until it has seen as many as it started towards t.
 *
 * Data: the memory of MPI_Win_allocate and MPI_Win_allocate_shared lies in the data part
 * of the segment (loads and stores on every rank); the memory of MPI_Win_create and of
 * dynamic windows stays the user's, and the origin reaches it by single copy
 * (process_vm_readv / process_vm_writev), checked at creation.  The origin's and the
 * target's datatypes are walked together (osc_rma.c): nothing packed, nothing allocated.
 * Every transfer is done before the call that starts it returns, so flushes need no more
 * than a memory fence and request-based calls return completed requests.
 *
 * Accumulates: every accumulate-family operation on a target (Accumulate,
 * Get_accumulate, Fetch_and_op, Compare_and_swap) runs under that target's accumulate
 * lock, whatever the flavor and datatype, so any mix of them is atomic per target.
 * Fetch_and_op and Compare_and_swap on segment memory with a 4- or 8-byte predefined
 * integer type also use __atomic operations inside the lock, so a rank that reads or
 * updates the same word of a shared window with atomics of its own sees whole values.
 *
 * Ownership: a window (compi_win_t) is the transport's part of an MPI window; the API
 * layer's object (core/mpi/win_state.h: handle, attributes, name, hints, error handler)
 * holds it.  osc_win_create makes it, osc_win_free unmaps the segment and frees it.  The
 * window holds its own communicator (an internal copy of the user's, one reference).
 * The user's memory (MPI_Win_create, attached regions) stays the user's.
 */
#ifndef COMPI_OSC_H
#define COMPI_OSC_H

#include "core/comm/comm.h"
#include "core/dt/dt.h"
#include "core/op/op.h"

#include <stddef.h>
#include <stdint.h>

#define OSC_LINE 64
#define OSC_LOCK_EXCL 0x80000000u

typedef struct osc_region {
    uint64_t base, size;
} osc_region_t;

/* one rank's part of the control segment */
typedef struct osc_rank {
    /* written once, at creation */
    int32_t pid;
    int32_t disp_unit;
    uint64_t size;
    uint64_t base;  /* create: the address in the owner; allocate flavors: offset in data */
    uint64_t probe; /* the owner's probe word, read by single copy to check that it works */
    char pad0[OSC_LINE - 32];
    uint32_t lock; /* passive target: OSC_LOCK_EXCL, or the number of shared holders */
    char pad1[OSC_LINE - 4];
    uint32_t acc; /* the accumulate lock: 0 free, 1 taken */
    char pad2[OSC_LINE - 4];
    uint64_t complete; /* PSCW: MPI_Win_complete calls of origins towards this rank */
    char pad3[OSC_LINE - 8];
    /* dynamic windows: the attached regions, under reg_lock: nreg of them, sorted by base,
       in the owner's memory at reg_addr (others read them by single copy) */
    uint32_t reg_lock;
    uint32_t nreg;
    uint64_t reg_addr;
    char pad4[OSC_LINE - 16];
} osc_rank_t;

_Static_assert(sizeof(osc_rank_t) % OSC_LINE == 0, "ranks' entries in lines of their own");

typedef struct osc_am osc_am_t;
typedef struct osc_module osc_module_t;

typedef struct compi_win {
    const osc_module_t *mod; /* the transport's operations (osc_seg_module, osc_am_module) */
    int flavor;         /* MPI_WIN_FLAVOR_* */
    int model;          /* MPI_WIN_UNIFIED */
    compi_comm_t *comm; /* the window's own communicator (one reference) */
    int rank, p;
    void *base; /* this rank's memory (NULL for dynamic windows) */
    size_t size;
    int disp_unit;
    int cma; /* the memory of other ranks is reached by single copy */
    int am;  /* the active-message transport (osc_am.c): no segment; ranks[] is this
                rank's copy of every rank's size and disp_unit, and its own registry */
    osc_am_t *amst; /* its state, NULL for a segment window */
    void *am_mem;   /* MPI_Win_allocate over active messages: this rank's memory */

    /* the segment */
    char *seg;
    size_t seg_len;
    osc_rank_t *ranks; /* [p] */
    uint64_t *post;    /* [p * p] */
    char *data;        /* the memory of the allocate flavors, or NULL */
    char *scratch;     /* accumulates to single-copy memory: a chunk of the target, kept */
    size_t scratch_len;
    osc_region_t *regs; /* dynamic windows: this rank's attached regions (ranks[rank]) */
    size_t regs_cap;

    /* post-start-complete-wait (the API checks the epochs, the transports use them) */
    uint64_t *started;        /* [p]: MPI_Win_start calls towards each target */
    int *access;              /* the targets of the access epoch (MPI_Win_start), or NULL */
    int naccess;
    int exposure_open; /* MPI_Win_post without its MPI_Win_wait yet */
    uint64_t expected; /* completes that MPI_Win_wait waits for, over all epochs */

} compi_win_t;

/* 1 when every member of intracommunicator comm lives on this host */
int osc_comm_local(const compi_comm_t *comm);

/*
 * A window over `comm` (taken over: the window holds that reference from now on, also
 * when creation fails), collective over it.  For MPI_WIN_FLAVOR_CREATE `base` is the
 * user's memory; the allocate flavors get theirs in the segment (w->base).
 * A flavor that needs single copy where it is not allowed, or any flavor but
 * MPI_WIN_FLAVOR_SHARED whose segment cannot be made, takes active messages (a warning
 * logged); COMPI_ERR_IO when MPI_Win_allocate_shared's segment cannot be made.  The
 * window's module (w->mod) is chosen here, once.
 */
compi_status_t osc_win_create(compi_comm_t *comm, int flavor, size_t size, int disp_unit,
                              void *base, compi_win_t **win_p);
/* the transport's state (its module's close), unmap, release the communicator, free
   (not collective: the API layer synchronises first) */
void osc_win_free(compi_win_t *w);

/* rank's (MPI_PROC_NULL: the first rank with memory this rank maps) size, disp_unit and
   address in this process: every rank's where the segment holds the memory of all
   (MPI_Win_allocate(_shared)), otherwise this rank's own only (the others: size 0,
   address NULL); a segment of size 0 has the address NULL */
void osc_shared_query(const compi_win_t *w, int rank, size_t *size, int *disp_unit, void **base);

/* which transport a window over comm uses: 1 for active messages (ranks on other hosts,
   or the parameter osc_transport=am), 0 for the shared segment.  MPI_Win_allocate_shared
   always takes the segment. */
int osc_use_am(const compi_comm_t *comm, int flavor);

/* ---- one access: what the API layer hands to the window's module ------------------- */

enum { OSC_PUT = 1, OSC_GET, OSC_ACC, OSC_GACC, OSC_FOP, OSC_CAS };

/*
 * One transfer to rank t: `tcount` elements of `tdt` at displacement `disp`.  The origin
 * (put, accumulates, fetch-and-op, compare-and-swap) is `ocount` elements of `odt` at
 * `origin`; odt NULL means packed bytes (a fetch-and-op with MPI_NO_OP and a
 * get-accumulate with it have origin NULL).  The result (get: the origin buffer;
 * get-accumulate, fetch-and-op, compare-and-swap) is `rcount` of `rdt` at `result`, rdt
 * NULL meaning packed.  Both sides carry tcount * tdt->size bytes (checked by the API).
 */
typedef struct osc_rma {
    int kind; /* OSC_* */
    int t;
    MPI_Aint disp;
    compi_datatype_t *tdt;
    size_t tcount;
    const compi_op_t *op; /* accumulates and fetch-and-op */
    const void *origin;
    compi_datatype_t *odt;
    size_t ocount;
    void *result;
    compi_datatype_t *rdt;
    size_t rcount;
    const void *compare; /* compare-and-swap: one element, laid out as odt */
} osc_rma_t;

struct compi_request;

/*
 * The operations a transport gives a window: a const table, one per transport, each in
 * a file of its own (osc_seg_module.c, osc_am_module.c), chosen once at creation.  The
 * table starts with its size, so that a caller can tell which operations a table has.
 *
 * rma: the access `a`.  With `req` NULL it returns when the origin's buffers may be
 * reused (the result is there); with a request (MPI_Rput ...) it may return once the
 * access is posted and completes `req` (pml_request_complete) when it is done.  On a
 * failure `req` is left as it was.  COMPI_ERR_NOT_FOUND: the access lies outside the
 * target's window (or, dynamic windows, outside the regions it attached).
 * flush: every access sent to t (t < 0: every target) done at the target; the first
 * failure among those that did not report one to their caller.
 * The synchronisation calls take this rank's ranks of the window; the API layer checks
 * their arguments and the epochs first.
 */
typedef struct osc_module {
    size_t size; /* sizeof(osc_module_t) */
    const char *name;
    compi_status_t (*rma)(compi_win_t *w, const osc_rma_t *a, struct compi_request *req);
    compi_status_t (*flush)(compi_win_t *w, int t);
    void (*lock)(compi_win_t *w, int t, int type);
    void (*unlock)(compi_win_t *w, int t, int type);
    void (*sync)(compi_win_t *w); /* MPI_Win_sync */
    void (*post)(compi_win_t *w, const int *origins, int n, int nocheck);
    void (*start)(compi_win_t *w, const int *targets, int n, int nocheck);
    void (*complete)(compi_win_t *w);
    void (*wait)(compi_win_t *w);
    int (*test)(compi_win_t *w);
    void (*close)(compi_win_t *w); /* the transport's state, at free */
} osc_module_t;

extern const osc_module_t osc_seg_module; /* the shared segment */
extern const osc_module_t osc_am_module;  /* active messages over the PML */

/* the thin calls the API layer makes: one indirect call each */
static inline compi_status_t osc_rma(compi_win_t *w, const osc_rma_t *a, struct compi_request *req)
{
    return w->mod->rma(w, a, req);
}
static inline compi_status_t osc_flush(compi_win_t *w, int t)
{
    return w->mod->flush(w, t);
}
static inline void osc_lock(compi_win_t *w, int t, int type)
{
    w->mod->lock(w, t, type);
}
static inline void osc_unlock(compi_win_t *w, int t, int type)
{
    w->mod->unlock(w, t, type);
}
static inline void osc_win_sync(compi_win_t *w)
{
    w->mod->sync(w);
}
static inline void osc_post(compi_win_t *w, const int *origins, int n, int nocheck)
{
    w->mod->post(w, origins, n, nocheck);
}
static inline void osc_start(compi_win_t *w, const int *targets, int n, int nocheck)
{
    w->mod->start(w, targets, n, nocheck);
}
static inline void osc_complete(compi_win_t *w)
{
    w->mod->complete(w);
}
static inline void osc_wait(compi_win_t *w)
{
    w->mod->wait(w);
}
static inline int osc_test(compi_win_t *w)
{
    return w->mod->test(w);
}

/* ---- what the two transports share (osc_win.c, osc_rma.c, osc_sync.c) ------------- */

/* where an access to rank t's memory goes */
typedef struct osc_target {
    char *local;     /* the address in this process (segment memory, or this rank's own) */
    uint64_t remote; /* otherwise: the address in the target process (single copy) */
    int pid;
    int t;
} osc_target_t;

/*
 * The target of `count` elements of `dt` at displacement `disp` of rank t.
 * COMPI_ERR_NOT_FOUND when they do not lie inside the target's window (or, on a dynamic
 * window, inside the regions the target attached: one, or several adjacent ones).
 */
compi_status_t osc_target(compi_win_t *w, int t, MPI_Aint disp, compi_datatype_t *dt, size_t count,
                          osc_target_t *tg);

/* the access `a` on tg, done before it returns (loads and stores, or single copy): the
   segment's transfers, and the target's side of active messages on its own memory */
compi_status_t osc_apply(compi_win_t *w, const osc_target_t *tg, const osc_rma_t *a);

/* dynamic windows: COMPI_ERR_NO_MEMORY when the registry cannot grow,
   COMPI_ERR_INVALID_PARAM when the region overlaps one attached, COMPI_ERR_NOT_FOUND
   (detach) when no region starts at base */
compi_status_t osc_attach(compi_win_t *w, void *base, size_t size);
compi_status_t osc_detach(compi_win_t *w, const void *base);

/* one round of a wait on another rank's word: a pause at first, then the PML's progress
   (point-to-point traffic moves, the processor is offered, and other threads get the
   API lock under MPI_THREAD_MULTIPLE) */
void osc_relax(unsigned *spins);

/* the active-message transport's state (osc_am.c): made at creation, freed by close */
compi_status_t osc_am_open(compi_win_t *w);

#endif
