/*
 * coll_alloc.c -- a collective served by a cached closure allocates nothing.
 *
 * For every collective kind (barrier ... exscan, and the five neighbourhood kinds on a
 * periodic 2-D Cartesian communicator), in each mode -- blocking, nonblocking completed
 * by MPI_Wait, persistent (one request made once, MPI_Start + MPI_Wait) -- and at three
 * sizes per block (8 B, 3 KiB: eager; 64 KiB: past the shared-memory eager limit, so
 * rendezvous; allreduce also 512 KiB), and allreduce and alltoall with MPI_IN_PLACE
 * too, the program warms up (the first calls build and cache the closure, and let pools
 * reach their steady state), then counts the allocations of the process over ITERS more
 * calls.  Every call gets new contents and every result is checked against a
 * reference computed locally, so the loop does the real work.
 *
 * The counter is tests/mpi/alloc_count.c, preloaded by tests/mpi/coll_alloc.sh: it sees
 * every malloc, calloc, realloc, posix_memalign ... of every thread.  The program finds
 * it through two weak symbols.  Rank 0 prints one line per kind, mode and size with the
 * allocations of all ranks; any allocation fails the test, and its line names the kind,
 * the mode and the size.  COMPI_ALLOC_COUNT_BACKTRACE=1 makes the counter print where
 * each one came from; an argument (a kind: "allreduce") runs that kind only.
 *
 * Without the counter (run by hand, or in the sanitized build, where AddressSanitizer
 * replaces malloc and must come first in LD_PRELOAD, so a counter after it would see
 * nothing) every kind, mode and size still runs and is checked, but only its miss and
 * three hits (the long warm-up and the counted calls are for the counter), and rank 0
 * says that it could not count.  COMPI_ALLOC_COUNT_REQUIRED=1 (set by coll_alloc.sh when
 * it preloads the counter) makes a missing counter a failure, so the test cannot pass by
 * not counting.
 */
#include <mpi.h>

#include "tests/mpi/mpitest.h"

#define WARM 10
#define ITERS 24
#define PACE 8 /* a barrier after every PACE calls (see run) */
#define MAXDEG 4 /* neighbours on a 2-D Cartesian grid */

void compi_alloc_count_start(void) __attribute__((weak));
long compi_alloc_count_stop(long *frees) __attribute__((weak));

enum {
    K_BARRIER,
    K_BCAST,
    K_REDUCE,
    K_ALLREDUCE,
    K_GATHER,
    K_GATHERV,
    K_SCATTER,
    K_SCATTERV,
    K_ALLGATHER,
    K_ALLGATHERV,
    K_ALLTOALL,
    K_ALLTOALLV,
    K_ALLTOALLW,
    K_REDUCE_SCATTER,
    K_REDUCE_SCATTER_BLOCK,
    K_SCAN,
    K_EXSCAN,
    K_NB_ALLGATHER,
    K_NB_ALLGATHERV,
    K_NB_ALLTOALL,
    K_NB_ALLTOALLV,
    K_NB_ALLTOALLW,
    K_N
};

static const char *const kind_names[K_N] = {
    "barrier",        "bcast",
    "reduce",         "allreduce",
    "gather",         "gatherv",
    "scatter",        "scatterv",
    "allgather",      "allgatherv",
    "alltoall",       "alltoallv",
    "alltoallw",      "reduce_scatter",
    "reduce_scatter_block", "scan",
    "exscan",         "neighbor_allgather",
    "neighbor_allgatherv", "neighbor_alltoall",
    "neighbor_alltoallv", "neighbor_alltoallw",
};

enum { M_BLOCKING, M_NONBLOCKING, M_PERSISTENT, M_N };
static const char *const mode_names[M_N] = {"blocking", "nonblocking", "persistent"};

/* bytes per block; the last, for allreduce only, takes the defaults to the segmented ring
   (np 2 to 4) or the ring (np >= 5) */
static const int sizes[] = {8, 3 * 1024, 64 * 1024, 512 * 1024};
#define NSIZES ((int)(sizeof(sizes) / sizeof(sizes[0])))

static int rank, size;
static int in_place; /* the round runs allreduce or alltoall with MPI_IN_PLACE */
static MPI_Comm cart;
static int deg, in_nb[MAXDEG], out_nb[MAXDEG];

