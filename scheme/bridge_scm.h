/*
 * bridge_scm.h -- the bridge's internal interface, with libguile types.  Included only by
 * files under scheme/: everything else goes through bridge.h.
 *
 * Every function here must be called in Guile mode (inside scm_with_guile, as the
 * bridge.h entry points arrange).  None of them lets a Scheme exception or a non-local
 * exit escape to its caller.
 *
 * Ownership: SCM values returned are owned by Guile's collector; a caller that keeps one
 * beyond the current call in C heap or static memory must protect it
 * (scm_gc_protect_object) -- the bridge's own cached procedures are protected in
 * bridge.c.  No finalizers anywhere.
 */
#ifndef COMPI_BRIDGE_SCM_H
#define COMPI_BRIDGE_SCM_H

#include "scheme/bridge.h"
#include "core/include/compi_status.h"

#include <libguile.h>
#include <stddef.h>

/*
 * Applies `proc' to the list `args' with every Scheme exception caught: COMPI_OK and the
 * value in *result_p (may be NULL), or COMPI_ERR_CONFIG and one line in errbuf naming the
 * creator or procedure that failed and what went wrong.
 */
compi_status_t bridge_call(SCM proc, SCM args, SCM *result_p, char *errbuf, size_t len);

/* One C primitive as Scheme sees it; each file of primitives gives a table. */
typedef struct bridge_prim {
    const char *name;
    int req, opt, rest;
    scm_t_subr fn;
} bridge_prim_t;

/* Defines and exports in `module' the primitives of bridge_prims.c, bridge_call.c and
   bridge_facts.c. */
void bridge_prims_register(SCM module);
extern const bridge_prim_t bridge_call_prims[]; /* bridge_call.c */
extern const size_t bridge_call_nprims;
extern const bridge_prim_t bridge_closure_prims[]; /* bridge_closure.c: run-closure */
extern const size_t bridge_closure_nprims;

/*
 * Calls one of the (compi internal) procedures that answer (#t . value) or
 * (#f . "message"), with a catch-all around it: COMPI_OK and the value, or
 * COMPI_ERR_CONFIG and the message in errbuf.
 */
compi_status_t bridge_invoke(SCM proc, SCM args, SCM *value_p, char *errbuf, size_t len);

/* Runs fn(arg) in Guile mode; `arg' starts with its compi_status_t, which fn sets. */
compi_status_t bridge_with_guile(void *(*fn)(void *), compi_status_t *st_p, char *errbuf,
                                 size_t len);

/* The procedures of (compi internal) the bridge calls, looked up once by bridge_init and
   protected for good. */
typedef struct bridge_procs {
    SCM load_config;
    SCM safe_apply;
    SCM creator_count;
    SCM creator_description;
    SCM build_lowered_for;
    SCM run_scheme_closure;
    SCM lower_for_run;
    SCM run_finalize_hooks;
    SCM call_text;
} bridge_procs_t;
extern bridge_procs_t bridge_procs;

/* ---- records that cross the boundary (bridge_layout.c) ------------------------------ */

#define BRIDGE_LAYOUT_MAX_FIELDS 24

/* A record type of Scheme that C reads or builds, described by C: where it is defined
   and the fields C uses, by name.  bridge_layouts_check (bridge_init) fills rtd and
   index[]; C then reads field i (its position in `fields') with bridge_ref. */
typedef struct bridge_layout {
    const char *module; /* "compi private" */
    const char *name;   /* "<call>" */
    const char *const *fields; /* NULL-terminated; at most BRIDGE_LAYOUT_MAX_FIELDS */
    int complete;       /* C builds it (bridge_make): exactly these fields, none more */
    int resolved;
    SCM rtd, make;      /* the type and its constructor, protected for good */
    size_t nfields;
    size_t index[BRIDGE_LAYOUT_MAX_FIELDS]; /* the struct slot of fields[i] */
} bridge_layout_t;

/* Resolves `l': 0, or -1 and one line in why naming the record and the field. */
int bridge_layout_resolve(bridge_layout_t *l, char *why, size_t len);
/* Checks that the kinds of (compi private) are core/coll/kinds.def's and resolves every
   layout of the tables below: 0, or -1 and the first mismatch in why.  Raises only when
   a module cannot be loaded (inside bridge_init's catch). */
int bridge_layouts_check(char *why, size_t len);

