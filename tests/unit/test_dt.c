/*
 * test_dt.c -- the datatype engine without MPI_Init: predefined layouts, constructors'
 * bounds, pack/unpack round trips from every fragment split, copies between two layouts,
 * iovecs and element counts.
 *
 * Expected values are computed by hand (or with sizeof/offsetof for the C layouts the
 * predefined types must match), never by the engine itself.
 */
#include "core/dt/dt.h"
#include "tests/unit/dt_test.h"
#include "tests/unit/unit_tap.h"

#include <check.h>
#include <complex.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static void check_bounds(const compi_datatype_t *dt, size_t size, ptrdiff_t lb, ptrdiff_t extent,
                         ptrdiff_t true_lb, ptrdiff_t true_extent)
{
    ck_assert_uint_eq(dt->size, size);
    ck_assert_int_eq(dt->lb, lb);
    ck_assert_int_eq(dt->extent, extent);
    ck_assert_int_eq(dt->true_lb, true_lb);
    ck_assert_int_eq(dt->true_extent, true_extent);
}

/* ---- predefined ------------------------------------------------------------------ */

START_TEST(predefined_sizes)
{
    static const struct {
        MPI_Datatype h;
        size_t size;
    } plain[] = {
        {MPI_CHAR, sizeof(char)},
        {MPI_SIGNED_CHAR, 1},
        {MPI_UNSIGNED_CHAR, 1},
        {MPI_BYTE, 1},
        {MPI_WCHAR, sizeof(wchar_t)},
        {MPI_SHORT, sizeof(short)},
        {MPI_UNSIGNED_SHORT, sizeof(short)},
        {MPI_INT, sizeof(int)},
        {MPI_UNSIGNED, sizeof(unsigned)},
        {MPI_LONG, sizeof(long)},
        {MPI_UNSIGNED_LONG, sizeof(long)},
        {MPI_LONG_LONG, sizeof(long long)},
        {MPI_UNSIGNED_LONG_LONG, sizeof(long long)},
        {MPI_FLOAT, sizeof(float)},
        {MPI_DOUBLE, sizeof(double)},
        {MPI_LONG_DOUBLE, sizeof(long double)},
        {MPI_INT8_T, 1},
        {MPI_INT16_T, 2},
        {MPI_INT32_T, 4},
        {MPI_INT64_T, 8},
        {MPI_UINT8_T, 1},
        {MPI_UINT16_T, 2},
        {MPI_UINT32_T, 4},
        {MPI_UINT64_T, 8},
        {MPI_C_BOOL, sizeof(_Bool)},
        {MPI_C_FLOAT_COMPLEX, sizeof(float _Complex)},
        {MPI_C_DOUBLE_COMPLEX, sizeof(double _Complex)},
        {MPI_C_LONG_DOUBLE_COMPLEX, sizeof(long double _Complex)},
        {MPI_PACKED, 1},
        {MPI_AINT, sizeof(MPI_Aint)},
        {MPI_OFFSET, sizeof(MPI_Offset)},
        {MPI_COUNT, sizeof(MPI_Count)},
        {MPI_CXX_BOOL, 1},
        {MPI_CXX_DOUBLE_COMPLEX, sizeof(double _Complex)},
    };
    for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
        compi_datatype_t *dt = T(plain[i].h);
        check_bounds(dt, plain[i].size, 0, (ptrdiff_t)plain[i].size, 0, (ptrdiff_t)plain[i].size);
        ck_assert(dt->contig);
        ck_assert(dt->predefined && dt->committed);
        ck_assert_uint_eq(dt->nbasic, 1);
        ck_assert_int_eq(dt->combiner, MPI_COMBINER_NAMED);
    }
    ck_assert_uint_eq(T(MPI_LONG_DOUBLE)->size, 16);
    ck_assert_str_eq(dt_name(T(MPI_INT)), "MPI_INT");
    ck_assert_str_eq(dt_name(T(MPI_LONG_DOUBLE_INT)), "MPI_LONG_DOUBLE_INT");
    ck_assert_ptr_null(dt_from_handle(MPI_DATATYPE_NULL));
    ck_assert_ptr_null(dt_from_handle(MPI_COMM_WORLD));
}
END_TEST

