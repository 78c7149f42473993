/*
 * bridge_closure.c -- the trampoline's miss path: creators' closure descriptions become
 * coll_closure_t (bridge_build_closure), and Scheme closures run inside Guile.
 *
 *   tramp_run --miss--> bridge_build_closure(call)
 *                          | call record (bridge_call.c)
 *                          v
 *                       (compi internal) build-lowered-for: runs the creators, checks each
 *                       answer where it is given, lowers the description to records
 *                          |
 *                          v
 *                       here: native    -> coll_closure_algo(coll_algo_find(...)): a tree
 *                                          algorithm (bcast:binomial, ...) becomes
 *                                          coll_closure_tree over its shape, others
 *                                          coll_closure_native
 *                             tree      -> bridge_tree_in + check + coll_closure_tree
 *                             exchange  -> groups and trees checked and mapped here,
 *                                          coll_exchange_from_parents + check +
 *                                          coll_closure_exchange
 *                             profiling -> coll_wrap_profile(inner), tracing likewise
 *                             scheme    -> a closure whose fn enters Guile on every call;
 *                                          inside it, (run-closure DESC call) builds DESC
 *                                          here at its first use, keeps it in the
 *                                          Scheme closure's state and runs it in C
 *                             schedule  -> bridge_sched.c: every rank's steps checked,
 *                                          this rank's run by the schedule engine
 *
 * A nonblocking call (call->mode) needs a closure that can run as a schedule: a native
 * algorithm with one, a tree (native tree algorithms and creators' trees alike), or a
 * wrapper around such; anything else is refused here, naming the creator, with the
 * algorithms of the kind that can.
 *
 * The lowered descriptions are records of (compi internal), one type per kind of
 * closure, read here by field name (bridge_layout.c: the fields are resolved and checked
 * when the bridge starts) and dispatched on their type; a value of any other type is an
 * error, not a guess.  Their fields are checked by build-lowered-for where Scheme can;
 * what C alone can judge (the algorithm exists and accepts the call, the tree is valid
 * for it: checked here, once) is reported with the creator the description came from
 * and the call.
 *
 * Ownership: the closure returned belongs to the caller (refcount 1).  A Scheme closure
 * keeps its procedure, and the descriptions run-closure was given with the closures built
 * for them (one reference each), until its free_state runs.
 */
#include "scheme/bridge.h"
#include "scheme/bridge_scm.h"
#include "core/coll/coll.h"
#include "core/include/compi_common.h"
#include "core/coll/algorithms/allreduce/exchange.h"
#include "core/runtime/log.h"
#include "core/coll/executors/tree_closure.h"
#include "core/coll/wrappers/wrap.h"
#include "scheme/bridge_sched.h"
#include "scheme/tree_ext.h"
#include "topologies/tree.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bridge_build {
    compi_status_t st;
    const coll_call_t *call;
    coll_closure_t *closure;
    char *errbuf;
    size_t len;
} bridge_build_t;

/* "ORIGIN: what (call: TEXT)" into the caller's buffer, TEXT the call record's text
   (call-text of (compi internal), made only here: a miss that succeeds never formats
   its call); returns COMPI_ERR_CONFIG */
static compi_status_t __attribute__((format(printf, 4, 5)))
bridge__fail(bridge_build_t *b, SCM lowered_origin, SCM call, const char *fmt, ...)
{
    char origin[512], text[256], what[512];
    va_list ap;

    bridge_scm_to_buf(lowered_origin, origin, sizeof(origin));
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    /* run-closure passes no call: the Scheme closure's error adds it once */
    if (b->errbuf && b->len && scm_is_false(call)) {
        snprintf(b->errbuf, b->len, "%s: %s", origin, what);
    } else if (b->errbuf && b->len) {
        SCM t;
        char ignored[64];
        if (bridge_invoke(bridge_procs.call_text, scm_list_1(call), &t, ignored, sizeof(ignored)) ==
            COMPI_OK) {
            bridge_scm_to_buf(t, text, sizeof(text));
        } else {
            snprintf(text, sizeof(text), "?");
        }
        snprintf(b->errbuf, b->len, "%s: %s (call: %s)", origin, what, text);
    }
    return COMPI_ERR_CONFIG;
}

/* ---- the lowered descriptions, by field name ------------------------------------------ */

/* their types, in the order of `lowered_layouts' */
typedef enum lowered_tag {
    LOWERED_NATIVE,
    LOWERED_TREE,
    LOWERED_EXCHANGE,
    LOWERED_WRAPPER,
    LOWERED_SCHEME,
    LOWERED_SCHEDULE,
    LOWERED_NTAGS
} lowered_tag_t;

/* the fields C reads, by name; each list ends with NULL (bridge_layout_t) */
enum { NAT_KIND, NAT_ALGORITHM, NAT_FANOUT, NAT_SEGSIZE, NAT_RANKS, NAT_ORIGIN, NAT_N };
static const char *const native_fields[NAT_N + 1] = {
    [NAT_KIND] = "kind",       [NAT_ALGORITHM] = "algorithm", [NAT_FANOUT] = "fanout",
    [NAT_SEGSIZE] = "segsize", [NAT_RANKS] = "ranks",         [NAT_ORIGIN] = "origin"};
enum { TREE_KIND, TREE_TREE, TREE_SEGSIZE, TREE_HOSTS, TREE_ORIGIN, TREE_N };
static const char *const tree_fields[TREE_N + 1] = {[TREE_KIND] = "kind",
                                                    [TREE_TREE] = "tree",
                                                    [TREE_SEGSIZE] = "segsize",
                                                    [TREE_HOSTS] = "hosts",
                                                    [TREE_ORIGIN] = "origin"};
