/*
 * sched.c -- the schedule engine (see sched.h).
 *
 * Active schedules sit on one list; while it is not empty, pml_progress() calls
 * sched_progress() (a hook the PML knows only as a function pointer, so core/pml does
 * not include core/coll), which advances each of them as far as it goes without
 * waiting:
 *
 *   advance: round posted? -- all its requests complete? -- no --> come back later
 *                 | no                  | yes
 *                 v                     v
 *            post its sends      run its local steps, next round
 *            and receives        (none left, or an error: the schedule ends)
 *
 * Nothing here allocates once warm: a schedule that ends goes back to a pool with the
 * capacity of its step, round, scratch and request arrays, and coll_sched_new() takes
 * the most recently pooled one; scratch buffers go back to a cache of blocks by size (a
 * stack), and coll_sched_scratch() / coll_sched_alloc() take the smallest cached block
 * that fits, the last one put back among equals.  A
 * steady stream of the same collectives thus reuses the same schedule and buffers; the
 * PML's requests come from its own pool.  Both caches are bounded (SCHED_POOL_MAX
 * schedules, SCRATCH_CACHE_MAX blocks of at most SCRATCH_CACHE_BYTES in all); what does
 * not fit is freed.  No lock of its own: at MPI_THREAD_MULTIPLE every caller holds the
 * API layer's lock (core/mpi/thread_lock.h); a blocking run waits in
 * pml_progress_wait, which drops it between progress rounds, and holds nothing shared
 * across the wait but its schedule (on the caller's side: not on the active list).
 */
#include "core/coll/sched/sched.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* STEP_NOP: coll_sched_join's, or a zero-count reduce or copy that passes on its own
   dependencies */
enum { STEP_SEND, STEP_RECV, STEP_REDUCE, STEP_COPY, STEP_CHECK, STEP_WAIT, STEP_NOP };
/* a step's state in the running round */
enum { ST_IDLE, ST_STARTED, ST_DONE };

/* coll_sched_hold: the gate of a miss (trampolines/tramp_agree.c) and the algorithm's
   (a tree's host level, executors/tree_host.c: two shm phases) */
#define SCHED_HOLDS 3

/* send: sbuf, scount, sdt, peer; recv: rbuf, rcount, rdt, peer; reduce: rbuf = sbuf op
   b (b NULL: rbuf, inout = in op inout), scount, sdt; copy: all six; check, wait: fn,
   arg.  Dependencies (coll_sched_after): deps[dep .. dep + ndep) of the schedule, each
   the distance back to the step depended on (distances survive the move of a
   prologue's steps before the schedule's own) */
typedef struct sched_step {
    uint8_t type;
    uint8_t state; /* ST_*, while its round runs */
    uint8_t at_once; /* coll_sched_at_once: a local step that does not wait for transfers */
    uint8_t whole;   /* a receive this rank copies alone (coll_sched_recv_whole) */
    int peer;
    int tag; /* send, recv: 0 is the schedule's own tag */
    uint32_t dep, ndep;
    compi_request_t *req; /* a transfer's, while it is in flight */
    compi_comm_t *comm;   /* send, recv: NULL is the schedule's communicator */
    const void *sbuf;
    void *rbuf;
    size_t scount, rcount;
    compi_datatype_t *sdt, *rdt;
    const void *b; /* reduce: the right operand when it is not rbuf */
    coll_sched_check_fn_t fn;
    void *arg;
} sched_step_t;

/* a scratch block: size 0 marks memory adopted from a builder (freed, not cached) */
typedef struct sched_mem {
    void *p;
    size_t size;
} sched_mem_t;

struct coll_sched {
    struct coll_sched *next, *prev; /* the active list; next: the pool */
    compi_comm_t *comm;             /* borrowed: the request retains it */
    compi_op_t *op;                 /* retained, or NULL */
    coll_kind_t kind;               /* the call's: a blocking run's tag (coll_tag) */
    compi_request_t *req;
    int tag;
    compi_status_t st;

    sched_step_t *steps;
    size_t nsteps, cap;
    size_t *round_end; /* round r is steps [round_end[r - 1], round_end[r]) */
    size_t nrounds, rcap;
    sched_mem_t *mem; /* scratch, back to the cache (or freed) at the end */
    size_t nmem, memcap;

    uint32_t *deps; /* the steps' dependencies (sched_step_t) */
    size_t ndeps, depcap;
    size_t nafter; /* the last nafter of deps: for the next step added */
    int at_once;   /* coll_sched_at_once: for the next step added */

    size_t round; /* the round running now */
    int posted;   /* it has started */
    size_t lo;    /* its first step not done */
    size_t xfers; /* its transfers and waits not done (its default local steps wait) */
    int cancelled;
    int persistent; /* kept between runs in its request (req->owner) */
    int skip;       /* a check said: the next round is not run */

