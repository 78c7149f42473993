/*
 * tramp.c -- trampolines: key -> per-communicator closure cache -> closure.
 *
 * The cache is set-associative: TRAMP_WAYS entries per bucket, the bucket chosen by a
 * hash of the key.  A hit reads one bucket (one or two cache lines), adds one to the
 * cache's hit counter of its kind (for MPI_T) and makes one indirect call; nothing else
 * is written, nothing allocated or locked.  A miss asks the creators
 * (bridge_build_closure), agrees with the other ranks that every rank built the same
 * closure (coll_check_determinism, on by default: see "the agreement at the miss"), and
 * stores it, evicting the bucket's oldest entry when the bucket is full: the cache is
 * bounded by coll_cache_size entries per communicator.
 *
 *   key = (kind, mode, root, bytes, op, datatype) --hash--> bucket [ e0 e1 e2 e3 ]
 *
 * On an intercommunicator the key is the same: its cache is its own, and only its
 * closures (native 'inter algorithms) sit there.  The root's group of a rooted call
 * (MPI_ROOT at the root, MPI_PROC_NULL at the others, who know no counts, datatype or
 * op) packs root MPI_ROOT, bytes 0 and no op or datatype, so the whole group misses
 * together; the agreement at a miss runs
 * inside each group (the groups may choose apart: each side's closure only has to
 * speak the same protocol as the other's), and then, at every call, hit or miss, the
 * groups tell each other their verdicts (tramp_agree.c), so that a group whose miss
 * failed does not leave the other waiting in the collective.
 *
 * The mode (blocking, nonblocking, persistent) sits beside the kind in the first word;
 * tramp_run() packs it as the constant 0, so a blocking hit costs what it did before modes
 * existed.
 */
#include "trampolines/tramp.h"
#include "trampolines/tramp_agree.h"

#include "scheme/bridge.h"
#include "scheme/bridge_reconfig.h"
#include "core/comm/comm_coll.h"
#include "core/pml/pml.h"
#include "core/runtime/log.h"
#include "core/runtime/params.h"
#include "core/runtime/rte.h"
#include "core/coll/wrappers/summary.h"
#include "core/coll/wrappers/wrap.h"
#include "core/coll/executors/tree_closure.h"
#include "core/coll/shm.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRAMP_WAYS 4

typedef struct tramp_entry {
    tramp_key_t key;
    coll_closure_t *closure; /* NULL: empty */
} tramp_entry_t;

typedef struct tramp_cache {
    uint64_t mask; /* buckets - 1 */
    tramp_entry_t *buckets; /* [buckets * TRAMP_WAYS] */
    /* the MPI_T counters (tramp_cache_counts), per kind: a hit costs one increment, in the
       struct whose first line the lookup reads; no lock (one thread at a time is here) */
    unsigned long long hits[COLL_NKINDS];
    unsigned long long misses[COLL_NKINDS];
    /* cold: every cache of the process, for the flushes (tramp_flush) */
    compi_comm_t *comm;
    struct tramp_cache *prev, *next;
} tramp_cache_t;

static struct {
    unsigned buckets; /* per communicator, a power of two */
    int verbose;
    int agree; /* coll_check_determinism: the agreement at each miss */
    const char *summary; /* coll_summary: NULL, or the file (every closure wrapped) */
} tramp_cfg;

static tramp_cache_t *tramp_caches; /* every communicator's cache, newest first */
static char *tramp_list; /* the config list in force since the last reconfiguration */

/* `mode` is a constant at each call site (the call's own mode field is not read) */
static inline void key_pack(const coll_call_t *call, coll_mode_t mode, tramp_key_t *k)
{
    coll_key_t key;
    coll_key_of(call, &key);
    if (compi_unlikely(coll_call_in_root_group(call))) {
        /* an intercommunicator's root group: MPI_ROOT at the root, MPI_PROC_NULL at the
           others, whose arguments but root are not significant (bindings pass count 0 and
           MPI_BYTE there, with any op); one key for all of them, so they miss together:
           a key that kept the root's datatype would miss there alone, and its agreement
           would wait for the others' next miss */
        key.root = MPI_ROOT;
        key.bytes = 0;
        key.op = 0;
        key.datatype = 0;
    }
    k->w0 = ((uint64_t)mode << 8 | key.kind) << 32 | (uint32_t)key.root;
    k->w1 = key.bytes;
    k->w2 = (uint64_t)(uint32_t)key.op << 32 | (uint32_t)key.datatype;
}