enum { EX_KIND, EX_GROUPS, EX_TREES, EX_SEGSIZE, EX_ORIGIN, EX_N };
static const char *const exchange_fields[EX_N + 1] = {
    [EX_KIND] = "kind",       [EX_GROUPS] = "groups", [EX_TREES] = "trees",
    [EX_SEGSIZE] = "segsize", [EX_ORIGIN] = "origin"};
enum { WRAP_WHAT, WRAP_INNER, WRAP_ORIGIN, WRAP_N };
static const char *const wrapper_fields[WRAP_N + 1] = {
    [WRAP_WHAT] = "what", [WRAP_INNER] = "inner", [WRAP_ORIGIN] = "origin"};
enum {
    PROC_KIND,
    PROC_PROCEDURE,
    PROC_NAME,
    PROC_ORIGIN,
    PROC_OVER,
    PROC_OVER_DESC,
    PROC_OVER_LOWERED,
    PROC_N
};
static const char *const scheme_fields[PROC_N + 1] = {[PROC_KIND] = "kind",
                                                      [PROC_PROCEDURE] = "procedure",
                                                      [PROC_NAME] = "name",
                                                      [PROC_ORIGIN] = "origin",
                                                      [PROC_OVER] = "over",
                                                      [PROC_OVER_DESC] = "over-desc",
                                                      [PROC_OVER_LOWERED] = "over-lowered"};
enum { SCHED_KIND, SCHED_NAME, SCHED_DESC, SCHED_ORIGIN, SCHED_N };
static const char *const schedule_fields[SCHED_N + 1] = {[SCHED_KIND] = "kind",
                                                         [SCHED_NAME] = "name",
                                                         [SCHED_DESC] = "description",
                                                         [SCHED_ORIGIN] = "origin"};

#define LOWERED(n, f) {.module = "compi internal", .name = n, .fields = f, .complete = 1}
static bridge_layout_t lowered_layouts[LOWERED_NTAGS] = {
    [LOWERED_NATIVE] = LOWERED("<lowered-native>", native_fields),
    [LOWERED_TREE] = LOWERED("<lowered-tree>", tree_fields),
    [LOWERED_EXCHANGE] = LOWERED("<lowered-exchange>", exchange_fields),
    [LOWERED_WRAPPER] = LOWERED("<lowered-wrapper>", wrapper_fields),
    [LOWERED_SCHEME] = LOWERED("<lowered-scheme>", scheme_fields),
    [LOWERED_SCHEDULE] = LOWERED("<lowered-schedule>", schedule_fields),
};
#undef LOWERED

/* which field of each type holds the origin, for messages about any of them */
static const int lowered_origin[LOWERED_NTAGS] = {
    [LOWERED_NATIVE] = NAT_ORIGIN,     [LOWERED_TREE] = TREE_ORIGIN,
    [LOWERED_EXCHANGE] = EX_ORIGIN,    [LOWERED_WRAPPER] = WRAP_ORIGIN,
    [LOWERED_SCHEME] = PROC_ORIGIN,     [LOWERED_SCHEDULE] = SCHED_ORIGIN,
};

/* a tree of (compi trees), as the creator built it */
enum { TREE_SIZE, TREE_ROOT, TREE_PARENTS, TREE_CHILDREN, TREE_NFIELDS };
static const char *const scm_tree_fields[TREE_NFIELDS + 1] = {[TREE_SIZE] = "size",
                                                              [TREE_ROOT] = "root",
                                                              [TREE_PARENTS] = "parents",
                                                              [TREE_CHILDREN] = "children"};
static bridge_layout_t scm_tree_layout = {
    .module = "compi trees", .name = "<tree>", .fields = scm_tree_fields, .complete = 1};

bridge_layout_t *const bridge_closure_layouts[] = {
    &lowered_layouts[LOWERED_NATIVE],  &lowered_layouts[LOWERED_TREE],
    &lowered_layouts[LOWERED_EXCHANGE], &lowered_layouts[LOWERED_WRAPPER],
    &lowered_layouts[LOWERED_SCHEME],  &lowered_layouts[LOWERED_SCHEDULE],
    &scm_tree_layout,
};
const size_t bridge_closure_nlayouts = COMPI_ARRAY_SIZE(bridge_closure_layouts);

/* the type of lowered description `v', or LOWERED_NTAGS for anything else */
static lowered_tag_t bridge__tag(SCM v)
{
    for (int t = 0; t < LOWERED_NTAGS; t++) {
        if (bridge_is(&lowered_layouts[t], v)) {
            return (lowered_tag_t)t;
        }
    }
    return LOWERED_NTAGS;
}

static SCM bridge__field(lowered_tag_t t, SCM v, int f)
{
    return bridge_ref(&lowered_layouts[t], v, f);
}

static long bridge__long(lowered_tag_t t, SCM v, int f)
{
    return scm_to_long(bridge__field(t, v, f));
}

static SCM bridge__origin(SCM v)
{
    lowered_tag_t t = bridge__tag(v);
    return t < LOWERED_NTAGS ? bridge__field(t, v, lowered_origin[t])
                             : scm_from_utf8_string("a creator");
}

/* ---- native algorithms ------------------------------------------------------------- */

/* "linear binomial kary"; only those with a schedule when `sched` */
static void bridge__algo_names(coll_kind_t kind, int sched, char *buf, size_t len)
{
    size_t n, used = 0;
    const coll_algo_t *const *all = coll_algo_all(&n);

    buf[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++) {
        if (all[i]->kind == kind && (!sched || all[i]->sched != NULL || all[i]->tree != NULL)) {
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "", all[i]->name);
        }
    }
    if (buf[0] == '\0') {
        snprintf(buf, len, "none yet");
    }
}