static inline int bridge_is(const bridge_layout_t *l, SCM obj)
{
    return SCM_STRUCTP(obj) && scm_is_eq(scm_struct_vtable(obj), l->rtd);
}
static inline SCM bridge_ref(const bridge_layout_t *l, SCM obj, int field)
{
    return scm_struct_ref(obj, scm_from_size_t(l->index[field]));
}
static inline void bridge_set(const bridge_layout_t *l, SCM obj, int field, SCM value)
{
    scm_struct_set_x(obj, scm_from_size_t(l->index[field]), value);
}
/* A record of complete layout `l' from values[i] for fields[i] (C's order). */
SCM bridge_make(const bridge_layout_t *l, const SCM *values);

/* The layouts of bridge_call.c (call, buffer, request) and bridge_closure.c (lowered
   descriptions, trees), for bridge_layouts_check. */
extern bridge_layout_t *const bridge_call_layouts[];
extern const size_t bridge_call_nlayouts;
extern bridge_layout_t *const bridge_closure_layouts[];
extern const size_t bridge_closure_nlayouts;

/* ---- the call object (bridge_call.c) ------------------------------------------------ */

/* The fields of the call record (<call> of (compi private)) C uses, by name. */
enum {
    BRIDGE_CALL_KIND,
    BRIDGE_CALL_SIZE,
    BRIDGE_CALL_RANK,
    BRIDGE_CALL_ROOT,
    BRIDGE_CALL_BYTES,
    BRIDGE_CALL_DATATYPE,
    BRIDGE_CALL_OP,
    BRIDGE_CALL_COMMUTATIVE,
    BRIDGE_CALL_COMM,
    BRIDGE_CALL_HANDLE,
    BRIDGE_CALL_KEEP,
    BRIDGE_CALL_RANKS,
    BRIDGE_CALL_MODE,
    BRIDGE_CALL_TOPOLOGY,
    BRIDGE_CALL_INTER,
    BRIDGE_CALL_REMOTE_SIZE,
    BRIDGE_CALL_HINTS,
    BRIDGE_CALL_NFIELDS
};
extern bridge_layout_t bridge_call_layout;

struct coll_call;
struct compi_request;

/* Interns the symbols of call records; called by bridge_init. */
void bridge_call_init(void);

/* A call record of (compi) for `call'.  live: the Scheme closure runs on it now, so the
   buffer primitives may use its buffers (bridge_run_begin/end bracket that). */
SCM bridge_call_record(const struct coll_call *call, int live);
/* Makes `record', a live record of an earlier call that bridge_run_end has closed, the
   record of `call' (running now): 1, or 0 when it is still in use.  Only for a call that
   shows the same fields: one closure's calls (one key, one communicator) with the same
   datatypes and op. */
int bridge_call_record_rearm(SCM record, const struct coll_call *call);

/* One run of a Scheme closure: the requests it posted, so that none outlives the run. */
typedef struct bridge_run {
    const struct coll_call *call;
    unsigned long serial; /* requests of another run are refused */
    struct compi_request **reqs;
    size_t n, cap;
    struct bridge_run *prev;
    void *owner; /* the running Scheme closure's state (bridge_closure.c: run-closure) */
    int ran;     /* descriptions run-closure ran (started) in this run */
} bridge_run_t;

void bridge_run_begin(bridge_run_t *run, const struct coll_call *call);
/* The run in progress (the innermost, when Scheme closures nest), or NULL. */
bridge_run_t *bridge_run_current(void);
/* The C call behind call record `call' when it is the running one; raises otherwise
   (a primitive's check, with `who' as the primitive's name). */
const struct coll_call *bridge_live_call(SCM call, const char *who);
/* Waits for and frees the requests the closure left behind (their number in
 *left_p), marks `record' dead; COMPI_OK or the first transport error. */
compi_status_t bridge_run_end(bridge_run_t *run, SCM record, size_t *left_p);

/* ---- rank facts (bridge_facts.c) -------------------------------------------------- */

/* What the bridge stores in the call's `ranks' field for a C call: the communicator's
   world ranks. */
SCM bridge_facts_ranks_field(const struct coll_call *call);
extern const bridge_prim_t bridge_facts_prims[]; /* call-ranks */
extern const size_t bridge_facts_nprims;

/* Copies a Scheme string (or anything, written as Scheme writes it) into buf. */
void bridge_scm_to_buf(SCM obj, char *buf, size_t len);

#endif