static inline uint64_t key_hash(const tramp_key_t *k)
{
    uint64_t h = k->w0 * 0x9E3779B97F4A7C15ull ^ k->w1 * 0xC2B2AE3D27D4EB4Full ^
                 k->w2 * 0x165667B19E3779F9ull;
    return h ^ (h >> 29);
}

static inline int key_eq(const tramp_key_t *a, const tramp_key_t *b)
{
    return ((a->w0 ^ b->w0) | (a->w1 ^ b->w1) | (a->w2 ^ b->w2)) == 0;
}

static compi_status_t tramp_miss(tramp_cache_t *cache, const coll_call_t *call,
                                 const tramp_key_t *k, tramp_entry_t *bucket,
                                 coll_closure_t **c_p);

/* the cached closure of key k, or NULL; *bucket_p: where a miss will store it */
static inline coll_closure_t *lookup(tramp_cache_t *cache, const tramp_key_t *k,
                                     tramp_entry_t **bucket_p)
{
    tramp_entry_t *b = &cache->buckets[(key_hash(k) & cache->mask) * TRAMP_WAYS];
    for (int i = 0; i < TRAMP_WAYS; i++) {
        if (compi_likely(b[i].closure != NULL && key_eq(&b[i].key, k))) {
            return b[i].closure;
        }
    }
    *bucket_p = b;
    return NULL;
}

/* MPI_THREAD_MULTIPLE: a blocking closure waits with the library's lock dropped, and a
   flush on another thread (over a communicator that contains this one) may drop the
   cache's reference meanwhile; the run holds one of its own */
static compi_status_t __attribute__((noinline)) run_held(coll_closure_t *c,
                                                         const coll_call_t *call)
{
    coll_closure_retain(c);
    compi_status_t st = c->fn(c, call);
    coll_closure_release(c);
    return st;
}

/* drop key k's entry when it still holds c (a closure whose agreed first run failed) */
static void forget(tramp_cache_t *cache, const tramp_key_t *k, coll_closure_t *c)
{
    tramp_entry_t *b = NULL;
    if (cache == NULL || lookup(cache, k, &b) != c) {
        return;
    }
    b = &cache->buckets[(key_hash(k) & cache->mask) * TRAMP_WAYS];
    for (int i = 0; i < TRAMP_WAYS; i++) {
        if (b[i].closure == c) {
            coll_closure_release(c);
            memmove(&b[i], &b[i + 1], sizeof(b[0]) * (size_t)(TRAMP_WAYS - 1 - i));
            b[TRAMP_WAYS - 1].closure = NULL;
            return;
        }
    }
}

compi_status_t tramp_run(const coll_call_t *call)
{
    tramp_cache_t *cache = call->comm->coll;
    tramp_entry_t *b = NULL;
    coll_closure_t *c;
    tramp_key_t k;
    key_pack(call, COLL_MODE_BLOCKING, &k);
    if (compi_likely(cache != NULL) && compi_likely((c = lookup(cache, &k, &b)) != NULL)) {
        cache->hits[call->kind]++;
        return compi_likely(!pml_threaded()) ? c->fn(c, call) : run_held(c, call);
    }
    compi_status_t st = tramp_miss(cache, call, &k, b, &c);
    if (st != COMPI_OK) {
        return st;
    }
    if (c->is_scheme && tramp_cfg.agree == 1 && comm_local_size(call->comm) > 1) {
        /* a Scheme closure's first run is agreed on too (at coll_check_determinism 2
           every run: tramp__agree_runs): what it runs, and whether it raised */
        coll_closure_retain(c);
        st = tramp__agree_run(call, &k, c);
        if (st != COMPI_OK) {
            forget(call->comm->coll, &k, c); /* every rank: the next call misses again */
        }
        coll_closure_release(c);
        return st;
    }
    return compi_likely(!pml_threaded()) ? c->fn(c, call) : run_held(c, call);
}