/* Why might usable() refuse?  It answers yes or no; name the likely reason. */
static void bridge__refusal(const coll_call_t *call, const coll_params_t *p, char *buf, size_t len)
{
    if (call->op != NULL && !call->op->commutative) {
        snprintf(buf, len,
                 "the op %s is not commutative and this algorithm combines out of rank "
                 "order (the defaults of compi/defaults.scm show which ones keep it)",
                 call->op->name ? call->op->name : "user");
    } else {
        snprintf(buf, len,
                 "it refuses %d ranks, %zu bytes with fanout=%ld, segsize=%ld (see "
                 "compi_info --algorithms)",
                 call->comm->size, call->bytes, p->fanout, p->segsize);
    }
}

/* a native description's #:ranks (a list of non-negative integers, (compi private)
   checked) into ranks[BRIDGE_MAX_RANKS]: the count, or -1 with the reason in why when a
   rank is not one of the communicator's, comes twice, or there are too many */
#define BRIDGE_MAX_RANKS 1024
static int bridge__ranks(SCM list, int size, int *ranks, char *why, size_t len)
{
    int n = 0;
    for (; scm_is_pair(list); list = scm_cdr(list)) {
        long r = scm_to_long(scm_car(list));
        if (r >= size) {
            snprintf(why, len, "#:ranks names rank %ld of a communicator of %d ranks", r, size);
            return -1;
        }
        for (int i = 0; i < n; i++) {
            if (ranks[i] == r) {
                snprintf(why, len, "#:ranks names rank %ld twice", r);
                return -1;
            }
        }
        if (n == BRIDGE_MAX_RANKS) {
            snprintf(why, len, "#:ranks names more than %d ranks", BRIDGE_MAX_RANKS);
            return -1;
        }
        ranks[n++] = (int)r;
    }
    return n;
}

static compi_status_t bridge__native(bridge_build_t *b, SCM v, SCM call, coll_closure_t **c_p)
{
    const lowered_tag_t t = LOWERED_NATIVE;
    coll_kind_t kind = (coll_kind_t)bridge__long(t, v, NAT_KIND);
    char name[64], why[256];
    coll_params_t params = {.fanout = bridge__long(t, v, NAT_FANOUT),
                            .segsize = bridge__long(t, v, NAT_SEGSIZE)};
    SCM origin = bridge__field(t, v, NAT_ORIGIN);
    int ranks[BRIDGE_MAX_RANKS];

    params.nranks =
        bridge__ranks(bridge__field(t, v, NAT_RANKS), b->call->comm->size, ranks, why, sizeof(why));
    if (params.nranks < 0) {
        return bridge__fail(b, origin, call, "%s", why);
    }
    params.ranks = ranks;
    bridge_scm_to_buf(bridge__field(t, v, NAT_ALGORITHM), name, sizeof(name));
    const coll_algo_t *algo = coll_algo_find(kind, name);
    if (algo == NULL) {
        char names[512];
        bridge__algo_names(kind, 0, names, sizeof(names));
        return bridge__fail(b, origin, call, "%s has no native algorithm %s (%s algorithms: %s)",
                            coll_kind_name(kind), name, coll_kind_name(kind), names);
    }
    if (comm_is_inter(b->call->comm) != (algo->inter != 0)) {
        /* an intercommunicator's ranks name the other group: an algorithm of the other
           kind would run, and run wrongly */
        return bridge__fail(b, origin, call,
                            "%s:%s serves %s calls only, and this call is on an %s "
                            "(creators see it as (call-inter? call)); %s '%s %s",
                            coll_kind_name(kind), name,
                            algo->inter ? "intercommunicator" : "intracommunicator",
                            comm_is_inter(b->call->comm) ? "intercommunicator"
                                                         : "intracommunicator",
                            comm_is_inter(b->call->comm) ? "the algorithm for it is (native"
                                                         : "any algorithm but (native",
                            coll_kind_name(kind), "'inter)");
    }
    if (b->call->mode != COLL_MODE_BLOCKING && algo->sched == NULL && algo->tree == NULL) {
        char names[512];
        bridge__algo_names(kind, 1, names, sizeof(names));
        return bridge__fail(b, origin, call,
                            "%s:%s cannot run %s (it has no schedule); %s algorithms "
                            "that can: %s (creators see the mode as (call-mode call))",
                            coll_kind_name(kind), name, coll_mode_name(b->call->mode),
                            coll_kind_name(kind), names);
    }
    if (algo->usable != NULL && !algo->usable(b->call, &params)) {
        bridge__refusal(b->call, &params, why, sizeof(why));
        return bridge__fail(b, origin, call, "%s:%s cannot serve this call: %s",
                            coll_kind_name(kind), name, why);
    }
    /* a tree algorithm becomes the tree executors' closure over its shape, built here
       where the communicator's size and the root are known */
    compi_status_t st;
    if ((*c_p = coll_closure_algo(algo, &params, b->call, &st)) == NULL) {
        return bridge__fail(b, origin, call, "%s:%s could not be built: %s", coll_kind_name(kind),
                            name, compi_status_string(st));
    }
    return COMPI_OK;
}

/* ---- trees --------------------------------------------------------------------------- */

static SCM bridge__tree_in_body(void *data)
{
    void **d = data; /* {tree, topo_tree_t **} */
    SCM tree = *(SCM *)d[0];
    return bridge_tree_in("tree-closure", bridge_ref(&scm_tree_layout, tree, TREE_SIZE),
                          bridge_ref(&scm_tree_layout, tree, TREE_ROOT),
                          bridge_ref(&scm_tree_layout, tree, TREE_PARENTS),
                          bridge_ref(&scm_tree_layout, tree, TREE_CHILDREN), d[1]);
}

static SCM bridge__tree_in_handler(void *data, SCM key, SCM args)
{
    return scm_from_utf8_string("its fields are not those of a tree of (compi trees)");
}