START_TEST(predefined_pairs)
{
    struct fi {
        float v;
        int i;
    };
    struct di {
        double v;
        int i;
    };
    struct si {
        short v;
        int i;
    };
    struct ldi {
        long double v;
        int i;
    };
    struct li {
        long v;
        int i;
    };

    check_bounds(T(MPI_FLOAT_INT), 8, 0, sizeof(struct fi), 0, 8);
    check_bounds(T(MPI_DOUBLE_INT), 12, 0, sizeof(struct di), 0, offsetof(struct di, i) + 4);
    check_bounds(T(MPI_SHORT_INT), 6, 0, sizeof(struct si), 0, offsetof(struct si, i) + 4);
    check_bounds(T(MPI_LONG_DOUBLE_INT), 20, 0, sizeof(struct ldi), 0, offsetof(struct ldi, i) + 4);
    check_bounds(T(MPI_LONG_INT), sizeof(long) + 4, 0, sizeof(struct li), 0,
                 offsetof(struct li, i) + 4);
    check_bounds(T(MPI_2INT), 8, 0, 8, 0, 8);
    /* the values the standard's users rely on, on x86-64 */
    ck_assert_int_eq(T(MPI_DOUBLE_INT)->extent, 16);
    ck_assert_int_eq(T(MPI_SHORT_INT)->extent, 8);
    ck_assert_int_eq(T(MPI_LONG_DOUBLE_INT)->extent, 32);
    ck_assert_uint_eq(T(MPI_FLOAT_INT)->nbasic, 2);
    ck_assert(T(MPI_2INT)->contig);
    ck_assert(T(MPI_FLOAT_INT)->contig);
    ck_assert(!T(MPI_DOUBLE_INT)->contig);
    /* markers: no data */
    check_bounds(T(MPI_UB), 0, 0, 0, 0, 0);
    check_bounds(T(MPI_LB), 0, 0, 0, 0, 0);
}
END_TEST

/* ---- constructors ---------------------------------------------------------------- */

START_TEST(ctor_contiguous)
{
    compi_datatype_t *a, *b, *big;
    ck_assert_int_eq(dt_create_contiguous(3, T(MPI_INT), &a), COMPI_OK);
    check_bounds(a, 12, 0, 12, 0, 12);
    ck_assert(a->contig);
    ck_assert_int_eq(a->nblocks, 1);
    ck_assert_int_eq(a->basic, 8);
    ck_assert(!a->committed);
    ck_assert_ptr_eq(dt_from_handle(a->handle), a);

    ck_assert_int_eq(dt_create_contiguous(0, T(MPI_INT), &b), COMPI_OK);
    check_bounds(b, 0, 0, 0, 0, 0);
    ck_assert_int_eq(b->nblocks, 0);

    /* copies of a contiguous type collapse into one block, however many */
    ck_assert_int_eq(dt_create_contiguous(1000000000, T(MPI_INT), &big), COMPI_OK);
    ck_assert_int_eq(big->nblocks, 1);
    ck_assert_uint_eq(big->size, 4000000000u);
    dt_release(a);
    dt_release(b);
    dt_release(big);
}
END_TEST

START_TEST(ctor_vector)
{
    compi_datatype_t *v, *neg;
    /* vector(3, 2, stride 4) of int: XX..XX..XX */
    ck_assert_int_eq(dt_create_hvector(3, 2, 16, T(MPI_INT), &v), COMPI_OK);
    check_bounds(v, 24, 0, 40, 0, 40);
    ck_assert_int_eq(v->nblocks, 3);
    ck_assert(!v->contig);
    ck_assert_uint_eq(v->nbasic, 6);
    /* negative stride: blocks at 0, -16, -32 */
    ck_assert_int_eq(dt_create_hvector(3, 2, -16, T(MPI_INT), &neg), COMPI_OK);
    check_bounds(neg, 24, -32, 40, -32, 40);
    ck_assert_int_eq(neg->blocks[2].disp, -32);
    dt_release(v);
    dt_release(neg);
}
END_TEST