compi_status_t tramp_start(const coll_call_t *call, struct compi_request **req_p)
{
    tramp_cache_t *cache = call->comm->coll;
    tramp_entry_t *b = NULL;
    coll_closure_t *c;
    tramp_key_t k;
    *req_p = NULL;
    /* nonblocking or persistent: the call's own mode (this path is not the blocking one) */
    key_pack(call, call->mode, &k);
    if (compi_likely(cache != NULL) && compi_likely((c = lookup(cache, &k, &b)) != NULL)) {
        cache->hits[call->kind]++;
        return c->start(c, call, req_p);
    }
    compi_status_t st = tramp_miss(cache, call, &k, b, &c);
    return st == COMPI_OK ? c->start(c, call, req_p) : st;
}

static void cache_free(compi_comm_t *comm)
{
    tramp_cache_t *cache = comm->coll;

    coll_shm_release(comm); /* the shared-memory collectives' segment, if any */
    if (cache == NULL) {
        return;
    }
    for (uint64_t i = 0; i < (cache->mask + 1) * TRAMP_WAYS; i++) {
        coll_closure_release(cache->buckets[i].closure);
    }
    if (cache->prev != NULL) {
        cache->prev->next = cache->next;
    } else {
        tramp_caches = cache->next;
    }
    if (cache->next != NULL) {
        cache->next->prev = cache->prev;
    }
    free(cache->buckets);
    free(cache);
    comm->coll = NULL;
}

static tramp_cache_t *cache_new(compi_comm_t *comm)
{
    tramp_cache_t *cache = calloc(1, sizeof(*cache));
    if (cache == NULL) {
        return NULL;
    }
    cache->buckets = calloc((size_t)tramp_cfg.buckets * TRAMP_WAYS, sizeof(tramp_entry_t));
    if (cache->buckets == NULL) {
        free(cache);
        return NULL;
    }
    cache->mask = tramp_cfg.buckets - 1;
    cache->comm = comm;
    cache->next = tramp_caches;
    if (tramp_caches != NULL) {
        tramp_caches->prev = cache;
    }
    tramp_caches = cache;
    return cache;
}

/* coll_verbose: the call and the closure with its signature (compi-tree prints the same
   signature for the same call and layout); 2: also the edges of its tree, one rank a line */
static void verbose_miss(const coll_call_t *call, const coll_closure_t *c)
{
    char what[256];
    const topo_tree_t *t;

    tramp__describe_call(call, what, sizeof(what));
    compi_log_info("coll: %s: %s -> %s%s, signature %016llx", what, bridge_last_origin(), c->name,
                   c->is_scheme
                       ? " (Scheme closure: runs in Guile; its signature does not see what it "
                         "closes over: its first run is agreed on as it runs)"
                       : "",
                   (unsigned long long)c->signature);
    if (tramp_cfg.verbose < 2 || (t = coll_closure_tree_of(c)) == NULL) {
        return;
    }
    for (int r = 0; r < t->size; r++) {
        char line[512];
        int n = snprintf(line, sizeof(line), "rank %d: parent %d, children", r, t->parent[r]);
        int i = t->child_off[r];
        for (; i < t->child_off[r + 1] && n < (int)sizeof(line) - 16; i++) {
            n += snprintf(line + n, sizeof(line) - (size_t)n, " %d", t->children[i]);
        }
        if (i < t->child_off[r + 1]) {
            snprintf(line + n, sizeof(line) - (size_t)n, " ...");
        } else if (t->child_off[r] == t->child_off[r + 1]) {
            snprintf(line + n, sizeof(line) - (size_t)n, " none");
        }
        compi_log_info("coll:   %s", line);
    }
}

/* build, agree on and cache the closure of a key not in the cache: *c_p (the cache's
   reference) */
