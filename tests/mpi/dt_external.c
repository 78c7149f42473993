/*
 * dt_external: MPI_Pack_external / MPI_Unpack_external / MPI_Pack_external_size with
 * "external32".  The byte images are checked against the standard's format written out
 * by hand: big-endian two's complement and IEEE numbers, MPI_LONG in 4 bytes, long
 * double as IEEE binary128, complex numbers as two reals, a struct without its padding.
 * Each image unpacks back to the values.  Between ranks: the image travels as MPI_BYTE
 * and the receiver unpacks it.  Errors: another representation (MPI_ERR_ARG), a buffer
 * too small (MPI_ERR_TRUNCATE), an invalid type (MPI_ERR_TYPE).
 */
#include "tests/mpi/mpitest.h"

#include <complex.h>
#include <wchar.h>

static void expect_bytes(const unsigned char *got, const unsigned char *want, size_t n,
                         const char *what)
{
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            CHECK(0, "%s: byte %zu is 0x%02x, expected 0x%02x", what, i, got[i], want[i]);
            return;
        }
    }
}

/* packs count items, checks size and image, unpacks into `back` */
static void image(const void *in, int count, MPI_Datatype t, const unsigned char *want,
                  size_t nwant, void *back, const char *what)
{
    unsigned char buf[256];
    MPI_Aint size = -1, pos = 0, upos = 0;

    MPI_OK(MPI_Pack_external_size("external32", count, t, &size));
    CHECK(size == (MPI_Aint)nwant, "%s: external size %ld, expected %zu", what, (long)size, nwant);
    MPI_OK(MPI_Pack_external("external32", in, count, t, buf, sizeof(buf), &pos));
    CHECK(pos == (MPI_Aint)nwant, "%s: position %ld after packing", what, (long)pos);
    expect_bytes(buf, want, nwant, what);
    MPI_OK(MPI_Unpack_external("external32", buf, pos, &upos, back, count, t));
    CHECK(upos == pos, "%s: unpack position %ld", what, (long)upos);
}