START_TEST(ctor_indexed)
{
    compi_datatype_t *h, *blk;
    size_t bl[] = {2, 1, 0};
    ptrdiff_t d[] = {-8, 16, 100};
    size_t bl2[] = {1, 1, 1};
    ptrdiff_t d2[] = {0, 8, 4}; /* out of order: type map order is kept */

    ck_assert_int_eq(dt_create_hindexed(3, bl, d, T(MPI_INT), &h), COMPI_OK);
    /* the zero-length block at 100 does not count in the bounds */
    check_bounds(h, 12, -8, 28, -8, 28);
    ck_assert_int_eq(dt_create_hindexed(3, bl2, d2, T(MPI_INT), &blk), COMPI_OK);
    check_bounds(blk, 12, 0, 12, 0, 12);
    ck_assert_int_eq(blk->nblocks, 3); /* 0, 8, 4: neighbours in memory, not in order */
    ck_assert(!blk->contig);
    dt_release(h);
    dt_release(blk);
}
END_TEST

START_TEST(ctor_struct)
{
    compi_datatype_t *s, *m, *e, *ub;
    size_t bl[] = {1, 1};
    ptrdiff_t d[] = {0, 8};
    compi_datatype_t *ty[] = {T(MPI_DOUBLE), T(MPI_CHAR)};
    size_t blm[] = {1, 1, 1};
    ptrdiff_t dm[] = {-4, 0, 12};
    compi_datatype_t *tym[] = {T(MPI_LB), T(MPI_INT), T(MPI_UB)};
    ptrdiff_t de[] = {0, 4};
    compi_datatype_t *tye[] = {T(MPI_INT), T(MPI_UB)};

    /* {double; char}: extent padded to the double's alignment, as in C */
    ck_assert_int_eq(dt_create_struct(2, bl, d, ty, &s), COMPI_OK);
    check_bounds(s, 9, 0, 16, 0, 9);
    ck_assert_int_eq(s->basic, -1);
    ck_assert_uint_eq(s->nbasic, 2);
    /* explicit bounds win and are not padded */
    ck_assert_int_eq(dt_create_struct(3, blm, dm, tym, &m), COMPI_OK);
    check_bounds(m, 4, -4, 16, 0, 4);
    ck_assert(m->lb_marked && m->ub_marked);
    /* a lone char: alignment 1, nothing to pad */
    ck_assert_int_eq(dt_create_struct(1, bl, d, ty + 1, &e), COMPI_OK);
    check_bounds(e, 1, 0, 1, 0, 1);
    ck_assert_int_eq(dt_create_struct(2, bl, de, tye, &ub), COMPI_OK);
    check_bounds(ub, 4, 0, 4, 0, 4);
    ck_assert(ub->contig);
    dt_release(s);
    dt_release(m);
    dt_release(e);
    dt_release(ub);
}
END_TEST

START_TEST(ctor_resized_dup)
{
    compi_datatype_t *r, *rv, *dup, *s;
    size_t bl[] = {1};
    ptrdiff_t d[] = {8};

    ck_assert_int_eq(dt_create_resized(T(MPI_INT), -2, 10, &r), COMPI_OK);
    check_bounds(r, 4, -2, 10, 0, 4);
    ck_assert(!r->contig);
    /* vector of a resized type: extent is the resized one */
    ck_assert_int_eq(dt_create_contiguous(3, r, &rv), COMPI_OK);
    check_bounds(rv, 12, -2, 30, 0, 24);
    /* the resized bounds stick inside a struct */
    ck_assert_int_eq(dt_create_struct(1, bl, d, &r, &s), COMPI_OK);
    check_bounds(s, 4, 6, 10, 8, 4);
    ck_assert_int_eq(dt_dup(rv, &dup), COMPI_OK);
    check_bounds(dup, 12, -2, 30, 0, 24);
    ck_assert_int_eq(dup->combiner, MPI_COMBINER_DUP);
    ck_assert_int_ne(dup->handle, rv->handle);
    dt_release(r);
    dt_release(rv);
    dt_release(s);
    dt_release(dup);
}
END_TEST