    size_t pro_rounds; /* rounds of a prologue (coll_sched_set_prologue) */
    int pro_done;      /* persistent: a run passed them, the next skip them */
    char *errtext;     /* a check's message, for the request at the end */
    int err_report;
    void (*hold_release[SCHED_HOLDS])(void *); /* coll_sched_hold */
    void *hold_arg[SCHED_HOLDS];
};

static coll_sched_t *active_head;
static int nactive;
static int in_progress; /* the hook is running: no re-entry from a nested progress call */

/* ---- the pools: ended schedules and scratch blocks ---------------------------------- */

#define SCHED_POOL_MAX 32
#define SCRATCH_CACHE_MAX 64
#define SCRATCH_CACHE_BYTES ((size_t)64 << 20)

static coll_sched_t *pool; /* linked through next */
static int npool;
static sched_mem_t scratch_cache[SCRATCH_CACHE_MAX];
static int nscratch;
static size_t scratch_bytes;

/*
 * The smallest cached block of at least `bytes`, or a new one (size in *size_p).  The
 * cache is a stack: of blocks of the same size the one put back last is taken, and a
 * schedule puts its blocks back in the reverse order of taking them, so a call repeated
 * gets the very blocks the previous one used, still in the core's cache (a 1 MiB
 * reduce-scatter at 2 ranks lost a third of its speed when its buffer alternated between
 * two blocks: the working set no longer fitted in L2).
 */
static void *scratch_get(size_t bytes, size_t *size_p)
{
    int best = -1;
    for (int i = nscratch - 1; i >= 0; i--) {
        if (scratch_cache[i].size >= bytes &&
            (best < 0 || scratch_cache[i].size < scratch_cache[best].size)) {
            best = i;
        }
    }
    if (best >= 0) {
        void *p = scratch_cache[best].p;
        *size_p = scratch_cache[best].size;
        scratch_bytes -= *size_p;
        nscratch--;
        memmove(&scratch_cache[best], &scratch_cache[best + 1],
                (size_t)(nscratch - best) * sizeof(scratch_cache[0]));
        return p;
    }
    *size_p = bytes;
    return malloc(bytes);
}

static void scratch_put(void *p, size_t size)
{
    if (size == 0 || nscratch == SCRATCH_CACHE_MAX || scratch_bytes + size > SCRATCH_CACHE_BYTES) {
        free(p);
        return;
    }
    scratch_cache[nscratch++] = (sched_mem_t){.p = p, .size = size};
    scratch_bytes += size;
}

/* ---- building -------------------------------------------------------------------- */

coll_sched_t *coll_sched_new(const coll_call_t *call)
{
    coll_sched_t *s = pool;
    if (s != NULL) {
        pool = s->next;
        npool--;
        /* keep the arrays and their capacity, clear the rest */
        sched_step_t *steps = s->steps;
        size_t *round_end = s->round_end;
        sched_mem_t *mem = s->mem;
        uint32_t *deps = s->deps;
        size_t cap = s->cap, rcap = s->rcap, memcap = s->memcap, depcap = s->depcap;
        *s = (coll_sched_t){.steps = steps,
                            .cap = cap,
                            .round_end = round_end,
                            .rcap = rcap,
                            .mem = mem,
                            .memcap = memcap,
                            .deps = deps,
                            .depcap = depcap};
    } else if ((s = calloc(1, sizeof(*s))) == NULL) {
        return NULL;
    }
    s->comm = call->comm;
    s->kind = call->kind;
    s->persistent = call->mode == COLL_MODE_PERSISTENT;
    if (call->op != NULL) {
        op_retain(call->op);
        s->op = call->op;
    }
    return s;
}

void coll_sched_free(coll_sched_t *s)
{
    if (s == NULL) {
        return;
    }
    /* the holds first: what they release may live in the schedule's scratch */
    for (int i = 0; i < SCHED_HOLDS; i++) {
        if (s->hold_release[i] != NULL) {
            s->hold_release[i](s->hold_arg[i]);
        }
        s->hold_release[i] = NULL;
    }
    for (size_t i = 0; i < s->nsteps; i++) {
        if (s->steps[i].sdt != NULL) {
            dt_release(s->steps[i].sdt);
        }
        if (s->steps[i].rdt != NULL) {
            dt_release(s->steps[i].rdt);
        }
    }
    for (size_t i = s->nmem; i-- > 0;) { /* the reverse of taking them: see scratch_get */
        scratch_put(s->mem[i].p, s->mem[i].size);
    }
    if (s->op != NULL) {
        op_release(s->op);
    }
    free(s->errtext);
    s->nsteps = s->nmem = s->ndeps = s->nafter = 0;
    s->op = NULL;
    s->errtext = NULL;
    if (npool < SCHED_POOL_MAX) {
        s->next = pool;
        pool = s;
        npool++;
        return;
    }
    free(s->steps);
    free(s->round_end);
    free(s->mem);
    free(s->deps);
    free(s);
}

