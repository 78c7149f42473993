/*
 * bigcount: the MPI-4 large-count (_c) functions against their int functions -- the same
 * results for point-to-point (every send mode, persistent, matched probes, sendrecv),
 * statuses, packing, datatype constructors and queries, user ops of MPI_Count lengths, and
 * every collective (blocking, nonblocking, persistent, neighbourhood) -- then counts beyond
 * INT_MAX: datatype sizes and status counts that are computed (no memory behind them), scalar
 * counts carried where no data moves (MPI_PROC_NULL, a type without data), the v/w
 * collectives' counts and displacements carried whole (displacements of 2^40 elements
 * from a base that far below the buffer), datatype constructors that carry counts beyond
 * int (tests/mpi/dt_large.c asks more of them), and MPI_ERR_COUNT for a negative count.
 */
#include "tests/mpi/mpitest.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#define N 37 /* elements per block */
#define BIG ((MPI_Count)INT_MAX + 1)

static int *ibuf(size_t n, int seed)
{
    int *b = mt_malloc(n * sizeof(int));
    for (size_t i = 0; i < n; i++)
        b[i] = seed * 1000 + (int)i;
    return b;
}

static void same(const void *a, const void *b, size_t bytes, const char *what)
{
    CHECK(memcmp(a, b, bytes) == 0, "%s: the _c call gave other results than the int call", what);
}

/* ---- point to point ------------------------------------------------------------------ */

static void p2p(void)
{
    int right = (mt_rank + 1) % mt_size, left = (mt_rank + mt_size - 1) % mt_size;
    int *s = ibuf(N, mt_rank), *r1 = ibuf(N, -1), *r2 = ibuf(N, -1);
    MPI_Status st1, st2;
    MPI_Request rq[2];
    MPI_Count cc;
    int ci;

    MPI_OK(MPI_Sendrecv(s, N, MPI_INT, right, 1, r1, N, MPI_INT, left, 1, MPI_COMM_WORLD, &st1));
    MPI_OK(MPI_Sendrecv_c(s, N, MPI_INT, right, 1, r2, N, MPI_INT, left, 1, MPI_COMM_WORLD, &st2));
    same(r1, r2, N * sizeof(int), "Sendrecv_c");
    MPI_OK(MPI_Get_count(&st1, MPI_INT, &ci));
    MPI_OK(MPI_Get_count_c(&st2, MPI_INT, &cc));
    CHECK(ci == N && cc == N && st2.MPI_SOURCE == left && st2.MPI_TAG == 1,
          "Get_count_c %lld, Get_count %d, source %d", (long long)cc, ci, st2.MPI_SOURCE);
    MPI_OK(MPI_Get_elements_c(&st2, MPI_INT, &cc));
    CHECK(cc == N, "Get_elements_c %lld", (long long)cc);

    /* each send mode, blocking and nonblocking, into Irecv_c / Recv_c */
    for (int mode = 0; mode < 8; mode++) {
        memset(r2, 0, N * sizeof(int));
        MPI_OK(MPI_Irecv_c(r2, N, MPI_INT, left, 10 + mode, MPI_COMM_WORLD, &rq[0]));
        switch (mode) {
        case 0: MPI_OK(MPI_Send_c(s, N, MPI_INT, right, 10, MPI_COMM_WORLD)); break;
        case 1: MPI_OK(MPI_Isend_c(s, N, MPI_INT, right, 11, MPI_COMM_WORLD, &rq[1])); break;
        case 2: MPI_OK(MPI_Issend_c(s, N, MPI_INT, right, 12, MPI_COMM_WORLD, &rq[1])); break;
        case 3: MPI_OK(MPI_Irsend_c(s, N, MPI_INT, right, 13, MPI_COMM_WORLD, &rq[1])); break;
        case 4: MPI_OK(MPI_Isend_c(s, N, MPI_INT, right, 14, MPI_COMM_WORLD, &rq[1])); break;
        case 5: MPI_OK(MPI_Isendrecv_c(s, N, MPI_INT, right, 15, r1, N, MPI_INT, MPI_PROC_NULL,
                                       0, MPI_COMM_WORLD, &rq[1])); break;
        case 6: {
            int size = 0;
            MPI_Count bsize = 0;
            MPI_OK(MPI_Pack_size(N, MPI_INT, MPI_COMM_WORLD, &size));
            void *att = mt_malloc((size_t)size + MPI_BSEND_OVERHEAD);
            void *old;
            MPI_OK(MPI_Buffer_attach_c(att, size + MPI_BSEND_OVERHEAD));
            MPI_OK(MPI_Bsend_c(s, N, MPI_INT, right, 16, MPI_COMM_WORLD));
            MPI_OK(MPI_Buffer_detach_c(&old, &bsize));
            CHECK(old == att && bsize == size + MPI_BSEND_OVERHEAD, "Buffer_detach_c size %lld",
                  (long long)bsize);
            free(att);
            break;
        }
        case 7: MPI_OK(MPI_Ssend_c(s, N, MPI_INT, right, 17, MPI_COMM_WORLD)); break;
        }
        if (mode >= 1 && mode <= 5)
            MPI_OK(MPI_Wait(&rq[1], MPI_STATUS_IGNORE));
        MPI_OK(MPI_Wait(&rq[0], &st2));
        CHECK(r2[N - 1] == left * 1000 + N - 1 && st2.MPI_TAG == 10 + mode,
              "send mode %d: wrong data or tag %d", mode, st2.MPI_TAG);
        mt_barrier(MPI_COMM_WORLD); /* Irsend needs the receive posted: keep rounds apart */
    }

    /* persistent */
    MPI_OK(MPI_Recv_init_c(r2, N, MPI_INT, left, 20, MPI_COMM_WORLD, &rq[0]));
    MPI_OK(MPI_Send_init_c(s, N, MPI_INT, right, 20, MPI_COMM_WORLD, &rq[1]));
    for (int k = 0; k < 3; k++) {
        memset(r2, 0, N * sizeof(int));
        MPI_OK(MPI_Startall(2, rq));
        MPI_OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        CHECK(r2[3] == left * 1000 + 3, "Send_init_c/Recv_init_c round %d", k);
    }
    MPI_OK(MPI_Request_free(&rq[0]));
    MPI_OK(MPI_Request_free(&rq[1]));

    /* matched probe + Mrecv_c, Imrecv_c; blocking Recv_c; Sendrecv_replace_c */
    for (int k = 0; k < 2; k++) {
        MPI_Message m;
        memset(r2, 0, N * sizeof(int));
        MPI_OK(MPI_Isend(s, N, MPI_INT, right, 30 + k, MPI_COMM_WORLD, &rq[1]));
        MPI_OK(MPI_Mprobe(left, 30 + k, MPI_COMM_WORLD, &m, &st1));
        if (k == 0) {
            MPI_OK(MPI_Mrecv_c(r2, N, MPI_INT, &m, &st2));
        } else {
            MPI_OK(MPI_Imrecv_c(r2, N, MPI_INT, &m, &rq[0]));
            MPI_OK(MPI_Wait(&rq[0], &st2));
        }
        MPI_OK(MPI_Wait(&rq[1], MPI_STATUS_IGNORE));
        CHECK(r2[5] == left * 1000 + 5, "Mrecv_c/Imrecv_c %d", k);
    }
    MPI_OK(MPI_Isend(s, N, MPI_INT, right, 40, MPI_COMM_WORLD, &rq[1]));
    MPI_OK(MPI_Recv_c(r2, N, MPI_INT, left, 40, MPI_COMM_WORLD, &st2));
    MPI_OK(MPI_Wait(&rq[1], MPI_STATUS_IGNORE));
    CHECK(r2[7] == left * 1000 + 7, "Recv_c");
    memcpy(r1, s, N * sizeof(int));
    MPI_OK(MPI_Sendrecv_replace_c(r1, N, MPI_INT, right, 41, left, 41, MPI_COMM_WORLD, &st2));
    CHECK(r1[9] == left * 1000 + 9, "Sendrecv_replace_c");

    /* counts beyond int are carried (tests/mpi/bigcount_huge.c moves such messages): to
       and from MPI_PROC_NULL nothing is touched; negative counts are MPI_ERR_COUNT */
    MPI_OK(MPI_Send_c(s, BIG, MPI_BYTE, MPI_PROC_NULL, 50, MPI_COMM_WORLD));
    MPI_OK(MPI_Irecv_c(r2, BIG * 4, MPI_INT, MPI_PROC_NULL, 50, MPI_COMM_WORLD, &rq[0]));
    MPI_OK(MPI_Wait(&rq[0], &st2));
    MPI_OK(MPI_Get_count_c(&st2, MPI_INT, &cc));
    CHECK(cc == 0 && st2.MPI_SOURCE == MPI_PROC_NULL, "Irecv_c of 2^33 from MPI_PROC_NULL: %lld",
          (long long)cc);
    mt_expect_class(MPI_Sendrecv_c(s, 1, MPI_INT, right, 50, r2, -BIG - 1, MPI_INT, left, 50,
                                MPI_COMM_WORLD, &st1),
                 MPI_ERR_COUNT, "Sendrecv_c below INT_MIN");
    mt_expect_class(MPI_Send_c(s, -1, MPI_INT, right, 50, MPI_COMM_WORLD), MPI_ERR_COUNT,
                 "Send_c of -1");
    free(s);
    free(r1);
    free(r2);
}