START_TEST(ctor_subarray)
{
    compi_datatype_t *c, *f;
    size_t sizes[] = {4, 5}, sub[] = {2, 3}, starts[] = {1, 2};

    ck_assert_int_eq(dt_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, T(MPI_INT), &c),
                     COMPI_OK);
    check_bounds(c, 24, 0, 80, (1 * 5 + 2) * 4, (1 * 5 + 3) * 4);
    ck_assert_int_eq(c->nblocks, 2);
    ck_assert_int_eq(c->combiner, MPI_COMBINER_SUBARRAY);
    ck_assert_int_eq(dt_create_subarray(2, sizes, sub, starts, MPI_ORDER_FORTRAN, T(MPI_INT), &f),
                     COMPI_OK);
    check_bounds(f, 24, 0, 80, (1 + 2 * 4) * 4, (2 * 4 + 2) * 4);
    ck_assert_int_eq(f->nblocks, 3);
    dt_release(c);
    dt_release(f);
}
END_TEST

START_TEST(refcount_and_free)
{
    compi_datatype_t *v;
    int h;

    ck_assert_int_eq(dt_create_hvector(2, 1, 8, T(MPI_INT), &v), COMPI_OK);
    h = v->handle;
    dt_retain(v);        /* a pending request */
    dt_forget_handle(v); /* MPI_Type_free */
    dt_release(v);
    ck_assert_ptr_null(dt_from_handle(h));
    /* still usable by the request */
    {
        int src[3] = {7, 8, 9}, out[2];
        ck_assert_uint_eq(dt_pack(v, src, 1, 0, out, sizeof(out)), 8);
        ck_assert_int_eq(out[0], 7);
        ck_assert_int_eq(out[1], 9);
    }
    dt_release(v);
    /* predefined types ignore the counts */
    dt_retain(T(MPI_INT));
    dt_release(T(MPI_INT));
    dt_release(T(MPI_INT));
    ck_assert_ptr_nonnull(dt_from_handle(MPI_INT));
}
END_TEST

/* ---- pack / unpack ---------------------------------------------------------------- */

/* a zoo of types; each case also gives a count to pack */
#define NCASES 15
static compi_datatype_t *zoo[NCASES];
static size_t zoo_count[NCASES];

