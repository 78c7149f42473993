/*
 * dt_huge: regular datatypes of a billion blocks are described, not enumerated.
 * MPI_Type_vector(1073741823, 1, 2, MPI_INT), an hvector of 2^30 doubles, a contiguous of
 * 2^28 two-member structs, a resized and a duplicated one: create, commit, size, extent,
 * true extent each well under a second.  A few ints received into one element of the
 * vector land at its even places (Get_elements 5, Get_count undefined).  Types of the
 * same shape but a million blocks (kept short too) carry messages both ways in a ring,
 * through MPI_SUM and MPI_MINLOC (Reduce_local) and Pack_external, against the same data
 * by hand.
 */
#include "tests/mpi/mpitest.h"

#include <stdlib.h>
#include <string.h>

#define HUGE_N 1073741823
#define MID_N (1 << 20)

typedef struct {
    int i;
    double d;
} pair_t;

static double t_start;

static void timed(const char *what)
{
    double dt = MPI_Wtime() - t_start;
    /* flattening took minutes: seconds here would still be a regression */
    CHECK(dt < 5.0, "%s took %.2f s", what, dt);
    t_start = MPI_Wtime();
}

static void expect_x(MPI_Datatype t, const char *name, MPI_Count size, MPI_Count lb,
                     MPI_Count extent, MPI_Count tlb, MPI_Count textent)
{
    MPI_Count s = -1, l = -1, e = -1, tl = -1, te = -1;

    MPI_OK(MPI_Type_size_x(t, &s));
    MPI_OK(MPI_Type_get_extent_x(t, &l, &e));
    MPI_OK(MPI_Type_get_true_extent_x(t, &tl, &te));
    CHECK(s == size, "%s: size %lld, expected %lld", name, (long long)s, (long long)size);
    CHECK(l == lb && e == extent, "%s: lb/extent %lld/%lld, expected %lld/%lld", name, (long long)l,
          (long long)e, (long long)lb, (long long)extent);
    CHECK(tl == tlb && te == textent, "%s: true lb/extent %lld/%lld, expected %lld/%lld", name,
          (long long)tl, (long long)te, (long long)tlb, (long long)textent);
}

static MPI_Datatype pair_type(void)
{
    int bl[2] = {1, 1};
    MPI_Aint d[2] = {offsetof(pair_t, i), offsetof(pair_t, d)};
    MPI_Datatype ts[2] = {MPI_INT, MPI_DOUBLE}, t;

    MPI_OK(MPI_Type_create_struct(2, bl, d, ts, &t));
    MPI_OK(MPI_Type_commit(&t));
    return t;
}

