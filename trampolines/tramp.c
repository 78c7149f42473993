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
 * speak the same protocol as the other's).
 *
 * The mode (blocking, nonblocking, persistent) sits beside the kind in the first word;
 * tramp_run() packs it as the constant 0, so a blocking hit costs what it did before modes
 * existed.
 */
#include "trampolines/tramp.h"

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

/* the key packed into three words: cheap to hash and compare */
typedef struct tramp_key {
    uint64_t w0; /* (mode << 8 | kind) << 32 | root */
    uint64_t w1; /* bytes */
    uint64_t w2; /* op << 32 | datatype */
} tramp_key_t;

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
    if (compi_unlikely(key.root < -1)) {
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

/* a communicator as messages name it: its name (MPI_Comm_set_name), else "an unnamed
   communicator (context 5)"; in buf when that is needed */
static const char *comm_label(const compi_comm_t *comm, char *buf, size_t len)
{
    if (comm->name[0] != '\0') {
        return comm->name;
    }
    snprintf(buf, len, "an unnamed communicator (context %u)", (unsigned)comm->ctx);
    return buf;
}

/* "bcast root=0 bytes=8 MPI_INT MPI_SUM on MPI_COMM_WORLD" for messages */
static void describe_call(const coll_call_t *call, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s%s%s",
                     call->mode != COLL_MODE_BLOCKING ? coll_mode_name(call->mode) : "",
                     call->mode != COLL_MODE_BLOCKING ? " " : "", coll_kind_name(call->kind));
    if (call->root >= 0 && n < (int)len) {
        n += snprintf(buf + n, len - (size_t)n, " root=%d", call->root);
    }
    if (n < (int)len) {
        n += snprintf(buf + n, len - (size_t)n, " bytes=%zu", call->bytes);
    }
    if (call->op != NULL && n < (int)len) {
        n += snprintf(buf + n, len - (size_t)n, " %s %s", dt_name(call->rdt), call->op->name);
    }
    if (n < (int)len) {
        char label[64];
        snprintf(buf + n, len - (size_t)n, " on %s (%d ranks)",
                 comm_label(call->comm, label, sizeof(label)), comm_local_size(call->comm));
    }
}

/* coll_verbose: the call and the closure with its signature (compi-tree prints the same
   signature for the same call and layout); 2: also the edges of its tree, one rank a line */
