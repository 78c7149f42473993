/*
 * bigcount_huge: messages of more than 2^31 elements, at np 2.  MPI_BYTE counts of
 * 2^31 + 17 through MPI_Send_c/MPI_Recv_c (probed first), MPI_Isend_c/MPI_Irecv_c,
 * MPI_Bcast_c, MPI_Reduce_c (MPI_BOR), MPI_Allreduce_c, MPI_Gather_c, MPI_Allgather_c,
 * MPI_Allgatherv_c and MPI_Alltoallv_c (counts and displacements beyond int);
 * then an int count of a 1000-byte type with a 24-byte gap (extent 1024) whose bytes pass
 * 2^31, through MPI_Send/MPI_Recv and MPI_Bcast, and packed by MPI_Pack_c and unpacked by
 * MPI_Unpack_c: the offsets and sizes below the API are beyond int.  Buffers are filled by copying
 * a 64 KiB pattern, each 4 KiB page marked with its number; the receiver checks a sample of
 * positions spread over the message, the bytes around 2^31 and the last ones, and the receive's
 * count in its status.
 *
 * Each case needs several GiB: rank 0 prints what it needs (the buffers of both ranks and
 * what the collective keeps aside) and runs it only when /proc/meminfo's MemAvailable
 * leaves 1 GiB beside it; a case skipped for memory says so.
 */
#include "tests/mpi/mpitest.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define GIB (1024.0 * 1024 * 1024)
#define NBYTES (((MPI_Count)1 << 31) + 17)                   /* elements of MPI_BYTE */
#define ELEM 1000                                            /* data bytes of the derived type */
#define EXTENT 1024                                          /* its extent: a gap of 24 bytes */
#define NELEM ((MPI_Count)(((MPI_Count)1 << 31) / ELEM) + 5) /* its count: bytes pass 2^31 */
#define PERIOD 65536
#define PAGE 4096
#define SAMPLES 4096
#define HUGE_ALIGN ((size_t)2 << 20)

/* the byte at offset i of the data of `seed`: a 64 KiB period, each page's first 8 bytes
   its number (so a block landing at the wrong offset is seen) */
static unsigned char pat(int seed, size_t i)
{
    if (i % PAGE < 8) {
        uint64_t mark = (uint64_t)(i / PAGE) * 2 + (uint64_t)seed;
        return (unsigned char)(mark >> (8 * (i % PAGE)));
    }
    return (unsigned char)((i % PERIOD) * 131 + (size_t)seed * 29 + (i % PERIOD) / 256);
}

static void fill(unsigned char *buf, size_t len, int seed)
{
    unsigned char base[PERIOD];
    for (size_t j = 0; j < PERIOD; j++) {
        base[j] = pat(seed, j);
    }
    for (size_t off = 0; off < len; off += PERIOD) {
        size_t n = len - off < PERIOD ? len - off : PERIOD;
        memcpy(buf + off, base, n);
        for (size_t p = off; p < off + n; p += PAGE) {
            for (size_t k = 0; k < 8 && p + k < len; k++) {
                buf[p + k] = pat(seed, p + k);
            }
        }
    }
}

/* the positions checked in `len` bytes: a sample over the whole, the bytes around 2^31,
   the first and the last ones; *n_p gets their number */
static size_t positions(size_t len, size_t *pos)
{
    size_t n = 0;
    size_t stride = len / SAMPLES + 1;
    for (size_t i = 0; i < len; i += stride) {
        pos[n++] = (i * 7 + 3) % len;
    }
    for (size_t d = 0; d < 64; d++) {
        size_t around = ((size_t)1 << 31) - 32 + d;
        if (around < len)
            pos[n++] = around;
        pos[n++] = d < len ? d : 0;
        pos[n++] = len - 1 - (d < len ? d : 0);
    }
    return n;
}

/* the byte expected at offset i: `seed`'s, or the BOR of both ranks' (seed < 0) */
static unsigned char expect(int seed, size_t i)
{
    return seed < 0 ? (unsigned char)(pat(0, i) | pat(1, i)) : pat(seed, i);
}

/* check the sampled data bytes of `len` bytes (the derived type: only the first ELEM of
   each EXTENT, the gap stays 0) */
static void verify(const unsigned char *buf, size_t len, int seed, int gapped, const char *what)
{
    static size_t pos[SAMPLES + 4 * 64 + 16];
    size_t n = positions(len, pos);
    long bad = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = pos[k];
        unsigned char want = gapped && i % EXTENT >= ELEM ? 0 : expect(seed, i);
        if (buf[i] != want && bad++ < 5) {
            CHECK(0, "%s: byte %zu is 0x%02x, expected 0x%02x", what, i, buf[i], want);
        }
    }
    CHECK(bad == 0, "%s: %ld of %zu sampled bytes wrong", what, bad, n);
}

