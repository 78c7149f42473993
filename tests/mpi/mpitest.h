/*
 * mpitest.h -- helpers shared by the MPI test programs in tests/mpi/.
 *
 * Ownership: header-only, no state beyond the per-process error counter below.  The
 * programs include only <mpi.h> and the C library, as user programs do, so the same
 * sources build with compi, Open MPI and MPICH.
 *
 * Conventions: a program counts its failed checks, prints each mismatch with its rank and
 * source line, and exits 1 when any check failed.  Rank 0 prints one short line on
 * success.  The helpers that need to synchronise do it with point-to-point messages on a
 * reserved tag, never with a collective; only the collective checks at the end (mt_coll_*)
 * call collectives, the ones they check.
 */
#ifndef MPITEST_H
#define MPITEST_H

#include <mpi.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int mt_errors;
static int mt_rank = -1;
static int mt_size = -1;
static const char *mt_name = "?";
/* private copy of WORLD for mt_finish's barrier, so that a test's wildcard receives on
   WORLD can never match it */
static MPI_Comm mt_sync_comm = MPI_COMM_NULL;

/* tag reserved for the helpers; the tests use tags well below it */
#define MT_SYNC_TAG 30999

static inline void mt_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline void mt_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    char msg[512];

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    fprintf(stderr, "FAIL %s rank %d (%s:%d): %s\n", mt_name, mt_rank, file, line, msg);
    fflush(stderr);
    __atomic_add_fetch(&mt_errors, 1, __ATOMIC_RELAXED); /* threads of a test check too */
}

/* a failed check is reported and counted, and the program goes on (from any thread) */
#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond))                                                                          \
            mt_fail(__FILE__, __LINE__, __VA_ARGS__);                                         \
    } while (0)

/* an MPI call that must succeed; a failure makes the rest of the test meaningless */
#define MPI_OK(call)                                                                          \
    do {                                                                                      \
        int mt_rc_ = (call);                                                                  \
        if (mt_rc_ != MPI_SUCCESS) {                                                          \
            mt_fail(__FILE__, __LINE__, "%s returned %d", #call, mt_rc_);                     \
            MPI_Abort(MPI_COMM_WORLD, 2);                                                     \
        }                                                                                     \
    } while (0)

/* rc is of error class `want` (MPI_SUCCESS: the call succeeded), as MPI_Error_class says;
   `what` names the call in the message, file and line where the test made it */
static inline void mt_expect_class_at(int rc, int want, const char *what, const char *file,
                                      int line)
{
    int got = MPI_SUCCESS;

    if (rc != MPI_SUCCESS && MPI_Error_class(rc, &got) != MPI_SUCCESS) {
        mt_fail(file, line, "%s: returned %d, which MPI_Error_class refuses", what, rc);
        return;
    }
    if (got != want) {
        if (rc == MPI_SUCCESS) {
            mt_fail(file, line, "%s succeeded, expected error class %d", what, want);
        } else {
            mt_fail(file, line, "%s: error class %d (code %d), expected %d", what, got, rc, want);
        }
    }
}
#define mt_expect_class(rc, want, what) mt_expect_class_at((rc), (want), (what), __FILE__, __LINE__)

/* The largest message, in bytes per rank, that the programs sweeping sizes should use:
   `dflt`, or less when COMPI_TEST_MAX_BYTES says so (the sanitized build sets it:
   tests/sanitizers/env.sh). */
static inline long mt_max_bytes(long dflt)
{
    const char *v = getenv("COMPI_TEST_MAX_BYTES");
    long m = v != NULL ? atol(v) : 0;
    return m > 0 && m < dflt ? m : dflt;
}

/* MPI_Init, or with `multiple` MPI_Init_thread at MPI_THREAD_MULTIPLE (a check fails
   when it is not provided), then the rank, the size and the private copy of WORLD */
static inline void mt_init_level(int *argc, char ***argv, const char *name, int multiple)
{
    int provided = MPI_THREAD_MULTIPLE;
    mt_name = name;
    if (multiple) {
        MPI_OK(MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided));
    } else {
        MPI_OK(MPI_Init(argc, argv));
    }
    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank));
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &mt_size));
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &mt_sync_comm));
    CHECK(provided == MPI_THREAD_MULTIPLE, "provided thread level %d", provided);
}

static inline void mt_init(int *argc, char ***argv, const char *name)
{
    mt_init_level(argc, argv, name, 0);
}