void coll_sched_fail(coll_sched_t *s, compi_status_t st)
{
    if (s->st == COMPI_OK) {
        s->st = st;
    }
}

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) {
        return 0;
    }
    size_t n = *cap ? 2 * *cap : 16;
    while (n < need) {
        n *= 2;
    }
    void *p = realloc(*arr, n * elem);
    if (p == NULL) {
        return -1;
    }
    *arr = p;
    *cap = n;
    return 0;
}

/* the step added, with the dependencies pending (coll_sched_after); its id, or -1 */
static int add(coll_sched_t *s, int type, int peer, int tag, const void *sbuf, size_t scount,
               compi_datatype_t *sdt, void *rbuf, size_t rcount, compi_datatype_t *rdt)
{
    if (s->st != COMPI_OK) {
        return -1;
    }
    if (grow((void **)&s->steps, &s->cap, s->nsteps + 1, sizeof(*s->steps)) != 0 ||
        s->nsteps >= INT32_MAX) {
        coll_sched_fail(s, COMPI_ERR_NO_MEMORY);
        return -1;
    }
    if (sdt != NULL) {
        dt_retain(sdt);
    }
    if (rdt != NULL) {
        dt_retain(rdt);
    }
    s->steps[s->nsteps] = (sched_step_t){.type = (uint8_t)type,
                                         .peer = peer,
                                         .tag = tag,
                                         .dep = (uint32_t)(s->ndeps - s->nafter),
                                         .ndep = (uint32_t)s->nafter,
                                         .sbuf = sbuf,
                                         .rbuf = rbuf,
                                         .scount = scount,
                                         .rcount = rcount,
                                         .sdt = sdt,
                                         .rdt = rdt,
                                         .at_once = (uint8_t)s->at_once};
    s->nafter = 0;
    s->at_once = 0;
    return (int)s->nsteps++;
}

void coll_sched_after(coll_sched_t *s, int id)
{
    if (id < 0 || s->st != COMPI_OK) {
        return;
    }
    if ((size_t)id >= s->nsteps) {
        coll_sched_fail(s, COMPI_ERR_INTERNAL); /* not an earlier step: a builder's bug */
        return;
    }
    if (grow((void **)&s->deps, &s->depcap, s->ndeps + 1, sizeof(*s->deps)) != 0) {
        coll_sched_fail(s, COMPI_ERR_NO_MEMORY);
        return;
    }
    s->deps[s->ndeps++] = (uint32_t)(s->nsteps - (size_t)id);
    s->nafter++;
}

void coll_sched_at_once(coll_sched_t *s)
{
    s->at_once = 1;
}

int coll_sched_join(coll_sched_t *s)
{
    return add(s, STEP_NOP, -1, 0, NULL, 0, NULL, NULL, 0, NULL);
}

/* a reduce or copy with nothing to do: no step, unless later steps may depend on it
   through its own dependencies */
static int nothing(coll_sched_t *s)
{
    return s->nafter > 0 ? coll_sched_join(s) : -1;
}

int coll_sched_send(coll_sched_t *s, const void *buf, size_t count, compi_datatype_t *dt, int peer)
{
    return add(s, STEP_SEND, peer, 0, buf, count, dt, NULL, 0, NULL);
}

int coll_sched_send_tag(coll_sched_t *s, const void *buf, size_t count, compi_datatype_t *dt,
                        int peer, int tag)
{
    return add(s, STEP_SEND, peer, tag, buf, count, dt, NULL, 0, NULL);
}

int coll_sched_recv(coll_sched_t *s, void *buf, size_t count, compi_datatype_t *dt, int peer)
{
    return add(s, STEP_RECV, peer, 0, NULL, 0, NULL, buf, count, dt);
}

int coll_sched_recv_whole(coll_sched_t *s, void *buf, size_t count, compi_datatype_t *dt, int peer)
{
    int id = add(s, STEP_RECV, peer, 0, NULL, 0, NULL, buf, count, dt);
    if (id >= 0) {
        s->steps[id].whole = 1;
    }
    return id;
}

int coll_sched_recv_tag(coll_sched_t *s, void *buf, size_t count, compi_datatype_t *dt, int peer,
                        int tag)
{
    return add(s, STEP_RECV, peer, tag, NULL, 0, NULL, buf, count, dt);
}

/* step id goes to or comes from another communicator than the schedule's */
static int on_comm(coll_sched_t *s, int id, compi_comm_t *comm)
{
    if (id >= 0) {
        s->steps[id].comm = comm;
    }
    return id;
}

int coll_sched_send_on(coll_sched_t *s, compi_comm_t *comm, const void *buf, size_t count,
                       compi_datatype_t *dt, int peer)
{
    return on_comm(s, add(s, STEP_SEND, peer, 0, buf, count, dt, NULL, 0, NULL), comm);
}

