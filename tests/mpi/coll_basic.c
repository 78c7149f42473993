/*
 * coll_basic: every collective against a reference computed locally.
 *
 * What rank r contributes is a function of (r, index, call number), so every rank can
 * compute what every other rank sent and check its result element by element.  Each
 * collective runs for block sizes from 0 B to 1 MiB (past the rendezvous threshold), for
 * the roots 0, size-1 and size/2, and in its MPI_IN_PLACE variant where the standard
 * allows one.  Receive buffers carry sentinel elements after their end and in the gaps
 * between v-blocks; those must stay untouched.  Buffers that are significant only at the
 * root are NULL elsewhere.
 *
 * The neighbourhood collectives run last, on a periodic ring made by MPI_Cart_create.
 *
 * Barrier is checked by wall-clock time: one rank enters late, and no rank may leave
 * before that rank entered (all ranks run on one host, so CLOCK_REALTIME is shared).
 *
 * Argument "quick": two sizes (8 B, 64 KiB) and roots 0 and size-1, for the config tests
 * (coll_config.sh), which need every kind called and checked, not the whole matrix.
 */
#include "tests/mpi/mpitest.h"

#include <time.h>

#define GUARD 16

static const long all_bytes[] = {0, 8, 4096, 65536, 1 << 20};
static const long quick_bytes[] = {8, 65536};
static int salt; /* call number: the same on every rank, so stale data is caught */
static mt_coll_t world; /* MPI_COMM_WORLD, for mpitest.h's collective checks */

/* counts of the v-variants: some zero, the others differ by rank */
static int vcount(long base, int r)
{
    if (base == 0 || r % 3 == 1)
        return 0;
    return (int)base + r % 5;
}

/* count rank s sends to rank d in Alltoallv/w; symmetric when `sym` (in-place needs it) */
static int pcount(long base, int s, int d, int sym)
{
    int k = sym ? s + d : 3 * s + d;

    if (base == 0 || k % 3 == 1)
        return 0;
    return (int)base + k % 4;
}

/* displacements in reverse rank order, with `gap` unused elements after each block */
static long rev_displs(const int *counts, int *displs, int n, int gap)
{
    long off = 0;

    for (int r = n - 1; r >= 0; r--) {
        displs[r] = (int)off;
        off += counts[r] + gap;
    }
    return off;
}

static long fwd_displs(const int *counts, int *displs, int n, int gap)
{
    long off = 0;

    for (int r = 0; r < n; r++) {
        displs[r] = (int)off;
        off += counts[r] + gap;
    }
    return off;
}

/* Every rank's v-block of call s (vcount(base, r) elements), placed in reverse rank order
   with `gap` unused elements after each: *counts and *displs are allocated, *total is the
   span; returns a buffer holding every block in its place */
static int *v_blocks(long base, int gap, int s, int **counts, int **displs, long *total)
{
    int *buf;

    *counts = mt_malloc((size_t)mt_size * sizeof(int));
    *displs = mt_malloc((size_t)mt_size * sizeof(int));
    for (int r = 0; r < mt_size; r++)
        (*counts)[r] = vcount(base, r);
    *total = rev_displs(*counts, *displs, mt_size, gap);
    buf = mt_ibuf(GUARD, *total);
    for (int r = 0; r < mt_size; r++)
        for (long i = 0; i < (*counts)[r]; i++)
            buf[(*displs)[r] + i] = mt_ival(r, i, s);
    return buf;
}

/* ---- rooted collectives ------------------------------------------------------------ */