/* ---- statuses and packing ------------------------------------------------------------ */

static void status_pack(void)
{
    MPI_Status st;
    MPI_Count c;
    int ci;

    /* a status of 3e9 bytes: counted in 64 bits */
    MPI_OK(MPI_Status_set_elements_c(&st, MPI_BYTE, 3000000000LL));
    MPI_OK(MPI_Get_count_c(&st, MPI_BYTE, &c));
    CHECK(c == 3000000000LL, "Get_count_c of 3e9 bytes: %lld", (long long)c);
    MPI_OK(MPI_Get_count_c(&st, MPI_INT, &c));
    CHECK(c == 750000000LL, "Get_count_c in ints: %lld", (long long)c);
    MPI_OK(MPI_Get_count(&st, MPI_BYTE, &ci));
    CHECK(ci == MPI_UNDEFINED, "Get_count beyond int: %d, expected MPI_UNDEFINED", ci);
    MPI_OK(MPI_Get_elements_c(&st, MPI_BYTE, &c));
    CHECK(c == 3000000000LL, "Get_elements_c: %lld", (long long)c);
    MPI_OK(MPI_Get_count_c(&st, MPI_DOUBLE, &c));
    CHECK(c == 375000000LL, "Get_count_c in doubles: %lld", (long long)c);
    MPI_OK(MPI_Status_set_elements_c(&st, MPI_BYTE, 7));
    MPI_OK(MPI_Get_count_c(&st, MPI_INT, &c));
    CHECK(c == MPI_UNDEFINED, "Get_count_c of a partial int: %lld", (long long)c);

    /* Pack_c / Unpack_c / Pack_size_c against the int calls */
    int *v = ibuf(N, 3), back[N];
    char p1[1024], p2[1024];
    int pos = 0, size = 0;
    MPI_Count cpos = 0, csize = 0;
    MPI_OK(MPI_Pack(v, N, MPI_INT, p1, sizeof(p1), &pos, MPI_COMM_WORLD));
    MPI_OK(MPI_Pack_c(v, N, MPI_INT, p2, sizeof(p2), &cpos, MPI_COMM_WORLD));
    CHECK(cpos == pos, "Pack_c position %lld vs %d", (long long)cpos, pos);
    same(p1, p2, (size_t)pos, "Pack_c");
    MPI_OK(MPI_Pack_size(N, MPI_INT, MPI_COMM_WORLD, &size));
    MPI_OK(MPI_Pack_size_c(N, MPI_INT, MPI_COMM_WORLD, &csize));
    CHECK(csize == size, "Pack_size_c %lld vs %d", (long long)csize, size);
    cpos = 0;
    MPI_OK(MPI_Unpack_c(p2, sizeof(p2), &cpos, back, N, MPI_INT, MPI_COMM_WORLD));
    same(v, back, sizeof(back), "Unpack_c");
    {
        MPI_Aint apos = 0, asize = 0;
        MPI_Count epos = 0, esize = 0;
        MPI_OK(MPI_Pack_external("external32", v, N, MPI_INT, p1, sizeof(p1), &apos));
        MPI_OK(MPI_Pack_external_c("external32", v, N, MPI_INT, p2, sizeof(p2), &epos));
        CHECK(epos == apos, "Pack_external_c position %lld vs %ld", (long long)epos, (long)apos);
        same(p1, p2, (size_t)apos, "Pack_external_c");
        MPI_OK(MPI_Pack_external_size("external32", N, MPI_INT, &asize));
        MPI_OK(MPI_Pack_external_size_c("external32", N, MPI_INT, &esize));
        CHECK(esize == asize, "Pack_external_size_c %lld", (long long)esize);
        memset(back, 0, sizeof(back));
        epos = 0;
        MPI_OK(MPI_Unpack_external_c("external32", p2, sizeof(p2), &epos, back, N, MPI_INT));
        same(v, back, sizeof(back), "Unpack_external_c");
    }
    MPI_OK(MPI_Pack_size_c(BIG, MPI_INT, MPI_COMM_WORLD, &csize));
    CHECK(csize == BIG * (MPI_Count)sizeof(int), "Pack_size_c of INT_MAX+1 ints: %lld",
          (long long)csize);
    mt_expect_class(MPI_Pack_size(INT_MAX, MPI_INT, MPI_COMM_WORLD, &size), MPI_ERR_COUNT,
                 "Pack_size of INT_MAX ints");
    {
        /* a position beyond int: only the bytes from there on are touched */
        int one = 12345, target = 0;
        MPI_Count far = BIG * 2;
        char *base = (char *)&target - far;
        MPI_OK(
            MPI_Pack_c(&one, 1, MPI_INT, base, far + (MPI_Count)sizeof(int), &far, MPI_COMM_WORLD));
        CHECK(far == BIG * 2 + (MPI_Count)sizeof(int) && target == one,
              "Pack_c at a position beyond int: %lld, %d", (long long)far, target);
        far = BIG * 2;
        one = 0;
        MPI_OK(MPI_Unpack_c(base, far + (MPI_Count)sizeof(int), &far, &one, 1, MPI_INT,
                            MPI_COMM_WORLD));
        CHECK(far == BIG * 2 + (MPI_Count)sizeof(int) && one == 12345,
              "Unpack_c at a position beyond int: %lld, %d", (long long)far, one);
    }
    cpos = 0;
    mt_expect_class(MPI_Pack_c(v, 1, MPI_INT, p1, 2, &cpos, MPI_COMM_WORLD), MPI_ERR_TRUNCATE,
                 "Pack_c beyond the buffer");
    free(v);
}

