/*
 * wrap.c -- the profiling and tracing wrappers (see wrap.h).
 *
 * The profile is a table of rows (kind, size class, closure name) -> calls, bytes,
 * seconds.  A profiling closure finds its row for a call's size class through a small
 * per-closure array, so the bookkeeping on each call is two clock reads and three adds.
 */
#include "core/coll/wrappers/wrap.h"

#include "core/coll/wrappers/summary.h"
#include "core/runtime/log.h"
#include "core/runtime/params.h"
#include "core/runtime/rte.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* size classes: 0 B, then powers of 8 up to >= 2 MiB */
#define WRAP_NCLASSES 9
static const size_t class_limit[WRAP_NCLASSES - 1] = {0, 8, 64, 512, 4096, 32768, 262144,
                                                      2097152};
static const char *const class_name[WRAP_NCLASSES] = {
    "0 B", "1-8 B", "9-64 B", "65-512 B", "513 B-4 KiB", "4-32 KiB", "32-256 KiB",
    "256 KiB-2 MiB", "> 2 MiB"};

static int size_class(size_t bytes)
{
    int c = 0;
    while (c < WRAP_NCLASSES - 1 && bytes > class_limit[c]) {
        c++;
    }
    return c;
}

typedef struct prof_row {
    struct prof_row *next;
    coll_kind_t kind;
    int nonblocking; /* the row counts starts, and the time to start */
    int cls;
    unsigned long long calls;
    unsigned long long bytes;
    double seconds;
    char closure[sizeof(((coll_closure_t *)0)->name)];
} prof_row_t;

static prof_row_t *rows; /* every row of every profiling closure, for the report */

typedef struct prof_state {
    coll_closure_t *inner;
    prof_row_t *row[COLL_NMODES][WRAP_NCLASSES]; /* created on first use */
} prof_state_t;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static prof_row_t *row_for(prof_state_t *s, coll_kind_t kind, int nb, int cls)
{
    prof_row_t *r;
    /* closures with the same name (same algorithm, other keys) share a row */
    for (r = rows; r != NULL; r = r->next) {
        if (r->kind == kind && r->nonblocking == nb && r->cls == cls &&
            strcmp(r->closure, s->inner->name) == 0) {
            return r;
        }
    }
    r = calloc(1, sizeof(*r));
    if (r == NULL) {
        return NULL;
    }
    r->kind = kind;
    r->nonblocking = nb;
    r->cls = cls;
    snprintf(r->closure, sizeof(r->closure), "%s", s->inner->name);
    r->next = rows;
    rows = r;
    return r;
}

static void prof_count(prof_state_t *s, const coll_call_t *call, int nb, double dt)
{
    int cls = size_class(call->bytes);
    if (compi_unlikely(s->row[nb][cls] == NULL)) {
        s->row[nb][cls] = row_for(s, call->kind, nb, cls);
    }
    prof_row_t *r = s->row[nb][cls];
    if (r != NULL) {
        r->calls++;
        r->bytes += call->bytes;
        r->seconds += dt;
    }
}

static compi_status_t prof_run(coll_closure_t *self, const coll_call_t *call)
{
    prof_state_t *s = self->state;
    double t0 = now();
    compi_status_t st = s->inner->fn(s->inner, call);
    prof_count(s, call, 0, now() - t0);
    return st;
}

/* a nonblocking call: counted when it starts; the time is the time to start it (the
   schedule then runs in the progress engine, interleaved with whatever else) */
static compi_status_t prof_start(coll_closure_t *self, const coll_call_t *call,
                                 struct compi_request **req_p)
{
    prof_state_t *s = self->state;
    double t0 = now();
    compi_status_t st = s->inner->start(s->inner, call, req_p);
    prof_count(s, call, 1, now() - t0);
    return st;
}

static void wrap_free(void *p)
{
    prof_state_t *s = p; /* both wrappers' states start with the inner closure */
    coll_closure_release(s->inner);
    free(s);
}

static coll_closure_t *wrap(coll_closure_t *inner, coll_fn_t fn, coll_start_fn_t start,
                            const char *what)
{
    prof_state_t *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return NULL;
    }
    char name[sizeof(inner->name)];
    if (snprintf(name, sizeof(name), "%s(%s)", what, inner->name) >= (int)sizeof(name)) {
        name[sizeof(name) - 2] = ')'; /* a long name is cut, but stays balanced */
    }
    coll_closure_t *c = coll_closure_new(fn, s, wrap_free, name);
    if (c == NULL) {
        free(s);
        return NULL;
    }
    /* what it does: the wrapping, and what the inner closure does */
    c->signature = coll_sig_long(coll_sig_str(COLL_SIG_SEED, what), (long)inner->signature);
    coll_closure_retain(inner);
    s->inner = inner;
    c->is_scheme = inner->is_scheme;
    c->start = inner->start != NULL ? start : NULL;
    return c;
}