static void build_zoo(void)
{
    size_t bl3[] = {2, 1, 3};
    ptrdiff_t dneg[] = {-24, 8, 40};
    size_t bls[] = {1, 2, 1};
    ptrdiff_t ds[] = {0, 8, 64}; /* the indexed part lies at 40..116: no overlap */
    compi_datatype_t *ts[3], *ind, *st, *tmp;
    size_t sizes[] = {6, 5, 4}, sub[] = {2, 3, 2}, starts[] = {1, 1, 2};
    int n = 0;

    ck_assert_int_eq(dt_create_contiguous(7, T(MPI_DOUBLE), &zoo[n]), COMPI_OK);
    zoo_count[n++] = 3;
    ck_assert_int_eq(dt_create_hvector(5, 3, 40, T(MPI_DOUBLE), &zoo[n]), COMPI_OK);
    zoo_count[n++] = 4;
    ck_assert_int_eq(dt_create_hvector(4, 1, -12, T(MPI_SHORT), &zoo[n]), COMPI_OK);
    zoo_count[n++] = 5;
    ck_assert_int_eq(dt_create_hindexed(3, bl3, dneg, T(MPI_INT), &zoo[n]), COMPI_OK);
    zoo_count[n++] = 6;
    ind = zoo[n - 1];
    ts[0] = T(MPI_CHAR);
    ts[1] = T(MPI_DOUBLE);
    ts[2] = ind;
    ck_assert_int_eq(dt_create_struct(3, bls, ds, ts, &zoo[n]), COMPI_OK);
    zoo_count[n++] = 3;
    st = zoo[n - 1];
    /* nested: vector of struct of indexed */
    ck_assert_int_eq(dt_create_hvector(3, 2, 3 * st->extent + 5, st, &zoo[n]), COMPI_OK);
    zoo_count[n++] = 2;
    ck_assert_int_eq(dt_create_resized(ind, -40, 100, &zoo[n]), COMPI_OK);
    zoo_count[n++] = 4;
    ck_assert_int_eq(dt_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, T(MPI_FLOAT), &zoo[n]),
                     COMPI_OK);
    zoo_count[n++] = 2;
    ck_assert_int_eq(dt_create_contiguous(5, T(MPI_LONG_DOUBLE_INT), &zoo[n]), COMPI_OK);
    zoo_count[n++] = 3;
    ck_assert_int_eq(dt_create_hvector(100, 16, 200, T(MPI_CHAR), &zoo[n]), COMPI_OK);
    zoo_count[n++] = 3;
    ck_assert_int_eq(dt_create_resized(T(MPI_DOUBLE), 0, 24, &tmp), COMPI_OK);
    ck_assert_int_eq(dt_create_contiguous(50, tmp, &zoo[n]), COMPI_OK);
    dt_release(tmp);
    zoo_count[n++] = 2;
    ck_assert_int_eq(dt_create_contiguous(0, T(MPI_INT), &zoo[n]), COMPI_OK);
    zoo_count[n++] = 5;
    /* regular types of many blocks, kept as a unit and a repeat count */
    ck_assert_int_eq(dt_create_hvector(5000, 3, -20, T(MPI_SHORT), &zoo[n]), COMPI_OK);
    ck_assert_uint_eq(zoo[n]->nrep, 5000);
    ck_assert_int_eq(zoo[n]->nblocks, 1);
    zoo_count[n++] = 2;
    ck_assert_int_eq(dt_create_contiguous(3000, st, &zoo[n]), COMPI_OK);
    ck_assert_uint_eq(zoo[n]->nrep, 3000);
    zoo_count[n++] = 2;
    ck_assert_int_eq(dt_create_hvector(4100, 1, 12, T(MPI_INT), &tmp), COMPI_OK);
    ck_assert_int_eq(dt_create_resized(tmp, 0, 4099 * 12 + 12, &zoo[n]), COMPI_OK);
    ck_assert_uint_eq(zoo[n]->nrep, 4100);
    dt_release(tmp);
    zoo_count[n++] = 3;
    ck_assert_int_eq(n, NCASES);
}

static void free_zoo(void)
{
    for (int i = 0; i < NCASES; i++) {
        dt_release(zoo[i]);
    }
}

/* a buffer big enough for `count` elements, and where element 0 starts inside it */
typedef struct tbuf {
    unsigned char *mem, *base;
    size_t len;
} tbuf_t;

static tbuf_t tbuf_make(const compi_datatype_t *dt, size_t count, int fill)
{
    ptrdiff_t lo = dt->true_lb < 0 ? dt->true_lb : 0;
    ptrdiff_t span = dt->extent * (ptrdiff_t)(count ? count - 1 : 0);
    ptrdiff_t lo2 = lo + (span < 0 ? span : 0);
    ptrdiff_t hi = dt->true_lb + dt->true_extent + (span > 0 ? span : 0);
    tbuf_t b;

    b.len = (size_t)(hi - lo2) + 64;
    b.mem = malloc(b.len);
    ck_assert_ptr_nonnull(b.mem);
    b.base = b.mem + 32 - lo2;
    for (size_t i = 0; i < b.len; i++) {
        b.mem[i] = fill ? (unsigned char)((i * 7 + 3) % 255 + 1) : 0; /* never 0 */
    }
    return b;
}