/* ---- datatypes --------------------------------------------------------------------- */

/* the same type made by the int and the _c constructor: size, extents and a pack alike */
static void same_type(MPI_Datatype a, MPI_Datatype b, const char *what)
{
    MPI_Count sa, sb, la, lb, ea, eb;
    int *src = ibuf(4096, 7);
    char pa[16384], pb[16384];
    int qa = 0, qb = 0;

    MPI_OK(MPI_Type_commit(&a));
    MPI_OK(MPI_Type_commit(&b));
    MPI_OK(MPI_Type_size_x(a, &sa));
    MPI_OK(MPI_Type_size_c(b, &sb));
    CHECK(sa == sb, "%s: sizes %lld and %lld", what, (long long)sa, (long long)sb);
    MPI_OK(MPI_Type_get_extent_x(a, &la, &ea));
    MPI_OK(MPI_Type_get_extent_c(b, &lb, &eb));
    CHECK(la == lb && ea == eb, "%s: extents differ", what);
    MPI_OK(MPI_Type_get_true_extent_x(a, &la, &ea));
    MPI_OK(MPI_Type_get_true_extent_c(b, &lb, &eb));
    CHECK(la == lb && ea == eb, "%s: true extents differ", what);
    MPI_OK(MPI_Pack(src, 1, a, pa, sizeof(pa), &qa, MPI_COMM_SELF));
    MPI_OK(MPI_Pack(src, 1, b, pb, sizeof(pb), &qb, MPI_COMM_SELF));
    CHECK(qa == qb, "%s: packed %d and %d bytes", what, qa, qb);
    same(pa, pb, (size_t)qa, what);
    MPI_OK(MPI_Type_free(&a));
    MPI_OK(MPI_Type_free(&b));
    free(src);
}