int coll_sched_recv_on(coll_sched_t *s, compi_comm_t *comm, void *buf, size_t count,
                       compi_datatype_t *dt, int peer)
{
    return on_comm(s, add(s, STEP_RECV, peer, 0, NULL, 0, NULL, buf, count, dt), comm);
}

int coll_sched_reduce(coll_sched_t *s, const void *in, void *inout, size_t count,
                      compi_datatype_t *dt)
{
    if (s->op == NULL) {
        coll_sched_fail(s, COMPI_ERR_INTERNAL);
        return -1;
    }
    return count > 0 ? add(s, STEP_REDUCE, -1, 0, in, count, dt, inout, 0, NULL) : nothing(s);
}

int coll_sched_reduce3(coll_sched_t *s, const void *a, const void *b, void *out, size_t count,
                       compi_datatype_t *dt)
{
    int id = coll_sched_reduce(s, a, out, count, dt);
    if (id >= 0 && s->steps[id].type == STEP_REDUCE && b != out) {
        s->steps[id].b = b;
    }
    return id;
}

int coll_sched_copy(coll_sched_t *s, const void *sbuf, size_t scount, compi_datatype_t *sdt,
                    void *rbuf, size_t rcount, compi_datatype_t *rdt)
{
    if (scount * sdt->size > 0 || rcount * rdt->size > 0) {
        return add(s, STEP_COPY, -1, 0, sbuf, scount, sdt, rbuf, rcount, rdt);
    }
    return nothing(s);
}

static int add_fn(coll_sched_t *s, int type, coll_sched_check_fn_t fn, void *arg)
{
    int id = add(s, type, -1, 0, NULL, 0, NULL, NULL, 0, NULL);
    if (id >= 0) {
        s->steps[id].fn = fn;
        s->steps[id].arg = arg;
    }
    return id;
}

int coll_sched_check(coll_sched_t *s, coll_sched_check_fn_t fn, void *arg)
{
    return add_fn(s, STEP_CHECK, fn, arg);
}

int coll_sched_wait(coll_sched_t *s, coll_sched_check_fn_t fn, void *arg)
{
    return add_fn(s, STEP_WAIT, fn, arg);
}

void coll_sched_hold(coll_sched_t *s, void (*release)(void *arg), void *arg)
{
    for (int i = 0; i < SCHED_HOLDS; i++) {
        if (s->hold_release[i] == NULL) {
            s->hold_release[i] = release;
            s->hold_arg[i] = arg;
            return;
        }
    }
    release(arg); /* more holders than slots: a builder's bug, caught where it is made */
    coll_sched_fail(s, COMPI_ERR_INTERNAL);
}

void coll_sched_round(coll_sched_t *s)
{
    size_t last = s->nrounds > 0 ? s->round_end[s->nrounds - 1] : 0;
    if (s->st != COMPI_OK || s->nsteps == last) {
        return;
    }
    if (grow((void **)&s->round_end, &s->rcap, s->nrounds + 1, sizeof(*s->round_end)) != 0) {
        coll_sched_fail(s, COMPI_ERR_NO_MEMORY);
        return;
    }
    s->round_end[s->nrounds++] = s->nsteps;
}

static void keep_mem(coll_sched_t *s, void *p, size_t size)
{
    if (grow((void **)&s->mem, &s->memcap, s->nmem + 1, sizeof(*s->mem)) != 0) {
        free(p);
        coll_sched_fail(s, COMPI_ERR_NO_MEMORY);
        return;
    }
    s->mem[s->nmem++] = (sched_mem_t){.p = p, .size = size};
}

void coll_sched_adopt(coll_sched_t *s, void *mem)
{
    if (mem != NULL) {
        keep_mem(s, mem, 0);
    }
}

void *coll_sched_alloc(coll_sched_t *s, size_t bytes)
{
    size_t size;
    if (s->st != COMPI_OK) {
        return NULL;
    }
    void *p = scratch_get(bytes > 0 ? bytes : 1, &size);
    if (p == NULL) {
        coll_sched_fail(s, COMPI_ERR_NO_MEMORY);
        return NULL;
    }
    keep_mem(s, p, size);
    return s->st == COMPI_OK ? p : NULL;
}

void *coll_sched_scratch(coll_sched_t *s, compi_datatype_t *dt, size_t count)
{
    /* the layout of coll_tmp_alloc: true_extent + (count - 1) * extent bytes, the buffer
       pointer true_lb bytes before them */
    size_t span = count == 0 ? 1 : (size_t)dt->true_extent + (count - 1) * (size_t)dt->extent;
    char *mem = coll_sched_alloc(s, span);
    return mem != NULL ? mem - dt->true_lb : NULL;
}

/* ---- running ------------------------------------------------------------------------ */

static int sched_progress(void);

static size_t round_begin(const coll_sched_t *s, size_t r)
{
    return r == 0 ? 0 : s->round_end[r - 1];
}