START_TEST(pack_roundtrip)
{
    build_zoo();
    for (int i = 0; i < NCASES; i++) {
        compi_datatype_t *dt = zoo[i];
        size_t count = zoo_count[i], total = dt->size * count;
        tbuf_t src = tbuf_make(dt, count, 1), dst = tbuf_make(dt, count, 0);
        unsigned char *p1 = malloc(total + 1), *p2 = malloc(total + 1);

        ck_assert_uint_eq(dt_pack(dt, src.base, count, 0, p1, total + 100), total);
        ck_assert_uint_eq(dt_unpack(dt, dst.base, count, 0, p1, total), total);
        ck_assert_uint_eq(dt_pack(dt, dst.base, count, 0, p2, total), total);
        ck_assert(memcmp(p1, p2, total) == 0);
        /* exactly `total` bytes were written, each from the source's same place */
        {
            size_t written = 0;
            for (size_t k = 0; k < dst.len; k++) {
                if (dst.mem[k] != 0) {
                    ck_assert_uint_eq(dst.mem[k], src.mem[k]);
                    written++;
                }
            }
            ck_assert_uint_eq(written, total);
        }
        ck_assert_uint_eq(dt_pack(dt, src.base, count, total, p1, 10), 0);
        free(src.mem);
        free(dst.mem);
        free(p1);
        free(p2);
    }
    free_zoo();
}
END_TEST

/* dt_copy between two layouts (each zoo type and every other byte of a char vector),
   whole and in pieces of 7 bytes, against packing one and unpacking into the other; then
   back into the char vector */
START_TEST(copy_between_layouts)
{
    build_zoo();
    for (int i = 0; i < NCASES; i++) {
        compi_datatype_t *a = zoo[i], *b;
        size_t count = zoo_count[i], total = a->size * count;
        if (total < 2) {
            continue;
        }
        ck_assert_int_eq(dt_create_hvector(total, 1, 2, T(MPI_CHAR), &b), COMPI_OK);
        tbuf_t src = tbuf_make(b, 1, 1), want = tbuf_make(a, count, 0);
        tbuf_t got = tbuf_make(a, count, 0), part = tbuf_make(a, count, 0);
        tbuf_t back = tbuf_make(b, 1, 0);
        unsigned char *packed = malloc(total);
        ck_assert_uint_eq(dt_pack(b, src.base, 1, 0, packed, total), total);
        ck_assert_uint_eq(dt_unpack(a, want.base, count, 0, packed, total), total);
        dt_copy(a, got.base, b, src.base, 0, total);
        ck_assert(memcmp(want.mem, got.mem, want.len) == 0);
        for (size_t off = 0; off < total; off += 7) {
            dt_copy(a, part.base, b, src.base, off, total - off < 7 ? total - off : 7);
        }
        ck_assert(memcmp(want.mem, part.mem, want.len) == 0);
        dt_copy(b, back.base, a, got.base, 0, total);
        for (size_t k = 0; k < total; k++) {
            ck_assert_uint_eq(back.base[2 * k], src.base[2 * k]);
            ck_assert_uint_eq(back.base[2 * k + 1], 0); /* the gaps stay untouched */
        }
        free(src.mem);
        free(want.mem);
        free(got.mem);
        free(part.mem);
        free(back.mem);
        free(packed);
        dt_release(b);
    }
    free_zoo();
}
END_TEST

START_TEST(pack_known_order)
{
    compi_datatype_t *v, *h;
    int src[12], out[12];
    size_t bl[] = {1, 2};
    ptrdiff_t d[] = {40, 0};

    for (int i = 0; i < 12; i++) {
        src[i] = i;
    }
    ck_assert_int_eq(dt_create_hvector(3, 2, 16, T(MPI_INT), &v), COMPI_OK);
    ck_assert_uint_eq(dt_pack(v, src, 1, 0, out, sizeof(out)), 24);
    ck_assert_int_eq(out[0], 0);
    ck_assert_int_eq(out[1], 1);
    ck_assert_int_eq(out[2], 4);
    ck_assert_int_eq(out[3], 5);
    ck_assert_int_eq(out[5], 9);
    /* type-map order, not memory order */
    ck_assert_int_eq(dt_create_hindexed(2, bl, d, T(MPI_INT), &h), COMPI_OK);
    ck_assert_uint_eq(dt_pack(h, src, 1, 0, out, sizeof(out)), 12);
    ck_assert_int_eq(out[0], 10);
    ck_assert_int_eq(out[1], 0);
    ck_assert_int_eq(out[2], 1);
    dt_release(v);
    dt_release(h);
}
END_TEST