/* barrier over `comm` built from point-to-point: gather to 0, then release */
static inline void mt_barrier(MPI_Comm comm)
{
    int rank, size, token = 0;

    MPI_OK(MPI_Comm_rank(comm, &rank));
    MPI_OK(MPI_Comm_size(comm, &size));
    if (rank == 0) {
        for (int r = 1; r < size; r++)
            MPI_OK(MPI_Recv(&token, 1, MPI_INT, r, MT_SYNC_TAG, comm, MPI_STATUS_IGNORE));
        for (int r = 1; r < size; r++)
            MPI_OK(MPI_Send(&token, 1, MPI_INT, r, MT_SYNC_TAG, comm));
    } else {
        MPI_OK(MPI_Send(&token, 1, MPI_INT, 0, MT_SYNC_TAG, comm));
        MPI_OK(MPI_Recv(&token, 1, MPI_INT, 0, MT_SYNC_TAG, comm, MPI_STATUS_IGNORE));
    }
}

/*
 * Finalize and turn the error count into the exit status.  The counts are not combined
 * across ranks: mpirun reports a non-zero exit of any rank, which is what the runner
 * checks.
 */
static inline int mt_finish(void)
{
    int errs = mt_errors;

    mt_barrier(mt_sync_comm);
    MPI_OK(MPI_Comm_free(&mt_sync_comm));
    MPI_OK(MPI_Finalize());
    if (errs == 0 && mt_rank == 0)
        printf("ok: %s np=%d\n", mt_name, mt_size);
    if (errs != 0)
        fprintf(stderr, "%s rank %d: %d check(s) failed\n", mt_name, mt_rank, errs);
    return errs == 0 ? 0 : 1;
}

/* the byte a sender puts at `off` of message `msg` from `src`: depends on all three */
static inline unsigned char mt_pattern(int src, long msg, size_t off)
{
    uint64_t x = (uint64_t)off * 0x9E3779B1u + (uint64_t)src * 0x85EBCA77u +
                 (uint64_t)msg * 0xC2B2AE3Du;
    x ^= x >> 29;
    return (unsigned char)(x ^ (x >> 11) ^ (off >> 8));
}

static inline void mt_fill(unsigned char *buf, size_t len, int src, long msg)
{
    for (size_t i = 0; i < len; i++)
        buf[i] = mt_pattern(src, msg, i);
}

/* returns the first mismatching offset, or -1 when all of `len` bytes match */
static inline long mt_verify(const unsigned char *buf, size_t len, int src, long msg)
{
    for (size_t i = 0; i < len; i++)
        if (buf[i] != mt_pattern(src, msg, i))
            return (long)i;
    return -1;
}