static compi_status_t tramp_miss(tramp_cache_t *cache, const coll_call_t *call,
                                 const tramp_key_t *k, tramp_entry_t *bucket,
                                 coll_closure_t **c_p)
{
    char err[1024];
    coll_closure_t *c = NULL;
    compi_status_t st = COMPI_OK;

    err[0] = '\0';
    if (cache == NULL) {
        if ((cache = cache_new(call->comm)) == NULL) {
            st = COMPI_ERR_NO_MEMORY;
            snprintf(err, sizeof(err), "out of memory for the closure cache");
        } else {
            call->comm->coll = cache;
            bucket = &cache->buckets[(key_hash(k) & cache->mask) * TRAMP_WAYS];
        }
    }
    if (st == COMPI_OK) {
        st = bridge_build_closure(call, &c, err, sizeof(err));
    }
    if (st == COMPI_OK && call->mode != COLL_MODE_BLOCKING && c->start == NULL) {
        /* the bridge refuses these first, naming the creator; this is the last guard */
        char what[256];
        tramp__describe_call(call, what, sizeof(what));
        snprintf(err, sizeof(err), "%s: closure %s cannot serve %s calls (it has no schedule)",
                 what, c->name, coll_mode_name(call->mode));
        coll_closure_release(c);
        c = NULL;
        st = COMPI_ERR_CONFIG;
    }
    /* MPI lets a nonblocking or persistent collective's call return before the other
       ranks make theirs, so a blocking round there could deadlock a legal program: its
       agreement is the first round of its own schedule (tramp__gate_new), or, asked for
       (coll_check_determinism 2), the blocking round at the call.  An intercommunicator's
       gate also has its groups tell each other their verdicts, at every start (so even a
       group of one rank has a gate there, and at 2 too: a round at the call could not
       reach the other group's later starts); its blocking calls do the same at every
       call (tramp__inter_settle). */
    int size = comm_local_size(call->comm), inter = comm_is_inter(call->comm);
    int nb = call->mode != COLL_MODE_BLOCKING;
    int gated = nb && cache != NULL &&
                (tramp_cfg.agree == 1 ? size > 1 || inter : tramp_cfg.agree >= 2 && inter);
    int agreeing = !gated && size > 1 && tramp_cfg.agree >= (nb ? 2 : 1);
    int settled = !nb && tramp_cfg.agree >= 1 && inter;
    if (agreeing) {
        compi_status_t ast = tramp__agree(call, k, st, err, c);
        if (ast != COMPI_OK) {
            coll_closure_release(c);
            return settled ? tramp__inter_settle(call->comm, ast) : ast;
        }
    } else if (st != COMPI_OK && !gated) {
        tramp__error_set(1, "%s", err);
        return settled ? tramp__inter_settle(call->comm, st) : st;
    }
    cache->misses[call->kind]++;
    if (tramp_cfg.verbose > 0 && call->comm->rank == 0 && c != NULL) {
        verbose_miss(call, c);
    }

    /* coll_summary: the wrapper that counts (after the agreement, which it would not
       change: it keeps the inner closure's signature) */
    if (tramp_cfg.summary != NULL && c != NULL) {
        coll_closure_t *w = coll_wrap_summary(c, call->kind, call->mode, call->comm->name);
        if (w != NULL) {
            coll_closure_release(c);
            c = w;
        }
    }
    if (c != NULL && c->is_scheme && !nb && tramp_cfg.agree >= 1 && size > 1) {
        /* its first run is agreed on (tramp_run); at 2 every run, at 1 the later runs
           end with an exchange of their outcome */
        coll_closure_t *w =
            tramp_cfg.agree >= 2 ? tramp__agree_runs(c, k) : tramp__outcome_runs(c, call);
        if (w != NULL) {
            coll_closure_release(c);
            c = w;
        }
    }
    if (settled) {
        coll_closure_t *w = tramp__inter_wrap(c);
        coll_closure_release(c);
        if (w == NULL) {
            tramp__error_set(1, "out of memory for the agreement of a cache miss");
            return tramp__inter_settle(call->comm, COMPI_ERR_NO_MEMORY);
        }
        c = w;
    }
    if (gated) {
        coll_closure_t *g = tramp__gate_new(call, k, st, err, c);
        coll_closure_release(c);
        if (g == NULL) {
            tramp__error_set(1, "out of memory for the agreement of a cache miss");
            return COMPI_ERR_NO_MEMORY;
        }
        c = g;
    }

    /* the bucket's oldest entry goes (entries are kept oldest first) */
    int slot = TRAMP_WAYS - 1;
    for (int i = 0; i < TRAMP_WAYS; i++) {
        if (bucket[i].closure == NULL) {
            slot = i;
            break;
        }
    }
    if (bucket[slot].closure != NULL) {
        coll_closure_release(bucket[0].closure);
        memmove(&bucket[0], &bucket[1], sizeof(bucket[0]) * (TRAMP_WAYS - 1));
    }
    bucket[slot].key = *k;
    bucket[slot].closure = c;
    *c_p = c;
    return COMPI_OK;
}