static void fail_text(coll_sched_t *s, compi_status_t st, char *text, int report)
{
    if (s->st == COMPI_OK && s->errtext == NULL) {
        s->errtext = text;
        s->err_report = report;
    } else {
        free(text);
    }
    coll_sched_fail(s, st);
}

/* a check or wait step's function: 1 while a wait says COMPI_INPROGRESS */
static int run_check(coll_sched_t *s, coll_sched_check_fn_t fn, void *arg)
{
    coll_sched_note_t note = {.text = NULL, .report = 1, .skip = 0};
    compi_status_t st = fn(arg, &note);
    if (st == COMPI_INPROGRESS) {
        return 1;
    }
    if (st != COMPI_OK) {
        fail_text(s, st, note.text, note.report);
    } else {
        free(note.text);
        s->skip |= note.skip;
    }
    return 0;
}

static int is_xfer(int type)
{
    return type == STEP_SEND || type == STEP_RECV || type == STEP_WAIT;
}

/* the round starts: its steps idle, its transfers counted */
static void begin_round(coll_sched_t *s)
{
    size_t b = round_begin(s, s->round), e = s->round_end[s->round];
    s->xfers = 0;
    for (size_t i = b; i < e; i++) {
        s->steps[i].state = ST_IDLE;
        s->steps[i].req = NULL;
        s->xfers += is_xfer(s->steps[i].type);
    }
    s->lo = b;
    s->posted = 1;
}

/* step i may start: every step it depends on in its round is done; one without
   dependencies: a transfer at once, a local step after the round's transfers and its
   earlier local steps (`locals`: one of them is not done) */
static int ready(const coll_sched_t *s, size_t i, size_t b, int locals)
{
    const sched_step_t *t = &s->steps[i];
    if (t->ndep == 0) {
        return is_xfer(t->type) || t->at_once || (s->xfers == 0 && !locals);
    }
    for (uint32_t k = 0; k < t->ndep; k++) {
        size_t j = i - s->deps[t->dep + k];
        if (j >= b && s->steps[j].state != ST_DONE) {
            return 0;
        }
    }
    return 1;
}

/* start step i: a transfer is posted (ST_STARTED), a local step runs (ST_DONE) */
static void start_step(coll_sched_t *s, size_t i)
{
    sched_step_t *t = &s->steps[i];
    compi_status_t st = COMPI_OK;
    int tag = t->tag ? t->tag : s->tag;
    compi_comm_t *comm = t->comm ? t->comm : s->comm;

    t->state = ST_STARTED;
    switch (t->type) {
    case STEP_SEND:
        st = pml_isend(t->sbuf, t->scount, t->sdt, t->peer, tag, comm, PML_SEND_STANDARD, &t->req);
        break;
    case STEP_RECV:
        st = t->whole ? pml_irecv_whole(t->rbuf, t->rcount, t->rdt, t->peer, tag, comm, &t->req)
                      : pml_irecv(t->rbuf, t->rcount, t->rdt, t->peer, tag, comm, &t->req);
        break;
    case STEP_WAIT:
        return;
    case STEP_REDUCE: {
        const void *b = t->b != NULL ? t->b : t->rbuf;
        st = coll_op_apply3(s->op, t->sdt, t->sbuf, b, t->rbuf, t->scount);
        break;
    }
    case STEP_COPY:
        st = coll_copy(t->sbuf, t->scount, t->sdt, t->rbuf, t->rcount, t->rdt);
        break;
    case STEP_CHECK:
        /* may add steps (s->steps may move) */
        run_check(s, t->fn, t->arg);
        s->steps[i].state = ST_DONE;
        return;
    default: /* STEP_NOP */
        break;
    }
    coll_sched_fail(s, st);
    if (t->req == NULL) {
        t->state = ST_DONE; /* local, or a transfer that needed no request */
        s->xfers -= is_xfer(t->type);
    }
}

/* a started transfer or wait: 1 once it is done (its request freed) */
static int test_step(coll_sched_t *s, sched_step_t *t)
{
    if (t->type == STEP_WAIT) {
        if (s->st == COMPI_OK && run_check(s, t->fn, t->arg)) {
            return 0;
        }
    } else {
        compi_request_t *r = t->req;
        if (!__atomic_load_n(&r->complete, __ATOMIC_ACQUIRE)) {
            return 0;
        }
        /* a receive cancelled after an error reports COMPI_OK: the error is kept */
        coll_sched_fail(s, r->result.error);
        pml_request_free(r);
        t->req = NULL;
    }
    t->state = ST_DONE;
    s->xfers--;
    return 1;
}

/* one pass over the running round, in the order of its steps (dependencies point back,
   so a step whose last dependency completes in a pass starts in the same pass); after
   an error nothing starts and receives nobody will match are cancelled.  1 when the
   round is complete; *moved counts the steps started and completed; *again: another
   pass would start more */