static void basics(void)
{
    {
        int v[2] = {0x01020304, -2}, b[2];
        static const unsigned char w[] = {1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe};
        image(v, 2, MPI_INT, w, sizeof(w), b, "MPI_INT");
        CHECK(b[0] == v[0] && b[1] == v[1], "MPI_INT back");
    }
    {
        short v = 0x1234, b;
        static const unsigned char w[] = {0x12, 0x34};
        image(&v, 1, MPI_SHORT, w, sizeof(w), &b, "MPI_SHORT");
        CHECK(b == v, "MPI_SHORT back");
    }
    {
        /* MPI_LONG is 4 bytes in external32: -3 and 0x7fffffff fit */
        long v[2] = {-3, 0x7fffffffL}, b[2] = {0x5a5a5a5a5a5a5a5aL, 0x5a5a5a5a5a5a5a5aL};
        static const unsigned char w[] = {0xff, 0xff, 0xff, 0xfd, 0x7f, 0xff, 0xff, 0xff};
        image(v, 2, MPI_LONG, w, sizeof(w), b, "MPI_LONG");
        CHECK(b[0] == -3 && b[1] == 0x7fffffffL, "MPI_LONG back %ld %ld", b[0], b[1]);
    }
    {
        /* MPI_UNSIGNED_LONG is 4 bytes too, zero-extended back; MPI_WCHAR is 2 */
        unsigned long v = 0xfffffffeUL, b = 0x5a5a5a5a5a5a5a5aUL;
        wchar_t wv[2] = {L'A', 0x20ac}, wb[2] = {0x5a5a5a5a, 0x5a5a5a5a};
        static const unsigned char w[] = {0xff, 0xff, 0xff, 0xfe};
        static const unsigned char ww[] = {0, 0x41, 0x20, 0xac};
        image(&v, 1, MPI_UNSIGNED_LONG, w, sizeof(w), &b, "MPI_UNSIGNED_LONG");
        CHECK(b == v, "MPI_UNSIGNED_LONG back %lx", b);
        image(wv, 2, MPI_WCHAR, ww, sizeof(ww), wb, "MPI_WCHAR");
        CHECK(wb[0] == wv[0] && wb[1] == wv[1], "MPI_WCHAR back");
    }
    {
        /* 1 - 0.25i as two binary128 numbers */
        long double _Complex v = 1.0L - 0.25L * I, b;
        static const unsigned char w[32] = {0x3f, 0xff, [16] = 0xbf, [17] = 0xfd};
        image(&v, 1, MPI_C_LONG_DOUBLE_COMPLEX, w, sizeof(w), &b, "MPI_C_LONG_DOUBLE_COMPLEX");
        CHECK(b == v, "MPI_C_LONG_DOUBLE_COMPLEX back");
    }
    {
        long long v = 0x0102030405060708LL, b;
        static const unsigned char w[] = {1, 2, 3, 4, 5, 6, 7, 8};
        image(&v, 1, MPI_LONG_LONG, w, sizeof(w), &b, "MPI_LONG_LONG");
        CHECK(b == v, "MPI_LONG_LONG back");
    }
    {
        double v = 1.0, b;
        static const unsigned char w[] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0};
        image(&v, 1, MPI_DOUBLE, w, sizeof(w), &b, "MPI_DOUBLE");
        CHECK(b == v, "MPI_DOUBLE back");
    }
    {
        /* -1.5 in binary128: sign 1, exponent 0x3fff, fraction .1 */
        long double v = -1.5L, b;
        static const unsigned char w[16] = {0xbf, 0xff, 0x80};
        image(&v, 1, MPI_LONG_DOUBLE, w, sizeof(w), &b, "MPI_LONG_DOUBLE");
        CHECK(b == v, "MPI_LONG_DOUBLE back %Lg", b);
    }
    {
        float _Complex v = 1.0f - 2.0f * I, b;
        static const unsigned char w[] = {0x3f, 0x80, 0, 0, 0xc0, 0, 0, 0};
        image(&v, 1, MPI_COMPLEX, w, sizeof(w), &b, "MPI_COMPLEX");
        CHECK(b == v, "MPI_COMPLEX back");
    }
    {
        double _Complex v = 2.0 + 0.5 * I, b;
        static const unsigned char w[] = {0x40, 0, 0, 0, 0, 0, 0, 0, 0x3f, 0xe0, 0, 0, 0, 0, 0, 0};
        image(&v, 1, MPI_C_DOUBLE_COMPLEX, w, sizeof(w), &b, "MPI_C_DOUBLE_COMPLEX");
        CHECK(b == v, "MPI_C_DOUBLE_COMPLEX back");
    }
    {
        /* {double v; int i;}: 12 bytes, no padding */
        struct {
            double v;
            int i;
        } v = {-2.0, 258}, b;
        static const unsigned char w[] = {0xc0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2};
        image(&v, 1, MPI_DOUBLE_INT, w, sizeof(w), &b, "MPI_DOUBLE_INT");
        CHECK(b.v == v.v && b.i == v.i, "MPI_DOUBLE_INT back");
    }
}