static inline void *mt_malloc(size_t len)
{
    void *p = malloc(len ? len : 1);

    if (!p) {
        fprintf(stderr, "%s rank %d: out of memory (%zu bytes)\n", mt_name, mt_rank, len);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    return p;
}

/* ---- int vectors with guard elements, for the collective tests ---------------------- */

#define MT_SENTINEL (-77777777)

/* what rank r puts at element i of call s: in [-1000, 1000], so sums of 8 never overflow */
static inline int mt_ival(long r, long i, int s)
{
    uint64_t x = (uint64_t)r * 0x9E3779B1u + (uint64_t)i * 0x85EBCA77u + (uint64_t)s * 0xC2B2AE3Du;

    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return (int)(x % 2001) - 1000;
}

/* n elements plus `guard' sentinels */
static inline int *mt_ibuf(long guard, long n)
{
    int *p = mt_malloc((size_t)(n + guard) * sizeof(int));

    for (long i = 0; i < n + guard; i++)
        p[i] = MT_SENTINEL;
    return p;
}

/* compares n + guard elements: the guards of `exp' hold MT_SENTINEL */
static inline void mt_check_ints(long guard, const int *got, const int *exp, long n,
                                 const char *what)
{
    long bad = 0, first = -1;

    for (long i = 0; i < n + guard; i++)
        if (got[i] != exp[i]) {
            if (first < 0)
                first = i;
            bad++;
        }
    if (first >= 0)
        CHECK(0, "%s: %ld of %ld elements wrong, first at %ld%s: got %d, expected %d", what, bad, n,
              first, first >= n ? " (past the end)" : "", got[first], exp[first]);
}

/* a non-commutative user op: affine maps x -> a x + b as (a, b) pairs of unsigned;
   in op inout = in o inout */
static inline void mt_affine(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    unsigned *u = in, *v = inout;
    for (int i = 0; i < *len; i++, u += 2, v += 2) {
        unsigned a = u[0] * v[0], b = u[0] * v[1] + u[1];
        v[0] = a;
        v[1] = b;
    }
}

/* rank r's map of element i in the tests of mt_affine: x -> (2r + 3 + i) x + 5r + i */
static inline void mt_affine_of(int r, size_t i, unsigned *ab)
{
    ab[0] = 2u * (unsigned)r + 3u + (unsigned)i;
    ab[1] = 5u * (unsigned)r + (unsigned)i;
}

/* n elements of rank r's maps into v (pairs) */
static inline void mt_affine_fill(unsigned *v, size_t n, int r)
{
    for (size_t i = 0; i < n; i++)
        mt_affine_of(r, i, v + 2 * i);
}

/* the first element of the n pairs in `got` that is not f0 o f1 o ... o f(np-1) (the maps
   of mt_affine_of, composed in rank order) is reported as a failed check of `what` */
static inline void mt_affine_check(const unsigned *got, size_t n, int np, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        unsigned a = 1, b = 0, f[2];
        for (int r = np - 1; r >= 0; r--) { /* built right to left */
            mt_affine_of(r, i, f);
            b = f[0] * b + f[1];
            a = f[0] * a;
        }
        if (got[2 * i] != a || got[2 * i + 1] != b) {
            CHECK(0, "%s count %zu: [%zu] = (%u, %u), expected (%u, %u)", what, n, i, got[2 * i],
                  got[2 * i + 1], a, b);
            return;
        }
    }
}

/* ---- the basic collectives checked on any communicator --------------------------------
   Bcast, Reduce, Allreduce, Gather, Scatter and Allgather of MPI_INT against a local
   reference, for the tests that run them on MPI_COMM_WORLD (coll_basic.c) and on other
   communicators (coll_topo.c).  Every rank's block is mt_ival(rank, i, salt), the salt
   being the call's number, the same on every rank, so that data of an earlier call is
   caught; buffers are mt_ibuf's, whose guard elements must stay untouched.  A failed
   check names the collective, the count, the root, whether in place, and the
   communicator. */

typedef struct mt_coll {
    MPI_Comm comm;
    int rank, size;   /* in comm */
    const char *name; /* in messages: "... on NAME"; NULL: nothing added */
    long guard;       /* mt_ibuf's guard elements */
} mt_coll_t;

static inline void mt_coll_ints(const mt_coll_t *t, const int *got, const int *exp, long n,
                                const char *what)
{
    char text[256];

    snprintf(text, sizeof(text), "%s%s%s", what, t->name ? " on " : "", t->name ? t->name : "");
    mt_check_ints(t->guard, got, exp, n, text);
}

static inline const char *mt_ip_text(int inplace)
{
    return inplace ? " in place" : "";
}

/* element i of the sum over the ranks of t */
static inline int mt_coll_sum(const mt_coll_t *t, long i, int s)
{
    long acc = 0;

    for (int r = 0; r < t->size; r++)
        acc += mt_ival(r, i, s);
    return (int)acc;
}

/* the blocks of n of every rank of t, in rank order */
static inline int *mt_coll_blocks(const mt_coll_t *t, long n, int s)
{
    int *b = mt_ibuf(t->guard, n * t->size);

    for (int r = 0; r < t->size; r++)
        for (long i = 0; i < n; i++)
            b[r * n + i] = mt_ival(r, i, s);
    return b;
}

static inline void mt_coll_bcast(const mt_coll_t *t, long n, int root, int s)
{
    int *buf = mt_ibuf(t->guard, n), *exp = mt_ibuf(t->guard, n);
    char what[96];

    for (long i = 0; i < n; i++) {
        exp[i] = mt_ival(root, i, s);
        if (t->rank == root)
            buf[i] = exp[i];
    }
    MPI_OK(MPI_Bcast(buf, (int)n, MPI_INT, root, t->comm));
    snprintf(what, sizeof(what), "Bcast count %ld root %d", n, root);
    mt_coll_ints(t, buf, exp, n, what);
    free(buf);
    free(exp);
}

