/*
 * coll.h -- collective calls, closures and native algorithms (ARCHITECTURE.md, "The
 * closure contract").
 *
 *   MPI_Bcast(...)  ->  coll_call_t  ->  tramp_run(call)  --hit-->  closure->fn(closure, call)
 *                                            | miss
 *                                            v
 *                                  Scheme creators (scheme/) build a closure description,
 *                                  coll_closure_from_desc() turns it into a coll_closure_t
 *
 * A call is a plain struct describing one collective invocation; a closure is a plain
 * struct (function pointer, state, name, refcount); a key holds only values MPI
 * guarantees equal on every rank of the communicator.
 *
 * Ownership: calls live on the caller's stack for the duration of one collective (a
 * nonblocking one copies what it needs into its schedule before it returns).
 * Closures are refcounted: the trampoline cache holds one reference per entry, wrappers
 * hold one on what they wrap; coll_closure_release() frees state through free_state.
 * Native algorithms (coll_algo_t) are const tables, never freed.  A cache hit allocates
 * nothing: a blocking algorithm takes its temporaries from the scratch stack
 * (coll_scratch_get) and gives them back before it returns; a schedule owns its own
 * (core/coll/sched/sched.h).
 */
#ifndef COMPI_COLL_H
#define COMPI_COLL_H

#include "core/comm/comm.h"
#include "core/include/compi_status.h"
#include "core/dt/dt.h"
#include "core/op/op.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The collective kinds, listed once in kinds.def (bridge_kind_t of scheme/bridge.h and
   `collective-kinds' of (compi) come from the same list). */
typedef enum coll_kind {
#define COLL_KIND(e, name) COLL_##e,
#include "core/coll/kinds.def"
    COLL_NKINDS
} coll_kind_t;

const char *coll_kind_name(coll_kind_t kind); /* "bcast", "reduce-scatter", ... */

/* How a call runs; part of the key, so each mode has closures of its own.  Blocking is
   0: the blocking API leaves it unset.  Persistent (MPI_Bcast_init, ...) is served like
   nonblocking, by the closure's start, but once: the schedule it builds is kept in an
   inactive persistent request and rerun at each MPI_Start (core/coll/sched/sched.h). */
typedef enum coll_mode {
    COLL_MODE_BLOCKING = 0,
    COLL_MODE_NONBLOCKING = 1,
    COLL_MODE_PERSISTENT = 2,
    COLL_NMODES
} coll_mode_t;

const char *coll_mode_name(coll_mode_t mode); /* "blocking", "nonblocking", "persistent" */

/* A closure that fails while it runs or starts (a Scheme closure that raised, a schedule
   written in Scheme that cannot be built for the call) says why here instead of printing
   it; the latest message is kept, per thread, until the API layer takes it with the
   call's error (tramp_error_take) and reports it under the communicator's handler. */
void __attribute__((format(printf, 1, 2))) coll_run_error_set(const char *fmt, ...);
const char *coll_run_error_take(void); /* NULL when none */

/* A run under agreement (the trampolines set one, per thread, around a Scheme closure's
   agreed runs): each closure it runs through run-closure is agreed on first, by
   fn(ctx, its name, a signature of it and its place in the run), so that ranks about to
   run different closures fail together instead of waiting for each other.  `failed`:
   an agreement of this run failed (its status in st; its message is the trampolines'). */
typedef struct coll_run_agree {
    compi_status_t (*fn)(void *ctx, const char *text, uint64_t sig);
    void *ctx;
    int index;  /* closures agreed on so far in this run */
    int failed; /* then nothing more is agreed on or run */
    compi_status_t st;
} coll_run_agree_t;
/* the current one, or NULL; coll_run_agree_set returns the one it replaces */
coll_run_agree_t *coll_run_agree_current(void);
coll_run_agree_t *coll_run_agree_set(coll_run_agree_t *a);

/*
 * One rank's part of a collective file access (the file-write and file-read kinds):
 * nsegs byte ranges of the file in increasing offset order, not overlapping, whose bytes
 * lie packed in buf in that order.  The algorithm does the I/O on fd itself (pread,
 * pwrite, fcntl locks), and leaves in `moved' the bytes this rank's segments moved and
 * in `err' an errno, 0 when none: the same on every rank (the largest any rank met).
 * `hints' are the file's collective-buffering hints as key, value, key, value, ...,
 * NULL (creators read them with (call-hint call KEY)).
 */
