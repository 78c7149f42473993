/*
 * mpitest.h -- helpers shared by the MPI test programs in tests/mpi/.
 *
 * Ownership: header-only, no state beyond the per-process error counter below.  The
 * programs include only <mpi.h> and the C library, as user programs do, so the same
 * sources build with compi, Open MPI and MPICH.
 *
 * Conventions: a program counts its failed checks, prints each mismatch with its rank and
 * source line, and exits 1 when any check failed.  Rank 0 prints one short line on
 * success.  No collective is used here (compi's collectives come later): the helpers that
 * need to synchronise do it with point-to-point messages on a reserved tag.
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
    mt_errors++;
}

/* a failed check is reported and counted, and the program goes on */
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

static inline void mt_init(int *argc, char ***argv, const char *name)
{
    mt_name = name;
    MPI_OK(MPI_Init(argc, argv));
    MPI_OK(MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank));
    MPI_OK(MPI_Comm_size(MPI_COMM_WORLD, &mt_size));
    MPI_OK(MPI_Comm_dup(MPI_COMM_WORLD, &mt_sync_comm));
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

#endif
