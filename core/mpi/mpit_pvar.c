/*
 * mpit_pvar.c -- the MPI tool information interface: performance variables.
 *
 * The variables are one table (below); each reads counters that live beside what they
 * count, and that cost the counted path one addition:
 *
 *   coll_cache_hits, _misses  per communicator   trampolines/tramp.c  tramp_cache_counts
 *   coll_calls                per communicator, one element per collective kind
 *   pml_posted_recvs          the PML's queues   core/pml/pml_match.c pml_queue_lengths
 *   pml_unexpected_msgs
 *   pml_unexpected_peak                                                pml_unexpected_peak
 *   btl_<self|sm|ofi>_bytes_sent, _recvd         core/pml (per peer)  pml_btl_bytes
 *
 * All are MPI_UNSIGNED_LONG_LONG.  The counters are raw totals that only grow; a
 * handle's value is its own:
 *
 *   value = acc + (started ? raw now - raw at start : 0)
 *
 * so a counter starts at 0 when its handle is allocated, counts only while started
 * (continuous ones from allocation on), keeps its value while stopped, and a reset or
 * write changes that handle alone (acc := 0 or the value written, from the raw value
 * now).  Handles never disturb each other or the library, so every counter may be
 * written and reset, and a read and reset under the library's lock is atomic.  The two
 * queue lengths are levels: read-only, continuous, the length now.  pml_unexpected_peak
 * is a high watermark: the most unexpected messages at once while started, from the
 * number waiting when it was allocated, reset or written (peak_restart, below).
 *
 * The entry points are generated (core/mpi/gen/mpit_pvar.c); each calls its t_x_impl here.
 *
 * Ownership: a session owns its handles; MPI_T_pvar_session_free frees them, and the
 * last MPI_T_finalize frees every session.  A handle bound to a communicator does not keep
 * it alive: once the communicator is freed the handle answers MPI_T_ERR_INVALID_HANDLE
 * (MPI_T_pvar_handle_free still frees it).
 */
#include "core/mpi/mpit.h"

#include "core/comm/comm.h"
#include "core/coll/coll.h"
#include "core/mpi/args.h"
#include "core/mpi/mpi_state.h"
#include "core/pml/pml.h"
#include "trampolines/tramp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long long pvar_value_t;

enum pvar_src {
    SRC_CACHE_HITS,
    SRC_CACHE_MISSES,
    SRC_COLL_CALLS,
    SRC_POSTED,
    SRC_UNEXPECTED,
    SRC_UNEXPECTED_PEAK,
    SRC_BTL_SENT,
    SRC_BTL_RECVD,
};

typedef struct pvar {
    const char *name;
    enum pvar_src src;
    const char *btl; /* SRC_BTL_*: the transport */
    int var_class;   /* MPI_T_PVAR_CLASS_COUNTER, _LEVEL or _HIGHWATERMARK */
    int bind;        /* MPI_T_BIND_NO_OBJECT or MPI_T_BIND_MPI_COMM */
    int continuous;  /* counts from allocation, cannot be started or stopped */
    int verbosity;
    const char *desc;
} pvar_t;

#define COUNTER MPI_T_PVAR_CLASS_COUNTER
#define LEVEL MPI_T_PVAR_CLASS_LEVEL
#define HWM MPI_T_PVAR_CLASS_HIGHWATERMARK
#define COMM MPI_T_BIND_MPI_COMM
#define NOBJ MPI_T_BIND_NO_OBJECT
#define TUNER MPI_T_VERBOSITY_TUNER_BASIC