typedef struct coll_io_seg {
    int64_t off, len;
} coll_io_seg_t;
typedef struct coll_io {
    int fd;
    int atomic; /* MPI_File_set_atomicity: lock what it writes */
    const coll_io_seg_t *segs;
    size_t nsegs;
    void *buf;                /* file-write: read from it; file-read: written */
    const char *const *hints; /* NULL, or key/value pairs ending with NULL */
    int64_t moved;            /* out */
    int err;                  /* out: an errno, the same on every rank */
    /* nonblocking (a schedule): called once when the schedule is freed, after its last
       step or after a failure, before its request completes; err is -1 unless the access
       ran to its end.  The access (this struct, segs, buf) lives until then. */
    void (*release)(struct coll_io *io);
    /* describe: in, 1 for no access but the closure's choice in the three fields below
       (MPI_File_get_info); no communication, no I/O */
    int describe;
    int aggregators;  /* ranks that do the file's I/O for all (0: each its own) */
    int64_t cb_bytes; /* their collective buffer */
    int automatic;    /* collective buffering only when the ranks' ranges interleave */
} coll_io_t;

/*
 * A count or displacement array of a v/w call, as the program passed it, read in place:
 * int elements (the int forms of MPI) or 64-bit ones (wide: MPI_Count counts and MPI_Aint
 * displacements of the _c forms; neighbor-alltoallw's byte displacements in both forms).
 * p NULL: the array was not given (a rank where it is not significant).  Nothing is
 * narrowed or copied, so a _c call's counts above INT_MAX reach the algorithms whole.
 * The array is the program's, borrowed for the call like the rest of coll_call_t.
 */
typedef struct coll_vec {
    const void *p;
    int wide; /* 1: 64-bit elements, else int */
} coll_vec_t;
_Static_assert(sizeof(MPI_Count) == 8 && sizeof(MPI_Aint) == 8,
               "coll_vec_t reads MPI_Count and MPI_Aint arrays as 64-bit elements");

static inline coll_vec_t coll_vec_int(const int *v)
{
    return (coll_vec_t){.p = v, .wide = 0};
}
static inline coll_vec_t coll_vec_count(const MPI_Count *v)
{
    return (coll_vec_t){.p = v, .wide = 1};
}
static inline coll_vec_t coll_vec_aint(const MPI_Aint *v)
{
    return (coll_vec_t){.p = v, .wide = 1};
}
static inline int coll_vec_given(coll_vec_t v)
{
    return v.p != NULL;
}
/* element k (the array must be given); a wide element is read by memcpy, whichever of
   MPI_Count or MPI_Aint the array holds */
static inline long long coll_vec_at(coll_vec_t v, int k)
{
    if (v.wide) {
        int64_t x;
        memcpy(&x, (const char *)v.p + (size_t)k * sizeof(x), sizeof(x));
        return x;
    }
    return ((const int *)v.p)[k];
}

/*
 * One collective invocation, as the API layer received it (after argument checks).
 * Fields a kind does not use are 0/NULL.  MPI_IN_PLACE is kept as given in sbuf (or
 * rbuf for the root of MPI_Scatter(v)), with in_place set, so algorithms can tell.
 */
typedef struct coll_call {
    coll_kind_t kind;
    coll_mode_t mode;            /* nonblocking, persistent: by the closure's start */
    compi_comm_t *comm;
    int root;                    /* bcast, reduce, gather(v), scatter(v); else -1 */
    int in_place;
    const void *sbuf;
    void *rbuf;
    size_t scount, rcount;
    compi_datatype_t *sdt, *rdt;
    /* v and w variants: counts, displacements in elements of sdt/rdt, or in bytes for
       alltoallw and neighbor-alltoallw */
    coll_vec_t scounts, sdispls;
    coll_vec_t rcounts, rdispls;
    compi_datatype_t *const *sdts, *const *rdts; /* alltoallw */
    compi_op_t *op;               /* reductions, scans (sdt == rdt == the datatype) */
    size_t bytes;                 /* the key's total bytes (see coll_call_bytes) */
    coll_io_t *io;                       /* file-write, file-read: the access (bytes is 0) */
} coll_call_t;