/* The tree of (compi trees) `tree' as a topo_tree_t (not validated): NULL and the
   reason in why when it cannot even be copied. */
static topo_tree_t *bridge__tree_of(SCM tree, char *why, size_t len)
{
    topo_tree_t *t = NULL;
    if (!bridge_is(&scm_tree_layout, tree)) {
        char what[200];
        bridge_scm_to_buf(tree, what, sizeof(what));
        snprintf(why, len, "%s is not a tree of (compi trees)", what);
        return NULL;
    }
    void *d[2] = {&tree, &t};
    SCM msg = scm_c_catch(SCM_BOOL_T, bridge__tree_in_body, d, bridge__tree_in_handler, NULL,
                          NULL, NULL);
    if (scm_is_true(msg)) {
        bridge_scm_to_buf(msg, why, len);
        return NULL;
    }
    return t;
}

static compi_status_t bridge__tree(bridge_build_t *b, SCM v, SCM call, coll_closure_t **c_p)
{
    const lowered_tag_t t = LOWERED_TREE;
    coll_kind_t kind = (coll_kind_t)bridge__long(t, v, TREE_KIND);
    coll_params_t params = {.segsize = bridge__long(t, v, TREE_SEGSIZE)};
    SCM origin = bridge__field(t, v, TREE_ORIGIN);
    compi_status_t st;
    char why[256];

    /* validated once, here, for the call: its size, its root, a non-commutative op */
    SCM scm_tree = bridge__field(t, v, TREE_TREE);
    topo_tree_t *tree = bridge__tree_of(scm_tree, why, sizeof(why));
    if (tree == NULL) {
        return bridge__fail(b, origin, call, "%s%s",
                            bridge_is(&scm_tree_layout, scm_tree) ? "invalid tree: " : "", why);
    }
    if (coll_tree_check_call(tree, b->call, why, sizeof(why)) != COMPI_OK) {
        topo_tree_free(tree);
        return bridge__fail(b, origin, call, "invalid tree: %s", why);
    }
    /* #:hosts: one group number per rank (tree-closure checked they are integers) */
    SCM hosts = bridge__field(t, v, TREE_HOSTS);
    int *group_of = NULL;
    if (scm_is_true(hosts)) {
        size_t n = scm_c_vector_length(hosts);
        if (n != (size_t)b->call->comm->size) {
            topo_tree_free(tree);
            return bridge__fail(b, origin, call,
                                "#:hosts has %zu group numbers for a communicator of %d ranks", n,
                                b->call->comm->size);
        }
        group_of = malloc(n * sizeof(int));
        if (group_of == NULL) {
            topo_tree_free(tree);
            return bridge__fail(b, origin, call, "out of memory");
        }
        for (size_t i = 0; i < n; i++) {
            group_of[i] = scm_to_int(scm_c_vector_ref(hosts, i));
        }
    }
    /* the closure takes the tree over, on failure too */
    *c_p = coll_closure_tree_host(kind, tree, &params, group_of, b->call, &st);
    free(group_of);
    if (*c_p == NULL) {
        return st == COMPI_ERR_UNSUPPORTED
                   ? bridge__fail(b, origin, call,
                                  "%s has no tree executor (trees run barrier, bcast, reduce, "
                                  "allreduce, gather, scatter and allgather)",
                                  coll_kind_name(kind))
                   : bridge__fail(b, origin, call, "the tree closure could not be built: %s",
                                  compi_status_string(st));
    }
    return COMPI_OK;
}

/* ---- the exchange allreduce ---------------------------------------------------------- */

/* the arguments of bridge_groups_in for the trees of an exchange closure: each tree of
   (compi trees) as #(SIZE ROOT PARENTS CHILDREN), anything else as it is */
static SCM bridge__tree_args(SCM trees)
{
    SCM out = SCM_EOL;
    for (; scm_is_pair(trees); trees = scm_cdr(trees)) {
        SCM t = scm_car(trees);
        if (bridge_is(&scm_tree_layout, t)) {
            t = scm_vector(scm_list_4(bridge_ref(&scm_tree_layout, t, TREE_SIZE),
                                      bridge_ref(&scm_tree_layout, t, TREE_ROOT),
                                      bridge_ref(&scm_tree_layout, t, TREE_PARENTS),
                                      bridge_ref(&scm_tree_layout, t, TREE_CHILDREN)));
        }
        out = scm_cons(t, out);
    }
    return scm_reverse_x(out, scm_is_null(trees) ? SCM_EOL : trees);
}

typedef struct bridge_groups_args {
    SCM groups, trees;
    int size;
    bridge_groups_t *g;
} bridge_groups_args_t;

static SCM bridge__groups_body(void *data)
{
    bridge_groups_args_t *a = data;
    return bridge_groups_in(a->groups, bridge__tree_args(a->trees), a->size, a->g);
}

static SCM bridge__groups_handler(void *data, SCM key, SCM args)
{
    return scm_from_utf8_string("a tree's fields are not those of a tree of (compi trees)");
}