static int round_pass(coll_sched_t *s, int *moved, int *again)
{
    size_t b = round_begin(s, s->round), e = s->round_end[s->round];
    int locals = 0, pending = 0, waiting = 0;

    for (size_t i = s->lo; i < e; i++) {
        sched_step_t *t = &s->steps[i];
        if (t->state == ST_IDLE) {
            if (s->st != COMPI_OK || !ready(s, i, b, locals)) {
                locals |= !is_xfer(t->type);
                waiting |= t->ndep == 0 && !is_xfer(t->type);
                pending |= s->st == COMPI_OK;
                continue;
            }
            start_step(s, i);
            t = &s->steps[i];
            ++*moved;
        }
        if (t->state == ST_STARTED && test_step(s, t)) {
            ++*moved;
        }
        if (t->state != ST_DONE) {
            locals |= !is_xfer(t->type);
            pending = 1;
        } else if (i == s->lo) {
            s->lo++;
        }
    }
    if (pending && s->st != COMPI_OK && !s->cancelled) {
        s->cancelled = 1;
        for (size_t i = s->lo; i < e; i++) {
            if (s->steps[i].req != NULL && s->steps[i].type == STEP_RECV) {
                pml_cancel(s->steps[i].req);
            }
        }
    }
    /* dependencies point back, so one pass starts all that is ready, except local steps
       without dependencies that a later transfer of the pass released */
    *again = waiting && s->xfers == 0 && s->st == COMPI_OK;
    return !pending;
}

/* as far as it goes without waiting; 1 when the schedule has ended */
static int advance(coll_sched_t *s, int *moved)
{
    for (;;) {
        if (s->posted) {
            int done, again;
            do {
                done = round_pass(s, moved, &again);
            } while (!done && again);
            if (!done) {
                return 0;
            }
            s->posted = 0;
            s->round += s->skip ? 2 : 1;
            s->skip = 0;
            ++*moved;
            if (s->pro_rounds > 0 && s->round >= s->pro_rounds && s->st == COMPI_OK) {
                s->pro_done = 1;
            }
        }
        if (s->st != COMPI_OK || s->round >= s->nrounds) {
            return 1;
        }
        begin_round(s);
    }
}

static void link_active(coll_sched_t *s)
{
    s->prev = NULL;
    s->next = active_head;
    if (active_head != NULL) {
        active_head->prev = s;
    }
    active_head = s;
    if (nactive++ == 0) {
        pml_set_progress_hook(PML_HOOK_SCHED, sched_progress);
    }
}

static void unlink_active(coll_sched_t *s)
{
    if (s->prev != NULL) {
        s->prev->next = s->next;
    } else {
        active_head = s->next;
    }
    if (s->next != NULL) {
        s->next->prev = s->prev;
    }
    if (--nactive == 0) {
        pml_set_progress_hook(PML_HOOK_SCHED, NULL);
    }
}

/* the schedule is over: free it (a persistent one only when its request was freed while
   it ran), then complete its request (which may release it) with the schedule's status
   (the API layer makes an MPI error class of it) */
static void end(coll_sched_t *s)
{
    compi_request_t *req = s->req;
    req->result.error = s->st;
    if (compi_unlikely(s->errtext != NULL)) {
        free(req->errtext);
        req->errtext = s->errtext;
        req->err_report = s->err_report;
        s->errtext = NULL;
    }
    unlink_active(s);
    if (!s->persistent || req->user_freed) {
        req->owner = NULL;
        coll_sched_free(s);
    }
    pml_request_complete(req);
}

static int sched_progress(void)
{
    int moved = 0;
    if (in_progress) {
        return 0;
    }
    in_progress = 1;
    for (coll_sched_t *s = active_head, *next; s != NULL; s = next) {
        next = s->next;
        if (advance(s, &moved)) {
            end(s);
        }
    }
    in_progress = 0;
    return moved;
}

/* the next tag of the communicator's nonblocking schedules: every rank numbers them on a
   communicator alike (MPI orders collectives), so this tag is the same on every rank and
   no other outstanding collective uses it */
static int next_tag(coll_sched_t *s)
{
    return COMPI_TAG_NBC_BASE - (int)(s->comm->nbc_seq++ % COLL_SCHED_TAGS);
}

/* a persistent schedule's tag, taken once at its init: the inits are collective and
   ordered, the starts are not (MPI-4 6.13: ranks may start persistent collectives in
   different orders), so every start of one request uses the tag its init numbered.  Two
   starts of one request never overlap on a rank, and the PML keeps one peer's messages
   on one tag in order, so the runs of a request cannot match each other either. */
static int persist_tag(coll_sched_t *s)
{
    return COMPI_TAG_PERSIST_BASE - (int)(s->comm->persist_seq++ % COLL_SCHED_TAGS);
}