compi_status_t tramp_init(void)
{
    long entries = param_register_int_range("coll_cache_size", 256, 1,
                                            (long)TRAMP_WAYS << 20,
                                            "Closures cached per communicator (rounded up to "
                                            "a multiple of 4 that is a power of two)");
    unsigned b = 1;
    while ((long)b * TRAMP_WAYS < entries && b < (1u << 20)) {
        b <<= 1;
    }
    tramp_cfg.buckets = b;
    tramp_cfg.verbose = (int)param_register_int(
        "coll_verbose", 0,
        "1: rank 0 prints, once per new key, the call and the closure built, with its "
        "signature (compi-tree prints the same one); 2: also each rank's parent and "
        "children when the closure runs a tree");
    tramp_cfg.agree = (int)param_register_int(
        "coll_check_determinism", 1,
        "1: each cache miss ends with an exchange of every rank's (status, closure "
        "signature, root, bytes), so a creator that fails on some ranks, or answers "
        "differently on different ranks, fails the call on every rank with one message "
        "instead of hanging: a blocking call's at the call, a nonblocking or persistent "
        "call's as the first round of its own schedule (MPI_I* returns at once; the "
        "request completes with the error); a blocking Scheme closure's first run is "
        "agreed on as it runs, and each later run ends with an exchange of its outcome (one "
        "small allreduce), so one that raises on a rank fails on every rank; 2: "
        "nonblocking and persistent misses agree at the call instead (the call waits for "
        "every rank's; not on an intercommunicator, whose groups then tell each other their "
        "verdicts at every call at 1 and 2), and every run of a Scheme closure is agreed "
        "on; 0: no agreement (a miss costs no communication, but such a creator hangs the "
        "job or gives wrong results)");
    bridge_keep_origins(tramp_cfg.verbose > 0);
    const char *summary = param_register_string(
        "coll_summary", "",
        "File for a per-run summary of the collectives: every closure the trampolines "
        "install is wrapped and counts calls, bytes and time per communicator, kind, size "
        "class and closure; MPI_Finalize writes every rank's rows there as CSV (drawn by "
        "compi-summary).  Empty: nothing is wrapped, nothing costs");
    tramp_cfg.summary = summary != NULL && *summary != '\0' ? summary : NULL;
    comm_set_free_hook(cache_free);
    return COMPI_OK;
}

compi_status_t tramp_summary_write(void)
{
    return tramp_cfg.summary != NULL ? coll_summary_write(tramp_cfg.summary) : COMPI_OK;
}

void tramp_finalize(void)
{
    coll_wrap_finalize();
    coll_summary_finalize();
    free(tramp_list);
    tramp_list = NULL;
}

/* ---- flushes and reconfiguration ------------------------------------------------------

   The creators are process-wide, but a cache must be flushed on every rank of its
   communicator or on none: a rank that misses while the others hit runs the agreement's
   allgather against their collective.  So a flush over `comm` (collective over it) drops
   the caches of the communicators whose members are all in `comm` -- each of their members
   takes part and drops the same ones -- and keeps those that reach processes outside it.
   Those keep their closures until their own ranks are flushed (or the communicators are
   freed); should their ranks then load different configs, the agreement at their next
   miss reports the different closures. */

static unsigned long tramp_flushes; /* caches dropped, for the coll_flush control variable */

static void cache_flush(tramp_cache_t *cache)
{
    for (uint64_t i = 0; i < (cache->mask + 1) * TRAMP_WAYS; i++) {
        coll_closure_release(cache->buckets[i].closure);
        cache->buckets[i].closure = NULL;
    }
    tramp_flushes++;
}

void tramp_flush_comm(compi_comm_t *comm)
{
    if (comm->coll != NULL) {
        cache_flush(comm->coll);
    }
}