/*
 * The key: only what every rank of the communicator agrees on.  bytes is, per kind:
 * bcast/reduce/allreduce/scan/exscan: count * type size; gather/scatter/allgather/
 * alltoall: the bytes of one rank's block; allgatherv/reduce-scatter: the total of all
 * blocks; reduce-scatter-block: the block times the size; barrier and the v/w kinds
 * whose totals only the root knows (gatherv, scatterv, alltoallv, alltoallw): 0.
 * neighbor-allgather, neighbor-alltoall: one block (like allgather); the other neighbour
 * kinds: 0; file-write and file-read: 0 (each rank moves its own bytes; the file's
 * hints, which creators read, are the same on every rank).  The blocks of a neighbourhood
 * collective are numbered by the communicator's topology (core/comm/topo.h): block i of the receive
 * side comes from topo->in[i], block j of the send side goes to topo->out[j].
 */
typedef struct coll_key {
    uint32_t kind;
    uint32_t mode;
    int32_t root;
    uint64_t bytes;
    int32_t op;       /* MPI_Op handle for reductions, else 0 */
    int32_t datatype; /* MPI_Datatype handle for reductions, else 0 */
} coll_key_t;

typedef struct coll_closure coll_closure_t;
typedef compi_status_t (*coll_fn_t)(coll_closure_t *self, const coll_call_t *call);
struct compi_request;
struct coll_sched;
/* the nonblocking entry point: builds the call's schedule and starts it
   (core/coll/sched/sched.h); the request, in *req_p, is the caller's.  For a persistent
   call (call->mode) the same function builds the schedule and coll_sched_start() keeps
   it, unstarted, in an inactive persistent request. */
typedef compi_status_t (*coll_start_fn_t)(coll_closure_t *self, const coll_call_t *call,
                                          struct compi_request **req_p);

struct coll_closure {
    coll_fn_t fn;                    /* the one indirect call of a cache hit */
    void *state;                     /* algorithm parameters, a tree, a wrapped closure */
    coll_start_fn_t start;           /* nonblocking calls; NULL: this closure cannot */
    void (*free_state)(void *state); /* NULL: nothing to free */
    int refcount;
    int is_scheme;                   /* runs inside Guile (slower; reported as such) */
    uint64_t signature;              /* what it does, hashed (see "Closure identity") */
    char name[96];                   /* "bcast:binomial(segsize=8192)" for logs */
};

/*
 * Closure identity.  A closure's signature is a hash of what it does -- its kind, its
 * algorithm and parameters, its tree or schedule, what it wraps -- computed once, where
 * it is built, with the coll_sig_* functions (64-bit FNV-1a, from COLL_SIG_SEED); its
 * name is only for people.  So closures that do the same thing have the same signature
 * whoever built them ((native 'bcast 'binomial) and a creator's binomial tree of the same
 * shape and segment size), and two that differ in anything that changes the traffic
 * differ (the determinism check, trampolines/tramp.c, compares signatures across ranks).
 * coll_closure_new starts from a hash of the name, for closures whose name is all there is
 * to them (Scheme procedures: the kind, the procedure, its source); the builders replace it.
 */
#define COLL_SIG_SEED 1469598103934665603ull
uint64_t coll_sig_bytes(uint64_t h, const void *p, size_t n);
uint64_t coll_sig_str(uint64_t h, const char *s); /* the bytes and the terminator */
static inline uint64_t coll_sig_long(uint64_t h, long v)
{
    return coll_sig_bytes(h, &v, sizeof(v));
}
static inline uint64_t coll_sig_ints(uint64_t h, const int *v, size_t n)
{
    return coll_sig_bytes(h, v, n * sizeof(*v));
}

/* a new closure with refcount 1; name is copied (truncated) */
coll_closure_t *coll_closure_new(coll_fn_t fn, void *state, void (*free_state)(void *),
                                 const char *name);
