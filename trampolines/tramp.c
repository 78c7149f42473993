/*
 * tramp.c -- trampolines: key -> per-communicator closure cache -> closure.
 *
 * The cache is set-associative: TRAMP_WAYS entries per bucket, the bucket chosen by a
 * hash of the key.  A hit reads one bucket (one or two cache lines) and makes one
 * indirect call; nothing is written, allocated or locked.  A miss asks the creators
 * (bridge_build_closure), optionally checks that every rank built the same closure, and
 * stores it, evicting the bucket's oldest entry when the bucket is full: the cache is
 * bounded by coll_cache_size entries per communicator.
 *
 *   key = (kind, mode, root, bytes, op, datatype) --hash--> bucket [ e0 e1 e2 e3 ]
 *
 * The mode (blocking, nonblocking, persistent) sits beside the kind in the first word;
 * tramp_run() packs it as the constant 0, so a blocking hit costs what it did before modes
 * existed.
 */
#include "trampolines/tramp.h"

#include "scheme/bridge.h"
#include "core/comm/comm_coll.h"
#include "core/runtime/log.h"
#include "core/runtime/params.h"
#include "core/runtime/rte.h"
#include "core/coll/wrappers/wrap.h"

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
    unsigned long misses;
} tramp_cache_t;

static struct {
    unsigned buckets; /* per communicator, a power of two */
    int verbose;
    int check_determinism;
} tramp_cfg;

/* `mode` is a constant at each call site (the call's own mode field is not read) */
static inline void key_pack(const coll_call_t *call, coll_mode_t mode, tramp_key_t *k)
{
    coll_key_t key;
    coll_key_of(call, &key);
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

compi_status_t tramp_run(const coll_call_t *call)
{
    tramp_cache_t *cache = call->comm->coll;
    tramp_entry_t *b = NULL;
    coll_closure_t *c;
    tramp_key_t k;
    key_pack(call, COLL_MODE_BLOCKING, &k);
    if (compi_likely(cache != NULL) && compi_likely((c = lookup(cache, &k, &b)) != NULL)) {
        return c->fn(c, call);
    }
    compi_status_t st = tramp_miss(cache, call, &k, b, &c);
    return st == COMPI_OK ? c->fn(c, call) : st;
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
        return c->start(c, call, req_p);
    }
    compi_status_t st = tramp_miss(cache, call, &k, b, &c);
    return st == COMPI_OK ? c->start(c, call, req_p) : st;
}

static void cache_free(compi_comm_t *comm)
{
    tramp_cache_t *cache = comm->coll;
    if (cache == NULL) {
        return;
    }
    for (uint64_t i = 0; i < (cache->mask + 1) * TRAMP_WAYS; i++) {
        coll_closure_release(cache->buckets[i].closure);
    }
    free(cache->buckets);
    free(cache);
    comm->coll = NULL;
}

static tramp_cache_t *cache_new(void)
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
    return cache;
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
        snprintf(buf + n, len - (size_t)n, " on %s (%d ranks)", call->comm->name,
                 call->comm->size);
    }
}

/*
 * Every rank must serve a call with the same algorithm, or the ranks wait for messages
 * that never come.  Creators are meant to be deterministic; with coll_check_determinism
 * each miss compares the closures' signatures across the communicator and turns a
 * mismatch into an error on every rank instead of a deadlock.
 */
static compi_status_t check_same_closure(const coll_call_t *call, const coll_closure_t *c)
{
    compi_comm_t *comm = call->comm;
    int mine[2] = {(int)(c->signature >> 32), (int)(c->signature & 0xffffffffu)};
    int *all = malloc(sizeof(int) * 2 * (size_t)comm->size);
    if (all == NULL) {
        return COMPI_ERR_NO_MEMORY;
    }
    comm_coll_set_t set = comm_coll_whole(comm);
    set.tag = COMPI_TAG_TRAMP_CHECK;
    compi_status_t st = comm_coll_allgather_int(&set, mine, 2, all);
    if (st == COMPI_OK) {
        for (int r = 0; r < comm->size; r++) {
            if (all[2 * r] != mine[0] || all[2 * r + 1] != mine[1]) {
                char what[256];
                describe_call(call, what, sizeof(what));
                compi_log_error("coll: ranks built different closures for %s: this rank "
                                "(%d) built %s, rank %d built another; creators must be "
                                "deterministic (same config, topology and key on every rank)",
                                what, comm->rank, c->name, r);
                st = COMPI_ERR_CONFIG;
                break;
            }
        }
    }
    free(all);
    return st;
}

/* build, check and cache the closure of a key not in the cache: *c_p (the cache's
   reference) */
static compi_status_t tramp_miss(tramp_cache_t *cache, const coll_call_t *call,
                                 const tramp_key_t *k, tramp_entry_t *bucket,
                                 coll_closure_t **c_p)
{
    char err[1024];
    coll_closure_t *c = NULL;

    if (cache == NULL) {
        if ((cache = cache_new()) == NULL) {
            return COMPI_ERR_NO_MEMORY;
        }
        call->comm->coll = cache;
        bucket = &cache->buckets[(key_hash(k) & cache->mask) * TRAMP_WAYS];
    }
    compi_status_t st = bridge_build_closure(call, &c, err, sizeof(err));
    if (st != COMPI_OK) {
        compi_log_error("%s", err);
        return st;
    }
    if (call->mode != COLL_MODE_BLOCKING && c->start == NULL) {
        /* the bridge refuses these first, naming the creator; this is the last guard */
        char what[256];
        describe_call(call, what, sizeof(what));
        compi_log_error("coll: %s: closure %s cannot serve %s calls (it has no schedule)", what,
                        c->name, coll_mode_name(call->mode));
        coll_closure_release(c);
        return COMPI_ERR_CONFIG;
    }
    if (tramp_cfg.check_determinism && (st = check_same_closure(call, c)) != COMPI_OK) {
        coll_closure_release(c);
        return st;
    }
    cache->misses++;
    if (tramp_cfg.verbose > 0 && call->comm->rank == 0) {
        char what[256];
        describe_call(call, what, sizeof(what));
        compi_log_info("coll: %s: %s -> %s%s", what, bridge_last_origin(), c->name,
                       c->is_scheme ? " (Scheme closure: runs in Guile)" : "");
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
        "coll_verbose", 0, "1: rank 0 prints, once per new key, the call and the closure built");
    tramp_cfg.check_determinism = (int)param_register_int(
        "coll_check_determinism", 0,
        "1: on each cache miss, check that every rank built the same closure (costs an "
        "allgather per miss)");
    comm_set_free_hook(cache_free);
    return COMPI_OK;
}

void tramp_finalize(void)
{
    coll_wrap_finalize();
}