static double avail_gib(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    long long kb = -1;
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1)
            break;
    }
    if (f != NULL)
        fclose(f);
    return kb < 0 ? 0 : kb * 1024.0 / GIB;
}

static int skipped, ran;
static double t0;

/* rank 0 decides: a case needs `units` buffers of `bytes` over both ranks */
static int begin(const char *what, double units, size_t bytes)
{
    int go = 0;
    if (mt_rank == 0) {
        double need = units * (double)bytes / GIB, avail = avail_gib();
        go = need + 1.0 <= avail;
        printf("# %-36s needs %5.1f GiB, MemAvailable %5.1f GiB: %s\n", what, need, avail,
               go ? "run" : "SKIPPED for memory (needs 1 GiB to spare)");
        fflush(stdout);
    }
    MPI_OK(MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD));
    skipped += !go;
    ran += go;
    t0 = MPI_Wtime();
    return go;
}

static void end(const char *what)
{
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    if (mt_rank == 0) {
        printf("# %-36s %.1f s\n", what, MPI_Wtime() - t0);
        fflush(stdout);
    }
}

/* a buffer of `len` bytes in transparent huge pages where the kernel gives them (a
   fault per 2 MiB instead of per 4 KiB: most of the time of touching GiB) */
static unsigned char *big(size_t len)
{
    void *p = NULL;
    if (posix_memalign(&p, HUGE_ALIGN, len) != 0 || p == NULL) {
        fprintf(stderr, "bigcount_huge rank %d: no memory for %zu bytes\n", mt_rank, len);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
#ifdef MADV_HUGEPAGE
    (void)madvise(p, len, MADV_HUGEPAGE);
#endif
    return p;
}

static unsigned char *zeroed(size_t len)
{
    unsigned char *b = big(len);
    memset(b, 0, len);
    return b;
}

/* the receive's status: count n of the type, MPI_UNDEFINED for the int query */
static void status_count(const MPI_Status *st, MPI_Datatype type, MPI_Count n, const char *what)
{
    MPI_Count c = -1;
    int ci = 0;
    MPI_OK(MPI_Get_count_c(st, type, &c));
    MPI_OK(MPI_Get_count(st, type, &ci));
    CHECK(c == n, "%s: Get_count_c %lld, expected %lld", what, (long long)c, (long long)n);
    CHECK(n <= INT_MAX || ci == MPI_UNDEFINED, "%s: Get_count %d beyond int", what, ci);
}

static void p2p_bytes(int nonblocking)
{
    const char *what = nonblocking ? "Isend_c/Irecv_c 2^31+17 B" : "Send_c/Recv_c 2^31+17 B";
    size_t len = (size_t)NBYTES;
    MPI_Status st;
    if (!begin(what, 2, len))
        return;
    unsigned char *b = mt_rank == 0 ? big(len) : zeroed(len);
    if (mt_rank == 0) {
        fill(b, len, 0);
        if (nonblocking) {
            MPI_Request rq;
            MPI_OK(MPI_Isend_c(b, NBYTES, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &rq));
            MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        } else {
            MPI_OK(MPI_Send_c(b, NBYTES, MPI_BYTE, 1, 1, MPI_COMM_WORLD));
        }
    } else {
        if (nonblocking) {
            MPI_Request rq;
            MPI_OK(MPI_Irecv_c(b, NBYTES, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &rq));
            MPI_OK(MPI_Wait(&rq, &st));
        } else {
            /* the message waits, announced: the probe's status counts it */
            MPI_OK(MPI_Probe(0, 1, MPI_COMM_WORLD, &st));
            status_count(&st, MPI_BYTE, NBYTES, "Probe");
            MPI_OK(MPI_Recv_c(b, NBYTES, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &st));
        }
        status_count(&st, MPI_BYTE, NBYTES, what);
        verify(b, len, 0, 0, what);
    }
    free(b);
    end(what);
}

static void bcast_bytes(void)
{
    const char *what = "Bcast_c 2^31+17 B";
    size_t len = (size_t)NBYTES;
    if (!begin(what, 2, len))
        return;
    unsigned char *b = mt_rank == 0 ? big(len) : zeroed(len);
    if (mt_rank == 0)
        fill(b, len, 0);
    MPI_OK(MPI_Bcast_c(b, NBYTES, MPI_BYTE, 0, MPI_COMM_WORLD));
    verify(b, len, 0, 0, what);
    free(b);
    end(what);
}

/* reduce (all: allreduce) of MPI_BOR: every receiver holds the OR of both patterns */
static void reduce_bytes(int all)
{
    const char *what = all ? "Allreduce_c BOR 2^31+17 B" : "Reduce_c BOR 2^31+17 B";
    size_t len = (size_t)NBYTES;
    /* send and receive buffers on the receivers, and a block the reduction keeps aside */
    if (!begin(what, all ? 6 : 4, len))
        return;
    unsigned char *s = big(len);
    int receives = all || mt_rank == 0;
    unsigned char *r = receives ? zeroed(len) : NULL;
    fill(s, len, mt_rank);
    if (all)
        MPI_OK(MPI_Allreduce_c(s, r, NBYTES, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD));
    else
        MPI_OK(MPI_Reduce_c(s, r, NBYTES, MPI_BYTE, MPI_BOR, 0, MPI_COMM_WORLD));
    free(s);
    if (receives)
        verify(r, len, -1, 0, what);
    free(r);
    end(what);
}

/* gather (all: allgather) of 2^31+17 B from each rank, in place where the block is
   already in the receive buffer */
static void gather_bytes(int all)
{
    const char *what = all ? "Allgather_c 2 x 2^31+17 B" : "Gather_c 2 x 2^31+17 B";
    size_t len = (size_t)NBYTES;
    int receives = all || mt_rank == 0;
    if (!begin(what, all ? 4 : 3, len))
        return;
    unsigned char *r = receives ? big(2 * len) : big(len);
    unsigned char *mine = receives ? r + (size_t)mt_rank * len : r;
    if (receives)
        memset(r + (size_t)(1 - mt_rank) * len, 0, len);
    fill(mine, len, mt_rank);
    if (all)
        MPI_OK(MPI_Allgather_c(MPI_IN_PLACE, 0, MPI_BYTE, r, NBYTES, MPI_BYTE, MPI_COMM_WORLD));
    else if (mt_rank == 0)
        MPI_OK(MPI_Gather_c(MPI_IN_PLACE, 0, MPI_BYTE, r, NBYTES, MPI_BYTE, 0, MPI_COMM_WORLD));
    else
        MPI_OK(MPI_Gather_c(r, NBYTES, MPI_BYTE, NULL, 0, MPI_BYTE, 0, MPI_COMM_WORLD));
    if (receives) {
        verify(r, len, 0, 0, what);
        verify(r + len, len, 1, 0, what);
    }
    free(r);
    end(what);
}

/* the v collectives with a count beyond int: allgatherv (in place) of 2^31+17 B from
   each rank; alltoallv of 2^31+17 B to the other rank and 16 B to itself, the blocks in
   the opposite order in the receive buffer (displacements beyond int) */
static void vector_bytes(int alltoall)
{
    const char *what = alltoall ? "Alltoallv_c 2^31+17 B" : "Allgatherv_c 2 x 2^31+17 B";
    size_t len = (size_t)NBYTES, self = 16;
    MPI_Count counts[2];
    MPI_Aint displs[2];
    if (!begin(what, 4, len))
        return;
    if (!alltoall) {
        unsigned char *r = big(2 * len);
        counts[0] = counts[1] = NBYTES;
        displs[0] = 0;
        displs[1] = (MPI_Aint)NBYTES;
        memset(r + (size_t)(1 - mt_rank) * len, 0, len);
        fill(r + (size_t)mt_rank * len, len, mt_rank);
        MPI_OK(MPI_Allgatherv_c(MPI_IN_PLACE, 0, MPI_BYTE, r, counts, displs, MPI_BYTE,
                                MPI_COMM_WORLD));
        verify(r, len, 0, 0, what);
        verify(r + len, len, 1, 0, what);
        free(r);
        end(what);
        return;
    }
    /* send: [self block][block for the other]; receive: [the other's block][self block] */
    MPI_Count scounts[2], rcounts[2];
    MPI_Aint sdispls[2], rdispls[2];
    int other = 1 - mt_rank;
    unsigned char *s = big(self + len), *r = zeroed(len + self);
    fill(s + self, len, mt_rank);
    memset(s, 0x5a + mt_rank, self);
    scounts[mt_rank] = (MPI_Count)self;
    sdispls[mt_rank] = 0;
    scounts[other] = NBYTES;
    sdispls[other] = (MPI_Aint)self;
    rcounts[other] = NBYTES;
    rdispls[other] = 0;
    rcounts[mt_rank] = (MPI_Count)self;
    rdispls[mt_rank] = (MPI_Aint)NBYTES;
    MPI_OK(MPI_Alltoallv_c(s, scounts, sdispls, MPI_BYTE, r, rcounts, rdispls, MPI_BYTE,
                           MPI_COMM_WORLD));
    free(s);
    verify(r, len, other, 0, what);
    for (size_t k = 0; k < self; k++)
        CHECK(r[len + k] == (unsigned char)(0x5a + mt_rank), "%s: own block byte %zu is %d", what,
              k, r[len + k]);
    free(r);
    end(what);
}

/* an int count of the gapped type, its bytes beyond 2^31: send/recv and bcast */
static void derived(int bcast)
{
    const char *what =
        bcast ? "Bcast 2^31/1000+5 x 1000 B (gaps)" : "Send/Recv 2^31/1000+5 x 1000 B (gaps)";
    size_t len = (size_t)NELEM * EXTENT;
    MPI_Datatype c1000, t;
    MPI_Status st;
    if (!begin(what, 2, len))
        return;
    MPI_OK(MPI_Type_contiguous(ELEM, MPI_BYTE, &c1000));
    MPI_OK(MPI_Type_create_resized(c1000, 0, EXTENT, &t));
    MPI_OK(MPI_Type_commit(&t));
    unsigned char *b = zeroed(len);
    if (mt_rank == 0) {
        fill(b, len, 0);
        for (size_t k = 0; k < (size_t)NELEM; k++) /* the sender's gaps are not sent */
            memset(b + k * EXTENT + ELEM, 0xee, EXTENT - ELEM);
    }
    if (bcast) {
        MPI_OK(MPI_Bcast(b, (int)NELEM, t, 0, MPI_COMM_WORLD));
    } else if (mt_rank == 0) {
        MPI_OK(MPI_Send(b, (int)NELEM, t, 1, 2, MPI_COMM_WORLD));
    } else {
        MPI_OK(MPI_Recv(b, (int)NELEM, t, 0, 2, MPI_COMM_WORLD, &st));
        status_count(&st, t, NELEM, what);
        MPI_Count bytes = 0;
        MPI_OK(MPI_Get_count_c(&st, MPI_BYTE, &bytes));
        CHECK(bytes == NELEM * ELEM, "%s: %lld bytes received", what, (long long)bytes);
    }
    if (mt_rank == 1)
        verify(b, len, 0, 1, what);
    free(b);
    MPI_OK(MPI_Type_free(&t));
    MPI_OK(MPI_Type_free(&c1000));
    end(what);
}

/* MPI_Pack_c and MPI_Unpack_c of the gapped type of derived(), on rank 0: more than 2^31
   packed bytes, their position an MPI_Count past int */
static void pack_bytes(void)
{
    const char *what = "Pack_c/Unpack_c 2^31/1000+5 x 1000 B";
    size_t len = (size_t)NELEM * EXTENT, packed = (size_t)NELEM * ELEM;
    MPI_Datatype c1000, t;
    if (!begin(what, 3, len))
        return;
    if (mt_rank == 0) {
        MPI_Count pos = 0, size = 0;
        MPI_OK(MPI_Type_contiguous(ELEM, MPI_BYTE, &c1000));
        MPI_OK(MPI_Type_create_resized(c1000, 0, EXTENT, &t));
        MPI_OK(MPI_Type_commit(&t));
        MPI_OK(MPI_Pack_size_c(NELEM, t, MPI_COMM_SELF, &size));
        CHECK(size == (MPI_Count)packed, "%s: Pack_size_c %lld", what, (long long)size);
        unsigned char *b = big(len), *p = big(packed);
        fill(b, len, 0);
        MPI_OK(MPI_Pack_c(b, NELEM, t, p, (MPI_Count)packed, &pos, MPI_COMM_SELF));
        CHECK(pos == (MPI_Count)packed, "%s: Pack_c position %lld", what, (long long)pos);
        free(b);
        b = zeroed(len);
        pos = 0;
        MPI_OK(MPI_Unpack_c(p, (MPI_Count)packed, &pos, b, NELEM, t, MPI_COMM_SELF));
        CHECK(pos == (MPI_Count)packed, "%s: Unpack_c position %lld", what, (long long)pos);
        verify(b, len, 0, 1, what);
        free(p);
        free(b);
        MPI_OK(MPI_Type_free(&t));
        MPI_OK(MPI_Type_free(&c1000));
    }
    end(what);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "bigcount_huge");
    CHECK(mt_size == 2, "runs at np 2, not %d", mt_size);
    if (mt_size == 2) {
        p2p_bytes(0);
        p2p_bytes(1);
        bcast_bytes();
        reduce_bytes(0);
        reduce_bytes(1);
        gather_bytes(0);
        gather_bytes(1);
        vector_bytes(0);
        vector_bytes(1);
        derived(0);
        derived(1);
        pack_bytes();
    }
    if (mt_rank == 0) {
        printf("# %d cases run, %d skipped for memory\n", ran, skipped);
    }
    return mt_finish();
}