void coll_closure_retain(coll_closure_t *c);
void coll_closure_release(coll_closure_t *c);

/* ---- native algorithms (core/coll/algorithms/registry.c lists them all) ---------------------- */

/* Parameters a creator may give a native algorithm; 0 means "the algorithm's default". */
typedef struct coll_params {
    long fanout;  /* k of k-ary trees, radix of Bruck-like algorithms */
    long segsize; /* bytes per pipeline segment (chain, pipelined binomial; two-phase I/O:
                     the collective buffer of each aggregator) */
    const int *ranks; /* [nranks] ranks with a role (two-phase I/O: its aggregators) */
    int nranks;
    void *aux;    /* what the algorithm's .prepare made at the miss (creators never set it) */
} coll_params_t;

/* The coll_params_t fields an algorithm reads (coll_algo_t.params, OR-ed); a creator's
   value of another field is ignored. */
typedef enum coll_param_flag {
    COLL_PARAM_FANOUT = 1 << 0,
    COLL_PARAM_SEGSIZE = 1 << 1,
    COLL_PARAM_RANKS = 1 << 2,
} coll_param_flag_t;

/* "fanout segsize": the names of the fields in `params` (COLL_PARAM_*), for people */
const char *coll_param_names(unsigned params);

struct topo_tree;

typedef struct coll_algo {
    const char *name; /* "binomial": unique within its kind */
    coll_kind_t kind;
    /* runs the algorithm; `self->state` points to a coll_params_t.  NULL for a tree
       algorithm (.tree), which the tree executors run, and for one that is only its
       schedule (.sched), which blocking calls run to completion (coll_sched_run) */
    coll_fn_t fn;
    /* NULL, or: the algorithm is a tree shape (topologies/tree.h builders) that the one
       tree engine of core/coll/executors/ runs, blocking (segmented, pipelined) and as a
       schedule: the tree of a communicator of `size` ranks with root `root` (0 for the
       unrooted kinds), `params` with tree_defaults applied.  coll_closure_algo() builds
       it at the miss, when the communicator and the root are known. */
    struct topo_tree *(*tree)(int size, int root, const coll_params_t *params);
    coll_params_t tree_defaults; /* a tree algorithm's params where the creator gave 0 */
    /* NULL, or: returns 0 when the algorithm cannot serve `call` (e.g. recursive
       doubling with a non-commutative op), so the caller can pick another */
    int (*usable)(const coll_call_t *call, const coll_params_t *params);
    /* NULL, or: adds the algorithm's steps for `call` to schedule `s`
       (core/coll/sched/sched.h), so it can serve nonblocking calls */
    void (*sched)(const coll_call_t *call, const coll_params_t *params, struct coll_sched *s);
    /* NULL, or: at the miss (coll_closure_algo), precomputes into params->aux what every
       call with this key needs (a tree closure the algorithm runs inside, a table), so a
       hit allocates nothing; .release frees it with the closure */
    compi_status_t (*prepare)(const coll_call_t *call, coll_params_t *params);
    void (*release)(void *aux);
    /* 1: serves calls on intercommunicators only (algorithms/inter/); 0: intracommunicator
       calls only.  The bridge refuses an algorithm handed the other kind of call. */
    int inter;
    unsigned params;    /* which coll_params_t fields it reads: COLL_PARAM_* OR-ed */
    const char *help;   /* one line for compi_info */
} coll_algo_t;

const coll_algo_t *coll_algo_find(coll_kind_t kind, const char *name);
/* all algorithms, for compi_info; *n_p gets the count */
const coll_algo_t *const *coll_algo_all(size_t *n_p);

/* A closure running `algo` with `params` (copied); its name lists the non-zero params.
   Its state starts with the coll_params_t (algorithms read self->state as one); when
   the algorithm has a schedule, the closure's start builds and starts it. */
coll_closure_t *coll_closure_native(const coll_algo_t *algo, const coll_params_t *params);

/* The closure of `algo` with `params` for `call` (its communicator, root, mode): a tree
   algorithm (algo->tree) becomes coll_closure_tree() over the tree it builds, named like
   a native closure ("bcast:binomial(segsize=8192)"); any other is coll_closure_native().
   NULL on failure, with the status in *st_p (st_p may be NULL). */