/* a struct {char c; int i[2]; short s;} as a derived type, two elements */
static void derived(void)
{
    struct rec {
        char c;
        int i[2];
        short s;
    } v[2] = {{'A', {1, -1}, 0x0102}, {'z', {0x10203040, 7}, -1}}, b[2];
    int bl[] = {1, 2, 1};
    MPI_Aint d[] = {offsetof(struct rec, c), offsetof(struct rec, i), offsetof(struct rec, s)};
    MPI_Datatype ty[] = {MPI_CHAR, MPI_INT, MPI_SHORT}, t, rt;
    static const unsigned char w[] = {'A', 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 1, 2,
                                      'z', 0x10, 0x20, 0x30, 0x40, 0, 0, 0, 7, 0xff, 0xff};

    MPI_OK(MPI_Type_create_struct(3, bl, d, ty, &t));
    MPI_OK(MPI_Type_create_resized(t, 0, sizeof(struct rec), &rt));
    MPI_OK(MPI_Type_commit(&rt));
    memset(b, 0, sizeof(b));
    image(v, 2, rt, w, sizeof(w), b, "struct rec");
    for (int k = 0; k < 2; k++) {
        CHECK(b[k].c == v[k].c && b[k].i[0] == v[k].i[0] && b[k].i[1] == v[k].i[1] &&
                  b[k].s == v[k].s,
              "struct rec %d back", k);
    }
    /* a vector with holes: every other int, big-endian */
    {
        int iv[6] = {1, 100, 2, 100, 3, 100}, ib[6] = {0};
        static const unsigned char wv[] = {0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3};
        MPI_Datatype vt;
        MPI_OK(MPI_Type_vector(3, 1, 2, MPI_INT, &vt));
        MPI_OK(MPI_Type_commit(&vt));
        image(iv, 1, vt, wv, sizeof(wv), ib, "vector(3,1,2,int)");
        CHECK(ib[0] == 1 && ib[1] == 0 && ib[2] == 2 && ib[4] == 3 && ib[5] == 0,
              "vector back leaves the holes alone");
        MPI_OK(MPI_Type_free(&vt));
    }
    MPI_OK(MPI_Type_free(&t));
    MPI_OK(MPI_Type_free(&rt));
}

/* rank r packs, sends the bytes to r+1, which unpacks */
static void exchange(void)
{
    int to = (mt_rank + 1) % mt_size, from = (mt_rank + mt_size - 1) % mt_size;
    double v[3] = {mt_rank + 0.5, -(double)mt_rank, 1e300}, b[3];
    unsigned char out[64], in[64];
    MPI_Aint pos = 0, upos = 0;

    MPI_OK(MPI_Pack_external("external32", v, 3, MPI_DOUBLE, out, sizeof(out), &pos));
    MPI_OK(MPI_Sendrecv(out, (int)pos, MPI_BYTE, to, 9, in, sizeof(in), MPI_BYTE, from, 9,
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Unpack_external("external32", in, pos, &upos, b, 3, MPI_DOUBLE));
    CHECK(b[0] == from + 0.5 && b[1] == -(double)from && b[2] == 1e300, "doubles from %d", from);
}

static void errors(void)
{
    int v = 1;
    unsigned char buf[8];
    MPI_Aint pos = 0, size;

    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Pack_external("native", &v, 1, MPI_INT, buf, sizeof(buf), &pos) == MPI_ERR_ARG,
          "datarep native is not MPI_ERR_ARG");
    CHECK(MPI_Pack_external_size("internal", 1, MPI_INT, &size) == MPI_ERR_ARG,
          "datarep internal is not MPI_ERR_ARG");
    pos = 6;
    CHECK(MPI_Pack_external("external32", &v, 1, MPI_INT, buf, sizeof(buf), &pos) ==
              MPI_ERR_TRUNCATE,
          "4 bytes at 6 of 8 is not MPI_ERR_TRUNCATE");
    pos = 6;
    CHECK(MPI_Unpack_external("external32", buf, sizeof(buf), &pos, &v, 1, MPI_INT) ==
              MPI_ERR_TRUNCATE,
          "unpacking past the end is not MPI_ERR_TRUNCATE");
    pos = 0;
    CHECK(MPI_Pack_external("external32", &v, -1, MPI_INT, buf, sizeof(buf), &pos) ==
              MPI_ERR_COUNT,
          "count -1 is not MPI_ERR_COUNT");
    CHECK(MPI_Pack_external("external32", &v, 1, MPI_DATATYPE_NULL, buf, sizeof(buf), &pos) ==
              MPI_ERR_TYPE,
          "MPI_DATATYPE_NULL is not MPI_ERR_TYPE");
    CHECK(pos == 0, "a failed pack moved the position");
    MPI_OK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "dt_external");
    basics();
    derived();
    exchange();
    errors();
    return mt_finish();
}