/* MPI_Start of a persistent schedule (pml_start's hook): rerun it from its first round,
   with the steps, scratch, request arrays and tag it was built with */
static void sched_restart(compi_request_t *req)
{
    coll_sched_t *s = req->owner;
    s->st = COMPI_OK;
    s->round = s->pro_done ? s->pro_rounds : 0;
    s->skip = 0;
    free(req->errtext);
    req->errtext = NULL;
    req->errclass = 0;
    s->posted = 0;
    s->cancelled = 0;
    pml_result_empty(&req->result);
    req->complete = 0;
    link_active(s);
    int moved = 0;
    if (advance(s, &moved)) {
        end(s);
    }
}

/* MPI_Request_free of an inactive (or complete) persistent schedule */
static void sched_release(compi_request_t *req)
{
    coll_sched_free(req->owner);
    req->owner = NULL;
}

/* ---- prologues ------------------------------------------------------------------------ */

static __thread struct {
    void (*build)(coll_sched_t *s, void *arg);
    void *arg;
} prologue;

void coll_sched_set_prologue(void (*build)(coll_sched_t *s, void *arg), void *arg)
{
    prologue.build = build;
    prologue.arg = arg;
}

int coll_sched_prologue_pending(void)
{
    return prologue.build != NULL;
}

static void reverse_steps(sched_step_t *a, size_t n)
{
    for (size_t i = 0; i < n / 2; i++) {
        sched_step_t t = a[i];
        a[i] = a[n - 1 - i];
        a[n - 1 - i] = t;
    }
}

static void reverse_ends(size_t *a, size_t n)
{
    for (size_t i = 0; i < n / 2; i++) {
        size_t t = a[i];
        a[i] = a[n - 1 - i];
        a[n - 1 - i] = t;
    }
}

/* the pending prologue's steps and rounds, added after the schedule's own, move before
   them (two rotations in place: nothing allocated) */
static void take_prologue(coll_sched_t *s)
{
    void (*build)(coll_sched_t *, void *) = prologue.build;
    size_t n0 = s->nsteps, r0 = s->nrounds;
    prologue.build = NULL;
    build(s, prologue.arg);
    coll_sched_round(s);
    if (s->st != COMPI_OK) {
        return;
    }
    size_t n = s->nsteps, r = s->nrounds;
    reverse_steps(s->steps, n0);
    reverse_steps(s->steps + n0, n - n0);
    reverse_steps(s->steps, n);
    reverse_ends(s->round_end, r0);
    reverse_ends(s->round_end + r0, r - r0);
    reverse_ends(s->round_end, r);
    for (size_t i = 0; i < r; i++) {
        s->round_end[i] = i < r - r0 ? s->round_end[i] - n0 : s->round_end[i] + (n - n0);
    }
    s->pro_rounds = r - r0;
}

/* the schedule as built, its last round closed and a pending prologue put first;
   COMPI_OK, or the error with which it is freed */
static compi_status_t prepare(coll_sched_t *s)
{
    /* dependencies added after the last step name no step: dropped */
    s->ndeps -= s->nafter;
    s->nafter = 0;
    s->at_once = 0;
    coll_sched_round(s);
    if (compi_unlikely(prologue.build != NULL) && s->st == COMPI_OK) {
        take_prologue(s);
    }
    compi_status_t st = s->st;
    if (st != COMPI_OK) {
        coll_sched_free(s);
    }
    return st;
}

compi_status_t coll_sched_start(coll_sched_t *s, compi_request_t **req_p)
{
    *req_p = NULL;
    compi_status_t st = prepare(s);
    if (st != COMPI_OK) {
        return st;
    }
    if ((s->req = pml_request_new(REQ_COLL, s->comm)) == NULL) {
        coll_sched_free(s);
        return COMPI_ERR_NO_MEMORY;
    }
    *req_p = s->req;
    if (s->persistent) {
        /* inactive until MPI_Start; the PML hands starts and frees of it back here */
        pml_set_coll_hooks(sched_restart, sched_release);
        s->req->persistent = 1;
        s->req->owner = s;
        s->tag = persist_tag(s);
        return COMPI_OK;
    }
    s->tag = next_tag(s);
    link_active(s);
    int moved = 0;
    if (advance(s, &moved)) {
        end(s);
    }
    return COMPI_OK;
}

/* Blocking: no request and not on the active list -- this call advances the schedule
   itself between the PML's progress rounds (pml_progress_wait, which also gives other
   threads their turn and advances the other schedules through the hook).  A check's
   message has no request to go to: it is dropped, as with a request freed unread.  Its
   tag is the kind's blocking one (coll_tag), as MPI orders blocking collectives: the
   communicator's count of nonblocking schedules is left alone, so ranks whose blocking
   calls run different kinds of closures still number their nonblocking ones alike, and
   an intercommunicator's watch over a failed Scheme run (trampolines/tramp_agree.c)
   finds the blocking tags it cancels. */