static compi_status_t bridge__exchange(bridge_build_t *b, SCM v, SCM call, coll_closure_t **c_p)
{
    const lowered_tag_t t = LOWERED_EXCHANGE;
    coll_params_t params = {.segsize = bridge__long(t, v, EX_SEGSIZE)};
    SCM origin = bridge__field(t, v, EX_ORIGIN);
    coll_exchange_t *x = NULL;
    bridge_groups_t g;
    compi_status_t st;
    char why[512];

    /* the groups and each group's tree, checked and mapped once (scheme/tree_ext.c) */
    bridge_groups_args_t args = {.groups = bridge__field(t, v, EX_GROUPS),
                                 .trees = bridge__field(t, v, EX_TREES),
                                 .size = b->call->comm->size,
                                 .g = &g};
    SCM msg = scm_c_catch(SCM_BOOL_T, bridge__groups_body, &args, bridge__groups_handler, NULL,
                          NULL, NULL);
    if (scm_is_true(msg)) {
        bridge_scm_to_buf(msg, why, sizeof(why));
        return bridge__fail(b, origin, call, "%s", why);
    }
    st = coll_exchange_from_parents(g.size, g.ngroups, g.group_of, g.coord, g.parent, g.order,
                                    &x);
    if (st != COMPI_OK) {
        return bridge__fail(b, origin, call, "cannot build %d groups of %d ranks: %s", g.ngroups,
                            g.size, compi_status_string(st));
    }
    /* the whole structure against the call (a non-commutative op needs ordered groups) */
    if (coll_exchange_check_call(x, b->call, why, sizeof(why)) != COMPI_OK) {
        coll_exchange_free(x);
        return bridge__fail(b, origin, call, "invalid groups: %s", why);
    }
    /* the closure takes x over, on failure too */
    *c_p = coll_closure_exchange(x, &params, &st);
    return *c_p != NULL ? COMPI_OK
                        : bridge__fail(b, origin, call,
                                       "the exchange closure could not be built: %s",
                                       compi_status_string(st));
}

/* ---- Scheme closures ------------------------------------------------------------------ */

/* What run-closure built inside this Scheme closure: one C closure per description
   object it was given (eq?), made at its first use and kept with the Scheme closure, so
   every later call finds it by a scan of a few pointers.  The Scheme closure serves one
   key, so what was built for its first call serves them all, as in the trampoline's
   cache. */
#define SCHEME_INNER_MAX 8
#define SCHEME_SEQ_MAX 32 /* closures an agreed run may run that a later one can replay */

typedef struct scheme_inner {
    SCM desc;                /* protected until scheme__free */
    coll_closure_t *closure; /* one reference */
} scheme_inner_t;

typedef struct scheme_state {
    SCM proc;     /* protected until scheme__free */
    char *origin; /* "creator NAME (...) returned ...", for run-time errors */
    scheme_inner_t inner[SCHEME_INNER_MAX];
    size_t ninner;
    /* the call record of the first run (protected; #f before it), reused by every run
       whose call has the same datatypes and op: the other fields are the key's and the
       communicator's, the same for every call this closure serves (the communicator's
       name as it was at the first run) */
    SCM record;
    const void *rec_sdt, *rec_rdt, *rec_op;
    /* what its last run under agreement ran (every rank alike), in order: indices into
       inner; nseq -1 when not known (no such run, a closure built for one call, or more
       than SCHEME_SEQ_MAX) */
    unsigned char seq[SCHEME_SEQ_MAX];
    int nseq;
} scheme_state_t;

static void *scheme__unprotect(void *p)
{
    scheme_state_t *s = p;
    scm_gc_unprotect_object(s->proc);
    if (scm_is_true(s->record)) {
        scm_gc_unprotect_object(s->record);
    }
    for (size_t i = 0; i < s->ninner; i++) {
        scm_gc_unprotect_object(s->inner[i].desc);
    }
    return p;
}

static void scheme__free(void *p)
{
    scheme_state_t *s = p;
    /* the closure may die outside Guile mode (with its communicator) */
    scm_with_guile(scheme__unprotect, s);
    for (size_t i = 0; i < s->ninner; i++) {
        coll_closure_release(s->inner[i].closure);
    }
    free(s->origin);
    free(s);
}

typedef struct scheme_run_args {
    compi_status_t st;
    coll_closure_t *self;
    const coll_call_t *call;
    char *errbuf;
    size_t len;
    int ran; /* descriptions run-closure ran */
} scheme_run_args_t;

static void *scheme__run_in_guile(void *p)
{
    scheme_run_args_t *a = p;
    scheme_state_t *s = a->self->state;
    bridge_run_t run;
    size_t left = 0;

    const coll_call_t *c = a->call;
    SCM record;
    if (scm_is_true(s->record) && s->rec_sdt == c->sdt && s->rec_rdt == c->rdt &&
        s->rec_op == c->op && bridge_call_record_rearm(s->record, c)) {
        record = s->record;
    } else {
        record = bridge_call_record(c, 1);
        if (scm_is_false(s->record)) {
            s->record = scm_gc_protect_object(record);
            s->rec_sdt = c->sdt;
            s->rec_rdt = c->rdt;
            s->rec_op = c->op;
        }
    }
    bridge_run_begin(&run, c);
    run.owner = s;
    a->st = bridge_invoke(bridge_procs.run_scheme_closure, scm_list_2(s->proc, record), NULL,
                          a->errbuf, a->len);
    a->ran = run.ran;
    compi_status_t st = bridge_run_end(&run, record, &left);
    if (a->st == COMPI_OK && st != COMPI_OK) {
        snprintf(a->errbuf, a->len, "a transfer it left unfinished failed: %s",
                 compi_status_string(st));
        a->st = st;
    } else if (a->st == COMPI_OK && left > 0) {
        snprintf(a->errbuf, a->len,
                 "it returned with %zu request%s not waited for (finish them with wait or "
                 "wait-all)",
                 left, left == 1 ? "" : "s");
        a->st = COMPI_ERR_CONFIG;
    }
    /* the record must stay reachable until here: it keeps temporary buffers alive */
    scm_remember_upto_here_1(record);
    return a;
}

/*
 * A run not under agreement failed after it ran `ran' closures with run-closure: the
 * other ranks, whose runs did not fail, are running the rest of what they run, so this
 * rank runs its part too, so that they are not left waiting (the call still fails
 * here): the closures its last agreed run ran after the first `ran' (every rank ran those
 * alike, in that order), or, when no agreed run is known, what `next' gave it if it ran
 * nothing.  Under agreement the others wait in the agreement instead, which this rank's
 * failure ends.
 */