/* the buffers of one (kind, size): made before the warm-up, kept over the loop */
typedef struct bufs {
    int n;     /* ints per block */
    int root;
    MPI_Comm comm;
    int *sbuf, *rbuf;
    int scounts[64], sdispls[64], rcounts[64], rdispls[64];
    MPI_Datatype stypes[64], rtypes[64];
    MPI_Aint sbdispls[64], rbdispls[64]; /* neighbor-alltoallw: bytes */
    size_t slen, rlen; /* ints */
} bufs_t;

static int val(int it, int r, int blk, int i)
{
    return it * 7919 + r * 1009 + blk * 101 + i;
}

/* ints that rank s sends to rank d in the v kinds */
static int vcount(int n, int s, int d)
{
    return n + (s + d) % 2;
}

static void setup(int k, int n, bufs_t *b)
{
    memset(b, 0, sizeof(*b));
    b->n = n;
    b->root = size - 1;
    b->comm = k >= K_NB_ALLGATHER ? cart : MPI_COMM_WORLD;
    int p = k >= K_NB_ALLGATHER ? deg : size;
    size_t s = (size_t)n, r = (size_t)n;
    switch (k) {
    case K_GATHER:
    case K_ALLGATHER:
    case K_NB_ALLGATHER:
        r = (size_t)n * (size_t)p;
        break;
    case K_SCATTER:
        s = (size_t)n * (size_t)p;
        break;
    case K_ALLTOALL:
    case K_NB_ALLTOALL:
    case K_REDUCE_SCATTER_BLOCK:
        s = (size_t)n * (size_t)p;
        r = k == K_REDUCE_SCATTER_BLOCK ? (size_t)n : (size_t)n * (size_t)p;
        break;
    case K_GATHERV:
    case K_SCATTERV:
    case K_ALLGATHERV:
    case K_REDUCE_SCATTER: {
        /* block b holds vcount(n, b, 0) ints, one int of gap after each */
        int off = 0;
        for (int i = 0; i < size; i++) {
            b->rcounts[i] = vcount(n, i, 0);
            b->rdispls[i] = off;
            off += b->rcounts[i] + 1;
        }
        if (k == K_SCATTERV) {
            memcpy(b->scounts, b->rcounts, sizeof(b->scounts));
            memcpy(b->sdispls, b->rdispls, sizeof(b->sdispls));
            s = (size_t)off;
            r = (size_t)vcount(n, rank, 0);
        } else if (k == K_REDUCE_SCATTER) {
            s = (size_t)off; /* the gaps are reduced too: simpler than packing */
            for (int i = 0; i < size; i++) {
                b->rcounts[i] = vcount(n, i, 0) + 1;
            }
            r = (size_t)b->rcounts[rank];
        } else {
            s = (size_t)vcount(n, rank, 0);
            r = (size_t)off;
        }
        break;
    }
    case K_ALLTOALLV:
    case K_ALLTOALLW:
    case K_NB_ALLTOALLV:
    case K_NB_ALLTOALLW: {
        int so = 0, ro = 0;
        for (int i = 0; i < p; i++) {
            int nb = k >= K_NB_ALLGATHER;
            b->scounts[i] = nb ? n : vcount(n, rank, i);
            b->rcounts[i] = nb ? n : vcount(n, i, rank);
            b->sdispls[i] = so;
            b->rdispls[i] = ro;
            b->sbdispls[i] = (MPI_Aint)so * (MPI_Aint)sizeof(int);
            b->rbdispls[i] = (MPI_Aint)ro * (MPI_Aint)sizeof(int);
            b->stypes[i] = b->rtypes[i] = MPI_INT;
            so += b->scounts[i] + 1;
            ro += b->rcounts[i] + 1;
        }
        if (k == K_ALLTOALLW) {
            for (int i = 0; i < p; i++) {
                b->sdispls[i] *= (int)sizeof(int);
                b->rdispls[i] *= (int)sizeof(int);
            }
        }
        s = (size_t)so;
        r = (size_t)ro;
        break;
    }
    case K_NB_ALLGATHERV: {
        for (int i = 0; i < p; i++) {
            b->rcounts[i] = n;
            b->rdispls[i] = i * (n + 1);
        }
        r = (size_t)p * (size_t)(n + 1);
        break;
    }
    default:
        break;
    }
    b->slen = s;
    b->rlen = r;
    b->sbuf = calloc(s + 1, sizeof(int));
    b->rbuf = calloc(r + 1, sizeof(int));
    if (b->sbuf == NULL || b->rbuf == NULL) {
        mt_fail(__FILE__, __LINE__, "out of memory");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

static void teardown(bufs_t *b)
{
    free(b->sbuf);
    free(b->rbuf);
}

/* new contents for round `it`: block blk of the send side gets val(it, rank, blk, i) */
static void fill(int k, int it, bufs_t *b)
{
    int n = b->n;
    switch (k) {
    case K_BCAST:
        for (int i = 0; i < n; i++) {
            b->sbuf[i] = rank == b->root ? val(it, rank, 0, i) : -1;
        }
        return;
    case K_SCATTER:
    case K_ALLTOALL:
    case K_NB_ALLTOALL:
        for (size_t j = 0; j < b->slen; j++) {
            b->sbuf[j] = val(it, rank, (int)(j / (size_t)n), (int)(j % (size_t)n));
        }
        break;
    case K_SCATTERV:
    case K_ALLTOALLV:
    case K_NB_ALLTOALLV: {
        int p = k == K_NB_ALLTOALLV ? deg : size;
        for (int d = 0; d < p; d++) {
            for (int i = 0; i < b->scounts[d]; i++) {
                b->sbuf[b->sdispls[d] + i] = val(it, rank, d, i);
            }
        }
        break;
    }
    case K_ALLTOALLW:
    case K_NB_ALLTOALLW: {
        int p = k == K_NB_ALLTOALLW ? deg : size;
        for (int d = 0; d < p; d++) {
            for (int i = 0; i < b->scounts[d]; i++) {
                b->sbuf[b->sbdispls[d] / (MPI_Aint)sizeof(int) + i] = val(it, rank, d, i);
            }
        }
        break;
    }
    default:
        for (size_t j = 0; j < b->slen; j++) {
            b->sbuf[j] = val(it, rank, 0, (int)j);
        }
        break;
    }
    for (size_t j = 0; j < b->rlen; j++) {
        b->rbuf[j] = -7;
    }
    if (in_place) {
        /* allreduce, alltoall: the send side has the receive side's layout */
        memcpy(b->rbuf, b->sbuf, b->slen * sizeof(int));
    }
}

static int sum_upto(int it, int last, int i) /* sum over ranks 0..last of val(it, r, 0, i) */
{
    int t = 0;
    for (int r = 0; r <= last; r++) {
        t += val(it, r, 0, i);
    }
    return t;
}

/* the block a Cartesian in-neighbour sent into our block i (MPI-4.1: the blocks of a
   dimension's two directions cross) */
static int cart_peer_block(int i)
{
    return i ^ 1;
}

static const char *ip_name(void)
{
    return in_place ? " in place" : "";
}

static int bad(int k, int mode, int n, int it, size_t j, int got, int exp)
{
    mt_fail(__FILE__, __LINE__, "%s%s %s %d B round %d: element %zu is %d, expected %d",
            kind_names[k], ip_name(), mode_names[mode], n * (int)sizeof(int), it, j, got, exp);
    return 1;
}

/* check round `it`'s results; returns non-zero on the first mismatch */
static int check(int k, int mode, int it, const bufs_t *b)
{
    int n = b->n;
    const int *rb = b->rbuf;
#define EXPECT(j, e)                                                                          \
    do {                                                                                      \
        int e_ = (e);                                                                         \
        if (rb[j] != e_)                                                                      \
            return bad(k, mode, n, it, (size_t)(j), rb[j], e_);                          \
    } while (0)
    switch (k) {
    case K_BARRIER:
        return 0;
    case K_BCAST:
        rb = b->sbuf;
        for (int i = 0; i < n; i++) {
            EXPECT(i, val(it, b->root, 0, i));
        }
        return 0;
    case K_REDUCE:
        if (rank == b->root) {
            for (int i = 0; i < n; i++) {
                EXPECT(i, sum_upto(it, size - 1, i));
            }
        }
        return 0;
    case K_ALLREDUCE:
        for (int i = 0; i < n; i++) {
            EXPECT(i, sum_upto(it, size - 1, i));
        }
        return 0;
    case K_SCAN:
        for (int i = 0; i < n; i++) {
            EXPECT(i, sum_upto(it, rank, i));
        }
        return 0;
    case K_EXSCAN:
        if (rank > 0) {
            for (int i = 0; i < n; i++) {
                EXPECT(i, sum_upto(it, rank - 1, i));
            }
        }
        return 0;
    case K_GATHER:
    case K_ALLGATHER:
        if (k == K_ALLGATHER || rank == b->root) {
            for (int s = 0; s < size; s++) {
                for (int i = 0; i < n; i++) {
                    EXPECT(s * n + i, val(it, s, 0, i));
                }
            }
        }
        return 0;
    case K_GATHERV:
    case K_ALLGATHERV:
        if (k == K_ALLGATHERV || rank == b->root) {
            for (int s = 0; s < size; s++) {
                for (int i = 0; i < b->rcounts[s]; i++) {
                    EXPECT(b->rdispls[s] + i, val(it, s, 0, i));
                }
                EXPECT(b->rdispls[s] + b->rcounts[s], -7); /* the gap */
            }
        }
        return 0;
    case K_SCATTER:
        for (int i = 0; i < n; i++) {
            EXPECT(i, val(it, b->root, rank, i));
        }
        return 0;
    case K_SCATTERV:
        for (int i = 0; i < vcount(n, rank, 0); i++) {
            EXPECT(i, val(it, b->root, rank, i));
        }
        return 0;
    case K_ALLTOALL:
        for (int s = 0; s < size; s++) {
            for (int i = 0; i < n; i++) {
                EXPECT(s * n + i, val(it, s, rank, i));
            }
        }
        return 0;
    case K_ALLTOALLV:
    case K_ALLTOALLW:
        for (int s = 0; s < size; s++) {
            int at = k == K_ALLTOALLW ? b->rdispls[s] / (int)sizeof(int) : b->rdispls[s];
            for (int i = 0; i < b->rcounts[s]; i++) {
                EXPECT(at + i, val(it, s, rank, i));
            }
            EXPECT(at + b->rcounts[s], -7);
        }
        return 0;
    case K_REDUCE_SCATTER:
        for (int i = 0; i < b->rcounts[rank]; i++) {
            EXPECT(i, sum_upto(it, size - 1, b->rdispls[rank] + i));
        }
        return 0;
    case K_REDUCE_SCATTER_BLOCK:
        for (int i = 0; i < n; i++) {
            EXPECT(i, sum_upto(it, size - 1, rank * n + i));
        }
        return 0;
    case K_NB_ALLGATHER:
        for (int j = 0; j < deg; j++) {
            for (int i = 0; i < n; i++) {
                EXPECT(j * n + i, val(it, in_nb[j], 0, i));
            }
        }
        return 0;
    case K_NB_ALLGATHERV:
        for (int j = 0; j < deg; j++) {
            for (int i = 0; i < n; i++) {
                EXPECT(b->rdispls[j] + i, val(it, in_nb[j], 0, i));
            }
            EXPECT(b->rdispls[j] + n, -7);
        }
        return 0;
    case K_NB_ALLTOALL:
        for (int j = 0; j < deg; j++) {
            for (int i = 0; i < n; i++) {
                EXPECT(j * n + i, val(it, in_nb[j], cart_peer_block(j), i));
            }
        }
        return 0;
    case K_NB_ALLTOALLV:
    case K_NB_ALLTOALLW:
        for (int j = 0; j < deg; j++) {
            for (int i = 0; i < n; i++) {
                EXPECT(b->rdispls[j] + i, val(it, in_nb[j], cart_peer_block(j), i));
            }
            EXPECT(b->rdispls[j] + n, -7);
        }
        return 0;
    }
#undef EXPECT
    return 0;
}

/* one call of kind k: blocking, nonblocking (into *req) or persistent init (into *req) */
static void issue(int k, int mode, bufs_t *b, MPI_Request *req)
{
    int n = b->n, root = b->root;
    MPI_Comm c = b->comm;
    void *s = in_place ? MPI_IN_PLACE : (void *)b->sbuf, *r = b->rbuf;
    MPI_Info info = MPI_INFO_NULL;
    int rc = MPI_SUCCESS;
    switch (k) {
    case K_BARRIER:
        rc = mode == M_BLOCKING      ? MPI_Barrier(c)
             : mode == M_NONBLOCKING ? MPI_Ibarrier(c, req)
                                     : MPI_Barrier_init(c, info, req);
        break;
    case K_BCAST:
        rc = mode == M_BLOCKING      ? MPI_Bcast(s, n, MPI_INT, root, c)
             : mode == M_NONBLOCKING ? MPI_Ibcast(s, n, MPI_INT, root, c, req)
                                     : MPI_Bcast_init(s, n, MPI_INT, root, c, info, req);
        break;
    case K_REDUCE:
        rc = mode == M_BLOCKING ? MPI_Reduce(s, r, n, MPI_INT, MPI_SUM, root, c)
             : mode == M_NONBLOCKING
                 ? MPI_Ireduce(s, r, n, MPI_INT, MPI_SUM, root, c, req)
                 : MPI_Reduce_init(s, r, n, MPI_INT, MPI_SUM, root, c, info, req);
        break;
    case K_ALLREDUCE:
        rc = mode == M_BLOCKING      ? MPI_Allreduce(s, r, n, MPI_INT, MPI_SUM, c)
             : mode == M_NONBLOCKING ? MPI_Iallreduce(s, r, n, MPI_INT, MPI_SUM, c, req)
                                     : MPI_Allreduce_init(s, r, n, MPI_INT, MPI_SUM, c, info, req);
        break;
    case K_SCAN:
        rc = mode == M_BLOCKING      ? MPI_Scan(s, r, n, MPI_INT, MPI_SUM, c)
             : mode == M_NONBLOCKING ? MPI_Iscan(s, r, n, MPI_INT, MPI_SUM, c, req)
                                     : MPI_Scan_init(s, r, n, MPI_INT, MPI_SUM, c, info, req);
        break;
    case K_EXSCAN:
        rc = mode == M_BLOCKING      ? MPI_Exscan(s, r, n, MPI_INT, MPI_SUM, c)
             : mode == M_NONBLOCKING ? MPI_Iexscan(s, r, n, MPI_INT, MPI_SUM, c, req)
                                     : MPI_Exscan_init(s, r, n, MPI_INT, MPI_SUM, c, info, req);
        break;
    case K_GATHER:
        rc = mode == M_BLOCKING ? MPI_Gather(s, n, MPI_INT, r, n, MPI_INT, root, c)
             : mode == M_NONBLOCKING
                 ? MPI_Igather(s, n, MPI_INT, r, n, MPI_INT, root, c, req)
                 : MPI_Gather_init(s, n, MPI_INT, r, n, MPI_INT, root, c, info, req);
        break;
    case K_GATHERV: {
        int sc = vcount(n, rank, 0);
        rc = mode == M_BLOCKING
                 ? MPI_Gatherv(s, sc, MPI_INT, r, b->rcounts, b->rdispls, MPI_INT, root, c)
             : mode == M_NONBLOCKING
                 ? MPI_Igatherv(s, sc, MPI_INT, r, b->rcounts, b->rdispls, MPI_INT, root, c, req)
                 : MPI_Gatherv_init(s, sc, MPI_INT, r, b->rcounts, b->rdispls, MPI_INT, root, c,
                                    info, req);
        break;
    }
    case K_SCATTER:
        rc = mode == M_BLOCKING ? MPI_Scatter(s, n, MPI_INT, r, n, MPI_INT, root, c)
             : mode == M_NONBLOCKING
                 ? MPI_Iscatter(s, n, MPI_INT, r, n, MPI_INT, root, c, req)
                 : MPI_Scatter_init(s, n, MPI_INT, r, n, MPI_INT, root, c, info, req);
        break;
    case K_SCATTERV: {
        int rcount = vcount(n, rank, 0);
        rc = mode == M_BLOCKING
                 ? MPI_Scatterv(s, b->scounts, b->sdispls, MPI_INT, r, rcount, MPI_INT, root, c)
             : mode == M_NONBLOCKING ? MPI_Iscatterv(s, b->scounts, b->sdispls, MPI_INT, r, rcount,
                                                     MPI_INT, root, c, req)
                                     : MPI_Scatterv_init(s, b->scounts, b->sdispls, MPI_INT, r,
                                                         rcount, MPI_INT, root, c, info, req);
        break;
    }
    case K_ALLGATHER:
        rc = mode == M_BLOCKING ? MPI_Allgather(s, n, MPI_INT, r, n, MPI_INT, c)
             : mode == M_NONBLOCKING
                 ? MPI_Iallgather(s, n, MPI_INT, r, n, MPI_INT, c, req)
                 : MPI_Allgather_init(s, n, MPI_INT, r, n, MPI_INT, c, info, req);
        break;
    case K_ALLGATHERV: {
        int sc = vcount(n, rank, 0);
        rc = mode == M_BLOCKING
                 ? MPI_Allgatherv(s, sc, MPI_INT, r, b->rcounts, b->rdispls, MPI_INT, c)
             : mode == M_NONBLOCKING
                 ? MPI_Iallgatherv(s, sc, MPI_INT, r, b->rcounts, b->rdispls, MPI_INT, c, req)
                 : MPI_Allgatherv_init(s, sc, MPI_INT, r, b->rcounts, b->rdispls, MPI_INT, c, info,
                                       req);
        break;
    }
    case K_ALLTOALL:
        rc = mode == M_BLOCKING ? MPI_Alltoall(s, n, MPI_INT, r, n, MPI_INT, c)
             : mode == M_NONBLOCKING
                 ? MPI_Ialltoall(s, n, MPI_INT, r, n, MPI_INT, c, req)
                 : MPI_Alltoall_init(s, n, MPI_INT, r, n, MPI_INT, c, info, req);
        break;
    case K_ALLTOALLV:
        rc = mode == M_BLOCKING ? MPI_Alltoallv(s, b->scounts, b->sdispls, MPI_INT, r, b->rcounts,
                                                b->rdispls, MPI_INT, c)
             : mode == M_NONBLOCKING
                 ? MPI_Ialltoallv(s, b->scounts, b->sdispls, MPI_INT, r, b->rcounts, b->rdispls,
                                  MPI_INT, c, req)
                 : MPI_Alltoallv_init(s, b->scounts, b->sdispls, MPI_INT, r, b->rcounts,
                                      b->rdispls, MPI_INT, c, info, req);
        break;
    case K_ALLTOALLW:
        rc = mode == M_BLOCKING ? MPI_Alltoallw(s, b->scounts, b->sdispls, b->stypes, r,
                                                b->rcounts, b->rdispls, b->rtypes, c)
             : mode == M_NONBLOCKING
                 ? MPI_Ialltoallw(s, b->scounts, b->sdispls, b->stypes, r, b->rcounts, b->rdispls,
                                  b->rtypes, c, req)
                 : MPI_Alltoallw_init(s, b->scounts, b->sdispls, b->stypes, r, b->rcounts,
                                      b->rdispls, b->rtypes, c, info, req);
        break;
    case K_REDUCE_SCATTER:
        rc = mode == M_BLOCKING ? MPI_Reduce_scatter(s, r, b->rcounts, MPI_INT, MPI_SUM, c)
             : mode == M_NONBLOCKING
                 ? MPI_Ireduce_scatter(s, r, b->rcounts, MPI_INT, MPI_SUM, c, req)
                 : MPI_Reduce_scatter_init(s, r, b->rcounts, MPI_INT, MPI_SUM, c, info, req);
        break;
    case K_REDUCE_SCATTER_BLOCK:
        rc = mode == M_BLOCKING ? MPI_Reduce_scatter_block(s, r, n, MPI_INT, MPI_SUM, c)
             : mode == M_NONBLOCKING
                 ? MPI_Ireduce_scatter_block(s, r, n, MPI_INT, MPI_SUM, c, req)
                 : MPI_Reduce_scatter_block_init(s, r, n, MPI_INT, MPI_SUM, c, info, req);
        break;
    case K_NB_ALLGATHER:
        rc = mode == M_BLOCKING ? MPI_Neighbor_allgather(s, n, MPI_INT, r, n, MPI_INT, c)
             : mode == M_NONBLOCKING
                 ? MPI_Ineighbor_allgather(s, n, MPI_INT, r, n, MPI_INT, c, req)
                 : MPI_Neighbor_allgather_init(s, n, MPI_INT, r, n, MPI_INT, c, info, req);
        break;
    case K_NB_ALLGATHERV:
        rc = mode == M_BLOCKING
                 ? MPI_Neighbor_allgatherv(s, n, MPI_INT, r, b->rcounts, b->rdispls, MPI_INT, c)
             : mode == M_NONBLOCKING
                 ? MPI_Ineighbor_allgatherv(s, n, MPI_INT, r, b->rcounts, b->rdispls, MPI_INT, c,
                                            req)
                 : MPI_Neighbor_allgatherv_init(s, n, MPI_INT, r, b->rcounts, b->rdispls, MPI_INT,
                                                c, info, req);
        break;
    case K_NB_ALLTOALL:
        rc = mode == M_BLOCKING ? MPI_Neighbor_alltoall(s, n, MPI_INT, r, n, MPI_INT, c)
             : mode == M_NONBLOCKING
                 ? MPI_Ineighbor_alltoall(s, n, MPI_INT, r, n, MPI_INT, c, req)
                 : MPI_Neighbor_alltoall_init(s, n, MPI_INT, r, n, MPI_INT, c, info, req);
        break;
    case K_NB_ALLTOALLV:
        rc = mode == M_BLOCKING ? MPI_Neighbor_alltoallv(s, b->scounts, b->sdispls, MPI_INT, r,
                                                         b->rcounts, b->rdispls, MPI_INT, c)
             : mode == M_NONBLOCKING
                 ? MPI_Ineighbor_alltoallv(s, b->scounts, b->sdispls, MPI_INT, r, b->rcounts,
                                           b->rdispls, MPI_INT, c, req)
                 : MPI_Neighbor_alltoallv_init(s, b->scounts, b->sdispls, MPI_INT, r, b->rcounts,
                                               b->rdispls, MPI_INT, c, info, req);
        break;
    case K_NB_ALLTOALLW:
        rc = mode == M_BLOCKING ? MPI_Neighbor_alltoallw(s, b->scounts, b->sbdispls, b->stypes, r,
                                                         b->rcounts, b->rbdispls, b->rtypes, c)
             : mode == M_NONBLOCKING
                 ? MPI_Ineighbor_alltoallw(s, b->scounts, b->sbdispls, b->stypes, r, b->rcounts,
                                           b->rbdispls, b->rtypes, c, req)
                 : MPI_Neighbor_alltoallw_init(s, b->scounts, b->sbdispls, b->stypes, r,
                                               b->rcounts, b->rbdispls, b->rtypes, c, info, req);
        break;
    }
    if (rc != MPI_SUCCESS) {
        mt_fail(__FILE__, __LINE__, "%s%s %s: returned %d", kind_names[k], ip_name(),
                mode_names[mode], rc);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

static int have_counter;
static int failures; /* (kind, mode, size) with allocations, on rank 0 */
static char summary[4096]; /* the same, named, for the last lines of the output */

/* warm up, then ITERS counted calls; returns this rank's allocations (-1: not counted) */
static long run(int k, int mode, int bytes)
{
    bufs_t b;
    MPI_Request req = MPI_REQUEST_NULL;
    long allocs = -1;
    int n = bytes / (int)sizeof(int);

    setup(k, n, &b);
    /* without the counter only the results can be checked: the miss and a few hits */
    int warm = have_counter ? WARM : 1, iters = have_counter ? ITERS : 3;
    if (mode == M_PERSISTENT) {
        issue(k, mode, &b, &req); /* made once: the miss happens here */
    }
    for (int it = 0; it < warm + iters; it++) {
        /* A barrier (itself a cached collective, counted like the others) every PACE
           calls, and before counting starts, bounds how far a rank whose sends are eager
           runs ahead of a slower receiver: at most PACE calls' messages wait unexpected,
           which the PML's first batch of unexpected entries holds.  Without it, a new
           high of unexpected messages -- a matter of scheduling, not of the closures --
           would make the PML grow its pool at random points of the loop. */
        if (it % PACE == 0 || it == warm) {
            MPI_Barrier(MPI_COMM_WORLD);
        }
        if (it == warm && have_counter) {
            compi_alloc_count_start();
        }
        fill(k, it, &b);
        if (mode == M_BLOCKING) {
            issue(k, mode, &b, NULL);
        } else if (mode == M_NONBLOCKING) {
            issue(k, mode, &b, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        if (check(k, mode, it, &b) != 0) {
            break;
        }
    }
    if (have_counter) {
        allocs = compi_alloc_count_stop(NULL);
    }
    if (mode == M_PERSISTENT) {
        MPI_Request_free(&req);
    }
    teardown(&b);
    return allocs;
}

/* one (kind, mode, size): run it, and on rank 0 print the allocations of all ranks */
static void count_one(int k, int m, int bytes)
{
    long a = run(k, m, bytes < 8 ? 8 : bytes);
    long total = 0, worst = 0;
    MPI_OK(MPI_Reduce(&a, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
    MPI_OK(MPI_Reduce(&a, &worst, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD));
    if (rank != 0 || !have_counter) {
        return;
    }
    char name[64];
    snprintf(name, sizeof(name), "%s%s", kind_names[k], ip_name());
    printf("# %-21s %-11s %6d B: %ld allocations in %d calls (all ranks)\n", name, mode_names[m],
           bytes, total, ITERS);
    if (worst > 0) {
        size_t used = strlen(summary);
        printf("FAIL coll_alloc: %s %s %d B allocates: %ld allocations over %d cached calls "
               "(all ranks)\n",
               name, mode_names[m], bytes, total, ITERS);
        failures++;
        snprintf(summary + used, sizeof(summary) - used, "FAIL coll_alloc:   %s %s %d B: %ld\n",
                 name, mode_names[m], bytes, total);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "coll_alloc");
    rank = mt_rank;
    size = mt_size;
    have_counter = compi_alloc_count_start != NULL && compi_alloc_count_stop != NULL;
    const char *req = getenv("COMPI_ALLOC_COUNT_REQUIRED");
    if (!have_counter && req != NULL && strcmp(req, "1") == 0) {
        mt_fail(__FILE__, __LINE__, "COMPI_ALLOC_COUNT_REQUIRED=1 but the allocation counter "
                                    "(tests/mpi/.libs/alloc_count.so) is not preloaded");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (size > 64) {
        if (rank == 0) {
            printf("coll_alloc: at most 64 processes\n");
        }
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    int dims[2] = {0, 0}, periods[2] = {1, 1};
    MPI_OK(MPI_Dims_create(size, 2, dims));
    MPI_OK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    deg = 4;
    for (int d = 0; d < 2; d++) {
        MPI_OK(MPI_Cart_shift(cart, d, 1, &in_nb[2 * d], &in_nb[2 * d + 1]));
        out_nb[2 * d] = in_nb[2 * d];
        out_nb[2 * d + 1] = in_nb[2 * d + 1];
    }
    int crank;
    MPI_OK(MPI_Comm_rank(cart, &crank));
    CHECK(crank == rank, "the Cartesian communicator reordered ranks");

    if (rank == 0 && !have_counter) {
        printf("# coll_alloc: no allocation counter preloaded (run by hand, or the sanitized "
               "build): the loops run and are checked, allocations are not counted\n");
    }
    for (int k = 0; k < K_N; k++) {
        if (argc > 1 && strcmp(argv[1], kind_names[k]) != 0) {
            continue; /* by hand: only the kind named */
        }
        for (int ip = 0; ip < 2; ip++) {
            if (ip && k != K_ALLREDUCE && k != K_ALLTOALL) {
                continue;
            }
            in_place = ip;
            for (int m = 0; m < M_N; m++) {
                for (int z = 0; z < NSIZES; z++) {
                    int bytes = k == K_BARRIER ? 0 : sizes[z];
                    if ((k == K_BARRIER && z > 0) || (k != K_ALLREDUCE && z == NSIZES - 1)) {
                        continue;
                    }
                    count_one(k, m, bytes);
                }
            }
        }
    }
    in_place = 0;
    if (failures > 0) {
        printf("FAIL coll_alloc: %d (kind, mode, size) allocate on cached calls (allocations "
               "of all ranks over %d calls):\n%s",
               failures, ITERS, summary);
        mt_errors++;
    }
    fflush(stdout);
    MPI_OK(MPI_Comm_free(&cart));
    return mt_finish();
}