static compi_status_t run_blocking(coll_sched_t *s)
{
    s->tag = coll_tag(s->kind);
    int moved = 0;
    while (!advance(s, &moved)) {
        pml_progress_wait();
    }
    return s->st;
}

compi_status_t coll_sched_run(coll_sched_t *s)
{
    compi_status_t st = prepare(s);
    if (st != COMPI_OK) {
        return st;
    }
    st = run_blocking(s);
    coll_sched_free(s);
    return st;
}

/* the scratch a kept schedule may hold: larger calls spend far more time moving data
   than building their schedule */
#define SCHED_KEEP_BYTES ((size_t)64 << 10)

/* runs s like coll_sched_run; 1 (s kept, not freed) when a rerun would be this run
   again: no prologue, no steps added while running, no memory the scratch cache would
   not take back, little scratch */
static int run_keep(coll_sched_t *s, compi_status_t *st_p)
{
    compi_status_t st = prepare(s);
    *st_p = st;
    if (st != COMPI_OK) {
        return 0;
    }
    size_t nsteps = s->nsteps, bytes = 0;
    for (size_t i = 0; i < s->nmem; i++) {
        bytes += s->mem[i].size > 0 ? s->mem[i].size : SIZE_MAX / 2;
    }
    *st_p = st = run_blocking(s);
    if (st == COMPI_OK && s->pro_rounds == 0 && s->nsteps == nsteps && bytes <= SCHED_KEEP_BYTES) {
        return 1;
    }
    coll_sched_free(s);
    return 0;
}

static compi_status_t rerun(coll_sched_t *s)
{
    s->st = COMPI_OK;
    s->round = 0;
    s->skip = 0;
    s->posted = 0;
    s->cancelled = 0;
    return run_blocking(s);
}

/* no arrays of counts, displacements or types (their contents could change under the
   same pointers), no file access */
static int keepable(const coll_call_t *c)
{
    return c->scounts.p == NULL && c->sdispls.p == NULL && c->rcounts.p == NULL &&
           c->rdispls.p == NULL && c->sdts == NULL && c->rdts == NULL && c->io == NULL;
}

/* every argument a schedule is built from, as the kept call's (sched.h) */
static int same_call(const coll_sched_keep_t *k, const coll_call_t *c)
{
    const coll_call_t *o = &k->call;
    return o->comm == c->comm && o->sbuf == c->sbuf && o->rbuf == c->rbuf &&
           o->scount == c->scount && o->rcount == c->rcount && o->sdt == c->sdt &&
           o->rdt == c->rdt && o->op == c->op && o->root == c->root &&
           o->in_place == c->in_place && o->kind == c->kind && k->ctx == c->comm->ctx &&
           k->size == c->comm->size && k->rank == c->comm->rank && keepable(c);
}

compi_status_t coll_sched_start_built(const coll_call_t *call, coll_sched_build_fn_t build,
                                      void *arg, compi_request_t **req_p)
{
    coll_sched_t *s = coll_sched_new(call);
    if (s == NULL) {
        *req_p = NULL;
        return COMPI_ERR_NO_MEMORY;
    }
    build(call, arg, s);
    return coll_sched_start(s, req_p);
}

void coll_sched_keep_drop(coll_sched_keep_t *k)
{
    if (k->s == NULL) {
        return;
    }
    coll_sched_free(k->s);
    k->s = NULL;
    if (k->call.sdt != NULL) {
        dt_release(k->call.sdt);
    }
    if (k->call.rdt != NULL) {
        dt_release(k->call.rdt);
    }
    if (k->call.op != NULL) {
        op_release(k->call.op);
    }
}

compi_status_t coll_sched_run_kept(coll_sched_keep_t *k, const coll_call_t *call,
                                   coll_sched_build_fn_t build, void *arg)
{
    compi_status_t st;
    if (k->s != NULL && !k->busy && same_call(k, call)) {
        k->busy = 1;
        st = rerun(k->s);
        k->busy = 0;
        if (st != COMPI_OK) {
            coll_sched_keep_drop(k);
        }
        return st;
    }
    coll_sched_t *s = coll_sched_new(call);
    if (s == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    build(call, arg, s);
    if (k->busy || !keepable(call)) {
        return coll_sched_run(s);
    }
    k->busy = 1;
    int kept = run_keep(s, &st);
    k->busy = 0;
    if (kept) {
        coll_sched_keep_drop(k);
        k->s = s;
        k->call = *call;
        k->ctx = call->comm->ctx;
        k->size = call->comm->size;
        k->rank = call->comm->rank;
        if (call->sdt != NULL) {
            dt_retain(call->sdt);
        }
        if (call->rdt != NULL) {
            dt_retain(call->rdt);
        }
        if (call->op != NULL) {
            op_retain(call->op);
        }
    }
    return st;
}

int coll_sched_active(void)
{
    return nactive;
}
