/*
 * summary.c -- the coll_summary wrapper and its CSV file (see summary.h).
 *
 * A wrapper serves one cache entry: one communicator, kind and mode, and (the key holds
 * the byte count) nearly always one size class.  It finds its row for a call's size class
 * through a small array filled on first use, so a call costs two clock reads and three
 * adds beyond the inner closure's.
 */
#include "core/coll/wrappers/summary.h"

#include "core/comm/comm_coll.h"
#include "core/dt/dt.h"
#include "core/pml/pml.h"
#include "core/runtime/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* size classes: powers of 16 from 64 B (0 B has a class of its own) */
#define SUM_NCLASSES 7
static const size_t class_limit[SUM_NCLASSES - 1] = {0, 64, 1024, 16384, 262144, 4194304};
static const char *const class_name[SUM_NCLASSES] = {"0",      "<=64",  "<=1K", "<=16K",
                                                     "<=256K", "<=4M", ">4M"};

static int size_class(size_t bytes)
{
    int c = 0;
    while (c < SUM_NCLASSES - 1 && bytes > class_limit[c]) {
        c++;
    }
    return c;
}

typedef struct sum_row {
    struct sum_row *next;
    int cls;
    uint64_t signature;
    unsigned long long calls;
    unsigned long long bytes;
    double seconds;
    char kind[40]; /* "bcast", "ibcast", "bcast_init" */
    char comm[MPI_MAX_OBJECT_NAME];
    char closure[sizeof(((coll_closure_t *)0)->name)];
} sum_row_t;

static sum_row_t *rows;

typedef struct sum_state {
    coll_closure_t *inner; /* first, as in wrap.c */
    sum_row_t *row[SUM_NCLASSES]; /* found or created on first use */
    char kind[40];
    char comm[MPI_MAX_OBJECT_NAME];
} sum_state_t;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* wrappers of the same communicator name, kind and closure (other keys, or the same key
   again after a flush) share their rows */
static sum_row_t *row_for(sum_state_t *s, int cls)
{
    sum_row_t *r;
    for (r = rows; r != NULL; r = r->next) {
        if (r->cls == cls && r->signature == s->inner->signature &&
            strcmp(r->kind, s->kind) == 0 && strcmp(r->comm, s->comm) == 0 &&
            strcmp(r->closure, s->inner->name) == 0) {
            return r;
        }
    }
    r = calloc(1, sizeof(*r));
    if (r == NULL) {
        return NULL;
    }
    r->cls = cls;
    r->signature = s->inner->signature;
    snprintf(r->kind, sizeof(r->kind), "%s", s->kind);
    snprintf(r->comm, sizeof(r->comm), "%s", s->comm);
    snprintf(r->closure, sizeof(r->closure), "%s", s->inner->name);
    r->next = rows;
    rows = r;
    return r;
}

static void count(sum_state_t *s, const coll_call_t *call, double dt)
{
    int cls = size_class(call->bytes);
    if (compi_unlikely(s->row[cls] == NULL)) {
        s->row[cls] = row_for(s, cls);
    }
    sum_row_t *r = s->row[cls];
    if (r != NULL) {
        r->calls++;
        r->bytes += call->bytes;
        r->seconds += dt;
    }
}

static compi_status_t sum_run(coll_closure_t *self, const coll_call_t *call)
{
    sum_state_t *s = self->state;
    double t0 = now();
    compi_status_t st = s->inner->fn(s->inner, call);
    count(s, call, now() - t0);
    return st;
}

static compi_status_t sum_start(coll_closure_t *self, const coll_call_t *call,
                                struct compi_request **req_p)
{
    sum_state_t *s = self->state;
    double t0 = now();
    compi_status_t st = s->inner->start(s->inner, call, req_p);
    count(s, call, now() - t0);
    return st;
}

static void sum_free(void *p)
{
    sum_state_t *s = p;
    coll_closure_release(s->inner);
    free(s);
}

coll_closure_t *coll_wrap_summary(coll_closure_t *inner, coll_kind_t kind, coll_mode_t mode,
                                  const char *comm_name)
{
    sum_state_t *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return NULL;
    }
    /* the inner closure's name and signature: the wrapper is invisible but for its rows */
    coll_closure_t *c = coll_closure_new(sum_run, s, sum_free, inner->name);
    if (c == NULL) {
        free(s);
        return NULL;
    }
    snprintf(s->kind, sizeof(s->kind), "%s%s%s", mode == COLL_MODE_NONBLOCKING ? "i" : "",
             coll_kind_name(kind), mode == COLL_MODE_PERSISTENT ? "_init" : "");
    snprintf(s->comm, sizeof(s->comm), "%s", comm_name);
    coll_closure_retain(inner);
    s->inner = inner;
    c->signature = inner->signature;
    c->is_scheme = inner->is_scheme;
    c->start = inner->start != NULL ? sum_start : NULL;
    return c;
}

coll_closure_t *coll_summary_inner(const coll_closure_t *c)
{
    return c->free_state == sum_free ? ((const sum_state_t *)c->state)->inner : NULL;
}

/* ---- the file ------------------------------------------------------------------------ */