static void scheme__finish(const scheme_state_t *s, const coll_call_t *call, int ran)
{
    if (s->nseq < 0) {
        if (ran == 0 && s->ninner > 0) {
            (void)s->inner[0].closure->fn(s->inner[0].closure, call);
        }
        return;
    }
    for (int i = ran; i < s->nseq; i++) {
        coll_closure_t *inner = s->inner[s->seq[i]].closure;
        (void)inner->fn(inner, call);
    }
}

static compi_status_t scheme__fn(coll_closure_t *self, const coll_call_t *call)
{
    char err[1024];
    scheme_run_args_t a = {
        .st = COMPI_ERR_INTERNAL, .self = self, .call = call, .errbuf = err, .len = sizeof(err)};
    scheme_state_t *s = self->state;
    int agreed = coll_run_agree_current() != NULL;

    if (agreed) {
        s->nseq = 0; /* recorded anew by run-closure */
    }
    compi_status_t st = bridge_with_guile(scheme__run_in_guile, &a.st, err, sizeof(err));
    if (st != COMPI_OK) {
        if (!agreed) {
            scheme__finish(s, call, a.ran);
        }
        /* said with the call's error, under the communicator's handler: not printed */
        coll_run_error_set("Scheme closure %s (%s) failed: %s", self->name, s->origin, err);
    }
    return st;
}

/* "FILE:LINE:COL" where PROC was written, when Guile knows it (a compiled procedure: the
   first of its program-sources not in the evaluator), else "" (a procedure of an
   interpreted config: Guile keeps no location for those) */
static void scheme__location(SCM proc, char *buf, size_t len)
{
    static SCM program_sources = SCM_BOOL_F; /* protected once, kept for the process */
    char err[128], file[384];
    SCM r;

    buf[0] = '\0';
    if (scm_is_false(program_sources)) {
        program_sources =
            scm_gc_protect_object(scm_c_public_ref("system vm program", "program-sources"));
    }
    /* not a program (an applicable struct): no location, and that is no error */
    if (bridge_call(program_sources, scm_list_1(proc), &r, err, sizeof(err)) != COMPI_OK) {
        return;
    }
    for (; scm_is_pair(r); r = scm_cdr(r)) {
        SCM e = scm_car(r); /* (ip file line . col) */
        if (!scm_is_pair(e) || !scm_is_pair(scm_cdr(e)) || !scm_is_string(scm_cadr(e)) ||
            !scm_is_pair(scm_cddr(e)) || !scm_is_integer(scm_caddr(e)) ||
            !scm_is_integer(scm_cdddr(e))) {
            continue;
        }
        bridge_scm_to_buf(scm_cadr(e), file, sizeof(file));
        if (strstr(file, "ice-9/eval.scm") != NULL) {
            continue; /* the evaluator's own code: an interpreted procedure */
        }
        snprintf(buf, len, "%s:%ld:%ld", file, scm_to_long(scm_caddr(e)) + 1,
                 scm_to_long(scm_cdddr(e)) + 1);
        return;
    }
}

/* A Scheme procedure's signature (coll.h, "Closure identity"): its kind, its name, its
   source location where Guile knows it, and its origin, which names the creator that
   returned it, where that creator was installed (file, line, column) and the procedure's
   name and arity.  Guile keeps no source location for procedures of an interpreted
   config, so two anonymous procedures of one arity from one creator look the same. */
static compi_status_t bridge__closure(bridge_build_t *b, SCM v, SCM call, coll_closure_t **c_p);

static uint64_t scheme__signature(coll_kind_t kind, const char *pname, SCM proc,
                                  const char *origin)
{
    char where[512];
    scheme__location(proc, where, sizeof(where));
    uint64_t h = coll_sig_long(coll_sig_str(COLL_SIG_SEED, "scheme"), kind);
    return coll_sig_str(coll_sig_str(coll_sig_str(h, pname), where), origin);
}

static compi_status_t bridge__scheme(bridge_build_t *b, SCM v, SCM call, coll_closure_t **c_p)
{
    const lowered_tag_t t = LOWERED_SCHEME;
    coll_kind_t kind = (coll_kind_t)bridge__long(t, v, PROC_KIND);
    char pname[64], over[96], name[96], origin[512];
    scheme_state_t *s = calloc(1, sizeof(*s));

    bridge_scm_to_buf(bridge__field(t, v, PROC_NAME), pname, sizeof(pname));
    bridge_scm_to_buf(bridge__field(t, v, PROC_ORIGIN), origin, sizeof(origin));
    /* a wrapper: "allreduce:scheme(timed-run) over allreduce:ring" */
    bridge_scm_to_buf(bridge__field(t, v, PROC_OVER), over, sizeof(over));
    snprintf(name, sizeof(name), "%s:scheme(%s)", coll_kind_name(kind), pname);
    size_t used = strlen(name);
    if (over[0] != '\0' && used < sizeof(name)) {
        snprintf(name + used, sizeof(name) - used, " over %.80s", over);
    }
    if (s == NULL || (s->origin = strdup(origin)) == NULL) {
        free(s);
        return bridge__fail(b, bridge__field(t, v, PROC_ORIGIN), call, "out of memory");
    }
    s->record = SCM_BOOL_F;
    s->nseq = -1;
    s->proc = scm_gc_protect_object(bridge__field(t, v, PROC_PROCEDURE));
    *c_p = coll_closure_new(scheme__fn, s, scheme__free, name);
    if (*c_p == NULL) {
        scheme__free(s);
        return bridge__fail(b, bridge__field(t, v, PROC_ORIGIN), call, "out of memory");
    }
    (*c_p)->is_scheme = 1;
    uint64_t sig = coll_sig_str(scheme__signature(kind, pname, s->proc, origin), over);
    /* a wrapper: what `next' gave it is built here, at the miss, as run-closure would
       build it at its first use, and signed into the wrapper's signature, so that the
       agreement compares what the wrapper will run (a creator that builds another tree
       on some ranks is caught behind any number of wrappers), and an invalid inner
       description fails the miss, naming its creator */
    SCM ov = bridge__field(t, v, PROC_OVER_LOWERED);
    if (scm_is_true(ov)) {
        coll_closure_t *inner;
        compi_status_t st = bridge__closure(b, ov, call, &inner);
        if (st != COMPI_OK) {
            coll_closure_release(*c_p);
            *c_p = NULL;
            return st;
        }
        s->inner[s->ninner++] = (scheme_inner_t){
            .desc = scm_gc_protect_object(bridge__field(t, v, PROC_OVER_DESC)), .closure = inner};
        sig = coll_sig_long(coll_sig_str(sig, "over"), (long)inner->signature);
    }
    (*c_p)->signature = sig;
    return COMPI_OK;
}