static void test_gatherv(long base, int root, int inplace)
{
    int s = ++salt, n = vcount(base, mt_rank), *sbuf = mt_ibuf(GUARD, n), *rbuf = NULL, *exp = NULL;
    int *counts = NULL, *displs = NULL;
    const void *src = sbuf;
    char what[128];

    for (long i = 0; i < n; i++)
        sbuf[i] = mt_ival(mt_rank, i, s);
    if (mt_rank == root) {
        long total;

        exp = v_blocks(base, 3, s, &counts, &displs, &total);
        rbuf = mt_ibuf(GUARD, total);
        if (inplace) {
            memcpy(rbuf + displs[root], sbuf, (size_t)n * sizeof(int));
            src = MPI_IN_PLACE;
        }
        MPI_OK(MPI_Gatherv(src, n, MPI_INT, rbuf, counts, displs, MPI_INT, root, MPI_COMM_WORLD));
        snprintf(what, sizeof(what), "Gatherv base %ld root %d%s", base, root, mt_ip_text(inplace));
        mt_check_ints(GUARD, rbuf, exp, total, what);
    } else {
        MPI_OK(MPI_Gatherv(src, n, MPI_INT, NULL, NULL, NULL, MPI_INT, root, MPI_COMM_WORLD));
    }
    free(sbuf);
    free(rbuf);
    free(exp);
    free(counts);
    free(displs);
}

static void test_scatterv(long base, int root, int inplace)
{
    int s = ++salt, n = vcount(base, mt_rank), *sbuf = NULL, *rbuf = mt_ibuf(GUARD, n),
        *exp = mt_ibuf(GUARD, n);
    int *counts = NULL, *displs = NULL;
    void *dst = rbuf;
    char what[128];

    for (long i = 0; i < n; i++)
        exp[i] = mt_ival(mt_rank, i, s);
    snprintf(what, sizeof(what), "Scatterv base %ld root %d%s", base, root, mt_ip_text(inplace));
    if (mt_rank == root) {
        long total;

        sbuf = v_blocks(base, 2, s, &counts, &displs, &total);
        if (inplace)
            dst = MPI_IN_PLACE;
        MPI_OK(MPI_Scatterv(sbuf, counts, displs, MPI_INT, dst, n, MPI_INT, root, MPI_COMM_WORLD));
        /* in place, the root's block stays where it is in the send buffer */
        if (inplace)
            memcpy(rbuf, sbuf + displs[root], (size_t)n * sizeof(int));
    } else {
        MPI_OK(MPI_Scatterv(NULL, NULL, NULL, MPI_INT, dst, n, MPI_INT, root, MPI_COMM_WORLD));
    }
    mt_check_ints(GUARD, rbuf, exp, n, what);
    free(sbuf);
    free(rbuf);
    free(exp);
    free(counts);
    free(displs);
}

/* ---- all-to-all family ------------------------------------------------------------- */

static void test_allgatherv(long base, int inplace)
{
    int s = ++salt, n = vcount(base, mt_rank), *sbuf = mt_ibuf(GUARD, n), *rbuf, *exp;
    int *counts, *displs;
    const void *src = sbuf;
    long total;
    char what[128];

    exp = v_blocks(base, 1, s, &counts, &displs, &total);
    rbuf = mt_ibuf(GUARD, total);
    for (long i = 0; i < n; i++)
        sbuf[i] = mt_ival(mt_rank, i, s);
    if (inplace) {
        memcpy(rbuf + displs[mt_rank], sbuf, (size_t)n * sizeof(int));
        src = MPI_IN_PLACE;
    }
    MPI_OK(MPI_Allgatherv(src, n, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD));
    snprintf(what, sizeof(what), "Allgatherv base %ld%s", base, mt_ip_text(inplace));
    mt_check_ints(GUARD, rbuf, exp, total, what);
    free(sbuf);
    free(rbuf);
    free(exp);
    free(counts);
    free(displs);
}