static const pvar_t pvars[] = {
    {.name = "coll_cache_hits",
     .src = SRC_CACHE_HITS,
     .var_class = COUNTER,
     .bind = COMM,
     .verbosity = MPI_T_VERBOSITY_USER_BASIC,
     .desc = "Collective calls on the communicator that found their closure in its cache (one "
             "lookup and one indirect call), every kind and mode"},
    {.name = "coll_cache_misses",
     .src = SRC_CACHE_MISSES,
     .var_class = COUNTER,
     .bind = COMM,
     .verbosity = MPI_T_VERBOSITY_USER_BASIC,
     .desc = "Collective calls on the communicator that asked the Scheme creators for a "
             "closure: the first call of each key, and the first after a flush, a "
             "reconfiguration or an eviction"},
    /* its description names its elements: desc_of */
    {.name = "coll_calls",
     .src = SRC_COLL_CALLS,
     .var_class = COUNTER,
     .bind = COMM,
     .continuous = 1,
     .verbosity = MPI_T_VERBOSITY_USER_DETAIL},
    {.name = "pml_posted_recvs",
     .src = SRC_POSTED,
     .var_class = LEVEL,
     .bind = NOBJ,
     .continuous = 1,
     .verbosity = MPI_T_VERBOSITY_TUNER_DETAIL,
     .desc = "Receives posted and not yet matched, over every communicator of this process"},
    {.name = "pml_unexpected_msgs",
     .src = SRC_UNEXPECTED,
     .var_class = LEVEL,
     .bind = NOBJ,
     .continuous = 1,
     .verbosity = MPI_T_VERBOSITY_TUNER_DETAIL,
     .desc = "Messages arrived before their receive was posted and not yet matched, over "
             "every communicator of this process"},
    {.name = "pml_unexpected_peak",
     .src = SRC_UNEXPECTED_PEAK,
     .var_class = HWM,
     .bind = NOBJ,
     .verbosity = MPI_T_VERBOSITY_TUNER_DETAIL,
     .desc = "The most messages waiting unexpected at once (over every communicator of this "
             "process) while the handle was started, since it was allocated, reset or "
             "written; it starts at the number waiting then"},
    /* the BTLs' descriptions differ by the transport's name: desc_of */
    {.name = "btl_self_bytes_sent",
     .src = SRC_BTL_SENT,
     .btl = "self",
     .var_class = COUNTER,
     .bind = NOBJ,
     .verbosity = TUNER},
    {.name = "btl_self_bytes_recvd",
     .src = SRC_BTL_RECVD,
     .btl = "self",
     .var_class = COUNTER,
     .bind = NOBJ,
     .verbosity = TUNER},
    {.name = "btl_sm_bytes_sent",
     .src = SRC_BTL_SENT,
     .btl = "sm",
     .var_class = COUNTER,
     .bind = NOBJ,
     .verbosity = TUNER},
    {.name = "btl_sm_bytes_recvd",
     .src = SRC_BTL_RECVD,
     .btl = "sm",
     .var_class = COUNTER,
     .bind = NOBJ,
     .verbosity = TUNER},
    {.name = "btl_ofi_bytes_sent",
     .src = SRC_BTL_SENT,
     .btl = "ofi",
     .var_class = COUNTER,
     .bind = NOBJ,
     .verbosity = TUNER},
    {.name = "btl_ofi_bytes_recvd",
     .src = SRC_BTL_RECVD,
     .btl = "ofi",
     .var_class = COUNTER,
     .bind = NOBJ,
     .verbosity = TUNER},
};
#define NPVARS ((int)(sizeof(pvars) / sizeof(pvars[0])))

/* the most elements a variable has (coll_calls: one per kind) */
#define PVAR_COUNT_MAX COLL_NKINDS

static int pvar_count_of(const pvar_t *v)
{
    return v->src == SRC_COLL_CALLS ? COLL_NKINDS : 1;
}

/* the descriptions made at run time: coll_calls's names its elements, the BTLs' differ
   only by the transport's name */
static const char *desc_of(int index)
{
    static char text[NPVARS][1024];
    const pvar_t *v = &pvars[index];
    char *t = text[index];
    size_t len = sizeof(text[index]);
    if (v->desc != NULL || t[0] != '\0') {
        return v->desc != NULL ? v->desc : t;
    }
    if (v->src == SRC_COLL_CALLS) {
        int n = snprintf(t, len,
                         "Collective calls on the communicator, one element per kind (every "
                         "mode; hits and misses): ");
        for (int k = 0; k < COLL_NKINDS && n > 0 && (size_t)n < len; k++) {
            n += snprintf(t + n, len - (size_t)n, "%s%d %s", k > 0 ? ", " : "", k,
                          coll_kind_name((coll_kind_t)k));
        }
    } else {
        int sent = v->src == SRC_BTL_SENT;
        snprintf(t, len,
                 "Bytes this process %s through the transport btl %s since MPI_Init: fragments "
                 "with their headers, control messages, and the single copies it %s",
                 sent ? "sent" : "received", v->btl, sent ? "wrote (put)" : "read (get)");
    }
    return t;
}

struct compi_t_pvar_handle {
    struct compi_t_pvar_handle *next; /* the session's handles */
    const pvar_t *var;
    int count;
    int started;
    MPI_Comm comm; /* bound to, and the object behind it when bound */
    compi_comm_t *comm_obj;
    pvar_value_t acc[PVAR_COUNT_MAX];  /* the value when last stopped, reset or written */
    pvar_value_t base[PVAR_COUNT_MAX]; /* the raw counts then (while started) */
};