/* ---- run-closure: a description run from inside a Scheme closure ------------------ */

/* Builds the C closure of `desc' for the running call: lowered by (compi internal)
   lower-for-run, then made as at a miss.  On failure, the message is in err. */
static compi_status_t scheme__build_inner(SCM desc, SCM call, const coll_call_t *c,
                                          coll_closure_t **c_p, char *err, size_t len)
{
    SCM v;
    compi_status_t st =
        bridge_invoke(bridge_procs.lower_for_run, scm_list_2(desc, call), &v, err, len);
    if (st != COMPI_OK) {
        return st;
    }
    bridge_build_t b = {.st = COMPI_ERR_INTERNAL, .call = c, .errbuf = err, .len = len};
    return bridge__closure(&b, v, SCM_BOOL_F, c_p);
}

/* (run-closure DESC CALL): runs closure description DESC (what `next' returned: native,
   tree, schedule, exchange, wrapper or another Scheme closure) on CALL, the call the
   running Scheme closure received, with its buffers, counts, datatypes, op and root.
   The first use of a description builds its closure; later calls only run it. */
static SCM prim_run_closure(SCM desc, SCM call)
{
    static const char who[] = "run-closure";
    const coll_call_t *c = bridge_live_call(call, who);
    bridge_run_t *run = bridge_run_current();
    scheme_state_t *s = run->owner;
    coll_closure_t *inner = NULL;
    if (s == NULL) {
        scm_misc_error(who, "only a Scheme closure may run a description", SCM_EOL);
    }
    int temporary = 0, idx = -1;
    char err[1024];

    for (size_t i = 0; i < s->ninner; i++) {
        if (scm_is_eq(s->inner[i].desc, desc)) {
            inner = s->inner[i].closure;
            idx = (int)i;
            break;
        }
    }
    if (inner == NULL) {
        if (scheme__build_inner(desc, call, c, &inner, err, sizeof(err)) != COMPI_OK) {
            scm_misc_error(who, "~A", scm_list_1(scm_from_utf8_string(err)));
        }
        if (s->ninner < SCHEME_INNER_MAX) {
            idx = (int)s->ninner;
            s->inner[s->ninner++] =
                (scheme_inner_t){.desc = scm_gc_protect_object(desc), .closure = inner};
        } else {
            /* a closure that makes a new description on every call: built and freed
               each time (correct, and as slow as a miss) */
            temporary = 1;
        }
    }
    coll_run_agree_t *ag = coll_run_agree_current();
    compi_status_t st = COMPI_OK;
    if (ag != NULL && !ag->failed) {
        /* a run under agreement: every rank must be about to run the same closure */
        uint64_t sig = coll_sig_long(coll_sig_str(COLL_SIG_SEED, "run-closure"), ag->index++);
        st = ag->fn(ag->ctx, inner->name, coll_sig_long(sig, (long)inner->signature));
        if (st != COMPI_OK) {
            ag->failed = 1;
            ag->st = st;
        } else if (s->nseq >= 0 && s->nseq < SCHEME_SEQ_MAX && idx >= 0) {
            s->seq[s->nseq++] = (unsigned char)idx; /* what a later run may replay */
        } else {
            s->nseq = -1;
        }
    }
    if (ag == NULL || !ag->failed) {
        run->ran++;
        st = inner->fn(inner, c);
        if (st != COMPI_OK) {
            const char *why = coll_run_error_take();
            snprintf(err, sizeof(err), "%s failed: %s", inner->name,
                     why != NULL ? why : compi_status_string(st));
        }
    } else {
        snprintf(err, sizeof(err), "the ranks were about to run different closures (%s here)",
                 inner->name);
        st = ag->st;
    }
    if (temporary) {
        coll_closure_release(inner);
    }
    if (st != COMPI_OK) {
        scm_misc_error(who, "~A", scm_list_1(scm_from_utf8_string(err)));
    }
    return SCM_UNSPECIFIED;
}

const bridge_prim_t bridge_closure_prims[] = {
    {.name = "run-closure", .req = 2, .fn = (scm_t_subr)prim_run_closure},
};
const size_t bridge_closure_nprims = COMPI_ARRAY_SIZE(bridge_closure_prims);

/* ---- schedules written in Scheme (bridge_sched.c) ----------------------------------- */

static compi_status_t bridge__schedule(bridge_build_t *b, SCM v, SCM call, coll_closure_t **c_p)
{
    const lowered_tag_t t = LOWERED_SCHEDULE;
    char why[768];
    if (bridge_sched_closure(b->call, bridge__field(t, v, SCHED_NAME),
                             bridge__field(t, v, SCHED_DESC), c_p, why,
                             sizeof(why)) != COMPI_OK) {
        return bridge__fail(b, bridge__field(t, v, SCHED_ORIGIN), call, "%s", why);
    }
    return COMPI_OK;
}