static void test_alltoall(long n, int inplace)
{
    int s = ++salt, *sbuf = mt_ibuf(GUARD, n * mt_size), *rbuf = mt_ibuf(GUARD, n * mt_size);
    int *exp = mt_ibuf(GUARD, n * mt_size);
    const void *src = sbuf;
    char what[128];

    /* block d of rank r's send buffer goes to d: its content names both */
    for (int d = 0; d < mt_size; d++)
        for (long i = 0; i < n; i++) {
            sbuf[d * n + i] = mt_ival(mt_rank * 64 + d, i, s);
            exp[d * n + i] = mt_ival(d * 64 + mt_rank, i, s);
        }
    if (inplace) {
        memcpy(rbuf, sbuf, (size_t)(n * mt_size) * sizeof(int));
        src = MPI_IN_PLACE;
    }
    MPI_OK(MPI_Alltoall(src, (int)n, MPI_INT, rbuf, (int)n, MPI_INT, MPI_COMM_WORLD));
    snprintf(what, sizeof(what), "Alltoall count %ld%s", n, mt_ip_text(inplace));
    mt_check_ints(GUARD, rbuf, exp, n * mt_size, what);
    free(sbuf);
    free(rbuf);
    free(exp);
}

static void test_alltoallv(long base, int inplace)
{
    int s = ++salt, p = mt_size;
    int *scounts = mt_malloc((size_t)p * sizeof(int)),
        *sdispls = mt_malloc((size_t)p * sizeof(int));
    int *rcounts = mt_malloc((size_t)p * sizeof(int)),
        *rdispls = mt_malloc((size_t)p * sizeof(int));
    int *sbuf, *rbuf, *exp;
    const void *src;
    long stotal, rtotal;
    char what[128];

    for (int r = 0; r < p; r++) {
        scounts[r] = pcount(base, mt_rank, r, inplace);
        rcounts[r] = pcount(base, r, mt_rank, inplace);
    }
    stotal = rev_displs(scounts, sdispls, p, 2);
    rtotal = fwd_displs(rcounts, rdispls, p, 1);
    sbuf = mt_ibuf(GUARD, stotal);
    rbuf = mt_ibuf(GUARD, rtotal);
    exp = mt_ibuf(GUARD, rtotal);
    src = sbuf;
    for (int d = 0; d < p; d++)
        for (long i = 0; i < scounts[d]; i++)
            sbuf[sdispls[d] + i] = mt_ival(mt_rank * 64 + d, i, s);
    for (int r = 0; r < p; r++)
        for (long i = 0; i < rcounts[r]; i++)
            exp[rdispls[r] + i] = mt_ival(r * 64 + mt_rank, i, s);
    if (inplace) {
        /* the data to send sits in the receive buffer, laid out by the receive arguments */
        for (int d = 0; d < p; d++)
            for (long i = 0; i < rcounts[d]; i++)
                rbuf[rdispls[d] + i] = mt_ival(mt_rank * 64 + d, i, s);
        src = MPI_IN_PLACE;
    }
    MPI_OK(MPI_Alltoallv(src, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls, MPI_INT,
                         MPI_COMM_WORLD));
    snprintf(what, sizeof(what), "Alltoallv base %ld%s", base, mt_ip_text(inplace));
    mt_check_ints(GUARD, rbuf, exp, rtotal, what);
    free(sbuf);
    free(rbuf);
    free(exp);
    free(scounts);
    free(sdispls);
    free(rcounts);
    free(rdispls);
}

/* Alltoallw: ints between ranks of even sum, doubles between the others */
static MPI_Datatype wtype(int s, int d)
{
    return (s + d) % 2 ? MPI_DOUBLE : MPI_INT;
}

static size_t wsize(int s, int d)
{
    return (s + d) % 2 ? sizeof(double) : sizeof(int);
}

/* writes `count` elements of the type of pair (s, d) for call `salt_` at `at` */
static void wfill(unsigned char *at, int s, int d, int count, int salt_)
{
    for (int i = 0; i < count; i++) {
        int v = mt_ival(s * 64 + d, i, salt_);

        if ((s + d) % 2) {
            double x = v + 0.25;
            memcpy(at + (size_t)i * sizeof(double), &x, sizeof(x));
        } else {
            memcpy(at + (size_t)i * sizeof(int), &v, sizeof(v));
        }
    }
}

/* byte displacements of blocks, each 8-aligned, with 8 unused bytes after each */
static long wdispls(const int *counts, int *displs, int self, int as_sender, int p)
{
    long off = 0;

    for (int r = 0; r < p; r++) {
        size_t es = as_sender ? wsize(self, r) : wsize(r, self);

        displs[r] = (int)off;
        off += (long)(((size_t)counts[r] * es + 7) / 8 * 8) + 8;
    }
    return off;
}