coll_closure_t *coll_closure_algo(const coll_algo_t *algo, const coll_params_t *params,
                                  const coll_call_t *call, compi_status_t *st_p);

/* ---- helpers for algorithms (core/coll/coll_util.c) ------------------------------- */

/* Tags of collective traffic: each kind has its own negative tag so different kinds of
   collective on one communicator never match each other. */
static inline int coll_tag(coll_kind_t kind)
{
    return COMPI_TAG_COLL_BASE - (int)kind;
}
/* A kind's second tag, for an algorithm that must keep two streams to one peer apart
   (a Cartesian neighbourhood: the two directions of a dimension of 1 or 2 processes). */
static inline int coll_tag_alt(coll_kind_t kind)
{
    return COMPI_TAG_COLL_ALT_BASE - (int)kind;
}

/* A temporary buffer for `count` elements of `dt` with the same layout as a user buffer:
   returns the pointer to pass as `buf` with dt (it accounts for true_lb), and in *mem_p
   what to free() afterwards. */
void *coll_tmp_alloc(compi_datatype_t *dt, size_t count, void **mem_p);
/* The scratch stack of blocking collectives (core/coll/scratch.c): `bytes` of scratch,
   aligned to 64, NULL when out of memory; coll_scratch_put(p) gives back p and everything
   taken after it (NULL, or a buffer given back already: nothing).  A collective gives
   back all it took before it returns, so the stack empties between collectives and,
   once as deep as the deepest need, allocates nothing.  Not for schedules, which
   outlive the call (coll_sched_scratch). */
void *coll_scratch_get(size_t bytes);
void coll_scratch_put(void *p);
/* coll_tmp_alloc on the scratch stack: give *mem_p back with coll_scratch_put */
void *coll_tmp_get(compi_datatype_t *dt, size_t count, void **mem_p);
/* reduce-scatter(-block) block counts on the scratch stack: c[i] the count of block i,
   c[p + i] its offset in elements, the sum in *total_p; NULL when out of memory */
size_t *coll_rs_counts_get(const coll_call_t *call, size_t *total_p);
/* count elements in p nearly equal blocks on the scratch stack: c[i] the count of block
   i (the first count % p get one more), c[p + i] its offset; NULL when out of memory */
size_t *coll_blocks_get(size_t count, int p);
/* the same two splits into c[2 p] of the caller's (a schedule's: coll_sched_alloc) */
size_t coll_rs_counts_fill(const coll_call_t *call, size_t *c);
void coll_blocks_fill(size_t count, int p, size_t *c);
/* copy `count` elements between two buffers of the same datatype layout (or packed
   through dt_pack/dt_unpack when the datatypes differ but the signatures match) */
compi_status_t coll_copy(const void *sbuf, size_t scount, compi_datatype_t *sdt, void *rbuf,
                         size_t rcount, compi_datatype_t *rdt);

/* ---- key -------------------------------------------------------------------------- */

/* whether `call` runs in the root's group of an intercommunicator's rooted collective
   (root MPI_ROOT or MPI_PROC_NULL; the unrooted kinds pass root -1, MPI_PROC_NULL's value
   too, so the kind decides) */
static inline int coll_call_in_root_group(const coll_call_t *call)
{
    coll_kind_t k = call->kind;
    int rooted = k == COLL_BCAST || k == COLL_REDUCE || k == COLL_GATHER || k == COLL_GATHERV ||
                 k == COLL_SCATTER || k == COLL_SCATTERV;
    return rooted && (call->root == MPI_ROOT || call->root == MPI_PROC_NULL);
}

static inline void coll_key_of(const coll_call_t *call, coll_key_t *key)
{
    key->kind = (uint32_t)call->kind;
    key->mode = (uint32_t)call->mode;
    key->root = call->root;
    key->bytes = call->bytes;
    key->op = 0;
    key->datatype = 0;
    if (call->op != NULL) {
        /* reductions: the op and the datatype are the same on every rank */
        key->op = call->op->handle;
        key->datatype = call->rdt->handle; /* reductions: sdt == rdt == the datatype */
    }
}

#endif