static void huge_types(void)
{
    MPI_Datatype v, hv, pt, cs, rs, dup;
    MPI_Count n = HUGE_N;

    t_start = MPI_Wtime();
    MPI_OK(MPI_Type_vector(HUGE_N, 1, 2, MPI_INT, &v));
    MPI_OK(MPI_Type_commit(&v));
    expect_x(v, "vector(2^30-1, 1, 2, int)", 4 * n, 0, 4 * (2 * (n - 1) + 1), 0,
             4 * (2 * (n - 1) + 1));
    timed("vector(2^30-1, 1, 2, int)");

    MPI_OK(MPI_Type_create_hvector(1 << 30, 1, 24, MPI_DOUBLE, &hv));
    MPI_OK(MPI_Type_commit(&hv));
    expect_x(hv, "hvector(2^30, 1, 24 B, double)", 8LL << 30, 0, 24LL * ((1 << 30) - 1) + 8, 0,
             24LL * ((1 << 30) - 1) + 8);
    timed("hvector(2^30, 1, 24 B, double)");

    pt = pair_type();
    MPI_OK(MPI_Type_contiguous(1 << 28, pt, &cs));
    MPI_OK(MPI_Type_commit(&cs));
    expect_x(cs, "contiguous(2^28, {int, double})", 12LL << 28, 0, 16LL << 28, 0, 16LL << 28);
    timed("contiguous(2^28, {int, double})");

    MPI_OK(MPI_Type_create_resized(v, -8, 16, &rs));
    MPI_OK(MPI_Type_commit(&rs));
    expect_x(rs, "resized(vector, -8, 16)", 4 * n, -8, 16, 0, 4 * (2 * (n - 1) + 1));
    MPI_OK(MPI_Type_dup(v, &dup));
    expect_x(dup, "dup(vector)", 4 * n, 0, 4 * (2 * (n - 1) + 1), 0, 4 * (2 * (n - 1) + 1));
    timed("resized and dup");

    /* five ints into one element of the vector: the even places, nothing else */
    {
        int src[5] = {11, 22, 33, 44, 55}, dst[12];
        MPI_Status st;
        MPI_Count elems = -1;
        int count = 0;

        for (int i = 0; i < 12; i++) {
            dst[i] = -1;
        }
        MPI_OK(MPI_Sendrecv(src, 5, MPI_INT, 0, 5, dst, 1, v, 0, 5, MPI_COMM_SELF, &st));
        for (int i = 0; i < 12; i++) {
            int want = (i % 2 == 0 && i < 10) ? src[i / 2] : -1;
            CHECK(dst[i] == want, "vector receive: int %d is %d, expected %d", i, dst[i], want);
        }
        MPI_OK(MPI_Get_elements_x(&st, v, &elems));
        CHECK(elems == 5, "Get_elements_x: %lld, expected 5", (long long)elems);
        MPI_OK(MPI_Get_count(&st, v, &count));
        CHECK(count == MPI_UNDEFINED, "Get_count: %d, expected MPI_UNDEFINED", count);
    }
    timed("a receive into the vector");

    MPI_OK(MPI_Type_free(&dup));
    MPI_OK(MPI_Type_free(&rs));
    MPI_OK(MPI_Type_free(&cs));
    MPI_OK(MPI_Type_free(&pt));
    MPI_OK(MPI_Type_free(&hv));
    MPI_OK(MPI_Type_free(&v));
}