size_t tramp_flush(compi_comm_t *comm)
{
    size_t n = 0;
    /* no need to look at the groups (an intercommunicator: its local group is what the
       flush covers, compared below) */
    int everyone = !comm_is_inter(comm) && comm->size == comm_world()->size;
    for (tramp_cache_t *c = tramp_caches; c != NULL; c = c->next) {
        if (everyone || c->comm == comm || comm_group_is_subset(comm, c->comm->group)) {
            cache_flush(c);
            n++;
        }
    }
    return n;
}

unsigned long tramp_flush_count(void)
{
    return tramp_flushes;
}

void tramp_cache_counts(const compi_comm_t *comm, unsigned long long *hits,
                        unsigned long long *misses)
{
    const tramp_cache_t *cache = comm->coll;
    for (int k = 0; k < COLL_NKINDS; k++) {
        hits[k] = cache != NULL ? cache->hits[k] : 0;
        misses[k] = cache != NULL ? cache->misses[k] : 0;
    }
}

const char *tramp_config_list(void)
{
    if (tramp_list != NULL) {
        return tramp_list;
    }
    const char *l = bridge_config_list();
    return l != NULL ? l : "";
}

/* reset to the defaults, then load `list` */
static compi_status_t load_fresh(const char *list, char *err, size_t len)
{
    compi_status_t st = bridge_reset_creators(err, len);
    return st == COMPI_OK ? bridge_load_config_list(list, err, len) : st;
}

compi_status_t tramp_reconfigure(compi_comm_t *comm, const char *list)
{
    char err[1024] = "";
    char *copy = strdup(list);
    compi_status_t st = copy != NULL ? load_fresh(list, err, sizeof(err)) : COMPI_ERR_NO_MEMORY;
    if (copy == NULL) {
        snprintf(err, sizeof(err), "out of memory");
    }

    /* did every rank load it?  (status) from each, then, only when some failed, texts */
    int first_failed = st != COMPI_OK ? comm->rank : -1, nfailed = st != COMPI_OK;
    compi_status_t failed_st = st;
    if (comm->size > 1) {
        int mine = (int)st;
        int *all = malloc(sizeof(int) * (size_t)comm->size);
        comm_coll_set_t set = comm_coll_whole(comm);
        set.tag = COMPI_TAG_TRAMP_CHECK;
        compi_status_t ast = all != NULL ? comm_coll_allgather_int(&set, &mine, 1, all)
                                         : COMPI_ERR_NO_MEMORY;
        if (ast != COMPI_OK) {
            free(all);
            free(copy);
            tramp__error_set(1, "the agreement of a reconfiguration failed: %s",
                             compi_status_string(ast));
            return ast;
        }
        first_failed = -1;
        nfailed = 0;
        for (int r = 0; r < comm->size; r++) {
            if (all[r] != COMPI_OK) {
                nfailed++;
                if (first_failed < 0) {
                    first_failed = r;
                    failed_st = (compi_status_t)all[r];
                }
            }
        }
        free(all);
        if (first_failed >= 0) {
            int *texts = NULL;
            ast = tramp__agree_texts(comm, err, &texts);
            if (ast != COMPI_OK) {
                snprintf(err, sizeof(err), "(the message was lost: %s)",
                         compi_status_string(ast));
            } else {
                snprintf(err, sizeof(err), "%s", tramp__text_of(texts, first_failed));
                free(texts);
            }
        }
    }

    if (first_failed >= 0) {
        /* every rank goes back to the list it had, so all agree again */
        char others[64] = "", again[1024] = "";
        if (nfailed > 1) {
            snprintf(others, sizeof(others), " (and on %d other rank%s)", nfailed - 1,
                     nfailed > 2 ? "s" : "");
        }
        if (load_fresh(tramp_config_list(), again, sizeof(again)) != COMPI_OK) {
            char ignored[256];
            bridge_reset_creators(ignored, sizeof(ignored));
            tramp__error_set(comm->rank == first_failed,
                             "rank %d%s: %s; reloading the previous list failed here too (%s): the "
                             "defaults are in force",
                             first_failed, others, err, again);
            free(tramp_list);
            tramp_list = strdup("");
        } else {
            tramp__error_set(comm->rank == first_failed,
                             "rank %d%s: %s; the previous configuration "
                             "stays in force",
                             first_failed, others, err);
        }
        free(copy);
        st = failed_st;
    } else {
        free(tramp_list);
        tramp_list = copy;
    }
    tramp_flush(comm);
    return st;
}