static void test_alltoallw(long base, int inplace)
{
    int s = ++salt, p = mt_size;
    int *scounts = mt_malloc((size_t)p * sizeof(int)),
        *sdispls = mt_malloc((size_t)p * sizeof(int));
    int *rcounts = mt_malloc((size_t)p * sizeof(int)),
        *rdispls = mt_malloc((size_t)p * sizeof(int));
    MPI_Datatype *stypes = mt_malloc((size_t)p * sizeof(MPI_Datatype));
    MPI_Datatype *rtypes = mt_malloc((size_t)p * sizeof(MPI_Datatype));
    unsigned char *sbuf, *rbuf, *exp;
    const void *src;
    long stotal, rtotal, first = -1;
    char what[128];

    for (int r = 0; r < p; r++) {
        scounts[r] = pcount(base, mt_rank, r, inplace);
        rcounts[r] = pcount(base, r, mt_rank, inplace);
        stypes[r] = wtype(mt_rank, r);
        rtypes[r] = wtype(r, mt_rank);
    }
    stotal = wdispls(scounts, sdispls, mt_rank, 1, p);
    rtotal = wdispls(rcounts, rdispls, mt_rank, 0, p);
    sbuf = mt_malloc((size_t)stotal);
    rbuf = mt_malloc((size_t)rtotal);
    exp = mt_malloc((size_t)rtotal);
    memset(sbuf, 0xEE, (size_t)stotal);
    memset(rbuf, 0xEE, (size_t)rtotal);
    memset(exp, 0xEE, (size_t)rtotal);
    for (int d = 0; d < p; d++)
        wfill(sbuf + sdispls[d], mt_rank, d, scounts[d], s);
    for (int r = 0; r < p; r++)
        wfill(exp + rdispls[r], r, mt_rank, rcounts[r], s);
    src = sbuf;
    if (inplace) {
        for (int d = 0; d < p; d++)
            wfill(rbuf + rdispls[d], mt_rank, d, rcounts[d], s);
        src = MPI_IN_PLACE;
    }
    MPI_OK(MPI_Alltoallw(src, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes,
                         MPI_COMM_WORLD));
    for (long i = 0; i < rtotal && first < 0; i++)
        if (rbuf[i] != exp[i])
            first = i;
    snprintf(what, sizeof(what), "Alltoallw base %ld%s", base, mt_ip_text(inplace));
    CHECK(first < 0, "%s: byte %ld of %ld is 0x%02x, expected 0x%02x", what, first, rtotal,
          first < 0 ? 0 : rbuf[first], first < 0 ? 0 : exp[first]);
    free(sbuf);
    free(rbuf);
    free(exp);
    free(scounts);
    free(sdispls);
    free(rcounts);
    free(rdispls);
    free(stypes);
    free(rtypes);
}

/* ---- reduce-scatter and prefix reductions ------------------------------------------ */