typedef struct text {
    char *p;
    size_t len, cap;
    int failed;
} text_t;

static void __attribute__((format(printf, 2, 3))) text_add(text_t *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = t->cap - t->len;
        va_start(ap, fmt);
        int n = t->failed ? 0 : vsnprintf(t->p + t->len, room, fmt, ap);
        va_end(ap);
        if (t->failed || n < 0) {
            t->failed = 1;
            return;
        }
        if ((size_t)n < room) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap * 2 + (size_t)n + 256;
        char *np = realloc(t->p, cap);
        if (np == NULL) {
            t->failed = 1;
            return;
        }
        t->p = np;
        t->cap = cap;
    }
}

/* a CSV field: in double quotes, a quote inside doubled */
static void text_quoted(text_t *t, const char *s)
{
    text_add(t, "\"");
    for (; *s != '\0'; s++) {
        text_add(t, *s == '"' ? "\"\"" : "%c", *s);
    }
    text_add(t, "\"");
}

static int row_order(const void *a, const void *b)
{
    const sum_row_t *x = *(sum_row_t *const *)a, *y = *(sum_row_t *const *)b;
    int d;
    if ((d = strcmp(x->comm, y->comm)) != 0 || (d = strcmp(x->kind, y->kind)) != 0) {
        return d;
    }
    if (x->cls != y->cls) {
        return x->cls - y->cls;
    }
    return strcmp(x->closure, y->closure);
}

/* this rank's rows as CSV lines */
static void rows_text(text_t *t, int rank)
{
    size_t n = 0, i = 0;
    for (sum_row_t *r = rows; r != NULL; r = r->next) {
        n++;
    }
    if (n == 0) {
        return;
    }
    sum_row_t **v = malloc(n * sizeof(*v));
    if (v == NULL) {
        t->failed = 1;
        return;
    }
    for (sum_row_t *r = rows; r != NULL; r = r->next) {
        v[i++] = r;
    }
    qsort(v, n, sizeof(*v), row_order);
    for (i = 0; i < n; i++) {
        const sum_row_t *r = v[i];
        text_add(t, "%d,", rank);
        text_quoted(t, r->comm);
        text_add(t, ",");
        text_quoted(t, r->kind);
        text_add(t, ",");
        text_quoted(t, class_name[r->cls]);
        text_add(t, ",");
        text_quoted(t, r->closure);
        text_add(t, ",%016llx,%llu,%llu,%.9f\n", (unsigned long long)r->signature, r->calls,
                  r->bytes, r->seconds);
    }
    free(v);
}

compi_status_t coll_summary_write(const char *path)
{
    compi_comm_t *w = comm_world();
    compi_datatype_t *byte = dt_from_handle(MPI_BYTE);
    text_t t = {0};
    compi_status_t st = COMPI_OK;
    FILE *f = NULL;

    rows_text(&t, w->rank);
    if (t.failed) {
        compi_log_warn("coll_summary: out of memory for this rank's rows; none are written");
        t.len = 0;
    }
    int *lens = malloc(sizeof(int) * (size_t)w->size);
    if (lens == NULL) {
        free(t.p);
        return COMPI_ERR_NO_MEMORY; /* the others wait for this rank: a job in trouble */
    }
    int mine = (int)t.len;
    comm_coll_set_t set = comm_coll_whole(w);
    set.tag = COMPI_TAG_COLL_SUMMARY;
    if (w->size > 1) {
        st = comm_coll_allgather_int(&set, &mine, 1, lens);
    } else {
        lens[0] = mine;
    }
    if (st != COMPI_OK) {
        goto out;
    }
    if (w->rank != 0) {
        if (mine > 0) {
            st = pml_send(t.p, (size_t)mine, byte, 0, COMPI_TAG_COLL_SUMMARY, w,
                          PML_SEND_STANDARD);
        }
        goto out;
    }
    f = fopen(path, "w");
    if (f == NULL) {
        compi_log_warn("coll_summary: cannot write %s: %s", path, strerror(errno));
    } else {
        fputs("rank,comm,kind,size_class,closure,signature,calls,bytes,seconds\n", f);
        fwrite(t.p, 1, (size_t)mine, f);
    }
    /* the others' rows, in rank order, one rank in memory at a time */
    for (int r = 1; r < w->size && st == COMPI_OK; r++) {
        if (lens[r] <= 0) {
            continue;
        }
        char *buf = malloc((size_t)lens[r]);
        if (buf == NULL) {
            st = COMPI_ERR_NO_MEMORY;
            break;
        }
        st = pml_recv(buf, (size_t)lens[r], byte, r, COMPI_TAG_COLL_SUMMARY, w, NULL);
        if (st == COMPI_OK && f != NULL) {
            fwrite(buf, 1, (size_t)lens[r], f);
        }
        free(buf);
    }
    if (f != NULL && fclose(f) != 0) {
        compi_log_warn("coll_summary: writing %s failed: %s", path, strerror(errno));
    }
out:
    free(lens);
    free(t.p);
    return st;
}

void coll_summary_finalize(void)
{
    while (rows != NULL) {
        sum_row_t *r = rows;
        rows = r->next;
        free(r);
    }
}