struct compi_t_pvar_session {
    struct compi_t_pvar_session *next; /* every live session */
    struct compi_t_pvar_handle *handles;
};

static struct compi_t_pvar_session *sessions;

/* The high watermark: the PML keeps one peak since its last restart, and a started
   handle's value is max(acc, peak).  A handle that needs the peak to start over (started,
   reset, written) first folds it into every started one, so each keeps the peak of its
   own time. */
static void peak_restart(void)
{
    pvar_value_t peak = pml_unexpected_peak(0);
    for (struct compi_t_pvar_session *s = sessions; s != NULL; s = s->next) {
        for (struct compi_t_pvar_handle *x = s->handles; x != NULL; x = x->next) {
            if (x->var->var_class == HWM && x->started && x->acc[0] < peak) {
                x->acc[0] = peak;
            }
        }
    }
    (void)pml_unexpected_peak(1);
}

int mpit_pvar_count(void)
{
    return NPVARS;
}

const char *mpit_pvar_name(int index)
{
    return pvars[index].name;
}

/* the raw counts of h's variable now; MPI_T_ERR_INVALID_HANDLE once its communicator is
   gone */
static int raw_read(const struct compi_t_pvar_handle *h, pvar_value_t *raw)
{
    pvar_value_t a[PVAR_COUNT_MAX], b[PVAR_COUNT_MAX];
    const pvar_t *v = h->var;
    if (v->bind == COMM) {
        if (compi_mpi_state != COMPI_STATE_INITIALIZED ||
            comm_from_handle(h->comm) != h->comm_obj) {
            return MPI_T_ERR_INVALID_HANDLE;
        }
        tramp_cache_counts(h->comm_obj, a, b);
    }
    switch (v->src) {
    case SRC_CACHE_HITS:
    case SRC_CACHE_MISSES:
        raw[0] = 0;
        for (int k = 0; k < COLL_NKINDS; k++) {
            raw[0] += v->src == SRC_CACHE_HITS ? a[k] : b[k];
        }
        break;
    case SRC_COLL_CALLS:
        for (int k = 0; k < COLL_NKINDS; k++) {
            raw[k] = a[k] + b[k];
        }
        break;
    case SRC_POSTED:
    case SRC_UNEXPECTED:
        pml_queue_lengths(&a[0], &b[0]);
        raw[0] = v->src == SRC_POSTED ? a[0] : b[0];
        break;
    case SRC_UNEXPECTED_PEAK:
        raw[0] = pml_unexpected_peak(0);
        break;
    case SRC_BTL_SENT:
    case SRC_BTL_RECVD:
        pml_btl_bytes(v->btl, &a[0], &b[0]);
        raw[0] = v->src == SRC_BTL_SENT ? a[0] : b[0];
        break;
    }
    return MPI_SUCCESS;
}

static void value_of(const struct compi_t_pvar_handle *h, const pvar_value_t *raw,
                     pvar_value_t *out)
{
    if (h->var->var_class == HWM) {
        out[0] = h->started && raw[0] > h->acc[0] ? raw[0] : h->acc[0];
        return;
    }
    for (int i = 0; i < h->count; i++) {
        out[i] = h->var->var_class == LEVEL ? raw[i]
                                            : h->acc[i] + (h->started ? raw[i] - h->base[i] : 0);
    }
}

/* the handle's value becomes `value' (NULL: its starting value, 0 or the level now) from
   now on */
static void value_set(struct compi_t_pvar_handle *h, const pvar_value_t *raw,
                      const pvar_value_t *value)
{
    if (h->var->var_class == HWM) {
        pvar_value_t posted, now;
        pml_queue_lengths(&posted, &now);
        peak_restart();
        h->acc[0] = value != NULL ? value[0] : now;
        return;
    }
    for (int i = 0; i < h->count; i++) {
        h->acc[i] = value != NULL ? value[i] : 0;
        h->base[i] = raw[i];
    }
}

static int session_valid(MPI_T_pvar_session s)
{
    struct compi_t_pvar_session *x = sessions;
    while (x != NULL && x != s) {
        x = x->next;
    }
    return s != MPI_T_PVAR_SESSION_NULL && x != NULL;
}

/* the checks every call on (session, handle) starts with; `all': whether
   MPI_T_PVAR_ALL_HANDLES may stand for the handle */