START_TEST(pack_fragments)
{
    static const size_t frags[] = {1, 7, 64, 4096};

    build_zoo();
    for (int i = 0; i < NCASES; i++) {
        compi_datatype_t *dt = zoo[i];
        size_t count = zoo_count[i], total = dt->size * count;
        tbuf_t src = tbuf_make(dt, count, 1);
        unsigned char *whole = malloc(total + 1), *parts = malloc(total + 1);

        dt_pack(dt, src.base, count, 0, whole, total);
        for (size_t f = 0; f < 4; f++) {
            tbuf_t dst = tbuf_make(dt, count, 0), ref = tbuf_make(dt, count, 0);
            size_t off = 0;
            memset(parts, 0xee, total + 1);
            while (off < total) {
                size_t n = dt_pack(dt, src.base, count, off, parts + off, frags[f]);
                ck_assert_uint_eq(n, total - off < frags[f] ? total - off : frags[f]);
                off += n;
            }
            ck_assert(memcmp(whole, parts, total) == 0);
            /* unpacking in fragments lands exactly where unpacking at once does */
            dt_unpack(dt, ref.base, count, 0, whole, total);
            for (off = 0; off < total;) {
                off += dt_unpack(dt, dst.base, count, off, whole + off, frags[f]);
            }
            ck_assert(memcmp(ref.mem, dst.mem, ref.len) == 0);
            free(dst.mem);
            free(ref.mem);
        }
        free(src.mem);
        free(whole);
        free(parts);
    }
    free_zoo();
}
END_TEST

START_TEST(pack_every_split)
{
    /* every (offset, length) pair on a small mixed type */
    build_zoo();
    {
        compi_datatype_t *dt = zoo[4]; /* struct of char, doubles, indexed */
        size_t count = 2, total = dt->size * count;
        tbuf_t src = tbuf_make(dt, count, 1);
        unsigned char *whole = malloc(total), *part = malloc(total);

        dt_pack(dt, src.base, count, 0, whole, total);
        for (size_t off = 0; off < total; off++) {
            for (size_t len = 1; off + len <= total; len++) {
                ck_assert_uint_eq(dt_pack(dt, src.base, count, off, part, len), len);
                ck_assert(memcmp(part, whole + off, len) == 0);
            }
        }
        free(src.mem);
        free(whole);
        free(part);
    }
    free_zoo();
}
END_TEST

/* ---- iovecs ---------------------------------------------------------------------- */

START_TEST(iov_cover)
{
    build_zoo();
    for (int i = 0; i < NCASES; i++) {
        compi_datatype_t *dt = zoo[i];
        size_t count = zoo_count[i], total = dt->size * count;
        tbuf_t src = tbuf_make(dt, count, 1);
        unsigned char *whole = malloc(total + 1), *gather = malloc(total + 1);
        struct iovec iov[5];
        size_t off = 0, g = 0;

        dt_pack(dt, src.base, count, 0, whole, total);
        /* few iovecs and an odd byte limit, resumed where each call stopped */
        while (off < total) {
            size_t bytes = 0;
            int n = dt_to_iov(dt, src.base, count, off, 1000, iov, 5, &bytes);
            size_t sum = 0;
            ck_assert_int_gt(n, 0);
            ck_assert_int_le(n, 5);
            for (int k = 0; k < n; k++) {
                memcpy(gather + g, iov[k].iov_base, iov[k].iov_len);
                g += iov[k].iov_len;
                sum += iov[k].iov_len;
            }
            ck_assert_uint_eq(sum, bytes);
            ck_assert_uint_le(bytes, 1000);
            off += bytes;
        }
        ck_assert_uint_eq(g, total);
        ck_assert(memcmp(whole, gather, total) == 0);
        free(src.mem);
        free(whole);
        free(gather);
    }
    free_zoo();
}
END_TEST