static void verbose_miss(const coll_call_t *call, const coll_closure_t *c)
{
    char what[256];
    const topo_tree_t *t;

    describe_call(call, what, sizeof(what));
    compi_log_info("coll: %s: %s -> %s%s, signature %016llx", what, bridge_last_origin(), c->name,
                   c->is_scheme ? " (Scheme closure: runs in Guile)" : "",
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

/* ---- the agreement at the miss --------------------------------------------------------

   Every rank must serve a call with the same closure, or the ranks wait for messages that
   never come; and a creator that fails on one rank must fail the call on every rank, or
   the others wait in the collective.  So each miss ends with one allgather over the
   communicator (comm_coll_allgather_int, on the trampolines' own tag) of every rank's
   (status, signature) and the part of its key that MPI requires equal on every rank
   (kind and mode, root, bytes: not the op and datatype handles, which may be numbered
   apart on different ranks):

     keys differ                -> every rank fails the call as an argument error: the
                                   root (MPI_ERR_ROOT), the bytes (count times type size:
                                   MPI_ERR_TRUNCATE), the collective itself (MPI_ERR_ARG),
                                   "ranks 0-1 gave root 0, rank 2 gave root 1"
     all built, same signature  -> cache it, run it
     any rank failed            -> every rank fails the call with the lowest failing
                                   rank's message ("rank 3: creator NAME ... failed: ...")
     signatures differ          -> every rank fails it: "rank 0 built X, ranks 1-3 built Y",
                                   and why: the ranks' configuration lists differ
                                   (MPIX_Coll_reconfigure on part of the communicator),
                                   else the creators are not deterministic

   The texts travel in a second allgather, only when something went wrong, so every rank
   holds the same message; the lowest rank involved is the one that reports it under
   MPI_ERRORS_ARE_FATAL (tramp_error_take).  A communicator of one rank has nothing to
   agree on.  Only misses agree: ranks whose wrong arguments all hit closures they
   cached before are not caught, nor a rank that hits while another misses. */

#define AGREE_INTS 7 /* status, signature (2), kind << 8 | mode, root, bytes (2) */

#define AGREE_TEXT_INTS 256 /* a rank's text in the second round: 1 KiB */

/* per thread: at MPI_THREAD_MULTIPLE a miss waits in its agreement with the library's
   lock dropped, and another thread's miss may fail meanwhile */
static __thread struct {
    char text[1536];
    int reporter;
    int pending; /* set by a failed miss, cleared by tramp_error_take */
} tramp_err;

const char *tramp_error_take(int *reporter_p)
{
    if (!tramp_err.pending) {
        return NULL;
    }
    tramp_err.pending = 0;
    if (reporter_p != NULL) {
        *reporter_p = tramp_err.reporter;
    }
    return tramp_err.text;
}

static void __attribute__((format(printf, 2, 3))) error_set(int reporter, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tramp_err.text, sizeof(tramp_err.text), fmt, ap);
    va_end(ap);
    tramp_err.reporter = reporter;
    tramp_err.pending = 1;
}

/* every rank's text (its error message, or its closure's name) into all[r * INTS] */
static compi_status_t agree_texts(compi_comm_t *comm, const char *mine, int **all_p)
{
    int buf[AGREE_TEXT_INTS];
    int *all = malloc(sizeof(int) * AGREE_TEXT_INTS * (size_t)comm_local_size(comm));
    if (all == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    memset(buf, 0, sizeof(buf));
    snprintf((char *)buf, sizeof(buf), "%s", mine);
    comm_coll_set_t set = comm_coll_whole(comm);
    set.tag = COMPI_TAG_TRAMP_CHECK;
    compi_status_t st = comm_coll_allgather_int(&set, buf, AGREE_TEXT_INTS, all);
    if (st != COMPI_OK) {
        free(all);
        return st;
    }
    for (int r = 0; r < comm_local_size(comm); r++) {
        ((char *)(all + (size_t)r * AGREE_TEXT_INTS))[sizeof(buf) - 1] = '\0';
    }
    *all_p = all;
    return COMPI_OK;
}

static const char *text_of(const int *all, int r)
{
    return (const char *)(all + (size_t)r * AGREE_TEXT_INTS);
}

/* "rank 2" or "ranks 1-3, 5" for the ranks r with sig[r] == want, into buf */
static void ranks_with(const uint64_t *sig, int n, uint64_t want, char *buf, size_t len)
{
    char list[96];
    size_t used = 0;
    int count = 0;
    list[0] = '\0';
    for (int r = 0; r < n && used < sizeof(list); r++) {
        if (sig[r] != want || (r > 0 && sig[r - 1] == want)) {
            continue;
        }
        int last = r;
        while (last + 1 < n && sig[last + 1] == want) {
            last++;
        }
        count += last - r + 1;
        const char *sep = used ? ", " : "";
        used += (size_t)(last > r ? snprintf(list + used, sizeof(list) - used, "%s%d-%d", sep, r,
                                             last)
                                  : snprintf(list + used, sizeof(list) - used, "%s%d", sep, r));
    }
    snprintf(buf, len, "%s %s", count == 1 ? "rank" : "ranks", list);
}

/* the two sides of a disagreement among vals[0..n): the ranks of vals[0] into a[128],
   those of vals[other] into b[128], how many hold yet other values into rest[64] */
static void two_sides(const uint64_t *vals, int n, int other, char *a, char *b, char *rest)
{
    int nrest = 0;
    for (int r = 0; r < n; r++) {
        nrest += vals[r] != vals[0] && vals[r] != vals[other];
    }
    rest[0] = '\0';
    if (nrest > 0) {
        snprintf(rest, 64, ", %d more rank%s yet other%s", nrest, nrest > 1 ? "s" : "",
                 nrest > 1 ? "s" : "");
    }
    ranks_with(vals, n, vals[0], a, 128);
    ranks_with(vals, n, vals[other], b, 128);
}

/* the key's kind and mode, root or bytes (field 0, 1, 2) of rank r in the agreement's
   array */
static uint64_t key_field(const int *all, int r, int field)
{
    const int *a = all + AGREE_INTS * r;
    return field == 0   ? (uint64_t)(uint32_t)a[3]
           : field == 1 ? (uint64_t)(int64_t)a[4]
                        : (uint64_t)(uint32_t)a[5] << 32 | (uint32_t)a[6];
}

/* the ranks' keys differ in a field MPI requires equal: the error every rank reports (the
   same text on each), or COMPI_OK when they agree; vals: room for n values */
static compi_status_t agree_keys(const coll_call_t *call, const int *all, int n, uint64_t *vals)
{
    static const compi_status_t field_st[] = {COMPI_ERR_INVALID_PARAM, COMPI_ERR_ROOT,
                                              COMPI_ERR_TRUNCATE};
    /* a neighbourhood collective's counts need only match between neighbours */
    int nfields =
        call->kind == COLL_NEIGHBOR_ALLGATHER || call->kind == COLL_NEIGHBOR_ALLTOALL ? 2 : 3;
    for (int f = 0; f < nfields; f++) {
        int other = -1;
        for (int r = 0; r < n; r++) {
            vals[r] = key_field(all, r, f);
            if (other < 0 && vals[r] != vals[0]) {
                other = r;
            }
        }
        if (other < 0) {
            continue;
        }
        char a[128], b[128], va[64], vb[64], rest[64];
        two_sides(vals, n, other, a, b, rest);
        for (int i = 0; i < 2; i++) {
            uint64_t v = vals[i ? other : 0];
            char *out = i ? vb : va;
            if (f == 0) {
                coll_mode_t mode = (coll_mode_t)(v >> 8);
                snprintf(out, sizeof(va), "%s%s%s",
                         mode != COLL_MODE_BLOCKING ? coll_mode_name(mode) : "",
                         mode != COLL_MODE_BLOCKING ? " " : "",
                         coll_kind_name((coll_kind_t)(v & 0xff)));
            } else if (f == 1) {
                snprintf(out, sizeof(va), "root %d", (int)(int64_t)v);
            } else {
                snprintf(out, sizeof(va), "%llu bytes", (unsigned long long)v);
            }
        }
        const char *cname = call->comm->name[0] != '\0' ? call->comm->name : "a communicator";
        if (f == 0) {
            error_set(call->comm->rank == other,
                      "the ranks of %s called different collectives: %s called %s, %s called "
                      "%s%s",
                      cname, a, va, b, vb, rest);
        } else {
            error_set(call->comm->rank == other,
                      "%s on %s: the ranks gave different %s (MPI requires the same on every "
                      "rank): %s gave %s, %s gave %s%s",
                      coll_kind_name(call->kind), cname,
                      f == 1 ? "roots" : "sizes (count times type size)", a, va, b, vb, rest);
        }
        return field_st[f];
    }
    return COMPI_OK;
}

/* FNV-1a of a text */
static uint64_t text_hash(const char *t)
{
    uint64_t h = 1469598103934665603ull;
    for (; *t != '\0'; t++) {
        h = (h ^ (unsigned char)*t) * 1099511628211ull;
    }
    return h;
}

/* Why the ranks of comm built different closures, into buf (every rank takes part, as in
   agree_texts): when their configuration lists differ, "the ranks run different
   configurations: rank 0 loaded "a.scm", ranks 1-3 loaded "b.scm""; else "creators must
   be deterministic". */
static void why_different(compi_comm_t *comm, char *buf, size_t len)
{
    int n = comm_local_size(comm), *lists = NULL, other = -1;
    uint64_t *h = malloc(sizeof(uint64_t) * (size_t)n);
    snprintf(buf, len, "creators must be deterministic");
    if (h == NULL || agree_texts(comm, tramp_config_list(), &lists) != COMPI_OK) {
        free(h);
        return;
    }
    for (int r = 0; r < n; r++) {
        h[r] = text_hash(text_of(lists, r));
        if (other < 0 && h[r] != h[0]) {
            other = r;
        }
    }
    if (other >= 0) {
        char a[128], b[128], rest[64];
        const char *la = text_of(lists, 0), *lb = text_of(lists, other);
        two_sides(h, n, other, a, b, rest);
        snprintf(buf, len,
                 "the ranks run different configurations: %s loaded %s%s%s, %s loaded %s%s%s%s", a,
                 *la ? "\"" : "", *la ? la : "no config file", *la ? "\"" : "", b, *lb ? "\"" : "",
                 *lb ? lb : "no config file", *lb ? "\"" : "", rest);
    }
    free(lists);
    free(h);
}

/*
 * The round itself.  `st` and `err` are this rank's outcome of the build (c NULL when it
 * failed), k its key; returns COMPI_OK when every rank gave the same key and built the
 * same closure, else an error with tramp_err set to the same text on every rank.
 */
static compi_status_t agree(const coll_call_t *call, const tramp_key_t *k, compi_status_t st,
                            const char *err, const coll_closure_t *c)
{
    compi_comm_t *comm = call->comm;
    uint64_t sig = c != NULL ? c->signature : 0;
    int mine[AGREE_INTS] = {(int)st,
                            (int)(sig >> 32),
                            (int)(sig & 0xffffffffu),
                            (int)(k->w0 >> 32),
                            (int)(uint32_t)k->w0,
                            (int)(k->w1 >> 32),
                            (int)(k->w1 & 0xffffffffu)};
    /* an intercommunicator's groups agree each on its own (comm_coll_whole) */
    int n = comm_local_size(comm), first_failed = -1, first_other = -1;
    int *texts = NULL;
    char what[256];

    int *all = malloc(sizeof(int) * AGREE_INTS * (size_t)n);
    uint64_t *sigs = malloc(sizeof(uint64_t) * (size_t)n);
    if (all == NULL || sigs == NULL) {
        /* cannot take part: the others wait; say so on this rank (out of memory at a miss) */
        free(all);
        free(sigs);
        error_set(1, "out of memory for the agreement of a cache miss");
        return COMPI_ERR_NO_MEMORY;
    }
    comm_coll_set_t set = comm_coll_whole(comm);
    set.tag = COMPI_TAG_TRAMP_CHECK;
    compi_status_t ast = comm_coll_allgather_int(&set, mine, AGREE_INTS, all);
    if (ast != COMPI_OK) {
        error_set(1, "the agreement of a cache miss failed: %s", compi_status_string(ast));
        goto out;
    }
    if ((ast = agree_keys(call, all, n, sigs)) != COMPI_OK) {
        goto out;
    }
    for (int r = 0; r < n; r++) {
        sigs[r] =
            (uint64_t)(uint32_t)all[AGREE_INTS * r + 1] << 32 | (uint32_t)all[AGREE_INTS * r + 2];
        if (all[AGREE_INTS * r] != COMPI_OK && first_failed < 0) {
            first_failed = r;
        }
        if (first_other < 0 && sigs[r] != sigs[0]) {
            first_other = r;
        }
    }
    if (first_failed < 0 && first_other < 0) {
        goto out; /* ast is COMPI_OK */
    }

    /* something went wrong: every rank learns every rank's text */
    ast = agree_texts(comm, st != COMPI_OK ? err : c->name, &texts);
    if (ast != COMPI_OK) {
        error_set(1, "the agreement of a cache miss failed: %s", compi_status_string(ast));
        goto out;
    }
    if (first_failed >= 0) {
        int nfailed = 0;
        for (int r = 0; r < n; r++) {
            nfailed += all[AGREE_INTS * r] != COMPI_OK;
        }
        char others[64] = "";
        if (nfailed > 1) {
            snprintf(others, sizeof(others), " (and on %d other rank%s)", nfailed - 1,
                     nfailed > 2 ? "s" : "");
        }
        error_set(comm->rank == first_failed, "rank %d%s: %s", first_failed, others,
                  text_of(texts, first_failed));
        ast = (compi_status_t)all[AGREE_INTS * first_failed];
    } else {
        char a[128], b[128], rest[64];
        two_sides(sigs, n, first_other, a, b, rest);
        char why[512];
        why_different(comm, why, sizeof(why));
        describe_call(call, what, sizeof(what));
        /* closures named alike (two wrappers over different trees) differ by signature */
        const char *ta = text_of(texts, 0), *tb = text_of(texts, first_other);
        char sa[40] = "", sb[40] = "";
        if (strcmp(ta, tb) == 0) {
            snprintf(sa, sizeof(sa), " (signature %016llx)", (unsigned long long)sigs[0]);
            snprintf(sb, sizeof(sb), " (signature %016llx)", (unsigned long long)sigs[first_other]);
        }
        error_set(comm->rank == 0,
                  "%s: ranks built different closures: %s built %s%s, %s built %s%s%s; %s", what, a,
                  ta, sa, b, tb, sb, rest, why);
        ast = COMPI_ERR_CONFIG;
    }
    free(texts);
out:
    free(all);
    free(sigs);
    return ast;
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
        describe_call(call, what, sizeof(what));
        snprintf(err, sizeof(err), "%s: closure %s cannot serve %s calls (it has no schedule)",
                 what, c->name, coll_mode_name(call->mode));
        coll_closure_release(c);
        c = NULL;
        st = COMPI_ERR_CONFIG;
    }
    /* MPI lets a nonblocking or persistent collective's call return before the other
       ranks make theirs: a blocking round there could deadlock a legal program, so it
       agrees only when asked to (coll_check_determinism 2) */
    int agreeing =
        call->mode == COLL_MODE_BLOCKING ? tramp_cfg.agree >= 1 : tramp_cfg.agree >= 2;
    if (agreeing && comm_local_size(call->comm) > 1) {
        compi_status_t ast = agree(call, k, st, err, c);
        if (ast != COMPI_OK) {
            coll_closure_release(c);
            return ast;
        }
    } else if (st != COMPI_OK) {
        error_set(1, "%s", err);
        return st;
    }
    cache->misses[call->kind]++;
    if (tramp_cfg.verbose > 0 && call->comm->rank == 0) {
        verbose_miss(call, c);
    }

    /* coll_summary: the wrapper that counts (after the agreement, which it would not
       change: it keeps the inner closure's signature) */
    if (tramp_cfg.summary != NULL) {
        coll_closure_t *w = coll_wrap_summary(c, call->kind, call->mode, call->comm->name);
        if (w != NULL) {
            coll_closure_release(c);
            c = w;
        }
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
        "1: each cache miss of a blocking collective ends with one allgather of every "
        "rank's (status, closure signature), so a creator that fails on some ranks, or "
        "answers differently on different ranks, fails the call on every rank with one "
        "message instead of hanging; 2: the misses of nonblocking and persistent calls "
        "too (their first call of a key then waits for every rank's, which a program "
        "that depends on MPI_I* returning at once may not survive); 0: no agreement (a "
        "miss costs no communication, but such a creator hangs the job or gives wrong "
        "results)");
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
            error_set(1, "the agreement of a reconfiguration failed: %s",
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
            ast = agree_texts(comm, err, &texts);
            if (ast != COMPI_OK) {
                snprintf(err, sizeof(err), "(the message was lost: %s)",
                         compi_status_string(ast));
            } else {
                snprintf(err, sizeof(err), "%s", text_of(texts, first_failed));
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
            error_set(comm->rank == first_failed,
                      "rank %d%s: %s; reloading the previous list failed here too (%s): the "
                      "defaults are in force",
                      first_failed, others, err, again);
            free(tramp_list);
            tramp_list = strdup("");
        } else {
            error_set(comm->rank == first_failed, "rank %d%s: %s; the previous configuration "
                      "stays in force", first_failed, others, err);
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