static int check(MPI_T_pvar_session s, MPI_T_pvar_handle h, int all)
{
    if (!session_valid(s)) {
        return MPI_T_ERR_INVALID_SESSION;
    }
    if (h == MPI_T_PVAR_ALL_HANDLES) {
        return all ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
    }
    struct compi_t_pvar_handle *x = s->handles;
    while (x != NULL && x != h) {
        x = x->next;
    }
    return h != MPI_T_PVAR_HANDLE_NULL && x != NULL ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
}

static int t_pvar_get_num_impl(int *num_pvar)
{
    *num_pvar = NPVARS;
    return MPI_SUCCESS;
}

static int t_pvar_get_info_impl(int pvar_index, char *name, int *name_len, int *verbosity,
                                int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
                                char *desc, int *desc_len, int *bind, int *readonly,
                                int *continuous, int *atomic)
{
    if (pvar_index < 0 || pvar_index >= NPVARS) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    const pvar_t *v = &pvars[pvar_index];
    mpit_string_out(v->name, name, name_len);
    mpit_string_out(desc_of(pvar_index), desc, desc_len);
    int level = v->var_class == LEVEL;
    int *outs[] = {verbosity, var_class, bind, readonly, continuous, atomic};
    int vals[] = {v->verbosity, v->var_class, v->bind, level, v->continuous, !level};
    for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
        if (outs[i] != NULL) {
            *outs[i] = vals[i];
        }
    }
    if (datatype != NULL) {
        *datatype = MPI_UNSIGNED_LONG_LONG;
    }
    if (enumtype != NULL) {
        *enumtype = MPI_T_ENUM_NULL;
    }
    return MPI_SUCCESS;
}