static void datatypes(void)
{
    MPI_Datatype a, b;
    int bl[3] = {2, 1, 3}, dp[3] = {0, 5, 9};
    MPI_Count cbl[3] = {2, 1, 3}, cdp[3] = {0, 5, 9};
    MPI_Aint adp[3] = {0, 20, 36};
    MPI_Count cadp[3] = {0, 20, 36};
    MPI_Datatype types[3] = {MPI_INT, MPI_SHORT, MPI_INT};

    MPI_OK(MPI_Type_contiguous(5, MPI_INT, &a));
    MPI_OK(MPI_Type_contiguous_c(5, MPI_INT, &b));
    same_type(a, b, "contiguous");
    MPI_OK(MPI_Type_vector(3, 2, 5, MPI_INT, &a));
    MPI_OK(MPI_Type_vector_c(3, 2, 5, MPI_INT, &b));
    same_type(a, b, "vector");
    MPI_OK(MPI_Type_create_hvector(3, 2, 28, MPI_INT, &a));
    MPI_OK(MPI_Type_create_hvector_c(3, 2, 28, MPI_INT, &b));
    same_type(a, b, "hvector");
    MPI_OK(MPI_Type_indexed(3, bl, dp, MPI_INT, &a));
    MPI_OK(MPI_Type_indexed_c(3, cbl, cdp, MPI_INT, &b));
    same_type(a, b, "indexed");
    MPI_OK(MPI_Type_create_hindexed(3, bl, adp, MPI_INT, &a));
    MPI_OK(MPI_Type_create_hindexed_c(3, cbl, cadp, MPI_INT, &b));
    same_type(a, b, "hindexed");
    MPI_OK(MPI_Type_create_indexed_block(3, 2, dp, MPI_INT, &a));
    MPI_OK(MPI_Type_create_indexed_block_c(3, 2, cdp, MPI_INT, &b));
    same_type(a, b, "indexed_block");
    MPI_OK(MPI_Type_create_hindexed_block(3, 2, adp, MPI_INT, &a));
    MPI_OK(MPI_Type_create_hindexed_block_c(3, 2, cadp, MPI_INT, &b));
    same_type(a, b, "hindexed_block");
    MPI_OK(MPI_Type_create_struct(3, bl, adp, types, &a));
    MPI_OK(MPI_Type_create_struct_c(3, cbl, cadp, types, &b));
    same_type(a, b, "struct");
    {
        int sz[2] = {8, 10}, sub[2] = {3, 4}, st[2] = {2, 5};
        MPI_Count csz[2] = {8, 10}, csub[2] = {3, 4}, cst[2] = {2, 5};
        MPI_OK(MPI_Type_create_subarray(2, sz, sub, st, MPI_ORDER_C, MPI_INT, &a));
        MPI_OK(MPI_Type_create_subarray_c(2, csz, csub, cst, MPI_ORDER_C, MPI_INT, &b));
        same_type(a, b, "subarray");
        int gs[2] = {8, 10}, dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
            darg[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {1, 1};
        MPI_Count cgs[2] = {8, 10};
        MPI_OK(MPI_Type_create_darray(1, 0, 2, gs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &a));
        MPI_OK(MPI_Type_create_darray_c(1, 0, 2, cgs, dist, darg, ps, MPI_ORDER_C, MPI_INT, &b));
        same_type(a, b, "darray");
    }
    MPI_OK(MPI_Type_create_resized(MPI_INT, -4, 16, &a));
    MPI_OK(MPI_Type_create_resized_c(MPI_INT, -4, 16, &b));
    same_type(a, b, "resized");

    /* envelope and contents of a _c type: its counts are large counts */
    {
        MPI_Count ni, na, nl, nd;
        int comb, ints[1], ii, ia, id;
        MPI_Aint addrs[1];
        MPI_Count larges[3];
        MPI_Datatype dts[1];
        MPI_OK(MPI_Type_vector_c(3, 2, 5, MPI_INT, &b));
        MPI_OK(MPI_Type_get_envelope_c(b, &ni, &na, &nl, &nd, &comb));
        CHECK(comb == MPI_COMBINER_VECTOR && ni == 0 && na == 0 && nl == 3 && nd == 1,
              "Type_get_envelope_c: combiner %d, %lld/%lld/%lld/%lld", comb, (long long)ni,
              (long long)na, (long long)nl, (long long)nd);
        MPI_OK(MPI_Type_get_contents_c(b, 0, 0, 3, 1, ints, addrs, larges, dts));
        CHECK(larges[0] == 3 && larges[1] == 2 && larges[2] == 5 && dts[0] == MPI_INT,
              "Type_get_contents_c: %lld %lld %lld", (long long)larges[0], (long long)larges[1],
              (long long)larges[2]);
        mt_expect_class(MPI_Type_get_envelope(b, &ii, &ia, &id, &comb), MPI_ERR_TYPE,
                     "Type_get_envelope of a _c type");
        MPI_OK(MPI_Type_free(&b));
    }

    /* sizes beyond int are computed: 2^12 blocks of 2^20 ints are 2^34 bytes */
    {
        MPI_Datatype t1, t2;
        MPI_Count size, lb, ext;
        int isize;
        MPI_OK(MPI_Type_contiguous_c(1 << 20, MPI_INT, &t1));
        MPI_OK(MPI_Type_contiguous_c(1 << 12, t1, &t2));
        MPI_OK(MPI_Type_size_c(t2, &size));
        CHECK(size == (MPI_Count)1 << 34, "Type_size_c of 2^32 ints: %lld", (long long)size);
        MPI_OK(MPI_Type_get_extent_c(t2, &lb, &ext));
        CHECK(lb == 0 && ext == (MPI_Count)1 << 34, "Type_get_extent_c: %lld %lld",
              (long long)lb, (long long)ext);
        MPI_OK(MPI_Type_size(t2, &isize));
        CHECK(isize == MPI_UNDEFINED, "Type_size beyond int: %d", isize);
        MPI_OK(MPI_Type_free(&t1));
        MPI_OK(MPI_Type_free(&t2));
        MPI_OK(MPI_Type_create_hvector_c(2, 1, (MPI_Count)1 << 33, MPI_INT, &t1));
        MPI_OK(MPI_Type_get_extent_c(t1, &lb, &ext));
        CHECK(ext == ((MPI_Count)1 << 33) + 4, "hvector_c stride 2^33: extent %lld",
              (long long)ext);
        MPI_OK(MPI_Type_free(&t1));
    }
    /* a contiguous type beyond int: one contiguous type of that size */
    {
        MPI_Count big = (MPI_Count)INT_MAX + INT_MAX / 1024, csize, ni, na, nl, nd;
        int comb;
        MPI_OK(MPI_Type_contiguous_c(big, MPI_BYTE, &a));
        MPI_OK(MPI_Type_size_c(a, &csize));
        CHECK(csize == big, "Type_contiguous_c beyond int: size %lld", (long long)csize);
        MPI_OK(MPI_Type_get_envelope_c(a, &ni, &na, &nl, &nd, &comb));
        CHECK(comb == MPI_COMBINER_CONTIGUOUS && nl == 1 && nd == 1,
              "Type_contiguous_c beyond int: combiner %d with %lld large counts", comb,
              (long long)nl);
        MPI_OK(MPI_Type_free(&a));
    }
    /* counts beyond int in every place of a constructor */
    {
        MPI_Count beyond = (MPI_Count)INT_MAX * BIG, size, lb, ext;
        MPI_OK(MPI_Type_contiguous_c(beyond, MPI_BYTE, &a));
        MPI_OK(MPI_Type_size_c(a, &size));
        CHECK(size == beyond, "Type_contiguous_c beyond int squared: %lld", (long long)size);
        MPI_OK(MPI_Type_free(&a));
        MPI_OK(MPI_Type_vector_c(2, 1, BIG, MPI_BYTE, &a));
        MPI_OK(MPI_Type_get_extent_c(a, &lb, &ext));
        CHECK(lb == 0 && ext == BIG + 1, "Type_vector_c stride beyond int: extent %lld",
              (long long)ext);
        MPI_OK(MPI_Type_free(&a));
        cbl[1] = BIG;
        MPI_OK(MPI_Type_indexed_c(3, cbl, cdp, MPI_INT, &a));
        MPI_OK(MPI_Type_size_c(a, &size));
        CHECK(size == (BIG + 5) * (MPI_Count)sizeof(int), "Type_indexed_c block beyond int: %lld",
              (long long)size);
        MPI_OK(MPI_Type_free(&a));
    }
}

/* ---- operations ---------------------------------------------------------------------- */

static void op_sum_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    (void)dt;
    for (MPI_Count i = 0; i < *len; i++)
        ((int *)inout)[i] += 2 * ((int *)in)[i];
}