START_TEST(iov_merge)
{
    compi_datatype_t *c, *v;
    struct iovec iov[4];
    size_t bytes;
    double buf[64];

    ck_assert_int_eq(dt_create_contiguous(8, T(MPI_DOUBLE_INT), &c), COMPI_OK);
    /* double+int pairs: the two blocks of a pair meet (one iovec), pairs are 4 bytes
       apart; four iovecs hold four of the eight pairs */
    ck_assert_int_eq(dt_to_iov(c, buf, 1, 0, 1000, iov, 4, &bytes), 4);
    ck_assert_uint_eq(bytes, 48);
    ck_assert_uint_eq(iov[1].iov_len, 12);
    ck_assert_ptr_eq(iov[1].iov_base, (char *)buf + 16);
    /* a vector whose blocks meet (stride == block) is one iovec */
    ck_assert_int_eq(dt_create_hvector(4, 2, 16, T(MPI_DOUBLE), &v), COMPI_OK);
    ck_assert_int_eq(dt_to_iov(v, buf, 2, 8, 1000, iov, 4, &bytes), 1);
    ck_assert_ptr_eq(iov[0].iov_base, (char *)buf + 8);
    ck_assert_uint_eq(bytes, 2 * 64 - 8);
    dt_release(c);
    dt_release(v);
}
END_TEST

/* ---- element counts -------------------------------------------------------------- */

START_TEST(count_basic)
{
    compi_datatype_t *s, *e;
    size_t bl[] = {1, 2};
    ptrdiff_t d[] = {0, 8};
    compi_datatype_t *ty[] = {T(MPI_INT), T(MPI_DOUBLE)};

    ck_assert_int_eq(dt_create_struct(2, bl, d, ty, &s), COMPI_OK); /* 20 bytes, 3 basics */
    ck_assert_int_eq(dt_count_basic(s, 0), 0);
    ck_assert_int_eq(dt_count_basic(s, 4), 1);
    ck_assert_int_eq(dt_count_basic(s, 12), 2);
    ck_assert_int_eq(dt_count_basic(s, 20), 3);
    ck_assert_int_eq(dt_count_basic(s, 44), 7);
    ck_assert_int_eq(dt_count_basic(s, 6), -1);
    ck_assert_int_eq(dt_count_basic(s, 30), -1);
    ck_assert_uint_eq(dt_bytes_of_basic(s, 0), 0);
    ck_assert_uint_eq(dt_bytes_of_basic(s, 2), 12);
    ck_assert_uint_eq(dt_bytes_of_basic(s, 5), 32);
    ck_assert_uint_eq(dt_bytes_of_basic(s, 6), 40);
    ck_assert_int_eq(dt_count_basic(T(MPI_INT), 12), 3);
    ck_assert_int_eq(dt_count_basic(T(MPI_INT), 13), -1);
    ck_assert_int_eq(dt_count_basic(T(MPI_2INT), 12), 3);
    ck_assert_int_eq(dt_count_basic(T(MPI_DOUBLE_INT), 24), 4);
    ck_assert_int_eq(dt_create_contiguous(0, T(MPI_INT), &e), COMPI_OK);
    ck_assert_int_eq(dt_count_basic(e, 0), 0);
    dt_release(s);
    dt_release(e);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {
        predefined_sizes, predefined_pairs, ctor_contiguous, ctor_vector, ctor_indexed, ctor_struct,
        ctor_resized_dup, ctor_subarray, refcount_and_free, pack_roundtrip, copy_between_layouts,
        pack_known_order, pack_fragments, pack_every_split, iov_cover, iov_merge, count_basic
    };
    const unit_case_t tc = {.suite = "dt", .name = "engine",
                            .setup = setup, .teardown = teardown, .timeout_s = 60};
    return unit_tap_run_list(&tc, tests, UNIT_COUNT(tests));
}