static int t_pvar_get_index_impl(const char *name, int var_class, int *pvar_index)
{
    /* a name and a class name one variable (names may repeat across classes) */
    for (int i = 0; i < NPVARS; i++) {
        if (pvars[i].var_class == var_class && strcmp(pvars[i].name, name) == 0) {
            *pvar_index = i;
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}

static int t_pvar_session_create_impl(MPI_T_pvar_session *pe_session)
{
    struct compi_t_pvar_session *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return MPI_T_ERR_MEMORY;
    }
    s->next = sessions;
    sessions = s;
    *pe_session = s;
    return MPI_SUCCESS;
}

static void session_destroy(struct compi_t_pvar_session *s)
{
    while (s->handles != NULL) {
        struct compi_t_pvar_handle *h = s->handles;
        s->handles = h->next;
        free(h);
    }
    free(s);
}

static int t_pvar_session_free_impl(MPI_T_pvar_session *pe_session)
{
    struct compi_t_pvar_session **pp = &sessions;
    while (*pp != NULL && *pp != *pe_session) {
        pp = &(*pp)->next;
    }
    if (*pe_session == MPI_T_PVAR_SESSION_NULL || *pp == NULL) {
        return MPI_T_ERR_INVALID_SESSION;
    }
    *pp = (*pe_session)->next;
    session_destroy(*pe_session);
    *pe_session = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
}

void mpit_pvar_finalize(void)
{
    while (sessions != NULL) {
        struct compi_t_pvar_session *s = sessions;
        sessions = s->next;
        session_destroy(s);
    }
}

static int t_pvar_handle_alloc_impl(MPI_T_pvar_session pe_session, int pvar_index, void *obj_handle,
                                    MPI_T_pvar_handle *handle, int *count)
{
    pvar_value_t raw[PVAR_COUNT_MAX];
    int rc = check(pe_session, MPI_T_PVAR_ALL_HANDLES, 1);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (pvar_index < 0 || pvar_index >= NPVARS) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    if (handle == NULL || count == NULL) {
        return MPI_T_ERR_INVALID;
    }
    const pvar_t *v = &pvars[pvar_index];
    struct compi_t_pvar_handle *h = calloc(1, sizeof(*h));
    if (h == NULL) {
        return MPI_T_ERR_MEMORY;
    }
    h->var = v;
    h->count = pvar_count_of(v);
    h->comm = MPI_COMM_NULL;
    if (v->bind == COMM) {
        /* obj_handle points at a communicator (so MPI must be running) */
        if (obj_handle == NULL || compi_mpi_state != COMPI_STATE_INITIALIZED ||
            (h->comm_obj = comm_from_handle(*(MPI_Comm *)obj_handle)) == NULL) {
            free(h);
            return MPI_T_ERR_INVALID_HANDLE;
        }
        h->comm = *(MPI_Comm *)obj_handle;
    }
    (void)raw_read(h, raw); /* the communicator was just checked */
    value_set(h, raw, NULL);
    h->started = v->continuous;
    h->next = pe_session->handles;
    pe_session->handles = h;
    *handle = h;
    *count = h->count;
    return MPI_SUCCESS;
}

static int t_pvar_handle_free_impl(MPI_T_pvar_session pe_session, MPI_T_pvar_handle *handle)
{
    if (handle == NULL) {
        return MPI_T_ERR_INVALID;
    }
    int rc = check(pe_session, *handle, 0);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    struct compi_t_pvar_handle **pp = &pe_session->handles;
    while (*pp != *handle) {
        pp = &(*pp)->next;
    }
    *pp = (*handle)->next;
    free(*handle);
    *handle = MPI_T_PVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

enum op { OP_START, OP_STOP, OP_RESET };

/* start, stop or reset one handle */
static int apply(struct compi_t_pvar_handle *h, enum op op)
{
    pvar_value_t raw[PVAR_COUNT_MAX], now[PVAR_COUNT_MAX];
    if (op != OP_RESET && h->var->continuous) {
        return MPI_T_ERR_PVAR_NO_STARTSTOP;
    }
    if (op == OP_RESET && h->var->var_class == LEVEL) {
        return MPI_T_ERR_PVAR_NO_WRITE;
    }
    int rc = raw_read(h, raw);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    switch (op) {
    case OP_START:
        if (!h->started) {
            value_set(h, raw, h->acc);
            h->started = 1;
        }
        break;
    case OP_STOP:
        value_of(h, raw, now);
        value_set(h, raw, now);
        h->started = 0;
        break;
    case OP_RESET:
        value_set(h, raw, NULL);
        break;
    }
    return MPI_SUCCESS;
}

/* MPI_T_pvar_start, _stop, _reset: one handle, or all the session's that the operation
   applies to (the non-continuous ones; for a reset, those not read-only) whose objects
   are still there */
static int start_stop_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, enum op op)
{
    int rc = check(session, handle, 1);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (handle != MPI_T_PVAR_ALL_HANDLES) {
        return apply(handle, op);
    }
    for (struct compi_t_pvar_handle *h = session->handles; h != NULL; h = h->next) {
        (void)apply(h, op);
    }
    return MPI_SUCCESS;
}

static int t_pvar_start_impl(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle)
{
    return start_stop_reset(pe_session, handle, OP_START);
}

static int t_pvar_stop_impl(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle)
{
    return start_stop_reset(pe_session, handle, OP_STOP);
}

static int t_pvar_reset_impl(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle)
{
    return start_stop_reset(pe_session, handle, OP_RESET);
}

/* MPI_T_pvar_read, _write and _readreset: checks, then one handle's value out to buf
   (or, `write', in from it); `reset' after a read */
static int read_write(MPI_T_pvar_session session, MPI_T_pvar_handle h, void *buf, int write,
                      int reset)
{
    pvar_value_t raw[PVAR_COUNT_MAX], now[PVAR_COUNT_MAX];
    int rc = check(session, h, 0);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (buf == NULL) {
        return MPI_T_ERR_INVALID;
    }
    /* levels are read-only; every other variable is atomic (one lock covers them) */
    if ((write || reset) && h->var->var_class == LEVEL) {
        return MPI_T_ERR_PVAR_NO_WRITE;
    }
    if ((rc = raw_read(h, raw)) != MPI_SUCCESS) {
        return rc;
    }
    if (write) {
        memcpy(now, buf, sizeof(pvar_value_t) * (size_t)h->count);
        value_set(h, raw, now);
        return MPI_SUCCESS;
    }
    value_of(h, raw, now);
    memcpy(buf, now, sizeof(pvar_value_t) * (size_t)h->count);
    if (reset) {
        value_set(h, raw, NULL);
    }
    return MPI_SUCCESS;
}

static int t_pvar_read_impl(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle, void *buf)
{
    return read_write(pe_session, handle, buf, 0, 0);
}

static int t_pvar_write_impl(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle,
                             const void *buf)
{
    /* read_write only reads through buf when writing */
    return read_write(pe_session, handle, (void *)buf, 1, 0);
}

static int t_pvar_readreset_impl(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle, void *buf)
{
    return read_write(pe_session, handle, buf, 0, 1);
}

#include "core/mpi/gen/mpit_pvar.c"