static void op_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += 2 * ((int *)in)[i];
}

/* ---- collectives --------------------------------------------------------------------- */

static void collectives(void)
{
    int p = mt_size, me = mt_rank;
    size_t big = (size_t)N * (p < 2 ? 2 : p); /* a ring neighbourhood has two blocks */
    int *s = ibuf(big, me), *a = ibuf(big, -1), *b = ibuf(big, -1);
    int counts[64], displs[64];
    MPI_Count ccounts[64];
    MPI_Aint cdispls[64];
    MPI_Datatype types[64];
    MPI_Op opc, opi;
    MPI_Request rq;

    for (int i = 0; i < p; i++) {
        counts[i] = 1 + (i * 3 + me) % N; /* alltoallv: what I send to i */
        displs[i] = N * i;
        ccounts[i] = counts[i];
        cdispls[i] = displs[i];
        types[i] = MPI_INT;
    }
#define RESET() (memset(a, 0, big * sizeof(int)), memset(b, 0, big * sizeof(int)))
#define SAME(what) same(a, b, big * sizeof(int), what)
    int root = p - 1;

    RESET();
    memcpy(a, s, N * sizeof(int));
    memcpy(b, s, N * sizeof(int));
    MPI_OK(MPI_Bcast(a, N, MPI_INT, root, MPI_COMM_WORLD));
    MPI_OK(MPI_Bcast_c(b, N, MPI_INT, root, MPI_COMM_WORLD));
    SAME("Bcast_c");
    RESET();
    MPI_OK(MPI_Reduce(s, a, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
    MPI_OK(MPI_Reduce_c(s, b, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD));
    SAME("Reduce_c");
    RESET();
    MPI_OK(MPI_Allreduce(s, a, N, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    MPI_OK(MPI_Allreduce_c(s, b, N, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    SAME("Allreduce_c");
    RESET();
    MPI_OK(MPI_Scan(s, a, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MPI_OK(MPI_Scan_c(s, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    SAME("Scan_c");
    RESET();
    MPI_OK(MPI_Exscan(s, a, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MPI_OK(MPI_Exscan_c(s, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    if (me > 0)
        SAME("Exscan_c");
    RESET();
    MPI_OK(MPI_Gather(s, N, MPI_INT, a, N, MPI_INT, root, MPI_COMM_WORLD));
    MPI_OK(MPI_Gather_c(s, N, MPI_INT, b, N, MPI_INT, root, MPI_COMM_WORLD));
    SAME("Gather_c");
    RESET();
    MPI_OK(MPI_Scatter(s, N, MPI_INT, a, N, MPI_INT, 0, MPI_COMM_WORLD));
    MPI_OK(MPI_Scatter_c(s, N, MPI_INT, b, N, MPI_INT, 0, MPI_COMM_WORLD));
    SAME("Scatter_c");
    RESET();
    MPI_OK(MPI_Allgather(s, N, MPI_INT, a, N, MPI_INT, MPI_COMM_WORLD));
    MPI_OK(MPI_Allgather_c(s, N, MPI_INT, b, N, MPI_INT, MPI_COMM_WORLD));
    SAME("Allgather_c");
    RESET();
    MPI_OK(MPI_Alltoall(s, N, MPI_INT, a, N, MPI_INT, MPI_COMM_WORLD));
    MPI_OK(MPI_Alltoall_c(s, N, MPI_INT, b, N, MPI_INT, MPI_COMM_WORLD));
    SAME("Alltoall_c");

    /* v kinds: block i has 1 + i elements */
    int vc[64], vd[64];
    MPI_Count cvc[64];
    MPI_Aint cvd[64];
    for (int i = 0; i < p; i++) {
        vc[i] = 1 + i;
        vd[i] = N * i + 1;
        cvc[i] = vc[i];
        cvd[i] = vd[i];
    }
    RESET();
    MPI_OK(MPI_Gatherv(s, 1 + me, MPI_INT, a, vc, vd, MPI_INT, root, MPI_COMM_WORLD));
    MPI_OK(MPI_Gatherv_c(s, 1 + me, MPI_INT, b, me == root ? cvc : NULL,
                         me == root ? cvd : NULL, MPI_INT, root, MPI_COMM_WORLD));
    SAME("Gatherv_c");
    RESET();
    MPI_OK(MPI_Scatterv(s, vc, vd, MPI_INT, a, 1 + me, MPI_INT, 0, MPI_COMM_WORLD));
    MPI_OK(MPI_Scatterv_c(s, cvc, cvd, MPI_INT, b, 1 + me, MPI_INT, 0, MPI_COMM_WORLD));
    SAME("Scatterv_c");
    RESET();
    MPI_OK(MPI_Allgatherv(s, 1 + me, MPI_INT, a, vc, vd, MPI_INT, MPI_COMM_WORLD));
    MPI_OK(MPI_Allgatherv_c(s, 1 + me, MPI_INT, b, cvc, cvd, MPI_INT, MPI_COMM_WORLD));
    SAME("Allgatherv_c");
    /* alltoallv: I send counts[i] to i and receive from j what j sends me */
    int rcnt[64];
    MPI_Count crcnt[64];
    for (int j = 0; j < p; j++) {
        rcnt[j] = 1 + (me * 3 + j) % N;
        crcnt[j] = rcnt[j];
    }
    RESET();
    MPI_OK(MPI_Alltoallv(s, counts, displs, MPI_INT, a, rcnt, displs, MPI_INT, MPI_COMM_WORLD));
    MPI_OK(MPI_Alltoallv_c(s, ccounts, cdispls, MPI_INT, b, crcnt, cdispls, MPI_INT,
                           MPI_COMM_WORLD));
    SAME("Alltoallv_c");
    {
        int bd[64];
        MPI_Aint cbd[64];
        for (int i = 0; i < p; i++) {
            bd[i] = displs[i] * (int)sizeof(int);
            cbd[i] = bd[i];
        }
        RESET();
        MPI_OK(MPI_Alltoallw(s, counts, bd, types, a, rcnt, bd, types, MPI_COMM_WORLD));
        MPI_OK(MPI_Alltoallw_c(s, ccounts, cbd, types, b, crcnt, cbd, types, MPI_COMM_WORLD));
        SAME("Alltoallw_c");
    }
    RESET();
    MPI_OK(MPI_Reduce_scatter(s, a, vc, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MPI_OK(MPI_Reduce_scatter_c(s, b, cvc, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    SAME("Reduce_scatter_c");
    RESET();
    MPI_OK(MPI_Reduce_scatter_block(s, a, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MPI_OK(MPI_Reduce_scatter_block_c(s, b, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    SAME("Reduce_scatter_block_c");

    /* nonblocking and persistent: the int arrays of the _c call are gone by the wait */
    RESET();
    MPI_OK(MPI_Ialltoallv(s, counts, displs, MPI_INT, a, rcnt, displs, MPI_INT, MPI_COMM_WORLD,
                          &rq));
    MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Ialltoallv_c(s, ccounts, cdispls, MPI_INT, b, crcnt, cdispls, MPI_INT,
                            MPI_COMM_WORLD, &rq));
    {
        void *junk = malloc(4096); /* reuse what the wrapper freed */
        memset(junk, 0x5a, 4096);
        MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        free(junk);
    }
    SAME("Ialltoallv_c");
    RESET();
    MPI_OK(MPI_Iallgatherv(s, 1 + me, MPI_INT, a, vc, vd, MPI_INT, MPI_COMM_WORLD, &rq));
    MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Allgatherv_init_c(s, 1 + me, MPI_INT, b, cvc, cvd, MPI_INT, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &rq));
    for (int k = 0; k < 3; k++) {
        memset(b, 0, big * sizeof(int));
        MPI_OK(MPI_Start(&rq));
        MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        SAME("Allgatherv_init_c");
    }
    MPI_OK(MPI_Request_free(&rq));
    RESET();
    MPI_OK(MPI_Allreduce(s, a, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MPI_OK(MPI_Iallreduce_c(s, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq));
    MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    SAME("Iallreduce_c");
    RESET();
    MPI_OK(MPI_Ibcast_c(s, N, MPI_INT, 0, MPI_COMM_WORLD, &rq));
    MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Bcast_init_c(b, N, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &rq));
    if (me == 0)
        memcpy(b, s, N * sizeof(int));
    MPI_OK(MPI_Start(&rq));
    MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Request_free(&rq));
    CHECK(b[N - 1] == N - 1, "Bcast_init_c: %d", b[N - 1]);

    /* a user op of MPI_Count lengths against the same op of int lengths */
    MPI_OK(MPI_Op_create_c(op_sum_c, 1, &opc));
    MPI_OK(MPI_Op_create(op_sum, 1, &opi));
    RESET();
    MPI_OK(MPI_Allreduce(s, a, N, MPI_INT, opi, MPI_COMM_WORLD));
    MPI_OK(MPI_Allreduce_c(s, b, N, MPI_INT, opc, MPI_COMM_WORLD));
    SAME("Allreduce_c with Op_create_c");
    memcpy(a, s, N * sizeof(int));
    memcpy(b, s, N * sizeof(int));
    MPI_OK(MPI_Reduce_local(s, a, N, MPI_INT, opi));
    MPI_OK(MPI_Reduce_local_c(s, b, N, MPI_INT, opc));
    SAME("Reduce_local_c");
    MPI_OK(MPI_Op_free(&opc));
    MPI_OK(MPI_Op_free(&opi));

    /* neighbourhood: a periodic ring */
    {
        MPI_Comm ring;
        int dims[1] = {p}, per[1] = {1};
        int nc[2] = {N, N}, nd[2] = {0, N};
        MPI_Count cnc[2] = {N, N};
        MPI_Aint cnd[2] = {0, N}, bnd[2] = {0, N * sizeof(int)};
        MPI_Datatype nt[2] = {MPI_INT, MPI_INT};
        MPI_OK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, 0, &ring));
        RESET();
        MPI_OK(MPI_Neighbor_allgather(s, N, MPI_INT, a, N, MPI_INT, ring));
        MPI_OK(MPI_Neighbor_allgather_c(s, N, MPI_INT, b, N, MPI_INT, ring));
        SAME("Neighbor_allgather_c");
        RESET();
        MPI_OK(MPI_Neighbor_alltoallv(s, nc, nd, MPI_INT, a, nc, nd, MPI_INT, ring));
        MPI_OK(MPI_Ineighbor_alltoallv_c(s, cnc, cnd, MPI_INT, b, cnc, cnd, MPI_INT, ring, &rq));
        MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        SAME("Ineighbor_alltoallv_c");
        RESET();
        MPI_OK(MPI_Neighbor_alltoallw(s, nc, bnd, nt, a, nc, bnd, nt, ring));
        MPI_OK(MPI_Neighbor_alltoallw_c(s, cnc, bnd, nt, b, cnc, bnd, nt, ring));
        SAME("Neighbor_alltoallw_c");
        RESET();
        MPI_OK(MPI_Neighbor_allgatherv(s, N, MPI_INT, a, nc, nd, MPI_INT, ring));
        MPI_OK(MPI_Neighbor_allgatherv_c(s, N, MPI_INT, b, cnc, cnd, MPI_INT, ring));
        SAME("Neighbor_allgatherv_c");
        MPI_OK(MPI_Comm_free(&ring));
    }

    /* scalar counts beyond int are carried: a type without data moves nothing; negative
       counts are MPI_ERR_COUNT on every rank before anything is communicated */
    {
        MPI_Datatype empty;
        MPI_OK(MPI_Type_contiguous(0, MPI_INT, &empty));
        MPI_OK(MPI_Type_commit(&empty));
        MPI_OK(MPI_Bcast_c(s, BIG, empty, 0, MPI_COMM_WORLD));
        MPI_OK(MPI_Allgather_c(s, BIG, empty, b, BIG, empty, MPI_COMM_WORLD));
        MPI_OK(MPI_Type_free(&empty));
    }
    mt_expect_class(MPI_Bcast_c(s, -BIG, MPI_BYTE, 0, MPI_COMM_WORLD), MPI_ERR_COUNT, "Bcast_c");
    mt_expect_class(MPI_Iallreduce_c(s, b, -BIG, MPI_BYTE, MPI_MAX, MPI_COMM_WORLD, &rq),
                 MPI_ERR_COUNT, "Iallreduce_c");
    /* the v and w variants carry their counts and displacements whole.  Counts beyond int
       of a type without data: accepted, nothing moves; a negative one: MPI_ERR_COUNT. */
    {
        MPI_Datatype empty;
        MPI_Count ec[64];
        MPI_Aint ed[64];
        MPI_OK(MPI_Type_contiguous(0, MPI_INT, &empty));
        MPI_OK(MPI_Type_commit(&empty));
        for (int i = 0; i < p; i++) {
            ec[i] = BIG + i;
            ed[i] = 0;
        }
        MPI_OK(MPI_Allgatherv_c(s, BIG + me, empty, b, ec, ed, empty, MPI_COMM_WORLD));
        MPI_OK(MPI_Alltoallv_c(s, ec, ed, empty, b, ec, ed, empty, MPI_COMM_WORLD));
        MPI_OK(MPI_Gatherv_c(s, BIG + me, empty, b, ec, ed, empty, root, MPI_COMM_WORLD));
        MPI_OK(MPI_Type_free(&empty));
        cvc[p - 1] = -BIG;
        mt_expect_class(MPI_Allgatherv_c(s, 1, MPI_INT, b, cvc, cvd, MPI_INT, MPI_COMM_WORLD),
                     MPI_ERR_COUNT, "Allgatherv_c with a count of -(INT_MAX+1)");
        mt_expect_class(MPI_Ireduce_scatter_c(s, b, cvc, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq),
                     MPI_ERR_COUNT, "Ireduce_scatter_c with a count of -(INT_MAX+1)");
    }
    /* displacements beyond int: every receive block 2^40 + j*N elements from a base
       2^40 elements before b, so the data lands in b as with small displacements */
    {
        MPI_Aint far[64];
        int *base = (int *)((uintptr_t)b - ((uintptr_t)1 << 40) * sizeof(int));
        for (int j = 0; j < p; j++) {
            crcnt[j] = rcnt[j];
            far[j] = ((MPI_Aint)1 << 40) + (MPI_Aint)N * j;
        }
        RESET();
        MPI_OK(MPI_Alltoallv(s, counts, displs, MPI_INT, a, rcnt, displs, MPI_INT, MPI_COMM_WORLD));
        MPI_OK(MPI_Alltoallv_c(s, ccounts, cdispls, MPI_INT, base, crcnt, far, MPI_INT,
                               MPI_COMM_WORLD));
        SAME("Alltoallv_c with displacements of 2^40");
    }
    free(s);
    free(a);
    free(b);
}

/* ---- one-sided communication ------------------------------------------------------- */

/* the _c forms of windows and transfers against their int forms: the same window contents
   and results; a disp_unit beyond int is MPI_ERR_DISP */
static void rma(void)
{
    int r = mt_rank, p = mt_size, t = (mt_rank + 1) % mt_size, du;
    MPI_Aint size, du_c;
    int *base = NULL, *base_c = NULL, *q = NULL;
    MPI_Win w, w_c;
    MPI_Request rq[4];

    MPI_OK(
        MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &w));
    MPI_OK(MPI_Win_allocate_c(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base_c,
                              &w_c));
    MPI_OK(MPI_Win_shared_query_c(w_c, r, &size, &du_c, &q));
    CHECK(size == N * sizeof(int) && du_c == sizeof(int) && q == base_c,
          "Win_shared_query_c: size %ld, disp_unit %ld", (long)size, (long)du_c);
    MPI_OK(MPI_Win_shared_query(w, r, &size, &du, &q));
    CHECK(du == sizeof(int), "Win_shared_query: disp_unit %d", du);
    for (int i = 0; i < N; i++)
        base[i] = base_c[i] = -1;
    int *src = ibuf(N, r + 1), got[N], got_c[N], old[N], old_c[N];
    MPI_OK(MPI_Win_fence(0, w));
    MPI_OK(MPI_Win_fence(0, w_c));
    MPI_OK(MPI_Put(src, N - 2, MPI_INT, t, 1, N - 2, MPI_INT, w));
    MPI_OK(MPI_Put_c(src, N - 2, MPI_INT, t, 1, N - 2, MPI_INT, w_c));
    MPI_OK(MPI_Win_fence(0, w));
    MPI_OK(MPI_Win_fence(0, w_c));
    MPI_OK(MPI_Accumulate(src, 3, MPI_INT, t, 0, 3, MPI_INT, MPI_SUM, w));
    MPI_OK(MPI_Accumulate_c(src, 3, MPI_INT, t, 0, 3, MPI_INT, MPI_SUM, w_c));
    MPI_OK(MPI_Win_fence(0, w));
    MPI_OK(MPI_Win_fence(0, w_c));
    MPI_OK(MPI_Get_accumulate(src, 2, MPI_INT, old, 2, MPI_INT, t, 4, 2, MPI_INT, MPI_MAX, w));
    MPI_OK(
        MPI_Get_accumulate_c(src, 2, MPI_INT, old_c, 2, MPI_INT, t, 4, 2, MPI_INT, MPI_MAX, w_c));
    MPI_OK(MPI_Win_fence(0, w));
    MPI_OK(MPI_Win_fence(0, w_c));
    same(old, old_c, 2 * sizeof(int), "Get_accumulate_c's result");
    MPI_OK(MPI_Get(got, N, MPI_INT, t, 0, N, MPI_INT, w));
    MPI_OK(MPI_Get_c(got_c, N, MPI_INT, t, 0, N, MPI_INT, w_c));
    MPI_OK(MPI_Win_fence(0, w));
    MPI_OK(MPI_Win_fence(0, w_c));
    same(got, got_c, sizeof got, "Put_c, Accumulate_c, Get_accumulate_c and Get_c");
    same(base, base_c, N * sizeof(int), "the windows after the _c transfers");
    /* request-based forms under a passive epoch, once every rank has compared its windows
       (a passive target's memory may change at any time) */
    MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_OK(MPI_Win_lock_all(0, w_c));
    MPI_OK(MPI_Rput_c(src, 1, MPI_INT, t, N - 1, 1, MPI_INT, w_c, &rq[0]));
    MPI_OK(MPI_Raccumulate_c(src, 1, MPI_INT, t, N - 2, 1, MPI_INT, MPI_REPLACE, w_c, &rq[1]));
    MPI_OK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
    MPI_OK(MPI_Win_flush_all(w_c));
    MPI_OK(MPI_Rget_c(got_c, 2, MPI_INT, t, N - 2, 2, MPI_INT, w_c, &rq[2]));
    MPI_OK(MPI_Rget_accumulate_c(NULL, 0, MPI_INT, old_c, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_NO_OP,
                                 w_c, &rq[3]));
    MPI_OK(MPI_Waitall(2, rq + 2, MPI_STATUSES_IGNORE));
    MPI_OK(MPI_Win_unlock_all(w_c));
    CHECK(got_c[0] == src[0] && got_c[1] == src[0], "Rput_c/Raccumulate_c/Rget_c: %d %d", got_c[0],
          got_c[1]);
    CHECK(old_c[0] == got[0], "Rget_accumulate_c (MPI_NO_OP): %d, not %d", old_c[0], got[0]);
    MPI_OK(MPI_Win_free(&w));
    MPI_OK(MPI_Win_free(&w_c));
    /* MPI_Win_create_c with a disp_unit beyond int */
    mt_expect_class(MPI_Win_create_c(src, N * sizeof(int), (MPI_Aint)INT_MAX + 1, MPI_INFO_NULL,
                                  MPI_COMM_WORLD, &w_c),
                 MPI_ERR_DISP, "Win_create_c with disp_unit INT_MAX+1");
    MPI_OK(MPI_Win_create_c(src, N * sizeof(int), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w_c));
    MPI_OK(MPI_Win_free(&w_c));
    free(src);
    (void)p;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "bigcount");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    p2p();
    status_pack();
    datatypes();
    collectives();
    rma();
    return mt_finish();
}