/* Reduce to root, or with root < 0 Allreduce, of MPI_SUM */
static inline void mt_coll_reduce(const mt_coll_t *t, long n, int root, int inplace, int s)
{
    int *sbuf = mt_ibuf(t->guard, n), *rbuf = NULL, *exp = mt_ibuf(t->guard, n);
    const void *src = sbuf;
    char what[96];

    for (long i = 0; i < n; i++) {
        sbuf[i] = mt_ival(t->rank, i, s);
        exp[i] = mt_coll_sum(t, i, s);
    }
    if (root < 0 || t->rank == root) {
        rbuf = mt_ibuf(t->guard, n);
        if (inplace) {
            memcpy(rbuf, sbuf, (size_t)n * sizeof(int));
            src = MPI_IN_PLACE;
        }
    }
    if (root < 0) {
        MPI_OK(MPI_Allreduce(src, rbuf, (int)n, MPI_INT, MPI_SUM, t->comm));
        snprintf(what, sizeof(what), "Allreduce count %ld%s", n, mt_ip_text(inplace));
    } else {
        MPI_OK(MPI_Reduce(src, rbuf, (int)n, MPI_INT, MPI_SUM, root, t->comm));
        snprintf(what, sizeof(what), "Reduce count %ld root %d%s", n, root, mt_ip_text(inplace));
    }
    if (root < 0 || t->rank == root)
        mt_coll_ints(t, rbuf, exp, n, what);
    free(sbuf);
    free(rbuf);
    free(exp);
}

/* Gather to root, or with root < 0 Allgather */
static inline void mt_coll_gather(const mt_coll_t *t, long n, int root, int inplace, int s)
{
    int *sbuf = mt_ibuf(t->guard, n), *rbuf = NULL, *exp = NULL;
    const void *src = sbuf;
    char what[96];

    for (long i = 0; i < n; i++)
        sbuf[i] = mt_ival(t->rank, i, s);
    if (root < 0 || t->rank == root) {
        rbuf = mt_ibuf(t->guard, n * t->size);
        exp = mt_coll_blocks(t, n, s);
        if (inplace) {
            memcpy(rbuf + t->rank * n, sbuf, (size_t)n * sizeof(int));
            src = MPI_IN_PLACE;
        }
    }
    if (root < 0) {
        MPI_OK(MPI_Allgather(src, (int)n, MPI_INT, rbuf, (int)n, MPI_INT, t->comm));
        snprintf(what, sizeof(what), "Allgather count %ld%s", n, mt_ip_text(inplace));
    } else {
        MPI_OK(MPI_Gather(src, (int)n, MPI_INT, rbuf, (int)n, MPI_INT, root, t->comm));
        snprintf(what, sizeof(what), "Gather count %ld root %d%s", n, root, mt_ip_text(inplace));
    }
    if (root < 0 || t->rank == root)
        mt_coll_ints(t, rbuf, exp, n * t->size, what);
    free(sbuf);
    free(rbuf);
    free(exp);
}

static inline void mt_coll_scatter(const mt_coll_t *t, long n, int root, int inplace, int s)
{
    int *sbuf = NULL, *rbuf = mt_ibuf(t->guard, n), *exp = mt_ibuf(t->guard, n);
    void *dst = rbuf;
    char what[96];

    if (t->rank == root) {
        sbuf = mt_coll_blocks(t, n, s);
        if (inplace)
            dst = MPI_IN_PLACE;
    }
    for (long i = 0; i < n; i++)
        exp[i] = mt_ival(t->rank, i, s);
    MPI_OK(MPI_Scatter(sbuf, (int)n, MPI_INT, dst, (int)n, MPI_INT, root, t->comm));
    snprintf(what, sizeof(what), "Scatter count %ld root %d%s", n, root, mt_ip_text(inplace));
    if (dst == MPI_IN_PLACE) {
        /* the root's block stays in the send buffer, and the rest of it is untouched */
        long bad = -1;
        for (long i = 0; i < n * t->size && bad < 0; i++)
            if (sbuf[i] != mt_ival(i / n, i % n, s))
                bad = i;
        CHECK(bad < 0, "%s%s%s: the send buffer changed at %ld", what, t->name ? " on " : "",
              t->name ? t->name : "", bad);
        memcpy(rbuf, sbuf + root * n, (size_t)n * sizeof(int));
    }
    mt_coll_ints(t, rbuf, exp, n, what);
    free(sbuf);
    free(rbuf);
    free(exp);
}

#endif