/* a million-block vector and struct array around a ring, both ways of typing each side */
static void mid_messages(void)
{
    int peer = (mt_rank + 1) % mt_size, from = (mt_rank + mt_size - 1) % mt_size;
    int *sv = mt_malloc(2 * sizeof(int) * MID_N), *rv = mt_malloc(2 * sizeof(int) * MID_N);
    int *flat = mt_malloc(sizeof(int) * MID_N);
    pair_t *sp = mt_malloc(sizeof(pair_t) * MID_N), *rp = mt_malloc(sizeof(pair_t) * MID_N);
    MPI_Datatype v, pt, cs;
    MPI_Request rq;

    MPI_OK(MPI_Type_vector(MID_N, 1, 2, MPI_INT, &v));
    MPI_OK(MPI_Type_commit(&v));
    pt = pair_type();
    MPI_OK(MPI_Type_contiguous(MID_N, pt, &cs));
    MPI_OK(MPI_Type_commit(&cs));
    for (int i = 0; i < 2 * MID_N; i++) {
        sv[i] = i % 2 == 0 ? mt_rank * 7 + i : -5;
        rv[i] = -1;
    }
    for (int i = 0; i < MID_N; i++) {
        sp[i].i = mt_rank + i;
        sp[i].d = 0.5 * i - mt_rank;
        memset(&rp[i], 0, sizeof(rp[i]));
    }

    /* vector -> ints, then ints -> vector */
    MPI_OK(MPI_Isend(sv, 1, v, peer, 1, MPI_COMM_WORLD, &rq));
    MPI_OK(MPI_Recv(flat, MID_N, MPI_INT, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int i = 0; i < MID_N; i++) {
        if (flat[i] != from * 7 + 2 * i) {
            CHECK(0, "vector send: int %d is %d, expected %d", i, flat[i], from * 7 + 2 * i);
            break;
        }
    }
    MPI_OK(MPI_Isend(flat, MID_N, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq));
    MPI_OK(MPI_Recv(rv, 1, v, from, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int i = 0; i < 2 * MID_N; i++) {
        int f2 = (from + mt_size - 1) % mt_size;
        int want = i % 2 == 0 ? f2 * 7 + i : -1;
        if (rv[i] != want) {
            CHECK(0, "vector receive: int %d is %d, expected %d", i, rv[i], want);
            break;
        }
    }

    /* the struct array whole, and with an offset start inside a unit (a partial receive) */
    MPI_OK(MPI_Isend(sp, 1, cs, peer, 3, MPI_COMM_WORLD, &rq));
    MPI_OK(MPI_Recv(rp, MID_N, pt, from, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    for (int i = 0; i < MID_N; i++) {
        if (rp[i].i != from + i || rp[i].d != 0.5 * i - from) {
            CHECK(0, "struct array: element %d is {%d, %g}", i, rp[i].i, rp[i].d);
            break;
        }
    }

    /* ops over the short form: SUM into the vector's places, MINLOC over 2INT pairs */
    {
        for (int i = 0; i < 2 * MID_N; i++) {
            rv[i] = i;
        }
        MPI_OK(MPI_Reduce_local(sv, rv, 1, v, MPI_SUM));
        for (int i = 0; i < 2 * MID_N; i++) {
            int want = i % 2 == 0 ? i + mt_rank * 7 + i : i;
            if (rv[i] != want) {
                CHECK(0, "SUM on the vector: int %d is %d, expected %d", i, rv[i], want);
                break;
            }
        }
    }
    {
        MPI_Datatype lv;
        int *a = mt_malloc(sizeof(int) * MID_N), *b = mt_malloc(sizeof(int) * MID_N);
        int np = MID_N / 4; /* pairs every other pair slot */

        MPI_OK(MPI_Type_vector(np, 1, 2, MPI_2INT, &lv));
        MPI_OK(MPI_Type_commit(&lv));
        for (int k = 0; k < 2 * np; k++) {
            a[2 * k] = k % 3;
            a[2 * k + 1] = 100 + k;
            b[2 * k] = 1;
            b[2 * k + 1] = 200 + k;
        }
        MPI_OK(MPI_Reduce_local(a, b, 1, lv, MPI_MINLOC));
        for (int k = 0; k < 2 * np; k++) {
            int wv = k % 2 ? 1 : (k % 3 < 1 ? k % 3 : 1);
            int wi = k % 2 ? 200 + k : (k % 3 == 0 ? 100 + k : k % 3 == 1 ? 100 + k : 200 + k);
            if (b[2 * k] != wv || b[2 * k + 1] != wi) {
                CHECK(0, "MINLOC on a vector of 2INT: pair %d is {%d, %d}, expected {%d, %d}", k,
                      b[2 * k], b[2 * k + 1], wv, wi);
                break;
            }
        }
        MPI_OK(MPI_Type_free(&lv));
        free(a);
        free(b);
    }

    /* external32 of the vector: the even ints, big-endian */
    {
        MPI_Aint size = 0, pos = 0;
        unsigned char *x;

        MPI_OK(MPI_Pack_external_size("external32", 1, v, &size));
        CHECK(size == 4 * MID_N, "Pack_external_size: %ld, expected %d", (long)size, 4 * MID_N);
        x = mt_malloc((size_t)size);
        MPI_OK(MPI_Pack_external("external32", sv, 1, v, x, size, &pos));
        for (int i = 0; i < MID_N; i++) {
            unsigned w = (unsigned)sv[2 * i];
            unsigned char *p = x + 4 * i;
            if (p[0] != (w >> 24 & 255) || p[3] != (w & 255)) {
                CHECK(0, "external32: int %d wrong", i);
                break;
            }
        }
        free(x);
    }

    MPI_OK(MPI_Type_free(&cs));
    MPI_OK(MPI_Type_free(&pt));
    MPI_OK(MPI_Type_free(&v));
    free(sv);
    free(rv);
    free(flat);
    free(sp);
    free(rp);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "dt_huge");
    huge_types();
    mid_messages();
    return mt_finish();
}