/* ---- descriptions ---------------------------------------------------------------------- */

/* profiling or tracing around the inner description: the wrapper takes its own
   reference on the inner closure */
static compi_status_t bridge__wrapper(bridge_build_t *b, SCM v, SCM call, coll_closure_t **c_p)
{
    const lowered_tag_t t = LOWERED_WRAPPER;
    SCM what = bridge__field(t, v, WRAP_WHAT), origin = bridge__field(t, v, WRAP_ORIGIN);
    int profile = scm_is_eq(what, scm_from_utf8_symbol("profiling"));
    if (!profile && !scm_is_eq(what, scm_from_utf8_symbol("tracing"))) {
        char w[64];
        bridge_scm_to_buf(what, w, sizeof(w));
        return bridge__fail(b, origin, call, "%s is not a wrapper C knows (profiling, tracing)",
                            w);
    }
    coll_closure_t *inner;
    compi_status_t st = bridge__closure(b, bridge__field(t, v, WRAP_INNER), call, &inner);
    if (st != COMPI_OK) {
        return st;
    }
    *c_p = profile ? coll_wrap_profile(inner) : coll_wrap_trace(inner);
    coll_closure_release(inner);
    if (*c_p == NULL) {
        return bridge__fail(b, origin, call, "out of memory");
    }
    return COMPI_OK;
}

/* A nonblocking or persistent call needs a closure that can run as a schedule. */
static compi_status_t bridge__blocking_only(bridge_build_t *b, SCM v, SCM call,
                                            const char *what)
{
    char names[512];
    coll_kind_t kind = b->call->kind;
    bridge__algo_names(kind, 1, names, sizeof(names));
    return bridge__fail(b, bridge__origin(v), call,
                        "%s closure cannot run %s yet; return a native algorithm "
                        "with a schedule, or a (schedule ...), when (call-mode call) is "
                        "nonblocking or persistent (%s: %s)",
                        what, coll_mode_name(b->call->mode), coll_kind_name(kind), names);
}

static compi_status_t bridge__closure(bridge_build_t *b, SCM v, SCM call, coll_closure_t **c_p)
{
    int blocking = b->call->mode == COLL_MODE_BLOCKING;
    lowered_tag_t tag = bridge__tag(v);

    *c_p = NULL;
    if (comm_is_inter(b->call->comm) &&
        (tag == LOWERED_SCHEDULE || tag == LOWERED_TREE || tag == LOWERED_EXCHANGE)) {
        return bridge__fail(b, bridge__origin(v), call,
                            "%s closures run on intracommunicators only, and this %s call is "
                            "on an intercommunicator ((call-inter? call)); return (native '%s "
                            "'inter) for it",
                            tag == LOWERED_TREE ? "tree" : tag == LOWERED_SCHEDULE ? "schedule"
                                                                                   : "exchange",
                            coll_kind_name(b->call->kind), coll_kind_name(b->call->kind));
    }
    switch (tag) {
    case LOWERED_NATIVE:
        return bridge__native(b, v, call, c_p);
    case LOWERED_SCHEDULE:
        return bridge__schedule(b, v, call, c_p);
    case LOWERED_TREE:
        return bridge__tree(b, v, call, c_p);
    case LOWERED_EXCHANGE:
        return blocking ? bridge__exchange(b, v, call, c_p)
                        : bridge__blocking_only(b, v, call, "an exchange");
    case LOWERED_SCHEME:
        return blocking ? bridge__scheme(b, v, call, c_p)
                        : bridge__blocking_only(b, v, call, "a Scheme");
    case LOWERED_WRAPPER:
        return bridge__wrapper(b, v, call, c_p);
    case LOWERED_NTAGS:
        break;
    }
    char what[256];
    bridge_scm_to_buf(v, what, sizeof(what));
    snprintf(b->errbuf, b->len,
             "internal error: (compi internal) lowered a description to %s, which is none of "
             "the lowered records the bridge knows",
             what);
    return COMPI_ERR_INTERNAL;
}

/* who answered this thread's last miss: "creator NAME (KIND, installed at FILE:L:C)
   returned DESC" (per thread: read after the miss's agreement, which may let other
   threads' misses run at MPI_THREAD_MULTIPLE) */
static __thread char last_origin[512];
static int keep_origins; /* bridge_keep_origins: made only when someone will read it */

void bridge_keep_origins(int on)
{
    keep_origins = on;
}

const char *bridge_last_origin(void)
{
    return last_origin;
}

static void *bridge__build_in_guile(void *p)
{
    bridge_build_t *b = p;
    SCM r;

    SCM record = bridge_call_record(b->call, 0);
    b->st =
        bridge_invoke(bridge_procs.build_lowered_for, scm_list_1(record), &r, b->errbuf, b->len);
    if (b->st == COMPI_OK) {
        if (keep_origins) {
            bridge_scm_to_buf(bridge__origin(r), last_origin, sizeof(last_origin));
        }
        b->st = bridge__closure(b, r, record, &b->closure);
    }
    return b;
}

compi_status_t bridge_build_closure(const coll_call_t *call, coll_closure_t **closure_p,
                                    char *errbuf, size_t len)
{
    bridge_build_t b = {.st = COMPI_ERR_INTERNAL, .call = call, .errbuf = errbuf, .len = len};

    *closure_p = NULL;
    if (!bridge_is_initialized()) {
        snprintf(errbuf, len, "the Guile bridge is not initialized");
        return COMPI_ERR_INTERNAL;
    }
    compi_status_t st = bridge_with_guile(bridge__build_in_guile, &b.st, errbuf, len);
    if (st == COMPI_OK) {
        *closure_p = b.closure;
    }
    return st;
}