static void test_reduce_scatter(long base, int inplace)
{
    int s = ++salt, *counts = mt_malloc((size_t)mt_size * sizeof(int)), *sbuf, *rbuf, *exp;
    const void *src;
    long total = 0, mine, off = 0;
    char what[128];

    for (int r = 0; r < mt_size; r++) {
        counts[r] = vcount(base, r);
        if (r < mt_rank)
            off += counts[r];
        total += counts[r];
    }
    mine = counts[mt_rank];
    sbuf = mt_ibuf(GUARD, total);
    rbuf = mt_ibuf(GUARD, inplace ? total : mine);
    exp = mt_ibuf(GUARD, inplace ? total : mine);
    for (long i = 0; i < total; i++)
        sbuf[i] = mt_ival(mt_rank, i, s);
    for (long i = 0; i < mine; i++)
        exp[i] = mt_coll_sum(&world, off + i, s);
    src = sbuf;
    if (inplace) {
        memcpy(rbuf, sbuf, (size_t)total * sizeof(int));
        src = MPI_IN_PLACE;
    }
    MPI_OK(MPI_Reduce_scatter(src, rbuf, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    snprintf(what, sizeof(what), "Reduce_scatter base %ld%s", base, mt_ip_text(inplace));
    /* in place, only the first `mine` elements are defined afterwards */
    if (inplace)
        memcpy(exp + mine, rbuf + mine, (size_t)(total - mine) * sizeof(int));
    mt_check_ints(GUARD, rbuf, exp, inplace ? total : mine, what);
    free(sbuf);
    free(rbuf);
    free(exp);
    free(counts);
}

static void test_reduce_scatter_block(long n, int inplace)
{
    long total = n * mt_size;
    int s = ++salt, *sbuf = mt_ibuf(GUARD, total), *rbuf = mt_ibuf(GUARD, inplace ? total : n);
    int *exp = mt_ibuf(GUARD, inplace ? total : n);
    const void *src = sbuf;
    char what[128];

    for (long i = 0; i < total; i++)
        sbuf[i] = mt_ival(mt_rank, i, s);
    for (long i = 0; i < n; i++)
        exp[i] = mt_coll_sum(&world, mt_rank * n + i, s);
    if (inplace) {
        memcpy(rbuf, sbuf, (size_t)total * sizeof(int));
        src = MPI_IN_PLACE;
    }
    MPI_OK(MPI_Reduce_scatter_block(src, rbuf, (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    snprintf(what, sizeof(what), "Reduce_scatter_block count %ld%s", n, mt_ip_text(inplace));
    /* in place, only the first n elements are defined afterwards */
    if (inplace)
        memcpy(exp + n, rbuf + n, (size_t)(total - n) * sizeof(int));
    mt_check_ints(GUARD, rbuf, exp, inplace ? total : n, what);
    free(sbuf);
    free(rbuf);
    free(exp);
}

/* Scan (inclusive) or Exscan (exclusive; rank 0's result is undefined) */
static void test_scan(long n, int exclusive, int inplace)
{
    int s = ++salt, *sbuf = mt_ibuf(GUARD, n), *rbuf = mt_ibuf(GUARD, n), *exp = mt_ibuf(GUARD, n);
    const void *src = sbuf;
    int upto = exclusive ? mt_rank : mt_rank + 1;
    char what[128];

    for (long i = 0; i < n; i++) {
        long acc = 0;

        sbuf[i] = mt_ival(mt_rank, i, s);
        for (int r = 0; r < upto; r++)
            acc += mt_ival(r, i, s);
        exp[i] = (int)acc;
    }
    if (inplace) {
        memcpy(rbuf, sbuf, (size_t)n * sizeof(int));
        src = MPI_IN_PLACE;
    }
    if (exclusive)
        MPI_OK(MPI_Exscan(src, rbuf, (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    else
        MPI_OK(MPI_Scan(src, rbuf, (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    snprintf(what, sizeof(what), "%s count %ld%s", exclusive ? "Exscan" : "Scan", n,
             mt_ip_text(inplace));
    if (!(exclusive && mt_rank == 0))
        mt_check_ints(GUARD, rbuf, exp, n, what);
    free(sbuf);
    free(rbuf);
    free(exp);
}

static void test_reduce_local(long n)
{
    int s = ++salt, *in = mt_ibuf(GUARD, n), *inout = mt_ibuf(GUARD, n), *exp = mt_ibuf(GUARD, n);
    char what[128];

    for (long i = 0; i < n; i++) {
        in[i] = mt_ival(1, i, s);
        inout[i] = mt_ival(2, i, s);
        exp[i] = in[i] + inout[i];
    }
    MPI_OK(MPI_Reduce_local(in, inout, (int)n, MPI_INT, MPI_SUM));
    snprintf(what, sizeof(what), "Reduce_local count %ld", n);
    mt_check_ints(GUARD, inout, exp, n, what);
    free(in);
    free(inout);
    free(exp);
}

/* ---- barrier ------------------------------------------------------------------------ */

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* rank `late` enters 20 ms after the others; nobody may leave before it came in */
static void test_barrier(int late)
{
    double t[2], latest_in = 0, earliest_out = 1e300;

    if (mt_rank == late) {
        struct timespec d = {0, 20 * 1000 * 1000};
        nanosleep(&d, NULL);
    }
    t[0] = now();
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    t[1] = now();
    if (mt_rank != 0) {
        MPI_OK(MPI_Send(t, 2, MPI_DOUBLE, 0, 77, mt_sync_comm));
        return;
    }
    for (int r = 0; r < mt_size; r++) {
        double u[2];

        if (r == 0)
            memcpy(u, t, sizeof(u));
        else
            MPI_OK(MPI_Recv(u, 2, MPI_DOUBLE, r, 77, mt_sync_comm, MPI_STATUS_IGNORE));
        latest_in = u[0] > latest_in ? u[0] : latest_in;
        earliest_out = u[1] < earliest_out ? u[1] : earliest_out;
    }
    CHECK(earliest_out >= latest_in,
          "Barrier (rank %d late): a rank left %.6f s before the last one entered", late,
          latest_in - earliest_out);
}

/* ---- driver ------------------------------------------------------------------------- */

/*
 * The neighbourhood collectives on a periodic ring (MPI_Cart_create of every rank): block
 * 0 comes from (or goes to) the left neighbour, block 1 the right one, so what a rank
 * sends right arrives as its right neighbour's block 0.  The v and w calls store the two
 * receive blocks in reverse order; the last w call passes MPI_BOTTOM and absolute
 * addresses as displacements.
 */
static void test_neighbors(MPI_Comm ring, long n)
{
    static const char *const names[] = {"Neighbor_allgather", "Neighbor_allgatherv",
                                        "Neighbor_alltoall", "Neighbor_alltoallv",
                                        "Neighbor_alltoallw", "Neighbor_alltoallw(MPI_BOTTOM)"};
    int left = (mt_rank + mt_size - 1) % mt_size, right = (mt_rank + 1) % mt_size;
    int *sbuf = mt_ibuf(0, 2 * n), *rbuf = mt_ibuf(1, 2 * n), *exp = mt_ibuf(1, 2 * n);
    int counts[2] = {(int)n, (int)n}, sd[2] = {0, (int)n}, rd[2] = {(int)n, 0};
    MPI_Aint sb[2] = {0, n * (MPI_Aint)sizeof(int)}, rb[2] = {n * (MPI_Aint)sizeof(int), 0};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    MPI_Aint sa[2], ra[2]; /* absolute addresses of the blocks, for MPI_BOTTOM */
    char what[96];

    MPI_OK(MPI_Get_address(sbuf, &sa[0]));
    MPI_OK(MPI_Get_address(rbuf, &ra[0]));
    sa[1] = sa[0] + sb[1];
    sa[0] += sb[0];
    ra[1] = ra[0] + rb[1];
    ra[0] += rb[0];
    for (int kind = 0; kind < 6; kind++) {
        int gather = kind < 2, reversed = kind == 1 || kind >= 3;
        salt++;
        for (long i = 0; i < 2 * n + 1; i++) {
            rbuf[i] = exp[i] = MT_SENTINEL;
        }
        for (long i = 0; i < 2 * n; i++) {
            sbuf[i] = mt_ival(mt_rank, i, salt);
        }
        for (long i = 0; i < n; i++) {
            /* block 0: the left's block 1 (alltoall) or its only block; block 1: the
               right's block 0 */
            exp[(reversed ? n : 0) + i] = mt_ival(left, (gather ? 0 : n) + i, salt);
            exp[(reversed ? 0 : n) + i] = mt_ival(right, i, salt);
        }
        switch (kind) {
        case 0:
            MPI_OK(MPI_Neighbor_allgather(sbuf, (int)n, MPI_INT, rbuf, (int)n, MPI_INT, ring));
            break;
        case 1:
            MPI_OK(MPI_Neighbor_allgatherv(sbuf, (int)n, MPI_INT, rbuf, counts, rd, MPI_INT,
                                           ring));
            break;
        case 2:
            MPI_OK(MPI_Neighbor_alltoall(sbuf, (int)n, MPI_INT, rbuf, (int)n, MPI_INT, ring));
            break;
        case 3:
            MPI_OK(MPI_Neighbor_alltoallv(sbuf, counts, sd, MPI_INT, rbuf, counts, rd, MPI_INT,
                                          ring));
            break;
        case 4:
            MPI_OK(MPI_Neighbor_alltoallw(sbuf, counts, sb, types, rbuf, counts, rb, types,
                                          ring));
            break;
        default:
            MPI_OK(MPI_Neighbor_alltoallw(MPI_BOTTOM, counts, sa, types, MPI_BOTTOM, counts,
                                          ra, types, ring));
        }
        snprintf(what, sizeof(what), "%s count %ld on a ring", names[kind], n);
        mt_check_ints(1, rbuf, exp, 2 * n, what);
    }
    free(sbuf);
    free(rbuf);
    free(exp);
}

int main(int argc, char **argv)
{
    const long *bytes = all_bytes;
    int nbytes = (int)(sizeof(all_bytes) / sizeof(all_bytes[0]));
    int roots[3], nroots = 0;

    mt_init(&argc, &argv, "coll_basic");
    world = (mt_coll_t){.comm = MPI_COMM_WORLD, .rank = mt_rank, .size = mt_size, .guard = GUARD};
    if (argc > 1 && strcmp(argv[1], "quick") == 0) {
        bytes = quick_bytes;
        nbytes = (int)(sizeof(quick_bytes) / sizeof(quick_bytes[0]));
    }
    /* roots 0, last and middle, each once */
    roots[nroots++] = 0;
    if (mt_size > 1)
        roots[nroots++] = mt_size - 1;
    if (bytes == all_bytes && mt_size / 2 != 0 && mt_size / 2 != mt_size - 1)
        roots[nroots++] = mt_size / 2;

    for (int k = 0; k < nroots; k++)
        test_barrier(roots[k]);
    for (int k = 0; k < 5; k++)
        MPI_OK(MPI_Barrier(MPI_COMM_WORLD));

    for (int b = 0; b < nbytes; b++) {
        long n = bytes[b] / (long)sizeof(int);
        /* the gather family moves size blocks: the biggest is 1 MiB in all, not per rank */
        long blk = bytes[b] >= (1 << 20) ? n / mt_size : n;

        for (int k = 0; k < nroots; k++) {
            int root = roots[k];

            mt_coll_bcast(&world, n, root, ++salt);
            for (int ip = 0; ip < 2; ip++) {
                mt_coll_reduce(&world, n, root, ip, ++salt);
                mt_coll_gather(&world, blk, root, ip, ++salt);
                test_gatherv(blk, root, ip);
                mt_coll_scatter(&world, blk, root, ip, ++salt);
                test_scatterv(blk, root, ip);
            }
        }
        for (int ip = 0; ip < 2; ip++) {
            mt_coll_reduce(&world, n, -1, ip, ++salt);
            mt_coll_gather(&world, blk, -1, ip, ++salt);
            test_allgatherv(blk, ip);
            test_alltoall(blk, ip);
            test_alltoallv(blk, ip);
            test_alltoallw(blk, ip);
            test_reduce_scatter(blk, ip);
            test_reduce_scatter_block(blk, ip);
            test_scan(n, 0, ip);
            test_scan(n, 1, ip);
        }
        test_reduce_local(n);
    }

    MPI_Comm ring;
    int dims[1] = {mt_size}, periods[1] = {1};
    MPI_OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    for (int b = 0; b < nbytes; b++) {
        test_neighbors(ring, bytes[b] / (long)sizeof(int));
    }
    MPI_OK(MPI_Comm_free(&ring));
    return mt_finish();
}
