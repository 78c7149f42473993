/*
 * dt_external.c -- the "external32" representation of MPI_Pack_external (MPI-3.1 section
 * 13.5.2): every basic item big-endian, at the size the standard fixes for its type,
 * whatever the host's C types are.
 *
 * The blocks of a datatype carry their basic type, so one element converts block by
 * block, item by item.  Most items only change byte order (complex numbers per part);
 * a few change size as well:
 *
 *   C type        host (LP64)       external32
 *   long          8                 4   (two's complement, truncated; sign-extended back)
 *   wchar_t       4                 2   (truncated; zero-extended back)
 *   long double   16 (x87, 80 bits) 16  (IEEE binary128, converted both ways)
 *
 * Conversions are exact for values that fit the external size; MPI leaves the rest
 * undefined.  Nothing here allocates: the callers size the buffers with
 * dt_external_size.
 */
#include "core/dt/dt.h"
#include "core/dt/dt_internal.h"

#include <float.h>
#include <string.h>

enum { EXT_SWAP, EXT_NARROW_SIGNED, EXT_NARROW_UNSIGNED, EXT_LDOUBLE };

typedef struct dt__ext {
    int kind;
    size_t parts; /* items of a basic type that are several numbers (complex: 2) */
    size_t ext;   /* external bytes of one part */
} dt__ext_t;

static dt__ext_t dt__ext_of(int basic)
{
    size_t native = dt_basic_size(basic);

    switch (dt_basic_handle(basic)) {
    case MPI_LONG:
        return (dt__ext_t){EXT_NARROW_SIGNED, 1, 4};
    case MPI_UNSIGNED_LONG:
        return (dt__ext_t){EXT_NARROW_UNSIGNED, 1, 4};
    case MPI_WCHAR:
        return (dt__ext_t){EXT_NARROW_UNSIGNED, 1, 2};
    case MPI_LONG_DOUBLE:
        return (dt__ext_t){EXT_LDOUBLE, 1, 16};
    case MPI_C_LONG_DOUBLE_COMPLEX:
    case MPI_CXX_LONG_DOUBLE_COMPLEX:
        return (dt__ext_t){EXT_LDOUBLE, 2, 16};
    case MPI_C_FLOAT_COMPLEX: /* and MPI_C_COMPLEX, its other name */
    case MPI_C_DOUBLE_COMPLEX:
    case MPI_CXX_FLOAT_COMPLEX:
    case MPI_CXX_DOUBLE_COMPLEX:
    case MPI_COMPLEX:
    case MPI_DOUBLE_COMPLEX:
    case MPI_COMPLEX8:
    case MPI_COMPLEX16:
    case MPI_COMPLEX32:
        return (dt__ext_t){EXT_SWAP, 2, native / 2};
    default:
        return (dt__ext_t){EXT_SWAP, 1, native};
    }
}

/* copies n bytes reversing their order on a little-endian host */
static void dt__be_copy(unsigned char *dst, const unsigned char *src, size_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    memcpy(dst, src, n);
#else
    for (size_t i = 0; i < n; i++) {
        dst[i] = src[n - 1 - i];
    }
#endif
}

/* one host long double <-> 16 bytes of IEEE binary128 in host order */
static void dt__ld_to_quad(unsigned char q[16], const unsigned char *p)
{
#if LDBL_MANT_DIG == 113
    memcpy(q, p, 16);
#elif defined(__SIZEOF_FLOAT128__)
    long double v;
    __float128 f;
    memcpy(&v, p, sizeof(v));
    f = (__float128)v;
    memcpy(q, &f, 16);
#else
#error "no binary128 conversion for this long double"
#endif
}

static void dt__quad_to_ld(unsigned char *p, const unsigned char q[16])
{
#if LDBL_MANT_DIG == 113
    memcpy(p, q, 16);
#elif defined(__SIZEOF_FLOAT128__)
    long double v;
    __float128 f;
    memcpy(&f, q, 16);
    v = (long double)f;
    memcpy(p, &v, sizeof(v));
#endif
}

/* one part: host bytes `h` (native size `hn`) <-> external bytes `x` */
static void dt__part(const dt__ext_t *e, unsigned char *h, size_t hn, unsigned char *x, int pack)
{
    unsigned char tmp[16];

    switch (e->kind) {
    case EXT_SWAP:
        if (pack) {
            dt__be_copy(x, h, hn);
        } else {
            dt__be_copy(h, x, hn);
        }
        return;
    case EXT_LDOUBLE:
        if (pack) {
            dt__ld_to_quad(tmp, h);
            dt__be_copy(x, tmp, 16);
        } else {
            dt__be_copy(tmp, x, 16);
            dt__quad_to_ld(h, tmp);
        }
        return;
    default: {
        /* a wider host integer: the low e->ext bytes travel; back, the sign or zeros
           fill the rest */
        unsigned long long v = 0;
        if (pack) {
            memcpy(&v, h, hn < sizeof(v) ? hn : sizeof(v));
            for (size_t i = 0; i < e->ext; i++) {
                x[e->ext - 1 - i] = (unsigned char)(v >> (8 * i));
            }
            return;
        }
        for (size_t i = 0; i < e->ext; i++) {
            v = (v << 8) | x[i];
        }
        if (e->kind == EXT_NARROW_SIGNED && (x[0] & 0x80)) {
            v |= ~0ull << (8 * e->ext);
        }
        memcpy(h, &v, hn);
        return;
    }
    }
}

/* walks `count` elements, converting each basic item one way or the other */
static void dt__walk(const compi_datatype_t *dt, unsigned char *buf, size_t count,
                     unsigned char *x, int pack)
{
    for (size_t u = 0; u < count * dt->nrep; u++) {
        unsigned char *base = buf + dt_unit_shift(dt, u);
        for (int b = 0; b < dt->nblocks; b++) {
            const dt_block_t *bk = &dt->blocks[b];
            size_t native = dt_basic_size(bk->basic);
            dt__ext_t e = dt__ext_of(bk->basic);
            size_t hn = native / e.parts;
            unsigned char *h = base + bk->disp;

            for (size_t k = 0; k < bk->len / hn; k++) {
                dt__part(&e, h, hn, x, pack);
                h += hn;
                x += e.ext;
            }
        }
    }
}

size_t dt_external_size(const compi_datatype_t *dt, size_t count)
{
    size_t bytes = 0;

    for (int b = 0; b < dt->nblocks; b++) {
        const dt_block_t *bk = &dt->blocks[b];
        dt__ext_t e = dt__ext_of(bk->basic);
        bytes += bk->len / (dt_basic_size(bk->basic) / e.parts) * e.ext;
    }
    return bytes * dt->nrep * count;
}

void dt_pack_external(const compi_datatype_t *dt, const void *buf, size_t count, void *dst)
{
    /* packing only reads buf: the walk is shared with unpacking */
    dt__walk(dt, (unsigned char *)buf, count, dst, 1);
}

void dt_unpack_external(const compi_datatype_t *dt, void *buf, size_t count, const void *src)
{
    dt__walk(dt, buf, count, (unsigned char *)src, 0);
}