coll_closure_t *coll_wrap_inner(const coll_closure_t *c)
{
    return c->free_state == wrap_free ? ((const prof_state_t *)c->state)->inner
                                      : coll_summary_inner(c);
}

coll_closure_t *coll_wrap_profile(coll_closure_t *inner)
{
    return wrap(inner, prof_run, prof_start, "profile");
}

static compi_status_t trace_run(coll_closure_t *self, const coll_call_t *call)
{
    prof_state_t *s = self->state;
    double t0 = now();
    compi_status_t st = s->inner->fn(s->inner, call);
    double dt = now() - t0;
    char root[24] = "";
    if (call->root >= 0) {
        snprintf(root, sizeof(root), " root=%d", call->root);
    }
    compi_log_info("trace: %s %s%s bytes=%zu -> %s: %.1f us%s", call->comm->name,
                   coll_kind_name(call->kind), root, call->bytes, s->inner->name, dt * 1e6,
                   st == COMPI_OK ? "" : " (failed)");
    return st;
}

static compi_status_t trace_start(coll_closure_t *self, const coll_call_t *call,
                                  struct compi_request **req_p)
{
    prof_state_t *s = self->state;
    double t0 = now();
    compi_status_t st = s->inner->start(s->inner, call, req_p);
    double dt = now() - t0;
    char root[24] = "";
    if (call->root >= 0) {
        snprintf(root, sizeof(root), " root=%d", call->root);
    }
    compi_log_info("trace: %s i%s%s bytes=%zu -> %s: started in %.1f us%s", call->comm->name,
                   coll_kind_name(call->kind), root, call->bytes, s->inner->name, dt * 1e6,
                   st == COMPI_OK ? "" : " (failed)");
    return st;
}

coll_closure_t *coll_wrap_trace(coll_closure_t *inner)
{
    return wrap(inner, trace_run, trace_start, "trace");
}

static int row_order(const void *a, const void *b)
{
    const prof_row_t *x = *(prof_row_t *const *)a, *y = *(prof_row_t *const *)b;
    if (x->kind != y->kind) {
        return (int)x->kind - (int)y->kind;
    }
    if (x->nonblocking != y->nonblocking) {
        return x->nonblocking - y->nonblocking;
    }
    if (x->cls != y->cls) {
        return x->cls - y->cls;
    }
    return strcmp(x->closure, y->closure);
}

void coll_wrap_finalize(void)
{
    size_t n = 0;
    for (prof_row_t *r = rows; r != NULL; r = r->next) {
        n++;
    }
    int all = (int)param_register_int("coll_profile_all", 0,
                                      "Profiling wrappers: 1 = every rank prints its profile "
                                      "at MPI_Finalize, 0 = rank 0 only");
    prof_row_t **v = n > 0 ? malloc(n * sizeof(*v)) : NULL;
    if (v != NULL && (all || rte_proc.world_rank == 0)) {
        size_t i = 0;
        for (prof_row_t *r = rows; r != NULL; r = r->next) {
            v[i++] = r;
        }
        qsort(v, n, sizeof(*v), row_order);
        /* one write per line keeps ranks' lines whole */
        compi_log_info("profile: %-20s %-14s %10s %14s %12s %10s  %s", "kind", "size",
                       "calls", "bytes", "total us", "us/call", "closure");
        for (i = 0; i < n; i++) {
            prof_row_t *r = v[i];
            char kind[32];
            /* nonblocking rows: "ibcast", the time is the time to start */
            snprintf(kind, sizeof(kind), "%s%s", r->nonblocking ? "i" : "",
                     coll_kind_name(r->kind));
            compi_log_info("profile: %-20s %-14s %10llu %14llu %12.1f %10.2f  %s", kind,
                           class_name[r->cls], r->calls, r->bytes,
                           r->seconds * 1e6, r->calls ? r->seconds * 1e6 / (double)r->calls : 0.0,
                           r->closure);
        }
    }
    free(v);
    while (rows != NULL) {
        prof_row_t *r = rows;
        rows = r->next;
        free(r);
    }
}
